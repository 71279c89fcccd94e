"""grep.search from Python: the ``Engine.grep`` method and the ``cc-search grep`` command
(a real subprocess), on real temporary directories."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import cc_search
from support import run_cli

LOG_FILE = "log message\nlogger info\nlog\ncatalog\n"


def write(root: Path, rel: str, content: str | bytes) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    return path


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "tree"
    write(root, "test.rtf", LOG_FILE)
    write(root, "model.go", "x := m.Table\nm.Tables()\ny := m.Table(1)\nm.TableName\n")
    write(root, "sub/deep.go", "log in a subdirectory\n")
    return root


# --- Engine.grep ------------------------------------------------------------------------


def test_whole_word(engine: cc_search.Engine, tree: Path) -> None:
    result = engine.grep("log", tree, whole_word=True)
    assert result == {
        "directories": [
            {
                "dir": str(tree),
                "matches_found": 2,
                "files": [
                    {
                        "path": "test.rtf",
                        "matches": [
                            {"line": 1, "content": "log message"},
                            {"line": 3, "content": "log"},
                        ],
                    }
                ],
                # sub/deep.go's match, which `recursive` would add.
                "below": {"matches": 1, "files": 1},
            }
        ]
    }


def test_exclude_statistics_and_their_absence(engine: cc_search.Engine, tree: Path) -> None:
    result = engine.grep("m.Table", [tree], exclude=["m.Tables", "m.TableName"], ext=".go")
    directory = result["directories"][0]
    assert (
        directory["matches_found"],
        directory.get("original_matches"),
        directory.get("filtered_matches"),
    ) == (2, 4, 2)
    assert [m["line"] for m in directory["files"][0]["matches"]] == [1, 3]
    hidden = engine.grep("m.Table", tree, exclude="m.Tables", hide_filter_stats=True)
    assert "original_matches" not in hidden["directories"][0]
    plain = engine.grep("m.Table", tree)
    assert "filtered_matches" not in plain["directories"][0]
    assert plain["directories"][0]["matches_found"] == 4


def test_recursive_context_and_order(engine: cc_search.Engine, tree: Path, tmp_path: Path) -> None:
    other = write(tmp_path / "other", "notes.txt", "no\nlog\n").parent
    result = engine.grep("log", [other, tree], recursive=True, whole_word=True, context=1)
    assert [d["dir"] for d in result["directories"]] == [str(other), str(tree)]
    assert result["directories"][0]["files"] == [
        {"path": "notes.txt", "matches": [{"line": 2, "content": "log", "context_before": ["no"]}]}
    ]
    assert [f["path"] for f in result["directories"][1]["files"]] == ["sub/deep.go", "test.rtf"]


def test_regex_case_insensitive_and_limits(engine: cc_search.Engine, tree: Path) -> None:
    found = engine.grep(r"^LOG\b", tree, regex=True, case_insensitive=True)
    assert [m["line"] for m in found["directories"][0]["files"][0]["matches"]] == [1, 3]
    capped = engine.grep("log", tree, max_matches=1)
    assert capped["truncated"] is True
    assert capped["directories"][0]["files"][0]["matches"] == [
        {"line": 1, "content": "log message"}
    ]
    # Room for the directory (with the count of matches below it, which a search of
    # the top level reports) and about one match: the first matches, in order.
    empty = {
        "directories": [
            {
                "dir": str(tree),
                "matches_found": 4,
                "files": [],
                "below": {"matches": 1, "files": 1},
            }
        ],
        "truncated": True,
    }
    budget = (len(json.dumps(empty, separators=(",", ":"))) + 100) // 4
    tiny = engine.grep("log", tree, max_tokens=budget)
    assert tiny["truncated"] is True
    assert tiny["directories"][0]["matches_found"] == 4
    assert tiny["directories"][0]["files"][0]["matches"][0] == {"line": 1, "content": "log message"}
    assert len(tiny["directories"][0]["files"][0]["matches"]) < 4
    assert len(json.dumps(tiny, separators=(",", ":"), ensure_ascii=False)) <= budget * 4


def test_missing_directory_and_warnings(engine: cc_search.Engine, tree: Path) -> None:
    (tree / "broken.txt").symlink_to(tree / "gone.txt")
    result = engine.grep("log", [tree / "missing", tree])
    missing, present = result["directories"]
    assert "No such file" in missing.get("error", "")
    assert missing["files"] == []
    assert present["matches_found"] == 4
    assert "error" not in present
    assert any("broken.txt" in w for w in result.get("warnings", []))


def test_defaults_to_the_project_directory(
    engine: cc_search.Engine, tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(tree))
    result = engine.grep("catalog")
    assert result["directories"][0]["dir"] == str(tree)
    assert result["directories"][0]["files"][0]["path"] == "test.rtf"


def test_invalid_input_raises(engine: cc_search.Engine, tree: Path) -> None:
    with pytest.raises(cc_search.InvalidRequestError, match="must not be empty"):
        engine.grep("", tree)
    with pytest.raises(cc_search.InvalidRequestError, match="regular expression"):
        engine.grep("(", tree, regex=True)
    with pytest.raises(cc_search.InvalidRequestError, match="max_matches"):
        engine.grep("x", tree, max_matches=0)


# --- cc-search grep -----------------------------------------------------------------------


def test_below_counts_what_recursive_would_add(engine: cc_search.Engine, tree: Path) -> None:
    flat = engine.grep("log", tree, whole_word=True)["directories"][0]
    assert flat.get("below") == {"matches": 1, "files": 1}
    deep = engine.grep("log", tree, whole_word=True, recursive=True)["directories"][0]
    assert "below" not in deep
    assert deep["matches_found"] == flat["matches_found"] + 1


def test_a_file_as_dir_is_that_file(engine: cc_search.Engine, home: Path, tree: Path) -> None:
    file = tree / "sub" / "deep.go"
    expected = [{"path": "deep.go", "matches": [{"line": 1, "content": "log in a subdirectory"}]}]
    assert engine.grep("log", file)["directories"][0]["files"] == expected
    proc = run_cli("grep", "-e", "log", "--dir", str(file), home=home)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["directories"][0]["files"] == expected


def test_cli_prints_compact_json_on_one_line(home: Path, tree: Path) -> None:
    proc = run_cli("grep", "--search", "log", "--dir", str(tree), "--whole-word", home=home)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    expected = {
        "directories": [
            {
                "dir": str(tree),
                "matches_found": 2,
                "files": [
                    {
                        "path": "test.rtf",
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
    assert proc.stdout == json.dumps(expected, separators=(",", ":")) + "\n"


def test_cli_takes_checkfor_flags(home: Path, tree: Path, tmp_path: Path) -> None:
    other = write(tmp_path / "other", "a.go", "m.Table\n").parent
    proc = run_cli(
        "grep",
        "--search", "M.TABLE",
        "--dir", f"{tree}, {other}",
        "--ext", "go",
        "--exclude", "m.tables,M.TABLENAME",
        "--case-insensitive",
        "--context", "1",
        home=home,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    first, second = out["directories"]
    assert (first["dir"], first["matches_found"], first["original_matches"]) == (str(tree), 2, 4)
    assert first["filtered_matches"] == 2
    assert first["files"][0]["matches"][0] == {
        "line": 1,
        "content": "x := m.Table",
        "context_after": ["m.Tables()"],
    }
    assert second == {
        "dir": str(other),
        "matches_found": 1,
        "original_matches": 1,
        "files": [{"path": "a.go", "matches": [{"line": 1, "content": "m.Table"}]}],
    }
    hidden = run_cli(
        "grep", "--search", "m.Table", "--dir", str(tree), "--exclude", "m.Tables",
        "--hide-filter-stats", home=home,
    )  # fmt: skip
    assert "original_matches" not in hidden.stdout


def test_cli_recursive_regex_and_budgets(home: Path, tree: Path) -> None:
    flat = json.loads(
        run_cli("grep", "--search", "subdirectory", "--dir", str(tree), home=home).stdout
    )
    assert flat["directories"][0]["files"] == []
    deep = run_cli(
        "grep", "--search", r"sub\w+", "--regex", "--recursive", "--dir", str(tree), home=home
    )
    assert json.loads(deep.stdout)["directories"][0]["files"][0]["path"] == "sub/deep.go"
    capped = run_cli("grep", "--search", "log", "--dir", str(tree), "--max-matches", "2", home=home)
    value = json.loads(capped.stdout)
    assert value["truncated"] is True
    # Two listed, all four counted.
    assert value["directories"][0]["matches_found"] == 4
    assert sum(len(f["matches"]) for f in value["directories"][0]["files"]) == 2
    budget = (len(str(tree)) + 190) // 4
    small = run_cli(
        "grep", "--search", "log", "--dir", str(tree), "--max-tokens", str(budget), home=home
    )
    value = json.loads(small.stdout)
    assert value["truncated"] is True
    assert 0 < len(value["directories"][0]["files"][0]["matches"]) < 4
    assert len(small.stdout.strip()) <= budget * 4


def test_cli_nothing_found_is_success(home: Path, tree: Path) -> None:
    proc = run_cli("grep", "--search", "absent", "--dir", str(tree), home=home)
    assert (proc.returncode, proc.stderr) == (0, "")
    assert (
        proc.stdout
        == json.dumps(
            {"directories": [{"dir": str(tree), "matches_found": 0, "files": []}]},
            separators=(",", ":"),
        )
        + "\n"
    )


def test_cli_default_directory(home: Path, tree: Path) -> None:
    here = run_cli("grep", "--search", "catalog", home=home, cwd=tree)
    assert json.loads(here.stdout)["directories"][0]["dir"] == "."
    project = run_cli(
        "grep", "--search", "catalog", home=home, env={"CLAUDE_PROJECT_DIR": str(tree)}
    )
    value = json.loads(project.stdout)
    assert value["directories"][0]["dir"] == str(tree)
    assert value["directories"][0]["matches_found"] == 1


def test_cli_warnings_go_to_stderr_only(home: Path, tree: Path) -> None:
    (tree / "broken.txt").symlink_to(tree / "gone.txt")
    proc = run_cli("grep", "--search", "log", "--dir", str(tree), home=home)
    assert proc.returncode == 0
    assert '"warnings"' not in proc.stdout
    assert json.loads(proc.stdout)["directories"][0]["matches_found"] == 4
    assert proc.stderr.startswith("cc-search: warning: cannot search ")
    assert "broken.txt" in proc.stderr


def test_cli_missing_directory(home: Path, tree: Path) -> None:
    missing = tree / "missing"
    proc = run_cli("grep", "--search", "log", "--dir", f"{missing},{tree}", home=home)
    assert proc.returncode == 1
    value = json.loads(proc.stdout)
    assert "No such file" in value["directories"][0]["error"]
    assert value["directories"][1]["matches_found"] == 4
    assert proc.stderr.startswith(f"cc-search: error: {missing}: ")


def test_cli_invalid_input(home: Path, tree: Path) -> None:
    missing_search = run_cli("grep", "--dir", str(tree), home=home)
    assert missing_search.returncode == 2
    assert "--search" in missing_search.stderr
    empty = run_cli("grep", "--search", "", "--dir", str(tree), home=home)
    assert empty.returncode == 1
    assert empty.stdout == ""
    assert "must not be empty" in empty.stderr
    bad = run_cli("grep", "--search", "(", "--regex", "--dir", str(tree), home=home)
    assert bad.returncode == 1
    assert "regular expression" in bad.stderr
    negative = run_cli("grep", "--search", "x", "--context", "-1", home=home)
    assert negative.returncode == 2


def test_cli_repeated_runs_are_identical(home: Path, tree: Path) -> None:
    for i in range(60):
        write(tree, f"d{i % 5}/f{i:02}.txt", "".join(f"row {j} log\n" for j in range(i % 7)))
    args = ("grep", "--search", "log", "--dir", str(tree), "--recursive", "--context", "1")
    first = run_cli(*args, home=home).stdout
    assert len(first) > 2000
    assert run_cli(*args, home=home).stdout == first


def test_cli_prints_the_core_json_as_the_api_returns_it_without_warnings(
    home: Path, tree: Path
) -> None:
    # A warning (a broken link) and a cut (max_matches): the printed JSON is the API's
    # result, key for key and in the same order, with the warnings on stderr.
    (tree / "broken.txt").symlink_to(tree / "gone.txt")
    write(tree, "quote.txt", 'log "warnings":[ inside a line\n')
    proc = run_cli("grep", "--search", "log", "--dir", str(tree), "-n", "2", home=home)
    with cc_search.Engine(home) as engine:
        result = engine.grep("log", str(tree), max_matches=2)
    warnings = result.pop("warnings")
    assert warnings and all(w in proc.stderr for w in warnings)
    assert proc.stdout == json.dumps(result, ensure_ascii=False, separators=(",", ":")) + "\n"
    assert result["truncated"] is True and result["directories"][0]["matches_found"] == 5


def test_cli_recursive_follows_ripgrep_defaults_and_takes_extension_lists(
    home: Path, tmp_path: Path
) -> None:
    root = tmp_path / "repo"
    for rel in ["src/a.rs", "src/b.py", "src/c.go", "vendor/d.rs", ".hidden/e.rs"]:
        write(root, rel, "needle\n")

    def paths(*flags: str) -> list[str]:
        proc = run_cli("grep", "-e", "needle", "--dir", str(root), "-r", *flags, home=home)
        assert proc.returncode == 0, proc.stderr
        return [f["path"] for f in json.loads(proc.stdout)["directories"][0]["files"]]

    assert paths() == ["src/a.rs", "src/b.py", "src/c.go", "vendor/d.rs"]
    assert paths("--ext", "rs,py") == ["src/a.rs", "src/b.py", "vendor/d.rs"]
    assert paths("--hidden", "--ext", ".rs") == [".hidden/e.rs", "src/a.rs", "vendor/d.rs"]
    assert paths("--skip-generated", "--json") == ["src/a.rs", "src/b.py", "src/c.go"]
    help_text = " ".join(run_cli("grep", "--help", home=home).stdout.split())
    assert "node_modules, dist, build" in help_text and "--hidden" in help_text


def test_cli_grep_starts_without_the_rest_of_the_command_line(
    home: Path, tree: Path
) -> None:
    # `cc-search grep` runs where an agent would run rg: neither the engine's Python
    # layer nor the printers are loaded.
    import subprocess
    import sys

    code = (
        "import sys\n"
        f"sys.argv = ['cc-search', 'grep', '--search', 'log', '--dir', {str(tree)!r}]\n"
        "from cc_search._main import main\n"
        "try:\n    main()\n"
        "except SystemExit as e:\n"
        "    print(e.code, [m for m in sys.modules if m.startswith('cc_search.') and m not in"
        "    ('cc_search._native', 'cc_search._main', 'cc_search.cli', 'cc_search._cli_table',"
        "     'cc_search._cli_common', 'cc_search._grep_cli')], file=sys.stderr)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={"CC_SEARCH_HOME": str(home), "PATH": "/usr/bin:/bin"},
    )
    assert proc.stderr.strip() == "0 []", proc.stderr
    assert json.loads(proc.stdout)["directories"][0]["matches_found"] == 4
