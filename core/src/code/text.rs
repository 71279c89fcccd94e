//! Identifier splitting for the FTS index, and the compact forms of signatures and doc
//! comments.

/// The words of an identifier for the `name_tokens` column: subwords split at camelCase
/// and PascalCase boundaries, at the end of an acronym (`HTMLParser` → `html parser`) and
/// at every character that is not a letter or digit (`_ - .` …), lowercased; digits stay
/// with the word they follow (`u32`, `utf8`, `Base64Encoder` → `base64 encoder`). The
/// lowercased original follows when it differs from the only subword.
///
/// ```
/// use cc_search::code::name_tokens;
/// assert_eq!(name_tokens("getUserById"), "get user by id getuserbyid");
/// assert_eq!(name_tokens("HTMLParser"), "html parser htmlparser");
/// assert_eq!(name_tokens("MAX_RETRIES"), "max retries max_retries");
/// ```
pub fn name_tokens(name: &str) -> String {
    if name.is_ascii() {
        ascii_name_tokens(name)
    } else {
        any_name_tokens(name)
    }
}

/// [`name_tokens`] of any name.
fn any_name_tokens(name: &str) -> String {
    let words = split_identifier(name);
    let lower = name.to_lowercase();
    let mut out = words.join(" ");
    if !(lower.is_empty() || (words.len() == 1 && words[0] == lower)) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&lower);
    }
    out
}

/// [`name_tokens`] of an ASCII name (nearly every identifier), without the per-word
/// allocations of the general path; the same result.
fn ascii_name_tokens(name: &str) -> String {
    let bytes = name.as_bytes();
    let mut out = String::with_capacity(2 * bytes.len() + 1);
    let mut words = 0;
    let mut push = |out: &mut String, word: &[u8]| {
        if words > 0 {
            out.push(' ');
        }
        words += 1;
        out.extend(word.iter().map(|b| b.to_ascii_lowercase() as char));
    };
    for segment in bytes.split(|b| !b.is_ascii_alphanumeric()) {
        if segment.is_empty() {
            continue;
        }
        let mut start = 0;
        for i in 1..segment.len() {
            let (prev, c) = (segment[i - 1], segment[i]);
            // getUser, base64Encoder | HTMLParser (before the P)
            if c.is_ascii_uppercase()
                && (prev.is_ascii_lowercase()
                    || prev.is_ascii_digit()
                    || (prev.is_ascii_uppercase()
                        && segment.get(i + 1).is_some_and(u8::is_ascii_lowercase)))
            {
                push(&mut out, &segment[start..i]);
                start = i;
            }
        }
        push(&mut out, &segment[start..]);
    }
    let single = words == 1;
    if !(bytes.is_empty() || (single && out.bytes().eq(bytes.iter().map(u8::to_ascii_lowercase)))) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.extend(bytes.iter().map(|b| b.to_ascii_lowercase() as char));
    }
    out
}

/// The lowercased subwords of an identifier (see [`name_tokens`]).
pub fn split_identifier(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    for segment in name.split(|c: char| !c.is_alphanumeric()) {
        if segment.is_empty() {
            continue;
        }
        let chars: Vec<char> = segment.chars().collect();
        let mut start = 0;
        for i in 1..chars.len() {
            let (prev, c) = (chars[i - 1], chars[i]);
            let boundary = if c.is_uppercase() {
                // getUser, base64Encoder | HTMLParser (before the P)
                prev.is_lowercase()
                    || prev.is_ascii_digit()
                    || (prev.is_uppercase() && chars.get(i + 1).is_some_and(|n| n.is_lowercase()))
            } else {
                false
            };
            if boundary {
                words.push(chars[start..i].iter().collect::<String>().to_lowercase());
                start = i;
            }
        }
        words.push(chars[start..].iter().collect::<String>().to_lowercase());
    }
    words
}

