#!/usr/bin/env python3
"""Build the `code find` retrieval set: commit message -> non-test source files it changed.

Usage:
    python3 devset.py [--out devset.jsonl] [--summary] SPEC [SPEC ...]

SPEC is  SPLIT:LANG:GITDIR[@HEAD][#N]
    SPLIT  dev | test
    LANG   py | rs | ts        (ts covers .ts .tsx .js .mjs .cjs .jsx)
    GITDIR a bare mirror, e.g. /work/.mirror/psf+black/repo  (repo name = owner+name dir)
    HEAD   commit the first-parent walk starts from (default: HEAD of the mirror)
    N      items to take, newest first (default 50)

Deterministic: the same mirrors and SPECs give the same file byte for byte.
Python 3.11 stdlib only.
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
import subprocess
import sys

EXTS = {
    "py": (".py",),
    "rs": (".rs",),
    "ts": (".ts", ".tsx", ".js", ".mjs", ".cjs", ".jsx"),
}
WINDOW_DAYS = 3 * 365 + 1  # walk back at most ~3 years from the pinned head
MIN_QUERY = 25
MAX_FILES = 4
EXPLAIN: set[str] = set()  # skip reasons to log to stderr (--explain)

# ---------------------------------------------------------------- file rules

# A directory component that makes everything under it a test file.
TEST_DIR = re.compile(
    r"^(tests?|__tests__|specs?|testing|testdata|test[-_].*|.*[-_]tests?|"
    r"benches|benchmarks?|fixtures|__fixtures__|__mocks__|__snapshots__|e2e|fuzz)$"
)
# A file name that makes the file a test file.
TEST_FILE = re.compile(
    r"^(test_.*\.py|.*_tests?\.[a-z]+|conftest\.py|"
    r".*\.(test|spec|test-d|bench)\.[a-z]+|(test|tests|testing|spec)\.[a-z]+)$"
)
# Neither test nor gold: documentation/examples/sites/config. Changes here are ignored
# (they neither count toward the 1..4 limit nor become gold).
OTHER_DIR = re.compile(
    r"^(examples?|docs?|docs_src|www|website|playgrounds?|demos?|\..+)$"
)
OTHER_FILE = re.compile(
    r"^(setup\.py|noxfile\.py|\..*|.*\.config\.(ts|js|mjs|cjs|mts|cts))$"
)


def classify(path: str, lang: str, exts: dict[str, tuple[str, ...]] = EXTS) -> str:
    """'src' (may be gold), 'test', or 'other' (not source of this language / ignored).
    `exts`: each language's extensions (issues/build.py passes more languages)."""
    low = path.lower()
    if not low.endswith(exts[lang]):
        return "other"
    parts = low.split("/")
    dirs, name = parts[:-1], parts[-1]
    if any(TEST_DIR.match(d) for d in dirs) or TEST_FILE.match(name):
        return "test"
    if any(OTHER_DIR.match(d) for d in dirs) or OTHER_FILE.match(name):
        return "other"
    return "src"


# ------------------------------------------------------------- commit rules

BOT = re.compile(
    r"\[bot\]|dependabot|renovate|pre-commit-ci|github-actions|autofix-ci|"
    r"allcontributors|greenkeeper|mergify|copilot|imgbot|snyk-bot",
    re.I,
)
SKIP_TITLE = [
    # releases / version bumps / changelog
    r"^(\w+(\([^)]*\))?!?:\s*)?(release|releasing|publish|version packages|cut release)\b",
    r"^(\w+(\([^)]*\))?:\s*)?prepare(d|s)?\b.*\b(release|v?\d+\.\d+)",
    r"^v?\d+\.\d+(\.\d+)?\S*$",
    r"^[\w@/.-]+[- @]v?\d+\.\d+\.\d+\S*$",
    r"^(start|set|begin)( next)? version\b",
    r"\bbump(ed|s|ing)?\b.*\bversions?\b",
    r"\bversion bump\b",
    r"^(\w+(\([^)]*\))?:\s*)?(update|add|fix|regenerate)?\s*change ?log\b",
    # dependency updates
    r"^\w+\((deps|deps-dev|dependencies|dev-deps)\)",
    r"^(bump|update|upgrade)\s+\S+\s+(from\s+\S+\s+)?to\s+v?\d",
    r"\b(bump|update|upgrade)s?\s+(all\s+|the\s+|some\s+|\w+\s+)?(dependencies|deps|lockfile|lock file)\b",
    # formatting-only
    r"^(style|fmt|format)(\([^)]*\))?:",
    r"^(\w+(\([^)]*\))?:\s*)?(run|apply|applied|ran)\s+(cargo fmt|rustfmt|prettier|black|isort|ruff format|oxfmt|biome)\b",
    r"^(\w+(\([^)]*\))?:\s*)?(cargo fmt|rustfmt|prettier|reformat|format code|formatting|fix formatting)\b",
    # typo-only: a title about typos/spelling that names nothing else (no " and ", no comma)
    r"^(?!.*(\band\b|,)).*\b(typos?|spelling|misspell\w*)\b",
]
SKIP_TITLE_RE = [re.compile(p, re.I) for p in SKIP_TITLE]

