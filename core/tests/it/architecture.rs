//! The layer rule of docs/ARCHITECTURE.md, checked on the source: imports in `core/src`
//! run one way, from a layer to the layers below it, and no modules import each other in
//! a loop.
//!
//! Every `crate::…`, `super::…` and `self::…` path in a file (outside comments and string
//! literals, `use` lines and inline paths alike, `{…}` groups expanded) is resolved to the
//! source file of the module it names. Then:
//!
//! - between top-level modules, an import from a layer to a higher one fails unless it is
//!   one of the few in [`ALLOWED_UPWARD`] (each justified in ARCHITECTURE.md);
//! - among the top-level modules, and among the files of each directory (a child
//!   directory counted as one), the imports form no loop. A module's use of its own
//!   submodules and the submodules' use of their parent (`super::`) are its inside and
//!   are not counted.
//!
//! And docs/CODE.md's "Adding a language": each language lives in its home
//! (`code/lang/<language>/`); no other code of `code/` names one ([`LANGUAGES`]).

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use std::path::{Path, PathBuf};

/// The layers, lowest first. A module may import its own layer (without a loop) and the
/// layers below it.
const LAYERS: &[(&str, &[&str])] = &[
    (
        "basics",
        &["error", "text", "time", "env", "hash", "progress", "watch"],
    ),
    (
        "machinery",
        &[
            "walk",
            "git",
            "config",
            "store",
            "embed",
            "rank",
            "transcripts",
        ],
    ),
    ("engine", &["engine"]),
    ("ops", &["ops"]),
    ("hybrid", &["hybrid"]),
    (
        "components",
        &[
            "files",
            "grep",
            "code",
            "docs",
            "sessions",
            "claude",
            "embedding",
        ],
    ),
    ("registry", &["registry"]),
    ("agent", &["agent"]),
    ("mcp", &["mcp"]),
];

/// Imports that run upward, each justified in docs/ARCHITECTURE.md ("Upward imports").
const ALLOWED_UPWARD: &[(&str, &str)] = &[];

type Module = Vec<String>;

fn source_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file below `src`, by module path (`files/mod.rs` → `["files"]`).
fn modules() -> BTreeMap<Module, String> {
    fn walk(dir: &Path, root: &Path, out: &mut BTreeMap<Module, String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, root, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path.strip_prefix(root).unwrap().with_extension("");
                let mut parts: Module = rel
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
                    parts.pop();
                }
                out.insert(parts, std::fs::read_to_string(&path).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(&source_root(), &source_root(), &mut out);
    out
}

/// What a stretch of Rust source is, as [`pieces`] cuts it.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Piece {
    Code,
    /// A line comment (up to its newline) or a block comment, with the ones nested in it.
    Comment,
    /// A string literal, plain or raw (`r#"…"#`), and the range of its text between the
    /// quotes, escapes as written. A `b` or `c` prefix stays in the code before it.
    Str(Range<usize>),
    /// A character literal (`'x'`, `'\''`, the quoted part of `b'x'`); never a lifetime
    /// or a label.
    Char,
}

/// `source` cut in one pass into its comments, string and character literals and the
/// code between them: in order, together covering it whole.
fn pieces(source: &str) -> Vec<(Piece, Range<usize>)> {
    let b = source.as_bytes();
    let mut out = Vec::new();
    let (mut code, mut i) = (0, 0);
    while i < b.len() {
        let Some((piece, end)) = piece_at(b, i) else {
            i += 1;
            continue;
        };
        if code < i {
            out.push((Piece::Code, code..i));
        }
        let end = end.min(b.len());
        out.push((piece, i..end));
        (code, i) = (end, end);
    }
    if code < b.len() {
        out.push((Piece::Code, code..b.len()));
    }
    out
}

