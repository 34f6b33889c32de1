/* mp_gemm.h -- internal interface of the int8 contraction (mp_gemm_x8).
 *
 * The contraction runs in three steps shared by every kernel family:
 *   1. pack a block of A to unsigned bytes a' = a + alpha (alpha = 128 for
 *      s8, 0 for u8) and a panel of B to signed bytes b' = b + beta
 *      (beta = -128 for u8, 0 for s8), both zero-padded to the tile and to
 *      the kernel's K-group; packing is where strides and transposition go;
 *   2. a micro-kernel computes sum_k a'b' for an MR x NR tile;
 *   3. the correction (all mod 2^32), with p = alpha + za, q = beta + zb:
 *        sum (a-za)(b-zb) = sum a'b' - q sum_k a' - p sum_k b' + K p q
 *      is folded into two vectors computed while packing:
 *        rcorr[i] = K p q - q rowsum(a')[i],  ccorr[j] = p colsum(b')[j]
 *      and the micro-kernel starts its accumulators at rcorr[i] - ccorr[j],
 *      so the tile it stores is S(i,j) itself.
 *
 * Packed layouts (elements of esz bytes, kp = K rounded up to kg):
 *   A block: sliver s (rows s*mr ...) at s*kp*mr, inside it [k/kg][mr][kg];
 *   B panel: sliver s (cols s*nr ...) at s*kp*nr, inside it [k/kg][nr][kg].
 * Elements are 1 byte (u8 A, s8 B) or 2 bytes (the same values widened to
 * int16, for kernels without byte dot products).
 */
#ifndef MP_GEMM_H
#define MP_GEMM_H

#include "mixprec.h"

/* The arguments of mp_gemm_x8, in one place. */
typedef struct mp_gemm_args {
	long M, N, K;
	const void *a;
	int a_dt;
	ptrdiff_t a_si, a_sk;
	int32_t za;
	const void *b;
	int b_dt;
	ptrdiff_t b_sk, b_sj;
	int32_t zb;
	int32_t *c;
	ptrdiff_t c_si, c_sj;
	int accumulate;
	/* NULL: store / add S at c (mp_gemm_x8).  Otherwise (mp_gemm_x8_epi)
	 * c is NULL and every output goes through this epilogue. */
	const mp_epilogue *ep;
	/* B already packed (a constant operand, mp_gemm_x8_const): column j's
	 * sliver at bpk + j*kp*esz, its corrections at bcc + j (j a multiple
	 * of nr); NULL: the blocked driver packs B itself */
	const char *bpk;
	const int32_t *bcc;
} mp_gemm_args;

/* Packs rows [i0, i0+mc) of A, all of K, into ap (layout above) and writes
 * rcorr[0 .. mc) (int32, as uint32 arithmetic). */
typedef void (*mp_pack_a_fn)(const mp_gemm_args *g, long i0, long mc, long kp,
			     void *ap, int32_t *rcorr);
/* Packs columns [j0, j0+nc) of B, all of K, into bp and writes
 * ccorr[0 .. round_up(nc, nr)) (zero past nc). */
typedef void (*mp_pack_b_fn)(const mp_gemm_args *g, long j0, long nc, long kp,
			     void *bp, int32_t *ccorr);
/* Computes one tile: rows [i0, i0+mr) (mr <= MR) and columns [j0, j0+nc)
 * (nc <= NR) of S from an A sliver ap and a B sliver bp (kp/kg groups), and
 * stores or adds it (g->accumulate) at c with g's output strides, or runs
 * it through g->ep. */
typedef void (*mp_tile_fn)(const mp_gemm_args *g, long kgroups, const void *ap,
			   const void *bp, const int32_t *rcorr, const int32_t *ccorr,
			   long i0, long j0, int mr, int nc);

/* Optional path without the blocked driver (e.g. few rows of A, where
 * packing B costs as much as the product): returns 1 when it computed the
 * whole contraction, 0 to decline. */
typedef int (*mp_direct_fn)(const mp_gemm_args *g);

/* One kernel family: tile shape, K-group, element size, blocking. */
typedef struct mp_gemm_kernel {
	int mr, nr, kg, esz;
	long mc, nc; /* block sizes (rows of A, columns of B) */
	mp_pack_a_fn pack_a;
	mp_pack_b_fn pack_b;
	mp_tile_fn tile;
	mp_direct_fn direct; /* may be NULL */
	/* may be NULL: a vector-matrix path for M == 1 (the driver also offers
	 * it the transposed problem when N == 1, see mp_gemm_args_transpose),
	 * then for M <= MP_GEMV_FEW and N <= MP_GEMV_FEW (transposed); it
	 * returns 0 for what it does not take */
	mp_direct_fn gemv;
} mp_gemm_kernel;

