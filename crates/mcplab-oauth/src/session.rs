//! OAuth inside a connection. [`OAuthHost`] is what a process provides once (the credential
//! store, the user agent, the HTTP client, the latest flow's steps per server); an
//! [`AuthSession`] is one connection's view: the current token, refreshed before it expires,
//! and the single place where a 401 (authorize, or refresh) or a 403 `insufficient_scope`
//! (step up) is handled while the wire's other requests wait. [`send_authorized`] is what the
//! HTTP and SSE wires call for every request. Repeated authorizations without a request
//! succeeding in between stop at [`MAX_AUTHORIZATIONS_IN_A_ROW`](super::MAX_AUTHORIZATIONS_IN_A_ROW).

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

use mcplab_protocol::oauth::{OAuthConfig, OAuthStep};
use parking_lot::Mutex;
use reqwest::{RequestBuilder, Response};
use tokio::sync::watch;
use url::Url;

use super::agent::UserAgent;
use super::challenge::BearerChallenge;
use super::clock::Clock;
use super::credentials::{CredentialStore, Credentials};
use super::flow::{Flow, FlowOptions, Rules};
use super::http::OAuthHttp;
use super::steps::{StepLog, summary};
use super::{MAX_AUTHORIZATIONS_IN_A_ROW, OAuthError};

/// Where a connection's diagnostics go (the wire's traffic notes).
pub type NoteFn = Arc<dyn Fn(String) + Send + Sync>;

/// What the process provides for OAuth: storage, the person's browser, HTTP.
pub struct OAuthHost {
    store: Arc<dyn CredentialStore>,
    agent: Arc<dyn UserAgent>,
    http: OAuthHttp,
    client_name: String,
    history: Mutex<HashMap<String, Vec<OAuthStep>>>,
    /// What "now" is when deciding whether a token needs refreshing.
    clock: Clock,
}

impl OAuthHost {
    /// `client_name` is what dynamic registration calls this client (e.g. "mcplab").
    pub fn new(
        store: Arc<dyn CredentialStore>,
        agent: Arc<dyn UserAgent>,
        client_name: &str,
        user_agent: &str,
    ) -> Result<Arc<Self>, OAuthError> {
        Self::with_clock(store, agent, client_name, user_agent, Clock::system())
    }

    /// [`Self::new`] deciding token expiry by `clock` (tests pass one they can advance).
    pub fn with_clock(
        store: Arc<dyn CredentialStore>,
        agent: Arc<dyn UserAgent>,
        client_name: &str,
        user_agent: &str,
        clock: Clock,
    ) -> Result<Arc<Self>, OAuthError> {
        Ok(Arc::new(Self {
            store,
            agent,
            http: OAuthHttp::new(user_agent)?,
            client_name: client_name.into(),
            history: Mutex::new(HashMap::new()),
            clock,
        }))
    }

    pub fn store(&self) -> &Arc<dyn CredentialStore> {
        &self.store
    }

    pub fn agent(&self) -> &Arc<dyn UserAgent> {
        &self.agent
    }

    pub fn http(&self) -> &OAuthHttp {
        &self.http
    }

    pub fn client_name(&self) -> &str {
        &self.client_name
    }

    /// The steps of the latest flow (or refresh) for `server` since this process started.
    pub fn last_steps(&self, server: &str) -> Vec<OAuthStep> {
        self.history.lock().get(server).cloned().unwrap_or_default()
    }

    /// Forgets the server's tokens and registrations; returns how many URLs had some.
    pub fn sign_out(&self, server: &str) -> Result<usize, OAuthError> {
        self.store.clear_credentials(server)
    }

    /// A connection's session for `server` at `url`; None when `settings` disable OAuth.
    pub fn session(
        self: &Arc<Self>,
        server: &str,
        url: &Url,
        settings: Option<&OAuthConfig>,
    ) -> Option<Arc<AuthSession>> {
        if settings.is_some_and(|s| s.disabled) {
            return None;
        }
        let opts = settings
            .map(|s| FlowOptions::from_config(s, &self.client_name))
            .unwrap_or_else(|| FlowOptions {
                client_name: self.client_name.clone(),
                ..FlowOptions::default()
            });
        let (creds, load_error) = match self.store.load_credentials(server, url.as_str()) {
            Ok(creds) => (creds, None),
            Err(e) => (None, Some(e.to_string())),
        };
        let (waiting, _) = watch::channel(false);
        Some(Arc::new(AuthSession {
            host: self.clone(),
            http: self.http.for_server(url),
            server: server.into(),
            url: url.clone(),
            opts,
            state: tokio::sync::Mutex::new(State {
                creds,
                origin: Origin::Stored,
                refresh_failed: false,
            }),
            failures: AtomicU32::new(0),
            proven: AtomicBool::new(false),
            waiting,
            notes: Mutex::new(None),
            load_error,
            dpop_nonce: Mutex::new(None),
        }))
    }

