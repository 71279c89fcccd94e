//! The path list of a root, as the picker's fuzzy scan reads it (`files_lists`).
//!
//! `paths` holds the root's paths (relative to it; absolute when outside it) in path
//! order, separated by NUL. `entry_index` holds, for each entry in the same order, its
//! character mask ([`char_mask`]) and boundary mask ([`boundary_mask`]), little-endian
//! u64s, the byte offset where it starts in `paths` (a little-endian u32), and what the
//! bound of its score reads of its file name ([`NameFacts`]): the scan skips a path that
//! lacks a character of the query without reading it, bounds what the rest can score
//! from the index alone (reading a path only where its first bytes begin the query), and
//! splits the list between threads by entry. An entry that is not UTF-8 is skipped, the
//! others are read.
//!
//! Each list is also written to a file of its own beside the database (a [`Snapshot`],
//! named in `files_lists.snapshot`), which a query maps into memory instead of reading
//! the two columns: SQLite hands a large blob over only as a copy, assembled from its
//! overflow pages into fresh memory, and at 100k files that copy cost a query more than
//! scoring the paths. The columns stay the truth: a snapshot that is missing, cut short
//! or not the one the row names is not read, and the columns are.

use std::borrow::Cow;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use super::rank::{NameFacts, boundary_mask, char_mask};

/// Bytes of one `entry_index` entry: two masks, an offset, [`NameFacts`].
const ENTRY: usize = 20 + NameFacts::BYTES;

/// Builds the two columns of a path list.
#[derive(Debug, Default)]
pub(crate) struct ListBuilder {
    paths: Vec<u8>,
    index: Vec<u8>,
    count: usize,
}

impl ListBuilder {
    /// Append a path (in path order). Lists are bounded by the file limits, far below
    /// 4 GiB; a path past that offset is left out.
    pub fn push(&mut self, path: &str) {
        self.push_bytes(path.as_bytes());
    }

    /// [`ListBuilder::push`] of bytes that may not be UTF-8 (an entry [`PathList::entry`]
    /// then skips, but whose place the index keeps).
    fn push_bytes(&mut self, path: &[u8]) {
        let start = self.paths.len() + usize::from(self.count > 0);
        let Ok(offset) = u32::try_from(start) else {
            return;
        };
        if self.count > 0 {
            self.paths.push(0);
        }
        self.paths.extend_from_slice(path);
        let text = String::from_utf8_lossy(path);
        self.index
            .extend_from_slice(&char_mask(&text).to_le_bytes());
        self.index
            .extend_from_slice(&boundary_mask(&text).to_le_bytes());
        self.index.extend_from_slice(&offset.to_le_bytes());
        self.index
            .extend_from_slice(&NameFacts::of(&text).to_bytes());
        self.count += 1;
    }

    /// `(paths, entry_index, count)`.
    pub fn finish(self) -> (Vec<u8>, Vec<u8>, usize) {
        (self.paths, self.index, self.count)
    }
}

/// A stored path list, read.
#[derive(Debug)]
pub(crate) struct PathList<'a> {
    text: &'a [u8],
    index: Cow<'a, [u8]>,
}

impl<'a> PathList<'a> {
    /// The list of stored columns, `count` entries; an index of another size (missing, or
    /// written by an older version) is rebuilt in memory. The index is not checked
    /// against the paths up front (that would read them all); [`PathList::entry`] returns
    /// only whole entries, so an index that does not fit loses entries, never makes any
    /// up.
    pub fn new(paths: &'a [u8], index: Option<&'a [u8]>, count: usize) -> PathList<'a> {
        let index = match index {
            Some(index) if Some(index.len()) == count.checked_mul(ENTRY) => Cow::Borrowed(index),
            _ => {
                let mut builder = ListBuilder::default();
                for entry in paths.split(|&b| b == 0).filter(|_| !paths.is_empty()) {
                    builder.push_bytes(entry);
                }
                Cow::Owned(builder.finish().1)
            }
        };
        PathList { text: paths, index }
    }

    /// How many entries it has.
    pub fn len(&self) -> usize {
        self.index.len() / ENTRY
    }

    /// The character mask of entry `i` (see [`char_mask`]), read without the entry;
    /// None past the end.
    pub fn mask(&self, i: usize) -> Option<u64> {
        self.u64_at(i * ENTRY)
    }

    /// The boundary mask of entry `i` (see [`boundary_mask`]); None past the end.
    pub fn boundaries(&self, i: usize) -> Option<u64> {
        self.u64_at(i * ENTRY + 8)
    }

    /// What the bound of entry `i`'s score reads of it (see [`NameFacts`]); None past
    /// the end.
    pub fn facts(&self, i: usize) -> Option<NameFacts> {
        NameFacts::from_bytes(self.index.get(i * ENTRY + 20..(i + 1) * ENTRY)?)
    }

    fn u64_at(&self, at: usize) -> Option<u64> {
        let bytes = self.index.get(at..at + 8)?;
        Some(u64::from_le_bytes(bytes.try_into().ok()?))
    }

    /// Entry `i`; None past the end, when the index does not point at a whole entry, or
    /// when it is not UTF-8.
    pub fn entry(&self, i: usize) -> Option<&'a str> {
        let start = offset_of(self.index.get(i * ENTRY..(i + 1) * ENTRY)?);
        let end = match self.index.get((i + 1) * ENTRY..(i + 2) * ENTRY) {
            Some(next) => offset_of(next).checked_sub(1)?,
            None => self.text.len(),
        };
        // A whole entry: a NUL (or the list's edge) on both sides.
        let bytes = self.text;
        let starts = start == 0 || bytes.get(start - 1) == Some(&0);
        let ends = end == bytes.len() || bytes.get(end) == Some(&0);
        if !(starts && ends) {
            return None;
        }
        std::str::from_utf8(bytes.get(start..end)?).ok()
    }
}

