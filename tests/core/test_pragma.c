/* test_pragma.c -- table-driven tests of mp_pragma_parse (polyhedral/mp_pragma.c).
 *
 * Each case is the text after `#pragma mixprec`, split into mp_tokens by a
 * small tokenizer below (names, pp-numbers as the C preprocessor forms them,
 * punctuators, strings).  Token i gets location cookie 100 + i, so that loc
 * fields can be checked.  Valid cases check every field of mp_pragma; error
 * cases check a substring of the message and the offending token index.
 * Exit status 0 when all cases pass, 1 otherwise (each failure is printed).
 */
#include "mp_nest.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOC0 100
#define AT_END (-2)  /* err_tok expected == ntok */

/* ------------------------------------------------------------ tokenizer */

static int tokenize(const char *s, mp_token *tok, int max)
{
	static const char *const two[] = { "==", "!=", "<=", ">=", "<<", ">>",
					   "->", "&&", "||", "++", "--" };
	int n = 0;
	while (*s) {
		size_t len = 0;
		mp_tok_kind kind;
		if (isspace((unsigned char)*s)) {
			s++;
			continue;
		}
		if (isalpha((unsigned char)*s) || *s == '_') {
			kind = MP_TOK_NAME;
			while (isalnum((unsigned char)s[len]) || s[len] == '_')
				len++;
		} else if (isdigit((unsigned char)*s)) {
			/* pp-number: digit { digit | letter | '_' | '.' | [eEpP] sign } */
			kind = MP_TOK_NUMBER;
			while (isalnum((unsigned char)s[len]) || s[len] == '_' || s[len] == '.' ||
			       ((s[len] == '+' || s[len] == '-') && strchr("eEpP", s[len - 1])))
				len++;
		} else if (*s == '"') {
			kind = MP_TOK_STRING;
			len = 1;
			while (s[len] && s[len] != '"')
				len++;
			if (s[len] == '"')
				len++;
		} else {
			kind = MP_TOK_PUNCT;
			len = 1;
			for (size_t k = 0; k < sizeof two / sizeof two[0]; k++)
				if (strncmp(s, two[k], 2) == 0)
					len = 2;
		}
		if (n >= max)
			return -1;
		if (len >= sizeof tok[n].text)
			len = sizeof tok[n].text - 1;
		tok[n].kind = kind;
		memcpy(tok[n].text, s, len);
		tok[n].text[len] = 0;
		tok[n].loc = LOC0 + n;
		n++;
		s += len;
		while (*s && (isalnum((unsigned char)*s) || *s == '_') && kind == MP_TOK_STRING)
			s++;
	}
	return n;
}

/* ---------------------------------------------------------------- cases */

typedef struct tcase {
	const char *src;
	int ok;
	/* ok == 1: expected fields */
	mp_prec prec;
	mp_accty acc;
	mp_target target;
	mp_scale_kind scale;
	int scale_first, scale_count;
	int tile_m, tile_n, tile_k;
	int verify;
	int loc, scale_loc;
	int auto_mask;
	/* ok == 0: expected message substring(s) and token index */
	const char *msg;
	const char *msg2;
	int err_tok;
} tcase;

/* valid case: defaults except prec (scale_first is checked only for
   MP_SCALE_EXPR; otherwise -1 is expected) */
#define OK(s, p) .src = s, .ok = 1, .prec = p, .loc = LOC0 + 1
#define ERR(s, m, t) .src = s, .ok = 0, .msg = m, .err_tok = t

