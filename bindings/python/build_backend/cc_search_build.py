"""cc-search's PEP 517 build backend: maturin's, plus the native hook program.

maturin builds the Python module (a pyo3 ``cdylib``) but cannot put a second Rust
program, a ``[[bin]]`` of another crate, into the same wheel. Claude Code runs the
``@`` picker's ``fileSuggestion`` command on every keystroke, and ``cc-search-hook``
answers it in a few milliseconds where starting Python takes ~80 ms, so every way pip
builds this package must ship it: a wheel, ``pip install <source dir>``,
``pip install git+<url>#subdirectory=bindings/python`` and the sdist.

This backend hands every hook to maturin, after two additions:

- **Wheels** (``build_wheel``, ``build_editable``): first ``cargo build -p
  cc-search-hook`` in the same workspace, profile and target as the module, and the
  program copied into ``cc_search._native.data/scripts/``, which maturin installs beside
  the ``cc-search`` command. If the program cannot be built, the wheel is built without
  it (a warning says why) and ``cc-search install claude`` falls back to the Python CLI's
  hook commands, saying so.
- **The sdist** (``build_sdist``): maturin's sdist holds the crates the module depends
  on; the hook crate and this backend are added, and the hook crate made a member of
  the sdist's workspace again, so a wheel built from the sdist ships the program too.

Runs on the Python that pip builds with (3.9 or later): standard library and maturin only.
"""

from __future__ import annotations

import io
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tarfile
from typing import Any, Mapping

import maturin
from maturin import (  # noqa: F401  (the hooks this backend passes through unchanged)
    get_requires_for_build_editable,
    get_requires_for_build_sdist,
    get_requires_for_build_wheel,
    prepare_metadata_for_build_wheel,
)

HOOK_CRATE = "cc-search-hook"
#: Where the hook crate sits, relative to the workspace root (the sdist's root too).
HOOK_DIR = "bindings/hook"
#: What of the hook crate a build needs: the rest (its tests, ship.sh) runs from the
#: source tree only.
HOOK_FILES = ("Cargo.toml", "build.rs", "src")
#: maturin's data directory for the module `cc_search._native`: `scripts/` in it are
#: installed beside the console scripts.
SCRIPTS_DIR = os.path.join("cc_search._native.data", "scripts")
#: This backend's directory, relative to pyproject.toml (pyproject's `backend-path`).
BACKEND_DIR = "build_backend"

ConfigSettings = Mapping[str, Any]


def build_wheel(
    wheel_directory: str,
    config_settings: ConfigSettings | None = None,
    metadata_directory: str | None = None,
) -> str:
    _ship_hook(config_settings)
    return maturin.build_wheel(wheel_directory, config_settings, metadata_directory)


def build_editable(
    wheel_directory: str,
    config_settings: ConfigSettings | None = None,
    metadata_directory: str | None = None,
) -> str:
    _ship_hook(config_settings)
    return maturin.build_editable(wheel_directory, config_settings, metadata_directory)


def build_sdist(sdist_directory: str, config_settings: ConfigSettings | None = None) -> str:
    name = maturin.build_sdist(sdist_directory, config_settings)
    _add_hook_to_sdist(os.path.join(sdist_directory, name), _workspace_root())
    return name


# --- wheels ----------------------------------------------------------------------------


def _warn(message: str) -> None:
    print(f"cc-search build: warning: {message}", file=sys.stderr, flush=True)


def _cargo_options(config_settings: ConfigSettings | None) -> tuple[str, list[str]]:
    """The profile maturin will build with (release unless the build arguments name
    another) and the cargo options that select it and the target, from the same build
    arguments maturin reads (`build-args` config setting or MATURIN_PEP517_ARGS)."""
    args = maturin.get_maturin_pep517_args(config_settings)
    profile, options = "release", []
    i = 0
    while i < len(args):
        arg = args[i]
        for flag in ("--profile", "--target"):
            if arg == flag and i + 1 < len(args):
                value = args[i + 1]
                i += 1
            elif arg.startswith(flag + "="):
                value = arg[len(flag) + 1 :]
            else:
                continue
            if flag == "--profile":
                profile = value
            else:
                options += ["--target", value]
        i += 1
    return profile, ["--profile", profile, *options]


def _manifest_path() -> str:
    """The module crate's Cargo.toml, from pyproject's [tool.maturin] (the working
    directory of a PEP 517 hook is the project's root)."""
    return os.path.abspath(maturin.get_config().get("manifest-path", "Cargo.toml"))


