//! The `code` component end to end: per-language extraction (exact symbols, kinds,
//! parents, signatures, docs and references), the spec's tokenisation, and every
//! `code.*` operation on real files in temporary directories and git repositories.

use std::path::Path;

use cc_search::Engine;
use cc_search::code::*;
use serde_json::{Value, json};

use crate::common;
use common::{call, call_err, git_at, hit_names, write};

fn dump_syms(out: &mut Vec<String>, syms: &[ExtractedSymbol], depth: usize) {
    for s in syms {
        let refs: Vec<String> = s
            .references
            .iter()
            .map(|r| format!("{}:{}@{}", r.kind.as_str(), r.to_name, r.line))
            .collect();
        out.push(format!(
            "{}{} {} {}-{} sig={:?} doc={:?} refs=[{}]",
            "  ".repeat(depth),
            s.kind.as_str(),
            s.name,
            s.line_start,
            s.line_end,
            s.signature,
            s.doc_comment,
            refs.join(" ")
        ));
        dump_syms(out, &s.children, depth + 1);
    }
}

/// One line per symbol (indented by depth), then the file-level references and imports.
fn dump(file: &str, src: &str) -> Vec<String> {
    let (lang, ext) = extractor_for_path(Path::new(file)).unwrap();
    let f = extract_source(lang, &ext, src).unwrap();
    let mut out = Vec::new();
    dump_syms(&mut out, &f.symbols, 0);
    let refs: Vec<String> = f
        .references
        .iter()
        .map(|r| format!("{}:{}@{}", r.kind.as_str(), r.to_name, r.line))
        .collect();
    out.push(format!(
        "top refs=[{}] imports={:?}",
        refs.join(" "),
        f.imports
    ));
    out
}

#[test]
fn extracts_sample_ts() {
    let src = r#"import { readFile, writeFile as wf } from "fs";
import * as path from "./path_utils";
import Default from './user_service';

/** A user of the system. */
export interface User extends Entity {
  id: number;
  name: string;
}

// Maximum retries.
export const MAX_RETRIES = 3;

export type UserId = string | number;

export enum Color { Red, Green = 2 }

/**
 * Repository of users.
 * Stores them in memory.
 */
export class UserRepository extends BaseRepo implements Repo, Disposable {
  private cache: Map<string, User> = new Map();

  /** Find one user. */
  async findById(id: UserId): Promise<User | undefined> {
    const u = this.cache.get(String(id));
    return validate(u);
  }

  handler = (e: Event) => { log(e); };
}

export function validate(u?: User): User | undefined {
  return u;
}

export const makeRepo = async (n: number): Promise<UserRepository> => new UserRepository();

namespace Geometry {
  export function area(r: number) { return r * r; }
}

const api = {
  get(url: string) { return fetch(url); },
  post: (url: string) => fetch(url),
};
"#;
    let expected = [
        r#"interface User 6-9 sig=Some("interface User extends Entity") doc=Some("A user of the system.") refs=[extends:Entity@6]"#,
        r#"  var id 7-7 sig=Some("id: number") doc=None refs=[]"#,
        r#"  var name 8-8 sig=Some("name: string") doc=None refs=[]"#,
        r#"const MAX_RETRIES 12-12 sig=Some("const MAX_RETRIES = 3") doc=Some("Maximum retries.") refs=[]"#,
        r#"type UserId 14-14 sig=Some("type UserId = string | number") doc=None refs=[]"#,
        r#"enum Color 16-16 sig=Some("enum Color") doc=None refs=[]"#,
        r#"  const Red 16-16 sig=None doc=None refs=[]"#,
        r#"  const Green 16-16 sig=Some("Green = 2") doc=None refs=[]"#,
        r#"class UserRepository 22-32 sig=Some("class UserRepository extends BaseRepo implements Repo, Disposable") doc=Some("Repository of users.\nStores them in memory.") refs=[extends:BaseRepo@22 implements:Repo@22 implements:Disposable@22]"#,
        r#"  var cache 23-23 sig=Some("private cache: Map<string, User> = new Map()") doc=None refs=[type_ref:Map@23 type_ref:User@23 call:Map@23]"#,
        r#"  method findById 26-29 sig=Some("async findById(id: UserId): Promise<User | undefined>") doc=Some("Find one user.") refs=[type_ref:UserId@26 type_ref:Promise@26 type_ref:User@26 call:get@27 call:String@27 call:validate@28]"#,
        r#"  method handler 31-31 sig=Some("handler = (e: Event)") doc=None refs=[type_ref:Event@31 call:log@31]"#,
        r#"fn validate 34-36 sig=Some("function validate(u?: User): User | undefined") doc=None refs=[type_ref:User@34]"#,
        r#"fn makeRepo 38-38 sig=Some("const makeRepo = async (n: number): Promise<UserRepository>") doc=None refs=[type_ref:Promise@38 type_ref:UserRepository@38 call:UserRepository@38]"#,
        r#"mod Geometry 40-42 sig=Some("namespace Geometry") doc=None refs=[]"#,
        r#"  fn area 41-41 sig=Some("function area(r: number)") doc=None refs=[]"#,
        r#"const api 44-47 sig=Some("const api") doc=None refs=[]"#,
        r#"  method get 45-45 sig=Some("get(url: string)") doc=None refs=[call:fetch@45]"#,
        r#"  method post 46-46 sig=Some("post: (url: string)") doc=None refs=[call:fetch@46]"#,
        r#"top refs=[import:readFile@1 import:writeFile@1 import:path@2 import:Default@3] imports=["fs", "./path_utils", "./user_service"]"#,
    ];
    assert_eq!(dump("sample.ts", src), expected);
}

#[test]
fn extracts_sample_py() {
    let src = r#""""Module docstring."""
import os.path
from .models import User as U, Account
from typing import Optional

MAX_SIZE = 10
default_name = "x"

class Base:
    pass

@dataclass
class UserService(Base, mixins.Loggable):
    """Manages users.

    More text here.
    """

    limit = 5

    def __init__(self, repo: "Repo") -> None:
        self.repo = repo

    # comment above
    async def find(self, user_id: int) -> Optional[U]:
        """Find a user by id."""
        result = self.repo.get(user_id)
        return helper(result)

def helper(x):
    local_var = 1
    return x

type Alias = list[int]
"#;
    let expected = [
        r#"const MAX_SIZE 6-6 sig=Some("MAX_SIZE = 10") doc=None refs=[]"#,
        r#"var default_name 7-7 sig=Some("default_name = \"x\"") doc=None refs=[]"#,
        r#"class Base 9-10 sig=Some("class Base") doc=None refs=[]"#,
        r#"class UserService 13-28 sig=Some("class UserService(Base, mixins.Loggable)") doc=Some("Manages users.\n\nMore text here.") refs=[call:dataclass@12 extends:Base@13 extends:Loggable@13]"#,
        r#"  var limit 19-19 sig=Some("limit = 5") doc=None refs=[]"#,
        r#"  method __init__ 21-22 sig=Some("def __init__(self, repo: \"Repo\") -> None") doc=None refs=[]"#,
        r#"  var repo 22-22 sig=Some("self.repo = repo") doc=None refs=[]"#,
        r#"  method find 25-28 sig=Some("async def find(self, user_id: int) -> Optional[U]") doc=Some("Find a user by id.") refs=[type_ref:int@25 type_ref:Optional@25 type_ref:U@25 call:get@27 value:repo@27 call:helper@28]"#,
        r#"fn helper 30-32 sig=Some("def helper(x)") doc=None refs=[]"#,
        r#"type Alias 34-34 sig=Some("type Alias = list[int]") doc=None refs=[type_ref:list@34 type_ref:int@34]"#,
        r#"top refs=[import:path@2 import:User@3 import:Account@3 import:Optional@4] imports=["os.path", ".models", "typing"]"#,
    ];
    assert_eq!(dump("sample.py", src), expected);
}

#[test]
fn extracts_sample_rs() {
    // Macro bodies and item-position invocations that parse are indexed too.
    let src = r#"//! Crate docs.
use std::collections::HashMap;
use crate::store::{Database, open as open_db};

/// A point in space.
#[derive(Debug, Clone)]
pub struct Point {
    /// X coordinate.
    pub x: f64,
    y: f64,
}

/// Shapes.
pub enum Shape {
    Circle(f64),
    Square { side: f64 },
}

/// Something with an area.
pub trait Area: Debug {
    /// The area.
    fn area(&self) -> f64;
    fn name(&self) -> String { String::new() }
}

impl Area for Point {
    fn area(&self) -> f64 {
        helper(self.x) + HashMap::<u32, u32>::new().len() as f64
    }
}

impl Point {
    /// Make one.
    pub fn new(x: f64, y: f64) -> Self {
        Point { x, y }
    }
}

pub const LIMIT: usize = 10;
static mut COUNTER: u32 = 0;
pub type Map = HashMap<String, Point>;

fn helper(v: f64) -> f64 {
    println!("{v}");
    v.abs()
}

mod inner {
    pub fn nested() {}
}

extern "C" {
    fn c_function(x: i32) -> i32;
}

macro_rules! make_fn {
    ($name:ident) => { fn $name() {} };
}

macro_rules! with_items {
    () => {
        /// Made by a macro.
        pub fn from_macro() -> u32 { 1 }
    };
}

thread_local! {
    static LOCAL: u32 = 0;
}

some_macro! {
    pub struct Generated { field: u8 }
}
"#;
    let expected = [
        r#"struct Point 7-11 sig=Some("pub struct Point") doc=Some("A point in space.") refs=[]"#,
        r#"  var x 9-9 sig=Some("pub x: f64") doc=Some("X coordinate.") refs=[]"#,
        r#"  var y 10-10 sig=Some("y: f64") doc=None refs=[]"#,
        r#"enum Shape 14-17 sig=Some("pub enum Shape") doc=Some("Shapes.") refs=[]"#,
        r#"  const Circle 15-15 sig=Some("Circle(f64)") doc=None refs=[]"#,
        r#"  const Square 16-16 sig=Some("Square { side: f64 }") doc=None refs=[]"#,
        r#"trait Area 20-24 sig=Some("pub trait Area: Debug") doc=Some("Something with an area.") refs=[extends:Debug@20]"#,
        r#"  method area 22-22 sig=Some("fn area(&self) -> f64") doc=Some("The area.") refs=[]"#,
        r#"  method name 23-23 sig=Some("fn name(&self) -> String") doc=None refs=[type_ref:String@23 call:new@23]"#,
        r#"impl Point 26-30 sig=Some("impl Area for Point") doc=None refs=[implements:Area@26 type_ref:Point@26]"#,
        r#"  method area 27-29 sig=Some("fn area(&self) -> f64") doc=None refs=[call:helper@28 call:len@28 call:new@28 type_ref:HashMap@28]"#,
        r#"impl Point 32-37 sig=Some("impl Point") doc=None refs=[type_ref:Point@32]"#,
        r#"  method new 34-36 sig=Some("pub fn new(x: f64, y: f64) -> Self") doc=Some("Make one.") refs=[type_ref:Self@34 type_ref:Point@35]"#,
        r#"const LIMIT 39-39 sig=Some("pub const LIMIT: usize") doc=None refs=[]"#,
        r#"var COUNTER 40-40 sig=Some("static mut COUNTER: u32") doc=None refs=[]"#,
        r#"type Map 41-41 sig=Some("pub type Map = HashMap<String, Point>") doc=None refs=[type_ref:HashMap@41 type_ref:String@41 type_ref:Point@41]"#,
        r#"fn helper 43-46 sig=Some("fn helper(v: f64) -> f64") doc=None refs=[call:println@44 call:abs@45]"#,
        r#"mod inner 48-50 sig=Some("mod inner") doc=None refs=[]"#,
        r#"  fn nested 49-49 sig=Some("pub fn nested()") doc=None refs=[]"#,
        r#"fn c_function 53-53 sig=Some("fn c_function(x: i32) -> i32") doc=None refs=[]"#,
        r#"fn make_fn 56-58 sig=Some("macro_rules! make_fn") doc=None refs=[]"#,
        r#"fn with_items 60-65 sig=Some("macro_rules! with_items") doc=None refs=[]"#,
        r#"  fn from_macro 63-63 sig=Some("pub fn from_macro() -> u32") doc=Some("Made by a macro.") refs=[]"#,
        r#"var LOCAL 68-68 sig=Some("static LOCAL: u32") doc=None refs=[]"#,
        r#"struct Generated 72-72 sig=Some("pub struct Generated") doc=None refs=[]"#,
        r#"  var field 72-72 sig=Some("field: u8") doc=None refs=[]"#,
        r#"top refs=[import:HashMap@2 import:Database@3 import:open@3 call:thread_local@67 call:some_macro@71] imports=["std::collections::HashMap", "crate::store"]"#,
    ];
    assert_eq!(dump("sample.rs", src), expected);
}

