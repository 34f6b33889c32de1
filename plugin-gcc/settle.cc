/* settle.cc -- where a lexed `#pragma mixprec` stands (plugin.cc
 * lex_pragma).  In C the pragma is run when the lexer reaches it, so that
 * it may stand between `#pragma omp parallel for` (or `#pragma GCC
 * unroll`) and its loop; its marker goes into the statement list the
 * parser is building at that moment.  That is the pragma's place, except
 * where the parser had looked one token past a statement before adding it:
 *
 *   if (c) x;         the parser asks whether `else` follows, and looks at
 *   for (...) x;      the token after a body (-Wmisleading-indentation),
 *                     before the if or loop statement is added: the marker
 *                     stands before that statement, or at the end of its
 *                     branch or body;
 *   for (...)         the parser looks at the body's first token before it
 *   #pragma mixprec   opens the body: the marker stands before the loop;
 *     for (...)
 *   #pragma omp parallel for
 *   #pragma mixprec   the marker stands inside the construct, before its
 *   for (...)         loop: it goes before the construct, as in the other
 *                     order (omp.cc reads that one).
 *
 *   else / do         the same for `else` and `do` (the do statement's
 *   #pragma mixprec   location is its body's: the source text shows the
 *     for (...)       `do`).
 *
 * Before genericization each such marker moves past the statements that
 * start before its pragma, out of the bodies and branches it ends, into
 * the body or branch of a statement whose head precedes it, or out of a
 * combined OpenMP construct; a statement with a part after the pragma
 * that is no body (a condition, an `else` after the pragma, a do loop's
 * `while`) holds it: an error.  Positions are compared where the tokens
 * show on the pragma's line (macro arguments, macro invocations), else at
 * their macros' expansion points.  The token after the pragma's line
 * (plugin.cc line_change) says what the parse-time handler peeked at: ';'
 * or '}' (errors: '}' ends a block that the C front end may have spliced
 * into the enclosing list), '{' (perhaps a region).
 */
#include "gcc-common.h"

/* Where statement T starts (its first statement for a list or an
 * unlocated scope), UNKNOWN_LOCATION when not known. */
static location_t stmt_start(tree t)
{
	while (t) {
		if (TREE_CODE(t) == STATEMENT_LIST) {
			tree_stmt_iterator i = tsi_start(t);
			if (tsi_end_p(i))
				return UNKNOWN_LOCATION;
			t = tsi_stmt(i);
			continue;
		}
		if (TREE_CODE(t) == BIND_EXPR && EXPR_LOCATION(t) == UNKNOWN_LOCATION) {
			t = BIND_EXPR_BODY(t);
			continue;
		}
		if (TREE_CODE(t) == DECL_EXPR && EXPR_LOCATION(t) == UNKNOWN_LOCATION)
			return DECL_SOURCE_LOCATION(DECL_EXPR_DECL(t));
		return EXPR_LOCATION(t);
	}
	return UNKNOWN_LOCATION;
}

/* Does location A come before B in the same file (macro expansions at
 * their expansion points)? */
static bool loc_before(location_t a, location_t b)
{
	if (a == UNKNOWN_LOCATION || b == UNKNOWN_LOCATION)
		return false;
	a = linemap_resolve_location(line_table, a, LRK_MACRO_EXPANSION_POINT, NULL);
	b = linemap_resolve_location(line_table, b, LRK_MACRO_EXPANSION_POINT, NULL);
	expanded_location x = expand_location(a), y = expand_location(b);
	if (!x.file || !y.file || strcmp(x.file, y.file) != 0)
		return false;
	return x.line < y.line || (x.line == y.line && x.column < y.column);
}

/* Locations A and B on the same line of the same file (the constructs of
 * one combined OpenMP directive). */
static bool same_line(location_t a, location_t b)
{
	if (a == UNKNOWN_LOCATION || b == UNKNOWN_LOCATION)
		return false;
	expanded_location x = expand_location(a), y = expand_location(b);
	return x.file && y.file && !strcmp(x.file, y.file) && x.line == y.line;
}

/* A loop directive of OpenMP / OpenACC (or the scope the C front end
 * opens around one for `for (int i = ...)`). */