/// Collapse runs of whitespace into one space and trim.
pub(crate) fn collapse_whitespace(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for word in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// The largest index `<= max` on a char boundary of `s`.
fn floor_boundary(s: &str, max: usize) -> usize {
    if max >= s.len() {
        return s.len();
    }
    let mut i = max;
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// A signature in its compact form: whitespace runs become one space, and no space is
/// kept after `( [ { < : ,` or before `) ] } > : ,` — but for `<` and `>` written
/// between spaces (an operator: Ruby's `class A < B`) and a `:` that begins a word
/// (Ruby's `attr_reader :name`); longer than `max` bytes, it is cut (at a char
/// boundary, after the last `,` `)` or `>` when there is one) and `...` added.
///
/// ```
/// use cc_search::code::normalize_signature;
/// assert_eq!(normalize_signature("(a: number, b: number): number", 120), "(a:number,b:number):number");
/// assert_eq!(normalize_signature("class A < B # :nodoc:", 120), "class A < B # :nodoc:");
/// ```
pub fn normalize_signature(sig: &str, max: usize) -> String {
    let chars: Vec<char> = sig.chars().collect();
    let mut out = String::with_capacity(sig.len());
    let mut pending_space = false;
    // Whether the last char pushed is an operator written between spaces.
    let mut operator = false;
    for (i, &c) in chars.iter().enumerate() {
        if c.is_whitespace() {
            pending_space = !out.is_empty();
            continue;
        }
        let next = chars.get(i + 1).copied();
        let spaced = matches!(c, '<' | '>') && next.is_none_or(char::is_whitespace);
        if pending_space {
            pending_space = false;
            let last = out.chars().next_back();
            let after_opener = matches!(last, Some('(' | '[' | '{' | '<' | ':' | ',')) && !operator;
            let word = c == ':' && next.is_some_and(|n| n.is_alphanumeric() || n == '_');
            let before_closer = matches!(c, ')' | ']' | '}' | '>' | ':' | ',') && !spaced && !word;
            if (!after_opener && !before_closer) || (spaced && c == '<') {
                out.push(' ');
            }
        }
        operator = spaced && out.ends_with(' ');
        out.push(c);
    }
    if out.len() <= max {
        return out;
    }
    let cut = &out[..floor_boundary(&out, max)];
    match cut.rfind([',', ')', '>']) {
        Some(pos) if pos > 0 => format!("{}...", &cut[..=pos]),
        _ => format!("{cut}..."),
    }
}

/// A doc comment in its brief form: the first sentence (up to `. `) when it fits in
/// `max` bytes, else the first line when it fits, else cut at the last word boundary
/// before `max` bytes with `...`. UTF-8 safe.
///
/// ```
/// use cc_search::code::truncate_doc;
/// assert_eq!(truncate_doc("Adds two numbers. Returns the sum.", 100), "Adds two numbers.");
/// ```
pub fn truncate_doc(doc: &str, max: usize) -> String {
    let doc = doc.trim();
    if let Some(pos) = doc.find(". ") {
        let sentence = &doc[..=pos];
        if sentence.len() <= max && !sentence.contains('\n') {
            return sentence.to_string();
        }
    }
    if let Some(pos) = doc.find('\n') {
        let line = doc[..pos].trim();
        if line.len() <= max {
            return line.to_string();
        }
    }
    if doc.len() <= max {
        return doc.to_string();
    }
    let cut = &doc[..floor_boundary(doc, max)];
    match cut.rfind(char::is_whitespace) {
        Some(pos) if pos > 0 => format!("{}...", cut[..pos].trim_end()),
        _ => format!("{cut}..."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_examples() {
        assert_eq!(name_tokens("getUserById"), "get user by id getuserbyid");
        assert_eq!(
            name_tokens("UserRepository"),
            "user repository userrepository"
        );
        assert_eq!(name_tokens("MAX_RETRIES"), "max retries max_retries");
        assert_eq!(name_tokens("HTMLParser"), "html parser htmlparser");
        assert_eq!(name_tokens("user_repo"), "user repo user_repo");
        assert_eq!(name_tokens("my-file.name"), "my file name my-file.name");
        assert_eq!(name_tokens("parse"), "parse");
        assert_eq!(name_tokens(""), "");
    }

    #[test]
    fn ascii_names_take_a_shortcut_to_the_same_tokens() {
        for name in [
            "",
            "_",
            "__init__",
            "a",
            "A",
            "ab",
            "AB",
            "aB",
            "Ab",
            "getUserById",
            "HTMLParser",
            "IOError",
            "MAX_RETRIES",
            "my-file.name",
            "u32",
            "utf8",
            "Base64Encoder",
            "parseUtf8Bytes",
            "x86_64",
            "ABCdefGHI",
            "a1B2c3",
            "9lives",
            "__FOO__bar",
            "already lower",
            "Self",
            "new",
            "HTTP2Server",
            "x.y::z",
            "-",
        ] {
            assert_eq!(ascii_name_tokens(name), any_name_tokens(name), "{name:?}");
        }
    }

    #[test]
    fn digits_stay_with_their_word() {
        assert_eq!(split_identifier("u32"), ["u32"]);
        assert_eq!(split_identifier("utf8"), ["utf8"]);
        assert_eq!(split_identifier("f16"), ["f16"]);
        assert_eq!(split_identifier("Base64Encoder"), ["base64", "encoder"]);
        assert_eq!(
            split_identifier("parseUtf8Bytes"),
            ["parse", "utf8", "bytes"]
        );
        assert_eq!(split_identifier("IOError"), ["io", "error"]);
        assert_eq!(split_identifier("Ünïcode_Näme"), ["ünïcode", "näme"]);
    }

    #[test]
    fn signatures() {
        assert_eq!(
            normalize_signature("fn add(a int, b int) int", 120),
            "fn add(a int,b int) int"
        );
        assert_eq!(
            normalize_signature("pub fn f<T: Clone>(\n    x: T,\n) -> T", 120),
            "pub fn f<T:Clone>(x:T,) -> T"
        );
        let long = normalize_signature(&format!("fn f({})", "a: u8, ".repeat(40)), 120);
        assert!(long.ends_with(",..."), "{long}");
        assert!(long.len() <= 123);
        let emoji = normalize_signature(&format!("fn f({})", "😀".repeat(50)), 20);
        assert!(emoji.ends_with("..."));
    }

    #[test]
    fn docs() {
        assert_eq!(truncate_doc("Simple doc", 100), "Simple doc");
        assert_eq!(truncate_doc("First line\nsecond line", 100), "First line");
        let long = truncate_doc(&"word ".repeat(60), 100);
        assert!(long.ends_with("word..."), "{long}");
        assert!(long.len() <= 103);
        let cjk = truncate_doc(&"漢字".repeat(100), 10);
        assert!(cjk.ends_with("..."));
    }
}
