//! The tree walk shared by every language: definitions become a tree of
//! [`ExtractedSymbol`]s, references found inside a definition belong to it.

use std::collections::BTreeSet;

use tree_sitter::{Node, Parser};

use super::text::collapse_whitespace;
use super::{RefKind, SymbolKind};

/// Longest signature stored, in bytes (detail views show it whole).
const MAX_SIGNATURE_BYTES: usize = 400;
/// Longest doc comment stored, in bytes.
const MAX_DOC_BYTES: usize = 4000;
/// Longest name stored, in bytes; longer names are not symbols worth indexing.
const MAX_NAME_BYTES: usize = 200;
/// Most names whose types one scope records ([`Context::bind`], [`Context::bind_field`]).
const MAX_BINDINGS: usize = 256;

/// `name` trimmed, when it can be bound to a type: not empty, at most [`MAX_NAME_BYTES`].
fn bindable(name: &str) -> Option<&str> {
    let name = name.trim();
    (!name.is_empty() && name.len() <= MAX_NAME_BYTES).then_some(name)
}

/// A symbol found in a file, with the symbols defined inside it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExtractedSymbol {
    /// Its name.
    pub name: String,
    /// What it is.
    pub kind: SymbolKind,
    /// First line, from 1.
    pub line_start: u32,
    /// Last line, from 1.
    pub line_end: u32,
    /// The declaration up to its body, whitespace collapsed.
    pub signature: Option<String>,
    /// Its doc comment (or docstring), without comment markers.
    pub doc_comment: Option<String>,
    /// Whether it is a function or method that only declares what others implement (see
    /// [`LanguageExtractor::declares`]).
    pub declaration: bool,
    /// The conditions under which it is compiled (see [`LanguageExtractor::guard`]).
    pub guard: Option<String>,
    /// The type of the value it gives, when its body or its documentation says it and
    /// its signature does not (see [`LanguageExtractor::gives`]): a qualifier (see
    /// [`ExtractedRef::qual`]).
    pub gives: Option<String>,
    /// The modules a class or module mixes in where its signature does not say it
    /// (Ruby's `include M` in its body): qualifiers (see [`ExtractedRef::qual`]), in the
    /// order written.
    pub mixins: Vec<String>,
    /// For a class (or a Ruby module), its fields of known class as its methods assign
    /// them (`@src = StringScanner.new`), by name: what a method written in another of
    /// its definitions (a class reopened in another file) or in a class that extends it
    /// reads there.
    pub fields: Vec<(String, String)>,
    /// For a class (or a Ruby module), in a language whose values are [typed by
    /// use](LanguageExtractor::typed_by_use): each value of no known class its methods
    /// call members on, with those members (`el` → `attr children type`), by name: what
    /// its other definitions (a class reopened in another file) call on a value of that
    /// name tells its class too.
    pub uses: Vec<(String, String)>,
    /// Whether it is a method of its class itself, not of the class's instances, where
    /// its signature does not say it (see [`LanguageExtractor::of_class`]).
    pub of_class: bool,
    /// Symbols defined inside it.
    pub children: Vec<ExtractedSymbol>,
    /// What it refers to: each use, once per line (kind, name and qualifier alike).
    pub references: Vec<ExtractedRef>,
}

/// A reference from a symbol (or from the file's top level) to a name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExtractedRef {
    /// The name referred to (the last segment of a path: `b` for `a.b()`).
    pub to_name: String,
    /// How it is referred to.
    pub kind: RefKind,
    /// Line, from 1.
    pub line: u32,
    /// What the name is reached through, when not bare: the receiver or path written
    /// before it, its segments joined by `.` (`a.b` for `a.b.c()`, `a::b::c()`), `self`,
    /// `this`, `Self` and `cls` replaced by the enclosing type's name, a local of a
    /// declared type by the type; `F()` (`T.m()`, `F().g()`) for what a call returns:
    /// `x.c()` after `x := F(…)`, `F(…).c()`; `?` for an expression that is not a plain
    /// path or call (`a[0].c()`), `!` for a Rust macro, `new()` for a constructor call
    /// (`new X()`: the class); `^C` for what the types the class `C` extends have
    /// (`super().c()`, `super.c()` in a method of `C`), `^C.m` for a bare `super` in
    /// the method `m` of `C` (Ruby's: the bases' `m`). A call on a local, parameter or
    /// field of no known type (Ruby's `@x`, written as its name), in a language whose
    /// values are [typed by use](LanguageExtractor::typed_by_use), is followed by the
    /// members the methods of its class (the function's, outside a class) call on that
    /// name, sorted, between braces, when they are two or more: `el{attr children
    /// type}`, `@io{read write}` (a field with fewer is `?`). A path written from the
    /// top level starts with `::` (Ruby's `::File`, not `Zip::File`). `[]` for an element
    /// of a collection of no known class (Ruby's `xs.map(&:name)`): only its class could
    /// say which `name`, never the project's one method of the name.
    pub qual: Option<String>,
}

/// A name an import brings into a file: `local` stands for `name` of `module`, or for
/// the module itself when `name` is `None`. `local` is `*` for a glob import (`use a::*`,
/// `from a import *`, `#include "a.h"`). The module is written as in the source
/// (`crate::code::db`, `..util`, `./user`, `"net/http"`, `a.b.C`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    /// The name the file uses.
    pub local: String,
    /// The module it comes from, as written.
    pub module: String,
    /// The name in the module; `None` for the module itself.
    pub name: Option<String>,
}

/// Everything extracted from one file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExtractedFile {
    /// Top-level symbols (each with its children).
    pub symbols: Vec<ExtractedSymbol>,
    /// References outside any symbol (imports, top-level calls).
    pub references: Vec<ExtractedRef>,
    /// The modules the file imports, as written (`./user`, `os.path`, `crate::a::b`):
    /// stored as they are (`file_imports`).
    pub imports: Vec<String>,
    /// The names the file's imports bind (what reference resolution follows).
    pub bindings: Vec<Binding>,
}

