//! An MCP tool's JSON Schemas as a signature (rule MCP-4):
//!
//! * `inputSchema.properties`, in their order, are the parameters; a
//!   property in `required` is plain, the others optional (`:type?`; a
//!   nested record or vector that is optional becomes `:map?`/`:vector?`,
//!   as only named types can be optional);
//! * `string` → `:string` (an `enum` of strings too), `integer` → `:int`,
//!   `number` → `:float` (accepts integers), `boolean` → `:bool`, `null` →
//!   `:nil`, `array` → `[item]` (`:vector` without `items`), `object` →
//!   `{field type, ...}` with its properties (`:map` without), a type list
//!   with `"null"` → the other type made optional, and so is an `anyOf`
//!   (`oneOf`) of one schema and `{"type": "null"}` (pydantic's
//!   `Optional[T]`); anything else (other `anyOf`s, `$ref`, several
//!   types) and anything nested deeper than
//!   [`MAX_DEPTH`] → `:any`;
//! * `outputSchema` (same mapping) is the return type, `:any` without one;
//! * a property name that cannot be a parameter name, or a schema that does
//!   not map to a signature the parser reads, gives one parameter-less
//!   unchecked signature (`-> :any`): the server checks the arguments.

use serde_json::{Map, Value as Json};

use crate::session::Signature;

/// Deepest nesting of records and vectors mapped; deeper is `:any`.
pub const MAX_DEPTH: usize = 4;

/// The signature text of a tool with these schemas.
pub fn signature_text(input: &Map<String, Json>, output: Option<&Map<String, Json>>) -> String {
    let required: Vec<&str> = input
        .get("required")
        .and_then(Json::as_array)
        .map(|a| a.iter().filter_map(Json::as_str).collect())
        .unwrap_or_default();
    let mut params = Vec::new();
    if let Some(props) = input.get("properties").and_then(Json::as_object) {
        for (name, schema) in props {
            let ty = type_of(schema, 0, !required.contains(&name.as_str()));
            params.push(format!("{name} {ty}"));
        }
    }
    let returns = match output {
        Some(o) => type_of(&Json::Object(o.clone()), 0, false),
        None => ":any".to_string(),
    };
    if params.is_empty() {
        format!("-> {returns}")
    } else {
        format!("({}) -> {returns}", params.join(", "))
    }
}

/// The tool's signature; an unchecked `-> :any` when the schema does not
/// map to one the parser reads.
pub fn signature(input: &Map<String, Json>, output: Option<&Map<String, Json>>) -> Signature {
    Signature::parse(&signature_text(input, output))
        .or_else(|_| Signature::parse(&signature_text(input, None)))
        .unwrap_or_else(|_| Signature::any())
}

