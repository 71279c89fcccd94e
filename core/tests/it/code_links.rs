//! Links by each language's rules (docs/CODE.md, "How references are linked"): a
//! reference links to the definition it can reach, a standard-library or unreachable
//! name is external (never a same-named symbol elsewhere), and what the index cannot
//! decide is ambiguous, with candidates. Every use counts: values, JSX, `impl … for`.

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

/// A repository of `files`, indexed.
///
/// Each is also indexed a second time file by file, every file added by
/// `code.update_files` (which reads what linking needs from the database, where a cold
/// run holds it in memory): both must link alike.
fn indexed(files: &[(&str, &str)]) -> (tempfile::TempDir, tempfile::TempDir, Engine, String) {
    let home = tempfile::tempdir().unwrap();
    let engine = Engine::open_at(home.path()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join(".git")).unwrap();
    let root = canonical(dir.path());
    call(&engine, "code.index_repository", json!({"path": root}));
    for (path, text) in files {
        write(dir.path(), path, text);
        call(
            &engine,
            "code.update_files",
            json!({"path": root, "files": [path]}),
        );
    }
    let one_by_one = links(home.path(), &root);

    let cold_home = tempfile::tempdir().unwrap();
    let cold = Engine::open_at(cold_home.path()).unwrap();
    call(&cold, "code.index_repository", json!({"path": root}));
    assert_eq!(one_by_one, links(cold_home.path(), &root));
    (cold_home, dir, cold, root)
}

/// The id of the symbol `name` defined in `file`.
fn id_of(engine: &Engine, root: &str, file: &str, name: &str) -> i64 {
    let out = call(
        engine,
        "code.get_file_symbols",
        json!({"path": root, "file": file}),
    );
    fn walk(items: &Value, name: &str) -> Option<i64> {
        for s in items.as_array()? {
            if s["name"] == name {
                return s["id"].as_i64();
            }
            if let Some(found) = walk(&s["children"], name) {
                return Some(found);
            }
        }
        None
    }
    walk(&out["symbols"], name).unwrap_or_else(|| panic!("{name} not in {file}: {out}"))
}

/// The references of the symbol `name` defined in `file`, sorted, each as `path:line
/// kind`, then ` maybe` and ` via Type.method` where the answer says so.
fn references(engine: &Engine, root: &str, file: &str, name: &str) -> Vec<String> {
    references_of(engine, root, id_of(engine, root, file, name))
}

/// [`references`] of the symbol `id`.
fn references_of(engine: &Engine, root: &str, id: i64) -> Vec<String> {
    let answer = call(
        engine,
        "code.get_references",
        json!({"path": root, "id": id}),
    );
    let mut lines: Vec<String> = answer["references"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let maybe = if r["maybe"] == true { " maybe" } else { "" };
            let via = r["via"]
                .as_str()
                .map(|v| format!(" via {v}"))
                .unwrap_or_default();
            format!(
                "{}:{} {}{maybe}{via}",
                r["path"].as_str().unwrap(),
                r["line"],
                r["kind"].as_str().unwrap()
            )
        })
        .collect();
    lines.sort();
    lines
}

/// What the symbol `from` (in `file`) refers to by `name`: its dependency entries.
fn deps_named(engine: &Engine, root: &str, file: &str, from: &str, name: &str) -> Vec<Value> {
    let id = id_of(engine, root, file, from);
    let out = call(
        engine,
        "code.get_dependencies",
        json!({"path": root, "id": id}),
    );
    out["dependencies"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["to_name"] == name)
        .cloned()
        .collect()
}

/// The one dependency of `from` on `name`.
fn dep(engine: &Engine, root: &str, file: &str, from: &str, name: &str) -> Value {
    let found = deps_named(engine, root, file, from, name);
    assert_eq!(found.len(), 1, "{from} → {name}: {found:?}");
    found[0].clone()
}

/// The methods called on a value a call returned (`f := NewFlagSet(…)`, `x, err :=
/// F()`, `F().m()`, a chain, a package variable holding a call's result) are the methods
/// of the type the called function's definition returns — where another type has
/// methods of the same names, so that the name alone decides nothing.
#[test]
fn go_links_methods_called_on_what_a_call_returns() {
    let (home, _dir, _engine, root) = indexed(&[
        (
            "flag/flag.go",
            "package flag\n\ntype FlagSet struct{ name string }\n\ntype Flag struct{ Name string }\n\nvar CommandLine = NewFlagSet(\"cmd\")\n\nfunc NewFlagSet(name string) *FlagSet { return &FlagSet{name: name} }\n\nfunc (f *FlagSet) Lookup(name string) *Flag { return nil }\n\nfunc (f *FlagSet) Parse(args []string) error { return nil }\n\nfunc (fl *Flag) Reset() {}\n\nfunc Parse() { CommandLine.Parse(nil) }\n",
        ),
        (
            "flag/other.go",
            "package flag\n\ntype Other struct{}\n\nfunc (o *Other) Parse(args []string) error { return nil }\n\nfunc (o *Other) Reset() {}\n",
        ),
        (
            "flag/flag_test.go",
            "package flag\n\nfunc setUp() *FlagSet { return NewFlagSet(\"t\") }\n\nfunc pair() (*FlagSet, error) { return nil, nil }\n\nfunc use() {\n\tf := setUp()\n\tf.Parse(nil)\n\tg, err := pair()\n\tg.Parse(nil)\n\tNewFlagSet(\"y\").Parse(nil)\n\tf.Lookup(\"x\").Reset()\n\th := f.Lookup(\"y\")\n\th.Reset()\n\tvar o = &Other{}\n\to.Reset()\n\t_ = err\n}\n",
        ),
    ]);
    let links = links(home.path(), &root);
    for (line, name, target) in [
        (9, "Parse", "flag/flag.go:Parse@13"),
        (11, "Parse", "flag/flag.go:Parse@13"),
        (12, "Parse", "flag/flag.go:Parse@13"),
        (13, "Reset", "flag/flag.go:Reset@15"),
        (15, "Reset", "flag/flag.go:Reset@15"),
        (17, "Reset", "flag/other.go:Reset@7"),
    ] {
        let link = format!("flag/flag_test.go:{line} call {name} -> {target}");
        assert!(links.contains(&link), "{link}: {links:?}");
    }
    // A package variable holding what a call returns.
    let link = "flag/flag.go:17 call Parse -> flag/flag.go:Parse@13";
    assert!(links.contains(link), "{link}: {links:?}");
}

/// Python: what a function's return annotation names (`-> "Console"`) is the type of the
/// value a call of it gives — in a function, in a script's top-level code, and in a
/// field the class assigns it to (`self.console = given if … else get_console()`, with
/// `given: Optional[Console]`).
#[test]
fn python_links_methods_called_on_what_a_call_returns() {
    let (home, _dir, _engine, root) = indexed(&[
        (
            "pkg/console.py",
            "class Console:\n    def print(self, x): pass\n    def rule(self): pass\n\ndef get_console() -> \"Console\":\n    return Console()\n\nclass Other:\n    def print(self, x): pass\n    def rule(self): pass\n",
        ),
        (
            "main.py",
            "from typing import Optional\nfrom pkg.console import get_console, Console\n\ndef run():\n    c = get_console()\n    c.print(1)\n    get_console().rule()\n\nif __name__ == \"__main__\":\n    console = get_console()\n    console.print(2)\n\nclass App:\n    def __init__(self, given: Optional[Console] = None):\n        self.console = given if given is not None else get_console()\n    def show(self):\n        self.console.print(3)\n",
        ),
    ]);
    let links = links(home.path(), &root);
    for link in [
        "main.py:6 call print -> pkg/console.py:print@2",
        "main.py:7 call rule -> pkg/console.py:rule@3",
        "main.py:11 call print -> pkg/console.py:print@2",
        "main.py:17 call print -> pkg/console.py:print@2",
    ] {
        assert!(links.contains(link), "{link}: {links:?}");
    }
}

/// Rust: a function's return type, through `?` and a smart pointer (`Result<Store, E>`,
/// `Box<Store>`), is the type of what a call of it gives.
#[test]
fn rust_links_methods_called_on_what_a_call_returns() {
    let (home, _dir, _engine, root) = indexed(&[
        (
            "Cargo.toml",
            "[package]\nname = \"app\"\nversion = \"0.1.0\"\n",
        ),
        (
            "src/store.rs",
            "pub struct Store;\nimpl Store { pub fn get(&self) -> u32 { 0 } }\npub fn open() -> Result<Store, String> { Ok(Store) }\npub fn boxed() -> Box<Store> { Box::new(Store) }\n",
        ),
        (
            "src/other.rs",
            "pub struct Other;\nimpl Other { pub fn get(&self) -> u32 { 1 } }\n",
        ),
        (
            "src/lib.rs",
            "pub mod store;\npub mod other;\nuse store::{open, boxed};\n\npub fn run() -> Result<(), String> {\n    let s = open()?;\n    s.get();\n    boxed().get();\n    Ok(())\n}\n",
        ),
    ]);
    let links = links(home.path(), &root);
    for link in [
        "src/lib.rs:7 call get -> src/store.rs:get@2",
        "src/lib.rs:8 call get -> src/store.rs:get@2",
    ] {
        assert!(links.contains(link), "{link}: {links:?}");
    }
}

/// TypeScript: a function's declared return type is the type of what a call of it
/// gives (`const s = open()`, `open().get()`).
#[test]
fn typescript_links_methods_called_on_what_a_call_returns() {
    let (home, _dir, _engine, root) = indexed(&[
        (
            "src/store.ts",
            "export class Store { get(): number { return 0; } }\nexport class Other { get(): number { return 1; } }\nexport function open(): Store { return new Store(); }\n",
        ),
        (
            "src/main.ts",
            "import { open } from \"./store\";\nexport function run() {\n  const s = open();\n  s.get();\n  open().get();\n}\n",
        ),
    ]);
    let links = links(home.path(), &root);
    for link in [
        "src/main.ts:4 call get -> src/store.ts:get@1",
        "src/main.ts:5 call get -> src/store.ts:get@1",
    ] {
        assert!(links.contains(link), "{link}: {links:?}");
    }
}

/// A member a type does not define itself is its base's: `this.add()` in a subclass,
/// `s.add()` on a value of the subclass, two levels down — in TypeScript, Python and
/// Java — while another type's `add` stays out.
#[test]
fn members_a_type_inherits_link_to_the_base_that_defines_them() {
    let (home, _dir, _engine, root) = indexed(&[
        (
            "src/base.ts",
            "export class Base { add(): void {} }\nexport class Other { add(): void {} }\n",
        ),
        (
            "src/sub.ts",
            "import { Base } from \"./base\";\nexport class Sub extends Base {\n  run() { this.add(); }\n}\nexport class Deeper extends Sub {\n  go() { this.add(); }\n}\nexport function use() {\n  const s = new Sub();\n  s.add();\n}\n",
        ),
        (
            "pkg/base.py",
            "class Base:\n    def add(self): pass\n\nclass Other:\n    def add(self): pass\n",
        ),
        (
            "pkg/sub.py",
            "from pkg.base import Base\n\nclass Sub(Base):\n    def run(self):\n        self.add()\n\nclass Deeper(Sub):\n    def go(self):\n        self.add()\n",
        ),
        (
            "j/Base.java",
            "package j;\n\npublic class Base {\n    public void add() {}\n}\n",
        ),
        (
            "j/Other.java",
            "package j;\n\npublic class Other {\n    public void add() {}\n}\n",
        ),
        (
            "j/Sub.java",
            "package j;\n\npublic class Sub extends Base {\n    void run(Sub s) { s.add(); }\n}\n",
        ),
    ]);
    let links = links(home.path(), &root);
    for link in [
        "src/sub.ts:3 call add -> src/base.ts:add@1",
        "src/sub.ts:6 call add -> src/base.ts:add@1",
        "src/sub.ts:10 call add -> src/base.ts:add@1",
        "pkg/sub.py:5 call add -> pkg/base.py:add@2",
        "pkg/sub.py:9 call add -> pkg/base.py:add@2",
        "j/Sub.java:4 call add -> j/Base.java:add@4",
    ] {
        assert!(links.contains(link), "{link}: {links:?}");
    }
}

