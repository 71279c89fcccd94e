//! The bindings' typed layers are what the operation table gives: Python's
//! `cc_search/_types.py` (TypedDicts) and `_operations.py` (the `Engine` methods), Node's `operations.d.ts`
//! and the methods of `class Engine` in `index.js`. Each is generated here (`bindgen/`) and
//! compared with the committed file; `CC_SEARCH_BLESS=1` (what `make bindings` runs)
//! rewrites them.

use std::fs;
use std::path::Path;

use crate::bindgen;

const BLESS: &str = "CC_SEARCH_BLESS";

#[test]
fn bindings_are_what_the_operation_table_generates() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let bless = std::env::var(BLESS).is_ok_and(|v| v == "1");
    let mut stale = Vec::new();
    for output in bindgen::generate() {
        let file = root.join(output.path);
        let text = fs::read_to_string(&file).unwrap_or_default();
        let (before, committed, after) = match output.between {
            None => ("", text.as_str(), ""),
            Some((begin, end)) => split(&text, begin, end)
                .unwrap_or_else(|| panic!("{}: no lines {begin:?} … {end:?}", output.path)),
        };
        if committed == output.text {
            continue;
        }
        if bless {
            let new = format!("{before}{}{after}", output.text);
            fs::write(&file, new).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            eprintln!("rewrote {}", output.path);
        } else {
            let at = first_difference(committed, &output.text);
            stale.push(format!("{}: {at}", output.path));
        }
    }
    assert!(
        stale.is_empty(),
        "the generated bindings differ from the operation table:\n  {}\nRegenerate them with \
         `make bindings` ({BLESS}=1 cargo test -p cc-search --test it -- bindings_generated::) and \
         commit the result.",
        stale.join("\n  ")
    );
}

/// `text` as what comes up to the line `begin` (included), what comes between, and the
/// rest from the line `end` on.
fn split<'a>(text: &'a str, begin: &str, end: &str) -> Option<(&'a str, &'a str, &'a str)> {
    let start = text.find(&format!("\n{begin}\n"))? + begin.len() + 2;
    let stop = if text[start..].starts_with(&format!("{end}\n")) {
        start
    } else {
        start + text[start..].find(&format!("\n{end}\n"))? + 1
    };
    Some((&text[..start], &text[start..stop], &text[stop..]))
}

/// Where the committed text first differs from the generated one, by line.
fn first_difference(committed: &str, generated: &str) -> String {
    if committed.is_empty() {
        return "missing".into();
    }
    let mut committed_lines = committed.lines();
    let mut generated_lines = generated.lines();
    let mut number = 1;
    loop {
        match (committed_lines.next(), generated_lines.next()) {
            (Some(a), Some(b)) if a == b => number += 1,
            (a, b) => {
                return format!(
                    "line {number} (of the generated part) is {:?}, the table gives {:?}",
                    a.unwrap_or("(end)"),
                    b.unwrap_or("(end)")
                );
            }
        }
    }
}
