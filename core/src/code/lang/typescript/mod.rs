//! TypeScript, TSX and JavaScript (`.ts .tsx .mts .cts .js .jsx .mjs .cjs`).

mod link;

use tree_sitter::Node;

use super::{LanguageExtractor, named, outer};
use crate::code::extract::{Context, DeclaredEntry, Definition, last_segment};
use crate::code::{RefKind, SymbolKind};

pub(super) use link::Linking;

/// TypeScript and TSX.
pub struct TypeScript;
/// JavaScript (with JSX).
pub struct JavaScript;

const WRAPPERS: &[&str] = &["export_statement", "ambient_declaration", "decorator"];

impl LanguageExtractor for TypeScript {
    fn name(&self) -> &'static str {
        "typescript"
    }
    fn extensions(&self) -> &'static [&'static str] {
        &["ts", "tsx", "mts", "cts"]
    }
    fn grammar(&self, extension: &str) -> tree_sitter::Language {
        if extension == "tsx" {
            tree_sitter_typescript::LANGUAGE_TSX.into()
        } else {
            tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into()
        }
    }
    fn definition(&self, node: Node, cx: &Context) -> Option<Definition> {
        definition(node, cx)
    }
    fn references(&self, node: Node, cx: &mut Context) -> bool {
        references(node, cx)
    }
    fn declares(&self, node: Node, _cx: &Context) -> bool {
        declares(node)
    }
    fn doc_comment(&self, node: Node, cx: &Context) -> Option<String> {
        doc_comment(node, cx)
    }
}

/// A signature without a body: an interface's or object type's method, an `abstract`
/// method, an overload signature, a `declare function` (and everything a `.d.ts` file
/// declares with them).
fn declares(node: Node) -> bool {
    matches!(
        node.kind(),
        "function_signature" | "method_signature" | "abstract_method_signature"
    )
}

impl LanguageExtractor for JavaScript {
    fn manifests(&self) -> &'static [&'static str] {
        &["package.json"]
    }
    /// `bin` (one command named after the package, or a map of them) and `main`.
    fn entry_points(
        &self,
        manifest: &str,
        text: &str,
        _root: &std::path::Path,
    ) -> Vec<DeclaredEntry> {
        let Ok(doc) = serde_json::from_str::<serde_json::Value>(text) else {
            return Vec::new();
        };
        let package = doc.get("name").and_then(|n| n.as_str()).unwrap_or("");
        let short = package.rsplit('/').next().unwrap_or(package);
        let mut out = Vec::new();
        let mut file = |name: &str, target: &str| {
            out.push(DeclaredEntry::file(name, manifest, target));
        };
        match doc.get("bin") {
            Some(serde_json::Value::String(target)) => file(short, target),
            Some(serde_json::Value::Object(bins)) => {
                for (name, target) in bins {
                    if let Some(target) = target.as_str() {
                        file(name, target);
                    }
                }
            }
            _ => {}
        }
        if let Some(main) = doc.get("main").and_then(|m| m.as_str()) {
            file("main", main);
        }
        out
    }
    fn name(&self) -> &'static str {
        "javascript"
    }
    fn extensions(&self) -> &'static [&'static str] {
        &["js", "jsx", "mjs", "cjs"]
    }
    fn grammar(&self, _extension: &str) -> tree_sitter::Language {
        tree_sitter_javascript::LANGUAGE.into()
    }
    fn definition(&self, node: Node, cx: &Context) -> Option<Definition> {
        definition(node, cx)
    }
    fn references(&self, node: Node, cx: &mut Context) -> bool {
        references(node, cx)
    }
    fn doc_comment(&self, node: Node, cx: &Context) -> Option<String> {
        doc_comment(node, cx)
    }
}

fn doc_comment(node: Node, cx: &Context) -> Option<String> {
    let anchor = if node.kind() == "variable_declarator" {
        cx.parent(node).unwrap_or(node)
    } else {
        node
    };
    cx.preceding_comments(outer(anchor, cx, WRAPPERS), &["comment"], &["decorator"])
}

