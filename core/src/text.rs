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
    fn truncation_respects_char_boundaries() {
        assert_eq!(truncate_utf8("héllo", 2), "h");
        assert_eq!(truncate_utf8("abc", 10), "abc");
    }

    #[test]
    fn like_escape_escapes_wildcards() {
        assert_eq!(like_escape("a%b_c\\d"), "a\\%b\\_c\\\\d");
    }
}
