/* build.cc -- what the clang plugin does for the build around it, apart
 * from rewriting nests (plugin.cc calls mp_build_setup when clang creates
 * the plugin's AST consumer, i.e. for every compilation that parses C).
 *
 * 1. __MIXPREC__ (MAJOR*10000 + MINOR*100 + PATCH) is predefined.  Under
 *    -E clang creates no plugin action: the macro is not defined there.
 * 2. The dependency file (-MD, -MMD, -MF): clang writes it after the
 *    plugin's last hook; when the compiler instance is gone (at exit, or
 *    when the plugin is unloaded) the plugin file and libmixprec-core.so
 *    are added to its first rule (and as phony targets under -MP), so that
 *    Make, Ninja, Meson and CMake rebuild the annotated files when mixprec
 *    is reinstalled; so is the assignment of
 *    -fplugin-arg-mixprec-profile-use=FILE (docs/precision.md).  (The plugin embeds the SHA-256 of the core it was
 *    built with, core_id<N>.c: ccache, which hashes -fplugin= files, sees a
 *    changed core as a changed plugin.)
 * 3. Remarks: -Rpass=mixprec (the transformed nests; a remark longer than
 *    MP_REMARK_SHORT characters is split into a short remark and a note
 *    with its details), -Rpass-missed=mixprec (the nests left as written, with the
 *    reason), -Rpass-analysis=mixprec (the details of each transformed nest:
 *    plan, layouts, output mode; for a refusal, where the reason is);
 *    -fsave-optimization-record (YAML): the same entries, appended to the
 *    record file as !Passed / !Missed / !Analysis documents of pass
 *    "mixprec" after clang has written it.
 * 4. -fplugin-arg-mixprec-dump=FILE: the dump is appended to FILE.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fstream>
#include <sstream>
#include "mp-clang.h"

using namespace clang;

FILE *mp_dump_fp = stderr;
std::string mp_cur_function;

namespace {
struct record { const char *kind; std::string file; unsigned line, col; std::string fn, text; };

struct build_state {
	bool active = false;
	std::string depfile;                 /* "" or "-": nothing to patch */
	std::vector<std::string> targets;
	bool phony = false;
	std::string record_file;             /* YAML optimisation record, or "" */
	std::vector<record> records;
	bool remark_passed = false, remark_missed = false, remark_analysis = false;

	~build_state() { finish(); }
	void finish();
};
build_state *mp_state;
std::vector<build_state *> mp_done;   /* one per compilation of this process */

/* Destroyed at exit or when the plugin is unloaded: after clang wrote the
 * dependency file and the record of each compilation. */
struct finisher {
	~finisher()
	{
		for (build_state *s : mp_done)
			s->finish();
	}
} mp_finisher;
}

/* The file of this plugin, and the core beside it (or MIXPREC_CORE_LIB). */
static std::string self_path()
{
	Dl_info info;
	if (!dladdr((void *)&self_path, &info) || !info.dli_fname)
		return "";
	char *r = realpath(info.dli_fname, NULL);
	std::string p = r ? r : info.dli_fname;
	free(r);
	return p;
}

static std::string core_path(const std::string &self)
{
	const char *env = getenv("MIXPREC_CORE_LIB");
	if (env && *env)
		return env;
	size_t slash = self.rfind('/');
	return (slash == std::string::npos ? "" : self.substr(0, slash + 1)) + "libmixprec-core.so";
}

/* A path as Make reads it in a dependency file (clang's own escaping). */
static std::string make_escape(const std::string &p)
{
	std::string r;
	for (char ch : p) {
		if (ch == ' ' || ch == '#')
			r += '\\';
		else if (ch == '$')
			r += '$';
		r += ch;
	}
	return r;
}

/* Add DEPS to the first rule of the dependency file (the line that does
 * not end in a backslash ends it), and phony targets under -MP. */
static void patch_depfile(const std::string &path, const std::vector<std::string> &deps,
			  bool phony)
{
	std::ifstream in(path);
	if (!in)
		return;
	std::stringstream ss;
	ss << in.rdbuf();
	std::string text = ss.str();
	in.close();
	std::string add;
	for (const std::string &d : deps)
		if (text.find(make_escape(d)) == std::string::npos)
			add += " \\\n  " + make_escape(d);
	if (add.empty())
		return;
	size_t end = 0;
	for (;;) {
		size_t nl = text.find('\n', end);
		if (nl == std::string::npos) {
			end = text.size();
			break;
		}
		if (nl == 0 || text[nl - 1] != '\\') {
			end = nl;
			break;
		}
		end = nl + 1;
	}
	text.insert(end, add);
	if (phony)
		for (const std::string &d : deps)
			text += "\n" + make_escape(d) + ":\n";
	std::ofstream out(path, std::ios::trunc);
	out << text;
}

static std::string yaml_quote(const std::string &s)
{
	std::string r = "'";
	for (char ch : s) {
		if (ch == '\'')
			r += "''";
		else if (ch == '\n')
			r += ' ';
		else
			r += ch;
	}
	return r + "'";
}

