//! The token budget (`render/budget.rs`): the compressed view fits the
//! budget whenever its most degraded form does, degrades in the documented
//! order, never drops the mission, the namespace names, the current error or
//! the turn indicator, and a larger budget never shows less.

mod render_common;

use proptest::prelude::*;
use ptc_lisp::render::degrade_step_names;
use ptc_lisp::render::{to_messages, RenderOptions, Rendered, Strategy as View};
use ptc_lisp::ErrorKind;
use render_common::{lisp, Sim};

/// One generated turn: values to define, prints, tool calls, and whether
/// it ends with an error.
#[derive(Clone, Debug)]
struct TurnSpec {
    defs: Vec<(u8, usize)>,
    prints: Vec<usize>,
    calls: Vec<usize>,
    fails: bool,
}

fn turn_spec() -> impl Strategy<Value = TurnSpec> {
    (
        prop::collection::vec((0u8..6, 0usize..120), 0..3),
        prop::collection::vec(0usize..300, 0..4),
        prop::collection::vec(0usize..60, 0..4),
        any::<bool>(),
    )
        .prop_map(|(defs, prints, calls, fails)| TurnSpec {
            defs,
            prints,
            calls,
            fails,
        })
}

fn program(spec: &TurnSpec, turn: usize) -> String {
    let mut src = String::new();
    for (k, (name, len)) in spec.defs.iter().enumerate() {
        let value = match k % 3 {
            0 => format!("(apply str (repeat {len} \"x\"))"),
            1 => format!("(vec (range {len}))"),
            _ => format!("{{:id {len} :name (apply str (repeat {len} \"n\"))}}"),
        };
        src.push_str(&format!("(def v{name} {value})\n"));
    }
    for len in &spec.prints {
        src.push_str(&format!("(println (apply str (repeat {len} \"p\")))\n"));
    }
    for n in &spec.calls {
        src.push_str(&format!("(tool/lookup {n} \"turn {turn}\")\n"));
    }
    if spec.fails {
        src.push_str("(no-such-function 1)\n");
    }
    src
}

