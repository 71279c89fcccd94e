//! The `code.*` operations. Their results are full and typed (`name`, `kind`, `path`,
//! `start_line`); what an agent reads of them — short keys, each file once — is declared
//! beside each operation ([`Operation::AGENT`], applied by [`crate::agent`]).
//!
//! One file per operation: `index_repository.rs`, `update_files.rs`, `index_status.rs`,
//! `overview.rs` (`code.get_overview`), `file_symbols.rs`, `symbol_detail.rs`,
//! `search_symbols.rs`, `references.rs`, `dependencies.rs`, and `repos.rs`
//! (`code.list_repos` and `code.delete_repos`, which share the listing of the indexes).
//! What several of them share is here: the repository an operation is about ([`Repo`])
//! and its reader, a symbol as lists show it ([`Symbol`]) and as stored, the agent shape
//! of the code answers ([`AGENT_CODE`]), the answer of an index run ([`IndexResponse`]),
//! and the reference queries ([`outgoing`], [`incoming`]) that `code.get_symbol_detail`,
//! `code.get_references` and `code.get_dependencies` read.
//!
//! [`Operation::AGENT`]: crate::ops::Operation::AGENT

mod dependencies;
mod file_symbols;
mod index_repository;
mod index_status;
mod overview;
mod references;
mod repos;
mod search_symbols;
mod symbol_detail;
mod update_files;

pub use dependencies::{DependenciesResponse, Dependency, GetDependencies};
pub use file_symbols::{GetFileSymbols, GetFileSymbolsRequest, GetFileSymbolsResponse};
pub use index_repository::{IndexRepository, IndexRepositoryRequest};
pub use index_status::{IndexStatus, IndexStatusRequest, IndexStatusResponse};
pub use overview::{
    DirectorySummary, EntryPoint, GetOverview, GetOverviewRequest, GetOverviewResponse,
    OVERVIEW_DIRECTORIES,
};
pub use references::{GetReferences, ReferencesRequest, ReferencesResponse};
pub use repos::{
    DeleteRepos, DeleteReposRequest, DeleteReposResponse, ListRepos, ListReposRequest,
    ListReposResponse, RepoSummary,
};
pub use search_symbols::{SearchSymbols, SearchSymbolsRequest, SearchSymbolsResponse};
pub use symbol_detail::{GetSymbolDetail, SymbolDetailResponse};
pub use update_files::{UpdateFiles, UpdateFilesRequest};

use std::collections::{HashSet, VecDeque};
use std::path::{Path, PathBuf};

use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};

use super::config::ProjectConfig;
use super::db;
use super::index::{self, RunStats};
use super::text::{normalize_signature, truncate_doc};
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::ops::{AgentShape, PathParam, PathTable};

pub(super) const REPO_PARAM: &[PathParam] = &[PathParam::one("/path").or_project()];

/// Largest `limit` accepted.
pub(super) const MAX_LIMIT: usize = 1000;

pub(super) fn is_false(b: &bool) -> bool {
    !*b
}

pub(super) fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// The repository an operation is about, with its database and project config.
pub(super) struct Repo {
    pub(super) root: PathBuf,
    /// The directory the operation was given (inside `root`, or `root` itself).
    from: PathBuf,
    pub(super) db_path: PathBuf,
    pub(super) database: std::sync::Arc<crate::store::Database>,
    pub(super) config: ProjectConfig,
}

pub(super) fn open_repo(
    engine: &Engine,
    path: Option<PathBuf>,
    op: &str,
    warnings: &mut Vec<String>,
) -> Result<Repo> {
    let from = crate::env::project_dir(path, op)?;
    if !from.is_dir() {
        return Err(Error::invalid(
            op,
            format!("{} is not a directory", from.display()),
        ));
    }
    let root = repository_of(engine.home(), &from);
    let db_path = db::db_path(engine.home(), &root);
    let database = engine.database_at(&db_path, db::SCHEMA)?;
    let config = ProjectConfig::load(&root, warnings);
    Ok(Repo {
        root,
        from,
        db_path,
        database,
        config,
    })
}

