//! Frames to a running `mcplab serve`: the tap registers (`POST /api/taps` with its `start`),
//! then posts batches (`POST /api/taps/{id}/frames`) and its end, each with the launch secret
//! as the bearer (the binary reads it from `launch.json`). Every request has a short deadline:
//! a slow or gone inspector fails the sink, never the traffic. An inspector that restarted
//! (404 for the tap's id) is registered with again.

use std::time::Duration;

use mcplab_protocol::TrafficFrame;
use mcplab_protocol::tap::{TapEnd, TapRegistered, TapStart};
use reqwest::StatusCode;

/// How long one request to the inspector may take.
const DEADLINE: Duration = Duration::from_secs(2);

/// Where the inspector is and the secret it takes.
#[derive(Debug, Clone)]
pub struct LiveTarget {
    /// e.g. `http://127.0.0.1:6274`.
    pub url: String,
    pub secret: String,
}

/// A registered tap.
pub struct LiveSink {
    target: LiveTarget,
    client: reqwest::Client,
    start: TapStart,
    id: String,
}

impl LiveSink {
    /// Registers with the inspector; the error says why it could not.
    pub async fn connect(target: LiveTarget, start: TapStart) -> Result<Self, String> {
        let client = mcplab_net::tls::client_builder()
            .timeout(DEADLINE)
            .no_proxy()
            .build()
            .map_err(|e| e.to_string())?;
        let mut sink = Self {
            target,
            client,
            start,
            id: String::new(),
        };
        sink.register().await?;
        Ok(sink)
    }

    /// The id the inspector gave this tap (`tap:N`).
    pub fn id(&self) -> &str {
        &self.id
    }

    async fn register(&mut self) -> Result<(), String> {
        let response = self
            .client
            .post(format!("{}/api/taps", self.target.url))
            .bearer_auth(&self.target.secret)
            .json(&self.start)
            .send()
            .await
            .map_err(|e| mcplab_net::tls::describe_error(&e))?;
        let response = ok(response)?;
        let registered: TapRegistered = response
            .json()
            .await
            .map_err(|e| format!("an unreadable answer: {e}"))?;
        self.id = registered.id;
        Ok(())
    }

    pub async fn send(&mut self, batch: &[TrafficFrame]) -> Result<(), String> {
        match self.post("frames", batch).await {
            Err(Some(StatusCode::NOT_FOUND)) => {
                self.register().await?;
                self.post("frames", batch).await.map_err(describe)
            }
            other => other.map_err(describe),
        }
    }

    pub async fn end(&mut self, end: &TapEnd) -> Result<(), String> {
        self.post("end", end).await.map_err(describe)
    }

    /// Posts `body` to the tap's `what`; the status when the inspector refused it.
    async fn post(
        &self,
        what: &str,
        body: &(impl serde::Serialize + ?Sized),
    ) -> Result<(), Option<StatusCode>> {
        let url = format!("{}/api/taps/{}/{what}", self.target.url, self.id);
        let response = self
            .client
            .post(url)
            .bearer_auth(&self.target.secret)
            .json(body)
            .send()
            .await
            .map_err(|_| None)?;
        match response.status().is_success() {
            true => Ok(()),
            false => Err(Some(response.status())),
        }
    }
}

fn ok(response: reqwest::Response) -> Result<reqwest::Response, String> {
    match response.status() {
        s if s.is_success() => Ok(response),
        StatusCode::UNAUTHORIZED => Err(
            "it did not accept the launch secret in launch.json (restart `mcplab serve`)".into(),
        ),
        s => Err(format!("HTTP {s}")),
    }
}

fn describe(status: Option<StatusCode>) -> String {
    match status {
        Some(s) => format!("HTTP {s}"),
        None => "it did not answer".into(),
    }
}
