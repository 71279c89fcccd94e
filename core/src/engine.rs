//! The [`Engine`]: where data lives, the configuration, the databases opened so far and
//! the embedding model — a context that knows no component.
//!
//! Each component declares its databases ([`DatabaseFile`], or a path and a schema for
//! per-repository files) and asks the engine for them; the operations themselves are
//! listed above the components, in [`crate::registry`], which also gives the engine its
//! [`Engine::run`] and [`Engine::call`].

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};

use crate::config::Config;
use crate::embed::{Cache, Embedder};
use crate::env::{absolute, env_path, xdg_dir};
use crate::error::{Error, Result};
use crate::progress::{Generation, Watch};
use crate::store::{Database, Migrations};

/// How to open an [`Engine`]. Every field is optional; the defaults come from the
/// environment (see [`Engine::open`]).
#[derive(Debug, Clone, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct EngineOptions {
    /// Data root: databases live here, and so does `config.toml` unless `config_path`
    /// says otherwise. Overrides `CC_SEARCH_HOME` and the XDG directories.
    pub home: Option<PathBuf>,
    /// An explicit configuration file.
    pub config_path: Option<PathBuf>,
}

/// A database file in the data root, as the component that owns it declares it.
#[derive(Debug, Clone, Copy)]
pub struct DatabaseFile {
    /// File name in the data root (`files.db`).
    pub name: &'static str,
    /// Its schema, as migrations.
    pub migrations: Migrations,
    /// Bytes of the file read through a memory map (0: none).
    pub mmap_bytes: i64,
}

/// The entry point of cc-search: one per data root, shared freely between threads.
///
/// An engine owns the configuration and the database connections. Operations are run
/// with [`Engine::run`] (typed) or [`Engine::call`] (JSON, by name), both through the
/// operation table in [`crate::registry`].
///
/// Thread safety: `Engine` is `Send + Sync`; calls from many threads are safe and run in
/// parallel. Readers use a pool of connections and never wait for an index run (WAL);
/// index runs on one database queue behind each other.
pub struct Engine {
    home: PathBuf,
    config_path: PathBuf,
    config: Config,
    warnings: Vec<String>,
    embedding_cache: Cache,
    /// The databases opened so far, one [`Database`] per file, so that every call on
    /// this engine shares its connections and index runs on one file queue on one
    /// writer lock. Dropped with the engine: closing an engine closes every database it
    /// opened.
    databases: Mutex<HashMap<PathBuf, Arc<Database>>>,
    embedder: Mutex<Option<Arc<dyn Embedder>>>,
    model_missing_noted: AtomicBool,
    /// Advanced by [`Engine::cancel_running`]: every call watches it.
    running: Generation,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("home", &self.home)
            .field("config_path", &self.config_path)
            .finish_non_exhaustive()
    }
}

impl Engine {
    /// Open an engine.
    ///
    /// The data root is, in order: `options.home`, `$CC_SEARCH_HOME`,
    /// `$XDG_DATA_HOME/cc-search`, `~/.local/share/cc-search`. The configuration file is
    /// `options.config_path`, else `config.toml` in the data root when `home` or
    /// `CC_SEARCH_HOME` gave it, else `$XDG_CONFIG_HOME/cc-search/config.toml`
    /// (`~/.config/cc-search/config.toml`).
    ///
    /// Nothing is created on disk until an operation needs it. An invalid configuration
    /// file does not fail: the defaults apply and [`Engine::warnings`] says why.
    pub fn open(options: EngineOptions) -> Result<Engine> {
        for (name, given) in [
            ("home", &options.home),
            ("config_path", &options.config_path),
        ] {
            if given.as_ref().is_some_and(|p| p.as_os_str().is_empty()) {
                return Err(Error::invalid("open", format!("`{name}` is an empty path")));
            }
        }
        let explicit_home = options
            .home
            .or_else(|| env_path("CC_SEARCH_HOME"))
            .map(|h| absolute(&h));
        let home = match &explicit_home {
            Some(home) => home.clone(),
            None => xdg_dir("XDG_DATA_HOME", ".local/share")?.join("cc-search"),
        };
        let config_path = match (options.config_path, &explicit_home) {
            (Some(path), _) => absolute(&path),
            (None, Some(home)) => home.join("config.toml"),
            (None, None) => xdg_dir("XDG_CONFIG_HOME", ".config")?
                .join("cc-search")
                .join("config.toml"),
        };
        let (config, warnings) = Config::load(&config_path);
        for warning in &warnings {
            tracing::warn!("{warning}");
        }
        Ok(Engine {
            embedding_cache: Cache::new(home.join("embeddings.db")),
            databases: Mutex::new(HashMap::new()),
            embedder: Mutex::new(None),
            model_missing_noted: AtomicBool::new(false),
            running: Generation::default(),
            home,
            config_path,
            config,
            warnings,
        })
    }

