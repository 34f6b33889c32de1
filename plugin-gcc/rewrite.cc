/* rewrite.cc -- the core's plan back into GIMPLE.
 *
 * Nothing is duplicated here: both paths live in the one copy of the nest.
 * In tile mode, split.cc gives each path its own copy later, in SSA form
 * (the test of the tile inside the loops kept GCC from vectorizing the
 * fallback around loop k).
 *
 *   TILE mode (contract section 5), before:         after:
 *     for i { init; for k { s += A*B; } epi; }        t = __mixprec_i8_nest(...);
 *                                                     for i { init;
 *                                                       if (t) s += T[i][j];
 *                                                       else for k { s += A*B; }
 *                                                       epi; }
 *                                                     __mixprec_release(t);
 *   DIRECT mode (perfect nest C[i,j] += A*B):
 *     for i for j for k C += A*B;                     t = __mixprec_i8_nest(...);
 *                                                     if (!t) for i for j for k C += A*B;
 *
 * The runtime returns NULL when a run-time check fails (operands overlap a
 * written range, int32 bound, no kernel, allocation): the original loops
 * run unchanged then.  The argument list is documented in runtime/nest.c.
 *
 * A floating-point source (plan.src_float) calls __mixprec_lp_nest instead
 * (same shape, its own argument list: scalar factor, explicit scales, verify
 * flag, "FILE:LINE" of the nest) and its TILE is float or double
 * (plan.src_type): T[i][j] is read with that element type and converted to
 * the accumulator's type.
 *
 *   TILE with k enclosing the rest of the chain (ikj order):
 *     for i { init; for k for j C += A*B; }          t = __mixprec_*_nest(...);
 *                                                     for i { init;
 *                                                       if (t) __mixprec_tile_add(
 *                                                                row i of T into C);
 *                                                       else for k for j C += A*B; }
 *                                                     __mixprec_release(t);
 *   __mixprec_tile_add's dt says what T and C hold: 0 int32, 1 float,
 *   2 double (a floating-point source: the output has the source's type).
 */
#include "gcc-common.h"
#include "mp-gcc.h"

static tree long_t(void) { return long_integer_type_node; }

static tree type_of_scalar(mp_scalar s)
{
	switch (s) {
	case MP_TY_S8: return signed_char_type_node;
	case MP_TY_U8: return unsigned_char_type_node;
	case MP_TY_S16: return short_integer_type_node;
	case MP_TY_U16: return short_unsigned_type_node;
	case MP_TY_S32: return integer_type_node;
	case MP_TY_U32: return unsigned_type_node;
	case MP_TY_S64: return long_integer_type_node;
	case MP_TY_U64: return long_unsigned_type_node;
	case MP_TY_F32: return float_type_node;
	case MP_TY_F64: return double_type_node;
	default: return long_integer_type_node;
	}
}

/* T (an unshared expression) with each integer division and remainder by
 * a divisor that is not a constant made unable to trap: divisor 0 reads 1,
 * a signed divisor -1 reads 1 and the quotient is negated, without control
 * flow (the argument is gimplified into one block).  A derived value is
 * evaluated before the nest, also where the loop as written never
 * evaluates it (`k < K / d` inside a loop without iterations, d == 0: the
 * program died of SIGFPE); where the loop does evaluate it, the values
 * that change are the ones C leaves undefined. */
static tree no_trap(tree t)
{
	if (!t || !EXPR_P(t))
		return t;
	for (int i = 0; i < TREE_OPERAND_LENGTH(t); i++)
		if (TREE_OPERAND(t, i))
			TREE_OPERAND(t, i) = no_trap(TREE_OPERAND(t, i));
	enum tree_code code = TREE_CODE(t);
	bool mod = code == TRUNC_MOD_EXPR || code == FLOOR_MOD_EXPR || code == CEIL_MOD_EXPR ||
		   code == ROUND_MOD_EXPR;
	bool div = code == TRUNC_DIV_EXPR || code == FLOOR_DIV_EXPR || code == CEIL_DIV_EXPR ||
		   code == ROUND_DIV_EXPR || code == EXACT_DIV_EXPR;
	tree b = (mod || div) ? TREE_OPERAND(t, 1) : NULL_TREE;
	if (!b || !INTEGRAL_TYPE_P(TREE_TYPE(t)) || !INTEGRAL_TYPE_P(TREE_TYPE(b)) ||
	    (TREE_CODE(b) == INTEGER_CST && !integer_zerop(b) &&
	     (TYPE_UNSIGNED(TREE_TYPE(b)) || !integer_minus_onep(b))))
		return t;
	tree ty = TREE_TYPE(b);
	tree b1 = build2(PLUS_EXPR, ty, b,
			 fold_convert(ty, build2(EQ_EXPR, boolean_type_node, unshare_expr(b),
						 build_int_cst(ty, 0))));
	if (TYPE_UNSIGNED(ty)) {
		TREE_OPERAND(t, 1) = b1;
		return t;
	}
	tree m = fold_convert(ty, build2(EQ_EXPR, boolean_type_node, b1, build_int_cst(ty, -1)));
	TREE_OPERAND(t, 1) = build2(PLUS_EXPR, ty, unshare_expr(b1),
				    build2(MULT_EXPR, ty, m, build_int_cst(ty, 2)));
	if (mod)
		return t;   /* x % 1 == x % -1 == 0 */
	tree rt = TREE_TYPE(t);
	tree sign = build2(MINUS_EXPR, rt, build_int_cst(rt, 1),
			   build2(MULT_EXPR, rt, fold_convert(rt, unshare_expr(m)),
				  build_int_cst(rt, 2)));
	return build2(MULT_EXPR, rt, t, sign);
}

/* The value of variable V before the nest: its decl, SSA name or derived
 * expression (no_trap); a product variable (mp_var.prod) as the product of
 * its factors, in long. */
static tree value_of(mp_ctx &c, int v)
{
	const mp_var &mv = c.n->var[v];
	if (mv.prod[0] >= 0 && mv.prod[1] >= 0)
		return fold_build2(MULT_EXPR, long_t(),
				   fold_convert(long_t(), value_of(c, mv.prod[0])),
				   fold_convert(long_t(), value_of(c, mv.prod[1])));
	gcc_assert(v < (int)c.var_tree.size() && c.var_tree[v]);
	return no_trap(unshare_expr(c.var_tree[v]));
}

static tree gval(tree t, gimple_seq *seq);

/* T converted to TY as C converts (a floating value to an integer type
 * truncates: fold_convert has no such conversion). */
static tree conv(tree ty, tree t)
{
	if (INTEGRAL_TYPE_P(ty) && SCALAR_FLOAT_TYPE_P(TREE_TYPE(t)))
		return fold_build1(FIX_TRUNC_EXPR, ty, t);
	return fold_convert(ty, t);
}

