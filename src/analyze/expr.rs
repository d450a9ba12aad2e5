//! The resolved expression tree that [`crate::eval`] runs.
//!
//! Every name is resolved here, once: locals to frame slots, closed-over
//! values to capture indices, user/ definitions to [`GlobalId`]s, builtins to
//! their registry row, tools and data to their names. Macros are gone; only
//! the core forms remain. Destructuring is compiled to [`Bind`] steps that
//! read pieces of an already-bound slot.

use std::sync::Arc;

use crate::builtins::Builtin;
use crate::error::Span;
use crate::value::{Map, Value};

/// Index of a user/ definition in [`crate::eval::Globals`].
pub type GlobalId = u32;
/// Index of a local in the current call frame.
pub type Slot = u32;

pub enum Expr {
    Const(Value),
    Local(Slot),
    /// The last read of a local: takes the value out of its slot (the
    /// analyzer proved nothing reads the slot afterwards), so a collection
    /// held only there can be updated in place by the callee.
    MoveLocal(Slot),
    /// A builtin's argument reading a local that its other arguments read
    /// too and nothing reads after the call (`(assoc v :n (inc (:n v)))`
    /// in tail position): the compiled call takes the value out of the
    /// slot once the other arguments are evaluated (reading a local has no
    /// effect, so when it is read cannot be told), so the callee can
    /// update it in place. Read anywhere else, it is a [`Expr::Local`].
    MoveLocalLate(Slot),
    Capture(u32),
    /// The closure being run (a named `fn` referring to itself).
    SelfFn,
    /// The `n`th function of the enclosing `letfn` group.
    Sibling(u32),
    Global(GlobalId),
    Builtin(&'static Builtin),
    Data(Arc<str>, Span),
    /// `*1`, `*2`, `*3`.
    TurnHistory(u8),

    Vector(Vec<Expr>),
    Map(Vec<(Expr, Expr)>),
    /// A map literal whose keys are distinct constants (`{:id i :name n}`,
    /// the records LLM programs build): each key paired with its value as
    /// the values are computed.
    Record(Box<Record>),
    Set(Vec<Expr>),

    If(Box<(Expr, Expr, Expr)>),
    Do(Vec<Expr>),
    And(Vec<Expr>),
    Or(Vec<Expr>),
    Let(Vec<Bind>, Box<Expr>),
    Loop(Box<Loop>),
    Recur(Box<Recur>),
    MakeFn(Arc<FnProto>, Vec<Expr>),
    Letfn(Box<Letfn>),
    Def(Box<Def>),
    Call(Box<Call>),
    CallBuiltin(&'static Builtin, Vec<Expr>, Span),
    /// A binary numeric builtin (`+ - * < > <= >= =`) with a fast path for
    /// two integers or two floats; anything else goes to the builtin.
    Arith2(ArithOp, Box<(Expr, Expr)>, &'static Builtin, Span),
    /// `inc`/`dec` with a fast path for integers.
    Step(i64, Box<Expr>, &'static Builtin, Span),
    /// `(get m k)` and `(:k m)`: a lookup with no call (never fails).
    Get(Box<(Expr, Expr)>),
    CallTool(Arc<str>, Vec<Expr>, Span),
    Try(Box<Try>),
    Throw(Box<Expr>, Span),
    For(Arc<For>),
    Case(Box<Case>),

    // Destructuring steps (only inside `Bind::value`).
    /// `(nth v i nil)` of a sequential value.
    Nth(Slot, usize, Span),
    /// Items from `i` on (`& rest`), `nil` when none.
    NthRest(Slot, usize, Span),
    /// Key lookup with keyword/string fallback, default when missing.
    Key(Slot, Value, Option<Box<Expr>>, Span),
    /// A map pattern applied to a sequence of `k v` pairs (`& {:keys …}`).
    SeqToMap(Slot),
}

/// The numeric builtins with an inline fast path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArithOp {
    Add,
    Sub,
    Mul,
    Lt,
    Gt,
    Le,
    Ge,
    Eq,
    Mod,
    Rem,
    Quot,
}

impl ArithOp {
    /// The fast-path operation of `b`, when it is one of clojure.core's
    /// builtins with one (whichever name it is called by).
    pub fn of_builtin(b: &crate::builtins::Builtin) -> Option<ArithOp> {
        if b.ns == crate::builtins::Ns::Core {
            ArithOp::of(b.name)
        } else {
            None
        }
    }

    /// The fast-path operation of a clojure.core builtin, by name.
    fn of(name: &str) -> Option<ArithOp> {
        Some(match name {
            "+" => ArithOp::Add,
            "-" => ArithOp::Sub,
            "*" => ArithOp::Mul,
            "<" => ArithOp::Lt,
            ">" => ArithOp::Gt,
            "<=" => ArithOp::Le,
            ">=" => ArithOp::Ge,
            "=" | "==" => ArithOp::Eq,
            "mod" => ArithOp::Mod,
            "rem" => ArithOp::Rem,
            "quot" => ArithOp::Quot,
            _ => return None,
        })
    }

    /// The steps the builtin charges for a call of two arguments: one for
    /// the call, and one per argument but for `mod`, `rem` and `quot`.
    #[inline]
    pub fn steps_of_two(self) -> u64 {
        match self {
            ArithOp::Mod | ArithOp::Rem | ArithOp::Quot => 1,
            _ => 3,
        }
    }

    /// The result for two integers; `None` (overflow, division by zero)
    /// leaves the error to the builtin.
    #[inline]
    pub fn ints(self, a: i64, b: i64) -> Option<Value> {
        match self {
            ArithOp::Lt | ArithOp::Gt | ArithOp::Le | ArithOp::Ge | ArithOp::Eq => {
                Some(Value::Bool(self.test_ints(a, b)?))
            }
            _ => Some(Value::Int(self.int(a, b)?)),
        }
    }

    /// The integer result of an arithmetic operation on two integers;
    /// `None` on overflow, division by zero, or for a comparison.
    #[inline(always)]
    pub fn int(self, a: i64, b: i64) -> Option<i64> {
        Some(match self {
            // Floored, as Clojure's `mod`: the result has the divisor's sign.
            ArithOp::Mod => {
                let m = a.checked_rem(b)?;
                if m != 0 && ((m < 0) != (b < 0)) {
                    m + b
                } else {
                    m
                }
            }
            ArithOp::Rem => a.checked_rem(b)?,
            ArithOp::Quot => a.checked_div(b)?,
            ArithOp::Add => a.checked_add(b)?,
            ArithOp::Sub => a.checked_sub(b)?,
            ArithOp::Mul => a.checked_mul(b)?,
            ArithOp::Lt | ArithOp::Gt | ArithOp::Le | ArithOp::Ge | ArithOp::Eq => return None,
        })
    }

    /// Whether the operation is a comparison (its result a boolean).
    #[inline]
    pub fn is_test(self) -> bool {
        matches!(
            self,
            ArithOp::Lt | ArithOp::Gt | ArithOp::Le | ArithOp::Ge | ArithOp::Eq
        )
    }

    /// The answer of a comparison of two integers; `None` for the
    /// operations that are not comparisons.
    #[inline]
    pub fn test_ints(self, a: i64, b: i64) -> Option<bool> {
        Some(match self {
            ArithOp::Lt => a < b,
            ArithOp::Gt => a > b,
            ArithOp::Le => a <= b,
            ArithOp::Ge => a >= b,
            ArithOp::Eq => a == b,
            _ => return None,
        })
    }

    /// The result for two floats (IEEE semantics, as the builtins); `None`
    /// for the divisions, which the builtins check.
    #[inline]
    pub fn floats(self, a: f64, b: f64) -> Option<Value> {
        Some(match self {
            ArithOp::Mod | ArithOp::Rem | ArithOp::Quot => return None,
            ArithOp::Add => Value::Float(a + b),
            ArithOp::Sub => Value::Float(a - b),
            ArithOp::Mul => Value::Float(a * b),
            ArithOp::Lt => Value::Bool(a < b),
            ArithOp::Gt => Value::Bool(a > b),
            ArithOp::Le => Value::Bool(a <= b),
            ArithOp::Ge => Value::Bool(a >= b),
            ArithOp::Eq => Value::Bool(a == b),
        })
    }
}

/// A map literal with constant keys, see [`Expr::Record`].
pub struct Record {
    /// The value of each key, in the keys' order (their evaluation order).
    pub values: Vec<Expr>,
    /// The keys, distinct, in source order, as the shape every record
    /// this literal builds shares (`value/map`), walked or compiled.
    pub(crate) shape: crate::value::map::Shape,
}

/// Evaluate `value` and store it in `slot`.
pub struct Bind {
    pub slot: Slot,
    pub value: Expr,
}

pub struct Loop {
    /// The bindings, in order: their slots are what `recur` rebinds.
    pub inits: Vec<Bind>,
    /// Destructuring of the bindings, run at every iteration.
    pub prologue: Vec<Bind>,
    pub body: Expr,
    /// The loop compiled by `eval/compile/` the first time the tree walker
    /// meets it (a loop in top-level code).
    pub compiled: std::sync::OnceLock<crate::eval::Compiled>,
}

/// `(recur args…)`: the arguments are evaluated, then stored in `slots`
/// (the loop's bindings or the function's parameters).
pub struct Recur {
    pub args: Vec<Expr>,
    pub slots: Arc<[Slot]>,
    pub span: Span,
}

pub struct Letfn {
    pub slots: Vec<Slot>,
    pub fns: Vec<(Arc<FnProto>, Vec<Expr>)>,
    pub body: Expr,
}

pub struct Def {
    pub id: GlobalId,
    pub name: Arc<str>,
    pub doc: Option<Arc<str>>,
    pub value: Expr,
}

pub struct Call {
    pub f: Expr,
    pub args: Vec<Expr>,
    pub span: Span,
}

pub struct Try {
    pub body: Expr,
    /// The `catch` clauses, tried in order.
    pub catches: Vec<Catch>,
    pub finally: Option<Expr>,
}

/// One `(catch Class name body…)`.
pub struct Catch {
    pub class: CatchClass,
    /// Where the caught error (a map, see `eval::error_value`) is bound.
    pub slot: Slot,
    pub body: Expr,
}

/// The class a `catch` names (one of [`crate::builtins::classes::CLASSES`]):
/// it catches errors of that class and the classes below it (the rule is in
/// `builtins/classes.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CatchClass(pub &'static str);

impl CatchClass {
    /// The known class `name` denotes (`java.lang.` / `clojure.lang.`
    /// prefixes allowed), or a `validation-error` listing the known ones.
    pub fn of(name: &str) -> crate::error::Result<CatchClass> {
        crate::builtins::classes::known(name)
            .map(CatchClass)
            .ok_or_else(|| crate::builtins::classes::unknown_class(name))
    }

    pub fn matches(self, e: &crate::error::Error) -> bool {
        crate::builtins::classes::catches(self.0, e)
    }
}

pub enum ForClause {
    /// `x coll`: bind each item to `slot`, then destructure.
    Each {
        slot: Slot,
        coll: Expr,
        prologue: Vec<Bind>,
    },
    Let(Vec<Bind>),
    When(Expr),
    While(Expr),
}

pub struct For {
    pub clauses: Vec<ForClause>,
    pub body: Expr,
    /// `for` collects the body's values; `doseq` returns nil.
    pub collect: bool,
    pub span: Span,
}

pub struct Case {
    pub value: Expr,
    /// Test constant → branch index.
    pub table: Map,
    pub branches: Vec<Expr>,
    pub default: Option<Expr>,
    pub span: Span,
}

/// One compiled `fn`.
pub struct FnProto {
    pub name: Option<Arc<str>>,
    pub arities: Vec<FnArity>,
    /// How `#fn[...]` shows the parameters: `x y`, `x & more`.
    pub display_params: String,
    /// The parameter vectors as written, e.g. `[x]` or `[x] [x y]` (prelude).
    pub source_params: String,
    pub docstring: Option<Arc<str>>,
    /// The source the body's spans point into.
    pub source: Arc<str>,
    /// For `defn` functions: the user/ definition, whose last return value
    /// the interpreter records (the prelude shows its type, R-25).
    pub global: Option<GlobalId>,
}

pub struct FnArity {
    /// Fixed parameters (slots `0..fixed`).
    pub fixed: usize,
    /// Whether the rest goes into slot `fixed`.
    pub variadic: bool,
    pub frame_size: usize,
    /// Whether a `recur` in the body jumps back to this arity (the caller
    /// then loops; without one the body runs once).
    pub recurs: bool,
    pub prologue: Vec<Bind>,
    pub body: Expr,
    /// The prologue and body compiled by `eval/compile/` at the first call.
    pub compiled: std::sync::OnceLock<crate::eval::Compiled>,
}

impl FnProto {
    /// The arity that takes `n` arguments.
    pub fn arity_for(&self, n: usize) -> Option<&FnArity> {
        self.arities
            .iter()
            .find(|a| !a.variadic && a.fixed == n)
            .or_else(|| self.arities.iter().find(|a| a.variadic && n >= a.fixed))
    }

    /// `1`, `1 or 2`, `at least 1`: the accepted counts, for arity errors.
    pub fn describe_arities(&self) -> String {
        let mut parts: Vec<String> = self
            .arities
            .iter()
            .map(|a| {
                if a.variadic {
                    format!("at least {}", a.fixed)
                } else {
                    a.fixed.to_string()
                }
            })
            .collect();
        parts.dedup();
        parts.join(" or ")
    }
}