    /// A step log for a flow of `server` that also keeps the steps as its latest history and
    /// passes one-line summaries to `notes`.
    fn flow_log(self: &Arc<Self>, server: &str, notes: Option<NoteFn>) -> StepLog {
        self.history.lock().insert(server.into(), Vec::new());
        let host = Arc::downgrade(self);
        let server = server.to_string();
        StepLog::with_sink(Arc::new(move |step: &OAuthStep| {
            if let Some(host) = host.upgrade() {
                host.history
                    .lock()
                    .entry(server.clone())
                    .or_default()
                    .push(step.clone());
            }
            if let Some(notes) = &notes {
                notes(format!("oauth: {}", summary(step)));
            }
        }))
    }
}

/// Where the current token came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Origin {
    Stored,
    Refreshed,
    Authorized,
}

struct State {
    creds: Option<Credentials>,
    origin: Origin,
    refresh_failed: bool,
}

impl State {
    fn token(&self) -> Option<&str> {
        self.creds
            .as_ref()
            .and_then(|c| c.tokens.as_ref())
            .map(|t| t.access_token.as_str())
    }
}

/// One connection's OAuth state.
pub struct AuthSession {
    host: Arc<OAuthHost>,
    /// The host's HTTP client scoped to this server (restricted when it is remote).
    http: OAuthHttp,
    server: String,
    url: Url,
    opts: FlowOptions,
    state: tokio::sync::Mutex<State>,
    /// Authorizations since a request last succeeded with a token.
    failures: AtomicU32,
    /// A request succeeded with the current token.
    proven: AtomicBool,
    waiting: watch::Sender<bool>,
    notes: Mutex<Option<NoteFn>>,
    load_error: Option<String>,
    /// The MCP server's latest DPoP nonce (RFC 9449 §9).
    dpop_nonce: Mutex<Option<String>>,
}

/// How a request presents the session's token.
struct Presented {
    token: String,
    /// Set for DPoP-bound tokens.
    dpop: Option<super::dpop::DpopKey>,
}

impl AuthSession {
    /// The token to send and, for DPoP-bound tokens, the key to prove possession with.
    async fn presented(&self) -> Option<Presented> {
        let token = self.bearer().await?;
        let st = self.state.lock().await;
        let stored = st
            .creds
            .as_ref()
            .and_then(|c| c.tokens.as_ref())
            .and_then(|t| t.dpop_key.clone());
        let dpop = stored.and_then(|k| super::dpop::DpopKey::from_stored(&k).ok());
        Some(Presented { token, dpop })
    }

    fn dpop_nonce(&self) -> Option<String> {
        self.dpop_nonce.lock().clone()
    }

    /// Keeps the nonce an MCP server sent (on any response); true when it is a new one.
    fn note_dpop_nonce(&self, headers: &reqwest::header::HeaderMap) -> bool {
        let Some(nonce) = headers
            .get(super::dpop::NONCE_HEADER)
            .and_then(|v| v.to_str().ok())
        else {
            return false;
        };
        let mut slot = self.dpop_nonce.lock();
        let new = slot.as_deref() != Some(nonce);
        *slot = Some(nonce.to_owned());
        new
    }

    /// Where this session's diagnostics go; the wire sets it when it starts.
    pub fn attach_notes(&self, notes: NoteFn) {
        if let Some(e) = &self.load_error {
            notes(format!("oauth: {e}"));
        }
        *self.notes.lock() = Some(notes);
    }

    /// True while the flow waits for a person (connect deadlines pause meanwhile).
    pub fn waiting(&self) -> watch::Receiver<bool> {
        self.waiting.subscribe()
    }

    fn notes(&self) -> Option<NoteFn> {
        self.notes.lock().clone()
    }

    /// The access token to send, refreshed first when it is about to expire.
    pub async fn bearer(&self) -> Option<String> {
        let mut st = self.state.lock().await;
        let needs = st
            .creds
            .as_ref()
            .and_then(|c| c.tokens.as_ref())
            .is_some_and(|t| {
                t.needs_refresh(self.host.clock.now_ms()) && t.refresh_token.is_some()
            });
        if needs && !st.refresh_failed {
            self.refresh(&mut st).await;
        }
        st.token().map(str::to_owned)
    }

