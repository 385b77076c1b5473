#!/bin/bash
# End-to-end latency of every zoo model (see bench/zoo/export_zoo.py), side by side in one run, on
# the same input (the model's input.npy) and thread count:
#
#   dnnl   BYOC Studio, partitioned for the built-in dnnl target (byoc run --target dnnl)
#   ref    BYOC Studio, the unpartitioned model on its reference kernels (byoc run)
#   ort    ONNX Runtime's CPU provider through npm's onnxruntime-node (ort_bench.js)
#   torch  PyTorch eager mode, Debian's python3-torch, the model rebuilt from the zoo script with
#          the same seed and checked against the saved output (torch_bench.py); OpenBLAS
#          (libopenblas0-openmp) is preloaded as its BLAS when installed
#
# Every peer runs a model whole: ssdlite320_mobilenet_v3_large_full includes torchvision's image
# pre-processing and its detection post-processing (per-class score filtering, TopK, non-maximum
# suppression), which ONNX Runtime and our host run after the network; its outputs are compared
# with PyTorch's by bench/zoo/compare_detections.py (docs/dynamic-shapes.md).
#
# int8: for every model whose QDQ version bench/zoo/quantize_zoo.py wrote (<zoo>/<model>_int8),
# a second table runs, side by side, BYOC Studio's dnnl target on the QDQ model, ONNX Runtime on
# the same QDQ model and BYOC Studio's dnnl target on the float32 model, with the ratios int8/ort
# (below 1: faster than ONNX Runtime's int8) and fp32/int8 (the speed-up over our float32).
#
# Each peer does one warm-up run, then times RUNS runs (the reference kernels at most REF_RUNS);
# the table shows the median milliseconds of each and its ratio to ONNX Runtime. A peer that fails
# shows `-` and its error is printed under the table. Every tool runs alone, one after the other.
#
# dnnl, the reference kernels and PyTorch run on libgomp's OpenMP pool, ONNX Runtime on its own.
# On a machine shared with other work, libgomp's default spin-waiting makes a thread whose partner
# was descheduled wait whole scheduler ticks at every barrier; run with OMP_WAIT_POLICY=PASSIVE
# there (the environment is passed to every peer, and the table's header shows the policy). On a
# quiet machine keep the default: a passive pool pays a wake-up at every parallel region.
#
# With --rounds R, every peer of a model runs R times, one after the other in turn (dnnl, ort, ...,
# then again), and the table shows the median of each peer's R medians; the ratio of each round is
# listed under the table, so that a machine's drift shows as spread rather than as a difference.
# The reference kernels run in the first round only.
#
# Usage: bench/latency/run.sh [--runs N] [--rounds R] [--threads T] [--reference-runs R]
#                             [--skip-reference] [--skip-torch] [--skip-int8] [--zoo DIR]
#                             [--byoc PATH] [MODEL ...]
#   --runs N            timed runs per peer (default 20)
#   --rounds R          times each peer is measured, in turn with the others (default 1)
#   --threads T         threads of every peer (default 2)
#   --reference-runs R  cap on the reference kernels' timed runs (default 3)
#   --skip-reference    do not run the reference kernels (they are slow on the large models)
#   --skip-torch        do not run PyTorch
#   --skip-int8         do not run the int8 table
#   --zoo DIR           the exported zoo (default ~/.cache/byoc-zoo)
#   --byoc PATH         the byoc executable (default build/release/app/byoc)
#   MODEL ...           only these models (default: every float model directory of the zoo that
#                       has an input.npy; a dynamic model's directory has one per sequence length)
#
# ONNX Runtime is installed into bench/latency/node (ignored by git) on first use with
#   ONNXRUNTIME_NODE_INSTALL=skip npm install --prefix bench/latency/node onnxruntime-node
set -u

here=$(cd "$(dirname "$0")" && pwd)
runs=20
rounds=1
threads=2
ref_runs=3
skip_reference=0
skip_torch=0
skip_int8=0
zoo=$HOME/.cache/byoc-zoo
byoc=build/release/app/byoc
models=()

usage() {
  sed -n '/^# Usage:/,/^#   MODEL/s/^# \{0,1\}//p' "$0" >&2
  exit 2
}

positive() {
  [[ $2 =~ ^[1-9][0-9]*$ ]] || { echo "error: $1: expected a positive integer, got '$2'" >&2; exit 2; }
  echo "$2"
}

