#!/bin/sh
# Runs one libFuzzer target of tests/fuzz on its seed corpus and dictionary, with the limits
# docs/fuzzing.md lists. New inputs go to a scratch corpus (the seeds in the tree are only read),
# findings to ARTIFACTS (default: the current directory).
#   tests/fuzz/run_fuzzer.sh BUILD_DIR TARGET SECONDS [ARTIFACTS] [more libFuzzer flags]
set -eu
if [ $# -lt 3 ]; then
  echo "usage: $0 BUILD_DIR TARGET SECONDS [ARTIFACTS] [libFuzzer flags]" >&2
  exit 2
fi
build=$1 target=$2 seconds=$3
artifacts=${4:-.}
[ $# -ge 4 ] && shift 4 || shift 3
here=$(cd "$(dirname "$0")" && pwd)
case $target in
  predicate) max_len=512 ;;
  pattern | npy | runtime) max_len=1024 ;;
  manifest | safetensors | onnx | region_merging) max_len=4096 ;;
  relay_text | kernel_graph | target | partition) max_len=8192 ;;
  json_module) max_len=16384 ;;
  *) echo "$0: unknown target '$target'" >&2; exit 2 ;;
esac
dict=
[ -f "$here/dict/$target.dict" ] && dict=-dict=$here/dict/$target.dict
scratch=${FUZZ_SCRATCH:-${TMPDIR:-/tmp}/byoc-fuzz-corpus}/$target
mkdir -p "$scratch" "$artifacts"
exec "$build/tests/fuzz/fuzz_$target" -max_len=$max_len -timeout=10 -rss_limit_mb=4096 \
  -max_total_time="$seconds" -artifact_prefix="${artifacts%/}/" $dict "$@" "$scratch" "$here/corpus/$target"