/// `super` (Ruby's bare one and `super(x)`, Python's `super().f()`, Java's and
/// TypeScript's `super.f()`) calls what the class's bases define; a method a class
/// inherits is its own where it is called without a receiver (Ruby, Java), and Ruby's
/// `self.class.m` is the class's `m`. Rust's `super::f` stays its parent module's.
#[test]
fn super_calls_and_inherited_calls_reach_the_base_that_defines_them() {
    let (home, _dir, _engine, root) = indexed(&[
        (
            "lib/rule.rb",
            "module TZ\n  class Rule\n    def initialize(at)\n      @at = at\n    end\n\n    def ==(r)\n      r.kind_of?(Rule)\n    end\n\n    def self.register(name)\n      name\n    end\n\n    def self.usable?(x)\n      x\n    end\n  end\nend\n",
        ),
        (
            "lib/day_rule.rb",
            "module TZ\n  class DayRule < TZ::Rule\n    register :day\n\n    def initialize(at, day)\n      super(at)\n      @day = day\n    end\n\n    def ==(r)\n      super && r.day == @day\n    end\n\n    def check(x)\n      self.class.usable?(x)\n    end\n  end\n\n  class Other\n    def initialize(x)\n      super\n    end\n\n    def ==(r)\n      false\n    end\n  end\nend\n",
        ),
        (
            "pkg/base.py",
            "class Base:\n    def __init__(self, x):\n        self.x = x\n\n    def add(self):\n        pass\n\nclass Other:\n    def add(self):\n        pass\n",
        ),
        (
            "pkg/sub.py",
            "from pkg.base import Base\n\nclass Sub(Base):\n    def __init__(self, x):\n        super().__init__(x)\n\n    def add(self):\n        super().add()\n",
        ),
        (
            "j/Base.java",
            "package j;\n\npublic class Base {\n    public void add() {}\n}\n",
        ),
        (
            "j/Other.java",
            "package j;\n\npublic class Other {\n    public void add() {}\n}\n",
        ),
        (
            "j/Sub.java",
            "package j;\n\npublic class Sub extends Base {\n    public void add() { super.add(); }\n    void run() { add(); }\n}\n",
        ),
        (
            "j/Leaf.java",
            "package j;\n\npublic class Leaf extends Base {\n    void run() { add(); }\n}\n",
        ),
        (
            "src/base.ts",
            "export class Base { add(): void {} }\nexport class Other { add(): void {} }\n",
        ),
        (
            "src/sub.ts",
            "import { Base } from \"./base\";\nexport class Sub extends Base {\n  add(): void { super.add(); }\n}\n",
        ),
        ("src/lib.rs", "mod helpers;\nmod shapes;\n"),
        ("src/helpers.rs", "pub fn area() -> u32 { 1 }\n"),
        (
            "src/shapes.rs",
            "pub struct Square;\n\nimpl Square {\n    pub fn area(&self) -> u32 {\n        super::helpers::area()\n    }\n}\n",
        ),
    ]);
    let links = links(home.path(), &root);
    for link in [
        // Ruby: `super(at)` in `initialize`, a bare `super` in `==`: the base's.
        "lib/day_rule.rb:6 call super -> lib/rule.rb:initialize@3",
        "lib/day_rule.rb:11 call super -> lib/rule.rb:==@7",
        // A call in the class body: the base's class method; `self.class.m`.
        "lib/day_rule.rb:3 call register -> lib/rule.rb:register@11",
        "lib/day_rule.rb:15 call usable? -> lib/rule.rb:usable?@15",
        // A class that extends nothing of the project's: its `super` is outside.
        "lib/day_rule.rb:21 call super -> external",
        "pkg/sub.py:5 call __init__ -> pkg/base.py:__init__@2",
        "pkg/sub.py:8 call add -> pkg/base.py:add@5",
        "j/Sub.java:4 call add -> j/Base.java:add@4",
        // A bare call: the class's own `add` first, else the one it inherits.
        "j/Sub.java:5 call add -> j/Sub.java:add@4",
        "j/Leaf.java:4 call add -> j/Base.java:add@4",
        "src/sub.ts:3 call add -> src/base.ts:add@1",
        "src/shapes.rs:5 call area -> src/helpers.rs:area@1",
    ] {
        assert!(links.contains(link), "{link}: {links:#?}");
    }
}

/// Ruby code names values after their class: a call on a value whose class nothing
/// declares goes to the class its name says (`parse_context` → `ParseContext`, `block`
/// → `Block`) when that class, or one it extends, has the method — and stays unlinked
/// when it has not, and when no class is named so.
#[test]
fn a_ruby_value_named_after_its_class_calls_that_class() {
    let (home, _dir, _engine, root) = indexed(&[
        (
            "lib/context.rb",
            "class Base\n  def invoke(x)\n    x\n  end\nend\n\nclass ParseContext < Base\n  def evaluate(x)\n    x\n  end\nend\n\nclass Condition\n  def evaluate(c)\n    c\n  end\n\n  def invoke(x)\n    x\n  end\nend\n\nclass Block\n  def else?\n    false\n  end\nend\n\nclass Other\n  def else?\n    true\n  end\nend\n",
        ),
        (
            "lib/variable.rb",
            "class Variable\n  attr_reader :parse_context\n\n  def render(parse_context, block, item_list)\n    parse_context.evaluate(1)\n    parse_context.invoke(2)\n    block.else?\n    item_list.evaluate(3)\n    self.parse_context.evaluate(4)\n  end\nend\n",
        ),
    ]);
    let links = links(home.path(), &root);
    for link in [
        "lib/variable.rb:5 call evaluate -> lib/context.rb:evaluate@8",
        // The class it extends has it.
        "lib/variable.rb:6 call invoke -> lib/context.rb:invoke@2",
        // An attribute's value, named the same way.
        "lib/variable.rb:9 call evaluate -> lib/context.rb:evaluate@8",
        // One word (`else?` is no method of Ruby's own classes).
        "lib/variable.rb:7 call else? -> lib/context.rb:else?@24",
        // No class named `ItemList`, and two `evaluate`s: not linked.
        "lib/variable.rb:8 call evaluate -> external",
    ] {
        assert!(links.contains(link), "{link}: {links:#?}");
    }
}

/// What a Ruby value is, where nothing declares it: what a method gives (its YARD
/// `@return`, else its last expression: `Foo.new`, a bare `new`, a local of known
/// class, another call), an instance variable's first value of known class, a
/// parameter's YARD `@param` class; `attr_*` names are methods; a call on a value of no
/// known class goes to the project's one method of that name unless Ruby's own classes
/// define the name or that method is the class's own (`def self.m`); a class written
/// inside a class is reached by its name. The template comes first, so the one-by-one
/// index links `@root.load` only once the document says what `parse` gives.
#[test]
fn a_ruby_value_s_class_comes_from_what_gives_it() {
    let template = "module Lib\n  class Template\n    # @param stamp [Lib::Stamp] when\n    def initialize(stamp)\n      @root = Document.parse('x')\n      stamp.value\n    end\n\n    def render(thing, item, text)\n      @root.load('y')\n      thing.flush_all\n      item.build(1)\n      item.render(2)\n      thing.layout\n      text.strip\n      stamp_at(1).value\n      Inner.new\n    end\n\n    # @return [Stamp, nil]\n    def stamp_at(n)\n      make_it(n)\n    end\n  end\nend\n";
    let doc = "module Lib\n  class Document\n    def self.parse(source)\n      doc = new(source)\n      doc.load(source)\n      doc\n    end\n\n    attr_reader :layout, :body\n\n    def initialize(source)\n      @source = source\n      @body = new_body\n    end\n\n    def new_body\n      Body.new\n    end\n\n    def load(source)\n      @body.render(source)\n    end\n  end\nend\n";
    let others = "module Lib\n  class Body\n    def render(x)\n      x\n    end\n  end\n\n  class Other\n    def render(x)\n      x\n    end\n\n    def load(x)\n      x\n    end\n  end\n\n  class Stamp\n    def value\n      1\n    end\n\n    def self.build(x)\n      x\n    end\n\n    def flush_all\n    end\n\n    def strip\n    end\n  end\n\n  class Outer\n    class Inner\n    end\n  end\nend\n";
    let (home, _dir, _engine, root) = indexed(&[
        ("lib/template.rb", template),
        ("lib/document.rb", doc),
        ("lib/others.rb", others),
    ]);
    let links = links(home.path(), &root);
    for link in [
        // A bare `new` in a class method: the class (named by it, as `Foo.new` is).
        "lib/document.rb:4 call Document -> lib/document.rb:Document@2",
        // `doc = new(…)`: a Document.
        "lib/document.rb:5 call load -> lib/document.rb:load@20",
        // `@body = new_body`, whose last expression is `Body.new`.
        "lib/document.rb:21 call render -> lib/others.rb:render@3",
        // `@root = Document.parse(…)`, which gives its local `doc`.
        "lib/template.rb:10 call load -> lib/document.rb:load@20",
        // `@param stamp [Lib::Stamp]`.
        "lib/template.rb:6 call value -> lib/others.rb:value@19",
        // `@return [Stamp, nil]`.
        "lib/template.rb:16 call value -> lib/others.rb:value@19",
        // The one `flush_all`; the one `layout` (an `attr_reader`).
        "lib/template.rb:11 call flush_all -> lib/others.rb:flush_all@27",
        "lib/template.rb:14 call layout -> lib/document.rb:layout@9",
        // `build` is the class's own; `render` is two classes'; `strip` is Ruby's
        // String's too.
        "lib/template.rb:12 call build -> external",
        "lib/template.rb:13 call render -> external",
        "lib/template.rb:15 call strip -> external",
        // `class Outer; class Inner`: reached as `Inner`.
        "lib/template.rb:17 call Inner -> lib/others.rb:Inner@35",
    ] {
        assert!(links.contains(link), "{link}: {links:#?}");
    }
}

