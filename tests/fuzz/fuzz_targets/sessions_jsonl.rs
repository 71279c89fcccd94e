//! The transcript parser (`sessions::parser::parse`) on any bytes:
//!
//! - no panic;
//! - the watermark (`end`) lies in the range read, at the start of a line or at its end,
//!   and never past a last line still being written;
//! - groups are ordered by start, start on a line inside what was taken, and every
//!   message has parts; titles are trimmed and not empty; corrupt lines are reported at
//!   their line's offset; the records counted are at most the lines;
//! - parsing the same bytes at another base offset gives the same result, shifted;
//! - so does a re-parse restarting each stream at its open group.
#![no_main]

use std::collections::BTreeMap;

use cc_search::sessions::parser::{Parsed, parse};
use libfuzzer_sys::fuzz_target;

fn line_start(bytes: &[u8], at: usize) -> bool {
    at == 0 || bytes.get(at - 1) == Some(&b'\n')
}

fn check(bytes: &[u8], base: u64, p: &Parsed) {
    let len = bytes.len() as u64;
    assert!(
        p.end >= base && p.end <= base + len,
        "end {} outside the range",
        p.end
    );
    let end = (p.end - base) as usize;
    assert!(
        end == bytes.len() || line_start(bytes, end),
        "end {end} inside a line"
    );
    let lines = bytes.split(|&b| b == b'\n').count();
    assert!(p.records <= lines);
    let mut last = base;
    for g in &p.groups {
        assert!(g.start >= last, "groups out of order");
        last = g.start;
        assert!(g.start < p.end, "a group past the watermark");
        assert!(line_start(bytes, (g.start - base) as usize));
        assert!(!g.messages.is_empty());
        for m in &g.messages {
            assert!(!m.parts.is_empty(), "a message without parts");
        }
    }
    for t in &p.titles {
        assert!(!t.text.is_empty() && t.text.trim() == t.text);
        assert!(t.offset >= base && t.offset < p.end);
        assert!(line_start(bytes, (t.offset - base) as usize));
    }
    for (offset, _) in &p.corrupt {
        assert!(*offset >= base && *offset < p.end);
        assert!(line_start(bytes, (*offset - base) as usize));
    }
    for offset in p.open.values() {
        assert!(*offset >= base && *offset < p.end);
    }
}

fuzz_target!(|bytes: &[u8]| {
    let none = BTreeMap::new();
    let at_zero = parse(bytes, 0, &none);
    check(bytes, 0, &at_zero);
    const BASE: u64 = 1 << 40;
    let shifted = parse(bytes, BASE, &none);
    check(bytes, BASE, &shifted);
    assert_eq!(shifted.end, at_zero.end + BASE);
    assert_eq!(shifted.records, at_zero.records);
    assert_eq!(shifted.groups.len(), at_zero.groups.len());
    for (a, b) in at_zero.groups.iter().zip(&shifted.groups) {
        assert_eq!(a.start + BASE, b.start);
        assert_eq!(a.messages, b.messages);
    }
    let corrupt =
        |p: &Parsed, base: u64| -> Vec<u64> { p.corrupt.iter().map(|c| c.0 - base).collect() };
    assert_eq!(corrupt(&at_zero, 0), corrupt(&shifted, BASE));
    // Restarting every stream at its open group (what the next run of a growing
    // transcript does) keeps the same invariants.
    let again = parse(bytes, 0, &at_zero.open);
    check(bytes, 0, &again);
});
