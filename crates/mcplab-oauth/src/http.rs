//! The flow's HTTP client: every request goes through [`OAuthHttp::send`], which records it as
//! an `http` step (request and response, headers and bodies, secrets masked, how long it took)
//! before anyone looks at the result. Redirects are never followed silently: the client has
//! redirects turned off, and callers that want to follow one (metadata documents, the
//! non-interactive browser) do it themselves, one recorded step per hop. A client scoped to a
//! remote server ([`OAuthHttp::for_server`]) refuses internal and plain-http URLs (`guard`).

use std::time::{Duration, Instant};

use bytes::Bytes;
use mcplab_protocol::oauth::{OAuthHttpExchange, OAuthParty, OAuthPhase, OAuthStepKind};
use reqwest::header::{CONTENT_TYPE, HeaderMap, LOCATION};
use reqwest::{Method, StatusCode};
use serde_json::Value;
use url::Url;

use super::OAuthError;
use super::guard::{HOW_TO_ALLOW, Policy, PublicOnly, refusal};
use super::mask::{mask_body, mask_header, mask_url};
use super::steps::{StepLog, blank};
use mcplab_net::tls::describe_error as describe;

/// Bounds on one exchange.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
const BODY_READ_LIMIT: usize = 1024 * 1024;
const BODY_SHOWN_LIMIT: usize = 64 * 1024;
/// How long an event-stream body is read before the rest is left unread.
const STREAM_READ_TIME: Duration = Duration::from_secs(2);
/// Redirect hops followed for a metadata document.
const MAX_REDIRECTS: usize = 5;

/// A request body.
#[derive(Debug, Clone)]
pub(crate) enum Body {
    Form(Vec<(String, String)>),
    Json(Value),
}

/// One request to make.
#[derive(Debug, Clone)]
pub(crate) struct Request {
    pub method: Method,
    pub url: Url,
    pub headers: Vec<(String, String)>,
    pub body: Option<Body>,
}

impl Request {
    pub(crate) fn get(url: Url) -> Self {
        Self {
            method: Method::GET,
            url,
            headers: vec![("Accept".into(), "application/json".into())],
            body: None,
        }
    }

    pub(crate) fn post_form(url: Url, form: Vec<(String, String)>) -> Self {
        Self {
            method: Method::POST,
            url,
            headers: vec![("Accept".into(), "application/json".into())],
            body: Some(Body::Form(form)),
        }
    }

    pub(crate) fn header(mut self, name: &str, value: impl Into<String>) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }
}

/// A response that arrived (any status).
#[derive(Debug, Clone)]
pub(crate) struct Response {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Bytes,
    /// The URL that answered (after followed redirects).
    pub url: Url,
}

impl Response {
    pub(crate) fn json(&self) -> Option<Value> {
        serde_json::from_slice(&self.body).ok()
    }

    /// The body's start, on one line, for messages.
    pub(crate) fn excerpt(&self) -> String {
        let text = String::from_utf8_lossy(&self.body);
        let mut line: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
        if let Some((cut, _)) = line.char_indices().nth(200) {
            line.truncate(cut);
            line.push('…');
        }
        line
    }
}

/// What to record about a request.
pub(crate) struct Purpose<'a> {
    pub phase: OAuthPhase,
    pub party: OAuthParty,
    pub title: &'a str,
}

/// The flow's HTTP client (redirects off, bounded waits).
#[derive(Clone)]
pub struct OAuthHttp {
    /// The client, and the same resolving names to public addresses only (for restricted
    /// flows); built on first use and shared by every clone, because building a TLS client
    /// reads the system's root certificates, which `serve` should not do before it answers.
    clients: std::sync::Arc<std::sync::OnceLock<Result<Clients, String>>>,
    user_agent: std::sync::Arc<str>,
    policy: std::sync::Arc<Policy>,
    /// Scoped to a remote server: internal and plain-http URLs are refused.
    restricted: bool,
}

struct Clients {
    any: reqwest::Client,
    public_only: reqwest::Client,
}

