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
            // `attr_reader :a, :b` in a class or module: the methods `a` and `b` (one
            // definition per name; `attr_writer`'s `a=` is called as `a`); the `:new` of
            // `alias_method :new, :old`.
            "simple_symbol" if accessor_name(node, cx).is_some() => {
                let call = cx.parent(node).and_then(|args| cx.parent(args))?;
                Some(made_method(node, call, cx))
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
        match node.kind() {
            "call" => {
                let method = node.child_by_field_name("method").map(|m| cx.text(m));
                let receiver = node.child_by_field_name("receiver");
                let first_arg = node
                    .child_by_field_name("arguments")
                    .and_then(|a| a.named_child(0));
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
                        if let Some(arg) = first_arg {
                            let name = last_segment(cx.text(arg)).to_string();
                            cx.add_ref(RefKind::Implements, &name, arg);
                            if method != Some("extend") {
                                // Its methods are the class's: called bare in the file.
                                cx.add_binding("*", &name, None);
                            }
                        }
                    }
                    Some("new") if receiver.is_none_or(is_constant) => add_new(node, receiver, cx),
                    Some("super") if receiver.is_none() => add_super(node, cx),
                    Some(name) => {
                        let name = name.to_string();
                        match receiver {
                            // `foo(…)`: a method of `self`, or a function.
                            None => cx.add_ref(RefKind::Call, &name, node),
                            // `self.foo`, `self.class.foo`: the enclosing class's or
                            // module's.
                            Some(r) if matches!(cx.text(r), "self" | "self.class") => {
                                let owner = cx
                                    .enclosing_named(&[SymbolKind::Class, SymbolKind::Mod])
                                    .map_or_else(|| "?".to_string(), str::to_string);
                                cx.add_ref_via(RefKind::Call, &name, node, Some(owner));
                            }
                            // `@x.bar` where the class assigned `@x` a value of known type.
                            Some(r)
                                if r.kind() == "instance_variable"
                                    && let Some(ty) =
                                        cx.field_type(cx.text(r).trim_start_matches('@')) =>
                            {
                                let ty = ty.to_string();
                                cx.add_ref_via(RefKind::Call, &name, node, Some(ty));
                            }
                            // `Foo.bar`, `x.bar`, `@x.bar`, `f(x).bar`.
                            Some(r) => cx.add_member_ref(RefKind::Call, &name, node, r),
                        }
                        // `x.tap do |y|`: `y` is `x`.
                        if let ("tap" | "then" | "yield_self", Some(r)) = (name.as_str(), receiver)
                        {
                            bind_block_param(node, r, cx);
                        }
                    }
                    None => {}
                }
                true
            }
            // `x = Foo.new`: `x` is a `Foo`; `@x = Foo.parse(s)`: the class's `@x` is
            // what `Foo.parse` gives (`x ||= …` alike).
            "assignment" | "operator_assignment" => {
                if let (Some(left), Some(right)) = (
                    node.child_by_field_name("left"),
                    node.child_by_field_name("right"),
                ) && let Some(ty) = value_type(right, cx)
                {
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
                if let Some(base) = node.named_child(0) {
                    let name = last_segment(cx.text(base));
                    cx.add_ref(RefKind::Extends, name, base);
                }
                false
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
            // A bare name is a local variable where one is declared, else a call of a
            // method without arguments (`root`, `parse_context`: Ruby writes no `()`).
            "identifier" => {
                bare_name(node, cx);
                true
            }
            "comment" | "string" => false,
            _ => true,
        }
    }
}

/// A `super` call (`super`, `super(x)`): the method of the same name in the classes the
/// enclosing class extends (`^C.m`: see `ExtractedRef::qual`).
fn add_super(node: Node, cx: &mut Context) {
    let method = cx
        .enclosing_named(&[SymbolKind::Method])
        .map(str::to_string);
    let qual = match (cx.super_qualifier(), method) {
        (Some(class), Some(method)) => Some(format!("{class}.{method}")),
        _ => None,
    };
    cx.add_ref_via(RefKind::Call, "super", node, qual);
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
        // `Struct.new(:a, :b)`: as a class's base (`class Part < Struct.new(:name)`) or
        // a constant's value (`Operator = Struct.new(:prefix)`).
        (Some("new"), Some("Struct" | "::Struct")) => matches!(
            cx.enclosing(),
            Some(SymbolKind::Class | SymbolKind::Mod | SymbolKind::Const)
        ),
        _ => false,
    };
    let name = cx.text(node).strip_prefix(':')?;
    (made && !name.is_empty()).then_some(name)
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
    if body.kind() != "body_statement" {
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
        "identifier" => {
            let name = cx.text(value);
            match cx.local_type(name) {
                Some(ty) => Some(ty.to_string()),
                None if cx.is_parameter(name) => None,
                // Not a local of known type nor a parameter: a method called without
                // parentheses (`new_body`), or a local of no known type (whose name is
                // then no method's either, and the call links to nothing).
                None => cx.call_qualifier(&format!("{name}()")),
            }
        }
        "instance_variable" => cx
            .field_type(cx.text(value).trim_start_matches('@'))
            .map(str::to_string),
        "self" => cx
            .enclosing_named(&[SymbolKind::Class, SymbolKind::Mod])
            .map(str::to_string),
        "assignment" | "operator_assignment" => value_type(value.child_by_field_name("right")?, cx),
        "parenthesized_statements" => value_type(
            value.named_child(value.named_child_count().checked_sub(1)? as u32)?,
            cx,
        ),
        _ => None,
    }
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
/// `A::Foo.new`) or bare (in a class method: the class it is written in); none on a
/// receiver that is no constant.
fn constructed_class(receiver: Option<Node>, cx: &Context) -> Option<String> {
    match receiver {
        Some(r) if is_constant(r) => Some(constant_path(cx.text(r))),
        Some(_) => None,
        None => cx.enclosing_named(&[SymbolKind::Class]).map(str::to_string),
    }
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

/// For `x.tap do |y|` (`then`, `yield_self`), `node`, with `x` its `receiver`: `y`
/// holds what `x` is.
fn bind_block_param(node: Node, receiver: Node, cx: &mut Context) {
    let param = node
        .child_by_field_name("block")
        .and_then(|b| b.child_by_field_name("parameters"))
        .filter(|p| p.named_child_count() == 1)
        .and_then(|p| p.named_child(0))
        .filter(|p| p.kind() == "identifier");
    if let (Some(param), Some(ty)) = (param, value_type(receiver, cx)) {
        cx.bind(cx.text(param), ty);
    }
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
