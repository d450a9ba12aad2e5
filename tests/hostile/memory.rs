//! Class 6 of issue 17: memory the accounting used not to see. Compiled
//! regexes, regex matches with many groups and tool results are charged to
//! the heap budget, and the turn's deadline bounds the sum of tool calls.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::collections::BTreeMap;

use super::*;

/// This test binary's allocator: the system's, counting the bytes each
/// thread holds (the sizes asked for, without the allocator's overhead),
/// so a test can see the real memory of the values a program built.
struct Counting;

thread_local! {
    static HELD: Cell<i64> = const { Cell::new(0) };
}

fn count(delta: i64) {
    let _ = HELD.try_with(|held| held.set(held.get() + delta));
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size() as i64);
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size() as i64);
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        count(-(layout.size() as i64));
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size as i64 - layout.size() as i64);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Bytes this thread holds from the allocator.
fn held() -> i64 {
    HELD.with(Cell::get)
}

/// Default limits but a long timeout: these programs must hit the heap
/// limit, which a loaded machine running a debug build may not reach
/// within one second.
fn patient() -> Interp {
    interp_with(Limits {
        timeout_ms: Some(60_000),
        ..Limits::default()
    })
}

fn expect_memory(src: &str) {
    expect_in(patient(), &[ErrorKind::MemoryExceeded], src)
}

#[test]
fn big_compiled_regexes_are_refused() {
    let mut i = interp();
    let e = i
        .run_program("(re-pattern \"\\\\w{1,12000}\")")
        .result
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Execution, "{}", e.message());
    assert!(
        e.hint().unwrap_or("").contains("repetition"),
        "{:?}",
        e.hint()
    );
    expect_any(
        &[ErrorKind::Execution, ErrorKind::MemoryExceeded],
        "(count (vec (for [i (range 180)] (re-pattern (str \"\\\\w{1,\" (+ 12000 i) \"}\")))))",
    );
}

#[test]
fn compiled_regexes_are_charged_to_the_heap() {
    expect_memory(
        "(def rs (vec (for [i (range 180)] (re-pattern (str \"\\\\w{1,\" (+ 1000 i) \"}\"))))) (count rs)",
    );
    expect_memory(
        "(count (filter #(re-find (re-pattern (str \"[a-z]{1,\" (+ 900 %) \"}x\")) \"abc\") (range 180)))",
    );
    // Reused patterns are compiled (and charged) once.
    let mut i = patient();
    let out = i.run_program("(count (filter #(re-find #\"\\w{1,1000}\" (str %)) (range 20000)))");
    assert_eq!(out.result.unwrap(), Value::Int(20000));
}

/// The charge of the program's last regex is settled before the turn ends.
#[test]
fn a_regex_compiled_last_is_still_charged() {
    let small_heap = || {
        interp_with(Limits {
            max_heap_bytes: Some(100_000),
            timeout_ms: Some(60_000),
            ..Limits::default()
        })
    };
    expect_in(
        small_heap(),
        &[ErrorKind::MemoryExceeded],
        "(re-pattern \"[a-z]{1,900}x\")",
    );
    let mut i = small_heap();
    assert!(i.run_program("(re-pattern \"[a-z]+x\")").is_ok());
}

/// Every turn pays for the regexes it compiles, whatever compiled them on
/// the same thread before (an earlier turn, or the host): turns run on the
/// caller's thread, and its regex cache does not carry into a turn.
#[test]
fn a_regex_compiled_before_the_turn_is_charged_again() {
    let limits = Limits {
        max_heap_bytes: Some(100_000),
        timeout_ms: Some(60_000),
        ..Limits::default()
    };
    let big = "(re-pattern \"[a-z]{1,900}x\")";
    let mut i = interp_with(limits.clone());
    for _ in 0..2 {
        let out = i.run_program(big);
        assert_eq!(out.result.unwrap_err().kind(), ErrorKind::MemoryExceeded);
    }
    // An unlimited turn on this thread compiles (and caches) the regex.
    assert!(interp_with(Limits::none()).run_program(big).is_ok());
    expect_in(interp_with(limits), &[ErrorKind::MemoryExceeded], big);
}

