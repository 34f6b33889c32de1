/* nest.cc -- find the nest a marker annotates, describe its loops and
 * statements for the core, and drive analysis and rewriting (the pass body).
 */
#include "gcc-common.h"
#include "mp-gcc.h"


static bool stmt_is_marker(gimple *g, int *id)
{
	gcall *c = dyn_cast<gcall *>(g);
	if (!c)
		return false;
	tree fn = gimple_call_fndecl(c);
	if (!fn || !DECL_NAME(fn) || strcmp(IDENTIFIER_POINTER(DECL_NAME(fn)), MP_MARKER_NAME))
		return false;
	tree a = gimple_call_arg(c, 0);
	*id = tree_fits_shwi_p(a) ? (int)tree_to_shwi(a) : -1;
	return true;
}

static const char *decl_name(tree t)
{
	if (TREE_CODE(t) == SSA_NAME)
		t = SSA_NAME_VAR(t);
	return t && DECL_P(t) && DECL_NAME(t) ? IDENTIFIER_POINTER(DECL_NAME(t)) : "<temporary>";
}

/* The entry edge of loop L (its only predecessor edge from outside). */
edge mp_loop_entry(class loop *l)
{
	edge e, found = NULL;
	edge_iterator ei;
	FOR_EACH_EDGE(e, ei, l->header->preds) {
		if (flow_bb_inside_loop_p(l, e->src))
			continue;
		if (found)
			return NULL;
		found = e;
	}
	return found;
}

/* The exit edge of L leaving from its header. */
edge mp_loop_exit(class loop *l)
{
	edge e;
	edge_iterator ei;
	FOR_EACH_EDGE(e, ei, l->header->succs)
		if (!flow_bb_inside_loop_p(l, e->dest))
			return e;
	return NULL;
}

/* Which of the decls CAND does a statement read?  One walk of each
 * operand for all of them (a walk per decl and statement made a function
 * holding many nests quadratic in its size, times the variables). */
struct reads_data {
	const std::vector<tree> *cand;
	std::vector<char> *hit;
	size_t left;            /* candidates not seen yet */
};

static tree mark_reads_r(tree *tp, int *walk_subtrees, void *data)
{
	reads_data *d = (reads_data *)data;
	if (TYPE_P(*tp)) {
		*walk_subtrees = 0;
		return NULL_TREE;
	}
	if (DECL_P(*tp))
		for (size_t i = 0; i < d->cand->size(); i++)
			if ((*d->cand)[i] == *tp && !(*d->hit)[i]) {
				(*d->hit)[i] = 1;
				d->left--;
			}
	return d->left == 0 ? *tp : NULL_TREE;
}

/* Marks in d the candidates statement G reads: every operand but a plain
 * write's destination (the left-hand side when it is a decl). */
static void stmt_reads(gimple *g, reads_data *d)
{
	unsigned first = 0;
	if (is_gimple_assign(g) || is_gimple_call(g)) {
		tree lhs = gimple_get_lhs(g);
		if (lhs && DECL_P(lhs))
			first = 1;   /* a plain write (of that decl only) */
	}
	for (unsigned i = first; i < gimple_num_ops(g) && d->left > 0; i++) {
		tree op = gimple_op(g, i);
		/* GIMPLE operands are shallow trees: no visited set needed */
		if (op)
			walk_tree(&op, mark_reads_r, d, NULL);
	}
}

/* ------------------------------------------------------ loop control */

/* OP is `v + c` computed in the header (`i + 1 < M`): v, with *off = c. */
static tree iv_decl_off(tree op, basic_block header, int64_t *off);

static tree iv_decl_of(tree op, basic_block header)
{
	if (is_reg_decl_p(op))
		return op;
	if (TREE_CODE(op) == SSA_NAME) {
		gimple *d = SSA_NAME_DEF_STMT(op);
		if (d && gimple_bb(d) == header && is_gimple_assign(d) &&
		    (CONVERT_EXPR_CODE_P(gimple_assign_rhs_code(d)) ||
		     gimple_assign_rhs_code(d) == SSA_NAME || gimple_assign_rhs_code(d) == VAR_DECL ||
		     gimple_assign_rhs_code(d) == PARM_DECL)) {
			tree r = gimple_assign_rhs1(d);
			if (is_reg_decl_p(r))
				return r;
		}
	}
	return NULL_TREE;
}

static tree iv_decl_off(tree op, basic_block header, int64_t *off)
{
	*off = 0;
	tree v = iv_decl_of(op, header);
	if (v || TREE_CODE(op) != SSA_NAME)
		return v;
	gimple *d = SSA_NAME_DEF_STMT(op);
	while (d && gimple_bb(d) == header && is_gimple_assign(d) &&
	       CONVERT_EXPR_CODE_P(gimple_assign_rhs_code(d)) &&
	       TREE_CODE(gimple_assign_rhs1(d)) == SSA_NAME)
		d = SSA_NAME_DEF_STMT(gimple_assign_rhs1(d));
	if (!d || gimple_bb(d) != header || !is_gimple_assign(d) ||
	    (gimple_assign_rhs_code(d) != PLUS_EXPR && gimple_assign_rhs_code(d) != MINUS_EXPR) ||
	    TREE_CODE(gimple_assign_rhs2(d)) != INTEGER_CST)
		return NULL_TREE;
	v = iv_decl_of(gimple_assign_rhs1(d), header);
	if (!v)
		return NULL_TREE;
	int64_t c = mp_int_cst(gimple_assign_rhs2(d));
	*off = gimple_assign_rhs_code(d) == PLUS_EXPR ? c : -c;
	return v;
}

/* Assignments to DECL inside loop L (all depths). */
static std::vector<gimple *> assigns_in(class loop *l, tree decl)
{
	std::vector<gimple *> r;
	basic_block *body = get_loop_body(l);
	for (unsigned i = 0; i < l->num_nodes; i++)
		for (gimple_stmt_iterator g = gsi_start_bb(body[i]); !gsi_end_p(g); gsi_next(&g)) {
			gimple *s = gsi_stmt(g);
			if ((is_gimple_assign(s) || is_gimple_call(s)) && gimple_get_lhs(s) == decl)
				r.push_back(s);
		}
	free(body);
	return r;
}

/* The user variable that SSA name T copies (`t = v` in the block of AT,
 * before it), or NULL_TREE. */
static tree copy_of(tree t, gimple *at)
{
	gimple *d = SSA_NAME_DEF_STMT(t);
	if (!d || !is_gimple_assign(d) || !gimple_assign_single_p(d) ||
	    gimple_bb(d) != gimple_bb(at) || !is_reg_decl_p(gimple_assign_rhs1(d)))
		return NULL_TREE;
	for (gimple_stmt_iterator g = gsi_for_stmt(d); !gsi_end_p(g); gsi_next(&g))
		if (gsi_stmt(g) == at)
			return gimple_assign_rhs1(d);
	return NULL_TREE;
}

/* `v = v + S` with S a value the nest does not change, one parameter
 * (`j += GS`, GS set at run time): the PARAM in *VAR. */
static bool var_increment(mp_ctx &c, gimple *s, tree v, int *var)
{
	if (!is_gimple_assign(s) || gimple_assign_lhs(s) != v ||
	    gimple_assign_rhs_code(s) != PLUS_EXPR)
		return false;
	tree a = gimple_assign_rhs1(s), b = gimple_assign_rhs2(s);
	if (b == v)
		std::swap(a, b);
	mp_aff x;
	if (a != v || TREE_CODE(b) == INTEGER_CST || !c.aff_of(b, s, &x, 0) || x.n != 1 ||
	    x.cst != 0 || x.t[0].coef != 1 || x.t[0].v2 >= 0 ||
	    c.n->var[x.t[0].v1].kind != MP_VAR_PARAM)
		return false;
	*var = x.t[0].v1;
	return true;
}

/* T converted to an integer type of its own precision (the unsigned twin
 * through which a signed short or char steps): the SSA name converted. */
static tree same_width_conv(tree t)
{
	gimple *d = TREE_CODE(t) == SSA_NAME ? SSA_NAME_DEF_STMT(t) : NULL;
	if (!d || !is_gimple_assign(d) || !CONVERT_EXPR_CODE_P(gimple_assign_rhs_code(d)))
		return NULL_TREE;
	tree r = gimple_assign_rhs1(d);
	if (!INTEGRAL_TYPE_P(TREE_TYPE(t)) || !INTEGRAL_TYPE_P(TREE_TYPE(r)) ||
	    TYPE_PRECISION(TREE_TYPE(t)) != TYPE_PRECISION(TREE_TYPE(r)))
		return NULL_TREE;
	return r;
}

static bool is_increment(gimple *s, tree v, int64_t *step)
{
	if (!is_gimple_assign(s) || gimple_assign_lhs(s) != v)
		return false;
	gimple *at = s;
	/* a signed short or char steps through its unsigned twin (the C
	   front end's `v = (short) ((unsigned short) v + 1)`): t1 = v;
	   t2 = (unsigned short) t1; t3 = t2 + 1; v = (short) t3 */
	if (CONVERT_EXPR_CODE_P(gimple_assign_rhs_code(s))) {
		tree r = gimple_assign_rhs1(s);
		if (TREE_CODE(r) != SSA_NAME || !INTEGRAL_TYPE_P(TREE_TYPE(r)) ||
		    TYPE_PRECISION(TREE_TYPE(r)) != TYPE_PRECISION(TREE_TYPE(v)))
			return false;
		s = SSA_NAME_DEF_STMT(r);
		if (!s || !is_gimple_assign(s) || gimple_bb(s) != gimple_bb(at))
			return false;
	}
	enum tree_code c = gimple_assign_rhs_code(s);
	if (c != PLUS_EXPR && c != MINUS_EXPR)
		return false;
	tree a = gimple_assign_rhs1(s), b = gimple_assign_rhs2(s);
	if (c == PLUS_EXPR && TREE_CODE(a) == INTEGER_CST)
		std::swap(a, b);
	if (TREE_CODE(b) != INTEGER_CST)
		return false;
	if (at != s) {
		tree w = same_width_conv(a);
		if (!w)
			return false;
		a = w;
	}
	/* `v = t + c` with t a copy of v made just before (the header of
	   `while (v--)`: t = v; v = t + -1; if (t != 0)) */
	if (a != v && !(TREE_CODE(a) == SSA_NAME && copy_of(a, s) == v))
		return false;
	/* an unsigned i-- is i + 4294967295u: the step in the iterator's own
	   precision, as a signed value */
	int64_t k = mp_int_cst(b);
	*step = c == PLUS_EXPR ? k : -k;
	return true;
}

/* INCR runs last in every iteration of L: its block dominates the latch,
 * nothing but debug statements follows it, and only empty blocks lie
 * between it and the header.  An increment anywhere else (at the top of a
 * while body, `while (k < K) { k++; ... }`) gives the body another value
 * than the one the loop's range describes. */
tree mp_mentions_r(tree *tp, int *walk_subtrees, void *data)
{
	(void)walk_subtrees;
	return *tp == (tree)data ? *tp : NULL_TREE;
}

/* G reads or writes the variable V (GIMPLE operands are shallow trees). */
static bool mentions(gimple *g, tree v)
{
	for (unsigned i = 0; i < gimple_num_ops(g); i++) {
		tree op = gimple_op(g, i);
		if (op && walk_tree(&op, mp_mentions_r, v, NULL))
			return true;
	}
	return false;
}

/* INCR, the step of V, is the last thing the body does with V: whatever
 * follows it on the way to the header is a plain assignment that neither
 * reads nor writes V (`for (k = 0, p = a; k < K; k++, p++)` steps p after
 * k), so that describing the step at the end of the body changes nothing. */
static bool increments_last(class loop *l, gimple *incr, tree v)
{
	basic_block bb = gimple_bb(incr);
	if (!l->latch || !dominated_by_p(CDI_DOMINATORS, l->latch, bb))
		return false;
	auto after_ok = [v](gimple *s) {
		return is_gimple_debug(s) || gimple_code(s) == GIMPLE_LABEL ||
		       (is_gimple_assign(s) && !mentions(s, v));
	};
	gimple_stmt_iterator g = gsi_for_stmt(incr);
	for (gsi_next(&g); !gsi_end_p(g); gsi_next(&g))
		if (!after_ok(gsi_stmt(g)))
			return false;
	while (bb != l->header) {
		if (!single_succ_p(bb))
			return false;
		bb = single_succ(bb);
		if (bb == l->header)
			break;
		for (g = gsi_start_bb(bb); !gsi_end_p(g); gsi_next(&g))
			if (!after_ok(gsi_stmt(g)))
				return false;
	}
	return true;
}

