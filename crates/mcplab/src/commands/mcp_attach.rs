//! `mcplab mcp --attach`: the agent's traffic, live in a running `mcplab serve`. Every server
//! the agent talks to becomes one live tap of that inspector (`POST /api/taps` with the launch
//! secret from `launch.json`, as `mcplab tap` does), so its traffic view shows the agent's
//! frames as they cross the wire, under the host name `mcplab-agent` — the clientInfo
//! `mcplab mcp --attach` introduces itself with, which is how the inspector labels a tapped
//! session. The mirror reads the agent's traffic log from the side: an inspector that is slow
//! or gone costs frames in its view (counted in the tap's end), never an agent's call.
//! [`InspectorApi`] is the other way: the agent reads the inspector's servers and their
//! traffic (the person's calls) through its API.

use std::collections::HashMap;
use std::sync::Arc;

use futures::FutureExt;
use futures::future::BoxFuture;
use mcplab_mcp::ConnectionManager;
use mcplab_mcp::traffic::TrafficFeed;
use mcplab_protocol::clock::now_ms;
use mcplab_protocol::tap::{TAP_FORMAT, TapEnd, TapStart, TapTransport};
use mcplab_protocol::{ServerTransport, TrafficFrame};
use mcplab_tap::recorder::{LiveSink, LiveTarget};
use tokio::sync::broadcast::error::RecvError;
use tokio_util::sync::CancellationToken;

use crate::failure::Failure;
use crate::launch::{Launch, api_client};
use crate::settings::DataDir;

/// The clientInfo name servers see from an attached `mcplab mcp`, and the inspector shows.
pub const AGENT_CLIENT: &str = "mcplab-agent";

/// Frames sent to the inspector in one request at most.
const BATCH: usize = 64;
/// Bytes of one answer of the inspector's API read at most (its traffic ring is cut frames).
const ANSWER_LIMIT: usize = 32 * 1024 * 1024;

/// The inspector recorded in the data directory, asked whether it takes the launch secret
/// (`GET /api/taps`: nothing is registered before the agent talks to a server).
pub async fn inspector(data: &DataDir) -> Result<LiveTarget, Failure> {
    let launch = Launch::read(data)?;
    let fail = |why: String| {
        Failure::usage(format!(
            "--attach: the mcplab at {} {why} (is `mcplab serve` running with this --data-dir?)",
            launch.url
        ))
    };
    let response = launch
        .client(std::time::Duration::from_secs(5))?
        .get(format!("{}/api/taps", launch.url))
        .send()
        .await
        .map_err(|e| {
            fail(format!(
                "did not answer: {}",
                mcplab_net::tls::describe_error(&e)
            ))
        })?;
    if !response.status().is_success() {
        return Err(fail(format!(
            "refused the launch secret in launch.json (HTTP {})",
            response.status()
        )));
    }
    eprintln!(
        "mcplab mcp: the agent's traffic shows live in {}",
        launch.url
    );
    Ok(LiveTarget {
        url: launch.url,
        secret: launch.secret,
    })
}

/// Mirrors `manager`'s traffic to `target` until `stop` (what already came is still sent),
/// then ends every tap.
pub async fn mirror(manager: Arc<ConnectionManager>, target: LiveTarget, stop: CancellationToken) {
    let mut feed = manager.traffic().subscribe();
    let mut taps: HashMap<String, Tap> = HashMap::new();
    let mut dropped = 0u64;
    let mut stopped = false;
    loop {
        let first = match stopped {
            true => None,
            false => tokio::select! {
                f = feed.recv() => Some(f),
                _ = stop.cancelled() => None,
            },
        };
        stopped |= first.is_none();
        let (batch, closed) = ready_batch(&mut feed, first, &mut dropped);
        let done = closed || (stopped && batch.is_empty());
        for (server, frames) in by_server(batch) {
            let tap = match taps.get_mut(&server) {
                Some(t) => t,
                None => {
                    let tap = Tap::open(&manager, &target, &server).await;
                    taps.entry(server).or_insert(tap)
                }
            };
            tap.send(&frames).await;
        }
        if done {
            break;
        }
    }
    end_all(taps, dropped).await;
}

type Received = Result<TrafficFrame, RecvError>;

/// `first` and what else is ready, up to [`BATCH`] frames; whether the feed closed.
fn ready_batch(
    feed: &mut TrafficFeed,
    first: Option<Received>,
    dropped: &mut u64,
) -> (Vec<TrafficFrame>, bool) {
    let mut batch = Vec::new();
    let mut next = first.or_else(|| feed.recv().now_or_never());
    while let Some(received) = next.take() {
        match received {
            Ok(frame) => batch.push(frame),
            Err(RecvError::Lagged(n)) => *dropped += n,
            Err(RecvError::Closed) => return (batch, true),
        }
        if batch.len() < BATCH {
            next = feed.recv().now_or_never();
        }
    }
    (batch, false)
}

