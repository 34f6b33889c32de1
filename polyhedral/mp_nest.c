/* mp_nest.c -- builders, affine helpers and the text format of mp_nest.
 *
 * Implements the value-type half of mp_nest.h: the table builders the
 * compiler glue calls while walking its IR, the quasi-affine helpers
 * (mp_aff_*), the scalar-type helpers, and mp_nest_print / mp_nest_parse,
 * the line-based text format of docs/nest-format.md that unit tests write
 * by hand and the glue dumps for debugging.
 *
 * Workload: nests of a handful of loops and statements; nothing here is
 * performance sensitive.  Every function is total: bad input sets n->error
 * (builders, parser) or returns -1 (affine helpers), never aborts.
 */
#include "mp_nest.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- scalars */

static const char *const scalar_names[] = {
	"other", "s8", "u8", "s16", "u16", "s32", "u32", "s64", "u64",
	"f32", "f64", "ptr"
};

const char *mp_scalar_name(mp_scalar t)
{
	if ((int)t < 0 || (int)t > (int)MP_TY_PTR)
		return "?";
	return scalar_names[t];
}

int mp_scalar_is_int(mp_scalar t)
{
	return t >= MP_TY_S8 && t <= MP_TY_U64;
}

int mp_scalar_bits(mp_scalar t)
{
	switch (t) {
	case MP_TY_S8: case MP_TY_U8: return 8;
	case MP_TY_S16: case MP_TY_U16: return 16;
	case MP_TY_S32: case MP_TY_U32: case MP_TY_F32: return 32;
	case MP_TY_S64: case MP_TY_U64: case MP_TY_F64: case MP_TY_PTR: return 64;
	default: return 0;
	}
}

/* ------------------------------------------------------------ builders */

/* Record the first error only: later ones are usually consequences. */
static void nest_error(mp_nest *n, const char *fmt, ...)
{
	va_list ap;

	if (n->error[0])
		return;
	va_start(ap, fmt);
	vsnprintf(n->error, sizeof(n->error), fmt, ap);
	va_end(ap);
}

static void copy_name(char *dst, const char *src)
{
	memset(dst, 0, MP_NAME_LEN);
	if (src)
		strncpy(dst, src, MP_NAME_LEN - 1);
}

void mp_nest_init(mp_nest *n)
{
	memset(n, 0, sizeof(*n));
}

int mp_nest_add_var(mp_nest *n, const char *name, mp_var_kind kind, mp_scalar type)
{
	mp_var *v;

	if (n->nvars >= MP_MAX_VARS) {
		nest_error(n, "the nest uses more than %d variables", MP_MAX_VARS);
		return -1;
	}
	v = &n->var[n->nvars];
	memset(v, 0, sizeof(*v));
	copy_name(v->name, name);
	v->kind = kind;
	v->type = type;
	v->loop = -1;
	v->same_as = -1;
	v->outer_iter = 0;
	v->prod[0] = v->prod[1] = -1;
	return n->nvars++;
}

int mp_nest_find_var(const mp_nest *n, const char *name)
{
	int i;

	for (i = 0; i < n->nvars; i++)
		if (strncmp(n->var[i].name, name, MP_NAME_LEN - 1) == 0)
			return i;
	return -1;
}

int mp_nest_add_loop(mp_nest *n, int iter, int parent, int pos,
		     const mp_aff *lo, const mp_aff *hi, int64_t step)
{
	mp_loop *l;

	if (n->nloops >= MP_MAX_LOOPS) {
		nest_error(n, "the nest has more than %d loops", MP_MAX_LOOPS);
		return -1;
	}
	if (iter < 0 || iter >= n->nvars || parent < -1 || parent >= n->nloops) {
		nest_error(n, "invalid loop description (iterator %d, parent %d)",
			   iter, parent);
		return -1;
	}
	l = &n->loop[n->nloops];
	memset(l, 0, sizeof(*l));
	l->iter = iter;
	l->parent = parent;
	l->pos = pos;
	l->lo = *lo;
	l->hi = *hi;
	l->step = step;
	l->after = -1;
	l->step_var = -1;
	l->zguard = -1;
	l->orig = n->nloops;
	n->var[iter].loop = n->nloops;
	return n->nloops++;
}

int mp_nest_add_array(mp_nest *n, const char *name, int base_var, int is_decl,
		      int64_t size_bytes)
{
	mp_array *a;

	if (n->narrays >= MP_MAX_ARRAYS) {
		nest_error(n, "the nest accesses more than %d arrays", MP_MAX_ARRAYS);
		return -1;
	}
	a = &n->array[n->narrays];
	memset(a, 0, sizeof(*a));
	copy_name(a->name, name);
	a->base_var = base_var;
	a->is_decl = is_decl;
	a->size_bytes = size_bytes;
	return n->narrays++;
}

int mp_nest_add_access(mp_nest *n, int array, const mp_aff *off, int affine,
		       mp_scalar elem, int elem_size, int is_write, int stmt)
{
	mp_access *a;

	if (n->naccesses >= MP_MAX_ACCESSES) {
		nest_error(n, "the nest has more than %d memory accesses",
			   MP_MAX_ACCESSES);
		return -1;
	}
	if (array < 0 || array >= n->narrays) {
		nest_error(n, "access to an unknown array (%d)", array);
		return -1;
	}
	a = &n->access[n->naccesses];
	memset(a, 0, sizeof(*a));
	a->array = array;
	if (off)
		a->off = *off;
	a->affine = affine;
	a->elem = elem;
	a->elem_size = elem_size;
	a->is_write = is_write;
	a->stmt = stmt;
	a->via = -1;
	return n->naccesses++;
}

int mp_nest_add_expr(mp_nest *n, const mp_expr *e)
{
	if (n->nexprs >= MP_MAX_EXPRS) {
		nest_error(n, "the nest has more than %d expression nodes",
			   MP_MAX_EXPRS);
		return -1;
	}
	if (e->kind == MP_X_CALL && (e->nargs < 0 || e->nargs > MP_MAX_ARGS)) {
		nest_error(n, "a call to '%.*s' has %d arguments; at most %d are "
			   "described", (int)sizeof(e->op), e->op, e->nargs, MP_MAX_ARGS);
		return -1;
	}
	n->expr[n->nexprs] = *e;
	if (e->kind == MP_X_CALL) {
		n->expr[n->nexprs].a = e->nargs > 0 ? e->args[0] : -1;
		n->expr[n->nexprs].b = e->nargs > 1 ? e->args[1] : -1;
	}
	return n->nexprs++;
}

static int aff_node(mp_nest *n, mp_expr_kind k, mp_scalar ty, int64_t cst, int var, int a, int b)
{
	mp_expr e;

	memset(&e, 0, sizeof(e));
	e.kind = k;
	e.type = ty;
	e.cst = cst;
	e.var = var;
	e.access = -1;
	e.a = a;
	e.b = b;
	return mp_nest_add_expr(n, &e);
}

int mp_nest_add_aff_expr(mp_nest *n, const mp_aff *a, mp_scalar ty)
{
	int e = aff_node(n, MP_X_CONST, ty, a->cst, -1, -1, -1);

	for (int q = 0; q < a->n && e >= 0; q++) {
		int x = aff_node(n, MP_X_VAR, ty, 0, a->t[q].v1, -1, -1);

		if (x >= 0 && a->t[q].v2 >= 0)
			x = aff_node(n, MP_X_MUL, ty, 0, -1, x,
				     aff_node(n, MP_X_VAR, ty, 0, a->t[q].v2, -1, -1));
		int k = x < 0 ? -1 : aff_node(n, MP_X_CONST, ty, a->t[q].coef, -1, -1, -1);

		if (k < 0)
			return -1;
		x = aff_node(n, MP_X_MUL, ty, 0, -1, k, x);
		e = x < 0 ? -1 : aff_node(n, MP_X_ADD, ty, 0, -1, e, x);
	}
	return e;
}