impl OAuthHttp {
    /// A client with redirects turned off and the given user agent (built on first use).
    pub fn new(user_agent: &str) -> Result<Self, OAuthError> {
        Ok(Self {
            clients: std::sync::Arc::default(),
            user_agent: user_agent.into(),
            policy: std::sync::Arc::default(),
            restricted: false,
        })
    }

    /// The client for this flow: public addresses only when it is restricted.
    fn client(&self) -> Result<&reqwest::Client, OAuthError> {
        let clients = self.clients.get_or_init(|| {
            let build = |public_only: bool| {
                let builder = mcplab_net::tls::client_builder()
                    .redirect(reqwest::redirect::Policy::none())
                    .connect_timeout(Duration::from_secs(10))
                    .timeout(REQUEST_TIMEOUT)
                    .user_agent(&*self.user_agent);
                let builder = match public_only {
                    true => builder.dns_resolver(PublicOnly),
                    false => builder,
                };
                builder
                    .build()
                    .map_err(|e| format!("cannot set up the HTTP client: {e}"))
            };
            Ok(Clients {
                any: build(false)?,
                public_only: build(true)?,
            })
        });
        match clients {
            Ok(c) if self.restricted => Ok(&c.public_only),
            Ok(c) => Ok(&c.any),
            Err(message) => Err(OAuthError::Network {
                url: String::new(),
                message: message.clone(),
            }),
        }
    }

    /// Lets flows for remote servers reach loopback, private and link-local addresses and
    /// plain-http endpoints (for every clone of this client, from the next request on).
    pub fn allow_private(&self, allow: bool) {
        self.policy.set_allow_private(allow);
    }

    /// Test hook: treats servers on loopback as remote, so the guard can be tested against
    /// local servers. Never set outside tests.
    #[doc(hidden)]
    pub fn treat_loopback_servers_as_remote(&self, yes: bool) {
        self.policy.set_loopback_is_remote(yes);
    }

    /// This client as a flow for `server` uses it: restricted when `server` is remote.
    pub(crate) fn for_server(&self, server: &Url) -> Self {
        Self {
            restricted: self.policy.restricts(server),
            ..self.clone()
        }
    }

    /// Why a flow for this client's server may not use `url` (fetch it or send a person
    /// there), with the fix; `Ok` when it may.
    pub(crate) async fn vet(&self, url: &Url) -> Result<(), OAuthError> {
        if !self.restricted {
            return Ok(());
        }
        match refusal(url).await {
            Some(why) => Err(OAuthError::setup(why, HOW_TO_ALLOW)),
            None => Ok(()),
        }
    }