static const tcase cases[] = {
	/* ---- valid forms */
	{ OK("(int8)", MP_PREC_INT8) },
	{ OK("(uint8)", MP_PREC_UINT8) },
	{ OK("(bf16)", MP_PREC_BF16) },
	{ OK("(fp16)", MP_PREC_FP16) },
	{ OK("(fp8_e4m3)", MP_PREC_FP8_E4M3) },
	{ OK("(fp8_e5m2)", MP_PREC_FP8_E5M2) },
	{ OK("( int8 , acc = int32 , target = avx512vnni )", MP_PREC_INT8),
	  .acc = MP_ACC_INT32, .target = MP_TARGET_AVX512VNNI },
	{ OK("(uint8, acc=int32, scale=dynamic)", MP_PREC_UINT8), .acc = MP_ACC_INT32,
	  .scale = MP_SCALE_DYNAMIC, .scale_loc = LOC0 + 7 },
	{ OK("(bf16, acc=fp32, target=avx512bf16, verify)", MP_PREC_BF16),
	  .acc = MP_ACC_FP32, .target = MP_TARGET_AVX512BF16, .verify = 1 },
	{ OK("(fp16, target=scalar)", MP_PREC_FP16), .target = MP_TARGET_SCALAR },
	{ OK("(int8, target=avx2)", MP_PREC_INT8), .target = MP_TARGET_AVX2 },
	{ OK("(int8, target=avxvnni)", MP_PREC_INT8), .target = MP_TARGET_AVXVNNI },
	{ OK("(int8, target=auto)", MP_PREC_INT8), .target = MP_TARGET_AUTO },
	/* auto: every candidate, or the listed ones */
	{ OK("(auto)", MP_PREC_AUTO), .auto_mask = MP_AUTO_CANDIDATES },
	{ OK("(auto(int8, bf16))", MP_PREC_AUTO),
	  .auto_mask = (1 << MP_PREC_INT8) | (1 << MP_PREC_BF16) },
	{ OK("( auto ( fp8_e5m2 ) , verify, acc=fp32)", MP_PREC_AUTO), .verify = 1,
	  .acc = MP_ACC_FP32, .auto_mask = 1 << MP_PREC_FP8_E5M2 },
	{ OK("(auto, scale=dynamic, constant=w)", MP_PREC_AUTO), .scale = MP_SCALE_DYNAMIC,
	  .scale_loc = LOC0 + 3, .auto_mask = MP_AUTO_CANDIDATES },
	/* scale expressions: token ranges */
	{ OK("(fp8_e4m3, scale=s)", MP_PREC_FP8_E4M3), .scale = MP_SCALE_EXPR,
	  .scale_first = 5, .scale_count = 1, .scale_loc = LOC0 + 3 },
	{ OK("(int8, scale=sc[j] * (1.0f / 127), acc=int32)", MP_PREC_INT8),
	  .scale = MP_SCALE_EXPR, .scale_first = 5, .scale_count = 10,
	  .scale_loc = LOC0 + 3, .acc = MP_ACC_INT32 },
	{ OK("(bf16, verify, scale=f(a, b), tile=8x8x2)", MP_PREC_BF16), .verify = 1,
	  .scale = MP_SCALE_EXPR, .scale_first = 7, .scale_count = 6,
	  .scale_loc = LOC0 + 5, .tile_m = 8, .tile_n = 8, .tile_k = 2 },
	{ OK("(int8, scale=dynamic_scale)", MP_PREC_INT8), .scale = MP_SCALE_EXPR,
	  .scale_first = 5, .scale_count = 1, .scale_loc = LOC0 + 3 },
	{ OK("(int8, scale=dynamic*2)", MP_PREC_INT8), .scale = MP_SCALE_EXPR,
	  .scale_first = 5, .scale_count = 3, .scale_loc = LOC0 + 3 },
	/* tile shapes */
	{ OK("(int8, tile=64x32x4)", MP_PREC_INT8), .tile_m = 64, .tile_n = 32, .tile_k = 4 },
	{ OK("(int8, tile=64 x32x4)", MP_PREC_INT8), .tile_m = 64, .tile_n = 32, .tile_k = 4 },
	{ OK("(int8, tile=64 x 32 x 4)", MP_PREC_INT8), .tile_m = 64, .tile_n = 32, .tile_k = 4 },
	{ OK("(int8, tile=4096x1x4096)", MP_PREC_INT8), .tile_m = 4096, .tile_n = 1, .tile_k = 4096 },
	{ OK("(int8, acc=int32, scale=z, target=avx2, tile=16X16X64, verify)", MP_PREC_INT8),
	  .acc = MP_ACC_INT32, .scale = MP_SCALE_EXPR, .scale_first = 9,
	  .scale_count = 1, .scale_loc = LOC0 + 7, .target = MP_TARGET_AVX2,
	  .tile_m = 16, .tile_n = 16, .tile_k = 64, .verify = 1 },

	/* ---- errors */
	{ ERR("", "expected '(' after '#pragma mixprec'", 0) },
	{ ERR("int8", "expected '(' after '#pragma mixprec'", 0) },
	{ ERR("[int8]", "expected '(' after '#pragma mixprec'", 0) },
	{ ERR("(", "missing ')'", AT_END) },
	{ ERR("(int8", "missing ')'", AT_END) },
	{ ERR("(int8, acc=int32", "missing ')'", AT_END) },
	{ ERR("(int8,", "missing ')'", AT_END) },
	{ ERR("(int8, scale=s", "missing ')'", AT_END) },
	{ ERR("()", "empty argument list in '#pragma mixprec'", 1) },
	{ ERR("(, acc=int32)", "missing precision", 1) },
	{ ERR("(acc=int32)", "missing precision", 1), .msg2 = "found clause 'acc'" },
	{ ERR("(int4)", "unknown precision 'int4' in '#pragma mixprec'; expected one of int8, uint8, bf16, fp16, fp8_e4m3, fp8_e5m2, auto", 1) },
	{ ERR("(auto())", "invalid candidate ')' for 'auto' in '#pragma mixprec'; expected one of int8, uint8, bf16, fp8_e4m3, fp8_e5m2", 3) },
	{ ERR("(auto(fp16))", "invalid candidate 'fp16' for 'auto'", 3) },
	{ ERR("(auto(auto))", "invalid candidate 'auto' for 'auto'", 3) },
	{ ERR("(auto(int8, int8))", "duplicate candidate 'int8' of 'auto'", 5) },
	{ ERR("(auto(int8 bf16))", "expected ',' or ')' in the candidates of 'auto'", 4) },
	{ ERR("(auto(int8", "expected ',' or ')' in the candidates of 'auto'", AT_END) },
	{ ERR("(auto, acc=int32)", "acc=int32 is not valid with auto", 5) },
	{ ERR("(auto, scale=s)", "scale= is not valid with 'auto'", 5) },
	{ ERR("(int8, auto)", "second precision 'auto'", 3) },
	{ ERR("(INT8)", "unknown precision 'INT8'", 1) },
	{ ERR("(8)", "unknown precision '8'", 1) },
	{ ERR("(int8 acc=int32)", "expected ',' or ')' before 'acc'", 2) },
	{ ERR("(int8, foo=1)", "unknown clause 'foo' in '#pragma mixprec'; expected one of acc, constant, scale, target, tile, verify", 3) },
	{ ERR("(int8, =int32)", "unknown clause '='", 3) },
	{ ERR("(int8, uint8)", "second precision 'uint8'", 3) },
	{ ERR("(int8,,acc=int32)", "empty clause", 3) },
	{ ERR("(int8, acc=int32,)", "empty clause", 7), .msg2 = "trailing ','" },
	{ ERR("(int8, acc=int32, acc=int32)", "duplicate clause 'acc' in '#pragma mixprec'", 7) },
	{ ERR("(int8, verify, verify)", "duplicate clause 'verify'", 5) },
	{ ERR("(int8, target=avx2, tile=8x8x4, target=scalar)", "duplicate clause 'target'", 11) },
	{ ERR("(int8, acc)", "expected '=' after 'acc'", 4), .msg2 = "found ')'" },
	{ ERR("(int8, acc int32)", "expected '=' after 'acc'", 4) },
	{ ERR("(int8, target==avx2)", "expected '=' after 'target'", 4) },
	{ ERR("(int8, acc=)", "missing value for 'acc'", 5), .msg2 = "int32, fp32" },
	{ ERR("(int8, scale=, acc=int32)", "missing value for 'scale'", 5) },
	{ ERR("(int8, target=)", "missing value for 'target'", 5), .msg2 = "avx512vnni" },
	{ ERR("(int8, tile=)", "missing value for 'tile'", 5) },
	{ ERR("(int8, acc=int16)", "invalid value 'int16' for 'acc' in '#pragma mixprec'; expected one of int32, fp32", 5) },
	{ ERR("(int8, acc=int32 int32)", "expected ',' or ')' before 'int32'", 6) },
	{ ERR("(int8, target=avx512)", "invalid value 'avx512' for 'target'", 5),
	  .msg2 = "auto, scalar, avx2, avx512vnni, avxvnni, avx512bf16, dotprod, i8mm" },
	{ ERR("(int8, target=\"avx2\")", "invalid value '\"avx2\"' for 'target'", 5) },
	{ ERR("(int8, tile=64x32)", "invalid value '64x32' for 'tile'", 5), .msg2 = "MxNxK" },
	{ ERR("(int8, tile=64x32x4x2)", "invalid value '64x32x4x2' for 'tile'", 5) },
	{ ERR("(int8, tile=64*32*4)", "invalid value '64*32*4' for 'tile'", 5) },
	{ ERR("(int8, tile=ax32x4)", "invalid value 'ax32x4' for 'tile'", 5) },
	{ ERR("(int8, tile=-64x32x4)", "invalid value", 5) },
	{ ERR("(int8, tile=0x32x4)", "tile size M=0", 5), .msg2 = "from 1 to 4096" },
	{ ERR("(int8, tile=64 x 4097 x 4)", "tile size N=4097", 5) },
	{ ERR("(int8, tile=8x8x99999999999999999999)", "tile size K=99999999999999999999", 5) },
	{ ERR("(int8, verify=1)", "clause 'verify' of '#pragma mixprec' takes no value", 4) },
	{ ERR("(int8, acc=fp32)", "acc=fp32 is not valid with int8 in '#pragma mixprec'", 5),
	  .msg2 = "require acc=int32" },
	{ ERR("(uint8, acc=fp32)", "acc=fp32 is not valid with uint8", 5) },
	{ ERR("(bf16, acc=int32)", "acc=int32 is not valid with bf16", 5), .msg2 = "require acc=fp32" },
	{ ERR("(fp8_e5m2, target=avx2, acc=int32)", "acc=int32 is not valid with fp8_e5m2", 9) },
	{ ERR("(int8, scale=f(a, acc=int32)", "missing ')' at the end of '#pragma mixprec'", AT_END) },
	{ ERR("(int8, scale=f(a, acc=int32", "unbalanced parentheses in 'scale' expression", 6),
	  .msg2 = "'(' is not closed" },
	{ ERR("(int8, scale=a[i)", "unbalanced parentheses", 8), .msg2 = "unexpected ')'" },
	{ ERR("(int8, scale=a]", "unbalanced parentheses", 6), .msg2 = "unexpected ']'" },
	{ ERR("(int8) for", "unexpected 'for' after ')' in '#pragma mixprec'", 3) },
	{ ERR("(int8))", "unexpected ')' after ')'", 3) },
	{ ERR("(int8), acc=int32", "unexpected ',' after ')'", 3) },
};

