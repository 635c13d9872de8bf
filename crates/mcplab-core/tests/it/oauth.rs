//! OAuth end to end against the testkit's real authorization server and protected MCP server on
//! loopback: connections through the connection manager (dynamic registration, pre-registered
//! client, Client ID Metadata Document, OpenID configuration under an issuer path, the
//! 2025-03-26 fallback, refresh before expiry and on 401, step-up, the retry limit) and the
//! debugger's step-by-step runs, including broken setups and the fix each one reports.

use std::sync::Arc;
use std::time::Duration;

use mcplab_mcp::{ConnectionManager, ManagerOptions, McpError, RequestOptions};
use mcplab_oauth::{
    Clock, CredentialStore, DebugOptions, FlowOptions, MemoryCredentials, NonInteractiveAgent,
    OAuthError, OAuthHost, StepLog, debug_run,
};
use mcplab_protocol::oauth::{
    OAuthConfig, OAuthPhase, OAuthProbeTransport, OAuthRevision, OAuthStepKind, RegistrationMethod,
};
use mcplab_protocol::{FrameKind, ServerConfig, ServerTransport};
use mcplab_store::Store;
use mcplab_testkit::oauth::{MetadataMode, OAuthTestConfig, OAuthTestServer, PrmMode};
use serde_json::Value;

fn manager(store: Arc<dyn CredentialStore>) -> Arc<ConnectionManager> {
    let manager = ConnectionManager::new(ManagerOptions::default());
    let agent = Arc::new(NonInteractiveAgent::new());
    let host = OAuthHost::new(store, agent, "mcplab-test", "mcplab-test").unwrap();
    manager.set_oauth(host);
    manager
}

fn http(name: &str, url: &str, oauth: Option<OAuthConfig>) -> ServerConfig {
    ServerConfig {
        name: name.into(),
        transport: ServerTransport::Http {
            url: url.into(),
            headers: Default::default(),
            oauth,
        },
        timeout_ms: None,
        inherit_env: false,
        protocol: Default::default(),
    }
}

async fn call(manager: &ConnectionManager, name: &str, tool: &str) -> Result<Value, McpError> {
    let conn = manager.get(name)?;
    let params = serde_json::json!({"name": tool, "arguments": {}});
    conn.request("tools/call", Some(params), RequestOptions::default())
        .await
}

fn text_of(result: &Value) -> String {
    result["content"][0]["text"]
        .as_str()
        .unwrap_or("")
        .to_string()
}

#[tokio::test]
async fn dynamic_registration_flow_connects_and_reuses_stored_tokens() {
    let server = OAuthTestServer::start(OAuthTestConfig::default()).await;
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn CredentialStore> = Arc::new(Store::open(&dir.path().join("db")).unwrap());
    let m = manager(store.clone());
    m.connect(http("s", &server.mcp_url(), None)).await.unwrap();
    let r = call(&m, "s", "whoami").await.unwrap();
    assert!(text_of(&r).starts_with("client client-"), "{r}");

    let rec = server.records();
    assert_eq!(rec.register.len(), 1);
    let reg = &rec.register[0].body;
    assert_eq!(reg["client_name"], "mcplab-test");
    assert_eq!(reg["token_endpoint_auth_method"], "none");
    assert_eq!(rec.authorize.len(), 1);
    let q = &rec.authorize[0].params;
    assert_eq!(q["code_challenge_method"], "S256");
    assert_eq!(q["resource"], server.mcp_url());
    assert_eq!(q["scope"], "mcp:basic", "scopes_supported of the resource");
    assert_eq!(rec.token.len(), 1);
    assert_eq!(rec.token[0].params["grant_type"], "authorization_code");
    assert_eq!(rec.token[0].params["resource"], server.mcp_url());

    let stored = store
        .load_credentials("s", &server.mcp_url())
        .unwrap()
        .unwrap();
    assert_eq!(stored.client.method, RegistrationMethod::Dcr);
    assert!(stored.tokens.unwrap().refresh_token.is_some());

    // The flow's steps went to the traffic log as notes, secrets masked.
    let notes: Vec<String> = m
        .traffic()
        .snapshot("s")
        .frames
        .into_iter()
        .filter(|f| f.kind == FrameKind::Note)
        .map(|f| f.text)
        .collect();
    assert!(
        notes
            .iter()
            .any(|n| n.contains("oauth: Register the client")),
        "{notes:?}"
    );
    m.shutdown().await;

    // A new process with the same store does not sign in again.
    let again = manager(store);
    again
        .connect(http("s", &server.mcp_url(), None))
        .await
        .unwrap();
    call(&again, "s", "whoami").await.unwrap();
    assert_eq!(server.records().authorize.len(), 1);
    again.shutdown().await;
}

