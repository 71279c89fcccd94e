#!/usr/bin/env python3
"""Build the `code find` issue set: real GitHub issue text -> the non-test source files
(and, for Python, the functions) that the fix changed, at the fix's base commit.

Usage:
    python3 build.py [--mirrors DIR] [--raw DIR] [--out issues.jsonl] [--summary]

Inputs (see README.md):
  * the raw instance files, read with `git show COMMIT:PATH` from the mirror of the GitHub
    repository that holds them (SOURCES below), or from --raw DIR/<owner>+<name>/<path> when
    such a copy exists;
  * one bare mirror per code repository, at MIRRORS/<owner>+<name>/repo (the session `fetch`
    tool puts them there: `fetch github:owner/name`).

Deterministic: the same raw files and mirrors give the same file byte for byte.
Python 3.11 stdlib only.
"""
from __future__ import annotations

import argparse
import ast
import datetime as dt
import itertools
import json
import os
import re
import subprocess
import sys
from collections import Counter, defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from devset import classify  # noqa: E402  (../devset.py: one set of file rules)

HERE = os.path.dirname(os.path.abspath(__file__))
MAX_GOLD = 4
CAP_PER_REPO = 60  # newest first by created_at, then instance_id
DEV_SHARE = 0.6

# The twelve SWE-bench test repositories: never used here (they are the independent check).
EXCLUDED = {
    "django/django", "sympy/sympy", "scikit-learn/scikit-learn", "matplotlib/matplotlib",
    "astropy/astropy", "pydata/xarray", "pytest-dev/pytest", "sphinx-doc/sphinx",
    "pylint-dev/pylint", "psf/requests", "pallets/flask", "mwaskom/seaborn",
}

# Repositories that core/benches/find/devset.jsonl already uses keep the split they have there.
PINNED_SPLIT = {"BurntSushi/ripgrep": "dev", "tokio-rs/tokio": "test", "scrapy/scrapy": "test"}
# Repositories that share code (a fork and its origin) always land in the same split.
TOGETHER = [("yt-dlp/yt-dlp", "ytdl-org/youtube-dl")]

# ----------------------------------------------------------------------------- raw sources

MSWE = {  # Multi-SWE-bench (ByteDance), a copy of its per-repository dataset files
    "holder": "kuppireddypravalika/MSWE-validation-dataset",
    "commit": "f3788671b1be72292be1b3dfc61063f97dd474a0",
    "dir": "MSWE-agent/data",
    # lang, file under dir, canonical GitHub repo (mirror name)
    "files": [
        ("c", "c/facebook__zstd_dataset.jsonl", "facebook/zstd"),
        ("c", "c/jqlang__jq_dataset.jsonl", "jqlang/jq"),
        ("cpp", "cpp/catchorg__Catch2_dataset.jsonl", "catchorg/Catch2"),
        ("cpp", "cpp/fmtlib__fmt_dataset.jsonl", "fmtlib/fmt"),
        ("cpp", "cpp/nlohmann__json_dataset.jsonl", "nlohmann/json"),
        ("cpp", "cpp/simdjson__simdjson_dataset.jsonl", "simdjson/simdjson"),
        ("cpp", "cpp/yhirose__cpp-httplib_dataset.jsonl", "yhirose/cpp-httplib"),
        ("go", "go/grpc__grpc-go_dataset.jsonl", "grpc/grpc-go"),
        ("go", "go/zeromicro__go-zero_dataset.jsonl", "zeromicro/go-zero"),
        ("java", "java/alibaba__fastjson2_dataset.jsonl", "alibaba/fastjson2"),
        ("java", "java/apache__dubbo_dataset.jsonl", "apache/dubbo"),
        ("java", "java/fasterxml__jackson-core_dataset.jsonl", "FasterXML/jackson-core"),
        ("java", "java/fasterxml__jackson-dataformat-xml_dataset.jsonl", "FasterXML/jackson-dataformat-xml"),
        ("java", "java/google__gson_dataset.jsonl", "google/gson"),
        ("java", "java/googlecontainertools__jib_dataset.jsonl", "GoogleContainerTools/jib"),
        ("java", "java/mockito__mockito_dataset.jsonl", "mockito/mockito"),
        ("ts", "js/Kong__insomnia_dataset.jsonl", "Kong/insomnia"),
        ("ts", "js/anuraghazra__github-readme-stats_dataset.jsonl", "anuraghazra/github-readme-stats"),
        ("ts", "js/axios__axios_dataset.jsonl", "axios/axios"),
        ("ts", "js/expressjs__express_dataset.jsonl", "expressjs/express"),
        ("ts", "js/iamkun__dayjs_dataset.jsonl", "iamkun/dayjs"),
        ("ts", "ts/darkreader__darkreader_dataset.jsonl", "darkreader/darkreader"),
        ("rs", "rust/BurntSushi__ripgrep_dataset.jsonl", "BurntSushi/ripgrep"),
        ("rs", "rust/rayon-rs__rayon_dataset.jsonl", "rayon-rs/rayon"),
        ("rs", "rust/serde-rs__serde_dataset.jsonl", "serde-rs/serde"),
        ("rs", "rust/sharkdp__bat_dataset.jsonl", "sharkdp/bat"),
        ("rs", "rust/sharkdp__fd_dataset.jsonl", "sharkdp/fd"),
        ("rs", "rust/tokio-rs__bytes_dataset.jsonl", "tokio-rs/bytes"),
        ("rs", "rust/tokio-rs__tokio_dataset.jsonl", "tokio-rs/tokio"),
        ("rs", "rust/tokio-rs__tracing_dataset.jsonl", "tokio-rs/tracing"),
    ],
}

