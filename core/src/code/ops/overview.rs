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
use crate::code::is_test_path;
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

/// Directory names that hold test fixtures, examples and samples rather than the code.
const SAMPLE_DIRS: &[&str] = &[
    "example",
    "examples",
    "example_scripts",
    "sample",
    "samples",
    "fixture",
    "fixtures",
    "__fixtures__",
    "testdata",
    "test_data",
    "snapshots",
    "__snapshots__",
];

/// The directory a file is counted under: its first two levels (`.` for the root's
/// own files), or the first sample directory on its way and `true`.
fn directory_of(rel: &str) -> (String, bool) {
    let Some((dir, _)) = rel.rsplit_once('/') else {
        return (".".into(), false);
    };
    let parts: Vec<&str> = dir.split('/').collect();
    if let Some(at) = parts
        .iter()
        .position(|p| SAMPLE_DIRS.contains(&p.to_ascii_lowercase().as_str()))
    {
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
        let mut manifests = Vec::new();
        for file in &walked.files {
            let Some(rel) = file
                .path
                .strip_prefix(&walked.root)
                .ok()
                .and_then(Path::to_str)
                .map(|r| r.replace('\\', "/"))
            else {
                continue;
            };
            if crate::text::is_default_doc(&rel) {
                let top = rel.split_once('/').map_or(".", |(top, _)| top);
                *out.docs.entry(top.to_string()).or_default() += 1;
            }
            if MANIFESTS.contains(&rel.rsplit('/').next().unwrap_or(&rel))
                && rel.matches('/').count() <= 2
                && !aside(&rel)
            {
                manifests.push(rel);
            }
        }
        manifests.sort();
        out.entry_points = entry_points(&repo.root, &manifests, &conn, &e)?;
        drop(conn);
        warnings.sort();
        warnings.dedup();
        out.warnings = warnings;
        Ok(out)
    }
}

/// The manifests whose declared commands are entry points (at most two directories deep).
const MANIFESTS: &[&str] = &[
    "pyproject.toml",
    "setup.cfg",
    "setup.py",
    "package.json",
    "Cargo.toml",
];

/// What a declared command runs.
enum Runs {
    /// `module:function` (Python).
    Function { module: String, function: String },
    /// A file, relative to the repository root; its `main` function when it has one.
    File(String),
}

/// A command a manifest declares.
struct Declared {
    name: String,
    declared_in: String,
    target: String,
    runs: Runs,
}

/// `target` (`./bin/x.js`, `src/main.rs`) relative to the repository root, from the
/// manifest's directory `dir` (empty for the root).
fn beside(dir: &str, target: &str) -> String {
    let target = target.trim().trim_start_matches("./");
    if dir.is_empty() {
        target.to_string()
    } else {
        format!("{dir}/{target}")
    }
}

/// A Python entry point `name = module:function[.attr] [extras]`, as setup.cfg and
/// setup.py write them (the value alone: `module:function`).
fn python_target(value: &str) -> Option<(String, String)> {
    let value = value.split('[').next()?.trim();
    let (module, function) = value.split_once(':')?;
    let ok = |s: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '.')
    };
    let function = function.trim();
    (ok(module.trim()) && ok(function)).then(|| {
        let last = function.rsplit('.').next().unwrap_or(function);
        (module.trim().to_string(), last.to_string())
    })
}

