/* gemv_avx2.c -- the matrix-vector paths of the AVX2 kernel family
 * (mp_gemm_kernel.gemv: M == 1, and N == 1 through the transposition in
 * gemm.c), for CPUs without AVX512-VNNI.
 *
 * Without them an N == 1 product went through the blocked driver, which
 * packs the whole matrix widened to int16 and fills one column of each
 * 6 x 16 tile: 4096 x 4096 ran at 0.38x the loop as written at -O3
 * (bench_gemm on an AVX2 CPU).  Here the matrix is read once, in place,
 * and each 16 bytes are widened as they are loaded (vpmovsxbw /
 * vpmovzxbw), multiplied with vpmaddwd and added with vpaddd.
 *
 * The vector is packed once per call to int16 with A's zero point folded
 * in, a'(k) = a(k) - za (so no sums over the matrix are needed), and
 *   S(j) = sum_k a'(k) b(k, j) - zb sum_k a'(k)          (mod 2^32).
 * a' fits int16 when -32512 <= za <= 32640 (other zero points decline: the
 * blocked driver takes them); a product fits 24 bits, a vpmaddwd pair 25,
 * and the int32 additions wrap as the source's do.  Exact: integer sums
 * do not see the order of the additions.
 *
 * Up to MP_GEMV_MR (8) rows of A, each packed so; mp_gemm_x8_run also offers
 * the transposed problem of up to 8 columns.  Two layouts of the matrix:
 * columns contiguous in k (b_sk == 1: A x with A row-major, after the
 * transposition), dot products of mr rows with 4, 2 or 1 columns at a time
 * (at most 8 accumulators, each column widened once for all rows); rows
 * contiguous in j (b_sj == 1: x^T B), two pairs of rows at a time
 * interleaved byte-wise into vpmaddwd's pairs, into int32 accumulators per
 * row of A for a block of columns held in L1. */
#include <immintrin.h>
#include <string.h>
#include "mp_gemm.h"
#include "mp_avx2.h"
#include "mp_runtime.h"

#define MP_GEMV_NB 512  /* columns per pass of the rows path */
#define MP_GEMV_NT 64   /* outputs per store of the columns path */
#define MP_GEMV_MR MP_GEMV_FEW /* most rows of A the columns path takes */

/* 16 bytes at p widened to int16 as dt reads them (all 16 valid). */
static inline __attribute__((always_inline)) __m256i mp_gemv_w16(const uint8_t *p,
								 const int u8)
{
	__m128i v = _mm_loadu_si128((const __m128i *)p);
	return u8 ? _mm256_cvtepu8_epi16(v) : _mm256_cvtepi8_epi16(v);
}

/* The M (<= MP_GEMV_MR) vectors a'(i, k) = a(i, k) - za as int16 into the
 * thread's scratch, row i at i*kp (kp = K rounded up to 16, zeros past K);
 * corr[i] = -zb sum_k a'(i, k) (mod 2^32).  NULL without scratch. */
static int16_t *mp_gemv_vec(const mp_gemm_args *g, long kp, uint32_t *corr)
{
	const long K = g->K;
	int16_t *xv = mp_scratch(MP_SCR_VEC, sizeof(int16_t) * (size_t)(kp * g->M));
	if (!xv)
		return NULL;
	for (long i = 0; i < g->M; i++) {
		const uint8_t *a = (const uint8_t *)g->a + i * g->a_si;
		int16_t *x = xv + i * kp;
		uint32_t sum = 0;
		for (long k = 0; k < K; k++) {
			int32_t d = mp_x8_ld(a + k * g->a_sk, g->a_dt) - g->za;
			x[k] = (int16_t)d;
			sum += (uint32_t)d;
		}
		memset(x + K, 0, sizeof(int16_t) * (size_t)(kp - K));
		corr[i] = (uint32_t)0 - (uint32_t)g->zb * sum;
	}
	return xv;
}

/* Columns contiguous in k: S(i, j) for mr rows (vectors xv + i*kp) and nc
 * columns at cols[] (mr*nc <= 8 accumulators), into out[i*ldo + c]. */
