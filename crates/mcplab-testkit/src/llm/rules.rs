//! Rules: a scripted model that answers by what it is asked rather than by arrival order, so
//! several conversations can run at once (eval iterations) and each still gets its own
//! answers. A rule matches a request by model name and by text in the conversation's last user
//! message; its steps are played by position in the current turn (the number of assistant
//! messages since that user message). A rule with several variants plays them in turn, one
//! per new conversation turn; later steps follow the variant whose earlier tool call ids the
//! conversation holds (so variants must use distinct call ids). Steps are also readable from
//! JSON (`{"reply": [...]}`, `{"call": [...], "text": [...]}`, `{"fail": {...}}`, each with an
//! optional `delayMs`), for the standalone server's `--script` and `--rules` files.

use parking_lot::Mutex;
use serde_json::Value;

use super::{ScriptedCall, Step};

/// One rule: what it matches and what it answers.
#[derive(Debug, Clone)]
pub struct Rule {
    /// The request's `model` must equal this.
    pub model: Option<String>,
    /// The last user message must contain this.
    pub contains: Option<String>,
    /// One list of steps per variant (usually one).
    pub variants: Vec<Vec<Step>>,
}

impl Rule {
    /// A rule matching user messages that contain `text`, answering with `steps`.
    pub fn when(text: &str, steps: Vec<Step>) -> Rule {
        Rule {
            model: None,
            contains: Some(text.to_owned()),
            variants: vec![steps],
        }
    }

    /// Only for requests to `model`.
    pub fn for_model(mut self, model: &str) -> Rule {
        self.model = Some(model.to_owned());
        self
    }

    /// Another way to answer, played in turn with the others.
    pub fn or(mut self, steps: Vec<Step>) -> Rule {
        self.variants.push(steps);
        self
    }
}

/// Rules in order; the first that matches answers.
#[derive(Debug, Default)]
pub struct Rules {
    rules: Vec<Rule>,
    /// Per rule, how many turns it has started (picks the next variant).
    started: Mutex<Vec<usize>>,
}

impl Rules {
    pub fn new(rules: Vec<Rule>) -> Rules {
        let started = Mutex::new(vec![0; rules.len()]);
        Rules { rules, started }
    }

