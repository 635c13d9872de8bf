//! The command line: every flag and subcommand, as clap types. Flags live on the commands
//! they belong to; `connect.rs` holds the groups several commands share (with `limits.rs`
//! for byte budgets and deadlines, `oauth.rs` for OAuth), `merge.rs` joins
//! what was typed before and after a subcommand, `surface.rs` parses argv and writes
//! completions and man pages. Parsing only: `settings.rs` resolves the result, `commands/`
//! does the work.

mod connect;
pub mod limits;
mod merge;
pub mod oauth;
mod surface;
pub mod tap;

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

pub use connect::{
    ChromiumArg, ConnectArgs, ElicitationMode, Global, LogLevel, OtlpArg, RemoteTransport,
    ServeArgs, TargetArgs,
};
pub use surface::{GLOBAL_WITHIN, completions, flags_of, man, parse};

/// `mcplab --version`: the crate version and the commit it was built from (`build.rs`).
pub const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (",
    env!("MCPLAB_BUILD_COMMIT"),
    ")"
);

#[derive(Parser, Debug)]
#[command(
    name = "mcplab",
    version = VERSION,
    about = "A workbench for MCP servers and MCP Apps: connect, inspect, call, and test.",
    after_help = MAIN_HELP
)]
pub struct Cli {
    #[command(flatten)]
    pub global: Global,
    /// The connection flags may come before the subcommand (`mcplab --demo tools list`), and
    /// without one they pick what the inspector connects to.
    #[command(flatten)]
    pub connect: ConnectArgs,
    #[command(flatten)]
    pub serve: ServeArgs,
    /// Without a command, mcplab serves the web inspector (like `mcplab serve`).
    #[command(subcommand)]
    pub command: Option<Command>,
}

const MAIN_HELP: &str = "\
Targets: --server NAME (from the config), --stdio \"cmd args…\", --url URL or --demo; before \
the command or after it. Each command's --help lists the flags it takes.

Examples:
  mcplab                                    the web inspector (127.0.0.1:6274)
  mcplab --demo tools list                  the built-in demo server's tools
  mcplab --stdio \"node server.js\" tools call echo -a message=hi
  mcplab --url http://127.0.0.1:3001/mcp --trace info
  mcplab chat --demo -m openai::gpt-4.1-mini \"add 2 and 40\"
  mcplab completions bash > ~/.local/share/bash-completion/completions/mcplab

Exit codes: 0 ok, 1 the call returned an MCP error or isError, 2 usage or config error, 3 \
connection failure, 130 interrupted.";

/// A group of subcommands that connect to a server: the connection flags are taken after the
/// group's name and after its subcommand (`mcplab tools list --demo`; see `surface.rs`).
#[derive(Args, Debug)]
pub struct Connected<C: Subcommand> {
    #[command(flatten)]
    pub connect: ConnectArgs,
    #[command(subcommand)]
    pub cmd: C,
}

/// A group of subcommands that connect and render apps in Chromium (`apps`).
#[derive(Args, Debug)]
pub struct Rendering<C: Subcommand> {
    #[command(flatten)]
    pub connect: ConnectArgs,
    #[command(flatten)]
    pub chromium: ChromiumArg,
    #[command(subcommand)]
    pub cmd: C,
}

/// A command whose only flags are the connection's.
#[derive(Args, Debug)]
pub struct ConnectOnly {
    #[command(flatten)]
    pub connect: ConnectArgs,
}

