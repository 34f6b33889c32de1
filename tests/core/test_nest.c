/* test_nest.c -- builders, affine helpers and the text format of mp_nest:
 * a nest built the way the glue builds it prints, parses back and prints
 * the same text; malformed text is rejected with a line number.
 */
#include "mp_nest.h"
#include "core_test.h"

static void test_aff(void)
{
	static mp_nest n;
	mp_aff i, k, K, t, r;
	char buf[128];
	int vi, vk, vK, vM;
	int64_t c;

	mp_nest_init(&n);
	vi = mp_nest_add_var(&n, "i", MP_VAR_ITER, MP_TY_S32);
	vk = mp_nest_add_var(&n, "k", MP_VAR_ITER, MP_TY_S32);
	vK = mp_nest_add_var(&n, "K", MP_VAR_PARAM, MP_TY_S32);
	vM = mp_nest_add_var(&n, "M", MP_VAR_PARAM, MP_TY_S32);
	mp_aff_var(&i, vi);
	mp_aff_var(&k, vk);
	mp_aff_var(&K, vK);
	/* 4*(i*K + k) */
	CHECK(mp_aff_mul(&n, &t, &i, &K) == 0, "i*K");
	CHECK(mp_aff_add(&t, &t, &k) == 0, "+k");
	CHECK(mp_aff_scale(&r, &t, 4) == 0, "*4");
	mp_aff_print(&n, &r, buf, sizeof(buf));
	CHECK(strcmp(buf, "4*i*K + 4*k") == 0, "print: %s", buf);
	mp_aff_coef_of(&r, vi, &t);
	mp_aff_print(&n, &t, buf, sizeof(buf));
	CHECK(strcmp(buf, "4*K") == 0, "coef of i: %s", buf);
	mp_aff_coef_of(&r, vk, &t);
	CHECK(mp_aff_is_const(&t, &c) && c == 4, "coef of k");
	CHECK(mp_aff_uses_var(&r, vK) && !mp_aff_uses_var(&r, vM), "uses");
	/* K*i is the same term as i*K: they cancel */
	CHECK(mp_aff_mul(&n, &t, &K, &i) == 0, "K*i");
	CHECK(mp_aff_scale(&t, &t, -4) == 0 && mp_aff_add(&t, &r, &t) == 0, "cancel");
	mp_aff_print(&n, &t, buf, sizeof(buf));
	CHECK(strcmp(buf, "4*k") == 0, "after cancel: %s", buf);
	/* (i + 1) * (k - 2): iter*iter is not affine */
	CHECK(mp_aff_mul(&n, &t, &i, &k) == -1, "i*k refused");
	/* (i + 1)*(K - 2) = i*K - 2*i + K - 2 */
	mp_aff_const(&t, 1);
	mp_aff_add(&t, &t, &i);
	mp_aff_const(&r, -2);
	mp_aff_add(&r, &r, &K);
	CHECK(mp_aff_mul(&n, &r, &t, &r) == 0, "(i+1)*(K-2)");
	mp_aff_print(&n, &r, buf, sizeof(buf));
	CHECK(strcmp(buf, "-2*i + K + i*K - 2") == 0, "product: %s", buf);
	/* (i*K) * M: three factors, the parameters folded into K*M */
	mp_aff_mul(&n, &t, &i, &K);
	mp_aff_var(&r, vM);
	CHECK(mp_aff_mul(&n, &t, &t, &r) == 0, "i*K*M");
	mp_aff_print(&n, &t, buf, sizeof(buf));
	CHECK(strcmp(buf, "i*K*M") == 0, "i*K*M: %s", buf);
	{
		int pv = mp_nest_find_var(&n, "K*M");
		mp_aff t2, km;

		CHECK(pv >= 0 && n.var[pv].kind == MP_VAR_PARAM && n.var[pv].prod[0] == vK &&
		      n.var[pv].prod[1] == vM, "product variable K*M");
		/* M*(K*i): the same variable */
		mp_aff_mul(&n, &t2, &K, &i);
		mp_aff_mul(&n, &t2, &r, &t2);
		CHECK(t2.n == 1 && t2.t[0].v2 == pv, "M*(K*i) reuses K*M");
		/* (K*M) * K * M: parameters only, two factors a term */
		mp_aff_mul(&n, &km, &K, &r);
		mp_aff_mul(&n, &km, &km, &K);
		mp_aff_mul(&n, &km, &km, &r);
		CHECK(km.n == 1 && km.t[0].v1 >= 0 && km.t[0].v2 >= 0, "K*M*K*M: one term");
		/* i * k * M: two iterators are still not affine */
		mp_aff_mul(&n, &t2, &i, &r);
		CHECK(mp_aff_mul(&n, &t2, &t2, &k) == -1, "i*M*k refused");
	}
	mp_aff_const(&t, 0);
	mp_aff_print(&n, &t, buf, sizeof(buf));
	CHECK(strcmp(buf, "0") == 0, "zero: %s", buf);
	CHECK(mp_aff_print(&n, &r, buf, 1) == -1, "truncation reported");
}

