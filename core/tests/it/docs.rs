//! docs and notes: H2 sections of real markdown files in temporary projects and git
//! repositories, indexed with the real model; change detection, branch scoping,
//! content-addressed embeddings across branches and projects, the advisory lock,
//! notes' date and file filters, and keyword-only search without a model.

use std::path::Path;
use std::time::{Duration, SystemTime};

use cc_search::Engine;
use cc_search::docs::{
    self, IndexRequest, IndexResponse, NotesIndexRequest, NotesQueryRequest, QueryRequest,
    QueryResponse,
};

use crate::common;
use common::{git_at, write};

/// An engine in `home` using the real model (named in its configuration, so the test
/// does not depend on the environment), unless `home` already has a configuration.
fn open(home: &Path) -> Engine {
    let config = home.join("config.toml");
    if let (false, Some(dir)) = (config.exists(), common::model_dir()) {
        std::fs::write(
            &config,
            format!("[embed]\nmodel_dir = {:?}\n", dir.display().to_string()),
        )
        .unwrap();
    }
    Engine::open_at(home).unwrap()
}

/// An engine with the real model when the tests have it (`common::model_dir`), else one
/// configured with none, searching by keyword only; and whether it has the model.
fn engine(home: &Path) -> (Engine, bool) {
    let model = common::model_dir().is_some();
    if !model {
        no_model(home);
    }
    (open(home), model)
}

/// Configure `home` with a model directory that does not exist: keyword-only.
fn no_model(home: &Path) {
    common::keyword_only(home);
}

fn index(engine: &Engine, dir: &Path) -> IndexResponse {
    engine
        .run::<docs::Index>(IndexRequest {
            project_dir: Some(dir.into()),
            ..Default::default()
        })
        .unwrap()
}

fn query(
    engine: &Engine,
    dir: &Path,
    text: &str,
    f: impl FnOnce(&mut QueryRequest),
) -> QueryResponse {
    let mut request = QueryRequest {
        query: text.into(),
        project_dir: Some(dir.into()),
        ..Default::default()
    };
    f(&mut request);
    engine.run::<docs::Query>(request).unwrap()
}

fn embedding_rows(home: &Path) -> i64 {
    rusqlite::Connection::open(home.join("embeddings.db"))
        .unwrap()
        .query_row("SELECT count(*) FROM embeddings", [], |r| r.get(0))
        .unwrap()
}

fn set_mtime(path: &Path, secs_ago: u64) {
    let file = std::fs::File::options().write(true).open(path).unwrap();
    file.set_modified(SystemTime::now() - Duration::from_secs(secs_ago))
        .unwrap();
}

const GUIDE: &str = "# Guide\n\nHow the matcher works, in brief.\n\n## Matching\n\nThe matcher pairs riders with drivers by distance and rating.\n\n## Errors\n\nErrors are retried with exponential backoff.\n\n## Matching\n\nA second matching section about surge pricing.\n\n## Empty\n\n";

fn project(root: &Path) {
    write(root, "docs/guide.md", GUIDE);
    write(
        root,
        "docs/deep/schema.md",
        "Tables: riders, drivers, trips. No headings here.\n",
    );
    write(
        root,
        "apps/web/docs/ui.md",
        "## Buttons\n\nPrimary buttons are blue.\n",
    );
    write(
        root,
        "packages/core/docs/api.md",
        "## Endpoints\n\nGET /trips lists trips.\n",
    );
    write(root, "docs/notes.txt", "## Not markdown\n\nignored\n");
    write(
        root,
        "src/README.md",
        "## Readme\n\nnot where docs are kept\n",
    );
    write(
        root,
        "apps/web/src/docs/x.md",
        "## Too deep\n\nnot a docs folder of an app\n",
    );
}

#[test]
fn sections_of_the_default_globs_are_indexed_and_searchable() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    project(dir.path());
    let (engine, model) = engine(home.path());
    let first = index(&engine, dir.path());
    assert_eq!(first.files, 4, "{first:?}");
    assert_eq!(first.indexed, 4);
    // guide: preamble, Matching, Errors, Matching##1 (Empty skipped); schema: full
    // document; ui and api: one section each.
    assert_eq!(first.sections_written, 7);
    assert_eq!(first.branch, "", "not a git repository");
    if model {
        assert_eq!(first.pending_vectors, 0, "{:?}", first.warnings);
        assert!(first.embedded >= 7);
    } else {
        assert_eq!((first.pending_vectors, first.embedded), (7, 0));
    }

    // Each kind of section, found by its words (in either mode).
    for (words, file, section) in [
        ("matcher pairs riders", "docs/guide.md", "Matching"),
        ("surge pricing", "docs/guide.md", "Matching##1"),
        (
            "tables riders drivers trips",
            "docs/deep/schema.md",
            "(full document)",
        ),
        ("primary buttons blue", "apps/web/docs/ui.md", "Buttons"),
        ("GET trips lists", "packages/core/docs/api.md", "Endpoints"),
        (
            "how the matcher works in brief",
            "docs/guide.md",
            "(preamble)",
        ),
    ] {
        let found = query(&engine, dir.path(), words, |_| {});
        let top = &found.results[0];
        assert_eq!(
            (top.file.as_str(), top.section.as_str()),
            (file, section),
            "{words}"
        );
        assert!(
            top.content
                .contains(&words.split(' ').next_back().unwrap().to_string())
        );
    }
    let everything = query(
        &engine,
        dir.path(),
        "matcher riders drivers errors surge buttons trips empty readme deep",
        |r| r.limit = Some(50),
    );
    let sections: Vec<&str> = everything
        .results
        .iter()
        .map(|h| h.section.as_str())
        .collect();
    assert!(
        !sections
            .iter()
            .any(|s| *s == "Empty" || *s == "Readme" || *s == "Too deep" || *s == "Not markdown"),
        "{sections:?}"
    );
    if model {
        let found = query(
            &engine,
            dir.path(),
            "how are riders paired with drivers",
            |_| {},
        );
        assert_eq!(found.results[0].file, "docs/guide.md");
        assert_eq!(found.results[0].section, "Matching");
        assert_eq!(found.mode, cc_search::hybrid::Mode::Hybrid);
    } else {
        assert_eq!(everything.mode, cc_search::hybrid::Mode::Keyword);
    }
}