/* ----------------------------------------------------------- checking */

static int quiet;

#define FAILF(...) do { if (!quiet) { printf("FAIL [%s]: ", c->src); printf(__VA_ARGS__); printf("\n"); } bad = 1; } while (0)

static int check_fields(const tcase *c, const mp_pragma *p)
{
	int bad = 0;
#define F(field) if ((int)p->field != (int)c->field) FAILF(#field " = %d, expected %d", (int)p->field, (int)c->field)
	F(prec); F(acc); F(target); F(scale); F(scale_count);
	{
		int sf = c->scale == MP_SCALE_EXPR ? c->scale_first : -1;
		if (p->scale_first != sf)
			FAILF("scale_first = %d, expected %d", p->scale_first, sf);
	}
	F(tile_m); F(tile_n); F(tile_k); F(verify); F(loc); F(scale_loc); F(auto_mask);
#undef F
	return bad;
}

static int run_tokens(const tcase *c, const mp_token *tok, int n)
{
	mp_pragma p;
	char err[512];
	int et = -99, bad = 0, rc;

	memset(&p, 0x5a, sizeof p);
	rc = mp_pragma_parse(tok, n, &p, err, sizeof err, &et);
	if (c->ok) {
		if (rc != 0) {
			FAILF("rc = %d, expected 0 (error at token %d: %s)", rc, et, err);
			return 1;
		}
		return check_fields(c, &p);
	}
	if (rc != -1) {
		FAILF("rc = %d, expected -1", rc);
		return 1;
	}
	int want = c->err_tok == AT_END ? n : c->err_tok;
	if (et != want)
		FAILF("err_tok = %d, expected %d (message: %s)", et, want, err);
	if (!strstr(err, c->msg))
		FAILF("message \"%s\" lacks \"%s\"", err, c->msg);
	if (c->msg2 && !strstr(err, c->msg2))
		FAILF("message \"%s\" lacks \"%s\"", err, c->msg2);
	if (strchr(err, '\n'))
		FAILF("message has a newline: \"%s\"", err);
	if (err[0] && !islower((unsigned char)err[0]))
		FAILF("message does not start lowercase: \"%s\"", err);
	/* on error the output holds the defaults */
	if (p.prec != MP_PREC_NONE || p.acc != MP_ACC_DEFAULT || p.scale != MP_SCALE_NONE)
		FAILF("output not reset on error");
	return bad;
}

