//! R-23 carried through derived values: values a program derives from hidden
//! data (`data/_NAME`) are shown as `[hidden]` in every USER message —
//! samples, outputs, tool-call lines and results — while tools still get the
//! real values (`src/eval/hidden.rs` says exactly what is covered).

mod render_common;

use ptc_lisp::render::{to_messages, RenderOptions, Role, Strategy};
use ptc_lisp::Value;
use render_common::{lisp, Sim};

const SECRET: &str = "s3cr3t-token-42";

fn session() -> Sim {
    Sim::new("m", 6)
        .data("_token", Value::string(SECRET))
        .data("_pin", Value::Int(4821))
        .data("_csv", Value::string("alpha-key,bravo-key"))
        .data("users", lisp(r#"[{:name "Alice"}]"#))
        .tool(
            "fetch",
            &[("key", "string")],
            "map",
            None,
            lisp("{:ok true}"),
        )
}

/// Every USER message of both views, with every option that shows more.
fn all_user_text(s: &Sim) -> String {
    let o = RenderOptions {
        show_tool_results: true,
        show_last_result: true,
        keep_failed_turn_calls: true,
        ..RenderOptions::default()
    };
    let mut out = String::new();
    for strategy in [Strategy::SingleUserCoalesced, Strategy::Uncompressed] {
        for m in to_messages(&s.input, &o, strategy).messages {
            if m.role == Role::User {
                out.push_str(&m.content);
                out.push('\n');
            }
        }
    }
    out
}

/// The prelude line that shows the definition `name`.
fn def_line<'a>(user: &'a str, name: &str) -> &'a str {
    user.lines()
        .find(|l| l.starts_with(&format!("{name} ")))
        .unwrap_or_else(|| panic!("no line for {name}:\n{user}"))
}

fn assert_no_leak(s: &Sim, needles: &[&str]) {
    let text = all_user_text(s);
    for n in needles {
        assert!(!text.contains(n), "{n:?} leaked:\n{text}");
    }
}

#[test]
fn a_substring_of_hidden_data_is_hidden_and_labelled_by_its_type() {
    let mut s = session();
    s.turn("(def head (subs data/_token 0 6)) (def k data/_token)");
    let user = s.user();
    assert!(
        user.contains("\nhead                             ; = string, [hidden]\n"),
        "{user}"
    );
    // Bound to the hidden string itself: a string, not `symbol`.
    assert!(
        user.contains("\nk                                ; = string, [hidden]"),
        "{user}"
    );
    assert_no_leak(&s, &["s3cr3t"]);
}

