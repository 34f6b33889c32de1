/* translate.cc -- GIMPLE (right after "cfg", loops in source shape, user
 * variables not yet in SSA form) into the core's mp_nest description.
 *
 * What the C front end gives at this point, for
 *     for (k = 0; k < K; k++) s += x[i*K + k] * w[j*K + k];
 * is
 *     k = 0; goto <hdr>;
 *   <body>: _4 = i * K; _5 = k + _4; _6 = (sizetype) _5; _7 = x + _6;
 *           _8 = *_7; _9 = (int) _8; ... _17 = _10 * _16; s = s + _17;
 *           k = k + 1;
 *   <hdr>:  if (k < K) goto <body>; else goto <exit>;
 * Compiler temporaries are single-definition SSA names (followed to their
 * definitions), user scalars are VAR_DECLs (statements of the nest), loads
 * and stores are MEM_REF / ARRAY_REF trees (accesses with affine byte
 * offsets).
 */
#include "gcc-common.h"
#include "mp-gcc.h"
#include "internal-fn.h"

/* ----------------------------------------------------------- helpers */

mp_scalar mp_scalar_of_type(tree t)
{
	if (!t)
		return MP_TY_OTHER;
	/* a named address space (__seg_fs, __seg_gs): the runtime reads
	   generic memory only */
	if (!ADDR_SPACE_GENERIC_P(TYPE_ADDR_SPACE(t)))
		return MP_TY_OTHER;
	switch (TREE_CODE(t)) {
	case INTEGER_TYPE:
	case ENUMERAL_TYPE: {
		unsigned p = TYPE_PRECISION(t);
		bool u = TYPE_UNSIGNED(t);
		if (p == 8) return u ? MP_TY_U8 : MP_TY_S8;
		if (p == 16) return u ? MP_TY_U16 : MP_TY_S16;
		if (p == 32) return u ? MP_TY_U32 : MP_TY_S32;
		if (p == 64) return u ? MP_TY_U64 : MP_TY_S64;
		return MP_TY_OTHER;
	}
	case REAL_TYPE:
		if (DECIMAL_FLOAT_TYPE_P(t))   /* _Decimal32/64: not binary */
			return MP_TY_OTHER;
		if (TYPE_PRECISION(t) == 32) return MP_TY_F32;
		if (TYPE_PRECISION(t) == 64) return MP_TY_F64;
		return MP_TY_OTHER;
	case POINTER_TYPE:
		return MP_TY_PTR;
	default:
		return MP_TY_OTHER;
	}
}

/* The user variable a compiler temporary T was computed from: through
 * copies, conversions, pointer arithmetic and loads (`_5 = *_4`, `_4 =
 * rows + _3`: rows), as the clang glue names the variable of an lvalue;
 * NULL_TREE when there is none. */
static tree root_decl(tree t, int depth)
{
	while (depth++ < 20 && t) {
		switch (TREE_CODE(t)) {
		case VAR_DECL: case PARM_DECL:
			return DECL_NAME(t) && !DECL_ARTIFICIAL(t) ? t : NULL_TREE;
		case SSA_NAME: {
			if (SSA_NAME_VAR(t) && DECL_NAME(SSA_NAME_VAR(t)))
				return SSA_NAME_VAR(t);
			gimple *d = SSA_NAME_DEF_STMT(t);
			if (!d || !is_gimple_assign(d))
				return NULL_TREE;
			t = gimple_assign_rhs1(d);
			break;
		}
		case MEM_REF: case ARRAY_REF: case COMPONENT_REF: case ADDR_EXPR:
		case NOP_EXPR: case CONVERT_EXPR: case VIEW_CONVERT_EXPR:
			t = TREE_OPERAND(t, 0);
			break;
		default:
			return NULL_TREE;
		}
	}
	return NULL_TREE;
}

static void name_of(tree t, char *buf, size_t len)
{
	if (TREE_CODE(t) == SSA_NAME) {
		tree v = SSA_NAME_VAR(t);
		tree r = v && DECL_NAME(v) ? v : root_decl(t, 0);
		if (r)
			snprintf(buf, len, "%s", IDENTIFIER_POINTER(DECL_NAME(r)));
		else
			snprintf(buf, len, "_%u", SSA_NAME_VERSION(t));
		return;
	}
	if (DECL_P(t) && DECL_NAME(t)) {
		snprintf(buf, len, "%s", IDENTIFIER_POINTER(DECL_NAME(t)));
		return;
	}
	if (DECL_P(t)) {
		snprintf(buf, len, "D.%u", DECL_UID(t));
		return;
	}
	snprintf(buf, len, "?");
}

bool mp_ctx::in_nest(basic_block bb) const
{
	return bb && bb->index < (int)bb_in.size() && bb_in[bb->index];
}

void mp_ctx::fail(location_t loc, const char *fmt, ...)
{
	if (failed)
		return;
	char buf[MP_REASON_LEN];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	failed = true;
	fail_text = buf;
	fail_loc = loc;
}

/* A variable of the description for tree T (decl or SSA name); FRESH: a
 * new one even if T has one (a loop reusing the iterator of a sibling
 * loop gets a variable of its own: its own ITER, name suffixed). */
int mp_ctx::var_for(tree t, mp_var_kind kind, bool fresh)
{
	auto it = var_of.find(t);
	if (it != var_of.end() && !fresh)
		return it->second;
	char name[MP_NAME_LEN];
	name_of(t, name, sizeof name);
	/* names must be unique in the text form */
	if (mp_nest_find_var(n, name) >= 0) {
		char b2[MP_NAME_LEN];
		snprintf(b2, sizeof b2, "%.30s.%d", name, n->nvars);
		snprintf(name, sizeof name, "%s", b2);
	}
	int v = mp_nest_add_var(n, name, kind, mp_scalar_of_type(TREE_TYPE(t)));
	if (v < 0) {
		fail(loop_loc, "the nest has too many variables");
		return -1;
	}
	var_of[t] = v;
	if ((int)var_tree.size() <= v)
		var_tree.resize(v + 1);
	var_tree[v] = t;
	if (kind == MP_VAR_PARAM && outer_iters.count(t))
		n->var[v].outer_iter = 1;
	if (kind == MP_VAR_PARAM && DECL_P(t) && !is_gimple_reg(t) && protected_decls.count(t)) {
		n->var[v].in_memory = 1;
		n->var[v].mem_size = tree_to_shwi(DECL_SIZE_UNIT(t));
	}
	return v;
}


/* The ITER variable a read of iterator DECL at statement AT sees: the one
 * of the innermost loop around AT that DECL drives; outside them all, any
 * of the variables of DECL (mp_var.same_as groups them for the core).
 * -1 when DECL drives no loop of the nest. */
int mp_ctx::iter_of(tree decl, gimple *at)
{
	auto it = iter_var.find(decl);
	if (it == iter_var.end())
		return -1;
	class loop *l = at && gimple_bb(at) ? gimple_bb(at)->loop_father : NULL;
	for (; l; l = loop_outer(l))
		for (size_t i = 0; i < loops.size(); i++)
			if (loops[i] == l && loop_iter[i] == decl)
				return n->loop[i].iter;
	return it->second;
}

/* The value of T at AT when T steps beside an iterator (stepped_ivs): AT
 * in its loop, not after its step.  False elsewhere. */
bool mp_ctx::stepped_at(tree t, gimple *at, mp_aff *r)
{
	auto it = stepped.find(t);
	if (it == stepped.end() || !at || !gimple_bb(at) ||
	    !flow_bb_inside_loop_p(it->second.l, gimple_bb(at)))
		return false;
	gimple *st = it->second.step;
	if (at == st || (gimple_bb(at) == gimple_bb(st) && gimple_uid(at) > gimple_uid(st)))
		return false;
	*r = it->second.val;
	return true;
}

/* The single in-nest definition of artificial temporary T that reaches the
 * use at USE (same block, before it), or NULL. */
gimple *mp_ctx::inline_def(tree t, gimple *use)
{
	auto it = defs.find(t);
	if (it == defs.end() || !DECL_ARTIFICIAL(t) || !use)
		return NULL;
	/* the last definition before USE in its block (GCC may reuse one
	   formal temporary for equal expressions: several definitions) */
	gimple *d = NULL;
	for (gimple *x : it->second)
		if (gimple_bb(x) == gimple_bb(use) && gimple_uid(x) < gimple_uid(use) &&
		    (!d || gimple_uid(x) > gimple_uid(d)))
			d = x;
	if (!d || !is_gimple_assign(d))
		return NULL;
	/* every use of T reads a definition of its own block, made before it:
	   no value of T flows between blocks */
	auto u = uses.find(t);
	if (u != uses.end())
		for (gimple *g : u->second) {
			bool local = false;
			for (gimple *x : it->second)
				local |= gimple_bb(x) == gimple_bb(g) && gimple_uid(x) < gimple_uid(g);
			if (!local)
				return NULL;
		}
	return d;
}

