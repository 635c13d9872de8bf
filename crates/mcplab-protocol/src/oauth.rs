//! OAuth 2.1 for remote MCP servers: the per-server settings a config may carry, the steps an
//! authorization flow records (for the debugger and for a server's sign-in history), and the
//! API bodies of the sign-in, sign-out and debugger routes. Every secret that appears here is
//! already masked by the core (`abcd… (40 chars)`); no type of this module carries one in full
//! except [`OAuthConfig::client_secret`] and [`OAuthConfig::private_key_pem`], which are the
//! user's own input.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

/// OAuth settings of one http/sse server. Everything is optional: without settings, mcplab
/// discovers the authorization server when the server answers 401 and registers itself.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(optional_fields)]
pub struct OAuthConfig {
    /// A pre-registered client id (used instead of registering).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_id: Option<String>,
    /// The pre-registered client's secret, if it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_secret: Option<String>,
    /// An HTTPS URL serving this client's Client ID Metadata Document; used as the client id
    /// when the authorization server supports it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_metadata_url: Option<String>,
    /// Space-separated scopes to request instead of the ones the server asks for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
    /// How to get a client id (default `auto`: pre-registered, else CIMD, else DCR).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub registration: Option<RegistrationMethod>,
    /// The protocol revision whose rules to follow (default: the latest, with the older
    /// revisions' fallbacks).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revision: Option<OAuthRevision>,
    /// The grant (default `authorizationCode`; `clientCredentials` is the SEP-1046 extension
    /// for machine-to-machine clients).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grant: Option<OAuthGrant>,
    /// A PKCS#8 PEM EC P-256 key for `private_key_jwt` client authentication (ES256).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub private_key_pem: Option<String>,
    /// The enterprise identity provider of the `crossAppAccess` grant (SEP-990 extension).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enterprise: Option<EnterpriseIdp>,
    /// The workload's JWT for the `workloadIdentity` grant (RFC 7523 assertion).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assertion: Option<String>,
    /// Set to true to never run OAuth for this server (a 401 is then just an error).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[ts(as = "Option<bool>", optional)]
    pub disabled: bool,
}

impl OAuthConfig {
    /// True when nothing is set (the config then omits the `oauth` object).
    pub fn is_empty(&self) -> bool {
        self == &OAuthConfig::default()
    }
}

/// Enterprise-managed authorization (SEP-990): the identity provider that exchanges the user's
/// ID token for an identity assertion (ID-JAG) the MCP server's authorization server accepts.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(optional_fields)]
pub struct EnterpriseIdp {
    /// The identity provider's token endpoint (RFC 8693 token exchange).
    pub token_endpoint: String,
    /// This client's id at the identity provider.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_secret: Option<String>,
    /// The user's ID token from the identity provider (the subject of the exchange).
    pub id_token: String,
}

/// The MCP protocol revision whose authorization rules a flow follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
pub enum OAuthRevision {
    /// Authorization server at the MCP server's origin, RFC 8414 metadata or default
    /// endpoints, dynamic client registration.
    #[serde(rename = "2025-03-26")]
    V2025_03_26,
    /// Protected resource metadata (RFC 9728) from `WWW-Authenticate`, RFC 8414 metadata,
    /// the `resource` parameter (RFC 8707).
    #[serde(rename = "2025-06-18")]
    V2025_06_18,
    /// Adds well-known protected resource metadata, OpenID configuration, Client ID Metadata
    /// Documents, scope selection and step-up, and a PKCE check on the metadata.
    #[serde(rename = "2025-11-25")]
    V2025_11_25,
}

impl OAuthRevision {
    pub fn as_str(self) -> &'static str {
        match self {
            OAuthRevision::V2025_03_26 => "2025-03-26",
            OAuthRevision::V2025_06_18 => "2025-06-18",
            OAuthRevision::V2025_11_25 => "2025-11-25",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        match text.trim() {
            "2025-03-26" => Some(OAuthRevision::V2025_03_26),
            "2025-06-18" => Some(OAuthRevision::V2025_06_18),
            "2025-11-25" => Some(OAuthRevision::V2025_11_25),
            _ => None,
        }
    }
}

/// How the client gets its client id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum RegistrationMethod {
    /// Pre-registered if a client id is configured, else a Client ID Metadata Document when
    /// one is configured and the server supports it, else dynamic client registration.
    Auto,
    /// Client ID Metadata Document: the document's URL is the client id.
    Cimd,
    /// Dynamic client registration (RFC 7591).
    Dcr,
    /// A client id (and secret) registered beforehand.
    Pre,
}

