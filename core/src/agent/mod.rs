//! What an agent reads: an operation's full, typed result turned into the answer an agent
//! pays for — at the MCP server and the CLI's `--compact` — in one place.
//!
//! Operations return their results in full, with self-explaining names (`name`, `kind`,
//! `path`, `start_line`), whatever surface asks: a library user reads them as they are.
//! An agent reads every byte into its context, so here the same result is made cheaper,
//! as each operation declares beside itself ([`Operation::AGENT`](crate::ops::Operation::AGENT),
//! an [`AgentShape`]): fields it has no use for left out, each file listed once, line
//! ranges as one string, shorter keys ([`view`]); then fields that say nothing (`null`,
//! an empty `warnings`) left out and scores at four significant digits; then the token
//! budget ([`fit`], with [`budget`]'s cuts), which says when it cut and how to get more.
//! ripgrep keeps what matched (`grep-searcher`) apart from how it is printed
//! (`grep-printer`) the same way.
//!
//! ```
//! use cc_search::agent;
//! use serde_json::json;
//!
//! let result = json!({"query": "Engine", "hits": [
//!     {"id": 7, "name": "Engine", "kind": "struct", "path": "src/engine.rs",
//!      "start_line": 10, "end_line": 40},
//!     {"id": 9, "name": "open", "kind": "fn", "path": "src/lib.rs",
//!      "start_line": 3, "end_line": 5}]});
//! let text = agent::answer("code.search_symbols", &result.to_string(), None).unwrap();
//! assert_eq!(
//!     text,
//!     r#"{"q":"Engine","hits":[{"id":7,"n":"Engine","k":"struct","fi":0,"l":"10-40"},{"id":9,"n":"open","k":"fn","fi":1,"l":"3-5"}],"_f":["src/engine.rs","src/lib.rs"]}"#
//! );
//! ```

pub mod budget;

use serde_json::{Map, Value, json};

use crate::error::{Error, Result};
use crate::ops::{AgentShape, PathTable};

pub use budget::BYTES_PER_TOKEN;

/// The key of the file table [`PathTable`] adds to an answer.
const FILE_TABLE: &str = "_f";

/// `result` as an agent reads it, following `shape` (see [`AgentShape`] for the steps),
/// then without fields that say nothing (`null`, an empty `warnings`) and with scores at
/// four significant digits.
pub fn view(shape: &AgentShape, result: &mut Value) {
    if let (Value::Object(map), Some(key)) = (&mut *result, shape.outline)
        && let Some(Value::Array(symbols)) = map.get(key)
    {
        let mut lines = Vec::new();
        outline(symbols, 0, &mut lines);
        map.insert(key.to_string(), Value::Array(lines));
    }
    if let Value::Object(map) = result {
        for path in shape.omit {
            omit(map, path);
        }
        if let Some(table) = &shape.paths {
            list_paths(map, table);
        }
    }
    if shape.inherit_path {
        inherit_path(result, None);
    }
    if shape.line_ranges {
        line_ranges(result);
    }
    if !shape.keys.is_empty() {
        rename_keys(result, shape.keys);
    }
    compact(result);
}

/// Append the outline lines of `symbols` at `depth` ([`AgentShape::outline`]) to `lines`.
/// A writer made beside its reader (Ruby's `attr_accessor :a`: `a` and `a=`, same kind
/// and lines) shares the reader's line: `9 method a #157 a= #158`.
fn outline(symbols: &[Value], depth: usize, lines: &mut Vec<Value>) {
    let mut at = 0;
    while let Some(symbol) = symbols.get(at) {
        at += 1;
        let field = |key: &str| symbol.get(key).cloned().unwrap_or(Value::Null);
        let (start, end) = (field("start_line"), field("end_line"));
        let span = if start == end || end.is_null() {
            start.to_string()
        } else {
            format!("{start}-{end}")
        };
        let mut line = format!(
            "{:indent$}{span} {} #{}",
            "",
            outline_label(symbol),
            field("id"),
            indent = depth * 2
        );
        if let Some(writer) = symbols.get(at).filter(|next| is_writer_of(next, symbol)) {
            at += 1;
            let name = writer.get("name").and_then(Value::as_str).unwrap_or("?");
            let id = writer.get("id").cloned().unwrap_or(Value::Null);
            line.push_str(&format!(" {name} #{id}"));
        }
        lines.push(Value::String(line));
        if let Some(Value::Array(children)) = symbol.get("children") {
            outline(children, depth + 1, lines);
        }
    }
}

