/* gemm.c -- mp_gemm_x8: argument checks, kernel choice and the blocked
 * driver shared by all kernel families (pack B panel, pack A block, run
 * tiles; see mp_gemm.h for the algebra and the layouts).
 * Workload: from single rows (M = 1) to large square GEMMs; a large one
 * runs on an OpenMP team (mp_par.h), each thread on its own rectangle of
 * the output as a contraction of its own (exact: the same bits whatever
 * the split). */
#include <stdlib.h>
#include <string.h>
#include "mp_gemm.h"
#include "mp_runtime.h"
#include "mp_par.h"
#include "lp.h"

static long mp_round_up(long x, long m)
{
	return (x + m - 1) / m * m;
}

static long mp_min(long a, long b)
{
	return a < b ? a : b;
}

/* One cache line at P.  In asm: GCC drops a function whose only effect is
 * __builtin_prefetch (it counts as none, the calls go with the result). */
static inline void mp_prefetch_line(const char *p)
{
#if defined(__x86_64__)
	__asm__ volatile("prefetcht0 (%0)" : : "r"(p));
#elif defined(__aarch64__)
	__asm__ volatile("prfm pldl1keep, [%0]" : : "r"(p));
#else
	(void)p;
#endif
}

/* Prefetches the ROWS x LEN bytes at P (row r at P + r*STRIDE bytes, LEN
 * contiguous) into the cache. */
static void mp_prefetch_rows(const void *p, long rows, ptrdiff_t stride, long len)
{
	/* rows shorter than a line, one after another: one range (else
	   each line would be asked for once per row in it) */
	if (rows > 1 && len < 64 && stride >= 0 && stride <= 64) {
		len += (rows - 1) * stride;
		rows = 1;
	}
	for (long r = 0; r < rows; r++) {
		const char *s = (const char *)p + r * stride;
		for (long o = -(long)((uintptr_t)s & 63); o < len; o += 64)
			mp_prefetch_line(s + o);
	}
}

/* A small problem whose operands are not in the cache (a new operand set
 * on each call) waits on one line after another as the packers and the
 * tiles reach them: asking for A's and B's lines first, and for each
 * tile's output lines while the tile before it computes, lets the memory
 * system fetch them together.  Measured (bench_shapes, one thread, int8
 * 64 x 64 x 64 over 2000 operand sets): 2.9-3.1 -> 1.9 us per call; with
 * the operands in the cache the output's prefetches cost about 0.1 us of
 * 1.4.  Only where each operand is rows of contiguous bytes and the
 * problem is small (MP_PREFETCH_MAX bytes of A and B, and of C). */
#define MP_PREFETCH_MAX (64 * 1024)
static int mp_prefetch_small(const mp_gemm_args *g)
{
	return (g->M + g->N) * g->K <= MP_PREFETCH_MAX && g->M * g->N * 4 <= MP_PREFETCH_MAX;
}

/* A's and B's rows (a small problem: mp_prefetch_small) */
static void mp_prefetch_operands(const mp_gemm_args *g)
{
	long M = g->M, N = g->N, K = g->K;
	if (g->a_sk == 1)
		mp_prefetch_rows(g->a, M, g->a_si, K);
	else if (g->a_si == 1)
		mp_prefetch_rows(g->a, K, g->a_sk, M);
	if (!g->bpk) {
		if (g->b_sj == 1)
			mp_prefetch_rows(g->b, K, g->b_sk, N);
		else if (g->b_sk == 1)
			mp_prefetch_rows(g->b, N, g->b_sj, K);
	}
}

/* The output's rows [I0, I0+MR) x columns [J0, J0+NC) (the next tile's,
 * fetched while this one computes), where its rows are contiguous (a
 * small problem: mp_prefetch_small). */
static void mp_prefetch_out(const mp_gemm_args *g, long i0, long j0, long mr, long nc)
{
	if (i0 >= g->M)
		return;
	if (i0 + mr > g->M)
		mr = g->M - i0;
	if (g->ep && g->ep->out_sj == 1) {
		int esz = g->ep->out_dt == MP_DT_S32 ? 4 : 1;
		mp_prefetch_rows((const char *)g->ep->out + (i0 * g->ep->out_si + j0) * esz, mr,
				 g->ep->out_si * esz, nc * esz);
	} else if (!g->ep && g->c && g->c_sj == 1) {
		mp_prefetch_rows(g->c + i0 * g->c_si + j0, mr, g->c_si * 4, nc * 4);
	}
}

