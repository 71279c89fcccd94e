#!/usr/bin/env python3
"""Gold answers for Python queries, from jedi.

    oracle_python.py --root REPO QUERIES.jsonl -o GOLD.jsonl [--sys-path src] [-j N]

Each query (README.md) is asked at the occurrence of its name as a whole identifier on its
line that fits it best (fit.py: its qual — `a.foo` for qual "a", a bare `foo` for none —
and its kind — for a `call`, followed by `(`), the first one among equals; when the line
has none — a call at the end of a multi-line chain — the next lines, up to LOOKAHEAD). The answer is `Script.goto(follow_imports=True, follow_builtin_imports=True)`:
a definition under REPO → its file and name line; anywhere else (builtins, typeshed, the
standard library, site-packages) → null; nothing → "unknown".

Needs jedi (pip install jedi); run it with the interpreter of the environment whose
site-packages should count as "outside the project" (the project itself must not be
installed there).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from fit import fit

LOOKAHEAD = 8

_root: Path
_project = None


def find_column(lines: list[str], q: dict) -> tuple[int, int] | None:
    """(line, column) of the name the query means, or None.

    The hits of `name` as a whole word on the line, best first: the name of a `def` /
    `class` being defined there last (never the reference itself); then those that fit
    the query's qual and kind best (fit.py); then for a `call` those followed by `(`, for
    an `import` those after the `import` keyword (`from .copy import copy`), for `extends`
    those inside the parentheses; hits after a `#` dropped.
    """
    line, name, kind = q["line"], q["name"], q["kind"]
    word = re.compile(r"(?<![A-Za-z0-9_])" + re.escape(name) + r"(?![A-Za-z0-9_])")
    for ln in range(line, min(line + LOOKAHEAD, len(lines)) + 1):
        text = lines[ln - 1]
        hash_at = text.find("#")
        hits = [
            m.start() for m in word.finditer(text) if hash_at < 0 or m.start() < hash_at
        ]
        if not hits:
            continue

        def rank(h: int, text: str = text) -> tuple[int, int, int, int]:
            before, after = text[:h], text[h + len(name) :]
            defining = re.search(r"\b(def|class)\s+$", before) is not None
            if kind == "call":
                good = re.match(r"\s*\(", after) is not None
            elif kind == "import":
                good = re.search(r"\bimport\b", before) is not None or not re.search(
                    r"\bimport\b", text
                )
            elif kind == "extends":
                good = "(" in before
            else:
                good = True
            return int(defining), -fit(text, h, name, q), int(not good), h

        return ln, min(hits, key=rank)
    return None


def _init(root: str, sys_path: list[str]) -> None:
    global _root, _project
    import jedi

    _root = Path(root).resolve()
    _project = jedi.Project(
        path=str(_root),
        added_sys_path=[str((_root / p).resolve()) for p in sys_path],
        smart_sys_path=True,
        load_unsafe_extensions=False,
    )


def _target(n) -> dict | None | str:
    path = n.module_path
    if path is None or n.in_builtin_module():
        return None
    try:
        rel = Path(path).resolve().relative_to(_root)
    except ValueError:
        return None  # outside the project
    line = n.line if n.line else 1  # a module: its first line
    t = {"file": rel.as_posix(), "line": line}
    return t


_groups: dict[str, dict[int, list[int]]] = {}


def _is_overload(d) -> bool:
    import ast

    return (isinstance(d, ast.Name) and d.id == "overload") or (
        isinstance(d, ast.Attribute) and d.attr == "overload"
    )


def _class_declarations(cls) -> dict[str, list[int]]:
    """A class body's own declarations by name: `x: T`, `x = …`, `def x` (a property)."""
    import ast

    found: dict[str, list[int]] = defaultdict(list)
    for node in cls.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found[node.name].append(node.lineno)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            found[node.target.id].append(node.lineno)
        elif isinstance(node, ast.Assign):
            for t in node.targets:
                if isinstance(t, ast.Name):
                    found[t.id].append(node.lineno)
    return found


def _instance_assignments(cls):
    """`(name, line)` of each `self.name = …` in the class's own methods."""
    import ast

    for method in cls.body:
        if not isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        if not method.args.args:
            continue
        this = method.args.args[0].arg
        for node in ast.walk(method):
            targets = []
            if isinstance(node, ast.Assign):
                targets = node.targets
            elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
                targets = [node.target]
            for t in targets:
                if (
                    isinstance(t, ast.Attribute)
                    and isinstance(t.value, ast.Name)
                    and t.value.id == this
                ):
                    yield t.attr, t.end_lineno or t.lineno