/* The kernel tables (defined in the ISA files; use only when available). */
extern const mp_gemm_kernel mp_x8_gemm_kernel__scalar;
extern const mp_gemm_kernel mp_x8_gemm_kernel__avx2;
extern const mp_gemm_kernel mp_x8_gemm_kernel__avx512vnni;
extern const mp_gemm_kernel mp_x8_gemm_kernel__dotprod;
extern const mp_gemm_kernel mp_x8_gemm_kernel__i8mm;    /* USMMLA: u8 x s8, s8 x u8 */
extern const mp_gemm_kernel mp_x8_gemm_kernel__i8mm_ss; /* SMMLA: s8 x s8 */
extern const mp_gemm_kernel mp_x8_gemm_kernel__i8mm_uu; /* UMMLA: u8 x u8 */

/* An int8 operand's element at p, widened as type dt (MP_DT_U8 or
 * MP_DT_S8) reads it. */
static inline int32_t mp_x8_ld(const void *p, int dt)
{
	return dt == MP_DT_U8 ? (int32_t)*(const uint8_t *)p : (int32_t)*(const int8_t *)p;
}

/* The AVX2 family's matrix-vector paths (gemv_avx2.c): M == 1, and M <=
 * MP_GEMV_FEW with B contiguous in k or in j. */
#define MP_GEMV_FEW 8
/* The form in which mp_x8_gemv__avx2 takes an M-row problem: 1 columns
 * (b_sk == 1), 2 rows (b_sj == 1), 0 it declines (M or K out of range, or
 * A's zero point za beyond the int16 fold a - za). */
static inline int mp_x8_gemv_avx2_form(long M, long K, ptrdiff_t b_sk, ptrdiff_t b_sj,
				       int32_t za)
{
	if (M < 1 || M > MP_GEMV_FEW || K <= 0 || za < -32512 || za > 32640)
		return 0;
	return b_sk == 1 ? 1 : b_sj == 1 ? 2 : 0;
}
/* The path mp_gemm_x8 takes on family KERN for such a problem (A(i,k) at
 * i*a_si + k*a_sk, B(k,j) at k*b_sk + j*b_sj): 1 the columns form, 2 the
 * rows form of gemv_avx2.c, 0 the blocked driver (and on any family but
 * avx2); *mr the rows (or columns) packed as vectors, *nv the other
 * extent.  For nest.c's cost model. */
int mp_x8_few_form(mp_kernel kern, long M, long N, long K, ptrdiff_t a_si, ptrdiff_t a_sk,
		   int32_t za, ptrdiff_t b_sk, ptrdiff_t b_sj, int32_t zb, long *mr, long *nv);
int mp_x8_gemv__avx2(const mp_gemm_args *g);

/* The oracle: the plain loop, in wrapping int32 arithmetic.  Same contract
 * as mp_gemm_x8. */
void mp_gemm_x8_ref(const mp_gemm_args *g);

/* The oracle of mp_gemm_x8_epi (g->ep != NULL): the plain loop, then the
 * header's helpers called per element. */
void mp_gemm_x8_epi_ref(const mp_gemm_args *g);

/* Groups (block-quantized sums): for g < G, the contraction of A and B
 * advanced by g*a_sg / g*b_sg bytes, into t[(i*G + g)*N + j] (an int32
 * tile of M rows of G*N).  Exact modulo 2^32, as mp_gemm_x8. */
void mp_gemm_x8_groups(mp_kernel kern, long M, long N, long K, long G,
		       const void *a, int a_dt, ptrdiff_t a_si, ptrdiff_t a_sk, ptrdiff_t a_sg,
		       int32_t za, const void *b, int b_dt, ptrdiff_t b_sk, ptrdiff_t b_sj,
		       ptrdiff_t b_sg, int32_t zb, int32_t *t);
/* The matrix-vector path below that mp_gemm_x8_groups takes for such a
 * problem on kernel family KERN: 1 AVX512-VNNI, 2 AVX2, 3 the aarch64
 * dot products (families dotprod and i8mm), 0 none.  Without
 * one it runs one mp_gemm_x8 per group, which for N == 1 (a matrix-vector
 * product in groups of a few dozen terms: llama2.c's runq.c) was 30x
 * slower than the loop as written at -O3 (bench_blockq on an AVX2 CPU);
 * nest.c's cost model then runs the loop (fallback reason slow_form). */
int mp_x8_groups_vec(mp_kernel kern, long N, long K, ptrdiff_t a_sk, ptrdiff_t b_sk, int32_t za,
		     int32_t zb, int a_dt, int b_dt);
