/* mp_plan.c -- mp_analyze: match the int8 contraction of an annotated nest,
 * prove the rewrite legal with the ISL model, and fill the plan.
 *
 * Expected workload: one pragma-annotated nest of 2-3 loops (plus epilogue
 * loops) per call.  The steps, in the order a refusal can come from:
 *
 *   1. match      find the unique statement  acc = acc + fa*fb  (scalar or
 *                 memory accumulator) whose operands are widened 8-bit loads,
 *                 optionally minus a loop-invariant zero point;
 *   2. pragma     the precision/accumulator/scale clauses fit the source;
 *   3. types      accumulator, product and operands are 32-bit signed;
 *   4. statements no opaque statement, no write to an iterator;
 *   5. roles      loops k (in both operands), i (A only), j (B only);
 *   6. mode       DIRECT (perfect i/j/k nest into an injective int32 output)
 *                 or TILE (k innermost, holding only the reduction);
 *   7. legality   rectangular step-1 loops, affine writes, operands never
 *                 written (ISL), only the reduction carries dependences on k;
 *   8. bound      K * max|a-za| * max|b-zb| fits int32, or a run-time check;
 *   9. fusion     a TILE plan with a scalar accumulator whose whole nest is
 *                 i { j { s = INIT; k { s += P }; out[i,j] = EPI(s) } }
 *                 becomes FUSED (an optimisation: it never refuses).
 *
 * Floating-point sources (operands are float/double loads, widened only by
 * value-preserving float casts; the glue must set mp_pragma.lp_capable):
 * step 2 checks the precision (bf16, int8, fp8_e4m3, fp8_e5m2), acc (fp32)
 * and scale (dynamic) clauses, step 3 wants an F32/F64 accumulator, add
 * and product, step 6 chooses DIRECT only into an output of the source
 * type and TILE only with k innermost, step 8 has no bound and step 9 does
 * not apply.  The plan says src_float / src_type.
 *
 * Every refusal names the variable/array concerned and points reason_loc
 * at the loop, statement or access it is about.
 */
#include "mp_nest.h"
#include "mp_model.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

/* One side of the product: a widened 8-bit load, maybe minus a zero point. */
typedef struct operand {
	int access;       /* the LOAD's access */
	mp_scalar load;   /* its element type */
	mp_scalar type;   /* type of the whole operand expression */
	int z;            /* zero point expr, -1 */
	int zsign;        /* +1: op - z, -1: op + z */
	int ok_widen;     /* the cast chain preserves the loaded value */
	int wraps;        /* scaled, then narrowed: `(int8_t)(a * 2)` */
} operand;

typedef struct cand {
	int stmt;
	int acc_var, acc_write, acc_read;  /* scalar var or memory accesses */
	int add, prod;                     /* expr ids: the '+' and the '*' */
	int alpha;                         /* a scalar factor of the product
	                                      (alpha*a*b, float sources), -1 */
	int neg;                           /* `acc = acc - a*b` (`-=`): the
	                                      sum is subtracted (tile mode) */
	/* statements  t = VALUE  whose local t is read only where an operand
	   of the product takes its value (`int32_t a = A[i][k]; ... a * b`,
	   chains of such copies, the BLAS "temp = alpha*A(i,k)"): forwarded
	   into the operand, exempt from the "reduction loop holds the
	   contraction alone" rule and the dependence check (on the fast path
	   they are dead) */
	unsigned char fwd[MP_MAX_STMTS];
	int nfwd;
	/* the other contractions of the same reduction loop (rows unrolled:
	   sum0 += a0*b; sum1 += a1*b), replaced with this one: a local they
	   read may still forward; NULL when alone */
	const unsigned char *others;
	operand f[2];
} cand;

typedef struct az {
	const mp_nest *n;
	const mp_pragma *p;
	mp_plan *plan;
	mp_model *m;
	cand c;
	int fsrc;         /* floating-point source (set by step 2) */
	mp_scalar ftype;  /* its element type, MP_TY_F32 / MP_TY_F64 */
	int swapped;      /* f[0] is the right factor as written (step 5) */
	int select_other; /* a select (mp_access.conds) outside the operands:
	                     the code around the sum runs as written */
	/* the other contractions analysed with this one (mp_analyze_all), and
	   the statements they forward (dead on the fast path as well) */
	unsigned char others[MP_MAX_STMTS];
	unsigned char others_fwd[MP_MAX_STMTS];
	int nothers;
	int acc64;        /* an int64 accumulator of int32 products (nnom's
	                     `long conv_out`): the exact int32 sum (under the
	                     int32 bound) widened where the tile is added */
	int tri;          /* loop_i's or loop_j's bounds name the other's
	                     iterator (check_tri): tile mode over a box */
	int allow_m2;     /* a second row loop may join the contraction
	                     (plan.loop_i2; mp_analyze's first attempt) */
	int m2_used;      /* ... and one did: on failure, plan without */
	int m2_tile;      /* ... and the plan failed on it for tile mode */
	int two_rows;     /* refused: an operand depends on two row (or
	                     column) loops */
	int model_budget; /* the model could not be built within its budget */
	int final;        /* the refusal stands: no plan without a second row loop */
	int tri_red_try;  /* a triangular reduction may be converted (mp_analyze) */
	int tri_red;      /* loop id + 1 of that reduction loop (check_tri); 0 */
	int tri_red_conv; /* the nest is such a conversion (tri_red_convert) */
	int entry_reads;  /* an operand the nest writes, every read before the
	                     write (mp_model_reads_entry): tile mode only */
} az;

/* ----------------------------------------------------------- reasons */

static int refuse(az *z, int loc, const char *fmt, ...)
{
	va_list ap;

	z->plan->ok = 0;
	va_start(ap, fmt);
	vsnprintf(z->plan->reason, sizeof(z->plan->reason), fmt, ap);
	va_end(ap);
	z->plan->reason_loc = loc;
	return -1;
}

/* A variable's name as the user wrote it: the glues make names unique
 * with a ".N" suffix (two sibling loops both declaring j), which messages
 * and remarks must not show. */
static const char *vn(const mp_nest *n, int v)
{
	static char buf[8][MP_NAME_LEN];
	static int next;
	const char *name, *dot;
	char *b;

	if (v < 0 || v >= n->nvars)
		return "?";
	name = n->var[v].name;
	dot = strrchr(name, '.');
	if (!dot || dot == name || !dot[1] || strspn(dot + 1, "0123456789") != strlen(dot + 1))
		return name;
	b = buf[next++ % 8];
	snprintf(b, MP_NAME_LEN, "%.*s", (int)(dot - name), name);
	return b;
}

static const char *an(const mp_nest *n, int acc)
{
	if (acc < 0 || acc >= n->naccesses || n->access[acc].array < 0 ||
	    n->access[acc].array >= n->narrays)
		return "?";
	return n->array[n->access[acc].array].name;
}

static const char *ln(const mp_nest *n, int l)
{
	return l >= 0 && l < n->nloops ? vn(n, n->loop[l].iter) : "?";
}

static int loop_loc(const mp_nest *n, int l)
{
	return l >= 0 && l < n->nloops ? n->loop[l].loc : 0;
}

static const char *prec_str(mp_prec p)
{
	static const char *const names[] = {
		"none", "int8", "uint8", "bf16", "fp16", "fp8_e4m3", "fp8_e5m2"
	};
	return (int)p >= 0 && (int)p <= (int)MP_PREC_FP8_E5M2 ? names[p] : "?";
}

/* ---------------------------------------------------------- matching */

static const mp_expr *ex(const mp_nest *n, int e)
{
	return e >= 0 && e < n->nexprs ? &n->expr[e] : NULL;
}

static int peel_casts(const mp_nest *n, int e)
{
	const mp_expr *x;

	while ((x = ex(n, e)) && x->kind == MP_X_CAST)
		e = x->a;
	return e;
}

static void type_range(mp_scalar t, int64_t *lo, int64_t *hi)
{
	int b = mp_scalar_bits(t);

	if (t == MP_TY_S8 || t == MP_TY_S16 || t == MP_TY_S32 || t == MP_TY_S64) {
		*lo = b == 64 ? INT64_MIN : -((int64_t)1 << (b - 1));
		*hi = b == 64 ? INT64_MAX : ((int64_t)1 << (b - 1)) - 1;
	} else if (mp_scalar_is_int(t)) {
		*lo = 0;
		*hi = b >= 63 ? INT64_MAX : ((int64_t)1 << b) - 1;
	} else {
		*lo = INT64_MIN;
		*hi = INT64_MAX;
	}
}

/* A loop-invariant zero point: CONST, PARAM var, or casts of those. */
static int is_invariant(const mp_nest *n, int e)
{
	const mp_expr *x = ex(n, peel_casts(n, e));

	if (!x)
		return 0;
	if (x->kind == MP_X_CONST)
		return mp_scalar_is_int(x->type);
	if (x->kind == MP_X_LOAD)   /* zp[0], p->zp */
		return mp_scalar_is_int(x->type) && mp_invariant_load(n, x->access);
	return x->kind == MP_X_VAR && x->var >= 0 && x->var < n->nvars &&
	       n->var[x->var].kind == MP_VAR_PARAM &&
	       mp_scalar_is_int(n->var[x->var].type);
}

static int is_float(mp_scalar t)
{
	return t == MP_TY_F32 || t == MP_TY_F64;
}

/* A loop-invariant value of the nest, through casts: a CONST or a PARAM
 * (not a pointer).  FL: an expression of float type (a zero point written
 * on a floating-point operand: x - 0.5f, x - m, x - 1 with 1 converted; a
 * scalar factor of the product: alpha, 2.0f, (float)scale); else an
 * integer one, integer all the way down (int alpha on 8-bit operands). */
static int is_invariant_value(const mp_nest *n, int e, int fl)
{
	const mp_expr *t = ex(n, e), *x = ex(n, peel_casts(n, e));

	if (!t || !x || (fl ? !is_float(t->type)
			    : !mp_scalar_is_int(t->type) || !mp_scalar_is_int(x->type)))
		return 0;
	if (x->kind == MP_X_CONST)
		return 1;
	if (x->kind == MP_X_LOAD)   /* *alpha, p->scale, zp[0] */
		return mp_invariant_load(n, x->access);
	return x->kind == MP_X_VAR && x->var >= 0 && x->var < n->nvars &&
	       n->var[x->var].kind == MP_VAR_PARAM && n->var[x->var].type != MP_TY_PTR;
}

static int is_float_invariant(const mp_nest *n, int e) { return is_invariant_value(n, e, 1); }
static int is_int_invariant(const mp_nest *n, int e) { return is_invariant_value(n, e, 0); }

static int fwd_def(const mp_nest *n, const cand *c, int t, int use);

static void fwd_mark(cand *c, int d)
{
	if (c && d >= 0 && d < MP_MAX_STMTS && !c->fwd[d]) {
		c->fwd[d] = 1;
		c->nfwd++;
	}
}

static void fwd_reset(cand *c)
{
	memset(c->fwd, 0, sizeof(c->fwd));
	c->nfwd = 0;
}

/* [casts] LOAD: the load; ok_widen tells whether every cast keeps the
 * loaded value (each target type holds the loaded type's range; for a
 * float load: float -> double or identity casts only).  A read of a local
 * that forwards (fwd_def, C non-NULL) stands for its value converted to
 * the local's type, as a cast would: `int16_t a = A[k]; ... (int32_t)a`.
 * USE is the statement holding expression E. */
static int match_load(const mp_nest *n, cand *c, int e, operand *o, int use)
{
	mp_scalar chain[64];
	int k = 0, i, d;
	const mp_expr *x;
	int64_t lo, hi, tlo, thi;

	for (;;) {
		x = ex(n, e);
		if (x && x->kind == MP_X_CAST && k < 64) {
			chain[k++] = x->type;
			e = x->a;
			continue;
		}
		if (x && x->kind == MP_X_VAR && k < 64 && (d = fwd_def(n, c, x->var, use)) >= 0) {
			chain[k++] = n->var[x->var].type;
			fwd_mark(c, d);
			use = d;
			e = n->stmt[d].rhs;
			continue;
		}
		break;
	}
	if (!x || x->kind != MP_X_LOAD || x->access < 0 || x->access >= n->naccesses)
		return 0;
	o->access = x->access;
	o->load = n->access[x->access].elem;
	if (is_float(o->load)) {
		mp_scalar cur = x->type;

		o->ok_widen = cur == o->load;
		for (i = k - 1; i >= 0; i--) {
			mp_scalar t = chain[i];

			if (!(t == cur || (cur == MP_TY_F32 && t == MP_TY_F64)))
				o->ok_widen = 0;
			cur = t;
		}
		return 1;
	}
	o->ok_widen = mp_scalar_is_int(o->load) && mp_scalar_is_int(x->type);
	type_range(o->load, &lo, &hi);
	for (i = k - 1; i >= 0; i--) {
		mp_scalar t = chain[i];

		type_range(t, &tlo, &thi);
		if (!mp_scalar_is_int(t) || tlo > lo || thi < hi)
			o->ok_widen = 0;
	}
	return 1;
}

/* [identity casts] ( SUB(ld, z) | ADD(ld, z) | ADD(z, ld) | ld ), where a
 * local that forwards may stand for the whole of it when it has the same
 * type (`int32_t x = in[d] + in_offset; ... w * x`) or for the load
 * (`w * (x + x_offset)`).  USE is the statement holding E. */
static int match_operand_(const mp_nest *n, cand *c, int e, operand *o, int use);

/* match_operand_, leaving C's forwarded statements as they were when it
 * fails (a branch that forwarded a local and then did not match). */
static int match_operand(const mp_nest *n, cand *c, int e, operand *o, int use)
{
	unsigned char save[MP_MAX_STMTS];
	int nsave = c ? c->nfwd : 0;

	if (c)
		memcpy(save, c->fwd, sizeof(save));
	if (match_operand_(n, c, e, o, use))
		return 1;
	if (c) {
		memcpy(c->fwd, save, sizeof(save));
		c->nfwd = nsave;
	}
	return 0;
}

static int match_operand_(const mp_nest *n, cand *c, int e, operand *o, int use)
{
	const mp_expr *x = ex(n, e);
	int d;

	memset(o, 0, sizeof(*o));
	o->z = -1;
	o->zsign = 0;
	if (!x)
		return 0;
	o->type = x->type;
	for (;;) {
		if (x->kind == MP_X_CAST && ex(n, x->a) && ex(n, x->a)->type == x->type &&
		    ex(n, x->a)->kind != MP_X_LOAD) {
			e = x->a;
			x = ex(n, e);
			continue;
		}
		if (x->kind == MP_X_VAR && (d = fwd_def(n, c, x->var, use)) >= 0 &&
		    ex(n, n->stmt[d].rhs) && ex(n, n->stmt[d].rhs)->type == n->var[x->var].type &&
		    ex(n, n->stmt[d].rhs)->kind != MP_X_LOAD &&
		    ex(n, n->stmt[d].rhs)->kind != MP_X_CAST) {
			fwd_mark(c, d);
			use = d;
			e = n->stmt[d].rhs;
			x = ex(n, e);
			continue;
		}
		break;
	}
	if (x->kind == MP_X_SUB || x->kind == MP_X_ADD) {
		if (is_invariant(n, x->b) && match_load(n, c, x->a, o, use)) {
			o->z = x->b;
			o->zsign = x->kind == MP_X_SUB ? 1 : -1;
			return 1;
		}
		if (x->kind == MP_X_ADD && is_invariant(n, x->a) &&
		    match_load(n, c, x->b, o, use)) {
			o->z = x->a;
			o->zsign = -1;
			return 1;
		}
		/* a float offset on a float load (a zero point of a
		   floating-point source; an integer load never matches here) */
		if (is_float_invariant(n, x->b) && match_load(n, c, x->a, o, use) &&
		    is_float(o->load)) {
			o->z = x->b;
			o->zsign = x->kind == MP_X_SUB ? 1 : -1;
			return 1;
		}
		if (x->kind == MP_X_ADD && is_float_invariant(n, x->a) &&
		    match_load(n, c, x->b, o, use) && is_float(o->load)) {
			o->z = x->a;
			o->zsign = -1;
			return 1;
		}
		return 0;
	}
	return match_load(n, c, e, o, use);
}

/* Is expr e (through casts) a read of the accumulator of stmt s? */
static int reads_acc(const mp_nest *n, const mp_stmt *s, int e, int *acc_read)
{
	const mp_expr *x = ex(n, peel_casts(n, e));

	if (!x)
		return 0;
	if (s->kind == MP_S_ASSIGN)
		return x->kind == MP_X_VAR && x->var == s->lhs_var;
	if (x->kind == MP_X_LOAD && x->access >= 0 && x->access < n->naccesses &&
	    s->lhs_access >= 0 && s->lhs_access < n->naccesses) {
		const mp_access *r = &n->access[x->access];
		const mp_access *w = &n->access[s->lhs_access];

		if (r->array == w->array && r->affine && w->affine &&
		    r->elem == w->elem && mp_aff_equal(&r->off, &w->off)) {
			*acc_read = x->access;
			return 1;
		}
	}
	return 0;
}

/* The integer expression E, casts over a product m = c * x (c a constant,
 * x casts over a load): its value is the exact product v when, w the
 * narrowest width of m's type and E's casts, x's casts keep the loaded
 * values or are at least w wide, and v fits the outermost type of width w
 * and every type outside it: everything inside it computes v modulo 2^w'
 * with w' >= w, that type gives v back, the ones outside keep it.
 * `(int8_t)(a * 1)`, `(int16_t)(a * 2)` with a s8, also as GCC's front end
 * narrows it (`(short)((unsigned short)a * 2)`). */
static int scaled_fits(const mp_nest *n, int e)
{
	const mp_expr *x, *c = NULL, *chain[17];
	int nc = 0, i, lo_at, other = -1;
	int64_t lo, hi, tlo, thi, plo, phi;

	for (x = ex(n, e); x && x->kind == MP_X_CAST && nc < 16; x = ex(n, x->a))
		chain[nc++] = x;   /* E's casts, outer to inner */
	if (!x || x->kind != MP_X_MUL)
		return 0;
	chain[nc++] = x;   /* then m: chain[nc - 1] is the innermost */
	for (i = 0; i < nc; i++)
		if (!mp_scalar_is_int(chain[i]->type))
			return 0;
	if (ex(n, x->a) && ex(n, x->a)->kind == MP_X_CONST) {
		c = ex(n, x->a);
		other = x->b;
	} else if (ex(n, x->b) && ex(n, x->b)->kind == MP_X_CONST) {
		c = ex(n, x->b);
		other = x->a;
	}
	if (!c || c->cst < -(1 << 20) || c->cst > (1 << 20))
		return 0;
	for (x = ex(n, other); x && x->kind == MP_X_CAST; x = ex(n, x->a))
		;
	if (!x || x->kind != MP_X_LOAD || !mp_scalar_is_int(x->type) ||
	    mp_scalar_bits(x->type) > 16)
		return 0;
	type_range(x->type, &lo, &hi);
	lo_at = 0;   /* the outermost of the narrowest */
	for (i = 1; i < nc; i++)
		if (mp_scalar_bits(chain[i]->type) < mp_scalar_bits(chain[lo_at]->type))
			lo_at = i;
	for (x = ex(n, other); x && x->kind == MP_X_CAST; x = ex(n, x->a)) {
		type_range(x->type, &tlo, &thi);
		if (!mp_scalar_is_int(x->type) ||
		    ((tlo > lo || thi < hi) &&
		     mp_scalar_bits(x->type) < mp_scalar_bits(chain[lo_at]->type)))
			return 0;
	}
	plo = c->cst >= 0 ? lo * c->cst : hi * c->cst;
	phi = c->cst >= 0 ? hi * c->cst : lo * c->cst;
	for (i = lo_at; i >= 0; i--) {
		type_range(chain[i]->type, &tlo, &thi);
		if (plo < tlo || phi > thi)
			return 0;
	}
	return 1;
}

/* E under its casts when every cast keeps the value of the expression
 * under them, else -1: integer, the casts and the expression under them
 * at least 32 bits wide (the source's int32 arithmetic, as the kernels'
 * scaling mod 2^32), or a constant multiple that fits (scaled_fits);
 * `(int8_t)(a * 2)` is no scaled operand (the product wraps to 8 bits).
 * Float: casts between float types (their rounding is within the float
 * sources' bound), never to an integer type. */
static int peel_keeping(const mp_nest *n, int e)
{
	const mp_expr *x, *in;
	int u = peel_casts(n, e);

	in = ex(n, u);
	if (!in)
		return -1;
	if (is_float(in->type)) {
		for (x = ex(n, e); x && x->kind == MP_X_CAST; x = ex(n, x->a))
			if (!is_float(x->type))
				return -1;
		return u;
	}
	if (scaled_fits(n, e))
		return u;
	for (x = ex(n, e); x; x = ex(n, x->a)) {
		if (!mp_scalar_is_int(x->type) || mp_scalar_bits(x->type) < 32)
			return -1;
		if (x->kind != MP_X_CAST)
			break;
	}
	return u;
}

/* MUL(s, x) or MUL(x, s) under casts, s a scalar factor (a loop-invariant
 * value: alpha, 2.0f, (float)scale, an int alpha on integer operands):
 * *s_out, *x_out; *keeps tells whether the casts keep the product's value
 * (peel_keeping: a product wrapped by a narrowing cast still splits, its
 * operand then refused, refuse_wrapped). */
static int split_scaled(const mp_nest *n, int e, int *s_out, int *x_out, int *keeps)
{
	const mp_expr *m = ex(n, peel_casts(n, e));

	*keeps = peel_keeping(n, e) >= 0;

	if (!m || m->kind != MP_X_MUL)
		return 0;
	if (!is_float(m->type)) {
		/* integer: alpha*a with alpha an integer invariant (and a not
		   one: a*b of two invariants is no operand) */
		if (!mp_scalar_is_int(m->type))
			return 0;
		if (is_int_invariant(n, m->a) && !is_int_invariant(n, m->b)) {
			*s_out = m->a;
			*x_out = m->b;
			return 1;
		}
		if (is_int_invariant(n, m->b) && !is_int_invariant(n, m->a)) {
			*s_out = m->b;
			*x_out = m->a;
			return 1;
		}
		return 0;
	}
	if (is_float_invariant(n, m->a)) {
		*s_out = m->a;
		*x_out = m->b;
		return 1;
	}
	if (is_float_invariant(n, m->b)) {
		*s_out = m->b;
		*x_out = m->a;
		return 1;
	}
	return 0;
}

static int expr_reads_var(const mp_nest *n, int e, int v, int depth);
static int peel_negs(const mp_nest *n, int e, mp_scalar t, int *neg);
static int is_zero_const(const mp_nest *n, int e, int zneg);
static int iter_observed(const mp_nest *n, int v);

/* Local T, read in statement USE, forwards its value there: T is assigned
 * once in the nest, unconditionally or under conditions USE runs under
 * (TFLite's depthwise reference reads its operands into locals inside `if
 * (is_point_inside_image) { ... }`), by a statement D that runs before USE
 * in the same iteration of every loop around D (D's loop encloses USE, D
 * comes first in it), T is read nowhere but in the contraction and the
 * statements already forwarded, and not after the nest.  On the fast path
 * D is then dead.  Returns D, or -1.
 *
 * T may also be assigned several times, every time unconditionally in
 * USE's own loop (CMSIS-NN's arm_nn_mat_mult_nt_t_s8 loads two rows into
 * one local in turn: `a = lhs[r0]; s0 += a*b; a = lhs[r1]; s1 += a*b;`):
 * the assignment that reaches USE is the last one before it in that loop's
 * body, and the others are forwarded to their own uses or read by nothing
 * but the contraction's statements. */
static int fwd_def_multi(const mp_nest *n, int t, int use)
{
	int sid, def = -1, ul = n->stmt[use].loop;

	for (sid = 0; sid < n->nstmts; sid++) {
		const mp_stmt *st = &n->stmt[sid];

		if (st->kind != MP_S_ASSIGN || st->lhs_var != t)
			continue;
		if (st->guarded || st->loop != ul || st->rhs < 0 ||
		    expr_reads_var(n, st->rhs, t, 0))
			return -1;
		if (st->pos < n->stmt[use].pos && (def < 0 || st->pos > n->stmt[def].pos))
			def = sid;
	}
	return def;
}

static int fwd_def(const mp_nest *n, const cand *c, int t, int use)
{
	int sid, def = -1, l, ul, ndefs = 0;

	if (!c || t < 0 || t >= n->nvars || n->var[t].kind != MP_VAR_LOCAL ||
	    n->var[t].used_after || use < 0 || use >= n->nstmts)
		return -1;
	for (sid = 0; sid < n->nstmts; sid++) {
		const mp_stmt *st = &n->stmt[sid];

		if (st->kind == MP_S_ASSIGN && st->lhs_var == t)
			ndefs++;
	}
	for (sid = 0; sid < n->nstmts; sid++) {
		const mp_stmt *st = &n->stmt[sid];

		if (st->kind == MP_S_ASSIGN && st->lhs_var == t) {
			if (ndefs > 1)
				continue;   /* fwd_def_multi */
			/* guarded: by a described condition that USE's implies
			   (TFLite's depthwise reference reads the operands into
			   locals inside `if (is_point_inside_image) { ... }`) */
			if (def >= 0 || (st->guarded &&
					 (!st->conds || !n->stmt[use].guarded ||
					  (st->conds & ~n->stmt[use].conds))))
				return -1;
			def = sid;
		} else if (sid != c->stmt && sid != use && !c->fwd[sid] &&
			   !(c->others && c->others[sid]) && st->rhs >= 0 &&
			   expr_reads_var(n, st->rhs, t, 0)) {
			return -1;
		}
	}
	if (ndefs > 1)
		def = fwd_def_multi(n, t, use);
	if (def < 0 || def == c->stmt || def == use || n->stmt[def].rhs < 0 ||
	    n->stmt[def].loop < 0 || expr_reads_var(n, n->stmt[def].rhs, t, 0))
		return -1;
	ul = n->stmt[use].loop;
	if (ul == n->stmt[def].loop)
		return n->stmt[def].pos < n->stmt[use].pos ? def : -1;
	for (l = ul; l >= 0 && n->loop[l].parent != n->stmt[def].loop; l = n->loop[l].parent)
		;
	return l >= 0 && n->stmt[def].pos < n->loop[l].pos ? def : -1;
}

