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
//! The logic of scope is here, the same for every language; where languages differ, it
//! asks the family's [`LanguageLinker`] (in `code/lang/<language>/link.rs`): for a
//! property (a method calls its siblings bare, a package is a directory, imports pass
//! names on, …) or for the files a module names. The rules:
//!
//! - **All**: only symbols of the same language family (TypeScript and JavaScript are
//!   one, C and C++ are one).
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

use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;

use rusqlite::Connection;

use crate::code::extract::{Binding, last_segment, uses_of};
use crate::code::lang::cfamily::config::{self, Holds, Macro};
use crate::code::lang::{Family, LanguageLinker, Modules, Reach, dir_of, is_directory_file};
use crate::code::{RefKind, SymbolKind};

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
    /// as [`Scope::under`], except for a member of a type other than its parent (see
    /// [`LanguageLinker::owner`]: a Go method, a Ruby module's function).
    pub(super) fn of(
        family: Family,
        parent: Option<(SymbolKind, &str)>,
        kind: Option<SymbolKind>,
        signature: Option<&str>,
    ) -> Scope {
        match family.rules().owner(parent, kind, signature) {
            Some(owner) => Scope::Member(Arc::from(owner)),
            None => Scope::under(parent),
        }
    }
}

/// A symbol that may be a reference's target.
#[derive(Debug, Clone)]
pub(super) struct Sym {
    pub(super) id: i64,
    pub(super) file: i64,
    /// Its first line.
    pub(super) line: u32,
    /// Its file's family.
    pub(super) family: Family,
    pub(super) kind: Option<SymbolKind>,
    pub(super) scope: Scope,
    /// The symbol it is defined in.
    pub(super) parent: Option<i64>,
    /// A macro that renames (C's `#define deflate z_deflate`): what is written with its
    /// name means what it would without the macro ([`LanguageLinker::is_rename`]).
    pub(super) rename: bool,
    /// The type of the value it gives, as its definition writes it
    /// ([`LanguageLinker::gives`]).
    pub(super) gives: Option<Arc<str>>,
    /// The types it extends and implements ([`LanguageLinker::bases`]).
    pub(super) bases: Bases,
    /// The method of its class it only names another name of
    /// ([`LanguageLinker::alias_of`]).
    pub(super) alias_of: Option<Arc<str>>,
    /// A method a call makes ([`LanguageLinker::made_by_call`]): the last choice among
    /// a scope's definitions of the name.
    pub(super) made: bool,
    /// A method of the class itself, not of its instances
    /// ([`LanguageLinker::of_class`]).
    pub(super) of_class: bool,
    /// For a class (or a Ruby module), the fields of known class its methods assign, as
    /// stored (`name qualifier`, one a line: see [`Linker::field_assigned`]).
    pub(super) fields: Option<Arc<str>>,
    /// For a class (or a Ruby module), the members its methods call on each value of
    /// no known class, as stored (`name use use`, one a line: see
    /// [`Linker::pooled_uses`]).
    pub(super) uses: Option<Arc<str>>,
    /// The conditions under which it is compiled (C's `#if`s: see
    /// [`LanguageExtractor::guard`](crate::code::extract::LanguageExtractor::guard)).
    pub(super) guard: Option<Arc<str>>,
    /// For a macro's definition (C's `#define`), the integer it stands for when it is
    /// one: what a condition naming the macro reads ([`macro_def`]).
    pub(super) macro_def: Option<Option<i64>>,
}

/// A class whose instances' members are looked up ([`Linker::class_of_instance`]).
struct Instance<'c> {
    class: &'c Sym,
    /// Its name.
    ty: Arc<str>,
    /// It, where it is reopened, with what each extends.
    defined: Vec<TypeBases>,
}

/// The types a symbol extends and implements, None for none (most symbols: nothing is
/// allocated for them).
pub(super) type Bases = Option<Arc<[Arc<str>]>>;

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
        .min_by_key(|s| {
            (
                !kind_fits(ref_kind, s.kind),
                s.scope != Scope::Top,
                s.made,
                s.id,
            )
        })
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
    /// Files by stem (`db` for `src/db.rs`), and by directory for the files that stand
    /// for it ([`LanguageLinker::directory_files`]: `mod.rs`, `__init__.py`, …).
    by_key: HashMap<String, Vec<i64>>,
}

/// The key a file is found by (see [`Files::by_key`]): as the `key` column of schema 6
/// computes it.
fn file_key(rel: &str) -> &str {
    let dir = dir_of(rel);
    let name = rel.rsplit('/').next().unwrap_or(rel);
    let stem = name.split('.').next().unwrap_or(name);
    if is_directory_file(stem) && !dir.is_empty() {
        dir.rsplit('/').next().unwrap_or(dir)
    } else {
        stem
    }
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
                self.info.insert(file, (String::new(), Family::NONE));
            }
        }
        Ok(self.info.get(&file))
    }

    pub(super) fn family(&mut self, file: i64) -> rusqlite::Result<Family> {
        Ok(self.info(file)?.map_or(Family::NONE, |(_, f)| *f))
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

    /// The paths of the files of `family`, in no order (none for [`Family::NONE`]).
    fn paths_of(&mut self, family: Family) -> rusqlite::Result<Vec<String>> {
        if !family.links() {
            return Ok(Vec::new());
        }
        let Some(conn) = self.db else {
            return Ok(self
                .info
                .values()
                .filter(|(_, f)| *f == family)
                .map(|(rel, _)| rel.clone())
                .collect());
        };
        let (a, b) = family.languages();
        conn.prepare_cached("SELECT rel_path FROM files WHERE language IN (?1, ?2)")?
            .query_map([a, b], |r| r.get(0))?
            .collect()
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

/// The repository as module resolution reads it ([`Reach`]): its files, and each file's
/// bindings as read (from the database, or from memory) on first use — shared, not
/// copied, by every reference of the file.
struct Repo<'a> {
    files: Files<'a>,
    source: Source<'a>,
    root: PathBuf,
    bindings: HashMap<i64, Rc<[Binding]>>,
}

impl Reach for Repo<'_> {
    fn root(&self) -> &Path {
        &self.root
    }

    fn family(&mut self, file: i64) -> rusqlite::Result<Family> {
        self.files.family(file)
    }

    fn rel(&mut self, file: i64) -> rusqlite::Result<String> {
        self.files.rel(file)
    }

    fn id_of(&mut self, rel: &str) -> rusqlite::Result<Option<i64>> {
        self.files.id_of(rel)
    }

    fn nearest_with_suffix(
        &mut self,
        key: &str,
        suffix: &str,
        from: &str,
    ) -> rusqlite::Result<Vec<i64>> {
        self.files.nearest_with_suffix(key, suffix, from)
    }

    fn dirs_ending(&mut self, suffix: &str, min: usize) -> rusqlite::Result<Vec<String>> {
        self.files.dirs_ending(suffix, min)
    }

    fn in_dirs_of(&mut self, dirs: &[String], family: Family) -> rusqlite::Result<Vec<i64>> {
        self.files.in_dirs_of(dirs, family)
    }

    fn paths_of(&mut self, family: Family) -> rusqlite::Result<Vec<String>> {
        self.files.paths_of(family)
    }

    fn bindings_of(&mut self, file: i64) -> rusqlite::Result<Rc<[Binding]>> {
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
}

/// Where symbols and bindings come from: the run's memory (a cold run) or the database
/// (read as needed).
#[derive(Clone, Copy)]
pub(super) enum Source<'a> {
    Memory {
        symbols: &'a HashMap<String, Vec<Sym>>,
        bindings: &'a HashMap<i64, Vec<Binding>>,
        /// Each symbol's parent, for those that have one.
        parents: &'a HashMap<i64, i64>,
        /// The names of the type-like symbols, by id.
        types: &'a HashMap<i64, Arc<str>>,
        /// The methods that are their class's own ([`Sym::of_class`]).
        class_methods: &'a HashSet<i64>,
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
    /// In how many namespaces a class or module of a name is defined, by family.
    namespaces: HashMap<(String, Family), usize>,
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
            "SELECT s.id, s.file_id, s.kind, p.kind, p.name, s.signature, f.language, s.parent_symbol_id, s.guard, s.gives, s.line_start, s.mixins, s.of_class, s.fields, s.uses ",
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
    let scope = Scope::of(family, parent, kind, signature.as_deref());
    let guard: Option<String> = r.get(8)?;
    let gives: Option<String> = r.get(9)?;
    let mixins: Option<String> = r.get(11)?;
    let fields: Option<String> = r.get(13)?;
    let uses: Option<String> = r.get(14)?;
    Ok(Sym::new(
        (r.get(0)?, r.get(1)?, r.get(10)?, family, kind),
        (scope, r.get(7)?),
        signature.as_deref(),
        (guard.as_deref(), gives.as_deref()),
        (
            mixins.as_deref(),
            fields.as_deref(),
            uses.as_deref(),
            r.get(12)?,
        ),
    ))
}

/// The class of the field `field` in a class's stored `fields` (see [`Sym::fields`]).
fn field_in<'f>(fields: &'f str, field: &str) -> Option<&'f str> {
    super::pairs_of(fields).find_map(|(name, ty)| (name == field).then_some(ty))
}

impl Sym {
    /// The symbol `id` of `file` (of `family`, of `kind`) in `scope` under `parent`, with
    /// what its `signature`, `guard`, stored `gives`, `mixins` (one a line), `fields`,
    /// `uses` and `of_class` tell the linker.
    pub(super) fn new(
        (id, file, line, family, kind): (i64, i64, u32, Family, Option<SymbolKind>),
        (scope, parent): (Scope, Option<i64>),
        signature: Option<&str>,
        (guard, gives): (Option<&str>, Option<&str>),
        (mixins, fields, uses, of_class): (Option<&str>, Option<&str>, Option<&str>, bool),
    ) -> Sym {
        let rules = family.rules();
        Sym {
            id,
            file,
            line,
            family,
            kind,
            scope,
            parent,
            rename: rules.is_rename(kind, signature),
            // What the signature says, else what the body or documentation said.
            gives: rules
                .gives(kind, signature)
                .map(Arc::from)
                .or_else(|| gives.map(Arc::from)),
            bases: bases_of(family, kind, signature, mixins),
            of_class: own_method(family, kind, signature, of_class),
            made: rules.made_by_call(kind, signature),
            alias_of: rules.alias_of(kind, signature).map(Arc::from),
            guard: guard.map(Arc::from),
            fields: fields.map(Arc::from),
            uses: uses.map(Arc::from),
            macro_def: macro_def(family, kind, signature),
        }
    }
}

/// For a C or C++ macro's definition (`#define W 8`), the integer it stands for when it
/// is one (`Some(None)` for any other macro); None for any other symbol.
fn macro_def(
    family: Family,
    kind: Option<SymbolKind>,
    signature: Option<&str>,
) -> Option<Option<i64>> {
    let signature = signature?;
    (family.rules().textual_includes()
        && matches!(kind, Some(SymbolKind::Const | SymbolKind::Fn))
        && signature.trim_start().starts_with('#'))
    .then(|| config::macro_value(signature))
}

/// Whether a method is its class's own, not its instances': the extractor said so
/// (`said`: Ruby's `class << self`) or its signature does (`def self.m`,
/// [`LanguageLinker::of_class`]).
fn own_method(
    family: Family,
    kind: Option<SymbolKind>,
    signature: Option<&str>,
    said: bool,
) -> bool {
    said || family.rules().of_class(kind, signature)
}

/// Whether a symbol of `kind` holds members that a method written in it calls bare: a
/// type, or a module whose functions are its own (Ruby's: see
/// [`LanguageLinker::owner`]).
pub(super) fn owns_members(family: Family, kind: SymbolKind) -> bool {
    kind.is_container()
        || (matches!(kind, SymbolKind::Mod | SymbolKind::Const)
            && family
                .rules()
                .owner(Some((kind, "")), Some(SymbolKind::Method), None)
                .is_some())
}

