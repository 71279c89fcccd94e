#!/usr/bin/env bash
# Link-accuracy bench for Rust, Go, Java, C and Ruby (README.md, "Rust, Go, Java, C and
# Ruby"): installs what it needs, gets the pinned projects, indexes each with the CLI,
# exports the queries, asks each language's oracle for gold (Ruby: a committed hand-checked
# sample), and prints score.py's table per project.
#
#   core/benches/links/run_more.sh [--examples N] [PROJECT...]
#
# PROJECT: walkdir go-cmp pflag bsh zlib ruby-liquid ruby-tzinfo ruby-rack ruby-thor ruby-mustermann ruby-kramdown ruby-faraday ruby-rubyzip ruby-i18n ruby-tty-prompt ruby-addressable (default: all). Scratch
# space, tools and gold files go to target/links-bench/ (gold/<project>.jsonl).
# CC_SEARCH_CLI picks the CLI (default .venv/bin/cc-search, as `make python` installs it).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
WORK="$ROOT/target/links-bench"
CLI="${CC_SEARCH_CLI:-$ROOT/.venv/bin/cc-search}"
PY="$(command -v python3)"
EXAMPLES=()
PROJECTS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --examples) EXAMPLES=(--examples "$2"); shift 2 ;;
    *) PROJECTS+=("$1"); shift ;;
  esac
