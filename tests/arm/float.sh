#!/bin/sh
# float.sh CC PLUGIN INCLUDE LIBDIR WORK -- tests/float/float_nests.c (the
# float nests checked against their plain copies within the documented
# bound) built for aarch64 by CC with PLUGIN, run under qemu-aarch64 on the
# default family of `-cpu max` (i8mm) and on each other family
# (MIXPREC_SMALL=0: tiny nests on the kernels too, as tests/float runs it).
set -eu
cc=$1 plugin=$2 inc=$3 lib=$4 work=$5
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work"
exe=$work/float_nests
# shellcheck disable=SC2086  # CC may carry --target=
# -ffp-contract=off: the fallback (the loop as written) is compared with
# the reference bit for bit, and AArch64 has fused multiply-add: whether
# the compiler fuses `s += a*b` may differ between the two copies of a
# loop (clang fused the fallback's and vectorized the reference's without)
$cc -O2 -ffp-contract=off -fplugin="$plugin" -I"$inc" "$here/../float/float_nests.c" -o "$exe" \
    -L"$lib" -lmixprec -lm -Wl,-rpath,"$lib"
for t in "" i8mm dotprod scalar; do
  echo "== MIXPREC_TARGET=$t"
  QEMU_CPU=${QEMU_CPU:-max} MIXPREC_SMALL=0 MIXPREC_TARGET=$t qemu-aarch64 -L /usr/aarch64-linux-gnu "$exe"
done
