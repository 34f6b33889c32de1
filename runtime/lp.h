/* lp.h -- internal interface of mp_gemm_lp (floating-point sources at lower
 * precision): the call's arguments after the scan (scales), the exact
 * conversion helpers shared by the scalar reference, the packers and the
 * tests, and the entry points of the ISA files.
 *
 * Conventions (docs/error-bounds.md states the bounds built on them):
 *   - offsets (mp_lp_opts.a_zero / b_zero): every element read from A is
 *     first x = A(i,k) - oa, one subtraction in the source precision (B:
 *     - ob); the scan, the scales and the packers below all see that x, so
 *     a call with offsets is bit for bit the call without them on arrays
 *     holding A - oa and B - ob.  An offset of +0 subtracts nothing (every
 *     reader tests for it: mp_lp_ldf, the vector packers);
 *   - quantization of A row i:  y = x * fa[i] (qmul_a) or y = x / fa[i]
 *     (!qmul_a), in the source precision, then
 *       INT8:  q = clamp(rne(y), -127, 127)
 *       UINT8: q = clamp(rne(y) + za[i], 0, 255)   (za: zero point of row i)
 *       FP8:   q = fp8_satfinite_rne(y)            (exactly a bf16 value)
 *       BF16:  q = bf16_rne_daz(x)                 (no scale)
 *     likewise B column j with fb[j] and qmul_b (UINT8: B as INT8);
 *   - the contraction of the q's: int32 (INT8 / UINT8, exact per K-chunk)
 *     or the vdpbf16ps sequence acc = ftz(fma(a[2p+1], b[2p+1], acc)); acc
 *     = ftz(fma(a[2p], b[2p], acc)) in fp32 (BF16 / FP8);
 *   - the epilogue, in double: UINT8 first removes the zero point, acc -=
 *     za[i] * colsum_j(q_b) (exact); then out = acc * da[i] * db[j] * alpha
 *     (in that order; da/db NULL for BF16: out = acc * alpha), then + c when
 *     accumulating, rounded once to the output type.
 */
#ifndef MP_LP_H
#define MP_LP_H

#include <string.h>
#include <math.h>
#include "mixprec.h"

/* int32 exactness: K-chunks of at most this many terms.  INT8: 127^2 * KC <
 * 2^31.  UINT8: the raw sum of u8 x s8 products and the corrected one are
 * both at most 255 * 127 * KC in magnitude, < 2^31 for KC = 2^16 (the za
 * colsum term too), so every int32 the tiles and the epilogue see is
 * exact. */
#define MP_LP_I8_KC 131072L
#define MP_LP_U8_KC 65536L

static inline long mp_lp_kc(mp_lp lp)
{
	return lp == MP_LP_UINT8 ? MP_LP_U8_KC : MP_LP_I8_KC;
}

typedef struct mp_lp_packed mp_lp_packed;

typedef struct mp_lp_ctx {
	mp_lp lp;
	int dbl;                      /* double sources and output */
	long M, N, K;
	const void *a;
	ptrdiff_t a_si, a_sk;
	const void *b;
	ptrdiff_t b_sk, b_sj;
	void *c;
	ptrdiff_t c_si, c_sj;
	int accumulate;
	/* y = x * f (1: FP8 dynamic, the multiplier) or x / f (0: explicit
	 * scales, INT8 / UINT8 always), per operand: each side has its own
	 * scale mode */
	int qmul_a, qmul_b;
	const float *fa_f, *fb_f;     /* float sources: per row of A / column of B */
	const double *fa_d, *fb_d;    /* double sources */
	const double *da, *db;        /* dequantization steps; NULL for BF16 */
	double alpha;                 /* out = alpha * S (+ c) */
	/* the operands' offsets (conventions above): float sources subtract
	 * (float)oa, exact (mp_gemm_lp_ex refuses a non-float value) */
	double oa, ob;
	/* UINT8 only (NULL otherwise): zero point of each row of A (0..255),
	 * and, for the K-chunk and panel of B being computed, colsum(q_b) of
	 * columns csum_j0, csum_j0 + 1, ... (set by the INT8 driver) */
	const int32_t *za;
	const int32_t *csum;
	long csum_j0;
	/* operands declared constant across calls (MP_LP_CONST_A / _B, see
	 * below): NULL, pack as usual; ready, the packed blocks of an earlier
	 * call (the operand is not read); not ready, a miss: the driver packs
	 * the whole operand into it first (mp_lp_packed_reserve ...), then
	 * runs from it */
	mp_lp_packed *pk_a, *pk_b;
} mp_lp_ctx;

