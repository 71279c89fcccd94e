"""Bad input: the exception class, its `code` and a message that says what is wrong."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import pytest

import cc_search
from cc_search import _native

CLASSES = {
    "invalid_request": (cc_search.InvalidRequestError, ValueError),
    "unknown_operation": (cc_search.UnknownOperationError, ValueError),
    "io": (cc_search.IoError, OSError),
    "database": (cc_search.DatabaseError, Exception),
    "internal": (cc_search.InternalError, RuntimeError),
    "cancelled": (cc_search.CancelledError, Exception),
}


def test_one_class_per_core_error_code() -> None:
    assert sorted(cc_search.error_codes()) == sorted(CLASSES)
    for code, (cls, builtin) in CLASSES.items():
        assert issubclass(cls, cc_search.Error)
        assert issubclass(cls, builtin)
        assert cls.code == code
        assert cls.__module__ == "cc_search"
        # Defined once, in the native module; the package re-exports the same class.
        assert getattr(_native, cls.__name__) is cls
        assert getattr(cc_search, cls.__name__) is cls
    assert cc_search.Error is _native.Error
    assert issubclass(cc_search.Error, Exception)
    assert cc_search.Error.__doc__


def test_errors_pickle_with_their_code(engine: cc_search.Engine) -> None:
    with pytest.raises(cc_search.UnknownOperationError) as caught:
        engine.call("files.nope")
    copy = pickle.loads(pickle.dumps(caught.value))
    assert type(copy) is cc_search.UnknownOperationError
    assert copy.code == "unknown_operation"
    assert str(copy) == str(caught.value)


def raises(cls: type[cc_search.Error], match: str, call: Any) -> cc_search.Error:
    with pytest.raises(cls, match=match) as caught:
        call()
    assert caught.value.code == cls.code
    assert type(caught.value) is cls
    return caught.value


def test_unknown_operation(engine: cc_search.Engine) -> None:
    error = raises(
        cc_search.UnknownOperationError,
        r"unknown operation `files\.nope` \(known: claude\.install, .*files\.refresh, files\.suggest",
        lambda: engine.call("files.nope", {}),
    )
    assert isinstance(error, ValueError)
    raises(cc_search.UnknownOperationError, "unknown operation ``", lambda: engine.call(""))
    huge = raises(cc_search.UnknownOperationError, "unknown", lambda: engine.call("x" * 1_000_000))
    assert len(str(huge)) < 1_000, "the message quotes a bounded part of the name"


@pytest.mark.parametrize(
    "params_json",
    ["{", "[]", "42", '"text"', "{'query': 'x'}", '{"query": }', "{} {}", "\x00"],
)
def test_malformed_json(engine: cc_search.Engine, project: Path, params_json: str) -> None:
    raises(
        cc_search.InvalidRequestError,
        r"invalid request for `files\.suggest`",
        lambda: engine.call_json("files.suggest", params_json),
    )


@pytest.mark.parametrize(
    ("op", "params", "match"),
    [
        ("files.suggest", {"limit": 0}, "limit must be between 1 and 15, got 0"),
        ("files.suggest", {"limit": 16}, "limit must be between 1 and 15, got 16"),
        ("files.suggest", {"limit": -1}, "invalid value: integer `-1`, expected usize"),
        ("files.suggest", {"limit": 10**30}, "invalid type: floating point `1e\\+30`"),
        ("files.suggest", {"limit": "3"}, "invalid type: string"),
        ("files.suggest", {"limit": 2.5}, "invalid type: floating point"),
        ("files.suggest", {"query": 5}, "invalid type: integer"),
        ("files.suggest", {"query": None}, "invalid type: null"),
        ("files.suggest", {"bogus": 1}, "unknown field `bogus`"),
        ("files.suggest", {"project_dir": ""}, "directory is empty"),
        ("files.refresh", {"root": ""}, "directory is empty"),
        ("files.refresh", {"max_files": 0}, "max_files must be at least 1"),
        ("files.refresh", {"max_depth": -1}, "invalid value: integer `-1`, expected usize"),
        ("files.refresh", {"exclude": "*.log"}, "invalid type: string"),
        ("files.refresh", {"exclude": ["["]}, r"exclude pattern `\[`"),
        ("files.refresh", {"root": ["a"]}, "invalid type: sequence"),
        ("files.refresh", {"Root": "."}, "unknown field `Root`"),
    ],
)
def test_invalid_parameters(
    engine: cc_search.Engine,
    project: Path,
    op: str,
    params: dict[str, Any],
    match: str,
) -> None:
    key = "project_dir" if op == "files.suggest" else "root"
    params = {key: str(project), **params}
    error = raises(cc_search.InvalidRequestError, match, lambda: engine.call(op, params))
    assert isinstance(error, ValueError)


def test_invalid_keyword_arguments(engine: cc_search.Engine, project: Path) -> None:
    raises(
        cc_search.InvalidRequestError,
        "limit must be between 1 and 15, got 0",
        lambda: engine.files_suggest("x", project_dir=project, limit=0),
    )
    raises(
        cc_search.InvalidRequestError,
        "limit must be between 1 and 15, got 99",
        lambda: engine.files_suggest("x", project_dir=project, limit=99),
    )
    raises(
        cc_search.InvalidRequestError,
        "invalid type: boolean",
        lambda: engine.files_suggest("x", project_dir=project, limit=True),
    )
    raises(
        cc_search.InvalidRequestError,
        "max_files must be at least 1",
        lambda: engine.files_refresh(project, max_files=0),
    )
    raises(
        cc_search.InvalidRequestError,
        "invalid type: integer",
        lambda: engine.files_suggest(7, project_dir=project),  # type: ignore[arg-type]
    )


def test_missing_directory(engine: cc_search.Engine, tmp_path: Path) -> None:
    missing = tmp_path / "does-not-exist"
    error = raises(
        cc_search.IoError,
        f"{missing}: No such file or directory",
        lambda: engine.files_refresh(missing),
    )
    assert isinstance(error, OSError)
    raises(
        cc_search.IoError,
        f"{missing}: No such file or directory",
        lambda: engine.files_suggest("x", project_dir=missing),
    )


def test_a_file_is_not_a_directory(engine: cc_search.Engine, project: Path) -> None:
    raises(
        cc_search.IoError,
        "not a directory",
        lambda: engine.files_refresh(project / "README.md"),
    )


def test_unusable_database(home: Path, project: Path) -> None:
    (home / "files.db").mkdir()
    with cc_search.Engine(home) as engine:
        error = raises(
            cc_search.DatabaseError,
            f"database {home / 'files.db'}",
            lambda: engine.files_refresh(project),
        )
        assert not isinstance(error, (ValueError, OSError))
        # The picker never comes back empty while files exist: it searches the file
        # system instead, and says so.
        found = engine.files_suggest("readme", project_dir=project)
        assert found["paths"] == ["README.md"]
        assert any("searched the file system" in w for w in found["warnings"])


def test_text_that_is_not_unicode(engine: cc_search.Engine, project: Path) -> None:
    lone_surrogate = "\udcff"
    raises(
        cc_search.InvalidRequestError,
        "params_json is not valid UTF-8",
        lambda: engine.files_suggest(lone_surrogate, project_dir=project),
    )
    raises(
        cc_search.InvalidRequestError,
        "op is not valid UTF-8",
        lambda: engine.call(lone_surrogate),
    )
    # Escaped in JSON, the same text is refused by the JSON parser instead.
    raises(
        cc_search.InvalidRequestError,
        "invalid request for `files.suggest`",
        lambda: engine.call_json("files.suggest", '{"query": "\\udcff"}'),
    )


def test_wrong_python_types_are_type_errors(engine: cc_search.Engine) -> None:
    with pytest.raises(TypeError, match="params must be a mapping or None, not list"):
        engine.call("files.suggest", [])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="params must be a mapping or None, not str"):
        engine.call("files.suggest", '{"query": "x"}')  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="object is not JSON serializable"):
        engine.call("files.suggest", {"query": object()})
    with pytest.raises(TypeError):
        engine.call(42)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        engine.call_json("files.suggest", None)  # type: ignore[arg-type]


def test_empty_paths_are_refused(tmp_path: Path) -> None:
    raises(cc_search.InvalidRequestError, "home is an empty path", lambda: cc_search.Engine(""))
    raises(
        cc_search.InvalidRequestError,
        "config_path is an empty path",
        lambda: cc_search.Engine(tmp_path, config_path=""),
    )


def test_closed_engine(home: Path, project: Path) -> None:
    engine = cc_search.Engine(home)
    assert engine.files_refresh(project)["files"] == 3
    assert not engine.closed
    engine.close()
    engine.close()
    assert engine.closed
    assert "closed" in repr(engine)
    raises(
        cc_search.InvalidRequestError,
        "the engine is closed",
        lambda: engine.files_suggest("readme", project_dir=project),
    )
    # Closing released the database: a new engine on the same home sees the index.
    with cc_search.Engine(home) as again:
        assert again.files_suggest("readme", project_dir=project) == {
            "paths": ["README.md"],
            "warnings": [],
        }
    assert again.closed
