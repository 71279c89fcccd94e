//! What the crash and concurrency tests share: indexers run in child processes (the test
//! binary re-executed), the inputs they index (a git repository of source files, Claude
//! Code transcripts, markdown docs), and a logical dump of a data root to compare two
//! indexes by.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use rusqlite::Connection;
use serde_json::{Value, json};

use crate::common::{self, write};

/// Set in a child process: the JSON job it runs (see [`Job`]).
pub const CHILD_ENV: &str = "CC_SEARCH_TEST_CHILD_JOB";

/// The test that runs a child's job: [`child`].
const CHILD_TEST: &str = "harness::child";

/// The entry point of the child processes (a no-op in the test run itself).
#[test]
fn child() {
    run_child_job();
}

/// Fixed "now" for git frecency, so two indexes of the same tree agree: 2026-03-01.
pub const NOW: i64 = 1_772_323_200;

/// A deterministic generator (SplitMix64): every random choice of these tests comes
/// from a printed seed.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
    pub fn word(&mut self) -> &'static str {
        WORDS[self.below(WORDS.len())]
    }
    pub fn words(&mut self, n: usize) -> String {
        (0..n).map(|_| self.word()).collect::<Vec<_>>().join(" ")
    }
}

const WORDS: &[&str] = &[
    "parser",
    "token",
    "refresh",
    "cache",
    "index",
    "vector",
    "thread",
    "socket",
    "retry",
    "budget",
    "schema",
    "migration",
    "branch",
    "commit",
    "deploy",
    "lambda",
    "router",
    "pelican",
    "flamingo",
    "heron",
    "otter",
    "badger",
    "kestrel",
    "walrus",
    "nginx",
    "upstream",
    "latency",
    "buffer",
    "stream",
    "channel",
    "mutex",
    "future",
    "promise",
    "render",
    "widget",
    "layout",
    "column",
    "ledger",
    "invoice",
    "payment",
    "account",
    "search",
    "ranking",
    "fusion",
    "window",
    "embedding",
    "symbol",
    "reference",
    "module",
    "import",
    "export",
    "config",
    "toml",
    "yaml",
    "docker",
    "kernel",
    "signal",
    "crash",
];

/// The seed of a test run: `$CC_SEARCH_TEST_SEED` (decimal or 0x-hex), else `default`.
pub fn seed(default: u64) -> u64 {
    match std::env::var("CC_SEARCH_TEST_SEED") {
        Ok(s) if !s.trim().is_empty() => {
            let s = s.trim();
            s.strip_prefix("0x")
                .map(|h| u64::from_str_radix(h, 16))
                .unwrap_or_else(|| s.parse())
                .expect("CC_SEARCH_TEST_SEED is a number")
        }
        _ => default,
    }
}

/// A count from environment variable `name`, else `default`.
pub fn env_count(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .filter(|s| !s.trim().is_empty())
        .map(|s| {
            s.trim()
                .parse()
                .unwrap_or_else(|_| panic!("{name} is a count"))
        })
        .unwrap_or(default)
}

// ─────────────────────────────── inputs ───────────────────────────────

/// A git repository of `files` small source files (Rust, Python, TypeScript) in nested
/// directories, with functions that call each other across files, in two commits.
pub fn source_repo(dir: &Path, files: usize, functions: usize, rng: &mut Rng) {
    std::fs::create_dir_all(dir).unwrap();
    common::git_at(dir, &["init", "-q", "-b", "main"], NOW - 86_400 * 30);
    for i in 0..files {
        let rel = match i % 3 {
            0 => format!("src/m{}/unit_{i}.rs", i % 17),
            1 => format!("py/p{}/mod_{i}.py", i % 13),
            _ => format!("web/w{}/part_{i}.ts", i % 11),
        };
        let mut text = String::new();
        for f in 0..functions {
            let name = format!("{}_{}_{i}_{f}", rng.word(), rng.word());
            let callee = format!("{}_{}", rng.word(), (i + f) % files.max(1));
            let doc = rng.words(6);
            match i % 3 {
                0 => text.push_str(&format!(
                    "/// {doc}\npub fn {name}(x: u32) -> u32 {{\n    {callee}(x + {f})\n}}\n\n\
                     pub struct S{name} {{ field: u32 }}\n\n"
                )),
                1 => text.push_str(&format!(
                    "def {name}(x):\n    \"\"\"{doc}\"\"\"\n    return {callee}(x + {f})\n\n\
                     class C{name}:\n    def run(self):\n        return {name}(1)\n\n"
                )),
                _ => text.push_str(&format!(
                    "// {doc}\nexport function {name}(x: number): number {{\n  return {callee}(x + {f});\n}}\n\n\
                     export class K{name} {{ run() {{ return {name}(1); }} }}\n\n"
                )),
            }
        }
        write(dir, &rel, text);
        if i == files / 2 {
            common::commit_all(dir, "first", NOW - 86_400 * 20);
        }
    }
    common::commit_all(dir, "second", NOW - 86_400 * 3);
}

