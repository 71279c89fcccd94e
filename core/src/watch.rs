//! Whether anything changed in a set of directories since the last look, without walking
//! them: what lets an index that is asked to refresh before every answer (the MCP server's
//! code tools) skip the walk when nothing moved.
//!
//! On Linux a [`DirWatch`] is an inotify instance with one watch per directory. The kernel
//! queues an event before the call that changed the file returns, and [`DirWatch::take`]
//! reads the queue without blocking, so a change made before `take` is always seen by it —
//! no background thread, no delay. Elsewhere [`DirWatch::new`] gives `None` and callers
//! refresh as they did without one.
//!
//! `CC_SEARCH_WATCH=0` turns watching off (every refresh walks): for a tree on a network
//! file system that other machines change, whose changes raise no events here.
//!
//! What a watch cannot see: changes below a directory it does not watch (an ignored one, a
//! symlink's target), and ignore rules kept outside the watched tree (the global excludes
//! file, a `.gitignore` above the root). Writes to files that were there are reported as
//! [`Seen::Edited`] with their paths (the caller may re-read just those); files created,
//! removed or renamed as [`Seen::Files`]; a directory that comes or goes, an ignore file
//! that changes (`.gitignore`, `.ignore`) and a full event queue as [`Seen::Dirs`], so the
//! caller walks again and watches what the walk found.

use std::any::Any;
use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;
use std::sync::Mutex;

/// What a [`DirWatch`] saw since the last [`DirWatch::take`], the most telling first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seen {
    /// Nothing changed.
    Nothing,
    /// Only files that were there already were written to (content or times): these.
    Edited(BTreeSet<PathBuf>),
    /// Files were created, removed or renamed: the directories must be listed again.
    Files,
    /// Directories came or went, an ignore file changed, or events may have been lost:
    /// which directories to watch must be found again.
    Dirs,
}

#[cfg(target_os = "linux")]
impl Seen {
    /// What `self` and then `later` saw, together.
    fn and(self, later: Seen) -> Seen {
        match (self, later) {
            (Seen::Dirs, _) | (_, Seen::Dirs) => Seen::Dirs,
            (Seen::Files, _) | (_, Seen::Files) => Seen::Files,
            (Seen::Edited(mut a), Seen::Edited(b)) => {
                a.extend(b);
                Seen::Edited(a)
            }
            (Seen::Edited(a), Seen::Nothing) | (Seen::Nothing, Seen::Edited(a)) => Seen::Edited(a),
            (Seen::Nothing, Seen::Nothing) => Seen::Nothing,
        }
    }
}

/// Files whose change can change which files a walk finds.
#[cfg(target_os = "linux")]
const IGNORE_FILES: &[&str] = &[".gitignore", ".ignore"];

/// A set of watched directories (see the module documentation).
#[derive(Debug)]
pub struct DirWatch {
    #[cfg(target_os = "linux")]
    inotify: inotify::Inotify,
    /// The directory of each watch.
    #[cfg(target_os = "linux")]
    watched: HashMap<inotify::WatchDescriptor, PathBuf>,
    /// What was seen while adding watches, reported by the next `take`.
    pending: Seen,
}

impl DirWatch {
    /// A watch of no directories yet; `None` where the platform has no way to watch, the
    /// process may not open one more, or `CC_SEARCH_WATCH=0` says not to (a tree on a
    /// network file system that other machines change: their changes raise no events).
    pub fn new() -> Option<DirWatch> {
        if std::env::var_os("CC_SEARCH_WATCH").is_some_and(|v| v == "0") {
            return None;
        }
        #[cfg(target_os = "linux")]
        {
            inotify::Inotify::init().ok().map(|inotify| DirWatch {
                inotify,
                watched: Default::default(),
                pending: Seen::Nothing,
            })
        }
        #[cfg(not(target_os = "linux"))]
        {
            None
        }
    }

