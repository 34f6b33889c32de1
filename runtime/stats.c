/* stats.c -- process-wide counters of the generated code's decisions
 * (fast path taken or original loop run), for tests and users who want to
 * know whether their loops really ran on the kernels, in total and per nest
 * (calls, calls on the kernels, fallbacks by reason, kernel, time). */
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

static void reset_nests(void);

void mp_stats_reset(void)
{
	reset_nests();
	__atomic_store_n(&mp_n_fast, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&mp_n_fallback, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&mp_last_kernel, -1, __ATOMIC_RELAXED);
	pthread_mutex_lock(&mp_verify_lock);
	mp_n_verified = mp_n_verify_failed = 0;
	mp_verify_worst = 0;
	pthread_mutex_unlock(&mp_verify_lock);
}

/* ------------------------------------------------------ per-nest counters
 * One entry per nest (its "FILE:LINE" string from the generated call), kept
 * under a lock: one update per call of a whole nest, not per element. */
#include <time.h>
#include <unistd.h>

#define MP_NEST_STATS_MAX 1024

static const char *const mp_fb_names[MP_FB_COUNT] = {
	"none", "abi", "disabled", "no_kernel", "overlap", "int32_bound", "layout", "alloc",
	"values", "verify", "small", "omp_team", "slow_form", "auto_source",
};

typedef struct mp_nest_stat {
	const char *loc;
	long calls, fast, fb[MP_FB_COUNT];
	int kernel;
	double seconds;
} mp_nest_stat;

static mp_nest_stat mp_nests[MP_NEST_STATS_MAX];
static int mp_nnests;
static pthread_mutex_t mp_nest_lock = PTHREAD_MUTEX_INITIALIZER;

static void reset_nests(void)
{
	pthread_mutex_lock(&mp_nest_lock);
	memset(mp_nests, 0, sizeof mp_nests);
	mp_nnests = 0;
	pthread_mutex_unlock(&mp_nest_lock);
}

double mp_stats_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

void mp_stats_nest(const char *loc, mp_fallback why, int kernel, double seconds)
{
	if (!loc)
		loc = "(unknown nest)";
	pthread_mutex_lock(&mp_nest_lock);
	int i;
	for (i = 0; i < mp_nnests; i++)
		if (mp_nests[i].loc == loc || !strcmp(mp_nests[i].loc, loc))
			break;
	if (i == mp_nnests && mp_nnests < MP_NEST_STATS_MAX) {
		mp_nests[i].loc = loc;
		mp_nests[i].kernel = -1;
		mp_nnests++;
	}
	if (i < mp_nnests) {
		mp_nest_stat *s = &mp_nests[i];
		s->calls++;
		s->seconds += seconds;
		if (why == MP_FB_NONE) {
			s->fast++;
			s->kernel = kernel;
		} else if (why > 0 && why < MP_FB_COUNT) {
			s->fb[why]++;
		}
	}
	pthread_mutex_unlock(&mp_nest_lock);
}

static const char *kernel_text(int k)
{
	return k >= 0 ? mp_kernel_name((mp_kernel)k) : "none";
}

/* One line per nest, each labelled with the process id. */
static void print_nests(FILE *f, int pid)
{
	for (int i = 0; i < mp_nnests; i++) {
		const mp_nest_stat *s = &mp_nests[i];
		char why[256] = "";
		size_t o = 0;
		for (int r = 1; r < MP_FB_COUNT && o < sizeof why - 40; r++)
			if (s->fb[r])
				o += (size_t)snprintf(why + o, sizeof why - o, "%s%s=%ld",
						      o ? " " : " (", mp_fb_names[r], s->fb[r]);
		if (o)
			snprintf(why + o, sizeof why - o, ")");
		fprintf(f, "mixprec: pid=%d nest %s calls=%ld kernels=%ld fallbacks=%ld%s kernel=%s "
			"time=%.3fms\n", pid, s->loc, s->calls, s->fast, s->calls - s->fast, why,
			kernel_text(s->kernel), s->seconds * 1e3);
	}
}

static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

/* MIXPREC_STATS=NAME.json: the same counters as JSON; "%p" in NAME is
 * replaced by the process id (one file per process, e.g. per MPI rank). */
static void write_json(const char *name, const mp_stats *st, int pid)
{
	char path[4096];
	size_t o = 0;
	for (const char *p = name; *p && o + 16 < sizeof path; p++) {
		if (p[0] == '%' && p[1] == 'p') {
			o += (size_t)snprintf(path + o, sizeof path - o, "%d", pid);
			p++;
		} else {
			path[o++] = *p;
		}
	}
	path[o] = 0;
	FILE *f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "mixprec: cannot write %s\n", path);
		return;
	}
	fprintf(f, "{\"pid\": %d, \"fast\": %ld, \"fallback\": %ld, \"kernel\": \"%s\", \"nests\": [",
		pid, st->fast, st->fallback, kernel_text((int)st->last_kernel));
	for (int i = 0; i < mp_nnests; i++) {
		const mp_nest_stat *s = &mp_nests[i];
		fprintf(f, "%s\n  {\"loc\": ", i ? "," : "");
		json_string(f, s->loc);
		fprintf(f, ", \"calls\": %ld, \"kernels\": %ld, \"fallbacks\": {", s->calls, s->fast);
		const char *sep = "";
		for (int r = 1; r < MP_FB_COUNT; r++)
			if (s->fb[r]) {
				fprintf(f, "%s\"%s\": %ld", sep, mp_fb_names[r], s->fb[r]);
				sep = ", ";
			}
		fprintf(f, "}, \"kernel\": \"%s\", \"seconds\": %.9f}", kernel_text(s->kernel),
			s->seconds);
	}
	fprintf(f, "]}\n");
	fclose(f);
}

/* MIXPREC_STATS=1 in the environment: print the counters at exit (the
 * totals, then one line per nest), so that a user can see whether the
 * annotated loops ran on the kernels; MIXPREC_STATS=NAME.json: write them
 * to NAME.json instead. */
__attribute__((destructor)) static void mp_stats_atexit(void)
{
	const char *e = getenv("MIXPREC_STATS");
	if (!e || !*e || !strcmp(e, "0"))
		return;
	mp_stats s;
	mp_stats_get(&s);
	int pid = (int)getpid();
	size_t len = strlen(e);
	pthread_mutex_lock(&mp_nest_lock);
	if (len > 5 && !strcmp(e + len - 5, ".json")) {
		write_json(e, &s, pid);
		pthread_mutex_unlock(&mp_nest_lock);
		return;
	}
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
	fprintf(stderr, " pid=%d\n", pid);
	print_nests(stderr, pid);
	pthread_mutex_unlock(&mp_nest_lock);
}
