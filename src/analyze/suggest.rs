//! "Did you mean": the one name an unknown name was plausibly meant to be.
//!
//! A wrong suggestion costs an LLM a turn (it follows it), so suggestions
//! are made only when they are plausible:
//!
//! * **Distance** is the optimal-string-alignment edit distance over
//!   characters: an insertion, deletion, substitution or swap of two
//!   neighbouring characters (`fitler` → `filter`) is one edit.
//! * **Relative to the length** of the name written (its part after `/`):
//!   names of 1–2 characters get no suggestion, 3–5 characters at most 1
//!   edit, 6–10 at most 2, longer ones at most 3. So `undefined-thing` gets
//!   nothing (no name is within 3 edits), and `undefined-fn` does not get
//!   `.getTime`.
//! * **Comparable names only**: Java-style interop names (`.getTime`) are
//!   suggested only for names that start with `.` too; `data/NAME` and
//!   `tool/NAME` candidates are compared by their bare part as well
//!   (`prodcts` → `data/products`).
//! * **Same namespace first**: the closest candidate wins; among equally
//!   close ones, those of the name's own namespace come first (for a bare
//!   name: user/ definitions and clojure.core; for `str/uper-case`:
//!   clojure.string), then by name.

/// A name that could be suggested, with its tier: 0 for the namespace the
/// unknown name was written in, higher for the others.
#[derive(Clone, Debug)]
pub struct Candidate<'a> {
    pub name: &'a str,
    pub tier: u8,
}

/// Names longer than this (in characters) get no suggestion.
pub const MAX_SUGGESTED_LEN: usize = 64;

/// The most edits a suggestion for a name of `len` characters may need.
pub fn max_edits(len: usize) -> usize {
    match len {
        0..=2 => 0,
        3..=5 => 1,
        6..=10 => 2,
        _ => 3,
    }
}

/// The plausible suggestion for `name` among `candidates`, if any.
pub fn suggest<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = Candidate<'a>>,
) -> Option<&'a str> {
    let written = name.rsplit('/').next().unwrap_or(name);
    let written_len = written.chars().count();
    let limit = max_edits(written_len);
    // A name this long is not a typo; comparing it would cost its length
    // times every candidate's.
    if limit == 0 || written_len > MAX_SUGGESTED_LEN {
        return None;
    }
    let interop = written.starts_with('.');
    let mut best: Option<(usize, u8, &str)> = None;
    for c in candidates {
        let bare = c.name.rsplit('/').next().unwrap_or(c.name);
        if bare.starts_with('.') != interop || c.name == name {
            continue;
        }
        // The distance is at least the difference in length.
        if bare.chars().count().abs_diff(written_len) > limit
            && c.name.chars().count().abs_diff(name.chars().count()) > limit
        {
            continue;
        }
        let d = edit_distance(name, c.name).min(edit_distance(written, bare));
        if d > limit {
            continue;
        }
        let key = (d, c.tier, c.name);
        if best.is_none_or(|b| key < b) {
            best = Some(key);
        }
    }
    best.map(|(_, _, n)| n)
}

/// The candidate closest to `name`, all in one namespace (see [`suggest`]).
#[cfg(test)]
pub fn closest<'c>(name: &str, candidates: impl Iterator<Item = &'c str>) -> Option<&'c str> {
    suggest(name, candidates.map(|name| Candidate { name, tier: 0 }))
}

/// Optimal-string-alignment distance over characters (Levenshtein plus
/// swaps of two neighbouring characters).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let w = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * w];
    for (i, row) in d.chunks_mut(w).enumerate() {
        row[0] = i;
    }
    for (j, cell) in d.iter_mut().take(w).enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[(i - 1) * w + j] + 1)
                .min(d[i * w + j - 1] + 1)
                .min(d[(i - 1) * w + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[(i - 2) * w + j - 2] + 1);
            }
            d[i * w + j] = v;
        }
    }
    d[a.len() * w + b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance_counts_edits_and_swaps() {
        assert_eq!(edit_distance("filter", "filtr"), 1);
        assert_eq!(edit_distance("fitler", "filter"), 1);
        assert_eq!(edit_distance("map", "map"), 0);
        assert_eq!(edit_distance("abc", "xyz"), 3);
        assert_eq!(edit_distance("", "abcdefgh"), 8);
        assert!(edit_distance("undefined-fn", ".getTime") > 3);
    }

    #[test]
    fn very_long_names_get_no_suggestion_and_cost_nothing() {
        let long = "λ".repeat(20_000);
        let many = (0..1000).map(|_| Candidate {
            name: "frequencies",
            tier: 0,
        });
        assert_eq!(suggest(&long, many), None);
        let near = format!("{}x", "a".repeat(40));
        let target = "a".repeat(40);
        assert_eq!(
            closest(&near, [target.as_str()].into_iter()),
            Some(target.as_str())
        );
    }

    #[test]
    fn allowed_edits_grow_with_the_length() {
        assert_eq!(max_edits(2), 0);
        assert_eq!(max_edits(4), 1);
        assert_eq!(max_edits(8), 2);
        assert_eq!(max_edits(15), 3);
    }

    #[test]
    fn equally_close_names_of_the_same_namespace_win() {
        let c = [
            Candidate {
                name: "joim",
                tier: 1,
            },
            Candidate {
                name: "joit",
                tier: 0,
            },
        ];
        assert_eq!(suggest("join", c.clone()), Some("joit"));
    }
}
