//! `code.search_symbols` for a bare name: the symbol that defines it comes first, ahead of
//! impls, variables, fields and uses of the same name and of other names that contain
//! it, in every language with types — on real files, indexed for real.

use std::path::Path;

use cc_search::Engine;
use serde_json::{Value, json};

use crate::common;
use common::{call, hit_names, write};

/// (name, kind, file) of the hits for `query`, best first.
fn hits(engine: &Engine, root: &Path, query: &str) -> Vec<(String, String, String)> {
    let out = call(
        engine,
        "code.search_symbols",
        json!({"path": root, "query": query, "limit": 10}),
    );
    let file = |h: &Value| h["path"].as_str().unwrap().to_string();
    out["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            (
                h["name"].as_str().unwrap().to_string(),
                h["kind"].as_str().unwrap().to_string(),
                file(h),
            )
        })
        .collect()
}

/// Many uses of `Engine` (and of `engine`) in `uses`, and its definition in `def`, whose
/// path does not name it.
fn repo(files: &[(&str, String)]) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    for (rel, text) in files {
        write(&root, rel, text);
    }
    (dir, root)
}

fn uses(line: impl Fn(usize) -> String, n: usize) -> String {
    (0..n).map(line).collect::<Vec<_>>().join("\n")
}

/// (language, files, the definition's kind, its file).
type Case = (
    &'static str,
    Vec<(&'static str, String)>,
    &'static str,
    &'static str,
);

#[test]
fn a_bare_type_name_finds_its_definition_first_in_each_language() {
    let home = tempfile::tempdir().unwrap();
    let engine = Engine::open_at(home.path()).unwrap();
    let cases: Vec<Case> = vec![
        (
            "rust",
            vec![
                (
                    "src/core.rs",
                    "/// The engine.\npub struct Engine {\n    pub n: u8,\n}\n".into(),
                ),
                (
                    "src/engine/mod.rs",
                    format!(
                        "impl Engine {{\n    pub fn new() -> Engine {{ Engine {{ n: 0 }} }}\n}}\nimpl Clone for Engine {{\n    fn clone(&self) -> Engine {{ Engine {{ n: self.n }} }}\n}}\n{}\n",
                        uses(
                            |i| format!(
                                "pub fn engine_{i}(engine: &Engine) -> u8 {{ let engine = engine; engine.n }}"
                            ),
                            12
                        )
                    ),
                ),
            ],
            "struct",
            "src/core.rs",
        ),
        (
            "python",
            vec![
                (
                    "pkg/core.py",
                    "class Engine:\n    \"\"\"The engine.\"\"\"\n    pass\n".into(),
                ),
                (
                    "pkg/engine.py",
                    format!(
                        "from pkg.core import Engine\n\nengine = Engine()\n\nclass Holder:\n    engine: Engine = None\n\n{}\n",
                        uses(
                            |i| format!(
                                "def engine_{i}(engine):\n    engine = Engine()\n    return engine\n"
                            ),
                            12
                        )
                    ),
                ),
            ],
            "class",
            "pkg/core.py",
        ),
        (
            "typescript",
            vec![
                ("src/core.ts", "export class Engine {\n  n = 0\n}\n".into()),
                (
                    "src/engine.ts",
                    format!(
                        "import {{ Engine }} from './core'\nexport const engine = new Engine()\ninterface EngineHolder {{ engine: Engine }}\n{}\n",
                        uses(
                            |i| format!(
                                "export function engine{i}(engine: Engine): Engine {{ const e = engine; return e }}"
                            ),
                            12
                        )
                    ),
                ),
            ],
            "class",
            "src/core.ts",
        ),
        (
            "go",
            vec![
                (
                    "core.go",
                    "package core\n\n// Engine runs.\ntype Engine struct {\n\tN int\n}\n".into(),
                ),
                (
                    "engine.go",
                    format!(
                        "package core\n\nvar engine = Engine{{}}\n\ntype Holder struct {{\n\tEngine Engine\n}}\n\n{}\n",
                        uses(
                            |i| format!("func (e *Engine) Engine{i}() *Engine {{ return e }}"),
                            12
                        )
                    ),
                ),
            ],
            "struct",
            "core.go",
        ),
        (
            "java",
            vec![
                (
                    "src/Core.java",
                    "package p;\n\npublic class Engine {\n    int n;\n}\n".into(),
                ),
                (
                    "src/EngineUser.java",
                    format!(
                        "package p;\n\nclass EngineUser {{\n    Engine engine = new Engine();\n{}\n}}\n",
                        uses(
                            |i| format!("    Engine engine{i}(Engine engine) {{ return engine; }}"),
                            12
                        )
                    ),
                ),
            ],
            "class",
            "src/Core.java",
        ),
    ];
    for (language, files, kind, def_file) in cases {
        let (_dir, root) = repo(&files);
        let found = hits(&engine, &root, "Engine");
        assert!(!found.is_empty(), "{language}: nothing found");
        assert_eq!(
            (
                found[0].0.as_str(),
                found[0].1.as_str(),
                found[0].2.as_str()
            ),
            ("Engine", kind, def_file),
            "{language}: {found:?}"
        );
        // Other case comes after every `Engine`; other names after both.
        let of_name = found
            .iter()
            .take_while(|(n, _, _)| n.eq_ignore_ascii_case("Engine"))
            .count();
        assert!(
            found[of_name..]
                .iter()
                .all(|(n, _, _)| !n.eq_ignore_ascii_case("Engine")),
            "{language}: {found:?}"
        );
        let exact = found.iter().take_while(|(n, _, _)| n == "Engine").count();
        assert!(
            found[..of_name]
                .iter()
                .skip(exact)
                .all(|(n, _, _)| n != "Engine")
                || found[..of_name].iter().all(|(n, _, _)| n == "Engine"),
            "{language}: {found:?}"
        );
    }
}

#[test]
fn a_bare_function_name_finds_the_function_before_variables_and_callers() {
    let home = tempfile::tempdir().unwrap();
    let engine = Engine::open_at(home.path()).unwrap();
    let (_dir, root) = repo(&[
        (
            "src/lib.rs",
            "pub fn tokenize(text: &str) -> Vec<String> {\n    vec![text.to_string()]\n}\n".into(),
        ),
        // Indexed first (path order), fields of the same name tie with it on BM25.
        (
            "src/a.rs",
            uses(
                |i| format!("pub struct S{i} {{\n    pub tokenize: u8,\n}}"),
                15,
            ),
        ),
    ]);
    let found = hits(&engine, &root, "tokenize");
    assert_eq!(
        (
            found[0].0.as_str(),
            found[0].1.as_str(),
            found[0].2.as_str()
        ),
        ("tokenize", "fn", "src/lib.rs"),
        "{found:?}"
    );
    // A prefix query is not a bare name: BM25 alone orders it.
    let prefix = hits(&engine, &root, "tokenize*");
    assert_eq!(prefix.len(), 10, "{prefix:?}");
}

/// A Ruby name ending in `!`, `?` or `=` is a name of its own: `route!` before the
/// `route`s whose words it shares.
#[test]
fn a_ruby_name_with_its_mark_finds_that_method_first() {
    let home = tempfile::tempdir().unwrap();
    let engine = Engine::open_at(home.path()).unwrap();
    let (_dir, root) = repo(&[
        (
            "lib/a.rb",
            "class A\n  def route(verb)\n  end\nend\n".into(),
        ),
        (
            "lib/b.rb",
            "class B\n  def route(path)\n  end\n\n  def route?\n  end\nend\n".into(),
        ),
        (
            "lib/c.rb",
            "class C\n  def route!(base)\n  end\n  attr_accessor :level\nend\n".into(),
        ),
    ]);
    for (query, file) in [
        ("route!", "lib/c.rb"),
        ("route?", "lib/b.rb"),
        ("level=", "lib/c.rb"),
    ] {
        let found = hits(&engine, &root, query);
        assert_eq!(
            (found[0].0.as_str(), found[0].2.as_str()),
            (query, file),
            "{query}: {found:?}"
        );
    }
}

#[test]
fn of_two_equal_definitions_the_one_below_the_directory_asked_from_comes_first() {
    let home = tempfile::tempdir().unwrap();
    let engine = Engine::open_at(home.path()).unwrap();
    // Two public structs `Engine`: a binding's (indexed first, in path order) and the
    // core's. Both rank alike on every other rule.
    let (_dir, root) = repo(&[
        (".git/HEAD", "ref: refs/heads/main\n".into()),
        (
            "bindings/node/src/lib.rs",
            "/// The binding's engine.\npub struct Engine {\n    inner: u8,\n}\n".into(),
        ),
        (
            "core/src/lib.rs",
            "/// The engine.\npub struct Engine {\n    home: u8,\n}\n".into(),
        ),
        ("docs/README.md", "# Docs\n".into()),
    ]);
    call(&engine, "code.index_repository", json!({"path": root}));
    let first = |from: &Path| {
        let found = hits(&engine, from, "Engine");
        assert_eq!(found[0].0, "Engine", "{found:?}");
        found[0].2.clone()
    };
    assert_eq!(first(&root.join("core")), "core/src/lib.rs");
    assert_eq!(first(&root.join("core/src")), "core/src/lib.rs");
    assert_eq!(first(&root.join("bindings")), "bindings/node/src/lib.rs");
    // From the root, and from a directory holding neither, the other rules decide.
    let from_root = first(&root);
    assert_eq!(first(&root.join("docs")), from_root);
}

#[test]
fn the_canonical_definition_comes_first_and_qualified_names_resolve() {
    let home = tempfile::tempdir().unwrap();
    let engine = Engine::open_at(home.path()).unwrap();
    let (_dir, root) = repo(&[
        (
            "src/pkg/config/__init__.py",
            "class Config:\n    \"\"\"The configuration.\"\"\"\n\n    def getoption(self, name):\n        return name\n".into(),
        ),
        // A class a test defines for itself, one at the top of a test module, and one a
        // function of the package defines inside itself.
        (
            "testing/test_assertion.py",
            "class Config:\n    pass\n\n\ndef test_it():\n    class Config:\n        pass\n    return Config\n".into(),
        ),
        (
            "src/pkg/other.py",
            "def helper():\n    class Config:\n        pass\n    return Config\n".into(),
        ),
        (
            "src/pkg/fixtures.py",
            "class FixtureDef:\n    def execute(self, request):\n        return request\n".into(),
        ),
        ("src/pkg/runner.py", "def execute(item):\n    return item\n".into()),
        // `Client.build_request` where `Client` inherits it; another class's of that name.
        (
            "src/pkg/client.py",
            "class BaseClient:\n    def build_request(self):\n        pass\n\nclass Client(BaseClient):\n    pass\n".into(),
        ),
        (
            "src/pkg/another.py",
            "class Other:\n    def build_request(self):\n        pass\n".into(),
        ),
        (
            "src/engine.rs",
            "pub struct Engine;\n\nimpl Engine {\n    pub fn open() -> Engine {\n        Engine\n    }\n}\n".into(),
        ),
        ("src/lib.rs", "pub mod engine;\n\npub fn open() {}\n".into()),
    ]);
    call(&engine, "code.index_repository", json!({"path": root}));
    let first = |query: &str| {
        let found = hits(&engine, &root, query);
        found
            .into_iter()
            .next()
            .unwrap_or_else(|| panic!("no hit for {query}"))
    };
    let file_of = |hit: &(String, String, String)| hit.2.clone();

    // Outside tests before inside; at the top of a file before inside a function.
    let configs: Vec<String> = hits(&engine, &root, "Config")
        .iter()
        .filter(|h| h.0 == "Config")
        .map(file_of)
        .collect();
    assert_eq!(
        configs,
        [
            "src/pkg/config/__init__.py",
            "src/pkg/other.py",
            "testing/test_assertion.py",
            "testing/test_assertion.py"
        ]
    );

    // A hit says what it is defined in: a method its class, a nested class its function.
    let within = |query: &str| -> Vec<(String, Value)> {
        let out = call(
            &engine,
            "code.search_symbols",
            json!({"path": root, "query": query}),
        );
        out["hits"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|h| h["name"] == query.rsplit('.').next().unwrap())
            .map(|h| (h["path"].as_str().unwrap().to_string(), h["within"].clone()))
            .collect()
    };
    assert_eq!(
        within("Config"),
        [
            ("src/pkg/config/__init__.py".to_string(), Value::Null),
            ("src/pkg/other.py".to_string(), json!("helper")),
            ("testing/test_assertion.py".to_string(), Value::Null),
            ("testing/test_assertion.py".to_string(), json!("test_it")),
        ]
    );
    assert_eq!(
        within("build_request"),
        [
            ("src/pkg/another.py".to_string(), json!("Other")),
            ("src/pkg/client.py".to_string(), json!("BaseClient")),
        ]
    );

    // Class.method, module.name, path/file.py:Name, Type::method.
    let method = first("FixtureDef.execute");
    assert_eq!(
        (method.0.as_str(), method.2.as_str()),
        ("execute", "src/pkg/fixtures.py")
    );
    assert_eq!(
        file_of(&first("pkg.config.Config")),
        "src/pkg/config/__init__.py"
    );
    let class = first("src/pkg/fixtures.py:FixtureDef");
    assert_eq!(
        (class.0.as_str(), class.1.as_str()),
        ("FixtureDef", "class")
    );
    let open = first("Engine::open");
    assert_eq!(
        (open.0.as_str(), open.2.as_str()),
        ("open", "src/engine.rs")
    );
    assert_eq!(first("crate::open").0, "open");
    // What a qualified name names is the whole answer: not `runner.execute`, nor the
    // other `open`, nor names that only share a word.
    assert_eq!(hits(&engine, &root, "FixtureDef.execute").len(), 1);
    assert_eq!(hits(&engine, &root, "Engine::open").len(), 1);
    // A member the class inherits: the base's, and only it.
    let inherited = hits(&engine, &root, "Client.build_request");
    assert_eq!(inherited.len(), 1, "{inherited:?}");
    assert_eq!(
        (inherited[0].0.as_str(), inherited[0].2.as_str()),
        ("build_request", "src/pkg/client.py")
    );
    assert!(hits(&engine, &root, "execute").len() >= 2);
    // A name that qualifies nothing is searched as it is: a file's name finds its symbols.
    assert_eq!(file_of(&first("fixtures.py")), "src/pkg/fixtures.py");
}

/// A test's own class of the name comes after the code base's classes whose names hold
/// it (the library has no `Transport`, only `HTTPTransport` and its kin), and before
/// what only mentions it.
#[test]
fn the_code_bases_classes_named_with_a_word_come_before_a_tests_class_of_that_name() {
    let home = tempfile::tempdir().unwrap();
    let engine = Engine::open_at(home.path()).unwrap();
    let (_dir, root) = repo(&[
        (
            "src/pkg/transports/default.py",
            "class BaseTransport:\n    pass\n\n\nclass HTTPTransport(BaseTransport):\n    pass\n"
                .into(),
        ),
        (
            "src/pkg/transports/mock.py",
            "class MockTransport:\n    pass\n".into(),
        ),
        (
            "src/pkg/pool.py",
            "class Pool:\n    \"\"\"Keeps a transport's connections.\"\"\"\n".into(),
        ),
        (
            "tests/test_client.py",
            "class Transport:\n    pass\n\n\ndef test_send():\n    return Transport()\n".into(),
        ),
        ("tests/test_other.py", "class Transport:\n    pass\n".into()),
    ]);
    call(&engine, "code.index_repository", json!({"path": root}));
    let found: Vec<(String, String)> = hits(&engine, &root, "Transport")
        .into_iter()
        .filter(|h| h.1 == "class")
        .map(|h| (h.0, h.2))
        .collect();
    let at = |name: &str, file: &str| {
        found
            .iter()
            .position(|(n, f)| n == name && f == file)
            .unwrap_or_else(|| panic!("{name} in {file} not found: {found:?}"))
    };
    let tests = [
        at("Transport", "tests/test_client.py"),
        at("Transport", "tests/test_other.py"),
    ];
    for (name, file) in [
        ("BaseTransport", "src/pkg/transports/default.py"),
        ("HTTPTransport", "src/pkg/transports/default.py"),
        ("MockTransport", "src/pkg/transports/mock.py"),
    ] {
        assert!(at(name, file) < tests[0].min(tests[1]), "{found:?}");
    }
    // A class that only mentions the word comes after every class of it.
    assert!(
        at("Pool", "src/pkg/pool.py") > tests[0].max(tests[1]),
        "{found:?}"
    );
}

#[test]
fn a_declaration_comes_before_its_implementations() {
    let home = tempfile::tempdir().unwrap();
    let engine = Engine::open_at(home.path()).unwrap();
    // In each case the declaration's file comes after some implementation's in path
    // order (the order of ids, which decides ties), and the implementations are marked
    // public where the language marks it: only the declaration key puts it first.
    let implementation = |args: &str| {
        format!("def pytest_addoption({args}):\n    parser.addoption(\"--x\")\n    return None\n")
    };
    let (_dir, root) = repo(&[
        // A pytest-style hookspec (its body only a docstring), two plugins that implement
        // it, and tests: a plugin a test writes (its body a stub too), and a test class's.
        ("src/plug/config.py", implementation("parser")),
        ("src/plug/helpconfig.py", implementation("parser, pluginmanager")),
        (
            "src/plug/hookspec.py",
            "def pytest_addoption(parser, pluginmanager):\n    \"\"\"Register argparse-style options and ini-style config values.\n\n    :param parser: To add command line options.\n    \"\"\"\n".into(),
        ),
        ("src/plug/main.py", implementation("parser")),
        (
            "testing/test_config.py",
            "def pytest_addoption(parser):\n    pass\n\n\nclass TestParser:\n    def pytest_addoption(self, parser):\n        parser.addoption(\"--y\")\n".into(),
        ),
        // A `Protocol` (its method has a default body: the class makes it a declaration)
        // and a class that matches it.
        (
            "src/io/files.py",
            "class FileReader:\n    def read_chunk(self, n):\n        return self.f.read(n)\n".into(),
        ),
        (
            "src/io/reader.py",
            "from typing import Protocol\n\n\nclass Reader(Protocol):\n    def read_chunk(self, n: int) -> bytes:\n        return b\"\"\n".into(),
        ),
        // An abstract method (with a body) and its override.
        (
            "src/jobs/backup.py",
            "from .base import Job\n\n\nclass Backup(Job):\n    def run_job(self):\n        return self.copy()\n".into(),
        ),
        (
            "src/jobs/base.py",
            "import abc\n\n\nclass Job(abc.ABC):\n    @abc.abstractmethod\n    def run_job(self):\n        \"\"\"Do the job.\"\"\"\n        return None\n".into(),
        ),
        // A trait's method without a default, its impls, and a public inherent method of
        // the same name; and a trait's method with a default, which an impl overrides.
        (
            "src/a.rs",
            "pub struct A;\n\nimpl A {\n    pub fn execute_op(&self) -> u8 {\n        2\n    }\n}\n\nimpl crate::ops::Operation for A {\n    fn execute_op(&self) -> u8 {\n        1\n    }\n\n    fn describe_op(&self) -> String {\n        \"a\".into()\n    }\n}\n".into(),
        ),
        (
            "src/ops.rs",
            "pub trait Operation {\n    /// Run it.\n    fn execute_op(&self) -> u8;\n\n    fn describe_op(&self) -> String {\n        String::new()\n    }\n}\n".into(),
        ),
        // A TypeScript interface and a class that implements it (its method `public`).
        (
            "web/memory.ts",
            "import { Store } from \"./store\";\n\nexport class MemoryStore implements Store {\n  public fetchValue(key: string): string {\n    return key;\n  }\n}\n".into(),
        ),
        (
            "web/store.ts",
            "export interface Store {\n  fetchValue(key: string): string;\n}\n".into(),
        ),
    ]);
    call(&engine, "code.index_repository", json!({"path": root}));
    let ranked = |query: &str| -> Vec<String> {
        hits(&engine, &root, query)
            .into_iter()
            .filter(|h| h.0 == query)
            .map(|h| h.2)
            .collect()
    };
    assert_eq!(
        ranked("pytest_addoption"),
        [
            "src/plug/hookspec.py",
            "src/plug/config.py",
            "src/plug/helpconfig.py",
            "src/plug/main.py",
            "testing/test_config.py",
            "testing/test_config.py",
        ]
    );
    assert_eq!(
        ranked("read_chunk"),
        ["src/io/reader.py", "src/io/files.py"]
    );
    assert_eq!(
        ranked("run_job"),
        ["src/jobs/base.py", "src/jobs/backup.py"]
    );
    assert_eq!(ranked("execute_op"), ["src/ops.rs", "src/a.rs", "src/a.rs"]);
    assert_eq!(ranked("fetchValue"), ["web/store.ts", "web/memory.ts"]);
    // A default body is no declaration, but the trait is where the name is declared.
    assert_eq!(ranked("describe_op"), ["src/ops.rs", "src/a.rs"]);

    // The answer says which are declarations (the hookspec, the test's stub), and
    // nothing of the others.
    let out = call(
        &engine,
        "code.search_symbols",
        json!({"path": root, "query": "pytest_addoption"}),
    );
    let hits = out["hits"].as_array().unwrap();
    assert_eq!(hits[0]["declaration"], true, "{out}");
    assert_eq!(hits[0]["start_line"], 1);
    let declared: Vec<bool> = hits
        .iter()
        .map(|h| h.get("declaration") == Some(&json!(true)))
        .collect();
    assert_eq!(declared, [true, false, false, false, true, false], "{out}");
    assert!(
        hits.iter()
            .all(|h| h.get("declaration") != Some(&json!(false)))
    );
    let detail = call(
        &engine,
        "code.get_symbol_detail",
        json!({"path": root, "id": hits[0]["id"]}),
    );
    assert_eq!(detail["declaration"], true, "{detail}");
    let agent: Value = serde_json::from_str(
        &cc_search::agent::answer("code.search_symbols", &out.to_string(), None).unwrap(),
    )
    .unwrap();
    assert_eq!(agent["hits"][0]["decl"], true, "{agent}");

    // An edit that gives the hookspec a body makes it an implementation, and one that
    // takes it away a declaration again (an incremental run keeps the symbol's row).
    let hookspec = root.join("src/plug/hookspec.py");
    std::fs::write(
        &hookspec,
        "def pytest_addoption(parser, pluginmanager):\n    \"\"\"Register options.\"\"\"\n    return None\n",
    )
    .unwrap();
    call(
        &engine,
        "code.update_files",
        json!({"path": root, "files": [hookspec]}),
    );
    assert_eq!(ranked("pytest_addoption")[0], "src/plug/config.py");
    std::fs::write(
        &hookspec,
        "def pytest_addoption(parser, pluginmanager):\n    \"\"\"Register options.\"\"\"\n",
    )
    .unwrap();
    call(
        &engine,
        "code.update_files",
        json!({"path": root, "files": [hookspec]}),
    );
    assert_eq!(ranked("pytest_addoption")[0], "src/plug/hookspec.py");
}

/// A bare name the code base defines answers with its definitions and a few other hits,
/// not every symbol of the file named like it; a call that gives a `limit` gets them all.
#[test]
fn a_defined_name_answers_without_every_symbol_of_its_namesake_file() {
    let home = tempfile::tempdir().unwrap();
    let engine = Engine::open_at(home.path()).unwrap();
    let helpers: String = (0..12)
        .map(|i| format!("fn helper_{i}() {{}}\n\n"))
        .collect();
    let (_dir, root) = repo(&[
        (
            "macros/src/lib.rs",
            "mod debug_handler;\n\n/// Checks a handler.\npub fn debug_handler() {}\n".into(),
        ),
        ("macros/src/debug_handler.rs", helpers),
    ]);
    call(&engine, "code.index_repository", json!({"path": root}));
    let names = |args: Value| hit_names(&call(&engine, "code.search_symbols", args));
    let found = names(json!({"path": root, "query": "debug_handler"}));
    assert_eq!(found[0], "debug_handler", "{found:?}");
    let others = found.iter().filter(|n| n.starts_with("helper_")).count();
    assert_eq!(others, 5, "{found:?}");
    // Asked for 20, the namesake file's symbols are all there.
    let found = names(json!({"path": root, "query": "debug_handler", "limit": 20}));
    let others = found.iter().filter(|n| n.starts_with("helper_")).count();
    assert_eq!(others, 12, "{found:?}");
}
