//! The generator's integer shapes (a part of `gen.rs`): `loop`s whose
//! bindings, inits and body are only integer arithmetic, comparisons,
//! `zero?`/`even?`…, `if`, `let`, `and`/`or` tests and `recur` (one to
//! four bindings, nested, reading outer and closure-captured integers),
//! self-recursive integer `defn`s of bounded depth (fib-like, sum-to,
//! gcd, a small Ackermann, `recur` in the body), such loops used by the
//! code around them (`str`, `mapv`), and near misses that leave the
//! integer subset (a `println` in the body, a float binding, a boolean or
//! nil result, a unary minus).
//!
//! Integers stay small: every loop binding is stepped modulo 1000 (`mod`,
//! or `rem` to keep negatives), products are of two leaves, divisors are
//! nonzero constants or locals made nonzero (`(+ 1 (mod x 5))`), and
//! recursion arguments are taken modulo a small bound at the call.

use super::{FnSig, Gen, Ty};

/// Nonzero divisors, negative ones too (floored `mod` against `rem`).
const DIVISORS: [i64; 9] = [1, 2, 3, 7, 10, 97, -3, -7, -10];

/// What a generated integer loop ends in.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Ends {
    Int,
    Bool,
    /// An integer or `nil` (the caller wraps it in `(or … -1)`).
    MaybeNil,
}

/// Whether a local of these shapes is known to be small: loop bindings
/// (`i…`, `a…`, stepped modulo 1000) and divisors (`dv…`).
fn small(name: &str) -> bool {
    name.starts_with('i') || name.starts_with('a') || name.starts_with("dv")
}

impl Gen {
    /// An integer literal, negatives included.
    fn klit(&mut self) -> String {
        (self.below(30) as i64 - 9).to_string()
    }

    /// A leaf: one of `locals` (the integer locals of the loop or
    /// function being generated), an outer integer local, or a literal.
    fn kleaf(&mut self, locals: &[String]) -> String {
        let r = self.below(10);
        if r < 6 && !locals.is_empty() {
            return locals[self.below(locals.len())].clone();
        }
        if r < 8 {
            if let Some(v) = self.var(Ty::Int) {
                return v;
            }
        }
        self.klit()
    }

    /// A leaf known to be small (under 1000): a loop binding of the loop
    /// being generated or of one around it, a nonzero divisor, or a
    /// literal. Products are of these only.
    fn small_leaf(&mut self, locals: &[String]) -> String {
        let small: Vec<&String> = locals.iter().filter(|l| small(l)).collect();
        if !small.is_empty() && self.chance(70) {
            return small[self.below(small.len())].clone();
        }
        self.klit()
    }

    fn divisor(&mut self) -> String {
        self.pick(&DIVISORS).to_string()
    }

    /// An integer expression over `locals` in the integer subset (now and
    /// then a near miss: a unary minus).
    pub(super) fn kexpr(&mut self, locals: &[String], depth: usize) -> String {
        if depth == 0 || self.chance(25) {
            return self.kleaf(locals);
        }
        let d = depth - 1;
        match self.below(15) {
            0 | 1 => format!("(+ {} {})", self.kexpr(locals, d), self.kexpr(locals, d)),
            2 => format!("(- {} {})", self.kexpr(locals, d), self.kexpr(locals, d)),
            3 => format!(
                "(* {} {})",
                self.small_leaf(locals),
                self.small_leaf(locals)
            ),
            4 => format!("(mod {} {})", self.kexpr(locals, d), self.divisor()),
            5 => format!("(rem {} {})", self.kexpr(locals, d), self.divisor()),
            6 => format!("(quot {} {})", self.kexpr(locals, d), self.divisor()),
            7 => format!("(inc {})", self.kexpr(locals, d)),
            8 => format!("(dec {})", self.kexpr(locals, d)),
            9 | 10 => {
                let t = self.ktest(locals, d);
                format!(
                    "(if {t} {} {})",
                    self.kexpr(locals, d),
                    self.kexpr(locals, d)
                )
            }
            11 => {
                let t = self.fresh("t");
                let e = self.kexpr(locals, d);
                let mut inner = locals.to_vec();
                inner.push(t.clone());
                format!("(let [{t} {e}] {})", self.kexpr(&inner, d))
            }
            12 => format!("(- {})", self.kleaf(locals)),
            _ => {
                // Divided by a local made nonzero, either sign.
                let dv = self.fresh("dv");
                let base = self.kleaf(locals);
                let k = 2 + self.below(5);
                let nz = if self.chance(50) {
                    format!("(+ 1 (mod {base} {k}))")
                } else {
                    format!("(- -1 (mod {base} {k}))")
                };
                let op = self.pick(&["quot", "rem", "mod"]);
                let mut inner = locals.to_vec();
                inner.push(dv.clone());
                let x = self.kexpr(&inner, d);
                format!("(let [{dv} {nz}] ({op} {x} {dv}))")
            }
        }
    }

