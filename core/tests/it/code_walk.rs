//! Which files `code.index_repository` takes: the spec's default ignore list and the
//! user's global gitignore (`core.excludesFile`), read from `$HOME` and
//! `$XDG_CONFIG_HOME`. Those variables are process-wide, so the tests of this file (its
//! own test binary) hold one lock while they walk.

use std::path::Path;

use cc_search::Engine;
use serde_json::json;

use crate::common;
use common::{call, git_at, write};

fn canonical(dir: &Path) -> String {
    std::fs::canonicalize(dir)
        .unwrap()
        .to_str()
        .unwrap()
        .to_string()
}

/// The names `code.search_symbols` finds for `query`.
fn found(engine: &Engine, root: &str, query: &str) -> Vec<String> {
    call(
        engine,
        "code.search_symbols",
        json!({"path": root, "query": query}),
    )["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["name"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn the_specs_default_ignore_list_is_never_indexed() {
    let home = tempfile::tempdir().unwrap();
    let engine = Engine::open_at(home.path()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    // No .gitignore: the defaults are the safety net. Every directory of the spec's list.
    let ignored = [
        "node_modules",
        "target",
        ".git",
        "dist",
        "build",
        "__pycache__",
        ".venv",
        "vendor",
        ".next",
        ".nuxt",
        "coverage",
        ".cache",
    ];
    for (i, name) in ignored.iter().enumerate() {
        write(
            dir.path(),
            &format!("{name}/gen.ts"),
            format!("export function ignoredFn{i}() {{}}\n"),
        );
        // Nested below a source directory too.
        write(
            dir.path(),
            &format!("app/{name}/deep.js"),
            format!("function deepIgnoredFn{i}() {{}}\n"),
        );
    }
    write(dir.path(), "app/main.ts", "export function keptFn() {}\n");
    let root = canonical(dir.path());
    let out = call(&engine, "code.index_repository", json!({"path": root}));
    assert_eq!(out["stats"]["files"], 1, "{out}");
    assert_eq!(found(&engine, &root, "keptFn"), ["keptFn"]);
    for (i, name) in ignored.iter().enumerate() {
        assert!(
            found(&engine, &root, &format!("ignoredFn{i}")).is_empty(),
            "{name}/ was indexed"
        );
        assert!(
            found(&engine, &root, &format!("deepIgnoredFn{i}")).is_empty(),
            "app/{name}/ was indexed"
        );
    }
}

/// Sets environment variables for the life of the guard and restores them after.
struct EnvGuard(Vec<(&'static str, Option<std::ffi::OsString>)>);

impl EnvGuard {
    fn set(vars: &[(&'static str, Option<&Path>)]) -> EnvGuard {
        let saved = vars
            .iter()
            .map(|(k, _)| (*k, std::env::var_os(k)))
            .collect();
        for (key, value) in vars {
            // SAFETY: the only test that changes the environment runs alone in a child
            // process (`common::in_child`), which starts no other thread first.
            unsafe {
                match value {
                    Some(v) => std::env::set_var(key, v),
                    None => std::env::remove_var(key),
                }
            }
        }
        EnvGuard(saved)
    }
}

impl Drop for EnvGuard {
    fn drop(&mut self) {
        for (key, value) in &self.0 {
            // SAFETY: as in `EnvGuard::set`.
            unsafe {
                match value {
                    Some(v) => std::env::set_var(key, v),
                    None => std::env::remove_var(key),
                }
            }
        }
    }
}

#[test]
fn the_global_gitignore_named_by_core_excludes_file_is_honoured() {
    // It changes the environment every walk reads: in a process of its own.
    if !common::in_child(
        module_path!(),
        "the_global_gitignore_named_by_core_excludes_file_is_honoured",
        &[],
        None,
    ) {
        return;
    }
    let user = tempfile::tempdir().unwrap();
    let xdg = user.path().join("xdg");
    std::fs::create_dir_all(&xdg).unwrap();
    // `~` in core.excludesFile is the user's home.
    write(
        user.path(),
        ".gitconfig",
        "[user]\n\tname = t\n[core]\n\texcludesFile = ~/global-ignore\n",
    );
    write(user.path(), "global-ignore", "*.local.ts\nscratch/\n");
    let _guard = EnvGuard::set(&[
        ("HOME", Some(user.path())),
        ("XDG_CONFIG_HOME", Some(&xdg)),
        // Set, it would replace $HOME/.gitconfig; the system file could name its own.
        ("GIT_CONFIG_GLOBAL", None),
        ("GIT_CONFIG_SYSTEM", Some(Path::new("/dev/null"))),
    ]);

    let home = tempfile::tempdir().unwrap();
    let engine = Engine::open_at(home.path()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    git_at(dir.path(), &["init", "-q", "-b", "main"], 1_700_000_000);
    write(dir.path(), "src/app.ts", "export function appFn() {}\n");
    write(
        dir.path(),
        "src/settings.local.ts",
        "export function localOnlyFn() {}\n",
    );
    write(
        dir.path(),
        "scratch/try.py",
        "def scratch_fn():\n    pass\n",
    );
    let root = canonical(dir.path());
    let out = call(&engine, "code.index_repository", json!({"path": root}));
    assert_eq!(out["stats"]["files"], 1, "{out}");
    assert_eq!(found(&engine, &root, "appFn"), ["appFn"]);
    assert!(found(&engine, &root, "localOnlyFn").is_empty());
    assert!(found(&engine, &root, "scratch_fn").is_empty());

    // Without a core.excludesFile, git's default `$XDG_CONFIG_HOME/git/ignore` is read.
    std::fs::remove_file(user.path().join(".gitconfig")).unwrap();
    write(&xdg, "git/ignore", "app.ts\n");
    let out = call(&engine, "code.index_repository", json!({"path": root}));
    assert_eq!(out["stats"]["files"], 2, "{out}");
    assert!(found(&engine, &root, "appFn").is_empty());
    assert_eq!(found(&engine, &root, "localOnlyFn"), ["localOnlyFn"]);
    assert_eq!(found(&engine, &root, "scratch_fn"), ["scratch_fn"]);
}

/// The files of `code.search_symbols` hits for `query` asked from `dir` (sorted, each
/// once), and the warnings.
fn hits_from(engine: &Engine, dir: &Path, query: &str) -> (Vec<String>, String) {
    let out = call(
        engine,
        "code.search_symbols",
        json!({"path": dir, "query": query}),
    );
    let mut files: Vec<String> = out["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["path"].as_str().unwrap().to_string())
        .collect();
    files.sort();
    files.dedup();
    (files, out["warnings"].to_string())
}

#[test]
fn a_subdirectory_of_a_repository_uses_the_repository_index() {
    let home = tempfile::tempdir().unwrap();
    let engine = Engine::open_at(home.path()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let repo = std::fs::canonicalize(dir.path()).unwrap();
    git_at(&repo, &["init", "-q"], 1_700_000_000);
    write(
        &repo,
        "core/src/engine.rs",
        "pub struct Gadget;\npub fn alpha_start() {}\n",
    );
    write(
        &repo,
        "bindings/py/engine.py",
        "def alpha_start():\n    pass\n",
    );

    // Never indexed: asked from `core/`, the whole work tree is indexed, once.
    let core = repo.join("core");
    let (files, warnings) = hits_from(&engine, &core, "alpha_start");
    assert_eq!(
        files,
        ["bindings/py/engine.py", "core/src/engine.rs"],
        "{warnings}"
    );
    assert!(
        warnings.contains(&format!("{} was not indexed", repo.display())),
        "{warnings}"
    );
    let listed = call(&engine, "code.list_repos", json!({}));
    assert_eq!(listed["repos"].as_array().unwrap().len(), 1, "{listed}");

    // From deeper down: the same index, paths relative to the repository root.
    let (files, warnings) = hits_from(&engine, &core.join("src"), "Gadget");
    assert_eq!(files, ["core/src/engine.rs"]);
    assert!(!warnings.contains("not indexed"), "{warnings}");

    // A file named relative to the directory given.
    let symbols = call(
        &engine,
        "code.get_file_symbols",
        json!({"path": core, "file": "src/engine.rs"}),
    );
    assert_eq!(symbols["path"], "core/src/engine.rs", "{symbols}");
    let from_root = call(
        &engine,
        "code.get_file_symbols",
        json!({"path": repo, "file": "core/src/engine.rs"}),
    );
    assert_eq!(from_root["symbols"], symbols["symbols"]);
}

#[test]
fn a_directory_outside_any_repository_is_indexed_on_its_own() {
    let home = tempfile::tempdir().unwrap();
    let engine = Engine::open_at(home.path()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let top = std::fs::canonicalize(dir.path()).unwrap();
    write(&top, "a/one.py", "def beta_one():\n    pass\n");
    write(&top, "b/two.py", "def beta_two():\n    pass\n");
    let (files, warnings) = hits_from(&engine, &top.join("a"), "beta");
    assert_eq!(files, ["one.py"], "{warnings}");
    assert!(
        warnings.contains(&format!("{} was not indexed", top.join("a").display())),
        "{warnings}"
    );
    // Once the top is indexed, its subdirectories use its index.
    call(&engine, "code.index_repository", json!({"path": top}));
    let (files, _) = hits_from(&engine, &top.join("b"), "beta");
    assert_eq!(files, ["a/one.py", "b/two.py"]);
}
