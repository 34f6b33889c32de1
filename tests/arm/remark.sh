#!/bin/sh
# remark.sh CC PLUGIN INCLUDE -- the remark of a nest compiled for aarch64
# names the aarch64 kernels (i8mm, dotprod; a float nest at bf16: bfmlal,
# neon), not x86's, and the pragma's target=i8mm is accepted.
set -eu
cc=$1 plugin=$2 inc=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/t.c" <<'C'
#include <stdint.h>
void f(int M, int N, int K, const int8_t *a, const int8_t *b, int32_t *c)
{
#pragma mixprec(int8, target=i8mm)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += a[i * K + k] * b[j * K + k];
			c[i * N + j] = s;
		}
}
void g(int M, int N, int K, const float *a, const float *b, float *c)
{
#pragma mixprec(bf16, acc=fp32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			float s = 0;
			for (int k = 0; k < K; k++)
				s += a[i * K + k] * b[k * N + j];
			c[i * N + j] = s;
		}
}
C
case "$cc" in
*clang*) flag=-Rpass=mixprec ;;
*) flag=-fopt-info-loop-optimized ;;
esac
# shellcheck disable=SC2086  # CC may carry --target=
$cc -O2 -fplugin="$plugin" $flag -I"$inc" -c "$work/t.c" -o "$work/t.o" 2> "$work/err"
cat "$work/err"
grep -q "i8mm 8x8 (K groups of 8, smmla/ummla/usmmla by operand types), dotprod 8x12" "$work/err" || { echo "FAIL: no aarch64 kernels in the remark"; exit 1; }
if grep -q "avx" "$work/err"; then echo "FAIL: the remark names x86 kernels"; exit 1; fi
grep -q "bf16/fp8 on bfmlal (bfmlalt/bfmlalb) or neon" "$work/err" || { echo "FAIL: no aarch64 bf16 kernels in the float nest's remark"; exit 1; }
grep -q "target=i8mm" "$work/err" || { echo "FAIL: target=i8mm not in the remark"; exit 1; }
echo "PASS"
