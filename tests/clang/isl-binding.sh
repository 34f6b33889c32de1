#!/bin/sh
# isl-binding.sh CLANG PLUGIN INCLUDE -- the core inside clang runs against
# the ISL it was built with: while clang (whose libLLVM exports its own ISL)
# analyses a nest through the plugin, every isl_* symbol the core library
# uses must bind to libisl, none to libLLVM.
set -eu
clang=$1; plugin=$2; inc=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat > "$dir/t.c" <<'SRC'
#include <stdint.h>
void f(int M, int N, int K, const int8_t *a, const int8_t *b, int32_t *c)
{
#pragma mixprec(int8)
	for (int i = 0; i < M; i++)
		for (int k = 0; k < K; k++)
			for (int j = 0; j < N; j++)
				c[i * N + j] += a[i * K + k] * b[k * N + j];
}
SRC
LD_DEBUG=bindings LD_DEBUG_OUTPUT="$dir/ld" "$clang" -O2 -fplugin="$plugin" -Rpass=mixprec \
	-I"$inc" -c "$dir/t.c" -o "$dir/t.o" 2>"$dir/log"
grep -q "remark: mixprec" "$dir/log" || { echo "FAIL: the nest was not analysed and transformed"; cat "$dir/log"; exit 1; }
cat "$dir"/ld.* > "$dir/all"
core=$(grep "binding file .*libmixprec-core" "$dir/all" | grep "symbol \`isl_" || true)
[ -n "$core" ] || { echo "FAIL: no ISL binding of the core library seen"; exit 1; }
good=$(echo "$core" | grep -c "to .*libisl\.so" || true)
bad=$(echo "$core" | grep -v "to .*libisl\.so" || true)
if [ -n "$bad" ]; then
	echo "FAIL: ISL symbols of the core bound outside libisl:"; echo "$bad" | head; exit 1
fi
llvm_isl=$(grep -l "isl_ctx_alloc" "$dir"/ld.* >/dev/null 2>&1; nm -D --defined-only $(ldd "$(command -v "$clang")" | awk '/libLLVM/ {print $3}') 2>/dev/null | grep -c " isl_" || true)
echo "PASS: $good ISL bindings of libmixprec-core.so go to libisl (libLLVM exports $llvm_isl isl_* symbols of its own)"
