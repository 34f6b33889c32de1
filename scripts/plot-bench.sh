#!/bin/sh
# plot-bench.sh [DIR] -- draws the benchmarks' CSV files in DIR (default
# build/bench-results, written by scripts/run.sh) with gnuplot (Debian
# package gnuplot-nox, installed by scripts/deps.sh):
#   bench_gemm.csv    -> bench_gemm.svg: int8 GEMM throughput against size
#                        (M = N = K), one thread: mixprec's kernels, the loop
#                        built with the plugin, oneDNN, OpenBLAS sgemm on the
#                        same operands in float, the plain loop and the
#                        vpdpbusd issue-rate ceiling;
#   bench_threads.csv -> bench_threads.svg: GOP/s on 1 and N threads per
#                        case and method (mixprec, oneDNN, OpenBLAS).
# Without gnuplot it says so and leaves the CSV files (exit 0).
set -eu
DIR=${1:-build/bench-results}
if ! command -v gnuplot >/dev/null 2>&1; then
  echo "plot-bench.sh: gnuplot not found (apt-get install gnuplot-nox); CSV files in $DIR"
  exit 0
fi
if [ -f "$DIR/bench_gemm.csv" ]; then
  # shape,M,N,K,plain,plugin,mp_avx512vnni,mp_avx2,mp_scalar,onednn,openblas_sgemm,ceiling
  awk -F, 'NR > 1 && $2 == $3 && $3 == $4' "$DIR/bench_gemm.csv" >"$DIR/bench_gemm_cubes.csv"
  gnuplot <<GNUPLOT
set terminal svg size 960,600 dynamic font "sans,12"
set output "$DIR/bench_gemm.svg"
set datafile separator ","
set datafile missing ""
set title "int8 GEMM C = A B (M = N = K), one thread"
set xlabel "M = N = K"
set ylabel "GOP/s (2 M N K / median time)"
set logscale x 2
set logscale y 10
set key outside below
set grid
plot "$DIR/bench_gemm_cubes.csv" using 2:7 with linespoints lw 2 title "mixprec kernels", \
     "" using 2:6 with linespoints title "the loop + plugin", \
     "" using 2:10 with linespoints title "oneDNN s8s8s32", \
     "" using 2:11 with linespoints title "OpenBLAS sgemm (float)", \
     "" using 2:5 with linespoints title "the plain loop, -O3 -march=native", \
     "" using 2:12 with lines dashtype 2 title "vpdpbusd issue-rate ceiling"
GNUPLOT
  echo "plot: $DIR/bench_gemm.svg"
fi
if [ -f "$DIR/bench_threads.csv" ]; then
  # case,method,M,N,K,threads,median_ms,gops,speedup_vs_1
  #   -> "case / method",GOP/s on 1 thread,GOP/s on N threads
  awk -F, 'NR > 1 { k = $1 " / " $2; if (!(k in seen)) { seen[k] = 1; order[++n] = k }
                    if ($6 == 1) g1[k] = $8; else { gn[k] = $8; t = $6 } }
           END { print "case,1," t
                 for (i = 1; i <= n; i++) print "\"" order[i] "\"," g1[order[i]] "," gn[order[i]] }' \
      "$DIR/bench_threads.csv" >"$DIR/bench_threads_bars.csv"
  nt=$(awk -F, 'NR == 1 { print $3 }' "$DIR/bench_threads_bars.csv")
  gnuplot <<GNUPLOT
set terminal svg size 1100,640 dynamic font "sans,11"
set output "$DIR/bench_threads.svg"
set datafile separator ","
set title "GOP/s on 1 and $nt threads (OpenMP: output blocks split, never the reduction)"
set ylabel "GOP/s"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set xtics rotate by -35 left
set key left top
set grid ytics
set bmargin 12
plot "$DIR/bench_threads_bars.csv" every ::1 using 2:xtic(1) title "1 thread", \
     "" every ::1 using 3 title "$nt threads"
GNUPLOT
  echo "plot: $DIR/bench_threads.svg"
fi