/// What a language contributes to the index: its grammar, and which nodes are
/// definitions and references. The tree walk, storage, search and output are shared
/// ([`extract_source`]), so a new language is one implementation of this trait
/// added to [`super::extractors`] (and, for its references to link, a linker: see
/// docs/CODE.md, "Adding a language").
pub trait LanguageExtractor: Send + Sync {
    /// Language name as stored (`rust`, `typescript`, …).
    fn name(&self) -> &'static str;
    /// The manifests (file names) that declare this language's programs, for
    /// `code.get_overview`'s entry points.
    fn manifests(&self) -> &'static [&'static str] {
        &[]
    }
    /// The commands the manifest at `manifest` (relative to the repository `root`, one of
    /// [`manifests`](LanguageExtractor::manifests)) declares in `text`. A malformed
    /// manifest declares none.
    fn entry_points(
        &self,
        _manifest: &str,
        _text: &str,
        _root: &std::path::Path,
    ) -> Vec<DeclaredEntry> {
        Vec::new()
    }
    /// File names that make their directory a program, each with how it is run
    /// (`__main__.py`, `python -m`).
    fn main_modules(&self) -> &'static [(&'static str, &'static str)] {
        &[]
    }
    /// Whether programs start at a method named `main` rather than a function.
    fn main_is_method(&self) -> bool {
        false
    }
    /// File extensions it handles, without the dot, lowercase.
    fn extensions(&self) -> &'static [&'static str];
    /// The tree-sitter grammar for files with this extension.
    fn grammar(&self, extension: &str) -> tree_sitter::Language;
    /// The definition `node` is, if it is one.
    fn definition(&self, node: Node, cx: &Context) -> Option<Definition>;
    /// Record the references `node` makes (`Context::add_ref`, `Context::add_import`);
    /// returns whether the walk should look at its children.
    fn references(&self, node: Node, cx: &mut Context) -> bool;
    /// The doc comment of the definition at `node`, when [`LanguageExtractor::definition`]
    /// left it to this: the comments right above it by default.
    fn doc_comment(&self, node: Node, cx: &Context) -> Option<String> {
        cx.preceding_comments(node, &["comment", "line_comment", "block_comment"], &[])
    }
    /// Whether the function or method defined at `node` only declares what others
    /// implement: it has no body (a trait's or interface's method signature, an abstract
    /// method, an overload signature, a prototype), or a stub of one by the language's
    /// idiom, or it is a member of a type that only declares (a protocol). Asked only of
    /// definitions of kind `fn` or `method`, before the walk enters them
    /// (`Context::enclosing` is what encloses it). `code.search_symbols` ranks a
    /// declaration before the implementations of its name. None by default.
    fn declares(&self, _node: Node, _cx: &Context) -> bool {
        false
    }
    /// The text to parse for `source`: the same bytes at the same offsets, where the
    /// grammar needs help (C's comments inside a macro that goes on past them). The
    /// source itself by default.
    fn prepare<'s>(&self, source: &'s str) -> std::borrow::Cow<'s, str> {
        std::borrow::Cow::Borrowed(source)
    }
    /// The conditions under which the definition at `node` is compiled, when conditional
    /// compilation decides it (C's `#if`, `#ifdef`, `#else`): the linker picks, among
    /// a name's definitions, those of the configuration built. None by default.
    fn guard(&self, _node: Node, _cx: &Context) -> Option<String> {
        None
    }
    /// The type of the value the definition at `node` gives, as a qualifier (see
    /// [`ExtractedRef::qual`]), when its signature does not say it but its body or its
    /// documentation does (a Ruby method's last expression, its YARD `@return`). Asked
    /// when the walk leaves the definition, so what its body bound is known. None by
    /// default.
    fn gives(&self, _node: Node, _cx: &Context) -> Option<String> {
        None
    }
    /// The name of a second definition the one at `node` also makes, alike in all but
    /// its name (Ruby's `attr_accessor :a` makes the reader `a` and the writer `a=`).
    /// Asked when the walk leaves the definition. None by default.
    fn twin(&self, _node: Node, _cx: &Context) -> Option<String> {
        None
    }
    /// Whether the method defined at `node` is its class's own, not its instances', where
    /// its signature does not say it (Ruby's methods in `class << self`). Asked only of
    /// definitions of kind `method`. False by default.
    fn of_class(&self, _node: Node, _cx: &Context) -> bool {
        false
    }
    /// Whether its files are source code, not prose: `code.find` ranks only code.
    fn is_code(&self) -> bool {
        true
    }
    /// The extensions by which a path written in a description (`code.find`) is taken
    /// for a source file: its [`extensions`](LanguageExtractor::extensions) when it is
    /// code, none otherwise.
    fn described_extensions(&self) -> &'static [&'static str] {
        if self.is_code() {
            self.extensions()
        } else {
            &[]
        }
    }
    /// A byte range inside `node` holding source of this same language that the grammar
    /// leaves unparsed (a macro body): it is parsed on its own, and its definitions
    /// are kept when it parses without errors. None by default.
    fn embedded(&self, _node: Node, _cx: &Context) -> Option<(usize, usize)> {
        None
    }
    /// Expressions of this language inside `node` that the grammar leaves as tokens (the
    /// arguments of a Rust macro call, `assert_eq!(f(x), y)`). They are parsed on their
    /// own, wrapped as `Wrapped` says, and walked as if in place: what they refer to is
    /// referred to by the symbol the walk is in. None by default.
    fn embedded_expressions(&self, _node: Node, _cx: &Context) -> Option<Wrapped> {
        None
    }
    /// Source of this language that the code at `node` evaluates (Ruby's `module_eval
    /// <<-RUBY … RUBY` in a class's body): each text, with the byte of the file its first
    /// line is on, is parsed on its own and, when it parses, walked as if written there
    /// (what it defines is the enclosing class's). Its lines must be the file's: a text
    /// may differ from what the file writes only within a line (an interpolation
    /// filled in). None by default.
    fn evaluated(&self, _node: Node, _cx: &Context) -> Vec<(usize, String)> {
        Vec::new()
    }
    /// Where the definition at `node` starts, when before `node` itself (Ruby's member
    /// `:b` of a multi-line `class A < Struct.new(` starts at the call that makes it).
    /// None by default.
    fn starts_at<'t>(&self, _node: Node<'t>, _cx: &Context<'t>) -> Option<Node<'t>> {
        None
    }
    /// Whether a value's class may be told by what is called on it, where nothing
    /// declares it (Ruby's `el` of `def convert_p(el)`, on which the class's methods
    /// call `children` and `attr`): the calls on a local, parameter or field of no known
    /// type then carry the names of every member called on it (see
    /// [`ExtractedRef::qual`]). No by default.
    fn typed_by_use(&self) -> bool {
        false
    }
}

/// Source inside a node, and the text around it that makes it parse on its own.
#[derive(Debug, Clone)]
pub struct Wrapped {
    /// Its bytes in the source, `start..end`.
    pub start: usize,
    /// See `start`.
    pub end: usize,
    /// Written before it (on its first line: lines are counted from there).
    pub before: &'static str,
    /// Written after it.
    pub after: &'static str,
    /// When the whole does not parse: its parts, `start..end` each, to try one by one
    /// with the same text around them (a macro's arguments, where one is not an
    /// expression: `matches!(x, Some(y) if y > 0)`).
    pub parts: Vec<(usize, usize)>,
}

/// A definition recognised by a [`LanguageExtractor`].
#[derive(Debug, Clone)]
pub struct Definition {
    /// Its name.
    pub name: String,
    /// What it is.
    pub kind: SymbolKind,
    /// Its signature, when the language gives one.
    pub signature: Option<String>,
    /// Its doc comment; `None` asks for [`LanguageExtractor::doc_comment`].
    pub doc: Option<String>,
    /// The node holding the name (not reported as a reference to itself).
    pub name_node: Option<usize>,
}

struct Frame {
    node_id: usize,
    name_node: Option<usize>,
    symbol: ExtractedSymbol,
    /// The declared types of the names bound in it (parameters, typed variables,
    /// fields): `x` → `Foo` for `x: Foo`, `Foo x`, `x = Foo(…)`.
    types: Vec<(String, String)>,
    /// A function's parameter names, when its parameter list was found
    /// ([`parameter_names`]).
    params: Option<Vec<String>>,
    /// A class's fields of known type, as its methods assign them (`self.x = Foo()`).
    fields: Vec<(String, String)>,
    /// A class's attributes as its methods first assign them (Python's `self.x = …`):
    /// its members where its body declares none of the name.
    attributes: Vec<ExtractedSymbol>,
    /// The local variables of no known type it has declared so far, where the language
    /// tells a local from a call only by that (Ruby's bare `name`).
    locals: Vec<String>,
    /// The locals and parameters that copy an instance variable of no known class
    /// (`tree = @tree`, a parameter's default too), with it: what is called on them is
    /// called on it (see [`add_uses`]); `None` for one assigned anything else as well.
    copies: Vec<(String, Option<String>)>,
}

impl Frame {
    /// Whether the symbol it defines keeps the fields its methods assign: a class, or a
    /// module (Ruby's methods of a module assign the instance variables of what mixes it
    /// in, and its own methods the module's).
    fn holds_fields(&self) -> bool {
        self.symbol.kind.is_container() || self.symbol.kind == SymbolKind::Mod
    }
}

/// What the walk knows while a language looks at a node.
pub struct Context<'a> {
    /// The source text.
    pub src: &'a [u8],
    /// The same, as text.
    source: &'a str,
    frames: Vec<Frame>,
    top_refs: Vec<ExtractedRef>,
    /// The declared types of names bound in top-level code (seen there only).
    top_types: Vec<(String, String)>,
    /// The top-level code's locals of no known type ([`Context::declare_local`]).
    top_locals: Vec<String>,
    imports: Vec<String>,
    bindings: Vec<Binding>,
    /// The walk's position: the root, its child, …, the node being looked at.
    /// tree-sitter's `Node::parent` and `Node::prev_named_sibling` search down from the
    /// root on every call; for the nodes on this path the walk answers them itself.
    path: Vec<Node<'a>>,
    /// Per level of `path`: the named siblings before that node, in order.
    before: Vec<Vec<Node<'a>>>,
    /// Emptied `before` lists, kept for their allocations.
    spare: Vec<Vec<Node<'a>>>,
    /// Lines before the source's first (for source embedded in a file's line).
    line_offset: u32,
}