/// The repository a directory (canonical) belongs to, whose index answers for it: going
/// up from the directory, the first that has an index or is the top of a git work tree;
/// the directory itself when there is none. The filesystem root and the home directory
/// are passed over (an index or a repository of dotfiles there is no project of its own)
/// unless given themselves, and a confined caller ([`crate::env::confined`]) is never
/// taken above its directories.
fn repository_of(home: &Path, dir: &Path) -> PathBuf {
    let user_home = crate::env::home_dir().and_then(|h| std::fs::canonicalize(h).ok());
    dir.ancestors()
        .filter(|a| *a == dir || (a.parent().is_some() && Some(*a) != user_home.as_deref()))
        // Confined (an MCP server's roots): never above what the caller may read.
        .take_while(|a| *a == dir || crate::env::allowed(a))
        .find(|a| db::db_path(home, a).is_file() || a.join(".git").exists())
        .unwrap_or(dir)
        .to_path_buf()
}

impl Repo {
    /// The directory asked from, relative to the root (`/`-separated; `""` for the root).
    fn near(&self) -> String {
        self.from
            .strip_prefix(&self.root)
            .map(|p| {
                p.components()
                    .map(|c| c.as_os_str().to_string_lossy())
                    .collect::<Vec<_>>()
                    .join("/")
            })
            .unwrap_or_default()
    }

    /// A read connection to an index that exists, building it first (with a warning)
    /// when the repository was never indexed.
    fn reader(&self, warnings: &mut Vec<String>) -> Result<crate::store::Pooled<'_>> {
        let indexed = self.db_path.exists() && {
            let conn = self.database.read(warnings)?;
            db::meta(&conn, "last_indexed")
                .map_err(|e| Error::db(&self.db_path, e))?
                .is_some()
        };
        if !indexed {
            index::index_repository(&self.database, &self.root, &self.config, false, warnings)?;
            warnings.push(format!(
                "{} was not indexed; indexed it now",
                self.root.display()
            ));
        }
        let conn = self.database.read(warnings)?;
        if db::meta(&conn, "backfill_name_tokens")
            .map_err(|e| Error::db(&self.db_path, e))?
            .is_some()
        {
            drop(conn);
            let writer = self.database.write(warnings)?;
            db::backfill(&writer, &self.db_path)?;
            drop(writer);
            return self.database.read(warnings);
        }
        Ok(conn)
    }

    fn symbol(&self, row: &SymbolRow) -> Symbol {
        Symbol {
            id: row.id,
            name: row.name.clone(),
            kind: row.kind.clone(),
            path: row.rel_path.clone(),
            start_line: row.line_start,
            end_line: row.line_end,
            signature: row
                .signature
                .as_deref()
                .map(|s| normalize_signature(s, self.config.output.truncate_signatures)),
            doc: row
                .doc
                .as_deref()
                .map(|d| truncate_doc(d, self.config.output.truncate_doc_comments)),
            declaration: row.declaration,
            within: None,
            children: Vec::new(),
        }
    }
}

pub(super) fn dberr(path: &Path) -> impl Fn(rusqlite::Error) -> Error + '_ {
    move |e| Error::db(path, e)
}

/// A symbol as lists show it: where it is, its signature and doc shortened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Symbol {
    /// Symbol id (for `get_symbol_detail`, `get_references`, `get_dependencies`).
    pub id: i64,
    /// Name.
    pub name: String,
    /// Kind (`fn`, `method`, `class`, …).
    pub kind: String,
    /// File, relative to the repository root (`/`-separated).
    pub path: String,
    /// First line (1-based).
    pub start_line: i64,
    /// Last line.
    pub end_line: i64,
    /// Signature, normalised and shortened.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
    /// Doc comment, shortened.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
    /// A function or method that only declares what others implement (no body, or a
    /// stub of one: a trait's or interface's method, an abstract method, a hookspec);
    /// left out when false.
    #[serde(default, skip_serializing_if = "is_false")]
    pub declaration: bool,
    /// In search results, the name of the symbol it is defined in (a method's class, a
    /// nested function's function); left out at a file's top level and in file views.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub within: Option<String>,
    /// Symbols defined inside it (file views), each of this same shape.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(with = "Vec<serde_json::Map<String, serde_json::Value>>")]
    pub children: Vec<Symbol>,
}

