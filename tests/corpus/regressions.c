// MIXPREC-TRANSFORMED: 10
/* regressions.c -- nests that once went wrong, kept so they stay right.
 *  - unsigned iterators with a 'k - 1' subscript: GIMPLE writes it as
 *    k + 4294967295u, which was read as +4294967295 (the kernel got
 *    addresses 4 GiB off and crashed);
 *  - 'j < N - 1' with an unsigned N (the same constant in a bound: the
 *    nest always fell back);
 *  - a global zero point that the epilogue stores to through an aliasing
 *    pointer: the run-time check must protect the global's bytes and run
 *    the original loop;
 *  - a variable-length array parameter `B[][ld]` whose length variable the
 *    function changes after the type is formed (directly between two
 *    nests, and through an escaped pointer inside the first): the rows
 *    stay sizeof(*B) apart, the size saved at entry; clang's description
 *    read `ld` again before each nest (fuzz seed 154021106831);
 *  - `int i = st; st = 0; for (; i < M; i++)`: both glues took `st` for
 *    the first row and the call, at the loop, read its new value (rows
 *    from 0, not from st; found in review, December 2026): refused now,
 *    also where a call may change `st` through its address; set before
 *    the init (`st += 1; i = st - 1;`) it is transformed;
 *  - a pragma on `while (0) ;`: GCC removed the loop and transformed the
 *    next nest (rg_dead_while);
 *  - a pragma on a loop whose constant bounds give it no iteration (`j <
 *    RG_NONE`, a macro of 0): GCC removes the loop before the pass, and
 *    the pragma's marker then annotated the next nest of the function
 *    with its own clauses (`constant=B` on a nest whose B changes between
 *    calls: B stayed packed, wrong results; fuzz seed 300262, December
 *    2026).  Refused in the same words under the three compilers;
 *  - a stride narrowed in the nest, `x[j * (int)linc]` with a long linc:
 *    GCC read any conversion to 32 bits or more as the identity, and the
 *    kernels ran with linc = 0x100000001 as the stride, not 1 (a crash;
 *    found by a review helper, December 2026). */
#include "harness.h"
#include <mixprec.h>

__attribute__((noinline)) void rg_unsigned_km1(unsigned M, unsigned N, unsigned K,
					       const int8_t *A, const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (unsigned i = 0; i < M; i++)
		for (unsigned j = 0; j < N - 1; j++) {
			int32_t s = 0;
			for (unsigned k = 1; k <= K; k++)
				s += A[i * K + k - 1] * B[(k - 1) * N + j];
			C[i * N + j] = s;
		}
}

int32_t rg_gzp;

__attribute__((noinline)) void rg_aliased_zp(int M, int N, int K, const int8_t *A,
					     const int8_t *B, int32_t *C, int32_t *zp)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += (A[i * K + k] - rg_gzp) * B[k * N + j];
			C[i * N + j] = s;
			*zp = j;   /* zp == &rg_gzp at run time */
		}
}

__attribute__((noinline)) void rg_vla_len(int M, int N, int K, int ld, const int8_t *A,
					  const int8_t B[][ld], int32_t *C, int **slot)
{
	*slot = &ld;
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k][j];
			C[i * N + j] = s;
			if (**slot > N)
				**slot -= 1;   /* ld, through the escaped pointer */
		}
	ld = N;
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = C[i * N + j];
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k][j];
			C[i * N + j] = s;
		}
	ld = 1;
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			for (int k = 0; k < K; k++)
				C[i * N + j] += A[i * K + k] * B[k][j];
}

