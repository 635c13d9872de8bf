//! The `appRendered` check's renderer, as the runner sees it: something that renders a tool's
//! app in headless Chromium under the host's app profile, through that host's connections, and
//! says whether it initialized,
//! which CSP violations and errors it had. The CLI and the web server provide it (they own
//! the HTTP edge the render page needs, as `mcplab apps render` does); without one — no
//! Chromium — the check cannot be measured and the iteration is errored with that reason.

use std::sync::Arc;

use futures::future::BoxFuture;
use mcplab_evals::trace::AppRender;
use mcplab_mcp::ConnectionManager;
use mcplab_protocol::api::AppRenderSpec;
use mcplab_protocol::host::AppHostProfile;
use mcplab_protocol::host_conditions::{HostConditions, Viewer};
use serde_json::Value;

/// Renders one tool call's app; `Err` when the render could not happen at all. `manager` holds
/// the connections of the host the call ran under: the app's resources are read (and its
/// calls made) through them, so a server sees each host's render as that host.
pub trait AppRenderer: Send + Sync {
    fn render(
        &self,
        manager: Arc<ConnectionManager>,
        spec: AppRenderSpec,
    ) -> BoxFuture<'static, Result<Value, String>>;
}

/// The render spec for a call under `profile`: its device's viewport and the conditions the
/// profile sets, with nobody looking ([`Viewer::headless`]: light, `en-US`, UTC) standing in for
/// what it leaves to the viewer.
pub fn spec_for(
    profile: &AppHostProfile,
    server: &str,
    tool: &str,
    arguments: &Value,
) -> AppRenderSpec {
    let conditions = HostConditions::for_app_host(profile, &Viewer::headless());
    AppRenderSpec::new(server, tool, arguments.clone(), conditions)
}

/// What the check needs from the render page's report.
pub fn app_render(call_id: &str, server: &str, tool: &str, report: &Value) -> AppRender {
    let list = |key: &str, field: &str| -> Vec<String> {
        report[key]
            .as_array()
            .into_iter()
            .flatten()
            .map(|v| {
                v[field]
                    .as_str()
                    .map(str::to_owned)
                    .unwrap_or_else(|| v.to_string())
            })
            .collect()
    };
    let mut errors = list("appErrors", "message");
    errors.extend(list("pageErrors", "message"));
    if let Some(e) = report["toolError"].as_str() {
        errors.push(format!("the tool call failed: {e}"));
    }
    if let Some(e) = report["error"].as_str() {
        errors.push(e.to_owned());
    }
    let csp_violations = report["cspViolations"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|v| {
            format!(
                "{} blocked {}",
                v["directive"].as_str().unwrap_or("?"),
                v["blockedUri"].as_str().unwrap_or("?")
            )
        })
        .collect();
    AppRender {
        call_id: call_id.to_owned(),
        server: server.to_owned(),
        tool: tool.to_owned(),
        initialized: report["initialized"] == true,
        csp_violations,
        errors,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_report_becomes_what_the_check_reads() {
        let report = json!({
            "initialized": true,
            "appErrors": [{"kind": "error", "message": "boom"}],
            "cspViolations": [{"directive": "connect-src", "blockedUri": "https://x.test"}],
            "toolError": null,
            "error": null,
        });
        let r = app_render("c1", "demo", "show", &report);
        assert!(r.initialized);
        assert_eq!(r.errors, ["boom"]);
        assert_eq!(r.csp_violations, ["connect-src blocked https://x.test"]);
        let mobile = AppHostProfile {
            device: mcplab_protocol::host::DeviceKind::Mobile,
            ..AppHostProfile::default()
        };
        let spec = spec_for(&mobile, "demo", "show", &json!({}));
        assert_eq!((spec.width, spec.height), (430, 932));
        assert!(spec.conditions.touch);
    }
}
