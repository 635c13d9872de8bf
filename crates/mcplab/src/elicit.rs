//! Answers `elicitation/create` from the terminal: a prompt per schema field (with defaults,
//! enum choices and validation against the requested schema), or non-interactively by
//! policy (`accept-defaults`, `decline`, `cancel`). URL mode shows the URL and asks for
//! consent; mcplab never opens it by itself. Schemas are read as servers send them (core's
//! `elicitation_form`, which chat and evals use too: the same defaults, the same checks,
//! `format`s included): an optional field written as `anyOf: [T, {"type": "null"}]` (Python
//! SDK 1.x) is an optional `T`, and nested objects are asked field by field (`address.city`).
//! Decline and cancel never look at the schema. Server text shown in prompts is neutralised
//! unless `--raw`. `field.rs` describes one field and turns what was typed into its value.

mod field;

use std::io::{BufRead, Write};

use mcplab_core::agent::elicitation_form::{check, defaults_for, fields, put};
use mcplab_protocol::HumanAnswer;
use serde_json::{Map, Value};

use crate::cli::ElicitationMode;
use crate::output::safe;
use field::{allowed, describe_field, parse_field};

/// How to answer, and whether the user chose that (`--elicitation`) or it is the default
/// for a stdin that is not a terminal.
#[derive(Debug, Clone, Copy)]
pub struct Policy {
    pub mode: ElicitationMode,
    explicit: bool,
}

impl Policy {
    pub fn chosen(mode: ElicitationMode) -> Self {
        Self {
            mode,
            explicit: true,
        }
    }

    /// Nobody can be asked: decline, and say why.
    pub fn not_a_terminal() -> Self {
        Self {
            mode: ElicitationMode::Decline,
            explicit: false,
        }
    }
}

/// Answers one request using the process's stdin/stderr for prompts.
pub fn answer(server: &str, params: &Value, policy: Policy, raw: bool) -> HumanAnswer {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = std::io::stderr();
    answer_with(server, params, policy, raw, &mut input, &mut out)
}

