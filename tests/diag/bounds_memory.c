/* bounds_memory.c -- a loop bound read from memory inside the nest (a
 * struct member) is read once before the nest, its bytes protected at run
 * time against the nest's stores: transformed, no diagnostic; a volatile
 * member cannot be read once: refused with a message that says so and how
 * to get the nest transformed (a local copy, as in the third function). */
#include <mixprec.h>

struct layer { int in, out; const float *w; };
struct vlayer { int in; volatile int out; const float *w; };

void bm_member(const struct layer *L, int M, const float *x, float *y)
{
#pragma mixprec(int8)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < L->out; j++) {
			float s = 0;
			for (int k = 0; k < 64; k++)
				s += x[i * 64 + k] * L->w[j * 64 + k];
			y[i * 64 + j] = s;
		}
}

void bm_volatile(const struct vlayer *L, int M, const float *x, float *y)
{
#pragma mixprec(int8)
	for (int i = 0; i < M; i++) // expected-warning {{not transformed}} expected-warning {{the bound of loop 'j' is read from memory (a struct member or an array element); copy it to a local variable before the nest}}
		for (int j = 0; j < L->out; j++) { // expected-note {{the reason is here}}
			float s = 0;
			for (int k = 0; k < 64; k++)
				s += x[i * 64 + k] * L->w[j * 64 + k];
			y[i * 64 + j] = s;
		}
}

void bm_local(const struct layer *L, int M, const float *x, float *y)
{
	const int N = L->out, K = L->in;
	const float *w = L->w;
#pragma mixprec(int8)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			float s = 0;
			for (int k = 0; k < K; k++)
				s += x[i * K + k] * w[j * K + k];
			y[i * N + j] = s;
		}
}
