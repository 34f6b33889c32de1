/* lp.c -- mp_gemm_lp: floating-point sources at lower precision (int8 with
 * per-row / per-column scales, uint8 A with per-row zero points times int8
 * B, bf16, fp8 E4M3 / E5M2 through bf16), times alpha (mp_gemm_lp_ex).
 *   1. scan A and B once: absolute maxima (per row of A, per column of B;
 *      UINT8: A's minimum and maximum per row) and non-finite values (-1
 *      before anything is written);
 *   2. scales (dynamic or explicit, per operand) and the range check;
 *   3. the contraction, quantizing while packing: INT8 / UINT8 through the
 *      int8 kernel families' tiles (mp_gemm.h), BF16 / FP8 through the
 *      AVX512-BF16 kernel (lp_avx512bf16.c), its AVX2 + FMA emulation
 *      (lp_avx2.c), aarch64's BFMLAL / FMLA tiles (lp_neon.c) or the
 *      scalar reference below, which emulates vdpbf16ps exactly;
 *   4. the epilogue: remove UINT8's zero points, dequantize, times alpha,
 *      accumulate, store.
 * An operand declared constant (MP_LP_CONST_A / _B) skips steps 1-3 for
 * itself when lp_cache.c has its scales and packed blocks from an earlier
 * call; a miss caches them.
 * Operand offsets (mp_lp_opts.a_zero / b_zero): steps 1-3 read A - a_zero
 * and B - b_zero (one subtraction in the source type, lp.h conventions)
 * wherever they read A and B, so that the call is the one without offsets
 * on those differences.
 * The per-element error bound is mp_lp_error_bound_ex (docs/error-bounds.md).
 * Compiled for baseline x86-64 (no ISA extension in this file; the scan
 * of float and double operands has an AVX-512 version in lp_avx512vnni.c,
 * taken when the CPU has it). */
#include <float.h>
#include <stdlib.h>
#if defined(__aarch64__)
#include <sys/auxv.h>
#include <asm/hwcap.h>
#ifndef HWCAP2_BF16 /* kernel headers before 5.10 */
#define HWCAP2_BF16 (1 << 14)
#endif
#endif
#include <string.h>
#include "mp_gemm.h"
#include "mp_runtime.h"
#include "lp.h"
#include "lp_int.h"
#include "mp_par.h"

int mp_lp_have_avx512bf16(void)
{
#if defined(__x86_64__)
	__builtin_cpu_init();
	return mp_kernel_available(MP_KERNEL_AVX512VNNI) && __builtin_cpu_supports("avx512bf16");
#else
	return 0;
#endif
}

int mp_lp_have_arm_bf16(void)
{
#if defined(__aarch64__)
	return (getauxval(AT_HWCAP2) & HWCAP2_BF16) != 0;
#else
	return 0;
#endif
}

/* Which implementation mp_gemm_lp(kern, lp, ...) runs (mp_lp_impl: lp.h). */
static mp_lp_impl mp_lp_pick(mp_kernel kern, mp_lp lp)
{
	switch (lp) {
	case MP_LP_INT8:
	case MP_LP_UINT8:
		if (kern == MP_KERNEL_AVX512VNNI && mp_kernel_available(kern))
			return MP_LPI_I8_AVX512VNNI;
		if (kern == MP_KERNEL_AVX2 && mp_kernel_available(kern))
			return MP_LPI_I8_AVX2;
		/* aarch64: USMMLA reads the shared layout (u8 A); the dotprod
		   family's signed A (gemm_dotprod.c) does not fit the packers
		   here, so float sources on it run the scalar tiles */
		if (kern == MP_KERNEL_I8MM && mp_kernel_available(kern))
			return MP_LPI_I8_I8MM;
		return MP_LPI_I8_SCALAR;
	case MP_LP_BF16:
	case MP_LP_FP8_E4M3:
	case MP_LP_FP8_E5M2:
		if (kern == MP_KERNEL_AVX512VNNI && mp_lp_have_avx512bf16())
			return MP_LPI_BF16_AVX512BF16;
#if defined(__x86_64__) /* lp_avx2.c is built for x86-64 only */
		/* AVX512-VNNI without AVX512-BF16 (Cascade Lake, Ice Lake) still
		 * has AVX2 + FMA: the fp32 emulation gives the same bits */
		if ((kern == MP_KERNEL_AVX2 || kern == MP_KERNEL_AVX512VNNI) &&
		    mp_kernel_available(MP_KERNEL_AVX2))
			return MP_LPI_BF16_AVX2;
#endif
#if defined(__aarch64__) /* lp_neon.c */
		/* the int8 families' CPUs: BFMLALT / BFMLALB with FEAT_BF16,
		 * else FMLA on the widened operands, the same bits */
		if ((kern == MP_KERNEL_DOTPROD || kern == MP_KERNEL_I8MM) && mp_kernel_available(kern))
			return mp_lp_have_arm_bf16() ? MP_LPI_BF16_BFMLAL : MP_LPI_BF16_NEON;
#endif
		return MP_LPI_BF16_SCALAR;
	default:
		return MP_LPI_NONE;
	}
}

/* See lp.h: lp_avx512bf16.c's and lp_avx512vnni.c's packers take float A
 * contiguous in k or in i and float B contiguous in j or in k with vector
 * loads; the others (and double sources everywhere) convert element by
 * element. */
int mp_lp_vector_packs(mp_kernel kern, mp_lp lp, int dbl, long a_si, long a_sk, long b_sk,
		       long b_sj)
{
	mp_lp_impl im = mp_lp_pick(kern, lp);
	return (im == MP_LPI_BF16_AVX512BF16 || im == MP_LPI_I8_AVX512VNNI) && !dbl &&
	       (a_sk == 1 || a_si == 1) && (b_sj == 1 || b_sk == 1);
}

/* See lp.h. */
mp_lp_impl mp_lp_impl_of(mp_kernel kern, mp_lp lp)
{
	return mp_lp_pick(kern, lp);
}

/* See mixprec.h. */
const char *mp_lp_kernel_name(mp_kernel kern, mp_lp lp)
{
	switch (mp_lp_pick(kern, lp)) {
	case MP_LPI_I8_SCALAR: return "scalar";
	case MP_LPI_I8_AVX2: return "avx2";
	case MP_LPI_I8_AVX512VNNI: return "avx512vnni";
	case MP_LPI_I8_I8MM: return "i8mm";
	case MP_LPI_BF16_SCALAR: return "scalar";
	case MP_LPI_BF16_AVX2: return "avx2";
	case MP_LPI_BF16_AVX512BF16: return "avx512bf16";
	case MP_LPI_BF16_NEON: return "neon";
	case MP_LPI_BF16_BFMLAL: return "bfmlal";
	default: return "none";
	}
}

/* ------------------------------------------------------------ scan */

/* amax[r] = max_t |X(r,t)|, X(r,t) = p[r*sr + t*st] - z (the operand's
 * offset, subtracted in float), for r < R, t < T (as doubles).  Returns 1
 * when a NaN or an infinity was seen (an X that overflowed too).  Works on
 * the bit patterns (for non-negative floats their order is the values').
 * hz: z is not +0 (a constant in each expansion, so that the common case
 * keeps its plain integer loop). */
static inline __attribute__((always_inline)) int
mp_lp_amax_f32_z(const float *p, long R, long T, ptrdiff_t sr, ptrdiff_t st, float z,
		 const int hz, double *amax)
{
	uint32_t all = 0;
	if (st == 1 || sr != 1) {
		for (long r = 0; r < R; r++) {
			const float *q = p + r * sr;
			uint32_t m = 0;
			if (st == 1) {
				const uint32_t *w = (const uint32_t *)(const void *)q;
				for (long t = 0; t < T; t++) {
					uint32_t v = (hz ? mp_f32_bits(q[t] - z) : w[t]) & 0x7fffffffu;
					m = v > m ? v : m;
				}
			} else {
				for (long t = 0; t < T; t++) {
					uint32_t v = mp_f32_bits(hz ? q[t * st] - z : q[t * st]) & 0x7fffffffu;
					m = v > m ? v : m;
				}
			}
			amax[r] = mp_f32_from_bits(m);
			all = m > all ? m : all;
		}
	} else {
		uint32_t *m = mp_scratch(MP_SCR_SCAN, sizeof(uint32_t) * ((size_t)R + 1));
		memset(m, 0, sizeof(uint32_t) * ((size_t)R + 1));
		for (long t = 0; t < T; t++) {
			const float *q = p + t * st;
			const uint32_t *w = (const uint32_t *)(const void *)q;
			for (long r = 0; r < R; r++) {
				uint32_t v = (hz ? mp_f32_bits(q[r] - z) : w[r]) & 0x7fffffffu;
				m[r] = v > m[r] ? v : m[r];
			}
		}
		for (long r = 0; r < R; r++) {
			amax[r] = mp_f32_from_bits(m[r]);
			all = m[r] > all ? m[r] : all;
		}
	}
	return all >= 0x7f800000u;
}

