//! A static scan of an app's HTML: which host requests it makes (MCP Apps bridge calls such
//! as `app.openLink(…)` or a raw `"ui/open-link"` request, `window.openai.*` calls), the
//! display modes it asks for, and the origins it loads scripts, styles, media, frames and
//! connections from; and the CSP domains the resource declares (`_meta.ui.csp`, or OpenAI's
//! `openai/widgetCSP`). A scan says what the code mentions, not what runs: the live render
//! measures that.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use regex::Regex;
use serde_json::Value;

/// What an app's HTML asks of its host.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Scan {
    /// MCP Apps host requests it makes (`ui/open-link`, `tools/call`, …).
    pub bridge: BTreeSet<&'static str>,
    /// `window.openai` members it uses (`callTool`, `openExternal`, …).
    pub window_openai: BTreeSet<String>,
    /// Display modes it asks for (`fullscreen`, `pip`, `inline`).
    pub display_modes: BTreeSet<String>,
    /// Absolute URLs it loads or connects to.
    pub external: Vec<External>,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct External {
    pub url: String,
    pub kind: ExternalKind,
}

/// What an external URL is loaded as (which CSP list must allow it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ExternalKind {
    Script,
    Style,
    Media,
    Frame,
    Connect,
}

/// MCP Apps SDK calls (`app.openLink(`) and raw request methods, with the request they make.
const BRIDGE: &[(&str, &str, &str)] = &[
    ("openLink", "ui/open-link", "ui/open-link"),
    ("downloadFile", "ui/download-file", "ui/download-file"),
    ("sendMessage", "ui/message", "ui/message"),
    (
        "updateModelContext",
        "ui/update-model-context",
        "ui/update-model-context",
    ),
    (
        "requestDisplayMode",
        "ui/request-display-mode",
        "ui/request-display-mode",
    ),
    ("callServerTool", "tools/call", "tools/call"),
    ("readServerResource", "resources/read", "resources/read"),
    ("listServerResources", "resources/list", "resources/list"),
    ("sendLog", "notifications/message", "notifications/message"),
    (
        "createSamplingMessage",
        "sampling/createMessage",
        "sampling/createMessage",
    ),
];

