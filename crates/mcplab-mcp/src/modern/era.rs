//! Choosing the era of a connection from the config's `protocol` and the transport, and
//! describing afterwards what was chosen and why. `auto` follows the spec's backward
//! compatibility rules: on stdio rmcp probes with `server/discover` on the same process and
//! falls back to `initialize` on a non-modern error or silence; on streamable HTTP the
//! manager sends `server/discover` over the 2026-07-28 wire and, when the answer is not a
//! recognized modern error, reconnects with the legacy wire and `initialize`.
//! HTTP+SSE is always the handshake; `2026-07-28` never falls back (a legacy server is an
//! error that says so). A modern connection's every request carries the `_meta` protocol
//! version, client info and capabilities (rmcp stamps them).

use mcplab_protocol::{Era, EraView, ProtocolChoice};
use rmcp::model::{ErrorCode, ProtocolVersion};
use rmcp::service::{ClientInitializeError, ClientLifecycleMode};
use serde_json::Value;

use super::{LEGACY_REVISION, MODERN_REVISION};
use crate::wire::TRANSPORT_ERROR_CODE;

/// How a connection opens.
#[derive(Debug, Clone, PartialEq)]
pub enum Plan {
    /// The `initialize` handshake, asking for this revision.
    Initialize(String),
    /// `server/discover`, no fallback (2026-07-28 pinned, or the first step of `auto` on HTTP).
    Discover,
    /// `server/discover`, falling back to `initialize` on the same transport (stdio).
    Auto,
}

impl Plan {
    /// The plan for `choice` over a transport of `kind` (`stdio`, `http`, `sse`).
    pub fn new(choice: ProtocolChoice, kind: &str) -> Result<Plan, String> {
        match (choice, kind) {
            (ProtocolChoice::V2026_07_28, "sse") => Err(
                "the HTTP+SSE transport (deprecated) cannot carry protocol 2026-07-28; use \
                 streamable HTTP (`type: http`) or a 2025 revision"
                    .into(),
            ),
            (ProtocolChoice::Auto, "sse") => Ok(Plan::Initialize(LEGACY_REVISION.into())),
            (ProtocolChoice::Auto, "http") => Ok(Plan::Discover),
            (ProtocolChoice::Auto, _) => Ok(Plan::Auto),
            (ProtocolChoice::V2026_07_28, _) => Ok(Plan::Discover),
            (legacy, _) => Ok(Plan::Initialize(legacy.as_str().into())),
        }
    }

    /// Whether the transport must be the 2026-07-28 streamable HTTP wire.
    pub fn modern_wire(&self) -> bool {
        !matches!(self, Plan::Initialize(_))
    }

    /// The revision the handler names in `initialize` (legacy) or as a fallback.
    pub fn handler_version(&self) -> String {
        match self {
            Plan::Initialize(version) => version.clone(),
            _ => LEGACY_REVISION.into(),
        }
    }

    pub fn lifecycle(&self) -> ClientLifecycleMode {
        let modern = vec![ProtocolVersion::V_2026_07_28];
        match self {
            Plan::Initialize(_) => ClientLifecycleMode::Initialize,
            Plan::Discover => ClientLifecycleMode::Discover {
                preferred_versions: modern,
            },
            Plan::Auto => ClientLifecycleMode::Auto {
                preferred_versions: modern,
                legacy_version: Some(ProtocolVersion::V_2025_11_25),
            },
        }
    }
}

/// When `server/discover` failed in a way that says "this is not a 2026-07-28 server" (a
/// JSON-RPC error that is not a modern one, or an HTTP answer without one), the words for it.
/// Transport failures (unreachable, closed) are not: there is nothing to fall back to.
pub fn not_modern(error: &ClientInitializeError) -> Option<String> {
    let data = match error {
        ClientInitializeError::JsonRpcError(data) => data,
        // A lax legacy server answers an unknown method with some other result (often `{}`).
        ClientInitializeError::ExpectedInitResult(_) => {
            return Some("server/discover got a result that is not a discover result".into());
        }
        // An error about the request that names no id (e.g. "session required").
        ClientInitializeError::UncorrelatedErrorResponse { .. } => {
            return Some("server/discover got an error without the request's id".into());
        }
        _ => return None,
    };
    let code = i64::from(data.code.0);
    let modern = [
        ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY,
        ErrorCode::HEADER_MISMATCH,
        ErrorCode::UNSUPPORTED_PROTOCOL_VERSION,
    ];
    if code == TRANSPORT_ERROR_CODE || modern.contains(&data.code) {
        return None;
    }
    Some(format!(
        "server/discover failed (error {code}: {})",
        data.message
    ))
}

/// What the handshake produced, for [`describe`].
pub struct Outcome<'a> {
    pub choice: ProtocolChoice,
    pub transport: &'a str,
    /// The revision rmcp settled on.
    pub revision: String,
    /// The first result of the connection: `server/discover`'s (modern) or `initialize`'s.
    pub first_result: Option<Value>,
    /// The first error: why discovery failed when `auto` fell back on stdio.
    pub first_error: Option<Value>,
    /// Set when the manager fell back after an HTTP discovery that was not modern, or started
    /// a stdio server again after a probe it never read (why the first try ended).
    pub fell_back: Option<String>,
}