void build_state::finish()
{
	if (!active)
		return;
	active = false;
	if (!depfile.empty() && depfile != "-") {
		std::string self = self_path();
		std::vector<std::string> deps;
		if (!self.empty())
			deps = { self, core_path(self) };
		/* the assignment of auto nests: a new one rebuilds the file */
		if (!mp_opt_profile_use.empty())
			deps.push_back(mp_opt_profile_use);
		if (!deps.empty())
			patch_depfile(depfile, deps, phony);
	}
	if (!record_file.empty() && !records.empty()) {
		FILE *f = fopen(record_file.c_str(), "a");
		if (!f)
			return;
		for (const record &r : records)
			fprintf(f, "--- !%s\nPass:            mixprec\nName:            %s\n"
				"DebugLoc:        { File: %s, Line: %u, Column: %u }\n"
				"Function:        %s\nArgs:\n  - String:          %s\n...\n",
				r.kind, !strcmp(r.kind, "Passed") ? "Transformed"
				: !strcmp(r.kind, "Missed") ? "NotTransformed" : "Plan",
				yaml_quote(r.file).c_str(), r.line, r.col,
				yaml_quote(r.fn.empty() ? "?" : r.fn).c_str(), yaml_quote(r.text).c_str());
		fclose(f);
	}
}

bool mp_build_setup(CompilerInstance &CI, const char *dump_file)
{
	if (dump_file && *dump_file && mp_dump_fp == stderr) {
		mp_dump_fp = fopen(dump_file, "a");
		if (!mp_dump_fp) {
			mp_dump_fp = stderr;
			CI.getDiagnostics().Report(CI.getDiagnostics().getCustomDiagID(
				DiagnosticsEngine::Error, "mixprec: cannot open the dump file '%0': %1"))
				<< dump_file << strerror(errno);
			return false;
		}
	}
	Preprocessor &PP = CI.getPreprocessor();
	PP.setPredefines(PP.getPredefines() + "#define __MIXPREC__ " +
			 std::to_string(MP_VERSION_NUMBER) + "\n");

	build_state *s = new build_state;   /* finished at exit */
	const DependencyOutputOptions &dep = CI.getDependencyOutputOpts();
	s->depfile = dep.OutputFile;
	s->targets = dep.Targets;
	s->phony = dep.UsePhonyTargets;
	const CodeGenOptions &cg = CI.getCodeGenOpts();
	if (!cg.OptRecordFile.empty() && (cg.OptRecordFormat.empty() || cg.OptRecordFormat == "yaml"))
		s->record_file = cg.OptRecordFile;
	s->remark_passed = cg.OptimizationRemark.patternMatches("mixprec");
	s->remark_missed = cg.OptimizationRemarkMissed.patternMatches("mixprec");
	s->remark_analysis = cg.OptimizationRemarkAnalysis.patternMatches("mixprec");
	s->active = true;
	mp_state = s;
	mp_done.push_back(s);
	return true;
}

static void note_record(const char *kind, SourceLocation loc, const std::string &text)
{
	if (!mp_state || mp_state->record_file.empty() || !mp_sema)
		return;
	PresumedLoc pl = mp_sema->getSourceManager().getPresumedLoc(
		mp_sema->getSourceManager().getExpansionLoc(loc));
	record r;
	r.kind = kind;
	r.file = pl.isValid() ? pl.getFilename() : "?";
	r.line = pl.isValid() ? pl.getLine() : 0;
	r.col = pl.isValid() ? pl.getColumn() : 0;
	r.fn = mp_cur_function;
	r.text = text;
	mp_state->records.push_back(r);
}

std::string mp_remark_split(const std::string &t, std::string *details)
{
	size_t resume, cut = mp_remark_cut(t.c_str(), MP_REMARK_SHORT, &resume);

	details->clear();
	if (!cut)
		return t;
	*details = t.substr(resume);
	return t.substr(0, cut);
}

void mp_report_passed(SourceLocation loc, const std::string &text)
{
	/* clang prints a message on one line: the details are a note */
	std::string details, first = mp_remark_split(text, &details);
	mp_remark(loc, first);
	if (!details.empty())
		mp_note(loc, details);
	note_record("Passed", loc, text);
	if (mp_state && mp_state->remark_analysis)
		mp_report(DiagnosticsEngine::Remark, diag::remark_fe_backend_optimization_remark_analysis,
			  loc, "mixprec: " + text);
	note_record("Analysis", loc, text);
}

void mp_report_missed(SourceLocation loc, const std::string &reason, SourceLocation at)
{
	std::string text = "mixprec: loop nest not transformed: " + reason;
	if (mp_state && mp_state->remark_missed)
		mp_report(DiagnosticsEngine::Remark, diag::remark_fe_backend_optimization_remark_missed,
			  loc, text);
	note_record("Missed", loc, text);
	if (at.isValid() && mp_state && mp_state->remark_analysis)
		mp_report(DiagnosticsEngine::Remark, diag::remark_fe_backend_optimization_remark_analysis,
			  at, "mixprec: the reason the nest was not transformed is here: " + reason);
}
