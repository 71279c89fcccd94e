"""`docs_query` through `cc-search mcp` on a warm repository: one server with a fresh data
root indexes REPO's docs on the first call and embeds them in the background; once that
is done, N new questions (each worded differently, so no answer or query vector is
reused) are timed, and the answer's bytes counted.

    .venv/bin/python bindings/python/bench/docs_warm.py REPO [--calls 60] [--perf FILE]

With `--perf FILE` the timed calls run under `perf record -g -p <server>` (perf must be
installed), for `perf report -i FILE`.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from mcp_client import LineClient

ROOT = Path(__file__).resolve().parents[3]
TOPICS = [
    "permissions",
    "modules",
    "the test suite",
    "releases",
    "configuration",
    "debugging",
    "workspaces",
    "environment variables",
]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("repo", type=Path)
    ap.add_argument("--calls", type=int, default=60)
    ap.add_argument("--perf", help="record the timed calls with perf into this file")
    args = ap.parse_args()
    cli = os.environ.get("CC_SEARCH_CLI") or str(ROOT / ".venv" / "bin" / "cc-search")
    home = Path(tempfile.mkdtemp(prefix="cc-search-docs-warm-"))
    env = dict(os.environ, CC_SEARCH_HOME=str(home))
    client = LineClient([cli, "mcp"], env, args.repo, timeout=1800)
    client.request(
        "initialize",
        {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "0"}},
    )
    client.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def ask(query: str) -> tuple[float, str]:
        start = time.perf_counter()
        line = client.request("tools/call", {"name": "docs_query", "arguments": {"query": query}})
        took = (time.perf_counter() - start) * 1000
        return took, json.loads(line)["result"]["content"][0]["text"]

    took, text = ask("how to get started")
    print(f"first call (indexes the docs): {took:.0f} ms")
    started = time.perf_counter()
    while "being embedded" in text:
        time.sleep(2)
        _, text = ask("how to get started")
    print(f"embedded in the background within {time.perf_counter() - started:.0f} s")
    perf = None
    if args.perf:
        perf = subprocess.Popen(
            ["perf", "record", "-g", "-o", args.perf, "-p", str(client.proc.pid)],
            stderr=subprocess.DEVNULL,
        )
        time.sleep(1)
    times, sizes = [], []
    for i in range(args.calls):
        took, text = ask(f"question {i}: how does it handle {TOPICS[i % len(TOPICS)]}")
        times.append(took)
        sizes.append(len(text.encode()))
    if perf:
        perf.send_signal(2)
        perf.wait()
    client.close()
    shutil.rmtree(home, ignore_errors=True)
    times.sort()
    print(
        f"docs_query, {args.calls} new questions: p50 {statistics.median(times):.1f} ms, "
        f"p90 {times[int(0.9 * (len(times) - 1))]:.1f} ms, min {times[0]:.1f} ms; "
        f"answers {min(sizes):,}–{max(sizes):,} bytes"
    )


if __name__ == "__main__":
    main()