/// A git repository of `files` tiny files in `dirs` directories (the file picker's
/// input: many paths, little content), committed.
pub fn path_tree(dir: &Path, files: usize, dirs: usize, rng: &mut Rng) {
    std::fs::create_dir_all(dir).unwrap();
    common::git_at(dir, &["init", "-q", "-b", "main"], NOW - 86_400 * 30);
    for i in 0..files {
        let d = i % dirs.max(1);
        let rel = format!(
            "{}/{}_{d}/{}_{i}.{}",
            ["src", "lib", "docs", "test"][d % 4],
            rng.word(),
            rng.word(),
            ["rs", "py", "md", "ts", "json"][i % 5]
        );
        write(dir, &rel, format!("{i}\n"));
    }
    common::commit_all(dir, "tree", NOW - 86_400 * 2);
}

/// A Claude Code projects folder: `sessions` transcripts over two projects, each of
/// `groups` prompt groups (a prompt, an assistant message split over a thinking and a
/// text line, a tool call and its result), each text about `words` words drawn from
/// `rng` (short texts keep the real model's work small in a debug build).
pub fn transcripts(projects: &Path, sessions: usize, groups: usize, words: usize, rng: &mut Rng) {
    for s in 0..sessions {
        let session = format!("{s:08x}-0000-4000-8000-{s:012x}");
        let cwd = format!("/home/u/{}", ["alpha", "beta"][s % 2]);
        let mut lines: Vec<Value> = Vec::new();
        let mut parent: Option<String> = None;
        let mut n = 0;
        let mut time = NOW - 86_400 * (s as i64 % 20) - 3600 * 5;
        let mut base = |kind: &str, lines: &mut Vec<Value>, message: Value| {
            n += 1;
            time += 7;
            let uuid = format!("{session}-{n:05}");
            let secs = time.rem_euclid(86_400);
            let day = time.div_euclid(86_400) - NOW.div_euclid(86_400);
            // NOW is 2026-03-01; the transcripts are within the 28 days before it.
            let (m, d) = if day < 0 { (2, 29 + day) } else { (3, 1 + day) };
            let v = json!({
                "parentUuid": parent, "isSidechain": false, "userType": "external",
                "cwd": cwd, "sessionId": session, "version": "2.0.5", "gitBranch": "main",
                "type": kind, "uuid": uuid,
                "timestamp": format!("2026-{m:02}-{d:02}T{:02}:{:02}:{:02}.000Z",
                    secs / 3600, secs % 3600 / 60, secs % 60),
                "message": message,
            });
            parent = Some(uuid);
            lines.push(v);
        };
        for g in 0..groups {
            let prompt = format!("{}?", rng.words(words));
            base(
                "user",
                &mut lines,
                json!({"role": "user", "content": prompt}),
            );
            let id = format!("msg_{s}_{g}");
            let thinking = rng.words(words);
            base(
                "assistant",
                &mut lines,
                json!({"id": id, "type": "message", "role": "assistant", "model": "claude-opus-4-1",
                    "content": [{"type": "thinking", "thinking": thinking, "signature": "sig"}]}),
            );
            let answer = rng.words(words);
            base(
                "assistant",
                &mut lines,
                json!({"id": id, "type": "message", "role": "assistant", "model": "claude-opus-4-1",
                    "content": [{"type": "text", "text": answer},
                                {"type": "tool_use", "id": format!("toolu_{g}"), "name": "Bash",
                                 "input": {"command": format!("grep -r {} src/", rng.word())}}]}),
            );
            let output = rng.words(words);
            base(
                "user",
                &mut lines,
                json!({"role": "user", "content": [
                    {"tool_use_id": format!("toolu_{g}"), "type": "tool_result", "content": output}]}),
            );
        }
        let mut bytes = Vec::new();
        for line in &lines {
            bytes.extend(line.to_string().bytes());
            bytes.push(b'\n');
        }
        let folder = projects.join(format!("-home-u-{}", ["alpha", "beta"][s % 2]));
        write(&folder, &format!("{session}.jsonl"), bytes);
    }
}