    /// Open an engine with everything under `home`.
    pub fn open_at(home: impl Into<PathBuf>) -> Result<Engine> {
        Engine::open(EngineOptions {
            home: Some(home.into()),
            config_path: None,
        })
    }

    /// The data root.
    pub fn home(&self) -> &Path {
        &self.home
    }

    /// The configuration file that was (or would have been) read.
    pub fn config_path(&self) -> &Path {
        &self.config_path
    }

    /// The configuration in effect.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Warnings from opening the engine (an invalid configuration file), for the surface
    /// to show once.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// The database `file` of the data root (opened, migrated, or rebuilt if corrupt,
    /// on first use), shared by every call on this engine.
    pub fn database(&self, file: &DatabaseFile) -> Result<Arc<Database>> {
        let path = self.home.join(file.name);
        self.database_with(&path, || {
            Database::new(path.clone(), file.migrations).with_mmap(file.mmap_bytes)
        })
    }

    /// The database in file `path` with schema `migrations` (a per-repository code
    /// index), shared by every call on this engine.
    pub fn database_at(&self, path: &Path, migrations: Migrations) -> Result<Arc<Database>> {
        self.database_with(path, || Database::new(path.to_path_buf(), migrations))
    }

    fn database_with(&self, path: &Path, new: impl FnOnce() -> Database) -> Result<Arc<Database>> {
        let mut databases = self
            .databases
            .lock()
            .map_err(|_| Error::Internal("database registry poisoned".into()))?;
        if let Some(db) = databases.get(path) {
            return Ok(Arc::clone(db));
        }
        let db = Arc::new(new());
        databases.insert(path.to_path_buf(), Arc::clone(&db));
        Ok(db)
    }

    /// Close the database in file `path` on this engine (before the file is deleted).
    pub fn forget_database(&self, path: &Path) {
        if let Ok(mut databases) = self.databases.lock() {
            databases.remove(path);
        }
    }

    /// The vector cache (`embeddings.db` in the data root), shared by every index.
    pub fn embedding_cache(&self) -> &Cache {
        &self.embedding_cache
    }

    /// The embedding model, loaded on first use from where
    /// [`crate::embed::resolve_model_dir`] finds it (the configuration's
    /// `[embed] model_dir` first). A failure is returned, not remembered: the next call
    /// looks again.
    pub fn embedder(&self) -> Result<Arc<dyn Embedder>> {
        let mut slot = self
            .embedder
            .lock()
            .map_err(|_| Error::Internal("embedder lock poisoned".into()))?;
        if let Some(embedder) = slot.as_ref() {
            return Ok(Arc::clone(embedder));
        }
        let embedder = self.load_model()?;
        *slot = Some(Arc::clone(&embedder));
        Ok(embedder)
    }

    #[cfg(feature = "semantic")]
    fn load_model(&self) -> Result<Arc<dyn Embedder>> {
        let location = crate::embed::resolve_model_dir(self.config.embed.model_dir.as_deref())?;
        Ok(Arc::new(crate::embed::MiniLm::load(&location.dir)?))
    }

    /// Built without the `semantic` feature there is no model to load: every search
    /// answers from keywords, as when the model is not installed (the same error kind,
    /// so callers fall back the same way).
    #[cfg(not(feature = "semantic"))]
    fn load_model(&self) -> Result<Arc<dyn Embedder>> {
        Err(Error::io(
            "all-MiniLM-L6-v2",
            std::io::Error::new(
                std::io::ErrorKind::NotFound,
                "this build of cc-search has no embedding model (the `semantic` feature is off)",
            ),
        ))
    }