static void exact_multiple(const mp_nest *n, int e, operand *o);

/* An operand held in a local assigned  t = s * L  (L a load, s a scalar
 * factor: the netlib form  temp = alpha*A(i,k); for j C(i,j) +=
 * temp*B(k,j), float or integer, GSL's as well); the operand is then L
 * and c->alpha s.  An integer t narrower than the product wraps it (as
 * `(int8_t)(a * 2)` in the statement does) unless the product fits. */
static int match_forward(const mp_nest *n, cand *c, int e, operand *o)
{
	const mp_expr *x = ex(n, peel_casts(n, e));
	int def, sf = -1, ld = -1, keeps, fl;

	if (!x || x->kind != MP_X_VAR || x->var < 0 || x->var >= n->nvars || c->alpha >= 0)
		return 0;
	fl = is_float(n->var[x->var].type);
	if (!fl && !mp_scalar_is_int(n->var[x->var].type))
		return 0;
	def = fwd_def(n, c, x->var, c->stmt);
	if (def < 0 || !split_scaled(n, n->stmt[def].rhs, &sf, &ld, &keeps) ||
	    !match_operand(n, c, ld, o, def) || is_float(o->load) != fl)
		return 0;
	o->wraps = !keeps;
	if (!fl)
		exact_multiple(n, n->stmt[def].rhs, o);
	c->alpha = sf;
	fwd_mark(c, def);
	return 1;
}

static int match_factor(const mp_nest *n, cand *c, int e, operand *o)
{
	o->wraps = 0;   /* set by match_forward and match_scaled */
	return match_operand(n, c, e, o, c->stmt) || match_forward(n, c, e, o);
}

/* E, the operand O times a constant, has the exact product's value
 * (scaled_fits): O's own casts (GCC's `(unsigned short)a` in
 * `(short)((unsigned short)a * 2)`) keep it too, modulo the wider type. */
static void exact_multiple(const mp_nest *n, int e, operand *o)
{
	if (scaled_fits(n, e)) {
		o->ok_widen = 1;
		o->type = MP_TY_S32;
	}
}

/* The product with one scalar factor, in any association:
 * (s*a)*b, (a*s)*b, a*(s*b), a*(b*s), (a*b)*s, s*(a*b); f[0] is the left
 * load as written.  Sets c->alpha. */
static int match_scaled(const mp_nest *n, const mp_expr *mul, cand *c)
{
	int sf, x, keeps;

	if (split_scaled(n, c->prod, &sf, &x, &keeps)) {
		const mp_expr *in = ex(n, peel_casts(n, x));
		c->alpha = sf;
		fwd_reset(c);
		if (in && in->kind == MP_X_MUL && match_factor(n, c, in->a, &c->f[0]) &&
		    match_factor(n, c, in->b, &c->f[1]) && c->alpha == sf) {
			/* `s * (int8_t)(a * b)`: a * b wraps before the scaling */
			if (peel_keeping(n, x) < 0)
				c->f[0].wraps = c->f[1].wraps = 1;
			return 1;
		}
	}
	if (split_scaled(n, mul->a, &sf, &x, &keeps)) {
		c->alpha = sf;
		fwd_reset(c);
		if (match_factor(n, c, x, &c->f[0]) && match_factor(n, c, mul->b, &c->f[1]) &&
		    c->alpha == sf) {
			c->f[0].wraps = !keeps;
			exact_multiple(n, mul->a, &c->f[0]);
			return 1;
		}
	}
	if (split_scaled(n, mul->b, &sf, &x, &keeps)) {
		c->alpha = sf;
		fwd_reset(c);
		if (match_factor(n, c, mul->a, &c->f[0]) && match_factor(n, c, x, &c->f[1]) &&
		    c->alpha == sf) {
			c->f[1].wraps = !keeps;
			exact_multiple(n, mul->b, &c->f[1]);
			return 1;
		}
	}
	c->alpha = -1;
	fwd_reset(c);
	return 0;
}

static int match_stmt(const mp_nest *n, int sid, cand *c)
{
	const mp_stmt *s = &n->stmt[sid];
	const mp_expr *add, *mul;
	int side, prod;

	const unsigned char *others = c->others;

	memset(c, 0, sizeof(*c));
	c->others = others;
	c->stmt = sid;
	c->acc_var = c->acc_write = c->acc_read = -1;
	c->alpha = -1;
	if (s->kind == MP_S_ASSIGN) {
		if (s->lhs_var < 0 || s->lhs_var >= n->nvars ||
		    n->var[s->lhs_var].kind != MP_VAR_LOCAL)
			return 0;
		c->acc_var = s->lhs_var;
	} else if (s->kind == MP_S_STORE)
		c->acc_write = s->lhs_access;
	else
		return 0;
	c->add = s->rhs;
	add = ex(n, s->rhs);
	if (!add || (add->kind != MP_X_ADD && add->kind != MP_X_SUB))
		return 0;
	/* `acc -= a*b`: acc - a*b, the accumulator on the left */
	for (side = 0; side < (add->kind == MP_X_SUB ? 1 : 2); side++) {
		int accx = side ? add->b : add->a, px = side ? add->a : add->b;

		if (!reads_acc(n, s, accx, &c->acc_read))
			continue;
		prod = peel_casts(n, px);
		mul = ex(n, prod);
		/* a negation under a widening cast (`acc64 += (long)-(a*b)`):
		   the product subtracted.  Negations of the sum's own type
		   (`acc += -(a*b)`, `acc = -(a*b) + acc`) were folded into
		   acc - a*b before (fold_sub_neg) */
		int negp = 0;
		if (mul && (mul->kind == MP_X_NEG || mul->kind == MP_X_SUB)) {
			/* (also `(long)-(-(a*b))` and `(long)(0 - a*b)`: GCC
			   folds the first, clang kept it and found no product;
			   fuzz seed 1202576) */
			int q = peel_negs(n, prod, mul->type, &negp);
			if (q != prod) {
				prod = peel_casts(n, q);
				mul = ex(n, prod);
			}
		}
		/* the product in a local of its own type, read once here
		   (gemmlowp's reference: `const int32_t mult_as_int = a_as_int
		   * b_as_int; total += mult_as_int;`): forwarded */
		int pd = -1;
		if (mul && mul->kind == MP_X_VAR && (pd = fwd_def(n, c, mul->var, sid)) >= 0 &&
		    ex(n, n->stmt[pd].rhs) && ex(n, n->stmt[pd].rhs)->kind == MP_X_MUL &&
		    ex(n, n->stmt[pd].rhs)->type == n->var[mul->var].type) {
			prod = n->stmt[pd].rhs;
			mul = ex(n, prod);
		} else {
			pd = -1;
		}
		if (!mul || mul->kind != MP_X_MUL)
			continue;
		c->prod = prod;
		c->alpha = -1;
		c->neg = (add->kind == MP_X_SUB) ^ negp;
		fwd_reset(c);
		fwd_mark(c, pd);
		if (match_factor(n, c, mul->a, &c->f[0]) &&
		    match_factor(n, c, mul->b, &c->f[1]))
			return 1;
		if (pd < 0 && match_scaled(n, mul, c)) {
			/* `1 * a * b`: no factor (GCC's front end folds it away;
			   a factor would ask for tile mode under clang only) */
			const mp_expr *f = ex(n, peel_casts(n, c->alpha));

			if (f && f->kind == MP_X_CONST && mp_scalar_is_int(f->type) &&
			    f->cst == 1 && mp_scalar_is_int(ex(n, c->alpha)->type))
				c->alpha = -1;
			return 1;
		}
	}
	return 0;
}

/* --------------------------------------------------------- checks */

/* Does expression e read a value that varies in the nest (a load, a local
 * or an iterator)? */
static int varying(const mp_nest *n, int e, int depth)
{
	const mp_expr *x;

	if (e < 0 || e >= n->nexprs || depth > 32)
		return 0;
	x = &n->expr[e];
	switch (x->kind) {
	case MP_X_CONST:
		return 0;
	case MP_X_LOAD:
		return 1;
	case MP_X_VAR:
		return x->var >= 0 && n->var[x->var].kind != MP_VAR_PARAM;
	default:
		return varying(n, x->a, depth + 1) || varying(n, x->b, depth + 1);
	}
}

/* The loops whose iterators the offset of access acc names (bit l). */
static unsigned access_loops(const mp_nest *n, int acc)
{
	unsigned m = 0;

	for (int l = 0; l < n->nloops && l < 32; l++)
		if (mp_aff_uses_var(&n->access[acc].off, n->loop[l].iter))
			m |= 1u << l;
	return m;
}

/* The loops whose iterators expression e reads (bit l: loop l), through
 * its loads' subscripts and iterator reads; *other set when it reads a
 * local or an access mixprec cannot place (its iterators unknown). */
static unsigned expr_loops(const mp_nest *n, int e, int depth, int *other)
{
	const mp_expr *x;
	unsigned m = 0;
	int l;

	if (e < 0)
		return 0;   /* no operand */
	if (e >= n->nexprs || depth > 32) {
		*other = 1;
		return 0;
	}
	x = &n->expr[e];
	switch (x->kind) {
	case MP_X_CONST:
		return 0;
	case MP_X_LOAD:
		if (x->access < 0 || !n->access[x->access].affine) {
			*other = 1;
			return 0;
		}
		return access_loops(n, x->access);
	case MP_X_VAR:
		if (x->var >= 0 && n->var[x->var].kind == MP_VAR_ITER &&
		    n->var[x->var].loop >= 0 && n->var[x->var].loop < 32)
			return 1u << n->var[x->var].loop;
		if (x->var >= 0 && n->var[x->var].kind != MP_VAR_PARAM)
			*other = 1;
		return 0;
	case MP_X_CALL:
		for (l = 0; l < x->nargs; l++)
			m |= expr_loops(n, x->args[l], depth + 1, other);
		return m;
	default:
		return expr_loops(n, x->a, depth + 1, other) | expr_loops(n, x->b, depth + 1, other);
	}
}

/* Is there, in expression e of statement s, a product of two varying
 * values that could be a sum's term: not an outer product stored
 * element-wise (every loop the two factors both read is one the stored
 * element's subscript reads: `A[i][j] += u[i] * v[j]`, gemver's rank-2
 * update)? */
static void describe_stmt(const mp_nest *n, int s, char *buf, size_t len);
static int reduction_product(const mp_nest *n, int s, int e, int depth);

/* The locals the nest assigns that update X (`s += t * b`, `C[..] -= t *
 * b`) reads as factors of its product: up to 4 var ids in OUT, their
 * count returned. */
static int factor_locals(const mp_nest *n, int x, int out[4])
{
	const mp_stmt *st = &n->stmt[x];
	const mp_expr *add = st->rhs >= 0 ? &n->expr[st->rhs] : NULL, *mul;
	int k = 0;

	if ((st->kind != MP_S_ASSIGN && st->kind != MP_S_STORE) || !add ||
	    (add->kind != MP_X_ADD && add->kind != MP_X_SUB))
		return 0;
	for (int side = 0; side < 2; side++) {
		int m = peel_casts(n, side ? add->b : add->a);

		mul = m >= 0 && m < n->nexprs ? &n->expr[m] : NULL;
		if (!mul || mul->kind != MP_X_MUL)
			continue;
		for (int f = 0; f < 2; f++) {
			int e = peel_casts(n, f ? mul->b : mul->a), t, o, def = 0;

			if (e < 0 || e >= n->nexprs || n->expr[e].kind != MP_X_VAR)
				continue;
			t = n->expr[e].var;
			if (t < 0 || t >= n->nvars || n->var[t].kind != MP_VAR_LOCAL)
				continue;
			for (o = 0; o < n->nstmts; o++)
				def |= n->stmt[o].kind == MP_S_ASSIGN && n->stmt[o].lhs_var == t;
			if (def)
				out[k++] = t;
		}
	}
	return k;
}

/* Near miss: statement X is an update `acc = acc + a*b` (or `-`) whose
 * factor is a local assigned in the nest that another statement reads
 * too, other than another update of a product (llm.c's matmul_backward:
 * `float d = dout_bt[o]; if (dbias) dbias[o] += d; for (i...) dwrow[i] +=
 * inp_bt[i] * d;`): that statement, or -1; *var the local. */
static int shared_local(const mp_nest *n, int x, int *var)
{
	int t[4], k = factor_locals(n, x, t);

	for (int q = 0; q < k; q++)
		for (int o = 0; o < n->nstmts; o++)
			if (o != x && n->stmt[o].rhs >= 0 &&
			    !(n->stmt[o].kind == MP_S_ASSIGN && n->stmt[o].lhs_var == t[q]) &&
			    expr_reads_var(n, n->stmt[o].rhs, t[q], 0) &&
			    /* another update (rows sharing the local): the
			       reason lies elsewhere */
			    !reduction_product(n, o, n->stmt[o].rhs, 0)) {
				*var = t[q];
				return o;
			}
	return -1;
}

/* The local read as a factor of the product of update X (`s += t * b`)
 * that the nest assigns and that is used after the nest (fwd_def does not
 * read such a local's value into the product), or -1. */
static int live_factor(const mp_nest *n, int x)
{
	int t[4], k = factor_locals(n, x, t);

	for (int q = 0; q < k; q++)
		if (n->var[t[q]].used_after)
			return t[q];
	return -1;
}

static int reduction_product(const mp_nest *n, int s, int e, int depth)
{
	const mp_expr *x;
	const mp_stmt *st = &n->stmt[s];

	if (e < 0 || e >= n->nexprs || depth > 32)
		return 0;
	x = &n->expr[e];
	if (x->kind == MP_X_MUL && varying(n, x->a, 0) && varying(n, x->b, 0)) {
		int other = 0;
		unsigned fa = expr_loops(n, x->a, 0, &other), fb = expr_loops(n, x->b, 0, &other);
		unsigned out;

		if (st->kind != MP_S_STORE || st->lhs_access < 0 ||
		    !n->access[st->lhs_access].affine || other)
			return 1;
		out = access_loops(n, st->lhs_access);
		if (fa & fb & ~out)
			return 1;
		/* a factor over a loop the element does not name: summed */
		for (int l = n->stmt[s].loop; l >= 0 && l < 32; l = n->loop[l].parent)
			if (((fa | fb) >> l & 1) && !(out >> l & 1))
				return 1;
	}
	if (x->kind == MP_X_CALL) {
		for (int a = 0; a < x->nargs; a++)
			if (reduction_product(n, s, x->args[a], depth + 1))
				return 1;
		return 0;
	}
	return reduction_product(n, s, x->a, depth + 1) ||
	       reduction_product(n, s, x->b, depth + 1);
}

static int find_candidate(az *z)
{
	const mp_nest *n = z->n;
	int s, count = 0, first = -1, second = -1;
	cand c;

	memset(&c, 0, sizeof(c));
	c.others = z->nothers ? z->others : NULL;
	for (s = 0; s < n->nstmts; s++) {
		if (z->nothers && z->others[s])
			continue;   /* analysed on its own */
		if (!match_stmt(n, s, &c))
			continue;
		if (count == 0) {
			z->c = c;
			first = s;
		} else if (count == 1)
			second = s;
		count++;
	}
	if (count == 0) {
		int x, v, o;
		char what[MP_NAME_LEN * 2];

		/* the update's factor a local that other code reads too */
		for (x = 0; x < n->nstmts; x++)
			if ((o = shared_local(n, x, &v)) >= 0) {
				describe_stmt(n, o, what, sizeof(what));
				return refuse(z, n->stmt[o].loc,
					      "no contraction found in the nest: the product "
					      "of the update reads local '%s', which %s reads "
					      "too; mixprec reads a local's value into the "
					      "product only where the product alone reads it "
					      "(read the value again there, or move that "
					      "statement out of the nest)", n->var[v].name, what);
			}
		/* ... or that the code after the nest reads */
		for (x = 0; x < n->nstmts; x++)
			if ((v = live_factor(n, x)) >= 0)
				return refuse(z, n->stmt[x].loc,
					      "no contraction found in the nest: the product "
					      "of the update reads local '%s', which the nest "
					      "assigns and the code after the nest reads; mixprec "
					      "reads a local's value into the product only where "
					      "it is not used after the nest (read the value "
					      "again in the product, or keep what is needed "
					      "after the nest in another variable)", n->var[v].name);
		/* no product of two values that vary (loads, locals): not
		   even a near miss (an init loop, `C[i][j] *= beta`) */
		z->plan->no_contraction = 1;
		for (x = 0; x < n->nstmts; x++)
			if (n->stmt[x].kind != MP_S_OPAQUE &&
			    reduction_product(n, x, n->stmt[x].rhs, 0))
				z->plan->no_contraction = 0;
		/* the product may be inside what mixprec cannot read (TinyMaix's
		   tm_dot_prod(x, w, n, &sum)): say so, at that statement */
		for (x = 0; x < n->nstmts; x++)
			if (n->stmt[x].kind == MP_S_OPAQUE)
				return refuse(z, n->stmt[x].loc,
					      "no contraction found in the nest, which contains "
					      "a statement mixprec cannot analyse (%s): a product "
					      "computed inside it is not seen",
					      n->stmt[x].why[0] ? n->stmt[x].why
								: "unknown operation");
		return refuse(z, loop_loc(n, 0),
			      "no contraction found in the nest: expected 'acc = acc + a*b' "
			      "or 'c[...] += a*b' with a and b loads of 8-bit integers, or of "
			      "float/double (then also 'alpha*a*b')");
	}
	if (count > 1)
		z->plan->ncontr = count;
	if (count > 1)
		return refuse(z, n->stmt[second].loc,
			      "the nest holds %d contractions (statements %d and %d, ...); "
			      "only one per '#pragma mixprec' is supported",
			      count, first, second);
	return 0;
}

static const char *acc_name(az *z)
{
	return z->c.acc_var >= 0 ? vn(z->n, z->c.acc_var) : an(z->n, z->c.acc_write);
}

static int wrapped_operand(const az *z);
static int refuse_wrapped(az *z, int i);

/* Step 2 for a floating-point source (at least one operand is a float or
 * double load). */
static int check_float_source(az *z)
{
	const mp_nest *n = z->n;
	const mp_pragma *p = z->p;
	const mp_stmt *s = &n->stmt[z->c.stmt];
	const operand *A = &z->c.f[0], *B = &z->c.f[1];
	int i;

	for (i = 0; i < 2; i++) {
		mp_scalar t = z->c.f[i].load;

		if (is_float(t) && !p->lp_capable)
			return refuse(z, s->loc,
				      "operand '%s' is %s: floating-point sources are not "
				      "supported yet by this compiler plugin",
				      an(n, z->c.f[i].access), mp_scalar_name(t));
	}
	if (!is_float(A->load) || !is_float(B->load)) {
		const operand *f = is_float(A->load) ? A : B, *o = f == A ? B : A;

		return refuse(z, n->access[o->access].loc ? n->access[o->access].loc : s->loc,
			      "operand '%s' is %s and operand '%s' is %s; mixed integer and "
			      "floating-point operands are not supported",
			      an(n, f->access), mp_scalar_name(f->load),
			      an(n, o->access), mp_scalar_name(o->load));
	}
	if (A->load != B->load)
		return refuse(z, s->loc,
			      "operand '%s' is %s and operand '%s' is %s; mixed float and "
			      "double operands are not supported yet (convert one array)",
			      an(n, A->access), mp_scalar_name(A->load),
			      an(n, B->access), mp_scalar_name(B->load));
	/* a zero point (x - z, x + z): the runtime subtracts it in the source
	   type before quantizing, as the loop does before multiplying; so the
	   difference must be computed in the operand's own type */
	for (i = 0; i < 2; i++)
		if (z->c.f[i].z >= 0 && (z->c.f[i].type != z->c.f[i].load ||
					 n->expr[z->c.f[i].z].type != z->c.f[i].load))
			return refuse(z, n->access[z->c.f[i].access].loc ?
				      n->access[z->c.f[i].access].loc : s->loc,
				      "the zero point of operand '%s' (%s) is %s in %s; it must be "
				      "a %s value subtracted in %s (write the zero point as a %s)",
				      an(n, z->c.f[i].access), mp_scalar_name(z->c.f[i].load),
				      z->c.f[i].zsign > 0 ? "subtracted" : "added",
				      mp_scalar_name(z->c.f[i].type), mp_scalar_name(z->c.f[i].load),
				      mp_scalar_name(z->c.f[i].load), mp_scalar_name(z->c.f[i].load));
	switch (p->prec) {
	case MP_PREC_BF16: case MP_PREC_INT8: case MP_PREC_UINT8:
	case MP_PREC_FP8_E4M3: case MP_PREC_FP8_E5M2:
		break;
	default:
		return refuse(z, p->loc,
			      "'#pragma mixprec(%s)' on a floating-point source ('%s' and "
			      "'%s' are %s) is not supported: this version has no fp16 "
			      "kernels (without fp16 dot-product instructions they would run "
			      "at fp32 speed); use bf16, int8, uint8, fp8_e4m3 or fp8_e5m2",
			      prec_str(p->prec), an(n, A->access),
			      an(n, B->access), mp_scalar_name(A->load));
	}
	/* int8 / uint8 accumulate exactly in int32 (then dequantize): acc=int32
	   or the default; the float precisions accumulate in fp32 (the parser
	   already refuses the other combinations) */
	if (p->acc == MP_ACC_INT32 && p->prec != MP_PREC_INT8 && p->prec != MP_PREC_UINT8)
		return refuse(z, p->loc,
			      "acc=int32 on a floating-point source ('%s' and '%s' are %s): "
			      "the contraction accumulates in fp32; use acc=fp32",
			      an(n, A->access), an(n, B->access), mp_scalar_name(A->load));
	if (p->scale == MP_SCALE_EXPR && p->nsspec != 2)
		return refuse(z, p->scale_loc ? p->scale_loc : p->loc,
			      "the explicit scales of operands '%s' and '%s' were not "
			      "interpreted (internal error of the compiler plugin)",
			      an(n, A->access), an(n, B->access));
	if (p->scale == MP_SCALE_EXPR && p->prec == MP_PREC_BF16)
		for (i = 0; i < 2; i++)
			if (p->sspec[i].kind != MP_SS_DYNAMIC)
				return refuse(z, p->sspec[i].loc ? p->sspec[i].loc : p->loc,
					      "bf16 has no scales (every float converts to the "
					      "nearest bf16); remove scale= or use "
					      "scale=(dynamic, dynamic)");
	z->fsrc = 1;
	z->ftype = A->load;
	return 0;
}

static int check_source_and_pragma(az *z)
{
	const mp_nest *n = z->n;
	const mp_pragma *p = z->p;
	int i;

	if (is_float(z->c.f[0].load) || is_float(z->c.f[1].load))
		return check_float_source(z);
	/* an integer factor (alpha*a*b, int alpha) scales the tile: exact,
	   mod 2^32 as the source's int32 arithmetic; a float one is refused */
	if (z->c.alpha >= 0 && (!ex(n, z->c.alpha) || !mp_scalar_is_int(ex(n, z->c.alpha)->type)))
		return refuse(z, n->stmt[z->c.stmt].loc,
			      "the product of '%s' and '%s' has a floating-point factor; on "
			      "8-bit integer operands write the scaling in the epilogue "
			      "(the int32 sum times the factor)",
			      an(n, z->c.f[0].access), an(n, z->c.f[1].access));
	for (i = 0; i < 2; i++) {
		mp_scalar t = z->c.f[i].load;

		if (t != MP_TY_S8 && t != MP_TY_U8)
			return refuse(z, n->access[z->c.f[i].access].loc,
				      "operand '%s' is %s; only 8-bit integer operands "
				      "(s8, u8) and float or double operands are supported",
				      an(n, z->c.f[i].access),
				      t == MP_TY_OTHER ? "of another type (_Bool, long double, a "
				      "struct, ...)" : mp_scalar_name(t));
	}
	if (p->prec != MP_PREC_INT8 && p->prec != MP_PREC_UINT8)
		return refuse(z, p->loc,
			      "'#pragma mixprec(%s)' asks for a floating-point precision, but "
			      "the operands '%s' and '%s' are 8-bit integers; use int8 or uint8",
			      prec_str(p->prec), an(n, z->c.f[0].access),
			      an(n, z->c.f[1].access));
	if (p->acc != MP_ACC_DEFAULT && p->acc != MP_ACC_INT32)
		return refuse(z, p->loc,
			      "acc=fp32 on an integer source: products of 8-bit integers "
			      "accumulate exactly in int32 ('%s'); use acc=int32",
			      acc_name(z));
	if (p->scale != MP_SCALE_NONE) {
		z->plan->reason_is_error = 1;
		return refuse(z, p->scale_loc ? p->scale_loc : p->loc,
			      "scale= has no effect on an integer source: write the "
			      "requantization in the loop body, where mixprec fuses it");
	}
	return 0;
}

/* X's operand where X negates it: `-y` and, for integers, `0 - y` (GCC's
 * folding of `-y` in some contexts and how people write it); else -1. */
static int neg_arg(const mp_nest *n, const mp_expr *x)
{
	if (x->kind == MP_X_NEG)
		return x->a;
	if (x->kind == MP_X_SUB && mp_scalar_is_int(x->type) && x->b >= 0 &&
	    is_zero_const(n, x->a, 0))
		return x->b;
	return -1;
}

