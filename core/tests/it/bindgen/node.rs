//! Node: the methods of `class Engine` in `bindings/node/index.js` (a method per
//! operation and its `Async` twin, between the markers [`JS_BEGIN`] and [`JS_END`]) and
//! `bindings/node/operations.d.ts` (their types and documentation).

use std::fmt::Write;

use super::hints::ArgKind;
use super::model::{Api, Body, Def, Field, Method, Param, Ty};
use super::text::{flow, flow_with, one_line, wrap};

/// Longest line.
const WIDTH: usize = 100;

/// The line before the generated methods in index.js.
pub const JS_BEGIN: &str =
    "  // ── generated from the operation table by `make bindings`: do not edit ──";
/// The line after them.
pub const JS_END: &str = "  // ── end of the generated methods ──";

/// The methods, for `class Engine` (index.js). Each calls `run` or `runAsync`
/// (index.js) with the engine, the operation, the options, the positional arguments and
/// the fields that default to the project directory.
pub fn render_js(api: &Api) -> String {
    let mut out = String::from(
        "  // One method per operation and its Async twin (on a worker thread); their types and\n  \
         // documentation are in operations.d.ts.\n",
    );
    for method in &api.methods {
        out.push('\n');
        let positional: Vec<&Param> = method.js_positional().collect();
        let mut args: Vec<String> = positional.iter().map(|p| p.js_name.clone()).collect();
        args.push("options".into());
        let args = args.join(", ");
        let given: Vec<String> = positional
            .iter()
            .map(|p| match p.arg {
                Some(ArgKind::Optional) => format!("{}: {} ?? undefined", p.field.key, p.js_name),
                _ if p.field.key == p.js_name => p.js_name.clone(),
                _ => format!("{}: {}", p.field.key, p.js_name),
            })
            .collect();
        let mut run = vec![
            "this".to_string(),
            format!("'{}'", method.op),
            "options".into(),
            if given.is_empty() {
                "{}".into()
            } else {
                format!("{{ {} }}", given.join(", "))
            },
        ];
        if !method.project_keys.is_empty() {
            let keys: Vec<String> = method
                .project_keys
                .iter()
                .map(|k| format!("'{k}'"))
                .collect();
            run.push(format!("[{}]", keys.join(", ")));
        }
        let run = run.join(", ");
        let (sync_call, async_call) = match &method.returns {
            Some(field) => (
                format!("run({run}).{}", field.key),
                format!("(await runAsync({run})).{}", field.key),
            ),
            None => (format!("run({run})"), format!("runAsync({run})")),
        };
        for line in flow(&format!("`{}`: {}", method.op, method.summary), WIDTH - 5) {
            writeln!(out, "  // {line}").unwrap();
        }
        writeln!(out, "  {}({args}) {{", method.js_name).unwrap();
        writeln!(out, "    return {sync_call}").unwrap();
        out.push_str("  }\n");
        writeln!(out, "  async {}Async({args}) {{", method.js_name).unwrap();
        writeln!(out, "    return {async_call}").unwrap();
        out.push_str("  }\n");
    }
    for line in out.lines() {
        assert!(
            line.chars().count() <= WIDTH,
            "index.js: line too long: {line}"
        );
    }
    out
}

pub fn render_dts(api: &Api) -> String {
    let mut out = String::from(DTS_HEADER);
    for def in &api.defs {
        if let Some(method) = api.methods.iter().find(|m| m.request == def.name) {
            write!(out, "\n// ── {} ──\n", method.op).unwrap();
        }
        out.push('\n');
        render_def(&mut out, def);
        if let Some(method) = api.methods.iter().find(|m| m.request == def.name) {
            out.push('\n');
            render_options(&mut out, method);
        }
    }

    out.push_str("\n// ── by operation name ──\n\n/** Parameters of each operation, as the core names them (snake_case). */\n");
    out.push_str("export interface OperationParams {\n");
    for method in &api.methods {
        writeln!(out, "  '{}': {}", method.op, method.request).unwrap();
    }
    out.push_str("}\n\n/** Result of each operation. */\nexport interface OperationResponses {\n");
    for method in &api.methods {
        writeln!(out, "  '{}': {}", method.op, method.response).unwrap();
    }
    out.push_str(
        "}\n\n/** The name of an operation known to these types. */\n\
         export type OperationName = keyof OperationParams\n",
    );

    out.push_str(
        "\n// ── the methods ──\n\n/**\n * The methods of `Engine` that run an operation each: its parameters as \
         arguments and\n * `options` (camelCase), its typed result. Each throws a \
         `CcSearchError`; its `Async`\n * twin runs on a worker thread and rejects with one.\n \
         */\nexport interface EngineOperations {\n",
    );
    for (i, method) in api.methods.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        render_method(&mut out, method);
    }
    out.push_str("}\n");
    out
}

