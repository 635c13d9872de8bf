//! `mcplab tap`'s flags: the tap itself (a server command after `--`, or `--url` with
//! `--listen`), where it records, and the subcommands that use a recording. Parsing only:
//! `commands/tap.rs` runs them with the `mcplab-tap` crate.

use std::ffi::OsString;
use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::ConnectArgs;

pub const TAP_HELP: &str = "\
Put it where the host starts your server, e.g. in claude_desktop_config.json:
  \"command\": \"mcplab\", \"args\": [\"tap\", \"--\", \"node\", \"server.js\"]
(or let `mcplab servers tap NAME --for claude` do it). Bytes pass both ways unchanged; every \
frame is recorded: live in a running `mcplab serve` (its traffic panel, labelled with the host), \
else in --record FILE or <data dir>/taps/. The server gets the tap's environment and stderr, its \
signals, and the tap exits as it exits.

For a host that connects by URL: mcplab tap --url https://server.example/mcp --listen \
127.0.0.1:7000, then give the host http://127.0.0.1:7000/mcp.";

#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true, after_help = TAP_HELP)]
pub struct TapArgs {
    #[command(subcommand)]
    pub cmd: Option<TapCmd>,
    #[command(flatten)]
    pub run: TapRun,
}

/// The tap itself.
#[derive(Args, Debug, Default)]
pub struct TapRun {
    /// The server's URL (streamable HTTP or legacy SSE): serve a reverse proxy for it on
    /// --listen instead of starting a command.
    #[arg(
        long,
        value_name = "URL",
        requires = "listen",
        conflicts_with = "command"
    )]
    pub url: Option<String>,
    /// Where the HTTP tap listens (loopback), e.g. 127.0.0.1:7000.
    #[arg(long, value_name = "ADDR", requires = "url")]
    pub listen: Option<SocketAddr>,
    /// Record to this file (JSON Lines), also when an inspector runs.
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Start a new recording file beyond this size (the old one becomes FILE.1, …).
    #[arg(long, value_name = "SIZE", default_value = "64MiB", value_parser = size)]
    pub record_max: usize,
    /// Older recording files kept (FILE.1 … FILE.N).
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub record_keep: u32,
    /// Do not send frames to a running inspector.
    #[arg(long)]
    pub no_live: bool,
    /// The longest frame recorded whole (longer ones keep their start and length; they pass
    /// whole).
    #[arg(long, value_name = "SIZE", default_value = "16MiB", value_parser = size)]
    pub max_frame: usize,
    /// The server's command and its arguments, after `--`.
    #[arg(last = true, value_name = "COMMAND")]
    pub command: Vec<OsString>,
}

#[derive(Subcommand, Debug)]
pub enum TapCmd {
    /// Send a recording's requests to a server again (--stdio, --server or --demo) and
    /// compare its answers with the recorded ones — JSON-RPC ids, timestamps and UUIDs aside;
    /// exit 1 on differences.
    Replay(Box<ReplayArgs>),
    /// Write an eval case of a recorded session: the tool calls the model made, in order,
    /// with their arguments and results ("expect these calls"); fill in what the user asked.
    Eval(ExportArgs),
    /// Write a `mcplab check` baseline of what the host saw (capabilities, tools, resources,
    /// templates, prompts per era), for `mcplab check --baseline FILE`.
    Baseline(ExportArgs),
}

/// `tap eval|baseline FILE`.
#[derive(Args, Debug)]
pub struct ExportArgs {
    /// The recording (JSON Lines, as `mcplab tap` writes it, or the traffic panel's export).
    pub file: PathBuf,
    /// Which host session (its session id; eval default: the first; baseline default: all).
    #[arg(long, value_name = "SESSION")]
    pub session: Option<String>,
    /// The server's name: a server configured in mcplab for the suite to use, and the
    /// baseline's label (default: the name the server gave in `serverInfo`).
    #[arg(long, value_name = "NAME")]
    pub server: Option<String>,
    /// The case's id (eval; default `tapped-<server>`).
    #[arg(long, value_name = "ID")]
    pub id: Option<String>,
    /// Write here instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// The recording (JSON Lines, as `mcplab tap` writes it, or the traffic panel's export).
    pub file: PathBuf,
    /// Which host session of the recording (its session id; default: the first).
    #[arg(long, value_name = "SESSION")]
    pub session: Option<String>,
    /// Do not compare this key's values, wherever it appears in an answer (repeatable).
    #[arg(long = "ignore", value_name = "KEY")]
    pub ignore: Vec<String>,
    #[command(flatten)]
    pub connect: ConnectArgs,
}

fn size(text: &str) -> Result<usize, String> {
    mcplab_mcp::limits::parse_size(text)
}

/// A host whose config `servers tap` rewrites.
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum HostArg {
    /// Claude Desktop (claude_desktop_config.json).
    Claude,
    /// Claude Code (~/.claude.json, user scope).
    ClaudeCode,
    /// Cursor (~/.cursor/mcp.json).
    Cursor,
    /// VS Code (the user profile's mcp.json).
    Vscode,
    /// Windsurf (~/.codeium/windsurf/mcp_config.json).
    Windsurf,
    /// Gemini CLI (~/.gemini/settings.json).
    Gemini,
}

/// `servers tap|untap NAME --for HOST [--file PATH]`.
#[derive(Args, Debug)]
pub struct HostEntryArgs {
    /// The server's name in the host's config.
    pub name: String,
    /// Whose config.
    #[arg(long = "for", value_enum, value_name = "HOST")]
    pub host: HostArg,
    /// The config file, when it is not where the host keeps it by default (e.g. a project's
    /// .cursor/mcp.json or .vscode/mcp.json).
    #[arg(long, value_name = "PATH")]
    pub file: Option<PathBuf>,
}
