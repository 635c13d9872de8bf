//! `mcplab tap eval|baseline FILE`: reads the recording, picks the host session(s) and writes
//! what `mcplab_tap::export` makes of them — a suite file holding one case, or a check
//! baseline — to stdout or `--output`. Nothing here talks to a server.

use std::path::Path;

use mcplab_evals::import::safe_id;
use mcplab_protocol::TrafficFrame;
use mcplab_tap::export::eval::{SuiteServer, case_of, suite_text};
use mcplab_tap::export::{baseline::baseline_of, exchanges, server_name};

use super::replay::read;
use crate::cli::tap::ExportArgs;
use crate::failure::Failure;
use crate::output::out;

pub fn eval(args: ExportArgs) -> Result<(), Failure> {
    let recording = read(&args.file)?;
    let sessions = recording.sessions();
    let picked = pick(&sessions, args.session.as_deref(), &args.file)?;
    let (_, frames) = picked.first().ok_or_else(|| Failure::usage("no session"))?;
    let ex = exchanges(frames);
    let source = args.file.display().to_string();
    let server = match args.server {
        Some(name) => SuiteServer::Configured(name),
        None => {
            let name = safe_id(&server_name(&ex).unwrap_or_default(), "server");
            match &recording.start {
                Some(start) => SuiteServer::from_start(&name, start),
                None => {
                    return Err(Failure::usage(
                        "this recording does not say how the server was started (a traffic \
                         export): name a configured server with --server NAME",
                    ));
                }
            }
        }
    };
    let id = args
        .id
        .unwrap_or_else(|| format!("tapped-{}", safe_id(server.name(), "server")));
    let tapped = case_of(&id, &ex, server.name());
    let text = suite_text(&tapped, &server, &source);
    mcplab_evals::suite::parse_suite(&text).map_err(|e| {
        Failure::usage(format!(
            "the suite written does not load (please report this): {e}"
        ))
    })?;
    for note in &tapped.notes {
        eprintln!("note: {note}");
    }
    emit(args.output.as_deref(), &text)
}

pub fn baseline(args: ExportArgs) -> Result<(), Failure> {
    let recording = read(&args.file)?;
    let sessions = recording.sessions();
    let picked = match &args.session {
        Some(want) => pick(&sessions, Some(want), &args.file)?,
        None => sessions.iter().collect(),
    };
    let frames: Vec<Vec<&TrafficFrame>> = picked.iter().map(|(_, f)| f.clone()).collect();
    let now = mcplab_protocol::clock::now_ms();
    let baseline = baseline_of(&frames, args.server.as_deref(), now)
        .map_err(|e| Failure::usage(format!("{}: {e}", args.file.display())))?;
    let mut text = serde_json::to_string_pretty(&baseline).unwrap_or_default();
    text.push('\n');
    emit(args.output.as_deref(), &text)
}

type Session<'a> = (&'a str, Vec<&'a TrafficFrame>);

/// The session asked for, or the first.
fn pick<'s, 'a>(
    sessions: &'s [Session<'a>],
    want: Option<&str>,
    file: &Path,
) -> Result<Vec<&'s Session<'a>>, Failure> {
    let found = match want {
        None => sessions.first(),
        Some(want) => sessions.iter().find(|(s, _)| *s == want),
    };
    found.map(|s| vec![s]).ok_or_else(|| {
        let known: Vec<&str> = sessions.iter().map(|(s, _)| *s).collect();
        Failure::usage(format!(
            "no session `{}` in {} (it has: {known:?})",
            want.unwrap_or(""),
            file.display()
        ))
    })
}

fn emit(output: Option<&Path>, text: &str) -> Result<(), Failure> {
    match output {
        Some(p) => {
            std::fs::write(p, text)
                .map_err(|e| Failure::usage(format!("cannot write {}: {e}", p.display())))?;
            eprintln!("wrote {}", p.display());
            Ok(())
        }
        None => {
            out!("{text}");
            Ok(())
        }
    }
}
