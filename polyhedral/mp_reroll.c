/* mp_reroll.c -- reductions unrolled along k, with their remainder loop,
 * back into the one loop they are (mp_reroll, mp_nest.h).
 *
 * Hand-optimised C unrolls the reduction and finishes it in a second loop
 * that continues the same iterator:
 *
 *   int k = 0;                                  described as
 *   for (; k + 3 < K; k += 4)                     loop k1: step 4, hi K-4
 *     s += A[k]*B[k] + A[k+1]*B[k+1]              loop k2: after=k1, hi K-1
 *        + A[k+2]*B[k+2] + A[k+3]*B[k+3];
 *   for (; k < K; k++)                          becomes
 *     s += A[k]*B[k];                             loop k1: step 1, hi K-1
 *                                                   s += A[k]*B[k]
 *
 * (the four updates may also be four statements `s += A[k+c]*B[k+c]`).
 * k1 runs k = lo, lo+u, ... while k + u-1 <= hi1 and touches every value
 * below where it stops; k2 takes over from there up to hi2.  When
 * hi2 - hi1 >= u-1 (k1 never passes hi2) the two together visit every k
 * of [lo, hi2] once, and k's final value is the one loop's.  The sum is
 * the same up to the order of the additions: exact for integer sources
 * (modulo 2^32, as the source's int32 arithmetic), and a reordering the
 * error bound of a floating-point source already allows.
 *
 * The rewrite keeps the glue's access and expression ids valid: k1 keeps
 * the statement holding the update at offset 0 (its right-hand side
 * becomes acc + that term); the accesses of the other updates and of k2's
 * statement stay in the table as reads of that statement at its own
 * offsets (duplicates: harmless to every question asked later); the other
 * statements and loop k2 leave the tables, and n->absorbed records k2's
 * glue id: the glue drops it from its own loop list and skips it on the
 * fast path (tile mode), where the whole nest is not the fallback.
 *
 * Anything else (another statement in either loop, a term that matches no
 * offset, a step that is not covered exactly once, a read of k itself, a
 * walking pointer) leaves the nest as described: the planner then refuses
 * loop k2 ("continues where the loop before it stopped").
 *
 * Expected workload: at most a few loops per nest; linear scans.
 */
#include "mp_nest.h"

#include <string.h>

static const mp_expr *X(const mp_nest *n, int e)
{
	return e >= 0 && e < n->nexprs ? &n->expr[e] : NULL;
}

/* r = a with iterator FROM replaced by TO + C. */
static int aff_shift(const mp_aff *a, int from, int to, int64_t c, mp_aff *r)
{
	mp_aff coef, add;
	int i;

	mp_aff_coef_of(a, from, &coef);
	*r = *a;
	for (i = 0; i < r->n; i++) {
		if (r->t[i].v1 == from)
			r->t[i].v1 = to;
		if (r->t[i].v2 == from)
			r->t[i].v2 = to;
	}
	if (mp_aff_scale(&add, &coef, c) < 0)
		return -1;
	return mp_aff_add(r, r, &add);
}

static void rename_var(mp_aff *a, int from, int to)
{
	mp_aff r;
	int i;

	if (!mp_aff_uses_var(a, from))
		return;
	for (i = 0; i < a->n; i++) {
		if (a->t[i].v1 == from)
			a->t[i].v1 = to;
		if (a->t[i].v2 == from)
			a->t[i].v2 = to;
	}
	/* terms may now coincide: re-add them */
	mp_aff_const(&r, a->cst);
	for (i = 0; i < a->n; i++) {
		mp_aff t;

		t.cst = 0;
		t.n = 1;
		t.t[0] = a->t[i];
		if (mp_aff_add(&r, &r, &t) < 0)
			return;
	}
	*a = r;
}

typedef struct rr {
	mp_nest *n;
	int k1, k2, kv1, kv2;
	int64_t u;
	/* accesses paired while comparing a term with the template */
	int pair[MP_MAX_ACCESSES][2];
	int npair;
} rr;