static bool omp_loop(tree t)
{
	while (t && TREE_CODE(t) == BIND_EXPR)
		t = mp_scope_first(t);
	if (!t)
		return false;
	switch (TREE_CODE(t)) {
	case OMP_FOR: case OMP_SIMD: case OMP_DISTRIBUTE: case OMP_TASKLOOP:
	case OMP_LOOP: case OACC_LOOP:
		return true;
	default:
		return false;
	}
}

/* The statement slots inside T (bodies, branches) where statements of
 * the source stand. */
static void stmt_slots(tree t, std::vector<tree *> &out)
{
	switch (TREE_CODE(t)) {
	case BIND_EXPR: out.push_back(&BIND_EXPR_BODY(t)); break;
	case COND_EXPR: out.push_back(&TREE_OPERAND(t, 1)); out.push_back(&TREE_OPERAND(t, 2)); break;
	case FOR_STMT: out.push_back(&FOR_BODY(t)); break;
	case WHILE_STMT: out.push_back(&WHILE_BODY(t)); break;
	case DO_STMT: out.push_back(&DO_BODY(t)); break;
	case SWITCH_STMT: out.push_back(&SWITCH_STMT_BODY(t)); break;
	case SWITCH_EXPR: out.push_back(&SWITCH_BODY(t)); break;
	case TRY_FINALLY_EXPR: case TRY_CATCH_EXPR:
		out.push_back(&TREE_OPERAND(t, 0)); out.push_back(&TREE_OPERAND(t, 1)); break;
	case OMP_PARALLEL: case OMP_TASK: case OMP_FOR: case OMP_SIMD: case OMP_DISTRIBUTE:
	case OMP_TASKLOOP: case OMP_LOOP: case OACC_LOOP: case OMP_TEAMS: case OMP_TARGET:
	case OMP_TARGET_DATA: case OMP_SECTIONS: case OMP_SECTION: case OMP_SINGLE:
	case OMP_MASTER: case OMP_MASKED: case OMP_CRITICAL: case OMP_ORDERED:
	case OMP_TASKGROUP: case OMP_SCOPE: case OACC_PARALLEL: case OACC_KERNELS:
	case OACC_SERIAL: case OACC_DATA:
		out.push_back(&TREE_OPERAND(t, 0)); break;
	default: break;
	}
}

/* Where location L stands against pragma R: -1 before, 1 after, 0 not
 * known (another file, no location, or the same line as a _Pragma whose
 * column is not known: its tokens have the line where the lexer stood and
 * columns of their own string; plugin.cc finds the column of a _Pragma
 * written in the line's text). */
enum { AT_BEFORE = -1, AT_SAME = 0, AT_AFTER = 1, AT_UNKNOWN = 2 };

static int cmp_pragma(location_t l, const mp_pragma_rec &r)
{
	if (l == UNKNOWN_LOCATION || r.pragma_loc == UNKNOWN_LOCATION)
		return AT_UNKNOWN;
	location_t b = linemap_resolve_location(line_table, r.pragma_loc, LRK_MACRO_EXPANSION_POINT,
						NULL);
	expanded_location y = expand_location(b);
	if (!y.file)
		return AT_UNKNOWN;
	/* a token from a macro: where it shows on the pragma's line (a
	   macro's argument, or the invocation of the macro it comes from),
	   else where the outermost macro is invoked */
	expanded_location x = expand_location(
		linemap_resolve_location(line_table, l, LRK_MACRO_EXPANSION_POINT, NULL));
	location_t u = l;
	/* a macro's argument written after the start of the outermost
	   invocation, on another line than the pragma (`CALL(PR,` then the
	   loop on the next lines): where it is written (a macro's own
	   tokens are spelled in its definition, before the invocation) */
	expanded_location sp0 = expand_location(
		linemap_resolve_location(line_table, l, LRK_SPELLING_LOCATION, NULL));
	if (linemap_location_from_macro_expansion_p(line_table, l) && sp0.file && x.file &&
	    !strcmp(sp0.file, y.file) && !strcmp(x.file, y.file) && sp0.line != y.line &&
	    (sp0.line > x.line || (sp0.line == x.line && sp0.column > x.column)))
		u = UNKNOWN_LOCATION, x = sp0;
	for (int hop = 0; u != UNKNOWN_LOCATION && hop < 32; hop++) {
		expanded_location sp = expand_location(
			linemap_resolve_location(line_table, u, LRK_SPELLING_LOCATION, NULL));
		if (sp.file && !strcmp(sp.file, y.file) && sp.line == y.line) {
			x = sp;
			break;
		}
		if (!linemap_location_from_macro_expansion_p(line_table, u))
			break;
		const line_map *m = linemap_lookup(line_table, u);
		u = linemap_unwind_toward_expansion(line_table, u, &m);
	}
	if (!x.file || strcmp(x.file, y.file) != 0)
		return AT_UNKNOWN;
	if (x.line != y.line)
		return x.line < y.line ? AT_BEFORE : AT_AFTER;
	int col = r.directive ? y.column : r.pragma_col;
	if (col <= 0)
		return AT_UNKNOWN;
	/* the expansion of the macro whose arguments hold the _Pragma (a
	   function defined by a macro): no order */
	if (!r.directive && r.pragma_macro_col > 0 && x.column == r.pragma_macro_col)
		return AT_UNKNOWN;
	if (x.column == col)
		return AT_SAME;
	return x.column < col ? AT_BEFORE : AT_AFTER;
}

