//! URL rules: secrets in URLs — the server's own URL as configured, and every http(s) URL in
//! what the server published (token-named query parameters, passwords in the user info,
//! values shaped like well-known tokens) — and credentials asked for over plain HTTP: a
//! non-loopback `http://` endpoint that wants authorization, a protected resource metadata
//! URL or a client metadata document on plain HTTP. Secret values are shown masked.

use mcplab_protocol::ServerTransport;
use url::{Host, Url};

use super::rules::{PLAIN_HTTP_AUTH, SECRET_IN_URL};
use super::text::Text;
use crate::findings::{At, Findings};
use crate::recording::Recording;

/// Prefixes of well-known token formats.
const TOKEN_PREFIXES: &[&str] = &[
    "sk-",
    "sk_live_",
    "ghp_",
    "gho_",
    "ghs_",
    "github_pat_",
    "xoxb-",
    "xoxp-",
    "xoxa-",
    "AKIA",
    "AIza",
    "glpat-",
];

pub(super) fn judge(texts: &[Text], rec: &Recording, f: &mut Findings) {
    if let Some(url) = rec.url() {
        for secret in secrets(url) {
            f.add(
                &SECRET_IN_URL,
                format!("the server's URL carries a secret: {secret}"),
                At::default().excerpt(mask_url(url)),
            );
        }
    }
    for t in texts {
        for candidate in urls_in(&t.text) {
            for secret in secrets(candidate) {
                f.add(
                    &SECRET_IN_URL,
                    format!(
                        "{} {} has a URL that carries a secret: {secret}",
                        t.owner, t.key
                    ),
                    t.at().excerpt(mask_url(candidate)),
                );
            }
        }
    }
    plain_http(rec, f);
}

/// The http(s) URLs in a text.
fn urls_in(text: &str) -> impl Iterator<Item = &str> {
    text.match_indices("http")
        .filter(|(i, _)| text[*i..].starts_with("http://") || text[*i..].starts_with("https://"))
        .map(|(i, _)| {
            let rest = &text[i..];
            let end = rest
                .find(|c: char| {
                    c.is_whitespace() || matches!(c, '"' | '\'' | '<' | '>' | ')' | ']' | '`')
                })
                .unwrap_or(rest.len());
            &rest[..end]
        })
}

/// The secrets a URL carries, described with their values masked.
fn secrets(text: &str) -> Vec<String> {
    let Ok(url) = Url::parse(text) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if url.password().is_some() {
        out.push(format!("a password in the user info of {}", host(&url)));
    }
    for (name, value) in url.query_pairs() {
        let named = mcplab_net::is_secret_param(&name);
        if (named && value.len() >= 6) || token_shaped(&value) {
            out.push(format!("query parameter `{name}={}`", mask(&value)));
        }
    }
    out
}

/// A value shaped like a well-known token (a JWT, `sk-…`, `ghp_…`, …), whatever its name.
pub(crate) fn token_shaped(value: &str) -> bool {
    let jwt = value.starts_with("eyJ") && value.matches('.').count() == 2 && value.len() > 30;
    jwt || TOKEN_PREFIXES
        .iter()
        .any(|p| value.starts_with(p) && value.len() >= p.len() + 12)
}

/// The first four characters and the length (mcplab-net's masking, as everywhere).
fn mask(value: &str) -> String {
    mcplab_net::mask_secret(value)
}

/// The URL with its password, secret-carrying query values and token-shaped values masked.
fn mask_url(text: &str) -> String {
    let mut shown = mcplab_net::mask_url_text(text);
    if let Ok(url) = Url::parse(text) {
        for (_, value) in url.query_pairs() {
            if token_shaped(&value) {
                shown = shown.replace(value.as_ref(), &mask(&value));
            }
        }
    }
    shown
}

fn host(url: &Url) -> String {
    url.host_str().unwrap_or("?").to_owned()
}

