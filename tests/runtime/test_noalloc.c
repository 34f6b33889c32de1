/* test_noalloc.c -- the per-call cost of small contractions (issue 10 item
 * 3): after a first call of each shape, further calls allocate nothing on
 * the heap (malloc, calloc, realloc, aligned_alloc, posix_memalign and
 * memalign are counted through wrappers around the C library's).  Covers
 * mp_gemm_x8 (blocked, direct and vector paths), mp_gemm_x8_epi,
 * __mixprec_i8_nest in TILE mode (its tile comes back through
 * __mixprec_release), and mp_gemm_lp_ex (int8, bf16). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mixprec.h"

static long n_alloc;
static int counting;

#define WRAP(ret, name, params, args)                                      \
	ret name params                                                    \
	{                                                                  \
		static ret(*real) params;                                  \
		if (!real)                                                 \
			real = (ret(*) params)dlsym(RTLD_NEXT, #name);     \
		if (counting)                                              \
			__atomic_add_fetch(&n_alloc, 1, __ATOMIC_RELAXED); \
		return real args;                                          \
	}
WRAP(void *, malloc, (size_t n), (n))
WRAP(void *, realloc, (void *p, size_t n), (p, n))
WRAP(void *, aligned_alloc, (size_t a, size_t n), (a, n))
WRAP(void *, memalign, (size_t a, size_t n), (a, n))
WRAP(int, posix_memalign, (void **p, size_t a, size_t n), (p, a, n))

/* calloc: dlsym itself may call calloc before the real one is known */
static char early[4096];
static size_t early_used;
void *calloc(size_t m, size_t n)
{
	static void *(*real)(size_t, size_t);
	static int resolving;
	if (!real) {
		if (resolving) {
			void *p = early + early_used;
			early_used += (m * n + 15) / 16 * 16;
			return p;
		}
		resolving = 1;
		real = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "calloc");
		resolving = 0;
	}
	if (counting)
		__atomic_add_fetch(&n_alloc, 1, __ATOMIC_RELAXED);
	return real(m, n);
}

static int8_t a[64 * 256], b[256 * 64];
static int32_t c[64 * 64];
static int8_t o8[64 * 64];
static float fa[64 * 256], fb[256 * 64], fc[64 * 64];

static void calls(void)
{
	mp_kernel k = mp_kernel_select();
	static const long shapes[][3] = {{16, 16, 64}, {32, 32, 32}, {64, 64, 64}, {1, 64, 256},
					  {64, 1, 256}, {3, 64, 100}};
	for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
		long M = shapes[s][0], N = shapes[s][1], K = shapes[s][2];
		mp_gemm_x8(k, M, N, K, a, MP_DT_S8, K, 1, 0, b, MP_DT_S8, N, 1, 0, c, N, 1, 0);
		mp_epilogue ep = {.kind = MP_EPI_FP32, .scale = 0.01f, .qmin = -128, .qmax = 127,
				  .out_dt = MP_DT_S8, .out = o8, .out_si = N, .out_sj = 1};
		mp_gemm_x8_epi(k, M, N, K, a, MP_DT_S8, K, 1, 0, b, MP_DT_S8, N, 1, 0, &ep);
		/* TILE mode, no range checks (ncheck = nprot = 0) */
		/* MP_NEST_ABI 7: loc ("FILE:LINE", here none), alpha (1), the
		   groups (1, 0, 0), the summed loops (none) and the second row
		   loop (1, 0, 0, 0) before the ranges */
		void *t = __mixprec_i8_nest(MP_NEST_ABI, 46L, 0L, 0L, M, N, K, (void *)a, K, 1L,
					    (long)MP_DT_S8, 0L, (void *)b, N, 1L, (long)MP_DT_S8, 0L,
					    (void *)0, 0L, 0L, 0L, 0L, 0L, (void *)0, 0L, 0L, 0L, 0L,
					    0L, 0L, 0L, 0L, (const char *)0, 1L, 0L, 1L, 0L, 0L, 0L,
					    -1L, 0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L);
		if (!t) {
			printf("FAIL: __mixprec_i8_nest refused %ldx%ldx%ld\n", M, N, K);
			exit(1);
		}
		__mixprec_release(t);
		/* a convolution's reduction: k (K/4 terms) inside one summed
		   loop of 4 iterations whose A stride does not chain (A is
		   copied, stage.c), B's does */
		long K4 = K / 4;
		t = __mixprec_i8_nest(MP_NEST_ABI, 49L, 0L, 0L, M, N, K4, (void *)a, K, 1L,
				      (long)MP_DT_S8, 0L, (void *)b, N, 1L, (long)MP_DT_S8, 0L,
				      (void *)0, 0L, 0L, 0L, 0L, 0L, (void *)0, 0L, 0L, 0L, 0L,
				      0L, 0L, 0L, 0L, (const char *)0, 1L, 0L, 1L, 0L, 0L,
				      1L, 4L, K4 - 1 > 0 ? K4 - 1 : 0L, K4 * N, -1L, 0L, 0L, 0L, 0L,
				      0L, 0L, 0L, 0L);
		if (!t) {
			printf("FAIL: __mixprec_i8_nest refused a summed loop, %ldx%ldx%ldx4\n", M, N,
			       K4);
			exit(1);
		}
		__mixprec_release(t);
		/* the same, padded: the summed loop's first iteration is left
		   out (one condition, d1 - 1 >= 0: A copied with padding) */
		t = __mixprec_i8_nest(MP_NEST_ABI, 54L, 0L, 0L, M, N, K4, (void *)a, K, 1L,
				      (long)MP_DT_S8, 0L, (void *)b, N, 1L, (long)MP_DT_S8, 0L,
				      (void *)0, 0L, 0L, 0L, 0L, 0L, (void *)0, 0L, 0L, 0L, 0L,
				      0L, 0L, 0L, 0L, (const char *)0, 1L, 0L, 1L, 0L, 0L,
				      1L, 4L, K4 - 1 > 0 ? K4 - 1 : 0L, K4 * N, -1L, 0L, 0L, 0L,
				      1L, 0L, 0L, -1L, 0L, 0L, 0L, 1L, 0L, 0L);
		if (!t) {
			printf("FAIL: __mixprec_i8_nest refused a padded sum, %ldx%ldx%ldx4\n", M, N,
			       K4);
			exit(1);
		}
		__mixprec_release(t);
		mp_lp_opts opt = {.alpha = 1.0};
		if (mp_gemm_lp_ex(k, MP_LP_INT8, 0, M, N, K, fa, K, 1, fb, 1, K, fc, N, 1, 0, NULL,
				  &opt) ||
		    mp_gemm_lp_ex(k, MP_LP_BF16, 0, M, N, K, fa, K, 1, fb, 1, K, fc, N, 1, 0, NULL,
				  &opt)) {
			printf("FAIL: mp_gemm_lp_ex refused %ldx%ldx%ld\n", M, N, K);
			exit(1);
		}
	}
}

int main(void)
{
	for (size_t i = 0; i < sizeof a; i++)
		a[i] = (int8_t)(i * 7), b[i] = (int8_t)(i * 11);
	for (size_t i = 0; i < sizeof fa / sizeof fa[0]; i++)
		fa[i] = (float)(i % 17) - 8, fb[i] = (float)(i % 13) - 6;
	calls();   /* the first calls: the thread's buffers grow */
	counting = 1;
	for (int r = 0; r < 10; r++)
		calls();
	counting = 0;
	printf("heap allocations in 10 x 42 calls after the first: %ld (kernel %s)\n", n_alloc,
	       mp_kernel_name(mp_kernel_select()));
	return n_alloc != 0;
}