/// A project with `files` markdown files under `docs/`, each of `sections` H2 sections
/// of two paragraphs of about `words` words.
pub fn markdown_docs(project: &Path, files: usize, sections: usize, words: usize, rng: &mut Rng) {
    for f in 0..files {
        let mut text = format!("# {}\n\n{}\n\n", rng.words(2), rng.words(words));
        for s in 0..sections {
            text.push_str(&format!(
                "## {} {s}\n\n{}\n\n{}\n\n",
                rng.words(2),
                rng.words(words),
                rng.words(words)
            ));
        }
        write(project, &format!("docs/d{}/page_{f}.md", f % 4), text);
    }
}

// ─────────────────────────────── engines ───────────────────────────────

/// Give `to` (a data root) a copy of the vector cache of `from`, keeping each vector with
/// probability `keep`: the model, slow in a debug build, then embeds only the rest, while
/// every chunk's vectors are still written to the index.
pub fn warm_cache(from: &Path, to: &Path, keep: f64, rng: &mut Rng) {
    std::fs::create_dir_all(to).unwrap();
    let target = to.join("embeddings.db");
    let _ = std::fs::remove_file(&target);
    connect(&from.join("embeddings.db"))
        .execute("VACUUM INTO ?1", [target.to_string_lossy()])
        .unwrap();
    let conn = connect(&target);
    let keys: Vec<(String, Vec<u8>)> = conn
        .prepare("SELECT model, text_sha256 FROM embeddings ORDER BY model, text_sha256")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap();
    for (model, hash) in keys {
        if rng.unit() >= keep {
            conn.execute(
                "DELETE FROM embeddings WHERE model = ?1 AND text_sha256 = ?2",
                rusqlite::params![model, hash],
            )
            .unwrap();
        }
    }
}

/// Write `home/config.toml` naming the real model (when `with_model` and the tests have
/// it) or a model directory that does not exist (keyword-only). Returns whether the
/// model is used.
pub fn configure(home: &Path, with_model: bool) -> bool {
    std::fs::create_dir_all(home).unwrap();
    let model = if with_model {
        common::model_dir()
    } else {
        None
    };
    let text = match &model {
        Some(dir) => format!("[embed]\nmodel_dir = {:?}\n", dir.display().to_string()),
        None => "[embed]\nmodel_dir = \"/nonexistent/model\"\n".to_string(),
    };
    std::fs::write(home.join("config.toml"), text).unwrap();
    model.is_some()
}

/// One operation call, by name with JSON parameters.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Call {
    pub op: String,
    pub params: Value,
}

impl Call {
    pub fn new(op: &str, params: Value) -> Call {
        Call {
            op: op.into(),
            params,
        }
    }
}

/// What a child process does: open an engine on `home`, run `calls` in order, `rounds`
/// times; any error fails the child (exit status 101, the error on stderr).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Job {
    pub home: PathBuf,
    pub calls: Vec<Call>,
    pub rounds: usize,
}

/// The child side: when this process was started as a child ([`CHILD_ENV`] set), run
/// the job and return true. The test named `child` of each test binary calls it.
pub fn run_child_job() -> bool {
    let Ok(job) = std::env::var(CHILD_ENV) else {
        return false;
    };
    let job: Job = serde_json::from_str(&job).unwrap();
    let engine = cc_search::Engine::open_at(&job.home).unwrap();
    for round in 0..job.rounds {
        for call in &job.calls {
            if let Err(e) = engine.call(&call.op, &call.params.to_string()) {
                panic!(
                    "child {}: round {round}: {} failed: [{}] {e}",
                    std::process::id(),
                    call.op,
                    e.code()
                );
            }
        }
    }
    true
}