/* Build  for i { s = 0; for k { s += (int)x[i*K+k] * (int)w[k] }; y[i] = s }
 * through the builders, in the glue's order (statement ids before their
 * expressions), then print/parse/print. */
static void test_builders_roundtrip(void)
{
	static mp_nest n, n2;
	static char t1[8192], t2[8192];
	int vM, vK, vx, vw, vy, vi, vk, vs, ax, aw, ay, li, lk;
	mp_aff lo, hi, off, tmp;
	mp_expr e;
	mp_stmt s;
	int ex, ew, cx, cw, mul, rd, add, zero;

	mp_nest_init(&n);
	vM = mp_nest_add_var(&n, "M", MP_VAR_PARAM, MP_TY_S32);
	vK = mp_nest_add_var(&n, "K", MP_VAR_PARAM, MP_TY_S32);
	vx = mp_nest_add_var(&n, "x", MP_VAR_PARAM, MP_TY_PTR);
	vw = mp_nest_add_var(&n, "w", MP_VAR_PARAM, MP_TY_PTR);
	vy = mp_nest_add_var(&n, "y", MP_VAR_PARAM, MP_TY_PTR);
	vi = mp_nest_add_var(&n, "i", MP_VAR_ITER, MP_TY_S32);
	vk = mp_nest_add_var(&n, "k", MP_VAR_ITER, MP_TY_S32);
	vs = mp_nest_add_var(&n, "s", MP_VAR_LOCAL, MP_TY_S32);
	n.var[vs].used_after = 1;
	ax = mp_nest_add_array(&n, "x", vx, 0, -1);
	aw = mp_nest_add_array(&n, "w", vw, 0, -1);
	ay = mp_nest_add_array(&n, "y", vy, 0, -1);
	mp_aff_const(&lo, 0);
	mp_aff_var(&hi, vM);
	mp_aff_const(&tmp, -1);
	mp_aff_add(&hi, &hi, &tmp);
	li = mp_nest_add_loop(&n, vi, -1, 0, &lo, &hi, 1);
	n.loop[li].loc = 100;
	mp_aff_var(&hi, vK);
	mp_aff_add(&hi, &hi, &tmp);
	lk = mp_nest_add_loop(&n, vk, li, 1, &lo, &hi, 1);

	memset(&e, 0, sizeof(e));
	e.kind = MP_X_CONST; e.type = MP_TY_S32; e.var = e.access = e.a = e.b = -1;
	zero = mp_nest_add_expr(&n, &e);
	memset(&s, 0, sizeof(s));
	s.kind = MP_S_ASSIGN; s.loop = li; s.pos = 0; s.lhs_var = vs; s.lhs_access = -1;
	s.rhs = zero; s.loc = 7;
	mp_nest_add_stmt(&n, &s);

	/* reduction: stmt 1 */
	mp_aff_var(&off, vi);
	mp_aff_var(&tmp, vK);
	mp_aff_mul(&n, &off, &off, &tmp);
	mp_aff_var(&tmp, vk);
	mp_aff_add(&off, &off, &tmp);
	e.kind = MP_X_LOAD; e.type = MP_TY_S8;
	e.access = mp_nest_add_access(&n, ax, &off, 1, MP_TY_S8, 1, 0, 1);
	ex = mp_nest_add_expr(&n, &e);
	e.access = mp_nest_add_access(&n, aw, &tmp, 1, MP_TY_S8, 1, 0, 1);
	n.access[e.access].loc = 55;
	ew = mp_nest_add_expr(&n, &e);
	e.access = -1;
	e.kind = MP_X_CAST; e.type = MP_TY_S32; e.a = ex;
	cx = mp_nest_add_expr(&n, &e);
	e.a = ew;
	cw = mp_nest_add_expr(&n, &e);
	e.kind = MP_X_MUL; e.a = cx; e.b = cw;
	mul = mp_nest_add_expr(&n, &e);
	e.kind = MP_X_VAR; e.var = vs; e.a = e.b = -1;
	rd = mp_nest_add_expr(&n, &e);
	e.kind = MP_X_ADD; e.var = -1; e.a = rd; e.b = mul;
	add = mp_nest_add_expr(&n, &e);
	s.loop = lk; s.pos = 0; s.rhs = add; s.loc = 8;
	mp_nest_add_stmt(&n, &s);

	/* epilogue: y[4*i] = clamp(s) with a float constant thrown in */
	e.kind = MP_X_CONST; e.type = MP_TY_F32; e.fcst = 0.5; e.a = e.b = -1;
	ex = mp_nest_add_expr(&n, &e);
	e.kind = MP_X_OTHER; e.type = MP_TY_S32; e.a = rd; e.b = ex;
	strcpy(e.op, "clamp");
	ew = mp_nest_add_expr(&n, &e);
	mp_aff_var(&off, vi);
	mp_aff_scale(&off, &off, 4);
	memset(&s, 0, sizeof(s));
	s.kind = MP_S_STORE; s.loop = li; s.pos = 2; s.lhs_var = -1; s.rhs = ew;
	s.lhs_access = mp_nest_add_access(&n, ay, &off, 1, MP_TY_S32, 4, 1, 2);
	s.guarded = 1;
	mp_nest_add_stmt(&n, &s);
	/* an access the glue recorded for a statement but no expression uses */
	mp_nest_add_access(&n, ay, NULL, 0, MP_TY_S32, 4, 0, 2);
	CHECK(n.error[0] == 0, "builder error: %s", n.error);

	CHECK(mp_nest_print(&n, t1, sizeof(t1)) == 0, "print");
	CHECK(strstr(t1, "stmt k pos=0 loc=8 : s = (+ s (* (cast:s32 x[i*K+k]:s8) "
		     "(cast:s32 w[k]:s8@55)))\n") != NULL, "reduction line:\n%s", t1);
	CHECK(strstr(t1, "loop i pos=0 lo=0 hi=M-1 loc=100\n") != NULL, "loop line:\n%s", t1);
	CHECK(strstr(t1, "(other:s32 \"clamp\" s 0.5:f32)") != NULL, "other:\n%s", t1);
	CHECK(strstr(t1, "access 2 read y[?]:s32\n") != NULL, "orphan access:\n%s", t1);
	CHECK(strstr(t1, "var s local s32 used_after\n") != NULL, "used_after:\n%s", t1);
	CHECK(mp_nest_parse(&n2, t1) == 0, "parse: %s\n%s", n2.error, t1);
	CHECK(mp_nest_print(&n2, t2, sizeof(t2)) == 0, "print 2");
	CHECK(strcmp(t1, t2) == 0, "round trip:\n%s---\n%s", t1, t2);
	CHECK(n2.nstmts == 3 && n2.naccesses == 4 && n2.nloops == 2, "counts");
	CHECK(n2.stmt[2].guarded && n2.loop[1].parent == 0 && n2.loop[1].pos == 1,
	      "structure");
	CHECK(mp_nest_print(&n, t1, 64) == -1, "truncation reported");
	(void)vy;
}

