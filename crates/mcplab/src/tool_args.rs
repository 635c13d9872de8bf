//! `-a key=value` arguments typed by a JSON Schema: numbers, booleans, arrays and objects
//! become JSON of the schema's type, strings stay strings, and dotted keys nest
//! (`-a customer.name=Ada`). Without a schema type the value is taken as JSON if it parses.

use serde_json::{Map, Value};

use crate::failure::Failure;

/// Builds an arguments object from `--args` JSON plus `-a` pairs (pairs win).
pub fn build(
    json: Option<&str>,
    pairs: &[String],
    schema: Option<&Value>,
) -> Result<Value, Failure> {
    let mut obj = match json {
        Some(text) => match serde_json::from_str::<Value>(text) {
            Ok(Value::Object(m)) => m,
            Ok(_) => {
                return Err(Failure::usage(
                    "--args must be a JSON object, e.g. --args '{\"a\": 1}'",
                ));
            }
            Err(e) => return Err(Failure::usage(format!("--args is not valid JSON: {e}"))),
        },
        None => Map::new(),
    };
    for pair in pairs {
        let (key, raw) = pair
            .split_once('=')
            .filter(|(k, _)| !k.is_empty())
            .ok_or_else(|| Failure::usage(format!("-a expects KEY=VALUE, got `{pair}`")))?;
        let path: Vec<&str> = key.split('.').collect();
        let prop = schema.and_then(|s| property_at(s, &path));
        let value = typed(raw, prop).map_err(|e| Failure::usage(format!("-a {key}: {e}")))?;
        insert(&mut obj, &path, value).map_err(|e| Failure::usage(format!("-a {key}: {e}")))?;
    }
    Ok(Value::Object(obj))
}

fn property_at<'a>(schema: &'a Value, path: &[&str]) -> Option<&'a Value> {
    let mut cur = schema;
    for seg in path {
        cur = cur.get("properties")?.get(*seg)?;
    }
    Some(cur)
}

fn type_of(prop: &Value) -> Option<&str> {
    match prop.get("type") {
        Some(Value::String(s)) => Some(s),
        // ["string", "null"] and the like: the first non-null type.
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).find(|t| *t != "null"),
        _ => None,
    }
}

fn typed(raw: &str, prop: Option<&Value>) -> Result<Value, String> {
    match prop.and_then(type_of) {
        Some("string") => Ok(Value::String(raw.to_owned())),
        Some("integer") => raw
            .trim()
            .parse::<i64>()
            .map(Value::from)
            .map_err(|_| format!("`{raw}` is not an integer")),
        Some("number") => raw
            .trim()
            .parse::<f64>()
            .ok()
            .and_then(|f| {
                if f.fract() == 0.0 && f.abs() < 9e15 {
                    Some(Value::from(f as i64))
                } else {
                    serde_json::Number::from_f64(f).map(Value::Number)
                }
            })
            .ok_or_else(|| format!("`{raw}` is not a number")),
        Some("boolean") => match raw.trim() {
            "true" | "yes" | "1" => Ok(Value::Bool(true)),
            "false" | "no" | "0" => Ok(Value::Bool(false)),
            _ => Err(format!("`{raw}` is not a boolean (true/false)")),
        },
        Some("array") | Some("object") => {
            serde_json::from_str(raw).map_err(|e| format!("expected JSON for this field: {e}"))
        }
        Some("null") => Ok(Value::Null),
        _ => Ok(serde_json::from_str(raw).unwrap_or_else(|_| Value::String(raw.to_owned()))),
    }
}

fn insert(obj: &mut Map<String, Value>, path: &[&str], value: Value) -> Result<(), String> {
    let (last, parents) = path.split_last().ok_or("empty key")?;
    let mut cur = obj;
    for seg in parents {
        let entry = cur
            .entry((*seg).to_owned())
            .or_insert_with(|| Value::Object(Map::new()));
        cur = entry
            .as_object_mut()
            .ok_or_else(|| format!("`{seg}` is already set to a non-object value"))?;
    }
    cur.insert((*last).to_owned(), value);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn pairs_are_typed_by_schema_and_nest() {
        let schema = json!({"type": "object", "properties": {
            "n": {"type": "integer"}, "x": {"type": "number"}, "b": {"type": "boolean"},
            "s": {"type": "string"}, "tags": {"type": "array"},
            "customer": {"type": "object", "properties": {"name": {"type": "string"}}}
        }});
        let pairs: Vec<String> = [
            "n=3",
            "x=2.5",
            "b=true",
            "s=42",
            "tags=[\"a\"]",
            "customer.name=7",
            "free=1",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let v = build(Some("{\"n\": 1, \"keep\": true}"), &pairs, Some(&schema)).unwrap();
        assert_eq!(
            v,
            json!({"n": 3, "x": 2.5, "b": true, "s": "42", "tags": ["a"],
            "customer": {"name": "7"}, "free": 1, "keep": true})
        );
    }

    #[test]
    fn bad_values_are_usage_errors() {
        let schema = json!({"properties": {"n": {"type": "integer"}}});
        assert!(build(None, &["n=abc".into()], Some(&schema)).is_err());
        assert!(build(None, &["noequals".into()], None).is_err());
        assert!(build(Some("[1]"), &[], None).is_err());
    }
}
