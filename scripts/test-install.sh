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
# mixprec-tune (docs/precision.md) installed and runnable
tune=$(find "$prefix" -name mixprec-tune -perm -u+x)
[ -n "$tune" ] || { echo "FAIL: mixprec-tune not installed"; exit 1; }
if command -v python3 >/dev/null; then
  "$tune" --help | grep -q "tol" || { echo "FAIL: mixprec-tune --help"; exit 1; }
fi

# The clang plugins, as the README tells clang users: clang_plugin with the
# default clang (the one the build used, MIXPREC_CLANG in the cache) and
# clang19_plugin with clang 19, each when it was built.
cache="$build/CMakeCache.txt"
clang_of() { sed -n "s/^$1:FILEPATH=//p" "$cache" 2>/dev/null | head -n 1; }
for pair in "clang_plugin MIXPREC_CLANG" "clang19_plugin MIXPREC_CLANG19"; do
  set -- $pair
  var=$1
  cplugin=$(pkg-config --variable="$var" mixprec)
  if [ -z "$cplugin" ]; then
    echo "$var: not built (skipped)"
    continue
  fi
  case "$cplugin" in "$prefix"/*) ;; *) echo "FAIL: $var=$cplugin is not under $prefix"; exit 1;; esac
  [ -f "$cplugin" ] || { echo "FAIL: $cplugin missing"; exit 1; }
  [ -f "$(dirname "$cplugin")/libmixprec-core.so" ] || { echo "FAIL: libmixprec-core.so not installed beside $cplugin"; exit 1; }
  clang=$(clang_of "$2")
  [ -n "$clang" ] && [ -x "$clang" ] || { echo "FAIL: no $2 in $cache for $var"; exit 1; }
  "$clang" -O2 -fplugin="$cplugin" -Rpass=mixprec $(pkg-config --cflags mixprec) \
      "$src/samples/gemm_ikj.c" -o "$prefix/fast-$var" $(pkg-config --libs mixprec) 2>"$prefix/remarks-$var" \
    || { echo "FAIL: $clang with $var"; cat "$prefix/remarks-$var"; exit 1; }
  grep -q "remark: mixprec" "$prefix/remarks-$var" || { echo "FAIL: no mixprec remark from $clang"; cat "$prefix/remarks-$var"; exit 1; }
  echo "$var ($clang):"
  sh "$src/scripts/compare-sample.sh" "$prefix/plain" "$prefix/fast-$var"
done
