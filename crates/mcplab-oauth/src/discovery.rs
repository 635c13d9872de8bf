//! Discovery: from the server URL (and the 401's challenge) to the authorization server's
//! endpoints. Protected resource metadata comes from the challenge's `resource_metadata` or the
//! well-known URLs; its `resource` must identify the server; its first authorization server's
//! metadata comes from the URLs the revision lists, and its `issuer` must be that server. When
//! no protected resource metadata exists and the rules allow it, the 2025-03-26 rules apply:
//! the MCP server's origin is the authorization server, with default endpoints when it serves
//! no metadata either. Every failure says what to change on the server.

use mcplab_protocol::oauth::{OAuthGrant, OAuthParty, OAuthPhase, OAuthRevision};
use serde_json::{Value, json};
use url::Url;

use super::OAuthError;
use super::challenge::BearerChallenge;
use super::flow::Flow;
use super::http::Purpose;
use super::mask::mask_step_value;
use super::metadata::{self, AuthServerMetadata, ResourceMetadata, endpoint, same_issuer};
use super::urls::{
    MetadataKind, auth_server_metadata_urls, canonical_resource, legacy_default_endpoints,
    origin_of, resource_covers, resource_metadata_urls,
};

/// What discovery found.
#[derive(Debug, Clone)]
pub(crate) struct Discovery {
    pub resource_metadata: Option<ResourceMetadata>,
    /// The `resource` parameter to send (None under the 2025-03-26 rules).
    pub resource: Option<String>,
    /// The issuer identifier exactly as listed (or as the 2025-03-26 metadata says).
    pub issuer: Option<String>,
    pub metadata: AuthServerMetadata,
    /// False when the 2025-03-26 default endpoints stand in for missing metadata.
    pub metadata_found: bool,
    /// The 2025-03-26 rules are in effect.
    pub legacy: bool,
    pub authorization_endpoint: Url,
    pub token_endpoint: Url,
    pub registration_endpoint: Option<Url>,
}

impl Discovery {
    /// The authorization server's identifier (the audience of client assertions).
    pub(crate) fn issuer_text(&self) -> &str {
        self.issuer
            .as_deref()
            .unwrap_or(self.token_endpoint.as_str())
    }

    pub(crate) async fn run(
        flow: &Flow<'_>,
        challenge: Option<&BearerChallenge>,
    ) -> Result<Self, OAuthError> {
        let found = Self::find(flow, challenge).await?;
        // The person's browser is sent to the authorization endpoint, and the others are
        // posted to: a remote server may not point them inside the user's network.
        let mut endpoints = vec![
            found.authorization_endpoint.clone(),
            found.token_endpoint.clone(),
        ];
        endpoints.extend(found.registration_endpoint.clone());
        for url in endpoints {
            if let Err(e) = flow.http.vet(&url).await {
                return Err(flow.log.fail(OAuthPhase::AuthServerMetadata, e));
            }
        }
        Ok(found)
    }

    async fn find(
        flow: &Flow<'_>,
        challenge: Option<&BearerChallenge>,
    ) -> Result<Self, OAuthError> {
        if flow.rules.legacy_only() {
            flow.log.chose(
                OAuthPhase::ResourceMetadata,
                "Skip protected resource metadata",
                "the 2025-03-26 rules predate it: the MCP server's origin is the authorization \
                 server",
            );
            return legacy(flow).await;
        }
        match find_resource_metadata(flow, challenge).await? {
            Some(prm) => with_resource_metadata(flow, prm).await,
            None if flow.rules.legacy_fallback() => {
                flow.log.chose(
                    OAuthPhase::ResourceMetadata,
                    "Fall back to the 2025-03-26 rules",
                    "the server publishes no protected resource metadata, so it is treated as \
                     a 2025-03-26 server whose origin is the authorization server",
                );
                legacy(flow).await
            }
            None => Err(flow.log.fail(
                OAuthPhase::ResourceMetadata,
                OAuthError::setup(
                    "no protected resource metadata (RFC 9728) was found, which the chosen \
                     revision requires",
                    format!(
                        "serve it at {} and name it in the 401's header: \
                         WWW-Authenticate: Bearer resource_metadata=\"<that URL>\"",
                        resource_metadata_urls(flow.server)[0]
                    ),
                ),
            )),
        }
    }
}

