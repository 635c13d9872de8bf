//! `mcplab apps render`: renders a tool's app headless, in process. It connects the one
//! server, serves the API and the app sandbox on loopback ports of its own (the same plumbing
//! as `serve`, with an in-memory store holding only that server), lets the core renderer drive
//! Chromium through the web UI's render page, writes the PNG and the JSON report, and stops
//! everything before returning. The exit code says whether the app worked.

use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use mcplab_core::mcp::Listing;
use mcplab_core::render::{self, RenderError, Rendered};
use mcplab_core::store::Store;
use mcplab_protocol::ServerConfig;
use mcplab_protocol::api::AppRenderSpec;
use mcplab_protocol::host::{
    AppHostProfile, CspMode as HostCspMode, DisplayMode as HostDisplayMode,
};
use mcplab_server::{AppState, Security, generate_token};
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use crate::cli::{AppsCmd, CspMode, DisplayMode, RenderArgs, RenderTheme};
use crate::failure::{EXIT_INTERRUPTED, Failure};
use crate::serve::{serve_app, start_sandbox};
use crate::session::Session;
use crate::settings::{self, DataDir, Settings};
use crate::target;
use crate::tool_args;

pub async fn run(cmd: AppsCmd, settings: &Settings) -> Result<(), Failure> {
    let data = &settings.data;
    match cmd {
        AppsCmd::Render(args) => render_app(args, settings, data).await,
    }
}

/// An emulated device: viewport and input capabilities.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Device {
    kind: &'static str,
    platform: &'static str,
    width: u32,
    height: u32,
    touch: bool,
    hover: bool,
}

impl Device {
    /// `mobile`, `tablet`, `desktop` or `WIDTHxHEIGHT` (a desktop-like custom size).
    fn parse(text: &str, rotate: bool) -> Result<Self, Failure> {
        let named = |kind, platform, width, height, touch| Self {
            kind,
            platform,
            width,
            height,
            touch,
            hover: !touch,
        };
        let mut d = match text.trim().to_ascii_lowercase().as_str() {
            "mobile" => named("mobile", "mobile", 430, 932, true),
            "tablet" => named("tablet", "mobile", 820, 1180, true),
            "desktop" => named("desktop", "web", 1280, 800, false),
            custom => {
                let size = custom.split_once('x').and_then(|(w, h)| {
                    Some((w.trim().parse::<u32>().ok()?, h.trim().parse::<u32>().ok()?))
                });
                match size {
                    Some((w, h)) if (1..=8192).contains(&w) && (1..=8192).contains(&h) => {
                        named("desktop", "web", w, h, false)
                    }
                    _ => {
                        return Err(Failure::usage(format!(
                            "--device expects mobile, tablet, desktop or WIDTHxHEIGHT (each \
                             1…8192), got `{text}`"
                        )));
                    }
                }
            }
        };
        if rotate {
            std::mem::swap(&mut d.width, &mut d.height);
        }
        Ok(d)
    }
}

/// The host conditions the render page applies (the web's `HostConditions`).
/// The host conditions of the render: the flags, with a host profile's app host (display
/// modes offered, CSP mode, window.openai, MCP Apps host capabilities) as the base when
/// `--host` names one.
fn conditions(args: &RenderArgs, d: &Device, profile: Option<&AppHostProfile>) -> Value {
    let modes = profile.map_or_else(
        || json!(["inline", "fullscreen", "pip"]),
        |p| json!(p.display_modes),
    );
    let csp_permissive = args.csp == CspMode::Permissive
        || profile.is_some_and(|p| p.csp_mode == HostCspMode::Permissive);
    let openai_shim = args.openai_shim || profile.is_some_and(|p| p.window_openai);
    json!({
        "theme": match args.theme { RenderTheme::Light => "light", RenderTheme::Dark => "dark" },
        "locale": args.locale,
        "timeZone": args.timezone,
        "platform": d.platform,
        "deviceType": d.kind,
        "hover": d.hover,
        "touch": d.touch,
        "safeArea": { "top": 0, "right": 0, "bottom": 0, "left": 0 },
        "maxHeight": d.height,
        "width": d.width,
        "availableDisplayModes": modes,
        "displayMode": match args.display_mode {
            DisplayMode::Inline => "inline",
            DisplayMode::Fullscreen => "fullscreen",
            DisplayMode::Pip => "pip",
        },
        "cspMode": if csp_permissive { "permissive" } else { "declared" },
        "openaiShim": openai_shim,
        // The MCP Apps host capabilities the app is told of (and held to): the profile's,
        // else mcplab's own.
        "hostCapabilities": profile.map(|p| &p.host_capabilities).cloned().unwrap_or_default(),
    })
}

