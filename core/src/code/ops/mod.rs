//! The `code.*` operations. Their results are full and typed (`name`, `kind`, `path`,
//! `start_line`); what an agent reads of them — short keys, each file once — is declared
//! beside each operation ([`Operation::AGENT`], applied by [`crate::agent`]).

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};

use super::SymbolKind;
use super::config::ProjectConfig;
use super::db;
use super::index::{self, RunStats};
use super::text::{normalize_signature, truncate_doc};
use crate::engine::{Engine, Within};
use crate::error::{Error, Result};
use crate::ops::{AgentShape, Operation, PathParam, PathTable};

pub(super) const REPO_PARAM: &[PathParam] = &[PathParam::one("/path").or_project()];

pub(super) fn is_false(b: &bool) -> bool {
    !*b
}

fn is_zero(n: &usize) -> bool {
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
}

const SYMBOL_COLUMNS: &str = "s.id, s.parent_symbol_id, s.name, s.kind, s.line_start, s.line_end, s.signature, s.doc_comment, f.rel_path";

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

// ───────────────────────────── code.index_repository ─────────────────────────────

/// `code.index_repository`: index (or re-index) a repository's symbols.
#[derive(Debug, Clone, Copy)]
pub struct IndexRepository;

/// Parameters of `code.index_repository`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct IndexRepositoryRequest {
    /// Repository root. Defaults to the project directory.
    pub path: Option<PathBuf>,
    /// Re-parse every file, changed or not.
    pub force: bool,
}

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

impl Operation for IndexRepository {
    const NAME: &'static str = "code.index_repository";
    const SUMMARY: &'static str = "Index a repository's code symbols (functions, classes, methods, types…) and references with tree-sitter; incremental: only changed files are re-parsed.";
    type Request = IndexRepositoryRequest;
    type Response = IndexResponse;
    const PATH_PARAMS: &'static [PathParam] = REPO_PARAM;
    fn run(engine: &Engine, request: IndexRepositoryRequest) -> Result<IndexResponse> {
        let mut warnings = Vec::new();
        let repo = open_repo(engine, request.path, Self::NAME, &mut warnings)?;
        let stats = index::index_repository(
            &repo.database,
            &repo.root,
            &repo.config,
            request.force,
            &mut warnings,
        )?;
        Ok(index_response(stats, warnings))
    }
}

// ───────────────────────────── code.update_files ─────────────────────────────

/// `code.update_files`: re-index the given files only, without walking the repository.
#[derive(Debug, Clone, Copy)]
pub struct UpdateFiles;

/// Parameters of `code.update_files`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct UpdateFilesRequest {
    /// Repository root. Defaults to the project directory.
    pub path: Option<PathBuf>,
    /// Files to re-index: absolute, or relative to the repository root. A file that no
    /// longer exists is removed from the index.
    pub files: Vec<PathBuf>,
}

impl Operation for UpdateFiles {
    const NAME: &'static str = "code.update_files";
    const SUMMARY: &'static str = "Re-index specific files of an indexed repository (changed ones re-parsed, deleted ones removed) without walking it.";
    type Request = UpdateFilesRequest;
    type Response = IndexResponse;
    const PATH_PARAMS: &'static [PathParam] = &[
        PathParam::one("/path").or_project(),
        PathParam::many("/files"),
    ];
    fn run(engine: &Engine, request: UpdateFilesRequest) -> Result<IndexResponse> {
        if request.files.is_empty() {
            return Err(Error::invalid(Self::NAME, "`files` is empty"));
        }
        let mut warnings = Vec::new();
        let repo = open_repo(engine, request.path, Self::NAME, &mut warnings)?;
        let stats = index::update_files(
            &repo.database,
            &repo.root,
            &request.files,
            &repo.config,
            &mut warnings,
        )?;
        Ok(index_response(stats, warnings))
    }
}

// ───────────────────────────── code.index_status ─────────────────────────────

/// `code.index_status`: what the index of a repository holds and which files changed
/// since.
#[derive(Debug, Clone, Copy)]
pub struct IndexStatus;

/// Parameters of `code.index_status`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct IndexStatusRequest {
    /// Repository root. Defaults to the project directory.
    pub path: Option<PathBuf>,
}

/// Most stale or deleted files listed by `code.index_status`.
const MAX_LISTED: usize = 50;

/// Result of `code.index_status`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct IndexStatusResponse {
    /// Repository root.
    pub repo: String,
    /// Whether it has been indexed.
    pub indexed: bool,
    /// Files in the index.
    pub files: u64,
    /// Symbols in the index.
    pub symbols: u64,
    /// References in the index.
    pub refs: u64,
    /// When it was last indexed (Unix seconds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub indexed_at: Option<i64>,
    /// Files whose size or mtime changed since (count).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub stale: usize,
    /// Some of them (at most 50), sorted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stale_files: Vec<String>,
    /// Indexed files that no longer exist (count).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub deleted: usize,
    /// Some of them (at most 50), sorted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub deleted_files: Vec<String>,
    /// Source files not indexed yet (count).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub new: usize,
    /// Files per language.
    pub languages: BTreeMap<String, u64>,
    /// Problems met; left out when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

