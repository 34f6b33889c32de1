/* par.c -- threads of the runtime through the program's OpenMP runtime
 * (mp_par.h).  No thread pool of our own, and one OpenMP runtime in the
 * process whatever compiler built the program:
 *
 *   libmixprec links no OpenMP library.  The first call whose work is worth
 *   a team looks for the runtime the process already has: in the global
 *   scope (a program built with gcc -fopenmp has libgomp there, one built
 *   with clang -fopenmp has libomp), then among the libraries loaded
 *   privately (dlopen RTLD_NOLOAD of libgomp.so.1, libomp.so.5, ...).  Only
 *   a process without any loads one itself: libgomp.so.1 (part of GCC),
 *   else libomp.so.5.  Teams are started through GOMP_parallel, the entry
 *   point GCC's generated code calls, which libgomp defines and libomp
 *   provides in its GOMP compatibility layer (GOMP_4.0): the same code
 *   drives either runtime, and the program's own parallel regions and ours
 *   share one pool of threads.
 *
 * What is per process is computed once: the runtime's entry points
 * (pthread_once), MIXPREC_THREADS.  Per call: omp_get_level() and
 * omp_get_max_threads() (reads of the runtime's per-thread state), one
 * atomic exchange. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "mp_par.h"

typedef void (*mp_gomp_parallel_fn)(void (*fn)(void *), void *data, unsigned nthreads,
				    unsigned flags);
typedef int (*mp_omp_int_fn)(void);

/* The entry points of the OpenMP runtime in use (all set, or parallel NULL). */
static struct {
	mp_gomp_parallel_fn parallel;
	mp_omp_int_fn max_threads, level, thread_num, num_threads;
	void (*set_num_threads)(int);   /* may be NULL */
	const char *file;
} mp_omp;

static pthread_once_t mp_omp_once = PTHREAD_ONCE_INIT;
static int mp_par_env = -1;      /* MIXPREC_THREADS: 0 unset, else the count */
static int mp_par_busy;          /* a team of ours is running */
static long mp_par_teams, mp_par_max_team;
static int mp_par_forked;        /* a child forked after teams ran */
static double mp_par_min_work = MP_PAR_MIN_WORK;
/* The thread count an OpenMP loop directive on the nest asks for
 * (__mixprec_omp_threads): 0 none, else its num_threads (1 for a false
 * if clause); -1: a tile-mode nest under a directive, whose loops run on
 * the calling thread (mp_par_tail_too_wide).  Per thread: set and cleared
 * around one call. */
static __thread int mp_par_req;

/* Binds the entry points from handle h; 1 when all were found. */
static int mp_omp_bind(void *h)
{
	void *p = dlsym(h, "GOMP_parallel");
	void *mt = dlsym(h, "omp_get_max_threads"), *lv = dlsym(h, "omp_get_level");
	void *tn = dlsym(h, "omp_get_thread_num"), *nt = dlsym(h, "omp_get_num_threads");
	if (!p || !mt || !lv || !tn || !nt)
		return 0;
	/* (casts through a union: ISO C has no object-to-function pointer) */
	union { void *o; mp_gomp_parallel_fn f; } up = {p};
	union { void *o; mp_omp_int_fn f; } u1 = {mt}, u2 = {lv}, u3 = {tn}, u4 = {nt};
	mp_omp.max_threads = u1.f;
	mp_omp.level = u2.f;
	mp_omp.thread_num = u3.f;
	mp_omp.num_threads = u4.f;
	union { void *o; void (*f)(int); } u5 = {dlsym(h, "omp_set_num_threads")};
	mp_omp.set_num_threads = u5.f;
	Dl_info info;
	mp_omp.file = dladdr(p, &info) && info.dli_fname ? info.dli_fname : "?";
	__atomic_store_n(&mp_omp.parallel, up.f, __ATOMIC_RELEASE);
	return 1;
}

/* A child forked after teams ran: libgomp's pool still lists the parent's
 * threads (a team would wait for them forever), so the child's calls stay
 * on the calling thread. */
static void mp_par_atfork_child(void)
{
	if (__atomic_load_n(&mp_par_teams, __ATOMIC_RELAXED))
		__atomic_store_n(&mp_par_forked, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&mp_par_busy, 0, __ATOMIC_RELAXED);
}