struct mp_mat {
	mp_ctx &c;
	/* when set, only the ITERs marked here are taken at their lower bound */
	const std::vector<char> *lo_only = NULL;
	/* the plan whose boxes stand for loop bounds: a triangular nest's
	   loops i and j take their tile box's (plan.tri), written ranges the
	   nest-wide ranges (plan.range_lo/hi); NULL: the loops' own bounds */
	const mp_plan *bx = NULL;
	/* While the call's arguments are built (memo set): every variable's
	   value, iterator lower bound, base address and loop extent is
	   computed once into *memo and reused by the arguments after it.  A
	   40-nest file of 8-deep nests spent a third of its extra compile
	   time on the same casts and products rebuilt for every address,
	   range and extent.  Never set while code inside the loops is built
	   (an iterator's value there is the current one). */
	gimple_seq *memo = NULL;
	std::map<long, tree> memo_val;
	tree remember(long key, tree t)
	{
		if (!memo || is_gimple_min_invariant(t))
			return t;
		return memo_val[key] = gval(t, memo);
	}
	tree recall(long key)
	{
		if (!memo)
			return NULL_TREE;
		auto it = memo_val.find(key);
		return it == memo_val.end() ? NULL_TREE : it->second;
	}
	void memo_to(gimple_seq *seq)
	{
		memo = seq;
		memo_val.clear();
	}
	enum { K_VAR, K_LO, K_BASE, K_EXTENT, K_RANGE_COM, K_RANGE_LO, K_RANGE_HI, K_KINDS };
	static long key(int kind, int id) { return (long)id * K_KINDS + kind; }

	explicit mp_mat(mp_ctx &cc) : c(cc) {}

	/* 0 / 1 when loop L is the loop i / j of a triangular plan, else -1 */
	int role(int l)
	{
		return bx && bx->tri ? (l == bx->loop_i ? 0 : l == bx->loop_j ? 1 : -1) : -1;
	}
	const mp_aff *lo_of(int l) { return role(l) >= 0 ? &bx->box_lo[role(l)] : &c.n->loop[l].lo; }
	const mp_aff *hi_of(int l) { return role(l) >= 0 ? &bx->box_hi[role(l)] : &c.n->loop[l].hi; }

	/* Value of variable V as a long; ITERs at their lower bound if AT_LO. */
	tree var(int v, bool at_lo)
	{
		const mp_var &mv = c.n->var[v];
		bool lo = mv.kind == MP_VAR_ITER && at_lo && (!lo_only || (*lo_only)[v]);
		long k = key(lo ? K_LO : K_VAR, v);
		if (tree r = recall(k))
			return r;
		return remember(k, lo ? aff(lo_of(mv.loop), true)
				      : fold_convert(long_t(), value_of(c, v)));
	}

	tree aff(const mp_aff *a, bool at_lo)
	{
		tree r = build_int_cst(long_t(), a->cst);
		for (int i = 0; i < a->n; i++) {
			tree t = build_int_cst(long_t(), a->t[i].coef);
			t = fold_build2(MULT_EXPR, long_t(), t, var(a->t[i].v1, at_lo));
			if (a->t[i].v2 >= 0)
				t = fold_build2(MULT_EXPR, long_t(), t, var(a->t[i].v2, at_lo));
			r = fold_build2(PLUS_EXPR, long_t(), r, t);
		}
		return r;
	}

	/* Coefficient (a long) of iterator var IT in A. */
	/* The step of the loop iterator IT drives when it is larger than 1
	   (the kernels count iterations, the description values), else 1. */
	int64_t step_of(int it)
	{
		const mp_var &v = c.n->var[it];
		return v.kind == MP_VAR_ITER && v.loop >= 0 && c.n->loop[v.loop].step > 1
		       ? c.n->loop[v.loop].step : 1;
	}

	/* The PARAM a loop steps by (`j += GS`), or -1 */
	int step_var_of(int it)
	{
		const mp_var &v = c.n->var[it];
		return v.kind == MP_VAR_ITER && v.loop >= 0 ? c.n->loop[v.loop].step_var : -1;
	}

	/* Bytes between two iterations of the loop iterator IT drives in A. */
	tree coef(const mp_aff *a, int it)
	{
		mp_aff k;
		mp_aff_coef_of(a, it, &k);
		int sv = step_var_of(it);
		if (sv >= 0)
			return fold_build2(MULT_EXPR, long_t(), aff(&k, true), var(sv, false));
		mp_aff_scale(&k, &k, step_of(it));
		return aff(&k, true);
	}

	/* max(hi - lo + s, 0) / s: the iterations of loop L (s its step); a
	   step by a variable: that, or -1 when it is not positive (the call
	   falls back) */
	tree extent(int l)
	{
		if (l < 0)
			return build_int_cst(long_t(), 1);
		if (tree r = recall(key(K_EXTENT, l)))
			return r;
		return remember(key(K_EXTENT, l), extent_of(l));
	}
	tree extent_of(int l)
	{
		int64_t s = c.n->loop[l].step > 1 ? c.n->loop[l].step : 1;
		tree lo = aff(lo_of(l), true), hi = aff(hi_of(l), true);
		tree st = c.n->loop[l].step_var >= 0 ? var(c.n->loop[l].step_var, false)
						      : build_int_cst(long_t(), s);
		tree e = fold_build2(PLUS_EXPR, long_t(), fold_build2(MINUS_EXPR, long_t(), hi, lo),
				     st);
		e = fold_build2(MAX_EXPR, long_t(), e, build_int_cst(long_t(), 0));
		if (c.n->loop[l].step_var >= 0) {
			/* (s > 0) * (e / max(s, 1) + 1) - 1, without control flow
			   (the argument is gimplified into one block) */
			tree pos = fold_convert(long_t(), fold_build2(GT_EXPR, boolean_type_node, st,
								      build_int_cst(long_t(), 0)));
			tree one = fold_build2(MAX_EXPR, long_t(), st, build_int_cst(long_t(), 1));
			tree q = fold_build2(PLUS_EXPR, long_t(),
					     fold_build2(TRUNC_DIV_EXPR, long_t(), e, one),
					     build_int_cst(long_t(), 1));
			return fold_build2(MINUS_EXPR, long_t(), fold_build2(MULT_EXPR, long_t(), pos, q),
					   build_int_cst(long_t(), 1));
		}
		return s > 1 ? fold_build2(TRUNC_DIV_EXPR, long_t(), e, build_int_cst(long_t(), s)) : e;
	}

	/* The iteration number of iterator IT's loop: (it - lo) / step.
	   RSTEP, where given, is (1 + 2^-52) / step for a step s set at run
	   time, a little above 1/s: the quotient g of an exact multiple
	   d = g*s as a product truncated, no division per read.  d * RSTEP
	   lies in [g, g + g*2^-51) (at most two roundings of 2^-53 above the
	   factor 2^-52), so truncation gives g while g < 2^50 -- g indexes an
	   allocated tile (and an add would make an FMA candidate, which
	   changes how GCC contracts the float code kept around the tile's
	   read). */
	tree iteration(int it, tree rstep = NULL_TREE)
	{
		tree d = fold_build2(MINUS_EXPR, long_t(), var(it, false), var(it, true));
		int sv = step_var_of(it);
		if (sv >= 0 && rstep)
			return fold_build1(FIX_TRUNC_EXPR, long_t(),
					   fold_build2(MULT_EXPR, double_type_node,
						       fold_build1(FLOAT_EXPR, double_type_node, d),
						       rstep));
		if (sv >= 0)   /* positive on the fast path (extent) */
			return fold_build2(TRUNC_DIV_EXPR, long_t(), d,
					   fold_build2(MAX_EXPR, long_t(), var(sv, false),
						       build_int_cst(long_t(), 1)));
		int64_t s = step_of(it);
		return s > 1 ? fold_build2(EXACT_DIV_EXPR, long_t(), d, build_int_cst(long_t(), s)) : d;
	}

