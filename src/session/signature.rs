//! Tool signatures (`session.md`, `language.md` §Tools):
//! `(p1 :type, p2 :type) -> :type`, or `-> :type` without parameters.
//!
//! Types are keywords (`:string :int :float :bool :keyword :map :any :nil`,
//! or a name of the caller's choosing such as `:user`), vectors `[:type]`
//! and record maps `{field :type, ...}`, nested freely. Commas are optional
//! whitespace, as in Clojure.
//!
//! A parsed [`Signature`] keeps the declared text and, for every type, its
//! display form: the declared text with the colons removed and whitespace
//! collapsed (`[:user]` → `[user]`, `{score :float}` → `{score float}`),
//! which is what the `tool/` section of the prompt shows.

use std::fmt;
use std::str::FromStr;

/// A type in a signature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Type {
    /// `:string`, `:int`, …, or a caller's name such as `:user` (no colon).
    Named(String),
    /// `[:type]`
    Vector(Box<Type>),
    /// `{field :type, ...}`, fields in declared order.
    Record(Vec<(String, Type)>),
}

/// One parameter: its name and type, with the type's display form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    pub name: String,
    pub ty: Type,
    /// The type as declared, without colons (`string`, `[user]`).
    pub ty_display: String,
}

/// A parsed tool signature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    /// The parameters, in order.
    pub params: Vec<Param>,
    /// What the tool returns.
    pub returns: Type,
    /// The return type as declared, without colons.
    pub returns_display: String,
    text: String,
    /// False for [`Signature::any`] (a tool declared without a signature,
    /// whose arguments are not checked).
    declared: bool,
}

/// Why a signature could not be read; `column` is 1-based, in characters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignatureError {
    /// What is wrong with the signature.
    pub message: String,
    /// Where, 1-based.
    pub column: usize,
}

impl fmt::Display for SignatureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (column {})", self.message, self.column)
    }
}

impl std::error::Error for SignatureError {}

impl Signature {
    /// Parses `(p1 :type, p2 :type) -> :type` or `-> :type`.
    pub fn parse(text: &str) -> Result<Signature, SignatureError> {
        Parser::new(text).signature()
    }

    /// The signature of a tool declared without one: no parameters, any
    /// result (`-> :any`).
    pub fn any() -> Signature {
        Signature {
            params: Vec::new(),
            returns: Type::Named("any".into()),
            returns_display: "any".into(),
            text: "-> :any".into(),
            declared: false,
        }
    }

    /// The text as declared.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Whether calls are checked against it: true for a parsed signature,
    /// false for [`Signature::any`].
    pub fn checks_arguments(&self) -> bool {
        self.declared
    }

