//! Linking references to symbols: the same file, then imported files, then anywhere.

use std::collections::{HashMap, HashSet};

use rusqlite::{Connection, params};

use super::Touched;
use crate::code::{RefKind, SymbolKind};

/// The module-path segments a file's import could name a file by (`./user_service` →
/// `user_service`; `crate::code::db` → `crate`, `code`, `db`).
fn module_segments(module: &str) -> impl Iterator<Item = &str> {
    module
        .split(['.', ':', '/', '\\', '<', '>', '"', '\''])
        .filter(|s| !s.is_empty() && *s != "crate" && *s != "super" && *s != "self")
}

/// The file stem used to match imports: `src/user_service.ts` → `user_service`; an
/// `index`/`mod`/`__init__` file goes by its directory's name.
fn file_keys(rel: &str) -> Vec<String> {
    let mut parts = rel.rsplit('/');
    let name = parts.next().unwrap_or(rel);
    let stem = name.split('.').next().unwrap_or(name);
    let mut keys = vec![stem.to_string()];
    if matches!(stem, "index" | "mod" | "__init__" | "lib")
        && let Some(dir) = parts.next()
    {
        keys.push(dir.to_string());
    }
    keys
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
    }
}

/// Link references to symbols: in the same file first, then in the files the referring
/// file imports, then anywhere; a symbol of a fitting kind (a function for a call, a type
/// for a type reference) before another, then the first defined.
///
/// Which references: after a cold run, every one. Otherwise those of the files written
/// (their rows are new), the unlinked ones naming a symbol the run removed, and every one
/// naming a symbol the run added (the new definition may fit better than the current
/// target) — so an incremental run links as a fresh index of the same files would.
pub(super) fn resolve(
    conn: &Connection,
    cold: bool,
    changed: &[i64],
    touched: &Touched,
) -> rusqlite::Result<()> {
    // (ref id, file, name, kind, current target)
    type Row = (i64, i64, String, String, Option<i64>);
    let mut refs: Vec<Row> = Vec::new();
    let row = |r: &rusqlite::Row| -> rusqlite::Result<Row> {
        Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
    };
    let (added, removed) = (&touched.added, &touched.removed);
    if cold {
        let mut stmt = conn.prepare_cached(
            "SELECT id, file_id, to_name, kind, to_symbol_id FROM refs
             WHERE to_symbol_id IS NULL ORDER BY id",
        )?;
        for r in stmt.query_map([], row)? {
            refs.push(r?);
        }
    } else if changed.len() + added.len() + removed.len() > 2000 {
        let mut stmt = conn.prepare_cached(
            "SELECT id, file_id, to_name, kind, to_symbol_id FROM refs ORDER BY id",
        )?;
        let changed: HashSet<i64> = changed.iter().copied().collect();
        for r in stmt.query_map([], row)? {
            let r = r?;
            let unlinked = r.4.is_none() && (changed.contains(&r.1) || removed.contains(&r.2));
            if unlinked || added.contains(&r.2) {
                refs.push(r);
            }
        }
    } else {
        // Read through the indexes, so a one-file update does not scan every reference.
        let mut by_file = conn.prepare_cached(
            "SELECT id, file_id, to_name, kind, to_symbol_id FROM refs
             WHERE file_id = ?1 AND to_symbol_id IS NULL",
        )?;
        for file in changed {
            for r in by_file.query_map([file], row)? {
                refs.push(r?);
            }
        }
        let mut unlinked = conn.prepare_cached(
            "SELECT id, file_id, to_name, kind, to_symbol_id FROM refs
             WHERE to_name = ?1 AND to_symbol_id IS NULL",
        )?;
        let mut named = conn.prepare_cached(
            "SELECT id, file_id, to_name, kind, to_symbol_id FROM refs WHERE to_name = ?1",
        )?;
        let mut names: Vec<(&String, bool)> = removed
            .iter()
            .filter(|n| !added.contains(*n))
            .map(|n| (n, false))
            .chain(added.iter().map(|n| (n, true)))
            .collect();
        names.sort();
        for (name, all) in names {
            let stmt = if all { &mut named } else { &mut unlinked };
            for r in stmt.query_map([name], row)? {
                refs.push(r?);
            }
        }
        refs.sort_by_key(|r| r.0);
        refs.dedup_by_key(|r| r.0);
    }
    if refs.is_empty() {
        return Ok(());
    }
    let wanted: HashSet<&str> = refs.iter().map(|r| r.2.as_str()).collect();
    if wanted.len() <= 2000 {
        return resolve_by_tiers(conn, &refs);
    }
    // Candidate symbols by name.
    let mut by_name: HashMap<String, Vec<(i64, i64, Option<SymbolKind>)>> = HashMap::new();
    {
        let mut stmt = conn.prepare("SELECT id, file_id, kind, name FROM symbols ORDER BY id")?;
        let rows = stmt.query_map([], |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
            ))
        })?;
        for row in rows {
            let (id, file, kind, name) = row?;
            if wanted.contains(name.as_str()) {
                by_name
                    .entry(name)
                    .or_default()
                    .push((id, file, SymbolKind::parse(&kind)));
            }
        }
    }
    // Which files a referring file imports: read when a reference needs it (a name
    // defined in several files, none of them the referring one).
    let mut keys: Option<HashMap<String, Vec<i64>>> = None;
    let mut imported: HashMap<i64, HashSet<i64>> = HashMap::new();
    // Per name: its symbols grouped by file (each group in id order), and per reference
    // kind the best symbol anywhere, computed once — so a name defined in thousands of
    // files costs a few lookups per reference, not a scan.
    let candidates: HashMap<&str, Candidates> = by_name
        .iter()
        .map(|(name, symbols)| (name.as_str(), Candidates::new(symbols)))
        .collect();
    let mut update = conn.prepare_cached("UPDATE refs SET to_symbol_id = ?1 WHERE id = ?2")?;
    for (ref_id, file, name, kind, current) in &refs {
        let Some(found) = candidates.get(name.as_str()) else {
            continue;
        };
        let ref_kind = RefKind::parse(kind).unwrap_or(RefKind::Call);
        let mut target = found.best_in(ref_kind, std::iter::once(*file));
        // With all candidates in one file, preferring imported files changes nothing.
        if target.is_none() && found.by_file.len() > 1 {
            let imports = imports_of(conn, *file, &mut keys, &mut imported)?;
            target = if imports.len() <= found.by_file.len() {
                found.best_in(ref_kind, imports.iter().copied())
            } else {
                found.best_in(
                    ref_kind,
                    found
                        .by_file
                        .keys()
                        .copied()
                        .filter(|f| imports.contains(f)),
                )
            };
        }
        let target = target.or_else(|| found.best_anywhere(ref_kind));
        if target.is_some() && target != *current {
            update.execute(params![target, ref_id])?;
        }
    }
    Ok(())
}