/* The single in-nest assignment of user scalar T when it dominates USE
 * from a loop enclosing USE (a row pointer `p = x + i*K` set before the
 * loop that reads p[k], or `int row = i*ld`), or NULL.  Between that
 * assignment and USE no operand of its right-hand side changes. */
gimple *mp_ctx::dominating_def(tree t, gimple *use)
{
	auto it = defs.find(t);
	if (it == defs.end() || it->second.size() != 1 || !use)
		return NULL;
	gimple *d = it->second[0];
	if (!is_gimple_assign(d))
		return NULL;
	basic_block db = gimple_bb(d), ub = gimple_bb(use);
	if (db == ub ? gimple_uid(d) >= gimple_uid(use)
		     : !dominated_by_p(CDI_DOMINATORS, ub, db))
		return NULL;
	if (!flow_bb_inside_loop_p(db->loop_father, ub))
		return NULL;
	return d;
}

bool mp_ctx::inlined_temp(gimple *g)
{
	if (!is_gimple_assign(g))
		return false;
	tree l = gimple_assign_lhs(g);
	if (!is_reg_decl_p(l) || !DECL_ARTIFICIAL(l))
		return false;
	auto u = uses.find(l);
	if (u == uses.end() || u->second.empty())
		return true;   /* dead temporary */
	/* every use reads the definition next to it (GCC reuses one formal
	   temporary for equal expressions, in OpenMP bodies at -O1 and up:
	   several definitions, each with its own uses) */
	bool mine = false;
	for (gimple *use : u->second) {
		gimple *d = inline_def(l, use);
		if (!d)
			return false;
		mine |= d == g;
	}
	return mine;
}

/* ------------------------------------------------------ affine forms */

/* INTEGER_CST T as a signed value of its own precision. */
int64_t mp_int_cst(tree t)
{
	unsigned prec = TYPE_PRECISION(TREE_TYPE(t));
	uint64_t v = TREE_INT_CST_LOW(t);
	if (prec < 64 && (v >> (prec - 1)) & 1)
		v |= ~(uint64_t)0 << prec;
	else if (prec < 64)
		v &= ((uint64_t)1 << prec) - 1;
	return (int64_t)v;
}

/* Memory decl T (a global or an addressable local) read as if it were a
 * parameter: only when nothing in the nest can write it directly.  Stores
 * through pointers are covered at run time (its bytes join the ranges that
 * written ranges must not overlap). */
bool mp_ctx::invariant_memory_decl(tree t, gimple *at)
{
	/* a volatile read is an access of its own each time (`k < vK`):
	   never one value read once (found by a review helper; clang
	   refused it already) */
	if (TREE_THIS_VOLATILE(t) || TYPE_VOLATILE(TREE_TYPE(t))) {
		fail(at && gimple_location(at) != UNKNOWN_LOCATION ? gimple_location(at) : loop_loc,
		     "the volatile access '%s' must stay as written",
		     DECL_NAME(t) ? IDENTIFIER_POINTER(DECL_NAME(t)) : "?");
		return false;
	}
	if (stored_decls.count(t)) {
		fail(at ? gimple_location(at) : loop_loc, "'%s' is read as a loop-invariant value "
		     "but the nest writes it", DECL_NAME(t) ? IDENTIFIER_POINTER(DECL_NAME(t)) : "?");
		return false;
	}
	if (has_opaque)
		return false;
	if (!DECL_SIZE_UNIT(t) || !tree_fits_shwi_p(DECL_SIZE_UNIT(t)))
		return false;
	protected_decls.insert(t);
	return true;
}

/* ------------------------------------------------ derived parameters */

/* Is REF a load the nest may treat as a parameter: a non-volatile lvalue
 * whose address is itself invariant (x->n, p->dims[1], w->q).  Its bytes
 * join the ranges the nest's stores must not hit (a derived var in
 * memory, protected at run time like a global). */
static bool invariant_lvalue(tree ref)
{
	return ref && (TREE_CODE(ref) == COMPONENT_REF || TREE_CODE(ref) == MEM_REF ||
		       TREE_CODE(ref) == ARRAY_REF) &&
	       !TREE_THIS_VOLATILE(ref) && !TYPE_VOLATILE(TREE_TYPE(ref)) &&
	       TREE_CODE(TYPE_SIZE_UNIT(TREE_TYPE(ref))) == INTEGER_CST;
}

/* The value of T where AT reads it, rebuilt as a GENERIC tree of values
 * available before the nest (parameters, constants, memory the nest may
 * treat as invariant), or NULL_TREE when it depends on the nest's
 * iterators or locals.  Loads in it become protected derived variables
 * (derived_var). */
tree mp_ctx::invariant_value(tree t, gimple *at, int depth)
{
	if (!t || depth > 20 || has_opaque)
		return NULL_TREE;
	switch (TREE_CODE(t)) {
	case INTEGER_CST:
		return t;
	case SSA_NAME: {
		gimple *d = SSA_NAME_DEF_STMT(t);
		if (SSA_NAME_IS_DEFAULT_DEF(t) || !d || !in_nest(gimple_bb(d)))
			return t;
		return invariant_rhs(d, depth + 1);
	}
	case VAR_DECL: case PARM_DECL:
		if (iter_var.count(t))
			return NULL_TREE;
		if (defs.count(t)) {
			/* a single definition in the nest: rebuild it there */
			gimple *d = inline_def(t, at);
			if (!d)
				d = dominating_def(t, at);
			return d ? invariant_rhs(d, depth + 1) : NULL_TREE;
		}
		if (!is_gimple_reg(t) && !invariant_memory_decl(t, at))
			return NULL_TREE;
		return t;
	case ADDR_EXPR: {
		/* &x->q[j]: the address of an invariant lvalue; each part of
		   it that varies (an array index, the pointer under a MEM_REF)
		   rebuilt as invariant, or NULL_TREE: `r = gidx[k]` read as a
		   parameter would be gidx[k] at the nest's entry (found by the
		   fuzzer's zero-skip guards on a global operand) */
		tree copy = unshare_expr(t);
		tree *rp = &TREE_OPERAND(copy, 0);
		for (;;) {
			tree r = *rp;
			switch (TREE_CODE(r)) {
			case ARRAY_REF: case ARRAY_RANGE_REF: {
				if ((TREE_OPERAND(r, 2) && TREE_CODE(TREE_OPERAND(r, 2)) != INTEGER_CST) ||
				    (TREE_OPERAND(r, 3) && TREE_CODE(TREE_OPERAND(r, 3)) != INTEGER_CST))
					return NULL_TREE;
				tree ix = invariant_value(TREE_OPERAND(r, 1), at, depth + 1);
				if (!ix)
					return NULL_TREE;
				TREE_OPERAND(r, 1) = ix;
				rp = &TREE_OPERAND(r, 0);
				continue;
			}
			case COMPONENT_REF:
				if (TREE_OPERAND(r, 2))
					return NULL_TREE;   /* a variable field offset */
				rp = &TREE_OPERAND(r, 0);
				continue;
			case REALPART_EXPR: case IMAGPART_EXPR: case VIEW_CONVERT_EXPR:
				rp = &TREE_OPERAND(r, 0);
				continue;
			case MEM_REF: {
				if (TREE_CODE(TREE_OPERAND(r, 1)) != INTEGER_CST)
					return NULL_TREE;
				tree p = invariant_value(TREE_OPERAND(r, 0), at, depth + 1);
				if (!p)
					return NULL_TREE;
				TREE_OPERAND(r, 0) = p;
				return copy;
			}
			default:
				return DECL_P(r) ? copy : NULL_TREE;
			}
		}
	}
	default:
		return NULL_TREE;
	}
}

/* The value assignment D computes, rebuilt as invariant_value does. */
tree mp_ctx::invariant_rhs(gimple *d, int depth)
{
	if (!d || !is_gimple_assign(d) || depth > 20)
		return NULL_TREE;
	enum tree_code c = gimple_assign_rhs_code(d);
	tree ty = TREE_TYPE(gimple_assign_lhs(d));
	if (gimple_assign_single_p(d)) {
		tree r1 = gimple_assign_rhs1(d);
		if (invariant_lvalue(r1)) {
			tree a0 = build_fold_addr_expr(unshare_expr(r1));
			tree addr = invariant_value(a0, d, depth + 1);
			if (!addr)
				return NULL_TREE;
			/* as written (x->n) when its address is available as is */
			tree ld = operand_equal_p(addr, a0, 0) ? unshare_expr(r1)
				  : fold_build2(MEM_REF, TREE_TYPE(r1), addr,
						build_int_cst(build_pointer_type(TREE_TYPE(r1)), 0));
			derived_var(ld, NULL_TREE);   /* its bytes are protected */
			return ld;
		}
		return invariant_value(r1, d, depth + 1);
	}
	tree a = invariant_value(gimple_assign_rhs1(d), d, depth + 1);
	if (!a)
		return NULL_TREE;
	if (get_gimple_rhs_class(c) == GIMPLE_UNARY_RHS)
		return fold_build1(c, ty, a);
	tree b = invariant_value(gimple_assign_rhs2(d), d, depth + 1);
	if (!b || get_gimple_rhs_class(c) != GIMPLE_BINARY_RHS)
		return NULL_TREE;
	return fold_build2(c, ty, a, b);
}

