//! `sessions.search`: hybrid search over the chunks, with time, project and kind filters.

use super::*;

/// A point in time: Unix seconds, or text — `2h`, `30m`, `1w`, `30d`, `1y` (that long
/// before now), `2026-01-01`, or an RFC 3339 timestamp.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum Since {
    /// Unix seconds.
    Seconds(i64),
    /// A duration back from now, a date or a timestamp.
    Text(String),
}

/// `since` as Unix seconds, relative to `now`.
pub fn parse_since(since: &Since, now: i64) -> std::result::Result<i64, String> {
    let text = match since {
        Since::Seconds(s) => return Ok(*s),
        Since::Text(t) => t.trim(),
    };
    if let Ok(secs) = text.parse::<i64>() {
        return Ok(secs);
    }
    if let Some(time) = parse_date(text).ok().or_else(|| parse_timestamp(text)) {
        return Ok(time);
    }
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 && digits < text.len() {
        let n: i64 = text[..digits]
            .parse()
            .map_err(|_| format!("{text:?}: number too large"))?;
        let unit = match text[digits..].trim() {
            "s" | "sec" | "secs" => 1,
            "m" | "min" | "mins" => 60,
            "h" | "hr" | "hrs" => 3600,
            "d" | "day" | "days" => 86_400,
            "w" | "wk" | "week" | "weeks" => 7 * 86_400,
            "mo" | "month" | "months" => 30 * 86_400,
            "y" | "yr" | "year" | "years" => 365 * 86_400,
            other => {
                return Err(format!(
                    "{text:?}: unknown unit {other:?} (use s, m, h, d, w, mo or y)"
                ));
            }
        };
        return n
            .checked_mul(unit)
            .map(|back| now.saturating_sub(back))
            .ok_or_else(|| format!("{text:?}: too far back"));
    }
    parse_timestamp(text).ok_or_else(|| {
        format!("{text:?} is not a time: use 2h, 1w, 30d, 2026-01-01 or Unix seconds")
    })
}

/// How long ago `time` was, in words (`3 days ago`).
pub fn age(time: i64, now: i64) -> String {
    let secs = (now - time).max(0);
    let (n, unit) = match secs {
        0..60 => return "just now".into(),
        60..3600 => (secs / 60, "minute"),
        3600..86_400 => (secs / 3600, "hour"),
        86_400..1_209_600 => (secs / 86_400, "day"),
        1_209_600..5_184_000 => (secs / 604_800, "week"),
        5_184_000..31_536_000 => (secs / 2_592_000, "month"),
        _ => (secs / 31_536_000, "year"),
    };
    format!("{n} {unit}{} ago", if n == 1 { "" } else { "s" })
}

/// Parameters of `sessions.search`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct SearchRequest {
    /// What to look for (any text).
    pub query: String,
    /// Only sessions whose project path contains this (case-insensitive, `/` and `\\`
    /// alike); `*`: every project. The MCP server searches its own project unless this is
    /// given.
    pub project: Option<String>,
    /// Only chunks from this time on: Unix seconds, `2h`, `1w`, `30d`, `2026-01-01`.
    pub since: Option<Since>,
    /// Only these kinds: `user`, `assistant`, `tool`, `thinking`, `summary` (default all).
    pub types: Vec<String>,
    /// Most results (default 5, at most 100).
    pub limit: Option<usize>,
    /// `hybrid` (default; keyword-only when no model is available), `keyword` or `vector`.
    pub mode: Mode,
    /// "Now" for recency and relative `since`, in Unix seconds (default: the clock), so a
    /// search can be reproduced exactly.
    pub now: Option<i64>,
    /// The transcripts folder to index when no index exists yet (default
    /// `$CLAUDE_CONFIG_DIR/projects`).
    pub projects_dir: Option<PathBuf>,
    /// Only what is stored for projects under these directories (absent or empty: all).
    /// The MCP server sets it to its roots unless `project` is given.
    pub within: Vec<PathBuf>,
}

