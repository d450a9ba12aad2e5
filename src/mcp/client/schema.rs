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
//!   unchecked signature (`-> :any`): the server checks the arguments;
//! * so does a schema too large to read as a signature, bounded so that any
//!   schema takes little work (a server's schema is hostile input): an
//!   object of more than [`MAX_PROPERTIES`] properties, more than
//!   [`MAX_SCHEMA_TYPES`] types in all, or a signature of more than
//!   [`MAX_SIGNATURE_CHARS`] characters (an `outputSchema` past them is
//!   `:any`).

use std::collections::HashSet;

use serde_json::{Map, Value as Json};

use crate::session::Signature;

/// Deepest nesting of records and vectors mapped; deeper is `:any`.
pub const MAX_DEPTH: usize = 4;
/// Properties of one object mapped; more make the tool unchecked.
pub const MAX_PROPERTIES: usize = 64;
/// Types mapped for one schema, nested ones included.
pub const MAX_SCHEMA_TYPES: usize = 512;
/// Characters of a signature.
pub const MAX_SIGNATURE_CHARS: usize = 2000;

/// Too large to map: the work a schema may take is spent.
struct TooLarge;

/// What mapping one schema may still take.
struct Budget {
    types: usize,
    chars: usize,
}

impl Budget {
    fn new() -> Budget {
        Budget {
            types: MAX_SCHEMA_TYPES,
            chars: MAX_SIGNATURE_CHARS,
        }
    }

    /// One type (or property) more, and `text`'s characters.
    fn spend(&mut self, text: &str) -> Result<(), TooLarge> {
        self.types = self.types.checked_sub(1).ok_or(TooLarge)?;
        self.write(text)
    }

    /// `text`'s characters.
    fn write(&mut self, text: &str) -> Result<(), TooLarge> {
        self.chars = self.chars.checked_sub(text.len() + 2).ok_or(TooLarge)?;
        Ok(())
    }
}

/// The names in a schema's `required`.
fn required_of(obj: &Map<String, Json>) -> HashSet<&str> {
    obj.get("required")
        .and_then(Json::as_array)
        .map(|a| a.iter().filter_map(Json::as_str).collect())
        .unwrap_or_default()
}

/// The signature text of a tool with these schemas; `None` when the
/// input schema is too large to map.
pub fn signature_text(
    input: &Map<String, Json>,
    output: Option<&Map<String, Json>>,
) -> Option<String> {
    let mut budget = Budget::new();
    let required = required_of(input);
    let mut params = Vec::new();
    if let Some(props) = input.get("properties").and_then(Json::as_object) {
        if props.len() > MAX_PROPERTIES {
            return None;
        }
        for (name, schema) in props {
            budget.write(name).ok()?;
            let ty = type_of(schema, 0, !required.contains(name.as_str()), &mut budget).ok()?;
            params.push(format!("{name} {ty}"));
        }
    }
    let returns = match output {
        Some(o) => {
            let mut out_budget = Budget {
                types: budget.types,
                chars: budget.chars,
            };
            type_of_object(o, 0, false, &mut out_budget).unwrap_or_else(|_| ":any".to_string())
        }
        None => ":any".to_string(),
    };
    Some(if params.is_empty() {
        format!("-> {returns}")
    } else {
        format!("({}) -> {returns}", params.join(", "))
    })
}

/// The tool's signature; an unchecked `-> :any` when the schema does not
/// map to one the parser reads.
pub fn signature(input: &Map<String, Json>, output: Option<&Map<String, Json>>) -> Signature {
    let parse = |text: Option<String>| {
        text.ok_or(())
            .and_then(|t| Signature::parse(&t).map_err(|_| ()))
    };
    parse(signature_text(input, output))
        .or_else(|_| parse(signature_text(input, None)))
        .unwrap_or_else(|_| Signature::any())
}

/// The type of one schema; `optional` adds `?` (named types) or widens a
/// record/vector to `:map?`/`:vector?`.
fn type_of(
    schema: &Json,
    depth: usize,
    optional: bool,
    budget: &mut Budget,
) -> Result<String, TooLarge> {
    let q = if optional { "?" } else { "" };
    match schema.as_object() {
        Some(obj) if depth <= MAX_DEPTH => type_of_object(obj, depth, optional, budget),
        _ => {
            let t = format!(":any{q}");
            budget.write(&t)?;
            Ok(t)
        }
    }
}

