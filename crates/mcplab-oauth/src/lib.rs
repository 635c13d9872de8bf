//! OAuth 2.1 for remote MCP servers, as the MCP authorization spec describes it (revisions
//! 2025-03-26, 2025-06-18 and 2025-11-25): discovery of protected resource metadata (RFC 9728)
//! and authorization server metadata (RFC 8414, OpenID configuration), client registration
//! (pre-registered, Client ID Metadata Document, dynamic registration per RFC 7591), PKCE S256,
//! the `resource` parameter (RFC 8707), scope selection, refresh, step-up and the older
//! revisions' fallbacks. It is written on reqwest so that every HTTP exchange can be recorded
//! as an [`OAuthStep`](mcplab_protocol::oauth::OAuthStep) with its secrets masked, together with
//! what was discovered, what was chosen and why, and how to fix what failed.
//!
//! It must not open browsers, bind listeners for callbacks or read files: the person's part of
//! the flow goes through [`UserAgent`], which the binary and the HTTP edge implement; the only
//! agent here is [`NonInteractiveAgent`], which fetches the authorization URL itself. Tokens and
//! registrations persist through [`CredentialStore`] (the SQLite store implements it).
//!
//! # Where things are
//!
//! - `crates/mcplab-oauth/src/`: OAuth 2.1 client for MCP authorization (crate `mcplab-oauth`; a
//!   leaf over protocol), on reqwest (never rmcp's auth: every exchange is recorded). `dpop.rs`
//!   (RFC 9449: a P-256 key per authorization stored with its tokens, proofs on token and MCP
//!   requests, nonces), `discovery.rs` (protected resource metadata from the challenge or the
//!   well-known URLs, `resource` must cover the server URL, authorization server metadata/OpenID
//!   configuration in each revision's order, issuer check, 2025-03-26 fallback to the server's
//!   origin and default endpoints), `flow.rs` (`Rules` per revision, `FlowOptions`, scope selection
//!   incl. step-up union and `offline_access`, PKCE check, authorization URL with `resource`,
//!   callback checks incl. `state` and the RFC 9207 `iss` rules of 2026-07-28, DPoP key choice,
//!   refresh), `registration.rs` (pre-registered → CIMD → DCR with `application_type: native`,
//!   reuse of a stored registration only at the same registration endpoint, token endpoint auth
//!   method choice), `token.rs` (`client_secret_basic`/`_post`/`none`/`private_key_jwt`, token
//!   responses, errors with fixes), `grants.rs` (SEP-1046 client credentials, SEP-990
//!   cross-app/enterprise-managed access, SEP-1933 workload identity JWT bearer), `agent.rs`
//!   (`UserAgent`/`PendingRedirect`, `NonInteractiveAgent`), `session.rs` (`OAuthHost`,
//!   `AuthSession`: bearer with refresh before expiry — judged by the host's `Clock` (`clock.rs`, a
//!   value handed in: the system clock, or in tests one they advance) —, single-flight 401/403
//!   handling, retry limit, `send_authorized` used by both HTTP wires), `guard.rs` (a remote
//!   server's flow may not fetch or open loopback/private/link-local addresses or plain-http
//!   endpoints unless `--oauth-allow-private`; checked before each request and again by the
//!   client's resolver), `debug.rs` (probe → flow → verify for the debugger and `oauth login`; a
//!   server that answers the probe without a challenge and publishes no protected resource metadata
//!   ends as `DebugOutcome::NotRequired`, run state `notRequired`), `http.rs` + `steps.rs` +
//!   `mask.rs` (every exchange as an `OAuthStep`, secrets masked), `challenge.rs`
//!   (`WWW-Authenticate`), `urls.rs`, `credentials.rs` (`CredentialStore`, in-memory store),
//!   `jwt.rs`, `pkce.rs`.

mod agent;
mod challenge;
mod clock;
mod credentials;
mod debug;
mod discovery;
mod dpop;
mod flow;
mod grants;
mod guard;
mod http;
mod jwt;
mod mask;
mod metadata;
mod pkce;
mod registration;
mod session;
mod steps;
mod token;
mod urls;

