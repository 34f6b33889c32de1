/* test_x8_const.c -- 8-bit operands declared constant across calls
 * (mp_gemm_x8_const, the pragma's constant= on an integer nest):
 *   1. bit-identity: random shapes (awkward ones: 1, primes, tile edges),
 *      layouts, types, zero points, accumulate, epilogues and flags (A, B,
 *      both); the first flagged call (a miss) and the second (a hit) give
 *      the bits of mp_gemm_x8 / mp_gemm_x8_epi without flags;
 *   2. the packed form is reused: after a flagged call, B changes at a
 *      byte the 68-byte sample does not read; the next flagged call still
 *      gives the first result (B was not packed again), the call without
 *      flags the new one; after mp_lp_forget(B), the flagged call gives the
 *      new result too; new contents everywhere (the sample differs) are
 *      seen without mp_lp_forget;
 *   3. a different zero point of A, type of A or kernel family is a
 *      different entry (results correct);
 *   4. with MIXPREC_THREADS=2 in the environment, every call runs on a
 *      team of two (each part reads the packed B at its columns), with
 *      the same bits.
 * Usage: test_x8_const KERNEL [seed]   (scalar | avx2 | avx512vnni; exits
 * 77 when the CPU lacks it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "mp_gemm.h"
#include "mp_par.h"
#include "lp.h"
#include "rt_test.h"

static int failures;
#define CHECK(c, ...)                                                            \
	do {                                                                     \
		if (!(c)) {                                                      \
			if (++failures < 20) {                                   \
				fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
				fprintf(stderr, __VA_ARGS__);                    \
				fprintf(stderr, "\n");                           \
			}                                                        \
		}                                                                \
	} while (0)

static mp_kernel kern;
static const long shapes[] = {1, 2, 3, 5, 7, 8, 9, 16, 17, 31, 32, 33, 47, 64, 65, 97};
#define NSHAPES ((long)(sizeof shapes / sizeof shapes[0]))

static void fill(mp_operand *o, long rows, long cols, int dt)
{
	for (long r = 0; r < rows; r++)
		for (long c = 0; c < cols; c++) {
			int v = (int)mp_rand_below(256);
			if (mp_rand_below(16) == 0)
				v = mp_rand_below(2) ? 0 : 255;   /* extremes */
			o->base[r * o->s0 + c * o->s1] = (char)(dt == MP_DT_S8 ? v - 128 : v);
		}
}

typedef struct prob {
	long M, N, K;
	int a_dt, b_dt, acc, epi;
	int32_t za, zb;
	mp_operand A, B;
	int32_t *c0;   /* the initial output */
	long ldc;
	mp_epilogue ep;
	int8_t *out;
	int32_t *bias;
} prob;

/* Runs the problem into a fresh output (from c0), with FLAGS (0: the
 * plain entry points); returns the output (malloc'd). */
static int32_t *run(prob *p, int flags)
{
	size_t n = (size_t)p->M * (size_t)p->ldc;
	int32_t *c = malloc(n * sizeof(int32_t) + 4);
	memcpy(c, p->c0, n * sizeof(int32_t));
	mp_gemm_args g = {p->M, p->N, p->K, p->A.base, p->a_dt, p->A.s0, p->A.s1, p->za,
			  p->B.base, p->b_dt, p->B.s0, p->B.s1, p->zb,
			  p->epi ? NULL : c, p->ldc, 1, p->acc, NULL, NULL, NULL};
	mp_epilogue ep = p->ep;
	if (p->epi) {   /* int8 out, written into c's bytes */
		memset(c, 0x5a, n * sizeof(int32_t));
		ep.out = c;
		ep.out_si = p->ldc;
		ep.out_sj = 1;
		g.ep = &ep;
	}
	if (flags)
		mp_gemm_x8_const(kern, flags, &g);
	else if (p->epi)
		mp_gemm_x8_epi(kern, p->M, p->N, p->K, p->A.base, p->a_dt, p->A.s0, p->A.s1, p->za,
			       p->B.base, p->b_dt, p->B.s0, p->B.s1, p->zb, &ep);
	else
		mp_gemm_x8(kern, p->M, p->N, p->K, p->A.base, p->a_dt, p->A.s0, p->A.s1, p->za,
			   p->B.base, p->b_dt, p->B.s0, p->B.s1, p->zb, c, p->ldc, 1, p->acc);
	return c;
}

