//! The hybrid chunk engine on SQLite files with the real all-MiniLM-L6-v2: windows for
//! long text, keyword + vector fusion, filters inside the KNN, the shared vector cache,
//! updates and deletes, the keyword-only fallback, hostile queries, determinism.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::{Arc, OnceLock};

use cc_search::Engine;
use cc_search::embed::{Cache, Embedder, MiniLm};
use cc_search::hybrid::{self, ChunkStore, Filter, Mode, NewChunk, Search};
use cc_search::rank::Recency;

use crate::common;

fn model() -> Option<Arc<MiniLm>> {
    static MODEL: OnceLock<Option<Arc<MiniLm>>> = OnceLock::new();
    MODEL
        .get_or_init(|| common::model_dir().map(|dir| Arc::new(MiniLm::load(&dir).unwrap())))
        .clone()
}

fn chunk(key: &str, scope: &str, kind: &str, time: i64, text: &str) -> NewChunk {
    NewChunk {
        key: key.into(),
        source: format!("{scope}/source"),
        scope: scope.into(),
        kind: kind.into(),
        tag: String::new(),
        time,
        title: String::new(),
        text: text.into(),
        meta: "{}".into(),
    }
}

struct Fixture {
    _dir: tempfile::TempDir,
    store: ChunkStore,
    cache: Cache,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    Fixture {
        store: ChunkStore::new(dir.path().join("chunks.db"), hybrid::SCHEMA),
        cache: Cache::new(dir.path().join("embeddings.db")),
        _dir: dir,
    }
}

fn put(store: &ChunkStore, chunks: &[NewChunk]) -> hybrid::PutStats {
    let mut warnings = Vec::new();
    let mut conn = store.db().write(&mut warnings).unwrap();
    let tx = conn.transaction().unwrap();
    let stats = store.put(&tx, chunks).unwrap();
    tx.commit().unwrap();
    stats
}

fn embed(f: &Fixture, model: &dyn Embedder) -> hybrid::EmbedStats {
    f.store
        .embed_pending(
            model,
            &f.cache,
            &Default::default(),
            &mut |_, _| Ok(()),
            &mut Vec::new(),
        )
        .unwrap()
}

fn search(f: &Fixture, model: Option<&dyn Embedder>, s: &Search) -> Vec<hybrid::Hit> {
    let vector = model.map(|m| hybrid::query_vector(m, &s.text).unwrap());
    f.store
        .search(s, vector.as_deref(), &mut Vec::new())
        .unwrap()
}

fn keys(hits: &[hybrid::Hit]) -> Vec<&str> {
    hits.iter().map(|h| h.key.as_str()).collect()
}

fn query(text: &str, mode: Mode) -> Search {
    Search {
        text: text.into(),
        mode,
        ..Search::default()
    }
}

const CORPUS: &[(&str, &str)] = &[
    (
        "git-undo",
        "To take back the most recent commit but keep its changes staged, run git reset --soft HEAD~1.",
    ),
    (
        "rust-borrow",
        "The borrow checker refuses two mutable references to the same value at once.",
    ),
    (
        "sqlite-wal",
        "WAL mode lets readers continue while a single writer appends to the write-ahead log.",
    ),
    (
        "timeout-flag",
        "Raise XYZZY_TIMEOUT when the integration suite needs more than thirty seconds.",
    ),
    (
        "css-grid",
        "A CSS grid places items in rows and columns; grid-template-areas names the regions.",
    ),
    (
        "python-venv",
        "Create an isolated Python environment with python -m venv .venv and activate it.",
    ),
    (
        "docker-cache",
        "Docker reuses cached image layers until a COPY instruction sees changed files.",
    ),
    (
        "http-retry",
        "Retry failed HTTP requests with exponential backoff and a cap on the number of attempts.",
    ),
    (
        "bread",
        "Knead the dough for ten minutes, then let it rise somewhere warm for an hour.",
    ),
    (
        "football",
        "The striker scored twice in the second half and the home side won the league.",
    ),
];

fn corpus_fixture(model: &dyn Embedder) -> Fixture {
    let f = fixture();
    let chunks: Vec<NewChunk> = CORPUS
        .iter()
        .map(|(key, text)| chunk(key, "p", "user", 1_000, text))
        .collect();
    assert_eq!(put(&f.store, &chunks).inserted, CORPUS.len());
    let stats = embed(&f, model);
    assert_eq!(stats.chunks, CORPUS.len());
    assert_eq!(stats.windows, CORPUS.len());
    f
}