impl<'a> Context<'a> {
    fn new(source: &'a str, root: Node<'a>) -> Context<'a> {
        Context {
            src: source.as_bytes(),
            source,
            frames: Vec::new(),
            top_refs: Vec::new(),
            top_types: Vec::new(),
            top_locals: Vec::new(),
            imports: Vec::new(),
            bindings: Vec::new(),
            path: vec![root],
            before: vec![Vec::new()],
            spare: Vec::new(),
            line_offset: 0,
        }
    }

    /// The line of `node`, from 1.
    fn line(&self, node: Node) -> u32 {
        node.start_position().row as u32 + 1 + self.line_offset
    }

    /// The walk moved down to `child`, the first child of the current node.
    fn down(&mut self, child: Node<'a>) {
        self.path.push(child);
        let list = self.spare.pop().unwrap_or_default();
        self.before.push(list);
    }

    /// The walk moved from the current node to its next sibling `next`.
    fn next(&mut self, next: Node<'a>) {
        if let Some(current) = self.path.last_mut() {
            if current.is_named()
                && let Some(list) = self.before.last_mut()
            {
                list.push(*current);
            }
            *current = next;
        }
    }

    /// The walk moved up to the current node's parent.
    fn up(&mut self) {
        self.path.pop();
        if let Some(mut list) = self.before.pop() {
            list.clear();
            self.spare.push(list);
        }
    }

    /// Where `node` is on the walk's path, if it is.
    fn level(&self, node: Node<'a>) -> Option<usize> {
        self.path.iter().rposition(|n| n.id() == node.id())
    }

    /// `node.parent()`, from the walk's path when `node` is on it.
    pub fn parent(&self, node: Node<'a>) -> Option<Node<'a>> {
        match self.level(node) {
            Some(level) => level.checked_sub(1).map(|up| self.path[up]),
            None => node.parent(),
        }
    }

    /// `node.prev_named_sibling()`, from the walk's path when `node` is on it.
    pub fn prev_named_sibling(&self, node: Node<'a>) -> Option<Node<'a>> {
        match self.level(node) {
            Some(level) => self.before[level].last().copied(),
            None => node.prev_named_sibling(),
        }
    }

    /// The named siblings before `node`, nearest first.
    pub(crate) fn named_siblings_before(&self, node: Node<'a>) -> NamedBefore<'_, 'a> {
        match self.level(node) {
            Some(level) => NamedBefore::Walked(self.before[level].iter().rev()),
            None => NamedBefore::Searched(node.prev_named_sibling()),
        }
    }

    /// The whole source.
    pub fn source_text(&self) -> &'a str {
        self.source
    }

    /// The text of `node` (empty when it is not UTF-8, which cannot happen for a `&str`
    /// source unless the node splits a character).
    pub fn text(&self, node: Node) -> &'a str {
        // The source is UTF-8 already: a node's text needs only its ends checked (not
        // every byte again, as `Node::utf8_text` does).
        self.source.get(node.byte_range()).unwrap_or("")
    }

    /// The text of field `field` of `node`.
    pub fn field_text(&self, node: Node, field: &str) -> Option<&'a str> {
        node.child_by_field_name(field).map(|n| self.text(n))
    }

    /// The kind of the innermost symbol being defined, if any.
    pub fn enclosing(&self) -> Option<SymbolKind> {
        self.frames.last().map(|f| f.symbol.kind)
    }

    /// Whether the walk is inside a function or method body (where variables are locals).
    pub fn in_function(&self) -> bool {
        self.frames
            .iter()
            .any(|f| matches!(f.symbol.kind, SymbolKind::Fn | SymbolKind::Method))
    }

    /// `Method` inside a class-like symbol, else `Fn`.
    pub fn fn_kind(&self) -> SymbolKind {
        match self.enclosing() {
            Some(k) if k.is_container() => SymbolKind::Method,
            _ => SymbolKind::Fn,
        }
    }

    /// Record a reference from the innermost symbol (or the file) to `name`, written
    /// bare.
    pub fn add_ref(&mut self, kind: RefKind, name: &str, node: Node) {
        self.add_ref_via(kind, name, node, None);
    }

    /// Record a reference to `name` reached through `receiver` (`a.b` in `a.b.c()`,
    /// `Type` in `Type::new()`); see [`ExtractedRef::qual`].
    pub fn add_member_ref(&mut self, kind: RefKind, name: &str, node: Node, receiver: Node) {
        let qual = self.qualifier(self.text(receiver));
        self.add_ref_via(kind, name, node, Some(qual));
    }

    /// A reference's qualifier from the receiver or path text written before the name
    /// (see [`ExtractedRef::qual`]).
    pub fn qualifier(&self, text: &str) -> String {
        self.qualifier_at(text, 0)
    }

    /// [`Context::qualifier`], `calls` calls deep in a chain (`f().g().h()`): a chain is
    /// followed three calls deep.
    fn qualifier_at(&self, text: &str, calls: usize) -> String {
        let text = text.trim();
        if let Some(callee) = callee_of(text) {
            return (calls < 3)
                .then(|| self.returned(callee, calls + 1))
                .flatten()
                .unwrap_or_else(|| "?".into());
        }
        let mut segments = Vec::new();
        for segment in text.split("::").flat_map(|s| s.split('.')) {
            if !plain_segment(segment) || segments.len() == 8 {
                return "?".into();
            }
            segments.push(segment);
        }
        if segments.is_empty() {
            return "?".into();
        }
        if let Some(ty) = self.local_type(segments[0]) {
            // `x.f()` with `x: Foo` is `Foo`'s `f`; `x.y.f()` the `f` of `Foo`'s field
            // `y` (`Foo.y`); deeper, of a type not known.
            return match segments[..] {
                [_] => ty.to_string(),
                [_, field] if !ty.ends_with("()") => format!("{ty}.{field}"),
                _ => "?".into(),
            };
        }
        if let ["super"] = segments[..]
            && let Some(qual) = self.super_qualifier()
        {
            // `super.f()` (Java, TypeScript).
            return qual;
        }
        if matches!(segments[0], "self" | "this" | "Self" | "cls") {
            // `self::x` in Rust is the module, not the type.
            if segments[0] == "self" && text.starts_with("self::") {
                return segments.join(".");
            }
            // `self.x` where the class assigned `self.x` a value of known type.
            if let [_, field] = segments[..]
                && let Some(ty) = self.field_type(field)
            {
                return ty.to_string();
            }
            match self.enclosing_type() {
                Some(name) => segments[0] = name,
                None => return "?".into(),
            }
        }
        segments.join(".")
    }

    /// The qualifier of what calling `callee` returns (`F()`, `Foo.m()` for `x.m` with
    /// `x: Foo`, `F().g()`), when `callee` is a plain path or a call's member.
    fn returned(&self, callee: &str, calls: usize) -> Option<String> {
        let callee = callee.trim();
        let (receiver, name) = match callee.rsplit_once(['.', ':']) {
            Some((receiver, name)) => (Some(receiver.trim_end_matches(':')), name),
            None => (None, callee),
        };
        if !plain_segment(name) {
            return None;
        }
        let qual = match receiver {
            // (`new()` is a constructor's mark; Go's `new(T)` is left unknown.)
            None if name == "new" => return None,
            // Python's `super()`: what the class's bases have.
            None if name == "super" => return self.super_qualifier(),
            None => format!("{name}()"),
            Some(receiver) => {
                let q = self.qualifier_at(receiver, calls);
                if q.starts_with(['?', '!']) || q == "new()" {
                    return None;
                }
                format!("{q}.{name}()")
            }
        };
        (qual.split('.').count() <= 8).then_some(qual)
    }

    /// Record that `name` holds what the call written `call` returns (`x := F(…)`), when
    /// it is one: `x.m()` is then the `m` of that type (see [`ExtractedRef::qual`]).
    pub fn bind_returned(&mut self, name: &str, call: &str) {
        if let Some(qual) = self.call_qualifier(call) {
            self.bind(name, qual);
        }
    }

    /// Record `name`'s type (a qualifier: see [`ExtractedRef::qual`]) in the innermost
    /// symbol being defined, or in the file's top-level code.
    pub fn bind(&mut self, name: &str, ty: String) {
        let Some(name) = bindable(name) else {
            return;
        };
        // A variable's own definition is no scope: what its value binds is bound where
        // the variable is.
        let types = match self
            .frames
            .iter_mut()
            .rev()
            .find(|f| !f.symbol.kind.is_variable())
        {
            Some(frame) => &mut frame.types,
            None => &mut self.top_types,
        };
        if types.len() < MAX_BINDINGS {
            types.push((name.to_string(), ty));
        }
    }

    /// Record that `name` is declared of type `ty` (written as in the source: `&mut
    /// Foo`, `*pkg.Foo`, `Foo<T>`, `"Foo"`) in the innermost symbol being defined. Types
    /// that are not one plain name (`Vec<Foo>` is `Vec`) keep their outer name.
    pub fn bind_type(&mut self, name: &str, ty: &str) {
        if let Some(ty) = type_name(ty) {
            self.bind(name, ty);
        }
    }

    /// The declared type of `name` in the symbols being defined, innermost first (the
    /// latest declaration first); in top-level code, the top level's.
    pub fn local_type(&self, name: &str) -> Option<&str> {
        if self.frames.iter().all(|f| f.symbol.kind.is_variable()) {
            return latest_type(&self.top_types, name);
        }
        self.frames
            .iter()
            .rev()
            .find_map(|f| latest_type(&f.types, name))
    }

    /// The name of the innermost symbol being defined that is of one of `kinds`.
    pub fn enclosing_named(&self, kinds: &[SymbolKind]) -> Option<&str> {
        self.frames
            .iter()
            .rev()
            .find(|f| kinds.contains(&f.symbol.kind))
            .map(|f| f.symbol.name.as_str())
    }

    /// The qualifier of what calling as written in `call` (`f(x)`, `a.b(c)`) returns, when
    /// it is a call of a plain path (see [`ExtractedRef::qual`]).
    pub fn call_qualifier(&self, call: &str) -> Option<String> {
        callee_of(call.trim()).and_then(|c| self.returned(c, 1))
    }

    /// Record that the innermost class (or module) being defined assigns its field
    /// `field` (`self.x = …` in a method) a value of type `ty` (a qualifier):
    /// `self.x.f()` is then `ty`'s `f` in the class's methods, and the class keeps it
    /// ([`ExtractedSymbol::fields`]).
    pub fn bind_field(&mut self, field: &str, ty: String) {
        let Some(field) = bindable(field).filter(|_| !ty.is_empty()) else {
            return;
        };
        if let Some(frame) = self.frames.iter_mut().rev().find(|f| f.holds_fields())
            && frame.fields.len() < MAX_BINDINGS
            && !frame.fields.iter().any(|(n, _)| n == field)
        {
            frame.fields.push((field.to_string(), ty));
        }
    }

    /// Record that the method being defined assigns its instance's attribute `name` in
    /// `node` (Python's `self.x = …`): the first assignment of a name is a member of the
    /// method's class (a variable) unless the class's body declares the name itself.
    pub fn declare_attribute(&mut self, name: &str, node: Node, doc: Option<String>) {
        let Some(name) = bindable(name) else {
            return;
        };
        let [.., class, method] = &self.frames[..] else {
            return;
        };
        if class.symbol.kind != SymbolKind::Class
            || method.symbol.kind != SymbolKind::Method
            || class.attributes.len() >= MAX_BINDINGS
            || class.attributes.iter().any(|a| a.name == name)
        {
            return;
        }
        let signature = self.first_line_signature(node);
        let line_start = self.line(node);
        let line_end = line_start + (node.end_position().row - node.start_position().row) as u32;
        let n = self.frames.len();
        self.frames[n - 2].attributes.push(ExtractedSymbol {
            name: name.to_string(),
            kind: SymbolKind::Var,
            line_start,
            line_end,
            signature,
            doc_comment: doc.and_then(clip_doc),
            declaration: false,
            guard: None,
            gives: None,
            mixins: Vec::new(),
            fields: Vec::new(),
            uses: Vec::new(),
            of_class: false,
            children: Vec::new(),
            references: Vec::new(),
        });
    }

    /// Record that the innermost class or module being defined mixes in the module
    /// `path` (a qualifier: Ruby's `include Thor::Base` → `Thor.Base`), so that its
    /// members are the class's: the linker looks a member up in them, the last mixed
    /// in first, before the class's bases.
    pub fn add_mixin(&mut self, path: String) {
        if path.is_empty() || path.len() > MAX_NAME_BYTES {
            return;
        }
        if let Some(frame) = self
            .frames
            .iter_mut()
            .rev()
            .find(|f| matches!(f.symbol.kind, SymbolKind::Class | SymbolKind::Mod))
            && frame.symbol.mixins.len() < MAX_BINDINGS
            && !frame.symbol.mixins.contains(&path)
        {
            frame.symbol.mixins.push(path);
        }
    }

    /// The type of the innermost class's (or module's) field `field`, as
    /// [`Context::bind_field`] recorded it (the first value assigned): a module's own,
    /// else the class's it is written in (a module's methods read the instance
    /// variables of what mixes it in, which is often that class).
    pub(crate) fn field_type(&self, field: &str) -> Option<&str> {
        for frame in self.frames.iter().rev().filter(|f| f.holds_fields()) {
            if let Some(ty) = latest_type(&frame.fields, field) {
                return Some(ty);
            }
            if frame.symbol.kind != SymbolKind::Mod {
                break;
            }
        }
        None
    }

    /// What the file imports as `local` so far (`from asyncio import Protocol`).
    pub(crate) fn binding(&self, local: &str) -> Option<&Binding> {
        self.bindings.iter().rev().find(|b| b.local == local)
    }

    /// The qualifier of what the innermost class's bases have (`^C`: see
    /// [`ExtractedRef::qual`]), inside a class (not Rust's `impl`, where `super` is the
    /// parent module).
    pub fn super_qualifier(&self) -> Option<String> {
        let symbol = &self.container()?.symbol;
        matches!(symbol.kind, SymbolKind::Class | SymbolKind::Interface)
            .then(|| format!("^{}", symbol.name))
    }

    /// The name of the innermost type-like symbol being defined (a class, a struct, an
    /// `impl` block: the type it is for).
    fn enclosing_type(&self) -> Option<&str> {
        self.container().map(|f| f.symbol.name.as_str())
    }

    /// The frame of the innermost type-like symbol being defined.
    fn container(&self) -> Option<&Frame> {
        self.frames
            .iter()
            .rev()
            .find(|f| f.symbol.kind.is_container())
    }

    /// Record a reference with its qualifier (see [`ExtractedRef::qual`]).
    pub fn add_ref_via(&mut self, kind: RefKind, name: &str, node: Node, qual: Option<String>) {
        let name = name.trim();
        if name.is_empty() || name.len() > MAX_NAME_BYTES {
            return;
        }
        if self
            .frames
            .last()
            .is_some_and(|f| f.name_node == Some(node.id()))
        {
            return;
        }
        let line = self.line(node);
        let refs = match self.frames.last_mut() {
            Some(frame) => &mut frame.symbol.references,
            None => &mut self.top_refs,
        };
        if !refs
            .iter()
            .any(|r| r.kind == kind && r.to_name == name && r.qual == qual && r.line == line)
        {
            refs.push(ExtractedRef {
                to_name: name.to_string(),
                kind,
                line,
                qual,
            });
        }
    }

    /// Record each of `nodes` that is a plain name (`f`) or a path of names (`a.f`,
    /// `a::f`; `path` gives its name and what it is reached through) as a name used as
    /// a value ([`RefKind::Value`]). Other expressions are left to the walk.
    pub fn add_values<'n>(
        &mut self,
        nodes: impl IntoIterator<Item = Node<'n>>,
        path: impl Fn(Node<'n>) -> Option<(Node<'n>, Node<'n>)>,
    ) {
        for node in nodes {
            match node.kind() {
                "identifier" => {
                    // (A parameter or a local is no definition of the index.)
                    let name = self.text(node);
                    if !self.is_local(name) {
                        self.add_ref(RefKind::Value, name, node);
                    }
                }
                _ => {
                    // (A parameter's field is no definition's use — but the instance's
                    // or class's own, `self.on_error` passed as a callback, is its
                    // class's member, and so is a parameter's of a declared class; a
                    // local's of no known class is a value's of no known class, not the
                    // member of a variable of the same name outside the function.)
                    if let Some((name, receiver)) = path(node) {
                        let head = self.text(receiver).split(['.', ':']).next().unwrap_or("");
                        let known =
                            matches!(head, "self" | "cls") || self.local_type(head).is_some();
                        let name = self.text(name);
                        if known || !self.is_parameter(head) {
                            if self.of_no_known_class(head) {
                                self.add_ref_via(RefKind::Value, name, node, Some("?".into()));
                            } else {
                                self.add_member_ref(RefKind::Value, name, node, receiver);
                            }
                        }
                    }
                }
            }
        }
    }

    /// Record that `name` is a local variable of the innermost function being defined
    /// (or of the file's top-level code), whose type is not known.
    pub fn declare_local(&mut self, name: &str) {
        let Some(name) = bindable(name) else {
            return;
        };
        // (In a class body or the file's top-level code too: a lambda's parameters.)
        let locals = match self.frames.last_mut() {
            Some(frame) => &mut frame.locals,
            None => &mut self.top_locals,
        };
        if locals.len() < MAX_BINDINGS && !locals.iter().any(|l| l == name) {
            locals.push(name.to_string());
        }
    }

    /// Record that the local or parameter `name` of the innermost symbol being defined
    /// is assigned `of`, an instance variable of no known class it copies (`tree =
    /// @tree`), or (`None`) anything else: where it only ever copies one, what is called
    /// on it is called on that variable (see [`add_uses`]).
    pub fn copy_local(&mut self, name: &str, of: Option<&str>) {
        let (Some(name), Some(frame)) = (bindable(name), self.frames.last_mut()) else {
            return;
        };
        let full = frame.copies.len() >= MAX_BINDINGS;
        match frame.copies.iter_mut().find(|(n, _)| n == name) {
            Some((_, copied)) if copied.as_deref() != of => *copied = None,
            Some(_) => {}
            None if !full => frame
                .copies
                .push((name.to_string(), of.map(str::to_string))),
            None => {}
        }
    }

    /// Whether `name` is, where the walk is, a local variable or parameter: declared
    /// by [`Context::declare_local`] or bound to a type in the symbols being defined up
    /// to the innermost function, or one of its parameters.
    pub fn is_local(&self, name: &str) -> bool {
        for frame in self.frames.iter().rev() {
            if frame.locals.iter().any(|l| l == name) || frame.types.iter().any(|(n, _)| n == name)
            {
                return true;
            }
            if matches!(frame.symbol.kind, SymbolKind::Fn | SymbolKind::Method) {
                return self.is_parameter(name);
            }
        }
        self.top_locals.iter().any(|l| l == name)
    }

    /// Whether `name` is, where the walk is, a local or parameter whose class is not
    /// known ([`Context::is_local`], no [`Context::local_type`]) — not the instance or
    /// class itself (Python's `self`, `cls`), whose members are its class's.
    pub(crate) fn of_no_known_class(&self, name: &str) -> bool {
        !matches!(name, "self" | "cls") && self.is_local(name) && self.local_type(name).is_none()
    }

    /// Whether `name` is a parameter (or receiver) of the innermost function being
    /// defined: one of its parameter names, or where its parameter list was not found, a
    /// word of its signature.
    pub(crate) fn is_parameter(&self, name: &str) -> bool {
        let Some(frame) = self
            .frames
            .iter()
            .rev()
            .find(|f| matches!(f.symbol.kind, SymbolKind::Fn | SymbolKind::Method))
        else {
            return false;
        };
        if let Some(params) = &frame.params {
            return params.iter().any(|p| p == name);
        }
        frame.symbol.signature.as_deref().is_some_and(|signature| {
            signature
                .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
                .any(|word| word == name)
        })
    }

    /// Record a name an import binds (see [`Binding`]).
    pub fn add_binding(&mut self, local: &str, module: &str, name: Option<&str>) {
        let module = module
            .trim()
            .trim_matches(|c| c == '"' || c == '\'' || c == '`' || c == '<' || c == '>');
        let local = local.trim();
        if local.is_empty() || local.len() > MAX_NAME_BYTES || module.len() > 500 {
            return;
        }
        let binding = Binding {
            local: local.to_string(),
            module: module.to_string(),
            name: name.map(|n| n.trim().to_string()),
        };
        if !self.bindings.contains(&binding) {
            self.bindings.push(binding);
        }
    }

    /// Record a module the file imports.
    pub fn add_import(&mut self, module: &str) {
        let module = module
            .trim()
            .trim_matches(|c| c == '"' || c == '\'' || c == '`' || c == '<' || c == '>');
        if !module.is_empty() && module.len() <= 500 && !self.imports.iter().any(|m| m == module) {
            self.imports.push(module.to_string());
        }
    }

    /// Every descendant of `node` (itself included) of kind `kind`, in order.
    pub fn descendants<'t>(&self, node: Node<'t>, kinds: &[&str]) -> Vec<Node<'t>> {
        let mut out = Vec::new();
        let mut cursor = node.walk();
        'outer: loop {
            let n = cursor.node();
            if kinds.contains(&n.kind()) {
                out.push(n);
            } else if cursor.goto_first_child() {
                continue;
            }
            loop {
                if cursor.node().id() == node.id() {
                    break 'outer;
                }
                if cursor.goto_next_sibling() {
                    continue 'outer;
                }
                if !cursor.goto_parent() {
                    break 'outer;
                }
            }
        }
        out
    }

    /// The declaration text from `node`'s start to `body`'s start (or `node`'s end),
    /// whitespace collapsed, without a trailing `{`, `:` or `=`, nor comments between
    /// the two (`def f(x):  # note`), at most 400 bytes.
    pub fn signature(&self, node: Node, body: Option<Node>) -> Option<String> {
        let end = match body {
            // Before the comments that come last ahead of the body.
            Some(body) => {
                let mut cursor = node.walk();
                let before: Vec<Node> = node
                    .children(&mut cursor)
                    .take_while(|c| c.end_byte() <= body.start_byte())
                    .collect();
                before
                    .iter()
                    .rev()
                    .take_while(|c| c.is_extra())
                    .last()
                    .map_or(body.start_byte(), |c| c.start_byte())
            }
            None => node.end_byte(),
        };
        self.signature_range(node.start_byte(), end)
    }

    /// [`Context::signature`] of the source bytes `start..end`.
    pub fn signature_range(&self, start: usize, end: usize) -> Option<String> {
        let raw = self.src.get(start..end)?;
        let mut sig = collapse_whitespace(&String::from_utf8_lossy(raw));
        loop {
            if let Some(stripped) = sig.strip_suffix("=>") {
                sig = stripped.trim_end().to_string();
            } else if sig.ends_with(['{', ':', '=', ';']) {
                sig.pop();
                sig.truncate(sig.trim_end().len());
            } else {
                break;
            }
        }
        clip_signature(sig)
    }

    /// The first line of `node`'s text as a signature (for variables and constants).
    pub fn first_line_signature(&self, node: Node) -> Option<String> {
        let text = self.text(node);
        let line = text.lines().next().unwrap_or("");
        let start = node.start_byte();
        let end = start + line.len();
        self.signature_bytes(start, end)
    }

    fn signature_bytes(&self, start: usize, end: usize) -> Option<String> {
        let raw = self.src.get(start..end)?;
        let mut sig = collapse_whitespace(&String::from_utf8_lossy(raw));
        while sig.ends_with(['{', '(', '[', '=', ';']) {
            sig.pop();
            sig.truncate(sig.trim_end().len());
        }
        clip_signature(sig)
    }

    /// The comments right above `node` (no blank line between), skipping nodes of the
    /// kinds in `skip` (attributes, decorators), without their markers.
    pub fn preceding_comments(
        &self,
        node: Node<'a>,
        comment_kinds: &[&str],
        skip: &[&str],
    ) -> Option<String> {
        let mut lines: Vec<String> = Vec::new();
        let mut next_row = node.start_position().row;
        // A definition that opens its parent's body (Ruby's `body_statement`) is
        // documented by what precedes the body.
        let mut node = node;
        while self.prev_named_sibling(node).is_none()
            && let Some(parent) = self.parent(node)
            && parent.start_byte() == node.start_byte()
            && self.parent(parent).is_some()
        {
            node = parent;
        }
        for sibling in self.named_siblings_before(node) {
            if skip.contains(&sibling.kind()) {
                next_row = sibling.start_position().row;
                continue;
            }
            if !comment_kinds.contains(&sibling.kind()) {
                break;
            }
            if sibling.end_position().row + 1 < next_row {
                break;
            }
            lines.push(clean_comment(self.text(sibling)));
            next_row = sibling.start_position().row;
        }
        if lines.is_empty() {
            return None;
        }
        lines.reverse();
        clip_doc(lines.join("\n"))
    }
}

