//! The `@` picker end to end: prefixes, scope, fuzzy matching, fresh files, fallbacks.

use std::fs;
use std::path::Path;

use cc_search::Engine;
use cc_search::files::{Refresh, RefreshRequest, Suggest, SuggestRequest, SuggestResponse};

fn touch(root: &Path, rel: &str) {
    let path = root.join(rel);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    let content: &[u8] = if rel.ends_with(".json") { b"{}" } else { b"x" };
    fs::write(path, content).unwrap();
}

struct Picker {
    home: tempfile::TempDir,
    project: tempfile::TempDir,
    engine: Engine,
}

fn picker(files: &[&str], config: &str) -> Picker {
    let home = tempfile::tempdir().unwrap();
    let project = tempfile::tempdir().unwrap();
    for rel in files {
        touch(project.path(), rel);
    }
    fs::write(home.path().join("config.toml"), config).unwrap();
    let engine = Engine::open_at(home.path()).unwrap();
    assert!(engine.warnings().is_empty(), "{:?}", engine.warnings());
    let p = Picker {
        home,
        project,
        engine,
    };
    p.refresh();
    p
}

impl Picker {
    fn refresh(&self) {
        self.engine
            .run::<Refresh>(RefreshRequest {
                root: Some(self.project.path().into()),
                ..Default::default()
            })
            .unwrap();
    }

    fn ask(&self, query: &str) -> SuggestResponse {
        self.engine
            .run::<Suggest>(SuggestRequest {
                query: query.into(),
                project_dir: Some(self.project.path().into()),
                ..Default::default()
            })
            .unwrap()
    }

    fn paths(&self, query: &str) -> Vec<String> {
        self.ask(query).paths
    }
}

const APP: &[&str] = &[
    "src/components/Button.tsx",
    "src/components/Modal.tsx",
    "src/components/index.ts",
    "src/hooks/useAuth.ts",
    "lib/.hooks/useTheme.ts",
    "docs/api.md",
    "docs/guide.txt",
    "README.md",
    "CHANGELOG.md",
    "package.json",
    ".claude/settings.json",
    "tools/claude/prompt.txt",
    "lsp.lua",
    "lsp/typos_lsp.lua",
    "@types/node.d.ts",
];

const NAMESPACES: &str = r#"
[namespaces]
claude = [".claude/**", "**/claude/**"]
docs = ["docs/**", "*.md", "README*"]
"#;

#[test]
fn fuzzy_queries_find_the_file() {
    let p = picker(APP, "");
    for q in [
        "buton",
        "src/comp/buton",
        "compbutton",
        "Button",
        "butt",
        "scbutt",
    ] {
        assert_eq!(
            p.paths(q).first().map(String::as_str),
            Some("src/components/Button.tsx"),
            "{q}"
        );
    }
    assert_eq!(p.paths("lsp")[..2], ["lsp.lua", "lsp/typos_lsp.lua"]);
    assert_eq!(p.paths("useauth")[0], "src/hooks/useAuth.ts");
    assert_eq!(p.paths("components")[0], "src/components/index.ts");
}

/// A tree like this repository's: the files the issue's typos were meant for, and
/// session logs with long names whose letters scatter every query.
const REPO: &[&str] = &[
    "core/src/hybrid.rs",
    "core/src/config.rs",
    "core/src/engine.rs",
    "core/src/code/config.rs",
    "core/tests/hybrid.rs",
    "src/components/Button.tsx",
    "README.md",
    "bindings/python/README.md",
    "bindings/node/README.md",
    "tests/fixtures/sessions/README.md",
    "tests/fixtures/sessions/real/README.md",
    "tests/fixtures/sessions/edge-cases/task_id_linking_real_world_bash.jsonl",
    "tests/fixtures/sessions/edge-cases/async_agents/eb00-4000-8000/subagents/agent-cccc333.jsonl",
    "tests/fixtures/sessions/real/remote_edit_admin_mode_file.jsonl",
    "tests/fixtures/sessions/real/read_only_media_sidechain_export.jsonl",
    "tests/fixtures/sessions/edge-cases/reader_and_mailbox_edge.jsonl",
];