/// The comment or literal that starts at byte `i`, if one does, and where it ends (past
/// the end of `b` for an unterminated one).
fn piece_at(b: &[u8], i: usize) -> Option<(Piece, usize)> {
    let rest = &b[i..];
    if rest.starts_with(b"//") {
        let len = rest.iter().position(|&c| c == b'\n').unwrap_or(rest.len());
        Some((Piece::Comment, i + len))
    } else if rest.starts_with(b"/*") {
        let (mut depth, mut j) = (0, i);
        while j < b.len() {
            if b[j..].starts_with(b"/*") {
                depth += 1;
                j += 2;
            } else if b[j..].starts_with(b"*/") {
                depth -= 1;
                j += 2;
                if depth == 0 {
                    break;
                }
            } else {
                j += 1;
            }
        }
        Some((Piece::Comment, j))
    } else if rest[0] == b'r'
        && (!ident_before(b, i) || (matches!(b[i - 1], b'b' | b'c') && !ident_before(b, i - 1)))
    {
        let hashes = rest[1..].iter().take_while(|&&c| c == b'#').count();
        if rest.get(1 + hashes) != Some(&b'"') {
            return None; // `r`, `r#ident`
        }
        let close: Vec<u8> = std::iter::once(b'"')
            .chain(std::iter::repeat_n(b'#', hashes))
            .collect();
        let text = i + 2 + hashes;
        let end = b[text..]
            .windows(close.len())
            .position(|w| w == close)
            .map_or(b.len(), |at| text + at);
        Some((Piece::Str(text..end), end + close.len()))
    } else if rest[0] == b'"' {
        let end = closing(b, i + 1, b'"');
        Some((Piece::Str(i + 1..end), end + 1))
    } else if rest[0] == b'\'' && is_char_literal(b, i) {
        Some((Piece::Char, closing(b, i + 1, b'\'') + 1))
    } else {
        None
    }
}

/// Where a literal whose text starts at `from` ends: at its first `quote` not escaped by
/// a backslash, or at the end of `b`.
fn closing(b: &[u8], mut from: usize, quote: u8) -> usize {
    while from < b.len() && b[from] != quote {
        from += if b[from] == b'\\' { 2 } else { 1 };
    }
    from.min(b.len())
}

/// `source` with comments, string and character literals blanked out.
fn code_only(source: &str) -> String {
    pieces(source)
        .into_iter()
        .map(|(piece, at)| match piece {
            Piece::Code => &source[at],
            Piece::Comment => "",
            Piece::Str(_) => "\"\"",
            Piece::Char => "' '",
        })
        .collect()
}

fn utf8_len(first: u8) -> usize {
    match first {
        0xf0.. => 4,
        0xe0.. => 3,
        0xc0.. => 2,
        _ => 1,
    }
}

fn ident_before(b: &[u8], i: usize) -> bool {
    i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_')
}

/// A `'` that opens a character literal, not a lifetime or a label.
fn is_char_literal(b: &[u8], i: usize) -> bool {
    match b.get(i + 1) {
        Some(b'\\') => true,
        Some(_) => {
            let len = utf8_len(b[i + 1]);
            b.get(i + 1 + len) == Some(&b'\'')
        }
        None => false,
    }
}

/// The paths starting at `crate`, `super` or `self` in `code`, as segment lists with
/// `{…}` groups expanded.
fn paths(code: &str) -> Vec<Vec<String>> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let starts = ["crate::", "super::", "self::"]
            .iter()
            .any(|s| code[i..].starts_with(s));
        if starts && !ident_before(b, i) {
            let (mut expanded, end) = parse_path(code, i);
            out.append(&mut expanded);
            i = end.max(i + 1);
        } else {
            i += utf8_len(b[i]);
        }
    }
    out
}