int mp_nest_add_stmt(mp_nest *n, const mp_stmt *s)
{
	if (n->nstmts >= MP_MAX_STMTS) {
		nest_error(n, "the nest has more than %d statements", MP_MAX_STMTS);
		return -1;
	}
	n->stmt[n->nstmts] = *s;
	return n->nstmts++;
}

int mp_nest_add_cond(mp_nest *n, const mp_aff *e, int loc)
{
	for (int c = 0; c < n->nconds; c++)
		if (mp_aff_equal(&n->cond[c].e, e))
			return c;
	if (n->nconds >= MP_MAX_CONDS)
		return -1;
	n->cond[n->nconds].e = *e;
	n->cond[n->nconds].loc = loc;
	return n->nconds++;
}

/* -------------------------------------------------------- affine forms */

void mp_aff_const(mp_aff *r, int64_t c)
{
	memset(r, 0, sizeof(*r));
	r->cst = c;
}

void mp_aff_var(mp_aff *r, int var)
{
	mp_aff_const(r, 0);
	r->n = 1;
	r->t[0].coef = 1;
	r->t[0].v1 = var;
	r->t[0].v2 = -1;
}

/* Do terms x and y multiply the same variables (in either order)? */
static int same_vars(const mp_term *x, const mp_term *y)
{
	return (x->v1 == y->v1 && x->v2 == y->v2) ||
	       (x->v1 == y->v2 && x->v2 == y->v1);
}

/* Add coef * v1 [* v2] to r, merging like terms; -1 when full/overflow. */
static int aff_add_term(mp_aff *r, int64_t coef, int v1, int v2)
{
	mp_term t = { coef, v1, v2 };
	int i;

	if (coef == 0)
		return 0;
	for (i = 0; i < r->n; i++) {
		if (!same_vars(&r->t[i], &t))
			continue;
		if (__builtin_add_overflow(r->t[i].coef, coef, &r->t[i].coef))
			return -1;
		if (r->t[i].coef == 0) {
			memmove(&r->t[i], &r->t[i + 1],
				(size_t)(r->n - i - 1) * sizeof(mp_term));
			r->n--;
			memset(&r->t[r->n], 0, sizeof(mp_term));
		}
		return 0;
	}
	if (r->n >= MP_MAX_TERMS)
		return -1;
	r->t[r->n++] = t;
	return 0;
}

int mp_aff_add(mp_aff *r, const mp_aff *a, const mp_aff *b)
{
	mp_aff s = *a;
	int i;

	if (__builtin_add_overflow(a->cst, b->cst, &s.cst))
		return -1;
	for (i = 0; i < b->n; i++)
		if (aff_add_term(&s, b->t[i].coef, b->t[i].v1, b->t[i].v2) < 0)
			return -1;
	*r = s;
	return 0;
}

static int is_iter(const mp_nest *n, int v);

int mp_aff_iters(const mp_nest *n, const mp_aff *a, int *it)
{
	int ni = 0;

	for (int i = 0; i < a->n; i++)
		for (int f = 0; f < 2; f++) {
			int v = f ? a->t[i].v2 : a->t[i].v1, k;

			if (!is_iter(n, v))
				continue;
			for (k = 0; k < ni && it[k] != v; k++)
				;
			if (k == ni)
				it[ni++] = v;
		}
	return ni;
}

int mp_nest_add_narrow(mp_nest *n, const mp_aff *e, int bits, int uns)
{
	int64_t lo, hi;
	int i, seen[2 * MP_MAX_TERMS], it = mp_aff_iters(n, e, seen);

	if (bits < 1 || bits >= 64)
		return -1;
	lo = uns ? 0 : -((int64_t)1 << (bits - 1));
	hi = uns ? ((int64_t)1 << bits) - 1 : ((int64_t)1 << (bits - 1)) - 1;
	if (it == 0)
		return 1;   /* loop-invariant: the glue keeps it as written */
	if (it > MP_MAX_NARROW_ITERS)
		return -1;
	for (i = 0; i < n->nnarrow; i++)
		if (n->narrow[i].lo == lo && n->narrow[i].hi == hi &&
		    mp_aff_equal(&n->narrow[i].e, e))
			return 0;
	if (n->nnarrow >= MP_MAX_NARROW)
		return -1;
	n->narrow[n->nnarrow].e = *e;
	n->narrow[n->nnarrow].lo = lo;
	n->narrow[n->nnarrow].hi = hi;
	n->nnarrow++;
	return 0;
}

int mp_aff_equal(const mp_aff *a, const mp_aff *b)
{
	mp_aff neg, d;

	if (mp_aff_scale(&neg, b, -1) < 0 || mp_aff_add(&d, a, &neg) < 0)
		return 0;
	return d.n == 0 && d.cst == 0;
}

/* x a positive multiple of y, or y of x (up to 16) */
static int aff_prop(const mp_aff *x, const mp_aff *y)
{
	mp_aff m;

	for (int c = 1; c <= 16; c++)
		if ((mp_aff_scale(&m, y, c) == 0 && mp_aff_equal(x, &m)) ||
		    (mp_aff_scale(&m, x, c) == 0 && mp_aff_equal(&m, y)))
			return 1;
	return 0;
}

int mp_aff_minmax(const mp_aff *e, const mp_aff *tv, const mp_aff *fv, int *is_max)
{
	mp_aff d, nd;

	if (mp_aff_scale(&nd, fv, -1) < 0 || mp_aff_add(&d, tv, &nd) < 0 ||
	    mp_aff_scale(&nd, &d, -1) < 0)
		return 0;
	if (aff_prop(e, &d))
		*is_max = 1;   /* tv - fv >= 0 ? tv : fv */
	else if (aff_prop(e, &nd))
		*is_max = 0;   /* fv - tv >= 0 ? tv : fv */
	else
		return 0;
	return 1;
}

int mp_aff_scale(mp_aff *r, const mp_aff *a, int64_t c)
{
	mp_aff s;
	int i;

	mp_aff_const(&s, 0);
	if (__builtin_mul_overflow(a->cst, c, &s.cst))
		return -1;
	for (i = 0; i < a->n && c != 0; i++) {
		int64_t k;

		if (__builtin_mul_overflow(a->t[i].coef, c, &k))
			return -1;
		if (aff_add_term(&s, k, a->t[i].v1, a->t[i].v2) < 0)
			return -1;
	}
	*r = s;
	return 0;
}

static int is_iter(const mp_nest *n, int v)
{
	return v >= 0 && v < n->nvars && n->var[v].kind == MP_VAR_ITER;
}

int mp_nest_prod_var(mp_nest *n, int a, int b)
{
	char name[MP_NAME_LEN];
	int v;

	if (a > b) {
		int t = a; a = b; b = t;
	}
	for (v = 0; v < n->nvars; v++)
		if (n->var[v].kind == MP_VAR_PARAM && n->var[v].prod[0] == a &&
		    n->var[v].prod[1] == b)
			return v;
	snprintf(name, sizeof name, "%.22s*%.22s", n->var[a].name, n->var[b].name);
	if (mp_nest_find_var(n, name) >= 0)
		snprintf(name, sizeof name, "prod.%d", n->nvars);
	v = mp_nest_add_var(n, name, MP_VAR_PARAM, MP_TY_S64);
	if (v >= 0) {
		n->var[v].prod[0] = a;
		n->var[v].prod[1] = b;
	}
	return v;
}

/* coef * (the factors of x) * (the factors of y) as one term of s: at
 * most one iterator; parameters beyond the one (or two, without an
 * iterator) a term holds are folded into product variables. */
