/* bench_attn.c -- batched int8 attention scores (issue 9's benchmark: 8
 * heads x 512 x 512 x 64): the plain build of loop_attn.c, its plugin build
 * (one call per head) and oneDNN's matmul primitive with a batch dimension
 * (s8 x s8 -> s32), one thread.  The plugin build's scores must equal the
 * plain build's and oneDNN's.  Prints median times, GOP/s and ratios.
 *
 * Usage: bench_attn [reps [heads seq head_size]]   (default 11, 8 512 64) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dnnl.h>
#include "bench_util.h"
#include "bench_dnnl.h"

void attn_scores_plain(int n_heads, int seq, int head_size, const int8_t *q, const int8_t *k,
		       int32_t *att);
void attn_scores_mixprec(int n_heads, int seq, int head_size, const int8_t *q, const int8_t *k,
			 int32_t *att);

typedef void (*attn_fn)(int, int, int, const int8_t *, const int8_t *, int32_t *);

static double run(attn_fn f, int H, int T, int D, const int8_t *q, const int8_t *k, int32_t *att,
		  int reps)
{
	double *t = malloc(sizeof(double) * (size_t)reps);
	f(H, T, D, q, k, att);   /* warm up (and page in) */
	for (int r = 0; r < reps; r++) {
		double t0 = mp_now();
		f(H, T, D, q, k, att);
		t[r] = mp_now() - t0;
	}
	double m = mp_median(t, reps);
	free(t);
	return m;
}

/* oneDNN: dst[h] = src[h] x wei[h], src (H, T, D) abc, wei (H, D, T) stored
 * as k[h][t][d] (tag acb), dst (H, T, T) s32 */
static double run_dnnl(int H, int T, int D, int8_t *q, int8_t *k, int32_t *att, int reps)
{
	dnnl_engine_t eng;
	dnnl_stream_t st;
	CHK(dnnl_engine_create(&eng, dnnl_cpu, 0));
	CHK(dnnl_stream_create(&st, eng, dnnl_stream_default_flags));
	dnnl_dims_t sd = {H, T, D}, wd = {H, D, T}, dd = {H, T, T};
	dnnl_memory_desc_t smd, wmd, dmd;
	CHK(dnnl_memory_desc_init_by_tag(&smd, 3, sd, dnnl_s8, dnnl_abc));
	CHK(dnnl_memory_desc_init_by_tag(&wmd, 3, wd, dnnl_s8, dnnl_acb));
	CHK(dnnl_memory_desc_init_by_tag(&dmd, 3, dd, dnnl_s32, dnnl_abc));
	dnnl_matmul_desc_t md;
	CHK(dnnl_matmul_desc_init(&md, &smd, &wmd, NULL, &dmd));
	dnnl_primitive_desc_t pd;
	CHK(dnnl_primitive_desc_create(&pd, &md, NULL, eng, NULL));
	dnnl_primitive_t mm;
	CHK(dnnl_primitive_create(&mm, pd));
	dnnl_memory_t sm, wm, dm;
	CHK(dnnl_memory_create(&sm, &smd, eng, q));
	CHK(dnnl_memory_create(&wm, &wmd, eng, k));
	CHK(dnnl_memory_create(&dm, &dmd, eng, att));
	dnnl_exec_arg_t args[3] = {{DNNL_ARG_SRC, sm}, {DNNL_ARG_WEIGHTS, wm}, {DNNL_ARG_DST, dm}};
	double m = mp_dnnl_median(mm, st, 3, args, reps);
	dnnl_memory_destroy(sm);
	dnnl_memory_destroy(wm);
	dnnl_memory_destroy(dm);
	dnnl_primitive_destroy(mm);
	dnnl_primitive_desc_destroy(pd);
	dnnl_stream_destroy(st);
	dnnl_engine_destroy(eng);
	return m;
}

int main(int argc, char **argv)
{
	int reps = argc > 1 ? atoi(argv[1]) : 11;
	int H = argc > 4 ? atoi(argv[2]) : 8, T = argc > 4 ? atoi(argv[3]) : 512;
	int D = argc > 4 ? atoi(argv[4]) : 64;
	if (reps < 1 || H < 1 || T < 1 || D < 1) {
		fprintf(stderr, "usage: %s [reps [heads seq head_size]]\n", argv[0]);
		return 2;
	}
	size_t nq = (size_t)H * T * D, na = (size_t)H * T * T;
	int8_t *q = malloc(nq), *k = malloc(nq);
	int32_t *a0 = malloc(na * 4), *a1 = malloc(na * 4), *a2 = malloc(na * 4);
	for (size_t e = 0; e < nq; e++) {
		q[e] = (int8_t)(mp_frand() * 127.5f);
		k[e] = (int8_t)(mp_frand() * 127.5f);
	}
	double ops = 2.0 * H * T * T * D;
	printf("attention scores: %d heads x %d x %d x %d (s8 x s8 -> s32), one thread, "
	       "median of %d\n", H, T, T, D, reps);
	fflush(stdout);
	double tp = run(attn_scores_plain, H, T, D, q, k, a0, reps);
	printf("  plain loop (-O3 -march=native) : %9.3f ms  %7.1f GOP/s\n", tp * 1e3,
	       ops / tp / 1e9);
	fflush(stdout);
	double tm = run(attn_scores_mixprec, H, T, D, q, k, a1, reps);
	printf("  mixprec (one call per head)    : %9.3f ms  %7.1f GOP/s\n", tm * 1e3,
	       ops / tm / 1e9);
	fflush(stdout);
	double td = run_dnnl(H, T, D, q, k, a2, reps);
	printf("  oneDNN matmul, batch dim       : %9.3f ms  %7.1f GOP/s (oneDNN %d.%d)\n",
	       td * 1e3, ops / td / 1e9, dnnl_version()->major, dnnl_version()->minor);
	int same = memcmp(a0, a1, na * 4) == 0, same_d = memcmp(a0, a2, na * 4) == 0;
	printf("  mixprec / plain %.2fx, mixprec / oneDNN %.2fx (floor 0.8x, goal 1.0x); "
	       "scores %s the plain build's, oneDNN's %s\n", tp / tm, td / tm,
	       same ? "equal" : "DIFFER FROM", same_d ? "equal" : "DIFFER");
	free(q);
	free(k);
	free(a0);
	free(a1);
	free(a2);
	return same && same_d ? 0 : 1;
}
