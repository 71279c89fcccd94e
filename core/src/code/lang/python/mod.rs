//! Python (`.py .pyi`).

mod link;

use tree_sitter::Node;

use super::{LanguageExtractor, named, outer};
use crate::code::extract::{Context, Definition, clip_doc, last_segment};
use crate::code::{RefKind, SymbolKind};

pub(super) use link::Linking;

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

/// The type of `x: Foo = …` or the evident one of `x = Foo(…)` (a capitalised callee).
fn assigned_type(node: Node, cx: &mut Context) {
    let Some(left) = node
        .child_by_field_name("left")
        .filter(|l| l.kind() == "identifier")
    else {
        return;
    };
    let ty = match node.child_by_field_name("type") {
        Some(ty) => Some(cx.text(ty)),
        None => node
            .child_by_field_name("right")
            .filter(|r| r.kind() == "call")
            .and_then(|r| r.child_by_field_name("function"))
            .filter(|f| f.kind() == "identifier")
            .map(|f| cx.text(f))
            .filter(|t| t.starts_with(char::is_uppercase)),
    };
    if let Some(ty) = ty {
        let name = cx.text(left);
        cx.bind_type(name, ty);
    }
}

/// Names used as values in `nodes`: `f`, `mod.f` (not calls).
fn values<'t>(nodes: impl IntoIterator<Item = Node<'t>>, cx: &mut Context) {
    cx.add_values(nodes, |n| {
        (n.kind() == "attribute")
            .then(|| {
                n.child_by_field_name("attribute")
                    .zip(n.child_by_field_name("object"))
            })
            .flatten()
    });
}

/// A reference to what `node` names: `f` bare, `a.b.f` as `f` via `a.b`.
fn add_callee_ref(kind: RefKind, node: Node, cx: &mut Context) {
    match node.kind() {
        "identifier" => {
            let name = cx.text(node);
            cx.add_ref(kind, name, node);
        }
        "attribute" => {
            if let (Some(name), Some(object)) = (
                node.child_by_field_name("attribute"),
                node.child_by_field_name("object"),
            ) {
                let name = cx.text(name);
                cx.add_member_ref(kind, name, node, object);
            }
        }
        _ => {}
    }
}

/// The references of a decorator, made by the definition it decorates: the decorator
/// itself as a call (`@cache`, `@functools.wraps(f)` → `cache`, `wraps`), then whatever
/// its arguments refer to.
fn decorator_refs(lang: &Python, decorator: Node, cx: &mut Context) {
    let Some(expression) = decorator.named_child(0) else {
        return;
    };
    add_callee_ref(RefKind::Call, expression, cx);
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
                    add_callee_ref(RefKind::Call, function, cx);
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
                    let alias = name.child_by_field_name("alias").map(|a| cx.text(a));
                    match alias {
                        // `import a.b as c`: `c` is `a.b`.
                        Some(alias) => cx.add_binding(alias, module, None),
                        // `import a.b`: `a` is `a` (and `a.b` is reached through it).
                        None => {
                            let top = module.split('.').next().unwrap_or(module);
                            cx.add_binding(top, top, None);
                        }
                    }
                    let shown = alias.unwrap_or(last_segment(module));
                    cx.add_ref(RefKind::Import, shown, name);
                }
                false
            }
            "import_from_statement" => {
                let module = node
                    .child_by_field_name("module_name")
                    .map_or("", |m| cx.text(m));
                if !module.is_empty() {
                    cx.add_import(module);
                }
                for name in node
                    .children_by_field_name("name", &mut node.walk())
                    .collect::<Vec<_>>()
                {
                    let path = name.child_by_field_name("name").unwrap_or(name);
                    let text = last_segment(cx.text(path));
                    let local = name
                        .child_by_field_name("alias")
                        .map_or(text, |a| cx.text(a));
                    cx.add_binding(local, module, Some(text));
                    cx.add_ref(RefKind::Import, text, name);
                }
                if (0..node.named_child_count())
                    .filter_map(|i| node.named_child(i as u32))
                    .any(|c| c.kind() == "wildcard_import")
                {
                    cx.add_binding("*", module, None);
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
                        match base.kind() {
                            "subscript" => {
                                if let Some(value) = base.child_by_field_name("value") {
                                    add_callee_ref(RefKind::Extends, value, cx);
                                }
                            }
                            _ => add_callee_ref(RefKind::Extends, base, cx),
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
            "argument_list" | "return_statement" | "list" | "tuple" => {
                let nodes = (0..node.named_child_count())
                    .filter_map(|i| node.named_child(i as u32))
                    .map(|n| match n.kind() {
                        "keyword_argument" => n.child_by_field_name("value").unwrap_or(n),
                        _ => n,
                    });
                values(nodes, cx);
                true
            }
            "assignment" => {
                assigned_type(node, cx);
                values(node.child_by_field_name("right"), cx);
                true
            }
            "typed_parameter" | "typed_default_parameter" => {
                let name = node
                    .child_by_field_name("name")
                    .or_else(|| node.named_child(0))
                    .filter(|n| n.kind() == "identifier");
                if let (Some(name), Some(ty)) = (name, node.child_by_field_name("type")) {
                    let (name, ty) = (cx.text(name), cx.text(ty));
                    cx.bind_type(name, ty);
                }
                true
            }
            "comment" | "string" => false,
            _ => true,
        }
    }
}
