//! `:approve ID|all` and `:deny ID|all [REASON]`: the REPL's answer to a
//! turn paused at calls awaiting approval (`session/act.rs`, ACT-2).

use std::collections::BTreeMap;

use super::{Output, Repl};
use crate::session::Decision;

/// `:approve ID|all`.
pub fn approve(repl: &mut Repl, arg: &str) -> Output {
    decide(repl, arg, |_| Decision::Approve, ":approve ID|all")
}

/// `:deny ID|all [REASON]`.
pub fn deny(repl: &mut Repl, arg: &str) -> Output {
    let (ids, reason) = match arg.split_once(char::is_whitespace) {
        Some((ids, reason)) => (ids, reason.trim()),
        None => (arg, ""),
    };
    let reason = if reason.is_empty() {
        "denied by the user"
    } else {
        reason
    };
    decide(
        repl,
        ids,
        |_| Decision::Deny(reason.to_string()),
        ":deny ID|all [REASON]",
    )
}

fn decide(repl: &mut Repl, ids: &str, decision: impl Fn(&str) -> Decision, usage: &str) -> Output {
    let pending: Vec<String> = repl
        .session()
        .pending()
        .iter()
        .map(|c| c.id.clone())
        .collect();
    if pending.is_empty() {
        return Output::note("no turn is paused: nothing awaits approval");
    }
    let chosen: Vec<String> = match ids {
        "" => return Output::note(format!("usage: {usage} (pending: {})", pending.join(", "))),
        "all" => pending.clone(),
        id if pending.iter().any(|p| p == id) => vec![id.to_string()],
        id => {
            return Output::note(format!(
                "no pending call has id {id:?}; pending: {}",
                pending.join(", ")
            ))
        }
    };
    let decisions: BTreeMap<String, Decision> = chosen
        .into_iter()
        .map(|id| {
            let d = decision(&id);
            (id, d)
        })
        .collect();
    repl.resume(decisions)
}

#[cfg(test)]
mod tests {
    use super::super::{Repl, ReplConfig};
    use crate::session::{Session, Status};
    use crate::value::Value;

    #[test]
    fn approve_and_deny_resume_the_paused_entry() {
        let session = Session::builder("act")
            .tool_fn("send", "(m :string) -> :string", "Sends", |a| {
                Ok(Value::string(format!("sent {}", a[0])))
            })
            .approval_for_writes(true)
            .build()
            .unwrap();
        // A closure reads unless declared: make it a write.
        let mut r = Repl::new(session, ReplConfig::default());
        let out = r.eval_entry("(tool/send \"a\")").plain();
        assert!(!out.contains("paused"), "a read runs: {out}");
        let session = Session::builder("act")
            .tool(
                crate::session::FnTool::new("send", "(m :string) -> :string", "Sends", |a| {
                    Ok(Value::string(format!("sent {}", a[0])))
                })
                .unwrap()
                .acting(crate::session::Acts::write()),
            )
            .approval_for_writes(true)
            .build()
            .unwrap();
        let mut r = Repl::new(session, ReplConfig::default());
        let out = r.eval_entry("(def x (tool/send \"a\")) x").plain();
        assert!(
            out.contains("awaits approval") && out.contains(":approve"),
            "{out}"
        );
        assert!(r.eval_entry("1").plain().contains("paused"), "no new entry");
        assert!(r.eval_entry(":approve 9").plain().contains("pending: 0"));
        let out = r.eval_entry(":approve all").plain();
        assert!(out.ends_with("\n\"sent \\\"a\\\"\"\n"), "{out}");
        assert!(r
            .eval_entry("(try (tool/send \"b\") (catch Exception e (ex-message e)))")
            .plain()
            .contains("awaits approval"));
        let out = r.eval_entry(":deny 0 not now").plain();
        assert!(
            out.ends_with("\"tool/send failed: denied: not now\"\n"),
            "{out}"
        );
        assert_eq!(r.session().status(), &Status::Running);
        assert_eq!(r.session().turns().len(), 2);
        assert!(r
            .eval_entry(":deny all")
            .plain()
            .contains("no turn is paused"));
    }
}