#[test]
fn rust_macro_arguments_are_walked_as_the_expressions_they_are() {
    let src = r#"struct Parser;

impl Parser {
    fn parse(&self, s: &str) -> u32 { 0 }

    fn check(&self, input: &str) {
        assert_eq!(self.parse(input), helper(1));
        assert!(matches!(helper(2), 0 | 1));
        let v = vec![helper(3); 4];
        debug_assert!(
            Parser::parse(self, "x") > 0,
            "{}", format!("{}", helper(4))
        );
        tracing::info!(target: "t", "{}", helper(5));
        assert!(matches!(helper(6), Some(n) if n > 0));
        m! { let w: Parser = make(); w.parse(LIMIT) }
        quote! { #helper(7) }
    }
}
"#;
    let (lang, ext) = extractor_for_path(Path::new("a.rs")).unwrap();
    let f = extract_source(lang, &ext, src).unwrap();
    let check = &f.symbols[1].children[1];
    assert_eq!(check.name, "check");
    let refs: Vec<String> = check
        .references
        .iter()
        .map(|r| {
            let qual = r
                .qual
                .as_deref()
                .map(|q| format!("{q}."))
                .unwrap_or_default();
            format!("{}:{qual}{}@{}", r.kind.as_str(), r.to_name, r.line)
        })
        .collect();
    assert_eq!(
        refs,
        [
            "call:!.assert_eq@7",
            "call:Parser.parse@7",
            "call:helper@7",
            "call:!.assert@8",
            "call:!.matches@8",
            "call:helper@8",
            "call:!.vec@9",
            "call:helper@9",
            "call:!.debug_assert@10",
            "call:Parser.parse@11",
            "call:!.format@12",
            "call:helper@12",
            "call:!.info@14",
            "call:helper@14",
            "call:!.assert@15",
            "call:!.matches@15",
            "call:helper@15",
            "call:!.m@16",
            "type_ref:Parser@16",
            "call:make@16",
            "call:Parser.parse@16",
            "value:LIMIT@16",
            "call:!.quote@17",
        ]
    );
}

#[test]
fn c_macro_bodies_refer_to_what_they_call() {
    let src = "int inflate_fast(int n);\n\
#define local static\n\
#define CALL(s, n) (*((s)->zalloc))((s)->opaque, inflate_fast(n))\n\
#define TRY(s, p) \\\n    do { if (p) release(s, (node_t *)p); } while (0)\n\
#define NOT_C(x) x ## _suffix(\n";
    let out = dump("a.c", src);
    assert_eq!(
        out,
        [
            "const local 2-2 sig=Some(\"#define local static\") doc=None refs=[]",
            "fn CALL 3-3 sig=Some(\"#define CALL(s, n) (*((s)->zalloc))((s)->opaque, inflate_fast(n))\") doc=None refs=[call:inflate_fast@3]",
            "fn TRY 4-5 sig=Some(\"#define TRY(s, p) \\\\\") doc=None refs=[call:release@5 type_ref:node_t@5]",
            "fn NOT_C 6-6 sig=Some(\"#define NOT_C(x) x ## _suffix\") doc=None refs=[]",
            "top refs=[] imports=[]",
        ]
    );
}

#[test]
fn every_typescript_use_of_a_class_is_a_reference() {
    let src = r#"import { Box, boxed } from "./defs";
import * as defs from "./defs";
export { Box as Crate } from "./defs";
export { boxed };

@boxed
class User {
  @boxed field: Box = new Box();
  list: Array<Map<string, Box>> = [];
  other?: defs.Box;
  constructor(@boxed private readonly box: Box) {}
  @boxed
  check(x: unknown): boolean {
    const y = x as Box;
    const t: typeof Box = Box;
    return x instanceof Box && y instanceof defs.Box;
  }
}
export default Box;
"#;
    let (lang, ext) = extractor_for_path(Path::new("a.ts")).unwrap();
    let f = extract_source(lang, &ext, src).unwrap();
    let mut uses: Vec<String> = Vec::new();
    fn walk(symbols: &[ExtractedSymbol], out: &mut Vec<String>) {
        for s in symbols {
            for r in &s.references {
                out.push(format!("{}:{}@{}", r.kind.as_str(), r.to_name, r.line));
            }
            walk(&s.children, out);
        }
    }
    walk(&f.symbols, &mut uses);
    for r in &f.references {
        uses.push(format!("{}:{}@{}", r.kind.as_str(), r.to_name, r.line));
    }
    // Each line that uses `Box` or `boxed`: imports, re-exports, decorators, annotations,
    // nested generics, `ns.Box`, `as`, `typeof`, `instanceof`, `export default`.
    uses.retain(|u| u.contains(":Box@") || u.contains(":boxed@"));
    uses.sort_by_key(|u| u.rsplit('@').next().unwrap().parse::<u32>().unwrap());
    assert_eq!(
        uses,
        [
            "import:Box@1",
            "import:boxed@1",
            "import:Box@3",
            "value:boxed@4",
            "call:boxed@6",
            "call:boxed@8",
            "type_ref:Box@8",
            "call:Box@8",
            "type_ref:Box@9",
            "type_ref:Box@10",
            "call:boxed@11",
            "type_ref:Box@11",
            "call:boxed@12",
            "type_ref:Box@14",
            "value:Box@15",
            "value:Box@16",
            "value:Box@16",
            "value:Box@19",
        ]
    );
}

#[test]
fn a_name_in_a_signature_type_is_still_a_use_in_the_body() {
    // Only the parameters' own names are parameters: a type named in the signature and
    // used as a value in the body is a reference (it used to be taken for a parameter).
    for (file, src, expected) in [
        (
            "a.ts",
            "function isBox(x: unknown): x is Box {\n  return x instanceof Box;\n}\n",
            &["type_ref:Box@1", "value:Box@2"][..],
        ),
        (
            "a.py",
            "def is_box(x: Box = None) -> bool:\n    return isinstance(x, Box)\n",
            &["type_ref:Box@1", "call:isinstance@2", "value:Box@2"][..],
        ),
        (
            "a.rs",
            "fn rebuild(b: Box) -> Box {\n    grow(Box::EMPTY, b.size)\n}\n",
            &["type_ref:Box@1", "call:grow@2", "value:EMPTY@2"][..],
        ),
        (
            "a.go",
            "package a\n\nfunc (b *Box) Grow(n Size) Size {\n\treturn Size(b.n + n)\n}\n",
            &["type_ref:Box@3", "type_ref:Size@3", "call:Size@4"][..],
        ),
    ] {
        let (lang, ext) = extractor_for_path(Path::new(file)).unwrap();
        let f = extract_source(lang, &ext, src).unwrap();
        let mut uses: Vec<String> = f.symbols[0]
            .references
            .iter()
            .map(|r| format!("{}:{}@{}", r.kind.as_str(), r.to_name, r.line))
            .collect();
        uses.retain(|u| !u.contains(":x@"));
        uses.retain(|u| !u.starts_with("type_ref:bool") && !u.starts_with("type_ref:unknown"));
        assert_eq!(uses, expected, "{file}");
    }
}

#[test]
fn extracts_sample_rb() {
    let src = r#"require 'json'
require_relative "lib/helper"

# A module.
module Billing
  # An invoice.
  class Invoice < Base::Record
    include Comparable
    TAX = 0.2

    # Total with tax.
    def total(amount)
      compute(amount) * TAX
    end

    def self.build
      new
    end
  end
end

def top_level
  puts "hi"
end
"#;
    let expected = [
        r#"mod Billing 5-20 sig=Some("module Billing") doc=Some("A module.") refs=[]"#,
        r#"  class Invoice 7-19 sig=Some("class Invoice < Base::Record") doc=Some("An invoice.") refs=[extends:Record@7 implements:Comparable@8]"#,
        r#"    const TAX 9-9 sig=Some("TAX = 0.2") doc=None refs=[]"#,
        r#"    method total 12-14 sig=Some("def total(amount)") doc=Some("Total with tax.") refs=[call:compute@13 value:TAX@13]"#,
        r#"    method build 16-18 sig=Some("def self.build") doc=None refs=[call:Invoice@17]"#,
        r#"fn top_level 22-24 sig=Some("def top_level") doc=None refs=[call:puts@23]"#,
        r#"top refs=[import:json@1 import:helper@2] imports=["json", "lib/helper"]"#,
    ];
    assert_eq!(dump("sample.rb", src), expected);
}

#[test]
fn extracts_sample_md() {
    let src = r#"# Title

Intro paragraph. More.

## Install

Run the installer.

### Linux

Use apt.

Setext Heading
--------------

Body.
"#;
    let expected = [
        r##"section Title 1-16 sig=Some("# Title") doc=Some("Intro paragraph. More.") refs=[]"##,
        r###"  section Install 5-16 sig=Some("## Install") doc=Some("Run the installer.") refs=[]"###,
        r####"    section Linux 9-16 sig=Some("### Linux") doc=Some("Use apt.") refs=[]"####,
        r###"      section Setext Heading 13-14 sig=Some("## Setext Heading") doc=None refs=[]"###,
        r#"top refs=[] imports=[]"#,
    ];
    assert_eq!(dump("sample.md", src), expected);
}

#[test]
fn extracts_sample_go() {
    let src = r#"package main

import (
	"fmt"
	str "strings"
)

// Server serves.
type Server struct {
	Addr string
}

// Handler handles.
type Handler interface {
	Serve(w Writer) error
}

const Version = "1.0"

// Start starts the server.
func (s *Server) Start() error {
	fmt.Println(str.ToUpper(s.Addr))
	return run(s)
}

func run(s *Server) error { return nil }
"#;
    let expected = [
        r#"struct Server 9-11 sig=Some("type Server struct") doc=Some("Server serves.") refs=[]"#,
        r#"  var Addr 10-10 sig=Some("Addr string") doc=None refs=[type_ref:string@10]"#,
        r#"interface Handler 14-16 sig=Some("type Handler interface") doc=Some("Handler handles.") refs=[]"#,
        r#"  method Serve 15-15 sig=Some("Serve(w Writer) error") doc=None refs=[type_ref:Writer@15 type_ref:error@15]"#,
        r#"const Version 18-18 sig=Some("Version = \"1.0\"") doc=None refs=[]"#,
        r#"method Start 21-24 sig=Some("func (s *Server) Start() error") doc=Some("Start starts the server.") refs=[type_ref:Server@21 type_ref:error@21 call:Println@22 call:ToUpper@22 value:Addr@22 call:run@23]"#,
        r#"fn run 26-26 sig=Some("func run(s *Server) error") doc=None refs=[type_ref:Server@26 type_ref:error@26]"#,
        r#"top refs=[import:fmt@4 import:str@5] imports=["fmt", "strings"]"#,
    ];
    assert_eq!(dump("sample.go", src), expected);
}

#[test]
fn extracts_sample_java() {
    let src = r#"package com.example;

import java.util.List;
import com.example.model.User;

/** A service. */
public class UserService extends BaseService implements Service, Closeable {
    public static final int LIMIT = 10;
    private List<User> users;

    /** Constructor. */
    public UserService() { super(); }

    /** Finds users. */
    public User find(int id) {
        return repo.lookup(id);
    }
}

interface Service {
    void close();
}

enum Level { LOW, HIGH }
"#;
    let expected = [
        r#"class UserService 7-18 sig=Some("public class UserService extends BaseService implements Service, Closeable") doc=Some("A service.") refs=[extends:BaseService@7 implements:Service@7 implements:Closeable@7 type_ref:List@9 type_ref:User@9]"#,
        r#"  const LIMIT 8-8 sig=Some("public static final int LIMIT = 10") doc=None refs=[]"#,
        r#"  var users 9-9 sig=Some("private List<User> users") doc=None refs=[]"#,
        r#"  method UserService 12-12 sig=Some("public UserService()") doc=Some("Constructor.") refs=[]"#,
        r#"  method find 15-17 sig=Some("public User find(int id)") doc=Some("Finds users.") refs=[type_ref:User@15 call:lookup@16]"#,
        r#"interface Service 20-22 sig=Some("interface Service") doc=None refs=[]"#,
        r#"  method close 21-21 sig=Some("void close()") doc=None refs=[]"#,
        r#"enum Level 24-24 sig=Some("enum Level") doc=None refs=[]"#,
        r#"  const LOW 24-24 sig=None doc=None refs=[]"#,
        r#"  const HIGH 24-24 sig=None doc=None refs=[]"#,
        r#"top refs=[import:List@3 import:User@4] imports=["java.util.List", "com.example.model.User"]"#,
    ];
    assert_eq!(dump("Sample.java", src), expected);
}

#[test]
fn extracts_sample_c() {
    let src = r#"#include <stdio.h>
#include "util.h"

#define MAX 10

/* A point. */
struct point {
    int x;
    int y;
};

typedef struct point point_t;

// Adds.
int add(int a, int b) {
    return helper(a) + b;
}

enum color { RED, GREEN };
"#;
    let expected = [
        r##"const MAX 4-4 sig=Some("#define MAX 10") doc=None refs=[]"##,
        r#"struct point 7-10 sig=Some("struct point") doc=Some("A point.") refs=[]"#,
        r#"  var x 8-8 sig=Some("int x") doc=None refs=[]"#,
        r#"  var y 9-9 sig=Some("int y") doc=None refs=[]"#,
        r#"type point_t 12-12 sig=Some("typedef struct point point_t") doc=None refs=[type_ref:point@12]"#,
        r#"fn add 15-17 sig=Some("int add(int a, int b)") doc=Some("Adds.") refs=[call:helper@16]"#,
        r#"enum color 19-19 sig=Some("enum color") doc=None refs=[]"#,
        r#"  const RED 19-19 sig=Some("RED") doc=None refs=[]"#,
        r#"  const GREEN 19-19 sig=Some("GREEN") doc=None refs=[]"#,
        r#"top refs=[import:stdio@1 import:util@2] imports=["stdio.h", "util.h"]"#,
    ];
    assert_eq!(dump("sample.c", src), expected);
}

#[test]
fn extracts_sample_cpp() {
    let src = r#"#include <vector>

namespace geo {
/// A shape.
class Shape : public Base {
public:
    virtual double area() const;
    int sides;
};

double Shape::area() const { return compute(1); }

template <typename T>
T max_of(T a, T b) { return a > b ? a : b; }
}
"#;
    let expected = [
        r#"mod geo 3-15 sig=Some("namespace geo") doc=None refs=[type_ref:T@13]"#,
        r#"  class Shape 5-9 sig=Some("class Shape : public Base") doc=Some("A shape.") refs=[extends:Base@5]"#,
        r#"    method area 7-7 sig=Some("virtual double area() const") doc=None refs=[]"#,
        r#"    var sides 8-8 sig=Some("int sides") doc=None refs=[]"#,
        r#"  fn area 11-11 sig=Some("double Shape::area() const") doc=None refs=[call:compute@11]"#,
        r#"  fn max_of 14-14 sig=Some("T max_of(T a, T b)") doc=None refs=[type_ref:T@14]"#,
        r#"top refs=[import:vector@1] imports=["vector"]"#,
    ];
    assert_eq!(dump("sample.cpp", src), expected);
}

// ───────────────────────────── tokenisation ─────────────────────────────

#[test]
fn name_tokens_follow_the_spec() {
    assert_eq!(name_tokens("getUserById"), "get user by id getuserbyid");
    assert_eq!(
        name_tokens("UserRepository"),
        "user repository userrepository"
    );
    assert_eq!(name_tokens("MAX_RETRIES"), "max retries max_retries");
    assert_eq!(name_tokens("HTMLParser"), "html parser htmlparser");
    assert_eq!(name_tokens("user_repo"), "user repo user_repo");
    assert_eq!(name_tokens("Base64Encoder"), "base64 encoder base64encoder");
    assert_eq!(name_tokens("u32"), "u32");
    assert_eq!(name_tokens("parse_utf8"), "parse utf8 parse_utf8");
    assert_eq!(name_tokens("to_f16"), "to f16 to_f16");
}

#[test]
fn signatures_and_docs_are_shortened_utf8_safely() {
    assert_eq!(
        normalize_signature("(a: number, b: number): number", 120),
        "(a:number,b:number):number"
    );
    let long = normalize_signature(&format!("fn f({})", "é: u8, ".repeat(50)), 120);
    assert!(long.ends_with("..."), "{long}");
    assert!(long.len() <= 123);
    assert_eq!(
        truncate_doc("Adds two numbers. Returns the sum.", 100),
        "Adds two numbers."
    );
    let doc = truncate_doc(&"😀 ".repeat(80), 100);
    assert!(doc.ends_with("..."), "{doc}");
}

// ───────────────────────────── operations ─────────────────────────────

fn engine() -> (tempfile::TempDir, Engine) {
    let home = tempfile::tempdir().unwrap();
    let engine = Engine::open_at(home.path()).unwrap();
    (home, engine)
}

fn p(dir: &Path) -> String {
    std::fs::canonicalize(dir)
        .unwrap()
        .to_str()
        .unwrap()
        .to_string()
}

/// A small repository: TypeScript, Python, Rust, Markdown, with a .gitignore.
fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, ".gitignore", "generated/\n");
    write(
        root,
        "src/user_service.ts",
        "import { helper } from './helpers';\n\n/** Loads users. */\nexport class UserService {\n  /** Get one user by id. */\n  getUserById(id: number): User {\n    return helper(id);\n  }\n}\n\nexport interface User {\n  id: number;\n}\n",
    );
    write(
        root,
        "src/helpers.ts",
        "import type { User } from './user_service';\n\n/** Helps. */\nexport function helper(id: number): User {\n  return { id };\n}\n",
    );
    write(
        root,
        "src/other.ts",
        "export function helper(x: string) {\n  return x;\n}\nexport function useLocal() {\n  return helper('a');\n}\n",
    );
    write(
        root,
        "lib/parser.py",
        "MAX_RETRIES = 3\n\nclass HTMLParser:\n    \"\"\"Parses HTML. Quickly.\"\"\"\n\n    def parse(self, text: str) -> str:\n        return text\n",
    );
    write(
        root,
        "src/lib.rs",
        "/// Encodes bytes.\npub struct Base64Encoder;\n\nimpl Base64Encoder {\n    pub fn encode_utf8(&self, s: &str) -> String {\n        s.to_string()\n    }\n}\n",
    );
    write(
        root,
        "README.md",
        "# Project\n\nAbout it.\n\n## Usage\n\nRun it.\n",
    );
    write(
        root,
        "generated/big.ts",
        "export function generatedFn() {}\n",
    );
    write(root, "node_modules/dep/index.js", "function depFn() {}\n");
    write(root, "notes.txt", "not code\n");
    dir
}

