/* mp_model.c -- ISL model of an mp_nest: domains, accesses, schedule,
 * memory-based dependences and the queries the planner asks (mp_model.h).
 *
 * The model is built from ISL's text syntax: every part is a short string
 * over generated names (S<s>, A<a>, V<v>, c<loop>, p_<var>, q_<v1>_<v2>),
 * so no user identifier ever reaches the ISL parser.  Nests are small (a
 * few loops and statements): clarity over speed.
 */
#include "mp_model.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <isl/aff.h>
#include <isl/options.h>
#include <isl/val.h>
#include <isl/space.h>
#include <isl/ilp.h>
#include <isl/id.h>

#define SB_LEN 16384

struct mp_model {
	isl_ctx *ctx;
	const mp_nest *n;
	int depth[MP_MAX_STMTS];                 /* -1: no valid loop chain */
	int chain[MP_MAX_STMTS][MP_MAX_LOOPS];   /* outermost first */
	int ldepth[MP_MAX_LOOPS];
	int lchain[MP_MAX_LOOPS][MP_MAX_LOOPS];  /* enclosing + itself */
	int lbounds_ok[MP_MAX_LOOPS];
	int arr_row[MP_MAX_ARRAYS];              /* row param var, or -1 */
	int whole[MP_MAX_ACCESSES];
	isl_set *dom[MP_MAX_STMTS];
	isl_set *ldom[MP_MAX_LOOPS];             /* loop_domain: L<l>[...] */
	isl_map *acc[MP_MAX_ACCESSES];           /* acc_map, on demand */
	char acc_built[MP_MAX_ACCESSES];
	isl_union_map *reads, *writes, *sched;   /* build_flow, on demand */
	int flow_built;
	int over_budget;                         /* latched by note_budget */
	char params[SB_LEN];
};

/* ------------------------------------------------------------- budget */

static unsigned long mp_budget;   /* 0: not set yet (mp_model_budget) */

void mp_model_set_budget(unsigned long ops)
{
	mp_budget = ops ? ops : mp_model_budget_env();
}

/* MIXPREC_ISL_BUDGET=N in the compiler's environment (a positive decimal
 * number), else MP_MODEL_BUDGET_DEFAULT. */
unsigned long mp_model_budget_env(void)
{
	const char *e = getenv("MIXPREC_ISL_BUDGET");
	char *end;
	unsigned long v;

	if (!e || !*e)
		return MP_MODEL_BUDGET_DEFAULT;
	errno = 0;
	v = strtoul(e, &end, 10);
	if (errno || *end || v == 0 || e[0] == '-')
		return MP_MODEL_BUDGET_DEFAULT;
	return v;
}

unsigned long mp_model_budget(void)
{
	if (!mp_budget)
		mp_budget = mp_model_budget_env();
	return mp_budget;
}

/* Latch a quota error of m's context (a later error of another kind would
 * replace ISL's last error). */
static void note_budget(mp_model *m)
{
	if (m && m->ctx && isl_ctx_last_error(m->ctx) == isl_error_quota)
		m->over_budget = 1;
}

/* Each query latches a quota error as it returns; in case an error of
 * another kind hid one, a small question that needs a few hundred
 * operations tells whether the budget is spent (ISL's count only grows). */
int mp_model_over_budget(mp_model *m)
{
	isl_set *probe;

	if (!m || !m->ctx)
		return 0;
	note_budget(m);
	if (m->over_budget)
		return 1;
	probe = isl_set_read_from_str(m->ctx, "{ [x] : 0 <= x <= 1 }");
	if (isl_set_is_empty(probe) < 0)
		note_budget(m);
	isl_set_free(probe);
	return m->over_budget;
}

int mp_model_err_is_budget(const char *err)
{
	char budget[MP_REASON_LEN];

	snprintf(budget, sizeof(budget), MP_MODEL_BUDGET_FMT, mp_model_budget());
	return err && strcmp(err, budget) == 0;
}

/* -------------------------------------------------------- string builder */

typedef struct sb {
	char s[SB_LEN];
	size_t pos;
	int over;
} sb;

static void sbf(sb *b, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (b->over)
		return;
	va_start(ap, fmt);
	k = vsnprintf(b->s + b->pos, SB_LEN - b->pos, fmt, ap);
	va_end(ap);
	if (k < 0 || (size_t)k >= SB_LEN - b->pos)
		b->over = 1;
	else
		b->pos += (size_t)k;
}

static void sb_reset(sb *b)
{
	b->pos = 0;
	b->over = 0;
	b->s[0] = 0;
}

/* --------------------------------------------------------------- helpers */

static int var_kind(const mp_nest *n, int v, mp_var_kind k)
{
	return v >= 0 && v < n->nvars && n->var[v].kind == k;
}

/* Is loop l in chain[0..d)? */
static int in_chain(const int *chain, int d, int l)
{
	int i;

	for (i = 0; i < d; i++)
		if (chain[i] == l)
			return 1;
	return 0;
}

/* Enclosing loops of loop l (l itself last); -1 on a broken parent chain. */
static int loop_chain(const mp_nest *n, int l, int *chain)
{
	int tmp[MP_MAX_LOOPS], d = 0, i;

	while (l != -1) {
		if (l < 0 || l >= n->nloops || d >= MP_MAX_LOOPS)
			return -1;
		tmp[d++] = l;
		l = n->loop[l].parent;
	}
	for (i = 0; i < d; i++)
		chain[i] = tmp[d - 1 - i];
	return d;
}

static void emit_coef(sb *b, int64_t coef, const char *what)
{
	if (coef < 0)
		sbf(b, " - %" PRIu64 "*%s", (uint64_t)0 - (uint64_t)coef, what);
	else
		sbf(b, " + %" PRId64 "*%s", coef, what);
}

/* Emit term t (linear or PARAM*PARAM) in the context of the enclosing
 * loops chain[0..d); -1 when the term is not expressible. */
