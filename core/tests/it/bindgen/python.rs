//! `bindings/python/python/cc_search/_types.py`, a TypedDict per request and response
//! type, and `_operations.py`, `EngineOperations`: the mixin of `cc_search.Engine` with a
//! method per operation.

use std::fmt::Write;

use serde_json::Value;

use super::hints::ArgKind;
use super::model::{Api, Body, Def, Field, Method, Param, PathKind, Ty, is_python_identifier};
use super::text::{flow, flow_with, one_line, rst, wrap};

/// Longest line (ruff's `line-length`).
const WIDTH: usize = 100;

/// `_types.py`: the TypedDicts and aliases, loaded only when a type is used at run time
/// (`cc_search.<Name>` through the package's `__getattr__`); type checkers read them
/// directly.
pub fn render_types(api: &Api) -> String {
    let mut out = String::new();
    out.push_str("__all__ = [\n");
    for name in type_names(api) {
        writeln!(out, "    \"{name}\",").unwrap();
    }
    out.push_str("]\n\n");
    out.push_str(
        "#: A filesystem path: ``str`` or any ``os.PathLike`` (``pathlib.Path``, ...).\n\
         StrPath = Union[str, \"os.PathLike[str]\"]\n\n",
    );
    let progress: Vec<String> = api
        .methods
        .iter()
        .filter(|m| m.progress)
        .map(|m| format!(":meth:`~cc_search.Engine.{}`", m.py_name))
        .collect();
    let doc = format!(
        "Called as ``progress(stage, done, total)`` on the calling thread while an operation \
         reports progress; the methods that take it: {}.",
        progress.join(", ")
    );
    for line in flow(&doc, WIDTH - 3) {
        writeln!(out, "#: {line}").unwrap();
    }
    out.push_str("ProgressCallback = Callable[[str, int, int], object]\n");

    for def in &api.defs {
        if let Some(method) = api.methods.iter().find(|m| m.request == def.name) {
            write!(out, "\n\n# ── {} ──\n", method.op).unwrap();
        }
        out.push_str("\n\n");
        render_def(&mut out, def);
    }
    let any = out.contains("Any]") || out.contains("[Any") || out.contains(": Any");
    TYPES_HEADER.replace("{typing}", if any { "Any, " } else { "" }) + &out
}

/// `_operations.py`: `EngineOperations`, the methods. It names the types only in
/// annotations and casts (strings), so importing it does not load `_types.py`.
pub fn render(api: &Api) -> String {
    let mut methods = String::new();
    methods.push_str(MIXIN);
    for method in &api.methods {
        methods.push('\n');
        render_method(&mut methods, api, method);
    }
    methods.push_str(HELPERS);
    let used = |name: &str| {
        methods.match_indices(name).any(|(at, _)| {
            let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
            !word(methods[..at].chars().next_back())
                && !word(methods[at + name.len()..].chars().next())
        })
    };
    let mut out = String::new();
    out.push_str(HEADER);
    out.push_str("if TYPE_CHECKING:\n    from ._types import (\n");
    for name in type_names(api).into_iter().filter(|n| used(n)) {
        writeln!(out, "        {name},").unwrap();
    }
    out.push_str("    )\n\n");
    out.push_str("__all__ = [\"TYPE_NAMES\", \"EngineOperations\"]\n\n");
    out.push_str("#: The names `_types.py` defines (its ``__all__``), known without loading it.\n");
    out.push_str("TYPE_NAMES = (\n");
    for name in type_names(api) {
        writeln!(out, "    \"{name}\",").unwrap();
    }
    out.push_str(")\n");
    out.push_str(&methods);
    out
}

/// Every name `_types.py` defines, sorted.
fn type_names(api: &Api) -> Vec<&str> {
    let mut names: Vec<&str> = api.defs.iter().map(|d| d.name.as_str()).collect();
    names.extend(["ProgressCallback", "StrPath"]);
    names.sort_unstable();
    names
}

const HEADER: &str = r#""""Typed methods of every cc-search operation.

Generated from the operation table (``cc_search.OPERATIONS`` in the core, the JSON Schemas
:func:`cc_search.operations` returns) by ``make bindings``: do not edit. The drift test
``cargo test -p cc-search --test it -- bindings_generated`` fails when this file is not what the
table gives. :class:`cc_search.Engine` inherits :class:`EngineOperations`; the types are in
``_types.py``, loaded only when one is used at run time.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, cast

"#;

const TYPES_HEADER: &str = r#""""The request and result types of every cc-search operation, as TypedDicts.

Generated from the operation table by ``make bindings`` (with ``_operations.py``): do not
edit. Reach them as ``cc_search.<Name>``: the package loads this module on first use.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import {typing}Literal, TypedDict, Union

"#;

const MIXIN: &str = r#"

# ── the methods ──


class EngineOperations:
    """A typed method for every operation: :meth:`call` with the operation's name, its
    parameters as arguments (``None`` or absent: the default) and its typed result."""

    __slots__ = ()

    def call(
        self,
        op: str,
        params: Mapping[str, Any] | None = None,
        *,
        progress: ProgressCallback | None = None,
    ) -> dict[str, Any]:
        """Run the operation ``op`` with ``params``; :class:`cc_search.Engine` implements it."""
        raise NotImplementedError
"#;

const HELPERS: &str = r#"

def _paths(value: StrPath | Iterable[StrPath]) -> list[str]:
    """One path or several, as a list of strings."""
    if isinstance(value, (str, os.PathLike)):
        return [os.fsdecode(value)]
    return [os.fsdecode(item) for item in value]


def _strings(value: str | Iterable[str]) -> list[str]:
    """One string or several, as a list."""
    return [value] if isinstance(value, str) else list(value)


def _string_list(name: str, value: Iterable[str]) -> list[str]:
    """A list of strings; one string is refused (its characters are not what was meant)."""
    if isinstance(value, str):
        raise TypeError(f"{name} must be a list of strings, not one string")
    return list(value)
"#;

fn render_def(out: &mut String, def: &Def) {
    match &def.body {
        Body::Alias { ty, values } => {
            let mut doc = flow_with(&def.doc, WIDTH - 3, rst);
            if !values.is_empty() {
                doc.push(String::new());
                for (value, text) in values {
                    let item = format!("- ``\"{value}\"``: {}", rst(&one_line(text)));
                    doc.extend(wrap(&item, WIDTH - 3));
                }
            }
            for line in doc {
                writeln!(out, "{}", format!("#: {line}").trim_end()).unwrap();
            }
            writeln!(out, "{} = {}", def.name, runtime_ty(ty)).unwrap();
        }
        Body::Struct(fields) => {
            for field in fields {
                assert!(
                    is_python_identifier(&field.key),
                    "`{}.{}`: not a Python identifier; TypedDict's functional form is not \
                     generated yet",
                    def.name,
                    field.key
                );
            }
            let required: Vec<&Field> = fields.iter().filter(|f| f.required).collect();
            let optional: Vec<&Field> = fields.iter().filter(|f| !f.required).collect();
            if !required.is_empty() && !optional.is_empty() {
                let base = format!("_{}Required", def.name);
                writeln!(out, "class {base}(TypedDict):").unwrap();
                for field in &required {
                    render_field(out, field);
                }
                write!(out, "\n\nclass {}({base}, total=False):\n", def.name).unwrap();
                docstring(out, &def.doc, "    ");
                for field in &optional {
                    render_field(out, field);
                }
            } else {
                let total = if required.is_empty() && !optional.is_empty() {
                    ", total=False"
                } else {
                    ""
                };
                writeln!(out, "class {}(TypedDict{total}):", def.name).unwrap();
                docstring(out, &def.doc, "    ");
                if fields.is_empty() {
                    out.push_str("    pass\n");
                }
                for field in fields {
                    render_field(out, field);
                }
            }
        }
    }
}

/// `doc` as a docstring at `indent`, followed by an empty line; nothing when empty.
fn docstring(out: &mut String, doc: &str, indent: &str) {
    let lines = flow_with(doc, WIDTH - indent.len() - 6, rst);
    if lines.is_empty() {
        return;
    }
    write_docstring(out, &lines, indent);
    out.push('\n');
}

fn write_docstring(out: &mut String, lines: &[String], indent: &str) {
    let quoted: Vec<String> = lines.iter().map(|l| escape(l)).collect();
    if quoted.len() == 1 && indent.len() + quoted[0].len() + 6 <= WIDTH {
        writeln!(out, "{indent}\"\"\"{}\"\"\"", quoted[0]).unwrap();
        return;
    }
    writeln!(out, "{indent}\"\"\"{}", quoted[0]).unwrap();
    for line in &quoted[1..] {
        if line.is_empty() {
            out.push('\n');
        } else {
            writeln!(out, "{indent}{line}").unwrap();
        }
    }
    writeln!(out, "{indent}\"\"\"").unwrap();
}

fn escape(line: &str) -> String {
    line.replace('\\', "\\\\").replace("\"\"\"", "\\\"\\\"\\\"")
}

fn render_field(out: &mut String, field: &Field) {
    let ty = annotation(&field.ty, field.nullable);
    // A one-letter key of the wire format that ruff finds ambiguous as a name.
    let noqa = if ["l", "O", "I"].contains(&field.key.as_str()) {
        "  # noqa: E741"
    } else {
        ""
    };
    writeln!(out, "    {}: {ty}{noqa}", field.key).unwrap();
    let lines = flow_with(&field.doc, WIDTH - 10, rst);
    if !lines.is_empty() {
        write_docstring(out, &lines, "    ");
    }
}

/// A type in an annotation (a string, with `from __future__ import annotations`).
fn annotation(ty: &Ty, nullable: bool) -> String {
    let base = ty_text(ty, false);
    if nullable {
        format!("{base} | None")
    } else {
        base
    }
}

/// A type evaluated when the module loads (an alias): `typing` forms, names quoted.
fn runtime_ty(ty: &Ty) -> String {
    ty_text(ty, true)
}

fn ty_text(ty: &Ty, runtime: bool) -> String {
    match ty {
        Ty::Any => "Any".into(),
        Ty::Object => "dict[str, Any]".into(),
        Ty::Str => "str".into(),
        Ty::Int => "int".into(),
        Ty::Float => "float".into(),
        Ty::Bool => "bool".into(),
        Ty::True => "Literal[True]".into(),
        Ty::Null => "None".into(),
        Ty::Lits(values) => {
            let values: Vec<String> = values.iter().map(|v| format!("\"{v}\"")).collect();
            format!("Literal[{}]", values.join(", "))
        }
        Ty::List(items) => format!("list[{}]", ty_text(items, runtime)),
        Ty::Map(values) => format!("dict[str, {}]", ty_text(values, runtime)),
        Ty::Named(name) if runtime => format!("\"{name}\""),
        Ty::Named(name) => name.clone(),
        Ty::Union(tys) => {
            let parts: Vec<String> = tys.iter().map(|t| ty_text(t, runtime)).collect();
            if runtime {
                format!("Union[{}]", parts.join(", "))
            } else {
                parts.join(" | ")
            }
        }
    }
}

/// How a parameter's value becomes JSON.
enum Convert {
    /// As it is.
    Plain,
    /// `os.fsdecode`.
    Path,
    /// One path or several → a list.
    Paths,
    /// One string or several → a list.
    Strings,
    /// A list of strings; one string refused.
    StringList,
    /// Any iterable → a list.
    List,
}

/// Whether `ty` holds strings: a string, a set of strings, or a name for either.
fn stringy(api: &Api, ty: &Ty) -> bool {
    match ty {
        Ty::Str | Ty::Lits(_) => true,
        Ty::Named(name) => match &api.def(name).body {
            Body::Alias { ty, .. } => stringy(api, ty),
            Body::Struct(_) => false,
        },
        _ => false,
    }
}

/// The strings a closed set allows (`ty`, or its items), if it is one.
fn string_set(api: &Api, ty: &Ty) -> Option<Vec<String>> {
    match ty {
        Ty::Lits(values) => Some(values.clone()),
        Ty::List(items) => string_set(api, items),
        Ty::Named(name) => match &api.def(name).body {
            Body::Alias { ty, .. } => string_set(api, ty),
            Body::Struct(_) => None,
        },
        _ => None,
    }
}