#[test]
fn each_retriever_finds_what_it_is_good_at_and_hybrid_finds_both() {
    let Some(model) = model() else { return };
    let f = corpus_fixture(model.as_ref());
    let m: Option<&dyn Embedder> = Some(model.as_ref());

    // Meaning without shared words: only the vector list can find it.
    let meaning = "how can I undo my last commit";
    let by_vector = search(&f, m, &query(meaning, Mode::Vector));
    assert_eq!(by_vector[0].key, "git-undo");
    // The reported similarity is the cosine of the two vectors (sqlite-vec's L2
    // distance converted back), to float precision.
    let pair = model.embed(&[meaning, CORPUS[0].1]).unwrap();
    let cosine: f32 = pair[0].iter().zip(&pair[1]).map(|(a, b)| a * b).sum();
    let similarity = by_vector[0].similarity.unwrap();
    assert!(
        (similarity - cosine as f64).abs() < 1e-5,
        "{similarity} vs {cosine}"
    );
    assert!(similarity > 0.4);
    assert_eq!(by_vector[0].keyword_rank, None);
    assert_eq!(
        search(&f, m, &query(meaning, Mode::Hybrid))[0].key,
        "git-undo"
    );

    // A rare identifier: BM25 nails it.
    let ident = "XYZZY_TIMEOUT";
    let by_keyword = search(&f, None, &query(ident, Mode::Keyword));
    assert_eq!(keys(&by_keyword), ["timeout-flag"]);
    let hybrid = search(&f, m, &query(ident, Mode::Hybrid));
    assert_eq!(hybrid[0].key, "timeout-flag");
    assert_eq!(hybrid[0].keyword_rank, Some(1));
    assert!(hybrid[0].vector_rank.is_some());

    // Keyword mode needs no vector, vector mode returns every chunk when asked for more.
    assert_eq!(
        search(&f, m, &query("sourdough baking", Mode::Vector))[0].key,
        "bread"
    );
    let all = search(
        &f,
        m,
        &Search {
            limit: 50,
            ..query("anything", Mode::Vector)
        },
    );
    assert_eq!(all.len(), CORPUS.len());
}

#[test]
#[allow(clippy::single_range_in_vec_init)] // one range is what is expected
fn long_text_is_embedded_in_overlapping_windows_that_cover_it() {
    let Some(model) = model() else { return };
    let filler = "The committee reviewed the quarterly budget line by line and adjourned. ";
    let mut text = filler.repeat(60); // ~ 840 words, well over 256 word pieces
    text.push_str("Finally the lighthouse keeper polished the great brass lens at dawn.");
    let windows = model.windows(&text).unwrap();
    assert!(windows.len() >= 3, "{windows:?}");
    assert_eq!(windows[0].start, 0);
    assert_eq!(windows.last().unwrap().end, text.len());
    for pair in windows.windows(2) {
        assert!(pair[1].start < pair[0].end, "windows overlap: {pair:?}");
        assert!(pair[1].start > pair[0].start);
    }
    for w in &windows {
        let pieces = model.word_pieces(&text[w.clone()]).unwrap().len();
        assert!(pieces <= 256, "a window of {pieces} word pieces");
    }
    assert_eq!(model.windows("short text").unwrap(), [0..10]);

    // The end of the text, past what one 256-piece input would read, is found, and the
    // hit says which window matched.
    let f = fixture();
    put(
        &f.store,
        &[
            chunk("long", "p", "doc", 1, &text),
            chunk(
                "other",
                "p",
                "doc",
                1,
                "Sailors fear the storm near the rocks.",
            ),
        ],
    );
    let stats = embed(&f, model.as_ref());
    assert_eq!(stats.windows, windows.len() + 1);
    let hits = search(
        &f,
        Some(model.as_ref()),
        &query("lighthouse keeper cleaning the lens", Mode::Vector),
    );
    assert_eq!(hits[0].key, "long");
    let (start, end) = hits[0].window.expect("the best window of a windowed chunk");
    assert_eq!((start, end), {
        let last = windows.last().unwrap();
        (last.start, last.end)
    });
    assert_eq!(hits[1].window, None, "one-window chunks name no window");
}

