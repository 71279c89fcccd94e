//! Completeness of the language extractors: decorated definitions (Python, TypeScript,
//! JavaScript), C++ `extern "C"` blocks, and the `.mjs .cjs .pyi` extensions — exact
//! symbols, kinds, parents, signatures, docs and references, then the same files indexed
//! through `code.index_repository`.

use std::path::Path;

use cc_search::Engine;
use cc_search::code::*;
use serde_json::{Value, json};

use crate::common;
use common::{call, write};

fn refs_text(refs: &[ExtractedRef]) -> String {
    refs.iter()
        .map(|r| format!("{}:{}@{}", r.kind.as_str(), r.to_name, r.line))
        .collect::<Vec<_>>()
        .join(" ")
}

fn dump_syms(out: &mut Vec<String>, syms: &[ExtractedSymbol], depth: usize) {
    for s in syms {
        out.push(format!(
            "{}{} {} {}-{} sig={:?} doc={:?} refs=[{}]",
            "  ".repeat(depth),
            s.kind.as_str(),
            s.name,
            s.line_start,
            s.line_end,
            s.signature,
            s.doc_comment,
            refs_text(&s.references)
        ));
        dump_syms(out, &s.children, depth + 1);
    }
}

/// The language, one line per symbol (indented by depth), then the file-level references
/// and imports.
fn dump(file: &str, src: &str) -> Vec<String> {
    let (lang, ext) = extractor_for_path(Path::new(file)).unwrap();
    let f = extract_source(lang, &ext, src).unwrap();
    let mut out = vec![format!("lang {}", lang.name())];
    dump_syms(&mut out, &f.symbols, 0);
    out.push(format!(
        "top refs=[{}] imports={:?}",
        refs_text(&f.references),
        f.imports
    ));
    out
}

const DECORATED_PY: &str = r#"import functools

def traced(fn):
    return fn

# Plain, decorated once.
@traced
def plain():
    return 1

@functools.lru_cache(maxsize=limit())
@traced
def cached(x: int) -> int:
    """Cached square."""
    return x * x

@dataclass(frozen=True)
class Point:
    """A point."""
    x: int = 0

    @property
    def norm(self) -> float:
        return abs(self.x)

    @staticmethod
    async def origin() -> "Point":
        return Point()
"#;

#[test]
fn python_decorated_definitions() {
    // Each decorated definition is indexed as itself (the lines and signature of its
    // `def`/`class`), documented by the comment above its decorators, and makes the
    // decorators' references: the decorator as a call, then its arguments'.
    let expected = [
        "lang python",
        r#"fn traced 3-4 sig=Some("def traced(fn)") doc=None refs=[]"#,
        r#"fn plain 8-9 sig=Some("def plain()") doc=Some("Plain, decorated once.") refs=[call:traced@7]"#,
        r#"fn cached 13-15 sig=Some("def cached(x: int) -> int") doc=Some("Cached square.") refs=[call:lru_cache@11 call:limit@11 call:traced@12 type_ref:int@13]"#,
        r#"class Point 18-28 sig=Some("class Point") doc=Some("A point.") refs=[call:dataclass@17]"#,
        r#"  var x 20-20 sig=Some("x: int = 0") doc=None refs=[type_ref:int@20]"#,
        r#"  method norm 23-24 sig=Some("def norm(self) -> float") doc=None refs=[call:property@22 type_ref:float@23 call:abs@24 value:x@24]"#,
        r#"  method origin 27-28 sig=Some("async def origin() -> \"Point\"") doc=None refs=[call:staticmethod@26 call:Point@28]"#,
        r#"top refs=[import:functools@1] imports=["functools"]"#,
    ];
    assert_eq!(dump("decorated.py", DECORATED_PY), expected);
}

#[test]
fn python_stubs_are_python() {
    let src = r#"from typing import overload

# Parses.
@overload
def parse(x: int) -> int: ...
@overload
def parse(x: str) -> str: ...

class Stub:
    value: int
    def method(self) -> None: ...
"#;
    let expected = [
        "lang python",
        r#"fn parse 5-5 sig=Some("def parse(x: int) -> int") doc=Some("Parses.") refs=[call:overload@4 type_ref:int@5]"#,
        r#"fn parse 7-7 sig=Some("def parse(x: str) -> str") doc=None refs=[call:overload@6 type_ref:str@7]"#,
        r#"class Stub 9-11 sig=Some("class Stub") doc=None refs=[]"#,
        r#"  var value 10-10 sig=Some("value: int") doc=None refs=[type_ref:int@10]"#,
        r#"  method method 11-11 sig=Some("def method(self) -> None") doc=None refs=[]"#,
        r#"top refs=[import:overload@1] imports=["typing"]"#,
    ];
    assert_eq!(dump("api.pyi", src), expected);
    assert_eq!(
        dump("API.PYI", src),
        expected,
        "extensions are case-insensitive"
    );
}

