//! Python (`.py .pyi`).

mod entry;
mod link;

use tree_sitter::Node;

use super::{LanguageExtractor, named, outer};
use crate::code::extract::{Context, Definition, clip_doc, last_segment};
use crate::code::{RefKind, SymbolKind};

pub(super) use link::Linking;

/// Python.
pub struct Python;

/// The docstring of a `def` or `class`: the string that opens its body.
fn docstring(node: Node, cx: &Context) -> Option<String> {
    let first = node.child_by_field_name("body")?.named_child(0)?;
    if first.kind() != "expression_statement" {
        return None;
    }
    let string = first.named_child(0).filter(|s| s.kind() == "string")?;
    let text = cx.text(string);
    let text = text.trim_start_matches(|c: char| "rRbBuUfF".contains(c));
    let text = ["\"\"\"", "'''", "\"", "'"]
        .iter()
        .find_map(|q| text.strip_prefix(q).and_then(|t| t.strip_suffix(q)))
        .unwrap_or(text);
    // Dedent: strip each line's leading whitespace.
    let doc = text.lines().map(str::trim).collect::<Vec<_>>().join("\n");
    clip_doc(doc)
}

/// The named children of `node`.
fn children(node: Node) -> impl Iterator<Item = Node> {
    (0..node.named_child_count()).filter_map(move |i| node.named_child(i as u32))
}

/// Whether a function's body only stands in for one: nothing but strings (its
/// docstring), `...`, `pass` and `raise NotImplementedError` (bare or called), and
/// comments. A hookspec, an overload, a stub file's function, a base class's method
/// left to subclasses.
fn is_stub_body(body: Node, cx: &Context) -> bool {
    children(body).all(|statement| match statement.kind() {
        "pass_statement" | "comment" => true,
        "expression_statement" => {
            statement.named_child_count() == 1
                && statement
                    .named_child(0)
                    .is_some_and(|e| matches!(e.kind(), "string" | "ellipsis"))
        }
        "raise_statement" => statement.named_child(0).is_some_and(|raised| {
            let raised = match raised.kind() {
                "call" => raised.child_by_field_name("function").unwrap_or(raised),
                _ => raised,
            };
            matches!(raised.kind(), "identifier" | "attribute")
                && last_segment(cx.text(raised)) == "NotImplementedError"
        }),
        _ => false,
    })
}

/// Whether the definition at `node` is decorated as abstract (`@abstractmethod`,
/// `@abc.abstractmethod`, and the older `abstractproperty`, `abstractclassmethod`,
/// `abstractstaticmethod`).
fn is_abstract(node: Node, cx: &Context) -> bool {
    let Some(decorated) = cx
        .parent(node)
        .filter(|p| p.kind() == "decorated_definition")
    else {
        return false;
    };
    children(decorated)
        .filter(|d| d.kind() == "decorator")
        .filter_map(|d| d.named_child(0))
        .any(|expression| {
            let expression = match expression.kind() {
                "call" => expression
                    .child_by_field_name("function")
                    .unwrap_or(expression),
                _ => expression,
            };
            matches!(
                last_segment(cx.text(expression)),
                "abstractmethod"
                    | "abstractproperty"
                    | "abstractclassmethod"
                    | "abstractstaticmethod"
            )
        })
}

/// Whether the method at `node` belongs to a class that lists `typing`'s `Protocol`
/// among its bases (`Protocol`, `typing.Protocol`, `Protocol[T]`; not `asyncio.Protocol`,
/// whose subclasses implement it): a protocol only declares its methods; the classes
/// that match it implement them.
fn in_protocol(node: Node, cx: &Context) -> bool {
    let mut up = cx.parent(node);
    if up.is_some_and(|p| p.kind() == "decorated_definition") {
        up = up.and_then(|p| cx.parent(p));
    }
    let Some(class) = up
        .filter(|block| block.kind() == "block")
        .and_then(|block| cx.parent(block))
        .filter(|class| class.kind() == "class_definition")
    else {
        return false;
    };
    class
        .child_by_field_name("superclasses")
        .is_some_and(|bases| {
            children(bases).any(|base| {
                let base = match base.kind() {
                    "subscript" => base.child_by_field_name("value").unwrap_or(base),
                    _ => base,
                };
                let text = cx.text(base);
                let typing =
                    |module: &str| matches!(module, "typing" | "typing_extensions" | "t" | "te");
                match base.kind() {
                    // Bare, unless imported from elsewhere (`from asyncio import Protocol`).
                    "identifier" => {
                        text == "Protocol" && cx.binding(text).is_none_or(|b| typing(&b.module))
                    }
                    "attribute" => text
                        .rsplit_once('.')
                        .is_some_and(|(module, name)| name == "Protocol" && typing(module)),
                    _ => false,
                }
            })
        })
}

