/* bench_gemm.c -- one-thread int8 GEMM timings (not a test): the plain
 * loop (loop.c without plugin), the same loop built with the plugin flags,
 * mp_gemm_x8 with each available kernel family, and oneDNN's
 * dnnl_gemm_s8s8s32.  Prints median GOP/s (2*M*N*K / time), ratios to
 * the plain loop and to oneDNN, and checks every result against the plain
 * loop's (the reference: oneDNN is exact only with AVX512-VNNI; on AVX2 it
 * saturates int16 pair sums, and its differences are reported, not failed).
 * Alongside: OpenBLAS cblas_sgemm on the same shapes in float (the float
 * peer; built with OpenBLAS) and the issue-rate ceiling of vpdpbusd zmm
 * (12 independent chains, measured once), and a CSV of every number
 * (scripts/plot-bench.sh draws throughput against size from it).
 * Usage: bench_gemm [max_seconds_per_measurement [csv_file]] */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <dnnl.h>
#include <immintrin.h>
#ifdef MP_HAVE_CBLAS
#include <cblas.h>
#endif
#include "mixprec.h"
#include "bench_util.h"

#ifndef MP_BENCH_PLUGIN_FLAGS
#define MP_BENCH_PLUGIN_FLAGS ""
#endif

void loop_plain(int M, int N, int K, const int8_t *A, const int8_t *B, int32_t *C);
void loop_mixprec(int M, int N, int K, const int8_t *A, const int8_t *B, int32_t *C);


typedef struct mp_problem {
	int M, N, K;
	const int8_t *A, *B;
	int32_t *C;
	const float *Af, *Bf;   /* the same operands in float (OpenBLAS) */
	float *Cf;
} mp_problem;

typedef void (*mp_method_fn)(const mp_problem *p, int which);

static void mp_run_loop(const mp_problem *p, int which)
{
	(which ? loop_mixprec : loop_plain)(p->M, p->N, p->K, p->A, p->B, p->C);
}

static void mp_run_mp(const mp_problem *p, int which)
{
	mp_gemm_x8((mp_kernel)which, p->M, p->N, p->K, p->A, MP_DT_S8, p->K, 1, 0, p->B,
		   MP_DT_S8, p->N, 1, 0, p->C, p->N, 1, 0);
}

static void mp_run_dnnl(const mp_problem *p, int which)
{
	int32_t co = 0;
	dnnl_status_t st = dnnl_gemm_s8s8s32('N', 'N', 'F', p->M, p->N, p->K, 1.0f, p->A, p->K,
					     0, p->B, p->N, 0, 0.0f, p->C, p->N, &co);
	if (st != dnnl_success) {
		fprintf(stderr, "dnnl_gemm_s8s8s32 failed: %d\n", (int)st);
		exit(1);
	}
}

#ifdef MP_HAVE_CBLAS
static void mp_run_sgemm(const mp_problem *p, int which)
{
	(void)which;
	cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, p->M, p->N, p->K, 1.0f, p->Af, p->K,
		    p->Bf, p->N, 0.0f, p->Cf, p->N);
}
#endif

/* The issue-rate ceiling of vpdpbusd zmm on this CPU: 12 independent
 * accumulator chains (more than its latency times its throughput), GOP/s
 * counted as the GEMM's (2 * 64 multiply-adds per instruction); NAN
 * without AVX512-VNNI. */
