//! Text helpers shared by the indexes: FTS5 query escaping and markdown H2 chunking.

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
pub const STOPWORDS: &[&str] = &[
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

/// The words a natural-language query searches for: runs of letters, digits and `_`
/// holding a letter or digit — a `.` between two digits kept inside, so a version
/// (`2.9.5`, `v1.2`) is one word, which a keyword search asks for as a phrase —
/// lowercased, stopwords and repeats dropped (all words kept when every one is a
/// stopword), at most [`MAX_QUERY_TOKENS`].
pub fn query_words(text: &str) -> Vec<String> {
    let text = truncate_utf8(text, MAX_QUERY_BYTES);
    let mut words: Vec<String> = Vec::new();
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let digit = |i: usize| chars.get(i).is_some_and(|(_, c)| c.is_ascii_digit());
    let breaks = chars.iter().enumerate().filter(|&(i, &(_, c))| {
        let version_dot = c == '.' && i > 0 && digit(i - 1) && digit(i + 1);
        !(c.is_alphanumeric() || c == '_' || version_dot)
    });
    let mut start = 0;
    let mut pieces = Vec::new();
    for (_, &(at, c)) in breaks {
        pieces.push(&text[start..at]);
        start = at + c.len_utf8();
    }
    pieces.push(&text[start..]);
    for word in pieces {
        // `_` alone is no token to the chunk index: such a word would match nothing and
        // still displace the stopwords.
        if !word.chars().any(char::is_alphanumeric) {
            continue;
        }
        let word = word.to_lowercase();
        if !words.contains(&word) {
            words.push(word);
        }
    }
    if words.iter().any(|w| !STOPWORDS.contains(&w.as_str())) {
        words.retain(|w| !STOPWORDS.contains(&w.as_str()));
    }
    words.truncate(MAX_QUERY_TOKENS);
    words
}

/// Build an FTS5 MATCH expression for a natural-language query: its [`query_words`],
/// each quoted, OR-ed together so BM25 ranks documents by how many and how rare the
/// words they hold are. Never a syntax error, whatever the text.
///
/// Returns `None` when the text has no words.
pub fn fts5_any_query(text: &str) -> Option<String> {
    fts5_any_of(query_words(text))
}

/// The FTS5 MATCH expression asking for any of `words`, each quoted (so no word is
/// syntax), OR-ed; `None` without words.
pub fn fts5_any_of<S: AsRef<str>>(words: impl IntoIterator<Item = S>) -> Option<String> {
    let quoted: Vec<String> = words
        .into_iter()
        .map(|w| format!("\"{}\"", w.as_ref().replace('"', "\"\"")))
        .collect();
    (!quoted.is_empty()).then(|| quoted.join(" OR "))
}

/// The title of a document's chunk when the document has no section heading.
pub const FULL_DOCUMENT: &str = "(full document)";
/// The title of the text before a document's first section heading.
pub const PREAMBLE: &str = "(preamble)";

/// One section of a document (Markdown or reStructuredText).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocSection {
    /// The heading's text (`##1`, `##2`, … appended to repeats of an earlier title), or
    /// [`FULL_DOCUMENT`], or [`PREAMBLE`].
    pub title: String,
    /// The section's text, its heading line(s) included.
    pub text: String,
    /// Its first line in the document, from 1.
    pub line: usize,
    /// Its last line.
    pub end_line: usize,
}

/// Where projects keep their documentation: globs relative to the project root, matched
/// without regard to case. Every docs index run indexes these, and the project's
/// remembered globs; the code overview counts them.
pub const DEFAULT_DOC_GLOBS: [&str; 3] = [
    "*.{md,markdown,mdx,rst}",
    "{doc,docs,documentation}/**/*.{md,markdown,mdx,rst}",
    "{apps,packages}/*/{doc,docs}/**/*.{md,markdown,mdx,rst}",
];

/// Whether `rel` (relative to the project root, `/`-separated) is a document every docs
/// run indexes ([`DEFAULT_DOC_GLOBS`]).
pub fn is_default_doc(rel: &str) -> bool {
    static SET: std::sync::OnceLock<Option<globset::GlobSet>> = std::sync::OnceLock::new();
    SET.get_or_init(|| {
        let mut set = globset::GlobSetBuilder::new();
        for glob in DEFAULT_DOC_GLOBS {
            set.add(
                globset::GlobBuilder::new(glob)
                    .literal_separator(true)
                    .case_insensitive(true)
                    .build()
                    .ok()?,
            );
        }
        set.build().ok()
    })
    .as_ref()
    .is_some_and(|set| set.is_match(rel))
}

/// Directory names that hold test fixtures, examples and samples rather than a project's
/// own code or docs.
pub(crate) const SAMPLE_DIRS: &[&str] = &[
    "example",
    "examples",
    "example_scripts",
    "sample",
    "samples",
    "fixture",
    "fixtures",
    "__fixtures__",
    "testdata",
    "test_data",
    "snapshots",
    "__snapshots__",
];