/* The last assignment to V before loop L's entry edge (in the block the
 * edge leaves, or up a chain of empty single-predecessor blocks), or NULL;
 * *IBB: the block the search ended in. */
static gimple *init_before(class loop *l, tree v, basic_block *ibbp)
{
	edge en = mp_loop_entry(l);
	gimple *init = NULL;
	basic_block ibb = en ? en->src : NULL;
	for (; ibb && !init; ) {
		for (gimple_stmt_iterator g = gsi_last_bb(ibb); !gsi_end_p(g); gsi_prev(&g)) {
			gimple *s = gsi_stmt(g);
			if (is_gimple_assign(s) && gimple_assign_lhs(s) == v) {
				init = s;
				break;
			}
		}
		if (init || !single_pred_p(ibb) || !gsi_end_p(gsi_start_nondebug_bb(ibb)))
			break;
		ibb = single_pred(ibb);
	}
	*ibbp = ibb;
	return init;
}

/* ------------------------------------------------------------ guards */

/* Add the affine condition SIGN*(A - B) - OFF >= 0 to *SET. */
static bool add_cond(mp_ctx &c, const mp_aff *a, const mp_aff *b, int sign, int64_t off,
		     location_t loc, unsigned *set)
{
	mp_aff nb, d;
	if (mp_aff_scale(&nb, b, -1) != 0 || mp_aff_add(&d, a, &nb) != 0 ||
	    mp_aff_scale(&d, &d, sign) != 0)
		return false;
	d.cst -= off;
	int id = mp_nest_add_cond(c.n, &d, mp_loc_cookie(loc));
	if (id < 0)
		return false;
	*set |= 1u << id;
	return true;
}

/* The comparison A CODE B (negated when NEG) as conditions. */
static bool cmp_conds(mp_ctx &c, enum tree_code code, tree a, tree b, bool neg, gimple *at,
		      unsigned *set)
{
	if (neg)
		code = invert_tree_comparison(code, false);
	tree ta = TREE_TYPE(a);
	if (!INTEGRAL_TYPE_P(ta) || !INTEGRAL_TYPE_P(TREE_TYPE(b)))
		return false;
	location_t loc = gimple_location(at);
	mp_aff x, y;
	if (TYPE_UNSIGNED(ta)) {
		/* `(unsigned) x <= C` (GCC's fold of `x >= 0 && x <= C`): x
		   signed of the same precision, 0 <= C < 2^(p-1) */
		tree inner = a;
		if (TREE_CODE(inner) == SSA_NAME && !SSA_NAME_IS_DEFAULT_DEF(inner) &&
		    is_gimple_assign(SSA_NAME_DEF_STMT(inner)) &&
		    CONVERT_EXPR_CODE_P(gimple_assign_rhs_code(SSA_NAME_DEF_STMT(inner))))
			inner = gimple_assign_rhs1(SSA_NAME_DEF_STMT(inner));
		else if (CONVERT_EXPR_P(inner))
			inner = TREE_OPERAND(inner, 0);
		if (inner == a || !INTEGRAL_TYPE_P(TREE_TYPE(inner)) ||
		    TYPE_UNSIGNED(TREE_TYPE(inner)) ||
		    TYPE_PRECISION(TREE_TYPE(inner)) != TYPE_PRECISION(ta) ||
		    TREE_CODE(b) != INTEGER_CST || !tree_fits_uhwi_p(b) ||
		    TYPE_PRECISION(ta) > 64)
			return false;
		uint64_t cv = tree_to_uhwi(b);
		if (cv >= ((uint64_t)1 << (TYPE_PRECISION(ta) - 1)) || (code != LE_EXPR && code != LT_EXPR))
			return false;
		mp_aff zero;
		mp_aff_const(&zero, 0);
		if (!c.aff_of(inner, at, &x, 0))
			return false;
		mp_aff_const(&y, (int64_t)cv);
		return add_cond(c, &x, &zero, 1, 0, loc, set) &&
		       add_cond(c, &y, &x, 1, code == LT_EXPR ? 1 : 0, loc, set);
	}
	if (TYPE_UNSIGNED(TREE_TYPE(b)) || !c.aff_of(a, at, &x, 0) || !c.aff_of(b, at, &y, 0))
		return false;
	switch (code) {
	case GE_EXPR: return add_cond(c, &x, &y, 1, 0, loc, set);
	case GT_EXPR: return add_cond(c, &x, &y, 1, 1, loc, set);
	case LE_EXPR: return add_cond(c, &x, &y, -1, 0, loc, set);
	case LT_EXPR: return add_cond(c, &x, &y, -1, 1, loc, set);
	case EQ_EXPR: return add_cond(c, &x, &y, 1, 0, loc, set) &&
			     add_cond(c, &x, &y, -1, 0, loc, set);
	default: return false;
	}
}

static bool flag_conds(mp_ctx &c, tree t, bool neg, gimple *at, unsigned *set);

/* The truth value T (0 or 1 when it is a comparison or a logical
 * combination of them; negated when NEG), read at AT, as a conjunction of
 * affine conditions: comparisons, `&`/`&&` (a conjunction), `|`/`||` when
 * negated, `!`, a temporary or a local with one definition standing for
 * one of those (`const int inside = ...; if (!inside)`). */
static bool truth_conds(mp_ctx &c, tree t, bool neg, gimple *at, unsigned *set, int depth)
{
	if (depth > 20 || c.failed)
		return false;
	gimple *d = NULL;
	if (TREE_CODE(t) == SSA_NAME) {
		if (SSA_NAME_IS_DEFAULT_DEF(t) || !c.in_nest(gimple_bb(SSA_NAME_DEF_STMT(t))))
			return false;
		d = SSA_NAME_DEF_STMT(t);
	} else if (is_reg_decl_p(t) && c.defs.count(t)) {
		d = c.inline_def(t, at);
		if (!d)
			d = c.dominating_def(t, at);
		if (!d)
			return flag_conds(c, t, neg, at, set);
	}
	if (!d || !is_gimple_assign(d))
		return false;
	enum tree_code code = gimple_assign_rhs_code(d);
	tree r1 = gimple_assign_rhs1(d);
	tree r2 = gimple_num_ops(d) > 2 ? gimple_assign_rhs2(d) : NULL_TREE;
	if (TREE_CODE_CLASS(code) == tcc_comparison)
		return cmp_conds(c, code, r1, r2, neg, d, set);
	switch (code) {
	case SSA_NAME: case VAR_DECL:
	CASE_CONVERT:
		return truth_conds(c, r1, neg, d, set, depth + 1);
	case TRUTH_NOT_EXPR:
		return truth_conds(c, r1, !neg, d, set, depth + 1);
	case BIT_NOT_EXPR:
		return TREE_CODE(TREE_TYPE(r1)) == BOOLEAN_TYPE &&
		       truth_conds(c, r1, !neg, d, set, depth + 1);
	case BIT_XOR_EXPR:
		return r2 && integer_onep(r2) && truth_conds(c, r1, !neg, d, set, depth + 1);
	case BIT_AND_EXPR: case TRUTH_AND_EXPR:
		return !neg && truth_conds(c, r1, false, d, set, depth + 1) &&
		       truth_conds(c, r2, false, d, set, depth + 1);
	case BIT_IOR_EXPR: case TRUTH_OR_EXPR:
		return neg && truth_conds(c, r1, true, d, set, depth + 1) &&
		       truth_conds(c, r2, true, d, set, depth + 1);
	default:
		return false;
	}
}

/* The condition under which edge E of a block ending in gcond G is taken. */
static bool edge_conds(mp_ctx &c, gcond *g, edge e, unsigned *set)
{
	bool neg = (e->flags & EDGE_FALSE_VALUE) != 0;
	enum tree_code code = gimple_cond_code(g);
	tree a = gimple_cond_lhs(g), b = gimple_cond_rhs(g);
	if ((code == NE_EXPR || code == EQ_EXPR) && integer_zerop(b) &&
	    truth_conds(c, a, neg != (code == EQ_EXPR), g, set, 0))
		return true;
	return cmp_conds(c, code, a, b, neg, g, set);
}

/* Can block FROM reach block TO inside loop L without going through L's
 * header (a new iteration)? */
static bool reaches(class loop *l, basic_block from, basic_block to)
{
	std::vector<basic_block> work(1, from);
	std::set<int> seen;
	while (!work.empty()) {
		basic_block b = work.back();
		work.pop_back();
		if (b == to)
			return true;
		if (b == l->header || !flow_bb_inside_loop_p(l, b) || !seen.insert(b->index).second)
			continue;
		edge e;
		edge_iterator ei;
		FOR_EACH_EDGE(e, ei, b->succs)
			work.push_back(e->dest);
	}
	return false;
}

/* Can block FROM, inside loop L, get to L's header (a new iteration) or
 * out of L without passing block AVOID? */
static bool escapes(class loop *l, basic_block from, basic_block avoid)
{
	std::vector<basic_block> work(1, from);
	std::set<int> seen;
	while (!work.empty()) {
		basic_block b = work.back();
		work.pop_back();
		if (b == avoid || !seen.insert(b->index).second)
			continue;
		if ((b == l->header && b != from) || !flow_bb_inside_loop_p(l, b))
			return true;
		edge e;
		edge_iterator ei;
		FOR_EACH_EDGE(e, ei, b->succs)
			work.push_back(e->dest);
	}
	return false;
}

/* Whether S reads memory into a register: a single assignment from a
 * memory reference or from a variable that is not a register (global,
 * address taken); not a copy of a register variable, which
 * gimple_assign_load_p also counts before SSA. */
static bool mem_load_p(gimple *s)
{
	if (!is_gimple_assign(s) || !gimple_assign_single_p(s))
		return false;
	tree r = gimple_assign_rhs1(s);
	if (DECL_P(r))
		return !is_gimple_reg(r);
	return TREE_CODE(r) == MEM_REF || TREE_CODE(r) == TARGET_MEM_REF ||
	       handled_component_p(r);
}

/* Whether A and B, values in one iteration with no store between their
 * evaluations, are the same computation: compiler temporaries followed
 * to their definitions, a load's reference compared operand by operand,
 * declarations by identity (what reads them was checked unassigned
 * between). */
static bool same_value(tree a, tree b, int depth = 0)
{
	if (a == b)
		return true;
	if (!a || !b || depth > 24 || TREE_CODE(a) != TREE_CODE(b))
		return false;
	if (CONSTANT_CLASS_P(a))
		return operand_equal_p(a, b, 0);
	if (TREE_CODE(a) == SSA_NAME) {
		if (SSA_NAME_VAR(a) || SSA_NAME_VAR(b))
			return false;
		gassign *da = dyn_cast<gassign *>(SSA_NAME_DEF_STMT(a));
		gassign *db = dyn_cast<gassign *>(SSA_NAME_DEF_STMT(b));
		if (!da || !db || gimple_assign_rhs_code(da) != gimple_assign_rhs_code(db) ||
		    gimple_num_ops(da) != gimple_num_ops(db) ||
		    !types_compatible_p(TREE_TYPE(a), TREE_TYPE(b)))
			return false;
		for (unsigned q = 1; q < gimple_num_ops(da); q++)
			if (!same_value(gimple_op(da, q), gimple_op(db, q), depth + 1))
				return false;
		return true;
	}
	if (DECL_P(a) || TREE_THIS_VOLATILE(a) || TREE_THIS_VOLATILE(b) ||
	    (!EXPR_P(a) && !REFERENCE_CLASS_P(a)) ||
	    !types_compatible_p(TREE_TYPE(a), TREE_TYPE(b)))
		return false;
	int na = TREE_OPERAND_LENGTH(a);
	if (na != TREE_OPERAND_LENGTH(b))
		return false;
	for (int q = 0; q < na; q++)
		if (!same_value(TREE_OPERAND(a, q), TREE_OPERAND(b, q), depth + 1))
			return false;
	return true;
}

/* Whether value X is ELEM, a conversion of it or a product with it as a
 * factor (zero where ELEM is). */