	/* Base address of array A as a `char *`. */
	tree base(int a)
	{
		if (tree r = recall(key(K_BASE, a)))
			return r;
		tree b = unshare_expr(c.array_base[a]);
		if (c.n->array[a].is_decl) {
			TREE_ADDRESSABLE(b) = 1;
			b = build_fold_addr_expr(b);
		}
		return remember(key(K_BASE, a), fold_convert(build_pointer_type(char_type_node), b));
	}

	tree addr(int acc, bool at_lo)
	{
		const mp_access &x = c.n->access[acc];
		tree off = aff(&x.off, at_lo);
		return fold_build_pointer_plus(base(x.array), fold_convert(sizetype, off));
	}

	/* Byte range [lo, hi] (as longs) that access ACC touches over the
	   box of the loops (each iterator over its range in the nest). */
	void range(int acc, tree *lo, tree *hi)
	{
		if (tree r = recall(key(K_RANGE_LO, acc))) {
			*lo = r;
			*hi = recall(key(K_RANGE_HI, acc));
			return;
		}
		const mp_access &x = c.n->access[acc];
		tree b = fold_convert(long_t(), base(x.array));
		/* the terms both ends share (loops at one value: the loops
		   around the call), then each end's */
		tree com = fold_build2(PLUS_EXPR, long_t(), b, build_int_cst(long_t(), x.off.cst));
		tree l = build_int_cst(long_t(), 0);
		tree h = l;
		for (int i = 0; i < x.off.n; i++) {
			const mp_term &t = x.off.t[i];
			int it = c.n->var[t.v1].kind == MP_VAR_ITER ? t.v1
			       : t.v2 >= 0 && c.n->var[t.v2].kind == MP_VAR_ITER ? t.v2 : -1;
			tree f = build_int_cst(long_t(), t.coef);
			if (t.v1 != it)
				f = fold_build2(MULT_EXPR, long_t(), f, var(t.v1, false));
			if (t.v2 >= 0 && t.v2 != it)
				f = fold_build2(MULT_EXPR, long_t(), f, var(t.v2, false));
			if (it < 0) {
				com = fold_build2(PLUS_EXPR, long_t(), com, f);
				continue;
			}
			int lid = c.n->var[it].loop;
			const mp_aff *rl = bx ? &bx->range_lo[lid] : &c.n->loop[lid].lo;
			const mp_aff *rh = bx ? &bx->range_hi[lid] : &c.n->loop[lid].hi;
			tree x1 = fold_build2(MULT_EXPR, long_t(), f, aff(rl, true));
			if (mp_aff_equal(rl, rh)) {
				com = fold_build2(PLUS_EXPR, long_t(), com, x1);
				continue;
			}
			tree x2 = fold_build2(MULT_EXPR, long_t(), f, aff(rh, true));
			l = fold_build2(PLUS_EXPR, long_t(), l, fold_build2(MIN_EXPR, long_t(), x1, x2));
			h = fold_build2(PLUS_EXPR, long_t(), h, fold_build2(MAX_EXPR, long_t(), x1, x2));
		}
		com = remember(key(K_RANGE_COM, acc), com);
		*lo = remember(key(K_RANGE_LO, acc), fold_build2(PLUS_EXPR, long_t(), com, l));
		*hi = remember(key(K_RANGE_HI, acc),
			       fold_build2(PLUS_EXPR, long_t(), fold_build2(PLUS_EXPR, long_t(), com, h),
					   build_int_cst(long_t(), x.elem_size - 1)));
	}

	/* The code for one argument recipe of mp_plan_call_args. */
	void arg(const mp_arg &a, gimple_seq *seq, vec<tree> *out)
	{
		tree lt = long_integer_type_node, v;
		bool is_ptr = false;
		switch (a.kind) {
		case MP_ARG_CONST:
			v = build_int_cst(lt, a.cst);
			break;
		case MP_ARG_NULL:
			v = null_pointer_node, is_ptr = true;
			break;
		case MP_ARG_EXTENT:
			v = extent(a.loop);
			break;
		case MP_ARG_ADDR:
			v = addr(a.access, true), is_ptr = true;
			break;
		case MP_ARG_COEF:
			v = a.var < 0 ? build_int_cst(lt, 0) : coef(&c.n->access[a.access].off, a.var);
			break;
		case MP_ARG_COND_LO:
			v = aff(&c.n->cond[a.access].e, true);
			break;
		case MP_ARG_COND_COEF:
			v = a.var < 0 ? build_int_cst(lt, 0) : coef(&c.n->cond[a.access].e, a.var);
			break;
		case MP_ARG_EXPR:
			v = fold_build2(MULT_EXPR, lt, expr(a.expr), build_int_cst(lt, a.cst));
			break;
		case MP_ARG_EXPR_I32:
			v = conv(integer_type_node, typed(a.expr));
			break;
		case MP_ARG_EXPR_F32:
			v = fold_build1(VIEW_CONVERT_EXPR, unsigned_type_node,
					fold_convert(float_type_node, typed(a.expr)));
			break;
		case MP_ARG_EXPR_F64:
			v = fold_build1(VIEW_CONVERT_EXPR, long_integer_type_node,
					fold_convert(double_type_node, typed(a.expr)));
			break;
		case MP_ARG_SCALE_F64: {
			tree d = scale_decl(a.cst);
			v = d ? fold_build1(VIEW_CONVERT_EXPR, long_integer_type_node,
					    fold_convert(double_type_node, d))
			      : build_int_cst(lt, 0);
			break;
		}
		case MP_ARG_SCALE_PTR:
			v = scale_ptr(a.cst, a.loop), is_ptr = true;
			break;
		case MP_ARG_LOC:
			v = nest_loc(), is_ptr = true;
			break;
		case MP_ARG_RANGE_LO: case MP_ARG_RANGE_HI: {
			tree lo, hi;
			range(a.access, &lo, &hi);
			v = a.kind == MP_ARG_RANGE_LO ? lo : hi;
			break;
		}
		case MP_ARG_VAR_LO: case MP_ARG_VAR_HI: {
			/* a variable in memory, or a value read from memory
			   (x->n): the lvalue's address */
			tree d = unshare_expr(c.var_tree[a.var]);
			if (DECL_P(d))
				TREE_ADDRESSABLE(d) = 1;
			v = fold_convert(lt, build_fold_addr_expr(d));
			if (a.kind == MP_ARG_VAR_HI)
				v = fold_build2(PLUS_EXPR, lt, v,
						build_int_cst(lt, c.n->var[a.var].mem_size - 1));
			break;
		}
		default:
			v = build_int_cst(lt, 0);
			break;
		}
		v = fold_convert(is_ptr ? ptr_type_node : lt, v);
		gimple_seq s = NULL;
		out->safe_push(force_gimple_operand(v, &s, true, NULL_TREE));
		gimple_seq_add_seq(seq, s);
	}

	/* The variable resolved for the pragma's sspec[S] (plugin.cc), or
	   NULL_TREE (the core never asks for one it did not accept). */
	tree scale_decl(int64_t s)
	{
		return s >= 0 && s < 2 ? c.pr->scale_decl[s] : NULL_TREE;
	}

