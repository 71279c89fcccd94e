//! Ranking picker candidates: path-aware fuzzy matching (nucleo), frecency, priorities.
//!
//! The match score of a path is nucleo's fzf-style score with path delimiters (bonuses
//! at `/` and word/camelCase boundaries, gaps penalised), taken as the better of the whole
//! path and the file name alone (file-name matches weigh more), plus bonuses for: a path
//! that begins with the query (the spec's prefix `LIKE`), an exact file stem (`lsp` for
//! `lsp.lua`), a name starting with the query, a stem about as long as the query, and
//! entry points (`index.ts`, `mod.rs`, `__init__.py`, …). Matching is subsequence-based, so
//! missing letters (`buton`), abbreviations (`compbutton`) and skipped path parts
//! (`src/comp/buton`) all match; swapped, wrong and extra letters are [`super::typo`]'s.
//!
//! Candidates are ordered by [`Fit`] first: tight matches, then near ones (letters left
//! out of a word, or one typo away), then matches whose letters are scattered along the
//! path, whatever their scores. Within a fit,
//! the final score combines the match (normalised to the best candidate of that fit, so
//! it is comparable across queries) with frecency on a log scale and the `[priorities]`
//! globs.

use globset::{Glob, GlobSet, GlobSetBuilder};
use nucleo_matcher::pattern::{AtomKind, CaseMatching, Normalization, Pattern};
use nucleo_matcher::{Config, Matcher, Utf32Str};

use crate::config::{Priorities, Weights};

/// File names that are a module's entry point.
const ENTRY_POINTS: &[&str] = &[
    "index.ts",
    "index.tsx",
    "index.js",
    "index.jsx",
    "index.mjs",
    "mod.rs",
    "lib.rs",
    "main.rs",
    "__init__.py",
    "main.py",
    "main.go",
    "index.md",
    "README.md",
];

/// Weight of the normalised match score (0..=1).
pub(crate) const MATCH_WEIGHT: f64 = 100.0;
/// Weight of `ln(1 + frecency)`.
pub(crate) const FRECENCY_WEIGHT: f64 = 8.0;
/// Added for a `[priorities] high` match.
pub(crate) const PRIORITY_HIGH: f64 = 10.0;
/// Added for a `[priorities] low` match (negative).
pub(crate) const PRIORITY_LOW: f64 = -25.0;
/// Score given to a candidate the index matched but the fuzzy matcher did not (e.g.
/// words typed in another order than the path has them), before normalisation.
const FTS_ONLY_FRACTION: f64 = 0.3;

/// Which characters `text` holds, as a 64-bit set: ASCII letters (case folded), digits,
/// `/ . _ -` and space; any other character sets every bit (the matcher folds accents,
/// so such a text may match anything). A path can only match a query whose
/// [`PathMatcher::required_chars`] its mask holds: the fuzzy scan skips the rest unread.
pub fn char_mask(text: &str) -> u64 {
    text.bytes().fold(0, |mask, b| mask | byte_mask(b))
}

/// The bit of byte `b` in a [`char_mask`] (every bit for a byte of a non-ASCII
/// character).
fn byte_mask(b: u8) -> u64 {
    BYTE_MASKS[usize::from(b)]
}

/// [`byte_mask`] of each byte: a table, since the scan reads every file name's bytes.
static BYTE_MASKS: [u64; 256] = {
    let mut table = [u64::MAX; 256];
    let mut b = 0;
    while b < 0x80 {
        table[b] = match b as u8 {
            c @ b'a'..=b'z' => 1 << (c - b'a'),
            c @ b'A'..=b'Z' => 1 << (c - b'A'),
            c @ b'0'..=b'9' => 1 << (26 + c - b'0'),
            b'/' => 1 << 36,
            b'.' => 1 << 37,
            b'_' => 1 << 38,
            b'-' => 1 << 39,
            b' ' => 1 << 40,
            _ => 1 << 41,
        };
        b += 1;
    }
    table
};

/// Which characters of `text` (see [`char_mask`]) stand where nucleo's path matching
/// gives a bonus: a letter or digit that begins a word (at the start, after `/`, a space
/// or punctuation), an upper-case letter after a lower-case one, a digit after a
/// non-digit, and every space and punctuation character; every bit when `text` is not
/// ASCII. A query word whose first character is not among them scores no bonus for it
/// (see [`Needle::max_fuzzy_within`]): `x` in `index.ts`.
pub fn boundary_mask(text: &str) -> u64 {
    #[derive(Clone, Copy, PartialEq)]
    enum Class {
        Space,
        Delimiter,
        Other,
        Lower,
        Upper,
        Digit,
    }
    let class = |b: u8| match b {
        b'a'..=b'z' => Class::Lower,
        b'A'..=b'Z' => Class::Upper,
        b'0'..=b'9' => Class::Digit,
        b'/' => Class::Delimiter,
        b if b.is_ascii_whitespace() => Class::Space,
        _ => Class::Other,
    };
    // As in nucleo's `Config::bonus_for`, paths configuration (which reads a text as if
    // it followed a `/`).
    let mut prev = Class::Delimiter;
    let mut mask = 0;
    for b in text.bytes() {
        if !b.is_ascii() {
            return u64::MAX;
        }
        let now = class(b);
        let word = matches!(now, Class::Lower | Class::Upper | Class::Digit);
        let bonus = (word && matches!(prev, Class::Space | Class::Delimiter | Class::Other))
            || (prev == Class::Lower && now == Class::Upper)
            || (prev != Class::Digit && now == Class::Digit)
            || matches!(now, Class::Space | Class::Other);
        if bonus {
            mask |= byte_mask(b);
        }
        prev = now;
    }
    mask
}

/// Scores paths against one query.
pub struct PathMatcher {
    text: String,
    needle: Needle,
    scratch: Scratch,
}

/// A query compiled for scoring: the fuzzy pattern and what the bonuses compare.
pub(crate) struct Needle {
    pattern: Pattern,
    /// The query, trimmed, lower case.
    lower: String,
    chars: usize,
    /// Whether the file name's bonuses apply: the query is not empty and names no
    /// directory (has no `/`).
    names: bool,
    /// Characters every text it matches holds (see [`char_mask`]).
    required: u64,
    /// No text scores higher than this before bonuses (see [`max_fuzzy_score`]).
    max_fuzzy: u32,
    /// The first character of each word of the query (see [`char_mask`]; 0 when it is
    /// not ASCII).
    firsts: Vec<u64>,
    /// [`Needle::closeness`] of the stems shorter than [`CLOSENESS_TABLE`] characters,
    /// found once: the bound of every path a scan looks at reads it.
    closeness: Vec<f64>,
    /// The query's first [`HEAD`] bytes (little-endian, zeros past its end) and the
    /// mask of those bytes: a head (see [`NameFacts`]) may begin the query where it
    /// holds them (see [`Needle::head_may_begin`]).
    head: u64,
    head_mask: u64,
    /// The bounds of the plain paths (see [`Needle::plain_bound`]), found once.
    plain: Vec<u32>,
}

/// Stems up to this many characters have their [`Needle::closeness`] in a table.
const CLOSENESS_TABLE: usize = 64;

/// The highest fuzzy score nucleo (paths configuration) gives `pattern`, whatever the
/// path: each word's first character scores at most 16 plus twice the largest boundary
/// bonus (9, after `/`), each further character 16 plus 9 (its own bonus or the one its
/// run began with), and no gap adds.
fn max_fuzzy_score(pattern: &Pattern) -> u32 {
    const FIRST: u32 = 16 + FIRST_BONUS;
    const NEXT: u32 = 16 + 9;
    pattern
        .atoms
        .iter()
        .map(|atom| atom.needle_text().len() as u32)
        .filter(|&chars| chars > 0)
        .map(|chars| FIRST + NEXT * (chars - 1))
        .sum()
}

