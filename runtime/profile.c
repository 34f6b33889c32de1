/* profile.c -- MIXPREC_PROFILE=FILE (issue 12): the sensitivity and cost
 * profile of `#pragma mixprec(auto)` nests.
 *
 * Every call of an auto nest (flags bit 8; its candidates in bits 8-15 and
 * its nest hash in bits 32-63: polyhedral/mp_auto.c) that ran on the
 * kernels is counted with its time.  On sampled calls (the 1st, 2nd, 4th,
 * 8th ... of each nest, at most MP_PROF_SAMPLES) the same operands are
 * contracted again at every candidate precision (mp_gemm_lp_ex, dynamic
 * scales, into a scratch array) and at the source precision (a plain loop
 * in the source type, k ascending, no fused multiply-add: what the loop
 * as written computes for a plain sum), each timed, and each compared
 * with the exact contraction (long double, on up to MP_PROF_ROWS rows
 * spread over M): the largest error relative to the largest exact
 * magnitude, and the RMS error relative to the RMS exact value.  At exit
 * FILE is written (format: docs/precision.md), for mixprec-tune.
 * Built with -ffp-contract=off (the source candidate's loop). */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "mixprec.h"
#include "mp_runtime.h"

#define MP_PROF_SAMPLES 8
#define MP_PROF_ROWS 32
#define MP_PROF_NCAND 6   /* MP_LP_INT8 .. MP_LP_FP8_E5M2, then the source */

typedef struct mp_prof_cand {
	long samples, refused;
	double seconds, maxrel, err2, ref2;
} mp_prof_cand;

typedef struct mp_prof_nest {
	char *loc;
	uint32_t hash;
	int mask;          /* mp_lp bits of the candidates */
	long calls;
	double seconds;
	long M, N, K;      /* of the last sampled call */
	int dbl;
	mp_prof_cand c[MP_PROF_NCAND];
} mp_prof_nest;

static pthread_mutex_t mp_prof_lock = PTHREAD_MUTEX_INITIALIZER;
/* one allocation per nest: a thread that sampled a nest updates it after
   another thread grew the array */
static mp_prof_nest **mp_prof;
static int mp_prof_n;
static char *mp_prof_path;
static double mp_prof_t0;
static int mp_prof_state;   /* 0 unread, 1 on, -1 off */

static double mp_prof_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static const char *const mp_prof_names[MP_PROF_NCAND] = {
	"int8", "uint8", "bf16", "fp8_e4m3", "fp8_e5m2", "source"
};

static void mp_prof_write(void)
{
	pthread_mutex_lock(&mp_prof_lock);
	FILE *f = fopen(mp_prof_path, "w");
	if (!f) {
		fprintf(stderr, "mixprec: cannot write the profile '%s'\n", mp_prof_path);
		pthread_mutex_unlock(&mp_prof_lock);
		return;
	}
	fprintf(f, "# mixprec profile 1\n");
	fprintf(f, "run\t%.6f\n", mp_prof_now() - mp_prof_t0);
	for (int i = 0; i < mp_prof_n; i++) {
		const mp_prof_nest *p = mp_prof[i];
		fprintf(f, "nest\t");
		for (const char *c = p->loc; *c; c++)   /* as polyhedral/mp_auto.c reads it */
			if (*c == '\t' || *c == '\n' || *c == '\r' || *c == '\\')
				fprintf(f, "\\%c", *c == '\t' ? 't' : *c == '\n' ? 'n' : *c == '\r' ? 'r' : '\\');
			else
				fputc(*c, f);
		fprintf(f, "\t%08x\t%ld\t%.6f\t%ld\t%ld\t%ld\t%s\n",
			(unsigned)p->hash, p->calls, p->seconds, p->M, p->N, p->K,
			p->dbl ? "double" : "float");
		for (int c = 0; c < MP_PROF_NCAND; c++) {
			const mp_prof_cand *q = &p->c[c];
			if (c < MP_PROF_NCAND - 1 && !((p->mask >> c) & 1))
				continue;
			double rms = q->ref2 > 0 ? sqrt(q->err2 / q->ref2) : q->err2 > 0 ? INFINITY : 0;
			fprintf(f, "cand\t%s\t%ld\t%ld\t%.9g\t%.6g\t%.6g\n", mp_prof_names[c],
				q->samples, q->refused,
				q->samples ? q->seconds / (double)q->samples : 0.0, q->maxrel, rms);
		}
	}
	fclose(f);
	pthread_mutex_unlock(&mp_prof_lock);
}

