/* pragma_inside.c -- `#pragma mixprec` where no statement starts: inside
 * an expression, a condition, between an if statement's body and its
 * `else`, between a do loop's body and its `while`, at the end of a block
 * without declarations (the C front end splices such a block into the
 * enclosing list).  GCC reads the pragma when its lexer reaches it (so
 * that it may follow `#pragma omp parallel for`); each of these is an
 * error at the pragma under the three compilers, never an annotation of
 * the loop after the statement. */
#include <mixprec.h>

#define NEST                                                                   \
	for (int i = 0; i < M; i++) {                                          \
		int32_t s = 0;                                                 \
		for (int k = 0; k < K; k++)                                    \
			s += A[i * K + k] * x[k];                              \
		y[i] = s;                                                      \
	}

void pi_expr(int M, int K, const int8_t *A, const int8_t *x, int32_t *y)
{
	y[0] = 1 +
#pragma mixprec(int8, acc=int32) // expected-error {{must be followed by a 'for' or 'while' loop}}
	       2;
	NEST
}

void pi_cond(int M, int K, const int8_t *A, const int8_t *x, int32_t *y, int c)
{
	if (c &&
#pragma mixprec(int8, acc=int32) // expected-error {{must be followed by a 'for' or 'while' loop}}
	    M > 0)
		y[0] = 0;
	NEST
}

void pi_else(int M, int K, const int8_t *A, const int8_t *x, int32_t *y, int c)
{
	if (c) {
		y[0] = 1;
	}
#pragma mixprec(int8, acc=int32) // expected-error {{must be followed by a 'for' or 'while' loop}}
	else {
		y[0] = 2;
	}
	NEST
}

void pi_do(int M, int K, const int8_t *A, const int8_t *x, int32_t *y, int c)
{
	do
		y[0]++;
#pragma mixprec(int8, acc=int32) // expected-error {{must be followed by a 'for' or 'while' loop}}
	while (c--);
	NEST
}

void pi_block_end(int M, int K, const int8_t *A, const int8_t *x, int32_t *y)
{
	{
		y[0] = 3;
#pragma mixprec(int8, acc=int32) // expected-error {{must be followed by a 'for' or 'while' loop}}
	}
	NEST
}

/* The same places with the operator `_Pragma("mixprec(...)")`, written in
 * the line or through a macro, and a `;` or `}` right after it on its line
 * (an empty statement, the end of an expression statement or of a block).
 * GCC accepted the ones inside an expression and annotated the next loop
 * (found in review, December 2026). */
#define PI_MP _Pragma("mixprec(int8, acc=int32)")

void pi_op_expr(int M, int K, const int8_t *A, const int8_t *x, int32_t *y)
{
	y[0] = 1 + _Pragma("mixprec(int8, acc=int32)") 2; // expected-error {{must be followed by a 'for' or 'while' loop}}
	NEST
}

void pi_op_macro(int M, int K, const int8_t *A, const int8_t *x, int32_t *y)
{
	y[0] = 1 + PI_MP 2; // expected-error {{must be followed by a 'for' or 'while' loop}}
	NEST
}

void pi_op_next_line(int M, int K, const int8_t *A, const int8_t *x, int32_t *y)
{
	y[0] = 1 +
	       _Pragma("mixprec(int8, acc=int32)") 2; // expected-error {{must be followed by a 'for' or 'while' loop}}
	NEST
}

void pi_op_cond(int M, int K, const int8_t *A, const int8_t *x, int32_t *y, int c)
{
	if (c == _Pragma("mixprec(int8, acc=int32)") 2) // expected-error {{must be followed by a 'for' or 'while' loop}}
		y[0] = 0;
	NEST
}

void pi_op_semi(int M, int K, const int8_t *A, const int8_t *x, int32_t *y)
{
	y[0] = 1 _Pragma("mixprec(int8, acc=int32)") ; // expected-error {{must be followed by a 'for' or 'while' loop}}
	NEST
	PI_MP ; // expected-error {{must be followed by a 'for' or 'while' loop}}
	NEST
}

void pi_op_block_end(int M, int K, const int8_t *A, const int8_t *x, int32_t *y, int c)
{
	if (c) {
		y[0] = 3; _Pragma("mixprec(int8, acc=int32)") } // expected-error {{must be followed by a 'for' or 'while' loop}}
	NEST
}

/* a macro whose expansion ends with the pragma, before the end of the
 * block (GCC now looks at what a macro's expansion puts after its pragma,
 * then at what follows the invocation) */
#define PI_TAIL(x) x; PI_MP
void pi_op_macro_tail(int M, int K, const int8_t *A, const int8_t *x, int32_t *y, int c)
{
	if (c) { PI_TAIL(y[0] = 1) } // expected-error {{must be followed by a 'for' or 'while' loop}}
	if (c) { PI_TAIL( // expected-error {{must be followed by a 'for' or 'while' loop}}
		y[0] = 2) }
	NEST
}

/* a function from a macro that puts the pragma after its body */
#define PI_DEF(name, body)                                                    \
	void name(int M, int K, const int8_t *A, const int8_t *x, int32_t *y)  \
	{                                                                      \
		body _Pragma("mixprec(int8, acc=int32)")                        \
	}
PI_DEF(pi_def_tail, NEST // expected-error {{must be followed by a 'for' or 'while' loop}}
	y[0] = 0;)

/* a macro whose expansion ends with the pragma, alone on its line, the
 * block's '}' on the next line (GCC annotated the loop after the block) */
#define PI_OPEN PI_MP
void pi_op_macro_alone(int M, int K, const int8_t *A, const int8_t *x, int32_t *y, int c)
{
	if (c) {
		PI_OPEN // expected-error {{must be followed by a 'for' or 'while' loop}}
	}
	if (c) {
		PI_TAIL(y[0] // expected-error {{must be followed by a 'for' or 'while' loop}}
			= 3)
	}
	NEST
}

/* the pragma alone in a branch's or a loop's block, a loop after the
 * statement (GCC annotated that loop, silently) */
void pi_alone_in_block(int M, int K, const int8_t *A, const int8_t *x, int32_t *y, int c)
{
	if (c) {
#pragma mixprec(int8, acc=int32) // expected-error {{must be followed by a 'for' or 'while' loop}}
	}
	NEST
	while (c--) {
		_Pragma("mixprec(int8, acc=int32)") // expected-error {{must be followed by a 'for' or 'while' loop}}
	}
	NEST
}