/// The most the first character of a query word gains from its position: twice the
/// largest boundary bonus (9, after `/`). Where no bonus is given, it gains nothing.
const FIRST_BONUS: u32 = 2 * 9;

/// The characters a text must hold to match `text` as a query: its letters, digits and
/// `/ . _ -` (in any case); other characters may match folded forms, and spaces
/// separate words.
fn required_chars(text: &str) -> u64 {
    text.chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '/' | '.' | '_' | '-'))
        .map(|c| char_mask(c.encode_utf8(&mut [0; 4])))
        .fold(0, |acc, m| acc | m)
}

/// The shorter of `a` and `b` over the longer (lengths in characters; neither is 0).
fn closeness(a: usize, b: usize) -> f64 {
    a.min(b) as f64 / a.max(b) as f64
}

/// The score a match in the file name counts for: a quarter more than the same match
/// anywhere else in the path.
fn name_weight(score: u32) -> u32 {
    score + score / 4
}

impl Needle {
    pub fn new(text: &str) -> Needle {
        let pattern = Pattern::new(
            text,
            CaseMatching::Smart,
            Normalization::Smart,
            AtomKind::Fuzzy,
        );
        let lower = text.trim().to_lowercase();
        let firsts = pattern
            .atoms
            .iter()
            .filter_map(|atom| atom.needle_text().chars().next())
            .map(|c| match u8::try_from(c) {
                Ok(b) if b.is_ascii() => byte_mask(b),
                _ => 0,
            })
            .collect();
        let chars = text.trim().chars().count();
        let (mut head, mut head_mask) = ([0; HEAD], [0; HEAD]);
        for (i, b) in lower.bytes().take(HEAD).enumerate() {
            (head[i], head_mask[i]) = (b, 0xff);
        }
        let mut needle = Needle {
            max_fuzzy: max_fuzzy_score(&pattern),
            firsts,
            closeness: (0..CLOSENESS_TABLE)
                .map(|stem| closeness(chars, stem))
                .collect(),
            pattern,
            names: !lower.is_empty() && !lower.contains('/'),
            lower,
            chars,
            required: required_chars(text),
            head: u64::from_le_bytes(head),
            head_mask: u64::from_le_bytes(head_mask),
            plain: Vec::new(),
        };
        needle.plain = needle.plain_bounds();
        needle
    }

    /// Whether a text whose first bytes are `head` (see [`NameFacts`]) may begin with
    /// the query ignoring ASCII case: false only when it cannot, and true only when it
    /// does if the query is no longer than the head and holds no NUL (which the head's
    /// padding is).
    fn head_may_begin(&self, head: [u8; HEAD]) -> bool {
        u64::from_le_bytes(head) & self.head_mask == self.head
    }

    /// Whether the path whose [`NameFacts`] are `facts` may begin with the query (a
    /// query of two characters or more), and whether its file name may (for a query that
    /// names no directory; a name that is not ASCII always may): what its heads say.
    fn heads_may_begin(&self, facts: &NameFacts) -> (bool, bool) {
        let ascii = facts.has(NameFacts::ASCII);
        let prefix = self.lower.len() > 1 && self.head_may_begin(facts.path_head);
        let name = self.names && (!ascii || self.head_may_begin(facts.name_head));
        (prefix, name)
    }

    /// The bound (see [`PathMatcher::bound`]) of a plain path, one neither whose first
    /// bytes nor whose file name's may begin the query and whose stem is shorter than
    /// [`CLOSENESS_TABLE`] characters: most paths of an unselective query. Its bonuses
    /// are then its closeness and whether it is an entry point, so its bound is one of
    /// [`Needle::plain_bounds`], by those and by the words whose first character it
    /// misses (see [`Needle::max_fuzzy_within`]) and whether its name may match. None
    /// for any other path.
    fn plain_bound(&self, facts: &NameFacts, boundaries: u64) -> Option<u32> {
        let (prefix_may, name_may) = self.heads_may_begin(facts);
        let stem = usize::from(facts.stem_chars);
        if prefix_may || name_may || stem >= CLOSENESS_TABLE {
            return None;
        }
        let in_name = facts.has(NameFacts::WHOLE) || self.name_may_match(facts.mask);
        let entry = facts.has(NameFacts::ENTRY);
        let at = Needle::plain_at(self.missed(boundaries), in_name, entry, stem);
        self.plain.get(at).copied()
    }

    /// Where [`Needle::plain_bound`] keeps a bound in [`Needle::plain`].
    fn plain_at(missed: usize, in_name: bool, entry: bool, stem: usize) -> usize {
        ((missed * 2 + usize::from(in_name)) * 2 + usize::from(entry)) * CLOSENESS_TABLE + stem
    }

    /// Every bound [`Needle::plain_bound`] reads, as [`Bonuses::of_facts`] and
    /// [`Bonuses::bound`] find it.
    fn plain_bounds(&self) -> Vec<u32> {
        let words = self.firsts.iter().filter(|&&first| first != 0).count();
        let mut plain = vec![0; Needle::plain_at(words + 1, false, false, 0)];
        for missed in 0..=words {
            let max_fuzzy = self.max_fuzzy - missed as u32 * FIRST_BONUS;
            for in_name in [false, true] {
                for entry in [false, true] {
                    for stem in 0..CLOSENESS_TABLE {
                        let bonuses = Bonuses {
                            prefix: false,
                            exact_stem: false,
                            name_start: false,
                            closeness: (self.names && stem > 0).then(|| self.closeness(stem)),
                            entry,
                        };
                        plain[Needle::plain_at(missed, in_name, entry, stem)] =
                            bonuses.bound(max_fuzzy, in_name);
                    }
                }
            }
        }
        plain
    }

    /// How close a stem of `stem_chars` characters is to the query's length: the shorter
    /// over the longer.
    fn closeness(&self, stem_chars: usize) -> f64 {
        match self.closeness.get(stem_chars) {
            Some(&closeness) => closeness,
            None => closeness(self.chars, stem_chars),
        }
    }

    /// Whether the file name `name` may match (it holds every required character); a
    /// name that may not is never matched.
    fn name_may_match(&self, name_mask: u64) -> bool {
        name_mask & self.required == self.required
    }

    /// The most a text whose [`boundary_mask`] is `boundaries` scores before bonuses:
    /// [`Needle::max_fuzzy`], less [`FIRST_BONUS`] for each word of the query whose first
    /// character stands nowhere in the text a bonus is given.
    fn max_fuzzy_within(&self, boundaries: u64) -> u32 {
        self.max_fuzzy - self.missed(boundaries) as u32 * FIRST_BONUS
    }

    /// The words of the query whose first character stands nowhere in a text whose
    /// [`boundary_mask`] is `boundaries`.
    fn missed(&self, boundaries: u64) -> usize {
        self.firsts
            .iter()
            .filter(|&&first| first != 0 && first & boundaries == 0)
            .count()
    }
}

/// The file name of a path, and what the bonuses read of it, found in one backward pass
/// over the name (the bound of every path a scan looks at starts here).
struct FileName<'a> {
    /// Where the name begins in the path (after its last `/`).
    at: usize,
    name: &'a str,
    /// The name up to its first `.`.
    stem: &'a str,
    /// The name's characters (see [`char_mask`]); every bit when it is not ASCII.
    mask: u64,
}

impl<'a> FileName<'a> {
    fn of(path: &'a str) -> FileName<'a> {
        let bytes = path.as_bytes();
        let (mut at, mut mask) = (bytes.len(), 0);
        let mut stem_end = bytes.len();
        while at > 0 && bytes[at - 1] != b'/' {
            at -= 1;
            mask |= byte_mask(bytes[at]);
            if bytes[at] == b'.' {
                stem_end = at;
            }
        }
        // `at` and `stem_end` border ASCII bytes (or the edges): char boundaries.
        FileName {
            at,
            name: &path[at..],
            stem: &path[at..stem_end],
            mask,
        }
    }

    fn is_ascii(&self) -> bool {
        self.mask != u64::MAX
    }
}

/// What the bound of a path reads of it besides its masks (see [`PathMatcher::bound`]):
/// found once when its list is written and stored in the list's entry index, so that a
/// scan bounds a path without reading it. Its first [`HEAD`] bytes and its name's settle
/// whether a query of up to as many bytes begins either; the path itself is read only
/// where a longer query's first bytes begin it (or its name is not ASCII).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct NameFacts {
    /// The file name's characters (see [`char_mask`]); every bit when it is not ASCII.
    mask: u64,
    /// The stem's length in characters, at most `u16::MAX` (then it is counted again).
    stem_chars: u16,
    /// [`NameFacts::WHOLE`], [`NameFacts::ASCII`], [`NameFacts::ENTRY`].
    flags: u8,
    /// The path's first [`HEAD`] bytes, ASCII letters in lower case, zeros past its end.
    path_head: [u8; HEAD],
    /// The file name's, likewise.
    name_head: [u8; HEAD],
}

/// Bytes of a path (and of its name) its [`NameFacts`] keep.
const HEAD: usize = 8;

impl NameFacts {
    /// Bytes of [`NameFacts::to_bytes`].
    pub const BYTES: usize = 11 + 2 * HEAD;
    /// The path is its file name (it has no `/`).
    const WHOLE: u8 = 1;
    /// The file name is ASCII.
    const ASCII: u8 = 2;
    /// The file name is an entry point (see [`ENTRY_POINTS`]).
    const ENTRY: u8 = 4;

    pub fn of(path: &str) -> NameFacts {
        NameFacts::of_name(path, &FileName::of(path))
    }

    fn of_name(path: &str, name: &FileName<'_>) -> NameFacts {
        let head = |text: &str| {
            let mut head = [0; HEAD];
            for (h, b) in head.iter_mut().zip(text.bytes()) {
                *h = b.to_ascii_lowercase();
            }
            head
        };
        let ascii = name.is_ascii();
        let entry = name.name.len() <= LONGEST_ENTRY_POINT
            && ENTRY_POINTS
                .iter()
                .any(|e| e.eq_ignore_ascii_case(name.name));
        let stem_chars = match ascii {
            true => name.stem.len(),
            false => name.stem.chars().count(),
        };
        NameFacts {
            mask: name.mask,
            stem_chars: u16::try_from(stem_chars).unwrap_or(u16::MAX),
            flags: u8::from(name.at == 0) * NameFacts::WHOLE
                + u8::from(ascii) * NameFacts::ASCII
                + u8::from(entry) * NameFacts::ENTRY,
            path_head: head(path),
            name_head: head(name.name),
        }
    }

    pub fn to_bytes(self) -> [u8; NameFacts::BYTES] {
        let mut out = [0; NameFacts::BYTES];
        out[..8].copy_from_slice(&self.mask.to_le_bytes());
        out[8..10].copy_from_slice(&self.stem_chars.to_le_bytes());
        out[10] = self.flags;
        out[11..11 + HEAD].copy_from_slice(&self.path_head);
        out[11 + HEAD..].copy_from_slice(&self.name_head);
        out
    }

    /// Facts [`NameFacts::to_bytes`] wrote; None when `bytes` is not [`NameFacts::BYTES`]
    /// long.
    pub fn from_bytes(bytes: &[u8]) -> Option<NameFacts> {
        if bytes.len() != NameFacts::BYTES {
            return None;
        }
        Some(NameFacts {
            mask: u64::from_le_bytes(bytes[..8].try_into().ok()?),
            stem_chars: u16::from_le_bytes(bytes[8..10].try_into().ok()?),
            flags: bytes[10],
            path_head: bytes[11..11 + HEAD].try_into().ok()?,
            name_head: bytes[11 + HEAD..].try_into().ok()?,
        })
    }

    fn has(&self, flag: u8) -> bool {
        self.flags & flag != 0
    }
}

/// The memory fuzzy scoring works in; one per thread.
pub(crate) struct Scratch {
    matcher: Matcher,
    buf: Vec<char>,
}

impl Scratch {
    pub fn new() -> Scratch {
        Scratch {
            matcher: Matcher::new(Config::DEFAULT.match_paths()),
            buf: Vec::new(),
        }
    }

    /// nucleo's score of `text` for `needle` (None: no match).
    fn fuzzy(&mut self, needle: &Needle, text: &str) -> Option<u32> {
        needle
            .pattern
            .score(Utf32Str::new(text, &mut self.buf), &mut self.matcher)
    }

    /// The match score of `path` for `needle`, or None when it does not match or cannot
    /// reach `floor` (see [`PathMatcher::score_above`]).
    ///
    /// The score is the better of the whole path's fuzzy score and the file name's
    /// (a quarter more, see [`name_weight`]), with the path's [`Bonuses`]. The name is
    /// matched first, and only when the query's characters are all in it: it is short,
    /// and its score often settles the answer, since no whole path scores above
    /// [`Needle::max_fuzzy`] (nucleo may score the name alone higher than the whole
    /// path, so the whole path's score bounds nothing). The whole path is matched only
    /// when the name did not match (the path may still: `src/comp` takes two names), or
    /// when its score could still beat the name's and lift the path to `floor`.
    pub fn score_above(&mut self, needle: &Needle, path: &str, floor: u32) -> Option<u32> {
        let name = FileName::of(path);
        let bonuses = Bonuses::of(needle, path, &name);
        if name.at == 0 {
            // The path is its name: one match.
            if floor > 0 && bonuses.apply(name_weight(needle.max_fuzzy), true) < floor {
                return None;
            }
            let whole = self.fuzzy(needle, path)?;
            let in_name = name_weight(whole);
            return Some(bonuses.apply(in_name, in_name > 0));
        }
        let name_may_match = needle.name_may_match(name.mask);
        // What the bonuses can make of the best fuzzy score there is: below the floor,
        // the path is not worth matching at all (most paths, once the best are known,
        // for a query most paths match).
        if floor > 0 && bonuses.bound(needle.max_fuzzy, name_may_match) < floor {
            return None;
        }
        // A name that matches is part of a path that matches (each word of the query
        // is a subsequence of it, and so of the path): 0 means no match in the name.
        let in_name = match name_may_match {
            true => self.fuzzy(needle, name.name).map_or(0, name_weight),
            false => 0,
        };
        if in_name > 0 && in_name >= needle.max_fuzzy {
            // The path matches, and no whole path scores more than the name.
            return Some(bonuses.apply(in_name, true));
        }
        if floor > 0 && bonuses.apply(needle.max_fuzzy, in_name > 0) < floor {
            return None;
        }
        let whole = self.fuzzy(needle, path)?;
        Some(bonuses.apply(whole.max(in_name), in_name > 0))
    }