/// Whether `next` is the writer `a=` of `reader` `a`, made with it (same kind and lines,
/// nothing inside).
fn is_writer_of(next: &Value, reader: &Value) -> bool {
    let text = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).map(str::to_string);
    let same = |key: &str| next.get(key) == reader.get(key);
    let childless = next
        .get("children")
        .and_then(Value::as_array)
        .is_none_or(Vec::is_empty);
    text(next, "name")
        .zip(text(reader, "name"))
        .is_some_and(|(w, r)| w == format!("{r}="))
        && same("kind")
        && same("start_line")
        && same("end_line")
        && childless
}

/// What an outline line calls a symbol: its kind and name, or for an `impl` the head of
/// its signature, which names the trait it implements (`impl<S> Clone for Router<S>`
/// rather than `impl Router`) and leaves out the `where` clause. See [`outline_parts`].
pub fn outline_label(symbol: &Value) -> String {
    let (kind, name) = outline_parts(symbol);
    format!("{kind} {name}")
}

/// [`outline_label`] in its two parts, the kind and the name (`impl<S>` and `Clone for
/// Router<S>`), as a tree that colours them apart shows them.
pub fn outline_parts(symbol: &Value) -> (String, String) {
    let text = |key: &str| symbol.get(key).and_then(Value::as_str);
    let kind = text("kind").unwrap_or("?");
    let name = text("name").unwrap_or("?");
    let Some(signature) = text("signature").filter(|s| kind == "impl" && s.starts_with("impl"))
    else {
        return (kind.to_string(), name.to_string());
    };
    let head = signature
        .split_once(" where ")
        .map_or(signature, |(head, _)| head)
        .trim_end_matches([' ', '{']);
    // `impl<S>`: up to the `>` that closes the generics (not the arrow of `Fn() -> R`).
    let mut kind_end = "impl".len();
    if head.starts_with("impl<") {
        let mut depth = 0usize;
        let mut before = ' ';
        for (at, c) in head.char_indices() {
            match c {
                '<' => depth += 1,
                '>' if before != '-' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        kind_end = at + 1;
                        break;
                    }
                }
                _ => {}
            }
            before = c;
        }
    }
    (
        head[..kind_end].to_string(),
        head[kind_end..].trim().to_string(),
    )
}

/// Where an answer that pages through `list` ([`AgentShape::paged`]) and was cut goes
/// on: "`offset: 412` gives the next 800 of 1212" (its `offset`, what is left of the
/// list, its `total`); none when nothing is left, or nothing was shown.
fn next_page(map: &Map<String, Value>, list: &str) -> Option<String> {
    let total = map.get("total")?.as_u64()?;
    let offset = map.get("offset").and_then(Value::as_u64).unwrap_or(0);
    let shown = map.get(list).and_then(Value::as_array).map_or(0, Vec::len) as u64;
    let next = offset + shown;
    // (None shown: the budget holds not one, which no offset changes.)
    (shown > 0 && next < total).then(|| page_hint(next, total - next, total))
}

/// "`offset: 412` gives the next 800 of 1212".
fn page_hint(next: u64, left: u64, total: u64) -> String {
    format!("`offset: {next}` gives the next {left} of {total}")
}

