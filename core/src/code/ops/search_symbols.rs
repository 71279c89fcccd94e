//! `code.search_symbols`: BM25 search over symbol names, their subwords, docs, kinds and
//! paths; a bare name is ranked definitions first (`definitions_first`): exact case,
//! outside tests, at the top of a file or type (not inside a function), declarations
//! (a trait's or interface's method, an abstract one, a stub) before implementations,
//! public and near the directory asked from before the rest. A qualified name (`Class.method`,
//! `Type::method`, `module.name`, `path/file.py:Name`) that names symbols (`qualified`)
//! answers with those only, ranked as its last name would be; one that names none is
//! searched as words.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};

use super::{
    MAX_LIMIT, REPO_PARAM, SYMBOL_COLUMNS, Symbol, SymbolRow, agent_shape, dberr, open_repo,
    symbol_row,
};
use crate::code::SymbolKind;
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::ops::{AgentShape, Operation, PathParam};

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

/// BM25 candidates ranked for a bare name (at least this many).
const NAME_CANDIDATES: usize = 200;

/// The query as one identifier (`Engine`, `get_user`, Ruby's `route!`), when it is one.
fn bare_name(query: &str) -> Option<&str> {
    // (Ruby's `route!`, `nil?` and `level=` end with a mark.)
    let ident = query.strip_suffix(['!', '?', '=']).unwrap_or(query);
    let is_ident = !ident.is_empty()
        && !ident.starts_with(|c: char| c.is_ascii_digit())
        && ident.chars().all(|c| c.is_alphanumeric() || c == '_');
    (is_ident && !matches!(query, "AND" | "OR" | "NOT" | "NEAR")).then_some(query)
}

/// What a qualified name says of the symbol it names, besides its name.
#[derive(Debug, PartialEq, Eq)]
enum Qualifier<'q> {
    /// `path/file.py:Name`: in the file whose path ends with this.
    File(&'q str),
    /// `A.b.Name`, `a::b::Name`: the enclosing symbol or module path, outermost first
    /// (empty for `crate::Name`: anywhere).
    Scope(Vec<&'q str>),
}

/// The query as a qualified name and its last name: `Class.method`, `Type::method`,
/// `module.sub.name`, `crate::m::name`, `path/to/file.py:Name`; `None` for anything else.
fn qualified(query: &str) -> Option<(Qualifier<'_>, &str)> {
    if query.contains(char::is_whitespace) {
        return None;
    }
    if let Some((file, name)) = query.rsplit_once(':')
        && !file.ends_with(':')
        && (file.contains('/') || file.contains('.'))
        && file
            .rsplit('/')
            .next()
            .is_some_and(|last| last.contains('.'))
    {
        return Some((Qualifier::File(file), bare_name(name)?));
    }
    let (scope, name) = match query.rsplit_once("::") {
        Some(split) => split,
        None => query.rsplit_once('.')?,
    };
    let name = bare_name(name)?;
    let parts: Vec<&str> = scope
        .split("::")
        .flat_map(|p| p.split('.'))
        .filter(|p| !matches!(*p, "" | "crate" | "self" | "super"))
        .collect();
    // (`crate::name` alone: any `name`, ranked as a bare one.)
    if parts.iter().any(|p| bare_name(p).is_none()) {
        return None;
    }
    Some((Qualifier::Scope(parts), name))
}

/// Whether `row` (with its enclosing symbol's name, if any) is what `qualifier` says: in
/// the file it names; or enclosed by a symbol named like the innermost scope, or in a
/// file whose path (without its extension, and without a last `__init__`, `mod` or
/// `index`) ends with the scopes as directories (`_pytest.config` for
/// `src/_pytest/config.py` and `src/_pytest/config/__init__.py`).
fn qualifies(qualifier: &Qualifier<'_>, row: &SymbolRow, parent: Option<&str>) -> bool {
    match qualifier {
        Qualifier::File(file) => {
            row.rel_path == *file || row.rel_path.ends_with(&format!("/{file}"))
        }
        Qualifier::Scope(parts) => {
            if parts.is_empty() || parent == parts.last().copied() {
                return true;
            }
            let stem = row
                .rel_path
                .rsplit_once('.')
                .map_or(row.rel_path.as_str(), |(stem, _)| stem);
            let stem = ["/__init__", "/mod", "/index"]
                .iter()
                .find_map(|end| stem.strip_suffix(end))
                .unwrap_or(stem);
            let module = parts.join("/");
            stem == module || stem.ends_with(&format!("/{module}"))
        }
    }
}

/// The names of the types the types named `class` extend and implement, as their
/// signatures say, and theirs in turn (a few levels, nearest first).
fn bases_of(conn: &Connection, class: &str) -> rusqlite::Result<Vec<String>> {
    let mut stmt = conn.prepare_cached(
        "SELECT s.kind, s.signature, f.language FROM symbols s JOIN files f ON f.id = s.file_id
         WHERE s.name = ?1 ORDER BY s.id",
    )?;
    let mut found: Vec<String> = Vec::new();
    let mut next = 0;
    let mut ty = class.to_string();
    loop {
        let rows = stmt
            .query_map(params![ty], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, Option<String>>(1)?,
                    r.get::<_, String>(2)?,
                ))
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        for (kind, signature, language) in rows {
            let rules = crate::code::lang::Family::of(&language).rules();
            for base in rules.bases(SymbolKind::parse(&kind), signature.as_deref()) {
                let base = crate::code::extract::last_segment(&base).to_string();
                if base != class && !found.contains(&base) {
                    found.push(base);
                }
            }
        }
        if next >= found.len() || found.len() > 16 {
            return Ok(found);
        }
        ty = found[next].clone();
        next += 1;
    }
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

/// Hits that neither are of a bare name nor hold it as words, kept after the name's
/// definitions when the call gives no `limit`.
const OTHER_HITS: usize = 5;

/// How a symbol's name stands to a bare name asked for, nearest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Naming {
    /// The name itself.
    Exact,
    /// The name in another case.
    OtherCase,
    /// A name whose subwords (see [`crate::code::text::split_identifier`]) hold the
    /// asked name's in a row (`HTTPTransport` for `Transport`).
    HoldsWords,
    /// Any other name.
    Other,
}

