#!/bin/sh
# gc-stress.sh CC PLUGIN INCLUDE_DIR FILES... -- compile each file with the
# GCC plugin while the garbage collector runs at every opportunity: trees
# the plugin keeps across functions must be GC roots, or this crashes.
set -eu
cc=$1; plugin=$2; inc=$3; shift 3
corpus=$(dirname "$1")
for f in "$@"; do
	"$cc" -O2 --param ggc-min-expand=0 --param ggc-min-heapsize=0 -I"$inc" -I"$corpus" \
	      -fplugin="$plugin" -w -c "$f" -o /dev/null ||
		{ echo "FAIL: $f"; exit 1; }
done
echo "PASS: $# files compiled under GC stress"
