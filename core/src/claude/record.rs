//! What the installers remember of a file they edit, kept in the data root and never
//! beside the file (where a backup shows up in `git status` and in `@` results):
//! `<data root>/backups/<file name>-<16 hex digits of the SHA-256 of its path>/`, one
//! directory per file, private to the user (0700, files 0600), holding
//!
//! - `record.json` ([`Record`]): the file's content before cc-search's first install into
//!   it (or that it did not exist), the directories that install created, and the SHA-256
//!   of what cc-search wrote last: what an uninstall needs to put the file back exactly;
//! - `<file name>`: the backup, the file as it was before cc-search's latest write,
//!   replaced on each write (only for the files whose installer keeps one).

use std::fs;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// The directory of the data root that holds the installers' records and backups.
pub const BACKUPS_DIR: &str = "backups";

const RECORD: &str = "record.json";

/// Where the record (and the backup) of one file live.
#[derive(Debug, Clone)]
pub(crate) struct Memory {
    dir: PathBuf,
    backup_name: String,
    keeps_backup: bool,
}

/// What an install remembers of the file it edited.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Record {
    /// The file (for people who look).
    pub(crate) file: PathBuf,
    /// Its content before cc-search's first install; `None`: it did not exist.
    pub(crate) original: Option<String>,
    /// The directories that install created for it, deepest first.
    pub(crate) created_dirs: Vec<PathBuf>,
    /// The SHA-256 (hex) of the content cc-search wrote last.
    pub(crate) written: String,
}

impl Record {
    /// A record of `file` as it is now (`current`: its bytes, `None` when it does not
    /// exist), before an install creates `created_dirs`. `None` when the content is not
    /// text (it cannot be remembered in JSON; the uninstall then removes only cc-search's
    /// entries).
    pub(crate) fn before_install(
        file: &Path,
        current: Option<&[u8]>,
        created_dirs: Vec<PathBuf>,
    ) -> Option<Record> {
        let original = match current {
            Some(bytes) => Some(String::from_utf8(bytes.to_vec()).ok()?),
            None => None,
        };
        Some(Record {
            file: file.to_path_buf(),
            original,
            created_dirs,
            written: String::new(),
        })
    }

    /// Whether `bytes` are what cc-search wrote last.
    pub(crate) fn wrote(&self, bytes: &[u8]) -> bool {
        crate::hash::sha256_hex(bytes) == self.written
    }
}

impl Memory {
    /// The memory of `target` (the file written, links followed) in the data root `home`;
    /// `keeps_backup`: whether [`Memory::back_up`] keeps a backup.
    pub(crate) fn new(home: &Path, target: &Path, keeps_backup: bool) -> Memory {
        let name = target
            .file_name()
            .map(|n| n.to_string_lossy().trim_start_matches('.').to_string())
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| "settings.json".to_string());
        let key = crate::hash::sha256_hex(target.as_os_str().as_encoded_bytes());
        Memory {
            dir: home
                .join(BACKUPS_DIR)
                .join(format!("{name}-{}", &key[..16])),
            backup_name: name,
            keeps_backup,
        }
    }

    /// The record, if there is one. A record that cannot be read or parsed counts as none:
    /// the uninstall then removes only cc-search's entries.
    pub(crate) fn record(&self) -> Option<Record> {
        let bytes = fs::read(self.dir.join(RECORD)).ok()?;
        serde_json::from_slice(&bytes).ok()
    }

    /// Save `record`, replacing the previous one.
    pub(crate) fn save(&self, record: &Record) -> Result<()> {
        let bytes = serde_json::to_vec_pretty(record)
            .map_err(|e| Error::Internal(format!("cannot serialise an install record: {e}")))?;
        self.write(RECORD, &bytes).map(|_| ())
    }

    /// Forget the record (the file is uninstalled); the directory goes when nothing else
    /// is in it.
    pub(crate) fn forget(&self) -> Result<()> {
        let path = self.dir.join(RECORD);
        match fs::remove_file(&path) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(Error::io(&path, e)),
        }
        let _ = fs::remove_dir(&self.dir);
        Ok(())
    }

    /// Keep `previous` as the backup, replacing the one before: its path, or `None` when
    /// this file's installer keeps no backup.
    pub(crate) fn back_up(&self, previous: &[u8]) -> Result<Option<PathBuf>> {
        if !self.keeps_backup {
            return Ok(None);
        }
        self.write(&self.backup_name, previous).map(Some)
    }

    /// Write `name` in the directory atomically, private to the user.
    fn write(&self, name: &str, bytes: &[u8]) -> Result<PathBuf> {
        create_private_dir(&self.dir)?;
        let path = self.dir.join(name);
        crate::store::write_atomically(&path, bytes, Some(0o600))?;
        crate::store::sync_dir(&self.dir);
        Ok(path)
    }
}

/// Create `dir` (private: 0700) and its parents.
fn create_private_dir(dir: &Path) -> Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    if let Some(parent) = dir.parent() {
        crate::store::create_dir_all(parent)?;
    }
    // Private to the user where permissions are Unix modes; elsewhere the directory
    // inherits its parent's access rules.
    #[cfg(unix)]
    let builder = {
        use std::os::unix::fs::DirBuilderExt;
        let mut builder = fs::DirBuilder::new();
        builder.mode(0o700);
        builder
    };
    #[cfg(not(unix))]
    let builder = fs::DirBuilder::new();
    match builder.create(dir) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && dir.is_dir() => Ok(()),
        Err(e) => Err(Error::io(dir, e)),
    }
}

/// The directories that do not exist yet between `file` and the nearest existing
/// ancestor, deepest first: what writing `file` creates.
pub(crate) fn missing_dirs(file: &Path) -> Vec<PathBuf> {
    let mut missing = Vec::new();
    let mut dir = file.parent();
    while let Some(d) = dir.filter(|d| !d.as_os_str().is_empty()) {
        if fs::symlink_metadata(d).is_ok() {
            break;
        }
        missing.push(d.to_path_buf());
        dir = d.parent();
    }
    missing
}

/// Remove the directories of `dirs` (deepest first) that are empty; the ones removed.
pub(crate) fn remove_empty_dirs(dirs: &[PathBuf]) -> Vec<PathBuf> {
    let mut removed = Vec::new();
    for dir in dirs {
        if fs::remove_dir(dir).is_err() {
            break;
        }
        removed.push(dir.clone());
    }
    removed
}
