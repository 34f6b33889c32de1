#!/bin/sh
# small.sh SRC CC PLUGIN [CC PLUGIN]... -- small nests (runtime/nest.c),
# under GCC and each clang plugin given: small.c built with and without the
# plugin prints the same sums;
# - without MIXPREC_STATS the tiny calls never reach the runtime (the
#   inline guard before the call: its counters do not move);
# - under MIXPREC_STATS=1 (the guard off) the tiny calls of each nest ran
#   the original loop with the fallback reason `small` and the large call
#   ran on the kernels; the depthwise nest with a channel multiplier (one
#   call per image row, no vector kernel for it) ran the loop on every
#   call, fallback reason `slow_form`;
# - MIXPREC_SMALL=0 runs all on the kernels;
# - float matrix-vector products (no constant=): by the matrix's columns
#   at bf16 on the kernels where the CPU has AVX512-BF16; in double, or
#   over a matrix beyond 8 MiB read along its rows, the loop;
# - over a grid of 1000 shapes (extents 0 to 64; int8 and float operands
#   contiguous in k, int8 with B strided, float at bf16 and at int8), every
#   call the guard skips is one the runtime's model sends to the loop, with
#   MIXPREC_TARGET unset, avx2 and scalar (the float slots follow the family);
# - a float NCHW convolution, its rows copied before the kernels: the copy's
#   cost counted, a small call runs the loop (AVX512-BF16 CPUs), a large one
#   the kernels; results as the plain build's;
# - a 3x3 convolution with its padding written in the loop over 700 small
#   shapes: the guard's padded row (slot 20, with the copy's cost per row
#   of A) skips only calls the model sends to the loop, and at least 150 of
#   them; outputs as the plain build's;
# - MIXPREC_TARGET=avx2: 8x8x8 float calls at bf16 and int8 (the loop
#   estimated between the AVX-512 tables' least kernel cost and the avx2
#   family's) never reach the runtime; the model sends them to the loop.
# Needs RUNTIME (the path of libmixprec.so) in the environment.
src=$1
shift
. "$src/tests/adopt/common.sh"
cp "$src/tests/adopt/small.c" "$T/small.c"
cd "$T"
lib="-L$(dirname "$RUNTIME") -Wl,-rpath,$(dirname "$RUNTIME") -lmixprec -lm"
expect() {   # FILE REGEX WHAT
	grep -qE -- "$2" "$1" || { cat "$1"; fail "$3: no line matching '$2'"; }
}
pid='[0-9]+'
cc=$1
$cc -O2 -Wno-unknown-pragmas -I"$src/include" small.c -o plain $lib || fail "build without the plugin"
./plain 5 >want 2>/dev/null || fail "run the plain build"
./plain 1 mv >wantmv 2>/dev/null || fail "run the plain build (mv)"
./plain 1 conv >wantconv 2>/dev/null || fail "run the plain build (conv)"
./plain 1 pgrid 2>/dev/null | grep '^pgrid-hash' >wantpgrid || fail "run the plain build (pgrid)"
while [ $# -ge 2 ]; do
	cc=$1 plugin=$2
	shift 2
	echo "== $cc"
	$cc -O2 -fplugin="$plugin" -I"$src/include" small.c -o prog $lib || fail "$cc: build with the plugin"
	env -u MIXPREC_SMALL -u MIXPREC_STATS ./prog 5 >got 2>err || fail "$cc: run"
	cmp -s want got || fail "$cc: results differ: $(cat want) / $(cat got)"
	expect err "^tiny: fast=0 fallback=0$" "$cc: the inline guard skips the tiny calls"
	env -u MIXPREC_SMALL MIXPREC_STATS=1 ./prog 5 >got 2>err || fail "$cc: run (MIXPREC_STATS=1)"
	cmp -s want got || fail "$cc: results differ: $(cat want) / $(cat got)"
	expect err "^tiny: fast=0 fallback=10$" "$cc: MIXPREC_STATS=1: the tiny calls reach the runtime"
	expect err "^mixprec: pid=$pid nest .*small.c:19 calls=6 kernels=1 fallbacks=5 \(small=5\) kernel=[a-z0-9]+" "$cc: int8: tiny calls on the loop, the large one on the kernels"
	expect err "^mixprec: pid=$pid nest .*small.c:29 calls=6 kernels=1 fallbacks=5 \(small=5\) kernel=" "$cc: float: tiny calls on the loop, the large one on the kernels"
	expect err "^mixprec: pid=$pid nest .*small.c:275 calls=29 kernels=0 fallbacks=29 \(slow_form=29\)" "$cc: depthwise, multiplier 2: the loop"
	MIXPREC_SMALL=0 MIXPREC_STATS=1 ./prog 5 >got 2>err || fail "$cc: run (MIXPREC_SMALL=0)"
	cmp -s want got || fail "$cc: results differ (MIXPREC_SMALL=0): $(cat want) / $(cat got)"
	expect err "^tiny: fast=10 fallback=0$" "$cc: MIXPREC_SMALL=0: the tiny calls on the kernels"
	expect err "^mixprec: pid=$pid nest .*small.c:19 calls=6 kernels=6 fallbacks=0 kernel=" "$cc: MIXPREC_SMALL=0: int8 on the kernels"
	expect err "^mixprec: pid=$pid nest .*small.c:29 calls=6 kernels=6 fallbacks=0 kernel=" "$cc: MIXPREC_SMALL=0: float on the kernels"
	expect err "^mixprec: pid=$pid nest .*small.c:275 calls=29 kernels=29 fallbacks=0 kernel=" "$cc: MIXPREC_SMALL=0: depthwise on the kernels"
	for t in auto avx2 scalar; do
		if [ $t = auto ]; then
			env -u MIXPREC_SMALL -u MIXPREC_STATS -u MIXPREC_TARGET ./prog 1 grid >grid 2>/dev/null
		else
			env -u MIXPREC_SMALL -u MIXPREC_STATS MIXPREC_TARGET=$t ./prog 1 grid >grid 2>/dev/null
		fi || { cat grid; fail "$cc: target $t: the guard skipped a call the model would make"; }
		echo "target $t: $(cat grid)"
		expect grid "^grid: 1000 shapes, skipped int8 [1-9][0-9]* float [1-9][0-9]* strided [1-9][0-9]* float-int8 [1-9][0-9]*, 0 wrong$" "$cc: target $t: grid"
	done
	# float matrix-vector products: by the matrix's columns at bf16 on the
	# kernels where the CPU has AVX512-BF16 (vector packing of both
	# layouts), else the loop; double data, and a 9 MiB matrix the loop
	# streams along its rows: the loop
	env -u MIXPREC_SMALL -u MIXPREC_TARGET MIXPREC_STATS=1 ./prog 1 mv >got 2>err || fail "$cc: mv"
	cmp -s wantmv got || fail "$cc: mv: results differ: $(cat wantmv) / $(cat got)"
	if grep -q avx512_bf16 /proc/cpuinfo && grep -q avx512_vnni /proc/cpuinfo; then
		expect err "^mixprec: pid=$pid nest .*small.c:140 calls=1 kernels=1 fallbacks=0" "$cc: float matrix-vector by columns: the kernels"
	else
		expect err "^mixprec: pid=$pid nest .*small.c:140 calls=1 kernels=0 fallbacks=1 \(small=1\)" "$cc: float matrix-vector by columns, no AVX512-BF16: the loop"
	fi
	expect err "^mixprec: pid=$pid nest .*small.c:151 calls=1 kernels=0 fallbacks=1 \(small=1\)" "$cc: double matrix-vector: the loop"
	expect err "^mixprec: pid=$pid nest .*small.c:162 calls=1 kernels=0 fallbacks=1 \(small=1\)" "$cc: a 9 MiB matrix streamed along its rows: the loop"
	# a float NCHW convolution whose rows are copied before the kernels:
	# the copy's cost counted, the small call (8x12x12 to 1) runs the loop
	# where the CPU has the bf16 kernels whose tables the model reads;
	# 32x18x18 to 32 the kernels
	env -u MIXPREC_SMALL -u MIXPREC_TARGET MIXPREC_STATS=1 ./prog 1 conv >got 2>err || fail "$cc: conv"
	cmp -s wantconv got || fail "$cc: conv: results differ: $(cat wantconv) / $(cat got)"
	if grep -q avx512_bf16 /proc/cpuinfo && grep -q avx512_vnni /proc/cpuinfo; then
		expect err "^mixprec: pid=$pid nest .*small.c:370 calls=2 kernels=1 fallbacks=1 \(small=1\)" "$cc: NCHW convolution: the small call on the loop, the large one on the kernels"
	fi
	# the padded convolution (slot 20: the copy of the image with its
	# padding counted): a call the guard skips is one the model sends to
	# the loop; some are skipped, some run on the kernels; outputs as
	# the plain build's
	env -u MIXPREC_SMALL -u MIXPREC_STATS -u MIXPREC_TARGET ./prog 1 pgrid >pgrid 2>/dev/null ||
		{ cat pgrid; fail "$cc: padded: the guard skipped a call the model would make"; }
	cat pgrid
	# (at least 150 skipped: the guard counts the copy's cost per row
	# of A and, once the runtime has read the environment, the
	# constants of the family auto picks; 92 were without them)
	expect pgrid "^pgrid: 700 shapes, skipped (1[5-9][0-9]|[2-6][0-9][0-9]), kernels [1-9][0-9]*, 0 wrong$" "$cc: padded grid"
	grep '^pgrid-hash' pgrid | cmp -s - wantpgrid || fail "$cc: padded grid: outputs differ from the plain build's: $(grep '^pgrid-hash' pgrid) / $(cat wantpgrid)"
	env -u MIXPREC_SMALL -u MIXPREC_STATS ./prog 1 band >band 2>/dev/null || fail "$cc: band"
	cat band
	expect band "^band: bf16 guard 0 model 2, int8 guard 0 model 2$" "$cc: the avx2 family's float slots: calls the kernels cannot win are skipped"
done
echo "PASS"
