//! `mcplab tap replay FILE --stdio CMD`: reads the recording, picks the host session, starts
//! the server through mcplab-mcp's stdio wire (clean environment, own process group) and lets
//! `mcplab_tap::replay` send the host's frames again; prints each request's verdict and the
//! differences, exit 1 when an answer differs or did not come.

use std::sync::Arc;
use std::time::Duration;

use mcplab_mcp::stdio::{DEFAULT_STOP_GRACE, StderrTail, StdioSpec, spawn_stdio};
use mcplab_mcp::wire::wire_pair;
use mcplab_protocol::ServerTransport;
use mcplab_tap::replay::{Checked, Outcome, ReplayOptions, ReplayReport, replay};
use serde_json::json;

use crate::cli::tap::ReplayArgs;
use crate::failure::Failure;
use crate::output::{outln, safe};
use crate::settings::Settings;

/// A recording larger than this is refused (the traffic budget's default, four times).
const MAX_FILE: u64 = 256 * 1024 * 1024;

pub async fn run(args: ReplayArgs, settings: &Settings) -> Result<(), Failure> {
    let recording = read(&args.file)?;
    let sessions = recording.sessions();
    let (session, frames) = match &args.session {
        None => sessions.first(),
        Some(want) => sessions.iter().find(|(s, _)| s == want),
    }
    .ok_or_else(|| {
        let known: Vec<&str> = sessions.iter().map(|(s, _)| *s).collect();
        Failure::usage(format!(
            "no session `{}` in {} (it has: {:?})",
            args.session.as_deref().unwrap_or(""),
            args.file.display(),
            known
        ))
    })?;
    let config = crate::target::resolve(&settings.target, &settings.data)?;
    let ServerTransport::Stdio {
        command,
        args: argv,
        env,
        cwd,
    } = config.transport
    else {
        return Err(Failure::usage(
            "tap replay runs the server over stdio: give --stdio \"cmd args…\", --demo or a \
             configured stdio --server",
        ));
    };
    let spec = StdioSpec {
        command,
        args: argv,
        env,
        cwd,
        inherit_env: config.inherit_env,
        parent_env: None,
    };
    let (wire, end) = wire_pair();
    let limits = settings.budget.limits;
    let tail = Arc::new(StderrTail::new(200, limits.stderr_tail_bytes));
    let hook = Arc::new(|_: &str| {});
    let guard = spawn_stdio(&spec, DEFAULT_STOP_GRACE, &limits, end, tail, hook)
        .map_err(|e| Failure::connect(e.to_string()))?;
    let options = ReplayOptions {
        timeout: settings.timeout.unwrap_or(Duration::from_secs(30)),
        ignore: args.ignore,
    };
    let report = replay(frames, wire, &options).await;
    guard.shutdown().await;
    print(&report, session, settings.json)?;
    match report.passed() {
        true => Ok(()),
        false => Err(Failure::silent(crate::failure::EXIT_CALL)),
    }
}

pub(super) fn read(path: &std::path::Path) -> Result<mcplab_tap::recording::Recording, Failure> {
    let fail = |e: String| Failure::usage(format!("cannot read {}: {e}", path.display()));
    let size = std::fs::metadata(path)
        .map_err(|e| fail(e.to_string()))?
        .len();
    if size > MAX_FILE {
        return Err(fail(format!(
            "{size} bytes is more than a replay reads ({MAX_FILE})"
        )));
    }
    let text = std::fs::read_to_string(path).map_err(|e| fail(e.to_string()))?;
    let recording = mcplab_tap::recording::parse(&text, &path.display().to_string())
        .map_err(|e| Failure::usage(e.to_string()))?;
    for w in &recording.warnings {
        eprintln!("warning: {w}");
    }
    Ok(recording)
}

fn print(report: &ReplayReport, session: &str, json: bool) -> Result<(), Failure> {
    if json {
        let checked: Vec<_> = report.checked.iter().map(checked_json).collect();
        let out = json!({
            "session": session,
            "passed": report.passed(),
            "checked": checked,
            "notifications": report.notifications,
            "answeredForServer": report.answered_for_host,
        });
        outln!("{out}");
        return Ok(());
    }
    for c in &report.checked {
        match &c.outcome {
            Outcome::Same => outln!("same       {}", c.request),
            Outcome::NotRecorded => outln!("unrecorded {} (sent; no recorded answer)", c.request),
            Outcome::NoAnswer(why) => outln!("NO ANSWER  {}: {}", c.request, safe(why)),
            Outcome::Differs(found) => {
                outln!("DIFFERS    {}", c.request);
                for d in found {
                    outln!(
                        "  {}: recorded {} · got {}",
                        d.path,
                        shown(&d.recorded),
                        shown(&d.got)
                    );
                }
            }
        }
    }
    let failed = report
        .checked
        .iter()
        .filter(|c| !c.outcome.passed())
        .count();
    eprintln!(
        "{} request(s) replayed, {failed} failed; {} notification(s) sent, {} server \
         request(s) answered from the recording",
        report.checked.len(),
        report.notifications,
        report.answered_for_host
    );
    Ok(())
}

fn checked_json(c: &Checked) -> serde_json::Value {
    let (verdict, detail) = match &c.outcome {
        Outcome::Same => ("same", json!(null)),
        Outcome::NotRecorded => ("not-recorded", json!(null)),
        Outcome::NoAnswer(why) => ("no-answer", json!(why)),
        Outcome::Differs(found) => {
            let found: Vec<_> = found
                .iter()
                .map(|d| json!({"path": d.path, "recorded": d.recorded, "got": d.got}))
                .collect();
            ("differs", json!(found))
        }
    };
    json!({"request": c.request, "verdict": verdict, "detail": detail})
}

fn shown(v: &Option<serde_json::Value>) -> String {
    v.as_ref()
        .map_or("(absent)".to_owned(), |v| safe(&v.to_string()).into_owned())
}
