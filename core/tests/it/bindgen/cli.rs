//! `bindings/python/python/cc_search/_cli_table.py`: the `cc-search` command line as data,
//! every command with its options, their types and help, from the operation table (each
//! command's request schema) and [`hints::COMMANDS`]. `cc_search.cli` builds its parsers
//! from it and runs the commands; the printers stay hand-written.

use std::collections::BTreeSet;
use std::fmt::Write;

use super::hints::{self, Json, Nargs, Opt, Own, Progress};
use super::model::{Api, Body, Field, Method, Ty};
use super::text::one_line;

/// Longest line (ruff's `line-length`).
const WIDTH: usize = 100;

/// What every `-C/--project-dir` help ends with.
const PROJECT_DEFAULT: &str = "(default: $CLAUDE_PROJECT_DIR, else the current directory).";

/// A parameter as the table gives it to Python: `(keyword, value)` pairs, the defaults
/// left out.
struct Param {
    dest: String,
    args: Vec<(&'static str, String)>,
    /// Its help is its field's description.
    from_doc: bool,
}

pub fn render(api: &Api) -> String {
    let mut out = String::from(HEADER);
    out.push_str(
        "#: The command groups and their help.\nGROUPS: tuple[tuple[str, str], ...] = (\n",
    );
    for group in hints::GROUPS {
        let entry = format!("({}, {}),", py(group.name), py(group.help));
        push_wrapped(&mut out, &entry, "    ");
    }
    out.push_str(
        ")\n\n#: Every command, in the order the help lists them.\n\
         COMMANDS: tuple[dict[str, Any], ...] = (\n",
    );
    let mut names = BTreeSet::new();
    for command in hints::COMMANDS {
        assert!(
            names.insert(command.name),
            "two commands `{}`",
            command.name
        );
        if let Some((group, _)) = command.name.split_once(' ') {
            assert!(
                hints::GROUPS.iter().any(|g| g.name == group),
                "command `{}` is in no group of hints::GROUPS",
                command.name
            );
        }
        render_command(&mut out, api, command);
    }
    out.push_str(")\n");
    out
}

fn render_command(out: &mut String, api: &Api, command: &hints::Command) {
    let method = command.op.map(|op| {
        api.methods
            .iter()
            .find(|m| m.op == op)
            .unwrap_or_else(|| panic!("command `{}`: no operation `{op}`", command.name))
    });
    let help = match (command.help, method) {
        (Some(help), _) => help.to_string(),
        (None, Some(m)) => m.summary.to_string(),
        (None, None) => panic!("command `{}` has neither help nor operation", command.name),
    };
    let params = params(api, command, method);
    for (a, b) in command.excludes.iter().copied() {
        for dest in [a, b] {
            assert!(
                params.iter().any(|p| p.dest == dest),
                "command `{}` excludes `{dest}`, which it does not have",
                command.name
            );
        }
    }
    for dest in command.one_of {
        assert!(
            params.iter().any(|p| p.dest == *dest),
            "command `{}`: one_of names `{dest}`, which it does not have",
            command.name
        );
    }

    let mut fields: Vec<(&str, String)> = vec![("", py(command.name))];
    if let Some(op) = command.op {
        fields.push(("op", py(op)));
    }
    fields.push(("help", py(&help)));
    let (json, json_help) = command.json;
    let (json_name, json_help) = match json {
        Json::None => ("none", String::new()),
        Json::Plain => ("plain", format!("Print the result as JSON: {json_help}.")),
        Json::Compact => (
            "compact",
            format!("Print the result as compact JSON on one line: {json_help}."),
        ),
        Json::Always => ("always", json_help.to_string()),
    };
    fields.push(("json", py(json_name)));
    if !json_help.is_empty() {
        fields.push(("json_help", py(&json_help)));
    }
    if command.agent {
        let shape = cc_search::OPERATIONS
            .iter()
            .find(|op| Some(op.name) == command.op)
            .map(|op| op.agent);
        assert!(
            shape.is_some_and(|s| !s.keys.is_empty() || !s.omit.is_empty() || s.line_ranges),
            "command `{}` offers --compact, but its operation has no agent shape",
            command.name
        );
        fields.push(("agent", "True".into()));
    }
    match command.progress {
        Progress::None => {}
        Progress::Keeps => fields.push(("progress", py("keeps"))),
        Progress::AtEnd => fields.push(("progress", py("at-end"))),
    }
    if !command.excludes.is_empty() {
        let pairs: Vec<String> = command
            .excludes
            .iter()
            .map(|(a, b)| format!("({}, {})", py(a), py(b)))
            .collect();
        fields.push(("excludes", tuple(&pairs)));
    }
    if !command.one_of.is_empty() {
        let names: Vec<String> = command.one_of.iter().map(|d| py(d)).collect();
        fields.push(("one_of", tuple(&names)));
    }

    out.push_str("    {\n");
    for (key, value) in fields {
        let key = if key.is_empty() { "name" } else { key };
        push_wrapped(out, &format!("\"{key}\": {value},"), "        ");
    }
    out.push_str("        \"params\": (\n");
    for param in &params {
        let mut args = vec![format!("\"dest\": {}", py(&param.dest))];
        args.extend(param.args.iter().map(|(k, v)| format!("\"{k}\": {v}")));
        push_dict(out, &args, "            ");
    }
    out.push_str("        ),\n    },\n");
}

/// The command's parameters: the positional arguments, then the options with a hint, then
/// the request's other fields (those not skipped) in its order.
fn params(api: &Api, command: &hints::Command, method: Option<&Method>) -> Vec<Param> {
    let fields: Vec<&Field> = method
        .map(|m| m.params.iter().map(|p| &p.field).collect())
        .unwrap_or_default();
    let field = |key: &str| fields.iter().copied().find(|f| f.key == key);
    for key in command.skip {
        assert!(
            field(key).is_some(),
            "command `{}` skips `{key}`, which its request lacks",
            command.name
        );
        assert!(
            !command.opts.iter().any(|o| o.key == *key),
            "command `{}` both offers and skips `{key}`",
            command.name
        );
    }
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    let positional = command.opts.iter().filter(|o| o.flags.is_empty());
    let options = command.opts.iter().filter(|o| !o.flags.is_empty());
    for opt in positional.chain(options) {
        assert!(
            seen.insert(opt.key),
            "command `{}`: `{}` twice",
            command.name,
            opt.key
        );
        let field = match opt.own {
            Some(_) => {
                assert!(
                    field(opt.key).is_none() || command.op.is_none(),
                    "command `{}`: its own option `{}` is a request field",
                    command.name,
                    opt.key
                );
                None
            }
            None => Some(field(opt.key).unwrap_or_else(|| {
                panic!(
                    "command `{}`: `{}` is not a field of its request",
                    command.name, opt.key
                )
            })),
        };
        out.push(param(api, command, opt.key, opt.flags, opt, field));
    }
    for f in &fields {
        if !seen.contains(f.key.as_str()) && !command.skip.contains(&f.key.as_str()) {
            let flag = format!("--{}", f.key.replace('_', "-"));
            out.push(param(
                api,
                command,
                &f.key,
                &[&flag],
                &hints::NO_HINT,
                Some(f),
            ));
        }
    }
    // A description names the request's fields (`recursive`); here they are options.
    let spelled: Vec<(String, String)> = out
        .iter()
        .filter_map(|p| {
            let flags = p.args.iter().find(|(k, _)| *k == "flags")?;
            let long = flags.1.split('"').nth(1)?;
            Some((format!("`{}`", p.dest), long.to_string()))
        })
        .collect();
    for p in out.iter_mut().filter(|p| p.from_doc) {
        if let Some((_, help)) = p.args.iter_mut().find(|(k, _)| *k == "help") {
            for (field, flag) in &spelled {
                *help = help.replace(field, flag);
            }
            *help = help.replace('`', "");
        }
    }
    let mut spellings = BTreeSet::new();
    for p in &out {
        for (k, v) in &p.args {
            if *k == "flags" || *k == "old" {
                for spelling in v.split('"').skip(1).step_by(2) {
                    assert!(
                        spellings.insert(spelling.to_string()),
                        "command `{}`: `{spelling}` twice",
                        command.name
                    );
                }
            }
        }
    }
    out
}

/// How a value of this type is read: its kind, whether it is a list, its choices.
fn value_kind(api: &Api, ty: &Ty) -> (&'static str, bool, Vec<String>) {
    match ty {
        Ty::Str => ("str", false, Vec::new()),
        Ty::Int => ("int", false, Vec::new()),
        Ty::Bool => ("flag", false, Vec::new()),
        Ty::List(item) => {
            let (kind, _, choices) = value_kind(api, item);
            (kind, true, choices)
        }
        // One value or a list of them: a list.
        Ty::Union(tys) if tys.iter().any(|t| matches!(t, Ty::List(_))) => {
            let list = tys.iter().find(|t| matches!(t, Ty::List(_))).unwrap();
            value_kind(api, list)
        }
        Ty::Lits(values) => ("str", false, values.clone()),
        Ty::Named(name) => match &api.def(name).body {
            Body::Alias { ty, .. } => match ty {
                Ty::Lits(_) => value_kind(api, ty),
                // Text the core reads (`2h`, a date, Unix seconds).
                _ => ("str", false, Vec::new()),
            },
            Body::Struct(_) => panic!("an object `{name}` cannot be a command-line value"),
        },
        other => panic!("no command-line value for {other:?}"),
    }
}

fn param(
    api: &Api,
    command: &hints::Command,
    key: &str,
    flags: &[&str],
    opt: &Opt,
    field: Option<&Field>,
) -> Param {
    let name = command.name;
    let (kind, many, choices) = match (opt.own, field) {
        (Some(Own::Flag), _) => ("flag", false, Vec::new()),
        (Some(Own::OnOff), _) => ("onoff", false, Vec::new()),
        (Some(Own::Str), _) => ("str", false, Vec::new()),
        (Some(Own::Int), _) => ("int", false, Vec::new()),
        (Some(Own::Strs), _) => ("str", true, Vec::new()),
        (None, Some(f)) => {
            let (kind, many, choices) = value_kind(api, &f.ty);
            if kind == "flag" && f.default != Some(serde_json::Value::Bool(false)) {
                panic!(
                    "command `{name}`: the flag `{}` must default to false",
                    f.key
                );
            }
            (kind, many, choices)
        }
        (None, None) => unreachable!(),
    };
    let positional = flags.is_empty();
    let mut args: Vec<(&'static str, String)> = Vec::new();
    if !positional {
        let flags: Vec<String> = flags.iter().map(|f| py(f)).collect();
        args.push(("flags", tuple(&flags)));
    }
    if field.is_none() {
        args.push(("field", "False".into()));
    }
    if kind != "str" {
        args.push(("kind", py(kind)));
    }
    if many {
        args.push(("many", "True".into()));
    }
    if positional {
        let nargs = match (opt.nargs, many) {
            (Nargs::One, false) => None,
            (Nargs::Optional, false) => Some("?"),
            (Nargs::Many, true) => Some("+"),
            (Nargs::Any, true) => Some("*"),
            _ => panic!("command `{name}`: `{}`'s nargs do not fit its type", key),
        };
        if let Some(nargs) = nargs {
            args.push(("nargs", py(nargs)));
        }
    } else {
        assert!(
            opt.nargs == Nargs::One,
            "command `{name}`: nargs are for positional arguments (`{}`)",
            key
        );
    }
    let flag_like = matches!(kind, "flag" | "onoff");
    let metavar = match opt.metavar {
        Some(m) => Some(m.to_string()),
        None if flag_like => None,
        None if kind == "int" => Some("N".to_string()),
        None if positional => Some(key.to_uppercase()),
        None => Some(
            flags[0]
                .trim_start_matches('-')
                .replace('-', "_")
                .to_uppercase(),
        ),
    };
    if let Some(m) = metavar {
        assert!(
            !flag_like,
            "command `{name}`: the flag `{}` takes no value",
            key
        );
        args.push(("metavar", py(&m)));
    }
    let mut help = match (opt.help, field) {
        (Some(h), _) => h.to_string(),
        // Markdown's code spans are plain text on a terminal (a field named in one is
        // an option: see `params`).
        (None, Some(f)) if !f.doc.is_empty() => one_line(&f.doc),
        _ => panic!("command `{name}`: `{}` has no help", key),
    };
    if opt.project {
        help = format!("{help} {PROJECT_DEFAULT}");
    }
    args.push(("help", py(&help)));
    if !choices.is_empty() {
        let values: Vec<String> = choices.iter().map(|c| py(c)).collect();
        args.push(("choices", tuple(&values)));
    }
    if let Some(default) = field
        .and_then(|f| f.default.as_ref())
        .and_then(|d| d.as_str())
    {
        // A default the command line shows (a mode); empty text means "not given".
        if !default.is_empty() && !choices.is_empty() {
            args.push(("default", py(default)));
        }
    }
    for (key, bound) in [("min", opt.min), ("max", opt.max)] {
        if let Some(bound) = bound {
            assert!(
                kind == "int",
                "command `{name}`: a bound on `{}`, which is no number",
                key
            );
            args.push((key, bound.to_string()));
        }
    }
    for (key, on) in [
        ("commas", opt.commas),
        ("stdin", opt.stdin),
        ("nonblank", opt.nonblank),
        ("required", opt.required),
    ] {
        if on {
            args.push((key, "True".into()));
        }
    }
    if opt.commas {
        assert!(
            many,
            "command `{name}`: comma-separated `{}` is no list",
            key
        );
    }
    if let Some(old) = opt.old {
        args.push(("old", py(old)));
    }
    Param {
        dest: key.to_string(),
        args,
        from_doc: opt.help.is_none(),
    }
}

/// A Python string literal.
fn py(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn tuple(items: &[String]) -> String {
    match items {
        [one] => format!("({one},)"),
        _ => format!("({})", items.join(", ")),
    }
}

/// `entry` (a line without its indent) at `indent`; a long string literal in it is split
/// into parenthesised pieces that fit.
fn push_wrapped(out: &mut String, entry: &str, indent: &str) {
    if indent.len() + entry.chars().count() <= WIDTH {
        writeln!(out, "{indent}{entry}").unwrap();
        return;
    }
    // `"key": "…",` or `("a", "…"),`: split the last string literal.
    let start = entry
        .find("\": \"")
        .map(|i| i + 3)
        .or_else(|| entry.rfind(", \"").map(|i| i + 2))
        .unwrap_or_else(|| panic!("no string to split in {entry}"));
    let (head, literal) = entry.split_at(start);
    let end = literal.rfind('"').unwrap() + 1;
    let (literal, tail) = literal.split_at(end);
    writeln!(out, "{indent}{head}(").unwrap();
    for piece in split_literal(&literal[1..literal.len() - 1], WIDTH - indent.len() - 6) {
        writeln!(out, "{indent}    \"{piece}\"").unwrap();
    }
    writeln!(out, "{indent}){tail}").unwrap();
}

/// An escaped string's content in pieces of at most `width` characters, cut after spaces
/// (never inside an escape).
fn split_literal(content: &str, width: usize) -> Vec<String> {
    let mut pieces = Vec::new();
    let mut piece = String::new();
    for word in content.split_inclusive(' ') {
        if !piece.is_empty() && piece.chars().count() + word.chars().count() > width {
            pieces.push(std::mem::take(&mut piece));
        }
        piece.push_str(word);
    }
    if !piece.is_empty() {
        pieces.push(piece);
    }
    pieces
}

/// `{entries…},` on one line when it fits, else one entry a line.
fn push_dict(out: &mut String, entries: &[String], indent: &str) {
    let line = format!("{{{}}},", entries.join(", "));
    if indent.len() + line.chars().count() <= WIDTH {
        writeln!(out, "{indent}{line}").unwrap();
        return;
    }
    writeln!(out, "{indent}{{").unwrap();
    let inner = format!("{indent}    ");
    for entry in entries {
        push_wrapped(out, &format!("{entry},"), &inner);
    }
    writeln!(out, "{indent}}},").unwrap();
}

/// The line before the generated command table in `bin/cc-search.js`.
pub const NODE_BEGIN: &str =
    "// ── the commands, generated from the command-line table by `make bindings`: do not edit ──";
/// The line after it.
pub const NODE_END: &str = "// ── end of the generated commands ──";

/// The npm package's command line (`bin/cc-search.js`): its commands' options as the
/// Python CLI spells them, by kind (`flags`, `values`, `many`: repeatable), and the short
/// spellings (`SHORT`, to their long names).
pub fn render_node() -> String {
    let mut out = String::from("const COMMANDS = {\n");
    let mut short = BTreeSet::new();
    for (name, left_out) in hints::NODE_COMMANDS {
        let command = hints::COMMANDS
            .iter()
            .find(|c| c.name == *name)
            .unwrap_or_else(|| panic!("NODE_COMMANDS: no command `{name}`"));
        let (mut flags, mut values, mut many) = (Vec::new(), Vec::new(), Vec::new());
        for key in *left_out {
            assert!(
                command.opts.iter().any(|o| o.key == *key),
                "NODE_COMMANDS: `{name}` has no option `{key}` to leave out"
            );
        }
        for opt in command.opts.iter().filter(|o| !left_out.contains(&o.key)) {
            let Some(own) = opt.own else {
                panic!("NODE_COMMANDS: `{name}` runs an operation; Node's CLI has none such")
            };
            assert!(
                !opt.flags.is_empty(),
                "NODE_COMMANDS: `{name}` takes arguments"
            );
            let long = opt.flags[0].trim_start_matches("--");
            for spelling in &opt.flags[1..] {
                short.insert(format!("'{spelling}': '{long}'"));
            }
            match own {
                Own::Flag => flags.push(long.to_string()),
                Own::OnOff => {
                    flags.push(long.to_string());
                    flags.push(format!("no-{long}"));
                }
                Own::Str | Own::Int => values.push(long.to_string()),
                Own::Strs => many.push(long.to_string()),
            }
        }
        if command.json.0 != Json::None {
            flags.push("json".to_string());
        }
        let list = |names: &[String]| {
            let quoted: Vec<String> = names.iter().map(|n| format!("'{n}'")).collect();
            format!("[{}]", quoted.join(", "))
        };
        let key = if name.contains(' ') {
            format!("'{name}'")
        } else {
            name.to_string()
        };
        writeln!(
            out,
            "  {key}: {{\n    flags: {},\n    values: {},\n    many: {},\n  }},",
            list(&flags),
            list(&values),
            list(&many)
        )
        .unwrap();
    }
    out.push_str("}\n");
    let short: Vec<String> = short.into_iter().collect();
    writeln!(out, "const SHORT = {{ {} }}", short.join(", ")).unwrap();
    out
}

const HEADER: &str = r#""""The ``cc-search`` command line as data: every command, its options, their types and
help.

Generated from the operation table (each command's request schema) and the command-line
hints (``core/tests/it/bindgen/hints.rs``) by ``make bindings``: do not edit. The drift test
``cargo test -p cc-search --test it -- bindings_generated`` fails when this file is not what
they give. :mod:`cc_search.cli` builds the parsers from it and runs the commands; its
``Command`` and ``Param`` say what each key means (a key left out has their default).
Plain literals, no imports: reading the table costs a command's start-up nothing.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

"#;
