//! mcplab-agent: `mcplab mcp`, the inspector's operations as MCP tools for the coding agent
//! that writes a server (issue 25). An [`Agent`] holds one `ConnectionManager` whose connections
//! live across calls, starts only what the person's [`AllowList`] allows, keeps what servers
//! send (notifications, stderr) until the agent asks for it, answers their elicitation and
//! sampling requests by the agent's policy or forwards them to the agent's client, and runs
//! `check`, evals and host-profile look-ups on the same rules. It is a
//! [`ToolHost`](mcplab_mcp::tool_server::ToolHost): mcplab-mcp's `tool_server` serves it over
//! stdio or HTTP. It reads no argv, env or files of its own: the binary hands everything in.
//!
//! # Where things are
//!
//! - `crates/mcplab-agent/src/`: `mcplab mcp` (issue 25): the inspector's operations as MCP tools
//!   for a coding agent, served through mcplab-mcp's `tool_server`. `lib.rs` (`Agent`: one manager,
//!   connections kept across calls, dispatch), `catalog.rs` (the 17 tools' descriptions and
//!   schemas; a test keeps them under 3,000 tokens), `allow.rs` (configured servers exactly, else
//!   `--allow-command`/`--allow-url` globs; refusals say how to allow), `servers.rs`
//!   (servers/connect/disconnect/restart), `surface.rs` (what `restart` diffs), `calls.rs` (list,
//!   call_tool, read_resource, get_prompt, complete: exact results, progress and cancellation
//!   passed through), `inbox.rs` (notifications and stderr since the last read, bounded),
//!   `answers.rs` (elicitation/sampling: policy or forwarded), `traffic.rs`, `check.rs`,
//!   `evals.rs`, `hosts.rs`, `render.rs` (`AppRender` handed in by the binary). Tests:
//!   `crates/mcplab/tests/it/agent_mcp.rs` with `tests/python/agent_client.py` (Python SDK 1.x and
//!   2.x: sessions, `render_app` in Chromium, `eval_run` on the scripted LLM,
//!   `--timeout`/`--limit`, cleanup), `agent_mcp_ts.rs` with `tests/interop/ts/agent_client.mjs`
//!   (TypeScript SDK 2.x, both eras, stdio and `--http`, a `render_app` PNG, cleanup),
//!   `person.rs` (`--attach`: the running inspector's servers, traffic and notifications — the
//!   person's — for `servers`, `traffic` and `notifications`),
//!   `agent_config.rs` (`servers export --for AGENT` = the README's snippets, from
//!   `crates/mcplab/src/commands/agent_config.rs`). `--attach` lives in the binary
//!   (`commands/mcp_attach.rs`): the agent manager's traffic feed mirrored to a running `mcplab
//!   serve` as one live tap per server (mcplab-tap's `LiveSink`), clientInfo `mcplab-agent`.

mod allow;
mod answers;
mod calls;
mod catalog;
mod check;
mod evals;
mod hosts;
mod inbox;
mod person;
mod render;
mod reply;
mod servers;
mod surface;
mod traffic;

use std::collections::BTreeMap;
use std::sync::Arc;

use futures::FutureExt;
use futures::future::BoxFuture;
use mcplab_core::session::profiles::HostProfiles;
use mcplab_mcp::tool_server::{CallScope, HostIdentity, ToolHost, ToolReply, ToolSpec};
use mcplab_mcp::{ConnectionManager, ManagerOptions};
use parking_lot::Mutex;
use serde_json::Value;

pub use allow::{AllowList, PatternError, Refusal};
pub use evals::EvalSetup;
pub use person::Inspector;
pub use render::{AppRender, RenderRequest, Rendered};

use answers::Answers;
use inbox::Inbox;
use servers::Known;

const INSTRUCTIONS: &str = "mcplab's inspector as tools, for testing an MCP server while you \
write it. `connect` it once (a configured name, or a command line/URL the person allowed), then \
`list`, `call_tool`, `read_resource`, `get_prompt` as often as you like; after rebuilding call \
`restart` to see what changed. `notifications`, `stderr` and `traffic` show what the server \
sent. `check` lints it against the spec, `render_app` shows a tool's app as a PNG, `eval_run` \
runs an eval suite.";

