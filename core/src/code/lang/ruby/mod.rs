//! Ruby (`.rb`, `.rake`, `.gemspec`).

mod link;

use tree_sitter::Node;

use super::{LanguageExtractor, named};
use crate::code::extract::{Context, Definition, last_segment};
use crate::code::{RefKind, SymbolKind};

pub(super) use link::Linking;

/// Ruby.
pub struct Ruby;

impl LanguageExtractor for Ruby {
    fn name(&self) -> &'static str {
        "ruby"
    }
    fn extensions(&self) -> &'static [&'static str] {
        &["rb", "rake", "gemspec"]
    }
    fn described_extensions(&self) -> &'static [&'static str] {
        // Only `.rb`, as `code.find` has had it (`.rake` and `.gemspec` would make more
        // descriptions name a path).
        &["rb"]
    }
    fn grammar(&self, _extension: &str) -> tree_sitter::Language {
        tree_sitter_ruby::LANGUAGE.into()
    }
    fn definition(&self, node: Node, cx: &Context) -> Option<Definition> {
        match node.kind() {
            "class" => {
                let mut def = named(node, cx, SymbolKind::Class, "body")?;
                def.name = last_segment(&def.name).to_string();
                def.signature = cx.first_line_signature(node);
                Some(def)
            }
            "module" => {
                let mut def = named(node, cx, SymbolKind::Mod, "body")?;
                def.name = last_segment(&def.name).to_string();
                def.signature = cx.first_line_signature(node);
                Some(def)
            }
            "method" | "singleton_method" => {
                let kind = match cx.enclosing() {
                    Some(SymbolKind::Class | SymbolKind::Mod) => SymbolKind::Method,
                    _ => SymbolKind::Fn,
                };
                let mut def = named(node, cx, kind, "body")?;
                def.signature = cx.first_line_signature(node);
                Some(def)
            }
            // `alias new old` in a class or module: the method `new` (which the linker
            // follows to `old`).
            "alias" if matches!(cx.enclosing(), Some(SymbolKind::Class | SymbolKind::Mod)) => {
                Some(made_method(node.child_by_field_name("name")?, node, cx))
            }
            // `attr_reader :a, :b` in a class or module: the methods `a` and `b`
            // (`attr_writer`'s: `a=`; `attr_accessor`'s `a=` is its twin); the `:new` of
            // `alias_method :new, :old`.
            "simple_symbol" if accessor_name(node, cx).is_some() => {
                let call = cx.parent(node).and_then(|args| cx.parent(args))?;
                let mut def = made_method(node, call, cx);
                if writes(call, cx) == Writes::Only {
                    def.name.push('=');
                }
                Some(def)
            }
            "assignment" if !cx.in_function() => {
                let left = node.child_by_field_name("left")?;
                if left.kind() != "constant" {
                    return None;
                }
                Some(Definition {
                    name: cx.text(left).to_string(),
                    kind: SymbolKind::Const,
                    signature: cx.first_line_signature(node),
                    doc: None,
                    name_node: Some(left.id()),
                })
            }
            _ => None,
        }
    }
    /// A method a call makes (`attr_reader`, `Struct.new(`, a class's base `Options.new(`)
    /// starts at the call, where Ruby says it is defined, when its name is written on a
    /// line after.
    fn starts_at<'t>(&self, node: Node<'t>, cx: &Context<'t>) -> Option<Node<'t>> {
        (node.kind() == "simple_symbol")
            .then(|| cx.parent(node).and_then(|args| cx.parent(args)))
            .flatten()
            .filter(|call| call.kind() == "call")
    }
    /// `attr_accessor :a` (a `Struct`'s member `:a`) makes the writer `a=` beside the
    /// reader `a`.
    fn twin(&self, node: Node, cx: &Context) -> Option<String> {
        if node.kind() != "simple_symbol" {
            return None;
        }
        let name = accessor_name(node, cx)?;
        let call = cx.parent(node).and_then(|args| cx.parent(args))?;
        (writes(call, cx) == Writes::Also).then(|| format!("{name}="))
    }
    /// `module_eval <<-RUBY … RUBY` (`class_eval`, a string) in a class's or module's
    /// body: the code it defines there; with `#{name}` filled in, once for each element,
    /// inside `%w(a b).each do |name|`.
    fn evaluated(&self, node: Node, cx: &Context) -> Vec<(usize, String)> {
        if node.kind() != "call" {
            return Vec::new();
        }
        let method = node.child_by_field_name("method").map(|m| cx.text(m));
        let receiver = node.child_by_field_name("receiver").map(|r| cx.text(r));
        if !matches!(method, Some("module_eval" | "class_eval"))
            || !matches!(receiver, None | Some("self"))
            || !matches!(cx.enclosing(), Some(SymbolKind::Class | SymbolKind::Mod))
        {
            return Vec::new();
        }
        let first = node
            .child_by_field_name("arguments")
            .and_then(|a| a.named_child(0));
        let code = match first {
            Some(s) if s.kind() == "string" => s,
            Some(h) if h.kind() == "heredoc_beginning" => match heredoc_body(h, node, cx) {
                Some(body) => body,
                None => return Vec::new(),
            },
            _ => return Vec::new(),
        };
        filled_in(code, node, cx)
    }
    /// A value of no known class is told by what is called on it.
    fn typed_by_use(&self) -> bool {
        true
    }
    /// A method written in `class << self` is the class's own.
    fn of_class(&self, node: Node, cx: &Context) -> bool {
        let mut at = cx.parent(node);
        while let Some(n) = at {
            match n.kind() {
                "singleton_class" => {
                    return n
                        .child_by_field_name("value")
                        .is_some_and(|v| cx.text(v) == "self");
                }
                "class" | "module" | "method" | "singleton_method" => return false,
                _ => at = cx.parent(n),
            }
        }
        false
    }
    /// A method whose body only raises `NotImplementedError` (comments aside): Ruby's
    /// abstract method, left to the classes that include or inherit it.
    fn declares(&self, node: Node, cx: &Context) -> bool {
        let Some(body) = node.child_by_field_name("body") else {
            return false;
        };
        if body.kind() != "body_statement" {
            return raises_not_implemented(body, cx);
        }
        let mut statements = (0..body.named_child_count())
            .filter_map(|i| body.named_child(i as u32))
            .filter(|s| s.kind() != "comment");
        statements
            .next()
            .is_some_and(|first| raises_not_implemented(first, cx))
            && statements.next().is_none()
    }
    /// A method gives what its YARD `@return [Type]` says, else its last expression's
    /// value when that is evident (see [`value_type`]).
    fn gives(&self, node: Node, cx: &Context) -> Option<String> {
        if node.kind() == "simple_symbol" {
            // `attr_reader :root`: what the class assigns `@root` (see `scan_elements`).
            return is_reader(node, cx)
                .then(|| cx.field_type(cx.text(node).trim_start_matches(':')))
                .flatten()
                .map(str::to_string);
        }
        if node.kind() == "assignment" {
            // A constant: `DEFAULT = Options.new`, `Renderer = Translator.create { … }`
            // hold what their value gives (not the classes `Struct.new`, `Class.new`
            // make).
            let right = node.child_by_field_name("right")?;
            return value_type(right, cx)
                .filter(|ty| !matches!(ty.as_str(), "Struct" | "Class" | "Module" | "Data"));
        }
        if !matches!(node.kind(), "method" | "singleton_method") {
            return None;
        }
        let documented = cx
            .preceding_comments(node, &["comment"], &[])
            .and_then(|doc| yard_return(&doc));
        documented.or_else(|| {
            let last = last_expression(node.child_by_field_name("body")?)?;
            value_type(last, cx)
        })
    }
    fn references(&self, node: Node, cx: &mut Context) -> bool {
        if let Some((list, value)) = pushed(node, cx)
            && list.kind() == "identifier"
            && let Some(ty) = value_type(value, cx).filter(|t| !t.ends_with(')'))
        {
            // `xs << Foo.new`: an element of the local `xs` is a `Foo` (one of a class
            // known before linking, as for a local's own).
            cx.bind(&element_key(cx.text(list)), ty);
        }
        match node.kind() {
            "class" | "module" => {
                scan_elements(node, cx);
                true
            }
            "call" => {
                let method = node.child_by_field_name("method").map(|m| cx.text(m));
                let receiver = node.child_by_field_name("receiver");
                let first_arg = node
                    .child_by_field_name("arguments")
                    .and_then(|a| a.named_child(0));
                let in_superclass = cx.parent(node).is_some_and(|p| p.kind() == "superclass");
                match method {
                    Some("require" | "require_relative" | "load") if receiver.is_none() => {
                        if let Some(arg) = first_arg.filter(|a| a.kind() == "string") {
                            let module = cx.text(arg);
                            cx.add_import(module);
                            cx.add_ref(
                                RefKind::Import,
                                last_segment(module.trim_matches(|c| c == '"' || c == '\'')),
                                arg,
                            );
                        }
                    }
                    Some("include" | "extend" | "prepend")
                        if node.child_by_field_name("receiver").is_none() =>
                    {
                        // (Of a module: `include(:Style)` in a spec is a matcher.)
                        if let Some(arg) = first_arg.filter(|a| is_constant(*a)) {
                            let name = last_segment(cx.text(arg)).to_string();
                            cx.add_ref(RefKind::Implements, &name, arg);
                            if method != Some("extend") {
                                // Its methods are the class's: called bare in the file.
                                cx.add_binding("*", &name, None);
                            }
                            if method != Some("prepend") {
                                // (A module prepended comes before the class's own
                                // methods, which its `super` calls: not told apart
                                // here, so left out.)
                                add_mixin(arg, cx);
                            }
                            if method == Some("extend")
                                && last_segment(cx.text(arg)) == "Concern"
                                && let Some(class_methods) = nested_class_methods(node, cx)
                            {
                                // `extend ActiveSupport::Concern` with a `module
                                // ClassMethods` inside: what includes the module extends
                                // that.
                                cx.add_mixin(class_methods);
                            }
                        }
                    }
                    // `base.extend ClassMethods`, `base.send(:include, Shell)` in a
                    // module's `self.included(base)`: what includes the module has those
                    // too, as if the module mixed them in.
                    Some(hooked @ ("include" | "extend" | "send"))
                        if receiver.is_some_and(|r| included_hook_base(r, cx)) =>
                    {
                        let args = node.child_by_field_name("arguments");
                        let mixed = if hooked == "send" {
                            args.and_then(|a| a.named_child(0))
                                .filter(|m| {
                                    matches!(
                                        cx.text(*m).trim_start_matches(':').trim_matches('"'),
                                        "include" | "extend"
                                    )
                                })
                                .and_then(|_| args.and_then(|a| a.named_child(1)))
                        } else {
                            first_arg
                        };
                        if let Some(arg) = mixed.filter(|a| is_constant(*a)) {
                            add_mixin(arg, cx);
                            let module = last_segment(cx.text(arg)).to_string();
                            cx.add_ref(RefKind::Implements, &module, arg);
                        }
                        let name = hooked.to_string();
                        cx.add_member_ref(RefKind::Call, &name, node, receiver.unwrap_or(node));
                    }
                    // (`class A < Struct.new(:a)` refers to `Struct` as its base.)
                    Some("new") if in_superclass => {}
                    Some("new") if receiver.is_none_or(|r| class_value(r, cx).is_some()) => {
                        add_new(node, receiver, cx)
                    }
                    Some("super") if receiver.is_none() => add_super(node, cx),
                    Some(name) => {
                        let name = name.to_string();
                        // `x.a = v` calls the writer `a=`; `x.a += v` the reader and the
                        // writer.
                        match (assigned(node, cx), receiver) {
                            (Assigned::Set, Some(_)) => {
                                add_call(node, receiver, &format!("{name}="), cx);
                            }
                            (Assigned::Update, Some(_)) => {
                                add_call(node, receiver, &name, cx);
                                add_call(node, receiver, &format!("{name}="), cx);
                            }
                            _ => add_call(node, receiver, &name, cx),
                        }
                        match (name.as_str(), receiver) {
                            // `x.tap do |y|`: `y` is `x`.
                            ("tap" | "then" | "yield_self", Some(r)) => {
                                bind_block_param(node, value_type(r, cx), cx);
                            }
                            // `xs.each do |x|`: `x` is an element of `xs`.
                            (iterator, Some(r)) if ELEMENT_ITERATORS.contains(&iterator) => {
                                bind_block_param(node, element_type(r, cx), cx);
                            }
                            _ => {}
                        }
                        block_pass(node, receiver, &name, cx);
                        // `x.send(:name, …)`, `method(:name)`: a call of `name`.
                        if matches!(
                            name.as_str(),
                            "send" | "public_send" | "__send__" | "method"
                        ) && let Some(symbol) = first_arg.filter(|a| a.kind() == "simple_symbol")
                        {
                            let called = cx.text(symbol).trim_start_matches(':').to_string();
                            add_call(symbol, receiver, &called, cx);
                        }
                    }
                    None => {}
                }
                true
            }
            // `x = Foo.new`: `x` is a `Foo`; `@x = Foo.parse(s)`: the class's `@x` is
            // what `Foo.parse` gives (`x ||= …` alike); `type = Node[type]`: `type.new`
            // makes a `Node`; `tree = @tree`: `tree` is `@tree`.
            "assignment" | "operator_assignment" => {
                let (Some(left), Some(right)) = (
                    node.child_by_field_name("left"),
                    node.child_by_field_name("right"),
                ) else {
                    return true;
                };
                if left.kind() == "identifier" {
                    if let Some(class) = class_value(right, cx) {
                        cx.bind(&class_key(cx.text(left)), class);
                    }
                    let copied = (node.kind() == "assignment")
                        .then(|| copied_field(right, cx))
                        .flatten();
                    cx.copy_local(cx.text(left), copied);
                }
                if let Some(ty) = value_type(right, cx) {
                    match left.kind() {
                        // (A local keeps its name where what it holds is not evident
                        // before linking: a name can say its class.)
                        "identifier" if !ty.ends_with(')') => cx.bind(cx.text(left), ty),
                        "instance_variable" if cx.in_function() => {
                            cx.bind_field(cx.text(left).trim_start_matches('@'), ty);
                        }
                        _ => {}
                    }
                }
                true
            }
            // A bare `super` (not a call's method: that is the call above).
            "super"
                if !cx.parent(node).is_some_and(|p| {
                    p.kind() == "call"
                        && p.child_by_field_name("method").map(|m| m.id()) == Some(node.id())
                }) =>
            {
                add_super(node, cx);
                false
            }
            "superclass" => {
                let Some(base) = node.named_child(0) else {
                    return false;
                };
                // `class Env < Options.new(:url, :body)`: a class that `Options.new` makes.
                let written = match base.child_by_field_name("receiver") {
                    Some(class) if is_new(base, cx) && is_constant(class) => class,
                    _ => base,
                };
                cx.add_ref(RefKind::Extends, last_segment(cx.text(written)), base);
                // Into `Struct.new(:a, :b)`: the members it makes.
                written.id() != base.id()
            }
            // A parameter's class as YARD documents it (`@param x [Timestamp]`).
            "method" | "singleton_method" => {
                if let Some(doc) = cx.preceding_comments(node, &["comment"], &[]) {
                    for (name, class) in yard_params(&doc) {
                        cx.bind(&name, class);
                    }
                }
                true
            }
            // `return false unless other.kind_of?(Template)`: below, `other` is a
            // `Template`.
            "unless_modifier" => {
                if let Some((name, class)) = guarded(node, cx) {
                    cx.bind(name, class);
                }
                true
            }
            // `def add_text(text, tree = @tree)`: `tree` copies `@tree`.
            "optional_parameter" | "keyword_parameter" => {
                if let (Some(name), Some(value)) = (
                    node.child_by_field_name("name"),
                    node.child_by_field_name("value"),
                ) {
                    let copied = copied_field(value, cx);
                    cx.copy_local(cx.text(name), copied);
                }
                true
            }
            // A bare name is a local variable where one is declared, else a call of a
            // method without arguments (`root`, `parse_context`: Ruby writes no `()`).
            "identifier" => {
                bare_name(node, cx);
                true
            }
            // A class, module or constant used as a value: `parser: Parser`, `rescue
            // Timeout`, `x.is_a?(Zip::Entry)`, `DEFAULT_PORT`.
            "constant" | "scope_resolution" => {
                constant_value(node, cx);
                true
            }
            // (A string's interpolations are code: `"task needed: #{needed?}"`.)
            "comment" => false,
            "string" => node
                .children(&mut node.walk())
                .any(|c| c.kind() == "interpolation"),
            _ => true,
        }
    }
}

