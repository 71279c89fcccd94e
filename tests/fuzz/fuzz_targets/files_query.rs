//! The `@` query of the file picker: `files::query::parse` and the fuzzy matcher.
//!
//! - parsing never panics, and gives back what was typed: a plain query is the text
//!   itself (`@@x` → `@x`), a folder or namespace prefix is followed by the text after
//!   its colon, a glob is the whole text after `@`;
//! - the matcher never panics on any query and path, and a path it matches always holds
//!   the query's required characters (the scan skips paths by that mask unread, so a
//!   wrong mask would hide matching files).
#![no_main]

use std::collections::BTreeMap;

use cc_search::config::Namespace;
use cc_search::files::query::{Prefix, parse};
use cc_search::files::{PathMatcher, TypoMatcher, char_mask};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &str| {
    // The query, then (after the first NUL) a path to match it against.
    let (query, path) = data
        .split_once('\0')
        .unwrap_or((data, "src/components/Button.tsx"));
    let namespaces = BTreeMap::from([
        ("docs".to_string(), Namespace::Globs(vec!["docs/**".into()])),
        ("dev".to_string(), Namespace::Root("~/Developer".into())),
    ]);
    let parsed = parse(query, &namespaces);
    match &parsed.prefix {
        None => match query.strip_prefix("@@") {
            Some(rest) => assert_eq!(parsed.text, format!("@{rest}")),
            None => assert_eq!(parsed.text, query),
        },
        Some(Prefix::Folder(folder)) => {
            assert!(!folder.is_empty() && !folder.contains('/') && !folder.contains(':'));
            assert_eq!(query, format!("@/{folder}:{}", parsed.text));
        }
        Some(Prefix::Namespace(name)) => {
            assert!(namespaces.contains_key(name));
            assert_eq!(query, format!("@{name}:{}", parsed.text));
        }
        Some(Prefix::Glob(glob)) => {
            assert!(glob.starts_with("*."));
            assert_eq!(query, format!("@{glob}"));
            assert!(parsed.text.is_empty());
        }
    }
    for text in [query, parsed.text.as_str()] {
        let mut matcher = PathMatcher::new(text);
        let required = matcher.required_chars();
        for candidate in [path, path.rsplit('/').next().unwrap_or(path), text] {
            let score = matcher.score(candidate);
            if score.is_some() {
                assert_eq!(
                    char_mask(candidate) & required,
                    required,
                    "{text:?} matches {candidate:?} but the mask would skip it"
                );
            }
            // A floor never turns a miss into a match, nor changes a score it lets through,
            // nor turns away a path whose score reaches it.
            if let Some(s) = matcher.score_above(candidate, 1) {
                assert_eq!(score, Some(s));
            }
            if let Some(s) = score {
                assert_eq!(matcher.score_above(candidate, s), Some(s), "{text:?} {candidate:?}");
            }
        }
        // A path one typo away lacks at most one of the query's characters (the typo scan
        // skips the rest by that mask), and the query itself is found.
        if let Some(mut typo) = TypoMatcher::new(text) {
            for candidate in [path, text] {
                if typo.score(candidate).is_some() {
                    assert!(
                        TypoMatcher::may_match(typo.required_chars(), char_mask(candidate)),
                        "{text:?} is one typo from {candidate:?} but the mask would skip it"
                    );
                }
            }
            assert!(typo.score(text).is_some(), "{text:?} is no typo from itself");
        }
    }
});
