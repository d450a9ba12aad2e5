//! `(doc name)`, `(apropos "part")` and `(find-doc "part")`: REPL-level
//! forms answered from the builtin registry, the special forms, user/
//! definitions, tools and data. They are not turns: the session never sees
//! them.

use crate::analyze::doc::SPECIAL_DOCS;
use crate::analyze::SPECIAL_NAMES;
use crate::builtins::{self, Builtin, Ns};
use crate::eval::Definition;
use crate::format::to_clojure;
use crate::reader::{Form, FormKind};
use crate::session::Session;

use super::Output;

/// The REPL-level forms, for completion and help.
pub const REPL_FORMS: &[&str] = &["doc", "apropos", "find-doc"];

/// Answers `form` if it is `(doc …)`, `(apropos …)` or `(find-doc …)`.
pub fn repl_form(session: &Session, form: &Form) -> Option<Output> {
    let FormKind::List(items) = &form.kind else {
        return None;
    };
    let Some(FormKind::Symbol(head)) = items.first().map(|f| &f.kind) else {
        return None;
    };
    let head = head.as_str();
    if !REPL_FORMS.contains(&head) {
        return None;
    }
    let arg = match items.get(1).map(|f| &f.kind) {
        Some(FormKind::Symbol(s)) | Some(FormKind::Str(s)) if items.len() == 2 => s.clone(),
        Some(FormKind::Regex(r)) if items.len() == 2 && head != "doc" => r.clone(),
        _ => {
            let usage = match head {
                "doc" => "(doc name), e.g. (doc map) or (doc tool/search)",
                "apropos" => {
                    "(apropos \"part\"): names containing part (a string, symbol or #\"regex\")"
                }
                _ => "(find-doc \"part\"): names or docs containing part",
            };
            return Some(Output::note(format!("usage: {usage}")));
        }
    };
    Some(match head {
        "doc" => doc(session, &arg),
        "apropos" => search(session, &arg, false),
        _ => search(session, &arg, true),
    })
}

/// `(doc name)`: resolved as the language resolves names (user/ first,
/// then special forms, builtins, tools, data).
pub fn doc(session: &Session, name: &str) -> Output {
    match doc_text(session, name) {
        Some(text) => Output::text(text),
        None => {
            let mut out = Output::note(format!("no documentation for {name}"));
            let similar: Vec<String> = entries(session)
                .into_iter()
                .map(|e| e.name)
                .filter(|n| {
                    let bare = n.rsplit('/').next().unwrap_or(n);
                    bare.contains(name) || (name.contains(bare) && bare.len() > 2)
                })
                .take(8)
                .collect();
            if !similar.is_empty() {
                out.push_note(format!("similar names: {}", similar.join(" ")));
            }
            out.push_note("(apropos \"part\") finds names containing part");
            out
        }
    }
}

fn doc_text(session: &Session, name: &str) -> Option<String> {
    let (qualifier, bare) = match name.find('/') {
        Some(i) if i > 0 && i + 1 < name.len() => (Some(&name[..i]), &name[i + 1..]),
        _ => (None, name),
    };
    match qualifier {
        Some("tool") => return tool_doc(session, bare),
        Some("data") => return data_doc(session, bare),
        Some("user") => return user_doc(session, bare),
        Some(q) => {
            let ns = Ns::from_qualifier(q)?;
            return builtins::lookup_in(ns, bare)
                .or_else(|| builtins::lookup(bare))
                .map(builtin_doc);
        }
        None => {}
    }
    if let Some(t) = user_doc(session, name) {
        return Some(t);
    }
    if let Some((_, d)) = SPECIAL_DOCS.iter().find(|(n, _)| *n == name) {
        return Some(format!("{name}\n  special form\n  {d}"));
    }
    if SPECIAL_NAMES.contains(&name) {
        return Some(format!("{name}\n  special form"));
    }
    if let Some(b) = builtins::lookup(name) {
        return Some(builtin_doc(b));
    }
    tool_doc(session, name).or_else(|| data_doc(session, name))
}

fn builtin_doc(b: &Builtin) -> String {
    b.doc_text()
}

/// The docstring of a user/ definition: `(def x "doc" v)` keeps it on the
/// definition, `(defn f "doc" [x] …)` on the function.
pub fn user_docstring(def: &Definition) -> Option<&str> {
    match (&def.doc, &def.value) {
        (Some(d), _) => Some(d),
        (None, v) => v.as_closure()?.proto.docstring.as_deref(),
    }
}

fn user_doc(session: &Session, name: &str) -> Option<String> {
    let def = session.memory().lookup(name)?;
    let mut s = format!("user/{name}");
    match def.value.as_closure() {
        Some(c) => {
            s.push_str("\n  ");
            s.push_str(&c.proto.source_params);
        }
        None => {
            s.push_str("\n  = ");
            s.push_str(&to_clojure(&def.value, Some(10), Some(200)).0);
        }
    }
    if let Some(d) = user_docstring(def) {
        s.push_str("\n  ");
        s.push_str(d);
    }
    Some(s)
}

fn tool_doc(session: &Session, name: &str) -> Option<String> {
    let t = session.tools().iter().find(|t| t.name == name)?;
    Some(t.doc_text())
}

fn data_doc(session: &Session, name: &str) -> Option<String> {
    let v = session.data().get(name)?;
    Some(format!(
        "data/{name}\n  {}\n  = {}",
        v.type_name(),
        to_clojure(v, Some(5), Some(120)).0
    ))
}