static int mp_lp_amax_f32(const float *p, long R, long T, ptrdiff_t sr, ptrdiff_t st, float z,
			  double *amax)
{
#if defined(__x86_64__) /* lp_avx512vnni.c is built for x86-64 only */
	/* the same maxima with AVX-512 when the CPU has it */
	if ((st == 1 || sr == 1) && mp_kernel_available(MP_KERNEL_AVX512VNNI))
		return mp_lp_amax_f32__avx512(p, R, T, sr, st, z, mp_f32_bits(z) != 0, amax);
#endif
	if (mp_f32_bits(z) == 0) /* no offset: nothing subtracted (mp_lp_ldf) */
		return mp_lp_amax_f32_z(p, R, T, sr, st, z, 0, amax);
	return mp_lp_amax_f32_z(p, R, T, sr, st, z, 1, amax);
}

static inline __attribute__((always_inline)) int
mp_lp_amax_f64_z(const double *p, long R, long T, ptrdiff_t sr, ptrdiff_t st, double z,
		 const int hz, double *amax)
{
	uint64_t all = 0;
	const uint64_t mask = 0x7fffffffffffffffull;
	if (st == 1 || sr != 1) {
		for (long r = 0; r < R; r++) {
			const double *q = p + r * sr;
			uint64_t m = 0;
			for (long t = 0; t < T; t++) {
				uint64_t v = mp_f64_bits(hz ? q[t * st] - z : q[t * st]) & mask;
				m = v > m ? v : m;
			}
			amax[r] = mp_f64_from_bits(m);
			all = m > all ? m : all;
		}
	} else {
		uint64_t *m = mp_scratch(MP_SCR_SCAN, sizeof(uint64_t) * ((size_t)R + 1));
		memset(m, 0, sizeof(uint64_t) * ((size_t)R + 1));
		for (long t = 0; t < T; t++) {
			const double *q = p + t * st;
			for (long r = 0; r < R; r++) {
				uint64_t v = mp_f64_bits(hz ? q[r] - z : q[r]) & mask;
				m[r] = v > m[r] ? v : m[r];
			}
		}
		for (long r = 0; r < R; r++) {
			amax[r] = mp_f64_from_bits(m[r]);
			all = m[r] > all ? m[r] : all;
		}
	}
	return all >= 0x7ff0000000000000ull;
}

static int mp_lp_amax_f64(const double *p, long R, long T, ptrdiff_t sr, ptrdiff_t st, double z,
			  double *amax)
{
#if defined(__x86_64__)
	if ((st == 1 || sr == 1) && mp_kernel_available(MP_KERNEL_AVX512VNNI))
		return mp_lp_amax_f64__avx512(p, R, T, sr, st, z, mp_f64_bits(z) != 0, amax);
#endif
	if (mp_f64_bits(z) == 0)
		return mp_lp_amax_f64_z(p, R, T, sr, st, z, 0, amax);
	return mp_lp_amax_f64_z(p, R, T, sr, st, z, 1, amax);
}

/* lo[r] = min(0, min_t X(r,t)), hi[r] = max(0, max_t X(r,t)) (as doubles),
 * X(r,t) = p[r*sr + t*st] - z of float (dbl == 0) or double elements (the
 * offset subtracted in the source type): the range of UINT8's asymmetric
 * rows of A.  Returns 1 when a NaN or an infinity was seen (v - v is 0
 * exactly for finite v). */
static inline double mp_lp_get(const void *p, int dbl, ptrdiff_t o, double z)
{
	return dbl ? mp_lp_ldd(p, o, z) : (double)mp_lp_ldf(p, o, z);
}

static int mp_lp_range(const void *p, int dbl, long R, long T, ptrdiff_t sr, ptrdiff_t st,
		       double z, double *lo, double *hi)
{
	int bad = 0;
	for (long r = 0; r < R; r++)
		lo[r] = hi[r] = 0.0;
	if (st == 1 || sr != 1) {
		for (long r = 0; r < R; r++) {
			double l = 0.0, h = 0.0;
			for (long t = 0; t < T; t++) {
				double v = mp_lp_get(p, dbl, r * sr + t * st, z);
				bad |= !(v - v == 0.0);
				l = v < l ? v : l;
				h = v > h ? v : h;
			}
			lo[r] = l;
			hi[r] = h;
		}
	} else {
		/* column-major rows: walk memory in order */
		for (long t = 0; t < T; t++)
			for (long r = 0; r < R; r++) {
				double v = mp_lp_get(p, dbl, r + t * st, z);
				bad |= !(v - v == 0.0);
				lo[r] = v < lo[r] ? v : lo[r];
				hi[r] = v > hi[r] ? v : hi[r];
			}
	}
	return bad;
}

/* The scan of one operand (R rows, T elements each, strides sr / st in
 * elements, offset z): UINT8's A its range (lo, hi), the others their
 * absolute maxima (hi); rows [r0, r1) only.  Returns 1 on a non-finite
 * value. */
typedef struct mp_lp_scan {
	const void *p;
	long R, T;
	ptrdiff_t sr, st;
	double z;
	double *lo, *hi;   /* lo NULL: absolute maxima into hi */
} mp_lp_scan;

static int mp_lp_scan_rows(const mp_lp_scan *s, int dbl, long r0, long r1)
{
	if (r0 >= r1)
		return 0;
	const char *p = (const char *)s->p + r0 * s->sr * (dbl ? 8 : 4);
	if (s->lo)
		return mp_lp_range(p, dbl, r1 - r0, s->T, s->sr, s->st, s->z, s->lo + r0, s->hi + r0);
	return dbl ? mp_lp_amax_f64((const double *)p, r1 - r0, s->T, s->sr, s->st, s->z, s->hi + r0)
		   : mp_lp_amax_f32((const float *)p, r1 - r0, s->T, s->sr, s->st, (float)s->z,
				    s->hi + r0);
}

typedef struct mp_lp_scan_job {
	const mp_lp_scan *sa, *sb;   /* NULL: that operand is not scanned */
	int dbl;
	int bad;
} mp_lp_scan_job;

/* Thread t's rows of both scans (16 at a time: whole vectors for the
 * column-major walk). */
static void mp_lp_scan_part(void *p, int t, int n)
{
	mp_lp_scan_job *j = p;
	long lo, hi;
	int bad = 0;
	if (j->sa) {
		mp_par_part(j->sa->R, 16, t, n, &lo, &hi);
		bad |= mp_lp_scan_rows(j->sa, j->dbl, lo, hi);
	}
	if (j->sb) {
		mp_par_part(j->sb->R, 16, t, n, &lo, &hi);
		bad |= mp_lp_scan_rows(j->sb, j->dbl, lo, hi);
	}
	if (bad)
		__atomic_or_fetch(&j->bad, 1, __ATOMIC_RELAXED);
}

/* Both scans, on a team when the operands are large (the maxima do not
 * depend on the split).  Returns 1 on a non-finite value. */
static int mp_lp_scan_both(const mp_lp_scan *sa, const mp_lp_scan *sb, int dbl)
{
	double elems = (sa ? (double)sa->R * (double)sa->T : 0) +
		       (sb ? (double)sb->R * (double)sb->T : 0);
	mp_lp_scan_job j = {sa, sb, dbl, 0};
	/* a scanned element costs about eight multiply-adds of the kernels */
	mp_par_run(mp_par_threads(8.0 * elems), mp_lp_scan_part, &j);
	return j.bad;
}

/* ---------------------------------------------------------- scales */

/* The scales of one operand (R rows of A, or R columns of B) from its
 * maxima amax[R]: f (float and double: the quantization factor) and d (the
 * dequantization step).  Explicit scales from e[r*es] (dynamic == 0).
 * Returns -1 on an unusable explicit scale (not finite, not > 0), else 0.
 * *hat: an upper bound of max |dequantized value|.  (UINT8's B is INT8.) */
