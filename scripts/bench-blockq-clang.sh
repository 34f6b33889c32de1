#!/bin/sh
# bench-blockq-clang.sh -- bench/bench_blockq with the loops built by clang
# (14 or 19) instead of GCC: bench/loop_blockq.c compiled twice, -O3
# -march=native -ffp-contract=off, without the plugin (suffix plain) and
# with the clang plugin (suffix mixprec), linked with bench_blockq.c and
# run (one thread unless OMP_NUM_THREADS says otherwise).  Not a test.
#
# Usage: scripts/bench-blockq-clang.sh [BUILD [CC [reps]]]
#   BUILD  the build folder (default build), CC clang or clang-19 (default
#   clang-19), reps as for bench_blockq (default 21)
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-build}" && pwd)
cc=${2:-clang-19}
reps=${3:-21}
case $cc in
clang-19) plugin=$build/plugin-clang/mixprec-clang19.so ;;
clang | clang-14) plugin=$build/plugin-clang/mixprec-clang.so ;;
*) echo "$0: CC is clang or clang-19" >&2; exit 2 ;;
esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags="-O3 -march=native -ffp-contract=off -I$src/include"
"$cc" $flags -DMP_SUFFIX=plain -Wno-unknown-pragmas -c "$src/bench/loop_blockq.c" -o "$work/p.o"
"$cc" $flags -DMP_SUFFIX=mixprec -fplugin="$plugin" -c "$src/bench/loop_blockq.c" -o "$work/m.o"
cc -O2 -I"$src/bench" "$src/bench/bench_blockq.c" "$work/p.o" "$work/m.o" \
	-L"$build/runtime" -lmixprec -Wl,-rpath,"$build/runtime" -o "$work/bench_blockq"
echo "loops built by $cc"
OMP_NUM_THREADS=${OMP_NUM_THREADS:-1} "$work/bench_blockq" "$reps"
