"""Opening engines: data root, configuration, warnings, module functions."""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import pytest

import cc_search
from cc_search import _native
from support import make_files


def test_version() -> None:
    assert re.fullmatch(r"\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?", cc_search.__version__)
    assert cc_search.version() == cc_search.__version__ == _native.version()


def test_home_and_config_path(home: Path) -> None:
    with cc_search.Engine(home) as engine:
        assert engine.home == home
        assert engine.config_path == home / "config.toml"
        assert engine.warnings == []
        assert repr(engine) == f"<cc_search.Engine home={str(home)!r}>"
    assert not (home / "files.db").exists(), "nothing is written until an operation needs it"


def test_relative_home_is_made_absolute(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with cc_search.Engine("data") as engine:
        assert engine.home == tmp_path / "data"


def test_home_defaults_to_cc_search_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CC_SEARCH_HOME", str(tmp_path / "from-env"))
    with cc_search.Engine() as engine:
        assert engine.home == tmp_path / "from-env"
        assert engine.config_path == tmp_path / "from-env" / "config.toml"


def test_home_falls_back_to_xdg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CC_SEARCH_HOME")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    with cc_search.Engine() as engine:
        assert engine.home == tmp_path / "data" / "cc-search"
        assert engine.config_path == tmp_path / "config" / "cc-search" / "config.toml"


INVALID_CONFIGS = [
    b"[weights\ngit_recency = ",
    b'[weights]\ngit_recency = "high"',
    b"[index]\nunknown_key = 1",
    b"\xff\xfe not utf8",
]


@pytest.mark.parametrize("text", INVALID_CONFIGS)
def test_invalid_config_gives_defaults_and_exactly_one_warning(
    home: Path, tmp_path: Path, text: bytes
) -> None:
    config = home / "config.toml"
    config.write_bytes(text)
    with pytest.warns(cc_search.CcSearchWarning) as record:
        engine = cc_search.Engine(home)
    assert len(record) == 1
    message = str(record[0].message)
    assert str(config) in message
    assert message.endswith("using defaults")
    assert record[0].filename == __file__, "the warning points at the caller"
    assert engine.warnings == [message]

    # The defaults apply: node_modules is excluded, everything else indexed.
    project = make_files(tmp_path / "p", ["a.txt", "node_modules/x/index.js"])
    with engine:
        assert engine.files_refresh(project)["files"] == 1
        assert engine.files_suggest("a", project_dir=project)["paths"] == ["a.txt"]


def test_explicit_config_path(home: Path, tmp_path: Path) -> None:
    config = tmp_path / "elsewhere.toml"
    config.write_text('[index.exclude]\npatterns = ["*.log"]\n')
    project = make_files(tmp_path / "p", ["keep.txt", "drop.log"])
    with cc_search.Engine(home, config_path=config) as engine:
        assert engine.config_path == config
        assert engine.files_refresh(project)["files"] == 1
        assert engine.files_suggest("", project_dir=project)["paths"] == ["keep.txt"]

    config.write_text("[index.exclude]\npatterns = 3\n")
    with pytest.warns(cc_search.CcSearchWarning, match="elsewhere.toml"):
        cc_search.Engine(home, config_path=config).close()


def test_config_in_home_is_read(home: Path, tmp_path: Path) -> None:
    (home / "config.toml").write_text("[index.depth]\ndefault = 1\n")
    project = make_files(tmp_path / "p", ["top.txt", "a/nested.txt"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        engine = cc_search.Engine(home)
    with engine:
        assert engine.files_refresh(project)["files"] == 1


def test_missing_config_is_silent(home: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with cc_search.Engine(home, config_path=home / "absent.toml") as engine:
            assert engine.warnings == []


def test_native_module_surface(home: Path, project: Path) -> None:
    native = _native.Engine(str(home), None)
    assert native.home == str(home)
    assert native.config_path == str(home / "config.toml")
    assert native.warnings == []
    result = native.call("files.suggest", f'{{"query": "readme", "project_dir": "{project}"}}')
    assert result.startswith('{"paths":["README.md"]')
    assert isinstance(_native.operations(), str)
    assert _native.error_codes() == cc_search.error_codes()
    native.close()
    assert native.closed


def test_typed_package_files_are_installed() -> None:
    package = Path(cc_search.__file__).parent
    assert (package / "py.typed").is_file()
    assert (package / "_native.pyi").is_file()
