//! `mcplab apps render`: renders a tool's app headless, in process. It connects the one
//! server, turns the flags (and `--host`'s profile) into host conditions, and renders through
//! `mcplab_server::headless` (an API and app sandbox of its own on loopback, Chromium on the web
//! UI's render page); then it writes the PNG and the JSON report and prints a summary. The exit
//! code says whether the app worked (`mcplab_render::verdict`).

use std::path::{Path, PathBuf};

use mcplab_mcp::Listing;
use mcplab_protocol::ServerConfig;
use mcplab_protocol::api::AppRenderSpec;
use mcplab_protocol::host::{
    AppHostProfile, CspMode as HostCspMode, DisplayMode as HostDisplayMode, ThemeChoice,
};
use mcplab_protocol::host_conditions::{DevicePreset, HostConditions, Theme, Viewer};
use mcplab_render::{self as render, RenderError, Rendered};
use mcplab_server::headless::{self, HeadlessError, LoopbackApi};
use serde_json::{Value, json};

use crate::cli::{AppsCmd, CspMode, DisplayMode, RenderArgs, RenderTheme};
use crate::failure::{EXIT_INTERRUPTED, Failure};
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

/// `--device` (and `--rotate`) as a device preset.
fn device(args: &RenderArgs) -> Result<DevicePreset, Failure> {
    let d =
        DevicePreset::parse(&args.device).map_err(|e| Failure::usage(format!("--device {e}")))?;
    Ok(if args.rotate { d.rotated() } else { d })
}

/// The host conditions of the render: the profile `--host` names (display modes offered, CSP
/// mode, window.openai, MCP Apps host capabilities; mcplab's own without one) in the device
/// the flags name, with the flags' theme, locale, zone and display mode; `--csp permissive`
/// and `--openai-shim` apply on top.
fn conditions(
    args: &RenderArgs,
    device: DevicePreset,
    profile: Option<&AppHostProfile>,
) -> HostConditions {
    let viewer = Viewer {
        theme: match args.theme {
            RenderTheme::Light => Theme::Light,
            RenderTheme::Dark => Theme::Dark,
        },
        locale: args.locale.clone(),
        time_zone: args.timezone.clone(),
    };
    // The flags decide what the viewer would: the profile's theme, locale and zone give way.
    let profile = AppHostProfile {
        theme: ThemeChoice::System,
        locale: None,
        time_zone: None,
        ..profile.cloned().unwrap_or_default()
    };
    let mut c = HostConditions::for_app_host(&profile, &viewer).with_device(device);
    c.display_mode = Some(display_mode(args.display_mode));
    if args.csp == CspMode::Permissive {
        c.csp_mode = HostCspMode::Permissive;
    }
    c.openai_shim |= args.openai_shim;
    c
}

fn display_mode(m: DisplayMode) -> HostDisplayMode {
    match m {
        DisplayMode::Inline => HostDisplayMode::Inline,
        DisplayMode::Fullscreen => HostDisplayMode::Fullscreen,
        DisplayMode::Pip => HostDisplayMode::Pip,
    }
}

/// `<out>.json`.
fn default_report_path(out: &Path) -> PathBuf {
    let mut p = out.as_os_str().to_owned();
    p.push(".json");
    PathBuf::from(p)
}

async fn render_app(args: RenderArgs, settings: &Settings, data: &DataDir) -> Result<(), Failure> {
    let device = device(&args)?;
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
    device: DevicePreset,
    timeout_ms: Option<u64>,
    chromium: &Path,
    profile: Option<&AppHostProfile>,
) -> Result<(AppRenderSpec, Rendered), Failure> {
    let tools = session.list_all(Listing::Tools).await?;
    let tool = headless::app_tool(&tools, &args.tool).map_err(headless_failure)?;
    let arguments = tool_args::build(args.args.as_deref(), &args.pairs, tool.get("inputSchema"))?;
    let conditions = conditions(args, device, profile);
    let spec = AppRenderSpec {
        timeout_ms,
        ..AppRenderSpec::new(&config.name, &args.tool, arguments, conditions)
    };
    let api = LoopbackApi::start(session.manager().clone(), std::slice::from_ref(config))
        .await
        .map_err(headless_failure)?;
    let rendered = tokio::select! {
        r = api.render(chromium, &spec) => r.map_err(render_failure),
        // Dropping the render stops Chromium (its guard kills the process group).
        _ = session.interrupted.cancelled() => Err(Failure::silent(EXIT_INTERRUPTED)),
    };
    api.stop().await;
    Ok((spec, rendered?))
}

/// A headless set-up failure with the advice that fits this binary.
fn headless_failure(e: HeadlessError) -> Failure {
    match e {
        HeadlessError::NoSuchTool(_) => Failure::usage(format!("{e} (see `mcplab tools list`)")),
        HeadlessError::NoUi(_) | HeadlessError::Listen { .. } | HeadlessError::Store(_) => {
            Failure::usage(e.to_string())
        }
        HeadlessError::Render(e) => render_failure(e),
    }
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
    match mcplab_render::verdict(&report) {
        None => Ok(()),
        Some(why) => Err(Failure::call(why)),
    }
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
    fn the_report_goes_beside_the_png_by_default() {
        assert_eq!(
            default_report_path(Path::new("out/shot.png")),
            PathBuf::from("out/shot.png.json")
        );
    }
}
