//! The advisory lock of docs and notes index runs: a file holding
//! `{"pid":…,"hostname":"…","timestamp":…}`.
//!
//! A second indexer waits for it (up to a limit, then fails saying who holds it). A lock
//! whose timestamp is older than [`STALE_AFTER`], or held by a process of this host that
//! no longer exists, is broken. While a lock is held a heartbeat thread rewrites its
//! timestamp every [`HEARTBEAT`], so a long run (embedding a large documentation set)
//! keeps its lock and only a lock nobody refreshes goes stale.
//!
//! Every change of the lock file — taking it, breaking a stale one, refreshing the
//! timestamp, releasing it — happens while holding an OS file lock on a companion file
//! (`<lock>.guard`, never deleted). That makes "look at the holder, judge it stale,
//! replace it" one step: two indexers that find the same stale lock cannot both take it,
//! and a release or refresh never touches a lock another process has taken meanwhile.
//! The guard is held for a few file operations only; the OS releases it if its holder
//! dies. The lock file's content is always written to a temporary file and renamed into
//! place, so it is never seen half-written.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, mpsc};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// Age after which a lock is broken whoever holds it.
pub const STALE_AFTER: Duration = Duration::from_secs(5 * 60);

/// How often a held lock's timestamp is rewritten: well within [`STALE_AFTER`].
pub const HEARTBEAT: Duration = Duration::from_secs(30);

/// How often a waiting indexer looks at the lock again.
const POLL: Duration = Duration::from_millis(50);

/// What the lock file holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LockInfo {
    /// The holder's process id.
    pub pid: u32,
    /// The holder's host name.
    pub hostname: String,
    /// When it was taken or last refreshed, in Unix seconds.
    pub timestamp: i64,
}

/// How [`AdvisoryLock::acquire_with`] waits, judges and keeps a lock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LockOptions {
    /// How long to wait for another holder.
    pub wait: Duration,
    /// A lock whose timestamp is older than this is broken ([`STALE_AFTER`]).
    pub stale_after: Duration,
    /// How often the held lock's timestamp is refreshed ([`HEARTBEAT`]); `None`: never.
    pub heartbeat: Option<Duration>,
}

impl LockOptions {
    /// Wait at most `wait`; the default staleness and heartbeat.
    pub fn new(wait: Duration) -> LockOptions {
        LockOptions {
            wait,
            stale_after: STALE_AFTER,
            heartbeat: Some(HEARTBEAT),
        }
    }
}

/// A held lock; released (the file removed) when dropped.
#[derive(Debug)]
pub struct AdvisoryLock {
    path: PathBuf,
    /// What the lock file holds while it is ours (the heartbeat updates it).
    current: Arc<Mutex<LockInfo>>,
    /// Dropping the sender stops the heartbeat thread.
    heartbeat: Option<(mpsc::Sender<()>, JoinHandle<()>)>,
}

/// This machine's host name (empty when it cannot be read).
pub fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .or_else(|_| std::fs::read_to_string("/etc/hostname"))
        .map(|s| s.trim().to_string())
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .unwrap_or_default()
}

/// Whether process `pid` of this host is gone. Only Linux can tell (`/proc`); elsewhere
/// a process is assumed alive and its lock breaks by age.
fn process_is_gone(pid: u32) -> bool {
    let proc_dir = Path::new("/proc");
    proc_dir.join("self").exists() && !proc_dir.join(pid.to_string()).exists()
}

/// The companion file whose OS lock serialises every change of the lock file at `path`.
fn guard_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".guard");
    path.with_file_name(name)
}

/// Take the guard of the lock at `path` (blocking; held until the file is dropped).
fn take_guard(path: &Path) -> Result<File> {
    let guard = guard_path(path);
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&guard)
        .map_err(|e| Error::io(&guard, e))?;
    file.lock().map_err(|e| Error::io(&guard, e))?;
    Ok(file)
}

/// Write `info` to `path` through a temporary file renamed into place.
fn write_atomically(path: &Path, info: &LockInfo) -> Result<()> {
    let text = serde_json::to_string(info).map_err(|e| Error::Internal(e.to_string()))?;
    crate::store::write_atomically(path, text.as_bytes(), None)
}

