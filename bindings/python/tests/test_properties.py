"""Properties over arbitrary query text."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cc_search
from support import make_files

FILES = [
    "README.md",
    "src/components/Button.tsx",
    "src/components/Modal.tsx",
    "src/lib/parse_query.rs",
    "docs/Ünïcödé.md",
    "-dash-first.txt",
    "AND.md",
    "near-miss.txt",
    "tests/fixtures/data.json",
    ".claude/settings.json",
]

SETTINGS = settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[cc_search.Engine, Path]]:
    root = make_files(tmp_path_factory.mktemp("project"), FILES)
    with cc_search.Engine(tmp_path_factory.mktemp("home")) as engine:
        assert engine.files_refresh(root)["files"] == len(FILES)
        yield engine, root


@SETTINGS
@given(query=st.text(max_size=200))
def test_no_query_text_ever_raises(indexed: tuple[cc_search.Engine, Path], query: str) -> None:
    engine, root = indexed
    result = engine.files_suggest(query, project_dir=root)
    assert result["warnings"] == []
    assert len(result["paths"]) <= 15
    assert set(result["paths"]) <= set(FILES)
    assert len(set(result["paths"])) == len(result["paths"])


@SETTINGS
@given(
    query=st.text(
        # Everything but letters, digits, `_` and `-` (which make up tokens).
        alphabet=st.sampled_from(list("\"*()+:^.,/\\{}[]<>!?@#$%&=~`|; '\t\n")),
        max_size=60,
    )
)
def test_punctuation_only_is_an_empty_query(
    indexed: tuple[cc_search.Engine, Path], query: str
) -> None:
    engine, root = indexed
    everything = engine.files_suggest("", project_dir=root)["paths"]
    assert engine.files_suggest(query, project_dir=root)["paths"] == everything


@SETTINGS
@given(
    name=st.sampled_from(FILES),
    cut=st.integers(min_value=1, max_value=40),
    upper=st.booleans(),
)
def test_every_file_is_found_by_a_prefix_of_its_path(
    indexed: tuple[cc_search.Engine, Path], name: str, cut: int, upper: bool
) -> None:
    engine, root = indexed
    stem = name.rsplit(".", 1)[0]
    query = stem[: min(cut, len(stem))]
    if not any(c.isalnum() for c in query):
        query = stem
    query = query.upper() if upper else query
    assert name in engine.files_suggest(query, project_dir=root)["paths"], query