int mp_profile_on(void)
{
	pthread_mutex_lock(&mp_prof_lock);
	if (!mp_prof_state) {
		const char *e = getenv("MIXPREC_PROFILE");
		mp_prof_state = e && *e ? 1 : -1;
		if (mp_prof_state > 0) {
			mp_prof_path = strdup(e);
			mp_prof_t0 = mp_prof_now();
			if (!mp_prof_path || atexit(mp_prof_write))
				mp_prof_state = -1;
		}
	}
	int on = mp_prof_state > 0;
	pthread_mutex_unlock(&mp_prof_lock);
	return on;
}

/* The candidates of an auto nest's call as mp_lp bits: its flags' bits
 * 8-15 are 1 << mp_prec (polyhedral/mp_nest.h: int8 1, uint8 2, bf16 3,
 * fp16 4, fp8_e4m3 5, fp8_e5m2 6). */
static int mp_cand_mask(long flags)
{
	static const int lp_of_prec[] = { -1, MP_LP_INT8, MP_LP_UINT8, MP_LP_BF16, -1,
					  MP_LP_FP8_E4M3, MP_LP_FP8_E5M2, -1 };
	int mask = 0;
	for (int b = 0; b < 8; b++)
		if ((((unsigned long)flags >> (8 + b)) & 1) && lp_of_prec[b] >= 0)
			mask |= 1 << lp_of_prec[b];
	return mask;
}

/* The nest's entry (created), and whether this call is sampled. */
static mp_prof_nest *mp_prof_find(const char *loc, long flags, double seconds, int *sample)
{
	const uint32_t hash = (uint32_t)((unsigned long)flags >> 32);
	const char *l = loc ? loc : "?";
	mp_prof_nest *p = NULL;
	for (int i = 0; i < mp_prof_n && !p; i++)
		if (mp_prof[i]->hash == hash && !strcmp(mp_prof[i]->loc, l))
			p = mp_prof[i];
	if (!p) {
		mp_prof_nest **n = realloc(mp_prof, sizeof(*n) * (size_t)(mp_prof_n + 1));
		if (!n)
			return NULL;
		mp_prof = n;
		p = calloc(1, sizeof(*p));
		if (!p || !(p->loc = strdup(l))) {
			free(p);
			return NULL;
		}
		mp_prof[mp_prof_n] = p;
		p->hash = hash;
		p->mask = mp_cand_mask(flags);
		mp_prof_n++;
	}
	p->calls++;
	p->seconds += seconds;
	*sample = (p->calls & (p->calls - 1)) == 0 &&
		  __builtin_ctzl((unsigned long)p->calls) < MP_PROF_SAMPLES;
	return p;
}

#define MP_PEL(p, o) (dbl ? ((const double *)(p))[o] : (double)((const float *)(p))[o])

/* The source precision's contraction of row i into out[0..N): the sum over
 * k ascending in the source type of (A - za)(B - zb), times alpha. */
