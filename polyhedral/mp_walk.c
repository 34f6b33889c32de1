/* mp_walk.c -- walking pointers: closed forms of the accesses a nest makes
 * through pointers it advances itself (mp_walk_resolve, mp_nest.h).
 *
 * Hand-written C reaches operands through pointers stepped in the loops:
 *
 *   for (row = 0; row < rows; row++) {          lhs_ptr = lhs            (reset)
 *     const int8_t *lhs_ptr = lhs;              for k: *lhs_ptr, ++lhs_ptr (step)
 *     for (k = 0; k < cols; k++)
 *       acc += *lhs_ptr++ * *rhs_ptr++;         rhs_ptr never reset: it
 *     ...                                       continues across rows
 *   }
 *
 * The glues describe what they see: pointer assignments (mp_stmt.ptr_assign)
 * and accesses through the local pointer (an array based on it).  Here the
 * value of such a pointer p where a statement S reads it is
 *
 *   base + sum over the steps I of p:  amount(I) * count(I, S)
 *
 * where base is the reset's value (evaluated in the current iterations of
 * the loops around it) or p's value when the nest starts, and count(I, S)
 * the number of times I ran since then: for each loop both I and S lie in,
 * the iterations already completed times the runs of I per iteration (the
 * trip counts of the loops between, which must not depend on iterators),
 * plus the runs of I in a part of the common body that comes before S's.
 * The affine forms this gives (iterators times parameters) replace the
 * access's array and offset, so everything after this step -- the ISL
 * model, the run-time checks, the glue's addresses -- sees ordinary
 * subscripts.  A pointer whose assignments do not fit (a second reset, a
 * step under a condition or by an amount that changes, a read before the
 * reset) is left as described; the planner then refuses what depends on it.
 *
 * Expected workload: a few pointers and accesses per nest.
 */
#include "mp_nest.h"

#include <string.h>

/* The loops from just below ROOT (-1: above the nest) down to L, outermost
 * first; the count, or -1 when L does not lie inside ROOT. */
static int chain_below(const mp_nest *n, int root, int l, int *out)
{
	int tmp[MP_MAX_LOOPS], k = 0, i;

	for (; l >= 0 && l != root; l = n->loop[l].parent) {
		if (k >= MP_MAX_LOOPS)
			return -1;
		tmp[k++] = l;
	}
	if (l != root)
		return -1;
	for (i = 0; i < k; i++)
		out[i] = tmp[k - 1 - i];
	return k;
}

static int uses_iter(const mp_nest *n, const mp_aff *a)
{
	int i;

	for (i = 0; i < a->n; i++)
		if ((a->t[i].v1 >= 0 && n->var[a->t[i].v1].kind == MP_VAR_ITER) ||
		    (a->t[i].v2 >= 0 && n->var[a->t[i].v2].kind == MP_VAR_ITER))
			return 1;
	return 0;
}

/* hi - lo + 1 of loop L, over parameters only; -1 when its bounds use
 * iterators (a triangular loop runs a varying number of times). */
static int trip(const mp_nest *n, int l, mp_aff *r)
{
	mp_aff neg;

	if (uses_iter(n, &n->loop[l].lo) || uses_iter(n, &n->loop[l].hi) ||
	    (n->loop[l].step != 1 && n->loop[l].step != -1))
		return -1;   /* (a step of 2 would count (hi - lo) / 2 + 1) */
	if (mp_aff_scale(&neg, &n->loop[l].lo, -1) < 0 ||
	    mp_aff_add(r, &n->loop[l].hi, &neg) < 0)
		return -1;
	r->cst += 1;
	return 0;
}

/* The iterations of loop L completed before the current one: iter - lo
 * counting up, hi - iter counting down. */
static int done_iters(const mp_nest *n, int l, mp_aff *r)
{
	mp_aff it, b;

	if (n->loop[l].step != 1 && n->loop[l].step != -1)
		return -1;
	mp_aff_var(&it, n->loop[l].iter);
	if (n->loop[l].step >= 0) {
		if (mp_aff_scale(&b, &n->loop[l].lo, -1) < 0)
			return -1;
		return mp_aff_add(r, &it, &b);
	}
	if (mp_aff_scale(&it, &it, -1) < 0)
		return -1;
	return mp_aff_add(r, &n->loop[l].hi, &it);
}

/* The product of the trip counts of loops c[from..to) (1 when empty). */
static int trips(const mp_nest *n, const int *c, int from, int to, mp_aff *r)
{
	mp_aff t;
	int u;

	mp_aff_const(r, 1);
	for (u = from; u < to; u++)
		if (trip(n, c[u], &t) < 0 || mp_aff_mul((mp_nest *)n, r, r, &t) < 0)
			return -1;
	return 0;
}

