#!/bin/sh
# Build the native hook program (cc-search-hook) and copy it into each DIR, where a
# package ships it: the Python wheel's scripts (bindings/python/cc_search._native.data/
# scripts, installed next to the `cc-search` command) and the npm package's hooks/.
#
#   bindings/hook/ship.sh [--release] DIR...
#
# Debug by default, like the tests; --release for benchmarks and distribution. The copy
# replaces the file by renaming, so a copy that is running keeps working.
set -eu
profile=dev
if [ "${1:-}" = --release ]; then
  profile=release
  shift
fi
root=$(cd "$(dirname "$0")/../.." && pwd)
cargo build --quiet --manifest-path "$root/Cargo.toml" -p cc-search-hook --profile "$profile"
target=$(cargo metadata --quiet --format-version 1 --no-deps --manifest-path "$root/Cargo.toml" |
  sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
[ "$profile" = dev ] && built=$target/debug/cc-search-hook || built=$target/release/cc-search-hook
[ -x "$built" ] || { echo "ship.sh: no $built after the build" >&2; exit 1; }
for dir in "$@"; do
  mkdir -p "$dir"
  cp "$built" "$dir/.cc-search-hook.$$"
  mv -f "$dir/.cc-search-hook.$$" "$dir/cc-search-hook"
done
