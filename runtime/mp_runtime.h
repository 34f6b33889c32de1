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
	MP_FB_COUNT
} mp_fallback;

/* One call of a nest: LOC its "FILE:LINE" (NULL: unknown), WHY MP_FB_NONE
 * when KERNEL ran it, SECONDS the time spent in the runtime call. */
void mp_stats_nest(const char *loc, mp_fallback why, int kernel, double seconds);
double mp_stats_now(void);
/* Count one verification (verify mode): its worst |err| / bound, failed. */
void mp_stats_note_verify(double worst, int failed);

#endif
