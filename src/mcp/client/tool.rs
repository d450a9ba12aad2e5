//! [`McpTool`]: one MCP tool as a session [`Tool`], `tool/SERVER.NAME`.
//!
//! Arguments (rule MCP-7): the session checks them against the signature
//! first; then one map of named arguments (`{:path "a"}`, the rule of
//! `language.md` §Tools) is sent as the `arguments` object with its keys
//! as strings, and positional arguments are sent under the schema's
//! property names in order (a `nil` for an optional parameter is left
//! out). A tool whose schema gave no checked signature takes one map,
//! sent as it is.
//!
//! Description (rule MCP-8): the prompt's listing shows the first
//! paragraph up to [`MAX_LISTED_CHARS`] characters, cut with a pointer to
//! `(doc tool/SERVER.NAME)`; that doc shows the whole description and the
//! schemas, each cut at [`MAX_DOC_CHARS`] characters. Control and invisible
//! formatting characters (bidi overrides) are taken out of descriptions;
//! secrets were taken out when the server was listed (`redact.rs`).

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value as Json};

use super::conn::{ListedTool, Server};
use super::result::cap;
use super::schema;
use crate::session::{CallContext, Job, Tool, ToolInfo};
use crate::value::json::to_json;
use crate::value::Value;

/// Most characters of a description shown in the tool listing.
pub const MAX_LISTED_CHARS: usize = 300;
/// Most characters of a description, and of each schema, that `(doc
/// tool/SERVER.NAME)` shows.
pub const MAX_DOC_CHARS: usize = 8000;

/// An MCP tool of a server (clones share the server).
#[derive(Clone)]
pub struct McpTool {
    info: ToolInfo,
    server: Arc<Server>,
    /// The name the server knows it by.
    mcp_name: String,
    timeout: Option<Duration>,
}

impl McpTool {
    /// The tool as listed by its server.
    pub fn listed(server: &Arc<Server>, t: &ListedTool) -> McpTool {
        let name = format!("{}.{}", server.name, t.name);
        let info = ToolInfo {
            description: listed_description(&t.description, &name),
            name,
            signature: t.signature.clone(),
            doc: Some(t.doc.clone()),
            acts: t.acts.clone(),
        };
        McpTool::from_info(server, info, &t.name)
    }

    /// A tool known from a session file (signature and description), whose
    /// server starts at its first call.
    pub fn from_info(server: &Arc<Server>, info: ToolInfo, mcp_name: &str) -> McpTool {
        McpTool {
            info,
            server: server.clone(),
            mcp_name: mcp_name.to_string(),
            timeout: None,
        }
    }

    /// The `arguments` object of a call.
    fn arguments(&self, args: &[Value]) -> Result<Map<String, Json>, String> {
        let params = &self.info.signature.params;
        let name_of = |k: &Value| match k {
            Value::Keyword(n) => Some(n.to_string()),
            Value::Str(n) => Some(n.to_string()),
            _ => None,
        };
        if let [Value::Map(m)] = args {
            let named = if params.is_empty() {
                true
            } else if params.len() == 1 {
                m.len() == 1
                    && m.get(&Value::keyword(params[0].name.as_str())).is_some()
                    && crate::session::shape::mismatch(&params[0].ty, &args[0]).is_some()
            } else {
                true
            };
            if named {
                let mut obj = Map::new();
                for (k, v) in m.iter() {
                    let Some(key) = name_of(k) else {
                        return Err(format!(
                            "tool/{}: argument names are keywords or strings",
                            self.info.name
                        ));
                    };
                    obj.insert(key, to_json(v));
                }
                return Ok(obj);
            }
        }
        if params.is_empty() && !args.is_empty() {
            return Err(format!(
                "tool/{} takes one map of named arguments, e.g. (tool/{} {{:key \"value\"}})",
                self.info.name, self.info.name
            ));
        }
        let mut obj = Map::new();
        for (p, v) in params.iter().zip(args) {
            if !v.is_nil() {
                obj.insert(p.name.clone(), to_json(v));
            }
        }
        Ok(obj)
    }
}

/// What ptc keeps of a listed tool: its MCP `name`, its description
/// (control and invisible characters taken out), signature and doc (the
/// description and schemas, each cut at [`MAX_DOC_CHARS`]); the schemas are
/// not kept.
pub fn listed_parts(
    name: &str,
    description: Option<&str>,
    input: &Map<String, Json>,
    output: Option<&Map<String, Json>>,
) -> ListedTool {
    let full: String = description
        .unwrap_or_default()
        .chars()
        .filter(|c| !super::conn::hidden_char(*c))
        .collect();
    let mut doc = cap(full.trim(), MAX_DOC_CHARS);
    doc.push_str(&format!("\n  input schema: {}", json_capped(input)));
    if let Some(o) = output {
        doc.push_str(&format!("\n  output schema: {}", json_capped(o)));
    }
    ListedTool {
        name: name.to_string(),
        description: full,
        signature: schema::signature(input, output),
        doc,
        acts: crate::session::Acts::write(),
    }
}