/// `mcplab serve`: the inspector's flags and what it connects to.
#[derive(Args, Debug)]
pub struct ServeCmd {
    #[command(flatten)]
    pub connect: ConnectArgs,
    #[command(flatten)]
    pub serve: ServeArgs,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Serve the web inspector (the default when no command is given).
    Serve(ServeCmd),
    /// Open the running inspector in the browser with a new one-time login URL.
    Open {
        /// Only print the URL (valid once, for 2 minutes).
        #[arg(long)]
        print: bool,
    },
    /// The inspector commands (tools, resources, prompts, complete, ping, log-level, info),
    /// flattened: they stay top-level subcommands on the command line.
    #[command(flatten)]
    Inspect(InspectCmd),
    /// Check an MCP server before it ships: every era it speaks, every frame against the spec,
    /// security, and breaking changes against a baseline (exit 1 when there are errors).
    #[command(after_help = CHECK_HELP)]
    Check(CheckArgs),
    /// Manage the configured servers.
    ///
    /// While `mcplab serve` runs on the same data directory, add, remove and import go
    /// through it (found in its launch.json), so the open inspector follows at once.
    #[command(subcommand)]
    Servers(ServersCmd),
    /// Sit between a real host and a server: pass every byte both ways unchanged and record
    /// every frame (live in the inspector, or a file); replay a recording.
    Tap(tap::TapArgs),
    /// Chat with an LLM that can call the servers' tools.
    Chat(ChatArgs),
    /// MCP Apps: render a tool's app headless.
    Apps(Rendering<AppsCmd>),
    /// OAuth: debug a server's authorization setup step by step, sign in, sign out, status.
    Oauth(Connected<crate::cli::oauth::OauthCmd>),
    /// Evals: run suites against models and servers, read stored runs, write suites.
    #[command(subcommand)]
    Eval(crate::commands::eval::EvalCmd),
    /// Host profiles: how Claude, ChatGPT, VS Code, Cursor, goose (and mcplab) use MCP, each
    /// value with its public source; `--host NAME` runs chat, compare, evals and renders as
    /// that host.
    #[command(subcommand, after_help = HOSTS_HELP)]
    Hosts(HostsCmd),
    /// Serve mcplab itself as an MCP server for a coding agent: connect, call, check, render
    /// and eval the server it writes, with connections kept across calls. Starts only the
    /// configured servers and what --allow-command / --allow-url allow.
    #[command(after_help = MCP_HELP)]
    Mcp(McpArgs),
    /// Run the built-in demo MCP server on stdio (try: mcplab --stdio "mcplab demo-server" tools list),
    /// or over streamable HTTP at http://ADDR/mcp with --http ADDR (both protocol eras).
    DemoServer {
        /// Serve streamable HTTP on this address (e.g. 127.0.0.1:3001) instead of stdio.
        #[arg(long, value_name = "ADDR")]
        http: Option<std::net::SocketAddr>,
        /// Append one JSON line per resources/read, with the reading client's initialize, to
        /// FILE (for tests that tell connections apart).
        #[arg(long, value_name = "FILE", hide = true)]
        read_log: Option<PathBuf>,
    },
    /// Tasks: long-running tool calls (the 2026-07-28 tasks extension, 2025-11-25 tasks).
    Tasks(Connected<TasksCmd>),
    /// Skills the server offers (the skills extension): list them, or load one and verify it.
    Skills(Connected<SkillsCmd>),
    /// 2026-07-28 subscriptions/listen: print the change notifications opted in to until
    /// Ctrl-C (or --count).
    Listen(ListenArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell) to stdout.
    #[command(after_help = COMPLETIONS_HELP)]
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff) to stdout, or write mcplab.1 and one page per subcommand
    /// into a directory.
    #[command(
        after_help = "Example: mcplab man | man -l -   ·   mcplab man --dir ~/.local/share/man/man1"
    )]
    Man {
        /// Write the pages into this directory instead of printing mcplab.1.
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
}

/// The commands that exercise one server over one session (`commands/inspect.rs`); nested in
/// [`Command`] so their dispatcher matches exactly these.
#[derive(Subcommand, Debug)]
pub enum InspectCmd {
    /// List or call tools.
    Tools(Connected<ToolsCmd>),
    /// List, read and watch resources.
    Resources(Connected<ResourcesCmd>),
    /// List and get prompts.
    Prompts(Connected<PromptsCmd>),
    /// Ask for completions of a prompt or resource-template argument.
    Complete(CompleteArgs),
    /// Check that the server answers.
    Ping(ConnectOnly),
    /// Set the server's minimum logging level.
    LogLevel {
        #[arg(value_enum)]
        level: LogLevel,
        #[command(flatten)]
        connect: ConnectArgs,
    },
    /// Show the server's initialize result: name, version, protocol, capabilities, instructions.
    Info(ConnectOnly),
}

impl InspectCmd {
    /// The subcommand's name and its connection flags.
    pub fn connect_mut(&mut self) -> (&'static str, &mut ConnectArgs) {
        match self {
            InspectCmd::Tools(c) => ("tools", &mut c.connect),
            InspectCmd::Resources(c) => ("resources", &mut c.connect),
            InspectCmd::Prompts(c) => ("prompts", &mut c.connect),
            InspectCmd::Complete(c) => ("complete", &mut c.connect),
            InspectCmd::Ping(c) => ("ping", &mut c.connect),
            InspectCmd::LogLevel { connect, .. } => ("log-level", connect),
            InspectCmd::Info(c) => ("info", &mut c.connect),
        }
    }
}

