//! `mcplab chat --compare -m A -m B "…"` (or `--host A --host B`): the same message sent at once
//! to 2–4 sessions that differ only in their model (or their host profile: same model), each column run by the session runtime as a chat turn, then the
//! turns compared side by side (core's `session::compare`): tools called in order with their
//! arguments (a `≠` marks a call that differs from the first column's), steps, tokens, cost,
//! time to first token, total time and how each ended. `--json` prints every event as
//! `{"column", "model", "event"}` and ends with `{"comparison": …}`. The columns' sessions are
//! grouped as one compare (with `--save`, one entry in the browser's list). It runs one
//! prompt; it does not ask before tool calls.

use std::sync::Arc;

use mcplab_core::agent::{EventSink, RecordingSink};
use mcplab_core::session::compare::{differing_calls, summarize};
use mcplab_core::session::profiles::apply_profile;
use mcplab_core::session::{SessionHub, Submitted};
use mcplab_evals::run::HOST_SEPARATOR;
use mcplab_protocol::chat::{NewCompare, NewSession, TurnEvent, TurnRequest};
use mcplab_protocol::host::{ApprovalMode, HostConfig};
use mcplab_protocol::xray::TurnSummary;
use serde_json::json;

use crate::cli::ChatArgs;
use crate::failure::{EXIT_CALL, EXIT_INTERRUPTED, Failure};
use crate::output::chat::xray_text;
use crate::output::{out, outln};
use crate::session::Session;
use crate::settings::{DataDir, Settings};

/// The columns of this run, each a label and the HostConfig it runs under: one without
/// `--compare`; with it, 2–4 models (`-m`) under one host, or one model under 2–4 host
/// profiles (`--host`, labelled `model @ host`).
pub fn columns(
    args: &ChatArgs,
    host: &HostConfig,
    data: &DataDir,
) -> Result<Vec<(String, HostConfig)>, Failure> {
    if !args.compare {
        if args.model.len() > 1 || args.host_profile.len() > 1 {
            return Err(Failure::usage(
                "several --model or --host given: add --compare to run them side by side",
            ));
        }
        return Ok(vec![(host.model.clone(), host.clone())]);
    }
    if args.interactive {
        return Err(Failure::usage(
            "--compare runs one prompt: drop -i (each compared session can be continued in the browser with --save)",
        ));
    }
    if args.host_profile.len() > 1 {
        return host_columns(args, host, data);
    }
    if host.approval.mode == ApprovalMode::Always {
        return Err(Failure::usage(
            "--compare cannot ask before tool calls: drop --approve (or approval.mode in the host config)",
        ));
    }
    if !(2..=4).contains(&args.model.len()) {
        return Err(Failure::usage(
            "--compare needs 2 to 4 models (-m provider::model -m provider::other) or 2 to 4 \
             hosts (--host claude --host chatgpt)",
        ));
    }
    let column = |m: &String| {
        let config = HostConfig {
            model: m.clone(),
            ..host.clone()
        };
        (m.clone(), config)
    };
    Ok(args.model.iter().map(column).collect())
}

/// One model under each of 2–4 host profiles: each profile's host sections over `host`. A
/// compared turn cannot wait for approval, so a host that asks before calls runs them.
fn host_columns(
    args: &ChatArgs,
    host: &HostConfig,
    data: &DataDir,
) -> Result<Vec<(String, HostConfig)>, Failure> {
    if !(2..=4).contains(&args.host_profile.len()) || args.model.len() > 1 {
        return Err(Failure::usage(
            "--compare with --host needs 2 to 4 hosts and one model: compare models or hosts, not both",
        ));
    }
    let all = crate::commands::hosts::load(data)?;
    let mut out = Vec::new();
    for name in &args.host_profile {
        let profile = crate::commands::hosts::require(&all, name)?;
        let mut config = apply_profile(host, &profile.host_config);
        config.approval.mode = ApprovalMode::Never;
        out.push((format!("{}{HOST_SEPARATOR}{name}", host.model), config));
    }
    let first = &out[0].1.client;
    if out.iter().any(|(_, c)| c.client != *first) {
        eprintln!(
            "note: the servers are connected once for all columns and see the first host's \
             client declaration (revision, capabilities); each column gets its own tool catalog, \
             tool results and app host"
        );
    }
    Ok(out)
}

/// Records one column's events and prints them as they come (JSON Lines, or x-rays).
struct Column {
    index: usize,
    model: String,
    json: bool,
    xray: bool,
    events: RecordingSink,
}

impl EventSink for Column {
    fn emit(&self, event: TurnEvent) {
        if self.json {
            let line = json!({"column": self.index + 1, "model": self.model, "event": event});
            // A sink cannot fail; a closed stdout shows in the summary printed after the turn.
            let _ = crate::output::print_stdout(&format!("{line}\n"));
        } else if let (true, TurnEvent::StepXray { xray, .. }) = (self.xray, &event) {
            eprint!(
                "[{}] {}",
                self.index + 1,
                crate::output::safe(&xray_text(xray))
            );
        }
        if let TurnEvent::TurnFinished { .. }
        | TurnEvent::TurnFailed { .. }
        | TurnEvent::TurnCancelled { .. } = &event
            && !self.json
        {
            eprintln!("[{}] {} ended", self.index + 1, self.model);
        }
        self.events.emit(event);
    }
}

