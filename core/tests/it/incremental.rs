//! Git-aware incremental refresh: a root in a git work tree is brought up to date from
//! directory mtimes and git (status, commits since the last refresh) instead of being
//! walked again — and the index it leaves is the one a full walk would leave.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use cc_search::Engine;
use cc_search::files::{Refresh, RefreshRequest, RefreshResponse, Suggest, SuggestRequest};

use crate::common;
use common::write;

fn git(dir: &Path, args: &[&str]) {
    common::git_at(dir, args, 1_700_000_000);
}

/// Rewrite a file in place (no new directory entry, so its directory's mtime stays) with
/// a given mtime.
fn edit_in_place(path: &Path, content: &str, mtime: i64) {
    let file = fs::OpenOptions::new()
        .write(true)
        .truncate(true)
        .open(path)
        .unwrap();
    std::io::Write::write_all(&mut &file, content.as_bytes()).unwrap();
    let at = std::time::UNIX_EPOCH + std::time::Duration::from_secs(mtime as u64);
    file.set_modified(at).unwrap();
}

struct Repo {
    _tmp: tempfile::TempDir,
    root: PathBuf,
    claude: PathBuf,
    home: tempfile::TempDir,
    engine: Engine,
}

fn repo(files: &[&str]) -> Repo {
    let tmp = tempfile::tempdir().unwrap();
    let root = fs::canonicalize(tmp.path()).unwrap().join("project");
    fs::create_dir_all(&root).unwrap();
    let claude = tmp.path().join("claude");
    fs::create_dir_all(&claude).unwrap();
    git(&root, &["init", "-q", "-b", "main"]);
    git(&root, &["config", "user.name", "t"]);
    git(&root, &["config", "user.email", "t@example.com"]);
    for rel in files {
        write(&root, rel, rel);
    }
    git(&root, &["add", "-A"]);
    git(&root, &["commit", "-q", "-m", "initial"]);
    // `git init` wrote the exclude file an instant ago; a refresh that starts within the
    // file system clock's slack of it cannot tell whether it was written before.
    let exclude = fs::File::options()
        .write(true)
        .open(root.join(".git/info/exclude"))
        .unwrap();
    exclude
        .set_modified(std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_600_000_000))
        .unwrap();
    let home = tempfile::tempdir().unwrap();
    let engine = Engine::open_at(home.path()).unwrap();
    Repo {
        _tmp: tmp,
        root,
        claude,
        home,
        engine,
    }
}

impl Repo {
    fn refresh_with(&self, engine: &Engine, full: bool) -> RefreshResponse {
        engine
            .run::<Refresh>(RefreshRequest {
                root: Some(self.root.clone()),
                claude_dir: Some(self.claude.clone()),
                full,
                ..Default::default()
            })
            .unwrap()
    }

    fn refresh(&self) -> RefreshResponse {
        self.refresh_with(&self.engine, false)
    }

    fn suggest(&self, query: &str) -> Vec<String> {
        self.engine
            .run::<Suggest>(SuggestRequest {
                query: query.into(),
                project_dir: Some(self.root.clone()),
                ..Default::default()
            })
            .unwrap()
            .paths
    }

    /// The index this engine holds, as rows.
    fn snapshot(&self, engine: &Engine) -> Snapshot {
        let conn = rusqlite::Connection::open(engine.files_db_path()).unwrap();
        let rows = |sql: &str| -> Vec<String> {
            let mut stmt = conn.prepare(sql).unwrap();
            stmt.query_map([], |r| r.get::<_, String>(0))
                .unwrap()
                .map(Result::unwrap)
                .collect()
        };
        Snapshot {
            files: rows(
                "SELECT path || ' ' || mtime || ' ' || root || ' ' || filename || ' '
                   || dir_components || ' ' || relative_path FROM files_meta ORDER BY path",
            ),
            fts: rows(
                "SELECT m.path FROM files_fts JOIN files_meta m ON m.rowid = files_fts.rowid
                 WHERE files_fts MATCH 'src OR lib OR docs OR md OR rs' ORDER BY m.path",
            ),
            list: rows("SELECT root || ' ' || count || ' ' || hex(paths) FROM files_lists"),
            dirs: rows(
                "SELECT path || ' ' || root || ' ' || mtime_ns FROM files_dirs ORDER BY path",
            ),
        }
    }

