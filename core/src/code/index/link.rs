//! Which definition a reference means, by its language's rules: the symbols it can reach
//! from its file (the file itself, what the file's imports bind, its package), the
//! receiver or path it is written through, and nothing by a name's mere spelling.
//!
//! A reference is linked to a definition only when the rules lead to one. One the rules
//! cannot decide (a method called on a value whose type the index does not know, with
//! several methods of that name) is *ambiguous*: linked to none, flagged. A name no
//! definition in the repository can be, by those rules, is *external* (the standard
//! library, a dependency, a builtin).
//!
//! The rules, per language:
//!
//! - **All**: only symbols of the same language (TypeScript and JavaScript are one, C and
//!   C++ are one).
//! - **A bare name** (`f()`, `Foo`): the referring file's own definitions (not the
//!   members of its classes, except in Java, C++ and Ruby where a method calls its
//!   siblings bare); then what an import binds to that name (`use a::b::F`,
//!   `from a import f`, `import {f} from './a'`, a static import), followed through
//!   re-exports; then glob imports (`use a::*`, `from a import *`, `export * from`,
//!   `#include`) and the file's package (Go: the directory; Java: the directory). C and
//!   Ruby have one global namespace: a name defined once anywhere links there, several
//!   times is ambiguous.
//! - **A path** (`a::b::f`, `mod.f`, `pkg.F`): when it names a module — through an
//!   import's name, or Rust's `crate::`, `self::`, `super::`, a crate of the workspace
//!   or a child module — the name is looked up in that module.
//! - **A type** (`Type::new`, `Cls.m`, `self.m()` inside a class or `impl`): the members
//!   of that name owned by that type (any `impl` block in Rust). Several types of that
//!   name: the one the file reaches; otherwise ambiguous.
//! - **A value** (`x.len()`): the type is not known; ambiguous when some type defines a
//!   member of that name, external otherwise.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;

use rusqlite::{Connection, OptionalExtension};

use crate::code::extract::Binding;
use crate::code::{RefKind, SymbolKind};

/// The language family a file belongs to: references resolve within one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Family {
    Rust,
    Python,
    /// TypeScript and JavaScript.
    Ts,
    Go,
    Java,
    /// C and C++.
    C,
    Ruby,
    Other,
}

impl Family {
    pub(crate) fn of(language: &str) -> Family {
        match language {
            "rust" => Family::Rust,
            "python" => Family::Python,
            "typescript" | "javascript" => Family::Ts,
            "go" => Family::Go,
            "java" => Family::Java,
            "c" | "cpp" => Family::C,
            "ruby" => Family::Ruby,
            _ => Family::Other,
        }
    }

    /// The languages of the family (one twice when it has one).
    fn languages(self) -> (&'static str, &'static str) {
        match self {
            Family::Rust => ("rust", "rust"),
            Family::Python => ("python", "python"),
            Family::Ts => ("typescript", "javascript"),
            Family::Go => ("go", "go"),
            Family::Java => ("java", "java"),
            Family::C => ("c", "cpp"),
            Family::Ruby => ("ruby", "ruby"),
            Family::Other => ("", ""),
        }
    }

    /// Whether a method calls its class's other members without a receiver.
    fn implicit_this(self) -> bool {
        matches!(self, Family::Java | Family::C | Family::Ruby)
    }
}

/// Where a symbol is defined, as far as reaching it goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Scope {
    /// At a file's top level (or in a module or namespace block).
    Top,
    /// A member of the type-like symbol of this name (a class, a struct's `impl`).
    Member(Arc<str>),
    /// Inside a function or a variable: only its own file sees it.
    Local,
}

impl Scope {
    /// The scope of a symbol whose parent is `parent` (kind and name). A C `typedef
    /// struct s {…} t;` defines `s` at the top level, under the typedef.
    pub(super) fn under(parent: Option<(SymbolKind, &str)>) -> Scope {
        match parent {
            None | Some((SymbolKind::Mod | SymbolKind::Section | SymbolKind::Type, _)) => {
                Scope::Top
            }
            Some((kind, name)) if kind.is_container() => Scope::Member(Arc::from(name)),
            Some(_) => Scope::Local,
        }
    }

    /// The scope of a symbol of `family`, of `kind`, with `signature`, under `parent`:
    /// as [`Scope::under`], except that a Go method (defined at the top level) is a
    /// member of its receiver's type, and a Ruby module's method a member of the module.
    pub(super) fn of(
        family: Family,
        parent: Option<(SymbolKind, &str)>,
        kind: Option<SymbolKind>,
        signature: Option<&str>,
    ) -> Scope {
        if family == Family::Go
            && kind == Some(SymbolKind::Method)
            && let Some(receiver) = signature.and_then(go_receiver)
        {
            return Scope::Member(Arc::from(receiver));
        }
        if family == Family::Ruby
            && matches!(kind, Some(SymbolKind::Method | SymbolKind::Fn))
            && let Some((SymbolKind::Mod, module)) = parent
        {
            // A Ruby module's methods are its own (called on it, or mixed in), not
            // top-level functions.
            return Scope::Member(Arc::from(module));
        }
        Scope::under(parent)
    }
}

/// The receiver type of a Go method's signature: `FlagSet` in
/// `func (f *FlagSet) Bool(…)`, `List` in `func (l List[T]) Len()`.
fn go_receiver(signature: &str) -> Option<&str> {
    let rest = signature
        .strip_prefix("func")?
        .trim_start()
        .strip_prefix('(')?;
    let receiver = &rest[..rest.find(')')?];
    let ty = receiver.split_whitespace().last()?.trim_start_matches('*');
    let ty = ty.split('[').next()?;
    (!ty.is_empty()).then_some(ty)
}

/// A symbol that may be a reference's target.
#[derive(Debug, Clone)]
pub(super) struct Sym {
    pub(super) id: i64,
    pub(super) file: i64,
    /// Its file's family.
    pub(super) family: Family,
    pub(super) kind: Option<SymbolKind>,
    pub(super) scope: Scope,
    /// The symbol it is defined in.
    pub(super) parent: Option<i64>,
    /// A C macro that renames (`#define deflate z_deflate`): what is written with its
    /// name means what it would without the macro.
    pub(super) rename: bool,
}

/// Whether a C macro's signature is a rename: `#define NAME OTHER` where `OTHER` is
/// one identifier containing `NAME` (`z_deflate`, `_snprintf`: a prefix option, a
/// platform's spelling). A macro that redirects to another name (`#define zmemcpy
/// memcpy`) is not: it is a definition of its own.
pub(super) fn is_rename(family: Family, kind: Option<SymbolKind>, signature: Option<&str>) -> bool {
    if family != Family::C || kind != Some(SymbolKind::Const) {
        return false;
    }
    let Some(body) = signature
        .map(|s| s.trim_start_matches('#').trim_start())
        .and_then(|s| s.strip_prefix("define"))
    else {
        return false;
    };
    let words: Vec<&str> = body.split_whitespace().collect();
    match words.as_slice() {
        [name, other] => {
            other != name
                && other.contains(name)
                && other.chars().all(|c| c.is_alphanumeric() || c == '_')
        }
        _ => false,
    }
}

/// The symbols of one name, indexed by file and by owner.
#[derive(Debug, Default)]
struct Named {
    all: Vec<Sym>,
    by_file: HashMap<i64, Vec<usize>>,
    by_owner: HashMap<Arc<str>, Vec<usize>>,
}

impl Named {
    fn new(all: Vec<Sym>) -> Named {
        let mut named = Named {
            all,
            ..Named::default()
        };
        for (i, s) in named.all.iter().enumerate() {
            named.by_file.entry(s.file).or_default().push(i);
            if let Scope::Member(owner) = &s.scope {
                named.by_owner.entry(owner.clone()).or_default().push(i);
            }
        }
        named
    }

    fn in_file(&self, file: i64) -> impl Iterator<Item = &Sym> {
        self.by_file
            .get(&file)
            .into_iter()
            .flatten()
            .map(|i| &self.all[*i])
    }

    fn owned_by(&self, owner: &str) -> impl Iterator<Item = &Sym> {
        self.by_owner
            .get(owner)
            .into_iter()
            .flatten()
            .map(|i| &self.all[*i])
    }
}

/// What a reference resolved to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Target {
    Linked(i64),
    Ambiguous,
    External,
}

impl Target {
    /// The `to_symbol_id` and `ambiguous` columns.
    pub(super) fn columns(self) -> (Option<i64>, bool) {
        match self {
            Target::Linked(id) => (Some(id), false),
            Target::Ambiguous => (None, true),
            Target::External => (None, false),
        }
    }
}

fn kind_fits(ref_kind: RefKind, kind: Option<SymbolKind>) -> bool {
    let Some(kind) = kind else {
        return false;
    };
    match ref_kind {
        RefKind::Call => matches!(
            kind,
            SymbolKind::Fn | SymbolKind::Method | SymbolKind::Class | SymbolKind::Struct
        ),
        RefKind::TypeRef | RefKind::Extends => kind.is_type(),
        // Ruby's `include Comparable` mixes a module in.
        RefKind::Implements => kind.is_type() || kind == SymbolKind::Mod,
        RefKind::Import => kind != SymbolKind::Impl,
        // A variable of that name elsewhere is rather a local the index does not see.
        RefKind::Value => !matches!(
            kind,
            SymbolKind::Impl | SymbolKind::Section | SymbolKind::Var | SymbolKind::Mod
        ),
    }
}