const DTS_HEADER: &str =
    "// Types of every cc-search operation and the `Engine` methods that run them.
//
// Generated from the operation table (cc_search::OPERATIONS in the core) by `make bindings`:
// do not edit. `cargo test -p cc-search --test it -- bindings_generated` fails when this file is
// not what the table gives. index.d.ts re-exports it and gives `Engine` these methods.

/**
 * Options of `Engine.callAsync`, also taken by every `…Async` method beside the
 * operation's own.
 */
export interface CallOptions {
  /** Stops the call within a fraction of a second (it rejects with code `cancelled`). */
  signal?: AbortSignal | null
  /**
   * Called on the JS thread as the operation reports progress: `stage` (`walk`, `parse`,
   * `embed`), `done` of `total` units (`total` 0: not known yet).
   */
  onProgress?: ((stage: string, done: number, total: number) => void) | null
}
";

fn render_def(out: &mut String, def: &Def) {
    match &def.body {
        Body::Alias { ty, values } => {
            let mut doc = doc_flow(&def.doc, WIDTH - 3);
            if !values.is_empty() {
                doc.push(String::new());
                for (value, text) in values {
                    doc.extend(wrap(
                        &escape(&format!("- `'{value}'`: {}", one_line(text))),
                        WIDTH - 3,
                    ));
                }
            }
            jsdoc(out, &doc, "");
            writeln!(out, "export type {} = {}", def.name, ts(ty)).unwrap();
        }
        Body::Struct(fields) => {
            jsdoc(out, &doc_flow(&def.doc, WIDTH - 3), "");
            writeln!(out, "export interface {} {{", def.name).unwrap();
            for field in fields {
                render_field(out, &field.key, field, !field.required);
            }
            out.push_str("}\n");
        }
    }
}

fn render_field(out: &mut String, name: &str, field: &Field, optional: bool) {
    jsdoc(out, &doc_flow(&field.doc, WIDTH - 5), "  ");
    let mark = if optional { "?" } else { "" };
    writeln!(out, "  {}{mark}: {}", property(name), field_ty(field)).unwrap();
}

fn field_ty(field: &Field) -> String {
    let ty = ts(&field.ty);
    if field.nullable {
        format!("{} | null", ty)
    } else {
        ty
    }
}

fn render_options(out: &mut String, method: &Method) {
    let positional: Vec<String> = method
        .js_positional()
        .map(|p| format!("`{}`", p.js_name))
        .collect();
    let but = if positional.is_empty() {
        String::new()
    } else {
        format!(" but {}", positional.join(", "))
    };
    let doc = format!(
        "Options of `{}`: the parameters of `{}`{but}, in camelCase.",
        method.js_name, method.op
    );
    jsdoc(out, &doc_flow(&doc, WIDTH - 3), "");
    writeln!(out, "export interface {} {{", method.options).unwrap();
    for param in method.options() {
        render_field(out, &param.js_name, &param.field, true);
    }
    out.push_str("}\n");
}