/// A symbol that may be a reference's target: (id, file, kind).
type Candidate = (i64, i64, Option<SymbolKind>);
/// The first symbol of a name per kind (in `SymbolKind::ALL` order), and of any kind.
type FirstOfKinds = ([Option<i64>; 13], i64);

/// Imported files probed one by one for a name; with more, the name's symbols are read
/// and filtered instead.
const MAX_IMPORT_PROBES: usize = 64;

/// [`resolve`] for a few names (a small update): per reference, indexed lookups tier by
/// tier — the symbols of that name in the same file, in each imported file, then the
/// first of each kind anywhere — instead of reading every symbol of each name (`new`,
/// `clone` have thousands). Links exactly as [`resolve`]'s scan does.
fn resolve_by_tiers(
    conn: &Connection,
    refs: &[(i64, i64, String, String, Option<i64>)],
) -> rusqlite::Result<()> {
    let mut in_file =
        conn.prepare_cached("SELECT id, kind FROM symbols WHERE file_id = ?1 AND name = ?2")?;
    let mut first_of_kind =
        conn.prepare_cached("SELECT min(id) FROM symbols WHERE name = ?1 AND kind = ?2")?;
    let mut first_of_name = conn.prepare_cached("SELECT min(id) FROM symbols WHERE name = ?1")?;
    let mut of_name =
        conn.prepare_cached("SELECT id, file_id, kind FROM symbols WHERE name = ?1")?;
    let mut update = conn.prepare_cached("UPDATE refs SET to_symbol_id = ?1 WHERE id = ?2")?;
    // Per name: the first symbol of each kind (in `SymbolKind::ALL` order) and the first
    // of any kind; `None` when no symbol has the name.
    let mut anywhere: HashMap<&str, Option<FirstOfKinds>> = HashMap::new();
    let mut keys: Option<HashMap<String, Vec<i64>>> = None;
    let mut imported: HashMap<i64, HashSet<i64>> = HashMap::new();
    let mut named: HashMap<&str, Vec<Candidate>> = HashMap::new();
    // The best of `rows` for `ref_kind`: of a fitting kind first, then the first defined.
    let best = |rows: &mut dyn Iterator<Item = (i64, Option<SymbolKind>)>, ref_kind: RefKind| {
        rows.min_by_key(|(id, kind)| (!kind_fits(ref_kind, *kind), *id))
            .map(|(id, _)| id)
    };
    for (ref_id, file, name, kind, current) in refs {
        let ref_kind = RefKind::parse(kind).unwrap_or(RefKind::Call);
        let firsts = match anywhere.get(name.as_str()) {
            Some(found) => *found,
            None => {
                let mut by_kind = [None; 13];
                for (slot, kind) in by_kind.iter_mut().zip(SymbolKind::ALL) {
                    *slot = first_of_kind.query_row(params![name, kind.as_str()], |r| r.get(0))?;
                }
                // Every stored kind is one of `SymbolKind::ALL`, so the first of any kind
                // is the least of these (the range scan only when there is none).
                let first: Option<i64> = match by_kind.iter().flatten().min() {
                    Some(id) => Some(*id),
                    None => first_of_name.query_row([name], |r| r.get(0))?,
                };
                let found = first.map(|first| (by_kind, first));
                anywhere.insert(name.as_str(), found);
                found
            }
        };
        let Some((by_kind, first)) = firsts else {
            continue;
        };
        let mut in_files = |files: &mut dyn Iterator<Item = i64>| -> rusqlite::Result<Option<i64>> {
            let mut rows = Vec::new();
            for f in files {
                for row in in_file.query_map(params![f, name], |r| {
                    Ok((
                        r.get::<_, i64>(0)?,
                        SymbolKind::parse(&r.get::<_, String>(1)?),
                    ))
                })? {
                    rows.push(row?);
                }
            }
            Ok(best(&mut rows.into_iter(), ref_kind))
        };
        let mut target = in_files(&mut std::iter::once(*file))?;
        if target.is_none() {
            let imports = imports_of(conn, *file, &mut keys, &mut imported)?;
            target = if imports.len() <= MAX_IMPORT_PROBES {
                in_files(&mut imports.iter().copied())?
            } else {
                if !named.contains_key(name.as_str()) {
                    let rows = of_name
                        .query_map([name], |r| {
                            Ok((
                                r.get(0)?,
                                r.get(1)?,
                                SymbolKind::parse(&r.get::<_, String>(2)?),
                            ))
                        })?
                        .collect::<rusqlite::Result<_>>()?;
                    named.insert(name.as_str(), rows);
                }
                let rows = &named[name.as_str()];
                best(
                    &mut rows
                        .iter()
                        .filter(|(_, f, _)| imports.contains(f))
                        .map(|(id, _, kind)| (*id, *kind)),
                    ref_kind,
                )
            };
        }
        let target = target.or_else(|| {
            SymbolKind::ALL
                .iter()
                .zip(by_kind)
                .filter(|(kind, _)| kind_fits(ref_kind, Some(**kind)))
                .filter_map(|(_, id)| id)
                .min()
                .or(Some(first))
        });
        if target.is_some() && target != *current {
            update.execute(params![target, ref_id])?;
        }
    }
    Ok(())
}

