/* core.cc -- the core (polyhedral/ + ISL) as seen from the clang plugin.
 *
 * libmixprec-core.so is loaded from the plugin's own directory with
 * dlopen(RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND): its ISL then binds to the
 * libisl it was linked with, never to the ISL inside libLLVM.  The mp_*
 * functions of mp_nest.h are defined here as forwarders through the table,
 * so the glue calls the core exactly as the GCC plugin does.  They are
 * hidden (-fvisibility=hidden): nothing outside the plugin sees them.
 *
 * Sanitizer builds (-DMIXPREC_SANITIZE=ON) load the core without
 * RTLD_DEEPBIND, which AddressSanitizer refuses: the core's ISL calls then
 * bind to the first ISL of the global scope, and the tests preload libisl
 * ahead of libLLVM (MIXPREC_SAN_CC_ENV).  mp_core_load checks that binding.
 */
#include <dlfcn.h>
#include <string.h>
#include <string>
#include "mp-core-table.h"
#include "mp-clang.h"

static const mp_core_table *T;

/* Directory of this plugin file, with a trailing '/'. */
static std::string plugin_dir()
{
	Dl_info info;
	if (!dladdr((void *)&plugin_dir, &info) || !info.dli_fname)
		return "";
	std::string p = info.dli_fname;
	size_t slash = p.rfind('/');
	return slash == std::string::npos ? "" : p.substr(0, slash + 1);
}

bool mp_core_load(std::string &err)
{
	if (T)
		return true;
	const char *env = getenv("MIXPREC_CORE_LIB");
	std::string path = env && *env ? env : plugin_dir() + "libmixprec-core.so";
#if defined(MP_SANITIZE_BUILD)
	/* the global scope's ISL is the one the core will call: it must be
	   libisl, never libLLVM's */
	Dl_info isl_info;
	void *isl_sym = dlsym(RTLD_DEFAULT, "isl_ctx_alloc");
	if (isl_sym && (!dladdr(isl_sym, &isl_info) || !isl_info.dli_fname ||
			!strstr(isl_info.dli_fname, "libisl"))) {
		err = std::string("this sanitizer build of the plugin loads its core without "
				  "RTLD_DEEPBIND, and ISL would bind to '") +
		      (isl_sym && isl_info.dli_fname ? isl_info.dli_fname : "?") +
		      "'; preload libisl after libasan (LD_PRELOAD=libasan.so:libisl.so)";
		return false;
	}
	void *h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
#else
	void *h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
#endif
	if (!h) {
		const char *e = dlerror();
		err = "cannot load the mixprec core '" + path + "': " + (e ? e : "unknown error");
		return false;
	}
	mp_core_table_fn *entry = (mp_core_table_fn *)dlsym(h, MP_CORE_TABLE_SYMBOL);
	const mp_core_table *t = entry ? entry() : NULL;
	if (!t || t->version != MP_CORE_TABLE_VERSION || t->size != sizeof(mp_core_table) ||
	    t->nest_size != sizeof(mp_nest) || t->plan_size != sizeof(mp_plan)) {
		err = "the mixprec core '" + path + "' does not match this plugin "
		      "(rebuild both from the same sources)";
		return false;
	}
	T = t;
	return true;
}