#[test]
fn filters_apply_inside_the_knn_so_k_results_come_back() {
    let Some(model) = model() else { return };
    let f = fixture();
    let mut chunks = Vec::new();
    // 150 chunks close to the query in scope "big", as tool output, recent…
    for i in 0..150 {
        chunks.push(chunk(
            &format!("big-{i:03}"),
            "big",
            "tool",
            2_000 + i,
            &format!("database connection pool exhausted error number {i}"),
        ));
    }
    // …and a few far from it, in scope "small" or of kind "user" or old.
    for i in 0..4 {
        chunks.push(chunk(
            &format!("small-{i}"),
            "small",
            "tool",
            2_000,
            &format!("a recipe for lemon cake number {i}"),
        ));
        chunks.push(chunk(
            &format!("user-{i}"),
            "big",
            "user",
            2_000,
            &format!("the cat sat on the mat {i}"),
        ));
        chunks.push(chunk(
            &format!("old-{i}"),
            "big",
            "tool",
            10 + i as i64,
            &format!("mountains and rivers {i}"),
        ));
    }
    put(&f.store, &chunks);
    embed(&f, model.as_ref());
    let m: Option<&dyn Embedder> = Some(model.as_ref());
    let text = "database connection pool exhausted";
    let filtered = |filter: Filter, mode: Mode| {
        search(
            &f,
            m,
            &Search {
                filter,
                limit: 4,
                candidates: 4,
                ..query(text, mode)
            },
        )
    };
    for mode in [Mode::Vector, Mode::Hybrid] {
        let hits = filtered(
            Filter {
                scopes: Some(vec!["small".into()]),
                ..Filter::default()
            },
            mode,
        );
        assert_eq!(keys(&hits).len(), 4, "{mode:?}");
        assert!(hits.iter().all(|h| h.scope == "small"));

        let hits = filtered(
            Filter {
                kinds: Some(vec!["user".into()]),
                ..Filter::default()
            },
            mode,
        );
        assert_eq!(hits.len(), 4);
        assert!(hits.iter().all(|h| h.kind == "user"));

        let hits = filtered(
            Filter {
                until: Some(100),
                ..Filter::default()
            },
            mode,
        );
        assert_eq!(hits.len(), 4);
        assert!(hits.iter().all(|h| h.key.starts_with("old-")));

        let hits = filtered(
            Filter {
                scopes: Some(vec!["small".into(), "big".into()]),
                kinds: Some(vec!["tool".into()]),
                since: Some(2_100),
                ..Filter::default()
            },
            mode,
        );
        assert_eq!(hits.len(), 4);
        assert!(hits.iter().all(|h| h.time >= 2_100 && h.kind == "tool"));

        let none = filtered(
            Filter {
                scopes: Some(vec!["no-such-project".into()]),
                ..Filter::default()
            },
            mode,
        );
        assert!(none.is_empty());
    }
}

#[test]
fn the_vector_cache_is_shared_so_no_text_is_embedded_twice() {
    let Some(model) = model() else { return };
    let dir = tempfile::tempdir().unwrap();
    let cache = Cache::new(dir.path().join("embeddings.db"));
    let a = ChunkStore::new(dir.path().join("a.db"), hybrid::SCHEMA);
    let b = ChunkStore::new(dir.path().join("b.db"), hybrid::SCHEMA);
    let chunks: Vec<NewChunk> = CORPUS
        .iter()
        .map(|(key, text)| chunk(key, "p", "doc", 1, text))
        .collect();
    let run = |store: &ChunkStore| {
        store
            .embed_pending(
                model.as_ref(),
                &cache,
                &Default::default(),
                &mut |_, _| Ok(()),
                &mut Vec::new(),
            )
            .unwrap()
    };
    put(&a, &chunks);
    assert_eq!(run(&a).embedded, CORPUS.len());
    // The same texts in another index (another project, another branch): all cached.
    put(&b, &chunks);
    let second = run(&b);
    assert_eq!((second.chunks, second.embedded), (CORPUS.len(), 0));
    // Nothing pending: nothing to do.
    assert_eq!(run(&a), hybrid::EmbedStats::default());

    // A chunk that only moved scope loses its vectors (the scope is in the KNN) and gets
    // them back from the cache.
    let mut moved = chunks[0].clone();
    moved.scope = "q".into();
    let stats = put(&a, &[moved.clone(), chunks[1].clone()]);
    assert_eq!((stats.updated, stats.unchanged), (1, 1));
    let again = run(&a);
    assert_eq!((again.chunks, again.embedded), (1, 0));
    let f = Fixture {
        _dir: tempfile::tempdir().unwrap(),
        store: a,
        cache: Cache::new(dir.path().join("embeddings.db")),
    };
    let hits = search(
        &f,
        Some(model.as_ref()),
        &Search {
            filter: Filter {
                scopes: Some(vec!["q".into()]),
                ..Filter::default()
            },
            ..query("undo a commit", Mode::Vector)
        },
    );
    assert_eq!(keys(&hits), ["git-undo"]);
}

