/* mp_pragma.c -- parser of the clauses of '#pragma mixprec'.
 *
 * Input: the tokens after the word `mixprec` up to the end of the line, as
 * the compiler's preprocessor delivers them (macros expanded).  Grammar:
 *
 *   '(' PREC { ',' CLAUSE } ')'            nothing may follow ')'
 *   PREC   : int8 | uint8 | bf16 | fp16 | fp8_e4m3 | fp8_e5m2
 *          | auto [ '(' CAND { ',' CAND } ')' ]
 *   CAND   : int8 | uint8 | bf16 | fp8_e4m3 | fp8_e5m2
 *   CLAUSE : acc    '=' ( int32 | fp32 )
 *          | scale  '=' ( dynamic | EXPR )   EXPR: balanced tokens up to the
 *                                            next top-level ',' or ')'
 *          | target '=' ( auto | scalar | avx2 | avx512vnni | avxvnni
 *                        | avx512bf16 | dotprod | i8mm )
 *          | tile   '=' M x N x K             1 <= M, N, K <= 4096
 *          | verify
 *          | constant '=' ( NAME | '(' NAME [ ',' NAME ] ')' )
 *
 * The user documentation (syntax and every message) is docs/pragma.md; keep
 * the two in step.  Plain C11, no allocation, no global state.
 */
#include "mp_nest.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MP_MAX_PRAGMA_CLAUSES 32
#define MP_TILE_MAX           4096

#define PRAGMA "'#pragma mixprec'"
#define PREC_LIST "int8, uint8, bf16, fp16, fp8_e4m3, fp8_e5m2, auto"
#define CAND_LIST "int8, uint8, bf16, fp8_e4m3, fp8_e5m2"
#define CLAUSE_LIST "acc, constant, scale, target, tile, verify"
#define ACC_LIST "int32, fp32"
#define TARGET_LIST "auto, scalar, avx2, avx512vnni, avxvnni, avx512bf16, dotprod, i8mm"
#define TILE_FORM "MxNxK (e.g. 64x32x4) with each of M, N, K an integer from 1 to 4096"

/* ------------------------------------------------------------ names */

static const char *const prec_names[] = {
	[MP_PREC_NONE] = "none",
	[MP_PREC_INT8] = "int8",
	[MP_PREC_UINT8] = "uint8",
	[MP_PREC_BF16] = "bf16",
	[MP_PREC_FP16] = "fp16",
	[MP_PREC_FP8_E4M3] = "fp8_e4m3",
	[MP_PREC_FP8_E5M2] = "fp8_e5m2",
	[MP_PREC_AUTO] = "auto",
};

static const char *const target_names[] = {
	[MP_TARGET_AUTO] = "auto",
	[MP_TARGET_SCALAR] = "scalar",
	[MP_TARGET_AVX2] = "avx2",
	[MP_TARGET_AVX512VNNI] = "avx512vnni",
	[MP_TARGET_AVXVNNI] = "avxvnni",
	[MP_TARGET_AVX512BF16] = "avx512bf16",
	[MP_TARGET_DOTPROD] = "dotprod",
	[MP_TARGET_I8MM] = "i8mm",
};

#define NELEM(a) ((int)(sizeof(a) / sizeof((a)[0])))

const char *mp_prec_name(mp_prec p)
{
	if ((int)p < 0 || (int)p >= NELEM(prec_names))
		return "?";
	return prec_names[p];
}

const char *mp_target_name(mp_target t)
{
	if ((int)t < 0 || (int)t >= NELEM(target_names))
		return "?";
	return target_names[t];
}

/* ----------------------------------------------------------- parser */

enum { CL_ACC, CL_CONSTANT, CL_SCALE, CL_TARGET, CL_TILE, CL_VERIFY, CL_COUNT };
static const char *const clause_names[CL_COUNT] = {
	"acc", "constant", "scale", "target", "tile", "verify"
};

typedef struct pstate {
	const mp_token *tok;
	int ntok;
	char *err;
	size_t errlen;
	int *err_tok;
} pstate;

/* Token text made safe for a one-line message: control characters become
 * '?', and very long texts are cut with "...". */
