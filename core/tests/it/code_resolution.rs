//! Incremental indexing of the `code` component links references exactly as a fresh
//! index of the same files does, and keeps the ids of symbols that survive an edit.

use std::collections::BTreeSet;
use std::path::Path;

use cc_search::Engine;
use serde_json::{Value, json};

use crate::common;
use crate::links_of;
use common::{call, write};
use links_of::links;

fn canonical(dir: &Path) -> String {
    std::fs::canonicalize(dir)
        .unwrap()
        .to_string_lossy()
        .into_owned()
}

/// The links a fresh index of `root` (in a data root of its own) makes.
fn fresh_links(root: &str) -> BTreeSet<String> {
    let home = tempfile::tempdir().unwrap();
    let engine = Engine::open_at(home.path()).unwrap();
    call(&engine, "code.index_repository", json!({"path": root}));
    links(home.path(), root)
}

fn find(engine: &Engine, root: &str, name: &str) -> Value {
    let out = call(
        engine,
        "code.search_symbols",
        json!({"path": root, "query": name}),
    );
    out["hits"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["name"] == name)
        .cloned()
        .unwrap_or_else(|| panic!("{name} not found: {out}"))
}

#[test]
fn an_edit_keeps_the_ids_of_surviving_symbols_and_the_links_to_them() {
    let home = tempfile::tempdir().unwrap();
    let engine = Engine::open_at(home.path()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let lib = "/// Helps.\npub fn helper() -> u32 { 1 }\n\npub struct Config { pub size: u32 }\n";
    write(dir.path(), "src/lib.rs", lib);
    write(
        dir.path(),
        "src/main.rs",
        "use crate::lib::helper;\nfn main() { let c: Config; helper(); }\n",
    );
    let root = canonical(dir.path());
    call(&engine, "code.index_repository", json!({"path": root}));
    let helper = find(&engine, &root, "helper");
    let config = find(&engine, &root, "Config");

    // Lines move, a doc comment changes, a function is added: the old symbols keep
    // their ids, and the references from main.rs still point at them.
    write(
        dir.path(),
        "src/lib.rs",
        format!(
            "// moved down\n\n/// Helps more.\n{}\npub fn added() {{}}\n",
            &lib[11..]
        ),
    );
    let out = call(
        &engine,
        "code.update_files",
        json!({"path": root, "files": ["src/lib.rs"]}),
    );
    assert_eq!(out["changed"], 1, "{out}");
    assert_eq!(find(&engine, &root, "helper")["id"], helper["id"]);
    assert_eq!(find(&engine, &root, "Config")["id"], config["id"]);
    let detail = call(
        &engine,
        "code.get_symbol_detail",
        json!({"path": root, "id": helper["id"]}),
    );
    assert_eq!(common::lines(&detail), "4-4", "{detail}");
    assert_eq!(detail["doc"], "Helps more.", "{detail}");
    let refs = call(
        &engine,
        "code.get_references",
        json!({"path": root, "id": helper["id"]}),
    );
    assert!(
        refs["references"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["kind"] == "call" && r["from_name"] == "main"),
        "{refs}"
    );
    // The changed doc comment is what search sees now.
    let hits = call(
        &engine,
        "code.search_symbols",
        json!({"path": root, "query": "more"}),
    );
    assert_eq!(hits["hits"][0]["name"], "helper", "{hits}");
    assert_eq!(links(home.path(), &root), fresh_links(&root));

    // A removed symbol takes its row along, and the reference to it becomes external.
    write(
        dir.path(),
        "src/lib.rs",
        "pub struct Config { pub size: u32 }\n",
    );
    call(
        &engine,
        "code.update_files",
        json!({"path": root, "files": ["src/lib.rs"]}),
    );
    let status = call(&engine, "code.index_status", json!({"path": root}));
    let incremental = links(home.path(), &root);
    assert!(
        incremental.contains("src/main.rs:2 call helper -> external"),
        "{incremental:?}"
    );
    assert_eq!(incremental, fresh_links(&root));
    let fresh_home = tempfile::tempdir().unwrap();
    let fresh = Engine::open_at(fresh_home.path()).unwrap();
    call(&fresh, "code.index_repository", json!({"path": root}));
    let fresh_status = call(&fresh, "code.index_status", json!({"path": root}));
    assert_eq!(status["symbols"], fresh_status["symbols"]);
    assert_eq!(status["refs"], fresh_status["refs"]);
}

#[test]
fn a_new_better_definition_takes_over_references_already_linked_elsewhere() {
    let home = tempfile::tempdir().unwrap();
    let engine = Engine::open_at(home.path()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    // `format` exists only in far.ts at first, which app.ts does not import: the call,
    // to what `./util` would export, links nowhere (far.ts's is not reachable).
    write(
        dir.path(),
        "src/far.ts",
        "export function format(x) { return x }\n",
    );
    write(dir.path(), "src/util.ts", "export function other() {}\n");
    write(
        dir.path(),
        "src/app.ts",
        "import { format } from './util';\nexport function run() { return format(1) }\n",
    );
    let root = canonical(dir.path());
    call(&engine, "code.index_repository", json!({"path": root}));
    let before = links(home.path(), &root);
    assert!(
        before.contains("src/app.ts:2 call format -> external"),
        "{before:?}"
    );

    // The imported file now defines `format`: a fresh index links the call there, and
    // so must an update of util.ts alone (app.ts is not re-read).
    write(
        dir.path(),
        "src/util.ts",
        "export function other() {}\nexport function format(x) { return String(x) }\n",
    );
    call(
        &engine,
        "code.update_files",
        json!({"path": root, "files": ["src/util.ts"]}),
    );
    let after = links(home.path(), &root);
    assert!(
        after.contains("src/app.ts:2 call format -> src/util.ts:format@2"),
        "{after:?}"
    );
    assert_eq!(after, fresh_links(&root));

    // And back: the definition removed again, the call links nowhere again.
    write(dir.path(), "src/util.ts", "export function other() {}\n");
    call(&engine, "code.index_repository", json!({"path": root}));
    let again = links(home.path(), &root);
    assert!(
        again.contains("src/app.ts:2 call format -> external"),
        "{again:?}"
    );
    assert_eq!(again, fresh_links(&root));
}

#[test]
fn same_named_siblings_keep_their_own_ids_in_order() {
    let home = tempfile::tempdir().unwrap();
    let engine = Engine::open_at(home.path()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    // Two Python classes with a method of the same name each, and an overload pair.
    let src = "class A:\n    def run(self): pass\n\nclass B:\n    def run(self): pass\n";
    write(dir.path(), "m.py", src);
    let root = canonical(dir.path());
    call(&engine, "code.index_repository", json!({"path": root}));
    let symbols = |engine: &Engine| {
        call(
            engine,
            "code.get_file_symbols",
            json!({"path": root, "file": "m.py"}),
        )
    };
    let first = symbols(&engine);
    let run_a = first["symbols"][0]["children"][0]["id"].clone();
    let run_b = first["symbols"][1]["children"][0]["id"].clone();
    assert_ne!(run_a, run_b);
    // A class inserted in front: A and B (and their methods) keep their ids.
    write(dir.path(), "m.py", format!("class Z:\n    pass\n\n{src}"));
    call(
        &engine,
        "code.update_files",
        json!({"path": root, "files": ["m.py"]}),
    );
    let second = symbols(&engine);
    assert_eq!(second["symbols"][0]["name"], "Z");
    assert_eq!(second["symbols"][1]["children"][0]["id"], run_a, "{second}");
    assert_eq!(second["symbols"][2]["children"][0]["id"], run_b, "{second}");
    assert_eq!(
        common::lines(&second["symbols"][1]["children"][0]),
        "5-5",
        "{second}"
    );
}

/// A file's imports decide what names mean in other files: a C header's includes, in
/// every file that includes it; a package's `__init__.py`, in every file importing from
/// the package. An update that adds, changes or removes such a file links those files'
/// references as a fresh index does, though it re-reads none of them.
#[test]
fn an_update_of_what_a_file_includes_or_passes_on_relinks_the_files_that_use_it() {
    let home = tempfile::tempdir().unwrap();
    let engine = Engine::open_at(home.path()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    // zlib's shape: `Bytef` is a typedef, and a configuration macro of the same name.
    write(
        dir.path(),
        "zconf.h",
        "#define Bytef Byte FAR\ntypedef unsigned char Bytef;\n",
    );
    write(dir.path(), "adler.c", "#include \"zutil.h\"\nBytef *buf;\n");
    write(
        dir.path(),
        "main.py",
        "from pkg import parse\n\ndef run():\n    return parse(1)\n",
    );
    write(dir.path(), "pkg/impl.py", "def parse(x):\n    return x\n");
    let root = canonical(dir.path());
    call(&engine, "code.index_repository", json!({"path": root}));
    let before = links(home.path(), &root);
    assert_eq!(before, fresh_links(&root));
    // Not included, the header's definitions are found anywhere, by kind: the typedef.
    assert!(
        before.contains("adler.c:2 type_ref Bytef -> zconf.h:Bytef@2"),
        "{before:?}"
    );
    assert!(
        before.contains("main.py:4 call parse -> external"),
        "{before:?}"
    );

    // zutil.h appears and includes zconf.h: both of its definitions are in view now.
    // The package gets an `__init__.py` that passes `parse` on.
    write(dir.path(), "zutil.h", "#include \"zconf.h\"\n");
    write(dir.path(), "pkg/__init__.py", "from .impl import parse\n");
    let update = |files: &[&str]| {
        call(
            &engine,
            "code.update_files",
            json!({"path": root, "files": files}),
        );
        links(home.path(), &root)
    };
    let after = update(&["zutil.h", "pkg/__init__.py"]);
    assert!(
        after.contains("adler.c:2 type_ref Bytef -> external"),
        "ambiguous, linked to none: {after:?}"
    );
    assert!(
        after.contains("main.py:4 call parse -> pkg/impl.py:parse@1"),
        "{after:?}"
    );
    assert_eq!(after, fresh_links(&root));

    // An include and a re-export taken back out (the files stay): as before.
    write(dir.path(), "zutil.h", "/* nothing */\n");
    write(dir.path(), "pkg/__init__.py", "\n");
    let changed = update(&["zutil.h", "pkg/__init__.py"]);
    assert_eq!(changed, before);
    assert_eq!(changed, fresh_links(&root));

    // Put back, then the files removed.
    write(dir.path(), "zutil.h", "#include \"zconf.h\"\n");
    write(dir.path(), "pkg/__init__.py", "from .impl import parse\n");
    assert_eq!(update(&["zutil.h", "pkg/__init__.py"]), after);
    std::fs::remove_file(dir.path().join("zutil.h")).unwrap();
    std::fs::remove_file(dir.path().join("pkg/__init__.py")).unwrap();
    let removed = update(&["zutil.h", "pkg/__init__.py"]);
    assert_eq!(removed, before);
    assert_eq!(removed, fresh_links(&root));
}

/// A reference on what a call returns links by the called function's definition: when
/// only that definition changes (its return type, in another file), an update links the
/// reference again, as a fresh index of the same files does — the call written first
/// (`f().m()`, `x = f()`) or later in a chain (`k.twin().m()`).
#[test]
fn a_changed_return_type_relinks_the_calls_made_on_what_it_returns() {
    let home = tempfile::tempdir().unwrap();
    let engine = Engine::open_at(home.path()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let console = |returns: &str| {
        format!(
            "class Console:\n    def print(self, x): pass\n    def twin(self) -> \"{returns}\": pass\n\nclass Other:\n    def print(self, x): pass\n\ndef get_console() -> \"{returns}\":\n    return {returns}()\n"
        )
    };
    write(dir.path(), "pkg/console.py", console("Console"));
    write(
        dir.path(),
        "main.py",
        "from pkg.console import get_console, Console\n\ndef run():\n    c = get_console()\n    c.print(1)\n    get_console().print(2)\n\ndef chain(k: Console):\n    k.twin().print(3)\n",
    );
    let root = canonical(dir.path());
    call(&engine, "code.index_repository", json!({"path": root}));
    let before = links(home.path(), &root);
    for line in [5, 6, 9] {
        let link = format!("main.py:{line} call print -> pkg/console.py:print@2");
        assert!(before.contains(&link), "{link}: {before:?}");
    }
    assert_eq!(before, fresh_links(&root));

    write(dir.path(), "pkg/console.py", console("Other"));
    call(
        &engine,
        "code.update_files",
        json!({"path": root, "files": ["pkg/console.py"]}),
    );
    let after = links(home.path(), &root);
    // Through a variable, a call, and a method of a type that did not change.
    for line in [5, 6, 9] {
        let link = format!("main.py:{line} call print -> pkg/console.py:print@6");
        assert!(after.contains(&link), "{link}: {after:?}");
    }
    assert_eq!(after, fresh_links(&root));
}

/// A repository of one file, `name` holding `text`, indexed; then its index taken back
/// to an older schema by `downgrade` (which loses `link`) and opened again: the upgrade
/// reads every file again, so `link` is back, and the links are a fresh index's.
fn the_upgrade_links_as_a_fresh_index(name: &str, text: &str, link: &str, downgrade: &str) {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), name, text);
    let root = canonical(dir.path());
    {
        let engine = Engine::open_at(home.path()).unwrap();
        call(&engine, "code.index_repository", json!({"path": root}));
        assert!(links(home.path(), &root).contains(link));
    }
    let path = cc_search::code::db_path(home.path(), Path::new(&root));
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch(downgrade).unwrap();
    }
    assert!(!links(home.path(), &root).contains(link));
    let engine = Engine::open_at(home.path()).unwrap();
    call(&engine, "code.index_repository", json!({"path": root}));
    let after = links(home.path(), &root);
    assert!(after.contains(link), "{after:?}");
    assert_eq!(after, fresh_links(&root));
}

/// An index written before references knew what calls return (schema 8) is read again
/// on the upgrade: its files' rows are rewritten with the new qualifiers, so a call on
/// what a call returns links, though no file changed on disk.
#[test]
fn the_upgrade_to_schema_9_reads_every_file_again() {
    the_upgrade_links_as_a_fresh_index(
        "flag.go",
        "package flag\n\ntype FlagSet struct{}\n\ntype Other struct{}\n\nfunc NewFlagSet() *FlagSet { return nil }\n\nfunc (f *FlagSet) Parse() {}\n\nfunc (o *Other) Parse() {}\n\nfunc use() {\n\tNewFlagSet().Parse()\n}\n",
        "flag.go:14 call Parse -> flag.go:Parse@9",
        // As schema 8 left it: the qualifier of a call's value unknown (`?`), the
        // reference ambiguous, no indexes of qualifiers (and no guards, of schema 10, nor
        // what definitions give, of 11, nor mixins, of 12).
        "ALTER TABLE symbols DROP COLUMN fields;
         ALTER TABLE symbols DROP COLUMN of_class;
         ALTER TABLE symbols DROP COLUMN mixins;
         ALTER TABLE symbols DROP COLUMN gives;
         DROP INDEX symbols_guarded;
         ALTER TABLE symbols DROP COLUMN guard;
         DROP INDEX refs_qual;
         UPDATE refs SET qual = '?', to_symbol_id = NULL, ambiguous = 1 WHERE qual GLOB '*()';
         ALTER TABLE symbols DROP COLUMN uses;
         UPDATE metadata SET value = '8' WHERE key = 'schema_version';
         PRAGMA user_version = 8;",
    );
}

/// Schema 18 keeps what a Ruby class's methods call on each value of no known class:
/// the upgrade reads the files again, and a call told by the uses in another file of
/// the class links, as in a fresh index.
#[test]
fn the_upgrade_to_schema_18_reads_every_file_again() {
    the_upgrade_links_as_a_fresh_index(
        "doc.rb",
        "class Element
  def type
  end

  def attr
  end

  def children
  end
end

class Token
  def type
  end
end

class Doc
  def parse(el)
    el.type
  end
end

class Doc
  def block(el)
    el.attr
    el.children
  end
end
",
        "doc.rb:19 call type -> doc.rb:type@2",
        // As schema 17 left it: no uses kept, the call ambiguous.
        "ALTER TABLE symbols DROP COLUMN uses;
         UPDATE refs SET to_symbol_id = NULL, ambiguous = 1 WHERE line = 19;
         UPDATE metadata SET value = '17' WHERE key = 'schema_version';
         PRAGMA user_version = 17;",
    );
}

/// Schema 17 reads what a Python type alias of a builtin container gives (`Scope =
/// MutableMapping[str, int]`): the upgrade reads the files again, and `scope.get` of a
/// parameter annotated with the alias is the container's, outside the project — not a
/// "maybe" of the project's `get` — as in a fresh index.
#[test]
fn the_upgrade_to_schema_17_reads_every_file_again() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "app.py",
        "from typing import MutableMapping\n\nScope = MutableMapping[str, int]\n\nclass Headers:\n    def get(self, key):\n        return key\n\ndef handle(scope: Scope):\n    return scope.get(\"type\")\n",
    );
    let root = canonical(dir.path());
    let path = cc_search::code::db_path(home.path(), Path::new(&root));
    let ambiguous = || -> i64 {
        rusqlite::Connection::open(&path)
            .unwrap()
            .query_row(
                "SELECT ambiguous FROM refs WHERE to_name = 'get' AND line = 10",
                [],
                |r| r.get(0),
            )
            .unwrap()
    };
    let index = || {
        let engine = Engine::open_at(home.path()).unwrap();
        call(&engine, "code.index_repository", json!({"path": root}));
    };
    index();
    assert_eq!(ambiguous(), 0);
    // As schema 16 left it: the alias gives nothing, the call is ambiguous.
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute_batch(
            "UPDATE symbols SET gives = NULL WHERE name = 'Scope';
             UPDATE refs SET to_symbol_id = NULL, ambiguous = 1 WHERE to_name = 'get';
             ALTER TABLE symbols DROP COLUMN uses;
             UPDATE metadata SET value = '16' WHERE key = 'schema_version';
             PRAGMA user_version = 16;",
        )
        .unwrap();
    assert_eq!(ambiguous(), 1);
    index();
    assert_eq!(ambiguous(), 0);
    assert_eq!(links(home.path(), &root), fresh_links(&root));
}