/// The short keys an agent reads of the code operations' results.
const KEYS: &[(&str, &str)] = &[
    ("name", "n"),
    ("kind", "k"),
    ("path", "f"),
    ("signature", "sig"),
    ("declaration", "decl"),
    ("within", "in"),
    ("symbols", "syms"),
    ("query", "q"),
    ("from_name", "from_n"),
    ("to_name", "to_n"),
    ("languages", "langs"),
    ("directories", "mods"),
    ("references", "refs_to"),
    ("dependencies", "deps"),
    ("snippet", "snip"),
];

/// What an agent reads of a code result: short keys, line ranges as `"l": "start-end"`,
/// and a file said once where the enclosing object says it.
pub(super) const AGENT_CODE: AgentShape = AgentShape {
    omit: &[],
    paths: None,
    inherit_path: true,
    line_ranges: true,
    keys: KEYS,
    configured_budget: Some(configured_budget),
    outline: None,
    paged: None,
};

/// The token budget of a code operation's answers that the repository's `.cc-search.json`
/// sets (`output.max_tokens`), for `request` (its `path`, else the project).
fn configured_budget(request: &serde_json::Value) -> Option<usize> {
    let path = request.get("path").and_then(serde_json::Value::as_str);
    let from = crate::env::project_dir(path.map(PathBuf::from), "code").ok()?;
    let root = from.ancestors().find(|dir| {
        super::config::CONFIG_FILES
            .iter()
            .any(|name| dir.join(name).is_file())
            || dir.join(".git").exists()
    })?;
    ProjectConfig::load(root, &mut Vec::new()).output.max_tokens
}

/// [`AGENT_CODE`], with the files of the items of `lists` in a table (`_f`) when they are
/// several.
const fn agent_shape(lists: &'static [&'static str]) -> AgentShape {
    AgentShape {
        paths: if lists.is_empty() {
            None
        } else {
            Some(PathTable { lists, table: "_f" })
        },
        ..AGENT_CODE
    }
}

struct SymbolRow {
    id: i64,
    parent: Option<i64>,
    name: String,
    kind: String,
    line_start: i64,
    line_end: i64,
    signature: Option<String>,
    doc: Option<String>,
    rel_path: String,
    declaration: bool,
}

const SYMBOL_COLUMNS: &str = "s.id, s.parent_symbol_id, s.name, s.kind, s.line_start, s.line_end, s.signature, s.doc_comment, f.rel_path, s.declaration";

fn symbol_row(r: &rusqlite::Row) -> rusqlite::Result<SymbolRow> {
    Ok(SymbolRow {
        id: r.get(0)?,
        parent: r.get(1)?,
        name: r.get(2)?,
        kind: r.get(3)?,
        line_start: r.get(4)?,
        line_end: r.get(5)?,
        signature: r.get(6)?,
        doc: r.get(7)?,
        rel_path: r.get(8)?,
        declaration: r.get(9)?,
    })
}

fn load_symbol(conn: &Connection, path: &Path, id: i64, op: &str) -> Result<SymbolRow> {
    conn.query_row(
        &format!("SELECT {SYMBOL_COLUMNS} FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.id = ?1"),
        [id],
        symbol_row,
    )
    .optional()
    .map_err(dberr(path))?
    .ok_or_else(|| Error::invalid(op, format!("no symbol with id {id} in this repository's index")))
}

// ───────────────────────────── the answer of an index run ─────────────────────────────

/// Counts of an index run.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct IndexStats {
    /// Files indexed (source files the repository has, as far as this run looked).
    pub files: usize,
    /// Symbols in the index.
    pub symbols: u64,
    /// References in the index.
    pub refs: u64,
}

/// Result of `code.index_repository` and `code.update_files`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct IndexResponse {
    /// `ok`.
    pub status: String,
    /// Totals.
    pub stats: IndexStats,
    /// Files indexed for the first time.
    pub new: usize,
    /// Files re-parsed because their content changed.
    pub changed: usize,
    /// Files left as they were.
    pub unchanged: usize,
    /// Files removed from the index.
    pub deleted: usize,
    /// Files not indexed (binary, too large, unreadable); see `warnings`.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub skipped: usize,
    /// What was skipped and why; left out when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// Most warnings an index response lists (a tree of generated or binary files would
/// otherwise fill an agent's context with them); `skipped` still counts every file.
const MAX_WARNINGS: usize = 100;

