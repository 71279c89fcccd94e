#!/usr/bin/env python3
"""Gold for C: parses every .c file of a project with libclang (`pip install libclang`)
and answers each query (file, line, name, kind, qual) with the definition of the entity
the identifier `name` on that line refers to: of its occurrences there, the one that fits
the query best (fit.py: a `call` followed by `(`, a qual's last segment before `.`/`->`,
a bare name not after one), the first one among equals.

    oracle_c.py ROOT QUERIES.jsonl [-I DIR]... [-D NAME[=V]]... > GOLD.jsonl

Every .c file under ROOT is one translation unit (with -I ROOT and each -I DIR, relative
to ROOT); each reference cursor (DECL_REF_EXPR, MEMBER_REF_EXPR, TYPE_REF,
MACRO_INSTANTIATION, inclusion directives) whose spelling sits under ROOT — in the .c file
or in a header it includes — is recorded at its line and column. Its entity is followed by
USR across all translation units to the definition (the function body, the struct with
its fields, the #define): target = that definition's name line when it is under ROOT,
null when it is in a system header or a compiler builtin. Declarations under ROOT that are
not the definition (prototypes in headers, `extern` variables) are "alts". An entity
declared under ROOT but defined nowhere in the parsed translation units has its first
declaration as target. `#include "x.h"` of a project header → that header's line 1 (a
file, as a Python module); of a system header → null. No cursor of that name on the
line (code disabled by the preprocessor, headers no .c includes, names made by macro
pasting) → "unknown". Queries from headers are answered from any translation unit that
includes them; the first answer that is not "unknown" wins.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections import defaultdict

import clang.cindex as ci
from clang.cindex import CursorKind as K

from fit import best

REF_KINDS = {K.DECL_REF_EXPR, K.MEMBER_REF_EXPR, K.TYPE_REF, K.MACRO_INSTANTIATION, K.LABEL_REF}
DEF_KINDS = {
    K.FUNCTION_DECL, K.VAR_DECL, K.FIELD_DECL, K.STRUCT_DECL, K.UNION_DECL, K.ENUM_DECL,
    K.ENUM_CONSTANT_DECL, K.TYPEDEF_DECL, K.MACRO_DEFINITION, K.PARM_DECL,
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("root")
    ap.add_argument("queries")
    ap.add_argument("-I", dest="incs", action="append", default=[])
    ap.add_argument("-D", dest="defs", action="append", default=[])
    ap.add_argument("--exclude", action="append", default=[], help="path prefix under ROOT not to parse")
    args = ap.parse_args()
    root = os.path.realpath(args.root)

    def rel(path: str | None) -> str | None:
        if not path:
            return None
        p = os.path.realpath(path)
        if p == root or not p.startswith(root + os.sep):
            return None
        return os.path.relpath(p, root).replace(os.sep, "/")

    cfiles = []
    for d, dirs, files in os.walk(root):
        dirs[:] = sorted(x for x in dirs if not x.startswith("."))
        for f in sorted(files):
            if f.endswith(".c"):
                r = rel(os.path.join(d, f))
                if r and not any(r.startswith(e) for e in args.exclude):
                    cfiles.append(r)
    clang_args = ["-x", "c", "-std=gnu11", f"-I{root}"] + [f"-I{os.path.join(root, i)}" for i in args.incs]
    clang_args += [f"-D{d}" for d in args.defs]
    clang_args += ["-Wno-everything", "-ferror-limit=0"]
    # The libclang wheel has no resource headers (stddef.h, stdarg.h): GCC's serve.
    try:
        import subprocess

        gcc_inc = subprocess.run(["gcc", "-print-file-name=include"], capture_output=True, text=True).stdout.strip()
        if gcc_inc and os.path.isdir(gcc_inc):
            clang_args += ["-isystem", gcc_inc]
    except OSError:
        pass

    # USR -> definition position, and -> declaration positions (under ROOT, or None outside).
    defs: dict[str, tuple] = {}
    decls: dict[str, list] = defaultdict(list)
    outside: set[str] = set()
    # occurrences: (file, line) -> name -> [(col, usr or ("file", rel) or None)]
    occ: dict[tuple, dict] = defaultdict(lambda: defaultdict(list))
    seen_occ: set = set()
    index = ci.Index.create()
    opts = ci.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD
    errors = 0
    texts: dict[str, list[str]] = {}

    def line_text(r: str, line: int) -> str:
        if r not in texts:
            with open(os.path.join(root, r), encoding="utf-8", errors="replace") as f:
                texts[r] = f.read().split("\n")
        t = texts[r]
        return t[line - 1] if 0 < line <= len(t) else ""

    def name_pos(c) -> tuple | None:
        loc = c.location
        r = rel(loc.file.name if loc.file else None)
        return (r, loc.line, loc.column - 1) if r else None

    for cf in cfiles:
        try:
            tu = index.parse(os.path.join(root, cf), args=clang_args, options=opts)
        except ci.TranslationUnitLoadError as e:
            print(f"oracle_c: {cf}: {e}", file=sys.stderr)
            continue
        errors += sum(1 for d in tu.diagnostics if d.severity >= ci.Diagnostic.Error)
        for d in tu.diagnostics:
            if d.severity >= ci.Diagnostic.Error:
                print(f"oracle_c: {d}", file=sys.stderr)
        for c in tu.cursor.walk_preorder():
            k = c.kind
            if k in DEF_KINDS:
                usr = c.get_usr() if k != K.PARM_DECL else None
                if k == K.PARM_DECL or (k == K.VAR_DECL and not usr):
                    continue
                p = name_pos(c)
                if p is None:
                    outside.add(usr)
                    continue
                if k == K.MACRO_DEFINITION:
                    usr = "macro:" + p[0] + ":" + str(p[1]) + ":" + c.spelling
                if c.is_definition() or k in (K.MACRO_DEFINITION, K.ENUM_CONSTANT_DECL, K.TYPEDEF_DECL, K.FIELD_DECL):
                    defs.setdefault(usr, p)
                elif p not in decls[usr]:
                    decls[usr].append(p)
            elif k in REF_KINDS or k == K.INCLUSION_DIRECTIVE:
                p = name_pos(c)
                if p is None:
                    continue
                r, line, col = p
                if k == K.INCLUSION_DIRECTIVE:
                    try:
                        f = c.get_included_file()
                    except AssertionError:  # not found
                        f = None
                    hr = rel(f.name) if f else None
                    name = os.path.splitext(os.path.basename(c.spelling))[0]
                    tgt = ("file", hr) if hr else (None if f else "unknown")
                    key = (r, line, name, col)
                    if key not in seen_occ:
                        seen_occ.add(key)
                        occ[(r, line)][name].append((col, tgt))
                    continue
                ref = c.referenced
                name = c.spelling
                if k == K.TYPE_REF:
                    # "struct foo" / "foo_t": the spelling is the type's; take the last identifier
                    name = re.sub(r"^(struct|union|enum)\s+", "", name).split("::")[-1]
                if not name:
                    continue
                # Only a cursor whose name is spelled right there (not an expansion of a macro).
                if line_text(r, line)[col:col + len(name)] != name:
                    continue
                if ref is None:
                    tgt = "unknown"
                elif k == K.MACRO_INSTANTIATION:
                    rp = name_pos(ref)
                    tgt = ("macro", "macro:" + rp[0] + ":" + str(rp[1]) + ":" + ref.spelling) if rp else None
                else:
                    if ref.kind == K.PARM_DECL or (ref.kind == K.VAR_DECL and not ref.get_usr()):
                        rp = name_pos(ref)
                        tgt = ("pos", rp) if rp else None
                    else:
                        tgt = ("usr", ref.get_usr(), name_pos(ref))
                key = (r, line, name, col)
                if key in seen_occ:
                    continue
                seen_occ.add(key)
                occ[(r, line)][name].append((col, tgt))
    print(f"oracle_c: {len(cfiles)} translation units, {errors} errors", file=sys.stderr)

    # Every `#define NAME` of the project, active or not: a macro defined in several
    # preprocessor branches (FAR, z_const, local…) may be linked to any of them.
    defines: dict[str, list] = defaultdict(list)
    for d, dirs, files in os.walk(root):
        dirs[:] = sorted(x for x in dirs if not x.startswith("."))
        for fn in sorted(files):
            if fn.endswith((".c", ".h")):
                r = rel(os.path.join(d, fn))
                with open(os.path.join(root, r), encoding="utf-8", errors="replace") as fh:
                    for n, t in enumerate(fh, 1):
                        m = re.match(r"\s*#\s*define\s+([A-Za-z_]\w*)", t)
                        if m:
                            defines[m.group(1)].append((r, n))

    def pos(p) -> dict:
        return {"file": p[0], "line": p[1]}

    def answer(tgt):
        """(target, alts) of a recorded occurrence."""
        if tgt is None or tgt == "unknown":
            return tgt, []
        if tgt[0] == "file":
            return {"file": tgt[1], "line": 1}, []
        if tgt[0] == "pos":
            return pos(tgt[1]), []
        if tgt[0] == "macro":
            _, mf, ml, mn = tgt[1].split(":")
            others = [pos(x) for x in defines.get(mn, []) if x != (mf, int(ml))]
            return {"file": mf, "line": int(ml)}, others
        usr, rp = tgt[1], tgt[2]
        d = defs.get(usr)
        ds = [x for x in decls.get(usr, []) if x != d]
        if d is None and not ds:
            return (pos(rp) if rp else None), []
        if d is None:
            return pos(ds[0]), [pos(x) for x in ds[1:]]
        return pos(d), [pos(x) for x in ds if (x[0], x[1]) != (d[0], d[1])]

    out = sys.stdout
    with open(args.queries, encoding="utf-8") as f:
        for l in f:
            if not l.strip():
                continue
            q = json.loads(l)
            if q.get("lang") not in (None, "c", "cpp"):
                continue
            hits = occ.get((q["file"], q["line"]), {}).get(q["name"], [])
            g = {"lang": q.get("lang", "c"), "file": q["file"], "line": q["line"], "name": q["name"], "kind": q["kind"]}
            if "qual" in q:
                g["qual"] = q["qual"]
            if not hits:
                g["target"] = "unknown"
                g["note"] = "no cursor of that name on the line"
            else:
                col = best(line_text(q["file"], q["line"]), [h[0] for h in hits], q["name"], q)
                # the first answer that is not "unknown" among those at that column
                cands = [h[1] for h in hits if h[0] == col]
                tgt = next((t for t in cands if t != "unknown"), "unknown")
                t, alts = answer(tgt)
                g["target"] = t
                if alts:
                    g["alts"] = alts
                g["col"] = col
            out.write(json.dumps(g) + "\n")


if __name__ == "__main__":
    main()
