//! Compares one era's surface with the baseline's and classifies each difference: removed
//! items and capabilities, and input schema changes that make an old call fail (a new
//! required argument, a removed or renamed one, a narrowed type or enum, optional becoming
//! required) are breaking; output schema changes that drop or retype what clients read are
//! breaking; additions, widenings and text changes are compatible. Schemas are compared by
//! their `properties`, `required`, `type` and `enum`, nested objects included.

use std::collections::BTreeSet;

use mcplab_protocol::check::Surface;
use serde_json::Value;

use super::rules::{ARGUMENT, COMPATIBLE, OUTPUT, REMOVED};
use crate::findings::{At, Findings};
use crate::rule::Rule;

pub(super) fn judge(old: &Surface, new: &Surface, f: &mut Findings) {
    capabilities(&old.capabilities, &new.capabilities, "", f);
    let kinds: [(&str, &str, &[Value], &[Value]); 4] = [
        ("tool", "name", &old.tools, &new.tools),
        ("resource", "uri", &old.resources, &new.resources),
        (
            "resource template",
            "uriTemplate",
            &old.resource_templates,
            &new.resource_templates,
        ),
        ("prompt", "name", &old.prompts, &new.prompts),
    ];
    for (kind, key, before, after) in kinds {
        for o in before {
            let id = o.get(key).and_then(Value::as_str).unwrap_or("?");
            match after.iter().find(|n| n.get(key) == o.get(key)) {
                None => f.add(
                    &REMOVED,
                    format!("{kind} `{id}` was removed"),
                    At::default(),
                ),
                Some(n) => item(kind, id, o, n, f),
            }
        }
        for n in after {
            if !before.iter().any(|o| o.get(key) == n.get(key)) {
                let id = n.get(key).and_then(Value::as_str).unwrap_or("?");
                f.add(&COMPATIBLE, format!("{kind} `{id}` is new"), At::default());
            }
        }
    }
}

/// A capability (or one of its flags) the baseline declared and this surface does not.
fn capabilities(old: &Value, new: &Value, prefix: &str, f: &mut Findings) {
    let Some(old) = old.as_object() else { return };
    for (key, was) in old {
        let name = format!("{prefix}{key}");
        let now = new.get(key);
        match (was, now) {
            (Value::Null | Value::Bool(false), _) => {}
            (_, None | Some(Value::Null) | Some(Value::Bool(false))) => f.add(
                &REMOVED,
                format!("capability `{name}` is no longer declared"),
                At::default(),
            ),
            (Value::Object(_), Some(now)) => capabilities(was, now, &format!("{name}."), f),
            _ => {}
        }
    }
}