/// Whether `dir` (relative, `/`-separated) is in or below a [`SAMPLE_DIRS`] directory.
pub(crate) fn in_sample_dir(dir: &str) -> bool {
    dir.split('/')
        .any(|part| SAMPLE_DIRS.contains(&part.to_ascii_lowercase().as_str()))
}

/// Directory names that hold other projects' code, kept in this one.
const VENDORED_DIRS: &[&str] = &[
    "vendor",
    "third_party",
    "third-party",
    "node_modules",
    "bower_components",
];

/// Files that make the directory holding them a package, whose README documents it.
const PACKAGE_MANIFESTS: &[&str] = &[
    "Cargo.toml",
    "package.json",
    "pyproject.toml",
    "setup.py",
    "go.mod",
    "pom.xml",
    "build.gradle",
    "build.gradle.kts",
    "composer.json",
    "mix.exs",
];

/// The documents every docs run indexes in one tree: those [`is_default_doc`] names, and
/// of each package, a directory with a manifest (`Cargo.toml`, `package.json`,
/// `pyproject.toml`, …) outside samples and fixtures, its README (a workspace member's
/// `crates/foo/README.md`), what its `doc`, `docs` or `documentation` directories hold
/// at any depth (`crates/foo/docs/guide.md`, a crate's `axum/src/docs/routing.md` that
/// its doc comments include) and, of a Rust crate, the guide its `src/lib.rs` writes in
/// `//!` comments ([`inner_docs`]). A README elsewhere (`src/README.md`) is not one of
/// them.
#[derive(Debug, Default)]
pub struct DefaultDocs {
    packages: std::collections::HashSet<String>,
    /// Those with a `Cargo.toml`: Rust crates, whose `src/lib.rs` holds their guide.
    crates: std::collections::HashSet<String>,
}

impl DefaultDocs {
    /// The default docs of a tree holding the files `rels` (relative, `/`-separated).
    pub fn of<'a>(rels: impl IntoIterator<Item = &'a str>) -> DefaultDocs {
        let mut docs = DefaultDocs::default();
        for rel in rels {
            let (dir, name) = rel.rsplit_once('/').unwrap_or(("", rel));
            let manifest = PACKAGE_MANIFESTS.contains(&name) || name.ends_with(".gemspec");
            if manifest && !in_sample_dir(dir) {
                docs.packages.insert(dir.to_string());
                if name == "Cargo.toml" {
                    docs.crates.insert(dir.to_string());
                }
            }
        }
        docs
    }

    /// Whether `rel` is one of them.
    pub fn contains(&self, rel: &str) -> bool {
        is_default_doc(rel) || self.is_package_doc(rel)
    }

    /// Whether `rel` is the README of a package below the root, in a docs directory
    /// inside one, or a crate's `src/lib.rs` (its `//!` guide, [`inner_docs`]).
    pub fn is_package_doc(&self, rel: &str) -> bool {
        let Some((dir, name)) = rel.rsplit_once('/') else {
            return false;
        };
        if name == "lib.rs"
            && let Some(krate) = dir.strip_suffix("src")
            && (krate.is_empty() || krate.ends_with('/'))
            && self.crates.contains(krate.trim_end_matches('/'))
        {
            return true;
        }
        let Some((stem, ext)) = name.rsplit_once('.') else {
            return false;
        };
        if !["md", "markdown", "mdx", "rst"]
            .iter()
            .any(|e| ext.eq_ignore_ascii_case(e))
        {
            return false;
        }
        if stem.eq_ignore_ascii_case("readme") && self.packages.contains(dir) {
            return true;
        }
        // The package nearest the file (`""`: the root), and below it a docs directory,
        // none of samples or of vendored code.
        let parts: Vec<&str> = dir.split('/').collect();
        for cut in (0..=parts.len()).rev() {
            if self.packages.contains(&parts[..cut].join("/")) {
                let below = &parts[cut..];
                let named = |names: &[&str]| {
                    below
                        .iter()
                        .any(|part| names.iter().any(|n| part.eq_ignore_ascii_case(n)))
                };
                return named(&["doc", "docs", "documentation"])
                    && !in_sample_dir(&below.join("/"))
                    && !named(VENDORED_DIRS);
            }
        }
        false
    }
}

/// Whether a file is reStructuredText, by its extension (else it is read as Markdown).
pub fn is_rst(path: &str) -> bool {
    let ext = path.rsplit_once('.').map_or("", |(_, ext)| ext);
    ext.eq_ignore_ascii_case("rst") || ext.eq_ignore_ascii_case("rest")
}

/// Most lines of an [`excerpt`], bytes of each, and bytes of the whole.
const EXCERPT_LINES: usize = 5;
const EXCERPT_LINE_BYTES: usize = 200;
const EXCERPT_BYTES: usize = 1_000;

/// `text` cut to about `max` bytes around byte `at`: from a little before it, `…` where
/// cut.
fn around(text: &str, at: usize, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let mut start = at.saturating_sub(max / 4);
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let rest = truncate_utf8(&text[start..], max);
    let mut out = String::new();
    if start > 0 {
        out.push('…');
    }
    out.push_str(rest);
    if start + rest.len() < text.len() {
        out.push('…');
    }
    out
}

