//! The words of code and of a description, as `code.find` indexes and asks for them.
//!
//! Both sides go through [`words_of`]: every identifier becomes its subwords and, when it
//! has several, its lowercased whole (`saveModel` → `save model savemodel`), so a
//! description's "save the model" meets `save_model`, `saveModel` and `SaveModel`, and an
//! identifier quoted whole meets itself first. The FTS5 tokenizer then stems the words
//! (Porter: `saving`, `saved` → `save`).
//!
//! A description also names code outright: identifiers written as code (`snake_case`,
//! `camelCase`, `Dotted.path`, `call()`, anything in backticks), paths and file names
//! (`src/client.rs`, `_client.py`), and the frames of a stack trace. [`Described`] keeps
//! those apart for the structure side, which matches them exactly.

use std::borrow::Cow;
use std::collections::HashSet;

use crate::code::lang::is_described_extension;
use crate::code::text::name_tokens;
use crate::text::STOPWORDS;

/// The most bytes of a description read (a long issue with a stack trace fits).
pub(crate) const MAX_DESCRIPTION_BYTES: usize = 16 * 1024;
/// The most distinct words asked of the keyword side.
const MAX_WORDS: usize = 96;
/// The most identifiers and paths matched exactly.
const MAX_NAMED: usize = 48;

/// Words of paths that say nothing of what the code does.
const GENERIC_PATH_WORDS: &[&str] = &[
    "src", "lib", "crates", "crate", "packages", "package", "pkg", "index", "mod", "init", "main",
    "internal", "app", "source", "dist", "the",
];

/// Distinct index words of `text` ([`words_of`]), stopwords dropped, in order of first
/// use, at most [`MAX_WORDS`].
fn content_words(text: &str) -> Vec<String> {
    let mut index_words = String::new();
    words_of(text, &mut index_words);
    let mut out: Vec<String> = Vec::new();
    for word in index_words.split(' ') {
        if word.is_empty()
            || STOPWORDS.contains(&word)
            || CODE_STOPWORDS.contains(&word)
            || out.iter().any(|w| w == word)
        {
            continue;
        }
        if out.len() == MAX_WORDS {
            break;
        }
        out.push(word.to_string());
    }
    out
}

/// A word without a plural's `s` (`parsers` → `parser`, not `class` → `clas`): enough
/// to meet a path's words, which are mostly nouns.
fn stem(word: &str) -> String {
    match word.strip_suffix('s') {
        Some(base) if base.len() >= 3 && !base.ends_with('s') => base.to_string(),
        _ => word.to_string(),
    }
}

/// Words of code too common to tell files apart (keywords and the like, in the languages
/// indexed), dropped from a description's words as English stopwords are.
const CODE_STOPWORDS: &[&str] = &[
    "def", "fn", "self", "let", "const", "var", "return", "import", "pub", "impl", "use", "none",
    "null", "true", "false", "else", "elif", "function", "new", "mut",
];

/// Append the index words of `text` to `out`, space-separated: each identifier's subwords
/// and lowercased whole (see the module doc). Words of one character, runs of digits
/// longer than eight (timestamps) and hexadecimal runs of twelve or more (hashes) are
/// left out.
pub(crate) fn words_of(text: &str, out: &mut String) {
    for run in text.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
        if run.is_empty() || run.len() > 64 {
            continue;
        }
        // Hashes and ids say nothing about what code does.
        if run.len() >= 12
            && run.bytes().all(|b| b.is_ascii_hexdigit())
            && run.bytes().any(|b| b.is_ascii_digit())
        {
            continue;
        }
        if run.bytes().all(|b| b.is_ascii_digit()) {
            if (2..=8).contains(&run.len()) {
                push_word(out, run);
            }
            continue;
        }
        let tokens = name_tokens(run);
        for word in tokens.split(' ') {
            if word.chars().count() > 1 {
                push_word(out, word);
            }
        }
    }
}

fn push_word(out: &mut String, word: &str) {
    if !out.is_empty() {
        out.push(' ');
    }
    out.push_str(word);
}

/// What a description says, for the three sides of `code.find`.
#[derive(Debug, Default)]
pub(crate) struct Described {
    /// Distinct index words (see [`words_of`]), stopwords dropped, in order of first use.
    pub words: Vec<String>,
    /// [`stem`]s of `words` and of the words of its first line (its title).
    stems: HashSet<String>,
    title_stems: HashSet<String>,
    /// Identifiers written as code, as written (the last segment of a dotted path too).
    pub identifiers: Vec<String>,
    /// Paths and file names (`a/b.py`, `b.py`), and dotted module paths as paths
    /// without extension (`pkg.mod` → `pkg/mod`), `/`-separated, no leading `./`.
    pub paths: Vec<String>,
}

