/* loop_attn.c -- attention scores per head as C inference code writes them
 * (scores[h][i][j] = q[h][i] . k[h][j], int8 operands, int32 scores), under
 * the mixprec pragma on the head loop: the head loop indexes the output,
 * so the contraction is its inner nest, one call per head.  Built twice:
 * without the plugin (suffix plain) and with it (suffix mixprec), both
 * -O3 -march=native. */
#include <stdint.h>

#ifndef MP_SUFFIX
#error "define MP_SUFFIX (plain or mixprec)"
#endif
#define MP_CAT2(a, b) a##b
#define MP_CAT(a, b) MP_CAT2(a, b)
#define F(name) MP_CAT(name, MP_SUFFIX)

void F(attn_scores_)(int n_heads, int seq, int head_size, const int8_t *q, const int8_t *k,
		     int32_t *att)
{
#pragma mixprec(int8, acc=int32)
	for (int h = 0; h < n_heads; h++) {
		for (int i = 0; i < seq; i++) {
			const int8_t *qi = q + (h * seq + i) * head_size;
			for (int t = 0; t < seq; t++) {
				const int8_t *kt = k + (h * seq + t) * head_size;
				int32_t score = 0;
				for (int d = 0; d < head_size; d++)
					score += qi[d] * kt[d];
				att[(h * seq + i) * seq + t] = score;
			}
		}
	}
}