static bool elem_factor(tree x, tree elem, int depth = 0)
{
	if (same_value(x, elem))
		return true;
	gassign *d = x && TREE_CODE(x) == SSA_NAME && !SSA_NAME_VAR(x) && depth < 8
		     ? dyn_cast<gassign *>(SSA_NAME_DEF_STMT(x)) : NULL;
	if (!d)
		return false;
	enum tree_code k = gimple_assign_rhs_code(d);
	if (k == MULT_EXPR)
		return elem_factor(gimple_assign_rhs1(d), elem, depth + 1) ||
		       elem_factor(gimple_assign_rhs2(d), elem, depth + 1);
	if (CONVERT_EXPR_CODE_P(k) || k == FLOAT_EXPR || k == FIX_TRUNC_EXPR)
		return elem_factor(gimple_assign_rhs1(d), elem, depth + 1);
	return false;
}

/* Whether what runs under a zero-skip guard left by edge E before the
 * loop of header HDR, or that loop's test, reads memory (a load or a
 * call) other than ALOAD (the guard's element: a load of the same
 * reference): the nest as written reads it only where the guard passes,
 * the rewrite on every call (CLAPACK's `i__3 = *m;` and `temp = *alpha *
 * b[...]` with m or alpha null where every guard fails: a review helper's
 * crash). */
static bool value_reads_memory(tree x, int depth = 0)
{
	if (!x || CONSTANT_CLASS_P(x))
		return false;
	if (depth > 24)
		return true;
	if (TREE_CODE(x) == SSA_NAME) {
		gassign *d = dyn_cast<gassign *>(SSA_NAME_DEF_STMT(x));
		if (SSA_NAME_VAR(x) || !d)
			return !SSA_NAME_VAR(x) && !gimple_nop_p(SSA_NAME_DEF_STMT(x));
		if (mem_load_p(d) || gimple_has_volatile_ops(d))
			return true;
		for (unsigned q = 1; q < gimple_num_ops(d); q++)
			if (value_reads_memory(gimple_op(d, q), depth + 1))
				return true;
		return false;
	}
	if (VAR_P(x) || TREE_CODE(x) == PARM_DECL)
		return !is_gimple_reg(x) || TREE_THIS_VOLATILE(x);
	return true;
}

/* (the loop's exit tests, for the header may be its body's first block;
   then the blocks from E's destination up to HDR, exclusive) */
static bool guard_reads_memory(edge e, basic_block hdr, tree aload)
{
	for (edge x : get_loop_exit_edges(hdr->loop_father))
		if (gcond *t = safe_dyn_cast<gcond *>(last_stmt(x->src)))
			if (value_reads_memory(gimple_cond_lhs(t)) ||
			    value_reads_memory(gimple_cond_rhs(t)))
				return true;
	if (hdr == e->dest)
		return false;
	for (basic_block b = get_immediate_dominator(CDI_DOMINATORS, hdr);;
	     b = get_immediate_dominator(CDI_DOMINATORS, b)) {
		if (!b)
			return true;
		for (gimple_stmt_iterator g = gsi_start_bb(b); !gsi_end_p(g); gsi_next(&g)) {
			gimple *s = gsi_stmt(g);
			if (is_gimple_debug(s))
				continue;
			if (is_gimple_call(s))
				return true;
			if (mem_load_p(s) && !(aload && same_value(gimple_assign_lhs(s), aload)))
				return true;
		}
		if (b == e->dest)
			return false;
	}
}

#define MP_GUARD_MEMORY \
	"a loop of the nest runs under 'if (%s != 0)' and reads memory under that guard " \
	"(before the loop or in its bounds) that the nest as written reads only where " \
	"that value is not 0 (mixprec would read it on every call); copy the value to a " \
	"local variable before the nest"

/* The guard `if (E != 0)` on an operand element E (a compiler temporary
 * A loaded from memory, or a conversion of one), left by edge E toward the
 * guarded loop's header HDR, as netlib's f2c BLAS writes it: `if (b[l + j
 * * b_dim1] != 0.f) { temp = *alpha * b[l + j * b_dim1]; ... for ...}`.
 * The local the blocks from E's destination to HDR (one way, no store, no
 * call, no other variable assigned before it) set to a product with the
 * element as a factor: where the element is 0, it is 0.  NULL_TREE if
 * none. */
static tree elem_guard_var(tree a, edge e, basic_block hdr, gimple **def, location_t *eloc,
			   tree *aload)
{
	tree x = a;
	for (int q = 0; q < 4 && x && TREE_CODE(x) == SSA_NAME && !SSA_NAME_VAR(x); q++) {
		gassign *d = dyn_cast<gassign *>(SSA_NAME_DEF_STMT(x));
		if (!d)
			return NULL_TREE;
		if (mem_load_p(d)) {
			tree r = gimple_assign_rhs1(d);
			if (TREE_THIS_VOLATILE(r) || !(INTEGRAL_TYPE_P(TREE_TYPE(r)) ||
						       SCALAR_FLOAT_TYPE_P(TREE_TYPE(r))))
				return NULL_TREE;
			*aload = x;
			x = NULL_TREE;
			*eloc = gimple_location(d);
			break;
		}
		if (!CONVERT_EXPR_CODE_P(gimple_assign_rhs_code(d)))
			return NULL_TREE;
		x = gimple_assign_rhs1(d);
	}
	if (x)
		return NULL_TREE;   /* not a load */
	/* one way from the guard to the loop */
	int nb = 0;
	for (basic_block b = e->dest; b != hdr; b = single_succ(b))
		if (++nb > 8 || !single_succ_p(b) || !single_pred_p(b) ||
		    b->loop_father != loop_outer(hdr->loop_father))
			return NULL_TREE;
	basic_block b = e->dest;
	for (int nb = 0; b != hdr && nb < 8; nb++) {
		for (gimple_stmt_iterator g = gsi_start_bb(b); !gsi_end_p(g); gsi_next(&g)) {
			gimple *s = gsi_stmt(g);
			if (is_gimple_debug(s) || gimple_code(s) == GIMPLE_LABEL)
				continue;
			gassign *as = dyn_cast<gassign *>(s);
			if (!as || gimple_has_volatile_ops(as) || gimple_store_p(as))
				return NULL_TREE;
			tree l = gimple_assign_lhs(as);
			if (TREE_CODE(l) == SSA_NAME && !SSA_NAME_VAR(l))
				continue;
			if (!VAR_P(l) || !is_gimple_reg(l) || DECL_ARTIFICIAL(l) ||
			    !(INTEGRAL_TYPE_P(TREE_TYPE(l)) || SCALAR_FLOAT_TYPE_P(TREE_TYPE(l))))
				return NULL_TREE;
			/* the first variable assigned: the element's */
			bool f = false;
			if (gimple_assign_rhs_code(as) == MULT_EXPR)
				f = elem_factor(gimple_assign_rhs1(as), a) ||
				    elem_factor(gimple_assign_rhs2(as), a);
			else if (gimple_assign_single_p(as) ||
				 CONVERT_EXPR_CODE_P(gimple_assign_rhs_code(as)) ||
				 gimple_assign_rhs_code(as) == FLOAT_EXPR ||
				 gimple_assign_rhs_code(as) == FIX_TRUNC_EXPR)
				f = elem_factor(gimple_assign_rhs1(as), a);
			*def = as;
			return f ? l : NULL_TREE;
		}
		if (!single_succ_p(b))
			return NULL_TREE;
		b = single_succ(b);
	}
	return NULL_TREE;
}

/* The text of the expression at LOC as written (the element of an
 * element's guard: its load's location), or "" when not on one line. */
static std::string loc_text(location_t loc)
{
	if (loc == UNKNOWN_LOCATION || from_macro_expansion_at(loc))
		return "";
	source_range r = get_range_from_loc(line_table, loc);
	expanded_location st = expand_location(r.m_start), fi = expand_location(r.m_finish);
	if (!st.file || !fi.file || st.line != fi.line || strcmp(st.file, fi.file) ||
	    st.column < 1 || fi.column < st.column)
		return "";
	char_span line = location_get_source_line(st.file, st.line);
	if (!line || (size_t)fi.column > line.length())
		return "";
	return std::string(line.get_buffer() + st.column - 1, fi.column - st.column + 1);
}

/* Branch G, left by edge E, is a zero-skip guard (guard_of's ZV) and ZV
 * has none yet: *ZV gets its variable's var id.  Also the guard of an
 * operand element before the loop of header HDR (elem_guard_var): *ZV the
 * local set from it, *ZSRC the element's text. */
static bool zero_guard(mp_ctx &c, gcond *g, edge e, int *zv, basic_block hdr,
		       std::string *zsrc)
{
	if (!zv || *zv >= 0)
		return false;
	enum tree_code code = gimple_cond_code(g);
	tree a = gimple_cond_lhs(g), b = gimple_cond_rhs(g);
	bool on_true = (e->flags & EDGE_TRUE_VALUE) != 0;
	if (!((code == NE_EXPR && on_true) || (code == EQ_EXPR && !on_true)) ||
	    !(integer_zerop(b) || real_zerop(b)))
		return false;
	if (zsrc && TREE_CODE(a) == SSA_NAME && !SSA_NAME_VAR(a)) {
		gimple *def = NULL;
		location_t eloc = UNKNOWN_LOCATION;
		tree aload = NULL_TREE;
		tree w = elem_guard_var(a, e, hdr, &def, &eloc, &aload);
		if (!w)
			return false;
		if (guard_reads_memory(e, hdr, aload)) {
			std::string t = loc_text(eloc);
			c.fail(gimple_location(g), MP_GUARD_MEMORY, t.empty() ? "an element" : t.c_str());
			return false;
		}
		c.zguard_defs.push_back(def);
		*zsrc = loc_text(eloc);
		if (zsrc->empty())
			*zsrc = "an element";
		*zv = c.var_for(w, MP_VAR_LOCAL);
		return *zv >= 0;
	}
	if (!(VAR_P(a) || TREE_CODE(a) == PARM_DECL) || !is_gimple_reg(a) ||
	    TREE_THIS_VOLATILE(a))
		return false;
	if (hdr && guard_reads_memory(e, hdr, NULL_TREE)) {
		c.fail(gimple_location(g), MP_GUARD_MEMORY, decl_name(a));
		return false;
	}
	/* the loops are described before the statements: the variable's
	   first mention may be this one */
	*zv = c.var_for(a, c.defs.count(a) ? MP_VAR_LOCAL : MP_VAR_PARAM);
	return *zv >= 0;
}

/* The condition under which block BB (in the body of loop L) runs on an
 * iteration of L, exactly: each branch d that dominates BB either decides
 * it (one edge leads to BB, the other cannot reach it: an `if` around it,
 * `if (C) continue;` before it; its condition joins the conjunction in
 * *SET) or cannot keep the iteration from x, the dominator of BB d
 * immediately dominates (every path from d passes x: the branches of
 * `inside = a && b` before `if (!inside) continue;`).  False when that is
 * not so (a disjunction), or a deciding condition is not a conjunction of
 * affine comparisons.  With ZV, one deciding condition may instead be a
 * zero-skip guard `V != 0` (or `V == 0` left by its false edge), V a local
 * or parameter (a register), as netlib's and GSL's C BLAS guard an update
 * loop with `if (temp != 0)`: *ZV gets V's var id (-1: none). */
static bool guard_of(mp_ctx &c, basic_block bb, class loop *l, unsigned *set, int *zv = NULL,
		     std::string *zsrc = NULL)
{
	*set = 0;
	if (zv)
		*zv = -1;
	for (basic_block x = bb; x != l->header;) {
		basic_block d = get_immediate_dominator(CDI_DOMINATORS, x);
		if (!d || !flow_bb_inside_loop_p(l, d))
			return false;
		gimple *last = d != l->header ? last_stmt(d) : NULL;
		gcond *g = last ? dyn_cast<gcond *>(last) : NULL;
		if (d != l->header && EDGE_COUNT(d->succs) > 1) {
			edge e0 = EDGE_SUCC(d, 0), e1 = EDGE_SUCC(d, 1);
			bool d0 = dominated_by_p(CDI_DOMINATORS, bb, e0->dest);
			bool d1 = dominated_by_p(CDI_DOMINATORS, bb, e1->dest);
			/* deciding: BB only through edge e, and from e on to
			   x (the next dominator of BB) whatever follows */
			edge e = d0 ? e0 : e1;
			if (g && EDGE_COUNT(d->succs) == 2 && d0 != d1 &&
			    !reaches(l, (d0 ? e1 : e0)->dest, bb)) {
				unsigned before = *set;
				if (!edge_conds(c, g, e, set)) {
					*set = before;   /* what the failed reading added */
					if (!zero_guard(c, g, e, zv, bb, zsrc))
						return false;
				}
				if (e->dest != x && escapes(l, e->dest, x))
					return false;
			} else if (escapes(l, d, x))   /* not deciding: every way gets to x */
				return false;
		}
		x = d;
	}
	return true;
}

