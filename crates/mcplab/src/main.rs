//! The `mcplab` binary: the composition root. It parses argv, resolves settings, runs the
//! command on a tokio runtime and maps failures to exit codes. Everything it composes comes
//! from the library crates.

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
