"""MCP `tools/call` round-trip latency through `cc-search mcp` as a subprocess.

A client writes one request, waits for its reply line, and times the whole round trip
(pipe, JSON-RPC, the tool, the reply). Each row is N calls after a warm-up, on a small
generated tree (deterministic: same files every run).

    .venv/bin/python bindings/python/bench/mcp_bench.py [--calls 1000]

Rows:

- ``cc-search mcp``: the CLI (the server loop in Rust on fds 0/1, GIL released).
- ``Python loop``: the same server driven line by line from Python
  (``McpServer.handle`` per line, ``sys.stdout`` flushed per reply), the alternative the
  CLI does not use.
- ``Node serveMcp``: the npm package's loop (readline + ``Engine#mcpHandle``), when the
  Node addon is built.
- ``in-process``: the same operations called directly (``Engine.call_json``, no MCP, no
  pipe), for what the protocol and the process boundary add.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from mcp_client import LineClient

ROOT = Path(__file__).resolve().parents[3]
WORDS = ["button", "modal", "table", "user", "index", "config", "server", "client", "utils"]
EXTS = [".ts", ".tsx", ".py", ".rs", ".go", ".md"]

PYTHON_LOOP = """
import sys
import cc_search
from cc_search import _native
engine = cc_search.Engine()
server = _native.McpServer(engine._native, [sys.argv[1]])
for line in sys.stdin:
    reply = server.handle(line)
    if reply is not None:
        sys.stdout.write(reply + "\\n")
        sys.stdout.flush()
"""


def make_tree(root: Path) -> None:
    """600 files: 540 in 3 levels for the picker; `pkg/` holds 60 Go files of 40 lines,
    each with 2 `m.Table` and 2 `m.Tables` lines, for checkfor."""
    for i in range(540):
        a, b = WORDS[i % len(WORDS)], WORDS[(i * 7) % len(WORDS)]
        path = root / "src" / a / b / f"{a}_{b}_{i}{EXTS[i % len(EXTS)]}"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"// {a} {b}\n")
    pkg = root / "pkg"
    pkg.mkdir()
    for i in range(60):
        lines = []
        for n in range(40):
            body = {7: "m.Table", 13: "m.Tables"}.get(n % 20, str(n))
            lines.append(f"func {WORDS[(i + n) % len(WORDS)]}{n}() {{ return {body} }}")
        (pkg / f"file{i}.go").write_text("\n".join(lines) + "\n")


class Client(LineClient):
    def call(self, method: str, params: Any) -> Any:
        """The reply, parsed; exit when the tool failed."""
        reply = json.loads(self.request(method, params))
        if reply["result"].get("isError"):
            raise SystemExit(f"{method} failed: {reply}")
        return reply


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def measure(client: Client, calls: int, tool: str, arguments: list[dict[str, Any]]) -> list[float]:
    for i in range(50):
        client.call("tools/call", {"name": tool, "arguments": arguments[i % len(arguments)]})
    times = []
    for i in range(calls):
        start = time.perf_counter_ns()
        client.call("tools/call", {"name": tool, "arguments": arguments[i % len(arguments)]})
        times.append((time.perf_counter_ns() - start) / 1e6)
    return times


def in_process(
    tree: Path,
    env: dict[str, str],
    calls: int,
    suggest: list[dict[str, Any]],
    checkfor: list[dict[str, Any]],
) -> list[tuple[str, str, list[float]]]:
    """The operations behind the tools, called in this process."""
    import cc_search

    grep = [
        {
            **a,
            "dir": [str(tree / d) for d in ([a["dir"]] if isinstance(a["dir"], str) else a["dir"])],
        }
        for a in checkfor
    ]
    project = {"project_dir": str(tree)}
    with cc_search.Engine(env["CC_SEARCH_HOME"]) as engine:
        engine.call("files.refresh", {"root": str(tree)})
        rows = []
        for tool, op, arguments in (
            ("files_suggest", "files.suggest", [{**a, **project} for a in suggest]),
            ("checkfor", "grep.search", grep),
        ):
            texts = [json.dumps(a) for a in arguments]
            for i in range(50):
                engine.call_json(op, texts[i % len(texts)])
            times = []
            for i in range(calls):
                start = time.perf_counter_ns()
                engine.call_json(op, texts[i % len(texts)])
                times.append((time.perf_counter_ns() - start) / 1e6)
            rows.append(("in-process", f"{tool} ({op})", times))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=1000)
    parser.add_argument(
        "--node-package",
        type=Path,
        default=ROOT / "bindings" / "node",
        help="the npm package directory (with its built addon) for the Node row",
    )
    args = parser.parse_args()

    bin_dir = Path(sys.executable).parent
    cli = shutil.which("cc-search", path=str(bin_dir))
    if cli is None:
        raise SystemExit("cc-search is not installed beside this Python (run `make python`)")
    node = shutil.which("node")
    node_entry = args.node_package.resolve() / "index.js"
    have_node = node is not None and any(args.node_package.glob("*.node"))

    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "tree"
        make_tree(tree)
        env = {**os.environ, "CC_SEARCH_HOME": str(Path(tmp) / "home")}
        env.pop("CLAUDE_PROJECT_DIR", None)
        servers = [
            ("cc-search mcp", [cli, "mcp", "--root", str(tree)]),
            ("Python loop", [sys.executable, "-c", PYTHON_LOOP, str(tree)]),
        ]
        if have_node:
            code = f"require({json.dumps(str(node_entry))}).serveMcp({{roots: [process.argv[1]]}})"
            servers.append(("Node serveMcp", [str(node), "-e", code, str(tree)]))
        suggest: list[dict[str, Any]] = [
            {"query": q} for q in ("button", "src/user", "cfg", "idx.ts", "")
        ]
        checkfor: list[dict[str, Any]] = [
            {"search": "Table", "dir": ["pkg"], "whole_word": True},
            {"search": "m.Table", "dir": "pkg", "exclude": ["m.Tables"], "ext": ".go"},
        ]
        rows = []
        rows.extend(in_process(tree, env, args.calls, suggest, checkfor))
        for label, argv in servers:
            client = Client(argv, env, tree)
            client.call("initialize", {"protocolVersion": "2025-11-25", "capabilities": {}})
            # The tree is indexed already (in_process refreshed it in the same home), and
            # files_refresh is not in the default toolset.
            for tool, arguments in (("files_suggest", suggest), ("checkfor", checkfor)):
                times = measure(client, args.calls, tool, arguments)
                rows.append((label, tool, times))
            client.close()

    print(
        f"MCP tools/call round trip, {args.calls} calls each after 50 warm-up calls; "
        f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPUs, "
        f"Python {platform.python_version()}"
    )
    print("| server | tool | p50 | p99 | mean |")
    print("| --- | --- | --- | --- | --- |")
    for label, tool, times in rows:
        print(
            f"| {label} | {tool} | {percentile(times, 0.5):.3f} ms | "
            f"{percentile(times, 0.99):.3f} ms | {statistics.fmean(times):.3f} ms |"
        )


if __name__ == "__main__":
    main()
