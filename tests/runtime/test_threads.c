/* test_threads.c -- results do not depend on the number of threads
 * (runtime/mp_par.h): every contraction below runs on 1, 2, 3 and 8
 * threads (mp_par_override, with the work threshold lowered so that
 * awkward small shapes are split too) and must give the same bytes; and a
 * team must really have run with the count asked for.
 *
 *   test_threads int     mp_gemm_x8 / mp_gemm_x8_epi, every kernel family
 *                        the CPU has, every operand layout, direct and
 *                        vector paths
 *   test_threads float   mp_gemm_lp_ex, every precision and implementation
 *                        the CPU has, with and without a constant B
 *   test_threads env     MIXPREC_THREADS / OMP_NUM_THREADS as the
 *                        environment sets them: the largest team of a
 *                        large call must be $EXPECT_TEAM
 *   test_threads fork    a child forked after a team ran computes the same
 *                        bytes on its own thread (libgomp's pool does not
 *                        survive fork) instead of waiting forever */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "mixprec.h"
#include "mp_gemm.h"
#include "mp_par.h"

static uint64_t rng = 0x243f6a8885a308d3ull;
static unsigned rnd(void)
{
	rng ^= rng >> 12, rng ^= rng << 25, rng ^= rng >> 27;
	return (unsigned)((rng * 0x2545f4914f6cdd1dull) >> 32);
}

static const int counts[] = {1, 2, 3, 8};
#define NCOUNTS 4

typedef struct shape { long M, N, K; } shape;
/* edges of every blocking: M = 1 / N = 1 (vector paths), M <= 4 (the
 * direct path), rows across MC = 96, columns across NC = 1024, odd K */
static const shape shapes[] = {
	{1, 1000, 777}, {777, 1, 1000}, {3, 517, 300}, {131, 257, 263}, {97, 1031, 129},
	{200, 1100, 70}, {37, 45, 501}, {9, 33, 5},
};
#define NSHAPES (sizeof shapes / sizeof shapes[0])

static int failures;

static void check_team(int n, long teams_before)
{
	long teams, max_team;
	const char *rt;
	mp_par_stats(&teams, &max_team, &rt);
	if (n > 1 && (teams == teams_before || max_team < n)) {
		printf("FAIL: %d threads asked, no team of that size ran (teams %ld, max %ld, "
		       "runtime %s)\n", n, teams, max_team, rt ? rt : "none");
		failures++;
	}
}

static void compare(const char *what, const shape *s, int n, const void *ref, const void *got,
		    size_t bytes)
{
	if (memcmp(ref, got, bytes)) {
		printf("FAIL: %s %ldx%ldx%ld: %d threads differ from 1 thread\n", what, s->M, s->N,
		       s->K, n);
		failures++;
	}
}

/* ------------------------------------------------------------- int */

static void run_int(mp_kernel kern, const shape *s, int layout, int epi)
{
	long M = s->M, N = s->N, K = s->K;
	uint8_t *a = malloc((size_t)(M * K)), *b = malloc((size_t)(K * N));
	int32_t *bias = malloc(sizeof(int32_t) * (size_t)N);
	for (long i = 0; i < M * K; i++)
		a[i] = (uint8_t)rnd();
	for (long i = 0; i < K * N; i++)
		b[i] = (uint8_t)rnd();
	for (long j = 0; j < N; j++)
		bias[j] = (int32_t)(rnd() % 20001) - 10000;
	/* layout bit 0: A column-major; bit 1: B column-major (k contiguous) */
	ptrdiff_t a_si = layout & 1 ? 1 : K, a_sk = layout & 1 ? M : 1;
	ptrdiff_t b_sk = layout & 2 ? 1 : N, b_sj = layout & 2 ? K : 1;
	int a_dt = layout & 1 ? MP_DT_U8 : MP_DT_S8, b_dt = layout & 2 ? MP_DT_U8 : MP_DT_S8;
	int32_t za = a_dt == MP_DT_U8 ? 3 : 0, zb = b_dt == MP_DT_U8 ? 128 : -1;
	size_t cells = (size_t)(M * N);
	size_t esz = epi ? 1 : 4;
	char *ref = malloc(cells * esz), *got = malloc(cells * esz);
	char what[128];
	snprintf(what, sizeof what, "%s layout %d %s", mp_kernel_name(kern), layout,
		 epi ? "epilogue" : "store");
	for (int c = 0; c < NCOUNTS; c++) {
		char *out = c ? got : ref;
		long teams, mt;
		const char *rt;
		mp_par_override(counts[c], 1.0);
		mp_par_stats(&teams, &mt, &rt);
		memset(out, 0x5a, cells * esz);
		if (epi) {
			mp_epilogue ep = {.kind = MP_EPI_FP32, .init = 7, .bias = bias, .bias_si = 0,
					  .bias_sj = 1, .scale = 0.0007f, .zp = -3, .qmin = -128,
					  .qmax = 127, .out_dt = MP_DT_S8, .out = out, .out_si = 1,
					  .out_sj = M};   /* column-major output: the scalar path */
			if (layout & 1)
				ep.out_si = N, ep.out_sj = 1;
			mp_gemm_x8_epi(kern, M, N, K, a, a_dt, a_si, a_sk, za, b, b_dt, b_sk, b_sj, zb,
				       &ep);
		} else {
			mp_gemm_x8(kern, M, N, K, a, a_dt, a_si, a_sk, za, b, b_dt, b_sk, b_sj, zb,
				   (int32_t *)out, N, 1, layout == 3);
		}
		check_team(counts[c], teams);
		if (c)
			compare(what, s, counts[c], ref, got, cells * esz);
	}
	free(a), free(b), free(bias), free(ref), free(got);
}