static inline __attribute__((always_inline)) void
mp_gemv_cols_dot(const int16_t *xv, long kp, const uint8_t *const *cols, long K,
		 const uint32_t *corr, uint32_t *out, long ldo, const int mr, const int nc,
		 const int u8)
{
	__m256i s[8];
#pragma GCC unroll 8
	for (int i = 0; i < mr * nc; i++)
		s[i] = _mm256_setzero_si256();
	long k = 0;
	for (; k + 16 <= K; k += 16) {
		__m256i bw[4];
#pragma GCC unroll 4
		for (int c = 0; c < nc; c++)
			bw[c] = mp_gemv_w16(cols[c] + k, u8);
#pragma GCC unroll 8
		for (int r = 0; r < mr; r++) {
			const __m256i x = _mm256_load_si256((const __m256i *)(xv + r * kp + k));
#pragma GCC unroll 4
			for (int c = 0; c < nc; c++)
				s[r * nc + c] = _mm256_add_epi32(s[r * nc + c], _mm256_madd_epi16(bw[c], x));
		}
	}
	uint32_t v[8];
#pragma GCC unroll 2
	for (int i = 0; i < mr * nc; i += 4) {
		const int n = mr * nc - i;
		_mm_storeu_si128((__m128i *)(v + i),
				 mp_avx2_sum4(s[i], s[n > 1 ? i + 1 : i], s[n > 2 ? i + 2 : i],
					      s[n > 3 ? i + 3 : i]));
	}
#pragma GCC unroll 8
	for (int r = 0; r < mr; r++)
		for (int c = 0; c < nc; c++) {
			/* the last K % 16 terms in scalar code (a partial vector
			   load through a buffer cost more on short columns) */
			uint32_t t = v[r * nc + c] + corr[r];
			for (long q = k; q < K; q++)
				t += (uint32_t)((int32_t)xv[r * kp + q] *
						mp_x8_ld(cols[c] + q, u8 ? MP_DT_U8 : MP_DT_S8));
			out[r * ldo + c] = t;
		}
}

/* Columns per step for mr rows: as many as keep mr*nc <= 8 accumulators. */
#define MP_GEMV_NC(mr) ((mr) <= 2 ? 4 : (mr) <= 4 ? 2 : 1)

static inline __attribute__((always_inline)) void
mp_gemv_cols_run(const mp_gemm_args *g, const int16_t *xv, long kp, const uint32_t *corr,
		 const int mr, const int u8)
{
	const uint8_t *b = g->b;
	const long N = g->N, K = g->K;
	const int nc = MP_GEMV_NC(mr);
	uint32_t t[MP_GEMV_MR * MP_GEMV_NT];
	for (long j0 = 0; j0 < N; j0 += MP_GEMV_NT) {
		int n = N - j0 < MP_GEMV_NT ? (int)(N - j0) : MP_GEMV_NT, j = 0;
		for (; j + nc <= n; j += nc) {
			const uint8_t *cols[4];
			for (int c = 0; c < nc; c++)
				cols[c] = b + (j0 + j + c) * g->b_sj;
			mp_gemv_cols_dot(xv, kp, cols, K, corr, t + j, MP_GEMV_NT, mr, nc, u8);
		}
		for (; j < n; j++) {
			const uint8_t *col = b + (j0 + j) * g->b_sj;
			mp_gemv_cols_dot(xv, kp, &col, K, corr, t + j, MP_GEMV_NT, mr, 1, u8);
		}
		mp_store_tile(g, (const int32_t *)t, MP_GEMV_NT, 0, j0, mr, n);
	}
}

/* Rows contiguous in j: adds the rows r[0..2*np) of B (columns from the
 * block's start, nb of them, a multiple of 16) times A's int16 pairs
 * w[i*2 + h] (row i of A: a'(i, k) low, a'(i, k+1) high; pair h of the
 * step) into acc[i*MP_GEMV_NB ...] for the mr rows of A. */
static inline __attribute__((always_inline)) void
mp_gemv_rows_pairs(const uint8_t *const *r, const int32_t *w, long nb, int32_t *acc,
		   const int mr, const int np, const int u8)
{
	for (long j = 0; j < nb; j += 16) {
		__m256i y[2][2];
#pragma GCC unroll 2
		for (int h = 0; h < np; h++) {
			__m128i x0 = _mm_loadu_si128((const __m128i *)(r[2 * h] + j));
			__m128i x1 = _mm_loadu_si128((const __m128i *)(r[2 * h + 1] + j));
			/* (b(k, j), b(k+1, j)) byte pairs, columns j..j+7 then j+8.. */
			__m128i p0 = _mm_unpacklo_epi8(x0, x1), p1 = _mm_unpackhi_epi8(x0, x1);
			y[h][0] = u8 ? _mm256_cvtepu8_epi16(p0) : _mm256_cvtepi8_epi16(p0);
			y[h][1] = u8 ? _mm256_cvtepu8_epi16(p1) : _mm256_cvtepi8_epi16(p1);
		}
#pragma GCC unroll 8
		for (int i = 0; i < mr; i++) {
			int32_t *ai = acc + i * MP_GEMV_NB + j;
			__m256i lo = _mm256_load_si256((const __m256i *)ai);
			__m256i hi = _mm256_load_si256((const __m256i *)(ai + 8));
#pragma GCC unroll 2
			for (int h = 0; h < np; h++) {
				const __m256i wv = _mm256_set1_epi32(w[i * 2 + h]);
				lo = _mm256_add_epi32(lo, _mm256_madd_epi16(y[h][0], wv));
				hi = _mm256_add_epi32(hi, _mm256_madd_epi16(y[h][1], wv));
			}
			_mm256_store_si256((__m256i *)ai, lo);
			_mm256_store_si256((__m256i *)(ai + 8), hi);
		}
	}
}

