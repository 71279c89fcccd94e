"""Shared fixtures: every test runs against the real extension, real temp projects and
a temp data root, never the user's own."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import cc_search
from support import PICKER_FILES, make_files


@pytest.fixture(autouse=True)
def _isolated_environment(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever a test forgets to pass, cc-search must not fall back on real user
    directories or on an outer Claude Code session."""
    fallback = tmp_path_factory.mktemp("fallback-home")
    monkeypatch.setenv("CC_SEARCH_HOME", str(fallback / "cc-search"))
    monkeypatch.setenv("XDG_DATA_HOME", str(fallback / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(fallback / "config"))
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)


@pytest.fixture
def home(tmp_path: Path) -> Path:
    path = tmp_path / "home"
    path.mkdir()
    return path


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return make_files(tmp_path / "project", PICKER_FILES)


@pytest.fixture
def engine(home: Path) -> Iterator[cc_search.Engine]:
    with cc_search.Engine(home) as opened:
        yield opened
