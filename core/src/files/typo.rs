//! Typo tolerance for the `@` picker: a query one edit away from a run of a path.
//!
//! Fuzzy (subsequence) matching forgives missing letters (`buton`), not swapped, wrong or
//! extra ones (`hybird`, `cofnig`, `confiq`, `configg`). [`TypoMatcher`] finds, in a
//! path, a run of characters within one edit of the query: a transposition of two
//! adjacent letters, one letter replaced, inserted or left out (the optimal string
//! alignment distance). The run found is the query the user meant; the path is scored
//! as that query would score it with [`super::PathMatcher`], less a quarter, so a typo match
//! ranks as its correction does, a step below.
//!
//! The search is bit-parallel (Shift-And with one error, extended with transpositions):
//! a handful of word operations per byte of the path, so all paths of a large tree can
//! be looked at when the exact matches do not fill the picker. Queries of 4 to 64 ASCII
//! characters without spaces are looked for; shorter ones would match nearly anything.
//!
//! Why not the other ways: a trigram candidate set loses short words (`mtuex` shares no
//! trigram with `mutex`: one swap in the middle of five letters breaks all three), and an
//! edit distance to the file name alone misses typos of a directory or of a word inside
//! a name (`hybird` for `hybrid_search.rs`) unless it is taken to every substring, which
//! is what this search does in one pass.

use std::collections::HashMap;

use super::rank::{Needle, Scratch, char_mask};

/// Shortest query looked for with a typo.
pub const MIN_TYPO_QUERY: usize = 4;
/// Longest (the bit-parallel state is one 64-bit word).
const MAX_TYPO_QUERY: usize = 64;
/// Most end positions of one path looked at.
const MAX_ENDS: usize = 8;
/// Most corrections kept, with their matchers, by one [`TypoMatcher`].
const MAX_CORRECTIONS: usize = 256;

/// Finds and scores runs of paths within one edit of a query.
pub struct TypoMatcher {
    /// The query, lower case.
    needle: Vec<u8>,
    /// For each byte, the positions of the needle it matches (ASCII case folded).
    positions: Box<[u64; 256]>,
    /// The needle's characters (see [`char_mask`]).
    required: u64,
    /// Each correction seen, compiled, by its lower-case text.
    corrections: HashMap<Vec<u8>, Needle>,
    scratch: Scratch,
    ends: Vec<usize>,
    /// The lower-case correction being looked up.
    key: Vec<u8>,
}

impl TypoMatcher {
    /// A matcher for `query`, or None when the query is not looked for with typos
    /// (shorter than [`MIN_TYPO_QUERY`], longer than 64 bytes, not ASCII, or several
    /// words).
    pub fn new(query: &str) -> Option<TypoMatcher> {
        let query = query.trim();
        if !(MIN_TYPO_QUERY..=MAX_TYPO_QUERY).contains(&query.len())
            || !query.is_ascii()
            || query.contains(char::is_whitespace)
        {
            return None;
        }
        let needle = query.to_ascii_lowercase().into_bytes();
        let mut positions = Box::new([0u64; 256]);
        for (i, &b) in needle.iter().enumerate() {
            positions[usize::from(b)] |= 1 << i;
            positions[usize::from(b.to_ascii_uppercase())] |= 1 << i;
        }
        Some(TypoMatcher {
            required: char_mask(query),
            needle,
            positions,
            corrections: HashMap::new(),
            scratch: Scratch::new(),
            ends: Vec::new(),
            key: Vec::new(),
        })
    }

    /// Another matcher for the same query (matchers are used by one thread at a time).
    pub fn fork(&self) -> TypoMatcher {
        let query = std::str::from_utf8(&self.needle).expect("the needle is ASCII");
        TypoMatcher::new(query).expect("a query `new` took once")
    }

    /// Characters of the query; a path holding all but one of them may match.
    pub fn required_chars(&self) -> u64 {
        self.required
    }

    /// Whether a path with character mask `mask` can match a query with the characters
    /// `required` (it lacks at most one of them: the one a typo replaced or added).
    pub fn may_match(required: u64, mask: u64) -> bool {
        (required & !mask).count_ones() <= 1
    }

    /// The typo score of `path`: the best score of a correction found in it, less a
    /// quarter; None when no run of the path is within one edit of the query.
    pub fn score(&mut self, path: &str) -> Option<u32> {
        self.score_above(path, 0)
    }

    /// [`Self::score`], or None as soon as it is clear the score cannot reach `floor`.
    pub fn score_above(&mut self, path: &str, floor: u32) -> Option<u32> {
        let hay = path.as_bytes();
        self.find_ends(hay);
        // The correction's own score must reach what makes `floor` after the quarter off.
        let needed = floor.saturating_add(floor / 3);
        let mut best = None;
        let mut previous: &[u8] = &[];
        for k in 0..self.ends.len() {
            let Some(correction) = self.correction(hay, self.ends[k]) else {
                continue;
            };
            if correction.eq_ignore_ascii_case(previous) {
                continue;
            }
            previous = correction;
            self.key.clear();
            self.key
                .extend(correction.iter().map(u8::to_ascii_lowercase));
            if !self.corrections.contains_key(self.key.as_slice()) {
                // A run with a byte of a multi-byte character is no correction.
                let Ok(text) = std::str::from_utf8(&self.key) else {
                    continue;
                };
                let needle = Needle::new(text);
                if self.corrections.len() >= MAX_CORRECTIONS {
                    self.corrections.clear();
                }
                self.corrections.insert(self.key.clone(), needle);
            }
            let needle = &self.corrections[self.key.as_slice()];
            if let Some(s) = self.scratch.score_above(needle, path, needed) {
                let s = s - s / 4;
                best = Some(best.map_or(s, |b: u32| b.max(s)));
            }
        }
        best
    }