/// Cut `answer` (a [`view`] with `shape`) to at most `limit` bytes of compact JSON (see
/// [`budget::fit`]); when it was cut — or already says `"truncated": true` — it says so,
/// with `more`: how to get the rest. Returns whether it says so. Items point into a file
/// table after the cut as before: the table loses no file still pointed to, and an item
/// whose file was cut from a table of results goes too.
pub fn fit(shape: &AgentShape, answer: &mut Value, limit: usize, more: &str) -> bool {
    let marked = answer.get("truncated") == Some(&Value::Bool(true));
    if budget::size(answer) <= limit && !marked {
        return false;
    }
    let marker = json!({"truncated": true, "more": more});
    // (Room for the longest page hint too, and the parentheses around `more`.)
    let longest = shape
        .paged
        .map(|_| page_hint(u32::MAX.into(), u32::MAX.into(), u32::MAX.into()).len() + " ()".len())
        .unwrap_or(0);
    let target = limit.saturating_sub(budget::size(&marker) + longest);
    let over = budget::size(answer) > target;
    // The lists as the view named them (`references` is `refs_to` by then).
    let table = shape.paths.as_ref().map(|t| Table {
        lists: t.lists.iter().map(|l| renamed(l, shape.keys)).collect(),
        table: t.table,
    });
    if let (Value::Object(map), Some(table)) = (&mut *answer, &table)
        && over
        && table.table == FILE_TABLE
        && map.contains_key(FILE_TABLE)
    {
        keep_table_prefix(map, table, target);
    }
    budget::fit_keeping(answer, target, &[FILE_TABLE]);
    if let (Value::Object(map), Some(table)) = (&mut *answer, &table) {
        after_cut(map, table);
    }
    match answer {
        Value::Object(map) => {
            let more = match shape
                .paged
                .and_then(|list| next_page(map, &renamed(list, shape.keys)))
            {
                Some(page) => format!("{page} ({more})"),
                None => more.to_string(),
            };
            map.insert("truncated".into(), Value::Bool(true));
            map.insert("more".into(), Value::String(more));
        }
        _ => *answer = marker,
    }
    if budget::size(answer) > limit {
        *answer = json!({"truncated": true});
    }
    true
}

/// The answer an agent reads for operation `op`'s result `result_json` (its JSON text):
/// [`view`] with the operation's shape, within `max_tokens` when given ([`fit`]), as
/// compact JSON text. What the CLI's `--compact` prints.
pub fn answer(op: &str, result_json: &str, max_tokens: Option<usize>) -> Result<String> {
    let info = crate::registry::find(op)?;
    let mut result = parse(op, result_json)?;
    view(&info.agent, &mut result);
    if let Some(max_tokens) = max_tokens {
        fit(
            &info.agent,
            &mut result,
            max_tokens.saturating_mul(BYTES_PER_TOKEN),
            MORE,
        );
    }
    Ok(result.to_string())
}

/// Operation `op`'s result `result_json` as it is, full names and all, with its lists cut
/// to the items an agent's answer within `max_tokens` keeps ([`answer`]), and
/// `"truncated": true` when anything was cut: what the CLI's text output of a
/// `--max-tokens` call lays out.
pub fn within(op: &str, result_json: &str, max_tokens: usize) -> Result<String> {
    let info = crate::registry::find(op)?;
    let mut result = parse(op, result_json)?;
    let mut shown = result.clone();
    view(&info.agent, &mut shown);
    let limit = max_tokens.saturating_mul(BYTES_PER_TOKEN);
    if fit(&info.agent, &mut shown, limit, MORE)
        && let Value::Object(map) = &mut result
    {
        for (key, value) in map.iter_mut() {
            let Value::Array(items) = value else { continue };
            if info.agent.omit.contains(&key.as_str()) {
                continue;
            }
            let short = info
                .agent
                .keys
                .iter()
                .find(|(full, _)| full == key)
                .map_or(key.as_str(), |(_, short)| short);
            let kept = shown
                .get(short)
                .and_then(Value::as_array)
                .map_or(0, Vec::len);
            items.truncate(kept);
        }
        map.insert("truncated".into(), Value::Bool(true));
    }
    Ok(result.to_string())
}

/// How to get more of a cut answer, when the caller has no better words for it.
const MORE: &str = "raise the token budget or narrow the request";

fn parse(op: &str, result_json: &str) -> Result<Value> {
    serde_json::from_str(result_json)
        .map_err(|e| Error::invalid(op, format!("the result to show is not JSON: {e}")))
}