/* X's operand where X is a cast or a negation the update reads through
 * (match_stmt's peel_negs), else -1. */
static int cast_or_neg_arg(const mp_nest *n, const mp_expr *x)
{
	return x->kind == MP_X_CAST ? x->a : neg_arg(n, x);
}

/* Every cast on the way down from e is to int32 (identity casts only). */
static int s32_casts(const mp_nest *n, int e)
{
	const mp_expr *x;
	int y;

	/* through a negation of the product (match_stmt: `C += -(a*b)`, `0 -
	   a*b`), whose own casts matter as much (`-((int8_t)(a * b))`, found
	   by an adversarial helper: the clangs dropped that cast; `0 -
	   (int8_t)(a * b)` under an int64 sum, by a review helper) */
	while ((x = ex(n, e)) && (y = cast_or_neg_arg(n, x)) >= 0) {
		if (x->type != MP_TY_S32)
			return 0;
		e = y;
	}
	return x && x->type == MP_TY_S32;
}

/* The first type other than int32 on E's casts down to its value (int32
 * when there is none): what a refusal names for a product narrowed
 * before the sum (`(int8_t)(a * b)`). */
static mp_scalar narrowed_type(const mp_nest *n, int e)
{
	const mp_expr *x;
	int y;

	while ((x = ex(n, e)) && (y = cast_or_neg_arg(n, x)) >= 0) {
		if (x->type != MP_TY_S32)
			return x->type;
		e = y;
	}
	return x ? x->type : MP_TY_S32;
}

/* E is an int32 value widened to int64: casts to int64 down to an int32
 * value (casts to int32 below them), the product (`(long)(a * b)`). */
static int s64_widened(const mp_nest *n, int e)
{
	const mp_expr *x = ex(n, e);

	if (!x || x->kind != MP_X_CAST || x->type != MP_TY_S64)
		return 0;
	while ((x = ex(n, e)) && x->kind == MP_X_CAST && x->type == MP_TY_S64)
		e = x->a;
	return s32_casts(n, e);
}

/* Every cast on the way down from e is to a float type. */
static int float_casts(const mp_nest *n, int e)
{
	const mp_expr *x;

	while ((x = ex(n, e)) && (x->kind == MP_X_CAST || x->kind == MP_X_NEG)) {
		if (!is_float(x->type))
			return 0;
		e = x->a;
	}
	return x && is_float(x->type);
}

/* The update runs under a condition the glue could not read as a
 * conjunction of affine comparisons (mp_stmt.conds 0): refused. */
static int unread_guard(az *z, const mp_stmt *s)
{
	if (s->guarded && !s->conds)
		return refuse(z, s->loc,
			      "the update of '%s' is guarded by a condition mixprec cannot "
			      "read; only conditions that are conjunctions of comparisons "
			      "of affine expressions in the loop iterators (`ih >= 0 && ih < "
			      "H`, or `if (ih < 0 || ih >= H) continue;`) are supported",
			      acc_name(z));
	return 0;
}

static int check_float_types(az *z)
{
	const mp_nest *n = z->n;
	const mp_stmt *s = &n->stmt[z->c.stmt];
	mp_scalar at = z->c.acc_var >= 0 ? n->var[z->c.acc_var].type :
		       n->access[z->c.acc_write].elem;
	int i;

	if (!is_float(at))
		return refuse(z, s->loc,
			      "accumulator '%s' is %s; a floating-point source needs a float "
			      "or double accumulator", acc_name(z), mp_scalar_name(at));
	if (!is_float(n->expr[z->c.add].type) || !is_float(n->expr[z->c.prod].type) ||
	    !float_casts(n, n->expr[z->c.add].a) || !float_casts(n, n->expr[z->c.add].b))
		return refuse(z, s->loc,
			      "the products accumulated into '%s' are not computed in float "
			      "or double (%s)", acc_name(z),
			      mp_scalar_name(n->expr[z->c.prod].type));
	if ((i = wrapped_operand(z)) >= 0)
		return refuse_wrapped(z, i);
	for (i = 0; i < 2; i++) {
		const operand *o = &z->c.f[i];

		if (!is_float(o->type) || !o->ok_widen)
			return refuse(z, n->access[o->access].loc ? n->access[o->access].loc :
				      s->loc,
				      "operand '%s' (%s) is converted with a loss of precision "
				      "(to %s); only float -> double conversions are supported",
				      an(n, o->access), mp_scalar_name(o->load),
				      mp_scalar_name(o->type));
	}
	return unread_guard(z, s);
}

/* The operand whose product with the scalar factor is converted to a
 * type that may not hold it, -1 when none. */
static int wrapped_operand(const az *z)
{
	return z->c.f[0].wraps ? 0 : z->c.f[1].wraps ? 1 : -1;
}

static int refuse_wrapped(az *z, int i)
{
	const mp_nest *n = z->n;
	const operand *o = &z->c.f[i];

	return refuse(z, n->access[o->access].loc ? n->access[o->access].loc
			 : n->stmt[z->c.stmt].loc,
		      "operand '%s' is scaled and then converted to a narrower type before "
		      "the product (as in '(int8_t)(a * 2)': the value wraps or is "
		      "rounded); only value-preserving conversions of a scaled operand "
		      "are supported", an(n, o->access));
}

static int check_types(az *z)
{
	const mp_nest *n = z->n;
	const mp_stmt *s = &n->stmt[z->c.stmt];
	mp_scalar at = z->c.acc_var >= 0 ? n->var[z->c.acc_var].type :
		       n->access[z->c.acc_write].elem;
	int i;

	if (z->fsrc)
		return check_float_types(z);
	/* int64 sum of int32 products: the add in int64, the product in int32
	   widened to it */
	if (at == MP_TY_S64 && n->expr[z->c.add].type == MP_TY_S64 &&
	    n->expr[z->c.prod].type == MP_TY_S32 &&
	    (s64_widened(n, n->expr[z->c.add].a) || s64_widened(n, n->expr[z->c.add].b))) {
		if (z->c.alpha >= 0)
			return refuse(z, s->loc, "accumulator '%s' is 64-bit and the products "
				      "are scaled by an integer factor; with a 64-bit accumulator "
				      "the product must be a*b", acc_name(z));
		z->acc64 = 1;
		at = MP_TY_S32;   /* the kernels' sum; the checks below on the product */
	}
	if (at != MP_TY_S32) {
		if (mp_scalar_is_int(at) && mp_scalar_bits(at) != 32)
			return refuse(z, s->loc,
				      "accumulator '%s' is %d-bit; only a 32-bit signed "
				      "(int32) accumulator is supported", acc_name(z),
				      mp_scalar_bits(at));
		return refuse(z, s->loc,
			      "accumulator '%s' is %s; only a 32-bit signed (int32) "
			      "accumulator is supported", acc_name(z), mp_scalar_name(at));
	}
	if ((!z->acc64 && (n->expr[z->c.add].type != MP_TY_S32 ||
			   !s32_casts(n, n->expr[z->c.add].a) ||
			   !s32_casts(n, n->expr[z->c.add].b))) ||
	    n->expr[z->c.prod].type != MP_TY_S32) {
		/* the type that is not int32: the product's, the sum's, or a
		   cast between them (`s += (int8_t)(a * b)`) */
		mp_scalar t = n->expr[z->c.prod].type;
		if (t == MP_TY_S32)
			t = n->expr[z->c.add].type;
		if (t == MP_TY_S32)
			t = narrowed_type(n, n->expr[z->c.add].a);
		if (t == MP_TY_S32)
			t = narrowed_type(n, n->expr[z->c.add].b);
		/* the width, not the signedness: GCC folds (int8_t)(a * b) into
		   an unsigned char product where clang keeps signed char */
		if (mp_scalar_is_int(t))
			return refuse(z, s->loc,
				      "the products accumulated into '%s' are not computed in "
				      "int32 (%d-bit); only int32 products are supported",
				      acc_name(z), mp_scalar_bits(t));
		return refuse(z, s->loc,
			      "the products accumulated into '%s' are not computed in "
			      "int32 (%s); only int32 products are supported", acc_name(z),
			      mp_scalar_name(t));
	}
	if ((i = wrapped_operand(z)) >= 0)
		return refuse_wrapped(z, i);
	for (i = 0; i < 2; i++) {
		const operand *o = &z->c.f[i];

		if (o->type != MP_TY_S32 || !o->ok_widen)
			return refuse(z, n->access[o->access].loc,
				      "operand '%s' is not widened to int32 without loss "
				      "(%s operand); only value-preserving widening is supported",
				      an(n, o->access), mp_scalar_name(o->type));
	}
	return unread_guard(z, s);
}

static int check_statements(az *z)
{
	const mp_nest *n = z->n;
	int s;

	for (s = 0; s < n->nstmts; s++) {
		const mp_stmt *st = &n->stmt[s];

		if (st->kind == MP_S_OPAQUE)
			return refuse(z, st->loc,
				      "the nest contains a statement mixprec cannot analyse "
				      "(%s)", st->why[0] ? st->why : "unknown operation");
		if (st->kind == MP_S_ASSIGN && st->lhs_var >= 0 &&
		    st->lhs_var < n->nvars && n->var[st->lhs_var].kind != MP_VAR_LOCAL)
			return refuse(z, st->loc,
				      "the nest assigns '%s', which is a loop iterator or "
				      "a parameter", vn(n, st->lhs_var));
	}
	return 0;
}

/* Every variable of a is an ITER of chain[0..d) or a PARAM. */
static int aff_in_scope(const mp_nest *n, const mp_aff *a, const int *chain,
			int d, int *bad)
{
	int i, k, j;

	for (i = 0; i < a->n; i++)
		for (k = 0; k < 2; k++) {
			int v = k ? a->t[i].v2 : a->t[i].v1, inside = 0;

			if (v < 0)
				continue;
			if (v >= n->nvars) {
				*bad = v;
				return 0;
			}
			if (n->var[v].kind == MP_VAR_PARAM)
				continue;
			for (j = 0; j < d; j++)
				inside |= n->loop[chain[j]].iter == v;
			if (!inside) {
				*bad = v;
				return 0;
			}
		}
	return 1;
}

static int check_operand_subscripts(az *z, const int *chain, int d)
{
	const mp_nest *n = z->n;
	int i, bad;

	for (i = 0; i < 2; i++) {
		const mp_access *a = &n->access[z->c.f[i].access];
		int bv = n->array[a->array].base_var;

		if (!a->affine && bv >= 0 && n->var[bv].kind == MP_VAR_LOCAL)
			return refuse(z, a->loc,
				      "operand '%s' is read through pointer '%s', which the "
				      "nest changes in a way mixprec cannot follow (one reset "
				      "before the reads and unconditional steps by a fixed "
				      "amount are followed)", an(n, z->c.f[i].access), vn(n, bv));
		if (!a->affine)
			return refuse(z, a->loc,
				      "subscript of '%s' is not affine in the loop iterators",
				      an(n, z->c.f[i].access));
		if (!aff_in_scope(n, &a->off, chain, d, &bad)) {
			if (bad < n->nvars && n->var[bad].kind == MP_VAR_ITER)
				return refuse(z, a->loc,
					      "subscript of '%s' uses '%s', which is not a "
					      "loop enclosing the contraction",
					      an(n, z->c.f[i].access), vn(n, bad));
			return refuse(z, a->loc,
				      "subscript of '%s' is not affine in the loop iterators "
				      "(it depends on '%s', which the nest writes)",
				      an(n, z->c.f[i].access), vn(n, bad));
		}
	}
	return 0;
}

/* The pragma stands on an inner loop of a larger contraction: an iterator
 * of a loop around the nest (mp_var.outer_iter) indexes one operand and an
 * access the nest writes, as the rows of a matrix product do (a
 * matrix-vector product per row of a GEMM, a dot product per element).
 * Fills plan->hint. */
static void outer_hint(az *z)
{
	const mp_nest *n = z->n;
	const mp_aff *fa = &n->access[z->c.f[0].access].off, *fb = &n->access[z->c.f[1].access].off;
	int v, a;

	z->plan->hint[0] = 0;
	for (v = 0; v < n->nvars; v++) {
		int written = 0, writes = 0;

		if (n->var[v].kind != MP_VAR_PARAM || !n->var[v].outer_iter ||
		    mp_aff_uses_var(fa, v) == mp_aff_uses_var(fb, v))
			continue;
		/* the output, when the nest stores it, depends on it too */
		for (a = 0; a < n->naccesses; a++) {
			writes |= n->access[a].is_write;
			written |= n->access[a].is_write && n->access[a].affine &&
				   mp_aff_uses_var(&n->access[a].off, v);
		}
		if (writes && !written)
			continue;
		snprintf(z->plan->hint, sizeof(z->plan->hint),
			 "the pragma stands on an inner loop: the enclosing loop '%s' "
			 "indexes '%s' like the rows of a matrix product; with '#pragma "
			 "mixprec' on that loop the whole product runs at once",
			 vn(n, v), an(n, z->c.f[mp_aff_uses_var(fa, v) ? 0 : 1].access));
		return;
	}
}

static void swap_operands(cand *c)
{
	operand t = c->f[0];

	c->f[0] = c->f[1];
	c->f[1] = t;
}

/* Find loops k, i, j among the loops enclosing the reduction. */
/* Loop L directly holds loop CHILD and nothing else (no statement but the
 * steps of walking pointers and dead definitions, no other loop): a reduction loop whose
 * iterations only add more terms to the same sum (nsum). */
static int dead_def(const mp_nest *n, int s);

static int holds_only(const mp_nest *n, int l, int child)
{
	int s, x;

	if (n->loop[child].parent != l)
		return 0;
	for (s = 0; s < n->nstmts; s++)
		if (n->stmt[s].loop == l && !n->stmt[s].ivstep && !dead_def(n, s))
			return 0;
	for (x = 0; x < n->nloops; x++)
		if (x != child && n->loop[x].parent == l)
			return 0;
	return 1;
}

/* The loops an output element is indexed by: i (and i2 when WITH_I2), j;
 * returns how many.  The injectivity ISL proves is over i and j: with a
 * second row loop the output's subscript usually multiplies two sizes
 * (`(oh*OW + ow)*OC + oc`: a product parameter ISL knows nothing about),
 * and the runtime checks that the M2 blocks of rows do not overlap from
 * the strides (runtime/nest.c, disjoint_rows). */
static int out_loops(const mp_plan *p, int *ij, int with_i2)
{
	int m = 0;

	ij[m++] = p->loop_i;
	if (p->loop_j >= 0)
		ij[m++] = p->loop_j;
	if (p->loop_i2 >= 0 && with_i2)
		ij[m++] = p->loop_i2;
	return m;
}

/* L is one of the plan's summed reduction loops (loop_sum). */
static int is_sum_loop(const mp_plan *p, int l)
{
	int x;

	for (x = 0; x < p->nsum; x++)
		if (p->loop_sum[x] == l)
			return 1;
	return 0;
}

/* The outermost reduction loop: the one the tile read replaces. */
static int red_top(const mp_plan *p)
{
	return p->nsum ? p->loop_sum[0] : p->loop_k;
}

/* Loop L is loop K or lies inside it. */
static int within(const mp_nest *n, int l, int k)
{
	for (; l >= 0; l = n->loop[l].parent)
		if (l == k)
			return 1;
	return 0;
}

/* The two operands read the same element (`a * a`): no batch loop. */
static int same_operand(const az *z)
{
	const mp_access *a = &z->n->access[z->c.f[0].access];
	const mp_access *b = &z->n->access[z->c.f[1].access];

	return a->array == b->array && mp_aff_equal(&a->off, &b->off);
}

static int assign_roles(az *z, const int *chain, int d)
{
	const mp_nest *n = z->n;
	mp_plan *plan = z->plan;
	const mp_aff *fa = &n->access[z->c.f[0].access].off;
	const mp_aff *fb = &n->access[z->c.f[1].access].off;
	const mp_aff *fc = z->c.acc_write >= 0 ? &n->access[z->c.acc_write].off : NULL;
	int loc = n->stmt[z->c.stmt].loc;
	int i, k = -1, li = -1, lj = -1, li2 = -1, lj2 = -1, nk = 0, nb = 0;

	char idx_out[MP_MAX_LOOPS];

	if (d > 3) {
		/* The contraction is the innermost two or three loops: its i and j
		   loops index the output (the accumulator's array, or for a
		   scalar accumulator any array the nest stores), k is innermost.
		   The glue plans again from the outermost of them as if the
		   pragma stood there: the loops around run as written, one call
		   per iteration (batch loops, a loop reducing into the output
		   call after call, a loop around a temporary such as doitgen's
		   sum[p]): transforming an inner nest on each iteration is what
		   the pragma on that nest would do. */
		char names[MP_REASON_LEN] = "";
		int from = d, x, red = 0, nout = 0, outer_ok = 1, grp = 0;
		int batch = 0, a_out = 0, b_out = 0;

		for (x = 0; x < d; x++) {
			int it = n->loop[chain[x]].iter, a, ok = 0;

			if (fc)
				ok = mp_aff_uses_var(fc, it);
			else
				for (a = 0; a < n->naccesses && !ok; a++)
					ok = n->access[a].is_write && n->access[a].affine &&
					     mp_aff_uses_var(&n->access[a].off, it);
			idx_out[x] = (char)ok;
			if (x < d - 3)
				outer_ok &= ok;
		}
		for (x = d - 1; x >= 0; x--) {
			/* innermost, the reduction: one loop (k), or for integer
			   sources a loop directly around k holding the group sums
			   (groups), or up to MP_MAX_SUM loops around k holding
			   nothing but the next one (summed: a convolution's kh,
			   kw); then at most two loops indexing the output (one
			   with groups: matrix-vector products per group) */
			if (!idx_out[x]) {
				if (red) {
					if (nout || grp)
						break;
					if (!holds_only(n, chain[x], chain[x + 1])) {
						if (z->fsrc || red > 1 || x != d - 2)
							break;
						grp = 1;
					} else if (red > MP_MAX_SUM)
						break;
				}
				red++;
			} else {
				/* a third: a second row loop (loop_i2), indexing
				   one operand (a convolution's image rows, a
				   batch of rows `b*T + t`) */
				int it = n->loop[chain[x]].iter;
				int ua = mp_aff_uses_var(fa, it), ub = mp_aff_uses_var(fb, it);

				/* a batch loop (both operands and the output: a
				   depthwise convolution's channels), integer
				   sources, around the reduction and inside an output
				   loop: it joins the call (plan.loop_g); then one
				   output loop per operand.  Around both output loops
				   (a batch of GEMMs) it runs as written, one call
				   per iteration, as before */
				if (ua && ub && !z->fsrc && red && !grp && !batch && nout < 2 &&
				    !same_operand(z)) {
					batch = 1;
					from = x;
					continue;
				}
				if (batch && ((ua && a_out) || (ub && b_out) || nout == 2))
					break;
				/* a third output loop taken (loop_i2): a fourth runs
				   as written around the call (onnx2c's `for (b = 0; b
				   < 1; b++)` around an NCHW convolution: the plan with
				   the fourth failed and the one without the second
				   row loop made one call per output channel) */
				if (nout >= 3)
					break;
				if (nout == (grp ? 1 : 2) &&
				    !(z->allow_m2 && !grp && !batch && red && nout == 2 &&
				      ua != ub))
					break;
				if (nout == 2)
					z->m2_used = 1;
				nout++;
				a_out |= ua;
				b_out |= ub;
			}
			from = x;
		}
		/* at least one loop of the contraction indexes its output; else
		   the innermost three, when the loops around all index it (a
		   batch: the plan from there says what is wrong inside) */
		if (!(red && nout && from < d - 1))
			from = outer_ok ? d - 3 : d;
		if (from > 0 && from < d) {
			for (i = 0; i < from; i++) {
				size_t len = strlen(names);

				snprintf(names + len, sizeof(names) - len, "%s'%s'", i ? ", " : "",
					 ln(n, chain[i]));
			}
			plan->descend = chain[from];
			snprintf(plan->descend_note, sizeof(plan->descend_note),
				 "the loop%s %s around the contraction run%s as written, one "
				 "call per iteration", from > 1 ? "s" : "", names,
				 from > 1 ? "" : "s");
		}
	}
	int rl[MP_MAX_LOOPS], x;

	for (i = 0; i < d; i++) {
		int it = n->loop[chain[i]].iter;

		int out = 0, s;

		/* indexes the output: the accumulator's array, or for a scalar
		   accumulator an array the nest stores inside this loop (a
		   depthwise convolution's channel: a batch loop, refused
		   below; not a store after loop k naming k's final value) */
		if (fc)
			out = mp_aff_uses_var(fc, it);
		else
			for (s = 0; s < n->nstmts && !out; s++) {
				int a = n->stmt[s].lhs_access;

				out = n->stmt[s].kind == MP_S_STORE && a >= 0 &&
				      a < n->naccesses && n->access[a].affine &&
				      within(n, n->stmt[s].loop, chain[i]) &&
				      mp_aff_uses_var(&n->access[a].off, it);
			}
		if (mp_aff_uses_var(fa, it) && mp_aff_uses_var(fb, it) && !out)
			rl[nk++] = chain[i];
		else if (mp_aff_uses_var(fa, it) && mp_aff_uses_var(fb, it) && !z->fsrc &&
			 !same_operand(z))
			nb++;   /* a batch loop (below) */
	}
	if (plan->descend >= 0 ||
	    d > 2 + (z->allow_m2 != 0) + (nk > 1 ? nk : 1) + (nb == 1 && nk >= 1))
		return refuse(z, loop_loc(n, chain[0]),
			      "the contraction into '%s' is nested in %d loops; at most 3 "
			      "(i, j, k) are supported, or more reduction loops around k",
			      acc_name(z), d);
	if (nk == 1)
		k = rl[0];
	else if (nk > 1) {
		/* the innermost loops, each directly inside the previous, the
		   last holding the contraction */
		int innermost = 1, perfect = 1;

		for (x = 0; x < nk; x++)
			innermost &= chain[d - nk + x] == rl[x];
		innermost &= n->stmt[z->c.stmt].loop == rl[nk - 1];
		for (x = 0; innermost && x + 1 < nk; x++)
			perfect &= holds_only(n, rl[x], rl[x + 1]);
		if (innermost && perfect && nk - 1 <= MP_MAX_SUM) {
			/* summed: every iteration of the outer loops only adds
			   terms to the same sum (a convolution's kh, kw) */
			plan->nsum = nk - 1;
			for (x = 0; x + 1 < nk; x++)
				plan->loop_sum[x] = rl[x];
			k = rl[nk - 1];
		} else if (innermost && !z->fsrc && nk == 2) {
			/* the outer one directly around the innermost, holding
			   more than it: groups (an int32 sum per group, as
			   block-quantized code writes it); tile mode, one sum
			   per group */
			plan->loop_g = rl[0];
			k = rl[1];
		} else {
			return refuse(z, loc,
				      "operands '%s' and '%s' share the iterators '%s' "
				      "and '%s'; only one reduction loop is supported%s",
				      an(n, z->c.f[0].access), an(n, z->c.f[1].access),
				      ln(n, rl[0]), ln(n, rl[1]),
				      z->fsrc ? " (or the innermost loops, each directly inside "
				      "the other, up to three holding nothing but the next one, "
				      "as a convolution's)" : " (or the innermost loops, each "
				      "directly inside the other: up to three holding nothing "
				      "but the next one, as a convolution's, or, for integer "
				      "sources, two with code around the inner one's sum, as "
				      "quantization groups)");
		}
	}
	if (k < 0)
		return refuse(z, loc,
			      "no reduction loop: no loop iterator indexes both '%s' and "
			      "'%s' without indexing '%s'", an(n, z->c.f[0].access),
			      an(n, z->c.f[1].access), acc_name(z));
	for (i = 0; i < d; i++) {
		int l = chain[i], it = n->loop[l].iter;
		int ua = mp_aff_uses_var(fa, it), ub = mp_aff_uses_var(fb, it);

		if (l == k || l == plan->loop_g || is_sum_loop(plan, l))
			continue;
		if (ua && ub && !z->fsrc && plan->loop_g < 0 && nb == 1 && !same_operand(z) &&
		    (li >= 0 || lj >= 0)) {
			/* a batch loop inside an output loop: one sum per (i,
			   g, j) in the tile (a depthwise convolution's channel
			   loop; batched.c).  Around both, it stays refused
			   here (with more loops the glue runs it as written) */
			plan->loop_g = l;
			plan->g_batch = 1;
			continue;
		}
		if (ua && ub)
			return refuse(z, loop_loc(n, l),
				      "loop '%s' indexes both operands '%s' and '%s' and the "
				      "output '%s' (a batch loop inside the contraction, as a "
				      "depthwise convolution's channel loop), which is not "
				      "supported", ln(n, l), an(n, z->c.f[0].access),
				      an(n, z->c.f[1].access), acc_name(z));
		if (!ua && !ub)
			return refuse(z, loop_loc(n, l),
				      "loop '%s' encloses the contraction but indexes neither "
				      "'%s' nor '%s'", ln(n, l), an(n, z->c.f[0].access),
				      an(n, z->c.f[1].access));
		if (ua) {
			if (li >= 0) {
				if (!z->allow_m2 || li2 >= 0 || lj2 >= 0) {
					z->two_rows = 1;
					return refuse(z, loc,
						      "operand '%s' depends on both '%s' and '%s'",
						      an(n, z->c.f[0].access), ln(n, li), ln(n, l));
				}
				li2 = li;   /* a second row loop, outside */
				z->m2_used = 1;
			}
			li = l;
		} else {
			if (lj >= 0) {
				if (!z->allow_m2 || li2 >= 0 || lj2 >= 0) {
					z->two_rows = 1;
					return refuse(z, loc,
						      "operand '%s' depends on both '%s' and '%s'",
						      an(n, z->c.f[1].access), ln(n, lj), ln(n, l));
				}
				lj2 = lj;
				z->m2_used = 1;
			}
			lj = l;
		}
	}
	if (li < 0 && lj < 0) {
		outer_hint(z);
		return refuse(z, loop_loc(n, k),
			      "'%s' is a dot product over '%s' (no loop of the nest indexes its output); only "
			      "matrix products and matrix-vector products are supported%s%s",
			      acc_name(z), ln(n, k), z->plan->hint[0] ? "; " : "",
			      z->plan->hint);
	}
	if (li < 0 || lj2 >= 0) {
		/* the operand with the row loops is A */
		int t = li;

		swap_operands(&z->c);
		z->swapped = 1;
		li = lj;
		lj = t;
		li2 = lj2;
	}
	plan->loop_i = li;
	plan->loop_j = lj;
	plan->loop_i2 = li2;
	plan->loop_k = k;
	return 0;
}

