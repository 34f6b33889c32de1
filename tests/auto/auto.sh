#!/bin/sh
# auto.sh CC PLUGIN SRC RUNTIME_DIR -- `#pragma mixprec(auto)` end to end
# with one compiler (gcc, clang-14 or clang-19 and its plugin), on
# tests/auto/auto_nests.c (three auto nests: dense1, dense2 with auto(bf16,
# int8), cancel; their loops' lines l1, l2, l3 key the profile):
#   1. without a profile each nest runs bf16, and the remark says so;
#   2. MIXPREC_PROFILE=FILE writes a profile: three nests with their hashes,
#      each candidate and the source precision sampled, dense2 only bf16,
#      int8 and source; cancel's low precisions err by more than 10%, its
#      source precision by less than 1e-3;
#   3. mixprec-tune --tol 0: no candidate meets it, every nest is kept at
#      the source precision (exit 1); built with that assignment, every
#      nest says so and the program prints the plain build's checksum;
#   4. an assignment written here (int8, bf16, source, with the profile's
#      hashes): the remarks cite it, the errors are int8's and bf16's;
#   4b. mixprec-tune --run: dense1's small local error becomes a large one
#      at the program's marked outputs, so it stays at the source
#      precision; MIXPREC_AUTO_FORCE and MIXPREC_PROFILE_OUTPUT by hand;
#   5. a stale entry (another hash), a missing file, a corrupt file: one
#      warning each, the default runs, the build succeeds; two nests on
#      one line told apart by hash; a path longer than 1024 characters;
#      four nests profiled from four OpenMP threads (GCC);
#   6. auto on an integer nest, a bad candidate: refused with the reason.
set -eu
cc=$1 plugin=$2 src=$3 rt=$4
tune="python3 $src/scripts/mixprec-tune"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$T"
cp "$src/tests/auto/auto_nests.c" .
# the line after each pragma: the nest's loop
set -- $(grep -n '^#pragma mixprec(auto' auto_nests.c | cut -d: -f1)
[ $# -eq 3 ] || { echo "FAIL: three auto pragmas in auto_nests.c"; exit 1; }
l1=auto_nests.c:$(($1 + 1)) l2=auto_nests.c:$(($2 + 1)) l3=auto_nests.c:$(($3 + 1))
fail() { echo "FAIL: $*"; exit 1; }
case "$cc" in
*clang*) remark=-Rpass=mixprec ;;
*) remark=-fopt-info-loop-optimized ;;
esac
build() {   # OUT EXTRA-FLAGS...
	out=$1
	shift
	# shellcheck disable=SC2086
	$cc -O2 -fplugin="$plugin" "$@" $remark -I"$src/include" auto_nests.c -o "$out" \
		-L"$rt" -lmixprec -lm -Wl,-rpath,"$rt" 2> "$out.err" || { cat "$out.err"; fail "build $out"; }
}
count() { grep -c -- "$1" "$2" || true; }

# 1. the default
build a0
[ "$(count "auto: bf16, the default without a profile" a0.err)" -eq 3 ] ||
	{ cat a0.err; fail "three remarks 'auto: bf16, the default without a profile'"; }
grep -q "candidates int8 bf16; nest hash" a0.err || fail "dense2's candidates in its remark"
if grep -q "warning: mixprec" a0.err; then cat a0.err; fail "a warning without a profile"; fi