    /// What a full walk into a new index finds now.
    fn full_snapshot(&self) -> Snapshot {
        let home = tempfile::tempdir().unwrap();
        let engine = Engine::open_at(home.path()).unwrap();
        let response = self.refresh_with(&engine, true);
        assert!(!response.roots[0].incremental);
        self.snapshot(&engine)
    }
}

#[derive(Debug, PartialEq, Eq)]
struct Snapshot {
    files: Vec<String>,
    fts: Vec<String>,
    list: Vec<String>,
    dirs: Vec<String>,
}

const TREE: &[&str] = &[
    "README.md",
    "src/main.rs",
    "src/lib.rs",
    "src/net/http.rs",
    "src/net/tcp.rs",
    "docs/guide.md",
    "docs/api/index.md",
];

#[test]
fn an_unchanged_repository_is_not_walked_again() {
    let r = repo(TREE);
    let first = r.refresh();
    assert!(!first.roots[0].incremental, "the first refresh walks");
    assert_eq!(first.files, 7);
    let second = r.refresh();
    assert!(second.roots[0].incremental, "{second:?}");
    assert_eq!(
        (second.files, second.added, second.updated, second.removed),
        (7, 0, 0, 0)
    );
    assert_eq!(r.snapshot(&r.engine), r.full_snapshot());
}

#[test]
fn created_deleted_and_renamed_files_and_directories_are_found() {
    let r = repo(TREE);
    r.refresh();
    write(&r.root, "src/net/udp.rs", "udp");
    write(&r.root, "tools/gen/build_index.py", "x");
    write(&r.root, "tools/gen/deep/er/still.txt", "x");
    // Ignored by a .gitignore that already existed? There is none; the defaults apply.
    write(&r.root, "tools/node_modules/dep/index.js", "x");
    fs::remove_file(r.root.join("src/lib.rs")).unwrap();
    fs::remove_dir_all(r.root.join("docs/api")).unwrap();
    fs::rename(
        r.root.join("src/net/tcp.rs"),
        r.root.join("src/tcp_stream.rs"),
    )
    .unwrap();
    let response = r.refresh();
    assert!(response.roots[0].incremental, "{response:?}");
    assert_eq!(
        (response.added, response.removed),
        (4, 3),
        "added udp.rs, build_index.py, still.txt, tcp_stream.rs; removed lib.rs, tcp.rs, index.md"
    );
    assert_eq!(response.files, 8);
    assert_eq!(r.snapshot(&r.engine), r.full_snapshot());
    assert_eq!(r.suggest("build_index"), ["tools/gen/build_index.py"]);
    assert!(r.suggest("index.md").is_empty());
    assert!(
        r.suggest("dep/index").is_empty(),
        "node_modules stays excluded"
    );
}

#[test]
fn a_checkout_reindexes_what_it_changed() {
    let r = repo(TREE);
    git(&r.root, &["checkout", "-q", "-b", "feature"]);
    write(&r.root, "src/feature.rs", "new on the branch");
    fs::remove_file(r.root.join("docs/guide.md")).unwrap();
    git(&r.root, &["add", "-A"]);
    git(&r.root, &["commit", "-q", "-m", "feature"]);
    git(&r.root, &["checkout", "-q", "main"]);
    r.refresh();

    git(&r.root, &["checkout", "-q", "feature"]);
    let there = r.refresh();
    assert!(there.roots[0].incremental, "{there:?}");
    assert_eq!((there.added, there.removed), (1, 1));
    assert_eq!(r.snapshot(&r.engine), r.full_snapshot());
    assert_eq!(r.suggest("feature"), ["src/feature.rs"]);

    git(&r.root, &["checkout", "-q", "main"]);
    let back = r.refresh();
    assert!(back.roots[0].incremental, "{back:?}");
    assert_eq!((back.added, back.removed), (1, 1));
    assert_eq!(r.snapshot(&r.engine), r.full_snapshot());
}

