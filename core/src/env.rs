//! What the environment says: paths from variables, the user's home, the project
//! directory, the XDG base directories.

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// A path from environment variable `name`, when it is set and not empty.
pub fn env_path(name: &str) -> Option<PathBuf> {
    std::env::var_os(name)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

/// The user's home directory, from `$HOME`.
pub fn home_dir() -> Option<PathBuf> {
    env_path("HOME")
}

/// `$var` when it is an absolute path, else `fallback` below the home directory.
pub(crate) fn xdg_dir(var: &str, fallback: &str) -> Result<PathBuf> {
    if let Some(dir) = env_path(var).filter(|p| p.is_absolute()) {
        return Ok(dir);
    }
    home_dir().map(|home| home.join(fallback)).ok_or_else(|| {
        Error::invalid(
            "open",
            format!("neither ${var} nor $HOME is set; set CC_SEARCH_HOME"),
        )
    })
}

/// `path` made absolute against the current directory (as given if that fails).
pub(crate) fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

thread_local! {
    static CONFINED_TO: std::cell::RefCell<Option<Vec<PathBuf>>> =
        const { std::cell::RefCell::new(None) };
}

/// Run `f` with the operations it runs on this thread confined to the directories
/// `roots` (canonical): where an operation looks beyond the paths it was given (the code
/// index going up to a repository's top), it does not leave them. The MCP server runs
/// every tool this way; its path parameters are checked against the same roots.
pub fn confined<R>(roots: &[PathBuf], f: impl FnOnce() -> R) -> R {
    struct Restore(Option<Vec<PathBuf>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let before = self.0.take();
            CONFINED_TO.with(|slot| *slot.borrow_mut() = before);
        }
    }
    let before = CONFINED_TO.with(|slot| slot.borrow_mut().replace(roots.to_vec()));
    let _restore = Restore(before);
    f()
}

/// Whether `path` lies within the directories the current thread is confined to
/// ([`confined`]); always, outside a confinement.
pub fn allowed(path: &Path) -> bool {
    CONFINED_TO.with(|slot| {
        slot.borrow()
            .as_ref()
            .is_none_or(|roots| roots.iter().any(|root| path.starts_with(root)))
    })
}

/// The project directory as named: `given`, else `$CLAUDE_PROJECT_DIR`, else the current
/// directory.
pub fn project_dir_as_named(given: Option<PathBuf>) -> Result<PathBuf> {
    match given.or_else(|| env_path("CLAUDE_PROJECT_DIR")) {
        Some(dir) => Ok(dir),
        None => std::env::current_dir().map_err(|e| Error::io(".", e)),
    }
}

/// The project directory an operation works on ([`project_dir_as_named`]), canonical.
pub(crate) fn project_dir(given: Option<PathBuf>, operation: &str) -> Result<PathBuf> {
    let dir = project_dir_as_named(given)?;
    if dir.as_os_str().is_empty() {
        return Err(Error::invalid(operation, "directory is empty"));
    }
    std::fs::canonicalize(&dir).map_err(|e| Error::io(&dir, e))
}