/// The commands one manifest declares. Unreadable or malformed manifests declare none.
fn declared_in(root: &Path, manifest: &str) -> Vec<Declared> {
    let Ok(text) = std::fs::read_to_string(root.join(manifest)) else {
        return Vec::new();
    };
    let dir = manifest.rsplit_once('/').map_or("", |(d, _)| d);
    let file = manifest.rsplit('/').next().unwrap_or(manifest);
    let mut out = Vec::new();
    let mut python = |name: &str, value: &str| {
        if let Some((module, function)) = python_target(value) {
            out.push(Declared {
                name: name.trim().to_string(),
                declared_in: manifest.to_string(),
                target: value.trim().to_string(),
                runs: Runs::Function { module, function },
            });
        }
    };
    match file {
        "pyproject.toml" => {
            let Ok(doc) = toml::from_str::<toml::Table>(&text) else {
                return Vec::new();
            };
            let tables = [
                doc.get("project").and_then(|p| p.get("scripts")),
                doc.get("project").and_then(|p| p.get("gui-scripts")),
                doc.get("tool")
                    .and_then(|t| t.get("poetry"))
                    .and_then(|p| p.get("scripts")),
            ];
            for table in tables
                .into_iter()
                .flatten()
                .filter_map(toml::Value::as_table)
            {
                for (name, value) in table {
                    if let Some(value) = value.as_str() {
                        python(name, value);
                    }
                }
            }
        }
        "setup.cfg" => {
            // `[options.entry_points]`, `console_scripts =` / `gui_scripts =`, then one
            // `name = module:function` per (indented) line.
            let mut section = false;
            let mut scripts = false;
            for line in text.lines() {
                let trimmed = line.trim();
                if trimmed.starts_with('[') {
                    section = trimmed == "[options.entry_points]";
                    scripts = false;
                    continue;
                }
                if !section || trimmed.is_empty() || trimmed.starts_with(['#', ';']) {
                    continue;
                }
                let indented = line.starts_with([' ', '\t']);
                if !indented {
                    let (key, rest) = trimmed.split_once('=').unwrap_or((trimmed, ""));
                    scripts = matches!(key.trim(), "console_scripts" | "gui_scripts");
                    if scripts && let Some((name, value)) = rest.split_once('=') {
                        python(name, value);
                    }
                } else if scripts && let Some((name, value)) = trimmed.split_once('=') {
                    python(name, value);
                }
            }
        }
        // Quoted `name = module:function` strings, in a file that declares scripts.
        "setup.py" if text.contains("console_scripts") || text.contains("gui_scripts") => {
            for quoted in text.split(['"', '\'']).skip(1).step_by(2) {
                if let Some((name, value)) = quoted.split_once('=')
                    && !name.trim().is_empty()
                    && name
                        .trim()
                        .chars()
                        .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
                {
                    python(name, value);
                }
            }
        }
        "package.json" => {
            let Ok(doc) = serde_json::from_str::<serde_json::Value>(&text) else {
                return Vec::new();
            };
            let package = doc.get("name").and_then(|n| n.as_str()).unwrap_or("");
            let short = package.rsplit('/').next().unwrap_or(package);
            let mut file_entry = |name: &str, target: &str| {
                out.push(Declared {
                    name: name.to_string(),
                    declared_in: manifest.to_string(),
                    target: target.to_string(),
                    runs: Runs::File(beside(dir, target)),
                });
            };
            match doc.get("bin") {
                Some(serde_json::Value::String(target)) => file_entry(short, target),
                Some(serde_json::Value::Object(bins)) => {
                    for (name, target) in bins {
                        if let Some(target) = target.as_str() {
                            file_entry(name, target);
                        }
                    }
                }
                _ => {}
            }
            if let Some(main) = doc.get("main").and_then(|m| m.as_str()) {
                file_entry("main", main);
            }
        }
        "Cargo.toml" => {
            let Ok(doc) = toml::from_str::<toml::Table>(&text) else {
                return Vec::new();
            };
            let package = doc
                .get("package")
                .and_then(|p| p.get("name"))
                .and_then(toml::Value::as_str);
            let mut bin = |name: &str, target: &str| {
                out.push(Declared {
                    name: name.to_string(),
                    declared_in: manifest.to_string(),
                    target: target.to_string(),
                    runs: Runs::File(beside(dir, target)),
                });
            };
            let bins = doc.get("bin").and_then(toml::Value::as_array);
            for entry in bins.into_iter().flatten() {
                let Some(name) = entry.get("name").and_then(toml::Value::as_str) else {
                    continue;
                };
                let target = entry
                    .get("path")
                    .and_then(toml::Value::as_str)
                    .map_or_else(|| format!("src/bin/{name}.rs"), str::to_string);
                bin(name, &target);
            }
            if let Some(package) = package
                && root.join(beside(dir, "src/main.rs")).is_file()
            {
                bin(package, "src/main.rs");
            }
        }
        _ => {}
    }
    out
}