fn loopback(url: &Url) -> bool {
    match url.host() {
        Some(Host::Domain(d)) => d == "localhost" || d.ends_with(".localhost"),
        Some(Host::Ipv4(ip)) => ip.is_loopback(),
        Some(Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    }
}

/// A plain-HTTP URL off this machine.
fn plain_remote(text: &str) -> Option<Url> {
    Url::parse(text)
        .ok()
        .filter(|u| u.scheme() == "http" && !loopback(u))
}

/// Credentials asked for, or authorization metadata served, over plain HTTP.
fn plain_http(rec: &Recording, f: &mut Findings) {
    let (headers, oauth) = match &rec.config.transport {
        ServerTransport::Stdio { .. } => return,
        ServerTransport::Http { headers, oauth, .. }
        | ServerTransport::Sse { headers, oauth, .. } => (headers, oauth),
    };
    let endpoint = rec.url().and_then(plain_remote);
    let mut challenged = None;
    for frame in &rec.frames {
        let Some(http) = &frame.http else { continue };
        for (name, value) in &http.response_headers {
            if !name.eq_ignore_ascii_case("www-authenticate") {
                continue;
            }
            challenged.get_or_insert(frame.seq);
            if let Some(meta) = resource_metadata(value).and_then(|u| plain_remote(&u)) {
                f.add(
                    &PLAIN_HTTP_AUTH,
                    format!("the server's protected resource metadata is on plain HTTP: {meta}"),
                    At::seqs([frame.seq]).excerpt(value.clone()),
                );
            }
        }
    }
    if let Some(url) = &endpoint {
        let sends = headers
            .keys()
            .any(|k| k.eq_ignore_ascii_case("authorization"));
        let why = match (challenged, sends) {
            (Some(_), _) => Some("it answers with a WWW-Authenticate challenge"),
            (None, true) => Some("an Authorization header is configured for it"),
            (None, false) => None,
        };
        if let Some(why) = why {
            f.add(
                &PLAIN_HTTP_AUTH,
                format!("credentials would travel in clear to {}: {why}", host(url)),
                At::seqs(challenged).excerpt(mask_url(url.as_str())),
            );
        }
    }
    if let Some(cimd) = oauth
        .as_ref()
        .and_then(|o| o.client_metadata_url.as_deref())
        .and_then(plain_remote)
    {
        f.add(
            &PLAIN_HTTP_AUTH,
            format!("the client metadata document is configured on plain HTTP: {cimd}"),
            At::default(),
        );
    }
}

/// The `resource_metadata` parameter of a `WWW-Authenticate` challenge.
fn resource_metadata(challenge: &str) -> Option<String> {
    let at = challenge.find("resource_metadata=")?;
    let rest = challenge[at + "resource_metadata=".len()..].trim_start();
    let value = match rest.strip_prefix('"') {
        Some(quoted) => quoted.split('"').next()?,
        None => rest.split([',', ' ']).next()?,
    };
    Some(value.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_in_urls_are_found_and_masked() {
        let found = secrets("https://api.example.com/mcp?api_key=sk-abcdefghijklmnop&x=1");
        assert_eq!(found, vec!["query parameter `api_key=sk-a… (19 chars)`"]);
        assert_eq!(secrets("https://u:hunter22@example.com/").len(), 1);
        assert!(secrets("https://example.com/search?q=token&page=2").is_empty());
        assert_eq!(
            secrets("https://example.com/?t=ghp_0123456789abcdefghij").len(),
            1,
            "a token-shaped value under any name"
        );
        let masked = mask_url("https://example.com/mcp?token=abcdef123456&page=2");
        assert!(masked.contains("page=2"), "{masked}");
        assert!(!masked.contains("abcdef123456"), "{masked}");
        let text = "See https://x.example/a?key=0123456789 or (https://y.example/b).";
        let urls: Vec<&str> = urls_in(text).collect();
        assert_eq!(
            urls,
            ["https://x.example/a?key=0123456789", "https://y.example/b"]
        );
    }

    #[test]
    fn plain_http_is_judged_only_off_this_machine() {
        assert!(plain_remote("http://example.com/mcp").is_some());
        assert!(plain_remote("http://127.0.0.1:3000/mcp").is_none());
        assert!(plain_remote("http://localhost/mcp").is_none());
        assert!(plain_remote("https://example.com/mcp").is_none());
        let challenge = r#"Bearer resource_metadata="http://auth.example/.well-known/oauth-protected-resource", scope="a""#;
        assert_eq!(
            resource_metadata(challenge).as_deref(),
            Some("http://auth.example/.well-known/oauth-protected-resource")
        );
    }
}
