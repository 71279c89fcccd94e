//! The identifier splitter of the code index (`code::name_tokens`): whatever the name,
//! no panic; the output is lowercase, single-spaced, deterministic; it ends with the
//! lowercased name whenever the name does not reduce to one lowercase subword; and its
//! subwords hold every letter and digit of the name, in order.
#![no_main]

use cc_search::code::name_tokens;
use libfuzzer_sys::fuzz_target;

/// Final and medial sigma are one letter to a search (lowercasing picks one by position).
fn fold(s: &str) -> String {
    s.chars().map(|c| if c == 'ς' { 'σ' } else { c }).collect()
}

fuzz_target!(|name: &str| {
    let out = name_tokens(name);
    assert_eq!(out, name_tokens(name), "not deterministic");
    let lower = name.to_lowercase();
    assert_eq!(
        fold(&out),
        fold(&out.to_lowercase()),
        "not lowercase: {out:?}"
    );
    if out.is_empty() {
        assert!(lower.is_empty(), "{name:?} gave no tokens");
        return;
    }
    // The subwords, then the lowercased name unless it is the only subword.
    let words: Vec<&str> = match out.strip_suffix(lower.as_str()) {
        Some("") if lower.chars().any(char::is_alphanumeric) => vec![lower.as_str()],
        Some("") => Vec::new(),
        Some(head) => {
            let Some(head) = head.strip_suffix(' ') else {
                panic!("{out:?}: no space before the name");
            };
            head.split(' ').collect()
        }
        None => panic!("{out:?} does not end with {lower:?}"),
    };
    for w in &words {
        assert!(
            !w.is_empty() && !w.contains(char::is_whitespace),
            "{name:?}: word {w:?}"
        );
    }
    let alnum: String = name.chars().filter(|c| c.is_alphanumeric()).collect();
    let joined: String = words.concat();
    let keep = |s: &str| -> String { fold(s).chars().filter(|c| c.is_alphanumeric()).collect() };
    assert_eq!(
        keep(&joined),
        keep(&alnum.to_lowercase()),
        "{name:?}: subwords {words:?}"
    );
});