    /// The most [`Self::score_above`] can return for the path whose [`NameFacts`] are
    /// `facts` (see [`Bonuses::bound`]), known without matching it; `boundaries` holds
    /// (at least) the path's [`boundary_mask`]; `path` reads the path, when its facts do
    /// not settle a bonus.
    fn bound<'p>(
        needle: &Needle,
        facts: &NameFacts,
        boundaries: u64,
        path: impl FnOnce() -> Option<&'p str>,
    ) -> u32 {
        if let Some(bound) = needle.plain_bound(facts, boundaries) {
            return bound;
        }
        let bonuses = Bonuses::of_facts(needle, facts, path);
        bonuses.bound(
            needle.max_fuzzy_within(boundaries),
            facts.has(NameFacts::WHOLE) || needle.name_may_match(facts.mask),
        )
    }
}

/// `a == b` ignoring case (`b` is lowercase); no allocation when `a` is ASCII (`ascii`).
fn eq_ignore_case(a: &str, b: &str, ascii: bool) -> bool {
    if ascii {
        a.eq_ignore_ascii_case(b)
    } else {
        a.to_lowercase() == b
    }
}

/// Whether `a` starts with `b` ignoring case (`b` is lowercase; `ascii`: `a` is ASCII).
fn starts_with_ignore_case(a: &str, b: &str, ascii: bool) -> bool {
    if ascii {
        a.len() >= b.len() && a.as_bytes()[..b.len()].eq_ignore_ascii_case(b.as_bytes())
    } else {
        a.to_lowercase().starts_with(b)
    }
}

impl PathMatcher {
    /// A matcher for `text` (whitespace separates words matched independently).
    pub fn new(text: &str) -> PathMatcher {
        PathMatcher {
            text: text.to_string(),
            needle: Needle::new(text),
            scratch: Scratch::new(),
        }
    }

    /// Characters every path this matcher matches holds (see [`char_mask`]).
    pub fn required_chars(&self) -> u64 {
        self.needle.required
    }

    /// Another matcher for the same query (matchers are used by one thread at a time).
    pub fn fork(&self) -> PathMatcher {
        PathMatcher::new(&self.text)
    }

    /// The match score of `path` (as displayed, `/`-separated), or None when it does not
    /// match.
    pub fn score(&mut self, path: &str) -> Option<u32> {
        self.score_above(path, 0)
    }

    /// [`Self::score`], or None as soon as it is clear the score cannot reach `floor`
    /// (the highest fuzzy score any path can have, with this path's bonuses, stays below
    /// it: the path is not matched at all).
    pub fn score_above(&mut self, path: &str, floor: u32) -> Option<u32> {
        self.scratch.score_above(&self.needle, path, floor)
    }

    /// The most [`Self::score`] can give `path`, known without matching it: the best
    /// fuzzy score there is, with the bonuses the path earns (its prefix, its file
    /// name's start and stem, an entry point), in the name (a quarter more) only when
    /// the name holds the query's characters. A scan that scores paths in the order of
    /// this bound can stop at the first whose bound is below the worst score it keeps.
    /// `boundaries` holds (at least) the path's [`boundary_mask`]: the best fuzzy score
    /// there is for a path whose characters there do not begin the query's words is
    /// lower.
    pub fn bound(&self, path: &str, boundaries: u64) -> u32 {
        self.bound_of(&NameFacts::of(path), boundaries, || Some(path))
    }

    /// [`Self::bound`] of the path whose [`NameFacts`] are `facts`, read with `path`
    /// only when they do not settle a bonus (its first bytes begin the query): a scan
    /// bounds most paths from its entry index alone. A path `path` cannot read
    /// (None) is given every bonus its facts allow.
    pub(crate) fn bound_of<'p>(
        &self,
        facts: &NameFacts,
        boundaries: u64,
        path: impl FnOnce() -> Option<&'p str>,
    ) -> u32 {
        Scratch::bound(&self.needle, facts, boundaries, path)
    }
}

/// How the query's letters lie in a path: the first key of the ranking, best first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Fit {
    /// Each piece of the query starts a word (after `/ _ - .`, at a camelCase or a
    /// letter/digit change: `syn/mut`, `ssmutex`, `useauth`), or is a run of at least
    /// four characters (or the whole query) inside one (`config` in `tsconfig.json`).
    Tight,
    /// Near what was typed: a name matched with letters left out (`confg`, `sugest`:
    /// a piece that goes on inside a directory or file name an earlier piece reached),
    /// or a run one edit away from the query (see [`super::typo`]).
    Near,
    /// Letters spread over the path: a piece starts inside a word of a directory or
    /// file name no earlier piece reached (`ute` of `absolute` for `conuter`), or a name
    /// reached takes more than two such pieces.
    Scattered,
}

/// Most pieces a segment's match may add inside its words (letters left out) and still
/// be [`Fit::Near`].
const MAX_GAPS_PER_SEGMENT: usize = 2;
/// A piece this long counts as a real substring wherever it starts.
const SUBSTRING_PIECE: usize = 4;

impl PathMatcher {
    /// How the query's letters lie in `path`, which it matches with `score`: the
    /// [`Fit`] of the better of the file name alone and nucleo's alignment over the
    /// whole path, and the score, raised by an eighth when the query's directories lead
    /// to the start of the file name: its last piece begins the name, the pieces before
    /// are in directories (`ssrwlo` for `src/sync/rwlock.rs` rather than
    /// `src/sync/rwlock/read_guard.rs`).
    pub(crate) fn judge(&mut self, path: &str, score: u32) -> (Fit, u32) {
        let name_at = path.rfind('/').map_or(0, |i| i + 1);
        let mut best = (Fit::Scattered, score);
        let spans = [&path[name_at..], path];
        for (k, text) in spans.into_iter().enumerate() {
            if k == 1 && name_at == 0 {
                break;
            }
            let mut indices = Vec::new();
            let scratch = &mut self.scratch;
            let found = self.needle.pattern.indices(
                Utf32Str::new(text, &mut scratch.buf),
                &mut scratch.matcher,
                &mut indices,
            );
            if found.is_none() {
                continue;
            }
            indices.sort_unstable();
            indices.dedup();
            let chars: Vec<char> = text.chars().collect();
            let fit = fit_of(&chars, &indices, self.needle.chars);
            if fit < best.0 {
                let name = path[..name_at].chars().count() as u32;
                let led = k == 1 && indices.first().is_some_and(|&i| i < name) && {
                    let in_name = &indices[indices.partition_point(|&i| i < name)..];
                    in_name.first() == Some(&name)
                        && in_name
                            .iter()
                            .enumerate()
                            .all(|(j, &i)| i == name + j as u32)
                };
                best = (fit, if led { score + score / 8 } else { score });
            }
            if best.0 == Fit::Tight {
                break;
            }
        }
        best
    }
}

