/* harness.c -- main() and helpers of the differential corpus (see harness.h).
 *
 * Always compiled without the plugin.  -DHARNESS_NO_RUNTIME builds it without
 * libmixprec (stats print as zero): only the driver's self-test does that.
 */
#include "harness.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef HARNESS_NO_RUNTIME
#include <mixprec.h>
#endif

static uint64_t harness_state;
static int harness_dump;

void harness_seed(uint64_t seed)
{
	harness_state = seed;
}

uint64_t harness_rand(void)
{
	uint64_t z = (harness_state += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

int32_t harness_randint(int32_t lo, int32_t hi)
{
	uint64_t span = (uint64_t)((int64_t)hi - lo) + 1;
	return (int32_t)(lo + (int64_t)(harness_rand() % span));
}

void harness_fill_s8(int8_t *p, size_t n)
{
	static const int8_t edge[] = { -128, 127, 0, -1, 1, -127 };
	for (size_t i = 0; i < n; i++) {
		uint64_t r = harness_rand();
		p[i] = (r & 3) == 0 ? edge[(r >> 8) % 6] : (int8_t)(uint8_t)(r >> 16);
	}
}

void harness_fill_u8(uint8_t *p, size_t n)
{
	static const uint8_t edge[] = { 0, 255, 1, 127, 128, 254 };
	for (size_t i = 0; i < n; i++) {
		uint64_t r = harness_rand();
		p[i] = (r & 3) == 0 ? edge[(r >> 8) % 6] : (uint8_t)(r >> 16);
	}
}

void harness_fill_s32(int32_t *p, size_t n, int32_t lo, int32_t hi)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t r = harness_rand();
		if ((r & 7) == 0) {
			int e = (int)((r >> 8) % 3);
			p[i] = e == 0 ? lo : e == 1 ? hi : (lo <= 0 && 0 <= hi ? 0 : lo);
		} else {
			p[i] = harness_randint(lo, hi);
		}
	}
}

void harness_fill_f32(float *p, size_t n, float lo, float hi)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t r = harness_rand();
		double u = (double)(r >> 11) * (1.0 / 9007199254740992.0);
		float v = (float)(lo + (hi - lo) * u);
		if ((r & 7) == 0) {
			int e = (int)((r >> 3) % 4);
			v = e == 0 ? lo : e == 1 ? hi : e == 2 ? 0.0f : (float)(int)v + 0.5f;
		}
		p[i] = v;
	}
}

void *harness_alloc(size_t bytes)
{
	size_t sz = (bytes + 63) / 64 * 64;
	if (sz == 0)
		sz = 64;
	void *p = aligned_alloc(64, sz);
	if (!p) {
		fprintf(stderr, "harness: out of memory (%zu bytes)\n", bytes);
		abort();
	}
	memset(p, 0xA5, sz);
	return p;
}

void harness_free(void *p)
{
	free(p);
}

static size_t guarded_total(size_t n, size_t *pg)
{
	*pg = (size_t)sysconf(_SC_PAGESIZE);
	return (n + *pg - 1) / *pg * *pg + *pg;
}

void *harness_alloc_guarded(size_t n)
{
	size_t pg, tot = guarded_total(n, &pg);
	char *p = mmap(NULL, tot, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED || mprotect(p + tot - pg, pg, PROT_NONE))
		abort();
	memset(p, 0xA5, tot - pg);
	return p + tot - pg - n;
}

void harness_free_guarded(void *p, size_t n)
{
	size_t pg, tot = guarded_total(n, &pg);

	if (p)
		munmap((char *)p + n + pg - tot, tot);
}

int8_t *harness_rand_s8(size_t n)
{
	int8_t *p = harness_alloc(n);
	harness_fill_s8(p, n);
	return p;
}

uint8_t *harness_rand_u8(size_t n)
{
	uint8_t *p = harness_alloc(n);
	harness_fill_u8(p, n);
	return p;
}

