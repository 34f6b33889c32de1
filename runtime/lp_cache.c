/* lp_cache.c -- operands of mp_gemm_lp_ex declared constant across calls
 * (MP_LP_CONST_A / MP_LP_CONST_B): their quantized, packed form and their
 * scales, kept between calls so that a later call with the same operand
 * neither scans nor packs it (a dense layer's weights, quantized once).
 *
 * One process-wide table: a hash of the key (lp.h, mp_lp_key) into
 * buckets, an LRU list, a byte count bounded by MIXPREC_CACHE_MB
 * (environment, default 256; 0 disables the cache).  One mutex guards the
 * table; the entries themselves are immutable once shared, and a call
 * holds a reference on the entry it uses, so that eviction or mp_lp_forget
 * only unlink it: the last reference frees it.
 *
 * A miss builds a private entry (the call's scales, then the driver packs
 * the whole operand into it, in its block order) and shares it after the
 * call; two threads that miss on the same key at once both pack, and the
 * second one's entry is dropped, as is a miss that overlapped an
 * mp_lp_forget (the operand may have changed while it was read).  An
 * entry above the limit is never built (mp_lp_packed_commit refuses, the
 * driver packs as usual).  Everything is freed at exit. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "lp.h"

#define MP_LPC_BUCKETS 1024
#define MP_LPC_DEFAULT_MB 256

typedef struct mp_lpc_ent mp_lpc_ent;
struct mp_lpc_ent {
	mp_lp_packed pk;       /* first: the drivers' view */
	mp_lp_key key;         /* key.e points at ekey (own copy) */
	float *ekey;
	uint64_t hash;
	size_t bytes;          /* everything malloc'd for it */
	long refs;
	int linked;            /* in the table (and counted in mp_lpc_bytes) */
	int fresh;             /* built by a miss, not yet offered to the table */
	unsigned long epoch;   /* mp_lpc_epoch when its miss was looked up */
	mp_lpc_ent *hnext;     /* bucket chain */
	mp_lpc_ent *prev, *next; /* LRU list, most recent first */
};

static pthread_mutex_t mp_lpc_lock = PTHREAD_MUTEX_INITIALIZER;
static mp_lpc_ent *mp_lpc_tab[MP_LPC_BUCKETS];
static mp_lpc_ent *mp_lpc_head, *mp_lpc_tail;
static size_t mp_lpc_bytes;
static long mp_lpc_count, mp_lpc_hits, mp_lpc_misses, mp_lpc_stale;
static long long mp_lpc_limit = -1; /* bytes; -1: not read yet */
/* Counts the mp_lp_forget calls: a miss whose packing overlapped one (the
 * operand may have changed while it was read) is not shared. */
static unsigned long mp_lpc_epoch;

/* MIXPREC_CACHE_MB: a non-negative number of megabytes (fractions allowed,
 * for tests); anything else keeps the default.  Called with the lock. */
static long long mp_lpc_limit_locked(void)
{
	if (mp_lpc_limit < 0) {
		const char *s = getenv("MIXPREC_CACHE_MB");
		double mb = MP_LPC_DEFAULT_MB;
		if (s && *s) {
			char *end;
			double v = strtod(s, &end);
			if (*end == 0 && v >= 0 && v <= 1e9)
				mb = v;
		}
		mp_lpc_limit = (long long)(mb * 1048576.0);
	}
	return mp_lpc_limit;
}

static long long mp_lpc_limit_get(void)
{
	pthread_mutex_lock(&mp_lpc_lock);
	long long l = mp_lpc_limit_locked();
	pthread_mutex_unlock(&mp_lpc_lock);
	return l;
}

static uint64_t mp_lpc_mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h * 0xbf58476d1ce4e5b9ull;
}

/* The explicit values are not hashed (O(n)): they are compared on a match
 * of everything else. */
static uint64_t mp_lpc_hash(const mp_lp_key *k)
{
	uint64_t h = 0x243f6a8885a308d3ull;
	h = mp_lpc_mix(h, (uint64_t)k->side | (uint64_t)k->impl << 8 | (uint64_t)k->lp << 16 |
			  (uint64_t)k->dbl << 24 | (uint64_t)k->dyn << 32);
	h = mp_lpc_mix(h, (uint64_t)(uintptr_t)k->p);
	h = mp_lpc_mix(h, (uint64_t)k->n);
	h = mp_lpc_mix(h, (uint64_t)k->K);
	h = mp_lpc_mix(h, (uint64_t)k->s_n);
	h = mp_lpc_mix(h, (uint64_t)k->s_k);
	h = mp_lpc_mix(h, mp_f64_bits(k->z));
	h = mp_lpc_mix(h, (uint64_t)(uintptr_t)k->x8_family);
	h = mp_lpc_mix(h, k->x8_aux);
	return h ^ (h >> 29);
}

/* Same key.  The explicit scales and the offset compare by their bits:
 * the same bits quantize alike (and offsets -0 and +0 do not: x - -0 turns
 * a -0 into +0). */
