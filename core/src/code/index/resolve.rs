//! Linking references after an incremental run: which references to link again, each
//! linked by [`super::link`]'s rules.

use std::collections::HashSet;
use std::path::Path;

use rusqlite::{Connection, params};

use super::Touched;
use super::link::{Files, Linker, Source};
use crate::code::RefKind;
use crate::code::extract::{Binding, uses_of};

/// The names of definitions whose guard names one of `names` (a macro defined or
/// removed may change which definition of theirs a build compiles, see
/// `lang::cfamily::config`): their references are linked again.
fn guarded_by<'n>(
    conn: &Connection,
    names: impl Iterator<Item = &'n String>,
) -> rusqlite::Result<HashSet<String>> {
    let names: HashSet<&str> = names.map(String::as_str).collect();
    let mut found = HashSet::new();
    if names.is_empty() {
        return Ok(found);
    }
    let mut stmt = conn.prepare_cached(
        "SELECT name, guard FROM symbols INDEXED BY symbols_guarded WHERE guard IS NOT NULL",
    )?;
    for row in stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))? {
        let (name, guard) = row?;
        let mentions = guard
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .any(|word| names.contains(word));
        if mentions {
            found.insert(name);
        }
    }
    Ok(found)
}

/// Link references to symbols (see [`super::link`]).
///
/// Which references: after a cold run, every one. Otherwise those of the files written
/// (their rows are new), the unlinked ones naming a symbol the run removed, and every one
/// naming a symbol the run added (the new definition may fit better than the current
/// target), and every one naming what a new, removed or re-importing file passes on or
/// brings into view ([`passed_on`]) — so an incremental run links as a fresh index of
/// the same files would.
pub(super) fn resolve(
    conn: &Connection,
    root: &Path,
    cold: bool,
    changed: &[i64],
    touched: &Touched,
) -> rusqlite::Result<()> {
    // (ref id, file, name, kind, current target, qualifier, ambiguous, from symbol)
    type Row = (
        i64,
        i64,
        String,
        String,
        Option<i64>,
        Option<String>,
        bool,
        Option<i64>,
    );
    let mut refs: Vec<Row> = Vec::new();
    let row = |r: &rusqlite::Row| Row::try_from(r);
    // (Reads nothing until asked.)
    let mut linker = Linker::new(Files::read(conn), Source::Db(conn), root);
    let mut reached = touched.added.clone();
    if !cold {
        for (file, bindings) in &touched.reshaped {
            passed_on(&mut linker, conn, *file, bindings, &mut reached)?;
        }
        let names = touched.added.iter().chain(&touched.removed);
        reached.extend(guarded_by(conn, names)?);
    }
    let (added, removed) = (&reached, &touched.removed);
    if cold {
        let mut stmt = conn.prepare_cached(
            "SELECT id, file_id, to_name, kind, to_symbol_id, qual, ambiguous, from_symbol_id FROM refs
             ORDER BY id",
        )?;
        for r in stmt.query_map([], row)? {
            refs.push(r?);
        }
    } else if changed.len() + added.len() + removed.len() > 2000 {
        let mut stmt = conn.prepare_cached(
            "SELECT id, file_id, to_name, kind, to_symbol_id, qual, ambiguous, from_symbol_id FROM refs ORDER BY id",
        )?;
        let changed: HashSet<i64> = changed.iter().copied().collect();
        for r in stmt.query_map([], row)? {
            let r = r?;
            let unlinked = r.4.is_none() && (changed.contains(&r.1) || removed.contains(&r.2));
            let through = |q: &Option<String>| {
                q.as_deref()
                    .is_some_and(|q| through(q, |n| added.contains(n) || removed.contains(n)))
            };
            if unlinked || added.contains(&r.2) || through(&r.5) {
                refs.push(r);
            }
        }
    } else {
        // Read through the indexes, so a one-file update does not scan every reference.
        let mut by_file = conn.prepare_cached(
            "SELECT id, file_id, to_name, kind, to_symbol_id, qual, ambiguous, from_symbol_id FROM refs
             WHERE file_id = ?1 AND to_symbol_id IS NULL",
        )?;
        for file in changed {
            for r in by_file.query_map([file], row)? {
                refs.push(r?);
            }
        }
        let mut unlinked = conn.prepare_cached(
            "SELECT id, file_id, to_name, kind, to_symbol_id, qual, ambiguous, from_symbol_id FROM refs
             WHERE to_name = ?1 AND to_symbol_id IS NULL",
        )?;
        let mut named = conn.prepare_cached(
            "SELECT id, file_id, to_name, kind, to_symbol_id, qual, ambiguous, from_symbol_id FROM refs WHERE to_name = ?1",
        )?;
        let mut names: Vec<(&String, bool)> = removed
            .iter()
            .filter(|n| !added.contains(*n))
            .map(|n| (n, false))
            .chain(added.iter().map(|n| (n, true)))
            .collect();
        names.sort();
        for (name, all) in &names {
            let stmt = if *all { &mut named } else { &mut unlinked };
            for r in stmt.query_map([name], row)? {
                refs.push(r?);
            }
        }
        if !names.is_empty() {
            // References reached through a variable, a call or a field whose definition
            // changed: their qualifiers, read from their index alone, then those rows.
            let changed: HashSet<&str> = names.iter().map(|(n, _)| n.as_str()).collect();
            let mut ids = Vec::new();
            let mut keep = |rows: &mut rusqlite::Rows| -> rusqlite::Result<()> {
                while let Some(r) = rows.next()? {
                    let qual = r.get_ref(0)?.as_str()?;
                    if through(qual, |n| changed.contains(n)) {
                        ids.push(r.get::<_, i64>(1)?);
                    }
                }
                Ok(())
            };
            if names.len() <= 3 {
                // A few names (an edit's): SQLite finds the qualifiers holding each, which
                // costs a quarter of handing every qualifier over.
                let mut holding = conn.prepare_cached(
                    "SELECT qual, id FROM refs WHERE qual IS NOT NULL AND instr(qual, ?1) > 0",
                )?;
                for (name, _) in &names {
                    keep(&mut holding.query([name])?)?;
                }
                ids.sort_unstable();
                ids.dedup();
            } else {
                let mut quals =
                    conn.prepare_cached("SELECT qual, id FROM refs WHERE qual IS NOT NULL")?;
                keep(&mut quals.query([])?)?;
            }
            let mut by_id = conn.prepare_cached(
                "SELECT id, file_id, to_name, kind, to_symbol_id, qual, ambiguous, from_symbol_id FROM refs
                 WHERE id = ?1",
            )?;
            for id in ids {
                refs.push(by_id.query_row([id], row)?);
            }
        }
        refs.sort_by_key(|r| r.0);
        refs.dedup_by_key(|r| r.0);
    }
    if refs.is_empty() {
        return Ok(());
    }
    let mut update =
        conn.prepare_cached("UPDATE refs SET to_symbol_id = ?1, ambiguous = ?2 WHERE id = ?3")?;
    for (ref_id, file, name, kind, current, qual, ambiguous, from) in &refs {
        let kind = RefKind::parse(kind).unwrap_or(RefKind::Call);
        let (target, flag) = linker
            .resolve(*file, *from, name, kind, qual.as_deref())?
            .columns();
        if target != *current || flag != *ambiguous {
            update.execute(params![target, flag, ref_id])?;
        }
    }
    Ok(())
}

