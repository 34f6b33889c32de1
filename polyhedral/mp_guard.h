/* mp_guard.h -- the layout of __mixprec_small, the table the inline guard
 * in front of each transformed nest reads (the plugins' generated code,
 * polyhedral/mp_args.c's mp_plan_work) and the runtime fills
 * (runtime/nest.c, small_guard_set).  One header for both sides: the
 * generated code indexes the runtime's table with these numbers.
 *
 * A slot is MP_GUARD_SLOT consecutive entries g[0..4]: g[0] the least the
 * cost model estimates for the kernels, g[1..4] its loop constants (out
 * and work, operands contiguous in k; out and work, strided), in 1/64 ns.
 * See polyhedral/mp_nest.h (mp_work) for how the guard uses them. */
#ifndef MP_GUARD_H
#define MP_GUARD_H

enum {
	MP_GUARD_SLOT = 5,          /* entries per slot */
	MP_GUARD_I8 = 0,            /* integer sources, the family auto picks */
	MP_GUARD_LP_TARGET = 5,     /* float sources whose pragma names a target= */
	MP_GUARD_LP8 = 10,          /* float sources at int8/uint8, target auto */
	MP_GUARD_LP16 = 15,         /* float sources at bf16/fp8, target auto */
	MP_GUARD_I8_PAD = 20,       /* integer sources with padding (g[0] after the
	                               padded copy's least cost) */
	MP_GUARD_I8_TARGET = 25,    /* MP_GUARD_I8 for a target= (any family) */
	MP_GUARD_I8_PAD_TARGET = 30,/* MP_GUARD_I8_PAD for a target= */
	MP_GUARD_PAD_ROW = 35,      /* one entry: the padded copy's cost per row of A */
	MP_SMALL_GUARD_LEN = 36
};

#endif
