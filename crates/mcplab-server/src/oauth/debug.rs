//! The OAuth debugger's runs: each `POST /api/oauth/debug` starts one task that runs the flow
//! step by step (core `debug_run`) for a URL, keeping the whole run for `GET …/{runId}` and
//! publishing each step live on its own numbered event ring (SSE with `Last-Event-ID` replay,
//! ending with `finished`). Runs keep no tokens: the credentials stay in the run's memory and
//! the summary shown is masked. The newest [`MAX_RUNS`] runs are kept.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use mcplab_net::mask_secret;
use mcplab_oauth::{
    DebugOptions, DebugOutcome, FlowOptions, NonInteractiveAgent, OAuthError, OAuthHttp, StepLog,
    UserAgent, debug_run, new_step,
};
use mcplab_protocol::oauth::{
    OAuthDebugEvent, OAuthDebugRequest, OAuthDebugRun, OAuthFailure, OAuthPhase, OAuthRunState,
    OAuthStep, OAuthStepKind,
};
use parking_lot::Mutex;
use tokio_util::sync::CancellationToken;

use super::BrowserAgent;
use crate::AppState;
use crate::error::ApiFailure;
use crate::events::EventRing;

/// Runs kept in memory.
pub(crate) const MAX_RUNS: usize = 20;
/// Events kept per run for replay.
const RUN_EVENTS: usize = 4096;

/// One debugger run.
pub(crate) struct DebugRun {
    snapshot: Mutex<OAuthDebugRun>,
    pub(crate) ring: EventRing,
    pub(crate) cancel: CancellationToken,
}

impl DebugRun {
    /// The run as it is now.
    pub(crate) fn snapshot(&self) -> OAuthDebugRun {
        self.snapshot.lock().clone()
    }
}

/// The runs by id, and their ids oldest first.
type Kept = (HashMap<String, Arc<DebugRun>>, VecDeque<String>);

/// The kept runs, newest last.
#[derive(Default)]
pub(crate) struct Runs {
    map: Mutex<Kept>,
}

impl Runs {
    pub(crate) fn get(&self, id: &str) -> Option<Arc<DebugRun>> {
        let map = self.map.lock();
        map.0.get(id).cloned()
    }

    fn insert(&self, id: String, run: Arc<DebugRun>) {
        let mut map = self.map.lock();
        map.0.insert(id.clone(), run);
        map.1.push_back(id);
        while map.1.len() > MAX_RUNS {
            if let Some(old) = map.1.pop_front()
                && let Some(run) = map.0.remove(&old)
            {
                run.cancel.cancel();
            }
        }
    }
}

/// Validates the request, starts the run and returns its id.
pub(crate) fn start(app: &Arc<AppState>, request: OAuthDebugRequest) -> Result<String, ApiFailure> {
    let url = url::Url::parse(request.url.trim())
        .ok()
        .filter(|u| matches!(u.scheme(), "http" | "https"))
        .ok_or_else(|| {
            ApiFailure::bad_request(format!(
                "`{}` is not an http(s) URL; give the MCP server's URL, e.g. https://host/mcp",
                request.url
            ))
        })?;
    let config = request.oauth_config();
    let opts = DebugOptions {
        url,
        transport: request.transport.unwrap_or_default(),
        flow: FlowOptions::from_config(&config, "mcplab"),
    };
    let id = hex::encode(rand::random::<[u8; 8]>());
    let mut shown = request.clone();
    shown.client_secret = shown.client_secret.as_deref().map(mask_secret);
    let run = Arc::new(DebugRun {
        snapshot: Mutex::new(OAuthDebugRun {
            id: id.clone(),
            request: shown,
            state: OAuthRunState::Running,
            steps: Vec::new(),
            result: None,
            failure: None,
            started_ms: mcplab_protocol::clock::now_ms(),
            finished_ms: None,
        }),
        ring: EventRing::with_capacity(RUN_EVENTS),
        cancel: CancellationToken::new(),
    });
    app.oauth.runs.insert(id.clone(), run.clone());
    let agent: Arc<dyn UserAgent> = if request.interactive {
        Arc::new(BrowserAgent::for_debug(
            app.oauth.clone(),
            app.events.clone(),
            app.security.origin(),
            &id,
        ))
    } else {
        Arc::new(NonInteractiveAgent::new())
    };
    let http = match app.manager.oauth() {
        Some(host) => host.http().clone(),
        None => OAuthHttp::new(concat!("mcplab/", env!("CARGO_PKG_VERSION"))).map_err(|e| {
            ApiFailure::new(
                axum::http::StatusCode::INTERNAL_SERVER_ERROR,
                "internal",
                e.to_string(),
            )
        })?,
    };
    tokio::spawn(execute(run, agent, http, opts));
    Ok(id)
}

async fn execute(
    run: Arc<DebugRun>,
    agent: Arc<dyn UserAgent>,
    http: OAuthHttp,
    opts: DebugOptions,
) {
    let sink = run.clone();
    let log = StepLog::with_sink(Arc::new(move |step: &OAuthStep| {
        // Kept and published under one lock, so the snapshot and the stream agree.
        let mut snapshot = sink.snapshot.lock();
        snapshot.steps.push(step.clone());
        sink.ring
            .publish(&OAuthDebugEvent::Step { step: step.clone() });
    }));
    let outcome = tokio::select! {
        _ = run.cancel.cancelled() => Err(OAuthError::Cancelled),
        outcome = debug_run(&http, agent.as_ref(), &opts, &log) => outcome,
    };
    if matches!(outcome, Err(OAuthError::Cancelled)) && run.cancel.is_cancelled() {
        let phase = log.steps().last().map_or(OAuthPhase::Probe, |s| s.phase);
        log.push(new_step(
            OAuthStepKind::Failed,
            phase,
            "The run was cancelled",
        ));
    }
    {
        let mut snapshot = run.snapshot.lock();
        snapshot.finished_ms = Some(mcplab_protocol::clock::now_ms());
        match outcome {
            Ok(DebugOutcome::Authorized { summary, .. }) => {
                snapshot.state = OAuthRunState::Succeeded;
                snapshot.result = Some(summary);
            }
            Ok(DebugOutcome::NotRequired) => snapshot.state = OAuthRunState::NotRequired,
            Err(OAuthError::Cancelled) if run.cancel.is_cancelled() => {
                snapshot.state = OAuthRunState::Cancelled;
                snapshot.failure = Some(OAuthFailure {
                    message: "the run was cancelled".into(),
                    fix: None,
                });
            }
            Err(e) => {
                snapshot.state = OAuthRunState::Failed;
                snapshot.failure = Some(e.failure());
            }
        }
        run.ring.publish(&OAuthDebugEvent::Finished {
            run: snapshot.clone(),
        });
    }
}