/* ------------------------------------------------ exact conversions */

static inline uint32_t mp_f32_bits(float x)
{
	uint32_t u;
	memcpy(&u, &x, 4);
	return u;
}
static inline float mp_f32_from_bits(uint32_t u)
{
	float x;
	memcpy(&x, &u, 4);
	return x;
}
static inline uint64_t mp_f64_bits(double x)
{
	uint64_t u;
	memcpy(&u, &x, 8);
	return u;
}
static inline double mp_f64_from_bits(uint64_t u)
{
	double x;
	memcpy(&x, &u, 8);
	return x;
}

/* fp32 -> bf16 as VCVTNE2PS2BF16 does it (measured on Zen4): denormal
 * inputs become signed zero, round to nearest even, overflow to infinity.
 * (NaN: quiet; never reached, mp_gemm_lp rejects non-finite inputs.) */
static inline uint16_t mp_bf16_from_f32(float x)
{
	uint32_t u = mp_f32_bits(x);
	if ((u & 0x7f800000u) == 0)
		return (uint16_t)((u >> 16) & 0x8000u);
	if ((u & 0x7fffffffu) > 0x7f800000u)
		return (uint16_t)((u >> 16) | 0x40u);
	u += 0x7fffu + ((u >> 16) & 1u);
	return (uint16_t)(u >> 16);
}

/* double -> bf16, correctly rounded (nearest even, one rounding), with the
 * same flush of |x| < 2^-126 to signed zero.  |x| >= 2^128 (after rounding)
 * gives infinity (mp_gemm_lp rejects such inputs first). */
static inline uint16_t mp_bf16_from_f64(double x)
{
	uint64_t u = mp_f64_bits(x);
	uint16_t sign = (uint16_t)((u >> 48) & 0x8000u);
	double ax = fabs(x);
	if (!(ax >= 0x1p-126))
		return sign;
	u &= 0x7fffffffffffffffull;
	u += 0xfffffffffffull + ((u >> 45) & 1u);
	u &= ~0x1fffffffffffull;
	double r = mp_f64_from_bits(u);
	if (r >= 0x1p128)
		return (uint16_t)(sign | 0x7f80u);
	return (uint16_t)(sign | (mp_f32_bits((float)r) >> 16));
}

static inline float mp_bf16_to_f32(uint16_t h)
{
	return mp_f32_from_bits((uint32_t)h << 16);
}

/* One step of the vdpbf16ps chain: ftz(fma(a, b, acc)), round to nearest
 * even (the caller's rounding mode must be the default one).  The flush
 * follows x86's rule (MXCSR.FTZ and vdpbf16ps, both measured on Zen 4 and
 * on an Intel Xeon with AVX512-BF16): a result
 * is flushed to signed zero when it is tiny AFTER rounding to 24 bits with
 * an unbounded exponent, i.e. when |exact| < 2^-126 - 2^-151.  Testing the
 * fmaf result (rounded on the subnormal grid) against 2^-126 is not the
 * same: exact values in [2^-126 - 2^-150, 2^-126 - 2^-151) round to 2^-126
 * on that grid but are flushed by the hardware.  Only r == +-2^-126 needs
 * the exact sum: the product of two floats is exact in double, and TwoSum
 * gives exact = s + e. */
