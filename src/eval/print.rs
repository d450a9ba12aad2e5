//! Output of `println`, `print`, `pr`, `prn`: whole lines become the turn's
//! prints (and go to the print sink as they happen); text written without
//! a newline waits on the pending line.

use super::Interp;
use crate::error::Result;

impl Interp {
    /// Ends the current output line with `text` (`println`, `prn`): one
    /// entry of the turn's prints, including what `print`/`pr` wrote before
    /// it on the same line. Charged to the print budget.
    pub fn emit_print(&mut self, text: String) -> Result<()> {
        self.budget.print(text.len() + 1)?;
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
    pub fn emit_partial(&mut self, text: &str) -> Result<()> {
        self.budget.print(text.len())?;
        self.pending_line.push_str(text);
        Ok(())
    }

    /// Ends a line that `print`/`pr` left open (at the end of a program).
    pub fn flush_print(&mut self) {
        if !self.pending_line.is_empty() {
            let line = std::mem::take(&mut self.pending_line);
            self.push_print(line);
        }
    }

    fn push_print(&mut self, line: String) {
        if let Some(cb) = self.on_print.as_mut() {
            cb(&line);
        }
        self.prints.push(line);
    }
}
