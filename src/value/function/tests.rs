//! The one-word `Func` handle: what it points to read back, and counts
//! added by clones and given back by drops (none for builtins).

use std::sync::Arc;

use super::{ClosureFn, Func, FuncRef, NativeCode, NativeFn};
use crate::analyze::expr::FnProto;
use crate::builtins::{lookup_in, Builtin, Ns};
use crate::eval::Closure;
use crate::value::Value;

fn closure(name: &str, captures: Vec<Value>) -> Arc<Closure> {
    Arc::new(Closure {
        proto: Arc::new(FnProto {
            name: Some(name.into()),
            arities: Vec::new(),
            display_params: "x y".into(),
            source_params: "[x y]".into(),
            docstring: None,
            source: "".into(),
            global: None,
        }),
        captures,
        group: None,
    })
}

fn native(name: &'static str) -> Arc<NativeFn> {
    Arc::new(NativeFn {
        name: name.into(),
        body: NativeCode::Reads(Box::new(|_, _| Ok(Value::Nil))),
    })
}

fn inc() -> &'static Builtin {
    lookup_in(Ns::Core, "inc").expect("inc")
}

#[test]
fn a_closure_reads_back_and_counts_its_clones() {
    let arc = closure("add", vec![Value::Int(7)]);
    let f = Func::closure(arc.clone());
    assert_eq!(Arc::strong_count(&arc), 2);
    let FuncRef::Closure(c) = f.kind() else {
        panic!("not a closure")
    };
    assert!(std::ptr::eq::<Closure>(&**c, &*arc));
    assert!(matches!(c.captures[..], [Value::Int(7)]));
    assert!(f.as_closure().is_some_and(|c2| c2.ptr_eq(c)));
    assert!(f.as_builtin().is_none());
    assert_eq!(f.name(), "add");
    assert_eq!(f.display_params(), "x y");
    assert_eq!(f.addr(), Arc::as_ptr(&arc) as usize);

    let g = f.clone();
    assert_eq!(Arc::strong_count(&arc), 3);
    assert!(g.ptr_eq(&f));
    drop(g);
    assert_eq!(Arc::strong_count(&arc), 2);

    // A new `Arc` is a count of its own.
    let c = f.as_closure().expect("closure");
    let again = c.to_arc();
    assert!(Arc::ptr_eq(&again, &arc));
    assert_eq!(Arc::strong_count(&arc), 3);
    drop(again);
    // The owned `ClosureFn` clone, the function value made from it.
    let owned: ClosureFn = c.clone();
    let v = owned.to_value();
    assert_eq!(Arc::strong_count(&arc), 4);
    assert!(matches!(&v, Value::Fn(x) if x.ptr_eq(&f)));
    drop((owned, v));
    assert_eq!(Arc::strong_count(&arc), 2);

    assert!(c.shared_addr().is_some());
    drop(f);
    assert_eq!(Arc::strong_count(&arc), 1);
    let sole = Func::closure(arc);
    assert_eq!(sole.as_closure().and_then(ClosureFn::shared_addr), None);
}

#[test]
fn the_last_handle_of_a_closure_drops_its_captures() {
    let text = crate::value::Text::from("captured");
    let f = Func::closure(closure("f", vec![Value::Str(text.clone())]));
    let v = Value::Fn(f.clone());
    assert_eq!(text.strong_count(), 2);
    drop(f);
    assert_eq!(text.strong_count(), 2);
    drop(v);
    assert_eq!(text.strong_count(), 1);
}

#[test]
fn a_native_closure_reads_back_and_counts_its_clones() {
    let arc = native("partial");
    let f = Func::native_arc(arc.clone());
    assert_eq!(Arc::strong_count(&arc), 2);
    let FuncRef::Native(n) = f.kind() else {
        panic!("not native")
    };
    assert!(std::ptr::eq(n, &*arc));
    assert!(f.as_closure().is_none() && f.as_builtin().is_none());
    assert_eq!(f.name(), "partial");
    assert_eq!(f.display_params(), "partial");
    assert_eq!(f.addr(), Arc::as_ptr(&arc) as usize);

    let clones: Vec<Func> = (0..3).map(|_| f.clone()).collect();
    assert_eq!(Arc::strong_count(&arc), 5);
    assert!(clones.iter().all(|g| g.ptr_eq(&f)));
    drop(clones);
    drop(f);
    assert_eq!(Arc::strong_count(&arc), 1);

    let Value::Fn(g) = Func::native("comp", |_, _| Ok(Value::Int(1))) else {
        panic!("not a function")
    };
    assert!(matches!(g.kind(), FuncRef::Native(n) if n.name == "comp"));
}

#[test]
fn a_builtin_reads_back_with_no_count() {
    let b = inc();
    let f = Func::builtin(b);
    let g = f.clone();
    assert!(matches!(g.kind(), FuncRef::Builtin(x) if std::ptr::eq(x, b)));
    assert!(f.as_builtin().is_some_and(|x| std::ptr::eq(x, b)));
    assert!(f.as_closure().is_none());
    assert_eq!(f.name(), "inc");
    assert_eq!(f.display_params(), "inc");
    assert_eq!(f.addr(), b as *const Builtin as usize);
    assert!(g.ptr_eq(&f));
    let dec = Func::builtin(lookup_in(Ns::Core, "dec").expect("dec"));
    assert!(!dec.ptr_eq(&f));
}

#[test]
fn handles_of_different_kinds_differ() {
    let a = Func::closure(closure("a", Vec::new()));
    let b = Func::closure(closure("a", Vec::new()));
    let n = Func::native_arc(native("n"));
    let i = Func::builtin(inc());
    assert!(!a.ptr_eq(&b) && !a.ptr_eq(&n) && !n.ptr_eq(&i));
    assert!(!a
        .as_closure()
        .expect("a")
        .ptr_eq(b.as_closure().expect("b")));
    let addrs = [a.addr(), b.addr(), n.addr(), i.addr()];
    for (x, ax) in addrs.iter().enumerate() {
        for ay in &addrs[x + 1..] {
            assert_ne!(ax, ay);
        }
    }
}

#[test]
fn a_function_value_moves_between_threads() {
    let arc = closure("t", Vec::new());
    let v = Value::Fn(Func::closure(arc.clone()));
    let back = std::thread::spawn(move || {
        let w = v.clone();
        drop(v);
        w
    })
    .join()
    .expect("thread");
    assert_eq!(Arc::strong_count(&arc), 2);
    drop(back);
    assert_eq!(Arc::strong_count(&arc), 1);
}
