/* file_scope.c -- the pragma outside any function. */
#include <mixprec.h>

#pragma mixprec(int8, acc=int32) // expected-error {{must appear inside a function}}

int fs_after(int x)
{
	return x + 1;
}
