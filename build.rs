//! Link options for the `ptc` binary, nothing else.
//!
//! On Linux with glibc 2.36 or later, the binary is linked with packed
//! relative relocations (`-z pack-relative-relocs`, a `DT_RELR` table).
//! The position-independent `ptc` has ~25,000 relative relocations; as
//! plain `RELA` entries they are 590 KB the loader reads at every start,
//! as `RELR` 7 KB. Every `ptc` process then starts ~0.5 MB smaller in
//! peak RSS (`(return 1)`: 7.4 → 6.9 MB; 10-nested 18.8 → 18.2 MB,
//! medians of five, 2026-11-29) and keeps its address-space
//! randomisation, which linking it non-PIE would have given up for about
//! the same saving.
//!
//! Older glibc cannot load such a binary (it lacks `GLIBC_ABI_DT_RELR`),
//! so the option is added only when the glibc building it, which is the
//! one it runs on when not cross-compiling, is 2.36 or later.
//!
//! In a release build linked by LLD (what rustc uses on
//! `x86_64-unknown-linux-gnu` since 1.90, unless a linker is configured),
//! the functions a run executes are placed first in `.text`, in the order
//! [`LINK_ORDER`] lists them (`--symbol-ordering-file`). Of the binary's
//! 14 MB of code a run executes ~1 MB, spread over the whole of it; the
//! kernel maps file pages 64 KiB around each one touched, so a run of
//! `(println 1)` held 4.2 MB of `.text` resident and now holds 1.2 MB:
//! every run's peak RSS is ~3.7 MB smaller (`(println 1)` 8.6 → 4.9 MB,
//! 10-nested 15.5 → 11.8, 08-freq-sets 19.6 → 15.8, medians of five) and
//! starts 6 % sooner (`farm-bench -n 21`, 2026-11-29). The list names
//! symbols as mangled for this crate's release build: a function keeps
//! its name while its path and signature do, and a new toolchain or crate
//! version renames them all. A name the build does not have is skipped,
//! so a stale list only places fewer functions (`tests/bench/run.py`
//! reports how many it found, and `tests/bench/run.py --link-order`
//! writes the list again).
//!
//! The library, tests and the Python extension are linked as before.

use std::process::Command;

/// The executed functions, hottest first (written by
/// `tests/bench/run.py --link-order`).
const LINK_ORDER: &str = "tests/bench/link-order.txt";

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed={LINK_ORDER}");
    // A linker configured later must not get LLD's options.
    println!("cargo::rerun-if-env-changed=RUSTC_LINKER");
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    let native = var("TARGET") == var("HOST");
    let linux_gnu = var("CARGO_CFG_TARGET_OS") == "linux" && var("CARGO_CFG_TARGET_ENV") == "gnu";
    if native && linux_gnu && glibc_at_least(2, 36) {
        println!("cargo::rustc-link-arg-bin=ptc=-Wl,-z,pack-relative-relocs");
    }
    if var("PROFILE") == "release" && links_with_lld() {
        let order = std::path::Path::new(&var("CARGO_MANIFEST_DIR")).join(LINK_ORDER);
        if order.is_file() {
            let order = order.display();
            println!("cargo::rustc-link-arg-bin=ptc=-Wl,--symbol-ordering-file={order}");
            println!("cargo::rustc-link-arg-bin=ptc=-Wl,--no-warn-symbol-ordering");
        }
    }
}

/// Whether rustc links this target with its own LLD: the target is
/// `x86_64-unknown-linux-gnu`, rustc is 1.90 or later, and neither a
/// linker (`RUSTC_LINKER`, set from cargo's `linker` setting) nor linker
/// flags in `RUSTFLAGS` change that. When it cannot be told, false: GNU
/// ld would reject `--symbol-ordering-file`.
fn links_with_lld() -> bool {
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    let flags = var("CARGO_ENCODED_RUSTFLAGS");
    if var("TARGET") != "x86_64-unknown-linux-gnu"
        || std::env::var_os("RUSTC_LINKER").is_some()
        || flags.contains("linker")
        || flags.contains("fuse-ld")
        || flags.contains("link-self-contained")
    {
        return false;
    }
    let Ok(out) = Command::new(var("RUSTC")).arg("-vV").output() else {
        return false;
    };
    let text = String::from_utf8_lossy(&out.stdout);
    let release = text.lines().find_map(|l| l.strip_prefix("release: "));
    release.is_some_and(|v| at_least(v, (1, 90)))
}

/// Whether this machine's glibc (`getconf GNU_LIBC_VERSION`, "glibc 2.36")
/// is at least `major.minor`; false when it cannot be told.
fn glibc_at_least(major: u32, minor: u32) -> bool {
    let Ok(out) = Command::new("getconf").arg("GNU_LIBC_VERSION").output() else {
        return false;
    };
    let text = String::from_utf8_lossy(&out.stdout);
    text.trim()
        .strip_prefix("glibc ")
        .is_some_and(|version| at_least(version, (major, minor)))
}

/// Whether a version "A.B…" (any suffix after B ignored) is at least
/// `(major, minor)`; false when it does not parse.
fn at_least(version: &str, (major, minor): (u32, u32)) -> bool {
    let mut parts = version.split(['.', '-']).map(|p| p.parse::<u32>().ok());
    match (parts.next().flatten(), parts.next().flatten()) {
        (Some(a), Some(b)) => (a, b) >= (major, minor),
        _ => false,
    }
}
