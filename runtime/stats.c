/* stats.c -- process-wide counters of the generated code's decisions
 * (fast path taken or original loop run), for tests and users who want to
 * know whether their loops really ran on the kernels. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mixprec.h"
#include "mp_runtime.h"
#include "mp_par.h"

static long mp_n_fast, mp_n_fallback, mp_last_kernel = -1;
static long mp_n_verified, mp_n_verify_failed;
static double mp_verify_worst;
static pthread_mutex_t mp_verify_lock = PTHREAD_MUTEX_INITIALIZER;

void mp_stats_note_verify(double worst, int failed)
{
	pthread_mutex_lock(&mp_verify_lock);
	mp_n_verified++;
	mp_n_verify_failed += failed != 0;
	if (worst > mp_verify_worst || worst != worst)
		mp_verify_worst = worst;
	pthread_mutex_unlock(&mp_verify_lock);
}

void mp_stats_note(int fast, int kernel)
{
	if (fast) {
		__atomic_add_fetch(&mp_n_fast, 1, __ATOMIC_RELAXED);
		__atomic_store_n(&mp_last_kernel, (long)kernel, __ATOMIC_RELAXED);
	} else {
		__atomic_add_fetch(&mp_n_fallback, 1, __ATOMIC_RELAXED);
	}
}

void mp_stats_get(mp_stats *s)
{
	s->fast = __atomic_load_n(&mp_n_fast, __ATOMIC_RELAXED);
	s->fallback = __atomic_load_n(&mp_n_fallback, __ATOMIC_RELAXED);
	s->last_kernel = __atomic_load_n(&mp_last_kernel, __ATOMIC_RELAXED);
	pthread_mutex_lock(&mp_verify_lock);
	s->verified = mp_n_verified;
	s->verify_failed = mp_n_verify_failed;
	s->verify_worst = mp_verify_worst;
	pthread_mutex_unlock(&mp_verify_lock);
}

void mp_stats_reset(void)
{
	__atomic_store_n(&mp_n_fast, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&mp_n_fallback, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&mp_last_kernel, -1, __ATOMIC_RELAXED);
	pthread_mutex_lock(&mp_verify_lock);
	mp_n_verified = mp_n_verify_failed = 0;
	mp_verify_worst = 0;
	pthread_mutex_unlock(&mp_verify_lock);
}

/* MIXPREC_STATS=1 in the environment: print the counters at exit, so that
 * a user can see whether the annotated loops ran on the kernels. */
__attribute__((destructor)) static void mp_stats_atexit(void)
{
	const char *e = getenv("MIXPREC_STATS");
	if (!e || !*e || !strcmp(e, "0"))
		return;
	mp_stats s;
	mp_stats_get(&s);
	fprintf(stderr, "mixprec: fast=%ld fallback=%ld kernel=%s", s.fast, s.fallback,
		s.last_kernel >= 0 ? mp_kernel_name((mp_kernel)s.last_kernel) : "none");
	if (s.verified)
		fprintf(stderr, " verified=%ld verify_failed=%ld verify_worst=%.3g", s.verified,
			s.verify_failed, s.verify_worst);
	long teams, max_team;
	const char *omp;
	mp_par_stats(&teams, &max_team, &omp);
	/* calls that ran on an OpenMP team, the largest, and whose runtime */
	fprintf(stderr, " teams=%ld max_team=%ld openmp=%s", teams, max_team, omp ? omp : "none");
	fputc('\n', stderr);
}