static int add_product(mp_nest *n, mp_aff *s, int64_t coef, const mp_term *x, const mp_term *y)
{
	int f[4], nf = 0, it = -1, p[4], np = 0, i;

	f[nf++] = x->v1;
	if (x->v2 >= 0)
		f[nf++] = x->v2;
	f[nf++] = y->v1;
	if (y->v2 >= 0)
		f[nf++] = y->v2;
	for (i = 0; i < nf; i++) {
		if (is_iter(n, f[i])) {
			if (it >= 0)
				return -1;   /* iterator * iterator: not affine */
			it = f[i];
		} else {
			p[np++] = f[i];
		}
	}
	while (np > (it >= 0 ? 1 : 2)) {
		int q = mp_nest_prod_var(n, p[0], p[1]);

		if (q < 0)
			return -1;
		p[0] = q;
		for (i = 1; i + 1 < np; i++)
			p[i] = p[i + 1];
		np--;
	}
	if (it >= 0)
		return aff_add_term(s, coef, it, np ? p[0] : -1);
	if (np == 2 && p[1] < p[0]) {
		int t = p[0]; p[0] = p[1]; p[1] = t;
	}
	return aff_add_term(s, coef, p[0], np == 2 ? p[1] : -1);
}

int mp_aff_mul(mp_nest *n, mp_aff *r, const mp_aff *a, const mp_aff *b)
{
	mp_aff s, part;
	int i, j;
	int64_t c;

	if (mp_aff_is_const(a, &c))
		return mp_aff_scale(r, b, c);
	if (mp_aff_is_const(b, &c))
		return mp_aff_scale(r, a, c);
	/* both non-constant */
	if (mp_aff_scale(&s, a, b->cst) < 0)
		return -1;
	if (mp_aff_scale(&part, b, a->cst) < 0 || mp_aff_add(&s, &s, &part) < 0)
		return -1;
	if (__builtin_mul_overflow(a->cst, b->cst, &c) ||
	    __builtin_sub_overflow(s.cst, c, &s.cst))
		return -1;  /* cst counted twice above */
	for (i = 0; i < a->n; i++)
		for (j = 0; j < b->n; j++) {
			int64_t k;

			if (__builtin_mul_overflow(a->t[i].coef, b->t[j].coef, &k))
				return -1;
			if (add_product(n, &s, k, &a->t[i], &b->t[j]) < 0)
				return -1;
		}
	*r = s;
	return 0;
}

int mp_aff_is_const(const mp_aff *a, int64_t *c)
{
	if (a->n != 0)
		return 0;
	if (c)
		*c = a->cst;
	return 1;
}

void mp_aff_coef_of(const mp_aff *a, int it, mp_aff *coef)
{
	int i;

	mp_aff_const(coef, 0);
	for (i = 0; i < a->n; i++) {
		const mp_term *t = &a->t[i];

		if (t->v1 == it && t->v2 == -1)
			coef->cst += t->coef;
		else if (t->v1 == it)
			aff_add_term(coef, t->coef, t->v2, -1);
		else if (t->v2 == it)
			aff_add_term(coef, t->coef, t->v1, -1);
	}
}

int mp_aff_uses_var(const mp_aff *a, int var)
{
	int i;

	for (i = 0; i < a->n; i++)
		if (a->t[i].v1 == var || a->t[i].v2 == var)
			return 1;
	return 0;
}

/* ------------------------------------------------------ text appender */

typedef struct out {
	char *buf;
	size_t len, pos;
	int trunc;
} out;

static void outf(out *o, const char *fmt, ...)
{
	va_list ap;
	int k;
	size_t room = o->pos < o->len ? o->len - o->pos : 0;

	va_start(ap, fmt);
	k = vsnprintf(room ? o->buf + o->pos : NULL, room, fmt, ap);
	va_end(ap);
	if (k < 0)
		return;
	if ((size_t)k >= room)
		o->trunc = 1;
	o->pos += (size_t)k;
}

static const char *vname(const mp_nest *n, int v, char *tmp)
{
	if (v >= 0 && v < n->nvars && n->var[v].name[0])
		return n->var[v].name;
	snprintf(tmp, 16, "v%d", v);
	return tmp;
}

/* Print a with separator sep between terms (" + " or "+"). */
static void aff_out(out *o, const mp_nest *n, const mp_aff *a, int spaced)
{
	int i, first = 1;
	char t1[16], t2[16];

	for (i = 0; i <= a->n; i++) {
		int64_t c = i < a->n ? a->t[i].coef : a->cst;
		uint64_t m = c < 0 ? (uint64_t)0 - (uint64_t)c : (uint64_t)c;

		if (i == a->n && (c == 0 && !first))
			break;
		if (i == a->n && c == 0) {
			outf(o, "0");
			break;
		}
		if (first)
			outf(o, c < 0 ? "-" : "");
		else
			outf(o, spaced ? (c < 0 ? " - " : " + ") : (c < 0 ? "-" : "+"));
		first = 0;
		if (i == a->n) {
			outf(o, "%" PRIu64, m);
			break;
		}
		if (m != 1)
			outf(o, "%" PRIu64 "*", m);
		outf(o, "%s", vname(n, a->t[i].v1, t1));
		if (a->t[i].v2 >= 0)
			outf(o, "*%s", vname(n, a->t[i].v2, t2));
	}
}

int mp_aff_print(const mp_nest *n, const mp_aff *a, char *buf, size_t len)
{
	out o = { buf, len, 0, 0 };

	if (len)
		buf[0] = 0;
	aff_out(&o, n, a, 1);
	return o.trunc ? -1 : 0;
}

/* --------------------------------------------------------- nest print */

static const char *kind_name(mp_var_kind k)
{
	return k == MP_VAR_ITER ? "iter" : k == MP_VAR_PARAM ? "param" : "local";
}

static int default_size(mp_scalar t)
{
	return mp_scalar_bits(t) / 8;
}

static void access_out(out *o, const mp_nest *n, int id)
{
	const mp_access *a = &n->access[id];

	outf(o, "%s[", a->array >= 0 && a->array < n->narrays ?
	     n->array[a->array].name : "?");
	if (a->affine)
		aff_out(o, n, &a->off, 0);
	else
		outf(o, "?");
	outf(o, "]:%s", mp_scalar_name(a->elem));
	if (a->elem_size != default_size(a->elem))
		outf(o, "/%d", a->elem_size);
	if (a->loc)
		outf(o, "@%d", a->loc);
	for (int b = 0; b < a->nbound && b < 3; b++) {
		outf(o, "{");
		aff_out(o, n, &a->bidx[b], 0);
		outf(o, "<%" PRId64 "}", a->bext[b]);
	}
	/* a read under conditions: ?C,C...:PADV */
	if (a->conds) {
		int first = 1;

		outf(o, "?");
		for (int c = 0; c < MP_MAX_CONDS; c++)
			if (a->conds & (1u << c)) {
				outf(o, first ? "%d" : ",%d", c);
				first = 0;
			}
		outf(o, ":%" PRId64, a->padv);
	}
}

static void fcst_out(out *o, double v)
{
	char tmp[40];

	snprintf(tmp, sizeof(tmp), "%.17g", v);
	if (!strpbrk(tmp, ".eEni"))
		strcat(tmp, ".0");
	outf(o, "%s", tmp);
}