/// How a call is written on the left of an assignment: `x.a = v` sets `a`, `x.a += v`
/// (`||=`) updates it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Assigned {
    No,
    Set,
    Update,
}

/// How `call` is assigned (see [`Assigned`]).
fn assigned(call: Node, cx: &Context) -> Assigned {
    let Some(parent) = cx.parent(call) else {
        return Assigned::No;
    };
    let left = parent.child_by_field_name("left").map(|l| l.id()) == Some(call.id());
    match parent.kind() {
        "assignment" if left => Assigned::Set,
        // `x.a, y.b = 1, 2`
        "left_assignment_list" => Assigned::Set,
        "operator_assignment" if left => Assigned::Update,
        _ => Assigned::No,
    }
}

/// The reference a call of `name` on `receiver` (none: `self`'s or a function) makes.
fn add_call(node: Node, receiver: Option<Node>, name: &str, cx: &mut Context) {
    match receiver {
        // `foo(…)`: a method of `self`, or a function.
        None => cx.add_ref(RefKind::Call, name, node),
        // `self.foo`, `self.class.foo`: the enclosing class's or
        // module's.
        Some(r) if matches!(cx.text(r), "self" | "self.class") => {
            let owner = cx
                .enclosing_named(&[SymbolKind::Class, SymbolKind::Mod])
                .map_or_else(|| "?".to_string(), str::to_string);
            cx.add_ref_via(RefKind::Call, name, node, Some(owner));
        }
        // `@x.bar` where the class assigned `@x` a value of known type.
        Some(r)
            if r.kind() == "instance_variable"
                && let Some(ty) = cx.field_type(cx.text(r).trim_start_matches('@')) =>
        {
            let ty = ty.to_string();
            cx.add_ref_via(RefKind::Call, name, node, Some(ty));
        }
        // `Foo.new.bar`: an instance's (`Foo.new()`: what `new`
        // gives, not the class's own `bar`); `@blocks.first.bar`,
        // `xs[0].bar`: an element's.
        Some(r)
            if matches!(r.kind(), "call" | "element_reference")
                && let Some(ty) = value_type(r, cx).filter(|t| !t.ends_with(')')) =>
        {
            let qual = if is_new(r, cx) {
                format!("{ty}.new()")
            } else {
                ty
            };
            cx.add_ref_via(RefKind::Call, name, node, Some(qual));
        }
        // `@x.bar` of a class that assigns `@x` nothing evident: the
        // field, which what the class calls on it may tell.
        Some(r) if r.kind() == "instance_variable" && cx.in_function() => {
            cx.add_ref_via(RefKind::Call, name, node, Some(cx.text(r).to_string()));
        }
        // `::Zip::Entry.read`, `::File.open`: from the top level
        // (`::Zip.Entry`).
        Some(r) if is_constant(r) && cx.text(r).starts_with("::") => {
            let qual = format!("::{}", constant_path(cx.text(r)));
            cx.add_ref_via(RefKind::Call, name, node, Some(qual));
        }
        // `Foo.bar`, `x.bar`, `f(x).bar`.
        Some(r) => cx.add_member_ref(RefKind::Call, name, node, r),
    }
}

