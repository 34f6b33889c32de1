/* test_lp_cache.c -- operands of mp_gemm_lp_ex declared constant across
 * calls (MP_LP_CONST_A / MP_LP_CONST_B, the cache of runtime/lp_cache.c):
 *   1. bit-identity: random awkward shapes, layouts, scale modes, alpha,
 *      accumulate; the first flagged call (a miss) and the second (a hit)
 *      give the bits of the call without flags;
 *   2. the cache is used: after a flagged call, B (or A) changes, and the
 *      next flagged call still gives the first result when the change is
 *      where the 68-element fingerprint does not look (B was not packed
 *      again); new contents everywhere (a new array at the same address)
 *      are seen (the entry is stale); after mp_lp_forget, the result of the
 *      new contents;
 *   3. a different pointer, stride, size, source type, lp, kernel,
 *      explicit scale or offset (mp_lp_opts.a_zero / b_zero; -0 is not +0)
 *      is a miss (results correct: those without flags, and with offsets
 *      those of the call on materialised B - b_zero); alpha, accumulate
 *      and the other operand's offset are not part of the key (a hit);
 *   4. eviction under a 1 MB limit: the cache stays below it, results
 *      stay correct, an operand above it is not cached;
 *   5. an operand with a NaN is not cached (-1, c untouched), and a later
 *      call with finite values at the same pointer is correct; likewise an
 *      offset that makes an operand infinite (3e38 - -3e38);
 *   6. threads calling concurrently on shared and private operands, with
 *      forgets and evictions going on, get correct results.
 * "env" (third argument) checks the MIXPREC_CACHE_MB environment instead:
 * the limit it sets (0: no caching at all).
 *
 * Usage: test_lp_cache PREC KERNEL [env] [seed]
 *   PREC: int8 | uint8 | bf16 | fp8_e4m3 | fp8_e5m2
 *   KERNEL: scalar | avx2 | avx512vnni (int8, uint8), scalar | avx2 |
 *           avx512bf16 (others)
 * Exits 77 when the CPU lacks the kernel. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include "mp_gemm.h"
#include "lp.h"

#include "rt_test.h"

static pthread_mutex_t fail_lock = PTHREAD_MUTEX_INITIALIZER;
static int failures;
#define CHECK(c, ...)                                                            \
	do {                                                                     \
		if (!(c)) {                                                      \
			pthread_mutex_lock(&fail_lock);                          \
			failures++;                                              \
			if (failures < 20) {                                     \
				fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
				fprintf(stderr, __VA_ARGS__);                    \
				fprintf(stderr, "\n");                           \
			}                                                        \
			pthread_mutex_unlock(&fail_lock);                        \
		}                                                                \
	} while (0)

static mp_kernel kern;
static mp_lp lp_t;

static double urand(void) /* [-1, 1) */
{
	return (double)(mp_rand() >> 11) * 0x1p-52 - 1.0;
}

/* A rows x cols operand (A: M x K, s0 = a_si, s1 = a_sk; B: K x N, s0 =
 * b_sk, s1 = b_sj) of float or double elements, in a page-aligned mapping
 * (so that it can be made unreadable); base is element (0,0). */
typedef struct op {
	char *buf;
	size_t bytes;
	char *base;
	ptrdiff_t s0, s1;
	long rows, cols;
	int dbl;
} op;

/* lay: 0 row-major, 1 column-major, 2 padded rows, 3 negative strides,
 * 4 every other element (s1 = 2). */
