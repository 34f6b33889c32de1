// MIXPREC-TRANSFORMED: 10
/* local_arrays.c -- a local array of accumulators declared inside the
 * nest, as llm.c's matmul_forward unrolls its rows (`float result[8]`
 * per output column, 8 rows of the input at a time).  The array is memory
 * of the nest under GCC and clang alike: the contraction over i (8 rows of
 * inp against a column of w, into the array) is planned from the inner
 * loop, the loops around it kept.  With its size from a `const int` the
 * array is variable-length in C (llm.c's own form: `const int LOOP_UNROLL
 * = 8;`), a constant length after all (writing the `const` variable is
 * undefined): the same, under the three compilers.  A length known only
 * at run time is refused with that reason. */
#include "harness.h"
#include <mixprec.h>

__attribute__((noinline)) void la_block(int BT, int C, int OC, const int8_t *inp,
					const int8_t *w, int32_t *out)
{
#pragma mixprec(int8, acc=int32)
	for (int obt = 0; obt < BT; obt += 8)
		for (int o = 0; o < OC; o++) {
			int32_t result[8];
			for (int u = 0; u < 8; u++)
				result[u] = 0;
			for (int i = 0; i < C; i++) {
				int32_t wv = w[i + o * C];
				for (int u = 0; u < 8; u++)
					result[u] += inp[(obt + u) * C + i] * wv;
			}
			for (int u = 0; u < 8; u++)
				out[(obt + u) * OC + o] = result[u];
		}
}

/* the block size an enumerator, a bias in the accumulators */
enum { LA_U = 4 };
__attribute__((noinline)) void la_enum(int BT, int C, int OC, const int8_t *inp,
				       const int8_t *w, const int32_t *bias, int32_t *out)
{
#pragma mixprec(int8, acc=int32)
	for (int obt = 0; obt < BT; obt += LA_U)
		for (int o = 0; o < OC; o++) {
			int32_t r[LA_U];
			for (int u = 0; u < LA_U; u++)
				r[u] = bias[o];
			for (int i = 0; i < C; i++)
				for (int u = 0; u < LA_U; u++)
					r[u] += inp[(obt + u) * C + i] * w[o * C + i];
			for (int u = 0; u < LA_U; u++)
				out[(obt + u) * OC + o] = r[u];
		}
}

__attribute__((noinline)) void la_vla(int BT, int C, int OC, const int8_t *inp,
				      const int8_t *w, int32_t *out)
{
	const int U = 8;
#pragma mixprec(int8, acc=int32)
	for (int obt = 0; obt < BT; obt += U)
		for (int o = 0; o < OC; o++) {
			int32_t r[U];
			for (int u = 0; u < U; u++)
				r[u] = 0;
			for (int i = 0; i < C; i++)
				for (int u = 0; u < U; u++)
					r[u] += inp[(obt + u) * C + i] * w[i + o * C];
			for (int u = 0; u < U; u++)
				out[(obt + u) * OC + o] = r[u];
		}
}

/* llm.c's matmul_forward as published (train_gpt2.c), int8 */
__attribute__((noinline)) void la_llmc(int32_t *out, const int8_t *inp, const int8_t *weight,
				       const int32_t *bias, int B, int T, int C, int OC)
{
	const int LOOP_UNROLL = 8;
#pragma mixprec(int8, acc=int32)
	for (int obt = 0; obt < B * T; obt += LOOP_UNROLL) {
		for (int o = 0; o < OC; o++) {
			int32_t result[LOOP_UNROLL];
			for (int ibt = 0; ibt < LOOP_UNROLL; ibt++) {
				result[ibt] = (bias != NULL) ? bias[o] : 0;
			}
			for (int i = 0; i < C; i++) {
				int32_t w = weight[i + o * C];
				for (int ibt = 0; ibt < LOOP_UNROLL; ibt++) {
					int bt = obt + ibt;
					result[ibt] += inp[bt * C + i] * w;
				}
			}
			for (int ibt = 0; ibt < LOOP_UNROLL; ibt++) {
				int bt = obt + ibt;
				out[bt * OC + o] = result[ibt];
			}
		}
	}
}

/* the length a file-scope `static const` in an expression */
static const int la_rows = 2 * 2;
__attribute__((noinline)) void la_static_const(int BT, int C, int OC, const int8_t *inp,
					       const int8_t *w, int32_t *out)
{
#pragma mixprec(int8, acc=int32)
	for (int obt = 0; obt < BT; obt += la_rows)
		for (int o = 0; o < OC; o++) {
			int32_t r[la_rows - 1 + 1];
			for (int u = 0; u < la_rows; u++)
				r[u] = 0;
			for (int i = 0; i < C; i++)
				for (int u = 0; u < la_rows; u++)
					r[u] += inp[(obt + u) * C + i] * w[i + o * C];
			for (int u = 0; u < la_rows; u++)
				out[(obt + u) * OC + o] = r[u];
		}
}

/* the length and the step an expression of a `const int` (`U / 2`),
   folded alike under the three compilers at -O0 too */
__attribute__((noinline)) void la_half(int BT, int C, int OC, const int8_t *inp, const int8_t *w,
				       int32_t *out)
{
	const int U = 16;
#pragma mixprec(int8, acc=int32)
	for (int obt = 0; obt < BT; obt += U / 2)
		for (int o = 0; o < OC; o++) {
			int32_t r[U / 2];
			for (int u = 0; u < U / 2; u++)
				r[u] = o;
			for (int i = 0; i < C; i++)
				for (int u = 0; u < U / 2; u++)
					r[u] += inp[(obt + u) * C + i] * w[i + o * C];
			for (int u = 0; u < U / 2; u++)
				out[(obt + u) * OC + o] = r[u];
		}
}

