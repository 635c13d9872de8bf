//! The flow as a diagnosis, for the OAuth debugger and `mcplab oauth login`: probe the server
//! without a token (an MCP `initialize`, or the legacy SSE `GET`), run the whole flow from its
//! challenge, and prove the token works with an authenticated `initialize`. Every step is
//! recorded; a failure ends in a `failed` step with the fix.

use mcplab_protocol::oauth::{
    OAuthConfig, OAuthParty, OAuthPhase, OAuthProbeTransport, OAuthStepKind, OAuthTokenSummary,
};
use reqwest::Method;
use serde_json::json;
use url::Url;

use super::OAuthError;
use super::agent::UserAgent;
use super::challenge::BearerChallenge;
use super::credentials::Credentials;
use super::discovery::find_resource_metadata;
use super::flow::{Flow, FlowOptions, Rules};
use super::http::{Body, OAuthHttp, Purpose, Request};
use super::mask::mask_secret;
use super::session::OAuthHost;
use super::steps::{StepLog, blank};

/// What a debugger run does.
#[derive(Debug, Clone)]
pub struct DebugOptions {
    pub url: Url,
    pub transport: OAuthProbeTransport,
    pub flow: FlowOptions,
}

/// How a run that did not fail ended.
#[derive(Debug, Clone)]
pub enum DebugOutcome {
    /// The flow obtained a token and the server accepted it.
    Authorized {
        credentials: Box<Credentials>,
        summary: OAuthTokenSummary,
    },
    /// The server answered without asking for authorization and publishes no protected
    /// resource metadata: there is nothing to authorize.
    NotRequired,
}

/// What the unauthenticated probe learned.
struct Probe {
    challenge: Option<BearerChallenge>,
    /// The server answered 2xx without a challenge.
    open: bool,
}

/// Probe, authorize, verify; every step into `log`.
pub async fn debug_run(
    http: &OAuthHttp,
    agent: &dyn UserAgent,
    opts: &DebugOptions,
    log: &StepLog,
) -> Result<DebugOutcome, OAuthError> {
    let rules = Rules::new(opts.flow.revision);
    let Probe { challenge, open } = probe(http, log, &opts.url, opts.transport, rules).await?;
    let scoped = http.for_server(&opts.url);
    let flow = Flow {
        http: &scoped,
        log,
        opts: &opts.flow,
        rules,
        server: &opts.url,
        server_name: opts.url.as_str(),
        agent,
        waiting: None,
    };
    if open && !needs_authorization(&flow).await? {
        let mut done = blank(
            OAuthStepKind::Done,
            OAuthPhase::Probe,
            "No authorization required",
        );
        done.detail = Some(
            "the server answered without a challenge and publishes no OAuth metadata, so \
             clients connect without signing in"
                .into(),
        );
        log.push(done);
        return Ok(DebugOutcome::NotRequired);
    }
    let credentials = flow.authorize(challenge.as_ref(), None, false).await?;
    let token = credentials
        .tokens
        .as_ref()
        .map(|t| t.access_token.clone())
        .unwrap_or_default();
    verify(http, log, &opts.url, opts.transport, &token, &credentials).await?;
    let summary = summarize(&credentials);
    let mut done = blank(
        OAuthStepKind::Done,
        OAuthPhase::Verify,
        "Authorization works",
    );
    done.data = serde_json::to_value(&summary).ok();
    log.push(done);
    Ok(DebugOutcome::Authorized {
        credentials: Box::new(credentials),
        summary,
    })
}

/// After an open probe: a server that still publishes protected resource metadata may want
/// tokens later (per request or scope), so the flow goes on; one without it needs none. The
/// lookup is informational: what it finds (or not) is shown, never a failure.
async fn needs_authorization(flow: &Flow<'_>) -> Result<bool, OAuthError> {
    if flow.rules.legacy_only() {
        return Ok(false);
    }
    let found = find_resource_metadata(flow, None).await?.is_some();
    if found {
        flow.log.chose(
            OAuthPhase::ResourceMetadata,
            "Authorize anyway",
            "the server does not ask for authorization now but publishes protected resource \
             metadata, so it may accept (or later require) a token",
        );
    }
    Ok(found)
}