#[test]
fn each_package_readme_and_docs_directory_is_a_doc_and_a_root_readme_linked_to_one_is_indexed_once()
{
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    // A Cargo workspace whose README is its main crate's (as axum keeps it), a JS package
    // with a reStructuredText readme, and READMEs that document no package.
    write(
        root,
        "Cargo.toml",
        "[workspace]\nmembers = [\"crates/*\"]\n",
    );
    write(
        root,
        "crates/router/Cargo.toml",
        "[package]\nname = \"router\"\n",
    );
    write(
        root,
        "crates/router/README.md",
        "# router\n\n## Sharing state\n\nHandlers share state through an extension layer.\n",
    );
    write(root, "web/package.json", "{}\n");
    write(
        root,
        "web/readme.rst",
        "Web\n===\n\nThe front end renders dashboards.\n",
    );
    write(root, "src/README.md", "## Layout\n\nsource layout notes\n");
    write(
        root,
        "examples/demo/Cargo.toml",
        "[package]\nname = \"demo\"\n",
    );
    write(
        root,
        "examples/demo/README.md",
        "## Demo\n\nrun the demo binary\n",
    );
    // A crate's docs directory, at any depth (axum's `src/docs/`, which its doc comments
    // include); not a fixture's, nor vendored code's.
    write(
        root,
        "crates/router/src/docs/routing.md",
        "# Routing\n\nNested routers keep their fallback.\n",
    );
    write(
        root,
        "crates/router/tests/fixtures/docs/page.md",
        "## Page\n\na fixture page about turnips\n",
    );
    write(
        root,
        "vendor/left-pad/docs/usage.md",
        "## Usage\n\npad strings with turnips\n",
    );
    // A crate's guide in its `lib.rs` (`//!`), not a module's doc comment elsewhere.
    write(
        root,
        "crates/router/src/lib.rs",
        "//! # Router\n//!\n//! # Handler errors\n//!\n//! Handlers map failures to responses.\n\n/// Builds one.\npub fn build() {}\n",
    );
    write(
        root,
        "crates/router/src/util.rs",
        "//! # Helpers\n//!\n//! helper turnips\n",
    );
    std::os::unix::fs::symlink("crates/router/README.md", root.join("README.md")).unwrap();
    let (engine, _) = engine(home.path());

    let first = index(&engine, root);
    assert_eq!(first.files, 4, "{first:?}");
    assert!(first.warnings.is_empty(), "{:?}", first.warnings);
    for (words, file) in [
        ("share state extension layer", "crates/router/README.md"),
        ("front end dashboards", "web/readme.rst"),
        (
            "nested routers fallback",
            "crates/router/src/docs/routing.md",
        ),
        ("handlers map failures", "crates/router/src/lib.rs"),
    ] {
        let found = query(&engine, root, words, |r| {
            r.mode = cc_search::hybrid::Mode::Keyword
        });
        assert_eq!(found.results[0].file, file, "{words}");
    }
    for words in ["source layout notes", "run the demo binary", "turnips"] {
        let found = query(&engine, root, words, |r| {
            r.mode = cc_search::hybrid::Mode::Keyword
        });
        assert!(found.results.is_empty(), "{words}: {:?}", found.results);
    }

    // A directory that stops being a package takes its README out of the docs.
    std::fs::remove_file(root.join("web/package.json")).unwrap();
    let second = index(&engine, root);
    assert_eq!((second.files, second.removed), (3, 1), "{second:?}");
}

#[test]
fn docs_are_found_where_projects_keep_them_and_globs_given_once_are_remembered() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "README.rst",
        "Widget\n======\n\nInstall\n-------\n\npip install widget\n\nUsage\n-----\n\nCall widget.spin() to spin it.\n",
    );
    write(
        root,
        "CONTRIBUTING.md",
        "## Pull requests\n\nRebase before you open one.\n",
    );
    write(
        root,
        "doc/en/how-to/fixtures.rst",
        ".. _fixtures:\n\nHow to use fixtures\n===================\n\nIntro.\n\nRequesting fixtures\n-------------------\n\nTests request fixtures by naming them as arguments.\n\nQuick example\n^^^^^^^^^^^^^\n\n.. code-block:: python\n\n    def test_x(fruit): ...\n\nTeardown\n--------\n\nA yield fixture runs its teardown after the test.\n",
    );
    write(
        root,
        "Docs/site/intro.mdx",
        "## Components\n\nWidgets embed JSX components.\n",
    );
    write(
        root,
        "packages/core/doc/api.md",
        "## Spin\n\nspin(rate) turns the widget.\n",
    );
    write(
        root,
        "extra/guide/tuning.txt",
        "Tuning\n\nLower the rate for quiet spinning.\n",
    );
    write(
        root,
        "src/widget/NOTES.md",
        "## Internal\n\nnot documentation\n",
    );
    let (engine, _) = engine(home.path());

    let first = index(&engine, root);
    assert_eq!(first.files, 5, "{first:?}");
    assert!(first.globs.is_empty());
    for (words, file, section) in [
        ("pip install widget", "README.rst", "Install"),
        ("call spin", "README.rst", "Usage"),
        ("rebase", "CONTRIBUTING.md", "Pull requests"),
        (
            "request fixtures naming arguments",
            "doc/en/how-to/fixtures.rst",
            "Requesting fixtures",
        ),
        ("yield teardown", "doc/en/how-to/fixtures.rst", "Teardown"),
        ("JSX components", "Docs/site/intro.mdx", "Components"),
        ("turns the widget", "packages/core/doc/api.md", "Spin"),
    ] {
        let found = query(&engine, root, words, |r| {
            r.mode = cc_search::hybrid::Mode::Keyword
        });
        let top = &found.results[0];
        assert_eq!(
            (top.file.as_str(), top.section.as_str()),
            (file, section),
            "{words}"
        );
    }
    // A deeper reStructuredText heading stays inside its section.
    let example = query(&engine, root, "quick example test_x", |r| {
        r.mode = cc_search::hybrid::Mode::Keyword
    });
    assert_eq!(example.results[0].section, "Requesting fixtures");
    assert!(
        query(&engine, root, "internal", |_| {})
            .results
            .iter()
            .all(|h| h.file != "src/widget/NOTES.md")
    );

    // A glob of the user's own: indexed with the defaults, and remembered, so the run
    // without globs (what a query's automatic refresh does) keeps it.
    let own = engine
        .run::<docs::Index>(IndexRequest {
            project_dir: Some(root.into()),
            globs: vec!["./extra/**/*.txt".into()],
            ..Default::default()
        })
        .unwrap();
    assert_eq!((own.files, own.indexed, own.removed), (6, 1, 0), "{own:?}");
    assert_eq!(own.globs, ["extra/**/*.txt"], "remembered without its ./");
    let again = index(&engine, root);
    assert_eq!(
        (again.files, again.unchanged, again.removed),
        (6, 6, 0),
        "{again:?}"
    );
    assert_eq!(again.globs, own.globs);
    let quiet = query(&engine, root, "quiet spinning", |r| {
        r.mode = cc_search::hybrid::Mode::Keyword
    });
    assert_eq!(quiet.results[0].file, "extra/guide/tuning.txt");
    // Remembered per project: another project does not get it.
    let other = tempfile::tempdir().unwrap();
    write(other.path(), "extra/x.txt", "other words\n");
    assert_eq!(index(&engine, other.path()).files, 0);

    // A bad glob changes nothing.
    let bad = engine.run::<docs::Index>(IndexRequest {
        project_dir: Some(root.into()),
        globs: vec!["extra/[x".into()],
        ..Default::default()
    });
    assert!(bad.unwrap_err().to_string().contains("extra/[x"));
    assert_eq!(index(&engine, root).globs, own.globs);

    // One glob forgotten, the other kept.
    let run = |globs: &[&str], forget: bool| {
        engine
            .run::<docs::Index>(IndexRequest {
                project_dir: Some(root.into()),
                globs: globs.iter().map(|g| g.to_string()).collect(),
                forget,
                ..Default::default()
            })
            .unwrap()
    };
    let two = run(&["src/**/NOTES.md"], false);
    assert_eq!((two.files, two.globs.len()), (7, 2), "{two:?}");
    let one = run(&["src/**/NOTES.md"], true);
    assert_eq!((one.files, one.removed), (6, 1));
    assert_eq!(one.globs, ["extra/**/*.txt"]);

    // All forgotten: the files only they matched leave the index.
    let forgot = engine
        .run::<docs::Index>(IndexRequest {
            project_dir: Some(root.into()),
            forget: true,
            ..Default::default()
        })
        .unwrap();
    assert_eq!((forgot.files, forgot.removed), (5, 1), "{forgot:?}");
    assert!(forgot.globs.is_empty());
    let gone = query(&engine, root, "quiet spinning", |_| {}).results;
    assert!(
        gone.iter().all(|h| h.file != "extra/guide/tuning.txt"),
        "{gone:?}"
    );
}