const MCP_HELP: &str = "\
The agent can connect the servers of mcplab's configuration (`mcplab servers list`) by name, and \
start or reach only the command lines and URLs that match a pattern given here (a glob over the \
whole text: * matches anything; a stdio command is matched with its environment assignments \
first, e.g. `PORT=3000 node dist/index.js`). Everything else is refused with how to allow it. \
Every server stops when mcplab mcp does (the client closing stdin included).

Examples:
  mcplab mcp --allow-command 'node dist/*' --allow-command 'python3 server.py'
  mcplab mcp --http 127.0.0.1:6280 --allow-url 'http://127.0.0.1:*/mcp'
  Claude Code: claude mcp add mcplab -- mcplab mcp --allow-command 'node *'";

/// `mcplab mcp`.
#[derive(Args, Debug)]
pub struct McpArgs {
    /// Serve streamable HTTP at http://ADDR/mcp instead of stdio (a loopback address only,
    /// e.g. 127.0.0.1:6280).
    #[arg(long, value_name = "ADDR")]
    pub http: Option<std::net::SocketAddr>,
    /// Let the agent start stdio servers whose command line matches PATTERN; repeatable.
    #[arg(long = "allow-command", value_name = "PATTERN")]
    pub allow_commands: Vec<String>,
    /// Let the agent reach HTTP servers whose URL matches PATTERN; repeatable.
    #[arg(long = "allow-url", value_name = "PATTERN")]
    pub allow_urls: Vec<String>,
    /// Show the agent's traffic live in the running `mcplab serve` of this data directory
    /// (its traffic view, under the host name `mcplab-agent`).
    #[arg(long)]
    pub attach: bool,
    /// Per-request deadline for the servers under test, in seconds (their progress
    /// notifications reset it); also bounds connecting unless --connect-timeout says otherwise.
    #[arg(long, value_name = "SECS")]
    pub timeout: Option<f64>,
    #[command(flatten)]
    pub limits: limits::LimitArgs,
    #[command(flatten)]
    pub chromium: ChromiumArg,
}

const COMPLETIONS_HELP: &str = "\
Examples:
  mcplab completions bash > ~/.local/share/bash-completion/completions/mcplab
  mcplab completions zsh > ~/.zfunc/_mcplab      (with fpath+=~/.zfunc before compinit)
  mcplab completions fish > ~/.config/fish/completions/mcplab.fish";

const HOSTS_HELP: &str = "\
Your own profiles are JSON files in <data dir>/hosts/ (the format `hosts export` writes: a \
--host-config file plus name, title, description, profileVersion and sources). Start from one: \
mcplab hosts export claude > ~/.local/share/mcplab/hosts/my-claude.json, then change `name` \
and the fields you need.

Examples: mcplab hosts diff claude chatgpt · mcplab chat --demo --host cursor -m openai::gpt-4.1 \
\"add 2 and 3\"";

#[derive(Subcommand, Debug)]
pub enum HostsCmd {
    /// Every profile: name, title, version, fields changed from mcplab's defaults, hash, file.
    List,
    /// One profile: each field it changes, with the source (URL and date read) or "unknown".
    Show { name: String },
    /// Field by field, where two profiles differ, with each side's source.
    Diff { a: String, b: String },
    /// The profile as a file (JSON) to save in <data dir>/hosts/ and edit, or to pass to
    /// --host-config.
    Export { name: String },
}

#[derive(Subcommand, Debug)]
pub enum TasksCmd {
    /// Tasks mcplab started on this server (and, for 2025-11-25 servers, tasks/list), each
    /// polled now.
    List,
    /// Poll one task (tasks/get).
    Get { id: String },
    /// The result of a task: waits until it finishes (2025-11-25: tasks/result).
    Result { id: String },
    /// Ask the server to cancel a task (tasks/cancel).
    Cancel { id: String },
}

#[derive(Subcommand, Debug)]
pub enum SkillsCmd {
    /// List the server's skills (skills/list); reads no skill file.
    List,
    /// Load a skill (its name or SKILL.md uri): read SKILL.md and every file of its manifest,
    /// verifying size, digest and frontmatter; stops at the first mismatch (exit 1).
    Read { skill: String },
}