	/* A per-channel scale array: the array's address or the pointer's
	   value, advanced by the lower bound of loop L elements (the runtime
	   reads scale 0 for the loop's first iteration). */
	tree scale_ptr(int64_t s, int l)
	{
		tree d = scale_decl(s);
		if (!d)
			return null_pointer_node;
		tree t = TREE_TYPE(d), p;
		tree et = TREE_TYPE(t);
		if (TREE_CODE(t) == ARRAY_TYPE) {
			TREE_ADDRESSABLE(d) = 1;
			p = build_fold_addr_expr(d);
		} else {
			p = d;
		}
		p = fold_convert(build_pointer_type(char_type_node), p);
		if (l >= 0 && l < c.n->nloops) {
			int64_t esz = TYPE_SIZE_UNIT(et) && tree_fits_shwi_p(TYPE_SIZE_UNIT(et))
				      ? tree_to_shwi(TYPE_SIZE_UNIT(et)) : 0;
			tree off = fold_build2(MULT_EXPR, long_t(), aff(lo_of(l), true),
					       build_int_cst(long_t(), esz));
			p = fold_build_pointer_plus(p, fold_convert(sizetype, off));
		}
		return p;
	}

	/* "FILE:LINE" of the nest's loop, as a string literal (run-time
	   reports of verify mode).  Inside a macro: where the macro is
	   expanded, so that two nests stamped by one macro differ. */
	tree nest_loc()
	{
		location_t l = linemap_resolve_location(line_table, c.loop_loc,
							LRK_MACRO_EXPANSION_POINT, NULL);
		expanded_location x = expand_location(l);
		/* any length (a long path is not cut: the profile's key) */
		std::string s = std::string(x.file ? x.file : "?") + ":" + std::to_string(x.line);
		return build_string_literal(s.size() + 1, s.c_str());
	}

	/* The value of load E of invariant memory (mp_invariant_load), read
	   before the nest from its address, in its own type (through a
	   char pointer: any object may be read so). */
	tree load(int e)
	{
		const mp_expr &x = c.n->expr[e];
		tree ty = type_of_scalar(x.type);
		if (x.access < 0 || !mp_invariant_load(c.n, x.access))
			return build_zero_cst(ty);
		return fold_build2(MEM_REF, ty, addr(x.access, true),
				   build_int_cst(build_pointer_type(char_type_node), 0));
	}

	/* A loop-invariant scalar expression in its own C type (floats stay
	   floats), for arguments of fused epilogue helpers. */
	tree typed(int e)
	{
		const mp_expr &x = c.n->expr[e];
		tree ty = type_of_scalar(x.type);
		switch (x.kind) {
		case MP_X_CONST:
			if (x.type == MP_TY_F32 || x.type == MP_TY_F64) {
				REAL_VALUE_TYPE r;
				char hex[64];
				snprintf(hex, sizeof hex, "%a", x.fcst);
				real_from_string(&r, hex);
				return build_real(ty, r);
			}
			return build_int_cst(ty, x.cst);
		case MP_X_VAR:
			return value_of(c, x.var);
		case MP_X_LOAD:   /* invariant memory (mp_invariant_load) */
			return load(e);
		case MP_X_CAST:
			return conv(ty, typed(x.a));
		case MP_X_NEG:
			return fold_build1(NEGATE_EXPR, ty, conv(ty, typed(x.a)));
		case MP_X_ADD: case MP_X_SUB: case MP_X_MUL:
			return fold_build2(x.kind == MP_X_ADD ? PLUS_EXPR : x.kind == MP_X_SUB ? MINUS_EXPR
					   : MULT_EXPR, ty, conv(ty, typed(x.a)),
					   conv(ty, typed(x.b)));
		default:
			return build_int_cst(ty, 0);
		}
	}

	/* A loop-invariant scalar expression of the description. */
	tree expr(int e)
	{
		const mp_expr &x = c.n->expr[e];
		switch (x.kind) {
		case MP_X_CONST:
			return build_int_cst(long_t(), x.cst);
		case MP_X_VAR:
			return conv(long_t(), value_of(c, x.var));
		case MP_X_LOAD:
			return conv(long_t(), load(e));
		case MP_X_CAST:
			return conv(long_t(), conv(type_of_scalar(x.type), expr(x.a)));
		case MP_X_NEG:
			return fold_build1(NEGATE_EXPR, long_t(), expr(x.a));
		case MP_X_ADD: case MP_X_SUB: case MP_X_MUL:
			return fold_build2(x.kind == MP_X_ADD ? PLUS_EXPR : x.kind == MP_X_SUB ? MINUS_EXPR
					   : MULT_EXPR, long_t(), expr(x.a), expr(x.b));
		default:
			return build_int_cst(long_t(), 0);
		}
	}
};

/* The runtime's entry points, built once per compilation; they live across
   functions, so they are GC roots (plugin.cc). */
tree mp_rt_decls[MP_RT_DECLS];
enum { RT_I8_NEST, RT_LP_NEST, RT_RELEASE, RT_TILE_ADD, RT_OMP_THREADS, RT_SMALL };

static tree runtime_fn(tree *slot, const char *name, tree type)
{
	if (!*slot) {
		*slot = build_fn_decl(name, type);
		DECL_EXTERNAL(*slot) = 1;
		TREE_PUBLIC(*slot) = 1;
		DECL_ARTIFICIAL(*slot) = 1;
		TREE_NOTHROW(*slot) = 1;
	}
	return *slot;
}

/* T as a GIMPLE value; the statements computing it are appended to SEQ
   (force_gimple_operand itself replaces its sequence). */
/* The TY at address PTR (a GIMPLE value).  Not build_simple_mem_ref: it
 * takes the type from PTR's, and GIMPLE drops pointer conversions
 * (`(int *)&acc` is `&acc`, acc an int[2]): the access became the whole
 * object, a store of the accumulator at acc[0] wrote acc[1] too (found
 * by a review helper). */
static tree mem_at(tree ptr, tree ty)
{
	return build2(MEM_REF, ty, ptr, build_int_cst(build_pointer_type(ty), 0));
}

static tree gval(tree t, gimple_seq *seq)
{
	gimple_seq s = NULL;
	tree r = force_gimple_operand(t, &s, true, NULL_TREE);
	gimple_seq_add_seq(seq, s);
	return r;
}

/* A new empty block on edge E; the CFG stays in source shape. */
static basic_block block_on_edge(edge e)
{
	return split_edge(e);
}

/* COND_BB ends in "if (tile CODE 0)" (NE_EXPR, EQ_EXPR): true goes to a new
   block (returned), whose only successor is TO; false keeps COND_BB's old
   successor. */
static basic_block branch_if(basic_block cond_bb, tree_code code, tree tile, basic_block to)
{
	gimple_stmt_iterator g = gsi_last_bb(cond_bb);
	gcond *cnd = gimple_build_cond(code, tile, null_pointer_node, NULL_TREE, NULL_TREE);
	gsi_insert_after(&g, cnd, GSI_NEW_STMT);
	edge old = single_succ_edge(cond_bb);
	old->flags &= ~EDGE_FALLTHRU;
	old->flags |= EDGE_FALSE_VALUE;
	old->probability = profile_probability::even();
	basic_block fast = create_empty_bb(cond_bb);
	add_bb_to_loop(fast, cond_bb->loop_father);
	edge t = make_edge(cond_bb, fast, EDGE_TRUE_VALUE);
	t->probability = profile_probability::even();
	fast->count = cond_bb->count;
	edge o = make_edge(fast, to, EDGE_FALLTHRU);
	o->probability = profile_probability::always();
	return fast;
}

