//! A host verdict's reasons per app (`ui://` resource): whether the host renders its kind
//! (`client.mcpApps`, `appHost.windowOpenai`), and from the static scan of its HTML, the
//! host requests and `window.openai` members it uses (`appHost.hostCapabilities.*`), the
//! display modes it asks for (`appHost.displayModes`) and origins its CSP does not declare.

use mcplab_protocol::check::{HostItemKind, Verdict};
use mcplab_protocol::host::{AppHostCapabilities, DisplayMode, ServerProxy};

use super::Profile;
use super::rules::{APP_CAPABILITY, APP_READ, APP_RENDER, CSP, DISPLAY_MODE};
use crate::apps::{AppRead, ExternalKind, allowed, csp, scan};
use crate::recording::Recording;

pub(super) fn judge(prof: &mut Profile, rec: &Recording) {
    for app in rec.apps.iter().flatten() {
        one(prof, app);
    }
}

fn one(prof: &mut Profile, app: &AppRead) {
    let item = Some((HostItemKind::App, app.uri.as_str()));
    let Some(content) = app.content() else {
        let why = app
            .outcome
            .as_ref()
            .err()
            .map(ToString::to_string)
            .unwrap_or_default();
        prof.add(
            &APP_READ,
            item,
            Verdict::Blocked,
            "client.mcpApps",
            format!(
                "linked by {} but could not be read: {why}",
                app.tools.join(", ")
            ),
        );
        return;
    };
    let Some(window_openai) = rendered(prof, app) else {
        return;
    };
    let s = scan(&content.html);
    let caps = prof.p.host_config.app_host.host_capabilities.clone();
    let mut asked: Vec<(String, &'static str, bool)> = s
        .bridge
        .iter()
        .filter_map(|r| bridge_capability(&caps, r).map(|(f, o)| (format!("`{r}`"), f, o)))
        .collect();
    if !s.window_openai.is_empty() && !window_openai {
        let members: Vec<String> = s
            .window_openai
            .iter()
            .map(|m| format!("window.openai.{m}"))
            .collect();
        let field = "appHost.windowOpenai";
        let (verdict, said) = prof.offered(
            field,
            false,
            "",
            "gives apps no window.openai: those calls fail unless the app checks first",
            Verdict::Degraded,
        );
        prof.add(
            &APP_CAPABILITY,
            item,
            verdict,
            field,
            format!("its HTML uses {}; the host {said}", members.join(", ")),
        );
    } else {
        for m in &s.window_openai {
            if let Some((f, o)) = openai_capability(&caps, m) {
                asked.push((format!("window.openai.{m}"), f, o));
            }
        }
    }
    for (what, field, offered) in asked {
        let (verdict, said) = prof.offered(
            field,
            offered,
            "offers it",
            "does not offer it: the request is refused",
            Verdict::Degraded,
        );
        prof.add(
            &APP_CAPABILITY,
            item,
            verdict,
            field,
            format!("its HTML uses {what}; the host {said}"),
        );
    }
    display_modes(prof, app, &s.display_modes);
    let declared = csp(&content.meta);
    for e in s.external.iter().filter(|e| !allowed(&declared, e)) {
        let verdict = if e.kind == ExternalKind::Script {
            Verdict::Blocked
        } else {
            Verdict::Degraded
        };
        prof.add(
            &CSP,
            item,
            verdict,
            "appHost.cspMode",
            format!(
                "loads {} ({:?}) from an origin its CSP does not declare: the host's CSP blocks it",
                e.url, e.kind
            ),
        );
    }
}

/// Whether the host renders the app's kind (with the reason); Some(whether apps get
/// window.openai) when it does or may.
fn rendered(prof: &mut Profile, app: &AppRead) -> Option<bool> {
    let item = Some((HostItemKind::App, app.uri.as_str()));
    let h = &prof.p.host_config;
    let tools = app.tools.join(", ");
    let link = if app.tools.len() == 1 {
        "links"
    } else {
        "link"
    };
    // mcplab gives OpenAI widgets its window.openai shim whatever the profile says.
    let mcplab = prof.p.builtin && prof.p.name == "mcplab";
    let (mcp, openai) = (h.client.mcp_apps, h.app_host.window_openai || mcplab);
    let (field, yes, no, shown) = if app.mcp_app && (mcp || !app.openai) {
        (
            "client.mcpApps",
            "renders MCP Apps views",
            "does not render MCP Apps views",
            mcp,
        )
    } else {
        (
            "appHost.windowOpenai",
            "renders OpenAI widgets with window.openai",
            "does not render OpenAI widgets (openai/outputTemplate)",
            openai,
        )
    };
    let (verdict, said) = prof.offered(field, shown, yes, no, Verdict::Degraded);
    let tail = if verdict == Verdict::Degraded {
        ": they still work, without the view"
    } else {
        ""
    };
    prof.add(
        &APP_RENDER,
        item,
        verdict,
        field,
        format!("{tools} {link} it; the host {said}{tail}"),
    );
    let window = openai && !prof.unknown("appHost.windowOpenai");
    (verdict != Verdict::Degraded).then_some(window || (app.openai && !app.mcp_app))
}

/// The hostCapabilities field behind an MCP Apps request, and whether the host offers it.
pub(super) fn bridge_capability(
    c: &AppHostCapabilities,
    request: &str,
) -> Option<(&'static str, bool)> {
    Some(match request {
        "ui/open-link" => ("appHost.hostCapabilities.openLinks", c.open_links),
        "ui/download-file" => ("appHost.hostCapabilities.downloadFile", c.download_file),
        "ui/message" => ("appHost.hostCapabilities.message", c.message.is_some()),
        "ui/update-model-context" => (
            "appHost.hostCapabilities.updateModelContext",
            c.update_model_context.is_some(),
        ),
        "tools/call" => (
            "appHost.hostCapabilities.serverTools",
            c.server_tools != ServerProxy::Off,
        ),
        "resources/read" | "resources/list" => (
            "appHost.hostCapabilities.serverResources",
            c.server_resources != ServerProxy::Off,
        ),
        "notifications/message" => ("appHost.hostCapabilities.logging", c.logging),
        _ => return None,
    })
}

/// `window.openai` members that need a host capability.
fn openai_capability(c: &AppHostCapabilities, member: &str) -> Option<(&'static str, bool)> {
    match member {
        "callTool" => bridge_capability(c, "tools/call"),
        "openExternal" => bridge_capability(c, "ui/open-link"),
        "sendFollowUpMessage" => bridge_capability(c, "ui/message"),
        _ => None,
    }
}

fn display_modes(prof: &mut Profile, app: &AppRead, asked: &std::collections::BTreeSet<String>) {
    let field = "appHost.displayModes";
    let item = Some((HostItemKind::App, app.uri.as_str()));
    let offered = prof.p.host_config.app_host.display_modes.clone();
    for mode in asked {
        let known = match mode.as_str() {
            "inline" => DisplayMode::Inline,
            "fullscreen" => DisplayMode::Fullscreen,
            "pip" => DisplayMode::Pip,
            _ => continue,
        };
        let (verdict, said) = prof.offered(
            field,
            offered.contains(&known),
            "offers it",
            "does not offer it: the app stays inline",
            Verdict::Degraded,
        );
        prof.add(
            &DISPLAY_MODE,
            item,
            verdict,
            field,
            format!("its HTML asks for display mode {mode}; the host {said}"),
        );
    }
}
