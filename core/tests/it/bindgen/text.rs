//! Doc text: rustdoc markdown from the schemas, reflowed for comments and docstrings.

/// The paragraphs of a rustdoc description, each on one line: intra-doc links
/// (`` [`super::Install`] ``) become code (`` `Install` ``), the lines of a paragraph are
/// joined, list items (`- `) stay items.
pub fn paragraphs(doc: &str) -> Vec<String> {
    let doc = unlink(doc);
    let mut out: Vec<String> = Vec::new();
    let mut open = false;
    for line in doc.lines().map(str::trim) {
        if line.is_empty() {
            open = false;
        } else if open && !line.starts_with("- ") {
            let last = out.last_mut().unwrap();
            last.push(' ');
            last.push_str(line);
        } else {
            out.push(line.to_string());
            open = true;
        }
    }
    out
}

/// `text` in lines of at most `width` characters (a longer word stands alone). A list
/// item's continuation lines are indented by two.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let hang = if text.starts_with("- ") { "  " } else { "" };
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let prefix = if lines.is_empty() { "" } else { hang };
        if !line.is_empty() && prefix.len() + line.len() + 1 + word.chars().count() > width {
            lines.push(format!("{prefix}{line}"));
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        let prefix = if lines.is_empty() { "" } else { hang };
        lines.push(format!("{prefix}{line}"));
    }
    lines
}

/// The paragraphs of a description on one line.
pub fn one_line(doc: &str) -> String {
    paragraphs(doc).join(" ")
}

/// Paragraphs wrapped to `width`, separated by an empty line.
pub fn flow(doc: &str, width: usize) -> Vec<String> {
    flow_with(doc, width, str::to_string)
}

/// [`flow`], each paragraph first rewritten by `rewrite` (after links are unlinked).
pub fn flow_with(doc: &str, width: usize, rewrite: impl Fn(&str) -> String) -> Vec<String> {
    let mut out = Vec::new();
    let mut last_item = false;
    for paragraph in paragraphs(doc) {
        let item = paragraph.starts_with("- ");
        // A blank line between paragraphs, none between the items of a list.
        if !(out.is_empty() || item && last_item) {
            out.push(String::new());
        }
        out.extend(wrap(&rewrite(&paragraph), width));
        last_item = item;
    }
    out
}

/// `` [`a::b::C`] `` and `` [`C`](…) `` → `` `C` ``.
fn unlink(doc: &str) -> String {
    let mut out = String::new();
    let mut rest = doc;
    while let Some(start) = rest.find("[`") {
        let Some(len) = rest[start + 2..].find("`]") else {
            break;
        };
        let inner = &rest[start + 2..start + 2 + len];
        out.push_str(&rest[..start]);
        let name = inner.rsplit("::").next().unwrap_or(inner);
        out.push('`');
        out.push_str(name);
        out.push('`');
        rest = &rest[start + 2 + len + 2..];
        if let Some(link) = rest.strip_prefix('(')
            && let Some(end) = link.find(')')
        {
            rest = &link[end + 1..];
        }
    }
    out.push_str(rest);
    out
}

/// Markdown code spans (`` `x` ``) as reStructuredText's (``` ``x`` ```).
pub fn rst(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '`' {
            let mut run = 1;
            while chars.peek() == Some(&'`') {
                chars.next();
                run += 1;
            }
            let ticks = if run == 1 { 2 } else { run };
            out.push_str(&"`".repeat(ticks));
        } else {
            out.push(c);
        }
    }
    out
}