static int emit_term(sb *b, const mp_nest *n, const mp_term *t,
		     const int *chain, int d)
{
	char name[40];

	if (t->v2 < 0) {
		if (var_kind(n, t->v1, MP_VAR_PARAM))
			snprintf(name, sizeof(name), "p_%d", t->v1);
		else if (var_kind(n, t->v1, MP_VAR_ITER) &&
			 in_chain(chain, d, n->var[t->v1].loop))
			snprintf(name, sizeof(name), "c%d", n->var[t->v1].loop);
		else
			return -1;
	} else if (var_kind(n, t->v1, MP_VAR_PARAM) &&
		   var_kind(n, t->v2, MP_VAR_PARAM)) {
		int a = t->v1 < t->v2 ? t->v1 : t->v2;
		int c = t->v1 < t->v2 ? t->v2 : t->v1;

		snprintf(name, sizeof(name), "q_%d_%d", a, c);
	} else
		return -1;
	emit_coef(b, t->coef, name);
	return 0;
}

/* "(cst + terms)" for a whole affine form; -1 if not expressible. */
static int emit_aff(sb *b, const mp_nest *n, const mp_aff *a,
		    const int *chain, int d)
{
	int i;

	sbf(b, "(%" PRId64, a->cst);
	for (i = 0; i < a->n; i++)
		if (emit_term(b, n, &a->t[i], chain, d) < 0)
			return -1;
	sbf(b, ")");
	return 0;
}

/* The iterator of an ITER*PARAM term and its param; -1 if not that kind. */
static int iter_param_term(const mp_nest *n, const mp_term *t, int *param)
{
	if (t->v2 < 0)
		return -1;
	if (var_kind(n, t->v1, MP_VAR_ITER) && var_kind(n, t->v2, MP_VAR_PARAM)) {
		*param = t->v2;
		return t->v1;
	}
	if (var_kind(n, t->v2, MP_VAR_ITER) && var_kind(n, t->v1, MP_VAR_PARAM)) {
		*param = t->v1;
		return t->v2;
	}
	return -1;
}

/* Split a = P*r + o for row parameter P and emit "r = (...) and o = (...)".
 * -1 if a has a linearised term over another parameter. */
static int emit_split(sb *b, const mp_nest *n, const mp_aff *a, int P,
		      const int *chain, int d)
{
	int i, param, it;
	char name[40];

	sbf(b, "r = (0");
	for (i = 0; i < a->n; i++) {
		const mp_term *t = &a->t[i];

		if ((it = iter_param_term(n, t, &param)) >= 0) {
			if (param != P || !in_chain(chain, d, n->var[it].loop))
				return -1;
			snprintf(name, sizeof(name), "c%d", n->var[it].loop);
			emit_coef(b, t->coef, name);
		} else if (t->v2 < 0 && t->v1 == P) {
			sbf(b, " + %" PRId64, t->coef);
		} else if (t->v2 >= 0 && (t->v1 == P || t->v2 == P)) {
			int other = t->v1 == P ? t->v2 : t->v1;

			if (!var_kind(n, other, MP_VAR_PARAM))
				return -1;
			snprintf(name, sizeof(name), "p_%d", other);
			emit_coef(b, t->coef, name);
		}
	}
	sbf(b, ") and o = (%" PRId64, a->cst);
	for (i = 0; i < a->n; i++) {
		const mp_term *t = &a->t[i];

		if (iter_param_term(n, t, &param) >= 0)
			continue;
		if ((t->v2 < 0 && t->v1 == P) ||
		    (t->v2 >= 0 && (t->v1 == P || t->v2 == P)))
			continue;
		if (emit_term(b, n, t, chain, d) < 0)
			return -1;
	}
	sbf(b, ")");
	return 0;
}

static void emit_tuple(sb *b, char kind, int id, const int *chain, int d)
{
	int i;

	sbf(b, "%c%d[", kind, id);
	for (i = 0; i < d; i++)
		sbf(b, "%sc%d", i ? ", " : "", chain[i]);
	sbf(b, "]");
}

/* "{ T[..] : bounds }" over chain; marks loops whose bounds do not fit. */
static void emit_domain(mp_model *m, sb *b, char kind, int id,
			const int *chain, int d)
{
	const mp_nest *n = m->n;
	int i;

	sbf(b, "%s -> { ", m->params);
	emit_tuple(b, kind, id, chain, d);
	sbf(b, " : 1 = 1");
	for (i = 0; i < d; i++) {
		const mp_loop *l = &n->loop[chain[i]];
		sb t;

		sb_reset(&t);
		if (emit_aff(&t, n, &l->lo, chain, i) == 0 && !t.over)
			sbf(b, " and %s <= c%d", t.s, chain[i]);
		else
			m->lbounds_ok[chain[i]] = 0;
		sb_reset(&t);
		if (emit_aff(&t, n, &l->hi, chain, i) == 0 && !t.over)
			sbf(b, " and c%d <= %s", chain[i], t.s);
		else
			m->lbounds_ok[chain[i]] = 0;
		/* a loop stepping by s > 1 runs lo, lo + s, ... */
		if (l->step > 1) {
			sb_reset(&t);
			if (emit_aff(&t, n, &l->lo, chain, i) == 0 && !t.over)
				sbf(b, " and exists (e%d : c%d = %s + %" PRId64 " e%d)", chain[i],
				    chain[i], t.s, l->step, chain[i]);
			else
				m->lbounds_ok[chain[i]] = 0;
		}
	}
	sbf(b, " }");
}

/* ------------------------------------------------------------- building */

static int name_char(char c)
{
	return c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z');
}

/* Does body hold name as a whole word? */
static int names(const char *body, const char *name)
{
	size_t len = strlen(name);
	const char *q;

	for (q = body; (q = strstr(q, name)) != NULL; q += len)
		if (!name_char(q[len]) && (q == body || !name_char(q[-1])))
			return 1;
	return 0;
}