/// Remove the field at `path` (`/`-separated keys, `*` for every item of a list).
pub fn omit(map: &mut Map<String, Value>, path: &str) {
    let (parent, key) = path.rsplit_once('/').unwrap_or(("", path));
    each_object(map, parent, &mut |object| {
        object.shift_remove(key);
    });
}

/// Call `f` on every object at `path` below `map` (as in [`omit`]; `""` is `map` itself).
fn each_object(
    map: &mut Map<String, Value>,
    path: &str,
    f: &mut dyn FnMut(&mut Map<String, Value>),
) {
    if path.is_empty() {
        return f(map);
    }
    let (key, rest) = path.split_once('/').unwrap_or((path, ""));
    if let Some(value) = map.get_mut(key) {
        each_object_of(value, rest, f);
    }
}

/// [`each_object`] from any value: `*` walks into every item of a list.
fn each_object_of(value: &mut Value, path: &str, f: &mut dyn FnMut(&mut Map<String, Value>)) {
    match value {
        Value::Object(map) => each_object(map, path, f),
        Value::Array(items) => {
            if let Some(rest) = path.strip_prefix('*') {
                let rest = rest.strip_prefix('/').unwrap_or(rest);
                items
                    .iter_mut()
                    .for_each(|item| each_object_of(item, rest, f));
            }
        }
        _ => {}
    }
}

/// Call `f` on every list at `path` (as in [`omit`]: `a/*/b` is the list `b` of every
/// item of `a`).
fn each_list(map: &mut Map<String, Value>, path: &str, f: &mut dyn FnMut(&mut Vec<Value>)) {
    let (parent, key) = path.rsplit_once('/').unwrap_or(("", path));
    each_object(map, parent, &mut |object| {
        if let Some(Value::Array(items)) = object.get_mut(key) {
            f(items);
        }
    });
}

/// Call `f` on every object item of the lists at `path` ([`each_list`]).
fn each_item(map: &mut Map<String, Value>, path: &str, f: &mut dyn FnMut(&mut Map<String, Value>)) {
    each_list(map, path, &mut |items| {
        for item in items.iter_mut() {
            if let Value::Object(item) = item {
                f(item);
            }
        }
    });
}

/// A [`PathTable`] as [`view`] left it: its lists under their renamed keys.
struct Table {
    lists: Vec<String>,
    table: &'static str,
}

