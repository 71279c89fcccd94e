"""A minimal MCP client for the benchmarks: a server as a child process, one JSON-RPC
message a line each way."""

from __future__ import annotations

import json
import os
import select
import subprocess
from pathlib import Path
from typing import Any


class LineClient:
    """`argv` (an MCP server on stdin/stdout) as a child process."""

    def __init__(
        self, argv: list[str], env: dict[str, str], cwd: Path, timeout: float = 60
    ) -> None:
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, cwd=cwd
        )
        self.timeout = timeout
        self.buffer = b""
        self.next_id = 0

    def send(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(message).encode() + b"\n")
        self.proc.stdin.flush()

    def request(self, method: str, params: Any = None) -> bytes:
        """Send a request and return its reply line, raw; exit on a JSON-RPC error."""
        self.next_id += 1
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        while b"\n" not in self.buffer:
            ready, _, _ = select.select([fd], [], [], self.timeout)
            if not ready:
                raise SystemExit(f"{method}: no reply within {self.timeout:g} s")
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                raise SystemExit(f"{method}: the server exited")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        reply = json.loads(line)
        if "error" in reply:
            raise SystemExit(f"{method} failed: {reply['error']}")
        return line

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=max(self.timeout, 60))