static OPENAI: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\bopenai\s*\??\.\s*([A-Za-z]+)").expect("regex"));
static MODE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?:requestDisplayMode|request-display-mode)[^)]{0,80}?mode["']?\s*:\s*["'](\w+)["']"#,
    )
    .expect("regex")
});
static TAGGED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?i)<(script|link|img|video|audio|source|iframe)\b[^>]*?\b(?:src|href)\s*=\s*["']((?:https?:)?//[^"']+)["']"#)
        .expect("regex")
});
static CONNECT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?:fetch|WebSocket|EventSource|\.open)\s*\(\s*(?:"[A-Z]+"\s*,\s*)?["'`]((?:https?|wss?):)?(//[^"'`\s]+)["'`]"#)
        .expect("regex")
});
static CSS_URL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?:@import\s+|url\(\s*)["']?(https?://[^"')\s]+)"#).expect("regex")
});

/// Scans an app's HTML.
pub(crate) fn scan(html: &str) -> Scan {
    let mut s = Scan::default();
    // The ext-apps SDK inlined in a bundle names every request it can make; only calls
    // through its methods count then.
    let sdk_inlined = html.contains("ui/resource-teardown") && html.contains("sendSizeChanged");
    for (method, raw, request) in BRIDGE {
        let call = format!(".{method}(");
        let called = html.contains(&call)
            || (!sdk_inlined
                && (html.contains(&format!("\"{raw}\"")) || html.contains(&format!("'{raw}'"))));
        if called {
            s.bridge.insert(request);
        }
    }
    for c in OPENAI.captures_iter(html) {
        s.window_openai.insert(c[1].to_owned());
    }
    for c in MODE.captures_iter(html) {
        s.display_modes.insert(c[1].to_owned());
    }
    for c in TAGGED.captures_iter(html) {
        let tag = c[1].to_ascii_lowercase();
        let kind = match tag.as_str() {
            "script" => ExternalKind::Script,
            "link" => ExternalKind::Style,
            "iframe" => ExternalKind::Frame,
            _ => ExternalKind::Media,
        };
        push(&mut s, absolute(&c[2]), kind);
    }
    for c in CONNECT.captures_iter(html) {
        let scheme = c.get(1).map_or("https:", |m| m.as_str());
        push(&mut s, format!("{scheme}{}", &c[2]), ExternalKind::Connect);
    }
    for c in CSS_URL.captures_iter(html) {
        push(&mut s, c[1].to_owned(), ExternalKind::Style);
    }
    s
}

fn absolute(url: &str) -> String {
    if url.starts_with("//") {
        format!("https:{url}")
    } else {
        url.to_owned()
    }
}

fn push(s: &mut Scan, url: String, kind: ExternalKind) {
    if !s.external.iter().any(|e| e.url == url && e.kind == kind) {
        s.external.push(External { url, kind });
    }
}

/// The CSP domains a resource declares.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Csp {
    /// Whether any CSP was declared at all (`_meta.ui.csp` or `openai/widgetCSP`).
    pub declared: bool,
    pub connect: Vec<String>,
    pub resource: Vec<String>,
    pub frame: Vec<String>,
}

/// The CSP a resource's `_meta` declares.
pub(crate) fn csp(meta: &Value) -> Csp {
    let list = |v: Option<&Value>| -> Vec<String> {
        v.and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect()
    };
    let mut out = Csp::default();
    if let Some(c) = meta.pointer("/ui/csp").filter(|c| c.is_object()) {
        out.declared = true;
        out.connect.extend(list(c.get("connectDomains")));
        out.resource.extend(list(c.get("resourceDomains")));
        out.frame.extend(list(c.get("frameDomains")));
    }
    if let Some(c) = meta.get("openai/widgetCSP").filter(|c| c.is_object()) {
        out.declared = true;
        out.connect.extend(list(c.get("connect_domains")));
        out.resource.extend(list(c.get("resource_domains")));
        out.frame.extend(list(c.get("frame_domains")));
    }
    out
}

/// Whether `url` is allowed for `kind` by the declared CSP.
pub(crate) fn allowed(csp: &Csp, e: &External) -> bool {
    let list = match e.kind {
        ExternalKind::Connect => &csp.connect,
        ExternalKind::Frame => &csp.frame,
        _ => &csp.resource,
    };
    let Ok(url) = url::Url::parse(&e.url) else {
        return false;
    };
    let host = url.host_str().unwrap_or_default();
    list.iter().any(|d| matches(d, url.scheme(), host))
}

/// A CSP source expression (`https://api.example.com`, `https://*.example.com`,
/// `example.com`) against a URL's scheme and host.
fn matches(domain: &str, scheme: &str, host: &str) -> bool {
    let (want_scheme, rest) = match domain.split_once("://") {
        Some((s, r)) => (Some(s), r),
        None => (None, domain),
    };
    let want_host = rest.split(['/', ':']).next().unwrap_or_default();
    let scheme_ok = want_scheme.is_none_or(|s| {
        s == scheme || (s == "https" && scheme == "wss") || (s == "http" && scheme == "ws")
    });
    let host_ok = match want_host.strip_prefix("*.") {
        Some(base) => host.ends_with(&format!(".{base}")),
        None => want_host == host || want_host == "*",
    };
    scheme_ok && host_ok
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn finds_bridge_calls_openai_calls_modes_and_origins() {
        let html = r#"<script src="https://cdn.example.com/a.js"></script>
            <link rel="stylesheet" href="//fonts.example.net/x.css">
            <script>app.openLink({url}); app.requestDisplayMode({ mode: "fullscreen" });
            window.openai?.callTool("x", {}); fetch("https://api.example.com/v1");
            new WebSocket('wss://live.example.com/s');</script>"#;
        let s = scan(html);
        assert!(s.bridge.contains("ui/open-link"));
        assert!(s.bridge.contains("ui/request-display-mode"));
        assert!(!s.bridge.contains("ui/message"));
        assert!(s.window_openai.contains("callTool"));
        assert!(s.display_modes.contains("fullscreen"));
        let urls: Vec<&str> = s.external.iter().map(|e| e.url.as_str()).collect();
        assert_eq!(
            urls,
            [
                "https://cdn.example.com/a.js",
                "https://fonts.example.net/x.css",
                "https://api.example.com/v1",
                "wss://live.example.com/s"
            ]
        );
    }

    #[test]
    fn an_inlined_sdk_counts_only_its_calls() {
        let sdk =
            r#"method:"ui/open-link" method:"ui/message" "ui/resource-teardown" sendSizeChanged"#;
        assert!(scan(sdk).bridge.is_empty());
        assert!(
            scan(&format!("{sdk} app.sendMessage(m)"))
                .bridge
                .contains("ui/message")
        );
        assert!(
            scan(r#"post({method: "ui/message"})"#)
                .bridge
                .contains("ui/message")
        );
    }

    #[test]
    fn csp_domains_allow_exact_hosts_and_wildcards() {
        let meta = json!({"ui": {"csp": {"connectDomains": ["https://api.example.com"], "resourceDomains": ["https://*.cdn.net"]}}});
        let c = csp(&meta);
        assert!(c.declared);
        let e = |url: &str, kind| External {
            url: url.into(),
            kind,
        };
        assert!(allowed(
            &c,
            &e("https://api.example.com/x", ExternalKind::Connect)
        ));
        assert!(allowed(
            &c,
            &e("wss://api.example.com/x", ExternalKind::Connect)
        ));
        assert!(!allowed(
            &c,
            &e("https://api.example.com/x", ExternalKind::Script)
        ));
        assert!(allowed(
            &c,
            &e("https://a.cdn.net/x.js", ExternalKind::Script)
        ));
        assert!(!allowed(
            &c,
            &e("https://cdn.net/x.js", ExternalKind::Script)
        ));
        let openai = csp(&json!({"openai/widgetCSP": {"connect_domains": ["https://x.io"]}}));
        assert!(openai.declared && openai.connect == ["https://x.io"]);
        assert!(!csp(&Value::Null).declared);
    }
}
