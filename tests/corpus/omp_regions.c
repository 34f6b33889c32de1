// MIXPREC-TRANSFORMED: 15
// MIXPREC-CFLAGS: -fopenmp -L/usr/lib/llvm-14/lib
/* omp_regions.c -- annotated nests inside OpenMP constructs (issue 10,
 * item 2), built with -fopenmp: each thread of a parallel region computes
 * its own block of rows (the bounds from omp_get_thread_num), a nest in
 * the body of a worksharing loop over batches, and a nest in a task.  The
 * nests run on the kernels on the calling thread; each thread writes its
 * own outputs, so the results do not depend on the thread count.  The
 * parallel region's body, a CapturedStmt under clang, is searched too.
 * The pragma may follow a directive whose block is the loop (`#pragma omp
 * single` / `master` / `critical` / `task`, then `#pragma mixprec`), and
 * the nest's iterators and accumulator may be declared before the region
 * (C89 style, shared variables of the region: GCC then gives the nest
 * copies of its own, copied back after it); their final values are
 * compared too. */
#include "harness.h"
#include <mixprec.h>
/* omp.h without depending on which OpenMP headers are installed (Debian
   12 installs one libomp-N-dev at a time; clang 19 then links libomp 14
   from /usr/lib/llvm-14/lib) */
int omp_get_thread_num(void);
int omp_get_num_threads(void);

__attribute__((noinline)) void om_rows(int M, int N, int K, const int8_t *A, const int8_t *B,
				       int32_t *C)
{
#pragma omp parallel
	{
		int t = omp_get_thread_num(), nt = omp_get_num_threads();
		int lo = (int)((long)M * t / nt), hi = (int)((long)M * (t + 1) / nt);
#pragma mixprec(int8, acc=int32)
		for (int i = lo; i < hi; i++)
			for (int j = 0; j < N; j++) {
				int32_t s = 0;
				for (int k = 0; k < K; k++)
					s += A[i * K + k] * B[k * N + j];
				C[i * N + j] = s;
			}
	}
}

__attribute__((noinline)) void om_batches(int nb, int M, int N, int K, const int8_t *A,
					  const int8_t *B, int32_t *C)
{
#pragma omp parallel for schedule(static, 1)
	for (int b = 0; b < nb; b++) {
		const int8_t *a = A + (size_t)b * M * K;
		int32_t *c = C + (size_t)b * M * N;
#pragma mixprec(int8, acc=int32)
		for (int i = 0; i < M; i++)
			for (int j = 0; j < N; j++) {
				int32_t s = c[i * N + j];
				for (int k = 0; k < K; k++)
					s += a[i * K + k] * B[j * K + k];
				c[i * N + j] = s;
			}
	}
}

__attribute__((noinline)) void om_task(int M, int K, const int8_t *A, const uint8_t *x,
				       int32_t *y, int zx)
{
#pragma omp parallel
#pragma omp single
	{
#pragma omp task
		{
#pragma mixprec(uint8, acc=int32)
			for (int i = 0; i < M; i++) {
				int32_t s = 0;
				for (int k = 0; k < K; k++)
					s += A[i * K + k] * (x[k] - zx);
				y[i] = s;
			}
		}
#pragma omp taskwait
	}
}

/* a static local of the function read in a parallel region (no capture:
   static storage) */
__attribute__((noinline)) void om_static(int M, int K, const int8_t *A, const int8_t *x,
					 int32_t *y)
{
	static int32_t init = 5;
	init += 2;
#pragma omp parallel
	{
		int t = omp_get_thread_num(), nt = omp_get_num_threads();
		int lo = (int)((long)M * t / nt), hi = (int)((long)M * (t + 1) / nt);
#pragma mixprec(int8, acc=int32)
		for (int i = lo; i < hi; i++) {
			int32_t s = init;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * x[k];
			y[i] = s;
		}
	}
}

