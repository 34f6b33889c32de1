/* bench_small.c -- small nests: the plain loop against the runtime call
 * (issue 10 item 4: never slower than the loop as written).  Not a test.
 *
 * For each nest of bench/loop_small.c and every shape of a grid (M, N in
 * {1, 2, 4, 8, 16, 32, 64}, K in {4, 9, 16, 32, 64, 256}) it times, in the
 * same run and interleaved, the median of REPS samples (each sample: the
 * same call repeated for about 200 us, as a nest called from an outer loop)
 * of
 *   plain   the loop built without the plugin (-O3 -march=native);
 *   kern    the plugin build with MIXPREC_SMALL=0: the kernels run whenever
 *           they can (the behaviour before the cost model);
 *   model   the plugin build as users run it: the runtime's cost model
 *           (runtime/nest.c, mp_small) picks the kernels or the original
 *           loop; "chose" says which (from mp_stats_get: "loop" also when
 *           the inline guard before the call skipped it, docs/design.md);
 *   fb      the plugin build with MIXPREC_DISABLE=1: the runtime call
 *           returns at once and the original loop runs (the floor of the
 *           "loop" choice: the call's fixed cost plus the loop; on shapes
 *           the inline guard skips, the guard plus the loop).
 * Per shape: the four times (us per call), kern/plain, the choice, and
 * model / min(plain, kern).  Per nest and overall: the worst of
 *   model / min(plain, kern)   with the cost model (the target: <= ~1.1),
 *   kern  / min(plain, kern)   without it (the kernels always),
 *   model / min(fb, kern)      the decision alone (the fixed cost of the
 *                              call excluded),
 * then 256x256x256, which must still choose the kernels.  One thread
 * (MIXPREC_THREADS=1).  --csv prints one CSV row per shape instead (for
 * fitting the model's constants).
 * The conv nests (an NCHW 3x3 convolution, its rows copied before the
 * kernels) read the grid's M as the output image's side (at most 16), N as
 * the output channels (at most 64), K as the input channels (at most 32).
 * Usage: bench_small [--csv] [reps [nest...]]   (nests: see the table). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mixprec.h"
#include "bench_util.h"

#define NESTS_I8(v)                                                                       \
	void gemm_i8_##v(int, int, int, const int8_t *, const int8_t *, int32_t *);           \
	void acc_i8_##v(int, int, int, const int8_t *, const int8_t *, int32_t *);            \
	void dense_i8_##v(int, int, int, const int8_t *, const int8_t *, const int32_t *,     \
			  float, int8_t *);                                                  \
	void tile_i8_##v(int, int, int, const int8_t *, const int8_t *, const int32_t *,      \
			 float, int8_t *);                                                   \
	void dense_f32_int8_##v(int, int, int, const float *, const float *, const float *, \
				float *);                                                    \
	void gemm_f32_int8_##v(int, int, int, const float *, const float *, float *);       \
	void dense_f32_bf16_##v(int, int, int, const float *, const float *, const float *, \
				float *);                                                    \
	void gemm_f32_bf16_##v(int, int, int, const float *, const float *, float *);        \
	void conv_f32_int8_##v(int, int, int, const float *, const float *, float *);       \
	void conv_f32_bf16_##v(int, int, int, const float *, const float *, float *);
NESTS_I8(plain)
NESTS_I8(mixprec)

enum { FORM_GEMM_I8, FORM_DENSE_I8, FORM_DENSE_F32, FORM_GEMM_F32, FORM_CONV_F32 };

typedef struct nest {
	const char *name;
	int form;
	void *plain, *mixprec;
} nest;

#define NEST(n, f) { #n, f, (void *)n##_plain, (void *)n##_mixprec }
static const nest nests[] = {
	NEST(gemm_i8, FORM_GEMM_I8),
	NEST(acc_i8, FORM_GEMM_I8),
	NEST(dense_i8, FORM_DENSE_I8),
	NEST(tile_i8, FORM_DENSE_I8),
	NEST(dense_f32_int8, FORM_DENSE_F32),
	NEST(gemm_f32_int8, FORM_GEMM_F32),
	NEST(dense_f32_bf16, FORM_DENSE_F32),
	NEST(gemm_f32_bf16, FORM_GEMM_F32),
	NEST(conv_f32_int8, FORM_CONV_F32),
	NEST(conv_f32_bf16, FORM_CONV_F32),
};
#define NNESTS ((int)(sizeof nests / sizeof nests[0]))

#define MAXD 256
static int8_t a8[MAXD * MAXD], b8[MAXD * MAXD], y8[MAXD * MAXD];
static int32_t c32[MAXD * MAXD], bias32[MAXD];
static float af[MAXD * MAXD], bf[MAXD * MAXD], cf[MAXD * MAXD], biasf[MAXD];

typedef void (*gemm_i8_fn)(int, int, int, const int8_t *, const int8_t *, int32_t *);
typedef void (*dense_i8_fn)(int, int, int, const int8_t *, const int8_t *, const int32_t *,
			    float, int8_t *);
typedef void (*dense_f32_fn)(int, int, int, const float *, const float *, const float *,
			     float *);
typedef void (*gemm_f32_fn)(int, int, int, const float *, const float *, float *);

static void call(const nest *s, void *fn, int M, int N, int K)
{
	switch (s->form) {
	case FORM_GEMM_I8:
		((gemm_i8_fn)fn)(M, N, K, a8, b8, c32);
		break;
	case FORM_DENSE_I8:
		((dense_i8_fn)fn)(M, N, K, a8, b8, bias32, 0.01f, y8);
		break;
	case FORM_DENSE_F32:
		((dense_f32_fn)fn)(M, N, K, af, bf, biasf, cf);
		break;
	case FORM_CONV_F32:   /* M x M outputs (at most 16), N channels out (64), K in (32) */
		((gemm_f32_fn)fn)(M > 16 ? 16 : M, N > 64 ? 64 : N, K > 32 ? 32 : K, af, bf, cf);
		break;
	default:
		((gemm_f32_fn)fn)(M, N, K, af, bf, cf);
	}
}

