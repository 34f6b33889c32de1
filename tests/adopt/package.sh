#!/bin/sh
# package.sh SRC BUILD -- packaging, as a distribution or a user installs:
#   1. DESTDIR install under prefix /opt/mp: every installed file is in
#      install_manifest.txt (the .pc included, with prefix=/opt/mp), the
#      LICENSE, libmixprec.so has the versioned soname, libmixprec.a and the
#      CMake package are installed; the uninstall target removes every file;
#   2. pkg-config --static: a program linked -static with its Libs runs;
#   3. MIXPREC_INSTALL_GCC_PLUGIN_DIR=1 puts mixprec.so in GCC's plugin
#      directory (relative to the prefix /usr): gcc -fplugin=mixprec finds
#      it (-iplugindir points GCC at the staged directory);
#   4. cpack -G DEB builds the Debian package; dpkg installs it into an
#      empty root (--root, no system change), its files are there with
#      prefix=/usr in the .pc; dpkg -r removes them all.
src=$1 build=$2
. "$src/tests/adopt/common.sh"

# 1. manifest, soname, uninstall
D=$T/dest
DESTDIR=$D cmake --install "$build" --prefix /opt/mp >"$T/i.log" 2>&1 || { cat "$T/i.log"; fail "install"; }
man=$build/install_manifest.txt
cp "$man" "$T/manifest"
for f in lib/pkgconfig/mixprec.pc lib/libmixprec.a include/mixprec.h \
	 lib/cmake/mixprec/mixprecConfig.cmake lib/cmake/mixprec/mixprecTargets.cmake \
	 lib/mixprec/mixprec.so share/doc/mixprec/LICENSE; do
	grep -qx "/opt/mp/$f" "$T/manifest" || fail "/opt/mp/$f is not in install_manifest.txt"
	[ -f "$D/opt/mp/$f" ] || fail "$f not installed"
done
grep -qx "prefix=/opt/mp" "$D/opt/mp/lib/pkgconfig/mixprec.pc" || fail "the .pc has the wrong prefix"
( cd "$D" && find . -type f -o -type l ) | sed 's|^\.||' | sort >"$T/found"
sort "$T/manifest" | diff - "$T/found" || fail "installed files differ from install_manifest.txt"
so=$(readelf -d "$D/opt/mp/lib/libmixprec.so" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
case "$so" in libmixprec.so.[0-9]*) ;; *) fail "libmixprec.so has no versioned soname ($so)";; esac
[ -f "$D/opt/mp/lib/$so" ] || fail "$so is not installed"
DESTDIR=$D cmake --build "$build" --target uninstall >"$T/u.log" 2>&1 || { cat "$T/u.log"; fail "uninstall"; }
left=$(find "$D" -type f -o -type l)
[ -z "$left" ] || fail "uninstall left: $left"
[ ! -d "$D/opt/mp/lib/mixprec" ] || fail "uninstall left the empty lib/mixprec"

# 2. static runtime through pkg-config --static
P=$T/prefix
mp_install "$P"
export PKG_CONFIG_PATH=$P/lib/pkgconfig
gcc -O2 -static -fplugin="$(pkg-config --variable=gcc_plugin mixprec)" $(pkg-config --cflags mixprec) \
    "$src/docs/examples/layer.c" -o "$T/static" $(pkg-config --static --libs mixprec) ||
	fail "linking -static with pkg-config --static --libs"
readelf -l "$T/static" | grep -q INTERP && fail "the -static program is dynamic"
"$T/static" | grep -q "^kernels 1 fallback 0 mismatches 0$" || fail "the static program"

# 3. -fplugin=mixprec from GCC's plugin directory
G=$T/gcc
gccdir=$(gcc -print-file-name=plugin)
MIXPREC_INSTALL_GCC_PLUGIN_DIR=1 DESTDIR=$G cmake --install "$build" --prefix /usr >"$T/g.log" 2>&1 ||
	{ cat "$T/g.log"; fail "install into GCC's plugin directory"; }
[ -f "$G$gccdir/mixprec.so" ] || fail "mixprec.so not in $G$gccdir"
gcc -O2 -iplugindir="$G$gccdir" -fplugin=mixprec -fopt-info-loop-optimized -I"$src/include" \
    -c "$src/docs/examples/layer.c" -o "$T/short.o" 2>"$T/short.err" || { cat "$T/short.err"; fail "-fplugin=mixprec"; }
grep -q "optimized: mixprec" "$T/short.err" || { cat "$T/short.err"; fail "no remark with -fplugin=mixprec"; }

# 4. the Debian package
command -v dpkg-deb >/dev/null || { echo "dpkg-deb missing: the package part skipped"; echo ok; exit 0; }
(cd "$build" && cpack -G DEB -B "$T/deb" >"$T/cpack.log" 2>&1) || { cat "$T/cpack.log"; fail "cpack -G DEB"; }
deb=$(ls "$T"/deb/mixprec_*.deb 2>/dev/null | head -n 1)
[ -n "$deb" ] || { ls -R "$T/deb"; fail "no .deb"; }
dpkg-deb -c "$deb" >"$T/contents"
for f in "./usr$(echo "$gccdir" | sed 's|^/usr||')/mixprec.so" ./usr/include/mixprec.h \
	 ./usr/share/doc/mixprec/LICENSE; do
	grep -q " $f\$" "$T/contents" || { cat "$T/contents"; fail "the package lacks $f"; }
done
R=$T/root
mkdir -p "$R/var/lib/dpkg/info" "$R/var/lib/dpkg/updates" "$R/var/lib/dpkg/triggers"
touch "$R/var/lib/dpkg/status" "$R/var/lib/dpkg/available"
dpkg --root="$R" --force-depends --force-script-chrootless --force-not-root -i "$deb" >"$T/dpkg.log" 2>&1 ||
	{ cat "$T/dpkg.log"; fail "dpkg -i"; }
pc=$(find "$R/usr" -name mixprec.pc)
[ -n "$pc" ] && grep -qx "prefix=/usr" "$pc" || fail "the packaged .pc (prefix=/usr)"
[ -f "$R$gccdir/mixprec.so" ] || fail "the package did not install $gccdir/mixprec.so"
dpkg --root="$R" --force-script-chrootless --force-not-root -r mixprec >>"$T/dpkg.log" 2>&1 ||
	{ cat "$T/dpkg.log"; fail "dpkg -r"; }
left=$(find "$R/usr" -type f 2>/dev/null || true)
[ -z "$left" ] || fail "dpkg -r left: $left"
echo ok
