//! Matchers as written in a suite: checking them when the suite loads (unknown operators,
//! unknown placeholders, regexes that do not compile, operator arguments of the wrong type),
//! and building a matcher that matches a recorded value literally. Evaluation is in `args`.

use regex::RegexBuilder;
use serde_json::{Map, Value};

use super::args::{OPERATORS, PLACEHOLDERS, REGEX_SIZE_LIMIT, regex_error};

/// A matcher for `v` as it is: nested objects still match partially, but no string or key in
/// it means a placeholder or an operator (those are wrapped in `$literal`).
pub fn plain_matcher(v: &Value) -> Value {
    match v {
        Value::String(s) if s.starts_with('<') && s.ends_with('>') => {
            serde_json::json!({ "$literal": v })
        }
        Value::Object(map) if map.keys().any(|k| k.starts_with('$')) => {
            serde_json::json!({ "$literal": v })
        }
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), plain_matcher(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(plain_matcher).collect()),
        other => other.clone(),
    }
}

/// Problems with a matcher as written: `(JSON pointer below the matcher, message)`.
pub fn validate_matcher(matcher: &Value) -> Vec<(String, String)> {
    let mut out = Vec::new();
    check(matcher, String::new(), &mut out);
    out
}

fn check(m: &Value, at: String, out: &mut Vec<(String, String)>) {
    match m {
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                check(item, format!("{at}/{i}"), out);
            }
        }
        Value::Object(map) if map.keys().any(|k| k.starts_with('$')) => {
            check_operator(map, at, out)
        }
        Value::Object(map) => {
            for (k, v) in map {
                check(v, format!("{at}/{}", mcplab_yaml::escape_pointer(k)), out);
            }
        }
        Value::String(s)
            if s.starts_with('<') && s.ends_with('>') && !PLACEHOLDERS.contains(&s.as_str()) =>
        {
            out.push((at, format!("`{s}` is not a type placeholder (known: {}); write {{$literal: \"{s}\"}} for the text itself", PLACEHOLDERS.join(", "))));
        }
        _ => {}
    }
}

fn check_operator(map: &Map<String, Value>, at: String, out: &mut Vec<(String, String)>) {
    let keys: Vec<&str> = map.keys().map(String::as_str).collect();
    let unknown: Vec<&str> = keys
        .iter()
        .copied()
        .filter(|k| !OPERATORS.contains(k))
        .collect();
    if !unknown.is_empty() {
        let plain: Vec<&str> = unknown
            .iter()
            .copied()
            .filter(|k| !k.starts_with('$'))
            .collect();
        let message = if plain.is_empty() {
            format!(
                "unknown matcher operator `{}` (known: {})",
                unknown.join("`, `"),
                OPERATORS.join(", ")
            )
        } else {
            "an operator object takes only its `$` keys; to match a key that starts with `$`, wrap the object in {$literal: …}".to_string()
        };
        return out.push((at, message));
    }
    let approx = keys.contains(&"$approx");
    if keys.len() > 1 && !(approx && keys.len() == 2 && keys.contains(&"$tolerance")) {
        return out.push((
            at,
            format!("one operator per object, found {}", keys.join(", ")),
        ));
    }
    let op = if approx { "$approx" } else { keys[0] };
    let arg = &map[op];
    let inner = format!("{at}/{}", mcplab_yaml::escape_pointer(op));
    match op {
        "$anyOf" | "$contains" => match arg.as_array() {
            Some(items) if !items.is_empty() => check(arg, inner, out),
            _ => out.push((inner, format!("`{op}` takes a non-empty list"))),
        },
        "$regex" => match arg
            .as_str()
            .map(|p| RegexBuilder::new(p).size_limit(REGEX_SIZE_LIMIT).build())
        {
            Some(Ok(_)) => {}
            Some(Err(e)) => out.push((
                inner,
                format!("invalid regular expression: {}", regex_error(&e)),
            )),
            None => out.push((inner, "`$regex` takes a string".into())),
        },
        "$approx" => {
            if !arg.is_number() {
                out.push((inner, "`$approx` takes a number".into()));
            }
            if let Some(t) = map.get("$tolerance")
                && t.as_f64().is_none_or(|t| t < 0.0)
            {
                out.push((
                    format!("{at}/$tolerance"),
                    "`$tolerance` takes a number ≥ 0".into(),
                ));
            }
        }
        "$tolerance" => out.push((at, "`$tolerance` goes with `$approx`".into())),
        "$like" if !arg.is_string() => out.push((inner, "`$like` takes a string".into())),
        "$absent" if arg != &Value::Bool(true) => {
            out.push((inner, "`$absent` takes `true`".into()))
        }
        "$optional" | "$exact" | "$partial" => check(arg, inner, out),
        _ => {}
    }
}