static void mp_prof_source_row(int dbl, long i, long N, long K, const void *a, long a_si,
			       long a_sk, const void *b, long b_sk, long b_sj, double alpha,
			       double za, double zb, void *acc, double *out)
{
	if (dbl) {
		double *s = acc;
		memset(s, 0, sizeof(double) * (size_t)N);
		for (long k = 0; k < K; k++) {
			double x = ((const double *)a)[i * a_si + k * a_sk] - za;
			for (long j = 0; j < N; j++)
				s[j] += x * (((const double *)b)[k * b_sk + j * b_sj] - zb);
		}
		for (long j = 0; j < N; j++)
			out[j] = alpha * s[j];
	} else {
		float *s = acc;
		const float fza = (float)za, fzb = (float)zb;
		memset(s, 0, sizeof(float) * (size_t)N);
		for (long k = 0; k < K; k++) {
			float x = ((const float *)a)[i * a_si + k * a_sk] - fza;
			for (long j = 0; j < N; j++)
				s[j] += x * (((const float *)b)[k * b_sk + j * b_sj] - fzb);
		}
		for (long j = 0; j < N; j++)
			out[j] = alpha * (double)s[j];
	}
}

void mp_profile_call(const char *loc, long flags, double seconds, int kern, int dbl, long M,
		     long N, long K, const void *a, long a_si, long a_sk, const void *b, long b_sk,
		     long b_sj, const mp_lp_opts *opt)
{
	int sample = 0;
	pthread_mutex_lock(&mp_prof_lock);
	mp_prof_nest *p = mp_prof_find(loc, flags, seconds, &sample);
	const int mask = p ? p->mask : 0;
	pthread_mutex_unlock(&mp_prof_lock);
	if (!p || !sample || M <= 0 || N <= 0 || K <= 0)
		return;

	/* the exact contraction on R rows spread over M */
	const long R = M < MP_PROF_ROWS ? M : MP_PROF_ROWS;
	const double za = opt->a_zero, zb = opt->b_zero, alpha = opt->alpha;
	const size_t es = dbl ? 8 : 4;
	long *rows = malloc(sizeof(long) * (size_t)R);
	long double *ex = malloc(sizeof(long double) * (size_t)(R * N));
	double *got = malloc(sizeof(double) * (size_t)(R * N));
	void *out = malloc(es * (size_t)M * (size_t)N);
	void *acc = malloc(es * (size_t)N);
	double *srow = malloc(sizeof(double) * (size_t)N);
	mp_prof_cand res[MP_PROF_NCAND];
	memset(res, 0, sizeof(res));
	if (!rows || !ex || !got || !out || !acc || !srow)
		goto done;
	long double exmax = 0, ex2 = 0;
	for (long r = 0; r < R; r++) {
		rows[r] = R == M ? r : r * (M - 1) / (R - 1 > 0 ? R - 1 : 1);
		for (long j = 0; j < N; j++) {
			long double s = 0;
			for (long k = 0; k < K; k++) {
				/* the operands less their offsets as the source
				   computes them (one subtraction in its type) */
				long double x = dbl ? (long double)(((const double *)a)[rows[r] * a_si + k * a_sk] - za)
						    : (long double)(((const float *)a)[rows[r] * a_si + k * a_sk] - (float)za);
				long double y = dbl ? (long double)(((const double *)b)[k * b_sk + j * b_sj] - zb)
						    : (long double)(((const float *)b)[k * b_sk + j * b_sj] - (float)zb);
				s += x * y;
			}
			s *= alpha;
			ex[r * N + j] = s;
			exmax = fabsl(s) > exmax ? fabsl(s) : exmax;
			ex2 += s * s;
		}
	}
	mp_lp_scales sc;
	memset(&sc, 0, sizeof(sc));
	sc.dynamic = 1;
	for (int c = 0; c < MP_PROF_NCAND; c++) {
		mp_prof_cand *q = &res[c];
		double t = mp_prof_now();
		if (c < MP_PROF_NCAND - 1) {
			if (!((mask >> c) & 1))
				continue;
			if (mp_gemm_lp_ex((mp_kernel)kern, (mp_lp)c, dbl, M, N, K, a, a_si, a_sk, b, b_sk, b_sj,
					  out, N, 1, 0, &sc, opt) != 0) {
				q->refused++;
				continue;
			}
			q->seconds = mp_prof_now() - t;
			for (long r = 0; r < R; r++)
				for (long j = 0; j < N; j++)
					got[r * N + j] = MP_PEL(out, rows[r] * N + j);
		} else {
			/* timed over every row; the sampled rows (increasing) kept */
			for (long i = 0, r = 0; i < M; i++) {
				mp_prof_source_row(dbl, i, N, K, a, a_si, a_sk, b, b_sk, b_sj, alpha, za,
						   zb, acc, srow);
				if (r < R && rows[r] == i)
					memcpy(got + r++ * N, srow, sizeof(double) * (size_t)N);
			}
			q->seconds = mp_prof_now() - t;
		}
		long double emax = 0, e2 = 0;
		for (long e = 0; e < R * N; e++) {
			long double d = fabsl((long double)got[e] - ex[e]);
			if (isnan((double)d))
				d = INFINITY;
			emax = d > emax ? d : emax;
			e2 += d * d;
		}
		q->samples = 1;
		q->maxrel = exmax > 0 ? (double)(emax / exmax) : emax > 0 ? INFINITY : 0;
		q->err2 = (double)e2;
		q->ref2 = (double)ex2;
	}
	pthread_mutex_lock(&mp_prof_lock);
	p->M = M, p->N = N, p->K = K, p->dbl = dbl;
	for (int c = 0; c < MP_PROF_NCAND; c++) {
		mp_prof_cand *d = &p->c[c];
		d->samples += res[c].samples;
		d->refused += res[c].refused;
		d->seconds += res[c].seconds;
		d->maxrel = res[c].maxrel > d->maxrel ? res[c].maxrel : d->maxrel;
		d->err2 += res[c].err2;
		d->ref2 += res[c].ref2;
	}
	pthread_mutex_unlock(&mp_prof_lock);
done:
	free(rows), free(ex), free(got), free(out), free(acc), free(srow);
}

