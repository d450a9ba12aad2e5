//! The `ptc` binary hands mimalloc its first arena before any allocation
//! (src/main.rs, `arena`): 4 KiB pages for the first 4 MiB, so a short run
//! does not take two whole 2 MiB huge pages. mimalloc says when it has to
//! reserve an arena of its own (`MIMALLOC_VERBOSE=1`: "reserved … KiB
//! memory"); a short program must not make it, a large one still runs.

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs `ptc run --no-limits -` on `src` with mimalloc's messages on:
/// stdout and stderr.
fn run_verbose(src: &str) -> (String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ptc"))
        .args(["run", "--no-limits", "-"])
        .env("MIMALLOC_VERBOSE", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ptc starts");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(src.as_bytes()).expect("program written");
    drop(stdin);
    let out = child.wait_with_output().expect("ptc ends");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{src}: {stdout}\n{stderr}");
    (stdout, stderr)
}

/// mimalloc's own arena reservations in its verbose messages.
fn reservations(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .filter(|l| l.starts_with("mimalloc:") && l.contains("reserved"))
        .collect()
}

#[test]
#[cfg(target_os = "linux")]
fn a_short_run_allocates_in_the_arena_given_at_start() {
    let (stdout, stderr) = run_verbose("(println (reduce + (range 1000)))");
    assert!(stdout.contains("499500"), "{stdout}");
    // The messages are on (so the absence below means something) …
    assert!(stderr.contains("mimalloc: option"), "{stderr}");
    // … and mimalloc never had to reserve memory of its own.
    assert_eq!(reservations(&stderr), Vec::<&str>::new(), "{stderr}");
}

#[test]
fn a_large_heap_grows_past_the_small_pages() {
    // ~200k records (well past the 4 MiB of small pages), summed.
    let (stdout, _) = run_verbose(
        "(def rows (mapv (fn [i] {:id i :v (* 2 i)}) (range 200000)))
         (println (reduce + (map :v rows)))",
    );
    assert!(stdout.contains("39999800000"), "{stdout}");
}