__attribute__((noinline)) void rg_bump(int *p)
{
	*p = 0;
}
__attribute__((noinline)) long rg_init_clobbered(int M, int N, int K, const int8_t *A,
						 const int8_t *B, int32_t *C, int st)
{
	int i = st, j, k;
	st = 0;
#pragma mixprec(int8, acc=int32)
	for (; i < M; i++)   // expected-warning {{the initial value of 'i' reads 'st', which is assigned after it and before the loop}}
		for (j = 0; j < N; j++) {
			int32_t s = 0;
			for (k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
	return i;
}
__attribute__((noinline)) long rg_init_escaped(int M, int N, int K, const int8_t *A,
					       const int8_t *B, int32_t *C, int st)
{
	int i, j, k;
	i = st;
	rg_bump(&st);
#pragma mixprec(int8, acc=int32)
	for (; i < M; i++)   // expected-warning {{the initial value of 'i' reads 'st', which is assigned after it and before the loop}}
		for (j = 0; j < N; j++) {
			int32_t s = 0;
			for (k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
	return i + st;
}
__attribute__((noinline)) long rg_init_before(int M, int N, int K, const int8_t *A,
					      const int8_t *B, int32_t *C, int st)
{
	int i, j, k;
	st = st + 1;
	i = st - 1;
#pragma mixprec(int8, acc=int32)
	for (; i < M; i++)
		for (j = 0; j < N; j++) {
			int32_t s = 0;
			for (k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
	return i + st;
}

#define RG_NONE 0
__attribute__((noinline)) void rg_dead_then(int M, int N, int K, const int8_t *A,
					    const int8_t *B, int32_t *C, int32_t *D)
{
	unsigned i, j, k;   /* unsigned: `j < 0u` is false whatever j is */
#pragma mixprec(int8, acc=int32, constant=B)
	for (j = 0; j < RG_NONE; j++)   // expected-warning {{loop 'j' runs no iterations (its bounds are constants)}}
		for (i = 0; i < (unsigned)M; i++) {
			int32_t s = 0;
			for (k = 0; k < (unsigned)K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
#pragma mixprec(int8, acc=int32)
	for (i = 0; i < (unsigned)M; i++)
		for (j = 0; j < (unsigned)N; j++) {
			int32_t s = 0;
			for (k = 0; k < (unsigned)K; k++)
				s += A[i * K + k] * B[k * N + j];
			D[i * N + j] = s;
		}
}

/* the same with a comma in the loop's test, `(*x = 1, 0)`: removed by
 * GCC too, its marker then in the block of the next pragma's marker (the
 * search for the loop skipped that block; adversarial review, December
 * 2026: the next nest kept B packed, wrong results) */
__attribute__((noinline)) void rg_dead_comma(int M, int N, int K, const int8_t *A,
					     const int8_t *B, int32_t *C, int32_t *D, int *x)
{
	int i, j, k;
#pragma mixprec(int8, acc=int32, constant=B)
	for (j = 0; (*x = 1, 0); j++)   // expected-warning {{loop nest not transformed}}
		for (i = 0; i < M; i++) {
			int32_t s = 0;
			for (k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
#pragma mixprec(int8, acc=int32)
	for (i = 0; i < M; i++)
		for (j = 0; j < N; j++) {
			int32_t s = 0;
			for (k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			D[i * N + j] = s;
		}
}

/* an enumerator of 0 as the bound: a constant under every compiler
 * (clang's glue read enumerators as parameters and transformed the nest
 * GCC refuses); its sibling nest with an enumerator of 16 is transformed */
enum { RG_E0 = 0, RG_E16 = 16 };
__attribute__((noinline)) void rg_enum_bounds(int N, int K, const int8_t *A, const int8_t *B,
					      int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < RG_E0; i++)   // expected-warning {{loop 'i' runs no iterations (its bounds are constants)}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < RG_E16; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
	/* a const local is a constant at every -O level (GCC -O0 transformed
	   this nest, GCC -O2 and clang refused it: fuzz seed 400465's sibling) */
	const int n0 = 0;
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < 16; i++)   // expected-warning {{loop 'j' runs no iterations (its bounds are constants)}}
		for (int j = 0; j < n0; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

/* a pragma on a loop that never runs and holds no product (`while (0) ;`,
 * `for (; 0;)`): GCC removes such a loop before the pass, which then took
 * the next nest for the pragma's and transformed it (found in review,
 * December 2026); refused at the dead loop under every compiler, the next
 * nests run as written */
__attribute__((noinline)) void rg_dead_while(int M, int N, int K, const int8_t *A,
					     const int8_t *B, int32_t *C, int *x)
{
#pragma mixprec(int8, acc=int32)
	while (0)   // expected-warning {{the loop's condition is always false}}
		;
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
#pragma mixprec(int8, acc=int32)
	for (; 0;)   // expected-warning {{the loop's condition is always false}}
		(*x)++;
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] += s;
		}
}

__attribute__((noinline)) void rg_narrow_stride(int M, int N, const int8_t *A, const int8_t *x,
						 long linc, int32_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int j = 0; j < N; j++) {
		int32_t t = x[j * (int)linc];
		for (int i = 0; i < M; i++)
			y[i] += t * A[i + j * M];
	}
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 1, &M, &N, &K);
		if (N < 1)
			N = 1;
		size_t mn = (size_t)M * N;
		int8_t *A = harness_rand_s8((size_t)M * K), *B = harness_rand_s8((size_t)K * N);
		int32_t *C = harness_rand_s32(mn, -1000, 1000);
		rg_unsigned_km1((unsigned)M, (unsigned)N, (unsigned)K, A, B, C);
		harness_out_array(harness_name("unsigned_km1 %dx%dx%d", M, N, K), C, mn);
		int st = harness_randint(0, M);
		harness_out_long(harness_name("init_clobbered i %dx%dx%d", M, N, K),
				 rg_init_clobbered(M, N, K, A, B, C, st));
		harness_out_array(harness_name("init_clobbered %dx%dx%d", M, N, K), C, mn);
		st = harness_randint(0, M);
		harness_out_long(harness_name("init_escaped i %dx%dx%d", M, N, K),
				 rg_init_escaped(M, N, K, A, B, C, st));
		harness_out_array(harness_name("init_escaped %dx%dx%d", M, N, K), C, mn);
		st = harness_randint(0, M);
		harness_out_long(harness_name("init_before i %dx%dx%d", M, N, K),
				 rg_init_before(M, N, K, A, B, C, st));
		harness_out_array(harness_name("init_before %dx%dx%d", M, N, K), C, mn);
		rg_gzp = harness_randint(-20, 20);
		rg_aliased_zp(M, N, K, A, B, C, &rg_gzp);
		harness_out_array(harness_name("aliased_zp %dx%dx%d", M, N, K), C, mn);
		harness_out_long("aliased_zp.gzp", rg_gzp);
		{
			int ld = N + 7, *slot;
			int8_t *Bv = harness_rand_s8((size_t)K * ld + 1);
			rg_vla_len(M, N, K, ld, A, (const int8_t(*)[ld])Bv, C, &slot);
			harness_out_array(harness_name("vla_len %dx%dx%d", M, N, K), C, mn);
			harness_free(Bv);
		}
		/* the second nest again with B changed: nothing stays packed */
		rg_dead_then(M, N, K, A, B, C, C);
		harness_out_array(harness_name("dead_then %dx%dx%d", M, N, K), C, mn);
		for (size_t x = 0; x < (size_t)K * N; x++)
			B[x] = (int8_t)(B[x] * 3 + 1);
		rg_dead_then(M, N, K, A, B, C, C);
		harness_out_array(harness_name("dead_then B' %dx%dx%d", M, N, K), C, mn);
		int x = 0;
		rg_dead_comma(M, N, K, A, B, C, C, &x);
		harness_out_array(harness_name("dead_comma %dx%dx%d", M, N, K), C, mn);
		for (size_t q = 0; q < (size_t)K * N; q++)
			B[q] = (int8_t)(B[q] * 5 - 2);
		rg_dead_comma(M, N, K, A, B, C, C, &x);
		harness_out_array(harness_name("dead_comma B' %dx%dx%d", M, N, K), C, mn);
		harness_out_long("dead_comma x", x);
		if (M >= 16) {   /* A holds 16 rows */
			rg_enum_bounds(N, K, A, B, C);
			harness_out_array(harness_name("enum_bounds %dx%d", N, K), C, (size_t)16 * N);
		}
		rg_dead_while(M, N, K, A, B, C, &x);
		harness_out_array(harness_name("dead_while %dx%dx%d", M, N, K), C, mn);
		if (K >= 2 * N) {   /* B holds K*N >= 2*N bytes: x[2j] for j < N */
			long inc = sh % 2 ? 0x100000001L : -(7L << 32) + 2;
			rg_narrow_stride(M, N, A, B, inc, C);
			harness_out_array(harness_name("narrow_stride %dx%d", M, N), C, (size_t)M);
		}
		harness_free(A);
		harness_free(B);
		harness_free(C);
	}
}