#[derive(Args, Debug)]
pub struct ListenArgs {
    /// notifications/tools/list_changed.
    #[arg(long)]
    pub tools: bool,
    /// notifications/prompts/list_changed.
    #[arg(long)]
    pub prompts: bool,
    /// notifications/resources/list_changed.
    #[arg(long)]
    pub resources: bool,
    /// notifications/resources/updated for this uri; repeatable.
    #[arg(long = "resource", value_name = "URI")]
    pub resource_uris: Vec<String>,
    /// notifications/tasks for this task; repeatable.
    #[arg(long = "task", value_name = "ID")]
    pub task_ids: Vec<String>,
    /// Stop after this many notifications.
    #[arg(long)]
    pub count: Option<usize>,
    #[command(flatten)]
    pub connect: ConnectArgs,
}

/// Whether a `tools call` may become a task.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TaskArg {
    /// Let the server decide (2026-07-28); augment when the tool requires it (2025-11-25).
    #[default]
    Auto,
    /// Ask for a task wherever the protocol allows.
    Force,
    /// Never (2026-07-28: the request does not declare the tasks extension).
    Never,
}

const CHECK_HELP: &str = "\
With --protocol auto (the default) the server is checked in every era it speaks: 2026-07-28 \
when it answers server/discover, and the 2025 initialize handshake (a dual-era server is \
checked twice). Rule sets: spec (every frame, both directions, against the official JSON \
Schema of the negotiated revision, plus tool names and schemas, results, pagination, \
capabilities, stdout noise, JSON-RPC ids) and security (hidden Unicode, tool poisoning, \
shadowing and name collisions with the other configured servers, secrets in URLs, plain-HTTP \
auth) always run; baseline runs with --baseline. `--list-rules` prints every rule with its \
source. Tools are only called when named with --call; a 2026-07-28 input_required answer is \
answered as --elicitation says and retried. Frames are judged alike over stdio, streamable \
HTTP and SSE; an era the server refuses is a note, not a finding.

Exit codes: 0 no errors (warnings allowed), 1 errors found, 2 usage, 3 could not connect.

Examples:
  mcplab check --stdio \"python server.py\" --call 'echo={\"text\":\"hi\"}' --junit check.xml
  mcplab check --url https://example.com/mcp --sarif check.sarif --markdown summary.md
  mcplab check --server weather --write-baseline weather.baseline.json
  mcplab check --server weather --baseline weather.baseline.json";

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Also call this tool and check its result: NAME, or NAME=JSON with its arguments.
    /// Repeatable. No tool is called otherwise (tools may have side effects).
    #[arg(long = "call", value_name = "TOOL[=JSON]")]
    pub calls: Vec<String>,
    /// Print every rule of every rule set with its source, and exit (no server needed).
    #[arg(long)]
    pub list_rules: bool,
    /// Write the server's surface (tools with schemas, resources, templates, prompts,
    /// capabilities, per era) to FILE, to compare later with --baseline.
    #[arg(long, value_name = "FILE")]
    pub write_baseline: Option<PathBuf>,
    /// Compare the server's surface with a baseline FILE: breaking changes are errors.
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
    /// Write the findings as JUnit XML (one test case per rule and era) for CI.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Write the findings as SARIF 2.1.0 (GitHub code scanning).
    #[arg(long, value_name = "FILE")]
    pub sarif: Option<PathBuf>,
    /// Write a Markdown summary (a pull-request comment or a CI job summary).
    #[arg(long, value_name = "FILE")]
    pub markdown: Option<PathBuf>,
    /// Estimated tokens of the tool list per model turn above which it warns.
    #[arg(long, default_value_t = 10_000, value_name = "TOKENS")]
    pub token_budget: usize,
    /// Give a verdict (works, degraded, blocked, unknown) for this host profile, overall and
    /// per tool and app, each reason with the profile field and its source. Repeatable;
    /// `all` for every profile (see `mcplab hosts list`). Reads the tools' ui:// apps and
    /// renders each in headless Chromium under each profile (connected as that host; a tool is
    /// called only when --call names it): what the app did decides `host-app-live`.
    #[arg(long = "host", value_name = "NAME")]
    pub hosts: Vec<String>,
    /// With --host: judge the apps from a static scan of their HTML only (no Chromium).
    #[arg(long)]
    pub no_render: bool,
    /// Check the published requirements of a directory: `claude` (Anthropic's connector
    /// directory) or `openai` (OpenAI's app directory). Repeatable.
    #[arg(long, value_enum, value_name = "DIRECTORY")]
    pub readiness: Vec<ReadinessDirectory>,
    /// Send N schema-driven inputs (boundaries, wrong types, huge strings, Unicode, missing
    /// and extra fields) to each tool that is safe to call: readOnlyHint: true, or named with
    /// --fuzz-tool. Reports crashes (shrunk to a small input), hangs, protocol errors and
    /// results that break the outputSchema.
    #[arg(long, value_name = "N")]
    pub fuzz: Option<usize>,
    /// The seed of the fuzz inputs: the same seed sends the same inputs.
    #[arg(long, default_value_t = 1, value_name = "S", requires = "fuzz")]
    pub seed: u64,
    /// Also fuzz this tool though it is not readOnlyHint: true (it may have side effects).
    /// Repeatable.
    #[arg(long = "fuzz-tool", value_name = "NAME", requires = "fuzz")]
    pub fuzz_tools: Vec<String>,
    #[command(flatten)]
    pub connect: ConnectArgs,
    #[command(flatten)]
    pub chromium: ChromiumArg,
}

