//! Inputs from a tool's inputSchema, the same for the same seed: a valid base object (every
//! required property from its schema: enum, const, default, bounds, format), then one
//! mutation of one property per input, in a fixed rotation of kinds — boundaries, wrong
//! types, huge strings, Unicode and injection strings, missing required and extra fields.
//! The first input is the base itself. Local `$ref`s are followed; nothing is fetched.

use serde_json::{Map, Value, json};

/// splitmix64: small, fast, and the same on every platform and version.
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Self {
        Self(seed)
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub(crate) fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }
}

/// A stable hash of a tool's name (FNV-1a), so each tool's inputs do not depend on the others.
pub(crate) fn name_seed(seed: u64, name: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in name.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    seed ^ h
}

/// Length of a "huge" string.
pub(crate) const HUGE: usize = 100_000;

const STRINGS: &[&str] = &[
    "",
    "\u{0}",
    "😀👩‍👩‍👧‍👦",
    "\u{202e}gnp.exe",
    "e\u{301}\u{301}\u{301}",
    "\u{200b}\u{feff}",
    "𝕏𝕐ℤ",
    "' OR '1'='1",
    "../../../../etc/passwd",
    "${jndi:ldap://127.0.0.1/x}",
    "\\\"}]}",
    "%s%s%s%n",
    "null",
    "-1",
];

/// One generated input and what was done to it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Input {
    pub arguments: Value,
    pub what: String,
}

/// `n` inputs for a tool.
pub(crate) fn inputs(schema: &Value, seed: u64, n: usize) -> Vec<Input> {
    let base = valid(schema, schema, 0);
    let props: Vec<(String, Value)> = schema
        .get("properties")
        .and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .map(|(k, v)| (k.clone(), resolve(schema, v, 0).clone()))
                .collect()
        })
        .unwrap_or_default();
    let required: Vec<String> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default();
    (0..n)
        .map(|i| {
            let mut rng =
                Rng::new(seed.wrapping_add((i as u64).wrapping_mul(0xD1B5_4A32_D192_ED03)));
            if i == 0 {
                return Input {
                    arguments: base.clone(),
                    what: "a valid input built from the schema".into(),
                };
            }
            mutate(&base, &props, &required, i % 5, &mut rng)
        })
        .collect()
}

fn mutate(
    base: &Value,
    props: &[(String, Value)],
    required: &[String],
    kind: usize,
    rng: &mut Rng,
) -> Input {
    let mut args = base.clone();
    let obj = args.as_object_mut().expect("the base is an object");
    if props.is_empty() || kind == 4 {
        return missing_or_extra(args.clone(), required, rng);
    }
    let (key, schema) = &props[rng.below(props.len())];
    let (value, what) = match kind {
        1 => boundary(schema, rng),
        2 => wrong_type(schema, rng),
        3 => (
            json!("A".repeat(HUGE)),
            format!("a {HUGE}-character string"),
        ),
        _ => {
            let s = STRINGS[rng.below(STRINGS.len())];
            (json!(s), format!("the string {s:?}"))
        }
    };
    obj.insert(key.clone(), value);
    Input {
        arguments: args,
        what: format!("`{key}`: {what}"),
    }
}

fn missing_or_extra(mut args: Value, required: &[String], rng: &mut Rng) -> Input {
    let obj = args.as_object_mut().expect("the base is an object");
    if !required.is_empty() && rng.below(2) == 0 {
        let key = &required[rng.below(required.len())];
        obj.remove(key);
        return Input {
            arguments: args,
            what: format!("required `{key}` left out"),
        };
    }
    obj.insert("__mcplab_extra".into(), json!({"nested": [1, "two", null]}));
    Input {
        arguments: args,
        what: "an extra property `__mcplab_extra`".into(),
    }
}

fn boundary(schema: &Value, rng: &mut Rng) -> (Value, String) {
    let num = |k: &str| schema.get(k).and_then(Value::as_f64);
    match type_of(schema) {
        "integer" | "number" => {
            let mut options = vec![
                json!(0),
                json!(-1),
                json!(i64::MAX),
                json!(i64::MIN),
                json!(1e308),
            ];
            if let Some(min) = num("minimum") {
                options.push(json!(min - 1.0));
            }
            if let Some(max) = num("maximum") {
                options.push(json!(max + 1.0));
            }
            let v = options.swap_remove(rng.below(options.len()));
            (v.clone(), format!("the boundary number {v}"))
        }
        "array" => {
            let n = schema
                .get("maxItems")
                .and_then(Value::as_u64)
                .map_or(1000, |m| m + 1) as usize;
            let item = valid(schema, schema.get("items").unwrap_or(&Value::Null), 1);
            (
                Value::Array(vec![item; n.min(10_000)]),
                format!("an array of {n} items"),
            )
        }
        _ => {
            let max = schema.get("maxLength").and_then(Value::as_u64);
            match max {
                Some(m) if rng.below(2) == 0 => (
                    json!("x".repeat(m as usize + 1)),
                    format!("a string of maxLength+1 ({})", m + 1),
                ),
                _ => (json!(""), "the empty string".into()),
            }
        }
    }
}