while [ $# -gt 0 ]; do
  case $1 in
    --runs) runs=$(positive "$1" "${2-}") || exit 2; shift 2 ;;
    --rounds) rounds=$(positive "$1" "${2-}") || exit 2; shift 2 ;;
    --threads) threads=$(positive "$1" "${2-}") || exit 2; shift 2 ;;
    --reference-runs) ref_runs=$(positive "$1" "${2-}") || exit 2; shift 2 ;;
    --skip-reference) skip_reference=1; shift ;;
    --skip-torch) skip_torch=1; shift ;;
    --skip-int8) skip_int8=1; shift ;;
    --zoo) zoo=${2:?--zoo needs a directory}; shift 2 ;;
    --byoc) byoc=${2:?--byoc needs a path}; shift 2 ;;
    -h|--help) usage ;;
    -*) echo "error: unknown option $1" >&2; usage ;;
    *) models+=("$1"); shift ;;
  esac
done

[ -x "$byoc" ] || { echo "error: $byoc: no byoc executable (build it, or pass --byoc PATH)" >&2; exit 2; }
[ -d "$zoo" ] || { echo "error: $zoo: no zoo (export it with bench/zoo/export_zoo.py)" >&2; exit 2; }
skipped=()
if [ ${#models[@]} -eq 0 ]; then
  for dir in "$zoo"/*/; do
    case $(basename "$dir") in
      *_int8) ;;
      # A dynamic model's directory holds an input per sequence length, no input.npy to time.
      *) if [ -e "$dir/input.npy" ]; then models+=("$(basename "$dir")"); else skipped+=("$(basename "$dir")"); fi ;;
    esac
  done
fi
if [ ! -d "$here/node/node_modules/onnxruntime-node" ]; then
  echo "installing onnxruntime-node into $here/node" >&2
  ONNXRUNTIME_NODE_INSTALL=skip npm install --silent --prefix "$here/node" onnxruntime-node >&2 ||
    { echo "error: npm install of onnxruntime-node failed" >&2; exit 1; }
fi
openblas=/usr/lib/x86_64-linux-gnu/openblas-openmp/libblas.so.3
torch_preload=
[ -e "$openblas" ] && torch_preload=$openblas

export OMP_NUM_THREADS=$threads
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

# Runs one peer: `measure LOG COMMAND...` prints its median milliseconds, or `-` when it failed
# (and adds its error line, or its last line, to the failure list printed under the table).
measure() {
  local log=$1
  shift
  local median=
  if "$@" >"$log" 2>&1; then
    median=$(sed -n -e 's/^  median \([0-9.e+-]*\) ms.*/\1/p' -e 's/^median \([0-9.e+-]*\) p90.*/\1/p' "$log" | head -n 1)
  fi
  if [ -z "$median" ]; then
    echo "  $(basename "$log"): $(grep -m 1 '^error' "$log" || tail -n 1 "$log")" >>"$logs/failures"
    median=-
  fi
  echo "$median"
}

# `ratio A B` prints A/B to two decimals, or `-` when either is missing.
ratio() {
  if [ "$1" = - ] || [ "$2" = - ]; then echo -; else awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; fi
}

# `median V...` prints the median of the values that are not `-`, or `-` when none is.
median() {
  local values
  values=$(printf '%s\n' "$@" | grep -v '^-$' | sort -g)
  if [ -z "$values" ]; then echo -; return; fi
  awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }' <<<"$values"
}

# `ms V` prints a median with three significant digits, or `-`.
ms() {
  if [ "$1" = - ]; then echo -; else awk -v v="$1" 'BEGIN { printf (v < 10 ? "%.3f" : v < 100 ? "%.2f" : "%.1f"), v }'; fi
}

