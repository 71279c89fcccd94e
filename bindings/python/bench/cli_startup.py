"""Start-up of the ``cc-search`` command line: whole processes, medians of N runs.

Each row is a command as a person or a hook runs it, against what the same machine takes
to start Python doing nothing (``python -c pass``) and, for ``grep``, against ripgrep on
the same one-file directory, in the same run. What the table says is how much of a short
command is the command line's own (parsing, imports) rather than the work.

    .venv/bin/python bindings/python/bench/cli_startup.py [--runs N] [--cli PATH]

``--cli`` runs another entry point (a copy of an older release, say) for a before/after.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def median_ms(
    argv: list[str], runs: int, stdin: bytes = b"", env: dict[str, str] | None = None
) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(argv, input=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       env=env, check=False)
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    beside = shutil.which("cc-search", path=os.path.dirname(sys.executable))
    parser.add_argument("--cli", default=beside, help="the cc-search entry point to time")
    args = parser.parse_args()
    cli = [args.cli]

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        project = root / "project"
        for i in range(200):
            path = project / f"src/module{i // 20}/file{i}.py"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(f"def function_{i}():\n    return {i}\n")
        (project / "README.md").write_text("# Project\n")
        env = {**os.environ, "CC_SEARCH_HOME": str(root / "home")}
        subprocess.run([*cli, "files", "refresh", str(project)], env=env, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        one = root / "one"
        one.mkdir()
        (one / "a.txt").write_text("needle\n")

        rows: list[tuple[str, float, str]] = []
        base = median_ms([sys.executable, "-c", "pass"], args.runs, env=env)
        rows.append(("python -c pass", base, ""))
        cases = [
            ("cc-search --version", [*cli, "--version"], b""),
            ("cc-search files suggest readme",
             [*cli, "files", "suggest", "readme", "-C", str(project)], b""),
            ("cc-search hook file-suggestion",
             [*cli, "hook", "file-suggestion", "-C", str(project)], b'{"query": "readme"}'),
            ("cc-search code search --help", [*cli, "code", "search", "--help"], b""),
            ("cc-search grep (one file)", [*cli, "grep", "-e", "needle", "--dir", str(one)], b""),
        ]
        for name, argv, stdin in cases:
            ms = median_ms(argv, args.runs, stdin, env)
            rows.append((name, ms, f"{ms - base:+.1f} ms over python -c pass"))
        rg = shutil.which("rg")
        if rg:
            ms = median_ms([rg, "--json", "needle", str(one)], args.runs, env=env)
            grep = rows[-1][1]
            # As everywhere in BENCHMARKS.md: above 1x means cc-search is faster.
            rows.append(("rg (one file)", ms, f"{ms / grep:.2f}x (rg's time / cc-search grep's)"))

    print(f"{'command':<34} {'median ms':>10}  note   (runs: {args.runs}, cli: {args.cli})")
    for name, ms, note in rows:
        print(f"{name:<34} {ms:>10.1f}  {note}")


if __name__ == "__main__":
    main()
