"""examples/python/example.py runs and prints what it promises."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from support import make_files

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "python" / "example.py"


def run(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(EXAMPLE), *args],
        capture_output=True,
        text=True,
        env={**os.environ, "CC_SEARCH_HOME": str(home)},
        timeout=60,
    )


def test_example_demo_project(home: Path) -> None:
    proc = run(home=home)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("indexed 3 files under ")
    assert lines[1:] == [
        "@src/comp",
        "  src/components/Modal.tsx",
        "  src/components/Button.tsx",
        "@readme",
        "  README.md",
        "@Button",
        "  src/components/Button.tsx",
        "@",
        *lines[9:],
    ]
    assert sorted(lines[9:]) == sorted(
        ["  README.md", "  src/components/Modal.tsx", "  src/components/Button.tsx"]
    )


def test_example_on_a_given_directory(home: Path, tmp_path: Path) -> None:
    root = make_files(tmp_path / "mine", ["lib/alpha.py", "lib/beta.py", "notes.md"])
    proc = run(str(root), "alp", "notes", home=home)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == (
        f"indexed 3 files under {os.path.realpath(root)}\n"
        "@alp\n  lib/alpha.py\n@notes\n  notes.md\n"
    )
    assert (home / "files.db").is_file()


def test_example_reports_a_missing_directory(home: Path, tmp_path: Path) -> None:
    proc = run(str(tmp_path / "nowhere"), home=home)
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert proc.stderr.startswith(f"cannot index {tmp_path / 'nowhere'}: ")