impl Operation for IndexStatus {
    const NAME: &'static str = "code.index_status";
    const SUMMARY: &'static str = "Status of a repository's code index: files, symbols, references, languages, when indexed, and which files changed or disappeared since.";
    type Request = IndexStatusRequest;
    type Response = IndexStatusResponse;
    const PATH_PARAMS: &'static [PathParam] = REPO_PARAM;
    fn run(engine: &Engine, request: IndexStatusRequest) -> Result<IndexStatusResponse> {
        let mut warnings = Vec::new();
        let repo = open_repo(engine, request.path, Self::NAME, &mut warnings)?;
        let mut out = IndexStatusResponse {
            repo: repo.root.to_string_lossy().into_owned(),
            ..Default::default()
        };
        if !repo.db_path.exists() {
            out.warnings = warnings;
            return Ok(out);
        }
        let conn = repo.database.read(&mut warnings)?;
        let e = dberr(&repo.db_path);
        out.indexed_at = db::meta(&conn, "last_indexed")
            .map_err(&e)?
            .and_then(|v| v.parse().ok());
        out.indexed = out.indexed_at.is_some();
        let count = |sql: &str| -> Result<u64> {
            conn.query_row(sql, [], |r| r.get::<_, i64>(0))
                .map(|n| n as u64)
                .map_err(&e)
        };
        out.files = count("SELECT count(*) FROM files")?;
        out.symbols = count("SELECT count(*) FROM symbols")?;
        out.refs = count("SELECT count(*) FROM refs")?;
        let mut known: HashMap<String, (i64, i64)> = HashMap::new();
        {
            let mut stmt = conn
                .prepare("SELECT rel_path, language, mtime, size FROM files")
                .map_err(&e)?;
            let rows = stmt
                .query_map([], |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, String>(1)?,
                        r.get(2)?,
                        r.get(3)?,
                    ))
                })
                .map_err(&e)?;
            for row in rows {
                let (rel, lang, mtime, size) = row.map_err(&e)?;
                *out.languages.entry(lang).or_default() += 1;
                known.insert(rel, (mtime, size));
            }
        }
        drop(conn);
        if out.indexed {
            let walk = crate::walk::walk(
                &repo.root,
                &crate::walk::WalkOptions {
                    max_depth: 64,
                    max_files: 500_000,
                    max_file_size: repo.config.indexer.max_file_size,
                    excludes: repo.config.indexer.ignore.clone(),
                    allowed_roots: vec![repo.root.clone()],
                    ..Default::default()
                },
            )?;
            let mut stale = Vec::new();
            let mut present = std::collections::HashSet::new();
            for file in &walk.files {
                if super::lang::extractor_for_path(&file.path).is_none() {
                    continue;
                }
                let Ok(rel) = file.path.strip_prefix(&repo.root) else {
                    continue;
                };
                let rel = rel.to_string_lossy().replace('\\', "/");
                match known.get(&rel) {
                    Some((mtime, size)) => {
                        if *mtime != file.mtime || *size != file.size as i64 {
                            stale.push(rel.clone());
                        }
                    }
                    None => out.new += 1,
                }
                present.insert(rel);
            }
            let mut deleted: Vec<String> = known
                .keys()
                .filter(|k| !present.contains(*k))
                .cloned()
                .collect();
            stale.sort();
            deleted.sort();
            out.stale = stale.len();
            out.deleted = deleted.len();
            out.stale_files = stale.into_iter().take(MAX_LISTED).collect();
            out.deleted_files = deleted.into_iter().take(MAX_LISTED).collect();
        }
        warnings.sort();
        warnings.dedup();
        out.warnings = warnings;
        Ok(out)
    }
}

// ───────────────────────────── code.get_overview ─────────────────────────────

/// `code.get_overview`: a repository at a glance.
#[derive(Debug, Clone, Copy)]
pub struct GetOverview;

/// Parameters of `code.get_overview`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct GetOverviewRequest {
    /// Repository root. Defaults to the project directory.
    pub path: Option<PathBuf>,
}

/// A directory of the repository in an overview.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct DirectorySummary {
    /// Directory, relative (`.` for the root).
    pub path: String,
    /// Files indexed in it (not below).
    pub files: u64,
    /// Symbols in those files.
    pub symbols: u64,
}

/// Result of `code.get_overview`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct GetOverviewResponse {
    /// Repository name (its directory's name).
    pub repo: String,
    /// Files per language.
    pub languages: BTreeMap<String, u64>,
    /// Directories with their file and symbol counts, by path.
    pub directories: Vec<DirectorySummary>,
    /// The most referenced top-level types (classes, structs, interfaces, traits, enums).
    pub top_types: Vec<Symbol>,
    /// Top-level functions and types of entry files (`main`, `index`, `lib`, `app`, …).
    pub entry_points: Vec<Symbol>,
    /// Problems met; left out when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// Most top types and entry points shown.
const OVERVIEW_ITEMS: i64 = 20;