/* The matrix-vector group sums' kernels below: t[i*G + g] for rows
 * 0..M-1 (A at a, rows a_si apart, groups a_sg apart; b's groups b_sg
 * apart); 0 when the kernel declines (nothing done). */
typedef int (*mp_dot_groups_fn)(long M, long K, long G, const void *a, int a_dt,
				ptrdiff_t a_si, ptrdiff_t a_sg, const void *b, int b_dt,
				ptrdiff_t b_sg, int32_t *t);
/* Its matrix-vector path on AVX512-VNNI (groups_avx512vnni.c): N == 1,
 * both operands contiguous in k, no zero points, not both unsigned;
 * t[i*G + g].  Returns 0 (nothing done) when it declines. */
int mp_x8_dot_groups__avx512vnni(long M, long K, long G, const void *a, int a_dt,
				 ptrdiff_t a_si, ptrdiff_t a_sg, const void *b, int b_dt,
				 ptrdiff_t b_sg, int32_t *t);
/* The same on AVX2 (groups_avx2.c): any signedness, 0 when it declines. */
int mp_x8_dot_groups__avx2(long M, long K, long G, const void *a, int a_dt, ptrdiff_t a_si,
			   ptrdiff_t a_sg, const void *b, int b_dt, ptrdiff_t b_sg, int32_t *t);
/* The same on aarch64 with SDOT / UDOT (groups_dotprod.c): not s8 A x u8
 * b; 0 when it declines. */
int mp_x8_dot_groups__dotprod(long M, long K, long G, const void *a, int a_dt,
			      ptrdiff_t a_si, ptrdiff_t a_sg, const void *b, int b_dt,
			      ptrdiff_t b_sg, int32_t *t);

/* A batch loop inside the rows (batched.c, issue 9: a depthwise
 * convolution's channels): T[(i*G + g)*N + j] = the sum over the nk
 * reduction dims kd (innermost first) of (A(i,g,d) - za) * (B(g,d,j) - zb),
 * A(i,g,d) = a[i*a_si + g*a_sg + sum_l d_l*kd[l].a], B(g,d,j) = b[g*b_sg +
 * j*b_sj + sum_l d_l*kd[l].b] (bytes), A's element pad->pad[0] wherever a
 * condition of PAD (NULL: none) fails, never read there.  Int32 sums
 * modulo 2^32; rows split over the runtime's threads. */
#include "mp_runtime.h"
typedef struct mp_batched_args {
	long M, N, G;
	int nk;
	mp_kdim kd[MP_MAX_KDIMS];
	const void *a;
	int a_dt;
	ptrdiff_t a_si, a_sg;
	int32_t za;
	const void *b;
	int b_dt;
	ptrdiff_t b_sj, b_sg;
	int32_t zb;
	const mp_pad *pad;
	int32_t *t;
	int vec;   /* set by mp_gemm_x8_batched: mp_batched_vec's form */
} mp_batched_args;
void mp_gemm_x8_batched(mp_kernel kern, mp_batched_args *x);
/* Its vector form for such a problem on kernel family KERN (A and B
 * contiguous in g, N == 1, at most MP_BATCHED_MAX_TAPS reduction points,
 * the family's instructions present): 1 AVX512-VNNI, 2 AVX2, 3 NEON (the
 * aarch64 families dotprod and i8mm), 0 none.  Any other problem runs the scalar
 * form, slower than the loop as written compiled with -O3 (nest.c's cost
 * model then runs the loop: fallback reason slow_form). */
enum { MP_BATCHED_MAX_TAPS = 64 };
int mp_batched_vec(mp_kernel kern, long N, ptrdiff_t a_sg, ptrdiff_t b_sg, double taps);
/* Its padding: 1 when every condition of PAD (NULL: none) holds at row i,
 * reduction point d (nk dims); the padding value as A's type reads it. */
static inline int mp_batched_inside(const mp_pad *pad, long i, const long *d, int nk)
{
	for (int c = 0; pad && c < pad->n; c++) {
		long v = pad->c0[c] + pad->ci[c] * i;
		for (int l = 0; l < nk; l++)
			v += pad->ck[c][l] * d[l];
		if (v < 0)
			return 0;
	}
	return 1;
}
static inline int32_t mp_batched_padv(const mp_batched_args *x)
{
	return x->pad ? mp_x8_ld(x->pad->pad, x->a_dt) : 0;
}
/* For the vector forms: the reduction's points in order (kd[0]
 * innermost), their byte offsets in A (oa) and B (ob) and coordinates
 * (dd), and per padding condition its least value over them at row 0
 * (least); returns their count, 0 when above MP_BATCHED_MAX_TAPS.  Then
 * per row i the points inside the image, one bit each (all bits set when
 * the row's window lies inside: one test per condition). */
