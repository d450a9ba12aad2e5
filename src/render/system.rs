//! The static SYSTEM prompt (R-11): a concise reference of the PTC-Lisp that
//! ptc implements. It never names a tool, a data value or a turn count, so
//! it is byte-identical for every turn of every session (cacheable).
//!
//! The prose is written here; the lists of special forms and functions are
//! generated from [`crate::analyze::SPECIAL_NAMES`] and the builtin registry
//! (one line per area), so the prompt stays true when builtins are added.
//! Extensions that are not Clojure get one line each, with the registry's
//! doc and example.

use std::fmt::Write as _;
use std::sync::OnceLock;

use super::Protocol;
use crate::analyze::SPECIAL_NAMES;
use crate::builtins::{self, Builtin, Ns};

const INTRO: &str = "\
You solve a mission by writing programs in PTC-Lisp, a small, safe subset of Clojure. \
Each reply of yours is run as one program; the next message shows what it did, and you \
continue from there until the mission is done.

## Replying
- Reply with one ```clojure code block holding the whole program. Text outside the block is ignored.
- A program is one or more top-level forms, run in order; its value is the value of the last form.
- When the mission is done, call (return value) with the answer. If it cannot be done, call (fail \"reason\"). Either one ends the mission at once.

## Namespaces
- data/NAME is an input value (read-only): (count data/orders). The user message lists each one with its type and a sample.
- (tool/NAME arg ...) calls a tool with the arguments its signature lists, e.g. (tool/search \"laptops\") or (tool/search {:query \"laptops\" :limit 3}). Tools may act on the world: the calls your programs made are listed back to you; do not repeat calls that already happened.
- user/ holds what you define with (def name value) and (defn name [params] body). Definitions persist: later programs use them by name, without defining them again, and the user message lists them with their types. A program that fails changes no definition (its tool calls still happened).
- (println ...) output is shown in the next message. Print what you need to see; once you print, definitions are listed without samples.
- *1 *2 *3 are the values of the last three programs.

## Language
Clojure 1.11 syntax and meaning, with these differences:
- One sequential type: lists and the results of map, filter, concat, range ... are vectors, printed [...]. Evaluation is eager; infinite sequences (range, iterate, repeat, cycle, repeatedly, and map/filter/remove/keep/drop/mapcat/concat/cons/reductions/take-nth/interleave/for of them) work through take, take-while, first, nth, some, reduce with reduced ... (lazy-seq body) delays its body until items are needed: (defn fib [a b] (lazy-seq (cons a (fib b (+ a b))))) (take 5 (fib 0 1)); a body giving nil ends the sequence.
- Characters are one-character strings: (first \"abc\") is \"a\".
- / always returns a float: (/ 10 2) is 5.0; use quot for integer division. Integers are 64-bit and overflow is an error.
- A missing keyword key falls back to the same-named string key and back (get, get-in, keyword lookup, :keys).
- nth out of range and get on anything give nil; contains? on a vector tests membership; (find pred coll) gives the first matching item.
- Compare strings with compare, not <. Maps print their entries in insertion order, sets in sorted order, without commas.
- Not available: atoms and other mutable state, eval, import, defmacro, files, network, randomness, threads. (require '[clojure.string :as s]) and (ns name (:require ...)) are accepted for clojure.string, clojure.set, clojure.walk, clojure.data.json and cheshire.core; the prefixes clojure.string/ str/ clojure.set/ set/ clojure.walk/ walk/ json/ work without require.
- Java interop is a fixed list: dates (java.util.Date. ms-or-iso-string), (.getTime date), (System/currentTimeMillis); LocalDate as ISO text: (LocalDate/parse \"2024-01-31\"), LocalDate/of, .plusDays .minusDays .plusMonths .getDayOfWeek .getYear .isBefore, (.between ChronoUnit/DAYS a b); string methods .contains .startsWith .endsWith .toUpperCase .toLowerCase .trim .length .indexOf .substring .split .replace .charAt; .size .get .isEmpty .contains .indexOf on collections; (Exception. msg) and .getMessage; Character/isLetter isDigit isWhitespace isUpperCase; Integer/parseInt Long/parseLong Double/parseDouble (throw NumberFormatException), Integer/toString valueOf, Double/isNaN; Math/round floor ceil abs pow sqrt max min log log10 exp hypot cbrt signum toRadians.
- Errors: (try body (catch Exception e (ex-message e)) (finally ...)), (throw (ex-info \"message\" {:key value})), ex-data.
- Destructuring in let, fn, loop, for, doseq: vectors with & and :as, maps with :keys :strs :or :as.";

/// The builtin tables by area, with the title the prompt gives each.
/// Interop (dates, [`builtins::interop`]) is described in the prose instead.
pub fn areas() -> [(&'static str, &'static [Builtin]); 10] {
    [
        ("Functions", builtins::core::BUILTINS),
        ("Numbers", builtins::numbers::BUILTINS),
        ("Predicates", builtins::predicates::BUILTINS),
        ("Sequences", builtins::seq::BUILTINS),
        ("Collections and maps", builtins::coll::BUILTINS),
        ("Strings", builtins::string::BUILTINS),
        ("clojure.set (set/)", builtins::set::BUILTINS),
        ("clojure.walk (walk/)", builtins::walk::BUILTINS),
        ("Queries", builtins::query::BUILTINS),
        (
            "JSON (json/ — clojure.data.json and cheshire.core)",
            builtins::json::BUILTINS,
        ),
    ]
}

/// Names that are PTC-Lisp extensions (not Clojure), explained one per line.
const EXTENSIONS: &[&str] = &[
    "where",
    "all-of",
    "any-of",
    "none-of",
    "sum-by",
    "avg-by",
    "min-by",
    "max-by",
    "pluck",
    "sum",
    "avg",
    "distinct-by",
    "zip",
    "entries",
    "floor",
    "ceil",
    "round",
    "trunc",
    "parse-int",
    "re-split",
];

/// The SYSTEM prompt; the same text on every call.
pub fn system_prompt() -> String {
    static PROMPT: OnceLock<String> = OnceLock::new();
    PROMPT.get_or_init(build).clone()
}

/// The line of the text protocol's "Replying" section that says how to
/// hand over the program.
const TEXT_REPLY: &str = "- Reply with one ```clojure code block holding the whole program. Text outside the block is ignored.";