/* The arms ONE and OTHERS of a branch in loop L, which set a local: none
 * reaches another in one iteration, and every way from L's header to block
 * USE passes one of them (so the value at USE is the last arm's). */
static bool arms_cover(class loop *l, basic_block use, basic_block one,
		       const std::vector<basic_block> &others)
{
	for (basic_block o : others)
		if (o == one || reaches(l, one, o) || reaches(l, o, one))
			return false;
	std::vector<basic_block> work(1, l->header);
	std::set<int> seen;
	while (!work.empty()) {
		basic_block b = work.back();
		work.pop_back();
		if (b == one || std::find(others.begin(), others.end(), b) != others.end() ||
		    !seen.insert(b->index).second || !flow_bb_inside_loop_p(l, b))
			continue;
		if (b == use)
			return false;
		edge e;
		edge_iterator ei;
		FOR_EACH_EDGE(e, ei, b->succs)
			if (e->dest != l->header)
				work.push_back(e->dest);
	}
	return true;
}

/* Local T at AT is set by `T = VALUE;` in one block and `T = K;` (a
 * constant) in another of the same iteration of AT's loop, exclusive, one
 * of them passed on every way to AT (GCC's gimplification of `v = inside ?
 * in[...] : 0`, or an if/else): T is VALUE exactly where the VALUE block
 * runs (guard_of), K elsewhere.  Fills the VALUE assignment, K and the
 * conditions. */
bool mp_select_conds(mp_ctx &c, tree t, gimple *at, gimple **val, int64_t *k, unsigned *set)
{
	auto it = c.defs.find(t);
	if (!at || it == c.defs.end() || it->second.size() != 2)
		return false;
	basic_block ub = gimple_bb(at);
	class loop *l = ub->loop_father;
	gimple *dv = NULL, *dk = NULL;
	for (gimple *d : it->second) {
		if (!is_gimple_assign(d) || gimple_bb(d)->loop_father != l || gimple_bb(d) == ub)
			return false;
		tree r = gimple_assign_single_p(d) ? gimple_assign_rhs1(d) : NULL_TREE;
		if (r && TREE_CODE(r) == INTEGER_CST && tree_fits_shwi_p(r) && !dk) {
			dk = d;
			*k = tree_to_shwi(r);
		} else if (r && TREE_CODE(r) == REAL_CST && real_zerop(r) && !dk) {
			dk = d;
			*k = 0;
		} else if (!dv)
			dv = d;
		else
			return false;
	}
	if (!dv || !dk)
		return false;
	basic_block bv = gimple_bb(dv);
	if (!arms_cover(l, ub, bv, std::vector<basic_block>(1, gimple_bb(dk))))
		return false;
	*val = dv;
	return guard_of(c, bv, l, set) && *set;
}

/* Adds the temporaries (SSA names, artificial decls) that S reads to W. */
static void temps_read(gimple *s, std::set<tree> &w)
{
	for (unsigned i = 0; i < gimple_num_ops(s); i++) {
		tree op = gimple_op(s, i);
		if (!op || (is_gimple_assign(s) && i == 0))
			continue;
		if (TREE_CODE(op) == SSA_NAME || (VAR_P(op) && DECL_ARTIFICIAL(op)))
			w.insert(op);
	}
}

/* The variable of LO / LO2 (the initial value INIT gave a loop's iterator)
 * that a statement after INIT's first read of it, in INIT's block, assigns
 * (or, for a variable in memory, may store to: a store, a call), or
 * NULL_TREE.  The call, made at the loop, reads the variables again:
 * `int i = st; st = 0; for (; i < M; i++)` would start at 0 (the value
 * INIT took is not kept).  INIT's own chain of temporaries (`i = st++`:
 * _1 = st; st = _1 + 1; i = _1) counts from its first statement. */
static tree init_clobbered(mp_ctx &c, gimple *init, const mp_aff *lo, const mp_aff *lo2)
{
	std::set<tree> vars;
	for (const mp_aff *a : { lo, lo2 })
		for (int t = 0; t < a->n; t++)
			for (int v : { a->t[t].v1, a->t[t].v2 })
				if (v >= 0 && v < (int)c.var_tree.size() && c.var_tree[v] &&
				    TREE_CODE(c.var_tree[v]) != SSA_NAME)
					vars.insert(c.var_tree[v]);
	if (vars.empty())
		return NULL_TREE;
	std::set<gimple *> chain = { init };
	std::set<tree> want;
	temps_read(init, want);
	gimple_stmt_iterator first = gsi_for_stmt(init);
	for (gimple_stmt_iterator g = gsi_for_stmt(init); gsi_prev(&g), !gsi_end_p(g);) {
		gimple *s = gsi_stmt(g);
		tree lhs = gimple_get_lhs(s);
		if (lhs && want.count(lhs)) {
			chain.insert(s);
			first = g;
			temps_read(s, want);
		}
	}
	for (gimple_stmt_iterator g = first; !gsi_end_p(g); gsi_next(&g)) {
		gimple *s = gsi_stmt(g);
		int mid;
		if (chain.count(s) || is_gimple_debug(s) || stmt_is_marker(s, &mid))
			continue;
		tree lhs = gimple_get_lhs(s);
		gcall *call = dyn_cast<gcall *>(s);
		for (tree v : vars)
			if (lhs == v || (!is_gimple_reg(v) &&
					 ((lhs && !is_gimple_reg(lhs)) ||
					  (call && !mp_harmless_call(call)) ||
					  gimple_code(s) == GIMPLE_ASM)))
				return v;
	}
	return NULL_TREE;
}

/* Integer variables stepped beside the iterator V of loop L (id LID,
 * step 1 from LO; INCR its step): onnx2c's `for (o0 = 0, i0 = -1; o0 < H;
 * o0++, i0 += 1)`.  Such a W, set right before the loop and stepped by a
 * constant C in the step's block, last, and assigned nowhere else in the
 * nest, is W0 + C*(V - LO) inside the body: the nest's reads of it become
 * that (mp_ctx::stepped_at), its two assignments loop control.  A signed
 * type of at least 32 bits (no wrap-around to read).  Reads of W outside
 * L find no value and refuse the nest as before. */
static void stepped_ivs(mp_ctx &c, class loop *l, int lid, tree v, gimple *incr,
			const mp_aff *lo)
{
	basic_block bb = gimple_bb(incr);
	/* a value of W's not read: W stays a variable (the nest is refused
	   where that matters), not a failure of the nest */
	auto keep_variable = [&c]() {
		if (c.failed && !c.n->error[0]) {
			c.failed = false;
			c.fail_text.clear();
		}
	};
	for (gimple_stmt_iterator g = gsi_start_bb(bb); !gsi_end_p(g); gsi_next(&g)) {
		gimple *s = gsi_stmt(g);
		int64_t cw;
		if (s == incr || !is_gimple_assign(s))
			continue;
		tree w = gimple_assign_lhs(s);
		if (w == v || !VAR_P(w) || !is_gimple_reg(w) || !INTEGRAL_TYPE_P(TREE_TYPE(w)) ||
		    TYPE_UNSIGNED(TREE_TYPE(w)) || TYPE_PRECISION(TREE_TYPE(w)) < 32 ||
		    TYPE_PRECISION(TREE_TYPE(w)) > 64 || c.iter_var.count(w) ||
		    c.stepped.count(w))
			continue;
		/* by a constant, or by a variable amount X (OpenBLAS's generic C
		   kernels: `iy += inc_y`), an integer that converts to W's type
		   without loss */
		tree sx = NULL_TREE;
		if (!is_increment(s, w, &cw)) {
			enum tree_code sc = gimple_assign_rhs_code(s);
			tree a = gimple_assign_rhs1(s), b = gimple_assign_rhs2(s);
			if (sc == PLUS_EXPR && b == w)
				std::swap(a, b);
			if ((sc != PLUS_EXPR && sc != MINUS_EXPR) || a != w || !b ||
			    TREE_CODE(b) == INTEGER_CST || !INTEGRAL_TYPE_P(TREE_TYPE(b)) ||
			    TYPE_PRECISION(TREE_TYPE(b)) > TYPE_PRECISION(TREE_TYPE(w)) ||
			    (TYPE_UNSIGNED(TREE_TYPE(b)) &&
			     TYPE_PRECISION(TREE_TYPE(b)) == TYPE_PRECISION(TREE_TYPE(w))) || b == w)
				continue;
			sx = b;
			cw = sc == PLUS_EXPR ? 1 : -1;
		}
		if (cw == 0)
			continue;
		std::vector<gimple *> as = assigns_in(l, w);
		if (as.size() != 1 || as[0] != s || !increments_last(l, s, w))
			continue;
		basic_block ibb;
		gimple *wi = init_before(l, w, &ibb);
		auto d = c.defs.find(w);
		/* set in the nest, or before it for its outermost loop (as the
		   iterator's own initial value; without one found there, W's
		   value where the nest starts) */
		if (d == c.defs.end())
			continue;
		std::vector<gimple *> &ds = d->second;
		bool top_init = l == c.top && ds.size() == 1 && ds[0] == s &&
				(!wi || !c.in_nest(gimple_bb(wi)));
		if (!top_init && (!wi || gimple_bb(wi)->loop_father != loop_outer(l)))
			continue;
		if (!(ds.size() == 2 && (ds[0] == wi || ds[1] == wi) && (ds[0] == s || ds[1] == s)) &&
		    !top_init)
			continue;
		mp_aff a0, lo2, t;
		mp_aff_const(&lo2, 0);
		if (!wi || !c.aff_of_def(wi, &a0, 0) || init_clobbered(c, wi, &a0, &lo2)) {
			keep_variable();
			/* set before the nest to a value not read as affine
			   (GSL's `INDEX iy = OFFSET(lenY, incY);`, a `?:`):
			   W's value where the nest starts, a parameter */
			int pv = top_init && !c.failed ? c.var_for(w, MP_VAR_PARAM) : -1;
			if (pv < 0)
				continue;
			mp_aff_var(&a0, pv);
		}
		/* W0 naming V (`for (o = 1, i = o - P; ...)`): o there is LO,
		   not the running iterator (a review found i taken as 2V - LO -
		   P); not stepped, as before */
		bool reads_v = false;
		for (int q = 0; q < a0.n; q++)
			for (int x : { a0.t[q].v1, a0.t[q].v2 })
				reads_v |= x >= 0 && x < (int)c.var_tree.size() && c.var_tree[x] == v;
		if (reads_v) {
			std::string wn = decl_name(w);   /* (decl_name's buffer is shared) */
			c.fail(gimple_location(wi) != UNKNOWN_LOCATION ? gimple_location(wi)
			       : c.loop_loc, "the initial value of '%s', stepped beside loop "
			       "'%s', reads '%s'", wn.c_str(), decl_name(v), decl_name(v));
			return;
		}
		/* the step: C, or C times X, a value the nest does not change
		   (parameters only: no iterator of the nest) */
		mp_aff st, lneg;
		mp_aff_const(&st, cw);
		int its[2 * MP_MAX_TERMS];
		if (sx && (!c.aff_of(sx, s, &st, 0) || mp_aff_scale(&st, &st, cw) != 0 ||
			   mp_aff_iters(c.n, &st, its) != 0)) {
			keep_variable();
			continue;
		}
		/* W0 + ST*(V - LO) */
		mp_aff_var(&t, c.n->loop[lid].iter);
		if (mp_aff_scale(&lneg, lo, -1) != 0 || mp_aff_add(&t, &t, &lneg) != 0 ||
		    mp_aff_mul(c.n, &t, &t, &st) != 0 || mp_aff_add(&a0, &a0, &t) != 0)
			continue;
		c.stepped[w] = { l, s, a0 };
		if (wi)
			c.control.insert(wi);
		c.control.insert(s);
	}
}

/* Local T holds 0 or 1 at AT, set by `T = 1;` in one block and `T = 0;`
 * in others of the same iteration of AT's loop, exclusive, one of them
 * passed on every way to AT (GCC's gimplification of `inside = a && b`):
 * T != 0 exactly where the `T = 1` block runs (guard_of).  NEG: T == 0,
 * set by `T = 0;` in one block and constants other than 0 in the others
 * (`out = a || b`, `out = ii < 0 ? 1 : ii >= N`, before `if (out)
 * continue;`), exactly where that block runs. */
