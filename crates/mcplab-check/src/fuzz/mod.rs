//! The fuzz set (`--fuzz N --seed S`, `--fuzz-tool NAME`): schema-driven inputs ([`inputs`])
//! sent only to tools that are safe to call — `readOnlyHint: true`, or named with
//! `--fuzz-tool` — never to others ([`run`] drives the calls, restarts a server that died
//! and shrinks the input that killed it). The judge reports crashes (the process died, the
//! endpoint went away), hangs, protocol errors, JSON-RPC errors where a tool error belongs,
//! and results that break the tool's own outputSchema, each with the exact input.

pub(crate) mod inputs;
mod run;

use mcplab_protocol::check::RuleSet;
use serde_json::Value;

use crate::findings::{At, Findings};
use crate::options::CheckOptions;
use crate::recording::Recording;
use crate::rule::{Level, Rule, RuleTable, Source};
use crate::schema_refs::compile;
use crate::sets::RuleSetDef;

pub(crate) use run::may_fuzz;

/// What came back for one fuzz input.
#[derive(Debug, Clone, PartialEq)]
pub enum FuzzOutcome {
    /// A result (a tool error included).
    Answered(Value),
    /// A JSON-RPC error.
    Error { code: i64, message: String },
    /// No answer within the timeout.
    Hang { secs: f64 },
    /// The server died or its endpoint went away.
    Crash(String),
    /// An answer that broke the protocol (unparsable, wrong shape).
    Protocol(String),
}

/// One input sent to one tool.
#[derive(Debug, Clone, PartialEq)]
pub struct FuzzCase {
    pub tool: String,
    /// Which of the tool's inputs it is (0-based; the same seed makes the same one).
    pub index: usize,
    pub input: Value,
    /// What the input is (`` `q`: a 100000-character string ``).
    pub what: String,
    pub outcome: FuzzOutcome,
    /// For a crash: the smallest input found that still crashes it.
    pub shrunk: Option<Value>,
    /// For a crash: why shrinking stopped before it was done (the server could not be
    /// started again, and the error that said so).
    pub shrink_stopped: Option<String>,
}

const FUZZ: RuleTable = RuleTable::new(RuleSet::Fuzz).read_on("2026-12-06");

pub(crate) const CRASH: Rule = FUZZ.rule(
    "fuzz-crash",
    Level::Must,
    "no input makes the server die or its endpoint go away",
    Source::Spec("basic/lifecycle#error-handling"),
    "validate arguments and answer bad ones with a tool error (isError: true) instead of crashing",
);
pub(crate) const HANG: Rule = FUZZ.rule(
    "fuzz-hang",
    Level::Must,
    "every input is answered within the timeout",
    Source::Spec("basic/lifecycle#timeouts"),
    "bound the work an input can cause, and answer with an error when it is too much",
);
pub(crate) const PROTOCOL: Rule = FUZZ.rule(
    "fuzz-protocol",
    Level::Must,
    "every answer to an input is a valid JSON-RPC response",
    Source::Spec("basic#responses"),
    "always answer with a result or an error object, whatever the arguments",
);
pub(crate) const SERVER_ERROR: Rule = FUZZ.rule(
    "fuzz-error-kind",
    Level::Should,
    "bad arguments are answered as a tool error (isError) or -32602, not as another JSON-RPC error",
    Source::Spec("server/tools#error-handling"),
    "report input validation errors as tool execution errors so the model can correct them",
);
pub(crate) const OUTPUT: Rule = FUZZ.rule(
    "fuzz-output-schema",
    Level::Must,
    "a result that is not an error matches the tool's outputSchema",
    Source::Spec("server/tools#output-schema"),
    "return structuredContent that matches the outputSchema for every input the tool accepts",
);
pub(crate) const SKIPPED: Rule = FUZZ.rule(
    "fuzz-skipped",
    Level::Note,
    "tools not fuzzed because they are not marked safe to call",
    FUZZ.page("https://modelcontextprotocol.io/specification/2025-11-25/schema#toolannotations"),
    "mark read-only tools readOnlyHint: true, or name a tool with --fuzz-tool to fuzz it anyway",
);

pub(crate) const RULES: &[Rule] = &[CRASH, HANG, PROTOCOL, SERVER_ERROR, OUTPUT, SKIPPED];