# 2. the profile
MIXPREC_SMALL=0 MIXPREC_PROFILE=prof ./a0 16 > a0.out
[ "$(head -1 prof)" = "# mixprec profile 1" ] || fail "profile header"
[ "$(grep -c '^nest' prof)" -eq 3 ] || { cat prof; fail "three nests in the profile"; }
h32=$(awk -F'\t' -v l="$l1" '$1 == "nest" && $2 == l { print $3 }' prof)
h44=$(awk -F'\t' -v l="$l2" '$1 == "nest" && $2 == l { print $3 }' prof)
h56=$(awk -F'\t' -v l="$l3" '$1 == "nest" && $2 == l { print $3 }' prof)
[ -n "$h32" ] && [ -n "$h44" ] && [ -n "$h56" ] || { cat prof; fail "nests keyed by FILE:LINE"; }
# candidates per nest, in the profile's order
cands=$(awk -F'\t' -v l1="$l1" -v l2="$l2" -v l3="$l3" '$1 == "nest" { n = $2 }
	$1 == "cand" { c[n] = c[n] " " $2 } END { print c[l1] "|" c[l2] "|" c[l3] }' prof)
[ "$cands" = " int8 uint8 bf16 fp8_e4m3 fp8_e5m2 source| int8 bf16 source| int8 uint8 bf16 fp8_e4m3 fp8_e5m2 source" ] ||
	{ cat prof; fail "candidates: $cands"; }
awk -F'\t' '$1 == "nest" { n = $2; calls = $4 } $1 == "cand" && ($3 < 1 || $4 != 0) { bad = 1 }
	$1 == "nest" && $4 != 16 { bad = 1 } END { exit bad }' prof || { cat prof; fail "16 calls, every candidate sampled"; }
awk -F'\t' -v l3="$l3" '$1 == "nest" { n = $2 } $1 == "cand" && n == l3 &&
	(($2 == "source" && $6 >= 1e-3) || ($2 != "source" && $6 <= 0.1)) { bad = 1 } END { exit bad }' prof ||
	{ cat prof; fail "cancel: low precisions > 10%, source < 1e-3"; }

# 3. nothing meets --tol 0: the source precision everywhere
set +e
$tune prof --tol 0 -o a_src > tune.out 2> tune.err
rc=$?
set -e
[ $rc -eq 1 ] || { cat tune.out tune.err; fail "mixprec-tune --tol 0: exit 1 (got $rc)"; }
grep -q "no assignment meets --tol 0" tune.err || fail "mixprec-tune --tol 0: the message"
[ "$(grep -c "	source$" a_src)" -eq 3 ] || { cat a_src; fail "--tol 0: three nests at source"; }
build a1 "-fplugin-arg-mixprec-profile-use=a_src"
[ "$(count "kept at its source precision: the profile assignment 'a_src'" a1.err)" -eq 3 ] ||
	{ cat a1.err; fail "three nests kept at the source precision"; }
$cc -O2 -I"$src/include" auto_nests.c -o plain -lm
./plain 4 > plain.out
./a1 4 > a1.out
cmp plain.out a1.out || { diff plain.out a1.out; fail "kept nests: not the plain build's results"; }

# 4. an assignment written by hand (the format of docs/precision.md)
printf '# mixprec assignment 1\n%s\t%s\tint8\n%s\t%s\tbf16\n%s\t%s\tsource\n' \
	"$l1" "$h32" "$l2" "$h44" "$l3" "$h56" > a_hand
build a2 "-fplugin-arg-mixprec-profile-use=a_hand"
grep -q "auto: int8, assigned by the profile 'a_hand'" a2.err || { cat a2.err; fail "dense1 at int8"; }
grep -q "auto: bf16, assigned by the profile 'a_hand'" a2.err || { cat a2.err; fail "dense2 at bf16"; }
grep -q "kept at its source precision" a2.err || { cat a2.err; fail "cancel kept"; }
# the assignment is a dependency of the object (-MD): a new one rebuilds it
$cc -O2 -fplugin="$plugin" -fplugin-arg-mixprec-profile-use=a_hand -I"$src/include" -MD -MF dep.d \
	-c auto_nests.c -o an.o 2> dep.err || { cat dep.err; fail "-MD build"; }
grep -q "a_hand" dep.d || { cat dep.d; fail "the assignment is not in the dependency file"; }
MIXPREC_SMALL=0 ./a2 4 > a2.out
awk '$1 == "dense1" && !($2 > 1e-4 && $2 < 0.03) { exit 1 }
     $1 == "dense2" && !($2 > 1e-4 && $2 < 0.02) { exit 1 }' a2.out || { cat a2.out; fail "int8 / bf16 errors"; }
[ "$(grep cancel a2.out)" = "$(grep cancel plain.out)" ] || fail "cancel: not the plain build's"

# 7. program-level sensitivity: mixprec-tune --run (the program marks d, y
#    and g with mp_profile_output).  dense1 at bf16 errs little at its own
#    output but moves d = h[., 2m+1] - h[., 2m] by far more: its output
#    error, not its local one, keeps it at the source precision.
$tune prof --tol 1e-2 -o a_run --run ./a0 2 > run.out 2> run.err ||
	{ cat run.out run.err; fail "mixprec-tune --run"; }
awk -v l="$l1" '$1 == l { n = 1; next } /^  [^ ]/ { n = 0 }
	n && $1 == "bf16" { found = 1; if (!($6 < 0.01 && $12 > 0.1)) exit 1 } END { exit !found }' run.out ||
	{ cat run.out; fail "--run: dense1 at bf16, local error < 1e-2, output error > 0.1"; }
awk -v l="$l2" '$1 == l { n = 1; next } /^  [^ ]/ { n = 0 }
	n && $1 == "bf16" { found = 1; if (!($12 < 0.05)) exit 1 } END { exit !found }' run.out ||
	{ cat run.out; fail "--run: dense2 at bf16, output error < 0.05"; }
grep -q "^$l1	$h32	source$" a_run || { cat a_run; fail "--run: dense1 kept at source"; }
grep -q "^$l3	$h56	source$" a_run || { cat a_run; fail "--run: cancel kept at source"; }
# MIXPREC_AUTO_FORCE and MIXPREC_PROFILE_OUTPUT by hand: every nest at its
# source precision gives the plain build's values
MIXPREC_AUTO_FORCE="*=source" MIXPREC_PROFILE_OUTPUT=o_src MIXPREC_STATS=1 ./a0 4 > f.out 2> f.err
[ "$(grep checksum f.out)" = "$(grep checksum plain.out)" ] || fail "MIXPREC_AUTO_FORCE=*=source: not the plain build's"
grep -q "auto_source=4" f.err || { cat f.err; fail "fallback reason auto_source"; }
[ "$(head -1 o_src)" = "# mixprec outputs 1" ] && [ "$(grep -c '^# output ' o_src)" -eq 3 ] ||
	{ head -3 o_src; fail "the outputs file"; }

# 5. stale, missing, corrupt: a warning, the default
sed "s/^$l1	$h32/$l1	00000000/" a_hand > a_stale
[ "$h32" != 00000000 ] || fail "hash 0"
build a3 "-fplugin-arg-mixprec-profile-use=a_stale"
grep -q "warning: mixprec: the profile assignment 'a_stale' is stale for the nest at $l1" a3.err ||
	{ cat a3.err; fail "stale: the warning"; }
grep -q "auto: bf16, the default: stale profile entry" a3.err || { cat a3.err; fail "stale: the default"; }
grep -q "auto: bf16, assigned by the profile 'a_stale'" a3.err || { cat a3.err; fail "stale: the others keep theirs"; }
build a4 "-fplugin-arg-mixprec-profile-use=$T/none"
[ "$(count "warning: mixprec: cannot use the profile assignment" a4.err)" -eq 3 ] || { cat a4.err; fail "missing file"; }
echo "FILE:1	12345678	int8" > a_bad
build a5 "-fplugin-arg-mixprec-profile-use=a_bad"
grep -q "not a mixprec assignment file" a5.err || { cat a5.err; fail "corrupt file"; }
grep -q "auto: bf16, the default: the profile assignment is unusable" a5.err || { cat a5.err; fail "corrupt: the default"; }

# 5b. two nests on one line (a macro's): told apart by their hashes
cat > same.c <<'C'
#include <stdio.h>
#define M 32
#define K 64
static float a[M][K], e[M][K], b[K][M], c1[M][M], c2[M][M];
#define GEMM(C, A)                                      \
	_Pragma("mixprec(auto)")                        \
	for (int i = 0; i < M; i++)                     \
		for (int j = 0; j < M; j++) {           \
			float s = 0;                    \
			for (int k = 0; k < K; k++)     \
				s += A[i][k] * b[k][j]; \
			C[i][j] = s;                    \
		}
static void two(void)
{
	GEMM(c2, e) GEMM(c1, a)
}
int main(void)
{
	for (int i = 0; i < M; i++)
		for (int k = 0; k < K; k++)
			a[i][k] = (float)((i * 7 + k * 3) % 11), e[i][k] = (float)((i + k) % 5);
	for (int k = 0; k < K; k++)
		for (int j = 0; j < M; j++)
			b[k][j] = (float)((k * 5 + j) % 13) / 13.0f;
	two();
	printf("%g %g\n", c1[3][4], c2[5][6]);
	return 0;
}
C
# shellcheck disable=SC2086
$cc -O2 -fplugin="$plugin" -I"$src/include" same.c -o same -L"$rt" -lmixprec -lm -Wl,-rpath,"$rt" 2> same.err ||
	{ cat same.err; fail "same.c"; }
MIXPREC_SMALL=0 MIXPREC_PROFILE=sprof ./same > /dev/null
[ "$(grep -c '^nest	same.c:16	' sprof)" -eq 2 ] || { cat sprof; fail "two nests on line 16 in the profile"; }
hs=$(awk -F'\t' '$1 == "nest" { print $3 }' sprof)
set -- $hs
printf '# mixprec assignment 1\nsame.c:16\t%s\tsource\nsame.c:16\t%s\tint8\n' "$1" "$2" > a_same
$cc -O2 -fplugin="$plugin" -fplugin-arg-mixprec-profile-use=a_same $remark -I"$src/include" -c same.c -o same.o 2> same2.err ||
	{ cat same2.err; fail "same.c with its assignment"; }
if grep -q "warning: mixprec" same2.err; then cat same2.err; fail "same.c: a warning"; fi
grep -q "kept at its source precision" same2.err && grep -q "auto: int8, assigned by the profile" same2.err ||
	{ cat same2.err; fail "same.c: each nest its own entry"; }

# 5c. a path longer than 1024 characters: the whole FILE:LINE is the key
long=$T/$(printf 'd%.0s' $(seq 1 250))/$(printf 'e%.0s' $(seq 1 250))/$(printf 'f%.0s' $(seq 1 250))/$(printf 'g%.0s' $(seq 1 250))/$(printf 'h%.0s' $(seq 1 250))
mkdir -p "$long"
cp auto_nests.c "$long/x.c"
$cc -O2 -fplugin="$plugin" -I"$src/include" "$long/x.c" -o lx -L"$rt" -lmixprec -lm -Wl,-rpath,"$rt" 2> lx.err ||
	{ cat lx.err; fail "long path"; }
MIXPREC_SMALL=0 MIXPREC_PROFILE=lprof ./lx 1 > /dev/null
grep -q "^nest	$long/x.c:$((${l1#auto_nests.c:}))	" lprof || { cut -c1-80 lprof; fail "long path: FILE:LINE cut"; }
[ "$(grep -c '^nest' lprof)" -eq 3 ] || fail "long path: three nests"
$tune lprof --tol 0 -o a_long > /dev/null 2>&1 || true
$cc -O2 -fplugin="$plugin" -fplugin-arg-mixprec-profile-use=a_long $remark -I"$src/include" -c "$long/x.c" -o lx.o 2> lx2.err
[ "$(count "kept at its source precision" lx2.err)" -eq 3 ] || { cat lx2.err | cut -c1-200; fail "long path: the assignment"; }

# 5d. threads: four nests profiled from four OpenMP threads at once
case "$cc" in
*clang*) ;;
*)
	cat > omp.c <<'C'
