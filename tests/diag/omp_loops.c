// MIXPREC-CFLAGS: -fopenmp
/* omp_loops.c -- '#pragma mixprec' followed by an OpenMP directive on the
 * same loop (issue 10, item 2).  `parallel for`, `parallel for simd` and
 * `simd` constructs whose clauses do not change what the loop computes are
 * transformed (tests/corpus/omp_loops.c); the rest is a warning under
 * the three compilers, and the OpenMP loop is compiled as written.  The
 * other order, the OpenMP directive first, reads the same (the last case
 * here; tests/corpus/pragma_order.c). */
#include <mixprec.h>

/* a worksharing loop of an enclosing region: every thread of the team
   would make the call */
void ol_for_in_region(int M, int K, const int8_t *A, const int8_t *x, int32_t *y)
{
#pragma omp parallel
	{
#pragma mixprec(int8, acc=int32)
#pragma omp for schedule(static) // expected-warning {{OpenMP directive other than 'parallel for'}}
		for (int i = 0; i < M; i++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * x[k];
			y[i] = s;
		}
	}
}

/* a reduction clause: the threads' partial sums are combined by OpenMP */
int32_t ol_reduction(int M, int K, const int8_t *A, const int8_t *x, int32_t *y)
{
	int32_t total = 0;
#pragma mixprec(int8, acc=int32)
#pragma omp parallel for reduction(+ : total) // expected-warning {{has a 'reduction' clause}}
	for (int i = 0; i < M; i++) {
		int32_t s = 0;
		for (int k = 0; k < K; k++)
			s += A[i * K + k] * x[k];
		y[i] = s;
		total += s;
	}
	return total;
}

int ol_next_count(void);

/* num_threads(f()): the call would evaluate it a second time */
void ol_side_effects(int M, int K, const int8_t *A, const int8_t *x, int32_t *y)
{
#pragma mixprec(int8, acc=int32)
#pragma omp parallel for num_threads(ol_next_count()) // expected-warning {{has side effects}}
	for (int i = 0; i < M; i++) {
		int32_t s = 0;
		for (int k = 0; k < K; k++)
			s += A[i * K + k] * x[k];
		y[i] = s;
	}
}

/* an epilogue the kernels do not fuse (tile mode: the loops stay and read
   the kernels' results) under a directive that collapses the loops */
void ol_relu_collapse(int M, int N, int K, const int8_t *A, const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
#pragma omp parallel for collapse(2)
	for (int i = 0; i < M; i++) // expected-warning {{the loops not collapsed}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s > 0 ? s : 0;
		}
}

/* the same with num_threads: its loops would run on that many threads */
void ol_relu_threads(int M, int N, int K, const int8_t *A, const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
#pragma omp parallel for num_threads(4)
	for (int i = 0; i < M; i++) // expected-warning {{no num_threads clause}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s > 0 ? s : 0;
		}
}


/* tile mode (an epilogue the kernels do not fuse) with a num_threads
   clause: the loops would run on the calling thread, not on the team the
   clause asks for */
void ol_tile_threads(int M, int N, int K, const int8_t *A, const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
#pragma omp parallel for num_threads(2)
	for (int i = 0; i < M; i++) // expected-warning {{needs one contraction, its reduction loop inside the directive's loop}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s / 3;
		}
}

/* the OpenMP directives first, `#pragma mixprec` right above the loop: the
   same readings as in the other order (a worksharing loop of an enclosing
   region; a reduction clause) */
int32_t ol_omp_first(int M, int K, const int8_t *A, const int8_t *x, int32_t *y)
{
	int32_t total = 0;
#pragma omp parallel
	{
#pragma omp for schedule(static) // expected-warning {{OpenMP directive other than 'parallel for'}}
#pragma mixprec(int8, acc=int32)
		for (int i = 0; i < M; i++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * x[k];
			y[i] = s;
		}
	}
#pragma omp parallel for reduction(+ : total) // expected-warning {{has a 'reduction' clause}}
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) {
		int32_t s = 0;
		for (int k = 0; k < K; k++)
			s += A[i * K + k] * x[k];
		y[i] = s;
		total += s;
	}
	return total;
}

/* `#pragma mixprec` on both sides of the directive: twice before one loop,
 * the error at the first (the clang glues transformed the loop, then
 * warned "internal error: the nest has no parent statement") */
void ol_twice(int M, int K, const int8_t *A, const int8_t *x, int32_t *y)
{
#pragma mixprec(int8, acc=int32) // expected-error {{appears twice before the same loop}}
#pragma omp parallel for
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) {
		int32_t s = 0;
		for (int k = 0; k < K; k++)
			s += A[i * K + k] * x[k];
		y[i] = s;
	}
}