/* a length known at run time: a VLA (refused) */
__attribute__((noinline)) void la_vla_runtime(int BT, int C, int OC, const int8_t *inp,
					      const int8_t *w, int32_t *out, int U)
{
#pragma mixprec(int8, acc=int32)
	for (int obt = 0; obt < BT; obt += U) // expected-warning {{'r' is a variable-length array declared inside the nest}}
		for (int o = 0; o < OC; o++) {
			int32_t r[U];
			for (int u = 0; u < U; u++)
				r[u] = 0;
			for (int i = 0; i < C; i++)
				for (int u = 0; u < U; u++)
					r[u] += inp[(obt + u) * C + i] * w[i + o * C];
			for (int u = 0; u < U; u++)
				out[(obt + u) * OC + o] = r[u];
		}
}

/* The accumulator at offset 0 of a small local object (an array element,
 * a struct's first member, a union's member): the GCC glue read it back
 * through a pointer whose type GIMPLE had dropped, storing the whole
 * object (acc[1] zeroed, the union's other bytes sign-extended; an
 * internal compiler error at -O1 and up), found by a review helper.  The
 * neighbours' values after the nest are compared. */
__attribute__((noinline)) long la_acc_elem(int M, int N, int K, const int8_t *A,
					   const int8_t *B, int32_t *C)
{
	int32_t acc[2];
	acc[0] = -8;
	acc[1] = 3;
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			acc[0] = 0;
			for (int k = 0; k < K; k++)
				acc[0] += A[i * K + k] * B[j * K + k];
			C[i * N + j] = acc[0];
		}
	return (long)acc[0] * 1000 + acc[1];
}

__attribute__((noinline)) long la_acc_member(int M, int N, int K, const int8_t *A,
					     const int8_t *B, int32_t *C)
{
	struct { int32_t s, t; } st = { 1, 77 };
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			st.s = C[i * N + j];
			for (int k = 0; k < K; k++)
				st.s += A[i * K + k] * B[j * K + k];
			C[i * N + j] = st.s;
		}
	return (long)st.s * 1000 + st.t;
}

__attribute__((noinline)) long la_acc_union(int M, int N, int K, const int8_t *A,
					    const int8_t *B, int32_t *C)
{
	union { int32_t s; int64_t w; } u;
	u.w = 0x123456789abLL;
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			u.s = 0;
			for (int k = 0; k < K; k++)
				u.s += A[i * K + k] * B[j * K + k];
			C[i * N + j] = u.s;
		}
	return (long)u.w;
}

__attribute__((noinline)) long la_acc_four(int M, int N, int K, const int8_t *A,
					   const int8_t *B, int32_t *C)
{
	int32_t a4[4] = { 5, 1, 2, 3 };
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			a4[0] = 0;
			for (int k = 0; k < K; k++)
				a4[0] += A[i * K + k] * B[j * K + k];
			C[i * N + j] = a4[0] - a4[2];
		}
	return (((long)a4[0] * 10 + a4[1]) * 10 + a4[2]) * 10 + a4[3];
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 1, &M, &N, &K);
		int BT = (M + 7) / 8 * 8;   /* the rows the blocks read */
		int8_t *inp = harness_rand_s8((size_t)BT * K + 1);
		int8_t *w = harness_rand_s8((size_t)N * K + 1);
		int32_t *bias = harness_rand_s32((size_t)N + 1, -100000, 100000);
		int32_t *out = harness_rand_s32((size_t)BT * N + 1, -100000, 100000);
		la_block(M, K, N, inp, w, out);
		harness_out_array(harness_name("block %dx%dx%d", M, N, K), out, (size_t)BT * N);
		la_enum(M, K, N, inp, w, bias, out);
		harness_out_array(harness_name("enum %dx%dx%d", M, N, K), out, (size_t)BT * N);
		la_vla(M, K, N, inp, w, out);
		harness_out_array(harness_name("vla %dx%dx%d", M, N, K), out, (size_t)BT * N);
		la_llmc(out, inp, w, sh % 2 ? bias : NULL, 1, BT, K, N);
		harness_out_array(harness_name("llm.c %dx%dx%d", M, N, K), out, (size_t)BT * N);
		la_static_const(M, K, N, inp, w, out);
		harness_out_array(harness_name("static const %dx%dx%d", M, N, K), out, (size_t)BT * N);
		la_half(M, K, N, inp, w, out);
		harness_out_array(harness_name("half %dx%dx%d", M, N, K), out, (size_t)BT * N);
		la_vla_runtime(M, K, N, inp, w, out, 8);
		harness_out_array(harness_name("vla runtime %dx%dx%d", M, N, K), out, (size_t)BT * N);
		harness_out_long(harness_name("acc elem %dx%dx%d", M, N, K),
				 la_acc_elem(M, N, K, inp, w, out));
		harness_out_array(harness_name("acc elem C %dx%dx%d", M, N, K), out, (size_t)M * N);
		harness_out_long(harness_name("acc member %dx%dx%d", M, N, K),
				 la_acc_member(M, N, K, inp, w, out));
		harness_out_array(harness_name("acc member C %dx%dx%d", M, N, K), out, (size_t)M * N);
		harness_out_long(harness_name("acc union %dx%dx%d", M, N, K),
				 la_acc_union(M, N, K, inp, w, out));
		harness_out_array(harness_name("acc union C %dx%dx%d", M, N, K), out, (size_t)M * N);
		harness_out_long(harness_name("acc four %dx%dx%d", M, N, K),
				 la_acc_four(M, N, K, inp, w, out));
		harness_out_array(harness_name("acc four C %dx%dx%d", M, N, K), out, (size_t)M * N);
		harness_free(inp);
		harness_free(w);
		harness_free(bias);
		harness_free(out);
	}
}