static int run_case(const tcase *c)
{
	static mp_token tok[4 * MP_MAX_PRAGMA_TOKENS];
	int n = tokenize(c->src, tok, (int)(sizeof tok / sizeof tok[0]));
	if (n < 0) {
		printf("FAIL [%s]: test tokenizer overflow\n", c->src);
		return 1;
	}
	return run_tokens(c, tok, n);
}

/* Generated inputs: too many clauses / tokens. */
static int run_generated(void)
{
	static char buf[8192];
	int bad = 0;
	size_t len;

	/* 33 clauses: refused as a whole, at the ',' that opens the 33rd,
	   before the duplicate 'verify' is noticed */
	len = (size_t)snprintf(buf, sizeof buf, "(int8");
	for (int k = 0; k < 33; k++)
		len += (size_t)snprintf(buf + len, sizeof buf - len, ", verify");
	snprintf(buf + len, sizeof buf - len, ")");
	{
		tcase c = { ERR(buf, "too many arguments in '#pragma mixprec'", 2 + 2 * 32) };
		c.msg2 = "more than 32 clauses";
		bad |= run_case(&c);
	}
	/* 32 clauses are not refused for their number: the duplicate is */
	len = (size_t)snprintf(buf, sizeof buf, "(int8");
	for (int k = 0; k < 32; k++)
		len += (size_t)snprintf(buf + len, sizeof buf - len, ", verify");
	snprintf(buf + len, sizeof buf - len, ")");
	{
		tcase c = { ERR(buf, "duplicate clause 'verify'", 5) };
		bad |= run_case(&c);
	}
	/* commas inside a scale expression's parentheses are not clauses */
	len = (size_t)snprintf(buf, sizeof buf, "(int8, scale=f(");
	for (int k = 0; k < 40; k++)
		len += (size_t)snprintf(buf + len, sizeof buf - len, "%sa", k ? ", " : "");
	snprintf(buf + len, sizeof buf - len, "))");
	{
		tcase c = { ERR(buf, "expression of 'scale' in '#pragma mixprec' is too long", 5) };
		bad |= run_case(&c);
	}
	/* more than MP_MAX_PRAGMA_TOKENS tokens */
	len = (size_t)snprintf(buf, sizeof buf, "(int8, scale=");
	for (int k = 0; k < MP_MAX_PRAGMA_TOKENS; k++)
		len += (size_t)snprintf(buf + len, sizeof buf - len, "%sa", k ? "+" : "");
	snprintf(buf + len, sizeof buf - len, ")");
	{
		tcase c = { ERR(buf, "too many arguments in '#pragma mixprec'", MP_MAX_PRAGMA_TOKENS) };
		bad |= run_case(&c);
	}
	/* a scale expression of 63 tokens is fine */
	len = (size_t)snprintf(buf, sizeof buf, "(int8, scale=");
	for (int k = 0; k < 32; k++)
		len += (size_t)snprintf(buf + len, sizeof buf - len, "%sa", k ? "+" : "");
	snprintf(buf + len, sizeof buf - len, ", acc=int32)");
	{
		tcase c = { OK(buf, MP_PREC_INT8), .acc = MP_ACC_INT32, .scale = MP_SCALE_EXPR,
			    .scale_first = 5, .scale_count = 63, .scale_loc = LOC0 + 3 };
		bad |= run_case(&c);
	}
	return bad;
}