/* A parameter standing for the loop-invariant value VAL (GENERIC, rebuilt
 * by invariant_value): `n / 32`, `(uint16_t) n`, `x->n`, `w->q`.  The
 * rewrite evaluates VAL before the nest; a load (VAL a MEM_REF) is a
 * variable in memory whose bytes the run-time checks protect.  One
 * variable per rendering.  TYPE: the type the description reads it in
 * (NULL_TREE: VAL's). */
int mp_ctx::derived_var(tree val, tree type)
{
	char *txt = print_generic_expr_to_str(val);
	std::string key(txt);
	free(txt);
	auto it = derived.find(key);
	if (it != derived.end())
		return it->second;
	char name[MP_NAME_LEN];
	snprintf(name, sizeof name, "%s", key.c_str());
	if (mp_nest_find_var(n, name) >= 0) {
		char b2[MP_NAME_LEN];
		snprintf(b2, sizeof b2, "%.30s.%d", name, n->nvars);
		snprintf(name, sizeof name, "%s", b2);
	}
	int v = mp_nest_add_var(n, name, MP_VAR_PARAM,
				mp_scalar_of_type(type ? type : TREE_TYPE(val)));
	if (v < 0) {
		fail(loop_loc, "the nest has too many variables");
		return -1;
	}
	if ((int)var_tree.size() <= v)
		var_tree.resize(v + 1);
	var_tree[v] = val;
	derived[key] = v;
	if (invariant_lvalue(val)) {
		n->var[v].in_memory = 1;
		n->var[v].mem_size = tree_to_shwi(TYPE_SIZE_UNIT(TREE_TYPE(val)));
	}
	return v;
}

/* Arithmetic in an integer type below 32 bits: C computes in int, so
 * this is GCC's narrowing of a converted expression into unsigned char /
 * short, which wraps (`(uint8_t)(a - b)` becomes `(unsigned char) a -
 * (unsigned char) b`): not its affine value.  Such an expression is read
 * modulo 2^bits only under a narrowing to a signed type (aff_mod);
 * elsewhere it is not affine (a loop-invariant one stays a derived
 * parameter, evaluated as written). */
static bool narrow_arith(tree type)
{
	return INTEGRAL_TYPE_P(type) && TYPE_PRECISION(type) < 32;
}

/* R = A op B for op PLUS, MINUS, MULT (or POINTER_PLUS): false when the
 * result is not affine. */
static bool aff_arith(mp_nest *n, enum tree_code c, mp_aff *r, const mp_aff *a, mp_aff *b)
{
	if (c == MULT_EXPR)
		return mp_aff_mul(n, r, a, b) == 0;
	if (c == MINUS_EXPR && mp_aff_scale(b, b, -1) != 0)
		return false;
	return mp_aff_add(r, a, b) == 0;
}

/* Integer expression T (read at statement AT) as a quasi-affine form. */
bool mp_ctx::aff_of(tree t, gimple *at, mp_aff *r, int depth)
{
	mp_aff a, b;
	if (depth > 40 || failed)
		return false;
	STRIP_NOPS(t);
	switch (TREE_CODE(t)) {
	case INTEGER_CST:
		/* unsigned index arithmetic writes k - 1 as k + 4294967295u: read
		   constants as signed in their own precision (the address is right
		   whenever the unsigned value did not wrap, as in the source) */
		mp_aff_const(r, mp_int_cst(t));
		return true;
	case SSA_NAME: {
		gimple *d = SSA_NAME_DEF_STMT(t);
		if (SSA_NAME_IS_DEFAULT_DEF(t) || !d || !in_nest(gimple_bb(d))) {
			int v = var_for(t, MP_VAR_PARAM);
			if (v < 0) return false;
			mp_aff_var(r, v);
			return true;
		}
		return aff_of_def(d, r, depth);
	}
	case VAR_DECL:
	case PARM_DECL: {
		int iv = iter_of(t, at);
		if (iv >= 0) {
			mp_aff_var(r, iv);
			return true;
		}
		if (stepped.count(t))
			return stepped_at(t, at, r);
		if (defs.count(t)) {
			gimple *d = inline_def(t, at);
			if (!d)
				d = dominating_def(t, at);
			if (d)
				return aff_of_def(d, r, depth);
			return false;   /* changes inside the nest */
		}
		if (!is_gimple_reg(t) && !invariant_memory_decl(t, at))
			return false;
		int v = var_for(t, MP_VAR_PARAM);
		if (v < 0) return false;
		mp_aff_var(r, v);
		return true;
	}
	case PLUS_EXPR: case MINUS_EXPR: case MULT_EXPR: case POINTER_PLUS_EXPR:
		return !narrow_arith(TREE_TYPE(t)) &&
		       aff_of(TREE_OPERAND(t, 0), at, &a, depth + 1) &&
		       aff_of(TREE_OPERAND(t, 1), at, &b, depth + 1) &&
		       aff_arith(n, TREE_CODE(t), r, &a, &b);
	case NEGATE_EXPR:
		return !narrow_arith(TREE_TYPE(t)) &&
		       aff_of(TREE_OPERAND(t, 0), at, &a, depth + 1) && mp_aff_scale(r, &a, -1) == 0;
	default:
		return false;
	}
}

static bool value_preserving_int_conv(tree to, tree from)
{
	if (!INTEGRAL_TYPE_P(to) && !POINTER_TYPE_P(to))
		return false;
	if (!INTEGRAL_TYPE_P(from) && !POINTER_TYPE_P(from))
		return false;
	/* index arithmetic: int -> sizetype, long <-> sizetype are fine (no
	   overflow is assumed, as the C standard does for signed index
	   expressions); a conversion to a narrower type is not (`(int)
	   linc` with linc a long: 0x100000001 is 1; a review helper found
	   the nest run with linc) */
	if (TYPE_PRECISION(to) >= 32 && TYPE_PRECISION(to) >= TYPE_PRECISION(from))
		return true;
	/* below 32 bits, a change of sign wraps: unsigned to signed needs a
	   wider type, signed to unsigned never keeps a negative value */
	if (TYPE_UNSIGNED(from) == TYPE_UNSIGNED(to))
		return TYPE_PRECISION(to) >= TYPE_PRECISION(from);
	return TYPE_UNSIGNED(from) && TYPE_PRECISION(to) > TYPE_PRECISION(from);
}

bool mp_ctx::aff_of_def(gimple *d, mp_aff *r, int depth)
{
	if (!is_gimple_assign(d))
		return false;
	if (aff_of_def_(d, r, depth))
		return true;
	if (failed || !INTEGRAL_TYPE_P(TREE_TYPE(gimple_assign_lhs(d))))
		return false;
	/* not affine but loop-invariant: a derived parameter */
	tree val = invariant_rhs(d, 0);
	int v = val ? derived_var(val, NULL_TREE) : -1;
	if (v < 0)
		return false;
	mp_aff_var(r, v);
	return true;
}

bool mp_ctx::aff_of_def_(gimple *d, mp_aff *r, int depth)
{
	enum tree_code c = gimple_assign_rhs_code(d);
	tree r1 = gimple_assign_rhs1(d);
	mp_aff a, b;
	switch (c) {
	case SSA_NAME: case VAR_DECL: case PARM_DECL: case INTEGER_CST:
		return aff_of(r1, d, r, depth + 1);
	CASE_CONVERT: {
		tree to = TREE_TYPE(gimple_assign_lhs(d)), from = TREE_TYPE(r1);
		if (value_preserving_int_conv(to, from))
			return aff_of(r1, d, r, depth + 1);
		/* narrowed to a smaller signed type (`const int16_t base =
		   i * S - P;`): exact while its values fit, which the call
		   checks first (mp_narrow); a loop-invariant one stays a
		   derived parameter (aff_of_def).  Never to an unsigned type:
		   GCC narrows arithmetic into unsigned char / short, which
		   wraps (`(int8_t)(x - p)` becomes `(signed char)((unsigned
		   char) x - (unsigned char) p)`): that form is read modulo
		   2^bits (aff_mod), the value the int arithmetic gives */
		if (TREE_CODE(to) != INTEGER_TYPE || TYPE_UNSIGNED(to) || !INTEGRAL_TYPE_P(from))
			return false;
		if (!TYPE_UNSIGNED(from) ? !aff_of(r1, d, r, depth + 1)
		    : TYPE_PRECISION(from) != TYPE_PRECISION(to) ||
		      !aff_mod(r1, r, TYPE_PRECISION(to), depth + 1))
			return false;
		return mp_nest_add_narrow(n, r, TYPE_PRECISION(to), TYPE_UNSIGNED(to)) == 0;
	}
	case PLUS_EXPR: case MINUS_EXPR: case MULT_EXPR: case POINTER_PLUS_EXPR:
		return !narrow_arith(TREE_TYPE(gimple_assign_lhs(d))) &&
		       aff_of(r1, d, &a, depth + 1) &&
		       aff_of(gimple_assign_rhs2(d), d, &b, depth + 1) && aff_arith(n, c, r, &a, &b);
	case NEGATE_EXPR:
		return !narrow_arith(TREE_TYPE(gimple_assign_lhs(d))) &&
		       aff_of(r1, d, &a, depth + 1) && mp_aff_scale(r, &a, -1) == 0;
	default:
		return false;
	}
}

