//! Compiling a server's own JSON Schemas (tool input and output schemas) without ever
//! fetching anything: a `$ref` to an `http(s)` document is valid JSON Schema that the checker
//! cannot resolve, so it is taken as "anything" and reported as not checked; any other
//! unresolvable reference stays an error. Rule sets that validate against tool schemas use
//! [`compile`].

use std::sync::{Arc, Mutex};

use jsonschema::{Retrieve, Uri, Validator};
use serde_json::Value;

/// The remote documents a schema refers to.
#[derive(Debug, Default, Clone)]
pub(crate) struct RemoteRefs(Vec<String>);

impl RemoteRefs {
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// `a, b` for messages.
    pub(crate) fn list(&self) -> String {
        self.0
            .iter()
            .map(|u| format!("`{u}`"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Records remote URIs and answers each with the empty schema instead of fetching it.
struct NeverFetch(Arc<Mutex<Vec<String>>>);

#[derive(Debug, thiserror::Error)]
#[error("`{0}` cannot be resolved: it is not in the schema and mcplab fetches nothing")]
struct Unresolvable(String);

impl Retrieve for NeverFetch {
    fn retrieve(
        &self,
        uri: &Uri<String>,
    ) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
        let text = uri.as_str().to_owned();
        if !matches!(uri.scheme().as_str(), "http" | "https") {
            return Err(Box::new(Unresolvable(text)));
        }
        let mut seen = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if !seen.contains(&text) {
            seen.push(text);
        }
        Ok(Value::Object(Default::default()))
    }
}

/// Compiles `schema` offline: the validator (or why it is not a valid schema) and the remote
/// references left unchecked.
pub(crate) fn compile(schema: &Value) -> (Result<Validator, String>, RemoteRefs) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let compiled = jsonschema::options()
        .with_retriever(NeverFetch(seen.clone()))
        .build(schema)
        .map_err(|e| e.to_string());
    let remote = seen.lock().map(|v| v.clone()).unwrap_or_default();
    (compiled, RemoteRefs(remote))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_remote_ref_is_not_fetched_and_the_rest_is_still_checked() {
        let schema = json!({
            "type": "object",
            "properties": {
                "a": {"$ref": "http://127.0.0.1:9/schema.json"},
                "n": {"type": "integer"}
            }
        });
        let (v, remote) = compile(&schema);
        let v = v.unwrap();
        assert_eq!(remote.list(), "`http://127.0.0.1:9/schema.json`");
        assert!(v.is_valid(&json!({"a": "anything", "n": 1})));
        assert!(!v.is_valid(&json!({"n": "x"})));
        let dangling = json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/missing"}}});
        assert!(compile(&dangling).0.is_err());
    }
}
