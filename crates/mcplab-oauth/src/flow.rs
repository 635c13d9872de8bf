//! The authorization flow itself: discovery (see `discovery`), client registration, the
//! authorization request through the [`UserAgent`] with PKCE and `state`, the token request,
//! and refresh. [`Rules`] says what the chosen protocol revision requires; the default follows
//! the latest revision and falls back to the 2025-03-26 rules when the server publishes no
//! protected resource metadata. Each decision is recorded as a step with its reason.

use mcplab_protocol::oauth::{
    EnterpriseIdp, OAuthConfig, OAuthGrant, OAuthParty, OAuthPhase, OAuthRevision, OAuthStepKind,
    RegistrationMethod,
};
use serde_json::json;
use tokio::sync::watch;
use url::Url;

use super::agent::{CallbackParams, UserAgent};
use super::challenge::BearerChallenge;
use super::credentials::{Credentials, TokenSet};
use super::discovery::Discovery;
use super::http::OAuthHttp;
use super::mask::mask_url;
use super::pkce::{Pkce, random_token};
use super::registration::{choose_auth_method, obtain_client};
use super::steps::{StepLog, blank};
use super::token::{ClientAuth, token_request};
use super::{OAuthError, now_ms};

/// The authorization rules of a protocol revision; `None` is the default: the latest
/// revision's rules with the older revisions' fallbacks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rules {
    revision: Option<OAuthRevision>,
}

impl Rules {
    pub fn new(revision: Option<OAuthRevision>) -> Self {
        Self { revision }
    }

    pub fn revision(self) -> Option<OAuthRevision> {
        self.revision
    }

    /// How the rules are named in steps.
    pub fn label(self) -> String {
        match self.revision {
            Some(r) => format!("the {} rules", r.as_str()),
            None => "the 2025-11-25 rules (with the older revisions' fallbacks)".into(),
        }
    }

    /// 2025-03-26 only: no protected resource metadata, the server's origin is the
    /// authorization server.
    pub fn legacy_only(self) -> bool {
        self.revision == Some(OAuthRevision::V2025_03_26)
    }

    /// Whether the 2025-03-26 rules take over when no protected resource metadata is found.
    pub fn legacy_fallback(self) -> bool {
        self.revision.is_none()
    }

    fn at_least_november(self) -> bool {
        matches!(self.revision, None | Some(OAuthRevision::V2025_11_25))
    }

    /// Well-known protected resource metadata URLs when the 401 names none (2025-11-25).
    pub fn resource_metadata_well_known(self) -> bool {
        self.at_least_november()
    }

    /// OpenID configuration besides RFC 8414 metadata (2025-11-25).
    pub fn openid_discovery(self) -> bool {
        self.at_least_november()
    }

    /// Client ID Metadata Documents (2025-11-25).
    pub fn client_metadata_documents(self) -> bool {
        self.at_least_november()
    }

    /// Missing `code_challenge_methods_supported` means no PKCE: refuse (2025-11-25).
    pub fn pkce_must_be_advertised(self) -> bool {
        self.at_least_november()
    }
}

/// What a flow is configured with.
#[derive(Debug, Clone)]
pub struct FlowOptions {
    pub revision: Option<OAuthRevision>,
    pub registration: RegistrationMethod,
    pub client_id: Option<String>,
    pub client_secret: Option<String>,
    pub client_metadata_url: Option<String>,
    /// Space-separated scopes overriding the ones the server asks for.
    pub scope: Option<String>,
    pub grant: OAuthGrant,
    pub private_key_pem: Option<String>,
    /// The identity provider of the cross-app access grant.
    pub enterprise: Option<EnterpriseIdp>,
    /// The workload's JWT for the workload identity grant.
    pub assertion: Option<String>,
    /// `client_name` for dynamic registration.
    pub client_name: String,
}

