//! `code`: a symbol index of source trees, built with tree-sitter, for agents to navigate
//! code without reading whole files.
//!
//! Each indexed repository gets its own SQLite database under the data root
//! (`code/<first 16 hex digits of SHA-256 of the canonical root>.db`). Indexing walks the
//! repository with [`crate::walk`] (`.gitignore`, the default excludes, the project's
//! ignore patterns, files up to 1 MiB), parses the files whose extension a
//! [`LanguageExtractor`] claims on every core, and writes symbols (functions, methods,
//! classes, … with their parents, line ranges, signatures and doc comments) and
//! references (calls, imports, type references, `extends`, `implements`) from one thread
//! in one transaction. A re-index reads only files whose size or mtime moved, and
//! re-parses only those whose SHA-256 changed.
//!
//! The operations (`code.index_repository`, `code.search_symbols`, …) answer with full,
//! typed results (`name`, `kind`, `path`, `start_line`, `end_line`, `signature`, `doc`),
//! signatures and doc comments shortened in brief views. What an agent reads of them —
//! short keys (`n`, `k`, `f`, `l`, `sig`), each file listed once (`_f` + `fi`), a token
//! budget — each operation declares (`AGENT`) and [`crate::agent`] makes. See
//! `docs/CODE.md`.

mod config;
mod db;
mod extract;
mod find;
mod index;
mod lang;
mod ops;
mod text;

pub use config::{IndexerConfig, OutputConfig, ProjectConfig};
pub use db::{SCHEMA, SCHEMA_VERSION, db_path};
pub use extract::{ExtractedFile, ExtractedRef, ExtractedSymbol, extract_source};
#[doc(hidden)]
pub use find::{
    DefinitionFeatures, Ranked, Scored, ScoredDefinition, Weights, find, find_ranked,
    is_ranked_kind, is_test_path,
};
pub use find::{FindCode, FindCodeRequest, FindCodeResponse, FoundCode, FoundFile};
pub use lang::{LanguageExtractor, extractor_for_path, extractors};
pub use ops::*;
pub use text::{name_tokens, normalize_signature, truncate_doc};

use serde::{Deserialize, Serialize};

/// What a symbol is.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum SymbolKind {
    /// A function.
    Fn,
    /// A function inside a class, impl, trait, interface or object.
    Method,
    /// A class.
    Class,
    /// An interface.
    Interface,
    /// A struct (or union).
    Struct,
    /// An enum.
    Enum,
    /// A trait.
    Trait,
    /// A module or namespace.
    Mod,
    /// A constant (and enum variants).
    Const,
    /// A variable, field or property.
    Var,
    /// An `impl` block.
    Impl,
    /// A document section (a Markdown heading).
    Section,
    /// A type alias.
    Type,
}

impl SymbolKind {
    /// Every kind.
    pub const ALL: [SymbolKind; 13] = [
        SymbolKind::Fn,
        SymbolKind::Method,
        SymbolKind::Class,
        SymbolKind::Interface,
        SymbolKind::Struct,
        SymbolKind::Enum,
        SymbolKind::Trait,
        SymbolKind::Mod,
        SymbolKind::Const,
        SymbolKind::Var,
        SymbolKind::Impl,
        SymbolKind::Section,
        SymbolKind::Type,
    ];

    /// The short name stored and shown (`fn`, `method`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            SymbolKind::Fn => "fn",
            SymbolKind::Method => "method",
            SymbolKind::Class => "class",
            SymbolKind::Interface => "interface",
            SymbolKind::Struct => "struct",
            SymbolKind::Enum => "enum",
            SymbolKind::Trait => "trait",
            SymbolKind::Mod => "mod",
            SymbolKind::Const => "const",
            SymbolKind::Var => "var",
            SymbolKind::Impl => "impl",
            SymbolKind::Section => "section",
            SymbolKind::Type => "type",
        }
    }

    /// The kind named `name`.
    pub fn parse(name: &str) -> Option<SymbolKind> {
        SymbolKind::ALL.into_iter().find(|k| k.as_str() == name)
    }

    /// Whether symbols of this kind contain methods (a function inside is a method).
    pub fn is_container(self) -> bool {
        matches!(
            self,
            SymbolKind::Class
                | SymbolKind::Interface
                | SymbolKind::Struct
                | SymbolKind::Enum
                | SymbolKind::Trait
                | SymbolKind::Impl
        )
    }

    /// Whether this is a variable or a constant (its definition is no scope of its own).
    pub fn is_variable(self) -> bool {
        matches!(self, SymbolKind::Var | SymbolKind::Const)
    }

    /// Whether this is a type-like declaration (listed among an overview's top types).
    pub fn is_type(self) -> bool {
        matches!(
            self,
            SymbolKind::Class
                | SymbolKind::Interface
                | SymbolKind::Struct
                | SymbolKind::Enum
                | SymbolKind::Trait
                | SymbolKind::Type
        )
    }
}

/// What a reference is.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum RefKind {
    /// A call of a function or method (or a constructor, or a macro).
    Call,
    /// A name brought in by an import.
    Import,
    /// A type named in a signature or body.
    TypeRef,
    /// Inheritance: a class or interface extends this one.
    Extends,
    /// An interface or trait implemented (or a module included).
    Implements,
    /// A function, type or constant used as a value rather than called: passed as an
    /// argument, assigned, stored in a field, returned (`map(parse)`,
    /// `call: call_json::<O>`, `Java's Foo::bar`).
    Value,
}

impl RefKind {
    /// The short name stored and shown.
    pub fn as_str(self) -> &'static str {
        match self {
            RefKind::Call => "call",
            RefKind::Import => "import",
            RefKind::TypeRef => "type_ref",
            RefKind::Extends => "extends",
            RefKind::Implements => "implements",
            RefKind::Value => "value",
        }
    }

    /// The kind named `name`.
    pub fn parse(name: &str) -> Option<RefKind> {
        [
            RefKind::Call,
            RefKind::Import,
            RefKind::TypeRef,
            RefKind::Extends,
            RefKind::Implements,
            RefKind::Value,
        ]
        .into_iter()
        .find(|k| k.as_str() == name)
    }
}
