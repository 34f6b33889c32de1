/* small.c -- the runtime's cost model for small nests (small.sh): the same
 * int8 nest (line 15) and float nest (line 25) called on a tiny shape,
 * where the loop as written wins and the runtime runs it (fallback reason
 * `small`), and on a large one, where the kernels run; a depthwise
 * convolution with a channel multiplier of 2 (TensorFlow Lite's
 * depth_multiplier, dw below), which no vector kernel takes: every call
 * runs the loop as written (fallback reason `slow_form`).  The sums printed
 * must equal those of the build without the plugin. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mixprec.h>

__attribute__((noinline)) static void gemm(int M, int N, int K, const int8_t *A,
					   const int8_t *B, int32_t *C)
{
#pragma mixprec(int8)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			for (int k = 0; k < K; k++)
				C[i * N + j] += A[i * K + k] * B[j * K + k];
}

__attribute__((noinline)) static void fgemm(int M, int N, int K, const float *A,
					    const float *B, float *C)
{
#pragma mixprec(bf16)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			float s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[j * K + k];
			C[i * N + j] = s;
		}
}

/* B read along its columns (B[k*N + j]): the strided form */
__attribute__((noinline)) static void sgemm(int M, int N, int K, const int8_t *A,
					    const int8_t *B, int32_t *C)
{
#pragma mixprec(int8)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			for (int k = 0; k < K; k++)
				C[i * N + j] += A[i * K + k] * B[k * N + j];
}

/* the float nest at int8 (the guard's other float slot) */
__attribute__((noinline)) static void f8gemm(int M, int N, int K, const float *A,
					     const float *B, float *C)
{
#pragma mixprec(int8)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			float s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[j * K + k];
			C[i * N + j] = s;
		}
}

__attribute__((noinline)) static void dw(int H, int W, int C, int DM, const int8_t *in,
					 const int8_t *w, int32_t *out);
__attribute__((noinline)) static void pconv(int H, int W, int C, int OC, const int8_t *input,
					    const int8_t *filter, int32_t *output);
static int pgrid(const int8_t *A, const int8_t *B, int32_t *C);

/* What one call of NEST on M x N x K did: 0 the runtime was not called
   (the inline guard), 1 the kernels ran, 2 the original loop. */
#define OUTCOME(call)                                                                  \
	({                                                                             \
		mp_stats a_, b_;                                                       \
		mp_stats_get(&a_);                                                     \
		call;                                                                  \
		mp_stats_get(&b_);                                                     \
		b_.fast > a_.fast ? 1 : b_.fallback > a_.fallback ? 2 : 0;             \
	})

static void env(const char *stats)
{
	if (stats)
		setenv("MIXPREC_STATS", stats, 1);
	else
		unsetenv("MIXPREC_STATS");
	mp_env_reload();
}

/* The inline guard against the runtime's model over a grid of shapes: a
   call the guard skips (default environment) must be one the model sends
   to the loop (MIXPREC_STATS=1 turns the guard off), and a shape with an
   extent of 0 makes no call; prints how many were skipped. */
static int grid(const int8_t *A, const int8_t *B, int32_t *C, const float *FA,
		const float *FB, float *FC)
{
	static const int ext[] = {0, 1, 2, 3, 4, 7, 8, 16, 33, 64};
	const int n = sizeof ext / sizeof ext[0];
	int skipped[4] = {0, 0, 0, 0}, shapes = 0, bad = 0;
	static const char *const what[4] = {"int8", "float", "int8 strided", "float at int8"};
	for (int x = 0; x < n; x++)
		for (int y = 0; y < n; y++)
			for (int z = 0; z < n; z++) {
				int M = ext[x], N = ext[y], K = ext[z];
				for (int f = 0; f < 4; f++) {
#define ONE(f)                                                                               \
	(f == 1   ? OUTCOME(fgemm(M, N, K, FA, FB, FC))                                      \
	 : f == 2 ? OUTCOME(sgemm(M, N, K, A, B, C))                                         \
	 : f == 3 ? OUTCOME(f8gemm(M, N, K, FA, FB, FC))                                     \
		  : OUTCOME(gemm(M, N, K, A, B, C)))
					env(NULL);
					int g = ONE(f);
					env("1");
					int m = ONE(f);
					/* an extent of 0: no call at all, the guard on
					   or off (the extents are tested before it) */
					int none = M == 0 || N == 0 || K == 0;
					if (none ? g != 0 || m != 0
						 : m == 0 || (g == 0 && m != 2) || (g != 0 && g != m)) {
						printf("grid: %s %dx%dx%d: guard %d, model %d\n",
						       what[f], M, N, K, g, m);
						bad++;
					}
					skipped[f] += g == 0;
				}
				shapes++;
			}
	env(NULL);
	printf("grid: %d shapes, skipped int8 %d float %d strided %d float-int8 %d, %d wrong\n",
	       shapes, skipped[0], skipped[1], skipped[2], skipped[3], bad);
	return bad != 0;
}