static bool flag_conds(mp_ctx &c, tree t, bool neg, gimple *at, unsigned *set)
{
	auto it = c.defs.find(t);
	if (it == c.defs.end() || it->second.size() < 2)
		return false;
	basic_block one = NULL, ub = gimple_bb(at);
	class loop *l = ub->loop_father;
	std::vector<basic_block> zeros;   /* (the other value's blocks) */
	for (gimple *d : it->second) {
		if (!is_gimple_assign(d) || !gimple_assign_single_p(d) ||
		    TREE_CODE(gimple_assign_rhs1(d)) != INTEGER_CST ||
		    gimple_bb(d)->loop_father != l || gimple_bb(d) == ub)
			return false;
		if (integer_zerop(gimple_assign_rhs1(d)) != neg)
			zeros.push_back(gimple_bb(d));
		else if (one)
			return false;
		else
			one = gimple_bb(d);
	}
	if (!one || !arms_cover(l, ub, one, zeros))
		return false;
	return guard_of(c, one, l, set) && *set;
}

static bool describe_loop(mp_ctx &c, class loop *l, int parent)
{
	location_t lloc = UNKNOWN_LOCATION;
	gimple *last = last_stmt(l->header);
	gcond *cond = last ? dyn_cast<gcond *>(last) : NULL;
	if (cond)
		lloc = gimple_location(cond);
	if (lloc == UNKNOWN_LOCATION)
		lloc = c.loop_loc;
	/* an OpenMP directive inside the nest (not yet expanded when the
	   pass runs: its GIMPLE_OMP_* statements; the annotated loop's own
	   directive is handled on a plain copy, omp.cc) */
	bool omp_inside = false;
	if (parent < 0) {
		basic_block *body = get_loop_body(l);
		for (unsigned b = 0; b < l->num_nodes && !omp_inside; b++)
			for (gimple_stmt_iterator g = gsi_start_bb(body[b]); !gsi_end_p(g);
			     gsi_next(&g))
				if (is_gimple_omp(gsi_stmt(g))) {
					omp_inside = true;
					lloc = gimple_location(gsi_stmt(g)) != UNKNOWN_LOCATION
					       ? gimple_location(gsi_stmt(g)) : lloc;
					break;
				}
		free(body);
	}
	if (omp_inside) {
		c.fail(lloc, "the nest holds an OpenMP directive (on an inner loop: mixprec "
		       "replaces whole nests under an OpenMP loop directive; put '#pragma mixprec' "
		       "on the loop that carries it, or remove it)");
		return false;
	}
	if (!cond) {
		c.fail(lloc, "a loop of the nest has no exit condition");
		return false;
	}
	/* an inner loop must run on every iteration of its parent: one under
	   an if (its header does not dominate the parent's latch) is not a
	   loop of a rectangular nest, and the description has no place for
	   its condition */
	unsigned lconds = 0;
	int zv = -1;   /* `if (t != 0)` around the loop (guard_of) */
	std::string zsrc;   /* `if (b[...] != 0)`: the element */
	if (parent >= 0 && (!c.loops[parent]->latch ||
			    !dominated_by_p(CDI_DOMINATORS, c.loops[parent]->latch, l->header))) {
		/* a window loop after `if (...) continue;`, or under an `if`:
		   its condition, for the core to take as padding */
		/* or a zero-skip guard alone (zv, for the core to check) */
		if (!guard_of(c, l->header, c.loops[parent], &lconds, &zv, &zsrc) ||
		    (zv >= 0 ? lconds != 0 : !lconds)) {
			c.fail(lloc, "a loop of the nest runs under a condition");
			return false;
		}
	}
	/* a loop pragma (#pragma GCC ivdep / unroll) leaves its annotation as
	   "_1 = v < n; T = _1; if (T != 0)" in the header (T an artificial
	   temporary): look through it to the comparison, which is then the
	   exit test; the two assignments are loop control, not statements */
	gimple *annot[2] = { NULL, NULL };
	tree clhs = gimple_cond_lhs(cond), crhs = gimple_cond_rhs(cond);
	enum tree_code ccode = gimple_cond_code(cond);
	if (ccode == NE_EXPR && integer_zerop(crhs) && VAR_P(clhs) && DECL_ARTIFICIAL(clhs)) {
		for (gimple_stmt_iterator g = gsi_start_bb(l->header); !gsi_end_p(g); gsi_next(&g)) {
			gimple *s = gsi_stmt(g);
			if (is_gimple_assign(s) && gimple_assign_lhs(s) == clhs &&
			    gimple_assign_single_p(s) && TREE_CODE(gimple_assign_rhs1(s)) == SSA_NAME)
				annot[0] = s;
		}
		gimple *cmp = annot[0] ? SSA_NAME_DEF_STMT(gimple_assign_rhs1(annot[0])) : NULL;
		if (cmp && is_gimple_assign(cmp) && gimple_bb(cmp) == l->header &&
		    TREE_CODE_CLASS(gimple_assign_rhs_code(cmp)) == tcc_comparison) {
			annot[1] = cmp;
			ccode = gimple_assign_rhs_code(cmp);
			clhs = gimple_assign_rhs1(cmp);
			crhs = gimple_assign_rhs2(cmp);
		} else {
			annot[0] = NULL;
		}
	}
	gimple *hdr_step = NULL;
	for (gimple_stmt_iterator g = gsi_start_bb(l->header); !gsi_end_p(g); gsi_next(&g)) {
		gimple *s = gsi_stmt(g);
		if (s == cond || s == annot[0] || is_gimple_debug(s) ||
		    gimple_code(s) == GIMPLE_LABEL)
			continue;
		/* a compiler temporary that is not an SSA name: OpenMP lowering
		   gimplifies a region's body again without SSA names, so
		   `i < (size_t)M` there is `D.1 = (long unsigned) M; if (D.1 >
		   i)`, `i < (unsigned)M` `M.5 = (unsigned) M; if (i < M.5)`
		   (not a step of the counter) */
		if (is_gimple_assign(s) && is_reg_decl_p(gimple_assign_lhs(s)) &&
		    DECL_ARTIFICIAL(gimple_assign_lhs(s)) && DECL_IGNORED_P(gimple_assign_lhs(s)))
			continue;
		if (!is_gimple_assign(s) || TREE_CODE(gimple_assign_lhs(s)) != SSA_NAME) {
			/* `while (n--)` steps its counter in the test: the header's
			   one assignment to a user variable is then the step */
			if (is_gimple_assign(s) && is_reg_decl_p(gimple_assign_lhs(s)) && !hdr_step) {
				hdr_step = s;
				continue;
			}
			c.fail(lloc, "a loop of the nest is not a counted 'for' loop (do/while "
			       "loops and exit tests with side effects are not supported)");
			return false;
		}
	}
	auto_vec<edge> exits = get_loop_exit_edges(l);
	if (exits.length() == 1 && exits[0]->src != l->header) {
		/* one exit, after a branch in the loop: `i < (t ? M : M / 2)`
		   (clang's glue takes such a bound, of values the nest does not
		   write, as a parameter) */
		c.fail(lloc, "the exit test of a loop of the nest comes after a branch (a "
		       "conditional expression '?:' in its condition): compute the bound into "
		       "a variable before the loop");
		return false;
	}
	if (exits.length() != 1) {
		c.fail(lloc, "a loop of the nest has more than one exit (break, return or goto)");
		return false;
	}
	edge ex = exits[0];
	enum tree_code code = ccode;
	if (ex->flags & EDGE_TRUE_VALUE)
		code = invert_tree_comparison(code, false);
	tree lhs = clhs, rhs = crhs;
	int64_t cmp_off = 0;   /* the test compares v + cmp_off (`i + 1 < M`) */
	tree v = iv_decl_off(lhs, l->header, &cmp_off);
	int64_t step = 0;
	int step_var = -1;   /* `v += GS`: the PARAM (var_increment) */
	gimple *incr = NULL;
	for (int pass = 0; pass < 2; pass++) {
		if (pass == 1) {
			v = iv_decl_off(rhs, l->header, &cmp_off);
			std::swap(lhs, rhs);
			code = swap_tree_comparison(code);
		}
		if (!v)
			continue;
		std::vector<gimple *> as = assigns_in(l, v);
		if (as.size() == 1 && as[0] == hdr_step && is_increment(as[0], v, &step)) {
			incr = as[0];
			break;
		}
		if (as.size() == 1 && as[0] != hdr_step && hdr_step == NULL &&
		    (is_increment(as[0], v, &step) || var_increment(c, as[0], v, &step_var))) {
			if (step_var >= 0)
				step = 1;
			if (!increments_last(l, as[0], v)) {
				c.fail(gimple_location(as[0]) != UNKNOWN_LOCATION
				       ? gimple_location(as[0]) : lloc,
				       "loop variable '%s' is stepped before the end of the loop "
				       "body; step it last", decl_name(v));
				return false;
			}
			incr = as[0];
			break;
		}
		v = NULL_TREE;
	}
	if (!v || !incr) {
		/* an iterator in memory (global or address taken): the test reads
		   it through a load in the header */
		for (tree op : { lhs, rhs }) {
			gimple *d = TREE_CODE(op) == SSA_NAME ? SSA_NAME_DEF_STMT(op) : NULL;
			tree m = d && gimple_bb(d) == l->header && gimple_assign_load_p(d)
				 ? gimple_assign_rhs1(d) : NULL_TREE;
			if (m && (VAR_P(m) || TREE_CODE(m) == PARM_DECL) && !is_gimple_reg(m) &&
			    INTEGRAL_TYPE_P(TREE_TYPE(m)) && !assigns_in(l, m).empty()) {
				c.fail(lloc, MP_MSG_ITER_IN_MEMORY, decl_name(m));
				return false;
			}
		}
		c.fail(lloc, "cannot find the induction variable of a loop of the nest "
		       "(expected 'for (v = lo; v < hi; v++)')");
		return false;
	}
	if (!INTEGRAL_TYPE_P(TREE_TYPE(v))) {
		c.fail(lloc, "the induction variable '%s' is not an integer", decl_name(v));
		return false;
	}
	/* the initial value: last assignment before the entry edge */
	basic_block ibb;
	gimple *init = init_before(l, v, &ibb);
	/* `for (; k < K; k++)` straight after the exit of a sibling loop: it
	   continues that loop's iterator (the remainder of an unrolled
	   reduction; mp_build_nest checks the sibling steps v) */
	class loop *after = NULL;
	if (!init && parent >= 0 && ibb && ibb->loop_father && ibb->loop_father != l &&
	    ibb->loop_father->header == ibb && loop_outer(ibb->loop_father) == loop_outer(l))
		after = ibb->loop_father;
	if (!init && !after) {
		c.fail(lloc, "cannot find the initial value of '%s'", decl_name(v));
		return false;
	}
	/* stepped in the header, before the test (`while (v--)`, `while
	   (--v)`): the body sees init + step first; a test of the copy made
	   before the step (v--) compares v - step */
	bool hdr = incr == hdr_step;
	bool test_before = hdr && TREE_CODE(lhs) == SSA_NAME && copy_of(lhs, incr) == v;
	int id = (int)c.loops.size();
	int iv = c.var_for(v, MP_VAR_ITER);
	if (iv < 0)
		return false;
	/* read before its loop (`acc = k; for (k = 0; ...)`): the statements
	   described so far took it for a local; it is this loop's iterator */
	if (c.n->var[iv].kind == MP_VAR_LOCAL)
		c.n->var[iv].kind = MP_VAR_ITER;
	/* the iterator of a sibling loop before this one (`int j;` reused):
	   a variable of its own, read from here on */
	else if (c.n->var[iv].kind == MP_VAR_ITER && c.n->var[iv].loop >= 0) {
		int first = c.n->var[iv].same_as >= 0 ? c.n->var[iv].same_as : iv;
		if ((iv = c.var_for(v, MP_VAR_ITER, true)) < 0)
			return false;
		c.n->var[iv].same_as = first;
	}
	c.iter_var[v] = iv;
	c.n->var[iv].loop = id;
	mp_aff lo, hi, one, lo2, hi2;
	unsigned clip = 0;
	bool mx;
	mp_aff_const(&lo2, 0);
	mp_aff_const(&hi2, 0);
	if (after)
		mp_aff_const(&lo, 0);   /* continues `after`: no value of its own */
	else if (!c.aff_of_def(init, &lo, 0)) {
		/* a window's start, `MAX(0, -base)` (the core rewrites it) */
		if (step > 0 && !hdr && c.minmax_of_def(init, &lo, &lo2, &mx, 0) && mx) {
			clip |= 1;
		} else {
			c.fail(lloc, "the initial value of '%s' is not affine", decl_name(v));
			return false;
		}
	}
	if (!after)
		if (tree w = init_clobbered(c, init, &lo, &lo2)) {
			location_t at = gimple_location(init) != UNKNOWN_LOCATION
					? gimple_location(init) : lloc;
			std::string vn = decl_name(v);   /* (decl_name's buffer is shared) */
			if (DECL_P(w) && DECL_NAME(w) && !DECL_ARTIFICIAL(w))
				c.fail(at, "the initial value of '%s' reads '%s', which is assigned "
				       "after it and before the loop (the call at the loop would read "
				       "the new value); set '%s' right before the loop", vn.c_str(),
				       decl_name(w), vn.c_str());
			else
				c.fail(at, "the initial value of '%s' reads a value that may change "
				       "after it and before the loop (the call at the loop would read "
				       "the new value); set '%s' right before the loop", vn.c_str(),
				       vn.c_str());
			return false;
		}
	if (hdr)
		lo.cst += step;
	if (TREE_CODE(rhs) == INTEGER_CST && TYPE_UNSIGNED(TREE_TYPE(rhs)) &&
	    mp_int_cst(rhs) < 0) {
		c.fail(lloc, "the bound of loop '%s' does not fit a signed integer", decl_name(v));
		return false;
	}
	if (c.aff_of(rhs, annot[1] ? annot[1] : cond, &hi, 0))
		;
	else if (step > 0 && !hdr && (code == LT_EXPR || code == LE_EXPR) &&
		 c.minmax_of(rhs, annot[1] ? annot[1] : cond, &hi, &hi2, &mx, 0) && !mx)
		clip |= 2;   /* a window's end, `MIN(K, W - base)` */
	else {
		/* a bound read from memory (a struct member, an array element):
		   say so, and how to get the nest transformed */
		gimple *d = TREE_CODE(rhs) == SSA_NAME ? SSA_NAME_DEF_STMT(rhs) : NULL;
		while (d && is_gimple_assign(d) && CONVERT_EXPR_CODE_P(gimple_assign_rhs_code(d)) &&
		       TREE_CODE(gimple_assign_rhs1(d)) == SSA_NAME)
			d = SSA_NAME_DEF_STMT(gimple_assign_rhs1(d));
		if (d && is_gimple_assign(d) && gimple_assign_load_p(d) && !c.opaque_call.empty())
			c.fail(lloc, MP_MSG_BOUND_MEMORY_CALL, decl_name(v), c.opaque_call.c_str());
		else if (d && is_gimple_assign(d) && gimple_assign_load_p(d))
			c.fail(lloc, MP_MSG_BOUND_MEMORY, decl_name(v));
		else
			c.fail(lloc, "the bound of loop '%s' is not affine in the parameters and "
			       "outer loop variables", decl_name(v));
		return false;
	}
	if (test_before)
		hi.cst += step;   /* t op n  <=>  v op n + step */
	hi.cst -= cmp_off;        /* v + c op n  <=>  v op n - c */
	hi2.cst -= cmp_off;
	/* GCC's form of `for (unsigned j = 0; j < 1; j++)`: `j == 0`, one
	   iteration when the counter starts at the bound, whatever the step
	   (`k < 1; k += 2`: fuzz seed 1205752, which clang transformed) */
	int64_t c0, c1;
	if (code == EQ_EXPR && step != 0 && mp_aff_is_const(&lo, &c0) &&
	    mp_aff_is_const(&hi, &c1) && c0 == c1)
		code = step > 0 ? LE_EXPR : GE_EXPR;
	bool ne = false;
	if (code == NE_EXPR && (step == 1 || step == -1)) {
		/* `v != n` ends where `v < n` (counting up) or `v > n` (down)
		   does when v starts on the right side of n (the core decides
		   whether that is known); against the type's maximum (GCC's form
		   of `v < INT_MAX`) or minimum it always does */
		tree ext = step > 0 ? TYPE_MAX_VALUE(TREE_TYPE(v)) : TYPE_MIN_VALUE(TREE_TYPE(v));
		ne = !(TREE_CODE(rhs) == INTEGER_CST && ext && tree_int_cst_equal(rhs, ext));
		code = step > 0 ? LT_EXPR : GT_EXPR;
	}
	switch (code) {
	case LT_EXPR: case GT_EXPR:
		/* the last value is the bound -1 (up) or +1 (down) */
		mp_aff_const(&one, code == LT_EXPR ? -1 : 1);
		mp_aff_add(&hi, &hi, &one);
		if (clip & 2)
			mp_aff_add(&hi2, &hi2, &one);
		break;
	case LE_EXPR: case GE_EXPR:
		break;
	default:
		c.fail(lloc, "the exit test of loop '%s' must be <, <=, >, >= or !=", decl_name(v));
		return false;
	}
	if ((code == GT_EXPR || code == GE_EXPR) != (step < 0)) {
		c.fail(lloc, "loop '%s' has an unusual exit test", decl_name(v));
		return false;
	}
	if (step < 0) {
		/* counting down from lo to the bound: described as the range
		   [bound, first value] with a negative step */
		std::swap(lo, hi);
	}
	if (step_var >= 0 && (hdr || ne || (code != LT_EXPR && code != LE_EXPR))) {
		c.fail(lloc, "loop '%s' steps by a variable; only `v < n` or `v <= n` tests "
		       "are understood then", decl_name(v));
		return false;
	}
	int lid = mp_nest_add_loop(c.n, iv, parent, 0, &lo, &hi, step);
	if (lid < 0) {
		c.fail(lloc, "the nest is too deep");
		return false;
	}
	c.n->loop[lid].loc = mp_loc_cookie(lloc);
	c.n->loop[lid].ne_exit = ne;
	c.n->loop[lid].conds = lconds;
	c.n->loop[lid].zguard = zv;
	snprintf(c.n->loop[lid].zguard_src, sizeof c.n->loop[lid].zguard_src, "%s", zsrc.c_str());
	c.n->loop[lid].step_var = step_var;
	c.n->loop[lid].clip = clip;
	if (clip & 1)
		c.n->loop[lid].lo2 = lo2;
	if (clip & 2)
		c.n->loop[lid].hi2 = hi2;
	if (after)
		c.after_pending.push_back({ lid, after });
	c.loops.push_back(l);
	c.loop_init.push_back(init);
	c.loop_incr.push_back(incr);
	c.loop_iter.push_back(v);
	c.control.insert(cond);
	c.control.insert(incr);
	if (init)
		c.control.insert(init);
	if (step == 1 && !hdr && !after && step_var < 0 && !clip) {
		stepped_ivs(c, l, lid, v, incr, &lo);
		if (c.failed)
			return false;
	}
	for (gimple *a : annot)
		if (a)
			c.control.insert(a);
	for (class loop *s = l->inner; s; s = s->next)
		if (!describe_loop(c, s, lid))
			return false;
	return true;
}