    /// Watch each of `dirs` (directories already watched stay watched once). Returns how
    /// many were not watched before, or `None` when one could not be watched for a reason
    /// other than its being gone (the per-user watch limit, `fs.inotify.max_user_watches`):
    /// the watch then cannot vouch for the tree. A directory gone by now is reported as
    /// [`Seen::Dirs`] by the next [`DirWatch::take`].
    pub fn add(&mut self, dirs: &[PathBuf]) -> Option<usize> {
        #[cfg(target_os = "linux")]
        {
            use inotify::WatchMask;
            let mask = WatchMask::CREATE
                | WatchMask::DELETE
                | WatchMask::MODIFY
                | WatchMask::CLOSE_WRITE
                | WatchMask::ATTRIB
                | WatchMask::MOVED_FROM
                | WatchMask::MOVED_TO
                | WatchMask::DELETE_SELF
                | WatchMask::MOVE_SELF
                | WatchMask::ONLYDIR
                | WatchMask::DONT_FOLLOW
                | WatchMask::EXCL_UNLINK;
            let mut new = 0;
            for dir in dirs {
                match self.inotify.watches().add(dir, mask) {
                    Ok(wd) => {
                        if self.watched.insert(wd, dir.clone()).is_none() {
                            new += 1;
                        }
                    }
                    Err(e)
                        if matches!(
                            e.kind(),
                            std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
                        ) =>
                    {
                        self.pending = Seen::Dirs;
                    }
                    Err(_) => return None,
                }
            }
            Some(new)
        }
        #[cfg(not(target_os = "linux"))]
        {
            let _ = dirs;
            None
        }
    }

    /// What changed since the last call (or since the watch began), without blocking.
    pub fn take(&mut self) -> Seen {
        #[cfg_attr(not(target_os = "linux"), allow(unused_mut))]
        let mut seen = std::mem::replace(&mut self.pending, Seen::Nothing);
        #[cfg(target_os = "linux")]
        {
            use inotify::EventMask;
            let mut buffer = [0u8; 16 * 1024];
            loop {
                let events = match self.inotify.read_events(&mut buffer) {
                    Ok(events) => events,
                    Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
                    Err(_) => return Seen::Dirs,
                };
                let mut any = false;
                for event in events {
                    any = true;
                    let name = event.name.and_then(|name| name.to_str());
                    let now = if event.mask.intersects(
                        EventMask::Q_OVERFLOW
                            | EventMask::IGNORED
                            | EventMask::DELETE_SELF
                            | EventMask::MOVE_SELF,
                    ) || (event.mask.contains(EventMask::ISDIR)
                        && event.mask.intersects(
                            EventMask::CREATE
                                | EventMask::DELETE
                                | EventMask::MOVED_FROM
                                | EventMask::MOVED_TO,
                        ))
                        || name.is_some_and(|name| IGNORE_FILES.contains(&name))
                    {
                        Seen::Dirs
                    } else if !event.mask.contains(EventMask::ISDIR)
                        && !event.mask.intersects(
                            EventMask::CREATE
                                | EventMask::DELETE
                                | EventMask::MOVED_FROM
                                | EventMask::MOVED_TO,
                        )
                        && let (Some(name), Some(dir)) = (event.name, self.watched.get(&event.wd))
                    {
                        Seen::Edited(BTreeSet::from([dir.join(name)]))
                    } else {
                        Seen::Files
                    };
                    if event.mask.contains(EventMask::IGNORED) {
                        self.watched.remove(&event.wd);
                    }
                    seen = seen.and(now);
                }
                if !any {
                    break;
                }
            }
        }
        seen
    }
}

/// Where an index keeps its records of runs, one per scope (a repository, a project's
/// collection): [`crate::store::Database`] has one.
pub type Slot = Mutex<HashMap<String, Box<dyn Any + Send>>>;

/// What an index run of one scope answered, under the settings the run depends on besides
/// the files, with the watch of the directories it walked.
struct Fresh<T> {
    settings: String,
    watch: DirWatch,
    answer: T,
    /// Nothing can have changed unseen since the run: every directory it walked was
    /// watched before it began, and nothing was seen since.
    vouched: bool,
}