#[test]
fn unchanged_files_are_skipped_touched_ones_only_restamped_and_changes_reembedded() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    project(dir.path());
    let (engine, model) = engine(home.path());
    index(&engine, dir.path());

    let again = index(&engine, dir.path());
    assert_eq!((again.unchanged, again.touched, again.indexed), (4, 0, 0));
    assert_eq!((again.sections_written, again.embedded), (0, 0));

    // New mtime, same bytes: only the mtime is updated — in the results too.
    let guide = dir.path().join("docs/guide.md");
    let mtime_of = |path: &Path| {
        std::fs::metadata(path)
            .unwrap()
            .modified()
            .unwrap()
            .duration_since(SystemTime::UNIX_EPOCH)
            .unwrap()
            .as_secs() as i64
    };
    let before = query(&engine, dir.path(), "exponential backoff", |_| {}).results;
    assert_eq!(
        (before[0].section.as_str(), before[0].mtime),
        ("Errors", mtime_of(&guide))
    );
    set_mtime(&guide, 3600);
    let touched = index(&engine, dir.path());
    assert_eq!(
        (touched.unchanged, touched.touched, touched.indexed),
        (3, 1, 0)
    );
    assert_eq!((touched.sections_written, touched.embedded), (0, 0));
    let after = query(&engine, dir.path(), "exponential backoff", |_| {}).results;
    assert_eq!(after[0].section, "Errors");
    assert_eq!(after[0].mtime, mtime_of(&guide), "the new mtime is shown");
    assert!(after[0].mtime < before[0].mtime - 3000);

    // One section edited: one file re-chunked, one section embedded.
    std::fs::write(
        &guide,
        GUIDE.replace("exponential backoff", "a circuit breaker"),
    )
    .unwrap();
    set_mtime(&guide, 60);
    let edited = index(&engine, dir.path());
    assert_eq!(
        (edited.indexed, edited.sections_written, edited.embedded),
        (1, 1, usize::from(model))
    );
    let hits = query(&engine, dir.path(), "circuit breaker", |_| {}).results;
    assert_eq!(
        (hits[0].section.as_str(), hits[0].matched_by.len()),
        ("Errors", if model { 2 } else { 1 })
    );

    // A section removed and a file deleted: their rows go.
    std::fs::write(&guide, "## Matching\n\nOnly this now.\n").unwrap();
    set_mtime(&guide, 30);
    std::fs::remove_file(dir.path().join("apps/web/docs/ui.md")).unwrap();
    let shrunk = index(&engine, dir.path());
    assert_eq!((shrunk.removed, shrunk.files), (1, 3));
    assert_eq!(shrunk.sections_removed, 4, "{shrunk:?}"); // preamble, Errors, Matching##1, Buttons
    assert!(
        query(&engine, dir.path(), "primary buttons blue", |r| r.mode =
            cc_search::hybrid::Mode::Keyword)
        .results
        .is_empty()
    );
}

#[test]
fn branches_are_scoped_and_identical_content_is_embedded_once() {
    let home = tempfile::tempdir().unwrap();
    let parent = tempfile::tempdir().unwrap();
    let repo = parent.path().join("finch");
    std::fs::create_dir(&repo).unwrap();
    project(&repo);
    git_at(&repo, &["init", "-q", "-b", "main"], 1_700_000_000);
    git_at(&repo, &["add", "-A"], 1_700_000_000);
    git_at(
        &repo,
        &[
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "commit",
            "-qm",
            "docs",
        ],
        1_700_000_000,
    );
    let (engine, model) = engine(home.path());
    let main = index(&engine, &repo);
    assert_eq!(
        (main.project.as_str(), main.branch.as_str()),
        ("finch", "main")
    );
    let rows = if model {
        embedding_rows(home.path())
    } else {
        0
    };

    // A feature branch with the same docs plus one new section.
    git_at(
        &repo,
        &["checkout", "-q", "-b", "feature/auth"],
        1_700_000_100,
    );
    write(
        &repo,
        "docs/auth.md",
        "## Tokens\n\nRefresh tokens rotate on every use.\n",
    );
    let feature = index(&engine, &repo);
    assert_eq!(feature.branch, "feature/auth");
    assert_eq!(feature.indexed, 5);
    if model {
        assert_eq!(feature.embedded, 1, "only the new section is embedded");
        assert_eq!(embedding_rows(home.path()), rows + 1);
    } else {
        assert_eq!((feature.embedded, feature.pending_vectors), (0, 15));
    }

    // Default: the current branch only.
    let here = query(&engine, &repo, "refresh tokens rotate", |_| {});
    assert_eq!(here.branch, "feature/auth");
    assert_eq!(here.results[0].file, "docs/auth.md");
    let on_main = query(&engine, &repo, "refresh tokens rotate", |r| {
        r.branch = Some("main".into())
    });
    assert!(
        on_main
            .results
            .iter()
            .all(|h| h.branch == "main" && h.file != "docs/auth.md")
    );
    // All branches: the identical sections are one result each, naming both branches.
    let all = query(&engine, &repo, "riders drivers distance rating", |r| {
        r.all_branches = true
    });
    let top = &all.results[0];
    assert_eq!(
        (top.file.as_str(), top.section.as_str()),
        ("docs/guide.md", "Matching")
    );
    let mut branches = vec![top.branch.clone()];
    branches.extend(top.also_on.clone());
    branches.sort();
    assert_eq!(branches, ["feature/auth", "main"]);
    let files: Vec<(&str, &str)> = all
        .results
        .iter()
        .map(|h| (h.file.as_str(), h.section.as_str()))
        .collect();
    let mut unique = files.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), files.len(), "no section twice: {files:?}");

    // A detached HEAD is its own branch name.
    git_at(
        &repo,
        &["checkout", "-q", "--detach", "main"],
        1_700_000_200,
    );
    let detached = index(&engine, &repo);
    assert!(
        detached.branch.starts_with("detached@"),
        "{}",
        detached.branch
    );

    // Another project with the same files: scoped apart, nothing embedded again.
    let other = parent.path().join("other");
    project(&other);
    let copy = index(&engine, &other);
    assert_eq!((copy.project.as_str(), copy.embedded), ("other", 0));
    assert_eq!(copy.sections_written, 7);
    let scoped = query(&engine, &other, "refresh tokens rotate", |r| {
        r.all_branches = true
    });
    assert!(scoped.results.iter().all(|h| h.project == "other"));
}