/* ------------------------------------------ forced precisions, outputs */

/* MIXPREC_AUTO_FORCE="FILE:LINE=PREC;...;*=PREC" (mixprec-tune --run): the
 * precision each auto nest runs at, whatever it was compiled for; PREC a
 * candidate of the nest or "source" (the loop as written). */
typedef struct mp_force {
	char *loc;   /* "*": every other nest */
	int lp;      /* an mp_lp, or -1: source */
} mp_force;
static mp_force *mp_forces;
static int mp_nforces = -1;

static int mp_lp_by_name(const char *s)
{
	for (int c = 0; c < MP_PROF_NCAND; c++)
		if (!strcmp(s, mp_prof_names[c]))
			return c < MP_PROF_NCAND - 1 ? c : -1;
	return -2;
}

static void mp_force_read(void)
{
	const char *e = getenv("MIXPREC_AUTO_FORCE");
	mp_nforces = 0;
	if (!e || !*e)
		return;
	char *s = strdup(e);
	for (char *tok = s, *next; s && tok && *tok; tok = next) {
		next = strchr(tok, ';');
		if (next)
			*next++ = 0;
		char *eq = strrchr(tok, '=');
		if (!eq || eq == tok)
			continue;
		*eq = 0;
		int lp = mp_lp_by_name(eq + 1);
		mp_force *f = lp < -1 ? NULL : realloc(mp_forces, sizeof(*f) * (size_t)(mp_nforces + 1));
		if (!f) {
			if (lp >= -1)
				break;
			fprintf(stderr, "mixprec: MIXPREC_AUTO_FORCE: unknown precision '%s' ignored\n",
				eq + 1);
			continue;
		}
		mp_forces = f;
		mp_forces[mp_nforces].loc = strdup(tok);
		mp_forces[mp_nforces].lp = lp;
		mp_nforces++;
	}
	free(s);
}