/// Where a member a type does not define is looked for, in order, as a [`Sym`] keeps
/// them: the modules it mixes in (`mixins`, one a line), the last first, then
/// [`LanguageLinker::bases`].
fn bases_of(
    family: Family,
    kind: Option<SymbolKind>,
    signature: Option<&str>,
    mixins: Option<&str>,
) -> Bases {
    let mut bases: Vec<Arc<str>> = mixins
        .into_iter()
        .flat_map(|m| m.lines().rev())
        .map(Arc::from)
        .collect();
    bases.extend(
        family
            .rules()
            .bases(kind, signature)
            .into_iter()
            .map(Arc::from),
    );
    (!bases.is_empty()).then(|| bases.into())
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
    /// The files and bindings module resolution reads.
    repo: Repo<'a>,
    source: Source<'a>,
    /// A cold run's symbols by name, indexed on first use.
    named: HashMap<String, Named>,
    /// An incremental run's answers from the database.
    read: Read,
    /// Parents of symbols read from the database (by the files read).
    parents: HashMap<i64, i64>,
    /// The names of the type-like symbols of those files, by id.
    types: HashMap<i64, Arc<str>>,
    /// Their methods that are their class's own ([`Sym::of_class`]).
    class_methods: HashSet<i64>,
    parents_read: HashSet<i64>,
    /// A module written in a file (by its family's rules) → its files.
    modules: HashMap<(i64, String), Vec<i64>>,
    /// Each file's includes, and theirs, to a depth of [`MAX_DEPTH`] (for
    /// [`LanguageLinker::textual_includes`]).
    includes: HashMap<i64, Rc<HashSet<i64>>>,
    /// Each family's module resolution for the run, made on first use.
    resolvers: HashMap<Family, Box<dyn Modules>>,
    /// The type a call returns (`returned_type`), by where it is written and its callee.
    returns: HashMap<(i64, Option<i64>, String), Option<Given>>,
    /// The file and bases of a type as a file reaches it (`inherited`), by that file and
    /// the type's name: looked up once however many of its members are asked for.
    bases: HashMap<(i64, Option<i64>, String), Option<TypeBases>>,
    /// What the default build of a file knows of each macro a guard names
    /// (`macro_state`), by file and name; None while it is being found.
    macros: HashMap<(i64, String), Option<Macro>>,
    /// The classes that extend or mix in a class or module (`includers`), by its name
    /// and family.
    includers: HashMap<(String, Family), Vec<Sym>>,
    /// How deep the member being looked for is looked for in a type's bases (see
    /// `inherited_from`): there, never a value's (`of_value`).
    in_bases: usize,
    /// The classes whose instances have what a value is used for, by file and uses
    /// (see [`Linker::by_use`]).
    used: HashMap<(i64, String), Option<Rc<[Sym]>>>,
    /// The class of a field and the file that writes it (see
    /// [`Linker::field_assigned`]), by the class or module it is read in and its name.
    fields_read: HashMap<(i64, String), Option<Written>>,
    /// What the definitions of a class call on a value of no known class (see
    /// [`Linker::pooled_uses`]), by the class's id and the value.
    pooled: HashMap<(i64, String), Option<Rc<str>>>,
    /// The classes extending a class (see [`Linker::extending`]), by its id.
    extending: HashMap<i64, Rc<[TypeBases]>>,
}

/// A qualifier and the file that writes it (where its names are looked up from).
type Written = (i64, Arc<str>);

/// A type as a definition writes it, with where: the file and the symbol it is written
/// in (its names are looked up from there: a method's `Request` is its namespace's).
type Given = ((i64, Option<i64>), String);

/// A type's file and id, and the types it extends and implements (see
/// `Linker::inherited`).
type TypeBases = (i64, i64, Bases);

const MAX_DEPTH: usize = 4;

/// What a class extends or mixes in from outside the project (see
/// `Linker::extends_outside`).
enum Outside {
    Nothing,
    Library,
    Any,
}

/// Fewest members a value must be used for, that the common values lack, to tell its
/// class ([`Linker::by_use`]): two (`loc` and `source_range`, `begin_pos` and
/// `end_pos`) are as often a library's class that the project's mimics.
const MIN_USES: usize = 3;

/// Most classes that define one of the members a value is used for, looked at to find
/// those that define them all ([`Linker::having`]): more, and the uses say too little.
const MAX_USED_CLASSES: usize = 32;

