//! C and C++ (`.c .h .cc .cpp .cxx .hpp .hh .hxx`): `.c` parsed with the C grammar, the
//! rest with the C++ grammar (a superset for declarations); macro bodies included where
//! they parse as statements.

pub(crate) mod config;
mod link;

use std::borrow::Cow;

use tree_sitter::Node;

use super::{LanguageExtractor, outer};
use crate::code::extract::{Context, Definition, Wrapped, last_segment};
use crate::code::{RefKind, SymbolKind};

pub(super) use link::Linking;

/// C (`.c`, parsed with the C grammar).
pub struct C;
/// C++ and headers (parsed with the C++ grammar).
pub struct Cpp;

impl LanguageExtractor for C {
    fn name(&self) -> &'static str {
        "c"
    }
    fn extensions(&self) -> &'static [&'static str] {
        &["c"]
    }
    fn grammar(&self, _extension: &str) -> tree_sitter::Language {
        tree_sitter_c::LANGUAGE.into()
    }
    fn definition(&self, node: Node, cx: &Context) -> Option<Definition> {
        Cpp.definition(node, cx)
    }
    fn declares(&self, node: Node, cx: &Context) -> bool {
        Cpp.declares(node, cx)
    }
    fn guard(&self, node: Node, cx: &Context) -> Option<String> {
        config::guard_of(node, cx)
    }
    fn prepare<'s>(&self, source: &'s str) -> Cow<'s, str> {
        blank_comments_inside_directives(source)
    }
    fn doc_comment(&self, node: Node, cx: &Context) -> Option<String> {
        Cpp.doc_comment(node, cx)
    }
    fn embedded_expressions(&self, node: Node, cx: &Context) -> Option<Wrapped> {
        Cpp.embedded_expressions(node, cx)
    }
    fn references(&self, node: Node, cx: &mut Context) -> bool {
        Cpp.references(node, cx)
    }
}

/// `source` with each block comment that a preprocessor directive goes on past (a line
/// continuation after it: `#define M(a) \` / `do { /* … */ \`) made spaces, newlines
/// kept: the grammar ends a macro's body at `/*`, and a body that goes on after the
/// comment parsed as other definitions (`z_off64_t tmp = …` in a macro took the macro's
/// place). A comment that ends its directive (`#define W 15 /* bits */`) stays.
fn blank_comments_inside_directives(source: &str) -> Cow<'_, str> {
    let bytes = source.as_bytes();
    let mut blank: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    let mut line_start = true;
    while i < bytes.len() {
        if line_start {
            let first = i + bytes[i..]
                .iter()
                .position(|&b| b != b' ' && b != b'\t')
                .unwrap_or(bytes.len() - i);
            if bytes.get(first) == Some(&b'#') {
                // The next line starts where the directive ends.
                i = directive(bytes, first, &mut blank);
                continue;
            }
        }
        line_start = bytes[i] == b'\n';
        i += 1;
    }
    if blank.is_empty() {
        return Cow::Borrowed(source);
    }
    let mut out = bytes.to_vec();
    for (start, end) in blank {
        for b in &mut out[start..end] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
    }
    // Only ASCII bytes of comments were replaced, by spaces: still UTF-8.
    Cow::Owned(String::from_utf8(out).unwrap_or_else(|_| source.to_string()))
}

/// Read the directive starting at `at` (its `#`) to its end (the first newline not after
/// a `\`), noting in `blank` the block comments it goes on past; where the next line
/// starts.
fn directive(bytes: &[u8], at: usize, blank: &mut Vec<(usize, usize)>) -> usize {
    let mut i = at;
    let mut comments = Vec::new();
    let mut quote = None;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'\n' {
            quote = None;
            let line = &bytes[at..i];
            if !line.strip_suffix(b"\r").unwrap_or(line).ends_with(b"\\") {
                break;
            }
            // Every comment so far is followed by more of the directive.
            blank.append(&mut comments);
        } else if let Some(q) = quote {
            if b == b'\\' && bytes.get(i + 1) != Some(&b'\n') {
                i += 1;
            } else if b == q {
                quote = None;
            }
        } else if b == b'"' || b == b'\'' {
            quote = Some(b);
        } else if bytes[i..].starts_with(b"/*") {
            let end = bytes[i + 2..]
                .windows(2)
                .position(|w| w == b"*/")
                .map_or(bytes.len(), |p| i + 2 + p + 2);
            comments.push((i, end));
            i = end;
            continue;
        }
        i += 1;
    }
    (i + 1).min(bytes.len())
}

/// The name declared by a declarator (`*f(int)` → `f`, `A::b` → `b`).
fn declarator_name<'t>(node: Node<'t>) -> Option<Node<'t>> {
    let mut node = node;
    loop {
        match node.kind() {
            "identifier" | "field_identifier" | "type_identifier" | "destructor_name"
            | "operator_name" => {
                return Some(node);
            }
            "qualified_identifier" => node = node.child_by_field_name("name")?,
            // `(*f)` in `typedef void (*f)(int);`
            "parenthesized_declarator" => node = node.named_child(0)?,
            _ => node = node.child_by_field_name("declarator")?,
        }
    }
}

