//! `-a key=value` arguments typed by a JSON Schema: numbers, booleans, arrays and objects
//! become JSON of the schema's type, strings stay strings, and dotted keys nest
//! (`-a customer.name=Ada`). The property a dotted key names is found through local `$ref`s,
//! `allOf`, and `oneOf`/`anyOf` branches: the branch whose discriminator `const` matches the
//! values given (`-a payment.kind=card`), else the branches that have the property, typed when
//! they agree. Without a schema type the value is taken as JSON if it parses; a union of
//! types takes the JSON value when its type is allowed, else the text.

mod schema_path;

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
    let mut split = Vec::new();
    for pair in pairs {
        let (key, raw) = pair
            .split_once('=')
            .filter(|(k, _)| !k.is_empty())
            .ok_or_else(|| Failure::usage(format!("-a expects KEY=VALUE, got `{pair}`")))?;
        split.push((key, raw));
    }
    // Every value given, loosely typed: what picks a union's branch (`kind=card` may come
    // after `number=…`).
    let mut given = obj.clone();
    for (key, raw) in &split {
        let path: Vec<&str> = key.split('.').collect();
        let _ = insert(&mut given, &path, loose(raw));
    }
    for (key, raw) in split {
        let path: Vec<&str> = key.split('.').collect();
        let prop = schema.and_then(|s| schema_path::property_at(s, &path, &given));
        let value =
            typed(raw, prop.as_ref()).map_err(|e| Failure::usage(format!("-a {key}: {e}")))?;
        insert(&mut obj, &path, value).map_err(|e| Failure::usage(format!("-a {key}: {e}")))?;
    }
    Ok(Value::Object(obj))
}

/// A value without a schema: JSON if it parses, else the text.
fn loose(raw: &str) -> Value {
    serde_json::from_str(raw).unwrap_or_else(|_| Value::String(raw.to_owned()))
}

/// The non-null types a property allows (`type` as a string or a list, or the branches of a
/// union of plain types).
fn types_of(prop: &Value) -> Vec<&str> {
    match prop.get("type") {
        Some(Value::String(s)) => vec![s.as_str()],
        Some(Value::Array(a)) => a
            .iter()
            .filter_map(Value::as_str)
            .filter(|t| *t != "null")
            .collect(),
        _ => ["anyOf", "oneOf"]
            .iter()
            .filter_map(|k| prop.get(*k).and_then(Value::as_array))
            .flatten()
            .flat_map(types_of)
            .collect(),
    }
}

fn typed(raw: &str, prop: Option<&Value>) -> Result<Value, String> {
    let types = prop.map(types_of).unwrap_or_default();
    if types.len() > 1 {
        return Ok(union_value(raw, &types));
    }
    match types.first().copied() {
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

/// A value for a union of types: the JSON value when its type is one of them, else the text
/// when strings are allowed, else the JSON (the server says what is wrong).
fn union_value(raw: &str, types: &[&str]) -> Value {
    let parsed = serde_json::from_str::<Value>(raw).ok();
    let fits = |v: &Value| {
        types.iter().any(|t| match (*t, v) {
            ("integer", Value::Number(n)) => n.is_i64() || n.is_u64(),
            ("number", Value::Number(_)) | ("boolean", Value::Bool(_)) => true,
            ("array", Value::Array(_)) | ("object", Value::Object(_)) => true,
            ("string", Value::String(_)) => true,
            _ => false,
        })
    };
    match parsed {
        Some(v) if fits(&v) => v,
        _ if types.contains(&"string") => Value::String(raw.to_owned()),
        Some(v) => v,
        None => Value::String(raw.to_owned()),
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
    fn union_members_are_typed_by_their_branch() {
        let schema = json!({"type": "object", "properties": {
            "payment": {"oneOf": [
                {"type": "object", "properties": {"kind": {"const": "card"}, "number": {"type": "string"}}},
                {"type": "object", "properties": {"kind": {"const": "invoice"}, "po": {"type": "string"}}}
            ]},
            "contact": {"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]}
        }});
        let pairs: Vec<String> = ["payment.number=4111", "payment.kind=card", "contact=42"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let v = build(None, &pairs, Some(&schema)).unwrap();
        assert_eq!(
            v,
            json!({"payment": {"number": "4111", "kind": "card"}, "contact": 42})
        );
        let v = build(None, &["contact=bob".into()], Some(&schema)).unwrap();
        assert_eq!(v, json!({"contact": "bob"}));
    }

    #[test]
    fn bad_values_are_usage_errors() {
        let schema = json!({"properties": {"n": {"type": "integer"}}});
        assert!(build(None, &["n=abc".into()], Some(&schema)).is_err());
        assert!(build(None, &["noequals".into()], None).is_err());
        assert!(build(Some("[1]"), &[], None).is_err());
    }
}
