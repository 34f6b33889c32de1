// MIXPREC-TRANSFORMED: 5
// MIXPREC-EXPECT-FALLBACK: 1
/* invariant_loads.c -- zero points and factors read from memory inside the
 * nest, as generated and reference code writes them: onnx2c's
 * QLinearMatMul reads its zero points as one-element arrays
 * (`(int32_t)a_zero_point[0]`), operator code reads them from a
 * parameter struct (`p->zp`), f2c/BLAS-style code reads a factor through a
 * pointer (`*alpha`).  The call reads each once before the nest; the nest
 * writing those bytes (a zero point inside the output, at run time) makes
 * the call run the loop as written (the last call below). */
#include "harness.h"
#include <mixprec.h>

struct qparams {
	int32_t in_zp, w_zp;
	int32_t shift;
};

/* onnx2c QLinearMatMul-style: both zero points as zp[0] */
__attribute__((noinline)) void il_onnx2c(int M, int N, int K, const uint8_t *A,
					 const uint8_t *a_zero_point, const int8_t *B,
					 const int8_t *b_zero_point, int32_t *Y)
{
#pragma mixprec(uint8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t sum = 0;
			for (int k = 0; k < K; k++)
				sum += ((int32_t)A[i * K + k] - (int32_t)a_zero_point[0]) *
				       ((int32_t)B[k * N + j] - (int32_t)b_zero_point[0]);
			Y[i * N + j] = sum;
		}
}

/* zero points in a parameter struct */
__attribute__((noinline)) void il_struct(int M, int N, int K, const uint8_t *x, const int8_t *w,
					 const struct qparams *p, int32_t *y)
{
#pragma mixprec(uint8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t acc = 0;
			for (int k = 0; k < K; k++)
				acc += (x[i * K + k] - p->in_zp) * (w[j * K + k] - p->w_zp);
			y[i * N + j] = acc >> p->shift;
		}
}

/* an integer factor through a pointer, accumulated into C */
__attribute__((noinline)) void il_alpha(int M, int N, int K, const int32_t *alpha, const int8_t *A,
					const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += *alpha * A[i * K + k] * B[k * N + j];
			C[i * N + j] += s;
		}
}

/* the zero point through an int32_t pointer that may point into the
   output (the last call): the bytes are protected at run time */
__attribute__((noinline)) void il_alias(int M, int N, int K, const uint8_t *A, const int8_t *B,
					const int32_t *zp, int32_t *C)
{
#pragma mixprec(uint8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += (A[i * K + k] - zp[0]) * B[k * N + j];
			C[i * N + j] = s;
		}
}

/* a zero point in a global table, read at a parameter's index */
static int32_t il_table[4];
__attribute__((noinline)) void il_global(int M, int N, int K, int t, const uint8_t *A,
					 const int8_t *B, int32_t *C)
{
#pragma mixprec(uint8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += (A[i * K + k] - il_table[t]) * B[k * N + j];
			C[i * N + j] = s;
		}
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 1, &M, &N, &K);
		size_t mn = (size_t)M * N;
		uint8_t *A = harness_rand_u8((size_t)M * K + 1);
		int8_t *B = harness_rand_s8((size_t)K * N + 1);
		int32_t *C = harness_rand_s32(mn + 1, -1000, 1000);
		uint8_t azp[1] = { (uint8_t)harness_randint(0, 255) };
		int8_t bzp[1] = { (int8_t)harness_randint(-128, 127) };
		il_onnx2c(M, N, K, A, azp, B, bzp, C);
		harness_out_array(harness_name("onnx2c %dx%dx%d", M, N, K), C, mn);
		struct qparams p = { harness_randint(0, 255), harness_randint(-128, 127),
				     harness_randint(0, 8) };
		il_struct(M, N, K, A, B, &p, C);
		harness_out_array(harness_name("struct %dx%dx%d", M, N, K), C, mn);
		int32_t alpha = harness_randint(-3, 3);
		il_alpha(M, N, K, &alpha, (const int8_t *)A, B, C);
		harness_out_array(harness_name("alpha %dx%dx%d", M, N, K), C, mn);
		int32_t zp = harness_randint(0, 255);
		il_alias(M, N, K, A, B, &zp, C);
		harness_out_array(harness_name("alias apart %dx%dx%d", M, N, K), C, mn);
		for (int t = 0; t < 4; t++)
			il_table[t] = harness_randint(0, 255);
		il_global(M, N, K, sh % 4, A, B, C);
		harness_out_array(harness_name("global %dx%dx%d", M, N, K), C, mn);
		if (mn > 2) {
			/* the zero point is an element of the output the nest
			   writes: the loop as written (the value changes as the
			   loop runs) */
			C[1] = harness_randint(0, 3);
			il_alias(M, N, K, A, B, &C[1], C);
			harness_out_array(harness_name("alias into C %dx%dx%d", M, N, K), C, mn);
		}
		harness_free(A);
		harness_free(B);
		harness_free(C);
	}
}