#[test]
fn a_query_never_indexes() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    project(dir.path());
    let engine = open(home.path());
    let found = query(&engine, dir.path(), "riders", |r| {
        r.mode = cc_search::hybrid::Mode::Keyword
    });
    assert!(found.results.is_empty());
    assert!(
        found
            .warnings
            .iter()
            .any(|w| w.contains("cc-search docs index")),
        "{:?}",
        found.warnings
    );
    let found = query(&engine, dir.path(), "riders", |r| {
        r.mode = cc_search::hybrid::Mode::Keyword
    });
    assert!(found.results.is_empty(), "still not indexed");
    let err = engine
        .run::<docs::Query>(QueryRequest {
            query: "  ".into(),
            project_dir: Some(dir.path().into()),
            ..Default::default()
        })
        .unwrap_err();
    assert_eq!(err.code(), "invalid_request");
}

#[test]
fn without_a_model_docs_are_searched_by_keyword_and_embedded_later() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    project(dir.path());
    std::fs::write(
        home.path().join("config.toml"),
        "[embed]\nmodel_dir = \"/nonexistent/model\"\n",
    )
    .unwrap();
    let engine = open(home.path());
    let indexed = index(&engine, dir.path());
    assert_eq!(indexed.pending_vectors, 7);
    assert!(
        indexed.warnings.iter().any(|w| w.contains("keyword-only")),
        "{:?}",
        indexed.warnings
    );
    let found = query(&engine, dir.path(), "exponential backoff", |_| {});
    assert_eq!(found.mode, cc_search::hybrid::Mode::Keyword);
    assert_eq!(found.results[0].section, "Errors");
    assert!(
        found.warnings.is_empty(),
        "said once per engine: {:?}",
        found.warnings
    );
    // The same data root with the model: the pending sections get their vectors.
    if common::model_dir().is_some() {
        std::fs::remove_file(home.path().join("config.toml")).unwrap();
        let engine = open(home.path());
        let later = index(&engine, dir.path());
        assert_eq!((later.unchanged, later.pending_vectors), (4, 0));
        assert!(later.embedded >= 7);
    }
}

#[test]
fn a_second_index_run_waits_for_the_lock_or_reports_who_holds_it() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "docs/a.md", "## A\n\ntext\n");
    std::fs::write(
        home.path().join("config.toml"),
        "[embed]\nmodel_dir = \"/nonexistent\"\n",
    )
    .unwrap();
    let engine = open(home.path());
    // A live process of this host holds the lock.
    let mut holder = std::process::Command::new("sleep")
        .arg("30")
        .spawn()
        .unwrap();
    let lock = home.path().join("docs.lock");
    let info = |pid: u32, timestamp: i64| {
        format!(
            "{{\"pid\":{pid},\"hostname\":\"{}\",\"timestamp\":{timestamp}}}",
            docs::lock::hostname()
        )
    };
    std::fs::write(&lock, info(holder.id(), cc_search::time::unix_now())).unwrap();
    let err = engine
        .run::<docs::Index>(IndexRequest {
            project_dir: Some(dir.path().into()),
            lock_wait_secs: Some(0),
            ..Default::default()
        })
        .unwrap_err();
    assert!(
        err.to_string()
            .contains(&format!("process {}", holder.id())),
        "{err}"
    );
    assert!(lock.exists());
    // The holder dies: its lock is broken, with a warning.
    holder.kill().unwrap();
    holder.wait().unwrap();
    let run = index(&engine, dir.path());
    assert!(
        run.warnings
            .iter()
            .any(|w| w.contains("broke the stale lock")),
        "{:?}",
        run.warnings
    );
    assert!(!lock.exists(), "released after the run");

    // Two runs at once (two engines, as two processes would be): one waits, both finish.
    let other = open(home.path());
    std::thread::scope(|s| {
        let a = s.spawn(|| index(&engine, dir.path()));
        let b = s.spawn(|| index(&other, dir.path()));
        let (a, b) = (a.join().unwrap(), b.join().unwrap());
        assert_eq!(a.files + b.files, 2);
    });
}