/// Of `syms`, the best for `ref_kind`: a fitting kind first, then a top-level one, then
/// the first defined. `impl` blocks are never targets.
fn best<'s>(syms: impl Iterator<Item = &'s Sym>, ref_kind: RefKind) -> Option<&'s Sym> {
    syms.filter(|s| s.kind != Some(SymbolKind::Impl))
        .min_by_key(|s| (!kind_fits(ref_kind, s.kind), s.scope != Scope::Top, s.id))
}

/// The files of the index: each one's path and family, and the lookups module
/// resolution needs. A cold run holds every file ([`Files::new`]); an incremental run
/// reads what it asks about from the database ([`Files::read`]), once each, by the
/// indexed columns of schema 6 — which compute the same keys as [`Files::add`].
#[derive(Default)]
pub(super) struct Files<'a> {
    /// Where to read what is not here yet; `None` when everything is (a cold run).
    db: Option<&'a Connection>,
    info: HashMap<i64, (String, Family)>,
    /// Files by path (`None`: no such file).
    by_rel: HashMap<String, Option<i64>>,
    /// Files by directory (`""` for the root).
    by_dir: HashMap<String, Vec<i64>>,
    /// Directories that hold files, by their last segment.
    dirs_named: HashMap<String, Vec<String>>,
    /// Files by stem (`db` for `src/db.rs`), and by directory for `mod.rs`,
    /// `__init__.py`, `index.ts`.
    by_key: HashMap<String, Vec<i64>>,
    /// The directories Rust packages may be in (above a `src/`), read once.
    rust_dirs: Option<Vec<String>>,
}

fn dir_of(rel: &str) -> &str {
    rel.rsplit_once('/').map_or("", |(dir, _)| dir)
}

fn join(dir: &str, rel: &str) -> String {
    if dir.is_empty() {
        rel.to_string()
    } else {
        format!("{dir}/{rel}")
    }
}

/// `a/./b/../c` → `a/c`; `None` when it climbs above the root.
fn normalize(path: &str) -> Option<String> {
    let mut out: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                out.pop()?;
            }
            _ => out.push(part),
        }
    }
    Some(out.join("/"))
}

/// The key a file is found by (see [`Files::by_key`]).
fn file_key(rel: &str) -> &str {
    let dir = dir_of(rel);
    let name = rel.rsplit('/').next().unwrap_or(rel);
    let stem = name.split('.').next().unwrap_or(name);
    if matches!(stem, "index" | "mod" | "__init__") && !dir.is_empty() {
        dir.rsplit('/').next().unwrap_or(dir)
    } else {
        stem
    }
}

/// The directory a Rust package of `rel` may be in: what is above its first `src/`.
fn rust_package_dir(rel: &str) -> Option<&str> {
    rel.find("/src/")
        .map(|i| &rel[..i])
        .or_else(|| rel.starts_with("src/").then_some(""))
}

/// Files rows: id, path, language.
type FileRow = (i64, String, String);