/// The type of one schema; `optional` adds `?` (named types) or widens a
/// record/vector to `:map?`/`:vector?`.
fn type_of(schema: &Json, depth: usize, optional: bool) -> String {
    let q = if optional { "?" } else { "" };
    let Some(obj) = schema.as_object() else {
        return format!(":any{q}");
    };
    if depth > MAX_DEPTH {
        return format!(":any{q}");
    }
    // `anyOf`/`oneOf` of one schema and `null` (pydantic's `Optional[T]`)
    // is that schema, optional.
    if let Some(Json::Array(alts)) = obj.get("anyOf").or_else(|| obj.get("oneOf")) {
        let null = |a: &&Json| a.get("type").and_then(Json::as_str) == Some("null");
        let others: Vec<&Json> = alts.iter().filter(|a| !null(a)).collect();
        if let [one] = others.as_slice() {
            if others.len() < alts.len() {
                return type_of(one, depth, true);
            }
        }
    }
    let (ty, nullable) = match obj.get("type") {
        Some(Json::String(t)) => (t.as_str(), false),
        Some(Json::Array(ts)) => {
            let named: Vec<&str> = ts.iter().filter_map(Json::as_str).collect();
            let others: Vec<&str> = named.iter().copied().filter(|t| *t != "null").collect();
            match others.as_slice() {
                [one] => (*one, named.len() > others.len()),
                _ => ("any", false),
            }
        }
        _ if obj.contains_key("properties") => ("object", false),
        _ if obj
            .get("enum")
            .and_then(Json::as_array)
            .is_some_and(|e| !e.is_empty() && e.iter().all(Json::is_string)) =>
        {
            ("string", false)
        }
        _ => ("any", false),
    };
    let optional = optional || nullable;
    let q = if optional { "?" } else { "" };
    match ty {
        "string" => format!(":string{q}"),
        "integer" => format!(":int{q}"),
        "number" => format!(":float{q}"),
        "boolean" => format!(":bool{q}"),
        "null" => ":nil".to_string(),
        "array" => {
            if optional {
                return ":vector?".into();
            }
            match obj.get("items") {
                Some(items) if items.is_object() => {
                    format!("[{}]", type_of(items, depth + 1, false))
                }
                _ => ":vector".into(),
            }
        }
        "object" => {
            if optional {
                return ":map?".into();
            }
            let required: Vec<&str> = obj
                .get("required")
                .and_then(Json::as_array)
                .map(|a| a.iter().filter_map(Json::as_str).collect())
                .unwrap_or_default();
            match obj.get("properties").and_then(Json::as_object) {
                Some(props) if !props.is_empty() => {
                    let fields: Vec<String> = props
                        .iter()
                        .map(|(k, s)| {
                            let ty = type_of(s, depth + 1, !required.contains(&k.as_str()));
                            format!("{k} {ty}")
                        })
                        .collect();
                    format!("{{{}}}", fields.join(", "))
                }
                _ => ":map".into(),
            }
        }
        _ => format!(":any{q}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn sig(input: Json, output: Option<Json>) -> String {
        let out = output.as_ref().and_then(Json::as_object);
        signature(input.as_object().unwrap(), out)
            .text()
            .to_string()
    }

    #[test]
    fn required_plain_optional_marked_in_property_order() {
        let s = sig(
            json!({"type": "object", "properties": {
                "path": {"type": "string"}, "head": {"type": "number"},
                "tail": {"type": "integer"}}, "required": ["path"]}),
            None,
        );
        assert_eq!(s, "(path :string, head :float?, tail :int?) -> :any");
    }

    #[test]
    fn nested_enums_nullable_and_beyond() {
        let s = sig(
            json!({"type": "object", "properties": {
                "edits": {"type": "array", "items": {"type": "object",
                    "properties": {"old": {"type": "string"}, "new": {"type": "string"}},
                    "required": ["old", "new"]}},
                "mode": {"enum": ["a", "b"]},
                "opt": {"type": ["string", "null"]},
                "any": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
                "tags": {"type": "array", "items": {"type": "string"}},
                "limit": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": null},
                "who": {"oneOf": [{"type": "null"}, {"type": "string"}]}},
                "required": ["edits", "mode", "opt", "any", "limit"]}),
            Some(
                json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}),
            ),
        );
        assert_eq!(
            s,
            "(edits [{old :string, new :string}], mode :string, opt :string?, any :any, tags :vector?, limit :int?, who :string?) -> {n :int}"
        );
    }

    #[test]
    fn no_parameters_and_unreadable_names() {
        assert_eq!(sig(json!({"type": "object"}), None), "-> :any");
        let s = sig(
            json!({"type": "object", "properties": {"a b": {"type": "string"}}}),
            None,
        );
        assert_eq!(s, "-> :any");
        assert!(!signature(
            json!({"type": "object", "properties": {"a b": {}}})
                .as_object()
                .unwrap(),
            None
        )
        .checks_arguments());
    }

    #[test]
    fn deep_nesting_is_bounded() {
        let mut schema = json!({"type": "string"});
        for _ in 0..50 {
            schema = json!({"type": "array", "items": schema});
        }
        let s = sig(
            json!({"type": "object", "properties": {"x": schema}, "required": ["x"]}),
            None,
        );
        assert!(s.contains(":any"), "{s}");
        assert!(s.len() < 200, "{s}");
    }
}
