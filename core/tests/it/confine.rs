//! `within`: the operations that list, read or delete stored indexes answer only about
//! repositories and projects under the given directories (the MCP server sets them to its
//! roots). Each test has one repository or project inside (`world/work/…`) and one
//! outside whose path starts with the same characters (`world/workshop/…`: below by
//! string, not by path components), and checks both sides: without `within` the outside
//! one is seen, with it never.

use std::path::{Path, PathBuf};

use cc_search::Engine;
use serde_json::{Value, json};

use crate::common;
use common::{call, call_err, commit_all, git_at, write};

/// Fixed "now" of the session searches: 2026-03-01T00:00:00Z.
const NOW: i64 = 1_772_323_200;

/// A temporary tree: `work/alpha` (inside `work`) and `workshop/beta` (outside it), both
/// real git repositories, paths canonical.
struct World {
    _dir: tempfile::TempDir,
    root: PathBuf,
    work: PathBuf,
    alpha: PathBuf,
    beta: PathBuf,
}

fn world() -> World {
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    let work = root.join("work");
    let alpha = work.join("alpha");
    let beta = root.join("workshop/beta");
    for (repo, name) in [(&alpha, "alpha"), (&beta, "beta")] {
        std::fs::create_dir_all(repo).unwrap();
        git_at(repo, &["init", "-q", "-b", "main"], 1_700_000_000);
        write(
            repo,
            "src/lib.rs",
            format!("/// Shared helper of {name}.\npub fn shared_helper() -> u32 {{ 1 }}\n"),
        );
        write(repo, "docs/notes.md", format!("# Notes of {name}\n"));
        commit_all(repo, "first", 1_700_000_000);
    }
    World {
        _dir: dir,
        work,
        alpha,
        beta,
        root,
    }
}

fn s(path: &Path) -> String {
    path.to_str().unwrap().to_string()
}

/// An engine in a fresh home that searches sessions by keyword only.
fn engine() -> (tempfile::TempDir, Engine) {
    let home = tempfile::tempdir().unwrap();
    common::keyword_only(home.path());
    let engine = Engine::open_at(home.path()).unwrap();
    (home, engine)
}

// ─────────────────────────────────────── code ───────────────────────────────────────

fn listed(engine: &Engine, params: Value) -> Vec<String> {
    call(engine, "code.list_repos", params)["repos"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["path"].as_str().unwrap().to_string())
        .collect()
}

fn indexed_world() -> (World, tempfile::TempDir, Engine) {
    let w = world();
    let (home, engine) = engine();
    for repo in [&w.alpha, &w.beta] {
        call(&engine, "code.index_repository", json!({"path": s(repo)}));
    }
    (w, home, engine)
}

#[test]
fn list_repos_lists_only_repositories_within() {
    let (w, _home, engine) = indexed_world();
    // Unconfined: both.
    assert_eq!(listed(&engine, json!({})), [s(&w.alpha), s(&w.beta)]);
    assert_eq!(
        listed(&engine, json!({"within": []})),
        [s(&w.alpha), s(&w.beta)]
    );
    // `work` holds alpha; `workshop/beta` only starts with the same characters.
    assert_eq!(
        listed(&engine, json!({"within": [s(&w.work)]})),
        [s(&w.alpha)]
    );
    // A repository root itself is within; a directory inside it, or a sibling, is not.
    assert_eq!(
        listed(&engine, json!({"within": [s(&w.alpha)]})),
        [s(&w.alpha)]
    );
    assert!(listed(&engine, json!({"within": [s(&w.alpha.join("src"))]})).is_empty());
    assert!(listed(&engine, json!({"within": [s(&w.root.join("nowhere"))]})).is_empty());
    // Several directories: each one's repositories.
    assert_eq!(
        listed(&engine, json!({"within": [s(&w.beta), s(&w.work)]})),
        [s(&w.alpha), s(&w.beta)]
    );
    // A link to `work` is compared canonical.
    std::os::unix::fs::symlink(&w.work, w.root.join("link")).unwrap();
    assert_eq!(
        listed(&engine, json!({"within": [s(&w.root.join("link"))]})),
        [s(&w.alpha)]
    );
}

