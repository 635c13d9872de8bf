//! The `check` tool: `mcplab check` for the agent. The target is resolved like `connect`'s
//! (the same allow-list), connected on a manager of its own so only this check's frames are
//! judged, exercised and linted by core's checker, and stopped again; the agent's own
//! connection of that server is left alone.

use mcplab_core::check::{CheckOptions, check_connection, check_failed_connect};
use mcplab_mcp::ConnectionManager;
use mcplab_mcp::tool_server::{CallScope, ToolReply};
use mcplab_protocol::check::{CheckReport, Severity};
use mcplab_protocol::{ProtocolChoice, ServerTransport};
use serde::Deserialize;
use serde_json::{Map, Value, json};

use crate::Agent;
use crate::reply::{self, fail, ok};
use crate::servers::Target;

/// Findings returned at most (the counts cover them all).
const MAX_FINDINGS: usize = 60;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CheckArgs {
    #[serde(flatten)]
    target: Target,
    #[serde(default)]
    calls: Map<String, Value>,
}

impl Agent {
    pub(crate) async fn check_tool(&self, arguments: Value, scope: &CallScope) -> ToolReply {
        let args: CheckArgs = match reply::args("check", arguments) {
            Ok(a) => a,
            Err(r) => return *r,
        };
        let mut config = match self.resolve(args.target) {
            Ok(c) => c,
            Err(why) => return fail(why),
        };
        // The checker judges the handshake revisions' schemas and probes `ping`: `auto`
        // checks in that era, as `mcplab check` does.
        if config.protocol == ProtocolChoice::Auto {
            config.protocol = ProtocolChoice::V2025_11_25;
        }
        let opts = CheckOptions {
            calls: args.calls.into_iter().collect(),
            ..CheckOptions::default()
        };
        let mut options = self.inner.setup.manager_options.clone();
        options.listen_for_changes = false;
        let manager = ConnectionManager::new(options);
        let name = config.name.clone();
        let stdio = matches!(config.transport, ServerTransport::Stdio { .. });
        let run = async {
            match manager.connect(config).await {
                Ok(conn) => check_connection(&conn, manager.traffic(), &opts).await,
                Err(e) => {
                    let frames = manager.traffic().snapshot(&name).frames;
                    let error = e.to_string();
                    let first = error.lines().next().unwrap_or_default();
                    check_failed_connect(&name, &frames, stdio, first)
                }
            }
        };
        let report = tokio::select! {
            r = run => Some(r),
            _ = scope.cancel.cancelled() => None,
        };
        manager.shutdown().await;
        match report {
            Some(r) => report_reply(&r),
            None => fail("check cancelled; its server was stopped"),
        }
    }
}

fn report_reply(r: &CheckReport) -> ToolReply {
    let counts = json!({
        "error": r.count(Severity::Error),
        "warning": r.count(Severity::Warning),
        "info": r.count(Severity::Info),
    });
    let findings: Vec<Value> = r
        .findings
        .iter()
        .take(MAX_FINDINGS)
        .map(|f| serde_json::to_value(f).unwrap_or(Value::Null))
        .collect();
    let mut summary = format!(
        "check of `{}` ({}): {} error(s), {} warning(s), {} note(s)",
        r.server,
        r.protocol_version.as_deref().unwrap_or("not connected"),
        counts["error"],
        counts["warning"],
        counts["info"]
    );
    if let Some(first) = r.findings.iter().find(|f| f.severity == Severity::Error) {
        summary.push_str(&format!(
            "; first error [{}]: {}",
            first.rule, first.message
        ));
    }
    ok(
        summary,
        json!({
            "server": r.server,
            "protocol": r.protocol_version,
            "counts": counts,
            "findings": findings,
            "exercised": r.exercised,
            "rules": r.rules.len(),
        }),
    )
}
