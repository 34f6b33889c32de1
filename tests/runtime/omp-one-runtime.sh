#!/bin/sh
# omp-one-runtime.sh CC OPENMP_FLAG EXPECTED SRC INCDIR LIBDIR
# Builds omp_program.c with CC (OPENMP_FLAG: -fopenmp or "none") against
# libmixprec.so in LIBDIR and runs it with OMP_NUM_THREADS=2: a team
# outside the program's parallel region, none inside, one OpenMP runtime
# (EXPECTED: libgomp or libomp) in the process.  Exit 77 (skipped) when
# CC cannot build an OpenMP program (e.g. clang-19 without libomp-19-dev).
set -eu
cc=$1 flag=$2 want=$3 src=$4 inc=$5 lib=$6
[ "$flag" = none ] && flag=""
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# the sanitizer build preloads libasan (MP_RUN_PRELOAD) into the program,
# which loads the sanitized libmixprec, not into the compiler
run_preload=${MP_RUN_PRELOAD:-}
if ! $cc -O2 $flag -I"$inc" "$src" -o "$out/prog" -L"$lib" -Wl,-rpath,"$lib" -lmixprec \
     >"$out/log" 2>&1; then
  if [ -n "$flag" ] && ! echo 'int main(void){return 0;}' | $cc $flag -x c - -o "$out/t" 2>/dev/null; then
    echo "SKIP: $cc $flag cannot build an OpenMP program here"; exit 77
  fi
  cat "$out/log"; exit 1
fi
echo "ldd: $(ldd "$out/prog" | grep -E 'omp|mixprec' | tr -s ' \t' ' ' | tr '\n' ';')"
if [ -n "$run_preload" ]; then export LD_PRELOAD="$run_preload"; fi
OMP_NUM_THREADS=2 MIXPREC_THREADS= "$out/prog" "$want"
