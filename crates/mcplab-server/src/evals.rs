//! Eval runs started from the Evals page: each `POST /api/evals/runs` prepares the suite (errors
//! answer at once), then runs it on a task of its own with `mcplab-evalrun` — its own
//! connection manager, so a run never disconnects the servers the user is working with — and
//! publishes every run event on the run's numbered stream. `appRendered` checks render with a
//! [`LoopbackRenderer`] (as `mcplab eval run` does) over the run's own connections, with the
//! Chromium the binary found at startup. The newest [`MAX_LIVE`] runs stay
//! here for their streams and cancel buttons; results live in the store, not here.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use mcplab_evalrun::{AppRenderer, Prepared, RunEnv, RunSink, RunSpec};
use mcplab_evals::report::RunEvent;
use mcplab_llm::prices::PriceTable;
use mcplab_mcp::{ConnectionManager, ManagerOptions};
use mcplab_protocol::evals::EvalStreamEvent;
use parking_lot::Mutex;
use tokio_util::sync::CancellationToken;

use crate::AppState;
use crate::events::EventRing;
use crate::headless::LoopbackRenderer;

/// Runs kept for their event streams.
pub(crate) const MAX_LIVE: usize = 16;
/// Events kept per run for a page that (re)connects late.
const RING: usize = 20_000;

/// One run started here.
pub struct LiveRun {
    pub ring: EventRing,
    pub cancel: CancellationToken,
}

/// The runs by id, and their ids oldest first.
type Kept = (HashMap<String, Arc<LiveRun>>, VecDeque<String>);

/// The runs started here, newest last.
#[derive(Default)]
pub struct EvalRuns {
    kept: Mutex<Kept>,
}

impl EvalRuns {
    pub fn get(&self, id: &str) -> Option<Arc<LiveRun>> {
        let kept = self.kept.lock();
        kept.0.get(id).cloned()
    }

    fn insert(&self, id: String, run: Arc<LiveRun>) {
        let mut kept = self.kept.lock();
        kept.0.insert(id.clone(), run);
        kept.1.push_back(id);
        while kept.1.len() > MAX_LIVE {
            if let Some(old) = kept.1.pop_front() {
                kept.0.remove(&old);
            }
        }
    }
}

struct RingSink(Arc<LiveRun>);

impl RunSink for RingSink {
    fn event(&self, event: &RunEvent) {
        self.0.ring.publish(&EvalStreamEvent::Run {
            event: Box::new(event.clone()),
        });
    }
}

/// What the page may set for a run.
pub(crate) struct Launch {
    pub prepared: Prepared,
    pub concurrency: Option<u32>,
}

/// Starts `launch` and returns its run id at once; the run goes on in the background.
pub(crate) fn start(app: &Arc<AppState>, launch: Launch) -> Result<String, String> {
    // The table chat uses: shipped, with the data directory's prices.json over it.
    let prices: PriceTable = (*app.sessions.prices()).clone();
    let id = mcplab_evalrun::new_run_id();
    let live = Arc::new(LiveRun {
        ring: EventRing::with_capacity(RING),
        cancel: CancellationToken::new(),
    });
    app.evals.insert(id.clone(), live.clone());
    let (providers, _) = app.sessions.provider_settings();
    // Nobody reads this manager's traffic back: a small ring keeps memory flat.
    // Made with the first host's declaration; the runner adds one per other host's, and each
    // host's app renders read through that host's own.
    let manager = ConnectionManager::new(ManagerOptions {
        traffic_capacity: 1_024,
        client: mcplab_evalrun::first_declaration(&launch.prepared),
        ..ManagerOptions::default()
    });
    let chromium = app.render_host.get().and_then(|h| h.chromium.clone());
    let chromium = chromium.filter(|p| p.is_file());
    let renderer: Result<Arc<dyn AppRenderer>, String> = match chromium {
        Some(path) => Ok(Arc::new(LoopbackRenderer::new(
            launch.prepared.servers.clone(),
            path,
        ))),
        None => Err(
            "no Chromium was found when mcplab started: install the `chromium` \
                     package, or restart with `mcplab serve --chromium PATH` (or \
                     MCPLAB_CHROMIUM=PATH)"
                .into(),
        ),
    };
    let env = RunEnv {
        store: app.store.clone(),
        manager,
        providers,
        http: mcplab_net::tls::client(),
        prices,
        renderer,
    };
    let spec = RunSpec {
        concurrency: launch.concurrency,
        run_id: Some(id.clone()),
        ..RunSpec::new(launch.prepared)
    };
    // Exported to the OTLP collector Settings names (if any) as iterations finish.
    let sink = app.otlp.wrap(Arc::new(RingSink(live.clone())));
    tokio::spawn(async move {
        let end = match mcplab_evalrun::run(spec, env, sink, live.cancel.clone()).await {
            Ok(outcome) => EvalStreamEvent::Ended {
                status: outcome.status.as_str().to_owned(),
                exit_code: outcome.exit_code(),
            },
            Err(e) => EvalStreamEvent::Failed {
                message: e.to_string(),
            },
        };
        live.ring.publish(&end);
    });
    Ok(id)
}
