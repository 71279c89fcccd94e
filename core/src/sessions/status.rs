//! `sessions.status`: what the index holds, per project.

use super::*;

/// Parameters of `sessions.status`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct StatusRequest {
    /// Only what is stored for projects under these directories (absent or empty: all):
    /// sessions, projects and chunks are counted over those; the index size, model and
    /// last run stay those of the whole index. The MCP server sets it to its roots.
    pub within: Vec<PathBuf>,
}

/// Sessions of one project.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ProjectSessions {
    /// The project path.
    pub project: String,
    /// Its main sessions.
    pub sessions: usize,
}

/// Result of `sessions.status`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct StatusResponse {
    /// The index database (`sessions.db` in the data root).
    pub db_path: PathBuf,
    /// The transcripts folder of the last run.
    pub projects_dir: Option<PathBuf>,
    /// Main sessions indexed.
    pub sessions: usize,
    /// Subagent transcripts indexed.
    pub subagents: usize,
    /// Projects, with their session counts, sorted by path.
    pub projects: Vec<ProjectSessions>,
    /// Chunks.
    pub chunks: usize,
    /// Chunks by kind.
    pub chunks_by_kind: BTreeMap<String, usize>,
    /// Chunks without vectors yet.
    pub pending_vectors: usize,
    /// Size of the index on disk (database and its WAL), bytes.
    pub index_bytes: u64,
    /// The embedding model's directory, or why there is none.
    pub model: String,
    /// When the last run finished (RFC 3339), if ever.
    pub last_indexed: Option<String>,
    /// Anything worth telling.
    pub warnings: Vec<String>,
}

/// `sessions.status`: what the session index holds.
#[derive(Debug, Clone, Copy)]
pub struct Status;

impl Operation for Status {
    const NAME: &'static str = "sessions.status";
    const SUMMARY: &'static str = "Session index statistics: sessions, subagents, projects, chunks by kind, index size, model, last indexed.";
    type Request = StatusRequest;
    type Response = StatusResponse;
    const PATH_PARAMS: &'static [PathParam] = &[PathParam::within("/within")];

    fn run(engine: &Engine, request: StatusRequest) -> Result<StatusResponse> {
        status(engine, &request.within)
    }
}

fn status(engine: &Engine, within: &[PathBuf]) -> Result<StatusResponse> {
    let mut warnings = Vec::new();
    let allowed = allowed_projects(engine, within, &mut warnings)?;
    let confined = allowed.is_some();
    let allowed = json_list(&allowed)?;
    let store = &store(engine)?;
    let db = |e| Error::db(store.db().path(), e);
    let mut stats = store.stats(&mut warnings)?;
    let (rows, by_kind): (Vec<(String, bool)>, BTreeMap<String, usize>) = {
        let conn = store.db().read(&mut warnings)?;
        let mut stmt = conn
            .prepare(
                "SELECT project, parent_session_id IS NOT NULL FROM session_files \
                 WHERE ?1 IS NULL OR project IN (SELECT value FROM json_each(?1))",
            )
            .map_err(db)?;
        let rows = stmt
            .query_map([&allowed], |r| Ok((r.get(0)?, r.get(1)?)))
            .map_err(db)?
            .collect::<rusqlite::Result<_>>()
            .map_err(db)?;
        let mut stmt = conn
            .prepare(
                "SELECT kind, count(*), sum(embedded = 0) FROM chunks \
                 WHERE ?1 IS NULL OR scope IN (SELECT value FROM json_each(?1)) GROUP BY kind",
            )
            .map_err(db)?;
        let counts: Vec<(String, usize, usize)> = stmt
            .query_map([&allowed], |r| {
                Ok((
                    r.get(0)?,
                    r.get::<_, i64>(1)? as usize,
                    r.get::<_, i64>(2)? as usize,
                ))
            })
            .map_err(db)?
            .collect::<rusqlite::Result<_>>()
            .map_err(db)?;
        if confined {
            stats.chunks = counts.iter().map(|c| c.1).sum();
            stats.pending = counts.iter().map(|c| c.2).sum();
        }
        let by_kind = counts.into_iter().map(|(kind, n, _)| (kind, n)).collect();
        (rows, by_kind)
    };
    let mut projects: BTreeMap<String, usize> = BTreeMap::new();
    for (project, subagent) in &rows {
        let count = projects.entry(project.clone()).or_insert(0);
        if !subagent {
            *count += 1;
        }
    }
    let subagents = rows.iter().filter(|r| r.1).count();
    let path = store.db().path();
    let index_bytes = [
        path.to_path_buf(),
        PathBuf::from(format!("{}-wal", path.display())),
    ]
    .iter()
    .filter_map(|p| std::fs::metadata(p).ok())
    .map(|m| m.len())
    .sum();
    let model = match crate::embed::resolve_model_dir(engine.config().embed.model_dir.as_deref()) {
        Ok(location) => location.dir.display().to_string(),
        Err(e) => format!("none ({e})"),
    };
    let last_indexed = meta_value(engine, "last_indexed", &mut warnings)?
        .and_then(|v| v.parse::<i64>().ok())
        .map(format_rfc3339);
    let projects_dir = meta_value(engine, "projects_dir", &mut warnings)?.map(PathBuf::from);
    Ok(StatusResponse {
        db_path: path.to_path_buf(),
        projects_dir,
        sessions: rows.len() - subagents,
        subagents,
        projects: projects
            .into_iter()
            .map(|(project, sessions)| ProjectSessions { project, sessions })
            .collect(),
        chunks: stats.chunks,
        chunks_by_kind: by_kind,
        pending_vectors: stats.pending,
        index_bytes,
        model,
        last_indexed,
        warnings,
    })
}
