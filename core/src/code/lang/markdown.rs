//! Markdown (`.md .markdown`): each heading is a `section`, nested by level.

use tree_sitter::Node;

use super::LanguageExtractor;
use crate::code::SymbolKind;
use crate::code::extract::{Context, Definition, clip_doc};

/// Markdown.
pub struct Markdown;

impl LanguageExtractor for Markdown {
    fn name(&self) -> &'static str {
        "markdown"
    }
    fn extensions(&self) -> &'static [&'static str] {
        &["md", "markdown"]
    }
    fn is_code(&self) -> bool {
        false
    }
    fn grammar(&self, _extension: &str) -> tree_sitter::Language {
        tree_sitter_md::LANGUAGE.into()
    }
    fn definition(&self, node: Node, cx: &Context) -> Option<Definition> {
        let heading = match node.kind() {
            "section" => node.named_child(0)?,
            // A setext heading that does not open a section of its own.
            "setext_heading"
                if cx
                    .parent(node)
                    .and_then(|p| p.named_child(0))
                    .is_none_or(|f| f.id() != node.id()) =>
            {
                node
            }
            _ => return None,
        };
        let (title, marker) = match heading.kind() {
            "atx_heading" => {
                let content = heading.child_by_field_name("heading_content")?;
                let level = heading.named_child(0).map_or(1, |m| {
                    m.kind()
                        .strip_prefix("atx_h")
                        .and_then(|s| s.chars().next())
                        .and_then(|c| c.to_digit(10))
                        .unwrap_or(1) as usize
                });
                (cx.text(content), "#".repeat(level))
            }
            "setext_heading" => {
                let content = heading.child_by_field_name("heading_content")?;
                let level = if cx.text(heading).trim_end().ends_with('-') {
                    2
                } else {
                    1
                };
                (cx.text(content), "#".repeat(level))
            }
            _ => return None,
        };
        let title = crate::code::text::collapse_whitespace(title);
        // The section's first paragraph is its description.
        let mut doc = None;
        for i in 1..node.named_child_count() {
            if let Some(child) = node.named_child(i as u32) {
                if child.kind() == "paragraph" {
                    doc = clip_doc(crate::code::text::collapse_whitespace(cx.text(child)));
                    break;
                }
                if child.kind() == "section" {
                    break;
                }
            }
        }
        Some(Definition {
            signature: Some(format!("{marker} {title}")),
            name: title,
            kind: SymbolKind::Section,
            doc: doc.or(Some(String::new())),
            name_node: None,
        })
    }
    fn references(&self, _node: Node, _cx: &mut Context) -> bool {
        true
    }
    fn doc_comment(&self, _node: Node, _cx: &Context) -> Option<String> {
        None
    }
}
