//! Rust (`.rs`), macro_rules bodies and macro invocations included where their tokens
//! parse as items.

use tree_sitter::Node;

use super::{LanguageExtractor, named};
use crate::code::extract::{Context, Definition, last_segment};
use crate::code::{RefKind, SymbolKind};

/// Rust.
pub struct Rust;

fn use_names(node: Node, cx: &mut Context) {
    match node.kind() {
        "identifier" | "self" | "crate" | "super" => {
            let text = cx.text(node);
            cx.add_ref(RefKind::Import, text, node);
        }
        "scoped_identifier" => {
            if let Some(name) = node.child_by_field_name("name") {
                let text = cx.text(name);
                cx.add_ref(RefKind::Import, text, name);
            }
        }
        "use_as_clause" => {
            if let Some(path) = node.child_by_field_name("path") {
                use_names(path, cx);
            }
        }
        "scoped_use_list" => {
            if let Some(list) = node.child_by_field_name("list") {
                use_names(list, cx);
            }
        }
        "use_list" => {
            for i in 0..node.named_child_count() {
                if let Some(child) = node.named_child(i as u32) {
                    use_names(child, cx);
                }
            }
        }
        _ => {}
    }
}

impl LanguageExtractor for Rust {
    fn name(&self) -> &'static str {
        "rust"
    }
    fn extensions(&self) -> &'static [&'static str] {
        &["rs"]
    }
    fn grammar(&self, _extension: &str) -> tree_sitter::Language {
        tree_sitter_rust::LANGUAGE.into()
    }
    fn definition(&self, node: Node, cx: &Context) -> Option<Definition> {
        match node.kind() {
            "function_item" | "function_signature_item" => named(node, cx, cx.fn_kind(), "body"),
            "struct_item" | "union_item" => named(node, cx, SymbolKind::Struct, "body"),
            "enum_item" => named(node, cx, SymbolKind::Enum, "body"),
            "trait_item" => named(node, cx, SymbolKind::Trait, "body"),
            "mod_item" => named(node, cx, SymbolKind::Mod, "body"),
            "type_item" => {
                let mut def = named(node, cx, SymbolKind::Type, "")?;
                def.signature = cx.first_line_signature(node);
                Some(def)
            }
            "const_item" | "static_item" => {
                let kind = if node.kind() == "const_item" {
                    SymbolKind::Const
                } else {
                    SymbolKind::Var
                };
                let mut def = named(node, cx, kind, "value")?;
                def.signature = node.child_by_field_name("value").map_or_else(
                    || cx.first_line_signature(node),
                    |v| cx.signature(node, Some(v)),
                );
                Some(def)
            }
            "enum_variant" => {
                let mut def = named(node, cx, SymbolKind::Const, "")?;
                def.signature = cx.first_line_signature(node);
                Some(def)
            }
            "field_declaration" if cx.enclosing() == Some(SymbolKind::Struct) => {
                let mut def = named(node, cx, SymbolKind::Var, "")?;
                def.signature = cx.first_line_signature(node);
                Some(def)
            }
            "macro_definition" => {
                let mut def = named(node, cx, SymbolKind::Fn, "")?;
                def.signature = Some(format!("macro_rules! {}", def.name));
                Some(def)
            }
            "impl_item" => {
                let ty = node.child_by_field_name("type")?;
                let name = last_segment(cx.text(ty)).to_string();
                Some(Definition {
                    name,
                    kind: SymbolKind::Impl,
                    signature: cx.signature(node, node.child_by_field_name("body")),
                    doc: None,
                    name_node: None,
                })
            }
            _ => None,
        }
    }
    fn doc_comment(&self, node: Node, cx: &Context) -> Option<String> {
        cx.preceding_comments(
            node,
            &["line_comment", "block_comment"],
            &["attribute_item"],
        )
    }
    fn embedded(&self, node: Node, cx: &Context) -> Option<(usize, usize)> {
        // `macro_rules!` bodies (`=> { … }`) and item-position macro invocations
        // (`thread_local! { … }`, `cfg_if! { … }`).
        let tokens = match node.kind() {
            "token_tree" if cx.parent(node).is_some_and(|p| p.kind() == "macro_rule") => {
                let rule = cx.parent(node)?;
                rule.child_by_field_name("right")
                    .filter(|r| r.id() == node.id())?
            }
            "macro_invocation"
                if cx
                    .parent(node)
                    .is_some_and(|p| matches!(p.kind(), "source_file" | "declaration_list")) =>
            {
                (0..node.named_child_count())
                    .filter_map(|i| node.named_child(i as u32))
                    .find(|c| c.kind() == "token_tree")?
            }
            _ => return None,
        };
        let (start, end) = (tokens.start_byte() + 1, tokens.end_byte().checked_sub(1)?);
        (start < end).then_some((start, end))
    }
    fn references(&self, node: Node, cx: &mut Context) -> bool {
        match node.kind() {
            "call_expression" => {
                let mut function = node.child_by_field_name("function");
                while let Some(f) = function.filter(|f| f.kind() == "generic_function") {
                    function = f.child_by_field_name("function");
                }
                if let Some(f) = function {
                    let name = match f.kind() {
                        "identifier" => Some(cx.text(f)),
                        "field_expression" => f.child_by_field_name("field").map(|x| cx.text(x)),
                        "scoped_identifier" => f.child_by_field_name("name").map(|x| cx.text(x)),
                        _ => None,
                    };
                    if let Some(name) = name {
                        cx.add_ref(RefKind::Call, name, f);
                    }
                }
                true
            }
            "macro_invocation" => {
                if let Some(m) = node.child_by_field_name("macro") {
                    let name = last_segment(cx.text(m));
                    cx.add_ref(RefKind::Call, name, m);
                }
                true
            }
            "use_declaration" => {
                if let Some(arg) = node.child_by_field_name("argument") {
                    let module = cx.text(arg);
                    let module = module
                        .split('{')
                        .next()
                        .unwrap_or(module)
                        .trim_end_matches("::");
                    cx.add_import(module);
                    use_names(arg, cx);
                }
                false
            }
            "impl_item" => {
                if let Some(t) = node.child_by_field_name("trait") {
                    let name = last_segment(cx.text(t));
                    cx.add_ref(RefKind::Implements, name, t);
                }
                if let Some(t) = node.child_by_field_name("type") {
                    let name = last_segment(cx.text(t));
                    cx.add_ref(RefKind::TypeRef, name, t);
                }
                true
            }
            "trait_bounds" if cx.parent(node).is_some_and(|p| p.kind() == "trait_item") => {
                for t in cx.descendants(node, &["type_identifier"]) {
                    let text = cx.text(t);
                    cx.add_ref(RefKind::Extends, text, t);
                }
                false
            }
            "type_identifier" => {
                if cx.parent(node).is_some_and(|p| p.kind() == "impl_item") {
                    return false;
                }
                let text = cx.text(node);
                cx.add_ref(RefKind::TypeRef, text, node);
                false
            }
            "line_comment" | "block_comment" | "string_literal" | "raw_string_literal" => false,
            _ => true,
        }
    }
}
