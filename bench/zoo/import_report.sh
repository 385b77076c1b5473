#!/bin/sh
# Imports every model of the zoo (see export_zoo.py) with `byoc info` and prints, per model, whether
# it imported and type-checked, its IR node count, its number of distinct ops, and the wall time of
# loading, importing and type-checking it.
#
# Usage: bench/zoo/import_report.sh [ZOO_DIR] [BYOC]
#   ZOO_DIR defaults to ~/.cache/byoc-zoo; BYOC to build/release/app/byoc.
set -u
zoo=${1:-$HOME/.cache/byoc-zoo}
byoc=${2:-build/release/app/byoc}
info=$(mktemp)
trap 'rm -f "$info"' EXIT
printf '%-32s %-8s %8s %6s %9s\n' model status nodes ops seconds
for dir in "$zoo"/*/; do
  name=$(basename "$dir")
  start=$(date +%s.%N)
  if "$byoc" info "$dir/model.onnx" >"$info" 2>&1; then status=ok; else status=FAILED; fi
  end=$(date +%s.%N)
  nodes=$(sed -n 's/^nodes: //p' "$info")
  ops=$(sed -n '/^ops:/,/^constants:/p' "$info" | grep -c '^  ')
  printf '%-32s %-8s %8s %6s %9.2f\n' "$name" "$status" "${nodes:--}" "$ops" "$(echo "$end - $start" | bc)"
  [ "$status" = ok ] || sed 's/^/    /' "$info"
done