static int mp_lp_scales_one(mp_lp lp, int dbl, int dynamic, long R, const double *amax,
			    const float *e, ptrdiff_t es, float *ff, double *fd, double *d,
			    double *hat)
{
	double h = 0;
	if (lp == MP_LP_BF16) {
		for (long r = 0; r < R; r++)
			h = amax[r] > h ? amax[r] : h;
		*hat = h * (1.0 + 0x1p-8);
		return 0;
	}
	const int fp8 = lp != MP_LP_INT8;
	const mp_fp8_fmt ft = mp_fp8_format(lp == MP_LP_FP8_E5M2);
	const double qmax = fp8 ? (double)ft.max : 127.0;
	double tmax = 0; /* per-tensor amax for fp8 */
	for (long r = 0; r < R; r++)
		tmax = amax[r] > tmax ? amax[r] : tmax;
	for (long r = 0; r < R; r++) {
		double s;
		if (!dynamic) {
			float v = e[r * es];
			if (!(v > 0.0f) || !(v <= FLT_MAX))
				return -1;
			ff[r] = v;
			fd[r] = v;
			d[r] = v;
			s = v;
		} else if (!fp8) {
			/* int8: s = amax / 127, zero rows 1, at least the least normal */
			if (dbl) {
				s = amax[r] == 0 ? 1.0 : amax[r] / 127.0;
				s = s < DBL_MIN ? DBL_MIN : s;
				fd[r] = s;
				ff[r] = 0;
			} else {
				float sf = amax[r] == 0 ? 1.0f : (float)amax[r] / 127.0f;
				sf = sf < FLT_MIN ? FLT_MIN : sf;
				ff[r] = sf;
				fd[r] = sf;
				s = sf;
			}
			d[r] = s;
		} else {
			/* fp8: multiplier m = max / amax (per tensor), amax 0 -> 1 */
			if (dbl) {
				double m = tmax == 0 ? 1.0 : (double)ft.max / tmax;
				m = m > 0x1p1000 ? 0x1p1000 : m;
				fd[r] = m;
				ff[r] = 0;
				d[r] = 1.0 / m;
			} else {
				float m = tmax == 0 ? 1.0f : ft.max / (float)tmax;
				m = m > 0x1p126f ? 0x1p126f : m;
				ff[r] = m;
				fd[r] = m;
				d[r] = 1.0 / (double)m;
			}
			s = d[r];
		}
		double hr = amax[r] > qmax * s ? amax[r] : qmax * s;
		h = hr > h ? hr : h;
	}
	*hat = h * (1.0 + 0x1p-20);
	return 0;
}

/* UINT8's A: per row, from the range [lo, hi] (which contains 0), the step
 * s = (hi - lo) / 255 and the zero point za = clamp(rne(-lo / s), 0, 255)
 * (the code of 0, so that zeros stay exact), or an explicit scale with zero
 * point 0.  Like mp_lp_scales_one otherwise. */
static int mp_lp_scales_u8(int dbl, int dynamic, long R, const double *lo, const double *hi,
			   const float *e, ptrdiff_t es, float *ff, double *fd, double *d,
			   int32_t *za, double *hat)
{
	double h = 0;
	for (long r = 0; r < R; r++) {
		double amax = hi[r] > -lo[r] ? hi[r] : -lo[r], s;
		int z = 0;
		if (!dynamic) {
			float v = e[r * es];
			if (!(v > 0.0f) || !(v <= FLT_MAX))
				return -1;
			ff[r] = v;
			fd[r] = v;
			s = v;
		} else {
			/* zero rows 1, at least the least normal (as INT8).  The
			 * width hi - lo of two floats cannot overflow in double and
			 * is divided there, then rounded to float; a double width
			 * beyond DBL_MAX is divided term by term (such inputs are
			 * refused by the range check, but s stays finite). */
			if (dbl) {
				double w = hi[r] - lo[r];
				s = w == 0 ? 1.0 : w <= DBL_MAX ? w / 255.0 : hi[r] / 255.0 - lo[r] / 255.0;
				s = s < DBL_MIN ? DBL_MIN : s;
				fd[r] = s;
				ff[r] = 0;
			} else {
				float sf = hi[r] == lo[r] ? 1.0f : (float)((hi[r] - lo[r]) / 255.0);
				sf = sf < FLT_MIN ? FLT_MIN : sf;
				ff[r] = sf;
				fd[r] = sf;
				s = sf;
			}
			/* -lo / s <= 255 (1 + rounding): clamp, then exact rne */
			double t = -lo[r] / s;
			z = t >= 255.0 ? 255 : (int)mp_rne_small(t);
		}
		d[r] = s;
		za[r] = z;
		/* |(q - za) s| <= 255 s */
		double hr = amax > 255.0 * s ? amax : 255.0 * s;
		h = hr > h ? hr : h;
	}
	*hat = h * (1.0 + 0x1p-20);
	return 0;
}

/* Scan + scales into the buffers of st (the calling thread's scratch,
 * MP_SCR_PREP: valid until its next call; mp_lp_state_free frees nothing).  Returns 0 or -1 (non-finite input or alpha, bad
 * scale, or a result that could leave the accumulator's / output's range).
 * dyn_a / dyn_b: each operand's scale mode (mixprec.h, mp_lp_scales). */
typedef struct mp_lp_state {
	double *amax_a, *amax_b, *da, *db, *fad, *fbd, *lo_a;
	float *faf, *fbf;
	int32_t *za;
	int dyn_a, dyn_b;
	double ha, hb;     /* bounds of max |dequantized value| (range check) */
} mp_lp_state;

/* The state's arrays are the thread's scratch: nothing to free. */
static void mp_lp_state_free(mp_lp_state *st)
{
	(void)st;
}

/* ca / cb: an operand found in the cache of constant operands (NULL
 * otherwise): its scales are the cached ones, and it is not read (it was
 * finite when cached; its explicit scales and offset, part of the key,
 * were valid).  oa / ob: the operands' offsets (checked by the caller):
 * the scan sees A - oa and B - ob. */
