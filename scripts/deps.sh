#!/bin/sh
# deps.sh -- install the Debian 12 packages mixprec needs (build, tests,
# benchmarks), skipping the network when they are all present already.
# gcc-aarch64-linux-gnu, its plugin headers, libc6-dev-arm64-cross and
# qemu-user: the aarch64 cross build and its tests (ctest -L arm).
# gnuplot-nox: the benchmarks' plots (scripts/plot-bench.sh).
# libomp-14-dev: clang -fopenmp (both clangs; Debian 12 allows one
# libomp-N-dev at a time, libomp-19-dev would remove it).
set -eu
PKGS="cmake make gcc g++ gcc-12-plugin-dev gcc-aarch64-linux-gnu gcc-12-plugin-dev-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user libisl-dev pkg-config python3 binutils libdnnl-dev libopenblas-dev clang-14 llvm-14-dev libclang-14-dev llvm-14-linker-tools libomp-14-dev gnuplot-nox clang-19 llvm-19-dev libclang-19-dev libclang-cpp19-dev llvm-19-linker-tools meson ninja-build ccache"
missing=""
for p in $PKGS; do
  dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "mixprec: installing$missing"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends $missing
