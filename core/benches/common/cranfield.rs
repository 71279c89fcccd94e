//! The Cranfield collection (`../shared/data/ir/cranfield`, or `$CC_SEARCH_CRANFIELD`)
//! and the two measures the benches report on it, shared by the hybrid and docs benches.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// One Cranfield abstract.
pub struct Doc {
    /// Its number (`.I`).
    pub id: u32,
    /// Its title (`.T`).
    pub title: String,
    /// Its text (`.W`).
    pub text: String,
}

/// The fields of SMART-tagged records: `.I id`, then `.X` markers each followed by text.
fn smart_records(text: &str) -> Vec<(String, HashMap<char, String>)> {
    let mut records = Vec::new();
    let mut current: Option<(String, HashMap<char, String>)> = None;
    let mut field = ' ';
    for line in text.lines() {
        let line = line.trim_end_matches('\r');
        if let Some(id) = line.strip_prefix(".I") {
            records.extend(current.take());
            current = Some((id.trim().to_string(), HashMap::new()));
            continue;
        }
        if line.len() == 2 && line.starts_with('.') {
            field = line.chars().nth(1).unwrap_or(' ');
            continue;
        }
        if let Some((_, fields)) = current.as_mut() {
            let value = fields.entry(field).or_default();
            if !value.is_empty() {
                value.push(' ');
            }
            value.push_str(line.trim());
        }
    }
    records.extend(current);
    records
}

/// Documents, queries in file order, and per query the judged documents with their
/// Cleverdon codes (1–4).
pub type Cranfield = (Vec<Doc>, Vec<String>, Vec<HashMap<u32, i32>>);

pub fn cranfield() -> Option<Cranfield> {
    let dir = std::env::var_os("CC_SEARCH_CRANFIELD")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/ir/cranfield")
        });
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).ok();
    let docs = smart_records(&read("cran.all.1400")?)
        .into_iter()
        .map(|(id, f)| Doc {
            id: id.parse().expect("numeric document id"),
            title: f.get(&'T').cloned().unwrap_or_default(),
            text: f.get(&'W').cloned().unwrap_or_default(),
        })
        .collect::<Vec<_>>();
    let queries: Vec<String> = smart_records(&read("cran.qry")?)
        .into_iter()
        .map(|(_, f)| f.get(&'W').cloned().unwrap_or_default())
        .collect();
    // Query numbers in cranqrel are positions in cran.qry (1..225), not `.I` numbers.
    let mut qrels = vec![HashMap::new(); queries.len()];
    for line in read("cranqrel")?.lines() {
        let parts: Vec<i64> = line
            .split_whitespace()
            .filter_map(|p| p.parse().ok())
            .collect();
        if let [q, d, code] = parts[..]
            && (1..=4).contains(&code)
            && q >= 1
            && (q as usize) <= queries.len()
        {
            qrels[q as usize - 1].insert(d as u32, code as i32);
        }
    }
    Some((docs, queries, qrels))
}

/// nDCG@10 with graded gain 5 − Cleverdon code.
pub fn ndcg_at_10(ranked: &[u32], judged: &HashMap<u32, i32>) -> f64 {
    let gain = |code: i32| (5 - code) as f64;
    let dcg: f64 = ranked
        .iter()
        .take(10)
        .enumerate()
        .map(|(i, d)| judged.get(d).map_or(0.0, |&c| gain(c)) / ((i + 2) as f64).log2())
        .sum();
    let mut ideal: Vec<f64> = judged.values().map(|&c| gain(c)).collect();
    ideal.sort_by(|a, b| b.total_cmp(a));
    let idcg: f64 = ideal
        .iter()
        .take(10)
        .enumerate()
        .map(|(i, g)| g / ((i + 2) as f64).log2())
        .sum();
    if idcg == 0.0 { 0.0 } else { dcg / idcg }
}

/// Reciprocal rank of the first judged document in the top 10.
pub fn mrr_at_10(ranked: &[u32], judged: &HashMap<u32, i32>) -> f64 {
    ranked
        .iter()
        .take(10)
        .position(|d| judged.contains_key(d))
        .map_or(0.0, |i| 1.0 / (i + 1) as f64)
}