/// The part of a search hit an agent reads (a session's chunk, a docs section): the
/// lines of `content` holding the most of the
/// query's `words` (at most [`EXCERPT_LINES`], in their order, each cut around its first
/// match), else — a hit found by meaning alone — the start of `window` (or `content`);
/// at most [`EXCERPT_BYTES`] in all.
pub(crate) fn excerpt(content: &str, window: Option<&str>, words: &[String]) -> String {
    let mut lines = if words.iter().all(|w| w.is_ascii()) {
        matching_lines_ascii(content, words)
    } else {
        matching_lines(content, words)
    };
    let mut out = String::new();
    if lines.is_empty() {
        let text = window.unwrap_or(content).trim();
        return around(text, 0, EXCERPT_BYTES);
    }
    lines.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    lines.truncate(EXCERPT_LINES);
    lines.sort_by_key(|l| l.1);
    for (_, _, line, at) in lines {
        let piece = around(line, at, EXCERPT_LINE_BYTES);
        if out.len() + piece.len() + 1 > EXCERPT_BYTES {
            break;
        }
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&piece);
    }
    out
}

/// A line of [`excerpt`]'s text holding query words: how many of the words, its place,
/// its text and where the first match starts in it.
type Matching<'t> = (usize, usize, &'t str, usize);

/// The lines of `content` holding any of `words` (lowercase), each line lowercased to
/// compare.
fn matching_lines<'t>(content: &'t str, words: &[String]) -> Vec<Matching<'t>> {
    let mut lines = Vec::new();
    for (order, line) in content.lines().enumerate() {
        let lower = line.to_lowercase();
        let found: Vec<usize> = words
            .iter()
            .filter_map(|w| lower.find(w.as_str()))
            .collect();
        if let Some(at) = found.iter().min()
            && !line.trim().is_empty()
        {
            // `lower` may differ in length from `line` (rare case mappings): fall back to 0.
            let at = if lower.len() == line.len() { *at } else { 0 };
            lines.push((found.len(), order, line.trim_end(), at));
        }
    }
    lines
}

/// [`matching_lines`] for words of ASCII only: the text lowercased once and each word
/// found by a substring search over all of it, so a section of thousands of lines costs
/// a pass per word rather than a lowercased copy and a search per line.
fn matching_lines_ascii<'t>(content: &'t str, words: &[String]) -> Vec<Matching<'t>> {
    let lower = content.as_bytes().to_ascii_lowercase();
    let starts: Vec<usize> = std::iter::once(0)
        .chain(memchr::memchr_iter(b'\n', &lower).map(|i| i + 1))
        .collect();
    // Line → (words found in it, where the first starts).
    let mut found: std::collections::BTreeMap<usize, (usize, usize)> = Default::default();
    for word in words.iter().filter(|w| !w.is_empty()) {
        let mut last = usize::MAX;
        for at in memchr::memmem::find_iter(&lower, word.as_bytes()) {
            let line = starts.partition_point(|&s| s <= at) - 1;
            if line == last {
                continue;
            }
            last = line;
            let entry = found.entry(line).or_insert((0, usize::MAX));
            entry.0 += 1;
            entry.1 = entry.1.min(at - starts[line]);
        }
    }
    found
        .into_iter()
        .map(|(order, (count, at))| {
            let end = starts.get(order + 1).map_or(content.len(), |next| next - 1);
            let line = &content[starts[order]..end];
            (count, order, line.trim_end(), at)
        })
        .collect()
}

/// Split a documentation file into sections by its kind: [`rst_sections`] for
/// reStructuredText ([`is_rst`]), the sections of its `//!` comments for Rust source
/// ([`inner_docs`], at `#` headings), [`markdown_sections`] for anything else.
pub fn doc_sections(path: &str, text: &str) -> Vec<DocSection> {
    if is_rst(path) {
        rst_sections(text)
    } else if path.rsplit_once('.').is_some_and(|(_, ext)| ext == "rs") {
        // (Split at `#`: a crate's page gives its guide's headings a level of their own.)
        sections_from_level(&inner_docs(text), 1)
    } else {
        markdown_sections(text)
    }
}

/// The Markdown a Rust file's inner doc comments (`//! …`) write — a crate's guide, in
/// its `lib.rs` — line for line: every other line blank, so a section's lines are the
/// file's, up to the last such comment.
pub fn inner_docs(source: &str) -> String {
    let mut out = String::new();
    let mut end = 0;
    for line in source.lines() {
        if let Some(doc) = line.trim_start().strip_prefix("//!") {
            out.push_str(doc.strip_prefix(' ').unwrap_or(doc));
            out.push('\n');
            end = out.len();
        } else {
            out.push('\n');
        }
    }
    // (Nothing after the last: the code.)
    out.truncate(end);
    out
}

/// A stretch of a document as a splitter cut it: the text before the first heading
/// (`title: None`) or one section; `said` when it holds more than its heading(s).
struct Cut {
    title: Option<String>,
    text: String,
    said: bool,
}