static bool before_pragma(location_t l, const mp_pragma_rec &r)
{
	return cmp_pragma(l, r) == AT_BEFORE;
}

/* Does T (a statement, its expressions and statements) hold a location
 * after pragma R? */
struct after_ctx {
	const mp_pragma_rec *r;
	hash_set<tree> *seen;
};

static tree after_r(tree *tp, int *walk_subtrees, void *data)
{
	after_ctx *c = (after_ctx *)data;
	tree t = *tp;
	if (TYPE_P(t) || (DECL_P(t) && TREE_CODE(t) != VAR_DECL)) {
		*walk_subtrees = 0;
		return NULL_TREE;
	}
	if (TREE_CODE(t) == VAR_DECL) {
		*walk_subtrees = 0;
		if (DECL_INITIAL(t) && !c->seen->add(t))
			return walk_tree(&DECL_INITIAL(t), after_r, data, NULL);
		return NULL_TREE;
	}
	if (CAN_HAVE_LOCATION_P(t) && cmp_pragma(EXPR_LOCATION(t), *c->r) == AT_AFTER)
		return t;
	return NULL_TREE;
}

static bool holds_after(tree t, const mp_pragma_rec &r)
{
	if (!t)
		return false;
	hash_set<tree> seen;
	after_ctx c = { &r, &seen };
	return walk_tree_without_duplicates(&t, after_r, &c) != NULL_TREE;
}

/* Is the token before pragma R the keyword `do` (in the source text: on
 * its line before a _Pragma, or ending the last line before a '#pragma'
 * line that is not blank, a comment or another directive)? */
static bool ends_with_do(std::string t)
{
	size_t c = t.find("//");
	if (c != std::string::npos)
		t.erase(c);
	while ((c = t.find("/*")) != std::string::npos) {
		size_t e = t.find("*/", c + 2);
		t.erase(c, e == std::string::npos ? std::string::npos : e + 2 - c);
	}
	while (!t.empty() && ISSPACE((unsigned char)t.back()))
		t.pop_back();
	return t.size() >= 2 && t.compare(t.size() - 2, 2, "do") == 0 &&
	       (t.size() == 2 || !ISIDNUM((unsigned char)t[t.size() - 3]));
}

static bool after_do(const mp_pragma_rec &r)
{
	expanded_location y = expand_location(
		linemap_resolve_location(line_table, r.pragma_loc, LRK_MACRO_EXPANSION_POINT, NULL));
	if (!y.file || y.line <= 0)
		return false;
	if (!r.directive) {
		if (r.pragma_col <= 0)
			return false;
		char_span span = location_get_source_line(y.file, y.line);
		if (!span)
			return false;
		std::string t(span.get_buffer(), std::min((size_t)r.pragma_col - 1, span.length()));
		for (char ch : t)
			if (!ISSPACE((unsigned char)ch))
				return ends_with_do(t);
	}
	for (int l = y.line - 1; l > 0 && l >= y.line - 50; l--) {
		char_span span = location_get_source_line(y.file, l);
		if (!span)
			return false;
		std::string t(span.get_buffer(), span.length());
		size_t c = 0;
		while (c < t.size() && ISSPACE((unsigned char)t[c]))
			c++;
		if (c == t.size() || t[c] == '#' || t.compare(c, 2, "//") == 0)
			continue;
		return ends_with_do(t);
	}
	return false;
}