/// The files `file` imports (cached in `imported`; `keys` maps file stems to files, read
/// on first use).
fn imports_of<'m>(
    conn: &Connection,
    file: i64,
    keys: &mut Option<HashMap<String, Vec<i64>>>,
    imported: &'m mut HashMap<i64, HashSet<i64>>,
) -> rusqlite::Result<&'m HashSet<i64>> {
    let entry = match imported.entry(file) {
        std::collections::hash_map::Entry::Occupied(e) => return Ok(e.into_mut()),
        std::collections::hash_map::Entry::Vacant(e) => e,
    };
    if keys.is_none() {
        let mut stmt = conn.prepare_cached("SELECT id, rel_path FROM files")?;
        let rows: Vec<(i64, String)> = stmt
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<rusqlite::Result<_>>()?;
        *keys = Some(file_key_map(
            rows.iter().map(|(id, rel)| (*id, rel.as_str())),
        ));
    }
    let mut set = HashSet::new();
    if let Some(keys) = keys.as_ref() {
        let mut stmt = conn.prepare_cached("SELECT module FROM file_imports WHERE file_id = ?1")?;
        let modules: Vec<String> = stmt
            .query_map([file], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        set = imported_files(&modules, keys);
    }
    Ok(entry.insert(set))
}

/// The files the import `modules` name, by the stems in `keys`.
pub(super) fn imported_files(modules: &[String], keys: &HashMap<String, Vec<i64>>) -> HashSet<i64> {
    let mut set = HashSet::new();
    for module in modules {
        for segment in module_segments(module) {
            if let Some(ids) = keys.get(segment) {
                set.extend(ids.iter().copied());
            }
        }
    }
    set
}