/// The named siblings before a node, nearest first: from the walk's record, or by
/// asking tree-sitter for each.
pub(crate) enum NamedBefore<'l, 'a> {
    Walked(std::iter::Rev<std::slice::Iter<'l, Node<'a>>>),
    Searched(Option<Node<'a>>),
}

impl<'a> Iterator for NamedBefore<'_, 'a> {
    type Item = Node<'a>;
    fn next(&mut self) -> Option<Node<'a>> {
        match self {
            NamedBefore::Walked(list) => list.next().copied(),
            NamedBefore::Searched(next) => {
                let current = (*next)?;
                *next = current.prev_named_sibling();
                Some(current)
            }
        }
    }
}

fn clip_signature(sig: String) -> Option<String> {
    if sig.is_empty() {
        return None;
    }
    if sig.len() <= MAX_SIGNATURE_BYTES {
        return Some(sig);
    }
    // The start (name, parameters) and the end (what it returns) are kept; the middle
    // of a long parameter list gives way.
    const TAIL: usize = 96;
    let mut head = MAX_SIGNATURE_BYTES - TAIL - " … ".len();
    while !sig.is_char_boundary(head) {
        head -= 1;
    }
    let mut tail = sig.len() - TAIL;
    while !sig.is_char_boundary(tail) {
        tail += 1;
    }
    Some(format!(
        "{} … {}",
        sig[..head].trim_end(),
        sig[tail..].trim_start()
    ))
}