impl<'a> Files<'a> {
    /// Every file, in memory.
    pub(super) fn new<'f>(files: impl Iterator<Item = (i64, &'f str, Family)>) -> Files<'a> {
        let mut out = Files::default();
        for (id, rel, family) in files {
            out.add(id, rel, family);
        }
        for list in out.by_dir.values_mut() {
            list.sort_unstable();
        }
        for list in out.dirs_named.values_mut() {
            list.sort();
            list.dedup();
        }
        for list in out.by_key.values_mut() {
            list.sort_unstable();
        }
        let mut rust: Vec<String> = out
            .info
            .values()
            .filter(|(_, f)| *f == Family::Rust)
            .filter_map(|(rel, _)| rust_package_dir(rel).map(String::from))
            .collect();
        rust.sort();
        rust.dedup();
        out.rust_dirs = Some(rust);
        out
    }

    /// The files of the index at `conn`, read as asked.
    pub(super) fn read(conn: &'a Connection) -> Files<'a> {
        Files {
            db: Some(conn),
            ..Files::default()
        }
    }

    fn add(&mut self, id: i64, rel: &str, family: Family) {
        self.info.insert(id, (rel.to_string(), family));
        self.by_rel.insert(rel.to_string(), Some(id));
        let dir = dir_of(rel);
        self.by_dir.entry(dir.to_string()).or_default().push(id);
        if !dir.is_empty() {
            let name = dir.rsplit('/').next().unwrap_or(dir);
            self.dirs_named
                .entry(name.to_string())
                .or_default()
                .push(dir.to_string());
        }
        self.by_key
            .entry(file_key(rel).to_string())
            .or_default()
            .push(id);
    }

    /// Read the rows `sql` selects with `arg` (id, path, language), noting each file.
    fn rows(&mut self, sql: &str, arg: &dyn rusqlite::ToSql) -> rusqlite::Result<Vec<FileRow>> {
        let Some(conn) = self.db else {
            return Ok(Vec::new());
        };
        let rows: Vec<FileRow> = conn
            .prepare_cached(sql)?
            .query_map([arg], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
            .collect::<rusqlite::Result<_>>()?;
        for (id, rel, language) in &rows {
            self.info
                .entry(*id)
                .or_insert_with(|| (rel.clone(), Family::of(language)));
        }
        Ok(rows)
    }

    fn info(&mut self, file: i64) -> rusqlite::Result<Option<&(String, Family)>> {
        if self.db.is_some() && !self.info.contains_key(&file) {
            let rows = self.rows(
                "SELECT id, rel_path, language FROM files WHERE id = ?1",
                &file,
            )?;
            if rows.is_empty() {
                self.info.insert(file, (String::new(), Family::Other));
            }
        }
        Ok(self.info.get(&file))
    }

    pub(super) fn family(&mut self, file: i64) -> rusqlite::Result<Family> {
        Ok(self.info(file)?.map_or(Family::Other, |(_, f)| *f))
    }

    fn rel(&mut self, file: i64) -> rusqlite::Result<String> {
        Ok(self
            .info(file)?
            .map(|(rel, _)| rel.clone())
            .unwrap_or_default())
    }

    /// The file at `rel`, if the index has one.
    fn id_of(&mut self, rel: &str) -> rusqlite::Result<Option<i64>> {
        if let Some(found) = self.by_rel.get(rel) {
            return Ok(*found);
        }
        if self.db.is_none() {
            return Ok(None);
        }
        let rows = self.rows(
            "SELECT id, rel_path, language FROM files WHERE rel_path = ?1",
            &rel,
        )?;
        let found = rows.first().map(|r| r.0);
        self.by_rel.insert(rel.to_string(), found);
        Ok(found)
    }

    /// The files directly in `dir`, by id.
    fn in_dir(&mut self, dir: &str) -> rusqlite::Result<Vec<i64>> {
        if let Some(found) = self.by_dir.get(dir) {
            return Ok(found.clone());
        }
        let rows = self.rows(
            "SELECT id, rel_path, language FROM files WHERE dir = ?1 ORDER BY id",
            &dir,
        )?;
        let found: Vec<i64> = rows.iter().map(|r| r.0).collect();
        self.by_dir.insert(dir.to_string(), found.clone());
        Ok(found)
    }

    /// The directories holding files whose last segment is `name`, sorted.
    fn dirs_named(&mut self, name: &str) -> rusqlite::Result<Vec<String>> {
        if let Some(found) = self.dirs_named.get(name) {
            return Ok(found.clone());
        }
        let found: Vec<String> = match self.db {
            Some(conn) => conn
                .prepare_cached("SELECT DISTINCT dir FROM files WHERE dir_name = ?1 ORDER BY dir")?
                .query_map([name], |r| r.get(0))?
                .collect::<rusqlite::Result<_>>()?,
            None => Vec::new(),
        };
        self.dirs_named.insert(name.to_string(), found.clone());
        Ok(found)
    }

    /// The files of `key` (see [`Files::by_key`]), by id.
    fn keyed(&mut self, key: &str) -> rusqlite::Result<Vec<i64>> {
        if let Some(found) = self.by_key.get(key) {
            return Ok(found.clone());
        }
        let rows = self.rows(
            "SELECT id, rel_path, language FROM files WHERE key = ?1 ORDER BY id",
            &key,
        )?;
        let found: Vec<i64> = rows.iter().map(|r| r.0).collect();
        self.by_key.insert(key.to_string(), found.clone());
        Ok(found)
    }

    /// The directories Rust packages may be in, sorted.
    fn rust_dirs(&mut self) -> rusqlite::Result<Vec<String>> {
        if let Some(found) = &self.rust_dirs {
            return Ok(found.clone());
        }
        let mut found: Vec<String> = Vec::new();
        if let Some(conn) = self.db {
            let mut stmt =
                conn.prepare_cached("SELECT rel_path FROM files WHERE language = 'rust'")?;
            for rel in stmt.query_map([], |r| r.get::<_, String>(0))? {
                if let Some(dir) = rust_package_dir(&rel?) {
                    found.push(dir.to_string());
                }
            }
        }
        found.sort();
        found.dedup();
        self.rust_dirs = Some(found.clone());
        Ok(found)
    }

    /// Of the files whose path ends with `suffix` (at a `/`), those nearest `from`
    /// (the longest shared directory prefix).
    fn nearest_with_suffix(
        &mut self,
        key: &str,
        suffix: &str,
        from: &str,
    ) -> rusqlite::Result<Vec<i64>> {
        let mut found: Vec<(usize, i64)> = Vec::new();
        for id in self.keyed(key)? {
            let rel = self.rel(id)?;
            let fits = rel == suffix
                || rel
                    .strip_suffix(suffix)
                    .is_some_and(|head| head.ends_with('/'));
            if fits {
                found.push((shared_prefix(&rel, from), id));
            }
        }
        let Some(most) = found.iter().map(|(n, _)| *n).max() else {
            return Ok(Vec::new());
        };
        found.retain(|(n, _)| *n == most);
        let mut ids: Vec<i64> = found.into_iter().map(|(_, id)| id).collect();
        ids.sort_unstable();
        Ok(ids)
    }

    /// The directories holding files whose path ends with `suffix` (at a `/`) and the
    /// most segments of it when only a tail matches, with at least `min` segments
    /// matched.
    fn dirs_ending(&mut self, suffix: &str, min: usize) -> rusqlite::Result<Vec<String>> {
        let parts: Vec<&str> = suffix.split('/').filter(|p| !p.is_empty()).collect();
        let Some(last) = parts.last() else {
            return Ok(Vec::new());
        };
        let dirs = self.dirs_named(last)?;
        let matched = |dir: &str| -> usize {
            let mut n = 0;
            for (a, b) in dir.rsplit('/').zip(parts.iter().rev()) {
                if a != *b {
                    break;
                }
                n += 1;
            }
            n
        };
        let best = dirs.iter().map(|d| matched(d)).max().unwrap_or(0);
        if best < min.min(parts.len()) {
            return Ok(Vec::new());
        }
        Ok(dirs.into_iter().filter(|d| matched(d) == best).collect())
    }

    /// The files in any of `dirs` of `family`.
    fn in_dirs_of(&mut self, dirs: &[String], family: Family) -> rusqlite::Result<Vec<i64>> {
        let mut out = Vec::new();
        for dir in dirs {
            for id in self.in_dir(dir)? {
                if self.family(id)? == family {
                    out.push(id);
                }
            }
        }
        Ok(out)
    }
}

/// Directory segments `a` and `b` share from the start.
fn shared_prefix(a: &str, b: &str) -> usize {
    dir_of(a)
        .split('/')
        .zip(dir_of(b).split('/'))
        .take_while(|(x, y)| x == y)
        .count()
}

/// A Rust crate of the repository: the directory its module paths start from, its root
/// file.
#[derive(Debug, Clone)]
struct Crate {
    /// The directory of the root file (`core/src`).
    dir: String,
    /// The root file (`core/src/lib.rs`).
    root: String,
}

/// Where symbols and bindings come from: the run's memory (a cold run) or the database
/// (read as needed).
pub(super) enum Source<'a> {
    Memory {
        symbols: &'a HashMap<String, Vec<Sym>>,
        bindings: &'a HashMap<i64, Vec<Binding>>,
        /// Each symbol's parent, for those that have one.
        parents: &'a HashMap<i64, i64>,
    },
    Db(&'a Connection),
}

/// What was read from the database, by question (an incremental run asks each once).
#[derive(Default)]
struct Read {
    /// Whether any symbol has the name.
    defined: HashMap<String, bool>,
    /// The symbols of a name in a file.
    in_file: HashMap<(i64, String), Vec<Sym>>,
    /// The members of a name (first) of types of a name (second), every family.
    owned: HashMap<(String, String, Family), Vec<Sym>>,
    /// Whether a type of the family has a member of the name (a value may use: `true`;
    /// any: `false`).
    any_member: HashMap<(String, Family, bool), bool>,
    /// The symbols of a name in a family (of a kind).
    of_family: HashMap<(String, Family, Option<SymbolKind>), Vec<Sym>>,
}

/// A query of [`Sym`]s ([`sym_row`]): the columns read, for symbols `s` of files `f`
/// under parents `p`, then the rest of the statement.
macro_rules! select_syms {
    ($rest:literal) => {
        concat!(
            "SELECT s.id, s.file_id, s.kind, p.kind, p.name, s.signature, f.language, s.parent_symbol_id ",
            $rest
        )
    };
}

fn sym_row(r: &rusqlite::Row) -> rusqlite::Result<Sym> {
    let parent_kind: Option<String> = r.get(3)?;
    let parent_name: Option<String> = r.get(4)?;
    let parent = parent_kind
        .as_deref()
        .and_then(SymbolKind::parse)
        .zip(parent_name.as_deref());
    let kind = SymbolKind::parse(&r.get::<_, String>(2)?);
    let signature: Option<String> = r.get(5)?;
    let family = Family::of(&r.get::<_, String>(6)?);
    Ok(Sym {
        id: r.get(0)?,
        file: r.get(1)?,
        family,
        kind,
        scope: Scope::of(family, parent, kind, signature.as_deref()),
        parent: r.get(7)?,
        rename: is_rename(family, kind, signature.as_deref()),
    })
}

fn read_syms(
    conn: &Connection,
    sql: &str,
    args: &[&dyn rusqlite::ToSql],
) -> rusqlite::Result<Vec<Sym>> {
    conn.prepare_cached(sql)?
        .query_map(args, sym_row)?
        .collect()
}

/// Resolves references (see the module's documentation).
pub(super) struct Linker<'a> {
    files: Files<'a>,
    source: Source<'a>,
    /// The repository root (Rust crates are found by their `Cargo.toml`).
    root: PathBuf,
    /// A cold run's symbols by name, indexed on first use.
    named: HashMap<String, Named>,
    /// An incremental run's answers from the database.
    read: Read,
    /// Each file's bindings, as read (from the database, or from memory) on first use:
    /// shared, not copied, by every reference of the file.
    bindings: HashMap<i64, Rc<[Binding]>>,
    /// The Rust crate of each file asked about.
    crate_of: HashMap<i64, Option<Crate>>,
    /// Parents of symbols read from the database (by the files read).
    parents: HashMap<i64, i64>,
    parents_read: HashSet<i64>,
    /// A module written in a file (by its family's rules) → its files.
    modules: HashMap<(i64, String), Vec<i64>>,
    /// Each C file's includes, and theirs, to a depth of [`MAX_DEPTH`].
    includes: HashMap<i64, Rc<HashSet<i64>>>,
    /// Per directory: the Rust package there (its `Cargo.toml`'s crate name), if any.
    packages: HashMap<String, Option<String>>,
    /// Rust crates by name (`-` as `_`), found on first use.
    crates: Option<HashMap<String, Crate>>,
}

const MAX_DEPTH: usize = 4;

