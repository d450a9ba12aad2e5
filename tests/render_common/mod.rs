//! A tiny stand-in for the session layer: runs turns through the real
//! interpreter (`Interp::run_program` with a `StaticHost`) and records them
//! as `RenderInput` turns.
#![allow(dead_code)]

use ptc_lisp::render::{
    to_messages, MemoryView, RenderInput, RenderOptions, Strategy, ToolInfo, TurnRecord,
};
use ptc_lisp::CannedTool;
use ptc_lisp::{Interp, Limits, StaticHost, Value};

/// A value written as a PTC-Lisp literal.
pub fn lisp(src: &str) -> Value {
    match Interp::standalone().run_program(src).result {
        Ok(v) => v,
        Err(e) => panic!("bad literal {src}: {e}"),
    }
}

pub struct Sim {
    pub host: StaticHost,
    pub interp: Interp,
    pub input: RenderInput,
}

impl Sim {
    pub fn new(mission: &str, max_turns: usize) -> Sim {
        Sim {
            host: StaticHost::default(),
            interp: Interp::standalone(),
            input: RenderInput {
                mission: mission.into(),
                max_turns,
                ..RenderInput::default()
            },
        }
    }

    pub fn data(mut self, name: &str, value: Value) -> Sim {
        self.host.data.insert(name.into(), value.clone());
        self.input.data.push((name.into(), value));
        self.reset_host();
        self
    }

    /// A tool with `params` as `(name, type)` and a canned result.
    pub fn tool(
        mut self,
        name: &str,
        params: &[(&str, &str)],
        returns: &str,
        description: Option<&str>,
        result: Value,
    ) -> Sim {
        self.host
            .tools
            .insert(name.into(), CannedTool::Returns(result));
        self.input.tools.push(ToolInfo {
            name: name.into(),
            params: params
                .iter()
                .map(|(p, t)| (p.to_string(), t.to_string()))
                .collect(),
            returns: returns.into(),
            description: description.map(str::to_string),
            ..ToolInfo::default()
        });
        self.reset_host();
        self
    }

    fn reset_host(&mut self) {
        let memory = self.interp.globals.clone();
        self.interp = Interp::new(Box::new(self.host.clone()), Limits::default());
        self.interp.globals = memory;
    }

    /// Runs one LLM response as the next turn.
    pub fn turn(&mut self, raw: &str) -> &TurnRecord {
        let program = extract(raw);
        let outcome = self.interp.run_program(&program);
        self.input.memory = MemoryView::from_interp(&self.interp);
        self.input.hidden = self.interp.hidden.clone();
        let number = self.input.turns.len() + 1;
        self.input.turns.push(TurnRecord::after_run(
            number,
            raw,
            Some(program),
            &outcome.result,
            &self.interp,
        ));
        self.input.turns.last().unwrap()
    }

    /// The USER message of the compressed view, default options.
    pub fn user(&self) -> String {
        self.user_with(&RenderOptions::default())
    }

    pub fn user_with(&self, o: &RenderOptions) -> String {
        let r = to_messages(&self.input, o, Strategy::SingleUserCoalesced);
        assert_eq!(r.messages.len(), 2);
        r.messages[1].content.clone()
    }
}

/// The code of a response: its first fenced block, or the whole text.
fn extract(raw: &str) -> String {
    let mut lines = raw.lines();
    if raw.contains("```") {
        let mut out = Vec::new();
        let mut inside = false;
        for l in lines.by_ref() {
            if l.trim_start().starts_with("```") {
                if inside {
                    break;
                }
                inside = true;
            } else if inside {
                out.push(l);
            }
        }
        out.join("\n")
    } else {
        raw.to_string()
    }
}

/// The products of `rendering.md`'s example: 7 products, 4 electronics.
pub fn products() -> Value {
    lisp(
        r#"[{:name "Laptop" :price 1200 :category "Electronics"}
            {:name "Desk Chair" :price 250 :category "Furniture"}
            {:name "Monitor" :price 300 :category "Electronics"}
            {:name "Coffee Mug" :price 12 :category "Kitchen"}
            {:name "Keyboard" :price 80 :category "Electronics"}
            {:name "Bookshelf" :price 150 :category "Furniture"}
            {:name "Headphones" :price 200 :category "Electronics"}]"#,
    )
}

pub const REVIEWS: &str = "Customer Review Summary for Electronics: Laptop 4.8/5, Monitor 4.6/5, Keyboard 4.2/5, Headphones 4.5/5";

/// `rendering.md`'s example session before any turn.
pub fn shop(max_turns: usize) -> Sim {
    Sim::new("Find well-reviewed products in stock", max_turns)
        .data("products", products())
        .tool(
            "search-reviews",
            &[("query", "string")],
            "string",
            None,
            Value::string(REVIEWS),
        )
        .tool(
            "get-inventory",
            &[],
            "map",
            None,
            lisp("{:laptop 3 :monitor 0}"),
        )
}
