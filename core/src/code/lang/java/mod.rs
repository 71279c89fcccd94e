//! Java (`.java`).

mod link;

use tree_sitter::Node;

use super::{LanguageExtractor, named};
use crate::code::extract::{Context, Definition, last_segment};
use crate::code::{RefKind, SymbolKind};

pub(super) use link::Linking;

/// Java.
pub struct Java;

fn type_names<'t>(node: Node<'t>, cx: &Context) -> Vec<Node<'t>> {
    cx.descendants(node, &["type_identifier", "scoped_type_identifier"])
}

impl LanguageExtractor for Java {
    fn name(&self) -> &'static str {
        "java"
    }
    fn extensions(&self) -> &'static [&'static str] {
        &["java"]
    }
    fn main_is_method(&self) -> bool {
        true
    }
    fn grammar(&self, _extension: &str) -> tree_sitter::Language {
        tree_sitter_java::LANGUAGE.into()
    }
    fn definition(&self, node: Node, cx: &Context) -> Option<Definition> {
        match node.kind() {
            "class_declaration" | "record_declaration" => {
                named(node, cx, SymbolKind::Class, "body")
            }
            "interface_declaration" | "annotation_type_declaration" => {
                named(node, cx, SymbolKind::Interface, "body")
            }
            "enum_declaration" => named(node, cx, SymbolKind::Enum, "body"),
            "method_declaration" | "constructor_declaration" => {
                named(node, cx, SymbolKind::Method, "body")
            }
            "enum_constant" => {
                let mut def = named(node, cx, SymbolKind::Const, "body")?;
                def.signature = None;
                Some(def)
            }
            "variable_declarator" if !cx.in_function() => {
                let field = cx
                    .parent(node)
                    .filter(|p| p.kind() == "field_declaration")?;
                let modifiers = (0..field.named_child_count())
                    .filter_map(|i| field.named_child(i as u32))
                    .find(|c| c.kind() == "modifiers")
                    .map(|m| cx.text(m))
                    .unwrap_or("");
                let kind = if modifiers.contains("static") && modifiers.contains("final") {
                    SymbolKind::Const
                } else {
                    SymbolKind::Var
                };
                let mut def = named(node, cx, kind, "")?;
                def.signature = cx.first_line_signature(field);
                Some(def)
            }
            _ => None,
        }
    }
    /// A method without a body: an interface's (not a `default` or `static` one), an
    /// `abstract` or a `native` method.
    fn declares(&self, node: Node, _cx: &Context) -> bool {
        node.kind() == "method_declaration" && node.child_by_field_name("body").is_none()
    }
    fn doc_comment(&self, node: Node, cx: &Context) -> Option<String> {
        let anchor = if node.kind() == "variable_declarator" {
            cx.parent(node).unwrap_or(node)
        } else {
            node
        };
        cx.preceding_comments(anchor, &["block_comment", "line_comment"], &[])
    }
    fn references(&self, node: Node, cx: &mut Context) -> bool {
        match node.kind() {
            "method_invocation" => {
                if let Some(name) = node.child_by_field_name("name") {
                    let text = cx.text(name);
                    match node.child_by_field_name("object") {
                        Some(object) => cx.add_member_ref(RefKind::Call, text, name, object),
                        None => cx.add_ref(RefKind::Call, text, name),
                    }
                }
                true
            }
            "object_creation_expression" => {
                if let Some(t) = node.child_by_field_name("type") {
                    let name = last_segment(cx.text(t));
                    cx.add_ref_via(RefKind::Call, name, t, Some("new()".into()));
                }
                true
            }
            "import_declaration" => {
                let text = cx.text(node);
                let module = text
                    .trim_start_matches("import")
                    .trim()
                    .trim_start_matches("static ")
                    .trim_end_matches(';')
                    .trim();
                cx.add_import(module);
                match module.strip_suffix(".*") {
                    Some(package) => cx.add_binding("*", package, None),
                    None => {
                        // `a.b.C` binds `C` of the file `a/b/C.java`; a static
                        // `a.b.C.m` binds `m` of the same file's class, so both are
                        // stored as (name, `a.b.C`-like path, name).
                        let name = last_segment(module);
                        let file = if text.contains("static ") {
                            module.rsplit_once('.').map_or(module, |(m, _)| m)
                        } else {
                            module
                        };
                        cx.add_binding(name, file, Some(name));
                    }
                }
                let name = last_segment(module.trim_end_matches(".*"));
                cx.add_ref(RefKind::Import, name, node);
                false
            }
            "superclass" | "extends_interfaces" | "super_interfaces" => {
                let kind = if node.kind() == "super_interfaces" {
                    RefKind::Implements
                } else {
                    RefKind::Extends
                };
                for t in type_names(node, cx) {
                    if t.parent()
                        .is_some_and(|p| p.kind() == "scoped_type_identifier")
                    {
                        continue;
                    }
                    let name = last_segment(cx.text(t));
                    cx.add_ref(kind, name, t);
                }
                false
            }
            "type_identifier" => {
                let text = cx.text(node);
                cx.add_ref(RefKind::TypeRef, text, node);
                false
            }
            "formal_parameter" | "local_variable_declaration" | "field_declaration" => {
                if let Some(ty) = node.child_by_field_name("type") {
                    let ty = cx.text(ty);
                    let names: Vec<Node> = match node.kind() {
                        "formal_parameter" => {
                            node.child_by_field_name("name").into_iter().collect()
                        }
                        _ => node
                            .children_by_field_name("declarator", &mut node.walk())
                            .filter_map(|d| d.child_by_field_name("name"))
                            .collect(),
                    };
                    for name in names {
                        let name = cx.text(name);
                        cx.bind_type(name, ty);
                    }
                }
                true
            }
            // `Foo::bar`, `this::bar`
            "method_reference" => {
                let parts: Vec<Node> = (0..node.named_child_count())
                    .filter_map(|i| node.named_child(i as u32))
                    .collect();
                if let [receiver, .., name] = parts.as_slice()
                    && name.kind() == "identifier"
                {
                    let text = cx.text(*name);
                    cx.add_member_ref(RefKind::Value, text, *name, *receiver);
                }
                true
            }
            "line_comment" | "block_comment" | "string_literal" => false,
            _ => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::code::lang::declared;

    #[test]
    fn methods_without_a_body_declare() {
        let src = r#"
interface Store {
    String get(String key);
    default int size() { return 0; }
    static Store empty() { return null; }
}

abstract class Base implements Store {
    abstract void load();
    native long handle();
    public String get(String key) { return key; }
    Base() {}
}
"#;
        assert_eq!(
            declared("A.java", src),
            ["get;", "size", "empty", "load;", "handle;", "get", "Base"]
        );
    }
}
