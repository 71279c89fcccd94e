"""`cc-search mcp`, the MCP server, driven as a subprocess over its stdin and stdout, and
once through the official MCP Python SDK."""

from __future__ import annotations

import asyncio
import json
import os
import select
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import pytest

import cc_search
from support import cli_path, make_files, run_cli

VERSIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]
LATEST = "2025-11-25"
TIMEOUT = 30.0

#: checkfor's input schema, as its own server lists it.
CHECKFOR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "case_insensitive": {
            "type": "boolean",
            "description": "Perform case-insensitive search. Optional, defaults to false.",
            "default": False,
        },
        "context": {
            "type": "integer",
            "description": "Number of context lines before and after each match. "
            "Optional, defaults to 0.",
            "default": 0,
        },
        "dir": {
            "type": "array",
            "description": "Array of directory paths to search. Can also accept a single "
            "string for backwards compatibility. Defaults to current directory if not provided.",
        },
        "exclude": {
            "type": "array",
            "description": "Array of strings to exclude from results. Matches containing any "
            "of these strings will be filtered out. Optional.",
        },
        "ext": {
            "type": "string",
            "description": "File extension to filter (e.g., '.go', '.rtf'). Optional.",
        },
        "hide_filter_stats": {
            "type": "boolean",
            "description": "Hide original_matches and filtered_matches from output. "
            "Optional, defaults to false.",
            "default": False,
        },
        "search": {"type": "string", "description": "String pattern to search for"},
        "whole_word": {
            "type": "boolean",
            "description": "Match whole words only. Optional, defaults to false.",
            "default": False,
        },
    },
    "required": ["search"],
}


