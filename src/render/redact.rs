//! Hidden data: a `data/_NAME` value never appears in any message.
//!
//! The data/ section only names it, but a program can pass it on — to a
//! tool (`(tool/fetch {:key data/_api-key})`), into a definition, into a
//! print. So before rendering, every nested value equal to a hidden value
//! (in tool-call arguments and results, turn results, user/ values and
//! function return values) is replaced by the symbol `data/_NAME`, which also
//! covers prints cut by limits; after rendering, the USER messages' text has
//! every remaining occurrence (in `println` output or error messages)
//! replaced by `data/_NAME` too. Hidden values whose printed text is
//! shorter than 4 characters (`5`, `nil`, `"ab"`) are only replaced as whole
//! values: replacing them in text would mangle unrelated output.

use std::borrow::Cow;

use super::input::RenderInput;
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

/// `input` with every hidden value replaced inside the values it renders.
pub fn redact_input(input: &RenderInput) -> Cow<'_, RenderInput> {
    let hidden = hidden(input);
    if hidden.is_empty() {
        return Cow::Borrowed(input);
    }
    let r = |v: &Value| replace(v, &hidden);
    let mut out = input.clone();
    for turn in &mut out.turns {
        if let Ok(v) = &mut turn.result {
            *v = r(v);
        }
        for call in &mut turn.tool_calls {
            call.args = call.args.iter().map(r).collect();
            if let Ok(v) = &mut call.result {
                *v = r(v);
            }
        }
        if let Some(m) = &mut turn.memory {
            redact_memory(m, &r);
        }
    }
    redact_memory(&mut out.memory, &r);
    Cow::Owned(out)
}

fn redact_memory(m: &mut super::input::MemoryView, r: &impl Fn(&Value) -> Value) {
    for e in &mut m.entries {
        e.value = r(&e.value);
        if let Some(f) = &mut e.function {
            f.last_return = f.last_return.as_ref().map(r);
        }
    }
}

fn replace(v: &Value, hidden: &[(String, Value)]) -> Value {
    if let Some((sym, _)) = hidden.iter().find(|(_, h)| h == v) {
        return Value::symbol(sym.as_str());
    }
    match v {
        Value::Vector(items) => Value::vector_from(items.iter().map(|x| replace(x, hidden))),
        Value::Map(m) => Value::map_from(
            m.iter()
                .map(|(k, x)| (replace(k, hidden), replace(x, hidden))),
        ),
        Value::Set(s) => Value::set_from(s.iter().map(|x| replace(x, hidden))),
        _ => v.clone(),
    }
}

/// `text` with every occurrence of a hidden value's text replaced.
pub fn redact_text(input: &RenderInput, text: String) -> String {
    let mut text = text;
    for (sym, v) in hidden(input) {
        let printed = to_clojure(&v, None, None).0;
        let mut forms = vec![printed.clone()];
        if let Value::Str(s) = &v {
            forms.push(s.to_string());
            // The escaped form inside a printed string, without its quotes.
            forms.push(printed[1..printed.len() - 1].to_string());
        }
        for form in forms {
            if form.chars().count() >= 4 && text.contains(&form) {
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
        let hidden = vec![("data/_key".to_string(), Value::string("s3cr3t-token"))];
        let v = Value::vector_from([Value::map_from([(
            Value::keyword("key"),
            Value::string("s3cr3t-token"),
        )])]);
        let out = replace(&v, &hidden);
        assert_eq!(to_clojure(&out, None, None).0, "[{:key data/_key}]");
    }
}
