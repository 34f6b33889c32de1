/* stage.c -- operands whose reduction runs over several loops (issue 9: a
 * convolution's `for (kh) for (kw) for (ic) acc += in[..] * w[..]`).
 *
 * The plugin passes the reduction as a list of dimensions, innermost (loop
 * k) first, each with its extent and A's and B's byte strides.  The sum
 * runs over their product in the linear order k = ((d2*e1) + d1)*e0 + d0,
 * the same for both operands.  An operand whose dimensions chain (each
 * stride is the previous one times its extent: NHWC weights, or the
 * `kw, ic` pair of an NHWC input) is one strided row already; another is
 * copied once per call into a per-thread buffer in that linear order
 * (A: M rows of Ktot bytes; B: N columns of Ktot bytes, k contiguous), and
 * the kernels read the copy: packing is where strides go, and this copy is
 * the part of it the packers cannot do in place.  Integer sums are exact
 * in any order; the operands' bytes are the same bytes. */
#include <limits.h>
#include <stdint.h>
#include <string.h>
#include "mp_runtime.h"

/* Drop dimensions of extent 1 (the last one stays so that nd >= 1) and
 * merge dims[i+1] into dims[i] when operand X's stride chains. */
static int chain_dims(const mp_kdim *in, int nd, int which, long *ext, ptrdiff_t *str)
{
	int m = 0;

	for (int i = 0; i < nd; i++) {
		ptrdiff_t s = which ? in[i].b : in[i].a;

		if (in[i].n == 1 && (m > 0 || i + 1 < nd))
			continue;
		if (m > 0 && s == ext[m - 1] * str[m - 1]) {
			ext[m - 1] *= in[i].n;
			continue;
		}
		ext[m] = in[i].n;
		str[m] = s;
		m++;
	}
	return m;
}

/* N bytes from S to D (not overlapping): a convolution's window rows of a
 * few channels are short, and a call to memcpy per run cost more than the
 * kernels on small images; fixed-size moves inside [S, S + N), the last
 * one overlapping the one before. */
static inline void copy_run(uint8_t *d, const uint8_t *s, size_t n)
{
	if (n > 32) {
		memcpy(d, s, n);
	} else if (n >= 8) {
		uint64_t x;
		for (size_t t = 0; t + 8 < n; t += 8) {
			memcpy(&x, s + t, 8);
			memcpy(d + t, &x, 8);
		}
		memcpy(&x, s + n - 8, 8);
		memcpy(d + n - 8, &x, 8);
	} else if (n >= 4) {
		uint32_t x, y;
		memcpy(&x, s, 4);
		memcpy(&y, s + n - 4, 4);
		memcpy(d, &x, 4);
		memcpy(d + n - 4, &y, 4);
	} else if (n >= 2) {
		uint16_t x, y;
		memcpy(&x, s, 2);
		memcpy(&y, s + n - 2, 2);
		memcpy(d, &x, 2);
		memcpy(d + n - 2, &y, 2);
	} else if (n == 1) {
		d[0] = s[0];
	}
}

/* N elements of ESZ bytes (1, 2 or 4 in practice), element t at S + t*ST,
 * to D contiguous. */
static inline void copy_strided(uint8_t *d, const uint8_t *s, long n, ptrdiff_t st, size_t esz)
{
	if (esz == 1)
		for (long t = 0; t < n; t++)
			d[t] = s[t * st];
	else if (esz == 2)
		for (long t = 0; t < n; t++)
			memcpy(d + 2 * t, s + t * st, 2);
	else if (esz == 4)
		for (long t = 0; t < n; t++)
			memcpy(d + 4 * t, s + t * st, 4);
	else
		for (long t = 0; t < n; t++)
			memcpy(d + (size_t)t * esz, s + t * st, esz);
}

/* Copies `count` vectors of the reduction, vector v at base + (w % m1)*vs +
 * (w / m1)*vs2 with w = r0 + v, each of Ktot elements of esz bytes along
 * the dims, into dst (vector v at dst + v*Ktot*esz). */