MULOC = {  # MULocBench (issue -> locations, Python), as converted in a LocAgent fork
    "holder": "KenSu223/LocAgent",
    "commit": "853cfecbc0baf39bb60d19804fb486f890f4c249",
    "path": "evaluation/datasets/mulocbench/mulocbench.jsonl",
    # repositories taken from it (those whose snapshot could be fetched; see README)
    "repos": [
        "3b1b/manim", "All-Hands-AI/OpenHands", "AntonOsika/gpt-engineer",
        "CorentinJ/Real-Time-Voice-Cloning", "Textualize/rich", "ansible/ansible",
        "binary-husky/gpt_academic", "deepfakes/faceswap", "fastapi/fastapi", "geekan/MetaGPT",
        "keras-team/keras", "localstack/localstack", "nvbn/thefuck", "oobabooga/text-generation-webui",
        "scrapy/scrapy", "sherlock-project/sherlock", "ultralytics/yolov5", "yt-dlp/yt-dlp",
        "ytdl-org/youtube-dl", "zylon-ai/private-gpt",
    ],
}

# ------------------------------------------------------------------------------ file rules
# The test/other rules are those of ../devset.py (README "Rules"), its `classify` used with
# the extensions of more languages.

EXTS = {
    "py": (".py",),
    "rs": (".rs",),
    "ts": (".ts", ".tsx", ".js", ".mjs", ".cjs", ".jsx"),
    "go": (".go",),
    "java": (".java",),
    "c": (".c", ".h"),
    "cpp": (".c", ".cc", ".cpp", ".cxx", ".c++", ".h", ".hh", ".hpp", ".hxx", ".h++", ".ipp", ".inl", ".tpp"),
}

# ------------------------------------------------------------------------------ git access

GIT_ENV = dict(os.environ, GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull, LC_ALL="C")


def git(gitdir: str, *args: str, check: bool = True) -> bytes:
    p = subprocess.run(["git", "--git-dir", gitdir, "-c", "core.quotepath=false", *args],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=GIT_ENV)
    if check and p.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)}: {p.stderr.decode(errors='replace')}")
    return p.stdout


def ok(gitdir: str, *args: str) -> bool:
    return subprocess.run(["git", "--git-dir", gitdir, *args], stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL, env=GIT_ENV).returncode == 0


def mirror(mirrors: str, repo: str) -> str:
    return os.path.join(mirrors, repo.replace("/", "+", 1), "repo")


def read_raw(mirrors: str, raw: str | None, holder: str, commit: str, path: str) -> bytes:
    if raw:
        local = os.path.join(raw, holder.replace("/", "+", 1), path)
        if os.path.exists(local):
            with open(local, "rb") as f:
                return f.read()
    return git(mirror(mirrors, holder), "show", f"{commit}:{path}")


def jsonl(data: bytes):
    dec = json.JSONDecoder()
    text = data.decode("utf-8", "surrogateescape")
    i = 0
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            return
        obj, i = dec.raw_decode(text, i)
        yield obj


