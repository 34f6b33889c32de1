// MIXPREC-TRANSFORMED: 15
/* loop_forms.c -- the same s8 x s8 -> int32 product written with every
 * accepted spelling of the loop control (a while loop inside the nest:
 * loop_while.c): k += 1, ++k, k = k + 1, k = 1 + k, k -= -1, k <= K - 1, K > k, 64-bit
 * (long / size_t) and unsigned iterators and bounds, iterators and the
 * accumulator declared before the nest and read after it (their final values
 * are outputs too), a continue that skips the epilogue of some (i, j), and a
 * switch in the epilogue.  (while loops inside the nest are fine; the pragma
 * itself must stand before a for: tests/diag/not_for.c.) */
#include "harness.h"
#include <mixprec.h>

#define EPI C[i * N + j] = s; }
#define BODY s += A[i * K + k] * B[k * N + j]
#define HEAD                                      \
	for (int i = 0; i < M; i++)               \
		for (int j = 0; j < N; j++) {     \
			int32_t s = 0;
#define ARGS int M, int N, int K, const int8_t *A, const int8_t *B, int32_t *C

__attribute__((noinline)) void lf_plus_eq(ARGS)
{
#pragma mixprec(int8, acc=int32)
	HEAD for (int k = 0; k < K; k += 1) BODY; EPI
}

__attribute__((noinline)) void lf_pre_inc(ARGS)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; ++i)
		for (int j = 0; j < N; ++j) {
			int32_t s = 0;
			for (int k = 0; k < K; ++k)
				BODY;
	EPI
}

__attribute__((noinline)) void lf_k_eq_k_plus_1(ARGS)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i = i + 1)
		for (int j = 0; j < N; j = 1 + j) {
			int32_t s = 0;
			for (int k = 0; k < K; k = k + 1)
				BODY;
	EPI
}

__attribute__((noinline)) void lf_minus_minus_one(ARGS)
{
#pragma mixprec(int8, acc=int32)
	HEAD for (int k = 0; k < K; k -= -1) BODY; EPI
}

__attribute__((noinline)) void lf_le(ARGS)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i <= M - 1; i++)
		for (int j = 0; j <= N - 1; j++) {
			int32_t s = 0;
			for (int k = 0; k <= K - 1; k++)
				BODY;
	EPI
}

__attribute__((noinline)) void lf_reversed_test(ARGS)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; M > i; i++)
		for (int j = 0; N > j; j++) {
			int32_t s = 0;
			for (int k = 0; K > k; k++)
				BODY;
	EPI
}