/* See mp_gemm.h.  Loop order: for each NC panel of B (packed once), for
 * each MC block of A (packed), for each NR sliver, for each MR sliver: one
 * tile over all of K.  Buffers: the thread's scratch (mp_runtime.h). */
void mp_gemm_x8_blocked(const mp_gemm_kernel *k, const mp_gemm_args *g)
{
	const int pf = mp_prefetch_small(g);
	if (pf)
		mp_prefetch_operands(g);
	if (k->direct && !g->bpk && k->direct(g))
		return;
	long kp = mp_round_up(g->K, k->kg);
	long mcb = mp_min(mp_round_up(k->mc, k->mr), mp_round_up(g->M, k->mr));
	long ncb = mp_min(mp_round_up(k->nc, k->nr), mp_round_up(g->N, k->nr));
	char *ap = mp_scratch(MP_SCR_A, (size_t)(mcb * kp * k->esz));
	char *bp = g->bpk ? NULL : mp_scratch(MP_SCR_B, (size_t)(ncb * kp * k->esz));
	int32_t *rcorr = mp_scratch(MP_SCR_RCORR, sizeof(int32_t) * (size_t)mcb);
	int32_t *ccorr = g->bpk ? NULL : mp_scratch(MP_SCR_CCORR, sizeof(int32_t) * (size_t)ncb);

	for (long jc = 0; jc < g->N; jc += ncb) {
		long nc = mp_min(ncb, g->N - jc);
		if (g->bpk) {   /* packed once (mp_gemm_x8_const) */
			bp = (char *)g->bpk + jc * kp * k->esz;
			ccorr = (int32_t *)g->bcc + jc;
		} else {
			k->pack_b(g, jc, nc, kp, bp, ccorr);
		}
		for (long ic = 0; ic < g->M; ic += mcb) {
			long mc = mp_min(mcb, g->M - ic);
			k->pack_a(g, ic, mc, kp, ap, rcorr);
			for (long jr = 0; jr < nc; jr += k->nr) {
				const char *bs = bp + jr * kp * k->esz;
				int ncols = (int)mp_min(k->nr, nc - jr);
				for (long ir = 0; ir < mc; ir += k->mr) {
					if (pf)
						mp_prefetch_out(g, ic + ir + k->mr, jc + jr, k->mr,
								ncols);
					k->tile(g, kp / k->kg, ap + ir * kp * k->esz, bs, rcorr + ir,
						ccorr + jr, ic + ir, jc + jr,
						(int)mp_min(k->mr, mc - ir), ncols);
				}
			}
		}
	}
}

/* See mp_gemm.h. */
mp_gemm_args mp_gemm_args_transpose(const mp_gemm_args *g, mp_epilogue *ept)
{
	mp_gemm_args t = {g->N, g->M, g->K, g->b, g->b_dt, g->b_sj, g->b_sk, g->zb,
			  g->a, g->a_dt, g->a_sk, g->a_si, g->za,
			  g->c, g->c_sj, g->c_si, g->accumulate, NULL, NULL, NULL};
	if (g->ep) {
		*ept = *g->ep;
		ept->bias_si = g->ep->bias_sj;
		ept->bias_sj = g->ep->bias_si;
		ept->out_si = g->ep->out_sj;
		ept->out_sj = g->ep->out_si;
		t.ep = ept;
	}
	return t;
}

/* One output of the epilogue: out(i,j) = EPI(init + bias(i,j) + s), with
 * the header's helpers (this file is compiled with -fwrapv: the helpers'
 * int32 additions wrap, as the contract says). */
static inline void mp_epi_one(const mp_epilogue *ep, long i, long j, uint32_t s)
{
	uint32_t x = s + (uint32_t)ep->init;
	if (ep->bias)
		x += (uint32_t)ep->bias[i * ep->bias_si + j * ep->bias_sj];
	int32_t acc = (int32_t)x, v;
	switch (ep->kind) {
	case MP_EPI_FP32:
		v = mp_requant_fp32(acc, ep->scale, ep->zp, ep->qmin, ep->qmax);
		break;
	case MP_EPI_GEMMLOWP:
		v = mp_requant_gemmlowp(acc, ep->qm, ep->shift, ep->zp, ep->qmin, ep->qmax);
		break;
	case MP_EPI_RNDNU:
		v = mp_requant_rndnu(acc, ep->qm, ep->shift, ep->zp, ep->qmin, ep->qmax);
		break;
	case MP_EPI_CLAMP:
		v = mp_clamp_i32(acc, ep->qmin, ep->qmax);
		break;
	default:
		v = acc;
		break;
	}
	ptrdiff_t o = i * ep->out_si + j * ep->out_sj;
	if (ep->out_dt == MP_DT_S32)
		((int32_t *)ep->out)[o] = v;
	else if (ep->out_dt == MP_DT_U8)
		((uint8_t *)ep->out)[o] = (uint8_t)v;
	else
		((int8_t *)ep->out)[o] = (int8_t)v;
}