/// The [`Fit`] of the matched positions `indices` (sorted) of `chars`, for a query of
/// `query_chars` characters.
fn fit_of(chars: &[char], indices: &[u32], query_chars: usize) -> Fit {
    let starts_word = |i: usize| {
        let cur = chars[i];
        i == 0 || !cur.is_alphanumeric() || {
            let prev = chars[i - 1];
            !prev.is_alphanumeric()
                || (prev.is_lowercase() && cur.is_uppercase())
                || (prev.is_alphabetic() != cur.is_alphabetic())
        }
    };
    // The segment of each character (a `/` belongs to the one it ends).
    let mut segment_of = Vec::with_capacity(chars.len());
    let mut segment = 0;
    for &c in chars {
        segment_of.push(segment);
        segment += usize::from(c == '/');
    }
    let mut fit = Fit::Tight;
    let mut reached: Option<usize> = None;
    let mut gaps = 0;
    let mut k = 0;
    while k < indices.len() {
        let start = indices[k] as usize;
        let mut end = start;
        while k + 1 < indices.len() && indices[k + 1] as usize == end + 1 {
            k += 1;
            end += 1;
        }
        k += 1;
        if end >= chars.len() {
            return Fit::Scattered;
        }
        let first = segment_of[start];
        let last = segment_of[end] + usize::from(chars[end] == '/');
        let len = end - start + 1;
        if starts_word(start) {
            // Fine anywhere.
        } else if reached == Some(first) {
            // Inside a word already reached: letters left out.
            gaps += 1;
            if gaps > MAX_GAPS_PER_SEGMENT {
                return Fit::Scattered;
            }
            fit = Fit::Near;
        } else if len < SUBSTRING_PIECE && len < query_chars {
            return Fit::Scattered;
        }
        if reached != Some(first) || last != first {
            gaps = 0;
        }
        reached = Some(last);
    }
    fit
}

/// The bonuses `path` (whose file name is `name`) earns for `needle`, found once and
/// applied both to the bound of what it can score and to its score.
struct Bonuses {
    /// The path begins with what was typed (the spec's prefix match: `src/comp`).
    prefix: bool,
    /// The file stem is the query (`lsp` for `lsp.lua`).
    exact_stem: bool,
    /// Otherwise: the file name begins with the query.
    name_start: bool,
    /// Otherwise: how close the stem's length is to the query's (`buton` is nearer
    /// `Button` than `buttons`), when the query matches in the file name.
    closeness: Option<f64>,
    /// The file is an entry point (`index.ts`, `mod.rs`, …).
    entry: bool,
}

impl Bonuses {
    fn of(needle: &Needle, path: &str, name: &FileName<'_>) -> Bonuses {
        Bonuses::of_facts(needle, &NameFacts::of_name(path, name), || Some(path))
    }

    /// The bonuses of the path whose [`NameFacts`] are `facts`; `path` reads it, and is
    /// called only when the facts do not settle them: a query longer than [`HEAD`] bytes
    /// (or holding a NUL) whose first bytes begin the path or its name, or a name that is
    /// not ASCII. A path it cannot read is given every bonus its facts allow.
    fn of_facts<'p>(
        needle: &Needle,
        facts: &NameFacts,
        path: impl FnOnce() -> Option<&'p str>,
    ) -> Bonuses {
        let lower = needle.lower.as_str();
        let ascii = facts.has(NameFacts::ASCII);
        let (prefix_may, name_may) = needle.heads_may_begin(facts);
        // The stem's length in characters (a name's, always below `u16::MAX`).
        let mut stem_chars = usize::from(facts.stem_chars);
        // Where the heads hold the whole query, they settle the prefix, and for an ASCII
        // name its start and its stem (which begins it).
        let settled = lower.len() <= HEAD && !lower.as_bytes().contains(&0);
        let exact_stem = name_may && stem_chars == lower.len();
        let mut bonuses = Bonuses {
            prefix: prefix_may,
            exact_stem,
            name_start: name_may && !exact_stem,
            closeness: None,
            entry: facts.has(NameFacts::ENTRY),
        };
        let unsettled = (prefix_may && !settled) || (name_may && !(settled && ascii));
        if unsettled || stem_chars == usize::from(u16::MAX) {
            let Some(path) = path() else {
                // Unread: every bonus the facts allow (an exact stem is worth more than
                // a name's start with any closeness).
                bonuses.exact_stem = name_may;
                bonuses.name_start = false;
                if needle.names && !name_may && stem_chars > 0 {
                    bonuses.closeness = Some(1.0);
                }
                return bonuses;
            };
            bonuses.prefix = prefix_may
                && path.len() >= lower.len()
                && path.is_char_boundary(lower.len())
                && path[..lower.len()].eq_ignore_ascii_case(lower);
            let name = FileName::of(path);
            bonuses.exact_stem = name_may && eq_ignore_case(name.stem, lower, ascii);
            bonuses.name_start =
                name_may && !bonuses.exact_stem && starts_with_ignore_case(name.name, lower, ascii);
            if stem_chars == usize::from(u16::MAX) {
                stem_chars = name.stem.chars().count();
            }
        }
        if needle.names && !bonuses.exact_stem && stem_chars > 0 {
            bonuses.closeness = Some(needle.closeness(stem_chars));
        }
        bonuses
    }

    /// The most a path with these bonuses can score when no fuzzy score of it exceeds
    /// `max_fuzzy`, weighed as a match in the file name when `name_may_match` (see
    /// [`Needle::name_may_match`]).
    fn bound(&self, max_fuzzy: u32, name_may_match: bool) -> u32 {
        match name_may_match {
            true => self.apply(name_weight(max_fuzzy), true),
            false => self.apply(max_fuzzy, false),
        }
    }

    /// `score` with these bonuses; `in_name`: whether the query matched in the file name.
    /// Never lower for a higher `score`, nor with `in_name` than without.
    fn apply(&self, mut score: u32, in_name: bool) -> u32 {
        if self.prefix {
            score += score / 4;
        }
        if self.exact_stem {
            score += score / 2;
        }
        if self.name_start {
            score += score / 8;
        }
        if let Some(closeness) = self.closeness.filter(|_| in_name) {
            score += (score as f64 * closeness / 8.0) as u32;
        }
        if self.entry {
            score += score / 16;
        }
        score
    }
}

/// The length of the longest of [`ENTRY_POINTS`].
const LONGEST_ENTRY_POINT: usize = 11;

/// Git and session activity of one file, as stored in the `frecency` table.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct Activity {
    pub git_recency: f64,
    pub git_frequency: f64,
    pub git_status_boost: f64,
    pub claude_reads: f64,
    pub claude_edits: f64,
    pub claude_mentions: f64,
}

impl Activity {
    /// The spec's frecency score, the weighted sum of the signals, with Claude Code's
    /// own accesses as further signals.
    pub fn frecency(&self, weights: &Weights) -> f64 {
        self.git_recency * weights.git_recency
            + self.git_frequency * weights.git_frequency
            + self.git_status_boost * weights.git_status
            + self.claude_reads * weights.claude_read
            + self.claude_edits * weights.claude_edit
            + self.claude_mentions * weights.claude_mention
    }
}

/// The `[priorities]` globs, matched against the displayed path and the file name.
pub(crate) struct PriorityGlobs {
    high: GlobSet,
    low: GlobSet,
}

impl PriorityGlobs {
    /// Compile the configured globs; invalid ones are skipped with a warning.
    pub fn new(priorities: &Priorities, warnings: &mut Vec<String>) -> PriorityGlobs {
        let build = |globs: &[String], warnings: &mut Vec<String>| {
            let mut set = GlobSetBuilder::new();
            for g in globs {
                match Glob::new(g) {
                    Ok(g) => {
                        set.add(g);
                    }
                    Err(e) => warnings.push(format!("priority glob `{g}`: {e}")),
                }
            }
            set.build().unwrap_or_else(|_| GlobSet::empty())
        };
        PriorityGlobs {
            high: build(&priorities.high, warnings),
            low: build(&priorities.low, warnings),
        }
    }

    /// The priority adjustment of `display` (a `/`-separated path).
    pub fn adjustment(&self, display: &str) -> f64 {
        if self.high.is_empty() && self.low.is_empty() {
            return 0.0;
        }
        let name = display.rsplit('/').next().unwrap_or(display);
        let hit = |set: &GlobSet| set.is_match(display) || set.is_match(name);
        let mut adjustment = 0.0;
        if hit(&self.high) {
            adjustment += PRIORITY_HIGH;
        }
        if hit(&self.low) {
            adjustment += PRIORITY_LOW;
        }
        adjustment
    }
}