static basic_block branch_if_tile(basic_block cond_bb, tree tile, basic_block to)
{
	return branch_if(cond_bb, NE_EXPR, tile, to);
}

/* CUR falls through to its successor; end it in "if (COND)", the edge
   to a new block (returned) between CUR and that successor marked FLAG
   (EDGE_TRUE_VALUE or EDGE_FALSE_VALUE) with probability P.  The caller
   adds CUR's other edge. */
static basic_block end_in_cond(basic_block cur, tree cond, int flag, profile_probability p)
{
	basic_block next = split_edge(single_succ_edge(cur));
	gimple_stmt_iterator g = gsi_last_bb(cur);
	gsi_insert_after(&g, gimple_build_cond(NE_EXPR, cond, boolean_false_node, NULL_TREE,
					       NULL_TREE), GSI_NEW_STMT);
	edge e = single_succ_edge(cur);
	e->flags &= ~EDGE_FALLTHRU;
	e->flags |= flag;
	e->probability = p;
	return next;
}

/* CUR falls through to its successor; make it "if (COND) SET" and return
   the block where both paths meet. */
static basic_block guarded(basic_block cur, tree cond, gimple_seq set,
			   profile_probability p_set = profile_probability::likely())
{
	basic_block join = end_in_cond(cur, cond, EDGE_FALSE_VALUE, p_set.invert());
	basic_block sb = create_empty_bb(cur);
	add_bb_to_loop(sb, cur->loop_father);
	sb->count = cur->count;
	edge t = make_edge(cur, sb, EDGE_TRUE_VALUE);
	t->probability = p_set;
	make_edge(sb, join, EDGE_FALLTHRU)->probability = profile_probability::always();
	gimple_stmt_iterator g = gsi_start_bb(sb);
	gsi_insert_seq_after(&g, set, GSI_CONTINUE_LINKING);
	return join;
}

/* CUR falls through to its successor; make it "if (COND)" with the true
   edge to a new block (returned) that falls through to that successor,
   the false edge to SKIP. */
static basic_block continue_if(basic_block cur, tree cond, basic_block skip)
{
	basic_block next = end_in_cond(cur, cond, EDGE_TRUE_VALUE, profile_probability::likely());
	make_edge(cur, skip, EDGE_FALSE_VALUE)->probability = profile_probability::unlikely();
	return next;
}

/* __mixprec_small[I] (runtime/nest.c): the inline guard's table. */
static tree small_entry(int i)
{
	tree &d = mp_rt_decls[RT_SMALL];
	if (!d) {
		tree at = build_array_type_nelts(long_integer_type_node, MP_SMALL_GUARD_LEN);
		d = build_decl(UNKNOWN_LOCATION, VAR_DECL, get_identifier("__mixprec_small"), at);
		DECL_EXTERNAL(d) = 1;
		TREE_PUBLIC(d) = 1;
		DECL_ARTIFICIAL(d) = 1;
	}
	return build4(ARRAY_REF, long_integer_type_node, d, build_int_cst(integer_type_node, i),
		      NULL_TREE, NULL_TREE);
}

/* The inline guard (polyhedral/mp_nest.h, mp_plan_work): true when the
   call of plan P (its recipes ARGS) is worth making.  Its code is appended
   to SEQ. */
static tree small_guard(mp_mat &m, const mp_plan &p, const mp_arg *args, int na,
			tree mvar, tree nvar, gimple_seq *seq)
{
	mp_work w;
	mp_plan_work(m.c.n, &p, args, na, &w);
	tree lt = long_t(), cap = build_int_cst(lt, MP_SMALL_CAP);
	tree prod = build_int_cst(lt, 1), out = NULL_TREE, rows = build_int_cst(lt, 1);
	for (int i = 0; i <= w.nloops; i++) {
		if (i == w.nout)
			prod = out = gval(prod, seq);
		if (i == w.nloops)
			break;
		/* an extent below 0 (a variable step <= 0) counts as 0: the
		   call is still made when the guard is off (g[0] = 0) */
		int l = w.loops[i];
		tree x = l == p.loop_i ? mvar : l == p.loop_j ? nvar : m.extent(l);
		tree e = fold_build2(MIN_EXPR, lt, fold_build2(MAX_EXPR, lt, x, build_int_cst(lt, 0)),
				     cap);
		prod = fold_build2(MIN_EXPR, lt, fold_build2(MULT_EXPR, lt, prod, e), cap);
		if (i < w.nout && (w.row_loops >> i & 1))
			rows = fold_build2(MIN_EXPR, lt,
					   fold_build2(MULT_EXPR, lt, rows, unshare_expr(e)), cap);
	}
	tree work = gval(prod, seq);   /* read up to three times */
	int g = w.slot;
	/* the form's two constants: contiguous in k (g[1], g[2]) or strided
	   (g[3], g[4]), picked by the layout the model sees; without the
	   strides, the larger of the two estimates */
	auto est = [&](tree c_out, tree c_mac) {   /* out*c_out + work*c_mac */
		return fold_build2(PLUS_EXPR, lt, fold_build2(MULT_EXPR, lt, out, c_out),
				   fold_build2(MULT_EXPR, lt, work, c_mac));
	};
	tree cost;
	if (w.stride[0] >= 0) {
		vec<tree> st = vNULL;
		for (int s = 0; s < 4; s++)
			m.arg(args[w.stride[s]], seq, &st);
		tree esz = build_int_cst(lt, w.esz);
		tree kc = fold_build2(TRUTH_AND_EXPR, boolean_type_node,
				      fold_build2(TRUTH_AND_EXPR, boolean_type_node,
						  fold_build2(EQ_EXPR, boolean_type_node, st[1], esz),
						  fold_build2(EQ_EXPR, boolean_type_node, st[2], esz)),
				      fold_build2(TRUTH_AND_EXPR, boolean_type_node,
						  fold_build2(NE_EXPR, boolean_type_node, st[0], esz),
						  fold_build2(NE_EXPR, boolean_type_node, st[3], esz)));
		st.release();
		tree kcv = gval(kc, seq);
		cost = est(fold_build3(COND_EXPR, lt, kcv, small_entry(g + 1), small_entry(g + 3)),
			   fold_build3(COND_EXPR, lt, kcv, small_entry(g + 2), small_entry(g + 4)));
	} else {
		cost = fold_build2(MAX_EXPR, lt, est(small_entry(g + 1), small_entry(g + 2)),
				   est(small_entry(g + 3), small_entry(g + 4)));
	}
	tree least = small_entry(g);
	if (w.rows_entry) {   /* + rows * the padded copy's cost per row */
		tree r = fold_build3(COND_EXPR, lt,
				     fold_build2(LT_EXPR, boolean_type_node, work, cap),
				     fold_build2(MULT_EXPR, lt, gval(rows, seq),
						 small_entry(w.rows_entry)),
				     build_int_cst(lt, 0));
		least = fold_build2(PLUS_EXPR, lt, least, r);
	}
	tree v = create_tmp_var(boolean_type_node, "mp_go");
	gimple_seq_add_stmt(seq, gimple_build_assign(
		v, gval(fold_build2(GE_EXPR, boolean_type_node, cost, least), seq)));
	return v;
}

/* The values the nest narrows to a smaller type (mp_narrow): true when
   each lies in its type's range at every corner of the box of its
   iterators' ranges over the nest (plan P's range_lo / range_hi).  Code
   appended to SEQ. */