fn is_function_value(node: Option<Node>) -> bool {
    node.is_some_and(|v| {
        matches!(
            v.kind(),
            "arrow_function" | "function_expression" | "function" | "generator_function"
        )
    })
}

fn definition(node: Node, cx: &Context) -> Option<Definition> {
    match node.kind() {
        "function_declaration" | "generator_function_declaration" | "function_signature" => {
            named(node, cx, cx.fn_kind(), "body")
        }
        "class_declaration" | "abstract_class_declaration" => {
            let mut def = named(node, cx, SymbolKind::Class, "body")?;
            def.signature = undecorated_signature(node, cx, node.child_by_field_name("body"));
            Some(def)
        }
        "method_definition" | "method_signature" | "abstract_method_signature" => {
            let mut def = named(node, cx, SymbolKind::Method, "body")?;
            def.signature = undecorated_signature(node, cx, node.child_by_field_name("body"));
            Some(def)
        }
        "interface_declaration" => named(node, cx, SymbolKind::Interface, "body"),
        "enum_declaration" => named(node, cx, SymbolKind::Enum, "body"),
        "type_alias_declaration" => {
            let mut def = named(node, cx, SymbolKind::Type, "")?;
            def.signature = cx.first_line_signature(node);
            Some(def)
        }
        "internal_module" | "module" => {
            let mut def = named(node, cx, SymbolKind::Mod, "body")?;
            def.name = def.name.trim_matches(|c| c == '"' || c == '\'').to_string();
            Some(def)
        }
        "property_signature" if cx.enclosing() == Some(SymbolKind::Interface) => {
            let mut def = named(node, cx, SymbolKind::Var, "")?;
            def.signature = cx.first_line_signature(node);
            Some(def)
        }
        "enum_assignment" => {
            let mut def = named(node, cx, SymbolKind::Const, "")?;
            def.signature = cx.first_line_signature(node);
            Some(def)
        }
        "property_identifier" if cx.parent(node).is_some_and(|p| p.kind() == "enum_body") => {
            Some(Definition {
                name: cx.text(node).to_string(),
                kind: SymbolKind::Const,
                signature: None,
                doc: None,
                name_node: Some(node.id()),
            })
        }
        "public_field_definition" | "field_definition" => {
            let name_node = node
                .child_by_field_name("name")
                .or_else(|| node.child_by_field_name("property"))?;
            let value = node.child_by_field_name("value");
            let (kind, signature) = if is_function_value(value) {
                let body = value.and_then(|v| v.child_by_field_name("body"));
                (SymbolKind::Method, undecorated_signature(node, cx, body))
            } else {
                (SymbolKind::Var, field_signature(node, cx))
            };
            Some(Definition {
                name: cx.text(name_node).to_string(),
                kind,
                signature,
                doc: None,
                name_node: Some(name_node.id()),
            })
        }
        "variable_declarator" if !cx.in_function() => {
            let name_node = node.child_by_field_name("name")?;
            if name_node.kind() != "identifier" {
                return None; // destructuring
            }
            let declaration = cx.parent(node)?;
            let value = node.child_by_field_name("value");
            let (kind, signature) = if is_function_value(value) {
                let body = value.and_then(|v| v.child_by_field_name("body"));
                let end = body.map_or(node.end_byte(), |b| b.start_byte());
                let sig = cx.signature_range(declaration.start_byte(), end);
                (cx.fn_kind(), sig)
            } else {
                let constant = cx.text(declaration).starts_with("const");
                let kind = if constant {
                    SymbolKind::Const
                } else {
                    SymbolKind::Var
                };
                (kind, cx.first_line_signature(declaration))
            };
            Some(Definition {
                name: cx.text(name_node).to_string(),
                kind,
                signature,
                doc: None,
                name_node: Some(name_node.id()),
            })
        }
        "pair" => {
            let value = node.child_by_field_name("value");
            if !is_function_value(value) {
                return None;
            }
            let key = node.child_by_field_name("key")?;
            let body = value.and_then(|v| v.child_by_field_name("body"));
            Some(Definition {
                name: cx
                    .text(key)
                    .trim_matches(|c| c == '"' || c == '\'')
                    .to_string(),
                kind: SymbolKind::Method,
                signature: cx.signature(node, body),
                doc: None,
                name_node: Some(key.id()),
            })
        }
        _ => None,
    }
}

