//! Live renders for the hosts set's `host-app-live` rule: each app a host would show, rendered
//! under that host's profile by a renderer the caller hands in ([`LiveRender`] in
//! [`CheckOptions::live`]) — mcplab-check renders nothing itself; the binary and the web API
//! set mcplab-server's headless render. The app is rendered from its `ui://` resource without
//! a tool call unless `--call` names one of the tools that link it. What the widget actually
//! did ([`LiveReport`]: requests the host refused, errors it threw, CSP violations, time to
//! ready) is kept in the recording of the era the host speaks and judged in `hosts::apps`.

use std::fmt;
use std::sync::Arc;

use futures::future::BoxFuture;
use mcplab_protocol::ServerConfig;
use mcplab_protocol::host_profile::HostProfile;
use serde_json::Value;

use crate::options::CheckOptions;
use crate::recording::Recording;
use crate::run::EraResult;

/// The app to render: its resource, the tool that links it, and the arguments to call that
/// tool with (None: no call; the app gets its input only).
#[derive(Debug, Clone, PartialEq)]
pub struct LiveApp {
    pub uri: String,
    pub tool: String,
    pub arguments: Option<Value>,
}

/// What a rendered widget did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LiveReport {
    /// It completed `ui/initialize`.
    pub initialized: bool,
    /// Why the render ended badly (a timeout, a throw before initializing).
    pub error: Option<String>,
    /// Requests the host answered with an error: (method, why).
    pub refused: Vec<(String, String)>,
    /// Errors the app threw or logged (`kind: message`, first line).
    pub app_errors: Vec<String>,
    /// CSP violations: `directive blocked URI`.
    pub csp_violations: Vec<String>,
    /// Milliseconds from the start of the render until the app said it was initialized.
    pub ready_ms: Option<u64>,
    /// Requests the app sent to the host.
    pub requests: usize,
}

/// A render's outcome: what the widget did, or why it could not be rendered.
#[derive(Debug, Clone, PartialEq)]
pub enum LiveOutcome {
    Rendered(LiveReport),
    Unavailable(String),
}

/// Renders one app of `config`'s server under a host profile (connecting as that host).
pub trait LiveRender: Send + Sync {
    fn render<'a>(
        &'a self,
        config: &'a ServerConfig,
        app: &'a LiveApp,
        profile: &'a HostProfile,
    ) -> BoxFuture<'a, LiveOutcome>;
}

/// The renderer a check uses (shared: options are cloned).
#[derive(Clone)]
pub struct LiveRenderer(pub Arc<dyn LiveRender>);

impl fmt::Debug for LiveRenderer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("LiveRenderer")
    }
}

/// One app rendered under one profile.
#[derive(Debug, Clone)]
pub struct LiveRun {
    pub host: String,
    pub uri: String,
    pub outcome: LiveOutcome,
}

impl LiveReport {
    /// Reads the render page's report (`initialized`, `error`, `appErrors`, `cspViolations`,
    /// `bridgeMessages` with the error of each refused answer).
    pub fn from_render_report(report: &Value) -> Self {
        let list = |k: &str| report[k].as_array().cloned().unwrap_or_default();
        let first_line = |v: &Value| {
            v.as_str()
                .unwrap_or_default()
                .lines()
                .next()
                .unwrap_or_default()
                .to_owned()
        };
        let bridge = list("bridgeMessages");
        let from_app = |m: &Value| m["dir"] == "fromApp";
        let refused = bridge
            .iter()
            .filter(|m| m["dir"] == "toApp" && m["error"].is_string() && !m["id"].is_null())
            .map(|answer| {
                let method = bridge
                    .iter()
                    .find(|q| from_app(q) && q["id"] == answer["id"] && q["method"].is_string())
                    .and_then(|q| q["method"].as_str())
                    .unwrap_or("a request");
                let why = first_line(&answer["error"]);
                // The session's refusals repeat the method ("ui/message refused: …").
                let prefix = format!("{method} refused: ");
                let why = why.strip_prefix(&prefix).map(str::to_owned).unwrap_or(why);
                (method.to_owned(), why)
            })
            .collect();
        LiveReport {
            initialized: report["initialized"] == true,
            error: report["error"].as_str().map(str::to_owned),
            refused,
            app_errors: list("appErrors")
                .iter()
                .map(|e| {
                    let kind = e["kind"].as_str().unwrap_or("error");
                    format!("{kind}: {}", first_line(&e["message"]))
                })
                .collect(),
            csp_violations: list("cspViolations")
                .iter()
                .map(|v| {
                    format!(
                        "{} blocked {}",
                        v["directive"].as_str().unwrap_or("?"),
                        v["blockedUri"].as_str().unwrap_or("?")
                    )
                })
                .collect(),
            ready_ms: bridge
                .iter()
                .find(|m| from_app(m) && m["method"] == "ui/notifications/initialized")
                .and_then(|m| m["atMs"].as_u64()),
            requests: bridge
                .iter()
                .filter(|m| from_app(m) && m["method"].is_string() && !m["id"].is_null())
                .count(),
        }
    }
}