static void gather(uint8_t *dst, const uint8_t *base, long count, ptrdiff_t vs, long m1,
		   ptrdiff_t vs2, long r0, const long *ext, const ptrdiff_t *str, int m,
		   size_t esz)
{
	long e1 = m > 1 ? ext[1] : 1, e2 = m > 2 ? ext[2] : 1;
	ptrdiff_t s1 = m > 1 ? str[1] : 0, s2 = m > 2 ? str[2] : 0;

	for (long v = 0; v < count; v++) {
		long w = r0 + v;
		const uint8_t *row = m1 == LONG_MAX ? base + w * vs
						    : base + (w % m1) * vs + (w / m1) * vs2;

		for (long o2 = 0; o2 < e2; o2++)
			for (long o1 = 0; o1 < e1; o1++) {
				const uint8_t *p = row + o2 * s2 + o1 * s1;

				if (str[0] == (ptrdiff_t)esz)
					copy_run(dst, p, (size_t)ext[0] * esz);
				else
					copy_strided(dst, p, ext[0], str[0], esz);
				dst += (size_t)ext[0] * esz;
			}
	}
}

/* gather's padded form (o->pad): rows r0 .. r0+count-1 of A.  A row whose
 * window lies inside the image for every position (each condition's least
 * value over the dims is >= 0: most rows of an image) is copied as gather
 * does, over the chained dims (ext, str, m); another over the dims as
 * given, a run of d0 at a time, or element by element where a condition
 * depends on d0.  An element whose conditions do not all hold is the pad
 * value, and its address is not read.  The caller checked that no
 * condition's value overflows a long (pad_fits). */
/* N elements of ESZ bytes: the pad value */
static void fill_pad(uint8_t *dst, const unsigned char *pad, long n, size_t esz)
{
	if (esz == 1) {
		memset(dst, pad[0], (size_t)n);
		return;
	}
	for (long t = 0; t < n; t++)
		memcpy(dst + (size_t)t * esz, pad, esz);
}

static void gather_pad(uint8_t *dst, const mp_operands *o, long count, const mp_kdim *dims,
		       int nd, const long *ext, const ptrdiff_t *str, int m, size_t esz)
{
	const mp_pad *p = o->pad;
	long e[MP_MAX_KDIMS] = { 1, 1, 1 }, low[MP_MAX_PAD];
	ptrdiff_t s[MP_MAX_KDIMS] = { 0, 0, 0 };
	long m1 = o->m1 > 0 ? o->m1 : LONG_MAX;
	int inner = 0;

	for (int d = 0; d < nd && d < MP_MAX_KDIMS; d++)
		e[d] = dims[d].n, s[d] = dims[d].a;
	for (int c = 0; c < p->n; c++) {
		inner |= p->ck[c][0] != 0;
		low[c] = 0;   /* the least of sum_d ck[d]*x_d, 0 <= x_d < e[d] */
		for (int d = 0; d < MP_MAX_KDIMS; d++)
			low[c] += p->ck[c][d] < 0 ? p->ck[c][d] * (e[d] - 1) : 0;
	}
	/* row w = r0 + v is (i, i2) = (w % m1, w / m1), counted along */
	long i = o->r0 % m1, w2 = o->r0 / m1;
	for (long v = 0; v < count; v++, i++) {
		if (i == m1)
			i = 0, w2++;
		long i2 = o->m1 > 0 ? w2 : o->blk;
		const uint8_t *row = (const uint8_t *)o->a + i * o->a_si +
				     (o->m1 > 0 ? w2 * o->a_s2 : 0);
		long rv[MP_MAX_PAD];
		int all = 1;

		for (int c = 0; c < p->n; c++) {
			rv[c] = p->c0[c] + p->ci[c] * i + p->ci2[c] * i2;
			all &= rv[c] + low[c] >= 0;
		}
		if (all) {   /* inside the image: as gather */
			gather(dst, row, 1, 0, LONG_MAX, 0, 0, ext, str, m, esz);
			dst += (size_t)e[0] * e[1] * e[2] * esz;
			continue;
		}
		for (long o2 = 0; o2 < e[2]; o2++)
			for (long o1 = 0; o1 < e[1]; o1++) {
				const uint8_t *q = row + o2 * s[2] + o1 * s[1];
				long part[MP_MAX_PAD];
				int ok = 1;

				for (int c = 0; c < p->n; c++) {
					part[c] = rv[c] + p->ck[c][2] * o2 + p->ck[c][1] * o1;
					ok &= part[c] >= 0;
				}
				if (!inner) {
					if (!ok)
						fill_pad(dst, p->pad, e[0], esz);
					else if (s[0] == (ptrdiff_t)esz)
						copy_run(dst, q, (size_t)e[0] * esz);
					else
						copy_strided(dst, q, e[0], s[0], esz);
				} else {
					for (long t = 0; t < e[0]; t++) {
						int in = 1;

						for (int c = 0; c < p->n; c++)
							in &= part[c] + p->ck[c][0] * t >= 0;
						if (in)
							memcpy(dst + t * esz, q + t * s[0], esz);
						else
							memcpy(dst + t * esz, p->pad, esz);
					}
				}
				dst += (size_t)e[0] * esz;
			}
	}
}