impl Described {
    /// Read a description (its first [`MAX_DESCRIPTION_BYTES`]).
    pub(crate) fn of(text: &str) -> Described {
        let text = crate::text::truncate_utf8(text, MAX_DESCRIPTION_BYTES);
        let mut out = Described {
            words: content_words(text),
            ..Described::default()
        };
        let title = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
        out.stems = out.words.iter().map(|w| stem(w)).collect();
        out.title_stems = content_words(title).iter().map(|w| stem(w)).collect();
        for (token, quoted) in code_tokens(text) {
            out.read_token(token, quoted);
        }
        out.identifiers.truncate(MAX_NAMED);
        out.paths.truncate(MAX_NAMED);
        out
    }

    /// How much the words of a repository path (its directories' and its name's, not
    /// the ones every project has) are the description's: 1 for each in its first line,
    /// ½ for each elsewhere.
    pub(crate) fn path_words(&self, rel: &str) -> f64 {
        let mut seen: Vec<String> = Vec::new();
        let mut score = 0.0;
        let segments: Vec<&str> = rel.split('/').collect();
        for (i, segment) in segments.iter().enumerate() {
            let segment = if i + 1 == segments.len() {
                segment.split('.').next().unwrap_or(segment)
            } else {
                segment
            };
            let mut words = String::new();
            words_of(segment, &mut words);
            for word in words.split(' ') {
                if word.len() < 3 || GENERIC_PATH_WORDS.contains(&word) {
                    continue;
                }
                let word = stem(word);
                if seen.contains(&word) {
                    continue;
                }
                if self.title_stems.contains(&word) {
                    score += 1.0;
                } else if self.stems.contains(&word) {
                    score += 0.5;
                }
                seen.push(word);
            }
        }
        score
    }

    fn add_identifier(&mut self, name: &str) {
        let name = name.trim_matches(|c: char| !(c.is_alphanumeric() || c == '_'));
        if name.chars().count() >= 2
            && name.chars().next().is_some_and(|c| !c.is_ascii_digit())
            && !self.identifiers.iter().any(|n| n == name)
        {
            self.identifiers.push(name.to_string());
        }
    }

    fn add_path(&mut self, path: &str) {
        let path = path.trim_start_matches("./").trim_matches('/');
        if !path.is_empty() && !self.paths.iter().any(|p| p == path) {
            self.paths.push(path.to_string());
        }
    }

    /// One whitespace-separated token of the description (`quoted`: inside backticks).
    fn read_token(&mut self, token: &str, quoted: bool) {
        // Punctuation around a token is prose: `(see foo.py),` or "`bar()`."
        let token = token
            .trim_start_matches(['(', '[', '{', '"', '\'', '<', '`'])
            .trim_end_matches([
                ',', ';', '.', ':', '!', '?', ')', ']', '}', '"', '\'', '>', '`',
            ]);
        // A frame's position (`file.py:12`, `file.rs:12:5`) is not part of the path.
        let token = strip_position(token);
        if token.is_empty() {
            return;
        }
        if let Some(path) = path_like(token) {
            self.add_path(path);
            // The file's stem is often also the name of what it holds.
            return;
        }
        let call = token.find('(').map_or(token, |i| &token[..i]);
        let call_syntax = call.len() < token.len();
        // `a.b.c`, `a::b`, `a->b`, `a#b`: each segment a name, the path a module path.
        let segments: Vec<&str> = call
            .split(['.', ':', '#'])
            .flat_map(|s| s.split("->"))
            .filter(|s| !s.is_empty())
            .collect();
        if segments.len() > 1 && segments.iter().all(|s| is_identifier(s)) {
            for s in &segments {
                if looks_like_code(s) || s.chars().next().is_some_and(char::is_uppercase) {
                    self.add_identifier(s);
                }
            }
            if let Some(last) = segments.last() {
                self.add_identifier(last);
            }
            if call.contains('.') && segments.iter().all(|s| !s.is_empty()) {
                self.add_path(&segments.join("/"));
            }
            return;
        }
        if is_identifier(call) && (quoted || call_syntax || looks_like_code(call)) {
            self.add_identifier(call);
        }
    }
}

/// The whitespace-separated tokens of a text, each with whether it stood inside
/// backticks. A backticked span of several words gives each of them.
fn code_tokens(text: &str) -> Vec<(&str, bool)> {
    let mut out = Vec::new();
    let mut quoted = false;
    for (i, part) in text.split('`').enumerate() {
        // Odd parts are inside backticks (an unbalanced last one is not).
        quoted = i % 2 == 1 && !(quoted && part.is_empty());
        for token in part.split_whitespace() {
            out.push((token, quoted));
        }
    }
    out
}

