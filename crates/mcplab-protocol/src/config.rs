//! How to reach one MCP server. The shape follows the `mcpServers` entries that Claude
//! Desktop, Cursor and VS Code use, so configs round-trip through those files unchanged.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::era::ProtocolChoice;
use crate::oauth::OAuthConfig;

/// One configured server, keyed by a user-chosen name.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ServerConfig {
    pub name: String,
    #[serde(flatten)]
    pub transport: ServerTransport,
    /// Per-request timeout in milliseconds; progress notifications reset it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_ms: Option<u64>,
    /// stdio servers: start with mcplab's whole environment instead of the allow-list (PATH,
    /// HOME, locale…). `MCPLAB_*` and `*_API_KEY` variables are withheld either way unless
    /// `env` names them.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[ts(as = "Option<bool>", optional)]
    pub inherit_env: bool,
    /// The protocol revision to speak; `auto` (the default) tries 2026-07-28 through
    /// `server/discover` and falls back to the `initialize` handshake.
    #[serde(default, skip_serializing_if = "ProtocolChoice::is_auto")]
    #[ts(as = "Option<ProtocolChoice>", optional)]
    pub protocol: ProtocolChoice,
}

/// The transport and its parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ServerTransport {
    /// A child process speaking newline-delimited JSON-RPC on stdin/stdout.
    Stdio {
        command: String,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        args: Vec<String>,
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        env: BTreeMap<String, String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cwd: Option<String>,
    },
    /// Streamable HTTP (the current remote transport).
    Http {
        url: String,
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        headers: BTreeMap<String, String>,
        /// OAuth settings; absent: discover and register when the server answers 401.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        oauth: Option<OAuthConfig>,
    },
    /// The legacy HTTP+SSE transport (protocol 2024-11-05).
    Sse {
        url: String,
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        headers: BTreeMap<String, String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        oauth: Option<OAuthConfig>,
    },
}

impl ServerTransport {
    /// A short human label: the command line or the URL.
    pub fn describe(&self) -> String {
        match self {
            ServerTransport::Stdio { command, args, .. } => {
                let mut s = command.clone();
                for a in args {
                    s.push(' ');
                    s.push_str(a);
                }
                s
            }
            ServerTransport::Http { url, .. } | ServerTransport::Sse { url, .. } => url.clone(),
        }
    }

    /// The OAuth settings of an http/sse server (None for stdio or when unset).
    pub fn oauth(&self) -> Option<&OAuthConfig> {
        match self {
            ServerTransport::Stdio { .. } => None,
            ServerTransport::Http { oauth, .. } | ServerTransport::Sse { oauth, .. } => {
                oauth.as_ref()
            }
        }
    }

    /// Whether mcplab runs OAuth for this server: an http/sse server that neither sends an
    /// `Authorization` header of the user's own nor has OAuth disabled. The one rule the
    /// connection layer and the API's OAuth routes follow.
    pub fn oauth_applies(&self) -> bool {
        match self {
            ServerTransport::Stdio { .. } => false,
            ServerTransport::Http { headers, oauth, .. }
            | ServerTransport::Sse { headers, oauth, .. } => {
                let own_header = headers
                    .keys()
                    .any(|k| k.trim().eq_ignore_ascii_case("authorization"));
                !own_header && !oauth.as_ref().is_some_and(|o| o.disabled)
            }
        }
    }

    /// The URL of an http/sse server (None for stdio).
    pub fn url(&self) -> Option<&str> {
        match self {
            ServerTransport::Stdio { .. } => None,
            ServerTransport::Http { url, .. } | ServerTransport::Sse { url, .. } => Some(url),
        }
    }

    /// `stdio`, `http` or `sse`.
    pub fn kind(&self) -> &'static str {
        match self {
            ServerTransport::Stdio { .. } => "stdio",
            ServerTransport::Http { .. } => "http",
            ServerTransport::Sse { .. } => "sse",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn http(headers: &[(&str, &str)], disabled: bool) -> ServerTransport {
        ServerTransport::Http {
            url: "http://127.0.0.1:1/mcp".into(),
            headers: headers
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            oauth: disabled.then(|| OAuthConfig {
                disabled: true,
                ..Default::default()
            }),
        }
    }

    /// The one OAuth rule both the connection layer and the API's OAuth routes follow.
    #[test]
    fn oauth_applies_unless_the_user_authorizes_or_disables_it() {
        assert!(http(&[], false).oauth_applies());
        assert!(http(&[("X-Key", "v")], false).oauth_applies());
        assert!(!http(&[(" authorization ", "Bearer t")], false).oauth_applies());
        assert!(!http(&[], true).oauth_applies());
        let stdio = ServerTransport::Stdio {
            command: "node".into(),
            args: vec![],
            env: Default::default(),
            cwd: None,
        };
        assert!(!stdio.oauth_applies());
        assert_eq!(stdio.url(), None);
        assert_eq!(http(&[], false).url(), Some("http://127.0.0.1:1/mcp"));
    }
}
