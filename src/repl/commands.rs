//! The `:commands`: what a prompt designer asks about the session between
//! turns. None of them is a turn.

use std::path::PathBuf;

use super::{open_session, Output, Repl};
use crate::format::to_clojure;
use crate::session::messages::render;
use crate::session::{render_messages, Message, Role, SessionFile, View};

/// `(name, arguments, what it does)`, in the order `:help` lists them.
pub const COMMANDS: &[(&str, &str, &str)] = &[
    (":help", "", "this list"),
    (
        ":prompt",
        "[compressed|uncompressed]",
        "the exact next prompt the LLM would get, after SYSTEM",
    ),
    (":system", "", "the SYSTEM message"),
    (
        ":turns",
        "",
        "the turns so far: program, then value or error",
    ),
    (":memory", "", "user/ definitions and their values"),
    (":tools", "", "the tools and their signatures"),
    (":data", "", "the data/ values"),
    (
        ":stats",
        "",
        "session status, the last turn's cost, the next prompt's size, limits",
    ),
    (":full", "", "the last value, whole"),
    (
        ":pp",
        "[on|off]",
        "pretty-print results (one entry per line); bare :pp pretty-prints the last value",
    ),
    (
        ":undo",
        "",
        "drop the last turn (memory, *1 and the status go back)",
    ),
    (":reset", "", "drop every turn"),
    (
        ":save",
        "[FILE]",
        "write the session and its turns as a session file (JSON); a bare :save never overwrites the file opened (writes NAME-1.json)",
    ),
    (":load", "FILE", "open a session file and replay its turns"),
    (
        ":approve",
        "ID|all",
        "run the paused turn's call(s) awaiting approval (once)",
    ),
    (
        ":deny",
        "ID|all [REASON]",
        "fail the paused turn's call(s) with a tool-error carrying REASON",
    ),
    (":quit", "", "leave (also :repl/quit, :exit or Ctrl-D)"),
];

/// Every name that runs a command (for completion).
pub const COMMAND_NAMES: &[&str] = &[
    ":approve",
    ":data",
    ":deny",
    ":exit",
    ":full",
    ":help",
    ":load",
    ":memory",
    ":pp",
    ":prompt",
    ":quit",
    ":repl/quit",
    ":reset",
    ":save",
    ":stats",
    ":system",
    ":tools",
    ":turns",
    ":undo",
];

/// Runs a command line (`:name args`).
pub fn run(repl: &mut Repl, line: &str) -> Output {
    let line = line.trim();
    let (name, arg) = match line.find(char::is_whitespace) {
        Some(i) => (&line[..i], line[i..].trim()),
        None => (line, ""),
    };
    match name {
        ":help" => help(),
        ":quit" | ":repl/quit" | ":exit" | ":q" => Output {
            items: Vec::new(),
            quit: true,
        },
        ":prompt" => prompt(repl, arg),
        ":system" => system(repl),
        ":turns" => turns(repl),
        ":memory" => memory(repl),
        ":tools" => tools(repl),
        ":data" => data(repl),
        ":stats" => stats(repl),
        ":full" => match repl.last_value() {
            Some(v) => Output::text(to_clojure(v, None, None).0),
            None => Output::note("no value yet"),
        },
        ":pp" => match arg {
            "on" => {
                repl.set_pretty(true);
                Output::note("results are pretty-printed (:pp off to stop)")
            }
            "off" => {
                repl.set_pretty(false);
                Output::note("results are printed on one line")
            }
            "" => match repl.last_value() {
                Some(v) => Output::text(super::pretty::pretty(v)),
                None => Output::note("no value yet"),
            },
            _ => Output::note("usage: :pp [on|off]"),
        },
        ":undo" => undo(repl),
        ":reset" => reset(repl),
        ":save" => save(repl, arg),
        ":load" => load(repl, arg),
        ":approve" => super::approve::approve(repl, arg),
        ":deny" => super::approve::deny(repl, arg),
        _ => Output::note(format!(
            "unknown command {name}; :help lists the commands (to evaluate a keyword, write (identity {name}))"
        )),
    }
}

