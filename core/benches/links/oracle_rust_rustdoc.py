#!/usr/bin/env python3
"""Gold for Rust from the compiler: rustdoc's jump-to-definition source pages.

    oracle_rust_rustdoc.py CRATE_DIR QUERIES.jsonl [--doc-dir DIR] > GOLD.jsonl

Runs `cargo doc --no-deps` on a scratch copy of CRATE_DIR (dev-dependencies dropped, so
only the crate's own dependencies are fetched) with rustdoc's unstable
`--generate-link-to-definition` (RUSTC_BOOTSTRAP=1 lets a stable toolchain use it), then
reads the source pages it writes: every linked identifier there is a path, method call,
field or local that rustc's name resolution and type check resolved. A link into the
crate's own source (`dent.rs.html#35-59`, an item's span) → the line of the item's name
from the span's first line; a link to the documentation page of a crate item (re-exports
in `use` lines) → that item's unique definition by kind and name; a link to another
crate's or the standard library's docs → null. rustdoc links a call of a trait method to
the trait's declaration, not to the impl the receiver's type selects: such a call is
"unknown" when the crate defines a fn of that name. The occurrence on the line a query means is the one
that fits its kind and qual best (fit.py). A name on the line rustdoc did not
link (macro bodies, `derive`d code, cfg'd-out code such as `#[cfg(windows)]` items) →
"unknown". Only the library target is documented (with --cfg-test, its `#[cfg(test)]`
modules too, though not its `#[test]` functions): queries in tests/, examples/, benches/
and build.rs get "unknown".

It is used to cross-check the hand-checked sample (gold_rust_*.jsonl), and gives a full
gold where a toolchain can run it.
"""

from __future__ import annotations

import argparse
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fit import best  # noqa: E402