impl Operation for GetOverview {
    const NAME: &'static str = "code.get_overview";
    const SUMMARY: &'static str = "Overview of an indexed repository: languages, directories with file and symbol counts, the most referenced types and the entry points.";
    type Request = GetOverviewRequest;
    type Response = GetOverviewResponse;
    const PATH_PARAMS: &'static [PathParam] = REPO_PARAM;
    const AGENT: AgentShape = agent_shape(&[]);
    fn run(engine: &Engine, request: GetOverviewRequest) -> Result<GetOverviewResponse> {
        let mut warnings = Vec::new();
        let repo = open_repo(engine, request.path, Self::NAME, &mut warnings)?;
        let conn = repo.reader(&mut warnings)?;
        let e = dberr(&repo.db_path);
        let mut out = GetOverviewResponse {
            repo: repo.root.file_name().map_or_else(
                || repo.root.to_string_lossy().into_owned(),
                |n| n.to_string_lossy().into_owned(),
            ),
            ..Default::default()
        };
        let mut directories: BTreeMap<String, DirectorySummary> = BTreeMap::new();
        {
            let mut stmt = conn
                .prepare(
                    "SELECT f.rel_path, f.language, (SELECT count(*) FROM symbols s WHERE s.file_id = f.id)
                     FROM files f ORDER BY f.rel_path",
                )
                .map_err(&e)?;
            let rows = stmt
                .query_map([], |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, String>(1)?,
                        r.get::<_, i64>(2)?,
                    ))
                })
                .map_err(&e)?;
            for row in rows {
                let (rel, lang, syms) = row.map_err(&e)?;
                *out.languages.entry(lang).or_default() += 1;
                let dir = rel.rsplit_once('/').map_or(".", |(d, _)| d).to_string();
                let entry = directories
                    .entry(dir.clone())
                    .or_insert_with(|| DirectorySummary {
                        path: dir,
                        ..Default::default()
                    });
                entry.files += 1;
                entry.symbols += syms as u64;
            }
        }
        out.directories = directories.into_values().collect();
        let top_sql = format!(
            "SELECT {SYMBOL_COLUMNS} FROM symbols s JOIN files f ON f.id = s.file_id
             WHERE s.parent_symbol_id IS NULL AND s.kind IN ('class','struct','interface','trait','enum')
             ORDER BY (SELECT count(*) FROM refs r WHERE r.to_symbol_id = s.id) DESC, s.id LIMIT ?1"
        );
        let entry_sql = format!(
            "SELECT {SYMBOL_COLUMNS} FROM symbols s JOIN files f ON f.id = s.file_id
             WHERE s.parent_symbol_id IS NULL AND s.kind IN ('fn','class','struct','mod')
               AND (s.name IN ('main','run','start','app','cli','handler')
                    OR f.rel_path GLOB '*main.*' OR f.rel_path GLOB '*__main__.py'
                    OR f.rel_path GLOB 'index.*' OR f.rel_path GLOB 'src/index.*'
                    OR f.rel_path GLOB 'src/lib.rs' OR f.rel_path GLOB 'app.*' OR f.rel_path GLOB 'src/app.*')
             ORDER BY f.rel_path, s.line_start, s.id LIMIT ?1"
        );
        for (sql, target) in [(&top_sql, 0), (&entry_sql, 1)] {
            let rows: Vec<SymbolRow> = conn
                .prepare(sql)
                .map_err(&e)?
                .query_map([OVERVIEW_ITEMS], symbol_row)
                .map_err(&e)?
                .collect::<rusqlite::Result<_>>()
                .map_err(&e)?;
            let symbols = rows.iter().map(|r| repo.symbol(r)).collect();
            if target == 0 {
                out.top_types = symbols;
            } else {
                out.entry_points = symbols;
            }
        }
        drop(conn);
        warnings.sort();
        warnings.dedup();
        out.warnings = warnings;
        Ok(out)
    }
}

// ───────────────────────────── code.get_file_symbols ─────────────────────────────

/// `code.get_file_symbols`: the symbols of one file, as a tree.
#[derive(Debug, Clone, Copy)]
pub struct GetFileSymbols;

/// Parameters of `code.get_file_symbols`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct GetFileSymbolsRequest {
    /// Repository root. Defaults to the project directory.
    pub path: Option<PathBuf>,
    /// The file: relative to the repository root, or absolute inside it.
    pub file: PathBuf,
}

/// Result of `code.get_file_symbols`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct GetFileSymbolsResponse {
    /// The file, relative to the repository root.
    pub path: String,
    /// Its top-level symbols in line order, each with its `children`.
    pub symbols: Vec<Symbol>,
    /// Problems met; left out when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

fn relative_file(repo: &Repo, file: &Path, op: &str) -> Result<String> {
    if file.as_os_str().is_empty() {
        return Err(Error::invalid(op, "`file` is empty"));
    }
    let rel = if file.is_absolute() {
        let canonical = std::fs::canonicalize(file).unwrap_or_else(|_| file.to_path_buf());
        canonical
            .strip_prefix(&repo.root)
            .map(Path::to_path_buf)
            .map_err(|_| {
                Error::invalid(
                    op,
                    format!("{} is not inside {}", file.display(), repo.root.display()),
                )
            })?
    } else if repo.from != repo.root
        && let Ok(inside) = std::fs::canonicalize(repo.from.join(file))
        && let Ok(rel) = inside.strip_prefix(&repo.root)
    {
        // Relative to the directory given, a subdirectory of the repository.
        rel.to_path_buf()
    } else {
        file.to_path_buf()
    };
    let parts: Vec<String> = rel
        .components()
        .filter(|c| !matches!(c, std::path::Component::CurDir))
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    Ok(parts.join("/"))
}

