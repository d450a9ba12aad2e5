//! Whether a value has a declared shape: tool arguments against the tool's
//! [`Signature`] before the tool runs, and a mission's `(return v)` against
//! the result shape the session declares (`"returns": "{total :int, items
//! [:string]}"`).
//!
//! The spec lists the type names but not what each accepts; decided here:
//!
//! * `:string :int :float :bool :keyword :symbol :map :vector :set :nil
//!   :any` accept the value of that type (`:boolean` = `:bool`, `:integer` =
//!   `:int`, `:list`/`:seq`/`:coll` accept a vector, and `:coll` also a map
//!   or set); `:float` and `:number` accept integers too (JSON writes `2.0`
//!   as `2`); `:fn` accepts a function;
//! * a name of the caller's choosing (`:user`) is documentation only and
//!   accepts anything;
//! * a trailing `?` makes a type optional (`:string?` accepts nil, and a
//!   record field so typed may be missing);
//! * `[:t]` accepts a vector whose every item is a `t`;
//! * `{field :t, ...}` accepts a map holding every field (keyword keys;
//!   string keys too) with a `t`; other keys are allowed (open records).
//!
//! Tool arguments are positional (`(tool/search "x" 3)`) or named: one map
//! whose keyword keys are the parameter names (`(tool/search {:query "x"
//! :limit 3})`, `language.md` §Tools). A tool declared without a signature
//! takes anything.

use super::signature::{Signature, Type};
use crate::error::Error;
use crate::value::Value;

/// Where a value differs from its shape: the path to the part (`:items 2`,
/// empty for the whole value), what was expected, and what was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    pub path: String,
    pub expected: String,
    pub found: String,
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.path.is_empty() {
            write!(f, "expected {}, got {}", self.expected, self.found)
        } else {
            write!(
                f,
                "at {} expected {}, got {}",
                self.path, self.expected, self.found
            )
        }
    }
}

/// The first place where `value` is not a `ty`, if any.
pub fn mismatch(ty: &Type, value: &Value) -> Option<Mismatch> {
    let mut path = Vec::new();
    check(ty, value, &mut path).err()
}

fn check(ty: &Type, value: &Value, path: &mut Vec<String>) -> Result<(), Mismatch> {
    let fail = |path: &Vec<String>, expected: String, found: String| Mismatch {
        path: path.join(" "),
        expected,
        found,
    };
    match ty {
        Type::Named(name) => {
            let (base, optional) = match name.strip_suffix('?') {
                Some(b) => (b, true),
                None => (name.as_str(), false),
            };
            if optional && value.is_nil() {
                return Ok(());
            }
            if accepts(base, value) {
                Ok(())
            } else {
                Err(fail(path, base.to_string(), value.describe()))
            }
        }
        Type::Vector(item) => {
            let Value::Vector(items) = value else {
                return Err(fail(path, ty.display(), value.describe()));
            };
            for (i, v) in items.iter().enumerate() {
                path.push(i.to_string());
                check(item, v, path)?;
                path.pop();
            }
            Ok(())
        }
        Type::Record(fields) => {
            let Value::Map(map) = value else {
                return Err(fail(path, ty.display(), value.describe()));
            };
            for (field, fty) in fields {
                let found = map
                    .get(&Value::keyword(field.as_str()))
                    .or_else(|| map.get(&Value::string(field.as_str())));
                path.push(format!(":{field}"));
                match found {
                    Some(v) => check(fty, v, path)?,
                    None if is_optional(fty) => {}
                    None => {
                        return Err(fail(
                            &path[..path.len() - 1].to_vec(),
                            format!("a map with the key :{field} ({})", fty.display()),
                            format!("a map without it ({})", value.describe()),
                        ))
                    }
                }
                path.pop();
            }
            Ok(())
        }
    }
}

fn is_optional(ty: &Type) -> bool {
    matches!(ty, Type::Named(n) if n.ends_with('?'))
}