static void expr_out(out *o, const mp_nest *n, int id, int depth)
{
	const mp_expr *e;
	char t1[16];

	if (id < 0 || id >= n->nexprs || depth > 200) {
		outf(o, "_");
		return;
	}
	e = &n->expr[id];
	switch (e->kind) {
	case MP_X_CONST:
		if (e->type == MP_TY_F32 || e->type == MP_TY_F64) {
			fcst_out(o, e->fcst);
			if (e->type != MP_TY_F64)
				outf(o, ":%s", mp_scalar_name(e->type));
		} else {
			outf(o, "%" PRId64, e->cst);
			if (e->type != MP_TY_S32)
				outf(o, ":%s", mp_scalar_name(e->type));
		}
		return;
	case MP_X_VAR:
		outf(o, "%s", vname(n, e->var, t1));
		if (e->var < 0 || e->var >= n->nvars || e->type != n->var[e->var].type)
			outf(o, ":%s", mp_scalar_name(e->type));
		return;
	case MP_X_LOAD:
		if (e->access >= 0 && e->access < n->naccesses &&
		    e->type == n->access[e->access].elem) {
			access_out(o, n, e->access);
		} else {
			outf(o, "(load:%s ", mp_scalar_name(e->type));
			if (e->access >= 0 && e->access < n->naccesses)
				access_out(o, n, e->access);
			else
				outf(o, "_");
			outf(o, ")");
		}
		return;
	case MP_X_CAST:
		outf(o, "(cast:%s ", mp_scalar_name(e->type));
		expr_out(o, n, e->a, depth + 1);
		outf(o, ")");
		return;
	case MP_X_NEG:
		outf(o, "(neg");
		break;
	case MP_X_ADD: outf(o, "(+"); break;
	case MP_X_SUB: outf(o, "(-"); break;
	case MP_X_MUL: outf(o, "(*"); break;
	case MP_X_CALL: {
		int i;

		outf(o, "(call:%s \"%s\"", mp_scalar_name(e->type), e->op);
		for (i = 0; i < e->nargs && i < MP_MAX_ARGS; i++) {
			outf(o, " ");
			expr_out(o, n, e->args[i], depth + 1);
		}
		outf(o, ")");
		return;
	}
	default:
		outf(o, "(other:%s \"%s\"", mp_scalar_name(e->type), e->op);
		if (e->a >= 0 || e->b >= 0) {
			outf(o, " ");
			expr_out(o, n, e->a, depth + 1);
		}
		if (e->b >= 0) {
			outf(o, " ");
			expr_out(o, n, e->b, depth + 1);
		}
		outf(o, ")");
		return;
	}
	/* arithmetic: type suffix only when it differs from operand a's */
	if (e->a < 0 || e->a >= n->nexprs || n->expr[e->a].type != e->type)
		outf(o, ":%s", mp_scalar_name(e->type));
	outf(o, " ");
	expr_out(o, n, e->a, depth + 1);
	if (e->kind != MP_X_NEG) {
		outf(o, " ");
		expr_out(o, n, e->b, depth + 1);
	}
	outf(o, ")");
}

static const char *loop_name(const mp_nest *n, int l)
{
	if (l < 0 || l >= n->nloops)
		return "-";
	if (n->loop[l].iter < 0 || n->loop[l].iter >= n->nvars)
		return "?";
	return n->var[n->loop[l].iter].name;
}

/* Mark accesses reachable from statements (others are printed alone). */
static void mark_expr(const mp_nest *n, int id, char *seen, int depth)
{
	const mp_expr *e;

	if (id < 0 || id >= n->nexprs || depth > 200)
		return;
	e = &n->expr[id];
	if (e->kind == MP_X_LOAD && e->access >= 0 && e->access < n->naccesses)
		seen[e->access] = 1;
	if (e->kind == MP_X_CONST || e->kind == MP_X_VAR || e->kind == MP_X_LOAD)
		return;
	if (e->kind == MP_X_CALL) {
		int i;

		for (i = 0; i < e->nargs && i < MP_MAX_ARGS; i++)
			mark_expr(n, e->args[i], seen, depth + 1);
		return;
	}
	mark_expr(n, e->a, seen, depth + 1);
	if (e->kind != MP_X_CAST && e->kind != MP_X_NEG)
		mark_expr(n, e->b, seen, depth + 1);
}

/* " if=C" for each condition C in the set */
static void conds_out(out *o, unsigned conds)
{
	for (int c = 0; c < MP_MAX_CONDS; c++)
		if (conds & (1u << c))
			outf(o, " if=%d", c);
}

int mp_nest_print(const mp_nest *n, char *buf, size_t len)
{
	out o = { buf, len, 0, 0 };
	char seen[MP_MAX_ACCESSES] = { 0 };
	char t1[16];
	int i;

	if (len)
		buf[0] = 0;
	for (i = 0; i < n->nvars; i++) {
		const mp_var *v = &n->var[i];

		outf(&o, "var %s %s %s%s%s", v->name, kind_name(v->kind),
		     mp_scalar_name(v->type), v->used_after ? " used_after" : "",
		     v->outer_iter ? " outer_iter" : "");
		if (v->same_as >= 0 && v->same_as < n->nvars)
			outf(&o, " same_as %s", n->var[v->same_as].name);
		if (v->prod[0] >= 0 && v->prod[0] < n->nvars && v->prod[1] >= 0 &&
		    v->prod[1] < n->nvars)
			outf(&o, " prod %s %s", n->var[v->prod[0]].name, n->var[v->prod[1]].name);
		outf(&o, "\n");
	}
	for (i = 0; i < n->narrays; i++) {
		const mp_array *a = &n->array[i];

		outf(&o, "array %s", a->name);
		if (a->base_var >= 0)
			outf(&o, " base=%s", vname(n, a->base_var, t1));
		if (a->is_decl)
			outf(&o, " decl");
		if (a->size_bytes != -1)
			outf(&o, " size=%" PRId64, a->size_bytes);
		outf(&o, "\n");
	}
	for (i = 0; i < n->nconds; i++) {
		outf(&o, "cond ");
		aff_out(&o, n, &n->cond[i].e, 0);
		if (n->cond[i].loc)
			outf(&o, " loc=%d", n->cond[i].loc);
		outf(&o, "\n");
	}
	for (i = 0; i < n->nloops; i++) {
		const mp_loop *l = &n->loop[i];

		outf(&o, "loop %s", loop_name(n, i));
		if (l->parent >= 0)
			outf(&o, " parent=%s", loop_name(n, l->parent));
		outf(&o, " pos=%d lo=", l->pos);
		aff_out(&o, n, &l->lo, 0);
		outf(&o, " hi=");
		aff_out(&o, n, &l->hi, 0);
		if (l->step != 1)
			outf(&o, " step=%" PRId64, l->step);
		if (l->loc)
			outf(&o, " loc=%d", l->loc);
		if (l->ne_exit)
			outf(&o, " ne_exit");
		if (l->after >= 0)
			outf(&o, " after=%s", loop_name(n, l->after));
		if (l->step_var >= 0 && l->step_var < n->nvars)
			outf(&o, " stepvar=%s", n->var[l->step_var].name);
		if (l->zguard >= 0 && l->zguard < n->nvars)
			outf(&o, " zguard=%s", n->var[l->zguard].name);
		if (l->clip & 1) {
			outf(&o, " lo2=");
			aff_out(&o, n, &l->lo2, 0);
		}
		if (l->clip & 2) {
			outf(&o, " hi2=");
			aff_out(&o, n, &l->hi2, 0);
		}
		if (l->clip & 4)
			outf(&o, " clipped");
		conds_out(&o, l->conds);
		outf(&o, "\n");
	}
	for (i = 0; i < n->nstmts; i++) {
		const mp_stmt *s = &n->stmt[i];

		outf(&o, "stmt %s pos=%d", loop_name(n, s->loop), s->pos);
		if (s->loc)
			outf(&o, " loc=%d", s->loc);
		if (s->guarded)
			outf(&o, " guarded");
		conds_out(&o, s->conds);
		outf(&o, " : ");
		if (s->kind == MP_S_OPAQUE) {
			outf(&o, "opaque \"%s\"\n", s->why);
			continue;
		}
		if (s->kind == MP_S_STORE) {
			if (s->lhs_access >= 0 && s->lhs_access < n->naccesses) {
				seen[s->lhs_access] = 1;
				access_out(&o, n, s->lhs_access);
			} else
				outf(&o, "_");
		} else
			outf(&o, "%s", vname(n, s->lhs_var, t1));
		outf(&o, " = ");
		if (s->ptr_assign) {
			outf(&o, "&%s[", s->ptr_array >= 0 && s->ptr_array < n->narrays
			     ? n->array[s->ptr_array].name : "?");
			aff_out(&o, n, &s->ptr_off, 0);
			outf(&o, "]\n");
			continue;
		}
		mark_expr(n, s->rhs, seen, 0);
		expr_out(&o, n, s->rhs, 0);
		outf(&o, "\n");
	}
	for (i = 0; i < n->naccesses; i++) {
		if (seen[i])
			continue;
		outf(&o, "access ");
		if (n->access[i].stmt >= 0)
			outf(&o, "%d", n->access[i].stmt);
		else
			outf(&o, "-");
		outf(&o, " %s ", n->access[i].is_write ? "write" : "read");
		access_out(&o, n, i);
		outf(&o, "\n");
	}
	if (n->error[0])
		outf(&o, "# error: %s\n", n->error);
	return o.trunc ? -1 : 0;
}

