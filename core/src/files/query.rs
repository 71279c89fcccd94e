//! The `@` query syntax of the file-picker spec ("Prefix Syntax", "Parsing Logic").
//!
//! | typed | meaning |
//! | --- | --- |
//! | `@@types` | escape: search for `@types` |
//! | `@/components:Button` | folder: paths inside a `components` or `.components` directory |
//! | `@docs:api` | namespace `docs` from `[namespaces]` (globs, or a directory root) |
//! | `@*.md` | inline glob: every `*.md` file (the rest of the text is the glob) |
//! | anything else | a plain search in the project scope |
//!
//! An unknown namespace is a plain query, exactly as the spec's parser does
//! ([`unknown_namespace`] tells a caller, who says so). The leading
//! `@` that Claude Code may or may not pass through is not part of these forms: the picker
//! receives what follows the user's `@`, so a query starting with `@` is a prefix form.

use std::collections::BTreeMap;

use crate::config::Namespace;

/// A parsed prefix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Prefix {
    /// `@name:` — a configured namespace.
    Namespace(String),
    /// `@/folder:` — one directory name, matched as `folder` and `.folder`.
    Folder(String),
    /// `@*.ext` — an inline glob over file names.
    Glob(String),
}

/// A query split into its prefix and the text to search for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedQuery {
    /// The prefix, when the query has one.
    pub prefix: Option<Prefix>,
    /// What to search for (may be empty).
    pub text: String,
}

/// Parse `query` as the spec's `parseQuery` does, with `namespaces` from the configuration.
pub fn parse(query: &str, namespaces: &BTreeMap<String, Namespace>) -> ParsedQuery {
    let plain = |text: &str| ParsedQuery {
        prefix: None,
        text: text.to_string(),
    };
    // Escape sequence: @@ -> literal @
    if let Some(rest) = query.strip_prefix("@@") {
        return plain(&format!("@{rest}"));
    }
    // Folder glob: @/folder: (single segment only; a name, not punctuation alone: `@/;:`
    // is no folder anyone has, and as a query it is empty)
    if let Some(rest) = query.strip_prefix("@/")
        && let Some(colon) = rest.find(':')
        && colon > 0
    {
        let folder = &rest[..colon];
        if !folder.contains('/') && folder.chars().any(char::is_alphanumeric) {
            return ParsedQuery {
                prefix: Some(Prefix::Folder(folder.to_string())),
                text: rest[colon + 1..].to_string(),
            };
        }
    }
    // Named namespace: @namespace:
    if let Some(rest) = query.strip_prefix('@')
        && let Some(colon) = rest.find(':')
    {
        let name = &rest[..colon];
        if namespaces.contains_key(name) {
            return ParsedQuery {
                prefix: Some(Prefix::Namespace(name.to_string())),
                text: rest[colon + 1..].to_string(),
            };
        }
    }
    // Inline glob: @*.ext
    if let Some(glob) = query.strip_prefix('@')
        && glob.starts_with("*.")
    {
        return ParsedQuery {
            prefix: Some(Prefix::Glob(glob.to_string())),
            text: String::new(),
        };
    }
    plain(query)
}

/// The `name` of a query `@name:…` whose name is no configured namespace, which [`parse`]
/// reads as plain text (and which then finds nothing): a name of letters, digits, `-`,
/// `_` and `.`, so that `@/folder:`, `@*.md` and `@@` are never taken for one.
pub fn unknown_namespace<'q>(
    query: &'q str,
    namespaces: &BTreeMap<String, Namespace>,
) -> Option<&'q str> {
    if query.starts_with("@@") {
        return None;
    }
    let rest = query.strip_prefix('@')?;
    let name = &rest[..rest.find(':')?];
    let plausible = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.'));
    (plausible && !namespaces.contains_key(name)).then_some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn namespaces() -> BTreeMap<String, Namespace> {
        BTreeMap::from([
            (
                "docs".to_string(),
                Namespace::Globs(vec!["docs/**".into(), "*.md".into()]),
            ),
            ("dev".to_string(), Namespace::Root("~/Developer".into())),
        ])
    }

    fn p(q: &str) -> (Option<Prefix>, String) {
        let parsed = parse(q, &namespaces());
        (parsed.prefix, parsed.text)
    }

    #[test]
    fn the_specs_forms() {
        assert_eq!(p("src/comp"), (None, "src/comp".into()));
        assert_eq!(p("@@types"), (None, "@types".into()));
        assert_eq!(p("@@"), (None, "@".into()));
        assert_eq!(
            p("@/components:Button"),
            (Some(Prefix::Folder("components".into())), "Button".into())
        );
        assert_eq!(
            p("@/hooks:"),
            (Some(Prefix::Folder("hooks".into())), String::new())
        );
        assert_eq!(
            p("@docs:api"),
            (Some(Prefix::Namespace("docs".into())), "api".into())
        );
        assert_eq!(
            p("@dev:proj/x"),
            (Some(Prefix::Namespace("dev".into())), "proj/x".into())
        );
        assert_eq!(
            p("@*.md"),
            (Some(Prefix::Glob("*.md".into())), String::new())
        );
        assert_eq!(
            p("@*.test.ts"),
            (Some(Prefix::Glob("*.test.ts".into())), String::new())
        );
    }

    #[test]
    fn what_is_not_a_prefix_is_a_plain_query() {
        // Unknown namespace.
        assert_eq!(p("@nope:x"), (None, "@nope:x".into()));
        // Multi-segment folder: invalid, and not a namespace either.
        assert_eq!(p("@/src/components:x"), (None, "@/src/components:x".into()));
        // Empty folder name.
        assert_eq!(p("@/:x"), (None, "@/:x".into()));
        // Punctuation alone is no folder name.
        assert_eq!(p("@/;:"), (None, "@/;:".into()));
        // No colon.
        assert_eq!(p("@/components"), (None, "@/components".into()));
        assert_eq!(p("@docs"), (None, "@docs".into()));
        // A glob needs `*.`.
        assert_eq!(p("@*md"), (None, "@*md".into()));
        assert_eq!(p(""), (None, String::new()));
        assert_eq!(p("a@docs:b"), (None, "a@docs:b".into()));
    }

    #[test]
    fn unknown_namespaces_are_told_apart_from_the_other_forms() {
        let unknown = |q| unknown_namespace(q, &namespaces());
        assert_eq!(unknown("@nope:x"), Some("nope"));
        assert_eq!(unknown("@no-such_name.2:"), Some("no-such_name.2"));
        for q in [
            "@docs:api",
            "@dev:",
            "@@nope:x",
            "@/components:x",
            "@/src/components:x",
            "@*.md",
            "@*.md:x",
            "@nope",
            "@:x",
            "@a b:x",
            "nope:x",
            "",
        ] {
            assert_eq!(unknown(q), None, "{q:?}");
        }
        assert_eq!(unknown_namespace("@docs:x", &BTreeMap::new()), Some("docs"));
    }

    #[test]
    fn colon_is_found_after_the_prefix() {
        // The folder form takes the first colon after `@/`.
        assert_eq!(
            p("@/lib:a:b"),
            (Some(Prefix::Folder("lib".into())), "a:b".into())
        );
        assert_eq!(
            p("@docs:a:b"),
            (Some(Prefix::Namespace("docs".into())), "a:b".into())
        );
    }
}