/* T, of an unsigned type of BITS bits, as GCC narrows int arithmetic
 * converted to a BITS-bit type (`(short)(i * S - P)` is computed as
 * `(short)((unsigned short) (i * S) - (unsigned short) P)`, from the front
 * end on): R, affine, congruent to T modulo 2^BITS.  Leaves are values of
 * signed types of at least BITS bits converted (their values) and
 * constants; + - * and negation in T's type combine them. */
bool mp_ctx::aff_mod(tree t, mp_aff *r, int bits, int depth)
{
	mp_aff a, b;
	if (depth > 20 || failed || !INTEGRAL_TYPE_P(TREE_TYPE(t)) ||
	    !TYPE_UNSIGNED(TREE_TYPE(t)) || (int)TYPE_PRECISION(TREE_TYPE(t)) != bits)
		return false;
	if (TREE_CODE(t) == INTEGER_CST) {
		if (!tree_fits_uhwi_p(t))
			return false;
		/* sign-extended from BITS bits (congruent either way): GCC
		   writes `x - 3` as `x + 65533`, whose affine value would never
		   fit the narrow type */
		int64_t v = (int64_t)tree_to_uhwi(t);
		if (v >= (int64_t)1 << (bits - 1))
			v -= (int64_t)1 << bits;
		mp_aff_const(r, v);
		return true;
	}
	if (TREE_CODE(t) != SSA_NAME || SSA_NAME_IS_DEFAULT_DEF(t))
		return false;
	gimple *d = SSA_NAME_DEF_STMT(t);
	if (!d || !is_gimple_assign(d))
		return false;
	enum tree_code c = gimple_assign_rhs_code(d);
	tree r1 = gimple_assign_rhs1(d);
	switch (c) {
	CASE_CONVERT: {
		tree from = TREE_TYPE(r1);
		if (!INTEGRAL_TYPE_P(from) || TYPE_UNSIGNED(from) ||
		    (int)TYPE_PRECISION(from) < bits)
			return false;
		return aff_of(r1, d, r, depth + 1);
	}
	case PLUS_EXPR: case MINUS_EXPR: case MULT_EXPR:
		return aff_mod(r1, &a, bits, depth + 1) &&
		       aff_mod(gimple_assign_rhs2(d), &b, bits, depth + 1) && aff_arith(n, c, r, &a, &b);
	case NEGATE_EXPR:
		return aff_mod(r1, &a, bits, depth + 1) && mp_aff_scale(r, &a, -1) == 0;
	default:
		return false;
	}
}

/* ------------------------------------------- windows clipped by MAX/MIN */

bool mp_ctx::minmax_of(tree t, gimple *at, mp_aff *a, mp_aff *b, bool *is_max, int depth)
{
	if (depth > 20 || failed)
		return false;
	STRIP_NOPS(t);
	if (!INTEGRAL_TYPE_P(TREE_TYPE(t)) || TYPE_UNSIGNED(TREE_TYPE(t)))
		return false;
	if (TREE_CODE(t) == SSA_NAME) {
		gimple *d = SSA_NAME_DEF_STMT(t);
		if (SSA_NAME_IS_DEFAULT_DEF(t) || !d || !in_nest(gimple_bb(d)))
			return false;
		return minmax_of_def(d, a, b, is_max, depth);
	}
	if (TREE_CODE(t) != VAR_DECL || !defs.count(t) || iter_of(t, at) >= 0)
		return false;
	gimple *d = inline_def(t, at);
	if (!d)
		d = dominating_def(t, at);
	if (d)
		return minmax_of_def(d, a, b, is_max, depth);
	return minmax_diamond(t, at, a, b, is_max, depth);
}

bool mp_ctx::minmax_of_def(gimple *d, mp_aff *a, mp_aff *b, bool *is_max, int depth)
{
	if (!is_gimple_assign(d))
		return false;
	enum tree_code c = gimple_assign_rhs_code(d);
	tree r1 = gimple_assign_rhs1(d);
	switch (c) {
	case SSA_NAME: case VAR_DECL:
		return minmax_of(r1, d, a, b, is_max, depth + 1);
	CASE_CONVERT:
		return value_preserving_int_conv(TREE_TYPE(gimple_assign_lhs(d)), TREE_TYPE(r1)) &&
		       minmax_of(r1, d, a, b, is_max, depth + 1);
	case MIN_EXPR: case MAX_EXPR:
		if (TYPE_UNSIGNED(TREE_TYPE(gimple_assign_lhs(d))) ||
		    !aff_of(r1, d, a, depth + 1) || !aff_of(gimple_assign_rhs2(d), d, b, depth + 1))
			return false;
		*is_max = c == MAX_EXPR;
		return true;
	default:
		return false;
	}
}

/* `MAX(0, -base)` as GCC gimplifies it when it does not fold it: `if
 * (base <= 0) t = -base; else t = 0;` then the merge.  T's two
 * assignments in the nest are the arms of one condition, and the merge
 * dominates AT.  The test, as E >= 0 or E > 0 (signed), compares the arms'
 * values (mp_aff_minmax: GCC divides the test by common factors). */
bool mp_ctx::minmax_diamond(tree t, gimple *at, mp_aff *a, mp_aff *b, bool *is_max, int depth)
{
	auto it = defs.find(t);
	if (it == defs.end() || it->second.size() != 2 || !at)
		return false;
	gimple *d1 = it->second[0], *d2 = it->second[1];
	if (!is_gimple_assign(d1) || !is_gimple_assign(d2))
		return false;
	basic_block b1 = gimple_bb(d1), b2 = gimple_bb(d2);
	if (b1 == b2 || !single_pred_p(b1) || !single_pred_p(b2) ||
	    single_pred(b1) != single_pred(b2) || !single_succ_p(b1) || !single_succ_p(b2) ||
	    single_succ(b1) != single_succ(b2))
		return false;
	basic_block cb = single_pred(b1), jb = single_succ(b1), ub = gimple_bb(at);
	gcond *cg = safe_dyn_cast<gcond *>(last_stmt(cb));
	if (!cg || !dominated_by_p(CDI_DOMINATORS, ub, jb))
		return false;
	edge te, fe;
	extract_true_false_edges_from_block(cb, &te, &fe);
	if (te->dest == b2)
		std::swap(d1, d2);   /* d1: the true arm */
	else if (te->dest != b1)
		return false;
	tree l = gimple_cond_lhs(cg), r = gimple_cond_rhs(cg);
	enum tree_code code = gimple_cond_code(cg);
	if (!INTEGRAL_TYPE_P(TREE_TYPE(l)) || TYPE_UNSIGNED(TREE_TYPE(l)) ||
	    (code != LT_EXPR && code != LE_EXPR && code != GT_EXPR && code != GE_EXPR))
		return false;
	mp_aff la, ra, tv, fv, e;
	if (!aff_of(l, cg, &la, depth + 1) || !aff_of(r, cg, &ra, depth + 1) ||
	    !aff_of_def(d1, &tv, depth + 1) || !aff_of_def(d2, &fv, depth + 1))
		return false;
	/* E = lhs - rhs for > and >=, rhs - lhs for < and <= */
	bool up = code == GT_EXPR || code == GE_EXPR;
	int mx;
	if (mp_aff_scale(&ra, &ra, -1) != 0 || mp_aff_add(&e, &la, &ra) != 0 ||
	    (!up && mp_aff_scale(&e, &e, -1) != 0) || !mp_aff_minmax(&e, &tv, &fv, &mx))
		return false;
	*is_max = mx;
	*a = tv;
	*b = fv;
	return true;
}

/* ---------------------------------------------------------- addresses */

