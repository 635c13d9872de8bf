//! Attacks on the HTTP edge (issue 11, review findings 1, 12, 13, 14), in process with
//! `router(state).oneshot(...)`: what the server answers is the verdict.

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use mcplab_protocol::api::AppRenderSpec;
use mcplab_server::{AppState, router};
use serde_json::{Value, json};
use tower::ServiceExt;

use crate::router_support::{self, HOST, TOKEN, authed, send_request, state};

#[tokio::test]
async fn a_request_with_only_cookies_is_refused_even_with_same_origin_headers() {
    let app = router(state());
    let request = Request::get("/api/servers")
        .header(header::HOST, HOST)
        .header(header::ORIGIN, format!("http://{HOST}"))
        .header("sec-fetch-site", "same-origin")
        .header("sec-fetch-mode", "cors")
        .header(
            header::COOKIE,
            format!("mcplab_token={TOKEN}; session={TOKEN}"),
        )
        .body(Body::empty())
        .unwrap();
    let (status, body, _) = send_request(&app, request).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    assert_eq!(body["code"], "unauthorized");
}

#[tokio::test]
async fn a_request_with_two_host_headers_is_refused() {
    let app = router(state());
    for hosts in [[HOST, "evil.example"], ["evil.example", HOST]] {
        let request = Request::get("/api/servers")
            .header(header::HOST, hosts[0])
            .header(header::HOST, hosts[1])
            .header(header::AUTHORIZATION, format!("Bearer {TOKEN}"))
            .body(Body::empty())
            .unwrap();
        let (status, body, _) = send_request(&app, request).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{hosts:?}: {body}");
    }
}

fn post_json(path: &str, body: Value) -> Request<Body> {
    Request::post(path)
        .header(header::HOST, HOST)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_string()))
        .unwrap()
}

fn get(path: &str, bearer: Option<&str>) -> Request<Body> {
    let b = Request::get(path).header(header::HOST, HOST);
    let b = match bearer {
        Some(t) => b.header(header::AUTHORIZATION, format!("Bearer {t}")),
        None => b,
    };
    b.body(Body::empty()).unwrap()
}

/// A fresh login code, minted the way `mcplab open` does (with the launch secret).
async fn login_code(app: &axum::Router) -> String {
    let request = Request::post("/api/login-codes")
        .header(header::HOST, HOST)
        .header(header::AUTHORIZATION, format!("Bearer {TOKEN}"))
        .body(Body::empty())
        .unwrap();
    let (status, body, _) = send_request(app, request).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let code = body["code"].as_str().unwrap().to_owned();
    assert_eq!(body["url"], format!("http://{HOST}/auth?code={code}"));
    assert_eq!(body["expiresInSecs"], 120);
    code
}

async fn body_text(app: &axum::Router, request: Request<Body>) -> (StatusCode, String) {
    let resp = app.clone().oneshot(request).await.unwrap();
    assert!(
        resp.headers().get(header::SET_COOKIE).is_none(),
        "no cookie is ever set"
    );
    let status = resp.status();
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    (status, String::from_utf8_lossy(&bytes).into_owned())
}