class McpProcess:
    """`cc-search mcp` as a child process, one JSON message a line each way."""

    def __init__(self, home: Path, *args: str, cwd: Path | None = None) -> None:
        # Claude Code's own directory too: a refresh reads its transcripts.
        env = {**os.environ, "CC_SEARCH_HOME": str(home), "CLAUDE_CONFIG_DIR": str(home / "claude")}
        self.proc = subprocess.Popen(
            [cli_path(), "mcp", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            env=env,
        )
        self._buffer = b""
        self._next_id = 100

    def send(self, message: Any) -> None:
        text = message if isinstance(message, str) else json.dumps(message)
        assert self.proc.stdin is not None
        self.proc.stdin.write(text.encode() + b"\n")
        self.proc.stdin.flush()

    def receive(self) -> Any:
        """The next line the server writes, parsed; fails after TIMEOUT seconds."""
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + TIMEOUT
        while b"\n" not in self._buffer:
            remaining = deadline - time.monotonic()
            ready, _, _ = select.select([fd], [], [], max(remaining, 0))
            if not ready:
                pytest.fail(f"no reply within {TIMEOUT} s")
            chunk = os.read(fd, 65536)
            if not chunk:
                pytest.fail(f"the server closed stdout; stderr: {self.stderr()}")
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        return json.loads(line)

    def request(self, method: str, params: Any = None) -> Any:
        self._next_id += 1
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": self._next_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        reply = self.receive()
        assert reply["id"] == self._next_id, reply
        return reply

    def initialize(self, version: str = LATEST) -> Any:
        reply = self.request(
            "initialize",
            {
                "protocolVersion": version,
                "capabilities": {},
                "clientInfo": {"name": "pytest", "version": "1"},
            },
        )
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return reply["result"]

    def call(self, tool: str, arguments: Any) -> Any:
        reply = self.request("tools/call", {"name": tool, "arguments": arguments})
        assert "error" not in reply, reply
        return reply["result"]

    def stderr(self) -> str:
        if self.proc.poll() is None:
            return "(still running)"
        assert self.proc.stderr is not None
        return self.proc.stderr.read().decode(errors="replace")

    def close(self) -> int:
        """Close stdin (the end of the session) and return the exit status."""
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        try:
            return self.proc.wait(timeout=TIMEOUT)
        finally:
            for stream in (self.proc.stdout, self.proc.stderr):
                if stream is not None:
                    stream.close()


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A small project: the spec's whole-word example, a Go file, a subdirectory."""
    root = tmp_path / "project"
    make_files(root, ["src/components/Button.tsx", "README.md"], "")
    (root / "log.txt").write_text("log message\nlogger info\nlog\ncatalog\n")
    (root / "main.go").write_text("package main\n\nfunc Table() {}\n")
    (root / "sub").mkdir()
    (root / "sub" / "deep.txt").write_text("log below\n")
    return root


@pytest.fixture
def server(home: Path, tree: Path) -> Iterator[McpProcess]:
    process = McpProcess(home, "--root", str(tree))
    try:
        yield process
    finally:
        if process.proc.poll() is None:
            assert process.close() == 0


@pytest.fixture
def full_server(home: Path, tree: Path) -> Iterator[McpProcess]:
    """Every tool, with structured output."""
    process = McpProcess(home, "--root", str(tree), "--tools", "all", "--structured")
    try:
        yield process
    finally:
        if process.proc.poll() is None:
            assert process.close() == 0


#: The default toolset, in `tools/list` order.
DEFAULT_TOOLS = [
    "files_suggest",
    "checkfor",
    "code_find",
    "code_search_symbols",
    "code_get_symbol_detail",
    "code_get_references",
    "code_get_file_symbols",
    "code_get_overview",
    "docs_query",
    "notes_query",
    "sessions_search",
    "sessions_chunk",
]


def formats_in(schema: Any) -> list[str]:
    """Every `format` keyword's value in a schema (property names are not keywords)."""
    found: list[str] = []
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key in ("properties", "$defs", "patternProperties") and isinstance(value, dict):
                for sub in value.values():
                    found += formats_in(sub)
            elif key == "format" and isinstance(value, str):
                found.append(value)
            else:
                found += formats_in(value)
    elif isinstance(schema, list):
        for item in schema:
            found += formats_in(item)
    return found


def text_of(result: Any) -> str:
    assert result["content"][0]["type"] == "text", result
    text: str = result["content"][0]["text"]
    return text


@pytest.mark.parametrize("asked", [*VERSIONS, "1999-01-01"])
def test_handshake(server: McpProcess, asked: str) -> None:
    result = server.initialize(asked)
    assert result["protocolVersion"] == (asked if asked in VERSIONS else LATEST)
    assert result["capabilities"] == {"tools": {"listChanged": False}}
    assert result["serverInfo"] == {"name": "cc-search", "version": cc_search.__version__}


def test_server_info_agrees_with_version(home: Path, server: McpProcess) -> None:
    shown = run_cli("--version", home=home)
    assert shown.returncode == 0
    name, version = shown.stdout.split()
    info = server.initialize()["serverInfo"]
    assert (info["name"], info["version"]) == (name, version)


def test_notifications_get_no_reply(server: McpProcess) -> None:
    server.initialize()
    for notification in [
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}},
        {"jsonrpc": "2.0", "method": "no/such/notification"},
        {"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "checkfor"}},
    ]:
        server.send(notification)
    server.send("")
    # The next line out is the ping's: nothing was written for the notifications.
    assert server.request("ping")["result"] == {}


@pytest.mark.parametrize(
    ("message", "code", "has_id"),
    [
        ("{not json", -32700, False),
        ('{"jsonrpc":"2.0","id":1,"method":', -32700, False),
        ('{"jsonrpc":"2.0","id":true,"method":"ping"}', -32600, False),
        ('{"id":9,"method":"ping"}', -32600, True),
        ('{"jsonrpc":"2.0","id":9,"method":["ping"]}', -32600, True),
        ("[]", -32600, False),
        ('{"jsonrpc":"2.0","id":9,"method":"resources/list"}', -32601, True),
        ('{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"nope"}}', -32602, True),
        (
            '{"jsonrpc":"2.0","id":9,"method":"tools/call",'
            '"params":{"name":"checkfor","arguments":"search=x"}}',
            -32602,
            True,
        ),
        ('{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{}}', -32602, True),
    ],
)
def test_error_codes(server: McpProcess, message: str, code: int, has_id: bool) -> None:
    server.initialize()
    server.send(message)
    reply = server.receive()
    assert reply["jsonrpc"] == "2.0"
    assert "result" not in reply
    assert reply["error"]["code"] == code, reply
    assert reply["error"]["message"]
    assert reply["id"] == (9 if has_id else None)
    # The session goes on.
    assert server.request("ping")["result"] == {}


