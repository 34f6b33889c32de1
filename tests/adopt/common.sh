# common.sh -- sourced by the adopt tests: a fresh temporary directory $T
# (removed at exit), fail(), and mp_install PREFIX (the build installed
# there, as a user would).  Needs $build and $src.
set -eu
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
mp_install() {
	cmake --install "$build" --prefix "$1" >"$T/install.log" 2>&1 ||
		{ cat "$T/install.log"; fail "cmake --install"; }
}
# A "new release" of an installed file: the same file with one more byte
# (a valid ELF still), reinstalled with install(1) the way `cmake --install`
# or a package upgrade replaces it.
mp_reinstall_changed() {
	cp "$1" "$T/changed.so"
	printf '\0' >>"$T/changed.so"
	sleep 1   # the coarsest timestamp any build tool here compares
	install -m 755 "$T/changed.so" "$1"
}
