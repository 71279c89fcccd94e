//! The advisory lock of docs and notes index runs: a file holding
//! `{"pid":…,"hostname":"…","timestamp":…}`, created exclusively.
//!
//! A second indexer waits for it (up to a limit, then fails saying who holds it). A lock
//! older than [`STALE_AFTER`], or held by a process of this host that no longer exists,
//! is broken: renamed aside, checked to be the lock that was judged stale (not one a third
//! process took meanwhile, which is put back), then removed.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// Age after which a lock is broken whoever holds it.
pub const STALE_AFTER: Duration = Duration::from_secs(5 * 60);

/// How often a waiting indexer looks at the lock again.
const POLL: Duration = Duration::from_millis(50);

/// What the lock file holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LockInfo {
    /// The holder's process id.
    pub pid: u32,
    /// The holder's host name.
    pub hostname: String,
    /// When it was taken, in Unix seconds.
    pub timestamp: i64,
}

/// A held lock; released (the file removed) when dropped.
#[derive(Debug)]
pub struct AdvisoryLock {
    path: PathBuf,
    info: LockInfo,
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

impl AdvisoryLock {
    /// Take the lock at `path`, waiting at most `wait` for its holder. `warnings` says
    /// when a stale lock was broken.
    pub fn acquire(path: &Path, wait: Duration, warnings: &mut Vec<String>) -> Result<Self> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        }
        let info = LockInfo {
            pid: std::process::id(),
            hostname: hostname(),
            timestamp: crate::git::unix_now(),
        };
        let text = serde_json::to_string(&info).map_err(|e| Error::Internal(e.to_string()))?;
        let started = Instant::now();
        loop {
            match std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(path)
            {
                Ok(mut file) => {
                    let written = file
                        .write_all(text.as_bytes())
                        .and_then(|()| file.sync_all());
                    if let Err(e) = written {
                        let _ = std::fs::remove_file(path);
                        return Err(Error::io(path, e));
                    }
                    return Ok(AdvisoryLock {
                        path: path.to_path_buf(),
                        info,
                    });
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(Error::io(path, e)),
            }
            let held = std::fs::read_to_string(path).ok();
            let holder: Option<LockInfo> =
                held.as_deref().and_then(|t| serde_json::from_str(t).ok());
            let age = std::fs::metadata(path)
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| t.elapsed().ok())
                .unwrap_or_default();
            let why_stale = match &holder {
                Some(h) if crate::git::unix_now() - h.timestamp > STALE_AFTER.as_secs() as i64 => {
                    Some("older than 5 minutes".to_string())
                }
                Some(h) if h.hostname == info.hostname && process_is_gone(h.pid) => {
                    Some(format!("process {} no longer exists", h.pid))
                }
                // Unreadable or half-written: judged by the file's age.
                None if age > STALE_AFTER => Some("unreadable and older than 5 minutes".into()),
                _ => None,
            };
            if let (Some(why), Some(held)) = (why_stale, held.as_deref())
                && break_lock(path, held)?
            {
                warnings.push(format!(
                    "broke the stale lock {} ({why}): {held}",
                    path.display()
                ));
                continue;
            }
            if started.elapsed() >= wait {
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
                             again when it finishes (a lock older than 5 minutes is broken)",
                            wait.as_secs_f64()
                        ),
                    ),
                ));
            }
            std::thread::sleep(POLL);
        }
    }

    /// What this lock wrote.
    pub fn info(&self) -> &LockInfo {
        &self.info
    }
}

/// Remove the lock at `path` if it still holds `held`: renamed aside first, so that a
/// lock another process has just taken in its place is never deleted (it is put back).
/// Returns whether the stale lock is gone.
fn break_lock(path: &Path, held: &str) -> Result<bool> {
    let aside = path.with_extension(format!("broken-{}", std::process::id()));
    match std::fs::rename(path, &aside) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(true),
        Err(e) => return Err(Error::io(path, e)),
    }
    let moved = std::fs::read_to_string(&aside).unwrap_or_default();
    if moved == held {
        let _ = std::fs::remove_file(&aside);
        Ok(true)
    } else {
        // Someone took the lock between our read and the rename: give it back.
        if std::fs::hard_link(&aside, path).is_ok() {
            let _ = std::fs::remove_file(&aside);
        }
        Ok(false)
    }
}

impl Drop for AdvisoryLock {
    fn drop(&mut self) {
        // Only our own lock: a lock broken as stale and taken by another process stays.
        let ours = std::fs::read_to_string(&self.path)
            .ok()
            .and_then(|t| serde_json::from_str::<LockInfo>(&t).ok())
            .is_some_and(|held| held == self.info);
        if ours {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lock_is_exclusive_and_released_on_drop() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.lock");
        let mut w = Vec::new();
        let lock = AdvisoryLock::acquire(&path, Duration::ZERO, &mut w).unwrap();
        let held: LockInfo =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(held.pid, std::process::id());
        assert_eq!(&held, lock.info());
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
    }

    #[test]
    fn stale_and_orphaned_locks_are_broken() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.lock");
        let write =
            |info: &LockInfo| std::fs::write(&path, serde_json::to_string(info).unwrap()).unwrap();
        // Old, whoever holds it.
        write(&LockInfo {
            pid: std::process::id(),
            hostname: "elsewhere".into(),
            timestamp: crate::git::unix_now() - 301,
        });
        let mut w = Vec::new();
        drop(AdvisoryLock::acquire(&path, Duration::ZERO, &mut w).unwrap());
        assert!(w[0].contains("older than 5 minutes"), "{w:?}");
        // Fresh, but its process is gone (pid beyond pid_max).
        write(&LockInfo {
            pid: 4_194_305,
            hostname: hostname(),
            timestamp: crate::git::unix_now(),
        });
        let mut w = Vec::new();
        drop(AdvisoryLock::acquire(&path, Duration::ZERO, &mut w).unwrap());
        assert!(w[0].contains("no longer exists"), "{w:?}");
        // Fresh and alive on another host: not broken.
        write(&LockInfo {
            pid: 1,
            hostname: "another-host".into(),
            timestamp: crate::git::unix_now(),
        });
        assert!(AdvisoryLock::acquire(&path, Duration::from_millis(60), &mut Vec::new()).is_err());
    }
}
