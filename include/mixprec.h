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
 *
 * __MIXPREC__ is defined by both plugins (GCC's and clang's) while they
 * compile a file: the plugin's version as MAJOR*10000 + MINOR*100 + PATCH
 * (100 for 0.1.0).  Under GCC also in -E output; under clang not under -E
 * (clang creates no plugin action there).  Code may use it to tell that its
 * pragmas are read:
 *
 *      #if defined(__MIXPREC__) && __MIXPREC__ >= 100
 *
 * Without a plugin it is undefined and the pragmas are ignored.
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
static __inline__ MP_CONST_FN int32_t mp_clamp_i32(int32_t x, int32_t lo, int32_t hi)
{
	return x < lo ? lo : x > hi ? hi : x;
}

/* Float-scale requantization (XNNPACK "fp32", oneDNN): round half to even. */
static __inline__ MP_CONST_FN int32_t mp_requant_fp32(int32_t acc, float scale, int32_t zp,
						  int32_t qmin, int32_t qmax)
{
	float v = (float)acc * scale;
	float lo = (float)(qmin - zp), hi = (float)(qmax - zp);
	v = v < lo ? lo : v > hi ? hi : v;
	return (int32_t)__builtin_nearbyintf(v) + zp;
}

/* gemmlowp SaturatingRoundingDoublingHighMul. */
static __inline__ MP_CONST_FN int32_t mp_srdhm(int32_t a, int32_t b)
{
	if (a == INT32_MIN && b == INT32_MIN)
		return INT32_MAX;
	int64_t ab = (int64_t)a * b;
	int64_t nudge = ab >= 0 ? (1 << 30) : (1 - (1 << 30));
	return (int32_t)((ab + nudge) / ((int64_t)1 << 31));
}

/* gemmlowp RoundingDivideByPOT (half away from zero). */
static __inline__ MP_CONST_FN int32_t mp_rdbpot(int32_t x, int e)
{
	int32_t mask = (int32_t)(((int64_t)1 << e) - 1);
	int32_t rem = x & mask;
	int32_t thr = (mask >> 1) + (x < 0);
	return (x >> e) + (rem > thr);
}

/* gemmlowp / TFLite fixed-point requantization ("double rounding"). */
static __inline__ MP_CONST_FN int32_t mp_requant_gemmlowp(int32_t acc, int32_t qm, int shift,
						      int32_t zp, int32_t qmin, int32_t qmax)
{
	int left = shift > 0 ? shift : 0, right = shift > 0 ? 0 : -shift;
	int32_t v = mp_rdbpot(mp_srdhm((int32_t)((uint32_t)acc << left), qm), right) + zp;
	return mp_clamp_i32(v, qmin, qmax);
}

/* Single rounding (ruy, XNNPACK "rndnu"): half toward +infinity. */
static __inline__ MP_CONST_FN int32_t mp_requant_rndnu(int32_t acc, int32_t qm, int shift,
						   int32_t zp, int32_t qmin, int32_t qmax)
{
	int64_t v = ((int64_t)acc * qm + ((int64_t)1 << (30 - shift))) >> (31 - shift);
	return mp_clamp_i32((int32_t)v + zp, qmin, qmax);
}

/* ------------------------------------------------------------ runtime */

/* Kernel families, in the order of preference (x86-64: avx2, avx512vnni;
 * aarch64: dotprod (SDOT), i8mm (SMMLA / UMMLA / USMMLA); each runs only on its own
 * architecture).  MIXPREC_TARGET=scalar|avx2|avx512vnni|dotprod|i8mm
 * (environment) forces one; a forced kernel the CPU lacks makes
 * mp_kernel_select return MP_KERNEL_NONE. */
typedef enum mp_kernel {
	MP_KERNEL_NONE = -1,
	MP_KERNEL_SCALAR = 0,
	MP_KERNEL_AVX2 = 1,
	MP_KERNEL_AVX512VNNI = 2,
	MP_KERNEL_DOTPROD = 3,
	MP_KERNEL_I8MM = 4,
	MP_KERNEL_COUNT = 5
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

/* Fused epilogues: out(i,j) = EPI(init + bias(i,j) + S(i,j)) computed in
 * the kernels' epilogue, where EPI is the helper above of the same name
 * (bit-exact: the same float / fixed-point operations, rounding by the
 * current MXCSR / fenv mode like nearbyintf), followed by the C conversion
 * to the output type (modulo 2^8 for 8-bit outputs). */
typedef enum mp_epi {
	MP_EPI_STORE = 0,   /* out = acc                                     */
	MP_EPI_FP32,        /* mp_requant_fp32(acc, scale, zp, qmin, qmax)   */
	MP_EPI_GEMMLOWP,    /* mp_requant_gemmlowp(acc, qm, shift, zp, qmin, qmax) */
	MP_EPI_RNDNU,       /* mp_requant_rndnu(acc, qm, shift, zp, qmin, qmax)    */
	MP_EPI_CLAMP        /* mp_clamp_i32(acc, qmin, qmax)                 */
} mp_epi;

enum { MP_DT_S32 = 2 };   /* output element type, beside MP_DT_S8 / MP_DT_U8 */

typedef struct mp_epilogue {
	mp_epi kind;
	int32_t init;                 /* constant added to every acc */
	const int32_t *bias;          /* NULL, or bias(i,j) = bias[i*bias_si + j*bias_sj] */
	ptrdiff_t bias_si, bias_sj;   /* elements; 0 for a per-column / per-row bias */
	float scale;                  /* MP_EPI_FP32 */
	int32_t qm;                   /* MP_EPI_GEMMLOWP / MP_EPI_RNDNU */
	int shift;
	int32_t zp, qmin, qmax;       /* qmin/qmax: the clamp of every kind but STORE */
	int out_dt;                   /* MP_DT_S8, MP_DT_U8 or MP_DT_S32 */
	void *out;
	ptrdiff_t out_si, out_sj;     /* elements of out_dt; (i,j) -> out injective */
} mp_epilogue;

/* mp_gemm_x8's contraction, then the epilogue instead of storing S. */
void mp_gemm_x8_epi(mp_kernel kern, long M, long N, long K,
		    const void *a, int a_dt, ptrdiff_t a_si, ptrdiff_t a_sk, int32_t za,
		    const void *b, int b_dt, ptrdiff_t b_sk, ptrdiff_t b_sj, int32_t zb,
		    const mp_epilogue *ep);

/* ------------------------------------------- floating-point sources */

/* Precisions for float/double sources (issue: lower-precision float loops).
 * The contraction S(i,j) = sum_k A(i,k) * B(k,j) of a float source runs at
 * the precision below with the accumulator shown; the result is within the
 * documented per-element bound (docs/error-bounds.md). */
typedef enum mp_lp {
	MP_LP_INT8 = 0,     /* symmetric int8 (s8 x s8 -> s32), scales as given */
	MP_LP_UINT8,        /* A asymmetric u8 (per-row zero point), B as INT8:
			       u8 x s8 -> s32 */
	MP_LP_BF16,         /* bf16 x bf16 -> fp32 (vdpbf16ps), no scales */
	MP_LP_FP8_E4M3,     /* OCP E4M3, per-tensor scale, computed through bf16 */
	MP_LP_FP8_E5M2      /* OCP E5M2, likewise */
} mp_lp;

/* Scales, chosen per operand.  dynamic != 0: both operands dynamic (the
 * rest is ignored).  dynamic == 0: an operand whose scale pointer is NULL is
 * dynamic, the other one explicit (both NULL: both dynamic).
 *   DYNAMIC, computed while packing:
 *     INT8 (and B of UINT8): symmetric, s = max|x| / 127 per row of A / per
 *       column of B;
 *     UINT8 A: asymmetric per row, lo = min(0, min x), hi = max(0, max x),
 *       s = (hi - lo) / 255, zero point za = rne(-lo / s) in [0, 255];
 *     FP8: per tensor, multiplier m = fp8_max / max|x| (step 1 / m).
 *   EXPLICIT: the caller's quantization scales, q = round(x / scale):
 *     a_scale[i*a_scale_s] per row of A, b_scale[j*b_scale_s] per column of
 *     B (stride 0 = one scalar for the tensor); each finite and > 0.  UINT8
 *     with an explicit A scale has zero point 0 (q = clamp(rne(x/s), 0, 255):
 *     negative values saturate to 0).
 * BF16 has no scales (the struct is ignored). */
typedef struct mp_lp_scales {
	int dynamic;
	const float *a_scale; ptrdiff_t a_scale_s;
	const float *b_scale; ptrdiff_t b_scale_s;
} mp_lp_scales;

/* Options of mp_gemm_lp_ex.  A zero-initialised struct means no offsets
 * and alpha 0: callers that pass options set alpha explicitly (opt NULL
 * means alpha 1, no flags, no offsets).
 * Offsets (zero points of floating-point operands, for loops such as
 * s += (x[i*K+k] - xm) * w[j*K+k]): the contraction is over A' and B',
 * and everything mp_gemm_lp_ex does to A and B without offsets -- the
 * scan for maxima and non-finite values, the dynamic scales (UINT8: the
 * per-row range and zero point), the quantization while packing, the
 * range check, the cache of constant operands -- it does to A' and B'
 * instead, with the same bits as a call without offsets on arrays holding
 * A' and B'.  The error bound (docs/error-bounds.md) is the one of that
 * call: mp_lp_steps_ex and mp_lp_error_bound_ex are to be called on
 * arrays holding A' and B' (the caller materialises them).  An offset of
 * +0 changes nothing; -0 is an offset (x - -0 turns -0 into +0). */
typedef struct mp_lp_opts {
	double alpha;     /* out = alpha * S (+ c_old when accumulate) */
	unsigned flags;   /* MP_LP_CONST_A | MP_LP_CONST_B, or 0 */
	double a_zero, b_zero;  /* operand offsets: the contraction is over
	                           A'(i,k) = A(i,k) - a_zero and B'(k,j) = B(k,j) - b_zero,
	                           each difference computed in the source type (float
	                           sources: (float)A - (float)a_zero rounded to float, as the
	                           C expression x - z with float x and z); 0 = none.  Each
	                           must be finite and, for float sources, a float value
	                           (the plugin passes the float's double); else -1 */
} mp_lp_opts;

/* Operands constant across calls (mp_lp_opts.flags; the pragma's
 * constant= clause).  MP_LP_CONST_B is the caller's promise that B's
 * contents, and its explicit scales if any, do not change between calls
 * passing the same pointer, strides and sizes: the runtime may then keep
 * B's quantized, packed form and its scales from an earlier call and
 * read only a 68-element fingerprint of B (no scan, no packing: a dense
 * layer's weights are quantized once; a fingerprint that differs, as for
 * a new array at a freed one's address, drops the old form).  MP_LP_CONST_A: the same for A.  The results are bit
 * for bit those without the flag.  What the cache is keyed by: the
 * operand's pointer, extents, strides, element type, lp, the
 * implementation (kernel family), its scale mode and its explicit scales'
 * values (compared), its offset (a_zero / b_zero, compared by bits); not
 * alpha, accumulate or the other operand (nor the other's offset).  An
 * operand with a NaN or an infinity is never cached (the call returns -1
 * as without the flag).  Memory: least recently used entries are evicted
 * beyond MIXPREC_CACHE_MB megabytes (environment, read at the first use;
 * default 256; 0 disables the cache: the flags are then accepted and
 * change nothing); an operand larger than that is not cached.
 * Thread-safe.  Every implementation honours both flags. */
enum { MP_LP_CONST_A = 1, MP_LP_CONST_B = 2 };

/* Forget every cached packed form of the operand starting at p (the
 * pointer passed as a or b; call it after changing an array declared
 * constant, or before freeing it if another array may later get its
 * address); NULL forgets everything.  Entries in use by a concurrent call
 * are freed when that call returns. */
void mp_lp_forget(const void *p);

/* out(i,j) = S(i,j) at precision LP (out = S, or out += S when accumulate),
 * A(i,k) = a[i*a_si + k*a_sk], B(k,j) = b[k*b_sk + j*b_sj], out(i,j) =
 * c[i*c_si + j*c_sj]; elements are float (is_double == 0) or double.
 * Returns 0, or -1 without touching c when an input is NaN or infinite
 * (seen while computing scales): the caller runs the original loop then.
 * mp_gemm_lp is mp_gemm_lp_ex with opt NULL. */
int mp_gemm_lp(mp_kernel kern, mp_lp lp, int is_double, long M, long N, long K,
	       const void *a, ptrdiff_t a_si, ptrdiff_t a_sk,
	       const void *b, ptrdiff_t b_sk, ptrdiff_t b_sj,
	       void *c, ptrdiff_t c_si, ptrdiff_t c_sj, int accumulate,
	       const mp_lp_scales *sc);
/* The same with options (opt NULL: alpha 1, no flags, no offsets): out =
 * alpha * S', or out += alpha * S', S'(i,j) = sum_k A'(i,k) B'(k,j) with
 * the offsets of mp_lp_opts (A' = A - a_zero, B' = B - b_zero in the source
 * type; no offsets: S' = S).  alpha is applied in the epilogue, in double,
 * together with the dequantization (one rounding to the output type, as
 * without it).  flags: the constant operands above.  Also -1 (c
 * untouched): alpha not finite, an unknown flag, an offset not finite (or,
 * float sources, not a float value), or an A' / B' element that is NaN or
 * infinite (a difference that overflows the source type). */
int mp_gemm_lp_ex(mp_kernel kern, mp_lp lp, int is_double, long M, long N, long K,
		  const void *a, ptrdiff_t a_si, ptrdiff_t a_sk,
		  const void *b, ptrdiff_t b_sk, ptrdiff_t b_sj,
		  void *c, ptrdiff_t c_si, ptrdiff_t c_sj, int accumulate,
		  const mp_lp_scales *sc, const mp_lp_opts *opt);
/* Also -1 (c untouched): an explicit scale that is not finite and > 0, an
 * unknown lp, or inputs so large that the result could leave the range of
 * the accumulator (BF16: fp32) or of the output type (K max|A'| max|B'|
 * max(1, |alpha|) near FLT_MAX): the original loop is the fallback.
 * Which implementation a kernel family runs for lp: "avx512vnni", "avx2",
 * "i8mm" or "scalar" (INT8 and UINT8), "avx512bf16", "avx2", "bfmlal",
 * "neon" or "scalar" (BF16 / FP8:
 * the AVX512-BF16 kernel runs for kern == MP_KERNEL_AVX512VNNI on CPUs with
 * AVX512-BF16, the AVX2 + FMA one for kern == MP_KERNEL_AVX2, or for
 * MP_KERNEL_AVX512VNNI on CPUs without AVX512-BF16; on aarch64 "bfmlal"
 * (FEAT_BF16) or "neon" for kern == MP_KERNEL_DOTPROD or MP_KERNEL_I8MM;
 * all give the same bits as the scalar reference). */
const char *mp_lp_kernel_name(mp_kernel kern, mp_lp lp);

/* The dequantization steps mp_gemm_lp uses for the same arguments:
 * A(i,k) is represented as (q - zero_a[i]) * step_a[i] (0 <= i < M), B(k,j)
 * as q * step_b[j] (INT8 / UINT8: the scale; FP8: 1 / multiplier or the
 * explicit scale; BF16: 1).  zero_a: UINT8's zero point of row i (an
 * integer in [0, 255]; 0 for explicit scales), 0 for the other precisions.
 * NULL arrays are skipped.  Returns 0, or -1 exactly when mp_gemm_lp (opt
 * NULL) would return -1 (mp_gemm_lp_ex may also refuse for its alpha).
 * With offsets (mp_lp_opts.a_zero / b_zero), call it on arrays holding A'
 * and B' (the differences as computed in the source type): the call with
 * offsets quantizes A' and B' exactly as this computes for them. */
int mp_lp_steps_ex(mp_lp lp, int is_double, long M, long N, long K,
		   const void *a, ptrdiff_t a_si, ptrdiff_t a_sk,
		   const void *b, ptrdiff_t b_sk, ptrdiff_t b_sj,
		   const mp_lp_scales *sc, double *step_a, double *zero_a, double *step_b);
/* mp_lp_steps_ex without the zero points. */
int mp_lp_steps(mp_lp lp, int is_double, long M, long N, long K,
		const void *a, ptrdiff_t a_si, ptrdiff_t a_sk,
		const void *b, ptrdiff_t b_sk, ptrdiff_t b_sj,
		const mp_lp_scales *sc, double *step_a, double *step_b);

/* The documented bound (docs/error-bounds.md) of |out(i,j) - exact(i,j)|
 * for one output of mp_gemm_lp_ex: a_row = &A(i,0) with stride a_sk, b_col
 * = &B(0,j) with stride b_sk (elements of the source type), the steps and
 * zero point of row i and the step of column j (mp_lp_steps_ex), c_old =
 * out(i,j) before the call (used when accumulate), alpha as passed (1
 * without options).  exact = (accumulate ? c_old : 0) + alpha * sum_k
 * A(i,k) B(k,j) in real arithmetic.  May be +inf (K beyond fp32
 * accumulation).  With offsets: a_row and b_col point into arrays holding
 * A' and B', and exact is the sum over A'(i,k) B'(k,j). */
double mp_lp_error_bound_ex(mp_lp lp, int is_double, long K, const void *a_row, ptrdiff_t a_sk,
			    const void *b_col, ptrdiff_t b_sk, double step_a, double zero_a,
			    double step_b, double c_old, int accumulate, double alpha);
/* mp_lp_error_bound_ex with zero_a 0 and alpha 1. */
double mp_lp_error_bound(mp_lp lp, int is_double, long K,
			 const void *a_row, ptrdiff_t a_sk,
			 const void *b_col, ptrdiff_t b_sk,
			 double step_a, double step_b, double c_old, int accumulate);

/* Counters of the generated code's decisions (process-wide).  The calls
 * that the generated code's inline guard skips (nests too small for the
 * kernels: the loop runs without calling, docs/design.md section 5) are
 * counted only under MIXPREC_STATS or MIXPREC_SMALL=0, which turn the guard
 * off (the guard reads the two when the library is loaded, at the first
 * call that reaches the runtime and at mp_env_reload). */
typedef struct mp_stats {
	long fast;        /* nests run by the kernels */
	long fallback;    /* nests that ran the original loop */
	long last_kernel; /* mp_kernel of the last fast call */
	long verified;    /* floating-point nests checked by the verify mode */
	long verify_failed;  /* ... of which exceeded the documented bound
	                        somewhere (the original loop ran instead) */
	double verify_worst; /* the largest |err| / bound seen by verify */
} mp_stats;
void mp_stats_get(mp_stats *s);
/* Resets the totals and the per-nest counters.  At exit, MIXPREC_STATS=1
 * prints both (one line per nest: "file.c:LINE", calls, calls on the
 * kernels, fallbacks by reason, kernel, time; each line with the pid);
 * MIXPREC_STATS=NAME.json writes them as JSON ("%p" in NAME: the pid). */
void mp_stats_reset(void);

/* The MIXPREC_* environment variables (MIXPREC_DISABLE, MIXPREC_TARGET,
 * MIXPREC_VERIFY, MIXPREC_THREADS) are read once per process, at the first
 * call that needs them; a program that changes them while it runs calls
 * this to have them read again. */
void mp_env_reload(void);

/* Program-level sensitivity for `#pragma mixprec(auto)` (docs/precision.md):
 * marks COUNT values at P (MP_OUT_FLOAT, MP_OUT_DOUBLE or MP_OUT_INT32
 * elements) as an output that matters.  Under MIXPREC_PROFILE_OUTPUT=FILE
 * (set by `mixprec-tune --run`) they are copied at the call and written to
 * FILE at exit, so that the runs with one nest at a low precision and the
 * others at their source precision can be compared with the run with all
 * at the source precision.  Otherwise, and in a build without the plugin,
 * it does nothing. */
enum { MP_OUT_FLOAT = 0, MP_OUT_DOUBLE = 1, MP_OUT_INT32 = 2 };
void __mixprec_profile_output(const void *p, long count, int type);
static __inline__ void mp_profile_output(const void *p, long count, int type)
{
#ifdef __MIXPREC__
	__mixprec_profile_output(p, count, type);
#else
	(void)p, (void)count, (void)type;
#endif
}

/* Entry points of plugin-generated code.  Not for direct use; the argument
 * list is versioned by its first argument (MP_NEST_ABI) and documented in
 * runtime/nest.c.  9: __mixprec_tile_add's dt + 4 subtracts (an object
 * built for 9 must not run on a runtime that would add). */
#define MP_NEST_ABI 10
void *__mixprec_i8_nest(long abi, long nargs, ...);
void *__mixprec_lp_nest(long abi, long nargs, ...);   /* floating-point sources */
void __mixprec_release(void *tile);
void *__mixprec_tile_add(long abi, long nargs, ...);
/* The thread count of the OpenMP loop directive on the nest the next call
 * replaces (num_threads, 1 for a false if clause; -1: a tile-mode nest whose
 * loops will run on the calling thread); 0 after the call. */
void __mixprec_omp_threads(long n);
/* A tile-mode nest whose loop carries an OpenMP directive (clang): the
 * calling thread registers its tile (NULL: nothing) under (key, id) before
 * the construct, which then runs on that thread unless its num_threads
 * says otherwise; the construct's body looks the tile up (NULL on other
 * threads: they compute as written); leave restores the thread count. */
void __mixprec_tile_enter(const void *key, long id, void *tile);
void *__mixprec_tile_get(const void *key, long id);
void __mixprec_tile_leave(const void *key, long id);

#ifdef __cplusplus
}
#endif
#endif
