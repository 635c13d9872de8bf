//! The OAuth part of the command line, as clap types: the mode (`--oauth
//! interactive|non-interactive|off`), the `--oauth-*` settings of `--url` targets (also stored
//! by `servers add`), and `mcplab oauth debug|login|logout|status`. Parsing only.

use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};
use mcplab_protocol::oauth::{
    EnterpriseIdp, OAuthConfig, OAuthGrant, OAuthRevision, RegistrationMethod,
};

use crate::failure::Failure;

/// How the CLI signs in when a server answers 401.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OAuthMode {
    /// Open the browser at the authorization URL (printed too, for when none opens) and wait
    /// for the redirect on a loopback port.
    #[default]
    Interactive,
    /// Never open a browser: fetch the authorization URL and follow its redirect, for
    /// authorization servers that approve without a person (CI, tests).
    NonInteractive,
    /// No OAuth: a 401 is an error.
    Off,
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Registration {
    /// Pre-registered if a client id is given, else CIMD if given and supported, else DCR.
    Auto,
    /// Client ID Metadata Document (the document URL is the client id).
    Cimd,
    /// Dynamic client registration (RFC 7591).
    Dcr,
    /// A client id (and secret) registered beforehand.
    Pre,
}

impl Registration {
    pub fn method(self) -> RegistrationMethod {
        match self {
            Registration::Auto => RegistrationMethod::Auto,
            Registration::Cimd => RegistrationMethod::Cimd,
            Registration::Dcr => RegistrationMethod::Dcr,
            Registration::Pre => RegistrationMethod::Pre,
        }
    }
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grant {
    /// Authorization code with PKCE through the browser (the MCP default).
    AuthorizationCode,
    /// Client credentials, no user (SEP-1046): needs a client id and a secret or private key.
    ClientCredentials,
    /// Enterprise-managed cross-app access (SEP-990): exchanges --oauth-id-token at
    /// --oauth-idp-token-endpoint, then signs in with the assertion; needs a client id and secret.
    CrossAppAccess,
    /// Workload identity federation (SEP-1933): the JWT bearer grant with the workload's JWT
    /// (--oauth-assertion or --oauth-assertion-file); needs a client id.
    WorkloadIdentity,
}

fn parse_revision(text: &str) -> Result<OAuthRevision, String> {
    OAuthRevision::parse(text)
        .ok_or_else(|| "expected 2025-03-26, 2025-06-18 or 2025-11-25".to_string())
}

/// OAuth settings for `--url` targets (and what `servers add` stores).
#[derive(Args, Debug, Clone, Default)]
#[command(next_help_heading = "OAuth (for --url)")]
pub struct OAuthTargetArgs {
    /// OAuth client id registered beforehand, for --url.
    #[arg(long = "oauth-client-id", id = "oauth-client-id", value_name = "ID")]
    pub client_id: Option<String>,
    /// Its client secret.
    #[arg(
        long = "oauth-client-secret",
        id = "oauth-client-secret",
        value_name = "SECRET",
        env = "MCPLAB_OAUTH_CLIENT_SECRET",
        hide_env_values = true
    )]
    pub client_secret: Option<String>,
    /// A Client ID Metadata Document URL, used as client id where the server supports it.
    #[arg(long = "oauth-cimd-url", id = "oauth-cimd-url", value_name = "URL")]
    pub cimd_url: Option<String>,
    /// Scopes to request (space-separated) instead of the ones the server asks for.
    #[arg(long = "oauth-scope", id = "oauth-scope", value_name = "SCOPES")]
    pub scope: Option<String>,
    /// How to get a client id.
    #[arg(
        long = "oauth-registration",
        id = "oauth-registration",
        value_enum,
        value_name = "METHOD"
    )]
    pub registration: Option<Registration>,
    /// The MCP revision whose authorization rules to follow (default: the latest, with the
    /// older ones' fallbacks).
    #[arg(long = "oauth-revision", id = "oauth-revision", value_name = "REV", value_parser = parse_revision)]
    pub revision: Option<OAuthRevision>,
    /// The grant: authorization-code (default) or client-credentials.
    #[arg(
        long = "oauth-grant",
        id = "oauth-grant",
        value_enum,
        value_name = "GRANT"
    )]
    pub grant: Option<Grant>,
    /// A PKCS#8 PEM EC P-256 key file for private_key_jwt client authentication (ES256).
    #[arg(
        long = "oauth-private-key",
        id = "oauth-private-key",
        value_name = "FILE"
    )]
    pub private_key: Option<PathBuf>,
    /// Cross-app access: the enterprise identity provider's token endpoint.
    #[arg(
        long = "oauth-idp-token-endpoint",
        id = "oauth-idp-token-endpoint",
        value_name = "URL"
    )]
    pub idp_token_endpoint: Option<String>,
    /// Cross-app access: this client's id at the identity provider.
    #[arg(
        long = "oauth-idp-client-id",
        id = "oauth-idp-client-id",
        value_name = "ID"
    )]
    pub idp_client_id: Option<String>,
    /// Cross-app access: the user's ID token from the identity provider.
    #[arg(
        long = "oauth-id-token",
        id = "oauth-id-token",
        value_name = "JWT",
        env = "MCPLAB_OAUTH_ID_TOKEN",
        hide_env_values = true
    )]
    pub id_token: Option<String>,
    /// Workload identity: the workload's JWT.
    #[arg(
        long = "oauth-assertion",
        id = "oauth-assertion",
        value_name = "JWT",
        env = "MCPLAB_OAUTH_ASSERTION",
        hide_env_values = true,
        conflicts_with = "oauth-assertion-file"
    )]
    pub assertion: Option<String>,
    /// Workload identity: a file holding the workload's JWT (e.g. a projected service-account
    /// token), read at start.
    #[arg(
        long = "oauth-assertion-file",
        id = "oauth-assertion-file",
        value_name = "FILE"
    )]
    pub assertion_file: Option<PathBuf>,
}