/* ISL's parser takes time in proportion to the parameters a string
 * declares: S ("[p_0, ...] -> { body }", writable) keeps only those the
 * body names (ISL aligns the parameters of the objects it combines).
 * Returns s. */
static char *trim_params(char *s)
{
	char *arrow = strstr(s, "] -> {"), *body, *p, *end;
	char head[SB_LEN], name[64];
	size_t hl = 0, bl, len;

	if (s[0] != '[' || !arrow)
		return s;
	body = arrow + 1;
	head[hl++] = '[';
	for (p = s + 1; p < arrow; p = end) {
		while (p < arrow && (*p == ' ' || *p == ','))
			p++;
		for (end = p; end < arrow && *end != ',' && *end != ' '; end++)
			;
		len = (size_t)(end - p);
		if (!len || len >= sizeof(name))
			return s;
		memcpy(name, p, len);
		name[len] = 0;
		if (!names(body, name))
			continue;
		if (hl > 1) {
			head[hl++] = ',';
			head[hl++] = ' ';
		}
		memcpy(head + hl, name, len);
		hl += len;
	}
	head[hl++] = ']';
	bl = strlen(body);
	memmove(s + hl, body, bl + 1);
	memcpy(s, head, hl);
	return s;
}


/* The domain of loop l, L<l>[c...] over its enclosing loops and itself,
 * read once (ISL's parser is the costliest part of building a model);
 * owned by m.  NULL when ISL fails. */
static isl_set *loop_domain(mp_model *m, int l)
{
	sb *b;

	if (l < 0 || l >= m->n->nloops || m->ldepth[l] < 0)
		return NULL;
	if (m->ldom[l])
		return m->ldom[l];
	b = malloc(sizeof(sb));
	if (!b)
		return NULL;
	sb_reset(b);
	emit_domain(m, b, 'L', l, m->lchain[l], m->ldepth[l]);
	m->ldom[l] = b->over ? NULL : isl_set_read_from_str(m->ctx, trim_params(b->s));
	free(b);
	return m->ldom[l];
}

static void collect_q(const mp_nest *n, const mp_aff *a, char (*seen)[MP_MAX_VARS])
{
	int i;

	for (i = 0; i < a->n; i++) {
		const mp_term *t = &a->t[i];

		if (t->v2 >= 0 && var_kind(n, t->v1, MP_VAR_PARAM) &&
		    var_kind(n, t->v2, MP_VAR_PARAM)) {
			int x = t->v1 < t->v2 ? t->v1 : t->v2;
			int y = t->v1 < t->v2 ? t->v2 : t->v1;

			seen[x][y] = 1;
		}
	}
}

static void build_params(mp_model *m)
{
	static char seen[MP_MAX_VARS][MP_MAX_VARS];
	const mp_nest *n = m->n;
	sb b;
	int i, j, first = 1;

	memset(seen, 0, sizeof(seen));
	for (i = 0; i < n->nloops; i++) {
		collect_q(n, &n->loop[i].lo, seen);
		collect_q(n, &n->loop[i].hi, seen);
	}
	for (i = 0; i < n->naccesses; i++)
		if (n->access[i].affine)
			collect_q(n, &n->access[i].off, seen);
	sb_reset(&b);
	sbf(&b, "[");
	for (i = 0; i < n->nvars; i++)
		if (n->var[i].kind == MP_VAR_PARAM) {
			sbf(&b, "%sp_%d", first ? "" : ", ", i);
			first = 0;
		}
	for (i = 0; i < n->nvars; i++)
		for (j = 0; j < n->nvars; j++)
			if (seen[i][j]) {
				sbf(&b, "%sq_%d_%d", first ? "" : ", ", i, j);
				first = 0;
			}
	sbf(&b, "]");
	memcpy(m->params, b.s, sizeof(m->params));
}

/* Row parameter of array arr: the param of its first linearised term. */
static int find_row_param(const mp_nest *n, int arr)
{
	int i, j, param;

	for (i = 0; i < n->naccesses; i++) {
		const mp_access *a = &n->access[i];

		if (a->array != arr || !a->affine)
			continue;
		for (j = 0; j < a->off.n; j++)
			if (iter_param_term(n, &a->off.t[j], &param) >= 0)
				return param;
	}
	return -1;
}

static isl_map *build_access(mp_model *m, int id)
{
	const mp_nest *n = m->n;
	const mp_access *a = &n->access[id];
	int s = a->stmt, d = m->depth[s], arr = a->array, P = m->arr_row[arr];
	sb b;
	isl_map *map;

	sb_reset(&b);
	sbf(&b, "%s -> { ", m->params);
	emit_tuple(&b, 'S', s, m->chain[s], d);
	sbf(&b, P >= 0 ? " -> A%d[r, o] : " : " -> A%d[o] : ", arr);
	if (!a->affine)
		m->whole[id] = 1;
	else if (P >= 0)
		m->whole[id] = emit_split(&b, n, &a->off, P, m->chain[s], d) < 0;
	else {
		sbf(&b, "o = ");
		m->whole[id] = emit_aff(&b, n, &a->off, m->chain[s], d) < 0;
	}
	if (m->whole[id]) {
		sb_reset(&b);
		sbf(&b, "%s -> { ", m->params);
		emit_tuple(&b, 'S', s, m->chain[s], d);
		sbf(&b, P >= 0 ? " -> A%d[r, o] : 1 = 1" : " -> A%d[o] : 1 = 1", arr);
	}
	sbf(&b, " }");
	if (b.over)
		return NULL;
	map = isl_map_read_from_str(m->ctx, trim_params(b.s));
	return isl_map_intersect_domain(map, isl_set_copy(m->dom[s]));
}

