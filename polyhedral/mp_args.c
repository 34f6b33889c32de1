/* mp_args.c -- the argument list of __mixprec_i8_nest (or, for a
 * floating-point source, of __mixprec_lp_nest) for a plan, as
 * recipes (mp_arg) that the plugins turn into code.  The layout is the one
 * documented at the top of runtime/nest.c; this file is its only writer.
 */
#include <string.h>
#include "mp_nest.h"

typedef struct mp_argv {
	mp_arg *a;
	int n, max;
} mp_argv;

static mp_arg *push(mp_argv *v, mp_arg_kind k)
{
	static mp_arg sink;
	mp_arg *x = v->n < v->max ? &v->a[v->n] : &sink;
	v->n++;
	memset(x, 0, sizeof *x);
	x->kind = k;
	x->loop = x->access = x->var = x->expr = -1;
	return x;
}

static void cst(mp_argv *v, int64_t c) { push(v, MP_ARG_CONST)->cst = c; }
static void null(mp_argv *v) { push(v, MP_ARG_NULL); }
static void extent(mp_argv *v, int loop) { push(v, MP_ARG_EXTENT)->loop = loop; }
static void addr(mp_argv *v, int acc) { push(v, MP_ARG_ADDR)->access = acc; }

static void coef(mp_argv *v, int acc, int var)
{
	mp_arg *x = push(v, MP_ARG_COEF);
	x->access = acc;
	x->var = var;
}

static void cond_coef(mp_argv *v, int cond, int var)
{
	mp_arg *x = push(v, MP_ARG_COND_COEF);
	x->access = cond;
	x->var = var;
}

static void expr(mp_argv *v, mp_arg_kind k, int e, int64_t times)
{
	mp_arg *x = push(v, k);
	x->expr = e;
	x->cst = times;
}

/* An operand, an output or a bias: address at the lower corner, then the
 * byte strides along the given iterators. */
static void strided(mp_argv *v, int acc, int var1, int var2)
{
	addr(v, acc);
	coef(v, acc, var1);
	coef(v, acc, var2);
}

static int64_t target_code(mp_target t)
{
	switch (t) {
	case MP_TARGET_SCALAR: return 1;
	case MP_TARGET_AVX2: return 2;
	case MP_TARGET_AVX512VNNI: return 3;
	case MP_TARGET_DOTPROD: return 4;
	case MP_TARGET_I8MM: return 5;
	default: return 0;
	}
}

static int64_t dt_code(mp_scalar t)
{
	return t == MP_TY_S8 ? 0 : t == MP_TY_U8 ? 1 : 2;
}

/* The run-time overlap checks (written ranges) and the protected globals:
 * the tail shared by both argument lists. */
static void checks(mp_argv *v, const mp_nest *n, const mp_plan *p)
{
	int i, nprot = 0;

	cst(v, p->ncheck);
	for (i = 0; i < p->ncheck; i++) {
		push(v, MP_ARG_RANGE_LO)->access = p->check_access[i];
		push(v, MP_ARG_RANGE_HI)->access = p->check_access[i];
	}
	for (i = 0; i < n->nvars; i++)
		nprot += n->var[i].kind == MP_VAR_PARAM && n->var[i].in_memory;
	for (i = 0; i < n->naccesses; i++)
		nprot += mp_invariant_load(n, i);
	cst(v, nprot);
	for (i = 0; i < n->nvars; i++)
		if (n->var[i].kind == MP_VAR_PARAM && n->var[i].in_memory) {
			push(v, MP_ARG_VAR_LO)->var = i;
			push(v, MP_ARG_VAR_HI)->var = i;
		}
	/* memory read once before the nest as an invariant (zp[0], *alpha):
	   its bytes, as a global's */
	for (i = 0; i < n->naccesses; i++)
		if (mp_invariant_load(n, i)) {
			push(v, MP_ARG_RANGE_LO)->access = i;
			push(v, MP_ARG_RANGE_HI)->access = i;
		}
}

/* mp_lp of include/mixprec.h for a pragma precision. */
static int64_t lp_code(mp_prec prec)
{
	switch (prec) {
	case MP_PREC_INT8: return 0;      /* MP_LP_INT8 */
	case MP_PREC_UINT8: return 1;     /* MP_LP_UINT8 */
	case MP_PREC_BF16: return 2;      /* MP_LP_BF16 */
	case MP_PREC_FP8_E4M3: return 3;  /* MP_LP_FP8_E4M3 */
	case MP_PREC_FP8_E5M2: return 4;  /* MP_LP_FP8_E5M2 */
	default: return -1;               /* refused by mp_analyze */
	}
}

