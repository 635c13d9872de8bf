//! The web inspector's user agent: the redirect URI is this origin's `/oauth/callback`; waiting
//! registers the flow's `state` as pending and, for a server's connection, announces the
//! authorization URL (`ServerEvent::AuthorizationRequired` on `/api/events`, and the server's
//! OAuth status) for the page to open. The callback hands the redirect back; nobody coming back
//! within [`BROWSER_TIMEOUT`] ends the flow.

use std::sync::Arc;

use futures::future::BoxFuture;
use mcplab_oauth::{CallbackParams, OAuthError, OAuthHttp, PendingRedirect, StepLog, UserAgent};
use mcplab_protocol::ServerEvent;
use url::Url;

use mcplab_mcp::pending::Ended;

use super::{BROWSER_TIMEOUT, CALLBACK_PATH, OAuthState, SignIn};
use crate::EventHub;

/// Who the sign-in is for.
#[derive(Debug, Clone)]
enum Purpose {
    /// Connections of configured servers (the server name comes with each flow).
    Servers,
    /// One debugger run.
    Debug(String),
}

/// Sends this browser through the authorization endpoint.
pub(crate) struct BrowserAgent {
    oauth: Arc<OAuthState>,
    events: Arc<EventHub>,
    /// `http://127.0.0.1:<port>`.
    origin: String,
    purpose: Purpose,
}

impl BrowserAgent {
    /// The agent of server connections.
    pub(crate) fn for_servers(
        oauth: Arc<OAuthState>,
        events: Arc<EventHub>,
        origin: String,
    ) -> Self {
        Self {
            oauth,
            events,
            origin,
            purpose: Purpose::Servers,
        }
    }

    /// The agent of one debugger run.
    pub(crate) fn for_debug(
        oauth: Arc<OAuthState>,
        events: Arc<EventHub>,
        origin: String,
        run: &str,
    ) -> Self {
        Self {
            oauth,
            events,
            origin,
            purpose: Purpose::Debug(run.to_string()),
        }
    }
}

impl UserAgent for BrowserAgent {
    fn prepare<'a>(
        &'a self,
        server: &'a str,
    ) -> BoxFuture<'a, Result<Box<dyn PendingRedirect>, OAuthError>> {
        let waiting: Box<dyn PendingRedirect> = Box::new(Waiting {
            oauth: self.oauth.clone(),
            events: self.events.clone(),
            redirect_uri: format!("{}{CALLBACK_PATH}", self.origin),
            purpose: self.purpose.clone(),
            server: server.to_string(),
        });
        Box::pin(async move { Ok(waiting) })
    }
}

struct Waiting {
    oauth: Arc<OAuthState>,
    events: Arc<EventHub>,
    redirect_uri: String,
    purpose: Purpose,
    server: String,
}

impl PendingRedirect for Waiting {
    fn redirect_uri(&self) -> String {
        self.redirect_uri.clone()
    }

    fn wait<'a>(
        self: Box<Self>,
        authorization_url: &'a Url,
        state: &'a str,
        _log: &'a StepLog,
        _http: &'a OAuthHttp,
    ) -> BoxFuture<'a, Result<CallbackParams, OAuthError>> {
        Box::pin(async move {
            let (return_to, server) = match &self.purpose {
                Purpose::Servers => (
                    format!("/#/servers/{}", self.server),
                    Some(self.server.clone()),
                ),
                Purpose::Debug(run) => (format!("/#/oauth/{run}"), None),
            };
            let url = authorization_url.to_string();
            let waiter = self.oauth.register(
                state,
                SignIn {
                    return_to,
                    server: server.clone(),
                    url: url.clone(),
                },
            );
            if let Some(server) = server {
                self.events
                    .publish_server(ServerEvent::AuthorizationRequired { server, url });
            }
            match waiter.wait(BROWSER_TIMEOUT).await {
                Ended::Answered(params) => Ok(params),
                Ended::Withdrawn | Ended::Cancelled => Err(OAuthError::Cancelled),
                Ended::TimedOut => Err(OAuthError::TimedOut(BROWSER_TIMEOUT.as_secs())),
            }
        })
    }
}
