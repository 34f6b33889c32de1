/* scale_clause.c -- scale=(SA, SB): an undeclared name (float source), and
 * any scale on an integer source (the requantization belongs in the body).
 * The other explicit-scale diagnostics are in scale_explicit.c. */
#include <mixprec.h>

void sc_undeclared(int M, int N, int K, const float *A, const float *B, float *C)
{
#pragma mixprec(int8, acc=int32, scale=(no_such_scale, dynamic)) // expected-error {{undeclared}}
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			float s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

/* A name declared in a block or a for loop that closes right before the
 * pragma is out of scope there (clang's lookup used to find it: its
 * preprocessor runs one token ahead of the parser) */
void sc_block_closed(int M, int N, int K, const float *A, const float *B, float *C)
{
	{
		float gone = 0.5f;
		C[0] = gone;
	}
#pragma mixprec(int8, acc=int32, scale=(gone, dynamic)) // expected-error {{'gone' undeclared}}
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			float s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

void sc_for_closed(int M, int N, int K, const float *A, const float *B, float *C)
{
	for (float done = 1; done < 2; done++)
		C[0] = done;
#pragma mixprec(int8, acc=int32, scale=(dynamic, done)) // expected-error {{'done' undeclared}}
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			float s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

void sc_integer_source(int M, int N, int K, const int8_t *A, const int8_t *B, int32_t *C,
		       float sc)
{
	(void)sc;
#pragma mixprec(int8, acc=int32, scale=(sc, sc)) // expected-error {{requantization}}
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}
