//! The command line as one `clap::Command`: the derive output with each connecting group's
//! connection flags made global within that group (so `mcplab tools list --demo` parses), the
//! parse that also reports which shared flags were typed before the subcommand, and the shell
//! completions and man pages generated from it. It does not resolve or run anything.

use std::io::Write;
use std::path::Path;

use clap::parser::ValueSource;
use clap::{Args, CommandFactory, FromArgMatches};

use super::{ChromiumArg, Cli, ConnectArgs, ServeArgs};
use crate::failure::Failure;

/// Groups whose subcommands all connect: their connection flags (and `apps`' `--chromium`)
/// are global within the group, so they reach every subcommand (`mcplab tools list --demo`).
pub const GLOBAL_WITHIN: [&str; 7] = [
    "tools",
    "resources",
    "prompts",
    "oauth",
    "tasks",
    "skills",
    "apps",
];

/// The whole command line, ready to parse or to document.
pub fn command() -> clap::Command {
    let connect = ids_of::<ConnectArgs>();
    let chromium = ids_of::<ChromiumArg>();
    let mut cmd = Cli::command();
    for group in GLOBAL_WITHIN {
        cmd = cmd.mut_subcommand(group, |sub| {
            let sub = globalize(sub, &connect);
            if group == "apps" {
                globalize(sub, &chromium)
            } else {
                sub
            }
        });
    }
    cmd
}

fn globalize(mut sub: clap::Command, ids: &[clap::Id]) -> clap::Command {
    for id in ids {
        sub = sub.mut_arg(id, |a| a.global(true));
    }
    sub
}

fn ids_of<A: Args>() -> Vec<clap::Id> {
    A::augment_args(clap::Command::new("probe"))
        .get_arguments()
        .map(|a| a.get_id().clone())
        .collect()
}

/// The `--long` names of a flag group (for messages and scope checks).
pub fn flags_of<A: Args>() -> Vec<String> {
    A::augment_args(clap::Command::new("probe"))
        .get_arguments()
        .filter_map(|a| a.get_long().map(|l| format!("--{l}")))
        .collect()
}

/// A parsed command line and the shared flags typed before its subcommand.
pub struct Parsed {
    pub cli: Cli,
    pub typed_before: Vec<String>,
}

/// Parses argv.
pub fn parse() -> Result<Parsed, clap::Error> {
    parse_from(std::env::args_os())
}

/// Parses a command line (the first item is the program name).
pub fn parse_from<I, T>(args: I) -> Result<Parsed, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let mut cmd = command();
    let matches = cmd.try_get_matches_from_mut(args)?;
    let cli = Cli::from_arg_matches(&matches).map_err(|e| e.format(&mut cmd))?;
    let mut shared = ids_of::<ConnectArgs>();
    shared.extend(ids_of::<ServeArgs>());
    let typed_before = cmd
        .get_arguments()
        .filter(|a| shared.contains(a.get_id()))
        .filter(|a| matches.value_source(a.get_id().as_str()) == Some(ValueSource::CommandLine))
        .filter_map(|a| a.get_long().map(|l| format!("--{l}")))
        .collect();
    Ok(Parsed { cli, typed_before })
}

/// Writes the completion script for `shell` to stdout.
pub fn completions(shell: clap_complete::Shell) -> Result<(), Failure> {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command(), "mcplab", &mut script);
    crate::output::print_stdout(&String::from_utf8_lossy(&script))
}

/// Writes the man page to stdout, or every page (`mcplab.1`, `mcplab-tools-list.1`, …) into
/// `dir`.
pub fn man(dir: Option<&Path>) -> Result<(), Failure> {
    let cmd = command();
    match dir {
        None => {
            let mut page = Vec::new();
            clap_mangen::Man::new(cmd)
                .render(&mut page)
                .map_err(|e| Failure::usage(format!("cannot render the man page: {e}")))?;
            crate::output::print_stdout(&String::from_utf8_lossy(&page))
        }
        Some(dir) => {
            std::fs::create_dir_all(dir)
                .map_err(|e| Failure::usage(format!("cannot create {}: {e}", dir.display())))?;
            clap_mangen::generate_to(cmd, dir)
                .map_err(|e| Failure::usage(format!("cannot write into {}: {e}", dir.display())))?;
            let mut err = std::io::stderr();
            let _ = writeln!(err, "man pages written to {}", dir.display());
            Ok(())
        }
    }
}

#[cfg(test)]
#[path = "surface_tests.rs"]
mod tests;