static inline float mp_bf16_fma_ftz(float a, float b, float acc)
{
	float r = fmaf(a, b, acc);
	float ar = fabsf(r);
	int tiny = ar < 0x1p-126f;
	if (ar == 0x1p-126f) {
		const double lim = 0x1p-126 - 0x1p-151; /* midpoint: ties go to 2^-126 */
		double p = (double)a * (double)b, q = acc;
		double s = p + q, bb = s - p, e = (p - (s - bb)) + (q - bb);
		if (r < 0) {
			s = -s;
			e = -e;
		}
		tiny = s < lim || (s == lim && e < 0);
	}
	if (tiny)
		r = mp_f32_from_bits(mp_f32_bits(r) & 0x80000000u);
	return r;
}

/* OCP FP8 formats. */
typedef struct mp_fp8_fmt {
	int mbits;        /* explicit mantissa bits: 3 (E4M3), 2 (E5M2) */
	int bias;         /* 7, 15 */
	float min_normal; /* 2^-6, 2^-14 */
	float spacing;    /* subnormal spacing: 2^-9, 2^-16 */
	float max;        /* 448, 57344 */
	float unit;       /* unit roundoff 2^-(mbits+1): 2^-4, 2^-3 */
} mp_fp8_fmt;

static inline mp_fp8_fmt mp_fp8_format(int e5m2)
{
	mp_fp8_fmt f4 = {3, 7, 0x1p-6f, 0x1p-9f, 448.0f, 0x1p-4f};
	mp_fp8_fmt f5 = {2, 15, 0x1p-14f, 0x1p-16f, 57344.0f, 0x1p-3f};
	return e5m2 ? f5 : f4;
}

/* Round to nearest even of t >= 0, t < 2^22 (exact arithmetic). */
static inline double mp_rne_small(double t)
{
	double f = floor(t), d = t - f;
	if (d > 0.5 || (d == 0.5 && fmod(f, 2.0) != 0.0))
		f += 1.0;
	return f;
}

/* x (any finite double, or +-inf) -> the nearest FP8 value (ties to even),
 * saturating to +-max (satfinite); returned as a double (exact). */
static inline double mp_fp8_round(double x, int e5m2)
{
	const mp_fp8_fmt f = mp_fp8_format(e5m2);
	double ax = fabs(x), r;
	if (ax >= (double)f.max) {
		r = f.max;
	} else if (ax < (double)f.min_normal) {
		r = mp_rne_small(ax / (double)f.spacing) * (double)f.spacing;
	} else {
		int e;
		frexp(ax, &e); /* ax = m 2^e, m in [0.5, 1) */
		double sp = ldexp(1.0, e - 1 - f.mbits);
		r = mp_rne_small(ax / sp) * sp;
		if (r > (double)f.max)
			r = f.max;
	}
	return signbit(x) ? -r : r;
}

/* The same on a float, with the bit operations of the vector packers (the
 * result equals mp_fp8_round((double)x)). */
static inline float mp_fp8_round_f32(float x, int e5m2)
{
	const mp_fp8_fmt f = mp_fp8_format(e5m2);
	uint32_t u = mp_f32_bits(x), s = u & 0x80000000u, a = u & 0x7fffffffu;
	float ax = mp_f32_from_bits(a), r;
	if (ax < f.min_normal) {
		r = (float)(mp_rne_small((double)ax / (double)f.spacing) * (double)f.spacing);
	} else if (a >= 0x7f800000u) {
		r = f.max;
	} else {
		int drop = 23 - f.mbits;
		a += ((1u << (drop - 1)) - 1u) + ((a >> drop) & 1u);
		a &= ~((1u << drop) - 1u);
		r = mp_f32_from_bits(a);
		if (r > f.max)
			r = f.max;
	}
	return mp_f32_from_bits(mp_f32_bits(r) | s);
}