/* llama2.c's attention (run.c): the head loop's iterator declared before
   the region and named in private(h), the nest reading h and a pointer
   set in the region; under clang the references to h are not captures
   (the region has its own h) */
__attribute__((noinline)) void om_private(int nh, int T, int hs, const int8_t *q,
					  const int8_t *kc, int32_t *att)
{
	int h;
#pragma omp parallel for private(h)
	for (h = 0; h < nh; h++) {
		const int8_t *qh = q + h * hs;
#pragma mixprec(int8, acc=int32)
		for (int t = 0; t < T; t++) {
			const int8_t *k = kc + t * (nh * hs) + h * hs;
			int32_t score = 0;
			for (int i = 0; i < hs; i++)
				score += qh[i] * k[i];
			att[h * T + t] = score;
		}
	}
}

/* the same without the clause: the iterator of a parallel for is private
   all the same */
__attribute__((noinline)) void om_iter(int nh, int T, int hs, const int8_t *q,
				       const int8_t *kc, int32_t *att)
{
	int h;
#pragma omp parallel for
	for (h = 0; h < nh; h++) {
#pragma mixprec(int8, acc=int32)
		for (int t = 0; t < T; t++) {
			int32_t score = 0;
			for (int i = 0; i < hs; i++)
				score += q[h * hs + i] * kc[(t * nh + h) * hs + i];
			att[h * T + t] = score;
		}
	}
}

/* the directive right before the pragma: its block is the loop */
__attribute__((noinline)) void om_single(int M, int N, int K, const int8_t *A, const int8_t *B,
					 int32_t *C)
{
#pragma omp parallel
	{
#pragma omp single
#pragma mixprec(int8, acc=int32)
		for (int i = 0; i < M; i++)
			for (int j = 0; j < N; j++) {
				int32_t s = 0;
				for (int k = 0; k < K; k++)
					s += A[i * K + k] * B[k * N + j];
				C[i * N + j] = s;
			}
	}
}

/* C89: the iterators and the accumulator declared before the region
   (shared), the nest in a master block; their values after it */
__attribute__((noinline)) long om_master_c89(int M, int N, int K, const int8_t *A,
					     const int8_t *B, int32_t *C)
{
	int i = -1, j = -5, k = -7;   /* j, k stay when M or N is 0 */
	int32_t s = 3;
#pragma omp parallel
	{
#pragma omp master
		{
#pragma mixprec(int8, acc=int32)
			for (i = 0; i < M; i++)
				for (j = 0; j < N; j++) {
					s = C[i * N + j];
					for (k = 0; k < K; k++)
						s += A[i * K + k] * B[j * K + k];
					C[i * N + j] = s;
				}
		}
	}
	return (((long)i * 1000 + j) * 1000 + k) * 1000003L + s;
}

__attribute__((noinline)) long om_critical_c89(int M, int K, const int8_t *A, const int8_t *x,
					       int32_t *y)
{
	int i, k = -7;
	int32_t acc = -1;
#pragma omp parallel num_threads(2)
	{
#pragma omp critical
#pragma mixprec(int8, acc=int32)
		for (i = 0; i < M; i++) {
			acc = y[i];
			for (k = 0; k < K; k++)
				acc += A[i * K + k] * x[k];
			y[i] = acc;
		}
	}
	return ((long)i * 100000 + k) * 1000003L + acc;
}

__attribute__((noinline)) long om_task_c89(int M, int K, const int8_t *A, const int8_t *x,
					   int32_t *y)
{
	int i, k = -3;
	int32_t acc = 0;
#pragma omp parallel
#pragma omp single
	{
#pragma omp task
#pragma mixprec(int8, acc=int32)
		for (i = 0; i < M; i++) {
			acc = 0;
			for (k = 0; k < K; k++)
				acc += A[i * K + k] * x[k];
			y[i] = acc;
		}
#pragma omp taskwait
	}
	return ((long)i * 100000 + k) * 1000003L + acc;
}