/// A doc text trimmed, empty as `None`, at most 4000 bytes.
pub(crate) fn clip_doc(doc: String) -> Option<String> {
    let mut doc = doc.trim().to_string();
    if doc.is_empty() {
        return None;
    }
    if doc.len() > MAX_DOC_BYTES {
        let mut end = MAX_DOC_BYTES;
        while !doc.is_char_boundary(end) {
            end -= 1;
        }
        doc.truncate(end);
    }
    Some(doc)
}

/// A comment's text without its markers (`///`, `//`, `#`, `/** … */`, leading `*`).
pub(crate) fn clean_comment(text: &str) -> String {
    let text = text.trim();
    if let Some(body) = text.strip_prefix("/*") {
        let body = body.strip_suffix("*/").unwrap_or(body);
        let body = body.strip_prefix(['*', '!']).unwrap_or(body);
        return body
            .lines()
            .map(|l| {
                let l = l.trim();
                let l = l.strip_prefix('*').unwrap_or(l);
                l.strip_prefix(' ').unwrap_or(l)
            })
            .collect::<Vec<_>>()
            .join("\n")
            .trim()
            .to_string();
    }
    text.lines()
        .map(|l| {
            let l = l.trim_start();
            let l = l
                .strip_prefix("///")
                .or_else(|| l.strip_prefix("//!"))
                .or_else(|| l.strip_prefix("//"))
                .or_else(|| l.strip_prefix('#'))
                .or_else(|| l.strip_prefix("--"))
                .unwrap_or(l);
            l.strip_prefix(' ').unwrap_or(l).trim_end()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

thread_local! {
    /// Each thread's parser, kept from file to file (its buffers are reused).
    static PARSER: std::cell::RefCell<Option<Parser>> = const { std::cell::RefCell::new(None) };
}

/// How deep token trees are re-parsed (a macro inside a macro body inside …).
const MAX_NESTING: usize = 2;

/// Parse `source` with `lang`'s grammar for `extension` and extract its symbols.
///
/// Fails only when the grammar cannot be loaded or the parser gives up; a file with
/// syntax errors yields what its valid parts define.
pub fn extract_source(
    lang: &dyn LanguageExtractor,
    extension: &str,
    source: &str,
) -> Result<ExtractedFile, String> {
    extract_at(lang, extension, source, 0).map(|(file, _)| file)
}

/// [`extract_source`] at nesting `depth`; also says whether the parse had errors.
fn extract_at(
    lang: &dyn LanguageExtractor,
    extension: &str,
    source: &str,
    depth: usize,
) -> Result<(ExtractedFile, bool), String> {
    let prepared = lang.prepare(source);
    let source = prepared.as_ref();
    let tree = parse(lang, extension, source)?;
    if depth > 0 && tree.root_node().has_error() {
        // An embedded range is kept only when it parses cleanly: no walk for nothing.
        return Ok((ExtractedFile::default(), true));
    }
    let mut cx = Context::new(source, tree.root_node());
    let mut symbols = Vec::new();
    let mut walk = Walk {
        lang,
        extension,
        depth,
        line_starts: None,
    };
    walk.run(tree.root_node(), &mut cx, &mut symbols);
    // Frames left open (cannot happen: every entered node is left) are closed in order.
    while let Some(frame) = cx.frames.pop() {
        attach(frame.symbol, &mut cx, &mut symbols);
    }
    let file = ExtractedFile {
        symbols,
        references: cx.top_refs,
        imports: cx.imports,
        bindings: cx.bindings,
    };
    Ok((file, tree.root_node().has_error()))
}

/// `source` parsed with `lang`'s grammar for `extension`, by this thread's parser.
fn parse(
    lang: &dyn LanguageExtractor,
    extension: &str,
    source: &str,
) -> Result<tree_sitter::Tree, String> {
    PARSER.with(|parser| {
        let mut parser = parser.borrow_mut();
        let parser = parser.get_or_insert_with(Parser::new);
        parser
            .set_language(&lang.grammar(extension))
            .map_err(|e| format!("{} grammar: {e}", lang.name()))?;
        parser
            .parse(source, None)
            .ok_or_else(|| format!("the {} parser gave up", lang.name()))
    })
}

/// One file's tree walk: what stays the same from node to node.
struct Walk<'l> {
    lang: &'l dyn LanguageExtractor,
    extension: &'l str,
    /// How deep in embedded source this file is (see [`MAX_NESTING`]).
    depth: usize,
    /// Byte offsets of the source's line starts, built on the first embedded range (a
    /// macro-heavy file would otherwise count newlines from the top once per macro).
    line_starts: Option<Vec<usize>>,
}

impl Walk<'_> {
    /// Walk `root` and everything under it: definitions are entered into `cx`'s frames
    /// (closed ones go to their parent or to `symbols`), references to the innermost.
    fn run<'t>(
        &mut self,
        root: Node<'t>,
        cx: &mut Context<'t>,
        symbols: &mut Vec<ExtractedSymbol>,
    ) {
        let mut cursor = root.walk();
        'outer: loop {
            let node = cursor.node();
            let mut descend = enter(self.lang, node, cx);
            if self.depth < MAX_NESTING
                && (self.items(node, cx, symbols) || self.expressions(node, cx, symbols))
            {
                descend = false;
            }
            if self.depth < MAX_NESTING {
                for (start, text) in self.lang.evaluated(node, cx) {
                    let offset = self.lines_before(cx, start);
                    self.in_place(&text, None, offset, cx, symbols);
                }
            }
            if descend && cursor.goto_first_child() {
                cx.down(cursor.node());
                continue;
            }
            loop {
                leave(self.lang, cursor.node(), cx, symbols);
                if cursor.node().id() == root.id() {
                    break 'outer;
                }
                if cursor.goto_next_sibling() {
                    cx.next(cursor.node());
                    continue 'outer;
                }
                if !cursor.goto_parent() {
                    break 'outer;
                }
                cx.up();
            }
        }
    }

    /// Items written inside a macro body or invocation ([`LanguageExtractor::embedded`]),
    /// where they parse: whether `node` had them.
    fn items(&mut self, node: Node, cx: &mut Context, symbols: &mut Vec<ExtractedSymbol>) -> bool {
        let Some((start, end)) = self.lang.embedded(node, cx) else {
            return false;
        };
        let Some(text) = cx.source.get(start..end) else {
            return false;
        };
        let Ok((inner, false)) = extract_at(self.lang, self.extension, text, self.depth + 1) else {
            return false;
        };
        let offset = self.lines_before(cx, start);
        for mut symbol in inner.symbols {
            shift_lines(&mut symbol, offset);
            attach(symbol, cx, symbols);
        }
        true
    }

    /// How many lines of the file come before byte `at` of `cx`'s source.
    fn lines_before(&mut self, cx: &Context, at: usize) -> u32 {
        let source = cx.source;
        let starts = self.line_starts.get_or_insert_with(|| {
            memchr::memchr_iter(b'\n', source.as_bytes())
                .map(|i| i + 1)
                .collect()
        });
        starts.partition_point(|&line| line <= at) as u32 + cx.line_offset
    }

    /// Expressions written inside a macro call ([`LanguageExtractor::embedded_expressions`]),
    /// walked in place where they parse: whether `node` had them.
    fn expressions(
        &mut self,
        node: Node,
        cx: &mut Context,
        symbols: &mut Vec<ExtractedSymbol>,
    ) -> bool {
        let Some(w) = self.lang.embedded_expressions(node, cx) else {
            return false;
        };
        if !self.expression(w.start, w.end, &w, cx, symbols) {
            for &(start, end) in &w.parts {
                self.expression(start, end, &w, cx, symbols);
            }
        }
        true
    }

    /// Walk the source `start..end` wrapped as `w` says, when it parses: whether it did.
    fn expression(
        &mut self,
        start: usize,
        end: usize,
        w: &Wrapped,
        cx: &mut Context,
        symbols: &mut Vec<ExtractedSymbol>,
    ) -> bool {
        let Some(text) = cx.source.get(start..end) else {
            return false;
        };
        let wrapped = format!("{}{text}{}", w.before, w.after);
        let range = (w.before.len(), w.before.len() + text.len());
        let offset = self.lines_before(cx, start);
        self.in_place(&wrapped, Some(range), offset, cx, symbols)
    }

    /// Walk `text` as if written in place, `offset` lines into the file, when it parses
    /// (the node of its bytes `range`, or all of it): whether it did.
    fn in_place(
        &mut self,
        text: &str,
        range: Option<(usize, usize)>,
        offset: u32,
        cx: &mut Context,
        symbols: &mut Vec<ExtractedSymbol>,
    ) -> bool {
        let Ok(tree) = parse(self.lang, self.extension, text) else {
            return false;
        };
        if tree.root_node().has_error() {
            return false;
        }
        let inner = match range {
            Some((from, to)) => match tree.root_node().descendant_for_byte_range(from, to) {
                Some(inner) => inner,
                None => return false,
            },
            None => tree.root_node(),
        };
        // Its lines are counted from the file's line `offset + 1`; it is walked in a
        // context of its own text that holds the same frames.
        let mut inner_cx = Context::new(text, inner);
        inner_cx.line_offset = offset;
        std::mem::swap(&mut inner_cx.frames, &mut cx.frames);
        let mut nested = Walk {
            lang: self.lang,
            extension: self.extension,
            depth: self.depth + 1,
            line_starts: None,
        };
        nested.run(inner, &mut inner_cx, symbols);
        std::mem::swap(&mut inner_cx.frames, &mut cx.frames);
        cx.top_refs.append(&mut inner_cx.top_refs);
        true
    }
}