    /// The parameters as declared, colons kept: `query :string, limit :int`.
    pub fn display_params(&self) -> String {
        self.params
            .iter()
            .map(|p| format!("{} {}", p.name, p.ty.declared()))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The parameter names, in order.
    pub fn param_names(&self) -> impl Iterator<Item = &str> {
        self.params.iter().map(|p| p.name.as_str())
    }

    /// The comment form of the prompt: `query:string, n:int -> [user]`,
    /// or `-> map` without parameters.
    pub fn display(&self) -> String {
        let params: Vec<String> = self
            .params
            .iter()
            .map(|p| format!("{}:{}", p.name, p.ty_display))
            .collect();
        if params.is_empty() {
            format!("-> {}", self.returns_display)
        } else {
            format!("{} -> {}", params.join(", "), self.returns_display)
        }
    }
}

impl FromStr for Signature {
    type Err = SignatureError;
    fn from_str(s: &str) -> Result<Signature, SignatureError> {
        Signature::parse(s)
    }
}

impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

const FORMAT_HINT: &str =
    "signatures look like (query :string, limit :int) -> [:map] or -> :string";

/// How deep vector and record types may nest. Parsing, printing,
/// checking values against and dropping a type recurse once per level, so
/// a deeper one (a session file's signature 30,000 levels deep) is an
/// error instead of a stack overflow.
pub const MAX_TYPE_DEPTH: usize = 64;

struct Parser<'a> {
    text: &'a str,
    pos: usize,
    /// Vector and record types open around the current position.
    depth: usize,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Parser<'a> {
        Parser {
            text,
            pos: 0,
            depth: 0,
        }
    }

    fn error(&self, at: usize, message: impl Into<String>) -> SignatureError {
        SignatureError {
            message: format!("{}; {FORMAT_HINT}", message.into()),
            column: self.text[..at.min(self.text.len())].chars().count() + 1,
        }
    }

    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    fn skip_ws(&mut self) {
        while let Some(c) = self.peek() {
            if c.is_whitespace() || c == ',' {
                self.pos += c.len_utf8();
            } else {
                break;
            }
        }
    }

    fn eat(&mut self, s: &str) -> bool {
        if self.text[self.pos..].starts_with(s) {
            self.pos += s.len();
            true
        } else {
            false
        }
    }

    /// What is at the current position, for messages.
    fn found(&self) -> String {
        let rest = self.text[self.pos..].trim_end();
        if rest.is_empty() {
            "the end of the signature".into()
        } else {
            let token: String = rest
                .chars()
                .take_while(|c| !c.is_whitespace())
                .take(20)
                .collect();
            format!("'{token}'")
        }
    }

    fn signature(mut self) -> Result<Signature, SignatureError> {
        self.skip_ws();
        let mut params = Vec::new();
        if self.eat("(") {
            loop {
                self.skip_ws();
                if self.eat(")") {
                    break;
                }
                if self.peek().is_none() || self.text[self.pos..].starts_with("->") {
                    return Err(self.error(self.pos, "the parameter list is not closed with ')'"));
                }
                params.push(self.param(&params)?);
            }
            self.skip_ws();
        }
        if !self.eat("->") {
            let what = if params.is_empty() && self.pos == 0 {
                "a signature starts with '(' (the parameters) or '->' (no parameters)".to_string()
            } else {
                format!("expected '->' and the result type, got {}", self.found())
            };
            return Err(self.error(self.pos, what));
        }
        self.skip_ws();
        if self.peek().is_none() {
            return Err(self.error(self.pos, "expected the result type after '->'"));
        }
        let start = self.pos;
        let returns = self.ty()?;
        let returns_display = display_of(&self.text[start..self.pos]);
        self.skip_ws();
        if self.pos < self.text.len() {
            return Err(self.error(
                self.pos,
                format!("unexpected {} after the result type", self.found()),
            ));
        }
        Ok(Signature {
            params,
            returns,
            returns_display,
            text: self.text.trim().to_string(),
            declared: true,
        })
    }

    fn param(&mut self, earlier: &[Param]) -> Result<Param, SignatureError> {
        let at = self.pos;
        let name = self.name();
        if name.is_empty() {
            return Err(self.error(
                at,
                format!("expected a parameter name, got {}", self.found()),
            ));
        }
        if name.starts_with(':') {
            return Err(self.error(
                at,
                format!("expected a parameter name before the type {name}"),
            ));
        }
        if earlier.iter().any(|p| p.name == name) {
            return Err(self.error(at, format!("parameter '{name}' is declared twice")));
        }
        self.skip_ws();
        if matches!(self.peek(), Some(')') | None) {
            return Err(self.error(
                self.pos,
                format!("parameter '{name}' needs a type, e.g. ({name} :string)"),
            ));
        }
        let start = self.pos;
        let ty = self.ty().map_err(|e| SignatureError {
            message: format!("parameter '{name}': {}", e.message),
            column: e.column,
        })?;
        Ok(Param {
            name,
            ty,
            ty_display: display_of(&self.text[start..self.pos]),
        })
    }

    /// A run of symbol characters.
    fn name(&mut self) -> String {
        let start = self.pos;
        while let Some(c) = self.peek() {
            let arrow = self.pos == start && self.text[self.pos..].starts_with("->");
            if c.is_whitespace() || "(),[]{}\"".contains(c) || arrow {
                break;
            }
            self.pos += c.len_utf8();
        }
        self.text[start..self.pos].to_string()
    }

    fn ty(&mut self) -> Result<Type, SignatureError> {
        let at = self.pos;
        if matches!(self.peek(), Some('[' | '{')) {
            if self.depth >= MAX_TYPE_DEPTH {
                return Err(self.error(
                    at,
                    format!("the type nests deeper than {MAX_TYPE_DEPTH} levels of [] and {{}}"),
                ));
            }
            self.depth += 1;
            let ty = self.nested_ty(at);
            self.depth -= 1;
            return ty;
        }
        self.nested_ty(at)
    }

    fn nested_ty(&mut self, at: usize) -> Result<Type, SignatureError> {
        match self.peek() {
            Some(':') => {
                self.pos += 1;
                let name = self.name();
                if name.is_empty() || name.contains(':') {
                    return Err(self.error(at, "expected a type name after ':' (e.g. :string)"));
                }
                Ok(Type::Named(name))
            }
            Some('[') => {
                self.pos += 1;
                self.skip_ws();
                if self.peek() == Some(']') {
                    return Err(self.error(at, "a vector type needs its item type, e.g. [:string]"));
                }
                let item = self.ty()?;
                self.skip_ws();
                if !self.eat("]") {
                    return Err(self.error(
                        self.pos,
                        format!(
                            "a vector type holds one item type and ends with ']', got {}",
                            self.found()
                        ),
                    ));
                }
                Ok(Type::Vector(Box::new(item)))
            }
            Some('{') => {
                self.pos += 1;
                let mut fields: Vec<(String, Type)> = Vec::new();
                loop {
                    self.skip_ws();
                    if self.eat("}") {
                        break;
                    }
                    if self.peek().is_none() {
                        return Err(self.error(at, "the record type is not closed with '}'"));
                    }
                    let field_at = self.pos;
                    let mut field = self.name();
                    if let Some(f) = field.strip_prefix(':') {
                        field = f.to_string();
                    }
                    if field.is_empty() {
                        return Err(self.error(
                            field_at,
                            format!(
                                "expected a field name in the record type, got {}",
                                self.found()
                            ),
                        ));
                    }
                    self.skip_ws();
                    if matches!(self.peek(), Some('}') | None) {
                        return Err(self.error(
                            self.pos,
                            format!("field '{field}' needs a type, e.g. {{{field} :string}}"),
                        ));
                    }
                    let ty = self.ty()?;
                    fields.push((field, ty));
                }
                Ok(Type::Record(fields))
            }
            _ => {
                let name = self.name();
                let what = if name.is_empty() {
                    self.found()
                } else {
                    format!("'{name}'")
                };
                Err(self.error(
                    at,
                    format!(
                        "expected a type such as :string, [:int] or {{name :string}}, got {what}"
                    ),
                ))
            }
        }
    }
}

