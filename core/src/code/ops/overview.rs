//! `code.get_overview`: a repository at a glance — languages, directories with their
//! file and symbol counts (test fixtures and examples apart), the most referenced types,
//! the entry points and where the docs are.
//!
//! Entry points are what starts a program: the commands a manifest declares
//! (`pyproject.toml`/`setup.cfg`/`setup.py` console scripts, `package.json` `bin` and
//! `main`, `Cargo.toml` binaries), each resolved to the function it runs when the index
//! has it; modules run with `python -m` (`__main__.py`); and `main` functions.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{
    REPO_PARAM, SYMBOL_COLUMNS, Symbol, SymbolRow, agent_shape, dberr, open_repo, symbol_row,
};
use crate::code::extract::EntryRuns;
use crate::code::index::{TREE_FACTS, TreeFacts, tree_facts};
use crate::code::{extractors, is_test_path};
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::ops::{AgentShape, Operation, PathParam};

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

/// A directory of the repository in an overview, with what is below it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct DirectorySummary {
    /// Directory, relative (`.` for the root's own files).
    pub path: String,
    /// Files indexed in it and below.
    pub files: u64,
    /// Symbols in those files.
    pub symbols: u64,
}

/// Where a program starts.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct EntryPoint {
    /// The command's name (a console script, an npm or Cargo binary), the package's name
    /// for `package.json`'s `main` and a `__main__.py`, or `main`.
    pub name: String,
    /// What declares it: `pyproject.toml`, `setup.cfg`, `setup.py`, `package.json`,
    /// `Cargo.toml` (each with its directory when not the root), `python -m`, or `main`.
    pub declared_in: String,
    /// What the declaration names, as written (`pkg.cli:main`, `bin/cli.js`); empty for
    /// `main` functions and `__main__.py`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub target: String,
    /// The file it runs, relative to the repository root, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// The function it runs, when the index has it: its symbol id…
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<i64>,
    /// …and lines.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_line: Option<i64>,
    /// Last line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_line: Option<i64>,
}

/// Result of `code.get_overview`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct GetOverviewResponse {
    /// Repository name (its directory's name).
    pub repo: String,
    /// Files per language.
    pub languages: BTreeMap<String, u64>,
    /// Directories two levels deep, each with the files and symbols at and below it, by
    /// path — at most [`OVERVIEW_DIRECTORIES`], the largest.
    pub directories: Vec<DirectorySummary>,
    /// Smaller directories not listed.
    #[serde(default, skip_serializing_if = "super::is_zero")]
    pub more_directories: usize,
    /// Test fixtures, examples and samples (`fixtures/`, `examples/`, `testdata/`…),
    /// counted apart from the code.
    pub samples: Vec<DirectorySummary>,
    /// The most referenced top-level types (classes, structs, interfaces, traits, enums)
    /// outside tests and samples.
    pub top_types: Vec<Symbol>,
    /// What starts a program: declared commands first, then `python -m` modules and
    /// `main` functions.
    pub entry_points: Vec<EntryPoint>,
    /// Documentation files (what `docs.query` searches) per top directory (`.` for the
    /// root's own).
    pub docs: BTreeMap<String, u64>,
    /// Problems met; left out when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// Most top types shown.
const OVERVIEW_ITEMS: i64 = 15;
/// Most entry points shown.
const OVERVIEW_ENTRIES: usize = 20;
/// Most directories shown.
pub const OVERVIEW_DIRECTORIES: usize = 30;

/// The directory a file is counted under: its first two levels (`.` for the root's
/// own files), or the first sample directory on its way and `true`.
fn directory_of(rel: &str) -> (String, bool) {
    let Some((dir, _)) = rel.rsplit_once('/') else {
        return (".".into(), false);
    };
    let parts: Vec<&str> = dir.split('/').collect();
    if let Some(at) = parts.iter().position(|p| crate::text::in_sample_dir(p)) {
        return (parts[..=at].join("/"), true);
    }
    (parts[..parts.len().min(2)].join("/"), false)
}

/// Whether `rel` is in a test or sample directory (or is a test file).
fn aside(rel: &str) -> bool {
    is_test_path(rel) || directory_of(rel).1
}