/// A parameter's type as Python callers give it: a closed set of strings is `str` (the
/// core checks the value, and callers pass strings from command lines and configuration,
/// which type checkers know only as `str`); the docstring lists the values.
fn input_ty(api: &Api, ty: &Ty) -> String {
    match ty {
        Ty::List(items) => format!("list[{}]", input_ty(api, items)),
        _ if stringy(api, ty) => "str".into(),
        _ => ty_text(ty, false),
    }
}

/// The parameter's annotation (without `| None`) and conversion.
fn param_type(api: &Api, param: &Param) -> (String, Convert) {
    let ty = &param.field.ty;
    // One item or a list of them (`dir`, `exclude` of grep.search).
    let one_or_many = match ty {
        Ty::Union(tys) if tys.len() == 2 => match (&tys[0], &tys[1]) {
            (one, Ty::List(items)) if **items == *one => Some(one),
            _ => None,
        },
        Ty::List(items) => Some(&**items),
        _ => None,
    };
    match (param.path, one_or_many) {
        (PathKind::Many, _) | (PathKind::One, Some(_)) => {
            ("StrPath | Iterable[StrPath]".into(), Convert::Paths)
        }
        (PathKind::One, None) => ("StrPath".into(), Convert::Path),
        (PathKind::No, Some(item)) if stringy(api, item) => {
            let item = input_ty(api, item);
            if param.arg == Some(ArgKind::Required) && !matches!(ty, Ty::Union(_)) {
                (format!("Iterable[{item}]"), Convert::StringList)
            } else {
                (format!("{item} | Iterable[{item}]"), Convert::Strings)
            }
        }
        (PathKind::No, Some(item)) => (format!("Iterable[{}]", input_ty(api, item)), Convert::List),
        (PathKind::No, None) => (input_ty(api, ty), Convert::Plain),
    }
}

fn convert(convert: &Convert, name: &str) -> String {
    match convert {
        Convert::Plain => name.to_string(),
        Convert::Path => format!("os.fsdecode({name})"),
        Convert::Paths => format!("_paths({name})"),
        Convert::Strings => format!("_strings({name})"),
        Convert::StringList => format!("_string_list(\"{name}\", {name})"),
        Convert::List => format!("list({name})"),
    }
}

/// A boolean parameter's default: the schema's, else false.
fn bool_default(field: &Field) -> Option<bool> {
    if field.ty != Ty::Bool || field.nullable {
        return None;
    }
    Some(
        field
            .default
            .as_ref()
            .and_then(Value::as_bool)
            .unwrap_or(false),
    )
}

