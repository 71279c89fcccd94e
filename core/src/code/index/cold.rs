//! A cold run (an empty index): symbols written as they come, references kept in memory,
//! linked on another thread and inserted already linked.

use std::collections::{HashMap, HashSet};
use std::sync::mpsc;

use rusqlite::{Connection, params};

use super::Job;
use super::Writer;
use super::resolve::{Candidates, file_key_map, imported_files};
use crate::code::extract::{ExtractedFile, ExtractedSymbol};
use crate::code::text::name_tokens;
use crate::code::{RefKind, SymbolKind};

/// A cold run (an empty index) keeps its references in memory until every symbol is
/// written, then inserts them already linked — one write per reference, no `UPDATE` pass.
#[derive(Default)]
pub(super) struct Cold {
    /// Whether the writer fills the FTS index itself (its insert trigger is off).
    pub(super) fts: bool,
    /// Symbols by name: (id, file, kind), in id order.
    pub(super) by_name: HashMap<String, Vec<(i64, i64, Option<SymbolKind>)>>,
    /// Every file written, (id, relative path), in id order.
    pub(super) files: Vec<(i64, String)>,
    /// The modules each file imports.
    pub(super) imports: HashMap<i64, Vec<String>>,
    /// The references, in the order they are inserted.
    pub(super) refs: Vec<PendingRef>,
}

/// A reference of a cold run waiting for its target.
pub(super) struct PendingRef {
    pub(super) file: i64,
    pub(super) from: Option<i64>,
    pub(super) name: String,
    pub(super) kind: RefKind,
    pub(super) line: u32,
}

impl Writer<'_, '_> {
    /// Write a file new to an empty index (a cold run): its rows, its FTS rows when the
    /// trigger is off, and its references into memory (see [`Cold`]).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn put_new_file(
        &mut self,
        job: &Job,
        hash: &str,
        mtime: i64,
        size: i64,
        started: i64,
        file: ExtractedFile,
        tokens: Vec<String>,
    ) -> rusqlite::Result<i64> {
        let conn = self.conn;
        conn.prepare_cached(
            "INSERT INTO files (rel_path, language, hash, mtime, size, indexed_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )?
        .execute(params![job.rel, job.lang.name(), hash, mtime, size, started])?;
        let file_id = conn.last_insert_rowid();
        let mut import = conn.prepare_cached(
            "INSERT OR IGNORE INTO file_imports (file_id, module) VALUES (?1, ?2)",
        )?;
        for module in &file.imports {
            import.execute(params![file_id, module])?;
        }
        let Some(cold) = self.cold.as_mut() else {
            return Ok(file_id);
        };
        cold.files.push((file_id, job.rel.clone()));
        cold.imports.insert(file_id, file.imports);
        self.delta.refs += file.references.len() as i64;
        cold.refs
            .extend(file.references.into_iter().map(|r| PendingRef {
                file: file_id,
                from: None,
                name: r.to_name,
                kind: r.kind,
                line: r.line,
            }));
        let mut tokens = tokens.into_iter();
        for symbol in file.symbols {
            self.put_new_symbol(file_id, &job.rel, None, symbol, &mut tokens)?;
        }
        Ok(file_id)
    }

    /// Insert `symbol` and its children (a cold run).
    fn put_new_symbol(
        &mut self,
        file_id: i64,
        rel: &str,
        parent: Option<i64>,
        symbol: ExtractedSymbol,
        tokens: &mut std::vec::IntoIter<String>,
    ) -> rusqlite::Result<()> {
        let conn = self.conn;
        let tokens_here = tokens.next().unwrap_or_else(|| name_tokens(&symbol.name));
        let kind = symbol.kind.as_str();
        conn.prepare_cached(
            "INSERT INTO symbols (file_id, parent_symbol_id, name, kind, line_start, line_end, signature, doc_comment, name_tokens)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        )?
        .execute(params![
            file_id,
            parent,
            symbol.name,
            kind,
            symbol.line_start,
            symbol.line_end,
            symbol.signature,
            symbol.doc_comment,
            tokens_here,
        ])?;
        let id = conn.last_insert_rowid();
        self.delta.symbols += 1;
        let Some(cold) = self.cold.as_mut() else {
            return Ok(());
        };
        if cold.fts {
            conn.prepare_cached(
                "INSERT INTO symbols_fts (rowid, name, doc_comment, kind, file_rel_path, name_tokens)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )?
            .execute(params![id, symbol.name, symbol.doc_comment, kind, rel, tokens_here])?;
        }
        self.delta.refs += symbol.references.len() as i64;
        cold.refs
            .extend(symbol.references.into_iter().map(|r| PendingRef {
                file: file_id,
                from: Some(id),
                name: r.to_name,
                kind: r.kind,
                line: r.line,
            }));
        match cold.by_name.get_mut(&symbol.name) {
            Some(found) => found.push((id, file_id, Some(symbol.kind))),
            None => {
                cold.by_name
                    .insert(symbol.name, vec![(id, file_id, Some(symbol.kind))]);
            }
        }
        for child in symbol.children {
            self.put_new_symbol(file_id, rel, Some(id), child, tokens)?;
        }
        Ok(())
    }
}

/// Link and insert the references of a cold run (see [`Cold`]), as [`resolve`] links
/// them: the same file, then imported files, then anywhere.
///
/// The targets are computed on another thread while this one runs `meanwhile` (creating
/// an index of the symbols), then the references are inserted here.
pub(super) fn link_cold(
    conn: &Connection,
    cold: Cold,
    meanwhile: impl FnOnce() -> rusqlite::Result<()>,
) -> rusqlite::Result<()> {
    // Resolution runs on another thread and hands its targets over in chunks, so the
    // writer inserts the first references while the last are still being resolved.
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::sync_channel::<Vec<Option<i64>>>(4);
        let cold = &cold;
        let linking = scope.spawn(move || cold_targets(cold, |chunk| tx.send(chunk).is_ok()));
        let written = meanwhile().and_then(|()| {
            let mut refs = cold.refs.iter();
            let mut insert = RefInserter::new(conn);
            for chunk in rx {
                for (target, r) in chunk.into_iter().zip(refs.by_ref()) {
                    insert.push(r, target)?;
                }
            }
            insert.flush()
        });
        // Dropping the receiver (above, or here on an error) stops the resolution early.
        if let Err(e) = linking.join() {
            std::panic::resume_unwind(e);
        }
        written
    })
}

