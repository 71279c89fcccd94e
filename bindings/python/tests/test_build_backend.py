"""The package's PEP 517 backend (build_backend/cc_search_build.py): the native hook
program in every wheel, its crate in the sdist, and a clear fallback. Every pip path is
installed for real by tests/packaging.sh; these check the backend's parts."""

from __future__ import annotations

import importlib
import io
import subprocess
import sys
import tarfile
from pathlib import Path
from types import ModuleType

import pytest

import cc_search

PACKAGE = Path(__file__).resolve().parents[1]
WORKSPACE = PACKAGE.parents[1]


@pytest.fixture(scope="module")
def backend() -> ModuleType:
    sys.path.insert(0, str(PACKAGE / "build_backend"))
    try:
        return importlib.import_module("cc_search_build")
    finally:
        sys.path.remove(str(PACKAGE / "build_backend"))


def project(root: Path, manifest: Path) -> Path:
    """A project directory whose pyproject names `manifest` as maturin's Cargo.toml."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text(f'[tool.maturin]\nmanifest-path = "{manifest}"\n')
    return root


def test_the_hook_is_built_with_the_profile_and_target_maturin_is_given(
    backend: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("MATURIN_PEP517_ARGS", raising=False)
    assert backend._cargo_options(None) == ("release", ["--profile", "release"])
    assert backend._cargo_options({"build-args": "--profile dev"}) == (
        "dev",
        ["--profile", "dev"],
    )
    assert backend._cargo_options(
        {"maturin.build-args": "--profile=dev --target x86_64-unknown-linux-gnu --locked"}
    ) == ("dev", ["--profile", "dev", "--target", "x86_64-unknown-linux-gnu"])
    monkeypatch.setenv("MATURIN_PEP517_ARGS", "--profile bench")
    assert backend._cargo_options(None) == ("bench", ["--profile", "bench"])


def test_a_wheel_ships_the_native_hook_program(
    backend: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = project(tmp_path / "pkg", PACKAGE / "Cargo.toml")
    scripts = root / "cc_search._native.data" / "scripts"
    monkeypatch.chdir(root)
    backend._ship_hook({"build-args": "--profile dev"})
    shipped = scripts / "cc-search-hook"
    out = subprocess.run([shipped, "--version"], capture_output=True, text=True, check=True)
    assert out.stdout == f"cc-search-hook {cc_search.__version__}\n"


def test_where_the_hook_cannot_be_built_the_wheel_lacks_it_and_says_why(
    backend: ModuleType,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capfd: pytest.CaptureFixture[str],
) -> None:
    # A workspace without the hook's crate; a program left from an earlier build.
    crate = tmp_path / "crate"
    (crate / "src").mkdir(parents=True)
    (crate / "Cargo.toml").write_text(
        '[package]\nname = "other"\nversion = "0.1.0"\nedition = "2021"\n\n[workspace]\n'
    )
    (crate / "src" / "lib.rs").write_text("")
    root = project(tmp_path / "pkg", crate / "Cargo.toml")
    stale = root / "cc_search._native.data" / "scripts" / "cc-search-hook"
    stale.parent.mkdir(parents=True)
    stale.write_text("#!/bin/sh\necho cc-search-hook 0.0.1\n")
    monkeypatch.chdir(root)
    backend._ship_hook({"build-args": "--profile dev"})
    assert not stale.exists(), "a program from another build is never shipped"
    err = capfd.readouterr().err
    assert (
        "cc-search build: warning: the native hook program was not built "
        "(cargo exited with status 101, profile dev); the package will lack it and "
        "`cc-search install claude` will say so\n"
    ) in err, err


def test_the_sdist_gains_the_hook_crate_and_the_backend(
    backend: ModuleType, tmp_path: Path
) -> None:
    # An sdist as maturin writes it: the workspace's members cut down to what it holds.
    sdist = tmp_path / "cc_search-0.1.0.tar.gz"
    manifest = b'[workspace]\nresolver = "3"\nmembers = ["core", "bindings/python"]\n'
    with tarfile.open(sdist, "w:gz") as tar:
        for name, data in (
            ("cc_search-0.1.0/PKG-INFO", b"Name: cc-search\n"),
            ("cc_search-0.1.0/Cargo.toml", manifest),
        ):
            info = tarfile.TarInfo(name)
            info.size, info.mtime = len(data), 1153704088
            tar.addfile(info, io.BytesIO(data))

    backend._add_hook_to_sdist(str(sdist), str(WORKSPACE))
    with tarfile.open(sdist) as tar:
        infos = {m.name: m for m in tar}
        cargo = tar.extractfile("cc_search-0.1.0/Cargo.toml").read().decode()  # type: ignore[union-attr]
        main = tar.extractfile("cc_search-0.1.0/bindings/hook/src/main.rs").read()  # type: ignore[union-attr]
    assert 'members = ["core", "bindings/python", "bindings/hook"]\n' in cargo, cargo
    assert main == (WORKSPACE / "bindings/hook/src/main.rs").read_bytes()
    for name in (
        "bindings/hook/Cargo.toml",
        "bindings/hook/build.rs",
        "build_backend/cc_search_build.py",
    ):
        assert f"cc_search-0.1.0/{name}" in infos, sorted(infos)
    assert not any("/tests/" in n or n.endswith("ship.sh") for n in infos), sorted(infos)
    assert {m.mtime for m in infos.values()} == {1153704088}, "the sdist stays reproducible"

    # Done twice (or on an sdist that has it already), nothing is added twice.
    backend._add_hook_to_sdist(str(sdist), str(WORKSPACE))
    with tarfile.open(sdist) as tar:
        names = [m.name for m in tar]
        cargo = tar.extractfile("cc_search-0.1.0/Cargo.toml").read().decode()  # type: ignore[union-attr]
    assert len(names) == len(set(names)) == len(infos)
    assert cargo.count("bindings/hook") == 1


def test_a_workspace_manifest_without_members_is_an_error(backend: ModuleType) -> None:
    with pytest.raises(RuntimeError, match="no `members = \\[...\\]` line"):
        backend._with_member(b'[workspace]\nresolver = "3"\n', "bindings/hook")
