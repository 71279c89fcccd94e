//! A cold run (an empty index): symbols written as they come, references kept in memory,
//! linked on another thread and inserted already linked.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::{Arc, mpsc};

use rusqlite::{Connection, params};

use super::Job;
use super::Writer;
use super::insert_bindings;
use super::link::{Files, Linker, Scope, Source, Sym};
use crate::code::RefKind;
use crate::code::extract::{Binding, ExtractedFile, ExtractedSymbol};
use crate::code::lang::Family;
use crate::code::text::name_tokens;

/// A cold run (an empty index) keeps its references in memory until every symbol is
/// written, then inserts them already linked — one write per reference, no `UPDATE` pass.
#[derive(Default)]
pub(super) struct Cold {
    /// Whether the writer fills the FTS index itself (its insert trigger is off).
    pub(super) fts: bool,
    /// Symbols by name, in id order.
    pub(super) by_name: HashMap<String, Vec<Sym>>,
    /// Every file written, (id, relative path, family), in id order.
    pub(super) files: Vec<(i64, String, Family)>,
    /// The names each file's imports bind.
    pub(super) bindings: HashMap<i64, Vec<Binding>>,
    /// Each symbol's parent, for those that have one.
    pub(super) parents: HashMap<i64, i64>,
    /// The names of the type-like symbols (classes, structs, …), by id.
    pub(super) types: HashMap<i64, Arc<str>>,
    /// The methods that are their class's own.
    pub(super) class_methods: HashSet<i64>,
    /// The references, in the order they are inserted.
    pub(super) refs: Vec<PendingRef>,
}

/// The file a cold run's symbol is written into.
struct At<'r> {
    file: i64,
    rel: &'r str,
    family: Family,
}

/// A reference of a cold run waiting for its target.
pub(super) struct PendingRef {
    pub(super) file: i64,
    pub(super) from: Option<i64>,
    pub(super) name: String,
    pub(super) kind: RefKind,
    pub(super) line: u32,
    pub(super) qual: Option<String>,
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
        insert_bindings(conn, file_id, &file.bindings)?;
        let Some(cold) = self.cold.as_mut() else {
            return Ok(file_id);
        };
        cold.files
            .push((file_id, job.rel.clone(), Family::of(job.lang.name())));
        if !file.bindings.is_empty() {
            cold.bindings.insert(file_id, file.bindings);
        }
        self.delta.refs += file.references.len() as i64;
        cold.refs
            .extend(file.references.into_iter().map(|r| PendingRef {
                file: file_id,
                from: None,
                name: r.to_name,
                kind: r.kind,
                line: r.line,
                qual: r.qual,
            }));
        let mut tokens = tokens.into_iter();
        let family = Family::of(job.lang.name());
        for symbol in file.symbols {
            let scope = Scope::of(family, None, Some(symbol.kind), symbol.signature.as_deref());
            let at = At {
                file: file_id,
                rel: &job.rel,
                family,
            };
            self.put_new_symbol(&at, None, scope, symbol, &mut tokens)?;
        }
        Ok(file_id)
    }

    /// Insert `symbol` and its children (a cold run).
    fn put_new_symbol(
        &mut self,
        at: &At,
        parent: Option<i64>,
        scope: Scope,
        symbol: ExtractedSymbol,
        tokens: &mut std::vec::IntoIter<String>,
    ) -> rusqlite::Result<()> {
        let conn = self.conn;
        let tokens_here = tokens.next().unwrap_or_else(|| name_tokens(&symbol.name));
        let kind = symbol.kind.as_str();
        let mixins = super::stored_mixins(&symbol.mixins);
        let fields = super::stored_pairs(&symbol.fields);
        let uses = super::stored_pairs(&symbol.uses);
        conn.prepare_cached(
            "INSERT INTO symbols (file_id, parent_symbol_id, name, kind, line_start, line_end, signature, doc_comment, name_tokens, declaration, guard, gives, mixins, of_class, fields, uses)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)",
        )?
        .execute(params![
            at.file,
            parent,
            symbol.name,
            kind,
            symbol.line_start,
            symbol.line_end,
            symbol.signature,
            symbol.doc_comment,
            tokens_here,
            symbol.declaration,
            symbol.guard,
            symbol.gives,
            mixins,
            symbol.of_class,
            fields,
            uses,
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
            .execute(params![id, symbol.name, symbol.doc_comment, kind, at.rel, tokens_here])?;
        }
        self.delta.refs += symbol.references.len() as i64;
        cold.refs
            .extend(symbol.references.into_iter().map(|r| PendingRef {
                file: at.file,
                from: Some(id),
                name: r.to_name,
                kind: r.kind,
                line: r.line,
                qual: r.qual,
            }));
        let sym = Sym::new(
            (id, at.file, symbol.line_start, at.family, Some(symbol.kind)),
            (scope, parent),
            symbol.signature.as_deref(),
            (symbol.guard.as_deref(), symbol.gives.as_deref()),
            (
                mixins.as_deref(),
                fields.as_deref(),
                uses.as_deref(),
                symbol.of_class,
            ),
        );
        if let Some(parent) = parent {
            cold.parents.insert(id, parent);
        }
        if sym.of_class {
            cold.class_methods.insert(id);
        }
        if super::link::owns_members(at.family, symbol.kind) {
            cold.types.insert(id, Arc::from(symbol.name.as_str()));
        }
        let (parent_kind, parent_name) = (symbol.kind, symbol.name.clone());
        match cold.by_name.get_mut(&symbol.name) {
            Some(found) => found.push(sym),
            None => {
                cold.by_name.insert(symbol.name, vec![sym]);
            }
        }
        for child in symbol.children {
            let scope = Scope::of(
                at.family,
                Some((parent_kind, parent_name.as_str())),
                Some(child.kind),
                child.signature.as_deref(),
            );
            self.put_new_symbol(at, Some(id), scope, child, tokens)?;
        }
        Ok(())
    }
}