impl<'a> Linker<'a> {
    pub(super) fn new(files: Files<'a>, source: Source<'a>, root: &Path) -> Linker<'a> {
        Linker {
            repo: Repo {
                files,
                source,
                root: root.to_path_buf(),
                bindings: HashMap::new(),
            },
            source,
            named: HashMap::new(),
            read: Read::default(),
            parents: HashMap::new(),
            types: HashMap::new(),
            class_methods: HashSet::new(),
            parents_read: HashSet::new(),
            modules: HashMap::new(),
            includes: HashMap::new(),
            resolvers: HashMap::new(),
            returns: HashMap::new(),
            bases: HashMap::new(),
            macros: HashMap::new(),
            includers: HashMap::new(),
            in_bases: 0,
            used: HashMap::new(),
            fields_read: HashMap::new(),
            pooled: HashMap::new(),
            extending: HashMap::new(),
        }
    }

    /// The family of `file`.
    fn family(&mut self, file: i64) -> rusqlite::Result<Family> {
        self.repo.files.family(file)
    }

    /// The rules of `file`'s family.
    fn rules(&mut self, file: i64) -> rusqlite::Result<&'static dyn LanguageLinker> {
        Ok(self.family(file)?.rules())
    }

    /// `family`'s module resolution for this run, and the repository it reads.
    fn resolver(&mut self, family: Family) -> (&mut dyn Modules, &mut Repo<'a>) {
        let resolver = self
            .resolvers
            .entry(family)
            .or_insert_with(|| family.rules().modules());
        (resolver.as_mut(), &mut self.repo)
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
            // Each symbol's parent, the names of the type-like ones and which methods are
            // their class's own, in one read.
            let mut stmt = conn.prepare_cached(
                "SELECT id, parent_symbol_id, kind, name, of_class, signature FROM symbols
                 WHERE file_id = ?1",
            )?;
            let family = self.repo.files.family(file)?;
            let mut rows = stmt.query([file])?;
            while let Some(r) = rows.next()? {
                let id: i64 = r.get(0)?;
                if let Some(parent) = r.get::<_, Option<i64>>(1)? {
                    self.parents.insert(id, parent);
                }
                let kind = SymbolKind::parse(r.get_ref(2)?.as_str()?);
                if kind.is_some_and(|k| owns_members(family, k)) {
                    self.types.insert(id, Arc::from(r.get_ref(3)?.as_str()?));
                }
                let signature: Option<String> = r.get(5)?;
                if own_method(family, kind, signature.as_deref(), r.get(4)?) {
                    self.class_methods.insert(id);
                }
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

    /// Whether the symbol `id`, of a file [`Linker::enclosing`] read, is a method of its
    /// class's own.
    fn is_class_method(&self, id: i64) -> bool {
        match &self.source {
            Source::Memory { class_methods, .. } => class_methods.contains(&id),
            Source::Db(_) => self.class_methods.contains(&id),
        }
    }

    /// The name of the innermost type-like symbol of `chain` (see [`Linker::enclosing`],
    /// which read them).
    fn enclosing_type(&self, chain: &[i64]) -> Option<(i64, Arc<str>)> {
        let types = match &self.source {
            Source::Memory { types, .. } => *types,
            Source::Db(_) => &self.types,
        };
        chain
            .iter()
            .find_map(|id| types.get(id).map(|name| (*id, name.clone())))
    }

    /// The names `file`'s imports bind.
    pub(super) fn bindings_of(&mut self, file: i64) -> rusqlite::Result<Rc<[Binding]>> {
        self.repo.bindings_of(file)
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
        let family = self.family(file)?;
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
        Ok(self.sym(name, id)?.map(|s| s.file))
    }

    /// The members named `name` of types named `owner`, of `file`'s family.
    fn owned(&mut self, file: i64, name: &str, owner: &str) -> rusqlite::Result<Vec<Sym>> {
        let family = self.family(file)?;
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
                    // …except methods defined outside their type (Go's), of their
                    // receiver's type.
                    if family.rules().methods_outside_types() {
                        let (a, b) = family.languages();
                        rows.extend(read_syms(
                            conn,
                            select_syms!(
                                "FROM symbols s JOIN files f ON f.id = s.file_id
                                 LEFT JOIN symbols p ON p.id = s.parent_symbol_id
                                 WHERE s.name = ?1 AND s.kind = 'method' AND f.language IN (?2, ?3)"
                            ),
                            &[&name, &a, &b],
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
    /// of `kind` may mean (not a field for a value: a field read of a value of unknown
    /// class is not listed among the fields of every class that has one of the name).
    fn any_member(&mut self, file: i64, name: &str, kind: RefKind) -> rusqlite::Result<bool> {
        let family = self.family(file)?;
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

    /// What the reference from `file` to `name`, of `kind`, written through `qual`, means:
    /// the method an alias names rather than the alias.
    pub(super) fn resolve(
        &mut self,
        file: i64,
        from: Option<i64>,
        name: &str,
        kind: RefKind,
        qual: Option<&str>,
    ) -> rusqlite::Result<Target> {
        let target = self.resolve_name(file, from, name, kind, qual)?;
        match target {
            Target::Linked(id) if self.rules(file)?.has_aliases() => self.unaliased(name, id),
            target => Ok(target),
        }
    }

    /// The class `name` that `A::B::name.new` (`path`: `A.B.name`) constructs, or that
    /// `A::B::name` names as a value (a reference of `kind`): outside the project when
    /// `A` is no name of it; of the namespace `B` when classes of that name are defined
    /// in several; else as a bare name.
    fn constructed(
        &mut self,
        file: i64,
        from: Option<i64>,
        name: &str,
        path: &str,
        kind: RefKind,
    ) -> rusqlite::Result<Target> {
        let segments: Vec<&str> = path.split('.').collect();
        if self.outside_namespace(&segments)? {
            return Ok(Target::External);
        }
        if segments.len() > 1 && self.namespaces_of(file, name)? > 1 {
            let home = segments[segments.len() - 2];
            return Ok(match self.classes_in(file, name, home)?.first() {
                Some(class) => Target::Linked(class.id),
                None => Target::Ambiguous,
            });
        }
        if kind == RefKind::Value
            && let [.., owner, _] = segments[..]
        {
            // `Parser::DEFAULT`: the constant of the class `Parser`.
            let owned = self.owned(file, name, owner)?;
            if let Some(constant) = best(owned.iter(), kind) {
                return Ok(Target::Linked(constant.id));
            }
        }
        Ok(self
            .bare(file, from, name, kind)?
            .map_or(Target::External, |t| t))
    }

    /// The symbol `id` (named `name`), or where it is an alias of a method of its class
    /// (`alias_method :t, :translate`), that method, as its class's file has it.
    fn unaliased(&mut self, name: &str, id: i64) -> rusqlite::Result<Target> {
        let Some(sym) = self.sym(name, id)? else {
            return Ok(Target::Linked(id));
        };
        let (Some(original), Scope::Member(owner)) = (&sym.alias_of, &sym.scope) else {
            return Ok(Target::Linked(id));
        };
        let owned = self.owned(sym.file, original, owner)?;
        let beside: Vec<&Sym> = owned.iter().filter(|s| s.parent == sym.parent).collect();
        let found = if beside.is_empty() {
            // Where the class is reopened.
            owned
                .iter()
                .find(|s| s.file == sym.file)
                .or(owned.first())
                .map_or(id, |s| s.id)
        } else {
            // The method as it stands where the alias is written: one defined only
            // after it redefines the name, and the alias keeps what was there before
            // (inherited, or outside the project: the alias itself is then the answer).
            beside
                .iter()
                .filter(|s| s.line < sym.line)
                .max_by_key(|s| s.line)
                .map_or(id, |s| s.id)
        };
        Ok(Target::Linked(found))
    }

    /// [`Linker::resolve`], aliases as they are.
    fn resolve_name(
        &mut self,
        file: i64,
        from: Option<i64>,
        name: &str,
        kind: RefKind,
        qual: Option<&str>,
    ) -> rusqlite::Result<Target> {
        let family = self.family(file)?;
        if !family.links() {
            return Ok(Target::External);
        }
        if let Some(q) = qual.filter(|q| q.starts_with('^')) {
            // `super` (whose name is no definition's).
            return self.qualified(file, from, name, kind, q, 0);
        }
        if !self.defined(name)? {
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
            Some("new()") => {
                let found = self
                    .bare(file, from, name, RefKind::TypeRef)?
                    .map_or(Target::External, |t| t);
                // Where a name is global (Ruby's constants), a class nested in namespaces
                // none of which is around the reference is not the one it names:
                // `Request.new` in `module Rack` is Rack's, not `Sinatra::Request`.
                if let Target::Linked(id) = found
                    && self.rules(file)?.global_names()
                    && self.out_of_sight(file, from, name, id)?
                {
                    return Ok(Target::External);
                }
                Ok(found)
            }
            // Ruby's `A::X.new`: the class `X` of the namespace `A`.
            Some(q)
                if let Some(path) = q.strip_suffix(".new()")
                    && path.rsplit('.').next() == Some(name)
                    && self.rules(file)?.global_names() =>
            {
                self.constructed(file, from, name, path, RefKind::TypeRef)
            }
            // Ruby's `A::X` as a value: the class, module or constant `X` of the
            // namespace `A`.
            Some(q)
                if matches!(kind, RefKind::TypeRef | RefKind::Value)
                    && self.rules(file)?.global_names() =>
            {
                self.constructed(file, from, name, &format!("{q}.{name}"), kind)
            }
            Some("?") => self.of_value(file, name, kind, false),
            // An element of a collection of no known class: a value of any class, the
            // standard library's most of all.
            Some("[]") => self.ambiguous_if_any(file, name, kind),
            Some(q) => self.qualified(file, from, name, kind, q, 0),
        }
    }

    /// Whether the class `id` (named `name`) is written inside namespaces none of which
    /// is around the reference from `from` in `file` (a class at the top level never is).
    fn out_of_sight(
        &mut self,
        file: i64,
        from: Option<i64>,
        name: &str,
        id: i64,
    ) -> rusqlite::Result<bool> {
        let Some(home) = self.file_of(name, id)? else {
            return Ok(false);
        };
        let chain = self.enclosing(home, Some(id))?;
        let around_class = self.type_names(chain.get(1..).unwrap_or_default())?;
        if around_class.is_empty() {
            return Ok(false);
        }
        let chain = self.enclosing(file, from)?;
        let around_ref = self.type_names(&chain)?;
        Ok(!around_class.iter().any(|n| around_ref.contains(n)))
    }

    /// The names of the type-like symbols (classes, modules) among `ids`.
    fn type_names(&mut self, ids: &[i64]) -> rusqlite::Result<Vec<Arc<str>>> {
        let mut names = Vec::new();
        for id in ids {
            names.extend(self.name_of(*id)?);
        }
        Ok(names)
    }

    /// The symbol `id`, named `name`.
    fn sym(&mut self, name: &str, id: i64) -> rusqlite::Result<Option<Sym>> {
        match self.source {
            Source::Memory { symbols, .. } => Ok(self
                .named(symbols, name)
                .all
                .iter()
                .find(|s| s.id == id)
                .cloned()),
            Source::Db(conn) => Ok(read_syms(
                conn,
                select_syms!(
                    "FROM symbols s JOIN files f ON f.id = s.file_id
                     LEFT JOIN symbols p ON p.id = s.parent_symbol_id
                     WHERE s.id = ?1"
                ),
                &[&id],
            )?
            .pop()),
        }
    }

    /// The type of the value `sym` (named `name`) gives, where it is written: a type's
    /// own name (a call of it constructs one), what a function returns, a variable's
    /// type (what the call it holds returns, followed from its own file).
    fn type_given(
        &mut self,
        sym: &Sym,
        name: &str,
        depth: usize,
    ) -> rusqlite::Result<Option<Given>> {
        let at = (sym.file, Some(sym.id));
        if sym.kind.is_some_and(|k| k.is_container()) {
            return Ok(Some((at, name.to_string())));
        }
        let Some(gives) = sym.gives.clone() else {
            return Ok(None);
        };
        if &*gives == "Self" {
            return Ok(match &sym.scope {
                Scope::Member(owner) => Some((at, owner.to_string())),
                _ => None,
            });
        }
        match gives.strip_suffix("()") {
            Some(callee) => self.returned_type(sym.file, None, callee, depth + 1),
            None => Ok(Some((at, gives.to_string()))),
        }
    }

    /// The type a call of `callee` (written in `file`, in `from`: `F`, `T.m`, `F().g`)
    /// returns, as its definition says, and where that writes it; `None` when the call
    /// links to no definition or it says nothing.
    fn returned_type(
        &mut self,
        file: i64,
        from: Option<i64>,
        callee: &str,
        depth: usize,
    ) -> rusqlite::Result<Option<Given>> {
        if depth > MAX_DEPTH {
            return Ok(None);
        }
        let key = (file, from, callee.to_string());
        if let Some(found) = self.returns.get(&key) {
            return Ok(found.clone());
        }
        let (receiver, name) = match callee.rsplit_once('.') {
            Some((receiver, name)) => (Some(receiver), name),
            None => (None, callee),
        };
        if let (Some(class), "new") = (receiver, name)
            && class.starts_with(|c: char| c.is_uppercase())
            && self.rules(file)?.global_names()
        {
            // Ruby's `Foo.new`: an instance of `Foo`.
            return Ok(Some(((file, from), class.to_string())));
        }
        let target = match receiver {
            None if !self.defined(name)? => Target::External,
            None => self
                .bare(file, from, name, RefKind::Call)?
                .unwrap_or(Target::External),
            Some(receiver) => {
                self.qualified(file, from, name, RefKind::Call, receiver, depth + 1)?
            }
        };
        let found = match target {
            Target::Linked(id) => match self.sym(name, id)? {
                Some(sym) => self.type_given(&sym, name, depth)?,
                None => None,
            },
            // Ruby's `Foo.instance` where `Foo` includes `Singleton`: its one instance.
            _ => match receiver {
                Some(class)
                    if name == "instance"
                        && self.rules(file)?.global_names()
                        && self.mixes_in(
                            file,
                            class.rsplit('.').next().unwrap_or(class),
                            "Singleton",
                        )? =>
                {
                    Some(((file, from), class.to_string()))
                }
                _ => None,
            },
        };
        self.returns.insert(key, found.clone());
        Ok(found)
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
        let rules = self.rules(file)?;
        if rules.textual_includes() {
            return self.bare_included(file, name, kind);
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
                Scope::Member(_) if rules.implicit_this() => inner,
                _ => None,
            }
        };
        // Of several definitions in one scope, the first one (or the last: Python's).
        let order = |s: &Sym| {
            if rules.last_definition_wins() {
                -s.id
            } else {
                s.id
            }
        };
        // Never meant: what a class extends is not itself (`class Visitor <
        // Liquid::Visitor`, `class Foo(Foo)` after an import), nor, where a class body
        // does not see the classes it is written in (Python's), one of those — with an
        // implicit `this` it does (Ruby's `class Root < Node` inside `Node`); a call,
        // where calls never construct, is not a class or module (Ruby's `Array(x)` is
        // Kernel's method).
        let never = |s: &Sym| {
            (kind == RefKind::Extends
                && if rules.implicit_this() {
                    chain.first() == Some(&s.id)
                } else {
                    chain.contains(&s.id)
                })
                || (!rules.calls_reach_types()
                    && kind == RefKind::Call
                    && matches!(s.kind, Some(SymbolKind::Class | SymbolKind::Mod)))
        };
        // A method of the class's own where the call is in one (Ruby's `def self.m`), else
        // an instance's: of `def self.f` and `def f`, a call in an instance method means
        // `f`.
        let in_class_method = chain.first().is_some_and(|id| self.is_class_method(*id));
        let own_best = own
            .iter()
            .filter(|s| s.kind != Some(SymbolKind::Impl) && !never(s))
            .filter(|s| kind != RefKind::Value || kind_fits(kind, s.kind))
            .filter_map(|s| depth(s).map(|d| (d, s)))
            .min_by_key(|(d, s)| {
                let other_side =
                    s.kind == Some(SymbolKind::Method) && s.of_class != in_class_method;
                (!kind_fits(kind, s.kind), *d, other_side, s.made, order(s))
            })
            .map(|(_, s)| s.clone());
        if let Some(s) = own_best.as_ref().filter(|s| kind_fits(kind, s.kind)) {
            return Ok(Some(Target::Linked(s.id)));
        }
        // A member of the class or module it is written in, defined where the class is
        // reopened (Ruby's, in another file).
        if rules.implicit_this()
            && rules.global_names()
            && kind == RefKind::Call
            && let Some((_, owner)) = self.enclosing_type(&chain)
        {
            let owned = self.owned(file, name, &owner)?;
            if let Some(s) = best(owned.iter().filter(|s| !never(s)), kind) {
                return Ok(Some(Target::Linked(s.id)));
            }
        }
        // With an implicit `this`, a member the class it is written in inherits (`parse`
        // in `class If < Block` calls `Block`'s).
        if rules.implicit_this()
            && kind == RefKind::Call
            && let Some((id, class)) = self.enclosing_type(&chain)
            && let Some(found) = self.inherited_by((id, &class), name, kind, 0)?
        {
            return Ok(Some(found));
        }
        // In a class's body outside its methods, where a block may run with another
        // `self` (a DSL's: Ruby's `translate(:node) { t(…) }`), a name neither the class
        // nor what it inherits defines: the project's one method of the name, as for a
        // value of no known class (see `Linker::of_value`).
        if rules.unique_member(name)
            && kind == RefKind::Call
            && let Some((id, _)) = self.enclosing_type(&chain)
            && from == Some(id)
            && let Target::Linked(found) = self.of_value(file, name, kind, false)?
        {
            return Ok(Some(Target::Linked(found)));
        }
        // 2. What an import binds to the name.
        let bindings = self.bindings_of(file)?;
        if let Some(b) = bindings.iter().find(|b| b.local == name) {
            return Ok(Some(
                self.binding_target(file, b, kind, 0)?
                    .map_or(Target::External, |s| Target::Linked(s.id)),
            ));
        }
        // 3. Glob imports (not one of what the file defines itself: the file, seen
        // above) and the file's package.
        let mut files: Vec<i64> = Vec::new();
        for b in bindings
            .iter()
            .filter(|b| b.local == "*" && !rules.glob_is_local(&b.module))
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
        if rules.mixins() {
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
        // A bare call in a module's method (a mixin's): what `self` is, in the classes
        // that mix the module in — where they all reach one definition, that one; where
        // they reach several, ambiguous (Jekyll's `site` in `Convertible`: `Page#site`
        // or `Layout#site`, never a top-level `def site` of a script).
        if kind == RefKind::Call
            && rules.mixins()
            && let Some((id, module)) = self.enclosing_type(&chain)
            && self
                .sym(&module, id)?
                .is_some_and(|m| m.kind == Some(SymbolKind::Mod))
            && let Some(found) = self.in_includers(file, name, kind, &module)?
        {
            return Ok(Some(found));
        }
        // 5. One global namespace.
        if rules.global_names() {
            // A class or module of the name written in a namespace the reference is
            // written in, innermost first, before any at the top (Ruby's constant
            // lookup: `class Logger < Middleware` in `Response` means
            // `Response::Middleware`).
            let homes = self.namespaces_around(&[], &chain)?;
            if let Some(class) = self
                .first_classes_in(file, name, homes.clone(), |c| {
                    !never(c) && kind_fits(kind, c.kind)
                })?
                .first()
            {
                return Ok(Some(Target::Linked(class.id)));
            }
            if kind_fits(kind, Some(SymbolKind::Const))
                && let Some(constant) = self.first_constant_in(file, name, homes)?
            {
                // A constant of such a namespace, written where it is reopened in
                // another file (`SafeRenderer = …` in `class Sinatra`).
                return Ok(Some(Target::Linked(constant.id)));
            }
            let top = self.candidates(file, name, None, |s| s.scope == Scope::Top && !never(s))?;
            let fitting: Vec<&Sym> = top.iter().filter(|s| kind_fits(kind, s.kind)).collect();
            if let [one] = fitting.as_slice() {
                return Ok(Some(Target::Linked(one.id)));
            }
            if let Some(one) = self.one_reopened(file, name, &fitting)? {
                return Ok(Some(Target::Linked(one.id)));
            }
            if !fitting.is_empty() {
                // Classes of the name in several namespaces (`Cop::Base`, `Expression::
                // Base`): the one of the innermost namespace the reference is written in
                // that has one, as Ruby looks a constant up.
                if fitting
                    .iter()
                    .all(|s| matches!(s.kind, Some(SymbolKind::Class | SymbolKind::Mod)))
                {
                    let homes = self.namespaces_around(&[], &chain)?;
                    if let Some(class) = self
                        .first_classes_in(file, name, homes, |c| !never(c))?
                        .first()
                    {
                        return Ok(Some(Target::Linked(class.id)));
                    }
                }
                return Ok(Some(Target::Ambiguous));
            }
            // A class or module written inside a class (Ruby's `class Thor; class
            // Option`), where none at the top has the name.
            let nested = self.candidates(file, name, None, |s| {
                matches!(s.scope, Scope::Member(_))
                    && matches!(s.kind, Some(SymbolKind::Class | SymbolKind::Mod))
                    && !never(s)
            })?;
            let fitting: Vec<&Sym> = nested.iter().filter(|s| kind_fits(kind, s.kind)).collect();
            if let Some(one) = self.one_reopened(file, name, &fitting)? {
                return Ok(Some(Target::Linked(one.id)));
            }
            match fitting.as_slice() {
                [one] => return Ok(Some(Target::Linked(one.id))),
                [] => {}
                _ => return Ok(Some(Target::Ambiguous)),
            }
            // A bare call in a module's method (a mixin's): a method of whatever class
            // includes it, so the project's one method of the name that Ruby does not
            // define, or any of several.
            if kind == RefKind::Call
                && rules.unique_member(name)
                && let Some((id, module)) = self.enclosing_type(&chain)
                && self
                    .sym(&module, id)?
                    .is_some_and(|m| m.kind == Some(SymbolKind::Mod))
            {
                let methods =
                    self.candidates(file, name, None, |s| s.kind == Some(SymbolKind::Method))?;
                // (A class's own method is no instance's: where only such are defined,
                // the call may be one of them — a module mixed into `class << self`.)
                let instances: Vec<&Sym> = methods.iter().filter(|s| !s.of_class).collect();
                return Ok(match (instances.as_slice(), methods.is_empty()) {
                    (_, true) => None,
                    ([one], _) => Some(Target::Linked(one.id)),
                    _ => Some(Target::Ambiguous),
                });
            }
        }
        Ok(None)
    }

    /// A bare name in one global namespace seen through includes (C and C++:
    /// [`LanguageLinker::textual_includes`]), where conditional compilation may define a
    /// name more than once, or rename it with a macro, in some configurations (then the
    /// index cannot tell which is built: ambiguous). The definitions are looked for in
    /// the file, then in what it includes (and what that includes), then anywhere (those
    /// of a fitting kind only); the first place with any decides. Object-like macros are
    /// candidates beside the fitting kinds (`#define local static` used as a type,
    /// `#define zmemcpy memcpy` called). A macro that only renames (`#define deflate
    /// z_deflate`, as a build's prefix option does) is no candidate: the name written
    /// still means the definition it renames along.
    fn bare_included(
        &mut self,
        file: i64,
        name: &str,
        kind: RefKind,
    ) -> rusqlite::Result<Option<Target>> {
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
        let own = self.built(file, own)?;
        let included = self.includes_of(file)?;
        let mut there = self.top_in(&included, name)?;
        there.retain(|s| takes(s));
        let there = self.built(file, there)?;
        for place in [own, there] {
            match place.as_slice() {
                [] => continue,
                [one] => return Ok(Some(Target::Linked(one.id))),
                // One file defining a constant (a macro) several times defines it once
                // per configuration (`#ifdef … #define FAR … #else …`): the first stands
                // for them all. (Not types and functions: which of those is meant is
                // the configuration's choice, and a wrong link is worse than none.)
                [first, rest @ ..]
                    if first.kind == Some(SymbolKind::Const)
                        && rest
                            .iter()
                            .all(|s| s.file == first.file && s.kind == first.kind) =>
                {
                    let first = place.iter().min_by_key(|s| s.id).unwrap_or(first);
                    return Ok(Some(Target::Linked(first.id)));
                }
                _ => return Ok(Some(Target::Ambiguous)),
            }
        }
        let anywhere = self.candidates(file, name, None, |s| {
            s.scope == Scope::Top && kind_fits(kind, s.kind) && !s.rename
        })?;
        let anywhere = self.built(file, anywhere)?;
        Ok(match anywhere.as_slice() {
            [] => None,
            [one] => Some(Target::Linked(one.id)),
            _ => Some(Target::Ambiguous),
        })
    }

    /// `syms` (definitions of one name, as `file` sees them) without those the default
    /// build does not compile (see [`config`]), when any is left: where conditional
    /// compilation defines the name once per configuration, the one built. Those whose
    /// guard is unknown stay.
    fn built(&mut self, file: i64, syms: Vec<Sym>) -> rusqlite::Result<Vec<Sym>> {
        if syms.len() < 2 || syms.iter().all(|s| s.guard.is_none()) {
            return Ok(syms);
        }
        let mut kept = Vec::new();
        for s in &syms {
            if self.holds(file, s)? != Holds::No {
                kept.push(s.clone());
            }
        }
        Ok(if kept.is_empty() { syms } else { kept })
    }

    /// Whether the default build of `file` compiles `sym` (see [`config::evaluate`]),
    /// with the macros `file` and what it includes define.
    ///
    /// Inside a file's `#ifndef X` block that defines `X` (an include guard), `X` is not
    /// defined yet: what the block holds is compiled the first time the file is read.
    fn holds(&mut self, file: i64, sym: &Sym) -> rusqlite::Result<Holds> {
        let Some(guard) = sym.guard.clone() else {
            return Ok(Holds::Yes);
        };
        let mut guarding = HashSet::new();
        for name in config::not_defined_in(&guard) {
            let defines_itself = self.in_file(sym.file, name)?.iter().any(|d| {
                d.macro_def.is_some()
                    && d.guard
                        .as_deref()
                        .is_some_and(|g| config::not_defined_in(g).any(|n| n == name))
            });
            if defines_itself {
                guarding.insert(name.to_string());
            }
        }
        let mut failed = None;
        let holds = config::evaluate(&guard, &mut |name| {
            if guarding.contains(name) {
                return Macro::Undefined;
            }
            match self.macro_state(file, name) {
                Ok(state) => state,
                Err(e) => {
                    failed.get_or_insert(e);
                    Macro::Unknown
                }
            }
        });
        match failed {
            Some(e) => Err(e),
            None => Ok(holds),
        }
    }

    /// What the default build of `file` knows of the macro `name`: the compiler's own,
    /// else defined where one of the definitions of it in `file` or what it includes
    /// is compiled ([`Self::holds`]), with the integer they agree it stands for. While
    /// its own definitions are weighed, it counts as not defined yet, as a build reads
    /// them: `#ifndef X` / `#define X` (an include guard, a default value) defines `X`.
    fn macro_state(&mut self, file: i64, name: &str) -> rusqlite::Result<Macro> {
        if let Some(state) = config::predefined(name) {
            return Ok(state);
        }
        let key = (file, name.to_string());
        match self.macros.get(&key) {
            Some(Some(state)) => return Ok(*state),
            Some(None) => return Ok(Macro::Undefined),
            None => {}
        }
        self.macros.insert(key.clone(), None);
        let unit = self.includes_of(file)?;
        let defs = self.candidates(file, name, None, |s| {
            s.macro_def.is_some() && (s.file == file || unit.contains(&s.file))
        })?;
        let (mut built, mut unknown) = (Vec::new(), false);
        for d in &defs {
            match self.holds(file, d)? {
                Holds::Yes => built.push(d.macro_def.flatten()),
                Holds::Unknown => unknown = true,
                Holds::No => {}
            }
        }
        let state = match built.first() {
            Some(&value) => {
                Macro::Defined(value.filter(|_| !unknown && built.iter().all(|&v| v == value)))
            }
            None if unknown => Macro::Unknown,
            None if defs.is_empty() => Macro::Absent,
            None => Macro::Undefined,
        };
        self.macros.insert(key, Some(state));
        Ok(state)
    }

    /// What a file includes, and what that includes, to a depth of [`MAX_DEPTH`] (the
    /// file itself left out).
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

    /// The files of `file`'s package that it sees without an import (its directory,
    /// where [packages are directories](LanguageLinker::packages_are_directories)).
    fn package_files(&mut self, file: i64) -> rusqlite::Result<Vec<i64>> {
        let family = self.family(file)?;
        if !family.rules().packages_are_directories() {
            return Ok(Vec::new());
        }
        let rel = self.repo.files.rel(file)?;
        let mut out = self
            .repo
            .files
            .in_dirs_of(&[dir_of(&rel).to_string()], family)?;
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
        // Only some languages' imports pass names on (Rust's `pub use`, a Python
        // package's `__init__` imports, TypeScript's `export … from`); Java's, Go's and
        // C's are the file's own.
        let mut ordered: Vec<i64> = files.iter().copied().collect();
        ordered.sort_unstable();
        let passes_on = match ordered.first() {
            Some(f) => self.rules(*f)?.imports_pass_on(),
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
        let rules = self.rules(file)?;
        let name = rules.imported_name(b, name);
        let found = self.lookup(&files, name, kind, depth)?;
        if found.is_none() && rules.imports_reach_members() {
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

    /// A macro (`name!`, Rust's): one defined in the same build unit (crate).
    fn macro_call(&mut self, file: i64, name: &str) -> rusqlite::Result<Target> {
        let own = self.unit(file)?;
        let macros =
            self.candidates(file, name, Some(SymbolKind::Fn), |s| s.scope == Scope::Top)?;
        let mut same_crate: Vec<&Sym> = Vec::new();
        for s in &macros {
            if self.unit(s.file)? == own {
                same_crate.push(s);
            }
        }
        Ok(match same_crate.as_slice() {
            [] => Target::External,
            [one] => Target::Linked(one.id),
            _ => Target::Ambiguous,
        })
    }

    /// A member of a value whose type is unknown (a class, where `holds_class`).
    fn of_value(
        &mut self,
        file: i64,
        name: &str,
        kind: RefKind,
        holds_class: bool,
    ) -> rusqlite::Result<Target> {
        if kind == RefKind::Call && self.in_bases == 0 && self.rules(file)?.unique_member(name) {
            // The one method of the name, where the language's values say no class and
            // the standard library does not define it — an instance's, or a class's own
            // where the value holds a class (never a module's own: Ruby's `def
            // self.to_number` in `module Utils` is called on the module).
            let defined = self.candidates(file, name, None, |s| {
                matches!(s.kind, Some(SymbolKind::Method | SymbolKind::Fn))
            })?;
            if let [one] = defined.as_slice()
                && one.kind == Some(SymbolKind::Method)
                && !(one.of_class && (!holds_class || self.in_module(one)?))
            {
                return Ok(Target::Linked(one.id));
            }
        }
        self.ambiguous_if_any(file, name, kind)
    }

    /// Ambiguous if some type of `file`'s family has a member `name` (that a value may
    /// use, for a value); external otherwise.
    fn ambiguous_if_any(
        &mut self,
        file: i64,
        name: &str,
        kind: RefKind,
    ) -> rusqlite::Result<Target> {
        Ok(if self.any_member(file, name, kind)? {
            Target::Ambiguous
        } else {
            Target::External
        })
    }

    /// A name reached through a path or receiver `qual` (`a.b`), or through what a call
    /// returns (`F()`, see `ExtractedRef::qual`): the member of the type the call's
    /// definition says it returns, or a value's when it says none.
    fn qualified(
        &mut self,
        file: i64,
        from: Option<i64>,
        name: &str,
        kind: RefKind,
        qual: &str,
        depth: usize,
    ) -> rusqlite::Result<Target> {
        // `el{attr children}`: the value `el`, on which `attr` and `children` are called.
        let (qual, uses) = match uses_of(qual) {
            Some((value, uses)) => (value, Some(uses)),
            None => (qual, None),
        };
        if let Some(path) = qual.strip_prefix("::") {
            // `::File.open`: the top level's `File` (Ruby's own, where the project has
            // only `Zip::File`).
            let first = path.split('.').next().unwrap_or(path);
            let top = self.candidates(file, first, None, |s| {
                s.parent.is_none() && matches!(s.kind, Some(SymbolKind::Class | SymbolKind::Mod))
            })?;
            if top.is_empty() {
                return Ok(Target::External);
            }
            return self.qualified(file, from, name, kind, path, depth);
        }
        if let Some(callee) = qual.strip_suffix("()") {
            return match self.returned_type(file, from, callee, depth)? {
                Some((at, ty)) if depth < MAX_DEPTH => {
                    self.of_instance(at, name, kind, &ty, depth + 1)
                }
                // `dict(…).update`: an instance of a class of the language's own.
                _ if self.of_library_class(file, from, callee)? => Ok(Target::External),
                _ => self.of_value(file, name, kind, false),
            };
        }
        if let Some(class) = qual.strip_prefix('^') {
            // `super().f()` in a method of `class` (`^C`): the `f` its bases have; a
            // Ruby `super` in its method `m` (`^C.m`): their `m`. None there: outside
            // (a class of the standard library's, say).
            let (class, name) = class.split_once('.').unwrap_or((class, name));
            let chain = self.enclosing(file, from)?;
            let found = match self.enclosing_type(&chain) {
                // The class it is written in, as the index has it (a class of one
                // global name may be defined in several files: Ruby's, reopened).
                Some((id, written)) if &*written == class => {
                    self.inherited_by((id, class), name, kind, depth)?
                }
                // A module's method: what follows the module in the ancestors of the
                // classes that mix it in, where they agree (Ruby's `Concat::Native#+`),
                // else of the class it is written in, where that class mixes it in
                // (`Invocation#initialize` in `class Thor`); otherwise its host is not
                // known.
                Some((_, module)) => match self.after_module(file, name, kind, &module, depth)? {
                    Some(found) => Some(found),
                    None if self.mixes_in(file, class, &module)? => {
                        self.inherited((file, from), name, kind, class, depth)?
                    }
                    None => None,
                },
                None => self.inherited((file, from), name, kind, class, depth)?,
            };
            // (Never the method it is written in.)
            return Ok(found
                .filter(|t| from.is_none_or(|f| *t != Target::Linked(f)))
                .unwrap_or(Target::External));
        }
        if let Some(field) = qual.strip_prefix('@')
            && depth < MAX_DEPTH
            && let Some((home, ty)) = self.field_assigned(file, from, field)?
        {
            // `@src.pos` where another definition of the class (Ruby's, reopened in
            // another file) or a class it extends assigns `@src` a value of known class.
            return self.of_instance((home, None), name, kind, &ty, depth + 1);
        }
        let segments: Vec<&str> = qual.split('.').collect();
        if let Some(files) = self.module_of_path(file, &segments)? {
            let set: HashSet<i64> = files.into_iter().collect();
            if set.is_empty() {
                return Ok(Target::External);
            }
            return Ok(self
                .lookup(&set, name, kind, 0)?
                .map_or(Target::External, |s| Target::Linked(s.id)));
        }
        {
            // `json.load()`, `pkg.T.f()` through an import of a module outside the
            // repository (Go's `goflag.Value`, a package's class): outside too — for one
            // name, where the project defines none of it (Java's `import
            // a.Outer.Inner`, a nested class, is no file of its own).
            let bindings = self.bindings_of(file)?;
            if let Some(b) = bindings.iter().find(|b| b.local == segments[0])
                && self.module_files(file, &b.module)?.is_empty()
                && (segments.len() > 1 || !self.defined(segments[0])?)
            {
                return Ok(Target::External);
            }
        }
        let rules = self.rules(file)?;
        if rules.global_names() && self.outside_namespace(&segments)? {
            return Ok(Target::External);
        }
        if rules.static_paths()
            && segments.len() > 1
            && self.walk(file, &segments[..segments.len() - 1])?.is_none()
        {
            // `fs::DirEntry::f`: a type of a module outside the repository.
            return Ok(Target::External);
        }
        if let [owner, member] = segments[..]
            && depth < MAX_DEPTH
            && let Some((at, ty)) = self.member_type(file, owner, member, depth)?
        {
            // `x.f.g()` with `x: T`: the `g` of the type `T`'s field or property `f` has.
            return self.of_instance(at, name, kind, &ty, depth + 1);
        }
        let ty = segments.last().copied().unwrap_or(qual);
        let looks_like_type = ty.starts_with(|c: char| c.is_uppercase());
        if segments.len() == 1 && rules.global_names() && self.of_library_class(file, from, ty)? {
            // One of the language's own classes, which the project defines at most where
            // the reference does not see it (`Dir.pwd` outside the `Dir` cop's
            // namespace): its members are outside, whatever the project's of the name
            // extends.
            return Ok(Target::External);
        }
        let mut owned = self.owned(file, name, ty)?;
        if kind == RefKind::Value && !owned.is_empty() {
            // A member read is a use of the type's field (`self.response_class`), never
            // of a block or section of that name.
            owned.retain(|s| kind_fits(kind, s.kind) || s.kind == Some(SymbolKind::Var));
            if owned.is_empty() {
                return Ok(Target::External);
            }
        }
        if owned.len() > 1 && segments.len() == 1 {
            // Several classes of the name own one (test functions' own `CustomMiddleware`
            // classes): in a method of one of them, `self.app` is that one's.
            let chain = self.enclosing(file, from)?;
            if let Some((class, written)) = self.enclosing_type(&chain)
                && &*written == ty
                && owned.iter().any(|s| s.parent == Some(class))
            {
                owned.retain(|s| s.parent == Some(class));
            }
        }
        if rules.last_definition_wins() && segments.len() == 1 {
            // Of a class's several definitions of a name (a property's getter and
            // setter), the last one wins.
            owned.sort_by_key(|s| std::cmp::Reverse(s.id));
            owned.dedup_by_key(|s| s.file);
        }
        if owned.is_empty()
            && segments.len() == 1
            && depth < MAX_DEPTH
            && let Some((at, ty)) = self.variable_type(file, from, qual, depth)?
        {
            // `v.f()` where `v` is a variable of a declared type (`var v = F(…)`).
            return self.of_instance(at, name, kind, &ty, depth + 1);
        }
        if owned.is_empty()
            && depth < MAX_DEPTH
            && let Some(found) = self.inherited((file, from), name, kind, ty, depth)?
        {
            // A member the type does not define itself: its base's.
            return Ok(found);
        }
        if owned.is_empty() && rules.static_paths() {
            // A static path (Rust's `a::b::f`, `Type::f`) is never a value: not a module
            // of the repository nor a member of one of its types, it is outside (another
            // crate, the standard library, a trait's provided method).
            return Ok(Target::External);
        }
        if owned.is_empty()
            && depth < MAX_DEPTH
            && let Some(class) = rules.type_named_like(ty, name)
            && self.defined(&class)?
        {
            // `context.evaluate` where the code names values after their class (Ruby):
            // `Context`'s, when it has one — an instance's method, not the class's own
            // of the same name (`translator.translate`, not `def self.translate`).
            let instances: Vec<Sym> = self
                .owned(file, name, &class)?
                .into_iter()
                .filter(|s| !s.of_class)
                .collect();
            if let [one] = instances.as_slice()
                && self.namespaces_of(file, &class)? <= 1
            {
                return Ok(Target::Linked(one.id));
            }
            if let Target::Linked(found) =
                self.qualified(file, None, name, kind, &class, depth + 1)?
                && !self.sym(name, found)?.is_some_and(|s| s.of_class)
            {
                return Ok(Target::Linked(found));
            }
        }
        if owned.is_empty()
            && depth < MAX_DEPTH
            && let Some(uses) = uses
            && let Some(found) = self.by_use(file, name, kind, uses, depth)?
        {
            // `el.children` where the method calls `attr` and `children` on `el`: of the
            // one class that has them all; where none has them all, of a class outside
            // the project (not the project's one method of the name).
            return Ok(found);
        }
        if owned.is_empty()
            && depth < MAX_DEPTH
            && segments.len() == 1
            && let Some(pooled) = self.pooled_uses(file, from, qual, uses)?
            && let Some(found @ Target::Linked(_)) =
                self.by_use(file, name, kind, &pooled, depth)?
        {
            // `el.type` in a method of a class reopened in other files, whose methods
            // there call `attr`, `children` and `options` on their `el` too: of the one
            // class that has them all.
            return Ok(found);
        }
        if owned.is_empty() && segments.len() == 1 && self.of_library_class(file, from, ty)? {
            // A value of one of the language's own classes that the project does not
            // reopen (`events: list[str]`: `events.append`): its member is outside.
            return Ok(Target::External);
        }
        if owned.is_empty() {
            // A value's member, or a type's defined elsewhere (a trait, a base class,
            // the standard library): ambiguous if some type defines a member of that
            // name.
            let holds_class = rules.holds_class(ty);
            return self.of_value(file, name, kind, holds_class);
        }
        if segments.len() > 1 && !looks_like_type {
            // `a.b.f()` where `a.b` is a value (a field of `a`).
            return Ok(Target::Ambiguous);
        }
        // Classes of that name in several namespaces, one global name each (Ruby's
        // `Basic::Request` and `Digest::Request`): the one this file reaches, not the one
        // that happens to define the member.
        if rules.global_names() && self.namespaces_of(file, ty)? > 1 {
            return self.in_namespace_reached(file, from, name, kind, &segments, &owned, depth);
        }
        if let [one] = owned.as_slice() {
            // The one type of that name that has it — unless the type this file reaches
            // is another of the name, in another file, whose own member it is not
            // (click's `core.Option` reads the `nargs` its base assigns; `parser.Option`
            // has one of its own). (Not where a type's members may be written in other
            // files: Ruby's reopened classes, Go's methods, Rust's `impl`s.)
            if depth < MAX_DEPTH
                && !rules.global_names()
                && !rules.methods_outside_types()
                && !rules.static_paths()
                && let Some(Target::Linked(type_id)) =
                    self.bare(file, None, ty, RefKind::TypeRef)?
                && self.file_of(ty, type_id)?.is_some_and(|f| f != one.file)
            {
                return Ok(self
                    .inherited((file, from), name, kind, ty, depth)?
                    .unwrap_or(Target::External));
            }
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
            // An `impl` of that type elsewhere in its build unit (Rust's crate).
            let krate = self.unit(type_file)?;
            if krate.is_some() {
                let mut in_crate = Vec::new();
                for s in &owned {
                    if self.unit(s.file)? == krate {
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

    /// The member `name` of a value whose class nothing declares, on which `uses` (its
    /// qualifier's, see `ExtractedRef::qual`: `attr children type`) are called: the
    /// member every class has that has, as an instance's, each of those the values of
    /// the language's common classes lack ([`LanguageLinker::common_member`]), when
    /// there are [`MIN_USES`] or more such uses (see [`Linker::having`]). Where no class
    /// of the project could have them all, the value's class is outside it: ambiguous if
    /// some type has a member `name`. None when the uses say nothing (fewer, the value is
    /// a class: `new`), or the classes disagree.
    fn by_use(
        &mut self,
        file: i64,
        name: &str,
        kind: RefKind,
        uses: &str,
        depth: usize,
    ) -> rusqlite::Result<Option<Target>> {
        let key = (file, uses.to_string());
        let classes = match self.used.get(&key) {
            Some(classes) => classes.clone(),
            None => {
                let classes = self.having(file, uses, depth)?.map(Rc::from);
                self.used.insert(key, classes.clone());
                classes
            }
        };
        let Some(classes) = classes else {
            return Ok(None);
        };
        if classes.is_empty() {
            return self.ambiguous_if_any(file, name, kind).map(Some);
        }
        let mut agreed = None;
        for class in classes.iter() {
            match self.instance_member(class, name, kind, depth)? {
                Some(found) if agreed.is_none_or(|a| a == found) => agreed = Some(found),
                _ => return Ok(None),
            }
        }
        Ok(agreed.map(Target::Linked))
    }

    /// The classes (and constants holding one) whose instances have each of `uses` (see
    /// [`Linker::by_use`]) that the common values lack, when [`MIN_USES`] or more are;
    /// none when they are fewer, too many classes have one of them, or a class that may
    /// have the rest from outside the project has too few.
    fn having(
        &mut self,
        file: i64,
        uses: &str,
        depth: usize,
    ) -> rusqlite::Result<Option<Vec<Sym>>> {
        let rules = self.rules(file)?;
        let names: Vec<&str> = uses.split(' ').collect();
        let telling: Vec<&str> = names
            .iter()
            .copied()
            .filter(|n| !rules.common_member(n))
            .collect();
        if telling.len() < MIN_USES || names.contains(&"new") {
            return Ok(None);
        }
        // The classes that define one of them (each once, however often reopened), each
        // a candidate.
        let mut owners: Vec<Sym> = Vec::new();
        let mut seen: HashSet<i64> = HashSet::new();
        for n in &telling {
            for s in self.candidates(file, n, Some(SymbolKind::Method), |s| !s.of_class)? {
                let (Scope::Member(owner), Some(parent)) = (&s.scope, s.parent) else {
                    continue;
                };
                // (A value is of a class, or of what a constant holds — `Struct.new`'s —
                // not of a module.)
                let Some(class) = self
                    .sym(owner, parent)?
                    .filter(|c| matches!(c.kind, Some(SymbolKind::Class | SymbolKind::Const)))
                else {
                    continue;
                };
                let defined = self.every_definition((class.file, class.id, class.bases.clone()))?;
                if defined.iter().all(|(_, id, _)| seen.insert(*id)) {
                    owners.push(class);
                }
            }
            if owners.len() > MAX_USED_CLASSES {
                return Ok(None);
            }
        }
        // Those that have every use (in the project); else those that have three or more,
        // and more than they lack, and extend or mix in, however deep, a class outside
        // the project that may have the rest (`Corrector <
        // ::Parser::Source::TreeRewriter`: `replace`), where a class of the language's
        // library has only its library's methods (`Options < Struct` has no
        // `add_trust_ca`).
        let mut having = Vec::new();
        let mut open = Vec::new();
        let mut may = false;
        for class in owners {
            let of = self.class_of_instance(&class)?;
            let mut missing = Vec::new();
            for n in &telling {
                let found = match &of {
                    Some(of) => self.member_of_instance(of, n, RefKind::Call, depth)?,
                    None => None,
                };
                if found.is_none() {
                    missing.push(*n);
                }
            }
            if missing.is_empty() {
                having.push(class);
                continue;
            }
            let covered = match self.extends_outside(&class)? {
                Outside::Nothing => false,
                Outside::Library => missing.iter().all(|n| rules.library_member(n)),
                Outside::Any => true,
            };
            let found = telling.len() - missing.len();
            if covered && found >= MIN_USES && found > missing.len() {
                open.push(class);
            }
            may |= covered;
        }
        Ok(match (having.is_empty(), open.is_empty()) {
            (false, _) => Some(having),
            (true, false) => Some(open),
            // A class that may have them all through what it extends, on too little
            // evidence: the uses tell nothing.
            (true, true) if may => None,
            (true, true) => Some(Vec::new()),
        })
    }

    /// Every member called on the value `value` of no known class (a local, a parameter,
    /// an instance variable) in the methods of every definition of the class `from` is
    /// written in (Ruby's, reopened in other files) and, for an instance variable, of
    /// the classes it extends and that extend it, however deep (an instance variable of
    /// a base is its subclasses' too): a value of one name in one class is taken for
    /// one class (as within one file, see `extract::share_uses`). None where they add
    /// nothing to `own`, what `from` is known to call on it.
    fn pooled_uses(
        &mut self,
        file: i64,
        from: Option<i64>,
        value: &str,
        own: Option<&str>,
    ) -> rusqlite::Result<Option<String>> {
        let ivar = value.starts_with('@');
        let name = value.strip_prefix('@').unwrap_or(value);
        if name.is_empty()
            || !name.chars().all(|c| c.is_alphanumeric() || c == '_')
            || !name.starts_with(|c: char| c.is_lowercase() || c == '_')
        {
            return Ok(None);
        }
        let chain = self.enclosing(file, from)?;
        let Some((id, class)) = self.enclosing_type(&chain) else {
            return Ok(None);
        };
        let key = (id, value.to_string());
        let pooled = match self.pooled.get(&key) {
            Some(pooled) => pooled.clone(),
            None => {
                let Some(sym) = self.sym(&class, id)? else {
                    return Ok(None);
                };
                let mut names: BTreeSet<String> = BTreeSet::new();
                let mut seen: HashSet<i64> = HashSet::new();
                // Each class reached, and whether to go on up its bases and down its
                // subclasses: from the class both ways, then one way each (never to a
                // sibling class).
                let mut next: Vec<(TypeBases, (bool, bool))> =
                    vec![((sym.file, sym.id, sym.bases.clone()), (true, true))];
                while let Some((reached, (up, down))) = next.pop() {
                    if !seen.insert(reached.1) || seen.len() > 64 {
                        continue;
                    }
                    for (at, written_in, bases) in self.every_definition(reached)? {
                        seen.insert(written_in);
                        if let Some(class) = self.name_of(written_in)?
                            && let Some(uses) = self.sym(&class, written_in)?.and_then(|s| s.uses)
                            && let Some(used) = super::pairs_of(&uses)
                                .find_map(|(v, used)| (v == value).then_some(used))
                        {
                            names.extend(used.split(' ').map(str::to_string));
                        }
                        if !ivar {
                            continue;
                        }
                        if up {
                            for base in bases.iter().flat_map(|b| b.iter()) {
                                let reached =
                                    self.type_bases((at, Some(written_in)), last_segment(base))?;
                                next.extend(reached.map(|r| (r, (true, false))));
                            }
                        }
                        if down {
                            let extending = self.extending(written_in)?;
                            next.extend(extending.iter().map(|r| (r.clone(), (false, true))));
                        }
                    }
                }
                let pooled = (!names.is_empty())
                    .then(|| Rc::from(names.into_iter().collect::<Vec<_>>().join(" ")));
                self.pooled.insert(key, pooled.clone());
                pooled
            }
        };
        let Some(pooled) = pooled else {
            return Ok(None);
        };
        let own: BTreeSet<&str> = own.map(|o| o.split(' ').collect()).unwrap_or_default();
        Ok(pooled
            .split(' ')
            .any(|n| !own.contains(n))
            .then(|| pooled.to_string()))
    }

    /// The classes that extend the class `id` (one of its definitions), as they reach it
    /// by the names of their bases.
    fn extending(&mut self, id: i64) -> rusqlite::Result<Rc<[TypeBases]>> {
        if let Some(found) = self.extending.get(&id) {
            return Ok(found.clone());
        }
        let found: Rc<[TypeBases]> = match self.name_of(id)? {
            Some(class) => {
                let file = self.sym(&class, id)?.map(|s| s.file);
                let mut found = Vec::new();
                if let Some(file) = file {
                    for sub in self.includers(file, &class)? {
                        if self
                            .type_bases((sub.file, Some(sub.id)), &class)?
                            .is_some_and(|(_, reached, _)| reached == id)
                        {
                            found.push((sub.file, sub.id, sub.bases.clone()));
                        }
                    }
                }
                Rc::from(found)
            }
            None => Rc::from(Vec::new()),
        };
        self.extending.insert(id, found.clone());
        Ok(found)
    }

    /// Whether a value of the class `ty` (written in `file`, in `from`) is of one of the
    /// language's own classes that the project does not define, or, in one global
    /// namespace (Ruby's), defines only where the reference does not see it (`Dir.pwd`
    /// outside `Cop::Style`, which has a `Dir` cop), so that its members are outside:
    /// not one whose value may be of any class ([`LanguageLinker::of_any_class`]).
    fn of_library_class(
        &mut self,
        file: i64,
        from: Option<i64>,
        ty: &str,
    ) -> rusqlite::Result<bool> {
        let rules = self.rules(file)?;
        if !rules.library_type(ty) || rules.of_any_class(ty) {
            return Ok(false);
        }
        if !self.defined(ty)? {
            return Ok(true);
        }
        if !rules.global_names() {
            return Ok(false);
        }
        let at_top = self
            .classes_named(file, ty)?
            .iter()
            .any(|s| s.parent.is_none());
        let chain = self.enclosing(file, from)?;
        let homes = self.namespaces_around(&[], &chain)?;
        Ok(!at_top && self.first_classes_in(file, ty, homes, |_| true)?.is_empty())
    }

    /// What `class` extends or mixes in, however deep, that the project does not define:
    /// nothing, only classes and modules of the language's library
    /// ([`LanguageLinker::library_type`]), or any other.
    fn extends_outside(&mut self, class: &Sym) -> rusqlite::Result<Outside> {
        let rules = self.rules(class.file)?;
        let mut outside = Outside::Nothing;
        let mut seen: HashSet<i64> = HashSet::new();
        let mut next: Vec<TypeBases> = vec![(class.file, class.id, class.bases.clone())];
        while let Some(reached) = next.pop() {
            if !seen.insert(reached.1) || seen.len() > 64 {
                continue;
            }
            for (at, written_in, bases) in self.every_definition(reached)? {
                for base in bases.iter().flat_map(|b| b.iter()) {
                    let last = base.rsplit('.').next().unwrap_or(base);
                    match self.type_bases((at, Some(written_in)), last)? {
                        Some(found) => next.push(found),
                        None if self.defined(last)? => {}
                        None if rules.library_type(base) => outside = Outside::Library,
                        None => return Ok(Outside::Any),
                    }
                }
            }
        }
        Ok(outside)
    }

    /// The member `name` an instance of `class` has: its own, wherever the class is
    /// reopened, or one it inherits (never the project's one method of the name, nor a
    /// class's or module's own).
    fn instance_member(
        &mut self,
        class: &Sym,
        name: &str,
        kind: RefKind,
        depth: usize,
    ) -> rusqlite::Result<Option<i64>> {
        match self.class_of_instance(class)? {
            Some(of) => self.member_of_instance(&of, name, kind, depth),
            None => Ok(None),
        }
    }

    /// What [`Linker::member_of_instance`] asks of `class` for every name: its name and
    /// its every definition.
    fn class_of_instance<'c>(&mut self, class: &'c Sym) -> rusqlite::Result<Option<Instance<'c>>> {
        let Some(ty) = self.name_of(class.id)? else {
            return Ok(None);
        };
        let defined = self.every_definition((class.file, class.id, class.bases.clone()))?;
        Ok(Some(Instance { class, ty, defined }))
    }

    /// [`Linker::instance_member`] of the class `of` tells.
    fn member_of_instance(
        &mut self,
        of: &Instance,
        name: &str,
        kind: RefKind,
        depth: usize,
    ) -> rusqlite::Result<Option<i64>> {
        let Instance { class, ty, defined } = of;
        // (A method the class writes before one a call makes: `def params=` before the
        // member `params` of its base `Struct.new(`.)
        let own = self
            .owned(class.file, name, ty)?
            .into_iter()
            .filter(|s| !s.of_class && s.parent.is_some_and(|p| defined.iter().any(|d| d.1 == p)))
            .min_by_key(|s| (s.made, s.id));
        if let Some(own) = own {
            return Ok(Some(own.id));
        }
        Ok(
            match self.inherited_by((class.id, ty), name, kind, depth)? {
                Some(Target::Linked(id)) if !self.sym(name, id)?.is_some_and(|s| s.of_class) => {
                    Some(id)
                }
                _ => None,
            },
        )
    }

    /// The member `name` of a value of the type `ty`, written in a file and a symbol of
    /// it (its names are looked up from there): as [`Linker::qualified`] finds it, but
    /// an instance's method where the class also has one of its own of the name (Ruby's
    /// `def self.translate` beside `def translate`: a value is an instance).
    fn of_instance(
        &mut self,
        (file, from): (i64, Option<i64>),
        name: &str,
        kind: RefKind,
        ty: &str,
        depth: usize,
    ) -> rusqlite::Result<Target> {
        let found = self.qualified(file, from, name, kind, ty, depth)?;
        if let Target::Linked(id) = found
            && self.sym(name, id)?.is_some_and(|s| s.of_class)
        {
            let class = ty.rsplit('.').next().unwrap_or(ty);
            let instances: Vec<Sym> = self
                .owned(file, name, class)?
                .into_iter()
                .filter(|s| !s.of_class)
                .collect();
            if let [one] = instances.as_slice() {
                return Ok(Target::Linked(one.id));
            }
        }
        Ok(found)
    }

    /// The member `name` of the class `path` (`a.B`: its last segment) names, where
    /// classes of that name are defined in several namespaces (see
    /// [`Linker::namespaces_of`]): the class of the namespace the path writes, else of
    /// the innermost namespace the reference is written in that has one — its own
    /// member, or one it inherits. `owned` are the members of every class of the name.
    #[allow(clippy::too_many_arguments)]
    fn in_namespace_reached(
        &mut self,
        file: i64,
        from: Option<i64>,
        name: &str,
        kind: RefKind,
        path: &[&str],
        owned: &[Sym],
        depth: usize,
    ) -> rusqlite::Result<Target> {
        let Some((ty, written)) = path.split_last() else {
            return Ok(Target::Ambiguous);
        };
        let chain = self.enclosing(file, from)?;
        let homes = self.namespaces_around(written, &chain)?;
        let reached = self.first_classes_in(file, ty, homes, |_| true)?;
        let ids: HashSet<i64> = reached.iter().map(|c| c.id).collect();
        let own: Vec<&Sym> = owned
            .iter()
            .filter(|s| s.parent.is_some_and(|p| ids.contains(&p)))
            .collect();
        if let Some(s) = best(own.into_iter(), kind) {
            return Ok(Target::Linked(s.id));
        }
        if depth < MAX_DEPTH {
            for class in &reached {
                if let Some(found) = self.inherited_by((class.id, ty), name, kind, depth)? {
                    return Ok(found);
                }
            }
        }
        Ok(Target::Ambiguous)
    }

    /// The namespaces a name written after the path `written` (`A::B::` of `A::B::C`)
    /// is looked up in, first to last: the path's, innermost first, then those of
    /// `chain` (a reference's enclosing symbols, innermost first) that are classes or
    /// modules.
    fn namespaces_around(
        &mut self,
        written: &[&str],
        chain: &[i64],
    ) -> rusqlite::Result<Vec<Arc<str>>> {
        let mut homes: Vec<Arc<str>> = written.iter().rev().map(|s| Arc::from(*s)).collect();
        for id in chain {
            if let Some(home) = self.name_of(*id)? {
                homes.push(home);
            }
        }
        Ok(homes)
    }

    /// The classes and modules named `name` that `keep` keeps in the first of `homes`
    /// that has any (see [`Linker::classes_in`]); none when no namespace has one.
    fn first_classes_in(
        &mut self,
        file: i64,
        name: &str,
        homes: Vec<Arc<str>>,
        keep: impl Fn(&Sym) -> bool,
    ) -> rusqlite::Result<Vec<Sym>> {
        for home in homes {
            let mut classes = self.classes_in(file, name, &home)?;
            classes.retain(&keep);
            if !classes.is_empty() {
                return Ok(classes);
            }
        }
        Ok(Vec::new())
    }

    /// The first constant named `name` written directly in one of the namespaces
    /// `homes` (innermost first), however many files define them.
    fn first_constant_in(
        &mut self,
        file: i64,
        name: &str,
        homes: Vec<Arc<str>>,
    ) -> rusqlite::Result<Option<Sym>> {
        let constants = self.candidates(file, name, Some(SymbolKind::Const), |s| {
            s.kind == Some(SymbolKind::Const)
        })?;
        if constants.is_empty() {
            return Ok(None);
        }
        for home in homes {
            if let Some(constant) = self.written_in(&constants, &home)?.into_iter().next() {
                return Ok(Some(constant));
            }
        }
        Ok(None)
    }

    /// Whether a path (`URI.Parser`, `Net.HTTP.get`) starts with a namespace the project
    /// does not define: it is outside, whatever its last name matches here.
    fn outside_namespace(&mut self, segments: &[&str]) -> rusqlite::Result<bool> {
        Ok(segments.len() > 1
            && segments[0].starts_with(|c: char| c.is_ascii_uppercase())
            && !self.defined(segments[0])?)
    }

    /// The classes and modules named `name` (of `file`'s family) written directly in a
    /// class or module named `home` (each definition of one reopened in several files).
    fn classes_in(&mut self, file: i64, name: &str, home: &str) -> rusqlite::Result<Vec<Sym>> {
        let classes = self.classes_named(file, name)?;
        self.written_in(&classes, home)
    }

    /// Those of `syms` written directly in a class or module named `home`.
    fn written_in(&mut self, syms: &[Sym], home: &str) -> rusqlite::Result<Vec<Sym>> {
        let mut found = Vec::new();
        for sym in syms {
            let at = match sym.parent {
                Some(parent) => self.name_of(parent)?,
                None => None,
            };
            if at.as_deref() == Some(home) {
                found.push(sym.clone());
            }
        }
        Ok(found)
    }

    /// The classes and modules named `name` of `file`'s family.
    fn classes_named(&mut self, file: i64, name: &str) -> rusqlite::Result<Vec<Sym>> {
        self.candidates(file, name, None, |s| {
            matches!(s.kind, Some(SymbolKind::Class | SymbolKind::Mod))
        })
    }

    /// The name of the class or module `id` (of the files the run has read).
    fn name_of(&mut self, id: i64) -> rusqlite::Result<Option<Arc<str>>> {
        match self.source {
            Source::Memory { types, .. } => Ok(types.get(&id).cloned()),
            Source::Db(conn) => {
                if let Some(name) = self.types.get(&id) {
                    return Ok(Some(name.clone()));
                }
                use rusqlite::OptionalExtension;
                let row: Option<(String, String, String)> = conn
                    .prepare_cached(
                        "SELECT s.kind, s.name, f.language FROM symbols s
                         JOIN files f ON f.id = s.file_id WHERE s.id = ?1",
                    )?
                    .query_row([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
                    .optional()?;
                let Some((kind, name, language)) = row else {
                    return Ok(None);
                };
                let owns = SymbolKind::parse(&kind)
                    .is_some_and(|k| owns_members(Family::of(&language), k));
                if !owns {
                    return Ok(None);
                }
                let name: Arc<str> = Arc::from(name.as_str());
                self.types.insert(id, name.clone());
                Ok(Some(name))
            }
        }
    }

    /// In how many namespaces (what each is written in, or the top level) a class or
    /// module named `name` of `file`'s family is defined: a class reopened in several
    /// files is one.
    fn namespaces_of(&mut self, file: i64, name: &str) -> rusqlite::Result<usize> {
        let family = self.family(file)?;
        if let Some(found) = self.read.namespaces.get(&(name.to_string(), family)) {
            return Ok(*found);
        }
        let found = match self.source {
            Source::Memory { parents, types, .. } => {
                let homes: HashSet<Option<&Arc<str>>> = self
                    .classes_named(file, name)?
                    .iter()
                    .map(|s| parents.get(&s.id).and_then(|p| types.get(p)))
                    .collect();
                homes.len()
            }
            Source::Db(conn) => {
                let (a, b) = family.languages();
                conn.prepare_cached(
                    "SELECT count(DISTINCT coalesce(p.name, '')) FROM symbols s
                     JOIN files f ON f.id = s.file_id
                     LEFT JOIN symbols p ON p.id = s.parent_symbol_id
                     WHERE s.name = ?1 AND s.kind IN ('class', 'mod') AND f.language IN (?2, ?3)",
                )?
                .query_row(rusqlite::params![name, a, b], |r| r.get::<_, i64>(0))?
                    as usize
            }
        };
        self.read
            .namespaces
            .insert((name.to_string(), family), found);
        Ok(found)
    }

    /// The class of the value the field `field` holds (Ruby's `@src`) in the class or
    /// module a reference from `from` in `file` is written in, as one of its methods
    /// assigns it: in any definition of the class (reopened in other files), where
    /// they agree, else in the nearest type it extends or mixes in that assigns it; for
    /// a module that does not, the class around it. With the file it is written in (the
    /// qualifier is that file's).
    fn field_assigned(
        &mut self,
        file: i64,
        from: Option<i64>,
        field: &str,
    ) -> rusqlite::Result<Option<Written>> {
        let mut chain = self.enclosing(file, from)?;
        while let Some((id, class)) = self.enclosing_type(&chain) {
            let Some(sym) = self.sym(&class, id)? else {
                return Ok(None);
            };
            let key = (id, field.to_string());
            let found = match self.fields_read.get(&key) {
                Some(found) => found.clone(),
                None => {
                    let found = self.field_of((sym.file, sym.id, sym.bases.clone()), field, 0)?;
                    self.fields_read.insert(key, found.clone());
                    found
                }
            };
            // A module's methods read the instance variables of what mixes it in, often
            // the class it is written in.
            if found.is_some() || sym.kind != Some(SymbolKind::Mod) {
                return Ok(found);
            }
            let at = chain
                .iter()
                .position(|c| *c == id)
                .map_or(chain.len(), |at| at + 1);
            chain.drain(..at);
        }
        Ok(None)
    }

    /// [`Linker::field_assigned`] of the type `reached`, `depth` bases up.
    fn field_of(
        &mut self,
        reached: TypeBases,
        field: &str,
        depth: usize,
    ) -> rusqlite::Result<Option<Written>> {
        let defined = self.every_definition(reached)?;
        let mut agreed: Option<Written> = None;
        for (file, id, _) in &defined {
            let Some(class) = self.name_of(*id)? else {
                continue;
            };
            let Some(ty) = self
                .sym(&class, *id)?
                .and_then(|s| s.fields)
                .and_then(|fields| field_in(&fields, field).map(Arc::from))
            else {
                continue;
            };
            match &agreed {
                // (Each file writes the path its own way: `::A::B`, `B`.)
                Some((_, known)) if last_segment(known) != last_segment(&ty) => return Ok(None),
                Some(_) => {}
                None => agreed = Some((*file, ty)),
            }
        }
        if agreed.is_some() || depth >= MAX_DEPTH {
            return Ok(agreed);
        }
        for (file, id, bases) in defined {
            for base in bases.iter().flat_map(|bases| bases.iter()) {
                let base = last_segment(base);
                if let Some(reached) = self.type_bases((file, Some(id)), base)?
                    && let Some(found) = self.field_of(reached, field, depth + 1)?
                {
                    return Ok(Some(found));
                }
            }
        }
        Ok(None)
    }

    /// A member `name` that the type `ty` (as reached from `file`) inherits: linked where
    /// one of the types it extends or implements, each as its own file names it, defines
    /// it or inherits it. `None` when none does (or the type is not reached).
    fn inherited(
        &mut self,
        (file, from): (i64, Option<i64>),
        name: &str,
        kind: RefKind,
        ty: &str,
        depth: usize,
    ) -> rusqlite::Result<Option<Target>> {
        let key = (file, from, ty.to_string());
        let reached = match self.bases.get(&key) {
            Some(reached) => reached.clone(),
            None => {
                let reached = self.type_bases((file, from), ty)?;
                self.bases.insert(key, reached.clone());
                reached
            }
        };
        self.inherited_from(reached, name, kind, depth)
    }

    /// A member `name` that the type `(id, its name)` inherits (see
    /// [`Linker::inherited`]).
    fn inherited_by(
        &mut self,
        (id, ty): (i64, &str),
        name: &str,
        kind: RefKind,
        depth: usize,
    ) -> rusqlite::Result<Option<Target>> {
        let reached = self.sym(ty, id)?.map(|s| (s.file, s.id, s.bases));
        self.inherited_from(reached, name, kind, depth)
    }

    /// A member `name` that a type of file and bases `reached` inherits.
    fn inherited_from(
        &mut self,
        reached: Option<TypeBases>,
        name: &str,
        kind: RefKind,
        depth: usize,
    ) -> rusqlite::Result<Option<Target>> {
        let Some((type_file, type_id, bases)) = reached else {
            return Ok(None);
        };
        for (type_file, type_id, bases) in self.every_definition((type_file, type_id, bases))? {
            for base in bases.iter().flat_map(|bases| bases.iter()) {
                // A base the project does not define (Ruby's `extend Forwardable`) has
                // nothing of it: what a value of no known class calls is no answer here.
                if !self.defined(base.rsplit('.').next().unwrap_or(base))? {
                    continue;
                }
                // (Written in the type: a base is reached from where the type is.)
                // (A member of the base or of what it inherits, never the project's one
                // method of the name a value of no known class would call.)
                self.in_bases += 1;
                let found = self.qualified(type_file, Some(type_id), name, kind, base, depth + 1);
                self.in_bases -= 1;
                if let Target::Linked(found) = found?
                    && !self.module_own(name, found)?
                {
                    return Ok(Some(Target::Linked(found)));
                }
            }
        }
        Ok(None)
    }

    /// A `super` in a module's method `name`: what follows the module in the ancestors
    /// of the classes that mix it in (Ruby's `Concat::Native` in `Identity <
    /// Pattern`: `Pattern#+`), when they all reach the same definition.
    fn after_module(
        &mut self,
        file: i64,
        name: &str,
        kind: RefKind,
        module: &str,
        depth: usize,
    ) -> rusqlite::Result<Option<Target>> {
        let mut agreed: Option<Target> = None;
        for class in self.includers(file, module)? {
            let bases: Vec<Arc<str>> = class.bases.iter().flat_map(|b| b.iter().cloned()).collect();
            let Some(at) = bases
                .iter()
                .position(|b| b.rsplit('.').next() == Some(module))
            else {
                continue;
            };
            let mut found = None;
            for base in &bases[at + 1..] {
                if let Target::Linked(id) =
                    self.qualified(class.file, Some(class.id), name, kind, base, depth + 1)?
                    && !self.module_own(name, id)?
                {
                    found = Some(Target::Linked(id));
                    break;
                }
            }
            match (found, agreed) {
                (None, _) => return Ok(None),
                (Some(f), Some(a)) if f != a => return Ok(None),
                (Some(f), _) => agreed = Some(f),
            }
        }
        Ok(agreed)
    }

    /// The member `name` as the classes that mix the module `module` in have it (their
    /// own or what they inherit): one definition they all reach, ambiguous where they
    /// reach several; None where none has it (or no class mixes the module in).
    fn in_includers(
        &mut self,
        file: i64,
        name: &str,
        kind: RefKind,
        module: &str,
    ) -> rusqlite::Result<Option<Target>> {
        let mut reached: Option<Target> = None;
        for class in self.includers(file, module)? {
            let Some(class_name) = self.name_of(class.id)? else {
                continue;
            };
            self.in_bases += 1;
            let found = self.qualified(class.file, Some(class.id), name, kind, &class_name, 1);
            self.in_bases -= 1;
            if let Target::Linked(id) = found? {
                match reached {
                    Some(Target::Linked(other)) if other != id => {
                        return Ok(Some(Target::Ambiguous));
                    }
                    _ => reached = Some(Target::Linked(id)),
                }
            }
        }
        Ok(reached)
    }

    /// The classes of `file`'s family that extend or mix in a class or module named
    /// `base` (by the last name of its path), in id order.
    fn includers(&mut self, file: i64, base: &str) -> rusqlite::Result<Vec<Sym>> {
        let family = self.family(file)?;
        let key = (base.to_string(), family);
        if let Some(found) = self.includers.get(&key) {
            return Ok(found.clone());
        }
        let names_it = |s: &Sym| {
            s.family == family
                && s.kind == Some(SymbolKind::Class)
                && s.bases
                    .iter()
                    .flat_map(|b| b.iter())
                    .any(|b| b.rsplit('.').next() == Some(base))
        };
        let mut found: Vec<Sym> = match self.source {
            Source::Memory { symbols, .. } => symbols
                .values()
                .flat_map(|syms| syms.iter())
                .filter(|s| names_it(s))
                .cloned()
                .collect(),
            Source::Db(conn) => {
                let (a, b) = family.languages();
                // (Its bases are in its signature or its mixins, which name them.)
                read_syms(
                    conn,
                    select_syms!(
                        "FROM symbols s JOIN files f ON f.id = s.file_id
                         LEFT JOIN symbols p ON p.id = s.parent_symbol_id
                         WHERE s.kind = 'class' AND f.language IN (?1, ?2)
                           AND (instr(s.signature, ?3) > 0 OR instr(s.mixins, ?3) > 0)"
                    ),
                    &[&a, &b, &base],
                )?
                .into_iter()
                .filter(|s| names_it(s))
                .collect()
            }
        };
        found.sort_by_key(|s| s.id);
        self.includers.insert(key, found.clone());
        Ok(found)
    }

    /// Whether the type `ty` (as `file` reaches it) has the module `module` among the
    /// types it extends or mixes in, however deep.
    fn mixes_in(&mut self, file: i64, ty: &str, module: &str) -> rusqlite::Result<bool> {
        let mut seen: HashSet<i64> = HashSet::new();
        let mut next: Vec<(i64, i64, Bases)> =
            self.type_bases((file, None), ty)?.into_iter().collect();
        while let Some((at, id, bases)) = next.pop() {
            if !seen.insert(id) || seen.len() > 64 {
                continue;
            }
            for (at, written_in, bases) in self.every_definition((at, id, bases))? {
                for base in bases.iter().flat_map(|b| b.iter()) {
                    let last = base.rsplit('.').next().unwrap_or(base);
                    if last == module {
                        return Ok(true);
                    }
                    next.extend(self.type_bases((at, Some(written_in)), last)?);
                }
            }
        }
        Ok(false)
    }

    /// The type `reached` and, where a class of one global name may be reopened in other
    /// files (Ruby's), its other definitions, with what each extends and mixes in.
    fn every_definition(&mut self, reached: TypeBases) -> rusqlite::Result<Vec<TypeBases>> {
        let (file, id, _) = reached;
        let mut defined = vec![reached];
        if self.rules(file)?.global_names() {
            defined.extend(
                self.reopened(file, id)?
                    .into_iter()
                    .map(|s| (s.file, s.id, s.bases)),
            );
        }
        Ok(defined)
    }

    /// The other definitions of the class or module `id` of `file`, in the same
    /// namespace (a class of one global name reopened in other files), in id order.
    fn reopened(&mut self, file: i64, id: i64) -> rusqlite::Result<Vec<Sym>> {
        let Some(name) = self.name_of(id)? else {
            return Ok(Vec::new());
        };
        let Some(sym) = self.sym(&name, id)? else {
            return Ok(Vec::new());
        };
        let home = self.home_of(&sym)?;
        let mut found = Vec::new();
        for class in self.classes_named(file, &name)? {
            if class.id != id && self.home_of(&class)? == home {
                found.push(class);
            }
        }
        Ok(found)
    }

    /// Whether the symbol `id` named `name` is a module's own method (Ruby's `def
    /// self.m` in a module): what includes the module does not get it.
    fn module_own(&mut self, name: &str, id: i64) -> rusqlite::Result<bool> {
        match self.sym(name, id)? {
            Some(sym) if sym.of_class => self.in_module(&sym),
            _ => Ok(false),
        }
    }

    /// Whether `sym` is written in a module (not a class).
    fn in_module(&mut self, sym: &Sym) -> rusqlite::Result<bool> {
        let Some(parent) = sym.parent else {
            return Ok(false);
        };
        let Some(name) = self.name_of(parent)? else {
            return Ok(false);
        };
        Ok(self
            .sym(&name, parent)?
            .is_some_and(|p| p.kind == Some(SymbolKind::Mod)))
    }

    /// The name of the class or module `sym` is written in, if any.
    fn home_of(&mut self, sym: &Sym) -> rusqlite::Result<Option<Arc<str>>> {
        match sym.parent {
            Some(parent) => self.name_of(parent),
            None => Ok(None),
        }
    }

    /// Of the classes and modules `fitting` of one name, the one to link when they are
    /// all one, reopened (a global name written in one namespace: Ruby's `module Base`
    /// in `class Thor` of two files): the one of the file named after it (`base.rb`),
    /// else the first.
    fn one_reopened(
        &mut self,
        file: i64,
        name: &str,
        fitting: &[&Sym],
    ) -> rusqlite::Result<Option<Sym>> {
        if fitting.is_empty()
            || !fitting
                .iter()
                .all(|s| matches!(s.kind, Some(SymbolKind::Class | SymbolKind::Mod)))
            || self.namespaces_of(file, name)? != 1
        {
            return Ok(None);
        }
        // (`string_scanner.rb` is named after `StringScanner`.)
        let squashed = |text: &str| -> String {
            text.chars()
                .filter(|c| *c != '_')
                .map(|c| c.to_ascii_lowercase())
                .collect()
        };
        let wanted = squashed(name);
        let mut named = None;
        for s in fitting {
            let rel = self.repo.files.rel(s.file)?;
            let base = rel.rsplit('/').next().unwrap_or(&rel);
            let stem = base.split('.').next().unwrap_or(base);
            if squashed(stem) == wanted {
                named = Some((*s).clone());
                break;
            }
        }
        Ok(named.or_else(|| fitting.iter().min_by_key(|s| s.id).map(|s| (*s).clone())))
    }

    /// The file of the type `ty` as `file` reaches it, and the types it extends and
    /// implements; None when it is not reached.
    fn type_bases(
        &mut self,
        (file, from): (i64, Option<i64>),
        ty: &str,
    ) -> rusqlite::Result<Option<TypeBases>> {
        if !self.defined(ty)? {
            return Ok(None);
        }
        // (A module mixed in holds members as a type does: Ruby's.)
        let as_kind = if self.rules(file)?.mixins() {
            RefKind::Implements
        } else {
            RefKind::TypeRef
        };
        let Some(Target::Linked(id)) = self.bare(file, from, ty, as_kind)? else {
            return Ok(None);
        };
        Ok(self.sym(ty, id)?.map(|sym| (sym.file, sym.id, sym.bases)))
    }

    /// The type of the field or property `member` of the type `owner`, when the one such
    /// member reached from `file` says it (a declared field, a property's return type),
    /// with where that writes it (where its names are looked up).
    fn member_type(
        &mut self,
        file: i64,
        owner: &str,
        member: &str,
        depth: usize,
    ) -> rusqlite::Result<Option<Given>> {
        if !self.defined(member)? {
            return Ok(None);
        }
        let owned = self.owned(file, member, owner)?;
        let [sym] = owned.as_slice() else {
            return Ok(None);
        };
        if !matches!(
            sym.kind,
            Some(SymbolKind::Var | SymbolKind::Const | SymbolKind::Method)
        ) {
            return Ok(None);
        }
        let sym = sym.clone();
        self.type_given(&sym, member, depth)
    }

    /// The type of the variable (or constant) `name` reached from `file` by its rules,
    /// when its definition says it, with where that writes it (where its names are
    /// looked up: `current_app: FlaskProxy` in the module that imports `FlaskProxy`'s
    /// bases, not in the one that imports `current_app`).
    fn variable_type(
        &mut self,
        file: i64,
        from: Option<i64>,
        name: &str,
        depth: usize,
    ) -> rusqlite::Result<Option<Given>> {
        if !name.starts_with(|c: char| c.is_alphabetic() || c == '_') || !self.defined(name)? {
            return Ok(None);
        }
        let Some(Target::Linked(id)) = self.bare(file, from, name, RefKind::Import)? else {
            return Ok(None);
        };
        let bare_calls = self.rules(file)?.bare_calls();
        let ty = match self.sym(name, id)? {
            Some(sym) if matches!(sym.kind, Some(SymbolKind::Var | SymbolKind::Const)) => {
                self.type_given(&sym, name, depth)?
            }
            // `root.walk` where `root` is a method (Ruby's `attr_reader :root`).
            Some(sym) if bare_calls && sym.kind == Some(SymbolKind::Method) => {
                self.type_given(&sym, name, depth)?
            }
            _ => None,
        };
        Ok(ty)
    }

    /// The files of the module a path names (`crate::a::b`, an imported module's alias
    /// and what follows it), or `None` when the path is not a module.
    fn module_of_path(
        &mut self,
        file: i64,
        segments: &[&str],
    ) -> rusqlite::Result<Option<Vec<i64>>> {
        let Some(first) = segments.first().copied() else {
            return Ok(None);
        };
        let rules = self.rules(file)?;
        if rules.static_paths() {
            return Ok(self
                .walk(file, segments)?
                .and_then(|(module, rest)| rest.is_empty().then_some(module)));
        }
        let bindings = self.bindings_of(file)?;
        let Some(b) = bindings.iter().find(|b| b.local == first) else {
            return Ok(None);
        };
        let Some(module) = rules.path_module(b, &segments[1..]) else {
            return Ok(None);
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
        let family = self.family(file)?;
        let (resolver, repo) = self.resolver(family);
        let found = resolver.files(repo, file, module)?;
        self.modules.insert(key, found.clone());
        Ok(found)
    }

    /// A path written in `file` followed through modules, where paths are static (see
    /// [`Modules::walk`]).
    fn walk(
        &mut self,
        file: i64,
        segments: &[&str],
    ) -> rusqlite::Result<Option<(Vec<i64>, Vec<String>)>> {
        let family = self.family(file)?;
        let (resolver, repo) = self.resolver(family);
        resolver.walk(repo, file, segments)
    }

    /// The build unit `file` is in (a Rust crate's directory), as the first family whose
    /// language has units places it — any file, of any language: a unit's directories
    /// may hold several.
    fn unit(&mut self, file: i64) -> rusqlite::Result<Option<String>> {
        for family in Family::all() {
            let (resolver, repo) = self.resolver(family);
            if let Some(unit) = resolver.unit(repo, file)? {
                return Ok(Some(unit));
            }
        }
        Ok(None)
    }
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
        for language in ["rust", "typescript", "python", "go", "other"] {
            let family = Family::of(language);
            let (mut a, mut b) = (
                memory.paths_of(family).unwrap(),
                db.paths_of(family).unwrap(),
            );
            a.sort();
            b.sort();
            assert_eq!(a, b, "{language}");
        }
        assert_eq!(db.paths_of(Family::of("rust")).unwrap().len(), 7);
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

    /// Each language's files that stand for their directory are found by its name,
    /// in memory as in the database (whose `key` column knows their stems).
    #[test]
    fn directory_files_are_keyed_alike_in_memory_and_in_the_database() {
        let dir = tempfile::tempdir().unwrap();
        let conn = crate::store::open(
            &dir.path().join("code.db"),
            crate::code::db::SCHEMA,
            &mut Vec::new(),
        )
        .unwrap();
        let stems: Vec<&str> = Family::all()
            .flat_map(|f| f.rules().directory_files().iter().copied())
            .collect();
        assert!(!stems.is_empty());
        for stem in &stems {
            conn.execute(
                "INSERT INTO files (rel_path, language, hash, mtime, size, indexed_at) VALUES (?1, '', '', 0, 0, 0)",
                [format!("d/in_{stem}/{stem}.x")],
            )
            .unwrap();
        }
        let rows: Vec<(i64, String)> = conn
            .prepare("SELECT id, rel_path FROM files ORDER BY id")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        let mut memory = Files::new(
            rows.iter()
                .map(|(id, rel)| (*id, rel.as_str(), Family::NONE)),
        );
        let mut db = Files::read(&conn);
        for ((id, _), stem) in rows.iter().zip(&stems) {
            let key = format!("in_{stem}");
            assert_eq!(memory.keyed(&key).unwrap(), [*id], "{stem}");
            assert_eq!(db.keyed(&key).unwrap(), [*id], "{stem}");
        }
    }
}