fn search(engine: &Engine, root: &str, query: &str) -> Value {
    call(
        engine,
        "code.search_symbols",
        json!({"path": root, "query": query}),
    )
}

#[test]
fn index_respects_gitignore_defaults_and_extensions() {
    let (_home, engine) = engine();
    let dir = project();
    let root = p(dir.path());
    let out = call(&engine, "code.index_repository", json!({"path": root}));
    assert_eq!(out["status"], "ok");
    assert_eq!(out["stats"]["files"], 6, "{out}");
    assert_eq!(out["new"], 6);
    assert_eq!(out["unchanged"], 0);
    assert!(out["stats"]["symbols"].as_u64().unwrap() >= 12, "{out}");
    assert!(
        search(&engine, &root, "generatedFn")["hits"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    assert!(
        search(&engine, &root, "depFn")["hits"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    // The database is per repository, under the data root.
    let db = db_path(engine.home(), Path::new(&root));
    assert!(db.exists(), "{}", db.display());
    assert!(db.starts_with(engine.home().join("code")));
}

#[test]
fn search_subwords_prefix_boolean_and_kind() {
    let (_home, engine) = engine();
    let dir = project();
    let root = p(dir.path());
    call(&engine, "code.index_repository", json!({"path": root}));
    // Subword matching: "user" finds getUserById, UserService, User.
    let names = hit_names(&search(&engine, &root, "user"));
    for want in ["getUserById", "UserService", "User"] {
        assert!(names.contains(&want.to_string()), "{want} not in {names:?}");
    }
    // Acronym split, digits kept with their word.
    assert_eq!(hit_names(&search(&engine, &root, "html")), ["HTMLParser"]);
    assert_eq!(
        hit_names(&search(&engine, &root, "base64"))[0],
        "Base64Encoder"
    );
    assert_eq!(hit_names(&search(&engine, &root, "utf8")), ["encode_utf8"]);
    assert_eq!(
        hit_names(&search(&engine, &root, "retries")),
        ["MAX_RETRIES"]
    );
    // Prefix.
    assert!(
        hit_names(&search(&engine, &root, "Base64Enc*")).contains(&"Base64Encoder".to_string())
    );
    // Boolean operators.
    // (`NOT service` would drop the whole of src/user_service.ts: paths are indexed.)
    let names = hit_names(&search(&engine, &root, "user AND NOT loads"));
    assert!(names.contains(&"getUserById".to_string()), "{names:?}");
    assert!(!names.contains(&"UserService".to_string()), "{names:?}");
    let names = hit_names(&search(&engine, &root, "html OR base64"));
    assert!(
        names.contains(&"HTMLParser".to_string()) && names.contains(&"Base64Encoder".to_string())
    );
    // Doc comments are searched.
    assert_eq!(hit_names(&search(&engine, &root, "loads")), ["UserService"]);
    // Kind filter.
    let v = call(
        &engine,
        "code.search_symbols",
        json!({"path": root, "query": "user", "kind": "class"}),
    );
    assert_eq!(hit_names(&v), ["UserService"]);
    // Invalid FTS syntax is searched as plain words, never an error.
    let v = search(&engine, &root, "getUserById(\"");
    assert_eq!(hit_names(&v)[0], "getUserById");
    let v = search(&engine, &root, "NEAR( -- *");
    assert!(v["hits"].is_array());
    // Bad requests.
    assert_eq!(
        call_err(
            &engine,
            "code.search_symbols",
            json!({"path": root, "query": "  "})
        )
        .code(),
        "invalid_request"
    );
    assert_eq!(
        call_err(
            &engine,
            "code.search_symbols",
            json!({"path": root, "query": "x", "kind": "widget"})
        )
        .code(),
        "invalid_request"
    );
}

/// What an agent reads of `result` of `op` ([`cc_search::agent::answer`]), within
/// `max_tokens` when given.
fn agent_view(op: &str, result: &Value, max_tokens: Option<usize>) -> Value {
    let text = cc_search::agent::answer(op, &result.to_string(), max_tokens).unwrap();
    serde_json::from_str(&text).unwrap()
}

#[test]
fn results_are_full_and_the_agent_reads_each_path_once() {
    let (_home, engine) = engine();
    let dir = project();
    let root = p(dir.path());
    call(&engine, "code.index_repository", json!({"path": root}));
    // The result names everything in full.
    let full = search(&engine, &root, "HTMLParser");
    let keys: Vec<&String> = full["hits"][0].as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        [
            "id",
            "name",
            "kind",
            "path",
            "start_line",
            "end_line",
            "signature",
            "doc"
        ]
    );
    assert_eq!(
        (&full["hits"][0]["start_line"], &full["hits"][0]["end_line"]),
        (&json!(3), &json!(7))
    );
    // Hits in several files: `_f` lists each path once, hits point into it.
    let v = agent_view(
        "code.search_symbols",
        &search(&engine, &root, "helper"),
        None,
    );
    let files = v["_f"].as_array().unwrap();
    assert_eq!(files.len(), 2, "{v}");
    for hit in v["hits"].as_array().unwrap() {
        let fi = hit["fi"].as_u64().unwrap() as usize;
        assert!(files[fi].as_str().unwrap().starts_with("src/"));
        assert!(hit.get("f").is_none());
    }
    // One file: inlined as `f`, no `_f`.
    let v = agent_view("code.search_symbols", &full, None);
    assert!(v.get("_f").is_none(), "{v}");
    let hit = &v["hits"][0];
    assert_eq!(hit["f"], "lib/parser.py");
    assert_eq!(hit["k"], "class");
    assert_eq!(hit["l"], "3-7");
    assert_eq!(hit["doc"], "Parses HTML.");
    assert!(hit["id"].is_i64());
    // Keys are the compact ones, in this order.
    let keys: Vec<&String> = hit.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["id", "n", "k", "f", "l", "sig", "doc"]);
}

#[test]
fn file_symbols_detail_references_and_dependencies() {
    let (_home, engine) = engine();
    let dir = project();
    let root = p(dir.path());
    call(&engine, "code.index_repository", json!({"path": root}));
    let v = call(
        &engine,
        "code.get_file_symbols",
        json!({"path": root, "file": "src/user_service.ts"}),
    );
    assert_eq!(v["path"], "src/user_service.ts");
    let syms = v["symbols"].as_array().unwrap();
    assert_eq!(syms.len(), 2, "{v}");
    assert_eq!(syms[0]["name"], "UserService");
    assert_eq!(syms[0]["doc"], "Loads users.");
    let method = &syms[0]["children"][0];
    assert_eq!(method["name"], "getUserById");
    assert_eq!(method["kind"], "method");
    assert_eq!(method["signature"], "getUserById(id:number):User");
    assert_eq!(syms[1]["name"], "User");
    assert_eq!(syms[1]["children"][0]["name"], "id");
    // An absolute path inside the repository works too.
    let abs = format!("{root}/src/user_service.ts");
    let v2 = call(
        &engine,
        "code.get_file_symbols",
        json!({"path": root, "file": abs}),
    );
    assert_eq!(v, v2);

    // Detail: parent, untruncated signature, calls resolved to the imported file's helper.
    let id = method["id"].as_i64().unwrap();
    let d = call(
        &engine,
        "code.get_symbol_detail",
        json!({"path": root, "id": id}),
    );
    assert_eq!(d["name"], "getUserById");
    assert_eq!(d["path"], "src/user_service.ts");
    assert_eq!(common::lines(&d), "6-8");
    assert_eq!(d["signature"], "getUserById(id: number): User");
    assert_eq!(d["doc"], "Get one user by id.");
    assert_eq!(d["parent"]["name"], "UserService");
    let call_target = d["calls"][0]["id"].as_i64().unwrap();
    let target = call(
        &engine,
        "code.get_symbol_detail",
        json!({"path": root, "id": call_target}),
    );
    assert_eq!(
        target["path"], "src/helpers.ts",
        "imported file preferred: {target}"
    );
    // `User` resolves within the same file.
    let user_ref = d["type_refs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "User")
        .unwrap();
    let user = call(
        &engine,
        "code.get_symbol_detail",
        json!({"path": root, "id": user_ref["id"]}),
    );
    assert_eq!(user["path"], "src/user_service.ts");

    // References to helpers.ts's helper: the call from getUserById (and the import).
    let r = call(
        &engine,
        "code.get_references",
        json!({"path": root, "id": call_target}),
    );
    let refs = r["references"].as_array().unwrap();
    assert!(
        refs.iter()
            .any(|x| x["kind"] == "call" && x["from_name"] == "getUserById" && x["line"] == 7),
        "{r}"
    );
    assert!(
        refs.iter().all(|x| x["path"] == "src/user_service.ts"),
        "{r}"
    );
    // The other helper is called from its own file, not from user_service.ts.
    let other = search(&engine, &root, "useLocal");
    let use_local = other["hits"][0]["id"].as_i64().unwrap();
    let deps = call(
        &engine,
        "code.get_dependencies",
        json!({"path": root, "id": use_local}),
    );
    let dep = &deps["dependencies"][0];
    assert_eq!(dep["to_name"], "helper");
    assert_eq!(dep["kind"], "call");
    let resolved = call(
        &engine,
        "code.get_symbol_detail",
        json!({"path": root, "id": dep["to_id"]}),
    );
    assert_eq!(
        resolved["path"], "src/other.ts",
        "same file preferred: {resolved}"
    );

    // Unknown ids and files are clear errors.
    let e = call_err(
        &engine,
        "code.get_symbol_detail",
        json!({"path": root, "id": 999999}),
    );
    assert_eq!(e.code(), "invalid_request");
    assert!(e.to_string().contains("999999"), "{e}");
    let e = call_err(
        &engine,
        "code.get_file_symbols",
        json!({"path": root, "file": "nope.ts"}),
    );
    assert_eq!(e.code(), "invalid_request");
}

#[test]
fn overview_and_status() {
    let (_home, engine) = engine();
    let dir = project();
    let root = p(dir.path());
    let status = call(&engine, "code.index_status", json!({"path": root}));
    assert_eq!(status["indexed"], false);
    call(&engine, "code.index_repository", json!({"path": root}));
    let o = call(&engine, "code.get_overview", json!({"path": root}));
    assert_eq!(
        o["languages"],
        json!({"markdown": 1, "python": 1, "rust": 1, "typescript": 3})
    );
    let mods: Vec<&str> = o["directories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["path"].as_str().unwrap())
        .collect();
    assert_eq!(mods, [".", "lib", "src"]);
    let top: Vec<&str> = o["top_types"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap())
        .collect();
    assert_eq!(top[0], "User", "most referenced first: {top:?}");
    assert!(top.contains(&"HTMLParser"));
    let status = call(&engine, "code.index_status", json!({"path": root}));
    assert_eq!(status["indexed"], true);
    assert_eq!(status["files"], 6);
    assert!(status.get("stale").is_none(), "{status}");
    // Edit one file (new size) and add one: status sees both without re-indexing.
    write(
        dir.path(),
        "src/helpers.ts",
        "export function helper2() {}\n",
    );
    write(dir.path(), "src/new.ts", "export const x = 1;\n");
    std::fs::remove_file(dir.path().join("README.md")).unwrap();
    let status = call(&engine, "code.index_status", json!({"path": root}));
    assert_eq!(status["stale"], 1, "{status}");
    assert_eq!(status["stale_files"], json!(["src/helpers.ts"]));
    assert_eq!(status["new"], 1);
    assert_eq!(status["deleted_files"], json!(["README.md"]));
}

fn set_mtime(path: &Path, secs: i64) {
    let f = std::fs::File::options().write(true).open(path).unwrap();
    f.set_modified(std::time::UNIX_EPOCH + std::time::Duration::from_secs(secs as u64))
        .unwrap();
}

#[test]
fn incremental_reindex_parses_only_changes() {
    let (home, engine) = engine();
    // An engine of its own for each run: none has watched the tree, so each run walks and
    // compares sizes and mtimes, as the first run of a process does (an engine that ran
    // before sees edits through its watch instead: see
    // `a_server_answers_without_walking_while_nothing_changed_and_sees_every_change`).
    let walking = || Engine::open_at(home.path()).unwrap();
    let dir = project();
    let root = p(dir.path());
    // Old mtimes so the fast check can trust them (not modified in the indexing second).
    for f in [
        "src/user_service.ts",
        "src/helpers.ts",
        "src/other.ts",
        "lib/parser.py",
        "src/lib.rs",
        "README.md",
    ] {
        set_mtime(&dir.path().join(f), 1_600_000_000);
    }
    call(&walking(), "code.index_repository", json!({"path": root}));
    let again = call(&walking(), "code.index_repository", json!({"path": root}));
    assert_eq!(
        (
            again["new"].as_u64(),
            again["changed"].as_u64(),
            again["unchanged"].as_u64(),
            again["deleted"].as_u64()
        ),
        (Some(0), Some(0), Some(6), Some(0)),
        "{again}"
    );
    // A no-change run reads no file contents. Proof 1: new content of the same size
    // behind the old mtime goes unseen (the old symbols stay, the new name is not found).
    // (Content changes of the same size and mtime are caught by hashing only when the
    // mtime is recent; this checks the fast path is taken.)
    let lib = dir.path().join("src/lib.rs");
    let original = std::fs::read(&lib).unwrap();
    let swapped = String::from_utf8(original.clone())
        .unwrap()
        .replace("Base64Encoder", "Base64Decoder");
    assert_eq!(swapped.len(), original.len());
    std::fs::write(&lib, &swapped).unwrap();
    set_mtime(&lib, 1_600_000_000);
    let unseen = call(&walking(), "code.index_repository", json!({"path": root}));
    assert_eq!(
        (unseen["changed"].as_u64(), unseen["unchanged"].as_u64()),
        (Some(0), Some(6)),
        "{unseen}"
    );
    assert!(unseen.get("warnings").is_none(), "{unseen}");
    // The struct and its impl, as indexed.
    assert_eq!(
        hit_names(&search(&engine, &root, "Base64Encoder")),
        ["Base64Encoder", "Base64Encoder"]
    );
    assert!(hit_names(&search(&engine, &root, "Base64Decoder")).is_empty());
    std::fs::write(&lib, &original).unwrap();
    set_mtime(&lib, 1_600_000_000);
    // Proof 2, where permissions bind (not as root): an unreadable file of unchanged
    // size and mtime is not opened, so no warning.
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&lib, std::fs::Permissions::from_mode(0o000)).unwrap();
        if std::fs::read(&lib).is_err() {
            let run = call(&walking(), "code.index_repository", json!({"path": root}));
            assert_eq!(run["unchanged"], 6, "{run}");
            assert!(run.get("warnings").is_none(), "{run}");
        } else {
            eprintln!("running as root: chmod 000 does not stop reads, proof 2 skipped");
        }
        std::fs::set_permissions(&lib, std::fs::Permissions::from_mode(0o644)).unwrap();
        set_mtime(&lib, 1_600_000_000);
    }
    // A touched file with the same content is hashed, not re-parsed.
    set_mtime(&dir.path().join("src/lib.rs"), 1_600_000_100);
    let touched = call(&walking(), "code.index_repository", json!({"path": root}));
    assert_eq!(
        (touched["changed"].as_u64(), touched["unchanged"].as_u64()),
        (Some(0), Some(6)),
        "{touched}"
    );
    // A changed file is re-parsed, a deleted one removed, a new one added.
    write(
        dir.path(),
        "lib/parser.py",
        "def renamed_function():\n    pass\n",
    );
    std::fs::remove_file(dir.path().join("README.md")).unwrap();
    write(dir.path(), "src/added.rs", "fn added_fn() {}\n");
    let run = call(&walking(), "code.index_repository", json!({"path": root}));
    assert_eq!(
        (
            run["new"].as_u64(),
            run["changed"].as_u64(),
            run["unchanged"].as_u64(),
            run["deleted"].as_u64()
        ),
        (Some(1), Some(1), Some(4), Some(1)),
        "{run}"
    );
    // The totals a run reports (kept by delta) are the real counts.
    let status = call(&engine, "code.index_status", json!({"path": root}));
    assert_eq!(status["symbols"], run["stats"]["symbols"], "{status} {run}");
    assert_eq!(status["refs"], run["stats"]["refs"], "{status} {run}");
    assert!(hit_names(&search(&engine, &root, "html")).is_empty());
    assert_eq!(
        hit_names(&search(&engine, &root, "renamed")),
        ["renamed_function"]
    );
    assert_eq!(hit_names(&search(&engine, &root, "added")), ["added_fn"]);
    assert!(hit_names(&search(&engine, &root, "usage")).is_empty());
    // force re-parses everything.
    let forced = call(
        &engine,
        "code.index_repository",
        json!({"path": root, "force": true}),
    );
    assert_eq!(forced["changed"], 6, "{forced}");
}

#[test]
fn references_follow_changes_in_other_files() {
    let (_home, engine) = engine();
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "a.py",
        "from b import target\n\ndef caller():\n    return target()\n",
    );
    write(dir.path(), "b.py", "def target():\n    return 1\n");
    let root = p(dir.path());
    call(&engine, "code.index_repository", json!({"path": root}));
    let caller = search(&engine, &root, "caller")["hits"][0]["id"]
        .as_i64()
        .unwrap();
    let deps = call(
        &engine,
        "code.get_dependencies",
        json!({"path": root, "id": caller}),
    );
    let first = deps["dependencies"][0]["to_id"].as_i64().expect("resolved");
    // b.py is rewritten: the target gets a new id, and the reference follows it.
    write(
        dir.path(),
        "b.py",
        "# moved down\n\ndef target():\n    return 2\n",
    );
    call(
        &engine,
        "code.update_files",
        json!({"path": root, "files": ["b.py"]}),
    );
    let deps = call(
        &engine,
        "code.get_dependencies",
        json!({"path": root, "id": caller}),
    );
    let second = deps["dependencies"][0]["to_id"]
        .as_i64()
        .expect("resolved again");
    let _ = first;
    let d = call(
        &engine,
        "code.get_symbol_detail",
        json!({"path": root, "id": second}),
    );
    assert_eq!(
        (d["path"].as_str().unwrap().to_string(), common::lines(&d)),
        ("b.py".to_string(), "3-4".to_string())
    );
    // Deleting it leaves the reference external.
    std::fs::remove_file(dir.path().join("b.py")).unwrap();
    let run = call(
        &engine,
        "code.update_files",
        json!({"path": root, "files": ["b.py"]}),
    );
    assert_eq!(run["deleted"], 1);
    let status = call(&engine, "code.index_status", json!({"path": root}));
    assert_eq!(
        (&status["symbols"], &status["refs"]),
        (&run["stats"]["symbols"], &run["stats"]["refs"])
    );
    let deps = call(
        &engine,
        "code.get_dependencies",
        json!({"path": root, "id": caller}),
    );
    assert_eq!(deps["dependencies"][0]["external"], true, "{deps}");
}

#[test]
fn update_files_without_walk() {
    let (_home, engine) = engine();
    let dir = project();
    let root = p(dir.path());
    call(&engine, "code.index_repository", json!({"path": root}));
    write(
        dir.path(),
        "src/helpers.ts",
        "export function brandNewHelper() {}\n",
    );
    // Even a gitignored file is indexed when named explicitly? No: update_files indexes
    // exactly what it is given.
    let out = call(
        &engine,
        "code.update_files",
        json!({"path": root, "files": ["src/helpers.ts", "notes.txt", "missing.ts"]}),
    );
    assert_eq!(out["changed"], 1, "{out}");
    assert_eq!(out["skipped"], 2);
    let warnings = out["warnings"].as_array().unwrap();
    assert!(
        warnings
            .iter()
            .any(|w| w.as_str().unwrap().contains("notes.txt"))
    );
    assert!(
        warnings
            .iter()
            .any(|w| w.as_str().unwrap().contains("missing.ts"))
    );
    assert_eq!(
        hit_names(&search(&engine, &root, "brand")),
        ["brandNewHelper"]
    );
    let e = call_err(
        &engine,
        "code.update_files",
        json!({"path": root, "files": []}),
    );
    assert_eq!(e.code(), "invalid_request");
}

#[test]
fn bad_files_are_skipped_with_warnings_not_errors() {
    let (_home, engine) = engine();
    let dir = tempfile::tempdir().unwrap();
    let root_path = dir.path();
    write(root_path, "ok.rs", "fn fine() {}\n");
    write(root_path, "empty.py", "");
    write(root_path, "binary.rs", b"fn a() {}\0\x01\x02\xff");
    write(
        root_path,
        "latin1.py",
        b"def caf\xe9():\n    pass\n\ndef ascii_ok():\n    pass\n",
    );
    write(
        root_path,
        "huge.ts",
        format!("// {}\n", "x".repeat(2 * 1024 * 1024)),
    );
    write(
        root_path,
        "broken.ts",
        "export function ok1() {}\nclass {{{{ ((( \nexport function ok2() {}\n",
    );
    std::os::unix::fs::symlink(root_path.join("nowhere.rs"), root_path.join("dangling.rs"))
        .unwrap();
    let root = p(root_path);
    let out = call(&engine, "code.index_repository", json!({"path": root}));
    assert_eq!(out["status"], "ok");
    let warnings: Vec<&str> = out["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_str().unwrap())
        .collect();
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("binary.rs") && w.contains("binary")),
        "{warnings:?}"
    );
    assert!(
        warnings.iter().any(|w| w.contains("dangling.rs")),
        "{warnings:?}"
    );
    // Huge files are over the 1 MiB limit: not indexed, and said so.
    assert!(hit_names(&search(&engine, &root, "huge")).is_empty());
    assert!(
        warnings
            .iter()
            .any(|w| w.starts_with("huge.ts: ") && w.contains("over the 1048576 byte limit")),
        "{warnings:?}"
    );
    // Empty files are tracked, with no symbols.
    let v = call(
        &engine,
        "code.get_file_symbols",
        json!({"path": root, "file": "empty.py"}),
    );
    assert_eq!(v["symbols"], json!([]));
    // Invalid UTF-8 is decoded lossily; the rest of the file is indexed.
    assert_eq!(hit_names(&search(&engine, &root, "ascii_ok")), ["ascii_ok"]);
    // Syntax errors keep what parses.
    let names = hit_names(&search(&engine, &root, "ok1 OR ok2"));
    assert!(names.contains(&"ok1".to_string()), "{names:?}");
    assert_eq!(hit_names(&search(&engine, &root, "fine")), ["fine"]);
    // An unknown repository is an error naming it.
    let e = call_err(
        &engine,
        "code.index_repository",
        json!({"path": "/definitely/not/here"}),
    );
    assert_eq!(e.code(), "io");
    assert!(e.to_string().contains("/definitely/not/here"), "{e}");
}