static int64_t f64_bits(double d)
{
	int64_t b;

	memcpy(&b, &d, sizeof b);
	return b;
}

/* One operand's zero point: its value (a double's bits; 0 when none) and
 * the sign it has in the body (operand - z: +1, operand + z: -1). */
static void zero_args(mp_argv *v, int zexpr, int zsign)
{
	if (zexpr >= 0)
		expr(v, MP_ARG_EXPR_F64, zexpr, 1);
	else
		cst(v, 0);
	cst(v, zsign < 0 ? -1 : 1);
}

/* One operand's scale: mode (0 dynamic, 1 one value, 2 per channel),
 * the value's 64 bits, the array, its element type (0 float, 1 double). */
static void scale_args(mp_argv *v, const mp_scale_spec *sp, int side, int loop)
{
	mp_arg *x;

	switch (side < 0 ? MP_SS_DYNAMIC : sp->kind) {
	case MP_SS_NUMBER:
		cst(v, 1);
		cst(v, f64_bits(sp->value));
		null(v);
		cst(v, 0);
		break;
	case MP_SS_NAME:
		cst(v, 1);
		push(v, MP_ARG_SCALE_F64)->cst = side;
		null(v);
		cst(v, 0);
		break;
	case MP_SS_INDEXED:
		cst(v, 2);
		cst(v, 0);
		x = push(v, MP_ARG_SCALE_PTR);
		x->cst = side;
		x->loop = loop;
		cst(v, sp->elem == MP_TY_F64);
		break;
	default:
		cst(v, 0);
		cst(v, 0);
		null(v);
		cst(v, 0);
		break;
	}
}

/* Summed reduction loops around k, outermost first: their number, then
 * each one's extent and A's and B's byte strides. */
static void levels(mp_argv *v, const mp_nest *n, const mp_plan *p)
{
	int i;

	cst(v, p->nsum);
	for (i = 0; i < p->nsum; i++) {
		int vs = n->loop[p->loop_sum[i]].iter;

		extent(v, p->loop_sum[i]);
		coef(v, p->acc_a, vs);
		coef(v, p->acc_b, vs);
	}
}

/* Padding (plan.guard): the number of conditions, the padded element's
 * kind and value, then for each condition its value
 * at the lower corner and its change per iteration of loop i, of the
 * second row loop, of k and of each summed loop (outermost first); a term
 * is added where every condition is >= 0. */
static void padding(mp_argv *v, const mp_nest *n, const mp_plan *p)
{
	int i, x;

	cst(v, __builtin_popcount(p->guard));
	/* the padded element: A's zero point (0), or a select's other value (1) */
	cst(v, p->pad_const ? 1 : 0);
	cst(v, p->pad_const ? p->pad_value : 0);
	for (i = 0; i < n->nconds; i++) {
		if (!(p->guard & (1u << i)))
			continue;
		push(v, MP_ARG_COND_LO)->access = i;
		cond_coef(v, i, n->loop[p->loop_i].iter);
		cond_coef(v, i, p->loop_i2 >= 0 ? n->loop[p->loop_i2].iter : -1);
		cond_coef(v, i, n->loop[p->loop_k].iter);
		for (x = 0; x < p->nsum; x++)
			cond_coef(v, i, n->loop[p->loop_sum[x]].iter);
	}
}

/* A second row loop outside i (DIRECT, FUSED, TILE): its extent, then
 * A's and the output's (TILE: 0, the tile's rows are (i2, i)) byte
 * strides, and with BIAS the bias's (FUSED); -1 and zeros without.  The
 * runtime then trusts the core's proof that the output is one element per
 * (i, j); with one, it checks the strides (disjoint_rows). */