/* Runs of step statement I (in loop LI) between the point where ROOT's
 * current iteration starts counting (-1: the nest's start; else just after
 * the reset at position RPOS of ROOT's body) and statement S, times AMOUNT,
 * added to *acc. */
static int add_count(const mp_nest *n, int root, int rpos, int I, int S,
		     const mp_aff *amount, mp_aff *acc)
{
	int ci[MP_MAX_LOOPS], cs[MP_MAX_LOOPS], ni, ns, c = 0, t, posI, posS;
	mp_aff e, d, term;

	ni = chain_below(n, root, n->stmt[I].loop, ci);
	ns = chain_below(n, root, n->stmt[S].loop, cs);
	if (ni < 0 || ns < 0)
		return -1;
	while (c < ni && c < ns && ci[c] == cs[c])
		c++;
	/* completed iterations of each common loop */
	for (t = 0; t < c; t++) {
		if (trips(n, ci, t + 1, ni, &e) < 0 || done_iters(n, ci[t], &d) < 0 ||
		    mp_aff_mul((mp_nest *)n, &e, &e, amount) < 0 || mp_aff_mul((mp_nest *)n, &term, &d, &e) < 0 ||
		    mp_aff_add(acc, acc, &term) < 0)
			return -1;
	}
	/* the common body: I's part runs before S's part */
	posI = c < ni ? n->loop[ci[c]].pos : n->stmt[I].pos;
	posS = c < ns ? n->loop[cs[c]].pos : n->stmt[S].pos;
	if (c == 0 && root >= 0 && posI < rpos)
		return 0;   /* before the reset: overwritten by it */
	if (posI < posS) {
		if (trips(n, ci, c, ni, &e) < 0 || mp_aff_mul((mp_nest *)n, &e, &e, amount) < 0 ||
		    mp_aff_add(acc, acc, &e) < 0)
			return -1;
	}
	return 0;
}

typedef struct walk {
	mp_nest *n;
	char state[MP_MAX_VARS];   /* 0 unseen, 1 resolving, 2 walking, 3 not followed */
	int reset[MP_MAX_VARS];    /* the reset statement, -1: p's entry value */
	int self[MP_MAX_VARS];     /* the array based on p itself, -1 */
} walk;

static int is_walking_candidate(const mp_nest *n, int v)
{
	return v >= 0 && v < n->nvars && n->var[v].kind == MP_VAR_LOCAL &&
	       n->var[v].type == MP_TY_PTR;
}

static int array_var(const mp_nest *n, int a)
{
	return a >= 0 && a < n->narrays ? n->array[a].base_var : -1;
}

static int classify(walk *w, int p);

/* The value of walking pointer P where statement S reads it: *arr and
 * *off (bytes).  -1 when S reads it where the closed form does not hold. */
static int value_at(walk *w, int p, int S, int *arr, mp_aff *off)
{
	const mp_nest *n = w->n;
	int root = -1, rpos = -1, s, ns, cs[MP_MAX_LOOPS];

	if (classify(w, p) != 2)
		return -1;
	if (w->reset[p] >= 0) {
		const mp_stmt *r = &n->stmt[w->reset[p]];
		int q = array_var(n, r->ptr_array);

		root = r->loop;
		rpos = r->pos;
		/* S reads p inside the reset's loop, after the reset */
		ns = chain_below(n, root, n->stmt[S].loop, cs);
		if (ns < 0 || (ns > 0 ? n->loop[cs[0]].pos : n->stmt[S].pos) <= rpos)
			return -1;
		if (q >= 0 && is_walking_candidate(n, q)) {
			/* reset from another walking pointer, read at the reset */
			if (value_at(w, q, w->reset[p], arr, off) < 0 ||
			    mp_aff_add(off, off, &r->ptr_off) < 0)
				return -1;
		} else {
			*arr = r->ptr_array;
			*off = r->ptr_off;
		}
	} else {
		*arr = w->self[p];
		mp_aff_const(off, 0);
		if (*arr < 0)
			return -1;
	}
	for (s = 0; s < n->nstmts; s++) {
		const mp_stmt *st = &n->stmt[s];

		if (st->kind != MP_S_ASSIGN || st->lhs_var != p || s == w->reset[p])
			continue;
		if (add_count(n, root, rpos, s, S, &st->ptr_off, off) < 0)
			return -1;
	}
	return 0;
}

/* Whether P is a walking pointer the closed forms can follow (2) or not
 * (3): every assignment a pointer assignment, unconditional; steps by
 * loop-invariant amounts; at most one reset, whose loop holds every step
 * after it, and whose base (when another walking pointer) is followed. */