/* Every condition's value over the rows and dims fits a long with room
 * (|c0| + sum |coef|*(extent-1) < 2^62), so gather_pad needs no wider
 * arithmetic. */
static int pad_fits(const mp_pad *p, long rows, long blocks, const mp_kdim *dims, int nd)
{
	for (int c = 0; c < p->n; c++) {
		__int128 t = p->c0[c] < 0 ? -(__int128)p->c0[c] : p->c0[c];
		__int128 ci = p->ci[c], ci2 = p->ci2[c];

		t += (ci < 0 ? -ci : ci) * (rows > 0 ? rows : 0);
		t += (ci2 < 0 ? -ci2 : ci2) * (blocks > 0 ? blocks : 0);
		for (int d = 0; d < nd && d < MP_MAX_KDIMS; d++) {
			__int128 k = p->ck[c][d];
			t += (k < 0 ? -k : k) * dims[d].n;
		}
		if (t >= ((__int128)1 << 62))
			return 0;
	}
	return 1;
}

/* See mp_runtime.h. */
int mp_pad_span(const void *a, long M, ptrdiff_t a_si, long M2, ptrdiff_t a_s2,
		const mp_kdim *dims, int nd, const mp_pad *p, intptr_t *lo, intptr_t *hi)
{
	long e[MP_MAX_KDIMS] = { 1, 1, 1 };
	ptrdiff_t s[MP_MAX_KDIMS] = { 0, 0, 0 };
	int inner = 0, found = 0;

	long low[MP_MAX_PAD];
	intptr_t blo = 0, bhi = 0;   /* a whole row's offsets */

	if (!pad_fits(p, M, M2, dims, nd))
		return -1;
	for (int d = 0; d < nd && d < MP_MAX_KDIMS; d++) {
		e[d] = dims[d].n, s[d] = dims[d].a;
		if (e[d] <= 0)
			return 0;
		intptr_t x = (intptr_t)(e[d] - 1) * s[d];
		if (x < 0)
			blo += x;
		else
			bhi += x;
	}
	for (int c = 0; c < p->n; c++) {
		inner |= p->ck[c][0] != 0;
		low[c] = 0;
		for (int d = 0; d < MP_MAX_KDIMS; d++)
			low[c] += p->ck[c][d] < 0 ? p->ck[c][d] * (e[d] - 1) : 0;
	}
	for (long b = 0; b < M2; b++)
		for (long i = 0; i < M; i++) {
			intptr_t row = (intptr_t)a + i * a_si + b * a_s2;
			long rv[MP_MAX_PAD];
			int all = 1;

			for (int c = 0; c < p->n; c++) {
				rv[c] = p->c0[c] + p->ci[c] * i + p->ci2[c] * b;
				all &= rv[c] + low[c] >= 0;
			}
			if (all) {   /* inside the image: the row's whole box */
				if (!found || row + blo < *lo)
					*lo = row + blo;
				if (!found || row + bhi > *hi)
					*hi = row + bhi;
				found = 1;
				continue;
			}
			for (long o2 = 0; o2 < e[2]; o2++)
				for (long o1 = 0; o1 < e[1]; o1++) {
					intptr_t q = row + o2 * s[2] + o1 * s[1];
					long part[MP_MAX_PAD];
					int ok = 1;

					for (int c = 0; c < p->n; c++) {
						part[c] = rv[c] + p->ck[c][2] * o2 + p->ck[c][1] * o1;
						ok &= part[c] >= 0;
					}
					for (long t = 0; t < e[0]; t++) {
						int in = ok;

						if (inner) {
							in = 1;
							for (int c = 0; c < p->n; c++)
								in &= part[c] + p->ck[c][0] * t >= 0;
						} else if (t > 0 && t < e[0] - 1)
							t = e[0] - 1;   /* the run's ends suffice */
						if (!in)
							continue;
						intptr_t x = q + t * s[0];
						if (!found || x < *lo)
							*lo = x;
						if (!found || x > *hi)
							*hi = x;
						found = 1;
					}
				}
		}
	return found;
}