fn function_declarator(node: Node) -> Option<Node> {
    let mut node = node.child_by_field_name("declarator")?;
    loop {
        if node.kind() == "function_declarator" {
            return Some(node);
        }
        node = node.child_by_field_name("declarator")?;
    }
}

fn type_def(node: Node, cx: &Context, kind: SymbolKind) -> Option<Definition> {
    // Only definitions with a body; `struct x;` and `struct x y;` are uses.
    let body = node.child_by_field_name("body")?;
    let name = node.child_by_field_name("name")?;
    Some(Definition {
        name: last_segment(cx.text(name)).to_string(),
        kind,
        signature: cx.signature(node, Some(body)),
        doc: None,
        name_node: Some(name.id()),
    })
}

impl LanguageExtractor for Cpp {
    fn name(&self) -> &'static str {
        "cpp"
    }
    fn extensions(&self) -> &'static [&'static str] {
        &["h", "cc", "cpp", "cxx", "hpp", "hh", "hxx"]
    }
    fn grammar(&self, _extension: &str) -> tree_sitter::Language {
        tree_sitter_cpp::LANGUAGE.into()
    }
    fn definition(&self, node: Node, cx: &Context) -> Option<Definition> {
        match node.kind() {
            "function_definition" => {
                let decl = function_declarator(node)?;
                let name = declarator_name(decl)?;
                Some(Definition {
                    name: cx.text(name).to_string(),
                    kind: cx.fn_kind(),
                    signature: cx.signature(node, node.child_by_field_name("body")),
                    doc: None,
                    name_node: Some(name.id()),
                })
            }
            "field_declaration" | "declaration"
                if cx.enclosing().is_some_and(|k| k.is_container()) =>
            {
                let decl = node.child_by_field_name("declarator")?;
                let name = declarator_name(decl)?;
                let kind = if function_declarator(node).is_some() {
                    SymbolKind::Method
                } else {
                    SymbolKind::Var
                };
                Some(Definition {
                    name: cx.text(name).to_string(),
                    kind,
                    signature: cx.signature(node, None),
                    doc: None,
                    name_node: Some(name.id()),
                })
            }
            "struct_specifier" | "union_specifier" => type_def(node, cx, SymbolKind::Struct),
            "class_specifier" => type_def(node, cx, SymbolKind::Class),
            "enum_specifier" => type_def(node, cx, SymbolKind::Enum),
            "enumerator" => {
                let name = node.child_by_field_name("name")?;
                Some(Definition {
                    name: cx.text(name).to_string(),
                    kind: SymbolKind::Const,
                    signature: cx.first_line_signature(node),
                    doc: None,
                    name_node: Some(name.id()),
                })
            }
            "namespace_definition" => {
                let name = node.child_by_field_name("name")?;
                Some(Definition {
                    name: cx.text(name).to_string(),
                    kind: SymbolKind::Mod,
                    signature: cx.signature(node, node.child_by_field_name("body")),
                    doc: None,
                    name_node: Some(name.id()),
                })
            }
            "type_definition" => {
                let decl = node.child_by_field_name("declarator")?;
                let name = declarator_name(decl)?;
                Some(Definition {
                    name: cx.text(name).to_string(),
                    kind: SymbolKind::Type,
                    signature: cx.first_line_signature(node),
                    doc: None,
                    name_node: Some(name.id()),
                })
            }
            "alias_declaration" => {
                let name = node.child_by_field_name("name")?;
                Some(Definition {
                    name: cx.text(name).to_string(),
                    kind: SymbolKind::Type,
                    signature: cx.first_line_signature(node),
                    doc: None,
                    name_node: Some(name.id()),
                })
            }
            "preproc_def" | "preproc_function_def" => {
                let name = node.child_by_field_name("name")?;
                let kind = if node.kind() == "preproc_def" {
                    SymbolKind::Const
                } else {
                    SymbolKind::Fn
                };
                Some(Definition {
                    name: cx.text(name).to_string(),
                    kind,
                    signature: cx.first_line_signature(node),
                    doc: None,
                    name_node: Some(name.id()),
                })
            }
            _ => None,
        }
    }
    /// A method declared in its class without a body (`void f();`, a pure virtual
    /// `virtual void f() = 0;`), which is defined elsewhere (`void A::f() { … }`) or by
    /// the classes below it. (A prototype outside a class is no symbol.)
    fn declares(&self, node: Node, _cx: &Context) -> bool {
        matches!(node.kind(), "field_declaration" | "declaration")
    }
    fn guard(&self, node: Node, cx: &Context) -> Option<String> {
        config::guard_of(node, cx)
    }
    fn prepare<'s>(&self, source: &'s str) -> Cow<'s, str> {
        blank_comments_inside_directives(source)
    }
    fn doc_comment(&self, node: Node, cx: &Context) -> Option<String> {
        cx.preceding_comments(
            outer(node, cx, &["template_declaration"]),
            &["comment"],
            &[],
        )
    }
    fn embedded_expressions(&self, node: Node, cx: &Context) -> Option<Wrapped> {
        // A macro's body (`#define CHECK(x) do { f(x); } while (0)`): what it calls is
        // called by the macro. Bodies that are not statements (`#define local static`)
        // do not parse and are left alone.
        if node.kind() != "preproc_arg"
            || !cx
                .parent(node)
                .is_some_and(|p| matches!(p.kind(), "preproc_def" | "preproc_function_def"))
        {
            return None;
        }
        Some(Wrapped {
            start: node.start_byte(),
            end: node.end_byte(),
            before: "void _(void){",
            after: "\n;}",
            parts: Vec::new(),
        })
    }
    fn references(&self, node: Node, cx: &mut Context) -> bool {
        match node.kind() {
            "call_expression" => {
                if let Some(f) = node.child_by_field_name("function") {
                    let name = match f.kind() {
                        "identifier" => Some(cx.text(f)),
                        "field_expression" => f
                            .child_by_field_name("field")
                            .map(|x| last_segment(cx.text(x))),
                        "qualified_identifier" => f.child_by_field_name("name").map(|x| cx.text(x)),
                        "template_function" => f
                            .child_by_field_name("name")
                            .map(|x| last_segment(cx.text(x))),
                        _ => None,
                    };
                    if let Some(name) = name {
                        // A member call's object type is not known (`?`).
                        let qual = match f.kind() {
                            "field_expression" => Some("?".to_string()),
                            "qualified_identifier" => f
                                .child_by_field_name("scope")
                                .map(|scope| cx.qualifier(cx.text(scope))),
                            _ => None,
                        };
                        cx.add_ref_via(RefKind::Call, name, f, qual);
                    }
                }
                true
            }
            "preproc_include" => {
                if let Some(path) = node.child_by_field_name("path") {
                    let module = cx.text(path);
                    cx.add_import(module);
                    cx.add_binding("*", module, None);
                    let module = module.trim_matches(|c| c == '"' || c == '<' || c == '>');
                    let file = module.rsplit(['/', '\\']).next().unwrap_or(module);
                    let stem = file.split('.').next().unwrap_or(file).to_string();
                    cx.add_ref(RefKind::Import, &stem, path);
                }
                false
            }
            "base_class_clause" => {
                for i in 0..node.named_child_count() {
                    if let Some(child) = node.named_child(i as u32)
                        && child.kind() != "access_specifier"
                    {
                        let name = last_segment(cx.text(child)).to_string();
                        cx.add_ref(RefKind::Extends, &name, child);
                    }
                }
                false
            }
            "type_identifier" => {
                let text = cx.text(node);
                cx.add_ref(RefKind::TypeRef, text, node);
                false
            }
            "comment" | "string_literal" | "raw_string_literal" | "system_lib_string" => false,
            _ => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::blank_comments_inside_directives;
    use crate::code::lang::declared;

    #[test]
    fn a_macro_with_a_comment_inside_its_body_is_one_definition() {
        let src = "\
#ifdef NO_DIVIDE
#define MOD63(a) \\
    do { /* this assumes a is not negative */ \\
        z_off64_t tmp = a >> 32; \\
        a &= 0xffffffffL; \\
    } while (0)
#define MOD(a) \\
    do { /* the same */ \\
        a %= 7; \\
    } while (0)
#endif
#define W 15 /* bits, ending its directive */
int after(void) { return 0; }
";
        let names: Vec<(String, Option<String>)> = crate::code::lang::guards("a.c", src);
        let names: Vec<&str> = names.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["MOD63", "MOD", "W", "after"]);
        let prepared = blank_comments_inside_directives(src);
        assert_eq!(prepared.len(), src.len());
        assert_eq!(prepared.lines().count(), src.lines().count());
        assert!(!prepared.contains("this assumes"), "{prepared}");
        assert!(prepared.contains("/* bits, ending its directive */"));
        // Nothing to blank: the text itself, not a copy.
        let plain = "#define A 1 /* one */\nint f(void) { /* not a directive */ return A; }\n";
        assert!(matches!(
            blank_comments_inside_directives(plain),
            std::borrow::Cow::Borrowed(_)
        ));
        // A `/*` inside a string of a directive is no comment.
        let quoted = "#define S \"/*\" \\\n  \"x\"\nint g(void);\n";
        assert_eq!(blank_comments_inside_directives(quoted), quoted);
    }

    #[test]
    fn methods_declared_in_their_class_declare() {
        let src = r#"
class Shape {
  public:
    virtual double area() const = 0;
    void move(int dx);
    Shape() = default;
    int id() const { return 1; }
};

void Shape::move(int dx) {}

int prototype(int);
int prototype(int x) { return x; }
"#;
        assert_eq!(
            declared("a.hpp", src),
            ["area;", "move;", "Shape", "id", "move", "prototype"]
        );
    }
}