int mp_ctx::array_for(tree base, bool is_decl)
{
	auto it = array_of.find(base);
	if (it != array_of.end())
		return it->second;
	char name[MP_NAME_LEN];
	name_of(base, name, sizeof name);
	int bv = -1;
	int64_t size = -1;
	if (!is_decl) {
		/* a walking pointer (assigned in the nest) is a local */
		bv = var_for(base, defs.count(base) ? MP_VAR_LOCAL : MP_VAR_PARAM);
		if (bv < 0) return -1;
	} else if (DECL_SIZE_UNIT(base) && tree_fits_shwi_p(DECL_SIZE_UNIT(base))) {
		size = tree_to_shwi(DECL_SIZE_UNIT(base));
	}
	int a = mp_nest_add_array(n, name, bv, is_decl, size);
	if (a < 0) {
		fail(loop_loc, "the nest accesses too many arrays");
		return -1;
	}
	array_of[base] = a;
	if ((int)array_base.size() <= a)
		array_base.resize(a + 1);
	array_base[a] = base;
	return a;
}

/* Pointer value P as  array base + affine byte offset. */
bool mp_ctx::ptr_of(tree p, gimple *at, int *arr, mp_aff *off, int depth)
{
	if (depth > 40)
		return false;
	STRIP_NOPS(p);
	switch (TREE_CODE(p)) {
	case ADDR_EXPR:
		return addr_of(TREE_OPERAND(p, 0), at, arr, off, depth + 1);
	case SSA_NAME: {
		gimple *d = SSA_NAME_DEF_STMT(p);
		if (SSA_NAME_IS_DEFAULT_DEF(p) || !d || !in_nest(gimple_bb(d))) {
			*arr = array_for(SSA_NAME_IS_DEFAULT_DEF(p) && SSA_NAME_VAR(p) ? SSA_NAME_VAR(p) : p, false);
			mp_aff_const(off, 0);
			return *arr >= 0;
		}
		return ptr_of_def(d, arr, off, depth);
	}
	case VAR_DECL:
	case PARM_DECL:
		if (defs.count(p)) {
			gimple *d = inline_def(p, at);
			if (!d)
				d = dominating_def(p, at);
			if (d)
				return ptr_of_def(d, arr, off, depth + 1);
			return walking(p, at) && walk_read(p, at, arr, off);
		}
		/* a pointer in memory (a global, or its address is taken): an
		   invariant like a parameter when the nest never writes it (its
		   bytes protected at run time) */
		if (!is_gimple_reg(p) && !invariant_memory_decl(p, at))
			return false;
		*arr = array_for(p, false);
		mp_aff_const(off, 0);
		return *arr >= 0;
	case POINTER_PLUS_EXPR: {
		mp_aff o2;
		if (!ptr_of(TREE_OPERAND(p, 0), at, arr, off, depth + 1) ||
		    !aff_of(TREE_OPERAND(p, 1), at, &o2, depth + 1))
			return false;
		return mp_aff_add(off, off, &o2) == 0;
	}
	default:
		return false;
	}
}

/* The pointer value assigned by in-nest statement D. */
/* A user pointer the nest assigns more than once (`ap = a; ... ap =
 * ap.1_1 + 1`): a walking pointer, described by pointer assignments and
 * resolved by the core (mp_walk_resolve). */
bool mp_ctx::walking(tree t, gimple *at)
{
	(void)at;
	return is_reg_decl_p(t) && POINTER_TYPE_P(TREE_TYPE(t)) && !DECL_ARTIFICIAL(t) &&
	       !TREE_THIS_VOLATILE(t) && defs.count(t);
}

/* Walking pointer P read at AT, as seen by the description statement being
 * translated (cur_stmt): the core gives P's value at that statement, which
 * counts the steps of P placed before it; the steps that GIMPLE puts
 * between the read and the statement (`ap.1_1 = ap; ap = ap.1_1 + 1;
 * _2 = *ap.1_1; s = ...`: the *ap++ of the source) are taken back here.
 * Only within one block; anything else is not followed. */
bool mp_ctx::walk_read(tree p, gimple *at, int *arr, mp_aff *off)
{
	*arr = array_for(p, false);
	mp_aff_const(off, 0);
	if (*arr < 0)
		return false;
	gimple *use = cur_stmt ? cur_stmt : at;
	if (!at || at == use)
		return true;
	if (gimple_bb(at) != gimple_bb(use) || gimple_uid(at) > gimple_uid(use))
		return false;
	for (gimple *d : defs[p]) {
		if (gimple_bb(d) != gimple_bb(at) || gimple_uid(d) <= gimple_uid(at) ||
		    gimple_uid(d) >= gimple_uid(use))
			continue;
		int a2;
		mp_aff step;
		gimple *save = cur_stmt;
		cur_stmt = d;
		bool ok = ptr_of_def(d, &a2, &step, 1) && a2 == *arr;
		cur_stmt = save;
		if (!ok || mp_aff_scale(&step, &step, -1) < 0 || mp_aff_add(off, off, &step) < 0)
			return false;
	}
	return true;
}

bool mp_ctx::ptr_of_def(gimple *d, int *arr, mp_aff *off, int depth)
{
	if (!is_gimple_assign(d))
		return false;
	enum tree_code c = gimple_assign_rhs_code(d);
	tree r1 = gimple_assign_rhs1(d);
	if (c == POINTER_PLUS_EXPR) {
		mp_aff o2;
		if (!ptr_of(r1, d, arr, off, depth + 1) ||
		    !aff_of(gimple_assign_rhs2(d), d, &o2, depth + 1))
			return false;
		return mp_aff_add(off, off, &o2) == 0;
	}
	if (CONVERT_EXPR_CODE_P(c) || c == SSA_NAME || c == ADDR_EXPR || c == VAR_DECL || c == PARM_DECL)
		return ptr_of(r1, d, arr, off, depth + 1);
	/* a pointer read from memory the nest may treat as invariant
	   (x->q, layer->weights): a derived parameter, the array's base */
	if (gimple_assign_single_p(d) && POINTER_TYPE_P(TREE_TYPE(gimple_assign_lhs(d)))) {
		tree val = invariant_rhs(d, depth + 1);
		int v = val ? derived_var(val, NULL_TREE) : -1;
		if (v < 0)
			return false;
		auto it = derived_array.find(v);
		if (it == derived_array.end()) {
			int a = mp_nest_add_array(n, n->var[v].name, v, 0, -1);
			if (a < 0) {
				fail(loop_loc, "the nest accesses too many arrays");
				return false;
			}
			if ((int)array_base.size() <= a)
				array_base.resize(a + 1);
			array_base[a] = val;
			it = derived_array.insert({ v, a }).first;
		}
		*arr = it->second;
		mp_aff_const(off, 0);
		return true;
	}
	return false;
}

/* Address of reference REF as array + affine byte offset. */
bool mp_ctx::addr_of(tree ref, gimple *at, int *arr, mp_aff *off, int depth)
{
	mp_aff a, b;
	if (depth > 40)
		return false;
	switch (TREE_CODE(ref)) {
	case VAR_DECL:
	case PARM_DECL:
	case RESULT_DECL:
		*arr = array_for(ref, true);
		mp_aff_const(off, 0);
		return *arr >= 0;
	case MEM_REF: {
		if (!ptr_of(TREE_OPERAND(ref, 0), at, arr, off, depth + 1))
			return false;
		tree o = TREE_OPERAND(ref, 1);
		if (!tree_fits_shwi_p(o))
			return false;
		mp_aff_const(&a, tree_to_shwi(o));
		return mp_aff_add(off, off, &a) == 0;
	}
	case ARRAY_REF: {
		if (!addr_of(TREE_OPERAND(ref, 0), at, arr, off, depth + 1))
			return false;
		tree low = array_ref_low_bound(ref);
		tree esz = array_ref_element_size(ref);
		if (!aff_of(TREE_OPERAND(ref, 1), at, &a, depth + 1))
			return false;
		if (low && !integer_zerop(low)) {
			mp_aff l;
			if (!aff_of(low, at, &l, depth + 1) || mp_aff_scale(&l, &l, -1) ||
			    mp_aff_add(&a, &a, &l))
				return false;
		}
		/* an index of a declared array type stays inside it (C) */
		tree atype = TREE_TYPE(TREE_OPERAND(ref, 0));
		tree dom = atype && TREE_CODE(atype) == ARRAY_TYPE ? TYPE_DOMAIN(atype) : NULL_TREE;
		if (dom && TYPE_MIN_VALUE(dom) && TYPE_MAX_VALUE(dom) &&
		    tree_fits_shwi_p(TYPE_MIN_VALUE(dom)) && tree_fits_shwi_p(TYPE_MAX_VALUE(dom)))
			cur_bounds.push_back({ a, tree_to_shwi(TYPE_MAX_VALUE(dom)) -
						  tree_to_shwi(TYPE_MIN_VALUE(dom)) + 1 });
		if (!aff_of(esz, at, &b, depth + 1) || mp_aff_mul(n, &a, &a, &b))
			return false;
		return mp_aff_add(off, off, &a) == 0;
	}
	case COMPONENT_REF: {
		tree f = TREE_OPERAND(ref, 1);
		if (!addr_of(TREE_OPERAND(ref, 0), at, arr, off, depth + 1))
			return false;
		tree fo = component_ref_field_offset(ref);
		if (!fo || !tree_fits_shwi_p(fo) || !tree_fits_shwi_p(DECL_FIELD_BIT_OFFSET(f)))
			return false;
		mp_aff_const(&a, tree_to_shwi(fo) + tree_to_shwi(DECL_FIELD_BIT_OFFSET(f)) / BITS_PER_UNIT);
		return mp_aff_add(off, off, &a) == 0;
	}
	default:
		return false;
	}
}