/* See mp_gemm.h. */
void mp_epi_store_generic(const mp_gemm_args *g, const int32_t *t, long ldt, long i0,
			  long j0, int mr, int nc)
{
	for (int r = 0; r < mr; r++)
		for (int j = 0; j < nc; j++)
			mp_epi_one(g->ep, i0 + r, j0 + j, (uint32_t)t[r * ldt + j]);
}

/* Vector paths first (M == 1, or N == 1 transposed; then up to
 * MP_GEMV_FEW rows or columns where the family takes them), then the blocked
 * driver (which offers the problem to k->direct). */
static void mp_gemm_x8_run(const mp_gemm_kernel *k, const mp_gemm_args *g)
{
	/* a packed constant B: every part reads it (the same B whatever the
	   split, even where the user broke constant='s promise) */
	if (k->gemv && !g->bpk) {
		mp_epilogue et;
		mp_gemm_args t;
		if (g->M == 1 && k->gemv(g))
			return;
		if (g->N == 1 && (t = mp_gemm_args_transpose(g, &et), k->gemv(&t)))
			return;
		/* few rows (or columns): the families that take them */
		if (g->M > 1 && g->M <= MP_GEMV_FEW && k->gemv(g))
			return;
		if (g->N > 1 && g->N <= MP_GEMV_FEW &&
		    (t = mp_gemm_args_transpose(g, &et), k->gemv(&t)))
			return;
	}
	mp_gemm_x8_blocked(k, g);
}

/* One thread's part of mp_gemm_x8_par: rows [i0, i1) and columns
 * [j0, j1) of the grid for the team's actual size n, as a contraction of
 * its own on offset operands. */
typedef struct mp_gemm_job {
	const mp_gemm_kernel *k;
	const mp_gemm_args *g;
} mp_gemm_job;

static void mp_gemm_x8_part(void *p, int t, int n)
{
	const mp_gemm_job *job = p;
	const mp_gemm_args *g = job->g;
	const mp_gemm_kernel *k = job->k;
	int tm, tn;
	long i0, i1, j0, j1;
	mp_par_grid(n, g->M, g->N, k->mr, k->nr, 1.0, 1.0, &tm, &tn);
	if (t >= tm * tn)
		return;
	mp_par_part(g->M, k->mr, t / tn, tm, &i0, &i1);
	mp_par_part(g->N, k->nr, t % tn, tn, &j0, &j1);
	if (i0 >= i1 || j0 >= j1)
		return;
	mp_gemm_args s = *g;
	mp_epilogue e;
	s.M = i1 - i0;
	s.N = j1 - j0;
	s.a = (const uint8_t *)g->a + i0 * g->a_si;
	s.b = (const uint8_t *)g->b + j0 * g->b_sj;
	if (g->bpk) {   /* j0 is a multiple of nr */
		s.bpk = g->bpk + j0 * mp_round_up(g->K, k->kg) * k->esz;
		s.bcc = g->bcc + j0;
	}
	if (g->ep) {
		e = *g->ep;
		size_t esz = e.out_dt == MP_DT_S32 ? 4 : 1;
		e.out = (char *)e.out + (i0 * e.out_si + j0 * e.out_sj) * (ptrdiff_t)esz;
		if (e.bias)
			e.bias += i0 * e.bias_si + j0 * e.bias_sj;
		s.ep = &e;
	} else {
		s.c = g->c + i0 * g->c_si + j0 * g->c_sj;
	}
	mp_gemm_x8_run(k, &s);
}

/* mp_gemm_x8_run on as many threads as the work is worth (mp_par.h). */
static void mp_gemm_x8_par(const mp_gemm_kernel *k, const mp_gemm_args *g)
{
	int nt = mp_par_threads((double)g->M * (double)g->N * (double)(g->K > 0 ? g->K : 1));
	if (nt <= 1) {
		mp_gemm_x8_run(k, g);
		return;
	}
	mp_gemm_job job = {k, g};
	mp_par_run(nt, mp_gemm_x8_part, &job);
}