impl RegistrationMethod {
    pub fn as_str(self) -> &'static str {
        match self {
            RegistrationMethod::Auto => "auto",
            RegistrationMethod::Cimd => "cimd",
            RegistrationMethod::Dcr => "dcr",
            RegistrationMethod::Pre => "pre",
        }
    }
}

/// The OAuth grant a flow uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum OAuthGrant {
    /// Authorization code with PKCE, through the browser (the MCP default).
    AuthorizationCode,
    /// Client credentials, no user (SEP-1046 extension).
    ClientCredentials,
    /// Enterprise-managed: token exchange at the identity provider, then the JWT bearer grant
    /// with the identity assertion (SEP-990 extension).
    CrossAppAccess,
    /// Workload identity federation: the JWT bearer grant (RFC 7523) with a JWT the workload's
    /// platform issued (SEP-1933 extension); no user, no browser.
    WorkloadIdentity,
}

/// Who took part in a step, for the sequence diagram.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum OAuthParty {
    /// mcplab.
    Client,
    /// The protected MCP server.
    McpServer,
    AuthorizationServer,
    /// An enterprise identity provider (cross-app access).
    IdentityProvider,
    /// The user's browser (or the HTTP fetch that stands in for it when non-interactive).
    Browser,
}

/// What a step is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum OAuthStepKind {
    /// An HTTP request and its response (or the error that stopped it).
    Http,
    /// Something learned: a challenge, metadata, a registration, tokens.
    Discovered,
    /// A decision and why.
    Chose,
    /// The browser goes to the authorization URL, or the redirect came back.
    Browser,
    /// A deviation from the spec that did not stop the flow.
    Warning,
    /// The flow stopped here; `fix` says what to change.
    Failed,
    /// The flow finished.
    Done,
}

/// The part of the flow a step belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum OAuthPhase {
    /// The unauthenticated request that is answered with 401.
    Probe,
    ResourceMetadata,
    AuthServerMetadata,
    Registration,
    Authorization,
    Token,
    Refresh,
    StepUp,
    /// The authenticated request that proves the token works.
    Verify,
}

/// One HTTP exchange, with secrets masked (tokens, client secrets, code verifiers,
/// authorization codes, `Authorization` and cookie headers).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct OAuthHttpExchange {
    pub method: String,
    pub url: String,
    pub request_headers: Vec<(String, String)>,
    pub request_body: Option<String>,
    /// None when no response arrived (see `error`).
    pub status: Option<u16>,
    pub response_headers: Vec<(String, String)>,
    /// The response body (text, at most 64 KiB).
    pub response_body: Option<String>,
    /// Why no response arrived (connection refused, timeout…).
    pub error: Option<String>,
    pub duration_ms: u64,
}

/// One step of an authorization flow.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct OAuthStep {
    /// 1, 2, 3… within the flow.
    pub seq: u32,
    /// Unix time in milliseconds.
    pub at_ms: u64,
    pub kind: OAuthStepKind,
    pub phase: OAuthPhase,
    /// One line: what happened.
    pub title: String,
    /// More words: why, what it means.
    pub detail: Option<String>,
    /// The arrow of the sequence diagram (`client` → `client` for the client's own notes).
    pub from: OAuthParty,
    pub to: OAuthParty,
    pub http: Option<OAuthHttpExchange>,
    /// What was discovered or chosen, as JSON (secrets masked).
    #[ts(type = "any")]
    pub data: Option<Value>,
    /// For failures and warnings: what to change, in plain words.
    pub fix: Option<String>,
}

/// The transport a debugger run probes the server with.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum OAuthProbeTransport {
    /// Streamable HTTP: `POST initialize`.
    #[default]
    Http,
    /// Legacy HTTP+SSE: `GET` the event stream.
    Sse,
}

/// `POST /api/oauth/debug`: run the flow step by step for a server URL. Every
/// `Option` field may be left out (serde reads a missing one as `None`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(optional_fields)]
pub struct OAuthDebugRequest {
    pub url: String,
    pub transport: Option<OAuthProbeTransport>,
    /// Rules to follow; absent: the latest revision with the older ones' fallbacks.
    pub revision: Option<OAuthRevision>,
    pub registration: Option<RegistrationMethod>,
    pub client_id: Option<String>,
    pub client_secret: Option<String>,
    pub client_metadata_url: Option<String>,
    /// Space-separated scopes to request instead of the ones the server asks for.
    pub scope: Option<String>,
    /// True (default): the authorization URL is opened in this browser and the redirect comes
    /// back to mcplab's `/oauth/callback`. False: mcplab fetches the authorization URL itself
    /// and follows the redirect (for authorization servers that approve without a person).
    #[serde(default = "default_true")]
    pub interactive: bool,
}