#[tokio::test]
async fn pre_registered_client_authenticates_with_basic() {
    let server = OAuthTestServer::start(OAuthTestConfig {
        dcr: false,
        clients: vec![("pre-client".into(), Some("pre:secret".into()))],
        token_auth_methods: vec!["client_secret_basic".into()],
        ..OAuthTestConfig::default()
    })
    .await;
    let m = manager(Arc::new(MemoryCredentials::default()));
    let oauth = OAuthConfig {
        client_id: Some("pre-client".into()),
        client_secret: Some("pre:secret".into()),
        ..OAuthConfig::default()
    };
    m.connect(http("s", &server.mcp_url(), Some(oauth)))
        .await
        .unwrap();
    assert!(text_of(&call(&m, "s", "whoami").await.unwrap()).contains("pre-client"));
    let rec = server.records();
    assert!(rec.register.is_empty());
    let auth = rec.token[0].authorization.clone().unwrap();
    assert!(auth.starts_with("Basic "), "{auth}");
    assert!(!rec.token[0].params.contains_key("client_secret"));
    m.shutdown().await;
}

#[tokio::test]
async fn client_id_metadata_document_url_is_the_client_id() {
    let server = OAuthTestServer::start(OAuthTestConfig {
        cimd: true,
        ..OAuthTestConfig::default()
    })
    .await;
    let m = manager(Arc::new(MemoryCredentials::default()));
    let cimd = "https://client.example.com/mcplab.json";
    let oauth = OAuthConfig {
        client_metadata_url: Some(cimd.into()),
        ..OAuthConfig::default()
    };
    m.connect(http("s", &server.mcp_url(), Some(oauth)))
        .await
        .unwrap();
    let rec = server.records();
    assert!(rec.register.is_empty(), "no dynamic registration");
    assert_eq!(rec.authorize[0].params["client_id"], cimd);
    assert_eq!(rec.token[0].params["client_id"], cimd);
    m.shutdown().await;
}

#[tokio::test]
async fn openid_configuration_under_an_issuer_path_from_well_known_metadata() {
    let server = OAuthTestServer::start(OAuthTestConfig {
        prm: PrmMode::WellKnownRoot,
        metadata: MetadataMode::OpenId,
        issuer_path: "/tenant1".into(),
        ..OAuthTestConfig::default()
    })
    .await;
    let m = manager(Arc::new(MemoryCredentials::default()));
    m.connect(http("s", &server.mcp_url(), None)).await.unwrap();
    let rec = server.records();
    assert_eq!(
        rec.metadata_requests,
        ["/tenant1/.well-known/openid-configuration"],
        "found after the two path-insertion URLs"
    );
    // The root metadata's resource is the origin, which covers /mcp: it is what is sent.
    assert_eq!(
        rec.authorize[0].params["resource"],
        server.mcp_url().trim_end_matches("/mcp")
    );
    m.shutdown().await;
}

#[tokio::test]
async fn servers_without_metadata_get_the_2025_03_26_default_endpoints() {
    let server = OAuthTestServer::start(OAuthTestConfig {
        prm: PrmMode::None,
        metadata: MetadataMode::Missing,
        ..OAuthTestConfig::default()
    })
    .await;
    let m = manager(Arc::new(MemoryCredentials::default()));
    m.connect(http("s", &server.mcp_url(), None)).await.unwrap();
    call(&m, "s", "whoami").await.unwrap();
    let rec = server.records();
    assert_eq!(rec.register.len(), 1);
    assert!(!rec.authorize[0].params.contains_key("resource"));
    assert!(!rec.authorize[0].params.contains_key("scope"));
    m.shutdown().await;
}