def test_batches_are_answered_as_arrays(server: McpProcess) -> None:
    server.initialize()
    server.send(
        '[{"jsonrpc":"2.0","id":1,"method":"ping"},'
        '{"jsonrpc":"2.0","method":"notifications/initialized"},'
        '{"jsonrpc":"2.0","id":2,"method":"nope"}]'
    )
    replies = server.receive()
    assert [r["id"] for r in replies] == [1, 2]
    assert replies[0]["result"] == {}
    assert replies[1]["error"]["code"] == -32601


def list_tools(server: McpProcess) -> list[dict[str, Any]]:
    tools: list[dict[str, Any]] = server.request("tools/list")["result"]["tools"]
    return tools


@pytest.mark.parametrize("version", VERSIONS)
def test_default_tools_list_is_small_and_valid(server: McpProcess, version: str) -> None:
    server.initialize(version)
    reply = server.request("tools/list")
    size = len(json.dumps(reply, separators=(",", ":"), ensure_ascii=False).encode())
    assert size <= 8_500, size  # the ceiling: 8.5 KB
    tools = reply["result"]["tools"]
    assert [tool["name"] for tool in tools] == DEFAULT_TOOLS
    known = set(jsonschema.Draft202012Validator.FORMAT_CHECKER.checkers)
    for tool in tools:
        assert set(tool) == {"name", "description", "inputSchema"}, tool["name"]
        schema = tool["inputSchema"]
        jsonschema.Draft202012Validator.check_schema(
            schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
        )
        assert not set(formats_in(schema)) - known, (tool["name"], formats_in(schema))
        assert "max_tokens" in schema["properties"], tool["name"]
        assert 0 < len(tool["description"]) <= 400, tool["name"]
    checkfor = next(tool for tool in tools if tool["name"] == "checkfor")
    # checkfor's own parameters unchanged, in its order; the extras after them.
    properties = checkfor["inputSchema"]["properties"]
    assert {k: properties[k] for k in CHECKFOR_SCHEMA["properties"]} == CHECKFOR_SCHEMA["properties"]
    assert list(properties)[: len(CHECKFOR_SCHEMA["properties"])] == sorted(CHECKFOR_SCHEMA["properties"])
    assert list(properties)[len(CHECKFOR_SCHEMA["properties"]) :] == ["recursive", "regex", "max_tokens"]
    assert checkfor["inputSchema"]["required"] == ["search"]


def test_every_schema_is_valid_json_schema(full_server: McpProcess) -> None:
    full_server.initialize("2025-11-25")
    tools = list_tools(full_server)
    names = [tool["name"] for tool in tools]
    expected = {
        op["name"].replace(".", "_").replace("grep_search", "checkfor")
        for op in cc_search.operations()
        if op["name"] not in ("claude.install", "claude.install_mcp")
    }
    assert set(names) == expected
    assert names[: len(DEFAULT_TOOLS)] == DEFAULT_TOOLS
    known = set(jsonschema.Draft202012Validator.FORMAT_CHECKER.checkers)
    for tool in tools:
        for key in ("inputSchema", "outputSchema"):
            schema = tool[key]
            jsonschema.Draft202012Validator.check_schema(
                schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
            )
            assert not set(formats_in(schema)) - known, (tool["name"], key, formats_in(schema))
            assert schema["type"] == "object", (tool["name"], key)
            assert "$ref" not in json.dumps(schema), tool["name"]
        assert tool["description"]

    # Clients before 2025-06-18 get no outputSchema.
    full_server.initialize("2025-03-26")
    assert all("outputSchema" not in tool for tool in list_tools(full_server))