/// One candidate on its way to the answer.
#[derive(Debug, Clone)]
pub(crate) struct Candidate {
    /// Canonical absolute path.
    pub path: String,
    /// As shown to the user.
    pub display: String,
    /// Fuzzy match score; None when only the index matched it (or there is no query).
    pub matched: Option<u32>,
    /// How the query fits it (tight unless classified otherwise).
    pub fit: Fit,
    /// Modification time (seconds).
    pub mtime: i64,
    /// Frecency (spec formula).
    pub frecency: f64,
    /// Final score, filled by [`rank`].
    pub score: f64,
}

impl Candidate {
    /// Another match of the same path, found with `fit` and `matched`: a better fit
    /// replaces the match, an equal one keeps the better score.
    pub fn refit(&mut self, fit: Fit, matched: Option<u32>) {
        if fit < self.fit {
            (self.fit, self.matched) = (fit, matched);
        } else if fit == self.fit {
            self.matched = self.matched.max(matched);
        }
    }
}

/// Score and order `candidates`, best first.
///
/// With a query, fit decides first, then the match score normalised to the best match of
/// the same fit, with frecency and priorities; without one, frecency, then modification
/// time, decide.
pub(crate) fn rank(candidates: &mut [Candidate], priorities: &PriorityGlobs, has_query: bool) {
    // The best match of each fit: scores are normalised within their fit.
    let mut best = [1u32; 3];
    for c in candidates.iter() {
        if let Some(m) = c.matched {
            best[c.fit as usize] = best[c.fit as usize].max(m);
        }
    }
    for c in candidates.iter_mut() {
        let m = if has_query {
            c.matched.map_or(FTS_ONLY_FRACTION, |s| {
                s as f64 / best[c.fit as usize] as f64
            })
        } else {
            0.0
        };
        c.score = MATCH_WEIGHT * m
            + FRECENCY_WEIGHT * c.frecency.max(0.0).ln_1p()
            + priorities.adjustment(&c.display);
    }
    candidates.sort_by(|a, b| {
        let fit = if has_query {
            a.fit.cmp(&b.fit)
        } else {
            std::cmp::Ordering::Equal
        };
        fit.then_with(|| b.score.total_cmp(&a.score))
            .then_with(|| {
                if has_query {
                    std::cmp::Ordering::Equal
                } else {
                    b.mtime.cmp(&a.mtime)
                }
            })
            .then_with(|| a.display.len().cmp(&b.display.len()))
            .then_with(|| a.display.cmp(&b.display))
    });
}

/// The paths of a generated tree for tests that compare a shortcut with scoring every
/// path: `n` paths 0 to 5 directories deep, drawn (deterministically, from `seed`) from
/// words that share prefixes (`ser`, `server`, `Service`, `parser`), in various cases,
/// joined in the ways names are (`_`, `-`, `.`, camelCase), with entry points, a few
/// non-ASCII names and spaces.
#[cfg(test)]
pub(crate) fn generated_paths(n: usize, seed: u64) -> Vec<String> {
    const WORDS: &[&str] = &[
        "ser",
        "server",
        "Service",
        "sERVER",
        "parser",
        "user",
        "src",
        "s",
        "se",
        "rs",
        "lib",
        "index",
        "mod",
        "README",
        "tests",
        "utils",
        "hooks",
        "use",
        "café",
        "sérvice",
        "a b",
        "x",
        "api",
        "config",
        "Button",
        "components",
    ];
    const EXTS: &[&str] = &["rs", "ts", "tsx", "md", "py", "json", ""];
    const ENTRIES: &[&str] = &["index.ts", "mod.rs", "__init__.py", "README.md", "main.rs"];
    let mut state = seed | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as usize
    };
    let mut paths = std::collections::BTreeSet::new();
    while paths.len() < n {
        let mut path = String::new();
        for _ in 0..next() % 6 {
            path.push_str(WORDS[next() % WORDS.len()]);
            path.push('/');
        }
        if next() % 8 == 0 {
            path.push_str(ENTRIES[next() % ENTRIES.len()]);
        } else {
            path.push_str(WORDS[next() % WORDS.len()]);
            path.push_str(["", "_", "-", ".", ""][next() % 5]);
            let second = WORDS[next() % WORDS.len()];
            if next() % 3 == 0 {
                // camelCase
                let mut chars = second.chars();
                path.extend(chars.next().map(|c| c.to_ascii_uppercase()));
                path.push_str(chars.as_str());
            } else {
                path.push_str(second);
            }
            let ext = EXTS[next() % EXTS.len()];
            if !ext.is_empty() {
                path.push('.');
                path.push_str(ext);
            }
        }
        paths.insert(path);
    }
    paths.into_iter().collect()
}

/// Queries that most of [`generated_paths`] match (letters that begin many names, or
/// are in most paths), and a few that few match, for the same tests.
#[cfg(test)]
pub(crate) const UNSELECTIVE_QUERIES: &[&str] = &[
    "ser",
    "s",
    "se",
    "e",
    "r",
    "SER",
    "Ser",
    "sr",
    "src/s",
    "s/s",
    "use",
    "er.rs",
    "index",
    "rs",
    "a b",
    "ser vice",
    "sé",
    "ts",
    "x",
    "server",
    "srvr",
    "utils.ts",
    "hooks/use",
    "buton",
    "/",
    ".",
];

#[cfg(test)]
mod tests {
    use super::*;

    fn order(query: &str, paths: &[&str]) -> Vec<String> {
        let mut m = PathMatcher::new(query);
        let mut cands: Vec<Candidate> = paths
            .iter()
            .filter_map(|p| {
                let score = m.score(p)?;
                let (fit, matched) = m.judge(p, score);
                Some(Candidate {
                    path: format!("/r/{p}"),
                    display: p.to_string(),
                    matched: Some(matched),
                    fit,
                    mtime: 0,
                    frecency: 0.0,
                    score: 0.0,
                })
            })
            .collect();
        let none = PriorityGlobs::new(&Priorities::default(), &mut Vec::new());
        rank(&mut cands, &none, true);
        cands.into_iter().map(|c| c.display).collect()
    }

    #[test]
    fn a_path_the_matcher_matches_always_holds_the_required_characters() {
        let paths = [
            "src/components/Button.tsx",
            "src/lib/api-client.ts",
            "docs/Guide_v2.md",
            "café/menu.md",
            "assets/Ünïcödé.png",
            "a b/c.txt",
            "x/y.z",
        ];
        let queries = [
            "buton", "src/comp", "API-CL", "guide_v2", "cafe", "unicode", "c.t", "a b", "x", "ÜN",
            "z9", "b c", "", " ",
        ];
        for query in queries {
            let mut m = PathMatcher::new(query);
            for path in paths {
                let holds = char_mask(path) & m.required_chars() == m.required_chars();
                if m.score(path).is_some() {
                    assert!(
                        holds,
                        "{query:?} matches {path:?} but its mask rules it out"
                    );
                }
            }
        }
        // And the masks do rule paths out.
        let m = PathMatcher::new("buton");
        assert_ne!(
            char_mask("docs/Guide_v2.md") & m.required_chars(),
            m.required_chars()
        );
        assert_eq!(char_mask("a-Z/9_. "), char_mask(" .Z_a/-9"));
        assert_eq!(char_mask("é"), u64::MAX);
    }

