"""Several Python threads at once, and the GIL released while the core works."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import cc_search
from support import PICKER_FILES, make_files

BIG_DIRS = 200
BIG_FILES_PER_DIR = 100


@pytest.fixture(scope="module")
def big_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("big")
    for d in range(BIG_DIRS):
        folder = root / f"pkg{d:03}" / "sub"
        folder.mkdir(parents=True)
        for f in range(BIG_FILES_PER_DIR):
            (folder / f"file_{d}_{f}.py").touch()
    return root


def test_many_threads_share_one_engine(engine: cc_search.Engine, tmp_path: Path) -> None:
    projects = [make_files(tmp_path / f"p{i}", [*PICKER_FILES, f"only{i}.txt"]) for i in range(4)]

    def work(i: int) -> list[str]:
        project = projects[i % len(projects)]
        if i < len(projects):
            assert engine.files_refresh(project)["files"] == 4
        return engine.files_suggest(f"only{i % len(projects)}", project_dir=project)["paths"]

    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(work, range(64)))
    assert results == [[f"only{i % len(projects)}.txt"] for i in range(64)]


def engines_on_one_home(home: Path, project: Path, threads: int, rounds: int) -> list[object]:
    """Each thread opens its own engine on `home` at the same moment, then refreshes and
    suggests; returns what each call gave (paths, or the exception)."""
    outcomes: list[object] = []
    lock = threading.Lock()
    start = threading.Barrier(threads)

    def work() -> None:
        start.wait()
        try:
            with cc_search.Engine(home) as engine:
                for _ in range(rounds):
                    engine.files_refresh(project)
                    found = engine.files_suggest("Button", project_dir=project)["paths"]
                    with lock:
                        outcomes.append(found)
        except cc_search.Error as e:
            with lock:
                outcomes.append(e)

    workers = [threading.Thread(target=work) for _ in range(threads)]
    for t in workers:
        t.start()
    for t in workers:
        t.join()
    return outcomes


def test_threads_with_their_own_engines_on_one_home(home: Path, tmp_path: Path) -> None:
    project = make_files(tmp_path / "p", PICKER_FILES)
    with cc_search.Engine(home) as first:
        first.files_refresh(project)
    outcomes = engines_on_one_home(home, project, threads=6, rounds=5)
    assert outcomes == [["src/components/Button.tsx"]] * 30


def test_first_opens_of_a_new_home_from_many_threads(tmp_path: Path) -> None:
    project = make_files(tmp_path / "p", PICKER_FILES)
    for attempt in range(5):
        home = tmp_path / f"home{attempt}"
        outcomes = engines_on_one_home(home, project, threads=6, rounds=1)
        assert outcomes == [["src/components/Button.tsx"]] * 6


def test_refresh_releases_the_gil(engine: cc_search.Engine, big_tree: Path) -> None:
    """While one thread indexes 20,000 files, another keeps running Python code."""
    span: dict[str, float] = {}
    result: dict[str, cc_search.RefreshResult] = {}

    def index() -> None:
        span["start"] = time.perf_counter()
        result["refresh"] = engine.files_refresh(big_tree)
        span["end"] = time.perf_counter()

    worker = threading.Thread(target=index)
    ticks: list[float] = []
    worker.start()
    while worker.is_alive():
        ticks.append(time.perf_counter())
        sum(range(200))
    worker.join()

    assert result["refresh"]["files"] == BIG_DIRS * BIG_FILES_PER_DIR
    duration = span["end"] - span["start"]
    assert duration > 0.05, "the refresh must take long enough to measure"
    # Holding the GIL would freeze this thread from the moment the refresh starts to
    # the moment it ends: the ticks must cover the whole span, not just its edges.
    points = [span["start"], *(t for t in ticks if span["start"] < t < span["end"]), span["end"]]
    gaps = [b - a for a, b in zip(points, points[1:])]
    assert len(points) > 100
    assert max(gaps) < duration / 4, (max(gaps), duration)


def test_suggest_from_many_threads_while_refreshing(
    engine: cc_search.Engine, big_tree: Path, tmp_path: Path
) -> None:
    project = make_files(tmp_path / "p", PICKER_FILES)
    engine.files_refresh(project)
    stop = threading.Event()
    answers: list[list[str]] = []

    def ask() -> None:
        while not stop.is_set():
            answers.append(engine.files_suggest("readme", project_dir=project)["paths"])

    askers = [threading.Thread(target=ask) for _ in range(3)]
    for t in askers:
        t.start()
    try:
        refreshed = engine.files_refresh(big_tree)
    finally:
        stop.set()
        for t in askers:
            t.join()
    assert refreshed["files"] == BIG_DIRS * BIG_FILES_PER_DIR
    assert answers and all(a == ["README.md"] for a in answers)
