//! What an `elicitation/create` form asks for, read the way servers write it: the fields of
//! the requested schema (nested objects flattened into dotted paths), each as one plain type
//! (`anyOf: [T, {"type": "null"}]` — Python's `Optional[T]` — is an optional `T`), the answer
//! made of their defaults, and the check of an answer against the schema with the spec's
//! string formats (`email`, `uri`, `date`, `date-time`: 2025-11-25 `StringSchema.format`)
//! enforced. The one implementation of "accept with defaults": the CLI, chat and evals answer
//! the same form the same way (`tests/vectors/elicitation_defaults.json` pins it). Reads JSON
//! only; asks nobody.

use serde_json::{Map, Value};

/// One field to fill: its path (nested objects give several parts), its schema as a plain
/// type (see [`plain`]) and whether an answer is needed.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    pub path: Vec<String>,
    pub prop: Value,
    pub required: bool,
}

/// The fields of an object schema, nested objects flattened into dotted paths.
pub fn fields(schema: &Value) -> Vec<Field> {
    let mut out = Vec::new();
    collect_fields(schema, &mut Vec::new(), true, &mut out);
    out
}

fn collect_fields(schema: &Value, prefix: &mut Vec<String>, needed: bool, out: &mut Vec<Field>) {
    let required = required(schema);
    let props = schema.get("properties").and_then(Value::as_object);
    for (name, prop) in props.into_iter().flatten() {
        let prop = plain(prop);
        let is_required = needed && required.contains(name);
        prefix.push(name.clone());
        if prop.get("type").and_then(Value::as_str) == Some("object")
            && prop.get("properties").is_some()
        {
            collect_fields(&prop, prefix, is_required, out);
        } else {
            out.push(Field {
                path: prefix.clone(),
                prop,
                required: is_required,
            });
        }
        prefix.pop();
    }
}

/// A property as one plain type: `anyOf`/`oneOf` of `T` and `{"type": "null"}` is `T` with the
/// outer title, description and a non-null default; `"type": [T, "null"]` is `T`. Anything
/// else is returned as it is.
pub fn plain(prop: &Value) -> Value {
    let mut p = prop.clone();
    let Some(obj) = p.as_object_mut() else {
        return p;
    };
    if let Some(Value::Array(types)) = obj.get("type") {
        let real: Vec<&Value> = types
            .iter()
            .filter(|t| t.as_str() != Some("null"))
            .collect();
        if let [one] = real.as_slice() {
            let one = (*one).clone();
            obj.insert("type".into(), one);
        }
    }
    for key in ["anyOf", "oneOf"] {
        let Some(Value::Array(branches)) = obj.get(key) else {
            continue;
        };
        let is_null = |b: &Value| b.get("type").and_then(Value::as_str) == Some("null");
        if !branches.iter().any(is_null) {
            continue;
        }
        let rest: Vec<Value> = branches.iter().filter(|b| !is_null(b)).cloned().collect();
        obj.remove(key);
        match rest.as_slice() {
            [Value::Object(one)] => {
                for (k, v) in one {
                    obj.entry(k.clone()).or_insert_with(|| v.clone());
                }
            }
            _ => {
                obj.insert(key.into(), Value::Array(rest));
            }
        }
    }
    if obj.get("default") == Some(&Value::Null) {
        obj.remove("default");
    }
    p
}

/// Puts `value` at `path` inside `content`, creating the nested objects on the way.
pub fn put(content: &mut Map<String, Value>, path: &[String], value: Value) {
    let Some((last, parents)) = path.split_last() else {
        return;
    };
    let mut at = content;
    for p in parents {
        let slot = at
            .entry(p.clone())
            .or_insert_with(|| Value::Object(Map::new()));
        if !slot.is_object() {
            *slot = Value::Object(Map::new());
        }
        let Value::Object(next) = slot else {
            return;
        };
        at = next;
    }
    at.insert(last.clone(), value);
}

/// The answer made of each field's (non-null) `default`; `Err` lists the required fields
/// without one (dotted paths), so the form is declined rather than answered with a guess.
pub fn defaults_for(schema: &Value) -> Result<Value, Vec<String>> {
    let mut content = Map::new();
    let mut missing = Vec::new();
    for f in fields(schema) {
        match f.prop.get("default") {
            Some(d) => put(&mut content, &f.path, d.clone()),
            None if f.required => missing.push(f.path.join(".")),
            None => {}
        }
    }
    if missing.is_empty() {
        Ok(Value::Object(content))
    } else {
        Err(missing)
    }
}

fn required(schema: &Value) -> Vec<String> {
    schema
        .get("required")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// Validates `value` against `schema` (JSON Schema, string `format`s enforced), returning the
/// first problem in words.
pub fn check(schema: &Value, value: &Value) -> Result<(), String> {
    if schema.is_null() {
        return Ok(());
    }
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(schema)
        .map_err(|e| format!("invalid schema: {e}"))?;
    match validator.iter_errors(value).next() {
        None => Ok(()),
        Some(e) => Err(explain(&e)),
    }
}

/// A validator error as a person reads it: a failed `format` names what was expected.
fn explain(e: &jsonschema::ValidationError<'_>) -> String {
    if let jsonschema::error::ValidationErrorKind::Format { format } = e.kind() {
        let what = match format.as_str() {
            "email" => "an email address (name@example.com)",
            "uri" => "an absolute URI (https://example.com/…)",
            "date" => "a date (YYYY-MM-DD)",
            "date-time" => "a date and time (YYYY-MM-DDTHH:MM:SSZ)",
            other => return format!("{} is not a valid {other}", e.instance()),
        };
        return format!("{} is not {what}", e.instance());
    }
    e.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn formats_of_the_spec_are_checked() {
        let schema = json!({"type": "object", "properties": {
            "e": {"type": "string", "format": "email"},
            "u": {"type": "string", "format": "uri"},
            "d": {"type": "string", "format": "date"},
            "t": {"type": "string", "format": "date-time"}}});
        let good = json!({"e": "a@example.com", "u": "https://example.com/x",
            "d": "2025-12-31", "t": "2025-12-31T10:00:00Z"});
        assert_eq!(check(&schema, &good), Ok(()));
        for (field, bad, says) in [
            ("e", "not-an-email", "email address"),
            ("u", "not a uri", "absolute URI"),
            ("d", "2025-13-45", "a date"),
            ("t", "yesterday", "date and time"),
        ] {
            let mut v = good.clone();
            v[field] = json!(bad);
            let e = check(&schema, &v).unwrap_err();
            assert!(e.contains(says) && e.contains(bad), "{field}: {e}");
        }
    }

    /// The shared vectors: every implementation of "accept with defaults" answers these.
    #[test]
    fn defaults_follow_the_shared_vectors() {
        let vectors: Value = serde_json::from_str(include_str!(
            "../../../tests/vectors/elicitation_defaults.json"
        ))
        .unwrap();
        for case in vectors["cases"].as_array().unwrap() {
            let got = match defaults_for(&case["requestedSchema"]) {
                Ok(content) => json!({"accept": content}),
                Err(missing) => json!({"decline": missing}),
            };
            assert_eq!(got, case["expect"], "{}", case["name"]);
        }
    }
}