#[tokio::test]
async fn tokens_are_refreshed_on_401_and_before_they_expire() {
    let server = OAuthTestServer::start(OAuthTestConfig::default()).await;
    let m = manager(Arc::new(MemoryCredentials::default()));
    m.connect(http("s", &server.mcp_url(), None)).await.unwrap();
    server.revoke_access_tokens();
    call(&m, "s", "whoami").await.unwrap();
    let grants: Vec<String> = server
        .records()
        .token
        .iter()
        .map(|t| t.params["grant_type"].clone())
        .collect();
    assert_eq!(grants, ["authorization_code", "refresh_token"]);
    assert_eq!(server.records().authorize.len(), 1, "no second sign-in");
    m.shutdown().await;

    // An hour's token, and the host's clock moved past its end instead of waiting it out:
    // without the move nothing would expire during the test.
    let hour = OAuthTestServer::start(OAuthTestConfig {
        expires_in: 3600,
        ..OAuthTestConfig::default()
    })
    .await;
    let clock = Clock::adjustable();
    let m = ConnectionManager::new(ManagerOptions::default());
    let agent = Arc::new(NonInteractiveAgent::new());
    let store = Arc::new(MemoryCredentials::default());
    let host = OAuthHost::with_clock(store, agent, "mcplab-test", "mcplab-test", clock.clone());
    m.set_oauth(host.unwrap());
    m.connect(http("s", &hour.mcp_url(), None)).await.unwrap();
    call(&m, "s", "whoami").await.unwrap();
    assert_eq!(
        hour.records().token.len(),
        1,
        "a fresh token is used as it is"
    );
    clock.advance(Duration::from_secs(2 * 3600));
    call(&m, "s", "whoami").await.unwrap();
    let rec = hour.records();
    assert_eq!(
        rec.token.last().unwrap().params["grant_type"],
        "refresh_token"
    );
    // Refreshed before use: the expired token never reached the server (no 401 round).
    assert_eq!(rec.authorize.len(), 1);
    m.shutdown().await;
}

#[tokio::test]
async fn insufficient_scope_steps_up_with_the_union_of_scopes() {
    let server = OAuthTestServer::start(OAuthTestConfig {
        required_scopes: vec!["mcp:basic".into()],
        challenge_scope: true,
        prm_scopes: None,
        tool_scopes: vec![("write_note".into(), vec!["mcp:write".into()])],
        ..OAuthTestConfig::default()
    })
    .await;
    let m = manager(Arc::new(MemoryCredentials::default()));
    m.connect(http("s", &server.mcp_url(), None)).await.unwrap();
    let r = call(&m, "s", "write_note").await.unwrap();
    assert!(text_of(&r).contains("mcp:write"), "{r}");
    let scopes: Vec<String> = server
        .records()
        .authorize
        .iter()
        .map(|a| a.params["scope"].clone())
        .collect();
    assert_eq!(scopes, ["mcp:basic", "mcp:basic mcp:write"]);
    m.shutdown().await;
}

#[tokio::test]
async fn repeated_insufficient_scope_stops_at_the_retry_limit() {
    let server = OAuthTestServer::start(OAuthTestConfig {
        challenge_scope: true,
        impossible_scope: Some("mcp:admin".into()),
        open_methods: vec![
            "server/discover".into(),
            "initialize".into(),
            "notifications/initialized".into(),
        ],
        ..OAuthTestConfig::default()
    })
    .await;
    let m = manager(Arc::new(MemoryCredentials::default()));
    m.connect(http("s", &server.mcp_url(), None)).await.unwrap();
    let err = call(&m, "s", "whoami").await.unwrap_err().to_string();
    assert!(
        err.contains("insufficient_scope") && err.contains("fix:"),
        "{err}"
    );
    assert_eq!(server.records().authorize.len(), 3);
    m.shutdown().await;
}