/// How many references a cold run resolves before handing their targets to the writer.
pub(super) const LINK_CHUNK: usize = 16 * 1024;

/// Inserts a cold run's references many rows to a statement (one `INSERT … VALUES`
/// step per [`RefInserter::ROWS`] rows instead of one per row), in the order given.
pub(super) struct RefInserter<'c, 'r> {
    pub(super) conn: &'c Connection,
    pub(super) pending: Vec<(&'r PendingRef, Option<i64>)>,
    /// The statement of [`RefInserter::ROWS`] rows.
    full: String,
}

impl<'c, 'r> RefInserter<'c, 'r> {
    pub(super) const ROWS: usize = 64;

    pub(super) fn new(conn: &'c Connection) -> RefInserter<'c, 'r> {
        RefInserter {
            conn,
            pending: Vec::with_capacity(Self::ROWS),
            full: Self::sql(Self::ROWS),
        }
    }

    fn sql(rows: usize) -> String {
        let values = vec!["(?, ?, ?, ?, ?, ?)"; rows].join(", ");
        format!(
            "INSERT INTO refs (file_id, from_symbol_id, to_name, to_symbol_id, kind, line) VALUES {values}"
        )
    }

    pub(super) fn push(&mut self, r: &'r PendingRef, target: Option<i64>) -> rusqlite::Result<()> {
        self.pending.push((r, target));
        if self.pending.len() == Self::ROWS {
            self.flush()?;
        }
        Ok(())
    }

    /// Insert the rows pushed since the last statement.
    fn flush(&mut self) -> rusqlite::Result<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let mut insert = if self.pending.len() == Self::ROWS {
            self.conn.prepare_cached(&self.full)?
        } else {
            self.conn.prepare_cached(&Self::sql(self.pending.len()))?
        };
        for (i, (r, target)) in self.pending.drain(..).enumerate() {
            let at = i * 6;
            insert.raw_bind_parameter(at + 1, r.file)?;
            insert.raw_bind_parameter(at + 2, r.from)?;
            insert.raw_bind_parameter(at + 3, &r.name)?;
            insert.raw_bind_parameter(at + 4, target)?;
            insert.raw_bind_parameter(at + 5, r.kind.as_str())?;
            insert.raw_bind_parameter(at + 6, r.line)?;
        }
        insert.raw_execute()?;
        Ok(())
    }
}

/// The target of each reference of a cold run, in order, handed to `send` in chunks;
/// stops when `send` says so (returns `false`).
fn cold_targets(cold: &Cold, mut send: impl FnMut(Vec<Option<i64>>) -> bool) {
    let keys = file_key_map(cold.files.iter().map(|(id, rel)| (*id, rel.as_str())));
    let candidates: HashMap<&str, Candidates> = cold
        .by_name
        .iter()
        .map(|(name, symbols)| (name.as_str(), Candidates::new(symbols)))
        .collect();
    let mut imported: HashMap<i64, HashSet<i64>> = HashMap::new();
    let no_modules = Vec::new();
    let mut targets = Vec::with_capacity(LINK_CHUNK);
    for r in &cold.refs {
        let target = candidates.get(r.name.as_str()).and_then(|found| {
            let target = found.best_in(r.kind, std::iter::once(r.file));
            if target.is_some() || found.by_file.len() <= 1 {
                return target.or_else(|| found.best_anywhere(r.kind));
            }
            let imports = imported.entry(r.file).or_insert_with(|| {
                imported_files(cold.imports.get(&r.file).unwrap_or(&no_modules), &keys)
            });
            let target = if imports.len() <= found.by_file.len() {
                found.best_in(r.kind, imports.iter().copied())
            } else {
                found.best_in(
                    r.kind,
                    found
                        .by_file
                        .keys()
                        .copied()
                        .filter(|f| imports.contains(f)),
                )
            };
            target.or_else(|| found.best_anywhere(r.kind))
        });
        targets.push(target);
        if targets.len() == LINK_CHUNK
            && !send(std::mem::replace(
                &mut targets,
                Vec::with_capacity(LINK_CHUNK),
            ))
        {
            return;
        }
    }
    if !targets.is_empty() {
        send(targets);
    }
}
