/* bench_dw.c -- int8 depthwise 3x3 convolutions, NHWC, stride 1, padding 1
 * written in the loop (loop_dw.c: TensorFlow Lite's reference form): the
 * plain build, the plugin build and oneDNN's grouped convolution (groups =
 * channels, s8 x s8 -> s32 with an s32 bias, the weights reordered to the
 * primitive's layout once, before timing), one thread.  The plugin build's
 * output must equal the plain build's and oneDNN's.  Prints median times,
 * GOP/s and ratios.  Shapes of MobileNet v1/v2's depthwise layers.
 *
 * Usage: bench_dw [reps [H W C]]   (default 21; the MobileNet shapes) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dnnl.h>
#include "bench_util.h"
#include "bench_dnnl.h"

void dw_nhwc_plain(int H, int W, int C, const int8_t *in, const int8_t *w, const int32_t *bias,
		   int32_t *out);
void dw_nhwc_mixprec(int H, int W, int C, const int8_t *in, const int8_t *w,
		     const int32_t *bias, int32_t *out);
typedef void (*dw_fn)(int, int, int, const int8_t *, const int8_t *, const int32_t *, int32_t *);

static double run(dw_fn f, int H, int W, int C, const int8_t *in, const int8_t *w,
		  const int32_t *bias, int32_t *out, int reps)
{
	double *t = malloc(sizeof(double) * (size_t)reps);
	f(H, W, C, in, w, bias, out);   /* warm up (and page in) */
	for (int r = 0; r < reps; r++) {
		double t0 = mp_now();
		f(H, W, C, in, w, bias, out);
		t[r] = mp_now() - t0;
	}
	double m = mp_median(t, reps);
	free(t);
	return m;
}

/* oneDNN: src (1, C, H, W) nhwc s8, weights (G=C, 1, 1, 3, 3) given as
 * [kh][kw][c] (strides) and reordered, bias s32, dst nhwc s32 */
static double run_dnnl(int H, int W, int C, int8_t *src, int8_t *w, int32_t *bias, int32_t *out,
		       int reps)
{
	dnnl_engine_t eng;
	dnnl_stream_t st;
	CHK(dnnl_engine_create(&eng, dnnl_cpu, 0));
	CHK(dnnl_stream_create(&st, eng, dnnl_stream_default_flags));
	dnnl_dims_t sd = {1, C, H, W}, wd = {C, 1, 1, 3, 3}, bd = {C}, dd = {1, C, H, W};
	dnnl_dims_t ws = {1, 1, 1, 3 * C, C};
	dnnl_dims_t strides = {1, 1}, pad = {1, 1};
	dnnl_memory_desc_t smd, wmd_user, wmd_any, bmd, dmd;
	CHK(dnnl_memory_desc_init_by_tag(&smd, 4, sd, dnnl_s8, dnnl_acdb));
	CHK(dnnl_memory_desc_init_by_strides(&wmd_user, 5, wd, dnnl_s8, ws));
	CHK(dnnl_memory_desc_init_by_tag(&wmd_any, 5, wd, dnnl_s8, dnnl_format_tag_any));
	CHK(dnnl_memory_desc_init_by_tag(&bmd, 1, bd, dnnl_s32, dnnl_a));
	CHK(dnnl_memory_desc_init_by_tag(&dmd, 4, dd, dnnl_s32, dnnl_acdb));
	dnnl_convolution_desc_t cd;
	CHK(dnnl_convolution_forward_desc_init(&cd, dnnl_forward_inference,
					       dnnl_convolution_direct, &smd, &wmd_any, &bmd,
					       &dmd, strides, pad, pad));
	dnnl_primitive_desc_t pd;
	CHK(dnnl_primitive_desc_create(&pd, &cd, NULL, eng, NULL));
	const dnnl_memory_desc_t *wmd = dnnl_primitive_desc_query_md(pd, dnnl_query_weights_md, 0);
	dnnl_primitive_t conv;
	CHK(dnnl_primitive_create(&conv, pd));
	dnnl_memory_t sm, wum, wm, bm, dm;
	CHK(dnnl_memory_create(&sm, &smd, eng, src));
	CHK(dnnl_memory_create(&wum, &wmd_user, eng, w));
	CHK(dnnl_memory_create(&wm, wmd, eng, DNNL_MEMORY_ALLOCATE));
	CHK(dnnl_memory_create(&bm, &bmd, eng, bias));
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
	dnnl_exec_arg_t args[4] = {{DNNL_ARG_SRC, sm}, {DNNL_ARG_WEIGHTS, wm},
				   {DNNL_ARG_BIAS, bm}, {DNNL_ARG_DST, dm}};
	double m = mp_dnnl_median(conv, st, 4, args, reps);
	dnnl_memory_destroy(sm);
	dnnl_memory_destroy(wum);
	dnnl_memory_destroy(wm);
	dnnl_memory_destroy(bm);
	dnnl_memory_destroy(dm);
	dnnl_primitive_destroy(conv);
	dnnl_primitive_desc_destroy(pd);
	dnnl_stream_destroy(st);
	dnnl_engine_destroy(eng);
	return m;
}

