//! The URLs of discovery and the identity of a resource: the well-known protected resource
//! metadata URLs of a server URL (RFC 9728 §3.1, path-based before root as the 2025-11-25
//! revision orders them), the authorization server metadata URLs of an issuer (RFC 8414 §3.1
//! path insertion, OpenID Connect Discovery path insertion and path appending, in the order
//! each revision gives), the 2025-03-26 fallbacks at the MCP server's origin, the canonical
//! resource URI (RFC 8707) and whether a metadata document's `resource` covers a server URL.

use url::Url;

use super::flow::Rules;

pub(crate) const PRM_WELL_KNOWN: &str = "/.well-known/oauth-protected-resource";
pub(crate) const OAUTH_WELL_KNOWN: &str = "/.well-known/oauth-authorization-server";
pub(crate) const OIDC_WELL_KNOWN: &str = "/.well-known/openid-configuration";

/// Which kind of document an authorization server metadata URL serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MetadataKind {
    /// RFC 8414 OAuth 2.0 Authorization Server Metadata.
    OAuth,
    /// OpenID Connect Discovery 1.0.
    OpenId,
}

impl MetadataKind {
    pub fn label(self) -> &'static str {
        match self {
            MetadataKind::OAuth => "OAuth authorization server metadata (RFC 8414)",
            MetadataKind::OpenId => "OpenID configuration",
        }
    }
}

/// The origin of `url` with an empty path (`https://host:port`).
pub(crate) fn origin_of(url: &Url) -> Url {
    let mut base = url.clone();
    base.set_path("/");
    base.set_query(None);
    base.set_fragment(None);
    base
}

/// The path (and query) of `url` without a trailing `/`; empty for the root.
fn path_suffix(url: &Url) -> String {
    let path = url.path().trim_end_matches('/');
    match url.query() {
        Some(q) if !q.is_empty() => format!("{path}?{q}"),
        _ => path.to_string(),
    }
}

fn join(origin: &Url, path: &str) -> Url {
    let text = format!("{}{}", origin.as_str().trim_end_matches('/'), path);
    Url::parse(&text).unwrap_or_else(|_| origin.clone())
}

/// The well-known protected resource metadata URLs for a server URL, in the order to try:
/// path-based (`/.well-known/oauth-protected-resource/<path>`) when the URL has a path, then
/// the root. (Used only when the 401 did not name `resource_metadata`.)
pub fn resource_metadata_urls(server: &Url) -> Vec<Url> {
    let origin = origin_of(server);
    let suffix = path_suffix(server);
    let mut urls = Vec::new();
    if !suffix.is_empty() {
        urls.push(join(&origin, &format!("{PRM_WELL_KNOWN}{suffix}")));
    }
    urls.push(join(&origin, PRM_WELL_KNOWN));
    urls
}

/// The authorization server metadata URLs for an issuer under `rules`, in order.
///
/// 2025-11-25 (and the default): with a path, RFC 8414 path insertion, OpenID path insertion,
/// OpenID path appending; without one, RFC 8414 then OpenID at the root. 2025-06-18: RFC 8414
/// only. 2025-03-26: RFC 8414 at the origin (the issuer's path is dropped).
pub fn auth_server_metadata_urls(issuer: &Url, rules: Rules) -> Vec<(Url, MetadataKind)> {
    let origin = origin_of(issuer);
    if rules.legacy_only() {
        return vec![(join(&origin, OAUTH_WELL_KNOWN), MetadataKind::OAuth)];
    }
    let suffix = path_suffix(issuer);
    let mut urls = vec![(
        join(&origin, &format!("{OAUTH_WELL_KNOWN}{suffix}")),
        MetadataKind::OAuth,
    )];
    if rules.openid_discovery() {
        urls.push((
            join(&origin, &format!("{OIDC_WELL_KNOWN}{suffix}")),
            MetadataKind::OpenId,
        ));
        if !suffix.is_empty() {
            urls.push((
                join(&origin, &format!("{suffix}{OIDC_WELL_KNOWN}")),
                MetadataKind::OpenId,
            ));
        }
    }
    urls
}

/// The 2025-03-26 default endpoints at the MCP server's origin, used when it serves no
/// authorization server metadata: `/authorize`, `/token`, `/register`.
pub(crate) fn legacy_default_endpoints(server: &Url) -> (Url, Url, Url) {
    let origin = origin_of(server);
    (
        join(&origin, "/authorize"),
        join(&origin, "/token"),
        join(&origin, "/register"),
    )
}

/// The canonical URI of an MCP server for the `resource` parameter (RFC 8707 §2): lower-case
/// scheme and host (as parsing makes them), no fragment, and no trailing `/` for a bare origin.
pub fn canonical_resource(server: &Url) -> String {
    let mut url = server.clone();
    url.set_fragment(None);
    let text = url.to_string();
    if url.path() == "/" && url.query().is_none() {
        return text.trim_end_matches('/').to_string();
    }
    text
}

/// Whether a protected resource metadata document's `resource` identifies the server at
/// `server`: the same origin, and its path equal to the server's or a parent of it (segment
/// by segment). A resource at another host or a sibling path is refused (RFC 9728 §3.3: the
/// metadata must be about the resource the client is talking to).
pub fn resource_covers(resource: &str, server: &Url) -> bool {
    let Ok(resource) = Url::parse(resource.trim()) else {
        return false;
    };
    if resource.fragment().is_some() || resource.origin() != server.origin() {
        return false;
    }
    let theirs = resource.path().trim_end_matches('/');
    let ours = server.path().trim_end_matches('/');
    theirs.is_empty()
        || ours == theirs
        || (ours.starts_with(theirs) && ours.as_bytes().get(theirs.len()) == Some(&b'/'))
}