impl<'a> Linker<'a> {
    pub(super) fn new(files: Files<'a>, source: Source<'a>, root: &Path) -> Linker<'a> {
        Linker {
            files,
            source,
            root: root.to_path_buf(),
            named: HashMap::new(),
            read: Read::default(),
            bindings: HashMap::new(),
            crate_of: HashMap::new(),
            parents: HashMap::new(),
            parents_read: HashSet::new(),
            modules: HashMap::new(),
            includes: HashMap::new(),
            packages: HashMap::new(),
            crates: None,
        }
    }

    /// A cold run's symbols named `name` (every family).
    fn named(&mut self, symbols: &HashMap<String, Vec<Sym>>, name: &str) -> &Named {
        self.named
            .entry(name.to_string())
            .or_insert_with(|| Named::new(symbols.get(name).cloned().unwrap_or_default()))
    }

    /// Whether any symbol is named `name`.
    fn defined(&mut self, name: &str) -> rusqlite::Result<bool> {
        match self.source {
            Source::Memory { symbols, .. } => Ok(symbols.get(name).is_some_and(|s| !s.is_empty())),
            Source::Db(conn) => {
                if let Some(found) = self.read.defined.get(name) {
                    return Ok(*found);
                }
                let found = conn
                    .prepare_cached("SELECT EXISTS (SELECT 1 FROM symbols WHERE name = ?1)")?
                    .query_row([name], |r| r.get(0))?;
                self.read.defined.insert(name.to_string(), found);
                Ok(found)
            }
        }
    }

    /// `from` and the symbols it is defined in, innermost first.
    fn enclosing(&mut self, file: i64, from: Option<i64>) -> rusqlite::Result<Vec<i64>> {
        let Some(from) = from else {
            return Ok(Vec::new());
        };
        if let Source::Db(conn) = &self.source
            && self.parents_read.insert(file)
        {
            let mut stmt = conn.prepare_cached(
                "SELECT id, parent_symbol_id FROM symbols WHERE file_id = ?1 AND parent_symbol_id IS NOT NULL",
            )?;
            for row in stmt.query_map([file], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?)))? {
                let (id, parent) = row?;
                self.parents.insert(id, parent);
            }
        }
        let parents = match &self.source {
            Source::Memory { parents, .. } => *parents,
            Source::Db(_) => &self.parents,
        };
        let mut chain = vec![from];
        let mut at = from;
        while let Some(parent) = parents.get(&at) {
            if chain.len() > 64 {
                break;
            }
            chain.push(*parent);
            at = *parent;
        }
        Ok(chain)
    }

    /// The names `file`'s imports bind.
    pub(super) fn bindings_of(&mut self, file: i64) -> rusqlite::Result<Rc<[Binding]>> {
        if let Some(found) = self.bindings.get(&file) {
            return Ok(found.clone());
        }
        let rows: Rc<[Binding]> = match &self.source {
            Source::Memory { bindings, .. } => {
                bindings.get(&file).map_or(&[][..], |b| b.as_slice()).into()
            }
            Source::Db(conn) => read_bindings(conn, file)?.into(),
        };
        self.bindings.insert(file, rows.clone());
        Ok(rows)
    }

    /// The symbols named `name` of `file`'s family, of `kind` if given, those for which
    /// `keep` holds (every such symbol of the name: for the rare cases).
    fn candidates(
        &mut self,
        file: i64,
        name: &str,
        kind: Option<SymbolKind>,
        keep: impl Fn(&Sym) -> bool,
    ) -> rusqlite::Result<Vec<Sym>> {
        let family = self.files.family(file)?;
        let all: &[Sym] = match self.source {
            Source::Memory { symbols, .. } => &self.named(symbols, name).all,
            Source::Db(conn) => {
                let key = (name.to_string(), family, kind);
                if !self.read.of_family.contains_key(&key) {
                    let (a, b) = family.languages();
                    let rows = match kind {
                        Some(k) => read_syms(
                            conn,
                            select_syms!(
                                "FROM symbols s JOIN files f ON f.id = s.file_id
                                 LEFT JOIN symbols p ON p.id = s.parent_symbol_id
                                 WHERE s.name = ?1 AND f.language IN (?2, ?3) AND s.kind = ?4
                                 ORDER BY s.id"
                            ),
                            &[&name, &a, &b, &k.as_str()],
                        )?,
                        None => read_syms(
                            conn,
                            select_syms!(
                                "FROM symbols s JOIN files f ON f.id = s.file_id
                                 LEFT JOIN symbols p ON p.id = s.parent_symbol_id
                                 WHERE s.name = ?1 AND f.language IN (?2, ?3) ORDER BY s.id"
                            ),
                            &[&name, &a, &b],
                        )?,
                    };
                    self.read.of_family.insert(key.clone(), rows);
                }
                &self.read.of_family[&key]
            }
        };
        Ok(all
            .iter()
            .filter(|s| s.family == family && kind.is_none_or(|k| s.kind == Some(k)) && keep(s))
            .cloned()
            .collect())
    }

    /// The symbols named `name` defined in `file`.
    fn in_file(&mut self, file: i64, name: &str) -> rusqlite::Result<Vec<Sym>> {
        match self.source {
            Source::Memory { symbols, .. } => {
                Ok(self.named(symbols, name).in_file(file).cloned().collect())
            }
            Source::Db(conn) => {
                let key = (file, name.to_string());
                if let Some(found) = self.read.in_file.get(&key) {
                    return Ok(found.clone());
                }
                let rows = read_syms(
                    conn,
                    select_syms!(
                        "FROM symbols s JOIN files f ON f.id = s.file_id
                         LEFT JOIN symbols p ON p.id = s.parent_symbol_id
                         WHERE s.file_id = ?1 AND s.name = ?2 ORDER BY s.id"
                    ),
                    &[&file, &name],
                )?;
                self.read.in_file.insert(key, rows.clone());
                Ok(rows)
            }
        }
    }

    /// The symbols named `name` at the top level of any of `files` (not Go's methods:
    /// defined at the top level, they are reached only through a value).
    fn top_in(&mut self, files: &HashSet<i64>, name: &str) -> rusqlite::Result<Vec<Sym>> {
        let mut ordered: Vec<i64> = files.iter().copied().collect();
        ordered.sort_unstable();
        let mut out = Vec::new();
        for file in ordered {
            out.extend(self.in_file(file, name)?);
        }
        out.retain(|s| s.scope == Scope::Top && s.kind != Some(SymbolKind::Method));
        Ok(out)
    }

    /// The file of the symbol `id`, named `name`.
    fn file_of(&mut self, name: &str, id: i64) -> rusqlite::Result<Option<i64>> {
        match self.source {
            Source::Memory { symbols, .. } => Ok(self
                .named(symbols, name)
                .all
                .iter()
                .find(|s| s.id == id)
                .map(|s| s.file)),
            Source::Db(conn) => conn
                .prepare_cached("SELECT file_id FROM symbols WHERE id = ?1")?
                .query_row([id], |r| r.get(0))
                .optional(),
        }
    }

    /// The members named `name` of types named `owner`, of `file`'s family.
    fn owned(&mut self, file: i64, name: &str, owner: &str) -> rusqlite::Result<Vec<Sym>> {
        let family = self.files.family(file)?;
        let found: &[Sym] = match self.source {
            Source::Memory { symbols, .. } => {
                let named = self.named(symbols, name);
                return Ok(named
                    .owned_by(owner)
                    .filter(|s| s.family == family)
                    .cloned()
                    .collect());
            }
            Source::Db(conn) => {
                let key = (name.to_string(), owner.to_string(), family);
                if !self.read.owned.contains_key(&key) {
                    // Members are under a type of that name (driven from the few
                    // symbols of the owner's name, not the many of the member's)…
                    let mut rows = read_syms(
                        conn,
                        select_syms!(
                            "FROM symbols p CROSS JOIN symbols s ON s.parent_symbol_id = p.id
                             JOIN files f ON f.id = s.file_id
                             WHERE p.name = ?1 AND s.name = ?2 ORDER BY s.id"
                        ),
                        &[&owner, &name],
                    )?;
                    // …except Go's methods, of their receiver's type.
                    if family == Family::Go {
                        rows.extend(read_syms(
                            conn,
                            select_syms!(
                                "FROM symbols s JOIN files f ON f.id = s.file_id
                                 LEFT JOIN symbols p ON p.id = s.parent_symbol_id
                                 WHERE s.name = ?1 AND s.kind = 'method' AND f.language = 'go'"
                            ),
                            &[&name],
                        )?);
                        rows.sort_by_key(|s| s.id);
                        rows.dedup_by_key(|s| s.id);
                    }
                    rows.retain(|s| {
                        s.family == family && matches!(&s.scope, Scope::Member(o) if &**o == owner)
                    });
                    self.read.owned.insert(key.clone(), rows);
                }
                &self.read.owned[&key]
            }
        };
        Ok(found.to_vec())
    }

    /// Whether some type of `file`'s family has a member named `name` that a reference
    /// of `kind` may mean (not a field for a value: reading a field is no use of a
    /// definition).
    fn any_member(&mut self, file: i64, name: &str, kind: RefKind) -> rusqlite::Result<bool> {
        let family = self.files.family(file)?;
        let fits = |s: &Sym| {
            s.family == family
                && matches!(s.scope, Scope::Member(_))
                && (kind != RefKind::Value || kind_fits(kind, s.kind))
        };
        match self.source {
            Source::Memory { symbols, .. } => {
                let named = self.named(symbols, name);
                Ok(named
                    .by_owner
                    .values()
                    .flatten()
                    .any(|i| fits(&named.all[*i])))
            }
            Source::Db(conn) => {
                let key = (name.to_string(), family, kind == RefKind::Value);
                if let Some(found) = self.read.any_member.get(&key) {
                    return Ok(*found);
                }
                let mut stmt = conn.prepare_cached(select_syms!(
                    "FROM symbols s JOIN files f ON f.id = s.file_id
                     LEFT JOIN symbols p ON p.id = s.parent_symbol_id
                     WHERE s.name = ?1 AND (s.parent_symbol_id IS NOT NULL OR s.kind = 'method')"
                ))?;
                let mut found = false;
                for s in stmt.query_map([name], sym_row)? {
                    if fits(&s?) {
                        found = true;
                        break;
                    }
                }
                self.read.any_member.insert(key, found);
                Ok(found)
            }
        }
    }

    /// What the reference from `file` to `name`, of `kind`, written through `qual`, means.
    pub(super) fn resolve(
        &mut self,
        file: i64,
        from: Option<i64>,
        name: &str,
        kind: RefKind,
        qual: Option<&str>,
    ) -> rusqlite::Result<Target> {
        let family = self.files.family(file)?;
        if family == Family::Other || !self.defined(name)? {
            return Ok(Target::External);
        }
        if kind == RefKind::Import {
            return self.import(file, name);
        }
        match qual {
            None => Ok(self
                .bare(file, from, name, kind)?
                .map_or(Target::External, |t| t)),
            Some("!") => self.macro_call(file, name),
            // `new X()`: the class, not a constructor or method of that name.
            Some("new()") => Ok(self
                .bare(file, from, name, RefKind::TypeRef)?
                .map_or(Target::External, |t| t)),
            Some("?") => self.of_value(file, name, kind),
            Some(q) => self.qualified(file, name, kind, q),
        }
    }

    /// An import's own name (`F` in `use a::F`): what the binding it made means.
    fn import(&mut self, file: i64, name: &str) -> rusqlite::Result<Target> {
        let bindings = self.bindings_of(file)?;
        let binding = bindings
            .iter()
            .find(|b| b.name.as_deref() == Some(name))
            .or_else(|| bindings.iter().find(|b| b.local == name));
        match binding {
            Some(b) => Ok(self
                .binding_target(file, b, RefKind::Import, 0)?
                .map_or(Target::External, |s| Target::Linked(s.id))),
            None => Ok(Target::External),
        }
    }

    /// A bare name; `None` when nothing in the file's reach defines it.
    fn bare(
        &mut self,
        file: i64,
        from: Option<i64>,
        name: &str,
        kind: RefKind,
    ) -> rusqlite::Result<Option<Target>> {
        let family = self.files.family(file)?;
        if family == Family::C {
            return self.bare_c(file, name, kind);
        }
        // 1. The file's own definitions that the reference sees: those at the top level
        // and those of the functions (and, with an implicit `this`, the classes) it is
        // written in, the innermost first — a fitting kind first; one of another kind is
        // the last resort, below.
        let chain = self.enclosing(file, from)?;
        let own = self.in_file(file, name)?;
        let depth = |s: &Sym| -> Option<usize> {
            let inner = s.parent.and_then(|p| chain.iter().position(|c| *c == p));
            match &s.scope {
                Scope::Top if s.kind != Some(SymbolKind::Method) => {
                    Some(inner.unwrap_or(chain.len()))
                }
                Scope::Local => inner,
                Scope::Member(_) if family.implicit_this() => inner,
                _ => None,
            }
        };
        // Python: of several definitions in one scope, the last one wins.
        let order = |s: &Sym| {
            if family == Family::Python {
                -s.id
            } else {
                s.id
            }
        };
        // Never meant: what a class extends is not itself nor what it is written in
        // (`class Visitor < Liquid::Visitor`, `class Foo(Foo)` after an import); a Ruby
        // call is not a class or module (`Array(x)` is Kernel's method).
        let never = |s: &Sym| {
            (kind == RefKind::Extends && chain.contains(&s.id))
                || (family == Family::Ruby
                    && kind == RefKind::Call
                    && matches!(s.kind, Some(SymbolKind::Class | SymbolKind::Mod)))
        };
        let own_best = own
            .iter()
            .filter(|s| s.kind != Some(SymbolKind::Impl) && !never(s))
            .filter(|s| kind != RefKind::Value || kind_fits(kind, s.kind))
            .filter_map(|s| depth(s).map(|d| (d, s)))
            .min_by_key(|(d, s)| (!kind_fits(kind, s.kind), *d, order(s)))
            .map(|(_, s)| s.clone());
        if let Some(s) = own_best.as_ref().filter(|s| kind_fits(kind, s.kind)) {
            return Ok(Some(Target::Linked(s.id)));
        }
        // 2. What an import binds to the name.
        let bindings = self.bindings_of(file)?;
        if let Some(b) = bindings.iter().find(|b| b.local == name) {
            return Ok(Some(
                self.binding_target(file, b, kind, 0)?
                    .map_or(Target::External, |s| Target::Linked(s.id)),
            ));
        }
        // 3. Glob imports and the file's package.
        let mut files: Vec<i64> = Vec::new();
        // (Rust's `use super::*` is nearly always a test module's, inside the file: the
        // file itself, seen above.)
        for b in bindings
            .iter()
            .filter(|b| b.local == "*" && b.module != "super")
        {
            files.extend(self.module_files(file, &b.module)?);
        }
        files.extend(self.package_files(file)?);
        let mut seen = None;
        if !files.is_empty() {
            let set: HashSet<i64> = files.iter().copied().collect();
            seen = self.lookup(&set, name, kind, 0)?;
            if let Some(s) = seen.as_ref().filter(|s| kind_fits(kind, s.kind)) {
                return Ok(Some(Target::Linked(s.id)));
            }
        }
        // Then one of another kind (a constructor-like call of a variable, say); not
        // for a value (a variable of that name is rather a local the index does not
        // see).
        if let Some(s) = own_best.or(seen.filter(|_| kind != RefKind::Value)) {
            return Ok(Some(Target::Linked(s.id)));
        }
        if family == Family::Ruby {
            // 4. The methods of the modules the file mixes in (`include M`).
            let mut mixed = Vec::new();
            for b in bindings.iter().filter(|b| b.local == "*") {
                mixed.extend(self.owned(file, name, &b.module)?);
            }
            mixed.retain(|s| !never(s) && kind_fits(kind, s.kind));
            if let Some(s) = best(mixed.iter(), kind) {
                return Ok(Some(Target::Linked(s.id)));
            }
        }
        // 5. One global namespace.
        if family == Family::Ruby {
            let top = self.candidates(file, name, None, |s| s.scope == Scope::Top && !never(s))?;
            let fitting: Vec<&Sym> = top.iter().filter(|s| kind_fits(kind, s.kind)).collect();
            return Ok(match fitting.as_slice() {
                [one] => Some(Target::Linked(one.id)),
                [] => None,
                _ => Some(Target::Ambiguous),
            });
        }
        Ok(None)
    }

    /// A bare name in C or C++: one global namespace, where conditional compilation
    /// may define a name more than once, or rename it with a macro, in some
    /// configurations (then the index cannot tell which is built: ambiguous). The
    /// definitions are looked for in the file, then in what it includes (and what that
    /// includes), then anywhere (those of a fitting kind only); the first place with any
    /// decides. Object-like macros are candidates beside the fitting kinds (`#define
    /// local static` used as a type, `#define zmemcpy memcpy` called). A macro that only renames
    /// (`#define deflate z_deflate`, as a build's prefix option does) is no candidate:
    /// the name written still means the definition it renames along.
    fn bare_c(&mut self, file: i64, name: &str, kind: RefKind) -> rusqlite::Result<Option<Target>> {
        let takes = |s: &Sym| {
            s.kind != Some(SymbolKind::Impl)
                && !s.rename
                && (kind_fits(kind, s.kind) || s.kind == Some(SymbolKind::Const))
        };
        let own: Vec<Sym> = self
            .in_file(file, name)?
            .into_iter()
            .filter(|s| takes(s))
            .collect();
        let included = self.includes_of(file)?;
        let mut there = self.top_in(&included, name)?;
        there.retain(|s| takes(s));
        for place in [own, there] {
            match place.as_slice() {
                [] => continue,
                [one] => return Ok(Some(Target::Linked(one.id))),
                _ => return Ok(Some(Target::Ambiguous)),
            }
        }
        let anywhere = self.candidates(file, name, None, |s| {
            s.scope == Scope::Top && kind_fits(kind, s.kind) && !s.rename
        })?;
        Ok(match anywhere.as_slice() {
            [] => None,
            [one] => Some(Target::Linked(one.id)),
            _ => Some(Target::Ambiguous),
        })
    }

    /// What a C file includes, and what that includes, to a depth of [`MAX_DEPTH`]
    /// (the file itself left out).
    fn includes_of(&mut self, file: i64) -> rusqlite::Result<Rc<HashSet<i64>>> {
        if let Some(found) = self.includes.get(&file) {
            return Ok(found.clone());
        }
        let bindings = self.bindings_of(file)?;
        let included = Rc::new(self.reached(file, &bindings)?);
        self.includes.insert(file, included.clone());
        Ok(included)
    }

    /// The files `file` includes or glob-imports by `bindings` (some of its own), and
    /// what those include or glob-import, to a depth of [`MAX_DEPTH`] (`file` left out).
    pub(super) fn reached(
        &mut self,
        file: i64,
        bindings: &[Binding],
    ) -> rusqlite::Result<HashSet<i64>> {
        let mut reached: HashSet<i64> = HashSet::new();
        let mut frontier = Vec::new();
        for b in bindings.iter().filter(|b| b.local == "*") {
            for g in self.module_files(file, &b.module)? {
                if g != file && reached.insert(g) {
                    frontier.push(g);
                }
            }
        }
        for _ in 1..MAX_DEPTH {
            let mut next = Vec::new();
            for f in frontier {
                for b in self.bindings_of(f)?.iter().filter(|b| b.local == "*") {
                    for g in self.module_files(f, &b.module)? {
                        if g != file && reached.insert(g) {
                            next.push(g);
                        }
                    }
                }
            }
            frontier = next;
        }
        Ok(reached)
    }

    /// The files of `file`'s package that it sees without an import (Go and Java: its
    /// directory).
    fn package_files(&mut self, file: i64) -> rusqlite::Result<Vec<i64>> {
        let family = self.files.family(file)?;
        if !matches!(family, Family::Go | Family::Java) {
            return Ok(Vec::new());
        }
        let rel = self.files.rel(file)?;
        let mut out = self.files.in_dirs_of(&[dir_of(&rel).to_string()], family)?;
        out.retain(|id| *id != file);
        Ok(out)
    }

    /// `name` defined at the top level of one of `files`, or brought there by an import
    /// (a re-export: `pub use`, `from .a import f` in `__init__.py`, `export … from`).
    fn lookup(
        &mut self,
        files: &HashSet<i64>,
        name: &str,
        kind: RefKind,
        depth: usize,
    ) -> rusqlite::Result<Option<Sym>> {
        let top = self.top_in(files, name)?;
        if let Some(s) = best(top.iter(), kind) {
            return Ok(Some(s.clone()));
        }
        // Only Rust (`pub use`), Python (a package's `__init__` imports) and TypeScript
        // (`export … from`) pass names on; Java's, Go's and C's imports are the file's
        // own.
        let mut ordered: Vec<i64> = files.iter().copied().collect();
        ordered.sort_unstable();
        let passes_on = match ordered.first() {
            Some(f) => matches!(
                self.files.family(*f)?,
                Family::Rust | Family::Python | Family::Ts
            ),
            None => false,
        };
        if depth >= MAX_DEPTH || !passes_on {
            return Ok(None);
        }
        for f in &ordered {
            let bindings = self.bindings_of(*f)?;
            if let Some(b) = bindings.iter().find(|b| b.local == name)
                && let Some(s) = self.binding_target(*f, b, kind, depth + 1)?
            {
                return Ok(Some(s));
            }
        }
        for f in &ordered {
            for b in self.bindings_of(*f)?.iter().filter(|b| b.local == "*") {
                let inner: HashSet<i64> = self.module_files(*f, &b.module)?.into_iter().collect();
                if !inner.is_empty()
                    && !inner.is_subset(files)
                    && let Some(s) = self.lookup(&inner, name, kind, depth + 1)?
                {
                    return Ok(Some(s));
                }
            }
        }
        Ok(None)
    }

    /// The symbol a binding of `file` stands for, when it is one of the repository's.
    fn binding_target(
        &mut self,
        file: i64,
        b: &Binding,
        kind: RefKind,
        depth: usize,
    ) -> rusqlite::Result<Option<Sym>> {
        let Some(name) = b.name.as_deref() else {
            return Ok(None);
        };
        let files: HashSet<i64> = self.module_files(file, &b.module)?.into_iter().collect();
        if files.is_empty() {
            return Ok(None);
        }
        let name = if name == "default" {
            b.local.as_str()
        } else {
            name
        };
        let found = self.lookup(&files, name, kind, depth)?;
        if found.is_none() && self.files.family(file)? == Family::Java {
            // A static import: a member of the class the file defines.
            let mut ordered: Vec<i64> = files.into_iter().collect();
            ordered.sort_unstable();
            let mut members = Vec::new();
            for f in ordered {
                members.extend(
                    self.in_file(f, name)?
                        .into_iter()
                        .filter(|s| matches!(s.scope, Scope::Member(_))),
                );
            }
            return Ok(best(members.iter(), kind).cloned());
        }
        Ok(found)
    }

    /// A Rust macro (`name!`): one defined in the same crate.
    fn macro_call(&mut self, file: i64, name: &str) -> rusqlite::Result<Target> {
        let own = self.rust_crate_dir(file)?;
        let macros =
            self.candidates(file, name, Some(SymbolKind::Fn), |s| s.scope == Scope::Top)?;
        let mut same_crate: Vec<&Sym> = Vec::new();
        for s in &macros {
            if self.rust_crate_dir(s.file)? == own {
                same_crate.push(s);
            }
        }
        Ok(match same_crate.as_slice() {
            [] => Target::External,
            [one] => Target::Linked(one.id),
            _ => Target::Ambiguous,
        })
    }

    /// A member of a value whose type is unknown.
    fn of_value(&mut self, file: i64, name: &str, kind: RefKind) -> rusqlite::Result<Target> {
        Ok(if self.any_member(file, name, kind)? {
            Target::Ambiguous
        } else {
            Target::External
        })
    }

    /// A name reached through a path or receiver `qual` (`a.b`).
    fn qualified(
        &mut self,
        file: i64,
        name: &str,
        kind: RefKind,
        qual: &str,
    ) -> rusqlite::Result<Target> {
        let segments: Vec<&str> = qual.split('.').collect();
        if let Some(files) = self.module_of_path(file, &segments, 0)? {
            let set: HashSet<i64> = files.into_iter().collect();
            if set.is_empty() {
                return Ok(Target::External);
            }
            return Ok(self
                .lookup(&set, name, kind, 0)?
                .map_or(Target::External, |s| Target::Linked(s.id)));
        }
        let family = self.files.family(file)?;
        if family == Family::Rust
            && segments.len() > 1
            && self
                .rust_module(file, &segments[..segments.len() - 1], 0)?
                .is_none()
        {
            // `fs::DirEntry::f`: a type of a module outside the repository.
            return Ok(Target::External);
        }
        let ty = segments.last().copied().unwrap_or(qual);
        let looks_like_type = ty.starts_with(|c: char| c.is_uppercase());
        let mut owned = self.owned(file, name, ty)?;
        if kind == RefKind::Value && !owned.is_empty() {
            // A field read is no use of a definition.
            owned.retain(|s| kind_fits(kind, s.kind));
            if owned.is_empty() {
                return Ok(Target::External);
            }
        }
        if family == Family::Python && segments.len() == 1 {
            // Of a class's several definitions of a name (a property's getter and
            // setter), the last one wins.
            owned.sort_by_key(|s| std::cmp::Reverse(s.id));
            owned.dedup_by_key(|s| s.file);
        }
        if owned.is_empty() && family == Family::Rust {
            // A Rust path (`a::b::f`, `Type::f`) is never a value: not a module of the
            // repository nor a member of one of its types, it is outside (another
            // crate, the standard library, a trait's provided method).
            return Ok(Target::External);
        }
        if owned.is_empty() {
            // A value's member, or a type's defined elsewhere (a trait, a base class,
            // the standard library): ambiguous if some type defines a member of that
            // name.
            return self.of_value(file, name, kind);
        }
        if segments.len() > 1 && !looks_like_type {
            // `a.b.f()` where `a.b` is a value (a field of `a`).
            return Ok(Target::Ambiguous);
        }
        if let [one] = owned.as_slice() {
            return Ok(Target::Linked(one.id));
        }
        // Several types of that name own one: the type this file reaches.
        if let Some(Target::Linked(type_id)) = self.bare(file, None, ty, RefKind::TypeRef)?
            && let Some(type_file) = self.file_of(ty, type_id)?
        {
            let near: Vec<&Sym> = owned.iter().filter(|s| s.file == type_file).collect();
            if let Some(s) = best(near.into_iter(), kind) {
                return Ok(Target::Linked(s.id));
            }
            // Rust: an `impl` of that type elsewhere in its crate.
            let krate = self.rust_crate_dir(type_file)?;
            if krate.is_some() {
                let mut in_crate = Vec::new();
                for s in &owned {
                    if self.rust_crate_dir(s.file)? == krate {
                        in_crate.push(s.clone());
                    }
                }
                let methods: HashSet<i64> = in_crate.iter().map(|s| s.file).collect();
                if !in_crate.is_empty() && (methods.len() == 1 || in_crate.len() == 1) {
                    return Ok(best(in_crate.iter(), kind)
                        .map_or(Target::Ambiguous, |s| Target::Linked(s.id)));
                }
            }
        }
        Ok(Target::Ambiguous)
    }

    /// The files of the module a path names (`crate::a::b`, an imported module's alias
    /// and what follows it), or `None` when the path is not a module.
    fn module_of_path(
        &mut self,
        file: i64,
        segments: &[&str],
        depth: usize,
    ) -> rusqlite::Result<Option<Vec<i64>>> {
        let Some(first) = segments.first().copied() else {
            return Ok(None);
        };
        let family = self.files.family(file)?;
        if family == Family::Rust {
            return Ok(self
                .rust_module(file, segments, depth)?
                .and_then(|(module, rest)| rest.is_empty().then_some(module)));
        }
        let bindings = self.bindings_of(file)?;
        let Some(b) = bindings.iter().find(|b| b.local == first) else {
            return Ok(None);
        };
        let rest = &segments[1..];
        let module = match (family, b.name.as_deref()) {
            (Family::Python, Some(name)) => {
                let sep = if b.module.ends_with('.') { "" } else { "." };
                format!("{}{sep}{name}", b.module)
            }
            (Family::Python | Family::Ts | Family::Go, None) => b.module.clone(),
            _ => return Ok(None),
        };
        let module = match family {
            Family::Python if !rest.is_empty() => format!("{module}.{}", rest.join(".")),
            _ if !rest.is_empty() => return Ok(None),
            _ => module,
        };
        let files = self.module_files(file, &module)?;
        Ok((!files.is_empty()).then_some(files))
    }

    /// The files a module written in `file` names, by the file's family.
    fn module_files(&mut self, file: i64, module: &str) -> rusqlite::Result<Vec<i64>> {
        let key = (file, module.to_string());
        if let Some(found) = self.modules.get(&key) {
            return Ok(found.clone());
        }
        let from = self.files.rel(file)?;
        let found = match self.files.family(file)? {
            Family::Python => self.python_module(&from, module)?,
            Family::Ts => self.ts_module(&from, module)?,
            Family::Go => self.go_package(module)?,
            Family::Java => self.java_module(&from, module)?,
            Family::C => self.c_include(&from, module)?,
            Family::Rust => {
                let segments: Vec<&str> = module.split("::").filter(|s| !s.is_empty()).collect();
                self.rust_module(file, &segments, 0)?
                    .and_then(|(files, rest)| rest.is_empty().then_some(files))
                    .unwrap_or_default()
            }
            Family::Ruby | Family::Other => Vec::new(),
        };
        self.modules.insert(key, found.clone());
        Ok(found)
    }

    fn python_module(&mut self, from: &str, module: &str) -> rusqlite::Result<Vec<i64>> {
        let dots = module.chars().take_while(|c| *c == '.').count();
        let rest = &module[dots..];
        let parts: Vec<&str> = rest.split('.').filter(|p| !p.is_empty()).collect();
        if dots > 0 {
            let mut dir = dir_of(from).to_string();
            for _ in 1..dots {
                dir = dir_of(&dir).to_string();
            }
            let base = join(&dir, &parts.join("/"));
            for p in [format!("{base}.py"), join(&base, "__init__.py")] {
                if let Some(id) = normalize(&p).map_or(Ok(None), |p| self.files.id_of(&p))? {
                    return Ok(vec![id]);
                }
            }
            return Ok(Vec::new());
        }
        let Some(last) = parts.last() else {
            return Ok(Vec::new());
        };
        let path = parts.join("/");
        let found = self
            .files
            .nearest_with_suffix(last, &format!("{path}.py"), from)?;
        if !found.is_empty() {
            return Ok(found);
        }
        self.files
            .nearest_with_suffix(last, &format!("{path}/__init__.py"), from)
    }

    fn ts_module(&mut self, from: &str, module: &str) -> rusqlite::Result<Vec<i64>> {
        if !module.starts_with('.') {
            return Ok(Vec::new());
        }
        let Some(base) = normalize(&join(dir_of(from), module)) else {
            return Ok(Vec::new());
        };
        let stripped = [".js", ".jsx", ".mjs", ".cjs"]
            .iter()
            .find_map(|ext| base.strip_suffix(ext));
        let mut tries = vec![base.clone()];
        let exts = ["ts", "tsx", "d.ts", "js", "jsx", "mjs", "cjs", "mts", "cts"];
        for stem in [Some(base.as_str()), stripped].into_iter().flatten() {
            for ext in exts {
                tries.push(format!("{stem}.{ext}"));
            }
        }
        for ext in exts {
            tries.push(format!("{base}/index.{ext}"));
        }
        for p in &tries {
            if let Some(id) = self.files.id_of(p)? {
                return Ok(vec![id]);
            }
        }
        Ok(Vec::new())
    }

    fn go_package(&mut self, module: &str) -> rusqlite::Result<Vec<i64>> {
        // A standard library path (`net/http`) has no dot in its first segment; a
        // module's own packages are matched by at least their last two segments, or by
        // the whole path.
        let dotted = module.split('/').next().is_some_and(|s| s.contains('.'));
        let parts = module.split('/').count();
        let min = if dotted { 1 } else { parts.clamp(1, 2) };
        let dirs = self.files.dirs_ending(module, min)?;
        self.files.in_dirs_of(&dirs, Family::Go)
    }

    fn java_module(&mut self, from: &str, module: &str) -> rusqlite::Result<Vec<i64>> {
        let path = module.replace('.', "/");
        let last = path.rsplit('/').next().unwrap_or(&path).to_string();
        let class = self
            .files
            .nearest_with_suffix(&last, &format!("{path}.java"), from)?;
        if !class.is_empty() {
            return Ok(class);
        }
        // A package (`import a.b.*`).
        let dirs = self.files.dirs_ending(&path, path.split('/').count())?;
        self.files.in_dirs_of(&dirs, Family::Java)
    }

    fn c_include(&mut self, from: &str, module: &str) -> rusqlite::Result<Vec<i64>> {
        if let Some(p) = normalize(&join(dir_of(from), module))
            && let Some(id) = self.files.id_of(&p)?
        {
            return Ok(vec![id]);
        }
        let name = module.rsplit('/').next().unwrap_or(module);
        let stem = name.split('.').next().unwrap_or(name);
        self.files.nearest_with_suffix(stem, module, from)
    }

    // ── Rust ──

    /// The crate name of the package whose `Cargo.toml` is in `dir`, if there is one.
    fn package_at(&mut self, dir: &str) -> Option<String> {
        if let Some(found) = self.packages.get(dir) {
            return found.clone();
        }
        let manifest = self.root.join(dir).join("Cargo.toml");
        let name = std::fs::read_to_string(manifest)
            .ok()
            .map(|text| crate_name(&text).unwrap_or_default());
        self.packages.insert(dir.to_string(), name.clone());
        name
    }

    /// The crate `file` belongs to (found once per file).
    fn rust_crate_of(&mut self, file: i64) -> rusqlite::Result<Option<Crate>> {
        if let Some(found) = self.crate_of.get(&file) {
            return Ok(found.clone());
        }
        let found = self.find_crate_of(file)?;
        self.crate_of.insert(file, found.clone());
        Ok(found)
    }

    /// The directory of the crate `file` belongs to.
    fn rust_crate_dir(&mut self, file: i64) -> rusqlite::Result<Option<String>> {
        Ok(self.rust_crate_of(file)?.map(|c| c.dir))
    }

    fn find_crate_of(&mut self, file: i64) -> rusqlite::Result<Option<Crate>> {
        let rel = self.files.rel(file)?;
        let mut dir = dir_of(&rel).to_string();
        loop {
            if self.package_at(&dir).is_some() {
                break;
            }
            if dir.is_empty() {
                return self.crate_without_package(&rel);
            }
            dir = dir_of(&dir).to_string();
        }
        let under = rel
            .strip_prefix(&dir)
            .map(|r| r.trim_start_matches('/'))
            .unwrap_or(&rel);
        let target_dir = under.split('/').next().unwrap_or("");
        let src = join(&dir, "src");
        match target_dir {
            "src" if !under.starts_with("src/bin/") => {
                for f in ["lib.rs", "main.rs"] {
                    let root = join(&src, f);
                    if self.files.id_of(&root)?.is_some() {
                        return Ok(Some(Crate { dir: src, root }));
                    }
                }
                Ok(None)
            }
            // `tests/x.rs`, `src/bin/x.rs`, `examples/x/main.rs`: each its own crate.
            _ => {
                let base = if under.starts_with("src/bin/") {
                    join(&dir, "src/bin")
                } else {
                    join(&dir, target_dir)
                };
                let Some(inner) = rel.strip_prefix(&base) else {
                    return Ok(None);
                };
                let root = match inner.trim_start_matches('/').split_once('/') {
                    Some((sub, _)) => join(&join(&base, sub), "main.rs"),
                    None => rel.clone(),
                };
                Ok(Some(Crate {
                    dir: dir_of(&root).to_string(),
                    root,
                }))
            }
        }
    }

    /// A crate for a file with no `Cargo.toml` above it: the nearest `lib.rs` or
    /// `main.rs` up its directories.
    fn crate_without_package(&mut self, rel: &str) -> rusqlite::Result<Option<Crate>> {
        let mut dir = dir_of(rel);
        loop {
            for f in ["lib.rs", "main.rs"] {
                let root = join(dir, f);
                if self.files.id_of(&root)?.is_some() {
                    return Ok(Some(Crate {
                        dir: dir.to_string(),
                        root,
                    }));
                }
            }
            if dir.is_empty() {
                return Ok(None);
            }
            dir = dir_of(dir);
        }
    }

    /// The crates of the repository by name, from the packages above its Rust files.
    fn crate_named(&mut self, name: &str) -> rusqlite::Result<Option<Crate>> {
        if self.crates.is_none() {
            let mut out = HashMap::new();
            for dir in self.files.rust_dirs()? {
                if let Some(name) = self.package_at(&dir).filter(|n| !n.is_empty()) {
                    let src = join(&dir, "src");
                    let root = join(&src, "lib.rs");
                    if self.files.id_of(&root)?.is_some() {
                        out.insert(name, Crate { dir: src, root });
                    }
                }
            }
            self.crates = Some(out);
        }
        Ok(self.crates.as_ref().and_then(|c| c.get(name)).cloned())
    }

    /// The module path of `rel` in its crate (`code/db` for `core/src/code/db.rs`).
    fn rust_module_of(krate: &Crate, rel: &str) -> Vec<String> {
        if rel == krate.root {
            return Vec::new();
        }
        let inner = rel
            .strip_prefix(&krate.dir)
            .map(|r| r.trim_start_matches('/'))
            .unwrap_or(rel);
        let inner = inner.strip_suffix(".rs").unwrap_or(inner);
        let inner = inner.strip_suffix("/mod").unwrap_or(inner);
        inner
            .split('/')
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect()
    }

    /// The file of module `path` of `krate`, if it is a file of the index.
    fn rust_module_file(
        &mut self,
        krate: &Crate,
        path: &[String],
    ) -> rusqlite::Result<Option<i64>> {
        if path.is_empty() {
            return self.files.id_of(&krate.root);
        }
        let base = join(&krate.dir, &path.join("/"));
        for p in [format!("{base}.rs"), format!("{base}/mod.rs")] {
            if let Some(id) = self.files.id_of(&p)? {
                return Ok(Some(id));
            }
        }
        Ok(None)
    }

    /// Follow a Rust path from `file` through modules: the files of the last module it
    /// reaches and the segments left (an item, then its members). `None` when the path
    /// does not start in the repository (another crate, the standard library).
    fn rust_module(
        &mut self,
        file: i64,
        segments: &[&str],
        depth: usize,
    ) -> rusqlite::Result<Option<(Vec<i64>, Vec<String>)>> {
        let Some(krate) = self.rust_crate_of(file)? else {
            return Ok(None);
        };
        let Some(first) = segments.first().copied() else {
            return Ok(None);
        };
        let rel = self.files.rel(file)?;
        let here = Self::rust_module_of(&krate, &rel);
        let (krate, mut path, mut rest): (Crate, Vec<String>, &[&str]) = match first {
            "crate" => (krate, Vec::new(), &segments[1..]),
            "self" => (krate, here, &segments[1..]),
            "super" => {
                let mut path = here;
                let mut rest = segments;
                while rest.first() == Some(&"super") {
                    path.pop();
                    rest = &rest[1..];
                }
                (krate, path, rest)
            }
            _ => {
                let bindings = self.bindings_of(file)?;
                if let Some(b) = bindings.iter().find(|b| b.local == first)
                    && depth < MAX_DEPTH
                {
                    // `use a::b;` then `b::f`: the path through the binding.
                    let mut full: Vec<&str> =
                        b.module.split("::").filter(|s| !s.is_empty()).collect();
                    if let Some(name) = b.name.as_deref() {
                        full.push(name);
                    }
                    full.extend_from_slice(&segments[1..]);
                    return self.rust_module(file, &full, depth + 1);
                }
                let mut child = here.clone();
                child.push(first.to_string());
                if self.rust_module_file(&krate, &child)?.is_some() {
                    (krate, child, &segments[1..])
                } else if matches!(first, "std" | "core" | "alloc" | "proc_macro" | "test") {
                    // The standard library: no need to read every manifest to know.
                    return Ok(None);
                } else if let Some(other) = self.crate_named(first)? {
                    (other, Vec::new(), &segments[1..])
                } else {
                    return Ok(None);
                }
            }
        };
        while let Some(next) = rest.first() {
            let mut child = path.clone();
            child.push(next.to_string());
            if self.rust_module_file(&krate, &child)?.is_none() {
                break;
            }
            path = child;
            rest = &rest[1..];
        }
        let files: Vec<i64> = self.rust_module_file(&krate, &path)?.into_iter().collect();
        Ok(Some((files, rest.iter().map(|s| s.to_string()).collect())))
    }
}