/* Block-quantized group sums (mp_gemm_x8_groups, matrix-vector): the rows
 * split over the team, the same sums whatever the count. */
static void run_groups(mp_kernel kern, const shape *s, int a_dt, int b_dt)
{
	long M = s->M, K = 32, G = s->K / 32 + 1;
	int8_t *a = malloc((size_t)(M * K * G)), *b = malloc((size_t)(K * G));
	for (long i = 0; i < M * K * G; i++)
		a[i] = (int8_t)rnd();
	for (long i = 0; i < K * G; i++)
		b[i] = (int8_t)rnd();
	size_t cells = (size_t)(M * G);
	int32_t *ref = malloc(cells * 4), *got = malloc(cells * 4);
	char what[128];
	snprintf(what, sizeof what, "%s groups %s x %s", mp_kernel_name(kern),
		 a_dt == MP_DT_S8 ? "s8" : "u8", b_dt == MP_DT_S8 ? "s8" : "u8");
	for (int c = 0; c < NCOUNTS; c++) {
		int32_t *out = c ? got : ref;
		long teams, mt;
		const char *rt;
		mp_par_override(counts[c], 1.0);
		mp_par_stats(&teams, &mt, &rt);
		memset(out, 0x5a, cells * 4);
		mp_gemm_x8_groups(kern, M, 1, K, G, a, a_dt, K * G, 1, K, 0, b, b_dt, 1, 1, K, 0,
				  out);
		check_team(counts[c], teams);
		if (c)
			compare(what, s, counts[c], ref, got, cells * 4);
	}
	free(a), free(b), free(ref), free(got);
}

/* ----------------------------------------------------------- float */

static void run_float(mp_kernel kern, mp_lp lp, int dbl, const shape *s, int cnst)
{
	long M = s->M, N = s->N, K = s->K;
	size_t e = dbl ? 8 : 4;
	char *a = malloc(e * (size_t)(M * K)), *b = malloc(e * (size_t)(K * N));
	for (long i = 0; i < M * K; i++) {
		double v = ((int)(rnd() % 2001) - 1000) / 317.0;
		if (dbl)
			((double *)a)[i] = v;
		else
			((float *)a)[i] = (float)v;
	}
	for (long i = 0; i < K * N; i++) {
		double v = ((int)(rnd() % 2001) - 1000) / 91.0;
		if (dbl)
			((double *)b)[i] = v;
		else
			((float *)b)[i] = (float)v;
	}
	size_t bytes = e * (size_t)(M * N);
	char *ref = malloc(bytes), *got = malloc(bytes);
	mp_lp_opts opt = {.alpha = 0.75, .flags = cnst ? MP_LP_CONST_B : 0, .a_zero = 0.5};
	char what[128];
	snprintf(what, sizeof what, "%s %s %s%s", mp_lp_kernel_name(kern, lp),
		 lp == MP_LP_INT8 ? "int8" : lp == MP_LP_UINT8 ? "uint8" : lp == MP_LP_BF16 ? "bf16"
									: "fp8",
		 dbl ? "double" : "float", cnst ? " constant B" : "");
	for (int c = 0; c < NCOUNTS; c++) {
		char *out = c ? got : ref;
		long teams, mt;
		const char *rt;
		mp_par_override(counts[c], 1.0);
		mp_par_stats(&teams, &mt, &rt);
		memset(out, 0, bytes);
		/* B column-major for the float operands: k contiguous */
		int r = mp_gemm_lp_ex(kern, lp, dbl, M, N, K, a, K, 1, b, 1, K, out, N, 1, 1, NULL,
				      &opt);
		if (r) {
			printf("FAIL: %s %ldx%ldx%ld returned %d\n", what, M, N, K, r);
			failures++;
			break;
		}
		check_team(counts[c], teams);
		if (c)
			compare(what, s, counts[c], ref, got, bytes);
	}
	if (cnst)
		mp_lp_forget(b);
	free(a), free(b), free(ref), free(got);
}