/* Finds (or, in a process without one, loads) the OpenMP runtime. */
static void mp_omp_load(void)
{
	pthread_atfork(NULL, NULL, mp_par_atfork_child);
	static const char *const loaded[] = {"libgomp.so.1", "libomp.so.5", "libomp.so",
					     "libiomp5.so"};
	static const char *const load[] = {"libgomp.so.1", "libomp.so.5"};
	if (mp_omp_bind(RTLD_DEFAULT))
		return;
	for (size_t i = 0; i < sizeof loaded / sizeof loaded[0]; i++) {
		void *h = dlopen(loaded[i], RTLD_LAZY | RTLD_NOLOAD);
		if (h && mp_omp_bind(h))
			return;
	}
	for (size_t i = 0; i < sizeof load / sizeof load[0]; i++) {
		void *h = dlopen(load[i], RTLD_LAZY | RTLD_LOCAL);
		if (h && mp_omp_bind(h))
			return;
	}
}

/* MIXPREC_THREADS, read once: a positive count, anything else ignored. */
static int mp_par_env_threads(void)
{
	int v = __atomic_load_n(&mp_par_env, __ATOMIC_RELAXED);
	if (v < 0) {
		const char *s = getenv("MIXPREC_THREADS");
		char *end;
		long n = s && *s ? strtol(s, &end, 10) : 0;
		v = s && *s && *end == 0 && n > 0 ? (int)(n > 1024 ? 1024 : n) : 0;
		__atomic_store_n(&mp_par_env, v, __ATOMIC_RELAXED);
	}
	return v;
}

/* See mp_par.h. */
int mp_par_threads(double work)
{
	int env = mp_par_env_threads();
	if (env == 1 || !(work >= 2.0 * mp_par_min_work) ||
	    __atomic_load_n(&mp_par_forked, __ATOMIC_RELAXED))
		return 1;
	pthread_once(&mp_omp_once, mp_omp_load);
	if (!__atomic_load_n(&mp_omp.parallel, __ATOMIC_ACQUIRE) || mp_omp.level() > 0)
		return 1;
	long n = env ? env : mp_par_req > 0 ? mp_par_req : mp_omp.max_threads();
	double cap = work / mp_par_min_work;
	if ((double)n > cap)
		n = (long)cap;
	return n < 1 ? 1 : n > 1024 ? 1024 : (int)n;
}

typedef struct mp_par_job {
	void (*fn)(void *, int, int);
	void *arg;
} mp_par_job;

static void mp_par_tramp(void *p)
{
	const mp_par_job *j = p;
	j->fn(j->arg, mp_omp.thread_num(), mp_omp.num_threads());
}