/// The crate name a `Cargo.toml` gives (`[lib] name`, else `[package] name`), with `-`
/// as `_`; `None` for a manifest without a package (a workspace root).
fn crate_name(manifest: &str) -> Option<String> {
    let mut section = "";
    let (mut package, mut lib) = (None, None);
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            section = line;
            continue;
        }
        let Some(value) = line
            .strip_prefix("name")
            .map(str::trim_start)
            .and_then(|v| v.strip_prefix('='))
        else {
            continue;
        };
        let value = value.trim().trim_matches('"').replace('-', "_");
        match section {
            "[package]" => package = Some(value),
            "[lib]" => lib = Some(value),
            _ => {}
        }
    }
    lib.or(package)
}

/// The bindings the index holds for `file`, in the order written.
pub(super) fn read_bindings(conn: &Connection, file: i64) -> rusqlite::Result<Vec<Binding>> {
    conn.prepare_cached(
        "SELECT local, module, name FROM file_bindings WHERE file_id = ?1 ORDER BY rowid",
    )?
    .query_map([file], |r| {
        Ok(Binding {
            local: r.get(0)?,
            module: r.get(1)?,
            name: r.get(2)?,
        })
    })?
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crate_names_come_from_the_lib_or_the_package() {
        assert_eq!(
            crate_name("[package]\nname = \"cc-search\"\n[lib]\ncrate-type = []\n"),
            Some("cc_search".into())
        );
        assert_eq!(
            crate_name("[package]\nname = \"a\"\n[lib]\nname = \"b_lib\"\n"),
            Some("b_lib".into())
        );
        assert_eq!(crate_name("[workspace]\nmembers = []\n"), None);
    }

    /// An incremental run looks files up in the database by the generated columns of
    /// schema 6; a cold run in memory by [`Files::add`]. Both must find the same files.
    #[test]
    fn files_are_found_alike_in_memory_and_in_the_database() {
        let dir = tempfile::tempdir().unwrap();
        let conn = crate::store::open(
            &dir.path().join("code.db"),
            crate::code::db::SCHEMA,
            &mut Vec::new(),
        )
        .unwrap();
        let paths = [
            ("a.rs", "rust"),
            ("mod.rs", "rust"),
            ("src/lib.rs", "rust"),
            ("src/mod.rs", "rust"),
            ("srcx/a.rs", "rust"),
            ("crates/foo/src/lib.rs", "rust"),
            ("crates/foo/src/a/src/b.rs", "rust"),
            ("a/b/c.d.ts", "typescript"),
            ("a/b/index.ts", "typescript"),
            ("x/__init__.py", "python"),
            (".eslintrc.js", "javascript"),
            ("é/ü/ñ.py", "python"),
            ("pkg/go/x.go", "go"),
            ("deep/pkg/go/y.go", "go"),
            ("deep/pkg/go/README", "other"),
        ];
        for (rel, language) in paths {
            conn.execute(
                "INSERT INTO files (rel_path, language, hash, mtime, size, indexed_at) VALUES (?1, ?2, '', 0, 0, 0)",
                [rel, language],
            )
            .unwrap();
        }
        let rows: Vec<(i64, String, String)> = conn
            .prepare("SELECT id, rel_path, language FROM files ORDER BY id")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        let mut memory = Files::new(
            rows.iter()
                .map(|(id, rel, language)| (*id, rel.as_str(), Family::of(language))),
        );
        let mut db = Files::read(&conn);
        let mut keys: Vec<&str> = paths.iter().map(|(rel, _)| file_key(rel)).collect();
        keys.extend(["src", "b", "x", "nothing"]);
        for key in keys {
            assert_eq!(
                memory.keyed(key).unwrap(),
                db.keyed(key).unwrap(),
                "key {key}"
            );
        }
        let dirs = ["", "src", "a/b", "pkg/go", "deep/pkg/go", "é/ü", "nowhere"];
        for d in dirs {
            assert_eq!(memory.in_dir(d).unwrap(), db.in_dir(d).unwrap(), "dir {d}");
        }
        for name in ["src", "b", "go", "ü", "pkg", "nothing"] {
            assert_eq!(
                memory.dirs_named(name).unwrap(),
                db.dirs_named(name).unwrap(),
                "directories named {name}"
            );
        }
        for (rel, _) in paths {
            assert_eq!(memory.id_of(rel).unwrap(), db.id_of(rel).unwrap(), "{rel}");
        }
        assert_eq!(db.id_of("a/b/c.ts").unwrap(), None);
        assert_eq!(memory.rust_dirs().unwrap(), db.rust_dirs().unwrap());
        assert_eq!(
            db.rust_dirs().unwrap(),
            ["", "crates/foo"].map(String::from).to_vec()
        );
        let x = db.id_of("pkg/go/x.go").unwrap().unwrap();
        assert_eq!(
            db.nearest_with_suffix("x", "go/x.go", "deep/pkg/go/y.go")
                .unwrap(),
            [x]
        );
        let index = db.id_of("a/b/index.ts").unwrap().unwrap();
        assert!(
            db.keyed("b").unwrap().contains(&index),
            "index.ts is found by its directory"
        );
        assert_eq!(db.keyed("ñ").unwrap().len(), 1);
        assert_eq!(db.dirs_named("go").unwrap(), ["deep/pkg/go", "pkg/go"]);
    }

    #[test]
    fn paths_normalize_within_the_root() {
        assert_eq!(normalize("a/./b/../c").as_deref(), Some("a/c"));
        assert_eq!(normalize("../x"), None);
    }
}