static void quote_text(char *dst, size_t len, const char *src)
{
	size_t i = 0, max = len - 1;
	if (len == 0)
		return;
	for (; *src && i < max; src++) {
		unsigned char c = (unsigned char)*src;
		dst[i++] = (c < 0x20 || c == 0x7f) ? '?' : (char)c;
	}
	if (*src && max >= 3) {
		dst[max - 3] = dst[max - 2] = dst[max - 1] = '.';
		i = max;
	}
	dst[i] = 0;
}

/* Text of token i for a message ("end of line" past the end). */
static const char *tok_text(const pstate *s, int i, char *buf, size_t len)
{
	if (i >= s->ntok)
		return "end of line";
	quote_text(buf, len, s->tok[i].text);
	return buf;
}

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static int fail(pstate *s, int at, const char *fmt, ...)
{
	if (s->err_tok)
		*s->err_tok = at;
	if (s->err && s->errlen) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(s->err, s->errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static int is_punct(const pstate *s, int i, const char *p)
{
	return i < s->ntok && s->tok[i].kind == MP_TOK_PUNCT &&
	       strcmp(s->tok[i].text, p) == 0;
}

static int is_name(const pstate *s, int i)
{
	return i < s->ntok && s->tok[i].kind == MP_TOK_NAME;
}

/* ',' or ')' or the end: where a clause value must stop. */
static int at_sep(const pstate *s, int i)
{
	return i >= s->ntok || is_punct(s, i, ",") || is_punct(s, i, ")");
}

static int lookup(const char *const *names, int n, int first, const char *text)
{
	for (int k = first; k < n; k++)
		if (names[k] && strcmp(names[k], text) == 0)
			return k;
	return -1;
}

static int prec_is_int(mp_prec p)
{
	return p == MP_PREC_INT8 || p == MP_PREC_UINT8;
}

/* Parse one decimal component of a tile shape at *pp; 0 on success.  The
 * digits as written are kept in dig (for the out-of-range message). */
static int tile_num(const char **pp, long *v, char *dig, size_t diglen)
{
	const char *p = *pp;
	long x = 0;
	size_t nd = 0;
	while (*p >= '0' && *p <= '9') {
		if (x <= MP_TILE_MAX)
			x = x * 10 + (*p - '0');
		if (nd + 1 < diglen)
			dig[nd] = *p;
		p++, nd++;
	}
	if (nd == 0)
		return -1;
	dig[nd + 1 < diglen ? nd : diglen - 1] = 0;
	*v = x;
	*pp = p;
	return 0;
}

/* tile = M x N x K.  The preprocessor may deliver "64x32x4" as one
 * pp-number, or as "64" "x32x4", or "64" "x" "32" "x" "4", ...: the value is
 * the concatenation of the NUMBER/NAME tokens up to the next ',' or ')'.
 * Returns the index after the value, or -1. */
static int parse_tile(pstate *s, int i, mp_pragma *p)
{
	char text[128];
	char qbuf[96];
	size_t len = 0;
	int first = i, bad = 0;
	long v[3];
	char dig[3][24];

	text[0] = 0;
	for (; !at_sep(s, i); i++) {
		const mp_token *t = &s->tok[i];
		size_t tl = strlen(t->text);
		if (t->kind != MP_TOK_NUMBER && t->kind != MP_TOK_NAME)
			bad = 1;
		if (len + tl < sizeof text) {
			memcpy(text + len, t->text, tl + 1);
			len += tl;
		} else {
			bad = 1;
		}
	}
	if (!bad) {
		const char *q = text;
		for (int d = 0; d < 3 && !bad; d++) {
			if (d > 0) {
				if (*q != 'x' && *q != 'X')
					bad = 1;
				else
					q++;
			}
			if (!bad && tile_num(&q, &v[d], dig[d], sizeof dig[d]) != 0)
				bad = 1;
		}
		if (*q)
			bad = 1;
	}
	if (bad) {
		/* quote what the user wrote, token by token */
		char shown[200];
		size_t sl = 0;
		shown[0] = 0;
		for (int k = first; k < i && sl + 1 < sizeof shown; k++) {
			quote_text(qbuf, sizeof qbuf, s->tok[k].text);
			sl += (size_t)snprintf(shown + sl, sizeof shown - sl, "%s", qbuf);
			if (sl >= sizeof shown)
				sl = sizeof shown - 1;
		}
		return fail(s, first,
			    "invalid value '%s' for 'tile' in " PRAGMA "; expected " TILE_FORM,
			    shown);
	}
	for (int d = 0; d < 3; d++) {
		if (v[d] < 1 || v[d] > MP_TILE_MAX)
			return fail(s, first,
				    "tile size %s=%s in " PRAGMA " is out of range; each of M, N, K must be an integer from 1 to %d",
				    d == 0 ? "M" : d == 1 ? "N" : "K", dig[d], MP_TILE_MAX);
	}
	p->tile_m = (int)v[0];
	p->tile_n = (int)v[1];
	p->tile_k = (int)v[2];
	return i;
}

/* scale = dynamic | EXPR.  Returns the index after the value, or -1. */
static int parse_scale(pstate *s, int i, mp_pragma *p)
{
	char stack[MP_MAX_PRAGMA_TOKENS];
	int where[MP_MAX_PRAGMA_TOKENS];
	int depth = 0, first = i;

	if (is_name(s, i) && strcmp(s->tok[i].text, "dynamic") == 0 && at_sep(s, i + 1)) {
		p->scale = MP_SCALE_DYNAMIC;
		p->scale_first = -1;
		p->scale_count = 0;
		return i + 1;
	}
	for (; i < s->ntok; i++) {
		const char *t = s->tok[i].text;
		if (s->tok[i].kind != MP_TOK_PUNCT)
			continue;
		if (depth == 0 && (strcmp(t, ",") == 0 || strcmp(t, ")") == 0))
			break;
		if (strcmp(t, "(") == 0 || strcmp(t, "[") == 0 || strcmp(t, "{") == 0) {
			stack[depth] = t[0];
			where[depth++] = i;
		} else if (strcmp(t, ")") == 0 || strcmp(t, "]") == 0 || strcmp(t, "}") == 0) {
			char open = t[0] == ')' ? '(' : t[0] == ']' ? '[' : '{';
			if (depth == 0 || stack[depth - 1] != open)
				return fail(s, i,
					    "unbalanced parentheses in 'scale' expression of " PRAGMA "; unexpected '%s'",
					    t);
			depth--;
		}
	}
	if (depth > 0)
		return fail(s, where[depth - 1],
			    "unbalanced parentheses in 'scale' expression of " PRAGMA "; '%c' is not closed",
			    stack[depth - 1]);
	if (i - first > MP_MAX_SCALE_TOKENS)
		return fail(s, first,
			    "expression of 'scale' in " PRAGMA " is too long (%d tokens, at most %d)",
			    i - first, MP_MAX_SCALE_TOKENS);
	p->scale = MP_SCALE_EXPR;
	p->scale_first = first;
	p->scale_count = i - first;
	return i;
}

/* constant = NAME | ( NAME [, NAME] ).  Returns the index after it, or -1. */
static int parse_constant(pstate *s, int i, mp_pragma *p)
{
	char b1[96];
	int paren = is_punct(s, i, "(");

	p->constant_loc = s->tok[i].loc;
	if (paren)
		i++;
	for (;;) {
		if (!is_name(s, i))
			return fail(s, i, "expected an array name in 'constant' of " PRAGMA ", found %s%s%s",
				    i < s->ntok ? "'" : "", tok_text(s, i, b1, sizeof b1),
				    i < s->ntok ? "'" : "");
		if (p->nconstant == 2)
			return fail(s, i, "too many names in 'constant' of " PRAGMA "; a product has two operands");
		snprintf(p->constant[p->nconstant], sizeof p->constant[0], "%s", s->tok[i].text);
		p->constant_tok[p->nconstant] = s->tok[i].loc;
		p->nconstant++;
		i++;
		if (!paren)
			return i;
		if (is_punct(s, i, ")"))
			return i + 1;
		if (!is_punct(s, i, ","))
			return fail(s, i, "expected ',' or ')' in 'constant' of " PRAGMA ", found %s%s%s",
				    i < s->ntok ? "'" : "", tok_text(s, i, b1, sizeof b1),
				    i < s->ntok ? "'" : "");
		i++;
	}
}

/* auto's optional candidate list at i (the token after `auto`): returns
 * the index after it, or -1.  Without a list: every candidate. */
static int parse_auto(pstate *s, int i, mp_pragma *p)
{
	char b1[96];
	p->auto_mask = MP_AUTO_CANDIDATES;
	if (!is_punct(s, i, "("))
		return i;
	p->auto_mask = 0;
	for (i++;; i++) {
		int c = is_name(s, i) ? lookup(prec_names, NELEM(prec_names), 1, s->tok[i].text) : -1;
		if (c < 0 || !((MP_AUTO_CANDIDATES >> c) & 1))
			return fail(s, i, "invalid candidate %s%s%s for 'auto' in " PRAGMA
				    "; expected one of " CAND_LIST,
				    i < s->ntok ? "'" : "", tok_text(s, i, b1, sizeof b1),
				    i < s->ntok ? "'" : "");
		if ((p->auto_mask >> c) & 1)
			return fail(s, i, "duplicate candidate '%s' of 'auto' in " PRAGMA,
				    s->tok[i].text);
		p->auto_mask |= 1 << c;
		i++;
		if (is_punct(s, i, ")"))
			return i + 1;
		if (!is_punct(s, i, ","))
			return fail(s, i, "expected ',' or ')' in the candidates of 'auto' in " PRAGMA
				    ", found %s%s%s", i < s->ntok ? "'" : "",
				    tok_text(s, i, b1, sizeof b1), i < s->ntok ? "'" : "");
	}
}

/* The acc type the precision requires. */
static int check_acc(pstate *s, int at, const mp_pragma *p)
{
	if (prec_is_int(p->prec) && p->acc != MP_ACC_INT32)
		return fail(s, at,
			    "acc=fp32 is not valid with %s in " PRAGMA "; int8 and uint8 require acc=int32",
			    mp_prec_name(p->prec));
	if (!prec_is_int(p->prec) && p->acc != MP_ACC_FP32)
		return fail(s, at,
			    "acc=int32 is not valid with %s in " PRAGMA "; bf16, fp16, fp8_e4m3 and fp8_e5m2 require acc=fp32",
			    mp_prec_name(p->prec));
	return 0;
}

/* One clause starting at i (the token after ','); returns the index after
 * it, or -1. */
static int parse_clause(pstate *s, int i, mp_pragma *p, int *seen)
{
	char b1[96];
	const char *name;
	int cl, v;

	name = s->tok[i].text;
	cl = is_name(s, i) ? lookup(clause_names, CL_COUNT, 0, name) : -1;
	if (cl < 0) {
		if (is_name(s, i) && lookup(prec_names, NELEM(prec_names), 1, name) >= 0)
			return fail(s, i,
				    "second precision '%s' in " PRAGMA "; the precision is given once, as the first argument",
				    name);
		return fail(s, i, "unknown clause '%s' in " PRAGMA "; expected one of " CLAUSE_LIST,
			    tok_text(s, i, b1, sizeof b1));
	}
	if (seen[cl])
		return fail(s, i, "duplicate clause '%s' in " PRAGMA, name);
	seen[cl] = 1;
	i++;

	if (cl == CL_VERIFY) {
		p->verify = 1;
		if (is_punct(s, i, "="))
			return fail(s, i, "clause 'verify' of " PRAGMA " takes no value");
		return i;
	}

	if (!is_punct(s, i, "="))
		return fail(s, i, "expected '=' after '%s' in " PRAGMA ", found %s%s%s",
			    name, i < s->ntok ? "'" : "", tok_text(s, i, b1, sizeof b1),
			    i < s->ntok ? "'" : "");
	i++;
	if (at_sep(s, i)) {
		static const char *const expect[CL_COUNT] = {
			[CL_ACC] = "one of " ACC_LIST,
			[CL_CONSTANT] = "an operand's array name, or two in parentheses: (a, b)",
			[CL_SCALE] = "'dynamic' or an expression",
			[CL_TARGET] = "one of " TARGET_LIST,
			[CL_TILE] = TILE_FORM,
		};
		return fail(s, i, "missing value for '%s' in " PRAGMA "; expected %s",
			    name, expect[cl]);
	}

	switch (cl) {
	case CL_ACC:
		v = is_name(s, i) ? (strcmp(s->tok[i].text, "int32") == 0 ? MP_ACC_INT32 :
				     strcmp(s->tok[i].text, "fp32") == 0 ? MP_ACC_FP32 : -1)
				  : -1;
		if (v < 0)
			return fail(s, i,
				    "invalid value '%s' for 'acc' in " PRAGMA "; expected one of " ACC_LIST,
				    tok_text(s, i, b1, sizeof b1));
		p->acc = (mp_accty)v;
		if (check_acc(s, i, p) != 0)
			return -1;
		return i + 1;
	case CL_TARGET:
		v = is_name(s, i) ? lookup(target_names, NELEM(target_names), 0, s->tok[i].text)
				  : -1;
		if (v < 0)
			return fail(s, i,
				    "invalid value '%s' for 'target' in " PRAGMA "; expected one of " TARGET_LIST,
				    tok_text(s, i, b1, sizeof b1));
		p->target = (mp_target)v;
		return i + 1;
	case CL_SCALE:
		p->scale_loc = s->tok[i - 2].loc;
		return parse_scale(s, i, p);
	case CL_TILE:
		return parse_tile(s, i, p);
	case CL_CONSTANT:
		return parse_constant(s, i, p);
	}
	return fail(s, i, "internal error in " PRAGMA " parser");
}

static void set_defaults(mp_pragma *p)
{
	memset(p, 0, sizeof *p);
	p->prec = MP_PREC_NONE;
	p->acc = MP_ACC_DEFAULT;
	p->target = MP_TARGET_AUTO;
	p->scale = MP_SCALE_NONE;
	p->scale_first = -1;
	p->scale_count = 0;
	p->loc = 0;
	p->scale_loc = 0;
}

static int parse(pstate *s, mp_pragma *p)
{
	char b1[96];
	int seen[CL_COUNT] = { 0 };
	int i = 0, prec;

	if (s->ntok > MP_MAX_PRAGMA_TOKENS)
		return fail(s, MP_MAX_PRAGMA_TOKENS,
			    "too many arguments in " PRAGMA " (more than %d tokens)",
			    MP_MAX_PRAGMA_TOKENS);
	if (!is_punct(s, 0, "("))
		return fail(s, 0, "expected '(' after " PRAGMA);
	/* An absurdly long list (a runaway macro, say) is refused as a whole
	   before its clauses are looked at: count the top-level ','. */
	for (int j = 1, depth = 0, ncl = 0; j < s->ntok; j++) {
		const char *t = s->tok[j].text;
		if (s->tok[j].kind != MP_TOK_PUNCT)
			continue;
		if (!strcmp(t, "(") || !strcmp(t, "[") || !strcmp(t, "{")) {
			depth++;
		} else if (!strcmp(t, ")") || !strcmp(t, "]") || !strcmp(t, "}")) {
			if (depth == 0)
				break;
			depth--;
		} else if (depth == 0 && !strcmp(t, ",") && ++ncl > MP_MAX_PRAGMA_CLAUSES) {
			return fail(s, j, "too many arguments in " PRAGMA " (more than %d clauses)",
				    MP_MAX_PRAGMA_CLAUSES);
		}
	}
	i = 1;

	/* the precision */
	if (i >= s->ntok)
		return fail(s, i, "missing ')' at the end of " PRAGMA);
	if (is_punct(s, i, ")"))
		return fail(s, i, "empty argument list in " PRAGMA "; expected a precision, one of " PREC_LIST);
	if (is_punct(s, i, ","))
		return fail(s, i, "missing precision in " PRAGMA "; expected one of " PREC_LIST " before ','");
	prec = is_name(s, i) ? lookup(prec_names, NELEM(prec_names), 1, s->tok[i].text) : -1;
	if (prec < 0) {
		if (is_name(s, i) && lookup(clause_names, CL_COUNT, 0, s->tok[i].text) >= 0)
			return fail(s, i,
				    "missing precision in " PRAGMA "; the first argument must be one of " PREC_LIST ", found clause '%s'",
				    s->tok[i].text);
		return fail(s, i, "unknown precision '%s' in " PRAGMA "; expected one of " PREC_LIST,
			    tok_text(s, i, b1, sizeof b1));
	}
	p->prec = (mp_prec)prec;
	p->loc = s->tok[i].loc;
	i++;
	if (p->prec == MP_PREC_AUTO) {
		i = parse_auto(s, i, p);
		if (i < 0)
			return -1;
	}

	/* the clauses */
	for (;;) {
		if (i >= s->ntok)
			return fail(s, i, "missing ')' at the end of " PRAGMA);
		if (is_punct(s, i, ")"))
			break;
		if (!is_punct(s, i, ","))
			return fail(s, i, "expected ',' or ')' before '%s' in " PRAGMA,
				    tok_text(s, i, b1, sizeof b1));
		i++;
		if (i >= s->ntok)
			return fail(s, i, "missing ')' at the end of " PRAGMA);
		if (is_punct(s, i, ","))
			return fail(s, i, "empty clause in " PRAGMA " (',' follows ',')");
		if (is_punct(s, i, ")"))
			return fail(s, i, "empty clause in " PRAGMA " (trailing ',' before ')')");
		i = parse_clause(s, i, p, seen);
		if (i < 0)
			return -1;
	}
	if (i + 1 < s->ntok)
		return fail(s, i + 1, "unexpected '%s' after ')' in " PRAGMA,
			    tok_text(s, i + 1, b1, sizeof b1));
	if (p->prec == MP_PREC_AUTO && p->scale == MP_SCALE_EXPR)
		return fail(s, p->scale_first,
			    "scale= is not valid with 'auto' in " PRAGMA "; each candidate "
			    "quantizes with its own dynamic scales");
	return 0;
}

int mp_pragma_parse(const mp_token *tok, int ntok, mp_pragma *out,
		    char *err, size_t errlen, int *err_tok)
{
	pstate s = { tok, ntok < 0 ? 0 : ntok, err, errlen, err_tok };
	mp_pragma p;

	if (!tok)
		s.ntok = 0;
	if (err && errlen)
		err[0] = 0;
	if (err_tok)
		*err_tok = -1;
	set_defaults(&p);
	if (parse(&s, &p) != 0) {
		if (out)
			set_defaults(out);
		return -1;
	}
	if (out)
		*out = p;
	return 0;
}

/* ------------------------------------------------ explicit scales */

#define SCALE_FORMS "'dynamic', a number > 0, a float or double variable, or an " \
	"array indexed by a loop iterator (e.g. ws[j])"

/* The text of tokens [a, b) joined (for messages). */
static void span_text(const pstate *s, int a, int b, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	for (int i = a; i < b && n + 1 < len; i++) {
		int w = snprintf(buf + n, len - n, "%s%s", s->tok[i].text,
				 !strcmp(s->tok[i].text, ",") && i + 1 < b ? " " : "");
		n = w < 0 || (size_t)w >= len - n ? len - 1 : n + (size_t)w;
	}
}

/* A number token ("0.5f", "1e-3", "0x1p-7", "3") -> value; 0 if not one. */
static int number_value(const char *t, double *v)
{
	char buf[64], *end;
	size_t n = strlen(t);

	if (n == 0 || n >= sizeof buf)
		return 0;
	memcpy(buf, t, n + 1);
	/* C suffixes: f F l L (floats), u U l L (integers) */
	while (n > 0 && strchr("fFlLuU", buf[n - 1]) &&
	       !(n > 2 && (buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X')) &&
		 strchr("fF", buf[n - 1]) && !strpbrk(buf, "pP")))
		buf[--n] = 0;
	*v = strtod(buf, &end);
	return n > 0 && *end == 0;
}

/* One scale S in tokens [a, b).  Returns 0 or -1. */
static int parse_one_scale(pstate *s, int a, int b, mp_scale_spec *o)
{
	char t[160];

	memset(o, 0, sizeof *o);
	o->tok = a;
	o->loc = a < s->ntok ? s->tok[a].loc : 0;
	o->elem = MP_TY_OTHER;
	span_text(s, a, b, t, sizeof t);
	if (b - a == 1 && is_name(s, a) && !strcmp(s->tok[a].text, "dynamic")) {
		o->kind = MP_SS_DYNAMIC;
		return 0;
	}
	if (b - a >= 1 && b - a <= 2 && s->tok[b - 1].kind == MP_TOK_NUMBER &&
	    (b - a == 1 || is_punct(s, a, "+"))) {
		double v;
		if (!number_value(s->tok[b - 1].text, &v))
			return fail(s, b - 1, "invalid number '%s' as a scale in " PRAGMA,
				    s->tok[b - 1].text);
		if (!(v > 0) || v > 3.4028234663852886e38)
			return fail(s, a, "scale '%s' in " PRAGMA " must be a finite number > 0 "
				    "(at most the largest float)", t);
		o->kind = MP_SS_NUMBER;
		o->value = v;
		return 0;
	}
	if (b - a == 2 && is_punct(s, a, "-") && s->tok[a + 1].kind == MP_TOK_NUMBER)
		return fail(s, a, "scale '%s' in " PRAGMA " must be a finite number > 0 "
			    "(at most the largest float)", t);
	if (b - a == 1 && is_name(s, a)) {
		o->kind = MP_SS_NAME;
		snprintf(o->name, sizeof o->name, "%s", s->tok[a].text);
		return 0;
	}
	if (b - a == 4 && is_name(s, a) && is_punct(s, a + 1, "[") && is_name(s, a + 2) &&
	    is_punct(s, a + 3, "]")) {
		o->kind = MP_SS_INDEXED;
		snprintf(o->name, sizeof o->name, "%s", s->tok[a].text);
		snprintf(o->index, sizeof o->index, "%s", s->tok[a + 2].text);
		return 0;
	}
	return fail(s, a, "unsupported scale '%s' in " PRAGMA "; each scale is " SCALE_FORMS, t);
}

int mp_pragma_scales(const mp_token *tok, int ntok, mp_pragma *p,
		     char *err, size_t errlen, int *err_tok)
{
	pstate s = { tok, ntok < 0 ? 0 : ntok, err, errlen, err_tok };
	int a, b, depth = 0, comma = -1;

	if (err && errlen)
		err[0] = 0;
	if (err_tok)
		*err_tok = -1;
	if (!p)
		return 0;
	p->nsspec = 0;
	if (p->scale != MP_SCALE_EXPR || !tok)
		return 0;
	a = p->scale_first;
	b = p->scale_first + p->scale_count;
	if (a < 0 || b > s.ntok || a >= b)
		return fail(&s, a < 0 ? 0 : a, "internal error: scale tokens out of range");
	/* "( S , S )": the first '(' must close at the last token */
	if (is_punct(&s, a, "(") && is_punct(&s, b - 1, ")")) {
		for (int i = a; i < b; i++) {
			const char *t = s.tok[i].text;
			if (s.tok[i].kind != MP_TOK_PUNCT)
				continue;
			if (!strcmp(t, "(") || !strcmp(t, "[") || !strcmp(t, "{"))
				depth++;
			else if (!strcmp(t, ")") || !strcmp(t, "]") || !strcmp(t, "}")) {
				if (--depth == 0 && i != b - 1)
					break;
			} else if (depth == 1 && !strcmp(t, ",")) {
				if (comma >= 0)
					return fail(&s, i, "too many scales in " PRAGMA "; scale=(SA, SB) "
						    "takes one scale per operand of the product");
				comma = i;
			}
			if (i == b - 1 && depth == 0 && comma >= 0) {
				if (comma == a + 1)
					return fail(&s, comma, "missing scale before ',' in " PRAGMA);
				if (comma == b - 2)
					return fail(&s, b - 1, "missing scale after ',' in " PRAGMA);
				if (parse_one_scale(&s, a + 1, comma, &p->sspec[0]) ||
				    parse_one_scale(&s, comma + 1, b - 1, &p->sspec[1]))
					return -1;
				p->nsspec = 2;
				return 0;
			}
		}
	}
	{
		char t[160];
		span_text(&s, a, b, t, sizeof t);
		return fail(&s, a, "explicit scales in " PRAGMA " are given per operand: "
			    "scale=(SA, SB), SA for the left factor of the product and SB for "
			    "the right one, each " SCALE_FORMS "; found '%s'", t);
	}
}
