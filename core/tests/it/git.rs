//! The `git` module on real repositories built with the `git` program: history windows,
//! status through both backends, invalidation after a branch switch, and the strange
//! repositories (unborn, detached, shallow, corrupt, not a repository at all).

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use cc_search::git::{
    self, Backend, FileActivity, FileState, History, HistoryWindow, Repo, StatusEntry,
};

const T0: i64 = 1_700_000_000;
const DAY: i64 = 86_400;

/// A `git` command isolated from the user's and the system's configuration.
fn git_command(dir: &Path) -> Command {
    let mut command = Command::new("git");
    command
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("LC_ALL", "C");
    for name in [
        "GIT_DIR",
        "GIT_WORK_TREE",
        "GIT_INDEX_FILE",
        "GIT_OBJECT_DIRECTORY",
    ] {
        command.env_remove(name);
    }
    command
}

fn run(mut command: Command) -> Vec<u8> {
    let output = command.output().expect("git runs");
    assert!(
        output.status.success(),
        "{command:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output.stdout
}

fn git(dir: &Path, args: &[&str]) -> String {
    let mut command = git_command(dir);
    command.args(args);
    String::from_utf8_lossy(&run(command)).trim().to_string()
}

/// A new repository on branch `main` with an identity in its own config.
fn init(dir: &Path) {
    git(dir, &["init", "-q", "-b", "main"]);
    git(dir, &["config", "user.name", "Test"]);
    git(dir, &["config", "user.email", "test@example.invalid"]);
    git(dir, &["config", "commit.gpgsign", "false"]);
}

/// Commit what is staged, dated `time` (author and committer).
fn commit_at(dir: &Path, message: &str, time: i64) -> String {
    let date = format!("{time} +0000");
    let mut command = git_command(dir);
    command
        .args([
            "commit",
            "-q",
            "--allow-empty",
            "--no-verify",
            "-m",
            message,
        ])
        .env("GIT_AUTHOR_DATE", &date)
        .env("GIT_COMMITTER_DATE", &date);
    run(command);
    git(dir, &["rev-parse", "HEAD"])
}

/// Stage everything and commit it, dated `time`.
fn commit_all(dir: &Path, message: &str, time: i64) -> String {
    git(dir, &["add", "-A"]);
    commit_at(dir, message, time)
}

fn write(dir: &Path, rel: &str, contents: &str) {
    let path = dir.join(rel);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, contents).unwrap();
}

fn activity(last_commit: i64, commits: u32) -> FileActivity {
    FileActivity {
        last_commit,
        commits,
    }
}

fn all_time(max_commits: usize) -> HistoryWindow {
    HistoryWindow {
        since: 0,
        max_commits,
    }
}

/// History through both backends, checked equal.
fn history_both(repo: &Repo, window: &HistoryWindow) -> History {
    let library = repo.history_with(window, Backend::Libgit2).unwrap();
    let cli = repo.history_with(window, Backend::Cli).unwrap();
    assert_eq!(cli, library, "backends disagree for {window:?}");
    library
}

fn relative(repo: &Repo, history: &History) -> BTreeMap<String, FileActivity> {
    history
        .files
        .iter()
        .map(|(path, a)| {
            let rel = path.strip_prefix(repo.root()).expect("path under the root");
            (rel.to_string_lossy().into_owned(), *a)
        })
        .collect()
}

fn canonical(dir: &Path) -> PathBuf {
    dir.canonicalize().unwrap()
}

/// A tempdir whose ancestors are not inside a git repository (true of the system temp
/// dir; asserted so a test never silently runs inside someone's repository).
fn outside_repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let inside = git_command(dir.path())
        .args(["rev-parse", "--is-inside-work-tree"])
        .stderr(Stdio::null())
        .output()
        .unwrap();
    assert!(
        !inside.status.success(),
        "the temp dir is inside a repository"
    );
    dir
}

// --- discovery ---------------------------------------------------------------------

#[test]
fn a_plain_directory_has_no_repository() {
    let dir = outside_repo();
    write(dir.path(), "src/main.rs", "fn main() {}");
    assert!(Repo::discover(dir.path()).is_none());
    assert!(Repo::discover(&dir.path().join("src/main.rs")).is_none());
    assert!(Repo::discover(&dir.path().join("missing")).is_none());
}

#[test]
fn discover_walks_up_from_a_subdirectory_or_file_to_the_canonical_root() {
    let dir = outside_repo();
    init(dir.path());
    write(dir.path(), "src/deep/lib.rs", "");
    let root = canonical(dir.path());
    for start in [
        dir.path().to_path_buf(),
        dir.path().join("src/deep"),
        dir.path().join("src/deep/lib.rs"),
        dir.path().join("src/deep/../deep"),
    ] {
        let repo = Repo::discover(&start).unwrap_or_else(|| panic!("{start:?}"));
        assert_eq!(repo.root(), root);
    }
}

