#!/usr/bin/env python3
"""Export the queries of a cc-search code index: every reference row as JSONL.

    export.py (--db INDEX.db | --home HOME) [--lang python,typescript] [-o queries.jsonl]

One line per distinct (file, line, name, kind, qual):
    {"file": "pkg/a.py", "line": 12, "name": "foo", "kind": "call", "lang": "python",
     "qual": "a"}
`qual` (refs.qual: the receiver / path written before the name, null when bare) only when
the index has that column. Sorted by file, line, name, kind, qual. Python 3.11 stdlib
only. See README.md for the format.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
from pathlib import Path


def find_db(home: str) -> Path:
    """The only `*.db` under HOME/code/ (the index a `--home HOME` CLI run writes)."""
    dbs = sorted(p for p in (Path(home) / "code").rglob("*.db") if p.is_file())
    if len(dbs) != 1:
        sys.exit(
            f"expected exactly one *.db under {home}/code/, found {len(dbs)}: {dbs}"
        )
    return dbs[0]


def open_db(args: argparse.Namespace) -> sqlite3.Connection:
    path = Path(args.db) if args.db else find_db(args.home)
    # Read-only: the bench never writes the index.
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True)


def queries(conn: sqlite3.Connection, langs: set[str] | None) -> list[dict]:
    cols = {row[1] for row in conn.execute("PRAGMA table_info(refs)")}
    has_qual = "qual" in cols  # older indexes have no refs.qual: queries without it
    qual = "r.qual" if has_qual else "NULL"
    rows = conn.execute(
        f"SELECT DISTINCT f.rel_path, r.line, r.to_name, r.kind, f.language, {qual} "
        "FROM refs r JOIN files f ON f.id = r.file_id "
        f"ORDER BY f.rel_path, r.line, r.to_name, r.kind, {qual}"
    ).fetchall()
    out = []
    seen = set()
    for f, line, name, kind, lang, q in rows:
        if langs is not None and lang not in langs:
            continue
        q = written(q)
        name = as_written(lang, name)
        if (f, line, name, kind, q) in seen:
            continue
        seen.add((f, line, name, kind, q))
        row = {"file": f, "line": line, "name": name, "kind": kind, "lang": lang}
        if has_qual:
            row["qual"] = q
        out.append(row)
    return out


def written(qual: str | None) -> str | None:
    """A qualifier as the source writes it: without the members the index notes a value
    of no known class is used for (`el{attr children}` is `el`)."""
    if qual is not None and qual.endswith("}") and "{" in qual:
        return qual[: qual.index("{")]
    return qual


def as_written(lang: str, name: str) -> str:
    """A reference's name as the source writes it: a Ruby setter call `x.a = v` is
    indexed as a call of the writer `a=`, and written `a`."""
    if lang == "ruby" and name.endswith("=") and name[:-1].replace("_", "a").isalnum():
        return name[:-1]
    return name


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--db", help="the index database")
    src.add_argument("--home", help="a cc-search --home directory (its only code/*.db)")
    ap.add_argument(
        "--lang", help="comma-separated languages (files.language) to export"
    )
    ap.add_argument("-o", "--out", help="output file (default: stdout)")
    args = ap.parse_args()
    langs = set(args.lang.split(",")) if args.lang else None
    qs = queries(open_db(args), langs)
    text = "".join(json.dumps(q) + "\n" for q in qs)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
        print(f"{len(qs)} queries -> {args.out}", file=sys.stderr)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
