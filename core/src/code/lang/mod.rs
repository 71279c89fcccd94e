//! The languages: one [`LanguageExtractor`] each, chosen by file extension.

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

use super::extract::{Context, Definition};

/// What a language contributes to the index: its grammar, and which nodes are
/// definitions and references. The tree walk, storage, search and output are shared
/// ([`super::extract_source`]), so a new language is one implementation of this trait
/// added to [`extractors`].
pub trait LanguageExtractor: Send + Sync {
    /// Language name as stored (`rust`, `typescript`, …).
    fn name(&self) -> &'static str;
    /// File extensions it handles, without the dot, lowercase.
    fn extensions(&self) -> &'static [&'static str];
    /// The tree-sitter grammar for files with this extension.
    fn grammar(&self, extension: &str) -> tree_sitter::Language;
    /// The definition `node` is, if it is one.
    fn definition(&self, node: Node, cx: &Context) -> Option<Definition>;
    /// Record the references `node` makes (`Context::add_ref`, `Context::add_import`);
    /// returns whether the walk should look at its children.
    fn references(&self, node: Node, cx: &mut Context) -> bool;
    /// The doc comment of the definition at `node`, when [`LanguageExtractor::definition`]
    /// left it to this: the comments right above it by default.
    fn doc_comment(&self, node: Node, cx: &Context) -> Option<String> {
        cx.preceding_comments(node, &["comment", "line_comment", "block_comment"], &[])
    }
    /// A byte range inside `node` holding source of this same language that the grammar
    /// leaves unparsed (a macro body): it is parsed on its own, and its definitions
    /// are kept when it parses without errors. None by default.
    fn embedded(&self, _node: Node, _cx: &Context) -> Option<(usize, usize)> {
        None
    }
}

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
