"""The hooks as Claude Code runs them, under both programs the wheel installs:
`cc-search hook file-suggestion|session-start` (Python) and the native
`cc-search-hook file-suggestion|session-start`. A subprocess each, real JSON (or
nothing) on stdin; both must behave the same."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from support import cli_path, make_files, native_hook_path, run_cli, run_program, set_mtime


class Runtime:
    """One program that answers the hooks, and what its refresh writes to the log."""

    def __init__(self, name: str) -> None:
        self.name = name

    def argv(self, hook: str) -> list[str]:
        if self.name == "native":
            return [native_hook_path(), hook]
        return [cli_path(), "hook", hook]

    def started(self, project: Path) -> str:
        """How the log's first line of a session start ends."""
        if self.name == "native":
            return f"] refresh {project}: started"
        return f" session-start: {cli_path()} files refresh --project-dir {project}"

    def starts(self, log: str) -> int:
        """How many session starts the log records."""
        return log.count(": started\n" if self.name == "native" else " session-start: ")

    def indexed(self, root: Path, files: int, added: int) -> str:
        """The log's report of one root refreshed."""
        real = os.path.realpath(root)
        if self.name == "native":
            return f"indexed {real}: {files} files ({added} added, "
        return f"{real}: {files} files indexed; {added} added, "

    def run(
        self,
        hook: str,
        home: Path,
        stdin: str | bytes | None = None,
        env: dict[str, str] | None = None,
        cwd: Path | None = None,
    ) -> subprocess.CompletedProcess[Any]:
        return run_program(self.argv(hook), home, cwd=cwd, stdin=stdin, env=env)


@pytest.fixture(params=["python", "native"])
def runtime(request: pytest.FixtureRequest) -> Runtime:
    return Runtime(request.param)


#: Twenty files with distinct modification times.
FILES = [f"src/file{i:02}.ts" for i in range(20)]


@pytest.fixture(autouse=True)
def _claude_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    user_home = tmp_path / "user-home"
    user_home.mkdir()
    monkeypatch.setenv("HOME", str(user_home))
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "claude-config"))


@pytest.fixture
def app(tmp_path: Path) -> Path:
    root = make_files(tmp_path / "app", ["src/components/Button.tsx", "README.md", *FILES])
    for i, rel in enumerate(FILES):
        set_mtime(root / rel, 1_700_000_000 + i)
    set_mtime(root / "src/components/Button.tsx", 1_600_000_000)
    set_mtime(root / "README.md", 1_600_000_000)
    return root


def top_files(home: Path, project: Path) -> str:
    """What `files suggest` prints for an empty query: the project's top 15 files."""
    proc = run_cli("files", "suggest", "", home=home, cwd=project)
    assert proc.returncode == 0, proc
    assert len(proc.stdout.splitlines()) == 15
    return proc.stdout


def suggest_hook(
    runtime: Runtime, home: Path, project: Path, stdin: str | bytes | None
) -> subprocess.CompletedProcess[Any]:
    return runtime.run(
        "file-suggestion", home, stdin=stdin, env={"CLAUDE_PROJECT_DIR": str(project)}
    )


def test_file_suggestion_answers_the_query_on_stdin(
    runtime: Runtime, home: Path, app: Path
) -> None:
    proc = suggest_hook(runtime, home, app, '{"query": "butt"}')
    assert (proc.returncode, proc.stdout) == (0, "src/components/Button.tsx\n"), proc
    proc = suggest_hook(runtime, home, app, json.dumps({"query": "readme", "session_id": "abc"}))
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "README.md\n", "")
    proc = suggest_hook(runtime, home, app, '{"query": "nothing-matches-this"}')
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")
    # Two letters swapped, one wrong: still the file meant.
    for typo in ("butotn", "raedme", "readmy"):
        proc = suggest_hook(runtime, home, app, json.dumps({"query": typo}))
        assert proc.returncode == 0, proc
        expected = "README.md" if typo.startswith("r") else "src/components/Button.tsx"
        assert proc.stdout.splitlines()[:1] == [expected], (typo, proc)


