/* mp_runtime.h -- internal declarations shared by runtime/ files. */
#ifndef MP_RUNTIME_H
#define MP_RUNTIME_H

/* Count one decision of generated code (stats.c). */
void mp_stats_note(int fast, int kernel);

/* Why a call ran the original loop (per-nest statistics, MIXPREC_STATS). */
typedef enum mp_fallback {
	MP_FB_NONE = 0,      /* ran on the kernels */
	MP_FB_ABI,           /* malformed argument list (plugin and runtime differ) */
	MP_FB_DISABLED,      /* MIXPREC_DISABLE */
	MP_FB_NO_KERNEL,     /* no usable kernel (MIXPREC_TARGET, target=, the CPU) */
	MP_FB_OVERLAP,       /* a written range overlaps what the nest reads */
	MP_FB_INT32_BOUND,   /* the int32 sum could overflow */
	MP_FB_LAYOUT,        /* a stride or zero point the kernels cannot take */
	MP_FB_ALLOC,         /* the tile (or a copy) could not be allocated */
	MP_FB_VALUES,        /* floating-point: NaN/inf input, unusable scale, overflow */
	MP_FB_VERIFY,        /* verify mode: an element beyond its bound */
	MP_FB_SMALL,         /* too little work: the loop as written is faster
	                        (nest.c's cost model; MIXPREC_SMALL=0 turns it off) */
	MP_FB_OMP,           /* tile mode under an OpenMP directive whose team would
	                        be wider than the loops left on one thread afford */
	MP_FB_SLOW,          /* no vector kernel for this problem on this CPU: the
	                        loop as written is faster (nest.c's cost model;
	                        MIXPREC_SMALL=0 turns it off) */
	MP_FB_AUTO_SOURCE,   /* an auto nest forced to its source precision
	                        (MIXPREC_AUTO_FORCE, mixprec-tune --run) */
	MP_FB_COUNT
} mp_fallback;

/* One call of a nest: LOC its "FILE:LINE" (NULL: unknown), WHY MP_FB_NONE
 * when KERNEL ran it, SECONDS the time spent in the runtime call. */
void mp_stats_nest(const char *loc, mp_fallback why, int kernel, double seconds);
double mp_stats_now(void);
/* Count one verification (verify mode): its worst |err| / bound, failed. */
void mp_stats_note_verify(double worst, int failed);

/* The inline guard the plugin's code reads before each call (nest.c;
 * polyhedral/mp_nest.h, mp_plan_work). */
#include "../polyhedral/mp_guard.h"   /* the table's layout, shared with the plugins */
extern long __mixprec_small[MP_SMALL_GUARD_LEN];

/* MIXPREC_PROFILE (profile.c): whether profiling is on; one call of an
 * auto nest (flags: its __mixprec_lp_nest flags) that ran on the kernels in
 * SECONDS, its operands as mp_gemm_lp_ex takes them (element strides). */
int mp_profile_on(void);
/* MIXPREC_AUTO_FORCE: the precision the auto nest at LOC (its call's
 * flags) is forced to: an mp_lp, -1 the source precision (the loop as
 * written), -2 none (the compiled one). */
int mp_auto_forced(const char *loc, long flags);
struct mp_lp_opts;
void mp_profile_call(const char *loc, long flags, double seconds, int kern, int dbl, long M,
		     long N, long K, const void *a, long a_si, long a_sk, const void *b, long b_sk,
		     long b_sj, const struct mp_lp_opts *opt);

/* Forget the cached MIXPREC_TARGET selection (cpu.c; mp_env_reload). */
void mp_kernel_select_reload(void);

/* Per-thread scratch buffers (scratch.c): one per slot, 64-byte aligned,
 * at least `bytes` long plus 64 bytes of slack, contents undefined; valid
 * until the same thread asks for the same slot again.  A call uses each
 * slot for one purpose at a time; never fails. */
#include <stddef.h>
#include <stdint.h>
enum {
	MP_SCR_A,      /* packed block of A */
	MP_SCR_B,      /* packed panel of B */
	MP_SCR_RCORR,  /* row corrections */
	MP_SCR_CCORR,  /* column corrections */
	MP_SCR_T,      /* a tile, accumulators */
	MP_SCR_Z,      /* zeros */
	MP_SCR_VEC,    /* a packed vector */
	MP_SCR_PREP,   /* mp_gemm_lp's scales */
	MP_SCR_SCAN,   /* the scan's maxima */
	MP_SCR_STAGE_A,/* mp_stage_levels' copies of A and B */
	MP_SCR_STAGE_B,
	MP_SCR_COUNT
};
void *mp_scratch(int slot, size_t bytes);

