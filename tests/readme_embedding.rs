//! The README's embedding example and the embedding guide's
//! (`docs/embedding.md`), built and run as an external crate would build
//! them: a new crate whose `[dependencies]` are exactly the README's block
//! (with `ptc-lisp` by path to this checkout) and whose `main` is the
//! example. The doc test of the same snippet
//! compiles inside this crate, where every dependency of ptc-lisp is in
//! scope, so it cannot catch a missing line in the README's block.
//!
//! The crate resolves with this repository's `Cargo.lock` (copied), so it
//! builds from the registry cache the main build already filled, in its
//! own target directory under `CARGO_TARGET_TMPDIR` (kept between runs).

use std::path::Path;
use std::process::Command;

/// The first fenced block of `lang` after `heading` in `text`.
fn block_after(readme: &str, heading: &str, lang: &str) -> String {
    let at = readme
        .find(heading)
        .unwrap_or_else(|| panic!("no {heading:?}"));
    let fence = format!("```{lang}\n");
    let start = readme[at..]
        .find(&fence)
        .unwrap_or_else(|| panic!("no ```{lang} block after {heading:?}"))
        + at
        + fence.len();
    let end = readme[start..].find("```").expect("closed block") + start;
    readme[start..end].to_string()
}

#[test]
fn the_readme_embedding_example_builds_as_an_external_crate() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(repo.join("README.md")).unwrap();
    let deps = block_after(&readme, "### Embedding in Rust", "toml");
    assert!(deps.contains("[dependencies]"), "{deps}");
    let deps = deps.replace(
        "path = \"/path/to/ptc\"",
        &format!("path = {:?}", repo.to_string_lossy()),
    );
    assert!(
        deps.contains(&*repo.to_string_lossy()),
        "the ptc-lisp line no longer names path = \"/path/to/ptc\": {deps}"
    );
    // The README's example, then the embedding guide's, with the README's
    // dependency lines (one target directory: the second builds only itself).
    let guide = std::fs::read_to_string(repo.join("docs/embedding.md")).unwrap();
    for (what, example) in [
        (
            "the README's",
            block_after(&readme, "### Embedding in Rust", "rust"),
        ),
        (
            "docs/embedding.md's",
            block_after(&guide, "### Embedding", "rust"),
        ),
    ] {
        build_and_run(repo, &deps, &example, what);
    }
}

fn build_and_run(repo: &Path, deps: &str, example: &str, what: &str) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("readme-embedding");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(
        dir.join("Cargo.toml"),
        format!(
            "[package]\nname = \"readme-embedding\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\
             publish = false\n\n[workspace]\n\n{deps}"
        ),
    )
    .unwrap();
    std::fs::copy(repo.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    std::fs::write(
        dir.join("src/main.rs"),
        format!("fn main() {{\n{example}\n    println!(\"embedding example ok\");\n}}\n"),
    )
    .unwrap();

    let out = Command::new(env!("CARGO"))
        .args(["run", "--quiet"])
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .env_remove("RUSTFLAGS")
        .output()
        .expect("cargo runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "{what} example does not build or run with the README's [dependencies]:\n{stderr}"
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("embedding example ok"));
}
