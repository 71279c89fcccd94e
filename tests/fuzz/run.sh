#!/usr/bin/env bash
# Run every fuzz target (or those named) for a fixed time each, one after the other, and
# print a table of executions and time per target. Used by `make fuzz` / `make fuzz-quick`.
#
#   tests/fuzz/run.sh SECONDS [TARGET...]
#
# Environment: CARGO_FUZZ (the cargo-fuzz binary), FUZZ_BUILD (`--release`, the default, or
# `--dev`: tests/fuzz/Cargo.toml's quicker-to-build profile), FUZZ_TARGET_DIR (cargo target dir; the
# working corpora grow under it, seeded from tests/fuzz/corpus/<target>). A crash or a
# failed invariant stops the run with libFuzzer's report; the input that did it is in
# tests/fuzz/artifacts/<target>/.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:?usage: run.sh SECONDS [TARGET...]}
shift
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(files_query fts5_escape sessions_jsonl markdown_sections identifier_split c_abi_call mcp_handle)
cargo_fuzz=${CARGO_FUZZ:-cargo-fuzz}
target_dir=${FUZZ_TARGET_DIR:-$PWD/target/fuzz}
build=${FUZZ_BUILD:---release}
export RUSTC_BOOTSTRAP=1

# Longest input per target: a few transcript lines, one request, one query.
max_len() {
  case $1 in
    sessions_jsonl) echo 16384 ;;
    markdown_sections) echo 8192 ;;
    c_abi_call | mcp_handle) echo 1024 ;;
    *) echo 4096 ;;
  esac
}

printf '%-18s %12s %8s %9s %7s\n' target executions seconds 'exec/s' corpus
total_runs=0
for t in "${targets[@]}"; do
  work="$target_dir/corpus/$t"
  log="$target_dir/logs/$t.log"
  mkdir -p "$work" "$(dirname "$log")"
  start=$(date +%s.%N)
  if ! "$cargo_fuzz" run --fuzz-dir tests/fuzz --sanitizer none --debug-assertions "$build" \
      --target-dir "$target_dir" "$t" "$work" "tests/fuzz/corpus/$t" -- \
      -max_total_time="$seconds" -max_len="$(max_len "$t")" -timeout=60 \
      -print_final_stats=1 >"$log" 2>&1; then
    echo "fuzz target $t failed; the end of its log ($log):" >&2
    tail -n 60 "$log" >&2
    exit 1
  fi
  end=$(date +%s.%N)
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  elapsed=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
  corpus=$(find "$work" -type f | wc -l)
  printf '%-18s %12s %8s %9s %7s\n' "$t" "$runs" "$elapsed" \
    "$(awk -v r="$runs" -v s="$seconds" 'BEGIN { printf "%d", r / s }')" "$corpus"
  total_runs=$((total_runs + runs))
done
echo "fuzzing: ${#targets[@]} targets, $total_runs executions, ${seconds} s each, no crash"