fn shift_lines(symbol: &mut ExtractedSymbol, offset: u32) {
    symbol.line_start += offset;
    symbol.line_end += offset;
    for r in &mut symbol.references {
        r.line += offset;
    }
    for child in &mut symbol.children {
        shift_lines(child, offset);
    }
}

/// The names a function's parameter list binds, found the same way in every grammar: the
/// `parameters` (or a lone `parameter`) of the function or of its declarator (C), and in
/// it each identifier that is not part of a type or a default value (`x` and `self` of
/// `fn f(&self, x: Box<T>)`, `x` of `def f(x: Box = EMPTY)`, `x` of `void f(Box *x)`).
/// `None` when the list is not found: the caller then falls back to the signature's words.
fn parameter_names(function: Node, cx: &Context) -> Option<Vec<String>> {
    let mut at = function;
    let list = loop {
        if let Some(list) = at
            .child_by_field_name("parameters")
            .or_else(|| at.child_by_field_name("parameter"))
        {
            break list;
        }
        at = at.child_by_field_name("declarator")?;
    };
    let mut names = Vec::new();
    // Go's receiver (`func (r *Router) …`) is a list of its own.
    for list in std::iter::once(list).chain(function.child_by_field_name("receiver")) {
        names.extend(bound_names(list, cx));
    }
    Some(names)
}

