//! The languages: one [`LanguageExtractor`] each, chosen by file extension. The trait and
//! the walk that drives it are [`super::extract`]'s; this module only depends on them.

mod cfamily;
mod go;
mod java;
mod markdown;
mod python;
mod ruby;
mod rust;
mod typescript;

use std::path::Path;

use tree_sitter::Node;

pub use super::extract::LanguageExtractor;
use super::extract::{Context, Definition};

static EXTRACTORS: [&dyn LanguageExtractor; 10] = [
    &typescript::TypeScript,
    &typescript::JavaScript,
    &python::Python,
    &rust::Rust,
    &ruby::Ruby,
    &markdown::Markdown,
    &go::Go,
    &java::Java,
    &cfamily::C,
    &cfamily::Cpp,
];

/// Every language, in a fixed order.
pub fn extractors() -> &'static [&'static dyn LanguageExtractor] {
    &EXTRACTORS
}

/// The language for `path` by its extension (case-insensitive), with the extension.
pub fn extractor_for_path(path: &Path) -> Option<(&'static dyn LanguageExtractor, String)> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    EXTRACTORS
        .iter()
        .find(|l| l.extensions().contains(&ext.as_str()))
        .map(|l| (*l, ext))
}

/// The node itself, or the wrapper around it (an `export`, a decorator list) whose
/// preceding comments document it.
pub(crate) fn outer<'t>(node: Node<'t>, cx: &Context<'t>, wrappers: &[&str]) -> Node<'t> {
    let mut node = node;
    while let Some(parent) = cx.parent(node) {
        if wrappers.contains(&parent.kind()) {
            node = parent;
        } else {
            break;
        }
    }
    node
}

/// The definition helper most languages use: name from field `name`, signature up to
/// field `body`.
pub(crate) fn named(
    node: Node,
    cx: &Context,
    kind: super::SymbolKind,
    body_field: &str,
) -> Option<Definition> {
    let name_node = node.child_by_field_name("name")?;
    Some(Definition {
        name: cx.text(name_node).to_string(),
        kind,
        signature: cx.signature(node, node.child_by_field_name(body_field)),
        doc: None,
        name_node: Some(name_node.id()),
    })
}
