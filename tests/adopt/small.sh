#!/bin/sh
# small.sh SRC CC GCC_PLUGIN -- the runtime's cost model for small nests
# (runtime/nest.c): small.c built with and without the plugin prints the
# same sums; under MIXPREC_STATS=1 the tiny calls of each nest ran the
# original loop with the fallback reason `small` and the large call ran on
# the kernels; the depthwise nest with a channel multiplier (line 80, one
# call per image row, no vector kernel for it) ran the loop on every call,
# fallback reason `slow_form`; MIXPREC_SMALL=0 runs all on the kernels.
# Needs RUNTIME (the path of libmixprec.so) in the environment.
src=$1 gcc=$2 gplugin=$3
. "$src/tests/adopt/common.sh"
cp "$src/tests/adopt/small.c" "$T/small.c"
cd "$T"
lib="-L$(dirname "$RUNTIME") -Wl,-rpath,$(dirname "$RUNTIME") -lmixprec -lm"
expect() {   # FILE REGEX WHAT
	grep -qE -- "$2" "$1" || { cat "$1"; fail "$3: no line matching '$2'"; }
}
$gcc -O2 -Wno-unknown-pragmas -I"$src/include" small.c -o plain $lib || fail "build without the plugin"
$gcc -O2 -fplugin="$gplugin" -I"$src/include" small.c -o prog $lib || fail "build with the plugin"
./plain 5 >want || fail "run the plain build"
env -u MIXPREC_SMALL MIXPREC_STATS=1 ./prog 5 >got 2>err || fail "run"
cmp -s want got || fail "results differ: $(cat want) / $(cat got)"
pid='[0-9]+'
expect err "^mixprec: pid=$pid nest .*small.c:18 calls=6 kernels=1 fallbacks=5 \(small=5\) kernel=[a-z0-9]+" "int8: tiny calls on the loop, the large one on the kernels"
expect err "^mixprec: pid=$pid nest .*small.c:28 calls=6 kernels=1 fallbacks=5 \(small=5\) kernel=" "float: tiny calls on the loop, the large one on the kernels"
expect err "^mixprec: pid=$pid nest .*small.c:80 calls=29 kernels=0 fallbacks=29 \(slow_form=29\)" "depthwise, multiplier 2: the loop"
MIXPREC_SMALL=0 MIXPREC_STATS=1 ./prog 5 >got 2>err || fail "run (MIXPREC_SMALL=0)"
cmp -s want got || fail "results differ (MIXPREC_SMALL=0): $(cat want) / $(cat got)"
expect err "^mixprec: pid=$pid nest .*small.c:18 calls=6 kernels=6 fallbacks=0 kernel=" "MIXPREC_SMALL=0: int8 on the kernels"
expect err "^mixprec: pid=$pid nest .*small.c:28 calls=6 kernels=6 fallbacks=0 kernel=" "MIXPREC_SMALL=0: float on the kernels"
expect err "^mixprec: pid=$pid nest .*small.c:80 calls=29 kernels=29 fallbacks=0 kernel=" "MIXPREC_SMALL=0: depthwise on the kernels"
echo "PASS"