#[test]
fn swapped_wrong_and_extra_letters_find_the_file() {
    let p = picker(REPO, "");
    for (query, file) in [
        ("hybird", "core/src/hybrid.rs"),  // two letters swapped
        ("hyrbid", "core/src/hybrid.rs"),  // two letters swapped
        ("cofnig", "core/src/config.rs"),  // two letters swapped
        ("confiq", "core/src/config.rs"),  // one wrong letter
        ("configg", "core/src/config.rs"), // one letter too many
        ("egnine", "core/src/engine.rs"),  // first two swapped
        ("engien", "core/src/engine.rs"),  // last two swapped
        ("reafme", "README.md"),           // one wrong letter
        ("src/compnoents/button", "src/components/Button.tsx"), // in a directory
    ] {
        let got = p.paths(query);
        assert_eq!(
            got.first().map(String::as_str),
            Some(file),
            "{query}: {got:?}"
        );
    }
    // What is one edit from neither, nor a subsequence of anything, finds nothing.
    assert_eq!(p.paths("hbyrdi"), Vec::<String>::new());
}

#[test]
fn a_typo_ranks_below_an_exact_match() {
    let p = picker(
        &["src/hybrid.rs", "src/hybird.rs", "src/hybird_test.rs"],
        "",
    );
    assert_eq!(
        p.paths("hybird"),
        ["src/hybird.rs", "src/hybird_test.rs", "src/hybrid.rs"]
    );
}

#[test]
fn scattered_matches_rank_below_every_tight_one() {
    // The session logs are lifted as frecency would lift files in use; still, letters
    // merely occurring in order along their paths do not put them before a file whose
    // name is the query.
    let p = picker(REPO, "[priorities]\nhigh = [\"**/*.jsonl\"]\n");
    assert_eq!(
        p.paths("engine"),
        [
            "core/src/engine.rs",
            "tests/fixtures/sessions/edge-cases/task_id_linking_real_world_bash.jsonl",
        ]
    );
    let got = p.paths("mode");
    assert_eq!(
        got[0],
        "tests/fixtures/sessions/real/remote_edit_admin_mode_file.jsonl"
    );
    assert_eq!(
        got.last().map(String::as_str),
        Some("tests/fixtures/sessions/edge-cases/reader_and_mailbox_edge.jsonl"),
        "{got:?}"
    );
    let got = p.paths("readme");
    let readmes = REPO.iter().filter(|f| f.ends_with("README.md")).count();
    assert_eq!(got[0], "README.md", "{got:?}");
    assert!(
        got[..readmes].iter().all(|f| f.ends_with("README.md")),
        "{got:?}"
    );
    // A typo of the name still beats letters scattered over a long path.
    let got = p.paths("egnine");
    assert_eq!(got[0], "core/src/engine.rs", "{got:?}");
}