/// One result of `sessions.search`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SearchHit {
    /// 1 for the best.
    pub rank: usize,
    /// The chunk's id (8 hex characters; `sessions.chunk` shows it whole).
    pub id: String,
    /// Score (fused, weighted by kind and recency; higher is better).
    pub score: f64,
    /// `user`, `assistant`, `tool`, `thinking` or `summary`.
    pub kind: String,
    /// The project path (the session's `cwd`).
    pub project: String,
    /// The session (`claude --resume <session_id>`; for a subagent, its file's name).
    pub session_id: String,
    /// The session a subagent transcript belongs to.
    pub parent_session_id: Option<String>,
    /// The transcript file.
    pub session_path: PathBuf,
    /// When the prompt was written (RFC 3339, UTC).
    pub timestamp: String,
    /// The same, in Unix seconds.
    pub time: i64,
    /// How long ago, in words.
    pub age: String,
    /// The matched chunk's full text.
    pub content: String,
    /// The window of `content` that matched best by meaning, when the chunk has several.
    pub matched_window: Option<String>,
    /// What an agent reads of the chunk: the lines holding the query's
    /// words, else the start of the window that matched by meaning; at most 1,000 bytes.
    pub excerpt: String,
    /// The prompt and the assistant's replies around the match (up to 5 messages).
    pub messages: Vec<ContextMessage>,
    /// Which lists found it: `keyword`, `vector` or both.
    pub matched_by: Vec<String>,
}

/// Result of `sessions.search`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SearchResponse {
    /// The query.
    pub query: String,
    /// Best first.
    pub results: Vec<SearchHit>,
    /// How many results.
    pub total_results: usize,
    /// The retrievers used: `hybrid`, `keyword` or `vector`.
    pub mode: Mode,
    /// Set when nothing matched and these are the closest matches by meaning instead.
    pub note: Option<String>,
    /// Time spent, in milliseconds (indexing on the first search included).
    pub search_time_ms: u64,
    /// An index built on the fly, a project filter matching nothing, a missing model.
    pub warnings: Vec<String>,
}

/// `sessions.search`: search the indexed session transcripts.
#[derive(Debug, Clone, Copy)]
pub struct Search;

/// What an agent does not read of an answer: the query it sent, the time taken, ranks,
/// scores and times (the order says them), the transcript's path, and the messages around
/// each hit — half of every answer, repeated by hits of one prompt group: `sessions.chunk`
/// shows them for the hit that matters.
const SEARCH_AGENT: AgentShape = AgentShape {
    omit: &[
        "query",
        "search_time_ms",
        "total_results",
        "results/*/rank",
        "results/*/score",
        "results/*/session_path",
        "results/*/time",
        "results/*/matched_by",
        "results/*/messages",
        "results/*/content",
        "results/*/matched_window",
    ],
    ..AgentShape::FULL
};

impl Operation for Search {
    const NAME: &'static str = "sessions.search";
    const SUMMARY: &'static str = "Search Claude Code session transcripts (keyword + semantic, recent first, tool output and thinking weighted down), filtered by project substring, since (2h, 1w, 30d, 2026-01-01) and types; indexes on first use.";
    type Request = SearchRequest;
    type Response = SearchResponse;
    const PATH_PARAMS: &'static [PathParam] = &[
        PathParam::one("/projects_dir"),
        PathParam::within("/within").unless_given("/project"),
    ];

    const AGENT: AgentShape = SEARCH_AGENT;
    fn run(engine: &Engine, request: SearchRequest) -> Result<SearchResponse> {
        search(engine, request)
    }
}

/// The note of results that no word of the query matched.
fn closest_note(text: &str) -> String {
    format!("no matches for {text:?}; showing the closest matches by meaning")
}

/// A search found something relevant when its nearest window is at least this close to
/// the query by meaning (cosine), or when a chunk of its keyword list holds at least
/// [`RELEVANT_WORD_WEIGHT`] of the query's words weighted by rarity. Only judged when the query was compared by meaning. Tuned on
/// the recall bench's dev split (`core/benches/recall/unrelated.jsonl`: questions no
/// session answers), where together they keep every question answered in the top 5 and
/// empty the answer of 11 of the 20 unrelated ones; docs/BENCHMARKS.md has the grid.
pub const RELEVANT_SIMILARITY: f64 = 0.32;
/// See [`RELEVANT_SIMILARITY`].
pub const RELEVANT_WORD_WEIGHT: f64 = 0.45;

/// Whether what a search found is about the query at all ([`RELEVANT_SIMILARITY`]).
fn relevant(evidence: &hybrid::Evidence) -> bool {
    evidence
        .similarity
        .is_some_and(|s| s >= RELEVANT_SIMILARITY)
        || evidence
            .word_weight
            .is_some_and(|w| w >= RELEVANT_WORD_WEIGHT)
}