#[test]
fn a_bare_repository_is_not_a_work_tree() {
    let dir = outside_repo();
    git(dir.path(), &["init", "-q", "--bare", "repo.git"]);
    assert!(Repo::discover(&dir.path().join("repo.git")).is_none());
}

// --- HEAD and branch ------------------------------------------------------------------

#[test]
fn a_repository_without_commits_has_no_head_and_an_empty_history() {
    let dir = outside_repo();
    init(dir.path());
    write(dir.path(), "notes.md", "draft");
    let repo = Repo::discover(dir.path()).unwrap();
    assert_eq!(repo.head(), None);
    assert_eq!(repo.branch(), None);
    for backend in [Backend::Auto, Backend::Cli, Backend::Libgit2] {
        let history = repo
            .history_with(&HistoryWindow::recent(T0), backend)
            .unwrap();
        assert_eq!(history, History::default());
    }
    let expected = vec![StatusEntry {
        path: repo.root().join("notes.md"),
        state: FileState::Untracked,
    }];
    assert_eq!(repo.status_with(Backend::Cli).unwrap(), expected);
    assert_eq!(repo.status_with(Backend::Libgit2).unwrap(), expected);
}

#[test]
fn head_and_branch_follow_checkouts_and_detaching() {
    let dir = outside_repo();
    init(dir.path());
    write(dir.path(), "a.txt", "1");
    let first = commit_all(dir.path(), "one", T0);
    write(dir.path(), "a.txt", "2");
    let second = commit_all(dir.path(), "two", T0 + DAY);

    let repo = Repo::discover(dir.path()).unwrap();
    assert_eq!(repo.head().as_deref(), Some(second.as_str()));
    assert_eq!(repo.branch().as_deref(), Some("main"));

    git(dir.path(), &["checkout", "-q", "-b", "feature/x", &first]);
    assert_eq!(repo.head().as_deref(), Some(first.as_str()));
    assert_eq!(repo.branch().as_deref(), Some("feature/x"));

    git(dir.path(), &["checkout", "-q", "--detach", &second]);
    assert_eq!(repo.head().as_deref(), Some(second.as_str()));
    assert_eq!(repo.branch(), None, "detached HEAD has no branch");
    let history = history_both(&repo, &all_time(100));
    assert_eq!(history.head.as_deref(), Some(second.as_str()));
    assert_eq!(history.commits, 2);
}

// --- history ------------------------------------------------------------------------

/// main: c1 (a, b, dir/c) → c2 (a, delete b) → c3 (a, rename dir/c → dir/d)
///       → c5 (a) → merge of feature (f, branched at c3) as m.
fn branchy_repo(dir: &Path) {
    init(dir);
    write(dir, "a.txt", "a1");
    write(dir, "b.txt", "b1");
    write(
        dir,
        "dir/c.txt",
        "c1 with enough text to be recognised as a rename",
    );
    commit_all(dir, "c1", T0);
    write(dir, "a.txt", "a2");
    fs::remove_file(dir.join("b.txt")).unwrap();
    commit_all(dir, "c2", T0 + DAY);
    write(dir, "a.txt", "a3");
    git(dir, &["mv", "dir/c.txt", "dir/d.txt"]);
    commit_all(dir, "c3", T0 + 2 * DAY);
    git(dir, &["checkout", "-q", "-b", "feature"]);
    write(dir, "f.txt", "f1");
    commit_all(dir, "f", T0 + 3 * DAY);
    git(dir, &["checkout", "-q", "main"]);
    write(dir, "a.txt", "a4");
    commit_all(dir, "c5", T0 + 4 * DAY);
    let date = format!("{} +0000", T0 + 5 * DAY);
    let mut merge = git_command(dir);
    merge
        .args(["merge", "-q", "--no-ff", "--no-edit", "feature"])
        .env("GIT_AUTHOR_DATE", &date)
        .env("GIT_COMMITTER_DATE", &date);
    run(merge);
}

#[test]
fn history_counts_commits_per_file_and_the_newest_touch() {
    let dir = outside_repo();
    branchy_repo(dir.path());
    let repo = Repo::discover(dir.path()).unwrap();
    let history = history_both(&repo, &all_time(1000));
    assert_eq!(history.head, repo.head());
    assert_eq!(history.commits, 6, "five commits and the merge");
    let expected: BTreeMap<String, FileActivity> = [
        ("a.txt", activity(T0 + 4 * DAY, 4)),
        // Deleted in c2: only its creation counts.
        ("b.txt", activity(T0, 1)),
        // Renamed away in c3: the old path keeps only its creation.
        ("dir/c.txt", activity(T0, 1)),
        // The rename counts for the new path.
        ("dir/d.txt", activity(T0 + 2 * DAY, 1)),
        // Committed on the branch; the merge itself adds no count.
        ("f.txt", activity(T0 + 3 * DAY, 1)),
    ]
    .into_iter()
    .map(|(p, a)| (p.to_string(), a))
    .collect();
    assert_eq!(relative(&repo, &history), expected);
    // Paths are absolute and under the canonical root.
    assert!(history.files.keys().all(|p| p.starts_with(repo.root())));
    // The default backend gives the same answer.
    assert_eq!(repo.history(&all_time(1000)).unwrap(), history);
}