/// `<out>.json`.
fn display_mode(m: DisplayMode) -> HostDisplayMode {
    match m {
        DisplayMode::Inline => HostDisplayMode::Inline,
        DisplayMode::Fullscreen => HostDisplayMode::Fullscreen,
        DisplayMode::Pip => HostDisplayMode::Pip,
    }
}

fn default_report_path(out: &Path) -> PathBuf {
    let mut p = out.as_os_str().to_owned();
    p.push(".json");
    PathBuf::from(p)
}

async fn render_app(args: RenderArgs, settings: &Settings, data: &DataDir) -> Result<(), Failure> {
    let device = Device::parse(&args.device, args.rotate)?;
    let chromium = settings::require_chromium(settings.chromium.as_deref())?;
    if !chromium.is_file() {
        // Said before any server is started.
        return Err(render_failure(RenderError::ChromiumNotFound {
            path: chromium,
        }));
    }
    let timeout_ms = settings.timeout.map(|t| t.as_millis() as u64);
    let report_path = args
        .report
        .clone()
        .unwrap_or_else(|| default_report_path(&args.out));
    let config = target::resolve(&settings.target, data)?;
    let host = match &args.host_profile {
        Some(name) => {
            let all = super::hosts::load(data)?;
            Some(super::hosts::require(&all, name)?.host_config.clone())
        }
        None => None,
    };
    if let Some(h) = &host {
        let mode = display_mode(args.display_mode);
        if !h.app_host.display_modes.contains(&mode) {
            return Err(Failure::usage(format!(
                "host profile `{}` offers the display modes {:?}; pick --display-mode from them",
                args.host_profile.as_deref().unwrap_or_default(),
                h.app_host.display_modes
            )));
        }
    }
    let client = host.as_ref().map(|h| h.client.clone()).unwrap_or_default();
    let session = Session::open_as(settings, vec![config.clone()], client).await?;
    let profile = host.as_ref().map(|h| &h.app_host);
    let result = render_with(
        &session, &config, &args, device, timeout_ms, &chromium, profile,
    )
    .await;
    session.close().await;
    let (spec, rendered) = result?;
    finish(&args, settings.json, &report_path, spec, rendered)
}

/// Checks the tool, serves this process's API and sandbox, and renders.
async fn render_with(
    session: &Session,
    config: &ServerConfig,
    args: &RenderArgs,
    device: Device,
    timeout_ms: Option<u64>,
    chromium: &Path,
    profile: Option<&AppHostProfile>,
) -> Result<(AppRenderSpec, Rendered), Failure> {
    let tools = session.list_all(Listing::Tools).await?;
    let tool = tools["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|t| t["name"].as_str() == Some(args.tool.as_str()))
        .ok_or_else(|| {
            Failure::usage(format!(
                "the server has no tool named `{}` (see `mcplab tools list`)",
                args.tool
            ))
        })?;
    if mcplab_core::apps::ui_link(tool).is_none() {
        return Err(Failure::usage(format!(
            "tool `{}` has no UI to render (no _meta.ui.resourceUri or openai/outputTemplate)",
            args.tool
        )));
    }
    let arguments = tool_args::build(args.args.as_deref(), &args.pairs, tool.get("inputSchema"))?;
    let spec = AppRenderSpec {
        server: config.name.clone(),
        tool: args.tool.clone(),
        arguments,
        conditions: conditions(args, &device, profile),
        width: device.width,
        height: device.height,
        timeout_ms,
    };

    let loopback = IpAddr::from([127, 0, 0, 1]);
    let bind = |what: &'static str| async move {
        TcpListener::bind(SocketAddr::new(loopback, 0))
            .await
            .map_err(|e| Failure::usage(format!("cannot open the {what} listener: {e}")))
    };
    let listener = bind("render API").await?;
    let sandbox = bind("app sandbox").await?;
    let port = listener.local_addr().map(|a| a.port()).unwrap_or_default();
    let store = Store::open_in_memory().map_err(|e| Failure::usage(e.to_string()))?;
    store
        .insert_server(config)
        .map_err(|e| Failure::usage(e.to_string()))?;
    let state = AppState::new(
        session.manager().clone(),
        Arc::new(store),
        Security::new(generate_token(), port, None),
        mcplab_core::llm::ProviderSettings::default(),
    );
    let (_, sandbox_task) = start_sandbox(&state, sandbox, port, None);
    // The spec stays in this process; Chromium gets a one-time code and a render id.
    let url = state.render_sign_in_url(&format!("http://127.0.0.1:{port}"), spec.clone());
    let stop = CancellationToken::new();
    let stopped = stop.clone();
    let app_task = tokio::spawn(serve_app(listener, state, async move {
        stopped.cancelled().await
    }));

    let rendered = tokio::select! {
        r = render::render(chromium, &url, &spec) => r.map_err(render_failure),
        // Dropping the render stops Chromium (its guard kills the process group).
        _ = session.interrupted.cancelled() => Err(Failure::silent(EXIT_INTERRUPTED)),
    };
    stop.cancel();
    if tokio::time::timeout(Duration::from_secs(2), app_task)
        .await
        .is_err()
    {
        tracing::debug!("the render API did not stop in time");
    }
    sandbox_task.abort();
    Ok((spec, rendered?))
}

