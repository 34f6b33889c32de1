/* instrumented.c -- nests built with instrumentation the source does not
 * show (tests/adopt/instrumented.sh): -fsanitize=shift / undefined add a
 * check and a report call to each shift, in the nest's epilogue and in the
 * helper it calls; -finstrument-functions adds the profiling hooks to the
 * helper.  GCC's glue sees those calls, clang's reads the AST: both must
 * transform the three nests and print the plain build's result; a shift out
 * of range is reported as often as in the plain build. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned hooks;
__attribute__((no_instrument_function)) void __cyg_profile_func_enter(void *f, void *s)
{
	(void)f, (void)s;
	hooks++;
}
__attribute__((no_instrument_function)) void __cyg_profile_func_exit(void *f, void *s)
{
	(void)f, (void)s;
}

static int32_t requant(int32_t acc, int shift)
{
	return acc >> shift;
}

__attribute__((noinline)) void fc_helper(const int8_t *x, const int8_t *w, int8_t *y, int N,
					 int K, int shift)
{
#pragma mixprec(int8, acc=int32)
	for (int o = 0; o < N; o++) {
		int32_t acc = 0;
		for (int k = 0; k < K; k++)
			acc += x[k] * w[o * K + k];
		y[o] = (int8_t)requant(acc, shift);
	}
}

/* the helper again: by now GCC has its body in CFG form, with the hooks'
   call site (__builtin_return_address) */
__attribute__((noinline)) void fc_helper_t(const int8_t *x, const int8_t *w, int8_t *y, int N,
					   int K, int shift)
{
#pragma mixprec(int8, acc=int32)
	for (int o = 0; o < N; o++) {
		int32_t acc = 7;
		for (int k = 0; k < K; k++)
			acc += w[o * K + k] * x[k];
		y[o] = (int8_t)requant(acc, shift);
	}
}

__attribute__((noinline)) void fc_inline(const int8_t *x, const int8_t *w, int8_t *y, int N,
					 int K, int shift)
{
#pragma mixprec(int8, acc=int32)
	for (int o = 0; o < N; o++) {
		int32_t acc = 0;
		for (int k = 0; k < K; k++)
			acc += x[k] * w[o * K + k];
		y[o] = (int8_t)(acc >> shift);
	}
}

int main(int argc, char **argv)
{
	int shift = argc > 1 ? atoi(argv[1]) : 8;
	static int8_t x[300], w[64 * 300], y[64], y2[64];
	unsigned s = 1, h = 0;
	for (int i = 0; i < 300; i++)
		x[i] = (int8_t)((s = s * 1103515245u + 12345u) >> 16);
	for (int i = 0; i < 64 * 300; i++)
		w[i] = (int8_t)((s = s * 1103515245u + 12345u) >> 16);
	for (int N = 1; N <= 64; N += 9)
		for (int K = 1; K <= 300; K += 37) {
			fc_helper(x, w, y, N, K, shift);
			fc_inline(x, w, y2, N, K, shift);
			for (int i = 0; i < N; i++)
				h = h * 31 + (uint8_t)y[i] * 7u + (uint8_t)y2[i];
			fc_helper_t(x, w, y, N, K, shift);
			for (int i = 0; i < N; i++)
				h = h * 31 + (uint8_t)y[i];
		}
	printf("%u\n", h);
	return hooks == 12345678;   /* keep the hooks */
}