    /// The end positions (inclusive byte offsets) in `hay` of runs within one edit of
    /// the needle, at most [`MAX_ENDS`], into `self.ends`.
    ///
    /// Bit `i` of `exact` is set when the needle's first `i + 1` bytes end here; of
    /// `one`, when they end here within one edit; of `swap`, when the first `i` bytes
    /// ended one byte back and the byte there is the needle's byte `i + 1` (half of a
    /// transposition, completed when this byte is the needle's byte `i`).
    fn find_ends(&mut self, hay: &[u8]) {
        self.ends.clear();
        let top = 1u64 << (self.needle.len() - 1);
        let (mut exact, mut one, mut swap) = (0u64, 0u64, 0u64);
        for (j, &c) in hay.iter().enumerate() {
            let here = self.positions[usize::from(c)];
            let advanced = (exact << 1) | 1;
            let next_exact = advanced & here;
            let next_one = (((one << 1) | 1) & here) // a match continued
                | exact // this byte is one too many
                | advanced // this byte replaces the needle's
                | ((next_exact << 1) | 1) // the needle's next byte is missing
                | ((swap & here) << 1); // two bytes swapped
            swap = advanced & (here >> 1);
            exact = next_exact;
            one = next_one;
            if (exact | one) & top != 0 {
                self.ends.push(j);
                if self.ends.len() >= MAX_ENDS {
                    return;
                }
            }
        }
    }

    /// The run of `hay` ending at `end` within one edit of the needle: the same length
    /// first, then one shorter, then one longer.
    fn correction<'h>(&self, hay: &'h [u8], end: usize) -> Option<&'h [u8]> {
        let m = self.needle.len();
        [m, m - 1, m + 1].into_iter().find_map(|len| {
            let start = (end + 1).checked_sub(len)?;
            let run = &hay[start..=end];
            within_one_edit(&self.needle, run).then_some(run)
        })
    }
}

/// Whether `b` (ASCII case folded) is within one edit of `a` (lower case): equal, or
/// equal but for two adjacent bytes swapped, one byte replaced, one byte more or one
/// less (an optimal string alignment distance of at most 1), in one pass.
fn within_one_edit(a: &[u8], b: &[u8]) -> bool {
    let same = |x: &[u8], y: &[u8]| {
        x.len() == y.len() && x.iter().zip(y).all(|(p, q)| *p == q.to_ascii_lowercase())
    };
    let i = a
        .iter()
        .zip(b)
        .take_while(|(p, q)| **p == q.to_ascii_lowercase())
        .count();
    match a.len() as isize - b.len() as isize {
        0 => {
            i == a.len()
                || same(&a[i + 1..], &b[i + 1..])
                || (i + 1 < a.len()
                    && a[i] == b[i + 1].to_ascii_lowercase()
                    && a[i + 1] == b[i].to_ascii_lowercase()
                    && same(&a[i + 2..], &b[i + 2..]))
        }
        1 => same(&a[i + 1..], &b[i..]),
        -1 => same(&a[i..], &b[i + 1..]),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::files::PathMatcher;

    #[test]
    fn one_edit_of_any_kind_matches_and_two_do_not() {
        let path = "core/src/hybrid.rs";
        for query in [
            "hybird",  // swapped
            "hyrbid",  // swapped
            "hzbrid",  // replaced
            "hybrrid", // one too many
            "hybid",   // one missing (also a subsequence)
            "HYBIRD",  // case does not matter
        ] {
            let mut m = TypoMatcher::new(query).unwrap();
            assert!(m.score(path).is_some(), "{query}");
        }
        for query in ["hbyird", "hyrbdi", "xxbrid"] {
            let mut m = TypoMatcher::new(query).unwrap();
            assert_eq!(m.score(path), None, "{query}");
        }
    }

    #[test]
    fn a_typo_scores_below_the_exact_query() {
        let path = "src/config.rs";
        let exact = PathMatcher::new("config").score(path).unwrap();
        let typo = TypoMatcher::new("cofnig").unwrap().score(path).unwrap();
        assert!(typo < exact, "{typo} vs {exact}");
        assert!(typo > 0);
    }

    #[test]
    fn short_spaced_or_non_ascii_queries_are_not_looked_for() {
        for query in ["abc", "two words", "héllo", "", &"x".repeat(65)] {
            assert!(TypoMatcher::new(query).is_none(), "{query:?}");
        }
        assert!(TypoMatcher::new(&"x".repeat(64)).is_some());
    }

    #[test]
    fn the_mask_lets_through_every_path_that_can_match() {
        let m = TypoMatcher::new("confiq").unwrap();
        // `q` is not in the path: one character may be missing, not two.
        let required = m.required_chars();
        assert!(TypoMatcher::may_match(required, char_mask("src/config.rs")));
        assert!(!TypoMatcher::may_match(required, char_mask("src/conf.rs")));
    }

    #[test]
    fn one_edit() {
        for (a, b, within) in [
            ("mutex", "mutex", true),
            ("mtuex", "Mutex", true),
            ("mutax", "mutex", true),
            ("mutex", "mute", true),
            ("mutex", "utex", true),
            ("mute", "mutex", true),
            ("mute", "xmute", true),
            ("tmuex", "mutex", false),
            ("mutex", "mu", false),
            ("abcd", "badc", false),
            ("abcd", "abdd", true),
            ("abcd", "acbd", true),
        ] {
            assert_eq!(
                within_one_edit(a.as_bytes(), b.as_bytes()),
                within,
                "{a} {b}"
            );
        }
    }
}
