"""Helpers shared by the tests: real files, real mtimes, the installed CLI."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

import pytest

#: The example project of the file-picker documentation.
PICKER_FILES = ["src/components/Button.tsx", "src/components/Modal.tsx", "README.md"]


def make_files(root: Path, paths: Iterable[str], text: str = "") -> Path:
    """Create `paths` (relative, `/`-separated) under `root`; return `root`."""
    for rel in paths:
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def set_mtime(path: Path, seconds: float) -> None:
    os.utime(path, (seconds, seconds))


def cli_path() -> str:
    """The installed `cc-search` entry point of this interpreter's environment."""
    found = shutil.which("cc-search", path=os.path.dirname(sys.executable))
    if found is None:
        pytest.fail("the cc-search entry point is not installed (run `maturin develop`)")
    return found


def run_cli(
    *args: str,
    home: Path,
    cwd: Path | None = None,
    stdin: str | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    full_env = {**os.environ, "CC_SEARCH_HOME": str(home), **(env or {})}
    return subprocess.run(
        [cli_path(), *args],
        cwd=cwd,
        env=full_env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )
