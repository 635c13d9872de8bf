//! The person's part of the flow, behind [`UserAgent`]: prepare a redirect URI (bind a
//! listener, register a pending `state`…), send the browser to the authorization URL, and wait
//! for the redirect back with `code` and `state`. The web inspector and the CLI implement it
//! with real browsers; [`NonInteractiveAgent`] fetches the authorization URL itself and follows
//! its redirects to the redirect URI, which is what authorization servers that approve without
//! a person (test servers, CI) expect.

use futures::future::BoxFuture;
use mcplab_protocol::oauth::{OAuthParty, OAuthPhase};
use url::Url;

use super::OAuthError;
use super::http::{OAuthHttp, Purpose, Request, redirect_target};
use super::steps::StepLog;

/// The query of the redirect back from the authorization server.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CallbackParams {
    pub code: Option<String>,
    pub state: Option<String>,
    pub error: Option<String>,
    pub error_description: Option<String>,
    /// RFC 9207 issuer identification.
    pub iss: Option<String>,
}

impl CallbackParams {
    pub fn from_query(query: &str) -> Self {
        let mut out = CallbackParams::default();
        for (k, v) in url::form_urlencoded::parse(query.as_bytes()) {
            let v = Some(v.into_owned());
            match k.as_ref() {
                "code" => out.code = v,
                "state" => out.state = v,
                "error" => out.error = v,
                "error_description" => out.error_description = v,
                "iss" => out.iss = v,
                _ => {}
            }
        }
        out
    }
}

/// Sends a person through the authorization endpoint.
pub trait UserAgent: Send + Sync {
    /// Gets ready to receive a redirect for `server` (its name, for what the person sees) and
    /// says where it will arrive. Called before registration: the URI is registered.
    fn prepare<'a>(
        &'a self,
        server: &'a str,
    ) -> BoxFuture<'a, Result<Box<dyn PendingRedirect>, OAuthError>>;
}

/// A prepared redirect, waiting to be used once.
pub trait PendingRedirect: Send {
    fn redirect_uri(&self) -> String;

    /// Sends the browser to `authorization_url` and waits for the redirect that carries
    /// `state`; returns its parameters (the flow checks them). Steps go to `log`.
    fn wait<'a>(
        self: Box<Self>,
        authorization_url: &'a Url,
        state: &'a str,
        log: &'a StepLog,
        http: &'a OAuthHttp,
    ) -> BoxFuture<'a, Result<CallbackParams, OAuthError>>;
}

/// Fetches the authorization URL over HTTP and follows redirects until one points at the
/// redirect URI; never opens a browser. An authorization server that wants a person to sign in
/// (it answers with a page) ends the flow with advice to run interactively.
pub struct NonInteractiveAgent {
    redirect_uri: String,
}

/// Hops followed from the authorization endpoint to the redirect URI.
const MAX_HOPS: usize = 10;

impl NonInteractiveAgent {
    pub fn new() -> Self {
        Self {
            redirect_uri: "http://127.0.0.1/callback".into(),
        }
    }
}

impl Default for NonInteractiveAgent {
    fn default() -> Self {
        Self::new()
    }
}

impl UserAgent for NonInteractiveAgent {
    fn prepare<'a>(
        &'a self,
        _server: &'a str,
    ) -> BoxFuture<'a, Result<Box<dyn PendingRedirect>, OAuthError>> {
        let redirect = self.redirect_uri.clone();
        Box::pin(async move {
            let pending: Box<dyn PendingRedirect> = Box::new(Fetching { redirect });
            Ok(pending)
        })
    }
}

struct Fetching {
    redirect: String,
}

impl PendingRedirect for Fetching {
    fn redirect_uri(&self) -> String {
        self.redirect.clone()
    }

    fn wait<'a>(
        self: Box<Self>,
        authorization_url: &'a Url,
        _state: &'a str,
        log: &'a StepLog,
        http: &'a OAuthHttp,
    ) -> BoxFuture<'a, Result<CallbackParams, OAuthError>> {
        Box::pin(async move {
            let target = Url::parse(&self.redirect).map_err(|e| {
                OAuthError::setup(format!("bad redirect URI: {e}"), "fix the redirect URI")
            })?;
            let mut url = authorization_url.clone();
            for _ in 0..MAX_HOPS {
                let purpose = Purpose {
                    phase: OAuthPhase::Authorization,
                    party: OAuthParty::AuthorizationServer,
                    title: "Fetch the authorization URL (non-interactive)",
                };
                let mut req = Request::get(url.clone());
                req.headers = vec![("Accept".into(), "text/html, */*".into())];
                let resp = http.send(log, &purpose, &req).await?;
                let Some(next) = redirect_target(&resp) else {
                    let why = if resp.status.is_success() {
                        "answered with a page instead of redirecting back, so it wants a person \
                         to sign in or approve"
                            .to_string()
                    } else {
                        format!(
                            "answered HTTP {} ({})",
                            resp.status.as_u16(),
                            resp.excerpt()
                        )
                    };
                    return Err(OAuthError::InteractionRequired(format!(
                        "the authorization endpoint {why}; run interactively (without \
                         non-interactive OAuth) to sign in in a browser"
                    )));
                };
                if is_redirect_uri(&next, &target) {
                    return Ok(CallbackParams::from_query(next.query().unwrap_or("")));
                }
                url = next;
            }
            Err(OAuthError::setup(
                format!(
                    "the authorization endpoint redirected {MAX_HOPS} times without reaching the redirect URI"
                ),
                "check the authorization server's redirects",
            ))
        })
    }
}

/// Whether `url` is the redirect URI (scheme, host, port and path; the query is the answer).
fn is_redirect_uri(url: &Url, target: &Url) -> bool {
    url.scheme() == target.scheme()
        && url.host_str() == target.host_str()
        && url.port_or_known_default() == target.port_or_known_default()
        && url.path() == target.path()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn callback_query_is_read() {
        let p = CallbackParams::from_query("code=abc&state=x%20y&iss=https%3A%2F%2Fas.test&z=1");
        assert_eq!(p.code.as_deref(), Some("abc"));
        assert_eq!(p.state.as_deref(), Some("x y"));
        assert_eq!(p.iss.as_deref(), Some("https://as.test"));
        let e = CallbackParams::from_query("error=access_denied&error_description=no");
        assert_eq!(e.error.as_deref(), Some("access_denied"));
        assert_eq!(e.code, None);
    }

    #[test]
    fn redirect_uri_match_ignores_the_query() {
        let target = Url::parse("http://127.0.0.1/callback").unwrap();
        let hit = Url::parse("http://127.0.0.1:80/callback?code=1&state=2").unwrap();
        let miss = Url::parse("http://127.0.0.1:8080/callback?code=1").unwrap();
        assert!(is_redirect_uri(&hit, &target));
        assert!(!is_redirect_uri(&miss, &target));
    }
}