/// Its replacement under [`Protocol::Tool`].
const TOOL_REPLY: &str = "- Reply by calling the run_ptc_lisp tool once, with the whole program as its \"program\" argument (plain code, no ``` fence). Text outside the call is not run.";

/// The SYSTEM prompt of `protocol`: [`system_prompt`] for the text
/// protocol; for the tool protocol the same text with its one line on how
/// to reply replaced (also byte-identical for every turn).
pub fn system_prompt_for(protocol: Protocol) -> String {
    match protocol {
        Protocol::Text => system_prompt(),
        Protocol::Tool => {
            static PROMPT: OnceLock<String> = OnceLock::new();
            PROMPT
                .get_or_init(|| build().replacen(TEXT_REPLY, TOOL_REPLY, 1))
                .clone()
        }
    }
}

fn build() -> String {
    let mut out = String::from(INTRO);
    let specials: Vec<&str> = SPECIAL_NAMES
        .iter()
        .copied()
        .filter(|n| !matches!(*n, "catch" | "finally" | "var"))
        .collect();
    let _ = write!(out, "\n- Special forms and macros: {}.", specials.join(" "));

    out.push_str("\n\n## PTC-Lisp extensions");
    for name in EXTENSIONS {
        if let Some(b) = builtins::lookup_in(Ns::Core, name) {
            let _ = write!(out, "\n- {}: {}", b.name, extension_doc(b.doc));
            if !b.example.is_empty() {
                let _ = write!(out, " Example: {}", b.example);
            }
        }
    }

    out.push_str("\n\n## Functions");
    for (title, table) in areas() {
        let core: Vec<&str> = table
            .iter()
            .filter(|b| b.ns != Ns::String)
            .map(|b| b.name)
            .collect();
        let strings: Vec<&str> = table
            .iter()
            .filter(|b| b.ns == Ns::String)
            .map(|b| b.name)
            .collect();
        if !core.is_empty() {
            let _ = write!(out, "\n- {title}: {}", core.join(" "));
        }
        if !strings.is_empty() {
            let _ = write!(
                out,
                "\n- clojure.string (str/, or bare when no clojure.core function has the name): {}",
                strings.join(" ")
            );
        }
    }
    out
}

/// A registry doc without its `(PTC-Lisp)` marker.
fn extension_doc(doc: &str) -> String {
    let d = doc
        .replace("PTC-Lisp: ", "")
        .replace(" (PTC-Lisp).", ".")
        .replace(" (PTC-Lisp)", "")
        .replace("(PTC-Lisp; ", "(");
    let mut chars = d.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => d,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_belongs_to_an_area() {
        let listed: usize = areas().iter().map(|(_, t)| t.len()).sum::<usize>()
            + builtins::interop::BUILTINS.len()
            + builtins::java::BUILTINS.len()
            + builtins::java_methods::BUILTINS.len();
        assert_eq!(listed, builtins::all().len());
    }

    #[test]
    fn every_listed_builtin_name_is_in_the_prompt() {
        let p = system_prompt();
        for (_, table) in areas() {
            for b in table {
                assert!(
                    p.contains(&format!(" {}", b.name)),
                    "{} is missing from the system prompt",
                    b.name
                );
            }
        }
        for n in EXTENSIONS {
            assert!(p.contains(&format!("\n- {n}: ")), "{n}");
        }
        assert!(
            !p.contains("PTC-Lisp)"),
            "extension markers left in the prompt"
        );
    }

    /// Issue 27 item 11: the prompt must not claim maps print sorted
    /// (format.md F-2: insertion order).
    #[test]
    fn the_prompt_tells_the_truth_about_map_order() {
        let p = system_prompt();
        assert!(
            !p.contains("sorted keys"),
            "the prompt claims maps print sorted"
        );
        assert!(p.contains("Maps print their entries in insertion order"));
        let m = crate::reader::read_value("{:b 1 :a 2}").unwrap();
        assert_eq!(crate::format::to_clojure(&m, None, None).0, "{:b 1 :a 2}");
    }

    #[test]
    fn the_prompt_is_static() {
        let p = system_prompt();
        assert_eq!(p, system_prompt());
        assert!(!p.contains("Turns left"));
        assert!(!p.contains("FINAL TURN"));
    }
}
