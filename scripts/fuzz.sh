#!/bin/sh
# fuzz.sh -- random differential testing of the mixprec plugins (issue 14):
# N fresh seeds (random base) through tests/fuzz/run.py on all cores: each
# generated program built with and without the plugin under GCC, clang 14
# and clang 19 at random -O levels and flags, run (also with
# MIXPREC_TARGET=scalar / avx2) and compared.  Findings are minimised and
# kept under tests/fuzz/findings/ (FINDINGS=dir to change) with the command
# that shows each one.
#
#   sh scripts/fuzz.sh N            N programs (default 100)
#   BUILD=dir JOBS=n SEED=s sh scripts/fuzz.sh N
#   Ctrl-C or SIGTERM stops a campaign early: the counts of the programs
#   it finished are printed all the same (exit status 130).
#   extra arguments after N go to run.py (e.g. --full, --compilers gcc,
#   --xforms-only: only steps, unrolled rows, batch loops, regions, OpenMP,
#   reductions unrolled along k, block-quantized group sums)
set -eu
cd "$(dirname "$0")/.."
N=${1:-100}
[ $# -gt 0 ] && shift
BUILD=${BUILD:-build}
JOBS=${JOBS:-$(nproc)}
FINDINGS=${FINDINGS:-tests/fuzz/findings}
if [ ! -f "$BUILD/runtime/libmixprec.so" ]; then
	echo "fuzz.sh: $BUILD is not built; run: cmake -S . -B $BUILD && cmake --build $BUILD" >&2
	exit 1
fi
set -- --seeds "$N" -j "$JOBS" --build "$BUILD" --findings "$FINDINGS" "$@"
if [ -n "${SEED:-}" ]; then
	set -- --seed-base "$SEED" "$@"
fi
exec python3 tests/fuzz/run.py "$@"