/// How a checklist item of a template starts (after its bullet).
const CHECKBOXES: [&str; 3] = ["[x]", "[X]", "[ ]"];

/// A description without what issue and pull-request templates put around what its
/// writer says: HTML comments (the template's instructions, `<!-- … -->`), checklist
/// items (`- [x] I searched the existing issues`) and web addresses (their host and path
/// words are not the code's) — except a link to a file of a repository
/// (`…/blob/<ref>/src/a.py#L12`), which stays as the file's path.
pub(crate) fn clean(text: &str) -> Cow<'_, str> {
    if !(text.contains("<!--")
        || text.contains("://")
        || CHECKBOXES.iter().any(|box_| text.contains(box_)))
    {
        return Cow::Borrowed(text);
    }
    // HTML comments, an unclosed one to the end.
    let mut rest = text;
    let mut kept = String::with_capacity(text.len());
    while let Some(start) = rest.find("<!--") {
        kept.push_str(&rest[..start]);
        match rest[start + 4..].find("-->") {
            Some(end) => rest = &rest[start + 4 + end + 3..],
            None => rest = "",
        }
    }
    kept.push_str(rest);
    let mut out = String::with_capacity(kept.len());
    for line in kept.lines() {
        let item = line
            .trim_start()
            .trim_start_matches(['-', '*', '+'])
            .trim_start();
        if CHECKBOXES.iter().any(|box_| item.starts_with(box_)) {
            continue;
        }
        for (i, word) in line.split(' ').enumerate() {
            if i > 0 {
                out.push(' ');
            }
            out.push_str(&without_address(word));
        }
        out.push('\n');
    }
    Cow::Owned(out)
}

/// `word` with any web address in it removed, or replaced by the repository path it
/// links to.
fn without_address(word: &str) -> Cow<'_, str> {
    let Some(scheme) = word.find("http://").or_else(|| word.find("https://")) else {
        return Cow::Borrowed(word);
    };
    let address = &word[scheme..];
    let end = address
        .find([')', ']', '>', '"', '\'', '`'])
        .unwrap_or(address.len());
    let (address, after) = (&address[..end], &address[end..]);
    let mut path = String::new();
    for marker in ["/blob/", "/tree/"] {
        if let Some(at) = address.find(marker) {
            // After the marker: the ref, then the path; no line anchor.
            let linked = &address[at + marker.len()..];
            if let Some((_, file)) = linked.split_once('/') {
                path = file.split('#').next().unwrap_or(file).to_string();
            }
            break;
        }
    }
    Cow::Owned(format!("{}{path}{after}", &word[..scheme]))
}

/// Letters, digits and `_`, not starting with a digit.
fn is_identifier(s: &str) -> bool {
    !s.is_empty()
        && s.chars().all(|c| c.is_alphanumeric() || c == '_')
        && s.chars().next().is_some_and(|c| !c.is_ascii_digit())
}

/// An identifier no English word looks like: `snake_case`, `camelCase`, `PascalCase` with
/// two humps, `ALL_CAPS` with an underscore.
fn looks_like_code(s: &str) -> bool {
    if !is_identifier(s) {
        return false;
    }
    let inner = s.trim_matches('_');
    if inner.contains('_') {
        return true;
    }
    let mut chars = inner.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    let rest: Vec<char> = chars.collect();
    let lower_then_upper = rest
        .windows(2)
        .any(|w| w[0].is_lowercase() && w[1].is_uppercase());
    // getUser; HttpClient (a capital after the first lowercase run); not "URL" nor "Hello".
    (first.is_lowercase() && rest.iter().any(|c| c.is_uppercase()))
        || (first.is_uppercase() && lower_then_upper)
}

/// The path a token names, if it is one: it holds a `/` between names, or ends in a
/// source file extension (`client.rs`, `a/b/c.py`). URLs are not paths.
fn path_like(token: &str) -> Option<&str> {
    if token.contains("://") || token.starts_with("www.") {
        return None;
    }
    let name = token.rsplit(['/', '\\']).next().unwrap_or(token);
    let has_ext = name
        .rsplit_once('.')
        .is_some_and(|(stem, ext)| !stem.is_empty() && is_described_extension(ext));
    let separated = token.contains('/')
        && token
            .split('/')
            .filter(|s| !s.is_empty())
            .all(|s| s.chars().all(|c| c.is_alphanumeric() || "_-.@".contains(c)))
        && token.split('/').filter(|s| !s.is_empty()).count() > 1;
    if has_ext || separated {
        // A Windows path in a trace: keep it `/`-separated from its last root-ish part.
        Some(token)
    } else {
        None
    }
}