/* ------------------------------------------------------- statements */

static int loop_id(mp_ctx &c, class loop *l)
{
	for (size_t i = 0; i < c.loops.size(); i++)
		if (c.loops[i] == l)
			return (int)i;
	return -1;
}

static int new_stmt(mp_ctx &c, mp_stmt_kind k, int lid, bool guarded, gimple *g)
{
	mp_stmt s;
	memset(&s, 0, sizeof s);
	s.kind = k;
	s.loop = lid;
	s.guarded = guarded;
	s.lhs_var = s.lhs_access = s.rhs = -1;
	location_t l = gimple_location(g);
	s.loc = mp_loc_cookie(l != UNKNOWN_LOCATION ? l : c.loop_loc);
	int id = mp_nest_add_stmt(c.n, &s);
	if (id < 0) {
		c.fail(c.loop_loc, "the nest has too many statements");
		return -1;
	}
	if ((int)c.stmt_g.size() <= id)
		c.stmt_g.resize(id + 1);
	c.stmt_g[id] = g;
	return id;
}

static void opaque(mp_ctx &c, int lid, bool guarded, gimple *g, const char *fmt, ...)
{
	int id = new_stmt(c, MP_S_OPAQUE, lid, guarded, g);
	if (id < 0)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c.n->stmt[id].why, sizeof c.n->stmt[id].why, fmt, ap);
	va_end(ap);
	c.has_opaque = true;
}

/* The variable-length array declared at LOC's line in the scopes under
 * BLOCK (its storage is the alloca there), or null. */
static tree vla_at(tree block, location_t loc)
{
	if (!block || TREE_CODE(block) != BLOCK)
		return NULL_TREE;
	int line = LOCATION_LINE(loc);
	for (tree v = BLOCK_VARS(block); v; v = DECL_CHAIN(v))
		if (VAR_P(v) && DECL_HAS_VALUE_EXPR_P(v) && variably_modified_type_p(TREE_TYPE(v), NULL_TREE) &&
		    LOCATION_LINE(DECL_SOURCE_LOCATION(v)) == line)
			return v;
	for (tree b = BLOCK_SUBBLOCKS(block); b; b = BLOCK_CHAIN(b))
		if (tree v = vla_at(b, loc))
			return v;
	return NULL_TREE;
}

static void describe_stmt(mp_ctx &c, gimple *g, int lid, bool guarded)
{
	int id;
	if (is_gimple_debug(g) || c.control.count(g))
		return;
	c.cur_stmt = g;
	switch (gimple_code(g)) {
	case GIMPLE_LABEL: case GIMPLE_NOP: case GIMPLE_PREDICT: case GIMPLE_COND:
	case GIMPLE_SWITCH:
		return;
	case GIMPLE_ASSIGN: {
		tree lhs = gimple_assign_lhs(g);
		if (TREE_CODE(lhs) == SSA_NAME)
			return;
		if (is_reg_decl_p(lhs)) {
			if (c.iter_var.count(lhs)) {
				opaque(c, lid, guarded, g, "loop variable '%s' is assigned in the loop body",
				       decl_name(lhs));
				return;
			}
			if (DECL_ARTIFICIAL(lhs) && c.inlined_temp(g))
				return;
			id = new_stmt(c, MP_S_ASSIGN, lid, guarded, g);
			if (id < 0) return;
			c.n->stmt[id].lhs_var = c.var_for(lhs, MP_VAR_LOCAL);
			if (c.walking(lhs, g)) {
				/* p = q + off, p = p + step: a pointer assignment (an
				   unknown value leaves ptr_array -1) */
				mp_stmt &st = c.n->stmt[id];
				st.ptr_assign = 1;
				if (!c.ptr_of_def(g, &st.ptr_array, &st.ptr_off, 0))
					st.ptr_array = -1;
				if (c.failed && !c.n->error[0]) {
					/* not following the pointer is not a failure
					   (the core refuses what depends on it) */
					c.failed = false;
					c.fail_text.clear();
				}
				return;
			}
			c.n->stmt[id].rhs = c.def_expr(g, id, 0);
			return;
		}
		id = new_stmt(c, MP_S_STORE, lid, guarded, g);
		if (id < 0) return;
		{
			int a = c.access_for(lhs, g, true, id);
			if (a == -2) {
				c.n->stmt[id].kind = MP_S_OPAQUE;
				snprintf(c.n->stmt[id].why, sizeof c.n->stmt[id].why,
					 "a store through an unknown address");
				c.has_opaque = true;
				return;
			}
			c.n->stmt[id].lhs_access = a;
		}
		c.n->stmt[id].rhs = c.def_expr(g, id, 0);
		return;
	}
	case GIMPLE_CALL: {
		gcall *call = as_a<gcall *>(g);
		int mid;
		if (stmt_is_marker(g, &mid)) {
			opaque(c, lid, guarded, g, "it contains another '#pragma mixprec' nest");
			return;
		}
		/* a variable-length array declared in the nest: the stack saved
		   and restored around the block, the array an alloca (named as
		   the clang glue names it, from its pointer `r.1`) */
		if (gimple_call_builtin_p(g, BUILT_IN_STACK_SAVE) ||
		    gimple_call_builtin_p(g, BUILT_IN_STACK_RESTORE))
			return;
		if (gimple_call_builtin_p(g, BUILT_IN_ALLOCA_WITH_ALIGN) ||
		    gimple_call_builtin_p(g, BUILT_IN_ALLOCA_WITH_ALIGN_AND_MAX)) {
			tree v = vla_at(DECL_INITIAL(current_function_decl), gimple_location(g));
			std::string nm = v && DECL_NAME(v) ? std::string("'") + IDENTIFIER_POINTER(DECL_NAME(v)) + "'"
							  : std::string("an array");
			opaque(c, lid, guarded, g,
			       "%s is a variable-length array declared inside the nest (give it a "
			       "constant size)", nm.c_str());
			return;
		}
		if (!mp_harmless_call(call)) {
			opaque(c, lid, guarded, g, MP_MSG_CALL_EFFECTS, mp_callee_name(call));
			return;
		}
		tree lhs = gimple_call_lhs(call);
		if (!lhs || TREE_CODE(lhs) == SSA_NAME)
			return;
		if (is_reg_decl_p(lhs)) {
			if (DECL_ARTIFICIAL(lhs) && c.inlined_temp(g))
				return;
			id = new_stmt(c, MP_S_ASSIGN, lid, guarded, g);
			if (id < 0) return;
			c.n->stmt[id].lhs_var = c.var_for(lhs, MP_VAR_LOCAL);
		} else {
			id = new_stmt(c, MP_S_STORE, lid, guarded, g);
			if (id < 0) return;
			c.n->stmt[id].lhs_access = c.access_for(lhs, g, true, id);
		}
		c.n->stmt[id].rhs = c.def_expr(g, id, 0);
		return;
	}
	case GIMPLE_ASM:
		opaque(c, lid, guarded, g, "inline assembly");
		return;
	case GIMPLE_RETURN:
		opaque(c, lid, guarded, g, "a return statement");
		return;
	default:
		opaque(c, lid, guarded, g, "a '%s' statement", gimple_code_name[gimple_code(g)]);
		return;
	}
}

