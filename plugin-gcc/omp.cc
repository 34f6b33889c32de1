/* omp.cc -- `#pragma mixprec` on a loop that carries an OpenMP loop
 * directive (`#pragma omp parallel for`, `parallel for simd`, `simd`).
 *
 * A whole-nest plan replaces such a construct: one call into the runtime,
 * whose kernels run on the OpenMP threads the directive asks for (its
 * num_threads and if clauses, else the program's OpenMP setting), and the
 * construct as written is the fallback.  A tile-mode plan makes the call
 * and runs the copy below, reading the tile, on the calling thread (the
 * runtime declines when the construct's team would be wider than 2 threads:
 * mp_par_tail_too_wide).  By the time the pass runs (after "cfg"), the
 * construct is lowered (its variables remapped into the region's data
 * record), so the nest is described on a plain copy of its loops made here,
 * before genericization (PLUGIN_PRE_GENERICIZE):
 *
 *     marker(id);                       {   go = 1;  [nt = if ? num_threads : 1;]
 *     #pragma omp parallel for ...   ->     if (twin) { marker(id); for (i' ...) BODY' }
 *     for (i = lo; i < hi; i++) BODY        if (go) #pragma omp parallel for ...
 *                                                   for (i = lo; i < hi; i++) BODY }
 *
 * BODY' is BODY copied with the declarations inside it, the iterators and
 * the variables the clauses make private (the threads' own) remapped to new
 * ones: the construct leaves the originals as they were, and so does the
 * copy.  twin is 0: without the pass the copy never runs.  The pass
 * (nest.cc, rewrite.cc) finds the marker in the copy and either rewrites it
 * into `tile = call(); go = (tile == 0);`, skipping the copy (whole nest) or
 * running it only with a tile (tile mode), and makes the test of twin true,
 * or refuses it, making that test false.  Only the clauses
 * that do not change what the loop computes are accepted (as
 * plugin-clang/nest.cc, omp_loop).
 */
#include "gcc-common.h"
#include "mp-gcc.h"
#include "tree-inline.h"

/* The directive's loop node (OMP_FOR / OMP_SIMD holding the loop headers)
 * inside construct X, collecting the clause chains met on the way; NULL
 * with WHY when X is not a construct mixprec replaces. */
static tree omp_loop_node(tree x, std::vector<tree> &clauses, const char **why)
{
	bool parallel = false;
	for (int hops = 0; x && hops < 8; hops++) {
		switch (TREE_CODE(x)) {
		case BIND_EXPR:
			x = BIND_EXPR_BODY(x);
			continue;
		case STATEMENT_LIST: {
			tree only = NULL_TREE;
			for (tree_stmt_iterator i = tsi_start(x); !tsi_end_p(i); tsi_next(&i)) {
				tree e = tsi_stmt(i);
				if (TREE_CODE(e) == DECL_EXPR || TREE_CODE(e) == DEBUG_BEGIN_STMT)
					continue;
				if (only)
					return NULL_TREE;
				only = e;
			}
			x = only;
			continue;
		}
		case OMP_PARALLEL:
			if (parallel || !OMP_PARALLEL_COMBINED(x)) {
				*why = MP_MSG_OMP_LOOP;
				return NULL_TREE;
			}
			parallel = true;
			clauses.push_back(OMP_PARALLEL_CLAUSES(x));
			x = OMP_PARALLEL_BODY(x);
			continue;
		case OMP_FOR:
		case OMP_SIMD:
			if (TREE_CODE(x) == OMP_FOR && !parallel) {
				/* a worksharing loop of an enclosing region: every
				   thread of the team would make the call */
				*why = MP_MSG_OMP_LOOP;
				return NULL_TREE;
			}
			clauses.push_back(OMP_FOR_CLAUSES(x));
			if (OMP_FOR_INIT(x))
				return x;
			x = OMP_FOR_BODY(x);   /* `for simd`: the headers are the simd's */
			continue;
		default:
			*why = MP_MSG_OMP_LOOP;
			return NULL_TREE;
		}
	}
	*why = MP_MSG_OMP_LOOP;
	return NULL_TREE;
}

struct collect_data {
	std::set<tree> inner;     /* declared inside the copied trees */
	std::set<tree> used;      /* locals referenced */
};

