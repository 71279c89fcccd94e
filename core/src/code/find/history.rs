//! What a repository's history says of each file for `code.find`: how often it changed
//! lately. Code that changed often is more likely to change again (how recently it last
//! changed added nothing on the development set).

use std::collections::HashMap;
use std::path::Path;

use crate::git::{HistoryWindow, Repo};

/// The commits looked at: the newest this many, from HEAD.
pub(super) const COMMITS: usize = 300;

/// For each file of the repository at `root` (path relative to it) changed by one of the
/// last [`COMMITS`] commits: ln(1 + how many did). Empty outside git, and when the
/// history cannot be read.
pub(super) fn activity(root: &Path) -> HashMap<String, f64> {
    let Some(repo) = Repo::discover(root) else {
        return HashMap::new();
    };
    let window = HistoryWindow {
        since: 0,
        max_commits: COMMITS,
    };
    let Ok(history) = repo.history(&window) else {
        return HashMap::new();
    };
    history
        .files
        .iter()
        .filter_map(|(path, a)| {
            let rel = path.strip_prefix(root).ok()?;
            let rel = rel
                .components()
                .map(|c| c.as_os_str().to_str())
                .collect::<Option<Vec<_>>>()?
                .join("/");
            Some((rel, (1.0 + f64::from(a.commits)).ln()))
        })
        .collect()
}
