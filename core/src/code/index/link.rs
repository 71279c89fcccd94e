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

use rusqlite::Connection;

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
    /// member of its receiver's type.
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

    /// The symbols in any of `files`, top-level ones only.
    fn top_in(&self, files: &HashSet<i64>) -> Vec<&Sym> {
        let mut out: Vec<&Sym> = if files.len() < self.by_file.len() {
            files.iter().flat_map(|f| self.in_file(*f)).collect()
        } else {
            self.all
                .iter()
                .filter(|s| files.contains(&s.file))
                .collect()
        };
        // (A Go method is at the top level but reached only through a value.)
        out.retain(|s| s.scope == Scope::Top && s.kind != Some(SymbolKind::Method));
        out
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
        RefKind::TypeRef | RefKind::Extends | RefKind::Implements => kind.is_type(),
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

/// Every file of the index: its path, family, and the lookups module resolution needs.
#[derive(Default)]
pub(super) struct Files {
    info: HashMap<i64, (String, Family)>,
    by_rel: HashMap<String, i64>,
    /// Files by directory (`""` for the root).
    by_dir: HashMap<String, Vec<i64>>,
    /// Directories by their last segment.
    dirs_named: HashMap<String, Vec<String>>,
    /// Files by stem (`db` for `src/db.rs`), and by directory for `mod.rs`,
    /// `__init__.py`, `index.ts`.
    by_key: HashMap<String, Vec<i64>>,
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

impl Files {
    pub(super) fn new<'a>(files: impl Iterator<Item = (i64, &'a str, Family)>) -> Files {
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
        out
    }

    fn add(&mut self, id: i64, rel: &str, family: Family) {
        self.info.insert(id, (rel.to_string(), family));
        self.by_rel.insert(rel.to_string(), id);
        let dir = dir_of(rel);
        self.by_dir.entry(dir.to_string()).or_default().push(id);
        let mut d = dir;
        while !d.is_empty() {
            let name = d.rsplit('/').next().unwrap_or(d);
            let known = self.dirs_named.entry(name.to_string()).or_default();
            if known.last().map(String::as_str) != Some(d) {
                known.push(d.to_string());
            }
            d = dir_of(d);
        }
        let name = rel.rsplit('/').next().unwrap_or(rel);
        let stem = name.split('.').next().unwrap_or(name);
        let key = if matches!(stem, "index" | "mod" | "__init__") && !dir.is_empty() {
            dir.rsplit('/').next().unwrap_or(dir)
        } else {
            stem
        };
        self.by_key.entry(key.to_string()).or_default().push(id);
    }

    pub(super) fn family(&self, file: i64) -> Family {
        self.info.get(&file).map_or(Family::Other, |(_, f)| *f)
    }

    fn rel(&self, file: i64) -> &str {
        self.info.get(&file).map_or("", |(rel, _)| rel.as_str())
    }

    /// Of the files whose path ends with `suffix` (at a `/`), those nearest `from`
    /// (the longest shared directory prefix).
    fn nearest_with_suffix(&self, key: &str, suffix: &str, from: &str) -> Vec<i64> {
        let Some(ids) = self.by_key.get(key) else {
            return Vec::new();
        };
        let mut found: Vec<(usize, i64)> = ids
            .iter()
            .filter_map(|id| {
                let rel = self.rel(*id);
                let fits = rel == suffix
                    || rel
                        .strip_suffix(suffix)
                        .is_some_and(|head| head.ends_with('/'));
                fits.then(|| (shared_prefix(rel, from), *id))
            })
            .collect();
        let Some(most) = found.iter().map(|(n, _)| *n).max() else {
            return Vec::new();
        };
        found.retain(|(n, _)| *n == most);
        let mut ids: Vec<i64> = found.into_iter().map(|(_, id)| id).collect();
        ids.sort_unstable();
        ids
    }

    /// The directories whose path ends with `suffix` (at a `/`) and the most segments
    /// of it when only a tail matches, with at least `min` segments matched.
    fn dirs_ending(&self, suffix: &str, min: usize) -> Vec<String> {
        let parts: Vec<&str> = suffix.split('/').filter(|p| !p.is_empty()).collect();
        let Some(last) = parts.last() else {
            return Vec::new();
        };
        let Some(dirs) = self.dirs_named.get(*last) else {
            return Vec::new();
        };
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
            return Vec::new();
        }
        dirs.iter()
            .filter(|d| matched(d) == best)
            .cloned()
            .collect()
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

/// The same family only.
fn same_family<'s>(files: &Files, family: Family, syms: impl Iterator<Item = &'s Sym>) -> Vec<Sym> {
    syms.filter(|s| files.family(s.file) == family)
        .cloned()
        .collect()
}