/* Code (0..255) of an FP8 value v (v exactly representable, finite). */
static inline uint8_t mp_fp8_encode(float v, int e5m2)
{
	const mp_fp8_fmt f = mp_fp8_format(e5m2);
	uint8_t s = signbit(v) ? 0x80 : 0;
	float a = fabsf(v);
	if (a < f.min_normal)
		return (uint8_t)(s | (uint8_t)(a / f.spacing));
	uint32_t u = mp_f32_bits(a);
	int e = (int)(u >> 23) - 127 + f.bias;
	uint32_t m = (u >> (23 - f.mbits)) & ((1u << f.mbits) - 1u);
	return (uint8_t)(s | (uint8_t)(e << f.mbits) | (uint8_t)m);
}

/* Value of an FP8 code: NaN for the NaN codes, +-inf for E5M2's. */
static inline float mp_fp8_decode(uint8_t c, int e5m2)
{
	const mp_fp8_fmt f = mp_fp8_format(e5m2);
	int s = c >> 7, e = (c & 0x7f) >> f.mbits, m = c & ((1 << f.mbits) - 1);
	int emax = (1 << (7 - f.mbits)) - 1;
	float v;
	if (!e5m2 && e == emax && m == (1 << f.mbits) - 1)
		v = NAN;
	else if (e5m2 && e == emax)
		v = m ? NAN : INFINITY;
	else if (e == 0)
		v = (float)m * f.spacing;
	else
		v = ldexpf(1.0f + (float)m / (float)(1 << f.mbits), e - f.bias);
	return s ? -v : v;
}

/* ------------------------------------------------ shared pieces */

/* INT8 quantization of one value (y already scaled), as the packers do it. */
static inline int mp_q8_round(double y)
{
	if (y >= 127.0)
		return 127;
	if (y <= -127.0)
		return -127;
	double r = mp_rne_small(fabs(y));
	return (int)(y < 0 ? -r : r);
}

/* UINT8 quantization of one value of A (y already scaled) with the row's
 * zero point za: clamp(rne(y) + za, 0, 255).  |y| >= 255 saturates
 * whatever za is (what the vector packers get by clamping y to +-255
 * before their exact conversion). */
static inline int mp_u8_round(double y, int za)
{
	if (y >= 255.0)
		return 255;
	if (y <= -255.0)
		return 0;
	double r = mp_rne_small(fabs(y));
	int q = (int)(y < 0 ? -r : r) + za;
	return q < 0 ? 0 : q > 255 ? 255 : q;
}

/* One element of an operand after its offset z (x->oa or x->ob): p[off] -
 * z in the source precision (float sources: z is a float value).  Every
 * scalar reader of the operands goes through these.  +0 subtracts nothing:
 * x - 0 is x, except under a caller's MXCSR.FTZ / DAZ, which would flush a
 * denormal x, and a call without offsets must not change. */
static inline float mp_lp_ldf(const void *p, ptrdiff_t off, double z)
{
	float v = ((const float *)p)[off];
	return mp_f64_bits(z) ? v - (float)z : v;
}
static inline double mp_lp_ldd(const void *p, ptrdiff_t off, double z)
{
	double v = ((const double *)p)[off];
	return mp_f64_bits(z) ? v - z : v;
}

/* The bf16 value (as a float) that one element of a BF16 / FP8 operand
 * becomes (the conventions above): p[off] minus the operand's offset z,
 * with the row's / column's factor ff (float sources) or fd (double
 * sources), multiplied (qmul: the operand's x->qmul_a / x->qmul_b) or
 * divided.  The scalar reference and the packers of the AVX2 kernel both
 * call this, so they quantize alike. */
