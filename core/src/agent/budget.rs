//! Answers within a token budget.
//!
//! Every tool answer is compact JSON. [`fit`] shrinks an answer that is too long while
//! keeping it valid JSON of the same shape, in an order that keeps what an agent reads
//! first: long strings are shortened to a useful length, then lists lose their tail
//! (results are ranked, so the tail is the least useful part), then strings are shortened
//! further. A token is counted as [`BYTES_PER_TOKEN`] bytes, as `grep.search` and the
//! `code.*` operations count it.

use serde_json::Value;

/// Bytes a token is counted as.
pub const BYTES_PER_TOKEN: usize = 4;

/// Strings are first shortened to no less than this many bytes…
pub(crate) const USEFUL_STRING: usize = 400;
/// …and, when dropping list items was not enough, to no less than this.
const SHORTEST_STRING: usize = 40;

/// Shorten `value` until its compact JSON is at most `limit` bytes. Returns whether
/// anything was cut. Lists keep at least their first item until strings are at their
/// shortest, then may be emptied; a value that cannot shrink far enough even so (a huge
/// number of keys) is replaced by an empty object.
pub fn fit(value: &mut Value, limit: usize) -> bool {
    fit_keeping(value, limit, &[])
}

/// [`fit`], but the lists under the top-level keys `keep` lose no items (their strings may
/// still be shortened): tables that other items point into by index.
pub fn fit_keeping(value: &mut Value, limit: usize, keep: &[&str]) -> bool {
    if size(value) <= limit {
        return false;
    }
    if cap_strings_within(value, limit, USEFUL_STRING) {
        return true;
    }
    cap_strings(value, USEFUL_STRING);
    drop_tails(value, limit, keep, 1);
    if size(value) <= limit {
        return true;
    }
    if cap_strings_within(value, limit, SHORTEST_STRING) {
        return true;
    }
    cap_strings(value, SHORTEST_STRING);
    drop_tails(value, limit, keep, 0);
    if size(value) > limit {
        keep_scalars(value, limit);
    }
    true
}

/// The last resort of [`fit`]: an object keeps its top-level numbers, strings and
/// booleans alone (its lists and nested objects go), and loses its longest strings until
/// it fits, its first string last (an answer names what it is about first: a symbol's
/// name); what is left still names what was asked about where it can (a symbol's id,
/// name, kind, file and lines). Anything else, or an object that still does not fit,
/// becomes an empty object.
fn keep_scalars(value: &mut Value, limit: usize) {
    let Value::Object(map) = value else {
        *value = Value::Object(Default::default());
        return;
    };
    map.retain(|_, v| !(v.is_array() || v.is_object()));
    while size(value) > limit {
        let Value::Object(map) = value else { return };
        let mut strings = map.iter().filter(|(_, v)| v.is_string());
        let first = strings.next().map(|(k, _)| k.clone());
        let longest = strings
            .max_by_key(|(k, v)| (size(v), std::cmp::Reverse(k.to_string())))
            .map(|(k, _)| k.clone())
            .or(first);
        match longest {
            Some(key) => {
                map.shift_remove(&key);
            }
            None => break,
        }
    }
    if size(value) > limit {
        *value = Value::Object(Default::default());
    }
}

/// The length of `value` as compact JSON.
pub fn size(value: &Value) -> usize {
    serde_json::to_string(value).map_or(usize::MAX, |text| text.len())
}