    /// The current access token, without refreshing or waiting (None while a flow runs).
    pub fn current_token(&self) -> Option<String> {
        self.state
            .try_lock()
            .ok()
            .and_then(|st| st.token().map(str::to_owned))
    }

    /// A request with the current token succeeded.
    pub fn succeeded(&self) {
        self.failures.store(0, Ordering::SeqCst);
        self.proven.store(true, Ordering::SeqCst);
    }

    /// Handles a 401 (`status` 401) or a 403 `insufficient_scope` for a request that carried
    /// `used` (None: no token). Ok means: send the request again.
    pub async fn handle(
        &self,
        status: u16,
        challenge: Option<&BearerChallenge>,
        used: Option<&str>,
    ) -> Result<(), OAuthError> {
        let mut st = self.state.lock().await;
        if st.token() != used && st.token().is_some() {
            // Another request already got a new token while this one waited.
            return Ok(());
        }
        let step_up = status == 403;
        if !step_up && used.is_some() {
            match (st.origin, self.proven.load(Ordering::SeqCst)) {
                (Origin::Authorized, false) => return Err(self.rejected_fresh_token(&st)),
                // A refreshed token that never worked: sign in again instead.
                (Origin::Refreshed, false) => {}
                _ if !st.refresh_failed && self.refresh(&mut st).await => return Ok(()),
                _ => {}
            }
        }
        let n = self.failures.fetch_add(1, Ordering::SeqCst) + 1;
        if n > MAX_AUTHORIZATIONS_IN_A_ROW {
            return Err(self.retry_limit(challenge, step_up, n - 1));
        }
        let notes = self.notes();
        let log = self.host.flow_log(&self.server, notes);
        let flow = self.flow(&log);
        let creds = flow
            .authorize(challenge, st.creds.as_ref(), step_up)
            .await?;
        if let Err(e) = self.host.store.save_credentials(&self.server, &creds) {
            log.warn(
                mcplab_protocol::oauth::OAuthPhase::Token,
                format!("The tokens could not be stored ({e}); they last for this connection"),
                "check that the data directory is writable",
            );
        }
        st.creds = Some(creds);
        st.origin = Origin::Authorized;
        st.refresh_failed = false;
        self.proven.store(false, Ordering::SeqCst);
        Ok(())
    }

    fn flow<'a>(&'a self, log: &'a StepLog) -> Flow<'a> {
        Flow {
            http: &self.http,
            log,
            opts: &self.opts,
            rules: Rules::new(self.opts.revision),
            server: &self.url,
            server_name: &self.server,
            agent: self.host.agent.as_ref(),
            waiting: Some(&self.waiting),
        }
    }

    /// Refreshes the tokens; false when it did not work (then a full flow follows).
    async fn refresh(&self, st: &mut State) -> bool {
        let Some(creds) = st.creds.clone() else {
            return false;
        };
        let log = self.host.flow_log(&self.server, self.notes());
        match self.flow(&log).refresh(&creds).await {
            Ok(next) => {
                let _ = self.host.store.save_credentials(&self.server, &next);
                st.creds = Some(next);
                st.origin = Origin::Refreshed;
                self.proven.store(false, Ordering::SeqCst);
                true
            }
            Err(_) => {
                st.refresh_failed = true;
                false
            }
        }
    }

    fn rejected_fresh_token(&self, st: &State) -> OAuthError {
        let creds = st.creds.as_ref();
        let resource = creds
            .and_then(|c| c.resource.clone())
            .unwrap_or_else(|| self.url.to_string());
        let issuer = creds
            .and_then(|c| c.issuer.clone())
            .unwrap_or_else(|| "the authorization server".into());
        OAuthError::setup(
            "the server rejected (401) the access token the authorization server had just \
             issued",
            format!(
                "make the server accept tokens issued by {issuer} for the resource {resource} \
                 (check its token validation and audience checks)"
            ),
        )
    }