impl Default for FlowOptions {
    fn default() -> Self {
        Self {
            revision: None,
            registration: RegistrationMethod::Auto,
            client_id: None,
            client_secret: None,
            client_metadata_url: None,
            scope: None,
            grant: OAuthGrant::AuthorizationCode,
            private_key_pem: None,
            enterprise: None,
            assertion: None,
            client_name: "mcplab".into(),
        }
    }
}

impl FlowOptions {
    pub fn from_config(config: &OAuthConfig, client_name: &str) -> Self {
        let text = |v: &Option<String>| v.clone().filter(|s| !s.trim().is_empty());
        Self {
            revision: config.revision,
            registration: config.registration.unwrap_or(RegistrationMethod::Auto),
            client_id: text(&config.client_id),
            client_secret: text(&config.client_secret),
            client_metadata_url: text(&config.client_metadata_url),
            scope: text(&config.scope),
            grant: config.grant.unwrap_or(OAuthGrant::AuthorizationCode),
            private_key_pem: text(&config.private_key_pem),
            enterprise: config.enterprise.clone(),
            assertion: text(&config.assertion),
            client_name: client_name.into(),
        }
    }
}

/// One run of the flow: what it talks through and where it records.
pub(crate) struct Flow<'a> {
    pub http: &'a OAuthHttp,
    pub log: &'a StepLog,
    pub opts: &'a FlowOptions,
    pub rules: Rules,
    /// The MCP server's URL.
    pub server: &'a Url,
    /// The server's name (for the user agent: what to sign in to).
    pub server_name: &'a str,
    pub agent: &'a dyn UserAgent,
    /// Set while the flow waits for a person, so connect deadlines can pause.
    pub waiting: Option<&'a watch::Sender<bool>>,
}