/* matrix-vector products of float data (no constant=): the output's
   element p sums the vector times the matrix's column p (PolyBench's
   doitgen, mvt's second product), at bf16; the same in double; and a
   matrix of 9 MiB read along its rows (the loop streams it once) */
__attribute__((noinline)) static void mvcol(int n, const float *x, const float *W, float *y)
{
#pragma mixprec(bf16)
	for (int p = 0; p < n; p++) {
		float s = 0;
		for (int k = 0; k < n; k++)
			s += x[k] * W[k * n + p];
		y[p] = s;
	}
}

__attribute__((noinline)) static void mvcold(int n, const double *x, const double *W, double *y)
{
#pragma mixprec(bf16)
	for (int p = 0; p < n; p++) {
		double s = 0;
		for (int k = 0; k < n; k++)
			s += x[k] * W[k * n + p];
		y[p] = s;
	}
}

__attribute__((noinline)) static void mvrow(int n, const float *W, const float *x, float *y)
{
#pragma mixprec(bf16)
	for (int i = 0; i < n; i++) {
		float s = 0;
		for (int k = 0; k < n; k++)
			s += W[i * n + k] * x[k];
		y[i] = s;
	}
}

static int mv(void)
{
	enum { NV = 512, NL = 1536 };
	float *W = calloc((size_t)NL * NL, sizeof(float)), *x = calloc(NL, sizeof(float));
	float *y = calloc(NL, sizeof(float));
	double *WD = calloc((size_t)NV * NV, sizeof(double)), *xd = calloc(NV, sizeof(double));
	double *yd = calloc(NV, sizeof(double));
	double s = 0;

	if (!W || !x || !y || !WD || !xd || !yd)
		return 1;
	for (long i = 0; i < (long)NL * NL; i++)
		W[i] = (float)(i % 5 - 2);
	for (long i = 0; i < (long)NV * NV; i++)
		WD[i] = (double)(i % 3 - 1);
	for (int i = 0; i < NL; i++)
		x[i] = (float)(i % 7 - 3);
	for (int i = 0; i < NV; i++)
		xd[i] = (double)(i % 7 - 3);
	mvcol(NV, x, W, y);
	for (int i = 0; i < NV; i++)
		s += y[i];
	mvcold(NV, xd, WD, yd);
	for (int i = 0; i < NV; i++)
		s += yd[i];
	mvrow(NL, W, x, y);
	for (int i = 0; i < NL; i++)
		s += y[i];
	printf("mv %.1f\n", s);
	return 0;
}

static int conv(void);