#[test]
fn printing_a_derived_value_shows_hidden_in_the_output() {
    let mut s = session();
    s.turn(r#"(println (str/upper-case data/_token)) (println "head:" (subs data/_token 0 6) 7)"#);
    let user = s.user();
    assert!(
        user.contains(";; Output:\n[hidden]\nhead: [hidden] 7\n"),
        "{user}"
    );
    assert_no_leak(&s, &["S3CR3T", "s3cr3t"]);
    // A line started by `print` with a hidden part is hidden as a whole.
    s.turn(r#"(print "key" (str "x" data/_token)) (println " done")"#);
    assert!(s.user().contains("\n[hidden]\n"), "{}", s.user());
    assert_no_leak(&s, &["xs3cr3t", "s3cr3t"]);
}

#[test]
fn tool_calls_get_the_real_value_but_show_hidden() {
    let mut s = session();
    let turn = s.turn("(tool/fetch (str/upper-case data/_token))");
    // The tool received the real, derived value.
    assert_eq!(
        turn.tool_calls[0].args,
        vec![Value::string(SECRET.to_uppercase())]
    );
    let user = s.user();
    assert!(user.contains(";   fetch([hidden])"), "{user}");
    assert_no_leak(&s, &["S3CR3T"]);
}

#[test]
fn arithmetic_strings_and_collections_carry_the_mark() {
    let mut s = session();
    s.turn(
        r#"(def p (+ data/_pin 1))
           (def q (* 2 (inc data/_pin)))
           (def parts (str/split data/_csv #","))
           (def one (first parts))
           (def joined (str/join "+" [(str/upper-case one) "x"]))
           (def m {:k (str/reverse data/_token)})
           (def total (reduce + 0 [1 data/_pin]))"#,
    );
    let user = s.user();
    for name in ["p", "q", "parts", "one", "joined", "total"] {
        let line = def_line(&user, name);
        assert!(line.ends_with(", [hidden]"), "{line}");
    }
    assert!(user.contains("sample: {:k [hidden]}"), "{user}");
    assert_no_leak(&s, &["4822", "9644", "alpha", "bravo", "ALPHA", "24-nekot"]);
}

#[test]
fn counting_and_keying_by_hidden_data_carry_the_mark() {
    // `update` with a function built once (compiled code lends it) and
    // `str` of one computed piece take the builtins' marking paths with
    // hidden data about.
    let mut s = session();
    s.turn(
        r#"(def counts (reduce (fn [acc w] (update acc w (fnil inc 0))) {} (str/split data/_csv #",")))
           (def seen (update {:pin 1} :pin (fn [v] (+ v data/_pin))))
           (def key (str "k" data/_pin))"#,
    );
    let user = s.user();
    for name in ["seen", "key"] {
        let line = def_line(&user, name);
        assert!(line.contains("[hidden]"), "{line}");
    }
    assert_no_leak(&s, &["alpha", "bravo", "4822", "k4821"]);
}

#[test]
fn accumulators_handed_on_in_place_carry_the_mark() {
    // Transducers, fnil, partial, comp, into, merge, concat and a `let`
    // ending the frame take their accumulator instead of copying it; the
    // values they build from hidden data stay hidden.
    let mut s = session();
    s.turn(
        r#"(def parts (str/split data/_csv #","))
           (def up (into [] (map str/upper-case) parts))
           (def cat (reduce concat [] [parts ["x"]]))
           (def grouped (reduce (fn [acc w] (update acc (count w) (fnil conj []) w)) {} parts))
           (def joined ((partial str "k") data/_pin))
           (def piped ((comp str/reverse str) data/_token))
           (def merged (reduce merge {} [{:t data/_token} {:u 1}]))
           (def kept (reduce (fn [acc w] (let [a (conj acc w)] a)) [] parts))
           (println up cat grouped joined piped merged kept)"#,
    );
    let user = s.user();
    for name in ["up", "cat", "grouped", "joined", "piped", "kept"] {
        let line = def_line(&user, name);
        assert!(line.contains("[hidden]"), "{line}");
    }
    assert_no_leak(
        &s,
        &["alpha", "bravo", "ALPHA", "k4821", "24-nekot", "s3cr3t"],
    );
}

#[test]
fn values_not_derived_from_hidden_data_stay_visible() {
    let mut s = session();
    s.turn(
        r#"(def n (count data/_token))
           (def names (mapv :name data/users))
           (def both (conj data/users data/_token))
           (def ok (= data/_token "x"))
           (def who (:name (assoc (first data/users) :key data/_token)))"#,
    );
    let user = s.user();
    assert!(user.contains("= integer, sample: 15"), "{user}");
    assert!(
        user.contains("names                            ; = list[1], sample: \"Alice\""),
        "{user}"
    );
    assert!(user.contains("= boolean, sample: false"), "{user}");
    // Taken out of a value that holds hidden data: not hidden itself.
    assert!(
        user.contains("who                              ; = string, sample: \"Alice\""),
        "{user}"
    );
    // Adding a hidden value to a collection hides the new collection, not
    // the values it shares.
    assert!(
        user.contains("both                             ; = list[2], [hidden]"),
        "{user}"
    );
    assert!(
        user.contains("data/users                       ; list[1], sample: {:name \"Alice\"}"),
        "{user}"
    );
    assert_no_leak(&s, &["s3cr3t"]);
}

#[test]
fn hidden_values_in_error_messages_are_replaced() {
    let mut s = session();
    s.turn("(inc (str \"n-\" data/_token))");
    assert!(
        s.user()
            .contains("Error: inc expects numbers, got string \"[hidden]\""),
        "{}",
        s.user()
    );
    assert_no_leak(&s, &["n-s3cr3t", "s3cr3t"]);
}

#[test]
fn sessions_without_hidden_data_mark_nothing() {
    let mut s = Sim::new("m", 5).data("users", lisp("[1 2]"));
    s.turn("(def x (str (first data/users) \"abc\")) (println x)");
    assert!(!s.interp.hidden.active());
    assert!(s.user().contains(";; Output:\n1abc"), "{}", s.user());
}

#[test]
fn hidden_values_stay_hidden_in_later_turns() {
    let mut s = session();
    s.turn("(def head (subs data/_token 0 6))");
    s.turn("(def again (str/upper-case head)) (loop [i 0 acc \"\"] (if (< i 50) (recur (inc i) (str acc head)) (def long-one acc)))");
    let user = s.user();
    for name in ["head", "again", "long-one"] {
        assert!(
            user.lines()
                .any(|l| l.starts_with(&format!("{name} ")) && l.ends_with(", [hidden]")),
            "{name}: {user}"
        );
    }
    assert_no_leak(&s, &["s3cr3t", "S3CR3T"]);
}

// Issue 23 (H2 and the hidden-data channels of its Medium list).

#[test]
fn with_out_str_of_a_hidden_value_is_hidden() {
    let mut s = session();
    s.turn("(def w (with-out-str (print (str/upper-case data/_token))))");
    s.turn("(with-out-str (print (str/upper-case data/_token)))");
    let user = s.user();
    assert!(
        user.lines()
            .any(|l| l.starts_with("w ") && l.ends_with(", [hidden]")),
        "{user}"
    );
    assert_no_leak(&s, &["S3CR3T"]);
}

#[test]
fn a_caught_error_message_quoting_hidden_data_is_hidden() {
    let mut s = session();
    s.turn("(try (+ 1 (str/upper-case data/_token)) (catch Exception e (ex-message e)))");
    s.turn("(def m (try (+ 1 (str/upper-case data/_token)) (catch Exception e (ex-message e))))");
    s.turn("(try (+ 1 (subs data/_token 8 13)) (catch Exception e (ex-message e)))");
    assert_no_leak(&s, &["S3CR3T", "oken-"]);
}

#[test]
fn symbols_and_patterns_made_from_hidden_data_are_hidden() {
    let mut s = session();
    s.turn("(def y (symbol (str/upper-case data/_token))) (def r (re-pattern (str/upper-case data/_token)))");
    s.turn("[y r]");
    assert_no_leak(&s, &["S3CR3T"]);
}

#[test]
fn short_pieces_of_hidden_data_in_error_texts_are_hidden() {
    let mut s = session();
    s.turn("(+ 1 (subs data/_token 8 13))");
    assert_no_leak(&s, &["oken-"]);
    let mut s = session();
    s.turn("(fail (subs data/_token 8 13))");
    assert_no_leak(&s, &["oken-"]);
    let mut s = session();
    s.turn("(fail {:why (subs data/_token 0 3)})");
    assert_no_leak(&s, &["s3c"]);
}

#[test]
fn a_sample_cut_inside_hidden_text_is_still_hidden() {
    let mut s = session();
    // Built character by character through values that carry no mark (a
    // lookup in a map the program built: R-23a's control-flow limit).
    s.turn("(def m (zipmap (map char (range 32 127)) (map char (range 32 127))))");
    for n in (20..=120).step_by(5) {
        s.turn(&format!(
            "(def v{n} (loop [i 0 acc (apply str (repeat {n} \"x\"))] \
             (if (< i (count data/_token)) (recur (inc i) (str acc (get m (nth data/_token i)))) acc)))"
        ));
    }
    assert_no_leak(&s, &["s3cr3t", "s3cr", "-token"]);
}

#[test]
fn a_caught_error_raised_outside_a_builtin_hides_short_pieces_too() {
    let mut s = session();
    s.turn("(def head (subs data/_token 0 3))");
    s.turn("(try (head 1) (catch Exception e (ex-message e)))");
    s.turn("(head 1)");
    assert_no_leak(&s, &["s3c"]);
}
