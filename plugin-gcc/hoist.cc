/* hoist.cc -- a conditional expression in a loop bound of an annotated
 * nest, read once before the nest (before genericization).
 *
 *   #pragma mixprec(...)                  mp_bound = tr ? K : K / 2;
 *   for (...)                       ->    #pragma mixprec(...)
 *     for (k = 0; k < (tr ? K : K / 2); k++)      for (k = 0; k < mp_bound; k++)
 *
 * GCC lowers `?:` in a loop's condition into a branch inside the loop, so
 * the exit test is no longer the header's, and the pass refused the nest;
 * clang's glue reads such a bound as a parameter.  When the conditional
 * expression reads only integer constants and local variables or
 * parameters that nothing in the nest writes (neither assigned, stepped,
 * declared nor address-taken there; not global, not volatile, not used by
 * a nested function), it has the same value at every evaluation, so
 * evaluating it once before the loop computes what the loop as written
 * computes (the fallback reads the same variable).  It must not trap: the
 * loop as written may never evaluate it (an outer loop without
 * iterations), so a division by a variable stays in place (the nest is
 * then refused as before).  The variable is declared in the innermost
 * scope around the pragma; inside an OpenMP region only when that scope
 * is inside the region too (a variable from outside would be shared by
 * its threads).  In the copy of an OpenMP loop construct (omp.cc), after
 * the copy's firstprivate values.  The same for such a `?:` in the value
 * an integer variable of the nest is given (GSL's `INDEX ix = OFFSET(N,
 * incX);` before a loop stepping ix by incX).
 *
 * Before that, in an annotated nest (const_vla_r, const_headers_r): a
 * variable-length array whose length folds to a constant once `const`
 * integers with constant initializers are read as their values (llm.c's
 * `const int LOOP_UNROLL = 8; float result[LOOP_UNROLL];`) gets the array
 * type of that length, and such values in the loop headers are folded (as
 * the front end does when optimizing): the nest then reads as with a
 * `#define`, as clang's glue reads it.
 */
#include "gcc-common.h"
#include "mp-gcc.h"
#include <set>

/* The variables LOOP (a loop item and the statements of its nest) writes,
 * declares or takes the address of, and whether it holds asm. */
struct hoist_writes {
	std::set<tree> w;
	bool opaque = false;
};

static void hoist_write_of(hoist_writes *hw, tree lhs)
{
	while (lhs && (TREE_CODE(lhs) == COMPONENT_REF || TREE_CODE(lhs) == ARRAY_REF ||
		       TREE_CODE(lhs) == REALPART_EXPR || TREE_CODE(lhs) == IMAGPART_EXPR))
		lhs = TREE_OPERAND(lhs, 0);
	if (lhs && DECL_P(lhs))
		hw->w.insert(lhs);
}

static tree hoist_writes_r(tree *tp, int *, void *data)
{
	hoist_writes *hw = (hoist_writes *)data;
	tree t = *tp;
	switch (TREE_CODE(t)) {
	case MODIFY_EXPR: case INIT_EXPR: case PREINCREMENT_EXPR: case PREDECREMENT_EXPR:
	case POSTINCREMENT_EXPR: case POSTDECREMENT_EXPR: case ADDR_EXPR:
		hoist_write_of(hw, TREE_OPERAND(t, 0));
		break;
	case DECL_EXPR:
		hw->w.insert(DECL_EXPR_DECL(t));
		break;
	case BIND_EXPR:
		for (tree v = BIND_EXPR_VARS(t); v; v = DECL_CHAIN(v))
			hw->w.insert(v);
		break;
	case ASM_EXPR:
		hw->opaque = true;
		break;
	default:
		break;
	}
	return NULL_TREE;
}

/* Whether E (an integer expression) reads only constants and variables
 * the nest leaves alone, through operations without side effects. */