/// `obj` as JSON text, cut at [`MAX_DOC_CHARS`] characters (written no
/// further than that).
fn json_capped(obj: &Map<String, Json>) -> String {
    struct Capped(Vec<u8>);
    impl std::io::Write for Capped {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            if self.0.len() > MAX_DOC_CHARS * 4 {
                return Err(std::io::Error::other("long enough"));
            }
            self.0.extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut w = Capped(Vec::new());
    let whole = serde_json::to_writer(&mut w, obj).is_ok();
    let text = String::from_utf8_lossy(&w.0);
    if whole {
        cap(&text, MAX_DOC_CHARS)
    } else {
        let kept: String = text.chars().take(MAX_DOC_CHARS).collect();
        format!("{kept}… (cut)")
    }
}

/// The listing's description: the first paragraph, cut at
/// [`MAX_LISTED_CHARS`] with a pointer to the whole doc.
fn listed_description(full: &str, name: &str) -> Option<String> {
    let full = full.trim();
    if full.is_empty() {
        return None;
    }
    let para = full.split("\n\n").next().unwrap_or(full);
    let para = para.split_whitespace().collect::<Vec<_>>().join(" ");
    let whole = para.chars().count() <= MAX_LISTED_CHARS && para.len() + 2 >= full.len();
    if whole && !full.contains("\n\n") {
        return Some(para);
    }
    let cut: String = para.chars().take(MAX_LISTED_CHARS).collect();
    Some(format!("{}… (more: (doc tool/{name}))", cut.trim_end()))
}

impl Tool for McpTool {
    fn info(&self) -> &ToolInfo {
        &self.info
    }

    fn call(&mut self, args: &[Value]) -> Result<Value, String> {
        self.call_within(args, None)
    }

    fn set_timeout(&mut self, timeout: Option<Duration>) {
        self.timeout = timeout;
    }

    fn call_within(
        &mut self,
        args: &[Value],
        time_left: Option<Duration>,
    ) -> Result<Value, String> {
        self.call_with(
            args,
            &CallContext {
                time_left,
                idempotency_key: None,
            },
        )
    }

    /// A write's idempotency key goes in the request's `_meta`
    /// (`{"ptc/idempotency_key": KEY}`, ACT-3).
    fn call_with(&mut self, args: &[Value], ctx: &CallContext) -> Result<Value, String> {
        let limit = crate::session::call_limit(self.timeout, ctx.time_left);
        let arguments = self.arguments(args)?;
        self.server.call(
            &self.mcp_name,
            arguments,
            limit,
            ctx.idempotency_key.as_deref(),
        )
    }

    /// The call as a job on the shared connection: calls of a `pmap` are
    /// in flight together, each answer matched to its request by id
    /// (`wire.rs`).
    fn start(&mut self, args: &[Value], ctx: &CallContext) -> Option<Job> {
        let limit = crate::session::call_limit(self.timeout, ctx.time_left);
        let arguments = self.arguments(args);
        let server = self.server.clone();
        let name = self.mcp_name.clone();
        let key = ctx.idempotency_key.clone();
        Some(Box::new(move || {
            server.call(&name, arguments?, limit, key.as_deref())
        }))
    }

    fn to_file(&self) -> crate::session::ToolFile {
        crate::session::ToolFile {
            signature: Some(self.info.signature.text().to_string()),
            description: self.info.description.clone(),
            mcp: Some(self.server.name.clone()),
            ..Default::default()
        }
        .with_acts(&self.info.acts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_descriptions_point_to_doc() {
        assert_eq!(
            listed_description("Reads a file.", "fs.read").as_deref(),
            Some("Reads a file.")
        );
        let long = "word ".repeat(200);
        let d = listed_description(&long, "fs.read").unwrap();
        assert!(d.ends_with("… (more: (doc tool/fs.read))"), "{d}");
        assert!(d.chars().count() < MAX_LISTED_CHARS + 40);
        let two = listed_description("First part.\n\nSecond part.", "fs.x").unwrap();
        assert!(two.starts_with("First part.…"), "{two}");
        assert_eq!(listed_description("  ", "x"), None);
    }
}
