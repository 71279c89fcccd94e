//! `sessions.chunk`: one chunk by id, with the messages around it.

use super::*;

/// Parameters of `sessions.chunk`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct ChunkRequest {
    /// The chunk's id, or any unique prefix of it (hex).
    pub id: String,
    /// Only what is stored for projects under these directories (absent or empty: all):
    /// a chunk of another project is answered as an unknown id.
    pub within: Vec<PathBuf>,
}

/// Another part of the same prompt group.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct GroupPart {
    /// Its id (8 hex characters).
    pub id: String,
    /// Its kind.
    pub kind: String,
    /// Its length in characters.
    pub chars: usize,
}

/// Result of `sessions.chunk`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ChunkResponse {
    /// The id (8 hex characters).
    pub id: String,
    /// The full id (64 hex characters).
    pub full_id: String,
    /// Its kind.
    pub kind: String,
    /// The project path.
    pub project: String,
    /// The session.
    pub session_id: String,
    /// The session a subagent transcript belongs to.
    pub parent_session_id: Option<String>,
    /// The transcript file.
    pub session_path: PathBuf,
    /// When (RFC 3339, UTC).
    pub timestamp: String,
    /// The same, in Unix seconds.
    pub time: i64,
    /// The full text.
    pub content: String,
    /// The prompt and replies of its group (up to 5 messages).
    pub messages: Vec<ContextMessage>,
    /// The `uuid` of the record that opened its group.
    pub prompt_uuid: Option<String>,
    /// The `uuid`s of its group's messages.
    pub message_ids: Vec<String>,
    /// Every part of its group (this one included), in kind order.
    pub group: Vec<GroupPart>,
}

/// `sessions.chunk`: one chunk by id prefix.
#[derive(Debug, Clone, Copy)]
pub struct Chunk;

impl Operation for Chunk {
    const NAME: &'static str = "sessions.chunk";
    const SUMMARY: &'static str = "Show one session chunk in full (by its id from sessions.search, or any unique prefix), with its context messages and the other parts of its prompt group.";
    type Request = ChunkRequest;
    type Response = ChunkResponse;
    // Not defaulted to the MCP server's roots: a search may name another project, and
    // what it found can be read whole (the module doc).
    const PATH_PARAMS: &'static [PathParam] = &[PathParam::many("/within")];

    fn run(engine: &Engine, request: ChunkRequest) -> Result<ChunkResponse> {
        chunk(engine, &request.id, &request.within)
    }
}

fn chunk(engine: &Engine, id: &str, within: &[PathBuf]) -> Result<ChunkResponse> {
    const OP: &str = Chunk::NAME;
    let prefix = id.trim().to_ascii_lowercase();
    if prefix.is_empty() {
        return Err(Error::invalid(OP, "Chunk id required"));
    }
    if prefix.len() > 64 || !prefix.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(Error::invalid(
            OP,
            format!("{id:?} is not a chunk id (hex characters)"),
        ));
    }
    let mut warnings = Vec::new();
    // Chunks of projects outside `within` are not looked at: neither found nor counted
    // as making a prefix ambiguous.
    let allowed = json_list(&allowed_projects(engine, within, &mut warnings)?)?;
    let store = &store(engine)?;
    let db = |e| Error::db(store.db().path(), e);
    let conn = store.db().read(&mut warnings)?;
    // Keys are lowercase hex: every key with this prefix sorts in [prefix, prefix + 'g').
    let upper = format!("{prefix}g");
    type Row = (String, String, String, String, i64, String, String, String);
    let rows: Vec<Row> = {
        let mut stmt = conn
            .prepare_cached(
                "SELECT key, kind, scope, source, time, text, meta, tag FROM chunks \
                 WHERE key >= ?1 AND key < ?2 \
                   AND (?3 IS NULL OR scope IN (SELECT value FROM json_each(?3))) \
                 ORDER BY key LIMIT 5",
            )
            .map_err(db)?;
        stmt.query_map(params![prefix, upper, allowed], |r| Row::try_from(r))
            .map_err(db)?
            .collect::<rusqlite::Result<_>>()
            .map_err(db)?
    };
    let (key, kind, project, source, time, text, meta, tag) = match rows.len() {
        0 => return Err(Error::invalid(OP, format!("no chunk with id {prefix}"))),
        1 => rows
            .into_iter()
            .next()
            .ok_or_else(|| Error::Internal("row vanished".into()))?,
        n => {
            let shown: Vec<String> = rows.iter().map(|r| r.0[..12].to_string()).collect();
            return Err(Error::invalid(
                OP,
                format!(
                    "chunk id {prefix} is ambiguous: it starts {}{} chunks ({}…); give more characters",
                    if n == 5 { "at least " } else { "" },
                    n,
                    shown.join("…, ")
                ),
            ));
        }
    };
    let group: Vec<GroupPart> = {
        let mut stmt = conn
            .prepare_cached(
                "SELECT key, kind, length(text) FROM chunks WHERE tag = ?1 AND source = ?2",
            )
            .map_err(db)?;
        let mut parts: Vec<GroupPart> = stmt
            .query_map(params![tag, source], |r| {
                Ok(GroupPart {
                    id: r.get::<_, String>(0)?.chars().take(8).collect(),
                    kind: r.get(1)?,
                    chars: r.get::<_, i64>(2)? as usize,
                })
            })
            .map_err(db)?
            .collect::<rusqlite::Result<_>>()
            .map_err(db)?;
        parts.sort_by_key(|p| {
            (
                KINDS
                    .iter()
                    .position(|k| *k == p.kind)
                    .unwrap_or(KINDS.len()),
                p.id.clone(),
            )
        });
        parts
    };
    let meta: serde_json::Value = serde_json::from_str(&meta).unwrap_or_default();
    let get = |k: &str| meta.get(k).and_then(|v| v.as_str()).map(str::to_string);
    Ok(ChunkResponse {
        id: key[..8].to_string(),
        full_id: key.clone(),
        kind,
        project,
        session_id: get("session_id").unwrap_or_default(),
        parent_session_id: get("parent_session_id"),
        session_path: PathBuf::from(source),
        timestamp: format_rfc3339(time),
        time,
        content: text,
        messages: meta
            .get("messages")
            .and_then(|m| serde_json::from_value(m.clone()).ok())
            .unwrap_or_default(),
        prompt_uuid: get("prompt_uuid"),
        message_ids: meta
            .get("message_ids")
            .and_then(|m| serde_json::from_value(m.clone()).ok())
            .unwrap_or_default(),
        group,
    })
}