def clean_text(s: str) -> str:
    """Make a string encodable as UTF-8: a lone surrogate (an undecodable byte, or a half pair
    in the raw JSON) becomes U+FFFD; nothing else changes."""
    return re.sub("[\ud800-\udfff]", "\ufffd", s)


# ------------------------------------------------------------------------------ patches

HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def parse_patch(patch: str):
    """{old_path: {"status": "M"|"A"|"D"|"R", "lines": set(old-side lines)}} from a unified diff.

    Lines: every removed/replaced old-side line; for a run of added lines with no removed line,
    the old-side line the insertion follows (at least 1). Several `diff --git` sections for one
    file are merged."""
    files: dict[str, dict] = {}
    cur = None
    o = None
    block_minus = False
    for ln in patch.replace("\r\n", "\n").split("\n"):
        if ln.startswith("diff --git "):
            m = re.match(r"diff --git a/(.*) b/(.*)$", ln)
            old, new = (m.group(1), m.group(2)) if m else (ln.split()[2][2:], ln.split()[-1][2:])
            cur = files.setdefault(old, {"status": "M", "lines": set(), "new": new})
            if new != old:
                cur["status"] = "R"
            o = None
            continue
        if cur is None:
            continue
        if o is None:
            if ln.startswith("new file mode") or ln == "--- /dev/null":
                cur["status"] = "A"
            elif ln.startswith("deleted file mode") or ln == "+++ /dev/null":
                cur["status"] = "D"
            elif ln.startswith("rename from "):
                cur["status"] = "R"
        m = HUNK.match(ln)
        if m:
            start, count = int(m.group(1)), int(m.group(2) if m.group(2) is not None else 1)
            o = start + 1 if count == 0 else start  # count 0: the hunk inserts after `start`
            block_minus = False
            continue
        if o is None or ln.startswith("\\"):
            continue
        if ln.startswith("-"):
            cur["lines"].add(o)
            o += 1
            block_minus = True
        elif ln.startswith("+"):
            if not block_minus:
                cur["lines"].add(max(o - 1, 1))
        else:  # context line (or an empty line in a patch whose trailing space was stripped)
            o += 1
            block_minus = False
    return files


def ranges(lines) -> list[list[int]]:
    out: list[list[int]] = []
    for n in sorted(lines):
        if out and n <= out[-1][1] + 1:
            out[-1][1] = max(out[-1][1], n)
        else:
            out.append([n, n])
    return out


# ------------------------------------------------------------------------------ python ast


