//! The `checkfor` tool's adapter: checkfor's arguments as a `grep.search` request, and
//! the directories put back in the answer as the caller wrote them.

use serde_json::{Map, Value, json};

use super::toolset;

/// checkfor's parameters, then the extras, in the order an error lists them.
const PARAMETERS: &[&str] = &[
    "search",
    "dir",
    "ext",
    "exclude",
    "case_insensitive",
    "whole_word",
    "context",
    "hide_filter_stats",
];

/// checkfor's arguments as a `grep.search` request, and the directories as given (for
/// the `dir` fields of the answer). Like checkfor: `dir` may be one string or a list,
/// and defaults to the current directory (here: the project); a parameter of another type
/// than checkfor's is ignored. A parameter checkfor does not have is refused, naming the
/// ones it has: a misspelt `path` or `pattern` must not search something else silently.
#[allow(clippy::type_complexity)]
pub(super) fn checkfor_request(
    arguments: Map<String, Value>,
) -> std::result::Result<(Map<String, Value>, Option<Vec<String>>), String> {
    let known = || PARAMETERS.iter().copied().chain(toolset::checkfor_extras());
    let listed = || {
        let names: Vec<&str> = known().collect();
        format!("checkfor takes {} (`search` required)", names.join(", "))
    };
    if let Some(unknown) = arguments.keys().find(|k| !known().any(|n| n == k.as_str())) {
        return Err(format!("unknown parameter `{unknown}`: {}", listed()));
    }
    let mut request = Map::new();
    match arguments.get("search") {
        Some(Value::String(search)) => {
            request.insert("search".into(), Value::String(search.clone()));
        }
        Some(_) => return Err("`search` must be a string: the text to find".to_string()),
        None => return Err(format!("`search` is missing: {}", listed())),
    }
    let strings = |items: &Vec<Value>| -> Vec<String> {
        items
            .iter()
            .filter_map(|v| v.as_str().map(str::to_string))
            .collect()
    };
    let dirs = match arguments.get("dir") {
        Some(Value::String(dir)) => vec![dir.clone()],
        Some(Value::Array(items)) => strings(items),
        _ => Vec::new(),
    };
    let given = if dirs.is_empty() {
        vec![".".to_string()]
    } else {
        dirs
    };
    request.insert("dir".into(), json!(given));
    if let Some(Value::String(ext)) = arguments.get("ext") {
        request.insert("ext".into(), Value::String(ext.clone()));
    }
    if let Some(Value::Array(items)) = arguments.get("exclude") {
        request.insert("exclude".into(), json!(strings(items)));
    }
    for flag in ["case_insensitive", "whole_word", "hide_filter_stats"] {
        if let Some(Value::Bool(on)) = arguments.get(flag) {
            request.insert(flag.into(), Value::Bool(*on));
        }
    }
    for extra in toolset::checkfor_extras() {
        if let Some(value) = arguments.get(extra).filter(|v| !v.is_null()) {
            request.insert(extra.into(), value.clone());
        }
    }
    if let Some(context) = arguments.get("context").and_then(Value::as_f64)
        && context >= 1.0
    {
        // checkfor truncates a fractional count; huge ones are capped by grep.search.
        request.insert("context".into(), json!(context.min(u32::MAX as f64) as u64));
    }
    Ok((request, Some(given)))
}

/// Put the directories back as the caller wrote them in `directories[i].dir`.
pub(super) fn restore_dirs(response: &mut Map<String, Value>, given: &[String]) {
    if let Some(Value::Array(directories)) = response.get_mut("directories")
        && directories.len() == given.len()
    {
        for (directory, dir) in directories.iter_mut().zip(given) {
            if let Some(slot) = directory.get_mut("dir") {
                *slot = Value::String(dir.clone());
            }
        }
    }
}
