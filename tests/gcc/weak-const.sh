#!/bin/sh
# weak-const.sh CC PLUGIN INCLUDE LIBDIR WORK -- tests/gcc/weak_const.c
# linked with weak_const_def.c (which replaces its weak `const int U`),
# built at -O0 with and without the GCC plugin: the program prints the
# plain build's bytes (the plugin does not read the weak U as its
# initializer).  -O0 only: GCC itself folds a weak const when optimizing.
set -eu
CC=$1 PLUGIN=$2 INC=$3 LIB=$4 WORK=$5
D=$(dirname "$0")
rm -rf "$WORK"
mkdir -p "$WORK"
"$CC" -O0 -I"$INC" "$D/weak_const.c" "$D/weak_const_def.c" -o "$WORK/plain"
"$WORK/plain" >"$WORK/plain.out"
"$CC" -O0 -fplugin="$PLUGIN" -I"$INC" "$D/weak_const.c" "$D/weak_const_def.c" -o "$WORK/plug" \
    -L"$LIB" -lmixprec -Wl,-rpath,"$LIB" 2>"$WORK/plug.err" ||
  { echo "FAIL: does not compile"; cat "$WORK/plug.err"; exit 1; }
MIXPREC_SMALL=0 "$WORK/plug" >"$WORK/plug.out"
cmp "$WORK/plain.out" "$WORK/plug.out" ||
  { echo "FAIL: the plugin build prints other bytes"; cat "$WORK/plain.out" "$WORK/plug.out"; exit 1; }
echo "PASS: $(cat "$WORK/plain.out"), as the plain build"
