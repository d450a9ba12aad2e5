//! Hidden data: a `data/_NAME` value, and any value derived from one,
//! never appears in any USER message.
//!
//! The data/ section only names hidden data, but a program can pass it on —
//! to a tool (`(tool/fetch {:key data/_api-key})`), into a definition, into a
//! print — or derive new values from it (`(subs data/_token 0 6)`). Before
//! rendering, every nested value that is
//!
//! * equal to a hidden data value is replaced by the symbol `data/_NAME`
//!   (the program can use that name), and
//! * marked as derived from hidden data (`RenderInput::hidden`, filled by
//!   the interpreter: see [`crate::eval::hidden`] for exactly which values
//!   carry the mark) is replaced by `[hidden]`,
//!
//! in tool-call arguments and results, turn results and user/ values; a
//! user/ value that is itself hidden shows `= TYPE, [hidden]` (its type, not
//! that of the replacement), and a function's return type stays (only the
//! type is shown). A `println` entry made from marked values shows the
//! line with those arguments as `[hidden]`; error messages and hints get
//! the text of marked strings of any length replaced by `[hidden]` (under
//! 4 characters only where they stand alone:
//! [`crate::eval::hidden::redact_pieces`]). Inside every string value
//! rendered, each occurrence of a hidden data value's text (4 characters
//! or more) becomes `data/_NAME` *before* samples are cut, so a cut cannot
//! split one out of reach of the final pass. After rendering, the USER
//! messages' text has every remaining occurrence of a hidden data value's
//! text replaced by `data/_NAME` too.
//! Hidden data values whose printed text is shorter than 4 characters
//! (`5`, `nil`, `"ab"`) are only replaced as whole values: replacing them
//! in text would mangle unrelated output.

use std::borrow::Cow;

use super::input::{ErrorInfo, MemoryView, RenderInput};
use crate::eval::hidden::HiddenMarks;
use crate::format::to_clojure;
use crate::value::Value;

/// The hidden values: `(replacement symbol text, value)`.
fn hidden(input: &RenderInput) -> Vec<(String, Value)> {
    input
        .data
        .iter()
        .filter(|(name, _)| name.starts_with('_'))
        .map(|(name, v)| (format!("data/{name}"), v.clone()))
        .collect()
}

/// What counts as hidden in one render.
struct Hider<'a> {
    data: Vec<(String, Value)>,
    marks: &'a HiddenMarks,
    /// Texts of marked strings, replaced in error messages by
    /// [`redact_pieces`]'s rule.
    texts: Vec<String>,
    /// The texts of hidden data values (4 characters or more) and the
    /// symbol replacing them, longest first: replaced inside strings
    /// before samples are cut, so a cut cannot split one.
    data_texts: Vec<(String, String)>,
}

impl Hider<'_> {
    /// The replacement of `v` when `v` itself is hidden.
    fn replacement(&self, v: &Value) -> Option<Value> {
        if let Some((sym, _)) = self.data.iter().find(|(_, h)| h == v) {
            return Some(Value::symbol(sym.as_str()));
        }
        self.marks.is_marked(v).then(|| Value::symbol(HIDDEN))
    }

    fn replace(&self, v: &Value) -> Value {
        if let Some(r) = self.replacement(v) {
            return r;
        }
        match v {
            Value::Vector(items) => Value::vector_from(items.iter().map(|x| self.replace(x))),
            Value::Map(m) => {
                Value::map_from(m.iter().map(|(k, x)| (self.replace(k), self.replace(x))))
            }
            Value::Set(s) => Value::set_from(s.iter().map(|x| self.replace(x))),
            Value::Str(s) if self.data_texts.iter().any(|(t, _)| s.contains(t.as_str())) => {
                Value::string(self.replace_data_texts(s))
            }
            _ => v.clone(),
        }
    }

    fn replace_data_texts(&self, text: &str) -> String {
        let mut out = text.to_string();
        for (t, sym) in &self.data_texts {
            if out.contains(t.as_str()) {
                out = out.replace(t.as_str(), sym);
            }
        }
        out
    }

    fn redact_text(&self, text: &str) -> String {
        self.replace_data_texts(&redact_pieces(text, &self.texts))
    }

    fn redact_error(&self, e: &mut ErrorInfo) {
        e.message = self.redact_text(&e.message);
        e.hint = e.hint.as_deref().map(|h| self.redact_text(h));
    }

    fn redact_memory(&self, m: &mut MemoryView) {
        for e in &mut m.entries {
            if e.function.is_some() {
                continue;
            }
            if self.replacement(&e.value).is_some() {
                e.hidden = true;
            } else {
                e.value = self.replace(&e.value);
            }
        }
    }
}

