"""Helpers shared by the tests: real files, real mtimes, the installed CLI."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

#: The example project of the file-picker documentation.
PICKER_FILES = ["src/components/Button.tsx", "src/components/Modal.tsx", "README.md"]


def make_files(root: Path, paths: Iterable[str], text: str = "") -> Path:
    """Create `paths` (relative, `/`-separated) under `root`; return `root`."""
    for rel in paths:
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def set_mtime(path: Path, seconds: float) -> None:
    os.utime(path, (seconds, seconds))


def cli_path() -> str:
    """The installed `cc-search` entry point of this interpreter's environment."""
    found = shutil.which("cc-search", path=os.path.dirname(sys.executable))
    if found is None:
        pytest.fail("the cc-search entry point is not installed (run `maturin develop`)")
    return found


def native_hook_path() -> str:
    """The native hook program (`cc-search-hook`) installed beside the entry point."""
    found = shutil.which("cc-search-hook", path=os.path.dirname(sys.executable))
    if found is None:
        pytest.fail("cc-search-hook is not installed beside cc-search (run `make python`)")
    return found


def run_program(
    argv: list[str],
    home: Path,
    cwd: Path | None = None,
    stdin: str | bytes | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[Any]:
    """Run `argv` with the data root `home` (and `env` on top of this environment);
    bytes on stdin give bytes back."""
    return subprocess.run(
        argv,
        cwd=cwd,
        env={**os.environ, "CC_SEARCH_HOME": str(home), **(env or {})},
        input=stdin,
        capture_output=True,
        text=not isinstance(stdin, bytes),
        timeout=60,
    )


def run_cli(
    *args: str,
    home: Path,
    cwd: Path | None = None,
    stdin: str | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    return run_program([cli_path(), *args], home, cwd=cwd, stdin=stdin, env=env)


# ── Claude Code transcripts, written in the real format ──

#: "Now" of the session tests: 2026-03-01T00:00:00Z.
NOW = 1_772_323_200
DAY = 86_400


def iso(seconds: int) -> str:
    """RFC 3339 with milliseconds, as Claude Code writes timestamps."""
    import datetime

    moment = datetime.datetime.fromtimestamp(seconds, tz=datetime.timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.000Z")


class Transcript:
    """One session transcript (`<projects>/<folder>/<session>.jsonl`) under construction:
    the records Claude Code writes, with the fields the parser reads."""

    def __init__(self, session: str, cwd: str, time: int) -> None:
        self.session = session
        self.cwd = cwd
        self.time = time
        self.lines: list[dict[str, object]] = []
        self._n = 0
        self._parent: str | None = None

    def _base(self, kind: str) -> dict[str, object]:
        self._n += 1
        self.time += 5
        uuid = f"{self.session}-{self._n:04d}"
        record: dict[str, object] = {
            "parentUuid": self._parent, "isSidechain": False, "userType": "external",
            "cwd": self.cwd, "sessionId": self.session, "version": "2.0.5",
            "gitBranch": "main", "type": kind, "uuid": uuid, "timestamp": iso(self.time),
        }
        self._parent = uuid
        return record

    def prompt(self, text: str) -> Transcript:
        record = self._base("user")
        record["message"] = {"role": "user", "content": text}
        self.lines.append(record)
        return self

    def reply(self, text: str, *, thinking: str | None = None, tool: str | None = None) -> Transcript:
        """An assistant message, one content block per line (as Claude Code splits them):
        optional thinking, the text, an optional Bash call whose output is `tool`."""
        message_id = f"msg_{self.session[:8]}_{self._n}"
        blocks: list[dict[str, object]] = []
        if thinking is not None:
            blocks.append({"type": "thinking", "thinking": thinking, "signature": "sig"})
        blocks.append({"type": "text", "text": text})
        if tool is not None:
            blocks.append({"type": "tool_use", "id": "toolu_1", "name": "Bash",
                           "input": {"command": "run"}})
        for block in blocks:
            record = self._base("assistant")
            record["message"] = {"id": message_id, "type": "message", "role": "assistant",
                                 "model": "claude-opus-4-1", "content": [block]}
            self.lines.append(record)
        if tool is not None:
            record = self._base("user")
            record["message"] = {"role": "user", "content": [
                {"tool_use_id": "toolu_1", "type": "tool_result", "content": tool}]}
            record["toolUseResult"] = {"stdout": tool}
            self.lines.append(record)
        return self

    def progress(self) -> Transcript:
        """Records the index skips on purpose."""
        self.lines.append({"type": "progress", "data": {"type": "hook_progress"},
                           "uuid": f"{self.session}-p{self._n}", "timestamp": iso(self.time)})
        self.lines.append({"type": "file-history-snapshot", "messageId": "x", "snapshot": {}})
        return self

    def text(self) -> str:
        import json

        return "".join(json.dumps(line) + "\n" for line in self.lines)

    def write(self, projects: Path, *, corrupt: bool = False) -> Path:
        """Write it under `projects`, in the folder Claude Code would name after the cwd;
        `corrupt` adds a line that is not JSON."""
        folder = projects / self.cwd.replace("/", "-")
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{self.session}.jsonl"
        path.write_text(self.text() + ("{this line is corrupted\n" if corrupt else ""))
        return path


def keyword_only(home: Path) -> Path:
    """Configure the data root `home` without a model: keyword search only."""
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text('[embed]\nmodel_dir = "/nonexistent/model"\n')
    return home