/// A directory `mcplab check --readiness` knows the requirements of.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadinessDirectory {
    /// Anthropic's connector directory.
    Claude,
    /// OpenAI's app directory.
    Openai,
}

#[derive(Args, Debug)]
#[command(after_help = CHAT_HELP)]
pub struct ChatArgs {
    /// The model as provider::model, e.g. openai::gpt-4.1-mini, anthropic::claude-sonnet-4-5,
    /// ollama::llama3.2 (keys from OPENAI_API_KEY, ANTHROPIC_API_KEY, …). With --compare,
    /// give it 2–4 times.
    #[arg(long, short = 'm', env = "MCPLAB_MODEL")]
    pub model: Vec<String>,
    /// Send the prompt to every --model at once and compare the turns: tools called and their
    /// arguments (differences marked), steps, tokens, cost, time to first token, total time,
    /// how each ended.
    #[arg(long)]
    pub compare: bool,
    /// Print each model step's x-ray: the request as the provider received it (secrets masked)
    /// and the raw streamed response, with sizes, tokens and cost.
    #[arg(long)]
    pub xray: bool,
    /// The first message (omit with -i to start with a prompt).
    pub prompt: Option<String>,
    /// Keep chatting: read further messages from the terminal (empty line or /exit ends).
    #[arg(short = 'i', long)]
    pub interactive: bool,
    /// Run under this HostConfig (JSON or YAML, as the web's chat settings export it, or a
    /// host profile file); the flags below override its keys.
    #[arg(long, value_name = "FILE", conflicts_with = "host_profile")]
    pub host_config: Option<PathBuf>,
    /// Run as this host profile (see `mcplab hosts list`): its client capabilities and
    /// protocol revision, tool naming and limit, what of a result the model sees, approval;
    /// the flags below override its keys. With --compare, give it 2–4 times for one column
    /// per host (same model).
    #[arg(long = "host", value_name = "NAME")]
    pub host_profile: Vec<String>,
    /// Print the HostConfig this chat would run under (canonical JSON; its SHA-256 on stderr)
    /// and exit.
    #[arg(long)]
    pub print_host_config: bool,
    /// Print the price table steps are costed with (the shipped one with the data directory's
    /// prices.json over it), each row with where it comes from, and exit.
    #[arg(long)]
    pub print_prices: bool,
    /// Keep the session in the data directory: it shows up in the browser's Chat page.
    #[arg(long)]
    pub save: bool,
    /// System prompt.
    #[arg(long)]
    pub system: Option<String>,
    #[arg(long)]
    pub temperature: Option<f64>,
    #[arg(long)]
    pub max_tokens: Option<u32>,
    /// Most model steps per turn (each step may call tools; default 10).
    #[arg(long)]
    pub max_steps: Option<u32>,
    /// Ask before every tool call (y to allow; anything else denies and tells the model).
    #[arg(long)]
    pub approve: bool,
    #[command(flatten)]
    pub otlp: OtlpArg,
    #[command(flatten)]
    pub connect: ConnectArgs,
}

