//! The languages, each in its home (`lang/<language>/`): its [`LanguageExtractor`] (chosen
//! by file extension) and, for a language whose references link, its family's
//! [`LanguageLinker`] (`link.rs`). The extractor trait and the walk that drives it are
//! [`super::extract`]'s, the linker trait [`linking`]'s; the scope logic that asks the
//! linkers is `index::link`'s. Nothing outside this module names a language.

pub(crate) mod cfamily;
mod go;
mod java;
mod linking;
mod markdown;
mod python;
mod ruby;
mod rust;
mod typescript;

use std::path::Path;
use std::sync::LazyLock;

use tree_sitter::Node;

pub use super::extract::LanguageExtractor;
use super::extract::{Context, Definition};
pub(crate) use linking::{
    LanguageLinker, Modules, NoModules, Reach, after_group, dir_of, heritage, join, normalize,
    split_top_level,
};

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

/// The families: the languages whose files link to each other's symbols, and their
/// linker. A language in none links nothing.
static FAMILIES: [(&[&dyn LanguageExtractor], &dyn LanguageLinker); 7] = [
    (
        &[&typescript::TypeScript, &typescript::JavaScript],
        &typescript::Linking,
    ),
    (&[&python::Python], &python::Linking),
    (&[&rust::Rust], &rust::Linking),
    (&[&ruby::Ruby], &ruby::Linking),
    (&[&go::Go], &go::Linking),
    (&[&java::Java], &java::Linking),
    (&[&cfamily::C, &cfamily::Cpp], &cfamily::Linking),
];

/// The languages whose files link to each other's symbols (TypeScript and JavaScript are
/// one, C and C++ are one): a reference resolves within its family. A small id;
/// [`Family::NONE`] for a language that links nothing (Markdown, or one this build does
/// not know).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Family(u8);

impl Family {
    /// The family of the languages that link nothing.
    pub(crate) const NONE: Family = Family(u8::MAX);

    /// The family of the language stored as `language`.
    pub(crate) fn of(language: &str) -> Family {
        FAMILIES
            .iter()
            .position(|(languages, _)| languages.iter().any(|l| l.name() == language))
            .map_or(Family::NONE, |i| Family(i as u8))
    }

    /// Every family that links, in a fixed order.
    pub(crate) fn all() -> impl Iterator<Item = Family> {
        (0..FAMILIES.len()).map(|i| Family(i as u8))
    }

    /// Whether its references link at all.
    pub(crate) fn links(self) -> bool {
        self != Family::NONE
    }

    /// Its rules and module resolution.
    pub(crate) fn rules(self) -> &'static dyn LanguageLinker {
        FAMILIES
            .get(usize::from(self.0))
            .map_or(&linking::Unlinked, |(_, linker)| *linker)
    }

    /// Its languages as stored, the first and the last (one twice when it has one; a
    /// family has at most two, which a query binds as `IN (?, ?)`).
    pub(crate) fn languages(self) -> (&'static str, &'static str) {
        match FAMILIES.get(usize::from(self.0)) {
            Some((languages, _)) => (languages[0].name(), languages[languages.len() - 1].name()),
            None => ("", ""),
        }
    }
}

/// The language stored as `name`.
fn by_name(name: &str) -> Option<&'static dyn LanguageExtractor> {
    EXTRACTORS.iter().find(|l| l.name() == name).copied()
}

/// Whether files stored as `language` are code (not prose). A language this build does
/// not know counts as code.
pub(crate) fn is_code(language: &str) -> bool {
    by_name(language).is_none_or(|l| l.is_code())
}

/// The languages that are prose, as the list of an SQL `IN (…)` (`'markdown'`).
pub(crate) fn prose_sql() -> &'static str {
    static PROSE: LazyLock<String> = LazyLock::new(|| {
        EXTRACTORS
            .iter()
            .filter(|l| !l.is_code())
            .map(|l| format!("'{}'", l.name()))
            .collect::<Vec<_>>()
            .join(", ")
    });
    &PROSE
}

/// Whether a path written in a description that ends with `.ext` names a source file
/// (see [`LanguageExtractor::described_extensions`]).
pub(crate) fn is_described_extension(ext: &str) -> bool {
    EXTRACTORS
        .iter()
        .any(|l| l.described_extensions().contains(&ext))
}

