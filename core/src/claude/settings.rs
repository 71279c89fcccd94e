//! Reading and rewriting Claude Code's JSON files (`settings.json`, `.claude.json`,
//! `.mcp.json`) without losing anything: key order and layout kept, an atomic
//! replacement, and (with a [`Memory`] in the data root) one backup and a record that lets
//! an uninstall put the file back exactly as it was.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::{Map, Value};

use super::record::{Memory, Record};
use crate::error::{Error, Result};
use crate::store::{create_unique, sync_dir};

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// How a settings file is laid out, so a rewrite looks like the original.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Layout {
    /// The indentation of one level; `None` for a file on one line.
    indent: Option<Vec<u8>>,
    /// Whether the file ended with a newline.
    trailing_newline: bool,
    /// Whether the file started with a UTF-8 byte order mark.
    bom: bool,
    /// Whether lines end with `\r\n`.
    crlf: bool,
}

impl Layout {
    /// The layout of a new file: two spaces, a final newline (what Claude Code writes).
    pub(crate) fn new_file() -> Layout {
        Layout {
            indent: Some(b"  ".to_vec()),
            trailing_newline: true,
            bom: false,
            crlf: false,
        }
    }

    fn of(text: &[u8]) -> Layout {
        let bom = text.starts_with(BOM);
        let body = text.strip_prefix(BOM).unwrap_or(text);
        let trimmed = body.trim_ascii();
        let indent = if trimmed.contains(&b'\n') {
            // The leading whitespace of the first indented line is one level.
            let found = trimmed
                .split(|&b| b == b'\n')
                .skip(1)
                .map(|line| line.strip_suffix(b"\r").unwrap_or(line))
                .filter(|line| !line.trim_ascii().is_empty())
                .map(|line| {
                    let width = line
                        .iter()
                        .take_while(|&&b| b == b' ' || b == b'\t')
                        .count();
                    line[..width].to_vec()
                })
                .find(|indent| !indent.is_empty());
            Some(found.unwrap_or_else(|| b"  ".to_vec()))
        } else {
            None
        };
        Layout {
            indent,
            trailing_newline: body.ends_with(b"\n"),
            bom,
            crlf: body.windows(2).any(|pair| pair == b"\r\n"),
        }
    }
}

/// A settings file as read: its bytes and its parsed content.
#[derive(Debug)]
pub(crate) struct Settings {
    /// The bytes read; `None` when the file does not exist.
    pub(crate) original: Option<Vec<u8>>,
    /// The top-level object (empty for a missing or empty file).
    pub(crate) root: Map<String, Value>,
    /// Its layout.
    pub(crate) layout: Layout,
}

/// The file a write to `path` must replace: `path` itself, or the file a symbolic link at
/// `path` points to (so a settings file kept elsewhere stays linked).
pub(crate) fn write_target(path: &Path) -> Result<PathBuf> {
    let mut target = path.to_path_buf();
    // A chain of links is followed a few steps; a loop ends in an error below.
    for _ in 0..40 {
        match fs::symlink_metadata(&target) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let link = fs::read_link(&target).map_err(|e| Error::io(&target, e))?;
                target = match target.parent() {
                    Some(parent) => parent.join(link),
                    None => link,
                };
            }
            Ok(_) => return Ok(tidy(path, target)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(tidy(path, target)),
            Err(e) => return Err(Error::io(&target, e)),
        }
    }
    Err(Error::io(
        path,
        std::io::Error::other("too many levels of symbolic links"),
    ))
}

/// A link's target without `..` detours: its directory canonical (when it exists).
fn tidy(path: &Path, target: PathBuf) -> PathBuf {
    if target == path {
        return target;
    }
    match (target.parent(), target.file_name()) {
        (Some(parent), Some(name)) => fs::canonicalize(parent)
            .map(|parent| parent.join(name))
            .unwrap_or(target),
        _ => target,
    }
}

/// Read and parse the settings file `file` (already a [`write_target`]).
///
/// A missing or empty file is an empty object. A file that is not UTF-8 JSON or whose top
/// level is not an object is an `invalid_request` error naming it.
pub(crate) fn read(file: &Path, operation: &str) -> Result<Settings> {
    let original = match fs::read(file) {
        Ok(bytes) => Some(bytes),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(Error::io(file, e)),
    };
    let Some(bytes) = &original else {
        return Ok(Settings {
            original,
            root: Map::new(),
            layout: Layout::new_file(),
        });
    };
    let body = bytes.strip_prefix(BOM).unwrap_or(bytes);
    let root = if body.iter().all(u8::is_ascii_whitespace) {
        Map::new()
    } else {
        match serde_json::from_slice::<Value>(body) {
            Ok(Value::Object(root)) => root,
            Ok(other) => {
                return Err(Error::invalid(
                    operation,
                    format!(
                        "{} holds {}, not a JSON object; fix or move it first (it was left untouched)",
                        file.display(),
                        super::kind_of(&other)
                    ),
                ));
            }
            Err(e) => {
                return Err(Error::invalid(
                    operation,
                    format!(
                        "{} is not valid JSON ({e}); fix or move it first (it was left untouched)",
                        file.display()
                    ),
                ));
            }
        }
    };
    let layout = if body.iter().all(u8::is_ascii_whitespace) {
        Layout::new_file()
    } else {
        Layout::of(bytes)
    };
    Ok(Settings {
        original,
        root,
        layout,
    })
}

