"""Sessions through Python and the `cc-search search|chunk|index|status` CLI (spec 003
§5, §6, §10, §13): transcripts written in Claude Code's format, indexed into a real
SQLite file; the CLI run as a real process, on a pipe and on a pseudo-terminal."""

from __future__ import annotations

import json
import os
import pty
import re
import subprocess
import time
from pathlib import Path

import jq  # type: ignore[import-untyped]
import pytest

import cc_search
from support import DAY, Transcript, cli_path, keyword_only, run_cli

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
FOOTER = re.compile(r"^─{49}\nFound (\d+) results? in \d+\.\d\ds\n\Z", re.M)

#: A reply long enough to be truncated in the human output (300 characters shown).
LONG_REPLY = (
    "For JWT refresh tokens, rotate them on every use and store only a hash server side. "
    + "Detect reuse of an old token and revoke the whole family when it happens. " * 12
)


def write_projects(projects: Path) -> dict[str, Path]:
    """Two projects: `myapp` (3 days old: a JWT discussion with tool output and thinking;
    a corrupted line) and `auth-service` (20 days old: nginx caching). Times are relative
    to the clock, which the CLI's searches use."""
    now = int(time.time()) - 3600
    recent = Transcript("aaaaaaaa-0000-4000-8000-000000000001", "/home/u/myapp", now - 3 * DAY)
    recent.progress().prompt("How should I handle JWT refresh tokens?").reply(
        LONG_REPLY,
        thinking="The user wants refresh token rotation with reuse detection.",
        tool="src/auth/refresh.rs: fn refresh_token() {}",
    ).prompt("And where does the refresh handler live?").reply(
        "The refresh handler lives in src/auth/refresh.rs."
    )
    old = Transcript("bbbbbbbb-0000-4000-8000-000000000002", "/home/u/auth-service",
                     now - 20 * DAY)
    old.prompt("How do I configure nginx caching for static assets?").reply(
        "Use proxy_cache_path and a location block for static assets in nginx."
    )
    return {"myapp": recent.write(projects, corrupt=True), "auth": old.write(projects)}


@pytest.fixture
def projects(tmp_path: Path) -> Path:
    root = tmp_path / "claude" / "projects"
    write_projects(root)
    return root


@pytest.fixture
def sessions_home(tmp_path: Path) -> Path:
    return keyword_only(tmp_path / "home")


