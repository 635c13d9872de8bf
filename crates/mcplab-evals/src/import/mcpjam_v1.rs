//! MCPJam's suite file v1 (`schemaVersion: "1"`, `mode: agentWorkflow`): suite identity,
//! `target.servers` by name, `defaults.model` + `provider`, `repetitions`, `passThreshold`,
//! validity, and cases of steps (`prompt` steps become turns, `assert` steps after a prompt
//! become that turn's expectations) with `assertions` and `isNegativeTest`.

use serde_json::Value;

use super::predicates::{self, Collected};
use super::{ImportError, NoteKind, Notes, safe_id};
use crate::suite::{Case, Defaults, DetailedTurn, Gates, Suite, SuiteVersion, Turn};

fn text<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

pub(super) fn convert(doc: &Value) -> Result<(Suite, Notes), ImportError> {
    match doc.get("schemaVersion") {
        Some(Value::String(v)) if v == "1" => {}
        Some(other) => {
            return Err(ImportError::Unrecognized(format!(
                "schemaVersion {other}: only \"1\" is known"
            )));
        }
        None => {
            return Err(ImportError::Unrecognized(
                "no `schemaVersion` (an MCPJam suite file starts with schemaVersion: \"1\")".into(),
            ));
        }
    }
    let mut notes = Notes(Vec::new());
    notes.unknown_keys(
        doc,
        &[
            "schemaVersion",
            "mode",
            "reportingMode",
            "suite",
            "target",
            "defaults",
            "provenance",
            "cases",
        ],
        "",
    );
    for (key, expected) in [("mode", "agentWorkflow"), ("reportingMode", "standard")] {
        if let Some(v) = text(doc, key).filter(|v| *v != expected) {
            notes.add(
                key,
                NoteKind::Dropped,
                format!(
                    "`{v}` has no mcplab equivalent (runs are agent workflows, fully reported)"
                ),
            );
        }
    }
    let meta = doc.get("suite").cloned().unwrap_or_default();
    notes.unknown_keys(&meta, &["id", "name", "description"], "suite");
    let source_id = text(&meta, "id").unwrap_or_default();
    let id = safe_id(source_id, "imported-suite");
    if id != source_id {
        notes.add(
            "suite.id",
            NoteKind::Info,
            format!("id `{source_id}` written as `{id}`: history joins on it"),
        );
    }
    let defaults = doc.get("defaults").cloned().unwrap_or_default();
    notes.unknown_keys(
        &defaults,
        &[
            "model",
            "provider",
            "repetitions",
            "passThreshold",
            "validity",
            "toolPolicy",
            "captureLevel",
        ],
        "defaults",
    );
    let provider = text(&defaults, "provider");
    let model_ref = |model: &str, path: &str, notes: &mut Notes| match provider {
        Some(p) => Some(format!("{p}::{model}")),
        None => {
            notes.add(path, NoteKind::Dropped, format!(
                "model `{model}` has no provider, and mcplab names models provider::model: add it to `models` (e.g. openai::{model}) or pass --model"
            ));
            None
        }
    };
    let models: Vec<String> = text(&defaults, "model")
        .and_then(|m| model_ref(m, "defaults.model", &mut notes))
        .into_iter()
        .collect();
    let mut gates = Gates::default();
    validity(&defaults, &mut gates, &mut notes);
    if defaults.get("toolPolicy").is_some() {
        notes.add(
            "defaults.toolPolicy",
            NoteKind::Dropped,
            "tool allow/deny lists belong to the host configuration: set them in `host`",
        );
    }
    if text(&defaults, "captureLevel").is_some_and(|c| c != "full") {
        notes.add(
            "defaults.captureLevel",
            NoteKind::Dropped,
            "mcplab always records full traces",
        );
    }
    if doc.get("provenance").is_some() {
        notes.add(
            "provenance",
            NoteKind::Dropped,
            "import provenance is not kept in mcplab suites",
        );
    }
    let servers = servers(doc, &mut notes);
    let cases_in = doc
        .get("cases")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let mut cases = Vec::new();
    for (i, c) in cases_in.iter().enumerate() {
        cases.push(case(c, i, &model_ref, &mut notes));
    }
    let suite = Suite {
        version: SuiteVersion,
        id,
        title: text(&meta, "name").map(str::to_string),
        description: text(&meta, "description").map(str::to_string),
        servers,
        mcp_servers: None,
        host: None,
        hosts: Vec::new(),
        models,
        repeat: defaults
            .get("repetitions")
            .and_then(Value::as_u64)
            .map(|r| r.max(1) as u32),
        concurrency: None,
        timeout_seconds: None,
        defaults: Defaults {
            pass_threshold: defaults.get("passThreshold").and_then(Value::as_f64),
            ..Defaults::default()
        },
        gates,
        cases,
    };
    Ok((suite, notes))
}