static void test_parse_errors(void)
{
	static mp_nest n;
	static const struct { const char *text, *msg; } bad[] = {
		{ "var i iter s32\nloop i lo=0\n", "line 2: loop 'i' needs lo= and hi=" },
		{ "var i iter s32\nloop i lo=0 hi=Q\n", "line 2: unknown variable 'Q'" },
		{ "var i iter s99\n", "unknown type 's99'" },
		{ "bogus\n", "line 1: unknown directive 'bogus'" },
		{ "var i iter s32\nvar i iter s32\n", "declared twice" },
		{ "var i iter s32\nloop i lo=0 hi=9\nstmt i : z = 0\n", "unknown variable 'z'" },
		{ "var i iter s32\nloop i lo=0 hi=9\nstmt i : q[i]:s8 = 0\n",
		  "unknown array 'q'" },
		{ "var s local s32\nstmt - : s = (cast 1)\n", "needs a ':type'" },
		{ "var s local s32\nstmt - : s = (+ s)\n", "line 2:" },
		{ "var s local s32\nstmt k : s = 1\n", "'k' is not the iterator" },
		{ "var s local s32\nstmt - : s = 1 junk\n", "unexpected text" },
		{ "var s local s32\nstmt - : s = (call \"f\" s)\n", "needs a ':type'" },
		{ "var s local s32\nstmt - : s = (call:s32 \"f\" s _)\n",
		  "'_' is not an argument of a call" },
		{ "var s local s32\nstmt - : s = (call:s32 \"f\" 1 2 3 4 5 6 7 8 9)\n",
		  "a call has more than 8 arguments" },
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK(mp_nest_parse(&n, bad[i].text) == -1, "accepted: %s", bad[i].text);
		CHECK(strstr(n.error, bad[i].msg) != NULL, "message '%s' for: %s",
		      n.error, bad[i].text);
	}
	/* comments, blank lines, default positions */
	CHECK(mp_nest_parse(&n, "# a comment\n\nvar i iter s32  # trailing\n"
			    "var s local s32\nloop i lo=0 hi=9\nstmt i : s = 0\n"
			    "stmt i : s = (+ s 1)\n") == 0, "comments: %s", n.error);
	CHECK(n.stmt[0].pos == 0 && n.stmt[1].pos == 1, "default positions");
}

