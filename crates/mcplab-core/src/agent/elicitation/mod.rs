//! Elicitation answered by a policy instead of a person (a HostConfig's `elicitation.mode`):
//! accept with the requested schema's defaults (URL mode: consent), decline, or cancel. A form
//! whose required fields lack defaults is declined rather than answered with a guess; what
//! "the defaults" are is [`form`]'s, shared with the CLI.

pub mod form;

use mcplab_protocol::HumanAnswer;
use mcplab_protocol::host::ElicitationMode;
use serde_json::Value;

/// The answer `mode` gives to an `elicitation/create` with `params`; `Ask` declines (a person
/// should have been asked: callers do not use this for it).
pub fn answer_by_policy(params: &Value, mode: ElicitationMode) -> HumanAnswer {
    match mode {
        ElicitationMode::Ask | ElicitationMode::Decline => HumanAnswer::Decline { reason: None },
        ElicitationMode::Cancel => HumanAnswer::Cancel,
        ElicitationMode::AcceptDefaults if params["mode"] == "url" => HumanAnswer::Accept {
            content: Value::Null,
        },
        ElicitationMode::AcceptDefaults => match form::defaults_for(&params["requestedSchema"]) {
            Ok(content) => HumanAnswer::Accept { content },
            Err(missing) => HumanAnswer::Decline {
                reason: Some(format!(
                    "required field(s) without a default: {}",
                    missing.join(", ")
                )),
            },
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn policies_answer_without_a_person() {
        let form = json!({"message": "?", "requestedSchema": {"type": "object",
            "properties": {"name": {"type": "string", "default": "Ada"}, "age": {"type": "number"}},
            "required": ["name"]}});
        assert_eq!(
            answer_by_policy(&form, ElicitationMode::AcceptDefaults),
            HumanAnswer::Accept {
                content: json!({"name": "Ada"})
            }
        );
        let strict = json!({"requestedSchema": {"properties": {"age": {"type": "number"}},
            "required": ["age"]}});
        assert!(matches!(
            answer_by_policy(&strict, ElicitationMode::AcceptDefaults),
            HumanAnswer::Decline { .. }
        ));
        let url = json!({"mode": "url", "url": "https://example.com/x"});
        assert!(matches!(
            answer_by_policy(&url, ElicitationMode::AcceptDefaults),
            HumanAnswer::Accept { .. }
        ));
        assert_eq!(
            answer_by_policy(&form, ElicitationMode::Cancel),
            HumanAnswer::Cancel
        );
        assert!(matches!(
            answer_by_policy(&form, ElicitationMode::Decline),
            HumanAnswer::Decline { .. }
        ));
    }
}