done
[ ${#PROJECTS[@]} -gt 0 ] || PROJECTS=(walkdir go-cmp pflag bsh zlib ruby-liquid ruby-tzinfo ruby-rack ruby-thor ruby-mustermann ruby-kramdown ruby-faraday ruby-rubyzip ruby-i18n ruby-tty-prompt ruby-addressable)
want() { local p; for p in "${PROJECTS[@]}"; do [ "$p" = "$1" ] && return 0; done; return 1; }

# Pinned projects.
WALKDIR_VERSION=2.5.0       # crates.io
LIBZ_SYS_VERSION=1.1.31     # crates.io; bundles zlib 1.3.2 in src/zlib
GO_CMP_DEB=golang-github-google-go-cmp-dev    # Debian bookworm 0.5.9-1
PFLAG_DEB=golang-github-spf13-pflag-dev       # Debian bookworm 1.0.6~git20210604-d5e0c0615ace-1
BSH_DEB=bsh-src                               # Debian bookworm 2.0b4-20 (BeanShell sources)
LIQUID_DEB=ruby-liquid=5.4.0-3                # Debian bookworm (Shopify's Liquid 5.4.0)
TZINFO_DEB=ruby-tzinfo=2.0.5-1                # Debian bookworm (TZInfo 2.0.5)
RACK_DEB=ruby-rack=2.2.22-0+deb12u2           # Debian bookworm (Rack 2.2.22)
THOR_DEB=ruby-thor=1.2.1-2                    # Debian bookworm (Thor 1.2.1)
MUSTERMANN_DEB=ruby-mustermann=3.0.0-2        # Debian bookworm (Mustermann 3.0.0)
KRAMDOWN_DEB=ruby-kramdown=2.4.0-2            # Debian bookworm (kramdown 2.4.0)
FARADAY_DEB=ruby-faraday=1.1.0-7              # Debian bookworm (Faraday 1.1.0)
RUBYZIP_DEB=ruby-zip=2.3.2-1                  # Debian bookworm (rubyzip 2.3.2)
I18N_DEB=ruby-i18n=1.10.0-2                   # Debian bookworm (i18n 1.10.0)
TTY_PROMPT_DEB=ruby-tty-prompt=0.23.1-1       # Debian bookworm (TTY::Prompt 0.23.1)
ADDRESSABLE_DEB=ruby-addressable=2.8.1-1      # Debian bookworm (Addressable 2.8.1)

mkdir -p "$WORK/src" "$WORK/gold" "$WORK/home"
[ -x "$CLI" ] || { echo "run_more.sh: no CLI at $CLI (make python, or set CC_SEARCH_CLI)" >&2; exit 1; }

APT_UPDATED=
apt_update() { [ -n "$APT_UPDATED" ] || { apt-get update -qq >/dev/null; APT_UPDATED=1; }; }
apt_install() { apt_update; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null; }

# ---- tools ------------------------------------------------------------------------------
if want go-cmp || want pflag; then command -v go >/dev/null || apt_install golang-go; fi
if want bsh; then command -v javac >/dev/null || apt_install default-jdk-headless; fi
if want zlib; then
  [ -x "$WORK/venv/bin/python" ] || python3 -m venv "$WORK/venv"
  "$WORK/venv/bin/python" -c "import clang.cindex" 2>/dev/null || "$WORK/venv/bin/pip" install --quiet "libclang==18.1.1"
  command -v gcc >/dev/null || apt_install gcc   # its stddef.h & co. (the wheel has no resource headers)
fi

# ---- projects ---------------------------------------------------------------------------
# A crate's source as published: `cargo fetch` of a one-dependency manifest, then the
# .crate archive (a tar.gz) unpacked.
crate_src() {  # NAME VERSION -> prints the unpacked directory
  local name="$1" ver="$2" dir="$WORK/src/$1-$2"
  if [ ! -d "$dir" ]; then
    local m="$WORK/fetch-$name"
    mkdir -p "$m/src" && touch "$m/src/lib.rs"
    printf '[package]\nname = "fetch-%s"\nversion = "0.0.0"\nedition = "2021"\n\n[dependencies]\n%s = "=%s"\n\n[workspace]\n' \
      "$name" "$name" "$ver" > "$m/Cargo.toml"
    cargo fetch --quiet --manifest-path "$m/Cargo.toml" >&2
    local crate
    crate="$(find "${CARGO_HOME:-$HOME/.cargo}/registry/cache" -name "$name-$ver.crate" | head -1)"
    [ -n "$crate" ] || { echo "run_more.sh: $name-$ver.crate not found after cargo fetch" >&2; exit 1; }
    tar xzf "$crate" -C "$WORK/src"
  fi
  echo "$dir"
}
deb_go_src() {  # PACKAGE IMPORT_PATH NAME -> prints a copy of the package's Go module
  local dir="$WORK/src/$3"
  if [ ! -d "$dir" ]; then
    dpkg -s "$1" >/dev/null 2>&1 || apt_install "$1"
    cp -r "/usr/share/gocode/src/$2" "$dir"
  fi
  echo "$dir"
}

index() {  # NAME DIR -> indexes DIR into a fresh home, writes the queries
  local home="$WORK/home/$1"
  rm -rf "$home"
  # target/ is inside this repository: a .git of its own makes DIR the indexed root
  # (the CLI indexes the enclosing work tree) and keeps this repository's ignores out.
  [ -e "$2/.git" ] || git -C "$2" init -q
  "$CLI" --home "$home" code index -C "$2" --json >/dev/null
  "$PY" "$HERE/export.py" --home "$home" -o "$WORK/gold/$1.queries.jsonl" 2>/dev/null
}
score() {  # NAME GOLD...
  local name="$1"; shift
  echo
  echo "== $name"
  "$PY" "$HERE/score.py" --home "$WORK/home/$name" "$@" --label "$name" "${EXAMPLES[@]}"
}

if want walkdir; then
  dir="$(crate_src walkdir "$WALKDIR_VERSION")"
  index walkdir "$dir"
  # The hand-checked sample is the reference; rustdoc's answers (where a toolchain runs)
  # cover every ref of the library code, printed second.
  score walkdir "$HERE/gold_rust_walkdir.jsonl"
  if command -v cargo >/dev/null && "$PY" "$HERE/oracle_rust_rustdoc.py" --cfg-test "$dir" \
       "$WORK/gold/walkdir.queries.jsonl" > "$WORK/gold/walkdir.rustdoc.jsonl" 2>"$WORK/gold/walkdir.rustdoc.log"; then
    "$PY" "$HERE/score.py" --home "$WORK/home/walkdir" "$WORK/gold/walkdir.rustdoc.jsonl" --label "walkdir(rustdoc)" --no-kinds --lang rust
  else
    echo "(rustdoc oracle failed: $WORK/gold/walkdir.rustdoc.log)"
  fi
fi

go_project() {  # NAME DIR
  index "$1" "$2"
  (cd "$HERE" && GO111MODULE=off GOFLAGS= go run oracle_go.go "$2" "$WORK/gold/$1.queries.jsonl") \
    > "$WORK/gold/$1.jsonl" 2>"$WORK/gold/$1.log"
  score "$1" "$WORK/gold/$1.jsonl"
}
want go-cmp && go_project go-cmp "$(deb_go_src "$GO_CMP_DEB" github.com/google/go-cmp go-cmp)"
want pflag && go_project pflag "$(deb_go_src "$PFLAG_DEB" github.com/spf13/pflag pflag)"

if want bsh; then
  dir="$WORK/src/bsh"
  if [ ! -d "$dir" ]; then
    tmp="$WORK/src/bsh-deb"; mkdir -p "$tmp"
    apt_update
    (cd "$tmp" && apt-get download -qq "$BSH_DEB" >/dev/null)
    dpkg-deb -x "$tmp"/bsh-src_*.deb "$tmp/x"
    mkdir -p "$dir" && tar xzf "$tmp/x/usr/src/bsh-src/bsh.tar.gz" -C "$dir"
  fi
  index bsh "$dir"
  java "$HERE/oracle_java.java" "$dir" "$WORK/gold/bsh.queries.jsonl" > "$WORK/gold/bsh.jsonl" 2>"$WORK/gold/bsh.log"
  score bsh "$WORK/gold/bsh.jsonl"
fi

if want zlib; then
  dir="$(crate_src libz-sys "$LIBZ_SYS_VERSION")/src/zlib"
  index zlib "$dir"
  "$WORK/venv/bin/python" "$HERE/oracle_c.py" "$dir" "$WORK/gold/zlib.queries.jsonl" \
    > "$WORK/gold/zlib.jsonl" 2>"$WORK/gold/zlib.log"
  score zlib "$WORK/gold/zlib.jsonl"
fi

# A Ruby gem as Debian packages it: PACKAGE=VERSION GEM-DIR -> prints a copy of the gem
# (its lib/ inside).
deb_ruby_src() {
  local pin="$1" gem="$2" dir="$WORK/src/$2"
  if [ ! -d "$dir" ]; then
    local tmp="$WORK/src/$gem-deb"; mkdir -p "$tmp"
    apt_update
    (cd "$tmp" && apt-get download -qq "$pin" >/dev/null)
    dpkg-deb -x "$tmp/${pin%%=*}"_*.deb "$tmp/x"
    cp -r "$tmp/x/usr/share/rubygems-integration/all/gems/$gem" "$dir"
  fi
  echo "$dir"
}

# The hand-checked Ruby samples (no Ruby oracle: README.md, "The oracles"): Liquid's, on
# which the rules were first made; TZInfo's, decided without looking at the index's links;
# Rack's, Thor's, Mustermann's, kramdown's and Faraday's, each decided blind to measure
# the rules changed after the ones before.
ruby_sample() {  # NAME PIN GEM-DIR
  if want "$1"; then
    index "$1" "$(deb_ruby_src "$2" "$3")"
    score "$1" "$HERE/gold_$(echo "$1" | tr - _).jsonl"
  fi
}
ruby_sample ruby-liquid "$LIQUID_DEB" liquid-5.4.0
ruby_sample ruby-tzinfo "$TZINFO_DEB" tzinfo-2.0.5
ruby_sample ruby-rack "$RACK_DEB" rack-2.2.22
ruby_sample ruby-thor "$THOR_DEB" thor-1.2.1
ruby_sample ruby-mustermann "$MUSTERMANN_DEB" mustermann-3.0.0
ruby_sample ruby-kramdown "$KRAMDOWN_DEB" kramdown-2.4.0
ruby_sample ruby-faraday "$FARADAY_DEB" faraday-1.1.0
ruby_sample ruby-rubyzip "$RUBYZIP_DEB" rubyzip-2.3.2
ruby_sample ruby-i18n "$I18N_DEB" i18n-1.10.0
ruby_sample ruby-tty-prompt "$TTY_PROMPT_DEB" tty-prompt-0.23.1
ruby_sample ruby-addressable "$ADDRESSABLE_DEB" addressable-2.8.1