def test_tools_call_every_tool(full_server: McpProcess, tree: Path) -> None:
    server = full_server
    server.initialize("2025-11-25")
    tools = {tool["name"]: tool for tool in list_tools(server)}

    def call(tool: str, arguments: Any) -> Any:
        result = server.call(tool, arguments)
        assert result.get("isError") is not True, result
        structured = result["structuredContent"]
        assert json.loads(text_of(result)) == structured or tool == "checkfor"
        jsonschema.validate(structured, tools[tool]["outputSchema"])
        return structured

    found = call("checkfor", {"dir": [str(tree)], "search": "log", "whole_word": True})
    assert json.loads(text_of(server.call("checkfor", {"search": "log", "whole_word": True}))) == {
        "directories": [
            {
                "dir": ".",
                "matches_found": 2,
                "files": [
                    {
                        "path": "log.txt",
                        "matches": [
                            {"line": 1, "content": "log message"},
                            {"line": 3, "content": "log"},
                        ],
                    }
                ],
                "below": {"matches": 1, "files": 1},
            }
        ]
    }
    assert found["directories"][0]["dir"] == str(tree)

    grep = call("checkfor", {"search": "log", "recursive": True, "dir": "."})
    paths = [f["path"] for f in grep["directories"][0]["files"]]
    assert paths == ["log.txt", "sub/deep.txt"]

    refreshed = call("files_refresh", {"root": str(tree)})
    assert refreshed["files"] == 5
    suggested = call("files_suggest", {"query": "button"})
    assert suggested["paths"] == ["src/components/Button.tsx"]

    # Any other tool answers a call with a result, never a protocol error.
    for name in tools:
        result = server.call(name, {})
        assert isinstance(text_of(result), str)


def test_checkfor_text_is_compact_json(server: McpProcess) -> None:
    server.initialize("2024-11-05")
    result = server.call(
        "checkfor",
        {"search": "log", "exclude": ["logger", "catalog"], "context": 1, "ext": ".txt"},
    )
    assert "structuredContent" not in result
    text = text_of(result)
    assert "\n" not in text and ", " not in text and '": ' not in text
    directory = json.loads(text)["directories"][0]
    assert (directory["matches_found"], directory["original_matches"]) == (2, 4)
    assert directory["filtered_matches"] == 2
    first = directory["files"][0]["matches"][0]
    assert first == {"line": 1, "content": "log message", "context_after": ["logger info"]}


def test_failing_tool_is_error(full_server: McpProcess) -> None:
    server = full_server
    server.initialize()
    for tool, arguments, needle in [
        ("files_suggest", {"limit": 99}, "limit"),
        ("checkfor", {"search": ""}, "search"),
        ("checkfor", {"search": "x", "max_tokens": -1}, "max_tokens"),
        ("files_refresh", {"root": "missing"}, "missing"),
        ("checkfor", {"dir": "."}, "search"),
    ]:
        result = server.call(tool, arguments)
        assert result["isError"] is True, (tool, result)
        assert needle in text_of(result)


def test_paths_escaping_the_roots_are_refused(
    full_server: McpProcess, tree: Path, tmp_path: Path
) -> None:
    server = full_server
    outside = make_files(tmp_path / "outside", ["secret.txt"], "log secret\n")
    (tree / "escape").symlink_to(outside)
    server.initialize()
    for tool, arguments in [
        ("checkfor", {"search": "log", "dir": ".."}),
        ("checkfor", {"search": "log", "dir": ["sub/../.."]}),
        ("checkfor", {"search": "log", "dir": [".", str(outside)]}),
        ("checkfor", {"search": "log", "dir": "escape"}),
        ("checkfor", {"search": "log", "dir": "escape", "recursive": True}),
        ("files_suggest", {"query": "secret", "project_dir": "escape"}),
        ("files_refresh", {"root": "../outside"}),
    ]:
        result = server.call(tool, arguments)
        assert result["isError"] is True, (tool, arguments, result)
        assert "outside the directories" in text_of(result)
        assert "secret" not in text_of(result)


