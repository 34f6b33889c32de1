#!/bin/sh
# remarks.sh SRC VERSION GCC GCC_PLUGIN [CLANG CLANG_PLUGIN]... -- what the
# plugins tell about remarks.c (nest at line 13 transformed, line 22 refused):
# GCC: every combination of -fopt-info options users type gives both the
#   optimized and the missed remarks (and a group other than loop none of
#   mixprec's); -fopt-info-...=FILE; a remark's first line stays short;
# clang: -Rpass=mixprec / -Rpass-missed=mixprec / -Rpass-analysis=mixprec
#   each show their own remarks only; -fsave-optimization-record holds
#   !Passed, !Missed and !Analysis entries of pass mixprec (parsed by
#   llvm-remarkutil when installed);
# both: __MIXPREC__ == VERSION; -fplugin-arg-mixprec-dump=FILE writes FILE
#   and nothing to stderr;
# run time (GCC build): MIXPREC_STATS=1 prints the totals with the pid and
#   one line per nest (file:line, calls, kernels, fallbacks by reason,
#   kernel, time); MIXPREC_STATS=NAME-%p.json writes the same as JSON.
src=$1 version=$2
shift 2
. "$src/tests/adopt/common.sh"
cp "$src/tests/adopt/remarks.c" "$T/remarks.c"
cd "$T"
inc="-I$src/include"

expect() {   # FILE REGEX WHAT
	grep -qE -- "$2" "$1" || { cat "$1"; fail "$3: no line matching '$2'"; }
}
refuse() {
	grep -qE -- "$2" "$1" && { cat "$1"; fail "$3: unexpected '$2'"; }
	return 0
}
OPT='remarks.c:13:[0-9]+: optimized: mixprec'
MISS='remarks.c:22:[0-9]+: missed: mixprec: loop nest not transformed'

gcc_checks() {
	cc=$1 p="-fplugin=$2"
	for flags in "-fopt-info-loop-optimized -fopt-info-loop-missed" \
		     "-fopt-info-loop-missed -fopt-info-loop-optimized" \
		     "-fopt-info-loop-all" "-fopt-info-optimized -fopt-info-missed" \
		     "-fopt-info-missed -fopt-info-loop-optimized-note"; do
		$cc -O2 $p $inc $flags -c remarks.c -o r.o 2>err || { cat err; fail "$cc $flags"; }
		expect err "$OPT" "$flags"
		expect err "$MISS" "$flags"
	done
	$cc -O2 $p $inc -fopt-info-loop-optimized -c remarks.c -o r.o 2>err
	expect err "$OPT" "-fopt-info-loop-optimized alone"
	refuse err "missed: mixprec" "-fopt-info-loop-optimized alone"
	$cc -O2 $p $inc -fopt-info-vec-missed -fopt-info-loop-optimized -c remarks.c -o r.o 2>err
	expect err "$OPT" "-fopt-info-vec-missed -fopt-info-loop-optimized"
	refuse err "missed: mixprec" "-fopt-info-vec-missed -fopt-info-loop-optimized (vec only)"
	rm -f oi.txt
	$cc -O2 $p $inc -fopt-info-loop-optimized=oi.txt -fopt-info-loop-missed=oi.txt -c remarks.c -o r.o 2>err
	expect oi.txt "$OPT" "=FILE"
	expect oi.txt "$MISS" "=FILE"
	# a remark's first line: short (the details follow on the next lines)
	$cc -O2 $p $inc -fopt-info-loop-optimized "$src/docs/examples/layer.c" -c -o l.o 2>err
	long=$(sed -n 's/^[^ ]*: optimized: //p' err | awk 'length > 200')
	[ -z "$long" ] || fail "a remark's first line is longer than 200 characters: $long"
	# __MIXPREC__, also under -E
	$cc $p -E -dM -x c /dev/null | grep -qx "#define __MIXPREC__ $version" || fail "$cc: __MIXPREC__ != $version under -E"
	$cc -E -dM -x c /dev/null | grep -q __MIXPREC__ && fail "__MIXPREC__ without the plugin"
	# the dump file
	$cc -O2 $p -fplugin-arg-mixprec-dump=dump.txt $inc -c remarks.c -o r.o 2>err
	expect dump.txt "mixprec: nest at .*remarks.c:13" "dump file"
	expect dump.txt "mixprec: plan:" "dump file"
	refuse err "mixprec: nest at" "the dump went to stderr"
	echo "ok: $cc"
}