#[test]
fn project_config_ignore_truncation_and_budget() {
    let (_home, engine) = engine();
    let dir = tempfile::tempdir().unwrap();
    let long_params: Vec<String> = (0..30)
        .map(|i| format!("argument_number_{i}: u32"))
        .collect();
    write(
        dir.path(),
        "src/a.rs",
        format!(
            "/// {}\npub fn long_one({}) {{}}\n",
            "word ".repeat(60),
            long_params.join(", ")
        ),
    );
    for i in 0..40 {
        write(
            dir.path(),
            &format!("src/m{i:02}.rs"),
            format!("/// Item number {i}.\npub fn item_{i:02}() {{}}\n"),
        );
    }
    write(dir.path(), "skip/me.rs", "fn skipped_fn() {}\n");
    write(
        dir.path(),
        ".ctxhelpr.json",
        r#"{"indexer": {"ignore": ["skip/"]}, "output": {"truncate_signatures": 40, "truncate_doc_comments": 30}}"#,
    );
    let root = p(dir.path());
    call(&engine, "code.index_repository", json!({"path": root}));
    assert!(hit_names(&search(&engine, &root, "skipped_fn")).is_empty());
    let hit = &search(&engine, &root, "long_one")["hits"][0];
    let sig = hit["signature"].as_str().unwrap();
    assert!(sig.ends_with("...") && sig.len() <= 43, "{sig}");
    let doc = hit["doc"].as_str().unwrap();
    assert!(doc.ends_with("...") && doc.len() <= 33, "{doc}");
    // Detail views are untruncated.
    let d = call(
        &engine,
        "code.get_symbol_detail",
        json!({"path": root, "id": hit["id"]}),
    );
    assert!(d["signature"].as_str().unwrap().len() > 300);
    assert_eq!(d["doc"].as_str().unwrap(), "word ".repeat(60).trim());
    // A budget cuts what the agent reads and says so; the result itself is whole.
    let full = call(
        &engine,
        "code.search_symbols",
        json!({"path": root, "query": "item", "limit": 100}),
    );
    assert_eq!(full["hits"].as_array().unwrap().len(), 40);
    assert!(full.get("truncated").is_none());
    let cut = agent_view("code.search_symbols", &full, Some(200));
    assert!(
        cut.to_string().len() <= 800,
        "{} bytes",
        cut.to_string().len()
    );
    assert_eq!(cut["truncated"], true);
    let n = cut["hits"].as_array().unwrap().len();
    assert!(n > 0 && n < 40, "{n}");
    // `_f` keeps only the files still referred to, and every `fi` points into it.
    let files = cut["_f"].as_array().unwrap();
    assert_eq!(files.len(), n);
    for h in cut["hits"].as_array().unwrap() {
        assert!((h["fi"].as_u64().unwrap() as usize) < files.len());
    }
    // .cc-search.json wins over .ctxhelpr.json and gives the project's answers a budget
    // when a call gives none; a call's own wins.
    write(
        dir.path(),
        ".cc-search.json",
        r#"{"output": {"max_tokens": 150}}"#,
    );
    let server = cc_search::mcp::Server::new(
        std::sync::Arc::new(Engine::open_at(_home.path()).unwrap()),
        cc_search::mcp::ServerOptions {
            roots: vec![dir.path().to_path_buf()],
            ..Default::default()
        },
    )
    .unwrap();
    let answer = |arguments: Value| -> Value {
        let message = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "code_search_symbols", "arguments": arguments}});
        let reply: Value =
            serde_json::from_str(&server.handle(&message.to_string()).unwrap()).unwrap();
        serde_json::from_str(reply["result"]["content"][0]["text"].as_str().unwrap()).unwrap()
    };
    let cut = answer(json!({"query": "item", "limit": 100}));
    assert_eq!(cut["truncated"], true, "{cut}");
    assert!(cut.to_string().len() <= 600, "{cut}");
    let wider = answer(json!({"query": "item", "limit": 100, "max_tokens": 100_000}));
    assert!(wider.get("truncated").is_none(), "{wider}");
    assert_eq!(wider["hits"].as_array().unwrap().len(), 40);
    // A broken config file is a warning, not a failure.
    write(dir.path(), ".cc-search.json", "{ not json");
    let v = call(
        &engine,
        "code.search_symbols",
        json!({"path": root, "query": "item"}),
    );
    assert!(
        v["warnings"][0]
            .as_str()
            .unwrap()
            .contains(".cc-search.json"),
        "{v}"
    );
}