fn wrong_type(schema: &Value, rng: &mut Rng) -> (Value, String) {
    let options: Vec<(Value, &str)> = match type_of(schema) {
        "string" => vec![
            (json!(42), "a number"),
            (json!({"a": 1}), "an object"),
            (Value::Null, "null"),
        ],
        "integer" | "number" => vec![
            (json!("12"), "a string"),
            (json!(1.5), "a fraction"),
            (json!([1]), "an array"),
        ],
        "boolean" => vec![(json!("true"), "a string"), (json!(1), "a number")],
        "array" => vec![(json!("a,b"), "a string"), (json!({"0": "a"}), "an object")],
        "object" => vec![(json!("{}"), "a string"), (json!([]), "an array")],
        _ => vec![
            (json!({"unexpected": true}), "an object"),
            (Value::Null, "null"),
        ],
    };
    let (v, what) = options[rng.below(options.len())].clone();
    (
        v,
        format!("{what} where the schema says {}", type_of(schema)),
    )
}

fn type_of(schema: &Value) -> &str {
    match schema.get("type") {
        Some(Value::String(t)) => t,
        Some(Value::Array(a)) => a
            .iter()
            .filter_map(Value::as_str)
            .find(|t| *t != "null")
            .unwrap_or("null"),
        _ if schema.get("properties").is_some() => "object",
        _ => "any",
    }
}

/// A local `$ref` (`#/...`) followed; anything else as is.
fn resolve<'a>(root: &'a Value, schema: &'a Value, depth: usize) -> &'a Value {
    match schema.get("$ref").and_then(Value::as_str) {
        Some(r) if depth < 8 && r.starts_with('#') => root
            .pointer(&r[1..])
            .map_or(schema, |s| resolve(root, s, depth + 1)),
        _ => schema,
    }
}

/// A value the schema accepts (as far as a simple reading tells).
fn valid(root: &Value, schema: &Value, depth: usize) -> Value {
    let schema = resolve(root, schema, 0);
    if let Some(v) = schema.get("const").or_else(|| schema.get("default")) {
        return v.clone();
    }
    if let Some(first) = schema
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|e| e.first())
    {
        return first.clone();
    }
    if let Some(first) = ["anyOf", "oneOf", "allOf"]
        .iter()
        .find_map(|k| schema.get(*k)?.as_array()?.first())
    {
        return valid(root, first, depth + 1);
    }
    let num = |k: &str| schema.get(k).and_then(Value::as_f64);
    match type_of(schema) {
        "string" => json!(match schema.get("format").and_then(Value::as_str) {
            Some("date-time") => "2026-01-01T00:00:00Z".to_owned(),
            Some("date") => "2026-01-01".to_owned(),
            Some("email") => "a@example.com".to_owned(),
            Some("uri" | "url") => "https://example.com/".to_owned(),
            Some("uuid") => "00000000-0000-4000-8000-000000000000".to_owned(),
            _ => "a".repeat(
                schema
                    .get("minLength")
                    .and_then(Value::as_u64)
                    .unwrap_or(1)
                    .max(1) as usize
            ),
        }),
        "integer" => json!(num("minimum").map_or(1, |m| m.ceil() as i64)),
        "number" => json!(num("minimum").unwrap_or(1.0)),
        "boolean" => json!(true),
        "null" => Value::Null,
        "array" if depth < 4 => {
            let n = schema.get("minItems").and_then(Value::as_u64).unwrap_or(1) as usize;
            let item = valid(root, schema.get("items").unwrap_or(&Value::Null), depth + 1);
            Value::Array(vec![item; n.clamp(1, 10)])
        }
        "object" if depth < 4 => {
            let mut m = Map::new();
            let props = schema.get("properties").and_then(Value::as_object);
            let required = schema.get("required").and_then(Value::as_array);
            for key in required.into_iter().flatten().filter_map(Value::as_str) {
                let s = props.and_then(|p| p.get(key)).unwrap_or(&Value::Null);
                m.insert(key.to_owned(), valid(root, s, depth + 1));
            }
            Value::Object(m)
        }
        "array" => json!([]),
        "object" => json!({}),
        _ => json!("a"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schema() -> Value {
        json!({"type": "object", "properties": {
            "q": {"type": "string", "maxLength": 5},
            "n": {"type": "integer", "minimum": 1, "maximum": 10},
            "kind": {"$ref": "#/$defs/kind"}
        }, "required": ["q", "kind"], "$defs": {"kind": {"enum": ["a", "b"]}}})
    }

    #[test]
    fn the_first_input_is_valid_and_the_same_seed_gives_the_same_inputs() {
        let a = inputs(&schema(), 7, 30);
        assert_eq!(a[0].arguments, json!({"q": "a", "kind": "a"}));
        assert_eq!(a, inputs(&schema(), 7, 30));
        assert_ne!(a, inputs(&schema(), 8, 30));
        assert!(
            a.iter().all(|i| i.arguments.is_object()),
            "arguments stay an object"
        );
        let kinds: Vec<&str> = a.iter().map(|i| i.what.as_str()).collect();
        assert!(
            kinds.iter().any(|w| w.contains("100000-character")),
            "{kinds:?}"
        );
        assert!(
            kinds.iter().any(|w| w.contains("where the schema says")),
            "{kinds:?}"
        );
        assert!(
            kinds
                .iter()
                .any(|w| w.contains("left out") || w.contains("extra")),
            "{kinds:?}"
        );
    }

    #[test]
    fn a_schema_without_properties_still_gets_inputs() {
        let a = inputs(&json!({"type": "object"}), 1, 3);
        assert_eq!(a.len(), 3);
        assert_eq!(a[0].arguments, json!({}));
    }
}