/// Whether a reference written through `qual` can link elsewhere when a definition
/// named as `changed` says changes: the qualifier's first segment (a variable, a
/// function called), each function called in it (`F()`, `T.m()`: what they return), and
/// the field of a type's (`T.f`: its declared type), and each member a value is used
/// for (`el{attr children}`: the classes that have them).
fn through(qual: &str, changed: impl Fn(&str) -> bool) -> bool {
    if let Some((value, uses)) = uses_of(qual) {
        return uses.split(' ').any(&changed) || through(value, changed);
    }
    let qual = qual.strip_prefix("::").unwrap_or(qual);
    let fields = qual.split('.').count() == 2;
    qual.split('.').enumerate().any(|(i, segment)| {
        let called = segment.strip_suffix("()");
        (i == 0 || fields || called.is_some()) && changed(called.unwrap_or(segment))
    })
}

/// [`passed_on`], read from the index as it is now (before a file's rows go).
pub(super) fn passed_on_now(
    conn: &Connection,
    root: &Path,
    file: i64,
    bindings: &[Binding],
    names: &mut HashSet<String>,
) -> rusqlite::Result<()> {
    let mut linker = Linker::new(Files::read(conn), Source::Db(conn), root);
    passed_on(&mut linker, conn, file, bindings, names)
}

/// Add to `names` those whose links in other files `bindings` (some of `file`'s) can
/// change, as they appear or go: the names each binds (a re-export passes them on), and
/// for an include or glob import, the names defined or bound by name in what it reaches
/// (a C header's includes decide what a name means where it is included).
pub(super) fn passed_on(
    linker: &mut Linker,
    conn: &Connection,
    file: i64,
    bindings: &[Binding],
    names: &mut HashSet<String>,
) -> rusqlite::Result<()> {
    let bound = |bindings: &[Binding], names: &mut HashSet<String>| {
        for b in bindings.iter().filter(|b| b.local != "*") {
            names.insert(b.local.clone());
            if let Some(name) = &b.name {
                names.insert(name.clone());
            }
        }
    };
    bound(bindings, names);
    let mut reached: Vec<i64> = linker.reached(file, bindings)?.into_iter().collect();
    reached.sort_unstable();
    let mut defined =
        conn.prepare_cached("SELECT DISTINCT name FROM symbols WHERE file_id = ?1")?;
    for f in reached {
        for name in defined.query_map([f], |r| r.get::<_, String>(0))? {
            names.insert(name?);
        }
        bound(&linker.bindings_of(f)?, names);
    }
    Ok(())
}