/// The render's failure with the advice that fits this binary's flags (core names none).
fn render_failure(e: RenderError) -> Failure {
    let advice = match e {
        RenderError::ChromiumNotFound { .. } => {
            " — install the `chromium` package or pass --chromium PATH (or set MCPLAB_CHROMIUM)"
        }
        RenderError::NoReport { .. } => {
            " (rebuild it with `npm --prefix web run build`, then mcplab)"
        }
        _ => "",
    };
    let message = format!("{e}{advice}");
    match e {
        RenderError::ChromiumNotFound { .. } | RenderError::Launch { .. } => {
            Failure::usage(message)
        }
        _ => Failure::call(message),
    }
}

/// Writes the PNG and the report, prints the summary (or the report with `--json`), and
/// turns what the report says into the exit code.
fn finish(
    args: &RenderArgs,
    json_out: bool,
    report_path: &Path,
    spec: AppRenderSpec,
    rendered: Rendered,
) -> Result<(), Failure> {
    let Rendered { png, mut report } = rendered;
    // E.g. Chromium's sandbox could not be used: said on stderr as well as in the report.
    for w in report["warnings"].as_array().into_iter().flatten() {
        eprintln!("warning: {}", w.as_str().unwrap_or_default());
    }
    let (width, height) = render::png_size(&png).unwrap_or_default();
    std::fs::write(&args.out, &png)
        .map_err(|e| Failure::usage(format!("cannot write {}: {e}", args.out.display())))?;
    if let Some(obj) = report.as_object_mut() {
        obj.insert(
            "png".into(),
            json!({ "path": args.out.display().to_string(), "width": width, "height": height }),
        );
        obj.insert("spec".into(), json!(spec));
    }
    let text = serde_json::to_string_pretty(&report).unwrap_or_default();
    std::fs::write(report_path, format!("{text}\n"))
        .map_err(|e| Failure::usage(format!("cannot write {}: {e}", report_path.display())))?;
    if json_out {
        crate::output::outln!("{text}");
    } else {
        crate::output::out!("{}", summary(&report, &args.out, report_path));
    }
    match verdict(&report) {
        None => Ok(()),
        Some(why) => Err(Failure::call(why)),
    }
}

/// Why the render counts as failed, or `None` when the app worked.
fn verdict(report: &Value) -> Option<String> {
    if let Some(e) = report["toolError"].as_str() {
        return Some(format!("the tool call failed: {e}"));
    }
    if report["toolResult"]["isError"] == true {
        return Some("the tool returned isError".into());
    }
    if report["initialized"] != true {
        let why = report["error"]
            .as_str()
            .unwrap_or("it never completed ui/initialize");
        return Some(format!("the app did not initialize: {why}"));
    }
    let errors = report["appErrors"].as_array().map_or(0, Vec::len);
    if errors > 0 {
        let first = report["appErrors"][0]["message"].as_str().unwrap_or("");
        let first = first.lines().next().unwrap_or("");
        return Some(format!("the app threw {errors} error(s); first: {first}"));
    }
    if let Some(e) = report["error"].as_str() {
        return Some(format!("the render failed: {e}"));
    }
    None
}