impl OAuthTargetArgs {
    /// The settings as a config (None when no flag was given).
    pub fn config(&self) -> Result<Option<OAuthConfig>, Failure> {
        let private_key_pem = match &self.private_key {
            Some(path) => Some(std::fs::read_to_string(path).map_err(|e| {
                Failure::usage(format!(
                    "cannot read the private key {}: {e}",
                    path.display()
                ))
            })?),
            None => None,
        };
        let config = OAuthConfig {
            client_id: self.client_id.clone(),
            client_secret: self.client_secret.clone(),
            client_metadata_url: self.cimd_url.clone(),
            scope: self.scope.clone(),
            registration: self.registration.map(Registration::method),
            revision: self.revision,
            grant: self.grant.map(|g| match g {
                Grant::AuthorizationCode => OAuthGrant::AuthorizationCode,
                Grant::ClientCredentials => OAuthGrant::ClientCredentials,
                Grant::CrossAppAccess => OAuthGrant::CrossAppAccess,
                Grant::WorkloadIdentity => OAuthGrant::WorkloadIdentity,
            }),
            private_key_pem,
            enterprise: self.enterprise()?,
            assertion: match &self.assertion_file {
                Some(path) => Some(
                    std::fs::read_to_string(path)
                        .map(|t| t.trim().to_owned())
                        .map_err(|e| {
                            Failure::usage(format!("cannot read {}: {e}", path.display()))
                        })?,
                ),
                None => self.assertion.clone(),
            },
            disabled: false,
        };
        Ok((!config.is_empty()).then_some(config))
    }

    fn enterprise(&self) -> Result<Option<EnterpriseIdp>, Failure> {
        match (&self.idp_token_endpoint, &self.id_token) {
            (None, None) if self.idp_client_id.is_none() => Ok(None),
            (Some(endpoint), Some(token)) => Ok(Some(EnterpriseIdp {
                token_endpoint: endpoint.clone(),
                client_id: self.idp_client_id.clone(),
                client_secret: None,
                id_token: token.clone(),
            })),
            _ => Err(Failure::usage(
                "cross-app access needs both --oauth-idp-token-endpoint and --oauth-id-token",
            )),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.client_id.is_none()
            && self.client_secret.is_none()
            && self.cimd_url.is_none()
            && self.scope.is_none()
            && self.registration.is_none()
            && self.revision.is_none()
            && self.grant.is_none()
            && self.private_key.is_none()
            && self.idp_token_endpoint.is_none()
            && self.idp_client_id.is_none()
            && self.id_token.is_none()
            && self.assertion.is_none()
            && self.assertion_file.is_none()
    }
}

#[derive(Subcommand, Debug)]
pub enum OauthCmd {
    /// Run the authorization flow for a server URL step by step, printing every exchange
    /// (secrets masked), what was discovered and chosen, and the fix when it fails.
    Debug(OauthDebugArgs),
    /// Sign in to a server (--server NAME or --url URL) and store its tokens.
    Login,
    /// Forget a server's tokens and client registration (--server NAME or --url URL).
    Logout,
    /// Show the stored sign-ins (tokens masked).
    Status,
}

#[derive(Args, Debug)]
#[command(
    after_help = "With --json, every step is a JSON line {\"kind\":\"step\",\"step\":…} \
    and the last line is {\"kind\":\"finished\",\"run\":…}. Exit codes: 0 authorized, 3 the flow \
    failed (the last step says the fix), 2 usage."
)]
pub struct OauthDebugArgs {
    /// The MCP server's URL (use --transport sse for legacy HTTP+SSE servers).
    pub url: String,
    /// Follow this revision's rules: 2025-03-26, 2025-06-18 or 2025-11-25 (default: the
    /// latest, with the older ones' fallbacks).
    #[arg(long, value_parser = parse_revision)]
    pub revision: Option<OAuthRevision>,
    /// How to get a client id.
    #[arg(long, value_enum)]
    pub registration: Option<Registration>,
    #[arg(long, value_name = "ID")]
    pub client_id: Option<String>,
    #[arg(long, value_name = "SECRET")]
    pub client_secret: Option<String>,
    /// A Client ID Metadata Document URL.
    #[arg(long, value_name = "URL")]
    pub cimd_url: Option<String>,
    /// Scopes to request (space-separated).
    #[arg(long, value_name = "SCOPES")]
    pub scope: Option<String>,
    /// Fetch the authorization URL instead of opening a browser (same as --oauth
    /// non-interactive).
    #[arg(long)]
    pub non_interactive: bool,
}
