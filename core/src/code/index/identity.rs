//! Symbol identity across re-parses of a file.

use std::collections::HashMap;

use rusqlite::Connection;

/// A symbol as stored before its file was re-parsed.
pub(super) struct OldSymbol {
    pub(super) id: i64,
    pub(super) name: String,
    pub(super) line_start: u32,
    pub(super) line_end: u32,
    pub(super) signature: Option<String>,
    pub(super) doc_comment: Option<String>,
    pub(super) declaration: bool,
    pub(super) guard: Option<String>,
    pub(super) gives: Option<String>,
    pub(super) mixins: Option<String>,
    pub(super) of_class: bool,
    pub(super) fields: Option<String>,
    pub(super) uses: Option<String>,
}

/// A changed file's symbols before the run, by identity: the path of (kind, name,
/// ordinal among same-named siblings) from the top level down. A symbol that keeps its
/// identity keeps its row and id, so references elsewhere that point at it stay linked.
pub(super) struct OldSymbols {
    pub(super) by_key: HashMap<String, OldSymbol>,
}

/// The identity of a symbol under `parent_key`: its kind, name and how many same-kind,
/// same-named siblings come before it.
pub(super) fn symbol_key(parent_key: &str, kind: &str, name: &str, ordinal: u32) -> String {
    format!("{parent_key}\u{1f}{kind}\u{1e}{name}\u{1e}{ordinal}")
}

impl OldSymbols {
    pub(super) fn none() -> OldSymbols {
        OldSymbols {
            by_key: HashMap::new(),
        }
    }

    pub(super) fn load(conn: &Connection, file_id: i64) -> rusqlite::Result<OldSymbols> {
        let mut stmt = conn.prepare_cached(
            "SELECT id, parent_symbol_id, name, kind, line_start, line_end, signature, doc_comment,
                    declaration, guard, gives, mixins, of_class, fields, uses
             FROM symbols WHERE file_id = ?1 ORDER BY id",
        )?;
        let mut keys: HashMap<i64, String> = HashMap::new();
        let mut ordinals: HashMap<String, u32> = HashMap::new();
        let mut by_key = HashMap::new();
        // A parent is always inserted before its children, so id order visits it first;
        // same-named siblings are in id order as they were in source order.
        let rows = stmt.query_map([file_id], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, Option<i64>>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
                OldSymbol {
                    id: r.get(0)?,
                    name: r.get(2)?,
                    line_start: r.get(4)?,
                    line_end: r.get(5)?,
                    signature: r.get(6)?,
                    doc_comment: r.get(7)?,
                    declaration: r.get(8)?,
                    guard: r.get(9)?,
                    gives: r.get(10)?,
                    mixins: r.get(11)?,
                    of_class: r.get(12)?,
                    fields: r.get(13)?,
                    uses: r.get(14)?,
                },
            ))
        })?;
        for row in rows {
            let (id, parent, name, kind, old) = row?;
            let parent_key = parent
                .and_then(|p| keys.get(&p).cloned())
                .unwrap_or_default();
            let base = symbol_key(&parent_key, &kind, &name, 0);
            let ordinal = ordinals.entry(base).or_insert(0);
            let key = symbol_key(&parent_key, &kind, &name, *ordinal);
            *ordinal += 1;
            keys.insert(id, key.clone());
            by_key.insert(key, old);
        }
        Ok(OldSymbols { by_key })
    }
}
