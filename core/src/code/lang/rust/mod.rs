//! Rust (`.rs`), macro_rules bodies and macro invocations included where their tokens
//! parse: as items, or as the expressions a call's arguments are (`assert_eq!(f(x), 1)`).

mod link;

use tree_sitter::Node;

use super::{LanguageExtractor, named};
use crate::code::extract::{Context, DeclaredEntry, Definition, Wrapped, beside, last_segment};
use crate::code::{RefKind, SymbolKind};

pub(super) use link::Linking;

/// Rust.
pub struct Rust;

/// `prefix::path` (either may be empty).
fn joined(prefix: &str, path: &str) -> String {
    match (prefix.is_empty(), path.is_empty()) {
        (true, _) => path.to_string(),
        (_, true) => prefix.to_string(),
        _ => format!("{prefix}::{path}"),
    }
}

/// `a::b::c` as (`a::b`, `c`).
fn split_last(path: &str) -> (&str, &str) {
    match path.rsplit_once("::") {
        Some((module, name)) => (module, name),
        None => ("", path),
    }
}

/// The names a `use` tree imports (as references) and binds, under `prefix`.
fn use_names(node: Node, prefix: &str, cx: &mut Context) {
    match node.kind() {
        "identifier" | "self" | "crate" | "super" | "scoped_identifier" => {
            let path = joined(prefix, cx.text(node));
            let (module, name) = split_last(&path);
            if name == "self" {
                // `use a::b::{self}` binds `b`, the module.
                let (parent, module_name) = split_last(module);
                cx.add_binding(module_name, parent, Some(module_name));
            } else {
                cx.add_binding(name, module, Some(name));
            }
            let shown = node.child_by_field_name("name").unwrap_or(node);
            let text = cx.text(shown);
            cx.add_ref(RefKind::Import, text, shown);
        }
        "use_as_clause" => {
            if let (Some(path), Some(alias)) = (
                node.child_by_field_name("path"),
                node.child_by_field_name("alias"),
            ) {
                let full = joined(prefix, cx.text(path));
                let (module, name) = split_last(&full);
                let alias = cx.text(alias);
                cx.add_binding(alias, module, Some(name));
                let shown = path.child_by_field_name("name").unwrap_or(path);
                let text = cx.text(shown);
                cx.add_ref(RefKind::Import, text, shown);
            }
        }
        "scoped_use_list" => {
            let path = node.child_by_field_name("path").map(|p| cx.text(p));
            let inner = joined(prefix, path.unwrap_or(""));
            if let Some(list) = node.child_by_field_name("list") {
                use_names(list, &inner, cx);
            }
        }
        "use_list" => {
            for i in 0..node.named_child_count() {
                if let Some(child) = node.named_child(i as u32) {
                    use_names(child, prefix, cx);
                }
            }
        }
        "use_wildcard" => {
            let text = cx.text(node);
            let path = text.trim_end_matches('*').trim_end_matches("::");
            cx.add_binding("*", &joined(prefix, path), None);
        }
        _ => {}
    }
}

/// A call's or path's name with what it is reached through: `x.f` → `f` via `x`,
/// `a::b::f` → `f` via `a::b`, `f` bare.
fn add_path_ref(kind: RefKind, node: Node, cx: &mut Context) {
    match node.kind() {
        "identifier" | "type_identifier" => {
            let name = cx.text(node);
            cx.add_ref(kind, name, node);
        }
        "field_expression" => {
            if let (Some(field), Some(value)) = (
                node.child_by_field_name("field"),
                node.child_by_field_name("value"),
            ) {
                let name = cx.text(field);
                // A method of a value: `self`'s type, a variable's declared one, or what
                // a call returns (`f().g()`, `f()?.g()`).
                let value = match value.kind() {
                    "try_expression" => value.named_child(0).unwrap_or(value),
                    _ => value,
                };
                let qual = match value.kind() {
                    "self" => cx.qualifier("self"),
                    "identifier" => cx
                        .local_type(cx.text(value))
                        .map_or_else(|| "?".to_string(), str::to_string),
                    "call_expression" => cx.qualifier(cx.text(value)),
                    _ => "?".to_string(),
                };
                cx.add_ref_via(kind, name, node, Some(qual));
            }
        }
        "scoped_identifier" | "scoped_type_identifier" => {
            if let Some(name) = node.child_by_field_name("name") {
                let text = cx.text(name);
                match node.child_by_field_name("path") {
                    Some(path) => cx.add_member_ref(kind, text, node, path),
                    None => cx.add_ref(kind, text, node),
                }
            }
        }
        "generic_type" | "generic_function" => {
            let inner = node
                .child_by_field_name("type")
                .or_else(|| node.child_by_field_name("function"));
            if let Some(inner) = inner {
                add_path_ref(kind, inner, cx);
            }
        }
        _ => {}
    }
}