/// What an edit given to [`update`] did, so that the file is saved the right way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Save {
    /// An install: the edited object is written. `fresh`: the file held nothing of
    /// cc-search's before, so a record of an earlier install is stale and a new one is
    /// taken.
    Install {
        /// Whether the file held none of cc-search's entries before the edit.
        fresh: bool,
    },
    /// An uninstall: cc-search's entries are out of the edited object. The file is put
    /// back as it was before cc-search's first install when the record says how (see
    /// [`update`]). `nothing_left`: what is left is worth nothing (no key, or only empty
    /// containers), so a file cc-search created (or one of unknown origin) is deleted
    /// rather than left holding that.
    Uninstall {
        /// Whether what is left after the removal is worth nothing.
        nothing_left: bool,
    },
}

/// How [`update`] saved the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Done {
    /// Nothing changed.
    Nothing,
    /// The edited object was written.
    Written,
    /// The content from before cc-search's first install was written back, byte for byte.
    Restored,
    /// The file was deleted, and these directories cc-search had created for it (now
    /// empty) with it.
    Deleted(Vec<PathBuf>),
}

/// What [`update`] did.
#[derive(Debug)]
pub(crate) struct Updated<T> {
    /// What the edit returned (of the round that was saved).
    pub(crate) outcome: T,
    /// Whether the file was written or deleted. `false`: the edit changed nothing.
    pub(crate) changed: bool,
    /// How it was saved.
    pub(crate) done: Done,
    /// The backup of the previous file in the data root, when one was taken.
    pub(crate) backup: Option<PathBuf>,
    /// The file written: the addressed path, or the target of a symbolic link there.
    pub(crate) target: PathBuf,
}

impl<T> Updated<T> {
    /// A warning for people when `path` was a symbolic link whose target was written.
    pub(crate) fn link_warning(&self, path: &Path) -> Option<String> {
        (self.changed && self.target != path).then(|| {
            format!(
                "{} is a symbolic link; its target {} was updated",
                path.display(),
                self.target.display()
            )
        })
    }
}

/// What to put in the file.
enum Plan {
    Write(Vec<u8>),
    Restore(Vec<u8>),
    Delete,
}

