//! The recording file: JSON Lines (`TapLine`s), bounded and rotated. When the next line
//! would take the file past `max_bytes`, it becomes `FILE.1` (the older ones move up to
//! `FILE.<keep>`, the oldest is deleted) and a new `FILE` starts with the `start` line again,
//! so each file reads on its own. It writes; reading a recording is `recording.rs`.

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use mcplab_protocol::TrafficFrame;
use mcplab_protocol::tap::{TapEnd, TapLine, TapStart};

/// How large a recording file grows and how many older ones are kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rotation {
    pub max_bytes: u64,
    pub keep: u32,
}

impl Default for Rotation {
    fn default() -> Self {
        Self {
            max_bytes: 64 * 1024 * 1024,
            keep: 3,
        }
    }
}

/// A recording file being written.
pub struct FileSink {
    path: PathBuf,
    rotation: Rotation,
    out: Option<BufWriter<File>>,
    written: u64,
    start_line: Vec<u8>,
}

impl FileSink {
    pub fn new(path: PathBuf, rotation: Rotation) -> Self {
        Self {
            path,
            rotation,
            out: None,
            written: 0,
            start_line: Vec::new(),
        }
    }

    /// Creates (truncates) the file and writes the `start` line.
    pub fn begin(&mut self, start: &TapStart) -> Result<(), String> {
        self.start_line = line(&TapLine::Start(start.clone()));
        self.open_fresh()
    }

    pub fn write(&mut self, frames: &[TrafficFrame]) -> Result<(), String> {
        for frame in frames {
            let bytes = line(&TapLine::Frame(Box::new(frame.clone())));
            self.put(&bytes)?;
        }
        self.flush()
    }

    pub fn end(&mut self, end: &TapEnd) -> Result<(), String> {
        self.put(&line(&TapLine::End(end.clone())))?;
        self.flush()
    }

    fn put(&mut self, bytes: &[u8]) -> Result<(), String> {
        if self.written + bytes.len() as u64 > self.rotation.max_bytes
            && self.written > self.start_line.len() as u64
        {
            self.rotate()?;
        }
        let out = self.out.as_mut().ok_or("the recording file is closed")?;
        out.write_all(bytes).map_err(|e| self.failed(e))?;
        self.written += bytes.len() as u64;
        Ok(())
    }

    fn flush(&mut self) -> Result<(), String> {
        match self.out.as_mut() {
            Some(out) => out.flush().map_err(|e| self.failed(e)),
            None => Ok(()),
        }
    }

    fn rotate(&mut self) -> Result<(), String> {
        self.flush()?;
        self.out = None;
        let keep = self.rotation.keep;
        if keep == 0 {
            let _ = std::fs::remove_file(&self.path);
        } else {
            let _ = std::fs::remove_file(numbered(&self.path, keep));
            for n in (1..keep).rev() {
                let _ = std::fs::rename(numbered(&self.path, n), numbered(&self.path, n + 1));
            }
            std::fs::rename(&self.path, numbered(&self.path, 1)).map_err(|e| self.failed(e))?;
        }
        self.open_fresh()
    }

    fn open_fresh(&mut self) -> Result<(), String> {
        if let Some(dir) = self.path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| self.failed(e))?;
        }
        let file = private_options()
            .open(&self.path)
            .map_err(|e| self.failed(e))?;
        let mut out = BufWriter::new(file);
        out.write_all(&self.start_line)
            .map_err(|e| self.failed(e))?;
        self.written = self.start_line.len() as u64;
        self.out = Some(out);
        Ok(())
    }

    fn failed(&self, e: std::io::Error) -> String {
        format!("cannot write {}: {e}", self.path.display())
    }
}

/// A recording holds what the host and the server said: only its owner may read it.
fn private_options() -> OpenOptions {
    use std::os::unix::fs::OpenOptionsExt;
    let mut options = OpenOptions::new();
    options.write(true).create(true).truncate(true).mode(0o600);
    options
}

/// `FILE.n`.
pub(super) fn numbered(path: &Path, n: u32) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(format!(".{n}"));
    PathBuf::from(name)
}

fn line(value: &TapLine) -> Vec<u8> {
    let mut bytes = serde_json::to_vec(value).unwrap_or_default();
    bytes.push(b'\n');
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcplab_protocol::Direction;
    use mcplab_protocol::tap::TapTransport;

    fn frame(seq: u64, text: &str) -> TrafficFrame {
        TrafficFrame::message(seq, "", 1, Direction::Outbound, text)
    }

    #[test]
    fn files_rotate_within_the_bound_each_starting_with_the_start_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("rec.jsonl");
        let rotation = Rotation {
            max_bytes: 600,
            keep: 2,
        };
        let mut sink = FileSink::new(path.clone(), rotation);
        let start = TapStart {
            format: 1,
            transport: TapTransport::Stdio,
            target: "server".into(),
            pid: 1,
            started_ms: 1,
        };
        sink.begin(&start).unwrap();
        let text = format!("{{\"pad\":\"{}\"}}", "x".repeat(100));
        for seq in 0..40 {
            sink.write(&[frame(seq, &text)]).unwrap();
        }
        for p in [path.clone(), numbered(&path, 1), numbered(&path, 2)] {
            let body = std::fs::read_to_string(&p).unwrap();
            assert!(body.len() <= 600, "{}: {}", p.display(), body.len());
            let first: TapLine = serde_json::from_str(body.lines().next().unwrap()).unwrap();
            assert_eq!(first, TapLine::Start(start.clone()));
        }
        assert!(!numbered(&path, 3).exists(), "only `keep` older files");
        let newest = std::fs::read_to_string(&path).unwrap();
        assert!(newest.contains("\"seq\":39"));
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o077, 0, "{mode:o}");
    }
}
