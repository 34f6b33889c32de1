/* bench_conv.c -- int8 3x3 convolutions, NHWC, stride 1, padding 1 (issue
 * 9's benchmark: 1x56x56x64 -> 64 and 1x28x28x128 -> 128): the plain build
 * of loop_conv.c (its input padded by the caller; then the same loop with
 * its padding written in it, and with the window clipped by MAX/MIN loop
 * bounds as CMSIS-NN writes it, both on the unpadded image), its plugin
 * build and
 * oneDNN's convolution primitive (s8 x s8 -> s32, source NHWC without
 * padding, padding 1, weights reordered to the primitive's layout once,
 * before timing), one thread.  The plugin build's output must equal the
 * plain build's and oneDNN's.  Prints median times, GOP/s and ratios.
 *
 * Usage: bench_conv [reps [H W C OC]]   (default 21; both shapes) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dnnl.h>
#include "bench_util.h"
#include "bench_dnnl.h"

void conv_nhwc_plain(int OH, int OW, int C, int OC, int KH, int KW, const int8_t *in,
		     const int8_t *w, int32_t *out);
void conv_nhwc_mixprec(int OH, int OW, int C, int OC, int KH, int KW, const int8_t *in,
		       const int8_t *w, int32_t *out);

void conv_pad_plain(int H, int W, int C, int OC, int KH, int KW, int P, const int8_t *in,
		    const int8_t *w, int32_t *out);
void conv_pad_mixprec(int H, int W, int C, int OC, int KH, int KW, int P, const int8_t *in,
		      const int8_t *w, int32_t *out);
void conv_clip_plain(int H, int W, int C, int OC, int KH, int KW, int P, const int8_t *in,
		     const int8_t *w, int32_t *out);
void conv_clip_mixprec(int H, int W, int C, int OC, int KH, int KW, int P, const int8_t *in,
		       const int8_t *w, int32_t *out);

void conv_clipq_plain(int H, int W, int C, int OC, int KH, int KW, int P, const int8_t *in,
		      const int8_t *w, const int32_t *bias, const int32_t *mult,
		      const int32_t *shift, int8_t *out);
void conv_clipq_mixprec(int H, int W, int C, int OC, int KH, int KW, int P, const int8_t *in,
			const int8_t *w, const int32_t *bias, const int32_t *mult,
			const int32_t *shift, int8_t *out);
typedef void (*clipq_fn)(int, int, int, int, int, int, int, const int8_t *, const int8_t *,
			 const int32_t *, const int32_t *, const int32_t *, int8_t *);

/* the clipped form with CMSIS-NN's requantization, 3x3, padding 1 */
static double run_clipq(clipq_fn f, int H, int W, int C, int OC, const int8_t *in,
			const int8_t *w, const int32_t *bias, const int32_t *mult,
			const int32_t *shift, int8_t *out, int reps)
{
	double *t = malloc(sizeof(double) * (size_t)reps);
	f(H, W, C, OC, 3, 3, 1, in, w, bias, mult, shift, out);
	for (int r = 0; r < reps; r++) {
		double t0 = mp_now();
		f(H, W, C, OC, 3, 3, 1, in, w, bias, mult, shift, out);
		t[r] = mp_now() - t0;
	}
	double m = mp_median(t, reps);
	free(t);
	return m;
}

typedef void (*conv_fn)(int, int, int, int, int, int, const int8_t *, const int8_t *, int32_t *);
typedef void (*pad_fn)(int, int, int, int, int, int, int, const int8_t *, const int8_t *,
		       int32_t *);

/* the loop with its padding written in it (conv_pad_*), 3x3, padding 1 */
static double run_pad(pad_fn f, int H, int W, int C, int OC, const int8_t *in, const int8_t *w,
		      int32_t *out, int reps)
{
	double *t = malloc(sizeof(double) * (size_t)reps);
	f(H, W, C, OC, 3, 3, 1, in, w, out);
	for (int r = 0; r < reps; r++) {
		double t0 = mp_now();
		f(H, W, C, OC, 3, 3, 1, in, w, out);
		t[r] = mp_now() - t0;
	}
	double m = mp_median(t, reps);
	free(t);
	return m;
}