impl Operation for GetFileSymbols {
    const NAME: &'static str = "code.get_file_symbols";
    const SUMMARY: &'static str = "All symbols of one file as a tree (classes with their methods…): name, kind, lines, signature, doc, id.";
    type Request = GetFileSymbolsRequest;
    type Response = GetFileSymbolsResponse;
    const PATH_PARAMS: &'static [PathParam] = REPO_PARAM;
    const AGENT: AgentShape = agent_shape(&[]);
    fn run(engine: &Engine, request: GetFileSymbolsRequest) -> Result<GetFileSymbolsResponse> {
        let mut warnings = Vec::new();
        let repo = open_repo(engine, request.path, Self::NAME, &mut warnings)?;
        let rel = relative_file(&repo, &request.file, Self::NAME)?;
        let conn = repo.reader(&mut warnings)?;
        let e = dberr(&repo.db_path);
        let file_id: Option<i64> = conn
            .query_row("SELECT id FROM files WHERE rel_path = ?1", [&rel], |r| {
                r.get(0)
            })
            .optional()
            .map_err(&e)?;
        let Some(file_id) = file_id else {
            return Err(Error::invalid(
                Self::NAME,
                format!(
                    "{rel} is not in the index of {} (not a source file, ignored, or not indexed yet)",
                    repo.root.display()
                ),
            ));
        };
        let rows: Vec<SymbolRow> = conn
            .prepare(&format!(
                "SELECT {SYMBOL_COLUMNS} FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.file_id = ?1 ORDER BY s.line_start, s.id"
            ))
            .map_err(&e)?
            .query_map([file_id], symbol_row)
            .map_err(&e)?
            .collect::<rusqlite::Result<_>>()
            .map_err(&e)?;
        drop(conn);
        // Children are inserted after their parent, so building from the end attaches
        // every child before its parent is itself attached.
        let mut built: HashMap<i64, Symbol> = HashMap::new();
        let mut children_of: HashMap<i64, Vec<i64>> = HashMap::new();
        let mut roots = Vec::new();
        for row in &rows {
            match row.parent {
                Some(p) => children_of.entry(p).or_default().push(row.id),
                None => roots.push(row.id),
            }
        }
        for row in rows.iter().rev() {
            let mut symbol = repo.symbol(row);
            if let Some(kids) = children_of.get(&row.id) {
                symbol.children = kids.iter().filter_map(|k| built.remove(k)).collect();
            }
            built.insert(row.id, symbol);
        }
        let mut out = GetFileSymbolsResponse {
            path: rel,
            symbols: roots.iter().filter_map(|id| built.remove(id)).collect(),
            warnings: Vec::new(),
        };
        warnings.sort();
        warnings.dedup();
        out.warnings = warnings;
        Ok(out)
    }
}

// ───────────────────────────── code.get_symbol_detail ─────────────────────────────

/// `code.get_symbol_detail`: one symbol in full.
#[derive(Debug, Clone, Copy)]
pub struct GetSymbolDetail;

/// Parameters of `code.get_symbol_detail`, `code.get_references` and
/// `code.get_dependencies`.
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
    /// `call`, `import`, `type_ref`, `extends` or `implements`.
    pub kind: String,
    /// Line of the reference.
    pub line: i64,
    /// Present (`true`) when the reference may mean this symbol or another of its name
    /// (its target is ambiguous: a method called on a value of unknown type); these
    /// come after the sure ones.
    #[serde(default, skip_serializing_if = "is_false")]
    pub maybe: bool,
}

/// Result of `code.get_symbol_detail`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SymbolDetailResponse {
    /// Id.
    pub id: i64,
    /// Name.
    pub name: String,
    /// Kind.
    pub kind: String,
    /// File, relative to the repository root.
    pub path: String,
    /// First line (1-based).
    pub start_line: i64,
    /// Last line.
    pub end_line: i64,
    /// Full signature.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
    /// Full doc comment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
    /// The symbol it is defined in (without signature and doc).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<Symbol>,
    /// Symbols defined in it (without signatures and docs).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<Symbol>,
    /// What it calls.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub calls: Vec<RefTarget>,
    /// Who refers to it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub called_by: Vec<RefSource>,
    /// The types it names, extends or implements, and the definitions it uses as values
    /// (kind `value`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub type_refs: Vec<RefTarget>,
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

/// What a symbol refers to, in line order. A name used as a value that links nowhere (a
/// local variable, a parameter, a field: the index stores no such symbols) is left out.
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
    rows.into_iter()
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

/// An incoming reference row: from symbol, its name, file, kind, line, file language.
type IncomingRow = (Option<i64>, Option<String>, String, String, i64, String);

/// Incoming references, each with the referring file: those linked to the symbol, then
/// the ambiguous ones that may mean it (same name, same language family).
fn incoming(conn: &Connection, path: &Path, id: i64) -> Result<Vec<RefSource>> {
    let read = |sql: &str, param: &dyn rusqlite::ToSql| -> Result<Vec<IncomingRow>> {
        conn.prepare_cached(sql)
            .map_err(dberr(path))?
            .query_map([param], |r| {
                Ok((
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                ))
            })
            .map_err(dberr(path))?
            .collect::<rusqlite::Result<_>>()
            .map_err(dberr(path))
    };
    let sure = read(
        "SELECT r.from_symbol_id, s.name, f.rel_path, r.kind, r.line, f.language FROM refs r
         JOIN files f ON f.id = r.file_id LEFT JOIN symbols s ON s.id = r.from_symbol_id
         WHERE r.to_symbol_id = ?1 ORDER BY f.rel_path, r.line, r.id",
        &id,
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
        &name,
    )?;
    let maybe = maybe
        .into_iter()
        .filter(|row| index::Family::of(&row.5) == family)
        .map(|row| (row, true));
    Ok(sure
        .into_iter()
        .map(|row| (row, false))
        .chain(maybe)
        .map(
            |((from_id, from_name, path, kind, line, _), maybe)| RefSource {
                from_id,
                from_name,
                path,
                kind,
                line,
                maybe,
            },
        )
        .collect())
}