    /// A test in the integer subset: a comparison of two, `zero?`…, and
    /// `and`/`or` of tests.
    pub(super) fn ktest(&mut self, locals: &[String], depth: usize) -> String {
        let d = depth.min(1);
        match self.below(13) {
            0..=4 => {
                let op = self.pick(&["<", ">", "<=", ">=", "="]);
                format!("({op} {} {})", self.kexpr(locals, d), self.kexpr(locals, d))
            }
            5..=9 => {
                let p = self.pick(&["zero?", "pos?", "neg?", "even?", "odd?"]);
                format!("({p} {})", self.kexpr(locals, d))
            }
            10 if depth > 0 => format!(
                "(and {} {})",
                self.ktest(locals, depth - 1),
                self.ktest(locals, depth - 1)
            ),
            11 if depth > 0 => format!(
                "(or {} {})",
                self.ktest(locals, depth - 1),
                self.ktest(locals, depth - 1)
            ),
            _ => format!("(< {} {})", self.kleaf(locals), self.kleaf(locals)),
        }
    }

    /// The next value of a loop binding: modulo 1000, so it stays small.
    fn kstep(&mut self, locals: &[String], d: usize, nest: usize) -> String {
        let e = if nest < 1 && self.chance(20) {
            // A nested integer loop reading the outer loop's locals.
            let inner = self.kernel_loop(locals, 1, nest + 1, Ends::Int);
            format!("(+ {} {inner})", self.kleaf(locals))
        } else {
            self.kexpr(locals, d)
        };
        let op = self.pick(&["mod", "mod", "rem"]);
        format!("({op} {e} 1000)")
    }