/// `xs.map(&:name)`, `f(&:name)`: `name` is called, on each element of `xs` where the
/// call iterates over it (its class, when known), else on a value of no known class
/// (`[]`: not taken for the project's one method of the name — a collection's elements
/// are as often the standard library's or a gem's).
fn block_pass(call: Node, receiver: Option<Node>, method: &str, cx: &mut Context) {
    let Some(args) = call.child_by_field_name("arguments") else {
        return;
    };
    let passed = (0..args.named_child_count())
        .filter_map(|i| args.named_child(i as u32))
        .filter(|a| a.kind() == "block_argument")
        .filter_map(|a| a.named_child(0))
        .find(|s| s.kind() == "simple_symbol");
    let Some(symbol) = passed else {
        return;
    };
    let element = receiver
        .filter(|_| ELEMENT_ITERATORS.contains(&method))
        .and_then(|r| element_type(r, cx));
    let name = cx.text(symbol).trim_start_matches(':').to_string();
    cx.add_ref_via(
        RefKind::Call,
        &name,
        symbol,
        Some(element.unwrap_or_else(|| "[]".to_string())),
    );
}

/// The body of the heredoc `<<-RUBY` (`<<~RUBY`, `<<'RUBY'`) that `beginning` starts in
/// the statement around `call`: the grammar puts it after the statement.
fn heredoc_body<'t>(beginning: Node, call: Node<'t>, cx: &Context<'t>) -> Option<Node<'t>> {
    let name = cx
        .text(beginning)
        .trim_start_matches("<<")
        .trim_start_matches(['~', '-'])
        .trim_matches(['\'', '"', '`']);
    let mut at = Some(call);
    for _ in 0..4 {
        let level = at?;
        let mut next = level.next_named_sibling();
        while let Some(sibling) = next {
            if sibling.kind() == "heredoc_body" {
                let end = (0..sibling.named_child_count())
                    .filter_map(|i| sibling.named_child(i as u32))
                    .find(|c| c.kind() == "heredoc_end");
                if end.is_some_and(|e| cx.text(e).trim() == name) {
                    return Some(sibling);
                }
            }
            next = sibling.next_named_sibling();
        }
        at = cx.parent(level);
    }
    None
}