/// The path at `at`: the segments it names (several for a group) and where it ends.
fn parse_path(code: &str, mut at: usize) -> (Vec<Vec<String>>, usize) {
    let b = code.as_bytes();
    let mut segments = Vec::new();
    loop {
        while at < b.len() && b[at].is_ascii_whitespace() {
            at += 1;
        }
        if at < b.len() && b[at] == b'{' {
            let mut all = Vec::new();
            at += 1;
            loop {
                while at < b.len() && (b[at].is_ascii_whitespace() || b[at] == b',') {
                    at += 1;
                }
                if at >= b.len() || b[at] == b'}' {
                    at += 1;
                    break;
                }
                let (inner, end) = parse_path(code, at);
                for tail in inner {
                    let mut full = segments.clone();
                    full.extend(tail);
                    all.push(full);
                }
                // Skip an `as name` and anything else up to the next item.
                at = end;
                while at < b.len() && b[at] != b',' && b[at] != b'}' {
                    at += 1;
                }
            }
            return (all, at);
        }
        let start = at;
        while at < b.len() && (b[at].is_ascii_alphanumeric() || b[at] == b'_') {
            at += 1;
        }
        if start == at {
            break;
        }
        segments.push(code[start..at].to_string());
        if code[at..].starts_with("::") {
            at += 2;
        } else {
            break;
        }
    }
    (vec![segments], at)
}

/// The crate root's re-exports (`pub use engine::{Engine, …}` in lib.rs): `crate::Engine`
/// names the `engine` module.
fn root_reexports(lib: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for line in lib.lines() {
        let Some(rest) = line.trim().strip_prefix("pub use ") else {
            continue;
        };
        let (module, names) = rest.split_once("::").unwrap();
        for name in names.trim_matches(|c| "{};".contains(c)).split(',') {
            out.insert(name.trim().to_string(), module.to_string());
        }
    }
    out
}

/// The module (file) a path names, resolved from the file `from`.
fn resolve(
    path: &[String],
    from: &Module,
    from_is_dir: bool,
    modules: &BTreeMap<Module, String>,
    reexports: &BTreeMap<String, String>,
) -> Option<Module> {
    let mut base: Module = Vec::new();
    let mut rest = path;
    match path.first().map(String::as_str) {
        Some("crate") => rest = &path[1..],
        Some("self" | "super") => {
            // `self` is the file's own module; a `foo.rs` file's module is `foo`.
            base = from.clone();
            let _ = from_is_dir;
            while let Some(first) = rest.first() {
                match first.as_str() {
                    "self" => {}
                    "super" => {
                        base.pop();
                    }
                    _ => break,
                }
                rest = &rest[1..];
            }
        }
        _ => return None,
    }
    if base.is_empty()
        && let Some(first) = rest.first()
        && let Some(module) = reexports.get(first)
    {
        return Some(vec![module.clone()]);
    }
    let mut found = None;
    let mut candidate = base;
    if !candidate.is_empty() && modules.contains_key(&candidate) {
        found = Some(candidate.clone());
    }
    for segment in rest {
        candidate.push(segment.clone());
        if modules.contains_key(&candidate) {
            found = Some(candidate.clone());
        } else {
            break;
        }
    }
    found
}

/// Every import between two files: (from, to).
fn imports() -> BTreeSet<(Module, Module)> {
    let modules = modules();
    let reexports = root_reexports(&modules[&Vec::new()]);
    let mut out = BTreeSet::new();
    for (module, source) in &modules {
        if module.is_empty() {
            continue; // lib.rs declares and re-exports; it is the crate, not a layer
        }
        for path in paths(&code_only(source)) {
            if let Some(target) = resolve(&path, module, false, &modules, &reexports)
                && &target != module
                && !target.is_empty()
            {
                out.insert((module.clone(), target));
            }
        }
    }
    out
}

fn layer_of(module: &str) -> usize {
    LAYERS
        .iter()
        .position(|(_, members)| members.contains(&module))
        .unwrap_or_else(|| {
            panic!("top-level module `{module}` is in no layer: add it to LAYERS and to ARCHITECTURE.md")
        })
}