#[test]
fn delete_repos_all_deletes_only_repositories_within() {
    let (w, _home, engine) = indexed_world();
    let within = json!([s(&w.work)]);
    let gone = call(
        &engine,
        "code.delete_repos",
        json!({"all": true, "within": within}),
    );
    assert_eq!(gone["deleted"], json!([s(&w.alpha)]));
    assert_eq!(listed(&engine, json!({})), [s(&w.beta)]);
    assert!(cc_search::code::db_path(engine.home(), &w.beta).exists());
    // Nothing left within: nothing deleted.
    let again = call(
        &engine,
        "code.delete_repos",
        json!({"all": true, "within": within}),
    );
    assert_eq!(again["deleted"], json!([]));
    assert_eq!(listed(&engine, json!({})), [s(&w.beta)]);
    // Unconfined, `all` is everything.
    let all = call(&engine, "code.delete_repos", json!({"all": true}));
    assert_eq!(all["deleted"], json!([s(&w.beta)]));
    assert!(listed(&engine, json!({})).is_empty());
}

#[test]
fn delete_repos_refuses_a_path_outside_within_and_deletes_nothing() {
    let (w, _home, engine) = indexed_world();
    let within = json!([s(&w.work)]);
    for paths in [json!([s(&w.beta)]), json!([s(&w.alpha), s(&w.beta)])] {
        let err = call_err(
            &engine,
            "code.delete_repos",
            json!({"paths": paths, "within": within}),
        );
        assert_eq!(err.code(), "invalid_request");
        assert!(err.to_string().contains(&s(&w.beta)), "{err}");
        assert_eq!(listed(&engine, json!({})), [s(&w.alpha), s(&w.beta)]);
    }
    // With `all` too: refused before anything is deleted.
    let err = call_err(
        &engine,
        "code.delete_repos",
        json!({"all": true, "paths": [s(&w.beta)], "within": within}),
    );
    assert_eq!(err.code(), "invalid_request");
    assert_eq!(listed(&engine, json!({})), [s(&w.alpha), s(&w.beta)]);
    // A path within is deleted; so is one outside when nothing confines.
    let gone = call(
        &engine,
        "code.delete_repos",
        json!({"paths": [s(&w.alpha)], "within": within}),
    );
    assert_eq!(gone["deleted"], json!([s(&w.alpha)]));
    let gone = call(&engine, "code.delete_repos", json!({"paths": [s(&w.beta)]}));
    assert_eq!(gone["deleted"], json!([s(&w.beta)]));
    assert!(listed(&engine, json!({})).is_empty());
}

// ───────────────────────────────────── sessions ─────────────────────────────────────

/// One transcript of `prompts` prompt groups (each a prompt and a reply), in project
/// `cwd`, the first at `start`, one hour apart.
fn transcript(session: &str, cwd: &Path, start: i64, prompts: &[&str]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut parent: Option<String> = None;
    for (i, prompt) in prompts.iter().enumerate() {
        let time = start + i as i64 * 3600;
        let stamp = |t: i64| cc_search::time::format_rfc3339(t);
        let user = format!("{session}-u{i}");
        let reply = format!("{session}-a{i}");
        for line in [
            json!({"type": "user", "uuid": user, "parentUuid": parent, "sessionId": session,
                "cwd": s(cwd), "timestamp": stamp(time),
                "message": {"role": "user", "content": prompt}}),
            json!({"type": "assistant", "uuid": reply, "parentUuid": user, "sessionId": session,
                "cwd": s(cwd), "timestamp": stamp(time + 5),
                "message": {"id": format!("msg-{reply}"), "type": "message", "role": "assistant",
                    "content": [{"type": "text", "text": format!("Answered: {prompt}")}]}}),
        ] {
            out.extend(line.to_string().bytes());
            out.push(b'\n');
        }
        parent = Some(reply);
    }
    out
}