#[test]
fn notes_are_dated_by_folder_and_filtered_by_date_and_file() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "sessions/2026_02_05_AUTH/IMPLEMENTATION.md",
        "## Plan\n\nJWT refresh tokens with rotation.\n",
    );
    write(
        root,
        "sessions/2026_02_05_AUTH/NOTES.md",
        "## Findings\n\nRefresh tokens leaked in logs.\n",
    );
    write(
        root,
        "sessions/2026_03_10_CACHE/IMPLEMENTATION.md",
        "## Plan\n\nCache refresh tokens in redis.\n",
    );
    write(
        root,
        "docs/x.md",
        "## Doc\n\nrefresh tokens in docs are not notes\n",
    );
    std::fs::write(
        home.path().join("config.toml"),
        "[embed]\nmodel_dir = \"/nonexistent\"\n",
    )
    .unwrap();
    let engine = open(home.path());
    let indexed = engine
        .run::<docs::NotesIndex>(NotesIndexRequest {
            project_dir: Some(root.into()),
            ..Default::default()
        })
        .unwrap();
    assert_eq!((indexed.files, indexed.sections_written), (3, 3));
    let q = |f: &dyn Fn(&mut NotesQueryRequest)| {
        let mut request = NotesQueryRequest {
            query: "refresh tokens".into(),
            project_dir: Some(root.into()),
            ..Default::default()
        };
        f(&mut request);
        engine.run::<docs::NotesQuery>(request)
    };
    let all = q(&|_| {}).unwrap();
    assert_eq!(all.results.len(), 3, "notes only, not docs");
    let after = q(&|r| r.after = Some("2026-03-01".into())).unwrap();
    assert_eq!(after.results.len(), 1);
    assert_eq!(after.results[0].session_date.as_deref(), Some("2026-03-10"));
    assert_eq!(
        after.results[0].session_path.as_deref(),
        Some("sessions/2026_03_10_CACHE")
    );
    let file = q(&|r| r.file = Some("implementation".into())).unwrap();
    let mut files: Vec<&str> = file.results.iter().map(|h| h.file.as_str()).collect();
    files.sort();
    assert_eq!(
        files,
        [
            "sessions/2026_02_05_AUTH/IMPLEMENTATION.md",
            "sessions/2026_03_10_CACHE/IMPLEMENTATION.md"
        ]
    );
    let both = q(&|r| {
        r.file = Some("IMPLEMENTATION".into());
        r.after = Some("2026-02-06".into());
    })
    .unwrap();
    assert_eq!(both.results.len(), 1);
    assert_eq!(
        q(&|r| r.after = Some("March".into())).unwrap_err().code(),
        "invalid_request"
    );
}

/// Commit everything in `repo` (a fixed author and date).
fn commit_all(repo: &Path, message: &str, at: i64) {
    git_at(repo, &["add", "-A"], at);
    git_at(
        repo,
        &[
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "commit",
            "-qm",
            message,
        ],
        at,
    );
}

fn notes_index(engine: &Engine, dir: &Path) -> IndexResponse {
    engine
        .run::<docs::NotesIndex>(NotesIndexRequest {
            project_dir: Some(dir.into()),
            ..Default::default()
        })
        .unwrap()
}

fn notes_query(engine: &Engine, dir: &Path, text: &str) -> QueryResponse {
    engine
        .run::<docs::NotesQuery>(NotesQueryRequest {
            query: text.into(),
            project_dir: Some(dir.into()),
            mode: cc_search::hybrid::Mode::Keyword,
            limit: Some(20),
            ..Default::default()
        })
        .unwrap()
}

/// Notes are one set whatever the branch: switching branches re-chunks nothing, and a
/// note deleted on one branch is gone on every branch.
#[test]
fn notes_do_not_depend_on_the_branch() {
    let home = tempfile::tempdir().unwrap();
    let parent = tempfile::tempdir().unwrap();
    let repo = parent.path().join("finch");
    write(&repo, "docs/a.md", "## A\n\ncode docs\n");
    git_at(&repo, &["init", "-q", "-b", "main"], 1_700_000_000);
    commit_all(&repo, "docs", 1_700_000_000);
    // Notes are not committed: they stay as they are across checkouts.
    write(
        &repo,
        "sessions/2026_02_05_AUTH/NOTES.md",
        "## Findings\n\nToken rotation keeps the kiwi session alive.\n",
    );
    write(
        &repo,
        "sessions/2026_02_06_CACHE/NOTES.md",
        "## Findings\n\nThe mango cache expires hourly.\n",
    );
    let (engine, _) = engine(home.path());
    let main = notes_index(&engine, &repo);
    assert_eq!((main.indexed, main.sections_written), (2, 2));
    assert_eq!(main.branch, "", "notes belong to no branch");

    git_at(&repo, &["checkout", "-q", "-b", "feature"], 1_700_000_100);
    let feature = notes_index(&engine, &repo);
    assert_eq!(
        (feature.unchanged, feature.indexed, feature.sections_written),
        (2, 0, 0),
        "nothing re-chunked on another branch"
    );
    std::fs::remove_file(repo.join("sessions/2026_02_06_CACHE/NOTES.md")).unwrap();
    let deleted = notes_index(&engine, &repo);
    assert_eq!((deleted.removed, deleted.sections_removed), (1, 1));

    git_at(&repo, &["checkout", "-q", "main"], 1_700_000_200);
    let back = notes_index(&engine, &repo);
    assert_eq!(
        (back.unchanged, back.indexed, back.removed),
        (1, 0, 0),
        "{back:?}"
    );
    assert!(
        notes_query(&engine, &repo, "mango cache")
            .results
            .is_empty()
    );
    let kiwi = notes_query(&engine, &repo, "kiwi session").results;
    assert_eq!(kiwi.len(), 1, "one copy, not one per branch");
    assert_eq!(kiwi[0].branch, "");

    // A note deleted on main after visiting a branch: gone too.
    git_at(&repo, &["checkout", "-q", "feature"], 1_700_000_300);
    assert_eq!(notes_index(&engine, &repo).unchanged, 1);
    git_at(&repo, &["checkout", "-q", "main"], 1_700_000_400);
    std::fs::remove_file(repo.join("sessions/2026_02_05_AUTH/NOTES.md")).unwrap();
    assert_eq!(notes_index(&engine, &repo).removed, 1);
    assert!(
        notes_query(&engine, &repo, "kiwi session")
            .results
            .is_empty()
    );
    let rows: i64 = rusqlite::Connection::open(home.path().join("docs.db"))
        .unwrap()
        .query_row("SELECT count(*) FROM chunks WHERE kind = 'note'", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(rows, 0);
}

/// Before its first commit a repository's branch is the one HEAD names.
#[test]
fn an_unborn_branch_has_its_name() {
    let home = tempfile::tempdir().unwrap();
    let parent = tempfile::tempdir().unwrap();
    let repo = parent.path().join("fresh");
    write(
        &repo,
        "docs/a.md",
        "## Start\n\nThe first words of the papaya docs.\n",
    );
    git_at(&repo, &["init", "-q", "-b", "trunk"], 1_700_000_000);
    let (engine, _) = engine(home.path());
    let first = index(&engine, &repo);
    assert_eq!(first.branch, "trunk");
    let found = query(&engine, &repo, "papaya", |_| {});
    assert_eq!(found.branch, "trunk");
    assert_eq!(found.results[0].branch, "trunk");
    // The first commit changes nothing: same branch, nothing re-indexed.
    commit_all(&repo, "first", 1_700_000_100);
    let again = index(&engine, &repo);
    assert_eq!((again.branch.as_str(), again.unchanged), ("trunk", 1));
    // Another unborn branch name in another repository.
    let other = parent.path().join("other");
    write(&other, "docs/a.md", "## X\n\nx\n");
    git_at(&other, &["init", "-q", "-b", "feature/new"], 1_700_000_000);
    assert_eq!(index(&engine, &other).branch, "feature/new");
}

/// `## A`, `## A`, `## A##1`: the titles `A`, `A##1`, `A##1` are kept as the spec says,
/// and all three sections are indexed.
#[test]
fn repeated_titles_never_replace_a_section() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "docs/a.md",
        "## A\n\nzebra one\n\n## A\n\nzebra two\n\n## A##1\n\nzebra three\n",
    );
    let (engine, _) = engine(home.path());
    let first = index(&engine, dir.path());
    assert_eq!(first.sections_written, 3);
    let found = query(&engine, dir.path(), "zebra", |r| {
        r.mode = cc_search::hybrid::Mode::Keyword
    });
    let mut sections: Vec<(&str, &str)> = found
        .results
        .iter()
        .map(|h| (h.section.as_str(), h.content.trim_end()))
        .collect();
    sections.sort();
    assert_eq!(
        sections,
        [
            ("A", "## A\n\nzebra one"),
            ("A##1", "## A\n\nzebra two"),
            ("A##1", "## A##1\n\nzebra three"),
        ]
    );
    // Re-indexed unchanged content keeps every key.
    set_mtime(&dir.path().join("docs/a.md"), 100);
    let touched = index(&engine, dir.path());
    assert_eq!((touched.touched, touched.sections_written), (1, 0));
    assert_eq!(query(&engine, dir.path(), "zebra", |_| {}).results.len(), 3);
}