pub async fn run(
    args: &ChatArgs,
    global: &Settings,
    session: &Session,
    hub: &Arc<SessionHub>,
    columns_of: Vec<(String, HostConfig)>,
) -> Result<(), Failure> {
    let prompt = args
        .prompt
        .clone()
        .ok_or_else(|| Failure::usage("--compare needs the prompt to send"))?;
    let mut columns = Vec::new();
    for (index, (model, config)) in columns_of.into_iter().enumerate() {
        let created = hub
            .create(NewSession {
                title: Some(format!("compare {}: {model}", index + 1)),
                host_config: Some(config),
                settings: None,
            })
            .map_err(|e| Failure::usage(e.to_string()))?;
        if args.save {
            eprintln!(
                "column {} saved as chat session {}",
                index + 1,
                created.summary.id
            );
        }
        let sink = Arc::new(Column {
            index,
            model,
            json: global.json,
            xray: args.xray,
            events: RecordingSink::default(),
        });
        columns.push((created.summary.id, sink));
    }
    // Grouped as one compare, so `--save`d columns show (and export) as one in the browser.
    let group = hub
        .create_compare(NewCompare {
            sessions: columns.iter().map(|(id, _)| id.clone()).collect(),
        })
        .map_err(|e| Failure::usage(e.to_string()))?;
    if args.save {
        eprintln!(
            "saved as compare {} (the Chat page lists it as one entry)",
            group.id
        );
    }
    let mut tasks = Vec::new();
    for (id, sink) in &columns {
        let req = TurnRequest {
            turn_id: "turn-1".into(),
            message: prompt.clone(),
            replaces: None,
        };
        match hub.submit(id, req, Some(sink.clone() as Arc<dyn EventSink>)) {
            Ok(Submitted::Started(task)) => tasks.push(task.finished()),
            Ok(Submitted::Duplicate) => {}
            Err(e) => return Err(Failure::usage(e.to_string())),
        }
    }
    // Ctrl-C cancels every column.
    let watcher = {
        let (interrupted, hub) = (session.interrupted.clone(), hub.clone());
        let ids: Vec<String> = columns.iter().map(|(id, _)| id.clone()).collect();
        tokio::spawn(async move {
            interrupted.cancelled().await;
            for id in &ids {
                hub.cancel(id, "turn-1");
            }
        })
    };
    futures::future::join_all(tasks).await;
    watcher.abort();
    let summaries: Vec<TurnSummary> = columns
        .iter()
        .map(|(_, c)| summarize(&c.model, &c.events.events()))
        .collect();
    let differs = differing_calls(&summaries);
    if global.json {
        outln!(
            "{}",
            json!({"comparison": {"columns": summaries, "differs": differs}})
        );
    } else {
        out!("{}", render(&summaries, &differs));
    }
    if summaries.iter().any(|s| s.ended == "cancelled") {
        return Err(Failure::silent(EXIT_INTERRUPTED));
    }
    if summaries.iter().any(|s| s.ended != "completed") {
        return Err(Failure::silent(EXIT_CALL));
    }
    Ok(())
}

/// The answers one after the other, then the comparison as a table (one column per model).
fn render(summaries: &[TurnSummary], differs: &[Vec<bool>]) -> String {
    let mut out = String::new();
    for (i, s) in summaries.iter().enumerate() {
        out.push_str(&format!("━━ {} {} — {}\n", i + 1, s.model, s.ended));
        if let Some(f) = &s.failure {
            out.push_str(&format!("failed: {f}\n"));
        }
        out.push_str(s.answer.trim_end());
        out.push_str("\n\n");
    }
    let mut rows: Vec<Vec<String>> = vec![
        std::iter::once(String::new())
            .chain(
                summaries
                    .iter()
                    .enumerate()
                    .map(|(i, s)| format!("{} {}", i + 1, s.model)),
            )
            .collect(),
    ];
    let most_calls = summaries.iter().map(|s| s.calls.len()).max().unwrap_or(0);
    for n in 0..most_calls {
        let cells = summaries.iter().zip(differs).map(|(s, d)| {
            s.calls.get(n).map_or("-".into(), |c| {
                let mark = if d.get(n).copied().unwrap_or(false) {
                    "≠ "
                } else {
                    ""
                };
                let failed = if c.is_error == Some(true) { " ✗" } else { "" };
                format!("{mark}{}/{} {}{failed}", c.server, c.tool, c.arguments)
            })
        });
        rows.push(
            std::iter::once(format!("call {}", n + 1))
                .chain(cells)
                .collect(),
        );
    }
    let row = |name: &str, f: &dyn Fn(&TurnSummary) -> String| -> Vec<String> {
        std::iter::once(name.to_owned())
            .chain(summaries.iter().map(f))
            .collect()
    };
    let ms = |v: Option<u64>| v.map_or("-".into(), |ms| format!("{ms} ms"));
    rows.push(row("steps", &|s| s.steps.to_string()));
    rows.push(row("tokens in/out", &|s| {
        let est = if s.tokens_estimated { " (est.)" } else { "" };
        format!("{} / {}{est}", s.input_tokens, s.output_tokens)
    }));
    rows.push(row("cost", &|s| {
        s.cost_usd
            .map_or("no price".into(), |usd| format!("${usd:.6}"))
    }));
    rows.push(row("first token", &|s| ms(s.ttft_ms)));
    rows.push(row("total time", &|s| ms(s.duration_ms)));
    rows.push(row("ended", &|s| s.ended.clone()));
    let widths: Vec<usize> = (0..rows[0].len())
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    for r in &rows {
        let line: Vec<String> = r
            .iter()
            .zip(&widths)
            .map(|(cell, w)| format!("{cell:<w$}"))
            .collect();
        out.push_str(line.join("  ").trim_end());
        out.push('\n');
    }
    out
}