static int same(const prob *p, const int32_t *x, const int32_t *y)
{
	return !memcmp(x, y, (size_t)p->M * (size_t)p->ldc * sizeof(int32_t));
}

static void make(prob *p, long M, long N, long K)
{
	memset(p, 0, sizeof *p);
	p->M = M, p->N = N, p->K = K;
	p->a_dt = mp_rand_below(2) ? MP_DT_S8 : MP_DT_U8;
	p->b_dt = mp_rand_below(2) ? MP_DT_S8 : MP_DT_U8;
	p->za = mp_rand_below(3) ? 0 : (int32_t)mp_rand_below(256) - 128;
	p->zb = mp_rand_below(3) ? 0 : (int32_t)mp_rand_below(256) - 128;
	/* K contiguous in A; B either layout: row-major (k strided) or
	   transposed (k contiguous), padded or not */
	mp_operand_make(&p->A, M, K, mp_rand_below(2) ? L_ROW : L_ROW_PAD, 1, 64);
	int lb = (int)mp_rand_below(4);
	mp_operand_make(&p->B, K, N, lb == 0 ? L_ROW : lb == 1 ? L_ROW_PAD : lb == 2 ? L_COL
				    : L_COL_PAD, 1, 64);
	fill(&p->A, M, K, p->a_dt);
	fill(&p->B, K, N, p->b_dt);
	p->ldc = N + mp_rand_below(3);
	p->acc = (int)mp_rand_below(2);
	p->c0 = malloc((size_t)M * (size_t)p->ldc * sizeof(int32_t) + 4);
	for (long e = 0; e < M * p->ldc; e++)
		p->c0[e] = (int32_t)mp_rand_below(2001) - 1000;
	p->epi = mp_rand_below(3) == 0;
	if (p->epi) {
		p->bias = malloc((size_t)N * sizeof(int32_t));
		for (long j = 0; j < N; j++)
			p->bias[j] = (int32_t)mp_rand_below(20001) - 10000;
		p->ep.kind = MP_EPI_FP32;
		p->ep.out_dt = MP_DT_S8;
		p->ep.init = (int32_t)mp_rand_below(101) - 50;
		p->ep.bias = p->bias;
		p->ep.bias_si = 0;
		p->ep.bias_sj = 1;
		p->ep.scale = 1.0f / (float)(64 + mp_rand_below(4096));
		p->ep.zp = (int32_t)mp_rand_below(21) - 10;
		p->ep.qmin = -128;
		p->ep.qmax = 127;
	}
}

static void unmake(prob *p)
{
	mp_lp_forget(p->A.base);
	mp_lp_forget(p->B.base);
	free(p->A.buf);
	free(p->B.buf);
	free(p->c0);
	free(p->bias);
}

