//! The `mcplab serve` running on the data directory, as `servers add|remove|import|move` reach it:
//! found through `launch.json` (as `mcplab open` finds it) and asked through the routes the
//! web uses, with the launch secret, so its list, its events and its connections follow the
//! edit. Each edit answers `None` when no inspector is there to ask (no record, a process that
//! is gone, nothing listening on its port): the caller edits the store itself. An inspector
//! that answers and refuses (the secret, the name, the config) is a failure and nothing is
//! changed. This module never touches the store.

use std::time::Duration;

use mcplab_core::config::render_mcp_servers;
use mcplab_protocol::api::{ApiError, ImportRequest, ImportResult, ServerOrder, ServerView};
use mcplab_protocol::{ServerConfig, ServerStatus};
use reqwest::{Method, StatusCode};
use serde::de::DeserializeOwned;

use crate::failure::Failure;
use crate::launch::Launch;
use crate::settings::DataDir;

/// How long one request may take. Adding waits for the server to be `connecting` (5 s at
/// most); reconnecting a replaced one waits for its handshake.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(60);
/// Bytes of one answer read at most (the answers here are one server's view or a list of names).
const ANSWER_LIMIT: usize = 4 * 1024 * 1024;

/// The running inspector recorded in the data directory.
pub(super) struct Inspector {
    launch: Launch,
    client: reqwest::Client,
}

/// An answer that is not a success: its status and what the inspector said.
struct Refusal(StatusCode, String);

impl Inspector {
    /// The inspector recorded in `data` whose process still runs, if any.
    pub(super) fn find(data: &DataDir) -> Result<Option<Self>, Failure> {
        let Some(launch) = Launch::find(data)? else {
            return Ok(None);
        };
        let client = launch.client(REQUEST_TIMEOUT)?;
        Ok(Some(Self { launch, client }))
    }

    /// The line said on stderr after an edit it took.
    pub(super) fn told(&self) -> String {
        format!("the running inspector at {} was updated", self.launch.url)
    }

    /// Adds `config`, or replaces the server of its name: whether it replaced one. A new
    /// server connects as the web's Add connects it; a replaced one that was connected (or
    /// failed) reconnects with its new configuration, as the web's edit form does.
    pub(super) async fn add(&self, config: &ServerConfig) -> Result<Option<bool>, Failure> {
        let body = serde_json::to_value(config).unwrap_or_default();
        let added = self
            .call::<ServerView>(Method::POST, &[], Some(&body))
            .await?;
        let Some(added) = added else {
            return Ok(None);
        };
        match added {
            Ok(_) => return Ok(Some(false)),
            Err(Refusal(StatusCode::CONFLICT, _)) => {}
            Err(refusal) => return Err(self.refused(refusal)),
        }
        let one = [config.name.as_str()];
        let view = self
            .required::<ServerView>(Method::PUT, &one, Some(&body))
            .await?;
        if matches!(
            view.status,
            ServerStatus::Connected | ServerStatus::Failed { .. }
        ) {
            // Replaced either way: a reconnect that does not go through is said, not failed.
            let path = [config.name.as_str(), "reconnect"];
            if let Err(e) = self.required::<ServerView>(Method::POST, &path, None).await {
                eprintln!(
                    "warning: `{}` was not reconnected: {}",
                    config.name, e.message
                );
            }
        }
        Ok(Some(true))
    }

    /// Removes server `name` (it disconnects first and forgets its sign-ins).
    pub(super) async fn remove(&self, name: &str) -> Result<Option<()>, Failure> {
        let answer = self.call::<()>(Method::DELETE, &[name], None).await?;
        answer
            .map(|a| a.map_err(|refusal| self.refused(refusal)))
            .transpose()
    }

    /// Adds or replaces each of `servers`, none connected (as the web's import without
    /// "connect now").
    pub(super) async fn import(
        &self,
        servers: &[ServerConfig],
    ) -> Result<Option<ImportResult>, Failure> {
        let request = ImportRequest {
            json: render_mcp_servers(servers).to_string(),
        };
        let body = serde_json::to_value(request).unwrap_or_default();
        let answer = self.call(Method::POST, &["import"], Some(&body)).await?;
        answer
            .map(|a| a.map_err(|refusal| self.refused(refusal)))
            .transpose()
    }

