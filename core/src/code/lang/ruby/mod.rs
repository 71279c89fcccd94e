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
    fn references(&self, node: Node, cx: &mut Context) -> bool {
        match node.kind() {
            "call" => {
                let method = node.child_by_field_name("method").map(|m| cx.text(m));
                let receiver = node.child_by_field_name("receiver");
                let first_arg = node
                    .child_by_field_name("arguments")
                    .and_then(|a| a.named_child(0));
                match method {
                    Some("require" | "require_relative" | "load") => {
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
                    Some("new") if receiver.is_some_and(is_constant) => {
                        // `Foo.new`, `A::Foo.new`: the class.
                        let class = receiver.map(|r| last_segment(cx.text(r)).to_string());
                        if let Some(class) = class {
                            cx.add_ref_via(RefKind::Call, &class, node, Some("new()".into()));
                        }
                    }
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
                            // `Foo.bar`, `x.bar`, `@x.bar`, `f(x).bar`.
                            Some(r) => cx.add_member_ref(RefKind::Call, &name, node, r),
                        }
                    }
                    None => {}
                }
                true
            }
            // `x = Foo.new`: `x` is a `Foo`.
            "assignment" => {
                if let (Some(left), Some(right)) = (
                    node.child_by_field_name("left"),
                    node.child_by_field_name("right"),
                ) && left.kind() == "identifier"
                    && right.kind() == "call"
                    && right
                        .child_by_field_name("method")
                        .is_some_and(|m| cx.text(m) == "new")
                    && let Some(class) = right
                        .child_by_field_name("receiver")
                        .filter(|r| is_constant(*r))
                {
                    let (name, ty) = (
                        cx.text(left).to_string(),
                        last_segment(cx.text(class)).to_string(),
                    );
                    cx.bind_type(&name, &ty);
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
