//! The `ptc` binary: all logic lives in the library (`ptc_lisp::cli`).

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    std::process::exit(ptc_lisp::cli::main());
}