/// Sessions of alpha (inside `work`: three older prompts on the zeppelin) and of beta
/// (outside: five newer ones, so unconfined they rank first), indexed.
fn sessions_world() -> (World, tempfile::TempDir, tempfile::TempDir, Engine) {
    let w = world();
    let projects = tempfile::tempdir().unwrap();
    write(
        &projects.path().join("-alpha"),
        "aaaaaaaa-0000-4000-8000-000000000001.jsonl",
        transcript(
            "aaaaaaaa-0000-4000-8000-000000000001",
            &w.alpha,
            NOW - 20 * 86_400,
            &[
                "zeppelin mooring plan for alpha",
                "zeppelin ballast question for alpha",
                "zeppelin route review for alpha",
            ],
        ),
    );
    write(
        &projects.path().join("-beta"),
        "bbbbbbbb-0000-4000-8000-000000000002.jsonl",
        transcript(
            "bbbbbbbb-0000-4000-8000-000000000002",
            &w.beta,
            NOW - 86_400,
            &[
                "zeppelin zeppelin secrets of beta",
                "zeppelin zeppelin hangar of beta",
                "zeppelin zeppelin crew of beta",
                "zeppelin zeppelin fuel of beta",
                "zeppelin zeppelin tickets of beta",
            ],
        ),
    );
    let (home, engine) = engine();
    let indexed = call(
        &engine,
        "sessions.index",
        json!({"projects_dir": s(projects.path())}),
    );
    assert_eq!(indexed["sessions"], 2, "{indexed}");
    (w, home, projects, engine)
}

fn session_search(engine: &Engine, extra: Value) -> Value {
    let mut params = json!({"query": "zeppelin", "mode": "keyword", "now": NOW, "limit": 3});
    for (k, v) in extra.as_object().unwrap() {
        params[k] = v.clone();
    }
    call(engine, "sessions.search", params)
}