impl OAuthDebugRequest {
    /// The client settings this run uses, as a server's OAuth config would give them.
    pub fn oauth_config(&self) -> OAuthConfig {
        OAuthConfig {
            client_id: self.client_id.clone(),
            client_secret: self.client_secret.clone(),
            client_metadata_url: self.client_metadata_url.clone(),
            scope: self.scope.clone(),
            registration: self.registration,
            revision: self.revision,
            ..OAuthConfig::default()
        }
    }
}

fn default_true() -> bool {
    true
}

/// The reply to `POST /api/oauth/debug`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct OAuthDebugStarted {
    pub run_id: String,
}

/// Where a debugger run is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum OAuthRunState {
    Running,
    Succeeded,
    Failed,
    Cancelled,
    /// The server answered without asking for authorization and publishes no OAuth
    /// metadata: nothing to authorize (a neutral outcome, not a failure).
    NotRequired,
}

/// What a successful flow obtained (secrets masked).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct OAuthTokenSummary {
    pub token_type: String,
    /// Masked.
    pub access_token: String,
    pub scope: Option<String>,
    pub expires_in_secs: Option<u64>,
    pub has_refresh_token: bool,
    pub client_id: String,
    pub registration: RegistrationMethod,
    /// The `resource` parameter sent (RFC 8707), if any.
    pub resource: Option<String>,
    pub issuer: Option<String>,
}

/// Why a flow failed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct OAuthFailure {
    pub message: String,
    /// What to change, in plain words.
    pub fix: Option<String>,
}

/// A debugger run as a whole: `GET /api/oauth/debug/{runId}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct OAuthDebugRun {
    pub id: String,
    /// The request, client secret masked.
    pub request: OAuthDebugRequest,
    pub state: OAuthRunState,
    pub steps: Vec<OAuthStep>,
    pub result: Option<OAuthTokenSummary>,
    pub failure: Option<OAuthFailure>,
    pub started_ms: u64,
    pub finished_ms: Option<u64>,
}

/// One event on `GET /api/oauth/debug/{runId}/events` (SSE, `id:` = sequence).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum OAuthDebugEvent {
    /// A step was recorded (in order).
    Step { step: OAuthStep },
    /// The run ended; the whole run follows. Always the last event.
    Finished { run: OAuthDebugRun },
    /// The client reconnected too late to replay what it missed: load the whole run.
    Resync,
}

/// `GET /api/servers/{name}/oauth`: what mcplab holds for one server (secrets masked).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct OAuthStatusView {
    pub server: String,
    /// False for stdio servers, servers with their own `Authorization` header, and servers
    /// whose OAuth is disabled.
    pub applicable: bool,
    pub url: Option<String>,
    /// An access token is stored.
    pub signed_in: bool,
    /// Masked.
    pub access_token: Option<String>,
    pub expires_at_ms: Option<u64>,
    pub has_refresh_token: bool,
    pub scope: Option<String>,
    pub client_id: Option<String>,
    pub registration: Option<RegistrationMethod>,
    pub issuer: Option<String>,
    /// A sign-in waiting for the browser: open this URL to continue it.
    pub pending_authorization_url: Option<String>,
    /// The steps of the latest flow for this server since mcplab started (empty if none).
    pub last_steps: Vec<OAuthStep>,
}

/// `POST /api/servers/{name}/oauth/authorize`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct OAuthAuthorizeRequest {
    /// Forget the stored tokens first (the client registration is kept), so the user signs in
    /// again.
    #[serde(default)]
    #[ts(as = "Option<bool>", optional)]
    pub force: bool,
}

/// The reply to `POST /api/servers/{name}/oauth/authorize`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "outcome", rename_all = "camelCase")]
pub enum OAuthAuthorizeResult {
    /// Open `url` in the browser; the redirect to `/oauth/callback` continues the connection,
    /// whose status arrives on `/api/events`.
    AuthorizationUrl { url: String },
    /// No browser step was needed (valid or refreshed tokens, or no authorization at all):
    /// the server is connected.
    Connected,
    /// The connection or the authorization failed.
    Failed { message: String },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_debug_request_needs_only_its_url() {
        let request: OAuthDebugRequest =
            serde_json::from_value(serde_json::json!({"url": "https://mcp.example"})).unwrap();
        assert!(request.interactive);
        assert_eq!(request.oauth_config(), OAuthConfig::default());
        assert_eq!(request.transport, None);
        let missing = serde_json::from_value::<OAuthDebugRequest>(serde_json::json!({}));
        assert!(missing.unwrap_err().to_string().contains("url"));
    }
}
