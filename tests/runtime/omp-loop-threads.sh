#!/bin/sh
# omp-loop-threads.sh CC PLUGIN OPENMP_FLAG SRC INCDIR LIBDIR
# Builds omp_loop_threads.c with CC and the plugin (a `#pragma omp parallel
# for num_threads(2)` nest under `#pragma mixprec`) and runs it with
# OMP_NUM_THREADS=1: the kernels must run on a team of 2 (the clause), and
# on none under the false if clause; under clang also with the OpenMP
# directive written first.  A tile-mode nest: the kernels with 2 OpenMP
# threads, the construct as written with 4.  Exit 77 when CC cannot build an
# OpenMP program.
set -eu
cc=$1 plugin=$2 flag=$3 src=$4 inc=$5 lib=$6
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
if ! echo 'int main(void){return 0;}' | $cc $flag -x c - -o "$out/t" 2>/dev/null; then
  echo "SKIP: $cc $flag cannot build an OpenMP program here"; exit 77
fi
$cc -O2 $flag -fplugin="$plugin" -I"$inc" "$src" -o "$out/prog" -L"$lib" -Wl,-rpath,"$lib" \
  -lmixprec >"$out/log" 2>&1 || { cat "$out/log"; exit 1; }
if grep -q "not transformed" "$out/log"; then cat "$out/log"; exit 1; fi
modes="two if0"
case $($cc --version 2>/dev/null | head -1) in *clang*) modes="$modes after" ;; esac
for mode in $modes; do
  OMP_NUM_THREADS=1 MIXPREC_THREADS= MIXPREC_STATS=1 "$out/prog" $mode >"$out/run" 2>&1 || {
    cat "$out/run"; exit 1; }
  stats=$(grep -o 'teams=[0-9]* max_team=[0-9]*' "$out/run" | head -1)
  echo "$mode: $(head -1 "$out/run"); $stats"
  case $mode in
    two|after) [ "$stats" = "teams=1 max_team=2" ] || { echo "FAIL: expected a team of 2"; exit 1; } ;;
    if0) [ "$stats" = "teams=0 max_team=0" ] || { echo "FAIL: expected no team"; exit 1; } ;;
  esac
done
# tile mode: on the kernels with a team of 2, the construct as written
# with 4 (the loops left would run on one thread)
for t in 2 4; do
  OMP_NUM_THREADS=$t MIXPREC_THREADS= MIXPREC_STATS=1 "$out/prog" relu >"$out/run" 2>&1 || {
    cat "$out/run"; exit 1; }
  line=$(grep '^fast=' "$out/run")
  echo "relu, OMP_NUM_THREADS=$t: $line"
  case $t in
    2) [ "$line" = "fast=1 fallback=0" ] || { echo "FAIL: expected the kernels"; exit 1; } ;;
    4) [ "$line" = "fast=0 fallback=1" ] || { echo "FAIL: expected the construct"; exit 1; }
       grep -q "omp_team=1" "$out/run" || { cat "$out/run"; echo "FAIL: no omp_team fallback"; exit 1; } ;;
  esac
done
echo PASS
