//! The `check` tool: `mcplab check` for the agent. The target is resolved like `connect`'s
//! (the same allow-list) and checked by `mcplab_check` in every era it speaks, each era on
//! a manager of its own so only that check's frames are judged, stopped again afterwards;
//! the agent's own connection of that server is left alone. It runs the always-on sets
//! (spec, security) only: no host profiles, so no live app render (the CLI's `LiveRender`
//! hook has nothing to do here), no directory rules, no fuzzing — its description says so.

use mcplab_check::CheckOptions;
use mcplab_check::eras::check_server;
use mcplab_check::fresh::FreshManagers;
use mcplab_mcp::tool_server::{CallScope, ToolReply};
use mcplab_protocol::check::{CheckReport, Severity};
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
        let config = match self.resolve(args.target) {
            Ok(c) => c,
            Err(why) => return fail(why),
        };
        let opts = CheckOptions {
            calls: args.calls.into_iter().collect(),
            ..CheckOptions::default()
        };
        let mut connector = FreshManagers::new(self.inner.setup.manager_options.clone());
        let label = config.name.clone();
        let run = check_server(config, &label, &opts, &mut connector);
        // Cancelling drops the check, and with it the era's manager (its server is stopped).
        let report = tokio::select! {
            r = run => Some(r.map(|c| c.report)),
            _ = scope.cancel.cancelled() => None,
        };
        match report {
            Some(Ok(r)) => report_reply(&r),
            Some(Err(never)) => match never {},
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
    let eras: Vec<&str> = r
        .eras
        .iter()
        .filter(|e| e.connected)
        .map(|e| e.revision.as_str())
        .collect();
    let protocol = if eras.is_empty() {
        "not connected".to_owned()
    } else {
        eras.join(", ")
    };
    let mut summary = format!(
        "check of `{}` ({protocol}): {} error(s), {} warning(s), {} note(s)",
        r.server, counts["error"], counts["warning"], counts["info"]
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
            "protocols": eras,
            "counts": counts,
            "findings": findings,
            "eras": r.eras,
            "notes": r.notes,
        }),
    )
}
