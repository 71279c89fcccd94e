//! Go (`.go`).

mod link;

use tree_sitter::Node;

use super::{LanguageExtractor, named};
use crate::code::extract::{Context, Definition, last_segment};
use crate::code::{RefKind, SymbolKind};

pub(super) use link::Linking;

/// Go.
pub struct Go;

impl LanguageExtractor for Go {
    fn name(&self) -> &'static str {
        "go"
    }
    fn extensions(&self) -> &'static [&'static str] {
        &["go"]
    }
    fn grammar(&self, _extension: &str) -> tree_sitter::Language {
        tree_sitter_go::LANGUAGE.into()
    }
    fn definition(&self, node: Node, cx: &Context) -> Option<Definition> {
        match node.kind() {
            "function_declaration" => named(node, cx, SymbolKind::Fn, "body"),
            "method_declaration" | "method_elem" => named(node, cx, SymbolKind::Method, "body"),
            "type_spec" | "type_alias" => {
                let kind = match node.child_by_field_name("type").map(|t| t.kind()) {
                    Some("struct_type") => SymbolKind::Struct,
                    Some("interface_type") => SymbolKind::Interface,
                    _ => SymbolKind::Type,
                };
                let mut def = named(node, cx, kind, "")?;
                def.signature = cx.first_line_signature(node).map(|s| format!("type {s}"));
                Some(def)
            }
            "const_spec" | "var_spec" if !cx.in_function() => {
                let kind = if node.kind() == "const_spec" {
                    SymbolKind::Const
                } else {
                    SymbolKind::Var
                };
                let mut def = named(node, cx, kind, "")?;
                def.signature = cx.first_line_signature(node);
                Some(def)
            }
            "field_declaration" if cx.enclosing() == Some(SymbolKind::Struct) => {
                let mut def = named(node, cx, SymbolKind::Var, "")?;
                def.signature = cx.first_line_signature(node);
                Some(def)
            }
            _ => None,
        }
    }
    /// An interface's method, or a function declared without a body (one written in
    /// assembly).
    fn declares(&self, node: Node, _cx: &Context) -> bool {
        match node.kind() {
            "method_elem" => true,
            "function_declaration" | "method_declaration" => {
                node.child_by_field_name("body").is_none()
            }
            _ => false,
        }
    }
    fn doc_comment(&self, node: Node, cx: &Context) -> Option<String> {
        // A doc comment sits above the `type`/`const`/`var` keyword of a single spec.
        let anchor = match node.kind() {
            "type_spec" | "type_alias" | "const_spec" | "var_spec" => match cx.parent(node) {
                Some(p) if p.named_child_count() == 1 => p,
                _ => node,
            },
            _ => node,
        };
        cx.preceding_comments(anchor, &["comment"], &[])
    }
    fn references(&self, node: Node, cx: &mut Context) -> bool {
        match node.kind() {
            "call_expression" => {
                if let Some(f) = node.child_by_field_name("function") {
                    match f.kind() {
                        "identifier" => {
                            let name = cx.text(f);
                            cx.add_ref(RefKind::Call, name, f);
                        }
                        "selector_expression" => {
                            if let (Some(field), Some(operand)) = (
                                f.child_by_field_name("field"),
                                f.child_by_field_name("operand"),
                            ) {
                                let name = cx.text(field);
                                cx.add_member_ref(RefKind::Call, name, f, operand);
                            }
                        }
                        _ => {}
                    }
                }
                true
            }
            "import_spec" => {
                if let Some(path) = node.child_by_field_name("path") {
                    let module = cx.text(path);
                    cx.add_import(module);
                    let shown = node.child_by_field_name("name").map_or_else(
                        || last_segment(module.trim_matches(|c| c == '"' || c == '`')),
                        |n| cx.text(n),
                    );
                    match shown {
                        "_" => {}
                        "." => cx.add_binding("*", module, None),
                        _ => cx.add_binding(shown, module, None),
                    }
                    cx.add_ref(RefKind::Import, shown, node);
                }
                false
            }
            "type_identifier" => {
                let text = cx.text(node);
                cx.add_ref(RefKind::TypeRef, text, node);
                false
            }
            "qualified_type" => {
                if let (Some(name), Some(package)) = (
                    node.child_by_field_name("name"),
                    node.child_by_field_name("package"),
                ) {
                    let text = cx.text(name);
                    cx.add_member_ref(RefKind::TypeRef, text, node, package);
                }
                false
            }
            "parameter_declaration" | "var_spec" => {
                let names: Vec<Node> = node
                    .children_by_field_name("name", &mut node.walk())
                    .collect();
                if let Some(ty) = node.child_by_field_name("type") {
                    let ty = cx.text(ty);
                    for name in names {
                        let name = cx.text(name);
                        cx.bind_type(name, ty);
                    }
                } else if let (Some(name), Some(value)) =
                    (names.first(), node.child_by_field_name("value"))
                {
                    // `var x = F(…)`
                    bind_value(cx, *name, value);
                }
                true
            }
            // `x := T{…}`, `x := &T{…}`, `x, err := F(…)`
            "short_var_declaration" => {
                if let (Some(left), Some(right)) = (
                    node.child_by_field_name("left"),
                    node.child_by_field_name("right"),
                ) && let Some(name) = left.named_child(0)
                {
                    bind_value(cx, name, right);
                }
                true
            }
            "argument_list" => {
                let nodes =
                    (0..node.named_child_count()).filter_map(|i| node.named_child(i as u32));
                cx.add_values(nodes, |n| {
                    (n.kind() == "selector_expression")
                        .then(|| {
                            n.child_by_field_name("field")
                                .zip(n.child_by_field_name("operand"))
                        })
                        .flatten()
                });
                true
            }
            "comment" | "interpreted_string_literal" | "raw_string_literal" => false,
            _ => true,
        }
    }
}

/// Bind the local `name` to the type of `values` (an expression list) when it is one
/// value of evident type: a composite literal's (`T{…}`, `&T{…}`), or what a call
/// returns (`F(…)`: the first of its results, as `x, err := F(…)` takes it).
fn bind_value(cx: &mut Context, name: Node, values: Node) {
    if values.named_child_count() != 1 {
        return;
    }
    let Some(value) = values.named_child(0) else {
        return;
    };
    let value = match value.kind() {
        "unary_expression" => value.child_by_field_name("operand").unwrap_or(value),
        _ => value,
    };
    let name = cx.text(name);
    match value.kind() {
        "composite_literal" => {
            if let Some(ty) = value.child_by_field_name("type") {
                let ty = cx.text(ty);
                cx.bind_type(name, ty);
            }
        }
        "call_expression" => {
            let call = cx.text(value);
            cx.bind_returned(name, call);
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use crate::code::lang::declared;

    #[test]
    fn interface_methods_and_functions_without_a_body_declare() {
        let src = r#"package store

type Store interface {
	Get(key string) string
}

type Memory struct{}

func (m *Memory) Get(key string) string { return key }

// Implemented in assembly.
func add(a, b int) int

func New() *Memory { return &Memory{} }
"#;
        assert_eq!(declared("a.go", src), ["Get;", "Get", "add;", "New"]);
    }
}
