//! Output of `println`, `print`, `pr`, `prn`: whole lines become the turn's
//! prints (and go to the print sink as they happen); text written without
//! a newline waits on the pending line. Inside `with-out-str` output goes to
//! the innermost capture instead (a string the form returns); it is still
//! charged to the print budget.

use super::Interp;
use crate::error::Result;

impl Interp {
    /// Ends the current output line with `text` (`println`, `prn`): one
    /// entry of the turn's prints, including what `print`/`pr` wrote before
    /// it on the same line. Charged to the print budget.
    pub(crate) fn emit_print(&mut self, text: String) -> Result<()> {
        self.budget.print(text.len() + 1)?;
        if let Some(buf) = self.captures.last_mut() {
            buf.push_str(&text);
            buf.push('\n');
            return Ok(());
        }
        let line = if self.pending_line.is_empty() {
            text
        } else {
            let mut line = std::mem::take(&mut self.pending_line);
            line.push_str(&text);
            line
        };
        self.push_print(line);
        Ok(())
    }

    /// Writes `text` without ending the line (`print`, `pr`).
    pub(crate) fn emit_partial(&mut self, text: &str) -> Result<()> {
        self.budget.print(text.len())?;
        match self.captures.last_mut() {
            Some(buf) => buf.push_str(text),
            None => self.pending_line.push_str(text),
        }
        Ok(())
    }

    /// `(with-out-str body…)`: calls `thunk` with output captured, and
    /// returns what it printed as a string (its value is dropped).
    pub(crate) fn capture_output(&mut self, thunk: &crate::value::Value) -> Result<String> {
        self.captures.push(String::new());
        let result = self.call(thunk, &[]);
        let text = self.captures.pop().unwrap_or_default();
        result.map(|_| text)
    }

    /// Ends a line that `print`/`pr` left open (at the end of a program).
    pub(crate) fn flush_print(&mut self) {
        if !self.pending_line.is_empty() {
            let line = std::mem::take(&mut self.pending_line);
            self.push_print(line);
        }
    }

    fn push_print(&mut self, line: String) {
        if std::mem::take(&mut self.pending_line_hidden) {
            self.hidden.mark_line(&line, "[hidden]");
        }
        if let Some(cb) = self.on_print.as_mut() {
            cb(&line);
        }
        self.prints.push(line);
    }
}