#[test]
fn history_stops_at_max_commits_or_the_first_commit_older_than_since() {
    let dir = outside_repo();
    branchy_repo(dir.path());
    let repo = Repo::discover(dir.path()).unwrap();

    // Newest two: the merge (no paths) and c5.
    let history = history_both(&repo, &all_time(2));
    assert_eq!(history.commits, 2);
    assert_eq!(
        relative(&repo, &history),
        [("a.txt".to_string(), activity(T0 + 4 * DAY, 1))].into()
    );

    // Since c3's date: merge, c5, f, c3; c2 is older and ends the walk.
    let window = HistoryWindow {
        since: T0 + 2 * DAY,
        max_commits: 1000,
    };
    let history = history_both(&repo, &window);
    assert_eq!(history.commits, 4);
    let files = relative(&repo, &history);
    assert_eq!(files["a.txt"], activity(T0 + 4 * DAY, 2));
    assert_eq!(files["dir/d.txt"], activity(T0 + 2 * DAY, 1));
    assert_eq!(files["f.txt"], activity(T0 + 3 * DAY, 1));
    assert!(!files.contains_key("b.txt"));

    // Whichever is smaller wins.
    let window = HistoryWindow {
        since: T0 + 2 * DAY,
        max_commits: 3,
    };
    assert_eq!(history_both(&repo, &window).commits, 3);

    // Nothing is recent enough / nothing asked for.
    let window = HistoryWindow {
        since: T0 + 10 * DAY,
        max_commits: 1000,
    };
    let history = history_both(&repo, &window);
    assert_eq!((history.commits, history.files.len()), (0, 0));
    assert_eq!(history.head, repo.head());
    assert_eq!(history_both(&repo, &all_time(0)).commits, 0);

    // The spec's window, seen from a week after the last commit, covers everything.
    let history = history_both(&repo, &HistoryWindow::recent(T0 + 12 * DAY));
    assert_eq!(history.commits, 6);
    let a = history.files[&repo.root().join("a.txt")];
    let score = a.recency(T0 + 18 * DAY);
    assert!((score - (-1.0f64).exp()).abs() < 1e-12, "{score}");
}

#[cfg(unix)]
#[test]
fn history_handles_type_changes_nested_trees_and_file_to_directory_swaps() {
    let dir = outside_repo();
    init(dir.path());
    write(dir.path(), "x", "file first");
    write(dir.path(), "deep/a/b/c/d.txt", "d");
    write(dir.path(), "deep/a/b/same.txt", "same");
    write(dir.path(), "script.sh", "echo");
    commit_all(dir.path(), "one", T0);
    // `x` becomes a directory; a deep file changes; a mode changes.
    fs::remove_file(dir.path().join("x")).unwrap();
    write(dir.path(), "x/inside.txt", "now a dir");
    write(dir.path(), "deep/a/b/c/d.txt", "d2");
    let script = dir.path().join("script.sh");
    let mut permissions = fs::metadata(&script).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
    fs::set_permissions(&script, permissions).unwrap();
    commit_all(dir.path(), "two", T0 + DAY);
    let repo = Repo::discover(dir.path()).unwrap();
    let history = history_both(&repo, &all_time(10));
    let files = relative(&repo, &history);
    assert_eq!(files["x"], activity(T0, 1));
    assert_eq!(files["x/inside.txt"], activity(T0 + DAY, 1));
    assert_eq!(files["deep/a/b/c/d.txt"], activity(T0 + DAY, 2));
    assert_eq!(files["deep/a/b/same.txt"], activity(T0, 1));
    assert_eq!(
        files["script.sh"],
        activity(T0 + DAY, 2),
        "a mode change counts"
    );
}

#[cfg(unix)]
#[test]
fn history_and_status_keep_non_utf8_and_odd_file_names() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;

    let dir = outside_repo();
    init(dir.path());
    let odd = OsStr::from_bytes(b"caf\xe9 \"quoted\"\nline.txt");
    fs::write(dir.path().join(odd), "x").unwrap();
    write(dir.path(), "plain.txt", "p");
    commit_all(dir.path(), "one", T0);
    let repo = Repo::discover(dir.path()).unwrap();
    let history = history_both(&repo, &all_time(10));
    assert_eq!(history.files[&repo.root().join(odd)], activity(T0, 1));

    fs::write(dir.path().join(odd), "changed").unwrap();
    let expected = vec![StatusEntry {
        path: repo.root().join(odd),
        state: FileState::Modified,
    }];
    assert_eq!(repo.status_with(Backend::Cli).unwrap(), expected);
    assert_eq!(repo.status_with(Backend::Libgit2).unwrap(), expected);
}