/* Scalar access S<s>[..] -> V<v>[] restricted to the domain. */
static isl_union_map *add_scalar(mp_model *m, isl_union_map *um, int s, int v)
{
	sb b;
	isl_map *map;

	sb_reset(&b);
	sbf(&b, "%s -> { ", m->params);
	emit_tuple(&b, 'S', s, m->chain[s], m->depth[s]);
	sbf(&b, " -> V%d[] }", v);
	map = isl_map_read_from_str(m->ctx, trim_params(b.s));
	map = isl_map_intersect_domain(map, isl_set_copy(m->dom[s]));
	return isl_union_map_add_map(um, map);
}

static isl_union_map *scalar_reads(mp_model *m, isl_union_map *um, int s,
				   int e, int depth)
{
	const mp_nest *n = m->n;
	const mp_expr *x;

	if (e < 0 || e >= n->nexprs || depth > 200 || !um)
		return um;
	x = &n->expr[e];
	if (x->kind == MP_X_VAR && var_kind(n, x->var, MP_VAR_LOCAL))
		return add_scalar(m, um, s, x->var);
	if (x->kind == MP_X_CONST || x->kind == MP_X_VAR || x->kind == MP_X_LOAD)
		return um;
	if (x->kind == MP_X_CALL) {
		int i;

		for (i = 0; i < x->nargs && i < MP_MAX_ARGS; i++)
			um = scalar_reads(m, um, s, x->args[i], depth + 1);
		return um;
	}
	um = scalar_reads(m, um, s, x->a, depth + 1);
	if (x->kind != MP_X_CAST && x->kind != MP_X_NEG)
		um = scalar_reads(m, um, s, x->b, depth + 1);
	return um;
}

static int max_depth(mp_model *m)
{
	int s, d = 0;

	for (s = 0; s < m->n->nstmts; s++)
		if (m->depth[s] > d)
			d = m->depth[s];
	return d;
}

static isl_map *build_schedule(mp_model *m, int s, int width)
{
	const mp_nest *n = m->n;
	int i, k = 0, d = m->depth[s];
	sb b;

	sb_reset(&b);
	sbf(&b, "%s -> { ", m->params);
	emit_tuple(&b, 'S', s, m->chain[s], d);
	sbf(&b, " -> [");
	/* a loop counting down runs its iterations in decreasing order */
	for (i = 0; i < d; i++, k += 2)
		sbf(&b, "%s%d, %sc%d", i ? ", " : "", n->loop[m->chain[s][i]].pos,
		    n->loop[m->chain[s][i]].step < 0 ? "-" : "", m->chain[s][i]);
	sbf(&b, "%s%d", d ? ", " : "", n->stmt[s].pos);
	for (k++; k < width; k++)
		sbf(&b, ", 0");
	sbf(&b, "] }");
	return isl_map_read_from_str(m->ctx, trim_params(b.s));
}

/* The access relation of access i (owned by m), read on the first
 * question about it; NULL for an access outside every statement or when
 * ISL fails. */
static isl_map *acc_map(mp_model *m, int i)
{
	const mp_nest *n = m->n;

	if (i < 0 || i >= n->naccesses)
		return NULL;
	if (!m->acc_built[i]) {
		int s = n->access[i].stmt;

		m->acc_built[i] = 1;
		if (s >= 0 && s < n->nstmts)
			m->acc[i] = build_access(m, i);
		note_budget(m);
	}
	return m->acc[i];
}

/* The union of the reads, of the writes (arrays and scalars) and the
 * schedule: what dependences are computed from, built on the first
 * question that needs them.  0, or -1 when ISL fails. */
static int build_flow(mp_model *m)
{
	const mp_nest *n = m->n;
	int i, width;

	if (m->flow_built)
		return m->reads && m->writes && m->sched ? 0 : -1;
	m->flow_built = 1;
	m->reads = isl_union_map_empty(isl_space_params_alloc(m->ctx, 0));
	m->writes = isl_union_map_empty(isl_space_params_alloc(m->ctx, 0));
	for (i = 0; i < n->naccesses; i++) {
		if (n->access[i].stmt < 0 || n->access[i].stmt >= n->nstmts)
			continue;
		if (!acc_map(m, i)) {   /* a missing access would hide dependences */
			m->reads = isl_union_map_free(m->reads);
			break;
		}
		if (n->access[i].is_write)
			m->writes = isl_union_map_add_map(m->writes,
							  isl_map_copy(m->acc[i]));
		else
			m->reads = isl_union_map_add_map(m->reads,
							 isl_map_copy(m->acc[i]));
	}
	for (i = 0; i < n->nstmts; i++) {
		const mp_stmt *s = &n->stmt[i];

		if (s->kind == MP_S_OPAQUE)
			continue;
		m->reads = scalar_reads(m, m->reads, i, s->rhs, 0);
		if (s->kind == MP_S_ASSIGN && var_kind(n, s->lhs_var, MP_VAR_LOCAL))
			m->writes = add_scalar(m, m->writes, i, s->lhs_var);
	}
	width = 2 * max_depth(m) + 1;
	m->sched = isl_union_map_empty(isl_space_params_alloc(m->ctx, 0));
	for (i = 0; i < n->nstmts; i++)
		m->sched = isl_union_map_add_map(m->sched, build_schedule(m, i, width));
	note_budget(m);
	return m->reads && m->writes && m->sched ? 0 : -1;
}