/// The strongly connected components of more than one node.
fn loops(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    // Kosaraju: finish order on the graph, then components on its reverse.
    let nodes: BTreeSet<&String> = edges
        .iter()
        .flat_map(|(a, bs)| std::iter::once(a).chain(bs))
        .collect();
    let mut seen = BTreeSet::new();
    let mut order = Vec::new();
    fn visit<'a>(
        n: &'a String,
        edges: &'a BTreeMap<String, BTreeSet<String>>,
        seen: &mut BTreeSet<&'a String>,
        order: &mut Vec<&'a String>,
    ) {
        if !seen.insert(n) {
            return;
        }
        for m in edges.get(n).into_iter().flatten() {
            visit(m, edges, seen, order);
        }
        order.push(n);
    }
    for n in &nodes {
        visit(n, edges, &mut seen, &mut order);
    }
    let mut reverse: BTreeMap<&String, Vec<&String>> = BTreeMap::new();
    for (a, bs) in edges {
        for b in bs {
            reverse.entry(b).or_default().push(a);
        }
    }
    let mut assigned = BTreeSet::new();
    let mut out = Vec::new();
    for n in order.into_iter().rev() {
        if assigned.contains(n) {
            continue;
        }
        let mut component = Vec::new();
        let mut stack = vec![n];
        assigned.insert(n);
        while let Some(x) = stack.pop() {
            component.push(x.clone());
            for &y in reverse.get(x).into_iter().flatten() {
                if assigned.insert(y) {
                    stack.push(y);
                }
            }
        }
        if component.len() > 1 {
            component.sort();
            out.push(component);
        }
    }
    out
}

#[test]
fn imports_run_downward() {
    let mut upward = Vec::new();
    for (from, to) in imports() {
        let (a, b) = (&from[0], &to[0]);
        if a != b && layer_of(b) > layer_of(a) && !ALLOWED_UPWARD.contains(&(a, b)) {
            upward.push(format!(
                "{} ({}) imports {} ({})",
                from.join("::"),
                LAYERS[layer_of(a)].0,
                to.join("::"),
                LAYERS[layer_of(b)].0
            ));
        }
    }
    assert!(
        upward.is_empty(),
        "imports that run up the layers of docs/ARCHITECTURE.md:\n  {}",
        upward.join("\n  ")
    );
    assert!(
        ALLOWED_UPWARD.len() <= 5,
        "at most five justified upward imports"
    );
}

#[test]
fn no_import_loops() {
    let imports = imports();
    // Per directory: its files (a child directory as one node) and the imports among them.
    let mut graphs: BTreeMap<Module, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for (from, to) in &imports {
        let common = from.iter().zip(to).take_while(|(a, b)| a == b).count();
        if common == from.len() || common == to.len() {
            continue; // a module and its own submodules
        }
        graphs
            .entry(from[..common].to_vec())
            .or_default()
            .entry(from[common].clone())
            .or_default()
            .insert(to[common].clone());
    }
    let mut found = Vec::new();
    for (dir, edges) in &graphs {
        for component in loops(edges) {
            let place = if dir.is_empty() {
                "crate".to_string()
            } else {
                dir.join("::")
            };
            found.push(format!("in {place}: {}", component.join(", ")));
        }
    }
    assert!(
        found.is_empty(),
        "modules that import each other in a loop:\n  {}",
        found.join("\n  ")
    );
}

/// The checker itself: the paths it reads, and a loop and an upward import it must see.
#[test]
fn the_checker_sees_what_it_checks() {
    let code = code_only(
        "use crate::{engine::Engine, ops::{self, Operation as Op}};\n\
         // use crate::mcp::Server;\n\
         let s = \"crate::registry::find\"; let c = '\"'; let l: &'a str = x;\n\
         fn f() { super::super::store::open(); crate::time::unix_now() }",
    );
    let found = paths(&code);
    assert_eq!(
        found,
        [
            vec!["crate", "engine", "Engine"],
            vec!["crate", "ops", "self"],
            vec!["crate", "ops", "Operation"],
            vec!["super", "super", "store", "open"],
            vec!["crate", "time", "unix_now"],
        ]
    );
    let edges: BTreeMap<String, BTreeSet<String>> = [
        ("a", &["b"][..]),
        ("b", &["c"][..]),
        ("c", &["a"][..]),
        ("d", &["a"][..]),
    ]
    .into_iter()
    .map(|(a, bs)| (a.to_string(), bs.iter().map(|b| b.to_string()).collect()))
    .collect();
    assert_eq!(loops(&edges), [vec!["a", "b", "c"]]);
    // The real tree: the engine's own imports are found, and are all below it.
    let engine: Vec<String> = imports()
        .into_iter()
        .filter(|(from, _)| from == &["engine"])
        .map(|(_, to)| to.join("::"))
        .collect();
    assert!(engine.contains(&"store".to_string()), "{engine:?}");
    assert!(engine.contains(&"config".to_string()), "{engine:?}");
}