fn help() -> Output {
    let mut lines = vec![
        "Each entry is one turn of the session; the LLM would see the same. Enter runs a"
            .to_string(),
        "complete form (an open bracket or string continues on the next line); a pasted LLM"
            .to_string(),
        "response (prose, then a ```clojure fence) is one entry.".to_string(),
        String::new(),
    ];
    for (name, args, what) in COMMANDS {
        let left = if args.is_empty() {
            name.to_string()
        } else {
            format!("{name} {args}")
        };
        lines.push(format!("  {left:34} {what}"));
    }
    lines.push(String::new());
    lines.push(
        "  (doc name)  (apropos \"part\")  (find-doc \"part\")  (source name)  (dir ns)  (pst)   not turns".into(),
    );
    lines.push("  *1 *2 *3    the values of the last successful turns".into());
    lines.push(
        "  *e          the last error as {:message :kind :data} (REPL-only: not a turn)".into(),
    );
    lines.push(
        "  Tab completes names and commands; Ctrl-C clears the input, or interrupts a running"
            .into(),
    );
    lines.push("  entry (which is then not kept); Ctrl-D quits.".into());
    Output::text(lines.join("\n"))
}

fn prompt(repl: &Repl, arg: &str) -> Output {
    let view = match arg {
        // what the session recorded for its next turn
        "" => return after_system(repl.session().next_prompt()),
        "compressed" => View::Compressed,
        "uncompressed" => View::Uncompressed,
        other => {
            return Output::note(format!(
                "unknown view {other:?}: :prompt, :prompt compressed or :prompt uncompressed"
            ))
        }
    };
    after_system(&render_messages(repl.session(), view))
}

/// The next prompt's messages after SYSTEM (`:system` shows that one): the
/// USER message alone in the compressed view, the whole history with
/// `[ROLE]` headers (as `ptc replay` prints them) in the uncompressed one.
fn after_system(messages: &[Message]) -> Output {
    let rest: Vec<&Message> = messages.iter().filter(|m| m.role != Role::System).collect();
    match rest.as_slice() {
        [] => Output::note("no USER message"),
        [one] => Output::text(one.content.trim_end_matches('\n')),
        many => Output::text(
            many.iter()
                .map(|m| {
                    format!(
                        "[{}]\n{}",
                        m.role.name().to_uppercase(),
                        m.content.trim_end_matches('\n')
                    )
                })
                .collect::<Vec<_>>()
                .join("\n\n"),
        ),
    }
}

fn system(repl: &Repl) -> Output {
    match repl
        .session()
        .next_prompt()
        .iter()
        .find(|m| m.role == Role::System)
    {
        Some(m) => Output::text(m.content.trim_end_matches('\n')),
        None => Output::note("no SYSTEM message"),
    }
}

fn preview(v: &crate::Value, chars: usize) -> String {
    one_line(&to_clojure(v, Some(10), Some(chars)).0, chars)
}

/// `s` on one line, cut to about `max` characters.
fn one_line(s: &str, max: usize) -> String {
    let flat: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() > max {
        let cut: String = flat.chars().take(max).collect();
        format!("{cut}...")
    } else {
        flat
    }
}

fn turns(repl: &Repl) -> Output {
    let turns = repl.session().turns();
    if turns.is_empty() {
        return Output::note("no turns yet");
    }
    let mut lines = Vec::new();
    for t in turns {
        let program = match &t.program {
            Some(p) => {
                let n = p.lines().count();
                let first = one_line(p.lines().next().unwrap_or(""), 70);
                if n > 1 {
                    format!("{first}  ({n} lines)")
                } else {
                    first
                }
            }
            None => "(no code in the response)".to_string(),
        };
        lines.push(format!(
            "[{}] {:6} {program}",
            t.number,
            if t.success { "ok" } else { "failed" }
        ));
        match &t.result {
            Ok(v) => lines.push(format!("           => {}", preview(v, 100))),
            Err(e) => lines.push(format!(
                "           {}: {}",
                e.kind(),
                one_line(e.message(), 100)
            )),
        }
        if !t.prints.is_empty() || !t.tool_calls.is_empty() {
            lines.push(format!(
                "           ({} println, {} tool call{})",
                t.prints.len(),
                t.tool_calls.len(),
                if t.tool_calls.len() == 1 { "" } else { "s" }
            ));
        }
    }
    lines.push(format!("status: {}", repl.session().status()));
    Output::text(lines.join("\n"))
}

