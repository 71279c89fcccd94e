"""`cc-search hook file-suggestion` and `cc-search hook session-start`, as Claude Code
runs them: the installed entry point in a subprocess, real JSON (or nothing) on stdin."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest

from support import cli_path, make_files, run_cli, set_mtime

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
    home: Path, project: Path, stdin: str | None, **kwargs: object
) -> subprocess.CompletedProcess[str]:
    return run_cli(
        "hook",
        "file-suggestion",
        home=home,
        stdin=stdin,
        env={"CLAUDE_PROJECT_DIR": str(project)},
        **kwargs,  # type: ignore[arg-type]
    )


def test_file_suggestion_answers_the_query_on_stdin(home: Path, app: Path) -> None:
    proc = suggest_hook(home, app, '{"query": "butt"}')
    assert (proc.returncode, proc.stdout) == (0, "src/components/Button.tsx\n"), proc
    proc = suggest_hook(home, app, json.dumps({"query": "readme", "session_id": "abc"}))
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "README.md\n", "")
    proc = suggest_hook(home, app, '{"query": "nothing-matches-this"}')
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")


def test_file_suggestion_without_the_variable_uses_the_current_directory(
    home: Path, app: Path
) -> None:
    proc = run_cli("hook", "file-suggestion", home=home, cwd=app, stdin='{"query": "readme"}')
    assert (proc.returncode, proc.stdout) == (0, "README.md\n"), proc


def test_file_suggestion_prints_at_most_15_paths(home: Path, app: Path) -> None:
    proc = suggest_hook(home, app, '{"query": "file"}')
    assert proc.returncode == 0
    lines = proc.stdout.splitlines()
    assert len(lines) == 15
    assert all(line.startswith("src/file") for line in lines)


@pytest.mark.parametrize(
    "stdin",
    [
        "",
        "   \n",
        "{",
        "not json at all",
        "[]",
        "null",
        '"butt"',
        '{"query": 5}',
        '{"query": null}',
        '{"other": "butt"}',
        '{"query": ""}',
    ],
)
def test_file_suggestion_without_a_usable_query_lists_the_top_files(
    home: Path, app: Path, stdin: str
) -> None:
    proc = suggest_hook(home, app, stdin)
    assert (proc.returncode, proc.stdout) == (0, top_files(home, app)), proc


def test_file_suggestion_with_no_stdin(home: Path, app: Path) -> None:
    top = top_files(home, app)
    env = {**os.environ, "CC_SEARCH_HOME": str(home), "CLAUDE_PROJECT_DIR": str(app)}
    for stdin in (subprocess.DEVNULL, None):
        # DEVNULL: an empty stdin. None plus closing descriptor 0 in the child: no stdin.
        proc = subprocess.run(
            [cli_path(), "hook", "file-suggestion"],
            stdin=stdin,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            preexec_fn=(lambda: os.close(0)) if stdin is None else None,
        )
        assert (proc.returncode, proc.stdout) == (0, top), proc


def test_file_suggestion_odd_text_never_breaks_the_picker(home: Path, app: Path) -> None:
    for query in ["\ud800", "\x00", '"', "NEAR(", "@@", "é" * 10_000, "src/comp\n"]:
        proc = suggest_hook(home, app, json.dumps({"query": query}))
        assert proc.returncode == 0, (query, proc)
        assert "Traceback" not in proc.stderr
    proc = suggest_hook(home, app, '{"query": "\\ud800butt"}')
    assert proc.returncode == 0
    invalid_utf8 = subprocess.run(
        [cli_path(), "hook", "file-suggestion"],
        input=b'{"query": "\xff\xfebutt"}',
        env={**os.environ, "CC_SEARCH_HOME": str(home), "CLAUDE_PROJECT_DIR": str(app)},
        capture_output=True,
        timeout=60,
    )
    assert invalid_utf8.returncode == 0
    assert b"Traceback" not in invalid_utf8.stderr


def test_file_suggestion_errors_print_nothing_and_exit_0(
    home: Path, app: Path, tmp_path: Path
) -> None:
    missing = tmp_path / "missing"
    proc = suggest_hook(home, missing, '{"query": "x"}')
    assert (proc.returncode, proc.stdout) == (0, "")
    assert proc.stderr.startswith("cc-search: error: hook file-suggestion: ")
    assert str(missing) in proc.stderr
    assert proc.stderr.count("\n") == 1

    # A data root that cannot be a directory: the index cannot open.
    blocked = tmp_path / "blocked"
    blocked.write_text("")
    proc = suggest_hook(blocked, app, '{"query": "butt"}')
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


def test_session_start_refreshes_in_the_background(home: Path, app: Path) -> None:
    started = time.monotonic()
    proc = run_cli(
        "hook",
        "session-start",
        home=home,
        stdin=HOOK_INPUT,
        env={"CLAUDE_PROJECT_DIR": str(app)},
    )
    elapsed = time.monotonic() - started
    # Nothing on stdout: Claude Code would add it to the conversation.
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", ""), proc
    assert elapsed < 10, elapsed

    done = f"{os.path.realpath(app)}: 22 files indexed; 22 added"
    wait_for(lambda: done in log_text(home))
    first = log_text(home).splitlines()[0]
    assert " session-start: " in first
    assert first.endswith(f"files refresh --project-dir {app}")

    # The index is there: a query finds it without indexing on the fly.
    found = run_cli("files", "suggest", "butt", "--json", home=home, cwd=app)
    assert json.loads(found.stdout) == {"paths": ["src/components/Button.tsx"], "warnings": []}

    # A second session start appends to the same log.
    again = run_cli("hook", "session-start", home=home, stdin="", cwd=app)
    assert (again.returncode, again.stdout, again.stderr) == (0, "", "")
    wait_for(lambda: "22 files indexed; 0 added, 0 updated, 0 removed" in log_text(home))
    assert log_text(home).count(" session-start: ") == 2


def test_session_start_with_no_stdin(home: Path, app: Path) -> None:
    proc = subprocess.run(
        [cli_path(), "hook", "session-start"],
        stdin=subprocess.DEVNULL,
        env={**os.environ, "CC_SEARCH_HOME": str(home), "CLAUDE_PROJECT_DIR": str(app)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")
    wait_for(lambda: "22 files indexed" in log_text(home))


def test_session_start_failures_are_logged_or_one_line(home: Path, tmp_path: Path) -> None:
    # The refresh itself fails in the background: the log says why, the hook succeeded.
    missing = tmp_path / "missing"
    proc = run_cli(
        "hook", "session-start", home=home, stdin="{}", env={"CLAUDE_PROJECT_DIR": str(missing)}
    )
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")
    wait_for(lambda: "No such file or directory" in log_text(home))
    assert f"cc-search: error: {missing}" in log_text(home)

    # The hook cannot even start it (no place for the log): one line, status 0.
    blocked = tmp_path / "blocked"
    blocked.write_text("")
    proc = run_cli(
        "hook", "session-start", home=blocked, stdin="{}", env={"CLAUDE_PROJECT_DIR": str(tmp_path)}
    )
    assert (proc.returncode, proc.stdout) == (0, "")
    assert proc.stderr.startswith("cc-search: error: hook session-start: ")
    assert proc.stderr.count("\n") == 1