/* Walk callback collecting the reads of artificial decls. */
/* HARD: a `register ... asm("reg")` variable seen, if any */
struct use_data { mp_ctx *c; gimple *g; tree *hard; };
static tree collect_uses_r(tree *tp, int *walk_subtrees, void *data)
{
	use_data *u = (use_data *)data;
	if (TYPE_P(*tp)) {
		*walk_subtrees = 0;
		return NULL_TREE;
	}
	if (VAR_P(*tp) && DECL_HARD_REGISTER(*tp))
		*u->hard = *tp;
	if (is_reg_decl_p(*tp) && DECL_ARTIFICIAL(*tp))
		u->c->uses[*tp].push_back(u->g);
	return NULL_TREE;
}

/* The iterators of the loops around the nest (for the core's hint that
 * the pragma could stand on one of them). */
static void find_outer_iters(mp_ctx &c)
{
	for (class loop *l = loop_outer(c.top); l && loop_outer(l); l = loop_outer(l)) {
		gimple *last = last_stmt(l->header);
		gcond *cond = last ? dyn_cast<gcond *>(last) : NULL;
		if (!cond)
			continue;
		for (tree op : { gimple_cond_lhs(cond), gimple_cond_rhs(cond) }) {
			tree v = iv_decl_of(op, l->header);
			int64_t step;
			std::vector<gimple *> as = v ? assigns_in(l, v) : std::vector<gimple *>();
			if (v && as.size() == 1 && is_increment(as[0], v, &step))
				c.outer_iters.insert(v);
		}
	}
}

/* The loops the core folded into the loop before them (mp_reroll) leave
 * the glue's loop list as they left the description (decreasing ids keep
 * the others' positions right); the rewrite skips them on the fast path. */
static void absorb_loops(mp_ctx &c)
{
	std::vector<int> ids(c.n->absorbed, c.n->absorbed + c.n->nabsorbed);
	std::sort(ids.rbegin(), ids.rend());
	for (int id : ids) {
		if (id < 0 || id >= (int)c.loops.size())
			continue;
		c.absorbed.push_back(c.loops[id]);
		c.loops.erase(c.loops.begin() + id);
		c.loop_init.erase(c.loop_init.begin() + id);
		c.loop_incr.erase(c.loop_incr.begin() + id);
		c.loop_iter.erase(c.loop_iter.begin() + id);
	}
}

bool mp_build_nest(mp_ctx &c)
{
	find_outer_iters(c);
	function *fn = c.fn;
	c.bb_in.assign(last_basic_block_for_fn(fn), 0);
	basic_block *body = get_loop_body(c.top);
	unsigned nb = c.top->num_nodes;
	for (unsigned i = 0; i < nb; i++)
		c.bb_in[body[i]->index] = 1;

	/* statement order inside blocks, definitions and uses */
	tree hard = NULL_TREE;
	for (unsigned i = 0; i < nb; i++) {
		unsigned uid = 0;
		for (gimple_stmt_iterator g = gsi_start_bb(body[i]); !gsi_end_p(g); gsi_next(&g)) {
			gimple *s = gsi_stmt(g);
			gimple_set_uid(s, ++uid);
			if (is_gimple_assign(s) || is_gimple_call(s)) {
				tree lhs = gimple_get_lhs(s);
				if (lhs && is_reg_decl_p(lhs))
					c.defs[lhs].push_back(s);
				else if (lhs && DECL_P(lhs))
					c.stored_decls.insert(lhs);
			}
			use_data u = { &c, s, &hard };
			unsigned first = 0;
			if ((is_gimple_assign(s) || is_gimple_call(s)) && gimple_get_lhs(s) &&
			    is_reg_decl_p(gimple_get_lhs(s)))
				first = 1;
			for (unsigned k = first; k < gimple_num_ops(s); k++) {
				tree op = gimple_op(s, k);
				if (op)
					walk_tree_without_duplicates(&op, collect_uses_r, &u);
			}
		}
	}

	/* `register T x asm("reg")` anywhere in the nest (the walk above
	   saw it): not a GIMPLE register, no address either (the rewrite
	   would take it: an ICE in expand_expr_addr_expr_1, found by a
	   review helper) */
	if (hard) {
		c.fail(c.loop_loc, "'%s' is a hardware register variable (asm(\"...\")); "
		       "mixprec cannot read it as the nest's value",
		       DECL_NAME(hard) ? IDENTIFIER_POINTER(DECL_NAME(hard)) : "?");
		free(body);
		return false;
	}

	/* has_opaque must be known before any value is translated */
	for (unsigned i = 0; i < nb; i++)
		for (gimple_stmt_iterator g = gsi_start_bb(body[i]); !gsi_end_p(g); gsi_next(&g)) {
			gimple *s = gsi_stmt(g);
			if (gimple_code(s) == GIMPLE_ASM ||
			    (is_gimple_call(s) && !mp_harmless_call(as_a<gcall *>(s)))) {
				if (!c.has_opaque && is_gimple_call(s))
					c.opaque_call = mp_callee_name(as_a<gcall *>(s));
				c.has_opaque = true;
			}
		}

	/* loops, outermost first */
	if (!describe_loop(c, c.top, -1)) {
		free(body);
		return false;
	}
	/* loops continuing a sibling's iterator (siblings are not described
	   in source order): the sibling must be a loop of the nest on v */
	for (auto &pa : c.after_pending) {
		int sib = loop_id(c, pa.second);
		if (sib < 0 || c.loop_iter[sib] != c.loop_iter[pa.first]) {
			c.fail(mp_loc_of(c.n->loop[pa.first].loc), "cannot find the initial value of '%s'",
			       decl_name(c.loop_iter[pa.first]));
			free(body);
			return false;
		}
		c.n->loop[pa.first].after = sib;
	}

	/* statements, in reverse post-order (source order for C loops) */
	int *rpo = XNEWVEC(int, n_basic_blocks_for_fn(fn));
	int nr = pre_and_rev_post_order_compute(NULL, rpo, false);
	std::vector<int> rpo_pos(last_basic_block_for_fn(fn), 0);
	for (int i = 0; i < nr; i++)
		rpo_pos[rpo[i]] = i;
	free(rpo);
	std::vector<basic_block> order(body, body + nb);
	std::sort(order.begin(), order.end(), [&](basic_block a, basic_block b) {
		return rpo_pos[a->index] < rpo_pos[b->index];
	});
	free(body);


	std::vector<std::pair<long, int>> keys_stmt;   /* (key, stmt id) */
	for (basic_block bb : order) {
		int lid = loop_id(c, bb->loop_father);
		if (lid < 0) {
			c.fail(c.loop_loc, "unexpected control flow in the nest");
			return false;
		}
		class loop *l = bb->loop_father;
		bool guarded = !l->latch || !dominated_by_p(CDI_DOMINATORS, l->latch, bb);
		unsigned conds = 0;
		if (guarded && !guard_of(c, bb, l, &conds))
			conds = 0;
		for (gimple_stmt_iterator g = gsi_start_bb(bb); !gsi_end_p(g); gsi_next(&g)) {
			int before = c.n->nstmts;
			/* (the local set from an element under its zero-skip
			   guard: zero_guard) */
			describe_stmt(c, gsi_stmt(g), lid,
				      guarded && !std::count(c.zguard_defs.begin(), c.zguard_defs.end(),
							     gsi_stmt(g)));
			if (c.failed)
				return false;
			for (int s = before; s < c.n->nstmts; s++)
				if (c.n->stmt[s].guarded)
					c.n->stmt[s].conds = conds;
			for (int s = before; s < c.n->nstmts; s++)
				keys_stmt.push_back({ (long)rpo_pos[bb->index] * 100000 + gimple_uid(gsi_stmt(g)), s });
		}
	}
	/* positions among the children of each loop */
	for (int p = -1; p < (int)c.loops.size(); p++) {
		std::vector<std::pair<long, std::pair<int, int>>> kids;  /* key, (0 loop|1 stmt, id) */
		for (size_t l = 0; l < c.loops.size(); l++)
			if (c.n->loop[l].parent == p && p >= 0)
				kids.push_back({ (long)rpo_pos[c.loops[l]->header->index] * 100000, { 0, (int)l } });
		for (auto &k : keys_stmt)
			if (c.n->stmt[k.second].loop == p)
				kids.push_back({ k.first, { 1, k.second } });
		std::sort(kids.begin(), kids.end());
		for (size_t i = 0; i < kids.size(); i++) {
			if (kids[i].second.first == 0)
				c.n->loop[kids[i].second.second].pos = (int)i;
			else
				c.n->stmt[kids[i].second.second].pos = (int)i;
		}
	}

	/* which iterators and locals are read after the nest (anywhere
	   outside it) */
	std::vector<tree> cand;
	std::vector<int> cand_var;
	for (int v = 0; v < c.n->nvars; v++) {
		/* product variables (mp_aff_mul) have no tree of their own */
		tree t = v < (int)c.var_tree.size() ? c.var_tree[v] : NULL_TREE;
		if (c.n->var[v].kind != MP_VAR_PARAM && !c.n->var[v].used_after && t && DECL_P(t)) {
			cand.push_back(t);
			cand_var.push_back(v);
		}
	}
	/* a variable stepped beside an iterator (stepped_ivs): its value
	   after the nest is not kept */
	for (auto &sv : c.stepped) {
		cand.push_back(sv.first);
		cand_var.push_back(-1);
	}
	std::vector<char> hit(cand.size(), 0);
	reads_data rd = { &cand, &hit, cand.size() };
	basic_block bb;
	FOR_EACH_BB_FN(bb, fn) {
		if (rd.left == 0)
			break;
		if (c.in_nest(bb))
			continue;
		for (gimple_stmt_iterator g = gsi_start_bb(bb); !gsi_end_p(g) && rd.left > 0;
		     gsi_next(&g))
			stmt_reads(gsi_stmt(g), &rd);
	}
	for (size_t i = 0; i < cand.size(); i++)
		if (hit[i] && cand_var[i] < 0) {
			c.fail(c.loop_loc, "'%s' is stepped beside a loop of the nest and read "
			       "after the nest", decl_name(cand[i]));
			return false;
		} else if (hit[i])
			c.n->var[cand_var[i]].used_after = 1;
	/* a variable in memory read only inside a derived value (`k < K /
	   2`, K's address taken): a parameter of its own, in memory, so that
	   the run-time checks protect its bytes as they protect a bound
	   read directly (the nest may write it through a pointer: the
	   kernels would run with its value at entry) */
	if (!c.failed)
		for (tree t : c.protected_decls)
			if (!c.var_of.count(t) && c.var_for(t, MP_VAR_PARAM) < 0)
				return false;
	return !c.failed;
}

/* ------------------------------------------------------------ driver */

/* BB's one successor, not counting the abnormal edges that a function
 * calling setjmp gives every call (to the setjmp receiver), or NULL. */
static basic_block normal_succ(basic_block bb)
{
	basic_block r = NULL;
	edge e;
	edge_iterator ei;
	FOR_EACH_EDGE(e, ei, bb->succs) {
		if (e->flags & EDGE_ABNORMAL)
			continue;
		if (r)
			return NULL;
		r = e->dest;
	}
	return r;
}