/// The lock file as found: its text, the holder when the text parses, and its age.
struct Found {
    text: String,
    holder: Option<LockInfo>,
    age: Duration,
}

fn read_lock(path: &Path) -> Result<Option<Found>> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Error::io(path, e)),
    };
    let age = std::fs::metadata(path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.elapsed().ok())
        .unwrap_or_default();
    Ok(Some(Found {
        holder: serde_json::from_str(&text).ok(),
        text,
        age,
    }))
}

fn describe(d: Duration) -> String {
    match d.as_secs() {
        s if s >= 60 && s % 60 == 0 => format!("{} minutes", s / 60),
        s => format!("{s} s"),
    }
}

/// Why the lock `found` may be broken, or `None` while its holder keeps it.
fn why_stale(found: &Found, stale_after: Duration, host: &str) -> Option<String> {
    let limit = describe(stale_after);
    match &found.holder {
        Some(h) if crate::time::unix_now() - h.timestamp > stale_after.as_secs() as i64 => {
            Some(format!("older than {limit}"))
        }
        Some(h) if h.hostname == host && process_is_gone(h.pid) => {
            Some(format!("process {} no longer exists", h.pid))
        }
        // Unreadable or half-written by another program: judged by the file's age.
        None if found.age > stale_after => Some(format!("unreadable and older than {limit}")),
        _ => None,
    }
}

/// Rewrite the timestamp of the lock at `path` if it still holds `current`. Returns
/// whether it did (false: the lock was broken and is no longer ours).
fn refresh(path: &Path, current: &Mutex<LockInfo>) -> Result<bool> {
    let _guard = take_guard(path)?;
    let mut info = current.lock().unwrap_or_else(|e| e.into_inner());
    let held = read_lock(path)?.and_then(|f| f.holder);
    if held.as_ref() != Some(&*info) {
        return Ok(false);
    }
    let next = LockInfo {
        timestamp: crate::time::unix_now(),
        ..info.clone()
    };
    write_atomically(path, &next)?;
    *info = next;
    Ok(true)
}

/// Refresh the lock every `every` until the sender is dropped or the lock is lost.
fn start_heartbeat(
    path: &Path,
    current: &Arc<Mutex<LockInfo>>,
    every: Duration,
) -> Option<(mpsc::Sender<()>, JoinHandle<()>)> {
    let (stop, stopped) = mpsc::channel::<()>();
    let (held, current) = (path.to_path_buf(), Arc::clone(current));
    let thread = std::thread::Builder::new()
        .name("cc-search-lock-heartbeat".into())
        .spawn(move || {
            while let Err(mpsc::RecvTimeoutError::Timeout) = stopped.recv_timeout(every) {
                match refresh(&held, &current) {
                    Ok(true) => {}
                    Ok(false) => {
                        tracing::warn!("{}: the lock was broken by another run", held.display());
                        return;
                    }
                    Err(e) => tracing::warn!("refreshing {}: {e}", held.display()),
                }
            }
        });
    match thread {
        Ok(thread) => Some((stop, thread)),
        Err(e) => {
            tracing::warn!("{}: no heartbeat thread: {e}", path.display());
            None
        }
    }
}

impl AdvisoryLock {
    /// Take the lock at `path`, waiting at most `wait` for its holder, with the default
    /// staleness ([`STALE_AFTER`]) and heartbeat ([`HEARTBEAT`]). `warnings` says when
    /// a stale lock was broken.
    pub fn acquire(path: &Path, wait: Duration, warnings: &mut Vec<String>) -> Result<Self> {
        Self::acquire_with(path, LockOptions::new(wait), warnings)
    }