fn is_constant_name(name: &str) -> bool {
    name.chars().any(|c| c.is_ascii_uppercase())
        && name
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

/// The type of `x: Foo = …`, or of the value in `x = …` ([`value_type`]); for `self.x =
/// …` in a method, the class's field `x`.
fn assigned_type(node: Node, cx: &mut Context) {
    let Some(left) = node.child_by_field_name("left") else {
        return;
    };
    if cx.in_function() && matches!(left.kind(), "identifier" | "pattern_list" | "tuple_pattern") {
        // (A name assigned in a function is its local, not the module's variable: `x =
        // …`, `a, b = …`.)
        declare_locals(left, cx);
    }
    let ty = match node.child_by_field_name("type") {
        Some(ty) => link::annotated_type(cx.text(ty)),
        None => node
            .child_by_field_name("right")
            .and_then(|value| value_type(value, cx)),
    };
    let Some(ty) = ty else {
        return;
    };
    match left.kind() {
        "identifier" => {
            let name = cx.text(left);
            cx.bind(name, ty);
        }
        "attribute" => {
            if let Some(field) = own_attribute(left, cx) {
                let field = cx.text(field);
                cx.bind_field(field, ty);
            }
        }
        _ => {}
    }
}

/// The attribute `target` names when it is the instance's own: `x` of `self.x`.
fn own_attribute<'t>(target: Node<'t>, cx: &Context) -> Option<Node<'t>> {
    let object = target.child_by_field_name("object")?;
    (target.kind() == "attribute" && cx.text(object) == "self")
        .then(|| target.child_by_field_name("attribute"))
        .flatten()
}

/// The type of a value, as a qualifier, when it is evident: a class called (`Foo(…)`, a
/// capitalised name), what another call returns (`f(…)`: `f()`), a variable of known
/// type, either branch of `a if c else b`.
fn value_type(value: Node, cx: &Context) -> Option<String> {
    match value.kind() {
        "call" => {
            let class = value
                .child_by_field_name("function")
                .filter(|f| f.kind() == "identifier")
                .map(|f| cx.text(f))
                .filter(|f| f.starts_with(char::is_uppercase));
            match class {
                Some(class) => Some(class.to_string()),
                None => cx.call_qualifier(cx.text(value)),
            }
        }
        "identifier" => cx.local_type(cx.text(value)).map(str::to_string),
        // A type alias of a builtin container (`Scope = MutableMapping[str, Any]`): a
        // value annotated with the alias is one of that class.
        "subscript" => value
            .child_by_field_name("value")
            .map(|v| cx.text(v))
            .filter(|v| link::builtin_class(v))
            .map(|v| v.rsplit('.').next().unwrap_or(v).to_string()),
        // `a if c else b`: the branches are the first and third.
        "conditional_expression" => [0, 2]
            .into_iter()
            .filter_map(|i| value.named_child(i))
            .find_map(|n| value_type(n, cx)),
        _ => None,
    }
}

/// A constant or a class read as a call's receiver or a subscript's value
/// (`HTTP_PROTOCOLS.get(…)`, `LOOP_FACTORIES[name]`, `Config.x`) is a use of what it
/// names — not an imported module's (`json.load`), nor a local's or a parameter's
/// ([`Context::add_values`]). (A name in lower case is most often a value of the
/// top-level code, `console = Console()` under `if __name__ == "__main__":`, which no
/// symbol defines.)
fn named_value(node: Option<Node>, cx: &mut Context) {
    let Some(node) = node.filter(|n| n.kind() == "identifier") else {
        return;
    };
    let name = cx.text(node);
    if !name.starts_with(|c: char| c.is_ascii_uppercase())
        || cx.binding(name).is_some_and(|b| b.name.is_none())
    {
        return;
    }
    cx.add_values([node], |_| None);
}

