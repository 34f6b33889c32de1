/* omp_loop_threads.c -- `#pragma mixprec` on `#pragma omp parallel for
 * num_threads(2)` (issue 10, item 2), built with the plugin: the call that
 * replaces the construct runs its kernels on the 2 threads the clause asks
 * for, whatever OMP_NUM_THREADS says; under a false if clause, on one.
 * Checked by omp-loop-threads.sh from MIXPREC_STATS (teams, max_team);
 * the results are compared here with a plain loop of the same program.
 * Under clang also the other order (the OpenMP directive first, which
 * GCC's parser rejects), mode "after". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mixprec.h>

#define M 256
#define N 256
#define K 256

static void gemm_two(int8_t *A, int8_t *B, int32_t *C, int use)
{
#pragma mixprec(int8, acc=int32)
#pragma omp parallel for num_threads(2) if (use)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

/* tile mode (a ReLU the kernels do not fuse): the call before the
   construct, whose loops then read its results on the calling thread; the
   runtime declines (the construct runs as written) when the team would
   have more than 2 threads */
static void gemm_relu(int8_t *A, int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
#pragma omp parallel for
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s > 0 ? s : 0;
		}
}

#ifdef __clang__
static void gemm_after(int8_t *A, int8_t *B, int32_t *C)
{
#pragma omp parallel for num_threads(2)
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}
#endif

int main(int argc, char **argv)
{
	int use = argc > 1 && strcmp(argv[1], "if0") == 0 ? 0 : 1;
	int after = argc > 1 && strcmp(argv[1], "after") == 0;
	int relu = argc > 1 && strcmp(argv[1], "relu") == 0;
	int8_t *A = malloc(M * K), *B = malloc(K * N);
	int32_t *C = malloc(sizeof(int32_t) * M * N);
	unsigned x = 12345;
	for (int e = 0; e < M * K; e++)
		A[e] = (int8_t)((x = x * 1103515245u + 12345u) >> 16);
	for (int e = 0; e < K * N; e++)
		B[e] = (int8_t)((x = x * 1103515245u + 12345u) >> 16);
	if (after) {
#ifdef __clang__
		gemm_after(A, B, C);
#else
		printf("skip: GCC's parser rejects the other order\n");
		return 0;
#endif
	} else if (relu) {
		gemm_relu(A, B, C);
	} else {
		gemm_two(A, B, C, use);
	}
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			if (relu && s < 0)
				s = 0;
			if (s != C[i * N + j]) {
				printf("FAIL: C[%d][%d] = %d, expected %d\n", i, j, C[i * N + j], s);
				return 1;
			}
		}
	mp_stats st;
	mp_stats_get(&st);
	printf("fast=%ld fallback=%ld\n", st.fast, st.fallback);
	return st.fast + st.fallback == 1 ? 0 : 1;
}
