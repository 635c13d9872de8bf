//! The official JSON Schemas of the MCP revisions mcplab speaks (vendored from the
//! specification repository, `schema/<rev>/schema.json`), compiled on demand per definition,
//! and the spec sections findings point to. Pure: no I/O beyond the embedded files.

use std::collections::HashMap;

use serde_json::Value;

const SCHEMAS: &[(&str, &str)] = &[
    ("2024-11-05", include_str!("schema/2024-11-05.json")),
    ("2025-03-26", include_str!("schema/2025-03-26.json")),
    ("2025-06-18", include_str!("schema/2025-06-18.json")),
    ("2025-11-25", include_str!("schema/2025-11-25.json")),
    ("2026-07-28", include_str!("schema/2026-07-28.json")),
];

/// One revision's schema with its compiled definitions.
pub struct Spec {
    pub revision: String,
    root: Value,
    /// `$defs` (2020-12) or `definitions` (draft-07, older revisions).
    defs_key: &'static str,
    compiled: HashMap<String, Option<jsonschema::Validator>>,
}

/// One way a message breaks its definition.
pub struct Violation {
    pub path: String,
    pub message: String,
}

impl Spec {
    /// The schema of `revision`, or `None` for a revision mcplab has no schema of.
    pub fn load(revision: &str) -> Option<Self> {
        let (_, text) = SCHEMAS.iter().find(|(r, _)| *r == revision)?;
        let root: Value = serde_json::from_str(text).ok()?;
        let defs_key = if root.get("$defs").is_some() {
            "$defs"
        } else {
            "definitions"
        };
        Some(Self {
            revision: revision.to_owned(),
            root,
            defs_key,
            compiled: HashMap::new(),
        })
    }

    /// Whether the revision defines `name` (e.g. `ListToolsResult`).
    pub fn has(&self, name: &str) -> bool {
        self.root
            .get(self.defs_key)
            .and_then(|d| d.get(name))
            .is_some()
    }

    /// Validates `instance` against the definition `name`; at most `limit` violations.
    /// A definition the revision lacks validates nothing.
    pub fn violations(&mut self, name: &str, instance: &Value, limit: usize) -> Vec<Violation> {
        if !self.compiled.contains_key(name) {
            let validator = self.has(name).then(|| self.compile(name)).flatten();
            self.compiled.insert(name.to_owned(), validator);
        }
        let Some(Some(validator)) = self.compiled.get(name) else {
            return Vec::new();
        };
        validator
            .iter_errors(instance)
            .take(limit)
            .map(|e| Violation {
                path: e.instance_path().to_string(),
                message: e.to_string(),
            })
            .collect()
    }

    fn compile(&self, name: &str) -> Option<jsonschema::Validator> {
        let mut schema = self.root.clone();
        let obj = schema.as_object_mut()?;
        obj.insert(
            "$ref".into(),
            Value::String(format!("#/{}/{name}", self.defs_key)),
        );
        jsonschema::validator_for(&schema).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_revision_loads_and_validates() {
        for (rev, _) in SCHEMAS {
            let mut spec = Spec::load(rev).unwrap();
            assert!(spec.has("ListToolsResult"), "{rev}");
            let mut good = json!({"tools": [{"name": "a", "inputSchema": {"type": "object"}}]});
            if *rev == "2026-07-28" {
                // Lists are cacheable results there: the hints and the result type are required.
                good["resultType"] = json!("complete");
                good["ttlMs"] = json!(0);
                good["cacheScope"] = json!("private");
            }
            assert!(
                spec.violations("ListToolsResult", &good, 5).is_empty(),
                "{rev}"
            );
            let bad = json!({"tools": [{"inputSchema": {"type": "object"}}]});
            assert!(
                !spec.violations("ListToolsResult", &bad, 5).is_empty(),
                "{rev}"
            );
        }
        assert!(Spec::load("2099-01-01").is_none());
    }
}