static int mp_lp_prepare(mp_lp lp, int dbl, long M, long N, long K, const void *a,
			 ptrdiff_t a_si, ptrdiff_t a_sk, const void *b, ptrdiff_t b_sk,
			 ptrdiff_t b_sj, const mp_lp_scales *sc, double alpha, double oa,
			 double ob, const mp_lp_packed *ca, const mp_lp_packed *cb,
			 mp_lp_state *st)
{
	memset(st, 0, sizeof(*st));
	if (lp != MP_LP_INT8 && lp != MP_LP_UINT8 && lp != MP_LP_BF16 && lp != MP_LP_FP8_E4M3 &&
	    lp != MP_LP_FP8_E5M2)
		return -1;
	if (!(fabs(alpha) <= DBL_MAX))
		return -1;
	/* per operand: a NULL scale pointer leaves that operand dynamic */
	const int all = !sc || sc->dynamic;
	st->dyn_a = all || !sc->a_scale;
	st->dyn_b = all || !sc->b_scale;
	/* the thread's scratch (mp_runtime.h): seven double, two float and one
	 * int32 array of M + 1 or N + 1 elements, 64-byte aligned each */
	size_t rm = ((size_t)M + 1 + 7) / 8 * 8, rn = ((size_t)N + 1 + 7) / 8 * 8;
	char *buf = mp_scratch(MP_SCR_PREP, 8 * (5 * rm + 4 * rn) + 64 * 10);
	char *q = buf;
#define MP_LP_CARVE(ptr, type, n)                                                   \
	do {                                                                        \
		ptr = (type *)(void *)q;                                            \
		q += ((sizeof(type) * (n)) + 63) / 64 * 64;                         \
	} while (0)
	MP_LP_CARVE(st->amax_a, double, rm);
	MP_LP_CARVE(st->amax_b, double, rn);
	MP_LP_CARVE(st->da, double, rm);
	MP_LP_CARVE(st->db, double, rn);
	MP_LP_CARVE(st->fad, double, rm);
	MP_LP_CARVE(st->fbd, double, rn);
	MP_LP_CARVE(st->lo_a, double, rm);
	MP_LP_CARVE(st->faf, float, rm);
	MP_LP_CARVE(st->fbf, float, rn);
	MP_LP_CARVE(st->za, int32_t, rm);
#undef MP_LP_CARVE
	const int u8 = lp == MP_LP_UINT8;
	mp_lp_scan sa = {a, M, K, a_si, a_sk, oa, u8 ? st->lo_a : NULL, st->amax_a};
	mp_lp_scan sb = {b, N, K, b_sj, b_sk, ob, NULL, st->amax_b};
	if (ca) {
		memcpy(st->faf, ca->ff, sizeof(float) * (size_t)M);
		memcpy(st->fad, ca->fd, sizeof(double) * (size_t)M);
		memcpy(st->da, ca->d, sizeof(double) * (size_t)M);
		if (ca->za)
			memcpy(st->za, ca->za, sizeof(int32_t) * (size_t)M);
		st->ha = ca->hat;
	}
	if (cb) {
		memcpy(st->fbf, cb->ff, sizeof(float) * (size_t)N);
		memcpy(st->fbd, cb->fd, sizeof(double) * (size_t)N);
		memcpy(st->db, cb->d, sizeof(double) * (size_t)N);
		st->hb = cb->hat;
	}
	/* A: UINT8's lo into lo_a, hi into amax_a; else maxima into amax_a */
	int bad = mp_lp_scan_both(ca ? NULL : &sa, cb ? NULL : &sb, dbl);
	if (bad)
		return -1;
	const float *ae = st->dyn_a ? NULL : sc->a_scale, *be = st->dyn_b ? NULL : sc->b_scale;
	ptrdiff_t aes = st->dyn_a ? 0 : sc->a_scale_s, bes = st->dyn_b ? 0 : sc->b_scale_s;
	int ra = ca ? 0
		 : u8 ? mp_lp_scales_u8(dbl, st->dyn_a, M, st->lo_a, st->amax_a, ae, aes, st->faf,
					st->fad, st->da, st->za, &st->ha)
		      : mp_lp_scales_one(lp, dbl, st->dyn_a, M, st->amax_a, ae, aes, st->faf,
					 st->fad, st->da, &st->ha);
	if (ra || (!cb && mp_lp_scales_one(u8 ? MP_LP_INT8 : lp, dbl, st->dyn_b, N, st->amax_b, be,
					   bes, st->fbf, st->fbd, st->db, &st->hb)))
		return -1;
	const double ha = st->ha, hb = st->hb;
	/* range: the fp32 accumulator of BF16 (and bf16's own range), which
	 * alpha does not scale; the output type of all, and the double
	 * intermediates of the epilogue (acc * da * db before the product by
	 * alpha): 2 K ha hb max(1, |alpha|) */
	const double lim = dbl ? 0x1p1000 : 0x1p126;
	const double al = fabs(alpha) > 1.0 ? fabs(alpha) : 1.0;
	if (lp == MP_LP_BF16 &&
	    (ha >= 0x1p127 || hb >= 0x1p127 || (double)K * ha * hb * 2.0 >= 0x1p126))
		return -1;
	if ((double)K * ha * hb * 2.0 * al >= lim)
		return -1;
	/* a scalar factor the loop applies to one operand first, in the
	 * source type (the netlib temp = alpha*B(k,j), or (alpha*a)*b): that
	 * intermediate overflows in the loop as written even where the
	 * product would not; fall back to it */
	if (ha * al >= lim || hb * al >= lim)
		return -1;
	return 0;
}

/* See mixprec.h. */
int mp_lp_steps_ex(mp_lp lp, int is_double, long M, long N, long K, const void *a,
		   ptrdiff_t a_si, ptrdiff_t a_sk, const void *b, ptrdiff_t b_sk, ptrdiff_t b_sj,
		   const mp_lp_scales *sc, double *step_a, double *zero_a, double *step_b)
{
	mp_lp_state st;
	if (M < 0 || N < 0 || K < 0)
		return -1;
	int r = mp_lp_prepare(lp, is_double, M, N, K, a, a_si, a_sk, b, b_sk, b_sj, sc, 1.0, 0.0,
			      0.0, NULL, NULL, &st);
	if (r == 0) {
		for (long i = 0; step_a && i < M; i++)
			step_a[i] = lp == MP_LP_BF16 ? 1.0 : st.da[i];
		for (long i = 0; zero_a && i < M; i++)
			zero_a[i] = lp == MP_LP_UINT8 ? (double)st.za[i] : 0.0;
		for (long j = 0; step_b && j < N; j++)
			step_b[j] = lp == MP_LP_BF16 ? 1.0 : st.db[j];
	}
	mp_lp_state_free(&st);
	return r;
}

/* See mixprec.h. */
int mp_lp_steps(mp_lp lp, int is_double, long M, long N, long K, const void *a,
		ptrdiff_t a_si, ptrdiff_t a_sk, const void *b, ptrdiff_t b_sk, ptrdiff_t b_sj,
		const mp_lp_scales *sc, double *step_a, double *step_b)
{
	return mp_lp_steps_ex(lp, is_double, M, N, K, a, a_si, a_sk, b, b_sk, b_sj, sc, step_a,
			      NULL, step_b);
}

/* -------------------------------------------------------- epilogue */

/* See lp.h.  The operation order (lp.h conventions) is the one every
 * vector epilogue repeats, so that all give the same bits. */
void mp_lp_epilogue_generic(const mp_lp_ctx *x, const void *t, int is_i32, long ldt,
			    long i0, long j0, int mr, int nc)
{
	for (int r = 0; r < mr; r++) {
		long i = i0 + r;
		/* UINT8: sum_k (qa - za) qb = raw - za colsum(qb); both terms
		 * are integers below 2^31, so the difference is exact */
		const double z = x->za ? (double)x->za[i] : 0.0;
		for (int j = 0; j < nc; j++) {
			double v = is_i32 ? (double)((const int32_t *)t)[r * ldt + j]
					  : (double)((const float *)t)[r * ldt + j];
			if (x->za)
				v -= z * (double)x->csum[j0 + j - x->csum_j0];
			if (x->da)
				v = v * x->da[i] * x->db[j0 + j];
			v *= x->alpha;
			ptrdiff_t o = i * x->c_si + (j0 + j) * x->c_sj;
			if (x->dbl) {
				double *p = (double *)x->c + o;
				*p = x->accumulate ? *p + v : v;
			} else {
				float *p = (float *)x->c + o;
				*p = (float)(x->accumulate ? (double)*p + v : v);
			}
		}
	}
}

/* ------------------------------------------------------------ INT8 */

/* One quantized element (lp.h conventions): the operand's offset z
 * subtracted, then INT8 and UINT8 always divide by the scale (qmul_a /
 * qmul_b are 0); UINT8's A adds the row's zero point za and saturates to
 * [0, 255]. */
static inline int mp_lp_q8(const mp_lp_ctx *x, const void *p, ptrdiff_t off, double z, float ff,
			   double fd)
{
	if (x->dbl)
		return mp_q8_round(mp_lp_ldd(p, off, z) / fd);
	float y = mp_lp_ldf(p, off, z) / ff;
	return mp_q8_round((double)y);
}

static inline int mp_lp_qu8(const mp_lp_ctx *x, const void *p, ptrdiff_t off, double z,
			    float ff, double fd, int za)
{
	if (x->dbl)
		return mp_u8_round(mp_lp_ldd(p, off, z) / fd, za);
	float y = mp_lp_ldf(p, off, z) / ff;
	return mp_u8_round((double)y, za);
}

/* See lp_int.h. */
void mp_lp_i8_pack_a_generic(const mp_lp_ctx *x, int mr, int kg, int esz, long i0, long mc,
			     long k0, long kc, long kp, void *ap, int32_t *rcorr)
{
	size_t es = x->dbl ? sizeof(double) : sizeof(float);
	const int u8 = x->lp == MP_LP_UINT8;
	long nsl = (mc + mr - 1) / mr;
	for (long s = 0; s < nsl; s++)
		for (int r = 0; r < mr; r++) {
			long i = s * mr + r;
			int live = i < mc;
			const char *row = (const char *)x->a + (live ? (i0 + i) * x->a_si : 0) * (ptrdiff_t)es;
			float ff = live && !x->dbl ? x->fa_f[i0 + i] : 0;
			double fd = live && x->dbl ? x->fa_d[i0 + i] : 0;
			int za = live && u8 ? x->za[i0 + i] : 0;
			for (long k = 0; k < kp; k++) {
				int v = 0;
				if (live && k < kc)
					v = u8 ? mp_lp_qu8(x, row, (k0 + k) * x->a_sk, x->oa, ff, fd, za)
					       : mp_lp_q8(x, row, (k0 + k) * x->a_sk, x->oa, ff, fd) + 128;
				long o = s * kp * mr + (k / kg) * mr * kg + r * kg + k % kg;
				if (esz == 1)
					((uint8_t *)ap)[o] = (uint8_t)v;
				else
					((int16_t *)ap)[o] = (int16_t)v;
			}
			if (live)
				rcorr[i] = 0;
		}
}