/// A name a program can use, with its one-line doc.
struct Entry {
    name: String,
    doc: String,
}

/// Everything `apropos` searches: builtins (qualified outside
/// clojure.core), special forms, user/, tool/ and data/ names.
fn entries(session: &Session) -> Vec<Entry> {
    let mut out: Vec<Entry> = builtins::all()
        .iter()
        .map(|b| Entry {
            name: if b.ns == Ns::Core {
                b.name.to_string()
            } else {
                b.qualified_name()
            },
            doc: b.doc.to_string(),
        })
        .collect();
    for name in SPECIAL_NAMES {
        let doc = SPECIAL_DOCS
            .iter()
            .find(|(n, _)| n == name)
            .map_or("special form", |(_, d)| d);
        out.push(Entry {
            name: name.to_string(),
            doc: doc.to_string(),
        });
    }
    for (name, def) in session.memory().iter() {
        out.push(Entry {
            name: name.to_string(),
            doc: user_docstring(def)
                .unwrap_or("(user/ definition)")
                .to_string(),
        });
    }
    for t in session.tools() {
        out.push(Entry {
            name: format!("tool/{}", t.name),
            doc: t.signature.to_string(),
        });
    }
    for (name, v) in session.data() {
        out.push(Entry {
            name: format!("data/{name}"),
            doc: v.type_name().to_string(),
        });
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out.dedup_by(|a, b| a.name == b.name);
    out
}

/// `apropos` (names) and `find-doc` (names and docs): case-insensitive
/// substring, or a regex when `pattern` is not a plain word and compiles.
fn search(session: &Session, pattern: &str, in_docs: bool) -> Output {
    let lower = pattern.to_lowercase();
    let regex = regex::RegexBuilder::new(pattern)
        .case_insensitive(true)
        .build()
        .ok();
    let matches = |s: &str| {
        s.to_lowercase().contains(&lower) || regex.as_ref().is_some_and(|r| r.is_match(s))
    };
    let found: Vec<Entry> = entries(session)
        .into_iter()
        .filter(|e| matches(&e.name) || (in_docs && matches(&e.doc)))
        .collect();
    if found.is_empty() {
        return Output::note(format!("nothing matches {pattern:?}"));
    }
    let width = found
        .iter()
        .map(|e| e.name.len())
        .max()
        .unwrap_or(0)
        .min(28);
    let lines: Vec<String> = found
        .iter()
        .map(|e| format!("{:width$}  {}", e.name, first_line(&e.doc)))
        .collect();
    Output::text(lines.join("\n"))
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reader::read_all;

    fn session() -> Session {
        let mut s = Session::builder("m")
            .data_json("products", &serde_json::json!([{"name": "Laptop"}]))
            .tool_fn(
                "search",
                "(query :string) -> :string",
                "Finds things",
                |_| Ok(crate::Value::Nil),
            )
            .build()
            .unwrap();
        s.run_turn("(defn twice \"Doubles x.\" [x] (* 2 x))")
            .unwrap();
        s
    }

    fn answer(s: &Session, src: &str) -> Option<String> {
        let forms = read_all(src).unwrap();
        repl_form(s, &forms[0]).map(|o| o.plain())
    }

    #[test]
    fn doc_covers_builtins_specials_user_tools_and_data() {
        let s = session();
        let map = answer(&s, "(doc map)").unwrap();
        assert!(map.starts_with("clojure.core/map\n"), "{map}");
        let join = answer(&s, "(doc str/join)").unwrap();
        assert!(join.starts_with("clojure.string/join\n"), "{join}");
        assert!(answer(&s, "(doc let)").unwrap().contains("special form"));
        let twice = answer(&s, "(doc twice)").unwrap();
        assert_eq!(twice, "user/twice\n  [x]\n  Doubles x.\n");
        let tool = answer(&s, "(doc tool/search)").unwrap();
        assert!(tool.contains("(query :string) -> :string") && tool.contains("Finds things"));
        assert!(answer(&s, "(doc search)")
            .unwrap()
            .starts_with("tool/search"));
        assert!(answer(&s, "(doc data/products)")
            .unwrap()
            .contains("Laptop"));
        let none = answer(&s, "(doc nosuchthing)").unwrap();
        assert!(none.contains("no documentation for nosuchthing"), "{none}");
        assert!(answer(&s, "(doc)").unwrap().contains("usage"));
        assert_eq!(answer(&s, "(map inc [1])"), None);
    }

    #[test]
    fn every_special_name_has_a_doc_line() {
        for name in SPECIAL_NAMES {
            assert!(
                SPECIAL_DOCS.iter().any(|(n, _)| n == name),
                "no doc line for {name}"
            );
        }
    }

    #[test]
    fn apropos_and_find_doc_search_names_and_docs() {
        let s = session();
        let found = answer(&s, "(apropos \"upper\")").unwrap();
        assert!(found.contains("clojure.string/upper-case"), "{found}");
        let found = answer(&s, "(apropos tw)").unwrap();
        assert!(found.contains("twice"), "{found}");
        let found = answer(&s, "(apropos \"tool/\")").unwrap();
        assert!(found.contains("tool/search"), "{found}");
        let found = answer(&s, "(find-doc \"Doubles\")").unwrap();
        assert!(found.contains("twice"), "{found}");
        assert!(answer(&s, "(apropos \"zzzz\")")
            .unwrap()
            .contains("nothing matches"));
    }
}
