#!/usr/bin/env bash
# The cargo that `napi build` runs (package.json sets CARGO to this script).
#
# napi always passes `--target <triple>`, even for the machine it runs on. An explicit
# target puts every artifact under target/<triple>/, apart from the tests', the C
# library's and the Python module's builds, so the whole dependency tree (the core above
# all) would be compiled a second time. Built for the host, the addon shares all of it
# and only its own crate compiles. napi then copies the addon from
# target/<triple>/<profile>/, so it is put there too. Any other target goes to cargo
# unchanged.
set -euo pipefail
unset CARGO
host=$(rustc -vV | sed -n 's/^host: //p')
args=()
profile=debug
for_host=0
while [ $# -gt 0 ]; do
  case $1 in
    --target)
      if [ "$2" = "$host" ]; then
        for_host=1
        shift 2
        continue
      fi
      ;;
    --release) profile=release ;;
    --profile) [ "$2" = dev ] && profile=debug || profile=$2 ;;
  esac
  args+=("$1")
  shift
done
cargo "${args[@]}"
if [ "$for_host" = 1 ] && [ "${args[0]:-}" = build ]; then
  root=$(cd "$(dirname "$0")/../.." && pwd)
  target=${CARGO_TARGET_DIR:-$root/target}
  mkdir -p "$target/$host/$profile"
  for lib in "$target/$profile"/libcc_search_node.*; do
    case $lib in *.d | *.rlib) continue ;; esac
    cp -f "$lib" "$target/$host/$profile/"
  done
fi