/* The environment of the plugin build: 0 model, 1 kernels forced
 * (MIXPREC_SMALL=0), 2 original loop (MIXPREC_DISABLE=1). */
static void set_env(int e)
{
	static int cur = -1;
	if (e == cur)
		return;
	cur = e;
	if (e == 1)
		setenv("MIXPREC_SMALL", "0", 1);
	else
		unsetenv("MIXPREC_SMALL");
	if (e == 2)
		setenv("MIXPREC_DISABLE", "1", 1);
	else
		unsetenv("MIXPREC_DISABLE");
	mp_env_reload();
}

/* Seconds per call of n calls. */
static double sample(const nest *s, void *fn, int M, int N, int K, long n)
{
	double t0 = mp_now();
	for (long r = 0; r < n; r++)
		call(s, fn, M, N, K);
	return (mp_now() - t0) / (double)n;
}

typedef struct result {
	double plain, kern, model, fb;
	int chose_kernels;
} result;

static result measure(const nest *s, int M, int N, int K, int reps)
{
	enum { P, KE, MO, FB, NP };
	double t[NP][64];
	result r;
	/* warm up and size the samples: about 200 us of the slowest path */
	double worst = 0;
	for (int p = 0; p < NP; p++) {
		set_env(p == KE ? 1 : p == FB ? 2 : 0);
		void *fn = p == P ? s->plain : s->mixprec;
		call(s, fn, M, N, K);
		double x = sample(s, fn, M, N, K, 3);
		worst = x > worst ? x : worst;
	}
	long n = (long)(200e-6 / worst);
	n = n < 1 ? 1 : n > 200000 ? 200000 : n;
	reps = reps > 64 ? 64 : reps;
	mp_stats st0, st1;
	for (int rep = 0; rep < reps; rep++)
		for (int p = 0; p < NP; p++) {
			set_env(p == KE ? 1 : p == FB ? 2 : 0);
			if (p == MO && rep == 0)
				mp_stats_get(&st0);
			t[p][rep] = sample(s, p == P ? s->plain : s->mixprec, M, N, K, n);
			if (p == MO && rep == 0)
				mp_stats_get(&st1);
		}
	r.plain = mp_median(t[P], reps);
	r.kern = mp_median(t[KE], reps);
	r.model = mp_median(t[MO], reps);
	r.fb = mp_median(t[FB], reps);
	r.chose_kernels = st1.fast - st0.fast > st1.fallback - st0.fallback;
	return r;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);   /* progress as it goes, also into a pipe */
	int reps = 7, csv = 0, ai = 1;
	if (ai < argc && !strcmp(argv[ai], "--csv"))
		csv = 1, ai++;
	if (ai < argc)
		reps = atoi(argv[ai++]);
	reps = reps < 1 ? 1 : reps;
	setenv("MIXPREC_THREADS", "1", 1);
	for (int i = 0; i < MAXD * MAXD; i++) {
		a8[i] = (int8_t)(mp_frand() * 127), b8[i] = (int8_t)(mp_frand() * 127);
		af[i] = mp_frand(), bf[i] = mp_frand();
	}
	for (int i = 0; i < MAXD; i++)
		bias32[i] = (int32_t)(mp_frand() * 1000), biasf[i] = mp_frand();

	static const int MN[] = {1, 2, 4, 8, 16, 32, 64}, KS[] = {4, 9, 16, 32, 64, 256};
	const int nmn = (int)(sizeof MN / sizeof MN[0]), nk = (int)(sizeof KS / sizeof KS[0]);
	double all_model = 0, all_kern = 0, all_dec = 0, all_plain = 0;
	const char *w_model = "", *w_kern = "";
	int big_ok = 1;
	char where_model[128] = "", where_kern[128] = "";
	if (csv)
		printf("nest,M,N,K,plain_us,kern_us,model_us,fb_us,chose\n");
	else
		printf("bench_small: median of %d samples, us per call; one thread; kernel %s\n",
		       reps, mp_kernel_name(mp_kernel_select()));
	for (int v = 0; v < NNESTS; v++) {
		const nest *s = &nests[v];
		int wanted = ai >= argc;
		for (int x = ai; x < argc; x++)
			wanted |= !strcmp(argv[x], s->name);
		if (!wanted)
			continue;
		double worst_model = 0, worst_kern = 0, worst_dec = 0, worst_plain = 0;
		double log_mp = 0;   /* model / plain: its geometric mean, and how often > 1.25 */
		int nshapes = 0, nslow = 0;
		char wm[64] = "";
		if (!csv)
			printf("\n%-15s %3s %3s %4s %9s %9s %9s %9s %7s %6s %7s\n", s->name, "M", "N",
			       "K", "plain", "kern", "model", "fb", "k/p", "chose", "m/best");
		for (int im = 0; im < nmn; im++)
			for (int in = 0; in < nmn; in++)
				for (int ik = 0; ik < nk; ik++) {
					int M = MN[im], N = MN[in], K = KS[ik];
					result r = measure(s, M, N, K, reps);
					double best = r.plain < r.kern ? r.plain : r.kern;
					double fbest = r.fb < r.kern ? r.fb : r.kern;
					double rm = r.model / best, rk = r.kern / best;
					double rd = r.model / fbest, rp = r.plain / best;
					if (csv) {
						printf("%s,%d,%d,%d,%.5f,%.5f,%.5f,%.5f,%s\n", s->name,
						       M, N, K, r.plain * 1e6, r.kern * 1e6,
						       r.model * 1e6, r.fb * 1e6,
						       r.chose_kernels ? "kernels" : "loop");
						continue;
					}
					printf("%-15s %3d %3d %4d %9.4f %9.4f %9.4f %9.4f %7.2f %6s %7.2f\n",
					       "", M, N, K, r.plain * 1e6, r.kern * 1e6, r.model * 1e6,
					       r.fb * 1e6, r.kern / r.plain,
					       r.chose_kernels ? "kern" : "loop", rm);
					log_mp += log(r.model / r.plain);
					nshapes++;
					nslow += r.model > 1.25 * r.plain;
					if (rm > worst_model) {
						worst_model = rm;
						snprintf(wm, sizeof wm, "%dx%dx%d", M, N, K);
					}
					if (rk > worst_kern)
						worst_kern = rk;
					worst_dec = rd > worst_dec ? rd : worst_dec;
					worst_plain = rp > worst_plain ? rp : worst_plain;
					if (rm > all_model) {
						all_model = rm;
						w_model = s->name;
						snprintf(where_model, sizeof where_model, "%dx%dx%d",
							 M, N, K);
					}
					if (rk > all_kern) {
						all_kern = rk;
						w_kern = s->name;
						snprintf(where_kern, sizeof where_kern, "%dx%dx%d",
							 M, N, K);
					}
					all_dec = rd > all_dec ? rd : all_dec;
					all_plain = rp > all_plain ? rp : all_plain;
				}
		/* a large shape must still run on the kernels */
		set_env(0);
		mp_stats st0, st1;
		mp_stats_get(&st0);
		double t_big = sample(s, s->mixprec, 256, 256, 256, 3);
		mp_stats_get(&st1);
		double t_plain = sample(s, s->plain, 256, 256, 256, 1);
		int big = st1.fast - st0.fast == 3;
		big_ok &= big;
		if (csv)
			continue;
		printf("%-15s worst model/best %.2f (%s), without the model (kernels always) "
		       "%.2f, loop always %.2f, decision alone (model/min(fb,kern)) %.2f; "
		       "model/plain geometric mean %.3f, above 1.25 on %d of %d shapes; "
		       "256x256x256: %s, %.0f us vs plain %.0f us\n",
		       s->name, worst_model, wm, worst_kern, worst_plain, worst_dec,
		       nshapes ? exp(log_mp / nshapes) : 0.0, nslow, nshapes,
		       big ? "kernels" : "LOOP", t_big * 1e6, t_plain * 1e6);
	}
	if (!csv)
		printf("\nsummary: worst chosen/best %.2f (%s %s); without the model %.2f (%s %s); "
		       "loop always %.2f; decision alone %.2f; 256^3 on the kernels: %s\n",
		       all_model, w_model, where_model, all_kern, w_kern, where_kern, all_plain,
		       all_dec, big_ok ? "yes" : "NO");
	return 0;
}
