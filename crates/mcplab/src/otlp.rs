//! `--otlp URL` for the one-shot commands (`chat`, `eval run`): an exporter started before
//! the work and flushed after it, for a bounded time; what went wrong is printed once, at the
//! end, as a warning (never an exit code). `serve` uses the server's switch instead.

use std::sync::Arc;
use std::time::Duration;

use mcplab_otlp::Exporter;

use crate::failure::Failure;

/// How long the end of a command waits for the last spans to go out.
const FLUSH_WITHIN: Duration = Duration::from_secs(5);

/// The exporter `--otlp` asks for, if any; a URL that cannot be used is a usage error.
pub fn start(url: Option<&str>) -> Result<Option<Exporter>, Failure> {
    let Some(url) = url.map(str::trim).filter(|u| !u.is_empty()) else {
        return Ok(None);
    };
    Exporter::start(url, Arc::new(|_| {}))
        .map(Some)
        .map_err(|e| Failure::usage(format!("--otlp: {e}")))
}

/// Sends what is left (bounded) and says once what could not be sent.
pub async fn finish(exporter: Option<Exporter>) {
    let Some(exporter) = exporter else {
        return;
    };
    let report = exporter.flush(FLUSH_WITHIN).await;
    if let Some(line) = report.problem(exporter.endpoint()) {
        eprintln!("warning: {line}");
    }
}