/// File stems to files (what [`imported_files`] looks segments up in).
pub(super) fn file_key_map<'a>(
    files: impl Iterator<Item = (i64, &'a str)>,
) -> HashMap<String, Vec<i64>> {
    let mut map: HashMap<String, Vec<i64>> = HashMap::new();
    for (id, rel) in files {
        for key in file_keys(rel) {
            map.entry(key).or_default().push(id);
        }
    }
    map
}

/// The symbols of one name, for resolution.
pub(super) struct Candidates {
    pub(super) by_file: HashMap<i64, Vec<(i64, Option<SymbolKind>)>>,
    /// The best symbol anywhere, per reference kind (in [`REF_KINDS`] order).
    anywhere: [Option<i64>; 5],
}

const REF_KINDS: [RefKind; 5] = [
    RefKind::Call,
    RefKind::Import,
    RefKind::TypeRef,
    RefKind::Extends,
    RefKind::Implements,
];

impl Candidates {
    pub(super) fn new(symbols: &[(i64, i64, Option<SymbolKind>)]) -> Self {
        let mut by_file: HashMap<i64, Vec<(i64, Option<SymbolKind>)>> = HashMap::new();
        for (id, file, kind) in symbols {
            by_file.entry(*file).or_default().push((*id, *kind));
        }
        // Symbols are in id order: the first of a fitting kind, else the first.
        let anywhere = REF_KINDS.map(|ref_kind| {
            symbols
                .iter()
                .find(|(_, _, kind)| kind_fits(ref_kind, *kind))
                .or_else(|| symbols.first())
                .map(|(id, _, _)| *id)
        });
        Candidates { by_file, anywhere }
    }

    /// The best symbol in `files`: one of a fitting kind first, then the first defined.
    pub(super) fn best_in(
        &self,
        ref_kind: RefKind,
        files: impl Iterator<Item = i64>,
    ) -> Option<i64> {
        files
            .filter_map(|f| self.by_file.get(&f))
            .flatten()
            .min_by_key(|(id, kind)| (!kind_fits(ref_kind, *kind), *id))
            .map(|(id, _)| *id)
    }

    /// The best symbol anywhere.
    pub(super) fn best_anywhere(&self, ref_kind: RefKind) -> Option<i64> {
        let i = REF_KINDS.iter().position(|k| *k == ref_kind).unwrap_or(0);
        self.anywhere[i]
    }
}
