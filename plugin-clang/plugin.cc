/* plugin.cc -- registration of mixprec's clang plugin.
 *
 *   clang -fplugin=.../mixprec-clang.so [-Rpass=mixprec] ...
 *
 * 1. At load time the plugin checks that the clang loading it has the major
 *    version it was built for, and refuses (exit status 1) otherwise.
 * 2. `#pragma mixprec(...)` (also `_Pragma`, macros expanded) is a
 *    PragmaHandler: the clauses go to the core's parser
 *    (polyhedral/mp_pragma.c), errors point at the token; a pragma outside
 *    a function is an error.  The first token the parser receives after the
 *    pragma is recorded: the statement starting there is the annotated loop.
 *    Under -E the pragma is replayed as `_Pragma(...)` so that the
 *    preprocessed output keeps it.
 * 3. An AddBeforeMainAction's consumer sees each function before code
 *    generation (HandleTopLevelDecl) and rewrites the annotated nests
 *    through Sema (nest.cc, translate.cc, rewrite.cc).
 *
 * Diagnostics: refusals are warnings of -Wbackend-plugin (silenced by -w,
 * promoted by -Werror), transformed nests are remarks shown with
 * -Rpass=mixprec or -Rremark-backend-plugin.
 * Plugin argument: -fplugin-arg-mixprec-dump (print each nest description
 * and plan to stderr).
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "mp-clang.h"

using namespace clang;

std::vector<mp_pragma_rec> mp_pragmas;
bool mp_opt_dump;
Sema *mp_sema;
static DiagnosticsEngine *mp_diags;
static std::vector<SourceLocation> mp_cookies;
static std::vector<int> mp_pending;   /* pragmas waiting for their next token */

int mp_loc_cookie(SourceLocation loc)
{
	mp_cookies.push_back(loc);
	return (int)mp_cookies.size();
}

SourceLocation mp_loc_of(int cookie)
{
	if (cookie <= 0 || cookie > (int)mp_cookies.size())
		return SourceLocation();
	return mp_cookies[cookie - 1];
}

/* ------------------------------------------------------- diagnostics */

static void report(DiagnosticsEngine::Level lvl, unsigned builtin_id, SourceLocation loc,
		   const std::string &text)
{
	if (!mp_diags)
		return;
	unsigned id = builtin_id ? builtin_id : mp_diags->getCustomDiagID(lvl, "%0");
	mp_diags->Report(loc, id) << text;
}

void mp_error(SourceLocation loc, const std::string &t) { report(DiagnosticsEngine::Error, 0, loc, t); }
void mp_note(SourceLocation loc, const std::string &t) { report(DiagnosticsEngine::Note, 0, loc, t); }
void mp_warning(SourceLocation loc, const std::string &t)
{
	report(DiagnosticsEngine::Warning, diag::warn_fe_backend_plugin, loc, t);
}
void mp_remark(SourceLocation loc, const std::string &t)
{
	report(DiagnosticsEngine::Remark, diag::remark_fe_backend_plugin, loc, t);
}

/* ------------------------------------------------------------ pragma */

static mp_tok_kind token_kind(const Token &t)
{
	if (t.getIdentifierInfo())
		return MP_TOK_NAME;
	switch (t.getKind()) {
	case tok::numeric_constant: return MP_TOK_NUMBER;
	case tok::string_literal: return MP_TOK_STRING;
	case tok::l_paren: case tok::r_paren: case tok::comma: case tok::equal:
	case tok::star: case tok::plus: case tok::minus: case tok::slash:
	case tok::l_square: case tok::r_square: case tok::period: case tok::arrow:
		return MP_TOK_PUNCT;
	default:
		return MP_TOK_OTHER;
	}
}

/* Names in scale= expressions must be declared where the pragma is. */
static bool check_scale_names(Preprocessor &PP, const std::vector<mp_token> &tok,
			      const mp_pragma &p, const std::vector<SourceLocation> &locs)
{
	bool ok = true;
	for (int i = p.scale_first; i < p.scale_first + p.scale_count; i++) {
		if (tok[i].kind != MP_TOK_NAME)
			continue;
		if (i > p.scale_first && (!strcmp(tok[i - 1].text, ".") || !strcmp(tok[i - 1].text, "->")))
			continue;   /* member name */
		LookupResult R(*mp_sema, &PP.getIdentifierTable().get(tok[i].text), locs[i],
			       Sema::LookupOrdinaryName);
		if (!mp_sema->LookupName(R, mp_sema->getCurScope())) {
			mp_error(locs[i], std::string("'") + tok[i].text +
				 "' undeclared in '#pragma mixprec'");
			ok = false;
		}
	}
	return ok;
}

