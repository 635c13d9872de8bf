//! The `mcplab` binary: the composition root. It parses argv, resolves settings, runs the
//! command on a tokio runtime and maps failures to exit codes. Everything it composes comes
//! from the library crates.
//!
//! # Where things are
//!
//! - `crates/mcplab`: The binary: `main.rs` (makes the process a child subreaper on Linux and runs
//!   the orphan reaper, and pins glibc's mmap threshold through `mcplab_server::memory::tune`),
//!   `cli/limits.rs` (`--limit`, `--connect-timeout`, `--oauth-allow-private` checked into a
//!   `Budget` → `ManagerOptions`; `--timeout` bounds `initialize` too), `commands/check.rs`
//!   (`mcplab check`: human, `--json`, `--junit` output; a failed connect still judges the frames
//!   recorded; `protocol: auto` is checked in 2025-11-25, the newest revision the checker has
//!   schemas for), `output/` (`mod.rs`: `Stdout`, server text with control sequences shown as
//!   escapes unless `--raw`; `print_stdout`/`outln!` end quietly with status 0 on a closed stdout —
//!   `clippy::print_stdout` is denied in the crate so no raw `println!` can panic on `| head`; tool
//!   results with structured content shown once; `table.rs` the text tables (`comfy-table`, cells
//!   cut by display width, so CJK/emoji align); `printer.rs` `Printer { Human, Json }`:
//!   `list(result, key, columns)` / `value(result, human)`, so a command states once what it
//!   prints; `chat.rs` the chat turn sinks), `commands/inspect.rs`
//!   (`tools`/`resources`/`prompts`/`complete`/`ping`/`log-level`/`info`: `cli::InspectCmd`,
//!   flattened into `Command` so the command line is unchanged; one function per command, each
//!   printing through the `Printer`), `failure.rs` (exit codes; `--json` errors as `{"error":
//!   {kind, exit, message, code, data}}` on stderr), `progress.rs` (`Terminal`: the progress bar
//!   and whole stderr lines — logs, live server stderr, traces — that never collide), `target.rs`
//!   (`--config` files for every command, people's labels for ad-hoc targets, a missing `--cwd`
//!   named), `commands/chat.rs` (`mcplab chat` on core's `SessionHub`: HostConfig from
//!   `--host-config FILE` with the flags on top, `--print-host-config`, `--print-prices`
//!   (`commands/chat/prices.rs`: the effective price table, each row shipped or user), `--save`
//!   into the data directory's store, else an in-memory store; `output/chat.rs` prints turn events
//!   for a person or as JSON Lines, `--xray` step x-rays; `commands/chat/compare.rs` is
//!   `--compare`: one session per model (or per host profile with `--host A --host B`: one model,
//!   columns `model @ host`), grouped as one compare (with `--save`, one entry in the web's list),
//!   the prompt to all at once, the comparison table or tagged JSON Lines), `commands/hosts.rs`
//!   (`mcplab hosts list|show|diff|export`, tables or `--json`; `chat --host NAME` and `apps render
//!   --host NAME` load profiles through it; the serve bind address `--host` is top-level/`serve`
//!   only, not global), `commands/apps.rs` (`apps render` (`--host`: the profile's display modes,
//!   CSP mode, `window.openai`, MCP Apps host capabilities — the report's `hostCapabilities` is
//!   what the host sent in `ui/initialize` — and client declaration): one server connected, API +
//!   sandbox on loopback ports of its own via `mcplab_server::headless`, in-memory
//!   store, `mcplab_render`, PNG + JSON report, exit code from the report), `serve.rs` (the web
//!   inspector, `run` as a list of steps: `open_store` (demo seed, `--config`, ad-hoc target),
//!   `manager` (limits, saved roots), bind with a loud port fallback and the `--host` warning,
//!   `Addresses`, `configure` (hosts dir, prices, renderer), `announce` (launch record, one-time
//!   login URL), `connect_servers` in the background — the seeded `mcplab demo-server` runs in
//!   process as the manager's `BuiltinServer` —, browser open, graceful stop), `launch.rs` (the
//!   browser opened with the `open` crate; `launch.json` with the launch secret, 0600, removed at
//!   exit; `open.html`, the 0600 redirect that opens the browser without a code in argv),
//!   `commands/open.rs` (`mcplab open`: a login code minted through the API with the launch
//!   secret), clap CLI (`cli/`: `mod.rs` the commands, each with its own flags; `connect.rs` the
//!   shared groups — `Global` (`--data-dir`, `--json`, `--raw`: the only `global` flags),
//!   `ConnectArgs` (target, connection, limits, OAuth: on the top level, on every command that
//!   connects, and global inside the `tools`/`resources`/`prompts`/`oauth`/`tasks`/`skills`/`apps`
//!   groups), `ServeArgs`, `ChromiumArg` — with `--help` headings; `merge.rs` joins the flags typed
//!   before and after a subcommand and re-checks target conflicts; `surface.rs` the one
//!   `clap::Command`, parsing (and which shared flags came before the subcommand), `mcplab
//!   completions SHELL` (clap_complete) and `mcplab man [--dir]` (clap_mangen)), `settings.rs`
//!   (`Settings::resolve`: the parsed line → one checked `Settings` every command receives — merged
//!   target, timeouts as `Duration`s, the `Budget`, the data dir (the `directories` crate:
//!   `$XDG_DATA_HOME`/`~/.local/share`, macOS `~/Library/Application Support`, + `mcplab`),
//!   Chromium; a shared flag typed before a command that does not take it is a usage error;
//!   precedence flag > env > platform default), target resolution (`target.rs`), `session/`
//!   (`Session`: connect, answer server requests, trace, Ctrl-C, OAuth host per `--oauth`;
//!   `session/oauth.rs` the loopback redirect listener + browser open for interactive sign-in),
//!   `cli/oauth.rs` (the OAuth flags) + `commands/oauth.rs` (`oauth debug|login|logout|status`,
//!   step printer), commands, `tool_args.rs` (typed `-a` pairs), terminal elicitation, progress
//!   bar, exit codes (`failure.rs`). Integration tests: one binary, `tests/it/main.rs` — black-box
//!   CLI and `serve` tests on this build's binary, and the router tests whose demo MCP server is
//!   `mcplab demo-server` (`api`, `apps_api`, `chat_api`, `render_api`, `hosts`; the others are
//!   mcplab-server's); `tests/it/router_support.rs` is mcplab-server's harness (the same file,
//!   through `#[path]`) plus `demo_config` and `state_with_llm`, as the eval CLI tests share
//!   `tests/it/eval_support.rs`.
//! - `crates/mcplab/src/commands/eval/`: `mcplab eval
//!   run|schema|init|import|add-case|runs|show|compare|merge`: `run.rs` (prepare, renderer = `apps
//!   render`'s Chromium path, exit codes 0/1/2/3/130), `output.rs` (progress bar on a TTY, JSON
//!   Lines, run.json/junit.xml/report.html), `history.rs`, `trace.rs` (`eval show RUN --iteration N
//!   [--case] [--model]`: one iteration's trace as text or JSON), `authoring.rs` (flags →
//!   mcplab-evalrun's `authoring` and `drafting`; renders go through
//!   `mcplab_server::headless::LoopbackRenderer`, as the Evals page's runs do).