/* A statement that starts before pragma R whose part starting after it is
 * a body or branch, everything before that part before the pragma: the
 * parser looked at that part's first token (the pragma's) before it
 * opened it (`for (...)`, `while (...)`, `do`, `else` then the pragma and
 * the loop).  That part's slot, or NULL. */
static tree *slot_after(tree e, const mp_pragma_rec &r)
{
	tree *slot = NULL;
	std::vector<tree> head;
	switch (TREE_CODE(e)) {
	case FOR_STMT:
		head = { FOR_INIT_STMT(e), FOR_COND(e), FOR_EXPR(e) };
		slot = &FOR_BODY(e);
		break;
	case WHILE_STMT:
		head = { WHILE_COND(e) };
		slot = &WHILE_BODY(e);
		break;
	case DO_STMT:
		slot = &DO_BODY(e);
		break;
	case SWITCH_STMT:
		head = { SWITCH_STMT_COND(e) };
		slot = &SWITCH_STMT_BODY(e);
		break;
	case COND_EXPR:
		head = { TREE_OPERAND(e, 0) };
		slot = &TREE_OPERAND(e, 1);
		if (*slot && cmp_pragma(stmt_start(*slot), r) == AT_BEFORE) {
			head.push_back(*slot);
			slot = &TREE_OPERAND(e, 2);
		}
		break;
	default:
		return NULL;
	}
	int c = *slot ? cmp_pragma(stmt_start(*slot), r) : AT_UNKNOWN;
	if (c != AT_AFTER && c != AT_SAME)   /* the same: both from one macro */
		return NULL;
	for (tree h : head)
		if (holds_after(h, r))
			return NULL;
	return slot;
}

/* Where the loop of OpenMP loop directive T (omp_loop) starts: its first
 * condition, in the `for` header. */
static location_t omp_loop_header(tree t)
{
	while (t && TREE_CODE(t) == BIND_EXPR)
		t = mp_scope_first(t);
	if (!t || !omp_loop(t) || !OMP_FOR_COND(t) || TREE_VEC_LENGTH(OMP_FOR_COND(t)) < 1)
		return UNKNOWN_LOCATION;
	return EXPR_LOCATION(TREE_VEC_ELT(OMP_FOR_COND(t), 0));
}

static bool lexed_marker(tree t, int *id)
{
	return mp_is_marker(t, id) && *id >= 0 && *id < (int)mp_pragmas.size() &&
	       mp_pragmas[*id].lexed;
}

/* M first in body *BODY (a list made of it when it is not one). */
static void put_first(tree *body, tree m)
{
	if (!*body || TREE_CODE(*body) != STATEMENT_LIST) {
		tree b = alloc_stmt_list();
		if (*body)
			append_to_statement_list_force(*body, &b);
		*body = b;
	}
	tree_stmt_iterator bi = tsi_start(*body);
	tsi_link_before(&bi, m, TSI_SAME_STMT);
}

/* Does S come first in LIST (past -g's debug markers)? */
static bool first_in(tree list, tree s)
{
	for (tree_stmt_iterator q = tsi_start(list); !tsi_end_p(q) && tsi_stmt(q) != s; tsi_next(&q))
		if (!mp_is_debug_marker(tsi_stmt(q)))
			return false;
	return true;
}

/* Pragma R stands where no loop can follow it. */
static void not_before_loop(mp_pragma_rec &r)
{
	r.lexed = false;
	r.bad = true;
	error_at(r.pragma_loc, "%<#pragma mixprec%> must be followed by a %<for%> or %<while%> loop");
}

struct settle_out {
	tree marker = NULL_TREE;   /* leaving the slot */
	bool before = false;       /* to stand before the slot's statement
	                              (else after it) */
	location_t omp = UNKNOWN_LOCATION;   /* before: the directive's */
};

static settle_out settle_slot(tree *slot, tree omp_owner);

/* One statement list (OMP_OWNER: the OpenMP construct whose body it is,
 * through scopes only).  A lexed marker moves past the statements that
 * start before its pragma (the if statement whose `else` the parser
 * looked for), leaves the list at its end (an if nested in a branch or a
 * loop body), and leaves the construct whose loop it stands before
 * (`#pragma omp parallel for` then `#pragma mixprec`: the marker goes
 * before the construct, as if the pragmas were in the other order). */