def py_functions(source: bytes, lines) -> list[str] | None:
    """Qualified names (Class.method, func, Outer.inner) of the innermost def/class enclosing
    each line, in line order; None when the file does not parse as Python 3."""
    try:
        tree = ast.parse(source.decode("utf-8", "replace"))
    except (SyntaxError, ValueError):
        return None
    spans: list[tuple[int, int, str]] = []

    def visit(node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                start = min([child.lineno] + [d.lineno for d in child.decorator_list])
                q = prefix + child.name
                spans.append((start, child.end_lineno or child.lineno, q))
                visit(child, q + ".")
            else:
                visit(child, prefix)

    visit(tree, "")
    names: list[str] = []
    for ln in sorted(lines):
        best = None
        for s, e, q in spans:
            if s <= ln <= e and (best is None or s > best[0] or (s == best[0] and e < best[1])):
                best = (s, e, q)
        if best and best[2] not in names:
            names.append(best[2])
    return names


# ------------------------------------------------------------------------------ loaders


def load_mswe(mirrors, raw):
    for lang, rel, repo in MSWE["files"]:
        data = read_raw(mirrors, raw, MSWE["holder"], MSWE["commit"], f"{MSWE['dir']}/{rel}")
        for d in jsonl(data):
            issues = d.get("resolved_issues") or []
            query = "\n\n".join(
                ((i.get("title") or "").strip() + "\n" + (i.get("body") or "")).strip()
                for i in issues)
            changed = {p: {"status": f["status"], "lines": f["lines"]}
                       for p, f in parse_patch(d.get("fix_patch") or "").items()}
            yield {
                "source": "multi-swe-bench", "lang": lang, "repo": repo,
                "instance_id": d.get("instance_id") or f"{d['org']}__{d['repo']}-{d['number']}",
                "base": d["base"]["sha"], "query": query, "changed": changed,
            }


def load_muloc(mirrors, raw):
    data = read_raw(mirrors, raw, MULOC["holder"], MULOC["commit"], MULOC["path"])
    canon = {r.lower(): r for r in MULOC["repos"]}
    for d in jsonl(data):
        repo = canon.get(d["repo"].lower())
        if repo is None:
            continue
        changed = {}
        for f in (d.get("file_loc") or {}).get("files", []):
            if not f.get("path"):
                continue
            st = {"modified": "M", "removed": "D", "renamed": "R", "added": "A"}.get(f.get("status"), "?")
            lines = set()
            for key, loc in sorted((f.get("Loc") or {}).items()):
                mod, add = loc.get("mod") or [], loc.get("add") or []
                lines.update(int(n) for n in mod)
                # MULocBench "add": k = inserted before old line k -> the insertion follows k-1
                lines.update(max(int(n) - 1, 1) for n in add)
                if not mod and not add:  # a location with no line list: its definition line
                    m = re.fullmatch(r"\((.*), (\d+)\)", key)
                    if m and m.group(1) != "None, None":
                        lines.add(int(m.group(2)))
            changed[f["path"]] = {"status": st, "lines": lines}
        yield {
            "source": "mulocbench", "lang": "py", "repo": repo,
            "instance_id": d["instance_id"], "base": d["base_commit"],
            "query": d.get("problem_statement") or "", "changed": changed,
        }


# ------------------------------------------------------------------------------ driver


def utc_iso(s: str) -> str:
    return dt.datetime.fromisoformat(s).astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def build_item(raw_item, gitdir, why):
    lang, base = raw_item["lang"], raw_item["base"]
    if not re.fullmatch(r"[0-9a-f]{40}", base or "") or not ok(gitdir, "cat-file", "-e", base + "^{commit}"):
        return why("base-missing")
    if not raw_item["query"].strip():
        return why("no-issue-text")
    gold = sorted(p for p, f in raw_item["changed"].items()
                  if f["status"] in ("M", "D", "R", "?") and classify(p, lang, EXTS) == "src")
    if not gold:
        return why("gold-0")
    if len(gold) > MAX_GOLD:
        return why("gold>4")
    lines, funcs = {}, {}
    for p in gold:
        if not ok(gitdir, "cat-file", "-e", f"{base}:{p}"):
            return why("gold-missing-at-base")
        src = git(gitdir, "show", f"{base}:{p}")
        nlines = src.count(b"\n") + (0 if src.endswith(b"\n") or not src else 1)
        ls = raw_item["changed"][p]["lines"]
        if not ls:
            return why("no-lines")
        if max(ls) > max(nlines, 1):
            return why("lines-past-eof")
        lines[p] = ranges(ls)
        if lang == "py":
            f = py_functions(src, ls)
            funcs[p] = f if f is not None else []
    date = git(gitdir, "show", "-s", "--format=%cI", base).decode().strip()
    return {
        "split": None, "lang": lang, "repo": raw_item["repo"],
        "instance_id": raw_item["instance_id"], "base": base, "created_at": utc_iso(date),
        "query": clean_text(raw_item["query"]), "files": gold, "functions": funcs, "lines": lines,
    }


def assign_splits(items_by_repo: dict[tuple[str, str], list]) -> dict[tuple[str, str], str]:
    """Per language, the dev/test partition of repositories whose dev share of the items is
    closest to DEV_SHARE, both splits non-empty when there are two or more units (a unit is a
    repository or a TOGETHER group). Pinned repositories keep their split; ties go to the
    lexicographically first dev set."""
    split: dict[tuple[str, str], str] = {}
    for lang in sorted({lang for lang, _ in items_by_repo}):
        repos = sorted(r for l, r in items_by_repo if l == lang and items_by_repo[(l, r)])
        units: list[tuple[str, ...]] = []
        for r in repos:
            group = next((g for g in TOGETHER if r in g), (r,))
            unit = tuple(x for x in group if x in repos)
            if unit not in units:
                units.append(unit)
        n = {u: sum(len(items_by_repo[(lang, r)]) for r in u) for u in units}
        total = sum(n.values())
        pinned = {u: PINNED_SPLIT[r] for u in units for r in u if r in PINNED_SPLIT}
        free = [u for u in units if u not in pinned]
        best = None
        for k in range(len(free) + 1):
            for combo in itertools.combinations(free, k):
                dev = set(combo) | {u for u, s in pinned.items() if s == "dev"}
                if len(units) >= 2 and (not dev or len(dev) == len(units)):
                    continue
                score = abs(sum(n[u] for u in dev) - DEV_SHARE * total)
                key = (round(score, 6), sorted(r for u in dev for r in u))
                if best is None or key < best[0]:
                    best = (key, dev)
        dev_units = best[1] if best else set(units)
        for u in units:
            for r in u:
                split[(lang, r)] = "dev" if u in dev_units else "test"
    return split


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mirrors", default=os.environ.get("CC_SEARCH_BENCH_FIND_MIRRORS", "/work/.mirror"))
    ap.add_argument("--raw", default=os.path.join(HERE, "raw"),
                    help="local copies of the raw files, RAW/<owner>+<name>/<path> (optional)")
    ap.add_argument("--out", default=os.path.join(HERE, "issues.jsonl"))
    ap.add_argument("--summary", action="store_true", help="print the per-repository table")
    a = ap.parse_args()
    raw = a.raw if os.path.isdir(a.raw) else None

    drops: dict[tuple[str, str], Counter] = defaultdict(Counter)
    by_repo: dict[tuple[str, str], list] = defaultdict(list)
    seen = set()
    for it in itertools.chain(load_mswe(a.mirrors, raw), load_muloc(a.mirrors, raw)):
        key = (it["lang"], it["repo"])
        if it["repo"] in EXCLUDED:
            continue
        if it["instance_id"] in seen:
            drops[key]["duplicate"] += 1
            continue
        seen.add(it["instance_id"])
        gitdir = mirror(a.mirrors, it["repo"])
        if not os.path.isdir(gitdir):
            drops[key]["mirror-missing"] += 1
            continue
        item = build_item(it, gitdir, lambda reason: drops[key].update([reason]))
        if item:
            by_repo[key].append(item)
    for key, items in by_repo.items():
        items.sort(key=lambda x: (x["created_at"], x["instance_id"]), reverse=True)
        if len(items) > CAP_PER_REPO:
            drops[key]["over-cap"] += len(items) - CAP_PER_REPO
            del items[CAP_PER_REPO:]
    split = assign_splits(by_repo)
    rows = []
    for key, items in by_repo.items():
        for x in items:
            x["split"] = split[key]
            rows.append(x)
    rows.sort(key=lambda x: (x["split"], x["lang"], x["repo"], x["instance_id"]))
    with open(a.out, "w", encoding="utf-8", newline="\n") as f:
        for x in rows:
            f.write(json.dumps(x, ensure_ascii=False) + "\n")
    if a.summary:
        print_summary(rows, drops, split)
    print(f"wrote {len(rows)} items to {a.out}", file=sys.stderr)


def print_summary(rows, drops, split):
    agg: dict[tuple, dict] = {}
    for x in rows:
        k = (x["split"], x["lang"], x["repo"])
        s = agg.setdefault(k, {"n": 0, "lo": x["created_at"], "hi": x["created_at"]})
        s["n"] += 1
        s["lo"], s["hi"] = min(s["lo"], x["created_at"]), max(s["hi"], x["created_at"])
    for (lang, repo), c in drops.items():
        k = (split.get((lang, repo), "-"), lang, repo)
        agg.setdefault(k, {"n": 0, "lo": "", "hi": ""})
    print("| split | lang | repo | items | dropped | base dates |")
    print("|---|---|---|---|---|---|")
    tot: dict[tuple, int] = Counter()
    for k in sorted(agg):
        s = agg[k]
        d = drops.get((k[1], k[2]), Counter())
        dd = ", ".join(f"{r} {n}" for r, n in sorted(d.items())) or "0"
        span = f"{s['lo'][:10]} … {s['hi'][:10]}" if s["n"] else ""
        print(f"| {k[0]} | {k[1]} | {k[2]} | {s['n']} | {dd} | {span} |")
        tot[(k[0], k[1])] += s["n"]
    print()
    for k in sorted(tot):
        print(f"{k[0]} {k[1]}: {tot[k]}")
    print(f"total: {sum(tot.values())}")


if __name__ == "__main__":
    main()