    /// Sends `req`, records the exchange, returns the response whatever its status.
    pub(crate) async fn send(
        &self,
        log: &StepLog,
        purpose: &Purpose<'_>,
        req: &Request,
    ) -> Result<Response, OAuthError> {
        let client = self.client()?;
        let mut builder = client.request(req.method.clone(), req.url.clone());
        for (k, v) in &req.headers {
            builder = builder.header(k.as_str(), v.as_str());
        }
        let (content_type, body_text) = match &req.body {
            None => (None, None),
            Some(Body::Form(pairs)) => {
                let text = url::form_urlencoded::Serializer::new(String::new())
                    .extend_pairs(pairs)
                    .finish();
                (Some("application/x-www-form-urlencoded"), Some(text))
            }
            Some(Body::Json(value)) => (Some("application/json"), Some(value.to_string())),
        };
        if let (Some(ct), Some(text)) = (content_type, &body_text) {
            builder = builder.header(CONTENT_TYPE, ct).body(text.clone());
        }
        let mut request_headers: Vec<(String, String)> = req
            .headers
            .iter()
            .map(|(k, v)| (k.clone(), mask_header(k, v)))
            .collect();
        if let Some(ct) = content_type {
            request_headers.push(("Content-Type".into(), ct.into()));
        }
        let mut exchange = OAuthHttpExchange {
            method: req.method.to_string(),
            url: mask_url(&req.url),
            request_headers,
            request_body: body_text.as_deref().map(|b| mask_body(content_type, b)),
            status: None,
            response_headers: Vec::new(),
            response_body: None,
            error: None,
            duration_ms: 0,
        };
        if let Err(refused) = self.vet(&req.url).await {
            exchange.error = Some(refused.to_string());
            let mut step = blank(OAuthStepKind::Http, purpose.phase, purpose.title);
            step.to = purpose.party;
            step.http = Some(exchange);
            log.push(step);
            return Err(refused);
        }
        let started = Instant::now();
        let outcome = match builder.send().await {
            Ok(resp) => {
                let status = resp.status();
                let headers = resp.headers().clone();
                // An event stream may stay open: keep what arrives in a short while.
                let streaming = headers
                    .get(CONTENT_TYPE)
                    .and_then(|v| v.to_str().ok())
                    .is_some_and(|ct| ct.starts_with("text/event-stream"));
                let limit = streaming.then_some(STREAM_READ_TIME);
                read_body(resp, limit)
                    .await
                    .map(|body| (status, headers, body))
                    .map_err(|e| describe(&e))
            }
            Err(e) => Err(describe(&e)),
        };
        exchange.duration_ms = started.elapsed().as_millis() as u64;
        let mut step = blank(OAuthStepKind::Http, purpose.phase, purpose.title);
        step.to = purpose.party;
        match outcome {
            Ok((status, headers, body)) => {
                exchange.status = Some(status.as_u16());
                exchange.response_headers = headers
                    .iter()
                    .map(|(k, v)| {
                        let v = String::from_utf8_lossy(v.as_bytes());
                        (k.to_string(), mask_header(k.as_str(), &v))
                    })
                    .collect();
                if !body.is_empty() {
                    let ct = headers.get(CONTENT_TYPE).and_then(|v| v.to_str().ok());
                    let shown = &body[..body.len().min(BODY_SHOWN_LIMIT)];
                    exchange.response_body = Some(mask_body(ct, &String::from_utf8_lossy(shown)));
                }
                step.http = Some(exchange);
                log.push(step);
                Ok(Response {
                    status,
                    headers,
                    body,
                    url: req.url.clone(),
                })
            }
            Err(message) => {
                exchange.error = Some(message.clone());
                step.http = Some(exchange);
                log.push(step);
                Err(OAuthError::Network {
                    url: req.url.to_string(),
                    message,
                })
            }
        }
    }

    /// GETs a document, following up to [`MAX_REDIRECTS`] redirects (each recorded).
    pub(crate) async fn get_following(
        &self,
        log: &StepLog,
        purpose: &Purpose<'_>,
        url: &Url,
        extra_headers: &[(String, String)],
    ) -> Result<Response, OAuthError> {
        let mut url = url.clone();
        for _ in 0..=MAX_REDIRECTS {
            let mut req = Request::get(url.clone());
            req.headers.extend(extra_headers.iter().cloned());
            let resp = self.send(log, purpose, &req).await?;
            match redirect_target(&resp) {
                Some(next) => url = next,
                None => return Ok(resp),
            }
        }
        Err(OAuthError::setup(
            format!("{url} redirects more than {MAX_REDIRECTS} times"),
            "serve the document without a redirect loop",
        ))
    }
}

/// Where a 3xx response points, resolved against its URL.
pub(crate) fn redirect_target(resp: &Response) -> Option<Url> {
    if !resp.status.is_redirection() {
        return None;
    }
    let location = resp.headers.get(LOCATION)?.to_str().ok()?;
    resp.url.join(location).ok()
}

/// Reads the body up to [`BODY_READ_LIMIT`], for at most `limit` when given (what arrived by
/// then is kept).
async fn read_body(
    mut resp: reqwest::Response,
    limit: Option<Duration>,
) -> Result<Bytes, reqwest::Error> {
    let mut body = Vec::new();
    let deadline = limit.map(|l| tokio::time::Instant::now() + l);
    loop {
        let chunk = match deadline {
            Some(at) => match tokio::time::timeout_at(at, resp.chunk()).await {
                Ok(chunk) => chunk?,
                Err(_) => break,
            },
            None => resp.chunk().await?,
        };
        let Some(chunk) = chunk else { break };
        body.extend_from_slice(&chunk);
        if body.len() >= BODY_READ_LIMIT {
            break;
        }
    }
    Ok(Bytes::from(body))
}