/// Whether `node` is the trait or the type an `impl` names (`Trait`, `a::Trait`, the
/// `Trait` of `Trait<S>`): its reference is the `impl`'s own (`implements`, `type_ref`),
/// not a second one (its type arguments are references of their own).
fn names_the_impl(node: Node, cx: &Context) -> bool {
    match cx.parent(node) {
        Some(p) if p.kind() == "impl_item" => true,
        Some(p) if p.kind() == "generic_type" => {
            p.child_by_field_name("type").map(|t| t.id()) == Some(node.id())
                && cx.parent(p).is_some_and(|g| g.kind() == "impl_item")
        }
        _ => false,
    }
}

/// The named children of `node`.
/// Whether a macro invocation stands where items go (a file's or a module's top level,
/// `thread_local! { … }`), not where an expression does.
fn at_item_level(node: Node, cx: &Context) -> bool {
    cx.parent(node)
        .is_some_and(|p| matches!(p.kind(), "source_file" | "declaration_list"))
}

/// The bytes of a token tree between its delimiters, when there are any.
fn within_delimiters(tokens: Node) -> Option<(usize, usize)> {
    let (start, end) = (tokens.start_byte() + 1, tokens.end_byte().checked_sub(1)?);
    (start < end).then_some((start, end))
}

fn children(node: Node) -> impl Iterator<Item = Node> {
    (0..node.named_child_count()).filter_map(move |i| node.named_child(i as u32))
}

/// Names used as values in `nodes`: `f`, `a::f`, `f::<T>` (not fields, not calls).
fn values<'t>(nodes: impl IntoIterator<Item = Node<'t>>, cx: &mut Context) {
    let unwrapped = nodes.into_iter().map(|n| match n.kind() {
        "generic_function" => n.child_by_field_name("function").unwrap_or(n),
        _ => n,
    });
    cx.add_values(unwrapped, |n| {
        (n.kind() == "scoped_identifier")
            .then(|| {
                n.child_by_field_name("name")
                    .zip(n.child_by_field_name("path"))
            })
            .flatten()
    });
}

/// The declared type of `let x: T = …`, the evident one of `let x = T::new(…)` and
/// `let x = T { … }`, or what the call in `let x = f(…)` (`f(…)?`) returns.
fn let_type(node: Node, cx: &mut Context) {
    let Some(pattern) = node
        .child_by_field_name("pattern")
        .filter(|p| p.kind() == "identifier")
    else {
        return;
    };
    let value = node.child_by_field_name("value").map(|v| match v.kind() {
        "try_expression" | "await_expression" => v.named_child(0).unwrap_or(v),
        _ => v,
    });
    let ty = match (node.child_by_field_name("type"), value) {
        (Some(ty), _) => Some(cx.text(ty)),
        (None, Some(value)) => match value.kind() {
            "struct_expression" => value.child_by_field_name("name").map(|n| cx.text(n)),
            "call_expression" => value
                .child_by_field_name("function")
                .filter(|f| f.kind() == "scoped_identifier")
                .filter(|f| {
                    f.child_by_field_name("name")
                        .is_some_and(|n| cx.text(n) == "new")
                })
                .and_then(|f| f.child_by_field_name("path"))
                .map(|p| cx.text(p)),
            _ => None,
        },
        _ => None,
    };
    let name = cx.text(pattern);
    match (ty, value) {
        (Some(ty), _) => cx.bind_type(name, ty),
        (None, Some(call)) if call.kind() == "call_expression" => {
            let call = cx.text(call);
            cx.bind_returned(name, call);
        }
        _ => {}
    }
}