impl Operation for GetSymbolDetail {
    const NAME: &'static str = "code.get_symbol_detail";
    const SUMMARY: &'static str = "One symbol in full: untruncated signature and doc, parent, children, what it calls, who calls it, the types it uses.";
    type Request = SymbolRequest;
    type Response = SymbolDetailResponse;
    const PATH_PARAMS: &'static [PathParam] = REPO_PARAM;
    const AGENT: AgentShape = agent_shape(&["called_by"]);
    fn run(engine: &Engine, request: SymbolRequest) -> Result<SymbolDetailResponse> {
        let mut warnings = Vec::new();
        let repo = open_repo(engine, request.path, Self::NAME, &mut warnings)?;
        let conn = repo.reader(&mut warnings)?;
        let row = load_symbol(&conn, &repo.db_path, request.id, Self::NAME)?;
        let e = dberr(&repo.db_path);
        let parent = match row.parent {
            Some(p) => Some(load_symbol(&conn, &repo.db_path, p, Self::NAME)?),
            None => None,
        };
        let children: Vec<SymbolRow> = conn
            .prepare(&format!(
                "SELECT {SYMBOL_COLUMNS} FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.parent_symbol_id = ?1 ORDER BY s.line_start, s.id"
            ))
            .map_err(&e)?
            .query_map([row.id], symbol_row)
            .map_err(&e)?
            .collect::<rusqlite::Result<_>>()
            .map_err(&e)?;
        let mut calls = Vec::new();
        let mut type_refs = Vec::new();
        for out in outgoing(&conn, &repo.db_path, row.id)? {
            let call = out.kind == "call";
            let target = out.target();
            if call {
                calls.push(target);
            } else {
                type_refs.push(target);
            }
        }
        let callers = incoming(&conn, &repo.db_path, row.id)?;
        drop(conn);
        let brief = |r: &SymbolRow| Symbol {
            signature: None,
            doc: None,
            ..repo.symbol(r)
        };
        Ok(SymbolDetailResponse {
            id: row.id,
            name: row.name.clone(),
            kind: row.kind.clone(),
            path: row.rel_path.clone(),
            start_line: row.line_start,
            end_line: row.line_end,
            signature: row.signature.clone(),
            doc: row.doc.clone(),
            parent: parent.as_ref().map(brief),
            children: children.iter().map(brief).collect(),
            calls,
            called_by: callers,
            type_refs,
        })
    }
}

// ───────────────────────────── code.search_symbols ─────────────────────────────

/// `code.search_symbols`: full-text search over symbol names, subwords, docs, kinds and
/// paths.
#[derive(Debug, Clone, Copy)]
pub struct SearchSymbols;

/// Parameters of `code.search_symbols`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct SearchSymbolsRequest {
    /// Repository root. Defaults to the project directory.
    pub path: Option<PathBuf>,
    /// FTS5 query: words match names, their subwords (`user` finds `getUserById`), docs,
    /// kinds and paths; `repo*` is a prefix; `AND`, `OR`, `NOT` and quotes work. Text
    /// that is not a valid query is searched as plain words.
    pub query: String,
    /// Only symbols of this kind (`fn`, `method`, `class`, …).
    pub kind: Option<String>,
    /// Most results (default 20, or the project's `search.max_results`).
    pub limit: Option<usize>,
}

/// Result of `code.search_symbols`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SearchSymbolsResponse {
    /// The query.
    pub query: String,
    /// Matches, best first (BM25).
    pub hits: Vec<Symbol>,
    /// Problems met; left out when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// Largest `limit` accepted.
pub(super) const MAX_LIMIT: usize = 1000;

/// BM25 candidates ranked for a bare name (at least this many).
const NAME_CANDIDATES: usize = 200;

/// The query as one identifier (`Engine`, `get_user`), when it is one.
fn bare_name(query: &str) -> Option<&str> {
    let is_ident = !query.is_empty()
        && !query.starts_with(|c: char| c.is_ascii_digit())
        && query.chars().all(|c| c.is_alphanumeric() || c == '_');
    (is_ident && !matches!(query, "AND" | "OR" | "NOT" | "NEAR")).then_some(query)
}

/// The symbols named exactly `name` (case and all), of `kind` when given.
fn symbols_named(
    conn: &Connection,
    name: &str,
    kind: Option<SymbolKind>,
) -> rusqlite::Result<Vec<SymbolRow>> {
    let sql = format!(
        "SELECT {SYMBOL_COLUMNS} FROM symbols s JOIN files f ON f.id = s.file_id
         WHERE s.name = ?1 AND (?2 IS NULL OR s.kind = ?2) ORDER BY s.id"
    );
    conn.prepare_cached(&sql)?
        .query_map(params![name, kind.map(SymbolKind::as_str)], symbol_row)?
        .collect()
}

/// The kinds that define a name (a type, trait, interface, class, function, method or
/// module), as against impls, variables, fields, constants and sections.
fn defines(kind: &str) -> bool {
    matches!(
        SymbolKind::parse(kind),
        Some(
            SymbolKind::Struct
                | SymbolKind::Enum
                | SymbolKind::Class
                | SymbolKind::Interface
                | SymbolKind::Trait
                | SymbolKind::Type
                | SymbolKind::Fn
                | SymbolKind::Method
                | SymbolKind::Mod
        )
    )
}