/* "a store to 'y'" / "an assignment to 't'" / "loop 'l'" */
static void describe_stmt(const mp_nest *n, int s, char *buf, size_t len)
{
	const mp_stmt *st = &n->stmt[s];

	if (st->kind == MP_S_STORE)
		snprintf(buf, len, "a store to '%s'", an(n, st->lhs_access));
	else if (st->kind == MP_S_ASSIGN)
		snprintf(buf, len, "an assignment to '%s'", vn(n, st->lhs_var));
	else
		snprintf(buf, len, "an opaque statement");
}

/* A walking pointer that is stepped in the nest and used after it. */
static int walked_after(const mp_nest *n)
{
	int s;

	for (s = 0; s < n->nstmts; s++)
		if (n->stmt[s].ivstep && n->var[n->stmt[s].lhs_var].used_after)
			return 1;
	return 0;
}

/* Is statement S a local's definition that nothing reads: `const int8_t
 * *arow = A + i*K;` once the glue described the accesses through it as
 * accesses of A, or `int ih = oh + kh - 1;` once the glue folded it into
 * the subscripts and conditions that use it, and the local is dead after
 * the nest?  Bookkeeping like a walking pointer's step: a whole-nest
 * rewrite drops it. */
static int dead_var(const mp_nest *n, int v, int depth);

/* Statement S assigns a local that nothing reads but such statements. */
static int dead_assign(const mp_nest *n, int s, int depth)
{
	const mp_stmt *st = &n->stmt[s];

	return st->kind == MP_S_ASSIGN && !st->ivstep && dead_var(n, st->lhs_var, depth);
}

/* Local V is read by nothing but dead assignments (`in_x` read only by
 * `inside = in_x >= 0 && ...`, itself dead once the glue read the
 * condition), not after the nest, and no access goes through it. */
static int dead_var(const mp_nest *n, int v, int depth)
{
	int x, a;

	if (v < 0 || v >= n->nvars || n->var[v].kind != MP_VAR_LOCAL || n->var[v].used_after ||
	    depth > 4)
		return 0;
	for (x = 0; x < n->nstmts; x++) {
		const mp_stmt *st = &n->stmt[x];

		if (st->kind == MP_S_OPAQUE)
			return 0;
		if (st->rhs >= 0 && expr_reads_var(n, st->rhs, v, 0) &&
		    (st->kind != MP_S_ASSIGN || st->lhs_var == v ||
		     !dead_assign(n, x, depth + 1)))
			return 0;
	}
	for (a = 0; a < n->naccesses; a++)
		if (n->access[a].affine && mp_aff_uses_var(&n->access[a].off, v))
			return 0;
	for (a = 0; a < n->nloops; a++)
		if (mp_aff_uses_var(&n->loop[a].lo, v) || mp_aff_uses_var(&n->loop[a].hi, v))
			return 0;
	for (a = 0; a < n->nconds; a++)
		if (mp_aff_uses_var(&n->cond[a].e, v))
			return 0;
	for (a = 0; a < n->naccesses; a++)
		if (n->access[a].via == v || (n->access[a].array >= 0 &&
					      n->array[n->access[a].array].base_var == v))
			return 0;
	for (x = 0; x < n->nstmts; x++)
		if (n->stmt[x].ptr_assign && n->stmt[x].ptr_array >= 0 &&
		    n->array[n->stmt[x].ptr_array].base_var == v)
			return 0;
	return 1;
}

static int dead_def(const mp_nest *n, int s)
{
	return dead_assign(n, s, 0);
}

/* How many statements are steps or resets of walking pointers
 * (mp_walk_resolve) or dead pointer definitions (dead_def):
 * bookkeeping, not part of the computation. */
static int n_ivsteps(const mp_nest *n)
{
	int s, k = 0;

	for (s = 0; s < n->nstmts; s++)
		k += n->stmt[s].ivstep != 0 || dead_def(n, s);
	return k;
}

/* How many forwarded statements sit directly in loop L (dead on the fast
 * path: they go with the loop). */
static int fwd_in(az *z, int l)
{
	int s, k = 0;

	for (s = 0; s < z->n->nstmts; s++)
		k += z->c.fwd[s] && z->n->stmt[s].loop == l;
	return k;
}

static int reduction_like(const mp_nest *n, int s);

static int choose_mode(az *z, const int *chain, int d)
{
	const mp_nest *n = z->n;
	mp_plan *plan = z->plan;
	int k = plan->loop_k, s, l;
	char what[MP_NAME_LEN * 2];

	if (z->c.neg && plan->loop_g >= 0)
		return refuse(z, n->stmt[z->c.stmt].loc, "the group sums are subtracted "
			      "(-=); with quantization groups the sum must be added");
	if (z->acc64 && plan->loop_g >= 0)
		return refuse(z, n->stmt[z->c.stmt].loc, "accumulator '%s' is 64-bit; with "
			      "quantization groups it must be int32", acc_name(z));
	if (plan->loop_g < 0 &&   /* groups: a sum per group, in a tile */
	    !z->tri &&            /* triangular: the kernels would write the box */
	    !z->c.neg &&          /* `-=`: the glue subtracts the tile */
	    !z->acc64 &&          /* int64: the glue widens the tile */
	    !z->nothers && z->c.acc_write >= 0 && n->nstmts - z->c.nfwd - n_ivsteps(n) == 1 &&
	    (z->fsrc || z->c.alpha < 0) &&   /* int alpha: the tile is scaled */
	    n->nloops == d &&
	    n->access[z->c.acc_write].affine &&
	    /* an operand the nest writes: tile mode reads it first */
	    mp_model_first_writer(z->m, z->c.f[0].access, -1) == -1 &&
	    mp_model_first_writer(z->m, z->c.f[1].access, -1) == -1 &&
	    (!z->fsrc || (n->access[z->c.acc_write].elem == z->ftype &&
			  n->access[z->c.acc_write].elem_size ==
			  (z->ftype == MP_TY_F64 ? 8 : 4)))) {
		int ij[3], nij = out_loops(plan, ij, 0);
		isl_bool inj = plan->loop_i2 >= 0 ? isl_bool_true   /* the runtime checks */
			       : mp_model_access_injective(z->m, z->c.acc_write, ij, nij);

		if (inj < 0)
			return refuse(z, loop_loc(n, 0), "internal error: ISL failed "
				      "on the output access '%s'", acc_name(z));
		if (inj) {
			plan->mode = MP_OUT_DIRECT;
			plan->acc_c = z->c.acc_write;
			plan->red_loop = chain[0];
			return 0;
		}
	}
	plan->mode = MP_OUT_TILE;
	for (s = 0; s < n->nstmts; s++)
		if (s != z->c.stmt && !z->c.fwd[s] && !n->stmt[s].ivstep && !z->others[s] &&
		    !z->others_fwd[s] && n->stmt[s].loop == k && !dead_def(n, s)) {
			int s2;

			/* atax, bicg: the sum of another contraction, over another
			   loop, inside this reduction loop */
			for (s2 = 0; s2 < n->nstmts; s2++)
				if (s2 != z->c.stmt && n->stmt[s2].loop != k &&
				    n->stmt[s2].loop >= 0 && within(n, n->stmt[s2].loop, k) &&
				    reduction_like(n, s2))
					break;
			if (s2 < n->nstmts) {
				describe_stmt(n, s2, what, sizeof(what));
				return refuse(z, n->stmt[s2].loc,
					      "reduction loop '%s' also holds the sum of "
					      "another contraction over another loop (%s); "
					      "mixprec does not split loops: where the two "
					      "sums may be computed one after the other, "
					      "write each in a loop nest of its own, under "
					      "one pragma on the block holding them",
					      ln(n, k), what);
			}
			describe_stmt(n, s, what, sizeof(what));
			return refuse(z, n->stmt[s].loc,
				      "reduction loop '%s' also contains %s; the reduction "
				      "loop must hold the contraction alone", ln(n, k), what);
		}
	/* Loops inside k: allowed when they are exactly the rest of the
	 * reduction's chain (a perfect sub-nest holding the reduction alone,
	 * as in ikj order) and the accumulator is an injective memory access:
	 * the glue then adds the tile's slice into the output in place of the
	 * whole sub-nest. */
	for (l = 0; l < n->nloops; l++) {
		int p = l, in_chain = 0, c2;

		while (p >= 0 && p != k)
			p = n->loop[p].parent;
		if (p != k || l == k)
			continue;
		for (c2 = 0; c2 < d; c2++)
			in_chain |= chain[c2] == l;
		if (in_chain && z->fsrc && z->c.acc_write >= 0 &&
		    n->access[z->c.acc_write].elem != z->ftype)
			return refuse(z, loop_loc(n, k),
				      "reduction loop '%s' encloses loop '%s' and the output "
				      "'%s' is %s while the operands are %s; in this order the "
				      "output must have the operands' type", ln(n, k), ln(n, l),
				      acc_name(z), mp_scalar_name(n->access[z->c.acc_write].elem),
				      mp_scalar_name(z->ftype));
		if (!in_chain || z->c.acc_write < 0)
			return refuse(z, loop_loc(n, l),
				      "reduction loop '%s' also contains loop '%s'; the "
				      "reduction loop must hold the contraction alone",
				      ln(n, k), ln(n, l));
		for (s = 0; s < n->nstmts; s++)
			if (s != z->c.stmt && !z->c.fwd[s] && !n->stmt[s].ivstep &&
			    !z->others[s] && !z->others_fwd[s] && n->stmt[s].loop == l &&
			    !dead_def(n, s)) {
				describe_stmt(n, s, what, sizeof(what));
				return refuse(z, n->stmt[s].loc,
					      "reduction loop '%s' also contains %s; the "
					      "reduction loop must hold the contraction alone",
					      ln(n, k), what);
			}
	}
	if (n->stmt[z->c.stmt].loop != k && z->acc64)
		return refuse(z, n->stmt[z->c.stmt].loc, "accumulator '%s' is 64-bit inside "
			      "loops nested in reduction loop '%s'; mixprec widens the sum "
			      "only where the reduction loop holds the contraction alone (an "
			      "i, j, k order, or the sum in a local)", acc_name(z), ln(n, k));
	if (n->stmt[z->c.stmt].loop != k) {
		int ij[2] = { plan->loop_i, plan->loop_j };
		isl_bool inj = mp_model_access_injective(z->m, z->c.acc_write, ij,
							 plan->loop_j >= 0 ? 2 : 1);

		if (inj != isl_bool_true)
			return refuse(z, n->stmt[z->c.stmt].loc,
				      "the output '%s' of the contraction is not one element "
				      "per (i, j) point", acc_name(z));
	}
	plan->red_loop = red_top(plan);
	if (plan->nsum) {
		/* the tile read replaces the summed loops with loop k: their
		   iterators' values are not recomputed */
		for (l = 0; l <= plan->nsum; l++) {
			int r = l < plan->nsum ? plan->loop_sum[l] : k;

			if (iter_observed(n, n->loop[r].iter))
				return refuse(z, n->loop[r].loc, "the iterator '%s' of a "
					      "reduction loop is %s; with several reduction "
					      "loops their iterators must not be read outside "
					      "them", ln(n, r), n->var[n->loop[r].iter].used_after
					      ? "used after the nest" : "read after its loop");
		}
	} else
		plan->red_iter_final = iter_observed(n, n->loop[k].iter);
	if (z->c.acc_var >= 0)
		plan->acc_var = z->c.acc_var;
	else
		plan->acc_mem = z->c.acc_write;
	plan->neg = z->c.neg;
	return 0;
}

/* The root of V's group of variables (ITERs of sibling loops sharing one
 * source variable, mp_var.same_as). */
static int var_root(const mp_nest *n, int v)
{
	int w = n->var[v].same_as;

	return w >= 0 && w < n->nvars ? w : v;
}

/* Statement S reads variable W (in its value or in a subscript) from a
 * point W's own loop does not enclose. */
static int stmt_reads_outside(const mp_nest *n, int s, int w)
{
	const mp_stmt *st = &n->stmt[s];
	int l = n->var[w].loop, a;

	if (l >= 0 && l < n->nloops && within(n, st->loop, l))
		return 0;
	if (st->kind == MP_S_OPAQUE || (st->rhs >= 0 && expr_reads_var(n, st->rhs, w, 0)))
		return 1;
	for (a = 0; a < n->naccesses; a++)
		if (n->access[a].stmt == s &&
		    (!n->access[a].affine || mp_aff_uses_var(&n->access[a].off, w)))
			return 1;
	return 0;
}

/* The value of iterator V is observed outside its own loop: after the nest
 * (the glue's used_after), or inside the nest by a statement, a subscript
 * or a loop bound that its loop does not enclose (`acc = k;` before the k
 * loop, `C[..] = s + k` after it).  A rewrite that removes V's loop must
 * then give V the value the loop would have left.  When sibling loops share
 * V's source variable, a read outside all of them may see any one's value:
 * it counts for each. */
static int iter_observed(const mp_nest *n, int v)
{
	int root = var_root(n, v), s, m, w;

	for (w = 0; w < n->nvars; w++) {
		if (var_root(n, w) != root)
			continue;
		if (n->var[w].used_after || n->var[w].loop < 0 || n->var[w].loop >= n->nloops)
			return 1;
		for (s = 0; s < n->nstmts; s++)
			if (stmt_reads_outside(n, s, w) &&
			    (w == v || !within(n, n->stmt[s].loop, n->var[v].loop)))
				return 1;
		for (m = 0; m < n->nloops; m++)
			if (!within(n, m, n->var[w].loop) &&
			    (mp_aff_uses_var(&n->loop[m].lo, w) || mp_aff_uses_var(&n->loop[m].hi, w)))
				return 1;
	}
	return 0;
}

/* A `v != n` loop counting by one (described as `v < n`, or `v > n` down)
 * is that loop when v cannot start on the wrong side of n: for a signed
 * iterator of int width or wider it would overflow, which C leaves
 * undefined (compilers turn `<` into `!=` on the same ground); an unsigned
 * iterator counting up from 0 or down to 0 is never on the wrong side.
 * Other iterators (unsigned from another start, narrow types that wrap)
 * would run past the bound: not known. */
static int ne_exit_exact(const mp_nest *n, int l)
{
	mp_scalar t = n->var[n->loop[l].iter].type;
	int64_t lo;

	if (n->loop[l].step != 1 && n->loop[l].step != -1)
		return 0;   /* a larger step may jump over the bound */
	if (t == MP_TY_S32 || t == MP_TY_S64)
		return 1;
	/* unsigned: counting up from 0, or down to 0 (`for (i = n; i != 0;
	   i--)`: described lo = 1) or to its wrap-around (`while (n--)`:
	   lo = 0), is never on the wrong side */
	return (t == MP_TY_U32 || t == MP_TY_U64) && mp_aff_is_const(&n->loop[l].lo, &lo) &&
	       (n->loop[l].step == 1 ? lo == 0 : lo == 0 || lo == 1);
}

/* Loop L lies strictly inside loop K.  The glue restores the final values
 * of the iterators of K and of the loops around it, not of those below. */
static int below_k(const mp_nest *n, int l, int k)
{
	for (l = n->loop[l].parent; l >= 0; l = n->loop[l].parent)
		if (l == k)
			return 1;
	return 0;
}

/* Rectangular, affine, step-1 bounds over PARAMs for the loops i, j, k. */
/* Step 5b: the operands the pragma's constant= names (any source), then,
 * for floating-point sources with scale=(SA, SB), map the scales to A and
 * B (SA belongs to the left factor as written) and check them: a
 * name the glue resolved to a float/double, a per-channel scale indexed
 * by the operand's own iterator (i for A, j for B). */
static int check_scales(az *z)
{
	const mp_nest *n = z->n;
	const mp_pragma *p = z->p;
	mp_plan *plan = z->plan;
	int side;

	for (side = 0; side < p->nconstant; side++) {
		const char *nm = p->constant[side];
		int loc = p->constant_tok[side] ? p->constant_tok[side] : p->loc;

		/* the description keeps MP_NAME_LEN - 1 characters of a name:
		   a longer one cannot be told from another that shares them
		   (it was refused as naming no operand, the operand's name
		   shown cut) */
		if (strlen(nm) >= MP_NAME_LEN - 1)
			return refuse(z, loc, "constant=%.*s...: names of %d characters or "
				      "more are not supported in constant=", MP_NAME_LEN - 1, nm,
				      MP_NAME_LEN - 1);
		if (!strcmp(nm, an(n, z->c.f[0].access)))
			plan->const_a = 1;
		else if (!strcmp(nm, an(n, z->c.f[1].access)))
			plan->const_b = 1;
		else
			return refuse(z, loc, "constant=%s names no operand of the product "
				      "(its operands are '%s' and '%s')", nm,
				      an(n, z->c.f[0].access), an(n, z->c.f[1].access));
	}
	if (!z->fsrc || p->scale != MP_SCALE_EXPR || p->nsspec != 2)
		return 0;
	for (side = 0; side < 2; side++) {
		/* operand f[o] is the factor written on side `side` */
		int o = side ^ z->swapped;
		const mp_scale_spec *sp = &p->sspec[side];
		const char *opn = an(n, z->c.f[o].access);
		int loc = sp->loc ? sp->loc : p->scale_loc ? p->scale_loc : p->loc;
		int l = o == 0 ? plan->loop_i : plan->loop_j;

		if ((sp->kind == MP_SS_NAME || sp->kind == MP_SS_INDEXED) &&
		    sp->elem != MP_TY_F32 && sp->elem != MP_TY_F64)
			return refuse(z, loc, "scale '%s' of operand '%s' is not a float or "
				      "double %s", sp->name, opn,
				      sp->kind == MP_SS_NAME ? "variable" : "array");
		if (sp->kind == MP_SS_INDEXED) {
			if (o == 0 && plan->loop_i2 >= 0) {
				/* (planned again without: a batch of rows `b`
				   then runs as written around the calls) */
				return refuse(z, loc,
					      "scale '%s[%s]' of operand '%s': its rows run over "
					      "two loops ('%s' and '%s'), so a scale per row of "
					      "'%s' is not supported: use a scalar or 'dynamic'",
					      sp->name, sp->index, opn, ln(n, plan->loop_i2),
					      ln(n, plan->loop_i), ln(n, l));
			}
			if (l < 0)
				return refuse(z, loc,
					      "scale '%s[%s]' of operand '%s': '%s' is a vector "
					      "(no loop of its own indexes it), so its scale is "
					      "one value: use a scalar or 'dynamic'", sp->name,
					      sp->index, opn, opn);
			if (strcmp(ln(n, l), sp->index) != 0)
				return refuse(z, loc,
					      "scale '%s[%s]' of operand '%s' must be indexed by "
					      "'%s' (the loop that indexes '%s' and not the other "
					      "operand), or be a scalar; the first scale belongs to "
					      "the left factor of the product, the second to the "
					      "right one", sp->name, sp->index, opn, ln(n, l), opn);
		}
		if (o == 0) {
			plan->scale_a = *sp;
			plan->sspec_a = side;
		} else {
			plan->scale_b = *sp;
			plan->sspec_b = side;
		}
	}
	return 0;
}

/* Step 5c: bounds that name an iterator (issue 9).  Only the output's
 * loops i and j may bound each other (triangular nests: SYRK's `for (j =
 * 0; j <= i; j++)`, `j < i`, `j >= i`, i's bounds naming j when j is
 * outside): the plan is then tile mode over the bounding box (tri_box).
 * A reduction range that depends on the output point (TRMM's `k < i`,
 * TRSV's `k <= i`, a j loop bounded by k inside it) is refused.  No ISL. */
/* Why reduction loop L, whose bound names iterator V2/LV's loop, cannot be
 * planned over the hull of its ranges with its bounds as a padding
 * condition (tri_red_convert); NULL when it may be tried: only the
 * reduction loop k alone (no groups, no summed loops), bounds affine in
 * an output loop's iterator, counting by one with a '<'/'<=' test (the
 * conversion itself and the plan on the converted nest decide the rest). */
static const char *tri_red_why(const az *z, int l, int v2, int lv)
{
	const mp_plan *plan = z->plan;
	const mp_loop *lp = &z->n->loop[l];

	if (l != plan->loop_k || plan->loop_g >= 0 || plan->nsum)
		return "the sum runs over several loops";
	if (v2 >= 0)
		return "a bound is not affine";
	if (lv != plan->loop_i && lv != plan->loop_j)
		return "a bound names a loop that is neither";
	if (plan->loop_i2 >= 0)
		return "the rows run over two loops";
	if (lp->step != 1 && lp->step != -1)
		return "the loop steps by more than 1";
	if (lp->ne_exit)
		return "the loop is tested with '!='";
	if (lp->step_var >= 0 || lp->after >= 0)
		return "the loop's step or start is not its own";
	if (!z->tri_red_try)
		return "the nest holds several contractions";
	return NULL;
}

static int check_tri(az *z, const int *chain, int d)
{
	const mp_nest *n = z->n;
	mp_plan *plan = z->plan;
	int c, b, t, u;

	for (c = 0; c < d; c++) {
		int l = chain[c];
		const mp_loop *lp = &n->loop[l];
		int red_l = l == plan->loop_k || (l == plan->loop_g && !plan->g_batch) ||
			    is_sum_loop(plan, l);

		for (b = 0; b < 2; b++) {
			const mp_aff *a = b ? &lp->hi : &lp->lo;

			for (t = 0; t < a->n; t++) {
				for (u = 0; u < 2; u++) {
					int v = u ? a->t[t].v2 : a->t[t].v1, lv, other;
					const char *why;

					if (v < 0 || v >= n->nvars || n->var[v].kind != MP_VAR_ITER)
						continue;
					lv = n->var[v].loop;
					if (plan->g_batch && (l == plan->loop_g || lv == plan->loop_g))
						return refuse(z, lp->loc,
							      "the bounds of loop '%s' depend on '%s' "
							      "and '%s' is a batch loop (it indexes both "
							      "operands and the output); a batch loop's "
							      "range must not depend on the other loops, "
							      "nor theirs on it", ln(n, l), vn(n, v),
							      ln(n, plan->loop_g));
					why = red_l ? tri_red_why(z, l, a->t[t].v2, lv) : NULL;
					if (red_l && !why) {
						z->tri_red = l + 1;
						continue;
					}
					if (red_l)
						return refuse(z, lp->loc,
							      "the bounds of loop '%s' depend on '%s' "
							      "(a triangular reduction, as TRMM writes "
							      "it), supported for one reduction loop "
							      "counting by 1 with a '<' or '<=' test, "
							      "bounded by the loop of the output's rows "
							      "or columns; here %s", ln(n, l), vn(n, v),
							      why);
					if (lv == plan->loop_k || lv == plan->loop_g ||
					    is_sum_loop(plan, lv))
						return refuse(z, lp->loc,
							      "the bounds of loop '%s' depend on '%s', "
							      "the iterator of a reduction loop: the "
							      "range of the sum is not the same at "
							      "every point (a triangular reduction), "
							      "which is not supported", ln(n, l),
							      vn(n, v));
					other = l == plan->loop_i ? plan->loop_j
					      : l == plan->loop_j ? plan->loop_i : -1;
					if (a->t[t].v2 >= 0 || other < 0 || lv != other)
						continue;   /* not affine: check_loops */
					if (plan->loop_g >= 0 || plan->nsum)
						return refuse(z, lp->loc,
							      "the bounds of loop '%s' depend on '%s' "
							      "and the reduction runs over several loops "
							      "(loop '%s' around '%s'); triangular nests "
							      "are supported with one reduction loop",
							      ln(n, l), vn(n, v),
							      ln(n, plan->loop_g >= 0 ? plan->loop_g
								 : plan->loop_sum[0]),
							      ln(n, plan->loop_k));
					if (lp->step > 1 || n->loop[lv].step > 1)
						return refuse(z, lp->loc,
							      "the bounds of loop '%s' depend on '%s' "
							      "and loop '%s' steps by %" PRId64 "; "
							      "triangular nests need steps of 1 (or -1)",
							      ln(n, l), vn(n, v),
							      ln(n, lp->step > 1 ? l : lv),
							      lp->step > 1 ? lp->step : n->loop[lv].step);
					z->tri = 1;
				}
			}
		}
	}
	/* a triangular reduction: refused here, with the reason of a
	   triangular reduction; mp_analyze plans again with the reduction
	   loop over the hull of its ranges and its bounds as a padding
	   condition (tri_red_convert) */
	if (z->tri_red)
		return refuse(z, n->loop[z->tri_red - 1].loc,
			      "the bounds of reduction loop '%s' depend on an output loop (a "
			      "triangular reduction) and it could not be planned over the hull "
			      "of its ranges: the bounds must name one output loop, the range "
			      "of '%s' over the nest must be one interval, with no loop under "
			      "a condition inside '%s' and '%s' not read after it",
			      ln(n, z->tri_red - 1), ln(n, z->tri_red - 1),
			      ln(n, z->tri_red - 1), ln(n, z->tri_red - 1));
	/* k around both i and j (kij order): the tile add would need a
	   range of j per row */
	if (z->tri && within(n, plan->loop_i, plan->loop_k) &&
	    within(n, plan->loop_j, plan->loop_k))
		return refuse(z, loop_loc(n, plan->loop_k),
			      "the reduction loop '%s' encloses both loops '%s' and '%s', "
			      "whose bounds depend on each other; put loop '%s' inside "
			      "one of them (ijk or ikj order)", ln(n, plan->loop_k),
			      ln(n, plan->loop_i), ln(n, plan->loop_j), ln(n, plan->loop_k));
	return 0;
}