static inline float mp_lp_qbf(const mp_lp_ctx *x, int qmul, const void *p, ptrdiff_t off,
			      double z, float ff, double fd)
{
	const int e5 = x->lp == MP_LP_FP8_E5M2;
	if (x->dbl) {
		double v = mp_lp_ldd(p, off, z);
		if (x->lp == MP_LP_BF16)
			return mp_bf16_to_f32(mp_bf16_from_f64(v));
		return (float)mp_fp8_round(qmul ? v * fd : v / fd, e5);
	}
	float v = mp_lp_ldf(p, off, z);
	if (x->lp == MP_LP_BF16)
		return mp_bf16_to_f32(mp_bf16_from_f32(v));
	return mp_fp8_round_f32(qmul ? v * ff : v / ff, e5);
}

/* ------------------------------------ operands constant across calls */

/* Which implementation mp_gemm_lp(kern, lp, ...) runs (lp.c); part of the
 * cache key, as it fixes the packed layout and the blocking. */
typedef enum { MP_LPI_I8_SCALAR, MP_LPI_I8_AVX2, MP_LPI_I8_AVX512VNNI, MP_LPI_I8_I8MM, MP_LPI_BF16_SCALAR,
	       MP_LPI_BF16_AVX2, MP_LPI_BF16_AVX512BF16, MP_LPI_BF16_NEON, MP_LPI_BF16_BFMLAL,
	       MP_LPI_NONE } mp_lp_impl;
/* The implementation mp_gemm_lp(kern, lp, ...) runs on this CPU (the small
 * shapes' cost model of nest.c picks its constants by it). */
mp_lp_impl mp_lp_impl_of(mp_kernel kern, mp_lp lp);

/* What determines the packed form of one operand (lp_cache.c): side, base
 * pointer, extents, strides, source type, precision, implementation and
 * scale mode, with the explicit scales' values (compared, not their
 * address: the generated code converts them into a fresh array per call),
 * and the operand's offset (its bits: -0 and +0 differ, as x - -0 turns a
 * -0 into +0).  alpha, accumulate and the other operand (and its offset)
 * are not part of it. */
typedef struct mp_lp_key {
	int side;              /* 0: A (n = M rows), 1: B (n = N columns) */
	mp_lp_impl impl;
	mp_lp lp;
	int dbl, dyn;          /* dyn: the operand's scales are dynamic */
	const void *p;
	long n, K;
	ptrdiff_t s_n, s_k;    /* A: a_si, a_sk; B: b_sj, b_sk */
	const float *e;        /* explicit scales (!dyn): e[r*es], r < n */
	ptrdiff_t es;
	double z;              /* the operand's offset (mp_lp_opts.a_zero / b_zero) */
	uint64_t fp;           /* a sample of the contents (lp.c): an entry whose
	                          sample differs is stale and dropped */
	/* 8-bit integer sources (mp_gemm_x8_const; NULL and 0 for float
	   sources): the kernel family that packed it, and what else its
	   packed bytes and corrections depend on (B's type, A's correction
	   factor p) */
	const void *x8_family;
	uint64_t x8_aux;
} mp_lp_key;

/* One cached operand: its scales (what mp_lp_prepare derives from it) and
 * its packed blocks, in the driver's order: block b at data + off[b] (64-
 * byte aligned, as the tiles load them), its int32 correction vector
 * (INT8 ccorr / UINT8 colsum of B, rcorr of A; none for BF16 / FP8) at
 * corr + coff[b].  Read-only once ready; shared between threads. */
struct mp_lp_packed {
	float *ff;             /* n each: quantization factors (float sources) */
	double *fd, *d;        /* ... (double sources), dequantization steps */
	int32_t *za;           /* UINT8's A: zero points; else NULL */
	double hat;            /* bound of max |dequantized value| (range check) */
	long nblk;
	size_t *off, *coff;    /* nblk + 1 each */
	char *data;
	int32_t *corr;
	int ready;
};

/* The sample of an operand's contents that its cache key holds (mp_lp_key.fp):
 * n rows or columns of K elements of ESZ bytes (8 double, 4 float, 1 an
 * 8-bit integer), strides in elements. */
