//! Writing a JSON value as block-style YAML (suites written by import and authoring), with the
//! engine that reads them.

use serde_json::Value;
use yaml_rust2::{Yaml, YamlEmitter};

/// A JSON value as a block-style YAML document (no `---` line, no trailing newline).
pub fn to_yaml(value: &Value) -> String {
    let mut body = String::new();
    let mut emitter = YamlEmitter::new(&mut body);
    emitter.multiline_strings(true);
    // Emitting into a String cannot fail but for a formatter error, which we would surface as
    // an empty document that then fails to load.
    let _ = emitter.dump(&yaml_value(value));
    body.strip_prefix("---\n").unwrap_or(&body).to_string()
}

fn yaml_value(v: &Value) -> Yaml {
    match v {
        Value::Null => Yaml::Null,
        Value::Bool(b) => Yaml::Boolean(*b),
        Value::Number(n) => match n.as_i64() {
            Some(i) => Yaml::Integer(i),
            None => Yaml::Real(n.to_string()),
        },
        Value::String(s) => Yaml::String(s.clone()),
        Value::Array(items) => Yaml::Array(items.iter().map(yaml_value).collect()),
        Value::Object(map) => {
            let mut hash = yaml_rust2::yaml::Hash::new();
            for (k, v) in map {
                hash.insert(Yaml::String(k.clone()), yaml_value(v));
            }
            Yaml::Hash(hash)
        }
    }
}
