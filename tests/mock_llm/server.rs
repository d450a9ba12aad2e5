//! A mock LLM server for trying `ptc agent` and `ptc eval` without a
//! model: serves a session file's recorded `turns` (or a JSON array of
//! response strings) as completions, in order and again from the start,
//! in both the OpenAI and the Anthropic format, on 127.0.0.1 only.
//!
//! ```text
//! cargo run --example mock_llm -- [--port 8089] lisp-examples/sales-by-region.json
//! ```

#[path = "mod.rs"]
mod mock_llm;

use mock_llm::{MockLlm, Reply};

fn main() {
    let mut args = std::env::args().skip(1);
    let mut port = 8089;
    let mut file = None;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--port" => match args.next().and_then(|p| p.parse().ok()) {
                Some(p) => port = p,
                None => fail("--port expects a number"),
            },
            _ => file = Some(a),
        }
    }
    let Some(file) = file else {
        fail("usage: mock_llm [--port N] SESSION.json|RESPONSES.json");
    };
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| fail(&format!("{file}: {e}")));
    let json: serde_json::Value =
        serde_json::from_str(&text).unwrap_or_else(|e| fail(&format!("{file}: {e}")));
    let list = json.get("turns").unwrap_or(&json);
    let responses: Vec<Reply> = list
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|r| r.as_str())
                .map(Reply::text)
                .collect()
        })
        .unwrap_or_default();
    if responses.is_empty() {
        fail(&format!(
            "{file}: no responses (a session file with turns, or an array of strings)"
        ));
    }
    let n = responses.len();
    let mock = MockLlm::start_on(port, responses, true)
        .unwrap_or_else(|e| fail(&format!("cannot listen on 127.0.0.1:{port}: {e}")));
    println!(
        "mock LLM: {n} responses, repeating; OpenAI base URL {}, Anthropic base URL {} (Ctrl-C stops)",
        mock.openai_base(),
        mock.anthropic_base()
    );
    loop {
        std::thread::park();
    }
}

fn fail(msg: &str) -> ! {
    eprintln!("mock_llm: {msg}");
    std::process::exit(2)
}
