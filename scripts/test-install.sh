#!/bin/sh
# test-install.sh BUILD_DIR -- install the build into a fresh prefix and
# compile a sample exactly as the README tells users (pkg-config), then
# check that the plugin transformed it and that it agrees with the plain build.
set -eu
build=$1
src=$(cd "$(dirname "$0")/.." && pwd)
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
pc=$(find "$prefix" -name mixprec.pc)
[ -n "$pc" ] || { echo "FAIL: no mixprec.pc installed"; exit 1; }
export PKG_CONFIG_PATH=$(dirname "$pc")
plugin=$(pkg-config --variable=gcc_plugin mixprec)
case "$plugin" in "$prefix"/*) ;; *) echo "FAIL: gcc_plugin=$plugin is not under $prefix"; exit 1;; esac
[ -f "$plugin" ] || { echo "FAIL: $plugin missing"; exit 1; }
cc=${CC:-gcc}
$cc -O2 $(pkg-config --cflags mixprec) "$src/samples/gemm_ikj.c" -o "$prefix/plain" $(pkg-config --libs mixprec)
$cc -O2 -fplugin="$plugin" -fopt-info-loop-optimized $(pkg-config --cflags mixprec) \
    "$src/samples/gemm_ikj.c" -o "$prefix/fast" $(pkg-config --libs mixprec) 2>"$prefix/remarks"
grep -q "optimized: mixprec" "$prefix/remarks" || { echo "FAIL: no mixprec remark"; cat "$prefix/remarks"; exit 1; }
sh "$src/scripts/compare-sample.sh" "$prefix/plain" "$prefix/fast"