    /// Reads rules from JSON: `[{"model"?, "contains"?, "steps": [...]} | {..., "variants": [[...], ...]}]`.
    pub fn from_json(doc: &Value) -> Result<Rules, String> {
        let list = doc.as_array().ok_or("rules are a JSON array")?;
        let rules = list
            .iter()
            .map(|r| {
                let text = |k: &str| r.get(k).and_then(Value::as_str).map(str::to_owned);
                let steps = |v: &Value| -> Result<Vec<Step>, String> {
                    v.as_array()
                        .ok_or_else(|| format!("steps are an array: {v}"))?
                        .iter()
                        .map(step_from_json)
                        .collect()
                };
                let variants = match (r.get("steps"), r.get("variants")) {
                    (Some(s), None) => vec![steps(s)?],
                    (None, Some(v)) => v
                        .as_array()
                        .ok_or("variants are an array of step arrays")?
                        .iter()
                        .map(steps)
                        .collect::<Result<_, _>>()?,
                    _ => return Err(format!("a rule has `steps` or `variants`: {r}")),
                };
                Ok(Rule {
                    model: text("model"),
                    contains: text("contains"),
                    variants,
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        Ok(Rules::new(rules))
    }

    /// The step answering `body` (either wire format), if a rule matches.
    pub fn answer(&self, body: &Value) -> Option<Step> {
        let conv = Conversation::read(body);
        let (index, rule) = self.rules.iter().enumerate().find(|(_, r)| {
            r.model.as_ref().is_none_or(|m| body["model"] == m.as_str())
                && r.contains
                    .as_ref()
                    .is_none_or(|t| conv.last_user.contains(t.as_str()))
        })?;
        let position = conv.assistant_turns;
        let variant = if position == 0 {
            let mut started = self.started.lock();
            let n = started[index];
            started[index] += 1;
            &rule.variants[n % rule.variants.len()]
        } else {
            rule.variants
                .iter()
                .find(|v| follows(v, position, &conv.call_ids))
                .unwrap_or(&rule.variants[0])
        };
        variant.get(position).cloned()
    }
}

/// Whether the conversation holds this variant's tool calls of its first `position` steps.
fn follows(variant: &[Step], position: usize, seen: &[String]) -> bool {
    let ids: Vec<&str> = variant
        .iter()
        .take(position)
        .flat_map(|s| calls_of(s).iter().map(|c| c.id.as_str()))
        .collect();
    !ids.is_empty() && ids.iter().all(|id| seen.iter().any(|s| s == id))
}

fn calls_of(step: &Step) -> &[ScriptedCall] {
    match step {
        Step::CallTools { calls, .. } => calls,
        Step::Slow { step, .. } | Step::CutOff { step, .. } => calls_of(step),
        _ => &[],
    }
}

/// What a request says about its conversation.
struct Conversation {
    last_user: String,
    /// Assistant messages since the last user message with text.
    assistant_turns: usize,
    /// Tool call ids of those assistant messages.
    call_ids: Vec<String>,
}

impl Conversation {
    fn read(body: &Value) -> Conversation {
        let mut c = Conversation {
            last_user: String::new(),
            assistant_turns: 0,
            call_ids: Vec::new(),
        };
        for m in body["messages"].as_array().into_iter().flatten() {
            match m["role"].as_str() {
                Some("user") => {
                    if let Some(text) = user_text(&m["content"]) {
                        c = Conversation {
                            last_user: text,
                            assistant_turns: 0,
                            call_ids: Vec::new(),
                        };
                    }
                }
                Some("assistant") => {
                    c.assistant_turns += 1;
                    for call in m["tool_calls"].as_array().into_iter().flatten() {
                        c.call_ids.extend(call["id"].as_str().map(str::to_owned));
                    }
                    for block in m["content"].as_array().into_iter().flatten() {
                        if block["type"] == "tool_use" {
                            c.call_ids.extend(block["id"].as_str().map(str::to_owned));
                        }
                    }
                }
                _ => {}
            }
        }
        c
    }
}

/// The text of a user message; `None` for one that only carries tool results (Anthropic).
fn user_text(content: &Value) -> Option<String> {
    match content {
        Value::String(s) => Some(s.clone()),
        Value::Array(blocks) => {
            let texts: Vec<&str> = blocks
                .iter()
                .filter(|b| b["type"] == "text")
                .filter_map(|b| b["text"].as_str())
                .collect();
            (!texts.is_empty()).then(|| texts.join("\n"))
        }
        _ => None,
    }
}

/// One step from JSON: `{"reply": ["chunk", …]}`, `{"call": [{"id", "name", "arguments"}],
/// "text"?: [...]}` or `{"fail": {"status", "message", "retryAfter"?}}`, each with an optional
/// `delayMs` before every streamed event.
pub fn step_from_json(step: &Value) -> Result<Step, String> {
    let strings = |v: &Value| -> Vec<String> {
        v.as_array()
            .into_iter()
            .flatten()
            .filter_map(|s| s.as_str().map(str::to_owned))
            .collect()
    };
    let base = if let Some(reply) = step.get("reply") {
        Step::reply(strings(reply))
    } else if let Some(calls) = step.get("call").and_then(Value::as_array) {
        let calls = calls
            .iter()
            .map(|c| {
                let field = |k: &str| c[k].as_str().map(str::to_owned);
                match (field("id"), field("name")) {
                    (Some(id), Some(name)) => {
                        Ok(ScriptedCall::new(id, name, c["arguments"].clone()))
                    }
                    _ => Err(format!("a call needs `id` and `name`: {c}")),
                }
            })
            .collect::<Result<Vec<_>, _>>()?;
        Step::CallTools {
            text: strings(&step["text"]),
            calls,
        }
    } else if let Some(fail) = step.get("fail") {
        Step::Fail {
            status: fail["status"].as_u64().unwrap_or(500) as u16,
            message: fail["message"]
                .as_str()
                .unwrap_or("scripted failure")
                .to_owned(),
            retry_after: fail["retryAfter"].as_u64(),
        }
    } else {
        return Err(format!(
            "unknown step (use `reply`, `call` or `fail`): {step}"
        ));
    };
    Ok(match step.get("delayMs").and_then(Value::as_u64) {
        Some(ms) if ms > 0 => base.slow(ms),
        _ => base,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn openai(model: &str, messages: Value) -> Value {
        json!({ "model": model, "messages": messages })
    }

    #[test]
    fn rules_answer_by_model_text_and_position() {
        let rules = Rules::from_json(&json!([
            { "model": "m1", "contains": "add", "steps": [
                { "call": [{ "id": "a1", "name": "demo__add", "arguments": { "a": 1 } }] },
                { "reply": ["done"] }
            ]},
            { "contains": "add", "steps": [{ "reply": ["other model"] }] }
        ]))
        .unwrap();
        let first = rules.answer(&openai(
            "m1",
            json!([{ "role": "user", "content": "please add" }]),
        ));
        assert!(matches!(first, Some(Step::CallTools { .. })), "{first:?}");
        let second = rules.answer(&openai(
            "m1",
            json!([
                { "role": "user", "content": "please add" },
                { "role": "assistant", "tool_calls": [{ "id": "a1" }] },
                { "role": "tool", "content": "2" }
            ]),
        ));
        assert_eq!(second, Some(Step::reply(["done"])));
        let other = rules.answer(&openai("m2", json!([{ "role": "user", "content": "add" }])));
        assert_eq!(other, Some(Step::reply(["other model"])));
        assert_eq!(
            rules.answer(&openai("m2", json!([{ "role": "user", "content": "hi" }]))),
            None
        );
    }

    #[test]
    fn variants_alternate_and_later_steps_follow_their_variant() {
        let call = |id: &str| Step::call_tools([ScriptedCall::new(id, "t", json!({}))]);
        let rules = Rules::new(vec![
            Rule::when("go", vec![call("x1"), Step::reply(["X"])])
                .or(vec![call("y1"), Step::reply(["Y"])]),
        ]);
        let start = json!([{ "role": "user", "content": [{ "type": "text", "text": "go" }] }]);
        assert_eq!(rules.answer(&openai("m", start.clone())), Some(call("x1")));
        assert_eq!(rules.answer(&openai("m", start)), Some(call("y1")));
        // Anthropic shape: the tool result comes back in a user message of its own.
        let after_y = json!([
            { "role": "user", "content": [{ "type": "text", "text": "go" }] },
            { "role": "assistant", "content": [{ "type": "tool_use", "id": "y1" }] },
            { "role": "user", "content": [{ "type": "tool_result", "tool_use_id": "y1" }] }
        ]);
        assert_eq!(
            rules.answer(&openai("m", after_y)),
            Some(Step::reply(["Y"]))
        );
    }

    #[test]
    fn steps_read_from_json_with_delays_and_failures() {
        let s = step_from_json(&json!({ "reply": ["a"], "delayMs": 50 })).unwrap();
        assert_eq!(s, Step::reply(["a"]).slow(50));
        let f = step_from_json(
            &json!({ "fail": { "status": 429, "message": "slow", "retryAfter": 1 } }),
        )
        .unwrap();
        assert_eq!(
            f,
            Step::Fail {
                status: 429,
                message: "slow".into(),
                retry_after: Some(1)
            }
        );
        assert!(step_from_json(&json!({ "think": [] })).is_err());
    }
}