/* The tile of a triangular nest (z->tri): the bounding box of the (i, j)
 * points the loops visit, from ISL (mp_model_box over loops i and j
 * alone: k's bounds name neither, check_tri).  The kernels compute the
 * contraction at every point of the box and read A(i, k) for i in the
 * box's i range and B(k, j) for j in its j range, k over its whole
 * (rectangular) range.  The box's ranges are exactly the projections of
 * the visited points onto i and onto j (mp_model_box proves it, for
 * every parameter value), and k's range is the same at every point: each
 * row of A and column of B the kernels read is read by the loops as
 * written (at some point of that row or column), so the kernels touch
 * nothing the original loop does not.  The box's other points are
 * computed but never read: the nest keeps its loops and reads the tile
 * only where they run (tile mode, never DIRECT or FUSED). */
static int tri_box(az *z, const int *chain, int d)
{
	const mp_nest *n = z->n;
	mp_plan *plan = z->plan;
	int loops[2], c, nl = 0, r;
	mp_aff lo[2], hi[2];

	for (c = 0; c < d; c++)
		if (chain[c] == plan->loop_i || chain[c] == plan->loop_j)
			loops[nl++] = chain[c];
	if (nl != 2 || plan->mode != MP_OUT_TILE)
		return refuse(z, loop_loc(n, chain[0]), "internal error: a triangular "
			      "nest without loops i and j in tile mode");
	r = mp_model_box(z->m, loops, 2, lo, hi);
	if (r < 0)
		return refuse(z, loop_loc(n, chain[0]), "internal error: ISL failed on "
			      "the bounding box of loops '%s' and '%s'", ln(n, loops[0]),
			      ln(n, loops[1]));
	if (r > 0)
		return refuse(z, loop_loc(n, loops[1]),
			      "the bounds of loops '%s' and '%s' depend on each other and "
			      "the range of '%s' or '%s' over the nest is not one interval "
			      "with affine bounds (a minimum or maximum of several bounds, "
			      "or holes); triangular nests need ranges such as 0 <= j <= i "
			      "< n", ln(n, loops[0]), ln(n, loops[1]), ln(n, loops[0]),
			      ln(n, loops[1]));
	for (c = 0; c < 2; c++) {
		int role = loops[c] == plan->loop_i ? 0 : 1;

		plan->box_lo[role] = lo[c];
		plan->box_hi[role] = hi[c];
	}
	plan->tri = 1;
	return 0;
}

static int check_loops(az *z, const int *chain, int d)
{
	const mp_nest *n = z->n;
	int i, b, bad;
	isl_bool box;

	for (i = 0; i < d; i++) {
		const mp_loop *l = &n->loop[chain[i]];

		if (l->step == 0 || l->step < -1)
			return refuse(z, l->loc, "loop '%s' has step %" PRId64 "; only "
				      "steps 1, -1 and positive steps are supported",
				      ln(n, chain[i]), l->step);
		/* the ikj tile add reads the tile by rows and columns of step 1 */
		if (l->step > 1 && z->plan->mode == MP_OUT_TILE &&
		    n->stmt[z->c.stmt].loop != z->plan->loop_k)
			return refuse(z, l->loc, "loop '%s' has step %" PRId64 " and the "
				      "reduction loop '%s' encloses the contraction's loop; "
				      "steps other than 1 need the reduction loop innermost",
				      ln(n, chain[i]), l->step, ln(n, z->plan->loop_k));
		if (l->ne_exit && !ne_exit_exact(n, chain[i]))
			return refuse(z, l->loc, "the exit test of loop '%s' is '!=' and "
				      "'%s' is %s: the loop is the '<' loop only if it starts "
				      "at or below its bound, which is not known here; write "
				      "'<'", ln(n, chain[i]), ln(n, chain[i]),
				      mp_scalar_name(n->var[l->iter].type));
		for (b = 0; b < 2; b++) {
			const mp_aff *a = b ? &l->hi : &l->lo;

			/* iterators in bounds: check_tri (only i and j, of each
			   other; what it let through and the model cannot write
			   is "not affine" below) */
			if (!aff_in_scope(n, a, chain, i, &bad))
				return refuse(z, l->loc,
					      "bounds of loop '%s' depend on '%s', which the "
					      "nest writes", ln(n, chain[i]), vn(n, bad));
		}
		if (!mp_model_loop_bounds_affine(z->m, chain[i]))
			return refuse(z, l->loc, "bounds of loop '%s' are not affine",
				      ln(n, chain[i]));
		if (z->plan->mode == MP_OUT_TILE && below_k(n, chain[i], red_top(z->plan)) &&
		    iter_observed(n, l->iter))
			return refuse(z, l->loc, "the iterator '%s' is %s", ln(n, chain[i]),
				      n->var[l->iter].used_after ? "used after the nest"
				      : "read after its loop, inside the nest");
	}
	if (z->tri)
		return tri_box(z, chain, d);
	box = mp_model_domain_is_box(z->m, z->c.stmt);
	if (box != isl_bool_true)
		return refuse(z, loop_loc(n, chain[0]),
			      "the iteration domain of the contraction into '%s' is not "
			      "rectangular", acc_name(z));
	return 0;
}

static void add_check(mp_plan *plan, int acc)
{
	int i;

	for (i = 0; i < plan->ncheck; i++)
		if (plan->check_access[i] == acc)
			return;
	if (plan->ncheck < MP_MAX_ACCESSES)
		plan->check_access[plan->ncheck++] = acc;
}

/* Writes are affine; the operands' arrays are never written (ISL), or the
 * written arrays are different objects checked for overlap at run time. */
static int check_writes(az *z)
{
	const mp_nest *n = z->n;
	int w, i, c, entry[2] = { 0, 0 };

	for (w = 0; w < n->naccesses; w++) {
		const mp_access *a = &n->access[w];

		if (!a->is_write || a->stmt < 0 || a->stmt >= n->nstmts)
			continue;
		if (!a->affine)
			return refuse(z, a->loc ? a->loc : n->stmt[a->stmt].loc,
				      "store to '%s' has a subscript that is not affine in "
				      "the loop iterators", an(n, w));
	}
	for (i = 0; i < 2; i++) {
		int x = z->c.f[i].access, arr = n->access[x].array;
		int wr = mp_model_first_writer(z->m, x, -1);

		if (wr == -2)
			return refuse(z, n->access[x].loc, "internal error: ISL failed "
				      "on the reads of '%s'", an(n, x));
		/* in tile mode the kernels read the operands before the nest
		   runs: right when each read of the loop as written sees the
		   value the element had then (TRMM in place) */
		if (wr >= 0 && z->plan->mode == MP_OUT_TILE &&
		    mp_model_reads_entry(z->m, x) == 1) {
			z->entry_reads = 1;
			entry[i] = 1;
			wr = -1;
		}
		if (wr >= 0)
			return refuse(z, n->access[wr].loc ? n->access[wr].loc :
				      n->stmt[n->access[wr].stmt].loc,
				      "'%s' is an operand of the contraction and the nest "
				      "writes to it", an(n, x));
		for (w = 0; w < n->naccesses; w++) {
			const mp_access *a = &n->access[w];

			if (!a->is_write || a->array == arr || a->stmt < 0)
				continue;
			if (n->array[a->array].is_decl && n->array[arr].is_decl)
				continue;  /* distinct objects never overlap */
			add_check(z->plan, w);
		}
	}
	/* the bytes protected at run time (a variable in memory read as an
	   invariant: a global, `*pK`, `p->K`; a load read once before the
	   nest) must miss every written range, and the runtime compares them
	   only with the ranges of the checks: each write that may reach them
	   is one, also between declared arrays (`k < *pK` with pK pointing
	   into a global output C was read once and never compared: wrong
	   results under the three compilers).  A load of a declared array
	   misses the writes to other declared arrays. */
	{
		int any_var = 0, inv[MP_MAX_ACCESSES], ninv = 0;

		for (i = 0; i < n->nvars; i++)
			any_var |= n->var[i].kind == MP_VAR_PARAM && n->var[i].in_memory;
		for (i = 0; i < n->naccesses; i++)
			if (mp_invariant_load(n, i))
				inv[ninv++] = n->access[i].array;
		for (w = 0; w < n->naccesses; w++) {
			const mp_access *a = &n->access[w];
			int reach = any_var;

			if (!a->is_write || a->stmt < 0)
				continue;
			for (i = 0; i < ninv && !reach; i++)
				reach = !(n->array[inv[i]].is_decl && n->array[a->array].is_decl &&
					  inv[i] != a->array);
			if (reach)
				add_check(z->plan, w);
		}
	}
	/* the writes to an operand read before them: not compared with that
	   operand's own read range (only the first 8 checks can say so) */
	for (i = 0; i < 2; i++) {
		int arr = n->access[z->c.f[i].access].array;

		if (!entry[i])
			continue;
		for (c = 0; c < z->plan->ncheck; c++) {
			if (n->access[z->plan->check_access[c]].array != arr)
				continue;
			if (c >= 8)
				return refuse(z, n->access[z->c.f[i].access].loc,
					      "'%s' is an operand of the contraction and the "
					      "nest writes to it (after reading it: too many "
					      "run-time overlap checks to tell them apart)",
					      an(n, z->c.f[i].access));
			z->plan->check_skip[i] |= 1u << c;
		}
	}
	return 0;
}

/* Does statement S read walking pointer P: an access made through it, the
 * value in its right-hand side, a step of P, a pointer assignment based on
 * it. */
static int stmt_reads_ptr(const mp_nest *n, int s, int p)
{
	const mp_stmt *st = &n->stmt[s];
	int a;

	for (a = 0; a < n->naccesses; a++)
		if (n->access[a].stmt == s &&
		    (n->access[a].via == p || n->array[n->access[a].array].base_var == p))
			return 1;
	if (st->rhs >= 0 && expr_reads_var(n, st->rhs, p, 0))
		return 1;
	return st->ptr_assign && st->ptr_array >= 0 &&
	       n->array[st->ptr_array].base_var == p;
}

/* The walking pointers (mp_walk_resolve) keep their values as written
 * where the loops stay: a pointer stepped inside the part the runtime
 * replaces (TILE: the reduction loop; DIRECT, FUSED: the whole nest) is
 * not stepped on the fast path.  TILE: one read after the loop gets the
 * pointer advanced there (plan.advance_*); DIRECT, FUSED: not used after
 * the nest. */
static int check_walks(az *z)
{
	const mp_nest *n = z->n;
	int p, s, read, region = z->plan->mode == MP_OUT_TILE ? z->plan->red_loop : -1;

	z->plan->nadvance = 0;
	for (p = 0; p < n->nvars; p++) {
		int stepped = 0;

		for (s = 0; s < n->nstmts; s++)
			if (n->stmt[s].ivstep && n->stmt[s].lhs_var == p &&
			    (region < 0 || within(n, n->stmt[s].loop, region)))
				stepped = 1;
		if (!stepped)
			continue;
		if (region < 0) {
			if (n->var[p].used_after)
				return refuse(z, loop_loc(n, 0), "pointer '%s' is advanced in "
					      "the nest and used after it", vn(n, p));
			continue;
		}
		for (s = 0, read = n->var[p].used_after; s < n->nstmts && !read; s++)
			if (!within(n, n->stmt[s].loop, region) && stmt_reads_ptr(n, s, p))
				read = n->stmt[s].loc ? n->stmt[s].loc : -1;
		if (!read)
			continue;
		/* read after the loop: the fast path advances it as the loop
		   would have, by its steps per iteration times the loop's
		   iteration count, which the glue computes (never below 0: an
		   empty loop `for (k = 1; k < K; ...)` with K == 0 leaves the
		   pointer where it is) */
		if (z->plan->nadvance >= 8 || z->plan->nsum ||
		    mp_walk_region_delta(n, p, region, &z->plan->advance_by[z->plan->nadvance]) < 0)
			return refuse(z, read > 0 ? read : loop_loc(n, 0), "pointer '%s' is "
				      "advanced inside reduction loop '%s' and read after it",
				      vn(n, p), ln(n, region));
		z->plan->advance_var[z->plan->nadvance++] = p;
	}
	return 0;
}

/* Does loop l enclose a statement other than the contraction, the
 * statements forwarded into it, the steps of walking pointers and the
 * other contractions of the nest with theirs (mp_analyze_all)?  A
 * dependence carried by l joins two statements inside l; only such a
 * statement can make check_dependences refuse. */
static int loop_has_other(az *z, int l)
{
	const mp_nest *n = z->n;
	int s, p, guard;

	for (s = 0; s < n->nstmts; s++) {
		if (s == z->c.stmt || z->c.fwd[s] || n->stmt[s].ivstep || z->others[s] ||
		    z->others_fwd[s])
			continue;
		for (p = n->stmt[s].loop, guard = 0; p >= 0 && p < n->nloops &&
		     guard <= MP_MAX_LOOPS; p = n->loop[p].parent, guard++)
			if (p == l)
				return 1;
	}
	return 0;
}

/* Only the reduction carries dependences on loop k (DIRECT: on any loop).
 * The dependences (the costliest ISL question) are computed only when a
 * loop to check holds a statement that could make a difference. */
static int check_dependences(az *z)
{
	const mp_nest *n = z->n;
	isl_union_map *deps = NULL;
	int pairs[16][2], l, cnt, i, r = 0, red = z->c.stmt, need = 0;
	char what[MP_NAME_LEN * 2];

	for (l = 0; l < n->nloops; l++)
		if ((l == z->plan->loop_k || is_sum_loop(z->plan, l) ||
		     z->plan->mode == MP_OUT_DIRECT) &&
		    loop_has_other(z, l))
			need = 1;
	if (!need)
		return 0;
	deps = mp_model_dependences(z->m, MP_DEP_ALL);
	if (!deps)
		return refuse(z, loop_loc(n, 0), "internal error: ISL failed to "
			      "compute the dependences");
	for (l = 0; l < n->nloops && r == 0; l++) {
		if (l != z->plan->loop_k && !is_sum_loop(z->plan, l) &&
		    z->plan->mode != MP_OUT_DIRECT)
			continue;
		if (!loop_has_other(z, l))
			continue;
		cnt = mp_model_carried(z->m, deps, l, pairs, 16);
		if (cnt < 0) {
			r = refuse(z, loop_loc(n, l), "internal error: ISL failed on "
				   "the dependences of loop '%s'", ln(n, l));
			break;
		}
		for (i = 0; i < cnt && i < 16; i++) {
			int o = pairs[i][0] != red ? pairs[i][0] : pairs[i][1];

			if ((pairs[i][0] == red || z->c.fwd[pairs[i][0]] ||
			     n->stmt[pairs[i][0]].ivstep || dead_def(n, pairs[i][0]) ||
			     z->others[pairs[i][0]] || z->others_fwd[pairs[i][0]]) &&
			    (pairs[i][1] == red || z->c.fwd[pairs[i][1]] ||
			     n->stmt[pairs[i][1]].ivstep || dead_def(n, pairs[i][1]) ||
			     z->others[pairs[i][1]] || z->others_fwd[pairs[i][1]]))
				continue;
			describe_stmt(n, o, what, sizeof(what));
			r = refuse(z, loop_loc(n, l),
				   "loop '%s' carries a dependence between the contraction "
				   "and %s", ln(n, l), what);
			break;
		}
	}
	isl_union_map_free(deps);
	return r;
}

/* ------------------------------------------------------------- fusion */

/* The recognised epilogue helpers (include/mixprec.h), their kind and the
 * types of their arguments after acc. */
static const struct epi_fn {
	const char *name;
	mp_epi_kind kind;
	int nargs;
	mp_scalar arg[5];
} epi_fns[] = {
	{ "mp_requant_fp32", MP_FUSE_FP32, 4,
	  { MP_TY_F32, MP_TY_S32, MP_TY_S32, MP_TY_S32 } },
	{ "mp_requant_gemmlowp", MP_FUSE_GEMMLOWP, 5,
	  { MP_TY_S32, MP_TY_S32, MP_TY_S32, MP_TY_S32, MP_TY_S32 } },
	{ "mp_requant_rndnu", MP_FUSE_RNDNU, 5,
	  { MP_TY_S32, MP_TY_S32, MP_TY_S32, MP_TY_S32, MP_TY_S32 } },
	{ "mp_clamp_i32", MP_FUSE_CLAMP, 2, { MP_TY_S32, MP_TY_S32 } },
};

/* Strip identity int32 casts (s32 -> s32). */
static int peel_s32(const mp_nest *n, int e)
{
	const mp_expr *x;

	while ((x = ex(n, e)) && x->kind == MP_X_CAST && x->type == MP_TY_S32 &&
	       ex(n, x->a) && ex(n, x->a)->type == MP_TY_S32)
		e = x->a;
	return e;
}

/* A loop-invariant argument: CONST, VAR of a PARAM, a read of invariant
 * memory (mp_invariant_load: p->scale), and casts and + - * neg of those.
 * No other load (a per-channel value), no call. */
static int invariant_arg(const mp_nest *n, int e, int depth)
{
	const mp_expr *x = ex(n, e);

	if (!x || depth > 64)
		return 0;
	switch (x->kind) {
	case MP_X_CONST:
		return mp_scalar_is_int(x->type) || x->type == MP_TY_F32 ||
		       x->type == MP_TY_F64;
	case MP_X_VAR:
		return x->var >= 0 && x->var < n->nvars &&
		       n->var[x->var].kind == MP_VAR_PARAM &&
		       n->var[x->var].type != MP_TY_PTR &&
		       n->var[x->var].type != MP_TY_OTHER;
	case MP_X_LOAD:
		return mp_invariant_load(n, x->access);
	case MP_X_CAST:
	case MP_X_NEG:
		return invariant_arg(n, x->a, depth + 1);
	case MP_X_ADD:
	case MP_X_SUB:
	case MP_X_MUL:
		return invariant_arg(n, x->a, depth + 1) &&
		       invariant_arg(n, x->b, depth + 1);
	default:
		return 0;
	}
}

/* An access whose offset uses only PARAMs and the iterators of loops i/j. */
static int ij_access(az *z, int acc)
{
	const mp_nest *n = z->n;
	int ij[3], nij = out_loops(z->plan, ij, 1), bad;

	if (acc < 0 || acc >= n->naccesses || !n->access[acc].affine ||
	    (z->plan->loop_i2 < 0 && mp_model_access_is_whole(z->m, acc)))
		return 0;
	return aff_in_scope(n, &n->access[acc].off, ij, nij, &bad);
}

/* INIT: CONST | LOAD | LOAD + CONST | CONST + LOAD, int32, identity casts. */
static int match_init(az *z, int e, int *bias, int64_t *init)
{
	const mp_nest *n = z->n;
	const mp_expr *x = ex(n, peel_s32(n, e)), *p, *q;
	int le = -1, ce = -1;

	*bias = -1;
	*init = 0;
	if (!x || x->type != MP_TY_S32)
		return 0;
	if (x->kind == MP_X_CONST)
		ce = peel_s32(n, e);
	else if (x->kind == MP_X_LOAD)
		le = peel_s32(n, e);
	else if (x->kind == MP_X_ADD) {
		p = ex(n, peel_s32(n, x->a));
		q = ex(n, peel_s32(n, x->b));
		if (!p || !q)
			return 0;
		if (p->kind == MP_X_LOAD && q->kind == MP_X_CONST) {
			le = peel_s32(n, x->a);
			ce = peel_s32(n, x->b);
		} else if (p->kind == MP_X_CONST && q->kind == MP_X_LOAD) {
			ce = peel_s32(n, x->a);
			le = peel_s32(n, x->b);
		} else
			return 0;
	} else
		return 0;
	if (ce >= 0) {
		const mp_expr *c = &n->expr[ce];

		if (c->type != MP_TY_S32 || c->cst < INT32_MIN || c->cst > INT32_MAX)
			return 0;
		*init = c->cst;
	}
	if (le >= 0) {
		const mp_expr *l = &n->expr[le];
		const mp_access *a;

		if (l->type != MP_TY_S32 || l->access < 0 || l->access >= n->naccesses)
			return 0;
		a = &n->access[l->access];
		if (a->is_write || a->elem != MP_TY_S32 || a->elem_size != 4 ||
		    !ij_access(z, l->access))
			return 0;
		*bias = l->access;
	}
	return 1;
}

/* EPI: [cast to the stored type] ( VAR acc | CALL helper(acc, invariants) ). */
static int match_epi(az *z, int e, mp_scalar out)
{
	const mp_nest *n = z->n;
	mp_plan *plan = z->plan;
	const mp_expr *x = ex(n, e), *c;
	size_t f;
	int i;

	if (!x)
		return 0;
	if (x->kind == MP_X_CAST) {
		if (x->type != out)
			return 0;
		x = ex(n, x->a);
		if (!x)
			return 0;
	} else if (x->type != out)
		return 0;
	if (x->kind == MP_X_VAR) {
		if (x->var != z->c.acc_var || x->type != MP_TY_S32 || out != MP_TY_S32)
			return 0;
		plan->epi = MP_FUSE_STORE;
		plan->epi_nargs = 0;
		return 1;
	}
	if (x->kind != MP_X_CALL || x->type != MP_TY_S32)
		return 0;
	for (f = 0; f < sizeof(epi_fns) / sizeof(epi_fns[0]); f++)
		if (!strncmp(x->op, epi_fns[f].name, sizeof(x->op)))
			break;
	if (f == sizeof(epi_fns) / sizeof(epi_fns[0]) ||
	    x->nargs != epi_fns[f].nargs + 1)
		return 0;
	c = ex(n, peel_s32(n, x->args[0]));
	if (!c || c->kind != MP_X_VAR || c->var != z->c.acc_var)
		return 0;
	for (i = 0; i < epi_fns[f].nargs; i++) {
		int a = x->args[i + 1];

		if (!ex(n, a) || n->expr[a].type != epi_fns[f].arg[i] ||
		    !invariant_arg(n, a, 0))
			return 0;
		plan->epi_arg[i] = a;
	}
	plan->epi = epi_fns[f].kind;
	plan->epi_nargs = epi_fns[f].nargs;
	return 1;
}

/* Is access A a read of the element access OUT writes (same array, same
 * subscripts, same type)? */
static int same_element(const mp_nest *n, int a, int out)
{
	const mp_access *r, *w;

	if (a < 0 || a >= n->naccesses || out < 0 || out >= n->naccesses)
		return 0;
	r = &n->access[a];
	w = &n->access[out];
	return r->array == w->array && r->affine && w->affine && r->elem == w->elem &&
	       r->elem_size == w->elem_size && mp_aff_equal(&r->off, &w->off);
}

/* The int32 output accumulated through the scalar, as C code writes
 * C += A*B one element at a time:
 *   acc = out[i,j]; for k acc += P; out[i,j] = acc;     or
 *   acc = 0;        for k acc += P; out[i,j] += acc;
 * (INIT: statement init, matched as BIAS + CST; the store is STORE). */
static int accumulates(az *z, int init, int store, int bias, int64_t cst, int out)
{
	const mp_nest *n = z->n;
	const mp_expr *x, *p, *q;

	(void)init;
	if (z->plan->loop_g >= 0 || cst != 0 || n->access[out].elem != MP_TY_S32 ||
	    n->access[out].elem_size != 4)
		return 0;
	x = ex(n, peel_s32(n, n->stmt[store].rhs));
	if (!x || x->type != MP_TY_S32)
		return 0;
	if (bias >= 0)   /* acc = out[i,j]; ...; out[i,j] = acc */
		return same_element(n, bias, out) && x->kind == MP_X_VAR &&
		       x->var == z->c.acc_var;
	if (x->kind != MP_X_ADD)   /* acc = 0; ...; out[i,j] = out[i,j] + acc */
		return 0;
	p = ex(n, peel_s32(n, x->a));
	q = ex(n, peel_s32(n, x->b));
	if (!p || !q)
		return 0;
	if (p->kind == MP_X_VAR) {
		const mp_expr *t = p;
		p = q;
		q = t;
	}
	return q->kind == MP_X_VAR && q->var == z->c.acc_var && p->kind == MP_X_LOAD &&
	       p->type == MP_TY_S32 && same_element(n, p->access, out);
}

/* TILE with a scalar accumulator: is the whole nest
 *   for i for j { acc = INIT; for k acc += P; out[i,j] = EPI(acc); } ?
 * Fills the epi_* fields and switches to MP_OUT_FUSED; leaves the TILE
 * plan untouched (returns 0) when anything does not fit. */