/// What the binary hands in besides the connection manager.
pub struct Setup {
    pub allow: AllowList,
    pub hosts: HostProfiles,
    /// The options of the managers `check` connects on (a fresh traffic log each time).
    pub manager_options: ManagerOptions,
    /// What `eval_run` needs; `Err`: why evals cannot run here.
    pub evals: Result<EvalSetup, String>,
    /// Renders apps; `Err`: why apps cannot be rendered here (no Chromium).
    pub renderer: Result<Arc<dyn AppRender>, String>,
    /// `--attach`: the running inspector, whose own connections are the person's.
    pub inspector: Option<Arc<dyn Inspector>>,
}

/// `mcplab mcp`'s tools over one connection manager. Cheap to clone.
#[derive(Clone)]
pub struct Agent {
    inner: Arc<Inner>,
}

struct Inner {
    manager: Arc<ConnectionManager>,
    setup: Setup,
    tools: Vec<ToolSpec>,
    /// Every server the agent can name: the configured ones and those it connected.
    known: Mutex<BTreeMap<String, Known>>,
    inbox: Arc<Inbox>,
    answers: Arc<Answers>,
    listener: Mutex<Option<tokio::task::JoinHandle<()>>>,
    /// `--attach`: what the person did in the inspector.
    person: Option<person::Person>,
}

impl Agent {
    /// An agent over `manager`; starts listening to its servers' events.
    pub fn start(manager: Arc<ConnectionManager>, setup: Setup) -> Self {
        let known = setup
            .allow
            .configured()
            .iter()
            .map(|c| (c.name.clone(), Known::configured(c.clone())))
            .collect();
        let inbox = Arc::new(Inbox::default());
        let answers = Arc::new(Answers::new(manager.clone()));
        let listener = inbox::listen(manager.clone(), inbox.clone(), answers.clone());
        let person = setup.inspector.clone().map(person::Person::new);
        Self {
            inner: Arc::new(Inner {
                manager,
                setup,
                tools: catalog::tools(),
                known: Mutex::new(known),
                inbox,
                answers,
                listener: Mutex::new(Some(listener)),
                person,
            }),
        }
    }

    /// Closes every connection (stopping every server process) and stops listening.
    pub async fn shutdown(&self) {
        self.inner.manager.shutdown().await;
        if let Some(listener) = self.inner.listener.lock().take() {
            listener.abort();
        }
    }

    pub fn manager(&self) -> &Arc<ConnectionManager> {
        &self.inner.manager
    }

    async fn dispatch(self, name: String, arguments: Value, scope: CallScope) -> ToolReply {
        let _caller = self.inner.answers.enter(&arguments, scope.client.clone());
        match name.as_str() {
            "servers" => self.servers_tool().await,
            "connect" => self.connect_tool(arguments, &scope).await,
            "disconnect" => self.disconnect_tool(arguments).await,
            "restart" => self.restart_tool(arguments, &scope).await,
            "list" => self.list_tool(arguments, &scope).await,
            "call_tool" => self.call_tool(arguments, &scope).await,
            "read_resource" | "get_prompt" | "complete" => {
                self.request_tool(&name, arguments, &scope).await
            }
            "notifications" => self.inbox_tool(inbox::Stream::Events, arguments).await,
            "stderr" => self.inbox_tool(inbox::Stream::Stderr, arguments).await,
            "traffic" => self.traffic_tool(arguments).await,
            "policy" => self.inner.answers.policy_tool(arguments),
            "check" => self.check_tool(arguments, &scope).await,
            "eval_run" => self.eval_tool(arguments, &scope).await,
            "hosts" => self.hosts_tool(arguments),
            "render_app" => self.render_tool(arguments, &scope).await,
            other => reply::fail(format!("there is no tool `{other}`")),
        }
    }
}

impl ToolHost for Agent {
    fn identity(&self) -> HostIdentity {
        HostIdentity {
            name: "mcplab".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            instructions: INSTRUCTIONS.into(),
        }
    }

    fn tools(&self) -> &[ToolSpec] {
        &self.inner.tools
    }

    fn call(
        &self,
        name: &str,
        arguments: Value,
        scope: CallScope,
    ) -> Option<BoxFuture<'static, ToolReply>> {
        if !self.inner.tools.iter().any(|t| t.name == name) {
            return None;
        }
        Some(
            self.clone()
                .dispatch(name.to_owned(), arguments, scope)
                .boxed(),
        )
    }
}