/// The sign-in lifecycle: a code opens the sign-in page, is exchanged once for a session
/// secret that opens the API, and is refused afterwards with what to do. No cookie anywhere.
#[tokio::test]
async fn a_login_code_signs_in_once_and_never_sets_a_cookie() {
    let app = router(state());
    let code = login_code(&app).await;
    let (status, _) = body_text(&app, get(&format!("/auth?code={code}"), None)).await;
    assert_eq!(status, StatusCode::OK, "the sign-in page");

    let exchange = |code: &str| {
        post_json(
            "/api/session",
            json!({"code": code, "next": "/#/render/abc"}),
        )
    };
    let (status, granted, headers) = send_request(&app, exchange(&code)).await;
    assert_eq!(status, StatusCode::OK, "{granted}");
    assert!(headers.get(header::SET_COOKIE).is_none());
    assert_eq!(granted["next"], "/#/render/abc");
    let secret = granted["secret"].as_str().unwrap();
    assert_ne!(secret, TOKEN, "the browser never gets the launch secret");
    let (status, _, _) = send_request(&app, get("/api/servers", Some(secret))).await;
    assert_eq!(status, StatusCode::OK);

    // Used: the exchange and the page both refuse, and say what to do.
    let (status, body, _) = send_request(&app, exchange(&code)).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(body["code"], "login_code_invalid");
    let (status, page) = body_text(&app, get(&format!("/auth?code={code}"), None)).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert!(
        page.contains("login-refused") && page.contains("newest URL"),
        "{page}"
    );
    assert!(page.contains("mcplab open"), "{page}");
    // The old link shape, with the launch secret, signs nobody in either.
    let (status, _) = body_text(&app, get(&format!("/auth?token={TOKEN}"), None)).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    // A login code is not a bearer.
    let fresh = login_code(&app).await;
    let (status, _, _) = send_request(&app, get("/api/servers", Some(&fresh))).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

/// Review finding 12: `next=/%09/evil.example` landed the browser on another host.
#[tokio::test]
async fn next_with_a_control_character_stays_on_this_origin() {
    let app = router(state());
    for next in [
        "/\t/evil.example/x",
        "/\r\n/evil.example",
        "/\u{7f}/evil.example",
        "/ /evil.example",
        "//evil.example",
        "/\\evil.example",
        "https://evil.example/",
    ] {
        let code = login_code(&app).await;
        let (status, granted, _) = send_request(
            &app,
            post_json("/api/session", json!({"code": code, "next": next})),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{granted}");
        assert_eq!(granted["next"], "/", "{next:?}");
    }
}

/// `PUT /api/llm/providers/mine` with `body`, signed in.
async fn put_mine(app: &axum::Router, body: Value) -> (StatusCode, Value) {
    authed(app, "PUT", "/api/llm/providers/mine", Some(body)).await
}

/// The stored provider `mine`, if there is one.
fn mine(st: &AppState) -> Option<mcplab_llm::ProviderConfig> {
    st.store
        .provider_configs::<mcplab_llm::ProviderConfig>()
        .unwrap()
        .into_iter()
        .find(|p| p.id == "mine")
}

#[tokio::test]
async fn changing_a_providers_base_url_drops_its_stored_key() {
    let st = state();
    let app = router(st.clone());
    let key_of = |st: &AppState| mine(st).and_then(|p| p.api_key);
    let first = json!({"kind": "openai_compatible", "baseUrl": "http://127.0.0.1:9/v1", "apiKey": "sk-first"});
    let (s, v) = put_mine(&app, first).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(key_of(&st).as_deref(), Some("sk-first"));
    // Same base URL, no key: the stored key stays (editing the model list).
    let same =
        json!({"kind": "openai_compatible", "baseUrl": "http://127.0.0.1:9/v1", "models": ["m"]});
    put_mine(&app, same).await;
    assert_eq!(key_of(&st).as_deref(), Some("sk-first"));
    // Another host without the key: the key must not follow the requests there.
    let moved = json!({"kind": "openai_compatible", "baseUrl": "http://evil.example/v1"});
    let (s, v) = put_mine(&app, moved).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(key_of(&st), None, "the key was dropped");
    // Entered again with the new URL, it is kept.
    let again = json!({"kind": "openai_compatible", "baseUrl": "http://127.0.0.1:10/v1", "apiKey": "sk-second"});
    put_mine(&app, again).await;
    assert_eq!(key_of(&st).as_deref(), Some("sk-second"));
}

#[tokio::test]
async fn a_password_in_a_base_url_is_masked_and_kept_when_saved_back() {
    // Security review N4: `GET /api/llm/providers` sent the password to the browser; the
    // Settings form sends back what it was shown.
    let st = state();
    let app = router(st.clone());
    let stored = |st: &AppState| mine(st).expect("provider mine is stored");
    let real = "http://proxyuser:PROXYPASS-secret@127.0.0.1:9/v1";
    let first = json!({"kind": "openai_compatible", "baseUrl": real, "apiKey": "sk-first-0123", "models": ["m"]});
    let (s, saved) = put_mine(&app, first).await;
    assert_eq!(s, StatusCode::OK, "{saved}");
    let (s, list, _) = send_request(&app, get("/api/llm/providers", Some(TOKEN))).await;
    assert_eq!(s, StatusCode::OK);
    for answer in [&saved, &list] {
        assert!(!answer.to_string().contains("PROXYPASS"), "{answer}");
    }
    let shown = list
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == "mine")
        .unwrap()["baseUrl"]
        .clone();
    assert_eq!(shown, "http://proxyuser:****@127.0.0.1:9/v1");
    // Saved back as shown (another model, no key): the password and the key stay.
    let again = json!({"kind": "openai_compatible", "baseUrl": shown, "models": ["m2"]});
    let (s, v) = put_mine(&app, again).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(stored(&st).base_url.as_deref(), Some(real));
    assert_eq!(stored(&st).api_key.as_deref(), Some("sk-first-0123"));
    assert_eq!(stored(&st).models, ["m2"]);
    // The masked password never moves to another host.
    let moved =
        json!({"kind": "openai_compatible", "baseUrl": "http://proxyuser:****@evil.example/v1"});
    let (s, v) = put_mine(&app, moved).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    assert!(v.to_string().contains("type the password again"), "{v}");
    assert_eq!(stored(&st).base_url.as_deref(), Some(real));
}

/// Review finding 3: a render spec comes only from the server, once. The render URL carries a
/// login code and an id, never the spec or the launch secret.
#[tokio::test]
async fn a_render_spec_is_handed_out_once_by_id() {
    let st = state();
    let app = router(st.clone());
    let spec = AppRenderSpec {
        server: "demo".into(),
        tool: "show_counter_app".into(),
        arguments: json!({"marker": "m"}),
        conditions: Default::default(),
        width: 100,
        height: 100,
        timeout_ms: None,
        without_call: false,
    };
    let url = st.render_sign_in_url("http://127.0.0.1:6274", spec.clone());
    assert!(!url.contains(TOKEN) && !url.contains("marker"), "{url}");
    let query: std::collections::HashMap<String, String> = url::Url::parse(&url)
        .unwrap()
        .query_pairs()
        .into_owned()
        .collect();
    let id = query["next"]
        .strip_prefix("/#/render/")
        .expect(&url)
        .to_owned();
    // The code in the URL signs Chromium in and sends it to the render page.
    let (status, granted, _) = send_request(
        &app,
        post_json(
            "/api/session",
            json!({"code": query["code"], "next": query["next"]}),
        ),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(granted["next"], format!("/#/render/{id}"));
    let secret = granted["secret"].as_str().unwrap();

    let path = format!("/api/render-specs/{id}");
    let (status, _, _) = send_request(&app, get(&path, None)).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "the spec needs a bearer");
    let (status, got, _) = send_request(&app, get(&path, Some(secret))).await;
    assert_eq!(status, StatusCode::OK, "{got}");
    assert_eq!(got, json!(spec));
    let (status, again, _) = send_request(&app, get(&path, Some(secret))).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "single use: {again}");
    let (status, _, _) = send_request(
        &app,
        get(
            "/api/render-specs/abababababababababababababababab",
            Some(secret),
        ),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

/// Every main-origin response, the API's and the errors' included, defends the page.
#[tokio::test]
async fn every_main_origin_response_carries_the_defence_headers() {
    let st = state();
    st.sandbox
        .set(mcplab_server::sandbox::SandboxConfig::loopback(6274, 6275).origins())
        .unwrap();
    let app = router(st);
    for request in [
        get("/", None),
        get("/api/servers", None),
        get("/api/servers", Some(TOKEN)),
        get("/auth?code=nope", None),
        Request::get("/")
            .header(header::HOST, "evil.example")
            .body(Body::empty())
            .unwrap(),
    ] {
        let path = request.uri().to_string();
        let (_, _, headers) = send_request(&app, request).await;
        let csp = headers[header::CONTENT_SECURITY_POLICY].to_str().unwrap();
        assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        // Nothing inline: only this origin's scripts (eval for the schema validator).
        assert!(
            csp.contains("script-src 'self' 'unsafe-eval';"),
            "{path}: {csp}"
        );
        assert!(
            csp.contains("frame-src http://*.localhost:6275;"),
            "{path}: {csp}"
        );
        assert_eq!(headers[header::X_FRAME_OPTIONS], "DENY", "{path}");
        assert_eq!(headers[header::X_CONTENT_TYPE_OPTIONS], "nosniff", "{path}");
        assert_eq!(headers[header::REFERRER_POLICY], "no-referrer", "{path}");
    }
}

/// `mcplab serve --host 192.0.2.10` (DESIGN §3): the server also answers under that address —
/// its Host, and its Origin on a state-changing request —, still only with the session secret,
/// and no other name or port reaches it. The control: the loopback-only server refuses that
/// Host, so the allow-list entry is what opened it.
#[tokio::test]
async fn a_non_loopback_host_is_answered_under_its_own_name_only_and_still_needs_the_secret() {
    use mcplab_mcp::{ConnectionManager, ManagerOptions};
    use mcplab_server::Security;
    const LAN: &str = "192.0.2.10:6274";
    let request = |host: &str, origin: Option<&str>, bearer: bool| {
        let mut b = Request::post("/api/login-codes").header(header::HOST, host);
        if let Some(o) = origin {
            b = b.header(header::ORIGIN, o);
        }
        if bearer {
            b = b.header(header::AUTHORIZATION, format!("Bearer {TOKEN}"));
        }
        b.body(Body::empty()).unwrap()
    };
    let manager = ConnectionManager::new(ManagerOptions::default());
    let security = Security::new(TOKEN.into(), router_support::PORT, Some("192.0.2.10"));
    let lan = router(router_support::state_secured(
        manager,
        security,
        &Default::default(),
    ));
    let (status, body, _) =
        send_request(&lan, request(LAN, Some(&format!("http://{LAN}")), true)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, _, _) = send_request(&lan, request(HOST, None, true)).await;
    assert_eq!(status, StatusCode::OK, "loopback still answers");
    let (status, _, _) = send_request(&lan, request(LAN, None, false)).await;
    assert_eq!(
        status,
        StatusCode::UNAUTHORIZED,
        "the address opens nothing by itself"
    );
    for host in [
        "192.0.2.11:6274",
        "192.0.2.10:6275",
        "evil.example:6274",
        "192.0.2.10",
    ] {
        let (status, body, _) = send_request(&lan, request(host, None, true)).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "Host {host}: {body}");
    }
    for origin in [
        "http://192.0.2.11:6274",
        "http://evil.example",
        "https://192.0.2.10:6274",
    ] {
        let (status, body, _) = send_request(&lan, request(LAN, Some(origin), true)).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "Origin {origin}: {body}");
    }
    let loopback = router(state());
    let (status, _, _) = send_request(&loopback, request(LAN, None, true)).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
}
