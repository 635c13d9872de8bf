//! MCPJam's older `tests.json` (its first evals CLI): an array of tests, each a query run
//! `runs` times on `provider`/`model`, passing when every name in `expectedToolCalls` was
//! called. Servers lived in a separate `environment.json`, keys in `llms.json`.

use std::collections::BTreeMap;

use serde_json::Value;

use super::{ImportError, NoteKind, Notes, safe_id};
use crate::suite::{Case, ExpectedCall, Suite, SuiteVersion, ToolCallExpectations, Turn};

pub(super) fn convert(doc: &Value, name: &str) -> Result<(Suite, Notes), ImportError> {
    let tests = doc
        .as_array()
        .ok_or_else(|| ImportError::Unrecognized("tests.json is an array of tests".into()))?;
    let mut notes = Notes(Vec::new());
    notes.add("", NoteKind::Info, "tests.json names no servers (they were in environment.json): import those with `mcplab servers import` and list their names under `servers`");
    let model_of = |t: &Value| {
        let provider = t
            .get("provider")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let model = t.get("model").and_then(Value::as_str).unwrap_or_default();
        (!provider.is_empty() && !model.is_empty()).then(|| format!("{provider}::{model}"))
    };
    let models: Vec<Option<String>> = tests.iter().map(model_of).collect();
    let shared_model = models
        .first()
        .cloned()
        .flatten()
        .filter(|m| models.iter().all(|x| x.as_deref() == Some(m.as_str())));
    let runs: Vec<u64> = tests
        .iter()
        .map(|t| t.get("runs").and_then(Value::as_u64).unwrap_or(1).max(1))
        .collect();
    let repeat = most_common(&runs);
    let mut used = BTreeMap::new();
    let mut cases = Vec::new();
    for (i, t) in tests.iter().enumerate() {
        let path = format!("[{i}]");
        notes.unknown_keys(
            t,
            &[
                "title",
                "query",
                "runs",
                "model",
                "provider",
                "expectedToolCalls",
                "judgeRequirement",
                "advancedConfig",
            ],
            &path,
        );
        let title = t.get("title").and_then(Value::as_str).unwrap_or_default();
        let mut id = safe_id(title, &format!("test-{}", i + 1));
        let n = used.entry(id.clone()).or_insert(0);
        *n += 1;
        if *n > 1 {
            id = format!("{id}-{n}");
        }
        let mut names: Vec<String> = Vec::new();
        for tool in t
            .get("expectedToolCalls")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or_default()
        {
            let tool = tool.as_str().unwrap_or_default().to_string();
            if names.contains(&tool) {
                notes.add(&format!("{path}.expectedToolCalls"), NoteKind::Info, format!("`{tool}` listed twice; MCPJam needed it called once, so it is expected once"));
            } else {
                names.push(tool);
            }
        }
        if names.is_empty() {
            notes.add(
                &path,
                NoteKind::Info,
                "no expected tool calls: this test always passed in MCPJam; add expectations",
            );
        }
        if let Some(req) = t.get("judgeRequirement").and_then(Value::as_str) {
            notes.add(&format!("{path}.judgeRequirement"), NoteKind::Dropped, format!(
                "judge requirement {req:?}: mcplab's judge needs a grading model; add `judge: {{ rubric: …, model: provider::model }}`"
            ));
        }
        if let Some(config) = t.get("advancedConfig").and_then(Value::as_object) {
            for key in config.keys() {
                notes.add(&format!("{path}.advancedConfig.{key}"), NoteKind::Dropped, "model settings (system prompt, temperature, tool choice) belong to the host configuration: set them in `host`");
            }
        }
        let model = models[i].clone();
        if model.is_none() {
            notes.add(
                &path,
                NoteKind::Dropped,
                "no provider/model: add the case's model under `models`",
            );
        }
        cases.push(Case {
            id,
            title: Some(title.to_string()).filter(|t| !t.is_empty()),
            turns: vec![Turn::Text(
                t.get("query")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string(),
            )],
            tool_calls: (!names.is_empty()).then(|| ToolCallExpectations {
                expected: names
                    .into_iter()
                    .map(|tool| ExpectedCall {
                        tool,
                        server: None,
                        arguments: None,
                        argument_mode: None,
                        optional: false,
                    })
                    .collect(),
                ..Default::default()
            }),
            checks: Vec::new(),
            judge: None,
            models: if shared_model.is_some() {
                None
            } else {
                model.map(|m| vec![m])
            },
            repeat: (runs[i] != repeat).then_some(runs[i] as u32),
            pass_threshold: None,
            skip: false,
            ..Case::default()
        });
    }
    if cases.is_empty() {
        return Err(ImportError::Unrecognized("tests.json holds no test".into()));
    }
    notes.add(
        "",
        NoteKind::Info,
        "expected tool names are matched as MCP tool names; drop any server prefix they carry",
    );
    let suite = Suite {
        version: SuiteVersion,
        id: safe_id(name, "imported-tests"),
        title: Some(format!("Imported from {name}")),
        description: None,
        servers: Vec::new(),
        mcp_servers: None,
        host: None,
        hosts: Vec::new(),
        models: shared_model.into_iter().collect(),
        repeat: Some(repeat as u32),
        concurrency: None,
        timeout_seconds: None,
        defaults: Default::default(),
        gates: Default::default(),
        cases,
    };
    Ok((suite, notes))
}

/// The most common value, the smallest on a tie (so the output does not depend on order).
fn most_common(values: &[u64]) -> u64 {
    let mut counts: BTreeMap<u64, usize> = BTreeMap::new();
    for v in values {
        *counts.entry(*v).or_default() += 1;
    }
    counts
        .iter()
        .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0)))
        .map_or(1, |(v, _)| *v)
}