/* The int16 pair (a'(k), a'(k+1)) as one int32 (a'(K) = 0: xv is zero
 * past K). */
static inline int32_t mp_gemv_pair(const int16_t *xv, long k)
{
	int32_t w;
	memcpy(&w, xv + k, 4);
	return w;
}

static inline __attribute__((always_inline)) void
mp_gemv_rows_run(const mp_gemm_args *g, const int16_t *xv, long kp, const uint32_t *corr,
		 int32_t *acc, const int mr, const int u8)
{
	const uint8_t *b = g->b;
	const long N = g->N, K = g->K;
	for (long jb = 0; jb < N; jb += MP_GEMV_NB) {
		long nb = N - jb < MP_GEMV_NB ? N - jb : MP_GEMV_NB, nv = nb / 16 * 16;
		for (int i = 0; i < mr; i++)
			memset(acc + i * MP_GEMV_NB, 0, sizeof(int32_t) * (size_t)nb);
		long k = 0;
		int32_t w[2 * MP_GEMV_MR];
		for (; nv && k + 4 <= K; k += 4) {
			const uint8_t *r[4];
			for (int u = 0; u < 4; u++)
				r[u] = b + (k + u) * g->b_sk + jb;
			for (int i = 0; i < mr; i++) {
				w[2 * i] = mp_gemv_pair(xv + i * kp, k);
				w[2 * i + 1] = mp_gemv_pair(xv + i * kp, k + 2);
			}
			mp_gemv_rows_pairs(r, w, nv, acc, mr, 2, u8);
		}
		for (; nv && k < K; k += 2) {
			/* the last row alone pairs with itself, times a'(K) = 0 */
			const uint8_t *r[2] = {b + k * g->b_sk + jb,
					       b + (k + 1 < K ? k + 1 : k) * g->b_sk + jb};
			for (int i = 0; i < mr; i++)
				w[2 * i] = mp_gemv_pair(xv + i * kp, k);
			mp_gemv_rows_pairs(r, w, nv, acc, mr, 1, u8);
		}
		/* the last nb % 16 columns in scalar code (AVX2 has no masked
		   byte loads; through a buffer they cost more on narrow rows) */
		for (int i = 0; i < mr; i++) {
			int32_t *ai = acc + i * MP_GEMV_NB;
			const int16_t *x = xv + i * kp;
			for (long j = nv; j < nb; j++) {
				const uint8_t *col = b + jb + j;
				uint32_t t = 0;
				for (long q = 0; q < K; q++)
					t += (uint32_t)((int32_t)x[q] *
							mp_x8_ld(col + q * g->b_sk,
								 u8 ? MP_DT_U8 : MP_DT_S8));
				ai[j] = (int32_t)t;
			}
			for (long j = 0; j < nb; j++)
				ai[j] = (int32_t)((uint32_t)ai[j] + corr[i]);
		}
		mp_store_tile(g, acc, MP_GEMV_NB, 0, jb, mr, (int)nb);
	}
}

/* gemv hook of the AVX2 family (see the top of the file): up to MP_GEMV_MR
 * rows of A.  Declines (0) what mp_x8_gemv_avx2_form does: other layouts,
 * K == 0, zero points of A beyond the int16 fold. */
int mp_x8_gemv__avx2(const mp_gemm_args *g)
{
	if (!mp_x8_gemv_avx2_form(g->M, g->K, g->b_sk, g->b_sj, g->za))
		return 0;
	const long kp = (g->K + 15) / 16 * 16;
	uint32_t corr[MP_GEMV_MR];
	int16_t *xv = mp_gemv_vec(g, kp, corr);
	if (!xv)
		return 0;
	const int u8 = g->b_dt == MP_DT_U8;
	int32_t *acc = NULL;
	if (g->b_sk != 1 &&
	    !(acc = mp_scratch(MP_SCR_T, sizeof(int32_t) * (size_t)(MP_GEMV_NB * g->M))))
		return 0;
#define MP_GEMV_CASE(MR)                                                        \
	case MR:                                                                \
		if (g->b_sk == 1 && u8)                                         \
			mp_gemv_cols_run(g, xv, kp, corr, MR, 1);               \
		else if (g->b_sk == 1)                                          \
			mp_gemv_cols_run(g, xv, kp, corr, MR, 0);               \
		else if (u8)                                                    \
			mp_gemv_rows_run(g, xv, kp, corr, acc, MR, 1);          \
		else                                                            \
			mp_gemv_rows_run(g, xv, kp, corr, acc, MR, 0);          \
		break;
	switch (g->M) {
	MP_GEMV_CASE(1) MP_GEMV_CASE(2) MP_GEMV_CASE(3) MP_GEMV_CASE(4)
	MP_GEMV_CASE(5) MP_GEMV_CASE(6) MP_GEMV_CASE(7) MP_GEMV_CASE(8)
	}
#undef MP_GEMV_CASE
	return 1;
}
