#!/bin/sh
# test-preprocessed.sh PLUGIN INCLUDE_DIR -- `gcc -E` keeps the pragma (with
# macros inside it expanded), and compiling the preprocessed file, as ccache
# and -save-temps do, still transforms the nest.
set -eu
plugin=$1; inc=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat > "$dir/t.c" <<'SRC'
#include <stdint.h>
#define PREC int8
#define ACC acc=int32
void f(int M, int N, int K, const int8_t *a, const int8_t *b, int32_t *c)
{
#pragma mixprec(PREC, ACC)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += a[i * K + k] * b[k * N + j];
			c[i * N + j] = s;
		}
}
SRC
gcc -E -fplugin="$plugin" -I"$inc" "$dir/t.c" -o "$dir/t.i"
grep -q '^#pragma mixprec(int8, acc=int32)' "$dir/t.i" ||
	{ echo "FAIL: -E output lost the pragma or did not expand its macros:"; grep -n mixprec "$dir/t.i"; exit 1; }
gcc -O2 -fplugin="$plugin" -fopt-info-loop-optimized -c "$dir/t.i" -o "$dir/t.o" 2>"$dir/log"
grep -q "optimized: mixprec" "$dir/log" || { echo "FAIL: the preprocessed file was not transformed"; cat "$dir/log"; exit 1; }
gcc -O2 -save-temps=obj -fplugin="$plugin" -fopt-info-loop-optimized -c "$dir/t.c" -o "$dir/u.o" 2>"$dir/log2"
grep -q "optimized: mixprec" "$dir/log2" || { echo "FAIL: -save-temps build was not transformed"; cat "$dir/log2"; exit 1; }
echo "PASS: -E keeps the expanded pragma; .i and -save-temps builds transform"