clang_checks() {
	cc=$1 p="-fplugin=$2"
	$cc -O2 $p $inc -Rpass=mixprec -c remarks.c -o r.o 2>err || { cat err; fail "$cc"; }
	expect err "remarks.c:13:[0-9]+: remark: mixprec" "-Rpass=mixprec"
	refuse err "remark: mixprec: loop nest not transformed" "-Rpass=mixprec"
	$cc -O2 $p $inc -Rpass=mixprec "$src/docs/examples/layer.c" -c -o l.o 2>err
	expect err "layer.c:13:[0-9]+: remark: mixprec" "-Rpass=mixprec on layer.c"
	long=$(sed -n 's/^.*: remark: //p' err | sed 's/ \[-R[a-z-]*\]$//' | awk 'length > 200')
	[ -z "$long" ] || fail "a remark is longer than 200 characters: $long"
	expect err "layer.c:13:[0-9]+: note: .*fused epilogue" "the details of a long remark (a note)"
	$cc -O2 $p $inc -Rpass-missed=mixprec -c remarks.c -o r.o 2>err
	expect err "remarks.c:22:[0-9]+: remark: mixprec: loop nest not transformed" "-Rpass-missed=mixprec"
	refuse err "remarks.c:13:[0-9]+: remark" "-Rpass-missed=mixprec"
	$cc -O2 $p $inc -Rpass-analysis=mixprec -c remarks.c -o r.o 2>err
	expect err "remarks.c:13:[0-9]+: remark: mixprec: " "-Rpass-analysis=mixprec"
	$cc -O2 $p $inc -Rpass-missed=inline -c remarks.c -o r.o 2>err
	refuse err "remark: mixprec" "-Rpass-missed=inline"
	rm -f rec.yaml
	$cc -O2 $p $inc -fsave-optimization-record -foptimization-record-file=rec.yaml -c remarks.c -o r.o 2>err ||
		{ cat err; fail "-fsave-optimization-record"; }
	for k in Passed Missed Analysis; do
		awk -v k="--- !$k" '$0 == k { on = 1 } on && /^Pass: *mixprec/ { found = 1 } /^\.\.\./ { on = 0 } END { exit !found }' rec.yaml ||
			{ cat rec.yaml; fail "no !$k entry of pass mixprec in the record"; }
	done
	expect rec.yaml "File: *'remarks.c', Line: 13" "record location"
	expect rec.yaml "Function: *'gemm'" "record function"
	util=$(command -v llvm-remarkutil-19 || ls /usr/lib/llvm-19/bin/llvm-remarkutil 2>/dev/null || true)
	if [ -n "$util" ]; then
		"$util" yaml2bitstream rec.yaml -o rec.bin 2>err || { cat err; fail "llvm-remarkutil cannot parse the record"; }
	fi
	printf '#if !defined(__MIXPREC__) || __MIXPREC__ != %s\n#error no __MIXPREC__\n#endif\nint x;\n' "$version" >m.c
	$cc $p -c m.c -o m.o 2>err || { cat err; fail "$cc: __MIXPREC__ != $version"; }
	$cc -c m.c -o m.o 2>/dev/null && fail "__MIXPREC__ without the plugin"
	rm -f dump.txt
	$cc -O2 $p -fplugin-arg-mixprec-dump=dump.txt $inc -c remarks.c -o r.o 2>err
	expect dump.txt "mixprec: nest at .*remarks.c:13" "dump file"
	refuse err "mixprec: nest at" "the dump went to stderr"
	echo "ok: $cc"
}

gcc=$1 gplugin=$2
shift 2
gcc_checks "$gcc" "$gplugin"
while [ $# -ge 2 ]; do
	clang_checks "$1" "$2"
	shift 2
done

# per-nest statistics (the GCC build)
$gcc -O2 -fplugin="$gplugin" $inc remarks.c -o prog "-L$(dirname "$RUNTIME")" -Wl,-rpath,"$(dirname "$RUNTIME")" -lmixprec -lm ||
	fail "build the program"
MIXPREC_STATS=1 ./prog 3 >/dev/null 2>err
pid='[0-9]+'
expect err "^mixprec: fast=3 fallback=1 kernel=[a-z0-9]+ teams=[0-9]+ max_team=[0-9]+ openmp=[^ ]+ pid=$pid$" "totals"
expect err "^mixprec: pid=$pid nest .*remarks.c:13 calls=4 kernels=3 fallbacks=1 \(overlap=1\) kernel=[a-z0-9]+ time=[0-9.]+ms$" "per-nest line"
MIXPREC_STATS=1 MIXPREC_DISABLE=1 ./prog 2 >/dev/null 2>err
expect err "^mixprec: pid=$pid nest .*remarks.c:13 calls=3 kernels=0 fallbacks=3 \(disabled=2 overlap=1\) kernel=none" "MIXPREC_DISABLE reason"
MIXPREC_STATS="$T/s-%p.json" ./prog 2 >/dev/null 2>err
json=$(ls "$T"/s-*.json 2>/dev/null | head -n 1)
[ -n "$json" ] || fail "no JSON statistics file"
python3 - "$json" <<'PY' || fail "JSON statistics"
import json, os, sys
d = json.load(open(sys.argv[1]))
assert os.path.basename(sys.argv[1]) == "s-%d.json" % d["pid"], d
n = [x for x in d["nests"] if x["loc"].endswith("remarks.c:13")]
assert len(n) == 1 and n[0]["calls"] == 3 and n[0]["kernels"] == 2, d
assert n[0]["fallbacks"] == {"overlap": 1}, d
assert d["fast"] == 2 and d["fallback"] == 1, d
PY
echo "ok: statistics"
