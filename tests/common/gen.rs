//! A generator of random PTC-Lisp programs in the shapes models write and
//! where the evaluator's fast paths bite (issue 58): functions with
//! closures over locals, `loop`/`recur` with several accumulators, `let`
//! chains ending a loop's iteration that read outer locals, `reduce` with
//! vector, map and set accumulators, transducers, `fnil`/`partial`/`comp`,
//! destructuring, `letfn`, `try`, and a local read again after it was
//! passed to `conj`/`assoc`/`count`/`nth`/`subs`/`str`/`into`; and
//! integer-only `loop`s and self-recursive integer `defn`s, with near
//! misses (`gen_kernel.rs`).
//!
//! Every program is well typed and terminates: loops count to a bound or
//! over a collection, recursion is bounded, integers stay small (products
//! are taken modulo a prime), indices are guarded. Programs are plain
//! Clojure 1.11 as well (sets and maps leave the program sorted, so the
//! printed result does not depend on hash order), so the same programs
//! check Clojure itself (`tests/differential/run.sh --generated`).
//!
//! Deterministic: [`program`] of a seed is always the same text. Shared
//! by `tests/generated.rs` (fixed seeds, and a long run) and the fuzz
//! target `tests/fuzz/fuzz_targets/generated.rs`.
#![allow(dead_code)]

#[path = "gen_kernel.rs"]
mod kernel;

/// The value types programs are typed with.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Ty {
    Int,
    Vec,
    Map,
    Set,
    Str,
    Bool,
}

const TYS: [Ty; 6] = [Ty::Int, Ty::Vec, Ty::Map, Ty::Set, Ty::Str, Ty::Bool];
const KEYS: [&str; 5] = [":a", ":b", ":c", ":d", ":e"];
const STRS: [&str; 6] = [
    "\"\"",
    "\"ab\"",
    "\"hello\"",
    "\"a,b,c\"",
    "\"xyz\"",
    "\"banana\"",
];

/// A variable in scope: how to read it (a name, or `(or a 0)` for a
/// destructured item that may be missing) and its type.
#[derive(Clone)]
struct Var {
    read: String,
    ty: Ty,
}

#[derive(Clone)]
struct FnSig {
    name: String,
    params: Vec<Ty>,
    ret: Ty,
    /// Per parameter, a bound its argument is taken modulo (a recursion
    /// count stays small); empty for none.
    mods: Vec<Option<i64>>,
}

/// The generator's state: its random numbers, the variables in scope and
/// the functions defined so far.
pub struct Gen {
    state: u64,
    /// Choices given from outside (a fuzzer's input), used before the
    /// random numbers.
    choices: Vec<u8>,
    next_name: usize,
    vars: Vec<Var>,
    fns: Vec<FnSig>,
}

/// The program of `seed`.
pub fn program(seed: u64) -> String {
    Gen::new(seed).program()
}

impl Gen {
    pub fn new(seed: u64) -> Gen {
        Gen {
            state: seed ^ 0x9E37_79B9_7F4A_7C15,
            choices: Vec::new(),
            next_name: 0,
            vars: Vec::new(),
            fns: Vec::new(),
        }
    }

    /// A generator whose choices are `bytes` (two a choice), then random
    /// numbers seeded by them: a fuzzer mutating the bytes mutates the
    /// program's shape.
    pub fn from_bytes(bytes: &[u8]) -> Gen {
        let seed = bytes.iter().fold(0xCBF2_9CE4_8422_2325u64, |h, b| {
            (h ^ u64::from(*b)).wrapping_mul(0x100_0000_01B3)
        });
        let mut g = Gen::new(seed);
        g.choices = bytes.iter().rev().copied().collect();
        g
    }

    /// splitmix64, after the choices given.
    fn next(&mut self) -> u64 {
        if self.choices.len() >= 2 {
            let (a, b) = (
                self.choices.pop().unwrap_or(0),
                self.choices.pop().unwrap_or(0),
            );
            return u64::from(u16::from_le_bytes([a, b]));
        }
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }

    fn fresh(&mut self, base: &str) -> String {
        self.next_name += 1;
        format!("{base}{}", self.next_name)
    }

    fn ty(&mut self) -> Ty {
        self.pick(&TYS)
    }