#[test]
fn an_impossible_date_is_a_clear_error() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (engine, _) = engine(home.path());
    for (after, why) in [
        ("2026-02-31", "February 2026 has 28 days"),
        ("2026-04-31", "April 2026 has 30 days"),
        ("2026-00-10", "there is no month 0"),
        ("2026-2-1", "not a date as YYYY-MM-DD"),
    ] {
        let err = engine
            .run::<docs::NotesQuery>(NotesQueryRequest {
                query: "x".into(),
                project_dir: Some(dir.path().into()),
                after: Some(after.into()),
                ..Default::default()
            })
            .unwrap_err();
        assert_eq!(err.code(), "invalid_request");
        assert!(
            err.to_string().contains(why) && err.to_string().contains(after),
            "{err}"
        );
    }
    // A leap day is a date.
    engine
        .run::<docs::NotesQuery>(NotesQueryRequest {
            query: "x".into(),
            project_dir: Some(dir.path().into()),
            after: Some("2028-02-29".into()),
            ..Default::default()
        })
        .unwrap();
}

/// Asking for a branch that was never indexed says so instead of returning nothing.
#[test]
fn a_branch_never_indexed_is_reported() {
    let home = tempfile::tempdir().unwrap();
    let parent = tempfile::tempdir().unwrap();
    let repo = parent.path().join("finch");
    project(&repo);
    git_at(&repo, &["init", "-q", "-b", "main"], 1_700_000_000);
    commit_all(&repo, "docs", 1_700_000_000);
    let (engine, _) = engine(home.path());
    index(&engine, &repo);
    let on_main = query(&engine, &repo, "exponential backoff", |_| {});
    assert!(on_main.warnings.is_empty(), "{:?}", on_main.warnings);
    assert_eq!(on_main.results[0].section, "Errors");

    let elsewhere = query(&engine, &repo, "exponential backoff", |r| {
        r.branch = Some("release/2".into())
    });
    assert!(elsewhere.results.is_empty());
    assert_eq!(elsewhere.warnings.len(), 1, "{:?}", elsewhere.warnings);
    let warning = &elsewhere.warnings[0];
    for part in ["release/2", "finch", "indexed: main", "--all-branches"] {
        assert!(warning.contains(part), "{part} in {warning}");
    }
    // The current branch, never indexed: the same warning.
    git_at(&repo, &["checkout", "-q", "-b", "feature"], 1_700_000_100);
    let here = query(&engine, &repo, "exponential backoff", |_| {});
    assert!(
        here.warnings.iter().any(|w| w.contains("branch feature")),
        "{:?}",
        here.warnings
    );
    // All branches: no warning, and results.
    let all = query(&engine, &repo, "exponential backoff", |r| {
        r.all_branches = true
    });
    assert!(all.warnings.is_empty() && !all.results.is_empty());
}

/// An MCP server for [`project`] written to `dir`, with its data in `home` and no model
/// (keyword search only); `options` give all but the roots (`dir`).
fn keyword_server(
    home: &Path,
    dir: &Path,
    options: cc_search::mcp::ServerOptions,
) -> cc_search::mcp::Server {
    project(dir);
    no_model(home);
    cc_search::mcp::Server::new(
        std::sync::Arc::new(open(home)),
        cc_search::mcp::ServerOptions {
            roots: vec![dir.to_path_buf()],
            ..options
        },
    )
    .unwrap()
}

