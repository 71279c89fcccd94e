//! The path list of a root, as the picker's fuzzy scan reads it (`files_lists`).
//!
//! `paths` holds the root's paths (relative to it; absolute when outside it) in path
//! order, separated by NUL. `entry_index` holds, for each entry in the same order, its
//! character mask ([`char_mask`], a little-endian u64) and the byte offset where it starts
//! in `paths` (a little-endian u32): the scan skips a path that lacks a character of the
//! query without reading it, and splits the list between threads by entry.

use std::borrow::Cow;

use super::rank::char_mask;

/// Bytes of one `entry_index` entry.
const ENTRY: usize = 12;

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
        let start = self.paths.len() + usize::from(self.count > 0);
        let Ok(offset) = u32::try_from(start) else {
            return;
        };
        if self.count > 0 {
            self.paths.push(0);
        }
        self.paths.extend_from_slice(path.as_bytes());
        self.index.extend_from_slice(&char_mask(path).to_le_bytes());
        self.index.extend_from_slice(&offset.to_le_bytes());
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
    text: &'a str,
    index: Cow<'a, [u8]>,
}

impl<'a> PathList<'a> {
    /// The list of stored columns; a missing index (written by an older version) is
    /// rebuilt in memory. None when `paths` is not UTF-8. The index is not checked
    /// against the paths up front (that would read them all); [`PathList::get`] returns
    /// only whole entries, so an index that does not fit loses entries, never makes any up.
    pub fn new(paths: &'a [u8], index: Option<&'a [u8]>) -> Option<PathList<'a>> {
        let text = std::str::from_utf8(paths).ok()?;
        let index = match index {
            Some(index) if index.len() % ENTRY == 0 => Cow::Borrowed(index),
            _ => {
                let mut builder = ListBuilder::default();
                for entry in text.split('\0').filter(|_| !text.is_empty()) {
                    builder.push(entry);
                }
                Cow::Owned(builder.finish().1)
            }
        };
        Some(PathList { text, index })
    }

    /// How many entries it has.
    pub fn len(&self) -> usize {
        self.index.len() / ENTRY
    }

    /// Entry `i` and its character mask; None past the end, or when the index does not
    /// point at a whole entry.
    pub fn get(&self, i: usize) -> Option<(&str, u64)> {
        let entry = self.index.get(i * ENTRY..(i + 1) * ENTRY)?;
        let mask = u64::from_le_bytes(entry[..8].try_into().ok()?);
        let start = offset_of(entry);
        let end = match self.index.get((i + 1) * ENTRY..(i + 2) * ENTRY) {
            Some(next) => offset_of(next).checked_sub(1)?,
            None => self.text.len(),
        };
        // A whole entry: a NUL (or the list's edge) on both sides.
        let bytes = self.text.as_bytes();
        let starts = start == 0 || bytes.get(start - 1) == Some(&0);
        let ends = end == bytes.len() || bytes.get(end) == Some(&0);
        if !(starts && ends) {
            return None;
        }
        // Both ends border a NUL (ASCII) or the edge, so they are char boundaries.
        Some((self.text.get(start..end)?, mask))
    }
}

fn offset_of(entry: &[u8]) -> usize {
    let bytes: [u8; 4] = entry[8..12].try_into().unwrap_or([0; 4]);
    u32::from_le_bytes(bytes) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(list: &PathList<'_>) -> Vec<(String, u64)> {
        (0..list.len())
            .map(|i| {
                let (e, m) = list.get(i).unwrap();
                (e.to_string(), m)
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
        let list = PathList::new(&text, Some(&index)).unwrap();
        let expected: Vec<(String, u64)> = paths
            .iter()
            .map(|p| (p.to_string(), char_mask(p)))
            .collect();
        assert_eq!(entries(&list), expected);
        assert!(matches!(list.index, Cow::Borrowed(_)));
        assert!(list.get(4).is_none());
        // A missing or malformed index is rebuilt: same entries.
        for index in [None, Some(&index[..13])] {
            let rebuilt = PathList::new(&text, index).unwrap();
            assert!(matches!(rebuilt.index, Cow::Owned(_)));
            assert_eq!(entries(&rebuilt), expected);
        }
        // An index that does not fit the paths yields no made-up entries.
        let mut shifted = index.clone();
        shifted[12 + 8] += 1; // entry 1 starts a byte late
        let list = PathList::new(&text, Some(&shifted)).unwrap();
        let got: Vec<Option<&str>> = (0..4).map(|i| list.get(i).map(|(e, _)| e)).collect();
        assert_eq!(got, [None, None, Some("café/x"), Some("z")]);
    }

    #[test]
    fn empty_and_invalid_lists() {
        let empty = PathList::new(b"", Some(b"")).unwrap();
        assert_eq!(empty.len(), 0);
        assert!(PathList::new(b"a\0\xff", None).is_none());
    }
}