    /// An integer `loop` over `outer` (integer locals in scope): a counter
    /// and up to three more bindings, a `let` in the body now and then,
    /// its test a comparison or `and`/`or` of tests; `nest` loops deep.
    pub(super) fn kernel_loop(
        &mut self,
        outer: &[String],
        d: usize,
        nest: usize,
        ends: Ends,
    ) -> String {
        let d = d.clamp(1, 2);
        let i = self.fresh("i");
        let accs: Vec<String> = (0..self.below(4)).map(|_| self.fresh("a")).collect();
        let bound = if nest > 0 {
            self.below(6)
        } else {
            self.below(13)
        };
        let near_miss = self.below(12);
        let mut binds = Vec::new();
        let down = self.chance(35);
        binds.push(format!("{i} {}", if down { bound } else { 0 }));
        for a in &accs {
            let init = match self.below(4) {
                0 => self.klit(),
                1 => self.small_leaf(outer),
                _ => format!("(rem {} 1000)", self.kexpr(outer, 1)),
            };
            binds.push(format!("{a} {init}"));
        }
        // A float binding: never integers only.
        let float = (near_miss == 0).then(|| self.fresh("f"));
        if let Some(f) = &float {
            binds.push(format!("{f} {}.5", self.below(5)));
        }
        let mut locals: Vec<String> = outer.to_vec();
        locals.push(i.clone());
        locals.extend(accs.iter().cloned());
        // A let before the test.
        let t = self.chance(30).then(|| self.fresh("t"));
        let t_bind = t.as_ref().map(|t| {
            let e = self.kexpr(&locals, d);
            format!("{t} {e}")
        });
        if let Some(t) = &t {
            locals.push(t.clone());
        }
        let (counts, done) = if down {
            let step = self.pick(&["(dec {i})", "(- {i} 1)"]).replace("{i}", &i);
            let done = self.pick(&["(zero? {i})", "(<= {i} 0)", "(not (pos? {i}))"]);
            (step, done.replace("{i}", &i))
        } else {
            let step = self.pick(&["(inc {i})", "(+ {i} 1)", "(+ 1 {i})", "(+ {i} 2)"]);
            let done = self.pick(&["(>= {i} {n})", "(> {i} (dec {n}))", "(not (< {i} {n}))"]);
            (
                step.replace("{i}", &i),
                done.replace("{i}", &i).replace("{n}", &bound.to_string()),
            )
        };
        let mut steps = vec![counts];
        for _ in &accs {
            steps.push(self.kstep(&locals, d, nest));
        }
        if let Some(f) = &float {
            steps.push(format!("(+ {f} {})", self.kleaf(&locals)));
        }
        // The value is small again (under 1000), as the generator's
        // integers are: a binding, or a remainder.
        let own: Vec<String> = std::iter::once(i.clone())
            .chain(accs.iter().cloned())
            .collect();
        let value = |g: &mut Gen| match &float {
            Some(f) => format!("(rem (+ (int {f}) {}) 1000)", g.kexpr(&locals, 1)),
            None if g.chance(40) => own[g.below(own.len())].clone(),
            None => {
                let op = g.pick(&["mod", "rem"]);
                format!("({op} {} 1000)", g.kexpr(&locals, 1))
            }
        };
        let result = match ends {
            Ends::Int => value(self),
            Ends::Bool => self.ktest(&locals, 1),
            Ends::MaybeNil => {
                let c = self.ktest(&locals, 1);
                format!("(when {c} {})", value(self))
            }
        };
        let recur = format!("(recur {})", steps.join(" "));
        // The test: the counter's, or with another test by `or` (still
        // ends: the counter is part of it).
        let body = if self.chance(20) {
            let other = self.ktest(&locals, 0);
            format!("(if (or {done} {other}) {result} {recur})")
        } else if self.chance(20) {
            let other = self.ktest(&locals, 0);
            let go = format!("(not {done})");
            format!("(if (and {go} {other}) {recur} {result})")
        } else if self.chance(50) {
            format!("(if {done} {result} {recur})")
        } else {
            let go = match done.strip_prefix("(not ") {
                Some(rest) => rest[..rest.len() - 1].to_string(),
                None => format!("(not {done})"),
            };
            format!("(if {go} {recur} {result})")
        };
        let body = match t_bind {
            Some(b) => format!("(let [{b}] {body})"),
            None => body,
        };
        // A loop that prints as it goes: never integers only.
        let body = if near_miss == 1 && nest == 0 {
            format!("(do (println \"at\" {i}) {body})")
        } else {
            body
        };
        format!("(loop [{}] {body})", binds.join(" "))
    }

    /// An integer expression that is (or holds) an integer loop: over the
    /// integer locals in scope, in an immediately called closure over a
    /// captured integer, or ending in `nil` and defaulted.
    pub(super) fn kernel_int(&mut self, d: usize) -> String {
        match self.below(5) {
            0 => {
                let (k, x) = (self.fresh("k"), self.fresh("x"));
                let init = self.kexpr(&[], 1);
                let arg = self.kexpr(&[], 1);
                let body = self.kernel_loop(&[k.clone(), x.clone()], d, 0, Ends::Int);
                format!("(let [{k} {init}] ((fn [{x}] {body}) {arg}))")
            }
            1 => format!("(or {} -1)", self.kernel_loop(&[], d, 0, Ends::MaybeNil)),
            _ => self.kernel_loop(&[], d, 0, Ends::Int),
        }
    }

    /// A vector of integer loops, one per item, each over the item and a
    /// captured integer.
    pub(super) fn kernel_mapv(&mut self, d: usize) -> String {
        let (k, x) = (self.fresh("k"), self.fresh("x"));
        let init = self.kexpr(&[], 1);
        let items = self.expr(Ty::Vec, d.min(1));
        let body = self.kernel_loop(&[k.clone(), x.clone()], d, 0, Ends::Int);
        format!("(let [{k} {init}] (mapv (fn [{x}] {body}) {items}))")
    }

