//! `sessions.index`: find the transcripts, read what changed, parse it into chunks.

use super::*;

/// Parameters of `sessions.index`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct IndexRequest {
    /// Re-parse every transcript from the start.
    pub force: bool,
    /// The folder of transcripts; default `$CLAUDE_CONFIG_DIR/projects`
    /// (`~/.claude/projects`).
    pub projects_dir: Option<PathBuf>,
    /// Parse and store only: new chunks are searchable by keyword at once, by meaning
    /// once a later run embeds them.
    pub keyword_only: bool,
}

/// Result of `sessions.index`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct IndexResponse {
    /// The folder indexed.
    pub projects_dir: PathBuf,
    /// Main session transcripts found.
    pub sessions: usize,
    /// Subagent transcripts found (`agent-*.jsonl`, `subagents/`).
    pub subagents: usize,
    /// Transcripts parsed from the start (new, rewritten, or `force`).
    pub parsed: usize,
    /// Transcripts that grew: parsed from their last prompt group on.
    pub grown: usize,
    /// Transcripts unchanged (size and mtime), not read.
    pub unchanged: usize,
    /// Transcripts gone from disk, removed from the index.
    pub removed: usize,
    /// Bytes read from transcripts.
    pub bytes_parsed: u64,
    /// Chunks new or changed.
    pub chunks_written: usize,
    /// Chunks removed.
    pub chunks_removed: usize,
    /// Chunks in the index after the run.
    pub chunks: usize,
    /// Chunk windows the model embedded now (the others came from the vector cache).
    pub embedded: usize,
    /// Chunks still without vectors (no model available).
    pub pending_vectors: usize,
    /// Lines skipped as corrupt.
    pub corrupt_lines: usize,
    /// Records skipped on purpose, by type (`progress`, `file-history-snapshot`, …).
    pub skipped_records: BTreeMap<String, usize>,
    /// Corrupt lines (one warning per file), unreadable files, a missing model.
    pub warnings: Vec<String>,
}

/// `sessions.index`: index Claude Code's session transcripts.
#[derive(Debug, Clone, Copy)]
pub struct Index;

impl Operation for Index {
    const NAME: &'static str = "sessions.index";
    const SUMMARY: &'static str = "Index Claude Code session transcripts ($CLAUDE_CONFIG_DIR/projects/**/*.jsonl) by prompt group: new and grown sessions only (force re-parses all), deleted ones removed.";
    type Request = IndexRequest;
    type Response = IndexResponse;
    const PATH_PARAMS: &'static [PathParam] = &[PathParam::one("/projects_dir")];

    fn run(engine: &Engine, request: IndexRequest) -> Result<IndexResponse> {
        index(
            engine,
            request.projects_dir,
            request.force,
            !request.keyword_only,
        )
    }
}

/// Every transcript below the projects folder `dir`, sorted.
fn discover(dir: &Path, warnings: &mut Vec<String>) -> Vec<Transcript> {
    match crate::transcripts::discover(dir, &|_| true, warnings) {
        Ok(found) => found,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            warnings.push(format!(
                "no Claude Code projects folder at {}: nothing to index",
                dir.display()
            ));
            Vec::new()
        }
        Err(e) => {
            warnings.push(format!("{}: {e}", dir.display()));
            Vec::new()
        }
    }
}

/// What the index knows of a transcript.
#[derive(Debug, Clone)]
struct Known {
    session_id: String,
    parent_session_id: Option<String>,
    project: String,
    project_from_cwd: bool,
    size: u64,
    mtime_ns: i64,
    watermark: u64,
    restart: BTreeMap<String, u64>,
    first_time: Option<i64>,
    last_time: Option<i64>,
}

fn known_files(engine: &Engine, warnings: &mut Vec<String>) -> Result<BTreeMap<PathBuf, Known>> {
    let store = &store(engine)?;
    let db = |e| Error::db(store.db().path(), e);
    let conn = store.db().read(warnings)?;
    let mut stmt = conn
        .prepare(
            "SELECT path, session_id, parent_session_id, project, project_from_cwd, size, \
             mtime_ns, watermark, restart, first_time, last_time FROM session_files",
        )
        .map_err(db)?;
    let rows = stmt
        .query_map([], |r| {
            let restart: String = r.get(8)?;
            Ok((
                PathBuf::from(r.get::<_, String>(0)?),
                Known {
                    session_id: r.get(1)?,
                    parent_session_id: r.get(2)?,
                    project: r.get(3)?,
                    project_from_cwd: r.get(4)?,
                    size: r.get::<_, i64>(5)? as u64,
                    mtime_ns: r.get(6)?,
                    watermark: r.get::<_, i64>(7)? as u64,
                    restart: serde_json::from_str(&restart).unwrap_or_default(),
                    first_time: r.get(9)?,
                    last_time: r.get(10)?,
                },
            ))
        })
        .map_err(db)?
        .collect::<rusqlite::Result<_>>()
        .map_err(db)?;
    Ok(rows)
}

