//! Analysis: spanned [`Form`]s → resolved [`Expr`] trees.
//!
//! The analyzer owns scoping and name resolution (`language.md` §Names):
//! a bare symbol is a local, then a user/ definition, then a builtin, then
//! `tool/NAME`, then `data/NAME` (both → "ambiguous reference"). Locals are
//! frame slots; names from enclosing functions become captures. It expands
//! the macros ([`macros`]), compiles special forms ([`special`]) and
//! destructuring ([`destructure`]), checks what can be checked before running
//! (`recur` in tail position, binding vectors, `if` arity, forbidden forms),
//! and suggests names for typos ([`names`]).
//!
//! Analysis happens one top-level form at a time, right before that form runs,
//! so a `def` in one form is visible to the next — as in Clojure. A `def`
//! interns its name as soon as it is analyzed, so the rest of the same form
//! can refer to it.

mod capture;
pub mod destructure;
pub mod doc;
pub mod expr;
mod functions;
pub mod macros;
pub mod moves;
pub mod names;
mod require;
pub mod special;
pub mod suggest;

use std::sync::Arc;

use crate::builtins::{self, Ns};
use crate::error::{Error, Result, Span};
use crate::eval::budget::charge_work;
use crate::eval::{Budget, Globals, Host};
use crate::reader::{form_to_value, Form, FormKind};
use crate::value::{Func, Value};

use expr::{Call, Expr, GlobalId, Slot};

/// Every name the analyzer handles itself (special forms and macros), for
/// the registry-facing views (REPL completion, system prompt, tests).
pub const SPECIAL_NAMES: &[&str] = &[
    "quote",
    "if",
    "do",
    "and",
    "or",
    "let",
    "loop",
    "recur",
    "fn",
    "def",
    "defonce",
    "defn",
    "defn-",
    "letfn",
    "try",
    "catch",
    "finally",
    "throw",
    "lazy-seq",
    "case",
    "for",
    "doseq",
    "with-out-str",
    "var",
    "return",
    "fail",
    "when",
    "when-not",
    "if-not",
    "cond",
    "condp",
    "->",
    "->>",
    "as->",
    "some->",
    "some->>",
    "cond->",
    "cond->>",
    "doto",
    "if-let",
    "when-let",
    "if-some",
    "when-some",
    "when-first",
    "dotimes",
    "comment",
    "declare",
    "require",
    "ns",
    "assert",
];

/// The names a program can see besides its own locals.
pub struct Context<'a> {
    pub globals: &'a mut Globals,
    pub host: &'a dyn Host,
    /// The whole source of the program being analyzed.
    pub source: Arc<str>,
    /// The turn's budget: analysis and macro expansion are charged like
    /// evaluation (one step per form analyzed, one per local or sibling
    /// name compared while resolving a name, one per form a macro builds).
    pub budget: &'a mut Budget,
    /// Mark last-use moves (`moves.rs`); off for the reference run.
    pub moves: bool,
}

/// The deepest nesting of forms the analyzer accepts after macro
/// expansion. The reader caps source nesting at
/// [`crate::reader::MAX_NESTING`], but a macro can nest deeper than it reads
/// (`cond`, `->`, `cond->`, `some->` nest one level per clause); analysis,
/// evaluation and dropping of the compiled code recurse natively, so the
/// nesting is bounded here (a `limit-exceeded` error).
pub const MAX_EXPANDED_NESTING: usize = 4096;

/// One function body (or the top level) being analyzed.
#[derive(Default)]
struct Scope {
    /// Visible locals, innermost last.
    locals: Vec<(Arc<str>, Slot)>,
    next_slot: Slot,
    frame_size: Slot,
    /// Captured names and how to get them in the enclosing scope.
    captures: Vec<(Arc<str>, Expr)>,
    self_name: Option<Arc<str>>,
    siblings: Vec<Arc<str>>,
    /// The slots `recur` rebinds here (one per argument), if it may appear.
    recur_slots: Option<Arc<[Slot]>>,
    /// The first slot bound inside the innermost loop (0 for a function):
    /// slots from there on are rebound by `recur`.
    recur_base: Slot,
    /// Tail position here is not the end of the frame: the top level, or
    /// inside a loop that is not itself in the frame's tail position.
    tail_open: bool,
}

