//! A chat session saved as a case (`mcplab eval add-case --from-session`, the chat page's
//! "save as case"): each stored user turn becomes a turn, and the tool calls the model made in
//! it become that turn's expected calls, in order, with the arguments it used (partial match).
//! Calls that failed are left out: they record what went wrong, not what is wanted.

use mcplab_protocol::chat::{StoredTurn, TurnEvent};

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
