//! The official JSON Schemas of the MCP revisions mcplab speaks (vendored from the
//! specification repository, `schema/<rev>/schema.json`), compiled on demand per definition,
//! and the definition each message's method calls for, read from the schema's own unions
//! (`ClientRequest`, `ServerNotification`, …) so a new revision needs no table here. A remote
//! `$ref` is never fetched. Pure: no I/O beyond the embedded files.

use std::collections::HashMap;

use serde_json::Value;

/// Each revision's schema, minified and gzipped by `build.rs`.
const SCHEMAS: &[(&str, &[u8])] = &[
    (
        "2024-11-05",
        include_bytes!(concat!(env!("OUT_DIR"), "/2024-11-05.json.gz")),
    ),
    (
        "2025-03-26",
        include_bytes!(concat!(env!("OUT_DIR"), "/2025-03-26.json.gz")),
    ),
    (
        "2025-06-18",
        include_bytes!(concat!(env!("OUT_DIR"), "/2025-06-18.json.gz")),
    ),
    (
        "2025-11-25",
        include_bytes!(concat!(env!("OUT_DIR"), "/2025-11-25.json.gz")),
    ),
    (
        "2026-07-28",
        include_bytes!(concat!(env!("OUT_DIR"), "/2026-07-28.json.gz")),
    ),
];

/// Who sent a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Side {
    Client,
    Server,
}

/// What kind of message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Kind {
    Request,
    Notification,
}

/// One revision's schema with its compiled definitions.
pub(crate) struct Spec {
    pub revision: String,
    root: Value,
    /// `$defs` (2020-12) or `definitions` (draft-07, older revisions).
    defs_key: &'static str,
    /// Method → definition name, per sender and kind.
    methods: HashMap<(Side, Kind), HashMap<String, String>>,
    compiled: HashMap<String, Option<jsonschema::Validator>>,
}

/// One way a message breaks its definition.
pub(crate) struct Violation {
    pub path: String,
    pub message: String,
}

impl Spec {
    /// The schema of `revision`, or `None` for a revision mcplab has no schema of.
    pub(crate) fn load(revision: &str) -> Option<Self> {
        let (_, gz) = SCHEMAS.iter().find(|(r, _)| *r == revision)?;
        let root: Value = serde_json::from_reader(flate2::read::GzDecoder::new(*gz)).ok()?;
        let defs_key = if root.get("$defs").is_some() {
            "$defs"
        } else {
            "definitions"
        };
        let mut spec = Self {
            revision: revision.to_owned(),
            root,
            defs_key,
            methods: HashMap::new(),
            compiled: HashMap::new(),
        };
        spec.index_methods();
        Some(spec)
    }

    fn defs(&self) -> Option<&serde_json::Map<String, Value>> {
        self.root.get(self.defs_key)?.as_object()
    }

    /// Reads `ClientRequest`, `ServerRequest`, `ClientNotification` and `ServerNotification`:
    /// each member definition's `method` constant.
    fn index_methods(&mut self) {
        let unions = [
            ("ClientRequest", Side::Client, Kind::Request),
            ("ServerRequest", Side::Server, Kind::Request),
            ("ClientNotification", Side::Client, Kind::Notification),
            ("ServerNotification", Side::Server, Kind::Notification),
        ];
        for (union, side, kind) in unions {
            let mut map = HashMap::new();
            if let Some(def) = self.defs().and_then(|d| d.get(union)) {
                let members: Vec<String> = match def.get("anyOf").and_then(Value::as_array) {
                    Some(refs) => refs
                        .iter()
                        .filter_map(|r| r.get("$ref")?.as_str()?.rsplit('/').next())
                        .map(str::to_owned)
                        .collect(),
                    // A union of one is written as that definition (2026-07-28's client
                    // notifications).
                    None => vec![union.to_owned()],
                };
                for name in members {
                    if let Some(method) = self.method_of(&name) {
                        map.insert(method, name);
                    }
                }
            }
            self.methods.insert((side, kind), map);
        }
    }