static int classify(walk *w, int p)
{
	const mp_nest *n = w->n;
	int s, a, reset = -1, self = -1, nsteps = 0;

	if (w->state[p] == 1)
		return 3;   /* a cycle of resets */
	if (w->state[p])
		return w->state[p];
	w->state[p] = 1;
	for (a = 0; a < n->narrays; a++)
		if (n->array[a].base_var == p)
			self = a;
	for (s = 0; s < n->nstmts; s++) {
		const mp_stmt *st = &n->stmt[s];

		if (st->kind != MP_S_ASSIGN || st->lhs_var != p)
			continue;
		if (!st->ptr_assign || st->guarded || st->ptr_array < 0)
			goto no;
		if (array_var(n, st->ptr_array) == p) {
			if (uses_iter(n, &st->ptr_off))
				goto no;
			nsteps++;
		} else {
			if (reset >= 0)
				goto no;
			reset = s;
		}
	}
	if (reset < 0 && nsteps == 0)
		goto no;
	w->reset[p] = reset;
	w->self[p] = self;
	if (reset >= 0) {
		const mp_stmt *r = &n->stmt[reset];
		int cs[MP_MAX_LOOPS], q = array_var(n, r->ptr_array);

		/* every step inside the reset's loop, after it */
		for (s = 0; s < n->nstmts; s++) {
			const mp_stmt *st = &n->stmt[s];
			int k;

			if (st->kind != MP_S_ASSIGN || st->lhs_var != p || s == reset)
				continue;
			k = chain_below(n, r->loop, st->loop, cs);
			if (k < 0 || (k > 0 ? n->loop[cs[0]].pos : st->pos) <= r->pos)
				goto no;
		}
		if (q >= 0 && is_walking_candidate(n, q) && classify(w, q) != 2)
			goto no;
	}
	w->state[p] = 2;
	return 2;
no:
	w->state[p] = 3;
	return 3;
}

int mp_walk_resolve(mp_nest *n)
{
	static walk w;   /* large; the core runs one nest at a time */
	int a, v, s, done = 0;
	char open[MP_MAX_VARS];

	memset(&w, 0, sizeof(w));
	w.n = n;
	memset(open, 0, sizeof(open));
	for (a = 0; a < n->naccesses; a++) {
		mp_access *x = &n->access[a];
		int p = array_var(n, x->array), arr;
		mp_aff off;

		if (x->via >= 0 || !is_walking_candidate(n, p))
			continue;
		if (!x->affine || x->stmt < 0 || x->stmt >= n->nstmts ||
		    value_at(&w, p, x->stmt, &arr, &off) < 0 ||
		    mp_aff_add(&off, &off, &x->off) < 0) {
			/* not followed: p changes in the nest, so the offset
			   the glue gave means nothing; it may touch any byte */
			x->affine = 0;
			open[p] = 1;
			continue;
		}
		x->array = arr;
		x->off = off;
		x->via = p;
		done++;
	}
	/* the pointer statements of fully followed pointers are bookkeeping */
	for (v = 0; v < n->nvars; v++) {
		if (w.state[v] != 2 || open[v])
			continue;
		for (s = 0; s < n->nstmts; s++)
			if (n->stmt[s].kind == MP_S_ASSIGN && n->stmt[s].lhs_var == v &&
			    n->stmt[s].ptr_assign)
				n->stmt[s].ivstep = 1;
	}
	return done;
}

/* The bytes walking pointer P advances during one iteration of loop
 * REGION: the sum over its steps inside REGION of the amount times the runs
 * per iteration of REGION (the trip counts of the loops between REGION and
 * the step's loop).  The caller multiplies by REGION's iteration count,
 * which it can clamp at 0 (hi - lo + 1 is negative for an empty loop that
 * starts above its bound).  -1 when a reset of P lies inside REGION or a
 * product is not affine. */
int mp_walk_region_delta(const mp_nest *n, int p, int region, mp_aff *delta)
{
	int s, c[MP_MAX_LOOPS], k;
	mp_aff e;

	mp_aff_const(delta, 0);
	for (s = 0; s < n->nstmts; s++) {
		const mp_stmt *st = &n->stmt[s];

		if (st->kind != MP_S_ASSIGN || st->lhs_var != p || !st->ptr_assign)
			continue;
		k = chain_below(n, n->loop[region].parent, st->loop, c);
		if (k < 1 || c[0] != region)
			continue;   /* outside REGION */
		if (st->ptr_array < 0 || array_var(n, st->ptr_array) != p)
			return -1;  /* a reset inside */
		if (trips(n, c, 1, k, &e) < 0 || mp_aff_mul((mp_nest *)n, &e, &e, &st->ptr_off) < 0 ||
		    mp_aff_add(delta, delta, &e) < 0)
			return -1;
	}
	return 0;
}