int main(int argc, char **argv)
{
	enum { D = 256 };
	static int8_t A[D * D], B[D * D];
	static int32_t C[D * D];
	static float FA[D * D], FB[D * D], FC[D * D];
	for (int i = 0; i < D * D; i++) {
		A[i] = (int8_t)(i * 7), B[i] = (int8_t)(i * 13);
		/* small integers: bf16 represents them exactly, the sums too */
		FA[i] = (float)(i % 5 - 2), FB[i] = (float)(i % 3 - 1);
	}
	if (argc > 2 && !strcmp(argv[2], "mv"))
		return mv();
	if (argc > 2 && !strcmp(argv[2], "conv"))
		return conv();
	if (argc > 2 && !strcmp(argv[2], "grid"))
		return grid(A, B, C, FA, FB, FC);
	if (argc > 2 && !strcmp(argv[2], "pgrid"))
		return pgrid(A, B, C);
	if (argc > 2 && !strcmp(argv[2], "band")) {
		/* float calls the avx2 family's kernels cannot win (their
		   least cost: 648 ns at int8, 741 at bf16) whose loop the
		   model estimates above 269 ns (the AVX-512 tables' least):
		   once the runtime has read MIXPREC_TARGET=avx2, the guard
		   skips them (0); with the guard off the model sends them to
		   the loop (2) */
		setenv("MIXPREC_TARGET", "avx2", 1);
		env(NULL);
		int b16 = OUTCOME(fgemm(8, 8, 8, FA, FB, FC)), b8 = OUTCOME(f8gemm(8, 8, 8, FA, FB, FC));
		env("1");
		int m16 = OUTCOME(fgemm(8, 8, 8, FA, FB, FC)), m8 = OUTCOME(f8gemm(8, 8, 8, FA, FB, FC));
		printf("band: bf16 guard %d model %d, int8 guard %d model %d\n", b16, m16, b8, m8);
		return 0;
	}
	int calls = argc > 1 ? atoi(argv[1]) : 1;
	mp_stats st0, st1;
	mp_stats_get(&st0);
	for (int c = 0; c < calls; c++) {
		gemm(2, 2, 8, A, B, C);     /* tiny: the original loop */
		fgemm(2, 2, 8, FA, FB, FC);
	}
	/* calls the runtime saw (none when the inline guard skipped them) */
	mp_stats_get(&st1);
	fprintf(stderr, "tiny: fast=%ld fallback=%ld\n", st1.fast - st0.fast,
		st1.fallback - st0.fallback);
	long s = 0;
	double fs = 0;
	for (int i = 0; i < 4; i++)
		s += C[i], fs += FC[i];
	gemm(D, D, D, A, B, C);             /* large: the kernels */
	fgemm(64, 64, 64, FA, FB, FC);
	for (int i = 0; i < D * D; i++)
		s += C[i];
	for (int i = 0; i < 64 * 64; i++)
		fs += FC[i];
	dw(31, 31, 32, 2, A, B, C);         /* no vector form: the loop */
	(void)sgemm;
	(void)f8gemm;
	for (int i = 0; i < 31 * 31 * 64; i++)
		s += C[i];
	printf("%ld %.1f\n", s, fs);
	return 0;
}

/* Each output channel m + c*DM reads input channel c (a 3x3 window, no
   padding): the channel loop c indexes all three arrays (a batch loop),
   m only the weights and the output. */
__attribute__((noinline)) static void dw(int H, int W, int C, int DM, const int8_t *in,
					 const int8_t *w, int32_t *out)
{
#pragma mixprec(int8)
	for (int y = 0; y < H - 2; y++)
		for (int x = 0; x < W - 2; x++)
			for (int c = 0; c < C; c++)
				for (int m = 0; m < DM; m++) {
					int32_t acc = 0;
					for (int ky = 0; ky < 3; ky++)
						for (int kx = 0; kx < 3; kx++)
							acc += in[((y + ky) * W + x + kx) * C + c] *
							       w[(ky * 3 + kx) * C * DM + m + c * DM];
					out[(y * (W - 2) + x) * C * DM + m + c * DM] = acc;
				}
}

/* A 3x3 convolution with its padding (1) written in the loop, as KissDL
   and TensorFlow Lite's reference kernels write it: the runtime copies the
   image with its padding before the kernels, a cost the inline guard's
   padded row (slot 20) includes. */
__attribute__((noinline)) static void pconv(int H, int W, int C, int OC, const int8_t *input,
					    const int8_t *filter, int32_t *output)
{
	int out_y, out_x, out_d, f_y, f_x, in_d;
#pragma mixprec(int8, acc=int32)
	for (out_y = 0; out_y < H; out_y++) {
		const int in_y_origin = out_y - 1;
		for (out_x = 0; out_x < W; out_x++) {
			const int in_x_origin = out_x - 1;
			for (out_d = 0; out_d < OC; out_d++) {
				int32_t total = 0;
				for (f_y = 0; f_y < 3; f_y++) {
					const int in_y = in_y_origin + f_y;
					if ((in_y < 0) || (in_y >= H))
						continue;
					for (f_x = 0; f_x < 3; f_x++) {
						const int in_x = in_x_origin + f_x;
						if ((in_x < 0) || (in_x >= W))
							continue;
						for (in_d = 0; in_d < C; in_d++)
							total += input[(in_y * W + in_x) * C + in_d] *
								 filter[((out_d * 3 + f_y) * 3 + f_x) * C + in_d];
					}
				}
				output[(out_y * W + out_x) * OC + out_d] = total;
			}
		}
	}
}