/* See mp_runtime.h. */
int mp_stage_levels(long M, long N, const mp_kdim *dims, int nd, size_t esz,
		    mp_operands *o)
{
	long ea[MP_MAX_KDIMS], eb[MP_MAX_KDIMS];
	ptrdiff_t sa[MP_MAX_KDIMS], sb[MP_MAX_KDIMS];
	long K = 1;
	int ma, mb;

	if (nd < 1 || nd > MP_MAX_KDIMS)
		return -1;
	for (int i = 0; i < nd; i++) {
		if (dims[i].n <= 0) {   /* an empty sum */
			o->K = 0;
			return 0;
		}
		if (__builtin_mul_overflow(K, dims[i].n, &K))
			return -1;
	}
	o->K = K;
	o->runs_a = o->runs_b = 0;
	ma = chain_dims(dims, nd, 0, ea, sa);
	mb = chain_dims(dims, nd, 1, eb, sb);
	if (M <= 0 || N <= 0)
		ma = mb = 1;
	size_t row;
	if (__builtin_mul_overflow((size_t)K, esz, &row))
		return -1;
	if (o->pad && o->pad->n > 0) {
		size_t bytes;
		long rows = o->m1 > 0 ? o->m1 : o->r0 + M, blocks = o->blk + 1;
		if (o->m1 > 0)
			blocks += (o->r0 + M) / o->m1;
		if (esz > sizeof o->pad->pad || __builtin_mul_overflow(row, (size_t)M, &bytes) ||
		    bytes > MP_STAGE_MAX || !pad_fits(o->pad, rows, blocks, dims, nd))
			return -1;
		if (!o->dry) {   /* (a dry run: the strides only) */
			uint8_t *d = mp_scratch(MP_SCR_STAGE_A, bytes);
			if (!d)
				return -1;
			long pe[MP_MAX_KDIMS];
			ptrdiff_t ps[MP_MAX_KDIMS];
			int pm = chain_dims(dims, nd, 0, pe, ps);
			gather_pad(d, o, M, dims, nd, pe, ps, pm, esz);
			o->a = d;
		}
		o->a_si = (ptrdiff_t)row;
		o->a_sk = (ptrdiff_t)esz;
	} else if (ma == 1 && o->m1 <= 0) {
		if (!o->dry)
			o->a = (const uint8_t *)o->a + o->r0 * o->a_si;
		o->a_sk = sa[0];
	} else {
		size_t bytes;
		if (__builtin_mul_overflow(row, (size_t)M, &bytes) || bytes > MP_STAGE_MAX)
			return -1;
		o->runs_a = M * (ma > 1 ? ea[1] : 1) * (ma > 2 ? ea[2] : 1);
		if (!o->dry) {
			uint8_t *d = mp_scratch(MP_SCR_STAGE_A, bytes);
			gather(d, o->a, M, o->a_si, o->m1 > 0 ? o->m1 : LONG_MAX, o->a_s2, o->r0,
			       ea, sa, ma, esz);
			o->a = d;
		}
		o->a_si = (ptrdiff_t)row;
		o->a_sk = (ptrdiff_t)esz;
	}
	if (o->b_ready) {
		/* B as an earlier piece of rows left it */
	} else if (mb == 1) {
		o->b_sk = sb[0];
	} else {
		size_t bytes;
		if (__builtin_mul_overflow(row, (size_t)N, &bytes) || bytes > MP_STAGE_MAX)
			return -1;
		o->runs_b = N * (mb > 1 ? eb[1] : 1) * (mb > 2 ? eb[2] : 1);
		if (!o->dry) {
			uint8_t *d = mp_scratch(MP_SCR_STAGE_B, bytes);
			gather(d, o->b, N, o->b_sj, LONG_MAX, 0, 0, eb, sb, mb, esz);
			o->b = d;
		}
		o->b_sj = (ptrdiff_t)row;
		o->b_sk = (ptrdiff_t)esz;
	}
	return 0;
}
