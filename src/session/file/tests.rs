use super::*;

fn parse_err(text: &str) -> String {
    match SessionFile::parse(text, Path::new("s.json")) {
        Ok(_) => panic!("expected an error for {text}"),
        Err(e) => e.to_string(),
    }
}

fn build_err(text: &str) -> String {
    let file = SessionFile::parse(text, Path::new("s.json")).unwrap();
    match file.session(Path::new("s.json"), Some(text), None) {
        Ok(_) => panic!("expected an error for {text}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn the_spec_example_parses() {
    let text = r##"{
  "mission": "Find well-reviewed products in stock",
  "max_turns": 5,
  "compression": true,
  "data": { "products": [ {"name": "Laptop", "price": 1200} ] },
  "data_lisp": { "statuses": "#{:active :pending}" },
  "tools": {
"search-reviews": {
  "signature": "(query :string) -> :string",
  "description": "Searches review summaries",
  "returns": "Customer Review Summary for Electronics: ..."
},
"get-inventory": { "signature": "-> :map", "returns": {"laptop": 3} },
"lookup": {
  "signature": "(id :int) -> :map",
  "responses": [ {"args": [1], "returns": {"id": 1}}, {"args": [2], "error": "not found"} ],
  "returns": null
}
  },
  "limits": { "timeout_ms": 1000, "max_steps": 10000000 },
  "turns": [ "```clojure\n(def x 1)\n```", "(return x)" ]
}"##;
    let f = SessionFile::parse(text, Path::new("s.json")).unwrap();
    assert!(f.compression);
    assert_eq!(f.turns.len(), 2);
    let s = f.session(Path::new("s.json"), Some(text), None).unwrap();
    assert_eq!(s.tools().len(), 3);
    assert_eq!(s.tools()[0].name, "get-inventory");
    assert_eq!(s.data().len(), 2);
}

#[test]
fn unknown_keys_are_named_with_their_place() {
    let e = parse_err("{\n  \"mission\": \"m\",\n  \"mision\": 1\n}");
    assert!(e.starts_with("s.json:3:"), "{e}");
    assert!(e.contains("unknown field `mision`"), "{e}");
    let e = parse_err("{\"mission\": \"m\", \"tools\": {\"t\": {\"retruns\": 1}}}");
    assert!(
        e.contains("tools.t.retruns: unknown field `retruns`"),
        "{e}"
    );
    let e = parse_err("{\"mission\": \"m\", \"limits\": {\"timeout\": 1}}");
    assert!(e.contains("limits.timeout"), "{e}");
}

#[test]
fn bad_json_and_bad_types() {
    let e = parse_err("{\"mission\": \"m\",\n}");
    assert!(e.starts_with("s.json:2:"), "{e}");
    assert!(e.contains("invalid JSON"), "{e}");
    let e = parse_err("{\"mission\": \"m\", \"max_turns\": \"five\"}");
    assert!(e.contains("max_turns: invalid type"), "{e}");
    assert!(parse_err("{}").contains("missing field `mission`"));
}

#[test]
fn bad_signatures_literals_and_commands() {
    let e = build_err(
        "{\"mission\": \"m\",\n \"tools\": {\"t\": {\n  \"signature\": \"(q string) -> :int\"}}}",
    );
    assert!(
        e.starts_with("s.json:3:3: tools.t.signature: bad signature"),
        "{e}"
    );
    let e = build_err("{\"mission\": \"m\", \"data_lisp\": {\"x\": \"{:a\"}}");
    assert!(e.contains("data_lisp.x: not a PTC-Lisp literal"), "{e}");
    let e = build_err("{\"mission\": \"m\", \"tools\": {\"t\": {\"command\": []}}}");
    assert!(e.contains("tools.t.command: the command is empty"), "{e}");
    let e = build_err(
        "{\"mission\": \"m\", \"tools\": {\"t\": {\"command\": [\"no-such-program-ptc\"]}}}",
    );
    assert!(
        e.contains("tools.t.command: program \"no-such-program-ptc\" not found"),
        "{e}"
    );
    let e = build_err(
        "{\"mission\": \"m\", \"tools\": {\"t\": {\"command\": [\"sh\", \"tools/missing.sh\"]}}}",
    );
    assert!(e.contains("script \"tools/missing.sh\" not found"), "{e}");
    let e = build_err("{\"mission\": \"m\", \"tools\": {\"t\": {\"responses\": [{\"args\": [], \"returns\": 1, \"error\": \"x\"}]}}}");
    assert!(e.contains("tools.t.responses[0]"), "{e}");
    let e = build_err("{\"mission\": \"m\", \"data\": {\"x\": 1}, \"data_lisp\": {\"x\": \"1\"}}");
    assert!(e.contains("data_lisp.x: data/x is also defined"), "{e}");
    let e = build_err("{\"mission\": \"m\", \"max_turns\": 0}");
    assert!(e.contains("max_turns: must be at least 1"), "{e}");
    let e = build_err("{\"mission\": \"m\", \"data\": {\"my data\": 1}}");
    assert!(e.contains("data.my data"), "{e}");
}

#[test]
fn paths_inside_the_text() {
    let t = r#"{"a": {"b": [1, {"c": 2}]}, "d": 3}"#;
    let at_c = t.find("\"c\"").unwrap();
    assert_eq!(path_at(t, at_c + 3).as_deref(), Some("a.b[1].c"));
    assert_eq!(find_key(t, &["d"]), t.find("\"d\""));
    assert_eq!(find_key(t, &["a", "b", "[1]", "c"]), Some(at_c));
    assert_eq!(find_key(t, &["x"]), None);
}