/* E1 (in k1, iterator kv1) is E2 (the template, in k2, iterator kv2) at
 * offset C: the same tree, its loads C elements of k further on. */
static int same_shifted(rr *r, int e1, int e2, int64_t c)
{
	const mp_nest *n = r->n;
	const mp_expr *a = X(n, e1), *b = X(n, e2);
	int i;

	if (!a || !b)
		return !a && !b;
	if (a->kind != b->kind || a->type != b->type)
		return 0;
	switch (a->kind) {
	case MP_X_CONST:
		return a->cst == b->cst && (a->fcst == b->fcst || (a->fcst != a->fcst && b->fcst != b->fcst));
	case MP_X_VAR:
		/* k itself as a value: not followed */
		return a->var == b->var && a->var != r->kv1 && a->var != r->kv2;
	case MP_X_LOAD: {
		const mp_access *x, *y;
		mp_aff sh;

		if (a->access < 0 || b->access < 0 || a->access >= n->naccesses ||
		    b->access >= n->naccesses)
			return 0;
		x = &n->access[a->access];
		y = &n->access[b->access];
		if (x->array != y->array || x->elem != y->elem ||
		    x->elem_size != y->elem_size || !x->affine || !y->affine || x->is_write ||
		    y->is_write || x->via >= 0 || y->via >= 0 || r->npair >= MP_MAX_ACCESSES ||
		    aff_shift(&y->off, r->kv2, r->kv1, c * x->elem_size, &sh) < 0 ||
		    !mp_aff_equal(&sh, &x->off))
			return 0;
		r->pair[r->npair][0] = a->access;
		r->pair[r->npair][1] = b->access;
		r->npair++;
		return 1;
	}
	case MP_X_CAST: case MP_X_NEG:
		return same_shifted(r, a->a, b->a, c);
	case MP_X_ADD: case MP_X_SUB: case MP_X_MUL:
		return same_shifted(r, a->a, b->a, c) && same_shifted(r, a->b, b->b, c);
	case MP_X_OTHER:
		return !strcmp(a->op, b->op) && same_shifted(r, a->a, b->a, c) &&
		       same_shifted(r, a->b, b->b, c);
	case MP_X_CALL:
		if (strcmp(a->op, b->op) || a->nargs != b->nargs)
			return 0;
		for (i = 0; i < a->nargs; i++)
			if (!same_shifted(r, a->args[i], b->args[i], c))
				return 0;
		return 1;
	}
	return 0;
}

/* The accumulator a statement updates: its variable, or its memory
 * access (array and offset, which must not involve k). */
typedef struct accum {
	int var;           /* LOCAL var, or -1 */
	int array;         /* memory: array and offset */
	mp_aff off;
	mp_scalar type;
} accum;

static int is_acc_read(const mp_nest *n, const accum *ac, int e)
{
	const mp_expr *x = X(n, e);

	if (!x || x->type != ac->type)
		return 0;
	if (ac->var >= 0)
		return x->kind == MP_X_VAR && x->var == ac->var;
	return x->kind == MP_X_LOAD && x->access >= 0 && n->access[x->access].array == ac->array &&
	       n->access[x->access].affine && mp_aff_equal(&n->access[x->access].off, &ac->off);
}

/* The terms of E, a sum (ADD nodes of the accumulator's type) holding one
 * read of the accumulator: into terms[], the read into *acc_e.  0 when E
 * is not such a sum. */
static int sum_terms(const mp_nest *n, const accum *ac, int e, int *terms, int *nt, int max,
		     int *acc_e)
{
	const mp_expr *x = X(n, e);

	if (!x)
		return 0;
	if (is_acc_read(n, ac, e)) {
		if (*acc_e >= 0)
			return 0;
		*acc_e = e;
		return 1;
	}
	if (x->kind == MP_X_ADD && x->type == ac->type)
		return sum_terms(n, ac, x->a, terms, nt, max, acc_e) &&
		       sum_terms(n, ac, x->b, terms, nt, max, acc_e);
	if (*nt >= max)
		return 0;
	terms[(*nt)++] = e;
	return 1;
}