static bool hoistable(tree e, const hoist_writes &hw, int depth)
{
	if (!e || depth > 32)
		return false;
	switch (TREE_CODE(e)) {
	case INTEGER_CST:
		return true;
	case VAR_DECL: case PARM_DECL: {
		tree ty = TREE_TYPE(e);
		return INTEGRAL_TYPE_P(ty) && !TYPE_ATOMIC(ty) && !TYPE_VOLATILE(ty) &&
		       !TREE_THIS_VOLATILE(e) && !TREE_ADDRESSABLE(e) && !is_global_var(e) &&
		       !DECL_NONLOCAL(e) && !(VAR_P(e) && DECL_HARD_REGISTER(e)) &&
		       DECL_CONTEXT(e) == current_function_decl && !hw.w.count(e);
	}
	CASE_CONVERT: case NON_LVALUE_EXPR: case NEGATE_EXPR: case BIT_NOT_EXPR:
	case TRUTH_NOT_EXPR: case ABS_EXPR:
		return INTEGRAL_TYPE_P(TREE_TYPE(e)) || TREE_CODE(TREE_TYPE(e)) == BOOLEAN_TYPE
		       ? hoistable(TREE_OPERAND(e, 0), hw, depth + 1) : false;
	case PLUS_EXPR: case MINUS_EXPR: case MULT_EXPR: case TRUNC_DIV_EXPR:
	case TRUNC_MOD_EXPR: case EXACT_DIV_EXPR: case LSHIFT_EXPR: case RSHIFT_EXPR:
	case MIN_EXPR: case MAX_EXPR: case BIT_AND_EXPR: case BIT_IOR_EXPR: case BIT_XOR_EXPR:
	case LT_EXPR: case LE_EXPR: case GT_EXPR: case GE_EXPR: case EQ_EXPR: case NE_EXPR:
	case TRUTH_ANDIF_EXPR: case TRUTH_ORIF_EXPR: case TRUTH_AND_EXPR: case TRUTH_OR_EXPR:
	case TRUTH_XOR_EXPR:
		return hoistable(TREE_OPERAND(e, 0), hw, depth + 1) &&
		       hoistable(TREE_OPERAND(e, 1), hw, depth + 1);
	case COND_EXPR:
		return hoistable(TREE_OPERAND(e, 0), hw, depth + 1) &&
		       hoistable(TREE_OPERAND(e, 1), hw, depth + 1) &&
		       hoistable(TREE_OPERAND(e, 2), hw, depth + 1);
	default:
		return false;
	}
}

struct hoist_ctx {
	const hoist_writes *hw;
	tree bind;                 /* the innermost scope around the marker */
	tree_stmt_iterator *at;    /* the marker: assignments go before it */
	int count;
};

/* In a loop condition: each hoistable `?:` becomes a variable set before
 * the marker. */
static tree hoist_cond_r(tree *tp, int *walk_subtrees, void *data)
{
	hoist_ctx *h = (hoist_ctx *)data;
	tree e = *tp;
	if (TREE_CODE(e) != COND_EXPR || !INTEGRAL_TYPE_P(TREE_TYPE(e)))
		return NULL_TREE;
	*walk_subtrees = 0;
	if (!hoistable(e, *h->hw, 0) || generic_expr_could_trap_p(e) || TREE_SIDE_EFFECTS(e))
		return NULL_TREE;
	location_t loc = EXPR_LOCATION(e);
	tree v = build_decl(loc, VAR_DECL, get_identifier("mp_bound"), TREE_TYPE(e));
	DECL_CONTEXT(v) = current_function_decl;
	DECL_ARTIFICIAL(v) = 1;
	DECL_IGNORED_P(v) = 1;
	TREE_USED(v) = 1;
	DECL_READ_P(v) = 1;
	/* declared in the innermost scope around the marker (the C front
	   end's BIND_EXPR_VARS and BLOCK_VARS are one chain) */
	tree blk = BIND_EXPR_BLOCK(h->bind);
	bool shared = blk && BLOCK_VARS(blk) == BIND_EXPR_VARS(h->bind);
	DECL_CHAIN(v) = BIND_EXPR_VARS(h->bind);
	BIND_EXPR_VARS(h->bind) = v;
	if (shared)
		BLOCK_VARS(blk) = v;
	tsi_link_before(h->at, build2_loc(loc, MODIFY_EXPR, TREE_TYPE(v), v, e), TSI_SAME_STMT);
	*tp = v;
	h->count++;
	return NULL_TREE;
}

/* The loop conditions of the nest ITEM (FOR_STMTs and WHILE_STMTs), and
 * the values given to its integer variables (GSL's BLAS: `INDEX ix =
 * OFFSET(N, incX);`, OFFSET a `?:` of parameters, the initial value of an
 * index stepped beside a loop: clang's glue reads it as a parameter) */