def test_file_suggestion_without_the_variable_uses_the_current_directory(
    runtime: Runtime, home: Path, app: Path
) -> None:
    env = {k: v for k, v in os.environ.items() if k != "CLAUDE_PROJECT_DIR"}
    proc = subprocess.run(
        runtime.argv("file-suggestion"),
        cwd=app,
        env={**env, "CC_SEARCH_HOME": str(home)},
        input='{"query": "readme"}',
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (proc.returncode, proc.stdout) == (0, "README.md\n"), proc


def test_file_suggestion_prints_at_most_15_paths(runtime: Runtime, home: Path, app: Path) -> None:
    proc = suggest_hook(runtime, home, app, '{"query": "file"}')
    assert proc.returncode == 0
    lines = proc.stdout.splitlines()
    assert len(lines) == 15
    assert all(line.startswith("src/file") for line in lines)


@pytest.mark.parametrize("stdin", ["", "   \n", '{"query": ""}'])
def test_file_suggestion_without_input_lists_the_top_files(
    runtime: Runtime, home: Path, app: Path, stdin: str
) -> None:
    proc = suggest_hook(runtime, home, app, stdin)
    assert (proc.returncode, proc.stdout) == (0, top_files(home, app)), proc


@pytest.mark.parametrize(
    ("stdin", "why"),
    [
        ("{", "bytes that are not JSON"),
        ("not json at all", "15 bytes that are not JSON"),
        ("garbage\n", "8 bytes that are not JSON"),
        ("[]", "JSON that is not an object"),
        ("null", "JSON that is not an object"),
        ('"butt"', "JSON that is not an object"),
        ('{"query": 5}', "an object whose `query` is not a string"),
        ('{"query": null}', "an object whose `query` is not a string"),
        ('{"other": "butt"}', "an object without `query`"),
    ],
)
def test_file_suggestion_of_input_that_is_not_the_hooks_json_prints_nothing(
    runtime: Runtime, home: Path, app: Path, stdin: str, why: str
) -> None:
    top_files(home, app)  # indexed: the files are there to be listed
    proc = suggest_hook(runtime, home, app, stdin)
    assert (proc.returncode, proc.stdout) == (0, ""), proc
    prefix = 'cc-search: error: hook file-suggestion: the input is not {"query": "..."} but '
    assert proc.stderr.startswith(prefix), proc.stderr
    assert why in proc.stderr
    assert proc.stderr.count("\n") == 1, proc.stderr


def test_file_suggestion_with_no_stdin(runtime: Runtime, home: Path, app: Path) -> None:
    top = top_files(home, app)
    env = {**os.environ, "CC_SEARCH_HOME": str(home), "CLAUDE_PROJECT_DIR": str(app)}
    for stdin in (subprocess.DEVNULL, None):
        # DEVNULL: an empty stdin. None plus closing descriptor 0 in the child: no stdin.
        proc = subprocess.run(
            runtime.argv("file-suggestion"),
            stdin=stdin,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            preexec_fn=(lambda: os.close(0)) if stdin is None else None,
        )
        assert (proc.returncode, proc.stdout) == (0, top), proc


def test_file_suggestion_odd_text_never_breaks_the_picker(
    runtime: Runtime, home: Path, app: Path
) -> None:
    top_files(home, app)  # indexed, so that no run warns about indexing on the fly
    for query in ["\ud800", "\x00", '"', "NEAR(", "@@", "é" * 10_000, "src/comp\n"]:
        proc = suggest_hook(runtime, home, app, json.dumps({"query": query}))
        assert (proc.returncode, proc.stderr) == (0, ""), (query, proc)
    proc = suggest_hook(runtime, home, app, '{"query": "\\ud800butt"}')
    assert (proc.returncode, proc.stdout) == (0, "src/components/Button.tsx\n"), proc
    invalid_utf8 = suggest_hook(runtime, home, app, b'{"query": "\xff\xfebutt"}')
    assert (invalid_utf8.returncode, invalid_utf8.stderr) == (0, b"")
    assert invalid_utf8.stdout == b"src/components/Button.tsx\n"


def test_file_suggestion_answers_before_the_input_ends(
    runtime: Runtime, home: Path, app: Path
) -> None:
    # A writer that keeps its end of the pipe open: the answer comes as soon as one
    # complete JSON object has arrived, not after the 2 s a hook waits for more input.
    top_files(home, app)
    proc = subprocess.Popen(
        runtime.argv("file-suggestion"),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env={**os.environ, "CC_SEARCH_HOME": str(home), "CLAUDE_PROJECT_DIR": str(app)},
    )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        proc.stdin.write(b'{"query": ')
        proc.stdin.flush()
        time.sleep(0.5)
        completed = time.monotonic()
        proc.stdin.write(b'"butt"}')
        proc.stdin.flush()
        out = proc.stdout.read()  # to the end: the hook exits, stdin still open
        elapsed = time.monotonic() - completed
        assert proc.wait(timeout=30) == 0
    finally:
        proc.kill()
        proc.stdin.close()
        proc.stdout.close()
    assert out == b"src/components/Button.tsx\n"
    assert elapsed < 1.2, elapsed


def test_file_suggestion_errors_print_nothing_and_exit_0(
    runtime: Runtime, home: Path, app: Path, tmp_path: Path
) -> None:
    missing = tmp_path / "missing"
    proc = suggest_hook(runtime, home, missing, '{"query": "x"}')
    assert (proc.returncode, proc.stdout) == (0, "")
    assert proc.stderr.startswith("cc-search: error: hook file-suggestion: ")
    assert str(missing) in proc.stderr
    assert proc.stderr.count("\n") == 1

    # A data root that cannot be a directory: the index cannot open.
    blocked = tmp_path / "blocked"
    blocked.write_text("")
    proc = suggest_hook(runtime, blocked, app, '{"query": "butt"}')
    assert (proc.returncode, proc.stdout) == (0, ""), proc
    assert proc.stderr.startswith("cc-search: error: hook file-suggestion: ")
    assert proc.stderr.count("\n") == 1


# --- session-start ----------------------------------------------------------------------


def wait_for(predicate: object, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():  # type: ignore[operator]
            return
        time.sleep(0.05)
    pytest.fail("the background refresh did not finish in time")


def log_text(home: Path) -> str:
    log = home / "logs" / "session-start.log"
    return log.read_text() if log.exists() else ""


HOOK_INPUT = json.dumps(
    {
        "session_id": "0b6a",
        "transcript_path": "/tmp/x.jsonl",
        "hook_event_name": "SessionStart",
        "source": "startup",
    }
)


def test_session_start_refreshes_in_the_background(runtime: Runtime, home: Path, app: Path) -> None:
    started = time.monotonic()
    env = {"CLAUDE_PROJECT_DIR": str(app)}
    proc = runtime.run("session-start", home, stdin=HOOK_INPUT, env=env)
    elapsed = time.monotonic() - started
    # Nothing on stdout: Claude Code would add it to the conversation.
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", ""), proc
    assert elapsed < 10, elapsed

    done = runtime.indexed(app, 22, 22)
    wait_for(lambda: done in log_text(home))
    first = log_text(home).splitlines()[0]
    assert first.endswith(runtime.started(app)), first

    # The index is there: a query finds it without indexing on the fly.
    found = run_cli("files", "suggest", "butt", "--json", home=home, cwd=app)
    assert json.loads(found.stdout) == {"paths": ["src/components/Button.tsx"], "warnings": []}

    # A second session start appends to the same log.
    again = runtime.run("session-start", home, stdin="", cwd=app)
    assert (again.returncode, again.stdout, again.stderr) == (0, "", "")
    wait_for(lambda: runtime.indexed(app, 22, 0) in log_text(home))
    assert runtime.starts(log_text(home)) == 2


def test_session_start_with_no_stdin(runtime: Runtime, home: Path, app: Path) -> None:
    proc = subprocess.run(
        runtime.argv("session-start"),
        stdin=subprocess.DEVNULL,
        env={**os.environ, "CC_SEARCH_HOME": str(home), "CLAUDE_PROJECT_DIR": str(app)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")
    wait_for(lambda: runtime.indexed(app, 22, 22) in log_text(home))


def test_session_start_failures_are_logged_or_one_line(
    runtime: Runtime, home: Path, tmp_path: Path
) -> None:
    # The refresh itself fails in the background: the log says why, the hook succeeded.
    missing = tmp_path / "missing"
    proc = runtime.run("session-start", home, stdin="{}", env={"CLAUDE_PROJECT_DIR": str(missing)})
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")
    wait_for(lambda: "No such file or directory" in log_text(home))
    assert f"{missing}: No such file or directory" in log_text(home)

    # The hook cannot even start it (no place for the log): one line, status 0.
    blocked = tmp_path / "blocked"
    blocked.write_text("")
    env = {"CLAUDE_PROJECT_DIR": str(tmp_path)}
    proc = runtime.run("session-start", blocked, stdin="{}", env=env)
    assert (proc.returncode, proc.stdout) == (0, "")
    assert proc.stderr.startswith("cc-search: error: hook session-start: ")
    assert proc.stderr.count("\n") == 1