/// More of what a Ruby value is: a name of one word says its class for a member Ruby's
/// own classes do not have (`context.evaluate`, not `body.each`); a class's name in two
/// namespaces means the one the call's namespace (or the path written) reaches; an alias
/// is followed to the method it names; `x.tap do |y|` makes `y` an `x`; a module's
/// method calls the module's methods defined where it is reopened; a value calls an
/// instance's method, not the class's own (`def self.m`) of the same name; a namespace
/// the project does not define (`URI::Parser`) is outside; `Struct.new(:a)` defines `a`;
/// a class name is looked up in the namespaces the reference is written in; a mixin's
/// bare call means the project's method of the name, or is ambiguous among several.
#[test]
fn a_ruby_name_means_what_its_namespace_and_aliases_say() {
    let auth = "module Rack\n  module Basic\n    class Request\n      def username\n        1\n      end\n    end\n  end\n\n  module Digest\n    class Request\n      def nonce\n        2\n      end\n    end\n\n    class MD5\n      def call(env)\n        auth = Request.new(env)\n        auth.username\n        auth.nonce\n        Basic::Request.new(env).username\n      end\n    end\n  end\nend\n";
    let context = "module Lib\n  class Context\n    def evaluate(x)\n      x\n    end\n\n    def each\n    end\n\n    def self.build\n      new\n    end\n\n    def isolated\n      self.class.build.tap do |sub|\n        sub.evaluate(1)\n      end\n    end\n  end\n\n  class I18n\n    def translate(key)\n      key\n    end\n    alias_method :t, :translate\n  end\n\n  module Actions\n    def root\n      1\n    end\n  end\nend\n";
    let uses = "module Lib\n  class Tag\n    def render(context, body, locale)\n      context.evaluate(1)\n      body.each\n      locale.t('x')\n    end\n  end\n\n  module Actions\n    def copy\n      root()\n    end\n  end\nend\n";
    let translator = "module Lib\n  class Translator\n    def self.translate(x)\n      x\n    end\n\n    def translate(x)\n      x\n    end\n  end\n\n  class Node\n    def run(translator)\n      translator.translate(1)\n      Translator.translate(2)\n    end\n  end\nend\n";
    let outside = "module Lib\n  class Parser\n    def parse(x)\n      x\n    end\n  end\n\n  class Stream\n    alias _read_raw read\n    def read\n      _read_raw()\n    end\n  end\n\n  class Mock\n    Operator = Struct.new(:prefix, :parametric)\n\n    def parser\n      @parser ||= URI::Parser.new\n    end\n\n    def run\n      @parser.parse('y')\n    end\n  end\n\n  class Variable\n    def parametric\n    end\n  end\n\n  class Use\n    def go(op)\n      op.parametric\n    end\n\n    def run(operator)\n      operator.parametric\n    end\n  end\nend\n";
    let cops = "module RuboCop\n  module Cop\n    class Base\n      def add_offense(node)\n        node\n      end\n    end\n\n    module Style\n      class Comment < Base\n      end\n    end\n\n    module RangeHelp\n      def range_of(node)\n        add_offense(node)\n        lookup(node)\n      end\n    end\n  end\n\n  module Ext\n    class Base\n    end\n  end\nend\n";
    let (home, _dir, _engine, root) = indexed(&[
        ("lib/rack/auth.rb", auth),
        ("lib/context.rb", context),
        ("lib/uses.rb", uses),
        ("lib/translator.rb", translator),
        ("lib/outside.rb", outside),
        ("lib/cops.rb", cops),
        (
            "lib/lookup.rb",
            "class A\n  def lookup(x)\n  end\nend\n\nclass B\n  def lookup(x)\n  end\nend\n",
        ),
    ]);
    let links = links(home.path(), &root);
    for link in [
        // `Request` in `Digest` is `Digest::Request`, which has no `username`: not
        // `Basic::Request`'s, though it is the only `username`.
        "lib/rack/auth.rb:20 call username -> external",
        "lib/rack/auth.rb:21 call nonce -> lib/rack/auth.rb:nonce@12",
        // The path written says which.
        "lib/rack/auth.rb:22 call username -> lib/rack/auth.rb:username@4",
        // `context` → `Context`; `body` is no `Body` (and `each` is Ruby's).
        "lib/uses.rb:4 call evaluate -> lib/context.rb:evaluate@3",
        "lib/uses.rb:5 call each -> external",
        // `t` is an alias of `translate`.
        "lib/uses.rb:6 call t -> lib/context.rb:translate@22",
        // `tap`'s block gets what `Context.build` gives.
        "lib/context.rb:16 call evaluate -> lib/context.rb:evaluate@3",
        // A value named after its class calls an instance's method; the class, its own.
        "lib/translator.rb:14 call translate -> lib/translator.rb:translate@7",
        "lib/translator.rb:15 call translate -> lib/translator.rb:translate@3",
        // An alias written before the method is redefined keeps the one before (not
        // the project's): the alias is the answer.
        "lib/outside.rb:11 call _read_raw -> lib/outside.rb:_read_raw@9",
        // `URI::Parser`: not the project's `Parser`, nor its `parse`.
        "lib/outside.rb:19 call Parser -> external",
        "lib/outside.rb:23 call parse -> external",
        // `Struct.new(…, :parametric)` defines one more `parametric`: not the one
        // method of the name; but `operator` names the `Operator` it makes, whose
        // members are its own.
        "lib/outside.rb:34 call parametric -> external",
        "lib/outside.rb:38 call parametric -> lib/outside.rb:parametric@16",
        // `Base` written in `Cop::Style`: `Cop::Base`, not `Ext::Base`.
        "lib/cops.rb:10 extends Base -> lib/cops.rb:Base@3",
        // A mixin's bare call: the one method of the name; of two, none (below).
        "lib/cops.rb:16 call add_offense -> lib/cops.rb:add_offense@4",
        "lib/cops.rb:17 call lookup -> external",
        // `Actions` reopened: its `root`.
        "lib/uses.rb:12 call root -> lib/context.rb:root@29",
    ] {
        assert!(links.contains(link), "{link}: {links:#?}");
    }
    // …but listed as one of the calls that may mean each `lookup`.
    let conn = rusqlite::Connection::open(cc_search::code::db_path(
        home.path(),
        std::path::Path::new(&root),
    ))
    .unwrap();
    let ambiguous: bool = conn
        .query_row(
            "SELECT r.ambiguous FROM refs r JOIN files f ON f.id = r.file_id
             WHERE f.rel_path = 'lib/cops.rb' AND r.line = 17",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(ambiguous);
}

/// What a Ruby class has besides its own methods: what it mixes in (`include`, the
/// `extend` and `include` of an `included` hook, a `Concern`'s `ClassMethods`), also
/// where the module is reopened; a reader of an instance variable gives what the class
/// constructs into it; an element of a collection is what the class pushes into it; a
/// nested class extends the class it is written in; a value may hold a class (its own
/// methods, in `class << self`), and a one-word name says its class for a member Ruby's
/// common values lack (`node.stop`); a `super` in a module's method is what follows the
/// module where classes mix it in; `class Env < Options.new(:url)` extends `Options`; a
/// class name means the one of the namespace it is written in before one at the top;
/// a mixin's bare call is what the classes that include it have; Forwardable's
/// `def_delegators` make methods.
#[test]
fn a_ruby_class_has_what_it_mixes_in_and_its_collections_hold() {
    let (home, _dir, _engine, root) = indexed(&[
        ("lib/thor.rb", THOR),
        ("lib/thor/base.rb", BASE),
        ("lib/thor/shell.rb", SHELL),
        ("lib/thor/invocation.rb", INVOCATION),
        ("lib/concern.rb", CONCERN),
        ("lib/tree.rb", TREE),
        ("lib/more.rb", MORE),
        ("bench/script.rb", "def site\nend\n"),
        (
            "lib/logger.rb",
            "module Faraday\n  class Response\n    class Logger < Middleware\n    end\n  end\nend\n",
        ),
    ]);
    let links = links(home.path(), &root);
    for link in [
        // Mixed in by `include Thor::Base` (reopened in shell.rb: the file named after
        // it is the answer), and by its `included` hook: `base.extend ClassMethods`,
        // `base.send :include, Invocation` (and Invocation's own hook).
        "lib/thor.rb:20 implements Base -> lib/thor/base.rb:Base@2",
        "lib/thor.rb:4 call class_options_help -> lib/thor/base.rb:class_options_help@11",
        "lib/thor.rb:5 call prepare_for_invocation -> lib/thor/invocation.rb:prepare_for_invocation@8",
        "lib/thor.rb:16 call invoke -> lib/thor/invocation.rb:invoke@13",
        // A bare `new` in `class << self`: a Thor, with Base's `args`.
        "lib/thor.rb:7 call args -> lib/thor/base.rb:args@3",
        // The one method of the name, a class's own (in `class << self`): for a value
        // whose name says it holds a class, not for any value.
        "lib/thor.rb:17 call subcommand_help -> lib/thor.rb:subcommand_help@10",
        "lib/more.rb:41 call subcommand_help -> external",
        // `super` is never the method it is written in (the module's own, now that
        // `Thor` has it).
        "lib/thor/base.rb:16 call super -> external",
        // `extend ActiveSupport::Concern`: its `ClassMethods` are the includer's.
        "lib/concern.rb:15 call tracked_fields -> lib/concern.rb:tracked_fields@5",
        // Elements of `@blocks` (pushed by a method written after), of a local list.
        "lib/tree.rb:8 call else? -> lib/tree.rb:else?@30",
        "lib/tree.rb:10 call evaluate -> lib/tree.rb:evaluate@34",
        "lib/tree.rb:12 call evaluate -> lib/tree.rb:evaluate@34",
        "lib/tree.rb:16 call else? -> lib/tree.rb:else?@30",
        // `attr_reader :root` gives the `Walker` assigned to `@root`.
        "lib/tree.rb:13 call walk -> lib/tree.rb:walk@53",
        // `class Root < Node` inside `Node`.
        "lib/tree.rb:25 extends Node -> lib/tree.rb:Node@2",
        // `node` is a Node: `stop` is no method of Ruby's common values.
        "lib/tree.rb:59 call stop -> lib/tree.rb:stop@3",
        // `super` in a module's method: what follows the module in the classes that
        // mix it in (not the class it is written in, which does not).
        "lib/more.rb:10 call super -> lib/more.rb:+@2",
        // A class `Options.new` makes extends `Options`, and has its own methods.
        "lib/more.rb:25 extends Options -> lib/more.rb:Options@19",
        "lib/more.rb:26 call memoized -> lib/more.rb:memoized@20",
        // A mixin's bare call is what the classes that include it have: two `site`s,
        // ambiguous (not a script's top-level `def site`); Forwardable's delegators are
        // methods.
        "lib/more.rb:47 call site -> external",
        "lib/more.rb:66 call site -> lib/more.rb:site@63",
        // A class name means the one of the namespace it is written in first.
        "lib/logger.rb:3 extends Middleware -> lib/more.rb:Middleware@34",
    ] {
        assert!(links.contains(link), "{link}: {links:#?}");
    }
}

const THOR: &str = "class Thor\n  class << self\n    def help(shell)\n      class_options_help(shell)\n      prepare_for_invocation(1, 2)\n      instance = new\n      instance.args\n    end\n\n    def subcommand_help(cmd)\n      cmd\n    end\n  end\n\n  def run(subcommand_class)\n    invoke(:x)\n    subcommand_class.subcommand_help(1)\n  end\n\n  include Thor::Base\nend\n";
const BASE: &str = "class Thor\n  module Base\n    attr_accessor :args\n\n    def self.included(base)\n      base.extend ClassMethods\n      base.send :include, Invocation\n    end\n\n    module ClassMethods\n      def class_options_help(shell)\n        shell\n      end\n\n      def inherited(klass)\n        super(klass)\n      end\n    end\n  end\nend\n";
const SHELL: &str = "class Thor\n  module Base\n    def shell\n    end\n  end\nend\n";
const INVOCATION: &str = "class Thor\n  module Invocation\n    def self.included(base)\n      base.extend ClassMethods\n    end\n\n    module ClassMethods\n      def prepare_for_invocation(key, name)\n        name\n      end\n    end\n\n    def invoke(name)\n      name\n    end\n  end\nend\n";
const CONCERN: &str = "module Trackable\n  extend ActiveSupport::Concern\n\n  module ClassMethods\n    def tracked_fields\n      []\n    end\n  end\nend\n\nclass Post\n  include Trackable\n\n  def self.setup\n    tracked_fields\n  end\nend\n";
const MORE: &str = "class Pattern\n  def +(other)\n    other\n  end\nend\n\nclass Concat\n  module Native\n    def +(other)\n      super\n    end\n  end\nend\n\nclass Identity < Pattern\n  include Concat::Native\nend\n\nclass Options < Struct\n  def self.memoized(key)\n    key\n  end\nend\n\nclass Env < Options.new(:url)\n  memoized(:url)\nend\n\nmodule Faraday\n  class Middleware\n  end\n\n  class Response\n    class Middleware\n    end\n  end\nend\n\nclass Runner\n  def go(thing)\n    thing.subcommand_help(2)\n  end\nend\n\nmodule Convertible\n  def render\n    site\n  end\nend\n\nclass Page\n  include Convertible\n  attr_accessor :site\nend\n\nclass Layout\n  include Convertible\n  attr_reader :site\nend\n\nclass Excerpt\n  extend Forwardable\n  def_delegators :@doc, :site, :name\n\n  def render\n    site\n  end\nend\n";
const TREE: &str = "module Lib\n  class Node\n    attr_accessor :stop\n    attr_reader :root\n\n    def render\n      @blocks.each do |block|\n        block.else?\n      end\n      @blocks.first.evaluate\n      first = @blocks.last\n      first.evaluate\n      root.walk\n      list = []\n      list << Condition.new\n      list.map { |c| c.else? }\n    end\n\n    def parse\n      @root = Walker.new\n      block = Condition.new\n      @blocks << block\n    end\n\n    class Root < Node\n    end\n  end\n\n  class Condition\n    def else?\n      false\n    end\n\n    def evaluate\n      true\n    end\n\n    def walk\n    end\n  end\n\n  class ElseCondition\n    def else?\n      true\n    end\n\n    def evaluate\n      true\n    end\n  end\n\n  class Walker\n    def walk\n    end\n  end\n\n  class Boundaries\n    def set(node)\n      node.stop\n    end\n  end\nend\n";

/// A Ruby value nothing declares a class for is told by what its class's methods call on
/// it: the one class of the project that has all of it (three or more members the common
/// values lack), also through a class outside the project that it extends; a value used
/// for what no class of the project has is outside it. A path from `::` is the top
/// level's; a multi-line `Struct.new(`-made member starts at the call; `Data.define`
/// makes members too.
#[test]
fn a_ruby_value_s_class_is_told_by_what_is_called_on_it() {
    let (home, _dir, _engine, root) = indexed(&[
        // (The class the uses tell is added after: the calls are linked again.)
        ("lib/convert.rb", CONVERT),
        ("lib/element.rb", ELEMENT),
        ("lib/zip.rb", ZIP),
        ("lib/http.rb", HTTP),
        // `delta` defined after: `Holder` then has all `x` is used for.
        ("lib/holder.rb", HOLDER),
        (
            "lib/holder_more.rb",
            "class Holder\n  def delta\n  end\nend\n",
        ),
    ]);
    let links = links(home.path(), &root);
    for link in [
        // `el` of three methods: `type` (also a `Definition` member), `children`,
        // `attr`, `value` — an `Element`'s.
        "lib/convert.rb:6 call type -> lib/element.rb:type@3",
        "lib/convert.rb:14 call value -> lib/element.rb:value@3",
        // `@entry` of the class's methods: `crc` (also a `Header`'s) is an `Entry`'s.
        "lib/zip.rb:34 call crc -> lib/zip.rb:crc@3",
        // `::File` is Ruby's, not `Zip::File`; `::Zip::Entry` the project's.
        "lib/zip.rb:42 call open -> external",
        "lib/zip.rb:43 call read -> lib/zip.rb:read@15",
        // `Singleton`'s `instance` is the class's one instance.
        "lib/zip.rb:69 call finish -> lib/zip.rb:finish@50",
        // A local of no known class is no method: `@current = entry` is told by use.
        "lib/zip.rb:82 call crc -> lib/zip.rb:crc@3",
        // `x || Header.new` is a `Header` (as `c ? x : Header.new`).
        "lib/zip.rb:87 call crc -> lib/zip.rb:crc@21",
        // `add_trust_ca` is no method of the project's: `ssl_config` is outside it, not
        // the `SSLOptions` that has the rest (members `Options.new(` makes, from its
        // line; `Options < Struct`, Ruby's, has no `add_trust_ca`).
        "lib/http.rb:15 call add_trust_ca -> external",
        "lib/http.rb:16 call client_cert= -> external",
        "lib/http.rb:8 call verify_depth -> lib/http.rb:verify_depth@5",
        // `replace` and `insert_before` are the outside `TreeRewriter`'s: `corrector`
        // is a `Corrector`, whose `swap` it calls (not `Pair`'s).
        "lib/http.rb:48 call swap -> lib/http.rb:swap@27",
        "lib/http.rb:45 call replace -> external",
        "lib/holder.rb:14 call alpha -> lib/holder.rb:alpha@2",
    ] {
        assert!(links.contains(link), "{link}: {links:#?}");
    }
    let conn = rusqlite::Connection::open(cc_search::code::db_path(home.path(), Path::new(&root)))
        .unwrap();
    let members: Vec<String> = conn
        .prepare(
            "SELECT s.name FROM symbols s JOIN symbols p ON p.id = s.parent_symbol_id
             WHERE p.name = 'Point' ORDER BY s.line_start, s.name",
        )
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap();
    assert_eq!(members, ["x", "y"]);
}

const CONVERT: &str = "module Kd\n  Definition = Struct.new(:name, :type, :default)\n\n  class Converter\n    def convert_p(el)\n      el.type\n    end\n\n    def convert_a(el)\n      el.children.size + el.attr.size\n    end\n\n    def convert_text(el)\n      el.value\n    end\n  end\nend\n";
const ELEMENT: &str = "module Kd\n  class Element\n    attr_accessor :type, :value, :children, :attr\n\n    def initialize(type)\n      @type = type\n    end\n  end\nend\n";
const HOLDER: &str = "class Holder\n  def alpha\n  end\n\n  def beta\n  end\n\n  def gamma\n  end\nend\n\nclass Sorter\n  def sort(x)\n    x.alpha\n    x.beta\n    x.gamma\n    x.delta\n  end\nend\n";
const ZIP: &str = "module Zip\n  class Entry\n    def crc\n      0\n    end\n\n    def compressed_size\n      0\n    end\n\n    def header_size\n      0\n    end\n\n    def self.read(io)\n      io\n    end\n  end\n\n  class Header\n    def crc\n      1\n    end\n  end\n\n  class File\n    def self.open(name)\n      name\n    end\n  end\n\n  class Writer\n    def a\n      @entry.crc\n    end\n\n    def b\n      @entry.compressed_size + @entry.header_size\n    end\n\n    def c(path)\n      ::File.open(path)\n      ::Zip::Entry.read(path)\n    end\n  end\nend\n\nmodule Zip\n  class Compressor\n    def finish\n    end\n  end\n\n  class NullCompressor < Compressor\n    include Singleton\n  end\n\n  class Deflater\n    def finish\n    end\n  end\n\n  class Flusher\n    def initialize\n      @compressor = NullCompressor.instance\n    end\n\n    def run\n      @compressor.finish\n    end\n  end\nend\n\nmodule Zip\n  class Stream\n    def put(name)\n      entry = if name.is_a?(Entry) then name else Entry.new end\n      @current = entry\n    end\n\n    def finish\n      @current.crc + @current.compressed_size + @current.header_size\n    end\n\n    def header\n      h = @header || Header.new\n      h.crc\n    end\n  end\nend\n";
const HTTP: &str = "module Http\n  class Options < Struct\n  end\n\n  class SSLOptions < Options.new(:client_cert,\n                                 :client_key, :verify_depth)\n    def verify?\n      verify_depth\n    end\n  end\n\n  class Adapter\n    def configure_ssl(client)\n      ssl_config = client.ssl_config\n      ssl_config.add_trust_ca('ca')\n      ssl_config.client_cert = 1\n      ssl_config.client_key = 2\n      ssl_config.verify_depth = 3\n    end\n  end\n\n  class Corrector < ::Parser::Source::TreeRewriter\n    def remove_preceding(range)\n      range\n    end\n\n    def swap(a, b)\n      a\n    end\n\n    def wrap(range)\n      range\n    end\n  end\n\n  class Pair\n    def swap(a, b)\n      b\n    end\n  end\n\n  class Cop\n    def fix(corrector, range)\n      corrector.remove_preceding(range)\n      corrector.replace(range, 'x')\n      corrector.wrap(range)\n      corrector.insert_before(range, 'y')\n      corrector.swap(range, range)\n    end\n  end\n\n  Point = Data.define(:x, :y)\nend\n";

/// A Ruby class, module or constant written as a value is a reference: a hash's value
/// (`parser: Parser`), an argument (`is_a?(Adapter)`), a constant (`LIMIT`, the class's
/// `Parser::DEFAULT`); a path outside the project is outside it (`Timeout::Error`). What
/// a module's `included(base)` hook mixes into `base` is referred to as a mixin.
#[test]
fn a_ruby_constant_written_as_a_value_is_a_reference() {
    let (home, _dir, _engine, root) = indexed(&[("lib/wire.rb", WIRE)]);
    let links = links(home.path(), &root);
    for link in [
        "lib/wire.rb:15 implements ClassMethods -> lib/wire.rb:ClassMethods@9",
        "lib/wire.rb:22 type_ref Parser -> lib/wire.rb:Parser@2",
        "lib/wire.rb:22 type_ref Adapter -> lib/wire.rb:Adapter@6",
        "lib/wire.rb:22 value LIMIT -> lib/wire.rb:LIMIT@19",
        "lib/wire.rb:23 value DEFAULT -> lib/wire.rb:DEFAULT@3",
        "lib/wire.rb:27 type_ref Adapter -> lib/wire.rb:Adapter@6",
        "lib/wire.rb:28 type_ref Error -> external",
    ] {
        assert!(links.contains(link), "{link}: {links:#?}");
    }
    // Not where a definition, a base or a receiver writes it.
    assert!(
        !links.iter().any(|l| l.contains(" type_ref Request ")),
        "{links:#?}"
    );
}

const WIRE: &str = "module Web\n  class Parser\n    DEFAULT = 1\n  end\n\n  class Adapter\n  end\n\n  module ClassMethods\n    def base_uri\n    end\n  end\n\n  def self.included(base)\n    base.extend ClassMethods\n  end\n\n  class Request\n    LIMIT = 5\n\n    def initialize\n      @options = { parser: Parser, adapter: Web::Adapter, limit: LIMIT }\n      @default = Parser::DEFAULT\n    end\n\n    def check(x)\n      x.is_a?(Adapter)\n    rescue Timeout::Error\n      nil\n    end\n  end\nend\n";

/// Ruby's `x.a = v` calls the writer `a=`: the `def a=` the class writes, else what
/// `attr_accessor`/`attr_writer` or a `Struct`'s member makes; `x.a += v` calls the
/// reader and the writer. `&:name` and `send(:name)` call `name`. A `module_eval` string
/// in a class's or module's body is code, its `#{name}` filled in from the literal list
/// it iterates over.
#[test]
fn ruby_setters_block_passes_and_evaluated_code_are_references() {
    let (_home, _dir, engine, root) = indexed(&[("lib/conf.rb", CONF)]);
    let links = links(_home.path(), &root);
    for link in [
        // Writers: made by `attr_accessor`, `attr_writer`, a `Struct`, or a `def`
        // overriding one.
        "lib/conf.rb:45 call level= -> lib/conf.rb:level=@3",
        "lib/conf.rb:46 call level -> lib/conf.rb:level@3",
        "lib/conf.rb:46 call level= -> lib/conf.rb:level=@3",
        "lib/conf.rb:47 call mode= -> lib/conf.rb:mode=@4",
        "lib/conf.rb:48 call name= -> lib/conf.rb:name=@7",
        "lib/conf.rb:50 call x= -> lib/conf.rb:x=@12",
        "lib/conf.rb:51 call y= -> lib/conf.rb:y=@13",
        "lib/conf.rb:54 call caption -> lib/conf.rb:caption@19",
        // (An element of no known class: not the project's one `caption`.)
        "lib/conf.rb:55 call caption -> external",
        "lib/conf.rb:56 call level -> lib/conf.rb:level@3",
        // What the `module_eval` strings define, and what they call.
        "lib/conf.rb:28 call locale -> lib/conf.rb:locale@3",
        "lib/conf.rb:28 call backend -> lib/conf.rb:backend@3",
        "lib/conf.rb:57 call locale -> lib/conf.rb:locale@27",
        "lib/conf.rb:58 call backend -> lib/conf.rb:backend@27",
        "lib/conf.rb:59 call reset -> lib/conf.rb:reset@32",
        // `@items[name] = Item.new`: an element of `@items` is an `Item`.
        "lib/conf.rb:75 call caption -> lib/conf.rb:caption@19",
    ] {
        assert!(links.contains(link), "{link}: {links:#?}");
    }
    // `attr_writer :mode` makes no reader; an interpolation of anything but a literal
    // list's element defines nothing.
    let symbols = call(
        &engine,
        "code.get_file_symbols",
        json!({"path": root, "file": "lib/conf.rb"}),
    )
    .to_string();
    assert!(!symbols.contains("\"mode\""), "{symbols}");
    assert!(!symbols.contains("unknown"), "{symbols}");
    // An agent's outline gives a writer made beside its reader the reader's line.
    let outline = cc_search::agent::answer("code.get_file_symbols", &symbols, None).unwrap();
    let level = id_of(&engine, &root, "lib/conf.rb", "level");
    let writer = id_of(&engine, &root, "lib/conf.rb", "level=");
    assert!(
        outline.contains(&format!("\"    3 method level #{level} level= #{writer}\"")),
        "{outline}"
    );
    assert!(outline.contains("method mode= #"), "{outline}");
    // Who sets `level`: both writes, not the reads.
    let writer = id_of(&engine, &root, "lib/conf.rb", "level=");
    let refs = call(
        &engine,
        "code.get_references",
        json!({"path": root, "id": writer}),
    );
    let lines: Vec<i64> = refs["references"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r["line"].as_i64())
        .collect();
    assert_eq!(lines, [45, 46], "{refs}");
}

const CONF: &str = "module Conf
  class Settings
    attr_accessor :level, :locale, :backend
    attr_writer :mode
    attr_reader :name

    def name=(value)
      @name = value
    end
  end

  class Point < Struct.new(:x, :y)
    def y=(value)
      super(value.to_i)
    end
  end

  class Item
    def caption
    end
  end

  module Api
    %w(locale backend).each do |method|
      module_eval <<-DELEGATORS, __FILE__, __LINE__ + 1
        # The settings' #{method}.
        def #{method}
          settings.#{method}
        end
      DELEGATORS
    end
    class_eval \"def reset; end\"
    module_eval \"def #{unknown}; end\"

    def settings
      Settings.new
    end
  end

  class Client
    include Api

    def run(list)
      s = Settings.new
      s.level = 1
      s.level += 1
      s.mode = :fast
      s.name = 'x'
      point = Point.new(1, 2)
      point.x = 3
      point.y = 4
      items = []
      items << Item.new
      items.map(&:caption)
      list.map(&:caption)
      s.send(:level)
      locale
      backend
      reset
    end
  end
end

class Label
  def caption
  end
end

class Registry
  def define(name)
    @items[name] = Conf::Item.new
  end

  def show(name)
    @items[name].caption
  end
end
";

/// Of a class's `def self.encode` and `def encode`, a bare `encode` in an instance
/// method is the instance's, in a class method (`def self.m`, `class << self`) the
/// class's own.
#[test]
fn a_bare_ruby_call_means_the_method_of_its_own_side() {
    let (home, _dir, _engine, root) = indexed(&[(
        "lib/base.rb",
        "class Base
  def self.encode(data)
    data
  end

  def encode(*args)
    self.class.encode(*args)
  end

  def self.build
    encode('x')
  end

  class << self
    def setup
      encode('y')
    end
  end

  def process
    encode('z')
  end
end
",
    )]);
    let links = links(home.path(), &root);
    for link in [
        "lib/base.rb:11 call encode -> lib/base.rb:encode@2",
        "lib/base.rb:16 call encode -> lib/base.rb:encode@2",
        "lib/base.rb:21 call encode -> lib/base.rb:encode@6",
    ] {
        assert!(links.contains(link), "{link}: {links:#?}");
    }
}

/// A Ruby instance variable holds the class its class's methods assign it, wherever
/// they are written: in another file that reopens the class, in the class it extends;
/// a module's (its own methods', or the class's around it); and an edit there moves
/// the links of the files that read it.
#[test]
fn a_ruby_field_holds_what_the_class_assigns_it_in_any_of_its_files() {
    let reader = "class Doc < Base\n  def math\n    @src.pos\n    @root.options\n  end\nend\n";
    let (home, dir, engine, root) = indexed(&[
        // (Written first: the files that assign come after, and must link it again.)
        ("lib/doc/math.rb", reader),
        (
            "lib/base.rb",
            "class Base\n  def initialize\n    @root = Element.new\n  end\nend\n",
        ),
        (
            "lib/doc.rb",
            "class Doc < Base\n  def parse(text)\n    @src = text.nil? ? @src : Scanner.new(text)\n  end\nend\n",
        ),
        (
            "lib/element.rb",
            "class Element\n  def options\n  end\nend\n\nclass Other\n  def options\n  end\nend\n\nclass Scanner\n  def pos\n  end\nend\n\nclass Tape\n  def pos\n  end\nend\n",
        ),
        (
            "lib/options.rb",
            "module Options\n  def self.define(name)\n    @defs[name] = Definition.new\n  end\n\n  def self.parse(name)\n    @defs[name].kind\n  end\n\n  class Definition\n    def kind\n    end\n  end\n\n  class Spare\n    def kind\n    end\n  end\nend\n",
        ),
        (
            "lib/html.rb",
            "class Html\n  module Helpers\n    def at\n      @src.pos\n    end\n  end\n\n  def parse\n    @src = Tape.new\n  end\nend\n",
        ),
    ]);
    let links = links(home.path(), &root);
    for link in [
        "lib/doc/math.rb:3 call pos -> lib/element.rb:pos@12",
        "lib/doc/math.rb:4 call options -> lib/element.rb:options@2",
        "lib/options.rb:7 call kind -> lib/options.rb:kind@11",
        "lib/html.rb:4 call pos -> lib/element.rb:pos@17",
    ] {
        assert!(links.contains(link), "{link}: {links:#?}");
    }

    // The base assigns another class: the reader's link follows.
    write(
        dir.path(),
        "lib/base.rb",
        "class Base\n  def initialize\n    @root = Other.new\n  end\nend\n",
    );
    call(
        &engine,
        "code.update_files",
        json!({"path": root, "files": ["lib/base.rb"]}),
    );
    let links = links_of::links(home.path(), &root);
    assert!(
        links.contains("lib/doc/math.rb:4 call options -> lib/element.rb:options@7"),
        "{links:#?}"
    );
    // Two files of the class that disagree tell nothing.
    write(
        dir.path(),
        "lib/doc/tape.rb",
        "class Doc\n  def rewind\n    @src = Tape.new\n  end\nend\n",
    );
    call(
        &engine,
        "code.update_files",
        json!({"path": root, "files": ["lib/doc/tape.rb"]}),
    );
    let links = links_of::links(home.path(), &root);
    assert!(
        !links
            .iter()
            .any(|l| l.starts_with("lib/doc/math.rb:3 call pos -> lib/")),
        "{links:#?}"
    );
}

/// What a Ruby class's methods call on a value of no known class tells its class in
/// every file the class is reopened in (`el.type` alone says nothing; `el.attr`,
/// `el.children`, `el.options` in another file of the class do), and an instance
/// variable's in the classes it extends and that extend it (never a sibling's); a
/// parameter copying one (`tree = @tree`) is that variable. An edit there moves the
/// links; every step links as a fresh index does.
#[test]
fn a_ruby_value_s_uses_in_every_file_of_its_class_tell_its_class() {
    let element = "class Element\n  def type\n  end\n\n  def attr\n  end\n\n  def children\n  end\n\n  def options\n  end\n\n  def value\n  end\nend\n\nclass Token\n  def type\n  end\n\n  def value\n  end\n\n  def options\n  end\nend\n";
    let (home, dir, engine, root) = indexed(&[
        // (The one-use files first: the files that tell come after, and link them again.)
        (
            "lib/parser/emphasis.rb",
            "class Parser\n  def parse_emphasis(el)\n    el.type\n  end\nend\n",
        ),
        (
            "lib/base.rb",
            "class Base\n  def add_text(text, tree = @tree)\n    tree.options\n  end\nend\n",
        ),
        (
            "lib/other.rb",
            "class Other < Base\n  def go\n    @tree.value\n  end\nend\n",
        ),
        ("lib/element.rb", element),
        (
            "lib/parser.rb",
            "class Parser\n  def parse_block(el)\n    el.attr\n    el.children\n    el.options\n  end\nend\n",
        ),
        (
            "lib/kramdown.rb",
            "class Kramdown < Base\n  def parse\n    @tree.children\n    @tree.attr\n    @tree.type\n  end\nend\n",
        ),
    ]);
    let links = links(home.path(), &root);
    for link in [
        "lib/parser/emphasis.rb:3 call type -> lib/element.rb:type@2",
        "lib/base.rb:3 call options -> lib/element.rb:options@11",
    ] {
        assert!(links.contains(link), "{link}: {links:#?}");
    }
    // `Other`'s `@tree` is told by its base's uses only (`options`): too few.
    assert!(
        !links
            .iter()
            .any(|l| l.starts_with("lib/other.rb:3 call value -> lib/")),
        "{links:#?}"
    );
    // The other file of the class no longer tells: the one use is ambiguous again.
    write(
        dir.path(),
        "lib/parser.rb",
        "class Parser\n  def parse_block(el)\n    el.size\n  end\nend\n",
    );
    call(
        &engine,
        "code.update_files",
        json!({"path": root, "files": ["lib/parser.rb"]}),
    );
    let links = links_of::links(home.path(), &root);
    assert!(
        !links
            .iter()
            .any(|l| l.starts_with("lib/parser/emphasis.rb:3 call type -> lib/")),
        "{links:#?}"
    );
    let fresh = tempfile::tempdir().unwrap();
    let cold = Engine::open_at(fresh.path()).unwrap();
    call(&cold, "code.index_repository", json!({"path": root}));
    assert_eq!(links, links_of::links(fresh.path(), &root));
}

/// A Ruby `new` on a class the code computes makes that class: a registry of a class's
/// kinds looked up by a symbol (`Node[:separator]`, `Node::Separator`) or by any key (a
/// `Node`), a local holding one, `self` in a class method, `Class.new(self)`; a hash
/// constant's value (`CLASSES[k].new`) is of no class told. A constant holds what its
/// value gives (`REGISTRY = Registry.new`, `Renderer = Translator.create { … }`), also
/// read from another file of its namespace.
#[test]
fn a_ruby_class_the_code_computes_is_what_new_makes() {
    let (home, _dir, engine, root) = indexed(&[
        (
            "lib/node.rb",
            "class Node\n  def self.[](name)\n    const_get(name)\n  end\n\n  def initialize(x)\n  end\n\n  class Separator < Node\n  end\nend\n",
        ),
        (
            "lib/tree.rb",
            "class Tree\n  CLASSES = { a: Node }\n\n  def sep\n    Node[:separator].new(1)\n  end\n\n  def node(type)\n    type = Node[type] unless type.respond_to?(:new)\n    type.new(1)\n  end\n\n  def pick(k)\n    CLASSES[k].new\n  end\nend\n",
        ),
        (
            "lib/translator.rb",
            "class Translator\n  def self.create(&block)\n    Class.new(self, &block).new\n  end\n\n  def self.translate(*types)\n  end\n\n  def translate(node)\n  end\nend\n\nclass Registry\n  def get(key)\n  end\nend\n\nclass Cache\n  def get(key)\n  end\nend\n",
        ),
        (
            "lib/app.rb",
            "class App\n  Renderer = Translator.create do\n  end\n  REGISTRY = Registry.new\nend\n",
        ),
        (
            "lib/app/render.rb",
            "class App\n  def render(ast)\n    Renderer.translate(ast)\n    REGISTRY.get(:x)\n  end\nend\n",
        ),
    ]);
    let links = links(home.path(), &root);
    for link in [
        "lib/tree.rb:5 call Separator -> lib/node.rb:Separator@9",
        "lib/tree.rb:10 call Node -> lib/node.rb:Node@1",
        "lib/translator.rb:3 call Translator -> lib/translator.rb:Translator@1",
        "lib/app/render.rb:3 call translate -> lib/translator.rb:translate@9",
        "lib/app/render.rb:4 call get -> lib/translator.rb:get@14",
    ] {
        assert!(links.contains(link), "{link}: {links:#?}");
    }
    assert!(
        !links
            .iter()
            .any(|l| l.starts_with("lib/tree.rb:14 call CLASSES")),
        "{links:#?}"
    );
    let separator = id_of(&engine, &root, "lib/node.rb", "Separator");
    assert_eq!(
        references_of(&engine, &root, separator),
        ["lib/tree.rb:5 call"]
    );
}

/// A Ruby guard tells a value's class below it (`return false unless
/// other.kind_of?(Template)`), over what its documentation said (`[Object]`); a class
/// a method gives is looked up where the method is written, so `Request` in `App::Base`
/// is `App::Request`, not `App::WebDAV::Request`; a class of Ruby's own that the
/// project defines only in a namespace the reference is not in is Ruby's (`Dir.pwd`).
#[test]
fn a_ruby_guard_and_where_a_type_is_written_tell_a_value_s_class() {
    let (home, _dir, _engine, root) = indexed(&[
        (
            "lib/template.rb",
            "class Template\n  def pattern\n  end\n\n  # @param [Object] other\n  def ==(other)\n    return false unless other.kind_of?(Template)\n    other.pattern == self\n  end\nend\n\nclass Matcher\n  def pattern\n  end\nend\n",
        ),
        (
            "lib/app/base.rb",
            "module App\n  class Request\n    def secure?\n    end\n  end\n\n  class Base\n    # @return [Request]\n    def request\n    end\n\n    def response\n    end\n\n    def settings\n    end\n  end\nend\n",
        ),
        (
            "lib/app/webdav.rb",
            "module App\n  module WebDAV\n    class Request\n      def secure?\n      end\n    end\n  end\nend\n",
        ),
        (
            "lib/cop/style/dir.rb",
            "module Cop\n  class Base\n    include PathUtil\n  end\n\n  module Style\n    class Dir < Base\n    end\n  end\nend\n",
        ),
        (
            "lib/path_util.rb",
            "module PathUtil\n  def pwd\n    @pwd ||= Dir.pwd\n  end\nend\n\nclass Runner\n  def root\n    Dir.pwd\n  end\nend\n",
        ),
        (
            "lib/jar.rb",
            "class Jar\n  def initialize(app)\n    @request = app.request\n    app.response\n    app.settings\n  end\n\n  def secure\n    @request.secure?\n  end\nend\n",
        ),
    ]);
    let links = links(home.path(), &root);
    for link in [
        "lib/template.rb:8 call pattern -> lib/template.rb:pattern@2",
        "lib/jar.rb:9 call secure? -> lib/app/base.rb:secure?@3",
        // `Dir` outside `Cop::Style` is Ruby's: its `pwd` is outside, not `PathUtil#pwd`.
        "lib/path_util.rb:9 call pwd -> external",
    ] {
        assert!(links.contains(link), "{link}: {links:#?}");
    }
}

/// A call written inside a string's interpolation is a reference (Ruby's `"#{needed?}"`,
/// Python's `f"{label()}"`, TypeScript's `${label()}`).
#[test]
fn calls_in_interpolations_are_references() {
    let (home, _dir, _engine, root) = indexed(&[
        (
            "lib/task.rb",
            "class Task\n  def needed?\n  end\n\n  def inspect\n    \"task needed: #{needed?}\"\n  end\nend\n",
        ),
        ("lib/run.rb", "task = Task.new\nputs \"#{task.needed?}\"\n"),
        (
            "app.py",
            "def label():\n    return 1\n\n\ndef show():\n    return f\"<{label()}>\"\n",
        ),
        (
            "app.ts",
            "export function label(): number {\n  return 1;\n}\n\nexport function show(): string {\n  return `<${label()}>`;\n}\n",
        ),
    ]);
    let links = links(home.path(), &root);
    for link in [
        "lib/task.rb:6 call needed? -> lib/task.rb:needed?@2",
        "lib/run.rb:2 call needed? -> lib/task.rb:needed?@2",
        "app.py:6 call label -> app.py:label@1",
        "app.ts:6 call label -> app.ts:label@1",
    ] {
        assert!(links.contains(link), "{link}: {links:#?}");
    }
}

/// A Ruby constant is looked up in the namespaces around it: `Request.new` in `module
/// Rack` is not the project's `App::Request` (Rack's own, outside), in `module App` it
/// is; `::Logger.new` is the top level's.
#[test]
fn a_ruby_class_of_another_namespace_is_not_what_a_bare_constant_names() {
    let (home, _dir, _engine, root) = indexed(&[
        (
            "lib/app/request.rb",
            "module App\n  class Request\n  end\n\n  class Logger\n  end\nend\n",
        ),
        (
            "lib/rack/guard.rb",
            "module Rack\n  class Guard\n    def call(env)\n      Request.new(env)\n      ::Logger.new($stderr)\n    end\n  end\nend\n",
        ),
        (
            "lib/app/handler.rb",
            "module App\n  class Handler\n    def run\n      Request.new\n    end\n  end\nend\n",
        ),
    ]);
    let links = links(home.path(), &root);
    for link in [
        "lib/rack/guard.rb:4 call Request -> external",
        "lib/rack/guard.rb:5 call Logger -> external",
        "lib/app/handler.rb:4 call Request -> lib/app/request.rb:Request@2",
    ] {
        assert!(links.contains(link), "{link}: {links:#?}");
    }
}

/// A bare Ruby name is a call of a method without arguments (Ruby writes no `()`),
/// unless it is a local: assigned before, a method's, block's or lambda's parameter. A
/// reader defined beside an `attr_writer` of its name is what a call reads.
#[test]
fn a_bare_ruby_name_is_a_call_unless_it_is_a_local() {
    let bare = "module Lib\n  class Server\n    OPS = { add: ->(left, right) { left + right } }\n    attr_writer :options\n\n    def options\n      @options ||= {}\n    end\n\n    def start(port)\n      host = 'x'\n      options\n      host\n      port\n      [1].each { |item| item; options }\n      run_it\n    end\n\n    def run_it\n    end\n  end\nend\n";
    let (home, _dir, _engine, root) = indexed(&[("lib/bare.rb", bare)]);
    let links = links(home.path(), &root);
    for link in [
        "lib/bare.rb:12 call options -> lib/bare.rb:options@6",
        "lib/bare.rb:15 call options -> lib/bare.rb:options@6",
        "lib/bare.rb:16 call run_it -> lib/bare.rb:run_it@19",
    ] {
        assert!(links.contains(link), "{link}: {links:#?}");
    }
    for local in [
        "lib/bare.rb:3 call left",
        "lib/bare.rb:3 call right",
        "lib/bare.rb:13 call host",
        "lib/bare.rb:14 call port",
        "lib/bare.rb:15 call item",
    ] {
        assert!(
            !links.iter().any(|l| l.starts_with(local)),
            "{local}: {links:#?}"
        );
    }
}

#[test]
fn rust_links_through_use_paths_and_crates_and_never_across_languages() {
    let (_home, _dir, engine, root) = indexed(&[
        (
            "core/Cargo.toml",
            "[package]\nname = \"my-core\"\nversion = \"0.1.0\"\n",
        ),
        (
            "core/src/lib.rs",
            "pub mod store;\npub mod engine;\npub fn write() {}\n",
        ),
        (
            "core/src/store.rs",
            "pub struct Database;\nimpl Database {\n    pub fn open() -> Database { Database }\n    pub fn len(&self) -> usize { 0 }\n}\n",
        ),
        (
            "core/src/engine.rs",
            "use crate::store::Database;\nuse super::write;\n\npub struct Engine { db: Database }\n\nimpl Engine {\n    pub fn new() -> Engine {\n        let db = Database::open();\n        write();\n        let v: Vec<u8> = Vec::new();\n        let n = v.len();\n        let d = make();\n        let m = d.len();\n        Engine { db }\n    }\n    pub fn run(&self) { self.helper(); }\n    fn helper(&self) {}\n}\n",
        ),
        (
            "core/tests/t.rs",
            "use my_core::engine::Engine;\n\n#[test]\nfn t() { let e = Engine::new(); e.run(); }\n",
        ),
        // A Python class of the same name as the Rust struct, and a `write` in JS.
        (
            "bindings/py/engine.py",
            "class Engine:\n    def new(self):\n        pass\n",
        ),
        ("bindings/js/stdin.js", "export function write() {}\n"),
    ]);
    let engine_rs = id_of(&engine, &root, "core/src/engine.rs", "Engine");
    let db = id_of(&engine, &root, "core/src/store.rs", "Database");
    let open = id_of(&engine, &root, "core/src/store.rs", "open");
    let write_rs = id_of(&engine, &root, "core/src/lib.rs", "write");
    let helper = id_of(&engine, &root, "core/src/engine.rs", "helper");
    // `use crate::store::Database`, `Database::open()`, `super::write`.
    assert_eq!(
        dep(&engine, &root, "core/src/engine.rs", "db", "Database")["to_id"],
        db
    );
    assert_eq!(
        dep(&engine, &root, "core/src/engine.rs", "new", "open")["to_id"],
        open
    );
    assert_eq!(
        dep(&engine, &root, "core/src/engine.rs", "new", "write")["to_id"],
        write_rs
    );
    // `self.helper()` in `impl Engine`.
    assert_eq!(
        dep(&engine, &root, "core/src/engine.rs", "run", "helper")["to_id"],
        helper
    );
    // `v.len()` on a `Vec` (declared): the standard library's. `d.len()` on a value of a
    // type the index does not know: the user's `Database::len` is a candidate, never a
    // link.
    let lens = deps_named(&engine, &root, "core/src/engine.rs", "new", "len");
    assert_eq!(lens.len(), 2, "{lens:?}");
    assert!(lens.iter().all(|d| d.get("to_id").is_none()), "{lens:?}");
    assert!(lens.iter().any(|d| d["external"] == true), "{lens:?}");
    let unknown = lens
        .iter()
        .find(|d| d["ambiguous"] == true)
        .expect("d.len()");
    assert_eq!(
        unknown["candidates"].as_array().unwrap().len(),
        1,
        "{unknown}"
    );
    // `Vec::new()`: the standard library.
    let vec_new = deps_named(&engine, &root, "core/src/engine.rs", "new", "new");
    assert!(vec_new.iter().all(|d| d["external"] == true), "{vec_new:?}");
    // Another crate of the workspace, by its Cargo name: `my_core::engine::Engine`.
    let t = id_of(&engine, &root, "core/tests/t.rs", "t");
    let out = call(
        &engine,
        "code.get_dependencies",
        json!({"path": root, "id": t}),
    );
    let new = out["dependencies"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["to_name"] == "new")
        .unwrap();
    assert_eq!(
        new["to_id"],
        id_of(&engine, &root, "core/src/engine.rs", "new"),
        "{out}"
    );
    // Who refers to the Rust `Engine`: Rust files only.
    let refs = call(
        &engine,
        "code.get_references",
        json!({"path": root, "id": engine_rs}),
    );
    let text = refs.to_string();
    assert!(
        !text.contains("engine.py") && !text.contains("stdin.js"),
        "{text}"
    );
    assert!(text.contains("t.rs"), "{text}");
}

/// A Python module's variable holds the class its annotation names, or of the value
/// assigned, looked up where it is written: `current_app: AppProxy` (a class the module
/// imports only while type checking) and `app = App()` reach `App`'s methods from the
/// modules that import the variable, and from the module's own functions — not where a
/// parameter or local of the function has that name.
#[test]
fn a_python_module_variable_holds_its_annotated_or_assigned_class() {
    let (home, _dir, _engine, root) = indexed(&[
        (
            "pkg/helpers.py",
            "from .globals import current_app, app\n\n\ndef url_for(endpoint):\n    current_app.url_for(endpoint)\n    return app.url_for(endpoint)\n",
        ),
        ("pkg/__init__.py", ""),
        (
            "pkg/app.py",
            "class App:\n    def url_for(self, endpoint):\n        return endpoint\n\n\nclass Flask(App):\n    pass\n\n\nclass Other:\n    def url_for(self, endpoint):\n        return endpoint\n",
        ),
        (
            "pkg/globals.py",
            "import typing as t\n\nfrom .app import App\n\nif t.TYPE_CHECKING:\n    from .app import Flask\n\n    class AppProxy(Flask): ...\n\ncurrent_app: AppProxy = LocalProxy(None)\napp = App()\n\n\ndef here():\n    return app.url_for('x')\n\n\ndef shadowed(app):\n    return app.url_for('x')\n\n\ndef assigned():\n    app = make()\n    g(app.url_for)\n    return app.url_for('y')\n",
        ),
    ]);
    let links = links(home.path(), &root);
    for link in [
        "pkg/helpers.py:5 call url_for -> pkg/app.py:url_for@2",
        "pkg/helpers.py:6 call url_for -> pkg/app.py:url_for@2",
        "pkg/globals.py:15 call url_for -> pkg/app.py:url_for@2",
    ] {
        assert!(links.contains(link), "{link}: {links:#?}");
    }
    // A parameter or local of that name is not the module's variable (a local's member
    // passed on is a use of no known class's member).
    assert!(
        links.contains("pkg/globals.py:24 value url_for -> external"),
        "{links:#?}"
    );
    for line in [19, 24, 25] {
        let at = format!("pkg/globals.py:{line} call url_for -> pkg/");
        assert!(
            !links.iter().any(|l| l.starts_with(&at)),
            "{at}: {links:#?}"
        );
    }
}

/// A Python method passed as a value through `self` or `cls` (a callback, a bound method
/// kept in a local) is a use of the class's method, as through any other value; a
/// parameter's member of no known class is still no use.
#[test]
fn a_python_method_passed_through_self_is_referenced() {
    let (home, _dir, _engine, root) = indexed(&[(
        "app.py",
        "class App:\n    def ensure_sync(self, f):\n        return f\n\n    @classmethod\n    def build(cls):\n        return cls\n\n    def run(self, other):\n        g(self.ensure_sync)\n        h = self.ensure_sync\n        g(cls_of(self).build)\n        g(other.ensure_sync)\n        return h\n\n    @classmethod\n    def make(cls):\n        return g(cls.build)\n\n\ndef g(x):\n    return x\n\n\ndef cls_of(x):\n    return x\n",
    )]);
    let links = links(home.path(), &root);
    for link in [
        "app.py:10 value ensure_sync -> app.py:ensure_sync@2",
        "app.py:11 value ensure_sync -> app.py:ensure_sync@2",
        "app.py:18 value build -> app.py:build@6",
    ] {
        assert!(links.contains(link), "{link}: {links:#?}");
    }
    assert!(
        !links.iter().any(|l| l.starts_with("app.py:13 value")),
        "{links:#?}"
    );
}

#[test]
fn a_python_attribute_read_anywhere_is_a_use_of_the_class_declaration() {
    let app = [
        "from errors import Boom",                             // 1
        "import errors",                                       // 2
        "",                                                    // 3
        "class Response:",                                     // 4
        "    @classmethod",                                    // 5
        "    def force_type(cls, rv):",                        // 6
        "        return rv",                                   // 7
        "",                                                    // 8
        "class App:",                                          // 9
        "    response_class: type[Response] = Response",       // 10
        "    debug = False",                                   // 11
        "",                                                    // 12
        "    def make(self, rv, other: Any, app: App):",       // 13
        "        if not isinstance(rv, self.response_class):", // 14
        "            rv = self.response_class.force_type(rv)", // 15
        "        if self.debug and errors.LEVEL > 1:",         // 16
        "            self.debug = False",                      // 17
        "        x = app.response_class",                      // 18
        "        y = other.force_type",                        // 19
        "        try:",                                        // 20
        "            pass",                                    // 21
        "        except errors.Boom:",                         // 22
        "            pass",                                    // 23
        "        return rv",                                   // 24
        "",                                                    // 25
        "def header():",                                       // 26
        "    return 1",                                        // 27
        "",                                                    // 28
        "def table(rows, top):",                               // 29
        "    for header in rows:",                             // 30
        "        print(header)",                               // 31
        "    first = header",                                  // 32
        "    return first",                                    // 33
    ]
    .join("\n");
    let (_home, _dir, engine, root) = indexed(&[
        (
            "errors.py",
            "LEVEL = 2\n\nclass Boom(Exception):\n    pass\n",
        ),
        ("app.py", &format!("{app}\n")),
    ]);
    let references = |name: &str, file: &str| references(&engine, &root, file, name);
    // Read in a condition, as an argument, as a call's receiver, through a parameter of
    // a declared class; not where it is written, nor through a parameter of no known
    // class.
    assert_eq!(
        references("response_class", "app.py"),
        ["app.py:14 value", "app.py:15 value", "app.py:18 value"]
    );
    assert_eq!(references("debug", "app.py"), ["app.py:16 value"]);
    // A module's variable read through the module.
    assert_eq!(references("LEVEL", "errors.py"), ["app.py:16 value"]);
    // The receiver's class is what its annotation's `type[…]` names; a parameter of
    // `Any` is of no known class (not a "maybe" of every class's `force_type`).
    assert_eq!(references("force_type", "app.py"), ["app.py:15 call"]);
    // A local passed on, returned or assigned is not the module's function of its name.
    assert_eq!(references("header", "app.py"), Vec::<String>::new());
    // An `except` clause's class is its type reference, not also a value.
    assert_eq!(
        references("Boom", "errors.py"),
        ["app.py:1 import", "app.py:22 type_ref"]
    );
}

/// An attribute a Python method assigns (`self.nargs = …`) is a member of its class, at
/// its first assignment, unless the class's body declares the name; its reads link to it,
/// through a subclass too, and not to a class of the same name elsewhere.
#[test]
fn a_python_attribute_a_method_assigns_is_a_member_of_its_class() {
    let app = [
        "class Base:",                          // 1
        "    def __init__(self, nargs):",       // 2
        "        #: How many values it takes.", // 3
        "        self.nargs = nargs",           // 4
        "        self.nargs = 2",               // 5
        "",                                     // 6
        "class Option(Base):",                  // 7
        "    def show(self):",                  // 8
        "        return self.nargs",            // 9
        "",                                     // 10
        "class Config:",                        // 11
        "    limit = 3",                        // 12
        "",                                     // 13
        "    def __init__(self):",              // 14
        "        self.limit = 4",               // 15
        "        self.render = None",           // 16
        "",                                     // 17
        "    def render(self):",                // 18
        "        return self.limit",            // 19
    ]
    .join("\n");
    let (_home, _dir, engine, root) = indexed(&[
        ("app.py", &format!("{app}\n")),
        (
            "parser.py",
            "class Option:\n    def __init__(self):\n        self.nargs = 1\n",
        ),
    ]);
    let outline = call(
        &engine,
        "code.get_file_symbols",
        json!({"path": root, "file": "app.py"}),
    );
    let members = |class: usize| -> Vec<String> {
        outline["symbols"][class]["children"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                format!(
                    "{} {} {}",
                    c["kind"].as_str().unwrap(),
                    c["name"].as_str().unwrap(),
                    c["start_line"]
                )
            })
            .collect()
    };
    assert_eq!(
        members(0),
        ["method __init__ 2", "var nargs 4"],
        "{outline}"
    );
    assert_eq!(
        members(2),
        ["var limit 12", "method __init__ 14", "method render 18"],
        "{outline}"
    );
    let nargs = id_of(&engine, &root, "app.py", "nargs");
    let detail = call(
        &engine,
        "code.get_symbol_detail",
        json!({"path": root, "id": nargs}),
    );
    assert_eq!(detail["doc"], "How many values it takes.", "{detail}");
    let references = call(
        &engine,
        "code.get_references",
        json!({"path": root, "id": nargs}),
    );
    let lines: Vec<String> = references["references"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| format!("{}:{}", r["path"].as_str().unwrap(), r["line"]))
        .collect();
    assert_eq!(lines, ["app.py:9"], "{references}");
}

