// MIXPREC-TRANSFORMED: 13
// MIXPREC-EXPECT-FALLBACK: 1
/* struct_fields.c -- sizes, leading dimensions and operand pointers read
 * from struct fields and arrays inside the nest, and loop-invariant bounds
 * that are not affine (n / GS, rows >> 1, a uint16_t copy, MIN), as
 * library code writes them (issue 8, items 2 and 3).  Each is read once
 * before the nest (a derived parameter); what is read from memory is
 * protected at run time against the nest's stores: when the output
 * overlaps the struct (layer->out pointing at its own fields) the loop as
 * written runs. */
#include "harness.h"
#include <mixprec.h>

#define SF_MIN(a, b) ((a) < (b) ? (a) : (b))

struct sf_layer {
	int n_in, n_out;
	const int8_t *w;
	int32_t *out;
};

struct sf_mat {
	int rows, cols;
	int32_t *data;
};

struct sf_prob {
	int M, N, K;
};

/* every size and pointer through the struct */
__attribute__((noinline)) void sf_layer_fwd(struct sf_layer *l, const int8_t *x, int batch)
{
#pragma mixprec(int8, acc=int32)
	for (int b = 0; b < batch; b++)
		for (int o = 0; o < l->n_out; o++) {
			int32_t s = 0;
			for (int i = 0; i < l->n_in; i++)
				s += l->w[o * l->n_in + i] * x[b * l->n_in + i];
			l->out[b * l->n_out + o] = s;
		}
}

/* an output reached through a struct member */
__attribute__((noinline)) void sf_struct_output(int M, int N, int K, const int8_t *A,
						const int8_t *B, struct sf_mat *m)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			m->data[i * m->cols + j] = s;
		}
}

/* bounds read from a struct and from an array */
__attribute__((noinline)) void sf_struct_bounds(const struct sf_prob *p, const int8_t *A,
						const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < p->M; i++)
		for (int j = 0; j < p->N; j++) {
			int32_t s = 0;
			for (int k = 0; k < p->K; k++)
				s += A[i * p->K + k] * B[k * p->N + j];
			C[i * p->N + j] = s;
		}
}

__attribute__((noinline)) void sf_array_bounds(const int *dims, const int8_t *A, const int8_t *B,
					       int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < dims[0]; i++)
		for (int j = 0; j < dims[1]; j++) {
			int32_t s = 0;
			for (int k = 0; k < dims[2]; k++)
				s += A[i * dims[2] + k] * B[k * dims[1] + j];
			C[i * dims[1] + j] = s;
		}
}

/* groups of GS rows: n / GS of them */
#define GS 4
__attribute__((noinline)) void sf_div_bound(int n, int K, const int8_t *A, const int8_t *x,
					    int32_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int g = 0; g < n / GS; g++) {
		int32_t s = 0;
		for (int k = 0; k < K; k++)
			s += A[g * K + k] * x[k];
		y[g] = s;
	}
}

/* half the rows (lhs_rows >> 1), a uint16_t column counter */
__attribute__((noinline)) void sf_shift_u16(int rows, int cols, const int8_t *A, const int8_t *x,
					    int32_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < (rows >> 1); i++) {
		uint16_t col_count = cols;
		int32_t s = 0;
		for (int k = 0; k < col_count; k++)
			s += A[i * cols + k] * x[k];
		y[i] = s;
	}
}

/* a bound clipped with a MIN macro */
__attribute__((noinline)) void sf_min_bound(int M, int N, int K, int cap, const int8_t *A,
					    const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < SF_MIN(K, cap); k++)
				s += A[i * K + k] * B[j * K + k];
			C[i * N + j] = s;
		}
}

/* bounds chosen by a conditional expression (`k < (full ? K : K / 2)`),
 * of variables the nest does not write: GCC's glue reads each once before
 * the nest, as clang's does (GCC used to refuse the branch in the loop's
 * exit test) */
__attribute__((noinline)) void sf_select_bound(int M, int N, int K, int full, int half,
					       const int8_t *A, const int8_t *B, int32_t *C)
{
	int i, j, k;
#pragma mixprec(int8, acc=int32)
	for (i = 0; i < (half ? M / 2 : M); i++)
		for (j = 0; j < N; j++) {
			int32_t s = 0;
			for (k = 0; k < (full ? K : K / 2); k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s > 0 ? s : 0;
		}
}

/* a matrix-vector product accumulating into its output, the reduction's
 * bound a conditional expression of constants and a parameter */
__attribute__((noinline)) void sf_select_iter(int M, int N, int K, const int8_t *A,
					      const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int k = 0; k < (K > 1 ? K - 1 : K); k++)
			C[i] += A[i * K + k] * B[k];
}

/* a bound divided by a variable, inside a loop that may not run: the
 * loop as written never divides when M == 0, whatever d; the call's
 * arguments are computed before the nest (d == 0 there used to kill the
 * program with SIGFPE under GCC and clang) */
__attribute__((noinline)) void sf_div_var(int M, int N, int K, int d, const int8_t *A,
					  const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K / d + K % d; k++)
				s += A[i * K + k] * B[j * K + k];
			C[i * N + j] = s;
		}
}