#[test]
fn files_edited_in_place_get_their_new_mtime_from_git() {
    let r = repo(TREE);
    r.refresh();
    // Modified and not committed: git status reports it.
    edit_in_place(&r.root.join("src/net/http.rs"), "changed", 1_800_000_000);
    let response = r.refresh();
    assert!(response.roots[0].incremental);
    assert_eq!(
        (response.added, response.updated, response.removed),
        (0, 1, 0)
    );
    assert_eq!(r.snapshot(&r.engine), r.full_snapshot());

    // Committed since the last refresh: the commits between the two HEADs report it.
    git(&r.root, &["commit", "-q", "-am", "edit"]);
    r.refresh();
    edit_in_place(&r.root.join("src/main.rs"), "edited", 1_800_000_100);
    git(&r.root, &["commit", "-q", "-am", "edit main"]);
    let response = r.refresh();
    assert!(response.roots[0].incremental);
    assert_eq!(response.updated, 1);
    assert_eq!(r.snapshot(&r.engine), r.full_snapshot());
    // The most recently modified file comes first for an empty query.
    assert_eq!(
        r.suggest("").first().map(String::as_str),
        Some("src/main.rs")
    );
}

#[test]
fn changed_ignore_rules_mean_a_full_walk() {
    let r = repo(TREE);
    write(&r.root, "logs/today.log", "x");
    r.refresh();
    assert_eq!(r.suggest("today"), ["logs/today.log"]);
    // Edited in place: no directory mtime moves, git status reports it.
    let gitignore = r.root.join(".gitignore");
    write(&r.root, ".gitignore", "");
    r.refresh();
    let later = fs::metadata(&gitignore).unwrap().modified().unwrap();
    let later = later
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
        + 5;
    edit_in_place(&gitignore, "*.log\n", later);
    let response = r.refresh();
    assert!(!response.roots[0].incremental, "{response:?}");
    assert!(r.suggest("today").is_empty());
    assert_eq!(r.snapshot(&r.engine), r.full_snapshot());
}

#[test]
fn other_rules_or_full_force_a_walk() {
    let r = repo(TREE);
    r.refresh();
    let excluded = r
        .engine
        .run::<Refresh>(RefreshRequest {
            root: Some(r.root.clone()),
            claude_dir: Some(r.claude.clone()),
            exclude: vec!["docs".into()],
            ..Default::default()
        })
        .unwrap();
    assert!(!excluded.roots[0].incremental, "new excludes: walked");
    assert_eq!(excluded.files, 5);
    assert!(
        !r.refresh().roots[0].incremental,
        "excludes gone again: walked"
    );
    assert!(r.refresh().roots[0].incremental);
    assert!(!r.refresh_with(&r.engine, true).roots[0].incremental);
}

#[test]
fn a_directory_outside_git_is_always_walked() {
    let tmp = tempfile::tempdir().unwrap();
    let root = fs::canonicalize(tmp.path()).unwrap();
    write(&root, "a/b.txt", "x");
    let home = tempfile::tempdir().unwrap();
    let engine = Engine::open_at(home.path()).unwrap();
    let request = || RefreshRequest {
        root: Some(root.clone()),
        claude_dir: Some(root.join("no-claude")),
        ..Default::default()
    };
    engine.run::<Refresh>(request()).unwrap();
    edit_in_place(&root.join("a/b.txt"), "y", 1_800_000_000);
    let response = engine.run::<Refresh>(request()).unwrap();
    assert!(!response.roots[0].incremental);
    assert_eq!(response.updated, 1, "an in-place edit is seen by the walk");
}

#[test]
fn a_truncated_walk_is_not_built_on() {
    let r = repo(TREE);
    let limited = || {
        r.engine
            .run::<Refresh>(RefreshRequest {
                root: Some(r.root.clone()),
                claude_dir: Some(r.claude.clone()),
                max_files: Some(3),
                ..Default::default()
            })
            .unwrap()
    };
    assert!(limited().truncated);
    let again = limited();
    assert!(!again.roots[0].incremental && again.truncated);
    assert_eq!(again.files, 3);
}

#[test]
fn growing_past_the_file_limit_walks_and_truncates_in_path_order() {
    let r = repo(TREE);
    let refresh = || {
        r.engine
            .run::<Refresh>(RefreshRequest {
                root: Some(r.root.clone()),
                claude_dir: Some(r.claude.clone()),
                max_files: Some(8),
                ..Default::default()
            })
            .unwrap()
    };
    assert!(!refresh().truncated);
    write(&r.root, "a/first.rs", "x");
    write(&r.root, "a/second.rs", "x");
    let response = refresh();
    assert!(response.truncated && !response.roots[0].incremental);
    assert_eq!(response.files, 8);
    assert_eq!(r.suggest("second"), ["a/second.rs"], "a/ sorts first");
}

