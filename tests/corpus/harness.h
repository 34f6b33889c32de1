/* harness.h -- the test harness of the end-to-end differential corpus.
 *
 * Every tests/corpus/NAME.c includes this header and <mixprec.h>, defines
 * its annotated kernels and `void corpus_main(void)`.  harness.c (always
 * compiled WITHOUT the plugin) owns main(): it seeds the generator from
 * argv[1], $MIXPREC_SEED or the clock, prints the seed to stderr, calls
 * corpus_main(), then prints "MIXPREC_STATS fast=<n> fallback=<n>" to
 * stderr.  tests/run_corpus.py builds each corpus file with and without the
 * plugin, runs both on the same seed and compares stdout byte for byte.
 *
 * Everything printed to stdout must depend on the seed only: random data,
 * random shapes and the outputs (harness_out), never addresses or time.
 */
#ifndef MIXPREC_HARNESS_H
#define MIXPREC_HARNESS_H

#include <stddef.h>
#include <stdint.h>

/* ------------------------------------------------------------ generator */

/* splitmix64; one process-wide state, seeded by main(). */
void harness_seed(uint64_t seed);
uint64_t harness_rand(void);
/* Uniform in [lo, hi] (inclusive). */
int32_t harness_randint(int32_t lo, int32_t hi);

/* ---------------------------------------------------------------- fills */

/* Random values over the whole type range; about one element in four is an
 * extreme or a small edge value (-128, 127, 0, -1, 1 / 0, 255, 1, 127, 128). */
void harness_fill_s8(int8_t *p, size_t n);
void harness_fill_u8(uint8_t *p, size_t n);
/* Uniform in [lo, hi]; about one in eight is lo, hi or 0 (when inside). */
void harness_fill_s32(int32_t *p, size_t n, int32_t lo, int32_t hi);
/* Uniform in [lo, hi); about one in eight is lo, hi, 0 or a tie x.5 value. */
void harness_fill_f32(float *p, size_t n, float lo, float hi);

/* ----------------------------------------------------------- allocation */

/* 64-byte aligned, at least 64 bytes even for n == 0, filled with a fixed
 * junk pattern (0xA5) so that unwritten bytes are deterministic.  Never
 * returns NULL (aborts). */
void *harness_alloc(size_t bytes);
void harness_free(void *p);
/* N bytes that end where a page the process may not read starts (a read
 * past the end dies of SIGSEGV; the start is not aligned); free with
 * harness_free_guarded.  Never returns NULL (aborts). */
void *harness_alloc_guarded(size_t n);
void harness_free_guarded(void *p, size_t n);
/* Allocate and fill in one call (free with harness_free). */
int8_t *harness_rand_s8(size_t n);
uint8_t *harness_rand_u8(size_t n);
int32_t *harness_rand_s32(size_t n, int32_t lo, int32_t hi);
float *harness_rand_f32(size_t n, float lo, float hi);

/* --------------------------------------------------------------- shapes */

/* Awkward shapes: 1, primes, 15/16/17, 31/32/33, 63/64/65, plus one random
 * shape per run (from the seed).  Shapes with a zero extent come only when
 * allow_zero is set (VLA parameters need positive sizes). */
int harness_nshapes(void);
void harness_shape(int idx, int allow_zero, int *M, int *N, int *K);

/* ---------------------------------------------------------------- output */

/* Print "name bytes=<n> fnv=<16 hex> head=<first 16 bytes in hex>" to
 * stdout.  With MIXPREC_HARNESS_DUMP=1 in the environment, also print every
 * byte (the driver does this to locate the first difference). */
void harness_out(const char *name, const void *p, size_t bytes);
/* Same output with one byte flipped (fault injection, self-test only). */
void harness_out_fault(const char *name, const void *p, size_t bytes);
/* printf into a static buffer, for names: harness_name("ijk %dx%dx%d", M, N, K).
 * The buffer is reused by the next call. */
const char *harness_name(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* harness_out of n elements of *p. */
#define harness_out_array(name, p, n) harness_out((name), (p), (size_t)(n) * sizeof *(p))
/* Output a scalar (iterator or accumulator live after a nest). */
void harness_out_long(const char *name, long v);

/* Under -DMIXPREC_FAULT every output of the corpus file is corrupted: the
 * driver's self-test builds a file with it to prove a difference is caught. */
#ifdef MIXPREC_FAULT
#define harness_out harness_out_fault
#endif

/* Defined by each corpus file. */
void corpus_main(void);

#endif