def _workspace_root() -> str:
    out = subprocess.run(
        ["cargo", "locate-project", "--workspace", "--message-format", "plain"],
        cwd=os.path.dirname(_manifest_path()),
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return os.path.dirname(out.strip())


def _rust_env() -> dict[str, str]:
    """The environment cargo runs in: this one, or where Rust is missing, the one maturin
    sets up (it installs Rust into a temporary directory), kept in os.environ so that
    maturin finds the same toolchain instead of installing it twice."""
    if shutil.which("cargo") is None:
        get_env = getattr(maturin, "_get_env", None)
        env = get_env() if get_env is not None else None
        if env:
            os.environ.update(env)
    return dict(os.environ)


def _ship_hook(config_settings: ConfigSettings | None) -> None:
    """Build cc-search-hook and copy it into the data directory maturin packs, or leave
    none there (and warn) when it cannot be built."""
    shipped = os.path.join(SCRIPTS_DIR, HOOK_CRATE)
    if os.path.lexists(shipped):
        os.remove(shipped)  # never a program left from another build
    profile, options = _cargo_options(config_settings)
    command = [
        "cargo",
        "build",
        "--manifest-path",
        _manifest_path(),
        "-p",
        HOOK_CRATE,
        "--message-format",
        "json-render-diagnostics",
        *options,
    ]
    print(f"Running `{shlex.join(command)}`", flush=True)
    try:
        env = _rust_env()
        proc = subprocess.run(command, stdout=subprocess.PIPE, text=True, env=env, check=False)
    except OSError as e:
        _warn(f"the native hook program was not built ({e}); the package will lack it")
        return
    built = None
    for line in proc.stdout.splitlines():
        try:
            message = json.loads(line)
        except ValueError:
            continue
        target = message.get("target", {})
        if (
            message.get("reason") == "compiler-artifact"
            and target.get("name") == HOOK_CRATE
            and "bin" in target.get("kind", [])
        ):
            built = message.get("executable")
    if proc.returncode != 0 or not built:
        why = f"cargo exited with status {proc.returncode}" if proc.returncode else "no program"
        _warn(f"the native hook program was not built ({why}, profile {profile}); "
              "the package will lack it and `cc-search install claude` will say so")
        return
    os.makedirs(SCRIPTS_DIR, exist_ok=True)
    partial = f"{shipped}.{os.getpid()}"
    shutil.copy2(built, partial)
    os.replace(partial, shipped)
    print(f"cc-search build: shipping {built} as {shipped}", flush=True)


# --- the sdist -------------------------------------------------------------------------


def _add_hook_to_sdist(sdist: str, workspace: str) -> None:
    """Rewrite maturin's sdist with the hook crate, this backend, and the hook crate back
    among the workspace's members."""
    with tarfile.open(sdist, "r:gz") as tar:
        members = [(m, tar.extractfile(m).read() if m.isfile() else None) for m in tar]
    top = members[0][0].name.split("/")[0]
    names = {m.name for m, _ in members}
    manifest = f"{top}/Cargo.toml"
    if manifest not in names:
        raise RuntimeError(f"{sdist} has no {manifest}")

    hook = os.path.join(workspace, HOOK_DIR)
    added: list[tuple[str, str]] = []
    for f in HOOK_FILES:
        path = os.path.join(hook, f)
        for file in [path] if os.path.isfile(path) else _files_under(path):
            added.append((file, f"{top}/{HOOK_DIR}/{os.path.relpath(file, hook)}"))
    backend = os.path.dirname(os.path.abspath(__file__))
    added += [
        (os.path.join(backend, f), f"{top}/{BACKEND_DIR}/{f}")
        for f in sorted(os.listdir(backend))
        if f.endswith(".py")
    ]

    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz", format=tarfile.PAX_FORMAT) as tar:
        for info, data in members:
            if info.name == manifest:
                data = _with_member(data or b"", HOOK_DIR)
                info.size = len(data)
            tar.addfile(info, io.BytesIO(data) if data is not None else None)
        for source, name in added:
            if name in names:
                continue
            info = tar.gettarinfo(source, arcname=name)
            info.mtime = members[0][0].mtime  # maturin's fixed time: a reproducible sdist
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            info.mode = 0o644
            with open(source, "rb") as f:
                tar.addfile(info, f)
    with open(sdist, "wb") as f:
        f.write(out.getvalue())


def _files_under(directory: str) -> list[str]:
    """Every file under `directory`, sorted (an error if there is none)."""
    found = sorted(
        os.path.join(d, f) for d, _, names in os.walk(directory) for f in names
    )
    if not found:
        raise RuntimeError(f"{directory}: no such directory, or nothing in it")
    return found


def _with_member(manifest: bytes, member: str) -> bytes:
    """The workspace manifest with `member` added to `[workspace] members`."""
    text = manifest.decode()
    found = re.search(r"(?m)^members\s*=\s*\[([^\]]*)\]", text)
    if found is None:
        raise RuntimeError("the sdist's Cargo.toml has no `members = [...]` line")
    listed = re.findall(r'"([^"]*)"', found.group(1))
    if member in listed:
        return manifest
    entries = ", ".join(json.dumps(m) for m in [*listed, member])
    return (text[: found.start()] + f"members = [{entries}]" + text[found.end() :]).encode()