fn index_response(stats: RunStats, mut warnings: Vec<String>) -> IndexResponse {
    warnings.extend(stats.warnings);
    warnings.sort();
    warnings.dedup();
    if warnings.len() > MAX_WARNINGS {
        let more = warnings.len() - MAX_WARNINGS;
        warnings.truncate(MAX_WARNINGS);
        warnings.push(format!("… and {more} more warnings"));
    }
    IndexResponse {
        status: "ok".into(),
        stats: IndexStats {
            files: stats.files,
            symbols: stats.symbols,
            refs: stats.refs,
        },
        new: stats.new,
        changed: stats.changed,
        unchanged: stats.unchanged,
        deleted: stats.deleted,
        skipped: stats.skipped,
        warnings,
    }
}

// ───────────────────────────── one symbol's references ─────────────────────────────

/// Parameters of `code.get_symbol_detail` and `code.get_dependencies`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct SymbolRequest {
    /// Repository root. Defaults to the project directory.
    pub path: Option<PathBuf>,
    /// The symbol's id (from a search, an overview or a file's symbols).
    pub id: i64,
}

/// A symbol another refers to.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct RefTarget {
    /// The name referred to.
    pub name: String,
    /// The symbol it resolved to; absent when it is outside the index.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<i64>,
    /// Reference kind when not implied by the list (`extends`, `implements`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// Present (`true`) when the name resolved to nothing in the index (the standard
    /// library, a dependency, a builtin).
    #[serde(default, skip_serializing_if = "is_false")]
    pub external: bool,
    /// Present (`true`) when several definitions could be meant (a method called on a
    /// value of unknown type) and none is linked: `candidates` lists some.
    #[serde(default, skip_serializing_if = "is_false")]
    pub ambiguous: bool,
    /// With `ambiguous`: ids of definitions it could mean (at most five).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub candidates: Vec<i64>,
}

/// A reference to a symbol, from where it is made.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct RefSource {
    /// The referring symbol's id; absent for a file's top level (an import).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_id: Option<i64>,
    /// The referring symbol's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_name: Option<String>,
    /// The referring file, relative to the repository root.
    pub path: String,
    /// `call`, `import`, `type_ref`, `extends`, `implements` or `value` (read, passed
    /// on, assigned).
    pub kind: String,
    /// Line of the reference.
    pub line: i64,
    /// Present (`true`) when the reference may mean this symbol or another of its name
    /// (its target is ambiguous: a method called on a value of unknown type); these
    /// come after the sure ones.
    #[serde(default, skip_serializing_if = "is_false")]
    pub maybe: bool,
    /// With `maybe`, for a call of a method this one overrides or implements (which may
    /// run this one): that method, as `Type.method`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
}

/// An outgoing reference as stored.
struct Outgoing {
    name: String,
    kind: String,
    to: Option<i64>,
    ambiguous: bool,
    /// With `ambiguous`: definitions it could mean.
    candidates: Vec<i64>,
}

impl Outgoing {
    fn target(self) -> RefTarget {
        RefTarget {
            external: self.to.is_none() && !self.ambiguous,
            kind: (self.kind != "call" && self.kind != "type_ref").then(|| self.kind.clone()),
            name: self.name,
            id: self.to,
            ambiguous: self.ambiguous,
            candidates: self.candidates,
        }
    }
}

/// Most candidates listed for an ambiguous reference.
const MAX_CANDIDATES: usize = 5;

/// The definitions an ambiguous reference from a file of `language` to `name` could
/// mean: symbols of that name in the same language family (not `impl` blocks), the
/// first few by id.
fn candidates(conn: &Connection, name: &str, language: &str) -> rusqlite::Result<Vec<i64>> {
    let family = index::Family::of(language);
    let mut stmt = conn.prepare_cached(
        "SELECT s.id, f.language FROM symbols s JOIN files f ON f.id = s.file_id
         WHERE s.name = ?1 AND s.kind != 'impl' ORDER BY s.id",
    )?;
    let mut out = Vec::new();
    for row in stmt.query_map([name], |r| {
        Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?))
    })? {
        let (id, lang) = row?;
        if index::Family::of(&lang) == family {
            out.push(id);
            if out.len() == MAX_CANDIDATES {
                break;
            }
        }
    }
    Ok(out)
}

