#!/bin/sh
# test.sh -- the whole test suite from a fresh Debian 12 machine:
# dependencies, build, then every test (core, runtime, end-to-end corpus,
# diagnostics, samples) through CTest.
set -eu
cd "$(dirname "$0")/.."
sh scripts/deps.sh
BUILD=${BUILD:-build}
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build "$BUILD" -j"$(nproc)"
cd "$BUILD"
# `long` tests (compile_time.o2, pragma_mutation.long): ctest -L long
ctest --output-on-failure -j"$(nproc)" -LE long "$@"