/// The declared type text without colons, whitespace collapsed.
fn display_of(declared: &str) -> String {
    let mut out = String::new();
    let mut prev_space = false;
    for c in declared.trim().chars() {
        if c == ':' {
            continue;
        }
        if c.is_whitespace() {
            if !prev_space {
                out.push(' ');
            }
            prev_space = true;
        } else {
            out.push(c);
            prev_space = false;
        }
    }
    out
}

impl Type {
    /// Parses one type: `:int`, `[:string]`, `{total :int, items [:string]}`
    /// (a mission's declared result shape).
    pub fn parse(text: &str) -> Result<Type, SignatureError> {
        let mut p = Parser::new(text);
        p.skip_ws();
        if p.peek().is_none() {
            return Err(p.error(0, "expected a type such as :int or {total :int}"));
        }
        let ty = p.ty()?;
        p.skip_ws();
        if p.pos < text.len() {
            return Err(p.error(p.pos, format!("unexpected {} after the type", p.found())));
        }
        Ok(ty)
    }

    /// The type written as declared, colons kept (`[:user]`,
    /// `{score :float}`).
    pub fn declared(&self) -> String {
        match self {
            Type::Named(n) => format!(":{n}"),
            Type::Vector(t) => format!("[{}]", t.declared()),
            Type::Record(fields) => {
                let fs: Vec<String> = fields
                    .iter()
                    .map(|(n, t)| format!("{n} {}", t.declared()))
                    .collect();
                format!("{{{}}}", fs.join(", "))
            }
        }
    }