static tree hoist_loops_r(tree *tp, int *, void *data)
{
	tree t = *tp;
	if (TREE_CODE(t) == FOR_STMT && FOR_COND(t))
		walk_tree(&FOR_COND(t), hoist_cond_r, data, NULL);
	else if (TREE_CODE(t) == WHILE_STMT && WHILE_COND(t))
		walk_tree(&WHILE_COND(t), hoist_cond_r, data, NULL);
	else if (TREE_CODE(t) == DECL_EXPR && VAR_P(DECL_EXPR_DECL(t)) &&
		 INTEGRAL_TYPE_P(TREE_TYPE(DECL_EXPR_DECL(t))) &&
		 !TREE_STATIC(DECL_EXPR_DECL(t)) && DECL_INITIAL(DECL_EXPR_DECL(t)))
		walk_tree(&DECL_INITIAL(DECL_EXPR_DECL(t)), hoist_cond_r, data, NULL);
	else if (TREE_CODE(t) == MODIFY_EXPR && VAR_P(TREE_OPERAND(t, 0)) &&
		 INTEGRAL_TYPE_P(TREE_TYPE(TREE_OPERAND(t, 0))))
		walk_tree(&TREE_OPERAND(t, 1), hoist_cond_r, data, NULL);
	return NULL_TREE;
}

/* The value of the integer expression E with each `const` variable that
 * has a constant initializer read as that constant (a write to such a
 * variable is undefined), or NULL_TREE when E has another operand. */
static tree const_value(tree e, int depth)
{
	if (!e || depth > 32 || !INTEGRAL_TYPE_P(TREE_TYPE(e)))
		return NULL_TREE;
	switch (TREE_CODE(e)) {
	case INTEGER_CST:
		return e;
	case VAR_DECL: {
		tree ty = TREE_TYPE(e), init = DECL_INITIAL(e);
		/* not a weak or external definition, which another one may
		   replace at link time (a review helper) */
		if (!TYPE_READONLY(ty) || TYPE_VOLATILE(ty) || TREE_THIS_VOLATILE(e) ||
		    TYPE_ATOMIC(ty) || !init || TREE_CODE(init) != INTEGER_CST || DECL_WEAK(e) ||
		    DECL_EXTERNAL(e))
			return NULL_TREE;
		return fold_convert(ty, init);
	}
	case SAVE_EXPR: case NON_LVALUE_EXPR:
		return const_value(TREE_OPERAND(e, 0), depth + 1);
	case COMPOUND_EXPR:   /* `(0, 7)`, as the C front end folds the length */
		return TREE_SIDE_EFFECTS(TREE_OPERAND(e, 0)) ? NULL_TREE
							      : const_value(TREE_OPERAND(e, 1), depth + 1);
	CASE_CONVERT: {
		tree a = const_value(TREE_OPERAND(e, 0), depth + 1);
		return a ? fold_convert(TREE_TYPE(e), a) : NULL_TREE;
	}
	case COND_EXPR: {
		tree t = const_value(TREE_OPERAND(e, 0), depth + 1);
		return t ? const_value(TREE_OPERAND(e, integer_zerop(t) ? 2 : 1), depth + 1)
			 : NULL_TREE;
	}
	default:
		break;
	}
	/* any other operation on such values, folded as clang's constant
	   evaluator folds the length (`U / 2`, `U << 1`, `MIN(U, 8)`); a
	   division by zero or an overflow does not fold */
	tree r = NULL_TREE;
	if (TREE_CODE_CLASS(TREE_CODE(e)) == tcc_unary) {
		tree a = const_value(TREE_OPERAND(e, 0), depth + 1);
		if (a)
			r = fold_build1(TREE_CODE(e), TREE_TYPE(e), a);
	} else if (TREE_CODE_CLASS(TREE_CODE(e)) == tcc_binary ||
		   TREE_CODE_CLASS(TREE_CODE(e)) == tcc_comparison ||
		   TREE_CODE(e) == TRUTH_ANDIF_EXPR || TREE_CODE(e) == TRUTH_ORIF_EXPR) {
		tree a = const_value(TREE_OPERAND(e, 0), depth + 1);
		tree b = a ? const_value(TREE_OPERAND(e, 1), depth + 1) : NULL_TREE;
		bool same = TREE_CODE_CLASS(TREE_CODE(e)) == tcc_binary &&
			    TREE_CODE(e) != LSHIFT_EXPR && TREE_CODE(e) != RSHIFT_EXPR &&
			    TREE_CODE(e) != LROTATE_EXPR && TREE_CODE(e) != RROTATE_EXPR;
		if (b && same)   /* the operands in the operation's type */
			r = fold_build2(TREE_CODE(e), TREE_TYPE(e), fold_convert(TREE_TYPE(e), a),
					fold_convert(TREE_TYPE(e), b));
		else if (b)
			r = fold_build2(TREE_CODE(e), TREE_TYPE(e), a, b);
	}
	return r && TREE_CODE(r) == INTEGER_CST && !TREE_OVERFLOW(r) ? r : NULL_TREE;
}

