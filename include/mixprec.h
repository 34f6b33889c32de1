/* mixprec.h -- the one public header of mixprec.
 *
 * 1. The pragma (read by the compiler plugins; plain C compilers ignore it):
 *
 *      #pragma mixprec(int8, acc=int32)
 *      for (int i = 0; i < M; i++)
 *        for (int j = 0; j < N; j++) {
 *          int32_t s = bias[j];
 *          for (int k = 0; k < K; k++) s += (x[i*K + k] - zx) * w[j*K + k];
 *          y[i*N + j] = mp_requant_fp32(s, scale, zy, -128, 127);
 *        }
 *
 *    See docs/pragma.md for the full syntax and the guarantees.
 *
 * 2. Reference helpers for the loop bodies (static inline, exact, the same
 *    with and without the plugin): requantization in the three usual
 *    rounding families.
 *
 * 3. The runtime the plugins call (libmixprec): int8 contraction kernels,
 *    CPU dispatch, and the entry points of generated code.
 */
#ifndef MIXPREC_H
#define MIXPREC_H

#include <stddef.h>
#include <stdint.h>
#include <math.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define MP_CONST_FN __attribute__((const, unused))
#else
#define MP_CONST_FN
#endif

/* ---------------------------------------------------- reference helpers */

/* Clamp to [lo, hi]. */
static inline MP_CONST_FN int32_t mp_clamp_i32(int32_t x, int32_t lo, int32_t hi)
{
	return x < lo ? lo : x > hi ? hi : x;
}

/* Float-scale requantization (XNNPACK "fp32", oneDNN): round half to even. */
static inline MP_CONST_FN int32_t mp_requant_fp32(int32_t acc, float scale, int32_t zp,
						  int32_t qmin, int32_t qmax)
{
	float v = (float)acc * scale;
	float lo = (float)(qmin - zp), hi = (float)(qmax - zp);
	v = v < lo ? lo : v > hi ? hi : v;
	return (int32_t)nearbyintf(v) + zp;
}

/* gemmlowp SaturatingRoundingDoublingHighMul. */
static inline MP_CONST_FN int32_t mp_srdhm(int32_t a, int32_t b)
{
	if (a == INT32_MIN && b == INT32_MIN)
		return INT32_MAX;
	int64_t ab = (int64_t)a * b;
	int64_t nudge = ab >= 0 ? (1 << 30) : (1 - (1 << 30));
	return (int32_t)((ab + nudge) / ((int64_t)1 << 31));
}

/* gemmlowp RoundingDivideByPOT (half away from zero). */
static inline MP_CONST_FN int32_t mp_rdbpot(int32_t x, int e)
{
	int32_t mask = (int32_t)(((int64_t)1 << e) - 1);
	int32_t rem = x & mask;
	int32_t thr = (mask >> 1) + (x < 0);
	return (x >> e) + (rem > thr);
}

/* gemmlowp / TFLite fixed-point requantization ("double rounding"). */
static inline MP_CONST_FN int32_t mp_requant_gemmlowp(int32_t acc, int32_t qm, int shift,
						      int32_t zp, int32_t qmin, int32_t qmax)
{
	int left = shift > 0 ? shift : 0, right = shift > 0 ? 0 : -shift;
	int32_t v = mp_rdbpot(mp_srdhm((int32_t)((uint32_t)acc << left), qm), right) + zp;
	return mp_clamp_i32(v, qmin, qmax);
}

/* Single rounding (ruy, XNNPACK "rndnu"): half toward +infinity. */
static inline MP_CONST_FN int32_t mp_requant_rndnu(int32_t acc, int32_t qm, int shift,
						   int32_t zp, int32_t qmin, int32_t qmax)
{
	int64_t v = ((int64_t)acc * qm + ((int64_t)1 << (30 - shift))) >> (31 - shift);
	return mp_clamp_i32((int32_t)v + zp, qmin, qmax);
}

/* ------------------------------------------------------------ runtime */

/* Kernel families, in the order of preference.  MIXPREC_TARGET=scalar|avx2|
 * avx512vnni (environment) forces one; a forced kernel the CPU lacks makes
 * mp_kernel_select return MP_KERNEL_NONE. */
typedef enum mp_kernel {
	MP_KERNEL_NONE = -1,
	MP_KERNEL_SCALAR = 0,
	MP_KERNEL_AVX2 = 1,
	MP_KERNEL_AVX512VNNI = 2,
	MP_KERNEL_COUNT = 3
} mp_kernel;

mp_kernel mp_kernel_select(void);
int mp_kernel_available(mp_kernel k);
const char *mp_kernel_name(mp_kernel k);

/* Operand element types. */
enum { MP_DT_S8 = 0, MP_DT_U8 = 1 };

/* The int8 contraction.  For 0 <= i < M, 0 <= j < N:
 *
 *   S(i,j) = sum_{0<=k<K} (A(i,k) - za) * (B(k,j) - zb)        int32, wrapping
 *   A(i,k) = a[i*a_si + k*a_sk]   (int8_t or uint8_t by a_dt)
 *   B(k,j) = b[k*b_sk + j*b_sj]   (likewise)
 *   c[i*c_si + j*c_sj] = S(i,j)            accumulate == 0
 *   c[i*c_si + j*c_sj] += S(i,j)           accumulate != 0
 *
 * Strides are in elements and may be any value (negative, zero for A and
 * B); the (i,j) -> c mapping must be injective.  M, N, K >= 0.
 * Exact: the result equals the plain C loop in int32 arithmetic. */
void mp_gemm_x8(mp_kernel kern, long M, long N, long K,
		const void *a, int a_dt, ptrdiff_t a_si, ptrdiff_t a_sk, int32_t za,
		const void *b, int b_dt, ptrdiff_t b_sk, ptrdiff_t b_sj, int32_t zb,
		int32_t *c, ptrdiff_t c_si, ptrdiff_t c_sj, int accumulate);

/* Counters of the generated code's decisions (process-wide). */
typedef struct mp_stats {
	long fast;        /* nests run by the kernels */
	long fallback;    /* nests that ran the original loop */
	long last_kernel; /* mp_kernel of the last fast call */
} mp_stats;
void mp_stats_get(mp_stats *s);
void mp_stats_reset(void);

/* Entry points of plugin-generated code.  Not for direct use; the argument
 * list is versioned by its first argument (MP_NEST_ABI) and documented in
 * runtime/nest.c. */
#define MP_NEST_ABI 1
void *__mixprec_i8_nest(long abi, long nargs, ...);
void __mixprec_release(void *tile);
void *__mixprec_tile_add(long abi, long nargs, ...);

#ifdef __cplusplus
}
#endif
#endif