fn memory(repl: &Repl) -> Output {
    let lines: Vec<String> = repl
        .session()
        .memory()
        .iter()
        .map(|(name, def)| {
            let doc = super::doc::user_docstring(def)
                .map(|d| format!("  ; {}", one_line(d, 60)))
                .unwrap_or_default();
            format!("{name} = {}{doc}", preview(&def.value, 100))
        })
        .collect();
    if lines.is_empty() {
        Output::note("user/ is empty: (def name value) or (defn name [args] body) add to it")
    } else {
        Output::text(lines.join("\n"))
    }
}

fn tools(repl: &Repl) -> Output {
    let tools = repl.session().tools();
    let servers = repl.session().mcp_servers();
    if tools.is_empty() && servers.is_empty() {
        return Output::note("no tools (a session file's \"tools\" defines them)");
    }
    let mut lines = Vec::new();
    for (name, state) in servers {
        lines.push(format!("MCP server {name}: {state}"));
    }
    for t in tools {
        lines.push(format!("tool/{} {}", t.name, t.signature));
        if let Some(d) = &t.description {
            lines.push(format!("    {d}"));
        }
    }
    Output::text(lines.join("\n"))
}

fn data(repl: &Repl) -> Output {
    let data = repl.session().data();
    if data.is_empty() {
        return Output::note("no data (a session file's \"data\" defines it)");
    }
    let lines: Vec<String> = data
        .iter()
        .map(|(name, v)| format!("data/{name} ({}) = {}", v.type_name(), preview(v, 100)))
        .collect();
    Output::text(lines.join("\n"))
}

fn stats(repl: &Repl) -> Output {
    let s = repl.session();
    let ok = s.turns().iter().filter(|t| t.success).count();
    let mut lines = vec![format!(
        "session: {}, {} turn{} ({ok} ok, {} failed), max_turns {}{}",
        s.status(),
        s.turns().len(),
        if s.turns().len() == 1 { "" } else { "s" },
        s.turns().len() - ok,
        s.max_turns(),
        if s.stops_at_max_turns() {
            ""
        } else {
            " (for the turn indicator only: --max-turns N ends the session there)"
        }
    )];
    lines.push(format!(
        "memory: {} definition{}",
        s.memory().iter().count(),
        if s.memory().iter().count() == 1 {
            ""
        } else {
            "s"
        }
    ));
    if let Some(e) = repl.last_stats() {
        lines.push(format!(
            "last turn: {} steps, {} bytes built, {} bytes printed, {} tool call{}, {:.1} ms",
            e.steps,
            e.heap_bytes,
            e.print_bytes,
            e.tool_calls,
            if e.tool_calls == 1 { "" } else { "s" },
            e.elapsed.as_secs_f64() * 1000.0
        ));
    }
    let view = View::of(s);
    let mut rendered = render(s, view);
    rendered.count_exact_tokens();
    let st = &rendered.stats;
    let exact = rendered
        .stats
        .messages
        .iter()
        .map(|m| m.tokens.map(|t| (t.cl100k_base, t.o200k_base)))
        .try_fold((0, 0), |(a, b), t| t.map(|(x, y)| (a + x, b + y)));
    let tokens = match exact {
        Some((cl, o)) => format!("{cl} tokens (cl100k_base), {o} (o200k_base)"),
        None => format!("about {} tokens", st.tokens_estimate),
    };
    lines.push(format!(
        "next prompt ({}): {} messages, {} characters, {tokens}",
        st.strategy,
        rendered.messages.len(),
        st.chars,
    ));
    lines.push(format!(
        "shown to the LLM: {} of {} tool calls, {} of {} printlns; {} failed turns collapsed",
        st.tool_calls_shown,
        st.tool_calls_total,
        st.printlns_shown,
        st.printlns_total,
        st.error_turns_collapsed
    ));
    if let Some(budget) = st.budget_tokens {
        lines.push(format!(
            "token budget: {budget} (chars/4); degraded: {}{}",
            if st.degraded.is_empty() {
                "nothing".to_string()
            } else {
                st.degraded.join(", ")
            },
            st.over_budget_by
                .map(|n| format!("; still {n} tokens over"))
                .unwrap_or_default()
        ));
    }
    let l = s.limits();
    let show = |v: Option<String>| v.unwrap_or_else(|| "none".into());
    lines.push(format!(
        "limits per turn: timeout {}, steps {}, depth {}, heap {}, printed {}, tool calls {}",
        show(l.timeout_ms.map(|v| format!("{v} ms"))),
        show(l.max_steps.map(|v| v.to_string())),
        show(l.max_depth.map(|v| v.to_string())),
        show(l.max_heap_bytes.map(|v| format!("{v} bytes"))),
        show(l.max_print_bytes.map(|v| format!("{v} bytes"))),
        show(l.max_tool_calls.map(|v| v.to_string())),
    ));
    Output::text(lines.join("\n"))
}

