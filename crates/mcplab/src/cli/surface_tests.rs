//! The command line's shape: clap's own consistency checks on every subcommand, flags taken
//! on both sides of a subcommand without being counted twice, and flags refused where they
//! mean nothing.

use super::*;
use crate::cli::Command;
use crate::settings::Settings;

fn resolve(line: &[&str]) -> Result<(Settings, Command), String> {
    let mut argv = vec!["mcplab", "--data-dir", "/nonexistent/mcplab-test"];
    argv.extend_from_slice(line);
    let parsed = parse_from(argv).map_err(|e| e.to_string())?;
    Settings::resolve(parsed.cli, &parsed.typed_before).map_err(|f| f.message)
}

#[test]
fn every_subcommand_passes_clap_debug_asserts() {
    command().debug_assert();
}

#[test]
fn every_subcommand_has_help() {
    fn walk(cmd: &clap::Command, path: &mut Vec<String>) {
        let mut argv: Vec<String> = vec!["mcplab".into()];
        argv.extend(path.iter().cloned());
        argv.push("--help".into());
        let err = match parse_from(&argv) {
            Ok(_) => panic!("{argv:?} did not print help"),
            Err(e) => e,
        };
        assert_eq!(err.kind(), clap::error::ErrorKind::DisplayHelp, "{argv:?}");
        for sub in cmd.get_subcommands() {
            path.push(sub.get_name().to_owned());
            walk(sub, path);
            path.pop();
        }
    }
    let cmd = command();
    walk(&cmd, &mut Vec::new());
}

#[test]
fn connection_flags_work_before_and_after_the_subcommand_and_count_once() {
    for line in [
        &["--server", "a", "--root", "/r", "tools", "list"][..],
        &["tools", "list", "--server", "a", "--root", "/r"][..],
        &["tools", "--server", "a", "--root", "/r", "list"][..],
        &["--server", "a", "chat", "--root", "/r", "-m", "x::y"][..],
        &["chat", "-s", "a", "--root", "/r"][..],
    ] {
        let (s, _) = resolve(line).unwrap_or_else(|e| panic!("{line:?}: {e}"));
        assert_eq!(s.target.servers, ["a"], "{line:?}");
        assert_eq!(s.roots, [std::path::PathBuf::from("/r")], "{line:?}");
    }
    let (s, _) = resolve(&["--timeout", "5", "tools", "call", "x", "--timeout", "7"]).unwrap();
    assert_eq!(
        s.timeout,
        Some(std::time::Duration::from_secs(7)),
        "the later one wins"
    );
}

#[test]
fn flags_that_mean_nothing_to_a_command_are_refused() {
    let e = resolve(&["--demo", "servers", "list"]).unwrap_err();
    assert!(
        e.contains("--demo does not apply to `mcplab servers`"),
        "{e}"
    );
    let e = resolve(&["--port", "1", "tools", "list"]).unwrap_err();
    assert!(e.contains("--port"), "{e}");
    let e = resolve(&["--timeout", "3", "servers", "add", "x", "--stdio", "y"]).unwrap_err();
    assert!(e.contains("--timeout"), "{e}");
    assert!(resolve(&["servers", "list", "--demo"]).is_err());
    assert!(resolve(&["hosts", "list", "--stdio", "x"]).is_err());
    assert!(resolve(&["demo-server", "--timeout", "1"]).is_err());
    // …and where they do, they are taken.
    let (s, _) = resolve(&["--stdio", "srv", "servers", "add", "x"]).unwrap();
    assert_eq!(s.target.stdio.as_deref(), Some("srv"));
    let (s, _) = resolve(&[
        "--chromium",
        "/c",
        "apps",
        "render",
        "--tool",
        "t",
        "-o",
        "o.png",
    ])
    .unwrap();
    assert_eq!(s.chromium.as_deref(), Some(std::path::Path::new("/c")));
    let (s, _) = resolve(&["--port", "7", "serve", "--no-open"]).unwrap();
    assert_eq!((s.serve.port, s.serve.no_open), (Some(7), true));
}

/// `--otlp` typed before `chat` or `eval run` is theirs (the later one wins); before a command
/// that exports nothing it is refused with where it goes.
#[test]
fn otlp_is_taken_before_the_commands_that_export_spans() {
    let otlp = |c: &Command| match c {
        Command::Chat(a) => a.otlp.otlp.clone(),
        Command::Eval(crate::commands::eval::EvalCmd::Run(a)) => a.otlp.otlp.clone(),
        _ => None,
    };
    let (_, c) = resolve(&["--otlp", "http://127.0.0.1:4318", "chat", "hi"]).unwrap();
    assert_eq!(otlp(&c).as_deref(), Some("http://127.0.0.1:4318"));
    let line = [
        "--otlp",
        "http://a:1",
        "eval",
        "run",
        "s.yaml",
        "--otlp",
        "http://b:2",
    ];
    let (_, c) = resolve(&line).unwrap();
    assert_eq!(
        otlp(&c).as_deref(),
        Some("http://b:2"),
        "the later one wins"
    );
    let e = resolve(&["--otlp", "http://a:1", "tools", "list"]).unwrap_err();
    assert!(e.contains("--otlp does not apply to `mcplab tools`"), "{e}");
}

#[test]
fn targets_given_on_both_sides_still_conflict() {
    let e = resolve(&["--demo", "tools", "list", "--stdio", "x"]).unwrap_err();
    assert!(e.contains("--demo and --stdio"), "{e}");
    let e = resolve(&["--timeout", "0", "ping"]).unwrap_err();
    assert!(e.contains("--timeout must be a positive"), "{e}");
}