impl Operation for GetOverview {
    const NAME: &'static str = "code.get_overview";
    const SUMMARY: &'static str = "Overview of an indexed repository: languages, directories with file and symbol counts (samples apart), the most referenced types, the entry points and the docs.";
    type Request = GetOverviewRequest;
    type Response = GetOverviewResponse;
    const PATH_PARAMS: &'static [PathParam] = REPO_PARAM;
    /// Names, kinds and lines of the types: signatures and docs are one id away.
    const AGENT: AgentShape = AgentShape {
        omit: &["top_types/*/signature", "top_types/*/doc"],
        ..agent_shape(&[])
    };
    fn run(engine: &Engine, request: GetOverviewRequest) -> Result<GetOverviewResponse> {
        let mut warnings = Vec::new();
        let repo = open_repo(engine, request.path, Self::NAME, &mut warnings)?;
        // Taken before the answer is made: a write during it makes the next call's differ.
        let stamp = Stamp::of(&repo.db_path, &[]);
        {
            let kept = repo
                .database
                .fresh()
                .lock()
                .unwrap_or_else(|p| p.into_inner());
            if let Some(kept) = kept.get(KEPT).and_then(|k| k.downcast_ref::<Kept>())
                && Stamp::of(&repo.db_path, &kept.manifests).as_ref() == Some(&kept.stamp)
            {
                let mut out = kept.answer.clone();
                warnings.sort();
                warnings.dedup();
                out.warnings = warnings;
                return Ok(out);
            }
        }
        let (out, manifests) = overview(&repo, warnings)?;
        if let (Some(mut stamp), Some(manifests)) = (stamp, manifests) {
            let paths: Vec<PathBuf> = manifests.iter().map(|m| repo.root.join(m)).collect();
            // The index as it was before the answer was made, the manifests as read.
            if let Some(read) = Stamp::files(&paths) {
                stamp.0.extend(read.0);
                let mut answer = out.clone();
                answer.warnings.clear();
                repo.database
                    .fresh()
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .insert(
                        KEPT.to_string(),
                        Box::new(Kept {
                            stamp,
                            manifests: paths,
                            answer,
                        }),
                    );
            }
        }
        Ok(out)
    }
}

/// Where the last overview of an index is kept, on its database handle
/// ([`crate::store::Database::fresh`]).
const KEPT: &str = "code.get_overview";

/// The last overview of an index, answered again while the files it was made from are
/// unchanged: the index (its database and write-ahead log) and the manifests its entry
/// points were read from. A write to the index by any process, an edit of a manifest, or a
/// new manifest (which an index run records) changes them.
struct Kept {
    /// The index's and the manifests' ([`Stamp::of`]).
    stamp: Stamp,
    manifests: Vec<PathBuf>,
    answer: GetOverviewResponse,
}

/// Size and modification time of each of some files (`None` for one that is missing).
#[derive(Debug, PartialEq, Eq)]
struct Stamp(Vec<Option<(u64, std::time::SystemTime)>>);

impl Stamp {
    /// The index at `db` (its file and `-wal`) and `others`; `None` when a time cannot be
    /// read (nothing is kept then).
    fn of(db: &Path, others: &[PathBuf]) -> Option<Stamp> {
        let mut wal = db.as_os_str().to_owned();
        wal.push("-wal");
        let mut out = Stamp::files(&[db.to_path_buf(), PathBuf::from(wal)])?;
        out.0.extend(Stamp::files(others)?.0);
        Some(out)
    }

    /// `paths`, in order.
    fn files(paths: &[PathBuf]) -> Option<Stamp> {
        let mut out = Vec::new();
        for path in paths {
            out.push(match std::fs::metadata(path) {
                Ok(m) => Some((m.len(), m.modified().ok()?)),
                Err(_) => None,
            });
        }
        Some(Stamp(out))
    }
}