/// What an answer confined to some projects adds, when it is empty.
const WIDER: &str = "; `project` searches another project's (`*`: every project's)";

/// The note of an answer left empty because nothing found was relevant.
fn nothing_note(text: &str, scoped: bool) -> String {
    let wider = if scoped { WIDER } else { "" };
    format!("nothing relevant to {text:?} in the sessions searched{wider}")
}
fn search(engine: &Engine, request: SearchRequest) -> Result<SearchResponse> {
    const OP: &str = Search::NAME;
    let started = std::time::Instant::now();
    let text = request.query.trim();
    if text.is_empty() {
        return Err(Error::invalid(OP, "Query required"));
    }
    let limit = request.limit.unwrap_or(5);
    if !(1..=100).contains(&limit) {
        return Err(Error::invalid(OP, "`limit` must be between 1 and 100"));
    }
    let mut kinds = Vec::new();
    for kind in &request.types {
        let kind = kind.trim().to_lowercase();
        if !KINDS.contains(&kind.as_str()) {
            return Err(Error::invalid(
                OP,
                format!("unknown type {kind:?}: use {}", KINDS.join(", ")),
            ));
        }
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    let now = request.now.unwrap_or_else(crate::time::unix_now);
    let since = request
        .since
        .as_ref()
        .map(|s| parse_since(s, now).map_err(|why| Error::invalid(OP, format!("`since`: {why}"))))
        .transpose()?;
    let mut warnings = Vec::new();
    if meta_value(engine, "last_indexed", &mut warnings)?.is_none() {
        let indexed = index::index(engine, request.projects_dir.clone(), false, true)?;
        warnings.push(format!(
            "no session index yet: indexed {} sessions and {} subagent transcripts ({} chunks) first",
            indexed.sessions, indexed.subagents, indexed.chunks
        ));
        warnings.extend(indexed.warnings);
    }
    let mut response = SearchResponse {
        query: text.to_string(),
        results: Vec::new(),
        total_results: 0,
        mode: request.mode,
        note: None,
        search_time_ms: 0,
        warnings: Vec::new(),
    };
    // Projects outside `within` are left out of the scopes, so the retrieval itself
    // never sees their chunks (and still returns up to `limit` of the others).
    let within = Within::new(&request.within);
    let scopes = match request.project.as_deref().map(str::trim) {
        None | Some("" | "*") if within.is_all() => None,
        None | Some("" | "*") => {
            let allowed = projects_within(engine, &within, &mut warnings)?;
            if allowed.is_empty() {
                warnings.push(format!(
                    "No sessions found under {}{WIDER}",
                    within.describe()
                ));
                response.warnings = warnings;
                response.search_time_ms = started.elapsed().as_millis() as u64;
                return Ok(response);
            }
            Some(allowed)
        }
        Some(project) => {
            let mut matching = matching_projects(engine, project, &mut warnings)?;
            matching.retain(|p| within.contains_recorded(Path::new(p)));
            if matching.is_empty() {
                warnings.push(format!("No sessions found for project {project}"));
                response.warnings = warnings;
                response.search_time_ms = started.elapsed().as_millis() as u64;
                return Ok(response);
            }
            Some(matching)
        }
    };
    // Searched in some projects only: an empty answer says how to search the others.
    let scoped = scopes.is_some();
    let (vector, used) = hybrid::query_vector_for(engine, request.mode, text, &mut warnings)?;
    response.mode = used;
    let store = &store(engine)?;
    let mut search = hybrid::Search {
        text: text.to_string(),
        mode: request.mode,
        filter: Filter {
            scopes,
            kinds: (!kinds.is_empty()).then_some(kinds),
            since,
            ..Filter::default()
        },
        limit,
        kind_weights: kind_weights(),
        recency: Some(Recency {
            now,
            half_life_secs: RECENCY_HALF_LIFE_SECS,
            floor: RECENCY_FLOOR,
        }),
        coverage_weight: COVERAGE_WEIGHT,
        ..hybrid::Search::default()
    };
    hybrid::note_unembedded(
        store,
        &search.filter,
        used,
        "session chunks",
        "cc-search index",
        &mut warnings,
    )?;
    let (mut hits, mut evidence) =
        store.search_with_evidence(&search, vector.as_deref(), &mut warnings)?;
    // Whether the query was compared by meaning, so that relevance can be judged.
    let mut by_meaning = vector.is_some() && request.mode != Mode::Keyword;
    if hits.is_empty() && request.mode != Mode::Vector {
        // Nothing matched the words: the closest chunks by meaning, when the model is
        // there (in keyword mode too; a missing model was already reported or asked for).
        let fallback = match vector {
            Some(v) => Some(v),
            None => match engine.embedder() {
                Ok(embedder) => Some(hybrid::query_vector(embedder.as_ref(), text)?),
                Err(_) => None,
            },
        };
        if let Some(fallback) = fallback {
            search.mode = Mode::Vector;
            (hits, evidence) =
                store.search_with_evidence(&search, Some(&fallback), &mut warnings)?;
            by_meaning = true;
            if !hits.is_empty() {
                response.mode = Mode::Vector;
                response.note = Some(closest_note(text));
            }
        }
    } else if request.mode == Mode::Hybrid && hits.iter().all(|h| h.keyword_rank.is_none()) {
        // The vector list alone found these: say so, as when keyword mode falls back.
        response.note = Some(closest_note(text));
    }
    // When nothing the search found is about the query, the answer says so rather than
    // listing the least unrelated.
    if by_meaning && !hits.is_empty() && !relevant(&evidence) {
        hits.clear();
        response.note = Some(nothing_note(text, scoped));
    }
    let words = crate::text::query_words(text);
    for hit in hits {
        let meta: serde_json::Value = serde_json::from_str(&hit.meta).unwrap_or_default();
        let get = |k: &str| meta.get(k).and_then(|v| v.as_str()).map(str::to_string);
        let mut matched_by = Vec::new();
        if hit.keyword_rank.is_some() {
            matched_by.push("keyword".to_string());
        }
        if hit.vector_rank.is_some() {
            matched_by.push("vector".to_string());
        }
        response.results.push(SearchHit {
            rank: response.results.len() + 1,
            id: hit.key[..8.min(hit.key.len())].to_string(),
            score: hit.score,
            kind: hit.kind,
            project: hit.scope,
            session_id: get("session_id").unwrap_or_default(),
            parent_session_id: get("parent_session_id"),
            session_path: PathBuf::from(hit.source),
            timestamp: format_rfc3339(hit.time),
            time: hit.time,
            age: age(hit.time, now),
            matched_window: hit
                .window
                .and_then(|(s, e)| hit.text.get(s..e))
                .map(str::to_string),
            excerpt: crate::text::excerpt(
                &hit.text,
                hit.window.and_then(|(s, e)| hit.text.get(s..e)),
                &words,
            ),
            content: hit.text,
            messages: meta
                .get("messages")
                .and_then(|m| serde_json::from_value(m.clone()).ok())
                .unwrap_or_default(),
            matched_by,
        });
    }
    response.total_results = response.results.len();
    response.warnings = warnings;
    response.search_time_ms = started.elapsed().as_millis() as u64;
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn since_parses_durations_dates_and_seconds() {
        let now = 1_767_225_600 + 86_400;
        assert_eq!(parse_since(&Since::Text("2h".into()), now), Ok(now - 7200));
        assert_eq!(
            parse_since(&Since::Text("1w".into()), now),
            Ok(now - 7 * 86_400)
        );
        assert_eq!(
            parse_since(&Since::Text("30d".into()), now),
            Ok(now - 30 * 86_400)
        );
        assert_eq!(
            parse_since(&Since::Text("2026-01-01".into()), now),
            Ok(1_767_225_600)
        );
        assert_eq!(parse_since(&Since::Seconds(5), now), Ok(5));
        assert_eq!(parse_since(&Since::Text("12".into()), now), Ok(12));
        assert!(parse_since(&Since::Text("3x".into()), now).is_err());
        assert!(parse_since(&Since::Text("soon".into()), now).is_err());
    }

    #[test]
    fn ages_and_timestamps_read_well() {
        assert_eq!(age(100, 100), "just now");
        assert_eq!(age(0, 3 * 86_400), "3 days ago");
        assert_eq!(age(0, 3600), "1 hour ago");
        assert_eq!(age(0, 21 * 86_400), "3 weeks ago");
    }
}