/// A path without the `:line` or `:line:column` a trace or compiler appends.
fn strip_position(token: &str) -> &str {
    let mut end = token;
    for _ in 0..2 {
        match end.rsplit_once(':') {
            Some((head, tail)) if !tail.is_empty() && tail.bytes().all(|b| b.is_ascii_digit()) => {
                end = head
            }
            _ => break,
        }
    }
    end
}

/// Whether a repository path is a test's: a directory or file named for tests
/// (`tests/`, `test_x.py`, `x_test.go`, `x.test.ts`, `x.spec.ts`, `__tests__/`,
/// `conftest.py`, `testing/`, `benches/`).
pub fn is_test_path(rel: &str) -> bool {
    let mut parts = rel.split('/').peekable();
    while let Some(part) = parts.next() {
        let last = parts.peek().is_none();
        let lower = part.to_ascii_lowercase();
        if !last {
            if matches!(
                lower.as_str(),
                "test"
                    | "tests"
                    | "__tests__"
                    | "testing"
                    | "spec"
                    | "specs"
                    | "benches"
                    | "e2e"
                    | "__mocks__"
                    | "fixtures"
                    | "testdata"
            ) {
                return true;
            }
            continue;
        }
        let stem = lower.split('.').next().unwrap_or(&lower);
        return stem.starts_with("test_")
            || stem.ends_with("_test")
            || stem.ends_with("_tests")
            || stem == "conftest"
            || stem == "tests"
            || lower.contains(".test.")
            || lower.contains(".spec.");
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> String {
        let mut out = String::new();
        words_of(text, &mut out);
        out
    }

    #[test]
    fn templates_comments_checklists_and_addresses_are_left_out() {
        let issue = "Alias creation fails\n<!-- Describe the bug.\nPlease search first. -->\n\
                     - [X] I have searched the existing issues\n* [ ] I read the docs\n\
                     See https://example.com/docs/intro.html#groups and \
                     (https://github.com/o/r/blob/main/src/kms/provider.py#L12).\n\
                     <!-- unclosed";
        assert_eq!(
            clean(issue),
            "Alias creation fails\n\nSee  and (src/kms/provider.py).\n"
        );
        let described = Described::of(&clean(issue));
        assert_eq!(described.paths, ["src/kms/provider.py"]);
        assert!(
            !described
                .words
                .iter()
                .any(|w| w == "searched" || w == "example")
        );
        // Nothing to take out: the text itself.
        assert!(matches!(
            clean("a plain `report`"),
            Cow::Borrowed("a plain `report`")
        ));
    }

    #[test]
    fn identifiers_become_their_subwords_and_their_whole() {
        assert_eq!(words("saveModel(x)"), "save model savemodel");
        assert_eq!(words("custom_loss = 3"), "custom loss custom_loss");
        assert_eq!(
            words("HTTPError 404 deadbeefcafe1234"),
            "http error httperror 404"
        );
    }

    #[test]
    fn a_description_names_code_paths_and_frames() {
        let d = Described::of(
            "Saving a model with `custom_loss` fails: see keras/saving/save.py:120 and \
             Model.compile() after the upgrade (KerasTensor); the Config class. \
             File \"/usr/lib/python3/site-packages/pkg/mod.py\", line 3, in load_weights",
        );
        assert_eq!(
            d.identifiers,
            [
                "custom_loss",
                "Model",
                "compile",
                "KerasTensor",
                "load_weights"
            ]
        );
        assert_eq!(
            d.paths,
            [
                "keras/saving/save.py",
                "Model/compile",
                "usr/lib/python3/site-packages/pkg/mod.py"
            ]
        );
        assert!(d.words.contains(&"saving".to_string()));
        assert!(d.words.contains(&"custom_loss".to_string()));
        assert!(!d.words.iter().any(|w| w == "the" || w == "a"));
    }

    #[test]
    fn dotted_module_paths_and_urls() {
        let d = Described::of("httpx._client.Client breaks; see https://x.org/a/b.py");
        assert_eq!(d.paths, ["httpx/_client/Client"]);
        assert_eq!(d.identifiers, ["Client"]);
    }

    #[test]
    fn test_paths() {
        for p in [
            "tests/test_api.py",
            "src/foo_test.go",
            "a/__tests__/b.ts",
            "x.spec.ts",
            "pkg/conftest.py",
            "lib/y.test.js",
        ] {
            assert!(is_test_path(p), "{p}");
        }
        for p in [
            "src/testing_utils_not.rs",
            "src/attest.py",
            "contest/x.py",
            "latest.rs",
        ] {
            assert!(!is_test_path(p), "{p}");
        }
    }
}