/// The directory of the snapshots of the file index at `db` (`files.db` →
/// `files-lists/` beside it).
pub(crate) fn snapshot_dir(db: &Path) -> PathBuf {
    db.with_file_name("files-lists")
}

/// First and last bytes of a snapshot file.
const MAGIC: &[u8; 8] = b"ccslist3";
/// Bytes before the paths: the magic, then the entry count and the lengths of the paths
/// and of the index (little-endian u64s).
const HEADER: usize = 32;

/// A path list written to its own file, mapped into memory to be read.
///
/// The file is [`MAGIC`], the entry count, the byte lengths of the paths and of the
/// index, the paths, the index, and [`MAGIC`] again. It is written once under a name
/// no other file had ([`Snapshot::write`]) and never changed after: a new list is a new
/// file, and the old one is removed ([`Snapshot::sweep`]). A reader that maps it keeps
/// its pages after the removal; one that comes later reads the row's columns.
pub(crate) struct Snapshot {
    map: memmap2::Mmap,
    paths_len: usize,
    count: usize,
}

impl Snapshot {
    /// Write the list (`count` entries of `paths` and `index`, see [`ListBuilder`]) to a
    /// new file in `dir` (created when missing); its name.
    pub fn write(dir: &Path, paths: &[u8], index: &[u8], count: usize) -> std::io::Result<String> {
        static WRITTEN: AtomicU64 = AtomicU64::new(0);
        std::fs::create_dir_all(dir)?;
        let name = format!(
            "{:x}-{:x}-{:x}.list",
            crate::time::unix_now_ns(),
            std::process::id(),
            WRITTEN.fetch_add(1, Ordering::Relaxed)
        );
        let mut file = std::io::BufWriter::new(
            std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(dir.join(&name))?,
        );
        file.write_all(MAGIC)?;
        for n in [count, paths.len(), index.len()] {
            file.write_all(&(n as u64).to_le_bytes())?;
        }
        file.write_all(paths)?;
        file.write_all(index)?;
        file.write_all(MAGIC)?;
        file.into_inner().map_err(|e| e.into_error())?;
        Ok(name)
    }

    /// The snapshot `name` in `dir`, when it is whole and holds `count` entries; None
    /// otherwise (missing, cut short, overwritten), and the caller reads the columns.
    pub fn open(dir: &Path, name: &str, count: usize) -> Option<Snapshot> {
        // A name is one file of `dir`, nothing else.
        if name.is_empty() || name.contains(['/', '\\']) || name.starts_with('.') {
            return None;
        }
        let file = std::fs::File::open(dir.join(name)).ok()?;
        // SAFETY: snapshots are written once and never changed or truncated in place
        // (a new list is a new file), so the mapped bytes stay what they were; the map
        // outlives a removal of the file. Everything read from it is checked first.
        let map = unsafe { memmap2::Mmap::map(&file) }.ok()?;
        let u64_at = |at: usize| -> Option<usize> {
            usize::try_from(u64::from_le_bytes(map.get(at..at + 8)?.try_into().ok()?)).ok()
        };
        let (stored, paths_len, index_len) = (u64_at(8)?, u64_at(16)?, u64_at(24)?);
        let whole = HEADER
            .checked_add(paths_len)?
            .checked_add(index_len)?
            .checked_add(MAGIC.len())?;
        let fits = map.len() == whole
            && map.starts_with(MAGIC)
            && map.ends_with(MAGIC)
            && stored == count
            && index_len == count.checked_mul(ENTRY)?;
        fits.then_some(Snapshot {
            map,
            paths_len,
            count,
        })
    }

