//! The rmcp `ServerHandler` of one MCP session: tools, prompt, resource.
//!
//! Every request that reads or changes the session (`tools/call`,
//! `prompts/get`) runs on the shared evaluation workers (`pool.rs`), one
//! at a time per session: a request waits for the session's running one
//! (at most `max_queued` may wait; past that it is refused at once with
//! the JSON-RPC error [`BUSY`]), then for a free worker. No request takes
//! a thread of its own. When a call is cancelled or its session ends
//! (rmcp cancels the request's token, or drops the request), the turn's
//! interrupt flag is set and the turn ends at once with an "interrupted"
//! error, memory unchanged.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock as Content, ErrorCode,
    GetPromptRequestParams, GetPromptResponse, GetPromptResult, Implementation, ListPromptsResult,
    ListResourcesResult, ListToolsResult, PaginatedRequestParams, Prompt, PromptMessage,
    ProtocolVersion, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Resource,
    ResourceContents, Role, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::model::{ElicitRequestParams, ElicitationAction, ElicitationSchema};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};

use super::client::{ClientSession, Outcome};
use super::describe::{PROMPT_DESCRIPTION, PROMPT_NAME, SYSTEM_MIME, SYSTEM_URI};
use super::{answer, Slot, Template, BUSY};
use crate::render::system_prompt;
use crate::session::{Decision, PendingCall};
use crate::value::to_json;

/// The server of one MCP session (one stdio connection, one HTTP
/// `Mcp-Session-Id`).
#[derive(Clone)]
pub struct PtcServer {
    client: Arc<ClientSession>,
    template: Arc<Template>,
}

/// Sets a turn's interrupt flag when dropped armed: a call whose request
/// is dropped before its answer stops its turn.
struct InterruptOnDrop(Option<Arc<AtomicBool>>);

impl Drop for InterruptOnDrop {
    fn drop(&mut self) {
        if let Some(flag) = self.0.take() {
            flag.store(true, Ordering::SeqCst);
        }
    }
}

/// Counts a request among its session's pending ones while it lives.
struct Pending<'a>(&'a AtomicUsize);

impl Drop for Pending<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl PtcServer {
    /// A server with a fresh session from `template` (taking one of its
    /// session places: an error at the limit).
    pub fn new(template: Arc<Template>) -> Result<PtcServer, String> {
        let slot = template
            .session_slot()
            .ok_or_else(|| too_many_sessions(&template))?;
        PtcServer::with_slot(template, slot)
    }

    /// A server with a fresh session in the place `slot`.
    pub(super) fn with_slot(template: Arc<Template>, slot: Slot) -> Result<PtcServer, String> {
        let client = ClientSession::new(template.clone(), slot)?;
        Ok(PtcServer {
            client: Arc::new(client),
            template,
        })
    }

    /// Runs `f` on the session, after the calls before it, on a shared
    /// worker. `interrupt` (a turn's flag) is set when the request is
    /// cancelled or dropped meanwhile.
    async fn exclusive<T: Send + 'static>(
        &self,
        what: &str,
        context: &RequestContext<RoleServer>,
        interrupt: Option<Arc<AtomicBool>>,
        f: impl FnOnce(&ClientSession) -> T + Send + 'static,
    ) -> Result<T, McpError> {
        let client = &self.client;
        let max = self.template.options().max_queued;
        let before = client.pending.fetch_add(1, Ordering::SeqCst);
        let _pending = Pending(&client.pending);
        if before > max {
            return Err(McpError::new(
                ErrorCode(BUSY),
                format!(
                    "{what}: this session already has {before} calls running or waiting, the most it may have \
                     (one running and {max} waiting, ptc mcp --max-queued); a session runs one call at a time: \
                     wait for the answers before sending more"
                ),
                None,
            ));
        }
        let mut guard = InterruptOnDrop(interrupt);
        let permit = tokio::select! {
            p = client.turn.clone().acquire_owned() => p.map_err(|e| {
                McpError::internal_error(format!("{what}: the session is closed ({e})"), None)
            })?,
            _ = context.ct.cancelled() => {
                return Err(McpError::internal_error(format!("{what}: cancelled before it ran"), None));
            }
        };
        let session = client.clone();
        let job = self.template.pool.run(&client.load, move || {
            let _permit = permit;
            f(&session)
        });
        tokio::pin!(job);
        let ran = tokio::select! {
            r = &mut job => r,
            _ = context.ct.cancelled() => {
                // The client cancelled or went away: stop the turn and
                // let it finish (it fails, memory unchanged).
                let interrupted = match guard.0.take() {
                    Some(flag) => {
                        flag.store(true, Ordering::SeqCst);
                        true
                    }
                    None => false,
                };
                let r = job.await;
                if interrupted {
                    eprintln!("ptc mcp: a call was cancelled or its client left: its turn was interrupted");
                }
                r
            }
        };
        guard.0 = None;
        ran.map_err(|e| McpError::internal_error(format!("{what}: {e}"), None))
    }

    /// Runs a `run_ptc_lisp` call. A turn that pauses for approval
    /// (ACT-2) is answered by the user through elicitation when the client
    /// supports it, else every pending call is denied ([`NO_ELICITATION`]);
    /// either way the session resumes and the model sees the resumed
    /// turn (which may pause again, at a later call).
    async fn run(
        &self,
        program: String,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        let flag = Arc::new(AtomicBool::new(false));
        let turn_flag = flag.clone();
        let mut outcome = self
            .exclusive("run_ptc_lisp", &context, Some(flag), move |c| {
                c.run(&program, turn_flag)
            })
            .await?
            .map_err(|e| McpError::internal_error(e, None))?;
        let ran = loop {
            let pending = match outcome {
                Outcome::Done(ran) => break ran,
                Outcome::Paused(pending) => pending,
            };
            let decisions = approvals(&pending, &context).await;
            let flag = Arc::new(AtomicBool::new(false));
            let turn_flag = flag.clone();
            outcome = self
                .exclusive("run_ptc_lisp", &context, Some(flag), move |c| {
                    c.resume(decisions, turn_flag)
                })
                .await?
                .map_err(|e| McpError::internal_error(e, None))?;
        };
        Ok(answer::call_result(
            &ran,
            self.template.options().max_output_tokens,
            ran.first,
        ))
    }
}

