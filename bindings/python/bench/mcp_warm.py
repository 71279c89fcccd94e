"""What an agent waits for on a warm, unchanged repository: `tools/call` round trips
through `cc-search mcp` on a real tree, with the server watching the tree
(`core/src/watch.rs`) and with watching off (`CC_SEARCH_WATCH=0`: every call walks the
tree to refresh the index first, as before), in the same run; then what a call costs
right after an edit; and ripgrep on the same questions.

    .venv/bin/python bindings/python/bench/mcp_warm.py REPO [--calls 30] [--name NAME]

REPO is a directory (a git checkout). Each server gets a fresh data root, indexes REPO
once (not timed), answers 3 warm-up calls per tool, then N timed calls per tool. The
edit rows append a line to a file of REPO and take it away again (REPO is left as it
was): the call after each edit re-indexes that file.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from mcp_client import LineClient

ROOT = Path(__file__).resolve().parents[3]


def cli() -> str:
    return os.environ.get("CC_SEARCH_CLI") or str(ROOT / ".venv" / "bin" / "cc-search")


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def call(client: LineClient, name: str, arguments: dict[str, Any]) -> tuple[float, int]:
    start = time.perf_counter()
    line = client.request("tools/call", {"name": name, "arguments": arguments})
    took = (time.perf_counter() - start) * 1000
    reply = json.loads(line)
    if reply["result"].get("isError"):
        raise SystemExit(f"{name} {arguments}: {reply['result']['content'][0]['text']}")
    return took, len(reply["result"]["content"][0]["text"].encode())


def server(repo: Path, watch: bool) -> tuple[LineClient, Path]:
    home = Path(tempfile.mkdtemp(prefix="cc-search-warm-"))
    env = dict(os.environ, CC_SEARCH_HOME=str(home))
    env.pop("CC_SEARCH_WATCH", None)
    if not watch:
        env["CC_SEARCH_WATCH"] = "0"
    client = LineClient([cli(), "mcp"], env, repo, timeout=1800)
    client.request(
        "initialize",
        {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "bench", "version": "0"},
        },
    )
    client.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    return client, home


def pick_file(repo: Path) -> str:
    """A source file of REPO, outside tests, of about 20 KB."""
    out = subprocess.run(
        ["git", "-C", str(repo), "ls-files", "*.rs", "*.py", "*.ts", "*.go"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    sized = sorted(
        (p for p in out if (repo / p).is_file() and "test" not in p),
        key=lambda p: (abs((repo / p).stat().st_size - 20_000), p),
    )
    return sized[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("repo", type=Path)
    parser.add_argument("--calls", type=int, default=30)
    parser.add_argument("--name", default=None, help="what to call REPO in the output")
    args = parser.parse_args()
    repo = args.repo.resolve()
    name = args.name or repo.name
    files = int(
        subprocess.run(
            ["git", "-C", str(repo), "ls-files"], capture_output=True, text=True, check=True
        ).stdout.count("\n")
    )
    file = pick_file(repo)
    print(
        f"# {name}: {files} files tracked; {platform.processor() or platform.machine()}, "
        f"{os.cpu_count()} cores; {args.calls} calls per row after 3 warm-up calls"
    )

    rows: list[tuple[str, str, list[float], int]] = []
    for watch in (True, False):
        client, home = server(repo, watch)
        label = "watching" if watch else "CC_SEARCH_WATCH=0"
        start = time.perf_counter()
        _, _ = call(client, "code_get_overview", {})
        first = (time.perf_counter() - start) * 1000
        print(f"{label}: first call (cold index of {name}) {first / 1000:.1f} s", flush=True)
        outline = json.loads(
            json.loads(
                client.request(
                    "tools/call", {"name": "code_get_file_symbols", "arguments": {"file": file}}
                )
            )["result"]["content"][0]["text"]
        )
        # The file's first function: its name and id.
        symbol, symbol_id = next(
            (line.split()[2], int(line.split()[3].lstrip("#")))
            for line in outline["syms"]
            if len(line.split()) == 4 and line.split()[1] == "fn"
        )
        tools = [
            ("code_search_symbols", {"query": symbol}),
            ("code_get_references", {"id": symbol_id}),
            ("code_get_file_symbols", {"file": file}),
            ("code_get_overview", {}),
            ("files_suggest", {"query": Path(file).stem[:6]}),
            # Last: its first call starts embedding the docs on a background thread.
            ("docs_query", {"query": "how to configure permissions"}),
        ]
        for tool, arguments in tools:
            for _ in range(3):
                call(client, tool, arguments)
            times = []
            size = 0
            for _ in range(args.calls):
                took, size = call(client, tool, arguments)
                times.append(took)
            rows.append((label, f"{tool} {json.dumps(arguments)}", times, size))
        # An edit, then the next call: the changed file is re-indexed first.
        path = repo / file
        original = path.read_bytes()
        times = []
        try:
            for i in range(max(5, args.calls // 3)):
                path.write_bytes(original + f"\n// edit {i}\n".encode())
                took, size = call(client, "code_search_symbols", {"query": symbol})
                times.append(took)
        finally:
            path.write_bytes(original)
        call(client, "code_search_symbols", {"query": symbol})
        rows.append((label, f"code_search_symbols right after an edit of {file}", times, size))
        client.close()
        shutil.rmtree(home, ignore_errors=True)

    rg = shutil.which("rg")
    if rg:
        for what, argv in [
            (
                f"rg -n 'fn {symbol}\\b|def {symbol}\\b|function {symbol}\\b' (a definition)",
                [rg, "-n", f"fn {symbol}\\b|def {symbol}\\b|function {symbol}\\b", "."],
            ),
            (f"rg -nw {symbol} (the references)", [rg, "-nw", symbol, "."]),
        ]:
            times = []
            size = 0
            for _ in range(3 + args.calls):
                start = time.perf_counter()
                out = subprocess.run(argv, cwd=repo, capture_output=True)
                times.append((time.perf_counter() - start) * 1000)
                size = len(out.stdout)
            rows.append(
                (
                    "ripgrep "
                    + subprocess.run(
                        [rg, "--version"], capture_output=True, text=True
                    ).stdout.split()[1],
                    what,
                    times[3:],
                    size,
                )
            )

    print()
    print("| server | call | p50 | p90 | bytes |")
    print("| --- | --- | --- | --- | --- |")
    for label, what, times, size in rows:
        print(
            f"| {label} | {what} | {statistics.median(times):.1f} ms | "
            f"{percentile(times, 90):.1f} ms | {size:,} |"
        )
    watched = {what: statistics.median(t) for label, what, t, _ in rows if label == "watching"}
    walked = {
        what: statistics.median(t)
        for label, what, t, _ in rows
        if label != "watching" and not label.startswith("ripgrep")
    }
    print()
    for what, p50 in watched.items():
        if what in walked:
            print(
                f"- {what}: {p50:.1f} ms watching, {walked[what]:.1f} ms walking "
                f"({p50 / walked[what]:.2f}x)"
            )


if __name__ == "__main__":
    sys.exit(main())