mp_model *mp_model_build(const mp_nest *n, char *err, size_t errlen)
{
	mp_model *m = calloc(1, sizeof(*m));
	int i;
	sb *b = malloc(sizeof(sb));

	if (!m || !b)
		goto error;
	m->n = n;
	m->ctx = isl_ctx_alloc();
	if (!m->ctx)
		goto error;
	/* a failing ISL call returns an error (NULL, -1) to its caller, never
	   aborts the compiler; past the budget every call fails */
	isl_options_set_on_error(m->ctx, ISL_ON_ERROR_CONTINUE);
	isl_ctx_set_max_operations(m->ctx, mp_model_budget());
	build_params(m);
	for (i = 0; i < n->nloops; i++) {
		m->lbounds_ok[i] = 1;
		m->ldepth[i] = loop_chain(n, i, m->lchain[i]);
	}
	for (i = 0; i < n->narrays; i++)
		m->arr_row[i] = find_row_param(n, i);
	for (i = 0; i < n->nstmts; i++) {
		int l = n->stmt[i].loop;

		m->depth[i] = l == -1 ? 0 : loop_chain(n, l, m->chain[i]);
		if (m->depth[i] < 0) {
			snprintf(err, errlen, "statement %d has an invalid loop", i);
			goto error;
		}
		if (l == -1) {
			sb_reset(b);
			emit_domain(m, b, 'S', i, m->chain[i], m->depth[i]);
			m->dom[i] = b->over ? NULL : isl_set_read_from_str(m->ctx, trim_params(b->s));
		} else {
			/* the domain of its loop, named S<i> */
			char name[24];
			isl_set *ld = loop_domain(m, l);

			snprintf(name, sizeof(name), "S%d", i);
			m->dom[i] = ld ? isl_set_set_tuple_name(isl_set_copy(ld), name) : NULL;
		}
		if (!m->dom[i]) {
			snprintf(err, errlen, "ISL rejected the domain of statement %d", i);
			goto error;
		}
	}
	for (i = 0; i < n->nloops; i++)
		if (m->ldepth[i] < 0) {
			snprintf(err, errlen, "loop %d has an invalid parent", i);
			goto error;
		}
	/* the access relations (acc_map), the reads, writes and the schedule
	   (build_flow): on demand; most questions need a few of them */
	note_budget(m);
	if (m->over_budget) {
		snprintf(err, errlen, MP_MODEL_BUDGET_FMT, mp_model_budget());
		goto error;
	}
	free(b);
	return m;
error:
	if (err && errlen && mp_model_over_budget(m))
		snprintf(err, errlen, MP_MODEL_BUDGET_FMT, mp_model_budget());
	if (err && errlen && (!m || !m->ctx || !err[0]))
		snprintf(err, errlen, "out of memory building the ISL model");
	free(b);
	mp_model_free(m);
	return NULL;
}

void mp_model_free(mp_model *m)
{
	int i;

	if (!m)
		return;
	for (i = 0; i < MP_MAX_STMTS; i++)
		isl_set_free(m->dom[i]);
	for (i = 0; i < MP_MAX_LOOPS; i++)
		isl_set_free(m->ldom[i]);
	for (i = 0; i < MP_MAX_ACCESSES; i++)
		isl_map_free(m->acc[i]);
	isl_union_map_free(m->reads);
	isl_union_map_free(m->writes);
	isl_union_map_free(m->sched);
	if (m->ctx)
		isl_ctx_free(m->ctx);
	free(m);
}

isl_ctx *mp_model_ctx(mp_model *m)
{
	return m ? m->ctx : NULL;
}

/* --------------------------------------------------------------- access */

__isl_give isl_set *mp_model_domain(mp_model *m, int stmt)
{
	if (!m || stmt < 0 || stmt >= m->n->nstmts)
		return NULL;
	return isl_set_copy(m->dom[stmt]);
}

__isl_give isl_map *mp_model_access(mp_model *m, int access)
{
	if (!m || access < 0 || access >= m->n->naccesses)
		return NULL;
	return isl_map_copy(acc_map(m, access));
}

__isl_give isl_union_map *mp_model_schedule(mp_model *m)
{
	return m && build_flow(m) == 0 ? isl_union_map_copy(m->sched) : NULL;
}

int mp_model_access_is_whole(mp_model *m, int access)
{
	acc_map(m, access);
	return m->whole[access];
}

int mp_model_array_row_param(mp_model *m, int array)
{
	return m->arr_row[array];
}

int mp_model_loop_bounds_affine(mp_model *m, int loop)
{
	return m->lbounds_ok[loop];
}

int mp_model_stmt_loops(mp_model *m, int stmt, int *loops)
{
	int i;

	for (i = 0; i < m->depth[stmt]; i++)
		loops[i] = m->chain[stmt][i];
	return m->depth[stmt];
}

/* ---------------------------------------------------------- dependences */

__isl_give isl_union_map *mp_model_dependences(mp_model *m, int kinds)
{
	isl_union_map *before, *dep, *d;

	if (!m || build_flow(m) < 0)
		return NULL;
	before = isl_union_map_lex_lt_union_map(isl_union_map_copy(m->sched),
						isl_union_map_copy(m->sched));
	dep = isl_union_map_empty(isl_union_map_get_space(m->sched));
	if (kinds & MP_DEP_RAW) {
		d = isl_union_map_apply_range(isl_union_map_copy(m->writes),
			isl_union_map_reverse(isl_union_map_copy(m->reads)));
		dep = isl_union_map_union(dep, d);
	}
	if (kinds & MP_DEP_WAR) {
		d = isl_union_map_apply_range(isl_union_map_copy(m->reads),
			isl_union_map_reverse(isl_union_map_copy(m->writes)));
		dep = isl_union_map_union(dep, d);
	}
	if (kinds & MP_DEP_WAW) {
		d = isl_union_map_apply_range(isl_union_map_copy(m->writes),
			isl_union_map_reverse(isl_union_map_copy(m->writes)));
		dep = isl_union_map_union(dep, d);
	}
	dep = isl_union_map_intersect(dep, before);
	note_budget(m);
	return dep;
}

struct carried_data {
	mp_model *m;
	int loop;
	int (*pairs)[2];
	int max, count;
};

static int stmt_of(isl_map *map, enum isl_dim_type t)
{
	const char *s = isl_map_get_tuple_name(map, t);

	return s && s[0] == 'S' ? atoi(s + 1) : -1;
}