/// Where `node`'s declaration starts after the decorators written inside it
/// (`@Component({…}) class A`, `@observable count = 0`).
fn after_decorators(node: Node) -> usize {
    let mut start = node.start_byte();
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        match child.kind() {
            "decorator" | "comment" => {}
            _ => {
                start = child.start_byte();
                break;
            }
        }
    }
    start
}

/// The signature of `node` up to `body`, without its decorators.
fn undecorated_signature(node: Node, cx: &Context, body: Option<Node>) -> Option<String> {
    let end = body.map_or(node.end_byte(), |b| b.start_byte());
    cx.signature_range(after_decorators(node), end)
}

/// A field's first line after its decorators (`@Input() label: string` → `label: string`).
fn field_signature(node: Node, cx: &Context) -> Option<String> {
    let start = after_decorators(node);
    if start == node.start_byte() {
        return cx.first_line_signature(node);
    }
    let rest = cx.src.get(start..node.end_byte())?;
    let end = rest
        .iter()
        .position(|&b| b == b'\n')
        .map_or(node.end_byte(), |i| start + i);
    cx.signature_range(start, end)
}

/// The decorators that precede `node` outside it: a method's in a class body, a class's
/// before its `export`. The walk reaches them before the definition, so they are
/// skipped there and recorded here, from the definition.
fn outer_decorators<'t>(node: Node<'t>, cx: &Context<'t>) -> Vec<Node<'t>> {
    let mut out = Vec::new();
    match cx.parent(node) {
        Some(parent) if parent.kind() == "export_statement" => {
            let mut cursor = parent.walk();
            out.extend(
                parent
                    .children(&mut cursor)
                    .filter(|c| c.kind() == "decorator"),
            );
        }
        Some(parent) if parent.kind() == "class_body" => {
            for sibling in cx.named_siblings_before(node) {
                match sibling.kind() {
                    "decorator" => out.push(sibling),
                    "comment" => {}
                    _ => break,
                }
            }
            out.reverse();
        }
        _ => {}
    }
    out
}

/// A decorator applied is a call of its name (`@sealed`, `@Component({…})`,
/// `@action.bound` → `sealed`, `Component`, `bound`); a call's arguments are left to
/// the walk.
fn decorator_name(decorator: Node, cx: &mut Context) {
    if let Some(expression) = decorator.named_child(0)
        && expression.kind() != "call_expression"
    {
        add_callee_ref(RefKind::Call, expression, cx);
    }
}

/// Every reference inside `node` (itself included), as the walk would record them.
fn subtree_references(node: Node, cx: &mut Context) {
    let mut stack = vec![node];
    while let Some(node) = stack.pop() {
        if references(node, cx) {
            for i in (0..node.named_child_count()).rev() {
                if let Some(child) = node.named_child(i as u32) {
                    stack.push(child);
                }
            }
        }
    }
}

/// The called name of a call's `function` (or a `new`'s `constructor`).
fn callee<'a>(node: Node, cx: &Context<'a>) -> Option<&'a str> {
    match node.kind() {
        "identifier" | "property_identifier" | "type_identifier" => Some(cx.text(node)),
        "member_expression" => node.child_by_field_name("property").map(|p| cx.text(p)),
        "nested_identifier" | "nested_type_identifier" => Some(last_segment(cx.text(node))),
        "generic_type" => node.child_by_field_name("name").and_then(|n| callee(n, cx)),
        _ => None,
    }
}