static void rows2(mp_argv *v, const mp_nest *n, const mp_plan *p, int bias)
{
	int v2 = p->loop_i2 >= 0 ? n->loop[p->loop_i2].iter : -1;
	int out = p->mode == MP_OUT_DIRECT ? p->acc_c : p->epi_out;

	if (v2 < 0) {
		cst(v, -1);
		cst(v, 0);
		cst(v, 0);
	} else {
		extent(v, p->loop_i2);
		coef(v, p->acc_a, v2);
		if (p->mode == MP_OUT_TILE)   /* the tile: T[(i2*M + i)*N + j] */
			cst(v, 0);
		else
			coef(v, out, v2);
	}
	if (bias) {
		if (v2 >= 0 && p->mode == MP_OUT_FUSED && p->epi_bias >= 0)
			coef(v, p->epi_bias, v2);
		else
			cst(v, 0);
	}
}

/* __mixprec_lp_nest (floating-point source): see runtime/nest.c. */
static int lp_call_args(const mp_nest *n, const mp_plan *p, const mp_pragma *pr,
			mp_arg *out, int max)
{
	mp_argv v = { out, 0, max };
	int vi = n->loop[p->loop_i].iter, vk = n->loop[p->loop_k].iter;
	int vj = p->loop_j >= 0 ? n->loop[p->loop_j].iter : -1;

	cst(&v, MP_NEST_ABI_VERSION);
	cst(&v, 0);                                     /* nargs, set below */
	cst(&v, p->mode == MP_OUT_DIRECT ? 1 : 0);
	cst(&v, target_code(pr ? pr->target : MP_TARGET_AUTO));
	cst(&v, lp_code(pr && pr->prec == MP_PREC_AUTO ? p->auto_prec
						       : pr ? pr->prec : MP_PREC_INT8));
	cst(&v, p->src_type == MP_TY_F64);
	extent(&v, p->loop_i);
	extent(&v, p->loop_j);
	extent(&v, p->loop_k);
	strided(&v, p->acc_a, vi, vk);
	strided(&v, p->acc_b, vk, vj);
	if (p->mode == MP_OUT_DIRECT)
		strided(&v, p->acc_c, vi, vj);
	else {
		null(&v);
		cst(&v, 0);
		cst(&v, 0);
	}
	if (p->alpha_expr >= 0)
		expr(&v, MP_ARG_EXPR_F64, p->alpha_expr, 1);
	else
		cst(&v, f64_bits(1.0));
	zero_args(&v, p->za_expr, p->zsign_a);
	zero_args(&v, p->zb_expr, p->zsign_b);
	scale_args(&v, &p->scale_a, p->sspec_a, p->loop_i);
	scale_args(&v, &p->scale_b, p->sspec_b, p->loop_j);
	/* flags: 1 verify, 2 A constant across calls, 4 B constant; 8 auto,
	   its candidates (bits 8-15) and nest hash (bits 32-63): mp_auto.c;
	   bits 16-23 / 24-31: the checks not compared with B's / A's read
	   range (plan.check_skip) */
	cst(&v, (pr && pr->verify ? 1 : 0) | (p->const_a ? 2 : 0) | (p->const_b ? 4 : 0) |
		p->auto_flags | (int64_t)(p->check_skip[1] & 0xff) << 16 |
		(int64_t)(p->check_skip[0] & 0xff) << 24);
	push(&v, MP_ARG_LOC);
	levels(&v, n, p);
	rows2(&v, n, p, 0);
	padding(&v, n, p);
	checks(&v, n, p);
	if (v.n > max)
		return -1;
	out[1].cst = v.n - 2;
	return v.n;
}