/// Signs in to a configured server: probe, authorize (reusing a stored registration), store.
pub async fn login(
    host: &OAuthHost,
    server: &str,
    url: &Url,
    settings: Option<&OAuthConfig>,
    transport: OAuthProbeTransport,
    log: &StepLog,
) -> Result<Credentials, OAuthError> {
    let opts = settings
        .map(|s| FlowOptions::from_config(s, host.client_name()))
        .unwrap_or_else(|| FlowOptions {
            client_name: host.client_name().into(),
            ..FlowOptions::default()
        });
    let previous = host
        .store()
        .load_credentials(server, url.as_str())?
        .map(|mut c| {
            c.tokens = None;
            c
        });
    let rules = Rules::new(opts.revision);
    let challenge = probe(host.http(), log, url, transport, rules)
        .await?
        .challenge;
    let scoped = host.http().for_server(url);
    let flow = Flow {
        http: &scoped,
        log,
        opts: &opts,
        rules,
        server: url,
        server_name: server,
        agent: host.agent().as_ref(),
        waiting: None,
    };
    let creds = flow
        .authorize(challenge.as_ref(), previous.as_ref(), false)
        .await?;
    let token = creds
        .tokens
        .as_ref()
        .map(|t| t.access_token.clone())
        .unwrap_or_default();
    verify(host.http(), log, url, transport, &token, &creds).await?;
    host.store().save_credentials(server, &creds)?;
    let mut done = blank(OAuthStepKind::Done, OAuthPhase::Verify, "Signed in");
    done.data = serde_json::to_value(summarize(&creds)).ok();
    log.push(done);
    Ok(creds)
}

/// What a credential set amounts to, secrets masked.
pub(crate) fn summarize(creds: &Credentials) -> OAuthTokenSummary {
    let tokens = creds.tokens.as_ref();
    OAuthTokenSummary {
        token_type: tokens.map(|t| t.token_type.clone()).unwrap_or_default(),
        access_token: tokens
            .map(|t| mask_secret(&t.access_token))
            .unwrap_or_default(),
        scope: tokens.and_then(|t| t.scope.clone()),
        expires_in_secs: tokens.and_then(|t| t.expires_in_secs()),
        has_refresh_token: tokens.is_some_and(|t| t.refresh_token.is_some()),
        client_id: creds.client.client_id.clone(),
        registration: creds.client.method,
        resource: creds.resource.clone(),
        issuer: creds.issuer.clone(),
    }
}

fn mcp_request(url: &Url, transport: OAuthProbeTransport, rules: Rules) -> Request {
    match transport {
        OAuthProbeTransport::Sse => Request {
            method: Method::GET,
            url: url.clone(),
            headers: vec![("Accept".into(), "text/event-stream".into())],
            body: None,
        },
        OAuthProbeTransport::Http => {
            let version = rules.revision().map_or("2025-11-25", |r| r.as_str());
            Request {
                method: Method::POST,
                url: url.clone(),
                headers: vec![(
                    "Accept".into(),
                    "application/json, text/event-stream".into(),
                )],
                body: Some(Body::Json(json!({
                    "jsonrpc": "2.0",
                    "id": 1,
                    "method": "initialize",
                    "params": {
                        "protocolVersion": version,
                        "capabilities": {},
                        "clientInfo": {"name": "mcplab", "version": env!("CARGO_PKG_VERSION")},
                    },
                }))),
            }
        }
    }
}