/// A reference to what `node` (a call's function, a `new`'s constructor, a heritage
/// clause's type) names: `f` bare, `a.b.f` as `f` via `a.b`.
fn add_callee_ref(kind: RefKind, node: Node, cx: &mut Context) {
    match node.kind() {
        "member_expression" => {
            if let (Some(property), Some(object)) = (
                node.child_by_field_name("property"),
                node.child_by_field_name("object"),
            ) {
                let name = cx.text(property);
                cx.add_member_ref(kind, name, node, object);
            }
        }
        "nested_identifier" | "nested_type_identifier" => {
            let text = cx.text(node);
            match text.rsplit_once('.') {
                Some((path, name)) => {
                    let qual = cx.qualifier(path);
                    cx.add_ref_via(kind, name.trim(), node, Some(qual));
                }
                None => cx.add_ref(kind, text, node),
            }
        }
        "generic_type" => {
            if let Some(name) = node.child_by_field_name("name") {
                add_callee_ref(kind, name, cx);
            }
        }
        _ => {
            if let Some(name) = callee(node, cx) {
                cx.add_ref(kind, name, node);
            }
        }
    }
}

/// The type of `const x: Foo = …`, the evident one of `const x = new Foo(…)`, or what
/// the call in `const x = f(…)` (`await f(…)`) returns.
fn declared_type(node: Node, cx: &mut Context) {
    let Some(name) = node
        .child_by_field_name("name")
        .filter(|n| n.kind() == "identifier")
    else {
        return;
    };
    let name = cx.text(name);
    if let Some(ty) = node.child_by_field_name("type") {
        let ty = cx.text(ty.named_child(0).unwrap_or(ty));
        cx.bind_type(name, ty);
        return;
    }
    let Some(value) = node.child_by_field_name("value").map(|v| match v.kind() {
        "await_expression" => v.named_child(0).unwrap_or(v),
        _ => v,
    }) else {
        return;
    };
    match value.kind() {
        "new_expression" => {
            if let Some(class) = value
                .child_by_field_name("constructor")
                .filter(|c| c.kind() == "identifier")
            {
                let class = cx.text(class);
                cx.bind_type(name, class);
            }
        }
        "call_expression" => {
            let call = cx.text(value);
            cx.bind_returned(name, call);
        }
        _ => {}
    }
}

/// Names used as values in `nodes`: `f`, `ns.f` (not calls).
fn values<'t>(nodes: impl IntoIterator<Item = Node<'t>>, cx: &mut Context) {
    cx.add_values(nodes, |n| {
        (n.kind() == "member_expression")
            .then(|| {
                n.child_by_field_name("property")
                    .zip(n.child_by_field_name("object"))
            })
            .flatten()
    });
}

/// The names an `import … from S` or `export … from S` statement binds.
fn bind_specifiers(node: Node, source: &str, cx: &mut Context) {
    for n in cx.descendants(
        node,
        &[
            "import_specifier",
            "export_specifier",
            "namespace_import",
            "namespace_export",
            "identifier",
        ],
    ) {
        match n.kind() {
            "import_specifier" | "export_specifier" => {
                if let Some(name) = n.child_by_field_name("name") {
                    let name = cx.text(name);
                    let local = n.child_by_field_name("alias").map_or(name, |a| cx.text(a));
                    cx.add_binding(local, source, Some(name));
                }
            }
            "namespace_import" | "namespace_export" => {
                if let Some(id) = n.named_child(0) {
                    let local = cx.text(id);
                    cx.add_binding(local, source, None);
                }
            }
            // `import x from S`: the default export.
            _ if cx.parent(n).is_some_and(|p| p.kind() == "import_clause") => {
                let local = cx.text(n);
                cx.add_binding(local, source, Some("default"));
            }
            _ => {}
        }
    }
}