/* A variable-length array declared in an annotated nest whose length is
 * a constant after all (`const int U = 8; float acc[U];`, llm.c's
 * matmul_forward: a VLA in C, as `const int` is no constant expression):
 * given the array type of that length, as clang's glue reads it. */
static tree const_vla_r(tree *tp, int *, void *)
{
	if (TREE_CODE(*tp) != BIND_EXPR)
		return NULL_TREE;
	for (tree v = BIND_EXPR_VARS(*tp); v; v = DECL_CHAIN(v)) {
		tree ty = TREE_TYPE(v);
		if (!VAR_P(v) || TREE_STATIC(v) || TREE_CODE(ty) != ARRAY_TYPE ||
		    !variably_modified_type_p(ty, NULL_TREE) ||
		    variably_modified_type_p(TREE_TYPE(ty), NULL_TREE) || !TYPE_DOMAIN(ty) ||
		    !TYPE_MIN_VALUE(TYPE_DOMAIN(ty)) || !integer_zerop(TYPE_MIN_VALUE(TYPE_DOMAIN(ty))))
			continue;
		tree hi = const_value(TYPE_MAX_VALUE(TYPE_DOMAIN(ty)), 0);
		if (!hi || tree_int_cst_sgn(hi) < 0 || !tree_fits_uhwi_p(hi) ||
		    tree_to_uhwi(hi) >= (1u << 20))
			continue;
		tree nt = build_array_type_nelts(TREE_TYPE(ty), tree_to_uhwi(hi) + 1);
		nt = build_qualified_type(nt, TYPE_QUALS(ty));
		TREE_TYPE(v) = nt;
		DECL_SIZE(v) = NULL_TREE;
		DECL_SIZE_UNIT(v) = NULL_TREE;
		layout_decl(v, 0);
	}
	return NULL_TREE;
}

/* In a loop header of an annotated nest: a `const` integer variable with
 * a constant initializer read as that constant, and what folds with it
 * (`i += rows` with `static const int rows = 4;`, `i += U / 2`), as the C
 * front end folds it when optimizing and
 * clang's glue reads it at any level; GCC at -O0 left a load the
 * induction variable's step could not be read from. */
static tree const_read_r(tree *tp, int *walk_subtrees, void *)
{
	tree e = *tp;
	if (TREE_CODE(e) == ADDR_EXPR) {
		*walk_subtrees = 0;
		return NULL_TREE;
	}
	/* the largest such subexpression, folded (`U / 2`: GCC at -O0 left
	   a division of constants the step could not be read from) */
	if (TREE_CODE(e) != INTEGER_CST && (EXPR_P(e) || VAR_P(e)) && TREE_TYPE(e) &&
	    INTEGRAL_TYPE_P(TREE_TYPE(e)) && !TREE_SIDE_EFFECTS(e))
		if (tree v = const_value(e, 0)) {
			*tp = v;
			*walk_subtrees = 0;
		}
	return NULL_TREE;
}

static tree const_headers_r(tree *tp, int *, void *)
{
	tree t = *tp;
	if (TREE_CODE(t) == FOR_STMT) {
		if (FOR_COND(t))
			walk_tree(&FOR_COND(t), const_read_r, NULL, NULL);
		if (FOR_EXPR(t))
			walk_tree(&FOR_EXPR(t), const_read_r, NULL, NULL);
	} else if (TREE_CODE(t) == WHILE_STMT && WHILE_COND(t)) {
		walk_tree(&WHILE_COND(t), const_read_r, NULL, NULL);
	}
	return NULL_TREE;
}

