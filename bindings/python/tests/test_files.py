"""`files.refresh` and `files.suggest` through the Python API, on real temp projects."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

import cc_search
from support import PICKER_FILES, make_files, set_mtime


def paths(result: cc_search.SuggestResult) -> list[str]:
    return result["paths"]


def test_refresh_reports_the_canonical_root_and_counts(
    engine: cc_search.Engine, project: Path
) -> None:
    result = engine.files_refresh(project)
    counts = {"files": 3, "added": 3, "updated": 0, "removed": 0, "truncated": False}
    assert result == {
        "root": os.path.realpath(project),
        **counts,
        "roots": [{"root": os.path.realpath(project), **counts, "incremental": False}],
        "warnings": [],
    }
    assert (engine.home / "files.db").is_file()


def test_picker_example_queries(engine: cc_search.Engine, project: Path) -> None:
    engine.files_refresh(project)

    def suggest(query: str) -> list[str]:
        return paths(engine.files_suggest(query, project_dir=project))

    # Equal scores: the shorter path first.
    assert suggest("src/comp") == ["src/components/Modal.tsx", "src/components/Button.tsx"]
    assert suggest("readme") == ["README.md"]
    assert suggest("Button") == ["src/components/Button.tsx"]
    assert suggest("modal") == ["src/components/Modal.tsx"]
    assert suggest("components/Butt") == ["src/components/Button.tsx"]
    assert suggest("nothing-like-this") == []


def test_path_arguments_accept_str_and_pathlike(engine: cc_search.Engine, project: Path) -> None:
    assert engine.files_refresh(str(project))["files"] == 3
    assert paths(engine.files_suggest("readme", project_dir=str(project))) == ["README.md"]
    assert paths(engine.files_suggest("readme", project_dir=project)) == ["README.md"]
    assert engine.call("files.suggest", {"query": "readme", "project_dir": project}) == {
        "paths": ["README.md"],
        "warnings": [],
    }


def test_relative_root_resolves_against_the_working_directory(
    engine: cc_search.Engine, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project / "src")
    result = engine.files_refresh("..")
    assert result["root"] == os.path.realpath(project)
    assert result["files"] == 3


def test_defaults_come_from_claude_project_dir(
    engine: cc_search.Engine, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(project))
    assert engine.files_refresh()["root"] == os.path.realpath(project)
    assert paths(engine.files_suggest("readme")) == ["README.md"]
    # No parameters at all, in every spelling, means all defaults.
    for params in ("", "null", "  ", "{}"):
        assert engine.call_json("files.refresh", params).startswith('{"root":')
    assert sorted(engine.call("files.suggest")["paths"]) == sorted(PICKER_FILES)


def test_defaults_to_the_working_directory(
    engine: cc_search.Engine, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project)
    assert engine.files_refresh()["root"] == os.path.realpath(project)
    assert paths(engine.files_suggest("Button")) == ["src/components/Button.tsx"]


def test_unindexed_project_is_indexed_on_the_fly(engine: cc_search.Engine, project: Path) -> None:
    first = engine.files_suggest("readme", project_dir=project)
    assert first["paths"] == ["README.md"]
    assert len(first["warnings"]) == 1
    assert "not indexed yet" in first["warnings"][0]
    assert "indexed 3 files" in first["warnings"][0]
    # Indexed now: no warning the second time.
    assert engine.files_suggest("readme", project_dir=project) == {
        "paths": ["README.md"],
        "warnings": [],
    }


def test_a_git_work_tree_is_refreshed_from_what_moved(
    engine: cc_search.Engine, tmp_path: Path
) -> None:
    root = make_files(tmp_path / "repo", ["src/a.py", "src/b.py", "README.md"])
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_SYSTEM": os.devnull}
    for args in (
        ["init", "-q"],
        ["-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "--allow-empty",
         "-m", "start"],
    ):
        subprocess.run(["git", "-C", str(root), *args], check=True, env=env)
    # Ignore rules written an instant before a refresh may have been written after it
    # started, so the next one would walk in full: date `git init`'s exclude file back.
    set_mtime(root / ".git/info/exclude", 1_600_000_000)
    assert engine.files_refresh(root)["roots"][0]["incremental"] is False
    make_files(root, ["src/new/c.py"])
    (root / "src/a.py").unlink()
    again = engine.files_refresh(root)
    assert again["roots"][0]["incremental"] is True
    assert (again["files"], again["added"], again["removed"]) == (3, 1, 1)
    assert paths(engine.files_suggest("new/c", project_dir=root)) == ["src/new/c.py"]
    assert engine.files_refresh(root, full=True)["roots"][0]["incremental"] is False


def test_incremental_refresh_counts(engine: cc_search.Engine, tmp_path: Path) -> None:
    root = make_files(tmp_path / "p", ["a.txt", "b.txt", "c.txt", "dir/d.txt"])
    first = engine.files_refresh(root)
    assert (first["files"], first["added"], first["updated"], first["removed"]) == (4, 4, 0, 0)

    unchanged = engine.files_refresh(root)
    assert (unchanged["files"], unchanged["added"], unchanged["updated"], unchanged["removed"]) == (
        4,
        0,
        0,
        0,
    )

    later = (root / "a.txt").stat().st_mtime + 100
    set_mtime(root / "a.txt", later)
    set_mtime(root / "dir/d.txt", later)
    (root / "b.txt").unlink()
    make_files(root, ["new/e.txt", "f.txt"])
    changed = engine.files_refresh(root)
    assert (changed["files"], changed["added"], changed["updated"], changed["removed"]) == (
        5,
        2,
        2,
        1,
    )
    assert paths(engine.files_suggest("b", project_dir=root)) == []
    assert paths(engine.files_suggest("e", project_dir=root)) == ["new/e.txt"]

    shutil.rmtree(root / "dir")
    shutil.rmtree(root / "new")
    pruned = engine.files_refresh(root)
    assert (pruned["files"], pruned["added"], pruned["updated"], pruned["removed"]) == (3, 0, 0, 2)
    assert sorted(paths(engine.files_suggest("", project_dir=root))) == [
        "a.txt",
        "c.txt",
        "f.txt",
    ]


def test_empty_and_punctuation_queries_list_recent_files(
    engine: cc_search.Engine, tmp_path: Path
) -> None:
    root = make_files(tmp_path / "p", ["old.md", "mid/middle.md", "new.md"])
    set_mtime(root / "old.md", 1_600_000_000)
    set_mtime(root / "mid/middle.md", 1_650_000_000)
    set_mtime(root / "new.md", 1_700_000_000)
    engine.files_refresh(root)
    recent = ["new.md", "mid/middle.md", "old.md"]
    for query in ("", "   ", '"', "*", "(", ":", "^", "+", "./", '" * ( ) : ^ +'):
        assert paths(engine.files_suggest(query, project_dir=root)) == recent, query


def test_hostile_text_is_plain_text(engine: cc_search.Engine, tmp_path: Path) -> None:
    root = make_files(
        tmp_path / "p",
        ["-foo.txt", "AND.md", "near-miss.txt", "notes/or.txt", "plain.txt", "README.md"],
    )
    engine.files_refresh(root)

    def suggest(query: str) -> list[str]:
        return paths(engine.files_suggest(query, project_dir=root))

    # `-foo` is not NOT(foo), `AND`/`OR` are not operators, `NEAR(` is not a function.
    assert suggest("-foo") == ["-foo.txt"]
    assert suggest("AND") == ["AND.md"]
    assert suggest("or") == ["notes/or.txt"]
    assert suggest("NEAR(") == ["near-miss.txt"]
    assert suggest('"plain') == ["plain.txt"]
    assert suggest("plain*") == ["plain.txt"]
    assert suggest("a AND b OR NOT c NEAR(d, 2)") == []
    assert suggest("\x00") == suggest("")
    assert suggest("'; DROP TABLE files_meta; --") == []
    assert suggest("readme") == ["README.md"], "the index survived the queries above"


def test_very_long_queries_are_not_errors(engine: cc_search.Engine, project: Path) -> None:
    engine.files_refresh(project)
    assert paths(engine.files_suggest("x" * 100_000, project_dir=project)) == []
    assert paths(engine.files_suggest("readme " * 15_000, project_dir=project)) == ["README.md"]
    assert paths(engine.files_suggest("é" * 60_000, project_dir=project)) == []


def test_unicode_names(engine: cc_search.Engine, tmp_path: Path) -> None:
    root = make_files(tmp_path / "p", ["docs/Ünïcödé.md", "файл.txt", "plain.txt"])
    engine.files_refresh(root)
    assert paths(engine.files_suggest("unicode", project_dir=root)) == ["docs/Ünïcödé.md"]
    assert paths(engine.files_suggest("Ünï", project_dir=root)) == ["docs/Ünïcödé.md"]
    assert paths(engine.files_suggest("файл", project_dir=root)) == ["файл.txt"]


def test_limit(engine: cc_search.Engine, tmp_path: Path) -> None:
    root = make_files(tmp_path / "p", [f"item{i:02}.txt" for i in range(20)])
    engine.files_refresh(root)
    assert len(paths(engine.files_suggest("item", project_dir=root))) == 15
    assert len(paths(engine.files_suggest("", project_dir=root))) == 15
    assert paths(engine.files_suggest("item07", project_dir=root, limit=1)) == ["item07.txt"]
    assert len(paths(engine.files_suggest("item", project_dir=root, limit=15))) == 15
    assert len(paths(engine.files_suggest("item", project_dir=root, limit=4))) == 4


def test_results_stay_inside_the_project(engine: cc_search.Engine, tmp_path: Path) -> None:
    one = make_files(tmp_path / "one", ["shared.txt", "only-one.txt"])
    two = make_files(tmp_path / "one-two", ["shared.txt", "only-two.txt"])
    engine.files_refresh(one)
    engine.files_refresh(two)
    assert paths(engine.files_suggest("shared", project_dir=one)) == ["shared.txt"]
    assert paths(engine.files_suggest("only", project_dir=one)) == ["only-one.txt"]
    assert paths(engine.files_suggest("only", project_dir=two)) == ["only-two.txt"]


def test_a_subdirectory_of_an_indexed_root_is_covered(
    engine: cc_search.Engine, project: Path
) -> None:
    engine.files_refresh(project)
    result = engine.files_suggest("", project_dir=project / "src")
    assert result["warnings"] == []
    assert sorted(result["paths"]) == ["components/Button.tsx", "components/Modal.tsx"]


def test_exclusions_depth_and_file_limit(engine: cc_search.Engine, tmp_path: Path) -> None:
    root = make_files(
        tmp_path / "p",
        [
            "keep.txt",
            "debug.log",
            "node_modules/pkg/index.js",
            "target/debug/out.bin",
            "ignored-by-git/x.txt",
            "deep/er/deepest.txt",
        ],
    )
    (root / ".gitignore").write_text("ignored-by-git/\n")
    result = engine.files_refresh(root, exclude="*.log")
    assert result["files"] == 3
    assert sorted(paths(engine.files_suggest("", project_dir=root))) == [
        ".gitignore",
        "deep/er/deepest.txt",
        "keep.txt",
    ]

    shallow = engine.files_refresh(root, exclude=["*.log"], max_depth=1)
    assert (shallow["files"], shallow["removed"]) == (2, 1)
    assert paths(engine.files_suggest("deepest", project_dir=root)) == []

    limited = engine.files_refresh(root, max_files=1)
    assert limited["truncated"] is True
    assert limited["files"] == 1
    assert len(limited["warnings"]) == 1
    assert "more than 1 files" in limited["warnings"][0]


def test_generic_call_reaches_every_operation(engine: cc_search.Engine, project: Path) -> None:
    names = [op["name"] for op in cc_search.operations()]
    assert names == sorted(names)
    assert {"files.refresh", "files.suggest"} <= set(names)
    refreshed = engine.call("files.refresh", {"root": str(project), "exclude": ("*.md",)})
    assert refreshed["files"] == 2
    assert engine.call("files.suggest", {"query": "readme", "project_dir": str(project)}) == {
        "paths": [],
        "warnings": [],
    }
    raw = engine.call_json("files.suggest", f'{{"query": "Modal", "project_dir": "{project}"}}')
    assert raw == '{"paths":["src/components/Modal.tsx"],"warnings":[]}'


def test_operations_describe_themselves() -> None:
    table = {op["name"]: op for op in cc_search.operations()}
    suggest = table["files.suggest"]
    assert suggest["summary"]
    assert set(suggest["request"]["properties"]) == {
        "query",
        "project_dir",
        "limit",
        "budget_ms",
        "within",
    }
    assert set(suggest["response"]["properties"]) == {"paths", "warnings"}
    assert set(table["files.refresh"]["request"]["properties"]) == {
        "root",
        "project_dir",
        "max_depth",
        "exclude",
        "max_files",
        "now",
        "claude_dir",
        "full",
    }


def test_corrupt_database_is_rebuilt_with_a_warning(
    engine: cc_search.Engine, home: Path, project: Path
) -> None:
    (home / "files.db").write_bytes(b"this is not a database" * 100)
    result = engine.files_refresh(project)
    assert result["files"] == 3
    assert any("corrupt" in w for w in result["warnings"]), result["warnings"]
    assert list(home.glob("files.db.corrupt-*"))
    assert paths(engine.files_suggest("readme", project_dir=project)) == ["README.md"]
