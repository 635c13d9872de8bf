//! The headless renderer for MCP Apps: starts the given Chromium (the caller finds it; this
//! module reads no environment) with its sandbox when the machine allows it, drives it over
//! the DevTools pipe, opens the URL it is handed (mcplab's sign-in with a one-time code, then
//! the render page `#/render/<id>`: the caller registered the spec server-side) in an
//! emulated viewport, waits for the page's `window.__mcplabRenderReport`, and screenshots the
//! app frame. The page does the MCP work through the normal API; this module only drives the
//! browser and adds what the page cannot see itself (errors of the top page, whether
//! Chromium's sandbox was on). It does not start servers or write files.
//!
//! Chromium's page-level locale and time-zone overrides do not reach the app's cross-origin
//! frame, so the app gets them as in the live playground: its frame carries the emulated
//! `color-scheme` and the environment shim sets locale and time zone. Chromium is stopped
//! (group killed, profile removed) also on errors, timeouts and Ctrl-C; `mcplab apps render`
//! exits 1 when the report says the app did not initialize, threw, or its tool call failed.
//!
//! # Where things are
//!
//! - `crates/mcplab-render/src/`: The headless app renderer (crate `mcplab-render`; a leaf):
//!   `lib.rs` (`render(chromium, url, spec)`: starts Chromium with its sandbox, once more with
//!   `--no-sandbox` when it exits at start — said in the report's `chromiumSandbox`/`warnings`),
//!   `chromium.rs` (starts the Chromium binary it is handed, headless, throwaway profile, own
//!   process group, `--remote-debugging-pipe` on fds 3/4 through `command-fds`; kills the group and
//!   removes the profile on close or drop), `cdp.rs` (minimal DevTools client over that pipe,
//!   NUL-delimited JSON with a message cap, flat sessions, per-command deadlines), `page.rs`
//!   (viewport/touch/colour-scheme/locale/time-zone emulation, opens the URL it is given, awaits
//!   `window.__mcplabRenderReport`, screenshot clipped to `[data-testid="render-app"]`, top-page
//!   console errors and exceptions as `pageErrors`).

mod cdp;
mod chromium;
mod page;
mod verdict;

use std::path::{Path, PathBuf};
use std::time::Duration;

use mcplab_protocol::api::AppRenderSpec;
use serde_json::{Value, json};

pub use cdp::{Cdp, CdpEvent};
pub use chromium::{CHROMIUM_NAMES, Chromium, find_chromium, flags as chromium_flags};
pub use verdict::verdict;

/// How long the page may take when the spec says nothing (as documented on `AppRenderSpec`).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(20);
const LAUNCH_TIMEOUT: Duration = Duration::from_secs(20);

/// A finished render: the PNG of the app frame and the page's report (plus `pageErrors`).
#[derive(Debug, Clone)]
pub struct Rendered {
    pub png: Vec<u8>,
    pub report: Value,
}

#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// The edges say how to give another one (a flag, a restart of `serve`).
    #[error("Chromium not found at {}", path.display())]
    ChromiumNotFound { path: PathBuf },
    #[error("could not start Chromium ({}): {message}", path.display())]
    Launch { path: PathBuf, message: String },
    #[error("the DevTools connection to Chromium failed: {0}")]
    Cdp(String),
    #[error("Chromium refused `{method}`: {message}")]
    Command { method: String, message: String },
    #[error("Chromium did not answer `{method}` within {secs:.0} s")]
    CommandTimeout { method: String, secs: f64 },
    #[error("the render page did not load: {0}")]
    Navigation(String),
    /// The edges say how to rebuild the web UI.
    #[error(
        "the page published no render report within {secs:.0} s: the web UI served by this \
         binary has no render page"
    )]
    NoReport { secs: f64 },
    #[error(
        "the render page's report did not settle within {secs:.0} s (the page should have \
         reported its own timeout first)"
    )]
    ReportTimeout { secs: f64 },
    #[error("the render page failed: {0}")]
    Page(String),
}

