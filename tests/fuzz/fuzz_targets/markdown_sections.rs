//! The markdown chunker (`text::markdown_sections`: at H2, a large section again at its
//! next level), as documented there:
//!
//! - no panic; each section's text is a piece of the input, in order, without overlap;
//! - nothing but headings and blank lines is left out (a heading-only preamble, a
//!   section with nothing below its heading);
//! - a `(full document)` chunk is the only one and holds the whole text (none when blank);
//! - a section starts with its heading line (H2 or deeper), which holds the title, and
//!   has text below it; a preamble says more than a heading.
//!
//! The same input through the reStructuredText splitter (`text::rst_sections`): no
//! panic, sections are pieces of the input in order without overlap, no heading makes
//! one `(full document)` chunk of the whole text, and blank text makes none.
#![no_main]

use cc_search::text::{DocSection, FULL_DOCUMENT, PREAMBLE, markdown_sections, rst_sections};
use libfuzzer_sys::fuzz_target;

/// Whether a left-out stretch holds only headings and blank lines.
fn only_headings(gap: &str) -> bool {
    gap.lines()
        .all(|l| l.trim().is_empty() || l.trim_start().starts_with('#'))
}

/// Where `section` starts in `input` at or after byte `at`: sections are whole lines, in
/// order, so the next one starts at a line start there.
fn next_piece(input: &str, at: usize, section: &DocSection) -> usize {
    (at..input.len())
        .filter(|&i| i == 0 || input.as_bytes()[i - 1] == b'\n')
        .find(|&i| input[i..].starts_with(&section.text))
        .unwrap_or_else(|| panic!("section {:?} is not the next piece of the input", section.title))
}

/// The reStructuredText splitter's properties.
fn check_rst(text: &str) {
    let sections = rst_sections(text);
    if text.trim().is_empty() {
        assert!(sections.is_empty());
        return;
    }
    let mut at = 0;
    for s in &sections {
        assert!(!s.text.is_empty());
        at = next_piece(text, at, s) + s.text.len();
        if s.title == FULL_DOCUMENT {
            assert_eq!(sections.len(), 1);
            assert_eq!(s.text, text);
        }
    }
}

fuzz_target!(|markdown: &str| {
    check_rst(markdown);
    let sections = markdown_sections(markdown);
    if markdown.trim().is_empty() {
        assert!(sections.is_empty());
        return;
    }
    let mut at = 0;
    for s in &sections {
        assert!(!s.text.is_empty());
        let found = next_piece(markdown, at, s);
        let gap = &markdown[at..found];
        assert!(only_headings(gap), "left out more than headings: {gap:?}");
        at = found + s.text.len();
        if s.title == FULL_DOCUMENT {
            assert_eq!(sections.len(), 1);
            assert_eq!(s.text, markdown);
        } else if s.title == PREAMBLE {
            assert!(!only_headings(&s.text), "a heading-only preamble was kept");
        } else {
            let (heading, below) = s.text.split_once('\n').unwrap_or((&s.text, ""));
            assert!(
                heading.trim_start_matches(' ').starts_with("##"),
                "{heading:?}"
            );
            // The title, less a `##n` suffix for a repeat.
            let base = match s.title.rsplit_once("##") {
                Some((base, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => base,
                _ => s.title.as_str(),
            };
            assert!(
                heading.contains(&s.title) || heading.contains(base),
                "title {:?} not in its heading {heading:?}",
                s.title
            );
            assert!(!below.trim().is_empty(), "an empty section was kept");
        }
    }
    assert!(
        only_headings(&markdown[at..]),
        "left out more than headings at the end"
    );
});
