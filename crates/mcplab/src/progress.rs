//! A one-line progress bar on stderr for requests that report progress. It draws only when
//! stderr is a terminal, so scripts and `--json` output stay clean.

use std::io::{IsTerminal, Write};

use mcplab_core::mcp::ProgressUpdate;

const WIDTH: usize = 30;

pub struct ProgressBar {
    enabled: bool,
    drawn: bool,
}

impl ProgressBar {
    pub fn for_stderr() -> Self {
        Self {
            enabled: std::io::stderr().is_terminal(),
            drawn: false,
        }
    }

    pub fn update(&mut self, u: &ProgressUpdate) {
        if !self.enabled {
            return;
        }
        let line = render(u);
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\r\x1b[2K{line}");
        let _ = err.flush();
        self.drawn = true;
    }

    pub fn finish(&mut self) {
        if self.drawn {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[2K");
            let _ = err.flush();
            self.drawn = false;
        }
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
