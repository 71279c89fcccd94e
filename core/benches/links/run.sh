#!/usr/bin/env bash
# The link accuracy bench: fetch pinned real projects, index each with the real CLI, ask a
# real resolver (jedi, the TypeScript compiler) where every reference points, and score the
# index's links against those answers. README.md beside this file says what the numbers mean.
#
#   core/benches/links/run.sh [--examples [N]] [--json] [--no-kinds] [PROJECT ...]
#
#   PROJECT          only these (names from the PROJECTS table below); default: all
#   --examples N     after each project's table, up to N wrong links and N misses per language
#   --json           also write target/links-bench/out/summary.json (every project's numbers)
#   --no-kinds       no per-reference-kind rows
#   CC_SEARCH=path   the CLI to test (default: .venv/bin/cc-search of this repository)
#
# Everything it installs or fetches lives in target/links-bench/ (a venv with jedi, a node
# dir with typescript, the downloaded archives, the unpacked projects, the indexes, the
# query / gold / score files); downloads are kept between runs, indexes are made anew.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
WORK="$ROOT/target/links-bench"
CLI="${CC_SEARCH:-$ROOT/.venv/bin/cc-search}"
PY=python3

# ---- pins ----------------------------------------------------------------------------------
JEDI_PINS=(jedi==0.19.2 parso==0.8.4)
# Third-party packages the Python projects import, so jedi resolves them *outside* the project
# (null) instead of not at all ("unknown"). The projects themselves are never installed here.
PY_DEP_PINS=(pygments==2.18.0 markdown-it-py==3.0.0 mdurl==0.1.2 typing_extensions==4.12.2 colorama==0.4.6
             pytest==8.3.3 iniconfig==2.0.0 pluggy==1.5.0 packaging==24.1)
TYPESCRIPT_VERSION=5.9.3

# name | language | registry spec | what to keep of the archive | oracle options
#   python: pip sdist (pip download --no-binary :all:); option: --sys-path dirs (src layout)
#   ts:     npm tarball (npm pack); the kept tree is the program (its tsconfig.json if kept)
PROJECTS=(
  "rich|python|rich==13.9.4|rich|"
  "click|python|click==8.1.8|src tests|--sys-path src"
  "rxjs|ts|rxjs@7.8.1|src tsconfig.json package.json|"
  "mobx|ts|mobx@6.13.5|src package.json|"
)

EXAMPLES=""
JSON=0
KINDS=""
ONLY=()
while [ $# -gt 0 ]; do
  case "$1" in
    --examples)
      if [[ "${2:-}" =~ ^[0-9]+$ ]]; then EXAMPLES="--examples $2"; shift; else EXAMPLES="--examples"; fi ;;
    --json) JSON=1 ;;
    --no-kinds) KINDS="--no-kinds" ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    -*) echo "unknown option $1" >&2; exit 2 ;;
    *) ONLY+=("$1") ;;
  esac
  shift
done

[ -x "$CLI" ] || { echo "no cc-search CLI at $CLI (make python, or CC_SEARCH=...)" >&2; exit 1; }
mkdir -p "$WORK"/{dl,projects,homes,out}
log() { echo "[links] $*" >&2; }

# ---- tools ---------------------------------------------------------------------------------
VENV="$WORK/venv"
pins="${JEDI_PINS[*]} ${PY_DEP_PINS[*]}"
if [ "$(cat "$VENV/.pins" 2>/dev/null)" != "$pins" ]; then
  log "venv: $pins"
  [ -x "$VENV/bin/python" ] || $PY -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "${JEDI_PINS[@]}" "${PY_DEP_PINS[@]}"
  echo "$pins" > "$VENV/.pins"
fi
NODE="$WORK/node"
TS="$NODE/node_modules/typescript"
if [ "$(node -p "require('$TS/package.json').version" 2>/dev/null)" != "$TYPESCRIPT_VERSION" ]; then
  log "node: typescript@$TYPESCRIPT_VERSION"
  mkdir -p "$NODE"
  [ -f "$NODE/package.json" ] || echo '{"private": true}' > "$NODE/package.json"
  (cd "$NODE" && npm install --silent --no-audit --no-fund --save-exact "typescript@$TYPESCRIPT_VERSION")