pub(crate) static SET: RuleSetDef = RuleSetDef {
    set: RuleSet::Fuzz,
    title: "Fuzzing",
    rules: RULES,
    always: false,
    exercise: Some(&run::FUZZ),
    judge,
    conclude: None,
};

fn judge(rec: &Recording, opts: &CheckOptions, f: &mut Findings) {
    if opts.fuzz.is_none() {
        return;
    }
    for tool in rec.tools() {
        let name = tool.get("name").and_then(Value::as_str).unwrap_or_default();
        if !may_fuzz(tool, opts) {
            f.add(
                &SKIPPED,
                format!(
                    "`{name}` not fuzzed: not readOnlyHint: true and not named with --fuzz-tool"
                ),
                At::default(),
            );
        }
    }
    let seed = opts.fuzz.as_ref().map_or(0, |f| f.seed);
    for c in &rec.fuzz {
        let about = format!(
            "tool `{}`, input #{} of seed {seed} ({}): {}",
            c.tool,
            c.index,
            c.what,
            brief(&c.input)
        );
        let at = At::default()
            .excerpt(serde_json::to_string(&c.input).unwrap_or_default())
            .call(&c.tool, &c.input);
        match &c.outcome {
            FuzzOutcome::Crash(why) => {
                let shrunk = c
                    .shrunk
                    .as_ref()
                    .map(|s| {
                        format!(
                            "; the smallest input found that still crashes it: {}",
                            brief(s)
                        )
                    })
                    .unwrap_or_default();
                let stopped = c
                    .shrink_stopped
                    .as_ref()
                    .map(|s| format!("; shrinking stopped early: {s}"))
                    .unwrap_or_default();
                f.add(&CRASH, format!("{about} — {why}{shrunk}{stopped}"), at);
            }
            FuzzOutcome::Hang { secs } => {
                f.add(&HANG, format!("{about} — no answer within {secs}s"), at)
            }
            FuzzOutcome::Protocol(why) => f.add(&PROTOCOL, format!("{about} — {why}"), at),
            FuzzOutcome::Error { code, message } if *code != -32602 => f.add(
                &SERVER_ERROR,
                format!("{about} — JSON-RPC error {code}: {message}"),
                at,
            ),
            FuzzOutcome::Error { .. } => {}
            FuzzOutcome::Answered(result) if !result.is_object() => f.add(
                &PROTOCOL,
                format!("{about} — the result is {result}, not a CallToolResult object"),
                at,
            ),
            FuzzOutcome::Answered(result) => output(rec, c, result, &about, at, f),
        }
    }
}

/// An input for a message: JSON with long strings cut (`"AAAA…" (100000 characters)`).
pub(crate) fn brief(v: &Value) -> String {
    fn cut(v: &Value) -> Value {
        match v {
            Value::String(s) if s.chars().count() > 40 => Value::String(format!(
                "{}… ({} characters)",
                s.chars().take(20).collect::<String>(),
                s.chars().count()
            )),
            Value::Array(a) if a.len() > 5 => {
                let mut head: Vec<Value> = a.iter().take(3).map(cut).collect();
                head.push(Value::String(format!("… ({} items)", a.len())));
                Value::Array(head)
            }
            Value::Array(a) => Value::Array(a.iter().map(cut).collect()),
            Value::Object(m) => Value::Object(m.iter().map(|(k, x)| (k.clone(), cut(x))).collect()),
            other => other.clone(),
        }
    }
    cut(v).to_string()
}

/// A result that is not an error against the tool's outputSchema.
fn output(rec: &Recording, c: &FuzzCase, result: &Value, about: &str, at: At, f: &mut Findings) {
    if result.get("isError") == Some(&Value::Bool(true)) {
        return;
    }
    let tool = rec
        .tools()
        .iter()
        .find(|t| t.get("name").and_then(Value::as_str) == Some(c.tool.as_str()));
    let Some(schema) = tool.and_then(|t| t.get("outputSchema")) else {
        return;
    };
    let Ok(validator) = compile(schema).0 else {
        return;
    };
    match result.get("structuredContent") {
        None => f.add(
            &OUTPUT,
            format!("{about} — no structuredContent, though it declares an outputSchema"),
            at,
        ),
        Some(sc) => {
            if let Some(e) = validator.iter_errors(sc).next() {
                f.add(
                    &OUTPUT,
                    format!("{about} — structuredContent breaks its outputSchema: {e}"),
                    at,
                );
            }
        }
    }
}