async fn debug(server: &OAuthTestServer, flow: FlowOptions) -> (Result<(), OAuthError>, StepLog) {
    let log = StepLog::new();
    let http = mcplab_oauth::OAuthHttp::new("mcplab-test").unwrap();
    let opts = DebugOptions {
        url: server.mcp_url().parse().unwrap(),
        transport: OAuthProbeTransport::Http,
        flow,
    };
    let outcome = debug_run(&http, &NonInteractiveAgent::new(), &opts, &log).await;
    (outcome.map(|_| ()), log)
}

/// The fix the debugger's last step reports for a run against `server` that must fail.
async fn failed_fix(server: &OAuthTestServer, flow: FlowOptions) -> String {
    let (outcome, log) = debug(server, flow).await;
    assert!(outcome.is_err());
    log.steps()
        .pop()
        .unwrap()
        .fix
        .expect("the failed step says what to fix")
}

#[tokio::test]
async fn debugger_records_every_exchange_with_secrets_masked() {
    let server = OAuthTestServer::start(OAuthTestConfig::default()).await;
    let (outcome, log) = debug(&server, FlowOptions::default()).await;
    outcome.unwrap();
    let steps = log.steps();
    let http_titles: Vec<&str> = steps
        .iter()
        .filter(|s| s.kind == OAuthStepKind::Http)
        .map(|s| s.title.as_str())
        .collect();
    assert_eq!(
        http_titles,
        [
            "Send initialize without a token",
            "Fetch the protected resource metadata",
            "Fetch the OAuth authorization server metadata",
            "Register the client (RFC 7591)",
            "Fetch the authorization URL (non-interactive)",
            "Exchange the authorization code for tokens",
            "Send initialize with the access token",
        ]
    );
    assert_eq!(steps.last().unwrap().kind, OAuthStepKind::Done);
    let text = serde_json::to_string(&steps).unwrap();
    let rec = server.records();
    let code = &rec.token[0].params["code"];
    let verifier = &rec.token[0].params["code_verifier"];
    assert!(!text.contains(code.as_str()), "the code is masked");
    assert!(!text.contains(verifier.as_str()), "the verifier is masked");
    assert!(!text.contains("\"access-"), "no access token in full");
    assert!(
        text.contains("Bearer acce…"),
        "the Authorization header keeps its scheme"
    );
}

#[tokio::test]
async fn debugger_reports_a_resource_mismatch_with_its_fix_and_stops() {
    let server = OAuthTestServer::start(OAuthTestConfig {
        prm_resource: Some("https://evil.example.com/mcp".into()),
        ..OAuthTestConfig::default()
    })
    .await;
    let (outcome, log) = debug(&server, FlowOptions::default()).await;
    let err = outcome.unwrap_err();
    assert!(
        err.to_string()
            .contains("the protected resource metadata's `resource` (https://evil.example.com/mcp) does not match the server URL"),
        "{err}"
    );
    let last = log.steps().pop().unwrap();
    assert_eq!(last.kind, OAuthStepKind::Failed);
    assert_eq!(last.phase, OAuthPhase::ResourceMetadata);
    assert!(
        last.fix
            .unwrap()
            .contains(&format!("\"resource\": \"{}\"", server.mcp_url()))
    );
    assert!(
        server.records().authorize.is_empty(),
        "no authorization was attempted"
    );
}

#[tokio::test]
async fn debugger_diagnoses_missing_pkce_and_registration() {
    let no_pkce = OAuthTestServer::start(OAuthTestConfig {
        pkce_methods: None,
        ..OAuthTestConfig::default()
    })
    .await;
    let fix = failed_fix(&no_pkce, FlowOptions::default()).await;
    assert!(fix.contains("code_challenge_methods_supported"), "{fix}");
    // 2025-06-18 did not require the field: a warning, and the flow goes on.
    let june = FlowOptions {
        revision: Some(OAuthRevision::V2025_06_18),
        ..FlowOptions::default()
    };
    let (outcome, log) = debug(&no_pkce, june).await;
    outcome.unwrap();
    assert!(log.steps().iter().any(|s| s.kind == OAuthStepKind::Warning));

    let no_dcr = OAuthTestServer::start(OAuthTestConfig {
        dcr: false,
        ..OAuthTestConfig::default()
    })
    .await;
    let (outcome, log) = debug(&no_dcr, FlowOptions::default()).await;
    assert!(outcome.is_err());
    let last = log.steps().pop().unwrap();
    assert_eq!(last.phase, OAuthPhase::Registration);
    assert!(last.fix.unwrap().contains("client id"));
}