/// How a transcript is read in this run.
enum Plan {
    Skip,
    /// From this offset, ignoring records of streams before their restart offsets.
    Tail(u64),
    Full,
}

/// A transcript read and parsed.
struct Read {
    found_index: usize,
    full: bool,
    parsed: Parsed,
    bytes: u64,
    error: Option<String>,
}

fn read_from(path: &Path, from: u64) -> std::io::Result<Vec<u8>> {
    use std::io::{Read as _, Seek, SeekFrom};
    let mut file = std::fs::File::open(path)?;
    file.seek(SeekFrom::Start(from))?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Session-level facts of a transcript, as its chunks carry them.
struct SessionInfo {
    session_id: String,
    parent_session_id: Option<String>,
    path: String,
    project: String,
    first_time: Option<i64>,
}

pub(super) fn index(
    engine: &Engine,
    given_dir: Option<PathBuf>,
    force: bool,
    embed: bool,
) -> Result<IndexResponse> {
    let dir = projects_dir(given_dir);
    let mut warnings = Vec::new();
    let found = discover(&dir, &mut warnings);
    let known = known_files(engine, &mut warnings)?;
    let mut response = IndexResponse {
        projects_dir: dir.clone(),
        sessions: found.iter().filter(|f| !f.subagent).count(),
        subagents: found.iter().filter(|f| f.subagent).count(),
        ..Default::default()
    };

    let plans: Vec<Plan> = found
        .iter()
        .map(|f| match known.get(&f.path) {
            _ if force => Plan::Full,
            None => Plan::Full,
            Some(k) if k.size == f.size && k.mtime_ns == f.mtime_ns => Plan::Skip,
            // Grown (appended to): from the last group on. Same size with another mtime
            // (rewritten in place), shrunk, or a project still unknown: from the start.
            Some(k) if f.size > k.size && f.size >= k.watermark && k.project_from_cwd => {
                let from = k.restart.values().copied().min().unwrap_or(k.watermark);
                Plan::Tail(from.min(k.watermark))
            }
            Some(_) => Plan::Full,
        })
        .collect();
    // Read and parse in parallel, a slice at a time, so progress is reported from this
    // thread between slices.
    let to_read: Vec<usize> = (0..found.len())
        .filter(|&i| !matches!(plans[i], Plan::Skip))
        .collect();
    let mut reads: Vec<Read> = Vec::with_capacity(to_read.len());
    crate::progress::report("parse", 0, to_read.len())?;
    for slice in to_read.chunks(PARSE_SLICE) {
        reads.par_extend(slice.par_iter().map(|&i| {
            let (f, plan) = (&found[i], &plans[i]);
            let (from, restart, full) = match plan {
                Plan::Skip | Plan::Full => (0, BTreeMap::new(), true),
                Plan::Tail(from) => (
                    *from,
                    known
                        .get(&f.path)
                        .map(|k| k.restart.clone())
                        .unwrap_or_default(),
                    false,
                ),
            };
            match read_from(&f.path, from) {
                Ok(bytes) => Read {
                    found_index: i,
                    full,
                    parsed: parser::parse(&bytes, from, &restart),
                    bytes: bytes.len() as u64,
                    error: None,
                },
                Err(e) => Read {
                    found_index: i,
                    full,
                    parsed: Parsed::default(),
                    bytes: 0,
                    error: Some(format!("{}: {e}", f.path.display())),
                },
            }
        }));
        crate::progress::report("parse", reads.len(), to_read.len())?;
    }
    response.unchanged = plans.iter().filter(|p| matches!(p, Plan::Skip)).count();

    let store = &store(engine)?;
    let db_path = store.db().path().to_path_buf();
    let db = |e| Error::db(&db_path, e);
    let now = crate::time::unix_now();
    {
        let mut conn = store.db().write(&mut warnings)?;
        let tx = conn.transaction().map_err(db)?;
        if force {
            for path in known.keys() {
                response.chunks_removed += store.delete_source(&tx, &path.to_string_lossy())?;
            }
            tx.execute("DELETE FROM session_files", []).map_err(db)?;
        }
        for read in reads {
            let f = &found[read.found_index];
            let path = f.path.to_string_lossy().into_owned();
            if let Some(error) = read.error {
                warnings.push(error);
                continue;
            }
            let parsed = read.parsed;
            response.bytes_parsed += read.bytes;
            for (kind, n) in &parsed.skipped {
                *response.skipped_records.entry(kind.clone()).or_insert(0) += n;
            }
            if let Some((offset, why)) = parsed.corrupt.first() {
                response.corrupt_lines += parsed.corrupt.len();
                warnings.push(format!(
                    "{path}: skipped {} corrupt line(s), the first at byte {offset}: {why}",
                    parsed.corrupt.len()
                ));
            }
            let previous = if read.full { None } else { known.get(&f.path) };
            let stem = f
                .path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            let (project, from_cwd) = match (&parsed.cwd, previous) {
                (_, Some(k)) => (k.project.clone(), k.project_from_cwd),
                (Some(cwd), None) => (cwd.clone(), true),
                (None, None) => (f.folder.clone(), false),
            };
            let parent_session_id = match previous {
                Some(k) => k.parent_session_id.clone(),
                None if f.subagent => parsed
                    .session_id
                    .clone()
                    .filter(|s| *s != stem)
                    .or_else(|| parent_folder_session(&f.path)),
                None => None,
            };
            let first_time = match (previous.and_then(|k| k.first_time), parsed.first_time) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            let last_time = match (previous.and_then(|k| k.last_time), parsed.last_time) {
                (Some(a), Some(b)) => Some(a.max(b)),
                (a, b) => a.or(b),
            };
            let info = SessionInfo {
                session_id: previous.map(|k| k.session_id.clone()).unwrap_or(stem),
                parent_session_id,
                path: path.clone(),
                project,
                first_time,
            };
            let chunks = chunks_of(&info, &parsed);
            if read.full {
                let keys: Vec<&str> = chunks.iter().map(|c| c.key.as_str()).collect();
                response.chunks_removed += store.retain_source(&tx, &path, &keys)?;
                response.parsed += 1;
            } else {
                response.grown += 1;
            }
            let put = store.put(&tx, &chunks)?;
            response.chunks_written += put.inserted + put.updated;
            let mut restart = previous.map(|k| k.restart.clone()).unwrap_or_default();
            restart.extend(parsed.open.iter().map(|(s, o)| (s.clone(), *o)));
            let restart =
                serde_json::to_string(&restart).map_err(|e| Error::Internal(e.to_string()))?;
            tx.execute(
                "INSERT OR REPLACE INTO session_files (path, session_id, parent_session_id, \
                 project, project_from_cwd, size, mtime_ns, watermark, restart, first_time, \
                 last_time, indexed_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
                params![
                    path,
                    info.session_id,
                    info.parent_session_id,
                    info.project,
                    from_cwd,
                    f.size as i64,
                    f.mtime_ns,
                    parsed.end as i64,
                    restart,
                    first_time,
                    last_time,
                    now
                ],
            )
            .map_err(db)?;
        }
        // Transcripts of this folder that are gone.
        let on_disk: std::collections::HashSet<&Path> =
            found.iter().map(|f| f.path.as_path()).collect();
        if !force {
            for path in known.keys() {
                if path.starts_with(&dir) && !on_disk.contains(path.as_path()) {
                    let path = path.to_string_lossy();
                    response.chunks_removed += store.delete_source(&tx, &path)?;
                    tx.execute("DELETE FROM session_files WHERE path = ?1", [&*path])
                        .map_err(db)?;
                    response.removed += 1;
                }
            }
        }
        for (key, value) in [
            ("last_indexed", now.to_string()),
            ("projects_dir", dir.to_string_lossy().into_owned()),
        ] {
            tx.execute(
                "INSERT OR REPLACE INTO session_meta (key, value) VALUES (?1, ?2)",
                params![key, value],
            )
            .map_err(db)?;
        }
        tx.commit().map_err(db)?;
    }

    if embed {
        response.embedded = hybrid::embed_pending_with_engine(
            engine,
            store,
            &hybrid::Filter::default(),
            &mut warnings,
        )?;
    }
    let stats = store.stats(&mut warnings)?;
    response.chunks = stats.chunks;
    response.pending_vectors = stats.pending;
    response.warnings = warnings;
    Ok(response)
}

/// The session a `…/<session>/subagents/…/agent-x.jsonl` belongs to: the folder above
/// `subagents`.
fn parent_folder_session(path: &Path) -> Option<String> {
    let mut parts: Vec<String> = path
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let at = parts.iter().rposition(|p| p == "subagents")?;
    parts.truncate(at);
    parts.pop()
}

/// One message of a chunk's context.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ContextMessage {
    /// `user`, `assistant` or `summary`.
    pub role: String,
    /// Its text (cut at 2000 characters).
    pub content: String,
}