static int run_misc(void)
{
	int bad = 0;
	mp_token tok[8];
	int n = tokenize("(int8)", tok, 8);
	mp_pragma p;
	int et = 7;

	/* NULL err / err_tok must be tolerated */
	if (mp_pragma_parse(tok, n, &p, NULL, 0, NULL) != 0)
		printf("FAIL: parse with NULL err\n"), bad = 1;
	if (mp_pragma_parse(tok, 0, &p, NULL, 0, &et) != -1 || et != 0)
		printf("FAIL: empty token list with NULL err\n"), bad = 1;
	/* tiny error buffer: truncated, terminated */
	{
		char small[8];
		memset(small, 'z', sizeof small);
		if (mp_pragma_parse(tok, 1, &p, small, sizeof small, &et) != -1 ||
		    small[sizeof small - 1] != 0)
			printf("FAIL: small error buffer\n"), bad = 1;
	}
	/* punctuation must be PUNCT tokens: a NAME "(" is not '(' */
	tok[0].kind = MP_TOK_NAME;
	if (mp_pragma_parse(tok, n, &p, NULL, 0, &et) != -1 || et != 0)
		printf("FAIL: NAME '(' accepted\n"), bad = 1;

	/* names */
	static const struct { int v; const char *s; } pn[] = {
		{ MP_PREC_NONE, "none" }, { MP_PREC_INT8, "int8" }, { MP_PREC_UINT8, "uint8" },
		{ MP_PREC_BF16, "bf16" }, { MP_PREC_FP16, "fp16" },
		{ MP_PREC_FP8_E4M3, "fp8_e4m3" }, { MP_PREC_FP8_E5M2, "fp8_e5m2" },
	};
	for (size_t k = 0; k < sizeof pn / sizeof pn[0]; k++)
		if (strcmp(mp_prec_name((mp_prec)pn[k].v), pn[k].s) != 0)
			printf("FAIL: mp_prec_name(%d) = %s\n", pn[k].v,
			       mp_prec_name((mp_prec)pn[k].v)), bad = 1;
	static const struct { int v; const char *s; } tn[] = {
		{ MP_TARGET_AUTO, "auto" }, { MP_TARGET_SCALAR, "scalar" },
		{ MP_TARGET_AVX2, "avx2" }, { MP_TARGET_AVX512VNNI, "avx512vnni" },
		{ MP_TARGET_AVXVNNI, "avxvnni" }, { MP_TARGET_AVX512BF16, "avx512bf16" },
	};
	for (size_t k = 0; k < sizeof tn / sizeof tn[0]; k++)
		if (strcmp(mp_target_name((mp_target)tn[k].v), tn[k].s) != 0)
			printf("FAIL: mp_target_name(%d) = %s\n", tn[k].v,
			       mp_target_name((mp_target)tn[k].v)), bad = 1;
	if (strcmp(mp_prec_name((mp_prec)99), "?") != 0 ||
	    strcmp(mp_target_name((mp_target)-1), "?") != 0)
		printf("FAIL: out-of-range names\n"), bad = 1;
	return bad;
}