/* Is RAW the FILE:LINE that ESC writes with the profile's escapes? */
static int mp_loc_eq(const char *raw, const char *esc)
{
	for (; *raw; raw++, esc++) {
		if (*raw == '\t' || *raw == '\n' || *raw == '\r' || *raw == '\\') {
			char c = *raw == '\t' ? 't' : *raw == '\n' ? 'n' : *raw == '\r' ? 'r' : '\\';
			if (esc[0] != '\\' || esc[1] != c)
				return 0;
			esc++;
		} else if (*esc != *raw) {
			return 0;
		}
	}
	return *esc == 0;
}

int mp_auto_forced(const char *loc, long flags)
{
	pthread_mutex_lock(&mp_prof_lock);
	if (mp_nforces < 0)
		mp_force_read();
	int r = -2;
	for (int i = 0; i < mp_nforces && r == -2; i++)
		if (loc && mp_forces[i].loc && mp_loc_eq(loc, mp_forces[i].loc))
			r = mp_forces[i].lp;
	for (int i = 0; i < mp_nforces && r == -2; i++)
		if (mp_forces[i].loc && !strcmp(mp_forces[i].loc, "*"))
			r = mp_forces[i].lp;
	pthread_mutex_unlock(&mp_prof_lock);
	/* a forced precision must be a candidate of the nest */
	if (r >= 0 && !((mp_cand_mask(flags) >> r) & 1))
		r = -2;
	return r;
}

/* MIXPREC_PROFILE_OUTPUT=FILE: the values the program marks with
 * mp_profile_output, written at exit: per call a line "# output COUNT",
 * then its values one per line (%.17g). */
static double *mp_out;
static size_t mp_nout, mp_capout;
static long *mp_outlen;   /* values per call */
static size_t mp_nseg;
static char *mp_out_path;
static int mp_out_state;

static void mp_out_write(void)
{
	FILE *f = fopen(mp_out_path, "w");
	if (!f) {
		fprintf(stderr, "mixprec: cannot write '%s'\n", mp_out_path);
		return;
	}
	fprintf(f, "# mixprec outputs 1\n");
	for (size_t s = 0, i = 0; s < mp_nseg; s++) {
		fprintf(f, "# output %ld\n", mp_outlen[s]);
		for (long k = 0; k < mp_outlen[s]; k++, i++)
			fprintf(f, "%.17g\n", mp_out[i]);
	}
	fclose(f);
}

void __mixprec_profile_output(const void *p, long count, int type)
{
	pthread_mutex_lock(&mp_prof_lock);
	if (!mp_out_state) {
		const char *e = getenv("MIXPREC_PROFILE_OUTPUT");
		mp_out_state = e && *e ? 1 : -1;
		if (mp_out_state > 0 && (!(mp_out_path = strdup(e)) || atexit(mp_out_write)))
			mp_out_state = -1;
	}
	if (mp_out_state > 0 && p && count > 0) {
		long *seg = realloc(mp_outlen, sizeof(long) * (mp_nseg + 1));
		if (seg)
			mp_outlen = seg;
		if (!seg)
			count = 0;
		else if (mp_nout + (size_t)count > mp_capout) {
			size_t cap = (mp_nout + (size_t)count) * 2;
			double *n = realloc(mp_out, sizeof(double) * cap);
			if (!n)
				count = 0;
			else
				mp_out = n, mp_capout = cap;
		}
		if (count > 0)
			mp_outlen[mp_nseg++] = count;
		for (long i = 0; i < count; i++)
			mp_out[mp_nout++] = type == MP_OUT_DOUBLE ? ((const double *)p)[i]
					  : type == MP_OUT_INT32 ? (double)((const int32_t *)p)[i]
					  : (double)((const float *)p)[i];
	}
	pthread_mutex_unlock(&mp_prof_lock);
}