/// The unauthenticated request; its 401 challenge (if any) starts the flow.
async fn probe(
    http: &OAuthHttp,
    log: &StepLog,
    url: &Url,
    transport: OAuthProbeTransport,
    rules: Rules,
) -> Result<Probe, OAuthError> {
    let phase = OAuthPhase::Probe;
    let title = match transport {
        OAuthProbeTransport::Http => "Send initialize without a token",
        OAuthProbeTransport::Sse => "Open the SSE stream without a token",
    };
    let purpose = Purpose {
        phase,
        party: OAuthParty::McpServer,
        title,
    };
    let resp = http
        .send(log, &purpose, &mcp_request(url, transport, rules))
        .await
        .map_err(|e| log.fail(phase, e))?;
    let challenge = BearerChallenge::from_headers(&resp.headers);
    let open = resp.status.is_success() && challenge.is_none();
    match resp.status.as_u16() {
        401 | 403 => {
            match &challenge {
                Some(c) => log.discovered(
                    phase,
                    format!(
                        "The server requires authorization (HTTP {})",
                        resp.status.as_u16()
                    ),
                    json!(c),
                ),
                None => log.warn(
                    phase,
                    format!(
                        "The server answered HTTP {} without a Bearer WWW-Authenticate challenge",
                        resp.status.as_u16()
                    ),
                    "answer 401 with WWW-Authenticate: Bearer resource_metadata=\"<metadata URL>\"",
                ),
            }
            if challenge.is_some()
                && challenge
                    .as_ref()
                    .and_then(|c| c.resource_metadata.as_ref())
                    .is_none()
            {
                log.note(
                    OAuthStepKind::Discovered,
                    phase,
                    "The challenge does not name resource_metadata",
                    Some("discovery continues with the well-known URLs".into()),
                    None,
                );
            }
        }
        s if (200..300).contains(&s) => log.note(
            OAuthStepKind::Discovered,
            phase,
            format!("The server answered HTTP {s} without asking for authorization"),
            Some(
                "it may still publish OAuth metadata (and ask later, per request or scope): \
                 look for it at the well-known URLs"
                    .into(),
            ),
            None,
        ),
        s => log.warn(
            phase,
            format!("The server answered HTTP {s} ({})", resp.excerpt()),
            "an MCP server that requires authorization answers 401 with a Bearer challenge",
        ),
    }
    Ok(Probe { challenge, open })
}

/// The authenticated request that proves the token is accepted.
async fn verify(
    http: &OAuthHttp,
    log: &StepLog,
    url: &Url,
    transport: OAuthProbeTransport,
    token: &str,
    creds: &Credentials,
) -> Result<(), OAuthError> {
    let phase = OAuthPhase::Verify;
    let req = mcp_request(url, transport, Rules::new(None))
        .header("Authorization", format!("Bearer {token}"));
    let purpose = Purpose {
        phase,
        party: OAuthParty::McpServer,
        title: "Send initialize with the access token",
    };
    let resp = http
        .send(log, &purpose, &req)
        .await
        .map_err(|e| log.fail(phase, e))?;
    if resp.status.is_success() {
        return Ok(());
    }
    let status = resp.status.as_u16();
    let challenge = BearerChallenge::from_headers(&resp.headers);
    let issuer = creds
        .issuer
        .as_deref()
        .unwrap_or("the authorization server");
    let resource = creds.resource.as_deref().unwrap_or(url.as_str());
    let err = if status == 403 && challenge.as_ref().is_some_and(|c| c.insufficient_scope()) {
        let scope = challenge.and_then(|c| c.scope).unwrap_or_default();
        OAuthError::setup(
            format!("the server needs more scope ({scope}) than the token has"),
            "request that scope (set the scope option) or grant it at the authorization server",
        )
    } else if status == 401 || status == 403 {
        OAuthError::setup(
            format!("the server rejected the new access token (HTTP {status})"),
            format!(
                "make the MCP server accept tokens issued by {issuer} for the resource \
                 {resource} (check its token validation and audience checks)"
            ),
        )
    } else {
        OAuthError::setup(
            format!(
                "the server answered HTTP {status} with the token ({})",
                resp.excerpt()
            ),
            "check the server's logs: authorization passed but the request failed",
        )
    };
    Err(log.fail(phase, err))
}