static int env_test(void)
{
	const char *x = getenv("EXPECT_TEAM");
	long want = x ? atol(x) : 0;
	long M = 512, N = 512, K = 512;
	uint8_t *a = calloc((size_t)(M * K), 1), *b = calloc((size_t)(K * N), 1);
	int32_t *c = malloc(sizeof(int32_t) * (size_t)(M * N));
	mp_gemm_x8(mp_kernel_select(), M, N, K, a, MP_DT_S8, K, 1, 0, b, MP_DT_S8, N, 1, 0, c, N, 1,
		   0);
	long teams, max_team;
	const char *rt;
	mp_par_stats(&teams, &max_team, &rt);
	long got = teams ? max_team : 1;
	printf("%ldx%ldx%ld: largest team %ld (want %ld), OpenMP runtime %s\n", M, N, K, got, want,
	       rt ? rt : "none");
	free(a), free(b), free(c);
	return got == want ? 0 : 1;
}

static int fork_test(void)
{
	long M = 512, N = 384, K = 640;
	uint8_t *a = malloc((size_t)(M * K)), *b = malloc((size_t)(K * N));
	int32_t *c0 = malloc(sizeof(int32_t) * (size_t)(M * N));
	int32_t *c1 = malloc(sizeof(int32_t) * (size_t)(M * N));
	for (long i = 0; i < M * K; i++)
		a[i] = (uint8_t)rnd();
	for (long i = 0; i < K * N; i++)
		b[i] = (uint8_t)rnd();
	mp_par_override(2, 0);
	mp_gemm_x8(mp_kernel_select(), M, N, K, a, MP_DT_S8, K, 1, 0, b, MP_DT_S8, N, 1, 0, c0, N,
		   1, 0);
	long teams, max_team;
	const char *rt;
	mp_par_stats(&teams, &max_team, &rt);
	if (!teams) {
		printf("FAIL: no team ran before the fork\n");
		return 1;
	}
	pid_t pid = fork();
	if (pid == 0) {
		alarm(30);   /* a child waiting for the parent's threads dies here */
		mp_gemm_x8(mp_kernel_select(), M, N, K, a, MP_DT_S8, K, 1, 0, b, MP_DT_S8, N, 1, 0,
			   c1, N, 1, 0);
		_exit(memcmp(c0, c1, sizeof(int32_t) * (size_t)(M * N)) ? 3 : 0);
	}
	int st = 0;
	waitpid(pid, &st, 0);
	printf("forked child after %ld team(s): %s\n", teams,
	       WIFEXITED(st) && WEXITSTATUS(st) == 0 ? "same bytes, ok"
	       : WIFSIGNALED(st) ? "killed (hung?)" : "DIFFERENT bytes");
	free(a), free(b), free(c0), free(c1);
	return !(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s int|float|env|fork\n", argv[0]);
		return 2;
	}
	if (!strcmp(argv[1], "env"))
		return env_test();
	if (!strcmp(argv[1], "fork"))
		return fork_test();
	int fl = !strcmp(argv[1], "float");
	for (size_t i = 0; i < NSHAPES; i++) {
		const shape *s = &shapes[i];
		if (!fl) {
			for (int k = 0; k < MP_KERNEL_COUNT; k++) {
				if (!mp_kernel_available((mp_kernel)k))
					continue;
				for (int layout = 0; layout < 4; layout++)
					for (int epi = 0; epi < 2; epi++)
						run_int((mp_kernel)k, s, layout, epi);
				for (int ty = 0; ty < 3; ty++)
					run_groups((mp_kernel)k, s, ty == 2 ? MP_DT_U8 : MP_DT_S8,
						   ty == 1 ? MP_DT_U8 : MP_DT_S8);
			}
			continue;
		}
		static const mp_lp lps[] = {MP_LP_INT8, MP_LP_UINT8, MP_LP_BF16, MP_LP_FP8_E4M3};
		for (int k = MP_KERNEL_AVX2; k < MP_KERNEL_COUNT; k++) {
			if (!mp_kernel_available((mp_kernel)k))
				continue;
			for (size_t l = 0; l < sizeof lps / sizeof lps[0]; l++)
				for (int cnst = 0; cnst < 2; cnst++)
					run_float((mp_kernel)k, lps[l], i & 1, s, cnst);
		}
	}
	long teams, max_team;
	const char *rt;
	mp_par_stats(&teams, &max_team, &rt);
	printf("%s: %ld teams, largest %ld, OpenMP runtime %s: %s\n", argv[1], teams, max_team,
	       rt ? rt : "none", failures ? "FAILED" : "ok");
	return failures != 0;
}