/// The code a string or heredoc body `code` holds, with the byte its text starts at: as
/// written where it interpolates nothing, else once for each element of the literal list
/// its one interpolated name iterates over (`%w(locale backend).each do |method|` …
/// `def #{method}`); none where an interpolation is anything else.
fn filled_in(code: Node, call: Node, cx: &Context) -> Vec<(usize, String)> {
    let parts: Vec<Node> = (0..code.named_child_count())
        .filter_map(|i| code.named_child(i as u32))
        .filter(|p| p.kind() != "heredoc_end")
        .collect();
    let (Some(first), Some(last)) = (parts.first(), parts.last()) else {
        return Vec::new();
    };
    let (start, end) = (first.start_byte(), last.end_byte());
    let holes: Vec<Node> = parts
        .iter()
        .copied()
        .filter(|p| p.kind() == "interpolation")
        .collect();
    let mut named = None;
    for hole in &holes {
        let inner = hole.named_child(0).filter(|i| i.kind() == "identifier");
        match inner.map(|i| cx.text(i)) {
            Some(name) if hole.named_child_count() == 1 && named.is_none_or(|n| n == name) => {
                named = Some(name);
            }
            _ => return Vec::new(),
        }
    }
    let values = match named {
        None => vec![String::new()],
        Some(name) => match iterated(name, call, cx) {
            Some(values) => values,
            None => return Vec::new(),
        },
    };
    let src = cx.source_text();
    values
        .iter()
        .map(|value| {
            let mut text = String::with_capacity(end - start);
            let mut at = start;
            for hole in &holes {
                text.push_str(src.get(at..hole.start_byte()).unwrap_or(""));
                text.push_str(value);
                at = hole.end_byte();
            }
            text.push_str(src.get(at..end).unwrap_or(""));
            (start, text)
        })
        .collect()
}

/// The elements of the literal list (`%w(a b)`, `%i(a b)`, `[:a, "b"]`) that a block
/// around `at` binds `name` to, one at a time (`.each do |name|`).
fn iterated(name: &str, at: Node, cx: &Context) -> Option<Vec<String>> {
    let mut node = cx.parent(at);
    while let Some(n) = node {
        if matches!(n.kind(), "do_block" | "block")
            && let Some(params) = n.child_by_field_name("parameters")
            && params.named_child_count() == 1
            && params.named_child(0).is_some_and(|p| cx.text(p) == name)
        {
            let each = cx.parent(n).filter(|c| {
                c.kind() == "call"
                    && c.child_by_field_name("method")
                        .is_some_and(|m| cx.text(m) == "each")
            })?;
            let list = each.child_by_field_name("receiver")?;
            if !matches!(list.kind(), "string_array" | "symbol_array" | "array") {
                return None;
            }
            return (0..list.named_child_count())
                .filter_map(|i| list.named_child(i as u32))
                .map(|e| match e.kind() {
                    "bare_string" | "bare_symbol" | "simple_symbol" => {
                        Some(cx.text(e).trim_start_matches(':').to_string())
                    }
                    "string" if e.named_child_count() == 1 => e
                        .named_child(0)
                        .filter(|c| c.kind() == "string_content")
                        .map(|c| cx.text(c).to_string()),
                    _ => None,
                })
                .filter(|v| v.as_ref().is_none_or(|v| !v.contains('\n')))
                .collect();
        }
        if matches!(n.kind(), "class" | "module" | "method" | "singleton_method") {
            return None;
        }
        node = cx.parent(n);
    }
    None
}

/// A constant written as a value (`Parser`, `Zip::Entry`, `DEFAULT_PORT`): a reference
/// to the class or module (`type_ref`) or, named in capitals, the constant (`value`) —
/// not where the walk records it otherwise: a definition's name, a base, a mixin, a
/// call's receiver (`Foo.bar`), a constant assigned, a path's namespace.
fn constant_value(node: Node, cx: &mut Context) {
    let Some(parent) = cx.parent(node) else {
        return;
    };
    let is_field =
        |field: &str| parent.child_by_field_name(field).map(|n| n.id()) == Some(node.id());
    let recorded = match parent.kind() {
        "class" | "module" => is_field("name"),
        "superclass" | "scope_resolution" => true,
        "call" => is_field("receiver") || is_field("method"),
        "assignment" | "operator_assignment" => is_field("left"),
        "argument_list" => cx.parent(parent).is_some_and(|call| {
            call.kind() == "call"
                && call.child_by_field_name("method").is_some_and(|m| {
                    matches!(
                        cx.text(m),
                        "include"
                            | "extend"
                            | "prepend"
                            | "send"
                            | "private_constant"
                            | "public_constant"
                    )
                })
        }),
        _ => false,
    };
    if recorded {
        return;
    }
    let text = cx.text(node);
    let name = last_segment(text).to_string();
    let kind = if name.chars().any(|c| c.is_ascii_lowercase()) {
        RefKind::TypeRef
    } else {
        RefKind::Value
    };
    let path = constant_path(text);
    let qual = path
        .rsplit_once('.')
        .map(|(namespace, _)| namespace.to_string());
    cx.add_ref_via(kind, &name, node, qual);
}

/// A `super` call (`super`, `super(x)`): the method of the same name in the classes the
/// enclosing class extends (`^C.m`: see `ExtractedRef::qual`).
fn add_super(node: Node, cx: &mut Context) {
    let method = cx
        .enclosing_named(&[SymbolKind::Method])
        .map(str::to_string);
    // A module's own method (`def self.included` in a module) has only Ruby's `Module`
    // above it.
    let in_module = cx.enclosing_named(&[SymbolKind::Class, SymbolKind::Mod])
        != cx.enclosing_named(&[SymbolKind::Class]);
    let qual = match (cx.super_qualifier(), method) {
        (Some(_), Some(_)) if in_module && in_singleton_method(node, cx) => None,
        (Some(class), Some(method)) => Some(format!("{class}.{method}")),
        _ => None,
    };
    cx.add_ref_via(RefKind::Call, "super", node, qual);
}

/// Whether `node` is written in a method of its class's own (`def self.m`, or in
/// `class << self`).
fn in_singleton_method(node: Node, cx: &Context) -> bool {
    enclosing_method(node, cx)
        .is_some_and(|m| m.kind() == "singleton_method" || Ruby.of_class(m, cx))
}

/// The method (`def m`, `def self.m`) `node` is written in, if any inside its class or
/// module.
fn enclosing_method<'a>(node: Node<'a>, cx: &Context<'a>) -> Option<Node<'a>> {
    let mut at = cx.parent(node);
    while let Some(n) = at {
        match n.kind() {
            "method" | "singleton_method" => return Some(n),
            "class" | "module" => return None,
            _ => at = cx.parent(n),
        }
    }
    None
}