    /// Moves server `name` as `to` says, in the inspector's list as it is now: the new order.
    pub(super) async fn reorder(
        &self,
        name: &str,
        to: &super::Place,
    ) -> Result<Option<Vec<String>>, Failure> {
        let Some(listed) = self.call::<Vec<ServerView>>(Method::GET, &[], None).await? else {
            return Ok(None);
        };
        let listed = listed.map_err(|refusal| self.refused(refusal))?;
        let names: Vec<String> = listed.into_iter().map(|v| v.config.name).collect();
        let names = super::moved(names, name, to)?;
        let body = serde_json::to_value(ServerOrder {
            names: names.clone(),
        })
        .unwrap_or_default();
        match self
            .call_at::<()>(Method::PUT, &["server-order"], Some(&body))
            .await?
        {
            Some(Ok(())) => Ok(Some(names)),
            Some(Err(refusal)) => Err(self.refused(refusal)),
            None => Err(self.lost("stopped answering")),
        }
    }

    /// A request that must be answered now that the inspector was reached once.
    async fn required<T: DeserializeOwned>(
        &self,
        method: Method,
        path: &[&str],
        body: Option<&serde_json::Value>,
    ) -> Result<T, Failure> {
        match self.call(method, path, body).await? {
            Some(Ok(answer)) => Ok(answer),
            Some(Err(refusal)) => Err(self.refused(refusal)),
            None => Err(self.lost("stopped answering")),
        }
    }

    /// `/api/servers/PATH…`, as [`Inspector::call_at`].
    async fn call<T: DeserializeOwned>(
        &self,
        method: Method,
        path: &[&str],
        body: Option<&serde_json::Value>,
    ) -> Result<Option<Result<T, Refusal>>, Failure> {
        let path: Vec<&str> = std::iter::once("servers")
            .chain(path.iter().copied())
            .collect();
        self.call_at(method, &path, body).await
    }

    /// `/api/PATH…`: None when nothing listens on the recorded port; the inspector's
    /// refusal as a [`Refusal`]; a 204 reads as JSON `null`.
    async fn call_at<T: DeserializeOwned>(
        &self,
        method: Method,
        path: &[&str],
        body: Option<&serde_json::Value>,
    ) -> Result<Option<Result<T, Refusal>>, Failure> {
        let mut url = reqwest::Url::parse(&self.launch.url)
            .map_err(|e| Failure::usage(format!("launch.json has a bad URL: {e}")))?;
        url.path_segments_mut()
            .map_err(|()| Failure::usage("launch.json has a bad URL"))?
            .pop_if_empty()
            .push("api")
            .extend(path);
        let mut request = self.client.request(method, url);
        if let Some(body) = body {
            request = request.json(body);
        }
        let mut response = match request.send().await {
            Ok(r) => r,
            // Nothing listens there: that inspector is gone (its record outlived it).
            Err(e) if e.is_connect() => return Ok(None),
            Err(e) => {
                let why = mcplab_net::tls::describe_error(&e);
                return Err(self.lost(&format!("did not answer ({why})")));
            }
        };
        let mut bytes = Vec::new();
        let cut = |e: reqwest::Error| self.lost(&format!("broke off its answer ({e})"));
        while let Some(chunk) = response.chunk().await.map_err(cut)? {
            if bytes.len() + chunk.len() > ANSWER_LIMIT {
                return Err(self.lost(&format!("answered over {} MiB", ANSWER_LIMIT >> 20)));
            }
            bytes.extend_from_slice(&chunk);
        }
        let status = response.status();
        if !status.is_success() {
            let said = serde_json::from_slice::<ApiError>(&bytes)
                .map(|e| e.message)
                .unwrap_or_else(|_| String::from_utf8_lossy(&bytes).into_owned());
            return Ok(Some(Err(Refusal(status, said))));
        }
        let bytes = if bytes.is_empty() {
            &b"null"[..]
        } else {
            &bytes
        };
        serde_json::from_slice(bytes)
            .map(|answer| Some(Ok(answer)))
            .map_err(|e| self.lost(&format!("answered what mcplab does not expect: {e}")))
    }

    /// The inspector said no: nothing was changed.
    fn refused(&self, Refusal(status, said): Refusal) -> Failure {
        let url = &self.launch.url;
        match status {
            StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN => Failure::connect(format!(
                "the mcplab at {url} did not accept the launch secret in launch.json (another \
                 program took its port after it stopped?); nothing was changed. Restart \
                 `mcplab serve`, or delete launch.json if no mcplab serves this data directory"
            )),
            s if s.is_client_error() => Failure::usage(format!(
                "{said} (the running inspector at {url} refused; nothing was changed)"
            )),
            s => Failure::connect(format!(
                "the running inspector at {url} failed (HTTP {s}: {said}); see `mcplab servers \
                 list` for what it holds"
            )),
        }
    }

    /// The inspector was reached but the exchange broke off: the edit may have been made.
    fn lost(&self, why: &str) -> Failure {
        Failure::connect(format!(
            "the running inspector at {} {why}; the change may or may not have been made: see \
             `mcplab servers list`",
            self.launch.url
        ))
    }
}
