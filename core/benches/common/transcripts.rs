//! Session transcripts for the benches: timed index runs and copies of a projects folder.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use cc_search::Engine;
use cc_search::sessions::{self, IndexRequest, IndexResponse};

/// `sessions.index` of `projects`, and how long it took.
pub fn index(engine: &Engine, projects: &Path) -> (IndexResponse, Duration) {
    let started = Instant::now();
    let run = engine
        .run::<sessions::Index>(IndexRequest {
            projects_dir: Some(projects.into()),
            ..Default::default()
        })
        .expect("index");
    (run, started.elapsed())
}

/// Every file below `dir`.
pub fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}

/// The `.jsonl` files below `from`, copied to the same places below `to`.
pub fn copy_transcripts(from: &Path, to: &Path) {
    for file in walk(from) {
        if file.extension().is_some_and(|e| e == "jsonl") {
            let target = to.join(file.strip_prefix(from).unwrap());
            std::fs::create_dir_all(target.parent().unwrap()).unwrap();
            std::fs::copy(&file, &target).unwrap();
        }
    }
}