/// What [`look`] found.
#[derive(Debug, PartialEq, Eq)]
pub enum Look<T> {
    /// Nothing changed since the recorded run: its answer.
    Same(T),
    /// Only these files, there at the recorded run, were written to since (its answer
    /// beside them): the caller may bring just them up to date, and then [`vouch`].
    Edited(T, Vec<PathBuf>),
    /// Something else may have changed (or nothing was recorded): the caller walks, and
    /// [`record`]s.
    Walk,
}

/// What changed in `scope`'s tree since the run recorded with the same `settings`, as its
/// watch saw it.
pub fn look<T: Clone + 'static>(slot: &Slot, scope: &str, settings: &str) -> Look<T> {
    let Ok(mut slot) = slot.lock() else {
        return Look::Walk;
    };
    let Some(fresh) = slot
        .get_mut(scope)
        .and_then(|any| any.downcast_mut::<Fresh<T>>())
    else {
        return Look::Walk;
    };
    if fresh.settings != settings || !fresh.vouched {
        return Look::Walk;
    }
    match fresh.watch.take() {
        Seen::Nothing => Look::Same(fresh.answer.clone()),
        Seen::Edited(files) => {
            // Vouched again only once those files are indexed.
            fresh.vouched = false;
            Look::Edited(fresh.answer.clone(), files.into_iter().collect())
        }
        Seen::Files | Seen::Dirs => {
            fresh.vouched = false;
            Look::Walk
        }
    }
}

/// After [`Look::Edited`]: the edited files are indexed, and `answer` is the run's.
pub fn vouch<T: Send + 'static>(slot: &Slot, scope: &str, settings: &str, answer: T) {
    if let Ok(mut slot) = slot.lock()
        && let Some(fresh) = slot
            .get_mut(scope)
            .and_then(|any| any.downcast_mut::<Fresh<T>>())
        && fresh.settings == settings
    {
        fresh.answer = answer;
        fresh.vouched = true;
    }
}

/// Record a run's `answer` for `scope` and `settings`, and watch the directories it
/// walked. The record vouches for the tree from the next run on that adds no directory:
/// a change made while a directory was not yet watched may have been missed by the run
/// that first watched it.
pub fn record<T: Send + 'static>(
    slot: &Slot,
    scope: &str,
    settings: String,
    dirs: &[PathBuf],
    answer: T,
) {
    let Ok(mut slot) = slot.lock() else {
        return;
    };
    let earlier = slot
        .remove(scope)
        .and_then(|any| any.downcast::<Fresh<T>>().ok())
        .filter(|fresh| fresh.settings == settings)
        .map(|fresh| fresh.watch);
    let Some(mut watch) = earlier.or_else(DirWatch::new) else {
        return;
    };
    let Some(added) = watch.add(dirs) else {
        return;
    };
    slot.insert(
        scope.to_string(),
        Box::new(Fresh {
            settings,
            watch,
            answer,
            vouched: added == 0,
        }),
    );
}