/// Whether `node` is a call of `new` (`Foo.new(…)`, a bare `new(…)`).
fn is_new(node: Node, cx: &Context) -> bool {
    node.kind() == "call"
        && node
            .child_by_field_name("method")
            .is_some_and(|m| cx.text(m) == "new")
}

/// Whether `node` is `raise NotImplementedError` (with a message or not, or
/// `NotImplementedError.new(…)`).
fn raises_not_implemented(node: Node, cx: &Context) -> bool {
    let is_not_implemented =
        |n: Node| is_constant(n) && last_segment(cx.text(n)) == "NotImplementedError";
    node.kind() == "call"
        && node.child_by_field_name("receiver").is_none()
        && node
            .child_by_field_name("method")
            .is_some_and(|m| cx.text(m) == "raise")
        && node
            .child_by_field_name("arguments")
            .and_then(|a| a.named_child(0))
            .is_some_and(|raised| {
                is_not_implemented(raised)
                    || (raised.kind() == "call"
                        && raised
                            .child_by_field_name("method")
                            .is_some_and(|m| cx.text(m) == "new")
                        && raised
                            .child_by_field_name("receiver")
                            .is_some_and(is_not_implemented))
            })
}

/// The method a statement `at` makes (an accessor, an alias), named by `name` (`a` or
/// `:a`), with the statement's first line as its signature.
fn made_method(name: Node, at: Node, cx: &Context) -> Definition {
    Definition {
        name: cx.text(name).trim_start_matches(':').to_string(),
        kind: SymbolKind::Method,
        signature: cx.first_line_signature(at),
        doc: None,
        name_node: Some(name.id()),
    }
}

/// For `:a` in `attr_reader :a, :b` (`attr_writer`, `attr_accessor`) or the first
/// argument of `alias_method :a, :b`, written in a class's or module's body, or in
/// `Struct.new(:a, :b)`, the method it makes.
fn accessor_name<'s>(node: Node, cx: &Context<'s>) -> Option<&'s str> {
    let args = cx.parent(node).filter(|a| a.kind() == "argument_list")?;
    let call = cx.parent(args).filter(|c| c.kind() == "call")?;
    let receiver = call.child_by_field_name("receiver").map(|r| cx.text(r));
    let made = match (
        call.child_by_field_name("method").map(|m| cx.text(m)),
        receiver,
    ) {
        (Some("attr_reader" | "attr_writer" | "attr_accessor"), None) => {
            matches!(cx.enclosing(), Some(SymbolKind::Class | SymbolKind::Mod))
        }
        (Some("alias_method"), None) => {
            args.named_child(0).map(|a| a.id()) == Some(node.id())
                && matches!(cx.enclosing(), Some(SymbolKind::Class | SymbolKind::Mod))
        }
        // `Struct.new(:a, :b)` (`Data.define(:a, :b)`): as a class's base (`class Part <
        // Struct.new(:name)`) or a constant's value (`Operator = Struct.new(:prefix)`).
        (Some("new"), Some("Struct" | "::Struct")) | (Some("define"), Some("Data" | "::Data")) => {
            matches!(
                cx.enclosing(),
                Some(SymbolKind::Class | SymbolKind::Mod | SymbolKind::Const)
            )
        }
        // A class's base that a class of the project's makes the same way (`class Env <
        // Options.new(:url, :body)`, Faraday's `Options` being a `Struct`).
        (Some("new"), Some(_)) => cx.parent(call).is_some_and(|p| p.kind() == "superclass"),
        // Forwardable's `def_delegators :@doc, :site, :name` (not the first argument:
        // what it forwards to) and `def_delegator :@doc, :site` (`, :alias`: the last).
        (Some(delegator @ ("def_delegators" | "def_delegator")), None) => {
            let at = (0..args.named_child_count())
                .position(|i| args.named_child(i as u32).map(|a| a.id()) == Some(node.id()));
            let count = args.named_child_count();
            matches!(cx.enclosing(), Some(SymbolKind::Class | SymbolKind::Mod))
                && match (delegator, at) {
                    (_, None | Some(0)) => false,
                    ("def_delegators", _) => true,
                    (_, Some(i)) => i + 1 == count,
                }
        }
        _ => false,
    };
    let name = cx.text(node).strip_prefix(':')?;
    (made && !name.is_empty()).then_some(name)
}

/// Whether the methods a call makes (see [`accessor_name`]) write what they name.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Writes {
    /// Readers only (`attr_reader`, `Data.define`), or not accessors at all
    /// (`alias_method`, `def_delegators`).
    No,
    /// Writers only: `attr_writer :a` makes `a=`.
    Only,
    /// A reader and a writer: `attr_accessor :a`, a `Struct`'s member `:a`.
    Also,
}

/// What the methods `call` makes write (see [`Writes`]).
fn writes(call: Node, cx: &Context) -> Writes {
    match call.child_by_field_name("method").map(|m| cx.text(m)) {
        Some("attr_writer") => Writes::Only,
        // (`Struct.new`, and a class's base `Options.new(` made the same way.)
        Some("attr_accessor" | "new") => Writes::Also,
        _ => Writes::No,
    }
}

/// The class a YARD `@return [Type]` names, when it names one class (`nil` aside):
/// `@return [Timezone]`, `@return [DataSources::TimezoneInfo, nil]` → `TimezoneInfo`.
fn yard_return(doc: &str) -> Option<String> {
    let types = doc.lines().find_map(|line| {
        let rest = line.trim_start().strip_prefix("@return")?.trim_start();
        rest.strip_prefix('[')?
            .split_once(']')
            .map(|(types, _)| types)
    })?;
    one_class(types)
}

/// The parameters YARD documents with one class each: `@param x [Timestamp]`,
/// `@param [Timestamp] x`.
fn yard_params(doc: &str) -> Vec<(String, String)> {
    doc.lines()
        .filter_map(|line| {
            let rest = line.trim_start().strip_prefix("@param")?.trim_start();
            let (name, types) = match rest.strip_prefix('[') {
                Some(typed) => {
                    let (types, after) = typed.split_once(']')?;
                    (after.split_whitespace().next()?, types)
                }
                None => {
                    let (name, after) = rest.split_once(char::is_whitespace)?;
                    let typed = after.trim_start().strip_prefix('[')?;
                    (name, typed.split_once(']')?.0)
                }
            };
            let name = name.trim_start_matches(['*', '&']);
            let plain = name.starts_with(|c: char| c.is_ascii_lowercase() || c == '_')
                && name.chars().all(|c| c.is_alphanumeric() || c == '_');
            Some((plain.then(|| name.to_string())?, one_class(types)?))
        })
        .collect()
}

/// The one class of a YARD type list (`nil` aside), by its last segment.
fn one_class(types: &str) -> Option<String> {
    let mut classes = types
        .split(',')
        .map(str::trim)
        .filter(|t| !matches!(*t, "nil" | "void"));
    let class = classes.next().filter(|_| classes.next().is_none())?;
    let class = last_segment(class.trim_start_matches("::"));
    (class.starts_with(|c: char| c.is_ascii_uppercase())
        && class.chars().all(|c| c.is_alphanumeric() || c == '_'))
    .then(|| class.to_string())
}