static double run(conv_fn f, int H, int W, int C, int OC, const int8_t *in, const int8_t *w,
		  int32_t *out, int reps)
{
	double *t = malloc(sizeof(double) * (size_t)reps);
	f(H, W, C, OC, 3, 3, in, w, out);   /* warm up (and page in) */
	for (int r = 0; r < reps; r++) {
		double t0 = mp_now();
		f(H, W, C, OC, 3, 3, in, w, out);
		t[r] = mp_now() - t0;
	}
	double m = mp_median(t, reps);
	free(t);
	return m;
}

/* oneDNN: src (1, C, H, W) nhwc s8, weights (OC, C, 3, 3) given as OHWI
 * (tag acdb) and reordered to the primitive's choice, dst nhwc s32 */
static double run_dnnl(int H, int W, int C, int OC, int8_t *src, int8_t *w, int32_t *out,
		       int reps)
{
	dnnl_engine_t eng;
	dnnl_stream_t st;
	CHK(dnnl_engine_create(&eng, dnnl_cpu, 0));
	CHK(dnnl_stream_create(&st, eng, dnnl_stream_default_flags));
	dnnl_dims_t sd = {1, C, H, W}, wd = {OC, C, 3, 3}, dd = {1, OC, H, W};
	dnnl_dims_t strides = {1, 1}, pad = {1, 1};
	dnnl_memory_desc_t smd, wmd_user, wmd_any, dmd;
	CHK(dnnl_memory_desc_init_by_tag(&smd, 4, sd, dnnl_s8, dnnl_acdb));
	CHK(dnnl_memory_desc_init_by_tag(&wmd_user, 4, wd, dnnl_s8, dnnl_acdb));
	CHK(dnnl_memory_desc_init_by_tag(&wmd_any, 4, wd, dnnl_s8, dnnl_format_tag_any));
	CHK(dnnl_memory_desc_init_by_tag(&dmd, 4, dd, dnnl_s32, dnnl_acdb));
	dnnl_convolution_desc_t cd;
	CHK(dnnl_convolution_forward_desc_init(&cd, dnnl_forward_inference,
					       dnnl_convolution_direct, &smd, &wmd_any, NULL,
					       &dmd, strides, pad, pad));
	dnnl_primitive_desc_t pd;
	CHK(dnnl_primitive_desc_create(&pd, &cd, NULL, eng, NULL));
	const dnnl_memory_desc_t *wmd = dnnl_primitive_desc_query_md(pd, dnnl_query_weights_md, 0);
	dnnl_primitive_t conv;
	CHK(dnnl_primitive_create(&conv, pd));
	dnnl_memory_t sm, wum, wm, dm;
	CHK(dnnl_memory_create(&sm, &smd, eng, src));
	CHK(dnnl_memory_create(&wum, &wmd_user, eng, w));
	CHK(dnnl_memory_create(&wm, wmd, eng, DNNL_MEMORY_ALLOCATE));
	CHK(dnnl_memory_create(&dm, &dmd, eng, out));
	{   /* the weights in the primitive's layout, once */
		dnnl_primitive_desc_t rpd;
		dnnl_primitive_t r;
		CHK(dnnl_reorder_primitive_desc_create(&rpd, &wmd_user, eng, wmd, eng, NULL));
		CHK(dnnl_primitive_create(&r, rpd));
		dnnl_exec_arg_t ra[2] = {{DNNL_ARG_FROM, wum}, {DNNL_ARG_TO, wm}};
		CHK(dnnl_primitive_execute(r, st, 2, ra));
		CHK(dnnl_stream_wait(st));
		dnnl_primitive_destroy(r);
		dnnl_primitive_desc_destroy(rpd);
	}
	dnnl_exec_arg_t args[3] = {{DNNL_ARG_SRC, sm}, {DNNL_ARG_WEIGHTS, wm}, {DNNL_ARG_DST, dm}};
	double m = mp_dnnl_median(conv, st, 3, args, reps);
	dnnl_memory_destroy(sm);
	dnnl_memory_destroy(wum);
	dnnl_memory_destroy(wm);
	dnnl_memory_destroy(dm);
	dnnl_primitive_destroy(conv);
	dnnl_primitive_desc_destroy(pd);
	dnnl_stream_destroy(st);
	dnnl_engine_destroy(eng);
	return m;
}

