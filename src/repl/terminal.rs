//! The two ways to drive a [`Repl`]: a terminal (rustyline line editing,
//! history, completion, multi-line input) and a stream of lines
//! (`ptc repl < file`).

use std::io::{self, BufRead, Write};
use std::path::PathBuf;

use rustyline::config::{Builder, ColorMode, CompletionType};
use rustyline::error::ReadlineError;
use rustyline::history::DefaultHistory;
use rustyline::Editor;

use super::input::EntrySplitter;
use super::{Repl, ReplHelper, Style};

/// Where the history is kept: `$XDG_DATA_HOME/ptc/history`, else
/// `~/.local/share/ptc/history`; `None` when neither is known.
pub fn history_path() -> Option<PathBuf> {
    let base = match std::env::var_os("XDG_DATA_HOME").filter(|v| !v.is_empty()) {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(std::env::var_os("HOME").filter(|v| !v.is_empty())?)
            .join(".local")
            .join("share"),
    };
    Some(base.join("ptc").join("history"))
}

/// The prompt: the number the next turn will have.
pub fn prompt(repl: &Repl) -> String {
    format!("[{}] user=> ", repl.next_turn())
}

/// What the REPL says when it starts on a terminal.
pub fn banner(repl: &Repl) -> String {
    let s = repl.session();
    let mut lines = vec![
        "ptc REPL: each entry is one turn of the session. :help lists the commands, Ctrl-D quits."
            .to_string(),
    ];
    let mission = s.mission().lines().next().unwrap_or("").trim();
    if !mission.is_empty() {
        lines.push(format!("mission: {mission}"));
    }
    if let Some(shape) = s.result_shape() {
        lines.push(format!("the result must have the shape {shape}"));
    }
    let mut names: Vec<String> = s.data().keys().map(|n| format!("data/{n}")).collect();
    names.extend(s.tools().iter().map(|t| format!("tool/{}", t.name)));
    if !names.is_empty() {
        lines.push(names.join(" "));
    }
    if !s.turns().is_empty() {
        lines.push(format!(
            "{} turn{} replayed, status {}",
            s.turns().len(),
            if s.turns().len() == 1 { "" } else { "s" },
            s.status()
        ));
    }
    if let Some(note) = repl.opened_note() {
        lines.push(note.to_string());
    }
    lines.join("\n") + "\n"
}

/// Ctrl-C during an evaluation: while a line is edited the terminal is in
/// raw mode and rustyline reads Ctrl-C as a key; while an entry runs, the
/// terminal sends SIGINT, and this handler sets the REPL's interrupt flag
/// instead of ending the process (the evaluation stops at its next clock
/// check, [`crate::eval::budget::CLOCK_EVERY`] steps at most).
#[cfg(unix)]
mod sigint {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Arc, OnceLock};

    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();

    extern "C" fn on_sigint(_: libc::c_int) {
        if let Some(flag) = FLAG.get() {
            flag.store(true, Ordering::SeqCst);
        }
    }

    /// Routes SIGINT to `flag` (the first REPL's flag, for the process).
    pub fn install(flag: Arc<AtomicBool>) {
        if FLAG.set(flag).is_ok() {
            let handler = on_sigint as extern "C" fn(libc::c_int) as libc::sighandler_t;
            // SAFETY: the handler only does an atomic store.
            unsafe {
                libc::signal(libc::SIGINT, handler);
            }
        }
    }
}

/// Runs the REPL on a terminal until `:quit` or Ctrl-D. Ctrl-C clears the
/// input while editing, and interrupts the entry while it runs (the REPL
/// and the session go on). The history is loaded from and saved to
/// [`history_path`] (when its directory can be made).
pub fn run_interactive(repl: &mut Repl, style: Style) -> rustyline::Result<()> {
    #[cfg(unix)]
    sigint::install(repl.interrupt_flag());
    let config = Builder::new()
        .auto_add_history(false)
        .history_ignore_dups(true)?
        .history_ignore_space(true)
        .max_history_size(10_000)?
        .completion_type(CompletionType::List)
        .color_mode(if style == Style::Colour {
            ColorMode::Enabled
        } else {
            ColorMode::Disabled
        })
        .build();
    let mut editor: Editor<ReplHelper, DefaultHistory> = Editor::with_config(config)?;
    editor.set_helper(Some(ReplHelper::new(
        repl.completion_names(),
        style == Style::Colour,
    )));
    let history = history_path().filter(|p| {
        p.parent()
            .is_some_and(|dir| std::fs::create_dir_all(dir).is_ok())
    });
    if let Some(p) = &history {
        let _ = editor.load_history(p); // a first run has none
    }
    let mut stdout = io::stdout();
    let _ = write!(stdout, "{}", banner(repl));
    let _ = stdout.flush();
    loop {
        match editor.readline(&prompt(repl)) {
            Ok(text) => {
                if !text.trim().is_empty() {
                    let _ = editor.add_history_entry(text.as_str());
                    if let Some(p) = &history {
                        let _ = editor.save_history(p);
                    }
                }
                let out = repl.eval_entry(&text);
                let _ = write!(stdout, "{}", out.render(style));
                let _ = stdout.flush();
                if out.quit {
                    break;
                }
                if let Some(h) = editor.helper_mut() {
                    h.set_names(repl.completion_names());
                }
            }
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => break,
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Runs entries read from `input` (one per complete form, command line or
/// fenced block) and writes their output to `out`, without prompts.
/// Stops at `:quit` or the end of the input. Answers whether every entry
/// succeeded (`ptc repl < file` exits 1 when one failed).
pub fn run_script(
    repl: &mut Repl,
    input: impl BufRead,
    out: &mut impl Write,
    style: Style,
) -> io::Result<bool> {
    let mut splitter = EntrySplitter::new();
    let mut all_ok = true;
    for line in input.lines() {
        for entry in splitter.push_line(&line?) {
            let o = repl.eval_entry(&entry);
            all_ok &= !o.failed();
            write!(out, "{}", o.render(style))?;
            out.flush()?;
            if o.quit {
                return Ok(all_ok);
            }
        }
    }
    if let Some(rest) = splitter.finish() {
        let o = repl.eval_entry(&rest);
        all_ok &= !o.failed();
        write!(out, "{}", o.render(style))?;
    }
    out.flush()?;
    Ok(all_ok)
}
