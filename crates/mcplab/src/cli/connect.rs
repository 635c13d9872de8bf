//! The flags shared by several commands, as clap types: the few that apply to every command
//! ([`Global`]), the ones of commands that connect to servers ([`ConnectArgs`]: which server,
//! how to talk to it, what it may make mcplab hold) and the web inspector's ([`ServeArgs`]).
//! It also merges what was typed before the subcommand (`mcplab --demo tools list`) with what
//! was typed after it. Parsing and merging only: nothing here connects or reads files.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

/// The flags every command takes, anywhere on the line (`global`).
#[derive(Args, Debug, Clone)]
#[command(next_help_heading = "Output and data")]
pub struct Global {
    /// Data directory (configs, state). Defaults to the platform's data directory.
    #[arg(long, global = true, env = "MCPLAB_DATA_DIR", value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
    /// Print exact protocol results (and errors) as JSON instead of human output.
    #[arg(long, global = true)]
    pub json: bool,
    /// Print server text byte for byte, terminal control sequences included (by default they
    /// are shown as visible escapes such as `\x1b`, so a server cannot drive your terminal).
    #[arg(long, global = true)]
    pub raw: bool,
}

/// The flags of commands that connect to MCP servers. Accepted before the subcommand
/// (`mcplab --demo tools list`) and after it (`mcplab tools list --demo`).
#[derive(Args, Debug, Clone, Default)]
pub struct ConnectArgs {
    #[command(flatten)]
    pub target: TargetArgs,
    /// Print every JSON-RPC frame to stderr as it crosses the wire.
    #[arg(long, help_heading = "Connection")]
    pub trace: bool,
    /// Do not show what a stdio server writes to stderr (shown live, dimmed, by default).
    #[arg(long, help_heading = "Connection")]
    pub quiet_stderr: bool,
    /// Per-request timeout in seconds (progress notifications reset it).
    #[arg(long, value_name = "SECS", help_heading = "Connection")]
    pub timeout: Option<f64>,
    /// How to answer elicitation requests. Default: ask on a terminal, decline otherwise.
    #[arg(long, value_enum, value_name = "MODE", help_heading = "Connection")]
    pub elicitation: Option<ElicitationMode>,
    /// OAuth when a server answers 401: interactive (default: sign in in the browser),
    /// non-interactive (CI: follow the authorization server's redirect without a browser) or off.
    #[arg(
        long,
        value_enum,
        env = "MCPLAB_OAUTH",
        value_name = "MODE",
        help_heading = "Connection"
    )]
    pub oauth: Option<crate::cli::oauth::OAuthMode>,
    /// A root offered to servers (roots/list); repeatable.
    #[arg(long = "root", value_name = "PATH", help_heading = "Connection")]
    pub roots: Vec<PathBuf>,
    /// Minimum level of the server's log messages: sent with logging/setLevel (2025 revisions)
    /// or in every request's _meta (2026-07-28, where a request without it gets no logs).
    #[arg(long, value_enum, value_name = "LEVEL", help_heading = "Connection")]
    pub log_level: Option<LogLevel>,
    #[command(flatten)]
    pub limits: crate::cli::limits::LimitArgs,
}