/// The part kinds of each chunk kind.
fn kind_of(part: PartKind) -> &'static str {
    match part {
        PartKind::Prompt => "user",
        PartKind::Summary => "summary",
        PartKind::Text => "assistant",
        PartKind::Thinking => "thinking",
        PartKind::ToolUse | PartKind::ToolResult => "tool",
    }
}

/// The context of a group: its opening prompt (or summary) and its assistant text
/// messages; more than five keep the first two and the last three.
fn context_of(group: &Group) -> Vec<ContextMessage> {
    let mut all: Vec<ContextMessage> = Vec::new();
    for message in &group.messages {
        let (role, kinds): (&str, &[PartKind]) = match message.role {
            Role::User => ("user", &[PartKind::Prompt]),
            Role::Assistant => ("assistant", &[PartKind::Text]),
        };
        let summary = message.parts.iter().any(|p| p.kind == PartKind::Summary);
        let text: Vec<&str> = message
            .parts
            .iter()
            .filter(|p| kinds.contains(&p.kind) || p.kind == PartKind::Summary)
            .map(|p| p.text.as_str())
            .collect();
        if text.is_empty() {
            continue;
        }
        all.push(ContextMessage {
            role: if summary { "summary" } else { role }.to_string(),
            content: parser::cut(&text.join("\n\n"), CONTEXT_CHARS),
        });
    }
    if all.len() > CONTEXT_MESSAGES {
        let tail = all.split_off(all.len() - 3);
        all.truncate(2);
        all.extend(tail);
    }
    all
}