/// Resolves references (see the module's documentation).
pub(super) struct Linker<'a> {
    files: Files,
    source: Source<'a>,
    /// The repository root (Rust crates are found by their `Cargo.toml`).
    root: PathBuf,
    /// Symbols by name, indexed (read from the database, or from memory), on first use.
    symbols: HashMap<String, Named>,
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
    /// Per directory: the Rust package there (its `Cargo.toml`'s crate name), if any.
    packages: HashMap<String, Option<String>>,
    /// Rust crates by name (`-` as `_`), found on first use.
    crates: Option<HashMap<String, Crate>>,
}

const MAX_DEPTH: usize = 4;

impl<'a> Linker<'a> {
    pub(super) fn new(files: Files, source: Source<'a>, root: &Path) -> Linker<'a> {
        Linker {
            files,
            source,
            root: root.to_path_buf(),
            symbols: HashMap::new(),
            bindings: HashMap::new(),
            crate_of: HashMap::new(),
            parents: HashMap::new(),
            parents_read: HashSet::new(),
            modules: HashMap::new(),
            packages: HashMap::new(),
            crates: None,
        }
    }

    /// The symbols named `name` (every family).
    fn named(&mut self, name: &str) -> rusqlite::Result<&Named> {
        if !self.symbols.contains_key(name) {
            let rows = match &self.source {
                Source::Memory { symbols, .. } => symbols.get(name).cloned().unwrap_or_default(),
                Source::Db(conn) => read_symbols(conn, name)?,
            };
            self.symbols.insert(name.to_string(), Named::new(rows));
        }
        Ok(&self.symbols[name])
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
    fn bindings_of(&mut self, file: i64) -> rusqlite::Result<Rc<[Binding]>> {
        if let Some(found) = self.bindings.get(&file) {
            return Ok(found.clone());
        }
        let rows: Rc<[Binding]> = match &self.source {
            Source::Memory { bindings, .. } => {
                bindings.get(&file).map_or(&[][..], |b| b.as_slice()).into()
            }
            Source::Db(conn) => conn
                .prepare_cached(
                    "SELECT local, module, name FROM file_bindings WHERE file_id = ?1 ORDER BY rowid",
                )?
                .query_map([file], |r| {
                    Ok(Binding {
                        local: r.get(0)?,
                        module: r.get(1)?,
                        name: r.get(2)?,
                    })
                })?
                .collect::<rusqlite::Result<_>>()?,
        };
        self.bindings.insert(file, rows.clone());
        Ok(rows)
    }

    /// The symbols named `name` of `file`'s family, those for which `keep` holds (a scan
    /// of every symbol of the name: for the rare cases).
    fn candidates(
        &mut self,
        file: i64,
        name: &str,
        keep: impl Fn(&Sym) -> bool,
    ) -> rusqlite::Result<Vec<Sym>> {
        let family = self.files.family(file);
        self.named(name)?;
        let named = &self.symbols[name];
        Ok(same_family(
            &self.files,
            family,
            named.all.iter().filter(|s| keep(s)),
        ))
    }

    /// The symbols named `name` defined in `file`.
    fn in_file(&mut self, file: i64, name: &str) -> rusqlite::Result<Vec<Sym>> {
        Ok(self.named(name)?.in_file(file).cloned().collect())
    }

    /// The members named `name` of types named `owner`, of `file`'s family.
    fn owned(&mut self, file: i64, name: &str, owner: &str) -> rusqlite::Result<Vec<Sym>> {
        let family = self.files.family(file);
        self.named(name)?;
        let named = &self.symbols[name];
        Ok(same_family(&self.files, family, named.owned_by(owner)))
    }

    /// Whether some type of `file`'s family has a member named `name` that a reference
    /// of `kind` may mean (not a field for a value: reading a field is no use of a
    /// definition).
    fn any_member(&mut self, file: i64, name: &str, kind: RefKind) -> rusqlite::Result<bool> {
        let family = self.files.family(file);
        self.named(name)?;
        let named = &self.symbols[name];
        Ok(named.by_owner.values().flatten().any(|i| {
            let s = &named.all[*i];
            self.files.family(s.file) == family
                && (kind != RefKind::Value || kind_fits(kind, s.kind))
        }))
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
        let family = self.files.family(file);
        if family == Family::Other || self.named(name)?.all.is_empty() {
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
        let family = self.files.family(file);
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
        let own_best = own
            .iter()
            .filter(|s| s.kind != Some(SymbolKind::Impl))
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
        files.extend(self.package_files(file));
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
        // 4. One global namespace.
        if family == Family::Ruby {
            let top = self.candidates(file, name, |s| s.scope == Scope::Top)?;
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
        let mut included: HashSet<i64> = HashSet::new();
        let mut frontier = vec![file];
        for _ in 0..MAX_DEPTH {
            let mut next = Vec::new();
            for f in frontier {
                for b in self.bindings_of(f)?.iter().filter(|b| b.local == "*") {
                    for g in self.module_files(f, &b.module)? {
                        if g != file && included.insert(g) {
                            next.push(g);
                        }
                    }
                }
            }
            frontier = next;
        }
        let there: Vec<Sym> = self
            .named(name)?
            .top_in(&included)
            .into_iter()
            .filter(|s| takes(s))
            .cloned()
            .collect();
        let anywhere = self.candidates(file, name, |s| {
            s.scope == Scope::Top && kind_fits(kind, s.kind) && !s.rename
        })?;
        for place in [own, there, anywhere] {
            match place.as_slice() {
                [] => continue,
                [one] => return Ok(Some(Target::Linked(one.id))),
                _ => return Ok(Some(Target::Ambiguous)),
            }
        }
        Ok(None)
    }

    /// The files of `file`'s package that it sees without an import (Go and Java: its
    /// directory).
    fn package_files(&self, file: i64) -> Vec<i64> {
        match self.files.family(file) {
            Family::Go | Family::Java => {
                let dir = dir_of(self.files.rel(file));
                self.files
                    .by_dir
                    .get(dir)
                    .map(|ids| {
                        ids.iter()
                            .copied()
                            .filter(|id| {
                                *id != file && self.files.family(*id) == self.files.family(file)
                            })
                            .collect()
                    })
                    .unwrap_or_default()
            }
            _ => Vec::new(),
        }
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
        let top = self.named(name)?.top_in(files);
        if let Some(s) = best(top.into_iter(), kind) {
            return Ok(Some(s.clone()));
        }
        // Only Rust (`pub use`), Python (a package's `__init__` imports) and TypeScript
        // (`export … from`) pass names on; Java's, Go's and C's imports are the file's
        // own.
        let mut ordered: Vec<i64> = files.iter().copied().collect();
        ordered.sort_unstable();
        let passes_on = ordered.first().is_some_and(|f| {
            matches!(
                self.files.family(*f),
                Family::Rust | Family::Python | Family::Ts
            )
        });
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
        if found.is_none() && self.files.family(file) == Family::Java {
            // A static import: a member of the class the file defines.
            let members = self.candidates(file, name, |s| {
                files.contains(&s.file) && matches!(s.scope, Scope::Member(_))
            })?;
            return Ok(best(members.iter(), kind).cloned());
        }
        Ok(found)
    }

    /// A Rust macro (`name!`): one defined in the same crate.
    fn macro_call(&mut self, file: i64, name: &str) -> rusqlite::Result<Target> {
        let own = self.rust_crate_of(file).map(|c| c.dir);
        let macros = self.candidates(file, name, |s| {
            s.kind == Some(SymbolKind::Fn) && s.scope == Scope::Top
        })?;
        let same_crate: Vec<&Sym> = macros
            .iter()
            .filter(|s| {
                let dir = self.rust_crate_of(s.file).map(|c| c.dir);
                dir == own
            })
            .collect();
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
        if self.files.family(file) == Family::Rust
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
        if self.files.family(file) == Family::Python && segments.len() == 1 {
            // Of a class's several definitions of a name (a property's getter and
            // setter), the last one wins.
            owned.sort_by_key(|s| std::cmp::Reverse(s.id));
            owned.dedup_by_key(|s| s.file);
        }
        if owned.is_empty() && self.files.family(file) == Family::Rust {
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
        if let Some(Target::Linked(type_id)) = self.bare(file, None, ty, RefKind::TypeRef)? {
            let type_file = self
                .named(ty)?
                .all
                .iter()
                .find(|s| s.id == type_id)
                .map(|s| s.file);
            if let Some(type_file) = type_file {
                let near: Vec<&Sym> = owned.iter().filter(|s| s.file == type_file).collect();
                if let Some(s) = best(near.into_iter(), kind) {
                    return Ok(Target::Linked(s.id));
                }
                // Rust: an `impl` of that type elsewhere in its crate.
                let krate = self.rust_crate_of(type_file).map(|c| c.dir);
                if krate.is_some() {
                    let mut in_crate = Vec::new();
                    for s in &owned {
                        if self.rust_crate_of(s.file).map(|c| c.dir) == krate {
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
        let family = self.files.family(file);
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
        let from = self.files.rel(file).to_string();
        let found = match self.files.family(file) {
            Family::Python => self.python_module(&from, module),
            Family::Ts => self.ts_module(&from, module),
            Family::Go => self.go_package(module),
            Family::Java => self.java_module(&from, module),
            Family::C => self.c_include(&from, module),
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

    fn python_module(&self, from: &str, module: &str) -> Vec<i64> {
        let dots = module.chars().take_while(|c| *c == '.').count();
        let rest = &module[dots..];
        let parts: Vec<&str> = rest.split('.').filter(|p| !p.is_empty()).collect();
        if dots > 0 {
            let mut dir = dir_of(from).to_string();
            for _ in 1..dots {
                dir = dir_of(&dir).to_string();
            }
            let base = join(&dir, &parts.join("/"));
            return [format!("{base}.py"), join(&base, "__init__.py")]
                .iter()
                .filter_map(|p| normalize(p))
                .filter_map(|p| self.files.by_rel.get(&p).copied())
                .take(1)
                .collect();
        }
        let Some(last) = parts.last() else {
            return Vec::new();
        };
        let path = parts.join("/");
        let mut found = self
            .files
            .nearest_with_suffix(last, &format!("{path}.py"), from);
        if found.is_empty() {
            found = self
                .files
                .nearest_with_suffix(last, &format!("{path}/__init__.py"), from);
        }
        found
    }

    fn ts_module(&self, from: &str, module: &str) -> Vec<i64> {
        if !module.starts_with('.') {
            return Vec::new();
        }
        let Some(base) = normalize(&join(dir_of(from), module)) else {
            return Vec::new();
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
        tries
            .iter()
            .find_map(|p| self.files.by_rel.get(p).copied())
            .into_iter()
            .collect()
    }

    fn go_package(&self, module: &str) -> Vec<i64> {
        // A standard library path (`net/http`) has no dot in its first segment; a
        // module's own packages are matched by at least their last two segments, or by
        // the whole path.
        let dotted = module.split('/').next().is_some_and(|s| s.contains('.'));
        let parts = module.split('/').count();
        let min = if dotted { 1 } else { parts.clamp(1, 2) };
        let mut out = Vec::new();
        for dir in self.files.dirs_ending(module, min) {
            if let Some(ids) = self.files.by_dir.get(&dir) {
                out.extend(
                    ids.iter()
                        .copied()
                        .filter(|id| self.files.family(*id) == Family::Go),
                );
            }
        }
        out
    }

    fn java_module(&self, from: &str, module: &str) -> Vec<i64> {
        let path = module.replace('.', "/");
        let last = path.rsplit('/').next().unwrap_or(&path).to_string();
        let class = self
            .files
            .nearest_with_suffix(&last, &format!("{path}.java"), from);
        if !class.is_empty() {
            return class;
        }
        // A package (`import a.b.*`).
        let mut out = Vec::new();
        for dir in self.files.dirs_ending(&path, path.split('/').count()) {
            if let Some(ids) = self.files.by_dir.get(&dir) {
                out.extend(
                    ids.iter()
                        .copied()
                        .filter(|id| self.files.family(*id) == Family::Java),
                );
            }
        }
        out
    }

    fn c_include(&self, from: &str, module: &str) -> Vec<i64> {
        if let Some(p) = normalize(&join(dir_of(from), module))
            && let Some(id) = self.files.by_rel.get(&p)
        {
            return vec![*id];
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
    fn rust_crate_of(&mut self, file: i64) -> Option<Crate> {
        if let Some(found) = self.crate_of.get(&file) {
            return found.clone();
        }
        let found = self.find_crate_of(file);
        self.crate_of.insert(file, found.clone());
        found
    }

    fn find_crate_of(&mut self, file: i64) -> Option<Crate> {
        let rel = self.files.rel(file).to_string();
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
                let root = ["lib.rs", "main.rs"]
                    .iter()
                    .map(|f| join(&src, f))
                    .find(|p| self.files.by_rel.contains_key(p))?;
                Some(Crate { dir: src, root })
            }
            // `tests/x.rs`, `src/bin/x.rs`, `examples/x/main.rs`: each its own crate.
            _ => {
                let base = if under.starts_with("src/bin/") {
                    join(&dir, "src/bin")
                } else {
                    join(&dir, target_dir)
                };
                let inner = rel.strip_prefix(&base)?.trim_start_matches('/');
                let root = match inner.split_once('/') {
                    Some((sub, _)) => join(&join(&base, sub), "main.rs"),
                    None => rel.clone(),
                };
                Some(Crate {
                    dir: dir_of(&root).to_string(),
                    root,
                })
            }
        }
    }

    /// A crate for a file with no `Cargo.toml` above it: the nearest `lib.rs` or
    /// `main.rs` up its directories.
    fn crate_without_package(&self, rel: &str) -> Option<Crate> {
        let mut dir = dir_of(rel);
        loop {
            for f in ["lib.rs", "main.rs"] {
                let root = join(dir, f);
                if self.files.by_rel.contains_key(&root) {
                    return Some(Crate {
                        dir: dir.to_string(),
                        root,
                    });
                }
            }
            if dir.is_empty() {
                return None;
            }
            dir = dir_of(dir);
        }
    }

    /// The crates of the repository by name, from the packages above its Rust files.
    fn crates(&mut self) -> HashMap<String, Crate> {
        if let Some(found) = &self.crates {
            return found.clone();
        }
        let mut dirs: Vec<String> = self
            .files
            .info
            .values()
            .filter(|(_, f)| *f == Family::Rust)
            .map(|(rel, _)| rel.clone())
            .filter_map(|rel| {
                rel.find("/src/")
                    .map(|i| rel[..i].to_string())
                    .or_else(|| rel.starts_with("src/").then(String::new))
            })
            .collect();
        dirs.sort();
        dirs.dedup();
        let mut out = HashMap::new();
        for dir in dirs {
            if let Some(name) = self.package_at(&dir).filter(|n| !n.is_empty()) {
                let src = join(&dir, "src");
                let root = join(&src, "lib.rs");
                if self.files.by_rel.contains_key(&root) {
                    out.insert(name, Crate { dir: src, root });
                }
            }
        }
        self.crates = Some(out.clone());
        out
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
    fn rust_module_file(&self, krate: &Crate, path: &[String]) -> Option<i64> {
        if path.is_empty() {
            return self.files.by_rel.get(&krate.root).copied();
        }
        let base = join(&krate.dir, &path.join("/"));
        [format!("{base}.rs"), format!("{base}/mod.rs")]
            .iter()
            .find_map(|p| self.files.by_rel.get(p).copied())
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
        let Some(krate) = self.rust_crate_of(file) else {
            return Ok(None);
        };
        let Some(first) = segments.first().copied() else {
            return Ok(None);
        };
        let rel = self.files.rel(file).to_string();
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
                if self.rust_module_file(&krate, &child).is_some() {
                    (krate, child, &segments[1..])
                } else if matches!(first, "std" | "core" | "alloc" | "proc_macro" | "test") {
                    // The standard library: no need to read every manifest to know.
                    return Ok(None);
                } else if let Some(other) = self.crates().get(first).cloned() {
                    (other, Vec::new(), &segments[1..])
                } else {
                    return Ok(None);
                }
            }
        };
        while let Some(next) = rest.first() {
            let mut child = path.clone();
            child.push(next.to_string());
            if self.rust_module_file(&krate, &child).is_none() {
                break;
            }
            path = child;
            rest = &rest[1..];
        }
        let files: Vec<i64> = self.rust_module_file(&krate, &path).into_iter().collect();
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

/// The symbols named `name`, with where each is defined.
fn read_symbols(conn: &Connection, name: &str) -> rusqlite::Result<Vec<Sym>> {
    conn.prepare_cached(
        "SELECT s.id, s.file_id, s.kind, p.kind, p.name, s.signature, f.language, s.parent_symbol_id
         FROM symbols s
         JOIN files f ON f.id = s.file_id
         LEFT JOIN symbols p ON p.id = s.parent_symbol_id
         WHERE s.name = ?1 ORDER BY s.id",
    )?
    .query_map([name], |r| {
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
            kind,
            scope: Scope::of(family, parent, kind, signature.as_deref()),
            parent: r.get(7)?,
            rename: is_rename(family, kind, signature.as_deref()),
        })
    })?
    .collect()
}

/// Every file of the index.
pub(super) fn read_files(conn: &Connection) -> rusqlite::Result<Files> {
    let rows: Vec<(i64, String, String)> = conn
        .prepare_cached("SELECT id, rel_path, language FROM files ORDER BY id")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
        .collect::<rusqlite::Result<_>>()?;
    Ok(Files::new(rows.iter().map(|(id, rel, lang)| {
        (*id, rel.as_str(), Family::of(lang))
    })))
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

    #[test]
    fn paths_normalize_within_the_root() {
        assert_eq!(normalize("a/./b/../c").as_deref(), Some("a/c"));
        assert_eq!(normalize("../x"), None);
    }
}