long mp_batched_taps(const mp_batched_args *x, ptrdiff_t *oa, ptrdiff_t *ob,
		     long (*dd)[MP_MAX_KDIMS], long *least);
uint64_t mp_batched_row_in(const mp_batched_args *x, long i, long T,
			   const long (*dd)[MP_MAX_KDIMS], const long *least);
/* Its vector form (batched_avx512.c): A and B contiguous in g, N == 1;
 * rows lo..hi-1.  Returns 0 (nothing done) with more than 64 taps. */
int mp_batched_rows__avx512(const mp_batched_args *x, long lo, long hi);
/* The same on AVX2 (batched_avx2.c), 16 channels per step. */
int mp_batched_rows__avx2(const mp_batched_args *x, long lo, long hi);
/* The same on aarch64 (batched_neon.c, SMLAL), 16 channels per step. */
int mp_batched_rows__neon(const mp_batched_args *x, long lo, long hi);

/* Runs the blocked driver with kernel k. */
void mp_gemm_x8_blocked(const mp_gemm_kernel *k, const mp_gemm_args *g);

/* mp_gemm_x8 (G->ep NULL) or mp_gemm_x8_epi (G->ep set) on the arguments G,
 * with operands the caller declares constant across calls (MP_X8_CONST_A,
 * MP_X8_CONST_B: the pragma's constant=): a constant B that the blocked
 * driver would pack is packed once for all its columns and kept in the
 * process-wide cache of lp_cache.c (keyed by address, extents, strides,
 * type and kernel family, checked by a sample of its bytes;
 * mp_lp_forget drops it); a constant A alone is made B by transposing
 * the problem.  The results are the same bits as without the flags. */
#define MP_X8_CONST_A 1
#define MP_X8_CONST_B 2
void mp_gemm_x8_const(mp_kernel kern, int flags, const mp_gemm_args *g);

/* The same contraction transposed (S^T = B^T A^T): operands swapped, output
 * strides (and g->ep's bias / out strides, copied into *ept) swapped. */
mp_gemm_args mp_gemm_args_transpose(const mp_gemm_args *g, mp_epilogue *ept);

/* Generic epilogue (any strides, any kind): out(i0+r, j0+j) =
 * EPI(init + bias + t[r*ldt + j]) for r < mr, j < nc, per element with the
 * header's helpers (gemm.c). */
void mp_epi_store_generic(const mp_gemm_args *g, const int32_t *t, long ldt, long i0,
			  long j0, int mr, int nc);

/* ---------------------------------------- helpers for the ISA files */

/* The byte xor that turns an operand of type dt into the packed type:
 * A (to u8): s8 -> 0x80; B (to s8): u8 -> 0x80. */
static inline int mp_flip_a(int dt) { return dt == MP_DT_S8 ? 0x80 : 0; }
static inline int mp_flip_b(int dt) { return dt == MP_DT_U8 ? 0x80 : 0; }

/* p = alpha + za and q = beta + zb, mod 2^32. */
static inline uint32_t mp_corr_p(const mp_gemm_args *g)
{
	return (g->a_dt == MP_DT_S8 ? 128u : 0u) + (uint32_t)g->za;
}
static inline uint32_t mp_corr_q(const mp_gemm_args *g)
{
	return (g->b_dt == MP_DT_U8 ? (uint32_t)-128 : 0u) + (uint32_t)g->zb;
}

/* Generic packing of A (any strides): mr rows per sliver, groups of kg,
 * elements of esz bytes.  Constant mr/kg/esz let the compiler specialize.
 * For instructions that do not multiply u8 by s8 (Arm SDOT, SMMLA, UMMLA:
 * gemm_dotprod.c, gemm_i8mm.c), the two packers can store other bytes:
 *   SXOR (0 or 0x80, bytes only) is xored into the stored elements of A,
 *   not into the row sums: 0x80 stores a' - 128 as a signed byte (the s8
 *   value itself for an s8 A); B's packer then subtracts PSUB = 128 from p,
 *   since sum (a' - 128) b' = sum a'b' - 128 colsum(b');
 *   BXOR (mp_pack_b_generic_x) likewise stores b' + 128 as an unsigned
 *   byte (the u8 value itself for a u8 B); A's packer then adds QADD = 128
 *   to q in the row corrections, since sum a' (b' + 128) = sum a'b' + 128
 *   rowsum(a').
 * Padding stays 0. */