#[test]
fn python_follows_imports_and_packages_and_leaves_builtins_external() {
    let (_home, _dir, engine, root) = indexed(&[
        ("app/__init__.py", "from .models import User\n"),
        (
            "app/models.py",
            "class User:\n    def save(self):\n        return self.validate()\n\n    def validate(self):\n        return True\n",
        ),
        (
            "app/main.py",
            "import app.util as u\nfrom app import User\n\ndef main():\n    user = User()\n    u.helper()\n    print(user)\n",
        ),
        ("app/util.py", "def helper():\n    pass\n"),
        // A user function named like a builtin, never imported by main.py.
        ("tools/print.py", "def print(x):\n    pass\n"),
    ]);
    let user = id_of(&engine, &root, "app/models.py", "User");
    let helper = id_of(&engine, &root, "app/util.py", "helper");
    let validate = id_of(&engine, &root, "app/models.py", "validate");
    // Through the package's re-export, and through a module alias.
    assert_eq!(
        dep(&engine, &root, "app/main.py", "main", "User")["to_id"],
        user
    );
    assert_eq!(
        dep(&engine, &root, "app/main.py", "main", "helper")["to_id"],
        helper
    );
    assert_eq!(
        dep(&engine, &root, "app/models.py", "save", "validate")["to_id"],
        validate
    );
    // `print` is the builtin.
    assert_eq!(
        dep(&engine, &root, "app/main.py", "main", "print")["external"],
        true
    );
}