impl LanguageExtractor for Rust {
    fn manifests(&self) -> &'static [&'static str] {
        &["Cargo.toml"]
    }
    /// `[[bin]]` targets (their `path`, else `src/bin/<name>.rs`), and the package's own
    /// binary when it has `src/main.rs`.
    fn entry_points(
        &self,
        manifest: &str,
        text: &str,
        root: &std::path::Path,
    ) -> Vec<DeclaredEntry> {
        let Ok(doc) = toml::from_str::<toml::Table>(text) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        let mut bin = |name: &str, target: String| {
            out.push(DeclaredEntry::file(name, manifest, &target));
        };
        for entry in doc
            .get("bin")
            .and_then(toml::Value::as_array)
            .into_iter()
            .flatten()
        {
            let Some(name) = entry.get("name").and_then(toml::Value::as_str) else {
                continue;
            };
            let target = entry
                .get("path")
                .and_then(toml::Value::as_str)
                .map_or_else(|| format!("src/bin/{name}.rs"), str::to_string);
            bin(name, target);
        }
        let main = "src/main.rs".to_string();
        if let Some(package) = doc
            .get("package")
            .and_then(|p| p.get("name"))
            .and_then(toml::Value::as_str)
            && root.join(beside(manifest, &main)).is_file()
        {
            bin(package, main);
        }
        out
    }
    fn name(&self) -> &'static str {
        "rust"
    }
    fn extensions(&self) -> &'static [&'static str] {
        &["rs"]
    }
    fn grammar(&self, _extension: &str) -> tree_sitter::Language {
        tree_sitter_rust::LANGUAGE.into()
    }
    fn definition(&self, node: Node, cx: &Context) -> Option<Definition> {
        match node.kind() {
            "function_item" | "function_signature_item" => named(node, cx, cx.fn_kind(), "body"),
            "struct_item" | "union_item" => named(node, cx, SymbolKind::Struct, "body"),
            "enum_item" => named(node, cx, SymbolKind::Enum, "body"),
            "trait_item" => named(node, cx, SymbolKind::Trait, "body"),
            "mod_item" => named(node, cx, SymbolKind::Mod, "body"),
            "type_item" => {
                let mut def = named(node, cx, SymbolKind::Type, "")?;
                def.signature = cx.first_line_signature(node);
                Some(def)
            }
            "const_item" | "static_item" => {
                let kind = if node.kind() == "const_item" {
                    SymbolKind::Const
                } else {
                    SymbolKind::Var
                };
                let mut def = named(node, cx, kind, "value")?;
                def.signature = node.child_by_field_name("value").map_or_else(
                    || cx.first_line_signature(node),
                    |v| cx.signature(node, Some(v)),
                );
                Some(def)
            }
            "enum_variant" => {
                let mut def = named(node, cx, SymbolKind::Const, "")?;
                def.signature = cx.first_line_signature(node);
                Some(def)
            }
            "field_declaration" if cx.enclosing() == Some(SymbolKind::Struct) => {
                let mut def = named(node, cx, SymbolKind::Var, "")?;
                def.signature = cx.first_line_signature(node);
                Some(def)
            }
            "macro_definition" => {
                let mut def = named(node, cx, SymbolKind::Fn, "")?;
                def.signature = Some(format!("macro_rules! {}", def.name));
                Some(def)
            }
            "impl_item" => {
                let ty = node.child_by_field_name("type")?;
                let name = last_segment(cx.text(ty)).to_string();
                Some(Definition {
                    name,
                    kind: SymbolKind::Impl,
                    signature: cx.signature(node, node.child_by_field_name("body")),
                    doc: None,
                    name_node: None,
                })
            }
            _ => None,
        }
    }
    /// A function without a body: a trait's method that has no default (`fn x(&self);`),
    /// or a foreign function in an `extern` block.
    fn declares(&self, node: Node, _cx: &Context) -> bool {
        node.kind() == "function_signature_item"
    }
    fn doc_comment(&self, node: Node, cx: &Context) -> Option<String> {
        cx.preceding_comments(
            node,
            &["line_comment", "block_comment"],
            &["attribute_item"],
        )
    }
    fn embedded(&self, node: Node, cx: &Context) -> Option<(usize, usize)> {
        // `macro_rules!` bodies (`=> { … }`) and item-position macro invocations
        // (`thread_local! { … }`, `cfg_if! { … }`).
        let tokens = match node.kind() {
            "token_tree" if cx.parent(node).is_some_and(|p| p.kind() == "macro_rule") => {
                let rule = cx.parent(node)?;
                rule.child_by_field_name("right")
                    .filter(|r| r.id() == node.id())?
            }
            "macro_invocation" if at_item_level(node, cx) => {
                children(node).find(|c| c.kind() == "token_tree")?
            }
            _ => return None,
        };
        within_delimiters(tokens)
    }
    fn embedded_expressions(&self, node: Node, cx: &Context) -> Option<Wrapped> {
        // A macro called where an expression or statement goes: its tokens as a tuple,
        // an array or a block, as they are delimited (`f!(…)`, `f![…]`, `f!{…}`); failing
        // that, each argument between the commas.
        if node.kind() != "macro_invocation" || at_item_level(node, cx) {
            return None;
        }
        let tokens = children(node).find(|c| c.kind() == "token_tree")?;
        let (start, end) = within_delimiters(tokens)?;
        let (before, after) = match cx.src.get(tokens.start_byte()) {
            Some(b'(') => ("fn _(){(", "\n);}"),
            Some(b'[') => ("fn _(){[", "\n];}"),
            _ => ("fn _(){{", "\n}}"),
        };
        let mut parts = Vec::new();
        let mut from = start;
        let mut cursor = tokens.walk();
        if cursor.goto_first_child() {
            loop {
                let token = cursor.node();
                if token.kind() == "," {
                    parts.push((from, token.start_byte()));
                    from = token.end_byte();
                }
                if !cursor.goto_next_sibling() {
                    break;
                }
            }
        }
        // One argument parses as the whole or not at all: no parts then.
        if !parts.is_empty() {
            parts.push((from, end));
            parts.retain(|&(a, b)| {
                cx.src
                    .get(a..b)
                    .is_some_and(|t| t.iter().any(|c| !c.is_ascii_whitespace()))
            });
        }
        Some(Wrapped {
            start,
            end,
            before,
            after,
            parts,
        })
    }
    fn references(&self, node: Node, cx: &mut Context) -> bool {
        match node.kind() {
            "call_expression" => {
                if let Some(f) = node.child_by_field_name("function") {
                    add_path_ref(RefKind::Call, f, cx);
                }
                true
            }
            "macro_invocation" => {
                if let Some(m) = node.child_by_field_name("macro") {
                    let name = last_segment(cx.text(m));
                    cx.add_ref_via(RefKind::Call, name, m, Some("!".into()));
                }
                true
            }
            "use_declaration" => {
                if let Some(arg) = node.child_by_field_name("argument") {
                    let module = cx.text(arg);
                    let module = module
                        .split('{')
                        .next()
                        .unwrap_or(module)
                        .trim_end_matches("::");
                    cx.add_import(module);
                    use_names(arg, "", cx);
                }
                false
            }
            "impl_item" => {
                if let Some(t) = node.child_by_field_name("trait") {
                    add_path_ref(RefKind::Implements, t, cx);
                }
                if let Some(t) = node.child_by_field_name("type") {
                    add_path_ref(RefKind::TypeRef, t, cx);
                }
                true
            }
            "trait_bounds" if cx.parent(node).is_some_and(|p| p.kind() == "trait_item") => {
                for t in cx.descendants(node, &["type_identifier"]) {
                    let text = cx.text(t);
                    cx.add_ref(RefKind::Extends, text, t);
                }
                false
            }
            "type_identifier" => {
                if names_the_impl(node, cx) {
                    return false;
                }
                let text = cx.text(node);
                cx.add_ref(RefKind::TypeRef, text, node);
                false
            }
            "scoped_type_identifier" => {
                if !names_the_impl(node, cx) {
                    add_path_ref(RefKind::TypeRef, node, cx);
                }
                false
            }
            "arguments" | "array_expression" | "tuple_expression" => {
                values(children(node), cx);
                true
            }
            "parameter" => {
                if let (Some(pattern), Some(ty)) = (
                    node.child_by_field_name("pattern"),
                    node.child_by_field_name("type"),
                ) && pattern.kind() == "identifier"
                {
                    let (name, ty) = (cx.text(pattern), cx.text(ty));
                    cx.bind_type(name, ty);
                }
                true
            }
            "field_initializer"
            | "let_declaration"
            | "assignment_expression"
            | "return_expression" => {
                let value = node
                    .child_by_field_name("value")
                    .or_else(|| node.child_by_field_name("right"))
                    .or_else(|| {
                        (node.kind() == "return_expression")
                            .then(|| node.named_child(0))
                            .flatten()
                    });
                if node.kind() == "let_declaration" {
                    let_type(node, cx);
                }
                values(value, cx);
                true
            }
            "line_comment" | "block_comment" | "string_literal" | "raw_string_literal" => false,
            _ => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::code::lang::declared;

    #[test]
    fn trait_methods_without_a_body_and_foreign_functions_declare() {
        let src = r#"
pub trait Operation {
    fn run(&self) -> u8;
    fn name(&self) -> &str {
        "op"
    }
}

impl Operation for A {
    fn run(&self) -> u8 {
        1
    }
}

unsafe extern "C" {
    fn strlen(s: *const u8) -> usize;
}

pub fn free() {}
"#;
        assert_eq!(
            declared("a.rs", src),
            ["run;", "name", "run", "strlen;", "free"]
        );
    }
}