__attribute__((target("avx512f,avx512bw,avx512vnni"), noinline)) static double
mp_vnni_rate(long iters)
{
	const __m512i a = _mm512_set1_epi32(0x01010101), b = _mm512_set1_epi32(0x02020202);
	__m512i c0 = _mm512_set1_epi32(0), c1 = _mm512_set1_epi32(1), c2 = _mm512_set1_epi32(2),
		c3 = _mm512_set1_epi32(3), c4 = _mm512_set1_epi32(4), c5 = _mm512_set1_epi32(5),
		c6 = _mm512_set1_epi32(6), c7 = _mm512_set1_epi32(7), c8 = _mm512_set1_epi32(8),
		c9 = _mm512_set1_epi32(9), c10 = _mm512_set1_epi32(10), c11 = _mm512_set1_epi32(11);
	double t0 = mp_now();
	for (long i = 0; i < iters; i++) {
#define MP_DP(c) c = _mm512_dpbusd_epi32(c, a, b)
		MP_DP(c0); MP_DP(c1); MP_DP(c2); MP_DP(c3); MP_DP(c4); MP_DP(c5);
		MP_DP(c6); MP_DP(c7); MP_DP(c8); MP_DP(c9); MP_DP(c10); MP_DP(c11);
#undef MP_DP
	}
	double t = mp_now() - t0;
	__m512i s = _mm512_add_epi32(_mm512_add_epi32(_mm512_add_epi32(c0, c1), _mm512_add_epi32(c2, c3)),
				     _mm512_add_epi32(_mm512_add_epi32(c4, c5), _mm512_add_epi32(c6, c7)));
	s = _mm512_add_epi32(s, _mm512_add_epi32(_mm512_add_epi32(c8, c9), _mm512_add_epi32(c10, c11)));
	volatile int sink = _mm512_reduce_add_epi32(s);
	(void)sink;
	return 2.0 * 64 * 12 * (double)iters / t / 1e9;
}

static double mp_ceiling(void)
{
	if (!mp_kernel_available(MP_KERNEL_AVX512VNNI))
		return NAN;
	double r[5];
	for (int i = 0; i < 5; i++)
		r[i] = mp_vnni_rate(2000000);
	return mp_median(r, 5);
}

/* Median seconds of one call of fn over repetitions that fill about budget
 * seconds (at least 3 when a call is fast, 1 when slow).  The first call
 * (also the one whose result is checked) is not timed when fast. */
static double mp_time(mp_method_fn fn, const mp_problem *p, int which, double budget)
{
	double t0 = mp_now();
	fn(p, which);
	double first = mp_now() - t0;
	if (first > budget / 3)
		return first;
	int reps = (int)(budget / (first + 1e-7));
	reps = reps < 3 ? 3 : reps > 51 ? 51 : reps;
	double *t = malloc(sizeof(double) * reps);
	for (int r = 0; r < reps; r++) {
		/* tiny problems: time a batch of calls */
		int inner = first < 1e-4 ? (int)(1e-4 / (first + 1e-9)) + 1 : 1;
		double s = mp_now();
		for (int i = 0; i < inner; i++)
			fn(p, which);
		t[r] = (mp_now() - s) / inner;
	}
	qsort(t, reps, sizeof(double), mp_cmp_double);
	double med = t[reps / 2];
	free(t);
	return med;
}

/* ------------------------------------------------ the samples' calls */

typedef struct mp_call {
	const char *name;
	long M, N, K;
	int a_dt, b_dt;
	ptrdiff_t a_si, a_sk, b_sk, b_sj;
	int32_t za, zb;
	int epi; /* 0: mp_gemm_x8 into int32; 1: mp_gemm_x8_epi (see below) */
	const void *a, *b;
	int32_t *c;
	int8_t *out;
	const int32_t *bias;
} mp_call;

static mp_call mp_cur;