/* Whether the statements from G to the end of its block end the search
 * for a pragma's loop: a branch (only straight-line code may sit between
 * pragma and loop) or another pragma's marker (the loop this one annotated
 * was removed as dead code: the next nest is not this pragma's). */
static bool stops_search(gimple_stmt_iterator g)
{
	for (; !gsi_end_p(g); gsi_next(&g)) {
		int mid;
		if (gimple_code(gsi_stmt(g)) == GIMPLE_COND || stmt_is_marker(gsi_stmt(g), &mid))
			return true;
	}
	return false;
}

static class loop *loop_after_marker(gimple *m)
{
	basic_block bb = gimple_bb(m);
	class loop *outer = bb->loop_father;
	/* the rest of the marker's own block too (the next pragma's marker
	   may follow in it) */
	gimple_stmt_iterator g0 = gsi_for_stmt(m);
	gsi_next(&g0);
	if (stops_search(g0))
		return NULL;
	for (int hops = 0; hops < 8; hops++) {
		basic_block s = normal_succ(bb);
		if (!s)
			return NULL;
		if (s->loop_father != outer && s->loop_father->header == s &&
		    loop_outer(s->loop_father) == outer)
			return s->loop_father;
		if (stops_search(gsi_start_bb(s)))
			return NULL;
		bb = s;
	}
	return NULL;
}

static void report(const mp_pragma_rec &r, const char *reason, location_t at,
		   bool is_error = false)
{
	location_t loc = r.loop_loc != UNKNOWN_LOCATION ? r.loop_loc : r.pragma_loc;
	if (is_error) {
		/* the pragma's tokens carry location cookies (plugin.cc) */
		error_at(at != UNKNOWN_LOCATION ? at : r.pragma_loc, "%s", reason);
		return;
	}
	if (dump_enabled_p())
		dump_printf_loc(MSG_MISSED_OPTIMIZATION, dump_user_location_t::from_location_t(loc),
				"mixprec: loop nest not transformed: %s\n", reason);
	if (warning_at(loc, OPT_Wpragmas, "mixprec: loop nest not transformed: %s", reason) &&
	    at != UNKNOWN_LOCATION && LOCATION_LINE(at) != LOCATION_LINE(loc))
		inform(at, "the reason is here");
}

static class loop *plan_nest(function *fn, mp_pragma_rec &r, class loop *top,
			     std::string &note, bool *changed);

static void process_marker(function *fn, gimple *m, int id, bool *changed)
{
	mp_pragma_rec &r = mp_pragmas[id];
	if (r.bad || r.region_head)
		return;   /* a region's loops have markers of their own */
	if ((r.p.target == MP_TARGET_AVXVNNI || r.p.target == MP_TARGET_AVX512BF16) &&
	    (r.p.prec == MP_PREC_INT8 || r.p.prec == MP_PREC_UINT8)) {
		char why[160];
		snprintf(why, sizeof why, "target=%s has no 8-bit integer kernels in this version "
			 "(available: auto, scalar, avx2, avx512vnni, dotprod, i8mm)", mp_target_name(r.p.target));
		report(r, why, UNKNOWN_LOCATION);
		return;
	}
	bool lp64 = TYPE_PRECISION(long_integer_type_node) == 64 && POINTER_SIZE == 64;
	/* on an OpenMP construct (omp.cc): the marker heads the copy of its
	   loops, under "if (twin)", true once the copy is rewritten into the
	   call, false otherwise (the construct runs as written) */
	gcond *twin = NULL;
	if (r.omp_go) {
		/* the nearest test of __mixprec_twin above the marker (a bound
		   read before the nest, hoist.cc, may branch in between) */
		calculate_dominance_info(CDI_DOMINATORS);
		for (basic_block b = gimple_bb(m); b && !twin;
		     b = get_immediate_dominator(CDI_DOMINATORS, b)) {
			basic_block d = get_immediate_dominator(CDI_DOMINATORS, b);
			gimple *last = d ? last_stmt(d) : NULL;
			gcond *g = last ? dyn_cast<gcond *>(last) : NULL;
			tree t = g ? gimple_cond_lhs(g) : NULL_TREE;
			if (t && VAR_P(t) && DECL_NAME(t) &&
			    !strcmp(IDENTIFIER_POINTER(DECL_NAME(t)), "__mixprec_twin"))
				twin = g;
		}
		if (!twin)
			return;   /* never run: the test stays false */
	}
	bool done = false;
	class loop *top = loop_after_marker(m);
	if (top && !lp64) {
		report(r, MP_MSG_NOT_LP64, UNKNOWN_LOCATION);
	} else if (!top) {
		report(r, "no loop follows the pragma here (was it removed as dead code, or does a goto or a case label jump into it?)", UNKNOWN_LOCATION);
	} else {
		std::string note;   /* the batch loops kept around the call (descent) */
		for (int attempt = 0; attempt < 3 && top; attempt++)
			top = plan_nest(fn, r, top, note, &done);
	}
	if (twin) {
		if (done)
			gimple_cond_make_true(twin);
		else
			gimple_cond_make_false(twin);
		update_stmt(twin);
		done = true;
	}
	if (done)
		*changed = true;
}

/* Describes, plans and rewrites the nest of loop TOP for pragma R.  When
 * the core finds the contraction three loops deep inside loops that only
 * index the output (mp_plan.descend), returns that inner loop for the
 * caller to plan instead (NOTE then says what stays as written); else
 * reports and returns NULL. */
static class loop *plan_nest(function *fn, mp_pragma_rec &r, class loop *top,
			     std::string &note, bool *changed)
{
	class loop *inner = NULL;
	mp_ctx c;
	c.fn = fn;
	c.top = top;
	c.pr = &r;
	c.loop_loc = r.loop_loc != UNKNOWN_LOCATION ? r.loop_loc : r.pragma_loc;
	c.n = (mp_nest *)xcalloc(1, sizeof(mp_nest));
	const int maxc = 4;   /* contractions planned together (rows unrolled) */
	mp_plan *plan = (mp_plan *)xcalloc(maxc, sizeof(mp_plan));
	int count = 0;
	mp_nest_init(c.n);

	/* rewrite.cc emits __mixprec_lp_nest for floating-point sources */
	r.p.lp_capable = 1;
	/* -fplugin-arg-mixprec-verify: the verify clause on every nest (only
	   floating-point nests have a verify mode) */
	if (mp_opt_verify)
		r.p.verify = 1;
	if (r.p.prec == MP_PREC_AUTO) {
		/* the runtime profile's key: rewrite.cc's nest_loc() string */
		location_t l = linemap_resolve_location(line_table, c.loop_loc,
							LRK_MACRO_EXPANSION_POINT, NULL);
		expanded_location x = expand_location(l);
		/* (one small string per auto nest; any length: no truncation) */
		r.p.auto_where = xstrdup((std::string(x.file ? x.file : "?") + ":" +
					  std::to_string(x.line)).c_str());
		r.p.auto_profile = mp_opt_profile_use;
	}
	calculate_dominance_info(CDI_DOMINATORS);
	bool built = mp_build_nest(c);
	if (mp_opt_dump) {
		size_t len = 1 << 16;
		char *buf = (char *)xmalloc(len);
		mp_nest_print(c.n, buf, len);
		fprintf(mp_dump_fp, "mixprec: nest at %s:%d%s%s\n%s", LOCATION_FILE(c.loop_loc),
			LOCATION_LINE(c.loop_loc), built ? "" : " (incomplete: ",
			built ? "" : (c.fail_text + ")").c_str(), buf);
		free(buf);
	}
	if (built) {
		count = mp_analyze_all(c.n, &r.p, plan, maxc);
		absorb_loops(c);
	}
	if (built && plan->auto_warn[0])
		warning_at(r.pragma_loc, OPT_Wpragmas, "mixprec: %s", plan->auto_warn);
	if (!built) {
		report(r, c.fail_text.c_str(), c.fail_loc);
	} else if (!count && plan->auto_keep) {
		if (dump_enabled_p())
			dump_printf_loc(MSG_OPTIMIZED_LOCATIONS,
					dump_user_location_t::from_location_t(c.loop_loc),
					"mixprec: %s\n", plan->reason);
	} else if (!count) {
		if (plan->descend >= 0 && plan->descend < (int)c.loops.size() &&
		    r.omp_go) {
			/* the call would sit inside the copy of the OpenMP loop */
			report(r, MP_MSG_OMP_DESCEND, UNKNOWN_LOCATION);
		} else if (plan->descend >= 0 && plan->descend < (int)c.loops.size()) {
			/* (twice at most: the image loop of a convolution that
			   first kept its row loop in the call, then not) */
			inner = c.loops[plan->descend];
			note = note.empty() ? std::string(plan->descend_note)
					    : note + "; then " + plan->descend_note;
		} else if (r.region && plan->no_contraction) {
			/* a region's init or element-wise loop: runs as written */
			if (dump_enabled_p())
				dump_printf_loc(MSG_MISSED_OPTIMIZATION,
						dump_user_location_t::from_location_t(c.loop_loc),
						"mixprec: loop nest not transformed: %s\n", plan->reason);
		} else {
			report(r, plan->reason, mp_loc_of(plan->reason_loc), plan->reason_is_error);
		}
	} else {
		/* planned from an inner loop: the loops kept around it (the
		   pragma stands where the user put it: no hint to move it) */
		for (int q = 0; q < count && !note.empty(); q++)
			snprintf(plan[q].hint, sizeof(plan[q].hint), "%s", note.c_str());
		for (int q = 0; q < count && r.omp_go; q++)
			snprintf(plan[q].hint, sizeof(plan[q].hint), "%s", MP_MSG_OMP_REMARK);
		for (int q = 0; mp_opt_dump && q < count; q++)
			fprintf(mp_dump_fp, "mixprec: plan: %s; %s\n", plan[q].what, plan[q].layout);
		if (mp_rewrite(c, plan, count)) {
			*changed = true;
			/* one remark per contraction */
			for (int q = 0; q < count && dump_enabled_p(); q++) {
				char text[4 * MP_REASON_LEN + 1024];
				mp_plan_remark(&plan[q], &r.p, MP_GCC_TARGET_ARCH, text, sizeof text);
				dump_printf_loc(MSG_OPTIMIZED_LOCATIONS,
						dump_user_location_t::from_location_t(c.loop_loc),
						"%s\n", mp_remark_split(text).c_str());
			}
		} else {
			report(r, c.fail_text.c_str(), c.fail_loc);
		}
	}
	free_dominance_info(CDI_DOMINATORS);
	free(plan);
	free(c.n);
	return inner;
}

unsigned int mp_process_function(function *fn)
{
	std::vector<std::pair<gimple *, int>> markers;
	basic_block bb;
	FOR_EACH_BB_FN(bb, fn)
		for (gimple_stmt_iterator g = gsi_start_bb(bb); !gsi_end_p(g); gsi_next(&g)) {
			int id;
			if (stmt_is_marker(gsi_stmt(g), &id) && id >= 0 && id < (int)mp_pragmas.size())
				markers.push_back({ gsi_stmt(g), id });
		}
	if (markers.empty())
		return 0;
	bool changed = false;
	/* a marker whose block an earlier rewrite left unreachable and
	   deleted (below) is gone with it */
	auto live = [fn](gimple *g) {
		basic_block b = gimple_bb(g);
		return b && b->index >= 0 && b->index < last_basic_block_for_fn(fn) &&
		       BASIC_BLOCK_FOR_FN(fn, b->index) == b;
	};
	for (auto &m : markers) {
		/* an earlier rewrite may leave blocks no path reaches (an
		   OpenMP construct replaced whole, its fallback under the
		   call's test): dominators need every block reached, so
		   they go first (an ICE in calc_dfs_tree with two such nests
		   in one function, found by a review helper) */
		if (changed) {
			free_dominance_info(CDI_DOMINATORS);
			delete_unreachable_blocks();
		}
		if (live(m.first))
			process_marker(fn, m.first, m.second, &changed);
	}
	for (auto &m : markers) {
		if (!live(m.first))
			continue;
		gimple_stmt_iterator g = gsi_for_stmt(m.first);
		gsi_remove(&g, true);
	}
	if (!changed)
		return 0;
	free_dominance_info(CDI_DOMINATORS);
	loops_state_set(LOOPS_NEED_FIXUP);
	return TODO_cleanup_cfg;
}