/* --------------------------------------------------------- nest parse */

typedef struct parser {
	mp_nest *n;
	const char *p;
	int line;
	int failed;
} parser;

static int perr(parser *ps, const char *fmt, ...)
{
	va_list ap;
	char msg[MP_REASON_LEN - 32];

	if (ps->failed)
		return -1;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ps->n->error[0] = 0;
	snprintf(ps->n->error, sizeof(ps->n->error), "line %d: %s", ps->line, msg);
	ps->failed = 1;
	return -1;
}

static void skip_ws(parser *ps)
{
	while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\r')
		ps->p++;
}

static int is_name_start(int c)
{
	return isalpha(c) || c == '_' || c == '.' || c == '$';
}

static int is_name_char(int c)
{
	return isalnum(c) || c == '_' || c == '.' || c == '$';
}

static int at_end(parser *ps)
{
	skip_ws(ps);
	return *ps->p == 0 || *ps->p == '\n' || *ps->p == '#';
}

static int get_name(parser *ps, char *dst)
{
	size_t k = 0;

	skip_ws(ps);
	if (!is_name_start((unsigned char)*ps->p))
		return perr(ps, "expected a name at '%.12s'", ps->p);
	memset(dst, 0, MP_NAME_LEN);
	while (is_name_char((unsigned char)*ps->p)) {
		if (k < MP_NAME_LEN - 1)
			dst[k++] = *ps->p;
		ps->p++;
	}
	return 0;
}

static int get_int(parser *ps, int64_t *v)
{
	char *end;

	skip_ws(ps);
	if (!(isdigit((unsigned char)*ps->p) ||
	      (*ps->p == '-' && isdigit((unsigned char)ps->p[1]))))
		return perr(ps, "expected a number at '%.12s'", ps->p);
	*v = strtoll(ps->p, &end, 10);
	ps->p = end;
	return 0;
}

static int accept(parser *ps, const char *s)
{
	size_t k = strlen(s);

	skip_ws(ps);
	if (strncmp(ps->p, s, k) != 0)
		return 0;
	ps->p += k;
	return 1;
}

static int expect(parser *ps, const char *s)
{
	if (accept(ps, s))
		return 0;
	return perr(ps, "expected '%s' at '%.12s'", s, ps->p);
}

/* key=value attribute: is the next word `key=`? */
static int accept_key(parser *ps, const char *key)
{
	size_t k = strlen(key);

	skip_ws(ps);
	if (strncmp(ps->p, key, k) != 0 || ps->p[k] != '=')
		return 0;
	ps->p += k + 1;
	return 1;
}

static int get_type(parser *ps, mp_scalar *t)
{
	char name[MP_NAME_LEN];
	int i;

	if (get_name(ps, name) < 0)
		return -1;
	for (i = 0; i <= (int)MP_TY_PTR; i++)
		if (strcmp(name, scalar_names[i]) == 0) {
			*t = (mp_scalar)i;
			return 0;
		}
	return perr(ps, "unknown type '%s'", name);
}

static int lookup_var(parser *ps, const char *name)
{
	int v = mp_nest_find_var(ps->n, name);

	if (v < 0)
		perr(ps, "unknown variable '%s'", name);
	return v;
}

/* aff := ['-'] term (('+'|'-') term)* ; term := factor ('*' factor)*,
 * factor := integer | variable; no spaces inside. */
static int get_aff(parser *ps, mp_aff *r)
{
	skip_ws(ps);
	mp_aff_const(r, 0);
	for (;;) {
		int64_t coef = 1, v;
		int vars[3], nv = 0;
		char name[MP_NAME_LEN];

		if (*ps->p == '-') {
			coef = -1;
			ps->p++;
		} else if (*ps->p == '+')
			ps->p++;
		for (;;) {
			if (isdigit((unsigned char)*ps->p)) {
				char *end;

				v = strtoll(ps->p, &end, 10);
				ps->p = end;
				if (__builtin_mul_overflow(coef, v, &coef))
					return perr(ps, "coefficient overflow");
			} else if (is_name_start((unsigned char)*ps->p)) {
				if (get_name(ps, name) < 0)
					return -1;
				if (nv == 3)
					return perr(ps, "term with more than three variables");
				if ((vars[nv++] = lookup_var(ps, name)) < 0)
					return -1;
			} else
				return perr(ps, "bad affine expression at '%.12s'", ps->p);
			if (*ps->p != '*')
				break;
			ps->p++;
		}
		if (nv == 3) {
			/* three factors: as mp_aff_mul folds them */
			mp_term x = { 1, vars[0], vars[1] }, y = { 1, vars[2], -1 };

			if (add_product(ps->n, r, coef, &x, &y) < 0)
				return perr(ps, "term that is not quasi-affine");
		} else if (nv == 0)
			r->cst += coef;
		else if (aff_add_term(r, coef, vars[0], nv == 2 ? vars[1] : -1) < 0)
			return perr(ps, "affine expression with too many terms");
		if (*ps->p != '+' && *ps->p != '-')
			return 0;
	}
}

/* access := array '[' (aff | '?') ']' ':' type ['/' size] ['@' loc] */
static int get_access(parser *ps, int is_write, int stmt)
{
	char name[MP_NAME_LEN];
	mp_aff off;
	int affine = 1, arr, id, i;
	mp_scalar t;
	int64_t size, loc = 0;

	if (get_name(ps, name) < 0)
		return -1;
	for (arr = -1, i = 0; i < ps->n->narrays; i++)
		if (strcmp(ps->n->array[i].name, name) == 0)
			arr = i;
	if (arr < 0)
		return perr(ps, "unknown array '%s'", name);
	if (expect(ps, "[") < 0)
		return -1;
	mp_aff_const(&off, 0);
	if (accept(ps, "?"))
		affine = 0;
	else if (get_aff(ps, &off) < 0)
		return -1;
	if (expect(ps, "]") < 0 || expect(ps, ":") < 0 || get_type(ps, &t) < 0)
		return -1;
	size = default_size(t);
	if (*ps->p == '/') {
		ps->p++;
		if (get_int(ps, &size) < 0)
			return -1;
	}
	if (*ps->p == '@') {
		ps->p++;
		if (get_int(ps, &loc) < 0)
			return -1;
	}
	id = mp_nest_add_access(ps->n, arr, &off, affine, t, (int)size,
				is_write, stmt);
	if (id < 0)
		return perr(ps, "%s", ps->n->error);
	ps->n->access[id].loc = (int)loc;
	/* in-bounds assumptions: {AFF<EXTENT} */
	while (*ps->p == '{') {
		mp_access *x = &ps->n->access[id];
		int64_t ext;

		ps->p++;
		if (x->nbound >= 3)
			return perr(ps, "more than 3 index bounds");
		if (get_aff(ps, &x->bidx[x->nbound]) < 0 || expect(ps, "<") < 0 ||
		    get_int(ps, &ext) < 0 || expect(ps, "}") < 0)
			return -1;
		x->bext[x->nbound++] = ext;
	}
	/* under conditions: ?C,C...:PADV */
	if (*ps->p == '?') {
		mp_access *x = &ps->n->access[id];
		int64_t c, pv;

		ps->p++;
		do {
			if (get_int(ps, &c) < 0)
				return -1;
			if (c < 0 || c >= ps->n->nconds)
				return perr(ps, "condition %lld is not declared", (long long)c);
			x->conds |= 1u << c;
		} while (*ps->p == ',' && ps->p++);
		if (expect(ps, ":") < 0 || get_int(ps, &pv) < 0)
			return -1;
		x->padv = pv;
	}
	return id;
}

