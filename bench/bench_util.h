/* bench_util.h -- what the benchmarks share: a monotonic clock, a fixed
 * xorshift generator (the same data on every run), and the median of a
 * set of timings.  Header-only, static functions. */
#ifndef MP_BENCH_UTIL_H
#define MP_BENCH_UTIL_H

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

static inline double mp_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Uniform in [-1, 1), xorshift64 from a fixed seed. */
static uint64_t mp_bench_rng = 88172645463325252ull;
static inline float mp_frand(void)
{
	mp_bench_rng ^= mp_bench_rng << 13;
	mp_bench_rng ^= mp_bench_rng >> 7;
	mp_bench_rng ^= mp_bench_rng << 17;
	return (float)((double)(mp_bench_rng >> 11) * 0x1p-52 - 1.0);
}

static int mp_cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return a < b ? -1 : a > b;
}

/* The median of t[0..n-1] (sorts t). */
static inline double mp_median(double *t, int n)
{
	qsort(t, (size_t)n, sizeof(double), mp_cmp_double);
	return t[n / 2];
}

#endif
