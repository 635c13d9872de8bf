//! The headless renderer for MCP Apps: starts the given Chromium (the caller finds it; this
//! module reads no environment), opens mcplab's own render page (`/#/render/<spec>`, signed
//! in through `/auth?token=…&next=…`) in an emulated viewport, waits for the page's
//! `window.__mcplabRenderReport`, and screenshots the app frame. The page does the MCP work
//! through the normal API; this module only drives the browser and adds what the page cannot
//! see itself (errors of the top page). It does not start servers or write files.

mod cdp;
mod chromium;
mod page;

use std::path::{Path, PathBuf};
use std::time::Duration;

use base64::Engine;
use mcplab_protocol::api::AppRenderSpec;
use serde_json::Value;

pub use cdp::{Cdp, CdpEvent};
pub use chromium::Chromium;

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
    #[error(
        "Chromium not found at {} — install the `chromium` package or pass --chromium PATH \
         (or set MCPLAB_CHROMIUM)",
        path.display()
    )]
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
    #[error(
        "the page published no render report within {secs:.0} s: the web UI served by this \
         binary has no render page (rebuild it with `npm --prefix web run build`, then mcplab)"
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

/// Renders `spec` with the Chromium at `chromium` against the mcplab instance at `origin`
/// (e.g. `http://127.0.0.1:6274`), signing in with its launch `token`. Chromium is stopped and
/// its profile removed before this returns, also on errors (and if the future is dropped).
pub async fn render(
    chromium: &Path,
    origin: &str,
    token: &str,
    spec: &AppRenderSpec,
) -> Result<Rendered, RenderError> {
    let timeout = spec
        .timeout_ms
        .map(Duration::from_millis)
        .unwrap_or(DEFAULT_TIMEOUT);
    let browser = Chromium::launch(chromium, LAUNCH_TIMEOUT).await?;
    let url = render_url(origin, token, spec);
    let result = async {
        let cdp = Cdp::connect(browser.ws_url(), Duration::from_secs(10)).await?;
        let rendered = page::render(&cdp, &url, spec, timeout).await;
        // Polite first; `close` kills the process group anyway.
        let _ = cdp
            .call(
                "Browser.close",
                Value::Object(Default::default()),
                None,
                Duration::from_secs(2),
            )
            .await;
        rendered
    }
    .await;
    browser.close().await;
    result
}

/// `<origin>/auth?token=…&next=/#/render/<base64url(JSON of spec)>`: signs in, then opens the
/// render page.
pub fn render_url(origin: &str, token: &str, spec: &AppRenderSpec) -> String {
    let json = serde_json::to_vec(spec).unwrap_or_default();
    let encoded = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(json);
    let next = format!("/#/render/{encoded}");
    format!(
        "{}/auth?token={}&next={}",
        origin.trim_end_matches('/'),
        percent_encode(token),
        percent_encode(&next)
    )
}

/// Percent-encodes everything but RFC 3986 unreserved characters.
fn percent_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len() * 3);
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
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
    use serde_json::json;

    #[test]
    fn the_url_signs_in_and_carries_the_spec_as_base64url_json() {
        let spec = AppRenderSpec {
            server: "demo".into(),
            tool: "show_counter_app".into(),
            arguments: json!({"q": "a/b?c"}),
            conditions: json!({"theme": "dark"}),
            width: 430,
            height: 932,
            timeout_ms: None,
        };
        let url = render_url("http://127.0.0.1:9/", "tok", &spec);
        let next = url
            .strip_prefix("http://127.0.0.1:9/auth?token=tok&next=%2F%23%2Frender%2F")
            .expect(&url);
        assert!(
            next.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        );
        let decoded = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(next)
            .unwrap();
        let back: AppRenderSpec = serde_json::from_slice(&decoded).unwrap();
        assert_eq!(back, spec);
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
