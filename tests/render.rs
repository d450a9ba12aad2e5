//! The rendering rules of `spec/rendering.md`, one test (or more) per rule
//! family, with the spec's and the seed's examples rendered byte for byte.
//! Turns run through the real interpreter (`render_common::Sim`).

mod render_common;

use ptc_lisp::render::{
    system_prompt, to_messages, turns_view, ErrorInfo, MemoryView, RenderInput, RenderOptions,
    Role, Strategy, ToolInfo, TurnRecord,
};
use ptc_lisp::{ErrorKind, Value};
use render_common::{lisp, shop, Sim, REVIEWS};

// ---- rendering.md §3 example ------------------------------------------------

const TURN_2_OF_5: &str = r#"Find well-reviewed products in stock

;; === tool/ ===
(tool/get-inventory)             ; -> map
(tool/search-reviews query)      ; query:string -> string

;; === data/ ===
data/products                    ; list[7], sample: {:name "Laptop" :price 1200 ...} (3 entries, showing first 2)

;; === user/ (your prelude) ===
electronics                      ; = list[4], sample: {:name "Laptop" :price 1200 ...} (3 entries, showing first 2)
reviews                          ; = string, sample: "Customer Review Summary for Electronics: Laptop 4.8/5, Monitor 4.6/5, Keyboard 4..."

;; Tool calls made:
;   search-reviews("Electronics")

Turns left: 4"#;

#[test]
fn rendering_md_turn_2_of_5_example() {
    let mut s = shop(5);
    let t = s.turn(
        "```clojure\n(def electronics (filter (fn [p] (= (:category p) \"Electronics\")) data/products))\n(def reviews (tool/search-reviews \"Electronics\"))\n```",
    );
    assert!(t.success(), "{:?}", t.result);
    let r = to_messages(
        &s.input,
        &RenderOptions::default(),
        Strategy::SingleUserCoalesced,
    );
    assert_eq!(r.messages.len(), 2, "R-10: [SYSTEM, USER]");
    assert_eq!(r.messages[0].role, Role::System);
    assert_eq!(r.messages[0].content, system_prompt());
    assert_eq!(r.messages[1].role, Role::User);
    assert_eq!(r.messages[1].content, TURN_2_OF_5);
}

#[test]
fn r01_rendering_is_pure() {
    let mut s = shop(5);
    s.turn("(def x (tool/search-reviews \"a\")) (println x)");
    let o = RenderOptions::default();
    for strategy in [Strategy::SingleUserCoalesced, Strategy::Uncompressed] {
        assert_eq!(
            to_messages(&s.input, &o, strategy),
            to_messages(&s.input, &o, strategy)
        );
    }
}

// ---- seed examples (adapted where rendering.md decides otherwise) -----------

/// The seed's "Turn 1 (empty prelude)" example, with the data sample R-22
/// requires.
#[test]
fn seed_turn_1_example() {
    let s = Sim::new("Find well-reviewed products in stock", 5)
        .data("products", render_common::products())
        .tool(
            "search-reviews",
            &[("query", "string")],
            "string",
            None,
            Value::Nil,
        );
    assert_eq!(
        s.user(),
        r#"Find well-reviewed products in stock

;; === tool/ ===
(tool/search-reviews query)      ; query:string -> string

;; === data/ ===
data/products                    ; list[7], sample: {:name "Laptop" :price 1200 ...} (3 entries, showing first 2)

;; No tool calls made

Turns left: 5"#
    );
}