/// Schema 16 makes an attribute a Python method assigns a member of its class and reads
/// every member read: the upgrade reads the files again, and `self.limit` in a condition
/// links to the attribute, as in a fresh index.
#[test]
fn the_upgrade_to_schema_16_reads_every_file_again() {
    the_upgrade_links_as_a_fresh_index(
        "conf.py",
        "class Conf:
    def __init__(self):
        self.limit = 3

    def full(self, n):
        if n > self.limit:
            return True
",
        "conf.py:6 value limit -> conf.py:limit@3",
        // As schema 15 left it: no attribute, no read in a condition.
        "DELETE FROM symbols WHERE name = 'limit';
         DELETE FROM refs WHERE to_name = 'limit';
         ALTER TABLE symbols DROP COLUMN uses;
         UPDATE metadata SET value = '15' WHERE key = 'schema_version';
         PRAGMA user_version = 15;",
    );
}

/// Schema 15 keeps the fields a class's methods assign (Ruby's `@src = Scanner.new`):
/// the upgrade reads the files again, and a call on the field in another file of the
/// class links, as in a fresh index.
#[test]
fn the_upgrade_to_schema_15_reads_every_file_again() {
    the_upgrade_links_as_a_fresh_index(
        "doc.rb",
        "class Scanner
  def pos
  end
end

class Tape
  def pos
  end
end

class Doc
  def parse
    @src = Scanner.new
  end
end

class Doc
  def math
    @src.pos
    @src.pos
  end
end
",
        "doc.rb:19 call pos -> doc.rb:pos@2",
        // As schema 14 left it: no fields kept, the call ambiguous.
        "ALTER TABLE symbols DROP COLUMN fields;
         UPDATE refs SET to_symbol_id = NULL, ambiguous = 1 WHERE qual GLOB '@src*';
         ALTER TABLE symbols DROP COLUMN uses;
         UPDATE metadata SET value = '14' WHERE key = 'schema_version';
         PRAGMA user_version = 14;",
    );
}