/// The languages of the `code` component, by the names they are stored under and a file
/// extension each (besides those [`cc_search::code::extractors`] lists).
const LANGUAGES: &[&str] = &[
    "python",
    "rust",
    "typescript",
    "javascript",
    "go",
    "java",
    "c",
    "cpp",
    "ruby",
    "markdown",
];

/// The string literals of `source` outside comments, with their line (from 1): the text
/// between the quotes, escapes as written. Raw strings included; character literals and
/// lifetimes skipped.
fn string_literals(source: &str) -> Vec<(usize, String)> {
    let (mut line, mut counted) = (1, 0);
    let mut out = Vec::new();
    for (piece, at) in pieces(source) {
        if let Piece::Str(text) = piece {
            line += source[counted..at.start].matches('\n').count();
            counted = at.start;
            out.push((line, source[text].to_string()));
        }
    }
    out
}

/// What in the string literal `text` names a language: its name (`"python"`, or
/// `'python'` in SQL), one of its extensions (`"py"`, `".py"`), or a file name with one
/// (`"lib.rs"`, `"{path}.py"`).
fn naming(text: &str, names: &[String], extensions: &[String]) -> Option<String> {
    let text = text.trim();
    if let Some(name) = names
        .iter()
        .find(|n| text == n.as_str() || text.contains(&format!("'{n}'")))
    {
        return Some(format!("the language {name:?}"));
    }
    let dotted = text.strip_prefix('.').unwrap_or(text);
    if let Some(ext) = extensions.iter().find(|e| dotted == e.as_str()) {
        return Some(format!("the extension {ext:?}"));
    }
    for word in text.split(|c: char| c.is_whitespace() || "'\"(),[]=<>".contains(c)) {
        let path_like = word
            .chars()
            .all(|c| c.is_alphanumeric() || "_-./{}".contains(c));
        if let Some((stem, ext)) = word.rsplit_once('.')
            && path_like
            && !stem.is_empty()
            && extensions.iter().any(|e| e == ext)
        {
            return Some(format!("the file name {word:?}"));
        }
    }
    None
}

/// The language names and extensions in the literals of `source` (its test module left
/// out: tests name languages in their fixtures), as `line: what`.
fn languages_named(source: &str, names: &[String], extensions: &[String]) -> Vec<String> {
    let code = source
        .find("\n#[cfg(test)]\nmod tests {")
        .map_or(source, |at| &source[..at]);
    string_literals(code)
        .into_iter()
        .filter_map(|(line, text)| naming(&text, names, extensions).map(|w| format!("{line}: {w}")))
        .collect()
}

fn language_names_and_extensions() -> (Vec<String>, Vec<String>) {
    let mut names: Vec<String> = LANGUAGES.iter().map(|n| n.to_string()).collect();
    let mut extensions = Vec::new();
    for l in cc_search::code::extractors() {
        names.push(l.name().to_string());
        extensions.extend(l.extensions().iter().map(|e| e.to_string()));
    }
    names.sort();
    names.dedup();
    extensions.sort();
    extensions.dedup();
    (names, extensions)
}