/* Register an access to REF in statement S; -1 on overflow. */
int mp_ctx::access_for(tree ref, gimple *at, bool is_write, int stmt)
{
	int arr = -1;
	mp_aff off;
	mp_aff_const(&off, 0);
	if (TREE_THIS_VOLATILE(ref) || (TREE_TYPE(ref) && TYPE_VOLATILE(TREE_TYPE(ref)))) {
		char *txt = print_generic_expr_to_str(ref);
		fail(gimple_location(at) != UNKNOWN_LOCATION ? gimple_location(at) : loop_loc,
		     "the volatile access '%s' must stay as written", txt);
		free(txt);
		return -1;
	}
	/* a bit-field is not a whole element at its address: the kernels
	   would read the byte around it (sa[i].v of `int pad:3, v:8` read
	   as (v << 3) | pad, found by a review helper) */
	if (TREE_CODE(ref) == BIT_FIELD_REF ||
	    (TREE_CODE(ref) == COMPONENT_REF && DECL_BIT_FIELD(TREE_OPERAND(ref, 1)))) {
		tree fd = TREE_CODE(ref) == COMPONENT_REF ? TREE_OPERAND(ref, 1) : NULL_TREE;
		fail(gimple_location(at) != UNKNOWN_LOCATION ? gimple_location(at) : loop_loc,
		     "field '%s' is a bit-field; mixprec reads only whole elements",
		     fd && DECL_NAME(fd) ? IDENTIFIER_POINTER(DECL_NAME(fd)) : "?");
		return -1;
	}
	/* a local that a GNU C nested function uses lives in the function's
	   frame, which the nested function reads and writes through its
	   static chain (an ICE in DCE and a wrong result once, found by a
	   review helper) */
	tree root = get_base_address(ref);
	if (root && VAR_P(root) && DECL_NONLOCAL_FRAME(root)) {
		tree fd = TREE_CODE(ref) == COMPONENT_REF ? TREE_OPERAND(ref, 1) : NULL_TREE;
		fail(gimple_location(at) != UNKNOWN_LOCATION ? gimple_location(at) : loop_loc,
		     "'%s' is used by a nested function, which reaches it through the "
		     "function's frame", fd && DECL_NAME(fd) ? IDENTIFIER_POINTER(DECL_NAME(fd)) : "?");
		return -1;
	}
	cur_bounds.clear();
	bool ok = addr_of(ref, at, &arr, &off, 0);
	if (failed)
		return -1;
	if (arr < 0) {
		/* the array is unknown: name it after the outermost base */
		tree b = get_base_address(ref);
		if (b && TREE_CODE(b) == MEM_REF)
			b = TREE_OPERAND(b, 0);
		if (!b || (!DECL_P(b) && TREE_CODE(b) != SSA_NAME))
			return -2;
		arr = array_for(b, DECL_P(b) && !is_gimple_reg(b));
		if (arr < 0)
			return -1;
		ok = false;
	}
	tree ty = TREE_TYPE(ref);
	int esz = ty && TYPE_SIZE_UNIT(ty) && tree_fits_shwi_p(TYPE_SIZE_UNIT(ty))
		  ? (int)tree_to_shwi(TYPE_SIZE_UNIT(ty)) : 0;
	int id = mp_nest_add_access(n, arr, &off, ok ? 1 : 0, mp_scalar_of_type(ty), esz,
				    is_write ? 1 : 0, stmt);
	if (id < 0) {
		fail(loop_loc, "the nest has too many memory accesses");
		return -1;
	}
	n->access[id].loc = mp_loc_cookie(gimple_location(at) != UNKNOWN_LOCATION
					  ? gimple_location(at) : loop_loc);
	for (size_t b = 0; ok && b < cur_bounds.size() && b < 3; b++) {
		n->access[id].bidx[b] = cur_bounds[b].first;
		n->access[id].bext[b] = cur_bounds[b].second;
		n->access[id].nbound++;
	}
	if ((int)access_ref.size() <= id)
		access_ref.resize(id + 1);
	access_ref[id] = ref;
	return id;
}

/* -------------------------------------------------------- expressions */

/* Math builtins whose only side effect is errno. */
static bool errno_only_builtin(tree fn)
{
	if (!fn || !fndecl_built_in_p(fn, BUILT_IN_NORMAL))
		return false;
	switch (DECL_FUNCTION_CODE(fn)) {
	CASE_FLT_FN(BUILT_IN_LRINT): CASE_FLT_FN(BUILT_IN_LLRINT):
	CASE_FLT_FN(BUILT_IN_LROUND): CASE_FLT_FN(BUILT_IN_LLROUND):
	CASE_FLT_FN(BUILT_IN_RINT): CASE_FLT_FN(BUILT_IN_NEARBYINT):
	CASE_FLT_FN(BUILT_IN_ROUND): CASE_FLT_FN(BUILT_IN_FLOOR):
	CASE_FLT_FN(BUILT_IN_CEIL): CASE_FLT_FN(BUILT_IN_TRUNC):
	CASE_FLT_FN(BUILT_IN_FABS): CASE_FLT_FN(BUILT_IN_FMIN):
	CASE_FLT_FN(BUILT_IN_FMAX): CASE_FLT_FN(BUILT_IN_EXP):
	CASE_FLT_FN(BUILT_IN_SQRT): CASE_FLT_FN(BUILT_IN_TANH):
	case BUILT_IN_ABS: case BUILT_IN_LABS: case BUILT_IN_LLABS:
		return true;
	default:
		return false;
	}
}

static bool call_ok(tree fn, int flags, int depth);

/* Calls the build adds, not the source: sanitizer checks and reports
 * (-fsanitize=shift, undefined, address, thread) and -finstrument-functions'
 * hooks.  They write no memory a nest reads (a report marks its own static
 * data), and clang's glue, which reads the AST, never sees them: a nest or
 * helper they are added to is the nest as written.  The thread sanitizer's
 * atomics are not among them (they store the program's memory).  A report
 * that does not return (-fno-sanitize-recover) in the nest itself is an
 * exit of its loop, which the nest's shape refuses. */
static bool instrumentation_call(tree fn)
{
	if (!fn || !fndecl_built_in_p(fn, BUILT_IN_NORMAL))
		return false;
	/* the hooks, and the call site they are given */
	if (DECL_FUNCTION_CODE(fn) == BUILT_IN_PROFILE_FUNC_ENTER ||
	    DECL_FUNCTION_CODE(fn) == BUILT_IN_PROFILE_FUNC_EXIT ||
	    DECL_FUNCTION_CODE(fn) == BUILT_IN_RETURN_ADDRESS)
		return true;
	if (DECL_FUNCTION_CODE(fn) <= BEGIN_SANITIZER_BUILTINS ||
	    DECL_FUNCTION_CODE(fn) >= END_SANITIZER_BUILTINS || !DECL_NAME(fn))
		return false;
	const char *n = IDENTIFIER_POINTER(DECL_NAME(fn));
	if (!strncmp(n, "__builtin_", 10))
		n += 10;
	static const char *const ok[] = {
		"__ubsan_handle_", "__asan_report_", "__asan_load", "__asan_store",
		"__asan_handle_no_return", "__tsan_read", "__tsan_write", "__tsan_unaligned_read",
		"__tsan_unaligned_write", "__tsan_func_entry", "__tsan_func_exit",
	};
	for (const char *p : ok)
		if (!strncmp(n, p, strlen(p)))
			return true;
	return false;
}

/* The same for GCC's internal functions (checks the sanitizers expand
 * later; UBSAN_CHECK_ADD and the like compute the operation too, into an
 * SSA name). */
