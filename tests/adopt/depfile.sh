#!/bin/sh
# depfile.sh SRC BUILD CC PLUGIN [CORE] -- the dependency file the compiler
# writes names the plugin (and CORE, libmixprec-core.so, under clang):
#   -MD and -MMD -MF (compile), -MMD -MP (a phony target for each), and
#   under GCC the preprocess-only -M / -MM as well.
# Then ccache: a second compile is a cache hit; after the plugin is
# reinstalled changed, the compile is a miss (ccache hashes the -fplugin=
# file).  Under clang, the plugin embeds the SHA-256 of the core it was
# built with (so that a new core is a new plugin for ccache).
src=$1 build=$2 cc=$3 plugin=$4 core=${5:-}
. "$src/tests/adopt/common.sh"
cp "$src/docs/examples/layer.c" "$T/layer.c"
cp "$plugin" "$T/plugin.so"
[ -n "$core" ] && cp "$core" "$T/libmixprec-core.so"
cd "$T"
cflags="-O1 -fplugin=$T/plugin.so -I$src/include"

has() { grep -q -- "$2" "$1" || { cat "$1"; fail "$1 does not name $2 ($3)"; }; }
check() {   # DEPFILE WHAT
	has "$1" "$T/plugin.so" "$2"
	[ -z "$core" ] || has "$1" "$T/libmixprec-core.so" "$2"
	has "$1" "layer.c" "$2"
	head -n 1 "$1" | grep -q "^layer.o: \|^layer.o: layer.c" || { cat "$1"; fail "first rule of $1 ($2)"; }
}
$cc $cflags -c layer.c -o layer.o -MD -MF md.d || fail "-MD"
check md.d "-MD"
$cc $cflags -c layer.c -o layer.o -MMD -MP -MF mmd.d || fail "-MMD -MP"
check mmd.d "-MMD -MP"
grep -q "^$T/plugin.so:$" mmd.d || { cat mmd.d; fail "no phony target for the plugin under -MP"; }
# the rule must still parse: make sees the plugin as a prerequisite
printf 'layer.o:\n\ttouch layer.o\ninclude mmd.d\n' >mk
touch layer.o
make -s -f mk -q layer.o || fail "make considers layer.o out of date right after the compile"
sleep 1; touch "$T/plugin.so"
make -s -f mk -q layer.o && fail "make considers layer.o up to date after the plugin changed"
case "$cc" in
*clang*)
	# the plugin embeds the digest of its core
	sum=$(sha256sum "$core" | cut -d' ' -f1)
	grep -aq "mixprec-core-sha256=$sum" "$plugin" || fail "$plugin does not embed the SHA-256 of $core";;
*)
	$cc $cflags -M layer.c >m.d || fail "-M"
	check m.d "-M"
	$cc $cflags -MM layer.c -MF mm.d || fail "-MM"
	check mm.d "-MM";;
esac

if command -v ccache >/dev/null; then
	export CCACHE_DIR=$T/ccache CCACHE_NOHASHDIR=1
	stats() { ccache --print-stats | sed -n "s/^$1\t//p"; }
	ccache $cc $cflags -c layer.c -o c1.o || fail "ccache compile"
	ccache $cc $cflags -c layer.c -o c2.o || fail "ccache compile"
	[ "$(stats direct_cache_hit)" = 1 ] || { ccache --print-stats; fail "the second compile is no ccache hit"; }
	mp_reinstall_changed "$T/plugin.so"
	ccache $cc $cflags -c layer.c -o c3.o || fail "ccache compile"
	[ "$(stats direct_cache_hit)" = 1 ] && [ "$(stats preprocessed_cache_hit)" = 0 ] ||
		{ ccache --print-stats; fail "ccache replayed a result after the plugin changed"; }
	nm c3.o | grep -q __mixprec_i8_nest || fail "the ccache build did not transform the nest"
else
	echo "ccache not installed: its part skipped"
fi
echo "ok: $cc"