int32_t *harness_rand_s32(size_t n, int32_t lo, int32_t hi)
{
	int32_t *p = harness_alloc(n * sizeof *p);
	harness_fill_s32(p, n, lo, hi);
	return p;
}

float *harness_rand_f32(size_t n, float lo, float hi)
{
	float *p = harness_alloc(n * sizeof *p);
	harness_fill_f32(p, n, lo, hi);
	return p;
}

/* {M, N, K}; the last row is replaced by a random shape. */
static const int harness_shapes[][3] = {
	{ 1, 1, 1 },	{ 1, 17, 31 },	{ 17, 1, 33 },	{ 2, 3, 5 },
	{ 15, 16, 17 }, { 16, 16, 16 }, { 31, 32, 33 }, { 33, 31, 63 },
	{ 63, 64, 65 }, { 7, 65, 129 }, { 65, 7, 255 }, { 3, 5, 0 },
	{ 0, 4, 3 },	{ 0, 0, 0 },
};
#define HARNESS_NSHAPES ((int)(sizeof harness_shapes / sizeof harness_shapes[0]))
static int harness_random_shape[3];

int harness_nshapes(void)
{
	return HARNESS_NSHAPES;
}

void harness_shape(int idx, int allow_zero, int *M, int *N, int *K)
{
	const int *s = idx == HARNESS_NSHAPES - 1 ? harness_random_shape : harness_shapes[idx];
	*M = s[0];
	*N = s[1];
	*K = s[2];
	if (!allow_zero) {
		*M += *M == 0;
		*N += *N == 0;
		*K += *K == 0;
	}
}

static uint64_t harness_fnv1a(const unsigned char *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

void harness_out(const char *name, const void *p, size_t bytes)
{
	const unsigned char *b = p;
	printf("%s bytes=%zu fnv=%016llx head=", name, bytes,
	       (unsigned long long)harness_fnv1a(b, bytes));
	for (size_t i = 0; i < bytes && i < 16; i++)
		printf("%02x", b[i]);
	putchar('\n');
	if (harness_dump) {
		printf("  dump %s:", name);
		for (size_t i = 0; i < bytes; i++)
			printf("%s%02x", i % 32 ? "" : "\n  ", b[i]);
		putchar('\n');
	}
}

void harness_out_fault(const char *name, const void *p, size_t bytes)
{
	unsigned char *copy = harness_alloc(bytes);
	memcpy(copy, p, bytes);
	if (bytes)
		copy[bytes / 2] ^= 0x01;
	else
		name = "fault-injected-empty-output";
	harness_out(name, copy, bytes);
	harness_free(copy);
}

const char *harness_name(const char *fmt, ...)
{
	static char buf[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return buf;
}

void harness_out_long(const char *name, long v)
{
	printf("%s value=%ld\n", name, v);
}

int main(int argc, char **argv)
{
	uint64_t seed;
	const char *env = getenv("MIXPREC_SEED");
	if (argc > 1)
		seed = strtoull(argv[1], NULL, 10);
	else if (env && *env)
		seed = strtoull(env, NULL, 10);
	else
		seed = (uint64_t)time(NULL) ^ ((uint64_t)clock() << 32);
	fprintf(stderr, "MIXPREC_SEED=%llu\n", (unsigned long long)seed);
	env = getenv("MIXPREC_HARNESS_DUMP");
	harness_dump = env && *env && *env != '0';

	harness_seed(seed);
	harness_seed(harness_rand()); /* decorrelate small seeds */
	harness_random_shape[0] = harness_randint(1, 70);
	harness_random_shape[1] = harness_randint(1, 70);
	harness_random_shape[2] = harness_randint(1, 300);

	corpus_main();
	fflush(stdout);

	long fast = 0, fallback = 0;
#ifndef HARNESS_NO_RUNTIME
	mp_stats s;
	mp_stats_get(&s);
	fast = s.fast;
	fallback = s.fallback;
#endif
	fprintf(stderr, "MIXPREC_STATS fast=%ld fallback=%ld\n", fast, fallback);
	return 0;
}