/// Whether `stem` is the stem of a file that stands for its directory in some language
/// (see [`LanguageLinker::directory_files`]).
pub(crate) fn is_directory_file(stem: &str) -> bool {
    FAMILIES
        .iter()
        .any(|(_, linker)| linker.directory_files().contains(&stem))
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

/// Every symbol extracted from `source` (a file named `file`), depth first.
#[cfg(test)]
fn extracted(file: &str, source: &str) -> Vec<super::extract::ExtractedSymbol> {
    fn walk(
        symbols: Vec<super::extract::ExtractedSymbol>,
        out: &mut Vec<super::extract::ExtractedSymbol>,
    ) {
        for mut s in symbols {
            let children = std::mem::take(&mut s.children);
            out.push(s);
            walk(children, out);
        }
    }
    let (lang, ext) = extractor_for_path(Path::new(file)).expect("a known extension");
    let extracted = super::extract::extract_source(lang, &ext, source).expect("parses");
    let mut out = Vec::new();
    walk(extracted.symbols, &mut out);
    out
}

/// The functions and methods extracted from `source` (a file named `file`), depth first,
/// each as `name` or, when it only declares ([`LanguageExtractor::declares`]), `name;`.
#[cfg(test)]
pub(crate) fn declared(file: &str, source: &str) -> Vec<String> {
    extracted(file, source)
        .into_iter()
        .filter(|s| matches!(s.kind, super::SymbolKind::Fn | super::SymbolKind::Method))
        .map(|s| format!("{}{}", s.name, if s.declaration { ";" } else { "" }))
        .collect()
}

/// The name and guard ([`LanguageExtractor::guard`]) of each symbol extracted from
/// `source` (a file named `file`), depth first.
#[cfg(test)]
pub(crate) fn guards(file: &str, source: &str) -> Vec<(String, Option<String>)> {
    extracted(file, source)
        .into_iter()
        .map(|s| (s.name, s.guard))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A comment between a declaration and its body (after Python's `:`, before a
    /// Rust or C body's `{`) is not part of its signature.
    #[test]
    fn a_signature_ends_where_its_declaration_does() {
        let signatures = |file: &str, source: &str| -> Vec<String> {
            extracted(file, source)
                .into_iter()
                .filter(|s| {
                    matches!(
                        s.kind,
                        crate::code::SymbolKind::Fn | crate::code::SymbolKind::Method
                    )
                })
                .filter_map(|s| s.signature)
                .collect()
        };
        assert_eq!(
            signatures(
                "a.py",
                "class P:\n    def __init__(self, n):#: How many\n        self.n = n\n\n    def f(self,\n          y) -> int:  # note\n        # body\n        return y\n",
            ),
            ["def __init__(self, n)", "def f(self, y) -> int"]
        );
        assert_eq!(
            signatures("a.rs", "fn f(x: u8) -> u8 // why\n{\n    x\n}\n"),
            ["fn f(x: u8) -> u8"]
        );
        assert_eq!(
            signatures("a.c", "int f(int x) /* why */ {\n    return x;\n}\n"),
            ["int f(int x)"]
        );
    }

    /// A language is in one family at most, a family has one or two languages (its
    /// queries bind them as `IN (?, ?)`), and each is a registered extractor.
    #[test]
    fn families_are_made_of_registered_languages() {
        let mut seen = Vec::new();
        for (languages, _) in &FAMILIES {
            assert!((1..=2).contains(&languages.len()));
            for l in languages.iter() {
                assert!(
                    by_name(l.name()).is_some(),
                    "{} is not in EXTRACTORS",
                    l.name()
                );
                assert!(!seen.contains(&l.name()), "{} is in two families", l.name());
                seen.push(l.name());
                assert!(Family::of(l.name()).links());
            }
        }
        for l in EXTRACTORS {
            assert_eq!(Family::of(l.name()).links(), seen.contains(&l.name()));
            assert_eq!(Family::of(l.name()).links(), l.is_code(), "{}", l.name());
        }
        assert_eq!(Family::of("no such language"), Family::NONE);
        assert_eq!(Family::all().count(), FAMILIES.len());
    }
}