const CHAT_HELP: &str = "\
The servers are the target flags' (--demo, --stdio, --url, --server …); without any, the \
host config's `servers` (configured names). Their tool filters (allow/deny) come from the host \
config. Exit codes: 0 the turn finished, 1 it failed, 2 usage or config error, 3 connection \
failure, 130 interrupted.";

#[derive(Subcommand, Debug)]
pub enum AppsCmd {
    /// Call a tool and render its app in headless Chromium under emulated host conditions;
    /// write a PNG of the app frame and a JSON report.
    #[command(after_help = RENDER_HELP)]
    Render(RenderArgs),
}

const RENDER_HELP: &str = "\
The report (JSON) holds the render page's findings: initialized, error, appErrors, \
cspViolations, bridgeMessages, hostContext, toolResult, toolError, durationMs; plus pageErrors \
(errors of the page around the app), png {path, width, height} and the spec rendered. \
--json prints it instead of the summary. --timeout SECS bounds the render (default 20).

Exit codes: 0 the app initialized, got its result and threw nothing; 1 it did not initialize, \
threw (appErrors), the tool call failed, or the render did not finish; 2 usage or config error \
(no Chromium included); 3 connection failure; 130 interrupted.

Example: mcplab apps render --demo --tool show_counter_app --device mobile --theme dark \
--locale ja-JP --out shot.png";