/// Whether two redirect URIs are the same for a loopback client: identical, or both loopback
/// `http` URLs that differ only in the port (RFC 8252 §7.3 lets the port vary).
pub(crate) fn redirect_matches(registered: &str, wanted: &str) -> bool {
    if registered == wanted {
        return true;
    }
    let (Ok(a), Ok(b)) = (Url::parse(registered), Url::parse(wanted)) else {
        return false;
    };
    let loopback = |u: &Url| {
        u.scheme() == "http" && matches!(u.host_str(), Some("127.0.0.1" | "localhost" | "[::1]"))
    };
    loopback(&a)
        && loopback(&b)
        && a.host_str() == b.host_str()
        && a.path() == b.path()
        && a.query() == b.query()
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcplab_protocol::oauth::OAuthRevision;

    fn u(s: &str) -> Url {
        Url::parse(s).unwrap()
    }

    fn strs(urls: &[(Url, MetadataKind)]) -> Vec<String> {
        urls.iter().map(|(u, _)| u.to_string()).collect()
    }

    #[test]
    fn protected_resource_metadata_urls_path_first_then_root() {
        let urls = resource_metadata_urls(&u("https://Example.com/public/mcp"));
        let urls: Vec<String> = urls.iter().map(Url::to_string).collect();
        assert_eq!(
            urls,
            [
                "https://example.com/.well-known/oauth-protected-resource/public/mcp",
                "https://example.com/.well-known/oauth-protected-resource",
            ]
        );
        let root = resource_metadata_urls(&u("http://127.0.0.1:9/"));
        assert_eq!(root.len(), 1);
        assert_eq!(
            root[0].as_str(),
            "http://127.0.0.1:9/.well-known/oauth-protected-resource"
        );
        let trailing = resource_metadata_urls(&u("https://a.test/mcp/"));
        assert_eq!(
            trailing[0].as_str(),
            "https://a.test/.well-known/oauth-protected-resource/mcp"
        );
    }

    #[test]
    fn auth_server_metadata_urls_per_revision() {
        let latest = Rules::new(Some(OAuthRevision::V2025_11_25));
        let tenant = u("https://auth.example.com/tenant1");
        assert_eq!(
            strs(&auth_server_metadata_urls(&tenant, latest)),
            [
                "https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
                "https://auth.example.com/.well-known/openid-configuration/tenant1",
                "https://auth.example.com/tenant1/.well-known/openid-configuration",
            ]
        );
        let root = u("https://auth.example.com");
        assert_eq!(
            strs(&auth_server_metadata_urls(&root, Rules::new(None))),
            [
                "https://auth.example.com/.well-known/oauth-authorization-server",
                "https://auth.example.com/.well-known/openid-configuration",
            ]
        );
        let june = Rules::new(Some(OAuthRevision::V2025_06_18));
        assert_eq!(
            strs(&auth_server_metadata_urls(&tenant, june)),
            ["https://auth.example.com/.well-known/oauth-authorization-server/tenant1"]
        );
        let march = Rules::new(Some(OAuthRevision::V2025_03_26));
        assert_eq!(
            strs(&auth_server_metadata_urls(
                &u("https://mcp.test/v1/mcp"),
                march
            )),
            ["https://mcp.test/.well-known/oauth-authorization-server"]
        );
        let (a, t, r) = legacy_default_endpoints(&u("https://mcp.test/v1/mcp"));
        assert_eq!(
            [a.as_str(), t.as_str(), r.as_str()],
            [
                "https://mcp.test/authorize",
                "https://mcp.test/token",
                "https://mcp.test/register"
            ]
        );
    }

    #[test]
    fn canonical_resource_and_coverage() {
        assert_eq!(
            canonical_resource(&u("HTTPS://MCP.Example.com/mcp#x")),
            "https://mcp.example.com/mcp"
        );
        assert_eq!(
            canonical_resource(&u("https://mcp.example.com/")),
            "https://mcp.example.com"
        );
        let server = u("http://localhost:3000/mcp");
        assert!(resource_covers("http://localhost:3000/mcp", &server));
        assert!(resource_covers("http://localhost:3000/mcp/", &server));
        assert!(resource_covers("http://localhost:3000", &server));
        assert!(!resource_covers("https://evil.example.com/mcp", &server));
        assert!(!resource_covers("http://localhost:3001/mcp", &server));
        assert!(!resource_covers("http://localhost:3000/mc", &server));
        assert!(!resource_covers("http://localhost:3000/other", &server));
        assert!(!resource_covers("not a url", &server));
    }

    #[test]
    fn loopback_redirects_may_differ_in_port_only() {
        assert!(redirect_matches(
            "http://127.0.0.1:1234/callback",
            "http://127.0.0.1:5678/callback"
        ));
        assert!(!redirect_matches(
            "http://127.0.0.1:1234/callback",
            "http://127.0.0.1:5678/oauth/callback"
        ));
        assert!(!redirect_matches(
            "https://app.test:1/cb",
            "https://app.test:2/cb"
        ));
    }
}