/* The checker itself must be able to fail: these expectations are wrong on
 * purpose and every one of them must be reported as a failure. */
static int run_selfcheck(void)
{
	static const tcase wrong[] = {
		{ OK("(int8, acc=int32)", MP_PREC_INT8), .acc = MP_ACC_FP32 },
		{ OK("(int8, tile=8x8x4)", MP_PREC_INT8), .tile_m = 8, .tile_n = 8, .tile_k = 5 },
		{ OK("(int8, acc=fp32)", MP_PREC_INT8), .acc = MP_ACC_FP32 },
		{ ERR("(int8)", "anything", 0) },
		{ ERR("(int4)", "unknown precision", 2) },
		{ ERR("(int4)", "unknown clause", 1) },
	};
	int bad = 0;
	quiet = 1;
	for (size_t k = 0; k < sizeof wrong / sizeof wrong[0]; k++)
		if (run_case(&wrong[k]) == 0) {
			printf("FAIL: self-check case %zu [%s] passed but must fail\n", k,
			       wrong[k].src);
			bad = 1;
		}
	quiet = 0;
	return bad;
}

/* ------------------------------------------- explicit scales (sspec) */

typedef struct scase {
	const char *src;
	int ok;
	mp_sspec_kind k0, k1;
	double v0, v1;          /* MP_SS_NUMBER values */
	const char *n0, *n1;    /* names */
	const char *i0, *i1;    /* iterators */
	const char *msg;        /* error: substring */
	int err_tok;            /* error: token index */
} scase;