/// Fetches the protected resource metadata from the candidates in order.
pub(crate) async fn find_resource_metadata(
    flow: &Flow<'_>,
    challenge: Option<&BearerChallenge>,
) -> Result<Option<ResourceMetadata>, OAuthError> {
    let phase = OAuthPhase::ResourceMetadata;
    let log = flow.log;
    let named = challenge.and_then(|c| c.resource_metadata.clone());
    let mut candidates: Vec<Url> = Vec::new();
    match &named {
        Some(text) => match Url::parse(text) {
            Ok(url) => {
                log.discovered(
                    phase,
                    "The challenge names the protected resource metadata",
                    json!({ "resource_metadata": text }),
                );
                candidates.push(url);
            }
            Err(e) => log.warn(
                phase,
                format!("The challenge's resource_metadata `{text}` is not a URL ({e})"),
                "put the absolute URL of the metadata document in resource_metadata",
            ),
        },
        None if flow.rules.resource_metadata_well_known() => log.chose(
            phase,
            "Look for protected resource metadata at the well-known URLs",
            "the challenge names no resource_metadata: try the path-based URL first, then the \
             root (RFC 9728 §3.1)",
        ),
        None => {}
    }
    let lenient = flow.rules.legacy_fallback();
    if candidates.is_empty() || lenient {
        if flow.rules.resource_metadata_well_known() {
            candidates.extend(resource_metadata_urls(flow.server));
        } else if candidates.is_empty() {
            log.warn(
                phase,
                "The 401 has no resource_metadata parameter",
                "since 2025-06-18 servers must name their protected resource metadata in \
                 WWW-Authenticate: Bearer resource_metadata=\"<url>\"",
            );
        }
    }
    candidates.dedup();
    for (i, url) in candidates.iter().enumerate() {
        let purpose = Purpose {
            phase,
            party: OAuthParty::McpServer,
            title: "Fetch the protected resource metadata",
        };
        let resp = flow.http.get_following(log, &purpose, url, &[]).await?;
        let named_url = i == 0 && named.is_some();
        if !resp.status.is_success() {
            if named_url && !lenient {
                return Err(log.fail(
                    phase,
                    OAuthError::setup(
                        format!(
                            "the protected resource metadata named by the challenge ({url}) \
                             answered HTTP {}",
                            resp.status.as_u16()
                        ),
                        "serve the metadata at that URL, or correct resource_metadata",
                    ),
                ));
            }
            continue;
        }
        let parsed = resp
            .json()
            .ok_or_else(|| "the body is not JSON".to_string())
            .and_then(|v| metadata::parse::<ResourceMetadata>(&v).map(|m| (m, v)));
        match parsed {
            Ok((prm, raw)) => {
                log.discovered(
                    phase,
                    format!("Found the protected resource metadata at {url}"),
                    mask_step_value(&raw),
                );
                return Ok(Some(prm));
            }
            Err(why) if !lenient => {
                return Err(log.fail(
                    phase,
                    OAuthError::setup(
                        format!("{url} is not protected resource metadata: {why}"),
                        "serve a JSON object with `resource` and `authorization_servers`",
                    ),
                ));
            }
            Err(why) => log.warn(
                phase,
                format!("{url} is not protected resource metadata: {why}"),
                "serve a JSON object with `resource` and `authorization_servers`",
            ),
        }
    }
    Ok(None)
}