/// The names a parameter list binds (see [`parameter_names`]).
fn bound_names(list: Node, cx: &Context) -> Vec<String> {
    const NAMES: &[&str] = &[
        "identifier",
        "self",
        "shorthand_property_identifier_pattern",
    ];
    let mut names = Vec::new();
    for ident in cx.descendants(list, NAMES) {
        let mut node = ident;
        let mut binding = true;
        while node.id() != list.id() {
            let Some(parent) = node.parent() else { break };
            let field_is = |field: &str| {
                parent
                    .child_by_field_name(field)
                    .is_some_and(|n| n.id() == node.id())
            };
            let kind = node.kind();
            // A type (`type`, `type_annotation`, `generic_type`), not `typed_parameter`.
            let a_type = kind == "type" || kind.starts_with("type_") || kind.ends_with("_type");
            if a_type || field_is("type") || field_is("value") || field_is("default_value") {
                binding = false;
                break;
            }
            node = parent;
        }
        if binding {
            names.push(cx.text(ident).to_string());
        }
    }
    names
}

fn enter(lang: &dyn LanguageExtractor, node: Node, cx: &mut Context) -> bool {
    if node.is_named()
        && let Some(def) = lang.definition(node, cx)
        && !def.name.trim().is_empty()
        && !def.name.starts_with('$')
        && def.name.len() <= MAX_NAME_BYTES
    {
        let doc = def.doc.or_else(|| lang.doc_comment(node, cx));
        let declaration =
            matches!(def.kind, SymbolKind::Fn | SymbolKind::Method) && lang.declares(node, cx);
        let start = lang.starts_at(node, cx).unwrap_or(node).start_position();
        let end = node.end_position();
        let line_end = if end.column == 0 && end.row > start.row {
            end.row
        } else {
            end.row + 1
        };
        let params = matches!(def.kind, SymbolKind::Fn | SymbolKind::Method)
            .then(|| parameter_names(node, cx))
            .flatten();
        cx.frames.push(Frame {
            node_id: node.id(),
            name_node: def.name_node,
            types: Vec::new(),
            fields: Vec::new(),
            attributes: Vec::new(),
            locals: Vec::new(),
            copies: Vec::new(),
            params,
            symbol: ExtractedSymbol {
                name: def.name.trim().to_string(),
                kind: def.kind,
                line_start: start.row as u32 + 1 + cx.line_offset,
                line_end: line_end as u32 + cx.line_offset,
                signature: def.signature,
                doc_comment: doc.and_then(clip_doc),
                declaration,
                guard: lang.guard(node, cx),
                gives: None,
                mixins: Vec::new(),
                fields: Vec::new(),
                uses: Vec::new(),
                of_class: def.kind == SymbolKind::Method && lang.of_class(node, cx),
                children: Vec::new(),
                references: Vec::new(),
            },
        });
    }
    lang.references(node, cx)
}

fn leave(
    lang: &dyn LanguageExtractor,
    node: Node,
    cx: &mut Context,
    symbols: &mut Vec<ExtractedSymbol>,
) {
    if cx.frames.last().is_some_and(|f| f.node_id == node.id()) {
        let gives = lang.gives(node, cx);
        let Some(mut frame) = cx.frames.pop() else {
            return;
        };
        frame.symbol.gives = gives;
        if frame.holds_fields() {
            frame.symbol.fields = std::mem::take(&mut frame.fields);
        }
        if !frame.attributes.is_empty() {
            let children = &mut frame.symbol.children;
            for attribute in std::mem::take(&mut frame.attributes) {
                if !children.iter().any(|c| c.name == attribute.name) {
                    children.push(attribute);
                }
            }
            children.sort_by_key(|c| c.line_start);
        }
        if lang.typed_by_use() {
            let in_type = cx
                .frames
                .last()
                .is_some_and(|p| matches!(p.symbol.kind, SymbolKind::Class | SymbolKind::Mod));
            match frame.symbol.kind {
                SymbolKind::Fn | SymbolKind::Method => {
                    add_uses(&mut frame);
                    if !in_type {
                        share_uses(std::slice::from_mut(&mut frame.symbol));
                    }
                }
                SymbolKind::Class | SymbolKind::Mod => {
                    frame.symbol.uses = share_uses(&mut frame.symbol.children);
                }
                _ => {}
            }
        }
        let twin = lang.twin(node, cx).map(|name| ExtractedSymbol {
            name,
            gives: None,
            children: Vec::new(),
            references: Vec::new(),
            ..frame.symbol.clone()
        });
        attach(frame.symbol, cx, symbols);
        if let Some(twin) = twin {
            attach(twin, cx, symbols);
        }
    }
}

/// Most members named after a value's qualifier ([`add_uses`]): a value used more ways
/// than that is left as it is.
const MAX_USES: usize = 16;

/// For the function `frame` defines, in a language whose values are [typed by
/// use](LanguageExtractor::typed_by_use): each call on one of its locals, parameters or
/// fields of no known type (`el.children`, `@io.read`) gets, after the qualifier, the
/// names of every member called on it in the function (`el{attr children}`);
/// [`share_uses`] then joins those of the functions of one class (and drops them where
/// fewer than two).
fn add_uses(frame: &mut Frame) {
    // (`tree` of `tree = @tree`: `@tree`.)
    for r in &mut frame.symbol.references {
        if r.kind == RefKind::Call
            && let Some(q) = &r.qual
            && let Some((_, Some(of))) = frame.copies.iter().find(|(n, _)| n == q)
        {
            r.qual = Some(of.clone());
        }
    }
    let untyped = |q: &str| {
        q.starts_with('@')
            || (frame.locals.iter().any(|l| l == q)
                || frame
                    .params
                    .as_ref()
                    .is_some_and(|p| p.iter().any(|l| l == q)))
                && !frame.types.iter().any(|(n, _)| n == q)
    };
    let mut uses: Vec<(String, BTreeSet<&str>)> = Vec::new();
    for r in &frame.symbol.references {
        let Some(q) = r
            .qual
            .as_deref()
            .filter(|q| r.kind == RefKind::Call && untyped(q))
        else {
            continue;
        };
        match uses.iter_mut().find(|(v, _)| v == q) {
            Some((_, names)) => {
                names.insert(&r.to_name);
            }
            None => uses.push((q.to_string(), BTreeSet::from([r.to_name.as_str()]))),
        }
    }
    let quals: Vec<(String, String)> = uses
        .into_iter()
        .map(|(q, names)| {
            let names: Vec<&str> = names.into_iter().collect();
            let used = format!("{q}{{{}}}", names.join(" "));
            (q, used)
        })
        .collect();
    for r in &mut frame.symbol.references {
        if let Some(q) = r.qual.as_mut().filter(|_| r.kind == RefKind::Call)
            && let Some((_, used)) = quals.iter().find(|(v, _)| v == q)
        {
            *q = used.clone();
        }
    }
}