static tree collect_r(tree *tp, int *walk_subtrees, void *data)
{
	collect_data *d = (collect_data *)data;
	tree t = *tp;
	if (TYPE_P(t)) {
		*walk_subtrees = 0;
		return NULL_TREE;
	}
	if (TREE_CODE(t) == BIND_EXPR)
		for (tree v = BIND_EXPR_VARS(t); v; v = DECL_CHAIN(v))
			d->inner.insert(v);
	else if (TREE_CODE(t) == DECL_EXPR)
		d->inner.insert(DECL_EXPR_DECL(t));
	else if (TREE_CODE(t) == LABEL_EXPR)
		d->inner.insert(LABEL_EXPR_LABEL(t));
	else if (VAR_P(t) || TREE_CODE(t) == PARM_DECL || TREE_CODE(t) == RESULT_DECL ||
		 TREE_CODE(t) == LABEL_DECL)
		d->used.insert(t);
	return NULL_TREE;
}

/* A copy of T, through ID (its decl map says what is remapped). */
static tree copy_through(tree t, copy_body_data *id)
{
	if (!t)
		return NULL_TREE;
	tree c = t;
	walk_tree(&c, copy_tree_body_r, id, NULL);
	return c;
}

bool mp_omp_twin(tree_stmt_iterator mi, tree_stmt_iterator xi, int id, const char **why)
{
	tree fndecl = current_function_decl;
	tree x = tsi_stmt(xi), marker = tsi_stmt(mi);
	std::vector<tree> clauses;
	*why = MP_MSG_OMP_LOOP;
	tree l = omp_loop_node(x, clauses, why);
	if (!l)
		return false;
	static char buf[512];
	tree nt = NULL_TREE, cond = NULL_TREE, sched = NULL_TREE;
	std::set<tree> priv;   /* the threads' own variables */
	std::set<tree> fpriv;  /* ... that start with the original's value */
	for (tree cl : clauses)
		for (tree c = cl; c; c = OMP_CLAUSE_CHAIN(c)) {
			switch (OMP_CLAUSE_CODE(c)) {
			case OMP_CLAUSE_PRIVATE:
			case OMP_CLAUSE_FIRSTPRIVATE:
				if (DECL_P(OMP_CLAUSE_DECL(c)))
					priv.insert(OMP_CLAUSE_DECL(c));
				if (OMP_CLAUSE_CODE(c) == OMP_CLAUSE_FIRSTPRIVATE &&
				    DECL_P(OMP_CLAUSE_DECL(c)))
					fpriv.insert(OMP_CLAUSE_DECL(c));
				break;
			case OMP_CLAUSE_DEFAULT:
				/* default(private / firstprivate): every variable the
				   loop names is the threads' own */
				if (OMP_CLAUSE_DEFAULT_KIND(c) == OMP_CLAUSE_DEFAULT_PRIVATE ||
				    OMP_CLAUSE_DEFAULT_KIND(c) == OMP_CLAUSE_DEFAULT_FIRSTPRIVATE) {
					*why = MP_MSG_OMP_DEFAULT;
					return false;
				}
				break;
			case OMP_CLAUSE_SCHEDULE:
				sched = OMP_CLAUSE_SCHEDULE_CHUNK_EXPR(c);
				break;
			case OMP_CLAUSE_SHARED:
			case OMP_CLAUSE_COLLAPSE: case OMP_CLAUSE_PROC_BIND: case OMP_CLAUSE_SAFELEN:
			case OMP_CLAUSE_SIMDLEN: case OMP_CLAUSE_ALIGNED: case OMP_CLAUSE_NOWAIT:
				break;
			case OMP_CLAUSE_NUM_THREADS:
				nt = OMP_CLAUSE_NUM_THREADS_EXPR(c);
				break;
			case OMP_CLAUSE_IF:
				if (OMP_CLAUSE_IF_MODIFIER(c) == ERROR_MARK ||
				    OMP_CLAUSE_IF_MODIFIER(c) == OMP_PARALLEL)
					cond = OMP_CLAUSE_IF_EXPR(c);
				break;
			default:
				snprintf(buf, sizeof buf, "the OpenMP directive on the loop has a '%s' "
					 "clause, which mixprec does not model: " MP_MSG_OMP_CLAUSE,
					 omp_clause_code_name[OMP_CLAUSE_CODE(c)]);
				*why = buf;
				return false;
			}
		}
	if ((nt && TREE_SIDE_EFFECTS(nt)) || (cond && TREE_SIDE_EFFECTS(cond)) ||
	    (sched && TREE_SIDE_EFFECTS(sched))) {
		*why = "an expression of the OpenMP directive's clauses has side effects (the "
		       "call that replaces the loop would evaluate it a second time)";
		return false;
	}
	tree pre = OMP_FOR_PRE_BODY(l);
	if (pre && TREE_CODE(pre) == STATEMENT_LIST) {
		for (tree_stmt_iterator i = tsi_start(pre); !tsi_end_p(i); tsi_next(&i))
			if (TREE_CODE(tsi_stmt(i)) != DECL_EXPR &&
			    TREE_CODE(tsi_stmt(i)) != DEBUG_BEGIN_STMT)
				pre = error_mark_node;
	} else if (pre && TREE_CODE(pre) != DECL_EXPR) {
		pre = error_mark_node;
	}
	if (pre == error_mark_node) {
		*why = "the OpenMP loop computes values before its first iteration (its "
		       "pre-body), which the copy mixprec analyses would not have";
		return false;
	}
	int depth = TREE_VEC_LENGTH(OMP_FOR_INIT(l));
	/* the directive's own location is the pragma's; its first loop's
	   init is on the line of the `for` (where clang puts the nest) */
	location_t loc = EXPR_LOCATION(TREE_VEC_ELT(OMP_FOR_INIT(l), 0));
	if (loc == UNKNOWN_LOCATION)
		loc = EXPR_LOCATION(l);

	/* what the copy remaps: the declarations inside it, the iterators
	   and the private variables; every other local stays itself */
	collect_data cd;
	tree body = OMP_FOR_BODY(l);
	walk_tree_without_duplicates(&body, collect_r, &cd);
	std::vector<tree> iters;
	/* the declarations of the construct (`for (int i = ...)`: in its
	   pre-body), out of scope after it */
	collect_data in_construct;
	walk_tree_without_duplicates(&x, collect_r, &in_construct);
	for (int d = 0; d < depth; d++) {
		tree parts[3] = { TREE_VEC_ELT(OMP_FOR_INIT(l), d), TREE_VEC_ELT(OMP_FOR_COND(l), d),
				  TREE_VEC_ELT(OMP_FOR_INCR(l), d) };
		for (tree &p : parts)
			walk_tree_without_duplicates(&p, collect_r, &cd);
		tree init = TREE_VEC_ELT(OMP_FOR_INIT(l), d);
		if (!init || TREE_CODE(init) != MODIFY_EXPR || !VAR_P(TREE_OPERAND(init, 0))) {
			*why = MP_MSG_OMP_LOOP;
			return false;
		}
		/* collapsed loops whose bounds name an outer one's iterator
		   (a triangle): not a loop nest OpenMP collapses as written */
		for (tree v : iters)
			for (int q = 0; q < 2; q++) {
				tree e = q ? TREE_OPERAND(init, 1)
					   : TREE_VEC_ELT(OMP_FOR_COND(l), d);
				if (e && walk_tree_without_duplicates(&e, mp_mentions_r, v)) {
					*why = MP_MSG_OMP_NONRECT;
					return false;
				}
			}
		iters.push_back(TREE_OPERAND(init, 0));
		/* the iterators of a simd loop are linear (lastprivate when
		   collapsed): the construct leaves their final values, so the
		   copy works on the originals; those of a parallel for are the
		   threads' own */
		if (TREE_CODE(l) != OMP_SIMD || in_construct.inner.count(TREE_OPERAND(init, 0)))
			priv.insert(TREE_OPERAND(init, 0));
	}
	/* a threadprivate variable: each thread of the team reads its own
	   copy, the call only the calling thread's */
	for (tree v : cd.used)
		if (VAR_P(v) && DECL_THREAD_LOCAL_P(v)) {
			snprintf(buf, sizeof buf, MP_MSG_OMP_TLS, IDENTIFIER_POINTER(DECL_NAME(v)));
			*why = buf;
			return false;
		}
	copy_body_data idd;
	memset(&idd, 0, sizeof idd);
	hash_map<tree, tree> dmap;
	idd.src_fn = fndecl;
	idd.dst_fn = fndecl;
	idd.src_cfun = DECL_STRUCT_FUNCTION(fndecl);
	idd.decl_map = &dmap;
	idd.copy_decl = copy_decl_no_change;
	idd.transform_call_graph_edges = CB_CGE_DUPLICATE;
	idd.transform_new_cfg = false;
	idd.transform_return_to_modify = false;
	idd.transform_parameter = true;
	for (tree v : cd.used)
		if (!cd.inner.count(v) && !priv.count(v))
			dmap.put(v, v);
	/* the new variables of the copy: the private ones (and iterators),
	   declared in the block that replaces the construct */
	tree vars = NULL_TREE;
	std::vector<std::pair<tree, tree>> firstpriv;
	for (tree v : priv) {
		if (!VAR_P(v) && TREE_CODE(v) != PARM_DECL)
			continue;
		tree nv = build_decl(DECL_SOURCE_LOCATION(v), VAR_DECL, DECL_NAME(v), TREE_TYPE(v));
		DECL_CONTEXT(nv) = fndecl;
		DECL_ARTIFICIAL(nv) = 1;
		DECL_IGNORED_P(nv) = 1;
		TREE_USED(nv) = 1;
		DECL_CHAIN(nv) = vars;
		vars = nv;
		dmap.put(v, nv);
		if (fpriv.count(v))
			firstpriv.push_back({ nv, v });
	}
	/* the loops: for (init; cond; incr) per collapsed level, BODY' inside */
	tree loop = copy_through(body, &idd);
	for (int d = depth - 1; d >= 0; d--) {
		tree f = make_node(FOR_STMT);
		TREE_TYPE(f) = void_type_node;
		SET_EXPR_LOCATION(f, loc);
		FOR_INIT_STMT(f) = copy_through(TREE_VEC_ELT(OMP_FOR_INIT(l), d), &idd);
		FOR_COND(f) = copy_through(TREE_VEC_ELT(OMP_FOR_COND(l), d), &idd);
		FOR_EXPR(f) = copy_through(TREE_VEC_ELT(OMP_FOR_INCR(l), d), &idd);
		FOR_BODY(f) = loop;
		loop = f;
	}
	/* a function of the same body: no abstract origins (those are for
	   inlined copies) */
	for (hash_map<tree, tree>::iterator it = dmap.begin(); it != dmap.end(); ++it) {
		tree from = (*it).first, to = (*it).second;
		if (from == to)
			continue;
		if (TREE_CODE(to) == BLOCK)
			BLOCK_ABSTRACT_ORIGIN(to) = NULL_TREE;
		else if (DECL_P(to))
			DECL_ABSTRACT_ORIGIN(to) = NULL_TREE;
	}

	tree go = build_decl(loc, VAR_DECL, get_identifier("__mixprec_go"), integer_type_node);
	tree twin = build_decl(loc, VAR_DECL, get_identifier("__mixprec_twin"), integer_type_node);
	tree ntv = build_decl(loc, VAR_DECL, get_identifier("__mixprec_nt"), long_integer_type_node);
	for (tree v : { go, twin, ntv }) {
		DECL_CONTEXT(v) = fndecl;
		DECL_ARTIFICIAL(v) = 1;
		DECL_IGNORED_P(v) = 1;
		TREE_USED(v) = 1;
		DECL_CHAIN(v) = vars;
		vars = v;
	}
	tree stmts = alloc_stmt_list();
	tree_stmt_iterator si = tsi_start(stmts);
	auto add = [&](tree s) { tsi_link_after(&si, s, TSI_CONTINUE_LINKING); };
	auto set = [&](tree v, tree val) {
		add(build2(MODIFY_EXPR, TREE_TYPE(v), v, fold_convert(TREE_TYPE(v), val)));
	};
	set(go, integer_one_node);
	set(twin, integer_zero_node);
	/* the thread count the directive asks for (0: its default) */
	tree n = nt ? fold_convert(long_integer_type_node, unshare_expr(nt))
		    : build_int_cst(long_integer_type_node, 0);
	if (cond)
		n = build3(COND_EXPR, long_integer_type_node,
			   fold_build2(NE_EXPR, boolean_type_node, unshare_expr(cond),
				       fold_convert(TREE_TYPE(cond), integer_zero_node)),
			   n, build_int_cst(long_integer_type_node, 1));
	set(ntv, n);
	/* the copy: the firstprivate values, then the marker right before
	   the loops */
	tree then = alloc_stmt_list();
	tree_stmt_iterator ti = tsi_start(then);
	for (auto &fp : firstpriv)
		tsi_link_after(&ti, build2(MODIFY_EXPR, TREE_TYPE(fp.first), fp.first, fp.second),
			       TSI_CONTINUE_LINKING);
	tsi_link_after(&ti, marker, TSI_CONTINUE_LINKING);
	tsi_link_after(&ti, loop, TSI_CONTINUE_LINKING);
	add(build3_loc(loc, COND_EXPR, void_type_node,
		       build2(NE_EXPR, boolean_type_node, twin, integer_zero_node), then, NULL_TREE));
	add(build3_loc(loc, COND_EXPR, void_type_node,
		       build2(NE_EXPR, boolean_type_node, go, integer_zero_node), x, NULL_TREE));
	tree bind = build3(BIND_EXPR, void_type_node, vars, stmts, NULL_TREE);
	TREE_SIDE_EFFECTS(bind) = 1;

	mp_pragma_rec &r = mp_pragmas[id];
	r.omp_go = go;
	r.omp_threads = nt || cond ? ntv : NULL_TREE;
	r.loop_loc = loc;
	r.omp_collapse = depth;
	r.omp_num_threads = nt != NULL_TREE;
	mp_keep_tree(go);
	mp_keep_tree(ntv);
	/* the construct's place takes the block; the marker moved into it */
	*tsi_stmt_ptr(xi) = bind;
	tsi_delink(&mi);
	return true;
}