/* The padded convolution's guard against the model, as grid() does for
   the GEMMs, over images of 1 to 24 pixels a side, 1 to 32 channels in
   and out; prints a hash of every call's output too (the plain build
   prints the same hash line). */
static int pgrid(const int8_t *A, const int8_t *B, int32_t *C)
{
	static const int hw[] = {1, 2, 3, 5, 8, 13, 24};
	static const int ch[] = {1, 2, 3, 8, 32};
	const int nhw = sizeof hw / sizeof hw[0], nch = sizeof ch / sizeof ch[0];
	int skipped = 0, kernels = 0, shapes = 0, bad = 0;
	uint32_t hash = 2166136261u;
	for (int y = 0; y < nhw; y++)
		for (int x = 0; x < nhw; x += 2)
			for (int c = 0; c < nch; c++)
				for (int o = 0; o < nch; o++) {
					int H = hw[y], W = hw[x], IC = ch[c], OC = ch[o];
					env(NULL);
					int g = OUTCOME(pconv(H, W, IC, OC, A, B, C));
					env("1");
					int m = OUTCOME(pconv(H, W, IC, OC, A, B, C));
					for (int e = 0; e < H * W * OC; e++)
						hash = (hash ^ (uint32_t)C[e]) * 16777619u;
					if (m == 0 || (g == 0 && m != 2) || (g != 0 && g != m)) {
						printf("pgrid: %dx%dx%d->%d: guard %d, model %d\n", H, W,
						       IC, OC, g, m);
						bad++;
					}
					skipped += g == 0;
					kernels += m == 1;
					shapes++;
				}
	env(NULL);
	printf("pgrid-hash: %08x\n", (unsigned)hash);
	printf("pgrid: %d shapes, skipped %d, kernels %d, %d wrong\n", shapes, skipped,
	       kernels, bad);
	return bad != 0;
}

/* A float NCHW convolution (3x3, no padding): its window's rows do not
   chain, so the runtime copies A's rows before the kernels (stage.c); the
   cost model counts the copy (runtime/nest.c, stage_cost).  8 channels of
   a 12x12 image to 1 output: the loop as written (the kernels with the
   copy ran 5x slower); 32 channels of 18x18 to 32 outputs: the kernels. */
__attribute__((noinline)) static void nchw(int C, int H, int W, int OC, const float *in,
					   const float *w, float *out)
{
	int OH = H - 2, OW = W - 2;
#pragma mixprec(bf16)
	for (int oc = 0; oc < OC; oc++)
		for (int oh = 0; oh < OH; oh++)
			for (int ow = 0; ow < OW; ow++) {
				float s = 0;
				for (int c = 0; c < C; c++)
					for (int kh = 0; kh < 3; kh++)
						for (int kw = 0; kw < 3; kw++)
							s += in[(c * H + oh + kh) * W + ow + kw] *
							     w[((oc * C + c) * 3 + kh) * 3 + kw];
				out[(oc * OH + oh) * OW + ow] = s;
			}
}

static int conv(void)
{
	static float in[32 * 18 * 18], w[32 * 32 * 9], out[32 * 16 * 16];
	double sum = 0;
	/* small integers: exact in bf16, and their sums in fp32 */
	for (int i = 0; i < 32 * 18 * 18; i++)
		in[i] = (float)(i % 7 - 3);
	for (int i = 0; i < 32 * 32 * 9; i++)
		w[i] = (float)(i % 5 - 2);
	nchw(8, 12, 12, 1, in, w, out);
	for (int i = 0; i < 10 * 10; i++)
		sum += out[i];
	nchw(32, 18, 18, 32, in, w, out);
	for (int i = 0; i < 32 * 16 * 16; i++)
		sum += out[i];
	printf("conv %.1f\n", sum);
	return 0;
}