static isl_stat carried_one(__isl_take isl_map *map, void *user)
{
	struct carried_data *cd = user;
	mp_model *m = cd->m;
	int a = stmt_of(map, isl_dim_in), b = stmt_of(map, isl_dim_out);
	int dl, i;
	isl_bool empty;

	if (a < 0 || b < 0) {
		isl_map_free(map);
		return isl_stat_ok;
	}
	for (dl = 0; dl < m->depth[a] && m->chain[a][dl] != cd->loop; dl++)
		;
	if (dl >= m->depth[a] || dl >= m->depth[b] || m->chain[b][dl] != cd->loop) {
		isl_map_free(map);
		return isl_stat_ok;
	}
	for (i = 0; i < dl; i++)
		map = isl_map_equate(map, isl_dim_in, i, isl_dim_out, i);
	map = isl_map_order_lt(map, isl_dim_in, dl, isl_dim_out, dl);
	empty = isl_map_is_empty(map);
	isl_map_free(map);
	note_budget(m);
	if (empty < 0)
		return isl_stat_error;
	if (!empty) {
		if (cd->count < cd->max) {
			cd->pairs[cd->count][0] = a;
			cd->pairs[cd->count][1] = b;
		}
		cd->count++;
	}
	return isl_stat_ok;
}

int mp_model_carried(mp_model *m, __isl_keep isl_union_map *deps, int loop,
		     int (*pairs)[2], int max)
{
	struct carried_data cd = { m, loop, pairs, max, 0 };

	if (!m || !deps || loop < 0 || loop >= m->n->nloops)
		return -1;
	if (isl_union_map_foreach_map(deps, carried_one, &cd) < 0)
		return -1;
	return cd.count;
}

/* -------------------------------------------------------------- queries */

int mp_model_first_writer(mp_model *m, int acc, int except)
{
	const mp_nest *n = m->n;
	isl_set *fp;
	int w;

	if (acc < 0 || acc >= n->naccesses || !acc_map(m, acc))
		return -2;
	fp = isl_map_range(isl_map_copy(m->acc[acc]));
	for (w = 0; w < n->naccesses; w++) {
		isl_set *wr;
		isl_bool disjoint;

		if (w == except || !n->access[w].is_write ||
		    n->access[w].array != n->access[acc].array ||
		    n->access[w].stmt < 0 || n->access[w].stmt >= n->nstmts)
			continue;
		if (!acc_map(m, w)) {
			isl_set_free(fp);
			return -2;
		}
		wr = isl_map_range(isl_map_copy(m->acc[w]));
		disjoint = isl_set_is_disjoint(wr, fp);
		isl_set_free(wr);
		note_budget(m);
		if (disjoint != isl_bool_true) {
			isl_set_free(fp);
			return disjoint < 0 ? -2 : w;
		}
	}
	isl_set_free(fp);
	return -1;
}

static isl_map *inbounds_map(mp_model *m, int acc);

/* The conditions statement S runs under (its own and its loops',
 * mp_cond), as a set of its instances; the universe of its domain when
 * it has none, NULL on error.  A condition that cannot be written is left
 * out (a superset of the instances). */
static isl_set *stmt_conds(mp_model *m, int s)
{
	const mp_nest *n = m->n;
	unsigned bits = n->stmt[s].guarded ? n->stmt[s].conds : 0;
	int l, c;
	sb *b = malloc(sizeof(sb));
	isl_set *set;

	if (!b)
		return NULL;
	for (l = n->stmt[s].loop; l >= 0 && l < n->nloops; l = n->loop[l].parent)
		bits |= n->loop[l].conds;
	sb_reset(b);
	sbf(b, "%s -> { ", m->params);
	emit_tuple(b, 'S', s, m->chain[s], m->depth[s]);
	sbf(b, " : 1 = 1");
	for (c = 0; c < n->nconds && c < 32; c++) {
		size_t mark;

		if (!(bits & (1u << c)))
			continue;
		mark = b->pos;
		sbf(b, " and ");
		if (emit_aff(b, n, &n->cond[c].e, m->chain[s], m->depth[s]) < 0 || b->over) {
			b->pos = mark;   /* left out */
			b->s[mark] = 0;
			b->over = 0;
			continue;
		}
		sbf(b, " >= 0");
	}
	sbf(b, " }");
	set = b->over ? NULL : isl_set_read_from_str(m->ctx, trim_params(b->s));
	free(b);
	return set;
}

int mp_model_reads_entry(mp_model *m, int acc)
{
	const mp_nest *n = m ? m->n : NULL;
	isl_union_map *wr, *dep, *before;
	isl_map *rd;
	isl_set *cs;
	isl_bool empty;
	int w;

	if (!m || acc < 0 || acc >= n->naccesses || n->access[acc].is_write ||
	    build_flow(m) < 0 || !acc_map(m, acc))
		return -1;
	if (m->whole[acc])
		return 0;
	/* an array whose subscripts the model splits at a parameter row
	   length (`X[i*ld + j]` as X[i][j]) assumes each row's index within
	   that length; a write and a read may still meet where it is not
	   (ld < n, a stride of 0): no proof then */
	if (m->arr_row[n->access[acc].array] >= 0)
		return 0;
	/* the read's instances (its conditions, C's index bounds) */
	cs = stmt_conds(m, n->access[acc].stmt);
	if (!cs)
		return -1;
	rd = isl_map_intersect_domain(inbounds_map(m, acc), cs);
	/* every write to its array, likewise */
	wr = isl_union_map_empty(isl_map_get_space(rd));
	for (w = 0; w < n->naccesses; w++) {
		isl_map *wm;

		if (!n->access[w].is_write || n->access[w].array != n->access[acc].array ||
		    n->access[w].stmt < 0 || n->access[w].stmt >= n->nstmts)
			continue;
		if (!acc_map(m, w) || !(cs = stmt_conds(m, n->access[w].stmt))) {
			isl_union_map_free(wr);
			isl_map_free(rd);
			return -1;
		}
		wm = isl_map_intersect_domain(inbounds_map(m, w), cs);
		wr = isl_union_map_add_map(wr, wm);
	}
	/* write instance -> read instance of the same element, the write first */
	dep = isl_union_map_apply_range(wr, isl_union_map_reverse(isl_union_map_from_map(rd)));
	before = isl_union_map_lex_lt_union_map(isl_union_map_copy(m->sched),
						isl_union_map_copy(m->sched));
	dep = isl_union_map_intersect(dep, before);
	empty = isl_union_map_is_empty(dep);
	isl_union_map_free(dep);
	note_budget(m);
	return empty < 0 ? -1 : empty == isl_bool_true;
}