/// The entry points: the commands the `manifests` declare, resolved through the index,
/// then `__main__.py` modules and `main` functions outside tests and samples.
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
        for declared in declared_in(root, manifest) {
            let mut entry = EntryPoint {
                name: declared.name,
                declared_in: declared.declared_in,
                target: declared.target,
                ..Default::default()
            };
            match &declared.runs {
                Runs::Function { module, function } => {
                    let rows = symbols(&by_name, &[function])?;
                    let module_path = module.replace('.', "/");
                    let in_module = |r: &&SymbolRow| {
                        let stem = r.rel_path.trim_end_matches(".py");
                        stem.ends_with(&module_path)
                            || stem.trim_end_matches("/__init__").ends_with(&module_path)
                    };
                    let row = rows
                        .iter()
                        .find(in_module)
                        .or_else(|| rows.iter().find(|r| !aside(&r.rel_path)));
                    if let Some(row) = row {
                        at(&mut entry, row);
                    }
                }
                Runs::File(path) => {
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
    let modules: Vec<String> = conn
        .prepare(
            "SELECT rel_path FROM files \
             WHERE rel_path = '__main__.py' OR rel_path LIKE '%/__main__.py' ORDER BY rel_path",
        )
        .map_err(e)?
        .query_map([], |r| r.get(0))
        .map_err(e)?
        .collect::<rusqlite::Result<_>>()
        .map_err(e)?;
    for rel in modules
        .into_iter()
        .filter(|r| !aside(r) && !known.contains(r))
    {
        let package = rel
            .rsplit_once('/')
            .map_or("", |(dir, _)| dir.rsplit('/').next().unwrap_or(dir));
        out.push(EntryPoint {
            name: package.to_string(),
            declared_in: "python -m".into(),
            path: Some(rel),
            ..Default::default()
        });
    }
    let mains = symbols(&by_name, &[&"main"])?;
    let methods = format!(
        "SELECT {SYMBOL_COLUMNS} FROM symbols s JOIN files f ON f.id = s.file_id
         WHERE s.name = 'main' AND s.kind = 'method'
           AND (f.rel_path LIKE '%.java' OR f.rel_path LIKE '%.cs' OR f.rel_path LIKE '%.kt'
                OR f.rel_path LIKE '%.scala')
         ORDER BY f.rel_path, s.line_start"
    );
    let methods = symbols(&methods, &[])?;
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

    #[test]
    fn setup_py_declares_its_console_scripts() {
        let dir = tempfile::tempdir().unwrap();
        let setup = "from setuptools import setup\nsetup(\n    name='tool',\n    entry_points={\n        'console_scripts': [\"tool = tool.main:run\", 'tool-admin=tool.admin:cli'],\n    },\n    description='a = b:c is not it',\n)\n";
        std::fs::write(dir.path().join("setup.py"), setup).unwrap();
        let found: Vec<(String, String)> = declared_in(dir.path(), "setup.py")
            .into_iter()
            .map(|d| (d.name, d.target))
            .collect();
        assert_eq!(
            found,
            [
                ("tool".to_string(), "tool.main:run".to_string()),
                ("tool-admin".to_string(), "tool.admin:cli".to_string())
            ]
        );
        std::fs::write(dir.path().join("setup.py"), "x = 'a = b:c'\n").unwrap();
        assert!(
            declared_in(dir.path(), "setup.py").is_empty(),
            "no console_scripts"
        );
    }

    #[test]
    fn python_targets_are_module_and_function() {
        assert_eq!(
            python_target(" pytest:console_main "),
            Some(("pytest".into(), "console_main".into()))
        );
        assert_eq!(
            python_target("pkg.cli:App.run [extra]"),
            Some(("pkg.cli".into(), "run".into()))
        );
        assert_eq!(python_target("no colon"), None);
        assert_eq!(python_target("a b:c"), None);
    }
}