namespace {
struct MixprecPragma : PragmaHandler {
	MixprecPragma() : PragmaHandler("mixprec") {}

	/* -E: give the pragma back to the printer as _Pragma("mixprec ..."). */
	void replay(Preprocessor &PP, const std::vector<Token> &toks, SourceLocation loc)
	{
		std::string text = "mixprec";
		for (const Token &t : toks) {
			std::string s = PP.getSpelling(t);
			text += (t.hasLeadingSpace() ? " " : "") + s;
		}
		std::string lit = "\"";
		for (char ch : text) {
			if (ch == '"' || ch == '\\')
				lit += '\\';
			lit += ch;
		}
		lit += '"';
		Token *out = new Token[4];   /* owned by the preprocessor from here */
		out[0].startToken();
		out[0].setKind(tok::identifier);
		out[0].setIdentifierInfo(PP.getIdentifierInfo("_Pragma"));
		out[0].setLocation(loc);
		out[1].startToken();
		out[1].setKind(tok::l_paren);
		out[1].setLocation(loc);
		out[2].startToken();
		out[2].setKind(tok::string_literal);
		PP.CreateString(lit, out[2], loc, loc);
		out[3].startToken();
		out[3].setKind(tok::r_paren);
		out[3].setLocation(loc);
		PP.RemovePragmaHandler(this);
		PP.EnterTokenStream(std::unique_ptr<Token[]>(out), 4, /*DisableMacroExpansion=*/false,
				    /*IsReinject=*/false);
	}

	void HandlePragma(Preprocessor &PP, PragmaIntroducer intro, Token &first) override
	{
		std::vector<Token> raw;
		Token t;
		for (PP.Lex(t); t.isNot(tok::eod) && t.isNot(tok::eof); PP.Lex(t))
			raw.push_back(t);
		SourceLocation end = t.getLocation();
		if (PP.isPreprocessedOutput()) {
			replay(PP, raw, intro.Loc);
			return;
		}
		std::vector<mp_token> toks;
		std::vector<SourceLocation> locs;
		for (const Token &x : raw) {
			if (toks.size() >= MP_MAX_PRAGMA_TOKENS) {
				char buf[128];
				snprintf(buf, sizeof buf, "too many arguments in '#pragma mixprec' "
					 "(more than %d tokens)", MP_MAX_PRAGMA_TOKENS);
				mp_error(raw[0].getLocation(), buf);
				return;
			}
			mp_token tk;
			memset(&tk, 0, sizeof tk);
			tk.kind = token_kind(x);
			snprintf(tk.text, sizeof tk.text, "%s", PP.getSpelling(x).c_str());
			toks.push_back(tk);
			locs.push_back(x.getLocation());
			toks.back().loc = (int)locs.size();
		}
		SourceLocation first_loc = locs.empty() ? first.getLocation() : locs[0];
		std::string err;
		if (!mp_core_load(err)) {
			mp_error(first_loc, "mixprec: " + err);
			return;
		}
		mp_pragma_rec rec;
		memset(&rec.p, 0, sizeof rec.p);
		rec.pragma_loc = first_loc;
		rec.tok_locs = locs;
		char msg[MP_REASON_LEN];
		int err_tok = 0;
		if (mp_pragma_parse(toks.data(), (int)toks.size(), &rec.p, msg, sizeof msg, &err_tok)) {
			SourceLocation el = err_tok >= 0 && err_tok < (int)locs.size() ? locs[err_tok]
					  : (locs.empty() ? first_loc : end.isValid() ? end : locs.back());
			/* at the token as written, like GCC (a macro's body, not its
			   use), with GCC's note at each expansion */
			SourceManager &SM = PP.getSourceManager();
			mp_error(SM.getSpellingLoc(el), msg);
			for (SourceLocation m = el; m.isMacroID();
			     m = SM.getImmediateMacroCallerLoc(m)) {
				StringRef name = Lexer::getImmediateMacroName(m, SM, PP.getLangOpts());
				if (name.empty())
					break;
				mp_note(SM.getSpellingLoc(SM.getImmediateExpansionRange(m).getBegin()),
					"in expansion of macro '" + name.str() + "'");
			}
			return;
		}
		if (PP.getLangOpts().CPlusPlus || PP.getLangOpts().ObjC) {
			/* the statement shapes and the rewrite are those of C; C++
			   waits for its own support (as the GCC plugin) */
			mp_warning(first_loc, "'#pragma mixprec' is supported in C only; "
				   "this loop is compiled as written");
			return;
		}
		if (!mp_sema || !mp_sema->getCurFunctionDecl()) {
			mp_error(first_loc, "'#pragma mixprec' must appear inside a function, "
				 "right before a 'for' loop");
			return;
		}
		if (rec.p.scale == MP_SCALE_EXPR && !check_scale_names(PP, toks, rec.p, locs))
			return;
		mp_pending.push_back((int)mp_pragmas.size());
		mp_pragmas.push_back(rec);
		/* The next token handed to the parser starts the annotated statement.
		   The watcher sees only tokens returned to the parser (not those
		   lexed by pragma handlers, nor re-injected ones). */
		static bool watching;
		if (!watching) {
			watching = true;
			PP.setTokenWatcher([](const Token &next) {
				if (mp_pending.empty())
					return;
				for (int id : mp_pending)
					mp_pragmas[id].next_loc = next.getLocation();
				mp_pending.clear();
			});
		}
	}
};

static PragmaHandlerRegistry::Add<MixprecPragma> *mp_pragma_reg;

/* ------------------------------------------------------ AST consumer */

struct MixprecConsumer : SemaConsumer {
	CompilerInstance &CI;
	explicit MixprecConsumer(CompilerInstance &ci) : CI(ci) {}

