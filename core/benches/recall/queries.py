#!/usr/bin/env python3
"""Build the `sessions.search` known-item set: words a user remembers of a prompt -> its session.

Usage:
    python3 queries.py [--corpus corpus.json] [--out words.jsonl] [--mirrors /work/.mirror]

For every main transcript of the corpus (`corpus.json`; subagent transcripts are left out,
their prompts are written by the assistant), its typed prompts are read and up to
PER_SESSION of them, evenly spaced, each give one query: 3 to 6 content words drawn from
the prompt's first TYPED_CHARS characters (the part a person typed and remembers; pasted
logs follow), in the prompt's order, lowercased. Which words and how many depend only on a
hash of the session and the prompt, so the same corpus gives the same file byte for byte.

A typed prompt: a `user` record, not `isMeta`, `isCompactSummary` or `isSidechain`, whose
content is a string or text blocks (no `tool_result`), with the editor's context tags
(`<ide_opened_file>`, `<ide_selection>`) removed, that does not start with `<` (commands,
command output, notifications) and is not a continuation notice or an interruption. Prompts
with fewer than MIN_WORDS content words are skipped ("continue", "yes", "push it"), and so
is a prompt whose text is also a prompt of another session of the corpus (it names no one
session).

The hand-written paraphrases live in `meaning.jsonl`, same fields, kind "meaning".

Python 3.11 standard library only.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys

PER_SESSION = 8
TYPED_CHARS = 400
MIN_WORDS = 5
MIN_K, MAX_K = 3, 6

STOP = set(
    """a about above after again against all also am an and any are aren't as at be because
    been before being below between both but by can can't cannot could couldn't did didn't do
    does doesn't doing don't down during each few for from further get got had hadn't has
    hasn't have haven't having he her here hers herself him himself his how i i'm if in into
    is isn't it it's its itself just let let's like me more most much must my myself no nor
    not now of off ok okay on once only or other ought our ours ourselves out over own please
    same she should shouldn't so some such than that that's the their theirs them themselves
    then there there's these they this those through thing things to too under until up use
    very was wasn't we we're were weren't what what's when where which while who whom why will
    with won't would wouldn't yes yeah you your yours yourself yourselves one see want need
    make sure also way think know going really still well lets can't""".split()
)
TAG = re.compile(r"<(ide_opened_file|ide_selection)>.*?</\1>", re.S)
WORD = re.compile(r"[^\W_]+(?:[-.'_][^\W_]+)*", re.U)


def typed_prompts(lines):
    """(uuid, text) of the typed prompts, in order, duplicates by uuid dropped."""
    seen = set()
    out = []
    for line in lines:
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if not isinstance(record, dict) or record.get("type") != "user":
            continue
        if record.get("isMeta") or record.get("isCompactSummary") or record.get("isSidechain"):
            continue
        uuid = record.get("uuid")
        if uuid in seen:
            continue
        seen.add(uuid)
        content = (record.get("message") or {}).get("content")
        if isinstance(content, list):
            blocks = [b for b in content if isinstance(b, dict)]
            if any(b.get("type") == "tool_result" for b in blocks):
                continue
            content = "\n".join(b.get("text", "") for b in blocks if b.get("type") == "text")
        if not isinstance(content, str):
            continue
        text = TAG.sub("", content).strip()
        if (
            not text
            or text.startswith("<")
            or text.startswith("Caveat:")
            or text.startswith("[Request interrupted")
            or text.startswith("This session is being continued")
        ):
            continue
        out.append((uuid, text))
    return out


def content_words(text: str) -> list[str]:
    """Distinct content words of `text`, lowercased, in order of first use."""
    words = []
    for match in WORD.finditer(text[:TYPED_CHARS]):
        word = match.group(0).lower().strip(".'-")
        if len(word) < 3 or word in STOP or word.replace(".", "").isdigit():
            continue
        if word not in words:
            words.append(word)
    return words


def digest(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def sample(session: str, index: int, words: list[str]) -> list[str]:
    """3 to 6 of `words`, chosen by hash, in their order."""
    seed = digest(session, str(index))
    k = min(len(words), MIN_K + int(seed[:8], 16) % (MAX_K - MIN_K + 1))
    chosen = set(sorted(words, key=lambda w: digest(seed, w))[:k])
    return [w for w in words if w in chosen]


def spaced(items: list, n: int) -> list:
    """`n` of `items`, evenly spaced, first and last included."""
    if len(items) <= n:
        return items
    if n == 1:
        return [items[0]]
    return [items[round(i * (len(items) - 1) / (n - 1))] for i in range(n)]


def read_source(source: dict, root: str, mirrors: str) -> dict[str, bytes]:
    """path inside the source -> bytes, for every .jsonl file the source lists."""
    files = {}
    if source.get("repo"):
        git_dir = os.path.join(mirrors, source["repo"].replace("/", "+"), "repo")
        for path in source["files"]:
            files[path] = subprocess.run(
                ["git", "--git-dir", git_dir, "show", f"{source['commit']}:{path}"],
                check=True,
                capture_output=True,
            ).stdout
    else:
        for path in source["files"]:
            with open(os.path.join(root, source["dir"], path), "rb") as f:
                files[path] = f.read()
    return files


def main() -> int:
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", default=os.path.join(here, "corpus.json"))
    parser.add_argument("--out", default=os.path.join(here, "words.jsonl"))
    parser.add_argument("--mirrors", default=os.environ.get("CC_SEARCH_BENCH_MIRRORS", "/work/.mirror"))
    args = parser.parse_args()
    root = os.path.abspath(os.path.join(here, "..", "..", ".."))
    with open(args.corpus) as f:
        corpus = json.load(f)

    sessions = []  # (source name, split, path, prompts)
    for source in corpus["sources"]:
        if source["split"] not in ("dev", "test"):
            continue  # in the pool searched, but no queries of its own
        for path, data in read_source(source, root, args.mirrors).items():
            if "/subagents/" in f"/{path}" or os.path.basename(path).startswith("agent-"):
                continue
            prompts = typed_prompts(data.decode("utf-8", "replace").splitlines())
            sessions.append((source["name"], source["split"], path, prompts))

    texts: dict[str, set] = {}
    for name, _, path, prompts in sessions:
        for _, text in prompts:
            texts.setdefault(" ".join(text.lower().split()), set()).add((name, path))

    rows = []
    for name, split, path, prompts in sessions:
        usable = [
            (i, text)
            for i, (_, text) in enumerate(prompts)
            if len(content_words(text)) >= MIN_WORDS
            and len(texts[" ".join(text.lower().split())]) == 1
        ]
        for i, text in spaced(usable, PER_SESSION):
            words = sample(f"{name}/{path}", i, content_words(text))
            rows.append(
                {
                    "id": f"w-{digest(name, path, str(i))[:10]}",
                    "split": split,
                    "kind": "words",
                    "source": name,
                    "session": path,
                    "query": " ".join(words),
                    "prompt": " ".join(text.split())[:120],
                }
            )
    with open(args.out, "w") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    by = {}
    for row in rows:
        by[row["split"]] = by.get(row["split"], 0) + 1
    print(f"{len(rows)} queries from {len(sessions)} sessions: {by}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