/// Schema 14 reads Ruby's setter calls as the writer's (`x.a = v` → `a=`, which
/// `attr_accessor` makes): the upgrade reads the files again, and a setter call links to
/// the writer, as in a fresh index.
#[test]
fn the_upgrade_to_schema_14_reads_every_file_again() {
    the_upgrade_links_as_a_fresh_index(
        "conf.rb",
        "class Settings
  attr_accessor :level
end

class Client
  def run
    s = Settings.new
    s.level = 1
  end
end
",
        "conf.rb:8 call level= -> conf.rb:level=@2",
        // As schema 13 left it: the setter call named as the reader, no writer.
        "ALTER TABLE symbols DROP COLUMN fields;
         DELETE FROM symbols WHERE name = 'level=';
         UPDATE refs SET to_name = 'level' WHERE to_name = 'level=';
         ALTER TABLE symbols DROP COLUMN uses;
         UPDATE metadata SET value = '13' WHERE key = 'schema_version';
         PRAGMA user_version = 13;",
    );
}

/// Schema 13 notes, in a Ruby call's qualifier, what else the class's methods call on the
/// value: the upgrade reads the files again, and a call on a value the uses tell links,
/// as in a fresh index.
#[test]
fn the_upgrade_to_schema_13_reads_every_file_again() {
    the_upgrade_links_as_a_fresh_index(
        "doc.rb",
        "class Element
  attr_reader :type, :children, :attr
end

Definition = Struct.new(:name, :type)

class Converter
  def convert(el)
    el.type
    el.children
    el.attr
  end
end
",
        "doc.rb:9 call type -> doc.rb:type@2",
        // As schema 12 left it: the value's name alone, the call ambiguous.
        "ALTER TABLE symbols DROP COLUMN fields;
         UPDATE refs SET qual = 'el', to_symbol_id = NULL, ambiguous = 1 WHERE qual GLOB 'el{*';
         ALTER TABLE symbols DROP COLUMN uses;
         UPDATE metadata SET value = '12' WHERE key = 'schema_version';
         PRAGMA user_version = 12;",
    );
}

