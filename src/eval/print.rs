//! Output of `println`, `print`, `pr`, `prn`: whole lines become the turn's
//! prints (and go to the print sink as they happen); text written without
//! a newline waits on the pending line. A `println` is one entry, newlines
//! in its text included; a `\n` that `print` writes ends the line there. Inside `with-out-str` output goes to
//! the innermost capture instead (a string the form returns); it is still
//! charged to the print budget.

use super::Interp;
use crate::error::Result;
use crate::value::Value;

impl Interp {
    /// Ends the current output line with `text` (`println`, `prn`): one
    /// entry of the turn's prints, including what `print`/`pr` wrote before
    /// it on the same line. Charged to the print budget.
    pub(crate) fn emit_print(&mut self, text: String) -> Result<()> {
        self.budget.print(text.len() + 1)?;
        if let Some((buf, _)) = self.captures.last_mut() {
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

    /// Writes `text` without ending the line (`print`, `pr`, `printf`):
    /// each `\n` in it ends the current line, as on Clojure's output, so
    /// `(print "a\nb") (println "c")` prints the lines `a` and `bc`; what
    /// follows the last `\n` waits on the pending line.
    pub(crate) fn emit_partial(&mut self, text: &str) -> Result<()> {
        self.budget.print(text.len())?;
        if let Some((buf, _)) = self.captures.last_mut() {
            buf.push_str(text);
            return Ok(());
        }
        let mut rest = text;
        while let Some(end) = rest.find('\n') {
            let mut line = std::mem::take(&mut self.pending_line);
            line.push_str(&rest[..end]);
            self.push_print(line);
            rest = &rest[end + 1..];
        }
        self.pending_line.push_str(rest);
        Ok(())
    }

    /// `(with-out-str body…)`: calls `thunk` with output captured, and
    /// returns what it printed as a string (its value is dropped), marked
    /// as hidden when a print of a marked value went into it.
    pub(crate) fn capture_output(&mut self, thunk: &Value) -> Result<Value> {
        self.captures.push((String::new(), false));
        let result = self.call(thunk, &[]);
        let (text, hidden) = self.captures.pop().unwrap_or_default();
        result?;
        let text = Value::string(text);
        if hidden {
            self.hidden.mark(&text);
            // An enclosing capture gets the marked text when it is printed.
        }
        Ok(text)
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