/// Whether a symbol's signature marks it public (`pub`, `export`, `public`).
fn marked_public(signature: Option<&str>) -> bool {
    let sig = signature.unwrap_or("").trim_start();
    ["pub ", "pub(", "export ", "public "]
        .iter()
        .any(|p| sig.starts_with(p))
}

/// Candidates for a bare `name` in rank order: the symbols of that name first — those
/// that define it before the others (impls, variables, fields), then exact case before
/// other case, then public before private, then those below `near` (the directory asked
/// from, relative to the root, `""` for the root itself) before the rest — then the
/// rest; BM25 order (`bm25`'s), then id, within each. `exact` are the symbols named
/// exactly `name`, which BM25 may have left out.
fn definitions_first(
    name: &str,
    near: &str,
    bm25: Vec<SymbolRow>,
    exact: Vec<SymbolRow>,
) -> Vec<SymbolRow> {
    let mut rows: Vec<(usize, SymbolRow)> = bm25.into_iter().enumerate().collect();
    for row in exact {
        if !rows.iter().any(|(_, r)| r.id == row.id) {
            rows.push((usize::MAX, row));
        }
    }
    let key = |(position, row): &(usize, SymbolRow)| {
        let case = if row.name == name {
            0
        } else if row.name.eq_ignore_ascii_case(name) {
            1
        } else {
            2
        };
        let of_name = case < 2;
        let far = !near.is_empty()
            && !row
                .rel_path
                .strip_prefix(near)
                .is_some_and(|rest| rest.starts_with('/'));
        (
            !of_name,
            of_name && !defines(&row.kind),
            case,
            of_name && !marked_public(row.signature.as_deref()),
            of_name && far,
            *position,
            row.id,
        )
    };
    rows.sort_by_key(key);
    rows.into_iter().map(|(_, row)| row).collect()
}

fn run_search(conn: &Connection, fts: &str, limit: usize) -> rusqlite::Result<Vec<SymbolRow>> {
    let sql = format!(
        "WITH m AS (SELECT rowid AS id, bm25(symbols_fts, 10.0, 1.0, 1.0, 2.0, 5.0) AS rank
                    FROM symbols_fts WHERE symbols_fts MATCH ?1 ORDER BY rank, rowid LIMIT ?2)
         SELECT {SYMBOL_COLUMNS} FROM m JOIN symbols s ON s.id = m.id JOIN files f ON f.id = s.file_id
         ORDER BY m.rank, s.id"
    );
    conn.prepare_cached(&sql)?
        .query_map(params![fts, limit as i64], symbol_row)?
        .collect()
}

impl Operation for SearchSymbols {
    const NAME: &'static str = "code.search_symbols";
    const SUMMARY: &'static str = "Search a repository's symbols by name, subword (camelCase/snake_case split), doc comment, kind or path; prefix*, AND/OR/NOT; BM25-ranked compact results.";
    type Request = SearchSymbolsRequest;
    type Response = SearchSymbolsResponse;
    const PATH_PARAMS: &'static [PathParam] = REPO_PARAM;
    const AGENT: AgentShape = agent_shape(&["hits"]);
    fn run(engine: &Engine, request: SearchSymbolsRequest) -> Result<SearchSymbolsResponse> {
        let query = request.query.trim();
        if query.is_empty() {
            return Err(Error::invalid(Self::NAME, "`query` is empty"));
        }
        let query = crate::text::truncate_utf8(query, crate::text::MAX_QUERY_BYTES);
        let kind = match request.kind.as_deref() {
            None | Some("") => None,
            Some(k) => Some(SymbolKind::parse(k).ok_or_else(|| {
                Error::invalid(
                    Self::NAME,
                    format!(
                        "unknown kind `{k}` (one of {})",
                        SymbolKind::ALL.map(SymbolKind::as_str).join(", ")
                    ),
                )
            })?),
        };
        let mut warnings = Vec::new();
        let repo = open_repo(engine, request.path, Self::NAME, &mut warnings)?;
        let limit = request
            .limit
            .unwrap_or(repo.config.max_results)
            .clamp(1, MAX_LIMIT);
        let conn = repo.reader(&mut warnings)?;
        let with_kind = |q: &str| match kind {
            Some(k) => format!("({q}) AND kind:\"{}\"", k.as_str()),
            None => q.to_string(),
        };
        // FTS5's NOT is binary (`a NOT b`); `a AND NOT b` is accepted as the same.
        let words: Vec<&str> = query.split_whitespace().collect();
        let mut fts = String::with_capacity(query.len());
        for (i, word) in words.iter().enumerate() {
            if *word == "AND" && words.get(i + 1) == Some(&"NOT") {
                continue;
            }
            if !fts.is_empty() {
                fts.push(' ');
            }
            fts.push_str(word);
        }
        let name = bare_name(query);
        // A bare name is ranked by the rules of `definitions_first`, over more candidates
        // than asked for: the definition may be far down the BM25 order.
        let candidates = if name.is_some() {
            limit.max(NAME_CANDIDATES)
        } else {
            limit
        };
        let mut rows = match run_search(&conn, &with_kind(&fts), candidates) {
            Ok(rows) => rows,
            Err(_) => match crate::text::fts5_query(query, false) {
                Some(escaped) => run_search(&conn, &with_kind(&escaped), candidates)
                    .map_err(dberr(&repo.db_path))?,
                None => Vec::new(),
            },
        };
        if let Some(name) = name {
            let named = symbols_named(&conn, name, kind).map_err(dberr(&repo.db_path))?;
            rows = definitions_first(name, &repo.near(), rows, named);
            rows.truncate(limit);
        }
        drop(conn);
        let mut out = SearchSymbolsResponse {
            query: query.to_string(),
            hits: rows.iter().map(|r| repo.symbol(r)).collect(),
            warnings: Vec::new(),
        };
        warnings.sort();
        warnings.dedup();
        out.warnings = warnings;
        Ok(out)
    }
}

