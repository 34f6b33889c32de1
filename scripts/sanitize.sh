#!/bin/sh
# sanitize.sh -- the plugins (GCC and clang glue), the core and the runtime
# built with AddressSanitizer and UndefinedBehaviorSanitizer
# (-DMIXPREC_SANITIZE=ON, a build folder of its own: build-sanitize), then
# the tests labelled `sanitize` through them: the core and runtime unit
# tests, the corpus, the diagnostics tests, the float tests, the pragma
# mutation smoke and the fuzz smoke, under GCC, clang 14 and clang 19, with
# libasan (and libisl, see plugin-clang/core.cc) preloaded into cc1 and
# clang and the test programs run against the sanitized runtime.  Any
# sanitizer report fails its test (UBSan errors are fatal).
#
#   sh scripts/sanitize.sh                 every `sanitize` test but `long` ones
#   sh scripts/sanitize.sh -R 'diag|core'  extra ctest arguments (a subset)
#   BUILD=dir JOBS=n FUZZ_SEEDS=n sh scripts/sanitize.sh
# FUZZ_SEEDS: programs of fuzz.smoke in this build (default 40: each runs
# several times slower under the sanitizers than in the plain build's 200).
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build-sanitize}
JOBS=${JOBS:-$(nproc)}
FUZZ_SEEDS=${FUZZ_SEEDS:-40}
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMIXPREC_SANITIZE=ON \
	-DMP_FUZZ_SMOKE_SEEDS="$FUZZ_SEEDS"
cmake --build "$BUILD" -j"$JOBS"
cd "$BUILD"
exec ctest --output-on-failure -j"$JOBS" -L sanitize -LE long "$@"