/// Schema 12 keeps what a class mixes in (Ruby's `include`): the upgrade reads the files
/// again, and a call of a method mixed in links, as in a fresh index.
#[test]
fn the_upgrade_to_schema_12_reads_every_file_again() {
    the_upgrade_links_as_a_fresh_index(
        "doc.rb",
        "module Walk
  def walk
  end
end

class Other
  def walk
  end
end

class Doc
  include Walk
end

Doc.new.walk
",
        "doc.rb:15 call walk -> doc.rb:walk@2",
        // As schema 11 left it: nothing known of what `Doc` mixes in, the call
        // ambiguous.
        "ALTER TABLE symbols DROP COLUMN fields;
         ALTER TABLE symbols DROP COLUMN of_class;
         ALTER TABLE symbols DROP COLUMN mixins;
         UPDATE refs SET to_symbol_id = NULL, ambiguous = 1 WHERE to_name = 'walk';
         ALTER TABLE symbols DROP COLUMN uses;
         UPDATE metadata SET value = '11' WHERE key = 'schema_version';
         PRAGMA user_version = 11;",
    );
}

/// Schema 11 keeps what a definition gives where its body says it (a Ruby method's last
/// expression): the upgrade reads the files again, and a call on what such a method
/// gives links, as in a fresh index.
#[test]
fn the_upgrade_to_schema_11_reads_every_file_again() {
    the_upgrade_links_as_a_fresh_index(
        "doc.rb",
        "class Body
  def render
  end
end

class Other
  def render
  end
end

class Doc
  def body
    Body.new
  end

  def run
    body().render
  end
end
",
        "doc.rb:17 call render -> doc.rb:render@2",
        // As schema 10 left it (nor mixins, of 12): nothing known of what `body` gives,
        // the call ambiguous.
        "ALTER TABLE symbols DROP COLUMN fields;
         ALTER TABLE symbols DROP COLUMN of_class;
         ALTER TABLE symbols DROP COLUMN mixins;
         ALTER TABLE symbols DROP COLUMN gives;
         UPDATE refs SET to_symbol_id = NULL, ambiguous = 1 WHERE to_name = 'render';
         ALTER TABLE symbols DROP COLUMN uses;
         UPDATE metadata SET value = '10' WHERE key = 'schema_version';
         PRAGMA user_version = 10;",
    );
}