static void expr_blank(mp_expr *e, mp_expr_kind k, mp_scalar t)
{
	memset(e, 0, sizeof(*e));
	e->kind = k;
	e->type = t;
	e->var = e->access = e->a = e->b = -1;
}

static int add_expr(parser *ps, const mp_expr *e)
{
	int id = mp_nest_add_expr(ps->n, e);

	if (id < 0)
		perr(ps, "%s", ps->n->error);
	return id;
}

static int get_expr(parser *ps, int stmt, int depth);

/* Optional ":type" suffix right after an operator or operand. */
static int opt_type(parser *ps, mp_scalar *t, int *given)
{
	*given = 0;
	if (*ps->p != ':')
		return 0;
	ps->p++;
	*given = 1;
	return get_type(ps, t);
}

static int get_compound(parser *ps, int stmt, int depth)
{
	mp_expr e;
	mp_scalar t = MP_TY_OTHER;
	int given, a, b = -1;
	mp_expr_kind k;
	const char *op = ps->p;

	skip_ws(ps);
	op = ps->p;
	if (accept(ps, "neg"))
		k = MP_X_NEG;
	else if (accept(ps, "cast"))
		k = MP_X_CAST;
	else if (accept(ps, "load"))
		k = MP_X_LOAD;
	else if (accept(ps, "other"))
		k = MP_X_OTHER;
	else if (accept(ps, "call"))
		k = MP_X_CALL;
	else if (accept(ps, "+"))
		k = MP_X_ADD;
	else if (accept(ps, "-"))
		k = MP_X_SUB;
	else if (accept(ps, "*"))
		k = MP_X_MUL;
	else
		return perr(ps, "unknown operator at '%.12s'", op);
	if (opt_type(ps, &t, &given) < 0)
		return -1;
	if ((k == MP_X_CAST || k == MP_X_OTHER || k == MP_X_CALL || k == MP_X_LOAD) &&
	    !given)
		return perr(ps, "operator '%.5s' needs a ':type'", op);
	expr_blank(&e, k, t);
	if (k == MP_X_LOAD) {
		if ((e.access = get_access(ps, 0, stmt)) < 0 || expect(ps, ")") < 0)
			return -1;
		return add_expr(ps, &e);
	}
	if (k == MP_X_OTHER || k == MP_X_CALL) {
		size_t len = 0;

		if (expect(ps, "\"") < 0)
			return -1;
		while (*ps->p && *ps->p != '"' && *ps->p != '\n') {
			if (len < sizeof(e.op) - 1)
				e.op[len++] = *ps->p;
			ps->p++;
		}
		if (expect(ps, "\"") < 0)
			return -1;
		if (k == MP_X_CALL) {
			while (!accept(ps, ")")) {
				int x;

				if (e.nargs >= MP_MAX_ARGS)
					return perr(ps, "a call has more than %d arguments",
						    MP_MAX_ARGS);
				if ((x = get_expr(ps, stmt, depth + 1)) < -1)
					return -1;
				if (x < 0)
					return perr(ps, "'_' is not an argument of a call");
				e.args[e.nargs++] = x;
			}
			return ps->failed ? -1 : add_expr(ps, &e);
		}
		if (!accept(ps, ")")) {
			if ((e.a = get_expr(ps, stmt, depth + 1)) < -1)
				return -1;
			if (!accept(ps, ")")) {
				if ((e.b = get_expr(ps, stmt, depth + 1)) < -1 ||
				    expect(ps, ")") < 0)
					return -1;
			}
		}
		return ps->failed ? -1 : add_expr(ps, &e);
	}
	if ((a = get_expr(ps, stmt, depth + 1)) < 0)
		return -1;
	if (k != MP_X_NEG && k != MP_X_CAST &&
	    (b = get_expr(ps, stmt, depth + 1)) < 0)
		return -1;
	if (expect(ps, ")") < 0)
		return -1;
	e.a = a;
	e.b = b;
	if (!given)
		e.type = ps->n->expr[a].type;
	return add_expr(ps, &e);
}

/* Returns an expression id, -1 for the placeholder '_' of an absent
 * operand (only meaningful inside "other"), < -1 on error. */
static int get_expr(parser *ps, int stmt, int depth)
{
	mp_expr e;
	int given;

	if (depth > 100)
		return perr(ps, "expression nested too deeply") - 1;
	skip_ws(ps);
	if (*ps->p == '(') {
		ps->p++;
		return ps->failed ? -2 : (get_compound(ps, stmt, depth) < 0 ?
			-2 : ps->n->nexprs - 1);
	}
	if (*ps->p == '_' && !is_name_char((unsigned char)ps->p[1])) {
		ps->p++;
		return -1;
	}
	if (isdigit((unsigned char)*ps->p) ||
	    (*ps->p == '-' && (isdigit((unsigned char)ps->p[1]) || ps->p[1] == '.'))) {
		const char *q = ps->p + 1;
		char *end;

		while (isalnum((unsigned char)*q) || *q == '.' ||
		       ((*q == '-' || *q == '+') && (q[-1] == 'e' || q[-1] == 'E')))
			q++;
		if (memchr(ps->p, '.', (size_t)(q - ps->p)) ||
		    memchr(ps->p, 'e', (size_t)(q - ps->p)) ||
		    memchr(ps->p, 'E', (size_t)(q - ps->p))) {
			expr_blank(&e, MP_X_CONST, MP_TY_F64);
			e.fcst = strtod(ps->p, &end);
		} else {
			expr_blank(&e, MP_X_CONST, MP_TY_S32);
			e.cst = strtoll(ps->p, &end, 10);
		}
		ps->p = end;
		if (opt_type(ps, &e.type, &given) < 0)
			return -2;
		return add_expr(ps, &e) < 0 ? -2 : ps->n->nexprs - 1;
	}
	if (is_name_start((unsigned char)*ps->p)) {
		const char *save = ps->p;
		char name[MP_NAME_LEN];

		if (get_name(ps, name) < 0)
			return -2;
		if (*ps->p == '[') {
			ps->p = save;
			expr_blank(&e, MP_X_LOAD, MP_TY_OTHER);
			if ((e.access = get_access(ps, 0, stmt)) < 0)
				return -2;
			e.type = ps->n->access[e.access].elem;
			return add_expr(ps, &e) < 0 ? -2 : ps->n->nexprs - 1;
		}
		expr_blank(&e, MP_X_VAR, MP_TY_OTHER);
		if ((e.var = lookup_var(ps, name)) < 0)
			return -2;
		e.type = ps->n->var[e.var].type;
		if (opt_type(ps, &e.type, &given) < 0)
			return -2;
		return add_expr(ps, &e) < 0 ? -2 : ps->n->nexprs - 1;
	}
	return perr(ps, "bad expression at '%.12s'", ps->p) - 1;
}