    /// True the first time it is called on this engine, false after: searches that fall
    /// back to keyword-only for want of a model say so once, not on every query.
    pub(crate) fn note_model_missing(&self) -> bool {
        !self.model_missing_noted.swap(true, Ordering::Relaxed)
    }

    /// Ask every call running on this engine now to stop at its next checkpoint; calls
    /// made after this are not affected. Each stops with [`Error::Cancelled`], keeping
    /// what it committed. One atomic add: safe from any thread and from a signal handler.
    pub fn cancel_running(&self) {
        self.running.advance();
    }

    /// Run `f` (one operation) so that [`Engine::cancel_running`] reaches it.
    pub(crate) fn watched<R>(&self, f: impl FnOnce() -> R) -> R {
        Watch::new().generation(&self.running).run(f)
    }

    /// Use `embedder` for this engine's embeddings instead of loading the model.
    pub fn set_embedder(&self, embedder: Arc<dyn Embedder>) -> Result<()> {
        let mut slot = self
            .embedder
            .lock()
            .map_err(|_| Error::Internal("embedder lock poisoned".into()))?;
        *slot = Some(embedder);
        Ok(())
    }
}

/// The directories of a request's `within` field: what an operation answers about stored
/// indexes is limited to repositories and projects equal to or below one of them, by path
/// components (`/a/bc` is not below `/a/b`). Entries that exist are compared canonical,
/// others as given. No entries: no limit.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Within {
    dirs: Vec<PathBuf>,
}

impl Within {
    /// `given` with each entry that exists made canonical (and entries below another
    /// one dropped: they add nothing).
    pub(crate) fn new(given: &[PathBuf]) -> Within {
        let mut all: Vec<PathBuf> = given
            .iter()
            .map(|d| std::fs::canonicalize(d).unwrap_or_else(|_| d.clone()))
            .collect();
        // Sorted by components, a directory comes right before what is below it.
        all.sort();
        let mut dirs: Vec<PathBuf> = Vec::with_capacity(all.len());
        for dir in all {
            if !dirs
                .iter()
                .any(|kept| is_clean(kept) && dir.starts_with(kept))
            {
                dirs.push(dir);
            }
        }
        Within { dirs }
    }

    /// Whether there is no limit.
    pub(crate) fn is_all(&self) -> bool {
        self.dirs.is_empty()
    }

    /// Whether `path` (absolute and canonical, as stored roots are) is one of the
    /// directories or below one. Compared as written: a relative path, one with `.` or
    /// `..` components, or an empty entry never matches.
    pub(crate) fn contains(&self, path: &Path) -> bool {
        if self.is_all() {
            return true;
        }
        is_clean(path) && self.dirs.iter().any(|d| is_clean(d) && path.starts_with(d))
    }