#[test]
fn typescript_follows_relative_imports_and_reexports() {
    let (_home, _dir, engine, root) = indexed(&[
        (
            "src/index.ts",
            "export { format } from './format';\nexport * from './shapes';\n",
        ),
        (
            "src/format.ts",
            "export function format(x: number) { return String(x) }\n",
        ),
        (
            "src/shapes.ts",
            "export class Circle { area() { return 1 } }\n",
        ),
        (
            "lib/other.ts",
            "export function format(s: string) { return s }\n",
        ),
        (
            "src/app.tsx",
            "import { format, Circle } from './index';\nimport { parse } from 'some-package';\n\nexport function App() {\n  const c = new Circle();\n  parse(format(1));\n  return <View shape={c} onLoad={format} />;\n}\nfunction View(props: any) { return null }\n",
        ),
    ]);
    let format = id_of(&engine, &root, "src/format.ts", "format");
    let circle = id_of(&engine, &root, "src/shapes.ts", "Circle");
    let view = id_of(&engine, &root, "src/app.tsx", "View");
    let calls = deps_named(&engine, &root, "src/app.tsx", "App", "format");
    // The call and the value (`onLoad={format}`), both to src/format.ts, not lib/.
    assert!(
        calls
            .iter()
            .any(|d| d["kind"] == "call" && d["to_id"] == format),
        "{calls:?}"
    );
    assert!(
        calls
            .iter()
            .any(|d| d["kind"] == "value" && d["to_id"] == format),
        "{calls:?}"
    );
    assert_eq!(
        dep(&engine, &root, "src/app.tsx", "App", "Circle")["to_id"],
        circle
    );
    // JSX renders a component: a call.
    assert_eq!(
        dep(&engine, &root, "src/app.tsx", "App", "View")["to_id"],
        view
    );
    // A package import is outside.
    assert_eq!(
        dep(&engine, &root, "src/app.tsx", "App", "parse")["external"],
        true
    );
}