#[test]
fn re_seq_with_many_groups_is_charged_per_group() {
    expect_memory(
        "(def s (apply str (repeat 250000 \"a\")))
         (count (re-seq #\"(a)?(b)?(c)?(d)?(e)?(f)?(g)?(h)?\" s))",
    );
    expect_memory(
        "(def s (apply str (repeat 250000 \"ab\")))
         (count (re-seq #\"((a)(b))\" s))",
    );
}

fn big_result_host() -> Box<StaticHost> {
    let mut host = StaticHost::default();
    let rows = (0..20_000).map(|i| {
        let mut row = BTreeMap::new();
        row.insert("name".to_string(), serde_json::json!(format!("item {i}")));
        row.insert("price".to_string(), serde_json::json!(i));
        serde_json::Value::Object(row.into_iter().collect())
    });
    let json = serde_json::Value::Array(rows.collect());
    host.tools.insert(
        "big".into(),
        CannedTool::Returns(ptc_lisp::from_json(&json)),
    );
    Box::new(host)
}

#[test]
fn tool_results_are_charged_to_the_heap() {
    for program in [
        "(dotimes [_ 8] (tool/big))",
        "(count (mapcat (fn [_] (tool/big)) (range 8)))",
    ] {
        let i = on_host(
            big_result_host(),
            Limits {
                timeout_ms: Some(60_000),
                ..Limits::default()
            },
        );
        expect_in(i, &[ErrorKind::MemoryExceeded], program);
    }
}

/// A host whose one tool sleeps.
struct SlowHost(Duration);

impl ptc_lisp::Host for SlowHost {
    fn data(&self, _name: &str) -> Option<Value> {
        None
    }
    fn data_names(&self) -> Vec<String> {
        Vec::new()
    }
    fn has_tool(&self, name: &str) -> bool {
        name == "slow"
    }
    fn tool_names(&self) -> Vec<String> {
        vec!["slow".into()]
    }
    fn call_tool(&mut self, _name: &str, _args: &[Value]) -> Result<Value, String> {
        std::thread::sleep(self.0);
        Ok(Value::Int(1))
    }
}

#[test]
fn the_deadline_bounds_the_sum_of_tool_calls() {
    let limits = || Limits {
        timeout_ms: Some(1000),
        ..Limits::default()
    };
    for (sleep_ms, src) in [
        (300, "(dotimes [_ 12] (tool/slow))"),
        (300, "(reduce + (map (fn [_] (tool/slow)) (range 12)))"),
        // One call that ends past the deadline ends the turn too.
        (1500, "(tool/slow)"),
    ] {
        let host = Box::new(SlowHost(Duration::from_millis(sleep_ms)));
        let started = Instant::now();
        expect_in(on_host(host, limits()), &[ErrorKind::Timeout], src);
        assert!(
            started.elapsed() < Duration::from_millis(2500),
            "{src}: {:?}",
            started.elapsed()
        );
    }
}

/// Peak RSS (KiB) of `ptc run` on `program`, measured by `/usr/bin/time -v`;
/// `None` where that tool is missing.
fn peak_rss_kib(program: &str, heap_limit: u64) -> Option<u64> {
    let time = std::path::Path::new("/usr/bin/time");
    if !time.exists() {
        return None;
    }
    let dir = crate::common::Scratch::path("ptc-rss");
    std::fs::create_dir_all(&dir).ok()?;
    let file = dir.join(format!("p{}.clj", program.len()));
    std::fs::write(&file, program).ok()?;
    let out = std::process::Command::new(time)
        .arg("-v")
        .arg(env!("CARGO_BIN_EXE_ptc"))
        .args([
            "run",
            "--timeout-ms",
            "120000",
            "--max-steps",
            "1000000000000",
        ])
        .args(["--max-heap-bytes", &heap_limit.to_string()])
        .arg(&file)
        .output()
        .ok()?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    stderr
        .lines()
        .find_map(|l| {
            l.trim()
                .strip_prefix("Maximum resident set size (kbytes): ")
        })
        .and_then(|n| n.trim().parse().ok())
}

/// Real memory follows the accounting: a program that builds values until
/// it hits `max_heap_bytes` peaks below the process's own size plus four
/// times the limit (the multiple the README documents).
#[test]
fn peak_memory_stays_within_four_times_the_heap_limit() {
    let limit: u64 = 20 << 20;
    let Some(base) = peak_rss_kib("1", limit) else {
        return;
    };
    for program in [
        "(loop [v [] i 0] (recur (conj v i) (inc i)))",
        "(loop [m {} i 0] (recur (assoc m i i) (inc i)))",
        "(loop [s #{} i 0] (recur (conj s (str \"item-\" i)) (inc i)))",
        "(loop [s \"ab\"] (recur (str s s)))",
        "(loop [v [1]] (recur (into v v)))",
        "(count (vec (for [i (range 1000)] (re-pattern (str \"[a-z]{1,\" (+ 200 i) \"}x\")))))",
        "(def s (apply str (repeat 2500000 \"a\"))) (count (re-seq #\"(a)?(b)?(c)?(d)?\" s))",
        "(def s (set (range 50000))) (count (mapv (fn [i] (conj s (- i))) (range 2000)))",
    ] {
        let peak = peak_rss_kib(program, limit).expect("measured");
        assert!(
            peak <= base + 4 * (limit >> 10),
            "{program}: peak RSS {peak} KiB, process alone {base} KiB, limit {} KiB",
            limit >> 10
        );
    }
}

/// Writing to a large collection that another value holds copies what the
/// write touches first (a set's whole hash table; a map's or vector's chunk
/// and the nodes above it); each copy is charged. They were not: 200
/// `conj`s onto a held 50,000-element set took 850 MB, 100,000 `assoc`s
/// onto a held 50,000-entry map 363 MB in one second, under the 10 MiB
/// default.
#[test]
fn copies_of_shared_large_collections_are_charged() {
    expect_memory("(def s (set (range 50000))) (count (mapv (fn [i] (conj s (- i))) (range 200)))");
    expect_memory("(def s (set (range 50000))) (count (mapv (fn [i] (disj s i)) (range 200)))");
    expect_memory(
        "(def m (zipmap (range 50000) (range 50000))) (count (mapv (fn [i] (assoc m (- i) i)) (range 100000)))",
    );
    expect_memory(
        "(def v (vec (range 50000))) (count (mapv (fn [i] (assoc v i -1)) (range 50000)))",
    );
    expect_memory("(def v (vec (range 50000))) (count (mapv (fn [i] (conj v i)) (range 100000)))");
    // An unshared set grows in place: nothing is copied, nothing extra charged.
    let mut i = patient();
    let out = i.run_program("(count (reduce conj #{} (range 100000)))");
    assert_eq!(out.result.unwrap(), Value::Int(100000));
}

/// The real memory of what `src` defines: how many more bytes this thread
/// holds once the program ran without a heap limit (its garbage freed, its
/// definitions kept).
fn real_bytes(src: &str) -> u64 {
    let mut i = interp_with(Limits {
        max_heap_bytes: None,
        timeout_ms: Some(60_000),
        ..Limits::default()
    });
    // Caches filled on a first run (interned names, the stack) are not the
    // program's.
    assert!(i.run_program("(def warm (count (str (range 10))))").is_ok());
    let before = held();
    let out = i.run_program(src);
    assert!(out.is_ok(), "{src}: {:?}", out.result.err());
    drop(out);
    let bytes = held() - before;
    assert!(bytes > 0, "{src}: {bytes}");
    bytes as u64
}

/// The heap limit fires where real memory is (HEAP-COST-1): a program
/// whose values take `real` bytes fails under a limit of half that and
/// fits under twice that. The 16-byte model charged 48 bytes per map entry
/// and 32 per set element, so the first two programs (about 110 bytes an
/// entry, 70 an element in their tables) fitted under half their real
/// size, and the third (600 sets, each a copy of the last) under a
/// hundredth of it before copies on write were charged.
#[test]
fn the_heap_limit_fires_where_real_memory_is() {
    for src in [
        "(def m (loop [m {} i 0] (if (< i 50000) (recur (assoc m i i) (inc i)) m))) (count m)",
        "(def s (loop [s #{} i 0] (if (< i 60000) (recur (conj s (str \"item-\" i)) (inc i)) s))) (count s)",
        "(def rs (vec (reductions conj #{} (range 600)))) (count rs)",
        "(def rs (loop [v [] i 0] (if (< i 20000) (recur (conj v {:id i :name (str \"n\" i) :price (* 3 i) :qty 1 :tag :x}) (inc i)) v))) (count rs)",
    ] {
        let real = real_bytes(src);
        let limits = |max: u64| Limits {
            max_heap_bytes: Some(max),
            timeout_ms: Some(60_000),
            ..Limits::default()
        };
        expect_in(
            interp_with(limits(real / 2)),
            &[ErrorKind::MemoryExceeded],
            src,
        );
        let mut i = interp_with(limits(2 * real));
        let out = i.run_program(src);
        assert!(out.is_ok(), "{src}: real {real} bytes: {:?}", out.result.err());
    }
}
