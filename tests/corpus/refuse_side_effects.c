// MIXPREC-TRANSFORMED: 0
/* refuse_side_effects.c -- statements with side effects inside the nest:
 * a call to a function that writes global state (in the reduction and in
 * the epilogue) and a volatile store in the reduction loop. */
#include "harness.h"
#include <mixprec.h>

long trace_count;
long trace_sum;

__attribute__((noinline)) void trace(long v)
{
	trace_count++;
	trace_sum += v;
}

__attribute__((noinline)) void se_call_in_k(int M, int N, int K, const int8_t *A, const int8_t *B,
					    int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{side effects}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++) {
				s += A[i * K + k] * B[k * N + j];
				trace(k);
			}
			C[i * N + j] = s;
		}
}

__attribute__((noinline)) void se_call_in_epilogue(int M, int N, int K, const int8_t *A,
						   const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{side effects}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			trace(s);
			C[i * N + j] = s;
		}
}

volatile int32_t vsink;

__attribute__((noinline)) void se_volatile(int M, int N, int K, const int8_t *A, const int8_t *B,
					   int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{not transformed}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++) {
				s += A[i * K + k] * B[k * N + j];
				vsink = s;
			}
			C[i * N + j] = s;
		}
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 1, &M, &N, &K);
		size_t mn = (size_t)M * N;
		int8_t *A = harness_rand_s8((size_t)M * K), *B = harness_rand_s8((size_t)K * N);
		int32_t *C = harness_rand_s32(mn, INT32_MIN, INT32_MAX);
		se_call_in_k(M, N, K, A, B, C);
		harness_out_array(harness_name("call_in_k %dx%dx%d", M, N, K), C, mn);
		se_call_in_epilogue(M, N, K, A, B, C);
		harness_out_array(harness_name("call_in_epilogue %dx%dx%d", M, N, K), C, mn);
		se_volatile(M, N, K, A, B, C);
		harness_out_array(harness_name("volatile %dx%dx%d", M, N, K), C, mn);
		harness_out_long("vsink", vsink);
		harness_out_long("trace_count", trace_count);
		harness_out_long("trace_sum", trace_sum);
		harness_free(A);
		harness_free(B);
		harness_free(C);
	}
}
