#!/bin/sh
# test.sh -- the whole test suite from a fresh Debian 12 machine:
# dependencies, build, then every test (core, runtime, end-to-end corpus,
# diagnostics, samples) through CTest.
set -eu
cd "$(dirname "$0")/.."
ROOT=$(pwd)
sh scripts/deps.sh
BUILD=${BUILD:-build}
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build "$BUILD" -j"$(nproc)"
cd "$BUILD"
# `long` tests (compile_time.o2, pragma_mutation.long): ctest -L long
ctest --output-on-failure -j"$(nproc)" -LE long "$@"
# The whole suite (no arguments, as CI runs it): then the plugins, the
# core and the runtime under ASan + UBSan (scripts/sanitize.sh, its own
# build folder build-sanitize, CTest label `sanitize`).
# MIXPREC_NO_SANITIZE=1 skips it.
if [ $# -eq 0 ] && [ "${MIXPREC_NO_SANITIZE:-0}" = 0 ]; then
  cd "$ROOT"
  sh scripts/sanitize.sh
fi