    /// A string holding an integer loop's value.
    pub(super) fn kernel_str(&mut self, d: usize) -> String {
        let e = self.kernel_int(d);
        format!("(str \"x\" {e})")
    }

    /// A boolean: an integer loop ending in a test.
    pub(super) fn kernel_bool(&mut self, d: usize) -> String {
        self.kernel_loop(&[], d, 0, Ends::Bool)
    }

    /// A `defn` in the integer subset: self-recursive (fib-like, sum-to,
    /// gcd, Ackermann, power, a bounded Collatz count, `recur` with an
    /// accumulator), or an integer loop over its parameters.
    pub(super) fn kernel_defn(&mut self, name: &str) -> (String, FnSig) {
        let f = name;
        let sig = |params: usize, mods: Vec<Option<i64>>| FnSig {
            name: f.to_string(),
            params: vec![Ty::Int; params],
            ret: Ty::Int,
            mods,
        };
        let (n, a) = (self.fresh("n"), self.fresh("m"));
        match self.below(9) {
            0 => {
                let le = self.pick(&["(< {n} 2)", "(<= {n} 1)"]).replace("{n}", &n);
                let text =
                    format!("(defn {f} [{n}] (if {le} {n} (+ ({f} (- {n} 1)) ({f} (- {n} 2)))))");
                (text, sig(1, vec![Some(13)]))
            }
            1 => {
                let text = format!("(defn {f} [{n}] (if (zero? {n}) 0 (+ {n} ({f} (dec {n})))))");
                (text, sig(1, vec![Some(40)]))
            }
            2 => {
                let op = self.pick(&["mod", "rem"]);
                let text =
                    format!("(defn {f} [{a} {n}] (if (zero? {n}) {a} ({f} {n} ({op} {a} {n}))))");
                (text, sig(2, vec![Some(60), Some(60)]))
            }
            3 => {
                let text = format!(
                    "(defn {f} [{a} {n}] (if (zero? {a}) (inc {n}) (if (zero? {n}) ({f} (dec {a}) 1) ({f} (dec {a}) ({f} {a} (dec {n}))))))"
                );
                (text, sig(2, vec![Some(3), Some(4)]))
            }
            4 => {
                let text =
                    format!("(defn {f} [{a} {n}] (if (zero? {n}) 1 (* {a} ({f} {a} (dec {n})))))");
                (text, sig(2, vec![Some(8), Some(8)]))
            }
            5 => {
                let text = format!(
                    "(defn {f} [{a} {n}] (if (or (<= {a} 1) (zero? {n})) {n} ({f} (if (even? {a}) (quot {a} 2) (+ (* 3 {a}) 1)) (dec {n}))))"
                );
                (text, sig(2, vec![Some(50), Some(30)]))
            }
            6 => {
                let step = self.kexpr(&[n.clone(), a.clone()], 2);
                let text = format!(
                    "(defn {f} [{n} {a}] (if (<= {n} 0) {a} (recur (dec {n}) (mod {step} 1000))))"
                );
                (text, sig(2, vec![Some(50), None]))
            }
            7 => {
                // Non-tail self-calls, each adding a term.
                let locals = [n.clone(), a.clone()];
                let term = self.kexpr(&locals, 2);
                let next = self.kexpr(&locals, 1);
                let done = self.kexpr(std::slice::from_ref(&a), 1);
                let text = format!(
                    "(defn {f} [{n} {a}] (if (<= {n} 0) (rem {done} 1000) (+ (rem {term} 1000) ({f} (dec {n}) (rem {next} 1000)))))"
                );
                (text, sig(2, vec![Some(10), None]))
            }
            _ => {
                let body = self.kernel_loop(&[n.clone(), a.clone()], 2, 0, Ends::Int);
                let text = format!("(defn {f} [{n} {a}] {body})");
                (text, sig(2, vec![None, None]))
            }
        }
    }
}