// Results go to stdout through `output::print_stdout` (`outln!`), which ends quietly on a
// closed pipe; a raw `println!` panics there (`mcplab … | head -1`), so clippy refuses it.
#![deny(clippy::print_stdout)]
// A binary has no public surface: rustc's dead-code lint already sees through every `pub` in
// it, so the workspace's `unreachable_pub` (for library crates) would only ask for churn here.
#![allow(unreachable_pub)]

mod cli;
mod commands;
mod elicit;
mod failure;
mod launch;
mod otlp;
mod output;
mod progress;
mod serve;
mod session;
mod settings;
mod target;
mod tool_args;

use std::process::ExitCode;

fn main() -> ExitCode {
    let parsed = match cli::parse() {
        Ok(parsed) => parsed,
        Err(e) => return usage_error(e),
    };
    let (json, raw) = (parsed.cli.global.json, parsed.cli.global.raw);
    let (settings, command) = match settings::Settings::resolve(parsed.cli, &parsed.typed_before) {
        Ok(resolved) => resolved,
        Err(f) => {
            report(&f, json, raw);
            return ExitCode::from(f.code);
        }
    };
    init_tracing();
    become_subreaper();
    mcplab_server::memory::tune();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            return ExitCode::from(failure::EXIT_USAGE);
        }
    };
    // Adopted orphans (see `become_subreaper`) are reaped as they exit.
    runtime.spawn(mcplab_mcp::reap_orphans());
    let result = runtime.block_on(commands::run(command, &settings));
    // Background tasks (stdin readers for elicitation) must not keep the process alive.
    runtime.shutdown_timeout(std::time::Duration::from_millis(100));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            report(&f, json, raw);
            ExitCode::from(f.code)
        }
    }
}

/// Makes this process the reaper of its orphaned descendants (Linux): a server's grandchild that
/// called `setsid` and whose parent exited is re-parented to mcplab instead of init, so it stays
/// in the server's tracked process tree and is killed and reaped on disconnect and at exit
/// (`mcplab_mcp::stdio`). Failing is not fatal: such a grandchild then goes to init.
fn become_subreaper() {
    #[cfg(target_os = "linux")]
    if let Err(e) = nix::sys::prctl::set_child_subreaper(true) {
        tracing::debug!(%e, "could not become a child subreaper");
    }
}

/// Prints a failure on stderr: JSON with `--json`, else `error: …` with the server's text
/// made harmless for the terminal (it may quote what the server said or wrote to stderr).
fn report(f: &failure::Failure, json: bool, raw: bool) {
    if f.message.is_empty() {
        return;
    }
    if json {
        eprintln!("{}", f.to_json());
    } else if raw {
        eprintln!("error: {}", f.message);
    } else {
        eprintln!("error: {}", output::safe(&f.message));
    }
}

/// A command line clap rejects: its own text, or the JSON envelope when `--json` was given.
fn usage_error(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    let informational = matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    );
    if informational || !std::env::args().any(|a| a == "--json") {
        e.exit();
    }
    let message = e.render().to_string();
    report(&failure::Failure::usage(message.trim()), true, false);
    ExitCode::from(failure::EXIT_USAGE)
}

/// Diagnostics go to stderr, off unless `RUST_LOG` asks for them, so stdout stays clean
/// for results (and for JSON-RPC when running `demo-server`).
fn init_tracing() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("off"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .init();
}