/// [`answer`] over any input and output (tests script both).
pub fn answer_with(
    server: &str,
    params: &Value,
    policy: Policy,
    raw: bool,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> HumanAnswer {
    let shown = |s: &str| {
        if raw {
            s.to_owned()
        } else {
            safe(s).into_owned()
        }
    };
    let message = shown(params.get("message").and_then(Value::as_str).unwrap_or(""));
    let is_url = params.get("mode").and_then(Value::as_str) == Some("url");
    match policy.mode {
        ElicitationMode::Decline if !policy.explicit => {
            let _ = writeln!(
                out,
                "[{server}] elicitation declined: stdin is not a terminal, so nobody can be \
                 asked (pass --elicitation accept-defaults|ask|cancel to answer otherwise): \
                 {message}"
            );
            HumanAnswer::Decline { reason: None }
        }
        ElicitationMode::Decline => {
            let _ = writeln!(
                out,
                "[{server}] elicitation declined (--elicitation decline): {message}"
            );
            HumanAnswer::Decline { reason: None }
        }
        ElicitationMode::Cancel => {
            let _ = writeln!(
                out,
                "[{server}] elicitation cancelled (--elicitation cancel): {message}"
            );
            HumanAnswer::Cancel
        }
        ElicitationMode::AcceptDefaults if is_url => {
            let url = shown(params.get("url").and_then(Value::as_str).unwrap_or(""));
            let _ = writeln!(out, "[{server}] consented to URL elicitation: {url}");
            HumanAnswer::Accept {
                content: Value::Null,
            }
        }
        ElicitationMode::AcceptDefaults => {
            let schema = params
                .get("requestedSchema")
                .cloned()
                .unwrap_or(Value::Null);
            match defaults_for(&schema) {
                Ok(content) => HumanAnswer::Accept { content },
                Err(missing) => {
                    let _ = writeln!(
                        out,
                        "[{server}] declined elicitation: required field(s) without a default: {}",
                        shown(&missing.join(", "))
                    );
                    HumanAnswer::Decline { reason: None }
                }
            }
        }
        ElicitationMode::Ask if is_url => ask_url(server, params, &shown, input, out),
        ElicitationMode::Ask => ask_form(server, params, &shown, input, out),
    }
}

fn read_line(input: &mut dyn BufRead) -> Option<String> {
    let mut line = String::new();
    match input.read_line(&mut line) {
        Ok(0) | Err(_) => None,
        Ok(_) => Some(line.trim_end_matches(['\n', '\r']).to_owned()),
    }
}

fn ask_url(
    server: &str,
    params: &Value,
    shown: &dyn Fn(&str) -> String,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> HumanAnswer {
    let message = shown(params.get("message").and_then(Value::as_str).unwrap_or(""));
    let url = shown(params.get("url").and_then(Value::as_str).unwrap_or(""));
    let _ = writeln!(
        out,
        "\n[{server}] asks you to open a URL: {message}\n  {url}"
    );
    loop {
        let _ = write!(
            out,
            "Open it yourself, then answer: [a]ccept / [d]ecline / [c]ancel: "
        );
        let _ = out.flush();
        match read_line(input).as_deref().map(str::trim) {
            None => return HumanAnswer::Cancel,
            Some("a" | "accept" | "y" | "yes") => {
                return HumanAnswer::Accept {
                    content: Value::Null,
                };
            }
            Some("d" | "decline" | "n" | "no") => return HumanAnswer::Decline { reason: None },
            Some("c" | "cancel") => return HumanAnswer::Cancel,
            Some(_) => {}
        }
    }
}

fn ask_form(
    server: &str,
    params: &Value,
    shown: &dyn Fn(&str) -> String,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> HumanAnswer {
    let message = shown(params.get("message").and_then(Value::as_str).unwrap_or(""));
    let schema = params
        .get("requestedSchema")
        .cloned()
        .unwrap_or(Value::Null);
    let _ = writeln!(
        out,
        "\n[{server}] asks: {message}\n(press Enter to take the default; type :decline or :cancel to refuse)"
    );
    let mut content = Map::new();
    for field in fields(&schema) {
        let (prop, is_required) = (&field.prop, field.required);
        let name = field.path.join(".");
        loop {
            let _ = write!(
                out,
                "  {}: ",
                shown(&describe_field(&name, prop, is_required))
            );
            let _ = out.flush();
            let Some(line) = read_line(input) else {
                return HumanAnswer::Cancel;
            };
            match line.trim() {
                ":decline" => return HumanAnswer::Decline { reason: None },
                ":cancel" => return HumanAnswer::Cancel,
                "" => {
                    if let Some(d) = prop.get("default") {
                        put(&mut content, &field.path, d.clone());
                        break;
                    }
                    if !is_required {
                        break;
                    }
                    let _ = writeln!(out, "    required: please enter a value");
                }
                text => match parse_field(text, prop).and_then(|v| allowed(prop, v)) {
                    Ok(v) => {
                        put(&mut content, &field.path, v);
                        break;
                    }
                    Err(e) => {
                        let _ = writeln!(out, "    {}", shown(&e));
                    }
                },
            }
        }
    }
    let content = Value::Object(content);
    if let Err(e) = check(&schema, &content) {
        let _ = writeln!(
            out,
            "  the answer does not match the requested schema ({}); cancelled",
            shown(&e)
        );
        return HumanAnswer::Cancel;
    }
    HumanAnswer::Accept { content }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ask() -> Policy {
        Policy::chosen(ElicitationMode::Ask)
    }

    #[test]
    fn optional_anyof_and_nested_objects() {
        let params = json!({"message": "m", "requestedSchema": {"type": "object", "properties": {
            "nick": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": null},
            "n": {"type": ["integer", "null"]},
            "address": {"type": "object", "properties": {"city": {"type": "string", "default": "Paris"}},
                        "required": ["city"]}
        }, "required": ["address"]}});
        let schema = &params["requestedSchema"];
        assert_eq!(
            defaults_for(schema),
            Ok(json!({"address": {"city": "Paris"}}))
        );
        let mut input: &[u8] = b"\n7\nLyon\n";
        let mut out = Vec::new();
        let a = answer_with("s", &params, ask(), false, &mut input, &mut out);
        assert_eq!(
            a,
            HumanAnswer::Accept {
                content: json!({"n": 7, "address": {"city": "Lyon"}})
            },
            "{}",
            String::from_utf8_lossy(&out)
        );
    }

    #[test]
    fn default_decline_says_why() {
        let mut out = Vec::new();
        let mut input: &[u8] = b"";
        let a = answer_with(
            "s",
            &form(),
            Policy::not_a_terminal(),
            false,
            &mut input,
            &mut out,
        );
        assert!(matches!(a, HumanAnswer::Decline { .. }));
        let shown = String::from_utf8(out).unwrap();
        assert!(shown.contains("not a terminal"), "{shown}");
        assert!(!shown.contains("--elicitation decline)"), "{shown}");
    }

    fn form() -> Value {
        json!({
            "message": "Who are you?",
            "requestedSchema": {
                "type": "object",
                "properties": {
                    "age": {"type": "integer", "minimum": 0},
                    "color": {"type": "string", "enum": ["red", "green"], "default": "green"},
                    "name": {"type": "string"},
                    "subscribe": {"type": "boolean", "default": true}
                },
                "required": ["name"]
            }
        })
    }

    #[test]
    fn interactive_form_reasks_on_bad_input_and_takes_defaults() {
        // age: "x" (not a number), then "-1" (below minimum), then "30"; color: default;
        // name: empty (required) then "Ada"; subscribe: "no".
        let mut input: &[u8] = b"x\n-1\n30\n\n\nAda\nno\n";
        let mut out = Vec::new();
        let a = answer_with("s", &form(), ask(), false, &mut input, &mut out);
        assert_eq!(
            a,
            HumanAnswer::Accept {
                content: json!({"age": 30, "color": "green", "name": "Ada", "subscribe": false})
            }
        );
        let shown = String::from_utf8(out).unwrap();
        assert!(shown.contains("one of: red, green"), "{shown}");
        assert!(shown.contains("whole number"), "{shown}");
        assert!(shown.contains("required: please enter a value"), "{shown}");
    }

    #[test]
    fn formats_and_choices_are_asked_again() {
        let params = json!({"message": "m", "requestedSchema": {"type": "object", "properties": {
            "e": {"type": "string", "format": "email"},
            "u": {"type": "string", "format": "uri"},
            "d": {"type": "string", "format": "date"},
            "c": {"type": "string", "oneOf": [{"const": "r", "title": "Red"}, {"const": "g"}]}
        }, "required": ["e", "u", "d", "c"]}});
        let mut input: &[u8] =
            b"not-an-email\nz@example.com\nnot a uri\nhttps://x.test/\n2025-13-45\n2025-12-31\n2\ng\n";
        let mut out = Vec::new();
        let a = answer_with("s", &params, ask(), false, &mut input, &mut out);
        let shown = String::from_utf8(out).unwrap();
        assert_eq!(
            a,
            HumanAnswer::Accept {
                content: json!({"e": "z@example.com", "u": "https://x.test/", "d": "2025-12-31", "c": "g"})
            },
            "{shown}"
        );
        assert!(shown.contains("is not an email address"), "{shown}");
        assert!(shown.contains("is not an absolute URI"), "{shown}");
        assert!(shown.contains("is not a date"), "{shown}");
        assert!(shown.contains("\"2\" is not one of: r, g"), "{shown}");
    }

    #[test]
    fn refusals_and_eof() {
        let mut out = Vec::new();
        let mut input: &[u8] = b":decline\n";
        assert!(matches!(
            answer_with("s", &form(), ask(), false, &mut input, &mut out),
            HumanAnswer::Decline { .. }
        ));
        let mut input: &[u8] = b"";
        assert_eq!(
            answer_with("s", &form(), ask(), false, &mut input, &mut out),
            HumanAnswer::Cancel
        );
    }

    #[test]
    fn accept_defaults_needs_defaults_for_required_fields() {
        let mut out = Vec::new();
        let mut input: &[u8] = b"";
        let a = answer_with(
            "s",
            &form(),
            Policy::chosen(ElicitationMode::AcceptDefaults),
            false,
            &mut input,
            &mut out,
        );
        assert!(matches!(a, HumanAnswer::Decline { .. }));
        let schema =
            json!({"properties": {"n": {"type": "string", "default": "d"}}, "required": ["n"]});
        assert_eq!(defaults_for(&schema), Ok(json!({"n": "d"})));
    }
}