fn session(turns: &[TurnSpec]) -> Sim {
    let mut s = Sim::new("Find the answer within the budget", 20)
        .data(
            "records",
            lisp(r#"[{:id 1 :text "a fairly long text that takes room in a sample"}]"#),
        )
        .data("numbers", lisp("[1 2 3 4 5 6 7 8 9 10]"))
        .tool(
            "lookup",
            &[("id", "int"), ("note", "string")],
            "map",
            None,
            lisp(r#"{:found true :detail "a detail of some length"}"#),
        );
    for (i, t) in turns.iter().enumerate() {
        s.turn(&program(t, i + 1));
    }
    s
}

/// The options of these tests: the extras on, so that steps remove them.
fn options(budget: Option<usize>) -> RenderOptions {
    RenderOptions {
        budget_tokens: budget,
        show_tool_results: true,
        ..RenderOptions::default()
    }
}

fn with_budget(s: &Sim, budget: usize) -> Rendered {
    to_messages(&s.input, &options(Some(budget)), View::SingleUserCoalesced)
}

/// What must survive any budget.
fn assert_kept(s: &Sim, r: &Rendered) {
    let user = &r.messages[1].content;
    assert!(
        user.starts_with("Find the answer within the budget"),
        "{user}"
    );
    assert!(user.contains("(tool/lookup id note)"), "{user}");
    assert!(user.contains("data/records"), "{user}");
    assert!(user.contains("data/numbers"), "{user}");
    for e in &s.input.memory.entries {
        assert!(
            user.contains(&format!("\n{} ", e.name)),
            "{} missing: {user}",
            e.name
        );
    }
    if let Some(Err(e)) = s.input.turns.last().map(|t| &t.result) {
        assert!(user.contains(&format!("Error: {}", e.message)), "{user}");
    }
    assert!(user.contains("Turns left:"), "{user}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn fits_whenever_the_minimum_fits_and_more_budget_never_shows_less(
        turns in prop::collection::vec(turn_spec(), 0..5),
        slack in prop::collection::vec(0usize..700, 1..5),
    ) {
        let s = session(&turns);
        let unlimited = to_messages(&s.input, &options(None), View::SingleUserCoalesced);
        let minimum = with_budget(&s, 0);
        prop_assert_eq!(minimum.stats.degrade_steps, degrade_step_names().len());
        let base = minimum.stats.tokens_estimate.saturating_sub(100);
        let mut budgets: Vec<usize> = slack.iter().map(|x| base + x).collect();
        budgets.sort();
        let mut previous: Option<usize> = None;
        for budget in budgets {
            let r = with_budget(&s, budget);
            assert_kept(&s, &r);
            if minimum.stats.tokens_estimate <= budget {
                prop_assert!(r.stats.tokens_estimate <= budget);
                prop_assert!(r.budget_error().is_none());
            } else {
                let e = r.budget_error().expect("over budget");
                prop_assert_eq!(e.kind(), ErrorKind::LimitExceeded);
                prop_assert_eq!(r.stats.over_budget_by, Some(r.stats.tokens_estimate - budget));
            }
            if unlimited.stats.tokens_estimate <= budget {
                prop_assert!(r.stats.degraded.is_empty());
                prop_assert_eq!(&r.messages, &unlimited.messages);
            }
            // A larger budget never degrades more.
            let steps = r.stats.degrade_steps;
            prop_assert!(r.stats.degraded.len() <= steps);
            if let Some(p) = previous {
                prop_assert!(steps <= p, "budget {} degraded {} steps, less budget {}", budget, steps, p);
            }
            previous = Some(steps);
        }
    }
}

#[test]
fn steps_apply_in_the_documented_order_and_stats_name_them() {
    let names: Vec<&str> = degrade_step_names().collect();
    assert_eq!(
        names,
        [
            "shorter samples",
            "shortest samples",
            "fewer tool-call and println lines",
            "few tool-call and println lines",
            "no tool-call or println lines",
            "user/ samples dropped",
            "data/ samples dropped"
        ]
    );
    let spec = TurnSpec {
        defs: vec![(1, 100), (2, 50)],
        prints: vec![],
        calls: vec![1, 2, 3, 4],
        fails: false,
    };
    let s = session(&[spec]);
    let full = to_messages(&s.input, &options(None), View::SingleUserCoalesced);
    let user = &full.messages[1].content;
    assert!(user.contains(";   lookup(4 \"turn 1\")"), "{user}");
    assert!(user.contains("sample:"), "{user}");
    // The minimum: no samples, no tool-call lines.
    let min = with_budget(&s, 0);
    let user = &min.messages[1].content;
    assert!(!user.contains("sample:"), "{user}");
    assert!(!user.contains("lookup(4"), "{user}");
    assert!(user.contains("\nv1                               ; = string\nv2                               ; = list[50]\n"), "{user}");
    assert!(min
        .budget_error()
        .unwrap()
        .message()
        .contains("more than the budget of 0 tokens"));
    // Just enough for the minimum: fits, everything degraded.
    let r = with_budget(&s, min.stats.tokens_estimate);
    assert!(r.budget_error().is_none());
    assert_eq!(r.stats.degrade_steps, degrade_step_names().len());
    // One token short of the full text: only the first step.
    let r = with_budget(&s, full.stats.tokens_estimate - 1);
    assert_eq!(r.stats.degraded, ["shorter samples"]);
    assert_eq!(r.stats.degrade_steps, 1);
    // Steps with nothing to cut are applied but not listed.
    let quiet = session(&[TurnSpec {
        defs: vec![(1, 100)],
        prints: vec![],
        calls: vec![],
        fails: false,
    }]);
    let min = with_budget(&quiet, 0);
    assert_eq!(min.stats.degrade_steps, degrade_step_names().len());
    assert!(
        !min.stats.degraded.iter().any(|d| d.contains("println")),
        "{:?}",
        min.stats.degraded
    );
}

#[test]
fn the_uncompressed_view_is_measured_not_degraded() {
    let s = session(&[]);
    let o = RenderOptions {
        budget_tokens: Some(10),
        ..RenderOptions::default()
    };
    let r = to_messages(&s.input, &o, View::Uncompressed);
    assert!(r.stats.degraded.is_empty());
    let e = r.budget_error().unwrap();
    assert!(
        e.message()
            .starts_with("the uncompressed view (never degraded) needs"),
        "{}",
        e.message()
    );
}
