"""Spec 003 §13, the property tests PT1–PT5 (hypothesis), on transcripts written in
Claude Code's format and indexed into real SQLite files. PT1–PT4 run keyword-only (a
fresh index per example); PT5 uses the real model, whose windows it checks."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cc_search
from support import DAY, NOW, Transcript, keyword_only

#: Words and separators of generated messages: letters and digits of any script, and
#: the punctuation a conversation has (quotes and parentheses test the query escaping).
WORDS = st.text(alphabet=st.characters(categories=("L", "N")), min_size=1, max_size=12)
SEPARATORS = st.sampled_from([" ", "\n", ", ", ". ", " - ", "/", " (", ") ", '"', "'", "*",
                              ": ", " AND ", " OR ", " NOT ", " NEAR "])


@st.composite
def messages(draw: Any, min_words: int = 2, max_words: int = 40) -> str:
    words = draw(st.lists(WORDS, min_size=min_words, max_size=max_words))
    text = words[0]
    for word in words[1:]:
        text += draw(SEPARATORS) + word
    return text


def session_id(n: int) -> str:
    return f"{n:08x}-0000-4000-8000-000000000000"


@pytest.fixture
def workspace() -> Iterator[Path]:
    """A fresh directory per test; examples make their own below it."""
    with tempfile.TemporaryDirectory() as directory:
        yield Path(directory)


def fresh(workspace: Path) -> tuple[Path, Path]:
    """A new keyword-only data root and an empty transcripts folder."""
    root = Path(tempfile.mkdtemp(dir=workspace))
    return keyword_only(root / "home"), root / "projects"


#: Other sessions every PT1 example is indexed with, so finding the message means
#: telling it apart from them.
NEIGHBOURS = [
    ("/home/u/alpha", "How should I handle JWT refresh tokens?", "Rotate them on every use."),
    ("/home/u/beta", "Configure nginx caching for static assets.", "Use proxy_cache_path."),
    ("/home/u/gamma", "Why does the borrow checker reject this closure?", "It outlives x."),
]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
          HealthCheck.function_scoped_fixture])
@given(content=messages().filter(lambda t: len(t) >= 10))
def test_pt1_indexed_content_is_searchable(workspace: Path, content: str) -> None:
    """PT1: a message indexed is found by a query made of its own text."""
    home, projects = fresh(workspace)
    for n, (cwd, prompt, reply) in enumerate(NEIGHBOURS):
        Transcript(session_id(n), cwd, NOW - (n + 1) * DAY).prompt(prompt).reply(reply).write(
            projects)
    target = Transcript(session_id(99), "/home/u/target", NOW - 40 * DAY)
    target.prompt(content).reply("Noted.")
    path = target.write(projects)
    with cc_search.Engine(home) as engine:
        engine.sessions_index(projects_dir=projects)
        found = engine.sessions_search(content, now=NOW, limit=10)
    assert any(
        hit["session_path"] == str(path) and hit["kind"] == "user"
        and hit["content"] == content.strip()
        for hit in found["results"]
    ), (content, found)


# ── PT2 and PT4 share one index: four projects, kinds and ages spread out ──

CORPUS_PROJECTS = ["/home/u/Alpha-App", "/home/u/beta", "/srv/gamma/api", "/srv/gamma/web"]
TOPICS = ["refresh tokens", "nginx cache", "borrow checker", "database migration",
          "flaky test", "release notes"]


@pytest.fixture(scope="module")
def corpus() -> Iterator[Path]:
    with tempfile.TemporaryDirectory() as directory:
        home = keyword_only(Path(directory) / "home")
        projects = Path(directory) / "projects"
        n = 0
        for p, cwd in enumerate(CORPUS_PROJECTS):
            for t, topic in enumerate(TOPICS):
                n += 1
                age = (p * 7 + t * 13) % 90 * DAY + n * 3600
                Transcript(session_id(n), cwd, NOW - age).prompt(
                    f"Question {n} about the {topic} in {cwd}"
                ).reply(
                    f"The {topic} answer for session {n}.",
                    thinking=f"Thinking about {topic}.",
                    tool=f"output mentioning {topic} {n}",
                ).write(projects)
        with cc_search.Engine(home) as engine:
            engine.sessions_index(projects_dir=projects)
        yield home


QUERIES = st.lists(st.sampled_from(" ".join(TOPICS).split() + ["answer", "question"]),
                   min_size=1, max_size=3).map(" ".join)
KINDS = ["user", "assistant", "tool", "thinking", "summary"]


@settings(max_examples=60, deadline=None)
@given(
    query=QUERIES,
    project=st.none() | st.sampled_from(["alpha", "ALPHA-app", "gamma", "/srv/gamma/w",
                                         "beta", "u/", "nowhere"]),
    since_days=st.none() | st.integers(min_value=0, max_value=120),
    types=st.lists(st.sampled_from(KINDS), unique=True, max_size=3),
    limit=st.integers(min_value=1, max_value=30),
)
def test_pt2_results_always_match_the_filters(
    corpus: Path, query: str, project: str | None, since_days: int | None,
    types: list[str], limit: int,
) -> None:
    """PT2: whatever the filters, every result satisfies all of them."""
    with cc_search.Engine(corpus) as engine:
        found = engine.sessions_search(
            query, project=project, since=None if since_days is None else f"{since_days}d",
            types=types or None, limit=limit, now=NOW,
        )
    assert len(found["results"]) <= limit
    for hit in found["results"]:
        if project is not None:
            assert project.lower() in hit["project"].lower(), hit
        if since_days is not None:
            assert hit["time"] >= NOW - since_days * DAY, hit
        if types:
            assert hit["kind"] in types, hit
    if project == "nowhere":
        assert found["results"] == []
        assert "No sessions found for project nowhere" in found["warnings"]


@settings(max_examples=40, deadline=None, suppress_health_check=[
    HealthCheck.function_scoped_fixture])
@given(
    content=messages(min_words=3, max_words=12).filter(lambda t: len(t) >= 10),
    ages=st.lists(st.integers(min_value=0, max_value=3000 * DAY), min_size=2, max_size=2,
                  unique=True).map(sorted),
)
def test_pt3_the_more_recent_of_two_equal_matches_scores_at_least_as_high(
    workspace: Path, content: str, ages: list[int]
) -> None:
    """PT3: same text, different ages: the newer never scores below the older."""
    home, projects = fresh(workspace)
    newer = Transcript(session_id(1), "/home/u/one", NOW - ages[0]).prompt(content).write(
        projects)
    older = Transcript(session_id(2), "/home/u/two", NOW - ages[1]).prompt(content).write(
        projects)
    with cc_search.Engine(home) as engine:
        engine.sessions_index(projects_dir=projects)
        found = engine.sessions_search(content, now=NOW, limit=10, types=["user"])
    score = {hit["session_path"]: hit["score"] for hit in found["results"]}
    assert score.keys() == {str(newer), str(older)}, found
    assert score[str(newer)] >= score[str(older)], (ages, score)


@settings(max_examples=30, deadline=None)
@given(query=QUERIES, project=st.none() | st.sampled_from(["gamma", "beta"]),
       repeats=st.integers(min_value=2, max_value=5))
def test_pt4_the_same_query_on_the_same_index_gives_the_same_results(
    corpus: Path, query: str, project: str | None, repeats: int
) -> None:
    """PT4: repeated, and from another engine on the same files, byte for byte (but for
    the time taken, and the keyword-only warning an engine gives on its first search)."""
    outputs = []
    for _ in range(repeats):
        with cc_search.Engine(corpus) as engine:
            for _ in range(2):
                found = engine.call_json("sessions.search", json.dumps({
                    "query": query, "project": project, "limit": 20, "now": NOW}))
                parsed = json.loads(found)
                del parsed["search_time_ms"], parsed["warnings"]
                outputs.append(json.dumps(parsed, ensure_ascii=False))
    assert all(output == outputs[0] for output in outputs[1:])


#: Words the model's vocabulary holds whole: a message of more than 256 of them is
#: more than one window.
COMMON_WORDS = ("the server cache token client request table index query build test file "
                "change error value branch commit merge deploy config route model field "
                "user page list order time date image price stock plan team note line "
                "word book game music water light house road city river world").split()


@settings(max_examples=3, deadline=None, suppress_health_check=[
    HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(words=st.lists(st.sampled_from(COMMON_WORDS), min_size=270, max_size=330))
def test_pt5_a_long_message_is_windowed_and_each_window_leads_back_to_it(
    workspace: Path, words: list[str]
) -> None:
    """PT5: a message longer than the model's window is embedded in several windows; the
    window that matched is a slice of its chunk, and the chunk gives the message back
    whole, with the ids of its group's messages."""
    root = Path(tempfile.mkdtemp(dir=workspace))
    home, projects = root / "home", root / "projects"  # the installed model
    message = " ".join(words)
    session = Transcript(session_id(5), "/home/u/long", NOW - DAY).prompt(message)
    session.reply("Understood.")
    session.write(projects)
    with cc_search.Engine(home) as engine:
        indexed = engine.sessions_index(projects_dir=projects)
        assert indexed["pending_vectors"] == 0 and indexed["embedded"] >= 2
        tail = " ".join(words[-12:])
        found = engine.sessions_search(tail, now=NOW, types=["user"], mode="vector")
        hit = found["results"][0]
        assert hit["content"] == message
        window = hit["matched_window"]
        assert window is not None and window in message and window != message
        chunk = engine.sessions_chunk(hit["id"])
    assert chunk["content"] == message
    assert chunk["prompt_uuid"] == f"{session_id(5)}-0001"
    assert chunk["prompt_uuid"] in chunk["message_ids"]
    assert {part["kind"] for part in chunk["group"]} == {"user", "assistant"}
