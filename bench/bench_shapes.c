/* bench_shapes.c -- issue 10 item 3's per-call goal: int8 GEMMs of small
 * constant shapes (16x16x64, 32x32x32, 64x64x64; bench/loop_shapes.c), one
 * call per operand set, 2000 different operand sets per shape (so no
 * operand stays packed or cached between calls), one thread.  Times, per
 * call (the median of REPS passes over the 2000 sets):
 *   plain     the nest built without the plugin (-O3 -march=native);
 *   mixprec   the same nest built with the GCC plugin;
 *   gemm      oneDNN's dnnl_gemm_s8s8s32 on the same operands;
 *   matmul    oneDNN's matmul primitive for the shape, created once, run on
 *             each set through dnnl_memory_set_data_handle.
 * Every result is compared with the plain build's.  Prints us per call and
 * mixprec's ratio against each (the goal: >= 1.5x oneDNN).
 * Usage: bench_shapes [reps [sets]]   (default 11 2000) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dnnl.h>
#include "bench_util.h"
#include "bench_dnnl.h"

typedef void (*shape_fn)(const int8_t *, const int8_t *, int32_t *);
#define DECL(M, N, K)                                                                  \
	void gemm_##M##x##N##x##K##_plain(const int8_t *, const int8_t *, int32_t *);    \
	void gemm_##M##x##N##x##K##_mixprec(const int8_t *, const int8_t *, int32_t *);
DECL(16, 16, 64)
DECL(32, 32, 32)
DECL(64, 64, 64)

static const struct shape {
	int M, N, K;
	shape_fn plain, mixprec;
} shapes[] = {
#define S(M, N, K) { M, N, K, gemm_##M##x##N##x##K##_plain, gemm_##M##x##N##x##K##_mixprec }
	S(16, 16, 64), S(32, 32, 32), S(64, 64, 64),
};

typedef struct sets {
	int n, M, N, K;
	int8_t *A, *B;
	int32_t *C;
} sets;

static const int8_t *set_a(const sets *s, int i) { return s->A + (size_t)i * s->M * s->K; }
static const int8_t *set_b(const sets *s, int i) { return s->B + (size_t)i * s->K * s->N; }
static int32_t *set_c(const sets *s, int i) { return s->C + (size_t)i * s->M * s->N; }

/* the median over reps passes of the time per call of one pass */
#define TIME_PASSES(reps, n, body)                                                     \
	({                                                                             \
		double *t_ = malloc(sizeof(double) * (size_t)(reps));                  \
		for (int r_ = -1; r_ < (reps); r_++) {                                 \
			double t0_ = mp_now();                                         \
			for (int i = 0; i < (n); i++) {                                \
				body;                                                  \
			}                                                              \
			if (r_ >= 0)                                                   \
				t_[r_] = (mp_now() - t0_) / (n);                       \
		}                                                                      \
		double m_ = mp_median(t_, (reps));                                     \
		free(t_);                                                              \
		m_;                                                                    \
	})