static int stmt_accum(const mp_nest *n, int s, accum *ac)
{
	const mp_stmt *st = &n->stmt[s];

	memset(ac, 0, sizeof(*ac));
	ac->var = -1;
	ac->array = -1;
	if (st->guarded || st->ptr_assign || st->ivstep || st->rhs < 0)
		return 0;
	if (st->kind == MP_S_ASSIGN && st->lhs_var >= 0 && n->var[st->lhs_var].kind == MP_VAR_LOCAL) {
		ac->var = st->lhs_var;
		ac->type = n->var[st->lhs_var].type;
		return 1;
	}
	if (st->kind == MP_S_STORE && st->lhs_access >= 0 && n->access[st->lhs_access].affine) {
		ac->array = n->access[st->lhs_access].array;
		ac->off = n->access[st->lhs_access].off;
		ac->type = n->access[st->lhs_access].elem;
		return 1;
	}
	return 0;
}

static int same_accum(const accum *a, const accum *b)
{
	return a->var == b->var && a->array == b->array && a->type == b->type &&
	       (a->var >= 0 || mp_aff_equal(&a->off, &b->off));
}

/* Remove statement S from the table (nothing refers to it any more: its
 * accesses were moved to another statement). */
static void drop_stmt(mp_nest *n, int s)
{
	int a;

	for (a = 0; a < n->naccesses; a++)
		if (n->access[a].stmt > s)
			n->access[a].stmt--;
	memmove(&n->stmt[s], &n->stmt[s + 1], (size_t)(n->nstmts - s - 1) * sizeof(mp_stmt));
	n->nstmts--;
}

/* Remove loop L (no statement or loop inside it any more). */
static void drop_loop(mp_nest *n, int l)
{
	int v, s, q, parent = n->loop[l].parent, pos = n->loop[l].pos;

	if (n->nabsorbed < MP_MAX_LOOPS)
		n->absorbed[n->nabsorbed++] = n->loop[l].orig;
	for (q = 0; q < n->nloops; q++)
		if (q != l && n->loop[q].parent == parent && n->loop[q].pos > pos)
			n->loop[q].pos--;
	for (s = 0; s < n->nstmts; s++)
		if (n->stmt[s].loop == parent && n->stmt[s].pos > pos)
			n->stmt[s].pos--;
	for (q = 0; q < n->nloops; q++) {
		if (n->loop[q].parent > l)
			n->loop[q].parent--;
		if (n->loop[q].after > l)
			n->loop[q].after--;
		else if (n->loop[q].after == l)
			n->loop[q].after = -1;
	}
	for (s = 0; s < n->nstmts; s++)
		if (n->stmt[s].loop > l)
			n->stmt[s].loop--;
	for (v = 0; v < n->nvars; v++) {
		if (n->var[v].loop == l)
			n->var[v].loop = -1;
		else if (n->var[v].loop > l)
			n->var[v].loop--;
	}
	memmove(&n->loop[l], &n->loop[l + 1], (size_t)(n->nloops - l - 1) * sizeof(mp_loop));
	n->nloops--;
}