#[test]
fn migration_from_the_first_schema_backfills_name_tokens() {
    let (_home, engine) = engine();
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.rs", "fn getUserById() {}\n");
    let root = p(dir.path());
    let path = db_path(engine.home(), Path::new(&root));
    {
        // A database as schema 1 left it, with one file and one symbol.
        let conn = cc_search::store::open(&path, &SCHEMA[..1], &mut Vec::new()).unwrap();
        conn.execute_batch(&format!(
            "INSERT INTO metadata VALUES ('repo_root', '{root}'), ('last_indexed', '1600000000');
             INSERT INTO files (id, rel_path, language, hash, mtime, size, indexed_at)
                 VALUES (1, 'a.rs', 'rust', 'x', 1, 1, 1600000000);
             INSERT INTO symbols (id, file_id, name, kind, line_start, line_end)
                 VALUES (7, 1, 'getUserById', 'fn', 1, 1);"
        ))
        .unwrap();
        let version: i64 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(version, 1);
        // Schema 1 cannot find subwords.
        let n: i64 = conn
            .query_row(
                "SELECT count(*) FROM symbols_fts WHERE symbols_fts MATCH 'user'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(n, 0);
    }
    // Opening through the engine migrates, backfills and rebuilds the FTS index.
    // (Schema 5 empties the index — its rows lack what resolution needs — so the
    // search indexes the file afresh.)
    let v = search(&engine, &root, "user");
    assert_eq!(hit_names(&v), ["getUserById"]);
    let conn = cc_search::store::open(&path, SCHEMA, &mut Vec::new()).unwrap();
    let version: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version as usize, SCHEMA_VERSION);
    let tokens: String = conn
        .query_row(
            "SELECT name_tokens FROM symbols WHERE name = 'getUserById'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(tokens, "get user by id getuserbyid");
    let schema: String = conn
        .query_row(
            "SELECT value FROM metadata WHERE key = 'schema_version'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(schema, SCHEMA_VERSION.to_string());
}

#[test]
fn migration_to_declarations_indexes_afresh() {
    let (_home, engine) = engine();
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "hookspec.py",
        "def on_start(config):\n    \"\"\"Called at start.\"\"\"\n",
    );
    write(
        dir.path(),
        "a_plugin.py",
        "def on_start(config):\n    config.ready = True\n",
    );
    let root = p(dir.path());
    let path = db_path(engine.home(), Path::new(&root));
    {
        // An index as schema 7 left it: rows that know nothing of declarations, and
        // `code.find`'s rows for them.
        let conn = cc_search::store::open(&path, &SCHEMA[..7], &mut Vec::new()).unwrap();
        conn.execute_batch(&format!(
            "INSERT INTO metadata VALUES ('repo_root', '{root}'), ('last_indexed', '1600000000'),
                 ('count_symbols', '2'), ('count_refs', '1');
             INSERT INTO files (id, rel_path, language, hash, mtime, size, indexed_at)
                 VALUES (1, 'a_plugin.py', 'python', 'x', 1, 1, 1600000000),
                        (2, 'hookspec.py', 'python', 'y', 1, 1, 1600000000);
             INSERT INTO symbols (id, file_id, name, kind, line_start, line_end, name_tokens)
                 VALUES (7, 1, 'on_start', 'fn', 1, 2, 'on start on_start'),
                        (8, 2, 'stale_name', 'fn', 1, 2, 'stale name stale_name');
             INSERT INTO refs (file_id, from_symbol_id, to_name, kind, line)
                 VALUES (1, 7, 'stale_ref', 'value', 2);
             INSERT INTO file_bindings VALUES (1, 'os', 'os', NULL);
             INSERT INTO find_files VALUES (1, 'x', 1600000000);
             INSERT INTO find_units VALUES (7, 1);"
        ))
        .unwrap();
        let version: i64 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(version, 7);
    }
    // The upgrade empties the index; the search indexes the repository afresh, and the
    // declaration comes first.
    let v = search(&engine, &root, "on_start");
    assert!(
        v["warnings"][0]
            .as_str()
            .unwrap()
            .contains("indexed it now"),
        "{v}"
    );
    let hits = v["hits"].as_array().unwrap();
    let found: Vec<(&str, Option<&Value>)> = hits
        .iter()
        .map(|h| (h["path"].as_str().unwrap(), h.get("declaration")))
        .collect();
    assert_eq!(
        found,
        [("hookspec.py", Some(&json!(true))), ("a_plugin.py", None)]
    );
    assert!(hit_names(&search(&engine, &root, "stale_name")).is_empty());
    let conn = cc_search::store::open(&path, SCHEMA, &mut Vec::new()).unwrap();
    let version: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version as usize, SCHEMA_VERSION);
    let count = |sql: &str| -> i64 { conn.query_row(sql, [], |r| r.get(0)).unwrap() };
    assert_eq!(
        count("SELECT count(*) FROM symbols WHERE declaration = 1"),
        1
    );
    assert_eq!(count("SELECT count(*) FROM find_files"), 0);
    assert_eq!(count("SELECT count(*) FROM find_units"), 0);
    assert_eq!(count("SELECT count(*) FROM file_bindings"), 0);
    assert_eq!(
        count("SELECT count(*) FROM refs WHERE to_name = 'stale_ref'"),
        0
    );
    // `code.find` fills its index again from the new rows.
    let found = call(
        &engine,
        "code.find",
        json!({"path": root, "query": "on_start config ready"}),
    );
    assert!(!found["files"].as_array().unwrap().is_empty(), "{found}");
}