impl Naming {
    /// How `symbol` stands to `name`, whose subwords are `words`.
    fn of(symbol: &str, name: &str, words: &[String]) -> Naming {
        if symbol == name {
            Naming::Exact
        } else if symbol.eq_ignore_ascii_case(name) {
            Naming::OtherCase
        } else if !words.is_empty()
            && crate::code::text::split_identifier(symbol)
                .windows(words.len())
                .any(|w| w == words)
        {
            Naming::HoldsWords
        } else {
            Naming::Other
        }
    }

    /// The name itself, in any case.
    fn is_of_name(self) -> bool {
        self <= Naming::OtherCase
    }
}

/// Whether a symbol's signature marks it public (`pub`, `export`, `public`).
fn marked_public(signature: Option<&str>) -> bool {
    let sig = signature.unwrap_or("").trim_start();
    ["pub ", "pub(", "export ", "public "]
        .iter()
        .any(|p| sig.starts_with(p))
}

/// Candidates for a bare `name` in rank order, each with its [`Naming`]: the symbols of
/// that name outside tests ([`crate::code::is_test_path`]) first, then those outside
/// tests whose names hold it as words of their own, then those of the name in tests,
/// then the rest. Among the symbols of the name, those that define it before the others
/// (impls, variables, fields), then exact case before other case, then
/// those at the top of a file or type before those inside a function (`local`: a class a
/// test defines for itself), then declarations before implementations (a trait's,
/// interface's or protocol's method, an abstract one, a hookspec: see
/// `LanguageExtractor::declares`; and `in_contract`, the methods of a trait or interface
/// that have a default body), then public before private, then those below `near`
/// (the directory asked from, relative to the root, `""` for the root itself) before the
/// rest — then the rest; BM25 order (`bm25`'s), then id, within each. `exact` are the
/// symbols named exactly `name`, which BM25 may have left out.
fn definitions_first(
    name: &str,
    near: &str,
    bm25: Vec<SymbolRow>,
    exact: Vec<SymbolRow>,
    local: &HashSet<i64>,
    in_contract: &HashSet<i64>,
) -> Vec<(Naming, SymbolRow)> {
    let mut rows: Vec<(usize, SymbolRow)> = bm25.into_iter().enumerate().collect();
    for row in exact {
        if !rows.iter().any(|(_, r)| r.id == row.id) {
            rows.push((usize::MAX, row));
        }
    }
    let words = crate::code::text::split_identifier(name);
    let mut rows: Vec<(Naming, usize, SymbolRow)> = rows
        .into_iter()
        .map(|(position, row)| (Naming::of(&row.name, name, &words), position, row))
        .collect();
    let key = |(naming, position, row): &(Naming, usize, SymbolRow)| {
        let of_name = naming.is_of_name();
        let in_tests = crate::code::is_test_path(&row.rel_path);
        let far = !near.is_empty()
            && !row
                .rel_path
                .strip_prefix(near)
                .is_some_and(|rest| rest.starts_with('/'));
        // The symbols of the name outside tests, then those outside tests whose name
        // holds it as words of its own (`HTTPTransport` for `Transport`), then those of
        // the name in tests (a test's own `Transport` is not the code base's), then the
        // rest.
        let tier = match (naming, in_tests) {
            (Naming::Exact | Naming::OtherCase, false) => 0,
            (Naming::HoldsWords, false) => 1,
            (Naming::Exact | Naming::OtherCase, true) => 2,
            _ => 3,
        };
        (
            tier,
            of_name && !defines(&row.kind),
            of_name && *naming == Naming::OtherCase,
            of_name && in_tests,
            of_name && local.contains(&row.id),
            // The declaration states what every implementation of the name does (the
            // hookspec, the trait's method), so it comes first — but after the two keys
            // above: a test's stub or fake, or a stub inside a function, declares nothing
            // for the code base. And before `public`: implementations are often marked
            // `public`/`pub` where the interface's or trait's methods are not. A trait's
            // or interface's method with a default body is no declaration, but it is
            // where the name is declared all the same: it ranks as one.
            of_name && !(row.declaration || in_contract.contains(&row.id)),
            of_name && !marked_public(row.signature.as_deref()),
            of_name && far,
            *position,
            row.id,
        )
    };
    // Each row's key once: a name's subwords and its path's test check are not free.
    rows.sort_by_cached_key(key);
    rows.into_iter()
        .map(|(naming, _, row)| (naming, row))
        .collect()
}