static int check(const sets *s, const int32_t *ref, const char *what)
{
	size_t n = (size_t)s->n * s->M * s->N;
	if (memcmp(ref, s->C, n * sizeof(int32_t)) != 0) {
		fprintf(stderr, "%dx%dx%d: %s differs from the plain build\n", s->M, s->N, s->K,
			what);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int reps = argc > 1 ? atoi(argv[1]) : 11, nsets = argc > 2 ? atoi(argv[2]) : 2000;
	if (reps < 1 || nsets < 1) {
		fprintf(stderr, "usage: %s [reps [sets]]\n", argv[0]);
		return 2;
	}
	dnnl_engine_t eng;
	dnnl_stream_t st;
	CHK(dnnl_engine_create(&eng, dnnl_cpu, 0));
	CHK(dnnl_stream_create(&st, eng, dnnl_stream_default_flags));
	int bad = 0, peer_bad = 0;
	printf("one thread; us per call, median of %d passes over %d operand sets\n", reps, nsets);
	printf("%-12s %9s %9s %9s %9s  %8s %8s %8s\n", "M x N x K", "plain", "mixprec", "gemm",
	       "matmul", "/plain", "/gemm", "/matmul");
	fflush(stdout);
	for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
		const struct shape *sh = &shapes[si];
		sets s = { nsets, sh->M, sh->N, sh->K, NULL, NULL, NULL };
		size_t na = (size_t)nsets * s.M * s.K, nb = (size_t)nsets * s.K * s.N;
		size_t nc = (size_t)nsets * s.M * s.N;
		s.A = malloc(na);
		s.B = malloc(nb);
		s.C = malloc(nc * sizeof(int32_t));
		int32_t *ref = malloc(nc * sizeof(int32_t));
		for (size_t i = 0; i < na; i++)
			s.A[i] = (int8_t)(int)(mp_frand() * 128.0f);
		for (size_t i = 0; i < nb; i++)
			s.B[i] = (int8_t)(int)(mp_frand() * 128.0f);
		s.A[0] = -128;   /* extreme values in each shape's first set */
		s.B[0] = -128;
		double tp = TIME_PASSES(reps, nsets, sh->plain(set_a(&s, i), set_b(&s, i), set_c(&s, i)));
		memcpy(ref, s.C, nc * sizeof(int32_t));
		memset(s.C, 0x55, nc * sizeof(int32_t));
		double tm = TIME_PASSES(reps, nsets, sh->mixprec(set_a(&s, i), set_b(&s, i), set_c(&s, i)));
		bad |= check(&s, ref, "the plugin build");
		memset(s.C, 0x55, nc * sizeof(int32_t));
		int32_t co = 0;
		double tg = TIME_PASSES(reps, nsets, CHK(dnnl_gemm_s8s8s32(
			'N', 'N', 'F', s.M, s.N, s.K, 1.0f, set_a(&s, i), s.K, 0, set_b(&s, i), s.N,
			0, 0.0f, set_c(&s, i), s.N, &co)));
		peer_bad |= check(&s, ref, "dnnl_gemm_s8s8s32");
		memset(s.C, 0x55, nc * sizeof(int32_t));
		/* the matmul primitive, created once for the shape */
		dnnl_dims_t ad = {s.M, s.K}, bd = {s.K, s.N}, cd = {s.M, s.N};
		dnnl_memory_desc_t amd, bmd, cmd;
		CHK(dnnl_memory_desc_init_by_tag(&amd, 2, ad, dnnl_s8, dnnl_ab));
		CHK(dnnl_memory_desc_init_by_tag(&bmd, 2, bd, dnnl_s8, dnnl_ab));
		CHK(dnnl_memory_desc_init_by_tag(&cmd, 2, cd, dnnl_s32, dnnl_ab));
		dnnl_matmul_desc_t md;
		CHK(dnnl_matmul_desc_init(&md, &amd, &bmd, NULL, &cmd));
		dnnl_primitive_desc_t pd;
		CHK(dnnl_primitive_desc_create(&pd, &md, NULL, eng, NULL));
		dnnl_primitive_t mm;
		CHK(dnnl_primitive_create(&mm, pd));
		dnnl_memory_t am, bm, cm;
		CHK(dnnl_memory_create(&am, &amd, eng, s.A));
		CHK(dnnl_memory_create(&bm, &bmd, eng, s.B));
		CHK(dnnl_memory_create(&cm, &cmd, eng, s.C));
		dnnl_exec_arg_t args[3] = {{DNNL_ARG_SRC, am}, {DNNL_ARG_WEIGHTS, bm},
					   {DNNL_ARG_DST, cm}};
		double tmm = TIME_PASSES(reps, nsets, {
			CHK(dnnl_memory_set_data_handle(am, (void *)set_a(&s, i)));
			CHK(dnnl_memory_set_data_handle(bm, (void *)set_b(&s, i)));
			CHK(dnnl_memory_set_data_handle(cm, set_c(&s, i)));
			CHK(dnnl_primitive_execute(mm, st, 3, args));
			CHK(dnnl_stream_wait(st));
		});
		peer_bad |= check(&s, ref, "the matmul primitive");
		dnnl_memory_destroy(am);
		dnnl_memory_destroy(bm);
		dnnl_memory_destroy(cm);
		dnnl_primitive_destroy(mm);
		dnnl_primitive_desc_destroy(pd);
		char name[32];
		snprintf(name, sizeof name, "%dx%dx%d", s.M, s.N, s.K);
		printf("%-12s %9.3f %9.3f %9.3f %9.3f  %7.2fx %7.2fx %7.2fx\n", name, tp * 1e6,
		       tm * 1e6, tg * 1e6, tmm * 1e6, tp / tm, tg / tm, tmm / tm);
		fflush(stdout);
		free(s.A);
		free(s.B);
		free(s.C);
		free(ref);
	}
	dnnl_stream_destroy(st);
	dnnl_engine_destroy(eng);
	if (peer_bad)
		printf("oneDNN's results differ from the exact loop's (oneDNN without AVX512-VNNI "
		       "saturates int16 pair sums): its ratios are against an inexact peer\n");
	if (bad)
		printf("RESULTS DIFFER: the plugin build against the plain build\n");
	return bad;
}