fn hit_projects(found: &Value) -> Vec<String> {
    found["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["project"].as_str().unwrap().to_string())
        .collect()
}

/// A session recorded on Windows (`C:\\…\\alpha\\src`) belongs to the project of that
/// name here: found within `alpha` (and `work`, which holds it), not within `beta`.
#[cfg(not(windows))]
#[test]
fn sessions_recorded_on_another_system_are_reached_from_the_project_of_that_name() {
    let w = world();
    let projects = tempfile::tempdir().unwrap();
    let windows = Path::new(r"C:\Users\me\code\Alpha\src");
    write(
        &projects.path().join("C--Users-me-code-Alpha-src"),
        "cccccccc-0000-4000-8000-000000000003.jsonl",
        transcript(
            "cccccccc-0000-4000-8000-000000000003",
            windows,
            NOW - 86_400,
            &["zeppelin plan written on windows"],
        ),
    );
    let (_home, engine) = engine();
    call(
        &engine,
        "sessions.index",
        json!({"projects_dir": s(projects.path())}),
    );
    for (within, found) in [(&w.alpha, true), (&w.work, false), (&w.beta, false)] {
        let hits = session_search(&engine, json!({"within": [s(within)]}));
        let projects = hit_projects(&hits);
        assert_eq!(
            !projects.is_empty() && projects.iter().all(|p| *p == s(windows)),
            found,
            "{}: {hits}",
            within.display()
        );
    }
    let status = call(&engine, "sessions.status", json!({"within": [s(&w.alpha)]}));
    assert_eq!(status["sessions"], 1, "{status}");
    // Named with either separator, from anywhere.
    for project in ["code/alpha", r"Code\Alpha\SRC", "*"] {
        let hits = session_search(&engine, json!({"project": project}));
        let projects = hit_projects(&hits);
        assert!(
            !projects.is_empty() && projects.iter().all(|p| *p == s(windows)),
            "{project}: {hits}"
        );
    }
    // `*` within a directory is that directory's.
    let hits = session_search(&engine, json!({"project": "*", "within": [s(&w.beta)]}));
    assert!(hit_projects(&hits).is_empty(), "{hits}");
}

#[test]
fn session_search_returns_only_projects_within_and_still_fills_the_limit() {
    let (w, _home, _projects, engine) = sessions_world();
    // Unconfined, beta's newer sessions fill the first places.
    let all = session_search(&engine, json!({}));
    let projects = hit_projects(&all);
    assert_eq!(projects.len(), 3, "{all}");
    assert!(projects.contains(&s(&w.beta)), "{all}");
    // Confined to `work`: alpha only, and still `limit` of them (filtered inside the
    // retrieval, not cut after it).
    let within = session_search(&engine, json!({"within": [s(&w.work)]}));
    assert_eq!(hit_projects(&within), vec![s(&w.alpha); 3], "{within}");
    // A project filter naming the outside project finds nothing, as an unknown one.
    let named = session_search(
        &engine,
        json!({"within": [s(&w.work)], "project": "workshop"}),
    );
    assert!(named["results"].as_array().unwrap().is_empty(), "{named}");
    assert_eq!(
        named["warnings"],
        json!(["No sessions found for project workshop"])
    );
    let unknown = session_search(
        &engine,
        json!({"within": [s(&w.work)], "project": "no-such-project"}),
    );
    assert_eq!(
        unknown["warnings"],
        json!(["No sessions found for project no-such-project"])
    );
    // The filter and `within` together: their intersection.
    let both = session_search(&engine, json!({"within": [s(&w.work)], "project": "alpha"}));
    assert_eq!(hit_projects(&both), vec![s(&w.alpha); 3], "{both}");
    // Nothing within: no results.
    let none = session_search(&engine, json!({"within": [s(&w.root.join("nowhere"))]}));
    assert!(none["results"].as_array().unwrap().is_empty(), "{none}");
}

#[test]
fn session_chunk_of_another_project_is_an_unknown_id() {
    let (w, _home, _projects, engine) = sessions_world();
    let within = json!([s(&w.work)]);
    let id_of = |found: Value, project: &Path| -> String {
        found["results"]
            .as_array()
            .unwrap()
            .iter()
            .find(|h| h["project"] == s(project))
            .unwrap_or_else(|| panic!("no hit of {}: {found}", project.display()))["id"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let inside = id_of(session_search(&engine, json!({"within": within})), &w.alpha);
    let outside = id_of(session_search(&engine, json!({})), &w.beta);
    // Unconfined, both are shown.
    for id in [&inside, &outside] {
        let chunk = call(&engine, "sessions.chunk", json!({"id": id}));
        assert_eq!(chunk["id"], json!(id));
    }
    let chunk = call(
        &engine,
        "sessions.chunk",
        json!({"id": inside, "within": within}),
    );
    assert_eq!(chunk["project"], json!(s(&w.alpha)));
    // Outside: exactly the answer of an id that does not exist.
    let err = call_err(
        &engine,
        "sessions.chunk",
        json!({"id": outside, "within": within}),
    );
    let missing = call_err(
        &engine,
        "sessions.chunk",
        json!({"id": "0123abcd", "within": within}),
    );
    assert_eq!(err.code(), missing.code());
    assert_eq!(
        err.to_string(),
        missing.to_string().replace("0123abcd", &outside)
    );
    // Every one-character prefix: never ambiguous because of chunks outside, never
    // answered with one of them.
    for c in "0123456789abcdef".chars() {
        match engine.call(
            "sessions.chunk",
            &json!({"id": c.to_string(), "within": within}).to_string(),
        ) {
            Ok(out) => {
                let chunk: Value = serde_json::from_str(&out).unwrap();
                assert_eq!(chunk["project"], json!(s(&w.alpha)));
            }
            Err(e) => {
                let message = e.to_string();
                assert!(!message.contains(&outside[..8]), "{message}");
            }
        }
    }
}

#[test]
fn session_status_counts_only_projects_within() {
    let (w, _home, _projects, engine) = sessions_world();
    let all = call(&engine, "sessions.status", json!({}));
    assert_eq!(all["sessions"], 2);
    assert_eq!(
        all["projects"],
        json!([{"project": s(&w.alpha), "sessions": 1}, {"project": s(&w.beta), "sessions": 1}])
    );
    // Each prompt group gives a `user` and an `assistant` chunk: 3 of alpha, 5 of beta.
    assert_eq!(all["chunks"], 16);
    assert_eq!(all["chunks_by_kind"], json!({"assistant": 8, "user": 8}));

    let within = call(&engine, "sessions.status", json!({"within": [s(&w.work)]}));
    assert_eq!(within["sessions"], 1, "{within}");
    assert_eq!(within["subagents"], 0);
    assert_eq!(
        within["projects"],
        json!([{"project": s(&w.alpha), "sessions": 1}])
    );
    assert_eq!(within["chunks"], 6);
    assert_eq!(within["chunks_by_kind"], json!({"assistant": 3, "user": 3}));
    // No model: nothing is embedded, so every chunk counted is pending.
    assert_eq!(within["pending_vectors"], 6);
    // What belongs to the index as a whole stays.
    for key in [
        "db_path",
        "projects_dir",
        "index_bytes",
        "model",
        "last_indexed",
    ] {
        assert_eq!(within[key], all[key], "{key}");
    }
    let none = call(
        &engine,
        "sessions.status",
        json!({"within": [s(&w.root.join("nowhere"))]}),
    );
    assert_eq!(none["sessions"], 0);
    assert_eq!(none["projects"], json!([]));
    assert_eq!(none["chunks"], 0);
    assert_eq!(none["chunks_by_kind"], json!({}));
}

// ─────────────────────────────────────── files ──────────────────────────────────────

/// Alpha's picker sees beta as an additional directory and through namespaces: `@beta:`
/// (beta's root) and `@world:` (the whole tree, alpha included). Beta has many more
/// files matching `notes` than alpha.
fn files_world() -> (World, tempfile::TempDir, Engine) {
    let w = world();
    for i in 0..20 {
        write(&w.beta, &format!("notes{i:02}.md"), "x");
    }
    write(&w.alpha, "deep/er/still/notes-of-alpha.txt", "x");
    write(
        &w.alpha,
        ".claude/settings.json",
        json!({"permissions": {"additionalDirectories": [s(&w.beta)]}}).to_string(),
    );
    let home = tempfile::tempdir().unwrap();
    write(
        home.path(),
        "config.toml",
        format!(
            "[namespaces]\nbeta = {:?}\nworld = {:?}\n",
            s(&w.beta),
            s(&w.root)
        ),
    );
    let engine = Engine::open_at(home.path()).unwrap();
    (w, home, engine)
}

fn suggest(engine: &Engine, w: &World, query: &str, extra: Value) -> Vec<String> {
    let mut params = json!({"query": query, "project_dir": s(&w.alpha), "budget_ms": 60_000});
    for (k, v) in extra.as_object().unwrap() {
        params[k] = v.clone();
    }
    let found = call(engine, "files.suggest", params);
    found["paths"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap().to_string())
        .collect()
}

fn sorted(mut paths: Vec<String>) -> Vec<String> {
    paths.sort();
    paths
}

fn from_beta(paths: &[String]) -> Vec<&String> {
    paths.iter().filter(|p| p.contains("workshop")).collect()
}

#[test]
fn suggest_returns_only_paths_within() {
    let (w, _home, engine) = files_world();
    let within = json!({"within": [s(&w.alpha)]});
    // The additional directory: unconfined, beta's notes crowd the list.
    let all = suggest(&engine, &w, "notes", json!({}));
    assert!(from_beta(&all).len() >= 10, "{all:?}");
    let confined = suggest(&engine, &w, "notes", within.clone());
    assert_eq!(
        sorted(confined),
        ["deep/er/still/notes-of-alpha.txt", "docs/notes.md"]
    );
    // Within the limit too: beta's better matches do not take alpha's places.
    let two = suggest(
        &engine,
        &w,
        "notes",
        json!({"within": [s(&w.alpha)], "limit": 2}),
    );
    assert_eq!(two.len(), 2, "{two:?}");
    assert!(from_beta(&two).is_empty(), "{two:?}");
    // An empty query (the top files), a glob, a folder prefix.
    for query in ["", "@*.md", "@/docs:"] {
        let all = suggest(&engine, &w, query, json!({}));
        assert!(!from_beta(&all).is_empty(), "{query:?}: {all:?}");
        let confined = suggest(&engine, &w, query, within.clone());
        assert!(!confined.is_empty(), "{query:?}");
        assert!(from_beta(&confined).is_empty(), "{query:?}: {confined:?}");
    }
    // A namespace rooted outside: nothing.
    let all = suggest(&engine, &w, "@beta:notes", json!({}));
    assert!(!all.is_empty());
    assert!(suggest(&engine, &w, "@beta:notes", within.clone()).is_empty());
    assert!(suggest(&engine, &w, "@beta:", within.clone()).is_empty());
    // A namespace rooted above: only what lies within.
    let all = suggest(&engine, &w, "@world:notes", json!({}));
    assert!(!from_beta(&all).is_empty(), "{all:?}");
    let confined = suggest(&engine, &w, "@world:notes", within.clone());
    assert_eq!(
        sorted(confined),
        ["deep/er/still/notes-of-alpha.txt", "docs/notes.md"]
    );
    // A fuzzy query, scored from the whole tree's path list.
    let all = suggest(&engine, &w, "@world:nts", json!({}));
    assert!(!from_beta(&all).is_empty(), "{all:?}");
    let confined = suggest(&engine, &w, "@world:nts", within.clone());
    assert!(!confined.is_empty());
    assert!(from_beta(&confined).is_empty(), "{confined:?}");
    let listed = suggest(&engine, &w, "@world:", within.clone());
    assert!(!listed.is_empty());
    assert!(from_beta(&listed).is_empty(), "{listed:?}");
}

#[test]
fn suggest_within_other_directories_leaves_the_project_out() {
    let (w, _home, engine) = files_world();
    // Confined to beta, alpha's own files are not answered, beta's are (absolute).
    let found = suggest(&engine, &w, "notes", json!({"within": [s(&w.beta)]}));
    assert!(!found.is_empty());
    assert_eq!(from_beta(&found).len(), found.len(), "{found:?}");
    // Confined to a directory with no files: nothing.
    std::fs::create_dir_all(w.work.join("empty")).unwrap();
    let none = suggest(
        &engine,
        &w,
        "notes",
        json!({"within": [s(&w.work.join("empty"))]}),
    );
    assert!(none.is_empty(), "{none:?}");
}

#[test]
fn suggest_within_a_directory_of_the_project_keeps_to_it() {
    let (w, _home, engine) = files_world();
    write(&w.alpha, "docs/deep/more-notes.txt", "x");
    let within = json!({"within": [s(&w.alpha.join("docs"))]});
    // The words (FTS), an abbreviation (the fuzzy scan of the project's path list), the
    // top files, a folder and a glob (listings of what passes the filter).
    for query in ["notes", "nts", "", "@/deep:", "@*.txt", "@world:nts"] {
        let all = suggest(&engine, &w, query, json!({}));
        assert!(
            all.iter().any(|p| !p.starts_with("docs/")),
            "{query:?}: {all:?}"
        );
        let confined = suggest(&engine, &w, query, within.clone());
        assert!(!confined.is_empty(), "{query:?}");
        assert!(
            confined.iter().all(|p| p.starts_with("docs/")),
            "{query:?}: {confined:?}"
        );
    }
}

// ──────────────────────────────── through the MCP server ────────────────────────────────

/// A server rooted at `work` fills `within` itself: with every tool offered, nothing
/// stored for `workshop/beta` is listed, found, shown or deleted, though the same engine
/// holds it — except the sessions a call asks for by naming their project.
#[test]
fn an_mcp_server_answers_only_for_its_roots() {
    use cc_search::mcp::{Server, ServerOptions};
    let w = world();
    let (home, engine) = engine();
    for repo in [&w.alpha, &w.beta] {
        call(&engine, "code.index_repository", json!({"path": s(repo)}));
    }
    let transcripts = w.work.join("transcripts");
    for (session, cwd, who) in [
        ("aaaaaaaa-0000-4000-8000-000000000001", &w.alpha, "alpha"),
        ("bbbbbbbb-0000-4000-8000-000000000002", &w.beta, "beta"),
    ] {
        write(
            &transcripts.join(format!("-{who}")),
            &format!("{session}.jsonl"),
            transcript(
                session,
                cwd,
                NOW - 86_400,
                &[&format!("zeppelin plan of {who}")],
            ),
        );
    }
    call(
        &engine,
        "sessions.index",
        json!({"projects_dir": s(&transcripts)}),
    );
    let beta_chunk = session_search(&engine, json!({"project": "workshop"}))["results"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let server = Server::new(
        std::sync::Arc::new(engine),
        ServerOptions {
            roots: vec![w.work.clone()],
            tools: vec!["all".into()],
            ..Default::default()
        },
    )
    .unwrap();
    let tool = |name: &str, arguments: Value| -> (bool, String) {
        let message = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": name, "arguments": arguments}});
        let reply: Value =
            serde_json::from_str(&server.handle(&message.to_string()).unwrap()).unwrap();
        let result = &reply["result"];
        (
            result["isError"] == true,
            result["content"][0]["text"].as_str().unwrap().to_string(),
        )
    };
    let beta = s(&w.beta);

    let (error, text) = tool("code_list_repos", json!({}));
    assert!(
        !error && text.contains(&s(&w.alpha)) && !text.contains(&beta),
        "{text}"
    );

    let (error, text) = tool(
        "sessions_search",
        json!({"query": "zeppelin", "mode": "keyword", "now": NOW, "projects_dir": "transcripts"}),
    );
    assert!(!error && text.contains("zeppelin plan of alpha"), "{text}");
    assert!(!text.contains("beta"), "{text}");
    // Another project's sessions, when the call names it (part of its path, or `*`).
    for (project, alpha) in [("workshop", false), ("*", true)] {
        let (error, text) = tool(
            "sessions_search",
            json!({"query": "zeppelin", "mode": "keyword", "now": NOW, "project": project}),
        );
        assert!(!error && text.contains("zeppelin plan of beta"), "{text}");
        assert_eq!(text.contains("zeppelin plan of alpha"), alpha, "{text}");
    }
    // What such a search found can be read whole.
    let (error, text) = tool("sessions_chunk", json!({"id": beta_chunk}));
    assert!(!error && text.contains("zeppelin plan of beta"), "{text}");
    // Asking for a `within` outside the roots is still refused.
    let (error, text) = tool(
        "sessions_search",
        json!({"query": "zeppelin", "project": "*", "within": [beta]}),
    );
    assert!(error && text.contains("outside"), "{text}");
    let (error, text) = tool("sessions_status", json!({}));
    assert!(!error && !text.contains(&beta), "{text}");
    let value: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(value["sessions"], 1, "{text}");

    let (error, text) = tool("files_suggest", json!({"query": format!("@{beta}:notes")}));
    assert!(!error && !text.contains("notes.md"), "{text}");

    // Asking for the outside one by name is refused; `all` deletes only what is inside.
    let (error, text) = tool("code_delete_repos", json!({"paths": [beta]}));
    assert!(error && text.contains("outside"), "{text}");
    let (error, text) = tool("code_list_repos", json!({"within": [beta]}));
    assert!(error && text.contains("outside"), "{text}");
    let (error, text) = tool("code_delete_repos", json!({"all": true}));
    assert!(!error && !text.contains(&beta), "{text}");
    assert!(cc_search::code::db_path(home.path(), &w.beta).exists());
}