/// The sections of a document cut at its headings, by the rules both splitters share:
/// no heading makes one [`FULL_DOCUMENT`] chunk (none when blank); the text before the
/// first heading is a [`PREAMBLE`] chunk when it says more than a heading; a section with
/// nothing below its heading is skipped; a title seen before gets `##1`, `##2`, ….
fn sections_of(mut cuts: Vec<Cut>) -> Vec<DocSection> {
    // The cuts are the document's lines in order: each starts where the last ended.
    let lines_of = |text: &str| text.matches('\n').count() + usize::from(!text.ends_with('\n'));
    if cuts.len() == 1 {
        let text = cuts.remove(0).text;
        if text.trim().is_empty() {
            return Vec::new();
        }
        return vec![DocSection {
            title: FULL_DOCUMENT.to_string(),
            line: 1,
            end_line: lines_of(&text),
            text,
        }];
    }
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let mut out = Vec::new();
    let mut next_line = 1;
    for cut in cuts {
        let line = next_line;
        let end_line = line + lines_of(&cut.text).max(1) - 1;
        if !cut.text.is_empty() {
            next_line = end_line + 1;
        }
        if !cut.said {
            continue;
        }
        let Some(title) = cut.title else {
            out.push(DocSection {
                title: PREAMBLE.to_string(),
                text: cut.text,
                line,
                end_line,
            });
            continue;
        };
        let repeats = seen.entry(title.clone()).or_insert(0);
        let title = if *repeats == 0 {
            title
        } else {
            format!("{title}##{repeats}")
        };
        *repeats += 1;
        out.push(DocSection {
            title,
            text: cut.text,
            line,
            end_line,
        });
    }
    out
}

/// A heading a document may be cut at: its first line, how many lines it spans, its
/// depth (0: where the document is always cut; deeper: where a large section is cut
/// again, shallowest first) and its title.
struct Heading {
    at: usize,
    span: usize,
    depth: usize,
    title: String,
}

/// A section larger than this (bytes, its subsections included) is cut again at the
/// shallowest heading level inside it: an agent is pointed at the part that answers, and
/// a search does not carry a whole changelog for one release's lines.
pub const LARGE_SECTION: usize = 8 * 1024;

/// The cuts of a document of `lines`: at its `headings` of depth 0, then each piece
/// larger than [`LARGE_SECTION`] at the shallowest depth of the headings inside it, and
/// so on. `says(line, in_preamble)` tells whether a line says something (a cut that says
/// nothing beyond its heading is skipped).
fn cut_at_headings(
    lines: &[&str],
    headings: &[Heading],
    says: &dyn Fn(usize, bool) -> bool,
) -> Vec<Cut> {
    let mut cutter = Cutter {
        lines,
        says,
        cuts: Vec::new(),
    };
    let whole = Piece {
        range: 0..lines.len(),
        title: None,
        span: 0,
    };
    let top = headings.iter().any(|h| h.depth == 0).then_some(0);
    cutter.cut(whole, headings, top);
    cutter.cuts
}

/// A stretch of a document's lines: its own heading (`title`, `None` for the preamble)
/// spans its first `span` lines.
struct Piece {
    range: std::ops::Range<usize>,
    title: Option<String>,
    span: usize,
}

/// [`cut_at_headings`]' state: the document, its rule for text, the cuts so far.
struct Cutter<'a> {
    lines: &'a [&'a str],
    says: &'a dyn Fn(usize, bool) -> bool,
    cuts: Vec<Cut>,
}

impl Cutter<'_> {
    /// Cut `piece`, whose headings after its own are `headings`, at those of `depth`,
    /// or — when no depth is given and the piece is larger than [`LARGE_SECTION`] — at
    /// the shallowest of them. The text before the first of those stays with the
    /// piece's own heading.
    fn cut(&mut self, piece: Piece, headings: &[Heading], depth: Option<usize>) {
        let size: usize = self.lines[piece.range.clone()]
            .iter()
            .map(|l| l.len())
            .sum();
        let depth = depth.or_else(|| {
            (size > LARGE_SECTION)
                .then(|| headings.iter().map(|h| h.depth).min())
                .flatten()
        });
        let at: Vec<usize> = (0..headings.len())
            .filter(|&k| Some(headings[k].depth) == depth)
            .collect();
        let Some(&first) = at.first() else {
            let preamble = piece.title.is_none();
            let own = piece.range.start + piece.span..piece.range.end;
            let said = own.into_iter().any(|i| (self.says)(i, preamble));
            self.cuts.push(Cut {
                title: piece.title,
                text: self.lines[piece.range].concat(),
                said,
            });
            return;
        };
        let end = piece.range.end;
        let head = Piece {
            range: piece.range.start..headings[first].at,
            ..piece
        };
        self.cut(head, &headings[..first], None);
        for (n, &k) in at.iter().enumerate() {
            let next = at.get(n + 1).copied().unwrap_or(headings.len());
            let heading = &headings[k];
            let sub = Piece {
                range: heading.at..headings.get(next).map_or(end, |h| h.at),
                title: Some(heading.title.clone()),
                span: heading.span,
            };
            self.cut(sub, &headings[k + 1..next], None);
        }
    }
}

