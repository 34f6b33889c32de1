/* build.cc -- what the GCC plugin does for the build around it, apart from
 * rewriting nests (plugin.cc calls mp_build_init from plugin_init).
 *
 * 1. __MIXPREC__ is defined (MAJOR*10000 + MINOR*100 + PATCH), also under
 *    -E, so that code can tell that the plugin is active.
 * 2. The plugin file is added to the dependency file GCC writes (-MD, -MMD,
 *    -M, -MM, -MF): Make, Ninja, Meson and CMake rebuild the annotated
 *    files when mixprec is reinstalled.  (The analysis core is linked into
 *    mixprec.so: there is no other file to list.)  So is the assignment of
 *    -fplugin-arg-mixprec-profile-use=FILE (docs/precision.md).
 * 3. -fopt-info: GCC keeps only the last -fopt-info-... option
 *    (-fopt-info-loop-optimized -fopt-info-loop-missed shows only the
 *    missed remarks); for mixprec's pass the kinds of every -fopt-info
 *    option that selects the loop group (or all groups) are merged, with
 *    the file of the first one, as GCC does for the file.
 * 4. -fplugin-arg-mixprec-dump=FILE appends the dump to FILE (plain
 *    -fplugin-arg-mixprec-dump: stderr).
 * 5. Remarks longer than MP_REMARK_SHORT characters are split: a short
 *    first line (up to the first "; " or ", " that ends it early enough)
 *    and the rest on the next lines.
 */
#include "gcc-common.h"
#include "toplev.h"
#include "opts.h"
#include "mp-gcc.h"

/* libcpp's dependency list (mkdeps.h is not among the plugin headers). */
extern void deps_add_dep(class mkdeps *, const char *) __attribute__((weak));

FILE *mp_dump_fp;
static const char *mp_plugin_path;

static void define_and_depend(void *, void *)
{
	if (!parse_in)
		return;
	/* a preprocessed file (.i, -fpreprocessed) takes no definitions: its
	   -E run defined the macro already */
	if (!cpp_get_options(parse_in)->preprocessed) {
		char def[64];
		snprintf(def, sizeof def, "__MIXPREC__=%d", MP_VERSION_NUMBER);
		/* without the front end's define callback: under -g3 it records
		   the definition for the debug info, before the line maps it
		   needs exist (a crash on every file) */
		cpp_callbacks *cb = cpp_get_callbacks(parse_in);
		void (*saved)(cpp_reader *, location_t, cpp_hashnode *) = cb->define;
		cb->define = NULL;
		cpp_define(parse_in, def);
		cb->define = saved;
	}
	class mkdeps *d = cpp_get_deps(parse_in);
	if (d && deps_add_dep && mp_plugin_path)
		deps_add_dep(d, mp_plugin_path);
	/* the assignment of auto nests: a new one rebuilds the file */
	if (d && deps_add_dep && mp_opt_profile_use)
		deps_add_dep(d, mp_opt_profile_use);
}

/* The kinds (MSG_*) an -fopt-info argument ("loop-optimized-missed=f")
 * asks of the loop group, 0 when it does not select that group; *FILE
 * gets its file name or "" (stderr). */
static dump_flags_t loop_kinds(const char *arg, std::string *file)
{
	static const struct { const char *name; dump_flags_t v; } kinds[] = {
		{ "optimized", MSG_OPTIMIZED_LOCATIONS }, { "missed", MSG_MISSED_OPTIMIZATION },
		{ "note", MSG_NOTE }, { "all", MSG_ALL_KINDS }, { "internals", MSG_PRIORITY_INTERNALS },
	};
	std::string a = arg ? arg : "", word;
	size_t eq = a.find('=');
	*file = eq == std::string::npos ? "" : a.substr(eq + 1);
	if (eq != std::string::npos)
		a.resize(eq);
	dump_flags_t k = TDF_NONE;
	bool group = false, loop = false;
	for (size_t i = 0; i <= a.size(); i++) {
		if (i < a.size() && a[i] != '-') {
			word += a[i];
			continue;
		}
		bool known = false;
		for (auto &x : kinds)
			if (word == x.name)
				k |= x.v, known = true;
		if (!known && !word.empty()) {
			group = true;
			loop |= word == "loop" || word == "optall";
		}
		word.clear();
	}
	if (group && !loop)
		return TDF_NONE;
	if (!(k & MSG_ALL_KINDS))
		k |= MSG_OPTIMIZED_LOCATIONS;
	return k | MSG_PRIORITY_USER_FACING | MSG_PRIORITY_REEMITTED;
}

static void merge_opt_info(opt_pass *pass)
{
	dump_flags_t all = TDF_NONE;
	std::string first_file, file;
	int n = 0;
	for (unsigned i = 0; i < save_decoded_options_count; i++) {
		const cl_decoded_option &o = save_decoded_options[i];
		if (o.opt_index >= cl_options_count)
			continue;   /* the input file, unknown options */
		const char *text = cl_options[o.opt_index].opt_text;
		if (!text || (strcmp(text, "-fopt-info-") && strcmp(text, "-fopt-info")))
			continue;
		dump_flags_t k = loop_kinds(strcmp(text, "-fopt-info") ? o.arg : "", &file);
		if (n++ == 0)
			first_file = file;
		else if (file != first_file)
			continue;   /* GCC ignores it too (with a warning) */
		all |= k;
	}
	if (n < 2 || all == TDF_NONE)
		return;   /* GCC's own handling is right */
	dump_file_info *dfi = g->get_dumps()->get_dump_file_info(pass->static_pass_number);
	if (!dfi)
		return;
	dfi->alt_flags |= all;
	dfi->alt_state = 1;
	dfi->alt_filename = xstrdup(first_file.empty() ? "stderr" : first_file.c_str());
}

bool mp_build_init(struct plugin_name_args *info, opt_pass *pass, const char *dump_file)
{
	mp_plugin_path = info->full_name;
	mp_dump_fp = stderr;
	if (dump_file && *dump_file) {
		mp_dump_fp = fopen(dump_file, "a");
		if (!mp_dump_fp) {
			error("mixprec: cannot open the dump file %qs: %m", dump_file);
			return false;
		}
	}
	register_callback(info->base_name, PLUGIN_PRAGMAS, define_and_depend, NULL);
	merge_opt_info(pass);
	return true;
}

std::string mp_remark_split(const char *text)
{
	std::string t = text;
	size_t resume, cut = mp_remark_cut(text, MP_REMARK_SHORT, &resume);

	if (!cut)
		return t;
	return t.substr(0, cut) + "\n  " + t.substr(resume);
}