/// The era view of a connection.
pub fn describe(o: Outcome<'_>) -> EraView {
    // Revisions are dates: everything before 2026-07-28 has the initialize handshake.
    let era = if o.revision.as_str() < MODERN_REVISION {
        Era::Legacy
    } else {
        Era::Modern
    };
    let discovery = (era == Era::Modern)
        .then(|| o.first_result.clone())
        .flatten();
    let supported: Vec<String> = discovery
        .as_ref()
        .and_then(|d| d.get("supportedVersions"))
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    // The newest legacy revision the server names (revisions are dates).
    let alternative = supported
        .iter()
        .filter_map(|v| ProtocolChoice::for_revision(v))
        .filter(|c| c.era() == Some(Era::Legacy))
        .max_by_key(|c| c.as_str());
    let how = how(&o, era);
    EraView {
        era,
        revision: o.revision,
        choice: o.choice,
        how,
        discovery,
        supported,
        alternative,
    }
}

fn how(o: &Outcome<'_>, era: Era) -> String {
    if o.transport == "sse" {
        return "HTTP+SSE transport (deprecated since 2025-03-26): initialize handshake".into();
    }
    match (o.choice, era) {
        (ProtocolChoice::Auto, Era::Modern) => match &o.fell_back {
            // The patient second start after a first one that never read the probe.
            Some(why) => format!(
                "auto: {why}; started again and asked server/discover alone, which it answered; \
                 every request uses {MODERN_REVISION}"
            ),
            None => format!("auto: server/discover answered; every request uses {MODERN_REVISION}"),
        },
        (ProtocolChoice::Auto, Era::Legacy) => {
            let why = o.fell_back.clone().unwrap_or_else(|| match &o.first_error {
                Some(e) => format!(
                    "server/discover failed (error {}: {})",
                    e.get("code").map(Value::to_string).unwrap_or_default(),
                    e.get("message").and_then(Value::as_str).unwrap_or("")
                ),
                None => "server/discover got no answer".into(),
            });
            format!(
                "auto: {why}; fell back to the initialize handshake ({})",
                o.revision
            )
        }
        (choice, Era::Modern) => format!("{choice} as configured: server/discover answered"),
        (choice, Era::Legacy) if choice.as_str() == o.revision => {
            format!("{choice} as configured: initialize handshake")
        }
        (choice, Era::Legacy) => format!(
            "{choice} as configured; the server answered initialize with {}",
            o.revision
        ),
    }
}

/// The `initialize`-shaped summary (protocolVersion, capabilities, serverInfo, instructions)
/// the UI shows for a modern connection, built from its `server/discover` result.
pub fn summary_from_discovery(revision: &str, discovery: &Value) -> Value {
    let server_info = discovery
        .pointer(&format!(
            "/_meta/{}",
            super::META_SERVER_INFO.replace('/', "~1")
        ))
        .or_else(|| discovery.get("serverInfo"))
        .cloned();
    let mut v = serde_json::json!({
        "protocolVersion": revision,
        "capabilities": discovery.get("capabilities").cloned().unwrap_or_default(),
    });
    if let Some(info) = server_info {
        v["serverInfo"] = info;
    }
    if let Some(i) = discovery.get("instructions") {
        v["instructions"] = i.clone();
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn plans_follow_the_choice_and_the_transport() {
        assert_eq!(Plan::new(ProtocolChoice::Auto, "stdio"), Ok(Plan::Auto));
        assert_eq!(Plan::new(ProtocolChoice::Auto, "http"), Ok(Plan::Discover));
        assert_eq!(
            Plan::new(ProtocolChoice::Auto, "sse"),
            Ok(Plan::Initialize("2025-11-25".into()))
        );
        assert!(Plan::new(ProtocolChoice::V2026_07_28, "sse").is_err());
        assert_eq!(
            Plan::new(ProtocolChoice::V2025_06_18, "http"),
            Ok(Plan::Initialize("2025-06-18".into()))
        );
    }

    #[test]
    fn a_dual_era_server_offers_the_other_era() {
        let discovery = json!({"supportedVersions": ["2026-07-28", "2025-11-25"],
            "capabilities": {"tools": {}},
            "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "s", "version": "1"}}});
        let view = describe(Outcome {
            choice: ProtocolChoice::Auto,
            transport: "stdio",
            revision: "2026-07-28".into(),
            first_result: Some(discovery.clone()),
            first_error: None,
            fell_back: None,
        });
        assert_eq!(view.era, Era::Modern);
        assert_eq!(view.alternative, Some(ProtocolChoice::V2025_11_25));
        let summary = summary_from_discovery("2026-07-28", &discovery);
        assert_eq!(summary["serverInfo"]["name"], "s");
        let legacy = describe(Outcome {
            choice: ProtocolChoice::Auto,
            transport: "stdio",
            revision: "2025-11-25".into(),
            first_result: Some(json!({"protocolVersion": "2025-11-25"})),
            first_error: Some(json!({"code": -32601, "message": "Method not found"})),
            fell_back: None,
        });
        assert_eq!(legacy.era, Era::Legacy);
        assert!(legacy.how.contains("-32601"), "{}", legacy.how);
        assert!(legacy.discovery.is_none());
    }
}
