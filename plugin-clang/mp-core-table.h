/* mp-core-table.h -- the core's entry points as one table of function
 * pointers: the contract between mixprec-clang.so and libmixprec-core.so.
 *
 * The clang plugin must not link ISL itself (libLLVM exports its own,
 * different ISL); it dlopen()s libmixprec-core.so (polyhedral/ + ISL) with
 * RTLD_DEEPBIND and reaches the core only through this table.  Append new
 * entries at the end and bump MP_CORE_TABLE_VERSION when one changes.
 */
#ifndef MP_CORE_TABLE_H
#define MP_CORE_TABLE_H

#include "mp_nest.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MP_CORE_TABLE_VERSION 17   /* 16: nest_add_aff_expr; 17: mp_loop.zguard_src */
#define MP_CORE_TABLE_SYMBOL "mp_core_entry"

typedef struct mp_core_table {
	int version;           /* MP_CORE_TABLE_VERSION */
	size_t size;           /* sizeof(mp_core_table) of the library */
	size_t nest_size;      /* sizeof(mp_nest): both sides agree on the layout */
	size_t plan_size;      /* sizeof(mp_plan) */

	void (*nest_init)(mp_nest *n);
	int (*nest_add_var)(mp_nest *n, const char *name, mp_var_kind kind, mp_scalar type);
	int (*nest_find_var)(const mp_nest *n, const char *name);
	int (*nest_add_loop)(mp_nest *n, int iter, int parent, int pos,
			     const mp_aff *lo, const mp_aff *hi, int64_t step);
	int (*nest_add_array)(mp_nest *n, const char *name, int base_var, int is_decl,
			      int64_t size_bytes);
	int (*nest_add_access)(mp_nest *n, int array, const mp_aff *off, int affine,
			       mp_scalar elem, int elem_size, int is_write, int stmt);
	int (*nest_add_expr)(mp_nest *n, const mp_expr *e);
	int (*nest_add_stmt)(mp_nest *n, const mp_stmt *s);
	void (*aff_const)(mp_aff *r, int64_t c);
	void (*aff_var)(mp_aff *r, int var);
	int (*aff_add)(mp_aff *r, const mp_aff *a, const mp_aff *b);
	int (*aff_scale)(mp_aff *r, const mp_aff *a, int64_t c);
	int (*aff_mul)(mp_nest *n, mp_aff *r, const mp_aff *a, const mp_aff *b);
	int (*aff_is_const)(const mp_aff *a, int64_t *c);
	void (*aff_coef_of)(const mp_aff *a, int it, mp_aff *coef);
	int (*aff_uses_var)(const mp_aff *a, int var);
	int (*aff_print)(const mp_nest *n, const mp_aff *a, char *buf, size_t len);
	int (*nest_print)(const mp_nest *n, char *buf, size_t len);
	int (*nest_parse)(mp_nest *n, const char *text);
	int (*pragma_parse)(const mp_token *tok, int ntok, mp_pragma *out,
			    char *err, size_t errlen, int *err_tok);
	const char *(*prec_name)(mp_prec p);
	const char *(*target_name)(mp_target t);
	int (*analyze)(mp_nest *n, const mp_pragma *p, mp_plan *plan);
	/* version 9: the architecture's kernels */
	int (*plan_remark)(const mp_plan *p, const mp_pragma *pr, int arch, char *buf,
			   size_t len);
	const char *(*scalar_name)(mp_scalar t);
	int (*scalar_is_int)(mp_scalar t);
	int (*scalar_bits)(mp_scalar t);
	int (*plan_call_args)(const mp_nest *n, const mp_plan *p, const mp_pragma *pr,
			      mp_arg *out, int max);
	/* version 3 */
	int (*pragma_scales)(const mp_token *tok, int ntok, mp_pragma *p,
			     char *err, size_t errlen, int *err_tok);
	/* version 5 */
	int (*analyze_all)(mp_nest *n, const mp_pragma *p, mp_plan *plans, int max);
	/* version 7 */
	int (*nest_add_cond)(mp_nest *n, const mp_aff *e, int loc);
	/* version 8 */
	void (*plan_work)(const mp_nest *n, const mp_plan *p, const mp_arg *args, int na,
			  mp_work *w);
	int (*aff_minmax)(const mp_aff *e, const mp_aff *tv, const mp_aff *fv, int *is_max);
	/* version 12 */
	int (*nest_add_narrow)(mp_nest *n, const mp_aff *e, int bits, int uns);
	int (*aff_iters)(const mp_nest *n, const mp_aff *a, int *it);
	int (*plan_live_loops)(const mp_nest *, const mp_plan *, int *, int);
	/* version 16 */
	int (*nest_add_aff_expr)(mp_nest *n, const mp_aff *a, mp_scalar ty);
} mp_core_table;

typedef const mp_core_table *mp_core_table_fn(void);

#ifdef __cplusplus
}
#endif
#endif