static tree narrow_guard(mp_mat &m, const mp_plan &p, gimple_seq *seq)
{
	const mp_nest *n = m.c.n;
	tree lt = long_t(), ok = boolean_true_node;
	for (int i = 0; i < n->nnarrow; i++) {
		const mp_narrow &w = n->narrow[i];
		int it[2 * MP_MAX_TERMS], ni = mp_aff_iters(n, &w.e, it);
		for (unsigned corner = 0; corner < (1u << ni); corner++) {
			tree r = build_int_cst(lt, w.e.cst);
			for (int t = 0; t < w.e.n; t++) {
				tree f = build_int_cst(lt, w.e.t[t].coef);
				for (int v : { w.e.t[t].v1, w.e.t[t].v2 }) {
					if (v < 0)
						continue;
					int k = 0;
					while (k < ni && it[k] != v)
						k++;
					int l = n->var[v].loop;
					tree x = k == ni ? m.var(v, false)
						 : m.aff(corner >> k & 1 ? &p.range_hi[l] : &p.range_lo[l], false);
					f = fold_build2(MULT_EXPR, lt, f, x);
				}
				r = fold_build2(PLUS_EXPR, lt, r, f);
			}
			tree rv = gval(r, seq);
			tree in = fold_build2(TRUTH_AND_EXPR, boolean_type_node,
					      fold_build2(GE_EXPR, boolean_type_node, rv,
							  build_int_cst(lt, w.lo)),
					      fold_build2(LE_EXPR, boolean_type_node, rv,
							  build_int_cst(lt, w.hi)));
			ok = fold_build2(TRUTH_AND_EXPR, boolean_type_node, ok, in);
		}
	}
	return ok;
}

/* Final value of loop L's iterator (max(lo, hi + 1)), in its type. */
/* The value loop L leaves in its iterator: max(lo, hi + 1) counting up;
 * counting down from hi, lo - 1 when it ran and hi when it did not:
 * min(hi, lo - 1). */
static tree final_iter(mp_ctx &c, mp_mat &m, int l)
{
	const mp_loop *lp = &c.n->loop[l];
	tree lo = m.aff(&lp->lo, true), hi = m.aff(&lp->hi, true), one = build_int_cst(long_t(), 1);
	tree v = lp->step < 0
		? fold_build2(MIN_EXPR, long_t(), hi, fold_build2(MINUS_EXPR, long_t(), lo, one))
		: lp->step > 1   /* lo + step * iterations */
		? fold_build2(PLUS_EXPR, long_t(), lo, fold_build2(MULT_EXPR, long_t(), m.extent(l),
								   build_int_cst(long_t(), lp->step)))
		: fold_build2(MAX_EXPR, long_t(), lo, fold_build2(PLUS_EXPR, long_t(), hi, one));
	return fold_convert(TREE_TYPE(c.loop_iter[l]), v);
}

static void assign(gimple_seq *seq, tree lhs, tree val)
{
	tree v = gval(fold_convert(TREE_TYPE(lhs), val), seq);
	gimple_seq_add_stmt(seq, gimple_build_assign(lhs, v));
}

