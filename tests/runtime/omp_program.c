/* omp_program.c -- a program of a user who already uses OpenMP (built by
 * omp-one-runtime.sh with gcc or clang, with or without -fopenmp, linked
 * to libmixprec.so):
 *   1. a large int8 contraction outside any parallel region runs on a team;
 *   2. the same contraction called by each thread of the program's own
 *      parallel region runs on the calling thread (no nested team) and
 *      gives the same bytes;
 *   3. one OpenMP runtime in the process (/proc/self/maps): the program's
 *      own (libomp under clang -fopenmp, libgomp under gcc -fopenmp), or
 *      libgomp, loaded by libmixprec, in a program without one; and it is
 *      the one libmixprec drives.
 * Prints one line per check; exit status 0 when all hold.  argv[1]: the
 * runtime expected (libgomp or libomp). */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include "mixprec.h"
/* (declared here: clang 19 with Debian's libomp-14-dev has no omp.h) */
int omp_get_thread_num(void);

/* libmixprec's counters (runtime/mp_par.h) */
void mp_par_stats(long *teams, long *max_team, const char **runtime);

#define M 384
#define N 320
#define K 512
#define NT 2

static int8_t a[M * K], b[K * N];
static int32_t c0[M * N], c1[NT][M * N];

static void gemm(int32_t *c)
{
	mp_gemm_x8(mp_kernel_select(), M, N, K, a, MP_DT_S8, K, 1, 0, b, MP_DT_S8, N, 1, 0, c, N, 1,
		   0);
}

/* How many distinct OpenMP runtime files are mapped; *which: the last. */
static int runtimes_mapped(char *which, size_t n)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4096], seen[8][512];
	int count = 0;
	if (!f)
		return -1;
	while (fgets(line, sizeof line, f)) {
		char *p = strchr(line, '/');
		if (!p)
			continue;
		p[strcspn(p, "\n")] = 0;
		const char *base = strrchr(p, '/') + 1;
		if (strncmp(base, "libgomp.so", 10) && strncmp(base, "libomp.so", 9) &&
		    strncmp(base, "libiomp5", 8))
			continue;
		int dup = 0;
		for (int i = 0; i < count; i++)
			dup |= !strcmp(seen[i], p);
		if (!dup && count < 8) {
			snprintf(seen[count++], sizeof seen[0], "%s", p);
			snprintf(which, n, "%s", p);
		}
	}
	fclose(f);
	return count;
}

int main(int argc, char **argv)
{
	const char *want = argc > 1 ? argv[1] : "libgomp";
	int ok = 1;
	long teams0, teams1, teams2, mt;
	const char *rt;
	for (long i = 0; i < M * K; i++)
		a[i] = (int8_t)(i * 7 + 3);
	for (long i = 0; i < K * N; i++)
		b[i] = (int8_t)(i * 13 + 5);

	mp_par_stats(&teams0, &mt, &rt);
	gemm(c0);
	mp_par_stats(&teams1, &mt, &rt);
	printf("outside a parallel region: %ld team(s) of up to %ld threads (%s)\n",
	       teams1 - teams0, mt, rt ? rt : "no OpenMP runtime");
	ok &= teams1 == teams0 + 1 && mt >= 2;

#if defined(_OPENMP)
#pragma omp parallel num_threads(NT)
	gemm(c1[omp_get_thread_num()]);
#else
	for (int t = 0; t < NT; t++)
		gemm(c1[t]);
#endif
	mp_par_stats(&teams2, &mt, &rt);
	int same = !memcmp(c1[0], c0, sizeof c0) && !memcmp(c1[1], c0, sizeof c0);
	printf("inside the program's parallel region: %ld new team(s), results %s\n",
	       teams2 - teams1, same ? "identical" : "DIFFER");
#if defined(_OPENMP)
	ok &= teams2 == teams1;
#endif
	ok &= same;

	char which[512] = "";
	int n = runtimes_mapped(which, sizeof which);
	printf("OpenMP runtimes mapped: %d (%s), expected one %s\n", n, which, want);
	/* the one libmixprec drives (dladdr's name may be a symbolic link) */
	char *real = rt ? realpath(rt, NULL) : NULL;
	ok &= n == 1 && strstr(which, want) != NULL && real && !strcmp(real, which);
	if (!real || strcmp(real, which))
		printf("libmixprec uses %s\n", real ? real : "none");
	free(real);
	printf("%s\n", ok ? "ok" : "FAILED");
	return !ok;
}