fn summary(report: &Value, out: &Path, report_path: &Path) -> String {
    let count = |k: &str| report[k].as_array().map_or(0, Vec::len);
    let mut s = String::new();
    let yes_no = |b: bool| if b { "yes" } else { "no" };
    s.push_str(&format!(
        "initialized:      {}\n",
        yes_no(report["initialized"] == true)
    ));
    if let Some(e) = report["error"].as_str() {
        s.push_str(&format!("error:            {e}\n"));
    }
    match report["toolError"].as_str() {
        Some(e) => s.push_str(&format!("tool call:        failed: {e}\n")),
        None if report["toolResult"].is_object() => s.push_str("tool call:        ok\n"),
        None => s.push_str("tool call:        no result\n"),
    }
    s.push_str(&format!("app errors:       {}\n", count("appErrors")));
    for e in report["appErrors"].as_array().into_iter().flatten().take(3) {
        // The first line: stacks are in the report.
        let message = e["message"].as_str().unwrap_or("").lines().next();
        s.push_str(&format!(
            "  {}: {}\n",
            e["kind"].as_str().unwrap_or("error"),
            message.unwrap_or("")
        ));
    }
    s.push_str(&format!("CSP violations:   {}\n", count("cspViolations")));
    for v in report["cspViolations"]
        .as_array()
        .into_iter()
        .flatten()
        .take(3)
    {
        s.push_str(&format!(
            "  {} blocked {}\n",
            v["directive"].as_str().unwrap_or("?"),
            v["blockedUri"].as_str().unwrap_or("?")
        ));
    }
    s.push_str(&format!("bridge messages:  {}\n", count("bridgeMessages")));
    if count("pageErrors") > 0 {
        s.push_str(&format!("page errors:      {}\n", count("pageErrors")));
    }
    s.push_str(&format!(
        "screenshot:       {} ({}x{})\n",
        out.display(),
        report["png"]["width"],
        report["png"]["height"]
    ));
    s.push_str(&format!("report:           {}\n", report_path.display()));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn render_failures_get_this_binarys_advice() {
        use crate::failure::{EXIT_CALL, EXIT_USAGE};
        let f = render_failure(RenderError::ChromiumNotFound {
            path: "/no/chromium".into(),
        });
        assert_eq!(f.code, EXIT_USAGE);
        assert!(f.message.contains("pass --chromium PATH"), "{}", f.message);
        let f = render_failure(RenderError::NoReport { secs: 5.0 });
        assert_eq!(f.code, EXIT_CALL);
        assert!(
            f.message.contains("npm --prefix web run build"),
            "{}",
            f.message
        );
    }

    #[test]
    fn devices_have_their_sizes_and_capabilities() {
        let m = Device::parse("mobile", false).unwrap();
        assert_eq!(
            (m.width, m.height, m.touch, m.hover),
            (430, 932, true, false)
        );
        assert_eq!((m.kind, m.platform), ("mobile", "mobile"));
        let t = Device::parse("Tablet", true).unwrap();
        assert_eq!((t.width, t.height, t.kind), (1180, 820, "tablet"));
        let d = Device::parse("desktop", false).unwrap();
        assert_eq!(
            (d.width, d.height, d.hover, d.platform),
            (1280, 800, true, "web")
        );
        let c = Device::parse("640x480", false).unwrap();
        assert_eq!((c.width, c.height, c.kind), (640, 480, "desktop"));
        for bad in ["watch", "0x10", "10x", "x"] {
            assert!(Device::parse(bad, false).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_report_goes_beside_the_png_by_default() {
        assert_eq!(
            default_report_path(Path::new("out/shot.png")),
            PathBuf::from("out/shot.png.json")
        );
    }

    #[test]
    fn the_verdict_fails_on_no_initialize_throws_and_tool_errors() {
        let ok = json!({"initialized": true, "error": null, "appErrors": [], "toolError": null,
                        "toolResult": {"content": []}});
        assert_eq!(verdict(&ok), None);
        let not_init = json!({"initialized": false, "error": "timed out after 5 s"});
        assert!(verdict(&not_init).unwrap().contains("timed out"));
        let threw =
            json!({"initialized": true, "appErrors": [{"kind": "error", "message": "boom"}]});
        assert!(verdict(&threw).unwrap().contains("boom"));
        let tool = json!({"initialized": true, "toolError": "nope"});
        assert!(verdict(&tool).unwrap().contains("nope"));
        let is_error = json!({"initialized": true, "toolResult": {"isError": true}});
        assert!(verdict(&is_error).is_some());
    }
}