    #[test]
    fn typos_abbreviations_and_skipped_parts_match() {
        let paths = [
            "src/components/Button.tsx",
            "src/components/Modal.tsx",
            "src/lib/build.ts",
            "docs/buttons.md",
        ];
        for q in ["buton", "src/comp/buton", "compbutton", "Button", "scbutt"] {
            assert_eq!(order(q, &paths)[0], "src/components/Button.tsx", "{q}");
        }
    }

    #[test]
    fn no_path_scores_above_the_bound_nor_is_skipped_by_it() {
        let paths = [
            "s",
            "ser",
            "/ser",
            "a/s/e/r",
            "src/server/ser.rs",
            "Ser_Ser-ser.ser",
            "x/SerVer/sERVER",
            "tests/fixtures/sessions/edge-cases/task_id_linking_real_world_bash.jsonl",
            "café/Sérvice.md",
            "a b/c d",
            "\r",
            "x/a\tb",
            "a b",
            "¯\\ d",
            "\0p\x0f\0oc/onm\0\0p\x0f\0oc/compv\"\u{dc}nx",
        ];
        for query in [
            "s", "ser", "SER", "server", "a b", "c d", "sér", "src/ser", "ss", "\r", "a\tb",
            "a\\ b", "¯\\ d", "c",
        ] {
            let needle = Needle::new(query);
            let mut m = PathMatcher::new(query);
            for path in paths {
                let mut scratch = Scratch::new();
                if let Some(raw) = needle
                    .pattern
                    .score(Utf32Str::new(path, &mut scratch.buf), &mut scratch.matcher)
                {
                    let within = needle.max_fuzzy_within(boundary_mask(path));
                    assert!(raw <= within, "{query:?} {path:?}: {raw} > {within}");
                }
                // A floor equal to the score never turns the path away.
                if let Some(score) = m.score(path) {
                    assert_eq!(
                        m.score_above(path, score),
                        Some(score),
                        "{query:?} {path:?}"
                    );
                }
            }
        }
        // The best match reaches the bound: it is as tight as it can be.
        let mut scratch = Scratch::new();
        let needle = Needle::new("ser");
        let raw = needle.pattern.score(
            Utf32Str::new("x/ser", &mut scratch.buf),
            &mut scratch.matcher,
        );
        assert_eq!(raw, Some(needle.max_fuzzy));
        // So is the bound of a path where no word of the query can begin where a bonus
        // is given: `x` inside `index`, `s` and `b` inside words.
        for (query, path) in [("x", "a/index.rs"), ("s b", "les/abs"), ("x", "a/ax")] {
            let needle = Needle::new(query);
            let within = needle.max_fuzzy_within(boundary_mask(path));
            assert!(within < needle.max_fuzzy, "{query:?} {path:?}");
            let raw = needle
                .pattern
                .score(Utf32Str::new(path, &mut scratch.buf), &mut scratch.matcher);
            assert_eq!(raw, Some(within), "{query:?} {path:?}");
        }
    }

    #[test]
    fn boundary_masks_hold_the_characters_a_bonus_is_given_at() {
        let chars = |mask: u64| -> String {
            (b' '..=b'~')
                .filter(|&b| !b.is_ascii_uppercase() && byte_mask(b) & mask == byte_mask(b))
                .map(char::from)
                .collect()
        };
        // Word starts, camelCase, digits after non-digits, punctuation; not `/` itself.
        assert_eq!(chars(boundary_mask("src/fooBar_baz9.rs")), ".9_bfrs");
        // Spaces count; a digit after a digit and a capital after a capital do not.
        assert_eq!(chars(boundary_mask("a b12 CD")), " 1abc");
        assert_eq!(boundary_mask("café"), u64::MAX);
        assert_eq!(boundary_mask(""), 0);
    }

    /// What scoring was before the name was matched first: both the whole path and the
    /// name, always.
    fn score_both(needle: &Needle, path: &str) -> Option<u32> {
        let mut scratch = Scratch::new();
        let name = path.rsplit('/').next().unwrap_or(path);
        let bonuses = Bonuses::of(needle, path, &FileName::of(path));
        let whole = scratch.fuzzy(needle, path)?;
        let in_name = if name.len() < path.len() {
            scratch.fuzzy(needle, name).map_or(0, name_weight)
        } else {
            name_weight(whole)
        };
        Some(bonuses.apply(whole.max(in_name), in_name > 0))
    }

    #[test]
    fn matching_the_name_first_scores_as_matching_both_and_stays_under_the_bound() {
        let paths = generated_paths(3000, 7);
        for path in &paths {
            let name = FileName::of(path);
            assert_eq!(name.name, path.rsplit('/').next().unwrap());
            assert_eq!(name.stem, name.name.split('.').next().unwrap());
            assert_eq!(name.mask, char_mask(name.name));
            assert_eq!(name.is_ascii(), name.name.is_ascii());
        }
        for query in UNSELECTIVE_QUERIES {
            let needle = Needle::new(query);
            let mut m = PathMatcher::new(query);
            for path in &paths {
                let expected = score_both(&needle, path);
                assert_eq!(m.score(path), expected, "{query:?} {path:?}");
                let Some(score) = expected else {
                    assert_eq!(m.score_above(path, 1), None, "{query:?} {path:?}");
                    continue;
                };
                assert!(
                    m.bound(path, boundary_mask(path)) >= score,
                    "{query:?} {path:?}: {score}"
                );
                // A floor up to the score never turns the path away, nor changes it.
                for floor in [1, score / 2, score] {
                    assert_eq!(
                        m.score_above(path, floor),
                        Some(score),
                        "{query:?} {path:?}"
                    );
                }
                for floor in [score + 1, m.bound(path, boundary_mask(path)) + 1] {
                    let above = m.score_above(path, floor);
                    assert!(
                        above.is_none() || above == Some(score),
                        "{query:?} {path:?}"
                    );
                }
                // Above the bound of any path with its bonuses, it is not matched at all.
                assert_eq!(m.score_above(path, m.bound(path, u64::MAX) + 1), None);
            }
        }
    }

    /// The bonuses of `path`, read from the path itself: what [`Bonuses::of_facts`] must
    /// find from a path's [`NameFacts`], reading it only where they do not settle one.
    fn bonuses_read_from(needle: &Needle, path: &str) -> Bonuses {
        let name = path.rsplit('/').next().unwrap();
        let stem = name.split('.').next().unwrap();
        let lower = needle.lower.as_str();
        let names = needle.names;
        let exact_stem = names && stem.to_lowercase() == lower;
        Bonuses {
            prefix: lower.len() > 1
                && path
                    .get(..lower.len())
                    .is_some_and(|p| p.eq_ignore_ascii_case(lower)),
            exact_stem,
            name_start: names && !exact_stem && name.to_lowercase().starts_with(lower),
            closeness: (names && !exact_stem && !stem.is_empty()).then(|| {
                let (n, s) = (needle.chars, stem.chars().count());
                n.min(s) as f64 / n.max(s) as f64
            }),
            entry: ENTRY_POINTS.iter().any(|e| e.eq_ignore_ascii_case(name)),
        }
    }