static int try_fuse(az *z, const int *chain, int d)
{
	if (!z->fsrc && z->c.alpha >= 0)
		return 0;   /* int alpha: the tile is scaled (tile mode) */
	const mp_nest *n = z->n;
	mp_plan *plan = z->plan;
	const mp_loop *lk;
	int k = plan->loop_k, top = red_top(plan), body, s, init = -1, store = -1, bias, out, i;
	int ij[3], nij = out_loops(plan, ij, 0);
	int64_t cst;
	mp_scalar ot;
	isl_bool inj;
	mp_plan save = *plan;

	if (plan->nadvance || walked_after(n) || z->nothers || z->select_other)
		return 0;   /* the fused rewrite drops the whole nest */
	if (z->c.neg || z->acc64)
		return 0;   /* `-=`: the kernels add; int64: they store int32 */
	if (z->tri)
		return 0;   /* the kernels would store every point of the box */
	if (z->entry_reads)
		return 0;   /* an operand the nest writes: the tile first */
	if (z->fsrc || plan->mode != MP_OUT_TILE || z->c.acc_var < 0 || d < 2 + plan->nsum ||
	    chain[d - 1] != k || n->nloops != d ||
	    n->nstmts - fwd_in(z, k) - n_ivsteps(n) != 3 ||
	    n->var[z->c.acc_var].used_after ||
	    n->stmt[z->c.stmt].loop != k ||
	    (n->stmt[z->c.stmt].guarded && !plan->guard))
		return 0;
	lk = &n->loop[top];
	body = chain[d - 2 - plan->nsum];
	if (lk->parent != body)
		return 0;
	for (i = 0; i < d - 1 - plan->nsum; i++)
		if (chain[i] != plan->loop_i && chain[i] != plan->loop_j &&
		    chain[i] != plan->loop_i2)
			return 0;
	/* Live iterators: the TILE rewrite keeps the loops and so their final
	 * values; the fused rewrite would have to recompute them (as DIRECT
	 * does), and for an iterator declared before the nest that reads its
	 * uninitialised old value when an outer loop runs zero times. */
	for (i = 0; i < d; i++)
		if (iter_observed(n, n->loop[chain[i]].iter))
			return 0;
	for (s = 0; s < n->nstmts; s++) {
		const mp_stmt *st = &n->stmt[s];

		if (s == z->c.stmt || (z->c.fwd[s] && st->loop == k) || st->ivstep ||
		    dead_def(n, s))
			continue;
		if (st->loop != body || st->guarded)
			return 0;
		if (st->kind == MP_S_ASSIGN && st->lhs_var == z->c.acc_var &&
		    st->pos < lk->pos && init < 0)
			init = s;
		else if (st->kind == MP_S_STORE && st->pos > lk->pos && store < 0)
			store = s;
		else
			return 0;
	}
	if (init < 0 || store < 0)
		return 0;
	/* INIT */
	if (!match_init(z, n->stmt[init].rhs, &bias, &cst))
		return 0;
	/* the store: out[i,j], one element per (i, j) */
	out = n->stmt[store].lhs_access;
	if (out < 0 || out >= n->naccesses || !n->access[out].is_write ||
	    !ij_access(z, out))
		return 0;
	ot = n->access[out].elem;
	if (!((ot == MP_TY_S8 || ot == MP_TY_U8) && n->access[out].elem_size == 1) &&
	    !(ot == MP_TY_S32 && n->access[out].elem_size == 4))
		return 0;
	if (accumulates(z, init, store, bias, cst, out)) {
		/* C[i,j] + sum in int32, wrapping: what direct mode computes */
		inj = plan->loop_i2 >= 0 ? isl_bool_true
					 : mp_model_access_injective(z->m, out, ij, nij);
		if (inj != isl_bool_true)
			return 0;
		plan->mode = MP_OUT_DIRECT;
		plan->acc_c = out;
		plan->red_loop = chain[0];
		return 1;
	}
	if (bias >= 0) {
		const mp_array *ba = &n->array[n->access[bias].array];
		const mp_array *oa = &n->array[n->access[out].array];

		if (n->access[bias].array == n->access[out].array ||
		    (ba->base_var >= 0 && ba->base_var == oa->base_var))
			return 0;
	}
	/* with a second row loop the runtime checks it (disjoint_rows) */
	inj = plan->loop_i2 >= 0 ? isl_bool_true
				 : mp_model_access_injective(z->m, out, ij, nij);
	if (inj != isl_bool_true)
		return 0;
	/* EPI */
	if (!match_epi(z, n->stmt[store].rhs, ot)) {
		*plan = save;
		return 0;
	}
	plan->mode = MP_OUT_FUSED;
	plan->red_loop = chain[0];
	plan->epi_out = out;
	plan->epi_out_type = ot;
	plan->epi_bias = bias;
	plan->epi_init = cst;
	return 1;
}

/* Value of a constant zero point (casts applied), or 0 if not constant. */
static int zero_value(const mp_nest *n, int e, int64_t *v)
{
	const mp_expr *x = ex(n, e);

	if (!x)
		return 0;
	if (x->kind == MP_X_CONST) {
		*v = x->cst;
	} else if (x->kind == MP_X_CAST) {
		if (!zero_value(n, x->a, v))
			return 0;
	} else
		return 0;
	if (mp_scalar_is_int(x->type) && mp_scalar_bits(x->type) < 64) {
		int b = mp_scalar_bits(x->type);
		uint64_t mask = ((uint64_t)1 << b) - 1, u = (uint64_t)*v & mask;

		if (x->type == MP_TY_S8 || x->type == MP_TY_S16 || x->type == MP_TY_S32)
			*v = (u >> (b - 1)) ? (int64_t)(u | ~mask) : (int64_t)u;
		else
			*v = (int64_t)u;
	}
	return 1;
}

/* max |x - z| over the operand's 8-bit range; -1 if z is not constant. */
static int64_t operand_max(const mp_nest *n, const operand *o)
{
	int64_t lo, hi, zv = 0, a, b;

	if (!mp_scalar_is_int(o->load) || mp_scalar_bits(o->load) > 32)
		return -1;   /* no finite integer range to bound */
	type_range(o->load, &lo, &hi);
	if (o->z >= 0) {
		if (!zero_value(n, o->z, &zv) || zv > INT32_MAX || zv < INT32_MIN)
			return -1;
		zv *= o->zsign;
	}
	a = lo - zv;
	b = hi - zv;
	a = a < 0 ? -a : a;
	b = b < 0 ? -b : b;
	return a > b ? a : b;
}

static int compute_bound(az *z)
{
	const mp_nest *n = z->n;
	mp_plan *plan = z->plan;
	int64_t K = mp_model_max_trip(z->m, plan->loop_k), ma, mb, ab, bound;
	int x;

	/* summed loops: K is the product of the trip counts */
	for (x = 0; x < plan->nsum && K >= 0; x++) {
		int64_t t = mp_model_max_trip(z->m, plan->loop_sum[x]);

		if (t < 0 || __builtin_mul_overflow(K, t, &K))
			K = -1;
	}

	plan->k_extent_static = K;
	plan->bound_static = -1;
	if (z->fsrc) {
		/* no int32 bound; (the operands' ranges are those of 8-bit
		   integers only: operand_max does not apply) */
		plan->need_runtime_bound = 0;
		return 0;
	}
	ma = operand_max(n, &z->c.f[0]);
	mb = operand_max(n, &z->c.f[1]);
	if (K < 0 || ma < 0 || mb < 0) {
		plan->need_runtime_bound = 1;
		return 0;
	}
	if (__builtin_mul_overflow(ma, mb, &ab) ||
	    __builtin_mul_overflow(K, ab, &bound))
		bound = INT64_MAX;
	if (bound > INT32_MAX)
		return refuse(z, loop_loc(n, plan->loop_k),
			      "the int32 accumulator can overflow: K*max|a|*max|b| = "
			      "%" PRId64 "*%" PRId64 "*%" PRId64 " = %" PRId64 " > 2^31-1 "
			      "(reduction loop '%s', operands '%s' and '%s')",
			      K, ma, mb, bound, ln(n, plan->loop_k),
			      an(n, z->c.f[0].access), an(n, z->c.f[1].access));
	plan->bound_static = bound;
	plan->need_runtime_bound = 0;
	return 0;
}

/* ------------------------------------------------------------ remarks */

/* Iterators of the given loops used in access, by decreasing stride. */
static void index_str(const mp_nest *n, int acc, const int *loops, int nl,
		      char *buf, size_t len)
{
	int order[MP_MAX_SUM + 8], no = 0, i, j;
	int64_t rank[MP_MAX_SUM + 8];
	size_t pos;

	for (i = 0; i < nl && no < MP_MAX_SUM + 8; i++) {
		mp_aff coef;
		int64_t c;

		if (loops[i] < 0 || !mp_aff_uses_var(&n->access[acc].off,
						     n->loop[loops[i]].iter))
			continue;
		mp_aff_coef_of(&n->access[acc].off, n->loop[loops[i]].iter, &coef);
		/* a coefficient given at run time outranks a constant one, and
		   a product of run-time values (`(ic*H + ih)*W`) one value */
		rank[no] = mp_aff_is_const(&coef, &c) ? (c < 0 ? -c : c) : INT64_MAX - 1;
		for (j = 0; j < coef.n && rank[no] == INT64_MAX - 1; j++)
			if (coef.t[j].v2 >= 0 ||
			    (coef.t[j].v1 >= 0 && n->var[coef.t[j].v1].prod[0] >= 0))
				rank[no] = INT64_MAX;
		order[no++] = loops[i];
	}
	for (i = 0; i < no; i++)
		for (j = i + 1; j < no; j++)
			if (rank[j] > rank[i]) {
				int64_t r = rank[i];
				int o = order[i];

				rank[i] = rank[j]; rank[j] = r;
				order[i] = order[j]; order[j] = o;
			}
	snprintf(buf, len, "%s[", an(n, acc));
	for (i = 0; i < no; i++) {
		pos = strlen(buf);
		snprintf(buf + pos, len - pos, "%s%s", i ? "," : "", ln(n, order[i]));
	}
	pos = strlen(buf);
	snprintf(buf + pos, len - pos, "]");
}

/* Is loop l's iterator the unit-stride (contiguous) index of acc? */
static int contiguous(const mp_nest *n, int acc, int l)
{
	mp_aff coef;
	int64_t c;

	if (l < 0)
		return 0;
	mp_aff_coef_of(&n->access[acc].off, n->loop[l].iter, &coef);
	return mp_aff_is_const(&coef, &c) && c == n->access[acc].elem_size;
}

/* A STORE after the reduction whose value reads the scalar accumulator. */
static int expr_reads_var(const mp_nest *n, int e, int v, int depth)
{
	const mp_expr *x = ex(n, e);

	if (!x || depth > 200)
		return 0;
	if (x->kind == MP_X_VAR)
		return x->var == v;
	if (x->kind == MP_X_CONST || x->kind == MP_X_LOAD)
		return 0;
	if (x->kind == MP_X_CALL) {
		int i;

		for (i = 0; i < x->nargs && i < MP_MAX_ARGS; i++)
			if (expr_reads_var(n, x->args[i], v, depth + 1))
				return 1;
		return 0;
	}
	return expr_reads_var(n, x->a, v, depth + 1) ||
	       (x->kind != MP_X_CAST && x->kind != MP_X_NEG &&
		expr_reads_var(n, x->b, v, depth + 1));
}

static const char *epi_name(mp_epi_kind e)
{
	switch (e) {
	case MP_FUSE_STORE: return "store";
	case MP_FUSE_FP32: return "mp_requant_fp32";
	case MP_FUSE_GEMMLOWP: return "mp_requant_gemmlowp";
	case MP_FUSE_RNDNU: return "mp_requant_rndnu";
	case MP_FUSE_CLAMP: return "mp_clamp_i32";
	}
	return "?";
}

/* Remarks are cut at MP_REASON_LEN by design (names are at most 47 chars). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif
/* "dynamic per row" / "0.5 per tensor" / "ws[j] per column" */
static void scale_str(const mp_scale_spec *sp, mp_prec prec, int isb, char *buf, size_t len)
{
	const char *per = isb ? "per column" : "per row";

	switch (sp->kind) {
	case MP_SS_NUMBER:
		snprintf(buf, len, "%g per tensor", sp->value);
		break;
	case MP_SS_NAME:
		snprintf(buf, len, "%s per tensor", sp->name);
		break;
	case MP_SS_INDEXED:
		snprintf(buf, len, "%s[%s] %s", sp->name, sp->index, per);
		break;
	default:
		snprintf(buf, len, "dynamic %s",
			 prec == MP_PREC_FP8_E4M3 || prec == MP_PREC_FP8_E5M2 ? "per tensor" : per);
		break;
	}
}

/* The text of a scalar factor: a variable's name or a constant. */
static void factor_str(const mp_nest *n, int e, char *buf, size_t len)
{
	const mp_expr *b = ex(n, peel_casts(n, e));

	if (b && b->kind == MP_X_VAR)
		snprintf(buf, len, "'%s'", vn(n, b->var));
	else if (b && b->kind == MP_X_CONST && !mp_scalar_is_int(b->type))
		snprintf(buf, len, "%g", b->fcst);
	else if (b && b->kind == MP_X_CONST)
		snprintf(buf, len, "%" PRId64, b->cst);
	else
		snprintf(buf, len, "(a constant)");
}

static void fill_remarks(az *z)
{
	const mp_nest *n = z->n;
	mp_plan *plan = z->plan;
	const operand *A = &z->c.f[0], *B = &z->c.f[1];
	/* the loops an operand's subscript may name, outermost roles first:
	   the output's (a batch loop, the rows, the columns), then the sum's
	   (its summed loops, k); the output's are the first NOUT */
	int loops[MP_MAX_SUM + 8], nl = 0, nout;
	char ia[160], ib[160], ic[128], out[192], zp[128], init[32], bias[128];
	char mode[200];
	char kn[3 * MP_NAME_LEN + 8] = "";
	const char *k = kn;
	int s;

	/* the reduction loops, outermost first: "k" or "kh,kw,ic" */
	for (s = 0; s <= plan->nsum; s++) {
		size_t pos = strlen(kn);

		snprintf(kn + pos, sizeof(kn) - pos, "%s%s", s ? "," : "",
			 ln(n, s < plan->nsum ? plan->loop_sum[s] : plan->loop_k));
	}

	if (plan->loop_g >= 0 && plan->g_batch)
		loops[nl++] = plan->loop_g;
	loops[nl++] = plan->loop_i2;
	loops[nl++] = plan->loop_i;
	loops[nl++] = plan->loop_j;
	nout = nl;
	if (plan->loop_g >= 0 && !plan->g_batch)
		loops[nl++] = plan->loop_g;
	for (s = 0; s < plan->nsum; s++)
		loops[nl++] = plan->loop_sum[s];
	loops[nl++] = plan->loop_k;
	index_str(n, A->access, loops, nl, ia, sizeof(ia));
	index_str(n, B->access, loops, nl, ib, sizeof(ib));
	if (z->c.acc_var < 0) {
		index_str(n, z->c.acc_write, loops, nout, ic, sizeof(ic));
		snprintf(out, sizeof(out), "%s", ic);
	} else {
		snprintf(out, sizeof(out), "%s", vn(n, z->c.acc_var));
		for (s = 0; s < n->nstmts; s++)
			if (n->stmt[s].kind == MP_S_STORE &&
			    expr_reads_var(n, n->stmt[s].rhs, z->c.acc_var, 0)) {
				index_str(n, n->stmt[s].lhs_access, loops, nout, ic, sizeof(ic));
				snprintf(out, sizeof(out), "%s <- %s", ic,
					 vn(n, z->c.acc_var));
				break;
			}
	}
	if (A->z >= 0 && B->z >= 0)
		snprintf(zp, sizeof(zp), ", zero points on %s and %s",
			 an(n, A->access), an(n, B->access));
	else if (A->z >= 0 || B->z >= 0)
		snprintf(zp, sizeof(zp), ", zero point on %s",
			 an(n, A->z >= 0 ? A->access : B->access));
	else
		zp[0] = 0;
	if (plan->mode == MP_OUT_FUSED) {
		const char *fn = epi_name(plan->epi);
		int call = plan->epi != MP_FUSE_STORE;

		index_str(n, plan->epi_out, loops, nout, ic, sizeof(ic));
		init[0] = bias[0] = 0;
		if (plan->epi_init)
			snprintf(init, sizeof(init), "%" PRId64 " + ", plan->epi_init);
		if (plan->epi_bias >= 0)
			index_str(n, plan->epi_bias, loops, nout, bias, sizeof(bias));
		snprintf(plan->what, sizeof(plan->what),
			 "%s %s over %s: %s = %s%s%s%s%ssum_%s %s*%s%s (%s x %s -> s32%s)",
			 prec_str(z->p->prec),
			 plan->loop_j >= 0 ? "contraction" : "matrix-vector product", k,
			 ic, call ? fn : "", call ? "(" : "", init, bias,
			 bias[0] ? " + " : "", k, ia, ib, call ? ")" : "",
			 mp_scalar_name(A->load), mp_scalar_name(B->load), zp);
		snprintf(mode, sizeof(mode), "fused epilogue: %s -> %s out %s%s%s",
			 fn, mp_scalar_name(plan->epi_out_type), ic,
			 bias[0] ? ", bias " : "", bias);
		if (plan->epi_init) {
			size_t pos = strlen(mode);

			snprintf(mode + pos, sizeof(mode) - pos, ", init %" PRId64,
				 plan->epi_init);
		}
	} else if (z->fsrc) {
		char sc[200], al[100] = "";
		int expl = plan->scale_a.kind != MP_SS_DYNAMIC ||
			   plan->scale_b.kind != MP_SS_DYNAMIC;

		if (z->p->prec == MP_PREC_BF16)
			snprintf(sc, sizeof(sc), "no scales");
		else if (!expl)
			snprintf(sc, sizeof(sc), "%s",
				 z->p->prec == MP_PREC_INT8 ? "dynamic scales per row/column" :
				 z->p->prec == MP_PREC_UINT8 ?
				 "dynamic scales: A asymmetric per row (zero point), B per column" :
				 "dynamic per-tensor scales");
		else {
			char sa[90], sb[90];
			scale_str(&plan->scale_a, z->p->prec, 0, sa, sizeof(sa));
			scale_str(&plan->scale_b, z->p->prec, 1, sb, sizeof(sb));
			snprintf(sc, sizeof(sc), "scales: %s %s, %s %s",
				 an(n, A->access), sa, an(n, B->access), sb);
		}
		if (plan->alpha_expr >= 0) {
			char e[64];
			factor_str(n, plan->alpha_expr, e, sizeof(e));
			snprintf(al, sizeof(al), "; scalar factor %s applied to the sum", e);
		}
		{
			size_t pos = strlen(sc);
			snprintf(sc + pos, sizeof(sc) - pos, "%s", al);
		}
		if (zp[0]) {
			size_t pos = strlen(sc);
			snprintf(sc + pos, sizeof(sc) - pos, "; %s, subtracted before quantizing",
				 zp + 2);
		}
		if (plan->const_a || plan->const_b) {
			size_t pos = strlen(sc);
			snprintf(sc + pos, sizeof(sc) - pos, "; %s%s%s constant across calls "
				 "(quantized and packed once)",
				 plan->const_a ? an(n, A->access) : "",
				 plan->const_a && plan->const_b ? " and " : "",
				 plan->const_b ? an(n, B->access) : "");
		}

		snprintf(plan->what, sizeof(plan->what),
			 "%s %s over %s: %s %s= sum_%s %s*%s (%s x %s at %s, acc %s, %s; "
			 "result within the bound of docs/error-bounds.md)",
			 prec_str(z->p->prec),
			 plan->loop_j >= 0 ? "contraction" : "matrix-vector product", k,
			 out, z->c.neg ? "-" : z->c.acc_var >= 0 ? "" : "+", k, ia, ib,
			 mp_scalar_name(A->load), mp_scalar_name(B->load),
			 prec_str(z->p->prec),
			 z->p->prec == MP_PREC_INT8 || z->p->prec == MP_PREC_UINT8 ?
			 "int32 (exact), dequantized in double" : "fp32", sc);
		snprintf(mode, sizeof(mode), "%s",
			 plan->mode == MP_OUT_DIRECT ? "direct mode (C += A*B, nest replaced)" :
						       "tile mode (epilogue kept)");
	} else {
		snprintf(plan->what, sizeof(plan->what),
			 "%s %s over %s: %s %s= sum_%s %s*%s (%s x %s -> s32%s)",
			 prec_str(z->p->prec),
			 plan->loop_j >= 0 ? "contraction" : "matrix-vector product", k,
			 out, z->c.neg ? "-" : z->c.acc_var >= 0 ? "" : "+", k, ia, ib,
			 mp_scalar_name(A->load), mp_scalar_name(B->load), zp);
		if (plan->alpha_expr >= 0) {
			char e[64];
			size_t pos = strlen(plan->what);

			factor_str(n, plan->alpha_expr, e, sizeof(e));
			snprintf(plan->what + pos, sizeof(plan->what) - pos,
				 "; times the integer factor %s (int32, mod 2^32)", e);
		}
		if (z->acc64) {
			size_t pos = strlen(plan->what);

			snprintf(plan->what + pos, sizeof(plan->what) - pos,
				 "; the int32 sum (exact under the int32 bound) widened into "
				 "the 64-bit '%s'", acc_name(z));
		}
		if (plan->loop_g >= 0 && plan->g_batch) {
			size_t pos = strlen(plan->what);

			snprintf(plan->what + pos, sizeof(plan->what) - pos,
				 ", one sum per iteration of batch loop '%s'",
				 ln(n, plan->loop_g));
		} else if (plan->loop_g >= 0) {
			size_t pos = strlen(plan->what);

			snprintf(plan->what + pos, sizeof(plan->what) - pos,
				 ", one sum per group of loop '%s' (the code around the "
				 "sums runs as written)", ln(n, plan->loop_g));
		}
		snprintf(mode, sizeof(mode), "%s",
			 plan->mode == MP_OUT_DIRECT ? "direct mode (C += A*B, nest replaced)" :
			 plan->mode == MP_OUT_FUSED ? "fused epilogue" : "tile mode (epilogue kept)");
	}
	if (!z->fsrc && (plan->const_a || plan->const_b)) {
		size_t pos = strlen(plan->what);

		snprintf(plan->what + pos, sizeof(plan->what) - pos,
			 "; %s%s%s constant across calls (packed once when the kernels pack it)",
			 plan->const_a ? an(n, A->access) : "",
			 plan->const_a && plan->const_b ? " and " : "",
			 plan->const_b ? an(n, B->access) : "");
	}
	if (plan->loop_i2 >= 0) {
		size_t pos = strlen(plan->what);

		snprintf(plan->what + pos, sizeof(plan->what) - pos,
			 "; rows over loops '%s' x '%s' in one call (the output's blocks of "
			 "rows checked disjoint at run time)", ln(n, plan->loop_i2),
			 ln(n, plan->loop_i));
	}
	if (plan->tri) {
		char b[4][96];
		size_t pos = strlen(plan->what);

		mp_aff_print(n, &plan->box_lo[0], b[0], sizeof(b[0]));
		mp_aff_print(n, &plan->box_hi[0], b[1], sizeof(b[1]));
		mp_aff_print(n, &plan->box_lo[1], b[2], sizeof(b[2]));
		mp_aff_print(n, &plan->box_hi[1], b[3], sizeof(b[3]));
		snprintf(plan->what + pos, sizeof(plan->what) - pos,
			 "; triangular, tile over the box %s <= %s <= %s, %s <= %s <= %s", b[0],
			 ln(n, plan->loop_i), b[1], b[2], ln(n, plan->loop_j), b[3]);
	}
	if (plan->guard && !z->tri_red_conv) {
		size_t pos = strlen(plan->what);

		if (plan->pad_const)
			snprintf(plan->what + pos, sizeof(plan->what) - pos,
				 "; padded: %s is %" PRId64 " where the condition fails",
				 an(n, A->access), plan->pad_value);
		else
			snprintf(plan->what + pos, sizeof(plan->what) - pos,
				 "; padded: the terms where the condition around the sum fails "
				 "are left out");
	}
	if (z->tri_red_conv) {
		char b[2][96];
		size_t pos = strlen(plan->what);

		mp_aff_print(n, &n->loop[plan->loop_k].lo, b[0], sizeof(b[0]));
		mp_aff_print(n, &n->loop[plan->loop_k].hi, b[1], sizeof(b[1]));
		snprintf(plan->what + pos, sizeof(plan->what) - pos,
			 "; triangular reduction: '%s' over %s .. %s, the terms outside its "
			 "bounds left out (padding)", ln(n, plan->loop_k), b[0], b[1]);
	}
	snprintf(plan->layout, sizeof(plan->layout),
		 "A=%s (%s), B=%s (%s), %s%s%s%s",
		 an(n, A->access),
		 contiguous(n, A->access, plan->loop_k) ? "k contiguous" :
		 contiguous(n, A->access, plan->loop_i) ? "i contiguous" : "strided",
		 an(n, B->access),
		 plan->loop_j < 0 ?
			(contiguous(n, B->access, plan->loop_k) ? "vector" : "strided vector") :
		 contiguous(n, B->access, plan->loop_k) ? "transposed: k contiguous" :
		 contiguous(n, B->access, plan->loop_j) ? "j contiguous" : "strided",
		 mode,
		 plan->ncheck ? ", run-time overlap check" : "",
		 plan->need_runtime_bound ? ", run-time bound check" : "",
		 n->nnarrow ? ", run-time range check of a value narrowed to a smaller "
		 "type" : "");
	for (int l = 0; l < n->nloops; l++)
		if (n->loop[l].zguard >= 0) {
			size_t len = strlen(plan->layout);
			snprintf(plan->layout + len, sizeof(plan->layout) - len,
				 ", the guard 'if (%s != 0)' of loop '%s' dropped (what it skips "
				 "adds 0)", n->loop[l].zguard_src[0] ? n->loop[l].zguard_src :
				 vn(n, n->loop[l].zguard), ln(n, l));
		}
}

/* ------------------------------------------------------------ padding */