static int find_loop_by_iter(parser *ps, const char *name)
{
	int v;

	if (strcmp(name, "-") == 0)
		return -1;
	v = mp_nest_find_var(ps->n, name);
	if (v < 0 || ps->n->var[v].loop < 0)
		return perr(ps, "'%s' is not the iterator of a loop declared above",
			    name) - 1;
	return ps->n->var[v].loop;
}

/* Next free position among the children of loop `parent`. */
static int next_pos(const mp_nest *n, int parent)
{
	int i, pos = 0;

	for (i = 0; i < n->nloops; i++)
		if (n->loop[i].parent == parent && n->loop[i].pos >= pos)
			pos = n->loop[i].pos + 1;
	for (i = 0; i < n->nstmts; i++)
		if (n->stmt[i].loop == parent && n->stmt[i].pos >= pos)
			pos = n->stmt[i].pos + 1;
	return pos;
}

static int get_loop_ref(parser *ps, int *loop)
{
	char name[MP_NAME_LEN];

	skip_ws(ps);
	if (*ps->p == '-') {
		ps->p++;
		*loop = -1;
		return 0;
	}
	if (get_name(ps, name) < 0)
		return -1;
	*loop = find_loop_by_iter(ps, name);
	return *loop < -1 ? -1 : 0;
}

static int parse_var(parser *ps)
{
	char name[MP_NAME_LEN], kind[MP_NAME_LEN];
	mp_var_kind k;
	mp_scalar t;
	int v;

	if (get_name(ps, name) < 0 || get_name(ps, kind) < 0)
		return -1;
	if (strcmp(kind, "iter") == 0)
		k = MP_VAR_ITER;
	else if (strcmp(kind, "param") == 0)
		k = MP_VAR_PARAM;
	else if (strcmp(kind, "local") == 0)
		k = MP_VAR_LOCAL;
	else
		return perr(ps, "unknown variable kind '%s'", kind);
	if (get_type(ps, &t) < 0)
		return -1;
	if (mp_nest_find_var(ps->n, name) >= 0)
		return perr(ps, "variable '%s' declared twice", name);
	if ((v = mp_nest_add_var(ps->n, name, k, t)) < 0)
		return perr(ps, "%s", ps->n->error);
	if (accept(ps, "used_after"))
		ps->n->var[v].used_after = 1;
	if (accept(ps, "outer_iter"))
		ps->n->var[v].outer_iter = 1;
	if (accept(ps, "same_as")) {
		int w;

		if (get_name(ps, name) < 0)
			return -1;
		if ((w = mp_nest_find_var(ps->n, name)) < 0)
			return perr(ps, "unknown variable '%s'", name);
		ps->n->var[v].same_as = w;
	}
	if (accept(ps, "prod")) {
		int a, b;

		if (get_name(ps, name) < 0)
			return -1;
		if ((a = mp_nest_find_var(ps->n, name)) < 0)
			return perr(ps, "unknown variable '%s'", name);
		if (get_name(ps, name) < 0)
			return -1;
		if ((b = mp_nest_find_var(ps->n, name)) < 0)
			return perr(ps, "unknown variable '%s'", name);
		if (k != MP_VAR_PARAM || ps->n->var[a].kind != MP_VAR_PARAM ||
		    ps->n->var[b].kind != MP_VAR_PARAM)
			return perr(ps, "a product variable and its factors are parameters");
		ps->n->var[v].prod[0] = a;
		ps->n->var[v].prod[1] = b;
	}
	return 0;
}

static int parse_array(parser *ps)
{
	char name[MP_NAME_LEN], base[MP_NAME_LEN];
	int base_var = -1, decl = 0;
	int64_t size = -1;

	if (get_name(ps, name) < 0)
		return -1;
	while (!at_end(ps)) {
		if (accept_key(ps, "base")) {
			if (get_name(ps, base) < 0 ||
			    (base_var = lookup_var(ps, base)) < 0)
				return -1;
		} else if (accept_key(ps, "size")) {
			if (get_int(ps, &size) < 0)
				return -1;
		} else if (accept(ps, "decl"))
			decl = 1;
		else
			return perr(ps, "unknown array attribute at '%.12s'", ps->p);
	}
	if (mp_nest_add_array(ps->n, name, base_var, decl, size) < 0)
		return perr(ps, "%s", ps->n->error);
	return 0;
}

/* N of `if=N`: a condition already declared by a `cond` line */
static int get_cond_ref(parser *ps, unsigned *set)
{
	int64_t c;

	if (get_int(ps, &c) < 0)
		return -1;
	if (c < 0 || c >= ps->n->nconds)
		return perr(ps, "if=%lld names no condition", (long long)c);
	*set |= 1u << c;
	return 0;
}

static int parse_cond(parser *ps)
{
	mp_aff e;
	int64_t loc = 0;
	int id;

	if (get_aff(ps, &e) < 0)
		return -1;
	if (accept_key(ps, "loc") && get_int(ps, &loc) < 0)
		return -1;
	if (ps->n->nconds >= MP_MAX_CONDS)
		return perr(ps, "more than %d conditions", MP_MAX_CONDS);
	id = ps->n->nconds++;
	ps->n->cond[id].e = e;
	ps->n->cond[id].loc = (int)loc;
	return 0;
}

static int parse_loop(parser *ps)
{
	char name[MP_NAME_LEN];
	int iter, parent = -1, id, have_lo = 0, have_hi = 0;
	int64_t pos = -1, step = 1, loc = 0;
	int ne = 0, after = -1, step_var = -1, zguard = -1;
	unsigned conds = 0, clip = 0;
	mp_aff lo, hi, lo2, hi2;

	if (get_name(ps, name) < 0 || (iter = lookup_var(ps, name)) < 0)
		return -1;
	if (ps->n->var[iter].kind != MP_VAR_ITER)
		return perr(ps, "loop variable '%s' is not declared 'iter'", name);
	if (ps->n->var[iter].loop >= 0)
		return perr(ps, "'%s' drives two loops", name);
	while (!at_end(ps)) {
		if (accept_key(ps, "parent")) {
			if (get_loop_ref(ps, &parent) < 0)
				return -1;
		} else if (accept_key(ps, "pos")) {
			if (get_int(ps, &pos) < 0)
				return -1;
		} else if (accept_key(ps, "lo")) {
			if (get_aff(ps, &lo) < 0)
				return -1;
			have_lo = 1;
		} else if (accept_key(ps, "hi")) {
			if (get_aff(ps, &hi) < 0)
				return -1;
			have_hi = 1;
		} else if (accept_key(ps, "step")) {
			if (get_int(ps, &step) < 0)
				return -1;
		} else if (accept_key(ps, "loc")) {
			if (get_int(ps, &loc) < 0)
				return -1;
		} else if (accept_key(ps, "lo2")) {
			if (get_aff(ps, &lo2) < 0)
				return -1;
			clip |= 1;
		} else if (accept_key(ps, "hi2")) {
			if (get_aff(ps, &hi2) < 0)
				return -1;
			clip |= 2;
		} else if (accept(ps, "clipped")) {
			clip |= 4;
		} else if (accept(ps, "ne_exit")) {
			ne = 1;
		} else if (accept_key(ps, "if")) {
			if (get_cond_ref(ps, &conds) < 0)
				return -1;
		} else if (accept_key(ps, "stepvar")) {
			char sv[MP_NAME_LEN];

			if (get_name(ps, sv) < 0 || (step_var = lookup_var(ps, sv)) < 0)
				return -1;
			if (ps->n->var[step_var].kind != MP_VAR_PARAM)
				return perr(ps, "stepvar=%s is not a parameter", sv);
		} else if (accept_key(ps, "zguard")) {
			char zv[MP_NAME_LEN];

			if (get_name(ps, zv) < 0 || (zguard = lookup_var(ps, zv)) < 0)
				return -1;
		} else if (accept_key(ps, "after")) {
			/* the loop of that iterator may come later (GCC lists
			   sibling loops in reverse): resolved by mp_nest_parse */
			char an[MP_NAME_LEN];

			if (get_name(ps, an) < 0 || (after = lookup_var(ps, an)) < 0)
				return -1;
			after = -2 - after;
		} else
			return perr(ps, "unknown loop attribute at '%.12s'", ps->p);
	}
	if (!have_lo || !have_hi)
		return perr(ps, "loop '%s' needs lo= and hi=", name);
	if (pos < 0)
		pos = next_pos(ps->n, parent);
	id = mp_nest_add_loop(ps->n, iter, parent, (int)pos, &lo, &hi, step);
	if (id < 0)
		return perr(ps, "%s", ps->n->error);
	ps->n->loop[id].loc = (int)loc;
	ps->n->loop[id].ne_exit = ne;
	ps->n->loop[id].after = after;
	ps->n->loop[id].conds = conds;
	ps->n->loop[id].step_var = step_var;
	ps->n->loop[id].zguard = zguard;
	ps->n->loop[id].clip = clip;
	if (clip & 1)
		ps->n->loop[id].lo2 = lo2;
	if (clip & 2)
		ps->n->loop[id].hi2 = hi2;
	return 0;
}