/// One item present in both.
fn item(kind: &str, id: &str, old: &Value, new: &Value, f: &mut Findings) {
    let what = format!("{kind} `{id}`");
    match kind {
        "tool" => {
            let (oi, ni) = (old.get("inputSchema"), new.get("inputSchema"));
            schema(&what, "argument", oi, ni, &ARGUMENT, Direction::Input, f);
            let (oo, no) = (old.get("outputSchema"), new.get("outputSchema"));
            match (oo, no) {
                (Some(_), None) => f.add(
                    &OUTPUT,
                    format!("{what} no longer declares an outputSchema (no structuredContent to rely on)"),
                    At::default(),
                ),
                (None, Some(_)) => f.add(
                    &COMPATIBLE,
                    format!("{what} now declares an outputSchema"),
                    At::default(),
                ),
                _ => schema(&what, "output property", oo, no, &OUTPUT, Direction::Output, f),
            }
        }
        "prompt" => prompt_arguments(&what, old, new, f),
        _ => {}
    }
    for field in ["description", "title", "mimeType"] {
        if old.get(field) != new.get(field) {
            f.add(
                &COMPATIBLE,
                format!("{what}: its {field} changed"),
                At::default(),
            );
        }
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Direction {
    /// Clients send it: narrowing breaks.
    Input,
    /// Clients read it: removing or retyping breaks.
    Output,
}

/// Compares two object schemas' properties (recursively), reporting under `rule`.
fn schema(
    what: &str,
    noun: &str,
    old: Option<&Value>,
    new: Option<&Value>,
    rule: &Rule,
    dir: Direction,
    f: &mut Findings,
) {
    let (Some(old), Some(new)) = (old, new) else {
        return;
    };
    let props = |s: &Value| s.get("properties").and_then(Value::as_object).cloned();
    let required = |s: &Value| -> BTreeSet<String> {
        s.get("required")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default()
    };
    let (op, np) = (
        props(old).unwrap_or_default(),
        props(new).unwrap_or_default(),
    );
    let (or, nr) = (required(old), required(new));
    let added: Vec<&String> = np.keys().filter(|k| !op.contains_key(*k)).collect();
    for (name, o) in &op {
        let Some(n) = np.get(name) else {
            let renamed = if added.is_empty() {
                String::new()
            } else {
                format!(" (renamed to {}?)", quoted(&added))
            };
            f.add(
                rule,
                format!("{what}: {noun} `{name}` was removed{renamed}"),
                At::default(),
            );
            continue;
        };
        if dir == Direction::Input && !or.contains(name) && nr.contains(name) {
            f.add(
                rule,
                format!("{what}: {noun} `{name}` became required"),
                At::default(),
            );
        }
        if dir == Direction::Output && or.contains(name) && !nr.contains(name) {
            f.add(
                rule,
                format!("{what}: {noun} `{name}` may now be missing"),
                At::default(),
            );
        }
        narrowed(what, noun, name, o, n, rule, f);
        let nested = format!("{noun} `{name}` →");
        if o.get("properties").is_some() {
            schema(what, &nested, Some(o), Some(n), rule, dir, f);
        }
    }
    for name in added {
        if dir == Direction::Input && nr.contains(name) {
            f.add(
                rule,
                format!("{what}: new required {noun} `{name}`"),
                At::default(),
            );
        } else {
            f.add(
                &COMPATIBLE,
                format!("{what}: new {noun} `{name}`"),
                At::default(),
            );
        }
    }
}

/// A type or enum that accepts less than before (input) or means something else (output).
fn narrowed(
    what: &str,
    noun: &str,
    name: &str,
    old: &Value,
    new: &Value,
    rule: &Rule,
    f: &mut Findings,
) {
    let types = |s: &Value| -> BTreeSet<String> {
        match s.get("type") {
            Some(Value::String(t)) => [t.clone()].into(),
            Some(Value::Array(a)) => a
                .iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect(),
            _ => BTreeSet::new(),
        }
    };
    let (ot, nt) = (types(old), types(new));
    // `integer` is within `number`: widening it is compatible.
    let covered = |t: &String| nt.contains(t) || (t == "integer" && nt.contains("number"));
    if !ot.is_empty() && !nt.is_empty() && !ot.iter().all(covered) {
        f.add(
            rule,
            format!(
                "{what}: {noun} `{name}` changed type from {} to {}",
                list(&ot),
                list(&nt)
            ),
            At::default(),
        );
    }
    let values = |s: &Value| s.get("enum").and_then(Value::as_array).cloned();
    if let (Some(oe), Some(ne)) = (values(old), values(new)) {
        let gone: Vec<String> = oe
            .iter()
            .filter(|v| !ne.contains(v))
            .map(Value::to_string)
            .collect();
        if !gone.is_empty() {
            f.add(
                rule,
                format!(
                    "{what}: {noun} `{name}` no longer accepts {}",
                    gone.join(", ")
                ),
                At::default(),
            );
        }
    } else if values(old).is_none() && values(new).is_some() {
        f.add(
            rule,
            format!("{what}: {noun} `{name}` is now limited to an enum"),
            At::default(),
        );
    }
}

fn prompt_arguments(what: &str, old: &Value, new: &Value, f: &mut Findings) {
    let args = |p: &Value| -> Vec<(String, bool)> {
        p.get("arguments")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|a| {
                let name = a.get("name")?.as_str()?.to_owned();
                Some((name, a.get("required") == Some(&Value::Bool(true))))
            })
            .collect()
    };
    let (oa, na) = (args(old), args(new));
    for (name, _) in &oa {
        if !na.iter().any(|(n, _)| n == name) {
            f.add(
                &ARGUMENT,
                format!("{what}: argument `{name}` was removed"),
                At::default(),
            );
        }
    }
    for (name, required) in &na {
        let before = oa.iter().find(|(n, _)| n == name);
        match (before, required) {
            (None, true) => f.add(
                &ARGUMENT,
                format!("{what}: new required argument `{name}`"),
                At::default(),
            ),
            (Some((_, false)), true) => f.add(
                &ARGUMENT,
                format!("{what}: argument `{name}` became required"),
                At::default(),
            ),
            (None, false) => f.add(
                &COMPATIBLE,
                format!("{what}: new argument `{name}`"),
                At::default(),
            ),
            _ => {}
        }
    }
}

fn list(set: &BTreeSet<String>) -> String {
    set.iter().cloned().collect::<Vec<_>>().join("|")
}

fn quoted(names: &[&String]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcplab_protocol::Era;
    use serde_json::json;

    fn surface(tools: Value, caps: Value) -> Surface {
        Surface {
            era: Era::Legacy,
            revision: "2025-11-25".into(),
            capabilities: caps,
            tools: tools.as_array().unwrap().clone(),
            resources: vec![],
            resource_templates: vec![],
            prompts: vec![],
        }
    }

    fn rules_of(old: &Surface, new: &Surface) -> Vec<(String, String)> {
        let mut f = Findings::new(Some("2025-11-25"));
        judge(old, new, &mut f);
        f.finish()
            .into_iter()
            .map(|x| (x.rule, x.message))
            .collect()
    }

    #[test]
    fn breaking_and_compatible_changes_are_told_apart() {
        let old = surface(
            json!([
                {"name": "gone", "inputSchema": {"type": "object"}},
                {"name": "t", "inputSchema": {"type": "object", "properties": {
                    "city": {"type": "string"}, "unit": {"type": "string", "enum": ["c", "f", "k"]},
                    "n": {"type": "integer"}, "old": {"type": "string"}}, "required": ["city"]},
                 "outputSchema": {"type": "object", "properties": {"temp": {"type": "number"}}, "required": ["temp"]}}
            ]),
            json!({"tools": {"listChanged": true}, "prompts": {}}),
        );
        let new = surface(
            json!([
                {"name": "t", "description": "now described", "inputSchema": {"type": "object", "properties": {
                    "city": {"type": "string"}, "unit": {"type": "string", "enum": ["c", "f"]},
                    "n": {"type": "number"}, "fresh": {"type": "string"}, "day": {"type": "string"}},
                    "required": ["city", "day"]},
                 "outputSchema": {"type": "object", "properties": {"temp": {"type": "string"}}}},
                {"name": "added", "inputSchema": {"type": "object"}}
            ]),
            json!({"tools": {}}),
        );
        let found = rules_of(&old, &new);
        let has = |rule: &str, text: &str| found.iter().any(|(r, m)| r == rule && m.contains(text));
        assert!(
            has("baseline-removed", "tool `gone` was removed"),
            "{found:?}"
        );
        assert!(has("baseline-removed", "capability `prompts`"), "{found:?}");
        assert!(
            has("baseline-removed", "capability `tools.listChanged`"),
            "{found:?}"
        );
        assert!(
            has("baseline-argument", "`unit` no longer accepts \"k\""),
            "{found:?}"
        );
        assert!(
            has("baseline-argument", "`old` was removed (renamed to"),
            "{found:?}"
        );
        assert!(
            has("baseline-argument", "new required argument `day`"),
            "{found:?}"
        );
        assert!(
            has(
                "baseline-output",
                "`temp` changed type from number to string"
            ),
            "{found:?}"
        );
        assert!(
            has("baseline-output", "`temp` may now be missing"),
            "{found:?}"
        );
        assert!(
            has("baseline-compatible", "new argument `fresh`"),
            "{found:?}"
        );
        assert!(
            has("baseline-compatible", "tool `added` is new"),
            "{found:?}"
        );
        assert!(
            has("baseline-compatible", "its description changed"),
            "{found:?}"
        );
        assert!(
            !has("baseline-argument", "`n`"),
            "integer → number widens: {found:?}"
        );
        assert!(rules_of(&old, &old).is_empty());
    }
}
