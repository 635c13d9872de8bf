//! The schema of the property a dotted `-a` key names, found the way a validator would: local
//! `$ref`s (`#/$defs/…`, `#/definitions/…`) followed, `allOf` parts merged, and of a
//! `oneOf`/`anyOf` the branches that fit the values given — a branch whose discriminator
//! (`const`, or a one-value `enum`) differs from a given value is left out — and of those the
//! ones that have the property. Several left: their union (the caller types by what they
//! allow). Reads the schema only; never fetches a remote `$ref`.

use serde_json::{Map, Value, json};

/// How deep `$ref`s and nested combinators are followed (a cyclic schema stops here).
const MAX_DEPTH: usize = 16;

/// The schema of `path` inside `root`, given the arguments built so far.
pub fn property_at(root: &Value, path: &[&str], given: &Map<String, Value>) -> Option<Value> {
    let mut cur = root.clone();
    let mut here = Some(Value::Object(given.clone()));
    for seg in path {
        let mut found: Vec<Value> = Vec::new();
        for part in parts(root, &cur, here.as_ref(), 0) {
            if let Some(p) = part.get("properties").and_then(|p| p.get(*seg)) {
                let p = resolve(root, p, 0);
                if !found.contains(&p) {
                    found.push(p);
                }
            }
        }
        cur = match found.len() {
            0 => return None,
            1 => found.pop()?,
            _ => json!({ "anyOf": found }),
        };
        here = here.and_then(|h| h.get(*seg).cloned());
    }
    Some(cur)
}

/// `schema` with a local `$ref` followed (bounded), or itself.
fn resolve(root: &Value, schema: &Value, depth: usize) -> Value {
    let Some(r) = schema.get("$ref").and_then(Value::as_str) else {
        return schema.clone();
    };
    let target = r
        .strip_prefix('#')
        .and_then(|pointer| root.pointer(pointer));
    match target {
        Some(t) if depth < MAX_DEPTH => resolve(root, t, depth + 1),
        _ => schema.clone(),
    }
}

/// The object schemas that make up `schema`: itself, its `allOf` parts, and the `oneOf`/
/// `anyOf` branches that fit `given` (all of them when none fits).
fn parts(root: &Value, schema: &Value, given: Option<&Value>, depth: usize) -> Vec<Value> {
    let schema = resolve(root, schema, depth);
    let mut out = vec![schema.clone()];
    if depth >= MAX_DEPTH {
        return out;
    }
    for all in schema
        .get("allOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        out.extend(parts(root, all, given, depth + 1));
    }
    for key in ["oneOf", "anyOf"] {
        let Some(branches) = schema.get(key).and_then(Value::as_array) else {
            continue;
        };
        let expanded: Vec<Vec<Value>> = branches
            .iter()
            .map(|b| parts(root, b, given, depth + 1))
            .collect();
        let fitting: Vec<&Vec<Value>> = expanded.iter().filter(|b| fits(b, given)).collect();
        if fitting.is_empty() {
            out.extend(expanded.iter().flatten().cloned());
        } else {
            out.extend(fitting.into_iter().flatten().cloned());
        }
    }
    out
}

/// Whether a branch (its parts) agrees with the values given: no discriminator property of
/// it holds another value than the one given.
fn fits(branch: &[Value], given: Option<&Value>) -> bool {
    let Some(Value::Object(given)) = given else {
        return true;
    };
    branch.iter().all(|part| {
        let props = part.get("properties").and_then(Value::as_object);
        props.into_iter().flatten().all(|(name, prop)| {
            let fixed = prop.get("const").or_else(|| {
                prop.get("enum")
                    .and_then(Value::as_array)
                    .filter(|e| e.len() == 1)
                    .and_then(|e| e.first())
            });
            match (fixed, given.get(name)) {
                (Some(want), Some(got)) => same(want, got),
                _ => true,
            }
        })
    })
}

/// A given value equals a discriminator, also when it was typed loosely (`kind=1` for "1").
fn same(want: &Value, got: &Value) -> bool {
    want == got || want.as_str().is_some_and(|w| *got.to_string() == *w)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(schema: &Value, key: &str, given: Value) -> Option<Value> {
        let path: Vec<&str> = key.split('.').collect();
        property_at(schema, &path, given.as_object().unwrap())
    }

    #[test]
    fn a_discriminated_union_is_read_by_its_const() {
        // zod's discriminatedUnion and pydantic's Field(discriminator=…), the latter via $defs.
        let schema = json!({"type": "object", "properties": {"payment": {"oneOf": [
            {"$ref": "#/$defs/Card"},
            {"type": "object", "properties": {"kind": {"const": "invoice"}, "number": {"type": "integer"}}}
        ]}}, "$defs": {"Card": {"type": "object", "properties": {
            "kind": {"const": "card", "type": "string"}, "number": {"type": "string"}}}}});
        let card = json!({"payment": {"kind": "card", "number": 4111}});
        assert_eq!(
            at(&schema, "payment.number", card).unwrap()["type"],
            "string"
        );
        let invoice = json!({"payment": {"kind": "invoice", "number": 7}});
        assert_eq!(
            at(&schema, "payment.number", invoice).unwrap()["type"],
            "integer"
        );
        // No discriminator given: both branches, as a union.
        let both = at(&schema, "payment.number", json!({})).unwrap();
        assert_eq!(both["anyOf"].as_array().unwrap().len(), 2);
    }

    #[test]
    fn the_branch_with_the_property_and_allof_parts_count() {
        let schema = json!({"properties": {"p": {"anyOf": [
            {"type": "object", "properties": {"po": {"type": "string"}}},
            {"type": "null"}
        ]}, "q": {"allOf": [{"properties": {"a": {"type": "boolean"}}}]}}});
        assert_eq!(at(&schema, "p.po", json!({})).unwrap()["type"], "string");
        assert_eq!(at(&schema, "q.a", json!({})).unwrap()["type"], "boolean");
        assert_eq!(at(&schema, "p.nope", json!({})), None);
    }

    #[test]
    fn cyclic_refs_end() {
        let schema = json!({"$defs": {"N": {"$ref": "#/$defs/N"}},
            "properties": {"n": {"$ref": "#/$defs/N"}}});
        assert!(at(&schema, "n.x", json!({})).is_none());
    }
}