/// Split markdown into one chunk per H2 section (`## Title`), by the rules both
/// splitters share:
///
/// - a file without an H2 heading is one chunk titled [`FULL_DOCUMENT`];
/// - text before the first H2 (a title, an introduction) is a chunk titled
///   [`PREAMBLE`], unless it is only a heading or blank;
/// - a title seen before in the file gets `##1`, `##2`, … appended (the first keeps its
///   title);
/// - sections with no text below their heading are skipped;
/// - a section (or a document without H2) larger than [`LARGE_SECTION`] is cut again at
///   the shallowest heading level inside it (`###`, then `####`, …), each piece by the
///   same rule; its text before that heading stays under its own title;
/// - `#` lines inside fenced code blocks (```` ``` ```` or `~~~`) are not headings;
///   closing `#`s of a heading are dropped; up to three spaces of indentation are allowed.
pub fn markdown_sections(markdown: &str) -> Vec<DocSection> {
    sections_from_level(markdown, 2)
}

/// [`markdown_sections`], split at headings of level `top` (`#` is 1) and below it.
fn sections_from_level(markdown: &str, top: usize) -> Vec<DocSection> {
    let lines: Vec<&str> = markdown.split_inclusive('\n').collect();
    let mut headings = Vec::new();
    let mut fence: Option<(char, usize)> = None;
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim_end_matches(['\n', '\r']);
        let indent = trimmed.len() - trimmed.trim_start_matches(' ').len();
        let body = trimmed.trim_start_matches(' ');
        if indent <= 3 {
            let marker = body.chars().next().filter(|c| *c == '`' || *c == '~');
            if let Some(c) = marker {
                let run = body.chars().take_while(|x| *x == c).count();
                if run >= 3 {
                    match fence {
                        None => fence = Some((c, run)),
                        Some((open, len))
                            if open == c && run >= len && body[run..].trim().is_empty() =>
                        {
                            fence = None
                        }
                        _ => {}
                    }
                }
            }
        }
        if fence.is_none()
            && indent <= 3
            && let Some((level, title)) = atx_heading(body)
            && level >= top
        {
            headings.push(Heading {
                at: i,
                span: 1,
                depth: level - top,
                title,
            });
        }
    }
    // A preamble says more than a heading; a section has text below its heading.
    let says = |i: usize, preamble: bool| {
        let line = lines[i].trim();
        let heading = preamble && line.starts_with('#');
        !line.is_empty() && !heading
    };
    sections_of(cut_at_headings(&lines, &headings, &says))
}

/// The character of a reStructuredText adornment line (a run of one punctuation
/// character, at least two long, nothing else but trailing spaces), and its length.
fn rst_adornment(line: &str) -> Option<(char, usize)> {
    let line = line.trim_end();
    let c = line.chars().next()?;
    if !c.is_ascii_punctuation() || !line.chars().all(|x| x == c) {
        return None;
    }
    let len = line.len();
    (len >= 2).then_some((c, len))
}

/// A section title's line: text at the margin (`inset` allows the indentation an
/// overlined title may have), not itself an adornment.
fn rst_title(line: &str, inset: bool) -> Option<&str> {
    let text = line.trim_end();
    if text.trim().is_empty()
        || (!inset && text.starts_with([' ', '\t']))
        || rst_adornment(text).is_some()
    {
        return None;
    }
    Some(text.trim())
}