    fn key(&mut self) -> &'static str {
        self.pick(&KEYS)
    }

    /// A variable of type `ty` in scope, if any.
    fn var(&mut self, ty: Ty) -> Option<String> {
        let of: Vec<String> = self
            .vars
            .iter()
            .filter(|v| v.ty == ty)
            .map(|v| v.read.clone())
            .collect();
        match of.len() {
            0 => None,
            n => Some(of[self.below(n)].clone()),
        }
    }

    fn with_vars<R>(&mut self, vars: Vec<Var>, f: impl FnOnce(&mut Gen) -> R) -> R {
        let n = self.vars.len();
        self.vars.extend(vars);
        let r = f(self);
        self.vars.truncate(n);
        r
    }

    fn local(read: &str, ty: Ty) -> Var {
        Var {
            read: read.to_string(),
            ty,
        }
    }

    /// A whole program: definitions, functions, prints, and a result that
    /// reads its locals again after passing them on.
    pub fn program(&mut self) -> String {
        let mut out = Vec::new();
        for _ in 0..1 + self.below(3) {
            let ty = self.ty();
            let name = self.fresh("g");
            let e = self.expr(ty, 3);
            out.push(format!("(def {name} {e})"));
            self.vars.push(Gen::local(&name, ty));
        }
        for _ in 0..1 + self.below(3) {
            out.push(self.defn());
        }
        if self.chance(40) {
            let ty = self.ty();
            let e = self.expr(ty, 2);
            out.push(format!("(println {})", self.leaving(ty, &e)));
        }
        out.push(self.result());
        out.join("\n")
    }

    /// The last form: a `let` of locals, then a vector of expressions over
    /// them, each local read again at the end.
    fn result(&mut self) -> String {
        let mut binds = Vec::new();
        let mut vars = Vec::new();
        for _ in 0..1 + self.below(3) {
            let ty = self.ty();
            let name = self.fresh("r");
            let e = self.with_vars(vars.clone(), |g| g.expr(ty, 3));
            binds.push(format!("{name} {e}"));
            vars.push(Gen::local(&name, ty));
        }
        let items = self.with_vars(vars.clone(), |g| {
            let mut items = Vec::new();
            for _ in 0..2 + g.below(3) {
                let ty = g.ty();
                let e = g.expr(ty, 3);
                items.push(g.leaving(ty, &e));
            }
            for v in &vars {
                items.push(g.leaving(v.ty, &v.read));
            }
            items
        });
        format!("(let [{}]\n  [{}])", binds.join(" "), items.join("\n   "))
    }

    /// `e` as it leaves the program: a set sorted, a map into a sorted map
    /// (printed the same by Clojure and ptc whatever the hash order).
    fn leaving(&mut self, ty: Ty, e: &str) -> String {
        match ty {
            Ty::Set => format!("(vec (sort {e}))"),
            Ty::Map => format!("(into (sorted-map) {e})"),
            _ => e.to_string(),
        }
    }

    fn defn(&mut self) -> String {
        let name = self.fresh("f");
        let ret = self.ty();
        let n = 1 + self.below(2);
        let params: Vec<Ty> = (0..n).map(|_| self.ty()).collect();
        let shape = self.below(13);
        let text = match shape {
            // Integers only: self-recursive, or a loop over the parameters.
            10..=12 => {
                let (text, sig) = self.kernel_defn(&name);
                self.fns.push(sig);
                return text;
            }
            // A loop over a parameter by index, its iteration ending in a
            // let that reads the parameter (issue 58's shape).
            0 | 1 => {
                let v = self.fresh("v");
                let body = self.with_vars(vec![Gen::local(&v, Ty::Vec)], |g| {
                    let i = g.fresh("i");
                    let acc = g.fresh("acc");
                    let x = g.fresh("x");
                    let n = g.fresh("n");
                    let step = g.with_vars(
                        vec![
                            Gen::local(&x, Ty::Int),
                            Gen::local(&acc, Ty::Int),
                            Gen::local(&i, Ty::Int),
                        ],
                        |g| g.expr(Ty::Int, 1),
                    );
                    format!(
                        "(loop [{i} 0 {acc} 0] (let [{n} (count {v}) {x} (nth {v} {i} 0)] (if (< {i} {n}) (recur (inc {i}) (mod (+ {acc} {step}) 1000)) {acc})))"
                    )
                });
                self.fns.push(FnSig {
                    name: name.clone(),
                    params: vec![Ty::Vec],
                    ret: Ty::Int,
                    mods: Vec::new(),
                });
                return format!("(defn {name} [{v}] {body})");
            }
            // Self-recursion through recur, an accumulator passed on.
            2 => {
                let acc = self.fresh("acc");
                let k = self.fresh("k");
                let body = self.with_vars(
                    vec![Gen::local(&acc, Ty::Vec), Gen::local(&k, Ty::Int)],
                    |g| {
                        let item = g.expr(Ty::Int, 1);
                        let done = g.expr(Ty::Vec, 1);
                        format!("(if (<= {k} 0) {done} (recur (conj {acc} {item}) (dec {k})))")
                    },
                );
                self.fns.push(FnSig {
                    name: name.clone(),
                    params: vec![Ty::Vec, Ty::Int],
                    ret: Ty::Vec,
                    mods: vec![None, Some(6)],
                });
                return format!("(defn {name} [{acc} {k}] {body})");
            }
            // Destructured parameters.
            3 => {
                let (a, b) = (self.fresh("a"), self.fresh("b"));
                let m = self.fresh("m");
                let vars = vec![
                    Gen::local(&format!("(or {a} 0)"), Ty::Int),
                    Gen::local(&format!("(or {b} 0)"), Ty::Int),
                    Gen::local(&m, Ty::Map),
                ];
                let body = self.with_vars(vars, |g| g.expr(ret, 3));
                self.fns.push(FnSig {
                    name: name.clone(),
                    params: vec![Ty::Vec, Ty::Map],
                    ret,
                    mods: Vec::new(),
                });
                return format!("(defn {name} [[{a} {b}] {m}] {body})");
            }
            _ => {
                let names: Vec<String> = params.iter().map(|_| self.fresh("p")).collect();
                let vars = names
                    .iter()
                    .zip(&params)
                    .map(|(n, t)| Gen::local(n, *t))
                    .collect();
                let body = self.with_vars(vars, |g| g.expr(ret, 3));
                format!("(defn {name} [{}] {body})", names.join(" "))
            }
        };
        self.fns.push(FnSig {
            name,
            params,
            ret,
            mods: Vec::new(),
        });
        text
    }

    /// A call of a defined function returning `ty`, if there is one.
    fn call(&mut self, ty: Ty, depth: usize) -> Option<String> {
        let of: Vec<FnSig> = self.fns.iter().filter(|f| f.ret == ty).cloned().collect();
        if of.is_empty() {
            return None;
        }
        let f = of[self.below(of.len())].clone();
        let args: Vec<String> = f
            .params
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let e = self.expr(*t, depth);
                // A recursion count stays small.
                match f.mods.get(i).copied().flatten() {
                    Some(k) => format!("(mod {e} {k})"),
                    None => e,
                }
            })
            .collect();
        Some(format!("({} {})", f.name, args.join(" ")))
    }

    /// A leaf of type `ty`: a variable or a literal.
    fn leaf(&mut self, ty: Ty) -> String {
        if self.chance(70) {
            if let Some(v) = self.var(ty) {
                return v;
            }
        }
        match ty {
            Ty::Int => (self.below(25) as i64 - 5).to_string(),
            Ty::Vec => {
                let n = self.below(5);
                let items: Vec<String> = (0..n).map(|_| self.below(20).to_string()).collect();
                match self.below(3) {
                    0 => format!("(vec (range {}))", self.below(12)),
                    _ => format!("[{}]", items.join(" ")),
                }
            }
            Ty::Map => {
                let n = self.below(4);
                let mut keys: Vec<&str> = KEYS.to_vec();
                let mut pairs = Vec::new();
                for _ in 0..n {
                    let k = keys.remove(self.below(keys.len()));
                    pairs.push(format!("{k} {}", self.below(10)));
                }
                format!("{{{}}}", pairs.join(" "))
            }
            Ty::Set => {
                let n = self.below(4);
                let items: Vec<String> = (0..n).map(|_| self.below(10).to_string()).collect();
                format!("(set [{}])", items.join(" "))
            }
            Ty::Str => self.pick(&STRS).to_string(),
            Ty::Bool => self.pick(&["true", "false"]).to_string(),
        }
    }

    /// An expression of type `ty`, at most `depth` levels of composite
    /// forms deep.
    pub fn expr(&mut self, ty: Ty, depth: usize) -> String {
        if depth == 0 || self.chance(15) {
            return self.leaf(ty);
        }
        let d = depth - 1;
        // Forms of every type.
        match self.below(14) {
            0 => {
                let c = self.expr(Ty::Bool, d);
                let (t, e) = (self.expr(ty, d), self.expr(ty, d));
                return format!("(if {c} {t} {e})");
            }
            1 | 2 => return self.let_form(ty, d),
            3 => {
                if let Some(c) = self.call(ty, d) {
                    return c;
                }
            }
            4 => {
                // An immediately called closure over the locals in scope.
                let x = self.fresh("x");
                let at = self.ty();
                let arg = self.expr(at, d);
                let body = self.with_vars(vec![Gen::local(&x, at)], |g| g.expr(ty, d));
                return format!("((fn [{x}] {body}) {arg})");
            }
            _ => {}
        }
        match ty {
            Ty::Int => self.int(d),
            Ty::Vec => self.vector(d),
            Ty::Map => self.map(d),
            Ty::Set => self.set(d),
            Ty::Str => self.string(d),
            Ty::Bool => self.boolean(d),
        }
    }

    /// `(let [a E …] body)`, sometimes destructuring, its body reading the
    /// new locals and the old.
    fn let_form(&mut self, ty: Ty, d: usize) -> String {
        let mut binds = Vec::new();
        let mut vars = Vec::new();
        for _ in 0..1 + self.below(3) {
            if self.chance(20) {
                let v = self.with_vars(vars.clone(), |g| g.expr(Ty::Vec, d));
                let (a, b) = (self.fresh("a"), self.fresh("b"));
                binds.push(format!("[{a} {b}] {v}"));
                vars.push(Gen::local(&format!("(or {a} 0)"), Ty::Int));
                vars.push(Gen::local(&format!("(or {b} 0)"), Ty::Int));
            } else if self.chance(15) {
                let m = self.with_vars(vars.clone(), |g| g.expr(Ty::Map, d));
                let (a, b) = (self.fresh("k"), self.fresh("k"));
                binds.push(format!("{{{a} :a {b} :b}} {m}"));
                vars.push(Gen::local(&format!("(or {a} 0)"), Ty::Int));
                vars.push(Gen::local(&format!("(or {b} 0)"), Ty::Int));
            } else {
                let t = self.ty();
                let name = self.fresh("l");
                let e = self.with_vars(vars.clone(), |g| g.expr(t, d));
                binds.push(format!("{name} {e}"));
                vars.push(Gen::local(&name, t));
            }
        }
        let body = self.with_vars(vars, |g| g.expr(ty, d));
        format!("(let [{}] {body})", binds.join(" "))
    }

    /// A loop counting `i` to a bound, with one or two accumulators, its
    /// iteration ending in a `let` that reads outer locals.
    fn counting_loop(&mut self, ty: Ty, d: usize) -> String {
        let (i, acc, y) = (self.fresh("i"), self.fresh("acc"), self.fresh("y"));
        let bound = self.below(8);
        let init = self.expr(ty, d);
        // What each iteration reads first: outer locals, in a let that
        // ends the iteration.
        let rt = self.ty();
        let read = self.expr(rt, d);
        let step = self.with_vars(
            vec![
                Gen::local(&i, Ty::Int),
                Gen::local(&acc, ty),
                Gen::local(&y, rt),
            ],
            |g| g.grow(ty, &acc, d),
        );
        if self.chance(40) {
            let (n, c) = (self.fresh("n"), self.fresh("c"));
            let other = self.with_vars(vec![Gen::local(&i, Ty::Int)], |g| g.expr(Ty::Int, d));
            format!(
                "(loop [{i} 0 {acc} {init} {n} 0] (let [{y} {read} {c} (mod (+ {n} {other}) 1000)] (if (< {i} {bound}) (recur (inc {i}) {step} {c}) {acc})))"
            )
        } else {
            format!(
                "(loop [{i} 0 {acc} {init}] (let [{y} {read}] (if (< {i} {bound}) (recur (inc {i}) {step}) {acc})))"
            )
        }
    }

    /// The next value of an accumulator `acc` of type `ty`.
    fn grow(&mut self, ty: Ty, acc: &str, d: usize) -> String {
        match ty {
            Ty::Int => format!("(mod (+ {acc} {}) 1000)", self.expr(Ty::Int, d)),
            Ty::Vec => format!("(conj {acc} {})", self.expr(Ty::Int, d)),
            Ty::Map => format!("(assoc {acc} {} {})", self.key(), self.expr(Ty::Int, d)),
            Ty::Set => format!("(conj {acc} {})", self.expr(Ty::Int, d)),
            Ty::Str => format!("(str {acc} {})", self.expr(Ty::Int, d)),
            Ty::Bool => format!("(not {acc})"),
        }
    }

    /// A reducing function over items `x` adding to an accumulator of `ty`.
    fn reducing_fn(&mut self, ty: Ty, d: usize) -> String {
        let (acc, x) = (self.fresh("acc"), self.fresh("x"));
        let body = self.with_vars(vec![Gen::local(&acc, ty), Gen::local(&x, Ty::Int)], |g| {
            let grown = g.grow(ty, &acc, d);
            if g.chance(30) {
                // A let ending the frame.
                let a = g.fresh("a");
                format!("(let [{a} {grown}] {a})")
            } else {
                grown
            }
        });
        format!("(fn [{acc} {x}] {body})")
    }

    fn int(&mut self, d: usize) -> String {
        let e = |g: &mut Gen, t| g.expr(t, d);
        match self.below(34) {
            30..=33 => self.kernel_int(d),
            0 => format!("(count {})", e(self, Ty::Vec)),
            1 => format!("(count {})", e(self, Ty::Map)),
            2 => format!("(count {})", e(self, Ty::Set)),
            3 => format!("(count {})", e(self, Ty::Str)),
            4 => format!("(nth {} {} 0)", e(self, Ty::Vec), e(self, Ty::Int)),
            5 => format!("(get {} {} 0)", e(self, Ty::Map), self.key()),
            6 => format!("(+ {} {})", e(self, Ty::Int), e(self, Ty::Int)),
            7 => format!("(mod (* {} {}) 89)", e(self, Ty::Int), e(self, Ty::Int)),
            8 => format!("(- {} {})", e(self, Ty::Int), e(self, Ty::Int)),
            9 => format!("(reduce + 0 {})", e(self, Ty::Vec)),
            10 => format!("(apply + {})", e(self, Ty::Vec)),
            11 => format!("(transduce (map inc) + 0 {})", e(self, Ty::Vec)),
            12 => format!("(transduce (filter odd?) + 0 {})", e(self, Ty::Vec)),
            13 => format!("(or (first {}) 0)", e(self, Ty::Vec)),
            14 => format!("(or (last {}) 0)", e(self, Ty::Vec)),
            15 => format!("(count (filter even? {}))", e(self, Ty::Vec)),
            16 => {
                let f = self.reducing_fn(Ty::Int, d);
                format!("(reduce {f} 0 {})", e(self, Ty::Vec))
            }
            17 => self.counting_loop(Ty::Int, d),
            // Out of range: Clojure throws, ptc gives nil (language.md).
            18 => format!(
                "(or (try (nth {} {}) (catch Exception e -1)) -1)",
                e(self, Ty::Vec),
                e(self, Ty::Int)
            ),
            19 => {
                let h = self.fresh("h");
                format!(
                    "(letfn [({h} [x] (if (<= x 0) 0 (+ x ({h} (dec x)))))] ({h} (mod {} 10)))",
                    e(self, Ty::Int)
                )
            }
            20 => {
                let z = self.fresh("z");
                let bound = e(self, Ty::Int);
                format!(
                    "(or (some (fn [{z}] (when (> {z} {bound}) {z})) {}) -1)",
                    e(self, Ty::Vec)
                )
            }
            21 => format!("(max {} {})", e(self, Ty::Int), e(self, Ty::Int)),
            22 => format!("(inc {})", e(self, Ty::Int)),
            23 => format!("(get-in {{:m {}}} [:m {}] 0)", e(self, Ty::Map), self.key()),
            24 => format!("(count (str {} {}))", e(self, Ty::Str), e(self, Ty::Int)),
            // Answered from the map (`builtins/coll/entry_count.rs`).
            25 => format!("(count (keys {}))", e(self, Ty::Map)),
            26 => format!("(+ (count (vals {})) (count (keys nil)))", e(self, Ty::Map)),
            27 => {
                // `nth` walking a string (ASCII or not), the loop test
                // counting it each time.
                let s = self.pick(&["\"h\u{e9}llo w\u{f6}rld\"", "\"plain text\""]);
                let (t, i, n) = (self.fresh("t"), self.fresh("i"), self.fresh("n"));
                format!(
                    "(let [{t} (str {s} {})] (loop [{i} 0 {n} 0] (if (< {i} (count {t})) (recur (inc {i}) (if (= (nth {t} {i}) \"l\") (inc {n}) {n})) {n})))",
                    e(self, Ty::Str)
                )
            }
            28 => {
                // `rest` walking a vector.
                let (v, t) = (self.fresh("v"), self.fresh("t"));
                format!(
                    "(loop [{v} {} {t} 0] (if (seq {v}) (recur (rest {v}) (+ {t} (first {v}))) {t}))",
                    e(self, Ty::Vec)
                )
            }
            29 => {
                // Reads a vector by index in a loop, the vector an outer
                // local (issue 58's shape).
                let v = e(self, Ty::Vec);
                let (w, i, s) = (self.fresh("w"), self.fresh("i"), self.fresh("s"));
                format!(
                    "(let [{w} {v}] (loop [{i} 0 {s} 0] (let [n (count {w})] (if (< {i} n) (recur (inc {i}) (+ {s} (nth {w} {i}))) {s}))))"
                )
            }
            _ => unreachable!(),
        }
    }

    fn vector(&mut self, d: usize) -> String {
        let e = |g: &mut Gen, t| g.expr(t, d);
        match self.below(28) {
            24 => self.kernel_mapv(d),
            // Cuts of a vector past a small one's 64 items (slices of its
            // items), then written to (a slice made a tree of its own):
            // the vector cut from never changes. Small results, so that
            // accumulators over them stay in range.
            25..=27 => {
                let (v, c) = (self.fresh("v"), self.fresh("c"));
                let big = format!(
                    "(into (vec (range {})) {})",
                    60 + self.below(80),
                    e(self, Ty::Vec)
                );
                let x = e(self, Ty::Int);
                let (cut, written) = match self.below(3) {
                    0 => (format!("(rest {v})"), format!("(conj {c} {x})")),
                    1 => (format!("(drop 2 {v})"), format!("(assoc (vec {c}) 0 {x})")),
                    _ => (
                        format!("(subvec {v} (quot (count {v}) 2))"),
                        format!("(into {c} (nthrest {v} 1))"),
                    ),
                };
                format!(
                    "(let [{v} {big} {c} {cut} w {written}] [(count {c}) (first {c}) (last w) (count w) (nth {v} 2) (count {v})])"
                )
            }
            0 => format!("(conj {} {})", e(self, Ty::Vec), e(self, Ty::Int)),
            1 => {
                let (v, x) = (self.fresh("v"), e(self, Ty::Int));
                let at = e(self, Ty::Int);
                format!(
                    "(let [{v} {}] (if (pos? (count {v})) (assoc {v} (mod {at} (count {v})) {x}) {v}))",
                    e(self, Ty::Vec)
                )
            }
            2 => {
                let x = self.fresh("x");
                let body = self.with_vars(vec![Gen::local(&x, Ty::Int)], |g| g.expr(Ty::Int, d));
                format!("(mapv (fn [{x}] {body}) {})", e(self, Ty::Vec))
            }
            3 => {
                let x = self.fresh("x");
                let body = self.with_vars(vec![Gen::local(&x, Ty::Int)], |g| g.expr(Ty::Bool, d));
                format!("(filterv (fn [{x}] {body}) {})", e(self, Ty::Vec))
            }
            4 => format!("(into {} {})", e(self, Ty::Vec), e(self, Ty::Vec)),
            5 => format!("(into [] (map inc) {})", e(self, Ty::Vec)),
            6 => format!(
                "(into [] (comp (filter odd?) (map inc)) {})",
                e(self, Ty::Vec)
            ),
            7 => format!("(vec (concat {} {}))", e(self, Ty::Vec), e(self, Ty::Vec)),
            8 => {
                let f = self.reducing_fn(Ty::Vec, d);
                format!("(reduce {f} {} {})", e(self, Ty::Vec), e(self, Ty::Vec))
            }
            9 => self.counting_loop(Ty::Vec, d),
            10 => format!("(vec (sort {}))", e(self, Ty::Vec)),
            11 => format!("(vec (distinct {}))", e(self, Ty::Vec)),
            12 => format!("(vec (take 3 {}))", e(self, Ty::Vec)),
            13 => format!("(vec (rest {}))", e(self, Ty::Vec)),
            14 => format!(
                "(reduce (fnil conj []) {} {})",
                e(self, Ty::Vec),
                e(self, Ty::Vec)
            ),
            15 => format!(
                "(reduce (partial conj) {} {})",
                e(self, Ty::Vec),
                e(self, Ty::Vec)
            ),
            16 => format!("((comp vec reverse) {})", e(self, Ty::Vec)),
            17 => format!("(mapv + {} {})", e(self, Ty::Vec), e(self, Ty::Vec)),
            18 => format!(
                "(vec (map-indexed (fn [i x] (+ i x)) {}))",
                e(self, Ty::Vec)
            ),
            19 => {
                let x = self.fresh("x");
                let (c, b) = self.with_vars(vec![Gen::local(&x, Ty::Int)], |g| {
                    (g.expr(Ty::Bool, d), g.expr(Ty::Int, d))
                });
                format!("(vec (for [{x} {} :when {c}] {b}))", e(self, Ty::Vec))
            }
            20 => format!("(mapv (fn [k] (get {} k 0)) [:a :b :c])", e(self, Ty::Map)),
            21 => format!("(vec (sort (vals {})))", e(self, Ty::Map)),
            22 => {
                let (v, i) = (self.fresh("v"), e(self, Ty::Int));
                format!(
                    "(let [{v} {}] (if (pos? (count {v})) (update {v} (mod {i} (count {v})) inc) {v}))",
                    e(self, Ty::Vec)
                )
            }
            _ => format!("(vec (sort {}))", e(self, Ty::Set)),
        }
    }

    fn map(&mut self, d: usize) -> String {
        let e = |g: &mut Gen, t| g.expr(t, d);
        match self.below(14) {
            0 => format!("(assoc {} {} {})", e(self, Ty::Map), self.key(), e(self, Ty::Int)),
            1 => format!("(dissoc {} {})", e(self, Ty::Map), self.key()),
            2 => format!("(update {} {} (fnil inc 0))", e(self, Ty::Map), self.key()),
            3 => format!(
                "(update {} {} (fnil + 0) {})",
                e(self, Ty::Map),
                self.key(),
                e(self, Ty::Int)
            ),
            4 => format!("(merge {} {})", e(self, Ty::Map), e(self, Ty::Map)),
            5 => format!("(merge-with + {} {})", e(self, Ty::Map), e(self, Ty::Map)),
            6 => format!("(select-keys {} [{} {}])", e(self, Ty::Map), self.key(), self.key()),
            7 => format!(
                "(reduce (fn [acc x] (update acc (nth [:a :b :c :d :e] (mod x 5)) (fnil + 0) x)) {} {})",
                e(self, Ty::Map),
                e(self, Ty::Vec)
            ),
            8 => format!("(zipmap [:a :b] [{} {}])", e(self, Ty::Int), e(self, Ty::Int)),
            9 => format!(
                "(into {{}} (map (fn [x] [(nth [:a :b :c :d :e] (mod x 5)) x]) {}))",
                e(self, Ty::Vec)
            ),
            10 => self.counting_loop(Ty::Map, d),
            11 => format!(
                "(reduce-kv (fn [acc k v] (assoc acc k (inc v))) {{}} {})",
                e(self, Ty::Map)
            ),
            12 => format!("(update-vals {} inc)", e(self, Ty::Map)),
            _ => {
                let f = self.reducing_fn(Ty::Map, d);
                format!("(reduce {f} {} {})", e(self, Ty::Map), e(self, Ty::Vec))
            }
        }
    }

    fn set(&mut self, d: usize) -> String {
        let e = |g: &mut Gen, t| g.expr(t, d);
        match self.below(11) {
            0 => format!("(conj {} {})", e(self, Ty::Set), e(self, Ty::Int)),
            1 => format!("(disj {} {})", e(self, Ty::Set), e(self, Ty::Int)),
            2 => format!("(into {} {})", e(self, Ty::Set), e(self, Ty::Vec)),
            3 => format!("(set {})", e(self, Ty::Vec)),
            4 => format!(
                "(clojure.set/union {} {})",
                e(self, Ty::Set),
                e(self, Ty::Set)
            ),
            5 => format!(
                "(clojure.set/intersection {} {})",
                e(self, Ty::Set),
                e(self, Ty::Set)
            ),
            6 => format!(
                "(clojure.set/difference {} {})",
                e(self, Ty::Set),
                e(self, Ty::Set)
            ),
            7 => format!("(reduce conj {} {})", e(self, Ty::Set), e(self, Ty::Vec)),
            8 => format!("(reduce disj {} {})", e(self, Ty::Set), e(self, Ty::Vec)),
            9 => self.counting_loop(Ty::Set, d),
            _ => format!("(into #{{}} (map inc) {})", e(self, Ty::Vec)),
        }
    }

    fn string(&mut self, d: usize) -> String {
        let e = |g: &mut Gen, t| g.expr(t, d);
        match self.below(14) {
            13 => self.kernel_str(d),
            0 => format!("(str {} {})", e(self, Ty::Str), e(self, Ty::Int)),
            1 => format!("(str {} \"-\" {})", e(self, Ty::Str), e(self, Ty::Str)),
            2 => {
                let s = self.fresh("s");
                format!(
                    "(let [{s} {}] (subs {s} 0 (min (mod {} 5) (count {s}))))",
                    e(self, Ty::Str),
                    e(self, Ty::Int)
                )
            }
            3 => format!("(clojure.string/join \",\" {})", e(self, Ty::Vec)),
            4 => format!("(apply str {})", e(self, Ty::Vec)),
            5 => format!("(clojure.string/upper-case {})", e(self, Ty::Str)),
            6 => format!("(clojure.string/reverse {})", e(self, Ty::Str)),
            7 => format!(
                "(reduce (fn [acc x] (str acc x \",\")) \"\" {})",
                e(self, Ty::Vec)
            ),
            8 => {
                // Scans an outer string character by character.
                let (s, i, acc) = (self.fresh("s"), self.fresh("i"), self.fresh("acc"));
                format!(
                    "(let [{s} {}] (loop [{i} 0 {acc} \"\"] (let [c (subs {s} {i} (min (inc {i}) (count {s})))] (if (< {i} (count {s})) (recur (inc {i}) (str {acc} c c)) {acc}))))",
                    e(self, Ty::Str)
                )
            }
            9 => self.counting_loop(Ty::Str, d),
            // `str` onto an accumulator through `apply` and a vector built
            // in the call (appended in place: `value/text.rs`).
            10 => format!(
                "(reduce (fn [acc x] (apply str [acc x \"\u{e9},\"])) {} {})",
                e(self, Ty::Str),
                e(self, Ty::Vec)
            ),
            11 => {
                // The accumulator held twice: never written in place.
                let (acc, x, old) = (self.fresh("acc"), self.fresh("x"), self.fresh("old"));
                format!(
                    "(reduce (fn [{acc} {x}] (let [{old} {acc}] (str (str {acc} {x}) (count {old})))) {} {})",
                    e(self, Ty::Str),
                    e(self, Ty::Vec)
                )
            }
            _ => format!("(pr-str {})", e(self, Ty::Vec)),
        }
    }

    fn boolean(&mut self, d: usize) -> String {
        let e = |g: &mut Gen, t| g.expr(t, d);
        match self.below(15) {
            14 => self.kernel_bool(d),
            0 => format!("(< {} {})", e(self, Ty::Int), e(self, Ty::Int)),
            1 => format!("(= {} {})", e(self, Ty::Int), e(self, Ty::Int)),
            2 => format!("(= {} {})", e(self, Ty::Vec), e(self, Ty::Vec)),
            3 => format!("(even? {})", e(self, Ty::Int)),
            4 => format!("(contains? {} {})", e(self, Ty::Set), e(self, Ty::Int)),
            5 => format!("(contains? {} {})", e(self, Ty::Map), self.key()),
            6 => format!("(empty? {})", e(self, Ty::Vec)),
            12 => format!("(empty? (keys {}))", e(self, Ty::Map)),
            13 => format!(
                "(empty? (vals (dissoc {} :a :b :c :d :e)))",
                e(self, Ty::Map)
            ),
            7 => format!("(clojure.string/includes? {} \"a\")", e(self, Ty::Str)),
            8 => format!("(boolean (some even? {}))", e(self, Ty::Vec)),
            9 => format!("(every? odd? {})", e(self, Ty::Vec)),
            10 => format!("(not {})", e(self, Ty::Bool)),
            _ => format!("(and {} {})", e(self, Ty::Bool), e(self, Ty::Bool)),
        }
    }
}
