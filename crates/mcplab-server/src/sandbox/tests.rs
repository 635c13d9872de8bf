use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use tower::ServiceExt;

use super::*;

fn cfg() -> SandboxConfig {
    SandboxConfig::loopback(6274, 6275, None)
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
    let (status, headers, body) = get("/mcp-app-proxy.html", "127.0.0.1:6275").await;
    assert_eq!(status, StatusCode::OK);
    let csp = csp_of(&headers);
    assert!(csp.starts_with("default-src 'none'"), "{csp}");
    assert!(csp.contains("connect-src 'none'"), "{csp}");
    assert!(
        csp.ends_with("frame-ancestors 'self' http://127.0.0.1:6274 http://localhost:6274"),
        "{csp}"
    );
    assert_eq!(headers[header::CACHE_CONTROL], "no-store");
    assert!(body.contains(r#"var HOSTS = ["http://127.0.0.1:6274","http://localhost:6274"];"#));
}

#[tokio::test]
async fn declared_domains_are_sanitized_again() {
    let declared = r#"{"connectDomains":["https://api.example.com","https://evil.example; script-src *"],"resourceDomains":["https://cdn.example.com"]}"#;
    let path = format!("/mcp-app-proxy.html?csp={}", url_encode(declared));
    let (status, headers, _) = get(&path, "localhost:6275").await;
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
    let (_, headers, _) = get("/mcp-app-proxy.html?mode=permissive", "127.0.0.1:6275").await;
    assert!(csp_of(&headers).starts_with("default-src * "));
    let (status, _, body) = get("/mcp-app-proxy.html?csp=%7Bnot", "127.0.0.1:6275").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body.contains("not JSON"), "{body}");
}

#[tokio::test]
async fn the_sandbox_serves_nothing_else_and_checks_the_host() {
    for path in ["/api/servers", "/", "/index.html", "/auth?token=x"] {
        let (status, _, _) = get(path, "127.0.0.1:6275").await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
    }
    let (status, _, _) = get("/mcp-app-proxy.html", "evil.example:6275").await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _, _) = get("/mcp-app-proxy.html", "127.0.0.1:6274").await;
    assert_eq!(status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn the_mcp_ui_proxy_frames_only_the_given_origin() {
    let (status, headers, _) = get(
        "/mcp-ui-proxy.html?url=https%3A%2F%2Fexample.com%2Fpage%3Fa%3D1",
        "127.0.0.1:6275",
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert!(csp_of(&headers).contains("frame-src https://example.com;"));
    let (status, _, _) = get(
        "/mcp-ui-proxy.html?url=javascript%3Aalert(1)",
        "127.0.0.1:6275",
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (_, headers, _) = get("/mcp-ui-proxy.html?contentType=rawhtml", "127.0.0.1:6275").await;
    assert!(csp_of(&headers).contains("connect-src 'none'"));
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