static int shape(int H, int W, int C, int OC, int reps)
{
	int HP = H + 2, WP = W + 2;
	size_t nsrc = (size_t)H * W * C, npad = (size_t)HP * WP * C, nw = (size_t)OC * 9 * C;
	size_t no = (size_t)H * W * OC;
	int8_t *src = malloc(nsrc), *pad = calloc(npad, 1), *w = malloc(nw);
	int32_t *o0 = malloc(no * 4), *o1 = malloc(no * 4), *o2 = malloc(no * 4);
	for (size_t e = 0; e < nsrc; e++)
		src[e] = (int8_t)(mp_frand() * 127.5f);
	for (size_t e = 0; e < nw; e++)
		w[e] = (int8_t)(mp_frand() * 127.5f);
	for (int y = 0; y < H; y++)   /* the caller's padding: zeros around */
		memcpy(pad + ((size_t)(y + 1) * WP + 1) * C, src + (size_t)y * W * C, (size_t)W * C);
	double ops = 2.0 * H * W * OC * 9 * C;
	printf("conv 3x3 pad 1: 1x%dx%dx%d -> %d (s8 x s8 -> s32, NHWC, OHWI weights), one "
	       "thread, median of %d\n", H, W, C, OC, reps);
	fflush(stdout);
	double tp = run(conv_nhwc_plain, H, W, C, OC, pad, w, o0, reps);
	printf("  plain loop (-O3 -march=native) : %9.3f ms  %7.1f GOP/s\n", tp * 1e3,
	       ops / tp / 1e9);
	fflush(stdout);
	double tm = run(conv_nhwc_mixprec, H, W, C, OC, pad, w, o1, reps);
	printf("  mixprec (one call)             : %9.3f ms  %7.1f GOP/s\n", tm * 1e3,
	       ops / tm / 1e9);
	fflush(stdout);
	double td = run_dnnl(H, W, C, OC, src, w, o2, reps);
	printf("  oneDNN convolution             : %9.3f ms  %7.1f GOP/s (oneDNN %d.%d)\n",
	       td * 1e3, ops / td / 1e9, dnnl_version()->major, dnnl_version()->minor);
	int same = memcmp(o0, o1, no * 4) == 0, same_d = memcmp(o0, o2, no * 4) == 0;
	printf("  mixprec / plain %.2fx, mixprec / oneDNN %.2fx (floor 0.5x, goal 1.0x); "
	       "output %s the plain build's, oneDNN's %s\n", tp / tm, td / tm,
	       same ? "equals" : "DIFFERS FROM", same_d ? "equal" : "DIFFER");
	fflush(stdout);
	/* the padding written in the loop (KissDL's `continue`s), on the image
	   itself: the runtime's copy of the input supplies the zeros */
	memset(o1, 0x5a, no * 4);
	memset(o2, 0x5a, no * 4);
	double tpp = run_pad(conv_pad_plain, H, W, C, OC, src, w, o1, reps);
	printf("  plain loop, padding in the loop: %9.3f ms  %7.1f GOP/s\n", tpp * 1e3,
	       ops / tpp / 1e9);
	fflush(stdout);
	double tmp = run_pad(conv_pad_mixprec, H, W, C, OC, src, w, o2, reps);
	printf("  mixprec, padding in the loop   : %9.3f ms  %7.1f GOP/s\n", tmp * 1e3,
	       ops / tmp / 1e9);
	int same_p = memcmp(o0, o1, no * 4) == 0 && memcmp(o0, o2, no * 4) == 0;
	printf("  padding in the loop: mixprec / plain %.2fx, mixprec / oneDNN %.2fx; outputs %s\n",
	       tpp / tmp, td / tmp, same_p ? "equal" : "DIFFER");
	fflush(stdout);
	/* the window clipped by MAX/MIN loop bounds (CMSIS-NN's reference
	   form, output channel outermost) */
	memset(o1, 0x5a, no * 4);
	memset(o2, 0x5a, no * 4);
	double tcp = run_pad(conv_clip_plain, H, W, C, OC, src, w, o1, reps);
	printf("  plain loop, clipped window     : %9.3f ms  %7.1f GOP/s\n", tcp * 1e3,
	       ops / tcp / 1e9);
	fflush(stdout);
	double tcm = run_pad(conv_clip_mixprec, H, W, C, OC, src, w, o2, reps);
	printf("  mixprec, clipped window        : %9.3f ms  %7.1f GOP/s\n", tcm * 1e3,
	       ops / tcm / 1e9);
	int same_c = memcmp(o0, o1, no * 4) == 0 && memcmp(o0, o2, no * 4) == 0;
	printf("  clipped window: mixprec / plain %.2fx, mixprec / oneDNN %.2fx; outputs %s\n",
	       tcp / tcm, td / tcm, same_c ? "equal" : "DIFFER");
	fflush(stdout);
	/* the same with CMSIS-NN's requantization (tile mode; int8 output,
	   no oneDNN peer: its output here is the int32 sum) */
	{
		int32_t *qb = malloc(sizeof(int32_t) * (size_t)OC);
		int32_t *qm = malloc(sizeof(int32_t) * (size_t)OC);
		int32_t *qs = malloc(sizeof(int32_t) * (size_t)OC);
		int8_t *q1 = malloc(no), *q2 = malloc(no);
		for (int o = 0; o < OC; o++) {
			qb[o] = (int32_t)(mp_frand() * 2000.0f);
			qm[o] = (1 << 30) + (int32_t)(mp_frand() * 1e8f + 1e8f);
			qs[o] = -8 - o % 4;
		}
		memset(q1, 0x5a, no);
		memset(q2, 0x5a, no);
		double tqp = run_clipq(conv_clipq_plain, H, W, C, OC, src, w, qb, qm, qs, q1, reps);
		printf("  plain loop, clipped + requant  : %9.3f ms\n", tqp * 1e3);
		fflush(stdout);
		double tqm = run_clipq(conv_clipq_mixprec, H, W, C, OC, src, w, qb, qm, qs, q2, reps);
		printf("  mixprec, clipped + requant     : %9.3f ms\n", tqm * 1e3);
		int same_q = memcmp(q1, q2, no) == 0;
		printf("  clipped + requant (int8 out): mixprec / plain %.2fx; outputs %s\n",
		       tqp / tqm, same_q ? "equal" : "DIFFER");
		fflush(stdout);
		same_c = same_c && same_q;
		free(qb);
		free(qm);
		free(qs);
		free(q1);
		free(q2);
	}
	same = same && same_p && same_c;
	free(src);
	free(pad);
	free(w);
	free(o0);
	free(o1);
	free(o2);
	return same && same_d;
}

int main(int argc, char **argv)
{
	int reps = argc > 1 ? atoi(argv[1]) : 21, ok = 1;
	if (reps < 1) {
		fprintf(stderr, "usage: %s [reps [H W C OC]]\n", argv[0]);
		return 2;
	}
	if (argc > 5) {
		ok = shape(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]), atoi(argv[5]), reps);
	} else {
		ok &= shape(56, 56, 64, 64, reps);
		ok &= shape(28, 28, 128, 128, reps);
	}
	return ok ? 0 : 1;
}