/// What a symbol refers to, in the order of first use, each once (the index keeps every
/// line of a use; a dependency is listed once). A name used as a value that links nowhere
/// (a local variable, a parameter, a field: the index stores no such symbols) is left out.
fn outgoing(conn: &Connection, path: &Path, id: i64) -> Result<Vec<Outgoing>> {
    let rows: Vec<(String, String, Option<i64>, bool, String)> = conn
        .prepare_cached(
            "SELECT r.to_name, r.kind, r.to_symbol_id, r.ambiguous, f.language FROM refs r
             JOIN files f ON f.id = r.file_id
             WHERE r.from_symbol_id = ?1
               AND NOT (r.kind = 'value' AND r.to_symbol_id IS NULL AND r.ambiguous = 0)
             ORDER BY r.line, r.id",
        )
        .map_err(dberr(path))?
        .query_map([id], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
        })
        .map_err(dberr(path))?
        .collect::<rusqlite::Result<_>>()
        .map_err(dberr(path))?;
    let mut seen = HashSet::new();
    rows.into_iter()
        .filter(|(name, kind, to, ambiguous, _)| {
            seen.insert((name.clone(), kind.clone(), *to, *ambiguous))
        })
        .map(|(name, kind, to, ambiguous, language)| {
            let candidates = if ambiguous {
                candidates(conn, &name, &language).map_err(dberr(path))?
            } else {
                Vec::new()
            };
            Ok(Outgoing {
                name,
                kind,
                to,
                ambiguous,
                candidates,
            })
        })
        .collect()
}

/// An incoming reference row (its first six columns): from symbol, its name, file,
/// kind, line, file language.
type IncomingRow = (Option<i64>, Option<String>, String, String, i64, String);

/// Incoming references, each with the referring file: those linked to the symbol, then
/// the calls of the methods it overrides or implements that may run it ([`dispatched`]),
/// then the ambiguous ones that may mean it (same name, same language family).
fn incoming(conn: &Connection, path: &Path, id: i64) -> Result<Vec<RefSource>> {
    let read = |sql: &str, params: &[&dyn rusqlite::ToSql]| -> Result<Vec<IncomingRow>> {
        conn.prepare_cached(sql)
            .map_err(dberr(path))?
            .query_map(params, |r| IncomingRow::try_from(r))
            .map_err(dberr(path))?
            .collect::<rusqlite::Result<_>>()
            .map_err(dberr(path))
    };
    let sure = read(
        "SELECT r.from_symbol_id, s.name, f.rel_path, r.kind, r.line, f.language FROM refs r
         JOIN files f ON f.id = r.file_id LEFT JOIN symbols s ON s.id = r.from_symbol_id
         WHERE r.to_symbol_id = ?1 ORDER BY f.rel_path, r.line, r.id",
        &[&id],
    )?;
    let (name, language): (String, String) = conn
        .prepare_cached(
            "SELECT s.name, f.language FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.id = ?1",
        )
        .map_err(dberr(path))?
        .query_row([id], |r| Ok((r.get(0)?, r.get(1)?)))
        .map_err(dberr(path))?;
    let family = index::Family::of(&language);
    let maybe = read(
        "SELECT r.from_symbol_id, s.name, f.rel_path, r.kind, r.line, f.language FROM refs r
         JOIN files f ON f.id = r.file_id LEFT JOIN symbols s ON s.id = r.from_symbol_id
         WHERE r.to_name = ?1 AND r.ambiguous = 1 ORDER BY f.rel_path, r.line, r.id",
        &[&name],
    )?;
    let maybe = maybe
        .into_iter()
        .filter(|row| index::Family::of(&row.5) == family)
        .map(|row| (row, true, None));
    let dispatched = dispatched(conn, id, &name)
        .map_err(dberr(path))?
        .into_iter()
        .map(|(row, via)| (row, true, Some(via)));
    Ok(sure
        .into_iter()
        .map(|row| (row, false, None))
        .chain(dispatched)
        .chain(maybe)
        .map(
            |((from_id, from_name, path, kind, line, _), maybe, via)| RefSource {
                from_id,
                from_name,
                path,
                kind,
                line,
                maybe,
                via,
            },
        )
        .collect())
}

/// Most classes, traits and interfaces [`dispatched`] walks up from a method's.
const MAX_BASES: usize = 64;

