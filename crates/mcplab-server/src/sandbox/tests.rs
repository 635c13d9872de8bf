use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use tower::ServiceExt;

use super::*;

/// One app's origin (a valid label on the sandbox port).
const APP: &str = "abcdefghij012345.localhost:6275";

fn cfg() -> SandboxConfig {
    SandboxConfig::loopback(6274, 6275)
}

async fn get(path: &str, host: &str) -> (StatusCode, HeaderMap, String) {
    let response = sandbox_router(cfg())
        .oneshot(
            Request::get(path)
                .header(header::HOST, host)
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    let status = response.status();
    let headers = response.headers().clone();
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .unwrap();
    (
        status,
        headers,
        String::from_utf8_lossy(&bytes).into_owned(),
    )
}

fn csp_of(headers: &HeaderMap) -> String {
    headers[header::CONTENT_SECURITY_POLICY]
        .to_str()
        .unwrap()
        .to_owned()
}

#[tokio::test]
async fn undeclared_csp_gets_the_restrictive_default_and_only_the_host_may_frame_it() {
    let (status, headers, body) = get("/mcp-app-proxy.html", APP).await;
    assert_eq!(status, StatusCode::OK);
    let csp = csp_of(&headers);
    assert!(csp.starts_with("default-src 'none'"), "{csp}");
    assert!(csp.contains("connect-src 'none'"), "{csp}");
    assert!(csp.contains("form-action 'none'"), "{csp}");
    // Only the UI on 127.0.0.1 may frame it: not localhost (the apps' site), not the app itself.
    assert!(
        csp.ends_with("; frame-ancestors http://127.0.0.1:6274"),
        "{csp}"
    );
    assert_eq!(headers[header::CACHE_CONTROL], "no-store");
    assert!(body.contains(r#"var HOSTS = ["http://127.0.0.1:6274"];"#));
}

#[tokio::test]
async fn declared_domains_are_sanitized_again() {
    let declared = r#"{"connectDomains":["https://api.example.com","https://evil.example; script-src *"],"resourceDomains":["https://cdn.example.com"]}"#;
    let path = format!("/mcp-app-proxy.html?csp={}", url_encode(declared));
    let (status, headers, _) = get(&path, APP).await;
    assert_eq!(status, StatusCode::OK);
    let csp = csp_of(&headers);
    assert!(
        csp.contains("connect-src 'self' https://api.example.com;"),
        "{csp}"
    );
    assert!(
        csp.contains("script-src 'self' 'unsafe-inline' https://cdn.example.com;"),
        "{csp}"
    );
    assert!(!csp.contains("evil"), "{csp}");
}

#[tokio::test]
async fn permissive_mode_and_bad_input() {
    let (_, headers, _) = get("/mcp-app-proxy.html?mode=permissive", APP).await;
    assert!(csp_of(&headers).starts_with("default-src * "));
    let (status, _, body) = get("/mcp-app-proxy.html?csp=%7Bnot", APP).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body.contains("not JSON"), "{body}");
}

#[tokio::test]
async fn the_sandbox_serves_nothing_else_and_checks_the_host() {
    for path in ["/api/servers", "/", "/index.html", "/auth?token=x"] {
        let (status, _, _) = get(path, APP).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
    }
    for host in [
        "evil.example:6275",
        "127.0.0.1:6274",
        "127.0.0.1:6275",
        "localhost:6275",
        "short.localhost:6275",
        "abcdefghij012345.localhost:6274",
    ] {
        let (status, _, _) = get("/mcp-app-proxy.html", host).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{host}");
    }
}

#[tokio::test]
async fn the_mcp_ui_proxy_frames_only_the_given_origin() {
    let (status, headers, _) = get(
        "/mcp-ui-proxy.html?url=https%3A%2F%2Fexample.com%2Fpage%3Fa%3D1",
        APP,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert!(csp_of(&headers).contains("frame-src https://example.com;"));
    let (status, _, _) = get("/mcp-ui-proxy.html?url=javascript%3Aalert(1)", APP).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (_, headers, _) = get("/mcp-ui-proxy.html?contentType=rawhtml", APP).await;
    assert!(csp_of(&headers).contains("connect-src 'none'"));
}

#[tokio::test]
async fn nothing_frames_or_declares_mcplab_itself() {
    // A text/uri-list naming the UI or another app's origin is refused, permissive or not.
    for url in [
        "http%3A%2F%2F127.0.0.1%3A6274%2F",
        "http%3A%2F%2Flocalhost%3A6274%2F%23%2Fservers",
        "http%3A%2F%2Fzyxwvutsrq987654.localhost%3A6275%2Fmcp-app-proxy.html",
    ] {
        for mode in ["", "&mode=permissive"] {
            let (status, _, body) = get(&format!("/mcp-ui-proxy.html?url={url}{mode}"), APP).await;
            assert_eq!(status, StatusCode::FORBIDDEN, "{url}{mode}");
            assert!(body.contains("mcplab"), "{body}");
        }
    }
    // Declared domains naming mcplab are dropped again when the page is built.
    let declared = r#"{"frameDomains":["http://127.0.0.1:6274"],"resourceDomains":["http://*.localhost:6275","https://cdn.example"]}"#;
    let path = format!("/mcp-app-proxy.html?csp={}", url_encode(declared));
    let (_, headers, _) = get(&path, APP).await;
    let csp = csp_of(&headers);
    assert!(csp.contains("frame-src 'none'"), "{csp}");
    assert!(
        csp.contains("img-src 'self' data: https://cdn.example;"),
        "{csp}"
    );
    assert!(!csp.contains("*.localhost"), "{csp}");
}

fn url_encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}