/// Split reStructuredText into one chunk per section, by the rules both splitters share
/// (see [`markdown_sections`]).
///
/// A heading is a title line underlined — or over- and underlined — with a run of one
/// punctuation character at least as long as the title (or four long), after a blank
/// line or at the start; its style is the character and whether it is overlined, and
/// styles take their levels in the order they first appear, as in docutils. The
/// document is split at its top level: at the second style when the first is used once
/// (the document's title, which then stays in the preamble), else at the first. Deeper
/// sections stay inside theirs, unless theirs is larger than [`LARGE_SECTION`] (see
/// [`markdown_sections`]). Indented text (literal blocks, directives' bodies)
/// holds no headings.
pub fn rst_sections(text: &str) -> Vec<DocSection> {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let bare = |i: usize| lines[i].trim_end_matches(['\n', '\r']);
    let blank = |i: usize| bare(i).trim().is_empty();
    let long_enough = |title: &str, len: usize| len >= title.chars().count().min(4);
    // (first line, lines it spans, style, title) of each heading, in order.
    let mut headings: Vec<(usize, usize, (char, bool), String)> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let after_blank = i == 0 || blank(i - 1);
        if after_blank
            && i + 2 < lines.len()
            && let (Some((over, over_len)), Some(title), Some((under, under_len))) = (
                rst_adornment(bare(i)),
                rst_title(bare(i + 1), true),
                rst_adornment(bare(i + 2)),
            )
            && over == under
            && long_enough(title, over_len.min(under_len))
        {
            headings.push((i, 3, (over, true), title.to_string()));
            i += 3;
            continue;
        }
        if after_blank
            && i + 1 < lines.len()
            && let (Some(title), Some((under, len))) =
                (rst_title(bare(i), false), rst_adornment(bare(i + 1)))
            && long_enough(title, len)
        {
            headings.push((i, 2, (under, false), title.to_string()));
            i += 2;
            continue;
        }
        i += 1;
    }
    let mut styles: Vec<(char, bool)> = Vec::new();
    for (_, _, style, _) in &headings {
        if !styles.contains(style) {
            styles.push(*style);
        }
    }
    let uses = |style: (char, bool)| headings.iter().filter(|h| h.2 == style).count();
    // The level the document is split at, and whether its first heading is the title.
    let (level, titled) = match styles.as_slice() {
        [] => (0, false),
        [first, _, ..] if uses(*first) == 1 && headings[0].2 == *first => (1, true),
        _ => (0, false),
    };
    let mut heading_lines = vec![false; lines.len()];
    for (at, span, _, _) in &headings {
        heading_lines[*at..at + span]
            .iter_mut()
            .for_each(|h| *h = true);
    }
    // Depth 0 is the level the document is split at; the title is never a cut.
    let cuts: Vec<Heading> = headings
        .into_iter()
        .enumerate()
        .filter(|(n, _)| !(titled && *n == 0))
        .map(|(_, (at, span, style, title))| Heading {
            at,
            span,
            depth: styles
                .iter()
                .position(|s| *s == style)
                .unwrap_or(0)
                .saturating_sub(level),
            title,
        })
        .collect();
    // A label (`.. _name:`) says nothing, nor, in the preamble, a heading.
    let says = |i: usize, preamble: bool| {
        let target = bare(i).trim_start().starts_with(".. _") && bare(i).trim_end().ends_with(':');
        let heading = preamble && heading_lines[i];
        !blank(i) && !target && !heading
    };
    sections_of(cut_at_headings(&lines, &cuts, &says))
}