/* ------------------------------- nests inside OpenMP regions (privatize) */

/* A nest inside a parallel region or a task whose iterators (or other
 * scalars it writes) are declared outside the construct, C89 style:
 *
 *   int i, j, k; int32_t s;
 *   #pragma omp parallel
 *   { #pragma omp single
 *     { #pragma mixprec(...)
 *       for (i = 0; i < M; i++) ... } }
 *
 * OpenMP lowering makes them shared variables of the outlined function,
 * read and written through the region's data block: no induction
 * variable is left for the glue.  clang's glue reads the AST, where they
 * are variables as any (corpus omp_regions).  Here each such variable
 * gets a copy declared in the innermost block inside the construct,
 * copied in before the marker and out after the loop: the nest reads and
 * writes the copy, one thread runs it (another thread touching the
 * variable meanwhile would be a data race in the program as written), and
 * the variable holds the same values after the nest.  Only automatic,
 * non-addressable scalars of this function, and only when the nest holds
 * no return or goto (which would skip the copy back). */

/* Does T construct an outlined OpenMP region (its body another function
 * after lowering)? */
static bool omp_outlining(tree t)
{
	switch (TREE_CODE(t)) {
	case OMP_PARALLEL: case OMP_TASK: case OMP_TARGET: case OMP_TEAMS: case OMP_TASKLOOP:
		return true;
	default:
		return false;
	}
}