impl Flow<'_> {
    /// The whole flow: discovery, registration, authorization, token. `challenge` is the 401
    /// or 403 that started it; `previous` the stored credentials (whose registration may be
    /// reused and whose scope a step-up extends).
    pub(crate) async fn authorize(
        &self,
        challenge: Option<&BearerChallenge>,
        previous: Option<&Credentials>,
        step_up: bool,
    ) -> Result<Credentials, OAuthError> {
        self.log.chose(
            OAuthPhase::Probe,
            format!("Following {}", self.rules.label()),
            match self.rules.revision() {
                Some(_) => "the revision was chosen explicitly",
                None => {
                    "no revision was chosen: the latest, falling back where the server is older"
                }
            },
        );
        let found = Discovery::run(self, challenge).await?;
        match self.opts.grant {
            OAuthGrant::ClientCredentials => {
                let scope = self.select_scope(&found, challenge, previous, false);
                return super::grants::client_credentials(self, &found, scope).await;
            }
            OAuthGrant::CrossAppAccess => {
                let scope = self.select_scope(&found, challenge, previous, false);
                return super::grants::cross_app_access(self, &found, scope).await;
            }
            OAuthGrant::WorkloadIdentity => {
                let scope = self.select_scope(&found, challenge, previous, false);
                return super::grants::workload_identity(self, &found, scope).await;
            }
            OAuthGrant::AuthorizationCode => {}
        }
        self.check_pkce(&found)?;
        let scope = self.select_scope(&found, challenge, previous, step_up);
        let pending = self
            .agent
            .prepare(self.server_name)
            .await
            .map_err(|e| self.log.fail(OAuthPhase::Authorization, e))?;
        let redirect_uri = pending.redirect_uri();
        let client = obtain_client(self, &found, &redirect_uri, previous, scope.as_deref())
            .await
            .map_err(|e| self.log.fail(OAuthPhase::Registration, e))?;
        let auth_method = choose_auth_method(self, &found.metadata, &client)
            .map_err(|e| self.log.fail(OAuthPhase::Registration, e))?;
        let pkce = Pkce::new();
        let state = random_token(24);
        let authorization_url = self.authorization_url(
            &found,
            &client.client_id,
            &redirect_uri,
            &pkce,
            &state,
            scope.as_deref(),
        );
        let mut step = blank(
            OAuthStepKind::Browser,
            OAuthPhase::Authorization,
            "Send the browser to the authorization endpoint",
        );
        step.to = OAuthParty::Browser;
        step.detail = Some(format!(
            "The person signs in and approves; the authorization server then redirects to \
             {redirect_uri} with `code` and `state`."
        ));
        step.data = Some(json!({
            "authorizationUrl": mask_url(&authorization_url),
            "redirectUri": redirect_uri,
            "state": state,
            "codeChallengeMethod": "S256",
            "scope": scope,
            "resource": found.resource,
        }));
        self.log.push(step);
        if let Some(w) = self.waiting {
            let _ = w.send(true);
        }
        let waited = pending
            .wait(&authorization_url, &state, self.log, self.http)
            .await;
        if let Some(w) = self.waiting {
            let _ = w.send(false);
        }
        let params = waited.map_err(|e| self.log.fail(OAuthPhase::Authorization, e))?;
        let code = self
            .check_callback(&found, &params, &state)
            .map_err(|e| self.log.fail(OAuthPhase::Authorization, e))?;
        let mut form = vec![
            ("grant_type".to_string(), "authorization_code".to_string()),
            ("code".into(), code),
            ("redirect_uri".into(), redirect_uri.clone()),
            ("code_verifier".into(), pkce.verifier.clone()),
        ];
        if let Some(resource) = &found.resource {
            form.push(("resource".into(), resource.clone()));
        }
        let dpop = self.dpop_key(&found, previous)?;
        let auth = ClientAuth {
            client_id: &client.client_id,
            client_secret: client.client_secret.as_deref(),
            method: auth_method,
            private_key_pem: self.opts.private_key_pem.as_deref(),
            audience: found.issuer_text(),
            dpop: dpop.as_ref(),
        };
        let tokens = token_request(self, OAuthPhase::Token, &found.token_endpoint, form, &auth)
            .await
            .map_err(|e| self.log.fail(OAuthPhase::Token, e))?;
        let tokens = with_requested_scope(tokens, scope);
        let mut client = client;
        client.auth_method = auth_method;
        Ok(Credentials {
            server_url: self.server.to_string(),
            issuer: found.issuer.clone(),
            token_endpoint: found.token_endpoint.to_string(),
            resource: found.resource.clone(),
            client,
            tokens: Some(tokens),
        })
    }

    /// Refreshes `creds`' tokens (keeping the refresh token when no new one comes back).
    pub(crate) async fn refresh(&self, creds: &Credentials) -> Result<Credentials, OAuthError> {
        let fail = |e| self.log.fail(OAuthPhase::Refresh, e);
        let Some(refresh_token) = creds.tokens.as_ref().and_then(|t| t.refresh_token.clone())
        else {
            return Err(fail(OAuthError::setup(
                "there is no refresh token",
                "sign in again",
            )));
        };
        let endpoint = Url::parse(&creds.token_endpoint).map_err(|e| {
            fail(OAuthError::setup(
                format!("the stored token endpoint is not a URL: {e}"),
                "sign out and sign in again",
            ))
        })?;
        let mut form = vec![
            ("grant_type".to_string(), "refresh_token".to_string()),
            ("refresh_token".into(), refresh_token.clone()),
        ];
        if let Some(resource) = &creds.resource {
            form.push(("resource".into(), resource.clone()));
        }
        // A DPoP-bound refresh token must be presented with the same key.
        let dpop = creds
            .tokens
            .as_ref()
            .and_then(|t| t.dpop_key.as_deref())
            .map(super::dpop::DpopKey::from_stored)
            .transpose()
            .map_err(fail)?;
        let auth = ClientAuth {
            client_id: &creds.client.client_id,
            client_secret: creds.client.client_secret.as_deref(),
            method: creds.client.auth_method,
            private_key_pem: self.opts.private_key_pem.as_deref(),
            audience: creds
                .issuer
                .as_deref()
                .unwrap_or(creds.token_endpoint.as_str()),
            dpop: dpop.as_ref(),
        };
        let mut tokens = token_request(self, OAuthPhase::Refresh, &endpoint, form, &auth)
            .await
            .map_err(fail)?;
        let old = creds.tokens.as_ref();
        if tokens.refresh_token.is_none() {
            tokens.refresh_token = Some(refresh_token);
        }
        if tokens.scope.is_none() {
            tokens.scope = old.and_then(|t| t.scope.clone());
        }
        let mut next = creds.clone();
        next.tokens = Some(tokens);
        Ok(next)
    }

    /// The DPoP key for this authorization when the authorization server supports DPoP with
    /// ES256 (the previous one when there is one, so tokens stay bound to one key).
    pub(crate) fn dpop_key(
        &self,
        found: &Discovery,
        previous: Option<&Credentials>,
    ) -> Result<Option<super::dpop::DpopKey>, OAuthError> {
        let algorithms = found.metadata.dpop_signing_alg_values_supported.as_ref();
        if !super::dpop::supported(algorithms) {
            if algorithms.is_some() {
                self.log.warn(
                    OAuthPhase::AuthServerMetadata,
                    format!(
                        "The authorization server supports DPoP only with {algorithms:?}; mcplab \
                         signs proofs with ES256, so it asks for Bearer tokens"
                    ),
                    "add ES256 to dpop_signing_alg_values_supported",
                );
            }
            return Ok(None);
        }
        let stored = previous
            .and_then(|p| p.tokens.as_ref())
            .and_then(|t| t.dpop_key.as_deref());
        let key = match stored {
            Some(text) => super::dpop::DpopKey::from_stored(text)?,
            None => super::dpop::DpopKey::generate()?,
        };
        self.log.chose(
            OAuthPhase::AuthServerMetadata,
            "Use DPoP-bound tokens (RFC 9449)",
            format!(
                "the authorization server advertises dpop_signing_alg_values_supported with \
                 ES256; every token request and MCP request carries a proof signed with the \
                 key {}",
                key.jwk()
            ),
        );
        Ok(Some(key))
    }

    /// PKCE S256 is required; the metadata must allow it.
    fn check_pkce(&self, found: &Discovery) -> Result<(), OAuthError> {
        let phase = OAuthPhase::AuthServerMetadata;
        match &found.metadata.code_challenge_methods_supported {
            Some(methods) if methods.iter().any(|m| m == "S256") => {
                self.log.chose(
                    phase,
                    "PKCE with S256",
                    "the authorization server lists S256 in code_challenge_methods_supported",
                );
                Ok(())
            }
            Some(methods) => Err(self.log.fail(
                phase,
                OAuthError::setup(
                    format!(
                        "the authorization server supports the PKCE methods [{}] but not S256, \
                         which MCP clients must use",
                        methods.join(", ")
                    ),
                    "support S256 and list it in code_challenge_methods_supported",
                ),
            )),
            None if !found.metadata_found => {
                self.log.chose(
                    phase,
                    "PKCE with S256",
                    "there is no metadata to check it against (2025-03-26 default endpoints)",
                );
                Ok(())
            }
            None if self.rules.pkce_must_be_advertised() && !found.legacy => Err(self.log.fail(
                phase,
                OAuthError::setup(
                    "the authorization server metadata has no code_challenge_methods_supported, \
                     which means it does not support PKCE; MCP clients must refuse to proceed",
                    "add \"code_challenge_methods_supported\": [\"S256\"] to the authorization \
                     server metadata",
                ),
            )),
            None => {
                self.log.warn(
                    phase,
                    "The metadata does not list code_challenge_methods_supported; using S256 \
                     anyway",
                    "add \"code_challenge_methods_supported\": [\"S256\"] (required since \
                     2025-11-25)",
                );
                Ok(())
            }
        }
    }

    /// The scope to request, and why: configured, else (step-up) what the token had plus what
    /// the 403 asks for, else the 401's `scope`, else the resource's `scopes_supported`, else
    /// none. `offline_access` is added when the authorization server lists it (SEP-2207).
    pub(crate) fn select_scope(
        &self,
        found: &Discovery,
        challenge: Option<&BearerChallenge>,
        previous: Option<&Credentials>,
        step_up: bool,
    ) -> Option<String> {
        let phase = if step_up {
            OAuthPhase::StepUp
        } else {
            OAuthPhase::Authorization
        };
        let from_challenge = challenge.and_then(|c| c.scope.clone());
        let from_metadata = found
            .resource_metadata
            .as_ref()
            .and_then(|m| m.scopes_supported.as_ref())
            .filter(|s| !s.is_empty())
            .map(|s| s.join(" "));
        let (scope, why) = if let Some(scope) = &self.opts.scope {
            (
                Some(scope.clone()),
                "configured for this server".to_string(),
            )
        } else if step_up {
            let had = previous
                .and_then(|p| p.tokens.as_ref())
                .and_then(|t| t.scope.clone());
            let merged = merge_scopes(had.as_deref(), from_challenge.as_deref());
            (
                merged,
                "step-up: the scope the token had plus the scope the 403 insufficient_scope \
                 challenge asks for"
                    .to_string(),
            )
        } else if let Some(scope) = from_challenge {
            (
                Some(scope),
                "the `scope` of the WWW-Authenticate challenge".to_string(),
            )
        } else if let Some(scope) = from_metadata {
            (
                Some(scope),
                "all of the protected resource metadata's scopes_supported (the challenge \
                 named no scope)"
                    .to_string(),
            )
        } else {
            (
                None,
                "neither the challenge nor the protected resource metadata names scopes, so \
                 the scope parameter is omitted"
                    .to_string(),
            )
        };
        let scope = match scope {
            Some(s)
                if found.metadata.lists_scope("offline_access")
                    && self.opts.grant == OAuthGrant::AuthorizationCode
                    && !s.split_whitespace().any(|x| x == "offline_access") =>
            {
                self.log.chose(
                    phase,
                    "Add offline_access to the scope",
                    "the authorization server lists it in scopes_supported, and a refresh \
                     token lets mcplab renew access without asking again",
                );
                Some(format!("{s} offline_access"))
            }
            other => other,
        };
        let title = match &scope {
            Some(s) => format!("Request scope \"{s}\""),
            None => "Request no scope".to_string(),
        };
        self.log.chose(phase, title, why);
        scope
    }

    fn authorization_url(
        &self,
        found: &Discovery,
        client_id: &str,
        redirect_uri: &str,
        pkce: &Pkce,
        state: &str,
        scope: Option<&str>,
    ) -> Url {
        let mut url = found.authorization_endpoint.clone();
        {
            let mut q = url.query_pairs_mut();
            q.append_pair("response_type", "code");
            q.append_pair("client_id", client_id);
            q.append_pair("redirect_uri", redirect_uri);
            q.append_pair("code_challenge", &pkce.challenge);
            q.append_pair("code_challenge_method", "S256");
            q.append_pair("state", state);
            if let Some(scope) = scope {
                q.append_pair("scope", scope);
            }
            if let Some(resource) = &found.resource {
                q.append_pair("resource", resource);
            }
        }
        url
    }

    /// The authorization response's `iss` against the issuer recorded from the validated
    /// metadata: a present `iss` must equal it exactly (no case folding, default-port,
    /// trailing-slash or percent-encoding normalization), advertised or not; an absent one is
    /// an error only when the metadata advertises `authorization_response_iss_parameter_supported`.
    fn check_iss(&self, found: &Discovery, params: &CallbackParams) -> Result<(), OAuthError> {
        let advertised = found
            .metadata
            .authorization_response_iss_parameter_supported
            == Some(true);
        match (&params.iss, found.issuer.as_deref()) {
            (Some(iss), Some(issuer)) if iss != issuer => Err(OAuthError::setup(
                format!(
                    "the redirect's `iss` {iss} is not the issuer {issuer} recorded from the \
                     authorization server's metadata (RFC 9207; compared exactly, without \
                     normalization): the response may come from another authorization server \
                     (mix-up) and was rejected"
                ),
                "the authorization server must send exactly its metadata's `issuer` in `iss`",
            )),
            (None, _) if advertised => Err(OAuthError::setup(
                "the authorization server advertises authorization_response_iss_parameter_supported \
                 but the redirect carries no `iss`; the response was rejected (RFC 9207)",
                "the authorization server must include `iss` in every authorization response",
            )),
            _ => Ok(()),
        }
    }

    /// Validates the redirect's parameters and returns the code.
    fn check_callback(
        &self,
        found: &Discovery,
        params: &CallbackParams,
        state: &str,
    ) -> Result<String, OAuthError> {
        if params.state.as_deref() != Some(state) {
            return Err(OAuthError::setup(
                "the redirect's `state` does not match the one sent, so the response may not \
                 belong to this request (possible CSRF); it was rejected",
                "the authorization server must return the `state` parameter unchanged",
            ));
        }
        // RFC 9207 §2.4 as 2026-07-28 requires it, before anything else of the response is
        // used (error responses included).
        self.check_iss(found, params)?;
        if let Some(error) = &params.error {
            return Err(OAuthError::Denied {
                error: error.clone(),
                description: params.error_description.clone(),
            });
        }
        let Some(code) = params.code.clone().filter(|c| !c.is_empty()) else {
            return Err(OAuthError::setup(
                "the redirect carries no `code`",
                "the authorization server must redirect with `code` and `state`",
            ));
        };
        self.log.note(
            OAuthStepKind::Browser,
            OAuthPhase::Authorization,
            "The redirect came back with a code and the expected state",
            None,
            Some(json!({ "code": super::mask::mask_secret(&code), "state": state })),
        );
        Ok(code)
    }
}