static void mp_run_call(const mp_problem *p, int which)
{
	const mp_call *c = &mp_cur;
	if (!c->epi) {
		mp_gemm_x8((mp_kernel)which, c->M, c->N, c->K, c->a, c->a_dt, c->a_si, c->a_sk, c->za,
			   c->b, c->b_dt, c->b_sk, c->b_sj, c->zb, c->c, c->N, 1, 0);
		return;
	}
	/* matvec_zp: gemmlowp to u8; dense_requant: fp32 + bias[j] to s8 */
	mp_epilogue e = {0};
	if (c->N == 1) {
		e.kind = MP_EPI_GEMMLOWP;
		e.qm = 1518500250;
		e.shift = -12;
		e.zp = 128;
		e.qmin = 0;
		e.qmax = 255;
		e.out_dt = MP_DT_U8;
	} else {
		e.kind = MP_EPI_FP32;
		e.bias = c->bias;
		e.bias_sj = 1;
		e.scale = 1.0f / 4096;
		e.zp = 3;
		e.qmin = -128;
		e.qmax = 127;
		e.out_dt = MP_DT_S8;
	}
	e.out = c->out;
	e.out_si = c->N;
	e.out_sj = 1;
	mp_gemm_x8_epi((mp_kernel)which, c->M, c->N, c->K, c->a, c->a_dt, c->a_si, c->a_sk, c->za,
		       c->b, c->b_dt, c->b_sk, c->b_sj, c->zb, &e);
}

/* The exact calls the plugin makes for samples/matvec_zp.c and
 * samples/dense_requant.c, and the same with the fused epilogue. */
static void mp_bench_calls(double budget)
{
	const long n = 4096, M = 128, N = 1024, K = 1024;
	uint8_t *W = malloc(n * n), *v = malloc(n), *x = malloc(M * K);
	int8_t *w = malloc(N * K), *out = malloc(M * N > n ? M * N : n);
	int32_t *c = malloc(sizeof(int32_t) * (M * N > n ? M * N : n)), *bias = malloc(4 * N);
	for (long i = 0; i < n * n; i++)
		W[i] = (uint8_t)rand();
	for (long i = 0; i < n; i++)
		v[i] = (uint8_t)rand();
	for (long i = 0; i < M * K; i++)
		x[i] = (uint8_t)rand();
	for (long i = 0; i < N * K; i++)
		w[i] = (int8_t)rand();
	for (long i = 0; i < N; i++)
		bias[i] = rand() % 20001 - 10000;
	mp_call calls[] = {
		{"matvec_zp (4096x1x4096 u8*u8, zp 131/7)", n, 1, n, MP_DT_U8, MP_DT_U8, n, 1, 1, 0,
		 131, 7, 0, W, v, c, out, NULL},
		{"  + fused gemmlowp -> u8", n, 1, n, MP_DT_U8, MP_DT_U8, n, 1, 1, 0, 131, 7, 1, W, v,
		 c, out, NULL},
		{"dense_requant (128x1024x1024 u8*s8^T, za 117)", M, N, K, MP_DT_U8, MP_DT_S8, K, 1, 1,
		 K, 117, 0, 0, x, w, c, out, NULL},
		{"  + fused bias, fp32 -> s8", M, N, K, MP_DT_U8, MP_DT_S8, K, 1, 1, K, 117, 0, 1, x, w,
		 c, out, bias},
	};
	printf("\nthe samples' calls (mp_gemm_x8 / mp_gemm_x8_epi as the plugin calls them):\n");
	for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++) {
		mp_cur = calls[i];
		printf("%-48s", calls[i].name);
		for (int k = MP_KERNEL_AVX512VNNI; k >= MP_KERNEL_SCALAR; k--) {
			if (!mp_kernel_available((mp_kernel)k))
				continue;
			double t = mp_time(mp_run_call, NULL, k, budget);
			printf("  %s %8.2f GOP/s", mp_kernel_name((mp_kernel)k),
			       2.0 * mp_cur.M * mp_cur.N * mp_cur.K / t / 1e9);
			if (mp_cur.N == 1)
				printf(" (%5.1f GB/s)", (double)mp_cur.M * mp_cur.K / t / 1e9);
			fflush(stdout);
		}
		printf("\n");
	}
	free(W); free(v); free(x); free(w); free(out); free(c); free(bias);
}

enum { COL_PLAIN, COL_PLUGIN, COL_MP512, COL_MP2, COL_MPS, COL_DNNL, COL_SGEMM, NCOL };