    fn retry_limit(
        &self,
        challenge: Option<&BearerChallenge>,
        step_up: bool,
        n: u32,
    ) -> OAuthError {
        let scope = challenge
            .and_then(|c| c.scope.clone())
            .unwrap_or_else(|| "(none named)".into());
        let (message, fix) = if step_up {
            (
                format!(
                    "the server still answers 403 insufficient_scope (asking for scope {scope}) \
                     after {n} authorizations in a row; giving up"
                ),
                "grant those scopes to this client and user at the authorization server, or \
                 check which scope the server requires for this request"
                    .to_string(),
            )
        } else {
            (
                format!(
                    "the server still answers 401 after {n} authorizations in a row; giving up"
                ),
                "check that the server accepts the tokens its authorization server issues"
                    .to_string(),
            )
        };
        if let Some(notes) = self.notes() {
            notes(format!("oauth: {message} (fix: {fix})"));
        }
        OAuthError::RetryLimit { message, fix }
    }
}

/// Why [`send_authorized`] could not get a response.
#[derive(Debug)]
pub enum AuthSendError {
    Http(reqwest::Error),
    Auth(OAuthError),
}

/// Sends the request `build` makes, with the session's token when there is a session; on 401,
/// or 403 with `insufficient_scope`, lets the session authorize (or refresh, or step up) and
/// sends it again. Other answers come back as they are.
pub async fn send_authorized(
    auth: Option<&AuthSession>,
    build: impl Fn() -> RequestBuilder,
) -> Result<Response, AuthSendError> {
    let Some(auth) = auth else {
        return build().send().await.map_err(AuthSendError::Http);
    };
    let mut nonce_retries = 0;
    loop {
        let presented = auth.presented().await;
        let token = presented.as_ref().map(|p| p.token.clone());
        let resp = match &presented {
            Some(Presented {
                token,
                dpop: Some(key),
            }) => {
                let nonce = auth.dpop_nonce();
                send_with_dpop(build(), token, key, nonce.as_deref()).await?
            }
            Some(Presented { token, dpop: None }) => build()
                .bearer_auth(token)
                .send()
                .await
                .map_err(AuthSendError::Http)?,
            None => build().send().await.map_err(AuthSendError::Http)?,
        };
        let status = resp.status().as_u16();
        let challenge = BearerChallenge::from_headers(resp.headers());
        // RFC 9449 §9: a DPoP nonce challenge is answered by sending again with the nonce.
        let new_nonce = auth.note_dpop_nonce(resp.headers());
        let wants_nonce = challenge
            .as_ref()
            .is_some_and(|c| c.error.as_deref() == Some("use_dpop_nonce"));
        if status == 401 && wants_nonce && new_nonce && nonce_retries < 2 {
            nonce_retries += 1;
            if let Some(notes) = auth.notes() {
                notes("oauth: the server asked for a DPoP nonce; sending again with it".into());
            }
            continue;
        }
        // A 401 that asks for another scheme only (Basic, an API key…) is not OAuth's to
        // answer; a 401 without any challenge may be (2025-03-26 servers need not send one).
        let other_scheme = challenge.is_none()
            && resp
                .headers()
                .contains_key(reqwest::header::WWW_AUTHENTICATE);
        let again = match status {
            401 => !other_scheme,
            403 => challenge
                .as_ref()
                .is_some_and(BearerChallenge::insufficient_scope),
            _ => false,
        };
        if !again {
            if resp.status().is_success() && token.is_some() {
                auth.succeeded();
            }
            return Ok(resp);
        }
        auth.handle(status, challenge.as_ref(), token.as_deref())
            .await
            .map_err(AuthSendError::Auth)?;
    }
}

/// Sends a request with a DPoP-bound token: `Authorization: DPoP …` and a proof for this
/// method and URL (with `ath` and the server's nonce when there is one).
async fn send_with_dpop(
    req: RequestBuilder,
    token: &str,
    key: &super::dpop::DpopKey,
    nonce: Option<&str>,
) -> Result<Response, AuthSendError> {
    let (client, request) = req.build_split();
    let mut request = request.map_err(AuthSendError::Http)?;
    let proof = key
        .proof(request.method().as_str(), request.url(), Some(token), nonce)
        .map_err(AuthSendError::Auth)?;
    let headers = request.headers_mut();
    let value = |text: String| {
        reqwest::header::HeaderValue::from_str(&text).map_err(|e| {
            AuthSendError::Auth(OAuthError::setup(
                format!("the DPoP header could not be built ({e})"),
                "sign out and sign in again",
            ))
        })
    };
    let mut authorization = value(format!("DPoP {token}"))?;
    authorization.set_sensitive(true);
    headers.insert(reqwest::header::AUTHORIZATION, authorization);
    headers.insert("DPoP", value(proof)?);
    client.execute(request).await.map_err(AuthSendError::Http)
}