/// Renders, for each host profile asked for, each app it would show from the era it speaks
/// (see `hosts::server::chosen`), and keeps the outcomes in that era's recording. Without a
/// renderer nothing is rendered.
pub async fn render_all(eras: &mut [EraResult], opts: &CheckOptions) {
    let Some(LiveRenderer(renderer)) = &opts.live else {
        return;
    };
    for profile in &opts.hosts {
        let Some(i) = chosen_era(eras, profile) else {
            continue;
        };
        let rec = &eras[i].recording;
        let jobs: Vec<LiveApp> = rec
            .apps
            .iter()
            .flatten()
            .filter(|a| a.content().is_some() && shows(profile, a))
            .map(|a| live_app(a, opts))
            .collect();
        let config = rec.config.clone();
        for app in jobs {
            let outcome = renderer.render(&config, &app, profile).await;
            let said = format!(
                "rendered {} as {}: {}",
                app.uri,
                profile.name,
                match &outcome {
                    LiveOutcome::Rendered(r) if r.initialized => "initialized".to_owned(),
                    LiveOutcome::Rendered(r) => format!(
                        "did not initialize ({})",
                        r.error.as_deref().unwrap_or("no reason given")
                    ),
                    LiveOutcome::Unavailable(why) => format!("not rendered: {why}"),
                }
            );
            eras[i].check.exercised.push(said.clone());
            let rec = &mut eras[i].recording;
            rec.exercised.push(said);
            rec.live.push(LiveRun {
                host: profile.name.clone(),
                uri: app.uri,
                outcome,
            });
        }
    }
}

/// The era whose recording the host's verdict rests on.
fn chosen_era(eras: &[EraResult], profile: &HostProfile) -> Option<usize> {
    let recs: Vec<&Recording> = eras
        .iter()
        .map(|e| &e.recording)
        .filter(|r| r.connect_error.is_none())
        .collect();
    let rec = crate::hosts::chosen(profile, &recs)?;
    eras.iter().position(|e| std::ptr::eq(&e.recording, rec))
}

/// Whether the host shows this kind of app at all (a host that does not is judged by
/// `host-app-render`; rendering there would measure nothing).
fn shows(profile: &HostProfile, app: &crate::apps::AppRead) -> bool {
    let h = &profile.host_config;
    let mcplab = profile.builtin && profile.name == "mcplab";
    (app.mcp_app && h.client.mcp_apps) || (app.openai && (h.app_host.window_openai || mcplab))
}

/// The render of `app`: with the arguments of a `--call` naming a tool that links it, else
/// the first linking tool, not called.
fn live_app(app: &crate::apps::AppRead, opts: &CheckOptions) -> LiveApp {
    let called = opts
        .calls
        .iter()
        .find(|(name, _)| app.tools.iter().any(|t| t == name));
    LiveApp {
        uri: app.uri.clone(),
        tool: called
            .map(|(n, _)| n.clone())
            .or_else(|| app.tools.first().cloned())
            .unwrap_or_default(),
        arguments: called.map(|(_, a)| a.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_render_report_gives_refusals_errors_and_time_to_ready() {
        let report = json!({
            "initialized": true, "error": null,
            "appErrors": [{"kind": "error", "message": "boom\n  at x"}],
            "cspViolations": [{"directive": "connect-src", "blockedUri": "https://evil.example"}],
            "bridgeMessages": [
                {"n": 1, "atMs": 5, "dir": "fromApp", "method": "ui/initialize", "id": 1},
                {"n": 2, "atMs": 9, "dir": "toApp", "id": 1},
                {"n": 3, "atMs": 12, "dir": "fromApp", "method": "ui/notifications/initialized"},
                {"n": 4, "atMs": 20, "dir": "fromApp", "method": "ui/open-link", "id": 2},
                {"n": 5, "atMs": 21, "dir": "toApp", "id": 2, "error": "ui/open-link refused: no"},
            ],
        });
        let r = LiveReport::from_render_report(&report);
        assert!(r.initialized);
        assert_eq!(
            r.refused,
            vec![("ui/open-link".to_owned(), "no".to_owned())]
        );
        assert_eq!(r.app_errors, vec!["error: boom"]);
        assert_eq!(
            r.csp_violations,
            vec!["connect-src blocked https://evil.example"]
        );
        assert_eq!(r.ready_ms, Some(12));
        assert_eq!(r.requests, 2);
    }
}