static int shape(int H, int W, int C, int reps)
{
	size_t n = (size_t)H * W * C;
	int8_t *src = malloc(n), *w = malloc((size_t)9 * C);
	int32_t *bias = malloc((size_t)C * 4);
	int32_t *o0 = malloc(n * 4), *o1 = malloc(n * 4), *o2 = malloc(n * 4);
	for (size_t e = 0; e < n; e++)
		src[e] = (int8_t)(mp_frand() * 127.5f);
	for (size_t e = 0; e < (size_t)9 * C; e++)
		w[e] = (int8_t)(mp_frand() * 127.5f);
	for (int c = 0; c < C; c++)
		bias[c] = (int32_t)(mp_frand() * 1000.0f);
	double ops = 2.0 * H * W * C * 9;
	printf("depthwise 3x3 pad 1: 1x%dx%dx%d (s8 x s8 -> s32, NHWC, padding in the loop), "
	       "one thread, median of %d\n", H, W, C, reps);
	fflush(stdout);
	double tp = run(dw_nhwc_plain, H, W, C, src, w, bias, o0, reps);
	printf("  plain loop (-O3 -march=native) : %9.3f ms  %7.1f GOP/s\n", tp * 1e3,
	       ops / tp / 1e9);
	fflush(stdout);
	double tm = run(dw_nhwc_mixprec, H, W, C, src, w, bias, o1, reps);
	printf("  mixprec                        : %9.3f ms  %7.1f GOP/s\n", tm * 1e3,
	       ops / tm / 1e9);
	fflush(stdout);
	double td = run_dnnl(H, W, C, src, w, bias, o2, reps);
	printf("  oneDNN grouped convolution     : %9.3f ms  %7.1f GOP/s (oneDNN %d.%d)\n",
	       td * 1e3, ops / td / 1e9, dnnl_version()->major, dnnl_version()->minor);
	int same = memcmp(o0, o1, n * 4) == 0, same_d = memcmp(o0, o2, n * 4) == 0;
	printf("  mixprec / plain %.2fx, mixprec / oneDNN %.2fx; output %s the plain build's, "
	       "oneDNN's %s\n", tp / tm, td / tm, same ? "equals" : "DIFFERS FROM",
	       same_d ? "equal" : "DIFFER");
	fflush(stdout);
	free(src);
	free(w);
	free(bias);
	free(o0);
	free(o1);
	free(o2);
	return same && same_d;
}

int main(int argc, char **argv)
{
	int reps = argc > 1 ? atoi(argv[1]) : 21, ok = 1;
	if (reps < 1) {
		fprintf(stderr, "usage: %s [reps [H W C]]\n", argv[0]);
		return 2;
	}
	if (argc > 4) {
		ok = shape(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]), reps);
	} else {
		ok &= shape(112, 112, 32, reps);
		ok &= shape(56, 56, 128, reps);
		ok &= shape(14, 14, 512, reps);
	}
	return ok ? 0 : 1;
}
