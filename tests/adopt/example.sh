#!/bin/sh
# example.sh KIND SRC BUILD CC -- the example project docs/examples/KIND
# (cmake-make, cmake-ninja, make, meson) built as its README says against
# a fresh install of BUILD, with the C compiler CC:
#   1. configure and build; the program runs its nest on the kernels
#      ("kernels 1 fallback 0 mismatches 0") and sees __MIXPREC__;
#   2. a second build does nothing (the object is not recompiled);
#   3. the plugin is reinstalled changed (and, under clang, the core):
#      the next build recompiles the annotated file.
kind=$1 src=$2 build=$3 cc=$4
. "$src/tests/adopt/common.sh"
P=$T/prefix
mp_install "$P"
export PKG_CONFIG_PATH=$P/lib/pkgconfig
cp "$src/docs/examples/layer.c" "$T/"
dir=${kind%%-*}
cp -r "$src/docs/examples/$dir" "$T/$dir"
cd "$T/$dir"
case "$cc" in *clang*) clang=1;; *) clang=0;; esac

build_it() {
	case "$kind" in
	cmake-make|cmake-ninja)
		if [ ! -d b ]; then
			gen="Unix Makefiles"; [ "$kind" = cmake-ninja ] && gen=Ninja
			cmake -S . -B b -G "$gen" -DCMAKE_PREFIX_PATH="$P" -DCMAKE_C_COMPILER="$cc" \
				>cfg.log 2>&1 || { cat cfg.log; fail "configure"; }
		fi
		cmake --build b >build.log 2>&1 || { cat build.log; fail "build"; }
		exe=b/layer obj=$(find b -name 'layer.c.o');;
	make)
		make CC="$cc" >build.log 2>&1 || { cat build.log; fail "make"; }
		exe=./layer obj=layer.o;;
	meson)
		if [ ! -d b ]; then
			CC="$cc" meson setup b >cfg.log 2>&1 || { cat cfg.log; fail "meson setup"; }
		fi
		ninja -C b >build.log 2>&1 || { cat build.log; fail "ninja"; }
		exe=b/layer obj=$(find b -name '*layer.c.o');;
	esac
	[ -n "$obj" ] && [ -f "$obj" ] || fail "no object file"
}

build_it
out=$("$exe") || fail "the program failed: $out"
echo "$out"
echo "$out" | grep -q "^plugin [1-9][0-9]*$" || fail "__MIXPREC__ not defined in the plugin build"
echo "$out" | grep -q "^kernels 1 fallback 0 mismatches 0$" || fail "the nest did not run on the kernels"

t1=$(stat -c %.9Y "$obj")
sleep 1
build_it
[ "$(stat -c %.9Y "$obj")" = "$t1" ] || fail "a build with nothing changed recompiled $obj"

var=gcc_plugin
case "$cc" in *clang-19*) var=clang19_plugin;; *clang*) var=clang_plugin;; esac
plugin=$(pkg-config --variable=$var mixprec)
[ -f "$plugin" ] || fail "cannot find the plugin the build uses ($plugin)"
echo "reinstalling $plugin"
mp_reinstall_changed "$plugin"
build_it
t2=$(stat -c %.9Y "$obj")
[ "$t2" != "$t1" ] || fail "reinstalling the plugin did not rebuild $obj"
"$exe" | grep -q "^kernels 1 fallback 0 mismatches 0$" || fail "the rebuilt program"

if [ $clang = 1 ]; then
	core=$(dirname "$plugin")/libmixprec-core.so
	echo "reinstalling $core"
	mp_reinstall_changed "$core"
	build_it
	[ "$(stat -c %.9Y "$obj")" != "$t2" ] || fail "reinstalling libmixprec-core.so did not rebuild $obj"
fi
echo "ok: $kind with $cc"
