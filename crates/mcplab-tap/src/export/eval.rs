//! A recorded host session as an eval case (`mcplab tap eval FILE`): what the user typed is
//! unknown to the tap, but the model's tool calls and the server's results are not. The case
//! expects those calls in order with their arguments (partial match, as a saved chat's case
//! does) and checks each call's result (`toolResult`, matching its `structuredContent`, else
//! its `content`); the user's message is a placeholder to fill in. Calls that failed, answers
//! still in progress (`input_required`, tasks) and results too large to be useful as a check
//! are left out, each with a note.

use mcplab_evals::matching::plain_matcher;
use mcplab_evals::suite::{
    Case, Check, DetailedTurn, ExpectedCall, Order, ToolCallExpectations, ToolResultCheck, Turn,
};
use serde_json::{Value, json};

use super::Exchange;

/// The placeholder for the user's message.
pub const USER_UNKNOWN: &str =
    "TODO: what the user asked (the tap saw only the host and the server)";
/// Results larger than this (as JSON) are not turned into checks.
pub const MAX_RESULT_CHECK: usize = 4096;

/// The case, and notes on what was left out.
#[derive(Debug, Clone, PartialEq)]
pub struct TappedCase {
    pub case: Case,
    pub notes: Vec<String>,
}

/// The case the session's `tools/call`s describe; `server` is the name the suite gives the
/// server.
pub fn case_of(id: &str, exchanges: &[Exchange], server: &str) -> TappedCase {
    let mut expected = Vec::new();
    let mut checks = Vec::new();
    let mut notes = Vec::new();
    let calls = exchanges.iter().filter(|e| e.method == "tools/call");
    for (n, call) in calls.enumerate() {
        let tool = call.params["name"].as_str().unwrap_or_default().to_owned();
        let what = format!("call {} ({tool})", n + 1);
        let result = match (&call.result, &call.error) {
            (Some(r), _) if r["isError"] == json!(true) => {
                notes.push(format!("{what} left out: the tool reported an error"));
                continue;
            }
            (_, Some(e)) => {
                let message = e["message"].as_str().unwrap_or("an error");
                notes.push(format!("{what} left out: it failed ({message})"));
                continue;
            }
            (Some(r), None) => match r["resultType"].as_str() {
                None | Some("complete") => Some(r),
                Some(other) => {
                    notes.push(format!(
                        "{what} left out: answered `{other}`, not its result"
                    ));
                    continue;
                }
            },
            (None, None) => {
                notes.push(format!("{what}: no answer was recorded; no result check"));
                None
            }
        };
        let arguments = call.params.get("arguments").cloned().unwrap_or(json!({}));
        expected.push(ExpectedCall {
            tool: tool.clone(),
            server: Some(server.to_owned()),
            arguments: Some(plain_matcher(&arguments)),
            argument_mode: None,
            optional: false,
        });
        if let Some(check) = result.and_then(|r| result_check(&tool, server, r, &what, &mut notes))
        {
            checks.push(check);
        }
    }
    let tool_calls = ToolCallExpectations {
        order: (expected.len() > 1).then_some(Order::InOrder),
        none: expected.is_empty(),
        expected,
        ..Default::default()
    };
    let turn = Turn::Detailed(DetailedTurn {
        user: USER_UNKNOWN.to_owned(),
        tool_calls: Some(tool_calls),
        checks,
    });
    let case = Case {
        id: id.to_owned(),
        title: Some("Recorded by mcplab tap".to_owned()),
        turns: vec![turn],
        tool_calls: None,
        checks: Vec::new(),
        judge: None,
        models: None,
        repeat: None,
        pass_threshold: None,
        skip: false,
        ..Case::default()
    };
    TappedCase { case, notes }
}

fn result_check(
    tool: &str,
    server: &str,
    result: &Value,
    what: &str,
    notes: &mut Vec<String>,
) -> Option<Check> {
    let shown = match result.get("structuredContent") {
        Some(s) => json!({ "structuredContent": s }),
        None => json!({ "content": result.get("content").cloned().unwrap_or(json!([])) }),
    };
    let size = shown.to_string().len();
    if size > MAX_RESULT_CHECK {
        notes.push(format!(
            "{what}: its result ({size} bytes) is not checked; add a toolResult check on the part that matters"
        ));
        return None;
    }
    Some(Check::ToolResult(ToolResultCheck {
        tool: tool.to_owned(),
        server: Some(server.to_owned()),
        matches: plain_matcher(&shown),
    }))
}

