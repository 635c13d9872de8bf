//! mcplab's own MCP server side (feature `server`): the rmcp server that serves a
//! [`ToolHost`] — a set of tools written without rmcp — over stdio, any byte stream, or
//! streamable HTTP on loopback (`http.rs`), in both protocol eras. It turns a `tools/call`
//! into one [`ToolHost::call`] with a [`CallScope`]: the client's progress token, the request's
//! cancellation, and a [`ClientLink`] that forwards elicitation and sampling to the client
//! when it declared them (`client_link.rs`; for 2026-07-28 clients as `input_required` rounds,
//! `rounds.rs`). It owns no tool logic: `mcplab-agent` does.

mod client_link;
mod http;
mod rounds;

use std::sync::Arc;

use futures::future::BoxFuture;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

pub use client_link::{ClientLink, Progress};
pub use http::serve_http;

/// Why serving stopped early.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("the MCP session could not start: {0}")]
    Start(String),
    #[error("the MCP session ended with an error: {0}")]
    Session(String),
    #[error("the HTTP listener failed: {0}")]
    Listen(String),
    #[error("tool `{tool}` has a definition rmcp cannot read: {why}")]
    BadTool { tool: String, why: String },
}

/// One tool as a client lists it. The schemas are JSON Schema objects.
#[derive(Debug, Clone)]
pub struct ToolSpec {
    pub name: String,
    pub title: String,
    pub description: String,
    pub input_schema: Value,
    pub output_schema: Value,
    /// `readOnlyHint`: the tool changes nothing (listing, reading what was recorded).
    pub read_only: bool,
}

impl ToolSpec {
    /// The tool as it appears in `tools/list`.
    pub fn to_json(&self) -> Value {
        serde_json::json!({
            "name": self.name,
            "title": self.title,
            "description": self.description,
            "inputSchema": self.input_schema,
            "outputSchema": self.output_schema,
            "annotations": { "readOnlyHint": self.read_only },
        })
    }
}

/// An image returned as MCP image content (base64 `data`).
#[derive(Debug, Clone)]
pub struct ImageBlock {
    pub mime_type: String,
    pub data_base64: String,
}

/// What a tool call returns: a short text for the model, the structured result (which matches
/// the tool's output schema), images, and whether the call failed.
#[derive(Debug, Clone)]
pub struct ToolReply {
    pub summary: String,
    pub structured: Value,
    pub images: Vec<ImageBlock>,
    pub is_error: bool,
}

/// What a call may use besides its arguments.
pub struct CallScope {
    /// Fires when the client cancels the request (or the session ends).
    pub cancel: CancellationToken,
    /// Reports progress when the client sent a progress token.
    pub progress: Progress,
    /// The client that made the call, for forwarding server-initiated requests.
    pub client: ClientLink,
}

/// The server's name, version and instructions.
#[derive(Debug, Clone)]
pub struct HostIdentity {
    pub name: String,
    pub version: String,
    pub instructions: String,
}

/// A set of tools served over MCP.
pub trait ToolHost: Send + Sync + 'static {
    fn identity(&self) -> HostIdentity;
    fn tools(&self) -> &[ToolSpec];
    /// Runs tool `name`; `None` when there is no such tool.
    fn call(
        &self,
        name: &str,
        arguments: Value,
        scope: CallScope,
    ) -> Option<BoxFuture<'static, ToolReply>>;
}

/// The rmcp handler over a [`ToolHost`]; cheap to clone (one per HTTP session).
#[derive(Clone)]
struct Handler {
    host: Arc<dyn ToolHost>,
    tools: Arc<Vec<Tool>>,
    /// 2026-07-28 calls waiting for their client's input.
    rounds: rounds::Rounds,
}

impl Handler {
    fn new(host: Arc<dyn ToolHost>) -> Result<Self, ServeError> {
        let tools = host
            .tools()
            .iter()
            .map(|spec| {
                serde_json::from_value::<Tool>(spec.to_json()).map_err(|e| ServeError::BadTool {
                    tool: spec.name.clone(),
                    why: e.to_string(),
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Self {
            host,
            tools: Arc::new(tools),
            rounds: rounds::Rounds::default(),
        })
    }
}

impl ServerHandler for Handler {
    fn get_info(&self) -> ServerConfig {
        let id = self.host.identity();
        let capabilities = ServerCapabilities::builder().enable_tools().build();
        ServerConfig::new(capabilities)
            .with_server_info(Implementation::new(id.name, id.version))
            .with_instructions(id.instructions)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools.as_ref().clone()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if let Some(state) = &request.request_state {
            let responses = request.input_responses.unwrap_or_default();
            return self.rounds.resume(state, responses, &context).await;
        }
        let arguments = Value::Object(request.arguments.unwrap_or_default());
        let modern = client_link::is_modern(&context);
        // A 2026-07-28 call runs on its own: it may have to answer `input_required` and wait.
        let (inputs, asks) = tokio::sync::mpsc::unbounded_channel();
        let cancel = match modern {
            true => CancellationToken::new(),
            false => context.ct.clone(),
        };
        let progress = Progress::new(&context);
        let scope = CallScope {
            cancel: cancel.clone(),
            progress: progress.clone(),
            client: ClientLink::new(&context, modern.then_some(inputs)),
        };
        let Some(running) = self.host.call(&request.name, arguments, scope) else {
            // The spec's error for an unknown tool (server/tools, "Error Handling").
            return Err(ErrorData::invalid_params(
                format!("there is no tool `{}`; tools/list names them", request.name),
                None,
            ));
        };
        if !modern {
            return Ok(result_of(running.await).into());
        }
        let running = rounds::Running::start(running, asks, cancel, progress);
        self.rounds.drive(running, &context.ct).await
    }
}

fn result_of(reply: ToolReply) -> CallToolResult {
    let mut content = vec![ContentBlock::text(reply.summary)];
    for image in reply.images {
        content.push(ContentBlock::image(image.data_base64, image.mime_type));
    }
    let mut result = if reply.is_error {
        CallToolResult::error(content)
    } else {
        CallToolResult::success(content)
    };
    result.structured_content = Some(reply.structured);
    result
}

/// Serves `host` on this process's stdin/stdout until the client closes stdin.
pub async fn serve_stdio(host: Arc<dyn ToolHost>) -> Result<(), ServeError> {
    let (read, write) = rmcp::transport::stdio_pipes();
    serve_io(host, read, write).await
}

/// Serves `host` on a byte stream pair until the peer closes it.
pub async fn serve_io<R, W>(host: Arc<dyn ToolHost>, read: R, write: W) -> Result<(), ServeError>
where
    R: tokio::io::AsyncRead + Send + Unpin + 'static,
    W: tokio::io::AsyncWrite + Send + Unpin + 'static,
{
    let running = Handler::new(host)?
        .serve((read, write))
        .await
        .map_err(|e| ServeError::Start(e.to_string()))?;
    running
        .waiting()
        .await
        .map_err(|e| ServeError::Session(e.to_string()))?;
    Ok(())
}