def cli(home: Path, projects: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`cc-search ARGS` with transcripts under `projects` (CLAUDE_CONFIG_DIR)."""
    return run_cli(*args, home=home, env={"CLAUDE_CONFIG_DIR": str(projects.parent)})


def on_terminal(
    home: Path, projects: Path, *args: str, env: dict[str, str] | None = None
) -> tuple[str, str, int]:
    """Run the CLI with stdout and stderr on pseudo-terminals; (stdout, stderr, status)."""
    full_env = {**os.environ, "CC_SEARCH_HOME": str(home),
                "CLAUDE_CONFIG_DIR": str(projects.parent), "COLUMNS": "200", **(env or {})}
    full_env.pop("NO_COLOR", None)
    full_env.update(env or {})
    out_master, out_slave = pty.openpty()
    err_master, err_slave = pty.openpty()
    process = subprocess.Popen([cli_path(), *args], stdout=out_slave, stderr=err_slave,
                               stdin=subprocess.DEVNULL, env=full_env)
    os.close(out_slave)
    os.close(err_slave)
    captured = {out_master: b"", err_master: b""}
    for fd in captured:
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # EIO: the other side is closed
                break
            if not chunk:
                break
            captured[fd] += chunk
        os.close(fd)
    status = process.wait(timeout=120)
    text = {fd: data.decode().replace("\r\n", "\n") for fd, data in captured.items()}
    return text[out_master], text[err_master], status


# ── spec §10 edge cases and §13 M5, M6 ──


def test_an_empty_query_is_refused_with_query_required(sessions_home: Path,
                                                       projects: Path) -> None:
    for args in (["search"], ["search", ""], ["search", "   "]):
        done = cli(sessions_home, projects, *args)
        assert done.returncode == 1, args
        assert done.stderr == "cc-search: error: Query required\n"
        assert done.stdout == ""
    with cc_search.Engine(sessions_home) as engine, pytest.raises(
        cc_search.InvalidRequestError, match="Query required"
    ):
        engine.sessions_search("  ")


def test_m6_the_first_search_indexes_then_answers(sessions_home: Path, projects: Path) -> None:
    assert not (sessions_home / "sessions.db").exists()
    done = cli(sessions_home, projects, "search", "JWT refresh tokens")
    assert done.returncode == 0, done.stderr
    assert "no session index yet: indexed 2 sessions" in done.stderr
    assert done.stdout.startswith("[1] Project: myapp | 3 days ago | 100%\n")
    status = json.loads(cli(sessions_home, projects, "status", "--json").stdout)
    assert status["sessions"] == 2
    assert status["last_indexed"] is not None
    # The next search does not index again.
    again = cli(sessions_home, projects, "search", "JWT refresh tokens")
    assert "no session index yet" not in again.stderr


def test_m5_json_is_valid_for_jq_with_the_spec_schema_and_full_content(
    sessions_home: Path, projects: Path
) -> None:
    done = cli(sessions_home, projects, "search", "JWT refresh tokens", "--json")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert jq.compile(".query").input_text(out).first() == "JWT refresh tokens"
    assert jq.compile(".total_results == (.results | length)").input_text(out).first()
    assert isinstance(jq.compile(".search_time_ms").input_text(out).first(), int)
    first = jq.compile(".results[0]").input_text(out).first()
    for key, kind in {"rank": int, "score": float, "project": str, "session_id": str,
                      "session_path": str, "timestamp": str, "messages": list}.items():
        assert isinstance(first[key], kind), key
    assert first["rank"] == 1
    assert first["project"] == "/home/u/myapp"
    assert first["session_id"] == "aaaaaaaa-0000-4000-8000-000000000001"
    assert Path(first["session_path"]).is_file()  # INV-2
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", first["timestamp"])
    roles = jq.compile("[.results[0].messages[].role]").input_text(out).first()
    assert roles[0] == "user" and "assistant" in roles
    # Full content in JSON: the reply the human output truncates is whole here.
    contents = jq.compile("[.results[].messages[].content]").input_text(out).first()
    assert LONG_REPLY.strip() in contents


def test_no_match_for_the_project_filter_says_so(sessions_home: Path, projects: Path) -> None:
    done = cli(sessions_home, projects, "search", "nginx", "--project", "nowhere")
    assert done.returncode == 0
    assert "No sessions found for project nowhere" in done.stderr
    assert done.stdout.startswith("No results.\n")
    assert FOOTER.search(done.stdout).group(1) == "0"  # type: ignore[union-attr]


def test_a_corrupted_line_is_skipped_with_a_warning(sessions_home: Path,
                                                    projects: Path) -> None:
    done = cli(sessions_home, projects, "index")
    assert done.returncode == 0
    assert re.search(r"aaaaaaaa-0000-4000-8000-000000000001\.jsonl: skipped 1 corrupt line",
                     done.stderr)
    # The rest of that session was indexed (N4).
    found = cli(sessions_home, projects, "search", "refresh handler", "--json")
    assert json.loads(found.stdout)["results"][0]["project"] == "/home/u/myapp"


# ── spec §6: the human layout ──


def test_human_output_has_the_spec_layout_without_colour_on_a_pipe(
    sessions_home: Path, projects: Path
) -> None:
    done = cli(sessions_home, projects, "search", "JWT refresh tokens", "-n", "2")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert not ANSI.search(out)
    blocks = out.split("\n\n")
    assert blocks[0] == "[1] Project: myapp | 3 days ago | 100%"
    assert blocks[1] == "  You: How should I handle JWT refresh tokens?"
    claude = blocks[2].split("\n")
    assert claude[0].startswith("  Claude: For JWT refresh tokens, rotate them")
    more = len(LONG_REPLY.strip()) - len(claude[0]) + len("  Claude: ")
    assert claude[-1] == f"  [truncated - {more} more chars]"
    hit = json.loads(cli(sessions_home, projects, "search", "JWT refresh tokens", "--json")
                     .stdout)["results"][0]
    assert f"\n  → cc-search chunk {hit['id']}\n" in out
    assert re.fullmatch(r"[0-9a-f]{8}", hit["id"])
    assert FOOTER.search(out)


def test_colours_on_a_terminal_and_none_with_no_color(sessions_home: Path,
                                                      projects: Path) -> None:
    out, _, status = on_terminal(sessions_home, projects, "search", "JWT refresh tokens")
    assert status == 0
    assert "\x1b[" in out
    plain = ANSI.sub("", out)
    assert plain.startswith("[1] Project: myapp | 3 days ago | 100%\n")
    # `You:` in cyan, `Claude:` in green, rank in bold cyan.
    assert re.search(r"\x1b\[36mYou:\x1b\[0m", out)
    assert re.search(r"\x1b\[32mClaude:\x1b\[0m", out)
    assert re.search(r"\x1b\[1;36m\[1\]\x1b\[0m", out)
    out, _, status = on_terminal(sessions_home, projects, "search", "JWT refresh tokens",
                                 env={"NO_COLOR": "1"})
    assert status == 0
    assert not ANSI.search(out)
    assert out == plain.replace(plain.splitlines()[-1], out.splitlines()[-1])


def test_index_draws_a_progress_bar_on_a_terminal_only(sessions_home: Path,
                                                      projects: Path) -> None:
    out, err, status = on_terminal(sessions_home, projects, "index")
    assert status == 0
    assert "Reading files" in err and "2/2 100%" in err
    assert err.count("\r") >= 2  # redrawn in place, then cleared
    assert out.startswith("Indexed 2 sessions from ")
    piped = cli(sessions_home, projects, "index", "--force")
    assert "Parsing" not in piped.stderr and "\r" not in piped.stderr


def test_index_status_and_chunk_commands(sessions_home: Path, projects: Path) -> None:
    first = cli(sessions_home, projects, "index")
    assert first.returncode == 0
    assert first.stdout.startswith(f"Indexed 2 sessions from {projects}: 2 parsed, 0 grown, ")
    again = json.loads(cli(sessions_home, projects, "index", "--json").stdout)
    assert (again["parsed"], again["unchanged"], again["chunks_written"]) == (0, 2, 0)
    forced = json.loads(cli(sessions_home, projects, "index", "--force", "--json").stdout)
    assert forced["parsed"] == 2

    status = cli(sessions_home, projects, "status")
    assert status.returncode == 0
    rows = dict(
        (line.split(":", 1)[0], line.split(":", 1)[1].strip())
        for line in status.stdout.splitlines() if not line.startswith(" ")
    )
    assert rows["Sessions"] == "2"
    assert rows["Chunks"].startswith(str(forced["chunks"]) + " (")
    assert rows["Projects"] == "2"
    assert "/home/u/auth-service" in status.stdout and "/home/u/myapp" in status.stdout
    assert rows["Index"].startswith(str(sessions_home / "sessions.db"))
    assert rows["Model"].startswith("none")
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", rows["Last indexed"])

    hit = json.loads(cli(sessions_home, projects, "search", "JWT refresh", "--json").stdout)[
        "results"][0]
    shown = cli(sessions_home, projects, "chunk", hit["id"][:5])
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.startswith(f"{hit['id']} {hit['kind']} | Project: myapp | ")
    assert hit["content"] in shown.stdout
    assert "→ cc-search chunk " in shown.stdout  # the other parts of the prompt group
    full = json.loads(cli(sessions_home, projects, "chunk", hit["id"], "--json").stdout)
    assert full["content"] == hit["content"]
    assert full["session_path"] == hit["session_path"]
    unknown = cli(sessions_home, projects, "chunk", "ffffffff")
    assert unknown.returncode == 1
    assert unknown.stderr.startswith("cc-search: error: ")


def test_filters_from_the_command_line(sessions_home: Path, projects: Path) -> None:
    def results(*args: str) -> list[dict[str, object]]:
        done = cli(sessions_home, projects, "search", *args, "--json")
        assert done.returncode == 0, done.stderr
        found: list[dict[str, object]] = json.loads(done.stdout)["results"]
        return found

    assert {hit["project"] for hit in results("nginx refresh", "--project", "AUTH-serv")} == {
        "/home/u/auth-service"}
    # --since relative to the clock: both sessions are older than a day.
    assert results("nginx refresh", "--since", "1d") == []
    assert {hit["kind"] for hit in results("refresh", "-t", "tool,thinking", "-n", "10")} == {
        "tool", "thinking"}
    assert len(results("refresh", "--limit", "1")) == 1
    bad = cli(sessions_home, projects, "search", "x", "--type", "nonsense")
    assert bad.returncode == 1 and "unknown type" in bad.stderr
    bad = cli(sessions_home, projects, "search", "x", "--since", "yesterday")
    assert bad.returncode == 1 and "`since`" in bad.stderr


# ── the Python API ──


def test_progress_reaches_the_callback_and_its_exception_stops_the_run(
    sessions_home: Path, projects: Path
) -> None:
    seen: list[tuple[str, int, int]] = []
    with cc_search.Engine(sessions_home) as engine:
        result = engine.sessions_index(projects_dir=projects,
                                       progress=lambda *step: seen.append(step))
        assert result["sessions"] == 2
        assert seen[0] == ("parse", 0, 2) and seen[-1] == ("parse", 2, 2)

        def interrupt(stage: str, done: int, total: int) -> None:
            raise KeyboardInterrupt

        started = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            engine.sessions_index(projects_dir=projects, force=True, progress=interrupt)
        assert time.monotonic() - started < 1
        # The run stopped before it wrote: the index is as the first run left it, and
        # the next run does the work.
        assert engine.sessions_status()["chunks"] == result["chunks"]
        again = engine.sessions_index(projects_dir=projects, force=True)
        assert again["parsed"] == 2


def test_the_closest_matches_by_meaning_come_with_a_note(tmp_path: Path,
                                                         projects: Path) -> None:
    home = tmp_path / "with-model"  # nothing configured: the installed model is found
    done = cli(home, projects, "search", "credential renewal and revocation strategy")
    assert done.returncode == 0, done.stderr
    note, rest = done.stdout.split("\n\n", 1)
    assert "closest" in note.lower()
    assert rest.startswith("[1] Project: ")
    # A question nothing is about: an empty answer that says so.
    done = cli(home, projects, "search", "sourdough starter feeding schedule")
    assert done.returncode == 0, done.stderr
    note, rest = done.stdout.split("\n\n", 1)
    assert note == 'nothing relevant to "sourdough starter feeding schedule" in the sessions searched'
    assert rest.startswith("No results.")