#[test]
fn go_java_and_c_resolve_by_package_import_and_include() {
    let (_home, _dir, engine, root) = indexed(&[
        ("go.mod", "module example.com/m\n"),
        (
            "pkg/util/util.go",
            "package util\n\nfunc Clean(s string) string { return s }\n",
        ),
        (
            "cmd/main.go",
            "package main\n\nimport \"example.com/m/pkg/util\"\n\nfunc main() {\n\tutil.Clean(\"x\")\n\thelp()\n}\n",
        ),
        (
            "cmd/help.go",
            "package main\n\nfunc help() {}\n\ntype Flags struct{}\n\nfunc (f *Flags) Parse() {}\n\nfunc Parse() {}\n\nfunc use() {\n\tfl := &Flags{}\n\tfl.Parse()\n}\n",
        ),
        (
            "src/a/Shape.java",
            "package a;\n\npublic class Shape {\n    public Shape() {}\n    public static Shape unit() { return new Shape(); }\n    public double area() { return 1; }\n}\n",
        ),
        (
            "src/b/Main.java",
            "package b;\n\nimport a.Shape;\n\npublic class Main {\n    void run() { Shape s = Shape.unit(); s.area(); }\n}\n",
        ),
        (
            "c/util.h",
            "int add(int a, int b);\n#define deflate z_deflate\n#ifdef BIG\n#define word_t unsigned long\n#else\n#define word_t unsigned\n#endif\n#ifdef __cplusplus\n#define flag_t bool\n#else\n#define flag_t int\n#endif\n",
        ),
        (
            "c/util.c",
            "#include \"util.h\"\nint add(int a, int b) { return a + b; }\nint deflate(void) { return 0; }\n",
        ),
        (
            "c/main.c",
            "#include \"util.h\"\nint main(void) { word_t w = 3; flag_t f = 0; return add(1, 2) + deflate() + w + f; }\n",
        ),
    ]);
    let clean = id_of(&engine, &root, "pkg/util/util.go", "Clean");
    let help = id_of(&engine, &root, "cmd/help.go", "help");
    assert_eq!(
        dep(&engine, &root, "cmd/main.go", "main", "Clean")["to_id"],
        clean
    );
    assert_eq!(
        dep(&engine, &root, "cmd/main.go", "main", "help")["to_id"],
        help
    );
    // A declared variable's type gives its methods: Go's `fl := &Flags{}`, Java's
    // `Shape s`.
    let method = call(
        &engine,
        "code.get_file_symbols",
        json!({"path": root, "file": "cmd/help.go"}),
    )["symbols"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "Parse" && s["kind"] == "method")
        .map(|s| s["id"].clone())
        .unwrap();
    assert_eq!(
        dep(&engine, &root, "cmd/help.go", "use", "Parse")["to_id"],
        method
    );
    let area = id_of(&engine, &root, "src/a/Shape.java", "area");
    assert_eq!(
        dep(&engine, &root, "src/b/Main.java", "run", "area")["to_id"],
        area
    );
    let shape = id_of(&engine, &root, "src/a/Shape.java", "Shape");
    let unit = id_of(&engine, &root, "src/a/Shape.java", "unit");
    assert_eq!(
        dep(&engine, &root, "src/b/Main.java", "run", "unit")["to_id"],
        unit
    );
    // `new Shape()` is the class, not its constructor (and so is the return type).
    let uses = deps_named(&engine, &root, "src/a/Shape.java", "unit", "Shape");
    assert!(uses.iter().any(|d| d["kind"] == "call"), "{uses:?}");
    assert!(uses.iter().all(|d| d["to_id"] == shape), "{uses:?}");
    // C: one global namespace; a macro that only renames (`z_` prefix) is not a target.
    let add = id_of(&engine, &root, "c/util.c", "add");
    let deflate = id_of(&engine, &root, "c/util.c", "deflate");
    assert_eq!(dep(&engine, &root, "c/main.c", "main", "add")["to_id"], add);
    assert_eq!(
        dep(&engine, &root, "c/main.c", "main", "deflate")["to_id"],
        deflate
    );
    // A constant defined once per configuration in one header is the definition the
    // default configuration compiles (`BIG` is defined nowhere), or where that cannot be
    // told (`__cplusplus` in a header), the header's first: not an ambiguous one.
    let word_t = id_at(&engine, &root, "c/util.h", "word_t", 6);
    let used = dep(&engine, &root, "c/main.c", "main", "word_t");
    assert_eq!(used["to_id"], word_t, "{used}");
    let flag_t = id_at(&engine, &root, "c/util.h", "flag_t", 9);
    let used = dep(&engine, &root, "c/main.c", "main", "flag_t");
    assert_eq!(used["to_id"], flag_t, "{used}");
}