/// Bare names used as values in `nodes`: `f` passed on, returned, assigned. (A member
/// read, `mod.f`, is a value wherever it is: [`is_member_read`].)
fn values<'t>(nodes: impl IntoIterator<Item = Node<'t>>, cx: &mut Context) {
    cx.add_values(
        nodes.into_iter().filter(|n| n.kind() == "identifier"),
        |_| None,
    );
}

/// Whether the attribute `node` (`a.b`) is read as a value: not the function a call
/// calls (a call of it), not what an assignment writes, not a decorator or an `except`
/// clause's type (their own references).
fn is_member_read(node: Node, cx: &Context) -> bool {
    let Some(parent) = cx.parent(node) else {
        return true;
    };
    let is = |field: &str| {
        parent
            .child_by_field_name(field)
            .is_some_and(|c| c.id() == node.id())
    };
    match parent.kind() {
        "call" => !is("function"),
        "assignment" | "augmented_assignment" => !is("left"),
        "decorator" => false,
        "except_clause" | "as_pattern" | "parenthesized_expression" => {
            let mut up = parent;
            while matches!(up.kind(), "as_pattern" | "parenthesized_expression")
                && let Some(p) = cx.parent(up)
            {
                up = p;
            }
            up.kind() != "except_clause"
        }
        _ => true,
    }
}

/// Declare the names the target `target` binds (`x`, `a, b`) locals of the function.
fn declare_locals(target: Node, cx: &mut Context) {
    for name in cx.descendants(target, &["identifier"]) {
        cx.declare_local(cx.text(name));
    }
}

/// A reference to what `node` names: `f` bare, `a.b.f` as `f` via `a.b`.
fn add_callee_ref(kind: RefKind, node: Node, cx: &mut Context) {
    match node.kind() {
        "identifier" => {
            let name = cx.text(node);
            cx.add_ref(kind, name, node);
        }
        "attribute" => {
            if let (Some(name), Some(object)) = (
                node.child_by_field_name("attribute"),
                node.child_by_field_name("object"),
            ) {
                let name = cx.text(name);
                if object.kind() == "identifier" && cx.of_no_known_class(cx.text(object)) {
                    // A local or parameter of no known class: not the module's variable
                    // of that name.
                    cx.add_ref_via(kind, name, node, Some("?".to_string()));
                } else {
                    cx.add_member_ref(kind, name, node, object);
                }
            }
        }
        _ => {}
    }
}

/// The references of a decorator, made by the definition it decorates: the decorator
/// itself as a call (`@cache`, `@functools.wraps(f)` → `cache`, `wraps`), then whatever
/// its arguments refer to.
fn decorator_refs(lang: &Python, decorator: Node, cx: &mut Context) {
    let Some(expression) = decorator.named_child(0) else {
        return;
    };
    add_callee_ref(RefKind::Call, expression, cx);
    let mut stack = vec![expression];
    while let Some(node) = stack.pop() {
        if lang.references(node, cx) {
            for i in (0..node.named_child_count()).rev() {
                if let Some(child) = node.named_child(i as u32) {
                    stack.push(child);
                }
            }
        }
    }
}