/// Renders `spec` with the Chromium at `chromium`, opening `url` (a sign-in URL that leads to
/// the render page for `spec`; it travels over the DevTools pipe, never on a command line).
/// Chromium is stopped and its profile removed before this returns, also on errors (and if
/// the future is dropped). The report says whether Chromium's sandbox was on
/// (`chromiumSandbox`) and, when it could not be, why (`warnings`).
pub async fn render(
    chromium: &Path,
    url: &str,
    spec: &AppRenderSpec,
) -> Result<Rendered, RenderError> {
    let timeout = spec
        .timeout_ms
        .map(Duration::from_millis)
        .unwrap_or(DEFAULT_TIMEOUT);
    let (browser, cdp, warning) = start(chromium).await?;
    let rendered = page::render(&cdp, url, spec, timeout).await;
    // Polite first; `close` kills the process group anyway.
    let _ = cdp
        .call(
            "Browser.close",
            Value::Object(Default::default()),
            None,
            Duration::from_secs(2),
        )
        .await;
    drop(cdp);
    browser.close().await;
    let mut rendered = rendered?;
    if let Some(obj) = rendered.report.as_object_mut() {
        obj.insert("chromiumSandbox".into(), json!(warning.is_none()));
        if let Some(w) = warning {
            obj.insert("warnings".into(), json!([w]));
        }
    }
    Ok(rendered)
}

/// Starts Chromium with its sandbox; when it cannot start that way (e.g. as root, or without
/// user namespaces), once more with `--no-sandbox`, returning why as a warning.
async fn start(path: &Path) -> Result<(Chromium, Cdp, Option<String>), RenderError> {
    match start_once(path, true).await {
        Ok((browser, cdp)) => Ok((browser, cdp, None)),
        Err(StartFailure::Exited(why)) => {
            let (browser, cdp) = start_once(path, false)
                .await
                .map_err(|f| f.into_error(path))?;
            let warning = format!(
                "Chromium could not start with its sandbox ({}), so this render ran with \
                 --no-sandbox: the app's HTML was not isolated from this user's account by the \
                 OS (run mcplab as a normal user, not root, to keep the sandbox)",
                why.lines().next().unwrap_or("no reason given")
            );
            Ok((browser, cdp, Some(warning)))
        }
        Err(other) => Err(other.into_error(path)),
    }
}

enum StartFailure {
    /// Chromium exited before answering (the sandbox may be why): retry without it.
    Exited(String),
    /// It is there but does not answer, or could not be started at all.
    Fatal(RenderError),
}

impl StartFailure {
    fn into_error(self, path: &Path) -> RenderError {
        match self {
            Self::Exited(message) => RenderError::Launch {
                path: path.to_owned(),
                message,
            },
            Self::Fatal(e) => e,
        }
    }
}

/// One start: spawn, then the first command over the pipe proves Chromium is up.
async fn start_once(path: &Path, sandbox: bool) -> Result<(Chromium, Cdp), StartFailure> {
    let mut browser = Chromium::launch(path, sandbox).map_err(StartFailure::Fatal)?;
    let Some((to_browser, from_browser)) = browser.take_pipe() else {
        return Err(StartFailure::Fatal(RenderError::Cdp(
            "the DevTools pipe was already taken".into(),
        )));
    };
    let cdp = Cdp::over_pipe(to_browser, from_browser).map_err(StartFailure::Fatal)?;
    let hello = cdp
        .call("Browser.getVersion", json!({}), None, LAUNCH_TIMEOUT)
        .await;
    match hello {
        Ok(_) => Ok((browser, cdp)),
        Err(_) => {
            drop(cdp);
            let (exited, why) = browser.failure().await;
            browser.close().await;
            if exited {
                Err(StartFailure::Exited(why))
            } else {
                Err(StartFailure::Fatal(RenderError::Launch {
                    path: path.to_owned(),
                    message: format!(
                        "{why} within {} s on the DevTools pipe",
                        LAUNCH_TIMEOUT.as_secs()
                    ),
                }))
            }
        }
    }
}

/// Width and height from a PNG's IHDR chunk, or `None` when `png` is not a PNG.
pub fn png_size(png: &[u8]) -> Option<(u32, u32)> {
    const SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";
    if png.len() < 24 || &png[..8] != SIGNATURE || &png[12..16] != b"IHDR" {
        return None;
    }
    let width = u32::from_be_bytes(png[16..20].try_into().ok()?);
    let height = u32::from_be_bytes(png[20..24].try_into().ok()?);
    Some((width, height))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chromium_gets_devtools_over_a_pipe_and_keeps_its_sandbox_unless_told() {
        let sandboxed = chromium_flags(true);
        assert!(sandboxed.contains(&"--remote-debugging-pipe"));
        assert!(
            !sandboxed
                .iter()
                .any(|f| f.starts_with("--remote-debugging-port"))
        );
        assert!(!sandboxed.contains(&"--no-sandbox"));
        assert!(chromium_flags(false).contains(&"--no-sandbox"));
    }

    #[test]
    fn png_size_reads_ihdr() {
        let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
        png.extend(430u32.to_be_bytes());
        png.extend(612u32.to_be_bytes());
        assert_eq!(png_size(&png), Some((430, 612)));
        assert_eq!(png_size(b"GIF89a"), None);
    }
}
