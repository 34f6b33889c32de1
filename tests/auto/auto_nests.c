/* auto_nests.c -- `#pragma mixprec(auto)` end to end (tests/auto/auto.sh):
 * three float nests of a small MLP-like chain, each annotated auto:
 *   dense1: h = x W1, well scaled values: every candidate is usable at
 *           its own output; but W1's columns come in nearly equal pairs,
 *           and the program's output d = h[., 2m+1] - h[., 2m] amplifies
 *           h's errors a thousandfold: program-level, only the source
 *           precision is usable (mixprec-tune --run sees it);
 *   dense2: y = h W2 with candidates bf16 and int8 only, values spread
 *           over six decades within each row (int8 loses the small ones);
 *   cancel: g = p q with the rows of p nearly orthogonal to the columns
 *           of q (terms of magnitude 1, sums near 1e-2): at bf16 or 8
 *           bits the error exceeds the result, only the source precision
 *           stays accurate.
 * Each result is compared with a double reference computed here; the
 * program prints, per nest, the largest error relative to the largest
 * reference value, and a checksum of the outputs' bits (equal to the plain
 * build's when every nest runs as written), and on stderr the time of the
 * three nests per repetition.  Argument: the number of repetitions (calls
 * per nest).  The outputs that matter, d, y and g, are marked with
 * mp_profile_output. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "mixprec.h"

#ifndef B   /* the shapes (docs/precision.md builds it larger: -DB=...) */
#define B 24
#define D0 96
#define D1 64
#define D2 40
#endif

static float x[B][D0], w1[D0][D1], h[B][D1], w2[D1][D2], y[B][D2], p[B][D0], q[D0][B],
	g[B][B], d[B][D1 / 2];

static void dense1(void)
{
#pragma mixprec(auto)
	for (int i = 0; i < B; i++)
		for (int j = 0; j < D1; j++) {
			float s = 0;
			for (int k = 0; k < D0; k++)
				s += x[i][k] * w1[k][j];
			h[i][j] = s;
		}
}

static void dense2(void)
{
#pragma mixprec(auto(bf16, int8))
	for (int i = 0; i < B; i++)
		for (int j = 0; j < D2; j++) {
			float s = 0;
			for (int k = 0; k < D1; k++)
				s += h[i][k] * w2[k][j];
			y[i][j] = s;
		}
}

static void cancel(void)
{
#pragma mixprec(auto)
	for (int i = 0; i < B; i++)
		for (int j = 0; j < B; j++) {
			float s = 0;
			for (int k = 0; k < D0; k++)
				s += p[i][k] * q[k][j];
			g[i][j] = s;
		}
}

static uint64_t st = 88172645463325252ull;
static double urand(void)   /* [-1, 1) */
{
	st ^= st << 13, st ^= st >> 7, st ^= st << 17;
	return (double)(st >> 11) / 4503599627370496.0 - 1.0;
}

/* max |got - ref| / max |ref| of an m x n result against its double
 * reference ref(i, j) = sum_k a(i,k) b(k,j) */
static double relerr(const float *got, const float *a, int as, const float *bm, int bks,
		     int bjs, int m, int n, int kk)
{
	double emax = 0, rmax = 0;
	for (int i = 0; i < m; i++)
		for (int j = 0; j < n; j++) {
			double r = 0;
			for (int k = 0; k < kk; k++)
				r += (double)a[i * as + k] * (double)bm[k * bks + j * bjs];
			emax = fmax(emax, fabs((double)got[i * n + j] - r));
			rmax = fmax(rmax, fabs(r));
		}
	return rmax > 0 ? emax / rmax : emax;
}

static uint64_t mix(uint64_t hsh, const float *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint32_t u;
		memcpy(&u, &p[i], 4);
		hsh = (hsh ^ u) * 1099511628211ull;
	}
	return hsh;
}

int main(int argc, char **argv)
{
	int reps = argc > 1 ? atoi(argv[1]) : 4;
	for (int i = 0; i < B; i++)
		for (int k = 0; k < D0; k++) {
			x[i][k] = (float)urand();
			/* (1, -1, 1, -1 ...) and (1, 1, -1, -1 ...) are orthogonal */
			p[i][k] = (float)((k % 2 ? -1.0 : 1.0) + 1e-3 * urand());
			q[k][i] = (float)((k / 2 % 2 ? -1.0 : 1.0) + 1e-3 * urand());
		}
	for (int k = 0; k < D0; k++)
		for (int j = 0; j < D1; j += 2) {
			w1[k][j] = (float)(urand() * 0.2);
			w1[k][j + 1] = w1[k][j] + (float)(urand() * 1e-4);
		}
	for (int k = 0; k < D1; k++)
		for (int j = 0; j < D2; j++)
			w2[k][j] = (float)(urand() * pow(10.0, -(double)(k % 6)));
	uint64_t hsh = 1469598103934665603ull;
	double e1 = 0, e2 = 0, e3 = 0, secs = 0;
	for (int r = 0; r < reps; r++) {
		struct timespec t0, t1;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		dense1();
		dense2();
		cancel();
		clock_gettime(CLOCK_MONOTONIC, &t1);
		secs += (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
		e1 = fmax(e1, relerr(&h[0][0], &x[0][0], D0, &w1[0][0], D1, 1, B, D1, D0));
		e2 = fmax(e2, relerr(&y[0][0], &h[0][0], D1, &w2[0][0], D2, 1, B, D2, D1));
		e3 = fmax(e3, relerr(&g[0][0], &p[0][0], D0, &q[0][0], B, 1, B, B, D0));
		hsh = mix(hsh, &h[0][0], sizeof h / 4);
		hsh = mix(hsh, &y[0][0], sizeof y / 4);
		hsh = mix(hsh, &g[0][0], sizeof g / 4);
		/* the next repetition's input: the operands change */
		for (int i = 0; i < B; i++)
			x[i][r % D0] = (float)urand();
	}
	for (int i = 0; i < B; i++)
		for (int m = 0; m < D1 / 2; m++)
			d[i][m] = h[i][2 * m + 1] - h[i][2 * m];
	mp_profile_output(&d[0][0], B * D1 / 2, MP_OUT_FLOAT);
	mp_profile_output(&y[0][0], B * D2, MP_OUT_FLOAT);
	mp_profile_output(&g[0][0], B * B, MP_OUT_FLOAT);
	hsh = mix(hsh, &d[0][0], sizeof d / 4);
	printf("dense1 %.3g\ndense2 %.3g\ncancel %.3g\nchecksum %016llx\n", e1, e2, e3,
	       (unsigned long long)hsh);
	/* (not compared by the tests: the time of the three nests) */
	fprintf(stderr, "time %.3f ms per repetition\n", 1e3 * secs / (reps > 0 ? reps : 1));
	return 0;
}