#[test]
fn folder_prefix_matches_folder_and_dot_folder() {
    let p = picker(APP, "");
    let mut hooks = p.paths("@/hooks:");
    hooks.sort();
    assert_eq!(hooks, ["lib/.hooks/useTheme.ts", "src/hooks/useAuth.ts"]);
    assert_eq!(p.paths("@/hooks:theme"), ["lib/.hooks/useTheme.ts"]);
    let mut claude = p.paths("@/claude:");
    claude.sort();
    assert_eq!(claude, [".claude/settings.json", "tools/claude/prompt.txt"]);
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

#[test]
fn inline_glob_and_namespaces() {
    let p = picker(APP, NAMESPACES);
    assert_eq!(
        sorted(p.paths("@*.md")),
        ["CHANGELOG.md", "README.md", "docs/api.md"]
    );
    assert_eq!(sorted(p.paths("@*.lua")), ["lsp.lua", "lsp/typos_lsp.lua"]);
    assert_eq!(
        sorted(p.paths("@docs:")),
        ["CHANGELOG.md", "README.md", "docs/api.md", "docs/guide.txt"]
    );
    assert_eq!(p.paths("@docs:guide"), ["docs/guide.txt"]);
    assert_eq!(
        sorted(p.paths("@claude:")),
        [".claude/settings.json", "tools/claude/prompt.txt"]
    );
    // An unknown namespace is a plain query for its text, with a warning naming the
    // namespaces there are.
    let plain = p.ask("@nope:readme");
    assert!(plain.paths.is_empty(), "{:?}", plain.paths);
    assert_eq!(
        plain.warnings,
        [
            "no namespace `nope` (configured: claude, docs), so `@nope:` was searched for as plain text"
        ]
    );
    let bare = picker(APP, "").ask("@nope:readme");
    assert_eq!(
        bare.warnings,
        [
            "no namespace `nope` (none is configured: [namespaces] in config.toml), so `@nope:` was searched for as plain text"
        ]
    );
    for known in ["@docs:guide", "@/hooks:x", "@*.md", "@@types"] {
        assert!(p.ask(known).warnings.is_empty(), "{known}");
    }
    // `@@` searches for a literal `@`.
    assert_eq!(p.paths("@@types")[0], "@types/node.d.ts");
}

#[test]
fn namespace_root_searches_that_directory() {
    let other = tempfile::tempdir().unwrap();
    touch(other.path(), "proj/notes/todo.md");
    let root = fs::canonicalize(other.path()).unwrap();
    let config = format!("[namespaces]\nelsewhere = \"{}\"\n", root.display());
    let p = picker(APP, &config);
    let r = p.ask("@elsewhere:todo");
    assert_eq!(r.paths, [format!("{}/proj/notes/todo.md", root.display())]);
    assert!(
        r.warnings.iter().any(|w| w.contains("not indexed yet")),
        "{:?}",
        r.warnings
    );
    // The project's own files are not in that scope.
    assert!(p.paths("@elsewhere:button").is_empty());
}

#[test]
fn additional_directories_widen_the_scope() {
    let other = tempfile::tempdir().unwrap();
    touch(other.path(), "shared/Widget.tsx");
    let p = picker(APP, "");
    let settings = format!(
        r#"{{"permissions": {{"additionalDirectories": ["{}"]}}}}"#,
        other.path().display()
    );
    fs::write(p.project.path().join(".claude/settings.json"), settings).unwrap();
    let r = p.ask("widget");
    let expected = fs::canonicalize(other.path().join("shared/Widget.tsx")).unwrap();
    assert_eq!(r.paths, [expected.to_string_lossy().into_owned()]);
}

#[test]
fn files_created_after_the_refresh_are_found_and_deleted_ones_dropped() {
    let p = picker(APP, "");
    touch(p.project.path(), "src/components/Toolbar.tsx");
    touch(p.project.path(), "brand/new/Banner.tsx");
    assert_eq!(p.paths("toolbar"), ["src/components/Toolbar.tsx"]);
    assert_eq!(p.paths("banner"), ["brand/new/Banner.tsx"]);
    fs::remove_file(p.project.path().join("src/components/Modal.tsx")).unwrap();
    assert!(
        !p.paths("modal")
            .contains(&"src/components/Modal.tsx".to_string())
    );
}

#[test]
fn empty_query_lists_recent_files_and_respects_filters() {
    let p = picker(APP, "");
    let all = p.paths("");
    assert_eq!(all.len(), 15);
    let newest = p.project.path().join("docs/guide.txt");
    let file = fs::File::options().write(true).open(&newest).unwrap();
    file.set_modified(std::time::SystemTime::now() + std::time::Duration::from_secs(60))
        .unwrap();
    p.refresh();
    assert_eq!(p.paths("")[0], "docs/guide.txt");
}

#[test]
fn over_budget_falls_back_to_the_file_system() {
    let p = picker(APP, "");
    let r = p
        .engine
        .run::<Suggest>(SuggestRequest {
            query: "buton".into(),
            project_dir: Some(p.project.path().into()),
            budget_ms: Some(0),
            ..Default::default()
        })
        .unwrap();
    assert_eq!(
        r.paths.first().map(String::as_str),
        Some("src/components/Button.tsx")
    );
    assert!(
        r.warnings
            .iter()
            .any(|w| w.contains("searched the file system")),
        "{:?}",
        r.warnings
    );
}

#[test]
fn a_locked_index_falls_back_within_the_budget() {
    let p = picker(APP, "");
    // A second process holds the index exclusively before this one opens it.
    let Picker {
        home,
        project,
        engine,
    } = p;
    drop(engine);
    let p = Picker {
        engine: Engine::open_at(home.path()).unwrap(),
        home,
        project,
    };
    let locker = rusqlite::Connection::open(p.home.path().join("files.db")).unwrap();
    locker
        .busy_timeout(std::time::Duration::from_secs(5))
        .unwrap();
    locker
        .execute_batch("PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE;")
        .unwrap();
    let started = std::time::Instant::now();
    let r = p.ask("modal");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(r.paths, ["src/components/Modal.tsx"]);
    assert!(
        r.warnings
            .iter()
            .any(|w| w.contains("searched the file system")),
        "{:?}",
        r.warnings
    );
    drop(locker);
    assert!(p.ask("modal").warnings.is_empty());
}

#[test]
fn queries_are_answered_while_a_refresh_runs() {
    let names: Vec<String> = (0..3000).map(|i| format!("d{}/f{i}.rs", i % 30)).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let p = picker(&refs, "");
    std::thread::scope(|s| {
        let writer = s.spawn(|| {
            for round in 0..5 {
                touch(p.project.path(), &format!("new/round{round}.rs"));
                p.refresh();
            }
        });
        for _ in 0..50 {
            let r = p.ask("f1");
            assert!(!r.paths.is_empty());
            assert!(
                r.warnings.iter().all(|w| !w.contains("unavailable")),
                "{:?}",
                r.warnings
            );
        }
        writer.join().unwrap();
    });
}

#[test]
fn a_session_refresh_covers_project_configured_roots_and_additional_directories() {
    let configured = tempfile::tempdir().unwrap();
    touch(configured.path(), "top.txt");
    touch(configured.path(), "a/b/deep.txt");
    let extra = tempfile::tempdir().unwrap();
    touch(extra.path(), "extra.txt");
    let configured_root = fs::canonicalize(configured.path()).unwrap();
    let config = format!(
        "[index]\nroots = [\"{0}\", \"/nonexistent/cc-search-root\"]\n[index.depth]\n\"{0}\" = 1\n",
        configured_root.display()
    );
    let p = picker(APP, &config);
    fs::write(
        p.project.path().join(".claude/settings.local.json"),
        format!(
            r#"{{"permissions": {{"additionalDirectories": ["{}"]}}}}"#,
            extra.path().display()
        ),
    )
    .unwrap();
    let r = p
        .engine
        .run::<Refresh>(RefreshRequest {
            project_dir: Some(p.project.path().into()),
            ..Default::default()
        })
        .unwrap();
    let roots: Vec<&str> = r.roots.iter().map(|s| s.root.as_str()).collect();
    assert_eq!(roots.len(), 3, "{roots:?}");
    assert_eq!(
        roots[0],
        fs::canonicalize(p.project.path())
            .unwrap()
            .to_str()
            .unwrap()
    );
    assert_eq!(roots[1], configured_root.to_str().unwrap());
    // Depth 1 for the configured root: its top-level file only.
    assert_eq!(r.roots[1].files, 1);
    assert_eq!(r.roots[2].files, 1);
    // The project also holds the settings.local.json written above.
    assert_eq!(r.files, APP.len() + 1 + 1 + 1);
    assert!(
        r.warnings
            .iter()
            .any(|w| w.contains("/nonexistent/cc-search-root")),
        "{:?}",
        r.warnings
    );
    // The configured root is reachable through a namespace, the extra one directly.
    let extra_file = fs::canonicalize(extra.path().join("extra.txt")).unwrap();
    assert_eq!(
        p.paths("extra"),
        [extra_file.to_string_lossy().into_owned()]
    );
}

#[test]
fn a_shallow_root_does_not_cover_a_project_inside_it() {
    let dev = tempfile::tempdir().unwrap();
    touch(dev.path(), "proj/src/deep/widget.rs");
    touch(dev.path(), "proj/README.md");
    let home = tempfile::tempdir().unwrap();
    let engine = Engine::open_at(home.path()).unwrap();
    engine
        .run::<Refresh>(RefreshRequest {
            root: Some(dev.path().into()),
            max_depth: Some(2),
            ..Default::default()
        })
        .unwrap();
    let r = engine
        .run::<Suggest>(SuggestRequest {
            query: "widget".into(),
            project_dir: Some(dev.path().join("proj")),
            ..Default::default()
        })
        .unwrap();
    assert_eq!(r.paths, ["src/deep/widget.rs"]);
}

#[test]
fn nested_roots_own_their_files_once() {
    let outer = tempfile::tempdir().unwrap();
    touch(outer.path(), "top.txt");
    touch(outer.path(), "inner/src/lib.rs");
    let home = tempfile::tempdir().unwrap();
    let engine = Engine::open_at(home.path()).unwrap();
    let refresh = |root: &Path| {
        engine
            .run::<Refresh>(RefreshRequest {
                root: Some(root.into()),
                ..Default::default()
            })
            .unwrap()
    };
    assert_eq!(refresh(outer.path()).added, 2);
    // The inner root claims its file; refreshing either again changes nothing.
    let inner = refresh(&outer.path().join("inner"));
    assert_eq!((inner.files, inner.added), (1, 1));
    let again = refresh(outer.path());
    assert_eq!((again.files, again.added, again.removed), (1, 0, 0));
    let again = refresh(&outer.path().join("inner"));
    assert_eq!((again.files, again.added, again.removed), (1, 0, 0));
    let again = refresh(outer.path());
    assert_eq!((again.files, again.added, again.removed), (1, 0, 0));
    // Both are found from the outer directory.
    let r = engine
        .run::<Suggest>(SuggestRequest {
            query: "lib".into(),
            project_dir: Some(outer.path().into()),
            ..Default::default()
        })
        .unwrap();
    assert_eq!(r.paths, ["inner/src/lib.rs"]);
}

#[test]
fn an_oversized_budget_is_refused_not_a_panic() {
    let p = picker(APP, "");
    let err = p
        .engine
        .call(
            "files.suggest",
            r#"{"query":"main","budget_ms":3000000000}"#,
        )
        .unwrap_err();
    assert_eq!(err.code(), "invalid_request");
    assert_eq!(p.paths("modal"), ["src/components/Modal.tsx"]);
}

#[test]
fn fresh_files_follow_gitignore_and_excludes() {
    let p = picker(APP, "[index]\nexclude.patterns = [\"*.log\"]\n");
    fs::write(p.project.path().join(".gitignore"), ".env\n").unwrap();
    p.refresh();
    touch(p.project.path(), ".env");
    touch(p.project.path(), "debug.log");
    touch(p.project.path(), "notes.txt");
    touch(p.project.path(), "node_modules/dep/index.js");
    let recent = p.paths("");
    assert!(recent.contains(&"notes.txt".to_string()), "{recent:?}");
    for hidden in [".env", "debug.log", "node_modules/dep/index.js"] {
        assert!(
            !recent.contains(&hidden.to_string()),
            "{hidden}: {recent:?}"
        );
    }
    assert!(p.paths("env").iter().all(|x| x != ".env"));
}

#[test]
fn a_project_dir_that_is_a_file_is_an_error_naming_it() {
    let p = picker(APP, "");
    let file = p.project.path().join("README.md");
    let expected = format!("{}: not a directory", file.display());
    let error = p
        .engine
        .run::<Suggest>(SuggestRequest {
            query: "x".into(),
            project_dir: Some(file.clone()),
            ..Default::default()
        })
        .unwrap_err();
    assert_eq!((error.code(), error.to_string()), ("io", expected.clone()));
    let error = p
        .engine
        .run::<Refresh>(RefreshRequest {
            project_dir: Some(file),
            ..Default::default()
        })
        .unwrap_err();
    assert_eq!((error.code(), error.to_string()), ("io", expected));
}