/// The 2025-06-18+ path: validate the resource metadata, then find the authorization server.
async fn with_resource_metadata(
    flow: &Flow<'_>,
    prm: ResourceMetadata,
) -> Result<Discovery, OAuthError> {
    let phase = OAuthPhase::ResourceMetadata;
    let log = flow.log;
    let canonical = canonical_resource(flow.server);
    let resource = match prm.resource.as_deref() {
        Some(r) if resource_covers(r, flow.server) => {
            log.chose(
                phase,
                format!("Send resource={r} (RFC 8707)"),
                format!(
                    "the metadata's `resource` identifies this server ({canonical}); tokens \
                     are requested for it"
                ),
            );
            r.to_string()
        }
        Some(r) => {
            return Err(log.fail(
                phase,
                OAuthError::setup(
                    format!(
                        "the protected resource metadata's `resource` ({r}) does not match the \
                         server URL ({canonical}), so its authorization servers cannot be \
                         trusted for this server"
                    ),
                    format!(
                        "set \"resource\": \"{canonical}\" in the protected resource metadata \
                         (the URL clients connect to), or connect to the URL it describes"
                    ),
                ),
            ));
        }
        None => {
            log.warn(
                phase,
                "The protected resource metadata has no `resource`",
                format!("add \"resource\": \"{canonical}\" (required by RFC 9728)"),
            );
            canonical.clone()
        }
    };
    let Some(first) = prm.authorization_servers.first() else {
        return Err(log.fail(
            phase,
            OAuthError::setup(
                "the protected resource metadata lists no authorization_servers",
                "add \"authorization_servers\": [\"<your authorization server's issuer URL>\"]",
            ),
        ));
    };
    let issuer = Url::parse(first).map_err(|e| {
        log.fail(
            phase,
            OAuthError::setup(
                format!("the authorization server `{first}` is not a URL: {e}"),
                "list the authorization server's issuer URL (https://…)",
            ),
        )
    })?;
    let why = match prm.authorization_servers.len() {
        1 => "the only one the protected resource metadata lists".to_string(),
        n => format!("the first of the {n} the protected resource metadata lists"),
    };
    log.chose(
        OAuthPhase::AuthServerMetadata,
        format!("Use the authorization server {first}"),
        why,
    );
    let metadata = fetch_auth_server_metadata(flow, &issuer, first).await?;
    let (authorization_endpoint, token_endpoint) = required_endpoints(flow, &metadata)?;
    Ok(Discovery {
        resource: Some(resource),
        issuer: Some(first.clone()),
        registration_endpoint: endpoint(metadata.registration_endpoint.as_deref()),
        authorization_endpoint,
        token_endpoint,
        metadata,
        metadata_found: true,
        legacy: false,
        resource_metadata: Some(prm),
    })
}

/// Fetches the authorization server metadata from the revision's URLs in order and checks its
/// issuer.
async fn fetch_auth_server_metadata(
    flow: &Flow<'_>,
    issuer_url: &Url,
    issuer: &str,
) -> Result<AuthServerMetadata, OAuthError> {
    let phase = OAuthPhase::AuthServerMetadata;
    let log = flow.log;
    let candidates = auth_server_metadata_urls(issuer_url, flow.rules);
    let mut tried = Vec::new();
    for (url, kind) in &candidates {
        let title = match kind {
            MetadataKind::OAuth => "Fetch the OAuth authorization server metadata",
            MetadataKind::OpenId => "Fetch the OpenID configuration",
        };
        let purpose = Purpose {
            phase,
            party: OAuthParty::AuthorizationServer,
            title,
        };
        let resp = flow.http.get_following(log, &purpose, url, &[]).await?;
        tried.push(url.to_string());
        if !resp.status.is_success() {
            continue;
        }
        let Some(raw) = resp.json() else {
            log.warn(
                phase,
                format!("{url} answered 200 but not with JSON"),
                "serve the metadata as application/json",
            );
            continue;
        };
        let parsed: AuthServerMetadata = metadata::parse(&raw).map_err(|why| {
            log.fail(
                phase,
                OAuthError::setup(
                    format!("{url} is not {}: {why}", kind.label()),
                    "serve a JSON object with issuer, authorization_endpoint and token_endpoint",
                ),
            )
        })?;
        log.discovered(
            phase,
            format!("Found the {} at {url}", kind.label()),
            mask_step_value(&raw),
        );
        match parsed.issuer.as_deref() {
            Some(found) if same_issuer(found, issuer) => {}
            Some(found) => {
                return Err(log.fail(
                    phase,
                    OAuthError::setup(
                        format!(
                            "the metadata at {url} says its issuer is {found}, not {issuer} \
                             (the authorization server the resource metadata names)"
                        ),
                        format!(
                            "make \"issuer\" exactly {issuer}, or list {found} in the protected \
                             resource metadata's authorization_servers"
                        ),
                    ),
                ));
            }
            None => log.warn(
                phase,
                "The authorization server metadata has no issuer",
                format!("add \"issuer\": \"{issuer}\" (required by RFC 8414)"),
            ),
        }
        return Ok(parsed);
    }
    Err(log.fail(
        phase,
        OAuthError::setup(
            format!(
                "the authorization server {issuer} serves no metadata at any of: {}",
                tried.join(", ")
            ),
            format!("serve RFC 8414 metadata at {}", tried[0]),
        ),
    ))
}

