//! One elicitation form field at the terminal: how its prompt describes it (type, choices,
//! bounds, default) and how the text typed for it becomes a value it allows. It reads no
//! input and writes no output.

use mcplab_core::agent::elicitation_form::check;
use serde_json::Value;

/// `value` if the field takes it: one of its choices, valid against its schema (`format`s
/// included: a bad email is asked again rather than sent for the server to refuse).
pub(super) fn allowed(prop: &Value, value: Value) -> Result<Value, String> {
    let options = choices(prop);
    if !options.is_empty() && !options.iter().any(|(v, _)| *v == value) {
        let list: Vec<String> = options.iter().map(|(v, _)| plain(v)).collect();
        return Err(format!("{value} is not one of: {}", list.join(", ")));
    }
    check(prop, &value).map(|()| value)
}

/// Allowed values of an enum field: `enum`, or `oneOf`/`anyOf` of `{const, title}`.
fn choices(prop: &Value) -> Vec<(Value, Option<String>)> {
    if let Some(e) = prop.get("enum").and_then(Value::as_array) {
        let names = prop.get("enumNames").and_then(Value::as_array);
        return e
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let title = names
                    .and_then(|n| n.get(i))
                    .and_then(Value::as_str)
                    .map(str::to_owned);
                (v.clone(), title)
            })
            .collect();
    }
    for key in ["oneOf", "anyOf"] {
        if let Some(options) = prop.get(key).and_then(Value::as_array) {
            return options
                .iter()
                .filter_map(|o| {
                    let title = o.get("title").and_then(Value::as_str).map(str::to_owned);
                    o.get("const").map(|c| (c.clone(), title))
                })
                .collect();
        }
    }
    Vec::new()
}

/// The prompt for field `name`: its title, type, whether it is required, its choices and
/// bounds, description and default.
pub(super) fn describe_field(name: &str, prop: &Value, required: bool) -> String {
    let title = prop.get("title").and_then(Value::as_str).unwrap_or(name);
    let mut s = title.to_owned();
    let ty = prop.get("type").and_then(Value::as_str).unwrap_or("string");
    let mut notes = vec![ty.to_owned()];
    if required {
        notes.push("required".into());
    }
    let opts = choices(prop);
    if !opts.is_empty() {
        let list: Vec<String> = opts
            .iter()
            .map(|(v, t)| {
                let raw = plain(v);
                match t {
                    Some(t) if t != &raw => format!("{raw} ({t})"),
                    _ => raw,
                }
            })
            .collect();
        notes.push(format!("one of: {}", list.join(", ")));
    }
    if let Some(items) = prop.get("items") {
        let opts = choices(items);
        if !opts.is_empty() {
            let list: Vec<String> = opts
                .iter()
                .map(|(v, _)| v.as_str().unwrap_or("?").to_owned())
                .collect();
            notes.push(format!("comma-separated from: {}", list.join(", ")));
        }
    }
    for (k, label) in [
        ("minimum", "min"),
        ("maximum", "max"),
        ("minLength", "min length"),
        ("maxLength", "max length"),
        ("format", "format"),
    ] {
        if let Some(v) = prop.get(k) {
            notes.push(format!("{label} {}", plain(v)));
        }
    }
    s.push_str(&format!(" ({})", notes.join(", ")));
    if let Some(d) = prop.get("description").and_then(Value::as_str) {
        s.push_str(&format!(" - {d}"));
    }
    if let Some(d) = prop.get("default") {
        s.push_str(&format!(" [{}]", plain(d)));
    }
    s
}

/// Converts typed text to the field's JSON type.
pub(super) fn parse_field(text: &str, prop: &Value) -> Result<Value, String> {
    match prop.get("type").and_then(Value::as_str).unwrap_or("string") {
        "boolean" => match text.to_ascii_lowercase().as_str() {
            "y" | "yes" | "true" | "1" => Ok(Value::Bool(true)),
            "n" | "no" | "false" | "0" => Ok(Value::Bool(false)),
            _ => Err("please answer yes or no".into()),
        },
        "integer" => text
            .parse::<i64>()
            .map(Value::from)
            .map_err(|_| "please enter a whole number".into()),
        "number" => text
            .parse::<f64>()
            .ok()
            .and_then(|f| serde_json::Number::from_f64(f).map(Value::Number))
            .ok_or_else(|| "please enter a number".into()),
        "array" if text.trim_start().starts_with('[') => {
            serde_json::from_str(text).map_err(|e| format!("not a JSON array: {e}"))
        }
        "array" => Ok(Value::Array(
            text.split(',')
                .map(|s| Value::String(s.trim().to_owned()))
                .filter(|v| v.as_str() != Some(""))
                .collect(),
        )),
        // Shapes outside the spec's flat fields (an object without properties, a union):
        // the answer is typed as JSON.
        "object" => serde_json::from_str(text).map_err(|e| format!("not a JSON object: {e}")),
        _ if prop.get("anyOf").is_some() || prop.get("oneOf").is_some() => {
            if choices(prop).is_empty() {
                Ok(serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.to_owned())))
            } else {
                Ok(Value::String(text.to_owned()))
            }
        }
        _ => Ok(Value::String(text.to_owned())),
    }
}

/// A string as it is, any other value as JSON.
fn plain(v: &Value) -> String {
    v.as_str().map_or_else(|| v.to_string(), str::to_owned)
}