#[tokio::test]
async fn debugger_follows_the_chosen_revision() {
    // Protected resource metadata only at the well-known URL: 2025-06-18 needs it named in the
    // challenge, 2025-11-25 finds it.
    let server = OAuthTestServer::start(OAuthTestConfig {
        prm: PrmMode::WellKnownPath,
        ..OAuthTestConfig::default()
    })
    .await;
    let june = FlowOptions {
        revision: Some(OAuthRevision::V2025_06_18),
        ..FlowOptions::default()
    };
    let fix = failed_fix(&server, june).await;
    assert!(fix.contains("resource_metadata"), "{fix}");
    let november = FlowOptions {
        revision: Some(OAuthRevision::V2025_11_25),
        ..FlowOptions::default()
    };
    debug(&server, november).await.0.unwrap();

    // Forcing CIMD against a server that does not support it says what to choose instead.
    let cimd = FlowOptions {
        registration: RegistrationMethod::Cimd,
        client_metadata_url: Some("https://client.example.com/c.json".into()),
        ..FlowOptions::default()
    };
    let fix = failed_fix(&server, cimd).await;
    assert!(fix.contains("dynamic registration"), "{fix}");
}

#[tokio::test]
async fn legacy_sse_transport_signs_in_on_the_stream_request() {
    let server = OAuthTestServer::start(OAuthTestConfig {
        prm: PrmMode::WellKnownRoot,
        ..OAuthTestConfig::default()
    })
    .await;
    let m = manager(Arc::new(MemoryCredentials::default()));
    let config = ServerConfig {
        name: "legacy".into(),
        transport: ServerTransport::Sse {
            url: server.sse_url(),
            headers: Default::default(),
            oauth: None,
        },
        timeout_ms: None,
        inherit_env: false,
        protocol: Default::default(),
    };
    m.connect(config).await.unwrap();
    let r = call(&m, "legacy", "whoami").await.unwrap();
    assert!(text_of(&r).starts_with("client client-"), "{r}");
    let rec = server.records();
    assert_eq!(rec.authorize.len(), 1);
    assert_eq!(
        rec.mcp_calls,
        ["initialize", "notifications/initialized", "tools/call"]
    );
    m.shutdown().await;
}

#[tokio::test]
async fn a_server_that_asks_for_nothing_needs_no_authorization() {
    // initialize is answered without a challenge and no OAuth metadata exists anywhere: the
    // debugger says so (neutral), and registers nothing.
    let server = OAuthTestServer::start(OAuthTestConfig {
        prm: PrmMode::None,
        metadata: MetadataMode::Missing,
        open_methods: vec!["initialize".into(), "notifications/initialized".into()],
        ..OAuthTestConfig::default()
    })
    .await;
    let (outcome, log) = debug(&server, FlowOptions::default()).await;
    outcome.expect("no authorization required is not a failure");
    let steps = log.steps();
    let last = steps.last().unwrap();
    assert_eq!(last.kind, OAuthStepKind::Done, "{steps:#?}");
    assert_eq!(last.title, "No authorization required");
    assert!(steps.iter().all(|s| s.kind != OAuthStepKind::Failed));
    assert!(server.records().authorize.is_empty());
}

#[tokio::test]
async fn an_open_server_with_resource_metadata_is_still_authorized() {
    let server = OAuthTestServer::start(OAuthTestConfig {
        prm: PrmMode::WellKnownPath,
        open_methods: vec!["initialize".into(), "notifications/initialized".into()],
        ..OAuthTestConfig::default()
    })
    .await;
    let (outcome, log) = debug(&server, FlowOptions::default()).await;
    outcome.unwrap();
    assert_eq!(log.steps().last().unwrap().title, "Authorization works");
}
