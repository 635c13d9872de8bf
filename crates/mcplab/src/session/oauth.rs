//! OAuth for the CLI: the interactive user agent (a loopback listener for the redirect on a
//! free port, the browser opened at the authorization URL, the URL printed to stderr for when
//! none opens) and the OAuth host a session uses (the data directory's store, the agent the
//! `--oauth` mode asks for).

use std::sync::Arc;
use std::time::Duration;

use axum::extract::RawQuery;
use axum::response::{Html, IntoResponse};
use futures::future::BoxFuture;
use mcplab_oauth::{
    CallbackParams, CredentialStore, NonInteractiveAgent, OAuthError, OAuthHost, OAuthHttp,
    PendingRedirect, StepLog, UserAgent,
};
use parking_lot::Mutex;
use tokio::sync::oneshot;

use crate::cli::oauth::OAuthMode;
use crate::failure::Failure;
use crate::settings::Settings;

/// How long the CLI waits for the browser to come back.
const BROWSER_TIMEOUT: Duration = Duration::from_secs(300);
pub const USER_AGENT: &str = concat!("mcplab/", env!("CARGO_PKG_VERSION"));

/// The OAuth host of a CLI session: None with `--oauth off`.
pub fn host(settings: &Settings) -> Result<Option<Arc<OAuthHost>>, Failure> {
    let mode = settings.oauth.unwrap_or_default();
    let agent: Arc<dyn UserAgent> = match mode {
        OAuthMode::Off => return Ok(None),
        OAuthMode::Interactive => Arc::new(LoopbackAgent),
        OAuthMode::NonInteractive => Arc::new(NonInteractiveAgent::new()),
    };
    let store = settings.data.store()?;
    let store: Arc<dyn CredentialStore> = Arc::new(store);
    let host = OAuthHost::new(store, agent, "mcplab", USER_AGENT)
        .map_err(|e| Failure::usage(e.to_string()))?;
    host.http()
        .allow_private(settings.budget.oauth_allow_private);
    Ok(Some(host))
}

/// Opens the browser and waits for the redirect on a loopback port.
pub struct LoopbackAgent;

impl UserAgent for LoopbackAgent {
    fn prepare<'a>(
        &'a self,
        server: &'a str,
    ) -> BoxFuture<'a, Result<Box<dyn PendingRedirect>, OAuthError>> {
        Box::pin(async move {
            let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0))
                .await
                .map_err(|e| {
                    OAuthError::setup(
                        format!("cannot listen for the sign-in redirect on 127.0.0.1: {e}"),
                        "free a loopback port, or use --oauth non-interactive",
                    )
                })?;
            let port = listener.local_addr().map(|a| a.port()).unwrap_or_default();
            let pending: Box<dyn PendingRedirect> = Box::new(Listening {
                listener,
                redirect_uri: format!("http://127.0.0.1:{port}/callback"),
                server: server.to_string(),
            });
            Ok(pending)
        })
    }
}

struct Listening {
    listener: tokio::net::TcpListener,
    redirect_uri: String,
    server: String,
}

type Reply = Arc<Mutex<Option<oneshot::Sender<CallbackParams>>>>;

impl PendingRedirect for Listening {
    fn redirect_uri(&self) -> String {
        self.redirect_uri.clone()
    }

    fn wait<'a>(
        self: Box<Self>,
        authorization_url: &'a url::Url,
        state: &'a str,
        _log: &'a StepLog,
        _http: &'a OAuthHttp,
    ) -> BoxFuture<'a, Result<CallbackParams, OAuthError>> {
        Box::pin(async move {
            let (tx, rx) = oneshot::channel();
            let reply: Reply = Arc::new(Mutex::new(Some(tx)));
            let expected = state.to_string();
            let name = self.server.clone();
            let app = axum::Router::new().route(
                "/callback",
                axum::routing::get(move |RawQuery(q): RawQuery| {
                    let reply = reply.clone();
                    let expected = expected.clone();
                    let name = name.clone();
                    async move { answer(q, &expected, &name, &reply) }
                }),
            );
            let Listening {
                listener,
                redirect_uri,
                server,
            } = *self;
            let (stop, stopped) = oneshot::channel::<()>();
            let serving = tokio::spawn(async move {
                let _ = axum::serve(listener, app)
                    .with_graceful_shutdown(async {
                        let _ = stopped.await;
                    })
                    .await;
            });
            eprintln!(
                "Sign in to {server}: opening your browser at\n  {authorization_url}\n(if no browser \
                 opens, open that URL yourself; waiting for the redirect to {redirect_uri})",
            );
            if let Err(e) = crate::launch::open_url(authorization_url.as_str()) {
                eprintln!("{}", e.message);
            }
            let outcome = tokio::time::timeout(BROWSER_TIMEOUT, rx).await;
            let _ = stop.send(());
            let _ = tokio::time::timeout(Duration::from_secs(2), serving).await;
            match outcome {
                Ok(Ok(params)) => Ok(params),
                Ok(Err(_)) => Err(OAuthError::Cancelled),
                Err(_) => Err(OAuthError::TimedOut(BROWSER_TIMEOUT.as_secs())),
            }
        })
    }
}

fn answer(
    query: Option<String>,
    expected: &str,
    server: &str,
    reply: &Reply,
) -> axum::response::Response {
    let params = CallbackParams::from_query(query.as_deref().unwrap_or(""));
    if params.state.as_deref() != Some(expected) {
        let page = "<!doctype html><meta charset=utf-8><p>This sign-in is unknown or already \
                    finished. Start it again from mcplab.</p>";
        return (axum::http::StatusCode::BAD_REQUEST, Html(page)).into_response();
    }
    let text = match &params.error {
        Some(error) => format!("The sign-in to {server} failed ({error}). You can close this tab."),
        None => {
            format!("Signed in to {server}. You can close this tab and return to the terminal.")
        }
    };
    if let Some(tx) = reply.lock().take() {
        let _ = tx.send(params);
    }
    Html(format!(
        "<!doctype html><meta charset=utf-8><title>mcplab</title><p>{}</p>",
        text.replace('<', "&lt;")
    ))
    .into_response()
}
