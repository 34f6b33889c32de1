#!/bin/sh
# run.sh -- the main job from a fresh Debian 12 machine: install the
# dependencies, build and install mixprec into ./_install, compile the
# samples with and without the plugin exactly as a user would (pkg-config),
# check that each pair agrees bit for bit, print the speedups, then the
# one-thread GEMM benchmark against oneDNN.
set -eu
cd "$(dirname "$0")/.."
sh scripts/deps.sh
ROOT=$(pwd)
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j"$(nproc)"
cmake --install build --prefix "$ROOT/_install" >/dev/null
export PKG_CONFIG_PATH="$ROOT/_install/lib/pkgconfig:$ROOT/_install/lib/x86_64-linux-gnu/pkgconfig"
PLUGIN=$(pkg-config --variable=gcc_plugin mixprec)
CFLAGS=$(pkg-config --cflags mixprec)
LIBS=$(pkg-config --libs mixprec)
OUT="$ROOT/_samples"
mkdir -p "$OUT"
status=0
for s in dense_requant gemm_ikj matvec_zp conv_onnx2c; do
  echo "== samples/$s.c"
  gcc -O3 -march=native $CFLAGS samples/$s.c -o "$OUT/${s}_plain" $LIBS
  gcc -O3 -march=native -fplugin="$PLUGIN" -fopt-info-loop-optimized $CFLAGS \
      samples/$s.c -o "$OUT/${s}_mixprec" $LIBS 2>"$OUT/$s.remarks"
  grep mixprec "$OUT/$s.remarks" || true
  sh scripts/compare-sample.sh "$OUT/${s}_plain" "$OUT/${s}_mixprec" || status=1
done
# CSV files and plots (scripts/plot-bench.sh, gnuplot) in build/bench-results
RESULTS="$ROOT/build/bench-results"
mkdir -p "$RESULTS"
if [ -x build/bench/bench_gemm ]; then
  echo "== bench/bench_gemm (one thread; GOP/s = 2*M*N*K/s)"
  build/bench/bench_gemm 0.25 "$RESULTS/bench_gemm.csv"
fi
if [ -x build/bench/bench_lp ]; then
  echo "== bench/bench_lp (float sources at lower precision vs OpenBLAS sgemm, one thread)"
  build/bench/bench_lp 3
fi
if [ -x build/bench/bench_conv ]; then
  echo "== bench/bench_conv (int8 3x3 convolutions, NHWC: plain loop, plugin build, oneDNN convolution)"
  OMP_NUM_THREADS=1 build/bench/bench_conv 21 || status=1
fi
if [ -x build/bench/bench_dw ]; then
  echo "== bench/bench_dw (int8 depthwise 3x3, NHWC, padding in the loop: plain loop, plugin build, oneDNN grouped convolution)"
  OMP_NUM_THREADS=1 build/bench/bench_dw 21 || status=1
fi
if [ -x build/bench/bench_attn ]; then
  echo "== bench/bench_attn (batched int8 attention scores: plain loop, plugin build, oneDNN matmul)"
  OMP_NUM_THREADS=1 build/bench/bench_attn 11 || status=1
fi
if [ -x build/bench/bench_dense ]; then
  echo "== bench/bench_dense (int8 dense layer, new activations, same weights: with and without constant=w)"
  OMP_NUM_THREADS=1 build/bench/bench_dense 21 || status=1
fi
if [ -x build/bench/bench_shapes ]; then
  echo "== bench/bench_shapes (int8 GEMMs of small constant shapes, 2000 operand sets: plain loop, plugin build, oneDNN)"
  OMP_NUM_THREADS=1 build/bench/bench_shapes 11 || status=1
fi
if [ -x build/bench/bench_polybench ]; then
  echo "== bench/bench_polybench (PolyBench/C 4.2.1 kernels as written, float at bf16, plain build vs plugin build)"
  OMP_NUM_THREADS=1 build/bench/bench_polybench 5 || status=1
fi
if [ -x build/bench/bench_blockq ]; then
  echo "== bench/bench_blockq (llama2.c's block-quantized matmul, plain build vs plugin build)"
  OMP_NUM_THREADS=1 build/bench/bench_blockq 21 || status=1
  echo "== bench/bench_blockq, OMP_NUM_THREADS=2 (the plain build of runq.c as published on 2 threads)"
  OMP_NUM_THREADS=2 build/bench/bench_blockq 21 || status=1
fi
if [ -x build/bench/bench_threads ]; then
  echo "== bench/bench_threads (2 threads against 1: mixprec, oneDNN, OpenBLAS)"
  build/bench/bench_threads 2 1 "$RESULTS/bench_threads.csv" || status=1
fi
echo "== scripts/plot-bench.sh (throughput against size, thread scaling: SVG from the CSV files)"
sh scripts/plot-bench.sh "$RESULTS" || status=1
echo "== scripts/auto-example.sh (#pragma mixprec(auto): profile, mixprec-tune's front, the chosen assignment measured; docs/precision.md)"
sh scripts/auto-example.sh || status=1
exit $status