#[derive(Args, Debug)]
pub struct RenderArgs {
    /// The tool whose app to render (it must link a UI, e.g. `_meta.ui.resourceUri`).
    #[arg(long)]
    pub tool: String,
    /// Tool arguments as a JSON object.
    #[arg(long, value_name = "JSON")]
    pub args: Option<String>,
    /// One argument as key=value, typed by the tool's input schema; dotted keys nest.
    #[arg(short = 'a', long = "arg", value_name = "KEY=VALUE")]
    pub pairs: Vec<String>,
    /// mobile (430x932, touch), tablet (820x1180, touch), desktop (1280x800, hover) or WIDTHxHEIGHT.
    #[arg(long, default_value = "desktop", value_name = "DEVICE")]
    pub device: String,
    /// Swap the device's width and height (landscape).
    #[arg(long)]
    pub rotate: bool,
    /// The theme the host reports (and the page's preferred colour scheme).
    #[arg(long, value_enum, default_value_t = RenderTheme::Light)]
    pub theme: RenderTheme,
    /// The locale the host reports (BCP 47), e.g. ja-JP.
    #[arg(long, default_value = "en-US")]
    pub locale: String,
    /// The time zone the host reports (IANA), e.g. Europe/Paris.
    #[arg(long, default_value = "UTC", value_name = "ZONE")]
    pub timezone: String,
    /// The display mode the host puts the app in.
    #[arg(long, value_enum, default_value_t = DisplayMode::Inline)]
    pub display_mode: DisplayMode,
    /// The app's CSP: as it declared, or permissive (for a first try; violations still listed).
    #[arg(long, value_enum, default_value_t = CspMode::Declared)]
    pub csp: CspMode,
    /// Inject the window.openai shim into MCP Apps too.
    #[arg(long)]
    pub openai_shim: bool,
    /// Render as this host profile (see `mcplab hosts list`): the capabilities its client
    /// declares, the display modes it offers, its CSP mode and window.openai; --openai-shim and
    /// --csp permissive still apply on top.
    #[arg(long = "host", value_name = "NAME")]
    pub host_profile: Option<String>,
    /// Where to write the screenshot of the app frame (PNG).
    #[arg(long, short = 'o', value_name = "FILE")]
    pub out: PathBuf,
    /// Where to write the JSON report (default: <out>.json).
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum RenderTheme {
    Light,
    Dark,
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum DisplayMode {
    Inline,
    Fullscreen,
    Pip,
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum CspMode {
    Declared,
    Permissive,
}

#[derive(Subcommand, Debug)]
pub enum ToolsCmd {
    /// List every tool (all pages).
    List,
    /// Call a tool.
    Call {
        name: String,
        /// Arguments as a JSON object.
        #[arg(long, value_name = "JSON")]
        args: Option<String>,
        /// One argument as key=value, typed by the tool's input schema; dotted keys nest.
        #[arg(short = 'a', long = "arg", value_name = "KEY=VALUE")]
        pairs: Vec<String>,
        /// Whether the call may become a task.
        #[arg(long, value_enum, default_value_t = TaskArg::Auto)]
        task: TaskArg,
        /// When the call becomes a task, print the task and return at once (see `tasks`).
        #[arg(long)]
        no_wait: bool,
        /// Write the first binary content (image, audio, embedded blob) to this file.
        #[arg(long, short = 'o', value_name = "FILE")]
        output: Option<PathBuf>,
    },
}

#[derive(Subcommand, Debug)]
pub enum ResourcesCmd {
    /// List resources (all pages).
    List,
    /// List resource templates (all pages).
    Templates,
    /// Read a resource.
    Read {
        uri: String,
        /// Write the (first) content's bytes to this file instead of printing.
        #[arg(long, short = 'o', value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// Subscribe to a resource and print each update until Ctrl-C (or --count updates).
    Subscribe {
        uri: String,
        /// Stop after this many updates.
        #[arg(long)]
        count: Option<usize>,
    },
}

#[derive(Subcommand, Debug)]
pub enum PromptsCmd {
    /// List prompts (all pages).
    List,
    /// Get a prompt with arguments.
    Get {
        name: String,
        /// One argument as key=value; repeatable.
        #[arg(short = 'a', long = "arg", value_name = "KEY=VALUE")]
        pairs: Vec<String>,
    },
}

#[derive(Args, Debug)]
pub struct CompleteArgs {
    /// Complete an argument of this prompt.
    #[arg(
        long,
        conflicts_with = "resource",
        required_unless_present = "resource"
    )]
    pub prompt: Option<String>,
    /// Complete a variable of this resource template URI.
    #[arg(long, value_name = "URI_TEMPLATE")]
    pub resource: Option<String>,
    /// The argument (or template variable) name.
    #[arg(long = "arg", value_name = "NAME")]
    pub argument: String,
    /// What has been typed so far.
    #[arg(long, default_value = "")]
    pub value: String,
    /// Already-chosen values of other arguments (K=V); repeatable.
    #[arg(long = "context", value_name = "K=V")]
    pub context: Vec<String>,
    #[command(flatten)]
    pub connect: ConnectArgs,
}

/// `mcplab servers export`.
#[derive(Args, Debug)]
pub struct ExportArgs {
    /// Print the entry that adds `mcplab mcp` to this coding agent (claude-code, codex,
    /// cursor, vscode, goose), in its own config format.
    #[arg(long = "for", value_enum, value_name = "AGENT")]
    pub agent: Option<crate::commands::CodingAgent>,
    /// With --for: let the agent start stdio servers matching PATTERN; repeatable.
    #[arg(long = "allow-command", value_name = "PATTERN", requires = "agent")]
    pub allow_commands: Vec<String>,
    /// With --for: let the agent reach HTTP servers matching PATTERN; repeatable.
    #[arg(long = "allow-url", value_name = "PATTERN", requires = "agent")]
    pub allow_urls: Vec<String>,
}

#[derive(Subcommand, Debug)]
pub enum ServersCmd {
    /// List configured servers.
    List,
    /// Add (or replace) a server: give --stdio or --url (with --header/--transport/-e/--cwd).
    Add {
        name: String,
        #[command(flatten)]
        target: Box<TargetArgs>,
    },
    /// Remove a server.
    Remove { name: String },
    /// Move a server in the list (the order every list of servers follows): to place N
    /// (1-based) or before another server.
    #[command(group(clap::ArgGroup::new("place").required(true).args(["to", "before"])))]
    Move {
        name: String,
        /// The place to move it to: 1 is the top.
        #[arg(long, value_name = "N")]
        to: Option<usize>,
        /// Put it just before server OTHER.
        #[arg(long, value_name = "OTHER")]
        before: Option<String>,
    },
    /// Import servers from another host's config (Claude Desktop, Cursor, VS Code).
    Import { file: PathBuf },
    /// Print the config as an mcpServers document; with --for AGENT, the entry that makes
    /// that coding agent start `mcplab mcp` instead.
    Export(ExportArgs),
    /// Make a host start server NAME through `mcplab tap` (its config rewritten, a backup
    /// kept beside it); restart the host to use it.
    Tap(tap::HostEntryArgs),
    /// Undo `servers tap`: the host's entry as it was.
    Untap(tap::HostEntryArgs),
}