int main(int argc, char **argv)
{
	double budget = argc > 1 ? atof(argv[1]) : 0.4;
	FILE *csv = NULL;
	if (argc > 2 && !(csv = fopen(argv[2], "w"))) {
		perror(argv[2]);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);   /* progress as it goes, also into a pipe */
	omp_set_num_threads(1);
#ifdef MP_HAVE_CBLAS
	openblas_set_num_threads(1);
#endif
	double ceiling = mp_ceiling();
	static const int sizes[][3] = {{64, 64, 64},	   {128, 128, 128}, {256, 256, 256},
				       {512, 512, 512},	   {1024, 1024, 1024}, {1, 4096, 4096},
				       {4096, 1, 4096},	   {128, 1000, 1024}};
	const char *names[NCOL] = {"loop_plain", "loop_mixprec", "mp(avx512vnni)", "mp(avx2)",
				   "mp(scalar)", "oneDNN", "OpenBLAS f32"};
	const char *csv_names[NCOL] = {"plain", "plugin", "mp_avx512vnni", "mp_avx2", "mp_scalar",
				       "onednn", "openblas_sgemm"};
	mp_kernel best = mp_kernel_select();
	const char *pf = MP_BENCH_PLUGIN_FLAGS;
	printf("one thread; GOP/s = 2*M*N*K/median time; kernel selected: %s\n",
	       mp_kernel_name(best));
	printf("loop_plain  : bench/loop.c, gcc -O3 -march=native, no plugin (ijk int8 loop)\n");
	if (*pf)
		printf("loop_mixprec: bench/loop.c, same flags + %s\n", pf);
	else
		printf("loop_mixprec: bench/loop.c, same flags, NO plugin flags set "
		       "(MIXPREC_BENCH_PLUGIN_FLAGS empty): measures the plain loop again\n");
	printf("mp(...)     : mp_gemm_x8 called directly with that kernel family\n");
	printf("oneDNN      : dnnl_gemm_s8s8s32 (oneDNN %d.%d), zero offsets, alpha 1, beta 0\n",
	       dnnl_version()->major, dnnl_version()->minor);
	printf("OpenBLAS f32: cblas_sgemm on the same operands in float (the float peer; "
	       "not compared)\n");
	printf("ceiling     : vpdpbusd zmm issue rate, 12 independent chains: %.1f GOP/s\n",
	       ceiling);
	printf("all results compared element by element with loop_plain's (exact); a\n"
	       "oneDNN result that differs is marked ~ (AVX2 oneDNN saturates)\n\n");
	if (csv) {
		fprintf(csv, "shape,M,N,K");
		for (int c = 0; c < NCOL; c++)
			fprintf(csv, ",%s", csv_names[c]);
		fprintf(csv, ",ceiling\n");
	}
	printf("%-16s", "M x N x K");
	for (int c = 0; c < NCOL; c++)
		printf(" %14s", names[c]);
	printf("   %s\n", "mp/oneDNN  plugin/plain  plugin fired");

	int bad_total = 0, dnnl_differs_total = 0;
	for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
		int M = sizes[si][0], N = sizes[si][1], K = sizes[si][2];
		int8_t *A = malloc((size_t)M * K), *B = malloc((size_t)K * N);
		int32_t *C = malloc(sizeof(int32_t) * M * N), *R = malloc(sizeof(int32_t) * M * N);
		srand(1234 + (unsigned)si);
		for (long i = 0; i < (long)M * K; i++)
			A[i] = (int8_t)(rand() & 0xff);
		for (long i = 0; i < (long)K * N; i++)
			B[i] = (int8_t)(rand() & 0xff);
		float *Af = malloc(sizeof(float) * M * K), *Bf = malloc(sizeof(float) * K * N),
		      *Cf = malloc(sizeof(float) * M * N);
		for (long i = 0; i < (long)M * K; i++)
			Af[i] = A[i];
		for (long i = 0; i < (long)K * N; i++)
			Bf[i] = B[i];
		mp_problem p = {M, N, K, A, B, C, Af, Bf, Cf};
		double ops = 2.0 * M * N * K, gops[NCOL];
		char label[32];
		snprintf(label, sizeof label, "%dx%dx%d", M, N, K);
		printf("%-16s", label);
		fflush(stdout);

		/* the plain loop first: its result is the reference */
		int fired = -1, dnnl_differs = 0;
		for (int c = 0; c < NCOL; c++) {
			gops[c] = NAN;
			mp_method_fn fn = NULL;
			int which = 0;
			if (c == COL_SGEMM) {
#ifdef MP_HAVE_CBLAS
				gops[c] = ops / mp_time(mp_run_sgemm, &p, 0, budget) / 1e9;
				printf(" %14.2f", gops[c]);
#else
				printf(" %14s", "n/a");
#endif
				continue;
			}
			if (c == COL_PLAIN || c == COL_PLUGIN) {
				fn = mp_run_loop;
				which = c == COL_PLUGIN;
			} else if (c == COL_DNNL) {
				fn = mp_run_dnnl;
			} else {
				which = c == COL_MP512 ? MP_KERNEL_AVX512VNNI
					: c == COL_MP2 ? MP_KERNEL_AVX2 : MP_KERNEL_SCALAR;
				if (!mp_kernel_available((mp_kernel)which)) {
					printf(" %14s", "n/a (cpu)");
					continue;
				}
				fn = mp_run_mp;
			}
			mp_stats st;
			p.C = c == COL_PLAIN ? R : C;
			memset(p.C, 0x5a, sizeof(int32_t) * M * N);
			mp_stats_reset();
			gops[c] = ops / mp_time(fn, &p, which, budget) / 1e9;
			if (c == COL_PLUGIN) {
				mp_stats_get(&st);
				fired = st.fast > 0;
			}
			if (c != COL_PLAIN && memcmp(C, R, sizeof(int32_t) * M * N)) {
				if (c == COL_DNNL) {
					dnnl_differs = 1;
					printf(" %13.2f~", gops[c]);
					continue;
				}
				printf(" %13s!", "MISMATCH");
				bad_total++;
				continue;
			}
			printf(" %14.2f", gops[c]);
			fflush(stdout);
		}
		dnnl_differs_total += dnnl_differs;
		double mpbest = best == MP_KERNEL_AVX512VNNI ? gops[COL_MP512]
				: best == MP_KERNEL_AVX2 ? gops[COL_MP2] : gops[COL_MPS];
		printf("   %8.2fx%s  %10.2fx  %s\n", mpbest / gops[COL_DNNL], dnnl_differs ? "~" : " ",
		       gops[COL_PLUGIN] / gops[COL_PLAIN],
		       fired < 0 ? "-" : fired ? "yes" : "no");
		if (csv) {
			fprintf(csv, "%s,%d,%d,%d", label, M, N, K);
			for (int c = 0; c < NCOL; c++)
				fprintf(csv, isnan(gops[c]) ? "," : ",%.2f", gops[c]);
			fprintf(csv, isnan(ceiling) ? ",\n" : ",%.1f\n", ceiling);
			fflush(csv);
		}
		free(A);
		free(B);
		free(C);
		free(R);
		free(Af);
		free(Bf);
		free(Cf);
	}
	if (csv) {
		fclose(csv);
		printf("CSV: %s\n", argv[2]);
	}
	mp_bench_calls(budget);
	if (dnnl_differs_total)
		printf("\n~ oneDNN's result differs from the exact loop's on %d shapes (inexact peer)\n",
		       dnnl_differs_total);
	if (bad_total)
		printf("\n%d MISMATCHES against the plain loop\n", bad_total);
	return bad_total != 0;
}