bool mp_rewrite(mp_ctx &c, const mp_plan *plans, int count)
{
	const mp_plan &p = plans[0];
	mp_mat m(c);
	m.bx = &p;
	const mp_nest *n = c.n;
	tree ptr = ptr_type_node;
	tree vt = build_varargs_function_type_list(ptr, long_t(), long_t(), NULL_TREE);
	tree nest_fn = p.src_float ? runtime_fn(&mp_rt_decls[RT_LP_NEST], "__mixprec_lp_nest", vt)
				   : runtime_fn(&mp_rt_decls[RT_I8_NEST], "__mixprec_i8_nest", vt);
	tree rel_fn = runtime_fn(&mp_rt_decls[RT_RELEASE], "__mixprec_release",
				 build_function_type_list(void_type_node, ptr, NULL_TREE));

	edge e0 = mp_loop_entry(c.top);
	edge ex = mp_loop_exit(c.top);
	if (!e0 || !ex) {
		c.fail(c.loop_loc, "the nest has no single entry and exit");
		return false;
	}
	if (p.src_float && p.mode == MP_OUT_FUSED) {
		c.fail(c.loop_loc, "a floating-point source has no fused epilogue");
		return false;
	}
	if (p.src_float && p.mode == MP_OUT_TILE && c.loops[p.loop_k]->inner &&
	    (p.acc_mem < 0 ||
	     mp_scalar_of_type(TREE_TYPE(c.access_ref[p.acc_mem])) != p.src_type)) {
		/* __mixprec_tile_add adds a tile of the source type into an
		   output of that same type */
		c.fail(c.loop_loc, "the output of the contraction is not of the operands' "
		       "type (%s)", p.src_type == MP_TY_F64 ? "double" : "float");
		return false;
	}
	/* as plugin-clang/rewrite.cc: tile mode under an OpenMP directive for
	   one contraction, the loops not collapsed, loop k inside the
	   directive's loop */
	if (c.pr->omp_go && p.mode == MP_OUT_TILE &&
	    (count > 1 || c.pr->omp_collapse > 1 || c.loops[p.red_loop] == c.top ||
	     c.pr->omp_num_threads)) {
		c.fail(c.loop_loc, MP_MSG_OMP_TILE, p.what);
		return false;
	}
	int li = p.loop_i, lj = p.loop_j, lk = p.loop_k;
	int vi = n->loop[li].iter, vj = lj >= 0 ? n->loop[lj].iter : -1;

	/* 1. the runtime call, on the nest's entry edge */
	gimple_seq seq = NULL;
	vec<tree> args = vNULL;
	tree zero = build_int_cst(long_t(), 0);
	/* the thread count of the OpenMP directive the call replaces
	   (omp.cc): __mixprec_omp_threads(n) around the call */
	tree thr_fn = NULL_TREE;
	if (c.pr->omp_go && (c.pr->omp_threads || p.mode == MP_OUT_TILE)) {
		/* tile mode: -1, the loops left run on the calling thread (the
		   runtime declines when the construct's team would be wide) */
		thr_fn = runtime_fn(&mp_rt_decls[RT_OMP_THREADS], "__mixprec_omp_threads",
				    build_function_type_list(void_type_node, long_t(), NULL_TREE));
		gimple_seq_add_stmt(&seq, gimple_build_call(thr_fn, 1,
							    p.mode == MP_OUT_TILE
							    ? build_int_cst(long_t(), -1)
							    : c.pr->omp_threads));
	}

	/* before the calls, unconditionally: the extents the tile reads use,
	   no tile yet, and the inline guard */
	gimple_seq init = NULL, head = NULL;
	tree mvar = create_tmp_var(long_t(), "mp_M");
	tree nvar = create_tmp_var(long_t(), "mp_N");
	assign(&init, mvar, zero);
	assign(&init, nvar, zero);
	assign(&head, mvar, m.extent(li));
	assign(&head, nvar, m.extent(lj));
	/* a group loop: its trip count, and where its step is set at run time
	   (1 + 2^-52) / step, for the tile reads' group index
	   (mp_mat::iteration), computed once */
	tree rstep = NULL_TREE, gvar = NULL_TREE;
	int gsv = p.loop_g >= 0 ? m.step_var_of(n->loop[p.loop_g].iter) : -1;
	if (p.loop_g >= 0) {
		gvar = create_tmp_var(long_t(), "mp_G");
		assign(&init, gvar, zero);
		assign(&head, gvar, m.extent(p.loop_g));
	}
	if (gsv >= 0) {
		rstep = create_tmp_var(double_type_node, "mp_rstep");
		assign(&init, rstep, build_real(double_type_node, dconst1));
		tree s = fold_build2(MAX_EXPR, long_t(), fold_convert(long_t(), m.var(gsv, false)),
				     build_int_cst(long_t(), 1));
		REAL_VALUE_TYPE up;   /* 1 + 2^-52 */
		real_from_string(&up, "0x1.0000000000001p+0");
		assign(&head, rstep, fold_build2(RDIV_EXPR, double_type_node,
						 build_real(double_type_node, up),
						 fold_build1(FLOAT_EXPR, double_type_node, s)));
	}
	/* one call per contraction (rows unrolled into accumulators: several,
	   all in tile mode); the fast path needs every tile */
	static mp_arg recipe[MP_MAX_CALL_ARGS];
	std::vector<tree> tiles;
	tree go = NULL_TREE;
	for (int q = 0; q < count; q++) {
		int na = mp_plan_call_args(n, &plans[q], &c.pr->p, recipe, MP_MAX_CALL_ARGS);
		if (na < 0) {
			c.fail(c.loop_loc, "the run-time call would have too many arguments");
			return false;
		}
		m.bx = &plans[q];
		if (q == 0) {
			go = small_guard(m, p, recipe, na, mvar, nvar, &head);
			if (n->nnarrow) {   /* and the narrowed values fit */
				tree both = create_tmp_var(boolean_type_node, "mp_go");
				tree fit = narrow_guard(m, p, &head);
				assign(&head, both, gval(fold_build2(TRUTH_AND_EXPR,
								     boolean_type_node, go, fit),
							 &head));
				go = both;
			}
		}
		/* the arguments share their values (mp_mat::memo), computed
		   under the guard like the arguments themselves */
		m.memo_to(&seq);
		if (q == 0) {   /* loops i and j: the extents computed above */
			m.memo_val[mp_mat::key(mp_mat::K_EXTENT, li)] = mvar;
			if (lj >= 0)
				m.memo_val[mp_mat::key(mp_mat::K_EXTENT, lj)] = nvar;
		}
		for (int i = 0; i < na; i++)
			m.arg(recipe[i], &seq, &args);
		m.memo_to(NULL);
		m.bx = &p;
		tree t = create_tmp_var(ptr, "mp_tile");
		gimple_seq_add_stmt(&init, gimple_build_assign(t, null_pointer_node));
		gcall *call = gimple_build_call_vec(nest_fn, args);
		args.release();
		gimple_call_set_lhs(call, t);
		gimple_set_location(call, c.loop_loc);
		gimple_seq_add_stmt(&seq, call);
		tiles.push_back(t);
	}
	if (thr_fn)
		gimple_seq_add_stmt(&seq, gimple_build_call(thr_fn, 1, zero));
	/* the calls only when the guard says they are worth making */
	basic_block pre = block_on_edge(e0);
	gimple_stmt_iterator g = gsi_last_bb(pre);
	gsi_insert_seq_after(&g, init, GSI_CONTINUE_LINKING);
	/* the extents of the loops around the contraction, outer to inner,
	   each read only when the ones outside it are positive, as the loop
	   as written reads them; any other: no call, the loop as written
	   (mp_plan_live_loops: `k < l->n` with l == NULL and M == 0) */
	int live[MP_MAX_LOOPS];
	int nlive = mp_plan_live_loops(n, &p, live, MP_MAX_LOOPS);
	basic_block skip = NULL;
	for (int q = 0; q < nlive; q++) {
		tree pos = fold_build2(GT_EXPR, boolean_type_node, m.extent(live[q]), zero);
		if (integer_onep(pos))
			continue;
		if (!skip)
			skip = split_edge(single_succ_edge(pre));
		gimple_seq s = NULL;
		tree ok = gval(pos, &s);
		g = gsi_last_bb(pre);
		gsi_insert_seq_after(&g, s, GSI_CONTINUE_LINKING);
		pre = continue_if(pre, ok, skip);
	}
	g = gsi_last_bb(pre);
	gsi_insert_seq_after(&g, head, GSI_CONTINUE_LINKING);
	pre = guarded(pre, go, seq, profile_probability::even());
	if (skip)
		pre = skip;
	seq = NULL;
	tree tile = tiles[0];
	if (count > 1) {
		/* all or nothing: tile = every tile non-null ? tiles[0] : 0 */
		tree ok = boolean_true_node;
		for (tree t : tiles)
			ok = fold_build2(TRUTH_AND_EXPR, boolean_type_node, ok,
					 fold_build2(NE_EXPR, boolean_type_node, t, null_pointer_node));
		tile = create_tmp_var(ptr, "mp_tiles");
		assign(&seq, tile, fold_build3(COND_EXPR, ptr, ok, tiles[0], null_pointer_node));
	}

	/* the copy of an OpenMP construct (omp.cc): the construct runs when
	   the call falls back (go = tile == 0); the copy, never (whole nest)
	   or only with the tile (tile mode: its loops read the tile) */
	if (c.pr->omp_go)
		assign(&seq, c.pr->omp_go, fold_build2(EQ_EXPR, integer_type_node, tile,
							null_pointer_node));
	g = gsi_last_bb(pre);
	gsi_insert_seq_after(&g, seq, GSI_CONTINUE_LINKING);
	if (c.pr->omp_go && p.mode != MP_OUT_TILE) {
		redirect_edge_and_branch(single_succ_edge(pre), ex->dest);
		return true;
	}
	if (c.pr->omp_go)   /* tile mode on the copy: without the tile, past the
			       copy (and its release: nothing to release) */
		branch_if(pre, EQ_EXPR, tile, ex->dest);

	if (p.mode == MP_OUT_DIRECT || p.mode == MP_OUT_FUSED) {
		/* 2a. the whole nest is the fallback */
		basic_block fast = branch_if_tile(pre, tile, ex->dest);
		gimple_seq fin = NULL;
		basic_block cur = fast;
		for (size_t l = 0; l < c.loops.size(); l++) {
			tree v = c.loop_iter[l];
			if (!n->var[n->loop[l].iter].used_after)
				continue;
			if (l == 0) {
				assign(&fin, v, final_iter(c, m, 0));
				continue;
			}
			/* an inner iterator changes only if every outer loop ran:
			   assign it under that condition (reading its old value
			   could be a read of an uninitialized variable) */
			tree ne = boolean_true_node;
			for (int o = n->loop[l].parent; o >= 0; o = n->loop[o].parent)
				ne = fold_build2(TRUTH_AND_EXPR, boolean_type_node, ne,
						 fold_build2(GT_EXPR, boolean_type_node, m.extent(o), zero));
			tree nev = gval(fold_convert(boolean_type_node, ne), &fin);
			gimple_seq set = NULL;
			assign(&set, v, final_iter(c, m, (int)l));
			g = gsi_last_bb(cur);
			gsi_insert_seq_after(&g, fin, GSI_CONTINUE_LINKING);
			fin = NULL;
			cur = guarded(cur, nev, set);
		}
		g = gsi_last_bb(cur);
		gsi_insert_seq_after(&g, fin, GSI_CONTINUE_LINKING);
		return true;
	}

	/* 2b. TILE: release after the nest, tile read in place of loop k */
	gimple_seq rel = NULL;
	for (tree t : tiles)
		gimple_seq_add_stmt(&rel, gimple_build_call(rel_fn, 1, t));
	basic_block post = block_on_edge(mp_loop_exit(c.top));
	g = gsi_last_bb(post);
	gsi_insert_seq_after(&g, rel, GSI_CONTINUE_LINKING);

	/* remainder loops folded into loop k (mp_reroll): skipped when the
	   tile is there; first, so that k's exit reaches their test */
	for (class loop *a : c.absorbed) {
		edge ea = mp_loop_entry(a), xa = mp_loop_exit(a);
		if (!ea || !xa)
			return false;
		branch_if_tile(block_on_edge(ea), tile, xa->dest);
	}
	/* the loop the tile read replaces: k, or the outermost of the
	   reduction loops summed around it (plan.loop_sum) */
	class loop *kl = c.loops[p.red_loop];
	edge ek = mp_loop_entry(kl), xk = mp_loop_exit(kl);
	basic_block kcond = block_on_edge(ek);
	basic_block fast = branch_if_tile(kcond, tile, xk->dest);

	gimple_seq fs = NULL;
	if (kl->inner && p.nsum == 0) {
		/* k encloses the rest of the chain (ikj order): add the tile's
		   slice over the loops below k into the output */
		std::vector<char> below(n->nvars, 0);
		for (int l = 0; l < n->nloops; l++)
			for (int q = n->loop[l].parent; q >= 0; q = n->loop[q].parent)
				if (q == lk)
					below[n->loop[l].iter] = 1;
		mp_mat ms(c);
		ms.lo_only = &below;
		tree add_fn = runtime_fn(&mp_rt_decls[RT_TILE_ADD], "__mixprec_tile_add", vt);
		const mp_access &C = n->access[p.acc_mem];
		vec<tree> a2 = vNULL;
		auto L2 = [&](tree t) { a2.safe_push(gval(fold_convert(long_t(), t), &fs)); };
		tree ti = fold_build2(MINUS_EXPR, long_t(), ms.var(vi, true), m.var(vi, true));
		tree tj = vj >= 0 ? fold_build2(MINUS_EXPR, long_t(), ms.var(vj, true), m.var(vj, true))
				  : build_int_cst(long_t(), 0);
		L2(build_int_cst(long_t(), MP_NEST_ABI_VERSION));
		L2(build_int_cst(long_t(), 10));
		a2.safe_push(tile);
		L2(fold_build2(PLUS_EXPR, long_t(), fold_build2(MULT_EXPR, long_t(), ti, nvar), tj));
		L2(nvar);
		L2(build_int_cst(long_t(), 1));
		a2.safe_push(gval(fold_convert(ptr, ms.addr(p.acc_mem, true)), &fs));
		L2(m.coef(&C.off, vi));
		L2(vj >= 0 ? m.coef(&C.off, vj) : zero);
		/* a triangular nest: the loop below k runs over its own range
		   for the current outer iterators (ms: its own bounds), a row
		   or column of the tile's box */
		L2(below[vi] ? (p.tri ? ms.extent(li) : tree(mvar)) : build_int_cst(long_t(), 1));
		L2(vj >= 0 && below[vj] ? (p.tri ? ms.extent(lj) : tree(nvar))
					: build_int_cst(long_t(), 1));
		/* dt: what the tile and C hold (0 int32, 1 float, 2 double),
		   plus 4 where the source subtracts the sum (`C -= a*b`) */
		L2(build_int_cst(long_t(), (!p.src_float ? 0 : p.src_type == MP_TY_F64 ? 2 : 1) +
					   (p.neg ? 4 : 0)));
		gcall *ac = gimple_build_call_vec(add_fn, a2);
		a2.release();
		gimple_set_location(ac, c.loop_loc);
		gimple_seq_add_stmt(&fs, ac);
	} else for (int q = 0; q < count; q++) {
		/* each contraction's accumulator reads its tile */
		const mp_plan &pq = plans[q];
		tree idx = m.iteration(vi);
		if (pq.loop_i2 >= 0)   /* a second row loop: T[(i2*M + i)*N + j] */
			idx = fold_build2(PLUS_EXPR, long_t(),
					  fold_build2(MULT_EXPR, long_t(),
						      m.iteration(n->loop[pq.loop_i2].iter), mvar),
					  idx);
		if (pq.loop_g >= 0)   /* groups: T[(i*G + g)*N + j] */
			idx = fold_build2(PLUS_EXPR, long_t(),
					  fold_build2(MULT_EXPR, long_t(), idx,
						      pq.loop_g == p.loop_g ? gvar
									    : m.extent(pq.loop_g)),
					  m.iteration(n->loop[pq.loop_g].iter,
						      pq.loop_g == p.loop_g ? rstep : NULL_TREE));
		if (vj >= 0)
			idx = fold_build2(PLUS_EXPR, long_t(),
					  fold_build2(MULT_EXPR, long_t(), idx, nvar), m.iteration(vj));
		/* int32 tile; float sources: float or double (the source type) */
		tree et = pq.src_float ? type_of_scalar(pq.src_type) : integer_type_node;
		int esz = pq.src_float && pq.src_type == MP_TY_F64 ? 8 : 4;
		tree i32p = build_pointer_type(et);
		tree tp = fold_build_pointer_plus(fold_convert(i32p, tiles[q]),
						  fold_convert(sizetype,
							       fold_build2(MULT_EXPR, long_t(), idx,
									   build_int_cst(long_t(), esz))));
		tree tv = gval(mem_at(gval(tp, &fs), et), &fs);
		if (pq.acc_var >= 0) {
			tree s = c.var_tree[pq.acc_var];
			tree sum = gval(fold_convert(TREE_TYPE(s), tv), &fs);
			/* `s -= a*b`: the sum subtracted (plan.neg) */
			gimple_seq_add_stmt(&fs, gimple_build_assign(s, pq.neg ? MINUS_EXPR : PLUS_EXPR,
								     s, sum));
		} else {
			tree et = TREE_TYPE(c.access_ref[pq.acc_mem]);
			tree cp = gval(fold_convert(build_pointer_type(et), m.addr(pq.acc_mem, false)), &fs);
			tree old = gval(mem_at(cp, et), &fs);
			tree nv = gval(fold_build2(pq.neg ? MINUS_EXPR : PLUS_EXPR, et, old,
						   fold_convert(et, tv)), &fs);
			gimple_seq_add_stmt(&fs, gimple_build_assign(mem_at(cp, et), nv));
		}
	}
	if (p.red_iter_final)
		assign(&fs, c.loop_iter[lk], final_iter(c, m, lk));
	/* walking pointers the replaced loop would have advanced */
	for (int a = 0; a < p.nadvance; a++) {
		tree v = c.var_tree[p.advance_var[a]];
		/* per iteration, times the iterations (0 for an empty loop) */
		tree by = fold_convert(sizetype,
				       fold_build2(MULT_EXPR, long_t(), m.extent(p.red_loop),
						   fold_convert(long_t(), m.aff(&p.advance_by[a], false))));
		tree nv = gval(fold_build_pointer_plus(v, by), &fs);
		gimple_seq_add_stmt(&fs, gimple_build_assign(v, nv));
	}
	g = gsi_start_bb(fast);
	gsi_insert_seq_after(&g, fs, GSI_CONTINUE_LINKING);
	return true;
}