    /// Take the lock at `path` as `options` say.
    pub fn acquire_with(
        path: &Path,
        options: LockOptions,
        warnings: &mut Vec<String>,
    ) -> Result<Self> {
        if let Some(dir) = path.parent() {
            crate::store::create_dir_all(dir)?;
        }
        let host = hostname();
        let started = Instant::now();
        loop {
            let holder = {
                let _guard = take_guard(path)?;
                let found = read_lock(path)?;
                let broken = match &found {
                    None => None,
                    Some(found) => why_stale(found, options.stale_after, &host)
                        .map(|why| (why, found.text.clone())),
                };
                if found.is_none() || broken.is_some() {
                    let info = LockInfo {
                        pid: std::process::id(),
                        hostname: host.clone(),
                        timestamp: crate::time::unix_now(),
                    };
                    // Replaces a stale lock in the same step: nobody else can judge or
                    // take it while we hold the guard.
                    write_atomically(path, &info)?;
                    if let Some((why, held)) = broken {
                        warnings.push(format!(
                            "broke the stale lock {} ({why}): {held}",
                            path.display()
                        ));
                    }
                    let current = Arc::new(Mutex::new(info));
                    let heartbeat = options
                        .heartbeat
                        .and_then(|every| start_heartbeat(path, &current, every));
                    return Ok(AdvisoryLock {
                        path: path.to_path_buf(),
                        current,
                        heartbeat,
                    });
                }
                found.and_then(|f| f.holder)
            };
            if started.elapsed() >= options.wait {
                let who = match holder {
                    Some(h) => format!(
                        "process {} on {} since {}",
                        h.pid,
                        if h.hostname.is_empty() {
                            "?"
                        } else {
                            &h.hostname
                        },
                        h.timestamp
                    ),
                    None => "another process".to_string(),
                };
                return Err(Error::io(
                    path,
                    std::io::Error::new(
                        std::io::ErrorKind::WouldBlock,
                        format!(
                            "another index run holds the lock ({who}); waited {:.1} s — try \
                             again when it finishes (a lock not refreshed for {} is broken)",
                            options.wait.as_secs_f64(),
                            describe(options.stale_after)
                        ),
                    ),
                ));
            }
            std::thread::sleep(POLL);
        }
    }

    /// What the lock file holds now (the timestamp moves with each heartbeat).
    pub fn info(&self) -> LockInfo {
        self.current
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
}

impl Drop for AdvisoryLock {
    fn drop(&mut self) {
        if let Some((stop, thread)) = self.heartbeat.take() {
            drop(stop);
            let _ = thread.join();
        }
        // Only our own lock: a lock broken as stale and taken by another run stays.
        let Ok(_guard) = take_guard(&self.path) else {
            return;
        };
        let ours = read_lock(&self.path)
            .ok()
            .flatten()
            .and_then(|f| f.holder)
            .is_some_and(|held| held == self.info());
        if ours {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

    fn write(path: &Path, info: &LockInfo) {
        std::fs::write(path, serde_json::to_string(info).unwrap()).unwrap();
    }

    fn held(path: &Path) -> LockInfo {
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    #[test]
    fn a_lock_is_exclusive_and_released_on_drop() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.lock");
        let mut w = Vec::new();
        let lock = AdvisoryLock::acquire(&path, Duration::ZERO, &mut w).unwrap();
        assert_eq!(held(&path).pid, std::process::id());
        assert_eq!(held(&path), lock.info());
        let err = AdvisoryLock::acquire(&path, Duration::from_millis(120), &mut w).unwrap_err();
        assert!(
            err.to_string().contains("another index run holds the lock"),
            "{err}"
        );
        assert!(
            err.to_string()
                .contains(&format!("process {}", std::process::id()))
        );
        drop(lock);
        assert!(!path.exists());
        assert!(w.is_empty());
        // Only the guard stays beside it: no temporary files.
        let names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["x.lock.guard"]);
    }

    #[test]
    fn stale_and_orphaned_locks_are_broken() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.lock");
        // Old, whoever holds it.
        write(
            &path,
            &LockInfo {
                pid: std::process::id(),
                hostname: "elsewhere".into(),
                timestamp: crate::time::unix_now() - 301,
            },
        );
        let mut w = Vec::new();
        drop(AdvisoryLock::acquire(&path, Duration::ZERO, &mut w).unwrap());
        assert!(w[0].contains("older than 5 minutes"), "{w:?}");
        // Fresh, but its process is gone (pid beyond pid_max).
        write(
            &path,
            &LockInfo {
                pid: 4_194_305,
                hostname: hostname(),
                timestamp: crate::time::unix_now(),
            },
        );
        let mut w = Vec::new();
        drop(AdvisoryLock::acquire(&path, Duration::ZERO, &mut w).unwrap());
        assert!(w[0].contains("no longer exists"), "{w:?}");
        // Fresh and alive on another host: not broken.
        write(
            &path,
            &LockInfo {
                pid: 1,
                hostname: "another-host".into(),
                timestamp: crate::time::unix_now(),
            },
        );
        assert!(AdvisoryLock::acquire(&path, Duration::from_millis(60), &mut Vec::new()).is_err());
    }