/// Whether the type named `name` (no `?`) accepts `value`.
fn accepts(name: &str, value: &Value) -> bool {
    match name {
        "any" => true,
        "string" | "str" => matches!(value, Value::Str(_)),
        "int" | "integer" => matches!(value, Value::Int(_)),
        "float" | "double" | "number" | "num" => matches!(value, Value::Int(_) | Value::Float(_)),
        "bool" | "boolean" => matches!(value, Value::Bool(_)),
        "keyword" => matches!(value, Value::Keyword(_)),
        "symbol" => matches!(value, Value::Symbol(_)),
        "map" => matches!(value, Value::Map(_)),
        "vector" | "list" | "seq" => matches!(value, Value::Vector(_)),
        "set" => matches!(value, Value::Set(_)),
        "coll" => matches!(value, Value::Vector(_) | Value::Map(_) | Value::Set(_)),
        "nil" => value.is_nil(),
        "fn" | "function" => matches!(value, Value::Fn(_)),
        // A name of the caller's choosing (`:user`): not checked.
        _ => true,
    }
}

/// Checks a call's arguments against `tool`'s signature; the error names
/// the tool, the parameter, the expected and the actual type.
///
/// A wrong count is an `arity-error`, a wrong type (or a missing or unknown
/// named argument) a `type-error`.
pub fn check_arguments(tool: &str, sig: &Signature, args: &[Value]) -> Result<(), Error> {
    check_arguments_text(tool, sig, args).map_err(|(arity, msg)| {
        if arity {
            Error::arity(msg)
        } else {
            Error::type_error(msg)
        }
    })
}

/// [`check_arguments`]: `(is_arity, message)` on failure.
fn check_arguments_text(tool: &str, sig: &Signature, args: &[Value]) -> Result<(), (bool, String)> {
    if !sig.checks_arguments() {
        return Ok(());
    }
    let params = &sig.params;
    // A tool without parameters takes no arguments or one empty map of
    // named ones: `(tool/x)` and `(tool/x {})` alike.
    if params.is_empty() && matches!(args, [Value::Map(m)] if m.is_empty()) {
        return Ok(());
    }
    let usage = format!("tool/{tool} takes ({})", sig.display_params());
    // Named arguments: one map keyed by the parameter names.
    if let [Value::Map(map)] = args {
        let named = params.len() != 1 || {
            // One parameter: the map is its value unless it is keyed by
            // that parameter's name and the parameter is not a map itself.
            let p = &params[0];
            map.len() == 1
                && map.get(&Value::keyword(p.name.as_str())).is_some()
                && mismatch(&p.ty, &args[0]).is_some()
        };
        if named && !params.is_empty() {
            for p in params {
                match map.get(&Value::keyword(p.name.as_str())) {
                    Some(v) => {
                        if let Some(m) = mismatch(&p.ty, v) {
                            return Err((false, param_error(tool, &p.name, &m, &usage)));
                        }
                    }
                    None if is_optional(&p.ty) => {}
                    None => {
                        return Err((
                            false,
                            format!(
                                "tool/{tool}: the argument map has no :{} ({}); {usage}",
                                p.name, p.ty_display
                            ),
                        ))
                    }
                }
            }
            for k in map.keys() {
                let known = matches!(k, Value::Keyword(n) if params.iter().any(|p| *p.name == **n));
                if !known {
                    return Err((
                        false,
                        format!(
                            "tool/{tool} has no parameter {}; {usage}",
                            crate::format::to_clojure(k, Some(3), Some(40)).0
                        ),
                    ));
                }
            }
            return Ok(());
        }
    }
    let required = params.iter().filter(|p| !is_optional(&p.ty)).count();
    if args.len() < required || args.len() > params.len() {
        let expected = if required == params.len() {
            format!("{}", params.len())
        } else {
            format!("{required} to {}", params.len())
        };
        return Err((
            true,
            format!(
                "tool/{tool} expects {expected} argument{}, got {}; {usage}",
                if params.len() == 1 && required == 1 {
                    ""
                } else {
                    "s"
                },
                args.len()
            ),
        ));
    }
    for (p, v) in params.iter().zip(args) {
        if let Some(m) = mismatch(&p.ty, v) {
            return Err((false, param_error(tool, &p.name, &m, &usage)));
        }
    }
    Ok(())
}