    #[test]
    fn the_bonuses_from_a_paths_facts_are_the_paths_and_it_is_read_only_where_needed() {
        let mut paths = generated_paths(3000, 11);
        paths.extend(
            [
                "Button.tsx",
                "src/components/Button/index.ts",
                "buttons/ButtonGroup.tsx",
                "butter/x.rs",
                "Ünïcode/Àb.rs",
                "café/Ünïcode.test.rs",
                "a",
                "ab",
                "READme.MD",
                "x/.env",
                "x/",
                "ServiceParser.rs",
                "src/server/x.rs",
                "a",
                "a\0/b",
            ]
            .map(String::from),
        );
        let queries = UNSELECTIVE_QUERIES.iter().chain(&[
            "button",
            "src/components",
            "readme.md",
            "Ünï",
            "àb",
            "butt",
            "b",
            "servicepar",
            "src/server",
            "index.ts",
            "a\0",
        ]);
        let mut plains = 0;
        for query in queries {
            let needle = Needle::new(query);
            let m = PathMatcher::new(query);
            for path in &paths {
                let facts = NameFacts::of(path);
                assert_eq!(NameFacts::from_bytes(&facts.to_bytes()), Some(facts));
                let mut read = false;
                let bonuses = Bonuses::of_facts(&needle, &facts, || {
                    read = true;
                    Some(path.as_str())
                });
                let expected = bonuses_read_from(&needle, path);
                let fields =
                    |b: &Bonuses| (b.prefix, b.exact_stem, b.name_start, b.closeness, b.entry);
                assert_eq!(fields(&bonuses), fields(&expected), "{query:?} {path:?}");
                // The path is read only where a query longer than the heads begins it or
                // its name, or where its name is not ASCII.
                let lower = &needle.lower;
                let k = lower.len().min(HEAD);
                // (A text shorter than the query is taken as padded with NULs.)
                let begins = |text: &str| {
                    let padded = [text.to_ascii_lowercase().as_bytes(), &[0; HEAD]].concat();
                    padded[..k] == lower.as_bytes()[..k]
                };
                let name = path.rsplit('/').next().unwrap();
                if read {
                    let long = lower.len() > HEAD || lower.contains('\0');
                    assert!(
                        (long && ((lower.len() > 1 && begins(path)) || begins(name)))
                            || (needle.names && !name.is_ascii()),
                        "{query:?} {path:?} was read"
                    );
                }
                // Unread, every bonus the facts allow: never a lower bound.
                let unread = Bonuses::of_facts(&needle, &facts, || None);
                for score in [0, 1, 2, 3, 17, 100, 341] {
                    for in_name in [false, true] {
                        assert!(unread.apply(score, in_name) >= bonuses.apply(score, in_name));
                    }
                }
                assert!(
                    m.bound_of(&facts, boundary_mask(path), || None)
                        >= m.bound(path, boundary_mask(path)),
                    "{query:?} {path:?}"
                );
                // A plain path's bound, from the table, is the one its bonuses give.
                for boundaries in [boundary_mask(path), 0, u64::MAX] {
                    let Some(plain) = needle.plain_bound(&facts, boundaries) else {
                        continue;
                    };
                    plains += 1;
                    let in_name = facts.has(NameFacts::WHOLE) || needle.name_may_match(facts.mask);
                    let bound = bonuses.bound(needle.max_fuzzy_within(boundaries), in_name);
                    assert_eq!(plain, bound, "{query:?} {path:?} {boundaries:x}");
                }
            }
        }
        // Most of these paths are plain for most of these queries.
        assert!(plains > paths.len() * 3 * 10, "{plains} plain bounds");
    }

    #[test]
    fn the_longest_entry_point_is_known() {
        assert_eq!(
            ENTRY_POINTS.iter().map(|e| e.len()).max(),
            Some(LONGEST_ENTRY_POINT)
        );
    }

    #[test]
    fn how_a_match_fits() {
        let fit = |query: &str, path: &str| {
            let mut m = PathMatcher::new(query);
            let score = m.score(path).unwrap_or_else(|| panic!("{query} {path}"));
            m.judge(path, score).0
        };
        for (query, path, expected) in [
            ("ssmutex", "src/sync/mutex.rs", Fit::Tight),
            ("syn/mut", "src/sync/mutex.rs", Fit::Tight),
            ("useauth", "src/hooks/useAuth.ts", Fit::Tight),
            ("config", "packages/app/tsconfig.json", Fit::Tight),
            ("ton", "src/Button.tsx", Fit::Tight),
            ("confg", "src/config.rs", Fit::Near),
            ("sugest", "core/src/files/suggest.rs", Fit::Near),
            ("readme", "fixtures/read_tool_pygments.jsonl", Fit::Near),
            (
                "conuter",
                "playground/css/options/absolute-import.styl",
                Fit::Scattered,
            ),
            (
                "engine",
                "tests/fixtures/sessions/edge-cases/task_id_linking_real_world_bash.jsonl",
                Fit::Scattered,
            ),
        ] {
            assert_eq!(fit(query, path), expected, "{query} in {path}");
        }
    }

    #[test]
    fn directories_leading_to_the_file_name_score_more() {
        let mut m = PathMatcher::new("ssrwlo");
        let judged = |m: &mut PathMatcher, path: &str| {
            let score = m.score(path).unwrap();
            (score, m.judge(path, score).1)
        };
        let (score, judged_score) = judged(&mut m, "src/sync/rwlock.rs");
        assert_eq!(judged_score, score + score / 8);
        let (score, judged_score) = judged(&mut m, "src/sync/rwlock/read_guard.rs");
        assert_eq!(judged_score, score);
    }

    #[test]
    fn exact_stem_beats_a_longer_name() {
        let got = order(
            "lsp",
            &["lsp/typos_lsp.lua", "lsp.lua", "config/lsp_setup.lua"],
        );
        assert_eq!(got[0], "lsp.lua");
    }

    #[test]
    fn entry_points_win_ties() {
        let got = order("widget", &["src/widget/view.ts", "src/widget/index.ts"]);
        assert_eq!(got[0], "src/widget/index.ts");
    }

    #[test]
    fn frecency_lifts_equal_matches_but_not_weak_ones() {
        let mut m = PathMatcher::new("util");
        let mk = |p: &str, f: f64, m: &mut PathMatcher| Candidate {
            path: p.into(),
            display: p.into(),
            matched: m.score(p),
            fit: Fit::Tight,
            mtime: 0,
            frecency: f,
            score: 0.0,
        };
        let none = PriorityGlobs::new(&Priorities::default(), &mut Vec::new());
        let mut c = vec![mk("a/util.ts", 0.0, &mut m), mk("b/util.ts", 5.0, &mut m)];
        rank(&mut c, &none, true);
        assert_eq!(c[0].display, "b/util.ts");
        let mut c = vec![
            mk("util.ts", 0.0, &mut m),
            mk("x/u_t_i_l_long_name.ts", 1.0, &mut m),
        ];
        rank(&mut c, &none, true);
        assert_eq!(c[0].display, "util.ts");
    }

    #[test]
    fn priorities_adjust() {
        let prio = Priorities {
            high: vec!["src/**".into()],
            low: vec!["*.lock".into()],
        };
        let globs = PriorityGlobs::new(&prio, &mut Vec::new());
        assert_eq!(globs.adjustment("src/a.rs"), PRIORITY_HIGH);
        assert_eq!(globs.adjustment("deep/Cargo.lock"), PRIORITY_LOW);
        assert_eq!(globs.adjustment("docs/a.md"), 0.0);
    }

    #[test]
    fn spec_frecency_formula() {
        let a = Activity {
            git_recency: 0.5,
            git_frequency: 4.0,
            git_status_boost: 5.0,
            claude_reads: 2.0,
            claude_edits: 1.0,
            claude_mentions: 0.5,
        };
        assert_eq!(
            a.frecency(&Weights::default()),
            0.5 + 2.0 + 25.0 + 1.0 + 1.0 + 1.0
        );
    }
}