/* The kernel table of family kern for the operands of g (the i8mm family
 * has one per instruction: gemm_i8mm.c). */
static const mp_gemm_kernel *mp_kernel_table(mp_kernel kern, const mp_gemm_args *g)
{
	if (!mp_kernel_available(kern))
		kern = MP_KERNEL_SCALAR;
	switch (kern) {
#if defined(__x86_64__)
	case MP_KERNEL_AVX512VNNI:
		return &mp_x8_gemm_kernel__avx512vnni;
	case MP_KERNEL_AVX2:
		return &mp_x8_gemm_kernel__avx2;
#endif
#if defined(__aarch64__)
	case MP_KERNEL_I8MM:
		if (g->a_dt == g->b_dt)
			return g->a_dt == MP_DT_S8 ? &mp_x8_gemm_kernel__i8mm_ss
						   : &mp_x8_gemm_kernel__i8mm_uu;
		return &mp_x8_gemm_kernel__i8mm;
	case MP_KERNEL_DOTPROD:
		return &mp_x8_gemm_kernel__dotprod;
#endif
	default:
		return &mp_x8_gemm_kernel__scalar;
	}
}

/* See mixprec.h.  A kernel family this CPU cannot run (or MP_KERNEL_NONE)
 * runs the scalar family instead: kernels never fail. */
void mp_gemm_x8(mp_kernel kern, long M, long N, long K,
		const void *a, int a_dt, ptrdiff_t a_si, ptrdiff_t a_sk, int32_t za,
		const void *b, int b_dt, ptrdiff_t b_sk, ptrdiff_t b_sj, int32_t zb,
		int32_t *c, ptrdiff_t c_si, ptrdiff_t c_sj, int accumulate)
{
	mp_gemm_args g = {M, N, K, a, a_dt, a_si, a_sk, za, b, b_dt, b_sk, b_sj, zb,
			  c, c_si, c_sj, accumulate, NULL, NULL, NULL};
	if (M <= 0 || N <= 0)
		return;
	mp_gemm_x8_par(mp_kernel_table(kern, &g), &g);
}

/* See mp_gemm.h: mp_gemm_x8_run's order, mp_x8_gemv__avx2's conditions
 * (the transposed problem: B's strides a_sk, a_si, zero point zb). */
int mp_x8_few_form(mp_kernel kern, long M, long N, long K, ptrdiff_t a_si, ptrdiff_t a_sk,
		   int32_t za, ptrdiff_t b_sk, ptrdiff_t b_sj, int32_t zb, long *mr, long *nv)
{
	int f;
	if (kern != MP_KERNEL_AVX2)
		return 0;
	if (M == 1 && (f = mp_x8_gemv_avx2_form(1, K, b_sk, b_sj, za))) {
		*mr = 1, *nv = N;
		return f;
	}
	if (N == 1 && (f = mp_x8_gemv_avx2_form(1, K, a_sk, a_si, zb))) {
		*mr = 1, *nv = M;
		return f;
	}
	if (M > 1 && (f = mp_x8_gemv_avx2_form(M, K, b_sk, b_sj, za))) {
		*mr = M, *nv = N;
		return f;
	}
	if (N > 1 && (f = mp_x8_gemv_avx2_form(N, K, a_sk, a_si, zb))) {
		*mr = N, *nv = M;
		return f;
	}
	return 0;
}

/* See mp_gemm.h.  The matrix-vector form with both operands contiguous
 * in k (LLM runners' quantized matmul) has a kernel of its own on
 * AVX512-VNNI and on AVX2; anything else is one mp_gemm_x8 per group into
 * the tile's columns g*N .. g*N + N-1. */
#if defined(__x86_64__) || defined(__aarch64__)
/* The matrix-vector group sums on several threads: rows split in parts of
 * multiples of 4 (the kernel's row block), each row's sums computed by one
 * thread with the same operations whatever the count.  A part whose
 * kernel declines (allocation) is marked and recomputed by the caller. */
typedef struct mp_dot_groups_job {
	long M, K, G;
	const void *a, *b;
	int a_dt, b_dt;
	ptrdiff_t a_si, a_sg, b_sg;
	int32_t *t;
	int form;   /* mp_x8_groups_vec's */
	int failed;
} mp_dot_groups_job;