fn render_method(out: &mut String, method: &Method) {
    let positional: Vec<&Param> = method.js_positional().collect();
    let mut doc = doc_flow(method.summary, WIDTH - 5);
    doc.push(String::new());
    for param in &positional {
        let text = format!(
            "@param {} {}",
            param.js_name,
            escape(&one_line(&param.field.doc))
        );
        doc.extend(hang(&text, WIDTH - 5));
    }
    let options = format!(
        "@param options The other parameters (`{}`).",
        method.options
    );
    doc.extend(hang(&options, WIDTH - 5));
    if let Some(field) = &method.returns {
        doc.push(format!("@returns The result's `{}`.", field.key));
    }
    doc.push(format!("@see Operation `{}`.", method.op));
    jsdoc(out, &doc, "  ");
    let mut args: Vec<String> = positional
        .iter()
        .map(|p| {
            let mark = if p.arg == Some(ArgKind::Optional) {
                "?"
            } else {
                ""
            };
            format!("{}{mark}: {}", p.js_name, field_ty(&p.field))
        })
        .collect();
    args.push(format!("options?: {}", method.options));
    let returns = match &method.returns {
        Some(field) => field_ty(field),
        None => method.response.clone(),
    };
    signature(out, &method.js_name, &args, &returns);
    writeln!(
        out,
        "  /** Like {{@link EngineOperations.{}}}, on a worker thread; `options` may add\n   * {{@link CallOptions}}. */",
        method.js_name
    )
    .unwrap();
    let mut async_args = args.clone();
    if let Some(last) = async_args.last_mut() {
        *last = format!("options?: {} & CallOptions", method.options);
    }
    signature(
        out,
        &format!("{}Async", method.js_name),
        &async_args,
        &format!("Promise<{returns}>"),
    );
}

/// A method's declaration, its parameters one a line when they do not fit on one.
fn signature(out: &mut String, name: &str, args: &[String], returns: &str) {
    let line = format!("  {name}({}): {returns}", args.join(", "));
    if line.chars().count() <= WIDTH {
        writeln!(out, "{line}").unwrap();
        return;
    }
    writeln!(out, "  {name}(").unwrap();
    for arg in args {
        writeln!(out, "    {arg},").unwrap();
    }
    writeln!(out, "  ): {returns}").unwrap();
}

/// Doc paragraphs wrapped for a JSDoc comment (`*/` escaped).
fn doc_flow(doc: &str, width: usize) -> Vec<String> {
    flow_with(doc, width, escape)
}

fn escape(text: &str) -> String {
    text.replace("*/", "*\\/")
}

/// A `@param` line and its continuation lines, indented by two.
fn hang(text: &str, width: usize) -> Vec<String> {
    wrap(text, width)
        .into_iter()
        .enumerate()
        .map(|(i, l)| if i == 0 { l } else { format!("  {l}") })
        .collect()
}

/// A JSDoc comment of `lines` at `indent`; nothing when there are none.
fn jsdoc(out: &mut String, lines: &[String], indent: &str) {
    match lines {
        [] => {}
        [one] if indent.len() + one.len() + 7 <= WIDTH => {
            writeln!(out, "{indent}/** {one} */").unwrap();
        }
        _ => {
            writeln!(out, "{indent}/**").unwrap();
            for line in lines {
                if line.is_empty() {
                    writeln!(out, "{indent} *").unwrap();
                } else {
                    writeln!(out, "{indent} * {line}").unwrap();
                }
            }
            writeln!(out, "{indent} */").unwrap();
        }
    }
}

fn property(name: &str) -> String {
    let mut chars = name.chars();
    let ok = matches!(chars.next(), Some(c) if c == '_' || c == '$' || c.is_ascii_alphabetic())
        && chars.all(|c| c == '_' || c == '$' || c.is_ascii_alphanumeric());
    if ok {
        name.to_string()
    } else {
        format!("'{name}'")
    }
}

fn ts(ty: &Ty) -> String {
    match ty {
        Ty::Any => "unknown".into(),
        Ty::Object => "Record<string, unknown>".into(),
        Ty::Str => "string".into(),
        Ty::Int | Ty::Float => "number".into(),
        Ty::Bool => "boolean".into(),
        Ty::True => "true".into(),
        Ty::Null => "null".into(),
        Ty::Lits(values) => {
            let values: Vec<String> = values.iter().map(|v| format!("'{v}'")).collect();
            values.join(" | ")
        }
        Ty::List(items) => match **items {
            Ty::Lits(_) | Ty::Union(_) => format!("Array<{}>", ts(items)),
            _ => format!("{}[]", ts(items)),
        },
        Ty::Map(values) => format!("Record<string, {}>", ts(values)),
        Ty::Named(name) => name.clone(),
        Ty::Union(tys) => {
            let parts: Vec<String> = tys.iter().map(ts).collect();
            parts.join(" | ")
        }
    }
}