fi

# ---- one project ---------------------------------------------------------------------------
fetch() { # lang spec -> path of the archive
  local lang="$1" spec="$2" f
  case "$lang" in
    python)
      local name="${spec%%==*}" ver="${spec##*==}"
      f="$(ls "$WORK/dl/$name-$ver".tar.gz 2>/dev/null || true)"
      if [ -z "$f" ]; then
        "$VENV/bin/pip" download --quiet --disable-pip-version-check --no-deps --no-binary :all: \
          "$spec" -d "$WORK/dl" >&2
        f="$(ls "$WORK/dl/$name-$ver".tar.gz)"
      fi ;;
    ts)
      local name="${spec%@*}" ver="${spec##*@}"
      f="$WORK/dl/${name//\//-}-$ver.tgz"; f="${f/@/}"
      if [ ! -f "$f" ]; then
        f="$WORK/dl/$(cd "$WORK/dl" && npm pack --silent "$spec" | tail -1)"
      fi ;;
  esac
  echo "$f"
}

unpack() { # archive keep dest
  local archive="$1" keep="$2" dest="$3" tmp
  rm -rf "$dest" "$dest.tmp"
  mkdir -p "$dest" "$dest.tmp"
  tar xzf "$archive" -C "$dest.tmp" --strip-components=1
  for k in $keep; do
    [ -e "$dest.tmp/$k" ] || { echo "$archive has no $k" >&2; exit 1; }
    mkdir -p "$(dirname "$dest/$k")"
    mv "$dest.tmp/$k" "$dest/$k"
  done
  rm -rf "$dest.tmp"
  # The CLI takes the nearest ancestor with a .git (or an index) as the repository: without
  # this marker a project under target/ would be indexed as part of this repository.
  mkdir "$dest/.git"
}

oracle() { # lang dir queries gold opts
  local lang="$1" dir="$2" q="$3" g="$4" opts="$5"
  case "$lang" in
    python) "$VENV/bin/python" "$HERE/oracle_python.py" --root "$dir" "$q" -o "$g" $opts ;;
    ts) node "$HERE/oracle_ts.mjs" --typescript "$TS" --root "$dir" "$q" -o "$g" $opts ;;
    *) echo "no oracle for $lang" >&2; exit 1 ;;
  esac
}

SCORES=()
for row in "${PROJECTS[@]}"; do
  IFS='|' read -r name lang spec keep opts <<< "$row"
  if [ ${#ONLY[@]} -gt 0 ] && [[ ! " ${ONLY[*]} " =~ " $name " ]]; then continue; fi
  t0=$(date +%s)
  archive="$(fetch "$lang" "$spec")"
  dir="$WORK/projects/$name"
  unpack "$archive" "$keep" "$dir"
  home="$WORK/homes/$name"
  rm -rf "$home"
  "$CLI" --home "$home" code index -C "$dir" --json > "$WORK/out/$name.index.json"
  q="$WORK/out/$name.queries.jsonl"
  g="$WORK/out/$name.gold.jsonl"
  $PY "$HERE/export.py" --home "$home" -o "$q" 2>/dev/null
  first="$($PY -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["file"])' "$q")"
  [ -f "$dir/$first" ] || { echo "the index of $name is not rooted at $dir (no $first there)" >&2; exit 1; }
  oracle "$lang" "$dir" "$q" "$g" "$opts"
  $PY "$HERE/score.py" --home "$home" "$g" --json > "$WORK/out/$name.score.json"
  log "$name ($spec): $(cat "$WORK/out/$name.index.json"), $(( $(date +%s) - t0 ))s"
  echo
  echo "== $name ($spec)"
  $PY "$HERE/score.py" --home "$home" "$g" $KINDS $EXAMPLES
  SCORES+=("$WORK/out/$name.score.json")
done

if [ ${#SCORES[@]} -gt 1 ]; then
  echo
  echo "== all projects, per language"
  $PY "$HERE/score.py" --sum "${SCORES[@]}" $KINDS
fi
if [ "$JSON" = 1 ]; then
  $PY "$HERE/score.py" --sum "${SCORES[@]}" --json > "$WORK/out/summary.json"
  log "wrote $WORK/out/summary.json"
fi