pub use agent::{CallbackParams, NonInteractiveAgent, PendingRedirect, UserAgent};
pub use challenge::{BearerChallenge, Challenge, parse_www_authenticate};
pub use clock::Clock;
pub use credentials::{
    ClientRegistration, CredentialStore, Credentials, MemoryCredentials, TokenSet,
};
pub use debug::{DebugOptions, DebugOutcome, debug_run, login};
pub use flow::{FlowOptions, Rules};
pub use http::OAuthHttp;
pub use mask::mask_step_value;
pub use session::{AuthSendError, AuthSession, NoteFn, OAuthHost, send_authorized};
pub use steps::{StepLog, StepSink, blank as new_step, summary as step_summary};
pub use token::TokenAuthMethod;
pub use urls::{
    MetadataKind, auth_server_metadata_urls, canonical_resource, resource_covers,
    resource_metadata_urls,
};

/// The most authorizations (the first one plus step-ups) a connection makes in a row without a
/// request succeeding in between; beyond it the request fails instead of looping.
pub const MAX_AUTHORIZATIONS_IN_A_ROW: u32 = 3;

/// What went wrong; every variant says what to change where the user can do something.
#[derive(Debug, Clone, thiserror::Error)]
pub enum OAuthError {
    /// An HTTP exchange got no response.
    #[error("could not reach {url}: {message}")]
    Network { url: String, message: String },
    /// The server's or the client's setup cannot work: missing or inconsistent metadata, no way
    /// to register, a PKCE method we cannot use…
    #[error("{message}; fix: {fix}")]
    Setup { message: String, fix: String },
    /// An endpoint of the authorization server refused the request with an OAuth error.
    #[error("the authorization server's {endpoint} endpoint answered {error}{}; fix: {fix}",
        description.as_deref().map(|d| format!(" ({d})")).unwrap_or_default())]
    Refused {
        endpoint: String,
        error: String,
        description: Option<String>,
        fix: String,
    },
    /// The authorization was denied (by the person or by the authorization server).
    #[error("authorization was denied: {error}{}",
        description.as_deref().map(|d| format!(" ({d})")).unwrap_or_default())]
    Denied {
        error: String,
        description: Option<String>,
    },
    /// A person must sign in, but this mode has no one to ask.
    #[error("{0}")]
    InteractionRequired(String),
    /// Nobody completed the authorization in time.
    #[error("the authorization was not completed within {0} s; connect again to retry")]
    TimedOut(u64),
    /// The flow was stopped (disconnect, Ctrl-C, a cancelled debugger run).
    #[error("the authorization was cancelled")]
    Cancelled,
    /// The server keeps refusing tokens after repeated authorizations.
    #[error("{message}; fix: {fix}")]
    RetryLimit { message: String, fix: String },
    /// Tokens could not be stored or read.
    #[error("cannot access the stored OAuth credentials: {0}")]
    Store(String),
}

impl OAuthError {
    /// The failure as the protocol's [`OAuthFailure`](mcplab_protocol::oauth::OAuthFailure):
    /// the message without the fix, and the fix separately.
    pub fn failure(&self) -> mcplab_protocol::oauth::OAuthFailure {
        let (message, fix) = match self {
            OAuthError::Setup { message, fix } | OAuthError::RetryLimit { message, fix } => {
                (message.clone(), Some(fix.clone()))
            }
            OAuthError::Refused {
                endpoint,
                error,
                description,
                fix,
            } => (
                format!(
                    "the authorization server's {endpoint} endpoint answered {error}{}",
                    description
                        .as_deref()
                        .map(|d| format!(" ({d})"))
                        .unwrap_or_default()
                ),
                Some(fix.clone()),
            ),
            OAuthError::Network { .. } => (
                self.to_string(),
                Some("check the URL and that the server is running and reachable".into()),
            ),
            other => (other.to_string(), None),
        };
        mcplab_protocol::oauth::OAuthFailure { message, fix }
    }

    /// A [`OAuthError::Setup`].
    pub fn setup(message: impl Into<String>, fix: impl Into<String>) -> Self {
        OAuthError::Setup {
            message: message.into(),
            fix: fix.into(),
        }
    }
}

pub(crate) use mcplab_protocol::clock::now_ms;