#[test]
fn list_and_delete_repos() {
    let (_home, engine) = engine();
    let a = project();
    let b = tempfile::tempdir().unwrap();
    write(b.path(), "x.go", "package x\nfunc X() {}\n");
    let (ra, rb) = (p(a.path()), p(b.path()));
    call(&engine, "code.index_repository", json!({"path": ra}));
    call(&engine, "code.index_repository", json!({"path": rb}));
    let list = call(&engine, "code.list_repos", json!({}));
    let mut want = vec![ra.clone(), rb.clone()];
    want.sort();
    let got: Vec<&str> = list["repos"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["path"].as_str().unwrap())
        .collect();
    assert_eq!(got, want);
    let gone = call(
        &engine,
        "code.delete_repos",
        json!({"paths": [rb, "/no/such/repo"]}),
    );
    assert_eq!(gone["deleted"], json!([rb]));
    assert_eq!(gone["not_found"], json!(["/no/such/repo"]));
    let list = call(&engine, "code.list_repos", json!({}));
    assert_eq!(list["repos"].as_array().unwrap().len(), 1);
    assert!(!db_path(engine.home(), Path::new(&rb)).exists());
    // Queries on a deleted index rebuild it, saying so.
    let v = search(&engine, &rb, "X");
    assert_eq!(hit_names(&v), ["X"]);
    assert!(
        v["warnings"][0]
            .as_str()
            .unwrap()
            .contains("indexed it now"),
        "{v}"
    );
    let all = call(&engine, "code.delete_repos", json!({"all": true}));
    assert_eq!(all["deleted"].as_array().unwrap().len(), 2);
    let left: Vec<_> = std::fs::read_dir(engine.home().join("code"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(left.is_empty(), "nothing of the indexes is left: {left:?}");
    assert!(
        call(&engine, "code.list_repos", json!({}))["repos"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    assert_eq!(
        call_err(&engine, "code.delete_repos", json!({})).code(),
        "invalid_request"
    );
}

#[test]
fn real_git_repository_with_nested_gitignore() {
    let (_home, engine) = engine();
    let dir = tempfile::tempdir().unwrap();
    let root_path = dir.path();
    git_at(root_path, &["init", "-q", "-b", "main"], 1_700_000_000);
    write(root_path, "pkg/.gitignore", "secret.py\n");
    write(root_path, "pkg/secret.py", "def hidden_fn(): pass\n");
    write(root_path, "pkg/visible.py", "def visible_fn(): pass\n");
    write(
        root_path,
        "main.go",
        "package main\n\n// main runs.\nfunc main() { serve() }\n\nfunc serve() {}\n",
    );
    git_at(root_path, &["add", "."], 1_700_000_000);
    git_at(
        root_path,
        &[
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "commit",
            "-qm",
            "init",
        ],
        1_700_000_000,
    );
    let root = p(root_path);
    let out = call(&engine, "code.index_repository", json!({"path": root}));
    assert_eq!(out["stats"]["files"], 2, "{out}");
    assert!(hit_names(&search(&engine, &root, "hidden_fn")).is_empty());
    assert_eq!(
        hit_names(&search(&engine, &root, "visible")),
        ["visible_fn"]
    );
    let o = call(&engine, "code.get_overview", json!({"path": root}));
    let entry: Vec<&str> = o["entry_points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert!(entry.contains(&"main"), "{o}");
}

/// Every use of a name is a reference, each at its own line: several in one function,
/// inside annotations and subscripted generics, through a module (`defs.Box`), in an
/// `except` clause, an `isinstance` check and a decorator.
#[test]
fn every_python_use_of_a_class_is_a_reference_at_its_line() {
    let (_home, engine) = engine();
    let dir = tempfile::tempdir().unwrap();
    let r = dir.path();
    write(
        r,
        "pkg/defs.py",
        "class Box(Exception):\n    pass\n\n\ndef boxed(f):\n    return f\n",
    );
    write(
        r,
        "pkg/use.py",
        "from pkg import defs\n         from pkg.defs import Box, boxed\n         \n         \n         @boxed\n         def f(x):\n         \x20   a: Box = x\n         \x20   b: dict[str, list[Box]] = {}\n         \x20   c: defs.Box = x\n         \x20   d: list[defs.Box] = []\n         \x20   if isinstance(x, Box):\n         \x20       pass\n         \x20   try:\n         \x20       pass\n         \x20   except Box:\n         \x20       pass\n         \x20   except (defs.Box) as e:\n         \x20       pass\n         \x20   return a, b, c, d, Box()\n         \n         \n         def g(y: Box, z: defs.Box) -> list[defs.Box]:\n         \x20   return [y, z]\n",
    );
    let root = p(r);
    call(&engine, "code.index_repository", json!({"path": root}));
    let lines_of = |name: &str| -> Vec<(i64, String)> {
        let id = search(&engine, &root, name)["hits"][0]["id"]
            .as_i64()
            .unwrap();
        let found = call(
            &engine,
            "code.get_references",
            json!({"path": root, "id": id}),
        );
        let mut out: Vec<(i64, String)> = found["references"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| {
                (
                    x["line"].as_i64().unwrap(),
                    x["kind"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        out.sort();
        out
    };
    let lines: Vec<i64> = lines_of("Box").iter().map(|(l, _)| *l).collect();
    assert_eq!(
        lines,
        [2, 7, 8, 9, 10, 11, 15, 17, 19, 22, 22],
        "{:?}",
        lines_of("Box")
    );
    assert_eq!(
        lines_of("boxed"),
        [(2, "import".to_string()), (5, "call".to_string())]
    );
    // What `f` depends on lists each dependency once, however many lines use it.
    let f = search(&engine, &root, "f")["hits"][0]["id"]
        .as_i64()
        .unwrap();
    let deps = call(
        &engine,
        "code.get_dependencies",
        json!({"path": root, "id": f}),
    );
    let listed: Vec<(String, String)> = deps["dependencies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["to_name"].as_str().unwrap().to_string(),
                d["kind"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let distinct: std::collections::BTreeSet<&(String, String)> = listed.iter().collect();
    assert_eq!(distinct.len(), listed.len(), "{deps}");
    assert!(
        listed.contains(&("Box".into(), "type_ref".into())),
        "{deps}"
    );
}

/// The overview is kept on the index's handle and answered again while nothing it was
/// made from changed; a write to the index (by this engine or another), or an edit of a
/// manifest (which no index run needs to see), gives a new one at once.
#[test]
fn an_overview_is_answered_again_until_the_index_or_a_manifest_changes() {
    let (home, engine) = engine();
    let dir = tempfile::tempdir().unwrap();
    let r = dir.path();
    let script = |name: &str| {
        format!(
            "[project]\nname = \"widget\"\n\n[project.scripts]\n{name} = \"widget.cli:console_main\"\n"
        )
    };
    write(r, "pyproject.toml", script("widget"));
    write(
        r,
        "src/widget/cli.py",
        "def console_main():\n    return 0\n",
    );
    let root = p(r);
    call(&engine, "code.index_repository", json!({"path": root}));
    let overview = |engine: &Engine| call(engine, "code.get_overview", json!({"path": root}));
    let names = |o: &Value| -> Vec<String> {
        o["entry_points"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["name"].as_str().unwrap().to_string())
            .collect()
    };
    let first = overview(&engine);
    assert_eq!(names(&first), ["widget"], "{first}");
    assert_eq!(overview(&engine), first);

    // A manifest edited, the index untouched.
    write(r, "pyproject.toml", script("gadget"));
    let edited = overview(&engine);
    assert_eq!(names(&edited), ["gadget"], "{edited}");
    assert_eq!(edited["directories"], first["directories"]);

    // The index written by this engine: a new file with a type.
    write(
        r,
        "lib/shapes.py",
        "class Circle:\n    pass\n\n\nclass Square(Circle):\n    pass\n",
    );
    call(&engine, "code.index_repository", json!({"path": root}));
    let grown = overview(&engine);
    let dirs = |o: &Value| -> Vec<String> {
        o["directories"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["path"].as_str().unwrap().to_string())
            .collect()
    };
    assert!(dirs(&grown).contains(&"lib".to_string()), "{grown}");
    assert_eq!(grown["top_types"][0]["name"], "Circle", "{grown}");

    // ... and by another engine on the same data root (another process, as the CLI
    // beside an MCP server).
    let other = Engine::open_at(home.path()).unwrap();
    std::fs::remove_file(r.join("lib/shapes.py")).unwrap();
    call(&other, "code.index_repository", json!({"path": root}));
    let shrunk = overview(&engine);
    assert!(!dirs(&shrunk).contains(&"lib".to_string()), "{shrunk}");
    assert_eq!(shrunk["top_types"], json!([]), "{shrunk}");
}

#[test]
fn overview_names_real_entry_points_counts_docs_and_sets_samples_apart() {
    let (_home, engine) = engine();
    let dir = tempfile::tempdir().unwrap();
    let r = dir.path();
    write(
        r,
        "pyproject.toml",
        "[project]\nname = \"widget\"\n\n[project.scripts]\nwidget = \"widget.cli:console_main\"\n",
    );
    write(
        r,
        "setup.cfg",
        "[metadata]\nname = widget\n\n[options.entry_points]\nconsole_scripts =\n    wcfg = widget.cli:helper\n",
    );
    write(
        r,
        "src/widget/cli.py",
        "def console_main():\n    return 0\n\n\ndef helper():\n    pass\n",
    );
    write(
        r,
        "src/widget/__init__.py",
        "from .cli import console_main\n",
    );
    write(
        r,
        "src/widget/__main__.py",
        "from .cli import console_main\n\nconsole_main()\n",
    );
    // Every symbol of a file called main is no entry point; its `main` would be.
    write(
        r,
        "main.py",
        "def create():\n    pass\n\n\ndef wire():\n    pass\n",
    );
    write(
        r,
        "Cargo.toml",
        "[package]\nname = \"spin\"\n\n[[bin]]\nname = \"spinctl\"\npath = \"tools/ctl.rs\"\n",
    );
    write(r, "src/main.rs", "fn main() {}\n");
    write(r, "tools/ctl.rs", "fn helper() {}\n\nfn main() {}\n");
    write(
        r,
        "packages/web/package.json",
        r#"{"name": "@acme/web", "bin": {"web": "./bin/web.js"}, "main": "dist/index.js"}"#,
    );
    write(r, "packages/web/bin/web.js", "function main() {}\nmain()\n");
    write(r, "cmd/server/main.go", "package main\n\nfunc main() {}\n");
    // Tests, fixtures and examples: no entry points, no top types, counted apart.
    write(
        r,
        "tests/test_cli.py",
        "class Probe:\n    pass\n\n\ndef main():\n    pass\n",
    );
    write(
        r,
        "testing/example_scripts/acceptance/conftest.py",
        "class Fixture:\n    pass\n",
    );
    write(
        r,
        "examples/demo.py",
        "class Demo:\n    pass\n\n\ndef main():\n    pass\n",
    );
    write(
        r,
        "examples/package.json",
        r#"{"name": "demo", "bin": "demo.js"}"#,
    );
    // Docs where projects keep them.
    write(r, "README.rst", "Widget\n======\n");
    write(r, "CONTRIBUTING.md", "## PRs\n");
    write(r, "doc/en/index.rst", "Index\n=====\n");
    write(r, "doc/en/how-to/spin.rst", "Spin\n====\n");
    let root = p(r);
    call(&engine, "code.index_repository", json!({"path": root}));
    let o = call(&engine, "code.get_overview", json!({"path": root}));
    let entry: Vec<String> = o["entry_points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            format!(
                "{} {} {} {}:{}",
                e["name"].as_str().unwrap(),
                e["declared_in"].as_str().unwrap(),
                e["target"].as_str().unwrap_or("-"),
                e["path"].as_str().unwrap_or("-"),
                e["start_line"]
                    .as_i64()
                    .map_or("-".into(), |l| l.to_string()),
            )
        })
        .collect();
    assert_eq!(
        entry,
        [
            "spinctl Cargo.toml tools/ctl.rs tools/ctl.rs:3",
            "spin Cargo.toml src/main.rs src/main.rs:1",
            "web packages/web/package.json ./bin/web.js packages/web/bin/web.js:1",
            "main packages/web/package.json dist/index.js packages/web/dist/index.js:-",
            "widget pyproject.toml widget.cli:console_main src/widget/cli.py:1",
            "wcfg setup.cfg widget.cli:helper src/widget/cli.py:5",
            "widget python -m - src/widget/__main__.py:-",
            "main main - cmd/server/main.go:3",
        ],
        "{o:#}"
    );
    let ids: Vec<bool> = o["entry_points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e.get("id").is_some())
        .collect();
    assert_eq!(ids, [true, true, true, false, true, true, false, true]);
    let dirs: Vec<&str> = o["directories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["path"].as_str().unwrap())
        .collect();
    assert_eq!(
        dirs,
        [
            ".",
            "cmd/server",
            "packages/web",
            "src",
            "src/widget",
            "tests",
            "tools"
        ]
    );
    let samples: Vec<(&str, u64)> = o["samples"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["path"].as_str().unwrap(), d["files"].as_u64().unwrap()))
        .collect();
    assert_eq!(
        samples,
        [("examples", 1), ("testing/example_scripts", 1)],
        "{o:#}"
    );
    let top: Vec<&str> = o["top_types"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert!(top.is_empty(), "only test and sample classes here: {top:?}");
    assert_eq!(o["docs"], json!({".": 2, "doc": 2}));
    assert!(o.get("more_directories").is_none());
}

#[test]
fn an_agent_reads_an_outline_as_lines() {
    let (_home, engine) = engine();
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "shapes.py",
        "LIMIT = 3\n\n\nclass Shape:\n    \"\"\"A shape.\"\"\"\n\n    def area(self) -> float:\n        return 0.0\n\n    def scale(self, by: float) -> \"Shape\":\n        return self\n\n\ndef build(kind: str) -> Shape:\n    return Shape()\n",
    );
    let root = p(dir.path());
    call(&engine, "code.index_repository", json!({"path": root}));
    let full = call(
        &engine,
        "code.get_file_symbols",
        json!({"path": root, "file": "shapes.py"}),
    );
    let id = |name: &str| {
        let found = call(
            &engine,
            "code.search_symbols",
            json!({"path": root, "query": name}),
        );
        found["hits"][0]["id"].as_i64().unwrap()
    };
    let text = cc_search::agent::answer("code.get_file_symbols", &full.to_string(), None).unwrap();
    let answer: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        answer,
        json!({
            "f": "shapes.py",
            "syms": [
                format!("1 const LIMIT #{}", id("LIMIT")),
                format!("4-11 class Shape #{}", id("Shape")),
                format!("  7-8 method area #{}", id("area")),
                format!("  10-11 method scale #{}", id("scale")),
                format!("14-15 fn build #{}", id("build")),
            ]
        }),
        "{text}"
    );
    // Less than half the full result.
    assert!(text.len() < full.to_string().len() / 2, "{text}");
}

#[test]
fn an_outline_names_the_trait_each_impl_implements() {
    let (_home, engine) = engine();
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "router.rs",
        "pub struct Router<S> {\n    state: S,\n}\n\nimpl<S> Clone for Router<S>\nwhere\n    S: Clone,\n{\n    fn clone(&self) -> Self {\n        Router { state: self.state.clone() }\n    }\n}\n\nimpl<S> Router<S> {\n    pub fn new(state: S) -> Self {\n        Router { state }\n    }\n}\n",
    );
    let root = p(dir.path());
    call(&engine, "code.index_repository", json!({"path": root}));
    let full = call(
        &engine,
        "code.get_file_symbols",
        json!({"path": root, "file": "router.rs"}),
    );
    let text = cc_search::agent::answer("code.get_file_symbols", &full.to_string(), None).unwrap();
    let answer: Value = serde_json::from_str(&text).unwrap();
    let lines: Vec<String> = answer["syms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            let l = l.as_str().unwrap();
            l[..l.rfind(" #").unwrap()].to_string()
        })
        .collect();
    assert_eq!(
        lines,
        [
            "1-3 struct Router",
            "  2 var state",
            "5-12 impl<S> Clone for Router<S>",
            "  9-11 method clone",
            "14-18 impl<S> Router<S>",
            "  15-17 method new",
        ],
        "{text}"
    );
}

#[test]
fn output_is_deterministic_across_runs() {
    let run = || {
        let (_home, engine) = engine();
        let dir = project();
        let root = p(dir.path());
        call(&engine, "code.index_repository", json!({"path": root}));
        let mut out = Vec::new();
        for (op, params) in [
            (
                "code.search_symbols",
                json!({"path": root, "query": "user OR helper"}),
            ),
            (
                "code.get_file_symbols",
                json!({"path": root, "file": "src/user_service.ts"}),
            ),
            ("code.get_overview", json!({"path": root})),
            ("code.get_symbol_detail", json!({"path": root, "id": 2})),
            ("code.get_references", json!({"path": root, "id": 1})),
        ] {
            let name = Path::new(&root)
                .file_name()
                .unwrap()
                .to_str()
                .unwrap()
                .to_string();
            out.push(
                engine
                    .call(op, &params.to_string())
                    .unwrap()
                    .replace(&root, "ROOT")
                    .replace(&name, "NAME"),
            );
        }
        out
    };
    assert_eq!(run(), run());
}

#[test]
fn concurrent_reads_during_indexing() {
    let (_home, engine) = engine();
    let dir = tempfile::tempdir().unwrap();
    for i in 0..300 {
        write(
            dir.path(),
            &format!("src/f{i:03}.ts"),
            format!(
                "export function fn_{i}(a: number) {{ return helper_{i}(a); }}\nexport class Class{i} {{ m() {{}} }}\n"
            ),
        );
    }
    write(
        dir.path(),
        "src/seed.ts",
        "export function seedFunction() {}\n",
    );
    let root = p(dir.path());
    call(
        &engine,
        "code.update_files",
        json!({"path": root, "files": ["src/seed.ts"]}),
    );
    std::thread::scope(|s| {
        let indexer = s.spawn(|| call(&engine, "code.index_repository", json!({"path": root})));
        let mut reads = 0;
        while !indexer.is_finished() || reads == 0 {
            let v = search(&engine, &root, "seedFunction");
            assert_eq!(hit_names(&v), ["seedFunction"]);
            reads += 1;
        }
        let out = indexer.join().unwrap();
        assert_eq!(out["stats"]["files"], 301);
    });
    assert_eq!(
        search(&engine, &root, "Class299")["hits"][0]["kind"],
        "class"
    );
    // A large re-index (the FTS index filled in bulk) replaces every changed file's
    // symbols in the search index.
    for i in 0..300 {
        write(
            dir.path(),
            &format!("src/f{i:03}.ts"),
            format!("export function renamed_{i}() {{}}\n"),
        );
    }
    let out = call(&engine, "code.index_repository", json!({"path": root}));
    assert_eq!(out["changed"], 300, "{out}");
    assert!(hit_names(&search(&engine, &root, "Class299")).is_empty());
    assert!(hit_names(&search(&engine, &root, "fn_7")).is_empty());
    assert_eq!(
        hit_names(&search(&engine, &root, "renamed_299")),
        ["renamed_299"]
    );
    assert_eq!(
        hit_names(&search(&engine, &root, "seedFunction")),
        ["seedFunction"]
    );
    let all = call(
        &engine,
        "code.search_symbols",
        json!({"path": root, "query": "renamed*", "limit": 1000}),
    );
    assert_eq!(all["hits"].as_array().unwrap().len(), 300);
}

#[test]
fn operations_are_in_the_table_and_mcp() {
    let names: Vec<&str> = cc_search::OPERATIONS.iter().map(|o| o.name).collect();
    for op in [
        "code.index_repository",
        "code.index_status",
        "code.get_overview",
        "code.get_file_symbols",
        "code.get_symbol_detail",
        "code.search_symbols",
        "code.get_references",
        "code.get_dependencies",
        "code.update_files",
        "code.list_repos",
        "code.delete_repos",
    ] {
        assert!(names.contains(&op), "{op} missing");
    }
    // As MCP tools, confined to the project, defaulting to it.
    let (_home, engine) = engine();
    let dir = project();
    let server = cc_search::mcp::Server::new(
        std::sync::Arc::new(engine),
        cc_search::mcp::ServerOptions {
            roots: vec![dir.path().to_path_buf()],
            tools: vec!["all".into()],
            structured: Some(true),
            ..Default::default()
        },
    )
    .unwrap();
    let request = |method: &str, params: Value| -> Value {
        let message = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
        serde_json::from_str(&server.handle(&message.to_string()).unwrap()).unwrap()
    };
    request(
        "initialize",
        json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}),
    );
    let tools = request("tools/list", json!({}));
    let tool_names: Vec<&str> = tools["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert!(
        tool_names.contains(&"code_search_symbols"),
        "{tool_names:?}"
    );
    assert!(tool_names.contains(&"code_index_repository"));
    let indexed = request(
        "tools/call",
        json!({"name": "code_index_repository", "arguments": {}}),
    );
    assert_ne!(indexed["result"]["isError"], true, "{indexed}");
    assert_eq!(
        indexed["result"]["structuredContent"]["stats"]["files"], 6,
        "{indexed}"
    );
    let found = request(
        "tools/call",
        json!({"name": "code_search_symbols", "arguments": {"query": "html"}}),
    );
    assert_eq!(
        found["result"]["structuredContent"]["hits"][0]["name"], "HTMLParser",
        "{found}"
    );
    let outside = request(
        "tools/call",
        json!({"name": "code_get_overview", "arguments": {"path": "/"}}),
    );
    assert_eq!(outside["result"]["isError"], true, "{outside}");
}

#[test]
fn tsx_and_jsx_use_the_jsx_grammars() {
    let tsx = "import React from 'react';\n\n/** A button. */\nexport const Button = ({ label }: Props) => <button onClick={() => track(label)}>{label}</button>;\n\nexport function App() {\n  return <Button label=\"x\" />;\n}\n";
    assert_eq!(
        dump("Button.tsx", tsx),
        [
            r#"fn Button 4-4 sig=Some("const Button = ({ label }: Props)") doc=Some("A button.") refs=[type_ref:Props@4 call:track@4]"#,
            r#"fn App 6-8 sig=Some("function App()") doc=None refs=[call:Button@7]"#,
            r#"top refs=[import:React@1] imports=["react"]"#,
        ]
    );
    let jsx =
        "const Card = (props) => <div>{format(props.title)}</div>;\nmodule.exports = { Card };\n";
    assert_eq!(
        dump("card.jsx", jsx),
        [
            r#"fn Card 1-1 sig=Some("const Card = (props)") doc=None refs=[call:format@1]"#,
            r#"top refs=[] imports=[]"#,
        ]
    );
}

#[test]
fn max_file_size_comes_from_the_project_config() {
    let (_home, engine) = engine();
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "small.rs", "fn small_fn() {}\n");
    write(
        dir.path(),
        "big.rs",
        format!("fn big_fn() {{}}\n// {}\n", "x".repeat(4000)),
    );
    let limit = |max: u64| {
        write(
            dir.path(),
            ".cc-search.json",
            format!(r#"{{"indexer": {{"max_file_size": {max}}}}}"#),
        )
    };
    limit(1000);
    let root = p(dir.path());
    let out = call(&engine, "code.index_repository", json!({"path": root}));
    assert_eq!(out["stats"]["files"], 1, "{out}");
    assert!(hit_names(&search(&engine, &root, "big_fn")).is_empty());
    // The walk says why it skips the file too, and counts it.
    assert_eq!(out["skipped"], 1, "{out}");
    assert_eq!(
        out["warnings"],
        json!(["big.rs: 4019 bytes, over the 1000 byte limit, skipped"]),
        "{out}"
    );
    // update_files says why it skips the file.
    let out = call(
        &engine,
        "code.update_files",
        json!({"path": root, "files": ["big.rs"]}),
    );
    assert_eq!(out["skipped"], 1);
    assert!(
        out["warnings"][0]
            .as_str()
            .unwrap()
            .contains("over the 1000 byte limit"),
        "{out}"
    );
    // A file indexed under a larger limit leaves the index when the limit drops.
    limit(100_000);
    call(&engine, "code.index_repository", json!({"path": root}));
    assert_eq!(hit_names(&search(&engine, &root, "big_fn")), ["big_fn"]);
    limit(1000);
    let out = call(&engine, "code.index_repository", json!({"path": root}));
    assert_eq!(
        (&out["deleted"], &out["skipped"]),
        (&json!(1), &json!(1)),
        "{out}"
    );
    assert!(hit_names(&search(&engine, &root, "big_fn")).is_empty());
}

#[test]
fn an_index_run_lists_at_most_a_hundred_warnings_and_counts_every_skipped_file() {
    let (_home, engine) = engine();
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "ok.rs", "fn ok() {}\n");
    for i in 0..130 {
        write(
            dir.path(),
            &format!("gen/big{i:03}.rs"),
            "// generated\n".repeat(10),
        );
    }
    write(
        dir.path(),
        ".cc-search.json",
        r#"{"indexer": {"max_file_size": 100}}"#,
    );
    let root = p(dir.path());
    let out = call(&engine, "code.index_repository", json!({"path": root}));
    assert_eq!(
        (&out["skipped"], &out["stats"]["files"]),
        (&json!(130), &json!(1)),
        "{out}"
    );
    let warnings = out["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 101, "{out}");
    assert!(
        warnings[0]
            .as_str()
            .unwrap()
            .starts_with("gen/big000.rs: 130 bytes"),
        "{out}"
    );
    assert_eq!(warnings[100], "… and 30 more warnings", "{out}");
}

#[test]
fn a_budget_cut_detail_lists_only_the_files_of_the_callers_it_keeps() {
    let (_home, engine) = engine();
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "src/target.py", "def target():\n    pass\n");
    for i in 0..40 {
        write(
            dir.path(),
            &format!("src/caller_with_a_long_file_name_{i:02}.py"),
            format!("from target import target\n\ndef caller_{i:02}():\n    target()\n"),
        );
    }
    let root = p(dir.path());
    call(&engine, "code.index_repository", json!({"path": root}));
    let hit = search(&engine, &root, "target");
    let id = hit["hits"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["name"] == "target" && h["kind"] == "fn")
        .unwrap()["id"]
        .clone();
    let full = call(
        &engine,
        "code.get_symbol_detail",
        json!({"path": root, "id": id}),
    );
    // Each caller's file imports it and calls it.
    assert_eq!(full["called_by"].as_array().unwrap().len(), 80, "{full}");
    assert_eq!(
        agent_view("code.get_symbol_detail", &full, None)["_f"]
            .as_array()
            .unwrap()
            .len(),
        40
    );
    let cut = agent_view("code.get_symbol_detail", &full, Some(300));
    assert_eq!(cut["truncated"], true, "{cut}");
    assert!(cut.to_string().len() <= 300 * 4, "{cut}");
    let kept = cut["called_by"].as_array().unwrap();
    assert!(!kept.is_empty() && kept.len() < 80, "{cut}");
    // Every listed file is one a kept caller points at, and every index is valid.
    let files = cut["_f"].as_array().unwrap();
    let used: std::collections::BTreeSet<u64> =
        kept.iter().map(|c| c["fi"].as_u64().unwrap()).collect();
    assert_eq!(used.len(), files.len(), "{cut}");
    assert!(used.iter().all(|&i| (i as usize) < files.len()), "{cut}");
}

/// The MCP server brings the code index up to date before every answer. While nothing
/// changed it does so without walking the tree or writing (so it answers even while
/// another process holds the index's writer lock), and every change — an edit, a new
/// directory, a `.gitignore` — is still seen by the very next call.
#[cfg(target_os = "linux")]
#[test]
fn a_server_answers_without_walking_while_nothing_changed_and_sees_every_change() {
    let (home, engine) = engine();
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "pkg/a.py", "def alpha():\n    pass\n");
    let server = std::sync::Arc::new(
        cc_search::mcp::Server::new(
            std::sync::Arc::new(engine),
            cc_search::mcp::ServerOptions {
                roots: vec![dir.path().to_path_buf()],
                ..Default::default()
            },
        )
        .unwrap(),
    );
    let names = |server: &cc_search::mcp::Server, query: &str| -> Vec<String> {
        let message = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "code_search_symbols", "arguments": {"query": query}}});
        let reply: Value =
            serde_json::from_str(&server.handle(&message.to_string()).unwrap()).unwrap();
        let text = reply["result"]["content"][0]["text"].as_str().unwrap();
        let answer: Value = serde_json::from_str(text).unwrap();
        assert!(answer.get("warnings").is_none(), "{answer}");
        answer["hits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| format!("{}:{}", h["f"].as_str().unwrap_or("?"), h["n"]))
            .collect()
    };
    assert_eq!(names(&server, "alpha"), [r#"pkg/a.py:"alpha""#]);
    assert_eq!(names(&server, "alpha"), [r#"pkg/a.py:"alpha""#]);

    // Another process holds the writer lock: a run that walked would wait for it.
    let db = std::fs::read_dir(home.path().join("code"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "db"))
        .unwrap();
    let lock = std::fs::File::create(format!("{}-writer", db.display())).unwrap();
    lock.lock().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let asking = std::sync::Arc::clone(&server);
    std::thread::spawn(move || tx.send(names(&asking, "alpha")).unwrap());
    let answered = rx.recv_timeout(std::time::Duration::from_secs(60));
    lock.unlock().unwrap();
    assert_eq!(
        answered.expect("an unchanged tree was walked and written again"),
        [r#"pkg/a.py:"alpha""#]
    );

    // Each change, seen by the next call: edits of files already there (re-indexed
    // alone, without a walk), then new, moved and removed files and directories.
    write(dir.path(), "pkg/a.py", "def alpha_two():\n    pass\n");
    assert_eq!(names(&server, "alpha_two"), [r#"pkg/a.py:"alpha_two""#]);
    write(dir.path(), "notes.txt", "not code\n");
    assert_eq!(names(&server, "alpha_two"), [r#"pkg/a.py:"alpha_two""#]);
    write(dir.path(), "notes.txt", "still not code\n");
    write(dir.path(), "pkg/a.py", "def alpha_three():\n    pass\n");
    assert_eq!(names(&server, "alpha_three"), [r#"pkg/a.py:"alpha_three""#]);
    assert!(names(&server, "alpha_two").is_empty());
    // Even one that keeps the size and puts the recorded mtime back (which a walk tells
    // only while that mtime is recent).
    let a = dir.path().join("pkg/a.py");
    let old_mtime = std::fs::metadata(&a).unwrap().modified().unwrap();
    write(dir.path(), "pkg/a.py", "def alpha_sixty():\n    pass\n");
    std::fs::File::options()
        .write(true)
        .open(&a)
        .unwrap()
        .set_modified(old_mtime)
        .unwrap();
    assert_eq!(names(&server, "alpha_sixty"), [r#"pkg/a.py:"alpha_sixty""#]);
    write(dir.path(), "pkg/sub/deeper/b.py", "def beta():\n    pass\n");
    assert_eq!(names(&server, "beta"), [r#"pkg/sub/deeper/b.py:"beta""#]);
    write(
        dir.path(),
        "pkg/sub/deeper/c.py",
        "def gamma():\n    pass\n",
    );
    assert_eq!(names(&server, "gamma"), [r#"pkg/sub/deeper/c.py:"gamma""#]);
    write(dir.path(), ".gitignore", "pkg/sub/\n");
    assert!(names(&server, "gamma").is_empty());
    std::fs::remove_file(dir.path().join(".gitignore")).unwrap();
    assert_eq!(names(&server, "gamma"), [r#"pkg/sub/deeper/c.py:"gamma""#]);
    std::fs::rename(dir.path().join("pkg/sub"), dir.path().join("moved")).unwrap();
    assert_eq!(names(&server, "gamma"), [r#"moved/deeper/c.py:"gamma""#]);
    std::fs::remove_file(dir.path().join("moved/deeper/c.py")).unwrap();
    assert!(names(&server, "gamma").is_empty());
}

/// The trait and the type an `impl` names are one reference each — `implements` and
/// `type_ref` — written plainly, through a path or with type arguments (whose own names
/// are references too): `code.get_references` of a trait lists each implementor once.
#[test]
fn an_impl_refers_to_its_trait_and_type_once_each() {
    let src = "struct Json<T>(T);\nstruct S;\n\nimpl<T> FromRequestParts<S> for Json<T> {}\n\nimpl axum_core::Debug for S {}\n";
    let lines = dump("src/lib.rs", src);
    let impls: Vec<&str> = lines
        .iter()
        .map(String::as_str)
        .filter(|l| l.starts_with("impl "))
        .collect();
    assert_eq!(
        impls,
        [
            r#"impl Json 4-4 sig=Some("impl<T> FromRequestParts<S> for Json<T>") doc=None refs=[implements:FromRequestParts@4 type_ref:Json@4 type_ref:T@4 type_ref:S@4]"#,
            r#"impl S 6-6 sig=Some("impl axum_core::Debug for S") doc=None refs=[implements:Debug@6 type_ref:S@6]"#,
        ],
        "{lines:#?}"
    );
}