struct priv_walk {
	std::set<tree> inner;   /* declared inside the innermost construct */
	std::vector<tree> written;
	bool blocked;           /* a return, a goto or a label in the nest
				   (a copy skipped), or a way to synchronise
				   with another thread: an OpenMP construct,
				   a call that is neither const nor pure (a
				   lock, an atomic builtin); a call of a
				   nested function (it reads the variables
				   themselves) */
};

static tree priv_scan_r(tree *tp, int *walk_subtrees, void *data)
{
	priv_walk *w = (priv_walk *)data;
	tree t = *tp;
	if (TYPE_P(t)) {
		*walk_subtrees = 0;
		return NULL_TREE;
	}
	if (TREE_CODE(t) >= OACC_PARALLEL && TREE_CODE(t) <= OMP_ATOMIC_CAPTURE_NEW) {
		w->blocked = true;
		return t;
	}
	switch (TREE_CODE(t)) {
	case RETURN_EXPR: case GOTO_EXPR:
	/* a label (or a case of a switch around) that a jump from outside
	   may reach: the copies would not have been made */
	case LABEL_EXPR: case CASE_LABEL_EXPR:
		w->blocked = true;
		return t;
	case CALL_EXPR: {
		tree fn = get_callee_fndecl(t);
		int id;
		if (!fn || mp_is_marker(t, &id) || decl_function_context(fn) ||
		    !(flags_from_decl_or_type(fn) & (ECF_CONST | ECF_PURE))) {
			w->blocked = true;
			return t;
		}
		break;
	}
	case BIND_EXPR:
		for (tree v = BIND_EXPR_VARS(t); v; v = DECL_CHAIN(v))
			w->inner.insert(v);
		break;
	case DECL_EXPR:
		w->inner.insert(DECL_EXPR_DECL(t));
		break;
	case MODIFY_EXPR: case INIT_EXPR: case PREINCREMENT_EXPR: case PREDECREMENT_EXPR:
	case POSTINCREMENT_EXPR: case POSTDECREMENT_EXPR: {
		tree l = TREE_OPERAND(t, 0);
		if ((VAR_P(l) || TREE_CODE(l) == PARM_DECL) &&
		    std::find(w->written.begin(), w->written.end(), l) == w->written.end())
			w->written.push_back(l);
		break;
	}
	default:
		break;
	}
	return NULL_TREE;
}