int mp_plan_call_args(const mp_nest *n, const mp_plan *p, const mp_pragma *pr,
		      mp_arg *out, int max)
{
	mp_argv v = { out, 0, max };
	int vi, vk, vj, i;

	if (p->src_float)
		return lp_call_args(n, p, pr, out, max);
	vi = n->loop[p->loop_i].iter;
	vk = n->loop[p->loop_k].iter;
	vj = p->loop_j >= 0 ? n->loop[p->loop_j].iter : -1;

	cst(&v, MP_NEST_ABI_VERSION);
	cst(&v, 0);                                     /* nargs, set below */
	cst(&v, p->mode == MP_OUT_DIRECT ? 1 : p->mode == MP_OUT_FUSED ? 2 : 0);
	cst(&v, target_code(pr ? pr->target : MP_TARGET_AUTO));
	extent(&v, p->loop_i);
	extent(&v, p->loop_j);
	extent(&v, p->loop_k);

	strided(&v, p->acc_a, vi, vk);
	cst(&v, dt_code(p->a_type));
	if (p->za_expr >= 0)
		expr(&v, MP_ARG_EXPR, p->za_expr, p->zsign_a < 0 ? -1 : 1);
	else
		cst(&v, 0);
	strided(&v, p->acc_b, vk, vj);
	cst(&v, dt_code(p->b_type));
	if (p->zb_expr >= 0)
		expr(&v, MP_ARG_EXPR, p->zb_expr, p->zsign_b < 0 ? -1 : 1);
	else
		cst(&v, 0);

	if (p->mode == MP_OUT_DIRECT || p->mode == MP_OUT_FUSED)
		strided(&v, p->mode == MP_OUT_DIRECT ? p->acc_c : p->epi_out, vi, vj);
	else {
		null(&v);
		cst(&v, 0);
		cst(&v, 0);
	}

	if (p->mode == MP_OUT_FUSED) {
		cst(&v, p->epi);
		cst(&v, dt_code(p->epi_out_type));
		cst(&v, p->epi_init);
		if (p->epi_bias >= 0)
			strided(&v, p->epi_bias, vi, vj);
		else {
			null(&v);
			cst(&v, 0);
			cst(&v, 0);
		}
		/* scale, qm, shift, zp, qmin, qmax: the helper's arguments */
		int slot[6] = { -1, -1, -1, -1, -1, -1 };
		switch (p->epi) {
		case MP_FUSE_FP32:        /* scale, zp, qmin, qmax */
			slot[0] = 0, slot[3] = 1, slot[4] = 2, slot[5] = 3;
			break;
		case MP_FUSE_GEMMLOWP:    /* qm, shift, zp, qmin, qmax */
		case MP_FUSE_RNDNU:
			slot[1] = 0, slot[2] = 1, slot[3] = 2, slot[4] = 3, slot[5] = 4;
			break;
		case MP_FUSE_CLAMP:       /* lo, hi */
			slot[4] = 0, slot[5] = 1;
			break;
		default:
			break;
		}
		for (i = 0; i < 6; i++) {
			if (slot[i] < 0 || slot[i] >= p->epi_nargs)
				cst(&v, 0);
			else
				expr(&v, i == 0 ? MP_ARG_EXPR_F32 : MP_ARG_EXPR_I32,
				     p->epi_arg[slot[i]], 1);
		}
	} else {
		cst(&v, 0);   /* epi */
		cst(&v, 0);   /* out_dt */
		cst(&v, 0);   /* init */
		null(&v);     /* bias */
		for (i = 0; i < 8; i++)
			cst(&v, 0);
	}
	push(&v, MP_ARG_LOC);   /* "FILE:LINE": per-nest statistics */
	if (p->alpha_expr >= 0)   /* alpha*a*b: the runtime scales the tile */
		expr(&v, MP_ARG_EXPR, p->alpha_expr, 1);
	else
		cst(&v, 1);
	/* constant= (1: A, 2: B): packed once when the kernels pack it */
	/* cflags: 1 / 2 constant A / B; bits 8-15 / 16-23 the checks not
	   compared with B's / A's read range (plan.check_skip) */
	cst(&v, (p->const_a ? 1 : 0) | (p->const_b ? 2 : 0) |
		(int64_t)(p->check_skip[1] & 0xff) << 8 | (int64_t)(p->check_skip[0] & 0xff) << 16);
	/* groups (TILE): their number and A's and B's byte strides per group */
	if (p->loop_g >= 0) {
		int vg = n->loop[p->loop_g].iter;

		extent(&v, p->loop_g);
		coef(&v, p->acc_a, vg);
		coef(&v, p->acc_b, vg);
	} else {
		cst(&v, 1);
		cst(&v, 0);
		cst(&v, 0);
	}
	levels(&v, n, p);
	rows2(&v, n, p, 1);
	padding(&v, n, p);

	checks(&v, n, p);
	if (v.n > max)
		return -1;
	out[1].cst = v.n - 2;
	return v.n;
}

/* The index in ARGS of the first coefficient of access ACC's offset in
 * iterator VAR, or -1. */
static int coef_index(const mp_arg *args, int na, int acc, int var)
{
	for (int i = 0; i < na; i++)
		if (args[i].kind == MP_ARG_COEF && args[i].access == acc && args[i].var == var)
			return i;
	return -1;
}