/// Which server a command talks to.
#[derive(Args, Debug, Clone, Default)]
#[command(next_help_heading = "Target")]
pub struct TargetArgs {
    /// An mcpServers file (Claude Desktop, Cursor, VS Code) whose servers are added to the
    /// configured ones for this run (--server NAME picks one; a missing file is an error).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// A configured server (repeatable for `chat` and the inspector).
    #[arg(long = "server", short = 's', value_name = "NAME", conflicts_with_all = ["stdio", "url", "demo"])]
    pub servers: Vec<String>,
    /// The built-in demo server (this binary's `demo-server`, over stdio).
    #[arg(long, conflicts_with_all = ["stdio", "url"])]
    pub demo: bool,
    /// Run a stdio server: the command line, e.g. "npx -y @modelcontextprotocol/server-everything".
    #[arg(long, value_name = "COMMAND", conflicts_with = "url")]
    pub stdio: Option<String>,
    /// Environment variable for --stdio (K=V); repeatable.
    #[arg(long = "env", short = 'e', value_name = "K=V")]
    pub env: Vec<String>,
    /// Working directory for --stdio.
    #[arg(long, value_name = "DIR")]
    pub cwd: Option<String>,
    /// A remote server URL.
    #[arg(long, value_name = "URL")]
    pub url: Option<String>,
    /// HTTP header for --url (K:V); repeatable.
    #[arg(long = "header", value_name = "K:V")]
    pub headers: Vec<String>,
    /// Bearer token for --url (sent as Authorization: Bearer …).
    #[arg(
        long,
        value_name = "TOKEN",
        env = "MCPLAB_BEARER",
        hide_env_values = true
    )]
    pub bearer: Option<String>,
    /// Transport for --url [default: http, falling back to sse when the server refuses the
    /// POST with HTTP 400, 404 or 405, as the spec's backwards compatibility suggests].
    #[arg(long, value_enum)]
    pub transport: Option<RemoteTransport>,
    /// Protocol revision: auto (try 2026-07-28 via server/discover, fall back to the
    /// initialize handshake), 2026-07-28, 2025-11-25, 2025-06-18 or 2025-03-26. Overrides a
    /// configured server's setting.
    #[arg(long, value_name = "REVISION", value_parser = parse_protocol)]
    pub protocol: Option<mcplab_protocol::ProtocolChoice>,
    #[command(flatten)]
    pub oauth: crate::cli::oauth::OAuthTargetArgs,
}

/// Flags of the web inspector (`mcplab` / `mcplab serve`).
#[derive(Args, Debug, Clone, Default)]
#[command(next_help_heading = "Web inspector")]
pub struct ServeArgs {
    /// Port of the web inspector; when the default is busy the next free one is used.
    #[arg(long, value_name = "PORT")]
    pub port: Option<u16>,
    /// Do not open the browser.
    #[arg(long)]
    pub no_open: bool,
    /// Listen on this address instead of 127.0.0.1. Anything but loopback exposes the
    /// inspector (which can start processes) to your network: only with good reason.
    #[arg(long, value_name = "ADDR")]
    pub host: Option<String>,
    #[command(flatten)]
    pub chromium: ChromiumArg,
    #[command(flatten)]
    pub otlp: OtlpArg,
}

/// Where OpenTelemetry spans go (`serve`, `chat`, `eval run`).
#[derive(Args, Debug, Clone, Default)]
#[command(next_help_heading = "Tracing")]
pub struct OtlpArg {
    /// Export each chat turn and eval iteration as OpenTelemetry spans (GenAI semantic
    /// conventions: model, tokens, tool calls; cost and verdict as mcplab.* attributes) to
    /// this OTLP/HTTP collector, e.g. http://127.0.0.1:4318 (/v1/traces is added). Sent in
    /// the background: a collector that fails is told once and never stops a turn or a run.
    #[arg(long, env = "MCPLAB_OTLP", value_name = "URL")]
    pub otlp: Option<String>,
}

/// The Chromium of commands that render apps (`serve`, `apps render`, `eval run`, `check --host`).
#[derive(Args, Debug, Clone, Default)]
#[command(next_help_heading = "Rendering")]
pub struct ChromiumArg {
    /// Chromium for headless app rendering (`apps render`, evals' render checks, `check --host`,
    /// the web's screenshot button). Default: chromium, chromium-browser or google-chrome on PATH.
    #[arg(long, env = "MCPLAB_CHROMIUM", value_name = "PATH")]
    pub chromium: Option<PathBuf>,
}

fn parse_protocol(text: &str) -> Result<mcplab_protocol::ProtocolChoice, String> {
    mcplab_protocol::ProtocolChoice::parse(text)
        .ok_or_else(|| "expected auto, 2026-07-28, 2025-11-25, 2025-06-18 or 2025-03-26".to_owned())
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RemoteTransport {
    /// Streamable HTTP.
    #[default]
    Http,
    /// Legacy HTTP+SSE.
    Sse,
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum ElicitationMode {
    /// Prompt for each field on the terminal.
    Ask,
    /// Accept with the schema's defaults.
    AcceptDefaults,
    Decline,
    Cancel,
}

#[derive(ValueEnum, Debug, Clone, Copy)]
pub enum LogLevel {
    Debug,
    Info,
    Notice,
    Warning,
    Error,
    Critical,
    Alert,
    Emergency,
}