/// The last expression of a method's body (what it returns), past a trailing `rescue`
/// or `ensure`; an endless method's body is its expression.
fn last_expression(body: Node) -> Option<Node> {
    if !matches!(body.kind(), "body_statement" | "then" | "else") {
        return Some(body);
    }
    (0..body.named_child_count())
        .rev()
        .filter_map(|i| body.named_child(i as u32))
        .find(|s| !matches!(s.kind(), "comment" | "rescue" | "ensure" | "else"))
}

/// The type of a value, as a qualifier (see `ExtractedRef::qual`), when it is evident:
/// `Foo.new` (`Foo`), a bare `new` in a class (the class), `self`, what a call gives
/// (`Foo.parse(s)`: `Foo.parse()`; a bare `foo`, a method called without parentheses:
/// `foo()`), a local or instance variable of known type, an assignment's value.
fn value_type(value: Node, cx: &Context) -> Option<String> {
    match value.kind() {
        "call" => {
            let method = cx.text(value.child_by_field_name("method")?);
            let receiver = value.child_by_field_name("receiver");
            if method == "new" {
                return constructed_class(receiver, cx);
            }
            if let Some(element) = element_got(value, cx) {
                // `@blocks.first`: an element.
                return Some(element);
            }
            let callee = match receiver.map(|r| cx.text(r)) {
                // `self.class.build(…)`: the class's own `build`.
                Some("self" | "self.class") => format!(
                    "{}.{method}()",
                    cx.enclosing_named(&[SymbolKind::Class, SymbolKind::Mod])?
                ),
                Some(r) => format!("{r}.{method}()"),
                None => format!("{method}()"),
            };
            cx.call_qualifier(&callee)
        }
        // A bare `new` in a class method: the class.
        "identifier" if cx.text(value) == "new" && !cx.is_local("new") => {
            constructed_class(None, cx)
        }
        "identifier" => {
            let name = cx.text(value);
            match cx.local_type(name) {
                Some(ty) => Some(ty.to_string()),
                // A parameter or local of no known type (`new_entry = if … end`).
                None if cx.is_local(name) => None,
                // Not a local: a method called without parentheses (`new_body`).
                None => cx.call_qualifier(&format!("{name}()")),
            }
        }
        "instance_variable" => cx
            .field_type(cx.text(value).trim_start_matches('@'))
            .map(str::to_string),
        "self" => cx
            .enclosing_named(&[SymbolKind::Class, SymbolKind::Mod])
            .map(str::to_string),
        // `@blocks[0]`: an element.
        "element_reference" => element_got(value, cx),
        "assignment" | "operator_assignment" => value_type(value.child_by_field_name("right")?, cx),
        // `c ? x : Foo.new`, `if c then Foo.new else x end`, `x || Foo.new`: what the
        // branches give, where those told agree (`nil` aside).
        "conditional" | "if" | "unless" | "elsif" => agreed(
            ["consequence", "alternative"]
                .iter()
                .filter_map(|f| value.child_by_field_name(f)),
            cx,
        ),
        "then" | "else" => value_type(last_expression(value)?, cx),
        "binary"
            if value
                .child_by_field_name("operator")
                .is_some_and(|o| matches!(cx.text(o), "||" | "or")) =>
        {
            agreed(
                ["left", "right"]
                    .iter()
                    .filter_map(|f| value.child_by_field_name(f)),
                cx,
            )
        }
        "parenthesized_statements" => value_type(
            value.named_child(value.named_child_count().checked_sub(1)? as u32)?,
            cx,
        ),
        _ => None,
    }
}

/// The class the values `branches` give, where every one told gives the same (`nil`
/// gives none), and one is told.
fn agreed<'t>(branches: impl Iterator<Item = Node<'t>>, cx: &Context) -> Option<String> {
    let mut agreed: Option<String> = None;
    for branch in branches.filter(|b| b.kind() != "nil") {
        if let Some(ty) = value_type(branch, cx) {
            match &agreed {
                Some(known) if *known != ty => return None,
                _ => agreed = Some(ty),
            }
        }
    }
    agreed
}

/// An identifier: a local's declaration (`x = …`, a block's or method's parameter,
/// `rescue => e`, `for x in`), a use of a local, or a call of a method without
/// arguments (a receiver too: `root.join`) — recorded as a call. The names a call, a
/// definition or an alias writes are theirs.
fn bare_name(node: Node, cx: &mut Context) {
    let Some(parent) = cx.parent(node) else {
        return;
    };
    let is_field =
        |field: &str| parent.child_by_field_name(field).map(|n| n.id()) == Some(node.id());
    let name = cx.text(node);
    match parent.kind() {
        "assignment" | "operator_assignment" if is_field("left") => cx.declare_local(name),
        "left_assignment_list"
        | "destructured_left_assignment"
        | "rest_assignment"
        | "exception_variable" => cx.declare_local(name),
        "for" if is_field("pattern") => cx.declare_local(name),
        "destructured_parameter" => cx.declare_local(name),
        kind if kind.ends_with("parameters")
            || (kind.ends_with("_parameter") && is_field("name")) =>
        {
            cx.declare_local(name)
        }
        // (A receiver that is no local is a call too: `root.join`.)
        "call" if is_field("method") => {}
        "method" | "singleton_method" | "alias" | "undef" | "setter" => {}
        _ if cx.is_local(name) => {}
        // A bare `new` (in a class method): the class, as `Foo.new` is.
        _ if name == "new" => add_new(node, None, cx),
        _ => cx.add_ref(RefKind::Call, name, node),
    }
}

/// The class `new` makes, as a path (`A.Foo`), called on `receiver` (`Foo.new`,
/// `A::Foo.new`, any receiver [`class_value`] tells) or bare (in a class method: the
/// class it is written in); none on another receiver.
fn constructed_class(receiver: Option<Node>, cx: &Context) -> Option<String> {
    match receiver {
        Some(r) => class_value(r, cx),
        None => cx.enclosing_named(&[SymbolKind::Class]).map(str::to_string),
    }
}

/// The class the value `node` is, as a path, when it is evident: a constant (`Foo`,
/// `A::Foo`); a class's registry of its own kinds looked up by a symbol naming one
/// (`Node[:separator]`: `Node::Separator`) or by any other key (`Node[type]`: a
/// `Node`, or a class extending it); a local holding one of those (`type = Node[type]`);
/// `Class.new(Base)` (a class extending `Base`: a `Base`); `self` in a class method.
fn class_value(node: Node, cx: &Context) -> Option<String> {
    match node.kind() {
        _ if is_constant(node) => Some(constant_path(cx.text(node))),
        "element_reference" => {
            // (A class's, by its name in camel case: `COP_CLASSES[type]` is a hash's
            // value, of no class told here.)
            let registry = node
                .child_by_field_name("object")
                .filter(|o| is_constant(*o))?;
            let path = constant_path(cx.text(registry));
            if !last_segment(&path).contains(|c: char| c.is_ascii_lowercase()) {
                return None;
            }
            let mut walk = node.walk();
            let mut keys = node.named_children(&mut walk).skip(1);
            match (keys.next(), keys.next()) {
                (Some(key), None) if key.kind() == "simple_symbol" => {
                    let kind = cx.text(key).trim_start_matches(':');
                    Some(format!("{path}.{}", camel_case(kind)?))
                }
                (Some(_), _) => Some(path),
                (None, _) => None,
            }
        }
        "identifier" => cx.local_type(&class_key(cx.text(node))).map(str::to_string),
        // `Class.new(self, &block)`: a class extending the one named, with its methods.
        "call"
            if is_new(node, cx)
                && node
                    .child_by_field_name("receiver")
                    .is_some_and(|r| cx.text(r) == "Class") =>
        {
            let args = node.child_by_field_name("arguments")?;
            class_value(args.named_child(0)?, cx)
        }
        // `self` in a method of the class's own (`def self.create`).
        "self" if in_class_method(node, cx) => cx
            .enclosing_named(&[SymbolKind::Class, SymbolKind::Mod])
            .map(str::to_string),
        _ => None,
    }
}