/// One server's tap; `None` when the inspector would not register it.
struct Tap {
    sink: Option<LiveSink>,
    failed: u64,
}

impl Tap {
    async fn open(manager: &ConnectionManager, target: &LiveTarget, server: &str) -> Tap {
        let (described, transport) = match manager.get(server) {
            Ok(c) => describe(&c.config().transport),
            Err(_) => (server.to_owned(), TapTransport::Stdio),
        };
        let start = start_for(format!("{server}: {described}"), transport);
        let sink = LiveSink::connect(target.clone(), start).await.ok();
        Tap { sink, failed: 0 }
    }

    async fn send(&mut self, frames: &[TrafficFrame]) {
        let sent = match &mut self.sink {
            Some(sink) => sink.send(frames).await.is_ok(),
            None => false,
        };
        if !sent {
            self.failed += frames.len() as u64;
        }
    }
}

/// The server's command line, or its URL with password and keys masked (`mcplab_net`).
fn describe(transport: &ServerTransport) -> (String, TapTransport) {
    match transport {
        ServerTransport::Stdio { .. } => (transport.describe(), TapTransport::Stdio),
        _ => (
            mcplab_net::mask_url_text(&transport.describe()),
            TapTransport::Http,
        ),
    }
}

fn start_for(target: String, transport: TapTransport) -> TapStart {
    TapStart {
        format: TAP_FORMAT,
        transport,
        target,
        pid: std::process::id(),
        started_ms: now_ms(),
    }
}

fn ended(dropped: u64) -> TapEnd {
    TapEnd {
        ended_ms: now_ms(),
        how: "mcplab mcp stopped".into(),
        dropped,
    }
}

/// Frames grouped by server, each group in the order it came.
fn by_server(frames: Vec<TrafficFrame>) -> Vec<(String, Vec<TrafficFrame>)> {
    let mut groups: Vec<(String, Vec<TrafficFrame>)> = Vec::new();
    for frame in frames {
        match groups.iter_mut().find(|(s, _)| *s == frame.server) {
            Some((_, g)) => g.push(frame),
            None => groups.push((frame.server.clone(), vec![frame])),
        }
    }
    groups
}

async fn end_all(taps: HashMap<String, Tap>, dropped: u64) {
    for (_, mut tap) in taps {
        if let Some(sink) = &mut tap.sink {
            let _ = sink.end(&ended(dropped + tap.failed)).await;
        }
    }
}

/// The running inspector's API, as the agent reads it (the launch secret as bearer).
pub struct InspectorApi {
    target: LiveTarget,
    client: reqwest::Client,
}

impl InspectorApi {
    pub fn new(target: LiveTarget) -> Result<Self, Failure> {
        let client = api_client(&target.secret, std::time::Duration::from_secs(10))?;
        Ok(Self { target, client })
    }

    fn get<T: serde::de::DeserializeOwned>(
        &self,
        segments: &[&str],
    ) -> BoxFuture<'static, Result<T, String>> {
        let url = reqwest::Url::parse(&self.target.url).and_then(|mut url| {
            url.path_segments_mut()
                .map_err(|()| url::ParseError::RelativeUrlWithCannotBeABaseBase)?
                .pop_if_empty()
                .push("api")
                .extend(segments);
            Ok(url)
        });
        let request = url.map(|url| self.client.get(url));
        async move {
            let mut response = request
                .map_err(|e| e.to_string())?
                .send()
                .await
                .map_err(|e| mcplab_net::tls::describe_error(&e))?;
            if !response.status().is_success() {
                return Err(format!("it answered HTTP {}", response.status()));
            }
            let mut body = Vec::new();
            while let Some(chunk) = response.chunk().await.map_err(|e| e.to_string())? {
                if body.len() + chunk.len() > ANSWER_LIMIT {
                    return Err(format!("its answer is over {} MiB", ANSWER_LIMIT >> 20));
                }
                body.extend_from_slice(&chunk);
            }
            serde_json::from_slice(&body)
                .map_err(|e| format!("its answer is not what mcplab expects: {e}"))
        }
        .boxed()
    }
}

impl mcplab_agent::Inspector for InspectorApi {
    fn url(&self) -> String {
        self.target.url.clone()
    }

    fn servers(&self) -> BoxFuture<'static, Result<Vec<serde_json::Value>, String>> {
        self.get(&["servers"])
    }

    fn traffic(
        &self,
        server: &str,
    ) -> BoxFuture<'static, Result<(Vec<TrafficFrame>, u64), String>> {
        let snapshot =
            self.get::<mcplab_protocol::api::TrafficSnapshotView>(&["servers", server, "traffic"]);
        async move { snapshot.await.map(|s| (s.frames, s.dropped)) }.boxed()
    }
}
