#!/bin/sh
# version-refusal.sh CLANG PLUGIN BUILT_MAJOR HOST_MAJOR -- a mixprec clang
# plugin built for clang BUILT_MAJOR, loaded into CLANG (major HOST_MAJOR),
# must stop the compilation with a clear error naming both versions and no
# crash.
set -u
cc=$1 plugin=$2 built=$3 host=$4
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
printf 'int f(void) { return 0; }\n' > "$dir/t.c"
"$cc" -fplugin="$plugin" -c "$dir/t.c" -o "$dir/t.o" >"$dir/out" 2>&1
rc=$?
cat "$dir/out"
[ "$rc" -ne 0 ] || { echo "FAIL: $cc accepted the plugin built for clang $built"; exit 1; }
[ "$rc" -lt 128 ] || { echo "FAIL: $cc crashed (status $rc)"; exit 1; }
want="error: mixprec: this plugin was built for clang $built and cannot be loaded by clang $host"
grep -qF "$want" "$dir/out" || { echo "FAIL: expected '$want'"; exit 1; }
grep -q "Stack dump\|Segmentation fault\|PLEASE submit" "$dir/out" && { echo "FAIL: crash"; exit 1; }
[ ! -e "$dir/t.o" ] || { echo "FAIL: an object was written"; exit 1; }
echo "PASS: clang $host refuses the plugin built for clang $built"