static void op_make(op *o, long rows, long cols, int lay, int dbl)
{
	const size_t es = dbl ? 8 : 4;
	long pad = 1 + mp_rand_below(5);
	switch (lay) {
	case 0: o->s0 = cols; o->s1 = 1; break;
	case 1: o->s0 = 1; o->s1 = rows; break;
	case 2: o->s0 = cols + pad; o->s1 = 1; break;
	case 3: o->s0 = -(cols + pad); o->s1 = -1; break;
	default: o->s0 = 2 * cols + pad; o->s1 = 2; break;
	}
	ptrdiff_t e0 = (rows - 1) * o->s0, e1 = (cols - 1) * o->s1;
	ptrdiff_t lo = (e0 < 0 ? e0 : 0) + (e1 < 0 ? e1 : 0);
	ptrdiff_t hi = (e0 > 0 ? e0 : 0) + (e1 > 0 ? e1 : 0);
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	o->bytes = ((size_t)(hi - lo + 1 + 16) * es + pg - 1) / pg * pg;
	o->buf = mmap(NULL, o->bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (o->buf == MAP_FAILED)
		abort();
	o->base = o->buf + (size_t)(8 - lo) * es;
	o->rows = rows;
	o->cols = cols;
	o->dbl = dbl;
}

static void op_set(op *o, long r, long c, double v)
{
	ptrdiff_t q = r * o->s0 + c * o->s1;
	if (o->dbl)
		((double *)o->base)[q] = v;
	else
		((float *)o->base)[q] = (float)v;
}

static double op_get(const op *o, long r, long c)
{
	ptrdiff_t q = r * o->s0 + c * o->s1;
	return o->dbl ? ((double *)o->base)[q] : ((float *)o->base)[q];
}

/* Random values, rows scaled differently (distinct per-row scales); relu
 * makes them non-negative (UINT8's A). */
static void op_fill(op *o, int relu)
{
	for (long r = 0; r < o->rows; r++)
		for (long c = 0; c < o->cols; c++) {
			double v = urand() * (1 + (r + 3 * c) % 5);
			op_set(o, r, c, relu && v < 0 ? 0 : v);
		}
}

/* Forgotten before unmapping: the address may come back for another
 * operand. */
static void op_free(op *o)
{
	mp_lp_forget(o->base);
	munmap(o->buf, o->bytes);
}

/* The problem of one call: A (M x K), B (K x N), output M x N row-major. */
typedef struct prob {
	mp_kernel kern;
	mp_lp lp;
	long M, N, K;
	op *A, *B;
	int accumulate;
	double alpha;
	mp_lp_scales sc;
	double za, zb;   /* offsets (mp_lp_opts.a_zero / b_zero) */
} prob;

static size_t out_bytes(const prob *p)
{
	return (size_t)(p->M * p->N) * (p->A->dbl ? 8 : 4);
}

/* c = init (the old values), then the call with flags into c. */
static int call(const prob *p, unsigned flags, void *c, const void *init)
{
	memcpy(c, init, out_bytes(p));
	mp_lp_opts o = {.alpha = p->alpha, .flags = flags, .a_zero = p->za, .b_zero = p->zb};
	return mp_gemm_lp_ex(p->kern, p->lp, p->A->dbl, p->M, p->N, p->K, p->A->base, p->A->s0,
			     p->A->s1, p->B->base, p->B->s0, p->B->s1, c, p->N, 1, p->accumulate,
			     &p->sc, &o);
}

static void *rand_out(const prob *p)
{
	size_t n = (size_t)(p->M * p->N);
	void *c = malloc(out_bytes(p) + 8);
	for (size_t q = 0; q < n; q++) {
		if (p->A->dbl)
			((double *)c)[q] = urand() * 10;
		else
			((float *)c)[q] = (float)(urand() * 10);
	}
	return c;
}

static mp_lp_cache_stats stats(void)
{
	mp_lp_cache_stats s;
	mp_lp_cache_stats_get(&s);
	return s;
}

static int integer_lp(mp_lp lp)
{
	return lp == MP_LP_INT8 || lp == MP_LP_UINT8;
}

/* Explicit scales generous enough not to saturate: amax / qmax * 1.25, per
 * row of A / column of B (stride 1), or one per tensor (stride 0). */
static float *expl_scales(const op *o, int of_rows, int per_tensor, double qmax)
{
	long n = of_rows ? o->rows : o->cols, t = of_rows ? o->cols : o->rows;
	float *s = malloc(sizeof(float) * (size_t)(n + 1));
	double all = 0;
	for (long r = 0; r < n; r++) {
		double m = 0;
		for (long q = 0; q < t; q++)
			m = fmax(m, fabs(of_rows ? op_get(o, r, q) : op_get(o, q, r)));
		s[r] = (float)(m > 0 ? m * 1.25 / qmax : 1.0);
		all = fmax(all, m);
	}
	if (per_tensor)
		s[0] = (float)(all > 0 ? all * 1.25 / qmax : 1.0);
	return s;
}

static double qmax_of(mp_lp lp, int side)
{
	switch (lp) {
	case MP_LP_INT8: return 127;
	case MP_LP_UINT8: return side ? 127 : 255;
	case MP_LP_FP8_E4M3: return 448;
	case MP_LP_FP8_E5M2: return 57344;
	default: return 1;
	}
}

/* ------------------------------------------------- 1. bit-identity */

static void one_identity(long M, long N, long K, int la, int lb, int dbl, int mode)
{
	op A, B;
	op_make(&A, M, K, la, dbl);
	op_make(&B, K, N, lb, dbl);
	op_fill(&A, lp_t == MP_LP_UINT8 && mp_rand_below(2));
	op_fill(&B, 0);
	prob p = {kern, lp_t, M, N, K, &A, &B, (int)mp_rand_below(2), 1.0, {1, NULL, 0, NULL, 0}, 0, 0};
	if (mp_rand_below(2))
		p.alpha = mp_rand_below(2) ? -0.75 : 3.0 * urand();
	/* offsets, at random: none, A's, B's, both (float values) */
	switch (mp_rand_below(4)) {
	case 0: p.za = (float)(2 * urand()); break;
	case 1: p.zb = (float)(2 * urand()); break;
	case 2: p.za = -3.0, p.zb = (float)urand(); break;
	default: break;
	}
	/* mode 0 dynamic; 1 explicit per row / column; 2 per tensor; 3 A
	 * explicit, B dynamic; 4 the converse */
	float *sa = NULL, *sb = NULL;
	if (mode) {
		sa = expl_scales(&A, 1, mode == 2, qmax_of(lp_t, 0));
		sb = expl_scales(&B, 0, mode == 2, qmax_of(lp_t, 1));
		p.sc = (mp_lp_scales){0, mode == 4 ? NULL : sa, mode == 2 ? 0 : 1,
				      mode == 3 ? NULL : sb, mode == 2 ? 0 : 1};
	}
	void *init = rand_out(&p), *ref = malloc(out_bytes(&p)), *c = malloc(out_bytes(&p));
	int rc = call(&p, 0, ref, init);
	CHECK(rc == 0, "identity: rc %d without flags", rc);
	for (unsigned fl = 1; fl <= 3; fl++) {
		int nf = (fl & 1) + (fl >> 1);
		for (int pass = 0; pass < 2; pass++) {
			mp_lp_cache_stats s0 = stats();
			rc = call(&p, fl, c, init);
			mp_lp_cache_stats s1 = stats();
			CHECK(rc == 0 && !memcmp(c, ref, out_bytes(&p)),
			      "identity: %s %s flags %u call %d M=%ld N=%ld K=%ld la=%d lb=%d mode %d "
			      "alpha %g acc %d offsets %g %g: differs from the call without flags",
			      mp_lp_kernel_name(kern, lp_t), dbl ? "double" : "float", fl, pass + 1, M,
			      N, K, la, lb, mode, p.alpha, p.accumulate, p.za, p.zb);
			if (pass == 0)
				CHECK(s1.misses - s0.misses == nf, "identity: flags %u, first call: %ld "
				      "misses", fl, s1.misses - s0.misses);
			else
				CHECK(s1.hits - s0.hits == nf, "identity: flags %u, second call: %ld hits "
				      "(M=%ld N=%ld K=%ld)", fl, s1.hits - s0.hits, M, N, K);
		}
		/* the next flag set starts with misses again */
		mp_lp_forget(A.base);
		mp_lp_forget(B.base);
	}
	free(init);
	free(ref);
	free(c);
	free(sa);
	free(sb);
	op_free(&A);
	op_free(&B);
}

static void test_identity(void)
{
	for (int t = 0; t < 24; t++) {
		long M = 1 + mp_rand_below(t % 3 == 0 ? 130 : 20);
		long N = 1 + mp_rand_below(t % 4 == 0 ? 200 : 70);
		long K = 1 + mp_rand_below(t % 5 == 0 ? 700 : 90);
		int mode = (int)mp_rand_below(5); /* (BF16 ignores scales) */
		one_identity(M, N, K, (int)mp_rand_below(5), (int)mp_rand_below(5), t % 2, mode);
	}
	/* blocking edges: several MC blocks and NC panels */
	one_identity(100, 1100, 24, 0, 0, 0, 0);
	one_identity(130, 70, 33, 0, 1, 1, 1);
	one_identity(1, 300, 257, 0, 1, 0, 0);
	one_identity(300, 1, 129, 1, 0, 0, 2);
	if (integer_lp(lp_t)) /* several K-chunks */
		one_identity(3, 5, mp_lp_kc(lp_t) + 999, 0, 1, 0, 0);
}

/* ------------------------------------------- 2. the cache is used */

static void test_stale(int side)
{
	const long M = 37, N = 70, K = 129;
	op A, B;
	op_make(&A, M, K, 0, 0);
	op_make(&B, K, N, side ? 1 : 0, 0);
	op_fill(&A, lp_t == MP_LP_UINT8);
	op_fill(&B, 0);
	op *X = side ? &B : &A;
	const unsigned fl = side ? MP_LP_CONST_B : MP_LP_CONST_A;
	prob p = {kern, lp_t, M, N, K, &A, &B, 0, 1.0, {1, NULL, 0, NULL, 0}, 0, 0};
	void *init = rand_out(&p), *r1 = malloc(out_bytes(&p)), *c = malloc(out_bytes(&p));
	void *fresh = malloc(out_bytes(&p));
	CHECK(call(&p, fl, r1, init) == 0, "stale: rc");
	/* one element changed where the fingerprint does not look (the
	 * promise broken quietly): the flagged call still gives the first
	 * result, i.e. it ran from the packed form, not from the operand */
	{
		long n = side ? N : M, rr = -1, kk = -1;
		for (long cand = 1; cand < n * K && rr < 0; cand += 7) {
			long r = cand % n, k = (cand / n) % K, hit = 0;
			for (int t = 0; t < MP_LP_FP_SAMPLES; t++) {
				long sr, sk;
				mp_lp_fp_pos(n, K, t, &sr, &sk);
				hit |= sr == r && sk == k;
			}
			if (!hit)
				rr = r, kk = k;
		}
		CHECK(rr >= 0, "no unsampled element");
		long orow = side ? kk : rr, ocol = side ? rr : kk;
		op_set(X, orow, ocol, op_get(X, orow, ocol) * -3.0 + 0.75);
		CHECK(call(&p, fl, c, init) == 0 && !memcmp(c, r1, out_bytes(&p)),
		      "stale %c: the flagged call after a change did not run from the cache",
		      "AB"[side]);
	}
	/* new contents everywhere (another array at the same address, say):
	 * the fingerprint differs, the entry is dropped, the result is the new
	 * contents' */
	for (long r = 0; r < X->rows; r++)
		for (long q = 0; q < X->cols; q++)
			op_set(X, r, q, -1.5 * op_get(X, r, q) + 0.25);
	{
		mp_lp_cache_stats s0 = stats();
		CHECK(call(&p, 0, fresh, init) == 0, "stale: rc");
		CHECK(call(&p, fl, c, init) == 0 && !memcmp(c, fresh, out_bytes(&p)),
		      "stale %c: new contents at the same address hit the old packed form",
		      "AB"[side]);
		CHECK(stats().stale == s0.stale + 1, "stale %c: not counted as stale", "AB"[side]);
		/* and from now on the new packed form is used */
		CHECK(call(&p, fl, c, init) == 0 && !memcmp(c, fresh, out_bytes(&p)) &&
		      stats().hits == s0.hits + 1, "stale %c: the re-packed form is not reused",
		      "AB"[side]);
		memcpy(r1, fresh, out_bytes(&p));
		/* a quiet change again, for the forget checks below */
		for (long r = 0; r < X->rows; r++)
			for (long q = 0; q < X->cols; q++)
				if ((r + q) % 5 == 1) {
					long n = side ? N : M, rr = side ? q : r, kk = side ? r : q;
					int sampled = 0;
					for (int t = 0; t < MP_LP_FP_SAMPLES; t++) {
						long sr, sk;
						mp_lp_fp_pos(n, K, t, &sr, &sk);
						sampled |= sr == rr && sk == kk;
					}
					if (!sampled)
						op_set(X, r, q, 2.0 * op_get(X, r, q) - 0.125);
				}
	}
	/* alpha and accumulate are not part of the key: still a hit, with
	 * the cached operand */
	{
		prob q = p;
		q.alpha = -2.0;
		q.accumulate = 1;
		void *c2 = malloc(out_bytes(&p));
		mp_lp_cache_stats s0 = stats();
		CHECK(call(&q, fl, c2, init) == 0, "stale: rc");
		CHECK(stats().hits == s0.hits + 1, "stale: alpha / accumulate made a miss");
		free(c2);
	}
	/* forgotten: the new contents */
	mp_lp_forget(X->base);
	CHECK(call(&p, 0, fresh, init) == 0, "stale: rc");
	CHECK(memcmp(fresh, r1, out_bytes(&p)) != 0, "stale: the change made no difference");
	CHECK(call(&p, fl, c, init) == 0 && !memcmp(c, fresh, out_bytes(&p)),
	      "stale %c: after mp_lp_forget(p), not the new contents' result", "AB"[side]);
	/* mp_lp_forget(NULL) as well */
	for (long r = 0; r < X->rows; r++)
		for (long q = 0; q < X->cols; q++)
			op_set(X, r, q, 0.5 * op_get(X, r, q));
	mp_lp_forget(NULL);
	CHECK(call(&p, 0, fresh, init) == 0, "stale: rc");
	CHECK(call(&p, fl, c, init) == 0 && !memcmp(c, fresh, out_bytes(&p)),
	      "stale %c: after mp_lp_forget(NULL), not the new contents' result", "AB"[side]);
	free(init);
	free(r1);
	free(c);
	free(fresh);
	op_free(&A);
	op_free(&B);
}

/* ------------------------------------------------------ 3. misses */

/* The flagged call on p is a miss (or a hit: want_hit) and gives the
 * result without flags. */
static void expect(const prob *p, int want_hit, const char *what)
{
	void *init = rand_out(p), *ref = malloc(out_bytes(p)), *c = malloc(out_bytes(p));
	CHECK(call(p, 0, ref, init) == 0, "%s: rc", what);
	mp_lp_cache_stats s0 = stats();
	CHECK(call(p, MP_LP_CONST_B, c, init) == 0 && !memcmp(c, ref, out_bytes(p)),
	      "%s: wrong result", what);
	mp_lp_cache_stats s1 = stats();
	CHECK(s1.hits - s0.hits == want_hit && s1.misses - s0.misses == !want_hit,
	      "%s: %ld hits %ld misses, want a %s", what, s1.hits - s0.hits, s1.misses - s0.misses,
	      want_hit ? "hit" : "miss");
	free(init);
	free(ref);
	free(c);
}

static mp_lp sibling(mp_lp lp)
{
	switch (lp) {
	case MP_LP_INT8: return MP_LP_UINT8;
	case MP_LP_UINT8: return MP_LP_INT8;
	case MP_LP_BF16: return MP_LP_FP8_E4M3;
	case MP_LP_FP8_E4M3: return MP_LP_FP8_E5M2;
	default: return MP_LP_BF16;
	}
}

static void test_keys(void)
{
	const long M = 9, N = 45, K = 77;
	op A, B, B2, Bd;
	op_make(&A, M, K, 0, 0);
	op_fill(&A, lp_t == MP_LP_UINT8);
	/* B inside a buffer twice as large: other strides and sizes still
	 * address valid elements */
	op_make(&B, 2 * K, 2 * N, 0, 0);
	op_fill(&B, 0);
	B.rows = K;
	B.cols = N;
	op_make(&B2, K, N, 0, 0);
	op_fill(&B2, 0);
	mp_lp_forget(NULL);
	prob p = {kern, lp_t, M, N, K, &A, &B, 0, 1.0, {1, NULL, 0, NULL, 0}, 0, 0};
	expect(&p, 0, "first call");
	expect(&p, 1, "same key");
	prob q = p;
	q.B = &B2;
	expect(&q, 0, "another pointer");
	op Bs = B;
	Bs.s0 = 2 * B.s0; /* b_sk */
	q = p;
	q.B = &Bs;
	expect(&q, 0, "another b_sk");
	Bs = B;
	Bs.s1 = 2; /* b_sj */
	q.B = &Bs;
	expect(&q, 0, "another b_sj");
	q = p;
	q.N = N - 1;
	expect(&q, 0, "another N");
	q = p;
	q.K = K - 2;
	expect(&q, 0, "another K");
	q = p;
	q.M = M - 2;
	expect(&q, 1, "another M (not B's key)");
	q = p;
	q.lp = sibling(lp_t);
	expect(&q, 0, "another lp");
	q = p;
	q.kern = kern == MP_KERNEL_SCALAR ? (mp_kernel_available(MP_KERNEL_AVX2) ? MP_KERNEL_AVX2
					    : MP_KERNEL_SCALAR) : MP_KERNEL_SCALAR;
	if (strcmp(mp_lp_kernel_name(q.kern, lp_t), mp_lp_kernel_name(kern, lp_t)))
		expect(&q, 0, "another kernel");
	/* double elements, then the same bytes read as floats: the source
	 * type is part of the key */
	op_make(&Bd, K, N, 0, 1);
	op_fill(&Bd, 0);
	op Ad;
	op_make(&Ad, M, K, 0, 1);
	op_fill(&Ad, lp_t == MP_LP_UINT8);
	q = p;
	q.A = &Ad;
	q.B = &Bd;
	expect(&q, 0, "double");
	expect(&q, 1, "double, same key");
	op Bf = Bd;
	Bf.dbl = 0;
	op_fill(&Bf, 0);
	q = p;
	q.B = &Bf;
	expect(&q, 0, "float at a double's address");
	/* scales: explicit values are part of the key, their address not */
	if (lp_t != MP_LP_BF16) {
		float *sb = expl_scales(&B, 0, 0, qmax_of(lp_t, 1));
		float *sb2 = malloc(sizeof(float) * (size_t)N);
		memcpy(sb2, sb, sizeof(float) * (size_t)N);
		q = p;
		q.sc = (mp_lp_scales){0, NULL, 0, sb, 1};
		expect(&q, 0, "explicit scales vs dynamic");
		expect(&q, 1, "explicit scales, same");
		q.sc.b_scale = sb2;
		expect(&q, 1, "explicit scales, same values elsewhere");
		sb2[N / 2] *= 1.5f;
		expect(&q, 0, "explicit scales, one value changed");
		q.sc = (mp_lp_scales){0, NULL, 0, sb, 0};
		expect(&q, 0, "explicit scale per tensor");
		/* A's scale mode is not B's key */
		float *sa = expl_scales(&A, 1, 0, qmax_of(lp_t, 0));
		q.sc = (mp_lp_scales){0, sa, 1, sb, 0};
		expect(&q, 1, "A explicit (not B's key)");
		free(sa);
		free(sb);
		free(sb2);
	} else {
		/* BF16 ignores scales: they are not part of its key */
		float one = 1;
		q = p;
		q.sc = (mp_lp_scales){0, NULL, 0, &one, 0};
		expect(&q, 1, "bf16: scales ignored");
	}
	/* offsets: B's is part of B's key, A's is not */
	{
		op Bz; /* B - 0.5 as float computes it, B's layout */
		op_make(&Bz, K, N, 0, 0);
		for (long r = 0; r < K; r++)
			for (long c = 0; c < N; c++)
				op_set(&Bz, r, c, (float)op_get(&B, r, c) - 0.5f);
		q = p;
		q.zb = 0.5;
		expect(&q, 0, "B offset 0.5 vs none");
		expect(&q, 1, "B offset 0.5, same");
		/* the result is the one of B - 0.5 */
		{
			prob r = p;
			r.B = &Bz;
			void *init = rand_out(&q), *ref = malloc(out_bytes(&q)), *c = malloc(out_bytes(&q));
			CHECK(call(&r, 0, ref, init) == 0 && call(&q, MP_LP_CONST_B, c, init) == 0 &&
			      !memcmp(c, ref, out_bytes(&q)), "B offset 0.5: differs from B - 0.5");
			free(init);
			free(ref);
			free(c);
		}
		q.zb = -0.25;
		expect(&q, 0, "B offset -0.25 after 0.5");
		q.za = 1.5;
		expect(&q, 1, "A offset (not B's key)");
		q.za = 0;
		q.zb = 0;
		expect(&q, 1, "B offset 0 (the first entry)");
		q.zb = -0.0;
		expect(&q, 0, "B offset -0 vs +0");
		q.zb = 0.5;
		expect(&q, 1, "B offset 0.5 again");
		op_free(&Bz);
	}
	/* CONST_A: likewise keyed by A */
	{
		void *init = rand_out(&p), *ref = malloc(out_bytes(&p)), *c = malloc(out_bytes(&p));
		CHECK(call(&p, 0, ref, init) == 0, "A: rc");
		mp_lp_cache_stats s0 = stats();
		CHECK(call(&p, MP_LP_CONST_A, c, init) == 0 && !memcmp(c, ref, out_bytes(&p)), "A: result");
		CHECK(call(&p, MP_LP_CONST_A, c, init) == 0 && !memcmp(c, ref, out_bytes(&p)), "A: result");
		q = p;
		q.B = &B2; /* another B: A's entry still hits */
		CHECK(call(&q, 0, ref, init) == 0, "A: rc");
		CHECK(call(&q, MP_LP_CONST_A, c, init) == 0 && !memcmp(c, ref, out_bytes(&p)), "A: result");
		q = p;
		q.M = M - 1;
		CHECK(call(&q, MP_LP_CONST_A, c, init) == 0, "A: rc");
		/* A's offset: a miss, then a hit; B's: not A's key */
		q = p;
		q.za = -2.0;
		CHECK(call(&q, 0, ref, init) == 0, "A: rc");
		CHECK(call(&q, MP_LP_CONST_A, c, init) == 0 && !memcmp(c, ref, out_bytes(&p)),
		      "A offset: result");
		q.zb = 0.75;
		CHECK(call(&q, 0, ref, init) == 0, "A: rc");
		CHECK(call(&q, MP_LP_CONST_A, c, init) == 0 && !memcmp(c, ref, out_bytes(&p)),
		      "A offset, B offset: result");
		mp_lp_cache_stats s1 = stats();
		CHECK(s1.misses - s0.misses == 3 && s1.hits - s0.hits == 3,
		      "A: %ld misses %ld hits, want 3 and 3", s1.misses - s0.misses, s1.hits - s0.hits);
		free(init);
		free(ref);
		free(c);
	}
	op_free(&A);
	op_free(&B);
	op_free(&B2);
	op_free(&Bd);
	op_free(&Ad);
}

/* --------------------------------------------------- 4. eviction */

/* Several operands of a few hundred KB packed under a 1 MB limit, round
 * robin; one operand above the limit. */
static void test_evict(long long limit, int check_big)
{
	enum { NB = 6 };
	const long M = 5, N = 300, K = 600;
	op A, B[NB];
	op_make(&A, M, K, 0, 0);
	op_fill(&A, lp_t == MP_LP_UINT8);
	void *ref[NB];
	prob p = {kern, lp_t, M, N, K, &A, NULL, 0, 1.0, {1, NULL, 0, NULL, 0}, 0, 0};
	void *init = NULL, *c = NULL;
	for (int b = 0; b < NB; b++) {
		op_make(&B[b], K, N, b % 2, 0);
		op_fill(&B[b], 0);
		p.B = &B[b];
		if (!init) {
			init = rand_out(&p);
			c = malloc(out_bytes(&p));
		}
		ref[b] = malloc(out_bytes(&p));
		CHECK(call(&p, 0, ref[b], init) == 0, "evict: rc");
	}
	long hits = 0;
	for (int round = 0; round < 3; round++)
		for (int b = 0; b < NB; b++) {
			p.B = &B[(b * 5 + round) % NB];
			mp_lp_cache_stats s0 = stats();
			CHECK(call(&p, MP_LP_CONST_B, c, init) == 0 &&
			      !memcmp(c, ref[(b * 5 + round) % NB], out_bytes(&p)),
			      "evict: wrong result (round %d operand %d)", round, b);
			mp_lp_cache_stats s = stats();
			hits += s.hits - s0.hits;
			CHECK((long long)s.bytes <= limit, "evict: %zu bytes cached, limit %lld", s.bytes,
			      limit);
		}
	/* something was cached and reused (an entry is well below 1 MB) */
	CHECK(limit == 0 || stats().entries >= 1, "evict: nothing cached");
	if (limit == 0)
		CHECK(hits == 0 && stats().entries == 0, "cache disabled: %ld hits", hits);
	/* an operand above the limit: not cached, so a change is seen */
	if (check_big) {
		const long Nb = 1100, Kb = 1024;
		op Bb;
		op_make(&Bb, Kb, Nb, 0, 0);
		op_fill(&Bb, 0);
		prob q = {kern, lp_t, M, Nb, Kb, &A, &Bb, 0, 1.0, {1, NULL, 0, NULL, 0}, 0, 0};
		op Ab;
		op_make(&Ab, M, Kb, 0, 0);
		op_fill(&Ab, lp_t == MP_LP_UINT8);
		q.A = &Ab;
		void *ib = rand_out(&q), *rb = malloc(out_bytes(&q)), *cb = malloc(out_bytes(&q));
		CHECK(call(&q, MP_LP_CONST_B, cb, ib) == 0, "big: rc");
		CHECK(call(&q, 0, rb, ib) == 0 && !memcmp(cb, rb, out_bytes(&q)), "big: result");
		for (long r = 0; r < Kb; r++)
			for (long s = 0; s < Nb; s++)
				op_set(&Bb, r, s, -op_get(&Bb, r, s));
		CHECK(call(&q, 0, rb, ib) == 0, "big: rc");
		CHECK(call(&q, MP_LP_CONST_B, cb, ib) == 0 && !memcmp(cb, rb, out_bytes(&q)),
		      "big: an operand above the limit was cached");
		CHECK((long long)stats().bytes <= limit, "big: limit exceeded");
		free(ib);
		free(rb);
		free(cb);
		op_free(&Bb);
		op_free(&Ab);
	}
	for (int b = 0; b < NB; b++) {
		free(ref[b]);
		op_free(&B[b]);
	}
	free(init);
	free(c);
	op_free(&A);
}

/* ------------------------------------------------------- 5. NaN */

static void test_nan(void)
{
	const long M = 11, N = 40, K = 65;
	op A, B;
	op_make(&A, M, K, 0, 0);
	op_make(&B, K, N, 2, 0);
	op_fill(&A, lp_t == MP_LP_UINT8);
	op_fill(&B, 0);
	mp_lp_forget(NULL);
	prob p = {kern, lp_t, M, N, K, &A, &B, 1, 1.0, {1, NULL, 0, NULL, 0}, 0, 0};
	void *init = rand_out(&p), *ref = malloc(out_bytes(&p)), *c = malloc(out_bytes(&p));
	const double bad[3] = {NAN, INFINITY, -INFINITY};
	for (int side = 0; side < 2; side++) {
		op *X = side ? &B : &A;
		const unsigned fl = side ? MP_LP_CONST_B : MP_LP_CONST_A;
		long r = mp_rand_below(X->rows), q = mp_rand_below(X->cols);
		double keep = op_get(X, r, q);
		op_set(X, r, q, bad[mp_rand_below(3)]);
		long e0 = stats().entries;
		CHECK(call(&p, fl, c, init) == -1 && !memcmp(c, init, out_bytes(&p)),
		      "nan %c: not refused, or c written", "AB"[side]);
		CHECK(stats().entries == e0, "nan %c: cached", "AB"[side]);
		/* twice: the refusal was not cached either */
		CHECK(call(&p, fl, c, init) == -1, "nan %c: second call not refused", "AB"[side]);
		op_set(X, r, q, keep * 0.5);
		CHECK(call(&p, 0, ref, init) == 0, "nan: rc");
		CHECK(call(&p, fl, c, init) == 0 && !memcmp(c, ref, out_bytes(&p)),
		      "nan %c: finite operand at the same pointer, wrong result", "AB"[side]);
		CHECK(call(&p, fl, c, init) == 0 && !memcmp(c, ref, out_bytes(&p)),
		      "nan %c: second call, wrong result", "AB"[side]);
		/* the other operand non-finite while this one is constant and
		 * cached: still refused */
		op *Y = side ? &A : &B;
		double ky = op_get(Y, 0, 0);
		op_set(Y, 0, 0, NAN);
		CHECK(call(&p, fl, c, init) == -1 && !memcmp(c, init, out_bytes(&p)),
		      "nan in the other operand: not refused");
		op_set(Y, 0, 0, ky);
	}
	/* an offset that makes the operand infinite: refused, not cached (a
	 * second call is refused too); the operand restored, with an offset
	 * that keeps it in range, is correct */
	for (int side = 0; side < 2; side++) {
		op *X = side ? &B : &A;
		const unsigned fl = side ? MP_LP_CONST_B : MP_LP_CONST_A;
		long r = mp_rand_below(X->rows), q = mp_rand_below(X->cols);
		double keep = op_get(X, r, q);
		op_set(X, r, q, 3e38);
		prob pz = p;
		if (side)
			pz.zb = -3e38f;
		else
			pz.za = -3e38f;
		long e0 = stats().entries;
		CHECK(call(&pz, fl, c, init) == -1 && !memcmp(c, init, out_bytes(&p)),
		      "offset -3e38 on 3e38 in %c: not refused, or c written", "AB"[side]);
		CHECK(stats().entries == e0, "%c' infinite: cached", "AB"[side]);
		CHECK(call(&pz, fl, c, init) == -1, "%c' infinite: second call not refused",
		      "AB"[side]);
		op_set(X, r, q, keep);
		if (side)
			pz.zb = 0.25;
		else
			pz.za = 0.25;
		CHECK(call(&pz, 0, ref, init) == 0, "offset 0.25: rc");
		CHECK(call(&pz, fl, c, init) == 0 && !memcmp(c, ref, out_bytes(&p)),
		      "offset 0.25 after -3e38 in %c: wrong result", "AB"[side]);
		CHECK(call(&pz, fl, c, init) == 0 && !memcmp(c, ref, out_bytes(&p)),
		      "offset 0.25 after -3e38 in %c, second call: wrong result", "AB"[side]);
	}
	free(init);
	free(ref);
	free(c);
	op_free(&A);
	op_free(&B);
}

/* ---------------------------------------------------- 6. threads */

enum { NT = 4, NOPS = 3, ITERS = 30 };
static op th_A[NT], th_B[NT], sh_B;
static void *th_ref[NT][2];   /* per thread: with the shared B, with its own */
static void *th_init;
static long th_M = 24, th_N = 150, th_K = 200;

static void *worker(void *arg)
{
	int t = (int)(intptr_t)arg;
	uint64_t rs = 0x9e3779b97f4a7c15ull * (uint64_t)(t + 1);
	prob p = {kern, lp_t, th_M, th_N, th_K, &th_A[t], NULL, 0, 1.0, {1, NULL, 0, NULL, 0}, 0, 0};
	void *c = malloc(out_bytes(&p));
	for (int it = 0; it < ITERS; it++) {
		rs ^= rs << 13;
		rs ^= rs >> 7;
		rs ^= rs << 17;
		int own = (int)(rs % 2);
		unsigned fl = 1 + (unsigned)((rs >> 8) % 3);
		p.B = own ? &th_B[t] : &sh_B;
		CHECK(call(&p, fl, c, th_init) == 0 && !memcmp(c, th_ref[t][own], out_bytes(&p)),
		      "threads: thread %d iteration %d (%s B, flags %u): wrong result", t, it,
		      own ? "own" : "shared", fl);
		if (t == 0 && it % 7 == 3)
			mp_lp_forget(it % 2 ? NULL : sh_B.base);
	}
	free(c);
	return NULL;
}

static void test_threads(void)
{
	op_make(&sh_B, th_K, th_N, 0, 0);
	op_fill(&sh_B, 0);
	prob p = {kern, lp_t, th_M, th_N, th_K, NULL, NULL, 0, 1.0, {1, NULL, 0, NULL, 0}, 0, 0};
	for (int t = 0; t < NT; t++) {
		op_make(&th_A[t], th_M, th_K, 0, 0);
		op_fill(&th_A[t], lp_t == MP_LP_UINT8);
		op_make(&th_B[t], th_K, th_N, t % 2, 0);
		op_fill(&th_B[t], 0);
		p.A = &th_A[t];
		if (!th_init)
			th_init = rand_out(&p);
		for (int own = 0; own < 2; own++) {
			p.B = own ? &th_B[t] : &sh_B;
			th_ref[t][own] = malloc(out_bytes(&p));
			CHECK(call(&p, 0, th_ref[t][own], th_init) == 0, "threads: rc");
		}
	}
	/* twice: the whole cache, then a limit of about three entries (so that
	 * the threads evict each other's) */
	for (int lim = 0; lim < 2; lim++) {
		mp_lp_forget(NULL);
		if (lim) {
			mp_lp_cache_stats s0 = stats();
			p.A = &th_A[0];
			p.B = &sh_B;
			void *c = malloc(out_bytes(&p));
			CHECK(call(&p, MP_LP_CONST_B, c, th_init) == 0, "threads: rc");
			free(c);
			mp_lp_cache_stats s1 = stats();
			CHECK(s1.entries == s0.entries + 1, "threads: one entry");
			mp_lp_cache_set_limit((long long)(s1.bytes - s0.bytes) * 3 + 1000);
		}
		pthread_t th[NT];
		for (int t = 0; t < NT; t++)
			pthread_create(&th[t], NULL, worker, (void *)(intptr_t)t);
		for (int t = 0; t < NT; t++)
			pthread_join(th[t], NULL);
	}
	mp_lp_cache_set_limit(-1);
	for (int t = 0; t < NT; t++) {
		free(th_ref[t][0]);
		free(th_ref[t][1]);
		op_free(&th_A[t]);
		op_free(&th_B[t]);
	}
	op_free(&sh_B);
	free(th_init);
}

/* ---------------------------------------------------------- main */

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: %s int8|uint8|bf16|fp8_e4m3|fp8_e5m2 KERNEL [env] [seed]\n",
			argv[0]);
		return 2;
	}
	int env = argc > 3 && !strcmp(argv[3], "env");
	const char *seed_arg = argc > 3 + env ? argv[3 + env] : getenv("MP_TEST_SEED");
	mp_rng_state = seed_arg ? strtoull(seed_arg, NULL, 0) : (uint64_t)time(NULL);
	if (!mp_rng_state)
		mp_rng_state = 1;
	printf("seed %llu\n", (unsigned long long)mp_rng_state);
	static const char *const names[] = {"int8", "uint8", "bf16", "fp8_e4m3", "fp8_e5m2"};
	int found = 0;
	for (int l = 0; l < 5; l++)
		if (!strcmp(argv[1], names[l])) {
			lp_t = (mp_lp)l;
			found = 1;
		}
	if (!found) {
		fprintf(stderr, "unknown precision %s\n", argv[1]);
		return 2;
	}
	/* as test_lp.c reads it */
	kern = rt_lp_kernel_by_name(argv[2]);
	if (integer_lp(lp_t) && !mp_kernel_available(kern))
		return 77;
	if (strcmp(mp_lp_kernel_name(kern, lp_t), argv[2]) != 0) {
		printf("%s: kernel %s not available here\n", argv[1], argv[2]);
		return 77;
	}
	if (env) {
		/* the limit of MIXPREC_CACHE_MB */
		const char *e = getenv("MIXPREC_CACHE_MB");
		long long limit = e && *e ? (long long)(strtod(e, NULL) * 1048576.0) : 256ll << 20;
		printf("MIXPREC_CACHE_MB=%s: limit %lld bytes\n", e ? e : "(unset)", limit);
		test_evict(limit, limit > 0 && limit < (4ll << 20));
		if (limit == 0) {
			test_nan();
			CHECK(stats().hits == 0 && stats().misses == 0 && stats().entries == 0,
			      "cache disabled, yet used");
		}
	} else {
		test_identity();
		test_stale(1);
		test_stale(0);
		test_keys();
		mp_lp_cache_set_limit(1 << 20);
		test_evict(1 << 20, 1);
		mp_lp_cache_set_limit(-1);
		test_nan();
		test_threads();
	}
	mp_lp_cache_stats s = stats();
	printf("%s/%s%s: cache %ld hits, %ld misses; %d failures\n", argv[1], argv[2],
	       env ? " (env)" : "", s.hits, s.misses, failures);
	return failures ? 1 : 0;
}