/// Why a pending call is denied when the client cannot ask its user.
pub const NO_ELICITATION: &str = "the MCP client cannot ask the user for approval (no elicitation \
     support); the call was not run";

/// Why a pending call is denied when the user said no.
pub const DECLINED: &str = "declined by the user";

/// The decisions on a paused turn's `pending` calls: the user's, one
/// elicitation each (accept approves; decline, cancel or a failed request
/// deny), or all denied when the client declared no elicitation support.
async fn approvals(
    pending: &[PendingCall],
    context: &RequestContext<RoleServer>,
) -> BTreeMap<String, Decision> {
    let can_ask = !context.peer.supported_elicitation_modes().is_empty();
    let mut decisions = BTreeMap::new();
    for call in pending {
        let decision = if !can_ask {
            Decision::Deny(NO_ELICITATION.to_string())
        } else {
            let request = ElicitRequestParams::FormElicitationParams {
                meta: None,
                message: approval_question(call),
                requested_schema: ElicitationSchema::new(BTreeMap::new()),
            };
            let asked = tokio::select! {
                r = context.peer.create_elicitation(request) => r.map_err(|e| e.to_string()),
                _ = context.ct.cancelled() => Err("the request was cancelled".to_string()),
            };
            match asked {
                Ok(answer) if answer.action == ElicitationAction::Accept => Decision::Approve,
                Ok(_) => Decision::Deny(DECLINED.to_string()),
                Err(e) => Decision::Deny(format!(
                    "the MCP client could not ask the user for approval ({e}); the call was not run"
                )),
            }
        };
        decisions.insert(call.id.clone(), decision);
    }
    decisions
}

/// What the user is asked about a pending call: the tool and its
/// arguments (as JSON), and whether it writes.
fn approval_question(call: &PendingCall) -> String {
    let args: Vec<String> = call.args.iter().map(|a| to_json(a).to_string()).collect();
    format!(
        "The program wants to call tool/{}({}){}. Approve this call?",
        call.tool,
        args.join(", "),
        if call.key.is_some() {
            ", which writes"
        } else {
            ""
        }
    )
}

/// The refusal of a session past `--max-sessions`.
pub(super) fn too_many_sessions(template: &Template) -> String {
    format!(
        "the server already serves {} MCP sessions, the most it may (ptc mcp --max-sessions); \
         try again once a session ends (idle sessions close after {} s), or end sessions you no longer use",
        template.options().max_sessions,
        template.options().idle.as_secs()
    )
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
        Ok(ListToolsResult::with_all_items(
            self.template.tools.as_ref().clone(),
        ))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.template.tools.iter().find(|t| t.name == name).cloned()
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
                let listing = self
                    .exclusive("ptc_state", &context, None, |c| c.listing())
                    .await?;
                answer::state_result(&listing, self.template.options().max_output_tokens)
            }
            "ptc_reset" => {
                let dropped = self
                    .exclusive("ptc_reset", &context, None, |c| c.reset())
                    .await?;
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
            Some(PROMPT_DESCRIPTION),
            None,
        )]))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
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
        let listing = self
            .exclusive("prompts/get", &context, None, |c| c.listing())
            .await?;
        // Capped as ptc_state's is: the user/ part grows with the session.
        let listing = answer::cap_text(&listing, self.template.options().max_output_tokens);
        Ok(GetPromptResult::new(vec![
            PromptMessage::new_text(Role::User, system_prompt()),
            PromptMessage::new_text(Role::User, listing),
        ])
        .with_description(PROMPT_DESCRIPTION)
        .into())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        let mut r = Resource::new(SYSTEM_URI, "ptc-lisp-reference")
            .with_description("The full PTC-Lisp reference (ptc's SYSTEM prompt)");
        r.mime_type = Some(SYSTEM_MIME.into());
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
        Ok(ReadResourceResult::new(vec![
            ResourceContents::text(system_prompt(), SYSTEM_URI).with_mime_type(SYSTEM_MIME)
        ])
        .into())
    }
}
