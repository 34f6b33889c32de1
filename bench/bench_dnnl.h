/* bench_dnnl.h -- what the benchmarks that time a oneDNN primitive share:
 * a check of every oneDNN call, and the median time of a primitive (one
 * warm-up run, then REPS timed runs, each waited for).  Header-only; include
 * after <dnnl.h> and bench_util.h. */
#ifndef MP_BENCH_DNNL_H
#define MP_BENCH_DNNL_H

#include <stdio.h>
#include <stdlib.h>
#include <dnnl.h>
#include "bench_util.h"

#define CHK(x) do { dnnl_status_t s_ = (x); if (s_ != dnnl_success) { \
	fprintf(stderr, "%s failed: %d\n", #x, (int)s_); exit(1); } } while (0)

static inline double mp_dnnl_median(dnnl_primitive_t p, dnnl_stream_t st, int nargs,
				    const dnnl_exec_arg_t *args, int reps)
{
	double *t = malloc(sizeof(double) * (size_t)reps);
	CHK(dnnl_primitive_execute(p, st, nargs, args));
	CHK(dnnl_stream_wait(st));
	for (int r = 0; r < reps; r++) {
		double t0 = mp_now();
		CHK(dnnl_primitive_execute(p, st, nargs, args));
		CHK(dnnl_stream_wait(st));
		t[r] = mp_now() - t0;
	}
	double m = mp_median(t, reps);
	free(t);
	return m;
}

#endif