fn render_method(out: &mut String, api: &Api, method: &Method) {
    let returns = match &method.returns {
        Some(field) => annotation(&field.ty, field.nullable),
        None => method.response.clone(),
    };
    // The signature.
    let mut params = vec!["self".to_string()];
    let positional: Vec<&Param> = method.py_positional().collect();
    for param in &positional {
        let (ty, _) = param_type(api, param);
        params.push(match param.arg {
            Some(ArgKind::Required) => format!("{}: {ty}", param.py_name),
            _ => format!("{}: {ty} | None = None", param.py_name),
        });
    }
    let keywords: Vec<&Param> = method.params.iter().filter(|p| p.arg.is_none()).collect();
    if !keywords.is_empty() || method.progress {
        params.push("*".into());
    }
    for param in &keywords {
        let (ty, _) = param_type(api, param);
        params.push(match bool_default(&param.field) {
            Some(default) => format!("{}: bool = {}", param.py_name, python_bool(default)),
            None => format!("{}: {ty} | None = None", param.py_name),
        });
    }
    if method.progress {
        params.push("progress: ProgressCallback | None = None".into());
    }
    let signature = format!(
        "    def {}({}) -> {returns}:",
        method.py_name,
        params.join(", ")
    );
    if signature.len() <= WIDTH {
        writeln!(out, "{signature}").unwrap();
    } else {
        writeln!(out, "    def {}(", method.py_name).unwrap();
        for param in &params {
            writeln!(out, "        {param},").unwrap();
        }
        writeln!(out, "    ) -> {returns}:").unwrap();
    }

    // The docstring: the summary, each parameter's description, the operation.
    let mut doc = flow_with(method.summary, WIDTH - 14, rst);
    let documented: Vec<&Param> = positional
        .iter()
        .copied()
        .chain(keywords.iter().copied())
        .collect();
    if !documented.is_empty() || method.progress {
        doc.push(String::new());
        doc.push("Args:".into());
        for param in &documented {
            let mut text = format!("{}: {}", param.py_name, rst(&one_line(&param.field.doc)));
            if let Some(values) = string_set(api, &param.field.ty) {
                let values: Vec<String> = values.iter().map(|v| format!("``\"{v}\"``")).collect();
                write!(text, " One of {}.", values.join(", ")).unwrap();
            }
            push_arg(&mut doc, &text);
        }
        if method.progress {
            push_arg(
                &mut doc,
                "progress: Called as ``progress(stage, done, total)`` while the \
                operation reports progress (see :data:`ProgressCallback`).",
            );
        }
    }
    doc.push(String::new());
    match &method.returns {
        Some(field) => doc.push(format!(
            "Operation ``{}``; returns the result's ``{}``.",
            method.op, field.key
        )),
        None => doc.push(format!("Operation ``{}``.", method.op)),
    }
    write_docstring(out, &doc, "        ");

    // The body.
    let mut first = Vec::new();
    let mut body = Vec::new();
    for param in positional.iter().chain(keywords.iter()) {
        let (_, how) = param_type(api, param);
        let key = &param.field.key;
        let name = &param.py_name;
        if param.arg == Some(ArgKind::Required) {
            first.push(format!("\"{key}\": {}", convert(&how, name)));
            continue;
        }
        match bool_default(&param.field).filter(|_| param.arg.is_none()) {
            Some(false) => {
                body.push(format!("if {name}:"));
                body.push(format!("    params[\"{key}\"] = True"));
            }
            Some(true) => {
                body.push(format!("if not {name}:"));
                body.push(format!("    params[\"{key}\"] = False"));
            }
            None => {
                body.push(format!("if {name} is not None:"));
                body.push(format!("    params[\"{key}\"] = {}", convert(&how, name)));
            }
        }
    }
    let params_line = format!("params: dict[str, Any] = {{{}}}", first.join(", "));
    if params_line.len() + 8 <= WIDTH {
        writeln!(out, "        {params_line}").unwrap();
    } else {
        writeln!(out, "        params: dict[str, Any] = {{").unwrap();
        for item in &first {
            writeln!(out, "            {item},").unwrap();
        }
        writeln!(out, "        }}").unwrap();
    }
    for line in body {
        writeln!(out, "        {line}").unwrap();
    }
    let progress = if method.progress {
        ", progress=progress"
    } else {
        ""
    };
    let call = format!("self.call(\"{}\", params{progress})", method.op);
    let ret = match &method.returns {
        Some(field) => format!("return cast(\"{returns}\", {call}[\"{}\"])", field.key),
        None => format!("return cast(\"{returns}\", {call})"),
    };
    if ret.len() + 8 <= WIDTH {
        writeln!(out, "        {ret}").unwrap();
    } else {
        let (cast_to, inner) = match &method.returns {
            Some(field) => (
                format!("\"{returns}\""),
                format!("{call}[\"{}\"]", field.key),
            ),
            None => (format!("\"{returns}\""), call),
        };
        writeln!(
            out,
            "        return cast(\n            {cast_to},\n            {inner},\n        )"
        )
        .unwrap();
    }
}

/// An `Args:` entry: `name: text`, continuation lines indented.
fn push_arg(doc: &mut Vec<String>, text: &str) {
    let width = WIDTH - 8 - 4 - 4;
    for (i, line) in wrap(text, width).into_iter().enumerate() {
        doc.push(if i == 0 {
            format!("    {line}")
        } else {
            format!("        {line}")
        });
    }
}

fn python_bool(value: bool) -> &'static str {
    if value { "True" } else { "False" }
}
