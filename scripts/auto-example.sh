#!/bin/sh
# auto-example.sh -- the worked example of docs/precision.md end to end
# (`#pragma mixprec(auto)`, issue 12): tests/auto/auto_nests.c (three auto
# nests: dense1, whose error the program amplifies a thousandfold; dense2,
# auto(bf16, int8); cancel, whose sums cancel) built with the plugin,
# profiled, tuned by mixprec-tune on the nests' own errors and with --run
# (errors at the outputs the program marks), rebuilt with each assignment,
# and measured against the plain build, all-bf16 and all-int8.
#
#   sh scripts/auto-example.sh            the documented size (about 4 min)
#   SZ="-DB=64 -DD0=256 -DD1=256 -DD2=128" sh scripts/auto-example.sh   smaller
#   BUILD=dir CC=gcc PLUGIN=path TOL=1e-2 REPS=10 OUT=dir
#
# Prints the front (mixprec-tune's table), the choice, and per build: ms per
# repetition (median of three runs of REPS repetitions), each nest's error
# against a double reference and the error at the marked outputs against
# the all-source run.  Exits 1 when the --run assignment's measured error
# at the outputs exceeds TOL (the tool's promise), 0 otherwise.
set -eu
cd "$(dirname "$0")/.."
SRC=$(pwd)
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$SRC/$BUILD ;; esac
CC=${CC:-gcc}
PLUGIN=${PLUGIN:-$BUILD/plugin-gcc/mixprec.so}
TOL=${TOL:-1e-2}
REPS=${REPS:-10}
SZ=${SZ:--DB=256 -DD0=1024 -DD1=1024 -DD2=512}
OUT=${OUT:-$BUILD/auto-example}
for f in "$PLUGIN" "$BUILD/runtime/libmixprec.so"; do
	[ -f "$f" ] || { echo "auto-example.sh: $f is missing; build first (README)" >&2; exit 2; }
done
mkdir -p "$OUT"
cd "$OUT"
rm -f prof asg_* *.out
lib="-L$BUILD/runtime -Wl,-rpath,$BUILD/runtime -lmixprec -lm"
src=$SRC/tests/auto/auto_nests.c
flags="-O3 -march=native $SZ -I$SRC/include"
export OMP_NUM_THREADS=1
unset MIXPREC_PROFILE MIXPREC_PROFILE_OUTPUT MIXPREC_AUTO_FORCE MIXPREC_DISABLE MIXPREC_TARGET 2>/dev/null || true
tune="python3 $SRC/scripts/mixprec-tune"

echo "== build: plain $CC, and with the plugin (every auto nest at its default)"
# shellcheck disable=SC2086
$CC $flags -Wno-unknown-pragmas "$src" $lib -o plain
# shellcheck disable=SC2086
$CC $flags -fplugin="$PLUGIN" "$src" $lib -o auto 2>auto.remarks
grep -o "auto: [^(]*" auto.remarks || true

echo "== profile (MIXPREC_PROFILE=prof ./auto 20)"
MIXPREC_PROFILE=prof ./auto 20 >/dev/null 2>&1
echo "== mixprec-tune prof --tol $TOL (the nests' own errors)"
$tune prof --tol "$TOL" -o asg_local --plot front-local.svg || true
echo "== mixprec-tune prof --tol $TOL --run ./auto 2 (errors at the marked outputs)"
$tune prof --tol "$TOL" -o asg_run --plot front.svg --run ./auto 2

# all-int8 and all-bf16: assignment files naming every nest
for p in int8 bf16; do
	{ echo "# mixprec assignment 1"; awk -F'\t' -v p=$p '$1 == "nest" { print $2 "\t" $3 "\t" p }' prof; } >asg_all_$p
done
for a in local run all_int8 all_bf16; do
	# shellcheck disable=SC2086
	$CC $flags -fplugin="$PLUGIN" -fplugin-arg-mixprec-profile-use="$PWD/asg_$a" "$src" $lib \
		-o tuned_$a 2>tuned_$a.remarks
	! grep -q "warning: mixprec" tuned_$a.remarks || { cat tuned_$a.remarks; exit 1; }
done

# the marked outputs of the all-source run: the reference
MIXPREC_AUTO_FORCE='*=source' MIXPREC_PROFILE_OUTPUT=ref.out ./auto "$REPS" >/dev/null 2>&1

# BIN [ENV...] -> "ms e1 e2 e3 out_err"
measure() {
	bin=$1
	shift
	ts=""
	for r in 1 2 3; do
		env "$@" MIXPREC_PROFILE_OUTPUT=$bin.out ./$bin "$REPS" >$bin.txt 2>$bin.err
		ts="$ts $(awk '/^time/ { print $2 }' $bin.err)"
	done
	ms=$(echo "$ts" | tr ' ' '\n' | grep . | sort -g | sed -n 2p)
	errs=$(awk '$1 == "dense1" || $1 == "dense2" || $1 == "cancel" { printf "%s ", $2 }' $bin.txt)
	if [ "$bin" = plain ]; then
		oe="(plain)"
	else
		oe=$(python3 - ref.out $bin.out <<'PY'
import sys
def read(p):
    outs, cur = [], None
    for line in open(p):
        if line.startswith("# output"):
            cur = []
            outs.append(cur)
        elif not line.startswith("#") and cur is not None:
            cur.append(float(line))
    return outs
ref, got = read(sys.argv[1]), read(sys.argv[2])
worst = 0.0
for r, g in zip(ref, got):
    m = max((abs(x) for x in r), default=0.0) or 1.0
    worst = max([worst] + [abs(a - b) / m for a, b in zip(r, g)])
print("%.3g" % worst if len(ref) == len(got) else "inf")
PY
)
	fi
	echo "$ms $errs$oe"
}

printf '\n| build | ms | dense1 | dense2 | cancel | at the outputs |\n|---|---|---|---|---|---|\n'
row() {   # LABEL BIN [ENV...]
	label=$1
	shift
	set -- $(measure "$@")
	printf '| %s | %s | %s | %s | %s | %s |\n' "$label" "$1" "$2" "$3" "$4" "$5"
	eval "last_out=\$5"
}
row "plain -O3 -march=native (fp32)" plain
row "all bf16 (auto without a profile)" auto
row "all int8 (an assignment file)" tuned_all_int8
row "all bf16 (an assignment file)" tuned_all_bf16
row "tuned on the nests' own errors, --tol $TOL" tuned_local
row "tuned at the outputs, --tol $TOL --run" tuned_run
echo
echo "assignment chosen with --run (asg_run):"
grep -v '^#' asg_run
if python3 -c "import sys; sys.exit(0 if float('$last_out') <= float('$TOL') else 1)"; then
	echo "auto-example: the --run assignment's error at the outputs, $last_out, is within --tol $TOL"
	echo "(files in $OUT: front.svg, front-local.svg, the profile and the assignments)"
else
	echo "auto-example: FAIL: the --run assignment's error at the outputs, $last_out, exceeds --tol $TOL"
	exit 1
fi