/* values read through a pointer that the loop as written reads only when
 * the loops around them run: a NULL struct with no row, column or step of
 * k must not be dereferenced (the call's extents are tested outer to
 * inner before anything else is read) */
struct sf_dims {
	int n, lda;
};
__attribute__((noinline)) void sf_null_bound(int M, int N, const struct sf_dims *d,
					     const int8_t *A, const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < d->n; k++)
				s += A[i * d->n + k] * B[j * d->n + k];
			C[i * N + j] = s;
		}
}

__attribute__((noinline)) void sf_null_lda(int M, int N, int K, const struct sf_dims *d,
					   const int8_t *A, const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 7;
			for (int k = 0; k < K; k++)
				s += A[i * d->lda + k] * B[j * K + k];
			C[i * N + j] = s;
		}
}

/* the output overlaps the struct's own fields: the fallback runs */
struct sf_box {
	int32_t data[4];
	struct sf_layer l;
};
__attribute__((noinline)) void sf_alias(struct sf_layer *l, const int8_t *x)
{
#pragma mixprec(int8, acc=int32)
	for (int b = 0; b < 2; b++)
		for (int o = 0; o < l->n_out; o++) {
			int32_t s = 0;
			for (int i = 0; i < l->n_in; i++)
				s += l->w[o * l->n_in + i] * x[b * l->n_in + i];
			l->out[b * l->n_out + o] = s & 3;
		}
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 1, &M, &N, &K);
		size_t mn = (size_t)M * N;
		int8_t *A = harness_rand_s8((size_t)(M + 1) * (K + 1) * 2);
		int8_t *B = harness_rand_s8((size_t)(K + 1) * (N + 1) * 2);
		int32_t *C = harness_rand_s32((size_t)M * (N + 3) + 8, -1000, 1000);
		struct sf_layer l = { K, N, B, C };
		sf_layer_fwd(&l, A, M);
		harness_out_array(harness_name("layer %dx%dx%d", M, N, K), C, mn);
		struct sf_mat m = { M, N + 3, C };
		sf_struct_output(M, N, K, A, B, &m);
		harness_out_array(harness_name("struct_output %dx%dx%d", M, N, K), C, mn);
		struct sf_prob p = { M, N, K };
		sf_struct_bounds(&p, A, B, C);
		harness_out_array(harness_name("struct_bounds %dx%dx%d", M, N, K), C, mn);
		int dims[3] = { M, N, K };
		sf_array_bounds(dims, A, B, C);
		harness_out_array(harness_name("array_bounds %dx%dx%d", M, N, K), C, mn);
		sf_div_bound(M * 2 + 3, K, A, B, C);
		harness_out_array(harness_name("div_bound %dx%d", M, K), C, (size_t)(M * 2 + 3) / GS);
		sf_shift_u16(M * 2 + 1, K, A, B, C);
		harness_out_array(harness_name("shift_u16 %dx%d", M, K), C, (size_t)M);
		int cap = harness_randint(0, K + 2);
		sf_min_bound(M, N, K, cap, A, B, C);
		harness_out_array(harness_name("min_bound %dx%dx%d/%d", M, N, K, cap), C, mn);
		int full = harness_randint(0, 1), half = harness_randint(0, 1);
		sf_select_bound(M, N, K, full, half, A, B, C);
		harness_out_array(harness_name("select_bound %dx%dx%d/%d%d", M, N, K, full, half), C,
				  mn);
		static const int divs[] = { -2, -1, 1, 2, 3 };
		int d = divs[harness_randint(0, 4)];
		sf_div_var(M, N, K, d, A, B, C);
		harness_out_array(harness_name("div_var %dx%dx%d/%d", M, N, K, d), C, mn);
		sf_div_var(0, N, K, 0, A, B, C);   /* no row: never divides */
		harness_out_array(harness_name("div_var 0x%dx%d/0", N, K), C, mn);
		struct sf_dims nd = { K, K + 1 };
		sf_null_bound(0, N, NULL, A, B, C);   /* no row, no column: d unread */
		sf_null_bound(M, 0, NULL, A, B, C);
		sf_null_bound(M, N, &nd, A, B, C);
		harness_out_array(harness_name("null_bound %dx%dx%d", M, N, K), C, mn);
		sf_null_lda(M, N, 0, NULL, A, B, C);   /* no k: d unread */
		harness_out_array(harness_name("null_lda %dx%dx0", M, N), C, mn);
		sf_null_lda(M, N, K, &nd, A, B, C);
		harness_out_array(harness_name("null_lda %dx%dx%d", M, N, K), C, mn);
		sf_select_iter(M, N, K, A, B, C);
		harness_out_array(harness_name("select_iter %dx%d", M, K), C, (size_t)M);
		/* out[1] is the layer's own n_in: the second batch row's store
		   changes it (the run-time check sees the overlap) */
		struct sf_box *box = harness_alloc(sizeof(struct sf_box));
		box->l.n_in = K < 1 ? 1 : K;
		box->l.n_out = 1;
		box->l.w = B;
		box->l.out = &box->l.n_in - 1;
		sf_alias(&box->l, A);
		harness_out_long("alias n_in", box->l.n_in);
		harness_out_long("alias n_out", box->l.n_out);
		harness_free(box);
		harness_free(A);
		harness_free(B);
		harness_free(C);
	}
}