static tree priv_remap_r(tree *tp, int *walk_subtrees, void *data)
{
	std::map<tree, tree> *m = (std::map<tree, tree> *)data;
	if (TYPE_P(*tp)) {
		*walk_subtrees = 0;
		return NULL_TREE;
	}
	auto it = m->find(*tp);
	if (it != m->end())
		*tp = it->second;
	return NULL_TREE;
}

/* The marker at I, the nest's statements FIRST..LAST (the `i = 0;` the C
 * front end emits ahead of `for (; ...)`, when there is one, then the
 * loop); BIND: the innermost block inside the construct, INNER: what the
 * construct declares before it. */
static void privatize_nest(tree_stmt_iterator i, tree_stmt_iterator first,
			   tree_stmt_iterator last, tree bind, const std::set<tree> &inner)
{
	priv_walk w;
	w.blocked = false;
	w.inner = inner;
	for (tree_stmt_iterator k = first;; tsi_next(&k)) {
		walk_tree(tsi_stmt_ptr(k), priv_scan_r, &w, NULL);
		if (tsi_stmt(k) == tsi_stmt(last))
			break;
	}
	if (w.blocked)
		return;
	std::map<tree, tree> copy;
	for (tree v : w.written) {
		tree ty = TREE_TYPE(v);
		if (w.inner.count(v) || TREE_STATIC(v) || DECL_EXTERNAL(v) || TREE_ADDRESSABLE(v) ||
		    DECL_NONLOCAL(v) ||   /* used by a nested function */
		    TREE_THIS_VOLATILE(v) || DECL_CONTEXT(v) != current_function_decl ||
		    (VAR_P(v) && DECL_HARD_REGISTER(v)) || !DECL_NAME(v) ||
		    !(INTEGRAL_TYPE_P(ty) || SCALAR_FLOAT_TYPE_P(ty) || POINTER_TYPE_P(ty)) ||
		    TYPE_ATOMIC(ty) || TYPE_VOLATILE(ty))
			continue;
		tree c = build_decl(DECL_SOURCE_LOCATION(v), VAR_DECL, DECL_NAME(v), ty);
		DECL_CONTEXT(c) = current_function_decl;
		TREE_USED(c) = 1;
		DECL_READ_P(c) = 1;
		copy[v] = c;
	}
	if (copy.empty())
		return;
	for (tree_stmt_iterator k = first;; tsi_next(&k)) {
		walk_tree(tsi_stmt_ptr(k), priv_remap_r, &copy, NULL);
		if (tsi_stmt(k) == tsi_stmt(last))
			break;
	}
	/* declared in BIND (the C front end's BIND_EXPR_VARS and BLOCK_VARS
	   are one chain) */
	tree blk = BIND_EXPR_BLOCK(bind);
	bool shared = blk && BLOCK_VARS(blk) == BIND_EXPR_VARS(bind);
	tree *tail = &BIND_EXPR_VARS(bind);
	while (*tail)
		tail = &DECL_CHAIN(*tail);
	for (auto &e : copy) {
		*tail = e.second;
		tail = &DECL_CHAIN(e.second);
	}
	if (shared)
		BLOCK_VARS(blk) = BIND_EXPR_VARS(bind);
	location_t loc = EXPR_LOCATION(tsi_stmt(i));
	tree_stmt_iterator at = i;
	for (auto &e : copy)
		tsi_link_before(&at, build2_loc(loc, MODIFY_EXPR, TREE_TYPE(e.first), e.second, e.first),
				TSI_SAME_STMT);
	tree_stmt_iterator after = last;
	for (auto &e : copy)
		tsi_link_after(&after, build2_loc(loc, MODIFY_EXPR, TREE_TYPE(e.first), e.first, e.second),
			       TSI_NEW_STMT);
}

