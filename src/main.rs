//! The `ptc` binary: all logic lives in the library (`ptc_lisp::cli`).

fn main() {
    std::process::exit(ptc_lisp::cli::main());
}