static int mp_lpc_same(const mp_lpc_ent *e, const mp_lp_key *k, uint64_t h)
{
	const mp_lp_key *q = &e->key;
	if (e->hash != h || q->side != k->side || q->impl != k->impl || q->lp != k->lp ||
	    q->dbl != k->dbl || q->dyn != k->dyn || q->p != k->p || q->n != k->n || q->K != k->K ||
	    q->s_n != k->s_n || q->s_k != k->s_k || mp_f64_bits(q->z) != mp_f64_bits(k->z) ||
	    q->x8_family != k->x8_family || q->x8_aux != k->x8_aux)
		return 0;
	if (!k->dyn)
		for (long r = 0; r < k->n; r++)
			if (mp_f32_bits(q->e[r]) != mp_f32_bits(k->e[r * k->es]))
				return 0;
	return 1;
}

static void mp_lpc_free(mp_lpc_ent *e)
{
	free(e->pk.ff);
	free(e->pk.fd);
	free(e->pk.d);
	free(e->pk.za);
	free(e->pk.off);
	free(e->pk.coff);
	free(e->pk.data);
	free(e->pk.corr);
	free(e->ekey);
	free(e);
}

/* Out of the table (the lock held); freed now unless a call still uses
 * it (then by its mp_lp_cache_done). */
static void mp_lpc_unlink(mp_lpc_ent *e)
{
	mp_lpc_ent **pp = &mp_lpc_tab[e->hash % MP_LPC_BUCKETS];
	while (*pp != e)
		pp = &(*pp)->hnext;
	*pp = e->hnext;
	if (e->prev)
		e->prev->next = e->next;
	else
		mp_lpc_head = e->next;
	if (e->next)
		e->next->prev = e->prev;
	else
		mp_lpc_tail = e->prev;
	e->linked = 0;
	mp_lpc_bytes -= e->bytes;
	mp_lpc_count--;
	if (e->refs == 0)
		mp_lpc_free(e);
}

/* Least recently used first, down to the limit (the lock held). */
static void mp_lpc_evict_locked(void)
{
	long long lim = mp_lpc_limit_locked();
	while (mp_lpc_tail && (long long)mp_lpc_bytes > lim)
		mp_lpc_unlink(mp_lpc_tail);
}

static void mp_lpc_to_front(mp_lpc_ent *e)
{
	if (mp_lpc_head == e)
		return;
	e->prev->next = e->next;
	if (e->next)
		e->next->prev = e->prev;
	else
		mp_lpc_tail = e->prev;
	e->prev = NULL;
	e->next = mp_lpc_head;
	mp_lpc_head->prev = e;
	mp_lpc_head = e;
}

/* See lp.h. */
mp_lp_packed *mp_lp_cache_get(const mp_lp_key *k, unsigned long *epoch)
{
	uint64_t h = mp_lpc_hash(k);
	mp_lpc_ent *e;
	pthread_mutex_lock(&mp_lpc_lock);
	*epoch = mp_lpc_epoch;
	if (mp_lpc_limit_locked() == 0) {
		pthread_mutex_unlock(&mp_lpc_lock);
		return NULL;
	}
	for (e = mp_lpc_tab[h % MP_LPC_BUCKETS]; e; e = e->hnext)
		if (mp_lpc_same(e, k, h))
			break;
	if (e && e->key.fp != k->fp) {
		/* same operand, other contents (the sample differs): the
		   promise was broken, e.g. a new array at a freed one's
		   address; never use it again */
		mp_lpc_unlink(e);
		mp_lpc_stale++;
		e = NULL;
	}
	if (e) {
		e->refs++;
		mp_lpc_to_front(e);
		mp_lpc_hits++;
	} else {
		mp_lpc_misses++;
	}
	pthread_mutex_unlock(&mp_lpc_lock);
	return e ? &e->pk : NULL;
}

static void *mp_lpc_dup(const void *p, size_t n)
{
	if (!p)   /* an 8-bit operand's entry: no scales */
		return NULL;
	void *q = malloc(n ? n : 1);
	if (!q)
		abort();
	if (n)
		memcpy(q, p, n);
	return q;
}

/* See lp.h. */
mp_lp_packed *mp_lp_cache_new(const mp_lp_key *k, unsigned long epoch, const float *ff,
			      const double *fd, const double *d, const int32_t *za, double hat)
{
	if (mp_lpc_limit_get() == 0)
		return NULL;
	mp_lpc_ent *e = calloc(1, sizeof(*e));
	if (!e)
		abort();
	const size_t n = (size_t)k->n;
	e->key = *k;
	if (!k->dyn) {
		e->ekey = malloc(sizeof(float) * (n ? n : 1));
		if (!e->ekey)
			abort();
		for (size_t r = 0; r < n; r++)
			e->ekey[r] = k->e[(ptrdiff_t)r * k->es];
		e->key.es = 1;
	}
	e->key.e = e->ekey;
	e->hash = mp_lpc_hash(k);
	e->pk.ff = mp_lpc_dup(ff, sizeof(float) * n);
	e->pk.fd = mp_lpc_dup(fd, sizeof(double) * n);
	e->pk.d = mp_lpc_dup(d, sizeof(double) * n);
	e->pk.za = za ? mp_lpc_dup(za, sizeof(int32_t) * n) : NULL;
	e->pk.hat = hat;
	e->bytes = sizeof(*e) + n * (sizeof(float) * 2 + sizeof(double) * 2 +
				     (za ? sizeof(int32_t) : 0));
	e->refs = 1;
	e->fresh = 1;
	e->epoch = epoch;
	return &e->pk;
}