fn required_endpoints(
    flow: &Flow<'_>,
    metadata: &AuthServerMetadata,
) -> Result<(Url, Url), OAuthError> {
    let phase = OAuthPhase::AuthServerMetadata;
    let needs_authorize = flow.opts.grant == OAuthGrant::AuthorizationCode;
    let token = endpoint(metadata.token_endpoint.as_deref()).ok_or_else(|| {
        flow.log.fail(
            phase,
            OAuthError::setup(
                "the authorization server metadata has no valid token_endpoint",
                "add \"token_endpoint\" with an absolute https URL",
            ),
        )
    })?;
    let authorize = match endpoint(metadata.authorization_endpoint.as_deref()) {
        Some(url) => url,
        None if needs_authorize => {
            return Err(flow.log.fail(
                phase,
                OAuthError::setup(
                    "the authorization server metadata has no valid authorization_endpoint",
                    "add \"authorization_endpoint\" with an absolute https URL",
                ),
            ));
        }
        None => token.clone(),
    };
    if needs_authorize
        && let Some(types) = &metadata.response_types_supported
        && !types.iter().any(|t| t == "code")
    {
        flow.log.warn(
            phase,
            "The metadata's response_types_supported does not list `code`",
            "list \"code\" in response_types_supported (the authorization code flow needs it)",
        );
    }
    Ok((authorize, token))
}

/// The 2025-03-26 path: metadata at the MCP server's origin, or the default endpoints.
async fn legacy(flow: &Flow<'_>) -> Result<Discovery, OAuthError> {
    let phase = OAuthPhase::AuthServerMetadata;
    let log = flow.log;
    let base = origin_of(flow.server);
    let march = super::flow::Rules::new(Some(OAuthRevision::V2025_03_26));
    let (url, _) = auth_server_metadata_urls(&base, march).remove(0);
    let purpose = Purpose {
        phase,
        party: OAuthParty::AuthorizationServer,
        title: "Fetch the OAuth metadata at the MCP server's origin",
    };
    let headers = [("MCP-Protocol-Version".to_string(), "2025-03-26".to_string())];
    let resp = flow
        .http
        .get_following(log, &purpose, &url, &headers)
        .await?;
    let raw: Option<Value> = resp.status.is_success().then(|| resp.json()).flatten();
    if let Some(raw) = raw {
        let parsed: AuthServerMetadata = metadata::parse(&raw).map_err(|why| {
            log.fail(
                phase,
                OAuthError::setup(
                    format!("{url} is not authorization server metadata: {why}"),
                    "serve RFC 8414 metadata there, or nothing (404) to use the default endpoints",
                ),
            )
        })?;
        log.discovered(
            phase,
            format!("Found the OAuth authorization server metadata at {url}"),
            mask_step_value(&raw),
        );
        let (authorization_endpoint, token_endpoint) = required_endpoints(flow, &parsed)?;
        return Ok(Discovery {
            resource_metadata: None,
            resource: None,
            issuer: parsed.issuer.clone(),
            registration_endpoint: endpoint(parsed.registration_endpoint.as_deref()),
            authorization_endpoint,
            token_endpoint,
            metadata: parsed,
            metadata_found: true,
            legacy: true,
        });
    }
    let (authorize, token, register) = legacy_default_endpoints(flow.server);
    log.chose(
        phase,
        "Use the default endpoints /authorize, /token and /register",
        format!(
            "{url} answered HTTP {}: a 2025-03-26 server without metadata uses the default \
             endpoints at its origin",
            resp.status.as_u16()
        ),
    );
    Ok(Discovery {
        resource_metadata: None,
        resource: None,
        issuer: None,
        metadata: AuthServerMetadata::default(),
        metadata_found: false,
        legacy: true,
        authorization_endpoint: authorize,
        token_endpoint: token,
        registration_endpoint: Some(register),
    })
}
