// MIXPREC-TRANSFORMED: 7
/* macro_functions.c -- the pragma from a macro that writes the function or
 * the nest, the way generated and table-driven kernel files do (one
 * `DEFINE_KERNEL(name, body)` per variant, or the whole function on one
 * line).  Under GCC these were a hard error on valid code ("'#pragma
 * mixprec' must be followed by a 'for' or 'while' loop"): libcpp places a
 * _Pragma from a function-like macro at the end of the invocation, so an
 * invocation spanning lines put the pragma after the loop it precedes, and
 * a one-line function `{ BODY(...) }` saw the `}` after the invocation as
 * the statement after the pragma.  clang 14 and 19 transformed them.
 * Later (a review helper): a comment holding a parenthesis inside such an
 * argument list, the pragma's macro written inside another macro's
 * arguments (`WRAP(` then `PR` then the loop, `CALL2(PR,` then the loop),
 * and two invocations on one line, the second spanning lines. */
#include "harness.h"
#include <mixprec.h>

/* the function from a macro, its body an argument over several lines */
#define MF_DEFINE(name, body)                                                       \
	__attribute__((noinline)) void name(int M, int N, int K, const int8_t *a,      \
					    const int8_t *b, int32_t *y)               \
	{                                                                           \
		_Pragma("mixprec(int8, acc=int32)") body                             \
	}

MF_DEFINE(mf_args, for (int i = 0; i < M; i++) for (int j = 0; j < N; j++) {
	int32_t s = 0;
	for (int k = 0; k < K; k++)
		s += a[i * K + k] * b[j * K + k];
	y[i * N + j] = s;
})

/* the nest from a macro holding the pragma, the whole function on one line */
#define MF_PR _Pragma("mixprec(int8, acc=int32)")
#define MF_NEST(update)                                                            \
	MF_PR for (int i = 0; i < M; i++) for (int j = 0; j < N; j++)              \
	{                                                                          \
		int32_t s = 0;                                                     \
		for (int k = 0; k < K; k++) { update }                             \
		y[i * N + j] = s;                                                  \
	}
__attribute__((noinline)) void mf_line(int M, int N, int K, const int8_t *a, const int8_t *b, int32_t *y) { MF_NEST(s += a[i * K + k] * b[j * K + k];) }

/* the same nest, the invocation's argument list over two lines */
__attribute__((noinline)) void mf_split(int M, int N, int K, const int8_t *a, const int8_t *b,
					int32_t *y)
{
	MF_NEST(
		s += a[i * K + k] * b[k * N + j];)
}

/* the function and its nest in one macro, its name the only argument */
#define MF_WHOLE(name)                                                              \
	__attribute__((noinline)) void name(int M, int N, int K, const int8_t *a,      \
					    const int8_t *b, int32_t *y)               \
	{                                                                           \
		MF_PR for (int i = 0; i < M; i++) for (int j = 0; j < N; j++) {      \
			int32_t s = 0;                                              \
			for (int k = 0; k < K; k++)                                 \
				s += a[k * M + i] * b[j * K + k];                   \
			y[i * N + j] += s;                                          \
		}                                                                   \
	}
MF_WHOLE(mf_whole)

/* a comment with a parenthesis in the arguments */
MF_DEFINE(mf_comment, /* reads a ( row */ for (int i = 0; i < M; i++)
	for (int j = 0; j < N; j++) { // and b's (transposed) column
		int32_t s = 0;
		for (int k = 0; k < K; k++)
			s += a[i * K + k] * b[j * K + k];
		y[i * N + j] -= s;
	})

#define MF_WRAP(x) x
#define MF_CALL2(p, x) p x
__attribute__((noinline)) void mf_wrap(int M, int N, int K, const int8_t *a, const int8_t *b,
				       int32_t *y)
{
	MF_WRAP(
		MF_PR
		for (int i = 0; i < M; i++) for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += a[i * K + k] * b[j * K + k];
			y[i * N + j] = s;
		})
}

__attribute__((noinline)) void mf_call2(int M, int N, int K, const int8_t *a, const int8_t *b,
					int32_t *y)
{
	MF_CALL2(MF_PR,
		 for (int i = 0; i < M; i++) for (int j = 0; j < N; j++) {
			 int32_t s = 0;
			 for (int k = 0; k < K; k++)
				 s += a[k * M + i] * b[j * K + k];
			 y[i * N + j] += s;
		 })
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 0, &M, &N, &K);
		int8_t *a = harness_rand_s8((size_t)M * K);
		int8_t *b = harness_rand_s8((size_t)N * K);
		int32_t *y = harness_rand_s32((size_t)M * N, -1000, 1000);
		mf_args(M, N, K, a, b, y);
		harness_out_array(harness_name("args %dx%dx%d", M, N, K), y, (size_t)M * N);
		mf_line(M, N, K, a, b, y);
		harness_out_array(harness_name("line %dx%dx%d", M, N, K), y, (size_t)M * N);
		mf_split(M, N, K, a, b, y);
		harness_out_array(harness_name("split %dx%dx%d", M, N, K), y, (size_t)M * N);
		mf_whole(M, N, K, a, b, y);
		harness_out_array(harness_name("whole %dx%dx%d", M, N, K), y, (size_t)M * N);
		mf_comment(M, N, K, a, b, y);
		harness_out_array(harness_name("comment %dx%dx%d", M, N, K), y, (size_t)M * N);
		mf_wrap(M, N, K, a, b, y);
		harness_out_array(harness_name("wrap %dx%dx%d", M, N, K), y, (size_t)M * N);
		mf_call2(M, N, K, a, b, y);
		harness_out_array(harness_name("call2 %dx%dx%d", M, N, K), y, (size_t)M * N);
		harness_free(a);
		harness_free(b);
		harness_free(y);
	}
}