static int reroll_one(mp_nest *n, int k2)
{
	static rr r;
	int k1 = n->loop[k2].after, s, q, i, t, nt, acc_e, s2 = -1, keep = -1, keep_term = -1;
	int terms[MP_MAX_STMTS], x2_terms[2], nx2 = 0, x2_acc = -1, x2;
	int64_t u, d, seen = 0;
	accum ac, a2;
	mp_aff diff, nh;

	memset(&r, 0, sizeof(r));
	r.n = n;
	if (k1 < 0 || k1 >= n->nloops || n->loop[k1].parent != n->loop[k2].parent ||
	    n->loop[k2].pos != n->loop[k1].pos + 1 || n->loop[k2].step != 1 ||
	    n->loop[k2].ne_exit || n->loop[k1].ne_exit)
		return 0;
	u = n->loop[k1].step;
	if (u < 2 || u > 16)
		return 0;
	/* k1 never passes hi2: hi2 - hi1 >= u - 1 */
	if (mp_aff_scale(&nh, &n->loop[k1].hi, -1) < 0 ||
	    mp_aff_add(&diff, &n->loop[k2].hi, &nh) < 0 || !mp_aff_is_const(&diff, &d) ||
	    d < u - 1)
		return 0;
	r.k1 = k1, r.k2 = k2;
	r.kv1 = n->loop[k1].iter, r.kv2 = n->loop[k2].iter;
	r.u = u;
	for (q = 0; q < n->nloops; q++)
		if (n->loop[q].parent == k1 || n->loop[q].parent == k2)
			return 0;
	/* k2: one update acc = acc + X2 */
	for (s = 0; s < n->nstmts; s++)
		if (n->stmt[s].loop == k2) {
			if (s2 >= 0)
				return 0;
			s2 = s;
		}
	if (s2 < 0 || !stmt_accum(n, s2, &ac) ||
	    !sum_terms(n, &ac, n->stmt[s2].rhs, x2_terms, &nx2, 1, &x2_acc) || nx2 != 1 ||
	    x2_acc < 0)
		return 0;
	x2 = x2_terms[0];
	/* k1: updates of the same accumulator whose terms are X2 at the
	   offsets 0 .. u-1, each once */
	nt = 0;
	for (s = 0; s < n->nstmts; s++) {
		int first = nt;

		if (n->stmt[s].loop != k1)
			continue;
		acc_e = -1;
		if (!stmt_accum(n, s, &a2) || !same_accum(&a2, &ac) ||
		    !sum_terms(n, &ac, n->stmt[s].rhs, terms, &nt, MP_MAX_STMTS, &acc_e) ||
		    acc_e < 0)
			return 0;
		for (t = first; t < nt; t++) {
			int64_t c;
			int np = r.npair;

			for (c = 0; c < u; c++) {
				r.npair = np;
				if (same_shifted(&r, terms[t], x2, c))
					break;
			}
			if (c == u || (seen >> c) & 1)
				return 0;
			seen |= (int64_t)1 << c;
			if (c == 0)
				keep = s, keep_term = terms[t];
		}
	}
	if (nt != u || keep < 0)
		return 0;
	/* the template's own loads, paired with themselves at offset 0,
	   name the live access each of them stands for */
	{
		int base = r.npair, live[MP_MAX_ACCESSES];

		if (!same_shifted(&r, keep_term, x2, 0))
			return 0;
		for (i = 0; i < n->naccesses; i++)
			live[i] = -1;
		for (i = base; i < r.npair; i++)
			live[r.pair[i][1]] = r.pair[i][0];   /* X2 load -> kept load */
		/* every load of an update other than the kept term: a duplicate
		   of the kept load it corresponds to */
		for (i = 0; i < base; i++) {
			int dead = r.pair[i][0], tmpl = r.pair[i][1];

			if (live[tmpl] < 0)
				return 0;
			if (dead != live[tmpl]) {
				n->access[dead].off = n->access[live[tmpl]].off;
				n->access[dead].stmt = keep;
			}
		}
		for (i = 0; i < n->naccesses; i++)
			if (live[i] >= 0) {
				n->access[i].off = n->access[live[i]].off;
				n->access[i].stmt = keep;
			}
	}
	/* the accumulator's own accesses in the dropped statements: reads of
	   the kept one */
	for (i = 0; i < n->naccesses; i++) {
		int st = n->access[i].stmt;

		if (st < 0 || st == keep || (n->stmt[st].loop != k1 && n->stmt[st].loop != k2))
			continue;
		n->access[i].stmt = keep;
		n->access[i].is_write = 0;
	}
	/* keep: acc = acc + T0 */
	{
		const mp_expr *top = X(n, n->stmt[keep].rhs);
		int tn = 0, te[2], ae = -1;

		if (!(sum_terms(n, &ac, n->stmt[keep].rhs, te, &tn, 2, &ae) && tn == 1 && ae >= 0 &&
		      top && top->kind == MP_X_ADD)) {
			mp_expr add;
			int id;

			acc_e = -1;
			tn = 0;
			if (!sum_terms(n, &ac, n->stmt[keep].rhs, terms, &tn, MP_MAX_STMTS, &acc_e))
				return 0;   /* (cannot happen: it matched above) */
			memset(&add, 0, sizeof(add));
			add.kind = MP_X_ADD;
			add.type = ac.type;
			add.a = acc_e;
			add.b = keep_term;
			add.var = add.access = -1;
			if ((id = mp_nest_add_expr(n, &add)) < 0) {
				n->error[0] = 0;
				return 0;   /* table full: the accesses moved are duplicates,
				               harmless; the planner refuses k2 */
			}
			n->stmt[keep].rhs = id;
		}
	}
	n->stmt[keep].pos = 0;
	n->loop[k1].step = 1;
	n->loop[k1].hi = n->loop[k2].hi;
	/* what reads k after k2 (an epilogue, a later loop's bound) reads the
	   one loop's final value: k1's variable from now on */
	for (i = 0; i < n->nexprs; i++)
		if (n->expr[i].kind == MP_X_VAR && n->expr[i].var == r.kv2)
			n->expr[i].var = r.kv1;
	for (i = 0; i < n->naccesses; i++)
		rename_var(&n->access[i].off, r.kv2, r.kv1);
	for (i = 0; i < n->nloops; i++) {
		rename_var(&n->loop[i].lo, r.kv2, r.kv1);
		rename_var(&n->loop[i].hi, r.kv2, r.kv1);
	}
	/* the narrowed values' checks (mp_narrow) range over k1's loop now */
	for (i = 0; i < n->nnarrow; i++)
		rename_var(&n->narrow[i].e, r.kv2, r.kv1);
	for (i = 0; i < n->nstmts; i++) {
		rename_var(&n->stmt[i].ptr_off, r.kv2, r.kv1);
		if (n->stmt[i].lhs_var == r.kv2)
			n->stmt[i].lhs_var = r.kv1;
	}
	if (n->var[r.kv2].used_after)
		n->var[r.kv1].used_after = 1;
	/* the iterator of k2 (the same source variable): no loop any more */
	n->var[r.kv2].kind = MP_VAR_LOCAL;
	n->var[r.kv2].loop = -1;
	/* and no longer one of the variables sharing k's source variable:
	   the others hang off k1's */
	{
		int root = n->var[r.kv2].same_as >= 0 ? n->var[r.kv2].same_as : r.kv2, w;

		if (root == r.kv2) {
			for (w = 0; w < n->nvars; w++)
				if (w != r.kv1 && n->var[w].same_as == r.kv2)
					n->var[w].same_as = r.kv1;
			n->var[r.kv1].same_as = -1;
		}
		n->var[r.kv2].same_as = -1;
	}
	for (s = n->nstmts - 1; s >= 0; s--)
		if (s != keep && (n->stmt[s].loop == k1 || n->stmt[s].loop == k2)) {
			if (s < keep)
				keep--;
			drop_stmt(n, s);
		}
	drop_loop(n, k2);
	return 1;
}

int mp_reroll(mp_nest *n)
{
	int l, done = 0;

	for (l = 0; l < n->nloops; l++)
		if (n->loop[l].after >= 0 && reroll_one(n, l)) {
			done++;
			l = -1;   /* ids moved: start over */
		}
	return done;
}