/* unsigned iterators (OpenMP lowering leaves `M.5 = (unsigned) M;` in the
   loop tests of a region: a compiler temporary, not a step) */
__attribute__((noinline)) long om_unsigned_c89(int M, int N, int K, const int8_t *A,
					       const int8_t *B, int32_t *C)
{
	unsigned i = 5, j = 6, k = 7;
	int32_t s = -8;
#pragma omp parallel
#pragma omp single
	{
#pragma mixprec(int8, acc=int32)
		for (i = 0; i < (unsigned)M; i++)
			for (j = 0; j < (unsigned)N; j++) {
				s = 0;
				for (k = 0; k < (unsigned)K; k++)
					s += A[i * K + k] * B[j * K + k];
				C[i * N + j] = s;
			}
	}
	return (((long)i * 1000 + j) * 1000 + k) * 1000003L + s;
}

/* a parameter as the iterator */
__attribute__((noinline)) long om_param_iter(int M, int K, const int8_t *A, const int8_t *x,
					     int32_t *y, int i)
{
	int32_t acc = 0;
#pragma omp parallel
#pragma omp master
	{
#pragma mixprec(int8, acc=int32)
		for (i = 0; i < M; i++) {
			acc = 0;
			for (int k = 0; k < K; k++)
				acc += A[i * K + k] * x[k];
			y[i] = acc;
		}
	}
	return (long)i * 1000003L + acc;
}

/* C89, a comma in the outer loop's init: an output pointer walked beside
   the iterator (`i = 0, c = C`), and a second iterator set there too
   (`i = 0, j = 0`: clang read the comma as the init of i) */
__attribute__((noinline)) long om_comma_walk_c89(int M, int N, int K, const int8_t *A,
						 const int8_t *B, int32_t *C)
{
	int i = -1, j = -5, k = -7;
	int32_t s = 3, *c = C + 1;
#pragma omp parallel
	{
#pragma omp single
		{
#pragma mixprec(int8, acc=int32)
			for (i = 0, c = C; i < M; i++, c += N)
				for (j = 0; j < N; j++) {
					s = 0;
					for (k = 0; k < K; k++)
						s += A[i * K + k] * B[k * N + j];
					c[j] = s;
				}
		}
	}
	return ((((long)i * 1000 + j) * 1000 + k) * 1000003L + s) * 31 + (c - C);
}
__attribute__((noinline)) long om_comma_iters_c89(int M, int N, int K, const int8_t *A,
						  const int8_t *B, int32_t *C)
{
	int i = -1, j = -5, k = -7;
	int32_t s = 3;
#pragma omp parallel
#pragma omp master
	{
#pragma mixprec(int8, acc=int32)
		for (i = 0, j = 0; i < M; i++)
			for (j = 0; j < N; j++) {
				s = C[i * N + j];
				for (k = 0; k < K; k++)
					s += A[i * K + k] * B[j * K + k];
				C[i * N + j] = s;
			}
	}
	return (((long)i * 1000 + j) * 1000 + k) * 1000003L + s;
}

/* inside a parallel region, under single: a reduction bound chosen by a
 * conditional expression (GCC reads it before the nest into a variable of
 * the region's own block, private to each thread: hoist.cc) */