static void mp_dot_groups_part(void *arg, int t, int n)
{
	mp_dot_groups_job *j = arg;
	long lo, hi;
	mp_par_part(j->M, 4, t, n, &lo, &hi);
#if defined(__x86_64__)
	mp_dot_groups_fn fn = j->form == 1 ? mp_x8_dot_groups__avx512vnni : mp_x8_dot_groups__avx2;
#else
	mp_dot_groups_fn fn = mp_x8_dot_groups__dotprod;
#endif
	if (hi > lo &&
	    !fn(hi - lo, j->K, j->G, (const char *)j->a + lo * j->a_si, j->a_dt, j->a_si,
		j->a_sg, j->b, j->b_dt, j->b_sg, j->t + lo * j->G))
		__atomic_store_n(&j->failed, 1, __ATOMIC_RELAXED);
}
#endif

int mp_x8_groups_vec(mp_kernel kern, long N, long K, ptrdiff_t a_sk, ptrdiff_t b_sk, int32_t za,
		     int32_t zb, int a_dt, int b_dt)
{
#if defined(__x86_64__)
	if (N != 1 || a_sk != 1 || b_sk != 1 || za != 0 || zb != 0 || K <= 0 ||
	    !mp_kernel_available(kern))
		return 0;
	if (kern == MP_KERNEL_AVX512VNNI)
		return a_dt == MP_DT_U8 && b_dt == MP_DT_U8 ? 0 : 1;
	return kern == MP_KERNEL_AVX2 ? 2 : 0;
#elif defined(__aarch64__)
	/* groups_dotprod.c: both families have the dot products (I8MM comes
	   with Armv8.6, which has them); s8 A x u8 b is not taken */
	if (N != 1 || a_sk != 1 || b_sk != 1 || za != 0 || zb != 0 || K <= 0 ||
	    (kern != MP_KERNEL_DOTPROD && kern != MP_KERNEL_I8MM) || !mp_kernel_available(kern) ||
	    !mp_kernel_available(MP_KERNEL_DOTPROD) || (a_dt == MP_DT_S8 && b_dt == MP_DT_U8))
		return 0;
	return 3;
#else
	(void)kern, (void)N, (void)K, (void)a_sk, (void)b_sk, (void)za, (void)zb, (void)a_dt,
		(void)b_dt;
	return 0;
#endif
}

void mp_gemm_x8_groups(mp_kernel kern, long M, long N, long K, long G,
		       const void *a, int a_dt, ptrdiff_t a_si, ptrdiff_t a_sk, ptrdiff_t a_sg,
		       int32_t za, const void *b, int b_dt, ptrdiff_t b_sk, ptrdiff_t b_sj,
		       ptrdiff_t b_sg, int32_t zb, int32_t *t)
{
	if (M <= 0 || N <= 0 || G <= 0)
		return;
#if defined(__x86_64__) || defined(__aarch64__)
	int form = mp_x8_groups_vec(kern, N, K, a_sk, b_sk, za, zb, a_dt, b_dt);
	if (form) {
		int nt = mp_par_threads((double)M * (double)K * (double)G);
		mp_dot_groups_job j = {M, K, G, a, b, a_dt, b_dt, a_si, a_sg, b_sg, t, form, 0};
		if (nt > 1)
			mp_par_run(nt, mp_dot_groups_part, &j);
		else
			mp_dot_groups_part(&j, 0, 1);
		if (!__atomic_load_n(&j.failed, __ATOMIC_RELAXED))
			return;
	}
#endif
	for (long g = 0; g < G; g++)
		mp_gemm_x8(kern, M, N, K, (const char *)a + g * a_sg, a_dt, a_si, a_sk, za,
			   (const char *)b + g * b_sg, b_dt, b_sk, b_sj, zb, t + g * N, G * N, 1, 0);
}

#define MP_X8_CONST_MIN_BYTES 16384.0

/* A constant B (mp_gemm_x8_const) that the blocked driver would pack
 * (not a vector path, not the family's direct path for few rows): the
 * cache's entry, packed on a miss, referenced until mp_lp_cache_done; or
 * NULL (nothing to cache, or above the cache's limit). */