fn validity(defaults: &Value, gates: &mut Gates, notes: &mut Notes) {
    let Some(v) = defaults.get("validity") else {
        return;
    };
    notes.unknown_keys(
        v,
        &[
            "minEligibleTrials",
            "minCompletionRate",
            "maxEvaluatorErrorRate",
        ],
        "defaults.validity",
    );
    if let Some(rate) = v.get("minCompletionRate").and_then(Value::as_f64) {
        // Rounded so 1 − 0.9 reads 0.1, not 0.09999999999999998.
        let max = ((1.0 - rate) * 1e9).round() / 1e9;
        gates.max_error_rate = Some(max);
        notes.add("defaults.validity.minCompletionRate", NoteKind::Approximated, format!(
            "became gates.maxErrorRate {max}: mcplab counts iterations that ended in an error (provider, server, timeout)"
        ));
    }
    if v.get("minEligibleTrials").is_some() {
        notes.add(
            "defaults.validity.minEligibleTrials",
            NoteKind::Dropped,
            "no equivalent; gates.minSamples governs regression decisions only",
        );
    }
    if v.get("maxEvaluatorErrorRate").is_some() {
        notes.add(
            "defaults.validity.maxEvaluatorErrorRate",
            NoteKind::Dropped,
            "a gating judge that fails makes its iteration errored, counted by gates.maxErrorRate",
        );
    }
}

fn servers(doc: &Value, notes: &mut Notes) -> Vec<String> {
    let target = doc.get("target").cloned().unwrap_or_default();
    notes.unknown_keys(&target, &["servers", "environment"], "target");
    if let Some(env) = text(&target, "environment") {
        notes.add(
            "target.environment",
            NoteKind::Dropped,
            format!("run environment `{env}`: name the servers under `servers` or `mcpServers`"),
        );
    }
    let list = target
        .get("servers")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    list.iter()
        .enumerate()
        .filter_map(|(i, s)| {
            let path = format!("target.servers[{i}]");
            notes.unknown_keys(s, &["name", "id"], &path);
            if let Some(id) = text(s, "id") {
                notes.add(
                    &format!("{path}.id"),
                    NoteKind::Info,
                    format!(
                        "server id `{id}` is not used: mcplab finds servers by configured name"
                    ),
                );
            }
            text(s, "name").map(str::to_string)
        })
        .collect()
}