/* Access ACC's map (a copy) where C's index bounds hold (mp_access.bidx:
 * an inner subscript of a declared array within its dimension). */
static isl_map *inbounds_map(mp_model *m, int acc)
{
	const mp_nest *n = m->n;
	int s = n->access[acc].stmt, i;
	isl_map *map = isl_map_copy(m->acc[acc]);

	for (i = 0; i < n->access[acc].nbound && i < 3; i++) {
		sb b;
		isl_set *in;

		sb_reset(&b);
		sbf(&b, "%s -> { ", m->params);
		emit_tuple(&b, 'S', s, m->chain[s], m->depth[s]);
		sbf(&b, " : 0 <= ");
		if (emit_aff(&b, n, &n->access[acc].bidx[i], m->chain[s], m->depth[s]) < 0)
			continue;
		sbf(&b, " <= %" PRId64 " }", n->access[acc].bext[i] - 1);
		if (b.over || !(in = isl_set_read_from_str(m->ctx, trim_params(b.s))))
			continue;
		map = isl_map_intersect_domain(map, in);
	}
	return map;
}

isl_bool mp_model_access_injective(mp_model *m, int acc, const int *loops,
				   int nloops)
{
	const mp_nest *n = m->n;
	isl_map *map;
	isl_bool r;
	int s, d, i;

	if (acc < 0 || acc >= n->naccesses || !acc_map(m, acc))
		return isl_bool_error;
	if (m->whole[acc])
		return isl_bool_false;
	s = n->access[acc].stmt;
	/* the index bounds C guarantees (mp_access.bidx) */
	map = inbounds_map(m, acc);
	for (d = m->depth[s] - 1; d >= 0; d--) {
		int keep = 0;

		for (i = 0; i < nloops; i++)
			keep |= loops[i] == m->chain[s][d];
		if (!keep)
			map = isl_map_project_out(map, isl_dim_in, d, 1);
	}
	r = isl_map_is_single_valued(map);
	if (r == isl_bool_true)
		r = isl_map_is_injective(map);
	isl_map_free(map);
	note_budget(m);
	return r;
}

isl_bool mp_model_domain_is_box(mp_model *m, int stmt)
{
	isl_set *dom, *box = NULL;
	isl_bool r;
	int d, i;

	if (!m || stmt < 0 || stmt >= m->n->nstmts)
		return isl_bool_error;
	dom = m->dom[stmt];
	d = (int)isl_set_dim(dom, isl_dim_set);
	if (d == 0)
		return isl_bool_true;
	for (i = 0; i < d; i++) {
		isl_set *p = isl_set_copy(dom);

		p = isl_set_project_out(p, isl_dim_set, i + 1, (unsigned)(d - i - 1));
		p = isl_set_project_out(p, isl_dim_set, 0, (unsigned)i);
		box = box ? isl_set_flat_product(box, p) : p;
	}
	box = isl_set_set_tuple_id(box, isl_set_get_tuple_id(dom));
	r = isl_set_is_subset(box, dom);
	isl_set_free(box);
	note_budget(m);
	return r;
}

static isl_stat first_piece(__isl_take isl_set *set, __isl_take isl_aff *aff, void *user)
{
	isl_aff **out = user;

	isl_set_free(set);
	if (*out) {
		isl_aff_free(aff);
		return isl_stat_error;
	}
	*out = aff;
	return isl_stat_ok;
}

/* An isl_aff over the parameters as an mp_aff (p_<v>, q_<a>_<b>); -1 when
 * it has a division, a non-integer or too large coefficient, or a name
 * the model did not make. */
static int aff_to_mp(const mp_nest *n, __isl_keep isl_aff *aff, mp_aff *r)
{
	isl_val *v;
	int np, nd, i, bad = 0;

	mp_aff_const(r, 0);
	nd = (int)isl_aff_dim(aff, isl_dim_div);
	for (i = 0; i < nd && !bad; i++) {
		v = isl_aff_get_coefficient_val(aff, isl_dim_div, i);
		bad = !v || !isl_val_is_zero(v);
		isl_val_free(v);
	}
	if (isl_aff_dim(aff, isl_dim_in) > 0)
		bad = 1;
	v = isl_aff_get_constant_val(aff);
	if (!v || !isl_val_is_int(v))
		bad = 1;
	else
		r->cst = isl_val_get_num_si(v);
	isl_val_free(v);
	np = (int)isl_aff_dim(aff, isl_dim_param);
	for (i = 0; i < np && !bad; i++) {
		const char *name = isl_aff_get_dim_name(aff, isl_dim_param, i);
		int a = -1, b = -1;
		long c;

		v = isl_aff_get_coefficient_val(aff, isl_dim_param, i);
		if (!v || !isl_val_is_int(v)) {
			isl_val_free(v);
			bad = 1;
			break;
		}
		c = isl_val_get_num_si(v);
		isl_val_free(v);
		if (c == 0)
			continue;
		if (!name || (sscanf(name, "q_%d_%d", &a, &b) != 2 &&
			      sscanf(name, "p_%d", &a) != 1) ||
		    a < 0 || a >= n->nvars || b >= n->nvars || c > INT32_MAX || c < -INT32_MAX) {
			bad = 1;
			break;
		}
		if (r->n >= MP_MAX_TERMS) {
			bad = 1;
			break;
		}
		r->t[r->n].coef = c;
		r->t[r->n].v1 = a;
		r->t[r->n].v2 = b;
		r->n++;
	}
	return bad ? -1 : 0;
}