/// A qualifier's value and the members it is used for, where it says them
/// (`el{attr children}` → `el`, `attr children`; see [`ExtractedRef::qual`]).
pub(crate) fn uses_of(qual: &str) -> Option<(&str, &str)> {
    qual.strip_suffix('}')?.split_once('{')
}

/// For the functions of one class or module (or one function alone), in a language
/// whose values are [typed by use](LanguageExtractor::typed_by_use): a value of one
/// name in them is taken for one class, used for everything they call on it (`el` of
/// `convert_p(el)` and of `convert_a(el)`). Each call on it then says those uses (see
/// [`add_uses`]) when they are two to [`MAX_USES`], and the value's name alone
/// otherwise. Returns each value with its uses, one to [`MAX_USES`] of them, joined by
/// spaces (the class's [`ExtractedSymbol::uses`]).
fn share_uses(functions: &mut [ExtractedSymbol]) -> Vec<(String, String)> {
    let is_function = |s: &ExtractedSymbol| matches!(s.kind, SymbolKind::Fn | SymbolKind::Method);
    let mut uses: Vec<(String, BTreeSet<String>)> = Vec::new();
    for r in functions
        .iter()
        .filter(|s| is_function(s))
        .flat_map(|f| &f.references)
    {
        let Some((value, names)) = r.qual.as_deref().and_then(uses_of) else {
            continue;
        };
        let at = match uses.iter().position(|(v, _)| v == value) {
            Some(at) => at,
            None => {
                uses.push((value.to_string(), BTreeSet::new()));
                uses.len() - 1
            }
        };
        uses[at].1.extend(names.split(' ').map(str::to_string));
    }
    // Each value, its qualifier, and its uses joined where they are few enough to keep.
    let shared: Vec<(String, String, Option<String>)> = uses
        .into_iter()
        .map(|(value, names)| {
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            let joined = (names.len() <= MAX_USES).then(|| names.join(" "));
            let used = match &joined {
                Some(joined) if names.len() >= 2 => format!("{value}{{{joined}}}"),
                _ => value.clone(),
            };
            (value, used, joined)
        })
        .collect();
    for f in functions.iter_mut().filter(|s| is_function(s)) {
        for r in &mut f.references {
            if let Some(qual) = &mut r.qual
                && let Some((value, _)) = uses_of(qual)
                && let Some((_, used, _)) = shared.iter().find(|(v, _, _)| v == value)
            {
                *qual = used.clone();
            }
        }
    }
    shared
        .into_iter()
        .filter_map(|(value, _, joined)| Some((value, joined?)))
        .collect()
}

fn attach(symbol: ExtractedSymbol, cx: &mut Context, symbols: &mut Vec<ExtractedSymbol>) {
    match cx.frames.last_mut() {
        Some(parent) => parent.symbol.children.push(symbol),
        None => symbols.push(symbol),
    }
}

/// The type a declaration names, as a path of names joined by `.`: `&mut Foo` → `Foo`,
/// `*pkg.Foo` → `pkg.Foo`, `Foo<T>` → `Foo`, `fs::DirEntry` → `fs.DirEntry`, `"Foo"` →
/// `Foo`, `Optional[Foo]` → `Optional`; `None` for anything else (a tuple, a function
/// type, a union).
pub(crate) fn type_name(text: &str) -> Option<String> {
    let mut t = text.trim().trim_matches(|c| c == '"' || c == '\'');
    loop {
        let before = t;
        t = t.trim_start_matches(['&', '*', '?']).trim_start();
        for prefix in ["mut ", "const ", "dyn ", "impl "] {
            t = t.strip_prefix(prefix).unwrap_or(t).trim_start();
        }
        if t == before {
            break;
        }
    }
    let t = t.split(['<', '[', '(']).next()?.trim();
    let segments: Vec<&str> = t.split("::").flat_map(|s| s.split('.')).collect();
    (segments.len() <= 8 && segments.iter().all(|s| plain_segment(s))).then(|| segments.join("."))
}

/// The type of the latest of `types` bound to `name`.
fn latest_type<'t>(types: &'t [(String, String)], name: &str) -> Option<&'t str> {
    types
        .iter()
        .rev()
        .find(|(n, _)| n == name)
        .map(|(_, t)| t.as_str())
}

/// Whether `s` is one plain name: letters, digits, `_` and `$`, not starting with a
/// digit.
pub(crate) fn plain_segment(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= MAX_NAME_BYTES
        && !s.starts_with(|c: char| c.is_ascii_digit())
        && s.chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
}

/// The callee of `text` when `text` is one call (`f(x)` → `f`, `a.b(c)` → `a.b`,
/// `f(x)(y)` → `f(x)`): its last `(…)`, balanced, after something.
pub(crate) fn callee_of(text: &str) -> Option<&str> {
    let body = text.strip_suffix(')')?;
    let mut depth = 1usize;
    for (at, c) in body.char_indices().rev() {
        match c {
            ')' => depth += 1,
            '(' => {
                depth -= 1;
                if depth == 0 {
                    let callee = body[..at].trim_end();
                    return (!callee.is_empty()).then_some(callee);
                }
            }
            _ => {}
        }
    }
    None
}

/// The last segment of a dotted, `::` or `/` separated path (`a::b::c` → `c`).
pub(crate) fn last_segment(path: &str) -> &str {
    let path = path.trim();
    let path = path.split('<').next().unwrap_or(path);
    path.rsplit(['.', ':', '/', '\\'])
        .find(|s| !s.is_empty())
        .unwrap_or(path)
        .trim()
}

/// A command a manifest declares ([`LanguageExtractor::entry_points`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeclaredEntry {
    /// The command's name (`pytest`), or `main` for a package's main module.
    pub name: String,
    /// The manifest, relative to the repository.
    pub declared_in: String,
    /// What it names, as written (`pkg.cli:main`, `./bin/cli.js`).
    pub target: String,
    /// What it runs.
    pub runs: EntryRuns,
}

impl DeclaredEntry {
    /// The command `name` the manifest at `manifest` declares, running the file `target`
    /// (as written, relative to the manifest's directory).
    pub fn file(name: &str, manifest: &str, target: &str) -> DeclaredEntry {
        DeclaredEntry {
            name: name.to_string(),
            declared_in: manifest.to_string(),
            target: target.to_string(),
            runs: EntryRuns::File(beside(manifest, target)),
        }
    }
}

/// What a declared command runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EntryRuns {
    /// A function of this name, best in a file whose path ends with one of `files`.
    Function {
        /// The function's name.
        function: String,
        /// Path endings of the module that defines it.
        files: Vec<String>,
    },
    /// A file (relative to the repository): its `main` when it has one.
    File(String),
}

/// `target` (`./bin/x.js`) relative to the repository root, read from the directory of
/// the manifest at `manifest`.
pub(crate) fn beside(manifest: &str, target: &str) -> String {
    let target = target.trim().trim_start_matches("./");
    match manifest.rsplit_once('/') {
        Some((dir, _)) => format!("{dir}/{target}"),
        None => target.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::{MAX_SIGNATURE_BYTES, callee_of, clip_signature};

    #[test]
    fn a_long_signature_keeps_its_start_and_what_it_returns() {
        let params = (0..60).map(|i| format!("p{i}: int")).collect::<Vec<_>>();
        let sig = format!("def update(self, {}) -> \"Options\"", params.join(", "));
        let clipped = clip_signature(sig).unwrap();
        assert!(clipped.len() <= MAX_SIGNATURE_BYTES, "{clipped}");
        assert!(clipped.starts_with("def update(self, p0: int"), "{clipped}");
        assert!(clipped.ends_with("p59: int) -> \"Options\""), "{clipped}");
        assert!(clipped.contains(" … "), "{clipped}");
        assert_eq!(clip_signature(String::new()), None);
        let short = "fn f() -> u8".to_string();
        assert_eq!(clip_signature(short.clone()), Some(short));
    }

    #[test]
    fn a_call_s_callee_is_what_comes_before_its_last_balanced_arguments() {
        assert_eq!(callee_of("f(x)"), Some("f"));
        assert_eq!(callee_of("a.b(c(d), (e))"), Some("a.b"));
        assert_eq!(callee_of("f(x)(y)"), Some("f(x)"));
        assert_eq!(callee_of("Foo::new(1)"), Some("Foo::new"));
        assert_eq!(callee_of("(x)"), None);
        assert_eq!(callee_of("x)"), None);
        assert_eq!(callee_of("a.b"), None);
    }
}