fn undo(repl: &mut Repl) -> Output {
    let n = repl.session().turns().len();
    if n == 0 {
        return Output::note("no turn to undo");
    }
    let dropped = repl.session.truncate_turns(n - 1);
    let what = dropped
        .first()
        .and_then(|t| t.program.as_deref())
        .map(|p| one_line(p, 60))
        .unwrap_or_default();
    Output::note(format!(
        "dropped turn {n} {what}; status: {}",
        repl.session().status()
    ))
}

fn reset(repl: &mut Repl) -> Output {
    let n = repl.session().turns().len();
    repl.session.truncate_turns(0);
    repl.last_value = None;
    repl.last_error = None;
    repl.last_stats = None;
    Output::note(format!(
        "dropped {n} turn{}; user/ is empty",
        if n == 1 { "" } else { "s" }
    ))
}

/// Sets each command tool's `cwd` in the original JSON to the one of
/// `file` (saved elsewhere, R-SAVE-PATHS), keeping the rest as written,
/// and adds the tools the original does not list: those of its MCP
/// servers (`"mcp": "SERVER"`, MCP-9), so the file lists and replays them
/// without starting a server, as every other way of saving writes it.
fn relocate_tools(obj: &mut serde_json::Map<String, serde_json::Value>, file: &SessionFile) {
    let missing: Vec<(String, serde_json::Value)> = file
        .tools
        .iter()
        .filter(|(name, _)| {
            !obj.get("tools")
                .and_then(serde_json::Value::as_object)
                .is_some_and(|t| t.contains_key(name.as_str()))
        })
        .filter_map(|(name, spec)| Some((name.clone(), serde_json::to_value(spec).ok()?)))
        .collect();
    if !missing.is_empty() {
        let tools = obj
            .entry("tools")
            .or_insert_with(|| serde_json::Value::Object(Default::default()));
        if let serde_json::Value::Object(tools) = tools {
            tools.extend(missing);
        }
    }
    let Some(serde_json::Value::Object(tools)) = obj.get_mut("tools") else {
        return;
    };
    for (name, spec) in tools.iter_mut() {
        let (serde_json::Value::Object(spec), Some(saved)) = (spec, file.tools.get(name)) else {
            continue;
        };
        if saved.command.is_none() {
            continue;
        }
        match &saved.cwd {
            Some(cwd) => {
                spec.insert("cwd".into(), cwd.clone().into());
            }
            None => {
                spec.shift_remove("cwd");
            }
        }
    }
}