/* See lp_int.h. */
void mp_lp_i8_pack_b_generic(const mp_lp_ctx *x, int nr, int kg, int esz, long j0, long nc,
			     long k0, long kc, long kp, void *bp, int32_t *ccorr)
{
	size_t es = x->dbl ? sizeof(double) : sizeof(float);
	const int32_t cm = mp_lp_ccorr_mul(x);
	long nsl = (nc + nr - 1) / nr;
	for (long s = 0; s < nsl; s++)
		for (int r = 0; r < nr; r++) {
			long j = s * nr + r;
			int live = j < nc;
			const char *col = (const char *)x->b + (live ? (j0 + j) * x->b_sj : 0) * (ptrdiff_t)es;
			float ff = live && !x->dbl ? x->fb_f[j0 + j] : 0;
			double fd = live && x->dbl ? x->fb_d[j0 + j] : 0;
			int32_t sum = 0;
			for (long k = 0; k < kp; k++) {
				int v = 0;
				if (live && k < kc)
					v = mp_lp_q8(x, col, (k0 + k) * x->b_sk, x->ob, ff, fd);
				sum += v;
				long o = s * kp * nr + (k / kg) * nr * kg + r * kg + k % kg;
				if (esz == 1)
					((int8_t *)bp)[o] = (int8_t)v;
				else
					((int16_t *)bp)[o] = (int16_t)v;
			}
			ccorr[j] = cm * sum;
		}
}

static long mp_lp_round_up(long v, long m)
{
	return (v + m - 1) / m * m;
}

static long mp_lp_min(long p, long q)
{
	return p < q ? p : q;
}

/* A constant operand's miss (mp_lp_ctx): the whole of B (side 1: every
 * K-chunk, every NC panel) or of A (every K-chunk, every MC block), packed
 * once in the driver's block order, block kci * nb + bi.  Returns pk, or
 * NULL when there is nothing cached to run from (no constant operand, or
 * one above the cache's limit: the driver packs as usual). */
static mp_lp_packed *mp_lp_i8_fill(const mp_lp_ctx *x, mp_lp_packed *pk, int side,
				   const mp_gemm_kernel *k, mp_lp_pack_fn pf, long KC, long bsz)
{
	if (!mp_lp_packed_fill(pk))
		return pk;
	const long n = side ? x->N : x->M, r = side ? k->nr : k->mr;
	const long nkc = (x->K + KC - 1) / KC, nb = (n + bsz - 1) / bsz;
	mp_lp_packed_reserve(pk, nkc * nb);
	for (long kci = 0; kci < nkc; kci++) {
		long kp = mp_lp_round_up(mp_lp_min(KC, x->K - kci * KC), k->kg);
		for (long bi = 0; bi < nb; bi++) {
			long w = mp_lp_round_up(mp_lp_min(bsz, n - bi * bsz), r);
			mp_lp_packed_add(pk, kci * nb + bi, (size_t)(w * kp * k->esz), (size_t)w);
		}
	}
	if (mp_lp_packed_commit(pk))
		return NULL;
	for (long kci = 0; kci < nkc; kci++) {
		long k0 = kci * KC, kc = mp_lp_min(KC, x->K - k0), kp = mp_lp_round_up(kc, k->kg);
		for (long bi = 0; bi < nb; bi++) {
			long b = kci * nb + bi;
			pf(x, (int)r, k->kg, k->esz, bi * bsz, mp_lp_min(bsz, n - bi * bsz), k0, kc, kp,
			   mp_lp_packed_blk(pk, b), mp_lp_packed_corr(pk, b));
		}
	}
	pk->ready = 1;
	return pk;
}

/* The part [i0, i1) x [j0, j1) of the INT8 / UINT8 contraction (bounds
 * multiples of k->mr / k->nr, or M / N): for each K-chunk (int32
 * exactness), each NC panel of B meeting the part (quantized into the
 * packed layout), each MC block of A (likewise), each tile: the kernel
 * family's tile into an int32 buffer, then the epilogue (accumulating from
 * the second chunk on).  UINT8: the tiles get zeros for ccorr (A is packed
 * as q itself, so they compute the raw sum qa qb) and the epilogue
 * subtracts za_i colsum_j, from the B packer's ccorr.  A constant operand
 * (pka / pkb) runs from its cached blocks, from the part's first sliver
 * in the block, instead of packing: the same packers made them, so the
 * bits are the same.  The blocking is the one of the whole call. */
typedef struct mp_lp_i8_job {
	const mp_lp_ctx *x;
	const mp_gemm_kernel *k;
	mp_lp_pack_fn pa, pb;
	mp_lp_epi_fn epi;
	const mp_lp_packed *pka, *pkb;
	long mcb, ncb;
} mp_lp_i8_job;

static void mp_lp_i8_range(const mp_lp_i8_job *jb_, long i0, long i1, long j0, long j1)
{
	mp_lp_ctx x = *jb_->x;
	const mp_gemm_kernel *k = jb_->k;
	const mp_lp_packed *pka = jb_->pka, *pkb = jb_->pkb;
	const long mcb = jb_->mcb, ncb = jb_->ncb;
	const int u8 = x.lp == MP_LP_UINT8;
	const long KC = mp_lp_kc(x.lp);
	long kpm = mp_lp_round_up(mp_lp_min(x.K, KC), k->kg);
	const long nib = (x.M + mcb - 1) / mcb, njb = (x.N + ncb - 1) / ncb;
	const long mcp = mp_lp_min(mcb, mp_lp_round_up(i1 - i0, k->mr));
	const long ncp = mp_lp_min(ncb, mp_lp_round_up(j1 - j0, k->nr));
	char *ap = pka ? NULL : mp_scratch(MP_SCR_A, (size_t)(mcp * kpm * k->esz));
	char *bp = pkb ? NULL : mp_scratch(MP_SCR_B, (size_t)(ncp * kpm * k->esz));
	int32_t *rcorr = pka ? NULL : mp_scratch(MP_SCR_RCORR, sizeof(int32_t) * (size_t)mcp);
	int32_t *ccorr = pkb ? NULL : mp_scratch(MP_SCR_CCORR, sizeof(int32_t) * (size_t)ncp);
	int32_t *zc = mp_scratch(MP_SCR_Z, sizeof(int32_t) * (size_t)ncp);
	int32_t *t = mp_scratch(MP_SCR_T, sizeof(int32_t) * (size_t)(k->mr * k->nr));
	memset(zc, 0, sizeof(int32_t) * (size_t)ncp);
	mp_gemm_args tg;
	memset(&tg, 0, sizeof(tg));
	tg.c = t;
	tg.c_si = k->nr;
	tg.c_sj = 1;
	for (long k0 = 0, kci = 0; k0 < x.K; k0 += KC, kci++) {
		long kc = mp_lp_min(KC, x.K - k0);
		long kp = mp_lp_round_up(kc, k->kg);
		tg.K = kc;
		if (k0 > 0)
			x.accumulate = 1;
		for (long jb = j0 / ncb; jb < njb && jb * ncb < j1; jb++) {
			long jc = jb * ncb > j0 ? jb * ncb : j0;
			long nc = mp_lp_min(mp_lp_min((jb + 1) * ncb, x.N), j1) - jc;
			const char *bpan;
			const int32_t *cc;
			if (pkb) {
				bpan = (const char *)mp_lp_packed_blk(pkb, kci * njb + jb) +
				       (jc - jb * ncb) * kp * k->esz;
				cc = mp_lp_packed_corr(pkb, kci * njb + jb) + (jc - jb * ncb);
			} else {
				jb_->pb(&x, k->nr, k->kg, k->esz, jc, nc, k0, kc, kp, bp, ccorr);
				bpan = bp;
				cc = ccorr;
			}
			const int32_t *tcorr = u8 ? zc : cc;
			if (u8) {
				x.csum = cc;
				x.csum_j0 = jc;
			}
			for (long ib = i0 / mcb; ib < nib && ib * mcb < i1; ib++) {
				long ic = ib * mcb > i0 ? ib * mcb : i0;
				long mc = mp_lp_min(mp_lp_min((ib + 1) * mcb, x.M), i1) - ic;
				const char *ablk;
				const int32_t *rc;
				if (pka) {
					ablk = (const char *)mp_lp_packed_blk(pka, kci * nib + ib) +
					       (ic - ib * mcb) * kp * k->esz;
					rc = mp_lp_packed_corr(pka, kci * nib + ib) + (ic - ib * mcb);
				} else {
					jb_->pa(&x, k->mr, k->kg, k->esz, ic, mc, k0, kc, kp, ap, rcorr);
					ablk = ap;
					rc = rcorr;
				}
				for (long jr = 0; jr < nc; jr += k->nr) {
					const char *bs = bpan + jr * kp * k->esz;
					int ncols = (int)mp_lp_min(k->nr, nc - jr);
					for (long ir = 0; ir < mc; ir += k->mr) {
						int mr = (int)mp_lp_min(k->mr, mc - ir);
						k->tile(&tg, kp / k->kg, ablk + ir * kp * k->esz, bs,
							rc + ir, tcorr + jr, 0, 0, mr, ncols);
						jb_->epi(&x, t, 1, k->nr, ic + ir, jc + jr, mr, ncols);
					}
				}
			}
		}
	}
}