/// The server a suite of a tapped case runs against.
#[derive(Debug, Clone, PartialEq)]
pub enum SuiteServer {
    /// A server configured in mcplab (`servers:`).
    Configured(String),
    /// Defined in the suite (`mcpServers:`), from the recording's command line or URL.
    Inline { name: String, entry: Value },
}

impl SuiteServer {
    pub fn name(&self) -> &str {
        match self {
            SuiteServer::Configured(name) | SuiteServer::Inline { name, .. } => name,
        }
    }

    /// The server the recording's start line names: a stdio command line (split at spaces:
    /// check it when an argument had one) or an HTTP URL.
    pub fn from_start(name: &str, start: &mcplab_protocol::tap::TapStart) -> Self {
        use mcplab_protocol::tap::TapTransport;
        let entry = match start.transport {
            TapTransport::Stdio => {
                let mut words = start.target.split_whitespace().map(str::to_owned);
                let command = words.next().unwrap_or_default();
                json!({ "command": command, "args": words.collect::<Vec<_>>() })
            }
            _ => json!({ "url": start.target }),
        };
        SuiteServer::Inline {
            name: name.to_owned(),
            entry,
        }
    }
}

/// A suite file (YAML, `mcplab eval run`-ready once the user's message is filled in) holding
/// the case, with the notes as comments on top; `source` names the recording.
pub fn suite_text(tapped: &TappedCase, server: &SuiteServer, source: &str) -> String {
    let mut doc = json!({
        "version": 1,
        "id": tapped.case.id,
        "title": format!("Recorded by mcplab tap from {source}"),
    });
    match server {
        SuiteServer::Configured(name) => doc["servers"] = json!([name]),
        SuiteServer::Inline { name, entry } => doc["mcpServers"] = json!({ name: entry }),
    }
    doc["cases"] = json!([serde_json::to_value(&tapped.case).unwrap_or(Value::Null)]);
    let mut head = format!(
        "# From the tap recording {source}: the calls the model made and the results it got.\n\
         # Write what the user asked in `user`, then: mcplab eval run THIS_FILE --model provider::model\n"
    );
    for note in &tapped.notes {
        head.push_str(&format!("# - {note}\n"));
    }
    format!("{head}{}\n", mcplab_yaml::to_yaml(&doc))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(name: &str, args: Value, result: Option<Value>, error: Option<Value>) -> Exchange {
        Exchange {
            method: "tools/call".into(),
            params: json!({"name": name, "arguments": args}),
            result,
            error,
        }
    }

    #[test]
    fn calls_with_results_become_expectations_and_failures_notes() {
        let ex = vec![
            call(
                "forecast",
                json!({"city": "Oslo"}),
                Some(json!({"content":[{"type":"text","text":"rain"}]})),
                None,
            ),
            call(
                "greet",
                json!({}),
                Some(json!({"resultType":"input_required","inputRequests":{}})),
                None,
            ),
            call(
                "greet",
                json!({}),
                Some(json!({"structuredContent":{"hello":"Ada"},"content":[]})),
                None,
            ),
            call(
                "broken",
                json!({}),
                None,
                Some(json!({"code":-32602,"message":"bad"})),
            ),
            call(
                "oops",
                json!({}),
                Some(json!({"isError":true,"content":[]})),
                None,
            ),
        ];
        let t = case_of("tapped", &ex, "weather");
        let Turn::Detailed(turn) = &t.case.turns[0] else {
            panic!()
        };
        let calls = turn.tool_calls.as_ref().unwrap();
        let tools: Vec<&str> = calls.expected.iter().map(|c| c.tool.as_str()).collect();
        assert_eq!(tools, ["forecast", "greet"]);
        assert_eq!(calls.order, Some(Order::InOrder));
        assert_eq!(calls.expected[0].arguments, Some(json!({"city": "Oslo"})));
        assert_eq!(turn.checks.len(), 2);
        let Check::ToolResult(greet) = &turn.checks[1] else {
            panic!()
        };
        assert_eq!(greet.matches, json!({"structuredContent":{"hello":"Ada"}}));
        assert_eq!(t.notes.len(), 3, "{:?}", t.notes);
        assert!(t.notes[1].contains("bad"), "{:?}", t.notes);

        let server = SuiteServer::Inline {
            name: "weather".into(),
            entry: json!({"command": "node", "args": ["w.js"]}),
        };
        let text = suite_text(&t, &server, "rec.jsonl");
        let suite = mcplab_evals::suite::parse_suite(&text).unwrap();
        assert_eq!(
            suite.cases[0], t.case,
            "the suite loads as written:\n{text}"
        );
        assert!(text.contains("# - call 4 (broken) left out"), "{text}");
    }
}