// ───────────────────────────── code.get_references ─────────────────────────────

/// `code.get_references`: who refers to a symbol.
#[derive(Debug, Clone, Copy)]
pub struct GetReferences;

/// Result of `code.get_references`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ReferencesResponse {
    /// The symbol.
    pub id: i64,
    /// References to it, by file and line: the sure ones, then those that may mean it.
    pub references: Vec<RefSource>,
}

impl Operation for GetReferences {
    const NAME: &'static str = "code.get_references";
    const SUMMARY: &'static str = "Who refers to a symbol (calls, imports, type uses, extends, implements), with file and line.";
    type Request = SymbolRequest;
    type Response = ReferencesResponse;
    const PATH_PARAMS: &'static [PathParam] = REPO_PARAM;
    const AGENT: AgentShape = agent_shape(&["references"]);
    fn run(engine: &Engine, request: SymbolRequest) -> Result<ReferencesResponse> {
        let mut warnings = Vec::new();
        let repo = open_repo(engine, request.path, Self::NAME, &mut warnings)?;
        let conn = repo.reader(&mut warnings)?;
        load_symbol(&conn, &repo.db_path, request.id, Self::NAME)?;
        let references = incoming(&conn, &repo.db_path, request.id)?;
        Ok(ReferencesResponse {
            id: request.id,
            references,
        })
    }
}

// ───────────────────────────── code.get_dependencies ─────────────────────────────

/// `code.get_dependencies`: what a symbol refers to.
#[derive(Debug, Clone, Copy)]
pub struct GetDependencies;

/// One dependency of a symbol.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Dependency {
    /// The name referred to.
    pub to_name: String,
    /// `call`, `import`, `type_ref`, `extends` or `implements`.
    pub kind: String,
    /// The symbol it resolved to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_id: Option<i64>,
    /// Present (`true`) when it resolved to nothing in the index (the standard library,
    /// a dependency, a builtin).
    #[serde(default, skip_serializing_if = "is_false")]
    pub external: bool,
    /// Present (`true`) when several definitions could be meant and none is linked:
    /// `candidates` lists some.
    #[serde(default, skip_serializing_if = "is_false")]
    pub ambiguous: bool,
    /// With `ambiguous`: ids of definitions it could mean (at most five).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub candidates: Vec<i64>,
}

/// Result of `code.get_dependencies`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct DependenciesResponse {
    /// The symbol.
    pub id: i64,
    /// What it refers to, in line order.
    pub dependencies: Vec<Dependency>,
}

impl Operation for GetDependencies {
    const NAME: &'static str = "code.get_dependencies";
    const SUMMARY: &'static str = "What a symbol refers to (calls, type uses, extends, implements), resolved to symbol ids where the index has them.";
    type Request = SymbolRequest;
    type Response = DependenciesResponse;
    const PATH_PARAMS: &'static [PathParam] = REPO_PARAM;
    const AGENT: AgentShape = agent_shape(&[]);
    fn run(engine: &Engine, request: SymbolRequest) -> Result<DependenciesResponse> {
        let mut warnings = Vec::new();
        let repo = open_repo(engine, request.path, Self::NAME, &mut warnings)?;
        let conn = repo.reader(&mut warnings)?;
        load_symbol(&conn, &repo.db_path, request.id, Self::NAME)?;
        let dependencies = outgoing(&conn, &repo.db_path, request.id)?
            .into_iter()
            .map(|o| Dependency {
                external: o.to.is_none() && !o.ambiguous,
                to_name: o.name,
                kind: o.kind,
                to_id: o.to,
                ambiguous: o.ambiguous,
                candidates: o.candidates,
            })
            .collect();
        drop(conn);
        Ok(DependenciesResponse {
            id: request.id,
            dependencies,
        })
    }
}

// ───────────────────────────── code.list_repos / code.delete_repos ─────────────────────────────

/// `code.list_repos`: the repositories this engine has indexed.
#[derive(Debug, Clone, Copy)]
pub struct ListRepos;

/// Parameters of `code.list_repos`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct ListReposRequest {
    /// Only what is stored for repositories under these directories (absent or empty:
    /// all). The MCP server sets it to its roots.
    pub within: Vec<PathBuf>,
}

/// One indexed repository.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct RepoSummary {
    /// Repository root.
    pub path: String,
    /// Files indexed.
    pub files: u64,
    /// Symbols indexed.
    pub symbols: u64,
    /// When it was last indexed (Unix seconds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub indexed_at: Option<i64>,
    /// Its database file.
    pub database: String,
}

/// Result of `code.list_repos`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ListReposResponse {
    /// Indexed repositories, by path.
    pub repos: Vec<RepoSummary>,
    /// Databases that could not be read (only without `within`: their repository is
    /// unknown); left out when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

fn code_dbs(home: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(home.join("code")) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "db"))
        .collect();
    out.sort();
    out
}