/* The conditions guarding the sum (plan.guard): the update's own, when the
 * glue could read them, and those of the reduction loops (a window loop
 * after `if (...) continue;`).  Each may name only the row loops, the
 * reduction loops and parameters: a term left out is then an element of
 * A left out, whatever the column, and the runtime's copy of A holds A's
 * zero point there (a term of exactly 0).  A condition on any other loop
 * is refused: the runtime has no way to leave out a part of the output. */
/* The operands change places, and so do the loops i and j (the padded
 * operand is A). */
static void swap_roles(az *z)
{
	int li = z->plan->loop_i;

	swap_operands(&z->c);
	z->swapped = !z->swapped;
	z->plan->loop_i = z->plan->loop_j;
	z->plan->loop_j = li;
}

/* A matrix-vector product over a window of a few constant taps (an NCHW
 * depthwise 3x3: 9 terms per output, its loops summed), the rows of A one
 * element apart: the compiler unrolls the window and vectorises the loop as
 * written across the rows, which the kernels do not beat (a call per
 * channel measured 3.5-4.6x slower than the plain -O3 loop, gcc 12, Zen 4).
 * The nest runs as written, with the reason. */
static int check_tiny_window(az *z)
{
	const mp_nest *n = z->n;
	const mp_plan *plan = z->plan;
	int64_t terms = 1, lo, hi, c;
	mp_aff coef;

	if (z->fsrc || plan->loop_j >= 0 || plan->loop_g >= 0 || plan->nsum == 0 ||
	    plan->loop_i < 0)
		return 0;
	for (int x = 0; x <= plan->nsum; x++) {
		const mp_loop *lp = &n->loop[x < plan->nsum ? plan->loop_sum[x] : plan->loop_k];

		if (lp->step_var >= 0 || lp->step == 0 || !mp_aff_is_const(&lp->lo, &lo) ||
		    !mp_aff_is_const(&lp->hi, &hi) || hi < lo)
			return 0;
		terms *= (hi - lo) / (lp->step < 0 ? -lp->step : lp->step) + 1;
		if (terms > 16)
			return 0;
	}
	mp_aff_coef_of(&n->access[z->c.f[0].access].off, n->loop[plan->loop_i].iter, &coef);
	if (!mp_aff_is_const(&coef, &c) || (c != 1 && c != -1))
		return 0;
	z->final = 1;
	return refuse(z, loop_loc(n, plan->loop_i),
		      "a matrix-vector product over a window of %" PRId64 " terms with the rows "
		      "of '%s' one element apart: the loop as written, its window unrolled, is "
		      "vectorised across the rows, which the kernels do not beat (an NCHW "
		      "depthwise convolution); it runs as written", terms,
		      an(n, z->c.f[0].access));
}

/* A loop stepping by a variable (`for (j = 0; j <= n - GS; j += GS)`,
 * llama2.c's runq.c with GS read at run time) is described with step 1
 * and its values in between: only a group loop reads its iterations as a
 * count (the glue's extent and tile index divide by the step). */
static int check_var_steps(az *z)
{
	const mp_nest *n = z->n;
	int l;

	for (l = 0; l < n->nloops; l++)
		if (n->loop[l].step_var >= 0 && (l != z->plan->loop_g || z->plan->g_batch))
			return refuse(z, loop_loc(n, l), "loop '%s' steps by '%s', a variable; "
				      "only the group loop of a quantized product (code around "
				      "an inner sum over the group) may", ln(n, l),
				      vn(n, n->loop[l].step_var));
	return 0;
}

/* Whether V is a factor of the product E (casts peeled, at any depth of
 * its multiplications: `b * 3 * t`, which GCC's front end may fold into
 * `b * (t * 3)`), so that V == 0 makes E 0. */
static int is_factor(const mp_nest *n, int e, int v, int depth)
{
	const mp_expr *x = e >= 0 && depth < 16 ? ex(n, peel_casts(n, e)) : NULL;
	if (!x)
		return 0;
	if (x->kind == MP_X_VAR)
		return x->var == v;
	return x->kind == MP_X_MUL &&
	       (is_factor(n, x->a, v, depth + 1) || is_factor(n, x->b, v, depth + 1));
}

/* A loop under a zero-skip guard (`if (t != 0) for (j ...) C[i][j] += t *
 * B[k][j];`, mp_loop.zguard): the guard is dropped, which adds t * b = 0
 * where it skipped (exact for integers; for floats a zero, the sign of a
 * zero sum aside, and the runtime falls back on non-finite operands).  So
 * the loop must hold the contraction alone (and the steps of its loops),
 * the guard's variable a factor of its product and not its accumulator. */
static int check_zguards(az *z)
{
	const mp_nest *n = z->n;
	int l, s;

	for (l = 0; l < n->nloops; l++) {
		int v = n->loop[l].zguard, ok = 1;
		const char *gs;

		if (v < 0)
			continue;
		gs = n->loop[l].zguard_src[0] ? n->loop[l].zguard_src : vn(n, v);
		/* an element's guard, v assigned under it: v after the nest
		   is its value where the element was last nonzero */
		if (n->loop[l].zguard_src[0] && n->var[v].used_after)
			return refuse(z, loop_loc(n, l), "loop '%s' runs under 'if (%s != 0)' and "
				      "'%s', assigned under that guard, is used after the nest; "
				      "mixprec drops the guard only where it is not", ln(n, l), gs,
				      vn(n, v));
		/* ... nor read by what runs outside the guarded loop: there
		   the guard kept its old value */
		for (s = 0; s < n->nstmts && n->loop[l].zguard_src[0]; s++) {
			const mp_stmt *st = &n->stmt[s];

			if (within(n, st->loop, l) || st->lhs_var == v || st->rhs < 0 ||
			    !expr_reads_var(n, st->rhs, v, 0))
				continue;
			return refuse(z, st->loc, "'%s', assigned under the guard 'if (%s != 0)' "
				      "of loop '%s', is read outside that loop; mixprec drops the "
				      "guard only where it is not", vn(n, v), gs, ln(n, l));
		}
		for (s = 0; s < n->nstmts && ok; s++) {
			int q = n->stmt[s].loop;

			while (q >= 0 && q != l)
				q = n->loop[q].parent;
			if (q != l)
				continue;
			/* a pointer stepped under the guard (`C[..] += t * *pb++`)
			   moves only where t != 0: the rewrite would step it
			   every time (found by a review helper) */
			if (n->stmt[s].ivstep)
				return refuse(z, loop_loc(n, l), "loop '%s' runs under 'if (%s != 0)' "
					      "and steps a variable ('%s'), which the guard skips "
					      "too; mixprec drops that guard only where the loop "
					      "holds the contraction alone", ln(n, l), gs,
					      n->stmt[s].lhs_var >= 0 ? vn(n, n->stmt[s].lhs_var) : "?");
			ok = s == z->c.stmt;
		}
		const mp_expr *m = ok ? ex(n, z->c.prod) : NULL;
		if (!m || m->kind != MP_X_MUL || z->c.acc_var == v || !is_factor(n, z->c.prod, v, 0))
			return refuse(z, loop_loc(n, l), "loop '%s' runs under 'if (%s != 0)'; "
				      "mixprec drops that guard only where the loop holds the "
				      "contraction alone, '%s' a factor of its product",
				      ln(n, l), gs, gs);
		/* what the guard skipped also leaves the loops' iterators as
		   they were: where every t was 0, `i` after the nest keeps
		   its value from before it (fuzz seed 1202593) */
		for (int q = 0; q < n->nloops; q++) {
			if (!within(n, q, l) || !iter_observed(n, n->loop[q].iter))
				continue;
			return refuse(z, loop_loc(n, l), "loop '%s' runs under 'if (%s != 0)' and "
				      "the iterator '%s' is %s; mixprec drops that guard only "
				      "where the iterators of the loops under it are not read "
				      "outside them", ln(n, l), gs, ln(n, q),
				      n->var[n->loop[q].iter].used_after ? "used after the nest"
				      : "read after its loop");
		}
	}
	return 0;
}

static int check_guard(az *z)
{
	const mp_nest *n = z->n;
	mp_plan *plan = z->plan;
	const mp_stmt *st = &n->stmt[z->c.stmt];
	unsigned g = st->guarded ? st->conds : 0, sel;
	int l, c, t, x, a;

	/* a select on an operand (`inside ? in[...] : 0`): the padding is its
	   other value; on the operand that becomes A.  A select anywhere else
	   (`s + (K > 0 ? a[-1] : 0)` in an epilogue) is code that runs as
	   written: the plan keeps it (no fused epilogue, try_fuse) */
	for (a = 0; a < n->naccesses; a++)
		if (n->access[a].conds && a != z->c.f[0].access && a != z->c.f[1].access)
			z->select_other = 1;
	if (n->access[z->c.f[1].access].conds && !n->access[z->c.f[0].access].conds &&
	    plan->loop_j >= 0 && plan->loop_i2 < 0)
		swap_roles(z);
	if (n->access[z->c.f[1].access].conds)
		return refuse(z, st->loc, "both operands of the sum into '%s' are read under a "
			      "condition (or the right one with a second row loop); padding "
			      "supplies one operand", acc_name(z));
	for (l = 0; l < n->nloops; l++) {
		if (!n->loop[l].conds)
			continue;
		if (l != plan->loop_k && !is_sum_loop(plan, l))
			return refuse(z, loop_loc(n, l), "loop '%s' runs under a condition; "
				      "only the reduction loops (a convolution's window "
				      "loops: padding) may", ln(n, l));
		g |= n->loop[l].conds;
	}
	/* a select on A pads with its other value; the terms a guard leaves
	   out (of the update or of a window loop: g so far) need a term of 0,
	   which that value gives only when it is 0 and A has no zero point */
	sel = n->access[z->c.f[0].access].conds;
	if (sel) {
		if (g && !(n->access[z->c.f[0].access].padv == 0 && z->c.f[0].z < 0))
			return refuse(z, st->loc, "the sum into '%s' is guarded and its operand '%s' "
				      "is a conditional value other than 0 (or has a zero point): "
				      "one padding value cannot give both", acc_name(z),
				      an(n, z->c.f[0].access));
		plan->pad_const = 1;
		plan->pad_value = n->access[z->c.f[0].access].padv;
		g |= sel;
	}
	if (!g)
		return 0;
	if (plan->loop_g >= 0 && !plan->g_batch)
		return refuse(z, st->loc, "the sum into '%s' is guarded by a condition; "
			      "padding conditions are not supported with quantization "
			      "groups", acc_name(z));
	/* the padded operand is A: when the conditions name j's loop and not
	   i's, the operands change places (`filter * input` as written) */
	if (!sel && plan->loop_j >= 0 && plan->loop_i2 < 0) {
		int vi = n->loop[plan->loop_i].iter, vj = n->loop[plan->loop_j].iter;
		int ui = 0, uj = 0;

		for (c = 0; c < n->nconds; c++)
			if (g & (1u << c)) {
				ui |= mp_aff_uses_var(&n->cond[c].e, vi);
				uj |= mp_aff_uses_var(&n->cond[c].e, vj);
			}
		if (uj && !ui)
			swap_roles(z);
	}
	for (c = 0; c < n->nconds; c++) {
		if (!(g & (1u << c)))
			continue;
		for (t = 0; t < n->cond[c].e.n; t++)
			for (x = 0; x < 2; x++) {
				int v = x ? n->cond[c].e.t[t].v2 : n->cond[c].e.t[t].v1, vl;

				if (v < 0 || n->var[v].kind == MP_VAR_PARAM)
					continue;
				vl = n->var[v].kind == MP_VAR_ITER ? n->var[v].loop : -1;
				if (vl < 0 || !(vl == plan->loop_i || vl == plan->loop_i2 ||
						vl == plan->loop_k || is_sum_loop(plan, vl)))
					return refuse(z, n->cond[c].loc ? n->cond[c].loc : st->loc,
						      "the condition guarding the sum into '%s' "
						      "depends on '%s'; padding conditions may "
						      "depend only on the loops of the rows ('%s'%s%s%s) "
						      "and of the reduction", acc_name(z), vn(n, v),
						      ln(n, plan->loop_i),
						      plan->loop_i2 >= 0 ? ", '" : "",
						      plan->loop_i2 >= 0 ? ln(n, plan->loop_i2) : "",
						      plan->loop_i2 >= 0 ? "'" : "");
			}
	}
	plan->guard = g;
	return 0;
}

/* -------------------------------------------------------------- driver */

static void plan_init(mp_plan *plan, const mp_nest *n, const mp_pragma *p)
{
	int i;

	memset(plan, 0, sizeof(*plan));
	plan->reason_loc = n->nloops > 0 ? n->loop[0].loc : 0;
	plan->loop_i = plan->loop_j = plan->loop_k = plan->loop_g = plan->loop_i2 = -1;
	plan->red_stmt = plan->red_loop = -1;
	plan->acc_a = plan->acc_b = -1;
	plan->za_expr = plan->zb_expr = -1;
	plan->acc_c = plan->acc_var = plan->acc_mem = -1;
	plan->k_extent_static = -1;
	plan->descend = -1;
	plan->bound_static = -1;
	plan->mode = MP_OUT_TILE;
	plan->epi = MP_FUSE_STORE;
	plan->epi_out = plan->epi_bias = -1;
	plan->epi_out_type = MP_TY_OTHER;
	plan->src_float = 0;
	plan->src_type = MP_TY_OTHER;
	plan->alpha_expr = -1;
	plan->scale_a.kind = plan->scale_b.kind = MP_SS_DYNAMIC;
	plan->sspec_a = plan->sspec_b = -1;
	for (i = 0; i < 6; i++)
		plan->epi_arg[i] = -1;
	plan->ncontr = 1;
	plan->target = p->target;
	plan->tile_m = p->tile_m;
	plan->tile_n = p->tile_n;
	plan->tile_k = p->tile_k;
}

/* The description's loops and iterators agree: each loop is driven by an
 * ITER variable that names it back (an ITER driving no loop is refused
 * where a subscript or bound uses it).  A glue
 * that got this wrong would have the kernels index operands with a value
 * the loops never give the iterator; refuse instead. */
static int check_iterators(az *z)
{
	const mp_nest *n = z->n;
	int l, v;

	for (l = 0; l < n->nloops; l++) {
		v = n->loop[l].iter;
		if (v < 0 || v >= n->nvars || n->var[v].kind != MP_VAR_ITER ||
		    n->var[v].loop != l)
			return refuse(z, n->loop[l].loc, "internal error: the iterator of "
				      "loop %d is not described as its iterator", l);
	}
	return 0;
}

/* The loops enclosing statement s, outermost first (as
 * mp_model_stmt_loops); -1 on a broken parent chain. */
static int stmt_chain(const mp_nest *n, int s, int *chain)
{
	int tmp[MP_MAX_LOOPS], d = 0, i, l;

	if (s < 0 || s >= n->nstmts)
		return -1;
	for (l = n->stmt[s].loop; l != -1; l = n->loop[l].parent) {
		if (l < 0 || l >= n->nloops || d >= MP_MAX_LOOPS)
			return -1;
		tmp[d++] = l;
	}
	for (i = 0; i < d; i++)
		chain[i] = tmp[d - 1 - i];
	return d;
}

/* plan.range_lo / range_hi: the range of every loop's iterator over the
 * nest, as forms over PARAMs, for the written ranges the runtime checks.
 * A bound naming iterators takes their ranges (their loops enclose it,
 * so they come first): the low end of c*i is c*range_lo(i) for c > 0,
 * c*range_hi(i) for c < 0 (a superset of the values the loop takes). */
static int loop_ranges(az *z)
{
	const mp_nest *n = z->n;
	mp_plan *plan = z->plan;
	unsigned char done[MP_MAX_LOOPS] = { 0 };
	int pass, l, b, t, left = n->nloops;

	for (pass = 0; pass < MP_MAX_LOOPS + 1 && left; pass++)
		for (l = 0; l < n->nloops; l++) {
			const mp_loop *lp = &n->loop[l];
			int ready = 1, bad = 0;

			if (done[l])
				continue;
			for (b = 0; b < 2; b++) {
				const mp_aff *a = b ? &lp->hi : &lp->lo;

				for (t = 0; t < a->n; t++) {
					int v = a->t[t].v1, w = a->t[t].v2;
					int iv = v >= 0 && v < n->nvars && n->var[v].kind == MP_VAR_ITER;
					int iw = w >= 0 && w < n->nvars && n->var[w].kind == MP_VAR_ITER;

					if (iw || (iv && w >= 0))
						bad = 1;   /* an iterator times a variable */
					else if (iv && (!within(n, l, n->var[v].loop) ||
							n->var[v].loop == l))
						bad = 1;
					else if (iv && !done[n->var[v].loop])
						ready = 0;
				}
			}
			if (bad)
				return refuse(z, lp->loc, "the bounds of loop '%s' are not "
					      "affine in the parameters and the iterators of the "
					      "loops around it", ln(n, l));
			if (!ready)
				continue;
			for (b = 0; b < 2; b++) {
				const mp_aff *a = b ? &lp->hi : &lp->lo;
				mp_aff *r = b ? &plan->range_hi[l] : &plan->range_lo[l];

				mp_aff_const(r, a->cst);
				for (t = 0; t < a->n && !bad; t++) {
					const mp_term *tm = &a->t[t];
					mp_aff one;

					if (n->var[tm->v1].kind == MP_VAR_ITER) {
						int lv = n->var[tm->v1].loop;
						int use_hi = (tm->coef > 0) == (b == 1);

						bad = mp_aff_scale(&one, use_hi ? &plan->range_hi[lv]
								   : &plan->range_lo[lv], tm->coef) < 0;
					} else {
						one.cst = 0;
						one.n = 1;
						one.t[0] = *tm;
					}
					bad = bad || mp_aff_add(r, r, &one) < 0;
				}
			}
			if (bad)
				return refuse(z, lp->loc, "the range of loop '%s' over the nest "
					      "has too many terms", ln(n, l));
			done[l] = 1;
			left--;
		}
	if (left)
		return refuse(z, loop_loc(n, 0), "internal error: loops whose bounds "
			      "name each other");
	return 0;
}

static int analyze(az *z)
{
	const mp_nest *n = z->n;
	mp_plan *plan = z->plan;
	char err[MP_REASON_LEN] = "";
	int chain[MP_MAX_LOOPS], d;

	if (n->error[0])
		return refuse(z, loop_loc(n, 0), "%s", n->error);
	if (n->nloops == 0)
		return refuse(z, 0, "'#pragma mixprec' is not followed by a loop nest");
	for (d = 0; d < n->nloops; d++)
		if (n->loop[d].after >= 0)
			/* mp_reroll did not fold it */
			return refuse(z, loop_loc(n, d), "loop '%s' has no initial value: it "
				      "continues where the loop before it on '%s' stopped, which is "
				      "understood only as the remainder loop of a reduction unrolled by "
				      "that loop's step (the same update at the offsets 0 .. step-1 of "
				      "'%s', nothing else in either loop)", ln(n, d), ln(n, d), ln(n, d));
	if (check_iterators(z) < 0)
		return -1;
	if (find_candidate(z) < 0 || check_source_and_pragma(z) < 0 ||
	    check_types(z) < 0 || check_statements(z) < 0 || check_zguards(z) < 0)
		return -1;
	/* what needs no ISL first: a nest refused for its shape costs no
	   model (the loops around the contraction are those the model
	   would give, mp_model_stmt_loops) */
	d = stmt_chain(n, z->c.stmt, chain);
	if (d >= 0 && (check_operand_subscripts(z, chain, d) < 0 ||
		       assign_roles(z, chain, d) < 0 || check_guard(z) < 0 ||
		       check_var_steps(z) < 0 || check_tiny_window(z) < 0 ||
		       check_tri(z, chain, d) < 0 ||
		       check_scales(z) < 0))
		return -1;
	z->m = mp_model_build(n, err, sizeof(err));
	if (!z->m) {
		z->model_budget = mp_model_err_is_budget(err);
		return refuse(z, loop_loc(n, 0), z->model_budget ? "%s"
			      : "internal error: %s", err);
	}
	d = mp_model_stmt_loops(z->m, z->c.stmt, chain);
	plan->red_stmt = z->c.stmt;
	if (choose_mode(z, chain, d) < 0 || check_loops(z, chain, d) < 0 ||
	    check_walks(z) < 0 || check_writes(z) < 0 || check_dependences(z) < 0 ||
	    compute_bound(z) < 0)
		return -1;
	try_fuse(z, chain, d);
	if (plan->loop_i2 >= 0 && plan->mode == MP_OUT_TILE &&
	    (plan->loop_g >= 0 || plan->tri ||
	     (plan->nsum == 0 && n->stmt[z->c.stmt].loop != plan->loop_k))) {
		/* the tile is read by (i2, i, j) for integer sources, the
		   reduction loop holding the sum alone, without groups or a
		   triangle; otherwise mp_analyze plans again without */
		z->m2_tile = 1;
		return refuse(z, loop_loc(n, plan->loop_i2), "a second row loop '%s' in tile "
			      "mode", ln(n, plan->loop_i2));
	}
	plan->acc_a = z->c.f[0].access;
	plan->acc_b = z->c.f[1].access;
	plan->a_type = z->c.f[0].load;
	plan->b_type = z->c.f[1].load;
	plan->za_expr = z->c.f[0].z;
	plan->zb_expr = z->c.f[1].z;
	plan->zsign_a = z->c.f[0].z >= 0 ? z->c.f[0].zsign : 0;
	plan->zsign_b = z->c.f[1].z >= 0 ? z->c.f[1].zsign : 0;
	plan->src_float = z->fsrc;
	plan->src_type = z->fsrc ? z->ftype : MP_TY_OTHER;
	plan->alpha_expr = z->c.alpha;   /* float: in double; int: the tile, mod 2^32 */
	if (loop_ranges(z) < 0)
		return -1;
	if (plan->loop_j < 0)
		outer_hint(z);
	fill_remarks(z);
	plan->ok = 1;
	plan->reason[0] = 0;
	return 0;
}

/* Does statement S look like a contraction (acc = acc + x*y)?  The first
 * guess of the set of contractions of an unrolled nest. */
static int reduction_like(const mp_nest *n, int s)
{
	const mp_stmt *st = &n->stmt[s];
	const mp_expr *add = ex(n, st->rhs), *a, *b;
	int acc_read = -1;

	if ((st->kind != MP_S_ASSIGN && st->kind != MP_S_STORE) || !add ||
	    (add->kind != MP_X_ADD && add->kind != MP_X_SUB))
		return 0;
	a = ex(n, peel_casts(n, add->a));
	b = ex(n, peel_casts(n, add->b));
	if (add->kind == MP_X_SUB)   /* acc - a*b */
		return reads_acc(n, st, add->a, &acc_read) && b && b->kind == MP_X_MUL;
	return (reads_acc(n, st, add->a, &acc_read) && b && b->kind == MP_X_MUL) ||
	       (reads_acc(n, st, add->b, &acc_read) && a && a->kind == MP_X_MUL);
}

static int clip_check(const mp_nest *n, mp_plan *plan);

int mp_analyze_all(mp_nest *n, const mp_pragma *p, mp_plan *plans, int max)
{
	unsigned char set[MP_MAX_STMTS], next[MP_MAX_STMTS], fwd[MP_MAX_STMTS];
	int s, count = 0, round, i, k, t;

	if (max < 1)
		return 0;
	if (p && p->prec == MP_PREC_AUTO)
		return mp_analyze_auto(n, p, plans, max);
	if (mp_analyze(n, p, &plans[0]) || max < 2)
		return plans[0].ok;
	/* a MAX/MIN window clip_convert refused: the nest is not in a form
	   analyze() reads right */
	for (s = 0; s < n->nloops; s++)
		if (n->loop[s].clip & 3)
			return 0;
	/* several contractions: rows unrolled into accumulators of one
	   reduction loop.  The set is the statements that match when the
	   others may share the locals they read (until it is stable). */
	memset(set, 0, sizeof(set));
	for (s = 0; s < n->nstmts; s++)
		count += set[s] = (unsigned char)reduction_like(n, s);
	if (count < 2)
		return 0;
	for (round = 0; round < 4; round++) {
		memset(next, 0, sizeof(next));
		memset(fwd, 0, sizeof(fwd));
		count = 0;
		for (s = 0; s < n->nstmts; s++) {
			cand c;

			if (!set[s])
				continue;
			memset(&c, 0, sizeof(c));
			set[s] = 0;   /* the others, without s */
			c.others = set;
			if (match_stmt(n, s, &c)) {
				next[s] = 1, count++;
				for (t = 0; t < n->nstmts; t++)
					fwd[t] |= c.fwd[t];
			}
			set[s] = 1;
		}
		if (!memcmp(set, next, sizeof(set)))
			break;
		memcpy(set, next, sizeof(set));
	}
	if (count < 2) {
		mp_analyze(n, p, &plans[0]);   /* its reason */
		return 0;
	}
	if (count > max) {
		plan_init(&plans[0], n, p);
		snprintf(plans[0].reason, sizeof(plans[0].reason), "the nest holds %d "
			 "contractions; at most %d per '#pragma mixprec' are supported", count, max);
		return 0;
	}
	for (s = 0, i = 0; s < n->nstmts; s++) {
		az z;

		if (!set[s])
			continue;
		plan_init(&plans[i], n, p);
		memset(&z, 0, sizeof(z));
		z.n = n;
		z.p = p;
		z.plan = &plans[i];
		memcpy(z.others, set, sizeof(set));
		memcpy(z.others_fwd, fwd, sizeof(fwd));
		z.others[s] = 0;
		z.nothers = count - 1;
		analyze(&z);
		if (z.m && mp_model_over_budget(z.m))   /* as in mp_analyze */
			refuse(&z, loop_loc(n, 0), MP_MODEL_BUDGET_FMT, mp_model_budget());
		mp_model_free(z.m);
		if (!plans[i].ok) {
			if (i)
				plans[0] = plans[i];
			return 0;
		}
		/* one reduction loop for all, replaced in tile mode */
		if (plans[i].mode != MP_OUT_TILE || plans[i].red_loop != plans[0].red_loop ||
		    n->stmt[plans[i].red_stmt].loop != plans[i].red_loop) {
			plans[0].ok = 0;
			snprintf(plans[0].reason, sizeof(plans[0].reason), "the %d contractions "
				 "of the nest do not share one innermost reduction loop", count);
			plans[0].reason_loc = n->stmt[s].loc;
			return 0;
		}
		i++;
	}
	if (!clip_check(n, &plans[0]))
		return 0;
	for (k = 0; k < count; k++)
		plans[k].ncontr = count;
	return count;
}

