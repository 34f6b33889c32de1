/* not_for.c -- the pragma not followed by a for or while loop: an
 * expression statement, the end of a block (errors); a do-while loop
 * (refused with a warning); a while loop
 * is a loop nest like a for loop (this one holds no contraction). */
#include <mixprec.h>

void nf_while(int M, const int8_t *A, int32_t *C)
{
	int i = 0;
#pragma mixprec(int8, acc=int32)
	while (i < M) { // expected-warning {{no contraction found}}
		C[i] = A[i];
		i++;
	}
}

void nf_statement(int M, const int8_t *A, int32_t *C)
{
#pragma mixprec(int8) // expected-error {{must be followed by a 'for' or 'while' loop}}
	C[0] = M > 0 ? A[0] : 0;
}

void nf_end_of_block(int M, const int8_t *A, int32_t *C)
{
	if (M > 0) {
		C[0] = A[0];
#pragma mixprec(int8) // expected-error {{must be followed by a 'for' or 'while' loop}}
	}
}

/* a do-while loop is a loop: refused with a warning at the loop, compiled
   as written (CMSIS-DSP's arm_mat_mult_q7 and XNNPACK's scalar ukernels
   write their loops so), also inside braces */
void nf_do_while(int M, const int8_t *A, int32_t *C)
{
	int i = 0;
#pragma mixprec(int8)
	do { // expected-warning {{a do-while loop (its body runs once before the first test)}}
		C[i] = A[i];
		i++;
	} while (i < M);
}

void nf_do_while_block(int M, const int8_t *A, int32_t *C)
{
	int i = 0;
#pragma mixprec(int8)
	{
		do { // expected-warning {{mixprec reads 'for' and 'while' loops}}
			C[i] = A[i];
			i++;
		} while (i < M);
	}
}