    /// The list it holds.
    pub fn list(&self) -> PathList<'_> {
        let body = &self.map[HEADER..self.map.len() - MAGIC.len()];
        let (paths, index) = body.split_at(self.paths_len);
        PathList::new(paths, Some(index), self.count)
    }

    /// Remove every file of `dir` but the snapshots `keep` (what the rows name now).
    /// Best effort: what cannot be removed now is removed by a later sweep.
    pub fn sweep(dir: &Path, keep: &std::collections::HashSet<String>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            if !name.to_str().is_some_and(|name| keep.contains(name)) {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
}

/// The offset an entry of the index holds.
fn offset_of(entry: &[u8]) -> usize {
    let bytes: [u8; 4] = entry[16..20].try_into().unwrap_or([0; 4]);
    u32::from_le_bytes(bytes) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    type Read = (String, u64, u64, NameFacts);

    fn entries(list: &PathList<'_>) -> Vec<Read> {
        (0..list.len())
            .map(|i| {
                let entry = list.entry(i).unwrap().to_string();
                let (mask, boundaries) = (list.mask(i).unwrap(), list.boundaries(i).unwrap());
                (entry, mask, boundaries, list.facts(i).unwrap())
            })
            .collect()
    }

    #[test]
    fn built_lists_read_back_with_masks() {
        let paths = ["a/one.rs", "b/two", "café/x", "z"];
        let mut builder = ListBuilder::default();
        for p in paths {
            builder.push(p);
        }
        let (text, index, count) = builder.finish();
        assert_eq!(count, 4);
        assert_eq!(text, b"a/one.rs\0b/two\0caf\xc3\xa9/x\0z");
        let list = PathList::new(&text, Some(&index), count);
        let expected: Vec<Read> = paths
            .iter()
            .map(|p| {
                let facts = NameFacts::of(p);
                (p.to_string(), char_mask(p), boundary_mask(p), facts)
            })
            .collect();
        assert_eq!(entries(&list), expected);
        assert!(matches!(list.index, Cow::Borrowed(_)));
        assert!(list.entry(4).is_none() && list.mask(4).is_none());
        assert!(list.boundaries(4).is_none() && list.facts(4).is_none());
        // A missing index, or one of another size (an older version's entries, or
        // another count of entries, even whole ones), is rebuilt: same entries.
        let older = [0; 20 * 4];
        for index in [
            None,
            Some(&index[..13]),
            Some(&older[..]),
            Some(&index[..2 * ENTRY]),
        ] {
            let rebuilt = PathList::new(&text, index, count);
            assert!(matches!(rebuilt.index, Cow::Owned(_)));
            assert_eq!(entries(&rebuilt), expected);
        }
        // An index that does not fit the paths yields no made-up entries.
        let mut shifted = index.clone();
        shifted[ENTRY + 16] += 1; // entry 1 starts a byte late
        let list = PathList::new(&text, Some(&shifted), count);
        let got: Vec<Option<&str>> = (0..4).map(|i| list.entry(i)).collect();
        assert_eq!(got, [None, None, Some("café/x"), Some("z")]);
    }

    #[test]
    fn snapshots_read_back_only_when_whole() {
        let dir = tempfile::tempdir().unwrap();
        let mut builder = ListBuilder::default();
        for p in ["a/one.rs", "b/two"] {
            builder.push(p);
        }
        let (paths, index, count) = builder.finish();
        let name = Snapshot::write(dir.path(), &paths, &index, count).unwrap();
        let other = Snapshot::write(dir.path(), b"", b"", 0).unwrap();
        assert_ne!(name, other, "every snapshot has a name of its own");
        let read = Snapshot::open(dir.path(), &name, count).unwrap();
        let list = read.list();
        assert_eq!(entries(&list).len(), 2);
        assert_eq!(list.entry(1).unwrap(), "b/two");
        assert_eq!(
            Snapshot::open(dir.path(), &other, 0).unwrap().list().len(),
            0
        );
        // Another count than the row's, another file's name, a name outside the directory.
        assert!(Snapshot::open(dir.path(), &name, 3).is_none());
        assert!(Snapshot::open(dir.path(), "missing.list", count).is_none());
        assert!(Snapshot::open(dir.path(), &format!("../{name}"), count).is_none());
        // Cut short, or grown.
        let file = dir.path().join(&name);
        let whole = std::fs::read(&file).unwrap();
        std::fs::write(&file, &whole[..whole.len() - 1]).unwrap();
        assert!(Snapshot::open(dir.path(), &name, count).is_none());
        std::fs::write(&file, [&whole[..], b"\0"].concat()).unwrap();
        assert!(Snapshot::open(dir.path(), &name, count).is_none());
        std::fs::write(&file, &whole).unwrap();
        assert!(Snapshot::open(dir.path(), &name, count).is_some());
        // A sweep keeps what is named.
        std::fs::write(dir.path().join("stray"), b"").unwrap();
        Snapshot::sweep(dir.path(), &[name.clone()].into_iter().collect());
        let left: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert_eq!(left, [name]);
    }

    #[test]
    fn empty_lists_and_entries_that_are_not_utf8() {
        let empty = PathList::new(b"", Some(b""), 0);
        assert_eq!(empty.len(), 0);
        // An entry that is not UTF-8 is skipped; the others are read, with or without
        // an index.
        let mut builder = ListBuilder::default();
        for p in [&b"a"[..], b"b\xff", b"c/d"] {
            builder.push_bytes(p);
        }
        let (paths, index, count) = builder.finish();
        for index in [Some(&index[..]), None] {
            let list = PathList::new(&paths, index, count);
            let read: Vec<_> = (0..list.len()).map(|i| list.entry(i)).collect();
            assert_eq!(read, [Some("a"), None, Some("c/d")]);
        }
    }
}