uint64_t mp_lp_fingerprint(const void *p, int esz, long n, long K, ptrdiff_t s_n, ptrdiff_t s_k);
/* A referenced, ready entry for k, or NULL (miss, or caching disabled:
 * MIXPREC_CACHE_MB=0).  Counts a hit or a miss.  *epoch: the count of
 * mp_lp_forget calls so far, for mp_lp_cache_new. */
mp_lp_packed *mp_lp_cache_get(const mp_lp_key *k, unsigned long *epoch);
/* A new entry for k (a miss looked up at epoch, before the operand was
 * read) holding copies of the operand's scales (n each; za may be NULL),
 * referenced by the caller, not yet shared; NULL when caching is
 * disabled. */
mp_lp_packed *mp_lp_cache_new(const mp_lp_key *k, unsigned long epoch, const float *ff,
			      const double *fd, const double *d, const int32_t *za, double hat);
/* After the call: a new entry that got ready is shared (unless it exceeds
 * the limit, an equal one was shared meanwhile, or mp_lp_forget was called
 * since its lookup), least recently used
 * entries are evicted down to the limit; then the caller's reference is
 * dropped.  NULL is ignored. */
void mp_lp_cache_done(mp_lp_packed *pk);
/* Sizing a new entry's blocks, in the driver's order: reserve nblk, add
 * each block's bytes and int32 corrections, commit.  Commit allocates and
 * returns 0, or -1 when the entry would exceed the cache's limit: the
 * driver then packs as usual, and the entry is dropped. */
void mp_lp_packed_reserve(mp_lp_packed *pk, long nblk);
void mp_lp_packed_add(mp_lp_packed *pk, long b, size_t bytes, size_t ncorr);
int mp_lp_packed_commit(mp_lp_packed *pk);
/* Block b's data and corrections. */
static inline void *mp_lp_packed_blk(const mp_lp_packed *pk, long b)
{
	return pk->data + pk->off[b];
}
static inline int32_t *mp_lp_packed_corr(const mp_lp_packed *pk, long b)
{
	return pk->corr + pk->coff[b];
}
/* A miss the driver is to fill (see mp_lp_ctx). */
static inline int mp_lp_packed_fill(const mp_lp_packed *pk)
{
	return pk && !pk->ready;
}

/* The packer of one block of an operand (rows n0 .. n0+w-1 of A, or
 * columns of B, all of K padded to kp) into dst. */
typedef void (*mp_lp_block_pack_fn)(const mp_lp_ctx *x, long n0, long w, long kp, void *dst);

/* A constant operand's miss in the BF16 / FP8 drivers (lp.c): all of B
 * (side 1: every column panel) or of A (every row block) packed once, block
 * bi holding bsz rows / columns (rounded up to r) of esz-byte elements.
 * Returns pk (a hit, or filled now), or NULL when the entry could not be
 * made (the driver packs as usual then). */
mp_lp_packed *mp_lp_fill_blocks(const mp_lp_ctx *x, mp_lp_packed *pk, int side, long kp,
				long bsz, long r, size_t esz, mp_lp_block_pack_fn pack);

/* Threads (mp_par.h): how many the call x is worth, and the rectangle
 * [i0, i1) x [j0, j1) of thread t of a team of n (empty when t has none;
 * bounds multiples of mr / nr, or M / N).  a_cost / b_cost: the cost of
 * packing one element of A / B, relative to a byte copied.  The drivers
 * run every part with the blocking of the whole call, so that a constant
 * operand's cached blocks serve every part. */
int mp_lp_par_threads(const mp_lp_ctx *x);
void mp_lp_par_part(const mp_lp_ctx *x, long mr, long nr, double a_cost, double b_cost, int t,
		    int n, long *i0, long *i1, long *j0, long *j1);

/* For the tests: the limit in bytes (-1: read MIXPREC_CACHE_MB again;
 * evicts down to it), and counters since the start. */