static inline __attribute__((always_inline)) void
mp_pack_a_generic_x(const mp_gemm_args *g, long i0, long mc, long kp, void *ap,
		    int32_t *rcorr, int mr, int kg, int esz, uint8_t sxor, uint32_t qadd)
{
	const uint8_t *a = (const uint8_t *)g->a;
	const uint8_t flip = (uint8_t)mp_flip_a(g->a_dt);
	const uint32_t q = mp_corr_q(g), kpq = (uint32_t)g->K * mp_corr_p(g) * q;
	const uint32_t qr = q + qadd;
	long nsl = (mc + mr - 1) / mr;
	for (long s = 0; s < nsl; s++) {
		for (int r = 0; r < mr; r++) {
			long i = s * mr + r;
			int live = i < mc;
			const uint8_t *row = live ? a + (i0 + i) * g->a_si : a;
			uint32_t sum = 0;
			for (long k = 0; k < kp; k++) {
				uint8_t v = 0, st = 0;
				if (live && k < g->K) {
					v = row[k * g->a_sk] ^ flip;
					st = v ^ sxor;
				}
				sum += v;
				long o = s * kp * mr + (k / kg) * mr * kg + r * kg + k % kg;
				if (esz == 1)
					((uint8_t *)ap)[o] = st;
				else
					((int16_t *)ap)[o] = v;
			}
			if (live)
				rcorr[i] = (int32_t)(kpq - qr * sum);
		}
	}
}

static inline __attribute__((always_inline)) void
mp_pack_a_generic(const mp_gemm_args *g, long i0, long mc, long kp, void *ap,
		  int32_t *rcorr, int mr, int kg, int esz)
{
	mp_pack_a_generic_x(g, i0, mc, kp, ap, rcorr, mr, kg, esz, 0, 0);
}

/* Generic packing of B (any strides), like mp_pack_a_generic; PSUB is
 * subtracted from p in the corrections (128 beside an A packed with SXOR
 * 0x80), BXOR xored into the stored bytes (0x80 beside an A packer with
 * QADD 128). */
static inline __attribute__((always_inline)) void
mp_pack_b_generic_x(const mp_gemm_args *g, long j0, long nc, long kp, void *bp,
		    int32_t *ccorr, int nr, int kg, int esz, uint32_t psub, uint8_t bxor)
{
	const uint8_t *b = (const uint8_t *)g->b;
	const uint8_t flip = (uint8_t)mp_flip_b(g->b_dt);
	const uint32_t p = mp_corr_p(g) - psub;
	long nsl = (nc + nr - 1) / nr;
	for (long s = 0; s < nsl; s++) {
		for (int r = 0; r < nr; r++) {
			long j = s * nr + r;
			int live = j < nc;
			const uint8_t *col = live ? b + (j0 + j) * g->b_sj : b;
			uint32_t sum = 0;
			for (long k = 0; k < kp; k++) {
				int8_t v = 0;
				if (live && k < g->K)
					v = (int8_t)(col[k * g->b_sk] ^ flip);
				sum += (uint32_t)(int32_t)v;
				long o = s * kp * nr + (k / kg) * nr * kg + r * kg + k % kg;
				if (esz == 1)
					((uint8_t *)bp)[o] = (uint8_t)v ^ bxor;
				else
					((int16_t *)bp)[o] = v;
			}
			ccorr[j] = (int32_t)(live ? p * sum : 0);
		}
	}
}

static inline __attribute__((always_inline)) void
mp_pack_b_generic(const mp_gemm_args *g, long j0, long nc, long kp, void *bp,
		  int32_t *ccorr, int nr, int kg, int esz)
{
	mp_pack_b_generic_x(g, j0, nc, kp, bp, ccorr, nr, kg, esz, 0, 0);
}

/* Writes (or adds) an mr x nc tile t (row stride ldt), rows from i0 and
 * columns from j0, to c with the output strides of g, or runs it through
 * the epilogue g->ep. */
static inline void mp_store_tile(const mp_gemm_args *g, const int32_t *t, long ldt,
				 long i0, long j0, int mr, int nc)
{
	if (g->ep) {
		mp_epi_store_generic(g, t, ldt, i0, j0, mr, nc);
		return;
	}
	int32_t *c = g->c + i0 * g->c_si + j0 * g->c_sj;
	for (int r = 0; r < mr; r++)
		for (int j = 0; j < nc; j++) {
			int32_t *d = c + r * g->c_si + j * g->c_sj;
			uint32_t v = (uint32_t)t[r * ldt + j];
			*d = (int32_t)(g->accumulate ? (uint32_t)*d + v : v);
		}
}

#endif