fn summary_of(
    engine: &Engine,
    path: &Path,
    warnings: &mut Vec<String>,
) -> Result<Option<RepoSummary>> {
    let database = engine.database_at(path, db::SCHEMA)?;
    let conn = database.read(warnings)?;
    let e = dberr(path);
    let Some(root) = db::meta(&conn, "repo_root").map_err(&e)? else {
        return Ok(None);
    };
    let files: i64 = conn
        .query_row("SELECT count(*) FROM files", [], |r| r.get(0))
        .map_err(&e)?;
    let symbols: i64 = conn
        .query_row("SELECT count(*) FROM symbols", [], |r| r.get(0))
        .map_err(&e)?;
    let indexed_at = db::meta(&conn, "last_indexed")
        .map_err(&e)?
        .and_then(|v| v.parse().ok());
    Ok(Some(RepoSummary {
        path: root,
        files: files as u64,
        symbols: symbols as u64,
        indexed_at,
        database: path.to_string_lossy().into_owned(),
    }))
}

impl Operation for ListRepos {
    const NAME: &'static str = "code.list_repos";
    const SUMMARY: &'static str =
        "List the repositories with a code index: path, files, symbols, when indexed.";
    type Request = ListReposRequest;
    type Response = ListReposResponse;
    const PATH_PARAMS: &'static [PathParam] = &[PathParam::within("/within")];
    fn run(engine: &Engine, request: ListReposRequest) -> Result<ListReposResponse> {
        let within = Within::new(&request.within);
        let mut warnings = Vec::new();
        let mut repos = Vec::new();
        for path in code_dbs(engine.home()) {
            // Opening a database may warn (a recovered file): keep that only for what
            // is listed.
            let mut opened = Vec::new();
            match summary_of(engine, &path, &mut opened) {
                Ok(Some(s)) if within.contains(Path::new(&s.path)) => {
                    warnings.extend(opened);
                    repos.push(s);
                }
                Ok(_) => {}
                // Whose index it is cannot be told: reported only when nothing is confined.
                Err(e) if within.is_all() => {
                    warnings.extend(opened);
                    warnings.push(format!("{}: {e}", path.display()));
                }
                Err(_) => {}
            }
        }
        repos.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(ListReposResponse { repos, warnings })
    }
}

/// `code.delete_repos`: delete the code index of repositories.
#[derive(Debug, Clone, Copy)]
pub struct DeleteRepos;

/// Parameters of `code.delete_repos`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct DeleteReposRequest {
    /// Repository roots whose index to delete (they need not exist any more).
    pub paths: Vec<PathBuf>,
    /// Delete every code index instead (with `within`: every one under it).
    pub all: bool,
    /// Only what is stored for repositories under these directories (absent or empty:
    /// all): `all` deletes only those, and a `paths` entry outside them is refused. The
    /// MCP server sets it to its roots.
    pub within: Vec<PathBuf>,
}

/// Result of `code.delete_repos`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct DeleteReposResponse {
    /// Repositories whose index was deleted, by path.
    pub deleted: Vec<String>,
    /// Paths given that had no index.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_found: Vec<String>,
}

fn remove_db(engine: &Engine, path: &Path) -> Result<()> {
    engine.forget_database(path);
    for suffix in ["", "-wal", "-shm", "-writer"] {
        let file = PathBuf::from(format!("{}{suffix}", path.display()));
        match std::fs::remove_file(&file) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(Error::io(&file, e)),
        }
    }
    Ok(())
}

impl Operation for DeleteRepos {
    const NAME: &'static str = "code.delete_repos";
    const SUMMARY: &'static str =
        "Delete the code index of the given repositories (or of all with `all`).";
    type Request = DeleteReposRequest;
    type Response = DeleteReposResponse;
    const PATH_PARAMS: &'static [PathParam] =
        &[PathParam::many("/paths"), PathParam::within("/within")];
    fn run(engine: &Engine, request: DeleteReposRequest) -> Result<DeleteReposResponse> {
        if request.paths.is_empty() && !request.all {
            return Err(Error::invalid(Self::NAME, "give `paths`, or `all: true`"));
        }
        let within = Within::new(&request.within);
        // Every path is checked before anything is deleted.
        let mut roots = Vec::with_capacity(request.paths.len());
        for given in &request.paths {
            let root = std::fs::canonicalize(given)
                .unwrap_or_else(|_| std::path::absolute(given).unwrap_or_else(|_| given.clone()));
            if !within.contains(&root) {
                return Err(Error::invalid(
                    Self::NAME,
                    format!(
                        "{} is not under `within` ({})",
                        given.display(),
                        within.describe()
                    ),
                ));
            }
            roots.push((given, root));
        }
        let mut out = DeleteReposResponse::default();
        let mut warnings = Vec::new();
        if request.all {
            for path in code_dbs(engine.home()) {
                let root = summary_of(engine, &path, &mut warnings).ok().flatten();
                let name = match root {
                    Some(s) if within.contains(Path::new(&s.path)) => s.path,
                    // Not under `within`, or whose index it is cannot be told: kept.
                    _ if !within.is_all() => continue,
                    Some(s) => s.path,
                    None => path.to_string_lossy().into_owned(),
                };
                remove_db(engine, &path)?;
                out.deleted.push(name);
            }
        }
        for (given, root) in roots {
            let path = db::db_path(engine.home(), &root);
            if path.exists() {
                remove_db(engine, &path)?;
                out.deleted.push(root.to_string_lossy().into_owned());
            } else if !request.all {
                out.not_found.push(given.to_string_lossy().into_owned());
            }
        }
        out.deleted.sort();
        out.deleted.dedup();
        Ok(out)
    }
}
