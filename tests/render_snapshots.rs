//! Whole prompts as insta snapshots under the top-level `snapshots/`
//! directory: the SYSTEM prompt, one session in every view, and the render
//! statistics. Review changes with `cargo insta review`; CI (CI=true) fails
//! on a missing snapshot instead of writing it.

mod render_common;

use ptc_lisp::render::{system_prompt, to_messages, turns_view, RenderOptions, Rendered, Strategy};
use ptc_lisp::Value;
use render_common::{lisp, Sim};

macro_rules! snap {
    ($name:expr, $value:expr) => {
        insta::with_settings!({snapshot_path => "../snapshots", prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!($name, $value);
        })
    };
}

/// All messages of a render, each under a `[ROLE]` line.
fn show(r: &Rendered) -> String {
    r.messages
        .iter()
        .map(|m| {
            format!(
                "[{}]\n{}",
                format!("{:?}", m.role).to_uppercase(),
                m.content
            )
        })
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// An orders session: exploration, functions and prints, then a failure.
fn orders() -> Sim {
    let mut s = Sim::new(
        "Which customers spent more than 100 in total? Email each of them a thank-you note.",
        6,
    )
    .data(
        "orders",
        lisp(
            r#"[{:id 1 :customer "ana@example.com" :total 80.5 :items ["pen" "ink"]}
                {:id 2 :customer "bo@example.com" :total 20.0 :items ["pad"]}
                {:id 3 :customer "ana@example.com" :total 45.25 :items ["lamp"]}
                {:id 4 :customer "cy@example.com" :total 130.0 :items ["chair" "mat" "desk" "rug"]}]"#,
        ),
    )
    .data("_smtp-password", Value::string("hunter2-hunter2"))
    .tool(
        "send-email",
        &[("to", "string"), ("body", "string")],
        "{sent bool}",
        Some("Sends one email;\n returns whether it was sent"),
        lisp("{:sent true}"),
    )
    .tool(
        "lookup-customer",
        &[("email", "string")],
        "map",
        None,
        lisp(r#"{:name "Ana" :tier :gold}"#),
    );
    s.turn("```clojure\n(def by-customer (group-by :customer data/orders))\n(def customers (keys by-customer))\n```");
    s.turn(
        "Now the totals.\n```clojure\n(defn spent\n  \"Total spent by one customer;\n   sums :total.\"\n  [email]\n  (sum-by :total (get by-customer email)))\n(defn big? [email] (> (spent email) 100))\n(def big (filter big? customers))\n(println \"big spenders:\" big)\n(println (map spent customers))\n```",
    );
    s.turn("```clojure\n(doseq [c big] (tool/send-email c (str \"Thanks \" (:name (tool/lookup-customer c)))))\n(def sent (count-of big))\n```");
    s
}

/// The hand-written part of the SYSTEM prompt (the generated function lists
/// change with the registry; the registry's own tests cover them).
#[test]
fn system_prompt_snapshot() {
    let p = system_prompt();
    let prose = p
        .split("\n\n## PTC-Lisp extensions")
        .next()
        .unwrap_or_default();
    snap!("system_prompt", prose.to_string());
}

#[test]
fn compressed_with_failing_last_turn() {
    let s = orders();
    let r = to_messages(
        &s.input,
        &RenderOptions::default(),
        Strategy::SingleUserCoalesced,
    );
    snap!("orders_compressed_failing", r.messages[1].content.clone());
}

#[test]
fn compressed_after_recovery_with_every_option() {
    let mut s = orders();
    s.turn(
        "```clojure\n(doseq [c big] (tool/send-email c \"Thanks!\"))\n(def sent (count big))\n```",
    );
    let o = RenderOptions {
        show_tool_results: true,
        show_last_result: true,
        keep_failed_turn_calls: true,
        ..RenderOptions::default()
    };
    let r = to_messages(&s.input, &o, Strategy::SingleUserCoalesced);
    snap!(
        "orders_compressed_recovered_all_options",
        r.messages[1].content.clone()
    );
}

#[test]
fn uncompressed_snapshot() {
    let s = orders();
    let r = to_messages(&s.input, &RenderOptions::default(), Strategy::Uncompressed);
    let mut text = show(&r);
    // The SYSTEM prompt has its own snapshot.
    text = text.replace(&system_prompt(), "(system prompt)");
    snap!("orders_uncompressed", text);
}

#[test]
fn turns_view_snapshot() {
    snap!("orders_turns_view", turns_view(&orders().input));
}

#[test]
fn stats_snapshot() {
    let s = orders();
    let mut r = to_messages(
        &s.input,
        &RenderOptions::default(),
        Strategy::SingleUserCoalesced,
    );
    // Totals and the SYSTEM message's size change with the registry.
    let user = r.stats.messages[1].clone();
    r.stats.messages.remove(0);
    r.stats.chars = 0;
    r.stats.tokens_estimate = 0;
    let json = serde_json::to_string_pretty(&r.stats).unwrap_or_default();
    snap!("orders_stats", json);
    assert_eq!(user.chars, r.messages[1].content.chars().count());
}

#[cfg(feature = "tokens")]
#[test]
fn exact_tokens_of_the_orders_prompt() {
    let s = orders();
    let mut r = to_messages(
        &s.input,
        &RenderOptions::default(),
        Strategy::SingleUserCoalesced,
    );
    r.count_exact_tokens();
    let t = r.stats.messages[1].tokens.unwrap();
    assert_eq!((t.cl100k_base, t.o200k_base), (280, 280));
}