/* A reduction over several loops (stage.c): dims[0..nd-1], innermost
 * first, each an extent n and A's and B's byte strides. */
#define MP_MAX_KDIMS 3
#define MP_STAGE_MAX ((size_t)1 << 30)   /* bytes per staged operand */
typedef struct mp_kdim { long n; ptrdiff_t a, b; } mp_kdim;
/* The operands of one contraction: A(i,k) at a + i*a_si + k*a_sk, B(k,j) at
 * b + k*b_sk + j*b_sj (bytes), K terms. */
/* Padding (a convolution's window test): the term of row (i, i2) and
 * reduction index (d0 = k, d1, d2 ...) is added only where every condition
 * c0 + ci*i + ci2*i2 + sum_l ck[l]*d_l >= 0 holds; elsewhere A's element
 * is `pad` (A's zero point, in A's type: the term is 0) and is not read. */
#define MP_MAX_PAD 8
typedef struct mp_pad {
	int n;
	unsigned char pad[8];   /* the element's bytes (esz of them) */
	long c0[MP_MAX_PAD], ci[MP_MAX_PAD], ci2[MP_MAX_PAD];
	long ck[MP_MAX_PAD][MP_MAX_KDIMS];
} mp_pad;

typedef struct mp_operands {
	const void *a, *b;
	ptrdiff_t a_si, a_sk, b_sk, b_sj;
	long K;
	long m1;          /* > 0: A's rows come in blocks of m1 rows */
	ptrdiff_t a_s2;   /* ... a_s2 bytes apart */
	long r0;          /* the first of the M rows wanted */
	int b_ready;      /* b, b_sk, b_sj are those of an earlier call with
	                     the same B and dims: leave them */
	const mp_pad *pad;/* NULL, or A is copied with padding */
	long blk;         /* pad, m1 <= 0: the rows' block (i2) */
	int dry;          /* 1: set K, the strides and runs_a / runs_b as the
	                     copies would, copying nothing (a and b left) */
	long runs_a, runs_b; /* out: the contiguous runs copied (0: none) */
} mp_operands;
/* The bytes A's padded copy reads: rows i < M of blocks i2 < M2 (a + i*a_si
 * + i2*a_s2), the dims' elements where every condition of P holds, as
 * [*lo, *hi] (the last element's first byte).  Returns 0 when it reads
 * nothing, -1 when the conditions could overflow (no range: the caller
 * keeps the box's), 1 otherwise. */
int mp_pad_span(const void *a, long M, ptrdiff_t a_si, long M2, ptrdiff_t a_s2,
		const mp_kdim *dims, int nd, const mp_pad *p, intptr_t *lo, intptr_t *hi);

/* Rewrites O (a, a_si, b, b_sj, m1, a_s2, r0, b_ready, pad, blk set by the caller) into one
 * strided k per operand for rows r0 .. r0+M-1 of A: K = the product of the
 * extents, a_sk / b_sk the stride when an operand's dims chain (A then
 * advanced to row r0), else a copy in the calling thread's scratch (A: M
 * rows, B: N columns of K elements of esz bytes, valid until the thread's
 * next call); A is copied too when its rows come in blocks (m1 > 0: row v
 * at a + (v / m1)*a_s2 + (v % m1)*a_si) and when it is padded.  -1: a copy would exceed
 * MP_STAGE_MAX (nothing is changed then but K and the runs).  runs_a / runs_b: the runs
 * of elements contiguous in the source each unpadded copy moves (the cost
 * model's measure of a copy; 0 for a padded A, which has its own). */
int mp_stage_levels(long M, long N, const mp_kdim *dims, int nd, size_t esz,
		    mp_operands *o);

/* The tiles of the TILE mode (nest.c): a 64-byte aligned block of at least
 * `bytes`, NULL when out of memory; given back with mp_tile_give, which
 * keeps the thread's largest for its next mp_tile_take. */
void *mp_tile_take(size_t bytes);
void mp_tile_give(void *tile);

#endif