/* See lp.h. */
void mp_lp_par_part(const mp_lp_ctx *x, long mr, long nr, double a_cost, double b_cost, int t,
		    int n, long *i0, long *i1, long *j0, long *j1)
{
	int tm, tn;
	mp_par_grid(n, x->M, x->N, mr, nr, a_cost, b_cost, &tm, &tn);
	*i0 = *i1 = *j0 = *j1 = 0;
	if (t >= tm * tn)
		return;
	mp_par_part(x->M, mr, t / tn, tm, i0, i1);
	mp_par_part(x->N, nr, t % tn, tn, j0, j1);
}

/* See lp.h. */
int mp_lp_par_threads(const mp_lp_ctx *x)
{
	return mp_par_threads((double)x->M * (double)x->N * (double)x->K);
}

static void mp_lp_i8_part(void *p, int t, int n)
{
	const mp_lp_i8_job *job = p;
	long i0, i1, j0, j1;
	/* packing quantizes: a few times the cost of an int8 copy */
	mp_lp_par_part(job->x, job->k->mr, job->k->nr, 4.0, 4.0, t, n, &i0, &i1, &j0, &j1);
	if (i0 < i1 && j0 < j1)
		mp_lp_i8_range(job, i0, i1, j0, j1);
}

/* See lp_int.h.  Constant operands missing from the cache are packed
 * whole first (on the calling thread), then the output is split over the
 * team (mp_par.h) in rectangles that each run the loops above. */
void mp_lp_i8_driver(const mp_lp_ctx *x, const mp_gemm_kernel *k, mp_lp_pack_fn pa,
		     mp_lp_pack_fn pb, mp_lp_epi_fn epi)
{
	const long KC = mp_lp_kc(x->lp);
	long mcb = mp_lp_min(mp_lp_round_up(k->mc, k->mr), mp_lp_round_up(x->M, k->mr));
	long ncb = mp_lp_min(mp_lp_round_up(k->nc, k->nr), mp_lp_round_up(x->N, k->nr));
	mp_lp_i8_job job = {x, k, pa, pb, epi, NULL, NULL, mcb, ncb};
	job.pka = mp_lp_i8_fill(x, x->pk_a, 0, k, pa, KC, mcb);
	job.pkb = mp_lp_i8_fill(x, x->pk_b, 1, k, pb, KC, ncb);
	mp_par_run(mp_lp_par_threads(x), mp_lp_i8_part, &job);
}

/* See lp.h. */
mp_lp_packed *mp_lp_fill_blocks(const mp_lp_ctx *x, mp_lp_packed *pk, int side, long kp,
				long bsz, long r, size_t esz, mp_lp_block_pack_fn pack)
{
	if (!mp_lp_packed_fill(pk))
		return pk;
	const long n = side ? x->N : x->M;
	const long nb = (n + bsz - 1) / bsz;
	mp_lp_packed_reserve(pk, nb);
	for (long bi = 0; bi < nb; bi++) {
		long w = (mp_lp_min(bsz, n - bi * bsz) + r - 1) / r * r;
		mp_lp_packed_add(pk, bi, (size_t)(w * kp) * esz, 0);
	}
	if (mp_lp_packed_commit(pk))
		return NULL;
	for (long bi = 0; bi < nb; bi++) {
		long n0 = bi * bsz;
		pack(x, n0, mp_lp_min(bsz, n - n0), kp, mp_lp_packed_blk(pk, bi));
	}
	pk->ready = 1;
	return pk;
}

/* ---------------------------------------------- BF16 / FP8, scalar */

#define MP_LP_REF_NB 64

/* The conversions of the reference: columns [j0, j0+nc) of B into bq
 * (column j at j*kp), row i of A into arow; zeros beyond K. */
static void mp_lp_ref_pack_b(const mp_lp_ctx *x, long j0, int nc, long kp, float *bq)
{
	size_t es = x->dbl ? sizeof(double) : sizeof(float);
	for (int j = 0; j < nc; j++) {
		const char *col = (const char *)x->b + (j0 + j) * x->b_sj * (ptrdiff_t)es;
		float ff = x->fb_f ? x->fb_f[j0 + j] : 0;
		double fd = x->fb_d ? x->fb_d[j0 + j] : 0;
		for (long k = 0; k < kp; k++)
			bq[j * kp + k] = k < x->K ? mp_lp_qbf(x, x->qmul_b, col, k * x->b_sk, x->ob, ff, fd)
						  : 0.0f;
	}
}

static void mp_lp_ref_pack_a(const mp_lp_ctx *x, long i, long kp, float *arow)
{
	size_t es = x->dbl ? sizeof(double) : sizeof(float);
	const char *row = (const char *)x->a + i * x->a_si * (ptrdiff_t)es;
	float ff = x->fa_f ? x->fa_f[i] : 0;
	double fd = x->fa_d ? x->fa_d[i] : 0;
	for (long k = 0; k < kp; k++)
		arow[k] = k < x->K ? mp_lp_qbf(x, x->qmul_a, row, k * x->a_sk, x->oa, ff, fd) : 0.0f;
}

/* The scalar reference of the vdpbf16ps path: the same conversions, the
 * same fp32 operation sequence per output (odd element of a pair first,
 * fused, denormals flushed), the same epilogue.  Constant operands are
 * cached like the kernels' (B per panel of MP_LP_REF_NB columns, A per
 * row), so that every implementation keeps the same promise. */
static void mp_lp_bf16_ref(const mp_lp_ctx *x)
{
	const long K = x->K, kp = (K + 1) & ~1L;
	const long njb = (x->N + MP_LP_REF_NB - 1) / MP_LP_REF_NB;
	mp_lp_packed *pka = x->pk_a, *pkb = x->pk_b;
	if (mp_lp_packed_fill(pka)) {
		mp_lp_packed_reserve(pka, x->M);
		for (long i = 0; i < x->M; i++)
			mp_lp_packed_add(pka, i, sizeof(float) * (size_t)kp, 0);
		if (mp_lp_packed_commit(pka)) {
			pka = NULL;
		} else {
			for (long i = 0; i < x->M; i++)
				mp_lp_ref_pack_a(x, i, kp, mp_lp_packed_blk(pka, i));
			pka->ready = 1;
		}
	}
	if (mp_lp_packed_fill(pkb)) {
		mp_lp_packed_reserve(pkb, njb);
		for (long jb = 0; jb < njb; jb++) {
			long nc = mp_lp_min(MP_LP_REF_NB, x->N - jb * MP_LP_REF_NB);
			mp_lp_packed_add(pkb, jb, sizeof(float) * (size_t)(kp * nc), 0);
		}
		if (mp_lp_packed_commit(pkb)) {
			pkb = NULL;
		} else {
			for (long jb = 0; jb < njb; jb++)
				mp_lp_ref_pack_b(x, jb * MP_LP_REF_NB,
						 (int)mp_lp_min(MP_LP_REF_NB, x->N - jb * MP_LP_REF_NB), kp,
						 mp_lp_packed_blk(pkb, jb));
			pkb->ready = 1;
		}
	}
	float *arow = pka ? NULL : mp_scratch(MP_SCR_A, sizeof(float) * (size_t)kp);
	float *bqb = pkb ? NULL : mp_scratch(MP_SCR_B, sizeof(float) * (size_t)(kp * MP_LP_REF_NB));
	float t[MP_LP_REF_NB];
	for (long jc = 0, jb = 0; jc < x->N; jc += MP_LP_REF_NB, jb++) {
		int nc = (int)mp_lp_min(MP_LP_REF_NB, x->N - jc);
		const float *bq = bqb;
		if (pkb)
			bq = mp_lp_packed_blk(pkb, jb);
		else
			mp_lp_ref_pack_b(x, jc, nc, kp, bqb);
		for (long i = 0; i < x->M; i++) {
			const float *ar = arow;
			if (pka)
				ar = mp_lp_packed_blk(pka, i);
			else
				mp_lp_ref_pack_a(x, i, kp, arow);
			for (int j = 0; j < nc; j++) {
				const float *bc = bq + j * kp;
				float acc = 0.0f;
				for (long p = 0; p < kp; p += 2) {
					acc = mp_bf16_fma_ftz(ar[p + 1], bc[p + 1], acc);
					acc = mp_bf16_fma_ftz(ar[p], bc[p], acc);
				}
				t[j] = acc;
			}
			mp_lp_epilogue_generic(x, t, 0, 0, i, jc, 1, nc);
		}
	}
}