/// Read the JSON object in `path` (a missing or empty file is `{}`), let `edit` change
/// it, and save the result when it differs, atomically ([`replace`]) in the file's own
/// layout. A symbolic link at `path` is followed ([`write_target`]). An `Err` from `edit`
/// leaves the file untouched. When another program writes the file meanwhile (Claude
/// Code itself), the edit runs again on the new content, a few times at most.
///
/// With a `memory` (a [`Memory`] of the write target in the data root), an install
/// records the file as it was before cc-search's first install into it (a record of an
/// install whose entries were since removed by hand is replaced: [`Save::Install`]'s
/// `fresh`), and the previous content is kept as the one backup there. An uninstall then
/// saves, in this order of preference:
///
/// 1. the content from before the install, byte for byte (or no file, and the now empty
///    directories the install created), when the file still holds exactly what cc-search
///    wrote last;
/// 2. that content too when the edited object equals it (someone changed the file, and
///    changed it back);
/// 3. no file, when nothing is left of it ([`Save::Uninstall`]'s `nothing_left`) and it
///    did not exist before the install (or no record says it did) and it is not a
///    symbolic link;
/// 4. the edited object, in the file's layout.
///
/// The record is forgotten after an uninstall; the backup stays.
pub(crate) fn update<T>(
    path: &Path,
    operation: &str,
    options: WriteOptions,
    memory: Option<&Memory>,
    mut edit: impl FnMut(&Path, &mut Map<String, Value>) -> Result<(T, Save)>,
) -> Result<Updated<T>> {
    let target = write_target(path)?;
    for _ in 0..5 {
        let current = read(&target, operation)?;
        let mut root = current.root.clone();
        let (outcome, save) = edit(&target, &mut root)?;
        let record = memory.and_then(Memory::record);
        let mut updated = Updated {
            outcome,
            changed: false,
            done: Done::Nothing,
            backup: None,
            target: target.clone(),
        };
        let mut new_record = None;
        let plan = match save {
            Save::Install { fresh } => {
                if root == current.root {
                    return Ok(updated);
                }
                new_record = match &record {
                    Some(record) if !fresh => Some(record.clone()),
                    _ => Record::before_install(
                        &target,
                        current.original.as_deref(),
                        super::record::missing_dirs(&target),
                    ),
                };
                Plan::Write(render(&root, &current.layout)?)
            }
            Save::Uninstall { nothing_left } => {
                let exact = record
                    .as_ref()
                    .filter(|r| current.original.as_deref().is_some_and(|b| r.wrote(b)));
                let original = record.as_ref().and_then(|r| r.original.as_deref());
                let may_delete = target == path && original.is_none();
                if let Some(exact) = exact {
                    match &exact.original {
                        Some(original) => Plan::Restore(original.as_bytes().to_vec()),
                        None if may_delete => Plan::Delete,
                        None => Plan::Write(render(&root, &current.layout)?),
                    }
                } else if root == current.root {
                    if let (Some(memory), Some(_)) = (memory, &record) {
                        // cc-search's entries went some other way: the record is stale.
                        memory.forget()?;
                    }
                    return Ok(updated);
                } else if let Some(original) = original.filter(|o| same_object(o, &root)) {
                    Plan::Restore(original.as_bytes().to_vec())
                } else if nothing_left && may_delete {
                    Plan::Delete
                } else {
                    Plan::Write(render(&root, &current.layout)?)
                }
            }
        };
        let already = match &plan {
            Plan::Write(bytes) | Plan::Restore(bytes) => current.original.as_ref() == Some(bytes),
            Plan::Delete => current.original.is_none(),
        };
        if already {
            // What the file should hold is what it holds.
            if let (Some(memory), Save::Uninstall { .. }) = (memory, save) {
                memory.forget()?;
            }
            return Ok(updated);
        }
        updated.changed = true;
        if let (Some(memory), Some(previous)) = (memory, &current.original) {
            updated.backup = memory.back_up(previous)?;
        }
        let saved = match (&plan, &current.original) {
            (Plan::Delete, Some(original)) => remove(&target, original)?,
            (Plan::Delete, None) => true,
            (Plan::Write(bytes) | Plan::Restore(bytes), _) => {
                replace(&target, current.original.as_deref(), bytes, options)?
            }
        };
        if !saved {
            continue;
        }
        updated.done = match plan {
            Plan::Write(_) => Done::Written,
            Plan::Restore(_) => Done::Restored,
            Plan::Delete => Done::Deleted(
                record
                    .as_ref()
                    .map(|r| super::record::remove_empty_dirs(&r.created_dirs))
                    .unwrap_or_default(),
            ),
        };
        if let Some(memory) = memory {
            match (save, new_record, &plan) {
                (Save::Install { .. }, Some(mut record), Plan::Write(bytes)) => {
                    record.written = crate::hash::sha256_hex(bytes);
                    memory.save(&record)?;
                }
                (Save::Install { .. }, _, _) => memory.forget()?,
                (Save::Uninstall { .. }, _, _) => memory.forget()?,
            }
        }
        return Ok(updated);
    }
    Err(Error::io(
        &target,
        std::io::Error::other("the file kept changing while it was being updated; try again"),
    ))
}

/// Whether the settings text `text` holds the object `root`.
fn same_object(text: &str, root: &Map<String, Value>) -> bool {
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    if body.trim().is_empty() {
        return root.is_empty();
    }
    matches!(serde_json::from_str::<Value>(body), Ok(Value::Object(o)) if o == *root)
}

/// `root` as file bytes in `layout`.
pub(crate) fn render(root: &Map<String, Value>, layout: &Layout) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    if layout.bom {
        out.extend_from_slice(BOM);
    }
    let written = match &layout.indent {
        Some(indent) => {
            let formatter = serde_json::ser::PrettyFormatter::with_indent(indent);
            let mut serializer = serde_json::Serializer::with_formatter(&mut out, formatter);
            root.serialize(&mut serializer)
        }
        None => serde_json::to_writer(&mut out, root),
    };
    written.map_err(|e| Error::Internal(format!("cannot serialise settings: {e}")))?;
    if layout.trailing_newline {
        out.push(b'\n');
    }
    if layout.crlf {
        // JSON text holds raw newlines only between tokens, never inside strings.
        let mut crlf = Vec::with_capacity(out.len() + out.len() / 16);
        for &b in &out {
            if b == b'\n' {
                crlf.push(b'\r');
            }
            crlf.push(b);
        }
        out = crlf;
    }
    Ok(out)
}