static bool instrumentation_ifn(internal_fn f)
{
	switch (f) {
	case IFN_UBSAN_NULL: case IFN_UBSAN_BOUNDS: case IFN_UBSAN_CHECK_ADD:
	case IFN_UBSAN_CHECK_SUB: case IFN_UBSAN_CHECK_MUL: case IFN_UBSAN_PTR:
	case IFN_UBSAN_OBJECT_SIZE: case IFN_ASAN_CHECK: case IFN_ASAN_MARK:
	case IFN_TSAN_FUNC_EXIT:
		return true;
	default:
		return false;
	}
}

/* Is the store target REF an automatic variable of function FN? */
static bool local_store(tree ref, tree fn)
{
	if (TREE_CODE(ref) == SSA_NAME)
		return true;
	if (TREE_THIS_VOLATILE(ref))
		return false;
	tree b = get_base_address(ref);
	return b && (TREE_CODE(b) == VAR_DECL || TREE_CODE(b) == PARM_DECL ||
		     TREE_CODE(b) == RESULT_DECL) &&
	       DECL_CONTEXT(b) == fn && !TREE_STATIC(b) && !DECL_EXTERNAL(b);
}

/* memcpy, memmove or memset (or their _chk forms) into a whole automatic
 * variable of FN (DEST is &v), of a constant size within it:
 * `memcpy(&s, &f, 2)`, the type pun of ggml's fp16 lookup. */
static bool local_mem_call(tree callee, tree dest, tree size, tree fn)
{
	if (!callee || !fndecl_built_in_p(callee, BUILT_IN_NORMAL))
		return false;
	switch (DECL_FUNCTION_CODE(callee)) {
	case BUILT_IN_MEMCPY: case BUILT_IN_MEMMOVE: case BUILT_IN_MEMSET:
	case BUILT_IN_MEMCPY_CHK: case BUILT_IN_MEMMOVE_CHK: case BUILT_IN_MEMSET_CHK:
		break;
	default:
		return false;
	}
	STRIP_NOPS(dest);
	if (TREE_CODE(dest) != ADDR_EXPR)
		return false;
	tree v = TREE_OPERAND(dest, 0);
	return (TREE_CODE(v) == VAR_DECL || TREE_CODE(v) == PARM_DECL) && local_store(v, fn) &&
	       DECL_SIZE_UNIT(v) && tree_fits_uhwi_p(DECL_SIZE_UNIT(v)) && size &&
	       tree_fits_uhwi_p(size) && tree_to_uhwi(size) <= tree_to_uhwi(DECL_SIZE_UNIT(v));
}

struct body_walk { tree fn; int depth; bool bad; };

static tree generic_body_r(tree *tp, int *walk_subtrees, void *data)
{
	body_walk *w = (body_walk *)data;
	tree t = *tp;
	if (TYPE_P(t)) {
		*walk_subtrees = 0;
		return NULL_TREE;
	}
	switch (TREE_CODE(t)) {
	case MODIFY_EXPR: case INIT_EXPR:
	case PREINCREMENT_EXPR: case PREDECREMENT_EXPR:
	case POSTINCREMENT_EXPR: case POSTDECREMENT_EXPR:
		if (!local_store(TREE_OPERAND(t, 0), w->fn))
			w->bad = true;
		break;
	case CALL_EXPR:
		if (CALL_EXPR_FN(t) == NULL_TREE ? !instrumentation_ifn(CALL_EXPR_IFN(t))
		    : !(call_expr_nargs(t) >= 3 &&
			local_mem_call(get_callee_fndecl(t), CALL_EXPR_ARG(t, 0), CALL_EXPR_ARG(t, 2),
				       w->fn)) &&
		      !call_ok(get_callee_fndecl(t), call_expr_flags(t), w->depth + 1))
			w->bad = true;
		break;
	case ASM_EXPR:
		w->bad = true;
		break;
	default:
		break;
	}
	return w->bad ? t : NULL_TREE;
}

static bool gimple_stmt_ok(gimple *g, body_walk *w)
{
	if (gcall *c = dyn_cast<gcall *>(g)) {
		if (gimple_call_internal_p(c) ? !instrumentation_ifn(gimple_call_internal_fn(c))
		    : !(gimple_call_num_args(c) >= 3 &&
			local_mem_call(gimple_call_fndecl(c), gimple_call_arg(c, 0),
				       gimple_call_arg(c, 2), w->fn)) &&
		      !call_ok(gimple_call_fndecl(c), gimple_call_flags(c), w->depth + 1))
			return false;
		tree lhs = gimple_call_lhs(c);
		return !lhs || local_store(lhs, w->fn);
	}
	if (is_gimple_assign(g))
		return local_store(gimple_assign_lhs(g), w->fn);
	return gimple_code(g) != GIMPLE_ASM;
}

/* Can a call to FN (flags FLAGS) write memory the nest reads?  Attributes
 * answer first; otherwise FN's body is read (GENERIC, lowered GIMPLE or
 * CFG, whichever this point of the compilation has): it may only store to
 * its own automatic variables and call functions that pass the same test. */
static bool call_ok(tree fn, int flags, int depth)
{
	if ((flags & (ECF_CONST | ECF_PURE)) && !(flags & ECF_LOOPING_CONST_OR_PURE))
		return true;
	if (errno_only_builtin(fn) || instrumentation_call(fn))
		return true;
	if (!fn || depth > 4 || fn == current_function_decl)
		return false;
	body_walk w = { fn, depth, false };
	function *f = DECL_STRUCT_FUNCTION(fn);
	if (f && f->cfg) {
		basic_block bb;
		FOR_EACH_BB_FN(bb, f)
			for (gimple_stmt_iterator g = gsi_start_bb(bb); !gsi_end_p(g); gsi_next(&g))
				if (!gimple_stmt_ok(gsi_stmt(g), &w))
					return false;
		return true;
	}
	if (gimple_has_body_p(fn)) {
		gimple_seq body = gimple_body(fn);
		for (gimple_stmt_iterator g = gsi_start(body); !gsi_end_p(g); gsi_next(&g))
			if (gimple_code(gsi_stmt(g)) == GIMPLE_BIND || !gimple_stmt_ok(gsi_stmt(g), &w))
				return false;   /* nested binds: not worth walking */
		return true;
	}
	if (DECL_SAVED_TREE(fn)) {
		walk_tree_without_duplicates(&DECL_SAVED_TREE(fn), generic_body_r, &w);
		return !w.bad;
	}
	return false;
}

bool mp_harmless_call(gcall *c)
{
	if (gimple_call_internal_p(c))
		return false;
	/* a nested function reads and writes its parent's frame through the
	   static chain, const or pure as it may be declared */
	if (gimple_call_chain(c))
		return false;
	return call_ok(gimple_call_fndecl(c), gimple_call_flags(c), 0);
}

const char *mp_callee_name(gcall *c)
{
	tree fn = gimple_call_fndecl(c);
	if (fn && DECL_NAME(fn))
		return IDENTIFIER_POINTER(DECL_NAME(fn));
	/* the compiler's own (UBSAN_BOUNDS under -fsanitize=bounds, ...) */
	if (gimple_call_internal_p(c))
		return internal_fn_name(gimple_call_internal_fn(c));
	return "<indirect>";
}

int mp_ctx::add_expr(mp_expr_kind k, mp_scalar ty, int a, int b)
{
	mp_expr e;
	memset(&e, 0, sizeof e);
	e.kind = k;
	e.type = ty;
	e.a = a;
	e.b = b;
	e.var = -1;
	e.access = -1;
	int id = mp_nest_add_expr(n, &e);
	if (id < 0)
		fail(loop_loc, "the nest has too many operations");
	return id;
}

static bool is_memory_ref(tree t)
{
	switch (TREE_CODE(t)) {
	case MEM_REF: case ARRAY_REF: case COMPONENT_REF: case TARGET_MEM_REF:
	case BIT_FIELD_REF: case ARRAY_RANGE_REF: case REALPART_EXPR: case IMAGPART_EXPR:
		return true;
	case VAR_DECL: case PARM_DECL: case RESULT_DECL:
		return !is_gimple_reg(t);
	default:
		return false;
	}
}