/// The calls that may run the method `id` (named `name`) through a method it overrides
/// or implements (dynamic dispatch: `self.matches(scope)` in a base class runs a
/// subclass's `matches`), each with that method as `Type.method`: the calls linked to a
/// method of its name in what its class (or `impl` block) extends or implements,
/// however deep, nearest first — on the instance itself (`self.m`, a bare `m`) only
/// where written in one of those, not in a sibling class that inherits the base's
/// method alone; and never a `super` call, which runs the base's alone.
fn dispatched(
    conn: &Connection,
    id: i64,
    name: &str,
) -> rusqlite::Result<Vec<(IncomingRow, String)>> {
    let parent: Option<i64> = conn
        .prepare_cached(
            "SELECT parent_symbol_id FROM symbols WHERE id = ?1 AND kind IN ('method', 'fn')",
        )?
        .query_row([id], |r| r.get(0))
        .optional()?
        .flatten();
    let Some(parent) = parent else {
        return Ok(Vec::new());
    };
    let mut bases_of = conn.prepare_cached(
        "SELECT DISTINCT r.to_symbol_id, s.name FROM refs r JOIN symbols s ON s.id = r.to_symbol_id
         WHERE r.from_symbol_id = ?1 AND r.kind IN ('extends', 'implements')
         ORDER BY r.id",
    )?;
    let mut member = conn.prepare_cached(
        "SELECT id FROM symbols WHERE parent_symbol_id = ?1 AND name = ?2
           AND kind IN ('method', 'fn') ORDER BY id",
    )?;
    let mut overridden = Vec::new();
    let mut ancestors = HashSet::from([parent]);
    let mut next = VecDeque::from([parent]);
    while let Some(class) = next.pop_front() {
        let bases: Vec<(i64, String)> = bases_of
            .query_map([class], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<rusqlite::Result<_>>()?;
        for (base, base_name) in bases {
            if ancestors.len() >= MAX_BASES || !ancestors.insert(base) {
                continue;
            }
            for method in member.query_map(params![base, name], |r| r.get::<_, i64>(0))? {
                overridden.push((method?, format!("{base_name}.{name}")));
            }
            next.push_back(base);
        }
    }
    let mut calls = conn.prepare_cached(
        "SELECT r.from_symbol_id, s.name, f.rel_path, r.kind, r.line, f.language, r.qual
         FROM refs r JOIN files f ON f.id = r.file_id LEFT JOIN symbols s ON s.id = r.from_symbol_id
         WHERE r.to_symbol_id = ?1 AND r.kind IN ('call', 'value') AND r.to_name = ?2
           AND (r.qual IS NULL OR r.qual NOT LIKE '^%')
         ORDER BY f.rel_path, r.line, r.id",
    )?;
    let mut found = Vec::new();
    for (method, via) in overridden {
        let rows = calls
            .query_map(params![method, name], |r| {
                Ok((IncomingRow::try_from(r)?, r.get::<_, Option<String>>(6)?))
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        for (row, qual) in rows {
            let on_itself = match (row.0, &qual) {
                (Some(from), qual) => match enclosing_type(conn, from)? {
                    Some((class, class_name)) => qual
                        .as_ref()
                        .is_none_or(|q| *q == class_name)
                        .then_some(class),
                    None => None,
                },
                (None, _) => None,
            };
            if on_itself.is_none_or(|class| ancestors.contains(&class)) {
                found.push((row, via.clone()));
            }
        }
    }
    Ok(found)
}

/// The innermost class, struct, interface, trait, module or `impl` block the symbol
/// `id` is defined in: its id and name.
fn enclosing_type(conn: &Connection, id: i64) -> rusqlite::Result<Option<(i64, String)>> {
    let mut up = conn.prepare_cached(
        "SELECT p.id, p.name, p.kind FROM symbols s JOIN symbols p ON p.id = s.parent_symbol_id
         WHERE s.id = ?1",
    )?;
    let mut at = id;
    for _ in 0..32 {
        let Some((parent, name, kind)) = up
            .query_row([at], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                ))
            })
            .optional()?
        else {
            return Ok(None);
        };
        if matches!(
            kind.as_str(),
            "class" | "struct" | "interface" | "trait" | "mod" | "impl" | "enum"
        ) {
            return Ok(Some((parent, name)));
        }
        at = parent;
    }
    Ok(None)
}