def same_definition(rel: str) -> dict[int, list[int]]:
    """For a file: a definition line → the other lines that define the same thing.

    - The def line of each function of an `@overload` group → every def of that name in
      the scope (the stubs and the implementation): jedi answers the implementation alone,
      the index may link the first stub.
    - The line of a method's `self.x = …` → the class's own declarations of `x` (`x: T`,
      `x = …`, a property `def x`): jedi answers an attribute's assignments in methods
      (a property with a setter too), where the class's declaration is where the attribute
      is defined, what the index links and a type checker answers."""
    if rel in _groups:
        return _groups[rel]
    import ast

    groups: dict[int, list[int]] = {}
    try:
        tree = ast.parse((_root / rel).read_bytes())
    except (SyntaxError, ValueError, OSError):
        tree = None

    def visit(body: list) -> None:
        by_name: dict[str, list] = defaultdict(list)
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                by_name[node.name].append(node)
            if isinstance(node, ast.ClassDef):
                declared = _class_declarations(node)
                for name, line in _instance_assignments(node):
                    if declared.get(name):
                        groups.setdefault(line, []).extend(
                            ln for ln in declared[name] if ln not in groups.get(line, [])
                        )
            for field in ("body", "orelse", "finalbody", "handlers"):
                inner = getattr(node, field, None)
                if isinstance(inner, list) and inner and isinstance(inner[0], ast.AST):
                    visit(inner)
        for defs in by_name.values():
            if len(defs) > 1 and any(
                _is_overload(d) for f in defs for d in f.decorator_list
            ):
                lines = [f.lineno for f in defs]
                for ln in lines:
                    groups[ln] = lines

    if tree is not None:
        visit(tree.body)
    _groups[rel] = groups
    return groups


def answer_file(rel: str, qs: list[dict]) -> list[dict]:
    import jedi

    path = _root / rel
    out = []
    try:
        source = path.read_text(encoding="utf-8", errors="replace")
        script = jedi.Script(code=source, path=str(path), project=_project)
    except Exception as e:  # noqa: BLE001 - an oracle failure is an "unknown", not a crash
        return [dict(q, target="unknown", note=f"script: {e!r}"[:200]) for q in qs]
    lines = source.splitlines()
    for q in qs:
        g = {k: q[k] for k in ("lang", "file", "line", "name", "kind", "qual") if k in q}
        g.setdefault("lang", "python")
        pos = find_column(lines, q)
        if pos is None:
            g["target"] = "unknown"
            g["note"] = "name not on the line"
            out.append(g)
            continue
        ln, col = pos
        g["col"] = col
        if ln != q["line"]:
            g["note"] = f"found on line {ln}"
        try:
            names = script.goto(
                ln, col, follow_imports=True, follow_builtin_imports=True
            )
        except Exception as e:  # noqa: BLE001
            g["target"] = "unknown"
            g["note"] = f"goto: {e!r}"[:200]
            out.append(g)
            continue
        if not names:
            g["target"] = "unknown"
            g["note"] = "no definition"
            out.append(g)
            continue
        targets, seen = [], set()
        for n in names:
            t = _target(n)
            if t is None:
                continue
            if n.name and n.name != q["name"]:
                t["name"] = n.name
            key = (t["file"], t["line"])
            if key not in seen:
                seen.add(key)
                targets.append(t)
        for t in list(targets):  # every line defining the same thing is acceptable
            for ln in same_definition(t["file"]).get(t["line"], []):
                if (t["file"], ln) not in seen:
                    seen.add((t["file"], ln))
                    targets.append(dict(t, line=ln))
        if targets:
            g["target"] = targets[0]
            if len(targets) > 1:
                g["alts"] = targets[1:]
        else:
            g["target"] = None
        out.append(g)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("queries", help="queries JSONL (export.py)")
    ap.add_argument("--root", required=True, help="the indexed root")
    ap.add_argument("-o", "--out", required=True, help="gold JSONL to write")
    ap.add_argument(
        "--sys-path",
        action="append",
        default=[],
        help="directory under ROOT to add to the import path (e.g. src)",
    )
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args()

    by_file: dict[str, list[dict]] = defaultdict(list)
    with open(args.queries, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                q = json.loads(line)
                if q.get("lang", "python") == "python" and q["file"].endswith(
                    (".py", ".pyi")
                ):
                    by_file[q["file"]].append(q)

    files = sorted(by_file, key=lambda r: -len(by_file[r]))  # big files first
    results: dict[str, list[dict]] = {}
    if args.jobs <= 1:
        _init(args.root, args.sys_path)
        for rel in files:
            results[rel] = answer_file(rel, by_file[rel])
    else:
        with ProcessPoolExecutor(
            args.jobs, initializer=_init, initargs=(args.root, args.sys_path)
        ) as ex:
            for rel, res in zip(
                files, ex.map(answer_file, files, [by_file[r] for r in files])
            ):
                results[rel] = res

    n = unknown = external = 0
    with open(args.out, "w", encoding="utf-8") as out:
        for rel in sorted(results):
            for g in sorted(
                results[rel],
                key=lambda g: (g["line"], g["name"], g["kind"], g.get("qual") or ""),
            ):
                out.write(json.dumps(g) + "\n")
                n += 1
                unknown += g["target"] == "unknown"
                external += g["target"] is None
    print(
        f"python oracle: {n} answers ({unknown} unknown, {external} external) -> {args.out}",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