__attribute__((noinline)) void lf_long(long M, long N, long K, const int8_t *A, const int8_t *B,
				       int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (long i = 0; i < M; i++)
		for (long j = 0; j < N; j++) {
			int32_t s = 0;
			for (long k = 0; k < K; k++)
				BODY;
	EPI
}

__attribute__((noinline)) void lf_size_t(size_t M, size_t N, size_t K, const int8_t *A,
					 const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (size_t i = 0; i < M; i++)
		for (size_t j = 0; j < N; j++) {
			int32_t s = 0;
			for (size_t k = 0; k < K; k++)
				BODY;
	EPI
}

__attribute__((noinline)) void lf_unsigned(unsigned M, unsigned N, unsigned K, const int8_t *A,
					   const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (unsigned i = 0; i < M; i++)
		for (unsigned j = 0; j < N; j++) {
			int32_t s = 0;
			for (unsigned k = 0; k < K; k++)
				BODY;
	EPI
}

/* int iterators against size_t bounds. */
__attribute__((noinline)) void lf_mixed_width(size_t M, size_t N, size_t K, const int8_t *A,
					      const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; (size_t)i < M; i++)
		for (int j = 0; (size_t)j < N; j++) {
			int32_t s = 0;
			for (int k = 0; (size_t)k < K; k++)
				BODY;
	EPI
}

/* Iterators declared before the nest: their values after it are outputs. */
long lv_i, lv_j, lv_k;
__attribute__((noinline)) void lf_live_iters(ARGS)
{
	int i, j, k;
#pragma mixprec(int8, acc=int32)
	for (i = 0; i < M; i++)
		for (j = 0; j < N; j++) {
			int32_t s = 0;
			for (k = 0; k < K; k++)
				BODY;
	EPI
	lv_i = i;
	lv_j = M > 0 ? j : -1;
	lv_k = M > 0 && N > 0 ? k : -1;
}

/* The accumulator declared before the nest: its last value is an output. */
__attribute__((noinline)) long lf_live_acc(ARGS)
{
	int32_t s = 12345;
	int i = 0, j, k;
#pragma mixprec(int8, acc=int32)
	for (; i < M; i++)
		for (j = 0; j < N; j++) {
			s = 0;
			for (k = 0; k < K; k++)
				BODY;
			C[i * N + j] = s;
		}
	return s;
}

/* Both iterators set in the outer loop's init (`for (i = 0, j = 0; ...)`,
 * declared before the nest; clang took the comma for i's init). */
__attribute__((noinline)) void lf_comma_init(ARGS)
{
	int i, j, k;
#pragma mixprec(int8, acc=int32)
	for (i = 0, j = 0; i < M; i++)
		for (j = 0; j < N; j++) {
			int32_t s = 0;
			for (k = 0; k < K; k++)
				BODY;
			C[i * N + j] = s;
		}
}

/* continue skips the epilogue of every third column. */
__attribute__((noinline)) void lf_continue_epilogue(ARGS)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				BODY;
			if (j % 3 == 2)
				continue;
			C[i * N + j] = s;
		}
}

__attribute__((noinline)) void lf_switch_epilogue(ARGS)
{
#pragma mixprec(int8, acc=int32)
	HEAD
		for (int k = 0; k < K; k++)
			BODY;
		switch (s & 3) {
		case 0:
			s = 1;
			break;
		case 1:
			s = -s;
			break;
		case 2:
			s >>= 2;
			/* fall through */
		default:
			s ^= 0x55;
			break;
		}
	EPI
}

typedef void lf_fn(int, int, int, const int8_t *, const int8_t *, int32_t *);
static const struct {
	const char *name;
	lf_fn *fn;
} kernels[] = {
	{ "plus_eq", lf_plus_eq },
	{ "pre_inc", lf_pre_inc },
	{ "k_eq_k_plus_1", lf_k_eq_k_plus_1 },
	{ "minus_minus_one", lf_minus_minus_one },
	{ "le", lf_le },
	{ "reversed_test", lf_reversed_test },
	{ "live_iters", lf_live_iters },
	{ "continue_epilogue", lf_continue_epilogue },
	{ "switch_epilogue", lf_switch_epilogue },
	{ "comma_init", lf_comma_init },
};

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 1, &M, &N, &K);
		size_t mn = (size_t)M * N;
		int8_t *A = harness_rand_s8((size_t)M * K), *B = harness_rand_s8((size_t)K * N);
		int32_t *C = harness_rand_s32(mn, INT32_MIN, INT32_MAX);
		for (size_t f = 0; f < sizeof kernels / sizeof kernels[0]; f++) {
			harness_fill_s32(C, mn, INT32_MIN, INT32_MAX);
			kernels[f].fn(M, N, K, A, B, C);
			harness_out_array(harness_name("%s %dx%dx%d", kernels[f].name, M, N, K), C, mn);
		}
		harness_out_long("live_iters.i", lv_i);
		harness_out_long("live_iters.j", lv_j);
		harness_out_long("live_iters.k", lv_k);
		harness_fill_s32(C, mn, INT32_MIN, INT32_MAX);
		harness_out_long("live_acc.s", lf_live_acc(M, N, K, A, B, C));
		harness_out_array(harness_name("live_acc %dx%dx%d", M, N, K), C, mn);
		harness_fill_s32(C, mn, INT32_MIN, INT32_MAX);
		lf_long(M, N, K, A, B, C);
		harness_out_array(harness_name("long %dx%dx%d", M, N, K), C, mn);
		harness_fill_s32(C, mn, INT32_MIN, INT32_MAX);
		lf_size_t((size_t)M, (size_t)N, (size_t)K, A, B, C);
		harness_out_array(harness_name("size_t %dx%dx%d", M, N, K), C, mn);
		harness_fill_s32(C, mn, INT32_MIN, INT32_MAX);
		lf_unsigned((unsigned)M, (unsigned)N, (unsigned)K, A, B, C);
		harness_out_array(harness_name("unsigned %dx%dx%d", M, N, K), C, mn);
		harness_fill_s32(C, mn, INT32_MIN, INT32_MAX);
		lf_mixed_width((size_t)M, (size_t)N, (size_t)K, A, B, C);
		harness_out_array(harness_name("mixed_width %dx%dx%d", M, N, K), C, mn);
		harness_free(A);
		harness_free(B);
		harness_free(C);
	}
}