/// Start the test binary again as a child running `job` (its test named `child`).
pub fn spawn_child(job: &Job, claude_dir: &Path) -> Child {
    Command::new(std::env::current_exe().unwrap())
        .args([
            CHILD_TEST,
            "--exact",
            "--nocapture",
            "--test-threads=1",
            "-q",
        ])
        .env(CHILD_ENV, serde_json::to_string(job).unwrap())
        .env("CLAUDE_CONFIG_DIR", claude_dir)
        .env("CC_SEARCH_HOME", &job.home)
        .env("RUST_BACKTRACE", "0")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Wait for a child and fail, with its stderr, unless it succeeded.
pub fn expect_success(child: Child, what: &str) {
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{what}: child failed ({}):\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
}

// ─────────────────────────────── checks ───────────────────────────────

/// Every SQLite database below `home` (`*.db`, also in `code/`).
pub fn databases(home: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for dir in [home.to_path_buf(), home.join("code")] {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.extension().is_some_and(|e| e == "db") {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// A connection to `path` with sqlite-vec available (for the `vec0` tables).
pub fn connect(path: &Path) -> Connection {
    cc_search::store::register_sqlite_vec();
    let conn = Connection::open(path).unwrap();
    conn.busy_timeout(std::time::Duration::from_secs(30))
        .unwrap();
    conn
}

/// The structural checks of one database: `PRAGMA integrity_check` is `ok`, foreign keys
/// hold, every FTS5 index agrees with its content, and a chunk store's windows and
/// vectors match one to one. Returns what is wrong (empty: nothing).
pub fn check_database(path: &Path) -> Vec<String> {
    let conn = connect(path);
    let mut problems = Vec::new();
    let integrity: Vec<String> = conn
        .prepare("PRAGMA integrity_check")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap();
    if integrity != ["ok"] {
        problems.push(format!("integrity_check: {integrity:?}"));
    }
    let fk: Vec<String> = conn
        .prepare("PRAGMA foreign_key_check")
        .unwrap()
        .query_map([], |r| r.get::<_, String>(0))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap();
    if !fk.is_empty() {
        problems.push(format!("foreign_key_check: rows of {fk:?}"));
    }
    let fts: Vec<String> = conn
        .prepare(
            "SELECT name FROM sqlite_schema WHERE type = 'table' \
             AND sql LIKE 'CREATE VIRTUAL TABLE%USING fts5%'",
        )
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap();
    for table in fts {
        if let Err(e) = conn.execute(
            &format!("INSERT INTO \"{table}\" (\"{table}\") VALUES ('integrity-check')"),
            [],
        ) {
            problems.push(format!("{table}: FTS5 integrity-check: {e}"));
        }
    }
    if table_exists(&conn, "chunk_windows") {
        let q = |sql: &str| -> i64 { conn.query_row(sql, [], |r| r.get(0)).unwrap() };
        let orphans = q("SELECT count(*) FROM chunk_windows \
             WHERE id NOT IN (SELECT window_id FROM chunk_vectors)");
        let strays = q("SELECT count(*) FROM chunk_vectors \
             WHERE window_id NOT IN (SELECT id FROM chunk_windows)");
        // Kinds the store searches by keyword only (a window budget of 0: sessions' tool
        // chunks) are marked embedded with no windows.
        let keyword_only: Vec<&str> = if path.file_name().is_some_and(|n| n == "sessions.db") {
            cc_search::sessions::WINDOW_BUDGET
                .iter()
                .filter(|(_, n)| *n == 0)
                .map(|(kind, _)| *kind)
                .collect()
        } else {
            Vec::new()
        };
        let unmarked: i64 = conn
            .query_row(
                "SELECT count(*) FROM chunks WHERE embedded = 1 \
                 AND id NOT IN (SELECT chunk_id FROM chunk_windows) \
                 AND kind NOT IN (SELECT value FROM json_each(?1))",
                [serde_json::to_string(&keyword_only).unwrap()],
                |r| r.get(0),
            )
            .unwrap();
        if orphans + strays + unmarked > 0 {
            problems.push(format!(
                "chunk store: {orphans} windows without a vector, {strays} vectors without \
                 a window, {unmarked} embedded chunks without windows"
            ));
        }
    }
    problems
}

fn table_exists(conn: &Connection, name: &str) -> bool {
    conn.query_row(
        "SELECT count(*) FROM sqlite_schema WHERE name = ?1",
        [name],
        |r| r.get::<_, i64>(0),
    )
    .unwrap()
        > 0
}

/// Columns that hold when something was done rather than what is indexed, and row ids
/// (which depend on the order rows were written in): left out of the generic dump.
const NOT_CONTENT: &[&str] = &[
    "indexed_at",
    "last_indexed",
    "walked_at",
    "full_walk_at",
    "last_seen",
];

/// The logical content of every database below `home`, one sorted list of rows per
/// table (`<db>/<table>` → rows as text): row ids replaced by what they point at,
/// timestamps of the runs left out, vectors in full. Two indexes of the same input
/// have the same dump however their runs went.
pub fn dump(home: &Path) -> BTreeMap<String, Vec<String>> {
    let mut out = BTreeMap::new();
    for path in databases(home) {
        let name = path
            .strip_prefix(home)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        // The code index's file name is a hash of the repository path: the same in
        // every data root, so it is the key as it is.
        let conn = connect(&path);
        let mut put = |table: &str, sql: &str| {
            let mut stmt = conn.prepare(sql).unwrap();
            let n = stmt.column_count();
            let mut rows: Vec<String> = stmt
                .query_map([], |r| {
                    let mut cells = Vec::with_capacity(n);
                    for i in 0..n {
                        cells.push(cell(r.get_ref(i)?));
                    }
                    Ok(cells.join("|"))
                })
                .unwrap()
                .collect::<rusqlite::Result<_>>()
                .unwrap();
            rows.sort();
            out.insert(format!("{name}/{table}"), rows);
        };
        let tables: Vec<(String, String)> = conn
            .prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'table' ORDER BY name")
            .unwrap()
            .query_map([], |r| {
                Ok((
                    r.get(0)?,
                    r.get::<_, Option<String>>(1)?.unwrap_or_default(),
                ))
            })
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        let virtuals: Vec<&str> = tables
            .iter()
            .filter(|(_, sql)| sql.starts_with("CREATE VIRTUAL"))
            .map(|(n, _)| n.as_str())
            .collect();
        let mut lists = None;
        for (table, sql) in &tables {
            let shadow = virtuals.iter().any(|v| table.starts_with(&format!("{v}_")));
            if sql.starts_with("CREATE VIRTUAL") || shadow || table.starts_with("sqlite_") {
                continue;
            }
            match table.as_str() {
                // The chunk store: by key, not by row id.
                "chunks" => put(
                    table,
                    "SELECT key, source, scope, kind, tag, time, title, text, \
                     json_remove(meta, '$.indexed_at'), hex(text_sha256), embedded FROM chunks",
                ),
                "chunk_windows" => put(
                    table,
                    "SELECT c.key, w.position, w.start, w.end \
                     FROM chunk_windows w JOIN chunks c ON c.id = w.chunk_id",
                ),
                // The code index: files by path, symbols by file and position,
                // references by what they link.
                "files" if name.starts_with("code") => put(
                    table,
                    "SELECT rel_path, language, hash, mtime, size FROM files",
                ),
                "symbols" if name.starts_with("code") => put(
                    table,
                    "SELECT f.rel_path, s.name, s.kind, s.line_start, s.line_end, s.signature, \
                     s.doc_comment, s.name_tokens, p.name, p.line_start \
                     FROM symbols s JOIN files f ON f.id = s.file_id \
                     LEFT JOIN symbols p ON p.id = s.parent_symbol_id",
                ),
                "refs" if name.starts_with("code") => put(
                    table,
                    "SELECT f.rel_path, fs.name, fs.line_start, r.to_name, tf.rel_path, \
                     ts.name, ts.line_start, r.kind, r.line \
                     FROM refs r JOIN files f ON f.id = r.file_id \
                     LEFT JOIN symbols fs ON fs.id = r.from_symbol_id \
                     LEFT JOIN symbols ts ON ts.id = r.to_symbol_id \
                     LEFT JOIN files tf ON tf.id = ts.file_id",
                ),
                "file_imports" if name.starts_with("code") => put(
                    table,
                    "SELECT f.rel_path, i.module FROM file_imports i \
                     JOIN files f ON f.id = i.file_id",
                ),
                // A path list: its columns, and whether the snapshot file it names (a
                // new name each time it is written) holds the same list.
                "files_lists" if name == "files.db" => {
                    let mut stmt = conn
                        .prepare(
                            "SELECT root, count, paths, entry_index, snapshot FROM files_lists",
                        )
                        .unwrap();
                    let mut rows: Vec<String> = stmt
                        .query_map([], |r| {
                            let (paths, index): (Vec<u8>, Vec<u8>) = (r.get(2)?, r.get(3)?);
                            let snapshot = r
                                .get::<_, Option<String>>(4)?
                                .and_then(|n| std::fs::read(home.join("files-lists").join(n)).ok());
                            let same = snapshot.is_some_and(|file| {
                                file.len() == 40 + paths.len() + index.len()
                                    && file[32..32 + paths.len()] == paths[..]
                                    && file[32 + paths.len()..file.len() - 8] == index[..]
                            });
                            Ok(format!(
                                "{}|{}|{}|{}|snapshot {}",
                                r.get::<_, String>(0)?,
                                r.get::<_, i64>(1)?,
                                cell(rusqlite::types::ValueRef::Blob(&paths)),
                                cell(rusqlite::types::ValueRef::Blob(&index)),
                                if same { "holds the list" } else { "does not" }
                            ))
                        })
                        .unwrap()
                        .collect::<rusqlite::Result<_>>()
                        .unwrap();
                    rows.sort();
                    lists = Some(rows);
                }
                _ => {
                    let columns: Vec<String> = conn
                        .prepare(&format!("SELECT name FROM pragma_table_info('{table}')"))
                        .unwrap()
                        .query_map([], |r| r.get(0))
                        .unwrap()
                        .collect::<rusqlite::Result<_>>()
                        .unwrap();
                    // Key-value tables (`metadata`, `session_meta`): the same, without
                    // when the last run was.
                    let filter = if columns.iter().any(|c| c == "key") {
                        " WHERE \"key\" <> 'last_indexed'"
                    } else {
                        ""
                    };
                    let kept: Vec<String> = columns
                        .into_iter()
                        .filter(|c| !NOT_CONTENT.contains(&c.as_str()))
                        .map(|c| format!("\"{c}\""))
                        .collect();
                    put(
                        table,
                        &format!("SELECT {} FROM \"{table}\"{filter}", kept.join(", ")),
                    );
                }
            }
        }
        if table_exists(&conn, "chunk_vectors") {
            put(
                "chunk_vectors",
                "SELECT c.key, w.position, v.scope, v.kind, v.tag, v.time, hex(v.embedding) \
                 FROM chunk_vectors v JOIN chunk_windows w ON w.id = v.window_id \
                 JOIN chunks c ON c.id = w.chunk_id",
            );
        }
        if let Some(rows) = lists {
            out.insert(format!("{name}/files_lists"), rows);
        }
    }
    out
}

fn cell(v: rusqlite::types::ValueRef<'_>) -> String {
    use rusqlite::types::ValueRef;
    match v {
        ValueRef::Null => "NULL".into(),
        ValueRef::Integer(i) => i.to_string(),
        ValueRef::Real(f) => format!("{f:?}"),
        ValueRef::Text(t) => String::from_utf8_lossy(t).into_owned(),
        ValueRef::Blob(b) => b.iter().map(|x| format!("{x:02x}")).collect(),
    }
}

/// Fail, naming the first differences, unless two dumps are equal.
pub fn assert_same_dump(
    got: &BTreeMap<String, Vec<String>>,
    want: &BTreeMap<String, Vec<String>>,
    what: &str,
) {
    if got == want {
        return;
    }
    let mut report = Vec::new();
    for key in got
        .keys()
        .chain(want.keys())
        .collect::<std::collections::BTreeSet<_>>()
    {
        let (g, w) = (got.get(key), want.get(key));
        if g == w {
            continue;
        }
        let (g, w) = (
            g.cloned().unwrap_or_default(),
            w.cloned().unwrap_or_default(),
        );
        let missing: Vec<&String> = w.iter().filter(|r| !g.contains(r)).take(3).collect();
        let extra: Vec<&String> = g.iter().filter(|r| !w.contains(r)).take(3).collect();
        report.push(format!(
            "{key}: {} rows, want {}; missing e.g. {:?}; unexpected e.g. {:?}",
            g.len(),
            w.len(),
            missing.iter().map(|s| short(s)).collect::<Vec<_>>(),
            extra.iter().map(|s| short(s)).collect::<Vec<_>>()
        ));
    }
    panic!(
        "{what}: the index differs from a clean one:\n{}",
        report.join("\n")
    );
}

fn short(s: &str) -> String {
    if s.chars().count() > 240 {
        format!("{}…", s.chars().take(240).collect::<String>())
    } else {
        s.to_string()
    }
}
