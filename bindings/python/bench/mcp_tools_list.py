"""What `tools/list` costs an agent's context: bytes (and tokens at 4 bytes each) of the
MCP server's `tools/list` reply, per protocol version and toolset, and per tool of the
default toolset.

    .venv/bin/python bindings/python/bench/mcp_tools_list.py

Deterministic: the reply depends only on the build (no index, no clock); the roots are
temporary directories whose names never appear in `tools/list`.
"""

from __future__ import annotations

import json
import tempfile

from cc_search import Engine, _native

VERSIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]
TOOLSETS = [
    ("default", ["default"], False),
    ("default, --structured", ["default"], True),
    ("all", ["all"], False),
    ("all, --structured", ["all"], True),
]


def reply(server: _native.McpServer, method: str, params: dict[str, object]) -> str:
    message = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
    answer = server.handle(message)
    assert answer is not None
    return answer


def main() -> None:
    with tempfile.TemporaryDirectory() as home, tempfile.TemporaryDirectory() as project:
        engine = Engine(home=home)
        print("tools/list reply, bytes (tokens at 4 bytes each)\n")
        print("| toolset | tools | " + " | ".join(VERSIONS) + " |")
        print("| --- | ---: | " + " | ".join("---:" for _ in VERSIONS) + " |")
        for label, tools, structured in TOOLSETS:
            server = _native.McpServer(
                engine._native, [project], tools=tools, structured=structured
            )
            cells = []
            for version in VERSIONS:
                reply(server, "initialize", {"protocolVersion": version})
                size = len(reply(server, "tools/list", {}).encode())
                cells.append(f"{size:,} ({size // 4:,})")
            print(f"| {label} | {len(server.tools)} | " + " | ".join(cells) + " |")

        server = _native.McpServer(engine._native, [project])
        reply(server, "initialize", {"protocolVersion": "2025-11-25"})
        listed = json.loads(reply(server, "tools/list", {}))["result"]["tools"]
        init = json.loads(reply(server, "initialize", {"protocolVersion": "2025-11-25"}))
        print("\nThe default toolset, per tool (compact JSON of its tools/list entry)\n")
        print("| tool | bytes | description | inputSchema |")
        print("| --- | ---: | ---: | ---: |")
        for tool in listed:
            entry = json.dumps(tool, separators=(",", ":"), ensure_ascii=False).encode()
            schema = json.dumps(tool["inputSchema"], separators=(",", ":"), ensure_ascii=False)
            print(
                f"| {tool['name']} | {len(entry):,} | {len(tool['description'].encode()):,}"
                f" | {len(schema.encode()):,} |"
            )
        instructions = init["result"]["instructions"]
        print(f"\ninitialize instructions: {len(instructions.encode()):,} bytes")


if __name__ == "__main__":
    main()