echo "latency: median ms of $runs runs (reference kernels: $(( ref_runs < runs ? ref_runs : runs ))) after 1 warm-up, $threads thread(s), batch 1$( [ "$rounds" -gt 1 ] && echo "; median of $rounds rounds")"
echo "torch BLAS: ${torch_preload:-the system default}"
echo "OpenMP wait policy: ${OMP_WAIT_POLICY:-the libgomp default}"
echo "machine: $(getconf _NPROCESSORS_ONLN) CPU(s), load average $(cut -d ' ' -f 1-3 /proc/loadavg) at the start"
[ ${#skipped[@]} -gt 0 ] && echo "not timed (no input.npy): ${skipped[*]}"
printf '%-30s %10s %10s %10s %10s %9s %9s %9s\n' model dnnl ref ort torch dnnl/ort ref/ort torch/ort
for name in "${models[@]}"; do
  dir=$zoo/$name
  input=input=$dir/input.npy
  dnnls=() refs=() orts=() torches=() ratios=()
  for ((round = 1; round <= rounds; ++round)); do
    dnnl=$(measure "$logs/$name.dnnl" "$byoc" run "$dir/model.onnx" --target dnnl --input "$input" \
      --bench "$runs" --threads "$threads")
    ref=-
    if [ $skip_reference = 0 ] && [ $round = 1 ]; then
      ref=$(measure "$logs/$name.ref" "$byoc" run "$dir/model.onnx" --input "$input" \
        --bench "$(( ref_runs < runs ? ref_runs : runs ))" --threads "$threads")
    fi
    ort=$(measure "$logs/$name.ort" node "$here/ort_bench.js" "$dir/model.onnx" "$dir/input.npy" "$runs" "$threads")
    torch=-
    if [ $skip_torch = 0 ]; then
      torch=$(measure "$logs/$name.torch" env ${torch_preload:+LD_PRELOAD=$torch_preload} \
        /usr/bin/python3 "$here/torch_bench.py" "$name" "$dir" "$runs" "$threads")
    fi
    dnnls+=("$dnnl") refs+=("$ref") orts+=("$ort") torches+=("$torch") ratios+=("$(ratio "$dnnl" "$ort")")
  done
  dnnl=$(median "${dnnls[@]}") ref=$(median "${refs[@]}") ort=$(median "${orts[@]}") torch=$(median "${torches[@]}")
  printf '%-30s %10s %10s %10s %10s %9s %9s %9s\n' "$name" "$(ms "$dnnl")" "$(ms "$ref")" "$(ms "$ort")" \
    "$(ms "$torch")" "$(ratio "$dnnl" "$ort")" "$(ratio "$ref" "$ort")" "$(ratio "$torch" "$ort")"
  [ "$rounds" -gt 1 ] && echo "  $name: ${ratios[*]}" >>"$logs/rounds"
done
if [ -e "$logs/rounds" ]; then
  printf '\ndnnl/ort of each round:\n'
  cat "$logs/rounds"
  rm "$logs/rounds"
fi

# The int8 table: our dnnl target on the QDQ model, ONNX Runtime on it, our dnnl target in float32.
int8_models=()
if [ $skip_int8 = 0 ]; then
  for name in "${models[@]}"; do [ -e "$zoo/${name}_int8/model.onnx" ] && int8_models+=("$name"); done
fi
if [ ${#int8_models[@]} -gt 0 ]; then
  printf '\nint8 (QDQ models of bench/zoo/quantize_zoo.py, <model>_int8), median ms\n'
  printf '%-30s %10s %10s %10s %9s %9s\n' model dnnl-int8 ort-int8 dnnl-fp32 int8/ort fp32/int8
fi
for name in "${int8_models[@]}"; do
  dir=$zoo/${name}_int8
  int8s=() orts=() fp32s=() ratios=()
  for ((round = 1; round <= rounds; ++round)); do
    int8=$(measure "$logs/$name.int8.dnnl" "$byoc" run "$dir/model.onnx" --target dnnl --input "input=$dir/input.npy" \
      --bench "$runs" --threads "$threads")
    ort=$(measure "$logs/$name.int8.ort" node "$here/ort_bench.js" "$dir/model.onnx" "$dir/input.npy" "$runs" "$threads")
    fp32=$(measure "$logs/$name.fp32.dnnl" "$byoc" run "$zoo/$name/model.onnx" --target dnnl \
      --input "input=$zoo/$name/input.npy" --bench "$runs" --threads "$threads")
    int8s+=("$int8") orts+=("$ort") fp32s+=("$fp32") ratios+=("$(ratio "$int8" "$ort")")
  done
  int8=$(median "${int8s[@]}") ort=$(median "${orts[@]}") fp32=$(median "${fp32s[@]}")
  printf '%-30s %10s %10s %10s %9s %9s\n' "$name" "$(ms "$int8")" "$(ms "$ort")" "$(ms "$fp32")" \
    "$(ratio "$int8" "$ort")" "$(ratio "$fp32" "$int8")"
  [ "$rounds" -gt 1 ] && echo "  $name: ${ratios[*]}" >>"$logs/rounds"
done
if [ -e "$logs/rounds" ]; then
  printf '\nint8/ort of each round:\n'
  cat "$logs/rounds"
fi

[ -e "$logs/failures" ] || exit 0
printf '\nfailures:\n'
cat "$logs/failures"
exit 1
