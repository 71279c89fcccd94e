//! What an index links, read from its database: shared by the tests of reference
//! resolution (the FFI's tests share `common`, which has no `rusqlite`).

use std::collections::BTreeSet;
use std::path::Path;

/// Every reference as (file, line, kind, name → target file, target name, target line),
/// read from the index database itself: what an index links, independent of ids.
pub fn links(home: &Path, root: &str) -> BTreeSet<String> {
    let conn = rusqlite::Connection::open(cc_search::code::db_path(home, Path::new(root))).unwrap();
    let mut stmt = conn
        .prepare(
            "SELECT f.rel_path, r.line, r.kind, r.to_name,
                    coalesce(tf.rel_path || ':' || t.name || '@' || t.line_start, 'external')
             FROM refs r JOIN files f ON f.id = r.file_id
             LEFT JOIN symbols t ON t.id = r.to_symbol_id
             LEFT JOIN files tf ON tf.id = t.file_id",
        )
        .unwrap();
    stmt.query_map([], |r| {
        Ok(format!(
            "{}:{} {} {} -> {}",
            r.get::<_, String>(0)?,
            r.get::<_, i64>(1)?,
            r.get::<_, String>(2)?,
            r.get::<_, String>(3)?,
            r.get::<_, String>(4)?
        ))
    })
    .unwrap()
    .collect::<rusqlite::Result<_>>()
    .unwrap()
}