/// Everything a language needs lives in its home, `code/lang/<language>/` (docs/CODE.md,
/// "Adding a language"): no other source of `code/` names a language or its files in a
/// string (a name compared, an SQL `'markdown'`, a list of extensions). Test modules and
/// `tests.rs` files are left out.
#[test]
fn languages_live_in_their_homes() {
    let (names, extensions) = language_names_and_extensions();
    let code: Vec<(Module, String)> = modules()
        .into_iter()
        .filter(|(module, _)| module.first().is_some_and(|m| m == "code"))
        .collect();
    assert!(
        code.len() > 10,
        "{:?}",
        code.iter().map(|(m, _)| m).collect::<Vec<_>>()
    );
    let mut found = Vec::new();
    for (module, source) in code {
        if module.get(1).is_some_and(|m| m == "lang") || module.last().is_some_and(|m| m == "tests")
        {
            continue;
        }
        for at in languages_named(&source, &names, &extensions) {
            found.push(format!("crate::{}, line {at}", module.join("::")));
        }
    }
    assert!(
        found.is_empty(),
        "languages named outside their homes (move each into code/lang/<language>/, \
         behind the LanguageExtractor or LanguageLinker trait):\n  {}",
        found.join("\n  ")
    );
}

/// The language check sees names, SQL names, extensions and file names in strings, and
/// nothing in comments, character literals or test modules.
#[test]
fn the_language_check_sees_what_it_checks() {
    let (names, extensions) = language_names_and_extensions();
    let source = "fn f(language: &str) -> bool {\n\
                  // a \"python\" comment\n\
                  let c = '\"'; let l: &'a str = x;\n\
                  language == \"python\"\n\
                  || sql(\"SELECT 1 FROM files WHERE language <> 'markdown'\")\n\
                  || [\"py\", \"pyi\"].contains(&x) || x.ends_with(\".rs\")\n\
                  || p == format!(\"{dir}/__init__.py\") || q == r#\"lib.rs\"#\n\
                  || \"ordinary\" == \"s.id = f.id\"\n\
                  }\n\
                  #[cfg(test)]\nmod tests {\n\
                  const X: &str = \"rust\";\n}\n";
    assert_eq!(
        languages_named(source, &names, &extensions),
        [
            "4: the language \"python\"",
            "5: the language \"markdown\"",
            "6: the extension \"py\"",
            "6: the extension \"pyi\"",
            "6: the extension \"rs\"",
            "7: the file name \"{dir}/__init__.py\"",
            "7: the file name \"lib.rs\"",
        ]
    );
}

/// The scanner: a raw string with quotes and a `//` in it, a nested block comment,
/// lifetimes beside character literals, escaped quotes, byte strings.
#[test]
fn the_scanner_tells_code_from_comments_and_literals() {
    let source = r##"let s = r#"say "hi" // no comment"#; /* a /* nested */ still */ x
fn f<'a>(c: &'a char) -> bool { *c == '\'' || *c == 'a' } // end
let b = (b"by\"te", br"C:\", b'"');"##;
    let comments: Vec<&str> = pieces(source)
        .into_iter()
        .filter(|(piece, _)| *piece == Piece::Comment)
        .map(|(_, at)| &source[at])
        .collect();
    assert_eq!(comments, ["/* a /* nested */ still */", "// end"]);
    assert_eq!(
        code_only(source),
        "let s = \"\";  x\n\
         fn f<'a>(c: &'a char) -> bool { *c == ' ' || *c == ' ' } \n\
         let b = (b\"\", b\"\", b' ');"
    );
    assert_eq!(
        string_literals(source),
        [
            (1, r#"say "hi" // no comment"#.to_string()),
            (3, r#"by\"te"#.to_string()),
            (3, r"C:\".to_string()),
        ]
    );
    let all = pieces(source);
    assert!(
        all.windows(2).all(|w| w[0].1.end == w[1].1.start),
        "{all:?}"
    );
    assert_eq!(
        (all[0].1.start, all[all.len() - 1].1.end),
        (0, source.len())
    );
}