fn config_session() -> Sim {
    Sim::new("Report the active users", 5)
        .data("config", lisp(r#"{:env "prod" :debug false :region "eu"}"#))
        .tool(
            "fetch-data",
            &[("key", "string")],
            "map",
            None,
            lisp(r#"[{:name "Alice"} {:name "Bob"} {:name "Carol"} {:name "Dan"} {:name "Eve"}]"#),
        )
}

const CONFIG_HEAD: &str = r#"Report the active users

;; === tool/ ===
(tool/fetch-data key)            ; key:string -> map

;; === data/ ===
data/config                      ; map[3], sample: {:env "prod" :debug false ...} (3 entries, showing first 2)

;; === user/ (your prelude) ===
users                            ; = list[5], sample: {:name "Alice"}
"#;

/// The seed's "Still Failing" and "After Recovery" examples (R-50).
#[test]
fn seed_failed_turn_then_recovery_examples() {
    let mut s = config_session();
    s.turn("(def users (tool/fetch-data \"users\"))");
    s.turn("I will compute it.\n```clojure\n(def x (broken-code))\n```");
    let expected_failing = format!(
        "{CONFIG_HEAD}
;; Tool calls made:
;   fetch-data(\"users\")

---
Your previous attempt:
```clojure
(def x (broken-code))
```

Error: undefined symbol 'broken-code'
---

Turns left: 3"
    );
    assert_eq!(s.user(), expected_failing);

    s.turn("(def result {:status \"ok\" :code 200})");
    let expected_recovered = format!(
        "{CONFIG_HEAD}result                           ; = map[2], sample: {{:status \"ok\" :code 200}}

;; Tool calls made:
;   fetch-data(\"users\")

Turns left: 2"
    );
    assert_eq!(s.user(), expected_recovered);
}

/// The seed's "Explicit mode" example: printing switches samples off.
#[test]
fn seed_explicit_mode_example() {
    let mut s = shop(5);
    s.turn("(def reviews (tool/search-reviews \"Electronics\"))\n(println \"Reviews:\" reviews)");
    let user = s.user();
    assert!(
        user.contains("\nreviews                          ; = string\n"),
        "{user}"
    );
    assert!(user.ends_with(&format!(
        ";; Tool calls made:\n;   search-reviews(\"Electronics\")\n\n;; Output:\nReviews: {REVIEWS}\n\nTurns left: 4"
    )));
}

/// The seed's "Minimal (no tools, no output)" example.
#[test]
fn seed_minimal_example() {
    let mut s = Sim::new("Pick the first two", 5).data("items", lisp("[{:id 1} {:id 2} {:id 3}]"));
    s.turn("(def results (take 2 data/items))");
    assert_eq!(
        s.user(),
        "Pick the first two

;; === data/ ===
data/items                       ; list[3], sample: {:id 1}

;; === user/ (your prelude) ===
results                          ; = list[2], sample: {:id 1}

Turns left: 4"
    );
}

/// The seed's action-tool example: calls that return nil are listed (R-30),
/// map arguments printed by `to_clojure` (insertion order, no commas).
#[test]
fn seed_tool_calls_are_critical_example() {
    let mut s =
        Sim::new("Call everyone", 5).tool("make-call", &[("opts", "map")], "nil", None, Value::Nil);
    s.turn("(tool/make-call {:to \"Alice\" :message \"Meeting at 3pm\"})\n(tool/make-call {:to \"Bob\" :message \"Bring documents\"})");
    assert!(s.user().contains(
        ";; Tool calls made:\n;   make-call({:to \"Alice\" :message \"Meeting at 3pm\"})\n;   make-call({:to \"Bob\" :message \"Bring documents\"})\n"
    ));
}

// ---- R-20, R-21: layout and tool signatures --------------------------------

#[test]
fn r21_tool_lines_match_the_spec_examples() {
    let s = Sim::new("m", 5)
        .tool(
            "fetch-users",
            &[("category", "string")],
            "[user]",
            Some("Fetches users by category"),
            Value::Nil,
        )
        .tool(
            "send-email",
            &[("opts", "map")],
            "nil",
            Some("Sends email notification"),
            Value::Nil,
        )
        .tool("get-inventory", &[], "map", None, Value::Nil);
    let user = s.user();
    assert!(
        user.contains(
            ";; === tool/ ===
(tool/fetch-users category)      ; category:string -> [user], \"Fetches users by category\"
(tool/get-inventory)             ; -> map
(tool/send-email opts)           ; opts:map -> nil, \"Sends email notification\""
        ),
        "{user}"
    );
}

#[test]
fn r21_several_params_and_description_cleaning() {
    let s = Sim::new("m", 5).tool(
        "search",
        &[("query", "string"), ("limit", "int")],
        "[{title string}]",
        Some("Searches;\n  the   index"),
        Value::Nil,
    );
    assert!(s.user().contains(
        "(tool/search query limit)        ; query:string, limit:int -> [{title string}], \"Searches the index\"\n"
    ));
}

#[test]
fn r20_names_of_32_characters_or_more_get_two_spaces() {
    let mut s = Sim::new("m", 5);
    let n31 = "a".repeat(31);
    let n32 = "b".repeat(32);
    let n40 = "c".repeat(40);
    s.turn(&format!("(def {n31} 1) (def {n32} 2) (def {n40} 3)"));
    let user = s.user();
    assert!(
        user.contains(&format!("\n{n31}  ; = integer, sample: 1\n")),
        "{user}"
    );
    assert!(user.contains(&format!("\n{n32}  ; = integer, sample: 2\n")));
    assert!(user.contains(&format!("\n{n40}  ; = integer, sample: 3\n")));
    // Every other entry puts its `;` at column 34.
    let mut s = Sim::new("m", 5);
    s.turn("(def x 1)");
    assert!(s
        .user()
        .contains(&format!("\nx{}; = integer, sample: 1\n", " ".repeat(32))));
}

// ---- R-22, R-23: data ------------------------------------------------------

#[test]
fn r22_data_entries_sorted_with_samples_or_just_type() {
    let s = Sim::new("m", 5)
        .data("zeta", lisp("#{:b :a}"))
        .data("empty", lisp("[]"))
        .data("none", Value::Nil)
        .data("count", Value::Int(42))
        .data("title", lisp(r#""The title""#));
    assert_eq!(
        s.user(),
        r#"m

;; === data/ ===
data/count                       ; integer, sample: 42
data/empty                       ; list[0]
data/none                        ; nil
data/title                       ; string, sample: "The title"
data/zeta                        ; set[2], sample: :a

Turns left: 5"#
    );
}

#[test]
fn r23_hidden_data_never_appears_in_any_message() {
    let secret = "sk-live-0123456789abcdef";
    let mut s = Sim::new("m", 5)
        .data("_api-key", Value::string(secret))
        .data("users", lisp("[1 2]"))
        .tool("fetch", &[("opts", "map")], "map", None, lisp("{:ok true}"));
    assert!(s
        .user()
        .contains("data/_api-key                    ; string, [hidden]\n"));
    s.turn(
        "(def k data/_api-key) (tool/fetch {:key data/_api-key}) (println \"using\" data/_api-key)",
    );
    s.turn("(def also (str data/_api-key)) (count data/_api-key)");
    let o = RenderOptions {
        show_tool_results: true,
        show_last_result: true,
        ..RenderOptions::default()
    };
    for strategy in [Strategy::SingleUserCoalesced, Strategy::Uncompressed] {
        for m in to_messages(&s.input, &o, strategy).messages {
            if m.role == Role::User {
                assert!(
                    !m.content.contains("sk-live"),
                    "{strategy:?}: {}",
                    m.content
                );
            }
        }
    }
    let user = s.user();
    assert!(user.contains(";   fetch({:key data/_api-key})"), "{user}");
    assert!(user.contains("\nusing [hidden]\n"), "{user}");
}

// ---- R-24 … R-27: the prelude ---------------------------------------------

#[test]
fn r24_functions_first_then_values_in_order_of_first_definition() {
    let mut s = Sim::new("m", 5);
    s.turn("(def b 1) (defn g [x] x) (def a 2)");
    s.turn("(def c 3) (def b 10) (defn f [y] y) (defn g [x y] (+ x y))");
    let user = s.user();
    let prelude = user
        .split("\n\n")
        .find(|sec| sec.starts_with(";; === user/"))
        .unwrap();
    assert_eq!(
        prelude,
        ";; === user/ (your prelude) ===
(g [x y])
(f [y])
b                                ; = integer, sample: 10
a                                ; = integer, sample: 2
c                                ; = integer, sample: 3"
    );
}

#[test]
fn r24_a_failed_turn_changes_no_prelude_and_turn_1_has_none() {
    let mut s = Sim::new("m", 5);
    assert!(!s.user().contains(";; === user/"));
    s.turn("(def a 1)");
    s.turn("(def b 2) (def a 5) (undefined-thing)");
    let user = s.user();
    assert!(user.contains("\na                                ; = integer, sample: 1"));
    assert!(!user.contains("\nb "));
}

#[test]
fn r25_the_four_function_line_shapes() {
    let mut s = Sim::new("m", 5);
    s.turn(
        r#"(defn both "Doubles it." [x] (* 2 x))
           (defn doc-only "Never called." [x] x)
           (defn called-only [{:keys [a b]} & more] [a b])
           (defn neither [x] x)
           (defn multi ([x] x) ([x   y]
              (+ x y)))
           (both 2) (called-only {:a 1})"#,
    );
    let user = s.user();
    assert!(
        user.contains(
            r#";; === user/ (your prelude) ===
(both [x])                       ; "Doubles it." -> integer
(doc-only [x])                   ; "Never called."
(called-only [{:keys [a b]} & more])  ; -> list[2]
(neither [x])
(multi [x] [x y])
"#
        ),
        "{user}"
    );
}

#[test]
fn r25_return_type_is_the_most_recent_successful_call_in_any_turn() {
    let mut s = Sim::new("m", 5);
    s.turn("(defn f [x] (if (= x 1) \"one\" [x])) (f 1)");
    assert!(s
        .user()
        .contains("(f [x])                          ; -> string\n"));
    s.turn("(f 2)");
    assert!(s
        .user()
        .contains("(f [x])                          ; -> list[1]\n"));
    // A failed turn changes nothing the prompt shows: calls it made do not
    // count (memory, including recorded return values, is rolled back).
    s.turn("(f 1) (nonexistent)");
    assert!(
        s.user()
            .contains("(f [x])                          ; -> list[1]\n"),
        "{}",
        s.user()
    );
}

#[test]
fn r25_a_redefinition_forgets_the_old_return_type_until_called() {
    let mut s = Sim::new("m", 5);
    s.turn("(defn f [] 1) (f)");
    assert!(s
        .user()
        .contains("(f [])                           ; -> integer\n"));
    s.turn("(defn f [] \"s\")");
    let user = s.user();
    assert!(user.contains("\n(f [])\n"), "{user}");
    assert!(!user.contains("-> integer"), "{user}");
    s.turn("(f)");
    assert!(s
        .user()
        .contains("(f [])                           ; -> string\n"));
    // A redefinition in a failed turn is rolled back with its return type.
    s.turn("(defn f [] 2) (nonexistent)");
    assert!(s
        .user()
        .contains("(f [])                           ; -> string\n"));
}

#[test]
fn r26_docstrings_are_cleaned() {
    let mut s = Sim::new("m", 5);
    s.turn("(defn f \"Sums; the\n   prices\tof   items. \" [xs] 0) (def total \"The  grand\ntotal;\" 5)");
    let user = s.user();
    assert!(
        user.contains("(f [xs])                         ; \"Sums the prices of items.\"\n"),
        "{user}"
    );
    assert!(
        user.contains(
            "total                            ; = integer, sample: 5, \"The grand total\""
        ),
        "{user}"
    );
}

#[test]
fn r27_value_lines_with_and_without_samples() {
    let mut s = Sim::new("m", 5);
    s.turn("(def none nil) (def empty-list []) (def m {}) (def f 1.5) (def flag true) (def k :active) (def add2 (partial + 2))");
    let user = s.user();
    for line in [
        "none                             ; = nil",
        "empty-list                       ; = list[0]",
        "m                                ; = map[0]",
        "f                                ; = float, sample: 1.5",
        "flag                             ; = boolean, sample: true",
        "k                                ; = keyword, sample: :active",
        "add2                             ; = #fn[partial]",
    ] {
        assert!(user.contains(&format!("{line}\n")), "{line}\n{user}");
    }
}

// ---- R-30 … R-32: tool calls ----------------------------------------------

#[test]
fn r30_fifo_keeps_the_most_recent_calls_of_successful_turns() {
    let mut s = Sim::new("m", 10).tool("ping", &[("n", "int")], "nil", None, Value::Nil);
    s.turn("(doseq [i (range 3)] (tool/ping i))");
    s.turn("(tool/ping 100) (fail-here)");
    s.turn("(doseq [i (range 3 6)] (tool/ping i))");
    let o = RenderOptions {
        tool_call_limit: 4,
        ..RenderOptions::default()
    };
    let user = s.user_with(&o);
    assert!(
        user.contains(
            ";; Tool calls made:\n;   ping(2)\n;   ping(3)\n;   ping(4)\n;   ping(5)\n\n"
        ),
        "{user}"
    );
    let r = to_messages(&s.input, &o, Strategy::SingleUserCoalesced);
    // R-90: total, shown and dropped describe what the view could show;
    // the failed turn's call is counted apart.
    assert_eq!(r.stats.tool_calls_total, 6);
    assert_eq!(r.stats.tool_calls_shown, 4);
    assert_eq!(r.stats.tool_calls_dropped, 2);
    assert_eq!(r.stats.tool_calls_in_failed_turns, 1);
}

#[test]
fn r90_failed_turns_calls_and_prints_are_counted_apart() {
    let mut s = Sim::new("m", 5).tool("ping", &[("n", "int")], "nil", None, Value::Nil);
    s.turn("(tool/ping 1)");
    s.turn("(tool/ping 2) (println \"hi\") (fail-here)");
    let r = to_messages(
        &s.input,
        &RenderOptions::default(),
        Strategy::SingleUserCoalesced,
    );
    let st = &r.stats;
    assert_eq!(
        (
            st.tool_calls_total,
            st.tool_calls_shown,
            st.tool_calls_dropped
        ),
        (1, 1, 0)
    );
    assert_eq!(
        (st.printlns_total, st.printlns_shown, st.printlns_dropped),
        (0, 0, 0)
    );
    assert_eq!(
        (st.tool_calls_in_failed_turns, st.printlns_in_failed_turns),
        (1, 1)
    );
    // Listed when `keep_failed_turn_calls` asks for them: then they count.
    let o = RenderOptions {
        keep_failed_turn_calls: true,
        ..RenderOptions::default()
    };
    let st = to_messages(&s.input, &o, Strategy::SingleUserCoalesced).stats;
    assert_eq!((st.tool_calls_total, st.tool_calls_shown), (2, 2));
    assert_eq!(st.tool_calls_in_failed_turns, 0);
    // The uncompressed view shows every turn: nothing is apart.
    let st = to_messages(&s.input, &RenderOptions::default(), Strategy::Uncompressed).stats;
    assert_eq!((st.tool_calls_total, st.printlns_total), (2, 1));
    assert_eq!(
        (st.tool_calls_in_failed_turns, st.printlns_in_failed_turns),
        (0, 0)
    );
}

#[test]
fn r30_arguments_are_truncated_and_joined_by_spaces() {
    let mut s = Sim::new("m", 5).tool("t", &[("a", "any"), ("b", "any")], "nil", None, Value::Nil);
    s.turn(&format!(
        "(tool/t [1 2 3 4 5] \"{}\") (tool/t)",
        "x".repeat(70)
    ));
    assert!(s.user().contains(&format!(
        ";   t([1 2 3 ...] (5 items, showing first 3) \"{}...\")\n;   t()\n",
        "x".repeat(60)
    )));
}

#[test]
fn r32_no_tool_calls_line_only_when_tools_exist() {
    let mut s = Sim::new("m", 5).tool("t", &[], "nil", None, Value::Nil);
    s.turn("(def a 1)");
    assert!(s.user().contains("\n\n;; No tool calls made\n\n"));
    // A call made only by a failed turn does not count.
    s.turn("(tool/t) (boom)");
    assert!(s.user().contains("\n\n;; No tool calls made\n\n"));
    let mut s = Sim::new("m", 5);
    s.turn("(def a 1)");
    assert!(!s.user().contains("tool calls"));
    assert!(!s.user().contains("Tool calls"));
}

// ---- R-33, R-40: output ------------------------------------------------------

#[test]
fn r33_output_fifo_counts_calls_and_cuts_long_entries() {
    let mut s = Sim::new("m", 10);
    s.turn("(println \"first\") (println \"two\\nlines\")");
    s.turn("(println \"lost\") (oops)");
    s.turn(&format!("(println \"{}\") (println)", "y".repeat(30)));
    let o = RenderOptions {
        println_limit: 3,
        print_char_limit: 25,
        ..RenderOptions::default()
    };
    let user = s.user_with(&o);
    assert!(
        user.contains(&format!(
            "\n\n;; Output:\ntwo\nlines\n{}\n... (5 more characters)\n\n\nTurns left: 7",
            "y".repeat(25)
        )),
        "{user:?}"
    );
    let r = to_messages(&s.input, &o, Strategy::SingleUserCoalesced);
    assert_eq!(
        (
            r.stats.printlns_total,
            r.stats.printlns_shown,
            r.stats.printlns_dropped,
            r.stats.printlns_truncated,
            r.stats.printlns_in_failed_turns
        ),
        (4, 3, 1, 1, 1)
    );
}

#[test]
fn r40_any_print_switches_user_samples_off_but_not_data_samples() {
    let mut s = Sim::new("m", 10).data("nums", lisp("[1 2]"));
    s.turn("(def a [1 2 3])");
    assert!(s
        .user()
        .contains("a                                ; = list[3], sample: 1\n"));
    assert!(!s.user().contains(";; Output:"));
    s.turn("(println \"hi\")");
    let user = s.user();
    assert!(
        user.contains("a                                ; = list[3]\n"),
        "{user}"
    );
    assert!(user.contains("data/nums                        ; list[2], sample: 1\n"));
    assert!(user.contains(";; Output:\nhi\n"));
    // Output of a failed turn does not switch.
    let mut s = Sim::new("m", 10);
    s.turn("(def a [1 2 3])");
    s.turn("(println \"x\") (boom)");
    assert!(s
        .user()
        .contains("a                                ; = list[3], sample: 1\n"));
}

// ---- R-50: error block -------------------------------------------------------

#[test]
fn r50_error_block_shows_only_the_last_turn_with_hint() {
    let mut s = Sim::new("m", 5);
    s.turn("(def a (fliter odd? [1 2]))");
    s.turn("Let me fix that.\n```clojure\n(def a (filtr odd? [1 2]))\n```");
    let user = s.user();
    assert!(
        user.ends_with(
            "---\nYour previous attempt:\n```clojure\n(def a (filtr odd? [1 2]))\n```\n\nError: undefined symbol 'filtr'\nHint: did you mean filter?\n---\n\nTurns left: 3"
        ),
        "{user}"
    );
    assert!(!user.contains("fliter"));
    let r = to_messages(
        &s.input,
        &RenderOptions::default(),
        Strategy::SingleUserCoalesced,
    );
    assert_eq!(r.stats.error_turns_collapsed, 1);
    s.turn("(def a (filter odd? [1 2]))");
    assert!(!s.user().contains("Your previous attempt"));
    let r = to_messages(
        &s.input,
        &RenderOptions::default(),
        Strategy::SingleUserCoalesced,
    );
    assert_eq!(r.stats.error_turns_collapsed, 2);
}

#[test]
fn r50_a_reply_without_a_program_is_quoted_never_fenced() {
    let mut input = RenderInput {
        mission: "m".into(),
        max_turns: 5,
        ..RenderInput::default()
    };
    input.turns.push(TurnRecord {
        number: 1,
        raw_response: "I think the answer is 42.".into(),
        program: None,
        result: Err(ErrorInfo {
            kind: ErrorKind::Parse,
            message: "no PTC-Lisp code found in the response".into(),
            hint: Some("answer with a ```clojure block".into()),
        }),
        prints: vec![],
        tool_calls: vec![],
        memory: None,
        notes: vec![],
        called: false,
    });
    let r = to_messages(
        &input,
        &RenderOptions::default(),
        Strategy::SingleUserCoalesced,
    );
    assert_eq!(
        r.messages[1].content,
        "m\n\n---\nYour previous response (no code was found in it) began:\n> I think the answer is 42.\n\nError: no PTC-Lisp code found in the response\nHint: answer with a ```clojure block\n---\n\nTurns left: 4"
    );

    // A long reply with its own fences: its first lines, quoted, and how
    // many were left out; never a fence of ours around its fences.
    let reply = "Let me write it in Python.\n\n```python\nxs = [1, 2, 3]\nprint(sum(xs))\n```\nThat prints 6.\nDone.\nOne more line.";
    input.turns[0].raw_response = reply.into();
    let r = to_messages(
        &input,
        &RenderOptions::default(),
        Strategy::SingleUserCoalesced,
    );
    let content = &r.messages[1].content;
    assert!(
        content.contains(
            "began:\n> Let me write it in Python.\n> ```python\n> xs = [1, 2, 3]\n> print(sum(xs))\n> ```\n> That prints 6.\n> … (2 more lines)\n\nError:"
        ),
        "{content}"
    );
    assert!(!content.contains("```clojure\nLet me"), "{content}");
}

// ---- R-60: turn indicator, R-03: single shot --------------------------------

#[test]
fn r60_turn_indicator_three_cases() {
    let mut s = Sim::new("m", 3);
    assert!(
        s.user().ends_with("\n\nTurns left: 3"),
        "first message says MAX_TURNS"
    );
    s.turn("(def a 1)");
    assert!(s.user().ends_with("\n\nTurns left: 2"));
    s.turn("(def b 2)");
    assert!(s
        .user()
        .ends_with("\n\nFINAL TURN - you must call (return result) or (fail reason) now."));
    s.turn("(def c 3)");
    assert!(!s.user().contains("Turns left") && !s.user().contains("FINAL TURN"));
}

#[test]
fn r03_single_shot_is_uncompressed_without_indicator() {
    let s = Sim::new("Count the items", 1).data("items", lisp("[1 2 3]"));
    for strategy in [Strategy::SingleUserCoalesced, Strategy::Uncompressed] {
        let r = to_messages(&s.input, &RenderOptions::default(), strategy);
        assert_eq!(r.stats.strategy, "uncompressed");
        assert_eq!(r.messages.len(), 2);
        assert_eq!(
            r.messages[1].content,
            "Count the items\n\n;; === data/ ===\ndata/items                       ; list[3], sample: 1"
        );
    }
}

// ---- R-80: uncompressed --------------------------------------------------------

#[test]
fn r80_uncompressed_keeps_the_full_history() {
    let mut s = shop(5);
    s.turn("```clojure\n(def reviews (tool/search-reviews \"Electronics\"))\n(println \"got\" (count reviews))\n```");
    s.turn("(def x (broken))");
    s.turn("(count data/products)");
    let r = to_messages(&s.input, &RenderOptions::default(), Strategy::Uncompressed);
    let roles: Vec<Role> = r.messages.iter().map(|m| m.role).collect();
    use Role::*;
    assert_eq!(
        roles,
        [System, User, Assistant, User, Assistant, User, Assistant, User]
    );
    assert_eq!(
        r.messages[1].content,
        "Find well-reviewed products in stock\n\n;; === tool/ ===\n(tool/get-inventory)             ; -> map\n(tool/search-reviews query)      ; query:string -> string\n\n;; === data/ ===\ndata/products                    ; list[7], sample: {:name \"Laptop\" :price 1200 ...} (3 entries, showing first 2)"
    );
    assert_eq!(r.messages[2].content, s.input.turns[0].raw_response);
    assert_eq!(r.messages[3].content, "Result: nil\n\n;; Output:\ngot 102");
    assert_eq!(r.messages[5].content, "Error: undefined symbol 'broken'");
    assert_eq!(r.messages[7].content, "Result: 7\n\nTurns left: 2");

    let fresh = shop(5);
    let r = to_messages(
        &fresh.input,
        &RenderOptions::default(),
        Strategy::Uncompressed,
    );
    assert!(r.messages[1].content.ends_with("\n\nTurns left: 5"));
}

#[test]
fn r80_result_line_limits() {
    let mut s = Sim::new("m", 5);
    s.turn("(range 20)");
    let r = to_messages(&s.input, &RenderOptions::default(), Strategy::Uncompressed);
    assert_eq!(
        r.messages[3].content,
        "Result: [0 1 2 3 4 5 6 7 8 9 ...] (20 items, showing first 10)\n\nTurns left: 4"
    );
}

/// One chatty turn (a real model's printed 30 KB and overflowed an 8k
/// context): the uncompressed view caps each turn's output as R-33 caps
/// the compressed view's, saying what it left out.
#[test]
fn r80_printed_output_is_capped_per_turn_and_says_what_was_cut() {
    let mut s = Sim::new("m", 5);
    s.turn("(doseq [i (range 20)] (println (apply str i \":\" (repeat 3000 \"x\"))))");
    let o = RenderOptions {
        println_limit: 3,
        print_char_limit: 100,
        ..RenderOptions::default()
    };
    let r = to_messages(&s.input, &o, Strategy::Uncompressed);
    let fb = &r.messages[3].content;
    assert!(
        fb.starts_with(
            "Result: nil\n\n;; Output:\n... (17 earlier println entries not shown)\n17:xxx"
        ),
        "{fb}"
    );
    assert_eq!(fb.matches("... (2903 more characters)").count(), 3, "{fb}");
    assert!(fb.len() < 1000, "{} characters", fb.len());
    assert_eq!(
        (
            r.stats.printlns_total,
            r.stats.printlns_shown,
            r.stats.printlns_dropped,
            r.stats.printlns_truncated
        ),
        (20, 3, 17, 3)
    );
    // With the defaults: 15 entries of at most 2000 characters.
    let r = to_messages(&s.input, &RenderOptions::default(), Strategy::Uncompressed);
    assert!(r.messages[3]
        .content
        .contains("(5 earlier println entries not shown)"));
    assert!(r.messages[3].content.len() < 16 * 2100);
}

// ---- the three extra options ------------------------------------------------

#[test]
fn show_tool_results_appends_truncated_results() {
    let mut s = shop(5);
    s.turn("(tool/search-reviews \"x\") (tool/get-inventory)");
    let o = RenderOptions {
        show_tool_results: true,
        ..RenderOptions::default()
    };
    let user = s.user_with(&o);
    assert!(
        user.contains(&format!(
        ";   search-reviews(\"x\") -> \"{}...\"\n;   get-inventory() -> {{:laptop 3 :monitor 0}}\n",
        &REVIEWS[..60]
    )),
        "{user}"
    );
}

#[test]
fn show_last_result_only_when_not_stored() {
    let o = RenderOptions {
        show_last_result: true,
        ..RenderOptions::default()
    };
    let mut s = Sim::new("m", 5).data("items", lisp("[1 2 3]"));
    s.turn("(def total (reduce + data/items))");
    assert!(!s.user_with(&o).contains("Last result"), "a def stores it");
    s.turn("total");
    assert!(
        !s.user_with(&o).contains("Last result"),
        "equal to a definition"
    );
    s.turn("(println \"x\")");
    assert!(!s.user_with(&o).contains("Last result"), "nil is noise");
    s.turn("(count data/items)");
    assert!(s
        .user_with(&o)
        .contains("\n\n;; Last result: 3\n\nFINAL TURN"));
    assert!(!s.user().contains("Last result"), "off by default");
}

#[test]
fn keep_failed_turn_calls_lists_them_marked() {
    let mut s = Sim::new("m", 5).tool("send", &[("to", "string")], "nil", None, Value::Nil);
    s.turn("(tool/send \"a\")");
    s.turn("(tool/send \"b\") (boom)");
    let o = RenderOptions {
        keep_failed_turn_calls: true,
        ..RenderOptions::default()
    };
    assert!(s
        .user_with(&o)
        .contains(";; Tool calls made:\n;   send(\"a\")\n;   send(\"b\") (turn 2 failed)\n"));
    assert!(!s.user().contains("send(\"b\")"));
}

// ---- statistics, turns view ---------------------------------------------------

#[test]
fn r90_stats_measure_every_message() {
    let mut s = shop(5);
    s.turn("(def r (tool/search-reviews \"x\"))");
    let mut r = to_messages(
        &s.input,
        &RenderOptions::default(),
        Strategy::SingleUserCoalesced,
    );
    assert_eq!(r.stats.turns_rendered, 1);
    assert_eq!(r.stats.messages.len(), 2);
    let user = r.stats.messages[1].clone();
    assert_eq!(user.chars, r.messages[1].content.chars().count());
    assert_eq!(user.tokens_estimate, user.chars.div_ceil(4));
    assert_eq!(
        r.stats.chars,
        r.stats.messages.iter().map(|m| m.chars).sum::<usize>()
    );
    assert!(user.tokens.is_none(), "exact counts only on request");
    r.count_exact_tokens();
    if cfg!(feature = "tokens") {
        let t = r.stats.messages[1].tokens.unwrap();
        assert!(t.cl100k_base > 20 && t.cl100k_base < user.chars, "{t:?}");
        assert!(t.o200k_base > 20 && t.o200k_base < user.chars, "{t:?}");
    }
}

#[cfg(feature = "tokens")]
#[test]
fn exact_token_counts_match_known_values() {
    let t = ptc_lisp::render::exact_tokens("hello world").unwrap();
    assert_eq!((t.cl100k_base, t.o200k_base), (2, 2));
}

#[test]
fn turns_view_shows_everything_with_memory_diffs() {
    let mut s = shop(5);
    s.turn("Looking.\n```clojure\n(def r (tool/search-reviews \"x\"))\n(println \"ok\")\n```");
    s.turn("(def r 5) (nope)");
    s.turn("(def r 5) (def n 1)");
    let v = turns_view(&s.input);
    assert!(
        v.starts_with("=== Turn 1 of 5: ok ===\n--- response ---\nLooking.\n"),
        "{v}"
    );
    assert!(v.contains("--- program ---\n(def r (tool/search-reviews \"x\"))\n(println \"ok\")\n"));
    assert!(v.contains("--- result ---\nnil\n--- prints (1) ---\nok\n--- tool calls (1) ---\nsearch-reviews(\"x\") -> \""));
    assert!(v.contains("--- memory ---\n+ r = string, sample: \"Customer"));
    assert!(v.contains("=== Turn 2 of 5: failed ===\n"));
    assert!(v.contains(
        "--- error ---\n[undefined-error] undefined symbol 'nope'\n--- memory ---\n(unchanged)\n"
    ));
    assert!(
        v.ends_with("--- memory ---\n~ r = integer, sample: 5\n+ n = integer, sample: 1\n"),
        "{v}"
    );
}

#[test]
fn memory_view_from_interp_is_one_call() {
    let mut interp = ptc_lisp::Interp::standalone();
    assert!(interp.run_program("(defn f [x] x) (def y 2)").is_ok());
    let m = MemoryView::from_interp(&interp);
    assert_eq!(m.entries.len(), 2);
    assert!(m.entries[0].function.is_some());
    let _ = ToolInfo::default();
}

#[test]
fn fn_values_defined_with_def_are_function_lines() {
    let mut s = Sim::new("m", 5);
    s.turn("(def h (fn [a b] (+ a b))) (def h2 \"Adds one.\" #(+ % 1)) (def k (fn named ([] 0) ([x] x)))");
    let user = s.user();
    assert!(user.contains("\n(h [a b])\n"), "{user}");
    assert!(
        user.contains("\n(h2 [%1])                        ; \"Adds one.\"\n"),
        "{user}"
    );
    assert!(user.contains("\n(k [] [x])\n"), "{user}");
}