    /// A run that holds its lock longer than the staleness limit keeps it while its
    /// heartbeat refreshes the timestamp; without the heartbeat the same lock is broken.
    #[test]
    fn a_held_lock_is_refreshed_and_not_broken_while_its_run_lasts() {
        let dir = tempfile::tempdir().unwrap();
        let options = |heartbeat| LockOptions {
            wait: Duration::ZERO,
            stale_after: Duration::from_secs(2),
            heartbeat,
        };
        let hold = |name: &str, heartbeat| {
            let path = dir.path().join(name);
            let lock =
                AdvisoryLock::acquire_with(&path, options(heartbeat), &mut Vec::new()).unwrap();
            let taken = lock.info().timestamp;
            std::thread::sleep(Duration::from_millis(3_300));
            let mut w = Vec::new();
            let second = AdvisoryLock::acquire_with(&path, options(None), &mut w);
            (lock, taken, second.is_ok(), w)
        };
        std::thread::scope(|s| {
            let beating = s.spawn(|| hold("beating.lock", Some(Duration::from_millis(200))));
            let silent = s.spawn(|| hold("silent.lock", None));
            let (lock, taken, broken, w) = beating.join().unwrap();
            assert!(!broken, "a refreshed lock is not stale: {w:?}");
            let now = held(&dir.path().join("beating.lock"));
            assert!(now.timestamp >= taken + 2, "{taken} -> {now:?}");
            assert_eq!(now, lock.info());
            drop(lock);
            assert!(!dir.path().join("beating.lock").exists());
            let (_lock, _, broken, w) = silent.join().unwrap();
            assert!(broken, "without a heartbeat the lock goes stale");
            assert!(w[0].contains("older than 2 s"), "{w:?}");
        });
    }

    /// Many indexers finding the same stale lock at once: exactly one breaks it, and
    /// the lock is never held twice.
    #[test]
    fn a_stale_lock_is_broken_once_and_never_held_twice() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.lock");
        let holders = AtomicUsize::new(0);
        let overlap = AtomicBool::new(false);
        for round in 0..40 {
            write(
                &path,
                &LockInfo {
                    pid: 1,
                    hostname: "elsewhere".into(),
                    timestamp: crate::time::unix_now() - 1_000 - round,
                },
            );
            let barrier = std::sync::Barrier::new(6);
            let breaks = AtomicUsize::new(0);
            std::thread::scope(|s| {
                for _ in 0..6 {
                    s.spawn(|| {
                        barrier.wait();
                        let mut w = Vec::new();
                        let options = LockOptions {
                            heartbeat: None,
                            ..LockOptions::new(Duration::from_secs(30))
                        };
                        let lock = AdvisoryLock::acquire_with(&path, options, &mut w).unwrap();
                        if holders.fetch_add(1, Ordering::SeqCst) != 0 {
                            overlap.store(true, Ordering::SeqCst);
                        }
                        std::thread::sleep(Duration::from_millis(1));
                        holders.fetch_sub(1, Ordering::SeqCst);
                        breaks.fetch_add(w.len(), Ordering::SeqCst);
                        drop(lock);
                    });
                }
            });
            assert!(
                !overlap.load(Ordering::SeqCst),
                "two holders in round {round}"
            );
            assert_eq!(breaks.load(Ordering::SeqCst), 1, "round {round}");
            assert!(!path.exists());
        }
    }
}