/// Schema 10 keeps the conditions a C definition is compiled under: the upgrade reads
/// the files again, and a name defined once per configuration links to the definition
/// the default build compiles, as in a fresh index.
#[test]
fn the_upgrade_to_schema_10_reads_every_file_again() {
    the_upgrade_links_as_a_fresh_index(
        "trace.c",
        "#ifdef DEBUG\n#define Trace(x) log(x)\n#else\n#define Trace(x)\n#endif\nvoid run(void) { Trace(1); }\n",
        "trace.c:6 call Trace -> trace.c:Trace@4",
        // As schema 9 left it: no guards (nor what definitions give, of 11, nor mixins,
        // of 12), the call
        // ambiguous.
        "ALTER TABLE symbols DROP COLUMN fields;
         ALTER TABLE symbols DROP COLUMN of_class;
         ALTER TABLE symbols DROP COLUMN mixins;
         ALTER TABLE symbols DROP COLUMN gives;
         DROP INDEX symbols_guarded;
         ALTER TABLE symbols DROP COLUMN guard;
         UPDATE refs SET to_symbol_id = NULL, ambiguous = 1 WHERE to_name = 'Trace';
         ALTER TABLE symbols DROP COLUMN uses;
         UPDATE metadata SET value = '9' WHERE key = 'schema_version';
         PRAGMA user_version = 9;",
    );
}
