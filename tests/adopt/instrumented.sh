#!/bin/sh
# instrumented.sh SRC CC PLUGIN [CC PLUGIN]... -- instrumentation added by
# the build (sanitizer checks, -finstrument-functions hooks) neither stops
# a nest from being transformed nor changes what it computes, under GCC and
# each clang plugin (instrumented.c).  A sanitizer whose run-time library
# this compiler lacks is skipped for it (said so).
# Needs RUNTIME (the path of libmixprec.so) in the environment.
src=$1
shift
. "$src/tests/adopt/common.sh"
cp "$src/tests/adopt/instrumented.c" "$T/in.c"
cd "$T"
lib="-L$(dirname "$RUNTIME") -Wl,-rpath,$(dirname "$RUNTIME") -lmixprec"
ran=0
while [ $# -ge 2 ]; do
	cc=$1 plugin=$2
	shift 2
	case $cc in
	*clang*) report=-Rpass=mixprec ;;
	*) report=-fopt-info-loop-optimized ;;
	esac
	for f in -fsanitize=shift -fsanitize=undefined -finstrument-functions; do
		if ! $cc -O2 $f -Wno-unknown-pragmas in.c -o plain 2>plain.rep; then
			echo "== $cc $f: skipped (the plain build does not link: $(head -c 120 plain.rep))"
			continue
		fi
		$cc -O2 $f -I"$src/include" -fplugin="$plugin" $report in.c -o prog $lib 2>prog.rep ||
			{ cat prog.rep; fail "$cc $f: plugin build"; }
		n=$(grep -c 'mixprec: int8' prog.rep || true)
		[ "$n" = 3 ] || { cat prog.rep; fail "$cc $f: $n nests transformed, 3 expected"; }
		./plain >want || fail "$cc $f: run the plain build"
		MIXPREC_SMALL=0 MIXPREC_STATS=1 ./prog >got 2>stats || fail "$cc $f: run on the kernels"
		grep -q 'fast=[1-9]' stats || { cat stats; fail "$cc $f: no call ran on the kernels"; }
		cmp -s want got || fail "$cc $f: the kernels differ: $(cat want) / $(cat got)"
		case $f in
		-fsanitize=*)
			./plain 40 >/dev/null 2>plain.err || true
			MIXPREC_SMALL=0 ./prog 40 >/dev/null 2>prog.err || true
			a=$(grep -c 'runtime error' plain.err || true)
			b=$(grep -c 'runtime error' prog.err || true)
			[ "$a" -gt 0 ] && [ "$a" = "$b" ] ||
				fail "$cc $f: shift by 40 reported $a times in the plain build, $b with the plugin"
			;;
		esac
		echo "== $cc $f: 3 nests transformed, same result ($(cat want))"
		ran=$((ran + 1))
	done
done
[ "$ran" -gt 0 ] || fail "no build ran"
echo "PASS ($ran builds)"