/* See mp_par.h. */
void mp_par_run(int nt, void (*fn)(void *arg, int t, int n), void *arg)
{
	if (nt <= 1 || !__atomic_load_n(&mp_omp.parallel, __ATOMIC_ACQUIRE) ||
	    __atomic_exchange_n(&mp_par_busy, 1, __ATOMIC_ACQUIRE)) {
		fn(arg, 0, 1);
		return;
	}
	mp_par_job j = {fn, arg};
	__atomic_add_fetch(&mp_par_teams, 1, __ATOMIC_RELAXED);
	long m = __atomic_load_n(&mp_par_max_team, __ATOMIC_RELAXED);
	while (nt > m && !__atomic_compare_exchange_n(&mp_par_max_team, &m, nt, 0,
						       __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
	mp_omp.parallel(mp_par_tramp, &j, (unsigned)nt, 0);
	__atomic_store_n(&mp_par_busy, 0, __ATOMIC_RELEASE);
}

/* See mp_par.h.  The time of a part, in multiply-adds per unit of K: its
 * share of the output, plus what it packs (about 32 multiply-adds per
 * byte packed). */
void mp_par_grid(int n, long M, long N, long mr, long nr, double a_cost, double b_cost,
		 int *tm, int *tn)
{
	long um = (M + mr - 1) / mr, un = (N + nr - 1) / nr;
	double best = -1;
	*tm = *tn = 1;
	for (int p = n; p >= 1; p--)
		for (int m = 1; m <= p; m++) {
			int q = p / m;
			if (p % m || m > um || q > un)
				continue;
			double score = (double)M * (double)N / p +
				       32.0 * ((double)M / m * a_cost + (double)N / q * b_cost);
			if (best < 0 || score < best) {
				best = score;
				*tm = m;
				*tn = q;
			}
		}
}

/* See mp_par.h. */
void mp_par_part(long len, long unit, int t, int p, long *lo, long *hi)
{
	long units = (len + unit - 1) / unit;
	long u0 = units * t / p, u1 = units * (t + 1) / p;
	*lo = u0 * unit < len ? u0 * unit : len;
	*hi = u1 * unit < len ? u1 * unit : len;
}

/* See mixprec.h: set by the plugins' code around the call that replaces a
 * loop nest carrying `#pragma omp parallel for num_threads(n)` (0: none;
 * -1: a tile-mode nest, mp_par_tail_too_wide). */
void __mixprec_omp_threads(long n)
{
	mp_par_req = n == -1 ? -1 : n <= 0 ? 0 : n > 1024 ? 1024 : (int)n;
}

/* See mp_par.h. */
int mp_par_tail_too_wide(void)
{
	if (mp_par_req != -1)
		return 0;
	pthread_once(&mp_omp_once, mp_omp_load);
	if (!__atomic_load_n(&mp_omp.parallel, __ATOMIC_ACQUIRE) || mp_omp.level() > 0)
		return 0;
	return mp_omp.max_threads() > 2;
}

/* The tiles of nests whose loops carry an OpenMP directive (clang's
 * rewrite of a tile-mode nest): the calling thread registers its tile
 * before the construct and the construct's body looks it up.  Another
 * thread of the team finds nothing and computes its iterations as written
 * (the same values); with a tile, the construct is asked for one thread
 * (the calling one) unless its own num_threads clause says otherwise.  A
 * stack per thread, innermost last. */
#define MP_OMP_TILES 8
static __thread struct mp_omp_tile {
	const void *key;
	long id;
	void *tile;
	int saved;   /* the nthreads ICV to restore, 0: none set */
} mp_omp_tiles[MP_OMP_TILES];
static __thread int mp_omp_ntiles;

/* See mixprec.h. */
void __mixprec_tile_enter(const void *key, long id, void *tile)
{
	if (!tile || mp_omp_ntiles >= MP_OMP_TILES)
		return;
	struct mp_omp_tile *e = &mp_omp_tiles[mp_omp_ntiles++];
	e->key = key;
	e->id = id;
	e->tile = tile;
	e->saved = 0;
	pthread_once(&mp_omp_once, mp_omp_load);
	if (__atomic_load_n(&mp_omp.parallel, __ATOMIC_ACQUIRE) && mp_omp.set_num_threads) {
		e->saved = mp_omp.max_threads();
		mp_omp.set_num_threads(1);
	}
}

/* See mixprec.h. */
void *__mixprec_tile_get(const void *key, long id)
{
	for (int i = mp_omp_ntiles - 1; i >= 0; i--)
		if (mp_omp_tiles[i].key == key && mp_omp_tiles[i].id == id)
			return mp_omp_tiles[i].tile;
	return NULL;
}

/* See mixprec.h. */
void __mixprec_tile_leave(const void *key, long id)
{
	for (int i = mp_omp_ntiles - 1; i >= 0; i--)
		if (mp_omp_tiles[i].key == key && mp_omp_tiles[i].id == id) {
			if (mp_omp_tiles[i].saved > 0)
				mp_omp.set_num_threads(mp_omp_tiles[i].saved);
			for (int j = i; j + 1 < mp_omp_ntiles; j++)
				mp_omp_tiles[j] = mp_omp_tiles[j + 1];
			mp_omp_ntiles--;
			return;
		}
}

/* See mp_par.h. */
void mp_par_reload(void)
{
	__atomic_store_n(&mp_par_env, -1, __ATOMIC_RELAXED);
}

/* See mp_par.h. */
void mp_par_override(int threads, double min_work)
{
	mp_par_env_threads();
	__atomic_store_n(&mp_par_env, threads > 0 ? threads : 0, __ATOMIC_RELAXED);
	mp_par_min_work = min_work > 0 ? min_work : MP_PAR_MIN_WORK;
}

/* See mp_par.h. */
void mp_par_stats(long *teams, long *max_team, const char **runtime)
{
	*teams = __atomic_load_n(&mp_par_teams, __ATOMIC_RELAXED);
	*max_team = __atomic_load_n(&mp_par_max_team, __ATOMIC_RELAXED);
	*runtime = __atomic_load_n(&mp_omp.parallel, __ATOMIC_ACQUIRE) ? mp_omp.file : NULL;
}
