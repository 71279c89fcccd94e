#!/usr/bin/env python3
"""Run papersson/cc-search's CLI offline, for the recall bench's side-by-side measurement.

Usage: PYTHON papersson.py SRC_DIR index | search QUERY --json -n 10

SRC_DIR is the `src` folder of a checkout of github.com/papersson/cc-search. PYTHON needs
sentence-transformers, sqlite-vec, typer and rich (and pysqlite3-binary when its sqlite3
module cannot load extensions). The model is read from $CC_SEARCH_BENCH_MODEL (a local
all-MiniLM-L6-v2 directory) instead of the model hub; HOME decides what is indexed
(~/.claude/projects) and where (~/.local/share/cc-search).
"""
import os
import sqlite3
import sys

if not hasattr(sqlite3.Connection, "enable_load_extension"):
    import pysqlite3

    sys.modules["sqlite3"] = pysqlite3

sys.path.insert(0, sys.argv.pop(1))
import cc_search.embeddings  # noqa: E402

if os.environ.get("CC_SEARCH_BENCH_MODEL"):
    cc_search.embeddings.MODEL_NAME = os.environ["CC_SEARCH_BENCH_MODEL"]

from cc_search.cli import app  # noqa: E402

app()