/// docs.index and docs.query as an MCP client calls them (tools docs_index, docs_query,
/// notes_query), on the project the server was given.
#[test]
fn docs_and_notes_through_mcp() {
    use cc_search::mcp::ServerOptions;
    use serde_json::{Value, json};
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let server = keyword_server(
        home.path(),
        dir.path(),
        ServerOptions {
            tools: vec!["all".into()],
            structured: Some(true),
            ..Default::default()
        },
    );
    let call = |id: i64, tool: &str, arguments: Value| -> Value {
        let message = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                             "params": {"name": tool, "arguments": arguments}});
        let reply: Value =
            serde_json::from_str(&server.handle(&message.to_string()).unwrap()).unwrap();
        assert_eq!(reply["id"], id);
        reply["result"].clone()
    };
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                      "params": {"protocolVersion": "2025-11-25", "capabilities": {}}});
    server.handle(&init.to_string()).unwrap();

    let indexed = call(1, "docs_index", json!({}));
    assert!(indexed.get("isError").is_none(), "{indexed}");
    assert_eq!(indexed["structuredContent"]["files"], 4);
    assert_eq!(indexed["structuredContent"]["sections_written"], 7);
    let found = call(
        2,
        "docs_query",
        json!({"query": "exponential backoff", "limit": 3}),
    );
    assert!(found.get("isError").is_none(), "{found}");
    let text: Value = serde_json::from_str(found["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(text, found["structuredContent"]);
    let top = &text["results"][0];
    assert_eq!(top["file"], "docs/guide.md");
    assert_eq!(top["section"], "Errors");
    assert!(
        top["content"]
            .as_str()
            .unwrap()
            .contains("exponential backoff")
    );
    assert_eq!(text["mode"], "keyword");

    let bad = call(
        3,
        "notes_query",
        json!({"query": "x", "after": "2026-02-31"}),
    );
    assert_eq!(bad["isError"], true);
    assert!(
        bad["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("February 2026 has 28 days"),
        "{bad}"
    );
    let outside = call(4, "docs_query", json!({"query": "x", "project_dir": "/"}));
    assert_eq!(outside["isError"], true, "confined to the roots: {outside}");
}

/// An agent's `docs_query` answer names each section's lines and quotes the lines that
/// match, not the whole section (the typed result keeps the full text).
#[test]
fn an_agent_gets_the_matching_lines_and_where_the_section_is() {
    use cc_search::mcp::ServerOptions;
    use serde_json::{Value, json};
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let server = keyword_server(home.path(), dir.path(), ServerOptions::default());
    let message = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "docs_query", "arguments": {"query": "exponential backoff"}}});
    let reply: Value = serde_json::from_str(&server.handle(&message.to_string()).unwrap()).unwrap();
    let text = reply["result"]["content"][0]["text"].as_str().unwrap();
    let answer: Value = serde_json::from_str(text).unwrap();
    let top = &answer["results"][0];
    assert_eq!(top["file"], "docs/guide.md", "{answer}");
    assert_eq!(top["section"], "Errors");
    assert_eq!(top["l"], "9-12", "{answer}");
    assert_eq!(
        top["excerpt"],
        "Errors are retried with exponential backoff."
    );
    assert!(top.get("content").is_none(), "{answer}");
    // The lines named are the section's.
    let lines: Vec<&str> = GUIDE.lines().collect();
    assert_eq!(lines[8], "## Errors");
    assert_eq!(lines[11], "");
    assert_eq!(lines[12], "## Matching");
    let (engine, _) = engine(home.path());
    let full = query(&engine, dir.path(), "exponential backoff", |_| {});
    assert_eq!(
        (full.results[0].start_line, full.results[0].end_line),
        (Some(9), Some(12))
    );
    assert!(full.results[0].content.starts_with("## Errors\n"));
}

/// Sections an earlier version indexed (no lines in their meta) get their lines on the
/// next run, which schema 5 makes read every file again: nothing is re-embedded.
#[test]
fn sections_indexed_before_they_knew_their_lines_learn_them() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    project(dir.path());
    no_model(home.path());
    let engine = open(home.path());
    index(&engine, dir.path());
    let db = rusqlite::Connection::open(home.path().join("docs.db")).unwrap();
    // What schema 4 left, and what schema 5's migration does to it.
    db.execute_batch(
        "UPDATE chunks SET meta = json_remove(meta, '$.line', '$.end_line');
         UPDATE doc_files SET mtime_ns = -1;",
    )
    .unwrap();
    let before = query(&engine, dir.path(), "exponential backoff", |_| {});
    assert_eq!(before.results[0].start_line, None);
    let again = index(&engine, dir.path());
    assert_eq!((again.touched, again.sections_written), (4, 0), "{again:?}");
    let after = query(&engine, dir.path(), "exponential backoff", |_| {});
    assert_eq!(
        (after.results[0].start_line, after.results[0].end_line),
        (Some(9), Some(12))
    );
}

/// Notes indexed per branch by an earlier version are dropped and indexed once, for
/// every branch.
#[test]
fn notes_indexed_per_branch_before_are_indexed_once() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "sessions/2026_02_05_AUTH/NOTES.md",
        "## Findings\n\nThe lychee token.\n\n## Plan\n\nRotate it.\n",
    );
    let (engine, _) = engine(home.path());
    assert_eq!(notes_index(&engine, dir.path()).sections_written, 2);
    // What an earlier version wrote on branch main: its rows and sources named the branch.
    let db = rusqlite::Connection::open(home.path().join("docs.db")).unwrap();
    db.execute_batch(
        "UPDATE doc_files SET branch = 'main' WHERE collection = 'notes';
         UPDATE chunks SET source = kind || char(0) || scope || char(0) || 'main' || char(0)
           || json_extract(meta, '$.path') WHERE kind = 'note';",
    )
    .unwrap();
    let again = notes_index(&engine, dir.path());
    assert_eq!((again.indexed, again.sections_written), (1, 2), "{again:?}");
    let count = |sql: &str| -> i64 { db.query_row(sql, [], |r| r.get(0)).unwrap() };
    assert_eq!(
        count("SELECT count(*) FROM doc_files WHERE collection = 'notes' AND branch <> ''"),
        0
    );
    assert_eq!(count("SELECT count(*) FROM chunks WHERE kind = 'note'"), 2);
    assert_eq!(
        notes_query(&engine, dir.path(), "lychee token")
            .results
            .len(),
        1
    );
    assert_eq!(notes_index(&engine, dir.path()).unchanged, 1);
}

/// Through the MCP server, a first `docs_query` does not wait for the model: the index
/// run before it only splits the docs (the answer comes by keyword and says the rest is
/// on its way), and the sections are embedded on a background thread, after which a
/// question no word of which is in the docs finds its section by meaning, and the answers
/// stop saying that the docs are being embedded.
#[test]
fn the_first_mcp_docs_query_answers_by_keyword_while_the_docs_are_embedded() {
    use cc_search::mcp::{Server, ServerOptions};
    use serde_json::{Value, json};
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    project(dir.path());
    let (engine, model) = engine(home.path());
    let server = Server::new(
        std::sync::Arc::new(engine),
        ServerOptions {
            roots: vec![dir.path().to_path_buf()],
            ..Default::default()
        },
    )
    .unwrap();
    let ask = |query: &str| -> Value {
        let message = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "docs_query", "arguments": {"query": query, "limit": 3}}});
        let reply: Value =
            serde_json::from_str(&server.handle(&message.to_string()).unwrap()).unwrap();
        let text = reply["result"]["content"][0]["text"].as_str().unwrap();
        serde_json::from_str(text).unwrap_or_else(|_| panic!("{text}"))
    };
    let first = ask("exponential backoff");
    assert_eq!(first["results"][0]["section"], "Errors", "{first}");
    if model {
        assert!(
            first["warnings"].as_array().is_some_and(|w| w
                .iter()
                .any(|w| w.as_str().unwrap().contains("embedded in the background"))),
            "{first}"
        );
    }
    assert!(server.wait_for_background(Duration::from_secs(120)));
    let status = index(&open(home.path()), dir.path());
    if model {
        assert_eq!(
            (status.pending_vectors, status.embedded),
            (0, 0),
            "{status:?}"
        );
        let meaning = ask("how are riders paired with drivers");
        assert_eq!(meaning["results"][0]["section"], "Matching", "{meaning}");
        // Nothing left to embed: no background run starts, and no answer says one does.
        assert!(
            !meaning.to_string().contains("embedded in the background"),
            "{meaning}"
        );
        assert!(server.wait_for_background(Duration::from_millis(1)));
    } else {
        assert!(status.pending_vectors > 0);
    }
}