A_RE = re.compile(r'<a\b([^>]*)>(.*?)</a>', re.S)
HREF_RE = re.compile(r'href="?([^" >]+)"?')
TAG_RE = re.compile(r"<[^>]+>")
IDENT_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def run_rustdoc(crate: str, work: str, cfg_test: bool) -> str:
    src = os.path.join(work, "crate")
    shutil.copytree(crate, src, ignore=shutil.ignore_patterns("target", ".git"))
    toml = os.path.join(src, "Cargo.toml")
    with open(toml, encoding="utf-8") as f:
        text = f.read()
    # Drop dev-dependencies and benches/tests/examples targets: only the library is documented.
    text = re.sub(r"(?ms)^\[(dev-dependencies[^\]]*|target\.[^\]]*\.dev-dependencies[^\]]*)\]\n.*?(?=^\[|\Z)", "", text)
    text = re.sub(r"(?ms)^\[\[(bench|test|example)\]\]\n.*?(?=^\[|\Z)", "", text)
    with open(toml, "w", encoding="utf-8") as f:
        f.write(text + "\n[workspace]\n")
    for lock in ("Cargo.lock",):
        if os.path.exists(os.path.join(src, lock)):
            os.remove(os.path.join(src, lock))
    flags = "-Zunstable-options --generate-link-to-definition" + (" --cfg test" if cfg_test else "")
    env = dict(os.environ, RUSTC_BOOTSTRAP="1", RUSTDOCFLAGS=flags)
    tgt = os.path.join(work, "target")
    subprocess.run(["cargo", "doc", "--no-deps", "--lib", "--target-dir", tgt], cwd=src, env=env, check=True,
                   stdout=sys.stderr)
    return os.path.join(tgt, "doc")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("crate")
    ap.add_argument("queries")
    ap.add_argument("--doc-dir", help="an existing `cargo doc` output (skips the build)")
    ap.add_argument("--cfg-test", action="store_true",
                    help="document with --cfg test too (unit-test modules; only when they need no dev-dependency)")
    args = ap.parse_args()
    crate = os.path.realpath(args.crate)
    work = tempfile.mkdtemp(prefix="oracle_rust_")
    doc = args.doc_dir or run_rustdoc(crate, work, args.cfg_test)

    # The library's source root (src/lib.rs by default) and its pages under doc/src/<name>/.
    with open(os.path.join(crate, "Cargo.toml"), encoding="utf-8") as f:
        toml = f.read()
    m = re.search(r'(?ms)^\[lib\].*?^path\s*=\s*"([^"]+)"', toml)
    lib = m.group(1) if m else "src/lib.rs"
    name = re.search(r'(?ms)^\[package\].*?^name\s*=\s*"([^"]+)"', toml).group(1).replace("-", "_")
    m = re.search(r'(?ms)^\[lib\].*?^name\s*=\s*"([^"]+)"', toml)
    if m:
        name = m.group(1)
    src_root = os.path.dirname(lib)  # relative to crate
    pages = os.path.join(doc, "src", name)

    texts: dict[str, list[str]] = {}

    def lines_of(rel: str) -> list[str]:
        if rel not in texts:
            with open(os.path.join(crate, rel), encoding="utf-8") as f:
                texts[rel] = f.read().split("\n")
        return texts[rel]

    # Definitions of the crate's items by (kind, name), for links to documentation pages.
    item_kw = {"struct": "struct", "enum": "enum", "trait": "trait", "type": "type", "fn": "fn",
               "constant": "const", "static": "static", "union": "union", "macro": "macro_rules!"}
    defs_by: dict[tuple, list] = defaultdict(list)
    for d, dirs, files in os.walk(os.path.join(crate, src_root)):
        for fn in files:
            if fn.endswith(".rs"):
                rel = os.path.relpath(os.path.join(d, fn), crate).replace(os.sep, "/")
                for i, t in enumerate(lines_of(rel), 1):
                    for kw in item_kw.values():
                        mm = re.match(r"\s*(?:pub(?:\([^)]*\))?\s+)?(?:(?:const|unsafe|async|extern\s+\"[^\"]*\")\s+)*"
                                      + re.escape(kw) + r"\s+([A-Za-z_][A-Za-z0-9_]*)", t)
                        if mm:
                            defs_by[(kw, mm.group(1))].append((rel, i))

    def name_line(rel: str, start: int, ident: str) -> int:
        """The first line from `start` that holds `ident` as a whole word outside a comment."""
        ls = lines_of(rel)
        for i in range(start - 1, min(len(ls), start + 200)):
            code = ls[i].split("//")[0]
            if re.search(r"(?<![A-Za-z0-9_])" + re.escape(ident) + r"(?![A-Za-z0-9_])", code):
                return i + 1
        return start

    def cfg_attr_above(rel: str, line: int) -> bool:
        """Whether the item at `line` carries a `#[cfg(…)]` (among the attributes right
        above it)."""
        ls = lines_of(rel)
        i = line - 2
        while i >= 0 and ls[i].strip().startswith(("#[", "///", "//")):
            if ls[i].strip().startswith("#[cfg("):
                return True
            i -= 1
        return False

    def cfg_twins(tgt: dict, ident: str) -> list:
        """The same item for another configuration: a definition of `ident` in the same
        file, at the same indentation, where both carry a `#[cfg(…)]` (rustdoc builds
        one target; the hand-checked sample counts these twins as alternatives too)."""
        if not isinstance(tgt, dict):
            return []
        rel, line = tgt["file"], tgt["line"]
        if not cfg_attr_above(rel, line):
            return []
        ls = lines_of(rel)
        indent = len(ls[line - 1]) - len(ls[line - 1].lstrip())
        pattern = re.compile(r"\s*(?:pub(?:\([^)]*\))?\s+)?(?:(?:const|unsafe|async)\s+)*"
                             r"(?:fn|struct|enum|type|trait|const|static|mod)\s+" + re.escape(ident) + r"\b")
        out = []
        for i, t in enumerate(ls, 1):
            if i != line and pattern.match(t) and len(t) - len(t.lstrip()) == indent \
                    and cfg_attr_above(rel, i) and abs(i - line) <= 40:
                out.append({"file": rel, "line": i})
        return out

    # (file, line) -> name -> [(col, target)]
    occ: dict[tuple, dict] = defaultdict(lambda: defaultdict(list))
    for d, dirs, files in os.walk(pages):
        for fn in files:
            if not fn.endswith(".rs.html"):
                continue
            page = os.path.join(d, fn)
            rel_page = os.path.relpath(page, pages)[: -len(".html")]
            rel = os.path.normpath(os.path.join(src_root, rel_page)).replace(os.sep, "/")
            with open(page, encoding="utf-8") as f:
                s = f.read()
            code = s[s.index("<code>") + len("<code>"): s.rindex("</code>")]
            for ln, row in enumerate(code.split("\n"), 1):
                row = re.sub(r"^<a href=#\d+ id=\d+ data-nosnippet>\d+</a>", "", row)
                col = 0
                pos = 0
                for am in A_RE.finditer(row):
                    before = html.unescape(TAG_RE.sub("", row[pos: am.start()]))
                    col += len(before)
                    inner = html.unescape(TAG_RE.sub("", am.group(2)))
                    pos = am.end()
                    href_m = HREF_RE.search(am.group(1))
                    start_col = col
                    col += len(inner)
                    if not href_m:
                        continue
                    href = href_m.group(1)
                    ids = list(IDENT_RE.finditer(inner))
                    if not ids:
                        continue
                    last = ids[-1]
                    ident, icol = last.group(0), start_col + last.start()
                    if href.startswith(("http://", "https://")):
                        tgt = None
                        # rustdoc links a trait method call to the trait's declaration even
                        # when the receiver's type has an impl in this crate (`it.next()` on
                        # the crate's own iterator): undecidable here when the crate defines
                        # a fn of that name.
                        if re.search(r"/trait\.[A-Za-z0-9_]+\.html#(?:ty)?method\.", href) and defs_by.get(("fn", ident)):
                            tgt = "unknown"
                    elif ".rs.html#" in href or href.startswith("#"):
                        file_part, frag = href.split("#", 1)
                        tfile = rel if not file_part else os.path.normpath(
                            os.path.join(os.path.dirname(rel), file_part[: -len(".html")])).replace(os.sep, "/")
                        start = int(frag.split("-")[0])
                        tgt = {"file": tfile, "line": name_line(tfile, start, ident)}
                    else:
                        # a documentation page: ../../walkdir/struct.DirEntry.html
                        pm = re.search(r"(?:^|/)(" + "|".join(item_kw) + r")\.([A-Za-z0-9_]+)\.html", href)
                        inside = ("/" + name + "/") in ("/" + href.lstrip("./"))
                        if not inside:
                            tgt = None
                        elif pm and len(defs_by.get((item_kw[pm.group(1)], pm.group(2)), [])) == 1:
                            f2, l2 = defs_by[(item_kw[pm.group(1)], pm.group(2))][0]
                            tgt = {"file": f2, "line": l2}
                        else:
                            tgt = "unknown"
                    occ[(rel, ln)][ident].append((icol, tgt))

    for line in open(args.queries, encoding="utf-8"):
        if not line.strip():
            continue
        q = json.loads(line)
        if q.get("lang") not in (None, "rust"):
            continue
        hits = occ.get((q["file"], q["line"]), {}).get(q["name"], [])
        g = {"lang": "rust", "file": q["file"], "line": q["line"], "name": q["name"], "kind": q["kind"]}
        if "qual" in q:
            g["qual"] = q["qual"]
        if hits:
            # The query means the occurrence of the name on the line that fits it best
            # (fit.py: `a.foo(` for a call with qual "a", `foo!` for a macro, a bare `foo`
            # for no qual): only when rustdoc linked that very occurrence.
            text = lines_of(q["file"])[q["line"] - 1]
            cols = [m.start() for m in re.finditer(
                r"(?<![A-Za-z0-9_])" + re.escape(q["name"]) + r"(?![A-Za-z0-9_])", text)]
            col = best(text, cols, q["name"], q)
            if col is None:
                col = min(h[0] for h in hits)
            tgt = next((t for c, t in hits if c == col), "no link")
            if tgt == "no link":
                g["target"], g["note"] = "unknown", "rustdoc did not link the occurrence that fits"
            else:
                g["target"] = tgt
                g["col"] = col
                twins = cfg_twins(tgt, q["name"])
                if twins:
                    g["alts"] = twins
        else:
            g["target"], g["note"] = "unknown", "not linked by rustdoc"
        sys.stdout.write(json.dumps(g) + "\n")
    if not args.doc_dir:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
