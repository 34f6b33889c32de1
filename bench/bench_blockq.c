/* bench_blockq.c -- block-quantized matrix-vector product (issue 9's
 * benchmark: 4096 x 4096, groups of 32, llama2.c's runq.c matmul as
 * written), the plain build against the plugin build, one thread, both
 * -O3 -march=native; the plugin build's results must equal the plain
 * build's bit for bit (the group sums are exact, the float code around
 * them runs as written).  Prints median times and the ratio.
 *
 * Built with OpenMP, also the loop as published, its `#pragma omp parallel
 * for private(i)` included (OMP_NUM_THREADS threads).
 *
 * Usage: bench_blockq [reps [d n]]   (default 21, 4096 4096) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench_util.h"

#define GS 32
typedef struct {
	int8_t *q;
	float *s;
} QuantizedTensor;

void matmul_plain(float *xout, QuantizedTensor *x, QuantizedTensor *w, int n, int d);
void matmul_mixprec(float *xout, QuantizedTensor *x, QuantizedTensor *w, int n, int d);
/* the group size a global variable, as in runq.c */
void matmul_gsv_plain(float *xout, QuantizedTensor *x, QuantizedTensor *w, int n, int d);
void matmul_gsv_mixprec(float *xout, QuantizedTensor *x, QuantizedTensor *w, int n, int d);
#ifdef MP_HAVE_OMP
/* the same with runq.c's `#pragma omp parallel for private(i)` */
void matmul_plain_omp(float *xout, QuantizedTensor *x, QuantizedTensor *w, int n, int d);
void matmul_mixprec_omp(float *xout, QuantizedTensor *x, QuantizedTensor *w, int n, int d);
int omp_get_max_threads(void);
#endif

typedef void (*mm_fn)(float *, QuantizedTensor *, QuantizedTensor *, int, int);

static double run(mm_fn f, float *out, QuantizedTensor *x, QuantizedTensor *w, int n, int d,
		  int reps)
{
	double *t = malloc(sizeof(double) * (size_t)reps);
	f(out, x, w, n, d);   /* warm up (and page in) */
	for (int r = 0; r < reps; r++) {
		double t0 = mp_now();
		f(out, x, w, n, d);
		t[r] = mp_now() - t0;
	}
	double m = mp_median(t, reps);
	free(t);
	return m;
}

/* The plain build's F against the plugin build's G: median times, the
 * ratio, and whether the results are the same bit for bit (returned). */
static int pair(mm_fn f, mm_fn g, float *o1, float *o2, QuantizedTensor *x, QuantizedTensor *w,
		int n, int d, int reps, double bytes)
{
	double tp = run(f, o1, x, w, n, d, reps);
	double tm = run(g, o2, x, w, n, d, reps);
	int same = !memcmp(o1, o2, sizeof(float) * (size_t)d);
	printf("  plain loop -O3 -march=native  %8.3f ms  %6.2f GB/s\n", tp * 1e3, bytes / tp * 1e-9);
	printf("  mixprec                       %8.3f ms  %6.2f GB/s\n", tm * 1e3, bytes / tm * 1e-9);
	printf("  speedup mixprec / plain       %8.2fx   results %s\n", tp / tm,
	       same ? "bit-identical" : "DIFFER");
	return same;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);   /* progress as it goes, also into a pipe */
	int reps = argc > 1 ? atoi(argv[1]) : 21;
	int d = argc > 3 ? atoi(argv[2]) : 4096, n = argc > 3 ? atoi(argv[3]) : 4096;
	if (reps < 1 || d < 1 || n < GS || n % GS) {
		fprintf(stderr, "usage: %s [reps [d n]] (n a multiple of %d)\n", argv[0], GS);
		return 2;
	}
	QuantizedTensor x, w;
	x.q = malloc((size_t)n);
	x.s = malloc(sizeof(float) * (size_t)(n / GS));
	w.q = malloc((size_t)n * (size_t)d);
	w.s = malloc(sizeof(float) * (size_t)n * (size_t)d / GS);
	for (int i = 0; i < n; i++)
		x.q[i] = (int8_t)(mp_frand() * 127.5f);
	for (size_t i = 0; i < (size_t)n * (size_t)d; i++)
		w.q[i] = (int8_t)(mp_frand() * 127.5f);
	for (int i = 0; i < n / GS; i++)
		x.s[i] = mp_frand() * 0.01f;
	for (size_t i = 0; i < (size_t)n * (size_t)d / GS; i++)
		w.s[i] = mp_frand() * 0.01f;
	float *o1 = malloc(sizeof(float) * (size_t)d), *o2 = malloc(sizeof(float) * (size_t)d);
	double bytes = (double)n * d * (1.0 + 4.0 / GS);
	printf("blockq matmul %dx%d GS %d (llama2.c runq.c, one thread), median of %d:\n", d, n,
	       GS, reps);
	int same = pair(matmul_plain, matmul_mixprec, o1, o2, &x, &w, n, d, reps, bytes);
	/* `int GS` as runq.c has it: the code kept around the sums divides
	   by it twice per group, as the loop does, and the call's own
	   group index is one more division (not overlapped with the sums
	   as in the loop as written) */
	printf("with the group size a global variable (runq.c's int GS):\n");
	same &= pair(matmul_gsv_plain, matmul_gsv_mixprec, o1, o2, &x, &w, n, d, reps, bytes);
#ifdef MP_HAVE_OMP
	/* as published, OpenMP pragma included: OMP_NUM_THREADS threads for
	   the plain build; the plugin build's call before the construct */
	printf("with its #pragma omp parallel for private(i), %d OpenMP thread(s):\n",
	       omp_get_max_threads());
	same &= pair(matmul_plain_omp, matmul_mixprec_omp, o1, o2, &x, &w, n, d, reps, bytes);
#endif
	free(x.q), free(x.s), free(w.q), free(w.s), free(o1), free(o2);
	return same ? 0 : 1;
}