/// A compiled top-level form: run it in a frame of `frame_size` slots.
pub struct TopLevel {
    pub expr: Expr,
    pub frame_size: usize,
}

pub struct Analyzer<'a> {
    cx: Context<'a>,
    scopes: Vec<Scope>,
    gensym: u32,
    /// How many [`Analyzer::analyze`] calls are open (the nesting of forms
    /// after macro expansion).
    nesting: usize,
}

impl<'a> Analyzer<'a> {
    pub fn new(cx: Context<'a>) -> Analyzer<'a> {
        Analyzer {
            cx,
            scopes: Vec::new(),
            gensym: 0,
            nesting: 0,
        }
    }

    /// Analyzes one top-level form.
    pub fn top_level(&mut self, form: &Form) -> Result<TopLevel> {
        self.scopes.push(Scope {
            tail_open: true,
            ..Scope::default()
        });
        let expr = self.analyze(form, false);
        let scope = self.scopes.pop().unwrap_or_default();
        Ok(TopLevel {
            expr: expr?,
            frame_size: scope.frame_size as usize,
        })
    }

    fn scope(&mut self) -> &mut Scope {
        if self.scopes.is_empty() {
            self.scopes.push(Scope::default());
        }
        let last = self.scopes.len() - 1;
        &mut self.scopes[last]
    }

    /// A fresh local that no program can name.
    fn gensym(&mut self, base: &str) -> String {
        self.gensym += 1;
        format!(" {base}{}", self.gensym)
    }

    fn push_local(&mut self, name: &str) -> Slot {
        let scope = self.scope();
        let slot = scope.next_slot;
        scope.next_slot += 1;
        scope.frame_size = scope.frame_size.max(scope.next_slot);
        scope.locals.push((name.into(), slot));
        slot
    }

    /// A slot for an intermediate value, not visible by name.
    fn temp_slot(&mut self) -> Slot {
        let scope = self.scope();
        let slot = scope.next_slot;
        scope.next_slot += 1;
        scope.frame_size = scope.frame_size.max(scope.next_slot);
        slot
    }

    /// Saves the local bindings; [`Analyzer::restore`] pops back to them.
    fn mark(&mut self) -> (usize, Slot) {
        let scope = self.scope();
        (scope.locals.len(), scope.next_slot)
    }

    fn restore(&mut self, mark: (usize, Slot)) {
        let scope = self.scope();
        scope.locals.truncate(mark.0);
        scope.next_slot = mark.1;
    }

    fn with_recur<T>(&mut self, slots: Option<Arc<[Slot]>>, f: impl FnOnce(&mut Self) -> T) -> T {
        let saved = std::mem::replace(&mut self.scope().recur_slots, slots);
        let r = f(self);
        self.scope().recur_slots = saved;
        r
    }

    /// Analyzes a form; `tail` says whether it is in tail position of the
    /// innermost `loop` or `fn` (where `recur` may appear). Charges one step
    /// and bounds the nesting ([`MAX_EXPANDED_NESTING`]).
    pub fn analyze(&mut self, form: &Form, tail: bool) -> Result<Expr> {
        self.enter(form)?;
        self.nesting += 1;
        let expr = self.analyze_form(form, tail);
        self.nesting -= 1;
        expr
    }

    /// What analyzing `form` first does: one step charged, the nesting
    /// bounded.
    fn enter(&mut self, form: &Form) -> Result<()> {
        self.cx.budget.tick_settled(1)?;
        if self.nesting >= MAX_EXPANDED_NESTING {
            return Err(Error::limit(format!(
                "the program nests more than {MAX_EXPANDED_NESTING} levels deep once its macros are expanded"
            ))
            .with_hint("a cond, ->, cond-> or some-> of thousands of clauses nests one level per clause; split it into functions, or reduce over a vector of steps")
            .with_span(form.span));
        }
        Ok(())
    }

    fn analyze_form(&mut self, form: &Form, tail: bool) -> Result<Expr> {
        match &form.kind {
            FormKind::Nil => Ok(Expr::Const(Value::Nil)),
            FormKind::Bool(b) => Ok(Expr::Const(Value::Bool(*b))),
            FormKind::Int(i) => Ok(Expr::Const(Value::Int(*i))),
            FormKind::Float(f) => Ok(Expr::Const(Value::Float(*f))),
            FormKind::Str(s) => Ok(Expr::Const(Value::string(s.as_str()))),
            FormKind::Keyword(k) => Ok(Expr::Const(Value::keyword_interned(k))),
            FormKind::Regex(_) => Ok(Expr::Const(form_to_value(form)?)),
            FormKind::Symbol(name) => self.symbol(name, form.span),
            FormKind::Vector(items) => {
                let exprs = self.analyze_all(items)?;
                Ok(constant_or(exprs, Expr::Vector, |vals| {
                    Value::vector_from(vals)
                }))
            }
            FormKind::Set(items) => {
                let exprs = self.analyze_all(items)?;
                Ok(constant_or(exprs, Expr::Set, Value::set_from))
            }
            FormKind::Map(items) => {
                let exprs = self.analyze_all(items)?;
                let mut pairs = Vec::with_capacity(exprs.len() / 2);
                let mut it = exprs.into_iter();
                while let (Some(k), Some(v)) = (it.next(), it.next()) {
                    pairs.push((k, v));
                }
                if pairs
                    .iter()
                    .all(|(k, v)| matches!((k, v), (Expr::Const(_), Expr::Const(_))))
                {
                    let m = pairs
                        .into_iter()
                        .map(|(k, v)| match (k, v) {
                            (Expr::Const(k), Expr::Const(v)) => (k, v),
                            _ => unreachable!("checked above"),
                        })
                        .collect();
                    Ok(Expr::Const(Value::Map(m)))
                } else {
                    Ok(record(pairs))
                }
            }
            FormKind::List(items) => {
                if items.is_empty() {
                    return Ok(Expr::Const(Value::empty_vector()));
                }
                self.list(form, items, tail)
            }
        }
    }

    fn analyze_all(&mut self, forms: &[Form]) -> Result<Vec<Expr>> {
        forms.iter().map(|f| self.analyze(f, false)).collect()
    }

    /// A body (implicit `do`): the last form inherits `tail`.
    fn body(&mut self, forms: &[Form], tail: bool) -> Result<Expr> {
        match forms.len() {
            0 => Ok(Expr::Const(Value::Nil)),
            1 => self.analyze(&forms[0], tail),
            n => {
                let mut exprs = Vec::with_capacity(n);
                for (i, f) in forms.iter().enumerate() {
                    exprs.push(self.analyze(f, tail && i + 1 == n)?);
                }
                Ok(Expr::Do(exprs))
            }
        }
    }

    fn list(&mut self, form: &Form, items: &[Form], tail: bool) -> Result<Expr> {
        let head = &items[0];
        if let FormKind::Symbol(name) = &head.kind {
            if self.resolve_local(self.scopes.len() - 1, name).is_none() {
                if let Some(expanded) = macros::expand(self, name, form, items)? {
                    return self.analyze(&expanded, tail);
                }
                if let Some(expr) = special::analyze(self, name, form, items, tail)? {
                    return Ok(expr);
                }
                names::check_forbidden(name, head.span)?;
            }
        }
        let mut call = self.call(form, items)?;
        if tail && !self.scope().tail_open && self.cx.moves {
            // The frame ends with this call: every local is dead after its
            // arguments are evaluated.
            moves::mark(&mut call, &[], &moves::dead_at_frame_end);
        }
        Ok(call)
    }

    fn call(&mut self, form: &Form, items: &[Form]) -> Result<Expr> {
        let head = &items[0];
        let args_forms = &items[1..];
        let f = match &head.kind {
            FormKind::Symbol(name) => match self.call_head(name) {
                Head::Tool(tool) => {
                    let args = self.analyze_all(args_forms)?;
                    return Ok(Expr::CallTool(tool.into(), args, form.span));
                }
                Head::Builtin(b) => {
                    // What analyzing the symbol gives, charged the same
                    // (its step and its scan of the scopes), without
                    // looking it up again.
                    self.enter(head)?;
                    let local = self.resolve_local(self.scopes.len() - 1, name);
                    debug_assert!(local.is_none());
                    Expr::Builtin(b)
                }
                Head::Other => self.analyze(head, false)?,
            },
            _ => self.analyze(head, false)?,
        };
        if let Expr::Builtin(b) = f {
            if b.ns == Ns::Core {
                if let (Some(op), [x, y]) = (expr::ArithOp::of_builtin(b), args_forms) {
                    let (x, y) = (self.analyze(x, false)?, self.analyze(y, false)?);
                    return Ok(Expr::Arith2(op, Box::new((x, y)), b, form.span));
                }
                if let ("inc" | "dec", [x]) = (b.name, args_forms) {
                    let step = if b.name == "inc" { 1 } else { -1 };
                    return Ok(Expr::Step(
                        step,
                        Box::new(self.analyze(x, false)?),
                        b,
                        form.span,
                    ));
                }
            }
            if let ("get", Ns::Core, [m, k]) = (b.name, b.ns, args_forms) {
                let (m, k) = (self.analyze(m, false)?, self.analyze(k, false)?);
                return Ok(Expr::Get(Box::new((m, k))));
            }
            let mut args = if b.name == "where" && b.ns == Ns::Core {
                self.where_args(args_forms)?
            } else {
                self.analyze_all(args_forms)?
            };
            // `(count (keys m))` and the like answered from the map: the
            // inner call, at its own place, hands the map to the outer one
            // (`builtins/coll/entry_count.rs`, rule COST-ENTRIES-1: what
            // the pair costs, so the reference run does it too).
            if let [Expr::CallBuiltin(inner, m, _)] = args.as_mut_slice() {
                if let (Some(sized), [_]) = (crate::builtins::coll::of_entries(b, inner), &m[..]) {
                    *inner = sized;
                }
            }
            return Ok(Expr::CallBuiltin(b, args, form.span));
        }
        if let (Expr::Const(Value::Keyword(_)), [m]) = (&f, args_forms) {
            let m = self.analyze(m, false)?;
            return Ok(Expr::Get(Box::new((m, f))));
        }
        let args = self.analyze_all(args_forms)?;
        Ok(Expr::Call(Box::new(Call {
            f,
            args,
            span: form.span,
        })))
    }

    /// `where`'s operator written as a bare symbol (`=`, `>`, `includes`,
    /// `in` …) is passed as a keyword, so `includes` and `in` need no
    /// definition of their own.
    fn where_args(&mut self, forms: &[Form]) -> Result<Vec<Expr>> {
        const OPS: [&str; 8] = ["=", "not=", ">", "<", ">=", "<=", "includes", "in"];
        let mut args = Vec::with_capacity(forms.len());
        for (i, f) in forms.iter().enumerate() {
            match &f.kind {
                FormKind::Symbol(op)
                    if i == 1
                        && OPS.contains(&op.as_str())
                        && self.resolve_local(self.scopes.len() - 1, op).is_none() =>
                {
                    args.push(Expr::Const(Value::keyword_interned(op)))
                }
                // An operator that names nothing (`like`, `contains`): the
                // operators, not "undefined symbol".
                FormKind::Symbol(op) if i == 1 && !op.contains('/') => {
                    let e = self.analyze(f, false).map_err(|e| match e.kind() {
                        crate::error::ErrorKind::Undefined => unknown_where_op(op, f.span),
                        _ => e,
                    })?;
                    args.push(e)
                }
                _ => args.push(self.analyze(f, false)?),
            }
        }
        Ok(args)
    }

    /// What `name` in call position calls: a tool (`tool/x`, or a bare name
    /// that falls back to a tool), a builtin it can only name (no local,
    /// definition or `:refer` comes first), or something [`Self::symbol`]
    /// resolves.
    fn call_head<'n>(&mut self, name: &'n str) -> Head<'n> {
        if let Some(tool) = name.strip_prefix("tool/") {
            return Head::Tool(tool);
        }
        if name.contains('/') || self.resolve_local(self.scopes.len() - 1, name).is_some() {
            return Head::Other;
        }
        if self.cx.globals.id(name).is_some() {
            return Head::Other;
        }
        if let Some(b) = builtins::lookup(name) {
            let plain = self.cx.globals.refer(name).is_none()
                && !matches!(name, "*1" | "*2" | "*3" | "return" | "fail");
            return if plain { Head::Builtin(b) } else { Head::Other };
        }
        if self.cx.host.has_tool(name) && self.cx.host.data(name).is_none() {
            Head::Tool(name)
        } else {
            Head::Other
        }
    }

    /// Finds a local (or self name, sibling, capture) visible in scope
    /// `depth`, capturing it through every function boundary on the way.
    fn resolve_local(&mut self, depth: usize, name: &str) -> Option<Expr> {
        let scope = &self.scopes[depth];
        // Charged per name compared (a letfn of thousands of functions,
        // or thousands of nested bindings, make every lookup long).
        let local = scope.locals.iter().rev().position(|(n, _)| &**n == name);
        charge_work(local.map_or(scope.locals.len(), |i| i + 1) as u64);
        if let Some(i) = local {
            return Some(Expr::Local(scope.locals[scope.locals.len() - 1 - i].1));
        }
        if scope.self_name.as_deref() == Some(name) {
            return Some(Expr::SelfFn);
        }
        let sibling = scope.siblings.iter().position(|n| &**n == name);
        charge_work(sibling.map_or(scope.siblings.len(), |i| i + 1) as u64);
        if let Some(i) = sibling {
            return Some(Expr::Sibling(i as u32));
        }
        let capture = scope.captures.iter().position(|(n, _)| &**n == name);
        charge_work(capture.map_or(scope.captures.len(), |i| i + 1) as u64);
        if let Some(i) = capture {
            return Some(Expr::Capture(i as u32));
        }
        if depth == 0 {
            return None;
        }
        let outer = self.resolve_local(depth - 1, name)?;
        let scope = &mut self.scopes[depth];
        scope.captures.push((name.into(), outer));
        Some(Expr::Capture(scope.captures.len() as u32 - 1))
    }

    fn symbol(&mut self, name: &str, span: Span) -> Result<Expr> {
        if let Some(local) = self.resolve_local(self.scopes.len() - 1, name) {
            return Ok(local);
        }
        match name {
            "*1" => return Ok(Expr::TurnHistory(1)),
            "*2" => return Ok(Expr::TurnHistory(2)),
            "*3" => return Ok(Expr::TurnHistory(3)),
            _ => {}
        }
        if let Some(i) = name.find('/').filter(|&i| i > 0 && i + 1 < name.len()) {
            return self.qualified(&name[..i], &name[i + 1..], span);
        }
        if let Some(id) = self.cx.globals.id(name) {
            return Ok(Expr::Global(id));
        }
        if name == "return" || name == "fail" {
            return Err(
                Error::undefined(format!("{name} cannot be used as a value"))
                    .with_hint(format!(
                        "{name} ends the turn; call it directly, e.g. ({name} result)"
                    ))
                    .with_span(span),
            );
        }
        if let Some(b) = self
            .cx
            .globals
            .refer(name)
            .and_then(|ns| builtins::lookup_in(ns, name))
            .or_else(|| builtins::lookup(name))
        {
            return Ok(Expr::Builtin(b));
        }
        let is_tool = self.cx.host.has_tool(name);
        let is_data = self.cx.host.data(name).is_some();
        match (is_tool, is_data) {
            (true, true) => Err(Error::execution(format!(
                "ambiguous reference {name}: both tool/{name} and data/{name} exist"
            ))
            .with_hint(format!("write tool/{name} or data/{name}"))
            .with_span(span)),
            (true, false) => Ok(Expr::Const(tool_fn(name))),
            (false, true) => Ok(Expr::Data(name.into(), span)),
            (false, false) => {
                Err(names::undefined_symbol(name, self.cx.globals, self.cx.host).with_span(span))
            }
        }
    }

    fn qualified(&mut self, ns: &str, name: &str, span: Span) -> Result<Expr> {
        match ns {
            "data" => Ok(Expr::Data(name.into(), span)),
            "tool" => Ok(Expr::Const(tool_fn(name))),
            "user" => match self.cx.globals.id(name) {
                Some(id) => Ok(Expr::Global(id)),
                None => {
                    let shown = crate::value::describe_text(name);
                    Err(Error::undefined(format!("user/{shown} is not defined")).with_span(span))
                }
            },
            _ => match self.cx.globals.alias(ns).or_else(|| Ns::from_qualifier(ns)) {
                // Any builtin is reachable through any known namespace
                // (`str/map`, `core/join`): the named one first.
                Some(n) => match builtins::lookup_in(n, name).or_else(|| builtins::lookup(name)) {
                    Some(b) => Ok(Expr::Builtin(b)),
                    None => Err(names::unknown_in_namespace(ns, n, name).with_span(span)),
                },
                None => match names::java_static(&format!("{ns}/{name}")) {
                    Some(names::JavaStatic::Const(v)) => Ok(Expr::Const(v)),
                    Some(names::JavaStatic::Builtin(b)) => match builtins::lookup_in(Ns::Core, b) {
                        Some(b) => Ok(Expr::Builtin(b)),
                        None => Err(names::unknown_namespace(ns, name).with_span(span)),
                    },
                    None => Err(names::unknown_namespace(ns, name).with_span(span)),
                },
            },
        }
    }

    /// The id of a user/ definition, interned now so later references in the
    /// same form resolve to it.
    fn intern_global(&mut self, name: &str) -> GlobalId {
        self.cx.globals.intern(name)
    }
}