def test_several_roots(home: Path, tree: Path, tmp_path: Path) -> None:
    other = make_files(tmp_path / "other", ["notes.md"], "log in other\n")
    process = McpProcess(home, "--root", str(tree), "--root", str(other))
    try:
        process.initialize()
        result = process.call("checkfor", {"search": "log in", "dir": ["sub", str(other)]})
        directories = json.loads(text_of(result))["directories"]
        assert [d["matches_found"] for d in directories] == [0, 1]
        assert [d["dir"] for d in directories] == ["sub", str(other)]
    finally:
        assert process.close() == 0


def test_default_root_is_the_project(home: Path, tree: Path) -> None:
    process = McpProcess(home, cwd=tree / "sub")
    try:
        process.initialize()
        found = json.loads(text_of(process.call("checkfor", {"search": "below"})))
        assert found["directories"][0]["files"][0]["path"] == "deep.txt"
        refused = process.call("checkfor", {"search": "log", "dir": str(tree)})
        assert refused["isError"] is True
    finally:
        assert process.close() == 0


def test_project_dir_is_the_first_root(home: Path, tree: Path, tmp_path: Path) -> None:
    other = make_files(tmp_path / "other", ["notes.md"], "log in other\n")
    elsewhere = make_files(tmp_path / "elsewhere", ["x.txt"], "log in elsewhere\n")
    process = McpProcess(home, "-C", str(tree), "--root", str(other), cwd=elsewhere)
    try:
        process.initialize()
        found = json.loads(text_of(process.call("checkfor", {"search": "below", "dir": "sub"})))
        assert found["directories"][0]["files"][0]["path"] == "deep.txt"
        both = json.loads(text_of(process.call("checkfor", {"search": "log in", "dir": ["sub", str(other)]})))
        assert [d["matches_found"] for d in both["directories"]] == [0, 1]
        refused = process.call("checkfor", {"search": "log", "dir": str(elsewhere)})
        assert refused["isError"] is True
    finally:
        assert process.close() == 0


def test_missing_root_is_an_error(home: Path, tmp_path: Path) -> None:
    proc = subprocess.run(
        [cli_path(), "mcp", "--root", str(tmp_path / "nope")],
        env={**os.environ, "CC_SEARCH_HOME": str(home)},
        input="",
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert "nope" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.skipif(sys.version_info < (3, 10), reason="the MCP SDK needs Python 3.10")
def test_official_sdk_client(home: Path, tree: Path, tmp_path: Path) -> None:
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    params = StdioServerParameters(
        command=cli_path(),
        args=["mcp", "--root", str(tree)],
        env={**os.environ, "CC_SEARCH_HOME": str(home), "CLAUDE_CONFIG_DIR": str(home / "claude")},
    )

    async def session() -> tuple[Any, Any, Any]:
        with open(tmp_path / "server-stderr.log", "w") as errlog:
            # Nested rather than parenthesised: this file must parse on Python 3.9.
            async with stdio_client(params, errlog=errlog) as (read, write):  # noqa: SIM117
                async with ClientSession(read, write) as client:
                    initialized = await client.initialize()
                    tools = await client.list_tools()
                    called = await client.call_tool(
                        "checkfor", {"search": "log", "whole_word": True, "dir": [str(tree)]}
                    )
                    return initialized, tools, called

    initialized, tools, called = asyncio.run(session())
    assert initialized.server_info.name == "cc-search"
    assert initialized.server_info.version == cc_search.__version__
    assert initialized.protocol_version in VERSIONS
    names = [tool.name for tool in tools.tools]
    assert names == DEFAULT_TOOLS
    assert called.is_error is False
    found = json.loads(called.content[0].text)
    assert found["directories"][0]["matches_found"] == 2
    # The result once: as text, no structured copy unless the server was asked for one;
    # then a note of what `recursive` would add (sub/deep.txt's match).
    assert called.structured_content is None
    assert len(called.content) == 2
    assert called.content[1].text.startswith("Note: 1 more match in 1 file in subdirectories")
