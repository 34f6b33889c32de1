/* test_guard.c -- the table the inline guard reads (__mixprec_small,
 * polyhedral/mp_guard.h): each slot for pragmas naming a target= holds the
 * constants of the slot it stands for, before the environment is read
 * (the constructor's values) and after (mp_env_reload: the auto slots
 * then follow the family picked here, the target= slots keep values for
 * every family); a padded slot costs at least its unpadded one and shares
 * its loop constants.  A padded nest with a target= once read the float
 * constants (slot 30 copied from slot 5). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mixprec.h"
#include "mp_runtime.h"

static int fails;

static void expect(int ok, const char *what, int phase)
{
	if (!ok) {
		printf("FAIL (%s): %s\n", phase ? "after mp_env_reload" : "constructor", what);
		fails++;
	}
}

static int same_slot(int a, int b)
{
	for (int i = 0; i < MP_GUARD_SLOT; i++)
		if (__mixprec_small[a + i] != __mixprec_small[b + i])
			return 0;
	return 1;
}

static int same_loop(int a, int b)
{
	for (int i = 1; i < MP_GUARD_SLOT; i++)
		if (__mixprec_small[a + i] != __mixprec_small[b + i])
			return 0;
	return 1;
}

static void check(int phase)
{
	const long *g = __mixprec_small;
	for (int i = 0; i < MP_SMALL_GUARD_LEN; i++)
		printf("%ld%c", g[i], i + 1 == MP_SMALL_GUARD_LEN ? '\n' : ' ');
	if (phase == 0) {
		expect(same_slot(MP_GUARD_I8_TARGET, MP_GUARD_I8), "slot I8_TARGET == I8", phase);
		expect(same_slot(MP_GUARD_I8_PAD_TARGET, MP_GUARD_I8_PAD),
		       "slot I8_PAD_TARGET == I8_PAD", phase);
		expect(same_slot(MP_GUARD_LP8, MP_GUARD_LP_TARGET), "slot LP8 == LP_TARGET", phase);
		expect(same_slot(MP_GUARD_LP16, MP_GUARD_LP_TARGET), "slot LP16 == LP_TARGET",
		       phase);
	}
	/* the target= slots hold for every family: at most the auto slot's
	   least cost, at least its loop constants */
	expect(g[MP_GUARD_I8_TARGET] <= g[MP_GUARD_I8], "I8_TARGET g[0] <= I8 g[0]", phase);
	expect(g[MP_GUARD_I8_PAD_TARGET] <= g[MP_GUARD_I8_PAD], "I8_PAD_TARGET g[0] <= I8_PAD g[0]",
	       phase);
	for (int i = 1; i < MP_GUARD_SLOT; i++) {
		expect(g[MP_GUARD_I8_TARGET + i] >= g[MP_GUARD_I8 + i],
		       "I8_TARGET loop constants >= I8's", phase);
		expect(g[MP_GUARD_LP_TARGET + i] >= g[MP_GUARD_LP8 + i] &&
			       g[MP_GUARD_LP_TARGET + i] >= g[MP_GUARD_LP16 + i],
		       "LP_TARGET loop constants >= LP8's and LP16's", phase);
	}
	/* padded: the same loop, a copy more before the kernels */
	expect(same_loop(MP_GUARD_I8_PAD, MP_GUARD_I8), "I8_PAD loop constants == I8's", phase);
	expect(same_loop(MP_GUARD_I8_PAD_TARGET, MP_GUARD_I8_TARGET),
	       "I8_PAD_TARGET loop constants == I8_TARGET's", phase);
	expect(g[MP_GUARD_I8_PAD] > g[MP_GUARD_I8], "I8_PAD g[0] > I8 g[0]", phase);
	expect(g[MP_GUARD_I8_PAD_TARGET] > g[MP_GUARD_I8_TARGET],
	       "I8_PAD_TARGET g[0] > I8_TARGET g[0]", phase);
	expect(g[MP_GUARD_PAD_ROW] > 0, "PAD_ROW > 0", phase);
}

int main(void)
{
	/* the guard's values as the tests run them (MIXPREC_SMALL=0 or
	   MIXPREC_STATS zero every g[0]) */
	const char *sm = getenv("MIXPREC_SMALL"), *st = getenv("MIXPREC_STATS");
	if ((!sm || strcmp(sm, "0")) && (!st || !*st || !strcmp(st, "0")))
		check(0);   /* the constructor's values */
	unsetenv("MIXPREC_SMALL");
	unsetenv("MIXPREC_STATS");
	unsetenv("MIXPREC_TARGET");
	mp_env_reload();   /* the constructor read them before main */
	check(1);
	return fails != 0;
}
