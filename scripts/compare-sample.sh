#!/bin/sh
# compare-sample.sh PLAIN MIXPREC -- run a sample built without and with the
# plugin; fail unless the checksums agree and the plugin build ran its nest
# on the kernels.  Prints both times and the speedup.
set -eu
plain=$("$1") || { echo "FAIL: $1 exited $?"; exit 1; }
fast=$(MIXPREC_STATS=1 "$2" 2>&1) || { echo "FAIL: $2 exited $?"; exit 1; }
cp=$(echo "$plain" | grep checksum); cf=$(echo "$fast" | grep checksum)
tp=$(echo "$plain" | sed -n 's/^time \([0-9.e-]*\) s.*/\1/p')
tf=$(echo "$fast" | sed -n 's/^time \([0-9.e-]*\) s.*/\1/p')
echo "plain:   $cp  ($tp s)"
echo "mixprec: $cf  ($tf s)"
if [ "$cp" != "$cf" ]; then echo "FAIL: results differ"; exit 1; fi
echo "$fast" | grep -q "mixprec: fast=[1-9]" || { echo "FAIL: the plugin build did not run its nest on the kernels"; echo "$fast"; exit 1; }
awk -v a="$tp" -v b="$tf" 'BEGIN { printf "speedup %.1fx\n", a / b }'