/* The factor on SIDE of product E without its sign, where it is written
 * negated (`-b`, or `zb - b` with zb invariant): an expression of the
 * operand (`b`, `b - zb`, added to the nest), or -1. */
static int unneg_factor(mp_nest *n, int e, int side)
{
	const mp_expr *m = &n->expr[e];
	int f = side ? m->b : m->a;
	const mp_expr *y = m->kind == MP_X_MUL ? ex(n, f) : NULL;
	int fl = m->type == MP_TY_F32 || m->type == MP_TY_F64;
	mp_expr t;

	/* signed int or float: the factor's -1 a value of the type */
	if (!y || y->type != m->type || (!fl && m->type != MP_TY_S32))
		return -1;
	if (y->kind == MP_X_NEG && y->a >= 0)
		return y->a;
	if (y->kind == MP_X_SUB && y->a >= 0 && y->b >= 0 &&
	    is_invariant_value(n, y->a, fl) && !is_invariant_value(n, y->b, fl)) {
		memset(&t, 0, sizeof(t));
		t.kind = MP_X_SUB;
		t.type = y->type;
		t.a = y->b;
		t.b = y->a;
		t.var = t.access = -1;
		return mp_nest_add_expr(n, &t);
	}
	return -1;
}

/* A factor of a product written negated: `-b * a` (GCC folds `b * -1 * a`
 * so), or `(zb - b) * a` (GCC folds `(b - zb) * -1 * a` so), is read as
 * clang's front end leaves it, `(b) * -1` and `(b - zb) * -1`: a factor
 * of -1 the operand's scaling takes (split_scaled).  Exact: in wrapping
 * integer arithmetic -x == x * -1 and p - q == (q - p) * -1, and IEEE
 * negation and subtraction are symmetric in sign. */
static void fold_neg_factors(mp_nest *n)
{
	int nx = n->nexprs;

	for (int e = 0; e < nx; e++) {
		int un[2];

		for (int side = 0; side < 2; side++)
			un[side] = unneg_factor(n, e, side);
		if (un[0] >= 0 && un[1] >= 0) {
			/* `(zx - x) * -a`: the two signs cancel (exact as above) */
			n->expr[e].a = un[0];
			n->expr[e].b = un[1];
			continue;
		}
		for (int side = 0; side < 2; side++) {
			mp_expr *m = &n->expr[e];
			int x = un[side];
			mp_expr t;

			if (x < 0)
				continue;
			memset(&t, 0, sizeof(t));
			t.kind = MP_X_CONST;
			t.type = m->type;
			t.cst = -1;
			t.fcst = -1.0;
			t.a = t.b = t.var = t.access = -1;
			int c = mp_nest_add_expr(n, &t);
			if (c < 0)
				return;
			t.kind = MP_X_MUL;
			t.a = x;
			t.b = c;
			t.cst = 0;
			t.fcst = 0;
			int mm = mp_nest_add_expr(n, &t);
			if (mm < 0)
				return;
			m = &n->expr[e];
			if (side)
				m->b = mm;
			else
				m->a = mm;
		}
	}
}

/* Is E the constant zero ZNEG says: for floats 0.0 (ZNEG 0) or -0.0 (1),
 * for integers 0? */
static int is_zero_const(const mp_nest *n, int e, int zneg)
{
	const mp_expr *c = ex(n, e);

	return c && c->kind == MP_X_CONST &&
	       (mp_scalar_is_int(c->type) ? c->cst == 0
		: c->fcst == 0.0 && !signbit(c->fcst) == !zneg);
}

/* x - 0 and x + 0 are x (a zero point written as the literal 0:
 * `(int16_t)(b - 0)`, `(int16_t)(b + 0)`; GCC's front end folds them,
 * clang's keeps them): a conversion to its own type, which the operand
 * matching looks through.  Exact for integers; for IEEE values x - 0.0 and
 * x + (-0.0) are x (-0.0 - 0.0 is -0.0), x + 0.0 is not (-0.0 + 0.0 is
 * +0.0) and stays. */
static void fold_sub_zero(mp_nest *n)
{
	for (int e = 0; e < n->nexprs; e++) {
		mp_expr *x = &n->expr[e];
		const mp_expr *a = x->kind == MP_X_SUB || x->kind == MP_X_ADD ? ex(n, x->a) : NULL;
		const mp_expr *b = a ? ex(n, x->b) : NULL;

		if (!b)
			continue;
		if (b->type == x->type && a->type == x->type && x->kind == MP_X_ADD &&
		    is_zero_const(n, x->a, 1)) {
			x->kind = MP_X_CAST;   /* 0 + y */
			x->a = x->b;
			x->b = -1;
		} else if (a->type == x->type && is_zero_const(n, x->b, x->kind == MP_X_ADD)) {
			x->kind = MP_X_CAST;   /* y - 0, y + 0 */
			x->b = -1;
		}
	}
}

/* The leaves of int32 product E (through int32 MUL nodes and negations,
 * a negation a factor -1): constants multiplied into *c (mod 2^32), the
 * others in x[] (at most 3; -1 when more); the number of constant leaves
 * in *nc. */
static int s32_leaves(const mp_nest *n, int e, int *x, int nx, uint32_t *c, int *nc, int depth)
{
	const mp_expr *m = ex(n, e);

	if (!m || depth > 16 || nx < 0)
		return -1;
	if (m->type == MP_TY_S32 && m->kind == MP_X_MUL && m->a >= 0 && m->b >= 0) {
		nx = s32_leaves(n, m->a, x, nx, c, nc, depth + 1);
		return s32_leaves(n, m->b, x, nx, c, nc, depth + 1);
	}
	if (m->type == MP_TY_S32 && m->kind == MP_X_NEG && m->a >= 0) {
		*c *= UINT32_MAX;   /* times -1 */
		(*nc)++;
		return s32_leaves(n, m->a, x, nx, c, nc, depth + 1);
	}
	if (m->kind == MP_X_CONST && mp_scalar_is_int(m->type)) {
		*c *= (uint32_t)m->cst;
		(*nc)++;
		return nx;
	}
	if (nx >= 3)
		return -1;
	x[nx] = e;
	return nx + 1;
}

/* An int32 product of two operands with several constant factors (`2 * a
 * * b * 3`, `-a * 3 * b`, `2 * a * b * -1`): GCC's front end folds the
 * constants into one factor, clang's keeps them where they stand.  Read it
 * as one constant times a * b, the form split_scaled takes: exact, int32
 * multiplication being commutative and associative mod 2^32.  Only the
 * product added or subtracted by a statement, its own node rebuilt. */
static void fold_const_factors(mp_nest *n)
{
	for (int s = 0; s < n->nstmts; s++) {
		int r = n->stmt[s].rhs;
		const mp_expr *add = ex(n, r);

		if (!add || (add->kind != MP_X_ADD && add->kind != MP_X_SUB))
			continue;
		for (int side = 0; side < 2; side++) {
			add = ex(n, r);
			int p = side ? add->b : add->a;
			const mp_expr *m = ex(n, p);
			int x[3], nc = 0, nx;
			uint32_t c = 1;
			mp_expr t;

			if (!m || m->type != MP_TY_S32 || (m->kind != MP_X_MUL && m->kind != MP_X_NEG))
				continue;
			nx = s32_leaves(n, p, x, 0, &c, &nc, 0);
			if (nx != 2 || nc < 2)
				continue;
			memset(&t, 0, sizeof(t));
			t.var = t.access = -1;
			t.type = MP_TY_S32;
			t.kind = MP_X_MUL;
			t.a = x[0];
			t.b = x[1];
			int ab = mp_nest_add_expr(n, &t);
			t.kind = MP_X_CONST;
			t.a = t.b = -1;
			t.cst = (int32_t)c;
			t.fcst = (double)t.cst;
			int k = mp_nest_add_expr(n, &t);
			if (ab < 0 || k < 0)
				return;
			t.kind = MP_X_MUL;
			t.cst = 0;
			t.fcst = 0;
			t.a = k;
			t.b = ab;
			int np = mp_nest_add_expr(n, &t);
			if (np < 0)
				return;
			if (side)
				n->expr[r].b = np;
			else
				n->expr[r].a = np;
		}
	}
}

/* E without the negations of type T around it (`-(-y)`; for integers
 * also `0 - y`: neg_arg): the inner expression, their number's parity in
 * *NEG. */
static int peel_negs(const mp_nest *n, int e, mp_scalar t, int *neg)
{
	const mp_expr *y;
	int a;

	for (int d = 0; d < 16 && (y = ex(n, e)) && y->type == t && (a = neg_arg(n, y)) >= 0;
	     d++) {
		e = a;
		*neg ^= 1;
	}
	return e;
}

/* Sums and differences with negated terms of their own type, read as the
 * subtraction or addition the other front end makes of them: x - (-y)
 * and x + (-y) are x + y and x - y, -y + x is x - y, -(-y) is y, and for
 * integers 0 - y is -y.  GCC keeps `C[i] -= -(a*b)` as a subtraction of a
 * negation where its subscripts involve a VLA's row size, clang keeps
 * `C += -(a*b)` and `C = -(a*b) + C`, and both keep `C += -(-(a*b))` and
 * `C += 0 - a*b` in one form or another; the contraction is then found in
 * all of them.  Exact: int32/int64 arithmetic wraps, IEEE negation is
 * exact and x - y is x + (-y); `0.0 - y` is not `-y` (signed zeros), so
 * that one only for integers.  A sum of two negated terms is left. */
static void fold_sub_neg(mp_nest *n)
{
	for (int e = 0; e < n->nexprs; e++) {
		mp_expr *x = &n->expr[e];
		int na = 0, nb = 0, a, b;

		if ((x->kind != MP_X_ADD && x->kind != MP_X_SUB) || x->a < 0 || x->b < 0)
			continue;
		a = peel_negs(n, x->a, x->type, &na);
		b = peel_negs(n, x->b, x->type, &nb);
		if (na) {
			if (!nb && x->kind == MP_X_ADD) {
				/* -a + b: b - a */
				x->a = b;
				x->b = a;
				x->kind = MP_X_SUB;
			}
			continue;   /* (-a - b, -a +/- -b: left) */
		}
		x->a = a;   /* an even number of negations */
		x->b = b;
		if (nb)
			x->kind = x->kind == MP_X_ADD ? MP_X_SUB : MP_X_ADD;
	}
}

static int iter_term(const mp_nest *n, const mp_aff *a)
{
	for (int t = 0; t < a->n; t++)
		if ((a->t[t].v1 >= 0 && n->var[a->t[t].v1].kind == MP_VAR_ITER) ||
		    (a->t[t].v2 >= 0 && n->var[a->t[t].v2].kind == MP_VAR_ITER))
			return 1;
	return 0;
}

/* A triangular reduction (issue 9: TRMM's `for (k = i + 1; k < m; k++)`,
 * TRMV's `for (j = 0; j <= i; j++) y[i] += L[i][j] * x[j]`) becomes the
 * padded form the plan already knows (`for (k = 1; k < m; k++) if (k >=
 * i + 1) ...`): reduction loop K runs over the hull of the ranges it takes
 * over the nest, and its bounds that name the output loop's iterator
 * become conditions on every statement inside it.  The statements run at
 * the same points as before (the hull holds every range), so the model,
 * the legality checks and the plan see the same program; the kernels
 * then add only the terms inside the bounds (padding: the runtime's copy
 * of the operand the conditions index holds its zero point, or 0, where
 * they fail), and read the other operand over the hull only.  The hull
 * comes from ISL (mp_model_hull over the output loop and K): the exact
 * projection of the visited points onto K, proven one interval for every
 * parameter value where the output loop runs (elsewhere the call has no
 * output), so each row of that operand the kernels read is read
 * by the loops as written.  Returns 0 when N was converted, -1 when it
 * cannot be (N is then partly changed: work on a copy). */
static int tri_red_convert(mp_nest *n, int k)
{
	const mp_loop *lp = &n->loop[k];
	int loops[2], nl = 0, r, s, c, b, t;
	unsigned bits = 0;
	mp_aff lo[2], hi[2], e, kv;
	char err[MP_REASON_LEN];
	mp_model *m;

	for (b = 0; b < 2; b++) {
		const mp_aff *a = b ? &lp->hi : &lp->lo;

		for (t = 0; t < a->n; t++) {
			int v = a->t[t].v1;

			if (a->t[t].v2 >= 0)
				return -1;
			if (v < 0 || n->var[v].kind != MP_VAR_ITER)
				continue;
			if (nl && loops[0] != n->var[v].loop)
				return -1;
			loops[0] = n->var[v].loop;
			nl = 1;
		}
	}
	if (!nl || loops[0] < 0 || loops[0] == k || !within(n, k, loops[0]))
		return -1;
	loops[nl++] = k;
	m = mp_model_build(n, err, sizeof(err));
	r = m ? mp_model_hull(m, loops, 2, lo, hi) : mp_model_err_is_budget(err) ? -2 : -1;
	if (m && mp_model_over_budget(m))
		r = -2;
	mp_model_free(m);
	if (r)
		return r == -2 ? -2 : -1;
	mp_aff_var(&kv, lp->iter);
	if (iter_term(n, &lp->lo)) {   /* k - lo >= 0 */
		if (mp_aff_scale(&e, &lp->lo, -1) < 0 || mp_aff_add(&e, &e, &kv) < 0 ||
		    (c = mp_nest_add_cond(n, &e, lp->loc)) < 0)
			return -1;
		bits |= 1u << c;
	}
	if (iter_term(n, &lp->hi)) {   /* hi - k >= 0 */
		if (mp_aff_scale(&e, &kv, -1) < 0 || mp_aff_add(&e, &e, &lp->hi) < 0 ||
		    (c = mp_nest_add_cond(n, &e, lp->loc)) < 0)
			return -1;
		bits |= 1u << c;
	}
	if (!bits || iter_term(n, &lo[1]) || iter_term(n, &hi[1]))
		return -1;
	for (c = 0; c < n->nloops; c++)
		if (within(n, c, k) && n->loop[c].conds)
			return -1;
	n->loop[k].lo = lo[1];
	n->loop[k].hi = hi[1];
	for (s = 0; s < n->nstmts; s++) {
		mp_stmt *st = &n->stmt[s];

		if (st->loop < 0 || !within(n, st->loop, k))
			continue;
		/* a condition of its own (a band clipped by `if (k >= 0 && k <
		   m)`) joins the bounds when mixprec reads the whole of it: the
		   term is added where both hold.  One naming k alone cuts the
		   range below the hull; the runtime narrows k to it (clip_k),
		   so the other operand is read only where the loop reads it */
		if (st->guarded && !st->conds)
			return -1;
		st->guarded = 1;
		st->conds |= bits;
	}
	return 0;
}

/* A window clipped by MAX/MIN bounds (mp_loop.clip: CMSIS-NN's depthwise
 * `for (k = MAX(0, -base); k < MIN(K, W - base); k++)`) becomes the padded
 * form a guard gives (`for (k = 0; k < K; k++) if (k >= -base && k < W -
 * base) ...`): the loop runs over the bounds that name no iterator, the
 * others become conditions on every statement inside it, which then runs
 * exactly where the loop as written ran it.  What the trip count itself
 * decides (a pointer stepped in the loop; the iterator's value outside
 * it: mp_analyze checks it on the plan) would change: refused.  NULL when
 * done, else why not (*loc: the loop). */
static const char *clip_convert(mp_nest *n, int *loc)
{
	for (int l = 0; l < n->nloops; l++) {
		mp_loop *lp = &n->loop[l];
		unsigned bits = 0;
		mp_aff kv, e, t;
		int b, c, s;

		if (!(lp->clip & 3))
			continue;
		*loc = lp->loc;
		if (lp->step != 1 || lp->ne_exit || lp->step_var >= 0 || lp->after >= 0 ||
		    lp->conds)
			return "a loop bounded by MAX/MIN steps by one from its start to a "
			       "'<' or '<=' bound, and runs unconditionally";
		mp_aff_var(&kv, lp->iter);
		for (b = 0; b < 2; b++) {
			mp_aff *x = b ? &lp->hi : &lp->lo, *y = b ? &lp->hi2 : &lp->lo2;

			if (!(lp->clip & (1u << b)))
				continue;
			if (iter_term(n, x)) {
				if (iter_term(n, y))
					return "both operands of a MAX/MIN bound name an iterator";
				t = *x, *x = *y, *y = t;
			}
			/* start: k - lo2 >= 0; end: hi2 - k >= 0 */
			if (b ? mp_aff_scale(&e, &kv, -1) < 0 || mp_aff_add(&e, &e, y) < 0
			      : mp_aff_scale(&e, y, -1) < 0 || mp_aff_add(&e, &e, &kv) < 0)
				return "a MAX/MIN bound has too many terms";
			if ((c = mp_nest_add_cond(n, &e, lp->loc)) < 0)
				return "the nest has too many conditions";
			bits |= 1u << c;
		}
		for (c = 0; c < n->nloops; c++)
			if (c != l && within(n, c, l) && n->loop[c].conds)
				return "a loop inside a loop bounded by MAX/MIN runs under a condition";
		for (s = 0; s < n->nstmts; s++) {
			mp_stmt *st = &n->stmt[s];

			if (st->loop < 0 || !within(n, st->loop, l))
				continue;
			if (st->guarded && !st->conds)
				return "a statement inside a loop bounded by MAX/MIN runs under a "
				       "condition mixprec cannot read";
			if (st->kind == MP_S_ASSIGN && st->ptr_assign)
				return "a pointer steps inside a loop bounded by MAX/MIN";
			st->guarded = 1;
			st->conds |= bits;
		}
		lp->clip = 4;   /* converted */
	}
	return NULL;
}

/* The plan of N (mp_analyze's attempts, after the normalisation); *tri_red
 * the loop id + 1 of a triangular reduction check_tri met, or 0. */
static int analyze_rounds(mp_nest *n, const mp_pragma *p, mp_plan *plan, int try_tri,
			  int *tri_red)
{
	az z;
	int m2_tile = 0;

	*tri_red = 0;
	/* first with a second row loop allowed (a convolution's image rows
	   join the call's rows, DIRECT and FUSED plans); when one was taken
	   and the plan failed, as before: the loops around the innermost two
	   output loops run as written */
	for (int m2 = 1; m2 >= 0; m2--) {
		plan_init(plan, n, p);
		memset(&z, 0, sizeof(z));
		z.n = n;
		z.p = p;
		z.plan = plan;
		z.allow_m2 = m2;
		z.tri_red_try = try_tri;
		z.tri_red_conv = !try_tri;
		analyze(&z);
		if (z.tri_red)
			*tri_red = z.tri_red;
		/* past its ISL budget any answer of the model may have been an
		   error (each is read conservatively, but the nest is refused
		   anyway) */
		int over = z.model_budget || (z.m && mp_model_over_budget(z.m));
		if (over)
			refuse(&z, loop_loc(n, 0), MP_MODEL_BUDGET_FMT, mp_model_budget());
		mp_model_free(z.m);
		if (plan->ok || !z.m2_used || plan->descend >= 0 || over || z.final)
			break;
		m2_tile = z.m2_tile;
	}
	/* the second row loop was refused for the epilogue (a convolution's
	   image rows: the pair of output loops, as in CMSIS's reference
	   convolutions); say so after the reason of the plan without it */
	if (!plan->ok && m2_tile && z.two_rows) {
		size_t len = strlen(plan->reason);
		snprintf(plan->reason + len, sizeof(plan->reason) - len,
			 " (two row loops join one call only when the result is stored as the "
			 "sum or through a fused epilogue; here the epilogue runs as written, "
			 "in tile mode)");
	}
	return plan->ok;
}

/* A plan of a nest with a clipped window (clip_convert) stands when the
 * window's iterator is not observed outside its loop: the loop now ends
 * at another value. */
static int clip_check(const mp_nest *n, mp_plan *plan)
{
	for (int l = 0; plan->ok && l < n->nloops; l++)
		if (n->loop[l].clip && iter_observed(n, n->loop[l].iter)) {
			plan->ok = 0;
			snprintf(plan->reason, sizeof(plan->reason),
				 "the iterator '%s' of a loop bounded by MAX/MIN is read "
				 "outside its loop", n->var[n->loop[l].iter].name);
			plan->reason_loc = n->loop[l].loc;
		}
	return plan->ok;
}

static int expr_has_mul(const mp_nest *n, int e, int depth)
{
	if (e < 0 || e >= n->nexprs || depth > 64)
		return 0;
	const mp_expr *x = &n->expr[e];

	if (x->kind == MP_X_MUL)
		return 1;
	if (x->kind == MP_X_CALL) {
		for (int a = 0; a < x->nargs; a++)
			if (expr_has_mul(n, x->args[a], depth + 1))
				return 1;
		return 0;
	}
	return expr_has_mul(n, x->a, depth + 1) || expr_has_mul(n, x->b, depth + 1);
}

/* Whether loop L holds another loop or a statement computing a product
 * (as plugin-gcc/plugin.cc's loop_may_contract): a leaf loop that only
 * copies or clears is not checked for iterations. */
static int loop_may_contract(const mp_nest *n, int l)
{
	for (int q = 0; q < n->nloops; q++)
		if (n->loop[q].parent == l)
			return 1;
	for (int s = 0; s < n->nstmts; s++)
		if (n->stmt[s].loop == l && n->stmt[s].kind != MP_S_OPAQUE &&
		    expr_has_mul(n, n->stmt[s].rhs, 0))
			return 1;
	return 0;
}

int mp_analyze(mp_nest *n, const mp_pragma *p, mp_plan *plan)
{
	mp_pragma dflt;
	mp_nest *cn;
	mp_plan *cp;
	int tri_red, again;

	if (p && p->prec == MP_PREC_AUTO)
		return mp_analyze_auto(n, p, plan, 1) > 0;
	if (!p) {
		memset(&dflt, 0, sizeof(dflt));
		dflt.prec = MP_PREC_INT8;
		p = &dflt;
	}
	int cloc = 0;
	const char *cwhy = clip_convert(n, &cloc);

	if (cwhy) {
		plan_init(plan, n, p);
		snprintf(plan->reason, sizeof(plan->reason), "%s", cwhy);
		plan->reason_loc = cloc;
		return 0;
	}
	/* a loop whose constant bounds give it no iteration: GCC removes it
	   as dead code before the plugin sees it (plugin-gcc/plugin.cc,
	   dead_loop, reports it in the same words); the same refusal under
	   every compiler */
	for (int l = 0; l < n->nloops; l++) {
		const mp_loop *lp = &n->loop[l];
		int64_t clo, chi;

		if (!loop_may_contract(n, l))
			continue;
		if (lp->after < 0 && lp->step_var < 0 && mp_aff_is_const(&lp->lo, &clo) &&
		    mp_aff_is_const(&lp->hi, &chi) && chi < clo) {
			plan_init(plan, n, p);
			snprintf(plan->reason, sizeof(plan->reason), MP_MSG_NO_ITERATIONS,
				 vn(n, lp->iter));
			plan->reason_loc = lp->loc;
			return 0;
		}
	}
	mp_walk_resolve(n);
	mp_reroll(n);
	fold_sub_zero(n);
	fold_sub_neg(n);   /* first: `-(-(t * b))` is t * b, not 1 * t * b */
	fold_neg_factors(n);
	fold_const_factors(n);
	if (analyze_rounds(n, p, plan, 1, &tri_red) || !tri_red)
		return clip_check(n, plan);
	/* a triangular reduction: plan the converted nest; it replaces N
	   when that plan is made and needs no value the loop's own bounds
	   give (the iterator's final value, a pointer it advances) */
	cn = malloc(sizeof(*cn));
	cp = malloc(sizeof(*cp));
	if (cn && cp) {
		*cn = *n;
		char budget[MP_REASON_LEN];
		int r = tri_red_convert(cn, tri_red - 1);

		snprintf(budget, sizeof(budget), MP_MODEL_BUDGET_FMT, mp_model_budget());
		if (r == -2) {
			/* past the ISL budget: refused for that, as any nest */
			snprintf(plan->reason, sizeof(plan->reason), "%s", budget);
			plan->reason_loc = n->nloops > 0 ? n->loop[0].loc : 0;
		} else if (r == 0) {
			if (analyze_rounds(cn, p, cp, 0, &again) && !cp->red_iter_final &&
			    !cp->nadvance && cp->loop_k == tri_red - 1) {
				*n = *cn;
				*plan = *cp;
			} else if (!cp->ok && (cp->descend >= 0 || !strcmp(cp->reason, budget))) {
				*plan = *cp;   /* planned again from an inner loop, or the budget */
			} else if (!cp->ok && cp->reason[0]) {
				/* why the padded form was refused */
				char why[MP_REASON_LEN];

				snprintf(why, sizeof(why), "a triangular reduction over '%s', "
					 "as a padded sum over its hull: %s",
					 ln(n, tri_red - 1), cp->reason);
				memcpy(plan->reason, why, sizeof(why));
				plan->reason_loc = cp->reason_loc;
			}
		}
	}
	free(cn);
	free(cp);
	return clip_check(n, plan);
}