	void InitializeSema(Sema &S) override { mp_sema = &S; }
	void ForgetSema() override { mp_sema = nullptr; }

	bool HandleTopLevelDecl(DeclGroupRef g) override
	{
		if (mp_pragmas.empty() || !mp_sema)
			return true;
		for (Decl *d : g)
			if (FunctionDecl *fd = dyn_cast<FunctionDecl>(d))
				if (fd->doesThisDeclarationHaveABody())
					mp_process_function(CI.getASTContext(), *mp_sema, fd);
		return true;
	}

	void HandleTranslationUnit(ASTContext &) override { mp_finish_unit(); }
};

struct MixprecAction : PluginASTAction {
	std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI, StringRef) override
	{
		mp_diags = &CI.getDiagnostics();
		/* -Rpass=mixprec shows the remarks, as -Rremark-backend-plugin does */
		if (CI.getCodeGenOpts().OptimizationRemark.patternMatches("mixprec"))
			CI.getDiagnostics().setSeverity(diag::remark_fe_backend_plugin,
							diag::Severity::Remark, SourceLocation());
		return std::make_unique<MixprecConsumer>(CI);
	}

	bool ParseArgs(const CompilerInstance &CI, const std::vector<std::string> &args) override
	{
		for (const std::string &a : args) {
			if (a == "dump")
				mp_opt_dump = true;
			else
				CI.getDiagnostics().Report(CI.getDiagnostics().getCustomDiagID(
					DiagnosticsEngine::Warning, "mixprec: unknown plugin argument '%0'"))
					<< a;
		}
		return true;
	}

	ActionType getActionType() override { return AddBeforeMainAction; }
};

static FrontendPluginRegistry::Add<MixprecAction> *mp_action_reg;
} // namespace

/* ------------------------------------------------------ registration */

/* The major version of the clang that loaded the plugin, from its
 * version string ("Debian clang version 14.0.6"), or -1. */
static int host_major(std::string &full)
{
	full = getClangFullVersion();
	size_t p = full.find("version ");
	if (p == std::string::npos)
		return -1;
	return atoi(full.c_str() + p + 8);
}

__attribute__((constructor)) static void mp_register(void)
{
	std::string full;
	int major = host_major(full);
	if (major != MP_CLANG_MAJOR_BUILT) {
		/* the pkg-config variable naming the plugin for the host clang */
		char var[32];
		if (major == MP_CLANG_DEFAULT_MAJOR)
			snprintf(var, sizeof var, "clang_plugin");
		else
			snprintf(var, sizeof var, "clang%d_plugin", major);
		fprintf(stderr, "error: mixprec: this plugin was built for clang %d and cannot be "
			"loaded by clang %d (%s); use mixprec's plugin for clang %d "
			"(pkg-config --variable=%s mixprec), or build one with "
			"cmake -DMIXPREC_CLANG_EXTRA_MAJORS=%d\n",
			MP_CLANG_MAJOR_BUILT, major, full.c_str(), major, var, major);
		fflush(stderr);
		_exit(1);
	}
	mp_pragma_reg = new PragmaHandlerRegistry::Add<MixprecPragma>(
		"mixprec", "#pragma mixprec(int8, acc=int32): run the loop nest on low-precision kernels");
	mp_action_reg = new FrontendPluginRegistry::Add<MixprecAction>(
		"mixprec", "mixprec: rewrite '#pragma mixprec' loop nests into runtime kernel calls");
}