/// Records the scope that was asked for when the token response named none (RFC 6749 §5.1:
/// then the granted scope is the requested one).
pub(crate) fn with_requested_scope(mut tokens: TokenSet, requested: Option<String>) -> TokenSet {
    if tokens.scope.is_none() {
        tokens.scope = requested;
    }
    tokens.obtained_at_ms = now_ms();
    tokens
}

/// The union of two space-separated scope lists, first-seen order.
pub(crate) fn merge_scopes(a: Option<&str>, b: Option<&str>) -> Option<String> {
    let mut out: Vec<&str> = Vec::new();
    for s in a.into_iter().chain(b).flat_map(str::split_whitespace) {
        if !out.contains(&s) {
            out.push(s);
        }
    }
    (!out.is_empty()).then(|| out.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scopes_merge_without_duplicates() {
        assert_eq!(
            merge_scopes(Some("mcp:basic"), Some("mcp:basic mcp:write")).as_deref(),
            Some("mcp:basic mcp:write")
        );
        assert_eq!(merge_scopes(None, None), None);
        assert_eq!(merge_scopes(None, Some("a")).as_deref(), Some("a"));
    }

    #[test]
    fn rules_per_revision() {
        let auto = Rules::new(None);
        assert!(auto.legacy_fallback() && auto.openid_discovery() && !auto.legacy_only());
        let march = Rules::new(Some(OAuthRevision::V2025_03_26));
        assert!(march.legacy_only() && !march.legacy_fallback());
        let june = Rules::new(Some(OAuthRevision::V2025_06_18));
        assert!(!june.resource_metadata_well_known() && !june.openid_discovery());
        assert!(!june.pkce_must_be_advertised() && !june.client_metadata_documents());
    }
}

#[cfg(test)]
mod scope_tests {
    use super::*;
    use crate::agent::NonInteractiveAgent;
    use crate::credentials::ClientRegistration;
    use crate::metadata::{AuthServerMetadata, ResourceMetadata};

    fn found(prm_scopes: Option<&[&str]>, as_scopes: Option<&[&str]>) -> Discovery {
        let url = Url::parse("https://as.test/token").unwrap();
        let list = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        Discovery {
            resource_metadata: Some(ResourceMetadata {
                scopes_supported: prm_scopes.map(list),
                ..ResourceMetadata::default()
            }),
            resource: None,
            issuer: None,
            metadata: AuthServerMetadata {
                scopes_supported: as_scopes.map(list),
                ..AuthServerMetadata::default()
            },
            metadata_found: true,
            legacy: false,
            authorization_endpoint: url.clone(),
            token_endpoint: url,
            registration_endpoint: None,
        }
    }

    fn select(
        opts: &FlowOptions,
        found: &Discovery,
        challenge: Option<&str>,
        had: Option<&str>,
        step_up: bool,
    ) -> Option<String> {
        let http = OAuthHttp::new("test").unwrap();
        let log = StepLog::new();
        let server = Url::parse("https://mcp.test/mcp").unwrap();
        let agent = NonInteractiveAgent::new();
        let flow = Flow {
            http: &http,
            log: &log,
            opts,
            rules: Rules::new(None),
            server: &server,
            server_name: "s",
            agent: &agent,
            waiting: None,
        };
        let challenge = challenge.map(|s| BearerChallenge {
            scope: Some(s.into()),
            ..BearerChallenge::default()
        });
        let previous = had.map(|s| Credentials {
            server_url: server.to_string(),
            issuer: None,
            token_endpoint: String::new(),
            resource: None,
            client: ClientRegistration::pre("c".into(), None),
            tokens: Some(TokenSet {
                dpop_key: None,
                access_token: "a".into(),
                token_type: "Bearer".into(),
                refresh_token: None,
                expires_at_ms: None,
                scope: Some(s.into()),
                obtained_at_ms: 0,
            }),
        });
        flow.select_scope(found, challenge.as_ref(), previous.as_ref(), step_up)
    }

    #[test]
    fn challenge_then_scopes_supported_then_nothing() {
        let opts = FlowOptions::default();
        let both = found(Some(&["a", "b"]), None);
        assert_eq!(
            select(&opts, &both, Some("x"), None, false).as_deref(),
            Some("x")
        );
        assert_eq!(
            select(&opts, &both, None, None, false).as_deref(),
            Some("a b")
        );
        let none = found(None, None);
        assert_eq!(select(&opts, &none, None, None, false), None);
        let empty = found(Some(&[]), None);
        assert_eq!(select(&opts, &empty, None, None, false), None);
    }

    #[test]
    fn configured_scope_step_up_union_and_offline_access() {
        let configured = FlowOptions {
            scope: Some("mine".into()),
            ..FlowOptions::default()
        };
        let f = found(Some(&["a"]), None);
        assert_eq!(
            select(&configured, &f, Some("x"), None, false).as_deref(),
            Some("mine")
        );
        let opts = FlowOptions::default();
        assert_eq!(
            select(&opts, &f, Some("a b"), Some("a"), true).as_deref(),
            Some("a b")
        );
        let offline = found(Some(&["a"]), Some(&["a", "offline_access"]));
        assert_eq!(
            select(&opts, &offline, None, None, false).as_deref(),
            Some("a offline_access")
        );
        // Never alone: without another scope the parameter stays omitted.
        let offline_only = found(None, Some(&["offline_access"]));
        assert_eq!(select(&opts, &offline_only, None, None, false), None);
    }
}
