#!/usr/bin/env bash
# Run every example against a fresh project and check what it prints.
# Expects the debug builds from `make python node` (and builds the Rust and C ones).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

project=$work/project
mkdir -p "$project/src/components"
touch "$project/src/components/Button.tsx" "$project/src/components/Modal.tsx" "$project/README.md"
expected=$'src/components/Modal.tsx\nsrc/components/Button.tsx'

check() { # name, actual output
  if [ "$2" != "$expected" ]; then
    printf 'example %s printed:\n%s\nexpected:\n%s\n' "$1" "$2" "$expected" >&2
    exit 1
  fi
  echo "example $1: ok"
}

export CC_SEARCH_HOME=$work/home-rust
check rust "$(cargo run --quiet -p cc-search-example -- "$project" src/comp)"

cargo build --quiet -p cc-search-ffi
lib=${CARGO_TARGET_DIR:-$root/target}/debug
gcc -std=c11 -Wall -Wextra -Werror -o "$work/example-c" "$root/examples/c/example.c" \
  -I "$root/include" -L "$lib" -lcc_search
export CC_SEARCH_HOME=$work/home-c
check c "$(LD_LIBRARY_PATH=$lib "$work/example-c" "$project" src/comp \
  | "$root/.venv/bin/python" -c 'import json,sys; print("\n".join(json.load(sys.stdin)["paths"]))')"

# The Python and Node examples print "@<query>" and then each path indented.
paths_after_query() { sed -n '/^@src\/comp$/,/^@/p' | sed -n 's/^  //p'; }

export CC_SEARCH_HOME=$work/home-python
check python "$("$root/.venv/bin/python" "$root/examples/python/example.py" "$project" src/comp | paths_after_query)"
export CC_SEARCH_HOME=$work/home-node
check node "$(node "$root/examples/node/example.mjs" "$project" src/comp | paths_after_query)"
export CC_SEARCH_HOME=$work/home-bun
check bun "$("$root/bindings/node/node_modules/.bin/bun" "$root/examples/node/example.mjs" "$project" src/comp | paths_after_query)"
