//! A chat session saved as a case (`mcplab eval add-case --from-session`, the chat page's
//! "save as case"): each stored user turn becomes a turn, and the tool calls the model made in
//! it become that turn's expected calls, in order, with the arguments it used (partial match).
//! Calls that failed are left out: they record what went wrong, not what is wanted. A turn of a
//! compare (chat sessions run side by side) becomes a whole suite: that case on every compared
//! model ([`compared_turn_suite`]).

use mcplab_protocol::chat::{StoredTurn, TurnEvent};
use mcplab_protocol::host::HostConfig;

use crate::matching::plain_matcher;

use super::case::{Case, DetailedTurn, ExpectedCall, Order, ToolCallExpectations, Turn};

/// The case a session's turns describe.
pub fn case_from_turns(id: &str, title: Option<&str>, turns: &[StoredTurn]) -> Case {
    Case {
        id: id.to_string(),
        title: title.map(str::to_string),
        turns: turns.iter().map(turn).collect(),
        tool_calls: None,
        checks: Vec::new(),
        judge: None,
        models: None,
        repeat: None,
        pass_threshold: None,
        skip: false,
        ..Case::default()
    }
}

fn turn(stored: &StoredTurn) -> Turn {
    let failed: Vec<&str> = stored
        .events
        .iter()
        .filter_map(|e| match e {
            TurnEvent::ToolResult {
                call_id,
                is_error,
                error,
                ..
            } if *is_error || error.is_some() => Some(call_id.as_str()),
            _ => None,
        })
        .collect();
    let expected: Vec<ExpectedCall> = stored
        .events
        .iter()
        .filter_map(|e| match e {
            TurnEvent::ToolCall {
                call_id,
                server,
                tool,
                arguments,
                ..
            } if !failed.contains(&call_id.as_str()) => Some(ExpectedCall {
                tool: tool.clone(),
                server: Some(server.clone()),
                arguments: Some(plain_matcher(arguments)),
                argument_mode: None,
                optional: false,
            }),
            _ => None,
        })
        .collect();
    let tool_calls = ToolCallExpectations {
        order: (expected.len() > 1).then_some(Order::InOrder),
        none: expected.is_empty(),
        expected,
        ..Default::default()
    };
    Turn::Detailed(DetailedTurn {
        user: stored.user.clone(),
        tool_calls: Some(tool_calls),
        checks: Vec::new(),
    })
}

/// A suite file (JSON, which the suite loader reads like YAML) with `turns` (the first
/// column's, up to the compared one) as one case run on every compared model, under the first
/// column's HostConfig; `None` without turns. `name` becomes the suite id (sanitised).
pub fn compared_turn_suite(
    name: &str,
    title: &str,
    host: &HostConfig,
    turns: &[StoredTurn],
    models: &[String],
) -> Option<String> {
    if turns.is_empty() {
        return None;
    }
    let id: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "_.-".contains(c) {
                c
            } else {
                '-'
            }
        })
        .take(120)
        .collect();
    let case = case_from_turns("compared-turn", Some(title), turns);
    let suite = serde_json::json!({
        "version": 1,
        "id": format!("compare-{id}"),
        "title": title,
        "servers": host.servers.keys().collect::<Vec<_>>(),
        "host": host,
        "models": models,
        "cases": [case],
    });
    serde_json::to_string_pretty(&suite).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn call(id: &str, tool: &str, args: serde_json::Value) -> TurnEvent {
        TurnEvent::ToolCall {
            turn_id: "t".into(),
            call_id: id.into(),
            name: format!("demo__{tool}"),
            server: "demo".into(),
            tool: tool.into(),
            arguments: args,
        }
    }

    #[test]
    fn a_compared_turn_becomes_a_suite_the_loader_accepts() {
        let host = HostConfig {
            servers: [("demo".to_owned(), Default::default())].into(),
            ..HostConfig::default()
        };
        let turn = StoredTurn {
            turn_id: "t1".into(),
            user: "add 2 and 40".into(),
            events: vec![call("1", "add", json!({"a": 2, "b": 40}))],
        };
        let models = [
            "openai::gpt-4o-mini".to_owned(),
            "anthropic::claude-haiku-4-5".to_owned(),
        ];
        let text = compared_turn_suite("s/1", "Add", &host, &[turn], &models).unwrap();
        let suite = crate::suite::parse_suite(&text).unwrap_or_else(|e| panic!("{e:?}\n{text}"));
        assert_eq!(suite.models, models);
        assert_eq!(suite.id, "compare-s-1");
        assert_eq!(suite.cases.len(), 1);
        assert!(
            text.contains("add 2 and 40") && text.contains("\"b\": 40"),
            "{text}"
        );
        assert_eq!(compared_turn_suite("s", "t", &host, &[], &models), None);
    }
}