int mp_ctx::expr_of(tree t, gimple *at, int stmt, int depth)
{
	if (failed || depth > 60)
		return -1;
	mp_scalar ty = mp_scalar_of_type(TREE_TYPE(t));
	switch (TREE_CODE(t)) {
	case INTEGER_CST: {
		int e = add_expr(MP_X_CONST, ty, -1, -1);
		if (e >= 0)
			n->expr[e].cst = tree_fits_shwi_p(t) ? tree_to_shwi(t) : (int64_t)TREE_INT_CST_LOW(t);
		return e;
	}
	case REAL_CST: {
		int e = add_expr(MP_X_CONST, ty, -1, -1);
		if (e >= 0) {
			char buf[64];
			real_to_decimal(buf, TREE_REAL_CST_PTR(t), sizeof buf, 0, 1);
			n->expr[e].fcst = atof(buf);
		}
		return e;
	}
	case SSA_NAME: {
		gimple *d = SSA_NAME_DEF_STMT(t);
		if (SSA_NAME_IS_DEFAULT_DEF(t) || !d || !in_nest(gimple_bb(d)))
			return var_expr(var_for(t, MP_VAR_PARAM), ty);
		return def_expr(d, stmt, depth);
	}
	case VAR_DECL:
	case PARM_DECL: {
		if (!is_gimple_reg(t))
			break;   /* memory */
		int iv = iter_of(t, at);
		if (iv >= 0)
			return var_expr(iv, ty);
		if (stepped.count(t)) {
			/* W0 - C*LO + C*V, as the sum of its terms */
			mp_aff a;
			if (!stepped_at(t, at, &a)) {
				char nm[128];
				name_of(t, nm, sizeof nm);
				fail(at ? gimple_location(at) : loop_loc, "'%s' is stepped beside "
				     "a loop of the nest and read outside it", nm);
				return -1;
			}
			int e = mp_nest_add_aff_expr(n, &a, ty);
			if (e < 0)
				fail(loop_loc, "%s", n->error[0] ? n->error
				     : "the nest has too many operations");
			return e;
		}
		if (defs.count(t)) {
			gimple *d = inline_def(t, at);
			if (d)
				return def_expr(d, stmt, depth);
			/* `v = inside ? in[...] : 0`: a load under conditions */
			gimple *dv;
			int64_t kv;
			unsigned set;
			if (mp_select_conds(*this, t, at, &dv, &kv, &set)) {
				int na0 = n->naccesses, ne0 = n->nexprs;
				int x = def_expr(dv, stmt, depth), y = x;
				while (y >= 0 && n->expr[y].kind == MP_X_CAST)
					y = n->expr[y].a;
				int bv = y >= 0 && n->expr[y].kind == MP_X_LOAD && n->expr[y].access >= 0
					 ? n->array[n->access[n->expr[y].access].array].base_var : -1;
				/* not through a walking pointer (the local as before) */
				if (y >= 0 && n->expr[y].kind == MP_X_LOAD && n->expr[y].access >= 0 &&
				    !(bv >= 0 && n->var[bv].kind == MP_VAR_LOCAL)) {
					n->access[n->expr[y].access].conds |= set;
					n->access[n->expr[y].access].padv = kv;
					return x;
				}
				/* not a select of a load: the description as before */
				n->naccesses = na0, n->nexprs = ne0;
			}
			return var_expr(var_for(t, MP_VAR_LOCAL), ty);
		}
		return var_expr(var_for(t, MP_VAR_PARAM), ty);
	}
	default:
		break;
	}
	if (is_memory_ref(t)) {
		/* a scalar global or static read and never written in the nest
		   is an invariant like a parameter */
		if (DECL_P(t) && !stored_decls.count(t) && !has_opaque &&
		    invariant_memory_decl(t, at))
			return var_expr(var_for(t, MP_VAR_PARAM), ty);
		int acc = access_for(t, at, false, stmt);
		if (acc == -1)
			return -1;
		int e = add_expr(MP_X_LOAD, ty, -1, -1);
		if (e >= 0)
			n->expr[e].access = acc < 0 ? -1 : acc;
		if (acc < 0 && e >= 0)
			n->expr[e].kind = MP_X_OTHER, snprintf(n->expr[e].op, sizeof n->expr[e].op, "load");
		return e;
	}
	int e = add_expr(MP_X_OTHER, ty, -1, -1);
	if (e >= 0)
		snprintf(n->expr[e].op, sizeof n->expr[e].op, "%s", get_tree_code_name(TREE_CODE(t)));
	return e;
}

int mp_ctx::var_expr(int v, mp_scalar ty)
{
	if (v < 0)
		return -1;
	int e = add_expr(MP_X_VAR, ty, -1, -1);
	if (e >= 0)
		n->expr[e].var = v;
	return e;
}

/* The value computed by in-nest statement D (an assignment or a call). */
int mp_ctx::def_expr(gimple *d, int stmt, int depth)
{
	if (gcall *c = dyn_cast<gcall *>(d)) {
		tree lhs = gimple_call_lhs(c);
		mp_scalar ty = lhs ? mp_scalar_of_type(TREE_TYPE(lhs)) : MP_TY_OTHER;
		unsigned na = gimple_call_num_args(c);
		int args[MP_MAX_ARGS];
		for (unsigned i = 0; i < na; i++) {
			int a = expr_of(gimple_call_arg(c, i), d, stmt, depth + 1);
			if (i < MP_MAX_ARGS)
				args[i] = a;
		}
		mp_expr e;
		memset(&e, 0, sizeof e);
		e.kind = na <= MP_MAX_ARGS ? MP_X_CALL : MP_X_OTHER;
		e.type = ty;
		e.var = e.access = -1;
		e.a = na > 0 ? args[0] : -1;
		e.b = na > 1 ? args[1] : -1;
		if (na <= MP_MAX_ARGS) {
			e.nargs = (int)na;
			memcpy(e.args, args, na * sizeof args[0]);
		}
		snprintf(e.op, sizeof e.op, "%s", mp_callee_name(c));
		/* mixprec.h's helpers are fused for what they compute: a function
		   of another origin with one of their names is the user's own */
		tree fn = gimple_call_fndecl(c);
		const char *file = fn ? LOCATION_FILE(DECL_SOURCE_LOCATION(fn)) : NULL;
		if (!strncmp(e.op, "mp_", 3) && (!file || strcmp(lbasename(file), "mixprec.h")))
			snprintf(e.op, sizeof e.op, "%.30s (user)", mp_callee_name(c));
		int id = mp_nest_add_expr(n, &e);
		if (id < 0)
			fail(loop_loc, "the nest has too many operations");
		return id;
	}
	if (!is_gimple_assign(d)) {
		int e = add_expr(MP_X_OTHER, MP_TY_OTHER, -1, -1);
		if (e >= 0)
			snprintf(n->expr[e].op, sizeof n->expr[e].op, "%s", gimple_code_name[gimple_code(d)]);
		return e;
	}
	tree lhs = gimple_assign_lhs(d);
	mp_scalar ty = mp_scalar_of_type(TREE_TYPE(lhs));
	enum tree_code c = gimple_assign_rhs_code(d);
	tree r1 = gimple_assign_rhs1(d);
	switch (get_gimple_rhs_class(c)) {
	case GIMPLE_SINGLE_RHS:
		return expr_of(r1, d, stmt, depth + 1);
	case GIMPLE_UNARY_RHS:
		if (CONVERT_EXPR_CODE_P(c) || c == FLOAT_EXPR || c == FIX_TRUNC_EXPR)
			return add_expr(MP_X_CAST, ty, expr_of(r1, d, stmt, depth + 1), -1);
		if (c == NEGATE_EXPR)
			return add_expr(MP_X_NEG, ty, expr_of(r1, d, stmt, depth + 1), -1);
		if (c == BIT_NOT_EXPR && mp_scalar_is_int(ty)) {   /* (not _Bool: MP_TY_OTHER) */
			/* ~x: GCC's folding of `-(x + 1)` (a zero point of -1
			   added to a negated operand); read as clang keeps it,
			   -(x + 1), exact in wrapping arithmetic */
			int x = expr_of(r1, d, stmt, depth + 1);
			int one = add_expr(MP_X_CONST, ty, -1, -1);
			if (one >= 0) {
				n->expr[one].cst = 1;
				n->expr[one].fcst = 1.0;
			}
			return add_expr(MP_X_NEG, ty, add_expr(MP_X_ADD, ty, x, one), -1);
		}
		break;
	case GIMPLE_BINARY_RHS: {
		mp_expr_kind k = c == PLUS_EXPR ? MP_X_ADD : c == MINUS_EXPR ? MP_X_SUB
			       : c == MULT_EXPR ? MP_X_MUL : MP_X_OTHER;
		int a = expr_of(r1, d, stmt, depth + 1);
		int b = expr_of(gimple_assign_rhs2(d), d, stmt, depth + 1);
		int e = add_expr(k, ty, a, b);
		if (e >= 0 && k == MP_X_OTHER)
			snprintf(n->expr[e].op, sizeof n->expr[e].op, "%s", get_tree_code_name(c));
		return e;
	}
	default:
		break;
	}
	int e = add_expr(MP_X_OTHER, ty, -1, -1);
	if (e < 0)
		return -1;
	snprintf(n->expr[e].op, sizeof n->expr[e].op, "%s", get_tree_code_name(c));
	for (unsigned i = 1; i < gimple_num_ops(d); i++) {
		int a = expr_of(gimple_op(d, i), d, stmt, depth + 1);
		if (i == 1) n->expr[e].a = a;
		if (i == 2) n->expr[e].b = a;
	}
	return e;
}