#[test]
fn updates_and_deletes_keep_text_index_and_vectors_in_step() {
    let Some(model) = model() else { return };
    let f = fixture();
    let m: Option<&dyn Embedder> = Some(model.as_ref());
    put(
        &f.store,
        &[
            chunk("a", "p", "doc", 1, "the aardvark digs burrows at night"),
            chunk("b", "p", "doc", 1, "the pelican scoops fish into its pouch"),
            chunk("c", "p", "doc", 1, "glaciers carve valleys over millennia"),
        ],
    );
    embed(&f, model.as_ref());

    // New text: the old words are gone from the keyword index, the new ones found, the
    // vector is remade.
    let stats = put(
        &f.store,
        &[chunk(
            "a",
            "p",
            "doc",
            1,
            "the wombat sleeps in a burrow by day",
        )],
    );
    assert_eq!(stats.updated, 1);
    assert!(search(&f, None, &query("aardvark", Mode::Keyword)).is_empty());
    assert_eq!(
        keys(&search(&f, None, &query("wombat", Mode::Keyword))),
        ["a"]
    );
    let mut warnings = Vec::new();
    assert_eq!(f.store.stats(&mut warnings).unwrap().pending, 1);
    assert_eq!(embed(&f, model.as_ref()).chunks, 1);
    assert_eq!(
        search(&f, m, &query("marsupial asleep underground", Mode::Vector))[0].key,
        "a"
    );

    // A re-indexed source that no longer yields "b" loses it, from both retrievers.
    let removed = {
        let mut conn = f.store.db().write(&mut warnings).unwrap();
        let tx = conn.transaction().unwrap();
        let n = f.store.retain_source(&tx, "p/source", &["a", "c"]).unwrap();
        tx.commit().unwrap();
        n
    };
    assert_eq!(removed, 1);
    assert!(search(&f, None, &query("pelican", Mode::Keyword)).is_empty());
    let everything = search(
        &f,
        m,
        &Search {
            limit: 10,
            ..query("a bird catching fish", Mode::Vector)
        },
    );
    let mut found = keys(&everything);
    found.sort();
    assert_eq!(found, ["a", "c"]);
    let stats = f.store.stats(&mut warnings).unwrap();
    assert_eq!((stats.chunks, stats.windows, stats.pending), (2, 2, 0));

    // Deleting the source empties the store, vectors included.
    let mut conn = f.store.db().write(&mut warnings).unwrap();
    let tx = conn.transaction().unwrap();
    assert_eq!(f.store.delete_source(&tx, "p/source").unwrap(), 2);
    tx.commit().unwrap();
    let vectors: i64 = conn
        .query_row("SELECT count(*) FROM chunk_vectors", [], |r| r.get(0))
        .unwrap();
    assert_eq!(vectors, 0);
    drop(conn);
    assert!(search(&f, m, &query("anything", Mode::Vector)).is_empty());
}

#[test]
fn without_a_model_hybrid_search_is_keyword_only_and_says_so_once() {
    let home = tempfile::tempdir().unwrap();
    std::fs::write(
        home.path().join("config.toml"),
        format!(
            "[embed]\nmodel_dir = \"{}\"\n",
            home.path().join("no-model-here").display()
        ),
    )
    .unwrap();
    let engine = Engine::open_at(home.path()).unwrap();
    let mut warnings = Vec::new();
    assert!(
        hybrid::embedder_for(&engine, Mode::Hybrid, &mut warnings)
            .unwrap()
            .is_none()
    );
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].contains("keyword-only"), "{}", warnings[0]);
    assert!(warnings[0].contains("no-model-here"), "{}", warnings[0]);
    let mut again = Vec::new();
    assert!(
        hybrid::embedder_for(&engine, Mode::Hybrid, &mut again)
            .unwrap()
            .is_none()
    );
    assert!(again.is_empty(), "said once: {again:?}");
    assert!(hybrid::embedder_for(&engine, Mode::Vector, &mut again).is_err());
    assert!(
        hybrid::embedder_for(&engine, Mode::Keyword, &mut again)
            .unwrap()
            .is_none()
    );

    // Chunks written without a model are searchable by keyword at once and wait for
    // their vectors.
    let f = fixture();
    put(
        &f.store,
        &[chunk("k", "p", "doc", 1, "offline search still works")],
    );
    let hits = search(&f, None, &query("offline", Mode::Hybrid));
    assert_eq!(keys(&hits), ["k"]);
    assert_eq!(hits[0].vector_rank, None);
    assert_eq!(f.store.stats(&mut warnings).unwrap().pending, 1);
    let err = f
        .store
        .search(&query("offline", Mode::Vector), None, &mut warnings)
        .unwrap_err();
    assert_eq!(err.code(), "invalid_request");
}

