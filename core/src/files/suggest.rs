//! `files.suggest`: answer an `@` picker query from the index.

use std::path::Path;

use rusqlite::{Connection, params};

use super::{MAX_SUGGESTIONS, RefreshRequest, SuggestRequest, SuggestResponse};
use crate::engine::{Engine, home_dir};
use crate::error::{Error, Result};
use crate::text::{fts5_query, like_escape, truncate_utf8};

const OP: &str = "files.suggest";

/// Candidates fetched from FTS5 before the final ordering.
const CANDIDATES: usize = 200;

/// Suggest up to 15 paths for `request.query` within the project.
///
/// The query is split into tokens the way the index tokenizes paths; every token must
/// match a file name or directory component, the last one as a prefix. Paths that begin
/// with the query as typed come first, then BM25 (file-name matches weigh more than
/// directory matches), then shorter paths. An empty query lists the most recently
/// modified files. When the project has never been indexed, it is indexed first.
pub fn suggest(engine: &Engine, request: SuggestRequest) -> Result<SuggestResponse> {
    let limit = match request.limit {
        None => MAX_SUGGESTIONS,
        Some(n) if (1..=MAX_SUGGESTIONS).contains(&n) => n,
        Some(n) => {
            return Err(Error::invalid(
                OP,
                format!("limit must be between 1 and {MAX_SUGGESTIONS}, got {n}"),
            ));
        }
    };
    let project = super::project_dir(request.project_dir, OP)?;
    let project_str = project.to_str().ok_or_else(|| {
        Error::invalid(
            OP,
            format!("project path is not valid UTF-8: {}", project.display()),
        )
    })?;
    let mut warnings = Vec::new();
    let db_path = engine.files_db_path();

    let covered = {
        let conn = engine.files_db().read(&mut warnings)?;
        is_covered(&conn, &project).map_err(|e| Error::db(db_path, e))?
    };
    if !covered {
        let refreshed = super::refresh(
            engine,
            RefreshRequest {
                root: Some(project.clone()),
                ..RefreshRequest::default()
            },
        )?;
        warnings.push(format!(
            "{} was not indexed yet; indexed {} files",
            refreshed.root, refreshed.files
        ));
        warnings.extend(refreshed.warnings);
    }

    let conn = engine.files_db().read(&mut warnings)?;
    let (lo, hi) = scope_bounds(project_str);
    let query = truncate_utf8(request.query.trim(), crate::text::MAX_QUERY_BYTES);
    let rows = match fts5_query(query, true) {
        None => recent(&conn, &lo, &hi, limit),
        Some(expr) => matching(&conn, &expr, query, &lo, &hi, limit),
    }
    .map_err(|e| Error::db(db_path, e))?;

    let home = home_dir();
    let paths = rows
        .iter()
        .map(|p| display_path(Path::new(p), &project, home.as_deref()))
        .collect();
    Ok(SuggestResponse { paths, warnings })
}

/// Whether a watched root contains `project` (or is it).
fn is_covered(conn: &Connection, project: &Path) -> rusqlite::Result<bool> {
    Ok(super::refresh::watched_roots(conn)?
        .iter()
        .any(|root| project.starts_with(root)))
}

/// Half-open range `[lo, hi)` of the paths strictly inside `dir`, for an index range scan.
fn scope_bounds(dir: &str) -> (String, String) {
    let base = dir.trim_end_matches('/');
    // '0' is the character after '/', so every "<base>/..." sorts below "<base>0".
    (format!("{base}/"), format!("{base}0"))
}

fn recent(conn: &Connection, lo: &str, hi: &str, limit: usize) -> rusqlite::Result<Vec<String>> {
    let mut stmt = conn.prepare_cached(
        "SELECT path FROM files_meta WHERE path >= ?1 AND path < ?2
         ORDER BY mtime DESC, length(path), path LIMIT ?3",
    )?;
    stmt.query_map(params![lo, hi, limit as i64], |r| r.get(0))?
        .collect()
}

fn matching(
    conn: &Connection,
    expr: &str,
    typed: &str,
    lo: &str,
    hi: &str,
    limit: usize,
) -> rusqlite::Result<Vec<String>> {
    // The FTS part runs first (CTE) and alone decides the candidates; scoping and the
    // final order are applied to those few rows.
    let mut stmt = conn.prepare_cached(
        "WITH hits AS (
           SELECT rowid, bm25(files_fts, 0.0, 4.0, 1.0) AS score
           FROM files_fts WHERE files_fts MATCH ?1
         )
         SELECT m.path
         FROM hits JOIN files_meta m ON m.rowid = hits.rowid
         WHERE m.path >= ?2 AND m.path < ?3
         ORDER BY (substr(m.path, length(?2) + 1) LIKE ?4 ESCAPE '\\') DESC,
                  hits.score, length(m.path), m.path
         LIMIT ?5",
    )?;
    let prefix = format!("{}%", like_escape(typed.trim_start_matches("./")));
    let column_filtered = format!("{{filename dir_components}} : ({expr})");
    let rows: Vec<String> = stmt
        .query_map(
            params![
                column_filtered,
                lo,
                hi,
                prefix,
                limit.min(CANDIDATES) as i64
            ],
            |r| r.get(0),
        )?
        .collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}

/// The spec's smart path format: relative inside the project, `~/…` under the home
/// directory, absolute elsewhere.
pub fn display_path(path: &Path, project: &Path, home: Option<&Path>) -> String {
    if let Ok(rel) = path.strip_prefix(project)
        && !rel.as_os_str().is_empty()
    {
        return rel.to_string_lossy().into_owned();
    }
    if let Some(home) = home
        && let Ok(rel) = path.strip_prefix(home)
    {
        return format!("~/{}", rel.to_string_lossy());
    }
    path.to_string_lossy().into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_paths() {
        let project = Path::new("/home/u/proj");
        let home = Some(Path::new("/home/u"));
        assert_eq!(
            display_path(Path::new("/home/u/proj/src/a.rs"), project, home),
            "src/a.rs"
        );
        assert_eq!(
            display_path(Path::new("/home/u/.config/x"), project, home),
            "~/.config/x"
        );
        assert_eq!(
            display_path(Path::new("/etc/hosts"), project, home),
            "/etc/hosts"
        );
        // A sibling whose name extends the project's is not inside it.
        assert_eq!(
            display_path(Path::new("/home/u/project2/a"), project, home),
            "~/project2/a"
        );
    }

    #[test]
    fn scope_bounds_cover_only_children() {
        let (lo, hi) = scope_bounds("/a/b");
        for inside in ["/a/b/c", "/a/b/zzz/y", "/a/b/\u{10ffff}"] {
            assert!(inside >= lo.as_str() && inside < hi.as_str(), "{inside}");
        }
        for outside in ["/a/b", "/a/b-c/d", "/a/bc/d", "/a/b0/x", "/a/c"] {
            assert!(
                !(outside >= lo.as_str() && outside < hi.as_str()),
                "{outside}"
            );
        }
    }
}