/// The overview, and the manifests it read when what the last index run recorded of the
/// tree was there (`None` after a walk for an older index: such an answer is not kept).
fn overview(
    repo: &super::Repo,
    mut warnings: Vec<String>,
) -> Result<(GetOverviewResponse, Option<Vec<String>>)> {
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
    let mut samples: BTreeMap<String, DirectorySummary> = BTreeMap::new();
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
            let (dir, sample) = directory_of(&rel);
            let into = if sample {
                &mut samples
            } else {
                &mut directories
            };
            let entry = into.entry(dir.clone()).or_insert_with(|| DirectorySummary {
                path: dir,
                ..Default::default()
            });
            entry.files += 1;
            entry.symbols += syms as u64;
        }
    }
    let mut directories: Vec<DirectorySummary> = directories.into_values().collect();
    if directories.len() > OVERVIEW_DIRECTORIES {
        directories.sort_by(|a, b| b.files.cmp(&a.files).then_with(|| a.path.cmp(&b.path)));
        out.more_directories = directories.len() - OVERVIEW_DIRECTORIES;
        directories.truncate(OVERVIEW_DIRECTORIES);
        directories.sort_by(|a, b| a.path.cmp(&b.path));
    }
    out.directories = directories;
    out.samples = samples.into_values().collect();
    // Over more rows than shown: those in tests and samples are dropped after.
    let top_sql = format!(
            "SELECT {SYMBOL_COLUMNS} FROM symbols s JOIN files f ON f.id = s.file_id
             WHERE s.parent_symbol_id IS NULL AND s.kind IN ('class','struct','interface','trait','enum')
             ORDER BY (SELECT count(*) FROM refs r WHERE r.to_symbol_id = s.id) DESC, s.id LIMIT ?1"
        );
    let rows: Vec<SymbolRow> = conn
        .prepare(&top_sql)
        .map_err(&e)?
        .query_map([OVERVIEW_ITEMS * 4], symbol_row)
        .map_err(&e)?
        .collect::<rusqlite::Result<_>>()
        .map_err(&e)?;
    out.top_types = rows
        .iter()
        .filter(|r| !aside(&r.rel_path))
        .take(OVERVIEW_ITEMS as usize)
        .map(|r| repo.symbol(r))
        .collect();
    // What the last index run saw of the tree; a walk for an index made before it
    // recorded that.
    let mut recorded = true;
    let mut facts = match crate::code::db::meta(&conn, TREE_FACTS)
        .map_err(&e)?
        .and_then(|json| serde_json::from_str::<TreeFacts>(&json).ok())
    {
        Some(facts) => facts,
        None => {
            recorded = false;
            let walked = crate::walk::walk(
                &repo.root,
                &crate::walk::WalkOptions {
                    max_depth: 32,
                    max_files: 200_000,
                    allowed_roots: vec![repo.root.clone()],
                    metadata: false,
                    ..Default::default()
                },
            )?;
            let rels: Vec<String> = walked
                .files
                .iter()
                .filter_map(|f| crate::code::index::relative(&walked.root, &f.path))
                .collect();
            tree_facts(rels.iter().map(String::as_str))
        }
    };
    facts.manifests.retain(|m| !aside(m));
    out.docs = facts.docs;
    out.entry_points = entry_points(&repo.root, &facts.manifests, &conn, &e)?;
    drop(conn);
    warnings.sort();
    warnings.dedup();
    out.warnings = warnings;
    Ok((out, recorded.then_some(facts.manifests)))
}