#[test]
fn many_random_changes_leave_the_index_a_full_walk_would() {
    let r = repo(TREE);
    r.refresh();
    // A fixed sequence of mixed operations, checked against a full walk after each round.
    let mut seed = 0x2545_f491_u64;
    let mut next = |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    let mut commit = 0;
    for round in 0..6 {
        for step in 0..8 {
            let dir = ["src", "src/net", "docs", "new", "new/deeper", "x/y/z"][next(6) as usize];
            match next(5) {
                0 | 1 => write(&r.root, &format!("{dir}/f{round}_{step}.rs"), "x"),
                2 => {
                    let files = r.suggest("");
                    if let Some(victim) = files.get(next(files.len().max(1) as u64) as usize) {
                        let _ = fs::remove_file(r.root.join(victim));
                    }
                }
                3 => {
                    let _ = fs::remove_dir_all(r.root.join(dir));
                }
                _ => {
                    commit += 1;
                    git(&r.root, &["add", "-A"]);
                    let _ = Command::new("git")
                        .arg("-C")
                        .arg(&r.root)
                        .args(["commit", "-q", "-m", &format!("c{commit}")])
                        .output();
                }
            }
        }
        let response = r.refresh();
        assert!(response.roots[0].incremental, "round {round}: {response:?}");
        assert_eq!(r.snapshot(&r.engine), r.full_snapshot(), "round {round}");
    }
    let _ = r.home.path();
}

#[test]
fn a_deleted_untracked_ignore_file_brings_its_files_back() {
    let r = repo(TREE);
    // Not committed: git status shows it as untracked while it exists, and not at all
    // once it is deleted.
    write(&r.root, "gen/.gitignore", "*.out\n");
    write(&r.root, "gen/deep/er/result.out", "x");
    let first = r.refresh();
    assert!(r.suggest("result.out").is_empty(), "{first:?}");
    // Date it back so it is not "modified since the last refresh".
    edit_in_place(&r.root.join("gen/.gitignore"), "*.out\n", 1_600_000_000);
    r.refresh();
    assert!(r.refresh().roots[0].incremental);
    fs::remove_file(r.root.join("gen/.gitignore")).unwrap();
    let response = r.refresh();
    assert!(!response.roots[0].incremental, "{response:?}");
    assert_eq!(r.suggest("result.out"), ["gen/deep/er/result.out"]);
    assert_eq!(r.snapshot(&r.engine), r.full_snapshot());
}

/// Set a directory's mtime (as a file system with a coarse clock leaves it when two
/// entries are created in one tick).
fn set_dir_mtime(dir: &Path, at: std::time::SystemTime) {
    fs::File::open(dir).unwrap().set_modified(at).unwrap();
}

#[test]
fn a_file_created_in_the_tick_its_directory_was_listed_in_is_found() {
    let r = repo(TREE);
    let dir = r.root.join("src/net");
    // The directory changed "just now" as the refresh starts (its mtime a moment ahead of
    // the refresh's start), and after the walk listed it another file lands in it within
    // the same clock tick: the directory's mtime does not move.
    let tick = std::time::SystemTime::now() + std::time::Duration::from_secs(2);
    write(&r.root, "src/net/a.rs", "a");
    set_dir_mtime(&dir, tick);
    assert_eq!(r.refresh().files, 8);
    write(&r.root, "src/net/b.rs", "b");
    set_dir_mtime(&dir, tick);
    let response = r.refresh();
    assert!(response.roots[0].incremental, "{response:?}");
    assert_eq!((response.files, response.added), (9, 1), "{response:?}");
    assert_eq!(r.suggest("net/b.rs")[0], "src/net/b.rs");
    assert_eq!(r.snapshot(&r.engine), r.full_snapshot());
}

#[test]
fn concurrent_refreshes_keep_the_file_count_true() {
    let r = repo(TREE);
    r.refresh();
    let engines: Vec<Engine> = (0..3)
        .map(|_| Engine::open_at(r.home.path()).unwrap())
        .collect();
    std::thread::scope(|s| {
        for (t, engine) in engines.iter().enumerate() {
            let r = &r;
            s.spawn(move || {
                for i in 0..6 {
                    write(&r.root, &format!("src/t{t}/f{i}.rs"), "x");
                    r.refresh_with(engine, false);
                }
            });
        }
    });
    let last = r.refresh();
    let indexed = r.snapshot(&r.engine).files.len();
    assert_eq!(last.files, indexed);
    assert_eq!(indexed, TREE.len() + 18);
    assert_eq!(r.snapshot(&r.engine), r.full_snapshot());
}