static int parse_stmt(parser *ps)
{
	mp_stmt s;
	int64_t pos = -1, loc = 0;
	int id = ps->n->nstmts;

	memset(&s, 0, sizeof(s));
	s.lhs_var = s.lhs_access = s.rhs = -1;
	if (get_loop_ref(ps, &s.loop) < 0)
		return -1;
	for (;;) {
		if (accept_key(ps, "pos")) {
			if (get_int(ps, &pos) < 0)
				return -1;
		} else if (accept_key(ps, "loc")) {
			if (get_int(ps, &loc) < 0)
				return -1;
		} else if (accept(ps, "guarded"))
			s.guarded = 1;
		else if (accept_key(ps, "if")) {
			if (get_cond_ref(ps, &s.conds) < 0)
				return -1;
		} else
			break;
	}
	if (expect(ps, ":") < 0)
		return -1;
	s.pos = pos < 0 ? next_pos(ps->n, s.loop) : (int)pos;
	s.loc = (int)loc;
	skip_ws(ps);
	if (strncmp(ps->p, "opaque", 6) == 0 && !is_name_char((unsigned char)ps->p[6])) {
		size_t len = 0;

		ps->p += 6;
		s.kind = MP_S_OPAQUE;
		if (expect(ps, "\"") < 0)
			return -1;
		while (*ps->p && *ps->p != '"' && *ps->p != '\n') {
			if (len < sizeof(s.why) - 1)
				s.why[len++] = *ps->p;
			ps->p++;
		}
		if (expect(ps, "\"") < 0)
			return -1;
	} else {
		const char *save = ps->p;
		char name[MP_NAME_LEN];

		if (get_name(ps, name) < 0)
			return -1;
		if (*ps->p == '[') {
			ps->p = save;
			s.kind = MP_S_STORE;
			if ((s.lhs_access = get_access(ps, 1, id)) < 0)
				return -1;
		} else {
			s.kind = MP_S_ASSIGN;
			if ((s.lhs_var = lookup_var(ps, name)) < 0)
				return -1;
		}
		if (expect(ps, "=") < 0)
			return -1;
		skip_ws(ps);
		if (s.kind == MP_S_ASSIGN && *ps->p == '&') {
			/* pointer assignment: VAR = &ARRAY[AFF] */
			int i;

			ps->p++;
			if (get_name(ps, name) < 0)
				return -1;
			for (s.ptr_array = -1, i = 0; i < ps->n->narrays; i++)
				if (strcmp(ps->n->array[i].name, name) == 0)
					s.ptr_array = i;
			if (s.ptr_array < 0)
				return perr(ps, "unknown array '%s'", name);
			if (expect(ps, "[") < 0 || get_aff(ps, &s.ptr_off) < 0 || expect(ps, "]") < 0)
				return -1;
			s.ptr_assign = 1;
		} else if ((s.rhs = get_expr(ps, id, 0)) < 0)
			return ps->failed ? -1 : perr(ps, "missing right-hand side");
	}
	if (mp_nest_add_stmt(ps->n, &s) < 0)
		return perr(ps, "%s", ps->n->error);
	return 0;
}

static int parse_access_line(parser *ps)
{
	int64_t stmt = -1;
	int w;

	skip_ws(ps);
	if (*ps->p == '-')
		ps->p++;
	else if (get_int(ps, &stmt) < 0)
		return -1;
	if (accept(ps, "write"))
		w = 1;
	else if (accept(ps, "read"))
		w = 0;
	else
		return perr(ps, "expected 'read' or 'write'");
	return get_access(ps, w, (int)stmt) < 0 ? -1 : 0;
}

int mp_nest_parse(mp_nest *n, const char *text)
{
	parser ps = { n, text, 0, 0 };

	mp_nest_init(n);
	while (*ps.p && !ps.failed) {
		char word[MP_NAME_LEN];
		int r = 0;

		ps.line++;
		if (!at_end(&ps)) {
			if (get_name(&ps, word) < 0)
				break;
			if (strcmp(word, "var") == 0)
				r = parse_var(&ps);
			else if (strcmp(word, "array") == 0)
				r = parse_array(&ps);
			else if (strcmp(word, "loop") == 0)
				r = parse_loop(&ps);
			else if (strcmp(word, "stmt") == 0)
				r = parse_stmt(&ps);
			else if (strcmp(word, "cond") == 0)
				r = parse_cond(&ps);
			else if (strcmp(word, "access") == 0)
				r = parse_access_line(&ps);
			else
				r = perr(&ps, "unknown directive '%s'", word);
			if (r < 0)
				break;
			if (!at_end(&ps)) {
				perr(&ps, "unexpected text '%.12s'", ps.p);
				break;
			}
		}
		while (*ps.p && *ps.p != '\n')
			ps.p++;
		if (*ps.p == '\n')
			ps.p++;
	}
	for (int l = 0; l < n->nloops && !ps.failed; l++)
		if (n->loop[l].after <= -2) {
			int v = -2 - n->loop[l].after;

			if (n->var[v].loop < 0)
				perr(&ps, "after=%s names no loop", n->var[v].name);
			n->loop[l].after = n->var[v].loop;
		}
	return ps.failed ? -1 : 0;
}

/* See mp_nest.h. */
int mp_invariant_load(const mp_nest *n, int acc)
{
	const mp_access *a;
	int t, q, u;

	if (acc < 0 || acc >= n->naccesses)
		return 0;
	a = &n->access[acc];
	if (!a->affine || a->is_write || a->conds || a->array < 0 || a->array >= n->narrays ||
	    a->elem_size <= 0)
		return 0;
	if (n->array[a->array].base_var >= 0) {
		const mp_var *b = &n->var[n->array[a->array].base_var];

		if (b->kind != MP_VAR_PARAM || b->type != MP_TY_PTR)
			return 0;
	} else if (!n->array[a->array].is_decl) {
		return 0;
	}
	for (t = 0; t < a->off.n; t++)
		for (u = 0; u < 2; u++) {
			int v = u ? a->off.t[t].v2 : a->off.t[t].v1;

			if (v >= 0 && (v >= n->nvars || n->var[v].kind != MP_VAR_PARAM))
				return 0;
		}
	for (q = 0; q < n->naccesses; q++)
		if (n->access[q].is_write && n->access[q].array == a->array)
			return 0;
	return 1;
}