static const scase scases[] = {
	{ "(int8, scale=(sx, sw[j]))", 1, MP_SS_NAME, MP_SS_INDEXED, 0, 0, "sx", "sw", NULL, "j" },
	{ "(int8, scale=(dynamic, 0.5f))", 1, MP_SS_DYNAMIC, MP_SS_NUMBER, 0, 0.5 },
	{ "(fp8_e4m3, scale=(xs[i], +1e-3))", 1, MP_SS_INDEXED, MP_SS_NUMBER, 0, 1e-3, "xs", NULL, "i" },
	{ "(uint8, scale=(0x1p-7f, 3), acc=int32)", 1, MP_SS_NUMBER, MP_SS_NUMBER, 0x1p-7, 3 },
	{ "(int8, scale=dynamic)", 1, MP_SS_DYNAMIC, MP_SS_DYNAMIC },
	{ "(int8, scale=s)", 0, .msg = "are given per operand: scale=(SA, SB)", .err_tok = 5 },
	{ "(int8, scale=s[j])", 0, .msg = "found 's[j]'", .err_tok = 5 },
	{ "(int8, scale=(a, b, c))", 0, .msg = "too many scales", .err_tok = 9 },
	{ "(int8, scale=(a, f(x)))", 0, .msg = "unsupported scale 'f(x)'", .err_tok = 8 },
	{ "(int8, scale=(-1, a))", 0, .msg = "must be a finite number > 0", .err_tok = 6 },
	{ "(int8, scale=(0, a))", 0, .msg = "must be a finite number > 0", .err_tok = 6 },
	{ "(int8, scale=(1e99, a))", 0, .msg = "must be a finite number > 0", .err_tok = 6 },
	{ "(int8, scale=(, a))", 0, .msg = "missing scale before ','", .err_tok = 6 },
	{ "(int8, scale=(a, ))", 0, .msg = "missing scale after ','", .err_tok = 8 },
	{ "(int8, scale=(a)*(b))", 0, .msg = "are given per operand", .err_tok = 5 },
	{ "(int8, scale=(a, b)*2)", 0, .msg = "are given per operand", .err_tok = 5 },
	{ "(int8, scale=(a[i][j], b))", 0, .msg = "unsupported scale 'a[i][j]'", .err_tok = 6 },
};

