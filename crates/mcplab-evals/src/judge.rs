//! The judge's words, both ways: the prompt a grading model gets (the rubric, the
//! conversation, the tool calls with their results, the final answer) and the reading of its
//! reply (a JSON object with a 0–1 `score` and a `reason`). Calling the model is the runner's
//! job; a reply that cannot be read becomes `JudgeVerdict::Error`, never a guessed score.

use serde_json::Value;

use crate::checks;
use crate::matching::calls::brief;
use crate::suite::Judge;
use crate::trace::Trace;
use crate::verdict::JudgeVerdict;

/// Longest tool result quoted to the judge, in characters (results can be huge).
const RESULT_CHARS: usize = 2000;

const SYSTEM: &str = "You grade an AI assistant's work against a rubric. Read the conversation, \
the tool calls the assistant made with their results, and its final answer. Reply with only a \
JSON object: {\"score\": <number from 0 to 1>, \"reason\": \"<one or two sentences>\"}. 1 means \
the rubric is fully met, 0 not at all.";

/// `(system, user)` messages for the grading model.
pub fn judge_prompt(judge: &Judge, trace: &Trace) -> (String, String) {
    let mut user = format!("Rubric:\n{}\n\nConversation:\n", judge.rubric.trim());
    for (i, turn) in trace.turns.iter().enumerate() {
        user.push_str(&format!("\n[turn {}] User: {}\n", i + 1, turn.user));
        for call in &turn.tool_calls {
            let outcome = match (&call.result, &call.error) {
                (_, Some(e)) => format!("error: {e}"),
                (Some(r), None) => cut(&r.to_string(), RESULT_CHARS),
                (None, None) => "no result".to_string(),
            };
            let flag = if call.is_error { " (isError)" } else { "" };
            user.push_str(&format!(
                "Tool call {}.{}({}){flag} → {outcome}\n",
                call.server,
                call.tool,
                brief(&call.arguments)
            ));
        }
        user.push_str(&format!("Assistant: {}\n", turn.answer));
    }
    user.push_str(
        "\nGrade the final answer and the way the assistant got there against the rubric.",
    );
    (SYSTEM.to_string(), user)
}

fn cut(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((i, _)) => format!("{}… (cut)", &text[..i]),
        None => text.to_string(),
    }
}

/// Read the grading model's reply.
pub fn parse_judge_reply(reply: &str, model: &str) -> JudgeVerdict {
    let Some(value) = checks::json_in(reply) else {
        return JudgeVerdict::Error {
            message: format!("the judge's reply holds no JSON: {}", cut(reply, 200)),
        };
    };
    let score = value.get("score").and_then(Value::as_f64);
    let reason = value
        .get("reason")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .trim()
        .to_string();
    match score {
        Some(s) if (0.0..=1.0).contains(&s) => JudgeVerdict::Scored {
            score: s,
            reason,
            model: model.to_string(),
        },
        Some(s) => JudgeVerdict::Error {
            message: format!("the judge's score {s} is outside 0–1"),
        },
        None => JudgeVerdict::Error {
            message: format!(
                "the judge's reply has no numeric `score`: {}",
                cut(reply, 200)
            ),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_are_read_or_refused() {
        let ok = parse_judge_reply(
            "Sure.\n```json\n{\"score\": 0.8, \"reason\": \" Explains the error. \"}\n```",
            "openai::m",
        );
        assert_eq!(
            ok,
            JudgeVerdict::Scored {
                score: 0.8,
                reason: "Explains the error.".into(),
                model: "openai::m".into()
            }
        );
        assert!(
            matches!(parse_judge_reply("{\"score\": 8, \"reason\": \"x\"}", "m"), JudgeVerdict::Error { message } if message.contains("outside 0–1"))
        );
        assert!(matches!(
            parse_judge_reply("{\"score\": \"high\"}", "m"),
            JudgeVerdict::Error { .. }
        ));
        assert!(
            matches!(parse_judge_reply("I think it is good", "m"), JudgeVerdict::Error { message } if message.contains("no JSON"))
        );
    }

    #[test]
    fn the_prompt_carries_rubric_calls_and_answer_with_long_results_cut() {
        use crate::trace::{ToolCallTrace, TurnEnd, TurnTrace};
        use mcplab_protocol::chat::{StopReason, TokenUsage};
        let call = ToolCallTrace {
            call_id: "1".into(),
            server: "demo".into(),
            tool: "fail".into(),
            arguments: serde_json::json!({}),
            result: Some(
                serde_json::json!({ "content": [{ "type": "text", "text": "x".repeat(5000) }], "isError": true }),
            ),
            is_error: true,
            error: None,
            duration_ms: 1,
        };
        let turn = TurnTrace {
            user: "Call fail".into(),
            tool_calls: vec![call],
            answer: "The tool reported an error.".into(),
            end: TurnEnd::Finished {
                reason: StopReason::Completed,
            },
            steps: 2,
            usage: TokenUsage::default(),
            latency_ms: 1,
            llm_ms: 1,
            mcp_ms: 0,
        };
        let trace = Trace {
            turns: vec![turn],
            cost_usd: None,
            app_renders: vec![],
        };
        let judge = Judge {
            rubric: "Says it failed.".into(),
            model: "openai::m".into(),
            threshold: None,
            gating: false,
        };
        let (system, user) = judge_prompt(&judge, &trace);
        assert!(system.contains("\"score\""));
        assert!(user.starts_with("Rubric:\nSays it failed.\n"));
        assert!(user.contains("Tool call demo.fail({}) (isError) → "));
        assert!(user.contains("… (cut)"));
        assert!(user.len() < 3000, "{}", user.len());
        assert!(user.contains("Assistant: The tool reported an error."));
    }
}