/// The name and kind of each symbol that encloses one of `rows`, by id.
fn parents_of(
    conn: &Connection,
    rows: &[SymbolRow],
) -> rusqlite::Result<HashMap<i64, (String, String)>> {
    let mut parents = HashMap::new();
    let mut stmt = conn.prepare_cached("SELECT name, kind FROM symbols WHERE id = ?1")?;
    for id in rows.iter().filter_map(|r| r.parent) {
        if let std::collections::hash_map::Entry::Vacant(slot) = parents.entry(id) {
            let found: Option<(String, String)> = stmt
                .query_row(params![id], |r| Ok((r.get(0)?, r.get(1)?)))
                .optional()?;
            if let Some(found) = found {
                slot.insert(found);
            }
        }
    }
    Ok(parents)
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
        // A qualified name that names symbols is searched as its last name, whose
        // symbols it then sorts; one that names none (`config.py`) is searched as it is.
        let mut qualified = qualified(query);
        let mut named_qualified = None;
        if let Some((qualifier, name)) = &qualified {
            let named = symbols_named(&conn, name, kind).map_err(dberr(&repo.db_path))?;
            let parents = parents_of(&conn, &named).map_err(dberr(&repo.db_path))?;
            let mut wanted: HashSet<i64> = named
                .iter()
                .filter(|r| {
                    let parent = r.parent.and_then(|p| parents.get(&p));
                    qualifies(qualifier, r, parent.map(|(n, _)| n.as_str()))
                })
                .map(|r| r.id)
                .collect();
            if wanted.is_empty()
                && let Qualifier::Scope(parts) = qualifier
                && let Some(class) = parts.last()
            {
                // `Client.send` where `Client` inherits `send`: the member of a class
                // it extends.
                let bases = bases_of(&conn, class).map_err(dberr(&repo.db_path))?;
                wanted.extend(
                    named
                        .iter()
                        .filter(|r| {
                            r.parent
                                .and_then(|p| parents.get(&p))
                                .is_some_and(|(n, _)| bases.contains(n))
                        })
                        .map(|r| r.id),
                );
            }
            if wanted.is_empty() {
                qualified = None;
            } else {
                named_qualified = Some((named, parents, wanted));
            }
        }
        let (query_text, fts) = match &qualified {
            Some((_, name)) => (*name, name.to_string()),
            None => (query, fts),
        };
        let name = bare_name(query_text);
        // A bare name is ranked by the rules of `definitions_first`, over more candidates
        // than asked for: the definition may be far down the BM25 order.
        let candidates = if name.is_some() {
            limit.max(NAME_CANDIDATES)
        } else {
            limit
        };
        let mut rows = match run_search(&conn, &with_kind(&fts), candidates) {
            Ok(rows) => rows,
            Err(_) => match crate::text::fts5_query(query_text, false) {
                Some(escaped) => run_search(&conn, &with_kind(&escaped), candidates)
                    .map_err(dberr(&repo.db_path))?,
                None => Vec::new(),
            },
        };
        if let Some(name) = name {
            let (named, parents, wanted) = match named_qualified {
                Some(found) => found,
                None => {
                    let named = symbols_named(&conn, name, kind).map_err(dberr(&repo.db_path))?;
                    let parents = parents_of(&conn, &named).map_err(dberr(&repo.db_path))?;
                    (named, parents, HashSet::new())
                }
            };
            let parent_kind = |r: &SymbolRow| {
                r.parent
                    .and_then(|p| parents.get(&p))
                    .map(|(_, kind)| kind.as_str())
            };
            let local: HashSet<i64> = named
                .iter()
                .filter(|r| matches!(parent_kind(r), Some("fn" | "method")))
                .map(|r| r.id)
                .collect();
            let in_contract: HashSet<i64> = named
                .iter()
                .filter(|r| matches!(parent_kind(r), Some("trait" | "interface")))
                .map(|r| r.id)
                .collect();
            let mut ranked =
                definitions_first(name, &repo.near(), rows, named, &local, &in_contract);
            // A qualified name answers with what it names, and nothing else: the agent
            // named one symbol (or its overloads), not a neighbourhood of names.
            if !wanted.is_empty() {
                ranked.retain(|(_, r)| wanted.contains(&r.id));
            }
            // A name the code base defines answers with its definitions and a few other
            // hits, not with every symbol of a file named like it, unless the call asks
            // for a number of hits.
            let defined = ranked
                .iter()
                .any(|(n, r)| n.is_of_name() && !crate::code::is_test_path(&r.rel_path));
            if request.limit.is_none() && defined {
                let mut others = 0;
                ranked.retain(|(naming, _)| {
                    others += usize::from(*naming == Naming::Other);
                    *naming != Naming::Other || others <= OTHER_HITS
                });
            }
            rows = ranked.into_iter().map(|(_, row)| row).collect();
            rows.truncate(limit);
        }
        let parents = parents_of(&conn, &rows).map_err(dberr(&repo.db_path))?;
        drop(conn);
        let hit = |r: &SymbolRow| Symbol {
            within: r
                .parent
                .and_then(|p| parents.get(&p))
                .map(|(name, _)| name.clone()),
            ..repo.symbol(r)
        };
        let mut out = SearchSymbolsResponse {
            query: query.to_string(),
            hits: rows.iter().map(hit).collect(),
            warnings: Vec::new(),
        };
        warnings.sort();
        warnings.dedup();
        out.warnings = warnings;
        Ok(out)
    }
}