/* See mp_nest.h. */
void mp_plan_work(const mp_nest *n, const mp_plan *p, const mp_arg *args, int na, mp_work *w)
{
	int simple = p->nsum == 0 && p->guard == 0 && p->loop_g < 0 && p->loop_i2 < 0;

	memset(w, 0, sizeof *w);
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < na; i++) {
			int l = args[i].loop, red = 0;

			if (args[i].kind != MP_ARG_EXTENT || l < 0)
				continue;
			red = l == p->loop_k || l == p->loop_g;
			for (int s = 0; s < p->nsum; s++)
				red |= l == p->loop_sum[s];
			if (red == pass && w->nloops < MP_MAX_WORK_LOOPS)
				w->loops[w->nloops++] = l;
		}
		if (pass == 0)
			w->nout = w->nloops;
	}
	/* a padded copy's cost per row (runtime/nest.c, too_small_i8's
	   pad_rows: the rows of i and of the second row loop) */
	if (!p->src_float && p->guard && p->loop_g < 0) {
		w->rows_entry = MP_GUARD_PAD_ROW;
		for (int i = 0; i < w->nout; i++)
			if (w->loops[i] == p->loop_i || (p->loop_i2 >= 0 && w->loops[i] == p->loop_i2))
				w->row_loops |= 1u << i;
	}
	for (int s = 0; s < 4; s++)
		w->stride[s] = -1;
	w->esz = !p->src_float ? 1 : p->src_type == MP_TY_F64 ? 8 : 4;
	/* __mixprec_lp_nest's args[3] target (0 auto), args[4] lp (0 int8,
	   1 uint8, 2.. bf16 and fp8) */
	int autot = na >= 4 && args[3].kind == MP_ARG_CONST && args[3].cst == 0;
	w->slot = !p->src_float
		? (p->guard ? (autot ? MP_GUARD_I8_PAD : MP_GUARD_I8_PAD_TARGET)
			    : autot ? MP_GUARD_I8 : MP_GUARD_I8_TARGET)
		: na < 5 || args[3].kind != MP_ARG_CONST || args[3].cst != 0 ||
		  args[4].kind != MP_ARG_CONST ? MP_GUARD_LP_TARGET
		: args[4].cst <= 1 ? MP_GUARD_LP8 : MP_GUARD_LP16;
	if (!simple)
		return;
	int vi = n->loop[p->loop_i].iter, vk = n->loop[p->loop_k].iter;
	int vj = p->loop_j >= 0 ? n->loop[p->loop_j].iter : -1;
	int st[4] = { coef_index(args, na, p->acc_a, vi), coef_index(args, na, p->acc_a, vk),
		      coef_index(args, na, p->acc_b, vk), coef_index(args, na, p->acc_b, vj) };
	for (int s = 0; s < 4; s++)
		if (st[s] < 0)
			return;
	memcpy(w->stride, st, sizeof st);
}

static int loop_depth(const mp_nest *n, int l)
{
	int d = 0;

	for (; l >= 0; l = n->loop[l].parent)
		d++;
	return d;
}

/* See mp_nest.h. */
int mp_plan_live_loops(const mp_nest *n, const mp_plan *p, int *out, int max)
{
	int cand[4 + MP_MAX_SUM], nc = 0, deep = -1, chain[MP_MAX_LOOPS], nchain = 0, k = 0;

	cand[nc++] = p->loop_i;
	cand[nc++] = p->loop_j;
	cand[nc++] = p->loop_k;
	cand[nc++] = p->loop_g;
	for (int s = 0; s < p->nsum && s < MP_MAX_SUM; s++)
		cand[nc++] = p->loop_sum[s];
	for (int c = 0; c < nc; c++)
		if (cand[c] >= 0 && cand[c] < n->nloops &&
		    (deep < 0 || loop_depth(n, cand[c]) > loop_depth(n, deep)))
			deep = cand[c];
	for (int l = deep; l >= 0 && nchain < MP_MAX_LOOPS; l = n->loop[l].parent)
		chain[nchain++] = l;
	while (nchain-- > 0 && k < max) {
		int l = chain[nchain], it[2 * MP_MAX_TERMS];

		if (p->tri && (l == p->loop_i || l == p->loop_j)) {
			out[k++] = l;
			continue;
		}
		if (mp_aff_iters(n, &n->loop[l].lo, it) || mp_aff_iters(n, &n->loop[l].hi, it))
			continue;
		out[k++] = l;
	}
	return k;
}