#[test]
fn hostile_query_text_never_reaches_fts5_as_syntax() {
    let f = fixture();
    put(
        &f.store,
        &[chunk(
            "q",
            "p",
            "doc",
            1,
            "quotes \" and stars * and NEAR(x y) and AND OR NOT",
        )],
    );
    let long = "word ".repeat(5_000);
    for text in [
        "\"",
        "\"unbalanced",
        "*",
        "-",
        "- foo",
        "NEAR(",
        "AND",
        "OR OR OR",
        "NOT x",
        "a:b",
        "col:value",
        "^start",
        "(((",
        "{}[]",
        "'; DROP TABLE chunks; --",
        "\0nul",
        "ünïcödé 日本語 🚀",
        "",
        "   ",
        long.as_str(),
    ] {
        let hits = f
            .store
            .search(&query(text, Mode::Keyword), None, &mut Vec::new());
        assert!(hits.is_ok(), "{text:?}: {hits:?}");
    }
    assert_eq!(
        keys(&search(&f, None, &query("NEAR(x", Mode::Keyword))),
        ["q"]
    );
}

#[test]
fn kind_weights_and_recency_reorder_and_ties_break_by_key() {
    let f = fixture();
    put(
        &f.store,
        &[
            chunk("b-tool", "p", "tool", 1_000, "deploy the staging server"),
            chunk("a-user", "p", "user", 1_000, "deploy the staging server"),
        ],
    );
    // Equal text, equal BM25: the key decides, every time.
    let plain = search(&f, None, &query("deploy staging", Mode::Keyword));
    assert_eq!(keys(&plain), ["a-user", "b-tool"]);

    let mut weights = BTreeMap::new();
    weights.insert("user".to_string(), 0.5);
    let weighted = search(
        &f,
        None,
        &Search {
            kind_weights: weights,
            ..query("deploy staging", Mode::Keyword)
        },
    );
    assert_eq!(keys(&weighted), ["b-tool", "a-user"]);

    put(
        &f.store,
        &[chunk(
            "b-tool",
            "p",
            "tool",
            900_000,
            "deploy the staging server",
        )],
    );
    let recent = search(
        &f,
        None,
        &Search {
            recency: Some(Recency {
                now: 1_000_000,
                half_life_secs: 86_400.0,
                floor: 0.1,
            }),
            ..query("deploy staging", Mode::Keyword)
        },
    );
    assert_eq!(keys(&recent), ["b-tool", "a-user"]);
    assert!(recent[0].score > recent[1].score);
}

#[test]
fn the_same_query_on_the_same_index_gives_the_same_output() {
    let Some(model) = model() else { return };
    let f = corpus_fixture(model.as_ref());
    let s = Search {
        limit: 10,
        ..query("configure a cache for faster builds", Mode::Hybrid)
    };
    let first = search(&f, Some(model.as_ref()), &s);
    let second = search(&f, Some(model.as_ref()), &s);
    assert_eq!(first, second);
    assert_eq!(
        serde_json::to_string(&first).unwrap(),
        serde_json::to_string(&second).unwrap()
    );
    assert_eq!(first.len(), CORPUS.len());
}

#[test]
fn a_store_database_is_a_real_sqlite_file_with_the_schema() {
    let f = fixture();
    put(&f.store, &[chunk("x", "p", "doc", 1, "hello")]);
    let path: &Path = f.store.db().path();
    let conn = rusqlite::Connection::open(path).unwrap();
    let ok: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(ok, "ok");
    let version: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, hybrid::SCHEMA.len() as i64);
    // The store's own connections read the file through a memory map (the KNN scans
    // every vector; see docs/BENCHMARKS.md, hybrid); a plain connection does not.
    let pooled = f.store.db().read(&mut Vec::new()).unwrap();
    let mapped: i64 = pooled
        .query_row("PRAGMA mmap_size", [], |r| r.get(0))
        .unwrap();
    assert!(mapped >= 1 << 30, "mmap_size {mapped}");
    let plain: i64 = conn
        .query_row("PRAGMA mmap_size", [], |r| r.get(0))
        .unwrap();
    assert_eq!(plain, 0);
}