/// The error for `where`'s operator written as a symbol that names
/// nothing: a `validation-error` naming the operators, as the builtin's for
/// an unknown operator keyword.
fn unknown_where_op(op: &str, span: Span) -> Error {
    let shown = crate::value::describe_text(op);
    Error::validation(format!(
        "where expects an operator ({}), got {shown}",
        builtins::query::WHERE_OPERATORS
    ))
    .with_hint(builtins::query::WHERE_FORMS)
    .with_span(span)
}

/// What a symbol in call position calls ([`Analyzer::call_head`]).
enum Head<'n> {
    /// The tool of this name.
    Tool(&'n str),
    /// This builtin (what [`Analyzer::symbol`] would find).
    Builtin(&'static builtins::Builtin),
    /// Whatever [`Analyzer::symbol`] finds.
    Other,
}

/// A function value that calls `tool/NAME` (a tool used as a value, e.g.
/// `(map tool/lookup ids)`).
fn tool_fn(name: &str) -> Value {
    let tool: Arc<str> = name.into();
    Func::native(format!("tool/{name}"), move |interp, args| {
        interp.call_tool(&tool, args.to_vec())
    })
}

/// Folds a collection literal whose items are all constants into a constant.
fn constant_or(
    exprs: Vec<Expr>,
    make: impl FnOnce(Vec<Expr>) -> Expr,
    fold: impl FnOnce(Vec<Value>) -> Value,
) -> Expr {
    if exprs.iter().all(|e| matches!(e, Expr::Const(_))) {
        let vals = exprs
            .into_iter()
            .map(|e| match e {
                Expr::Const(v) => v,
                _ => unreachable!("checked above"),
            })
            .collect();
        Expr::Const(fold(vals))
    } else {
        make(exprs)
    }
}

/// A map literal with some computed part: an [`Expr::Record`] when its keys
/// are distinct constants (at most [`crate::value::map::SMALL`] of them),
/// else a general [`Expr::Map`].
fn record(pairs: Vec<(Expr, Expr)>) -> Expr {
    if pairs.len() > crate::value::map::SMALL {
        return Expr::Map(pairs);
    }
    let mut keys: Vec<&Value> = Vec::with_capacity(pairs.len());
    for (k, _) in &pairs {
        match k {
            Expr::Const(k) if !keys.contains(&k) => keys.push(k),
            _ => return Expr::Map(pairs),
        }
    }
    let shape = crate::value::map::shape_of(keys.into_iter().cloned().collect());
    let values = pairs.into_iter().map(|(_, v)| v).collect();
    Expr::Record(Box::new(expr::Record { values, shape }))
}