/// The entry points: the commands the `manifests` declare (as their languages read them),
/// resolved through the index, then the directories a language runs as programs
/// (`main_modules`) and `main` functions (or methods, where programs start at one)
/// outside tests and samples.
fn entry_points(
    root: &Path,
    manifests: &[String],
    conn: &rusqlite::Connection,
    e: &impl Fn(rusqlite::Error) -> Error,
) -> Result<Vec<EntryPoint>> {
    let symbols = |sql: &str, params: &[&dyn rusqlite::ToSql]| -> Result<Vec<SymbolRow>> {
        conn.prepare(sql)
            .map_err(e)?
            .query_map(params, symbol_row)
            .map_err(e)?
            .collect::<rusqlite::Result<_>>()
            .map_err(e)
    };
    let by_name = format!(
        "SELECT {SYMBOL_COLUMNS} FROM symbols s JOIN files f ON f.id = s.file_id
         WHERE s.name = ?1 AND s.parent_symbol_id IS NULL ORDER BY f.rel_path, s.line_start"
    );
    let main_in = format!(
        "SELECT {SYMBOL_COLUMNS} FROM symbols s JOIN files f ON f.id = s.file_id
         WHERE f.rel_path = ?1 AND s.name = 'main' ORDER BY s.line_start"
    );
    let mut out: Vec<EntryPoint> = Vec::new();
    let at = |entry: &mut EntryPoint, row: &SymbolRow| {
        entry.path = Some(row.rel_path.clone());
        entry.id = Some(row.id);
        entry.start_line = Some(row.line_start);
        entry.end_line = Some(row.line_end);
    };
    for manifest in manifests {
        let Ok(text) = std::fs::read_to_string(root.join(manifest)) else {
            continue;
        };
        let name = manifest.rsplit('/').next().unwrap_or(manifest);
        let declared = extractors()
            .iter()
            .filter(|l| l.manifests().contains(&name))
            .flat_map(|l| l.entry_points(manifest, &text, root));
        for declared in declared {
            let mut entry = EntryPoint {
                name: declared.name,
                declared_in: declared.declared_in,
                target: declared.target,
                ..Default::default()
            };
            match &declared.runs {
                EntryRuns::Function { function, files } => {
                    let rows = symbols(&by_name, &[function])?;
                    let in_module =
                        |r: &&SymbolRow| files.iter().any(|f| r.rel_path.ends_with(f.as_str()));
                    let row = rows
                        .iter()
                        .find(in_module)
                        .or_else(|| rows.iter().find(|r| !aside(&r.rel_path)));
                    if let Some(row) = row {
                        at(&mut entry, row);
                    }
                }
                EntryRuns::File(path) => {
                    entry.path = Some(path.clone());
                    if let Some(row) = symbols(&main_in, &[path])?.first() {
                        at(&mut entry, row);
                    }
                }
            }
            out.push(entry);
        }
    }
    let known: BTreeSet<String> = out.iter().filter_map(|p| p.path.clone()).collect();
    let mut modules: Vec<(String, &str)> = Vec::new();
    for (name, how) in extractors().iter().flat_map(|l| l.main_modules()) {
        let mut stmt = conn
            .prepare(
                "SELECT rel_path FROM files \
                 WHERE rel_path = ?1 OR rel_path LIKE '%/' || ?1 ORDER BY rel_path",
            )
            .map_err(e)?;
        let found = stmt
            .query_map([name], |r| r.get(0))
            .map_err(e)?
            .collect::<rusqlite::Result<Vec<String>>>()
            .map_err(e)?;
        modules.extend(found.into_iter().map(|rel| (rel, *how)));
    }
    for (rel, how) in modules
        .into_iter()
        .filter(|(r, _)| !aside(r) && !known.contains(r))
    {
        let package = rel
            .rsplit_once('/')
            .map_or("", |(dir, _)| dir.rsplit('/').next().unwrap_or(dir));
        out.push(EntryPoint {
            name: package.to_string(),
            declared_in: how.to_string(),
            path: Some(rel),
            ..Default::default()
        });
    }
    let mains = symbols(&by_name, &[&"main"])?;
    // Programs that start at a method named `main`, in the languages where they do.
    let method_languages: Vec<&str> = extractors()
        .iter()
        .filter(|l| l.main_is_method())
        .map(|l| l.name())
        .collect();
    let method_languages =
        serde_json::to_string(&method_languages).map_err(|err| Error::Internal(err.to_string()))?;
    let methods = format!(
        "SELECT {SYMBOL_COLUMNS} FROM symbols s JOIN files f ON f.id = s.file_id
         WHERE s.name = 'main' AND s.kind = 'method'
           AND f.language IN (SELECT value FROM json_each(?1))
         ORDER BY f.rel_path, s.line_start"
    );
    let methods = symbols(&methods, &[&method_languages])?;
    for row in mains
        .iter()
        .filter(|r| r.kind == "fn")
        .chain(methods.iter())
        .filter(|r| !aside(&r.rel_path) && !known.contains(&r.rel_path))
    {
        let mut entry = EntryPoint {
            name: "main".into(),
            declared_in: "main".into(),
            ..Default::default()
        };
        at(&mut entry, row);
        out.push(entry);
    }
    out.truncate(OVERVIEW_ENTRIES);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_count_under_two_levels_and_samples_apart() {
        assert_eq!(directory_of("setup.py"), (".".into(), false));
        assert_eq!(
            directory_of("src/_pytest/config/x.py"),
            ("src/_pytest".into(), false)
        );
        assert_eq!(
            directory_of("testing/example_scripts/a/b.py"),
            ("testing/example_scripts".into(), true)
        );
        assert_eq!(directory_of("Examples/demo.rs"), ("Examples".into(), true));
        assert!(aside("testing/test_main.py") && !aside("src/main.py"));
    }
}