/* See lp.h. */
void mp_lp_packed_reserve(mp_lp_packed *pk, long nblk)
{
	pk->nblk = nblk;
	pk->off = calloc((size_t)nblk + 1, sizeof(size_t));
	pk->coff = calloc((size_t)nblk + 1, sizeof(size_t));
	if (!pk->off || !pk->coff)
		abort();
}

/* See lp.h.  Blocks start on 64 bytes, like the drivers' own buffers. */
void mp_lp_packed_add(mp_lp_packed *pk, long b, size_t bytes, size_t ncorr)
{
	pk->off[b + 1] = pk->off[b] + (bytes + 63) / 64 * 64;
	pk->coff[b + 1] = pk->coff[b] + ncorr;
}

/* See lp.h. */
int mp_lp_packed_commit(mp_lp_packed *pk)
{
	mp_lpc_ent *e = (mp_lpc_ent *)pk;
	size_t nb = pk->off[pk->nblk], nc = pk->coff[pk->nblk];
	size_t total = e->bytes + nb + 64 + nc * sizeof(int32_t) +
		       2 * ((size_t)pk->nblk + 1) * sizeof(size_t);
	if ((long long)total > mp_lpc_limit_get())
		return -1;
	pk->data = aligned_alloc(64, nb + 64);
	pk->corr = malloc(nc * sizeof(int32_t) + sizeof(int32_t));
	if (!pk->data || !pk->corr)
		abort();
	e->bytes = total;
	return 0;
}

/* See lp.h. */
void mp_lp_cache_done(mp_lp_packed *pk)
{
	if (!pk)
		return;
	mp_lpc_ent *e = (mp_lpc_ent *)pk;
	pthread_mutex_lock(&mp_lpc_lock);
	if (e->fresh && pk->ready && e->epoch == mp_lpc_epoch &&
	    (long long)e->bytes <= mp_lpc_limit_locked()) {
		mp_lpc_ent *q, **b = &mp_lpc_tab[e->hash % MP_LPC_BUCKETS];
		for (q = *b; q; q = q->hnext)
			if (mp_lpc_same(q, &e->key, e->hash))
				break;
		if (!q) {
			e->hnext = *b;
			*b = e;
			e->prev = NULL;
			e->next = mp_lpc_head;
			if (mp_lpc_head)
				mp_lpc_head->prev = e;
			mp_lpc_head = e;
			if (!mp_lpc_tail)
				mp_lpc_tail = e;
			e->linked = 1;
			mp_lpc_bytes += e->bytes;
			mp_lpc_count++;
			/* e fits and is the most recent: the others go first
			 * (and our reference would keep it alive anyway) */
			mp_lpc_evict_locked();
		}
	}
	e->fresh = 0;
	e->refs--;
	if (e->refs == 0 && !e->linked)
		mp_lpc_free(e);
	pthread_mutex_unlock(&mp_lpc_lock);
}

/* See mixprec.h. */
void mp_lp_forget(const void *p)
{
	pthread_mutex_lock(&mp_lpc_lock);
	mp_lpc_epoch++;
	for (mp_lpc_ent *e = mp_lpc_head, *nx; e; e = nx) {
		nx = e->next;
		if (!p || e->key.p == p)
			mp_lpc_unlink(e);
	}
	pthread_mutex_unlock(&mp_lpc_lock);
}

/* See lp.h. */
void mp_lp_cache_set_limit(long long bytes)
{
	pthread_mutex_lock(&mp_lpc_lock);
	mp_lpc_limit = bytes < 0 ? -1 : bytes;
	mp_lpc_evict_locked();
	pthread_mutex_unlock(&mp_lpc_lock);
}

/* See lp.h. */
void mp_lp_cache_stats_get(mp_lp_cache_stats *s)
{
	pthread_mutex_lock(&mp_lpc_lock);
	s->hits = mp_lpc_hits;
	s->misses = mp_lpc_misses;
	s->stale = mp_lpc_stale;
	s->entries = mp_lpc_count;
	s->bytes = mp_lpc_bytes;
	pthread_mutex_unlock(&mp_lpc_lock);
}

/* At exit: everything not in use (a thread still inside a call keeps its
 * entry), so that leak checkers see no lost block. */
__attribute__((destructor)) static void mp_lpc_fini(void)
{
	mp_lp_forget(NULL);
}