/// The level (1–6) and title of an ATX heading line (indentation already removed), or
/// `None`.
fn atx_heading(line: &str) -> Option<(usize, String)> {
    let level = line.bytes().take_while(|b| *b == b'#').count();
    if !(1..=6).contains(&level) {
        return None;
    }
    let rest = &line[level..];
    if !(rest.is_empty() || rest.starts_with([' ', '\t'])) {
        return None;
    }
    let mut title = rest.trim();
    // Closing sequence: a run of `#` preceded by a space (or the whole title).
    let stripped = title.trim_end_matches('#');
    if stripped.len() < title.len() && (stripped.is_empty() || stripped.ends_with([' ', '\t'])) {
        title = stripped.trim_end();
    }
    Some((level, title.to_string()))
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
    #[test]
    fn a_rust_file_s_docs_are_its_inner_doc_comments_at_their_lines() {
        let source = "//! # Guide\n//!\n//! Intro.\n//!\n//! ```rust\n//! # use x::y;\n//! ```\n//!\n//! # Sharing state\n//!\n//!Handlers share it.\n#![doc(html_root_url = \"x\")]\n\n/// Not a guide: an item's.\npub fn f() {}\n";
        let sections = doc_sections("axum/src/lib.rs", source);
        let found: Vec<(&str, usize, usize)> = sections
            .iter()
            .map(|s| (s.title.as_str(), s.line, s.end_line))
            .collect();
        assert_eq!(
            found,
            [("Guide", 1, 8), ("Sharing state", 9, 11)],
            "{sections:#?}"
        );
        assert!(sections[1].text.contains("Handlers share it."));
        assert!(!sections.iter().any(|s| s.text.contains("item's")));
    }

    #[test]
    fn an_excerpt_is_the_lines_with_the_query_words() {
        let words = query_words("sqlite lock timeout");
        let content = "We looked at it.\nThe SQLite database was locked.\nnothing here\nRaise the busy timeout for the sqlite lock.\nDone.";
        assert_eq!(
            excerpt(content, None, &words),
            "The SQLite database was locked.\nRaise the busy timeout for the sqlite lock."
        );
        // The lines with the most words, at most five, in their order.
        let many: String =
            (0..9).map(|i| format!("sqlite {i}\n")).collect::<String>() + "sqlite lock timeout\n";
        let got = excerpt(&many, None, &words);
        assert_eq!(
            got,
            "sqlite 0\nsqlite 1\nsqlite 2\nsqlite 3\nsqlite lock timeout"
        );
        // A long line is cut around its match; nothing matched: the window's start.
        let long = format!("{} sqlite {}", "a".repeat(500), "b".repeat(500));
        let cut = excerpt(&long, None, &words);
        assert!(
            cut.starts_with('…') && cut.ends_with('…') && cut.contains("sqlite"),
            "{cut}"
        );
        assert!(cut.len() <= EXCERPT_LINE_BYTES + 6);
        let by_meaning = excerpt(&"x".repeat(3000), Some("the window"), &words);
        assert_eq!(by_meaning, "the window");
        assert!(excerpt(&"y ".repeat(3000), None, &words).len() <= EXCERPT_BYTES + 3);
        // Words beyond ASCII are compared line by line, lowercased; both ways agree.
        let text = "Ein Überblick.\r\nDIE ÜBERSICHT der SQLite-Sperre\n\nsqlite";
        assert_eq!(
            excerpt(text, None, &query_words("übersicht")),
            "DIE ÜBERSICHT der SQLite-Sperre"
        );
        let ascii = query_words("sqlite sperre");
        assert_eq!(
            matching_lines_ascii(text, &ascii),
            matching_lines(text, &ascii)
        );
        assert_eq!(
            matching_lines_ascii(content, &words),
            matching_lines(content, &words)
        );
    }

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
        // Found by fuzzing: an underscore-only word is no word (it matched nothing and
        // left out the stopwords that would have).
        assert_eq!(fts5_any_query("+`i \" _").unwrap(), "\"i\"");
        assert_eq!(fts5_any_query("__ wing").unwrap(), "\"wing\"");
        assert_eq!(fts5_any_query("_"), None);
        assert_eq!(
            fts5_any_query("snake_case x").unwrap(),
            "\"snake_case\" OR \"x\""
        );
    }

    #[test]
    fn a_version_is_one_query_word() {
        assert_eq!(
            query_words("What changed in deno 2.9.5? v1.2, then 3. And 4.x"),
            ["changed", "deno", "2.9.5", "v1.2", "3", "4", "x"]
        );
        assert_eq!(fts5_any_query("in 1.2").unwrap(), "\"1.2\"");
        assert_eq!(query_words(".5. 1..2"), ["5", "1", "2"]);
    }

    fn titles(md: &str) -> Vec<String> {
        markdown_sections(md).into_iter().map(|s| s.title).collect()
    }

    #[test]
    fn markdown_splits_at_h2_headings() {
        let md = "# Guide\n\nIntro text.\n\n## Install\n\nRun it.\n\n### Detail\n\nmore\n## Use ##\nCall it.\n";
        let sections = markdown_sections(md);
        assert_eq!(titles(md), [PREAMBLE, "Install", "Use"]);
        assert_eq!(
            sections[1].text,
            "## Install\n\nRun it.\n\n### Detail\n\nmore\n"
        );
        assert_eq!(sections[2].text, "## Use ##\nCall it.\n");
        // Everything is in exactly one chunk.
        let joined: String = sections.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(joined, md);
    }

    #[test]
    fn markdown_without_h2_is_the_full_document() {
        assert_eq!(titles("# Title\n\nJust text.\n### Sub\n"), [FULL_DOCUMENT]);
        assert_eq!(titles("plain"), [FULL_DOCUMENT]);
        assert!(markdown_sections("").is_empty());
        assert!(markdown_sections(" \n\n").is_empty());
    }

    #[test]
    fn markdown_repeats_are_numbered_and_empty_sections_skipped() {
        let md = "## A\none\n## B\n\n## A\ntwo\n## A\nthree\n##\nuntitled\n";
        assert_eq!(titles(md), ["A", "A##1", "A##2", ""]);
        // A heading-only preamble is not a chunk.
        assert_eq!(titles("# T\n\n## A\nx\n"), ["A"]);
    }

    #[test]
    fn markdown_headings_inside_code_fences_do_not_split() {
        let md = "## Real\n```sh\n## not a heading\n```\n~~~~\n## nor this\n~~~\n## still not\n~~~~\n## Next\nx\n";
        assert_eq!(titles(md), ["Real", "Next"]);
        assert_eq!(
            titles("##not-a-heading\n    ## indented code\n"),
            [FULL_DOCUMENT]
        );
        assert_eq!(titles("   ## Three spaces\nok\n"), ["Three spaces"]);
        assert_eq!(
            titles("## C# ##\nx\n## Issue #42\ny\n"),
            ["C#", "Issue #42"]
        );
    }

    #[test]
    fn each_section_knows_its_lines() {
        for (path, text) in [
            (
                "a.md",
                "# Guide\n\nIntro.\n\n## A\none\n## Empty\n\n## B\n```\n## not\n```\nlast line",
            ),
            ("b.md", "## Only\nx\n"),
            ("c.md", "no headings\nat all\n"),
            (
                "d.rst",
                "Title\n=====\n\nIntro.\n\nFirst\n-----\nbody\n\nSecond\n------\n\nmore\n",
            ),
        ] {
            let lines: Vec<&str> = text.split_inclusive('\n').collect();
            let sections = doc_sections(path, text);
            assert!(!sections.is_empty());
            for s in sections {
                assert_eq!(
                    lines[s.line - 1..s.end_line].concat(),
                    s.text,
                    "{path}: {} at {}-{}",
                    s.title,
                    s.line,
                    s.end_line
                );
            }
        }
        let b = &markdown_sections("# T\n\n## A\none\n## Empty\n\n## B\ntwo")[1];
        assert_eq!((b.title.as_str(), b.line, b.end_line), ("B", 7, 8));
    }

    #[test]
    fn a_large_section_is_cut_at_the_next_heading_level_inside_it() {
        let filler = |n: usize| "a line of release notes, long enough to count\n".repeat(n);
        let big = LARGE_SECTION / 40;
        // A changelog without H2: the document is cut at its H3s once it is large; a
        // small one stays whole.
        let log = format!(
            "# Releases\n\nHow to install.\n\n### 2.0 / 2026\n\n{}### 1.0 / 2025\n\n{}",
            filler(big),
            filler(3)
        );
        assert_eq!(titles(&log), [PREAMBLE, "2.0 / 2026", "1.0 / 2025"]);
        assert_eq!(titles("# R\n\n### 2.0\nx\n### 1.0\ny\n"), [FULL_DOCUMENT]);
        // A large H2 keeps its text before its first H3 under its own title; a large H3
        // inside it is cut at its H4s; a small H2 beside it stays whole.
        let md = format!(
            "## Big\nintro\n### One\n{}### Two\n{}#### Deep\n{}## Small\nx\n### Inside\ny\n",
            filler(3),
            filler(big),
            filler(big)
        );
        assert_eq!(titles(&md), ["Big", "One", "Two", "Deep", "Small"]);
        // A large heading with nothing of its own before its subsections is no section.
        let bare = format!("## Big\n\n### One\n{}### Two\nx\n", filler(big));
        assert_eq!(titles(&bare), ["One", "Two"]);
        // Every line is in exactly one cut, and each section knows its lines.
        for text in [&log, &md, &bare] {
            let lines: Vec<&str> = text.split_inclusive('\n').collect();
            let sections = markdown_sections(text);
            for s in &sections {
                assert_eq!(
                    lines[s.line - 1..s.end_line].concat(),
                    s.text,
                    "{}",
                    s.title
                );
            }
        }
        let joined: String = markdown_sections(&md)
            .iter()
            .map(|s| s.text.clone())
            .collect();
        assert_eq!(joined, md);
        // reStructuredText by the same rule: a large section is cut at its subsections.
        let rst = format!(
            "Guide\n=====\n\nA\n--\nintro\n\nA1\n~~\n{}\nA2\n~~\nz\n\nB\n--\nb\n",
            filler(big)
        );
        assert_eq!(rst_titles(&rst), ["A", "A1", "A2", "B"]);
    }

    fn rst_titles(rst: &str) -> Vec<String> {
        rst_sections(rst).into_iter().map(|s| s.title).collect()
    }

    #[test]
    fn rst_splits_below_a_document_title() {
        let rst = ".. _how-to:\n\nHow to use fixtures\n===================\n\nIntro.\n\n\"Requesting\" fixtures\n---------------------\n\nAsk by name.\n\nQuick example\n^^^^^^^^^^^^^\n\n.. code-block:: python\n\n    x = 1\n    Not a title\n    -----------\n\nScope\n-----\nper test\n";
        let sections = rst_sections(rst);
        assert_eq!(
            rst_titles(rst),
            [PREAMBLE, "\"Requesting\" fixtures", "Scope"]
        );
        assert!(sections[0].text.starts_with(".. _how-to:"));
        assert!(sections[1].text.starts_with("\"Requesting\" fixtures\n---"));
        assert!(
            sections[1].text.contains("Quick example\n^^^"),
            "deeper stays inside"
        );
        assert_eq!(sections[2].text, "Scope\n-----\nper test\n");
        let joined: String = sections.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(joined, rst);
        // A title with nothing but a label and its heading before the first section is
        // no preamble.
        assert_eq!(rst_titles(".. _x:\n\nTitle\n=====\n\nA\n--\nbody\n"), ["A"]);
    }

    #[test]
    fn rst_without_a_unique_title_splits_at_the_first_style() {
        // Overlined and underlined is its own style; titles may be inset under an
        // overline; a short underline of a short title counts.
        let rst = "=====\n Intro\n=====\nfirst\n\nUsage\n=====\nsecond\n\nAPI\n===\nthird\n\n=====\n More\n=====\nfourth\n";
        assert_eq!(rst_titles(rst), ["Intro", "More"]);
        assert_eq!(
            rst_titles("A\n===\none\n\nB\n===\ntwo\n\nA\n===\nthree\n"),
            ["A", "B", "A##1"]
        );
        // No heading: the full document; a lone title names its one section.
        assert_eq!(
            rst_titles("Just text.\n\n----\n\nA transition above.\n"),
            [FULL_DOCUMENT]
        );
        assert_eq!(rst_titles("Title\n=====\n\nbody\n"), ["Title"]);
        assert!(rst_sections("").is_empty());
        // Not headings: a paragraph's last line, an underline too short, text after a
        // non-blank line, table rules.
        assert_eq!(
            rst_titles("para\ngraph\n=====\n\nLong title\n--\n\n+---+\n| a |\n+---+\n"),
            [FULL_DOCUMENT]
        );
    }

    #[test]
    fn documents_split_by_their_kind() {
        assert!(is_rst("doc/en/index.rst") && is_rst("README.REST"));
        assert!(!is_rst("docs/guide.md") && !is_rst("rst"));
        assert_eq!(doc_sections("a.rst", "X\n==\n\nA\n--\nx\n")[0].title, "A");
        assert_eq!(doc_sections("a.md", "## A\nx\n")[0].title, "A");
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