/* Walks T: OUTL the innermost outlining construct around (or NULL), BIND
 * the innermost BIND_EXPR inside it (or NULL), INNER the variables
 * declared inside it. */
static void privatize_walk(tree t, tree outl, tree bind, std::set<tree> &inner, int depth)
{
	if (!t || depth > 200)
		return;
	switch (TREE_CODE(t)) {
	case BIND_EXPR: {
		if (outl)
			for (tree v = BIND_EXPR_VARS(t); v; v = DECL_CHAIN(v))
				inner.insert(v);
		privatize_walk(BIND_EXPR_BODY(t), outl, outl ? t : NULL_TREE, inner, depth + 1);
		return;
	}
	case STATEMENT_LIST: {
		for (tree_stmt_iterator i = tsi_start(t); !tsi_end_p(i); tsi_next(&i)) {
			tree e = tsi_stmt(i);
			int id;
			if (outl && bind && mp_is_marker(e, &id) && !mp_pragmas[id].region &&
			    mp_pragmas[id].brace_loc == UNKNOWN_LOCATION) {
				tree_stmt_iterator n = mp_next_stmt(i);
				if (tsi_end_p(n))
					continue;
				tree_stmt_iterator first = n, last = n;
				if (!mp_loop_item(tsi_stmt(n)) && !mp_init_then_for(n, &last))
					continue;   /* (`i = 0;` before `for (; i < M; i++)`) */
				privatize_nest(i, first, last, bind, inner);
				continue;
			}
			privatize_walk(e, outl, bind, inner, depth + 1);
		}
		return;
	}
	case COND_EXPR:
		privatize_walk(COND_EXPR_THEN(t), outl, bind, inner, depth + 1);
		privatize_walk(COND_EXPR_ELSE(t), outl, bind, inner, depth + 1);
		return;
	case FOR_STMT: case WHILE_STMT: case DO_STMT: case SWITCH_STMT:
		privatize_walk(TREE_CODE(t) == FOR_STMT     ? FOR_BODY(t)
			       : TREE_CODE(t) == WHILE_STMT ? WHILE_BODY(t)
			       : TREE_CODE(t) == DO_STMT    ? DO_BODY(t)
							    : SWITCH_STMT_BODY(t),
			       outl, bind, inner, depth + 1);
		return;
	default:
		break;
	}
	if (TREE_CODE(t) < OMP_PARALLEL || TREE_CODE(t) > OMP_MASTER)
		return;
	/* an OpenMP construct: the variables its clauses make private are
	   the thread's own already */
	std::set<tree> in2;
	std::set<tree> &in = omp_outlining(t) ? in2 : inner;
	if (TREE_CODE(t) <= OMP_SCAN)
		for (tree c = OMP_CLAUSES(t); c; c = OMP_CLAUSE_CHAIN(c))
			switch (OMP_CLAUSE_CODE(c)) {
			case OMP_CLAUSE_PRIVATE: case OMP_CLAUSE_FIRSTPRIVATE:
			case OMP_CLAUSE_LASTPRIVATE: case OMP_CLAUSE_LINEAR:
			case OMP_CLAUSE_REDUCTION:
				in.insert(OMP_CLAUSE_DECL(c));
				break;
			default:
				break;
			}
	if (omp_outlining(t))
		privatize_walk(OMP_BODY(t), t, NULL_TREE, in2, depth + 1);
	else   /* single, master, critical, a worksharing loop, ...: not
		  outlined, its body */
		privatize_walk(OMP_BODY(t), outl, bind, inner, depth + 1);
}

/* See gcc-common.h. */
void mp_omp_privatize(tree fndecl)
{
	std::set<tree> inner;
	privatize_walk(DECL_SAVED_TREE(fndecl), NULL_TREE, NULL_TREE, inner, 0);
}