static int box_or_hull(mp_model *m, const int *loops, int nl, mp_aff *lo, mp_aff *hi,
		       int hull);

int mp_model_box(mp_model *m, const int *loops, int nl, mp_aff *lo, mp_aff *hi)
{
	return box_or_hull(m, loops, nl, lo, hi, 0);
}

int mp_model_hull(mp_model *m, const int *loops, int nl, mp_aff *lo, mp_aff *hi)
{
	return box_or_hull(m, loops, nl, lo, hi, 1);
}

static int box_or_hull(mp_model *m, const int *loops, int nl, mp_aff *lo, mp_aff *hi,
		       int hull)
{
	int saved[MP_MAX_LOOPS], t, e, r = 0, k;
	isl_set *dom;
	sb *b;

	if (!m || nl <= 0 || nl > MP_MAX_LOOPS)
		return -1;
	b = malloc(sizeof(sb));
	if (!b)
		return -1;
	/* the domain of the listed loops alone (emit_domain marks a bound it
	   cannot write; here that means "no box") */
	memcpy(saved, m->lbounds_ok, sizeof(saved));
	sb_reset(b);
	emit_domain(m, b, 'B', 0, loops, nl);
	for (k = 0; k < MP_MAX_LOOPS; k++)
		if (saved[k] != m->lbounds_ok[k])
			r = 1;
	memcpy(m->lbounds_ok, saved, sizeof(saved));
	dom = r || b->over ? NULL : isl_set_read_from_str(m->ctx, trim_params(b->s));
	if (!dom) {
		free(b);
		note_budget(m);
		return r ? 1 : -1;
	}
	dom = isl_set_reset_tuple_id(dom);
	for (t = hull ? nl - 1 : 0; t < nl && r == 0; t++) {
		isl_set *proj = isl_set_copy(dom), *want;
		isl_pw_aff *pa[2];
		isl_bool eq;

		proj = isl_set_project_out(proj, isl_dim_set, (unsigned)(t + 1),
					   (unsigned)(nl - t - 1));
		proj = isl_set_project_out(proj, isl_dim_set, 0, (unsigned)t);
		pa[0] = isl_set_dim_min(isl_set_copy(proj), 0);
		pa[1] = isl_set_dim_max(isl_set_copy(proj), 0);
		for (e = 0; e < 2 && r == 0; e++) {
			isl_aff *aff = NULL;

			if (!pa[e])
				r = -1;
			else if (isl_pw_aff_n_piece(pa[e]) != 1 ||
				 isl_pw_aff_foreach_piece(pa[e], first_piece, &aff) < 0 ||
				 !aff || aff_to_mp(m->n, aff, e ? &hi[t] : &lo[t]) < 0)
				r = 1;
			isl_aff_free(aff);
		}
		isl_pw_aff_free(pa[0]);
		isl_pw_aff_free(pa[1]);
		if (r) {
			isl_set_free(proj);
			break;
		}
		/* the projection is the whole interval, for every parameter
		   value (empty exactly where lo > hi) */
		sb_reset(b);
		sbf(b, "%s -> { [c] : ", m->params);
		if (emit_aff(b, m->n, &lo[t], loops, 0) < 0) {
			r = 1;
		} else {
			sbf(b, " <= c <= ");
			if (emit_aff(b, m->n, &hi[t], loops, 0) < 0)
				r = 1;
		}
		sbf(b, " }");
		want = r || b->over ? NULL : isl_set_read_from_str(m->ctx, trim_params(b->s));
		if (!want) {
			isl_set_free(proj);
			r = r ? r : -1;
			break;
		}
		proj = isl_set_reset_tuple_id(proj);
		if (hull && nl > 1) {
			/* where the loops around it run */
			isl_set *ctx = isl_set_params(isl_set_project_out(
				isl_set_copy(dom), isl_dim_set, (unsigned)(nl - 1), 1));

			want = isl_set_intersect_params(want, ctx);
		}
		eq = isl_set_is_equal(proj, want);
		isl_set_free(proj);
		isl_set_free(want);
		if (eq != isl_bool_true)
			r = eq < 0 ? -1 : 1;
	}
	isl_set_free(dom);
	free(b);
	note_budget(m);
	return r;
}

int64_t mp_model_max_trip(mp_model *m, int loop)
{
	isl_set *dom, *delta;
	isl_map *pairs;
	isl_val *v;
	int np, d, i;
	int64_t r = -1;

	if (!m || loop < 0 || loop >= m->n->nloops)
		return -1;
	dom = loop_domain(m, loop);
	if (!dom)
		return -1;
	dom = isl_set_copy(dom);
	np = (int)isl_set_dim(dom, isl_dim_param);
	dom = isl_set_move_dims(dom, isl_dim_set, 0, isl_dim_param, 0, (unsigned)np);
	d = (int)isl_set_dim(dom, isl_dim_set);
	pairs = isl_map_from_domain_and_range(isl_set_copy(dom), dom);
	for (i = 0; i < d - 1; i++)
		pairs = isl_map_equate(pairs, isl_dim_in, i, isl_dim_out, i);
	delta = isl_map_deltas(pairs);
	v = isl_set_dim_max_val(delta, d - 1);
	if (v && isl_val_is_int(v) && isl_val_is_nonneg(v)) {
		long x = isl_val_get_num_si(v);
		int64_t s = m->n->loop[loop].step > 1 ? m->n->loop[loop].step : 1;

		r = (int64_t)x / s + 1;
	} else if (v && isl_val_is_nan(v))
		r = 0; /* the loop never runs */
	isl_val_free(v);
	note_budget(m);
	return r;
}