/// How [`replace`] writes a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct WriteOptions {
    /// The permission bits (Unix) of a file that did not exist before; `None`: the
    /// process's default. An existing file always keeps its own.
    pub(crate) new_file_mode: Option<u32>,
}

/// Replace `file` with `bytes` atomically.
///
/// The new content goes to a temporary file in the same directory (created with the
/// permissions of the file it replaces, or `options.new_file_mode` for a new file), is
/// flushed to disk, and renamed over `file`; the directory is synced after. Just before
/// the rename the file is read again: when it no longer holds `original` (another program
/// wrote it meanwhile), nothing is replaced and `Ok(false)` says to start over. Missing
/// parent directories are created.
pub(crate) fn replace(
    file: &Path,
    original: Option<&[u8]>,
    bytes: &[u8],
    options: WriteOptions,
) -> Result<bool> {
    let dir = match file.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    };
    crate::store::create_dir_all(&dir)?;
    let permissions = match fs::metadata(file) {
        Ok(meta) => Some(meta.permissions()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => new_file_permissions(options),
        Err(e) => return Err(Error::io(file, e)),
    };
    let name = file_name(file);
    let temp = create_unique(&dir, &format!(".{name}.cc-search-"), ".tmp")?;
    let result = (|| {
        let (path, mut handle) = (&temp.0, &temp.1);
        handle.write_all(bytes).map_err(|e| Error::io(path, e))?;
        if let Some(permissions) = &permissions {
            handle
                .set_permissions(permissions.clone())
                .map_err(|e| Error::io(path, e))?;
        }
        handle.sync_all().map_err(|e| Error::io(path, e))?;
        let now = match fs::read(file) {
            Ok(now) => Some(now),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(Error::io(file, e)),
        };
        if now.as_deref() != original {
            return Ok(false);
        }
        fs::rename(path, file).map_err(|e| Error::io(file, e))?;
        sync_dir(&dir);
        Ok(true)
    })();
    if !matches!(result, Ok(true)) {
        let _ = fs::remove_file(&temp.0);
    }
    result
}

/// The permissions [`WriteOptions::new_file_mode`] asks for.
fn new_file_permissions(options: WriteOptions) -> Option<fs::Permissions> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        options.new_file_mode.map(fs::Permissions::from_mode)
    }
    #[cfg(not(unix))]
    {
        let _ = options;
        None
    }
}

/// Delete `file` if it still holds `original`: `Ok(false)` when another program changed
/// it meanwhile (start over), `Ok(true)` when it is gone. The directory is synced after.
pub(crate) fn remove(file: &Path, original: &[u8]) -> Result<bool> {
    match fs::read(file) {
        Ok(now) if now == original => {}
        Ok(_) => return Ok(false),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(Error::io(file, e)),
    }
    match fs::remove_file(file) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(Error::io(file, e)),
    }
    if let Some(dir) = file.parent().filter(|d| !d.as_os_str().is_empty()) {
        sync_dir(dir);
    }
    Ok(true)
}

fn file_name(file: &Path) -> String {
    file.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "settings.json".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_is_detected() {
        let two = Layout::of(b"{\n  \"a\": 1\n}\n");
        assert_eq!(two.indent.as_deref(), Some(&b"  "[..]));
        assert!(two.trailing_newline);
        let tab = Layout::of(b"{\r\n\t\"a\": {\r\n\t\t\"b\": 1\r\n\t}\r\n}");
        assert_eq!(tab.indent.as_deref(), Some(&b"\t"[..]));
        assert!(!tab.trailing_newline);
        assert!(tab.crlf);
        let mut root = Map::new();
        root.insert("a".into(), serde_json::json!({"b": 1}));
        assert_eq!(
            render(&root, &tab).unwrap(),
            b"{\r\n\t\"a\": {\r\n\t\t\"b\": 1\r\n\t}\r\n}"
        );
        let four = Layout::of(b"\xEF\xBB\xBF{\n\n    \"a\": 1\n}");
        assert_eq!(four.indent.as_deref(), Some(&b"    "[..]));
        assert!(four.bom);
        let compact = Layout::of(b"{\"a\":1}");
        assert_eq!(compact.indent, None);
    }

    #[test]
    fn render_follows_the_layout() {
        let mut root = Map::new();
        root.insert("b".into(), Value::from(1));
        root.insert("a".into(), serde_json::json!({"x": []}));
        let two = render(&root, &Layout::new_file()).unwrap();
        assert_eq!(
            String::from_utf8(two).unwrap(),
            "{\n  \"b\": 1,\n  \"a\": {\n    \"x\": []\n  }\n}\n"
        );
        let compact = render(&root, &Layout::of(b"{}")).unwrap();
        assert_eq!(compact, br#"{"b":1,"a":{"x":[]}}"#);
    }
}