/// Whether `node` is written in a method of its class's own (`def self.m`, a `def m`
/// in `class << self`: [`Ruby::of_class`]), where `self` is the class.
fn in_class_method(node: Node, cx: &Context) -> bool {
    let mut at = cx.parent(node);
    while let Some(n) = at {
        match n.kind() {
            "singleton_method" => return true,
            "method" => return Ruby.of_class(n, cx),
            "class" | "module" => return false,
            _ => at = cx.parent(n),
        }
    }
    false
}

/// The local and the class a guard leaves it of: `return false unless
/// other.kind_of?(Template)` (`is_a?`, `instance_of?`; `raise`): the rest of the method
/// runs only for a `Template`. (Not `next` or `break`: a block's parameter, its name
/// often another block's too.)
fn guarded<'t>(node: Node, cx: &Context<'t>) -> Option<(&'t str, String)> {
    let body = node.child_by_field_name("body")?;
    let leaves = match body.kind() {
        "return" => true,
        "call" => {
            body.child_by_field_name("receiver").is_none()
                && body
                    .child_by_field_name("method")
                    .is_some_and(|m| matches!(cx.text(m), "raise" | "fail"))
        }
        _ => false,
    };
    let test = node.child_by_field_name("condition")?;
    if !leaves
        || test.kind() != "call"
        || !test
            .child_by_field_name("method")
            .is_some_and(|m| matches!(cx.text(m), "kind_of?" | "is_a?" | "instance_of?"))
    {
        return None;
    }
    let value = test
        .child_by_field_name("receiver")
        .filter(|r| r.kind() == "identifier")?;
    let args = test.child_by_field_name("arguments")?;
    let class = args.named_child(0).filter(|c| is_constant(*c))?;
    (args.named_child_count() == 1).then(|| (cx.text(value), constant_path(cx.text(class))))
}

/// The instance variable of no known class that `value` is (`@tree`), where it is one.
fn copied_field<'t>(value: Node, cx: &Context<'t>) -> Option<&'t str> {
    (value.kind() == "instance_variable" && value_type(value, cx).is_none()).then(|| cx.text(value))
}

/// The name under which the class a local holds (see [`class_value`]) is bound.
fn class_key(name: &str) -> String {
    format!("{name}.class")
}

/// `separator` → `Separator`, `with_look_ahead` → `WithLookAhead`; None for anything
/// but a lowercase snake-case name.
pub(super) fn camel_case(name: &str) -> Option<String> {
    if !name.starts_with(|c: char| c.is_ascii_lowercase())
        || !name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
    {
        return None;
    }
    let mut camel = String::with_capacity(name.len());
    let mut words = name.split('_').filter(|w| !w.is_empty()).peekable();
    words.peek()?;
    for word in words {
        let mut chars = word.chars();
        camel.extend(chars.next().map(|c| c.to_ascii_uppercase()));
        camel.push_str(chars.as_str());
    }
    Some(camel)
}

/// A `new` (see [`constructed_class`]) as a reference to the class, by its name: `new()`,
/// or `A.Foo.new()` where the path names a namespace (it says which `Foo`).
fn add_new(node: Node, receiver: Option<Node>, cx: &mut Context) {
    let Some(path) = constructed_class(receiver, cx) else {
        return;
    };
    let qual = match path.contains('.') {
        true => format!("{path}.new()"),
        false => "new()".to_string(),
    };
    cx.add_ref_via(RefKind::Call, last_segment(&path), node, Some(qual));
}

/// The methods of Ruby's collections whose block's first parameter is an element
/// (`xs.each do |x|`).
const ELEMENT_ITERATORS: &[&str] = &[
    "each",
    "each_with_index",
    "each_with_object",
    "map",
    "flat_map",
    "collect",
    "select",
    "filter",
    "reject",
    "find",
    "detect",
    "find_all",
    "filter_map",
    "any?",
    "all?",
    "none?",
    "count",
    "sort_by",
    "min_by",
    "max_by",
    "group_by",
    "partition",
    "sum",
    "each_slice",
    "reverse_each",
    "take_while",
    "drop_while",
    "find_index",
    "uniq",
    "delete_if",
    "keep_if",
];

/// The methods of Ruby's collections that give an element (`xs.first`).
const ELEMENT_GETTERS: &[&str] = &[
    "first", "last", "find", "detect", "min_by", "max_by", "fetch", "pop", "shift", "sample", "[]",
    "dig", "at",
];

/// The class of the elements of the collection `value` (`@blocks`, `xs`), as what is
/// pushed into it says ([`scan_elements`], `xs << Foo.new`).
fn element_type(value: Node, cx: &Context) -> Option<String> {
    match value.kind() {
        "instance_variable" => cx
            .field_type(&element_key(cx.text(value).trim_start_matches('@')))
            .map(str::to_string),
        "identifier" => cx
            .local_type(&element_key(cx.text(value)))
            .map(str::to_string),
        _ => None,
    }
}

/// The class of the element `value` gets from a collection (`@blocks.first`,
/// `xs[0]`), when the collection's elements are known.
fn element_got(value: Node, cx: &Context) -> Option<String> {
    let list = match value.kind() {
        "element_reference" => value.child_by_field_name("object")?,
        _ => value
            .child_by_field_name("method")
            .filter(|m| ELEMENT_GETTERS.contains(&cx.text(*m)))
            .and_then(|_| value.child_by_field_name("receiver"))?,
    };
    element_type(list, cx)
}

/// The name under which the class of the elements of the collection `name` is bound.
fn element_key(name: &str) -> String {
    format!("{name}[]")
}

