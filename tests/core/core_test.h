/* core_test.h -- tiny check macros shared by the tests of polyhedral/. */
#ifndef CORE_TEST_H
#define CORE_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int ct_fail, ct_checks;

#define CHECK(cond, ...) do { \
	ct_checks++; \
	if (!(cond)) { \
		ct_fail++; \
		fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
		fprintf(stderr, __VA_ARGS__); \
		fprintf(stderr, "\n"); \
	} \
} while (0)

#define CT_DONE(name) do { \
	printf("%s: %d checks, %d failed\n", name, ct_checks, ct_fail); \
	return ct_fail ? 1 : 0; \
} while (0)

/* The declarations most test nests share: sizes, pointers, iterators. */
#define DECLS \
	"var M param s32\nvar N param s32\nvar K param s32\n" \
	"var x param ptr\nvar w param ptr\nvar y param ptr\n" \
	"var i iter s32\nvar j iter s32\nvar k iter s32\n" \
	"array x base=x\narray w base=w\narray y base=y\n"

#endif