/// The id of the symbol `name` of `file` whose definition starts at `line`.
fn id_at(engine: &Engine, root: &str, file: &str, name: &str, line: u64) -> i64 {
    let out = call(
        engine,
        "code.get_file_symbols",
        json!({"path": root, "file": file}),
    );
    let found = out["symbols"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == name && s["start_line"] == line);
    found
        .and_then(|s| s["id"].as_i64())
        .unwrap_or_else(|| panic!("{name} at {file}:{line} not in {out}"))
}

/// A C name defined once per configuration (`#ifdef DEBUG … #else …`) links to the
/// definition the default build compiles: no `-D` of its own, the compiler's own macros
/// (`__STDC__`), and the project's where their own conditions hold (an include guard, a
/// `#ifndef X` default, a macro defined under another condition), in the file and what
/// it includes. A condition the index cannot decide (`__cplusplus` in a header) leaves
/// the name ambiguous. And a macro defined in a header added later changes which
/// definition is built: the one-by-one index (`indexed`) links as a fresh one does.
#[test]
fn c_links_to_the_definition_the_default_configuration_compiles() {
    let conf = "\
#ifndef CONF_H
#define CONF_H
#if defined(__STDC__) || defined(__cplusplus)
#  define STDC
#endif
#ifdef SMALL_MEDIUM
#  define Bytef Byte FAR
#else
   typedef unsigned char Bytef;
#endif
#ifdef STDC
   typedef unsigned long z_size;
#else
   typedef unsigned z_size;
#endif
#ifndef MAX_BITS
#  define MAX_BITS 15
#endif
#ifdef __cplusplus
   typedef bool flag;
#else
   typedef int flag;
#endif
#endif
";
    let util = "\
#ifdef LIB_DEBUG
#  define Trace(x) fprintf x
#else
#  define Trace(x)
#endif
";
    let main = "\
#include \"conf.h\"
#include \"util.h\"
#include \"debug.h\"
#ifdef LIB_DEBUG
static void send(int v) { Trace((\"%d\", v)); }
#else
#  define send(v) ((void)(v))
#endif
#if MAX_BITS == 15
static int width(void) { return 15; }
#else
static int width(void) { return 0; }
#endif
z_size total(Bytef *b, flag f) { send(1); Trace((\"x\")); return width(); }
";
    let (_home, _dir, engine, root) =
        indexed(&[("main.c", main), ("conf.h", conf), ("util.h", util)]);
    let to = |name: &str| dep(&engine, &root, "main.c", "total", name);
    for (name, file, line) in [
        ("z_size", "conf.h", 12),
        ("Bytef", "conf.h", 9),
        ("Trace", "util.h", 4),
        ("send", "main.c", 7),
        ("width", "main.c", 10),
    ] {
        let want = id_at(&engine, &root, file, name, line);
        assert_eq!(to(name)["to_id"], want, "{name}: {}", to(name));
    }
    let flag = to("flag");
    assert_eq!(flag["ambiguous"], true, "{flag}");

    // Debugging switched on by a header added afterwards: the other definitions.
    let (_home, _dir, engine, root) = indexed(&[
        ("main.c", main),
        ("conf.h", conf),
        ("util.h", util),
        ("debug.h", "#define LIB_DEBUG 1\n"),
    ]);
    let to = |name: &str| dep(&engine, &root, "main.c", "total", name);
    for (name, file, line) in [("Trace", "util.h", 2), ("send", "main.c", 5)] {
        let want = id_at(&engine, &root, file, name, line);
        assert_eq!(to(name)["to_id"], want, "{name}: {}", to(name));
    }
}

#[test]
fn an_ambiguous_call_lists_candidates_and_each_candidate_lists_it_as_maybe() {
    let (_home, _dir, engine, root) = indexed(&[
        (
            "a.py",
            "class Cat:\n    def speak(self):\n        pass\n\nclass Dog:\n    def speak(self):\n        pass\n",
        ),
        ("b.py", "def talk(pet):\n    pet.speak()\n"),
    ]);
    let cat = id_of(&engine, &root, "a.py", "Cat");
    let speak = dep(&engine, &root, "b.py", "talk", "speak");
    assert_eq!(speak["ambiguous"], true, "{speak}");
    assert!(speak.get("external").is_none(), "{speak}");
    assert_eq!(speak["candidates"].as_array().unwrap().len(), 2, "{speak}");
    let cat_speak = call(
        &engine,
        "code.get_file_symbols",
        json!({"path": root, "file": "a.py"}),
    )["symbols"][0]["children"][0]["id"]
        .as_i64()
        .unwrap();
    assert_ne!(cat_speak, cat);
    let refs = call(
        &engine,
        "code.get_references",
        json!({"path": root, "id": cat_speak}),
    );
    let first = &refs["references"][0];
    assert_eq!(first["maybe"], true, "{refs}");
    assert_eq!(first["from_name"], "talk", "{refs}");
}

#[test]
fn a_function_used_as_a_value_is_referenced() {
    let (_home, _dir, engine, root) = indexed(&[
        ("src/lib.rs", "mod ops;\n"),
        (
            "src/ops.rs",
            "fn call_json(x: u8) -> u8 { x }\n\nstruct Op { call: fn(u8) -> u8 }\n\nfn table() -> Op {\n    Op { call: call_json }\n}\n\nfn apply(items: Vec<u8>) -> Vec<u8> {\n    items.into_iter().map(call_json).collect()\n}\n",
        ),
    ]);
    let call_json = id_of(&engine, &root, "src/ops.rs", "call_json");
    let refs = call(
        &engine,
        "code.get_references",
        json!({"path": root, "id": call_json}),
    );
    let from: Vec<(&str, &str)> = refs["references"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["from_name"].as_str().unwrap(),
                r["kind"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(from, [("table", "value"), ("apply", "value")], "{refs}");
}

#[test]
fn ruby_calls_go_through_their_receiver_and_modules_keep_their_methods() {
    let (_home, _dir, engine, root) = indexed(&[
        (
            "lib/lexer.rb",
            "module Liquid\n  class Lexer\n    def initialize(input)\n      @input = input\n    end\n\n    def tokenize\n      @input.split(' ')\n    end\n  end\nend\n",
        ),
        (
            "lib/utils.rb",
            "module Liquid\n  module Utils\n    def self.to_number(obj)\n      obj.to_i\n    end\n\n    def split(text)\n      text\n    end\n  end\nend\n",
        ),
        (
            "lib/parser.rb",
            "module Liquid\n  class Visitor\n  end\n\n  class Parser\n    include WithOffset\n    class Visitor < Liquid::Visitor\n    end\n\n    def initialize(input)\n      l = Lexer.new(input)\n      @tokens = l.tokenize\n      @tokens.shift\n      self.check\n      Utils.to_number(1)\n      Array(input)\n    end\n\n    def check\n      shift()\n      if_offset()\n    end\n\n    def shift\n    end\n  end\nend\n",
        ),
        (
            "lib/with_offset.rb",
            "module WithOffset\n  def if_offset\n  end\nend\n",
        ),
        (
            "lib/extensions.rb",
            "class Array\n  def to_liquid\n    self\n  end\nend\n",
        ),
    ]);
    let parser = "lib/parser.rb";
    let lexer = id_of(&engine, &root, "lib/lexer.rb", "Lexer");
    let tokenize = id_of(&engine, &root, "lib/lexer.rb", "tokenize");
    let to_number = id_of(&engine, &root, "lib/utils.rb", "to_number");
    let check = id_of(&engine, &root, parser, "check");
    let shift = id_of(&engine, &root, parser, "shift");
    // `Lexer.new`: the class; `l = Lexer.new` makes `l.tokenize` the Lexer's.
    assert_eq!(
        dep(&engine, &root, parser, "initialize", "Lexer")["to_id"],
        lexer
    );
    assert_eq!(
        dep(&engine, &root, parser, "initialize", "tokenize")["to_id"],
        tokenize
    );
    // `self.check`, and a bare `shift` in a method of the same class: its own.
    assert_eq!(
        dep(&engine, &root, parser, "initialize", "check")["to_id"],
        check
    );
    assert_eq!(
        dep(&engine, &root, parser, "check", "shift")["to_id"],
        shift
    );
    // A method of a module the class includes, called bare.
    let if_offset = id_of(&engine, &root, "lib/with_offset.rb", "if_offset");
    assert_eq!(
        dep(&engine, &root, parser, "check", "if_offset")["to_id"],
        if_offset
    );
    // `@tokens.shift`: a value of unknown class — the Parser's `shift` is a candidate,
    // never a link.
    let shifted = dep(&engine, &root, parser, "initialize", "shift");
    assert!(shifted.get("to_id").is_none(), "{shifted}");
    // A module's method is called on the module; `@input.split` (a String's, from the
    // code) does not link to the module's `split`, nor does anything call it bare.
    assert_eq!(
        dep(&engine, &root, parser, "initialize", "to_number")["to_id"],
        to_number
    );
    let split = dep(&engine, &root, "lib/lexer.rb", "tokenize", "split");
    assert!(split.get("to_id").is_none(), "{split}");
    // `Array(x)` is Kernel's method, not the reopened class.
    let array = dep(&engine, &root, parser, "initialize", "Array");
    assert!(array.get("to_id").is_none(), "{array}");
    assert_eq!(array["external"], true, "{array}");
    // `class Visitor < Liquid::Visitor` extends the outer class, not itself.
    let inner = call(
        &engine,
        "code.get_file_symbols",
        json!({"path": root, "file": parser}),
    );
    let outer_visitor = inner["symbols"][0]["children"][0]["id"].clone();
    assert_eq!(
        inner["symbols"][0]["children"][0]["name"], "Visitor",
        "{inner}"
    );
    let parser_class = &inner["symbols"][0]["children"][1];
    let nested = parser_class["children"][0]["id"].as_i64().unwrap();
    let out = call(
        &engine,
        "code.get_dependencies",
        json!({"path": root, "id": nested}),
    );
    let extends = out["dependencies"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["to_name"] == "Visitor")
        .cloned()
        .unwrap_or_else(|| panic!("{out}"));
    assert_eq!(extends["to_id"], outer_visitor, "{out}");
}

/// A call of a method that another overrides or implements may run the override
/// (dynamic dispatch): the override's references list the calls of the methods it
/// overrides, however deep, as "maybe" with the method they name — not a `super` call,
/// which runs the base's alone, and not the other way round.
#[test]
fn an_override_s_references_are_the_calls_of_what_it_overrides() {
    let (_home, _dir, engine, root) = indexed(&[
        (
            "routing.py",
            "class BaseRoute:\n    def matches(self, scope):\n        raise NotImplementedError\n\n    def __call__(self, scope):\n        return self.matches(scope)\n\nclass Route(BaseRoute):\n    pass\n\ndef first(route: Route, scope):\n    return route.matches(scope)\n",
        ),
        (
            "mount.py",
            "from routing import Route\n\nclass Mount(Route):\n    def matches(self, scope):\n        return super().matches(scope)\n\ndef mounted(m: Mount):\n    return m.matches(1)\n",
        ),
        (
            "lib/rule.rb",
            "class Rule\n  def run\n    step\n  end\n\n  def step\n    1\n  end\nend\n",
        ),
        (
            "lib/day_rule.rb",
            "class DayRule < Rule\n  def step\n    super + 1\n  end\nend\n",
        ),
        (
            "lib/week_rule.rb",
            "class WeekRule < Rule\n  def go\n    step\n  end\nend\n",
        ),
        (
            "src/lib.rs",
            "pub trait Shape {\n    fn area(&self) -> u32;\n    fn twice(&self) -> u32 {\n        self.area() * 2\n    }\n}\n\npub struct Square;\n\nimpl Shape for Square {\n    fn area(&self) -> u32 {\n        4\n    }\n}\n\npub fn total(s: &dyn Shape) -> u32 {\n    s.area()\n}\n",
        ),
        (
            "j/Handler.java",
            "package j;\n\npublic interface Handler {\n    void handle();\n}\n",
        ),
        (
            "j/Echo.java",
            "package j;\n\npublic class Echo implements Handler {\n    public void handle() {}\n\n    static void serve(Handler h) { h.handle(); }\n}\n",
        ),
    ]);
    // `self.matches` in the base and `route.matches` through the subclass that does
    // not override it may run `Mount.matches`; `m.matches` is its own; `super()`'s is
    // not.
    assert_eq!(
        references(&engine, &root, "mount.py", "matches"),
        [
            "mount.py:8 call",
            "routing.py:12 call maybe via BaseRoute.matches",
            "routing.py:6 call maybe via BaseRoute.matches",
        ]
    );
    // The base's own references are the calls linked to it, the `super()` call among
    // them, and no call of the override.
    assert_eq!(
        references(&engine, &root, "routing.py", "matches"),
        ["mount.py:5 call", "routing.py:12 call", "routing.py:6 call"]
    );
    // Ruby: a bare call in the base may run the subclass's method; `super` does not,
    // nor one in a sibling class, whose instances have the base's method alone.
    assert_eq!(
        references(&engine, &root, "lib/day_rule.rb", "step"),
        ["lib/rule.rb:3 call maybe via Rule.step"]
    );
    // Rust: a trait's method called in its default method and through `dyn Shape`.
    assert_eq!(
        references(&engine, &root, "src/lib.rs", "area")
            .iter()
            .filter(|r| r.contains("via"))
            .count(),
        0,
        "the trait's own `area` is no override"
    );
    let area_impl = {
        let out = call(
            &engine,
            "code.search_symbols",
            json!({"path": root, "query": "area", "kind": "method"}),
        );
        out["hits"]
            .as_array()
            .unwrap()
            .iter()
            .find(|h| h["start_line"] == 11)
            .unwrap_or_else(|| panic!("{out}"))["id"]
            .as_i64()
            .unwrap()
    };
    assert_eq!(
        references_of(&engine, &root, area_impl),
        [
            "src/lib.rs:17 call maybe via Shape.area",
            "src/lib.rs:4 call maybe via Shape.area"
        ]
    );
    // Java: an interface's method called through the interface.
    assert_eq!(
        references(&engine, &root, "j/Echo.java", "handle"),
        ["j/Echo.java:6 call maybe via Handler.handle"]
    );
}

/// A value of one of Python's own classes (`list[str]`, `t.Dict[…]`, an attribute
/// declared `dict`, what `dict(…)` makes) calls that class's methods: not a "maybe" of
/// the project's methods of those names — unless the project defines a class of that
/// name.
#[test]
fn a_python_value_of_a_builtin_class_calls_that_class() {
    let (_home, _dir, engine, root) = indexed(&[
        (
            "headers.py",
            "class Headers:\n    def get(self, key):\n        return key\n\n    def append(self, key):\n        pass\n\n    def update(self, other):\n        pass\n",
        ),
        (
            "app.py",
            "import typing as t\n\nclass App:\n    seen: dict[str, int]\n\n    def run(self, events: list[str], opts: t.Dict[str, str], rows):\n        events.append('x')\n        opts.get('a')\n        self.seen.get('b')\n        rows.get('c')\n        dict(rows).update(opts)\n",
        ),
    ]);
    // `rows` is of no known class: its `get` may be the project's.
    assert_eq!(
        references(&engine, &root, "headers.py", "get"),
        ["app.py:10 call maybe"]
    );
    assert_eq!(
        references(&engine, &root, "headers.py", "append"),
        Vec::<String>::new()
    );
    // What a builtin class's call makes is of that class.
    assert_eq!(
        references(&engine, &root, "headers.py", "update"),
        Vec::<String>::new()
    );
    let (_home, _dir, engine, root) = indexed(&[(
        "app.py",
        "class list:\n    def append(self, x):\n        pass\n\ndef run(events: list):\n    events.append(1)\n",
    )]);
    assert_eq!(
        references(&engine, &root, "app.py", "append"),
        ["app.py:6 call"]
    );
}

/// Classes of one name, each defined in its own test function: in a method of one, a
/// member read through `self` is that class's own, not a "maybe" of each.
#[test]
fn a_member_read_through_self_is_the_own_class_s_among_classes_of_its_name() {
    let (_home, _dir, engine, root) = indexed(&[(
        "test_app.py",
        "def test_a():\n    class Custom:\n        def __init__(self, app):\n            self.app = app\n\n        def run(self):\n            return self.app\n\n\ndef test_b():\n    class Custom:\n        def __init__(self, app):\n            self.app = app\n\n        def run(self):\n            return self.app\n",
    )]);
    assert_eq!(
        references(&engine, &root, "test_app.py", "app"),
        ["test_app.py:7 value"]
    );
}

/// A module's constant or a class read as a call's receiver or a subscript's value
/// (`HTTP_PROTOCOLS.get(…)`, `LOOP_FACTORIES[name]`) is a use of it; an imported module
/// (`json.load`), a local and a parameter are none — and a call of
/// an outside module's function is outside, not a "maybe" of the project's `load`.
#[test]
fn a_python_name_read_as_a_receiver_or_subscripted_is_a_use() {
    let (_home, _dir, engine, root) = indexed(&[
        (
            "consts.py",
            "HTTP_PROTOCOLS = {'auto': 'a'}\nLOOP_FACTORIES = {'none': None}\n",
        ),
        (
            "config.py",
            "import json\nfrom consts import HTTP_PROTOCOLS, LOOP_FACTORIES\n\nclass Config:\n    def load(self, name, local):\n        proto = HTTP_PROTOCOLS.get(name)\n        loop = LOOP_FACTORIES[name]\n        local.get(name)\n        return json.load(proto)\n",
        ),
    ]);
    assert_eq!(
        references(&engine, &root, "consts.py", "HTTP_PROTOCOLS"),
        ["config.py:2 import", "config.py:6 value"]
    );
    assert_eq!(
        references(&engine, &root, "consts.py", "LOOP_FACTORIES"),
        ["config.py:2 import", "config.py:7 value"]
    );
    assert_eq!(
        references(&engine, &root, "config.py", "load"),
        Vec::<String>::new()
    );
}
