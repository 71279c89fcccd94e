//! Python (`.py .pyi`).

use tree_sitter::Node;

use super::{LanguageExtractor, named, outer};
use crate::code::extract::{Context, Definition, clip_doc, last_segment};
use crate::code::{RefKind, SymbolKind};

/// Python.
pub struct Python;

/// The docstring of a `def` or `class`: the string that opens its body.
fn docstring(node: Node, cx: &Context) -> Option<String> {
    let first = node.child_by_field_name("body")?.named_child(0)?;
    if first.kind() != "expression_statement" {
        return None;
    }
    let string = first.named_child(0).filter(|s| s.kind() == "string")?;
    let text = cx.text(string);
    let text = text.trim_start_matches(|c: char| "rRbBuUfF".contains(c));
    let text = ["\"\"\"", "'''", "\"", "'"]
        .iter()
        .find_map(|q| text.strip_prefix(q).and_then(|t| t.strip_suffix(q)))
        .unwrap_or(text);
    // Dedent: strip each line's leading whitespace.
    let doc = text.lines().map(str::trim).collect::<Vec<_>>().join("\n");
    clip_doc(doc)
}

fn is_constant_name(name: &str) -> bool {
    name.chars().any(|c| c.is_ascii_uppercase())
        && name
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

/// The references of a decorator, made by the definition it decorates: the decorator
/// itself as a call (`@cache`, `@functools.wraps(f)` → `cache`, `wraps`), then whatever
/// its arguments refer to.
fn decorator_refs(lang: &Python, decorator: Node, cx: &mut Context) {
    let Some(expression) = decorator.named_child(0) else {
        return;
    };
    let name = match expression.kind() {
        "identifier" => Some(cx.text(expression)),
        "attribute" => expression
            .child_by_field_name("attribute")
            .map(|a| cx.text(a)),
        _ => None,
    };
    if let Some(name) = name {
        cx.add_ref(RefKind::Call, name, expression);
    }
    let mut stack = vec![expression];
    while let Some(node) = stack.pop() {
        if lang.references(node, cx) {
            for i in (0..node.named_child_count()).rev() {
                if let Some(child) = node.named_child(i as u32) {
                    stack.push(child);
                }
            }
        }
    }
}

impl LanguageExtractor for Python {
    fn name(&self) -> &'static str {
        "python"
    }
    fn extensions(&self) -> &'static [&'static str] {
        &["py", "pyi"]
    }
    fn grammar(&self, _extension: &str) -> tree_sitter::Language {
        tree_sitter_python::LANGUAGE.into()
    }
    fn definition(&self, node: Node, cx: &Context) -> Option<Definition> {
        match node.kind() {
            "function_definition" => {
                let mut def = named(node, cx, cx.fn_kind(), "body")?;
                def.doc = docstring(node, cx);
                Some(def)
            }
            "class_definition" => {
                let mut def = named(node, cx, SymbolKind::Class, "body")?;
                def.doc = docstring(node, cx);
                Some(def)
            }
            "assignment" if !cx.in_function() => {
                let left = node.child_by_field_name("left")?;
                if left.kind() != "identifier" {
                    return None;
                }
                let name = cx.text(left);
                let kind = if is_constant_name(name) {
                    SymbolKind::Const
                } else {
                    SymbolKind::Var
                };
                Some(Definition {
                    name: name.to_string(),
                    kind,
                    signature: cx.first_line_signature(node),
                    doc: None,
                    name_node: Some(left.id()),
                })
            }
            "type_alias_statement" => {
                let left = node.child_by_field_name("left")?;
                let name = left.named_child(0).unwrap_or(left);
                Some(Definition {
                    name: cx.text(name).to_string(),
                    kind: SymbolKind::Type,
                    signature: cx.first_line_signature(node),
                    doc: None,
                    name_node: Some(name.id()),
                })
            }
            _ => None,
        }
    }
    fn doc_comment(&self, node: Node, cx: &Context) -> Option<String> {
        // A decorated definition is documented by the comments above its decorators.
        let anchor = if node.kind() == "assignment" {
            cx.parent(node).unwrap_or(node)
        } else {
            outer(node, cx, &["decorated_definition"])
        };
        cx.preceding_comments(anchor, &["comment"], &[])
    }
    fn references(&self, node: Node, cx: &mut Context) -> bool {
        match node.kind() {
            // Decorators belong to the definition they decorate (below), which the walk
            // enters after them.
            "decorator" => false,
            "function_definition" | "class_definition" => {
                if let Some(parent) = cx
                    .parent(node)
                    .filter(|p| p.kind() == "decorated_definition")
                {
                    for i in 0..parent.named_child_count() {
                        if let Some(decorator) = parent.named_child(i as u32)
                            && decorator.kind() == "decorator"
                        {
                            decorator_refs(self, decorator, cx);
                        }
                    }
                }
                true
            }
            "call" => {
                if let Some(function) = node.child_by_field_name("function") {
                    let name = match function.kind() {
                        "identifier" => Some(cx.text(function)),
                        "attribute" => function
                            .child_by_field_name("attribute")
                            .map(|a| cx.text(a)),
                        _ => None,
                    };
                    if let Some(name) = name {
                        cx.add_ref(RefKind::Call, name, function);
                    }
                }
                true
            }
            "import_statement" => {
                for name in node
                    .children_by_field_name("name", &mut node.walk())
                    .collect::<Vec<_>>()
                {
                    let path = name.child_by_field_name("name").unwrap_or(name);
                    let module = cx.text(path);
                    cx.add_import(module);
                    let shown = name
                        .child_by_field_name("alias")
                        .map_or(last_segment(module), |a| cx.text(a));
                    cx.add_ref(RefKind::Import, shown, name);
                }
                false
            }
            "import_from_statement" => {
                if let Some(module) = node.child_by_field_name("module_name") {
                    let text = cx.text(module);
                    cx.add_import(text);
                }
                for name in node
                    .children_by_field_name("name", &mut node.walk())
                    .collect::<Vec<_>>()
                {
                    let path = name.child_by_field_name("name").unwrap_or(name);
                    let text = last_segment(cx.text(path));
                    cx.add_ref(RefKind::Import, text, name);
                }
                false
            }
            "argument_list"
                if cx
                    .parent(node)
                    .is_some_and(|p| p.kind() == "class_definition")
                    && cx
                        .parent(node)
                        .and_then(|p| p.child_by_field_name("superclasses"))
                        .is_some_and(|s| s.id() == node.id()) =>
            {
                for i in 0..node.named_child_count() {
                    if let Some(base) = node.named_child(i as u32) {
                        let name = match base.kind() {
                            "identifier" => Some(cx.text(base)),
                            "attribute" => {
                                base.child_by_field_name("attribute").map(|a| cx.text(a))
                            }
                            "subscript" => base
                                .child_by_field_name("value")
                                .map(|v| last_segment(cx.text(v))),
                            _ => None,
                        };
                        if let Some(name) = name {
                            cx.add_ref(RefKind::Extends, name, base);
                        }
                    }
                }
                false
            }
            "type" => {
                for id in cx.descendants(node, &["identifier"]) {
                    let text = cx.text(id);
                    cx.add_ref(RefKind::TypeRef, text, id);
                }
                false
            }
            "comment" | "string" => false,
            _ => true,
        }
    }
}
