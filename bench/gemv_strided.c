/* gemv_strided.c -- OpenBLAS's generic C gemv_n kernel (kernel/arm/gemv_n.c)
 * written for int8, with run-time strides inc_x, inc_y, timed as written and
 * with the plugin (best of 5 runs of REPS calls, one element of x changed
 * between calls).  Not part of the CMake build:
 *
 *   B=build; gcc -O3 -march=native bench/gemv_strided.c -o /tmp/plain
 *   gcc -O3 -march=native -fplugin=$B/plugin-gcc/mixprec.so -Iinclude \
 *       bench/gemv_strided.c -L$B/runtime -lmixprec -Wl,-rpath,$B/runtime -o /tmp/mp
 *   OMP_NUM_THREADS=1 /tmp/plain 512 512 200 2; OMP_NUM_THREADS=1 /tmp/mp 512 512 200 2
 *
 * (arguments: M N REPS INC; the same with clang-19 and mixprec-clang19.so).
 * The first number printed is a hash of y: equal in both builds. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
typedef long BLASLONG;
/* OpenBLAS kernel/arm/gemv_n.c, int8 */
__attribute__((noinline)) int gemv_n(BLASLONG m, BLASLONG n, int32_t alpha, int8_t *a, BLASLONG lda, int8_t *x, BLASLONG inc_x, int32_t *y, BLASLONG inc_y)
{
	BLASLONG i, ix, iy, j;
	int8_t *a_ptr;
	int32_t temp;
	ix = 0;
	a_ptr = a;
#pragma mixprec(int8, acc=int32)
	for (j = 0; j < n; j++) {
		temp = alpha * x[ix];
		iy = 0;
		for (i = 0; i < m; i++) {
			y[iy] += temp * a_ptr[i];
			iy += inc_y;
		}
		a_ptr += lda;
		ix += inc_x;
	}
	return 0;
}
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
int main(int argc, char **argv)
{
	long M = atol(argv[1]), N = atol(argv[2]), reps = atol(argv[3]), inc = atol(argv[4]);
	int8_t *a = malloc(M*N), *x = malloc(N*inc+1); int32_t *y = calloc(M*inc+1, 4);
	for (long i = 0; i < M*N; i++) a[i] = rand() % 255 - 127;
	for (long i = 0; i < N*inc+1; i++) x[i] = rand() % 255 - 127;
	double best = 1e9; unsigned h = 0;
	for (int r = 0; r < 5; r++) {
		double t0 = now();
		for (long q = 0; q < reps; q++) { x[q % N] ^= 1; gemv_n(M, N, 1, a, M, x, inc, y, inc); }
		double t = (now() - t0) / reps; if (t < best) best = t;
	}
	for (long i = 0; i < M; i++) h = h * 31 + y[i*inc];
	printf("%u %.1f us\n", h, best * 1e6);
}