const DECORATED_TS: &str = r#"import { Component, Input } from '@angular/core';

/** A widget. */
@Component({ selector: 'app-widget' })
export class Widget {
  @Input() label: string = '';

  /** Renders it. */
  @HostListener('click', ['$event'])
  onClick(event: Event): void {
    this.render();
  }

  @memo
  get size(): number { return 1; }

  @log static create(): Widget { return new Widget(); }

  constructor(@Inject(TOKEN) private readonly dep: Dep) {}
}

@sealed
abstract class Base {
  @retry(3) protected step(): void {}
}

export default @injectable() class Service {}
"#;

#[test]
fn typescript_decorators_on_classes_methods_and_fields() {
    // Signatures leave the decorators out; every decorator (bare, member or call) is a
    // call made by the definition it decorates, wherever the grammar puts it: inside the
    // class, before its `export`, or before a method in the class body.
    let expected = [
        "lang typescript",
        r#"class Widget 5-20 sig=Some("class Widget") doc=Some("A widget.") refs=[call:Component@4]"#,
        r#"  var label 6-6 sig=Some("label: string = ''") doc=None refs=[call:Input@6]"#,
        r#"  method onClick 10-12 sig=Some("onClick(event: Event): void") doc=Some("Renders it.") refs=[call:HostListener@9 type_ref:Event@10 call:render@11]"#,
        r#"  method size 15-15 sig=Some("get size(): number") doc=None refs=[call:memo@14]"#,
        r#"  method create 17-17 sig=Some("static create(): Widget") doc=None refs=[call:log@17 type_ref:Widget@17 call:Widget@17]"#,
        r#"  method constructor 19-19 sig=Some("constructor(@Inject(TOKEN) private readonly dep: Dep)") doc=None refs=[call:Inject@19 type_ref:Dep@19]"#,
        r#"class Base 22-25 sig=Some("abstract class Base") doc=None refs=[call:sealed@22]"#,
        r#"  method step 24-24 sig=Some("protected step(): void") doc=None refs=[call:retry@24]"#,
        r#"class Service 27-27 sig=Some("class Service") doc=None refs=[call:injectable@27]"#,
        r#"top refs=[import:Component@1 import:Input@1] imports=["@angular/core"]"#,
    ];
    assert_eq!(dump("widget.ts", DECORATED_TS), expected);
}

#[test]
fn javascript_modules_and_decorators() {
    let mjs = r#"import { helper } from './helper.mjs';

/** A decorated JS class. */
@register
export class Counter {
  @observable count = 0;

  /** Bumps. */
  @action.bound
  bump() { helper(); }
}

export const api = { get() {} };
"#;
    let expected = [
        "lang javascript",
        r#"class Counter 5-11 sig=Some("class Counter") doc=Some("A decorated JS class.") refs=[call:register@4]"#,
        r#"  var count 6-6 sig=Some("count = 0") doc=None refs=[call:observable@6]"#,
        r#"  method bump 9-10 sig=Some("bump()") doc=Some("Bumps.") refs=[call:bound@9 call:helper@10]"#,
        r#"const api 13-13 sig=Some("const api = { get() {} }") doc=None refs=[]"#,
        r#"  method get 13-13 sig=Some("get()") doc=None refs=[]"#,
        r#"top refs=[import:helper@1] imports=["./helper.mjs"]"#,
    ];
    assert_eq!(dump("counter.mjs", mjs), expected);
    let cjs = "const { a } = require(\"./a.cjs\");\n\n/** Calls a. */\nfunction cjsFn() { return a(); }\nmodule.exports = { cjsFn };\n";
    let expected = [
        "lang javascript",
        r#"fn cjsFn 4-4 sig=Some("function cjsFn()") doc=Some("Calls a.") refs=[call:a@4]"#,
        r#"top refs=[] imports=["./a.cjs"]"#,
    ];
    assert_eq!(dump("lib.cjs", cjs), expected);
}

const EXTERN_C_CPP: &str = r#"#include "lib.h"

extern "C" {
/* Adds two ints. */
int add(int a, int b) { return twice(a) + b; }

typedef struct point { int x; } point_t;

enum color { RED };
}

extern "C" void single(void) { add(1, 2); }

extern "C" {
namespace inner {
/// A box.
struct Box { int w; };
}
}
"#;