__attribute__((noinline)) void om_select_bound(int M, int N, int K, int full, const int8_t *A,
					       const int8_t *B, int32_t *C)
{
#pragma omp parallel num_threads(2)
	{
#pragma omp single
		{
#pragma mixprec(int8, acc=int32)
			for (int i = 0; i < M; i++)
				for (int j = 0; j < N; j++) {
					int32_t s = 0;
					for (int k = 0; k < (full ? K : K - K / 3); k++)
						s += A[i * K + k] * B[k * N + j];
					C[i * N + j] = s;
				}
		}
	}
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 1, &M, &N, &K);
		int nb = 1 + sh % 4;
		int8_t *A = harness_rand_s8((size_t)nb * M * K + 1);
		int8_t *B = harness_rand_s8((size_t)K * N + 1);
		uint8_t *x = harness_rand_u8((size_t)K + 1);
		int32_t *C = harness_rand_s32((size_t)nb * M * N + 1, -100000, 100000);

		om_rows(M, N, K, A, B, C);
		harness_out_array(harness_name("rows %dx%dx%d", M, N, K), C, (size_t)M * N);
		int full = harness_randint(0, 1);
		om_select_bound(M, N, K, full, A, B, C);
		harness_out_array(harness_name("select_bound %dx%dx%d/%d", M, N, K, full), C,
				  (size_t)M * N);
		om_batches(nb, M, N, K, A, B, C);
		harness_out_array(harness_name("batches %dx%dx%dx%d", nb, M, N, K), C,
				  (size_t)nb * M * N);
		om_task(M, K, A, x, C, harness_randint(0, 255));
		harness_out_array(harness_name("task %dx%d", M, K), C, (size_t)M);
		om_static(M, K, A, B, C);
		harness_out_array(harness_name("static %dx%d", M, K), C, (size_t)M);
		om_single(M, N, K, A, B, C);
		harness_out_array(harness_name("single %dx%dx%d", M, N, K), C, (size_t)M * N);
		harness_out_long(harness_name("master c89 finals %dx%dx%d", M, N, K),
				 om_master_c89(M, N, K, A, B, C));
		harness_out_array(harness_name("master c89 %dx%dx%d", M, N, K), C, (size_t)M * N);
		harness_out_long(harness_name("critical c89 finals %dx%d", M, K),
				 om_critical_c89(M, K, A, B, C));
		harness_out_array(harness_name("critical c89 %dx%d", M, K), C, (size_t)M);
		harness_out_long(harness_name("task c89 finals %dx%d", M, K),
				 om_task_c89(M, K, A, B, C));
		harness_out_array(harness_name("task c89 %dx%d", M, K), C, (size_t)M);
		harness_out_long(harness_name("unsigned c89 finals %dx%dx%d", M, N, K),
				 om_unsigned_c89(M, N, K, A, B, C));
		harness_out_array(harness_name("unsigned c89 %dx%dx%d", M, N, K), C, (size_t)M * N);
		harness_out_long(harness_name("param iter finals %dx%d", M, K),
				 om_param_iter(M, K, A, B, C, -4));
		harness_out_array(harness_name("param iter %dx%d", M, K), C, (size_t)M);
		harness_out_long(harness_name("comma walk c89 finals %dx%dx%d", M, N, K),
				 om_comma_walk_c89(M, N, K, A, B, C));
		harness_out_array(harness_name("comma walk c89 %dx%dx%d", M, N, K), C,
				  (size_t)M * N);
		harness_out_long(harness_name("comma iters c89 finals %dx%dx%d", M, N, K),
				 om_comma_iters_c89(M, N, K, A, B, C));
		harness_out_array(harness_name("comma iters c89 %dx%dx%d", M, N, K), C,
				  (size_t)M * N);
		/* heads nb, positions M, head size K: q (nb*K), then the keys
		   (M*nb*K) */
		int8_t *QK = harness_rand_s8((size_t)nb * K * (M + 1) + 1);
		int32_t *att = harness_rand_s32((size_t)nb * M + 1, -100000, 100000);
		om_private(nb, M, K, QK, QK + (size_t)nb * K, att);
		harness_out_array(harness_name("private %dx%dx%d", nb, M, K), att, (size_t)nb * M);
		om_iter(nb, M, K, QK, QK + (size_t)nb * K, att);
		harness_out_array(harness_name("iter %dx%dx%d", nb, M, K), att, (size_t)nb * M);
		harness_free(QK);
		harness_free(att);
		harness_free(A);
		harness_free(B);
		harness_free(x);
		harness_free(C);
	}
}