/// Cap every string at the longest length in `floor..` that brings `value` within
/// `limit`, if there is one (then `value` is changed and `true` returned).
fn cap_strings_within(value: &mut Value, limit: usize, floor: usize) -> bool {
    let longest = longest_string(value);
    if longest <= floor {
        return false;
    }
    let fits = |cap: usize| {
        let mut trial = value.clone();
        cap_strings(&mut trial, cap);
        size(&trial) <= limit
    };
    if !fits(floor) {
        return false;
    }
    // The largest cap in [floor, longest) that fits: fits(lo) holds, fits(hi) does not.
    let (mut lo, mut hi) = (floor, longest);
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if fits(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    cap_strings(value, lo);
    true
}

fn longest_string(value: &Value) -> usize {
    match value {
        Value::String(text) => text.len(),
        Value::Array(items) => items.iter().map(longest_string).max().unwrap_or(0),
        Value::Object(map) => map.values().map(longest_string).max().unwrap_or(0),
        _ => 0,
    }
}

/// [`cap_strings`] over the values of an object.
pub(crate) fn cap_strings_in(map: &mut serde_json::Map<String, Value>, cap: usize) {
    map.values_mut().for_each(|v| cap_strings(v, cap));
}

/// Cut every string longer than `cap` bytes to at most `cap` bytes (at a character
/// boundary) followed by `…`.
pub(crate) fn cap_strings(value: &mut Value, cap: usize) {
    match value {
        Value::String(text) if text.len() > cap => {
            let mut end = cap;
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            text.truncate(end);
            text.push('…');
        }
        Value::Array(items) => items.iter_mut().for_each(|v| cap_strings(v, cap)),
        Value::Object(map) => map.values_mut().for_each(|v| cap_strings(v, cap)),
        _ => {}
    }
}

/// Drop items from the end of the largest lists until `value` fits `limit` or every list
/// is down to `fewest` items.
fn drop_tails(value: &mut Value, limit: usize, keep: &[&str], fewest: usize) {
    loop {
        let total = size(value);
        if total <= limit {
            return;
        }
        let mut largest: Option<(usize, String)> = None;
        find_largest_list(value, &mut String::new(), &mut largest, keep, fewest);
        let Some((_, pointer)) = largest else {
            return;
        };
        let Some(Value::Array(items)) = value.pointer_mut(&pointer) else {
            return;
        };
        let mut excess = total - limit;
        while items.len() > fewest && excess > 0 {
            let Some(last) = items.pop() else { break };
            // The item and the comma before it.
            excess = excess.saturating_sub(size(&last) + 1);
        }
    }
}

/// The JSON pointer of the list with more than `fewest` items whose JSON is longest, but
/// for the lists under the top-level keys `keep`.
fn find_largest_list(
    value: &Value,
    pointer: &mut String,
    largest: &mut Option<(usize, String)>,
    keep: &[&str],
    fewest: usize,
) {
    match value {
        Value::Array(_)
            if keep
                .iter()
                .any(|key| pointer.strip_prefix('/') == Some(*key)) => {}
        Value::Array(items) => {
            if items.len() > fewest {
                let bytes = size(value);
                if largest.as_ref().is_none_or(|(best, _)| bytes > *best) {
                    *largest = Some((bytes, pointer.clone()));
                }
            }
            for (i, item) in items.iter().enumerate() {
                let len = pointer.len();
                pointer.push('/');
                pointer.push_str(&i.to_string());
                find_largest_list(item, pointer, largest, keep, fewest);
                pointer.truncate(len);
            }
        }
        Value::Object(map) => {
            for (key, item) in map {
                let len = pointer.len();
                pointer.push('/');
                pointer.push_str(&key.replace('~', "~0").replace('/', "~1"));
                find_largest_list(item, pointer, largest, keep, fewest);
                pointer.truncate(len);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn small_answers_are_untouched() {
        let mut value = json!({"hits": [1, 2, 3], "q": "x"});
        let before = value.clone();
        assert!(!fit(&mut value, 100));
        assert_eq!(value, before);
    }

    #[test]
    fn long_strings_are_shortened_before_lists_lose_items() {
        let long = "x".repeat(2_000);
        let mut value = json!({"hits": [{"t": long}, {"t": long}, {"t": long}]});
        assert!(fit(&mut value, 3_000));
        assert!(size(&value) <= 3_000);
        let hits = value["hits"].as_array().unwrap();
        assert_eq!(hits.len(), 3, "every hit kept, each shortened");
        for hit in hits {
            let text = hit["t"].as_str().unwrap();
            assert!(
                text.ends_with('…') && text.len() >= USEFUL_STRING,
                "{}",
                text.len()
            );
        }
    }

    #[test]
    fn lists_lose_their_tail_first_items_kept() {
        let items: Vec<Value> = (0..1_000)
            .map(|i| json!({"rank": i, "path": format!("src/file{i}.rs")}))
            .collect();
        let mut value = json!({"results": items, "warnings": []});
        assert!(fit(&mut value, 2_000));
        assert!(size(&value) <= 2_000);
        let results = value["results"].as_array().unwrap();
        assert!(results.len() > 20, "{}", results.len());
        for (i, result) in results.iter().enumerate() {
            assert_eq!(result["rank"], i, "the best results stay, in order");
        }
    }

    #[test]
    fn one_huge_item_is_shortened_further() {
        let mut value =
            json!({"chunk": {"content": "é".repeat(50_000), "messages": ["a", "b", "c"]}});
        assert!(fit(&mut value, 300));
        assert!(size(&value) <= 300, "{}", size(&value));
        assert!(value["chunk"]["content"].as_str().unwrap().ends_with('…'));
    }

    #[test]
    fn hopeless_values_become_empty() {
        let map: serde_json::Map<String, Value> =
            (0..500).map(|i| (format!("key{i}"), json!(i))).collect();
        let mut value = Value::Object(map);
        assert!(fit(&mut value, 50));
        assert_eq!(value, json!({}));
    }

    #[test]
    fn every_limit_is_kept() {
        let value = json!({
            "results": (0..50).map(|i| json!({"id": i, "text": "word ".repeat(i * 20), "tags": ["a", "b"]})).collect::<Vec<_>>(),
            "note": "n".repeat(700)
        });
        for limit in [2, 10, 64, 300, 1_000, 5_000, 20_000] {
            let mut trial = value.clone();
            fit(&mut trial, limit);
            assert!(
                size(&trial) <= limit.max(2),
                "limit {limit}: {}",
                size(&trial)
            );
        }
    }
}
