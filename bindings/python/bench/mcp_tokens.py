"""What the MCP server saves an agent, in tokens: realistic questions answered on this
repository with the server's default tools, against the way an agent answers them without
it (ripgrep output and whole-file reads).

    .venv/bin/python bindings/python/bench/mcp_tokens.py [--commit REV] [--work DIR]

The repository is cloned at a fixed commit (``COMMIT``, the one the expected answers
were written for) into ``--work`` (default ``/tmp/cc-search-mcp-tokens``, a fixed
path because answers name it: the roots in ``initialize``, the sessions' project), beside
a data root (``CC_SEARCH_HOME``) and a Claude Code configuration directory
(``CLAUDE_CONFIG_DIR``) made for the run. The earlier sessions are the real transcripts
committed in ``tests/fixtures/sessions/real`` (five sessions of obra/episodic-memory's
fixtures; ``--sessions`` for another copy): the four with messages, copied into
``projects/<folder>/<sessionId>.jsonl`` with every record's ``cwd`` set to the clone, so
the server, whose root is the clone, answers from them (it only answers about sessions
whose project lies under its roots).

What is counted is what lands in the agent's context:

- MCP: the ``tools/list`` reply once (the whole JSON-RPC line, protocol 2025-11-25) and
  the ``initialize`` instructions once, then the text blocks of every ``tools/call``
  answer (not the JSON-RPC envelope, not the agent's own requests).
- Without it: ripgrep's stdout (``rg -n``, run from the repository's root, so paths are
  relative; ``--sort path`` too, which changes the order but not the bytes, so a cut is
  reproducible) and the content of every file read whole, as Claude Code's Read tool
  returns it minus its line-number prefixes (which would add about 7 bytes a line). A
  second table redoes the answers Claude Code would not hand over whole (Bash output over
  30,000 characters is cut, Read refuses a file over 25,000 tokens) as they would arrive.

Tokens are bytes / 4, the convention the server itself uses for its budgets. Each answer
is checked for the expected file, line, symbol or text; a side that does not find it still
costs what it spent and is marked. Deterministic: the same commit and the same transcripts
give the same numbers (session search is run at a fixed ``now``, so recency and ages do
not move with the clock). Index builds (the code index, the sessions index with the
all-MiniLM-L6-v2 model) run first and are timed apart from the answers.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from mcp_client import LineClient

ROOT = Path(__file__).resolve().parents[3]
PROTOCOL = "2025-11-25"
#: The repository the questions are about (this one), at the commit their expected
#: answers were written for.
COMMIT = "9ef4b34734abe9cc9b0d3d742b75fdade838429a"
#: "Now" for sessions_search: 2025-10-20T00:00:00Z, after the last transcript.
NOW = 1_760_918_400
#: The transcripts used (the fixtures' fifth, medium-conversation, has no messages).
TRANSCRIPTS = ["large", "long", "short", "tiny"]
#: Claude Code's default limits, for the † marks: Bash output is cut at 30,000
#: characters, Read refuses more than 25,000 tokens (about 100 KB).
BASH_LIMIT = 30_000
READ_LIMIT = 100_000
#: Roughly what Read answers instead of a file over its limit.
READ_REFUSAL = (
    "File content (N tokens) exceeds maximum allowed tokens (25000). Please use offset and "
    "limit parameters to read specific portions of the file, or use the GrepTool to search "
    "for specific content."
)
MARKER = ".cc-search-mcp-tokens"


def tokens(n: int) -> int:
    return (n + 2) // 4


# --- what the answers say ---------------------------------------------------------------


def json_blocks(texts: list[str]) -> list[Any]:
    """The JSON of each answer (its first text block: checkfor adds warnings as lines)."""
    values = []
    for text in texts:
        try:
            values.append(json.loads(text))
        except ValueError:
            continue
    return values


def located(value: Any) -> list[tuple[str, int, int, str]]:
    """Every (file, first line, last line, name) an answer's JSON names, compact forms
    resolved: ``f``/``from_f``/``path``/``file`` or ``fi`` into ``_f``, else the enclosing
    object's file (an agent's answer leaves out a file its parent names); ``l`` as
    ``"915-965"``, ``line`` or ``start_line``/``end_line``."""
    out: list[tuple[str, int, int, str]] = []

    def walk(v: Any, files: list[str], enclosing: str | None) -> None:
        if isinstance(v, dict):
            if isinstance(v.get("_f"), list):
                files = v["_f"]
            name = v.get("n") or v.get("from_n") or v.get("name") or ""
            path = v.get("f") or v.get("from_f") or v.get("file") or v.get("path")
            if path is None and isinstance(v.get("fi"), int) and v["fi"] < len(files):
                path = files[v["fi"]]
            if path is None:
                path = enclosing
            span = v.get("l") or v.get("line") or v.get("start_line")
            if isinstance(path, str) and span is not None:
                if isinstance(span, str) and "-" in span:
                    a, b = span.split("-", 1)
                    out.append((path, int(a), int(b), str(name)))
                elif isinstance(v.get("end_line"), int) and isinstance(span, int):
                    out.append((path, span, v["end_line"], str(name)))
                elif isinstance(span, (int, str)) and str(span).isdigit():
                    out.append((path, int(span), int(span), str(name)))
            for item in v.values():
                walk(item, files, path if isinstance(path, str) else enclosing)
        elif isinstance(v, list):
            for item in v:
                walk(item, files, enclosing)

    walk(value, [], None)
    return out


def strings(value: Any) -> str:
    """Every string of a JSON value, decoded, one a line."""
    if isinstance(value, dict):
        return "\n".join(strings(v) for v in value.values())
    if isinstance(value, list):
        return "\n".join(strings(v) for v in value)
    return value if isinstance(value, str) else ""


def checkfor_paths(value: Any) -> set[str]:
    paths = set()
    for directory in value.get("directories", []) if isinstance(value, dict) else []:
        base = directory.get("dir", ".")
        for f in directory.get("files", []):
            paths.add(os.path.normpath(os.path.join(base, f["path"])))
    return paths


def rg_paths(output: str) -> set[str]:
    return {line.split(":", 1)[0] for line in output.splitlines() if line}


# --- the questions ----------------------------------------------------------------------


@dataclass
class Define:
    """Where is `name` defined: the definition at `file`:`line`."""

    name: str
    file: str
    line: int
    kinds: list[str] = field(default_factory=list)  # retried with these kinds, in order


@dataclass
class Callers:
    """Who calls `name`: every (file, line) of `sites` (one call per calling function)."""

    name: str
    file: str  # where it is defined, to pick the right search hit
    sites: list[tuple[str, int]]


@dataclass
class Mentions:
    """Which files mention `text` (the truth: `git grep -l -F`)."""

    text: str


@dataclass
class Decided:
    """What an earlier session decided: `query` for sessions_search, `word` for rg (`-i`:
    prose), every phrase of `expect` in the answer (case-insensitive)."""

    query: str
    word: str
    expect: list[str]


@dataclass
class Question:
    label: str
    kind: str
    spec: Any


QUESTIONS = [
    Question(
        "where is `fit_answer` defined", "define", Define("fit_answer", "core/src/mcp/mod.rs", 915)
    ),
    Question("where is `PathParam` defined", "define", Define("PathParam", "core/src/ops.rs", 39)),
    Question(
        "where is `parse_since` defined",
        "define",
        Define("parse_since", "core/src/sessions/mod.rs", 799),
    ),
    Question(
        "where is the `Engine` struct defined",
        "define",
        Define("Engine", "core/src/engine.rs", 34, kinds=["struct"]),
    ),
    Question(
        "where is `_hook_query` (cli.py) defined",
        "define",
        Define("_hook_query", "bindings/python/python/cc_search/cli.py", 1444),
    ),
    Question(
        "where is `paramsToJson` (index.js) defined",
        "define",
        Define("paramsToJson", "bindings/node/index.js", 74),
    ),
    Question(
        "who calls `tool_name`",
        "callers",
        Callers(
            "tool_name",
            "core/src/mcp/toolset.rs",
            [("core/src/mcp/toolset.rs", 310), ("core/src/mcp/toolset.rs", 378)],
        ),
    ),
    Question(
        "who calls `_fail` (cli.py)",
        "callers",
        Callers(
            "_fail",
            "bindings/python/python/cc_search/cli.py",
            [("bindings/python/python/cc_search/cli.py", n) for n in (558, 741, 792, 967, 1227)],
        ),
    ),
    Question(
        "who calls `codeParams` (index.js)",
        "callers",
        Callers(
            "codeParams",
            "bindings/node/index.js",
            [("bindings/node/index.js", n) for n in (575, 615, 641, 686)],
        ),
    ),
    Question(
        "who calls `Engine::open_at`",
        "callers",
        Callers(
            "open_at",
            "core/src/engine.rs",
            [
                ("core/tests/concurrency.rs", 123),
                ("core/tests/docs.rs", 29),
                ("core/tests/code.rs", 550),
                ("core/tests/claude.rs", 176),
            ],
        ),
    ),
    Question("which files mention `git_recency` (config key)", "mentions", Mentions("git_recency")),
    Question(
        "which files mention `max_files_per_root` (config key)",
        "mentions",
        Mentions("max_files_per_root"),
    ),
    Question(
        "which files mention `CC_SEARCH_MODEL_DIR` (env var)",
        "mentions",
        Mentions("CC_SEARCH_MODEL_DIR"),
    ),
    Question(
        'which files mention "Query required" (error message)',
        "mentions",
        Mentions("Query required"),
    ),
    Question(
        "which agent framework did we choose",
        "sessions",
        Decided("which agent framework did we choose", "framework", ["LangGraph v1.0", "best fit"]),
    ),
    Question(
        "what did we do about biome reformatting the Prisma files",
        "sessions",
        Decided("biome reformatting the Prisma files", "biome", ["Excluded all node_modules"]),
    ),
    Question(
        "Docker or something else for the test containers",
        "sessions",
        Decided(
            "Docker or another container runtime", "docker", ["apple container instead of docker"]
        ),
    ),
    Question(
        "how should the Proactiveness instructions change",
        "sessions",
        Decided("Proactiveness section of the instructions", "Proactiveness", ["Taking Action"]),
    ),
]


# --- the MCP side -----------------------------------------------------------------------


class Server(LineClient):
    """`cc-search mcp` as a child process (answers may take an index run: an hour's wait)."""

    def __init__(self, argv: list[str], env: dict[str, str], cwd: Path) -> None:
        super().__init__(argv, env, cwd, timeout=3600)

    def call(self, tool: str, arguments: dict[str, Any]) -> list[str]:
        """The text blocks of a tool's answer."""
        reply = json.loads(self.request("tools/call", {"name": tool, "arguments": arguments}))
        result = reply["result"]
        if result.get("isError"):
            raise SystemExit(f"{tool} {arguments}: {result}")
        return [c["text"] for c in result["content"] if c.get("type") == "text"]



@dataclass
class Side:
    """One side's answer to a question: its steps, bytes and whether it found it."""

    steps: list[str] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    found: bool = False
    over_limit: bool = False  # † beyond Claude Code's default Bash/Read limits
    limited_bytes: int = 0  # within those limits: rg output cut, big Reads refused
    limited_found: bool = False

    @property
    def bytes(self) -> int:
        return sum(self.sizes)

    def add(self, step: str, text: str) -> None:
        self.steps.append(step)
        self.sizes.append(len(text.encode()))
        self.texts.append(text)


def mcp_side(server: Server, q: Question) -> tuple[Side, list[tuple[str, Any, str]]]:
    """The MCP answer, and every call as (tool, arguments, text) for the dump."""
    side = Side()
    calls: list[tuple[str, Any, str]] = []

    def call(tool: str, arguments: dict[str, Any]) -> list[Any]:
        texts = server.call(tool, arguments)
        text = "\n".join(texts)
        shown = {k: v for k, v in arguments.items() if k != "now"}
        side.add(f"{tool} {json.dumps(shown, ensure_ascii=False)}", text)
        calls.append((tool, arguments, text))
        return json_blocks(texts[:1])

    spec = q.spec
    if isinstance(spec, Define):

        def defines(values: list[Any]) -> bool:
            return any(
                f == spec.file and a <= spec.line <= b and n == spec.name
                for v in values
                for f, a, b, n in located(v)
            )

        values = call("code_search_symbols", {"query": spec.name})
        for kind in spec.kinds:
            if defines(values):
                break
            values += call("code_search_symbols", {"query": spec.name, "kind": kind})
        side.found = defines(values)
    elif isinstance(spec, Callers):
        values = call("code_search_symbols", {"query": spec.name})
        hit = next(
            (
                h
                for v in values
                for h in v.get("hits", [])
                if h.get("n") == spec.name
                and (h.get("f") or (v.get("_f") or [""])[h.get("fi", 0)]) == spec.file
                and h.get("k") in ("fn", "method", "function")
            ),
            None,
        )
        if hit is not None:
            refs = call("code_get_references", {"id": hit["id"]})
            sites = {(f, a) for v in refs for f, a, _, _ in located(v)}
            side.found = all(s in sites for s in spec.sites)
    elif isinstance(spec, Mentions):
        values = call("checkfor", {"search": spec.text, "recursive": True})
        side.found = bool(values) and truth_files(spec.text) <= checkfor_paths(values[0])
    elif isinstance(spec, Decided):

        def says(values: list[Any]) -> bool:
            text = "\n".join(strings(v) for v in values).lower()
            return all(p.lower() in text for p in spec.expect)

        values = call("sessions_search", {"query": spec.query, "now": NOW})
        if not says(values):
            hits = [h for v in values for h in v.get("results", [])]
            if hits:
                values += call("sessions_chunk", {"id": hits[0]["id"]})
        side.found = says(values)
    return side, calls


# --- the side without it ----------------------------------------------------------------

REPO: Path = Path()
RG: str = ""
PROJECT_DIR: Path = Path()  # the transcripts' folder under CLAUDE_CONFIG_DIR/projects
_truth: dict[str, set[str]] = {}


def truth_files(text: str) -> set[str]:
    if text not in _truth:
        out = subprocess.run(
            ["git", "grep", "-l", "-F", "-e", text],
            cwd=REPO,
            capture_output=True,
            text=True,
            check=False,
        ).stdout
        _truth[text] = set(out.split())
    return _truth[text]


def rg(args: list[str], cwd: Path) -> str:
    done = subprocess.run(
        [RG, "--sort", "path", *args],
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        check=False,
    )
    if done.returncode not in (0, 1):
        raise SystemExit(f"rg {args}: {done.stderr.decode()}")
    return done.stdout.decode("utf-8", "replace")


def read(path: Path) -> str:
    return path.read_bytes().decode("utf-8", "replace")


def baseline_sides(q: Question) -> tuple[Side, Side | None]:
    """The answer without the server (as the brief's agent does it), and the cheapest
    variant where there is one (rg output alone, or `rg -l`)."""
    spec = q.spec
    full, cheap = Side(), Side()
    same = False
    check: Callable[[list[str]], bool]
    if isinstance(spec, Define):
        out = rg(["-n", spec.name], REPO)
        for side in (full, cheap):
            side.add(f"rg -n '{spec.name}'", out)
        full.add(f"Read {spec.file}", read(REPO / spec.file))

        def check(texts: list[str]) -> bool:
            return any(
                line.startswith(f"{spec.file}:{spec.line}:") and spec.name in line
                for line in texts[0].splitlines()
            )

    elif isinstance(spec, Callers):
        out = rg(["-n", f"{spec.name}\\("], REPO)
        full.add(f"rg -n '{spec.name}\\('", out)
        same = True  # no cheaper way

        def check(texts: list[str]) -> bool:
            lines = {tuple(line.split(":", 2)[:2]) for line in texts[0].splitlines()}
            return all((f, str(n)) in lines for f, n in spec.sites)

    elif isinstance(spec, Mentions):
        full.add(f"rg -n '{spec.text}'", rg(["-n", spec.text], REPO))
        cheap.add(f"rg -l '{spec.text}'", rg(["-l", spec.text], REPO))

        def check(texts: list[str]) -> bool:
            return truth_files(spec.text) <= rg_paths(texts[0])

    elif isinstance(spec, Decided):
        out = rg(["-n", "-i", spec.word], PROJECT_DIR)
        for side in (full, cheap):
            side.add(f"rg -n -i '{spec.word}' <transcripts>", out)
        counts: dict[str, int] = {}
        for line in out.splitlines():
            name = line.split(":", 1)[0]
            counts[name] = counts.get(name, 0) + 1
        if counts:
            best = sorted(counts, key=lambda n: (-counts[n], n))[0]
            full.add(f"Read {best}", read(PROJECT_DIR / best))

        def check(texts: list[str]) -> bool:
            text = "\n".join(texts).lower()
            return all(p.lower() in text for p in spec.expect)

    for side in [full] if same else [full, cheap]:
        side.found = check(side.texts)
        side.over_limit = any(
            (s.startswith("rg ") and size > BASH_LIMIT)
            or (s.startswith("Read ") and size > READ_LIMIT)
            for s, size in zip(side.steps, side.sizes)
        )
        # What Claude Code would hand over: rg output cut, an oversized Read refused.
        limited = []
        for s, text, size in zip(side.steps, side.texts, side.sizes):
            if s.startswith("rg ") and len(text) > BASH_LIMIT:
                limited.append(text[:BASH_LIMIT])
            elif s.startswith("Read ") and size > READ_LIMIT:
                limited.append(READ_REFUSAL)
            else:
                limited.append(text)
        side.limited_bytes = sum(len(t.encode()) for t in limited)
        side.limited_found = check(limited)
    return full, None if same else cheap


# --- set-up -----------------------------------------------------------------------------


def find_rg() -> str:
    found = shutil.which("rg") or (
        str(ROOT / ".tools" / "bin" / "rg") if (ROOT / ".tools/bin/rg").is_file() else None
    )
    if found is None:
        raise SystemExit(
            "ripgrep not found: apt-get install ripgrep, or "
            "cargo install --locked ripgrep --root .tools"
        )
    return found


def prepare(work: Path, commit: str, sessions: Path | None) -> tuple[Path, Path, Path]:
    """The clone, the data root and the Claude Code directory, made afresh."""
    if work.exists():
        if not (work / MARKER).exists():
            raise SystemExit(f"{work} exists and was not made by this script; pass --work")
        shutil.rmtree(work)
    work.mkdir(parents=True)
    (work / MARKER).touch()
    repo, home, claude = work / "repo", work / "home", work / "claude"
    subprocess.run(["git", "clone", "--quiet", "--no-checkout", str(ROOT), str(repo)], check=True)
    subprocess.run(
        ["git", "-c", "advice.detachedHead=false", "checkout", "--quiet", commit],
        cwd=repo,
        check=True,
    )
    sessions = sessions or repo / "tests" / "fixtures" / "sessions" / "real"
    folder = claude / "projects" / re.sub(r"[^A-Za-z0-9]", "-", str(repo))
    folder.mkdir(parents=True)
    for name in TRANSCRIPTS:
        raw = (sessions / f"{name}-conversation.jsonl").read_text(encoding="utf-8")
        session_id = next(
            json.loads(line)["sessionId"]
            for line in raw.splitlines()
            if '"sessionId"' in line and json.loads(line).get("sessionId")
        )
        rewritten = re.sub(r'"cwd":"[^"]*"', '"cwd":' + json.dumps(str(repo)), raw)
        (folder / f"{session_id}.jsonl").write_text(rewritten, encoding="utf-8")
    home.mkdir()
    return repo, home, claude


def machine() -> str:
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (
        f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPUs"
        + (f" ({cpu})" if cpu else "")
        + f", Python {platform.python_version()}"
    )


# --- the table --------------------------------------------------------------------------


def mark(side: Side | None) -> str:
    if side is None:
        return ""
    return ("yes" if side.found else "**NO**") + (" †" if side.over_limit else "")


def ratio(baseline: int, mcp: int) -> str:
    return f"{baseline / mcp:.1f}×" if mcp else "-"  # noqa: RUF001


def table(rows: list[tuple[Question, Side, Side, Side | None]], fixed: int) -> str:
    out = [
        "| # | question | kind | MCP calls | MCP bytes (tokens) | found | "
        "baseline | bytes (tokens) | found | ratio | cheapest baseline | bytes (tokens) "
        "| found | ratio |",
        "| --- | --- | --- | --- | ---: | --- | --- | ---: | --- | ---: "
        "| --- | ---: | --- | ---: |",
    ]
    for i, (q, mcp, base, cheap) in enumerate(rows, 1):
        calls = " + ".join(s.split(" ", 1)[0] for s in mcp.steps)
        steps = " + ".join(
            s.split(" <", 1)[0] if s.startswith("rg") else "Read" for s in base.steps
        )
        cheap_cells = (
            [
                cheap.steps[0].split(" <", 1)[0],
                f"{cheap.bytes:,} ({tokens(cheap.bytes):,})",
                mark(cheap),
                ratio(cheap.bytes, mcp.bytes),
            ]
            if cheap is not None and cheap.steps != base.steps
            else ["(same)", "", "", ""]
        )
        out.append(
            "| "
            + " | ".join(
                [
                    str(i),
                    q.label,
                    q.kind,
                    calls,
                    f"{mcp.bytes:,} ({tokens(mcp.bytes):,})",
                    mark(mcp),
                    f"`{steps}`",
                    f"{base.bytes:,} ({tokens(base.bytes):,})",
                    mark(base),
                    ratio(base.bytes, mcp.bytes),
                    *cheap_cells,
                ]
            )
            + " |"
        )
    answers = sum(m.bytes for _, m, _, _ in rows)
    base_total = sum(b.bytes for _, _, b, _ in rows)
    cheap_total = sum((c if c is not None else b).bytes for _, _, b, c in rows)
    mcp_total = answers + fixed

    def found(sides: list[Side]) -> str:
        return f"{sum(s.found for s in sides)}/{len(rows)} found"

    out.append(
        f"| | **answers** | | | **{answers:,} ({tokens(answers):,})** | "
        f"{found([m for _, m, _, _ in rows])} | | **{base_total:,} ({tokens(base_total):,})** "
        f"| {found([b for _, _, b, _ in rows])} | {ratio(base_total, answers)} | | "
        f"**{cheap_total:,} ({tokens(cheap_total):,})** | "
        f"{found([c or b for _, _, b, c in rows])} | {ratio(cheap_total, answers)} |"
    )
    out.append(
        f"| | **total, with tools/list + instructions once** | | | "
        f"**{mcp_total:,} ({tokens(mcp_total):,})** | | | "
        f"{base_total:,} ({tokens(base_total):,}) | | **{ratio(base_total, mcp_total)}** | | "
        f"{cheap_total:,} ({tokens(cheap_total):,}) | | **{ratio(cheap_total, mcp_total)}** |"
    )
    return "\n".join(out)


def by_kind(rows: list[tuple[Question, Side, Side, Side | None]]) -> str:
    out = [
        "| kind | MCP bytes | baseline bytes | ratio | cheapest baseline bytes | ratio |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for kind in dict.fromkeys(q.kind for q, _, _, _ in rows):
        sel = [r for r in rows if r[0].kind == kind]
        m = sum(r[1].bytes for r in sel)
        b = sum(r[2].bytes for r in sel)
        c = sum((r[3] or r[2]).bytes for r in sel)
        out.append(f"| {kind} | {m:,} | {b:,} | {ratio(b, m)} | {c:,} | {ratio(c, m)} |")
    return "\n".join(out)


def limits_table(rows: list[tuple[Question, Side, Side, Side | None]], fixed: int) -> str:
    """The † rows again as Claude Code would hand them over, and the totals so."""
    out = [
        "| # | question | baseline within limits | found | cheapest within limits | found |",
        "| --- | --- | ---: | --- | ---: | --- |",
    ]

    def yes(ok: bool) -> str:
        return "yes" if ok else "**NO**"

    for i, (q, _, base, cheap) in enumerate(rows, 1):
        other = cheap if cheap is not None and cheap.steps != base.steps else None
        if not (base.over_limit or (other is not None and other.over_limit)):
            continue
        out.append(
            f"| {i} | {q.label} | {base.limited_bytes:,} ({tokens(base.limited_bytes):,}) | "
            f"{yes(base.limited_found)} | "
            + (
                f"{other.limited_bytes:,} ({tokens(other.limited_bytes):,}) | "
                f"{yes(other.limited_found)} |"
                if other is not None
                else "(same) | |"
            )
        )
    mcp_total = sum(m.bytes for _, m, _, _ in rows) + fixed
    base_total = sum(b.limited_bytes for _, _, b, _ in rows)
    cheap_total = sum((c or b).limited_bytes for _, _, b, c in rows)
    found_b = sum(b.limited_found for _, _, b, _ in rows)
    found_c = sum((c or b).limited_found for _, _, b, c in rows)
    out.append(
        f"| | **all {len(rows)} questions within limits** (MCP: {mcp_total:,} "
        f"with tools/list) | **{base_total:,} ({tokens(base_total):,})**, "
        f"{ratio(base_total, mcp_total)} | {found_b}/{len(rows)} | "
        f"**{cheap_total:,} ({tokens(cheap_total):,})**, {ratio(cheap_total, mcp_total)} | "
        f"{found_c}/{len(rows)} |"
    )
    return "\n".join(out)


def main() -> None:
    global REPO, RG, PROJECT_DIR
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--commit",
        default=COMMIT,
        help="the commit of this checkout to clone (the expected answers are this default's)",
    )
    parser.add_argument("--work", type=Path, default=Path("/tmp/cc-search-mcp-tokens"))
    parser.add_argument(
        "--sessions",
        type=Path,
        help="the real transcripts (large-/long-/short-/tiny-conversation.jsonl; "
        "default: the clone's tests/fixtures/sessions/real)",
    )
    parser.add_argument("--cli", help="the cc-search to run (default: beside this Python)")
    parser.add_argument("--dump", type=Path, help="write every answer here, as JSON")
    args = parser.parse_args()

    cli = args.cli or shutil.which("cc-search", path=str(Path(sys.executable).parent))
    if cli is None:
        raise SystemExit("cc-search is not installed beside this Python (run `make python`)")
    RG = find_rg()
    commit = subprocess.run(
        ["git", "rev-parse", args.commit], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.strip()
    work = args.work.resolve()
    REPO, home, claude = prepare(work, commit, args.sessions)
    PROJECT_DIR = next((claude / "projects").iterdir())

    env = {**os.environ, "CC_SEARCH_HOME": str(home), "CLAUDE_CONFIG_DIR": str(claude)}
    env.pop("CLAUDE_PROJECT_DIR", None)
    server = Server([cli, "mcp", "--root", str(REPO)], env, REPO)
    init = json.loads(
        server.request(
            "initialize",
            {
                "protocolVersion": PROTOCOL,
                "capabilities": {},
                "clientInfo": {"name": "mcp_tokens", "version": "1"},
            },
        )
    )
    server.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    instructions = len(init["result"].get("instructions", "").encode())
    tools_list = len(server.request("tools/list"))

    # The indexes, built by the tools' own refresh on a first call; not counted.
    index_times = []
    for label, tool, arguments in (
        ("code index (tree-sitter, the clone)", "code_search_symbols", {"query": "main"}),
        (
            "sessions index (4 transcripts, model)",
            "sessions_search",
            {"query": "warm up", "now": NOW},
        ),
    ):
        start = time.perf_counter()
        server.call(tool, arguments)
        index_times.append((label, time.perf_counter() - start))

    rows = []
    dump = []
    answer_time = 0.0
    for q in QUESTIONS:
        start = time.perf_counter()
        mcp, calls = mcp_side(server, q)
        answer_time += time.perf_counter() - start
        base, cheap = baseline_sides(q)
        rows.append((q, mcp, base, cheap))
        dump.append(
            {
                "question": q.label,
                "kind": q.kind,
                "mcp": [
                    {"tool": t, "arguments": a, "bytes": len(x.encode()), "text": x}
                    for t, a, x in calls
                ],
                "baseline": [{"step": s, "bytes": n} for s, n in zip(base.steps, base.sizes)],
                "found": {
                    "mcp": mcp.found,
                    "baseline": base.found,
                    "cheapest": (cheap or base).found,
                },
            }
        )
    server.close()

    fixed = tools_list + instructions
    print(
        f"MCP tokens: {len(QUESTIONS)} questions on cc-search at {commit[:12]}; "
        f"tokens = bytes / 4; {machine()}; rg {RG}"
    )
    print(
        f"Fixed MCP cost: tools/list {tools_list:,} bytes ({tokens(tools_list):,} tokens) "
        f"+ initialize instructions {instructions:,} bytes ({tokens(instructions):,} tokens)"
    )
    for label, secs in index_times:
        print(f"Index: {label}: {secs:.1f} s")
    print(
        f"Answers: {answer_time:.2f} s for {sum(len(m.steps) for _, m, _, _ in rows)} "
        "tools/call (index refreshes included)"
    )
    print()
    print(table(rows, fixed))
    print()
    print(by_kind(rows))
    print()
    print(
        "† beyond Claude Code's default limits (Bash output cut at 30,000 characters, "
        "Read refuses files over 25,000 tokens): counted whole all the same. Within them:"
    )
    print()
    print(limits_table(rows, fixed))
    if args.dump:
        args.dump.write_text(json.dumps(dump, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
