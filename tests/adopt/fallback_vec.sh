#!/bin/sh
# fallback_vec.sh SRC CC PLUGIN [CC PLUGIN]... -- the loop as written stays
# as fast in the plugin build (issue 10: "never slower").  fallback_vec.c's
# nests over fixed-size arrays are vectorized by GCC around the reduction
# loop at -O3 (outer-loop vectorization); in tile mode the plugin's
# fallback shares the nest with the tile read, and until the GCC glue
# split the two paths (plugin-gcc/split.cc) that test of the tile kept GCC
# from vectorizing the fallback: 7x slower than the plain build.
# For each compiler: every line the plain build reports vectorized is
# reported vectorized in the plugin build too, as many times (GCC
# -fopt-info-vec, clang -Rpass=loop-vectorize; a function without a
# pragma whose pointer is named mp_tile, as the GCC glue's temporaries
# are, keeps both vectorized copies of GCC's own unswitching), and the
# program prints the plain build's result on the kernels and with
# MIXPREC_DISABLE=1.
# Needs RUNTIME (the path of libmixprec.so) in the environment.
src=$1
shift
. "$src/tests/adopt/common.sh"
cp "$src/tests/adopt/fallback_vec.c" "$T/fv.c"
cd "$T"
lib="-L$(dirname "$RUNTIME") -Wl,-rpath,$(dirname "$RUNTIME") -lmixprec"
flags="-O3 -march=native -I$src/include"
vectorized() {   # REPORT -> the lines of fv.c, once per loop reported vectorized there
	grep -E 'fv\.c:[0-9]+:[0-9]+: (optimized: loop vectorized|remark: vectorized loop)' "$1" |
		sed -E 's/^fv\.c:([0-9]+):.*/\1/' | sort
}
while [ $# -ge 2 ]; do
	cc=$1 plugin=$2
	shift 2
	case $cc in
	*clang*) report=-Rpass=loop-vectorize ;;
	*) report=-fopt-info-vec-optimized ;;
	esac
	echo "== $cc"
	$cc $flags -Wno-unknown-pragmas $report fv.c -o plain 2>plain.rep || { cat plain.rep; fail "$cc: plain build"; }
	$cc $flags -fplugin="$plugin" $report fv.c -o prog $lib 2>prog.rep || { cat prog.rep; fail "$cc: plugin build"; }
	vectorized plain.rep >plain.vec
	vectorized prog.rep >prog.vec
	[ -s plain.vec ] || { cat plain.rep; fail "$cc: the plain build vectorized nothing (the test's premise)"; }
	missing=$(comm -23 plain.vec prog.vec | tr '\n' ' ')   # with their multiplicity
	[ -z "$missing" ] || { cat prog.rep; fail "$cc: lines vectorized in the plain build and not with the plugin: $missing"; }
	echo "vectorized lines, both builds: $(uniq -c plain.vec | awk '{printf "%s(x%s) ", $2, $1}')"
	./plain >want || fail "$cc: run the plain build"
	MIXPREC_SMALL=0 ./prog >got || fail "$cc: run on the kernels"
	env -u MIXPREC_SMALL MIXPREC_DISABLE=1 ./prog >got_loop || fail "$cc: run MIXPREC_DISABLE=1"
	cmp -s want got_loop || fail "$cc: the fallback differs: $(cat want) / $(cat got_loop)"
	# the kernels: exact for the int8 nest; the bf16 nests are within the
	# bound and, on these small integer-valued operands, exact too
	cmp -s want got || fail "$cc: the kernels differ: $(cat want) / $(cat got)"
done
echo "PASS"