/// A fast-import stream for a deterministic history: `commits` commits over `files`
/// files spread across nested directories, several branches merged back, committer
/// dates from `date(i)`.
struct Generated {
    stream: Vec<u8>,
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// File `i` of a generated repository: `src/m<i % dirs>/s<..>/f<i>.rs`, so `src` has `dirs`
/// subdirectories of up to 12 directories each.
fn file_name(i: u64, dirs: u64) -> String {
    format!("src/m{:03}/s{:02}/f{}.rs", i % dirs, (i / dirs) % 12, i)
}

fn generate(commits: u64, files: u64, seed: u64, date: impl Fn(u64, &mut Rng) -> i64) -> Generated {
    let dirs = (files / 150).max(4);
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    let mut mark = 0u64;
    let mut branch_tips: Vec<Option<u64>> = vec![None; 3];
    let mut created = 0u64;
    for i in 0..commits {
        mark += 1;
        let branch = if i < 5 { 0 } else { rng.below(3) as usize };
        let time = date(i, &mut rng);
        let parent = branch_tips[branch].or(branch_tips[0]);
        writeln!(out, "commit refs/heads/b{branch}").unwrap();
        writeln!(out, "mark :{mark}").unwrap();
        writeln!(out, "committer T <t@e> {time} +0000").unwrap();
        writeln!(out, "data 1\nx").unwrap();
        if let Some(p) = parent {
            writeln!(out, "from :{p}").unwrap();
        }
        // Every 10th commit on a side branch merges main in, and main merges a side
        // branch every 15th.
        let mut merged = false;
        if branch != 0 && i % 10 == 0 {
            if let Some(main) = branch_tips[0]
                && Some(main) != parent
            {
                writeln!(out, "merge :{main}").unwrap();
                merged = true;
            }
        } else if branch == 0 && i % 15 == 0 {
            let side = 1 + rng.below(2) as usize;
            if let Some(tip) = branch_tips[side]
                && Some(tip) != parent
            {
                writeln!(out, "merge :{tip}").unwrap();
                merged = true;
            }
        }
        let touched = if i == 0 {
            files * 3 / 4
        } else if merged {
            0
        } else {
            1 + rng.below(8)
        };
        for k in 0..touched {
            let index = if i == 0 {
                k
            } else if created < files && rng.below(4) == 0 {
                created
            } else {
                rng.below(created.max(1))
            };
            created = created.max(index + 1);
            let content = format!("{i} {k} {}", rng.next());
            writeln!(out, "M 100644 inline {}", file_name(index, dirs)).unwrap();
            writeln!(out, "data {}\n{content}", content.len()).unwrap();
        }
        if i > 0 && !merged && rng.below(20) == 0 && created > 10 {
            writeln!(out, "D {}", file_name(rng.below(created), dirs)).unwrap();
        }
        writeln!(out).unwrap();
        branch_tips[branch] = Some(mark);
    }
    writeln!(out, "reset refs/heads/main\nfrom :{mark}\n").unwrap();
    Generated { stream: out }
}

fn import(dir: &Path, generated: &Generated) {
    init(dir);
    let mut command = git_command(dir);
    command
        .args(["fast-import", "--quiet"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null());
    let mut child = command.spawn().unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(&generated.stream)
        .unwrap();
    assert!(child.wait().unwrap().success());
    git(dir, &["checkout", "-q", "-f", "main"]);
}

#[test]
fn both_backends_agree_on_a_branchy_history_with_clock_skew_and_equal_dates() {
    let dir = outside_repo();
    // Dates mostly rise, but often repeat and sometimes go backwards.
    let generated = generate(90, 120, 7, |i, rng| {
        let base = T0 + (i as i64) * 3_600;
        match rng.below(6) {
            0 => T0 + ((i / 4) as i64) * 4 * 3_600, // shared with neighbours
            1 => base - 30 * 3_600,                 // skewed into the past
            _ => base,
        }
    });
    import(dir.path(), &generated);
    let repo = Repo::discover(dir.path()).unwrap();
    let full = history_both(&repo, &all_time(10_000));
    let reachable: usize = git(dir.path(), &["rev-list", "--count", "HEAD"])
        .parse()
        .unwrap();
    let merges: usize = git(dir.path(), &["rev-list", "--count", "--merges", "HEAD"])
        .parse()
        .unwrap();
    assert_eq!(full.commits, reachable);
    assert!(
        merges >= 3 && reachable >= 40,
        "{merges} merges, {reachable} commits"
    );
    assert!(!full.files.is_empty());
    for max_commits in 0..=95 {
        history_both(&repo, &all_time(max_commits));
    }
    for hours in (-40..100).step_by(3) {
        let window = HistoryWindow {
            since: T0 + hours * 3_600,
            max_commits: 1000,
        };
        history_both(&repo, &window);
        let window = HistoryWindow {
            since: T0 + hours * 3_600,
            max_commits: 37,
        };
        history_both(&repo, &window);
    }
}

#[test]
fn a_shallow_clone_treats_its_oldest_commit_as_a_root() {
    let origin = outside_repo();
    init(origin.path());
    for day in 0..5 {
        write(origin.path(), &format!("f{day}.txt"), "x");
        commit_all(origin.path(), &format!("c{day}"), T0 + day * DAY);
    }
    let parent = outside_repo();
    let url = format!("file://{}", origin.path().display());
    git(
        parent.path(),
        &["clone", "-q", "--depth", "2", &url, "clone"],
    );
    let repo = Repo::discover(&parent.path().join("clone")).unwrap();
    assert!(repo.is_shallow());
    let history = history_both(&repo, &all_time(1000));
    assert_eq!(history.commits, 2);
    let files = relative(&repo, &history);
    // The boundary commit (day 3) shows every file of its tree, as `git log` does.
    assert_eq!(files["f0.txt"], activity(T0 + 3 * DAY, 1));
    assert_eq!(files["f3.txt"], activity(T0 + 3 * DAY, 1));
    assert_eq!(files["f4.txt"], activity(T0 + 4 * DAY, 1));
    assert_eq!(files.len(), 5);
}

#[test]
fn a_linked_worktree_is_its_own_root() {
    let dir = outside_repo();
    init(dir.path());
    write(dir.path(), "a.txt", "1");
    commit_all(dir.path(), "one", T0);
    git(dir.path(), &["worktree", "add", "-q", "-b", "side", "wt"]);
    let wt = dir.path().join("wt");
    write(&wt, "a.txt", "changed in the worktree");
    let repo = Repo::discover(&wt).unwrap();
    assert_eq!(repo.root(), canonical(&wt));
    assert_eq!(repo.branch().as_deref(), Some("side"));
    let expected = vec![StatusEntry {
        path: canonical(&wt).join("a.txt"),
        state: FileState::Modified,
    }];
    assert_eq!(repo.status_with(Backend::Cli).unwrap(), expected);
    assert_eq!(repo.status_with(Backend::Libgit2).unwrap(), expected);
    let history = history_both(&repo, &all_time(10));
    assert_eq!(
        history.files.keys().collect::<Vec<_>>(),
        [&canonical(&wt).join("a.txt")]
    );
}

// --- status -------------------------------------------------------------------------

#[test]
fn status_backends_agree_on_every_kind_of_change() {
    let dir = outside_repo();
    let d = dir.path();
    init(d);
    write(d, "modified.txt", "m");
    write(d, "staged.txt", "s");
    write(d, "dir with space/file name.txt", "spaced");
    write(
        d,
        "old name.txt",
        "renamed content long enough to be detected",
    );
    write(d, "deleted.txt", "d");
    write(d, "staged-delete.txt", "sd");
    write(d, "unchanged.txt", "u");
    write(d, ".gitignore", "ignored.log\n");
    commit_all(d, "base", T0);

    write(d, "modified.txt", "m2");
    write(d, "staged.txt", "s2");
    git(d, &["add", "staged.txt"]);
    write(d, "dir with space/file name.txt", "spaced 2");
    write(d, "fresh/dir/untracked.txt", "new");
    let odd = "quote\"new\nline-ü.txt";
    write(d, odd, "odd");
    git(d, &["add", "--", odd]);
    git(d, &["mv", "old name.txt", "new -> name.txt"]);
    fs::remove_file(d.join("deleted.txt")).unwrap();
    git(d, &["rm", "-q", "staged-delete.txt"]);
    write(d, "ignored.log", "noise");

    let repo = Repo::discover(d).unwrap();
    let root = repo.root().to_path_buf();
    let entry = |rel: &str, state: FileState| StatusEntry {
        path: root.join(rel),
        state,
    };
    let mut expected = vec![
        entry("modified.txt", FileState::Modified),
        entry("staged.txt", FileState::Staged),
        entry("dir with space/file name.txt", FileState::Modified),
        entry("fresh/dir/untracked.txt", FileState::Untracked),
        entry(odd, FileState::Staged),
        entry(
            "new -> name.txt",
            FileState::Renamed {
                from: root.join("old name.txt"),
            },
        ),
        entry("deleted.txt", FileState::Deleted),
        entry("staged-delete.txt", FileState::Deleted),
    ];
    expected.sort();
    let cli = repo.status_with(Backend::Cli).unwrap();
    let library = repo.status_with(Backend::Libgit2).unwrap();
    assert_eq!(cli, expected);
    assert_eq!(library, expected);
    assert_eq!(repo.status().unwrap(), expected);

    let boosts = git::status_boosts(&cli);
    assert_eq!(boosts[&root.join("modified.txt")], 5.0);
    assert_eq!(boosts[&root.join("staged.txt")], 5.0);
    assert_eq!(boosts[&root.join("new -> name.txt")], 5.0);
    assert_eq!(boosts[&root.join("fresh/dir/untracked.txt")], 3.0);
    assert!(!boosts.contains_key(&root.join("deleted.txt")));
    assert!(!boosts.contains_key(&root.join("unchanged.txt")));
    assert!(!boosts.contains_key(&root.join("ignored.log")));
}

#[test]
fn a_file_removed_from_the_index_but_kept_on_disk_is_deleted_and_untracked() {
    let dir = outside_repo();
    init(dir.path());
    write(dir.path(), "kept.txt", "k");
    commit_all(dir.path(), "one", T0);
    git(dir.path(), &["rm", "-q", "--cached", "kept.txt"]);
    let repo = Repo::discover(dir.path()).unwrap();
    let path = repo.root().join("kept.txt");
    let expected = vec![
        StatusEntry {
            path: path.clone(),
            state: FileState::Untracked,
        },
        StatusEntry {
            path: path.clone(),
            state: FileState::Deleted,
        },
    ];
    let mut expected_sorted = expected.clone();
    expected_sorted.sort();
    assert_eq!(repo.status_with(Backend::Cli).unwrap(), expected_sorted);
    assert_eq!(repo.status_with(Backend::Libgit2).unwrap(), expected_sorted);
    assert_eq!(git::status_boosts(&expected)[&path], 3.0);
}

#[test]
fn a_merge_conflict_is_reported_by_both_backends() {
    let dir = outside_repo();
    init(dir.path());
    write(dir.path(), "c.txt", "base\n");
    commit_all(dir.path(), "base", T0);
    git(dir.path(), &["checkout", "-q", "-b", "other"]);
    write(dir.path(), "c.txt", "other\n");
    commit_all(dir.path(), "other", T0 + DAY);
    git(dir.path(), &["checkout", "-q", "main"]);
    write(dir.path(), "c.txt", "main\n");
    commit_all(dir.path(), "main", T0 + DAY);
    let merge = git_command(dir.path())
        .args(["merge", "-q", "other"])
        .output()
        .unwrap();
    assert!(!merge.status.success(), "the merge conflicts");
    let repo = Repo::discover(dir.path()).unwrap();
    let expected = vec![StatusEntry {
        path: repo.root().join("c.txt"),
        state: FileState::Conflicted,
    }];
    assert_eq!(repo.status_with(Backend::Cli).unwrap(), expected);
    assert_eq!(repo.status_with(Backend::Libgit2).unwrap(), expected);
}

#[test]
fn without_the_git_program_libgit2_answers_and_the_cli_backend_says_why() {
    let dir = outside_repo();
    branchy_repo(dir.path());
    write(dir.path(), "a.txt", "dirty");
    write(dir.path(), "new.txt", "untracked");
    let repo = Repo::discover(dir.path()).unwrap();
    let expected_status = repo.status_with(Backend::Libgit2).unwrap();
    let expected_history = repo.history_with(&all_time(100), Backend::Libgit2).unwrap();
    assert_eq!(expected_status.len(), 2);

    let missing = dir.path().join("no-such-git");
    let repo = repo.with_git_program(&missing);
    assert_eq!(repo.status().unwrap(), expected_status);
    assert_eq!(repo.history(&all_time(100)).unwrap(), expected_history);

    let err = repo.status_with(Backend::Cli).unwrap_err();
    let message = err.to_string();
    assert!(message.contains("no-such-git"), "{message}");
    assert!(
        message.contains(&repo.root().display().to_string()),
        "{message}"
    );
    assert_eq!(err.code(), "io");
    assert!(repo.history_with(&all_time(100), Backend::Cli).is_err());
}

#[test]
fn a_failing_git_program_falls_back_to_libgit2() {
    let dir = outside_repo();
    branchy_repo(dir.path());
    write(dir.path(), "a.txt", "dirty");
    let repo = Repo::discover(dir.path()).unwrap();
    let expected = repo.status_with(Backend::Libgit2).unwrap();
    // `false` exits with status 1 whatever its arguments.
    let repo = repo.with_git_program("false");
    assert_eq!(repo.status().unwrap(), expected);
    let err = repo.status_with(Backend::Cli).unwrap_err().to_string();
    assert!(err.contains("exited with"), "{err}");
}

// --- invalidation -------------------------------------------------------------------

#[test]
fn changed_between_lists_what_a_branch_switch_changed() {
    let dir = outside_repo();
    let d = dir.path();
    init(d);
    write(d, "same.txt", "s");
    write(d, "edit.txt", "e1");
    write(d, "gone.txt", "g");
    write(
        d,
        "lib/old.rs",
        "renamed content long enough to be detected as a rename",
    );
    let main = commit_all(d, "base", T0);
    git(d, &["checkout", "-q", "-b", "topic"]);
    write(d, "edit.txt", "e2");
    fs::remove_file(d.join("gone.txt")).unwrap();
    git(d, &["mv", "lib/old.rs", "lib/new.rs"]);
    write(d, "added/deep/file.txt", "a");
    let topic = commit_all(d, "topic", T0 + DAY);

    let repo = Repo::discover(d).unwrap();
    let before = repo.head().unwrap();
    git(d, &["checkout", "-q", "main"]);
    let after = repo.head().unwrap();
    assert_eq!(
        (before.as_str(), after.as_str()),
        (topic.as_str(), main.as_str())
    );
    assert_eq!(repo.branch().as_deref(), Some("main"));

    let root = repo.root();
    let expected: Vec<PathBuf> = [
        "added/deep/file.txt",
        "edit.txt",
        "gone.txt",
        "lib/new.rs",
        "lib/old.rs",
    ]
    .iter()
    .map(|rel| root.join(rel))
    .collect();
    assert_eq!(repo.changed_between(&before, &after).unwrap(), expected);
    assert_eq!(repo.changed_between(&after, &before).unwrap(), expected);
    assert_eq!(repo.changed_between("main", "topic").unwrap(), expected);
    assert!(repo.changed_between(&after, &after).unwrap().is_empty());
}

#[test]
fn changed_between_an_unknown_commit_is_a_clear_error() {
    let dir = outside_repo();
    init(dir.path());
    write(dir.path(), "a.txt", "1");
    let head = commit_all(dir.path(), "one", T0);
    let repo = Repo::discover(dir.path()).unwrap();
    let missing = "0123456789abcdef0123456789abcdef01234567";
    let err = repo
        .changed_between(missing, &head)
        .unwrap_err()
        .to_string();
    assert!(err.contains(missing), "{err}");
    assert!(err.contains(&repo.root().display().to_string()), "{err}");
    assert!(repo.changed_between(&head, "not a revision").is_err());
}

// --- damaged repositories -------------------------------------------------------------

#[test]
fn a_garbage_dot_git_file_is_no_repository() {
    let dir = outside_repo();
    fs::write(dir.path().join(".git"), "this is not a gitdir pointer").unwrap();
    assert!(Repo::discover(dir.path()).is_none());
    fs::remove_file(dir.path().join(".git")).unwrap();
    fs::create_dir(dir.path().join(".git")).unwrap();
    fs::write(dir.path().join(".git/HEAD"), "garbage").unwrap();
    assert!(Repo::discover(dir.path()).is_none());
}

#[test]
fn a_repository_with_a_missing_object_gives_an_error_not_a_panic() {
    let dir = outside_repo();
    init(dir.path());
    write(dir.path(), "src/a.txt", "1");
    commit_all(dir.path(), "one", T0);
    write(dir.path(), "src/a.txt", "2");
    commit_all(dir.path(), "two", T0 + DAY);
    write(dir.path(), "other.txt", "3");
    commit_all(dir.path(), "three", T0 + 2 * DAY);
    // Remove the first commit's `src` tree: walking into it must fail cleanly.
    let tree = git(dir.path(), &["rev-parse", "HEAD~2:src"]);
    let object = dir
        .path()
        .join(".git/objects")
        .join(&tree[..2])
        .join(&tree[2..]);
    fs::remove_file(object).unwrap();

    let repo = Repo::discover(dir.path()).unwrap();
    assert!(repo.head().is_some());
    for backend in [Backend::Libgit2, Backend::Cli, Backend::Auto] {
        let err = repo
            .history_with(&all_time(100), backend)
            .expect_err("a missing tree is an error");
        let message = err.to_string();
        assert!(
            message.contains(&repo.root().display().to_string()),
            "{message}"
        );
        if backend == Backend::Cli {
            assert!(
                message.contains("fatal:"),
                "git's own reason is kept: {message}"
            );
        }
    }
    // The newest commit alone does not need the missing tree.
    let history = history_both(&repo, &all_time(1));
    assert_eq!(history.commits, 1);
    // Status reads the index and the work tree, which are intact.
    assert!(repo.status_with(Backend::Libgit2).unwrap().is_empty());
}

#[test]
fn a_head_pointing_at_a_missing_commit_has_no_head_and_history_is_an_error() {
    let dir = outside_repo();
    init(dir.path());
    write(dir.path(), "a.txt", "1");
    commit_all(dir.path(), "one", T0);
    fs::write(
        dir.path().join(".git/refs/heads/main"),
        "0123456789abcdef0123456789abcdef01234567\n",
    )
    .unwrap();
    let repo = Repo::discover(dir.path()).expect("the repository still opens");
    assert_eq!(repo.head(), None);
    assert_eq!(repo.branch().as_deref(), Some("main"));
    for backend in [Backend::Libgit2, Backend::Cli, Backend::Auto] {
        let err = repo
            .history_with(&all_time(10), backend)
            .expect_err("a HEAD pointing at nothing is an error, not an empty history");
        let message = err.to_string();
        assert!(message.contains("HEAD"), "{message}");
        assert!(
            message.contains(&repo.root().display().to_string()),
            "{message}"
        );
    }
}

// --- speed --------------------------------------------------------------------------

fn time<T>(runs: usize, mut f: impl FnMut() -> T) -> (f64, T) {
    let mut best = f64::MAX;
    let mut last = None;
    for _ in 0..runs {
        let start = Instant::now();
        let value = f();
        best = best.min(start.elapsed().as_secs_f64() * 1000.0);
        last = Some(value);
    }
    (best, last.unwrap())
}

/// Measures history and status through both backends on a generated repository of
/// 1200 commits over ~5000 files (`CC_SEARCH_BENCH_FILES` asks for another size). Run
/// with `cargo test -p cc-search --test it -- git:: --ignored --nocapture`.
#[test]
#[ignore = "measurement; prints timings"]
fn measure_backends_on_a_generated_repository() {
    let files: u64 = std::env::var("CC_SEARCH_BENCH_FILES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5000);
    let dir = outside_repo();
    let start = Instant::now();
    // Three quarters of the files in the first commit, the rest added over time.
    let generated = generate(1200, files * 6 / 5, 42, |i, _| T0 + (i as i64) * 1_800);
    import(dir.path(), &generated);
    let files = git(dir.path(), &["ls-files"]).lines().count();
    println!(
        "generated 1200 commits over {files} files in {:.1} s",
        start.elapsed().as_secs_f64()
    );
    let repo = Repo::discover(dir.path()).unwrap();
    let window = HistoryWindow {
        since: 0,
        max_commits: 1000,
    };
    let runs = 10;

    let (library_ms, library) = time(runs, || {
        repo.history_with(&window, Backend::Libgit2).unwrap()
    });
    let (cli_ms, cli) = time(runs, || repo.history_with(&window, Backend::Cli).unwrap());
    assert_eq!(cli, library);
    let (raw_ms, raw) = time(runs, || {
        let mut command = git_command(dir.path());
        command.args(["log", "--name-only", "-z", "--format=%H %ct", "-n", "1000"]);
        run(command).len()
    });
    let (diff_ms, diffed) = time(3, || libgit2_diff_walk(dir.path(), 1000));
    println!(
        "history of 1000 commits ({} files touched): libgit2 tree walk {library_ms:.1} ms, \
         git log backend {cli_ms:.1} ms, raw `git log --name-only -z` {raw_ms:.1} ms \
         ({raw} bytes), libgit2 diff_tree_to_tree per commit {diff_ms:.1} ms ({diffed} deltas)",
        library.files.len()
    );

    write(dir.path(), "src/m01/s01/f41.rs", "dirty");
    write(dir.path(), "new/untracked.rs", "new");
    let (status_lib_ms, status_lib) = time(runs, || repo.status_with(Backend::Libgit2).unwrap());
    let (status_cli_ms, status_cli) = time(runs, || repo.status_with(Backend::Cli).unwrap());
    assert_eq!(status_cli, status_lib);
    println!(
        "status on {files} files: libgit2 {status_lib_ms:.1} ms, git status backend {status_cli_ms:.1} ms"
    );
}

/// A history walk with libgit2's own diff machinery, for comparison.
fn libgit2_diff_walk(dir: &Path, max: usize) -> usize {
    let repo = git2::Repository::open(dir).unwrap();
    let mut walk = repo.revwalk().unwrap();
    walk.set_sorting(git2::Sort::TIME).unwrap();
    walk.push_head().unwrap();
    let mut options = git2::DiffOptions::new();
    options.skip_binary_check(true);
    let mut deltas = 0;
    for oid in walk.take(max) {
        let commit = repo.find_commit(oid.unwrap()).unwrap();
        if commit.parent_count() > 1 {
            continue;
        }
        let tree = commit.tree().unwrap();
        let parent = commit.parents().next().map(|p| p.tree().unwrap());
        let diff = repo
            .diff_tree_to_tree(parent.as_ref(), Some(&tree), Some(&mut options))
            .unwrap();
        deltas += diff.deltas().len();
    }
    deltas
}