    /// The type written without colons (`[user]`, `{score float}`).
    pub fn display(&self) -> String {
        match self {
            Type::Named(n) => n.clone(),
            Type::Vector(t) => format!("[{}]", t.display()),
            Type::Record(fields) => {
                let fs: Vec<String> = fields
                    .iter()
                    .map(|(n, t)| format!("{n} {}", t.display()))
                    .collect();
                format!("{{{}}}", fs.join(", "))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sig(s: &str) -> Signature {
        Signature::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    fn err(s: &str) -> SignatureError {
        match Signature::parse(s) {
            Ok(sig) => panic!("{s}: expected an error, got {sig:?}"),
            Err(e) => e,
        }
    }

    #[test]
    fn parameters_and_result() {
        let s = sig("(query :string, limit :int) -> [:map]");
        assert_eq!(s.param_names().collect::<Vec<_>>(), ["query", "limit"]);
        assert_eq!(s.params[1].ty, Type::Named("int".into()));
        assert_eq!(s.returns, Type::Vector(Box::new(Type::Named("map".into()))));
        assert_eq!(s.display(), "query:string, limit:int -> [map]");
        assert_eq!(s.text(), "(query :string, limit :int) -> [:map]");
    }

    #[test]
    fn no_parameters() {
        assert_eq!(sig("-> :map").display(), "-> map");
        assert_eq!(sig("() -> :nil").display(), "-> nil");
        assert!(sig("  -> :string ").params.is_empty());
    }

    #[test]
    fn records_custom_names_and_commas_optional() {
        let s = sig("(opts {to :string, subject :string}) -> {score :float ok :bool}");
        assert_eq!(s.params[0].ty_display, "{to string, subject string}");
        assert_eq!(s.returns_display, "{score float ok bool}");
        assert_eq!(
            s.returns,
            Type::Record(vec![
                ("score".into(), Type::Named("float".into())),
                ("ok".into(), Type::Named("bool".into()))
            ])
        );
        assert_eq!(
            sig("(category :string) -> [:user]").display(),
            "category:string -> [user]"
        );
        assert_eq!(sig("(a :int b :int) -> :int").params.len(), 2);
        assert_eq!(
            sig("(x [[:int]]) -> :any").params[0].ty.display(),
            "[[int]]"
        );
    }

    #[test]
    fn types_nest_at_most_64_levels() {
        let ok = format!("-> {}:int{}", "[".repeat(64), "]".repeat(64));
        assert!(Signature::parse(&ok).is_ok());
        let deep = format!("-> {}:int{}", "[".repeat(30_000), "]".repeat(30_000));
        assert!(err(&deep).message.contains("nests deeper than 64"));
        let deep = format!("-> {}:int{}", "{a ".repeat(65), "}".repeat(65));
        assert!(err(&deep).message.contains("nests deeper than 64"));
    }

    #[test]
    fn bad_signatures_say_what_and_where() {
        let e = err("(query string) -> :string");
        assert!(e.message.contains("parameter 'query'"), "{e}");
        assert_eq!(e.column, 8);
        assert!(err("(query :string)").message.contains("expected '->'"));
        assert!(err("(query :string) -> ").message.contains("result type"));
        assert!(err("(query) -> :string").message.contains("needs a type"));
        assert!(err("query :string -> :x").message.contains("starts with"));
        assert!(err("(a :int, a :int) -> :int").message.contains("twice"));
        assert!(err("-> [:int").message.contains("']'"));
        assert!(err("-> :int :string").message.contains("unexpected"));
        assert!(err("(q :string -> :int").message.contains("not closed"));
        assert!(err("").message.contains("starts with"));
    }
}