/* MP_X_CALL: all the arguments, a/b mirror the first two, the text format
 * round-trips, and a call with too many arguments is an error. */
static void test_call(void)
{
	static mp_nest n, n2;
	static char t1[4096], t2[4096];
	static const char *text =
		"var s local s32\nvar sc param f32\nvar zy param s32\nvar y param ptr\n"
		"array y base=y\n"
		"stmt - : y[0]:s8 = (cast:s8 (call:s32 \"mp_requant_gemmlowp\" s "
		"(cast:s32 sc) zy -128 127 (neg zy)))\n"
		"stmt - : s = (call:s32 \"rand\")\n";
	mp_expr e;
	int c, i;

	CHECK(mp_nest_parse(&n, text) == 0, "parse: %s", n.error);
	c = n.stmt[0].rhs;
	c = n.expr[c].a;
	CHECK(n.expr[c].kind == MP_X_CALL && n.expr[c].nargs == 6 &&
	      !strcmp(n.expr[c].op, "mp_requant_gemmlowp"), "call node");
	CHECK(n.expr[c].a == n.expr[c].args[0] && n.expr[c].b == n.expr[c].args[1] &&
	      n.expr[n.expr[c].args[0]].kind == MP_X_VAR &&
	      n.expr[n.expr[c].args[5]].kind == MP_X_NEG, "call args");
	c = n.stmt[1].rhs;
	CHECK(n.expr[c].kind == MP_X_CALL && n.expr[c].nargs == 0 &&
	      n.expr[c].a == -1 && n.expr[c].b == -1, "call without arguments");
	CHECK(mp_nest_print(&n, t1, sizeof(t1)) == 0, "print");
	CHECK(strstr(t1, "(cast:s8 (call:s32 \"mp_requant_gemmlowp\" s (cast:s32 sc) zy "
		     "-128 127 (neg zy)))") != NULL, "call printed:\n%s", t1);
	CHECK(strstr(t1, "(call:s32 \"rand\")") != NULL, "empty call printed:\n%s", t1);
	CHECK(mp_nest_parse(&n2, t1) == 0, "reparse: %s", n2.error);
	CHECK(mp_nest_print(&n2, t2, sizeof(t2)) == 0 && !strcmp(t1, t2),
	      "round trip:\n%s---\n%s", t1, t2);
	CHECK(memcmp(&n, &n2, sizeof(n)) == 0, "reparsed nest differs");

	/* builders: a/b filled from args; too many arguments refused */
	memset(&e, 0, sizeof(e));
	e.kind = MP_X_CALL; e.type = MP_TY_S32; e.var = e.access = -1;
	e.a = e.b = 77;
	strcpy(e.op, "f");
	e.nargs = 1;
	e.args[0] = 0;
	c = mp_nest_add_expr(&n, &e);
	CHECK(c >= 0 && n.expr[c].a == 0 && n.expr[c].b == -1, "builder a/b");
	e.nargs = MP_MAX_ARGS + 1;
	for (i = 0; i < MP_MAX_ARGS; i++)
		e.args[i] = 0;
	CHECK(mp_nest_add_expr(&n, &e) == -1 && strstr(n.error, "at most 8"),
	      "too many args: %s", n.error);
}

static void test_table_limits(void)
{
	static mp_nest n;
	char name[16];
	int i, r = 0;

	mp_nest_init(&n);
	for (i = 0; i <= MP_MAX_VARS; i++) {
		snprintf(name, sizeof(name), "v%d", i);
		r = mp_nest_add_var(&n, name, MP_VAR_PARAM, MP_TY_S32);
	}
	CHECK(r == -1 && strstr(n.error, "more than 96 variables"), "var table: %s", n.error);
	CHECK(strcmp(mp_scalar_name(MP_TY_U8), "u8") == 0 && mp_scalar_bits(MP_TY_S64) == 64 &&
	      mp_scalar_is_int(MP_TY_U16) && !mp_scalar_is_int(MP_TY_F32) &&
	      mp_scalar_bits(MP_TY_OTHER) == 0, "scalar helpers");
}

int main(void)
{
	test_aff();
	test_builders_roundtrip();
	test_parse_errors();
	test_call();
	test_table_limits();
	CT_DONE("test_core_nest");
}
