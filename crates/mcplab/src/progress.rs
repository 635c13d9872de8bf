//! Stderr for people: a one-line progress bar for requests that report progress, and whole
//! lines (server logs, stderr, traces) written so they never collide with the bar — the bar
//! is cleared before a line and drawn again after it. The bar draws only when stderr is a
//! terminal, so scripts and `--json` output stay clean. Each line is one write, so lines of
//! different sources do not interleave mid-line.

use std::io::{IsTerminal, Write};
use std::sync::{Arc, Mutex};

use mcplab_core::mcp::ProgressUpdate;

const WIDTH: usize = 30;

/// The shared stderr of one CLI run.
#[derive(Clone)]
pub struct Terminal {
    inner: Arc<Mutex<Bar>>,
}

struct Bar {
    enabled: bool,
    /// The bar's text while one is drawn.
    drawn: Option<String>,
}

impl Terminal {
    pub fn for_stderr() -> Self {
        Self {
            inner: Arc::new(Mutex::new(Bar {
                enabled: std::io::stderr().is_terminal(),
                drawn: None,
            })),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Bar> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Draws (or redraws) the bar for `u`.
    pub fn progress(&self, u: &ProgressUpdate) {
        let mut bar = self.lock();
        if !bar.enabled {
            return;
        }
        let line = render(u);
        write_err(&format!("\r\x1b[2K{line}"));
        bar.drawn = Some(line);
    }

    /// Removes the bar.
    pub fn finish(&self) {
        let mut bar = self.lock();
        if bar.drawn.take().is_some() {
            write_err("\r\x1b[2K");
        }
    }

    /// Writes one whole line (`text` without its newline), keeping the bar below it.
    pub fn line(&self, text: &str) {
        let bar = self.lock();
        let mut out = String::with_capacity(text.len() + 16);
        if bar.drawn.is_some() {
            out.push_str("\r\x1b[2K");
        }
        out.push_str(text);
        out.push('\n');
        if let Some(b) = &bar.drawn {
            out.push_str(b);
        }
        write_err(&out);
    }
}

/// One write to stderr; a closed stderr has nobody left to tell.
fn write_err(text: &str) {
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(text.as_bytes());
    let _ = err.flush();
}

/// The bar's text, without terminal control codes.
pub fn render(u: &ProgressUpdate) -> String {
    let msg = u
        .message
        .as_deref()
        .map(|m| format!(" {m}"))
        .unwrap_or_default();
    match u.total {
        Some(total) if total > 0.0 => {
            let frac = (u.progress / total).clamp(0.0, 1.0);
            let filled = (frac * WIDTH as f64).round() as usize;
            format!(
                "[{}{}] {:>3.0}% ({}/{}){msg}",
                "#".repeat(filled),
                "-".repeat(WIDTH - filled),
                frac * 100.0,
                u.progress,
                total
            )
        }
        _ => format!("[{}]{msg}", u.progress),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_fraction_and_message() {
        let u = ProgressUpdate {
            progress: 1.0,
            total: Some(4.0),
            message: Some("step".into()),
        };
        let s = render(&u);
        assert!(s.contains(" 25% (1/4) step"), "{s}");
        assert_eq!(s.matches('#').count(), 8);
        let open = ProgressUpdate {
            progress: 7.0,
            total: None,
            message: None,
        };
        assert_eq!(render(&open), "[7]");
    }
}