use crate::eval::hidden::redact_pieces;
pub use crate::eval::hidden::HIDDEN;

/// `input` with every hidden value replaced inside the values it renders.
pub fn redact_input(input: &RenderInput) -> Cow<'_, RenderInput> {
    let data = hidden(input);
    if data.is_empty() && input.hidden.is_empty() {
        return Cow::Borrowed(input);
    }
    let texts: Vec<String> = input.hidden.marked_texts().map(str::to_string).collect();
    let mut data_texts: Vec<(String, String)> = data
        .iter()
        .flat_map(|(sym, v)| text_forms(v).into_iter().map(move |f| (f, sym.clone())))
        .collect();
    // Longest first: a text inside another is replaced after it.
    data_texts.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(a.cmp(b)));
    let h = Hider {
        data,
        marks: &input.hidden,
        texts,
        data_texts,
    };
    let mut out = input.clone();
    for turn in &mut out.turns {
        match &mut turn.result {
            Ok(v) => *v = h.replace(v),
            Err(e) => h.redact_error(e),
        }
        for call in &mut turn.tool_calls {
            call.args = call.args.iter().map(|a| h.replace(a)).collect();
            match &mut call.result {
                Ok(v) => *v = h.replace(v),
                Err(msg) => *msg = h.redact_text(msg),
            }
        }
        for p in &mut turn.prints {
            if let Some(shown) = input.hidden.shown_line(p) {
                *p = shown.to_string();
            }
        }
        if let Some(m) = &mut turn.memory {
            h.redact_memory(m);
        }
    }
    h.redact_memory(&mut out.memory);
    Cow::Owned(out)
}

/// The texts of a hidden value replaced in free text: its printed form,
/// and for a string its raw and escaped text; only those of 4 characters
/// or more.
fn text_forms(v: &Value) -> Vec<String> {
    let printed = to_clojure(v, None, None).0;
    let mut forms = vec![printed.clone()];
    if let Value::Str(s) = v {
        forms.push(s.to_string());
        // The escaped form inside a printed string, without its quotes.
        forms.push(printed[1..printed.len() - 1].to_string());
    }
    forms.retain(|f| f.chars().count() >= 4);
    forms
}

/// `text` with every occurrence of a hidden value's text replaced.
pub fn redact_text(input: &RenderInput, text: String) -> String {
    let mut text = text;
    for (sym, v) in hidden(input) {
        for form in text_forms(&v) {
            if text.contains(&form) {
                text = text.replace(&form, &sym);
            }
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_hidden_values_become_their_name() {
        let marks = HiddenMarks::default();
        let h = Hider {
            data: vec![("data/_key".to_string(), Value::string("s3cr3t-token"))],
            marks: &marks,
            texts: Vec::new(),
            data_texts: Vec::new(),
        };
        let v = Value::vector_from([Value::map_from([(
            Value::keyword("key"),
            Value::string("s3cr3t-token"),
        )])]);
        let out = h.replace(&v);
        assert_eq!(to_clojure(&out, None, None).0, "[{:key data/_key}]");
    }

    #[test]
    fn marked_values_become_hidden() {
        let mut marks = HiddenMarks::default();
        let derived = Value::string("S3CR3T");
        marks.mark(&derived);
        let h = Hider {
            data: Vec::new(),
            marks: &marks,
            texts: vec!["S3CR3T".to_string()],
            data_texts: Vec::new(),
        };
        let v = Value::vector_from([derived.clone(), Value::string("S3CR3T")]);
        assert_eq!(
            to_clojure(&h.replace(&v), None, None).0,
            "[[hidden] \"S3CR3T\"]"
        );
        assert_eq!(h.redact_text("bad value S3CR3T!"), "bad value [hidden]!");
    }
}
