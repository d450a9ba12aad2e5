//! The rmcp `ServerHandler` of one MCP session: tools, prompt, resource.
//! Each call runs on a blocking thread ([`tokio::task::spawn_blocking`]);
//! when the request is cancelled or the session ends (rmcp cancels the
//! request's token), the turn's interrupt flag is set and the turn ends at
//! once with an "interrupted" error, memory unchanged.

use std::borrow::Cow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock as Content,
    GetPromptRequestParams, GetPromptResponse, GetPromptResult, Implementation, ListPromptsResult,
    ListResourcesResult, ListToolsResult, PaginatedRequestParams, Prompt, PromptMessage,
    ProtocolVersion, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Resource,
    ResourceContents, Role, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};

use super::client::ClientSession;
use super::describe::{self, PROMPT_NAME, SYSTEM_URI};
use super::{answer, Template};
use crate::render::system_prompt;

/// The server of one MCP session (one stdio connection, one HTTP
/// `Mcp-Session-Id`).
#[derive(Clone)]
pub struct PtcServer {
    client: Arc<ClientSession>,
    tools: Arc<Vec<Tool>>,
    template: Arc<Template>,
}

impl PtcServer {
    /// A server with a fresh session from `template`.
    pub fn new(template: Arc<Template>) -> Result<PtcServer, String> {
        let client = ClientSession::new(template.clone())?;
        let tools = describe::tools(&client.listing());
        Ok(PtcServer {
            client: Arc::new(client),
            tools: Arc::new(tools),
            template,
        })
    }

    async fn run(
        &self,
        program: String,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        let flag = Arc::new(AtomicBool::new(false));
        let client = self.client.clone();
        let turn_flag = flag.clone();
        let mut task = tokio::task::spawn_blocking(move || client.run(&program, turn_flag));
        let ran = tokio::select! {
            r = &mut task => r,
            _ = context.ct.cancelled() => {
                // The client cancelled or went away: stop the turn and
                // let it finish (it fails, memory unchanged).
                flag.store(true, Ordering::SeqCst);
                let ended = task.await;
                eprintln!("ptc mcp: a call was cancelled or its client left: its turn was interrupted");
                ended
            }
        };
        let ran = ran
            .map_err(|e| McpError::internal_error(format!("the turn crashed: {e}"), None))?
            .map_err(|e| McpError::internal_error(e, None))?;
        Ok(answer::call_result(
            &ran,
            self.template.options().max_output_tokens,
        ))
    }

    async fn blocking<T: Send + 'static>(
        &self,
        f: impl FnOnce(&ClientSession) -> T + Send + 'static,
    ) -> Result<T, McpError> {
        let client = self.client.clone();
        tokio::task::spawn_blocking(move || f(&client))
            .await
            .map_err(|e| McpError::internal_error(format!("crashed: {e}"), None))
    }
}

/// The `program` argument, or a clear invalid-params error.
fn program_of(request: &CallToolRequestParams) -> Result<String, McpError> {
    match request.arguments.as_ref().and_then(|a| a.get("program")) {
        Some(serde_json::Value::String(p)) => Ok(p.clone()),
        Some(other) => Err(McpError::invalid_params(
            format!(
                "run_ptc_lisp: \"program\" must be a string of PTC-Lisp source, got {}",
                crate::session::reply::json_type(other)
            ),
            None,
        )),
        None => Err(McpError::invalid_params(
            "run_ptc_lisp: missing the argument \"program\" (PTC-Lisp source, e.g. {\"program\": \"(+ 1 2)\"})",
            None,
        )),
    }
}

impl ServerHandler for PtcServer {
    fn get_info(&self) -> ServerConfig {
        let mission = self.template.mission();
        let mut instructions = String::from(
            "Solve tasks by writing PTC-Lisp programs (a safe Clojure subset) and running them with \
             run_ptc_lisp; definitions persist between calls, a failed call changes nothing. \
             The full language reference is the prompt 'ptc-lisp'.",
        );
        if !mission.trim().is_empty() {
            instructions.push_str("\n\n");
            instructions.push_str(mission.trim_end());
        }
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_prompts()
                .enable_resources()
                .build(),
        )
        .with_server_info(Implementation::new("ptc", env!("CARGO_PKG_VERSION")))
        .with_protocol_version(ProtocolVersion::V_2025_11_25)
        .with_instructions(instructions)
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        // Sessions (and so a client's definitions) need the
        // initialize handshake: 2026-07-28 has neither.
        Cow::Borrowed(ProtocolVersion::known_up_to(
            &ProtocolVersion::LATEST_WITH_INITIALIZE,
        ))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(self.tools.as_ref().clone()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools.iter().find(|t| t.name == name).cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let result = match request.name.as_ref() {
            "run_ptc_lisp" => {
                let program = program_of(&request)?;
                self.run(program, context).await?
            }
            "ptc_state" => {
                let listing = self.blocking(|c| c.listing()).await?;
                let max = self.template.options().max_output_tokens;
                CallToolResult::success(vec![Content::text(answer::cap_text(&listing, max))])
            }
            "ptc_reset" => {
                let dropped = self.blocking(|c| c.reset()).await?;
                let n = dropped.map_err(|e| McpError::internal_error(e, None))?;
                CallToolResult::success(vec![Content::text(format!(
                    "Session reset: every definition cleared ({n} earlier call{} dropped).",
                    if n == 1 { "" } else { "s" }
                ))])
            }
            other => {
                return Err(McpError::invalid_params(
                    format!(
                    "unknown tool {other:?}: this server has run_ptc_lisp, ptc_state and ptc_reset"
                ),
                    None,
                ))
            }
        };
        Ok(result.into())
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, McpError> {
        Ok(ListPromptsResult::with_all_items(vec![Prompt::new(
            PROMPT_NAME,
            Some("The full PTC-Lisp reference (ptc's SYSTEM prompt) and this session's namespaces"),
            None,
        )]))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, McpError> {
        if request.name != PROMPT_NAME {
            return Err(McpError::invalid_params(
                format!(
                    "unknown prompt {:?}: this server has {PROMPT_NAME:?}",
                    request.name
                ),
                None,
            ));
        }
        let listing = self.blocking(|c| c.listing()).await?;
        Ok(GetPromptResult::new(vec![
            PromptMessage::new_text(Role::User, system_prompt()),
            PromptMessage::new_text(Role::User, listing),
        ])
        .with_description("The PTC-Lisp reference and this session's namespaces")
        .into())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        let mut r = Resource::new(SYSTEM_URI, "ptc-lisp-reference")
            .with_description("The full PTC-Lisp reference (ptc's SYSTEM prompt)");
        r.mime_type = Some("text/markdown".into());
        Ok(ListResourcesResult::with_all_items(vec![r]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        if request.uri != SYSTEM_URI {
            return Err(McpError::resource_not_found(
                format!(
                    "unknown resource {:?}: this server has {SYSTEM_URI}",
                    request.uri
                ),
                None,
            ));
        }
        Ok(
            ReadResourceResult::new(vec![ResourceContents::text(system_prompt(), SYSTEM_URI)])
                .into(),
        )
    }
}
