#!/usr/bin/env bash
# The `@` picker's command on every install path, timed in one run against the spec's
# client: each path is installed for real (release builds) into a directory of its own,
# `install claude` is run there, and the program it wrote is handed to the hooks bench
# (bindings/node/bench/hooks-bench.js --hook PATH=PROGRAM), which times them all beside
# the specification's Bun + bun:sqlite client on the same trees.
#
#   pip wheel    the wheel `python -m build` makes through the package's backend
#   pip source   pip install bindings/python
#   pip git      pip install git+file://<bare clone of HEAD>#subdirectory=bindings/python
#   pip sdist    pip install of the sdist `python -m build --sdist` makes
#   npm          npm pack of bindings/node (build:release), npm install <tarball>
#   make install make install PREFIX=… (release)
#
# Needs `make setup` (the virtualenv with maturin and build; node_modules with Bun) and the
# release builds `make bench` makes first (each path then reuses them: minutes the first
# time, seconds after). Arguments go to hooks-bench.js (e.g. --quick, --rounds N).
#
#   bindings/hook/bench/install-paths.sh [hooks-bench options]
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$root/target}
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1
venv=$root/.venv
unset CLAUDE_PROJECT_DIR

# The program `install claude` (the given command line) wrote as the fileSuggestion
# command; it must be a native program run as `PROGRAM file-suggestion`.
written() {
  local name=$1 config=$work/claude-$1 command
  shift
  CLAUDE_CONFIG_DIR=$config "$@" install claude >/dev/null
  command=$("$venv/bin/python" -c 'import json, sys; print(json.load(open(sys.argv[1]))["fileSuggestion"]["command"])' "$config/settings.json")
  case $command in
    */cc-search-hook\ file-suggestion) printf '%s\n' "${command% file-suggestion}" ;;
    *) echo "install-paths: $name: install claude wrote \`$command\`, not the native program" >&2; exit 1 ;;
  esac
}

step() { echo "--- install-paths: $*" >&2; }
hooks=()

step "pip: wheel and sdist (python -m build, release)"
PATH=$venv/bin:$PATH "$venv/bin/python" -m build --no-isolation --outdir "$work/dist" \
  "$root/bindings/python" >"$work/build.log" 2>&1 || { tail -20 "$work/build.log"; exit 1; }
python3 -m venv "$work/wheel"
"$work/wheel/bin/pip" install --quiet "$work"/dist/*.whl
hooks+=(--hook "pip-wheel=$(written wheel "$work/wheel/bin/cc-search")")

step "pip: source tree (release)"
python3 -m venv "$work/source"
"$work/source/bin/pip" install --quiet "$root/bindings/python"
hooks+=(--hook "pip-source=$(written source "$work/source/bin/cc-search")")

step "pip: git+file:// of a bare clone of HEAD (release)"
git clone --quiet --bare "$root" "$work/repo.git"
python3 -m venv "$work/git"
"$work/git/bin/pip" install --quiet "git+file://$work/repo.git#subdirectory=bindings/python"
hooks+=(--hook "pip-git=$(written git "$work/git/bin/cc-search")")

step "pip: the sdist (release)"
python3 -m venv "$work/sdist"
"$work/sdist/bin/pip" install --quiet "$work"/dist/*.tar.gz
hooks+=(--hook "pip-sdist=$(written sdist "$work/sdist/bin/cc-search")")

step "npm: npm pack of the release build, npm install <tarball>"
(cd "$root/bindings/node" && npm run --silent build:release)
tarball=$work/$(npm pack --silent --pack-destination "$work" "$root/bindings/node")
mkdir "$work/app"
printf '{"name": "app", "version": "1.0.0", "private": true}\n' >"$work/app/package.json"
(cd "$work/app" && npm install --silent --no-audit --no-fund "$tarball")
hooks+=(--hook "npm=$(cd "$work/app" && HOME=$work/npm-home written npm npx --no-install cc-search)")

step "make install (release)"
make --no-print-directory -C "$root" install PREFIX="$work/prefix" PROFILE=release >/dev/null
hooks+=(--hook "make-install=$work/prefix/bin/cc-search-hook")

step "the hooks bench, every path in one run"
node "$root/bindings/node/bench/hooks-bench.js" "${hooks[@]}" "$@"