fn type_of_object(
    obj: &Map<String, Json>,
    depth: usize,
    optional: bool,
    budget: &mut Budget,
) -> Result<String, TooLarge> {
    budget.spend("")?;
    // `anyOf`/`oneOf` of one schema and `null` (pydantic's `Optional[T]`)
    // is that schema, optional.
    if let Some(Json::Array(alts)) = obj.get("anyOf").or_else(|| obj.get("oneOf")) {
        let null = |a: &&Json| a.get("type").and_then(Json::as_str) == Some("null");
        let others: Vec<&Json> = alts.iter().take(8).filter(|a| !null(a)).collect();
        if let ([one], true) = (others.as_slice(), alts.len() <= 8) {
            if others.len() < alts.len() {
                return type_of(one, depth, true, budget);
            }
        }
    }
    let (ty, nullable) = match obj.get("type") {
        Some(Json::String(t)) => (t.as_str(), false),
        Some(Json::Array(ts)) => {
            let named: Vec<&str> = ts.iter().take(8).filter_map(Json::as_str).collect();
            let others: Vec<&str> = named.iter().copied().filter(|t| *t != "null").collect();
            match (others.as_slice(), ts.len() <= 8) {
                ([one], true) => (*one, named.len() > others.len()),
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
    let t = match ty {
        "string" => format!(":string{q}"),
        "integer" => format!(":int{q}"),
        "number" => format!(":float{q}"),
        "boolean" => format!(":bool{q}"),
        "null" => ":nil".to_string(),
        "array" => {
            if optional {
                budget.write(":vector?")?;
                return Ok(":vector?".into());
            }
            match obj.get("items") {
                Some(items) if items.is_object() => {
                    format!("[{}]", type_of(items, depth + 1, false, budget)?)
                }
                _ => ":vector".into(),
            }
        }
        "object" => {
            if optional {
                budget.write(":map?")?;
                return Ok(":map?".into());
            }
            let required = required_of(obj);
            match obj.get("properties").and_then(Json::as_object) {
                Some(props) if props.len() > MAX_PROPERTIES => return Err(TooLarge),
                Some(props) if !props.is_empty() => {
                    let mut fields = Vec::with_capacity(props.len());
                    for (k, s) in props {
                        budget.write(k)?;
                        let ty = type_of(s, depth + 1, !required.contains(k.as_str()), budget)?;
                        fields.push(format!("{k} {ty}"));
                    }
                    format!("{{{}}}", fields.join(", "))
                }
                _ => ":map".into(),
            }
        }
        _ => format!(":any{q}"),
    };
    if !t.starts_with(['[', '{']) {
        budget.write(&t)?;
    }
    Ok(t)
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

    #[test]
    fn large_schemas_are_unchecked_and_take_little_work() {
        let wide = |n: usize| {
            let props: Map<String, Json> = (0..n)
                .map(|i| (format!("p{i}"), json!({"type": "string"})))
                .collect();
            let required: Vec<String> = (0..n).map(|i| format!("p{i}")).collect();
            json!({"type": "object", "properties": props, "required": required})
        };
        let t0 = std::time::Instant::now();
        assert_eq!(sig(wide(100_000), None), "-> :any");
        assert!(t0.elapsed() < std::time::Duration::from_secs(5));
        assert!(sig(wide(MAX_PROPERTIES), None).starts_with("(p0 :string, p1 :string"));
        // 64 × 64 × 64 nested properties: spent long before the end
        let mut inner = wide(MAX_PROPERTIES);
        for _ in 0..2 {
            let props: Map<String, Json> = (0..MAX_PROPERTIES)
                .map(|i| (format!("q{i}"), inner.clone()))
                .collect();
            let required: Vec<&String> = props.keys().collect();
            inner = json!({"type": "object", "properties": props, "required": required});
        }
        let input = json!({"type": "object", "properties": {"x": inner}, "required": ["x"]});
        assert_eq!(sig(input.clone(), None), "-> :any");
        // a large output schema is :any, the input still checked
        assert_eq!(
            sig(
                json!({"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}),
                Some(input)
            ),
            "(a :int) -> :any"
        );
    }
}