    fn method_of(&self, def: &str) -> Option<String> {
        let d = self.defs()?.get(def)?;
        d.pointer("/properties/method/const")?
            .as_str()
            .map(str::to_owned)
    }

    /// The definition of a `method` message of `kind` sent by `side`, if the revision has one.
    pub(crate) fn message_def(&self, side: Side, kind: Kind, method: &str) -> Option<&str> {
        self.methods
            .get(&(side, kind))?
            .get(method)
            .map(String::as_str)
    }

    /// Whether any side may send `method` as a notification in this revision.
    pub(crate) fn is_notification(&self, method: &str) -> bool {
        [Side::Client, Side::Server]
            .iter()
            .any(|s| self.message_def(*s, Kind::Notification, method).is_some())
    }

    /// The result definition of a request definition: `CallToolRequest` → `CallToolResult`,
    /// else the empty result (`ping`, `logging/setLevel`, `resources/subscribe`).
    pub(crate) fn result_def(&self, request_def: &str) -> Option<String> {
        let name = request_def.strip_suffix("Request")?;
        let candidate = format!("{name}Result");
        if self.has(&candidate) {
            Some(candidate)
        } else if self.has("EmptyResult") {
            Some("EmptyResult".into())
        } else {
            None
        }
    }

    /// Whether the response definition of `request_def` admits an `InputRequiredResult`
    /// (2026-07-28: `CallToolResultResponse.result` is `anyOf [InputRequiredResult, CallToolResult]`).
    pub(crate) fn allows_input_required(&self, request_def: &str) -> bool {
        let Some(name) = request_def.strip_suffix("Request") else {
            return false;
        };
        let Some(def) = self
            .defs()
            .and_then(|d| d.get(&format!("{name}ResultResponse")))
        else {
            return false;
        };
        def.pointer("/properties/result/anyOf")
            .and_then(Value::as_array)
            .is_some_and(|alts| {
                alts.iter().any(|a| {
                    a.get("$ref")
                        .and_then(Value::as_str)
                        .is_some_and(|r| r.ends_with("/InputRequiredResult"))
                })
            })
    }

    /// Whether the revision defines `name` (e.g. `ListToolsResult`).
    pub(crate) fn has(&self, name: &str) -> bool {
        self.defs().is_some_and(|d| d.contains_key(name))
    }

    /// The first of `names` the revision defines (definitions renamed between revisions:
    /// `JSONRPCError` became `JSONRPCErrorResponse`).
    pub(crate) fn first_of<'n>(&self, names: &[&'n str]) -> Option<&'n str> {
        names.iter().copied().find(|n| self.has(n))
    }

    /// Validates `instance` against the definition `name`; at most `limit` violations.
    /// A definition the revision lacks validates nothing.
    pub(crate) fn violations(
        &mut self,
        name: &str,
        instance: &Value,
        limit: usize,
    ) -> Vec<Violation> {
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

    #[test]
    fn methods_map_to_definitions_read_from_the_unions() {
        let old = Spec::load("2025-11-25").unwrap();
        let def = old.message_def(Side::Client, Kind::Request, "tools/call");
        assert_eq!(def, Some("CallToolRequest"));
        assert_eq!(
            old.result_def("CallToolRequest").as_deref(),
            Some("CallToolResult")
        );
        assert_eq!(
            old.result_def("PingRequest").as_deref(),
            Some("EmptyResult")
        );
        let elicit = old.message_def(Side::Server, Kind::Request, "elicitation/create");
        assert_eq!(elicit, Some("ElicitRequest"));
        assert!(old.is_notification("notifications/message"));
        assert!(!old.allows_input_required("CallToolRequest"));
        let new = Spec::load("2026-07-28").unwrap();
        assert_eq!(
            new.message_def(Side::Client, Kind::Notification, "notifications/cancelled"),
            Some("ClientNotification")
        );
        assert_eq!(new.message_def(Side::Client, Kind::Request, "ping"), None);
        assert!(new.allows_input_required("CallToolRequest"));
        assert!(!new.allows_input_required("ListToolsRequest"));
    }
}