void mp_lp_cache_set_limit(long long bytes);
typedef struct mp_lp_cache_stats {
	long hits, misses, entries;
	long stale;            /* entries dropped because the sample differed */
	size_t bytes;
} mp_lp_cache_stats;

/* The fingerprint of a constant operand (mp_lp_key.fp) reads the elements
 * (r, k) at positions t = 0 .. MP_LP_FP_SAMPLES-1 (the four corners, then
 * fixed pseudo-random ones) of an n x K operand.  Not a proof that the
 * operand is unchanged -- the caller promised that -- but it catches the
 * usual way to break the promise unknowingly: the array freed and another
 * one allocated at the same address with the same shape. */
#define MP_LP_FP_SAMPLES 68
void mp_lp_fp_pos(long n, long K, int t, long *r, long *k);
void mp_lp_cache_stats_get(mp_lp_cache_stats *s);

/* Generic epilogue (lp.c): rows [i0, i0+mr), columns [j0, j0+nc) of the
 * tile t (int32 when is_i32, else float; row stride ldt) into c. */
void mp_lp_epilogue_generic(const mp_lp_ctx *x, const void *t, int is_i32, long ldt,
			    long i0, long j0, int mr, int nc);

/* ISA entry points. */
int mp_lp_have_avx512bf16(void);
/* 1 when mp_gemm_lp(KERN, LP, ...) packs both operands with vector loads
 * for these strides (in elements; DBL: double sources): then a
 * matrix-vector product can pay (nest.c's cost model decides); else
 * packing reads element by element and the loop as written wins. */
int mp_lp_vector_packs(mp_kernel kern, mp_lp lp, int dbl, long a_si, long a_sk, long b_sk,
		       long b_sj);
/* lp.c's scan (mp_lp_amax_f32 / _f64: per-row maxima of |X(r,t)|, X(r,t)
 * = p[r*sr + t*st] - z, as doubles; 1 when a NaN or an infinity was seen),
 * the same results bit for bit, 16 (8) lanes at a time, for st == 1 or
 * sr == 1 (lp_avx512vnni.c); call only after mp_kernel_available(
 * MP_KERNEL_AVX512VNNI).  hz: z is not +0 (then subtracted, one rounding
 * in the source type, as mp_lp_ldf / mp_lp_ldd). */
int mp_lp_amax_f32__avx512(const float *p, long R, long T, ptrdiff_t sr, ptrdiff_t st, float z,
			   int hz, double *amax);
int mp_lp_amax_f64__avx512(const double *p, long R, long T, ptrdiff_t sr, ptrdiff_t st,
			   double z, int hz, double *amax);
/* BF16 / FP8 contraction with vdpbf16ps (lp_avx512bf16.c). */
void mp_lp_bf16_run__avx512bf16(const mp_lp_ctx *x);
/* The same contraction with AVX2 + FMA, emulating vdpbf16ps's sequence in
 * fp32 with MXCSR.FTZ (lp_avx2.c); call only after
 * mp_kernel_available(MP_KERNEL_AVX2). */
void mp_lp_bf16_run__avx2(const mp_lp_ctx *x);
/* aarch64 (lp_neon.c): whether the CPU has FEAT_BF16 (HWCAP2_BF16), and
 * the BF16 / FP8 contraction on NEON, the same bits as the reference:
 * bfmlal != 0 with BFMLALT / BFMLALB (call only when mp_lp_have_arm_bf16),
 * else FMLA on widened operands (any aarch64). */
int mp_lp_have_arm_bf16(void);
void mp_lp_bf16_run__neon(const mp_lp_ctx *x, int bfmlal);
/* INT8 / UINT8 on the avx2 int8 family, vector packers (lp_i8_avx2.c). */
void mp_lp_i8_run__avx2(const mp_lp_ctx *x);
/* INT8 contraction through the avx512vnni tiles with quantizing packers
 * (lp_avx512vnni.c). */
void mp_lp_i8_run__avx512vnni(const mp_lp_ctx *x);

#endif
