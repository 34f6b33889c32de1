/* split.cc -- one copy of a tile-mode nest per path, once in SSA form.
 *
 * rewrite.cc leaves a tile-mode nest as one copy with both paths in it:
 *
 *   t = __mixprec_*_nest(...);
 *   for i { init; for j { if (t) s += T[i][j]; else for k { s += A*B; } epi; } }
 *
 * The test of t inside loop j stops GCC from vectorizing loop j around
 * loop k (outer-loop vectorization of a nest over fixed-size arrays, which
 * the loop as written gets at -O3): the fallback then ran up to 7x slower
 * than the plain build (issue 10).  GCC's own unswitching takes innermost
 * loops only.  This pass, right after "ssa", versions the outermost loop
 * that holds such a test and not t's definition on t != 0 (loop_version,
 * as GCC's unswitching does), and folds every test of t inside each copy:
 * the kernels' copy reads the tile, the other is the nest as written.
 *
 * The tests are found by their operand: an SSA name of the temporaries
 * rewrite.cc names "mp_tile" / "mp_tiles" (anonymous SSA names, never a
 * user's variable), compared with 0.  Versioning a
 * loop on a value defined outside it and folding that value's tests inside
 * each copy preserves the semantics whatever the loop holds.
 */
#include "gcc-common.h"
#include "mp-gcc.h"
#include "cfgloopmanip.h"
#include "tree-into-ssa.h"

/* T if STMT is "if (T != 0)" or "if (T == 0)" on a tile temporary */
static tree tile_test(gimple *stmt)
{
	gcond *c = dyn_cast<gcond *>(stmt);
	if (!c)
		return NULL_TREE;
	tree t = gimple_cond_lhs(c);
	enum tree_code code = gimple_cond_code(c);
	if ((code != NE_EXPR && code != EQ_EXPR) || TREE_CODE(t) != SSA_NAME ||
	    !integer_zerop(gimple_cond_rhs(c)) || !POINTER_TYPE_P(TREE_TYPE(t)))
		return NULL_TREE;
	/* rewrite.cc's temporaries (create_tmp_var: artificial and ignored,
	   so their SSA names are anonymous, only an identifier "mp_tile.N"):
	   a user's variable keeps its declaration (SSA_NAME_VAR) */
	tree id = SSA_NAME_IDENTIFIER(t);
	if (!id || SSA_NAME_VAR(t))
		return NULL_TREE;
	return !strncmp(IDENTIFIER_POINTER(id), "mp_tile", 7) ? t : NULL_TREE;
}

/* The outermost loop around BB whose body does not hold DEF's block. */
static class loop *version_target(basic_block bb, basic_block def)
{
	class loop *best = NULL;
	for (class loop *l = bb->loop_father; l && loop_outer(l); l = loop_outer(l)) {
		if (def && flow_bb_inside_loop_p(l, def))
			break;
		best = l;
	}
	return best;
}

/* Fold every test of T in LOOP's body: T is non-null there when NONNULL. */
static void fold_tests(class loop *loop, tree t, bool nonnull)
{
	basic_block *bbs = get_loop_body(loop);
	for (unsigned i = 0; i < loop->num_nodes; i++) {
		gimple *last = last_stmt(bbs[i]);
		if (!last || tile_test(last) != t)
			continue;
		gcond *c = as_a<gcond *>(last);
		bool ne = gimple_cond_code(c) == NE_EXPR;
		if (ne == nonnull)
			gimple_cond_make_true(c);
		else
			gimple_cond_make_false(c);
		update_stmt(c);
	}
	free(bbs);
}

/* T's value where it does not change: through a header phi that only
 * passes T around its loop (the join of the call's guard, merged into the
 * nest's header by GCC's CFG cleanup), the value on the preheader edge;
 * the phi is removed and its uses read that value. */
static tree invariant_value(tree t)
{
	for (;;) {
		gphi *phi = dyn_cast<gphi *>(SSA_NAME_DEF_STMT(t));
		if (!phi)
			return t;
		basic_block b = gimple_bb(phi);
		class loop *l = b->loop_father;
		if (!l || l->header != b || !loop_outer(l) || !loop_preheader_edge(l))
			return t;
		edge pe = loop_preheader_edge(l);
		tree init = PHI_ARG_DEF_FROM_EDGE(phi, pe);
		if (TREE_CODE(init) != SSA_NAME)
			return t;
		edge e;
		edge_iterator ei;
		FOR_EACH_EDGE(e, ei, b->preds)
			if (e != pe && PHI_ARG_DEF_FROM_EDGE(phi, e) != t)
				return t;
		replace_uses_by(t, init);
		gimple_stmt_iterator gsi = gsi_for_stmt(phi);
		remove_phi_node(&gsi, true);
		t = init;
	}
}