/// A server's `docs_query` brings the docs index up to date first. While nothing changed
/// it does so without walking the project or writing the index (it answers even while
/// another process holds the index's writer lock), and a changed or new doc is found by
/// the very next call.
#[cfg(target_os = "linux")]
#[test]
fn a_server_answers_docs_without_walking_while_nothing_changed_and_sees_every_change() {
    use cc_search::mcp::{Server, ServerOptions};
    use serde_json::{Value, json};
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    project(dir.path());
    let (engine, _) = engine(home.path());
    let server = std::sync::Arc::new(
        Server::new(
            std::sync::Arc::new(engine),
            ServerOptions {
                roots: vec![dir.path().to_path_buf()],
                ..Default::default()
            },
        )
        .unwrap(),
    );
    // The sections found (a new section has no vector yet, so it is found by keyword and
    // may tie with another found by meaning alone: which comes first is not the point).
    let found = |server: &Server, query: &str| -> Vec<String> {
        let message = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "docs_query", "arguments": {"query": query, "limit": 3}}});
        let reply: Value =
            serde_json::from_str(&server.handle(&message.to_string()).unwrap()).unwrap();
        let text = reply["result"]["content"][0]["text"].as_str().unwrap();
        let answer: Value = serde_json::from_str(text).unwrap_or_else(|_| panic!("{text}"));
        assert!(
            !text.contains("could not be brought up to date"),
            "{answer}"
        );
        answer["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                format!(
                    "{} › {}",
                    r["file"].as_str().unwrap(),
                    r["section"].as_str().unwrap()
                )
            })
            .collect()
    };
    let first = move |server: &Server, query: &str| -> String { found(server, query).remove(0) };
    assert_eq!(
        first(&server, "exponential backoff"),
        "docs/guide.md › Errors"
    );
    assert!(server.wait_for_background(Duration::from_secs(120)));
    assert_eq!(
        first(&server, "exponential backoff"),
        "docs/guide.md › Errors"
    );

    let db = home.path().join("docs.db");
    let lock = std::fs::File::create(format!("{}-writer", db.display())).unwrap();
    lock.lock().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let asking = std::sync::Arc::clone(&server);
    std::thread::spawn(move || tx.send(first(&asking, "exponential backoff")).unwrap());
    let answered = rx.recv_timeout(Duration::from_secs(60));
    lock.unlock().unwrap();
    assert_eq!(
        answered.expect("an unchanged project was walked and written again"),
        "docs/guide.md › Errors"
    );

    write(
        dir.path(),
        "docs/guide.md",
        format!("{GUIDE}\n## Zebras\n\nStriped quokkas graze here.\n"),
    );
    assert!(found(&server, "striped quokkas").contains(&"docs/guide.md › Zebras".to_string()));
    write(
        dir.path(),
        "docs/new/place/howto.md",
        "## Wombats\n\nBurrowing wombats dig.\n",
    );
    assert!(
        found(&server, "burrowing wombats")
            .contains(&"docs/new/place/howto.md › Wombats".to_string())
    );
    assert!(server.wait_for_background(Duration::from_secs(120)));
}

/// A project is found once per directory and then again only when its repository
/// changes under it: a checkout (another branch, a detached HEAD) is seen by the next
/// call, a repository made inside the project becomes a project of its own, and a
/// removed one leaves the directory on its own.
#[test]
fn the_project_of_a_directory_follows_its_repository() {
    let home = tempfile::tempdir().unwrap();
    let parent = tempfile::tempdir().unwrap();
    let repo = std::fs::canonicalize(parent.path()).unwrap().join("outer");
    write(&repo, "docs/a.md", "## Start\n\nQuokka docs.\n");
    write(&repo, "inner/docs/b.md", "## Inner\n\nNumbat docs.\n");
    git_at(&repo, &["init", "-q", "-b", "main"], 1_700_000_000);
    commit_all(&repo, "first", 1_700_000_100);
    let (engine, _) = engine(home.path());
    let inner = repo.join("inner");
    let first = index(&engine, &inner);
    assert_eq!(
        (first.root.as_path(), first.branch.as_str()),
        (repo.as_path(), "main")
    );
    git_at(&repo, &["checkout", "-q", "-b", "feature/x"], 1_700_000_200);
    assert_eq!(index(&engine, &inner).branch, "feature/x");
    git_at(&repo, &["checkout", "-q", "--detach"], 1_700_000_300);
    let detached = index(&engine, &inner).branch;
    assert!(detached.starts_with("detached@"), "{detached}");
    assert_eq!(detached.len(), "detached@".len() + 7, "{detached}");
    // A repository of its own inside the project.
    git_at(&inner, &["init", "-q", "-b", "trunk"], 1_700_000_400);
    let nested = index(&engine, &inner);
    assert_eq!(
        (nested.root.as_path(), nested.branch.as_str()),
        (inner.as_path(), "trunk")
    );
    // No repository at all any more: the directory is the project, without a branch.
    std::fs::remove_dir_all(inner.join(".git")).unwrap();
    std::fs::remove_dir_all(repo.join(".git")).unwrap();
    let plain = index(&engine, &inner);
    assert_eq!(
        (plain.root.as_path(), plain.branch.as_str()),
        (inner.as_path(), "")
    );
}

/// Once the background embedding is done its vectors are in the database file, not
/// only in the WAL: a search reads them through the memory map, without looking each
/// page up in the WAL.
#[test]
fn embedded_vectors_are_checkpointed_into_the_database_file() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    project(dir.path());
    let (engine, model) = engine(home.path());
    if !model {
        eprintln!("no model: nothing is embedded");
        return;
    }
    let indexed = index(&engine, dir.path());
    assert!(indexed.embedded > 0, "{indexed:?}");
    let conn = rusqlite::Connection::open(home.path().join("docs.db")).unwrap();
    let pages: i64 = conn
        .query_row("PRAGMA page_count", [], |r| r.get(0))
        .unwrap();
    let page_size: i64 = conn
        .query_row("PRAGMA page_size", [], |r| r.get(0))
        .unwrap();
    let file = std::fs::metadata(home.path().join("docs.db"))
        .unwrap()
        .len() as i64;
    assert_eq!(file, pages * page_size, "the file holds every page");
}
