/* mp_par.h -- threads of the runtime, through the program's OpenMP runtime
 * (par.c).  A contraction is split over output blocks, never over the
 * reduction: each output element is computed by one thread, with the same
 * operations whatever the number of threads, so results do not depend on
 * it.
 *
 * Usage in a driver:
 *   int nt = mp_par_threads(work);          1 below the work threshold,
 *                                           inside an OpenMP region, ...
 *   mp_par_run(nt, fn, &args);              fn(&args, t, n) for t < n on a
 *                                           team (n may be smaller than nt)
 * and fn picks its part of the output with mp_par_grid / mp_par_part. */
#ifndef MP_PAR_H
#define MP_PAR_H

/* Multiply-adds below which a call stays on the calling thread, and the
 * least work each thread of a team gets (a team costs microseconds to
 * start, more when its threads sleep). */
#define MP_PAR_MIN_WORK (1L << 22)

/* The number of threads a call doing `work` multiply-adds may use (>= 1):
 *   1 when work < 2 * MP_PAR_MIN_WORK, when MIXPREC_THREADS=1, in a child
 *     forked after teams ran (libgomp's pool does not survive fork), inside an
 *     OpenMP region of the program (omp_get_level() > 0: the call runs on
 *     the calling thread, no nested team), or when no OpenMP runtime can
 *     be found;
 *   else min(work / MP_PAR_MIN_WORK, MIXPREC_THREADS if set, otherwise the
 *     thread count of the OpenMP loop directive the call replaces
 *     (__mixprec_omp_threads: num_threads, 1 for a false if clause),
 *     otherwise the OpenMP runtime's omp_get_max_threads(): OMP_NUM_THREADS,
 *     omp_set_num_threads). */
int mp_par_threads(double work);

/* Runs fn(arg, t, n) for t = 0 .. n-1 on an OpenMP team of n <= nt threads
 * (the runtime may give fewer), the calling thread being thread 0; returns
 * when all are done.  nt <= 1, or another team of this runtime still
 * running (a second thread of the program calling at the same time): fn(arg,
 * 0, 1) on the calling thread. */
void mp_par_run(int nt, void (*fn)(void *arg, int t, int n), void *arg);

/* A grid of tm x tn parts (tm * tn <= n) for an M x N output in units of
 * mr rows and nr columns, minimising the operands each part packs (rows of
 * A times tn plus columns of B times tm, per unit of K): a_cost = bytes of
 * one row of A, b_cost = of one column of B. */
void mp_par_grid(int n, long M, long N, long mr, long nr, double a_cost, double b_cost,
		 int *tm, int *tn);

/* Part t of p of [0, len) in multiples of `unit` (the last part takes the
 * rest): [*lo, *hi), empty when t has nothing. */
void mp_par_part(long len, long unit, int t, int p, long *lo, long *hi);

/* 1 when the call is a tile-mode nest under an OpenMP directive
 * (__mixprec_omp_threads(-1) before it: the loops left run on the calling
 * thread) and, outside any parallel region, the directive's team would have
 * more than 2 threads: the kernels plus those loops on one thread would not
 * beat the construct as written, which runs instead. */
int mp_par_tail_too_wide(void);

/* Read MIXPREC_THREADS again on the next call (mp_env_reload). */
void mp_par_reload(void);

/* For the tests: as if MIXPREC_THREADS=threads (0: unset), and min_work
 * in place of MP_PAR_MIN_WORK (0: the default).  Not thread-safe. */
void mp_par_override(int threads, double min_work);

/* For MIXPREC_STATS and the tests: calls that ran on a team, the largest
 * team, and the file of the OpenMP runtime in use (NULL: none loaded). */
void mp_par_stats(long *teams, long *max_team, const char **runtime);

#endif