fn case(
    c: &Value,
    i: usize,
    model_ref: &dyn Fn(&str, &str, &mut Notes) -> Option<String>,
    notes: &mut Notes,
) -> Case {
    let path = format!("cases[{i}]");
    notes.unknown_keys(
        c,
        &[
            "id",
            "title",
            "steps",
            "assertions",
            "expectedOutput",
            "isNegativeTest",
            "model",
            "repetitions",
            "passThreshold",
            "disabled",
            "import",
        ],
        &path,
    );
    let source_id = text(c, "id").unwrap_or_default();
    let id = safe_id(source_id, &format!("case-{}", i + 1));
    if id != source_id {
        notes.add(
            &format!("{path}.id"),
            NoteKind::Info,
            format!("id `{source_id}` written as `{id}`"),
        );
    }
    let steps = c
        .get("steps")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let prompts = steps
        .iter()
        .filter(|s| text(s, "kind") == Some("prompt"))
        .count();
    let mut whole = Collected::default();
    let mut turns: Vec<(String, Collected)> = Vec::new();
    for (k, step) in steps.iter().enumerate() {
        let at = format!("{path}.steps[{k}]");
        match text(step, "kind") {
            Some("prompt") => {
                notes.unknown_keys(step, &["id", "kind", "prompt"], &at);
                turns.push((text(step, "prompt").unwrap_or_default().to_string(), Collected::default()));
            }
            Some("assert") => {
                notes.unknown_keys(step, &["id", "kind", "assertion"], &at);
                let a = step.get("assertion").cloned().unwrap_or_default();
                if a.get("kind").is_some() {
                    notes.add(&at, NoteKind::Dropped, "widget DOM assertions (textVisible, elementVisible, …) need a live widget; mcplab checks render reports only");
                    continue;
                }
                let scope = match turns.last_mut() {
                    Some((_, collected)) => collected,
                    None => {
                        notes.add(&at, NoteKind::Approximated, "an assertion before any prompt now applies to the whole case");
                        &mut whole
                    }
                };
                predicates::add(&a, &format!("{at}.assertion"), prompts, scope, notes);
            }
            Some("toolCall") => notes.add(&at, NoteKind::Dropped, "a model-free tool call step: mcplab cases are user turns; call it with `mcplab tools call`"),
            Some("interact") => notes.add(&at, NoteKind::Dropped, "widget interaction steps are not supported"),
            other => notes.add(&at, NoteKind::Dropped, format!("unknown step kind {other:?}")),
        }
    }
    for (k, p) in c
        .get("assertions")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default()
        .iter()
        .enumerate()
    {
        predicates::add(
            p,
            &format!("{path}.assertions[{k}]"),
            prompts,
            &mut whole,
            notes,
        );
    }
    let negative = c
        .get("isNegativeTest")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    if negative && !whole.calls.is_empty() {
        notes.add(&format!("{path}.isNegativeTest"), NoteKind::Approximated, "a negative test that also expects tool calls: the expected calls are kept and `none` is not set");
    }
    if c.get("expectedOutput").is_some() {
        notes.add(&format!("{path}.expectedOutput"), NoteKind::Dropped, "reference output for MCPJam's judge: write a `judge` rubric with a grading model instead");
    }
    if c.get("import").is_some() {
        notes.add(
            &format!("{path}.import"),
            NoteKind::Dropped,
            "import status is not kept",
        );
    }
    if turns.is_empty() {
        notes.add(
            &format!("{path}.steps"),
            NoteKind::Approximated,
            "no prompt step: an empty user turn was written; edit it",
        );
        turns.push((String::new(), Collected::default()));
    }
    Case {
        id,
        title: text(c, "title").map(str::to_string),
        turns: turns
            .into_iter()
            .map(
                |(user, col)| match (col.tool_calls(false), col.checks.is_empty()) {
                    (None, true) => Turn::Text(user),
                    (tool_calls, _) => Turn::Detailed(DetailedTurn {
                        user,
                        tool_calls,
                        checks: col.checks,
                    }),
                },
            )
            .collect(),
        tool_calls: whole.tool_calls(negative && whole.calls.is_empty()),
        checks: whole.checks,
        judge: None,
        models: text(c, "model")
            .and_then(|m| model_ref(m, &format!("{path}.model"), notes))
            .map(|m| vec![m]),
        repeat: c
            .get("repetitions")
            .and_then(Value::as_u64)
            .map(|r| r.max(1) as u32),
        pass_threshold: c.get("passThreshold").and_then(Value::as_f64),
        skip: c.get("disabled").and_then(Value::as_bool).unwrap_or(false),
        ..Case::default()
    }
}
