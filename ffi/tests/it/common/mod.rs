//! What the C ABI tests share: the workspace, the C libraries built by cargo, gcc.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// Build the C libraries (cargo test builds only the rlib) and return their directory.
pub fn libraries() -> PathBuf {
    let status = Command::new(env!("CARGO"))
        .args(["build", "--quiet", "-p", "cc-search-ffi", "--lib"])
        .current_dir(workspace())
        .status()
        .expect("run cargo build");
    assert!(status.success(), "cargo build -p cc-search-ffi failed");
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace().join("target"));
    let dir = target.join("debug");
    assert!(
        dir.join("libcc_search.so").exists(),
        "no libcc_search.so in {dir:?}"
    );
    assert!(
        dir.join("libcc_search.a").exists(),
        "no libcc_search.a in {dir:?}"
    );
    dir
}

/// Compile `source` with gcc into `out`, against the shared library or the static one.
pub fn gcc(out: &Path, source: &Path, lib_dir: &Path, link_static: bool) {
    gcc_with(out, source, lib_dir, link_static, &[]);
}

/// [`gcc`] with more compiler flags (`-fsanitize=address`, `-g`).
pub fn gcc_with(out: &Path, source: &Path, lib_dir: &Path, link_static: bool, flags: &[&str]) {
    let mut cmd = Command::new("gcc");
    cmd.args(flags)
        .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-pthread", "-o"])
        .arg(out)
        .arg(source)
        .arg("-I")
        .arg(workspace().join("include"));
    if link_static {
        cmd.arg(lib_dir.join("libcc_search.a"))
            .args(["-lm", "-ldl"]);
    } else {
        cmd.arg("-L").arg(lib_dir).arg("-lcc_search");
    }
    let output = cmd.output().expect("run gcc");
    assert!(
        output.status.success(),
        "gcc {source:?} failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}