static settle_out settle_list(tree list, tree omp_owner)
{
	settle_out none;
	tree arrived = NULL_TREE;   /* a marker that left a statement of LIST */
	for (tree_stmt_iterator it = tsi_start(list); !tsi_end_p(it);) {
		tree s = tsi_stmt(it);
		int id;
		if (lexed_marker(s, &id)) {
			mp_pragma_rec &r = mp_pragmas[id];
			r.lexed = false;   /* settled (or left where it is) */
			tree_stmt_iterator n = mp_next_stmt(it);
			while (!tsi_end_p(n) && TREE_CODE(tsi_stmt(n)) == DECL_EXPR)
				n = mp_next_stmt(n);
			/* before an OpenMP loop directive whose loop starts after
			   the pragma: the pragma stood between them */
			if (!tsi_end_p(n) && omp_loop(tsi_stmt(n)) &&
			    !before_pragma(omp_loop_header(tsi_stmt(n)), r)) {
				location_t ol = mp_omp_location(tsi_stmt(n));
				if (first_in(list, s) && omp_owner &&
				    same_line(EXPR_LOCATION(omp_owner), ol)) {
					tsi_delink(&it);
					settle_out o;
					o.marker = s;
					o.before = true;
					o.omp = ol;
					return o;
				}
				tsi_next(&it);
				continue;
			}
			/* past what starts before the pragma (the parser looked
			   for `else`, or at the token after a body for
			   -Wmisleading-indentation, before it added the if or
			   loop statement) */
			bool moved = s == arrived;
			for (;;) {
				tree_stmt_iterator nx = it;
				tsi_next(&nx);
				if (tsi_end_p(nx))
					break;
				tree e = tsi_stmt(nx);
				/* a label on the pragma's line (`L: _Pragma(...)
				   for ...`) is before it */
				bool label = TREE_CODE(e) == LABEL_EXPR || TREE_CODE(e) == CASE_LABEL_EXPR;
				int c = cmp_pragma(stmt_start(e), r);
				/* `do` then the pragma: the do statement's location is
				   its body's first token, after the pragma; the source
				   text shows the `do` */
				if (TREE_CODE(e) == DO_STMT && c != AT_BEFORE && after_do(r)) {
					tsi_delink(&it);   /* it now at e */
					put_first(&DO_BODY(e), s);
					break;
				}
				if (mp_is_marker(e, &id) || (c != AT_BEFORE && !(c == AT_SAME && label)))
					break;
				/* its body or branch starts after the pragma: the
				   pragma stands at that part's start */
				if (tree *body = slot_after(e, r)) {
					tsi_delink(&it);   /* it now at e */
					put_first(body, s);
					break;
				}
				/* a part of it after the pragma (a condition, an
				   expression, `while (...)` of a do loop): the pragma
				   stands inside a statement */
				if (holds_after(e, r)) {
					tsi_delink(&it);   /* it now at e */
					not_before_loop(r);
					break;
				}
				tsi_delink(&it);   /* it now at e */
				tsi_link_after(&it, s, TSI_NEW_STMT);
				moved = true;
			}
			if (tsi_stmt(it) != s)
				continue;   /* into the loop's body, at E */
			tree_stmt_iterator nx = it;
			tsi_next(&nx);
			/* at the end of a body or branch: the parser looked at
			   the token after it (the pragma's) before closing it,
			   unless that token closes the block the pragma is in */
			if (tsi_end_p(nx) && (moved || !r.close_next)) {
				tsi_delink(&it);
				settle_out o;
				o.marker = s;
				return o;
			}
			tsi_next(&it);
			continue;
		}
		settle_out o = settle_slot(tsi_stmt_ptr(it), omp_owner);
		if (!o.marker) {
			tsi_next(&it);
			continue;
		}
		if (o.before) {
			if (first_in(list, s) && omp_owner && same_line(EXPR_LOCATION(omp_owner), o.omp))
				return o;   /* out of a combined construct */
			tsi_link_before(&it, o.marker, TSI_SAME_STMT);
			tsi_next(&it);
			continue;
		}
		/* after S, and on from there */
		int id2;
		mp_is_marker(o.marker, &id2);
		mp_pragmas[id2].lexed = true;
		tsi_link_after(&it, o.marker, TSI_NEW_STMT);
		arrived = o.marker;
	}
	return none;
}