TRAILER = re.compile(
    r"^\s*(signed-off-by|co-authored-by|reviewed-by|acked-by|tested-by|reported-by|"
    r"suggested-by|helped-by|approved-by|authored-by|committed-by|requested-by|"
    r"cc|change-id|reviewed-on|pr-url|pull request resolved|differential revision|"
    r"ghstack-source-id)\s*:",
    re.I,
)
URL_ONLY = re.compile(r"^\s*[<(\[]?https?://\S+?[>)\]]?\s*$")
PR_SUFFIX = re.compile(r"\s*\(\s*#\d+(\s*,\s*#\d+)*\s*\)\s*$")
SEPARATOR = re.compile(r"^\s*[-*=_]{3,}\s*$")


def clean_message(raw: str) -> tuple[str, str]:
    """Return (title, body) after dropping trailers, URL-only lines and a ' (#123)' title suffix."""
    lines = [ln.rstrip() for ln in raw.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    # title = first paragraph joined by spaces (as git's %s)
    i = 0
    while i < len(lines) and not lines[i].strip():
        i += 1
    title_lines = []
    while i < len(lines) and lines[i].strip():
        title_lines.append(lines[i].strip())
        i += 1
    title = PR_SUFFIX.sub("", " ".join(title_lines)).strip()
    kept = [ln for ln in lines[i:] if not TRAILER.match(ln) and not URL_ONLY.match(ln)]
    # collapse runs of blank lines, trim blank/separator lines at the ends
    body: list[str] = []
    for ln in kept:
        if not ln.strip() and (not body or not body[-1].strip()):
            continue
        body.append(ln)
    while body and (not body[-1].strip() or SEPARATOR.match(body[-1])):
        body.pop()
    return title, "\n".join(body)


# ---------------------------------------------------------------- git access


def git(gitdir: str, *args: str, check: bool = True) -> bytes:
    env = dict(os.environ, GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull, LC_ALL="C")
    p = subprocess.run(
        ["git", "--git-dir", gitdir, "-c", "core.quotepath=false", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    if check and p.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)}: {p.stderr.decode(errors='replace')}")
    return p.stdout


def utc_iso(s: str) -> str:
    return dt.datetime.fromisoformat(s).astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def walk(gitdir: str, head: str, since: str):
    """First-parent history from head, newest first: (sha, parents, date, author, email, message)."""
    fmt = "%H%x1f%P%x1f%cI%x1f%an%x1f%ae%x1f%B"
    out = git(gitdir, "log", "--first-parent", "-z", f"--format={fmt}", f"--since={since}", head)
    for rec in out.split(b"\0"):
        if not rec.strip():
            continue
        sha, parents, date, an, ae, msg = rec.decode("utf-8", "replace").split("\x1f", 5)
        yield sha.strip(), parents.split(), date, an, ae, msg


def changes(gitdir: str, parent: str, sha: str):
    """[(status, old_path, new_path)] with rename detection."""
    out = git(gitdir, "diff-tree", "-r", "-M", "--no-commit-id", "--name-status", "-z", parent, sha)
    toks = out.decode("utf-8", "surrogateescape").split("\0")
    res, i = [], 0
    while i < len(toks) and toks[i]:
        st = toks[i]
        if st[0] in "RC":
            res.append((st[0], toks[i + 1], toks[i + 2]))
            i += 3
        else:
            res.append((st[0], toks[i + 1], toks[i + 1]))
            i += 2
    return res


def whitespace_only(gitdir: str, parent: str, sha: str, paths: list[str]) -> bool:
    out = git(gitdir, "diff", "--no-ext-diff", "--no-color", "-w", "--ignore-blank-lines",
              parent, sha, "--", *paths)
    return not any(ln.startswith(b"@@") for ln in out.split(b"\n"))


def exists(gitdir: str, rev: str, path: str) -> bool:
    env = dict(os.environ, GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull)
    return subprocess.run(["git", "--git-dir", gitdir, "cat-file", "-e", f"{rev}:{path}"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env).returncode == 0


def repo_name(gitdir: str) -> str:
    d = os.path.abspath(gitdir.rstrip("/"))
    if os.path.basename(d) == "repo":
        d = os.path.dirname(d)
    return os.path.basename(d).replace("+", "/", 1)


# ------------------------------------------------------------------- driver


def items_for(split: str, lang: str, gitdir: str, head: str, n: int, stats: dict):
    head_date = git(gitdir, "log", "-1", "--format=%cI", head).decode().strip()
    since = (dt.datetime.fromisoformat(head_date) - dt.timedelta(days=WINDOW_DAYS)).isoformat()
    repo = repo_name(gitdir)
    got = []
    why: dict[str, int] = {}

    def skip(reason):
        why[reason] = why.get(reason, 0) + 1
        if EXPLAIN and reason in EXPLAIN:
            print(f"skip {reason}\t{repo}\t{sha[:10]}\t{msg.strip().splitlines()[0][:100] if msg.strip() else ''}",
                  file=sys.stderr)

    for idx, (sha, parents, date, an, ae, msg) in enumerate(walk(gitdir, head, since)):
        if len(got) >= n:
            break
        if len(parents) != 1:
            skip("merge/root")
            continue
        if BOT.search(an) or BOT.search(ae):
            skip("bot")
            continue
        title, body = clean_message(msg)
        if any(r.search(title) for r in SKIP_TITLE_RE):
            skip("title-rule")
            continue
        query = title + ("\n\n" + body if body else "")
        if len(query) < MIN_QUERY:
            skip("short-message")
            continue
        parent = parents[0]
        srcs = [(st, old, new) for st, old, new in changes(gitdir, parent, sha)
                if classify(old, lang) == "src" or classify(new, lang) == "src"]
        if not srcs or len(srcs) > MAX_FILES:
            skip("0-src" if not srcs else ">4-src")
            continue
        gold = sorted({old for st, old, new in srcs if st != "A" and classify(old, lang) == "src"})
        if not gold:
            skip("only-added")
            continue
        if all(st == "M" for st, _, _ in srcs) and whitespace_only(gitdir, parent, sha, [o for _, o, _ in srcs]):
            skip("whitespace-only")
            continue
        if not all(exists(gitdir, parent, p) for p in gold):
            skip("gold-missing")
            continue
        got.append((utc_iso(date), -idx, {
            "split": split, "repo": repo, "commit": sha, "parent": parent,
            "date": utc_iso(date), "query": query, "files": gold,
        }))
    nsrc = sum(1 for p in git(gitdir, "ls-tree", "-r", "-z", "--name-only", head)
               .decode("utf-8", "surrogateescape").split("\0") if p and classify(p, lang) == "src")
    stats[(split, repo)] = {"head": head, "head_date": head_date, "lang": lang, "items": len(got),
                            "src_files": nsrc, "skips": why,
                            "oldest": got[-1][0] if got else None}
    return got


def parse_spec(spec: str):
    m = re.fullmatch(r"(dev|test):(py|rs|ts):([^@#]+)(?:@([0-9a-fA-F]{40}|[^#]+))?(?:#(\d+))?", spec)
    if not m:
        raise SystemExit(f"bad SPEC {spec!r}: want SPLIT:LANG:GITDIR[@HEAD][#N]")
    split, lang, gitdir, head, n = m.groups()
    head = git(gitdir, "rev-parse", "--verify", (head or "HEAD") + "^{commit}").decode().strip()
    return split, lang, gitdir, head, int(n or 50)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("specs", nargs="+", metavar="SPEC")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "devset.jsonl"))
    ap.add_argument("--summary", action="store_true", help="print per-repo counts to stderr")
    ap.add_argument("--explain", default="", help="comma-separated skip reasons to log, e.g. title-rule,bot")
    a = ap.parse_args()
    EXPLAIN.update(x for x in a.explain.split(",") if x)
    stats: dict = {}
    rows = []
    for spec in a.specs:
        split, lang, gitdir, head, n = parse_spec(spec)
        rows += items_for(split, lang, gitdir, head, n, stats)
    rows.sort(key=lambda r: (r[2]["split"], r[2]["repo"], r[0], r[1]))
    with open(a.out, "w", encoding="utf-8", newline="\n") as f:
        for _, _, item in rows:
            f.write(json.dumps(item, ensure_ascii=False) + "\n")
    if a.summary:
        for (split, repo), s in sorted(stats.items()):
            print(f"{split}\t{repo}\t{s['lang']}\t{s['head']}\t{s['head_date']}\t"
                  f"items={s['items']}\tsrc_files={s['src_files']}\toldest={s['oldest']}\t"
                  f"skips={json.dumps(s['skips'], sort_keys=True)}", file=sys.stderr)
    print(f"wrote {len(rows)} items to {a.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
