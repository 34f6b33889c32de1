// MIXPREC-TRANSFORMED: 4
/* helpers.c -- the user's own functions in the epilogue, without
 * attributes, as embedded NN code writes them (issue 8, item 6): a static
 * requantization helper calling lrintf, a CMSIS-style saturation macro
 * over a static inline function, NNoM's __NNOM_SSAT written with local
 * temporaries.  One rule in both glues: the helper's body (defined before
 * the nest) stores only to its own automatic variables and calls only
 * functions passing the same test, const/pure functions or math functions
 * whose only side effect is errno; memcpy into a local of the helper (ggml's
 * fp16 lookup puns the bits so) is a store to its own variable.  A helper
 * that counts calls in a global, or copies into one, is refused with that
 * reason. */
#include "harness.h"
#include <math.h>
#include <mixprec.h>
#include <string.h>

static int8_t requant_q7(int32_t acc, float scale, int32_t zp)
{
	long r = lrintf((float)acc * scale) + zp;
	if (r > 127)
		r = 127;
	if (r < -128)
		r = -128;
	return (int8_t)r;
}

static inline int32_t ssat_impl(int32_t val, uint32_t sat)
{
	if ((sat >= 1U) && (sat <= 32U)) {
		const int32_t max = (int32_t)((1U << (sat - 1U)) - 1U);
		const int32_t min = -1 - max;
		if (val > max)
			return max;
		else if (val < min)
			return min;
	}
	return val;
}
#define __SSAT(ARG1, ARG2) ssat_impl((ARG1), (ARG2))

static int32_t nnom_ssat(int32_t value, int32_t bit)
{
	int32_t min = -(1 << (bit - 1));
	int32_t max = (1 << (bit - 1)) - 1;
	int32_t tmp[2];
	tmp[0] = value < min ? min : value;
	tmp[1] = tmp[0] > max ? max : tmp[0];
	return tmp[1];
}

static long hl_calls;
static int8_t counting(int32_t acc)
{
	hl_calls++;
	return (int8_t)(acc >> 8);
}

/* ggml_lookup_fp16_to_fp32: the scale's bits copied into a local, then
   a table read */
static float hl_table[256];
static inline float hl_lookup(uint8_t f)
{
	uint8_t s;
	memcpy(&s, &f, sizeof(uint8_t));
	return hl_table[s];
}

static int32_t hl_last;
static int8_t keep_last(int32_t acc)
{
	memcpy(&hl_last, &acc, sizeof acc);
	return (int8_t)(acc >> 8);
}

__attribute__((noinline)) void hl_memcpy(int M, int N, int K, const int8_t *A, const int8_t *B,
					 int8_t *C, const uint8_t *sc, int32_t zp)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[j * K + k];
			C[i * N + j] = requant_q7(s, hl_lookup(sc[j]), zp);
		}
}

__attribute__((noinline)) void hl_memcpy_global(int M, int N, int K, const int8_t *A,
						const int8_t *B, int8_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{call to 'keep_last' may have side effects}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[j * K + k];
			C[i * N + j] = keep_last(s);
		}
}

__attribute__((noinline)) void hl_requant(int M, int N, int K, const int8_t *A, const int8_t *B,
					  int8_t *C, float scale, int32_t zp)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[j * K + k];
			C[i * N + j] = requant_q7(s, scale, zp);
		}
}

__attribute__((noinline)) void hl_ssat(int M, int N, int K, const int8_t *A, const int8_t *B,
				       int8_t *C, int shift)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t sum = 0;
			for (int k = 0; k < K; k++)
				sum += A[i * K + k] * B[k * N + j];
			C[i * N + j] = (int8_t)__SSAT((sum >> shift), 8);
		}
}

__attribute__((noinline)) void hl_nnom(int M, int N, int K, const int8_t *A, const int8_t *B,
				       int8_t *C, int shift)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t ip_out = (int32_t)1 << (shift > 0 ? shift - 1 : 0);
			for (int k = 0; k < K; k++)
				ip_out += A[i * K + k] * B[j * K + k];
			C[i * N + j] = (int8_t)nnom_ssat(ip_out >> shift, 8);
		}
}

__attribute__((noinline)) void hl_counting(int M, int N, int K, const int8_t *A, const int8_t *B,
					   int8_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{call to 'counting' may have side effects}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[j * K + k];
			C[i * N + j] = counting(s);
		}
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 1, &M, &N, &K);
		size_t mn = (size_t)M * N;
		int8_t *A = harness_rand_s8((size_t)M * K + 1), *B = harness_rand_s8((size_t)K * N + 1);
		int8_t *C = harness_rand_s8(mn + 1);
		float scale = 1.0f / (float)harness_randint(50, 3000);
		int32_t zp = harness_randint(-20, 20);
		hl_requant(M, N, K, A, B, C, scale, zp);
		harness_out_array(harness_name("requant %dx%dx%d", M, N, K), C, mn);
		hl_ssat(M, N, K, A, B, C, harness_randint(0, 12));
		harness_out_array(harness_name("ssat %dx%dx%d", M, N, K), C, mn);
		hl_nnom(M, N, K, A, B, C, harness_randint(0, 12));
		harness_out_array(harness_name("nnom %dx%dx%d", M, N, K), C, mn);
		uint8_t *sc = harness_rand_u8((size_t)N + 1);
		for (int t = 0; t < 256; t++)
			hl_table[t] = 1.0f / (float)(40 + ((t * 37 + sh) % 3000));
		hl_memcpy(M, N, K, A, B, C, sc, zp);
		harness_out_array(harness_name("memcpy %dx%dx%d", M, N, K), C, mn);
		harness_free(sc);
		hl_memcpy_global(M, N, K, A, B, C);
		harness_out_array(harness_name("memcpy global %dx%dx%d", M, N, K), C, mn);
		harness_out_long("last", hl_last);
		hl_counting(M, N, K, A, B, C);
		harness_out_array(harness_name("counting %dx%dx%d", M, N, K), C, mn);
		harness_out_long("calls", hl_calls);
		harness_free(A);
		harness_free(B);
		harness_free(C);
	}
}