/* ------------------------------------------------------------- API */

/* The cache key of operand side (0: A, 1: B) of a call. */
/* A sample of the operand's contents: the bits of MP_LP_FP_SAMPLES
 * elements at fixed pseudo-random positions (and the four corners).  Not
 * a proof that the operand is unchanged -- the caller promised that -- but
 * it catches the common way to break the promise without knowing it: the
 * array freed and another one allocated at the same address with the same
 * shape (new weights), which would otherwise hit the old packed form. */
/* Sample t of an n x K operand: the four corners, then positions from a
 * xorshift64* sequence with a fixed seed (*x: its state, advanced once per
 * sample from t = 4 on), the same on every call. */
static void mp_lp_fp_step(long n, long K, int t, uint64_t *x, long *r, long *k)
{
	if (t < 4) {
		*r = t & 1 ? n - 1 : 0;
		*k = t & 2 ? K - 1 : 0;
		return;
	}
	*x ^= *x >> 12, *x ^= *x << 25, *x ^= *x >> 27;
	uint64_t y = *x * 0x2545f4914f6cdd1dull;
	*r = (long)((y >> 32) % (uint64_t)n);
	*k = (long)((y & 0xffffffffu) % (uint64_t)K);
}

#define MP_LP_FP_SEED 0x9e3779b97f4a7c15ull

/* See lp.h (for the tests: position t alone). */
void mp_lp_fp_pos(long n, long K, int t, long *r, long *k)
{
	uint64_t x = MP_LP_FP_SEED;
	for (int q = 0; q <= t; q++)
		mp_lp_fp_step(n, K, q, &x, r, k);
}

/* See lp.h. */
uint64_t mp_lp_fingerprint(const void *p, int esz, long n, long K, ptrdiff_t s_n, ptrdiff_t s_k)
{
	uint64_t h = 0xcbf29ce484222325ull, x = MP_LP_FP_SEED;
	if (n <= 0 || K <= 0)
		return h;
	for (int t = 0; t < MP_LP_FP_SAMPLES; t++) {
		long r, k;
		mp_lp_fp_step(n, K, t, &x, &r, &k);
		ptrdiff_t o = r * s_n + k * s_k;
		uint64_t v = esz == 8 ? mp_f64_bits(((const double *)p)[o])
			   : esz == 4 ? mp_f32_bits(((const float *)p)[o])
				      : ((const uint8_t *)p)[o];
		h = (h ^ v) * 0x100000001b3ull;
	}
	return h;
}

static mp_lp_key mp_lp_key_of(int side, mp_lp_impl impl, mp_lp lp, int dbl, int dyn,
			      const void *p, long n, long K, ptrdiff_t s_n, ptrdiff_t s_k,
			      const float *e, ptrdiff_t es, double z)
{
	mp_lp_key k = {
		.side = side, .impl = impl, .lp = lp, .dbl = dbl != 0, .dyn = dyn, .p = p,
		.n = n, .K = K, .s_n = s_n, .s_k = s_k, .e = dyn ? NULL : e, .es = dyn ? 0 : es,
		.z = z,
	};
	k.fp = mp_lp_fingerprint(p, dbl ? 8 : 4, n, K, s_n, s_k);
	return k;
}

/* An offset usable for the source type: finite and, for float sources, a
 * float value (the subtraction is then the C expression x - z in float;
 * anything else would be a rounding the caller did not write). */
static int mp_lp_zero_ok(double z, int dbl)
{
	if (!(fabs(z) <= DBL_MAX))
		return 0;
	return dbl || (fabs(z) <= FLT_MAX && (double)(float)z == z);
}

/* See mixprec.h.  Constant operands (opt->flags): looked up before the
 * scan, which then skips them; a miss with finite inputs gets a new entry
 * holding the scales just computed, the driver packs the operand into it
 * and runs from it, and it is shared after the call (lp_cache.c).
 * Offsets (opt->a_zero / b_zero) reach every reader of the operands
 * through mp_lp_prepare's scan and the context (x.oa / x.ob). */
int mp_gemm_lp_ex(mp_kernel kern, mp_lp lp, int is_double, long M, long N, long K,
		  const void *a, ptrdiff_t a_si, ptrdiff_t a_sk,
		  const void *b, ptrdiff_t b_sk, ptrdiff_t b_sj,
		  void *c, ptrdiff_t c_si, ptrdiff_t c_sj, int accumulate,
		  const mp_lp_scales *sc, const mp_lp_opts *opt)
{
	const double alpha = opt ? opt->alpha : 1.0;
	const unsigned flags = opt ? opt->flags : 0;
	const double oa = opt ? opt->a_zero : 0.0, ob = opt ? opt->b_zero : 0.0;
	if (M < 0 || N < 0 || K < 0)
		return -1;
	if ((flags & ~(unsigned)(MP_LP_CONST_A | MP_LP_CONST_B)) || !(fabs(alpha) <= DBL_MAX))
		return -1;
	if (!mp_lp_zero_ok(oa, is_double) || !mp_lp_zero_ok(ob, is_double))
		return -1;
	mp_lp_impl impl = mp_lp_pick(kern, lp);
	if (impl == MP_LPI_NONE)
		return -1;
	if (M == 0 || N == 0)
		return 0;
	/* (K == 0 packs nothing: nothing to cache) */
	/* the operands' scale modes (as mp_lp_prepare's); BF16 ignores scales */
	const int all_dyn = !sc || sc->dynamic || lp == MP_LP_BF16;
	const int dyn_a = all_dyn || !sc->a_scale, dyn_b = all_dyn || !sc->b_scale;
	mp_lp_key ka, kb;
	mp_lp_packed *ca = NULL, *cb = NULL;
	unsigned long ea = 0, eb = 0;
	if (K > 0 && (flags & MP_LP_CONST_A)) {
		ka = mp_lp_key_of(0, impl, lp, is_double, dyn_a, a, M, K, a_si, a_sk,
				  dyn_a ? NULL : sc->a_scale, dyn_a ? 0 : sc->a_scale_s, oa);
		ca = mp_lp_cache_get(&ka, &ea);
	}
	if (K > 0 && (flags & MP_LP_CONST_B)) {
		kb = mp_lp_key_of(1, impl, lp, is_double, dyn_b, b, N, K, b_sj, b_sk,
				  dyn_b ? NULL : sc->b_scale, dyn_b ? 0 : sc->b_scale_s, ob);
		cb = mp_lp_cache_get(&kb, &eb);
	}
	mp_lp_state st;
	if (mp_lp_prepare(lp, is_double, M, N, K, a, a_si, a_sk, b, b_sk, b_sj, sc, alpha, oa, ob,
			  ca, cb, &st)) {
		mp_lp_cache_done(ca);
		mp_lp_cache_done(cb);
		mp_lp_state_free(&st);
		return -1;
	}
	/* misses: the operands (after their offsets) were finite, their
	 * scales valid */
	if (K > 0 && (flags & MP_LP_CONST_A) && !ca)
		ca = mp_lp_cache_new(&ka, ea, st.faf, st.fad, st.da,
				     lp == MP_LP_UINT8 ? st.za : NULL, st.ha);
	if (K > 0 && (flags & MP_LP_CONST_B) && !cb)
		cb = mp_lp_cache_new(&kb, eb, st.fbf, st.fbd, st.db, NULL, st.hb);
	/* FP8 dynamic quantizes by multiplying with its multiplier, explicit
	 * scales (and INT8 / UINT8 always) by dividing: per operand */
	const int fp8 = lp == MP_LP_FP8_E4M3 || lp == MP_LP_FP8_E5M2;
	mp_lp_ctx x = {
		.lp = lp, .dbl = is_double != 0, .M = M, .N = N, .K = K,
		.a = a, .a_si = a_si, .a_sk = a_sk, .b = b, .b_sk = b_sk, .b_sj = b_sj,
		.c = c, .c_si = c_si, .c_sj = c_sj, .accumulate = accumulate != 0,
		.qmul_a = fp8 && st.dyn_a, .qmul_b = fp8 && st.dyn_b,
		.fa_f = st.faf, .fb_f = st.fbf, .fa_d = st.fad, .fb_d = st.fbd,
		.da = lp == MP_LP_BF16 ? NULL : st.da, .db = lp == MP_LP_BF16 ? NULL : st.db,
		.alpha = alpha, .oa = oa, .ob = ob,
		.za = lp == MP_LP_UINT8 ? st.za : NULL,
		.pk_a = ca, .pk_b = cb,
	};
	if (K == 0) {
		if (!x.accumulate)
			for (long i = 0; i < M; i++)
				for (long j = 0; j < N; j++) {
					ptrdiff_t o = i * c_si + j * c_sj;
					if (x.dbl)
						((double *)c)[o] = 0.0;
					else
						((float *)c)[o] = 0.0f;
				}
		mp_lp_state_free(&st);
		return 0;
	}
	switch (impl) {
#if defined(__x86_64__)
	case MP_LPI_I8_AVX512VNNI:
		mp_lp_i8_run__avx512vnni(&x);
		break;
	case MP_LPI_I8_AVX2:
		mp_lp_i8_run__avx2(&x);
		break;
	case MP_LPI_BF16_AVX512BF16:
		mp_lp_bf16_run__avx512bf16(&x);
		break;
	case MP_LPI_BF16_AVX2:
		mp_lp_bf16_run__avx2(&x);
		break;
#endif
#if defined(__aarch64__)
	case MP_LPI_I8_I8MM:
		mp_lp_i8_driver(&x, &mp_x8_gemm_kernel__i8mm, mp_lp_i8_pack_a_generic,
				mp_lp_i8_pack_b_generic, mp_lp_epilogue_generic);
		break;
	case MP_LPI_BF16_NEON:
	case MP_LPI_BF16_BFMLAL:
		mp_lp_bf16_run__neon(&x, impl == MP_LPI_BF16_BFMLAL);
		break;
#endif
	case MP_LPI_BF16_SCALAR:
		mp_lp_bf16_ref(&x);
		break;
	default:
		mp_lp_i8_driver(&x, &mp_x8_gemm_kernel__scalar, mp_lp_i8_pack_a_generic,
				mp_lp_i8_pack_b_generic, mp_lp_epilogue_generic);
		break;
	}
	mp_lp_cache_done(ca);
	mp_lp_cache_done(cb);
	mp_lp_state_free(&st);
	return 0;
}

