"""The installed `cc-search` command, end to end (a subprocess per call)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import cc_search
from support import make_files, run_cli, set_mtime


def assert_one_error_line(proc: subprocess.CompletedProcess[str], message: str) -> None:
    assert proc.returncode == 1, proc
    assert proc.stdout == ""
    assert proc.stderr.count("\n") == 1, proc.stderr
    assert proc.stderr.startswith("cc-search: error: "), proc.stderr
    assert message in proc.stderr
    assert "Traceback" not in proc.stderr


def test_version(home: Path) -> None:
    proc = run_cli("--version", home=home)
    assert (proc.returncode, proc.stdout, proc.stderr) == (
        0,
        f"cc-search {cc_search.__version__}\n",
        "",
    )


def test_help_and_usage_errors(home: Path) -> None:
    shown = run_cli("--help", home=home)
    assert shown.returncode == 0
    for command in ("files", "ops", "call"):
        assert command in shown.stdout
    assert "--home" in shown.stdout

    bare = run_cli(home=home)
    # No command shows the help (exit 2 with click >= 8.2, 0 before).
    assert bare.returncode in (0, 2)
    assert "Usage: cc-search [OPTIONS] COMMAND" in bare.stdout + bare.stderr
    for args in (
        ["bogus"],
        ["files", "suggest", "x", "--limit", "abc"],
        ["files", "suggest", "x", "--no-such-option"],
        ["files", "refresh", "--max-depth"],
        ["call"],
    ):
        proc = run_cli(*args, home=home)
        assert proc.returncode == 2, (args, proc)
        assert proc.stdout == ""
        assert "Error: " in proc.stderr
        assert "Traceback" not in proc.stderr


def test_refresh_then_suggest(home: Path, project: Path) -> None:
    refreshed = run_cli("files", "refresh", str(project), home=home)
    assert refreshed.returncode == 0, refreshed
    assert refreshed.stdout == (
        f"{os.path.realpath(project)}: 3 files indexed; 3 added, 0 updated, 0 removed\n"
    )
    assert refreshed.stderr == ""
    assert (home / "files.db").is_file()

    found = run_cli("files", "suggest", "src/comp", "--project-dir", str(project), home=home)
    assert (found.returncode, found.stderr) == (0, "")
    assert found.stdout == "src/components/Modal.tsx\nsrc/components/Button.tsx\n"

    one = run_cli("files", "suggest", "src/comp", "--limit", "1", home=home, cwd=project)
    assert one.stdout == "src/components/Modal.tsx\n"

    none = run_cli("files", "suggest", "zzz", home=home, cwd=project)
    assert (none.returncode, none.stdout, none.stderr) == (0, "", "")


def test_incremental_refresh_output(home: Path, tmp_path: Path) -> None:
    root = make_files(tmp_path / "p", ["a.txt", "b.txt"])
    run_cli("files", "refresh", str(root), home=home)
    set_mtime(root / "a.txt", (root / "a.txt").stat().st_mtime + 60)
    (root / "b.txt").unlink()
    make_files(root, ["c.txt"])
    proc = run_cli("files", "refresh", "--json", home=home, cwd=root)
    assert proc.returncode == 0, proc
    result = json.loads(proc.stdout)
    counts = {"files": 2, "added": 1, "updated": 1, "removed": 1, "truncated": False}
    assert result == {
        "root": os.path.realpath(root),
        **counts,
        "roots": [{"root": os.path.realpath(root), **counts, "incremental": False}],
        "warnings": [],
    }


def test_refresh_options(home: Path, tmp_path: Path) -> None:
    root = make_files(tmp_path / "p", ["a.txt", "x.log", "y.tmp", "deep/b.txt"])
    proc = run_cli(
        "files",
        "refresh",
        str(root),
        "--exclude",
        "*.log",
        "--exclude",
        "*.tmp",
        "--max-depth",
        "1",
        home=home,
    )
    assert proc.returncode == 0, proc
    assert ": 1 files indexed;" in proc.stdout

    limited = run_cli("files", "refresh", str(root), "--max-files", "1", home=home)
    assert limited.returncode == 0
    assert "truncated" in limited.stdout
    assert limited.stderr.startswith("cc-search: warning: ")
    assert "more than 1 files" in limited.stderr


def test_suggest_indexes_on_the_fly_and_warns_on_stderr(home: Path, project: Path) -> None:
    proc = run_cli("files", "suggest", "readme", home=home, cwd=project)
    assert proc.returncode == 0
    assert proc.stdout == "README.md\n"
    assert proc.stderr.startswith("cc-search: warning: ")
    assert "not indexed yet" in proc.stderr


def test_suggest_json(home: Path, project: Path) -> None:
    proc = run_cli("files", "suggest", "Button", "--project-dir", str(project), "--json", home=home)
    assert proc.returncode == 0
    result = json.loads(proc.stdout)
    assert result["paths"] == ["src/components/Button.tsx"]
    assert len(result["warnings"]) == 1, "warnings stay in the JSON"
    assert proc.stderr == ""


def test_empty_and_hostile_queries(home: Path, tmp_path: Path) -> None:
    root = make_files(tmp_path / "p", ["old.md", "new.md", "-foo.txt", "AND.md"])
    set_mtime(root / "old.md", 1_600_000_000)
    set_mtime(root / "new.md", 1_700_000_000)
    set_mtime(root / "-foo.txt", 1_500_000_000)
    set_mtime(root / "AND.md", 1_400_000_000)
    run_cli("files", "refresh", home=home, cwd=root)

    def suggest(*args: str) -> str:
        proc = run_cli("files", "suggest", *args, home=home, cwd=root)
        assert (proc.returncode, proc.stderr) == (0, ""), proc
        return proc.stdout

    recent = "new.md\nold.md\n-foo.txt\nAND.md\n"
    assert suggest() == recent
    assert suggest("") == recent
    assert suggest('"') == recent
    assert suggest("*") == recent
    assert suggest("--", "-foo") == "-foo.txt\n"
    assert suggest("AND") == "AND.md\n"
    assert suggest("NEAR(") == ""
    assert suggest("x" * 100_000) == ""


def test_errors_are_one_line_and_exit_1(home: Path, project: Path, tmp_path: Path) -> None:
    assert_one_error_line(
        run_cli("files", "suggest", "x", "--limit", "0", home=home, cwd=project),
        "limit must be between 1 and 15, got 0",
    )
    assert_one_error_line(
        run_cli("files", "suggest", "x", "--limit", "16", home=home, cwd=project),
        "limit must be between 1 and 15, got 16",
    )
    missing = tmp_path / "missing"
    assert_one_error_line(
        run_cli("files", "refresh", str(missing), home=home),
        f"{missing}: No such file or directory",
    )
    assert_one_error_line(
        run_cli("files", "suggest", "x", "--project-dir", str(missing), home=home),
        f"{missing}: No such file or directory",
    )
    assert_one_error_line(
        run_cli("files", "refresh", "--max-files", "0", home=home, cwd=project),
        "max_files must be at least 1",
    )
    assert_one_error_line(run_cli("call", "nope", home=home), "unknown operation `nope`")
    assert_one_error_line(
        run_cli("call", "files.suggest", "{", home=home, cwd=project),
        "invalid request for `files.suggest`",
    )
    assert_one_error_line(
        run_cli("call", "files.suggest", '{"bogus": 1}', home=home, cwd=project),
        "unknown field `bogus`",
    )


def test_call_and_ops(home: Path, project: Path) -> None:
    listed = run_cli("ops", home=home)
    assert listed.returncode == 0
    names = [line.split()[0] for line in listed.stdout.splitlines()]
    assert names == [op["name"] for op in cc_search.operations()]

    described = run_cli("ops", "--json", home=home)
    assert json.loads(described.stdout) == cc_search.operations()

    params = json.dumps({"query": "readme", "project_dir": str(project)})
    called = run_cli("call", "files.suggest", params, home=home)
    assert called.returncode == 0, called
    assert json.loads(called.stdout)["paths"] == ["README.md"]

    piped = run_cli("call", "files.suggest", "-", home=home, stdin=params)
    assert piped.stdout == '{"paths":["README.md"],"warnings":[]}\n'

    defaults = run_cli("call", "files.refresh", home=home, cwd=project)
    assert json.loads(defaults.stdout)["root"] == os.path.realpath(project)


def test_home_option_overrides_the_environment(home: Path, project: Path, tmp_path: Path) -> None:
    other = tmp_path / "other-home"
    proc = run_cli("--home", str(other), "files", "refresh", str(project), home=home)
    assert proc.returncode == 0, proc
    assert (other / "files.db").is_file()
    assert not (home / "files.db").exists()


def test_invalid_config_warns_once_on_stderr(home: Path, project: Path) -> None:
    (home / "config.toml").write_text("[weights\n")
    proc = run_cli("files", "suggest", "readme", "--project-dir", str(project), home=home)
    assert proc.returncode == 0
    assert proc.stdout == "README.md\n"
    config_warnings = [line for line in proc.stderr.splitlines() if "config.toml" in line]
    assert len(config_warnings) == 1
    assert config_warnings[0].startswith(f"cc-search: warning: config {home / 'config.toml'}")

    config = home / "custom.toml"
    config.write_text("nonsense = [")
    proc = run_cli(
        "--config",
        str(config),
        "files",
        "suggest",
        "readme",
        "--project-dir",
        str(project),
        home=home,
    )
    assert (proc.returncode, proc.stdout) == (0, "README.md\n")
    assert proc.stderr.startswith(f"cc-search: warning: config {config}: invalid TOML")
    assert proc.stderr.count("\n") == 1


def test_python_dash_m(home: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "cc_search", "--version"],
        capture_output=True,
        text=True,
        env={**os.environ, "CC_SEARCH_HOME": str(home)},
    )
    assert (proc.returncode, proc.stdout) == (0, f"cc-search {cc_search.__version__}\n")


@pytest.mark.parametrize("query", ["readme", "README", "read"])
def test_picker_query_variants(home: Path, project: Path, query: str) -> None:
    proc = run_cli("files", "suggest", query, "--project-dir", str(project), home=home)
    assert proc.stdout == "README.md\n"
