/* test_abi.c -- the core's plan and the runtime's API agree on the values
 * the plugins pass through unchanged (checked at compile time; the program
 * only reports). */
#include <stdio.h>
#include "mp_nest.h"
#include "mixprec.h"

_Static_assert((int)MP_FUSE_STORE == (int)MP_EPI_STORE, "epilogue kinds");
_Static_assert((int)MP_FUSE_FP32 == (int)MP_EPI_FP32, "epilogue kinds");
_Static_assert((int)MP_FUSE_GEMMLOWP == (int)MP_EPI_GEMMLOWP, "epilogue kinds");
_Static_assert((int)MP_FUSE_RNDNU == (int)MP_EPI_RNDNU, "epilogue kinds");
_Static_assert((int)MP_FUSE_CLAMP == (int)MP_EPI_CLAMP, "epilogue kinds");

int main(void)
{
	printf("core and runtime agree on the fused epilogue kinds\n");
	return 0;
}