impl LanguageExtractor for Python {
    fn manifests(&self) -> &'static [&'static str] {
        entry::MANIFESTS
    }
    fn entry_points(
        &self,
        manifest: &str,
        text: &str,
        _root: &std::path::Path,
    ) -> Vec<crate::code::extract::DeclaredEntry> {
        entry::declared(manifest, text)
    }
    fn main_modules(&self) -> &'static [(&'static str, &'static str)] {
        &[("__main__.py", "python -m")]
    }
    fn name(&self) -> &'static str {
        "python"
    }
    fn extensions(&self) -> &'static [&'static str] {
        &["py", "pyi"]
    }
    fn grammar(&self, _extension: &str) -> tree_sitter::Language {
        tree_sitter_python::LANGUAGE.into()
    }
    fn definition(&self, node: Node, cx: &Context) -> Option<Definition> {
        match node.kind() {
            "function_definition" => {
                let mut def = named(node, cx, cx.fn_kind(), "body")?;
                def.doc = docstring(node, cx);
                Some(def)
            }
            "class_definition" => {
                let mut def = named(node, cx, SymbolKind::Class, "body")?;
                def.doc = docstring(node, cx);
                Some(def)
            }
            "assignment" if !cx.in_function() => {
                let left = node.child_by_field_name("left")?;
                if left.kind() != "identifier" {
                    return None;
                }
                let name = cx.text(left);
                let kind = if is_constant_name(name) {
                    SymbolKind::Const
                } else {
                    SymbolKind::Var
                };
                Some(Definition {
                    name: name.to_string(),
                    kind,
                    signature: cx.first_line_signature(node),
                    doc: None,
                    name_node: Some(left.id()),
                })
            }
            "type_alias_statement" => {
                let left = node.child_by_field_name("left")?;
                let name = left.named_child(0).unwrap_or(left);
                Some(Definition {
                    name: cx.text(name).to_string(),
                    kind: SymbolKind::Type,
                    signature: cx.first_line_signature(node),
                    doc: None,
                    name_node: Some(name.id()),
                })
            }
            _ => None,
        }
    }
    /// A function whose body is a stub ([`is_stub_body`]: a hookspec, an overload, a
    /// `.pyi` stub), that is decorated `@abstractmethod`, or a method of a `Protocol`.
    fn declares(&self, node: Node, cx: &Context) -> bool {
        node.kind() == "function_definition"
            && (node
                .child_by_field_name("body")
                .is_some_and(|body| is_stub_body(body, cx))
                || is_abstract(node, cx)
                || in_protocol(node, cx))
    }
    fn doc_comment(&self, node: Node, cx: &Context) -> Option<String> {
        // A decorated definition is documented by the comments above its decorators.
        let anchor = if node.kind() == "assignment" {
            cx.parent(node).unwrap_or(node)
        } else {
            outer(node, cx, &["decorated_definition"])
        };
        // (An attribute's Sphinx comment is `#: …`.)
        let doc = cx.preceding_comments(anchor, &["comment"], &[])?;
        Some(
            doc.lines()
                .map(|l| {
                    if l == ":" {
                        ""
                    } else {
                        l.strip_prefix(": ").unwrap_or(l)
                    }
                })
                .collect::<Vec<_>>()
                .join("\n"),
        )
    }
    /// A module's or class's variable: the class its annotation names (`current_app:
    /// FlaskProxy = LocalProxy(…)`), else the class of the value assigned (`app =
    /// Flask(__name__)`, what a call returns).
    fn gives(&self, node: Node, cx: &Context) -> Option<String> {
        if node.kind() != "assignment" {
            return None;
        }
        match node.child_by_field_name("type") {
            Some(ty) => link::annotated_type(cx.text(ty)),
            None => value_type(node.child_by_field_name("right")?, cx),
        }
    }
    fn references(&self, node: Node, cx: &mut Context) -> bool {
        match node.kind() {
            // Decorators belong to the definition they decorate (below), which the walk
            // enters after them.
            "decorator" => false,
            "function_definition" | "class_definition" => {
                if let Some(parent) = cx
                    .parent(node)
                    .filter(|p| p.kind() == "decorated_definition")
                {
                    for i in 0..parent.named_child_count() {
                        if let Some(decorator) = parent.named_child(i as u32)
                            && decorator.kind() == "decorator"
                        {
                            decorator_refs(self, decorator, cx);
                        }
                    }
                }
                true
            }
            "call" => {
                if let Some(function) = node.child_by_field_name("function") {
                    add_callee_ref(RefKind::Call, function, cx);
                }
                true
            }
            "import_statement" => {
                for name in node
                    .children_by_field_name("name", &mut node.walk())
                    .collect::<Vec<_>>()
                {
                    let path = name.child_by_field_name("name").unwrap_or(name);
                    let module = cx.text(path);
                    cx.add_import(module);
                    let alias = name.child_by_field_name("alias").map(|a| cx.text(a));
                    match alias {
                        // `import a.b as c`: `c` is `a.b`.
                        Some(alias) => cx.add_binding(alias, module, None),
                        // `import a.b`: `a` is `a` (and `a.b` is reached through it).
                        None => {
                            let top = module.split('.').next().unwrap_or(module);
                            cx.add_binding(top, top, None);
                        }
                    }
                    let shown = alias.unwrap_or(last_segment(module));
                    cx.add_ref(RefKind::Import, shown, name);
                }
                false
            }
            "import_from_statement" => {
                let module = node
                    .child_by_field_name("module_name")
                    .map_or("", |m| cx.text(m));
                if !module.is_empty() {
                    cx.add_import(module);
                }
                for name in node
                    .children_by_field_name("name", &mut node.walk())
                    .collect::<Vec<_>>()
                {
                    let path = name.child_by_field_name("name").unwrap_or(name);
                    let text = last_segment(cx.text(path));
                    let local = name
                        .child_by_field_name("alias")
                        .map_or(text, |a| cx.text(a));
                    cx.add_binding(local, module, Some(text));
                    cx.add_ref(RefKind::Import, text, name);
                }
                if (0..node.named_child_count())
                    .filter_map(|i| node.named_child(i as u32))
                    .any(|c| c.kind() == "wildcard_import")
                {
                    cx.add_binding("*", module, None);
                }
                false
            }
            "argument_list"
                if cx
                    .parent(node)
                    .is_some_and(|p| p.kind() == "class_definition")
                    && cx
                        .parent(node)
                        .and_then(|p| p.child_by_field_name("superclasses"))
                        .is_some_and(|s| s.id() == node.id()) =>
            {
                for i in 0..node.named_child_count() {
                    if let Some(base) = node.named_child(i as u32) {
                        match base.kind() {
                            "subscript" => {
                                if let Some(value) = base.child_by_field_name("value") {
                                    add_callee_ref(RefKind::Extends, value, cx);
                                }
                            }
                            _ => add_callee_ref(RefKind::Extends, base, cx),
                        }
                    }
                }
                false
            }
            "type" => {
                // Every name of an annotation, subscripted generics' arguments too
                // (`dict[str, list[Box]]`); `mod.Box` through `mod`.
                for name in cx.descendants(node, &["identifier", "attribute"]) {
                    add_callee_ref(RefKind::TypeRef, name, cx);
                }
                false
            }
            // `for x in xs`, `[f(x) for x in xs]`: `x` is a local.
            "for_statement" | "for_in_clause" if cx.in_function() => {
                if let Some(left) = node.child_by_field_name("left") {
                    declare_locals(left, cx);
                }
                true
            }
            "except_clause" => {
                // `except Box`, `except mod.Box as e`: the type caught. (A tuple of them
                // is read by the walk, as the values it holds.)
                let mut caught = node.child_by_field_name("value");
                while let Some(c) =
                    caught.filter(|c| matches!(c.kind(), "as_pattern" | "parenthesized_expression"))
                {
                    caught = c.named_child(0);
                }
                if let Some(caught) = caught {
                    add_callee_ref(RefKind::TypeRef, caught, cx);
                }
                true
            }
            "argument_list" | "return_statement" | "list" | "tuple" => {
                let nodes = (0..node.named_child_count())
                    .filter_map(|i| node.named_child(i as u32))
                    .map(|n| match n.kind() {
                        "keyword_argument" => n.child_by_field_name("value").unwrap_or(n),
                        _ => n,
                    });
                values(nodes, cx);
                true
            }
            "assignment" => {
                assigned_type(node, cx);
                values(node.child_by_field_name("right"), cx);
                if let Some(name) = node
                    .child_by_field_name("left")
                    .and_then(|left| own_attribute(left, cx))
                {
                    // `self.x = …`: the instance's attribute `x`, a member of the class.
                    let doc = self.doc_comment(node, cx);
                    cx.declare_attribute(cx.text(name), node, doc);
                }
                true
            }
            "typed_parameter" | "typed_default_parameter" => {
                let name = node
                    .child_by_field_name("name")
                    .or_else(|| node.named_child(0))
                    .filter(|n| n.kind() == "identifier");
                if let (Some(name), Some(ty)) = (name, node.child_by_field_name("type"))
                    && let Some(ty) = link::annotated_type(cx.text(ty))
                {
                    let name = cx.text(name);
                    cx.bind(name, ty);
                }
                true
            }
            "attribute" => {
                if is_member_read(node, cx)
                    && let (Some(name), Some(object)) = (
                        node.child_by_field_name("attribute"),
                        node.child_by_field_name("object"),
                    )
                {
                    cx.add_values([node], |_| Some((name, object)));
                }
                named_value(node.child_by_field_name("object"), cx);
                true
            }
            "subscript" => {
                named_value(node.child_by_field_name("value"), cx);
                true
            }
            // (A string's interpolations are code: `f"{self.name()}"`.)
            "comment" => false,
            "string" => node
                .children(&mut node.walk())
                .any(|c| c.kind() == "interpolation"),
            _ => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::code::lang::declared;

    #[test]
    fn stub_bodies_declare() {
        let src = r#"
def hookspec(parser, pluginmanager):
    """Register argparse-style options.

    :param parser: To add command line options.
    """

def ellipsis(x): ...

def docstring_and_ellipsis():
    """Doc."""
    ...

def passes():
    # nothing to do here
    pass

def not_implemented():
    """Subclasses say."""
    raise NotImplementedError

def not_implemented_called(self):
    raise NotImplementedError("subclasses say")

def not_implemented_qualified():
    raise builtins.NotImplementedError() from None

def returns():
    """Doc."""
    return 1

def raises_another():
    raise ValueError("no")

def does_then_stops():
    print("x")
    raise NotImplementedError

def returns_not_implemented(self, other):
    return NotImplemented
"#;
        assert_eq!(
            declared("a.py", src),
            [
                "hookspec;",
                "ellipsis;",
                "docstring_and_ellipsis;",
                "passes;",
                "not_implemented;",
                "not_implemented_called;",
                "not_implemented_qualified;",
                "returns",
                "raises_another",
                "does_then_stops",
                "returns_not_implemented",
            ]
        );
    }

    #[test]
    fn a_protocol_imported_from_elsewhere_is_no_typing_protocol() {
        let src = "from asyncio import Protocol\n\nclass Wire(Protocol):\n    def data_received(self, data):\n        self.data = data\n";
        assert_eq!(declared("a.py", src), ["data_received"]);
        let typed = "from typing_extensions import Protocol\n\nclass Reader(Protocol):\n    def read(self): ...\n";
        assert_eq!(declared("a.py", typed), ["read;"]);
    }

    #[test]
    fn abstract_methods_and_protocol_members_declare() {
        let src = r#"
import abc
from typing import Protocol

class Base(abc.ABC):
    @abc.abstractmethod
    def run(self):
        return 0

    @property
    @abstractmethod
    def name(self) -> str:
        return ""

    @staticmethod
    def helper():
        return 1

    def concrete(self):
        return self.run()

class Impl(Base):
    def run(self):
        return 1

class Reader(Protocol):
    def read(self, n: int) -> bytes:
        return b""

    @property
    def closed(self) -> bool: ...

class Box(typing.Protocol[T], Generic[T]):
    def get(self) -> T:
        return self.value

class Meta(Base, metaclass=abc.ABCMeta):
    def run(self):
        return 2

def outer():
    class Protocolish(Base):
        def read(self):
            return 3
    return Protocolish

class Wire(asyncio.Protocol):
    def data_received(self, data):
        self.data = data
"#;
        assert_eq!(
            declared("a.py", src),
            [
                "run;",
                "name;",
                "helper",
                "concrete",
                "run",
                "read;",
                "closed;",
                "get;",
                "run",
                "outer",
                "read",
                "data_received",
            ]
        );
    }
}