/* Whether a value LOOP computes is read after it (an iterator or a walked
 * pointer live after the nest).  The two copies' values would then meet in
 * phis after them, where GCC's uninitialized-use analysis loses what it
 * proved of the one copy: a new -Wmaybe-uninitialized on the user's
 * variable.  Such nests keep their one copy. */
static bool live_after(class loop *loop)
{
	basic_block *bbs = get_loop_body(loop);
	bool live = false;
	for (unsigned i = 0; i < loop->num_nodes && !live; i++) {
		auto out = [&](tree def) {
			imm_use_iterator it;
			use_operand_p u;
			FOR_EACH_IMM_USE_FAST(u, it, def) {
				gimple *st = USE_STMT(u);
				if (is_gimple_debug(st))
					continue;
				basic_block ub = gimple_bb(st);
				if (gphi *ph = dyn_cast<gphi *>(st))
					ub = gimple_phi_arg_edge(ph, PHI_ARG_INDEX_FROM_USE(u))->src;
				if (!ub || !flow_bb_inside_loop_p(loop, ub))
					return true;
			}
			return false;
		};
		for (gphi_iterator g = gsi_start_phis(bbs[i]); !gsi_end_p(g) && !live; gsi_next(&g))
			if (!virtual_operand_p(gimple_phi_result(g.phi())))
				live = out(gimple_phi_result(g.phi()));
		for (gimple_stmt_iterator g = gsi_start_bb(bbs[i]); !gsi_end_p(g) && !live;
		     gsi_next(&g)) {
			tree d = gimple_get_lhs(gsi_stmt(g));
			if (d && TREE_CODE(d) == SSA_NAME && !virtual_operand_p(d))
				live = out(d);
		}
	}
	free(bbs);
	return live;
}

static unsigned int split_tile_nests(function *fn)
{
	/* the tests of a tile inside a loop; loops get preheaders only when
	   there is one */
	std::vector<gimple *> tests;
	basic_block bb;
	FOR_EACH_BB_FN(bb, fn) {
		gimple *last = last_stmt(bb);
		if (last && tile_test(last) && bb->loop_father != loops_for_fn(fn)->tree_root)
			tests.push_back(last);
	}
	if (tests.empty())
		return 0;
	loop_optimizer_init(LOOPS_NORMAL);
	/* the loops to version, each with its tile */
	std::vector<std::pair<int, tree>> todo;
	for (gimple *test : tests) {
		tree t = tile_test(test);   /* its name after the phis removed so far */
		if (!t)
			continue;
		t = invariant_value(t);
		basic_block def = SSA_NAME_IS_DEFAULT_DEF(t) ? NULL
				  : gimple_bb(SSA_NAME_DEF_STMT(t));
		class loop *l = version_target(gimple_bb(test), def);
		if (!l)
			continue;
		bool seen = false;
		for (auto &p : todo)
			seen |= p.first == l->num;
		if (!seen)
			todo.push_back({l->num, t});
	}
	initialize_original_copy_tables();
	bool changed = false;
	for (auto &p : todo) {
		class loop *l = get_loop(fn, p.first);
		if (!l || !can_duplicate_loop_p(l) || live_after(l))
			continue;
		tree cond = fold_build2(NE_EXPR, boolean_type_node, p.second,
					build_int_cst(TREE_TYPE(p.second), 0));
		/* the original runs when the tile is there, the copy when not */
		class loop *nl = loop_version(l, cond, NULL, profile_probability::even(),
					      profile_probability::even(),
					      profile_probability::even(),
					      profile_probability::even(), true);
		if (!nl)
			continue;
		update_ssa(TODO_update_ssa);
		fold_tests(l, p.second, true);
		fold_tests(nl, p.second, false);
		/* the kernels' copy: its loops only read the tile (and run the
		   epilogue) as they did before the split, not vectorized; the
		   compile time stays that of one copy plus the nest as written */
		l->dont_vectorize = true;
		for (class loop *in : loops_list(fn, 0, l))
			in->dont_vectorize = true;
		changed = true;
	}
	free_original_copy_tables();
	loop_optimizer_finalize();
	return changed ? TODO_cleanup_cfg | TODO_update_ssa : 0;
}

static const pass_data mp_split_data = {
	GIMPLE_PASS,
	"mixprec-split",
	OPTGROUP_LOOP,
	TV_NONE,
	PROP_cfg | PROP_ssa,
	0, 0, 0, 0
};

namespace {
struct mp_split_pass : gimple_opt_pass {
	mp_split_pass(gcc::context *ctx) : gimple_opt_pass(mp_split_data, ctx) {}
	bool gate(function *fn) final override
	{
		return optimize > 0 && fn->x_current_loops && !optimize_function_for_size_p(fn);
	}
	unsigned int execute(function *fn) final override { return split_tile_nests(fn); }
};
}

opt_pass *mp_split_pass_new(void) { return new mp_split_pass(g); }