/// Link and insert the references of a cold run (see [`Cold`]) by [`super::link`]'s
/// rules.
///
/// The targets are computed on another thread while this one runs `meanwhile` (creating
/// an index of the symbols), then the references are inserted here.
pub(super) fn link_cold(
    conn: &Connection,
    root: &Path,
    cold: Cold,
    meanwhile: impl FnOnce() -> rusqlite::Result<()>,
) -> rusqlite::Result<()> {
    // Resolution runs on another thread and hands its targets over in chunks, so the
    // writer inserts the first references while the last are still being resolved.
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::sync_channel::<Vec<(Option<i64>, bool)>>(4);
        let cold = &cold;
        let linking = scope.spawn(move || cold_targets(cold, root, |chunk| tx.send(chunk).is_ok()));
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
    pub(super) pending: Vec<(&'r PendingRef, (Option<i64>, bool))>,
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
        let values = vec!["(?, ?, ?, ?, ?, ?, ?, ?)"; rows].join(", ");
        format!(
            "INSERT INTO refs (file_id, from_symbol_id, to_name, to_symbol_id, kind, line, qual, ambiguous) VALUES {values}"
        )
    }

    pub(super) fn push(
        &mut self,
        r: &'r PendingRef,
        target: (Option<i64>, bool),
    ) -> rusqlite::Result<()> {
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
        for (i, (r, (target, ambiguous))) in self.pending.drain(..).enumerate() {
            let at = i * 8;
            insert.raw_bind_parameter(at + 1, r.file)?;
            insert.raw_bind_parameter(at + 2, r.from)?;
            insert.raw_bind_parameter(at + 3, &r.name)?;
            insert.raw_bind_parameter(at + 4, target)?;
            insert.raw_bind_parameter(at + 5, r.kind.as_str())?;
            insert.raw_bind_parameter(at + 6, r.line)?;
            insert.raw_bind_parameter(at + 7, &r.qual)?;
            insert.raw_bind_parameter(at + 8, ambiguous)?;
        }
        insert.raw_execute()?;
        Ok(())
    }
}

/// The target of each reference of a cold run, in order, handed to `send` in chunks;
/// stops when `send` says so (returns `false`).
fn cold_targets(cold: &Cold, root: &Path, mut send: impl FnMut(Vec<(Option<i64>, bool)>) -> bool) {
    let files = Files::new(
        cold.files
            .iter()
            .map(|(id, rel, family)| (*id, rel.as_str(), *family)),
    );
    let mut linker = Linker::new(
        files,
        Source::Memory {
            symbols: &cold.by_name,
            bindings: &cold.bindings,
            parents: &cold.parents,
            types: &cold.types,
            class_methods: &cold.class_methods,
        },
        root,
    );
    let mut targets = Vec::with_capacity(LINK_CHUNK);
    for r in &cold.refs {
        // Memory holds everything: nothing to fail on.
        let target = linker
            .resolve(r.file, r.from, &r.name, r.kind, r.qual.as_deref())
            .map_or((None, false), |t| t.columns());
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
