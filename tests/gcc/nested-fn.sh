#!/bin/sh
# nested-fn.sh CC PLUGIN INCLUDE LIBDIR WORK -- tests/gcc/nested_fn.c built
# with and without the GCC plugin at -O0..-O3 (-fopenmp): it compiles (no
# internal compiler error), each of its three nests is refused with a
# warning, and the program prints the plain build's bytes.
set -eu
CC=$1 PLUGIN=$2 INC=$3 LIB=$4 WORK=$5
SRC=$(dirname "$0")/nested_fn.c
rm -rf "$WORK"
mkdir -p "$WORK"
"$CC" -O2 -fopenmp -I"$INC" "$SRC" -o "$WORK/plain"
"$WORK/plain" >"$WORK/plain.out"
for O in -O0 -O1 -O2 -O3; do
  "$CC" $O -fopenmp -fplugin="$PLUGIN" -I"$INC" "$SRC" -o "$WORK/plug$O" \
      -L"$LIB" -lmixprec -Wl,-rpath,"$LIB" 2>"$WORK/plug$O.err" ||
    { echo "FAIL: $O does not compile"; cat "$WORK/plug$O.err"; exit 1; }
  n=$(grep -c "loop nest not transformed" "$WORK/plug$O.err" || true)
  [ "$n" -eq 3 ] || { echo "FAIL: $O: $n refusals, expected 3"; cat "$WORK/plug$O.err"; exit 1; }
  "$WORK/plug$O" >"$WORK/plug$O.out"
  cmp "$WORK/plain.out" "$WORK/plug$O.out" ||
    { echo "FAIL: $O prints other bytes"; diff "$WORK/plain.out" "$WORK/plug$O.out" | head; exit 1; }
done
echo "PASS: 3 nests refused at -O0..-O3, outputs equal"