extern "C" {
void mp_nest_init(mp_nest *n) { T->nest_init(n); }
int mp_nest_add_var(mp_nest *n, const char *name, mp_var_kind kind, mp_scalar type)
{ return T->nest_add_var(n, name, kind, type); }
int mp_nest_find_var(const mp_nest *n, const char *name) { return T->nest_find_var(n, name); }
int mp_nest_add_loop(mp_nest *n, int iter, int parent, int pos, const mp_aff *lo,
		     const mp_aff *hi, int64_t step)
{ return T->nest_add_loop(n, iter, parent, pos, lo, hi, step); }
int mp_nest_add_array(mp_nest *n, const char *name, int base_var, int is_decl, int64_t size)
{ return T->nest_add_array(n, name, base_var, is_decl, size); }
int mp_nest_add_access(mp_nest *n, int array, const mp_aff *off, int affine, mp_scalar elem,
		       int elem_size, int is_write, int stmt)
{ return T->nest_add_access(n, array, off, affine, elem, elem_size, is_write, stmt); }
int mp_nest_add_expr(mp_nest *n, const mp_expr *e) { return T->nest_add_expr(n, e); }
int mp_nest_add_aff_expr(mp_nest *n, const mp_aff *a, mp_scalar ty)
{
	return T->nest_add_aff_expr(n, a, ty);
}
int mp_nest_add_stmt(mp_nest *n, const mp_stmt *s) { return T->nest_add_stmt(n, s); }
int mp_nest_add_cond(mp_nest *n, const mp_aff *e, int loc) { return T->nest_add_cond(n, e, loc); }
void mp_aff_const(mp_aff *r, int64_t c) { T->aff_const(r, c); }
void mp_aff_var(mp_aff *r, int var) { T->aff_var(r, var); }
int mp_aff_add(mp_aff *r, const mp_aff *a, const mp_aff *b) { return T->aff_add(r, a, b); }
int mp_aff_scale(mp_aff *r, const mp_aff *a, int64_t c) { return T->aff_scale(r, a, c); }
int mp_aff_mul(mp_nest *n, mp_aff *r, const mp_aff *a, const mp_aff *b)
{ return T->aff_mul(n, r, a, b); }
int mp_aff_is_const(const mp_aff *a, int64_t *c) { return T->aff_is_const(a, c); }
void mp_aff_coef_of(const mp_aff *a, int it, mp_aff *coef) { T->aff_coef_of(a, it, coef); }
int mp_aff_uses_var(const mp_aff *a, int var) { return T->aff_uses_var(a, var); }
int mp_aff_print(const mp_nest *n, const mp_aff *a, char *buf, size_t len)
{ return T->aff_print(n, a, buf, len); }
int mp_nest_print(const mp_nest *n, char *buf, size_t len) { return T->nest_print(n, buf, len); }
int mp_nest_parse(mp_nest *n, const char *text) { return T->nest_parse(n, text); }
int mp_pragma_parse(const mp_token *tok, int ntok, mp_pragma *out, char *err, size_t errlen,
		    int *err_tok)
{ return T->pragma_parse(tok, ntok, out, err, errlen, err_tok); }
const char *mp_prec_name(mp_prec p) { return T->prec_name(p); }
const char *mp_target_name(mp_target t) { return T->target_name(t); }
int mp_analyze(mp_nest *n, const mp_pragma *p, mp_plan *plan) { return T->analyze(n, p, plan); }
int mp_plan_remark(const mp_plan *p, const mp_pragma *pr, int arch, char *buf, size_t len)
{ return T->plan_remark(p, pr, arch, buf, len); }
const char *mp_scalar_name(mp_scalar t) { return T->scalar_name(t); }
int mp_scalar_is_int(mp_scalar t) { return T->scalar_is_int(t); }
int mp_scalar_bits(mp_scalar t) { return T->scalar_bits(t); }
int mp_plan_call_args(const mp_nest *n, const mp_plan *p, const mp_pragma *pr, mp_arg *out, int max)
{ return T->plan_call_args(n, p, pr, out, max); }
void mp_plan_work(const mp_nest *n, const mp_plan *p, const mp_arg *args, int na, mp_work *w)
{ T->plan_work(n, p, args, na, w); }
int mp_aff_minmax(const mp_aff *e, const mp_aff *tv, const mp_aff *fv, int *is_max)
{ return T->aff_minmax(e, tv, fv, is_max); }
int mp_nest_add_narrow(mp_nest *n, const mp_aff *e, int bits, int uns)
{ return T->nest_add_narrow(n, e, bits, uns); }
int mp_aff_iters(const mp_nest *n, const mp_aff *a, int *it) { return T->aff_iters(n, a, it); }
int mp_plan_live_loops(const mp_nest *n, const mp_plan *p, int *out, int max)
{
	return T->plan_live_loops(n, p, out, max);
}
int mp_analyze_all(mp_nest *n, const mp_pragma *p, mp_plan *plans, int max)
{ return T->analyze_all(n, p, plans, max); }
int mp_pragma_scales(const mp_token *tok, int ntok, mp_pragma *p, char *err, size_t errlen,
		     int *err_tok)
{ return T->pragma_scales(tok, ntok, p, err, errlen, err_tok); }
}