static int run_scales(void)
{
	int bad = 0;

	for (size_t q = 0; q < sizeof scases / sizeof scases[0]; q++) {
		const scase *c = &scases[q];
		mp_token tok[64];
		mp_pragma p;
		char err[512] = "";
		int et = -99, n = tokenize(c->src, tok, 64);

		if (n < 0 || mp_pragma_parse(tok, n, &p, err, sizeof err, &et) != 0) {
			printf("FAIL [%s]: does not parse: %s\n", c->src, err);
			bad = 1;
			continue;
		}
		int rc = mp_pragma_scales(tok, n, &p, err, sizeof err, &et);
		if (!c->ok) {
			if (rc != -1 || !strstr(err, c->msg) || et != c->err_tok) {
				printf("FAIL [%s]: rc %d, token %d (expected %d), message \"%s\"\n",
				       c->src, rc, et, c->err_tok, err);
				bad = 1;
			}
			continue;
		}
		int want = p.scale == MP_SCALE_EXPR ? 2 : 0;
		if (rc != 0 || p.nsspec != want) {
			printf("FAIL [%s]: rc %d nsspec %d: %s\n", c->src, rc, p.nsspec, err);
			bad = 1;
			continue;
		}
		for (int side = 0; side < p.nsspec; side++) {
			const mp_scale_spec *sp = &p.sspec[side];
			mp_sspec_kind k = side ? c->k1 : c->k0;
			double v = side ? c->v1 : c->v0;
			const char *nm = side ? c->n1 : c->n0, *ix = side ? c->i1 : c->i0;
			if (sp->kind != k || (k == MP_SS_NUMBER && sp->value != v) ||
			    (nm && strcmp(sp->name, nm)) || (ix && strcmp(sp->index, ix)) ||
			    sp->elem != MP_TY_OTHER || sp->loc != tok[sp->tok].loc) {
				printf("FAIL [%s]: side %d: kind %d value %g name %s index %s\n",
				       c->src, side, sp->kind, sp->value, sp->name, sp->index);
				bad = 1;
			}
		}
	}
	return bad;
}

/* constant = NAME | ( NAME [, NAME] ) */
static int run_constant(void)
{
	static const struct {
		const char *src;
		int n;                 /* names expected, -1: error */
		const char *a, *b;     /* names / error substring in a */
		int err_tok;
	} cc[] = {
		{ "(int8, constant=w)", 1, "w", NULL, 0 },
		{ "(int8, constant=(w), verify)", 1, "w", NULL, 0 },
		{ "(bf16, constant=(x, w), scale=dynamic)", 2, "x", "w", 0 },
		{ "(int8, constant=)", -1, "missing value for 'constant'", NULL, 5 },
		{ "(int8, constant=3)", -1, "expected an array name in 'constant'", NULL, 5 },
		{ "(int8, constant=(a b))", -1, "expected ',' or ')' in 'constant'", NULL, 7 },
		{ "(int8, constant=(a, b, c))", -1, "too many names in 'constant'", NULL, 10 },
		{ "(int8, constant=(a,))", -1, "expected an array name", NULL, 8 },
		{ "(int8, constant=a, constant=b)", -1, "duplicate clause 'constant'", NULL, 7 },
	};
	int bad = 0;

	for (size_t q = 0; q < sizeof cc / sizeof cc[0]; q++) {
		mp_token tok[64];
		mp_pragma p;
		char err[512] = "";
		int et = -99, n = tokenize(cc[q].src, tok, 64);
		int rc = mp_pragma_parse(tok, n, &p, err, sizeof err, &et);

		if (cc[q].n < 0) {
			if (rc != -1 || !strstr(err, cc[q].a) || et != cc[q].err_tok) {
				printf("FAIL [%s]: rc %d token %d (expected %d): %s\n", cc[q].src, rc,
				       et, cc[q].err_tok, err);
				bad = 1;
			}
		} else if (rc != 0 || p.nconstant != cc[q].n || strcmp(p.constant[0], cc[q].a) ||
			   (cc[q].b && strcmp(p.constant[1], cc[q].b)) || !p.constant_loc) {
			printf("FAIL [%s]: rc %d nconstant %d: %s\n", cc[q].src, rc, p.nconstant, err);
			bad = 1;
		}
	}
	return bad;
}

int main(void)
{
	int nfail = 0, ncase = 0;

	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++, ncase++)
		nfail += run_case(&cases[k]);
	nfail += run_generated();
	nfail += run_misc();
	nfail += run_selfcheck();
	nfail += run_scales();
	nfail += run_constant();
	ncase += 5 + 1 + 1 + (int)(sizeof scases / sizeof scases[0]) + 9;
	if (nfail) {
		printf("test_pragma: %d failure(s)\n", nfail);
		return 1;
	}
	printf("test_pragma: all %d cases passed\n", ncase);
	return 0;
}
