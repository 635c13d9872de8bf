//! Running a check: one era on a live connection ([`check_connection`]: the selected sets'
//! exercises, then their judges over the recording), an era whose connection failed
//! ([`check_failed_connect`]: what the server sent before failing is judged too), and the
//! report that joins the eras with the conclusions about the server as a whole ([`report`]).

use mcplab_mcp::{Connection, TrafficLog};
use mcplab_protocol::check::{CheckReport, EraCheck, Finding, RuleRef};
use mcplab_protocol::{Direction, Era, FrameKind, ServerConfig, TrafficFrame};
use serde_json::Value;

use crate::findings::Findings;
use crate::options::CheckOptions;
use crate::recording::{Recording, session};
use crate::sets::definition;

/// The revision a failed connection is judged against when the server named none.
const LEGACY_FALLBACK: &str = "2025-11-25";
const MODERN: &str = "2026-07-28";

/// One era, checked.
#[derive(Debug, Clone)]
pub struct EraResult {
    pub check: EraCheck,
    pub findings: Vec<Finding>,
    /// What was recorded (baselines are written from it).
    pub recording: Recording,
}

/// Checks one live connection in the era it speaks: exercises it, then judges all of its
/// traffic since its handshake.
pub async fn check_connection(
    conn: &Connection,
    traffic: &TrafficLog,
    label: &str,
    opts: &CheckOptions,
) -> EraResult {
    let view = conn.era();
    let revision = conn
        .protocol_version()
        .unwrap_or(view.revision.as_str())
        .to_owned();
    let mut rec = Recording::new(
        label,
        conn.name(),
        conn.config().clone(),
        view.era,
        &revision,
        conn.initialize_result().clone(),
    );
    let opened = match view.era {
        Era::Modern => "server/discover",
        Era::Legacy => "initialize",
    };
    rec.exercised
        .push(format!("{opened}: protocol {revision} ({})", view.how));
    for set in opts.selected() {
        if let Some(exercise) = definition(set).exercise {
            exercise.exercise(conn, &mut rec, opts).await;
        }
    }
    let snapshot = traffic.snapshot(conn.name());
    rec.frames = session(&snapshot.frames, view.era)
        .iter()
        .map(|f| whole(traffic, f))
        .collect();
    rec.frames_dropped = snapshot.dropped;
    judge(rec, true, opts)
}

/// A frame as received: the snapshot holds only the start of a long frame (its preview), and
/// the rules must see all of it (a long `tools/list` is the usual case).
fn whole(traffic: &TrafficLog, frame: &TrafficFrame) -> TrafficFrame {
    match frame.full_bytes {
        Some(_) => traffic
            .frame(&frame.server, frame.seq)
            .unwrap_or_else(|| frame.clone()),
        None => frame.clone(),
    }
}

/// An era whose connection failed: the frames it left are judged, and the failure itself is
/// a finding. `traffic` names the log the frames came from.
pub fn check_failed_connect(
    label: &str,
    traffic: &str,
    config: ServerConfig,
    frames: &[TrafficFrame],
    error: &str,
    opts: &CheckOptions,
) -> EraResult {
    let era = attempted_era(frames);
    let answered = frames
        .iter()
        .filter(|fr| fr.direction == Direction::Inbound)
        .filter_map(|fr| serde_json::from_str::<Value>(&fr.text).ok())
        .find_map(|v| {
            v.pointer("/result/protocolVersion")
                .and_then(Value::as_str)
                .map(str::to_owned)
        });
    let revision = answered.unwrap_or_else(|| {
        match era {
            Era::Legacy => LEGACY_FALLBACK,
            Era::Modern => MODERN,
        }
        .to_owned()
    });
    let mut rec = Recording::new(label, traffic, config, era, &revision, Value::Null);
    rec.connect_error = Some(error.to_owned());
    rec.frames = session(frames, era).to_vec();
    rec.exercised.push(format!(
        "{}: failed",
        match era {
            Era::Legacy => "initialize",
            Era::Modern => "server/discover",
        }
    ));
    judge(rec, false, opts)
}

/// The era a failed connection was opening: legacy once it sent `initialize`.
pub(crate) fn attempted_era(frames: &[TrafficFrame]) -> Era {
    let initialize = frames.iter().any(|fr| {
        fr.direction == Direction::Outbound
            && fr.kind == FrameKind::Message
            && fr.text.contains("\"initialize\"")
            && serde_json::from_str::<Value>(&fr.text)
                .is_ok_and(|v| v.get("method").and_then(Value::as_str) == Some("initialize"))
    });
    if initialize { Era::Legacy } else { Era::Modern }
}

/// Runs every selected set's judge over one era's recording.
fn judge(rec: Recording, connected: bool, opts: &CheckOptions) -> EraResult {
    let mut f = Findings::new(Some(&rec.revision));
    let mut rules = Vec::new();
    for set in opts.selected() {
        let def = definition(set);
        (def.judge)(&rec, opts, &mut f);
        rules.extend(def.rules.iter().map(|r| RuleRef {
            rule_set: r.set,
            rule: r.id.to_owned(),
        }));
    }
    EraResult {
        check: EraCheck {
            era: rec.era,
            revision: rec.revision.clone(),
            connected,
            traffic: rec.traffic.clone(),
            exercised: rec.exercised.clone(),
            rules,
        },
        findings: f.finish(),
        recording: rec,
    }
}

/// The report of `eras`: their findings and the sets' conclusions about the server as a
/// whole, worst first; eras newest revision first. Secrets in the server's URL are masked
/// wherever the report would show them ([`crate::redact`]).
pub fn report(
    server: &str,
    mut eras: Vec<EraResult>,
    notes: Vec<String>,
    opts: &CheckOptions,
) -> CheckReport {
    eras.sort_by(|a, b| b.recording.revision.cmp(&a.recording.revision));
    let recordings: Vec<&Recording> = eras.iter().map(|e| &e.recording).collect();
    let mut whole = Findings::new(None);
    for set in opts.selected() {
        if let Some(conclude) = definition(set).conclude {
            conclude(&recordings, opts, &mut whole);
        }
    }
    let hosts = crate::hosts::verdicts(&recordings, opts);
    let secrets = crate::redact::secrets(recordings.iter().map(|r| &r.config));
    let mut findings: Vec<Finding> = eras.iter().flat_map(|e| e.findings.clone()).collect();
    findings.extend(whole.finish());
    findings.sort_by_key(|f| f.severity);
    let report = CheckReport {
        server: server.to_owned(),
        eras: eras.into_iter().map(|e| e.check).collect(),
        notes,
        findings,
        hosts,
    };
    crate::redact::report(report, &secrets)
}