#[test]
fn cpp_extern_c_blocks() {
    // Definitions inside `extern "C" { … }` (and after a one-line `extern "C"`) are
    // indexed at the level of the block, with their docs and references.
    let expected = [
        "lang cpp",
        r#"fn add 5-5 sig=Some("int add(int a, int b)") doc=Some("Adds two ints.") refs=[call:twice@5]"#,
        r#"type point_t 7-7 sig=Some("typedef struct point { int x; } point_t") doc=None refs=[]"#,
        r#"  struct point 7-7 sig=Some("struct point") doc=None refs=[]"#,
        r#"    var x 7-7 sig=Some("int x") doc=None refs=[]"#,
        r#"enum color 9-9 sig=Some("enum color") doc=None refs=[]"#,
        r#"  const RED 9-9 sig=Some("RED") doc=None refs=[]"#,
        r#"fn single 12-12 sig=Some("void single(void)") doc=None refs=[call:add@12]"#,
        r#"mod inner 15-18 sig=Some("namespace inner") doc=None refs=[]"#,
        r#"  struct Box 17-17 sig=Some("struct Box") doc=Some("A box.") refs=[]"#,
        r#"    var w 17-17 sig=Some("int w") doc=None refs=[]"#,
        r#"top refs=[import:lib@1] imports=["lib.h"]"#,
    ];
    assert_eq!(dump("lib.cpp", EXTERN_C_CPP), expected);
}

const EXTERN_C_HEADER: &str = r#"#ifndef LIB_H
#define LIB_H

#ifdef __cplusplus
extern "C" {
#endif

/** A point. */
struct lib_point { int x; };

/** Twice x. */
static inline int twice(int x) { return x * 2; }

#ifdef __cplusplus
}
#endif

#endif
"#;

#[test]
fn c_header_with_a_conditional_extern_c_block() {
    // The usual header guard: the braces of `extern "C"` split across `#ifdef`s.
    let expected = [
        "lang cpp",
        r##"const LIB_H 2-2 sig=Some("#define LIB_H") doc=None refs=[]"##,
        r#"struct lib_point 9-9 sig=Some("struct lib_point") doc=Some("A point.") refs=[]"#,
        r#"  var x 9-9 sig=Some("int x") doc=None refs=[]"#,
        r#"fn twice 12-12 sig=Some("static inline int twice(int x)") doc=Some("Twice x.") refs=[]"#,
        r#"top refs=[] imports=[]"#,
    ];
    assert_eq!(dump("lib.h", EXTERN_C_HEADER), expected);
}

// ───────────────────────── through code.index_repository ─────────────────────────

fn names(v: &Value, key: &str) -> Vec<String> {
    v[key]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["name"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn the_files_are_indexed_by_extension_with_decorator_references() {
    let home = tempfile::tempdir().unwrap();
    let engine = Engine::open_at(home.path()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "py/decorated.py", DECORATED_PY);
    write(
        dir.path(),
        "py/api.pyi",
        "def stub_only(x: int) -> int: ...\n",
    );
    write(dir.path(), "web/widget.ts", DECORATED_TS);
    write(
        dir.path(),
        "web/esm.mjs",
        "export function esmOnly() { return 1; }\n",
    );
    write(
        dir.path(),
        "web/common.cjs",
        "function cjsOnly() { return 1; }\nmodule.exports = { cjsOnly };\n",
    );
    write(dir.path(), "native/lib.cpp", EXTERN_C_CPP);
    write(dir.path(), "native/lib.h", EXTERN_C_HEADER);
    let root = std::fs::canonicalize(dir.path())
        .unwrap()
        .to_str()
        .unwrap()
        .to_string();
    let out = call(&engine, "code.index_repository", json!({"path": root}));
    assert_eq!(out["stats"]["files"], 7, "{out}");
    assert!(out.get("warnings").is_none(), "{out}");
    let overview = call(&engine, "code.get_overview", json!({"path": root}));
    assert_eq!(
        overview["languages"],
        json!({"cpp": 2, "javascript": 2, "python": 2, "typescript": 1}),
        "{overview}"
    );
    let search = |query: &str| {
        call(
            &engine,
            "code.search_symbols",
            json!({"path": root, "query": query}),
        )
    };
    for (query, file) in [
        ("stub_only", "py/api.pyi"),
        ("esmOnly", "web/esm.mjs"),
        ("cjsOnly", "web/common.cjs"),
        ("single", "native/lib.cpp"),
        ("twice", "native/lib.h"),
    ] {
        let hits = search(query);
        assert_eq!(names(&hits, "hits"), [query], "{hits}");
        assert_eq!(hits["hits"][0]["path"], file, "{hits}");
    }
    // Who uses the decorator `traced`: the two functions it decorates.
    let traced = search("traced")["hits"][0]["id"].as_i64().unwrap();
    let refs = call(
        &engine,
        "code.get_references",
        json!({"path": root, "id": traced}),
    );
    let from: Vec<&str> = refs["references"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["from_name"].as_str().unwrap())
        .collect();
    assert_eq!(from, ["plain", "cached"], "{refs}");
    // The C++ call from `single` resolves to `add` in the same extern block.
    let single = search("single")["hits"][0]["id"].as_i64().unwrap();
    let deps = call(
        &engine,
        "code.get_dependencies",
        json!({"path": root, "id": single}),
    );
    let add = search("add")["hits"][0]["id"].as_i64().unwrap();
    assert_eq!(deps["dependencies"][0]["to_name"], "add", "{deps}");
    assert_eq!(deps["dependencies"][0]["to_id"], add, "{deps}");
}