fn references(node: Node, cx: &mut Context) -> bool {
    match node.kind() {
        "decorator" => {
            if cx
                .parent(node)
                .is_some_and(|p| matches!(p.kind(), "class_body" | "export_statement"))
            {
                // Recorded by the definition it decorates (`outer_decorators`).
                return false;
            }
            decorator_name(node, cx);
            true
        }
        "class_declaration"
        | "abstract_class_declaration"
        | "class"
        | "method_definition"
        | "method_signature"
        | "abstract_method_signature" => {
            for decorator in outer_decorators(node, cx) {
                decorator_name(decorator, cx);
                for i in 0..decorator.named_child_count() {
                    if let Some(child) = decorator.named_child(i as u32) {
                        subtree_references(child, cx);
                    }
                }
            }
            true
        }
        "call_expression" => {
            if let Some(function) = node.child_by_field_name("function")
                && let Some(name) = callee(function, cx)
            {
                if name == "require" {
                    if let Some(arg) = node
                        .child_by_field_name("arguments")
                        .and_then(|a| a.named_child(0))
                        .filter(|a| a.kind() == "string")
                    {
                        let module = cx.text(arg);
                        cx.add_import(module);
                    }
                } else {
                    add_callee_ref(RefKind::Call, function, cx);
                }
            }
            true
        }
        "new_expression" => {
            match node.child_by_field_name("constructor") {
                Some(c) if c.kind() == "identifier" => {
                    let name = cx.text(c);
                    cx.add_ref_via(RefKind::Call, name, c, Some("new()".into()));
                }
                Some(c) => add_callee_ref(RefKind::Call, c, cx),
                None => {}
            }
            true
        }
        "import_statement" => {
            if let Some(source) = node.child_by_field_name("source") {
                let module = cx.text(source);
                cx.add_import(module);
                bind_specifiers(node, module, cx);
            }
            for n in cx.descendants(
                node,
                &["import_specifier", "namespace_import", "import_clause"],
            ) {
                match n.kind() {
                    "import_specifier" => {
                        if let Some(name) = n.child_by_field_name("name") {
                            let text = cx.text(name);
                            cx.add_ref(RefKind::Import, text, name);
                        }
                    }
                    _ => {
                        // `import x from` / `import * as x from`
                        for i in 0..n.named_child_count() {
                            if let Some(child) = n.named_child(i as u32)
                                && child.kind() == "identifier"
                            {
                                let text = cx.text(child);
                                cx.add_ref(RefKind::Import, text, child);
                            }
                        }
                        if n.kind() == "import_clause" {
                            for spec in cx.descendants(n, &["import_specifier", "namespace_import"])
                            {
                                let target = spec
                                    .child_by_field_name("name")
                                    .or_else(|| spec.named_child(0));
                                if let Some(t) = target {
                                    let text = cx.text(t);
                                    cx.add_ref(RefKind::Import, text, t);
                                }
                            }
                        }
                    }
                }
            }
            false
        }
        "export_statement" => {
            let source = node.child_by_field_name("source");
            if let Some(source) = source {
                let module = cx.text(source);
                cx.add_import(module);
                bind_specifiers(node, module, cx);
                // `export * from S`
                if !(0..node.named_child_count())
                    .filter_map(|i| node.named_child(i as u32))
                    .any(|c| matches!(c.kind(), "export_clause" | "namespace_export"))
                {
                    cx.add_binding("*", module, None);
                }
            }
            // What it passes on: `export { a } from S` imports `a`, `export { a }` and
            // `export default a` use it.
            let kind = if source.is_some() {
                RefKind::Import
            } else {
                RefKind::Value
            };
            for spec in cx.descendants(node, &["export_specifier"]) {
                if let Some(name) = spec.child_by_field_name("name") {
                    let text = cx.text(name);
                    cx.add_ref(kind, text, name);
                }
            }
            values(node.child_by_field_name("value"), cx);
            true
        }
        // `typeof a` (a type made from a value's), `x instanceof A`.
        "type_query" => {
            values(
                (0..node.named_child_count()).filter_map(|i| node.named_child(i as u32)),
                cx,
            );
            true
        }
        "binary_expression"
            if node
                .child_by_field_name("operator")
                .is_some_and(|o| o.kind() == "instanceof") =>
        {
            values(node.child_by_field_name("right"), cx);
            true
        }
        "extends_clause" => {
            for i in 0..node.named_child_count() {
                if let Some(child) = node.named_child(i as u32)
                    && child.kind() != "type_arguments"
                {
                    add_callee_ref(RefKind::Extends, child, cx);
                }
            }
            false
        }
        "class_heritage" => {
            // JavaScript: `extends expr` directly; TypeScript: extends/implements clauses.
            for i in 0..node.named_child_count() {
                if let Some(child) = node.named_child(i as u32) {
                    add_callee_ref(RefKind::Extends, child, cx);
                }
            }
            true
        }
        "implements_clause" | "extends_type_clause" => {
            let kind = if node.kind() == "implements_clause" {
                RefKind::Implements
            } else {
                RefKind::Extends
            };
            for i in 0..node.named_child_count() {
                if let Some(child) = node.named_child(i as u32) {
                    add_callee_ref(kind, child, cx);
                }
            }
            false
        }
        "type_identifier" => {
            let text = cx.text(node);
            cx.add_ref(RefKind::TypeRef, text, node);
            false
        }
        "nested_type_identifier" => {
            add_callee_ref(RefKind::TypeRef, node, cx);
            false
        }
        "arguments" | "array" | "return_statement" | "jsx_expression" => {
            values(
                (0..node.named_child_count()).filter_map(|i| node.named_child(i as u32)),
                cx,
            );
            true
        }
        "required_parameter" | "optional_parameter" => {
            if let (Some(pattern), Some(ty)) = (
                node.child_by_field_name("pattern"),
                node.child_by_field_name("type"),
            ) && pattern.kind() == "identifier"
            {
                let ty = ty.named_child(0).unwrap_or(ty);
                let (name, ty) = (cx.text(pattern), cx.text(ty));
                cx.bind_type(name, ty);
            }
            true
        }
        "pair" | "variable_declarator" | "assignment_expression" => {
            if node.kind() == "variable_declarator" {
                declared_type(node, cx);
            }
            let value = node
                .child_by_field_name("value")
                .or_else(|| node.child_by_field_name("right"));
            values(value, cx);
            true
        }
        // `<Component …>`: rendering a component calls it (lowercase names are the
        // platform's elements).
        "jsx_opening_element" | "jsx_self_closing_element" => {
            if let Some(name) = node.child_by_field_name("name") {
                let text = cx.text(name);
                let last = text.rsplit('.').next().unwrap_or(text);
                if last.starts_with(|c: char| c.is_uppercase()) {
                    add_callee_ref(RefKind::Call, name, cx);
                }
            }
            true
        }
        // (A template's substitutions are code: `${user.name()}`.)
        "comment" | "string" | "regex" => false,
        "template_string" => node
            .children(&mut node.walk())
            .any(|c| c.kind() == "template_substitution"),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use crate::code::lang::declared;

    #[test]
    fn signatures_without_a_body_declare() {
        let src = r#"
export interface Store {
  get(key: string): string;
  size: number;
}

export abstract class Base {
  abstract load(): void;
  parse(x: string): number;
  parse(x: number): number;
  parse(x: any): number {
    return 0;
  }
}

export class Memory extends Base implements Store {
  get(key: string): string {
    return key;
  }
  load() {}
}

declare function fetch(url: string): Promise<string>;
export function run(): void;
export function run(x?: number): void {}
"#;
        assert_eq!(
            declared("a.ts", src),
            [
                "get;", "load;", "parse;", "parse;", "parse", "get", "load", "fetch;", "run;",
                "run"
            ]
        );
        // JavaScript has no signatures: every function has its body.
        assert_eq!(
            declared("a.js", "class A {\n  get(k) {}\n}\nfunction f() {}\n"),
            ["get", "f"]
        );
    }
}