/// `path` (`a/*/b`) with each key renamed as `keys` say.
fn renamed(path: &str, keys: &[(&str, &str)]) -> String {
    path.split('/')
        .map(|segment| {
            keys.iter()
                .find(|(full, _)| *full == segment)
                .map_or(segment, |(_, short)| short)
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// The longest prefix of the items of the table's lists (the same number of each) whose
/// answer, the `_f` table listing only their files and strings shortened to a useful
/// length, fits `target` bytes — at least one item.
fn keep_table_prefix(map: &mut Map<String, Value>, table: &Table, target: usize) {
    budget::cap_strings_in(map, budget::USEFUL_STRING);
    let mut longest = 0;
    for list in &table.lists {
        each_list(map, list, &mut |items| longest = longest.max(items.len()));
    }
    let with = |k: usize| -> Map<String, Value> {
        let mut trial = map.clone();
        for list in &table.lists {
            each_list(&mut trial, list, &mut |items| items.truncate(k));
        }
        after_cut(&mut trial, table);
        trial
    };
    let fits = |k: usize| budget::size(&Value::Object(with(k))) <= target;
    // The largest k in [1, longest] that fits (1 when none does).
    let (mut lo, mut hi) = (1, longest.max(1));
    if fits(hi) {
        lo = hi;
    }
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if fits(mid) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    *map = with(lo);
}

/// After a cut: the `_f` table keeps only the files still pointed to (items renumbered);
/// items pointing past the end of a cut table of results go.
fn after_cut(map: &mut Map<String, Value>, table: &Table) {
    if table.table == FILE_TABLE {
        let Some(Value::Array(files)) = map.get(FILE_TABLE) else {
            return;
        };
        let mut used = vec![false; files.len()];
        for list in &table.lists {
            each_item(map, list, &mut |item| {
                if let Some(i) = item.get("fi").and_then(Value::as_u64)
                    && let Some(slot) = used.get_mut(i as usize)
                {
                    *slot = true;
                }
            });
        }
        let mut renumbered = Vec::with_capacity(used.len());
        let mut next = 0u64;
        for u in &used {
            renumbered.push(next);
            next += u64::from(*u);
        }
        for list in &table.lists {
            each_item(map, list, &mut |item| {
                if let Some(i) = item.get("fi").and_then(Value::as_u64)
                    && let Some(new) = renumbered.get(i as usize)
                {
                    item.insert("fi".into(), json!(new));
                }
            });
        }
        if let Some(Value::Array(files)) = map.get_mut(FILE_TABLE) {
            let mut i = 0;
            files.retain(|_| {
                i += 1;
                used[i - 1]
            });
        }
    } else {
        let Some(Value::Array(files)) = map.get(table.table) else {
            return;
        };
        let len = files.len() as u64;
        for list in &table.lists {
            each_list(map, list, &mut |items| {
                items.retain(|item| {
                    item.get("fi")
                        .and_then(Value::as_u64)
                        .is_none_or(|i| i < len)
                });
            });
        }
    }
}

/// Replace key `from` of `map` by `to` with `value`, in its place.
fn replace_key(map: &mut Map<String, Value>, from: &str, to: &str, value: Value) {
    let mut value = Some(value);
    *map = std::mem::take(map)
        .into_iter()
        .map(|(k, v)| match value.take_if(|_| k == from) {
            Some(new) => (to.to_string(), new),
            None => (k, v),
        })
        .collect();
}

/// [`PathTable`]: each file of the listed items once.
fn list_paths(map: &mut Map<String, Value>, table: &PathTable) {
    let index: Vec<String> = if table.table == FILE_TABLE {
        let mut paths: Vec<String> = Vec::new();
        for list in table.lists {
            each_item(map, list, &mut |item| {
                if let Some(Value::String(path)) = item.get("path")
                    && !paths.contains(path)
                {
                    paths.push(path.clone());
                }
            });
        }
        if paths.len() < 2 {
            return;
        }
        paths
    } else {
        match map.get(table.table) {
            Some(Value::Array(items)) => items
                .iter()
                .map(|item| {
                    item.get("path")
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_string()
                })
                .collect(),
            _ => return,
        }
    };
    for list in table.lists {
        each_item(map, list, &mut |item| {
            let position = match item.get("path") {
                Some(Value::String(path)) => index.iter().position(|p| p == path),
                _ => None,
            };
            if let Some(i) = position {
                replace_key(item, "path", "fi", json!(i));
            }
        });
    }
    if table.table == FILE_TABLE {
        map.insert(FILE_TABLE.into(), json!(index));
    }
}

/// Leave out every `path` equal to the nearest enclosing object's.
fn inherit_path(value: &mut Value, enclosing: Option<&str>) {
    match value {
        Value::Object(map) => {
            if enclosing.is_some() && map.get("path").and_then(Value::as_str) == enclosing {
                map.shift_remove("path");
            }
            let own = map.get("path").and_then(Value::as_str).map(str::to_string);
            let here = own.as_deref().or(enclosing);
            for item in map.values_mut() {
                inherit_path(item, here);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| inherit_path(v, enclosing)),
        _ => {}
    }
}

/// `start_line` and `end_line` of every object as one `"l": "start-end"`.
fn line_ranges(value: &mut Value) {
    match value {
        Value::Object(map) => {
            if let (Some(start), Some(end)) = (
                map.get("start_line").and_then(Value::as_i64),
                map.get("end_line").and_then(Value::as_i64),
            ) {
                map.shift_remove("end_line");
                replace_key(map, "start_line", "l", json!(format!("{start}-{end}")));
            }
            map.values_mut().for_each(line_ranges);
        }
        Value::Array(items) => items.iter_mut().for_each(line_ranges),
        _ => {}
    }
}

/// Rename keys (full, short) in every object.
fn rename_keys(value: &mut Value, keys: &[(&str, &str)]) {
    match value {
        Value::Object(map) => {
            if map.keys().any(|k| keys.iter().any(|(full, _)| full == k)) {
                *map = std::mem::take(map)
                    .into_iter()
                    .map(|(k, v)| match keys.iter().find(|(full, _)| *full == k) {
                        Some((_, short)) => ((*short).to_string(), v),
                        None => (k, v),
                    })
                    .collect();
            }
            map.values_mut().for_each(|v| rename_keys(v, keys));
        }
        Value::Array(items) => items.iter_mut().for_each(|v| rename_keys(v, keys)),
        _ => {}
    }
}

/// Fields that say nothing (`null`, an empty `warnings`) left out, and scores to four
/// significant digits.
fn compact(value: &mut Value) {
    match value {
        Value::Object(map) => {
            map.retain(|key, v| {
                !(v.is_null() || (key == "warnings" && v.as_array().is_some_and(Vec::is_empty)))
            });
            map.values_mut().for_each(compact);
        }
        Value::Array(items) => items.iter_mut().for_each(compact),
        Value::Number(number) if number.is_f64() => {
            if let Some(x) = number.as_f64()
                && x != 0.0
                && x.is_finite()
            {
                let digits = 3 - x.abs().log10().floor() as i32;
                let scale = 10f64.powi(digits.clamp(-300, 300));
                if let Some(rounded) = serde_json::Number::from_f64((x * scale).round() / scale) {
                    *number = rounded;
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_impl_is_named_by_its_head_in_two_parts() {
        let parts = |kind: &str, name: &str, signature: &str| {
            outline_parts(&json!({"kind": kind, "name": name, "signature": signature}))
        };
        let own = |a: &str, b: &str| (a.to_string(), b.to_string());
        assert_eq!(
            parts(
                "impl",
                "Router",
                "impl<S> Clone for Router<S> where S: Clone {"
            ),
            own("impl<S>", "Clone for Router<S>")
        );
        assert_eq!(
            parts("impl", "F", "impl<F: Fn() -> R, R> Handler for F"),
            own("impl<F: Fn() -> R, R>", "Handler for F")
        );
        assert_eq!(
            parts("impl", "Router", "impl Router {"),
            own("impl", "Router")
        );
        assert_eq!(parts("fn", "run", "fn run()"), own("fn", "run"));
        assert_eq!(
            outline_label(
                &json!({"kind": "impl", "name": "R", "signature": "impl<S> Clone for R<S>"})
            ),
            "impl<S> Clone for R<S>"
        );
    }

    const SHAPE: AgentShape = AgentShape {
        omit: &["hits/*/score"],
        paths: Some(PathTable {
            lists: &["hits", "groups/*/members"],
            table: FILE_TABLE,
        }),
        inherit_path: true,
        line_ranges: true,
        keys: &[("name", "n"), ("path", "f")],
        configured_budget: None,
        outline: None,
        paged: None,
    };

    #[test]
    fn files_named_by_several_items_are_listed_once() {
        let mut v = json!({"hits": [
            {"name": "a", "path": "x.rs", "score": 1.0},
            {"name": "b", "path": "y.rs", "score": 0.5},
            {"name": "c", "path": "x.rs", "score": 0.25}]});
        view(&SHAPE, &mut v);
        assert_eq!(
            v,
            json!({"hits": [{"n": "a", "fi": 0}, {"n": "b", "fi": 1}, {"n": "c", "fi": 0}],
                   "_f": ["x.rs", "y.rs"]})
        );
    }

    #[test]
    fn one_file_stays_on_each_item_and_nested_lists_count() {
        let mut v = json!({"hits": [{"name": "a", "path": "x.rs"}],
                           "groups": [{"members": [{"path": "x.rs"}]}]});
        view(&SHAPE, &mut v);
        assert_eq!(
            v,
            json!({"hits": [{"n": "a", "f": "x.rs"}], "groups": [{"members": [{"f": "x.rs"}]}]})
        );
        let mut v = json!({"hits": [{"path": "x.rs"}],
                           "groups": [{"members": [{"path": "z.rs"}]}]});
        view(&SHAPE, &mut v);
        assert_eq!(
            v,
            json!({"hits": [{"fi": 0}], "groups": [{"members": [{"fi": 1}]}], "_f": ["x.rs", "z.rs"]})
        );
    }

    #[test]
    fn an_existing_list_can_be_the_table() {
        let shape = AgentShape {
            paths: Some(PathTable {
                lists: &["hits"],
                table: "files",
            }),
            ..AgentShape::FULL
        };
        let mut v = json!({"files": [{"path": "a"}, {"path": "b"}],
                           "hits": [{"path": "b", "id": 1}, {"path": "c", "id": 2}]});
        view(&shape, &mut v);
        assert_eq!(
            v,
            json!({"files": [{"path": "a"}, {"path": "b"}],
                   "hits": [{"fi": 1, "id": 1}, {"path": "c", "id": 2}]})
        );
    }

    #[test]
    fn a_path_repeated_from_the_enclosing_object_is_left_out_and_lines_join() {
        let mut v = json!({"path": "x.rs", "start_line": 3, "end_line": 9, "children": [
            {"name": "m", "path": "x.rs", "start_line": 4, "end_line": 5,
             "children": [{"path": "x.rs"}]},
            {"name": "o", "path": "other.rs"}]});
        view(&SHAPE, &mut v);
        assert_eq!(
            v,
            json!({"f": "x.rs", "l": "3-9", "children": [
                {"n": "m", "l": "4-5", "children": [{}]},
                {"n": "o", "f": "other.rs"}]})
        );
    }

    #[test]
    fn nothing_is_left_that_says_nothing_and_scores_are_short() {
        let mut v = json!({"warnings": [], "note": null, "score": 0.123456789, "n": 3});
        view(&AgentShape::FULL, &mut v);
        assert_eq!(v, json!({"score": 0.1235, "n": 3}));
    }

    #[test]
    fn a_cut_answer_says_so_and_fits() {
        let items: Vec<Value> = (0..500)
            .map(|i| json!({"id": i, "name": "x".repeat(30)}))
            .collect();
        let mut v = json!({"hits": items});
        assert!(fit(&SHAPE, &mut v, 1_000, "ask less"));
        assert!(budget::size(&v) <= 1_000);
        assert_eq!(v["truncated"], true);
        assert_eq!(v["more"], "ask less");
        let mut small = json!({"hits": []});
        assert!(!fit(&SHAPE, &mut small, 1_000, "ask less"));
        assert_eq!(small, json!({"hits": []}));
    }

    #[test]
    fn a_budget_too_small_for_any_item_keeps_what_names_the_answer() {
        let detail = || {
            json!({"id": 5636, "n": "definitions_first", "k": "fn",
                   "f": "core/src/code/ops/search_symbols.rs", "l": "241-303",
                   "sig": format!("fn definitions_first({})", "name: &str, ".repeat(20)),
                   "doc": "Candidates for a bare name in rank order. ".repeat(20),
                   "calls": (0..40).map(|i| json!({"n": format!("callee{i}")})).collect::<Vec<_>>()})
        };
        // Room for the names and the start of the strings, not for a list item.
        let mut v = detail();
        assert!(fit(&SHAPE, &mut v, 240, "ask less"));
        assert!(budget::size(&v) <= 240, "{v}");
        assert_eq!(v["n"], "definitions_first");
        assert_eq!(v["f"], "core/src/code/ops/search_symbols.rs");
        assert_eq!(v["l"], "241-303");
        assert_eq!(v["truncated"], true);
        assert!(v.get("calls").is_none(), "{v}");
        // Less room: the lists go, then the longest strings, the name last; the id,
        // name, kind and lines stay.
        for limit in [130, 110] {
            let mut v = detail();
            assert!(fit(&SHAPE, &mut v, limit, "ask less"));
            assert!(budget::size(&v) <= limit, "{v}");
            assert_eq!(
                (&v["id"], &v["n"], &v["l"]),
                (&json!(5636), &json!("definitions_first"), &json!("241-303")),
                "{v}"
            );
            assert!(v.get("doc").is_none() && v.get("sig").is_none(), "{v}");
            assert_eq!(v["truncated"], true);
        }
        // Room for little more than the marker: the name is the last string to go.
        let mut v = detail();
        assert!(fit(&SHAPE, &mut v, 80, "ask less"));
        assert!(budget::size(&v) <= 80, "{v}");
        assert_eq!(
            (&v["n"], &v["more"]),
            (&json!("definitions_first"), &json!("ask less")),
            "{v}"
        );
        // No room at all.
        let mut v = detail();
        assert!(fit(&SHAPE, &mut v, 10, "ask less"));
        assert_eq!(v, json!({"truncated": true}));
    }

    #[test]
    fn a_cut_keeps_the_file_table_true() {
        // 300 hits over 150 files, each file named twice: the table is the largest list.
        let hits: Vec<Value> = (0..300)
            .map(|i| json!({"name": format!("h{i}"), "path": format!("src/some/longer/dir/file{}.rs", i % 150)}))
            .collect();
        let mut v = json!({"hits": hits});
        view(&SHAPE, &mut v);
        assert_eq!(v["_f"].as_array().unwrap().len(), 150);
        assert!(fit(&SHAPE, &mut v, 2_000, "ask less"));
        assert!(budget::size(&v) <= 2_000, "{}", budget::size(&v));
        let files = v["_f"].as_array().unwrap();
        let hits = v["hits"].as_array().unwrap();
        assert!(hits.len() > 10, "{}", hits.len());
        // The first hits stay, each pointing at its own file; no file is listed unused.
        for (i, hit) in hits.iter().enumerate() {
            assert_eq!(hit["n"], format!("h{i}"));
            let fi = hit["fi"].as_u64().unwrap() as usize;
            assert_eq!(files[fi], format!("src/some/longer/dir/file{}.rs", i % 150));
        }
        assert_eq!(files.len(), hits.len().min(150));
    }

    #[test]
    fn a_cut_keeps_the_file_table_of_a_renamed_list() {
        // `references` becomes `refs_to` in the view: the cut still finds its items.
        let shape = AgentShape {
            keys: &[("references", "refs_to")],
            paths: Some(PathTable {
                lists: &["references"],
                table: FILE_TABLE,
            }),
            ..AgentShape::FULL
        };
        let refs: Vec<Value> = (0..300)
            .map(|i| json!({"line": i, "path": format!("src/some/longer/dir/file{}.py", i / 10)}))
            .collect();
        let mut v = json!({"references": refs});
        view(&shape, &mut v);
        assert!(fit(&shape, &mut v, 2_000, "ask less"));
        assert!(budget::size(&v) <= 2_000, "{}", budget::size(&v));
        let files = v["_f"].as_array().unwrap();
        let kept = v["refs_to"].as_array().unwrap();
        assert!(kept.len() > 10 && kept.len() < 300, "{}", kept.len());
        for (i, r) in kept.iter().enumerate() {
            let fi = r["fi"].as_u64().unwrap() as usize;
            assert_eq!(files[fi], format!("src/some/longer/dir/file{}.py", i / 10));
        }
    }

    #[test]
    fn a_cut_table_of_results_takes_its_hits_along() {
        let shape = AgentShape {
            paths: Some(PathTable {
                lists: &["hits"],
                table: "files",
            }),
            ..AgentShape::FULL
        };
        let files: Vec<Value> = (0..200)
            .map(|i| json!({"path": format!("f{i}"), "why": "w".repeat(40)}))
            .collect();
        let hits: Vec<Value> = (0..200)
            .map(|i| json!({"path": format!("f{i}"), "id": i}))
            .collect();
        let mut v = json!({"files": files, "hits": hits});
        view(&shape, &mut v);
        assert!(fit(&shape, &mut v, 3_000, "ask less"));
        let files = v["files"].as_array().unwrap().len() as u64;
        for hit in v["hits"].as_array().unwrap() {
            assert!(hit["fi"].as_u64().unwrap() < files, "{v}");
        }
    }

    #[test]
    fn answer_refuses_what_is_not_json_and_unknown_operations() {
        assert!(answer("code.search_symbols", "not json", None).is_err());
        assert!(answer("no.such", "{}", None).is_err());
    }
}