/* A slot (a body or branch of a statement, OMP_OWNER as for settle_list):
 * a list, a lone marker, or a lone statement.  A marker leaving the slot's
 * statement stands after it (nothing follows it in the slot: it leaves
 * the slot too) or before it (the slot becomes a list, unless it leaves a
 * combined OpenMP construct too). */
static settle_out settle_slot(tree *slot, tree omp_owner)
{
	settle_out none;
	tree t = *slot;
	if (!t)
		return none;
	if (TREE_CODE(t) == STATEMENT_LIST)
		return settle_list(t, omp_owner);
	int id;
	if (lexed_marker(t, &id)) {
		/* alone in a branch or body, closed before the pragma's
		   statement was parsed: `if (c) { PRAGMA }` (a block of the
		   marker alone is the marker) is an error, as in a list
		   (drop_semi_r); GCC annotated the loop after the if */
		mp_pragmas[id].lexed = false;
		if (mp_pragmas[id].close_next || mp_pragmas[id].semi_next) {
			mp_pragmas[id].close_next = mp_pragmas[id].semi_next = false;
			not_before_loop(mp_pragmas[id]);
			*slot = build_empty_stmt(EXPR_LOCATION(t));
			return none;
		}
		settle_out o;
		*slot = build_empty_stmt(EXPR_LOCATION(t));
		o.marker = t;
		return o;
	}
	std::vector<tree *> slots;
	stmt_slots(t, slots);
	bool omp = mp_omp_construct(t) && TREE_CODE(t) != BIND_EXPR;
	tree owner = omp ? t : (TREE_CODE(t) == BIND_EXPR ? omp_owner : NULL_TREE);
	for (tree *sl : slots) {
		tree u = *sl;
		settle_out o = settle_slot(sl, owner);
		if (!o.marker)
			continue;
		if (!o.before) {
			/* out of T's body or branch: a part of T after the
			   pragma (an `else`, a do loop's `while`) means the
			   pragma stands inside T */
			int id2;
			mp_is_marker(o.marker, &id2);
			mp_pragma_rec &r = mp_pragmas[id2];
			if (holds_after(t, r)) {
				not_before_loop(r);
				return none;
			}
			return o;
		}
		if (!u || TREE_CODE(u) == STATEMENT_LIST || u != *sl ||
		    (owner && same_line(EXPR_LOCATION(owner), o.omp)))
			return o;
		put_first(sl, o.marker);
	}
	return none;
}

/* The markers of lexed pragmas, each where the pragma stands (see
 * lex_pragma); an empty statement after one is an error, as the
 * parse-time handler reports it. */
static tree drop_semi_r(tree *tp, int *walk_subtrees, void *)
{
	if (TREE_CODE(*tp) != STATEMENT_LIST)
		return NULL_TREE;
	for (tree_stmt_iterator i = tsi_start(*tp); !tsi_end_p(i);) {
		int id;
		if (mp_is_marker(tsi_stmt(i), &id) && id >= 0 && id < (int)mp_pragmas.size() &&
		    (mp_pragmas[id].semi_next || mp_pragmas[id].close_next)) {
			/* ';' or '}' right after the pragma (a block without
			   declarations is spliced into the enclosing list: the
			   marker would annotate the loop after the block) */
			mp_pragmas[id].semi_next = mp_pragmas[id].close_next = false;
			not_before_loop(mp_pragmas[id]);
			tsi_delink(&i);
			continue;
		}
		tsi_next(&i);
	}
	*walk_subtrees = 1;
	return NULL_TREE;
}

void mp_settle_markers(tree fndecl)
{
	bool any = false;
	for (const mp_pragma_rec &r : mp_pragmas)
		any |= r.lexed || r.semi_next || r.close_next;
	if (!any)
		return;
	walk_tree_without_duplicates(&DECL_SAVED_TREE(fndecl), drop_semi_r, NULL);
	for (;;) {
		settle_out o = settle_slot(&DECL_SAVED_TREE(fndecl), NULL_TREE);
		if (!o.marker)
			break;
		/* out of the function's body: nothing follows it there */
		int id;
		mp_is_marker(o.marker, &id);
		not_before_loop(mp_pragmas[id]);
	}
	for (mp_pragma_rec &r : mp_pragmas)
		r.lexed = false;
}

