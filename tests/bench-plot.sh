#!/bin/sh
# bench-plot.sh BENCH_GEMM ROOT WORK -- bench_gemm's CSV (a short run) and
# scripts/plot-bench.sh's SVG from it: one row per shape with every column,
# the ceiling measured where the CPU has AVX512-VNNI, a plot naming the
# series.  Exit 77 (skipped) without gnuplot.
set -eu
BENCH=$1 ROOT=$2 WORK=$3
command -v gnuplot >/dev/null 2>&1 || { echo "SKIP: gnuplot not installed"; exit 77; }
rm -rf "$WORK"
mkdir -p "$WORK"
OMP_NUM_THREADS=1 "$BENCH" 0.005 "$WORK/bench_gemm.csv" >"$WORK/out.txt"
head -1 "$WORK/bench_gemm.csv" |
  grep -qx 'shape,M,N,K,plain,plugin,mp_avx512vnni,mp_avx2,mp_scalar,onednn,openblas_sgemm,ceiling' ||
  { echo "FAIL: CSV header"; head -1 "$WORK/bench_gemm.csv"; exit 1; }
rows=$(awk -F, 'NR > 1 && NF == 12 && $5 > 0 && $6 > 0 && $10 > 0' "$WORK/bench_gemm.csv" | wc -l)
[ "$rows" -ge 5 ] || { echo "FAIL: $rows complete rows"; cat "$WORK/bench_gemm.csv"; exit 1; }
if grep -q avx512_vnni /proc/cpuinfo; then
  awk -F, 'NR > 1 && !($12 > 50) { bad = 1 } END { exit bad }' "$WORK/bench_gemm.csv" ||
    { echo "FAIL: no ceiling measured"; exit 1; }
fi
sh "$ROOT/scripts/plot-bench.sh" "$WORK"
grep -q "mixprec kernels" "$WORK/bench_gemm.svg" && grep -q "oneDNN" "$WORK/bench_gemm.svg" ||
  { echo "FAIL: the plot lacks its series"; exit 1; }
echo "PASS: $rows rows, $WORK/bench_gemm.svg"