    /// [`Within::contains`] for a recorded path that may not be canonical (a session's
    /// working directory): made canonical first when it exists. A path recorded on
    /// another operating system ([`foreign_parts`]: `C:\Users\me\app` here, `/home/me/app`
    /// on Windows) can lie under none of the directories; it is taken to be in one when
    /// that directory's name is one of its components (`app`, as of `…/app/src`),
    /// regardless of case: the same project checked out on the other machine.
    pub(crate) fn contains_recorded(&self, path: &Path) -> bool {
        if self.is_all() {
            return true;
        }
        if let Some(parts) = foreign_parts(path) {
            return self.usable_dirs().any(|dir| {
                dir.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|name| parts.iter().any(|p| p.eq_ignore_ascii_case(name)))
            });
        }
        match std::fs::canonicalize(path) {
            Ok(canonical) => self.contains(&canonical),
            Err(_) => self.contains(path),
        }
    }

    /// The directories that can contain anything: absolute, without `.` or `..`.
    pub(crate) fn usable_dirs(&self) -> impl Iterator<Item = &Path> {
        self.dirs
            .iter()
            .map(PathBuf::as_path)
            .filter(|d| is_clean(d))
    }

    /// The directories, for messages.
    pub(crate) fn describe(&self) -> String {
        self.dirs
            .iter()
            .map(|d| d.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The components of a path written on another operating system than this one — on
/// Windows one starting with `/`, elsewhere one starting with a drive (`C:\`, `c:/`) or
/// `\\` (a network share) — or `None` for a path of this one.
fn foreign_parts(path: &Path) -> Option<Vec<&str>> {
    let text = path.to_str()?;
    let bytes = text.as_bytes();
    let foreign = if cfg!(windows) {
        text.starts_with('/')
    } else {
        (bytes.len() >= 3
            && bytes[0].is_ascii_alphabetic()
            && bytes[1] == b':'
            && matches!(bytes[2], b'\\' | b'/'))
            || text.starts_with("\\\\")
    };
    foreign.then(|| {
        text.split(['\\', '/'])
            .filter(|p| !p.is_empty() && !p.ends_with(':') && *p != "." && *p != "..")
            .collect()
    })
}

/// Whether `path` is absolute and has no `.` or `..` component: comparing it with
/// [`Path::starts_with`] then says whether it lies below.
fn is_clean(path: &Path) -> bool {
    path.is_absolute()
        && !path.components().any(|c| {
            matches!(
                c,
                std::path::Component::ParentDir | std::path::Component::CurDir
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(not(windows))]
    #[test]
    fn paths_recorded_on_another_system_are_matched_by_the_project_name() {
        assert_eq!(
            foreign_parts(Path::new(r"C:\Users\me\code\Widget\src")),
            Some(vec!["Users", "me", "code", "Widget", "src"])
        );
        assert_eq!(
            foreign_parts(Path::new(r"\\server\share\widget")),
            Some(vec!["server", "share", "widget"])
        );
        assert_eq!(foreign_parts(Path::new("/home/me/widget")), None);
        assert_eq!(foreign_parts(Path::new("C:relative")), None);
        let within = Within::new(&[PathBuf::from("/work/widget")]);
        assert!(within.contains_recorded(Path::new(r"C:\Users\me\code\Widget\src")));
        assert!(within.contains_recorded(Path::new("d:/projects/widget")));
        assert!(!within.contains_recorded(Path::new(r"C:\Users\me\code\gadget")));
        assert!(
            !within.contains_recorded(Path::new("/home/me/widget")),
            "a path of this system is compared as it is"
        );
    }

    #[test]
    fn within_compares_path_components() {
        let within = Within::new(&[PathBuf::from("/nonexistent-cc/a/b")]);
        assert!(within.contains(Path::new("/nonexistent-cc/a/b")));
        assert!(within.contains(Path::new("/nonexistent-cc/a/b/c")));
        assert!(!within.contains(Path::new("/nonexistent-cc/a/bc")));
        assert!(!within.contains(Path::new("/nonexistent-cc/a")));
        assert!(!within.contains(Path::new("/nonexistent-cc/a/b/../x")));
        assert!(!within.contains(Path::new("nonexistent-cc/a/b")));
        assert!(Within::new(&[]).contains(Path::new("/anywhere")));
        assert!(!Within::new(&[PathBuf::new()]).contains(Path::new("/anywhere")));
        let nested = Within::new(&[
            PathBuf::from("/nonexistent-cc/a/b/c"),
            PathBuf::from("/nonexistent-cc/a/b"),
            PathBuf::from("/nonexistent-cc/a/bc"),
        ]);
        assert_eq!(
            nested.dirs,
            [
                PathBuf::from("/nonexistent-cc/a/b"),
                PathBuf::from("/nonexistent-cc/a/bc")
            ]
        );
    }

    #[cfg(unix)]
    #[test]
    fn within_canonicalises_what_exists() {
        let dir = tempfile::tempdir().unwrap();
        let real = std::fs::canonicalize(dir.path()).unwrap();
        std::fs::create_dir(real.join("repo")).unwrap();
        std::os::unix::fs::symlink(real.join("repo"), real.join("link")).unwrap();
        let within = Within::new(&[real.join("link")]);
        assert!(within.contains(&real.join("repo/x")));
        assert!(!within.contains(&real.join("link/x")));
        // A recorded path through the link is compared canonical.
        assert!(within.contains_recorded(&real.join("link")));
        assert!(!Within::new(&[real.join("other")]).contains_recorded(&real.join("link")));
    }
}