/* A byte of B (k, j) that the cache key's sample does not read. */
static int unsampled(const prob *p, long *k_out, long *j_out)
{
	for (int tries = 0; tries < 200; tries++) {
		long j = mp_rand_below(p->N), k = mp_rand_below(p->K), hit = 0;
		for (int t = 0; t < 68 && !hit; t++) {
			long r, kk;
			mp_lp_fp_pos(p->N, p->K, t, &r, &kk);
			hit = r == j && kk == k;
		}
		if (!hit) {
			*k_out = k, *j_out = j;
			return 1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	int rc = rt_kernel_arg(argc, argv, &kern);
	if (rc)
		return rc;
	unsigned long seed = argc > 2 ? strtoul(argv[2], NULL, 0) : (unsigned long)time(NULL);
	mp_rng_state = seed * 2654435761u + 1;
	printf("seed %lu\n", seed);
	/* MIXPREC_THREADS=2: a team of two on every call, however small (the
	   parts' offsets into the packed B) */
	const char *th = getenv("MIXPREC_THREADS");
	if (th && atoi(th) > 1)
		mp_par_override(atoi(th), 1.0);
	long reused = 0;
	for (int it = 0; it < 300; it++) {
		prob p;
		/* every other problem with B above the size the cache is used
		   for (16 KiB: 16 columns of K >= 1024) */
		make(&p, shapes[mp_rand_below(NSHAPES)],
		     it % 2 ? 16 + mp_rand_below(82) : shapes[mp_rand_below(NSHAPES)],
		     it % 2 ? 1024 + mp_rand_below(200) : shapes[mp_rand_below(NSHAPES)]);
		int flags = (int)(1 + mp_rand_below(3));   /* A, B, both */
		int32_t *want = run(&p, 0);
		int32_t *miss = run(&p, flags), *hit = run(&p, flags);
		CHECK(same(&p, want, miss) && same(&p, want, hit),
		      "%ldx%ldx%ld flags %d dt %d/%d zp %d/%d acc %d epi %d B %td/%td: %s differs",
		      p.M, p.N, p.K, flags, p.a_dt, p.b_dt, p.za, p.zb, p.acc, p.epi, p.B.s0,
		      p.B.s1, same(&p, want, miss) ? "the hit" : "the miss");
		/* 2: a change the sample does not see is not seen (the packed B
		   is reused) when the kernels packed B, until mp_lp_forget */
		long k, j;
		if ((flags & MP_X8_CONST_B) && p.K > 0 && unsampled(&p, &k, &j)) {
			char *e = &p.B.base[k * p.B.s0 + j * p.B.s1];
			*e = (char)(*e ^ 0x41);
			int32_t *now = run(&p, 0), *cached = run(&p, flags);
			if (!same(&p, now, want)) {
				/* packed: the old result; not packed (a vector or
				   direct path reads B itself): the new one */
				CHECK(same(&p, cached, want) || same(&p, cached, now),
				      "%ldx%ldx%ld: neither result after a change", p.M, p.N, p.K);
				reused += same(&p, cached, want);
				mp_lp_forget(p.B.base);
				int32_t *fresh = run(&p, flags);
				CHECK(same(&p, fresh, now), "%ldx%ldx%ld: after mp_lp_forget",
				      p.M, p.N, p.K);
				free(fresh);
			}
			free(now);
			free(cached);
			/* new contents everywhere: the sample differs */
			fill(&p.B, p.K, p.N, p.b_dt);
			now = run(&p, 0);
			cached = run(&p, flags);
			CHECK(same(&p, cached, now), "%ldx%ldx%ld: new contents not seen", p.M, p.N,
			      p.K);
			free(now);
			free(cached);
		}
		/* 3: A's zero point and type are part of B's entry (its
		   corrections) */
		if (flags == MP_X8_CONST_B) {
			p.za = p.za ? 0 : 3;
			p.a_dt = p.a_dt == MP_DT_S8 ? MP_DT_U8 : MP_DT_S8;
			int32_t *now = run(&p, 0), *cached = run(&p, flags);
			CHECK(same(&p, cached, now), "%ldx%ldx%ld: A's zero point or type changed",
			      p.M, p.N, p.K);
			free(now);
			free(cached);
		}
		free(want);
		free(miss);
		free(hit);
		unmake(&p);
	}
	/* the packed form was reused at least once (the blocked driver runs on
	   most of these shapes) */
	CHECK(reused > 0, "B was never reused from the cache");
	printf("%ld reuses seen\n", reused);
	if (failures)
		printf("%d failures (seed %lu)\n", failures, seed);
	else
		printf("OK\n");
	return failures != 0;
}