/// Drop what `slot` recorded for `scope`: its next run walks.
pub fn forget(slot: &Slot, scope: &str) {
    if let Ok(mut slot) = slot.lock() {
        slot.remove(scope);
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn a_change_is_seen_by_the_next_look_and_only_once() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_path_buf();
        std::fs::create_dir(root.join("src")).unwrap();
        std::fs::write(root.join("src/a.rs"), "fn a() {}\n").unwrap();
        let mut watch = DirWatch::new().unwrap();
        assert_eq!(watch.add(&[root.clone(), root.join("src")]), Some(2));
        assert_eq!(watch.add(&[root.join("src")]), Some(0), "watched once");
        assert_eq!(watch.take(), Seen::Nothing);

        // Reading a file is not a change.
        std::fs::read_to_string(root.join("src/a.rs")).unwrap();
        assert_eq!(watch.take(), Seen::Nothing);

        std::fs::write(root.join("src/a.rs"), "fn b() {}\n").unwrap();
        std::fs::write(root.join("top.rs"), "fn c() {}\n").unwrap();
        assert_eq!(
            watch.take(),
            Seen::Files,
            "a new file: the directory is listed"
        );
        std::fs::write(root.join("src/a.rs"), "fn d() {}\n").unwrap();
        std::fs::write(root.join("top.rs"), "fn e() {}\n").unwrap();
        assert_eq!(
            watch.take(),
            Seen::Edited(BTreeSet::from([root.join("src/a.rs"), root.join("top.rs")])),
            "edits, seen at once, with their files"
        );
        assert_eq!(watch.take(), Seen::Nothing, "and only once");

        std::fs::rename(root.join("src/a.rs"), root.join("src/b.rs")).unwrap();
        assert_eq!(watch.take(), Seen::Files);
        std::fs::remove_file(root.join("src/b.rs")).unwrap();
        assert_eq!(watch.take(), Seen::Files);

        std::fs::create_dir(root.join("src/new")).unwrap();
        assert_eq!(
            watch.take(),
            Seen::Dirs,
            "a new directory must be watched too"
        );
        std::fs::write(root.join(".gitignore"), "src/new\n").unwrap();
        assert_eq!(watch.take(), Seen::Dirs, "ignore rules changed");
        std::fs::remove_dir(root.join("src/new")).unwrap();
        assert_eq!(watch.take(), Seen::Dirs);

        // A directory that went between the walk and the watch.
        assert_eq!(watch.add(&[root.join("gone")]), Some(0));
        assert_eq!(watch.take(), Seen::Dirs);
        assert_eq!(watch.take(), Seen::Nothing);
    }

    #[test]
    fn a_record_vouches_once_every_directory_was_watched_before_a_run() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_path_buf();
        let slot: Slot = Mutex::default();
        let dirs = vec![root.clone()];
        let look = |settings: &str| look::<u32>(&slot, "r", settings);
        assert_eq!(look("k"), Look::Walk, "nothing recorded");
        record(&slot, "r", "k".into(), &dirs, 1u32);
        assert_eq!(look("k"), Look::Walk, "first run: not yet");
        record(&slot, "r", "k".into(), &dirs, 2u32);
        assert_eq!(look("k"), Look::Same(2));
        assert_eq!(look("other settings"), Look::Walk);
        assert_eq!(super::look::<u32>(&slot, "another scope", "k"), Look::Walk);
        assert_eq!(look("k"), Look::Same(2));

        std::fs::write(root.join("a.py"), "x = 1\n").unwrap();
        assert_eq!(look("k"), Look::Walk, "a new file");
        assert_eq!(look("k"), Look::Walk, "still, until a run records again");
        record(&slot, "r", "k".into(), &dirs, 3u32);
        assert_eq!(look("k"), Look::Same(3));

        std::fs::write(root.join("a.py"), "x = 2\n").unwrap();
        assert_eq!(look("k"), Look::Edited(3, vec![root.join("a.py")]));
        assert_eq!(
            look("k"),
            Look::Walk,
            "not vouched until the edit is indexed"
        );
        record(&slot, "r", "k".into(), &dirs, 4u32);
        std::fs::write(root.join("a.py"), "x = 3\n").unwrap();
        assert_eq!(look("k"), Look::Edited(4, vec![root.join("a.py")]));
        vouch(&slot, "r", "k", 5u32);
        assert_eq!(look("k"), Look::Same(5));

        std::fs::create_dir(root.join("sub")).unwrap();
        assert_eq!(look("k"), Look::Walk);
        let dirs = vec![root.clone(), root.join("sub")];
        record(&slot, "r", "k".into(), &dirs, 6u32);
        assert_eq!(look("k"), Look::Walk, "a new directory: once more");
        record(&slot, "r", "k".into(), &dirs, 7u32);
        assert_eq!(look("k"), Look::Same(7));
        std::fs::write(root.join("sub/b.py"), "y = 2\n").unwrap();
        assert_eq!(look("k"), Look::Walk, "seen in the new directory");

        record(&slot, "r", "k".into(), &dirs, 8u32);
        forget(&slot, "r");
        assert_eq!(look("k"), Look::Walk);
    }
}