#include <stdio.h>
#define M 64
static float a[M][M], b[M][M], c0[M][M], c1[M][M], c2[M][M], c3[M][M];
#define NEST(NAME, C, SC) static void NAME(void) {   \
_Pragma("mixprec(auto)")                                 \
	for (int i = 0; i < M; i++)                      \
		for (int j = 0; j < M; j++) {            \
			float s = 0;                     \
			for (int k = 0; k < M; k++)      \
				s += a[i][k] * b[k][j];  \
			C[i][j] = SC * s;                \
		} }
NEST(n0, c0, 1.0f)
NEST(n1, c1, 2.0f)
NEST(n2, c2, 3.0f)
NEST(n3, c3, 4.0f)
int main(void)
{
	for (int i = 0; i < M; i++)
		for (int k = 0; k < M; k++)
			a[i][k] = (float)((i * 7 + k * 3) % 11) / 11.0f, b[i][k] = (float)((i + k) % 13) / 13.0f;
#pragma omp parallel for schedule(static, 1) num_threads(4)
	for (int t = 0; t < 4; t++)
		for (int r = 0; r < 20; r++) {
			if (t == 0) n0(); else if (t == 1) n1(); else if (t == 2) n2(); else n3();
		}
	printf("%g\n", c0[1][2] + c1[3][4] + c2[5][6] + c3[7][8]);
	return 0;
}
C
	$cc -O2 -fopenmp -fplugin="$plugin" -I"$src/include" omp.c -o omp -L"$rt" -lmixprec -lm -Wl,-rpath,"$rt" 2> omp.err ||
		{ cat omp.err; fail "omp.c"; }
	MIXPREC_SMALL=0 MIXPREC_PROFILE=oprof ./omp > /dev/null
	[ "$(grep -c '^nest	omp.c:.*	20	' oprof)" -eq 4 ] || { cat oprof; fail "threads: four nests of 20 calls"; }
	# calls 1, 2, 4, 8, 16 sampled, for every candidate
	awk -F'\t' '$1 == "cand" && $3 != 5 { exit 1 }' oprof || { cat oprof; fail "threads: 5 samples each"; }
	;;
esac

# 6. refusals
cat > int.c <<'C'
void f(int M, int N, int K, const signed char *a, const signed char *b, int *c)
{
#pragma mixprec(auto)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int s = 0;
			for (int k = 0; k < K; k++)
				s += a[i * K + k] * b[k * N + j];
			c[i * N + j] = s;
		}
}
void g(int n, const float *x, float *y)
{
#pragma mixprec(auto(int4))
	for (int i = 0; i < n; i++)
		y[i] = x[i];
}
C
$cc -O2 -fplugin="$plugin" -I"$src/include" -c int.c -o int.o 2> int.err && { cat int.err; fail "auto(int4) compiled"; }
grep -q "chooses the precision of floating-point nests; this nest's operands are integers" int.err ||
	{ cat int.err; fail "auto on an integer nest"; }
grep -q "invalid candidate 'int4' for 'auto'" int.err || { cat int.err; fail "auto(int4)"; }
echo PASS