static mp_lp_packed *mp_x8_const_b(const mp_gemm_kernel *k, const mp_gemm_args *g)
{
	if (g->M <= 1 || g->N <= 1 || g->K <= 0 || (k->direct && g->M <= 4 && g->b_sj == 1))
		return NULL;
	/* up to 5 rows (or columns) on the avx2 family's vector paths: they
	   read B in place, faster than the blocked driver on B packed once
	   (bench_dense, 4096 x 4096 weights, one thread: 2 rows 1.18 ms
	   against 1.79, 5 rows 2.47 against 2.64; 8 rows 4.14 against 3.79) */
#if defined(__x86_64__)
	long mr, nv;
	if (k == &mp_x8_gemm_kernel__avx2 &&
	    mp_x8_few_form(MP_KERNEL_AVX2, g->M, g->N, g->K, g->a_si, g->a_sk, g->za, g->b_sk,
			   g->b_sj, g->zb, &mr, &nv) && mr <= 5)
		return NULL;
#endif
	/* a small B packs faster than the cache is looked up (its lock, its
	   hash, the 68-byte sample): bench/bench_dense, one thread, lost
	   0.43-0.93x against packing at 32x32 and 64x64 weights, gained
	   1.02-1.17x at 128x128 */
	if ((double)g->N * (double)g->K < MP_X8_CONST_MIN_BYTES)
		return NULL;
	const long kp = mp_round_up(g->K, k->kg), w = mp_round_up(g->N, k->nr);
	mp_lp_key key = {
		.side = 1, .impl = MP_LPI_NONE, .dyn = 1, .p = g->b, .n = g->N, .K = g->K,
		.s_n = g->b_sj, .s_k = g->b_sk, .x8_family = k,
		.x8_aux = (uint64_t)(uint32_t)g->b_dt | (uint64_t)mp_corr_p(g) << 32,
	};
	key.fp = mp_lp_fingerprint(g->b, 1, g->N, g->K, g->b_sj, g->b_sk);
	unsigned long epoch;
	mp_lp_packed *pk = mp_lp_cache_get(&key, &epoch);
	if (pk)
		return pk;
	pk = mp_lp_cache_new(&key, epoch, NULL, NULL, NULL, NULL, 0.0);
	if (!pk)
		return NULL;
	mp_lp_packed_reserve(pk, 1);
	mp_lp_packed_add(pk, 0, (size_t)(w * kp * k->esz), (size_t)w);
	if (mp_lp_packed_commit(pk)) {
		mp_lp_cache_done(pk);
		return NULL;
	}
	k->pack_b(g, 0, g->N, kp, mp_lp_packed_blk(pk, 0), mp_lp_packed_corr(pk, 0));
	pk->ready = 1;
	return pk;
}

/* See mp_gemm.h. */
void mp_gemm_x8_const(mp_kernel kern, int flags, const mp_gemm_args *g0)
{
	if (g0->M <= 0 || g0->N <= 0 || (!g0->ep && !g0->c))
		return;
	mp_gemm_args g = *g0;
	mp_epilogue et;
	if ((flags & MP_X8_CONST_A) && !(flags & MP_X8_CONST_B) && g.M > 1 && g.N > 1) {
		g = mp_gemm_args_transpose(g0, &et);
		flags = MP_X8_CONST_B;
	}
	const mp_gemm_kernel *k = mp_kernel_table(kern, &g);
	mp_lp_packed *pk = (flags & MP_X8_CONST_B) ? mp_x8_const_b(k, &g) : NULL;
	if (pk) {
		g.bpk = mp_lp_packed_blk(pk, 0);
		g.bcc = mp_lp_packed_corr(pk, 0);
	}
	mp_gemm_x8_par(k, &g);
	mp_lp_cache_done(pk);
}

/* See mixprec.h.  Same dispatch; every output goes through *ep. */
void mp_gemm_x8_epi(mp_kernel kern, long M, long N, long K,
		    const void *a, int a_dt, ptrdiff_t a_si, ptrdiff_t a_sk, int32_t za,
		    const void *b, int b_dt, ptrdiff_t b_sk, ptrdiff_t b_sj, int32_t zb,
		    const mp_epilogue *ep)
{
	mp_gemm_args g = {M, N, K, a, a_dt, a_si, a_sk, za, b, b_dt, b_sk, b_sj, zb,
			  NULL, 0, 0, 0, ep, NULL, NULL};
	if (M <= 0 || N <= 0 || !ep)
		return;
	mp_gemm_x8_par(mp_kernel_table(kern, &g), &g);
}