/* See mixprec.h. */
int mp_gemm_lp(mp_kernel kern, mp_lp lp, int is_double, long M, long N, long K,
	       const void *a, ptrdiff_t a_si, ptrdiff_t a_sk,
	       const void *b, ptrdiff_t b_sk, ptrdiff_t b_sj,
	       void *c, ptrdiff_t c_si, ptrdiff_t c_sj, int accumulate,
	       const mp_lp_scales *sc)
{
	return mp_gemm_lp_ex(kern, lp, is_double, M, N, K, a, a_si, a_sk, b, b_sk, b_sj, c, c_si,
			     c_sj, accumulate, sc, NULL);
}

/* ---------------------------------------------------- error bound */

/* Bound of |(q(x) - za) * step - x| for one element (docs/error-bounds.md).
 * za: UINT8's zero point (0 elsewhere). */
static long double mp_lp_qerr(mp_lp lp, int dbl, long double x, long double s, long double za)
{
	const long double us = dbl ? 0x1p-53L : 0x1p-24L;
	const long double tiny = dbl ? 0x1p-1074L : 0x1p-149L;
	long double ax = fabsl(x);
	switch (lp) {
	case MP_LP_INT8:
	case MP_LP_UINT8: {
		/* codes available on x's side of zero: 127 (INT8); UINT8 255 -
		 * za above it, za below */
		long double L = lp == MP_LP_INT8 ? 127 : x < 0 ? za : 255 - za;
		long double sat = (1 + us) * ax - L * s;
		long double q = s / 2 > sat ? s / 2 : sat;
		return us * ax + q + s * tiny;
	}
	case MP_LP_BF16:
		return ax < 0x1p-126L ? ax : 0x1p-8L * ax;
	default: {
		mp_fp8_fmt f = mp_fp8_format(lp == MP_LP_FP8_E5M2);
		long double sat = (1 + us) * ax / s - f.max;
		sat = sat > 0 ? sat : 0;
		return (us + (long double)f.unit * (1 + us)) * ax +
		       s * ((long double)f.spacing / 2 + sat + tiny);
	}
	}
}

/* See mixprec.h. */
double mp_lp_error_bound_ex(mp_lp lp, int is_double, long K, const void *a_row, ptrdiff_t a_sk,
			    const void *b_col, ptrdiff_t b_sk, double step_a, double zero_a,
			    double step_b, double c_old, int accumulate, double alpha)
{
	const long double u32 = 0x1p-24L, ud = 0x1p-53L;
	const long double uo = is_double ? 0x1p-53L : 0x1p-24L;
	const mp_lp lpb = lp == MP_LP_UINT8 ? MP_LP_INT8 : lp; /* UINT8's B is INT8 */
	const int integer = lp == MP_LP_INT8 || lp == MP_LP_UINT8;
	long double eprod = 0, P = 0;
	for (long k = 0; k < K; k++) {
		long double av = is_double ? ((const double *)a_row)[k * a_sk]
					   : ((const float *)a_row)[k * a_sk];
		long double bv = is_double ? ((const double *)b_col)[k * b_sk]
					   : ((const float *)b_col)[k * b_sk];
		long double ea = mp_lp_qerr(lp, is_double, av, step_a, zero_a);
		long double eb = mp_lp_qerr(lpb, is_double, bv, step_b, 0);
		eprod += fabsl(av) * eb + fabsl(bv) * ea + ea * eb;
		P += (fabsl(av) + ea) * (fabsl(bv) + eb);
	}
	long double acc = 0, ftz = 0;
	long nround = 1; /* roundings of the epilogue into the output */
	if (integer) {
		nround = (K + mp_lp_kc(lp) - 1) / mp_lp_kc(lp);
		nround = nround < 1 ? 1 : nround;
	} else {
		long double ku = (long double)K * u32;
		if (ku >= 0.5L)
			return INFINITY;
		acc = ku / (1 - ku) * P;
		if (lp == MP_LP_BF16)
			ftz = 2.0L * (long double)K * 0x1p-126L;
	}
	/* alpha scales the quantization and accumulation errors and what the
	 * epilogue rounds */
	const long double al = fabsl((long double)alpha);
	long double mag = al * (P + acc + ftz) + (accumulate ? fabsl((long double)c_old) : 0);
	/* relative rounding of the epilogue (five double roundings at most:
	 * FP8's 1/m steps, * da, * db, * alpha, + c; then the output type),
	 * underflow of the output type and of the three double products (an
	 * absolute error of the first is multiplied by db and alpha, of the
	 * second by alpha) */
	long double tiny_o = is_double ? 0x1p-1074L : 0x1p-149L;
	long double epi = (long double)nround *
			  ((uo + 7 * ud) * mag + tiny_o +
			   0x1p-1074L * (1 + al * (1 + (long double)step_b)));
	long double bound = (al * (eprod + acc + ftz) + epi) * (1 + 0x1p-30L);
	return (double)bound * (1.0 + 0x1p-40);
}

/* See mixprec.h. */
double mp_lp_error_bound(mp_lp lp, int is_double, long K, const void *a_row, ptrdiff_t a_sk,
			 const void *b_col, ptrdiff_t b_sk, double step_a, double step_b,
			 double c_old, int accumulate)
{
	return mp_lp_error_bound_ex(lp, is_double, K, a_row, a_sk, b_col, b_sk, step_a, 0.0,
				    step_b, c_old, accumulate, 1.0);
}
