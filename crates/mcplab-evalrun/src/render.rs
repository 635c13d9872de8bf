//! The app checks' renderer (`appRendered`, `noConsoleErrors`, `maxRenderMs`), as the runner
//! sees it: something that renders a tool's app in headless Chromium under the host's app
//! profile, through that host's connections, and says whether it initialized, when it was
//! ready, which CSP violations, errors and console errors it had. The CLI and the web server provide it (they own
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

/// What the app checks need from the render page's report. The app's `console.error` lines
/// are kept apart (`noConsoleErrors` reads them); its uncaught exceptions and rejections, the
/// render page's own errors, a failed tool call or render are `errors` (`appRendered` fails on
/// them).
pub fn app_render(call_id: &str, server: &str, tool: &str, report: &Value) -> AppRender {
    let first_line = |v: &Value| {
        let text = v["message"]
            .as_str()
            .map(str::to_owned)
            .unwrap_or_else(|| v.to_string());
        text.lines().next().unwrap_or_default().to_owned()
    };
    let items = |key: &str| report[key].as_array().cloned().unwrap_or_default();
    let (console, thrown): (Vec<Value>, Vec<Value>) = items("appErrors")
        .into_iter()
        .partition(|e| e["kind"] == "console.error");
    let mut errors: Vec<String> = thrown
        .iter()
        .chain(&items("pageErrors"))
        .map(first_line)
        .collect();
    if let Some(e) = report["toolError"].as_str() {
        errors.push(format!("the tool call failed: {e}"));
    }
    if let Some(e) = report["error"].as_str() {
        errors.push(e.to_owned());
    }
    let csp_violations = items("cspViolations")
        .iter()
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
        ready_ms: ready_ms(report),
        csp_violations,
        errors,
        console_errors: console.iter().map(first_line).collect(),
    }
}

/// Milliseconds from the render page's start until the app sent `ui/notifications/initialized`
/// (its `atMs` in the bridge log); `None` when it never did.
pub fn ready_ms(report: &Value) -> Option<u64> {
    report["bridgeMessages"]
        .as_array()?
        .iter()
        .find(|m| m["dir"] == "fromApp" && m["method"] == "ui/notifications/initialized")
        .and_then(|m| m["atMs"].as_f64())
        .map(|ms| ms.max(0.0).round() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_report_becomes_what_the_check_reads() {
        let report = json!({
            "initialized": true,
            "appErrors": [
                {"kind": "error", "message": "boom\n  at app.js:3"},
                {"kind": "console.error", "message": "noisy {\"a\":1}"},
            ],
            "pageErrors": [{"kind": "exception", "message": "page broke"}],
            "cspViolations": [{"directive": "connect-src", "blockedUri": "https://x.test"}],
            "bridgeMessages": [
                {"n": 1, "atMs": 12, "dir": "fromApp", "method": "ui/initialize", "id": 1},
                {"n": 2, "atMs": 20, "dir": "toApp", "method": "ui/notifications/initialized"},
                {"n": 3, "atMs": 31, "dir": "fromApp", "method": "ui/notifications/initialized"},
            ],
            "toolError": null,
            "error": null,
        });
        let r = app_render("c1", "demo", "show", &report);
        assert!(r.initialized);
        assert_eq!(
            r.ready_ms,
            Some(31),
            "the app's own notification, not one sent to it"
        );
        assert_eq!(r.errors, ["boom", "page broke"]);
        assert_eq!(r.console_errors, ["noisy {\"a\":1}"]);
        assert_eq!(r.csp_violations, ["connect-src blocked https://x.test"]);
        assert_eq!(ready_ms(&json!({ "bridgeMessages": [] })), None);
        let mobile = AppHostProfile {
            device: mcplab_protocol::host::DeviceKind::Mobile,
            ..AppHostProfile::default()
        };
        let spec = spec_for(&mobile, "demo", "show", &json!({}));
        assert_eq!((spec.width, spec.height), (430, 932));
        assert!(spec.conditions.touch);
    }
}
