//! Where OpenTelemetry spans go from this process: one switch holding the current OTLP
//! exporter (from `serve --otlp`, from the Settings page, or none), told about every chat turn
//! by the session hub and wrapped around the sink of every eval run the page (or the CLI)
//! starts. It only hands finished traces to `mcplab-otlp`; nothing here waits on the network.

use std::sync::Arc;
use std::time::SystemTime;

use mcplab_core::session::{EndedTurn, TurnObserver};
use mcplab_evalrun::RunSink;
use mcplab_evals::report::RunEvent;
use mcplab_evals::run::IterationRecord;
use mcplab_evals::trace::{Trace, TurnTiming, turn_from_events};
use mcplab_otlp::{ChatTurnSpans, Exporter, IterationSpans, OtlpError};
use mcplab_protocol::api::OtlpSettings;
use mcplab_protocol::chat::TurnEvent;
use parking_lot::{Mutex, RwLock};

/// The settings key of the page's OTLP address.
pub const OTLP_KEY: &str = "otlpEndpoint";

/// The current exporter, if any.
#[derive(Default)]
pub struct OtlpSwitch {
    current: RwLock<Option<Exporter>>,
    from_flag: std::sync::atomic::AtomicBool,
}

impl OtlpSwitch {
    /// A switch set to `exporter` (the CLI's `chat --otlp`).
    pub fn exporting(exporter: Exporter) -> OtlpSwitch {
        OtlpSwitch {
            current: RwLock::new(Some(exporter)),
            from_flag: true.into(),
        }
    }

    /// Exports to `url` from now on (`None`: stop); `from_flag` pins it against the page.
    /// Needs a tokio runtime.
    pub fn set(&self, url: Option<&str>, from_flag: bool) -> Result<(), OtlpError> {
        let exporter = match url.map(str::trim).filter(|u| !u.is_empty()) {
            Some(url) => Some(Exporter::start(
                url,
                Arc::new(|message| tracing::warn!("{message}")),
            )?),
            None => None,
        };
        *self.current.write() = exporter;
        self.from_flag
            .store(from_flag, std::sync::atomic::Ordering::Relaxed);
        Ok(())
    }

    pub fn from_flag(&self) -> bool {
        self.from_flag.load(std::sync::atomic::Ordering::Relaxed)
    }

    pub fn exporter(&self) -> Option<Exporter> {
        self.current.read().clone()
    }

    /// The page's view: where to and how it went.
    pub fn view(&self) -> OtlpSettings {
        let Some(exporter) = self.exporter() else {
            return OtlpSettings {
                from_flag: self.from_flag(),
                ..OtlpSettings::default()
            };
        };
        let r = exporter.report();
        OtlpSettings {
            endpoint: Some(exporter.endpoint().to_owned()),
            from_flag: self.from_flag(),
            sent_spans: r.sent_spans,
            dropped_spans: r.dropped_spans,
            failed_batches: r.failed_batches,
            first_error: r.first_error,
        }
    }

    /// `sink` with every finished iteration also exported, when exporting.
    pub fn wrap(&self, sink: Arc<dyn RunSink>) -> Arc<dyn RunSink> {
        match self.exporter() {
            Some(exporter) => Arc::new(OtlpRunSink::new(sink, exporter)),
            None => sink,
        }
    }
}

impl TurnObserver for OtlpSwitch {
    fn turn_ended(&self, ended: &EndedTurn<'_>) {
        let Some(exporter) = self.exporter() else {
            return;
        };
        let events = &ended.turn.events;
        let latency_ms = events
            .iter()
            .find_map(|e| match e {
                TurnEvent::TurnTiming { duration_ms, .. } => Some(*duration_ms),
                _ => None,
            })
            .unwrap_or(ended.elapsed.as_millis() as u64);
        let timing = TurnTiming {
            latency_ms,
            llm_ms: 0,
        };
        let turn = turn_from_events(&ended.turn.user, events, timing);
        exporter.chat_turn(&ChatTurnSpans {
            session_id: ended.session_id,
            turn_id: &ended.turn.turn_id,
            model: ended.model,
            turn: &turn,
            cost_usd: ended.cost_usd,
            ended: SystemTime::now(),
        });
    }
}

/// A run's sink that also exports each finished iteration.
pub struct OtlpRunSink {
    inner: Arc<dyn RunSink>,
    exporter: Exporter,
    /// Run id and suite id, from `runStarted`.
    run: Mutex<(String, String)>,
}

impl OtlpRunSink {
    pub fn new(inner: Arc<dyn RunSink>, exporter: Exporter) -> OtlpRunSink {
        OtlpRunSink {
            inner,
            exporter,
            run: Mutex::default(),
        }
    }
}

impl RunSink for OtlpRunSink {
    fn event(&self, event: &RunEvent) {
        if let RunEvent::RunStarted {
            run_id, suite_id, ..
        } = event
        {
            *self.run.lock() = (run_id.clone(), suite_id.clone());
        }
        self.inner.event(event);
    }

    fn iteration_trace(&self, record: &IterationRecord, trace: Option<&Trace>) {
        let (run_id, suite_id) = self.run.lock().clone();
        self.exporter.iteration(&IterationSpans {
            run_id: &run_id,
            suite_id: &suite_id,
            record,
            trace,
            ended: SystemTime::now(),
        });
        self.inner.iteration_trace(record, trace);
    }
}
