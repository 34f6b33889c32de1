/* common.h -- timing and data helpers shared by the samples (not part of
 * the library).  Each sample is built twice, with and without the plugin,
 * and prints a checksum of its outputs plus the median time of its nest. */
#ifndef SAMPLES_COMMON_H
#define SAMPLES_COMMON_H
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t sample_rng = 0x9e3779b97f4a7c15ull;
static inline uint32_t sample_rand(void)
{
	uint64_t z = (sample_rng += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return (uint32_t)((z ^ (z >> 31)) >> 32);
}
static inline void fill_s8(int8_t *p, size_t n) { for (size_t i = 0; i < n; i++) p[i] = (int8_t)sample_rand(); }
static inline void fill_u8(uint8_t *p, size_t n) { for (size_t i = 0; i < n; i++) p[i] = (uint8_t)sample_rand(); }
static inline void fill_i32(int32_t *p, size_t n, int range) { for (size_t i = 0; i < n; i++) p[i] = (int32_t)(sample_rand() % (2u * range + 1)) - range; }

static inline uint64_t checksum(const void *p, size_t bytes)
{
	const unsigned char *b = p;
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < bytes; i++) h = (h ^ b[i]) * 1099511628211ull;
	return h;
}

static inline double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Median of REPS timings of EXPR, in seconds. */
#define SAMPLE_TIME(reps, expr) ({ \
	double t_[64]; int r_ = (reps) > 64 ? 64 : (reps); \
	for (int q_ = 0; q_ < r_; q_++) { double s_ = now_s(); expr; t_[q_] = now_s() - s_; } \
	qsort(t_, r_, sizeof t_[0], cmp_d); t_[r_ / 2]; })

#endif
