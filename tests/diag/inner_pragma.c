/* inner_pragma.c -- the pragma on an inner loop of a larger contraction: a
 * dot product per output element is refused, and the warning says that the
 * enclosing loop indexes an operand like the rows of a
 * matrix product (issue 8, item 7).  On a matrix-vector product per row
 * the nest is transformed and the remark carries the same hint. */
#include <mixprec.h>

void ip_dot(int M, int N, int K, const int8_t *A, const int8_t *B, int32_t *C)
{
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
#pragma mixprec(int8, acc=int32)
			for (int k = 0; k < K; k++) // expected-warning {{dot product over 'k' (no loop of the nest indexes its output); only matrix products and matrix-vector products are supported; the pragma stands on an inner loop: the enclosing loop 'i' indexes 'A' like the rows of a matrix product}}
				s += A[i * K + k] * B[j * K + k];
			C[i * N + j] = s;
		}
}

void ip_rows_walked(int M, int K, const int8_t *A, const int8_t *x, int32_t *y)
{
	int i = 0;
	while (i < M) {
		int32_t s = 0;
#pragma mixprec(int8, acc=int32)
		for (int k = 0; k < K; k++) // expected-warning {{the enclosing loop 'i' indexes 'A'}}
			s += A[i * K + k] * x[k];
		y[i] = s;
		i++;
	}
}
