//! Starts a Chromium binary headless with a throwaway profile and finds its DevTools endpoint
//! (the `DevTools listening on ws://…` line on stderr). Chromium runs in its own process
//! group with its profile and TMPDIR in one temp directory; [`Chromium::close`] (or, as a last
//! resort, drop) kills the whole group and removes that directory, so no browser, helper
//! process or file outlives a render. It does not speak CDP; it only owns the process.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, ChildStderr, Command};

use super::RenderError;

/// Stderr lines kept to explain a failed start.
const TAIL_LINES: usize = 12;
const ENDPOINT_PREFIX: &str = "DevTools listening on ";

/// A running headless Chromium.
pub struct Chromium {
    child: Child,
    pgid: Option<Pid>,
    profile: Option<tempfile::TempDir>,
    ws_url: String,
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
}

impl Chromium {
    /// Starts `path` headless and waits (at most `timeout`) for its DevTools endpoint.
    pub async fn launch(path: &Path, timeout: Duration) -> Result<Self, RenderError> {
        if !path.is_file() {
            return Err(RenderError::ChromiumNotFound {
                path: path.to_owned(),
            });
        }
        let launch_err = |message: String| RenderError::Launch {
            path: path.to_owned(),
            message,
        };
        // One directory for everything Chromium writes: the profile, and (through TMPDIR) the
        // temp files it would otherwise leave in /tmp when it is killed.
        let profile = tempfile::Builder::new()
            .prefix("mcplab-chromium-")
            .tempdir()
            .map_err(|e| launch_err(format!("cannot create a profile directory: {e}")))?;
        let user_data = profile.path().join("profile");
        let tmp = profile.path().join("tmp");
        for dir in [&user_data, &tmp] {
            std::fs::create_dir(dir)
                .map_err(|e| launch_err(format!("cannot create {}: {e}", dir.display())))?;
        }
        let mut cmd = Command::new(path);
        cmd.args([
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-sync",
            "--disable-dev-shm-usage",
            "--hide-scrollbars",
            "--mute-audio",
            "--remote-debugging-port=0",
        ])
        .arg(user_data_dir_flag(&user_data))
        .arg("about:blank")
        .env("TMPDIR", &tmp)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .process_group(0)
        .kill_on_drop(true);
        let mut child = cmd
            .spawn()
            .map_err(|e| launch_err(format!("cannot start it: {e}")))?;
        let pgid = child
            .id()
            .and_then(|id| i32::try_from(id).ok())
            .map(Pid::from_raw);
        let stderr = child.stderr.take();
        let mut chromium = Self {
            child,
            pgid,
            profile: Some(profile),
            ws_url: String::new(),
            stderr_tail: Arc::default(),
        };
        let Some(stderr) = stderr else {
            return Err(launch_err("its stderr could not be read".into()));
        };
        match tokio::time::timeout(timeout, chromium.read_endpoint(stderr)).await {
            Ok(Some(url)) => {
                chromium.ws_url = url;
                Ok(chromium)
            }
            Ok(None) => {
                let status = chromium.child.try_wait().ok().flatten();
                let why = match status {
                    Some(s) => format!("it exited ({s}) without opening DevTools"),
                    None => "it closed stderr without opening DevTools".to_owned(),
                };
                Err(launch_err(format!("{why}{}", chromium.tail_text())))
            }
            Err(_) => Err(launch_err(format!(
                "it did not open DevTools within {} s{}",
                timeout.as_secs(),
                chromium.tail_text()
            ))),
        }
    }

    /// The browser's DevTools WebSocket URL.
    pub fn ws_url(&self) -> &str {
        &self.ws_url
    }

    /// Reads stderr up to the endpoint line, then keeps draining it in the background (a full
    /// pipe would block Chromium), always keeping the last lines.
    async fn read_endpoint(&mut self, stderr: ChildStderr) -> Option<String> {
        let mut lines = BufReader::new(stderr).lines();
        let tail = self.stderr_tail.clone();
        let keep = move |line: &str| {
            if let Ok(mut t) = tail.lock() {
                if t.len() == TAIL_LINES {
                    t.pop_front();
                }
                t.push_back(line.to_owned());
            }
        };
        while let Ok(Some(line)) = lines.next_line().await {
            if let Some(url) = line.trim().strip_prefix(ENDPOINT_PREFIX) {
                let url = url.trim().to_owned();
                tokio::spawn(async move {
                    while let Ok(Some(line)) = lines.next_line().await {
                        keep(&line);
                    }
                });
                return Some(url);
            }
            keep(&line);
        }
        None
    }

    fn tail_text(&self) -> String {
        let lines: Vec<String> = self
            .stderr_tail
            .lock()
            .map(|t| t.iter().cloned().collect())
            .unwrap_or_default();
        if lines.is_empty() {
            String::new()
        } else {
            format!("; its last stderr lines:\n{}", lines.join("\n"))
        }
    }

    /// Waits briefly for Chromium to exit (after `Browser.close`), then kills what is left of
    /// its process group and removes the profile.
    pub async fn close(mut self) {
        let _ = tokio::time::timeout(Duration::from_secs(3), self.child.wait()).await;
        self.kill_and_clean();
    }

    fn kill_and_clean(&mut self) {
        if let Some(pgid) = self.pgid.take() {
            // Helpers (renderer, GPU, zygote) share the group and may outlive the leader.
            let _ = killpg(pgid, Signal::SIGKILL);
            // Reap the leader so the profile is no longer written to while it is removed.
            for _ in 0..100 {
                if !matches!(self.child.try_wait(), Ok(None)) {
                    break;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
        }
        if let Some(profile) = self.profile.take() {
            let path: PathBuf = profile.path().to_owned();
            if profile.close().is_err() {
                // A helper may have written one last file while dying.
                let _ = std::fs::remove_dir_all(&path);
            }
        }
    }
}

impl Drop for Chromium {
    fn drop(&mut self) {
        self.kill_and_clean();
    }
}

fn user_data_dir_flag(dir: &Path) -> std::ffi::OsString {
    let mut flag = std::ffi::OsString::from("--user-data-dir=");
    flag.push(dir.as_os_str());
    flag
}
