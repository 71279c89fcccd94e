//! Ruby (`.rb`, `.rake`, `.gemspec`).

use tree_sitter::Node;

use super::{LanguageExtractor, named};
use crate::code::extract::{Context, Definition, last_segment};
use crate::code::{RefKind, SymbolKind};

/// Ruby.
pub struct Ruby;

impl LanguageExtractor for Ruby {
    fn name(&self) -> &'static str {
        "ruby"
    }
    fn extensions(&self) -> &'static [&'static str] {
        &["rb", "rake", "gemspec"]
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
    fn references(&self, node: Node, cx: &mut Context) -> bool {
        match node.kind() {
            "call" => {
                let method = node.child_by_field_name("method").map(|m| cx.text(m));
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
                            let name = last_segment(cx.text(arg));
                            cx.add_ref(RefKind::Implements, name, arg);
                        }
                    }
                    Some(name) => {
                        let name = name.to_string();
                        cx.add_ref(RefKind::Call, &name, node);
                    }
                    None => {}
                }
                true
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
