#!/bin/sh
# clangd.sh SRC GCC_PLUGIN CLANG_PLUGIN -- the .clangd recipe of
# docs/examples/clangd (README "Editors"): compile commands written for the
# GCC plugin (-fplugin=, -fplugin-arg-mixprec-..., -fopt-info-...) and for
# the clang plugin give clangd errors without the recipe and none with it.
# Exit 77 (skipped) without clangd.
set -eu
SRC=$1; GPLUG=$2; CPLUG=$3
CLANGD=$(command -v clangd || command -v clangd-14 || command -v clangd-19 || true)
[ -n "$CLANGD" ] || { echo "SKIP: no clangd"; exit 77; }
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
cp "$SRC/docs/examples/layer.c" "$W/layer.c"
check() {   # check EXPECT_ERRORS(yes|no) ARGS...
	want=$1; shift
	args=""
	for a in "$@"; do args="$args\"$a\", "; done
	printf '[{"directory": "%s", "file": "%s/layer.c", "arguments": [%s"-c", "layer.c"]}]\n' \
		"$W" "$W" "$args" > "$W/compile_commands.json"
	out=$(cd "$W" && timeout 120 "$CLANGD" --check="$W/layer.c" 2>&1) || true
	n=$(printf '%s\n' "$out" | sed -n 's/.*All checks completed, \([0-9]*\) errors.*/\1/p')
	[ -n "$n" ] || { printf '%s\n' "$out" | tail -5; echo "FAIL: clangd gave no verdict"; exit 1; }
	if [ "$want" = yes ] && [ "$n" -eq 0 ]; then echo "FAIL: no error without the recipe ($*)"; exit 1; fi
	if [ "$want" = no ] && [ "$n" -ne 0 ]; then
		printf '%s\n' "$out" | grep '^E\[' | head -5; echo "FAIL: $n errors with the recipe ($*)"; exit 1
	fi
	echo "ok: $want errors: $*"
}
GCCF="gcc -O2 -I$SRC/include -fplugin=$GPLUG -fplugin-arg-mixprec-verify -fopt-info-loop-optimized -fopt-info-loop-missed"
CLF="clang -O2 -I$SRC/include -fplugin=$CPLUG -Rpass=mixprec -Rpass-missed=mixprec"
# shellcheck disable=SC2086
check yes $GCCF
cp "$SRC/docs/examples/clangd/.clangd" "$W/.clangd"
# shellcheck disable=SC2086
check no $GCCF
# shellcheck disable=SC2086
check no $CLF
echo "PASS"