/* Markers of statement list LIST: their nests' constants (const_vla_r,
 * const_headers_r) and bounds, with BIND the innermost scope around LIST
 * (the variables are declared there; none: no bound hoisted). */
static void hoist_markers(tree list, tree bind)
{
	for (tree_stmt_iterator i = tsi_start(list); !tsi_end_p(i); tsi_next(&i)) {
		int id;
		if (!mp_is_marker(tsi_stmt(i), &id) || id < 0 || id >= (int)mp_pragmas.size() ||
		    mp_pragmas[id].bad || mp_pragmas[id].region_head)
			continue;
		tree_stmt_iterator n = mp_next_stmt(i), n2;
		if (tsi_end_p(n))
			continue;
		/* the loop item, and the `i = 0;` before a `for (; ...)` */
		tree item = tsi_stmt(n), init = NULL_TREE;
		if (mp_init_then_for(n, &n2)) {
			init = item;
			item = tsi_stmt(n2);
		}
		if (!mp_loop_item(item))
			continue;
		walk_tree_without_duplicates(&item, const_vla_r, NULL);
		walk_tree_without_duplicates(&item, const_headers_r, NULL);
		hoist_writes hw;
		walk_tree_without_duplicates(&item, hoist_writes_r, &hw);
		if (init)
			walk_tree_without_duplicates(&init, hoist_writes_r, &hw);
		if (hw.opaque || !bind)
			continue;
		hoist_ctx h = { &hw, bind, &i, 0 };
		walk_tree_without_duplicates(&item, hoist_loops_r, &h);
	}
}

/* The statements of T, BIND the innermost scope around it: NULL_TREE
 * inside an OpenMP construct that outlines its body until a scope of the
 * construct's own (a variable of a scope outside would be shared by its
 * threads). */
static void hoist_walk(tree t, tree bind, int depth)
{
	if (!t || depth > 1000)
		return;
	switch (TREE_CODE(t)) {
	case BIND_EXPR:
		hoist_walk(BIND_EXPR_BODY(t), t, depth + 1);
		return;
	case STATEMENT_LIST:
		hoist_markers(t, bind);
		for (tree_stmt_iterator i = tsi_start(t); !tsi_end_p(i); tsi_next(&i))
			hoist_walk(tsi_stmt(i), bind, depth + 1);
		return;
	case COND_EXPR:
		hoist_walk(TREE_OPERAND(t, 1), bind, depth + 1);
		hoist_walk(TREE_OPERAND(t, 2), bind, depth + 1);
		return;
	case FOR_STMT:
		hoist_walk(FOR_BODY(t), bind, depth + 1);
		return;
	case WHILE_STMT:
		hoist_walk(WHILE_BODY(t), bind, depth + 1);
		return;
	case DO_STMT:
		hoist_walk(DO_BODY(t), bind, depth + 1);
		return;
	case SWITCH_STMT:
		hoist_walk(SWITCH_STMT_BODY(t), bind, depth + 1);
		return;
	case OMP_PARALLEL: case OMP_TASK: case OMP_TARGET: case OMP_TEAMS:
		hoist_walk(OMP_BODY(t), NULL_TREE, depth + 1);
		return;
	case OMP_FOR: case OMP_SIMD: case OMP_DISTRIBUTE: case OMP_TASKLOOP: case OMP_LOOP:
		hoist_walk(OMP_FOR_BODY(t), TREE_CODE(t) == OMP_TASKLOOP ? NULL_TREE : bind,
			   depth + 1);
		return;
	case OMP_SECTIONS: case OMP_SECTION: case OMP_SINGLE: case OMP_MASTER:
	case OMP_CRITICAL: case OMP_ORDERED: case OMP_TASKGROUP:
		hoist_walk(TREE_OPERAND(t, 0), bind, depth + 1);
		return;
	default:
		return;
	}
}

void mp_hoist_bounds(tree fndecl)
{
	/* (with a VLA parameter the body is a list: the sizes, then the
	   function's scope) */
	hoist_walk(DECL_SAVED_TREE(fndecl), NULL_TREE, 0);
}