fn param_error(tool: &str, param: &str, m: &Mismatch, usage: &str) -> String {
    let at = if m.path.is_empty() {
        String::new()
    } else {
        format!(" at {}", m.path)
    };
    format!(
        "tool/{tool}: parameter {param}{at} expects {}, got {}; {usage}",
        m.expected, m.found
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reader::read_value;

    fn ty(text: &str) -> Type {
        Type::parse(text).unwrap()
    }

    fn v(text: &str) -> Value {
        read_value(text).unwrap()
    }

    #[test]
    fn shapes_accept_matching_values() {
        let t = ty("{total :int, items [:string]}");
        assert_eq!(
            mismatch(&t, &v("{:total 2 :items [\"a\" \"b\"] :extra 1}")),
            None
        );
        assert_eq!(mismatch(&ty(":float"), &v("2")), None);
        assert_eq!(mismatch(&ty(":string?"), &v("nil")), None);
        assert_eq!(mismatch(&ty(":user"), &v("{:a 1}")), None);
        assert_eq!(mismatch(&ty("{a :int, b :int?}"), &v("{:a 1}")), None);
    }

    #[test]
    fn mismatches_say_where_and_what() {
        let t = ty("{total :int, items [:string]}");
        let m = mismatch(&t, &v("{:total 2 :items [\"a\" 3]}")).unwrap();
        assert_eq!(m.to_string(), "at :items 1 expected string, got integer 3");
        let m = mismatch(&t, &v("{:items []}")).unwrap();
        assert!(m.expected.contains(":total"), "{m}");
        let m = mismatch(&t, &v("[1]")).unwrap();
        assert_eq!(
            m.to_string(),
            "expected {total int, items [string]}, got vector [1]"
        );
        assert!(mismatch(&ty(":int"), &v("1.5")).is_some());
        assert!(mismatch(&ty(":string"), &v("nil")).is_some());
    }

    fn sig(text: &str) -> Signature {
        Signature::parse(text).unwrap()
    }

    fn check_arguments(tool: &str, s: &Signature, args: &[Value]) -> Result<(), String> {
        super::check_arguments(tool, s, args).map_err(|e| e.message().to_string())
    }

    #[test]
    fn arguments_positional_or_named() {
        let s = sig("(query :string, limit :int) -> [:map]");
        assert_eq!(check_arguments("search", &s, &[v("\"x\""), v("3")]), Ok(()));
        assert_eq!(
            check_arguments("search", &s, &[v("{:query \"x\" :limit 3}")]),
            Ok(())
        );
        let e = check_arguments("search", &s, &[v("\"x\""), v("\"3\"")]).unwrap_err();
        assert_eq!(
            e,
            "tool/search: parameter limit expects int, got string \"3\"; \
             tool/search takes (query :string, limit :int)"
        );
        let e = check_arguments("search", &s, &[v("\"x\"")]).unwrap_err();
        assert!(
            e.starts_with("tool/search expects 2 arguments, got 1"),
            "{e}"
        );
        let e = check_arguments("search", &s, &[v("{:query \"x\"}")]).unwrap_err();
        assert!(e.contains("no :limit"), "{e}");
        let e = check_arguments("search", &s, &[v("{:query \"x\" :limit 1 :lmit 2}")]).unwrap_err();
        assert!(e.contains("no parameter :lmit"), "{e}");
    }

    #[test]
    fn no_parameters_take_nothing_or_an_empty_map() {
        let s = sig("-> :map");
        assert_eq!(check_arguments("read_graph", &s, &[]), Ok(()));
        assert_eq!(check_arguments("read_graph", &s, &[v("{}")]), Ok(()));
        let e = check_arguments("read_graph", &s, &[v("{:a 1}")]).unwrap_err();
        assert!(
            e.starts_with("tool/read_graph expects 0 arguments, got 1"),
            "{e}"
        );
        assert!(check_arguments("read_graph", &s, &[v("1")]).is_err());
    }

    #[test]
    fn one_map_parameter_takes_the_map() {
        let s = sig("(opts :map) -> :any");
        assert_eq!(check_arguments("t", &s, &[v("{:a 1}")]), Ok(()));
        let s = sig("(id :int) -> :any");
        assert_eq!(check_arguments("t", &s, &[v("{:id 1}")]), Ok(()));
        assert!(check_arguments("t", &s, &[v("{:id \"1\"}")]).is_err());
        assert!(check_arguments("t", &s, &[v("{:x 1}")]).is_err());
    }

    #[test]
    fn tools_without_a_signature_take_anything() {
        assert_eq!(
            check_arguments("t", &Signature::any(), &[v("1"), v("2")]),
            Ok(())
        );
        let e = check_arguments("t", &sig("-> :any"), &[v("1")]).unwrap_err();
        assert!(e.contains("expects 0 arguments, got 1"), "{e}");
    }
}
