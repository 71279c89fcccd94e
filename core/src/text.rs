//! Text helpers shared by the indexes: FTS5 query escaping.

/// Longest query text considered; the rest is ignored rather than refused.
pub const MAX_QUERY_BYTES: usize = 4096;
/// Most tokens a query contributes to an FTS5 expression.
pub const MAX_QUERY_TOKENS: usize = 32;

/// Split `text` into tokens the way the `unicode61 tokenchars '_-'` tokenizer does:
/// runs of letters, digits, `_` and `-`.
pub fn path_tokens(text: &str) -> Vec<&str> {
    let text = truncate_utf8(text, MAX_QUERY_BYTES);
    text.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
        .filter(|t| !t.is_empty())
        .take(MAX_QUERY_TOKENS)
        .collect()
}

/// Build an FTS5 MATCH expression from user text that can never be a syntax error:
/// every token is quoted (so `AND`, `NEAR(`, `-foo` and `*` are plain text), tokens are
/// AND-ed, and the last one matches as a prefix when `prefix_last` is set.
///
/// Returns `None` when the text has no tokens (empty, or punctuation only).
pub fn fts5_query(text: &str, prefix_last: bool) -> Option<String> {
    let tokens = path_tokens(text);
    let last = tokens.len().checked_sub(1)?;
    let mut out = String::with_capacity(text.len() + tokens.len() * 4);
    for (i, token) in tokens.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push('"');
        out.push_str(&token.replace('"', "\"\""));
        out.push('"');
        if prefix_last && i == last {
            out.push('*');
        }
    }
    Some(out)
}

/// English words too common to help a keyword search; dropped from natural-language
/// queries (unless nothing else is left).
const STOPWORDS: &[&str] = &[
    "a", "about", "above", "after", "again", "all", "also", "am", "an", "and", "any", "are", "as",
    "at", "be", "been", "being", "between", "both", "but", "by", "can", "could", "did", "do",
    "does", "doing", "done", "during", "each", "few", "for", "from", "had", "has", "have",
    "having", "he", "her", "here", "him", "his", "how", "i", "if", "in", "into", "is", "it", "its",
    "just", "may", "me", "more", "most", "must", "my", "no", "nor", "not", "now", "of", "on",
    "once", "only", "or", "other", "our", "out", "over", "own", "same", "she", "should", "so",
    "some", "such", "than", "that", "the", "their", "them", "then", "there", "these", "they",
    "this", "those", "through", "to", "too", "under", "until", "up", "very", "was", "we", "were",
    "what", "when", "where", "which", "while", "who", "whom", "why", "will", "with", "would",
    "you", "your",
];

/// Build an FTS5 MATCH expression for a natural-language query: the words (runs of
/// letters, digits and `_`), lowercased, each quoted, stopwords and repeats dropped,
/// OR-ed together so BM25 ranks documents by how many and how rare the words they hold
/// are. Never a syntax error, whatever the text.
///
/// Returns `None` when the text has no words.
pub fn fts5_any_query(text: &str) -> Option<String> {
    let text = truncate_utf8(text, MAX_QUERY_BYTES);
    let mut words: Vec<String> = Vec::new();
    for word in text.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
        if word.is_empty() {
            continue;
        }
        let word = word.to_lowercase();
        if !words.contains(&word) {
            words.push(word);
        }
    }
    let content: Vec<&String> = words
        .iter()
        .filter(|w| !STOPWORDS.contains(&w.as_str()))
        .collect();
    let chosen: Vec<&String> = if content.is_empty() {
        words.iter().collect()
    } else {
        content
    };
    if chosen.is_empty() {
        return None;
    }
    let quoted: Vec<String> = chosen
        .iter()
        .take(MAX_QUERY_TOKENS)
        .map(|w| format!("\"{}\"", w.replace('"', "\"\"")))
        .collect();
    Some(quoted.join(" OR "))
}

/// The longest prefix of `s` of at most `max` bytes that ends on a char boundary.
pub fn truncate_utf8(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// Escape `s` for use inside a SQL `LIKE` pattern with `ESCAPE '\'`.
pub fn like_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if matches!(c, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_follow_the_index_tokenizer() {
        assert_eq!(path_tokens("src/comp"), ["src", "comp"]);
        assert_eq!(path_tokens("my-file_name.rs"), ["my-file_name", "rs"]);
        assert_eq!(path_tokens("Ünïcödé/файл"), ["Ünïcödé", "файл"]);
        assert!(path_tokens("\" * ( ) : ^ +").is_empty());
    }

    #[test]
    fn hostile_text_is_quoted() {
        assert_eq!(fts5_query("", true), None);
        assert_eq!(fts5_query("\"", true), None);
        assert_eq!(fts5_query("*", true), None);
        assert_eq!(fts5_query("-foo", true).unwrap(), "\"-foo\"*");
        assert_eq!(
            fts5_query("NEAR(a b", false).unwrap(),
            "\"NEAR\" \"a\" \"b\""
        );
        assert_eq!(fts5_query("AND", true).unwrap(), "\"AND\"*");
        let long = "word ".repeat(10_000);
        let q = fts5_query(&long, true).unwrap();
        assert_eq!(q.matches("\"word\"").count(), MAX_QUERY_TOKENS);
    }

    #[test]
    fn natural_language_queries_or_their_content_words() {
        assert_eq!(
            fts5_any_query("What is the Flow over a WING?").unwrap(),
            "\"flow\" OR \"wing\""
        );
        assert_eq!(fts5_any_query("the of").unwrap(), "\"the\" OR \"of\"");
        assert_eq!(fts5_any_query("\" * ( ) : ^ + -"), None);
        assert_eq!(fts5_any_query(""), None);
        assert_eq!(
            fts5_any_query("NEAR(a AND b) OR \"c\"").unwrap(),
            "\"near\" OR \"b\" OR \"c\""
        );
        assert_eq!(fts5_any_query("wing wing WING").unwrap(), "\"wing\"");
        assert_eq!(
            fts5_any_query("snake_case x").unwrap(),
            "\"snake_case\" OR \"x\""
        );
    }

    #[test]
    fn truncation_respects_char_boundaries() {
        assert_eq!(truncate_utf8("héllo", 2), "h");
        assert_eq!(truncate_utf8("abc", 10), "abc");
    }

    #[test]
    fn like_escape_escapes_wildcards() {
        assert_eq!(like_escape("a%b_c\\d"), "a\\%b\\_c\\\\d");
    }
}