/// `:save [FILE]`. A bare `:save` writes to the file last saved; never
/// over the file the REPL was opened on: then it writes the first free
/// `NAME-1.json`, `NAME-2.json`, … beside it (an explicit `:save FILE`
/// writes where it is told). A session opened from a file is saved as that
/// file's JSON — its keys, their order, its limits — with `turns` replaced
/// (and `max_turns` raised when the turns outnumber it).
fn save(repl: &mut Repl, arg: &str) -> Output {
    let opened = repl.origin.as_ref().map(|(p, _)| p.clone());
    let path = match (arg, repl.path()) {
        ("", Some(p)) if Some(p) == opened.as_deref() => free_sibling(p),
        ("", Some(p)) => p.to_path_buf(),
        ("", None) => return Output::note("usage: :save FILE"),
        (a, _) => PathBuf::from(a),
    };
    let mut file = repl.session().to_file_at(&path);
    file.limits = repl.own_limits.clone();
    let mut out = Output::default();
    if file.turns.len() > file.max_turns {
        out.push_note(format!(
            "max_turns raised from {} to {} so that the file replays every turn",
            file.max_turns,
            file.turns.len()
        ));
        file.max_turns = file.turns.len();
    }
    let mut json = match &repl.origin {
        Some((_, serde_json::Value::Object(original))) => {
            let mut obj = original.clone();
            let raised = obj
                .get("max_turns")
                .and_then(serde_json::Value::as_u64)
                .unwrap_or(crate::session::DEFAULT_MAX_TURNS as u64)
                < file.max_turns as u64;
            if raised {
                obj.insert("max_turns".into(), file.max_turns.into());
            }
            obj.insert("turns".into(), file.turns.clone().into());
            // The recording, and command tools' `cwd` when saved elsewhere.
            for (key, value) in [
                ("llm", serde_json::to_value(&file.llm)),
                ("tool_calls", serde_json::to_value(&file.tool_calls)),
            ] {
                match value {
                    Ok(serde_json::Value::Array(a)) if !a.is_empty() => {
                        obj.insert(key.into(), serde_json::Value::Array(a));
                    }
                    _ => {
                        obj.shift_remove(key);
                    }
                }
            }
            relocate_tools(&mut obj, &file);
            serde_json::to_string_pretty(&serde_json::Value::Object(obj))
                .unwrap_or_else(|_| file.to_json())
        }
        _ => file.to_json(),
    };
    json.push('\n');
    match std::fs::write(&path, json) {
        Ok(()) => {
            out.push_note(format!(
                "saved {} turn{} to {}",
                file.turns.len(),
                if file.turns.len() == 1 { "" } else { "s" },
                path.display()
            ));
            repl.path = Some(path);
        }
        Err(e) => out.push_note(format!("cannot write {}: {e}", path.display())),
    }
    out
}

/// `dir/NAME-N.EXT` for the first N from 1 that names no file.
fn free_sibling(path: &std::path::Path) -> PathBuf {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "session".into());
    let ext = path
        .extension()
        .map(|e| format!(".{}", e.to_string_lossy()))
        .unwrap_or_default();
    (1..)
        .map(|n| path.with_file_name(format!("{stem}-{n}{ext}")))
        .find(|p| !p.exists())
        .unwrap_or_else(|| path.with_file_name(format!("{stem}-new{ext}")))
}

fn load(repl: &mut Repl, arg: &str) -> Output {
    if arg.is_empty() {
        return Output::note("usage: :load FILE");
    }
    let path = PathBuf::from(arg);
    match open_session(&path, &repl.config) {
        Ok((mut session, own_limits)) => {
            let reopened = super::reopen_before_end(&mut session);
            let turns = session.turns().len();
            let mission = one_line(session.mission(), 70);
            let status = session.status().clone();
            repl.replace_session(session, path.clone(), own_limits);
            let mut out = Output::note(format!(
                "loaded {}: {turns} turn{} replayed, status {status}",
                path.display(),
                if turns == 1 { "" } else { "s" }
            ));
            if !mission.is_empty() {
                out.push_note(format!("mission: {mission}"));
            }
            if let Some(note) = reopened {
                out.push_note(note);
            }
            out
        }
        Err(e) => Output::note(format!("cannot load: {e}")),
    }
}
