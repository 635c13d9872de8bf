//! Stderr for people: a one-line progress bar for requests that report progress, and whole
//! lines (server logs, stderr, traces) written so they never collide with the bar — the bar
//! is cleared before a line and drawn again after it. The bar draws only when stderr is a
//! terminal, so scripts and `--json` output stay clean, and only while a request is waited on
//! (`begin`…`finish`: a late update never leaves a bar behind the result). Each line is one
//! write, so lines of different sources do not interleave mid-line.

use std::io::{IsTerminal, Write};
use std::sync::Arc;

use mcplab_mcp::ProgressUpdate;
use parking_lot::Mutex;

const WIDTH: usize = 30;

/// Where the terminal's text goes: stderr, or a buffer in tests.
type Sink = Box<dyn Write + Send>;

/// The shared stderr of one CLI run.
#[derive(Clone)]
pub struct Terminal {
    inner: Arc<Mutex<Bar>>,
}

struct Bar {
    enabled: bool,
    /// Requests being waited on: progress is drawn only then.
    waiting: usize,
    /// The bar's text while one is drawn.
    drawn: Option<String>,
    sink: Sink,
}

impl Bar {
    /// One write; a closed stderr has nobody left to tell.
    fn write(&mut self, text: &str) {
        let _ = self.sink.write_all(text.as_bytes());
        let _ = self.sink.flush();
    }
}

impl Terminal {
    pub fn for_stderr() -> Self {
        Self::new(std::io::stderr().is_terminal(), Box::new(std::io::stderr()))
    }

    /// A terminal writing to `sink`; `bar` says whether progress bars are drawn.
    fn new(bar: bool, sink: Sink) -> Self {
        Self {
            inner: Arc::new(Mutex::new(Bar {
                enabled: bar,
                waiting: 0,
                drawn: None,
                sink,
            })),
        }
    }

    /// A request is being waited on: its progress may be drawn.
    pub fn begin(&self) {
        self.inner.lock().waiting += 1;
    }

    /// Draws (or redraws) the bar for `u`, while a request is waited on.
    pub fn progress(&self, u: &ProgressUpdate) {
        let mut bar = self.inner.lock();
        if !bar.enabled || bar.waiting == 0 {
            return;
        }
        let line = render(u);
        bar.write(&format!("\r\x1b[2K{line}"));
        bar.drawn = Some(line);
    }

    /// The request [`Self::begin`] announced ended: removes the bar.
    pub fn finish(&self) {
        let mut bar = self.inner.lock();
        bar.waiting = bar.waiting.saturating_sub(1);
        if bar.drawn.take().is_some() {
            bar.write("\r\x1b[2K");
        }
    }

    /// Writes one whole line (`text` without its newline), keeping the bar below it.
    pub fn line(&self, text: &str) {
        let mut bar = self.inner.lock();
        let mut out = String::with_capacity(text.len() + 16);
        if bar.drawn.is_some() {
            out.push_str("\r\x1b[2K");
        }
        out.push_str(text);
        out.push('\n');
        if let Some(b) = &bar.drawn {
            out.push_str(b);
        }
        bar.write(&out);
    }
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

    /// A sink the test can read back.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn b15_log_lines_clear_the_bar_and_redraw_it_below() {
        let sink = Shared::default();
        let term = Terminal::new(true, Box::new(sink.clone()));
        term.begin();
        let step = ProgressUpdate {
            progress: 1.0,
            total: Some(3.0),
            message: Some("step 1/3".into()),
        };
        term.progress(&step);
        term.line("[server warning] warning at step 1");
        term.finish();
        let text = String::from_utf8(sink.0.lock().clone()).unwrap();
        let bar = render(&step);
        assert_eq!(
            text,
            format!("\r\x1b[2K{bar}\r\x1b[2K[server warning] warning at step 1\n{bar}\r\x1b[2K")
        );
        // After the request, a late update draws nothing.
        term.progress(&step);
        assert_eq!(String::from_utf8(sink.0.lock().clone()).unwrap(), text);
        // Without a terminal there is no bar, only the line.
        let sink = Shared::default();
        let term = Terminal::new(false, Box::new(sink.clone()));
        term.progress(&step);
        term.line("x");
        assert_eq!(sink.0.lock().as_slice(), b"x\n");
    }

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