/// `xs << v`, `xs.push(v)` (`append`, `unshift`, `prepend`, `insert`'s last), `xs = [v,
/// …]`, `xs[k] = v`: the collection `xs` (the node written) and the value put into it.
fn pushed<'t>(node: Node<'t>, cx: &Context) -> Option<(Node<'t>, Node<'t>)> {
    match node.kind() {
        "binary"
            if node
                .child_by_field_name("operator")
                .is_some_and(|o| cx.text(o) == "<<") =>
        {
            Some((
                node.child_by_field_name("left")?,
                node.child_by_field_name("right")?,
            ))
        }
        "call" => {
            let method = cx.text(node.child_by_field_name("method")?);
            if !matches!(method, "push" | "append" | "unshift" | "prepend" | "insert") {
                return None;
            }
            let args = node.child_by_field_name("arguments")?;
            let value = args.named_child(args.named_child_count().checked_sub(1)? as u32)?;
            Some((node.child_by_field_name("receiver")?, value))
        }
        "assignment" => {
            let left = node.child_by_field_name("left")?;
            let right = node.child_by_field_name("right")?;
            match (left.kind(), right.kind()) {
                // `@options[name] = Definition.new(…)`: an element (of a list or a hash).
                ("element_reference", _) => Some((left.child_by_field_name("object")?, right)),
                (_, "array") => Some((left, right.named_child(0)?)),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Before the walk enters the class or module at `class`: the classes its methods construct into
/// its instance variables (`@root = Document.new`) and the classes of the elements they
/// push into them (`@blocks << Condition.new(…)`, or a local that holds one: `block =
/// Condition.new(…); @blocks << block`), so that a method written before the one that
/// assigns knows them (`@blocks.each do |block|`), and an `attr_reader` gives them. The
/// first wins, as for what the walk binds itself ([`Context::bind_field`]). Classes and
/// modules written inside are scanned when the walk enters them.
fn scan_elements(class: Node, cx: &mut Context) {
    let mut found: Vec<(String, String)> = Vec::new();
    let mut cursor = class.walk();
    let mut stack = vec![class];
    while let Some(node) = stack.pop() {
        if node.id() != class.id() && matches!(node.kind(), "class" | "module") {
            continue;
        }
        if let Some((list, value)) = pushed(node, cx)
            && list.kind() == "instance_variable"
            && let Some(ty) = constructed_in(value, node, cx)
        {
            found.push((element_key(cx.text(list).trim_start_matches('@')), ty));
        }
        // `@root = Document.new` in a method (not the class body's: the class's own).
        if node.kind() == "assignment"
            && enclosing_method(node, cx).is_some()
            && let (Some(left), Some(right)) = (
                node.child_by_field_name("left"),
                node.child_by_field_name("right"),
            )
            && left.kind() == "instance_variable"
            && let Some(ty) = constructed_in(right, node, cx)
        {
            found.push((cx.text(left).trim_start_matches('@').to_string(), ty));
        }
        let children: Vec<Node> = node.named_children(&mut cursor).collect();
        stack.extend(children.into_iter().rev());
    }
    for (field, ty) in found {
        cx.bind_field(&field, ty);
    }
}

/// Whether `:a` at `node` is an argument of `attr_reader` or `attr_accessor`: a method
/// that reads `@a`.
fn is_reader(node: Node, cx: &Context) -> bool {
    cx.parent(node)
        .filter(|args| args.kind() == "argument_list")
        .and_then(|args| cx.parent(args))
        .filter(|call| call.child_by_field_name("receiver").is_none())
        .and_then(|call| call.child_by_field_name("method"))
        .is_some_and(|m| matches!(cx.text(m), "attr_reader" | "attr_accessor"))
}

/// The class of `value`, pushed at `at`, where it is evident without the walk: `Foo.new`
/// (`A::Foo.new`), or a local that the method assigns one (`block = Foo.new`).
fn constructed_in(value: Node, at: Node, cx: &Context) -> Option<String> {
    // `Foo.new`, `A::Foo.new` (a receiver written).
    let constructed = |v: Node| -> Option<String> {
        let receiver = v
            .child_by_field_name("receiver")
            .filter(|_| is_new(v, cx))?;
        constructed_class(Some(receiver), cx)
    };
    match value.kind() {
        "call" => constructed(value),
        "identifier" => {
            let name = cx.text(value);
            let method = enclosing_method(at, cx)?;
            cx.descendants(method, &["assignment"])
                .into_iter()
                .find_map(|a| {
                    let left = a.child_by_field_name("left")?;
                    (left.kind() == "identifier" && cx.text(left) == name)
                        .then(|| constructed(a.child_by_field_name("right")?))
                        .flatten()
                })
        }
        _ => None,
    }
}

/// For `x.tap do |y|` (`then`, `yield_self`) or `xs.each do |x|`, `node`: its block's
/// first parameter holds a `ty` (what `x` is; an element of `xs`).
fn bind_block_param(node: Node, ty: Option<String>, cx: &mut Context) {
    let param = node
        .child_by_field_name("block")
        .and_then(|b| b.child_by_field_name("parameters"))
        .and_then(|p| p.named_child(0))
        .filter(|p| p.kind() == "identifier");
    if let (Some(param), Some(ty)) = (param, ty) {
        cx.bind(cx.text(param), ty);
    }
}

/// `include M`, `extend M` (or the hook's `base.extend M`) with `arg` the
/// `M` written: the enclosing class or module mixes `M` in, when it is a constant path.
fn add_mixin(arg: Node, cx: &mut Context) {
    if is_constant(arg) {
        cx.add_mixin(constant_path(cx.text(arg)));
    }
}

/// Whether `receiver` is the parameter of the module hook it is written in (`base` of
/// `def self.included(base)`): what includes the module.
fn included_hook_base(receiver: Node, cx: &Context) -> bool {
    receiver.kind() == "identifier"
        && cx.enclosing_named(&[SymbolKind::Method, SymbolKind::Fn]) == Some("included")
        && cx.is_parameter(cx.text(receiver))
}

/// `M.ClassMethods` where the module `M` that `extend`s at `node` has a `module
/// ClassMethods` written directly in it.
fn nested_class_methods(node: Node, cx: &Context) -> Option<String> {
    let body = cx.parent(node).filter(|b| b.kind() == "body_statement")?;
    let module = cx.parent(body).filter(|m| m.kind() == "module")?;
    let has = (0..body.named_child_count())
        .filter_map(|i| body.named_child(i as u32))
        .any(|m| {
            m.kind() == "module"
                && m.child_by_field_name("name")
                    .is_some_and(|n| cx.text(n) == "ClassMethods")
        });
    let name = module.child_by_field_name("name")?;
    has.then(|| format!("{}.ClassMethods", constant_path(cx.text(name))))
}

/// A path of constants as a qualifier: `A::Foo` → `A.Foo`, `::Foo` → `Foo`.
fn constant_path(text: &str) -> String {
    text.trim().trim_start_matches("::").replace("::", ".")
}

/// A constant (`Foo`) or a path of constants (`A::Foo`).
fn is_constant(node: Node) -> bool {
    matches!(node.kind(), "constant" | "scope_resolution")
}

#[cfg(test)]
mod tests {
    use crate::code::lang::declared;

    #[test]
    fn methods_that_only_raise_not_implemented_declare() {
        let src = r##"
class Base
  def call
    raise NotImplementedError
  end

  def name(x)
    # Subclasses name themselves.
    raise NotImplementedError, "#{self.class} must say"
  end

  def size = raise(NotImplementedError.new("no"))

  def noop; end

  def check
    raise NotImplementedError unless ready?
  end

  def run
    call
  end
end
"##;
        assert_eq!(
            declared("a.rb", src),
            ["call;", "name;", "size;", "noop", "check", "run"]
        );
    }
}
