/* scratch.c -- per-thread scratch buffers of the drivers (mp_runtime.h):
 * the packed blocks, correction vectors and tiles a call needs live in
 * buffers kept by each thread between calls, so that a call allocates
 * nothing once its thread has seen a call as large.  Each buffer only
 * grows; a thread's buffers are freed when it exits (the calling thread's
 * and the OpenMP team's alike). */
#include <pthread.h>
#include <stdlib.h>
#include "mp_runtime.h"

typedef struct mp_scr {
	void *p[MP_SCR_COUNT];
	size_t n[MP_SCR_COUNT];
	void *tile;   /* the last tile released (its header), or NULL */
} mp_scr;

static __thread mp_scr *mp_scr_tls;
static pthread_key_t mp_scr_key;
static pthread_once_t mp_scr_once = PTHREAD_ONCE_INIT;

static void mp_scr_free(void *v)
{
	mp_scr *s = v;
	for (int i = 0; i < MP_SCR_COUNT; i++)
		free(s->p[i]);
	free(s->tile);
	free(s);
}

static void mp_scr_init(void)
{
	pthread_key_create(&mp_scr_key, mp_scr_free);
}

/* The calling thread's buffers. */
static mp_scr *mp_scr_get(void)
{
	mp_scr *s = mp_scr_tls;
	if (!s) {
		pthread_once(&mp_scr_once, mp_scr_init);
		s = calloc(1, sizeof(*s));
		if (!s)
			abort();
		mp_scr_tls = s;
		pthread_setspecific(mp_scr_key, s);
	}
	return s;
}

/* See mp_runtime.h. */
void *mp_scratch(int slot, size_t bytes)
{
	mp_scr *s = mp_scr_tls;
	size_t need = (bytes + 63) / 64 * 64 + 64;
	if (s && s->n[slot] >= need)
		return s->p[slot];
	s = mp_scr_get();
	free(s->p[slot]);
	need = need < 4096 ? 4096 : need;
	s->p[slot] = aligned_alloc(64, need);
	if (!s->p[slot])
		abort();
	s->n[slot] = need;
	return s->p[slot];
}

/* Tiles carry their size in a 64-byte header before the data. */
#define MP_TILE_HDR 64

/* See mp_runtime.h. */
void *mp_tile_take(size_t bytes)
{
	mp_scr *s = mp_scr_tls;
	char *h = s ? s->tile : NULL;
	if (h && *(size_t *)(void *)h >= bytes) {
		s->tile = NULL;
		return h + MP_TILE_HDR;
	}
	bytes = (bytes + 63) / 64 * 64;
	h = aligned_alloc(64, bytes + MP_TILE_HDR);
	if (!h)
		return NULL;
	*(size_t *)(void *)h = bytes;
	return h + MP_TILE_HDR;
}

/* See mp_runtime.h. */
void mp_tile_give(void *tile)
{
	char *h = (char *)tile - MP_TILE_HDR;
	mp_scr *s = mp_scr_get();
	char *old = s->tile;
	if (old && *(size_t *)(void *)old >= *(size_t *)(void *)h) {
		free(h);
		return;
	}
	free(old);
	s->tile = h;
}