/// The chunks of a parsed range of a transcript.
fn chunks_of(info: &SessionInfo, parsed: &Parsed) -> Vec<NewChunk> {
    let mut out = Vec::new();
    for group in &parsed.groups {
        let identity = match &group.uuid {
            Some(uuid) => format!("uuid\u{0}{uuid}"),
            None => format!(
                "offset\u{0}{}\u{0}{}\u{0}{}",
                info.session_id, group.stream, group.start
            ),
        };
        let tag = sha256_hex(identity.as_bytes())[..16].to_string();
        let time = group.time().or(info.first_time).unwrap_or(0);
        let mut texts: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for message in &group.messages {
            for part in &message.parts {
                texts
                    .entry(kind_of(part.kind))
                    .or_default()
                    .push(part.text.as_str());
            }
        }
        let content_types: Vec<&str> = KINDS
            .iter()
            .copied()
            .filter(|k| texts.contains_key(k))
            .collect();
        let message_ids: Vec<&str> = group
            .messages
            .iter()
            .filter_map(|m| m.uuid.as_deref())
            .collect();
        let meta = serde_json::json!({
            "session_id": info.session_id,
            "parent_session_id": info.parent_session_id,
            "session_path": info.path,
            "project": info.project,
            "prompt_uuid": group.uuid,
            "stream": group.stream,
            "opener": match group.opener {
                Opener::Prompt => "prompt",
                Opener::Compact => "compact_summary",
                Opener::Preamble => "preamble",
            },
            "message_ids": message_ids,
            "content_types": content_types,
            "timestamp": format_rfc3339(time),
            "messages": context_of(group),
        })
        .to_string();
        for kind in KINDS {
            let Some(parts) = texts.get(kind) else {
                continue;
            };
            out.push(NewChunk {
                key: sha256_hex(format!("{identity}\u{0}{kind}").as_bytes()),
                source: info.path.clone(),
                scope: info.project.clone(),
                kind: kind.to_string(),
                tag: tag.clone(),
                time,
                title: String::new(),
                text: parts.join("\n\n"),
                meta: meta.clone(),
            });
        }
    }
    for title in &parsed.titles {
        let identity = format!("title\u{0}{}\u{0}{}", info.session_id, title.offset);
        let time = info.first_time.unwrap_or(0);
        let meta = serde_json::json!({
            "session_id": info.session_id,
            "parent_session_id": info.parent_session_id,
            "session_path": info.path,
            "project": info.project,
            "prompt_uuid": title.leaf,
            "stream": "",
            "opener": "title",
            "message_ids": Vec::<String>::new(),
            "content_types": ["summary"],
            "timestamp": format_rfc3339(time),
            "messages": [ContextMessage { role: "summary".into(), content: parser::cut(&title.text, CONTEXT_CHARS) }],
        })
        .to_string();
        out.push(NewChunk {
            key: sha256_hex(format!("{identity}\u{0}summary").as_bytes()),
            source: info.path.clone(),
            scope: info.project.clone(),
            kind: "summary".into(),
            tag: sha256_hex(identity.as_bytes())[..16].to_string(),
            time,
            title: String::new(),
            text: title.text.clone(),
            meta,
        });
    }
    out
}

/// Embed the chunks an index run left without vectors (`keyword_only`), with the engine's
/// model: what the MCP server does on a background thread after a quick run. Returns the
/// windows embedded; nothing without a model.
pub fn embed_pending(engine: &Engine) -> Result<usize> {
    let store = &super::store(engine)?;
    hybrid::embed_pending_with_engine(engine, store, &hybrid::Filter::default(), &mut Vec::new())
}
