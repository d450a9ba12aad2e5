//! "Did you mean": typical LLM typos get the name they meant, names that are
//! nowhere near a real one get no suggestion (a wrong suggestion costs the
//! LLM a turn). Runs through the interpreter, so the hints are the ones the
//! LLM reads.

use ptc_lisp::CannedTool;
use ptc_lisp::{Interp, Limits, StaticHost, Value};

fn interp() -> Interp {
    let mut host = StaticHost::default();
    host.data.insert("products".into(), Value::empty_vector());
    host.data.insert("orders".into(), Value::empty_vector());
    host.tools
        .insert("search-reviews".into(), CannedTool::Returns(Value::Nil));
    let mut i = Interp::new(Box::new(host), Limits::default());
    let setup = i.run_program("(def total-price 1) (defn summarize [x] x)");
    assert!(setup.result.is_ok());
    i
}

/// The hint of the error `src` fails with (`None` when it has none).
fn hint(src: &str) -> Option<String> {
    let err = interp()
        .run_program(src)
        .result
        .expect_err("the program should fail");
    err.hint().map(str::to_string)
}

#[test]
fn typical_typos_get_the_name_they_meant() {
    let table = [
        ("(fitler odd? [1])", "did you mean filter?"),
        ("(redcue + [1])", "did you mean reduce?"),
        ("(filter-by odd? [1])", "did you mean filter?"),
        ("(group_by :a [])", "did you mean group-by?"),
        ("(sort_by :a [])", "did you mean sort-by?"),
        ("(frequences [1])", "did you mean frequencies?"),
        ("(select-key {} [:a])", "did you mean select-keys?"),
        ("(get_in {} [:a])", "did you mean get-in?"),
        ("(mapcatt identity [])", "did you mean mapcat?"),
        ("(asoc {} :a 1)", "did you mean assoc?"),
        ("(summarise 1)", "did you mean summarize?"),
        ("(inc total-prices)", "did you mean total-price?"),
        (
            "(count prodcts)",
            "did you mean data/products? data values are read as data/products",
        ),
        ("(search-review \"x\")", "did you mean tool/search-reviews?"),
        ("(str/uper-case \"x\")", "did you mean str/upper-case?"),
        ("(str/joim \",\" [])", "did you mean str/join?"),
    ];
    for (src, want) in table {
        assert_eq!(hint(src).as_deref(), Some(want), "{src}");
    }
}

#[test]
fn names_nowhere_near_a_real_one_get_no_suggestion() {
    for src in [
        "(undefined-thing)",
        "(undefined-fn 1)",
        "(compute-totals [])",
        "(my-helper 1)",
        "(zzzz)",
        "(xy 1)",
        "(str/frobnicate \"x\")",
    ] {
        let h = hint(src);
        assert!(
            h.as_deref().is_none_or(|h| !h.starts_with("did you mean")),
            "{src}: {h:?}"
        );
    }
}
