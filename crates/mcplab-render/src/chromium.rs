//! Starts a Chromium binary headless with a throwaway profile, driven over
//! `--remote-debugging-pipe` (its fds 3 and 4 are pipes this process made: no DevTools TCP
//! port, nothing any other process can connect to, no secret on its command line). Chromium
//! runs in its own process group with its profile and TMPDIR in one temp directory;
//! [`Chromium::close`] (or, as a last resort, drop) kills the whole group and removes that
//! directory, so no browser, helper process or file outlives a render. It keeps Chromium's
//! sandbox unless told otherwise. It does not speak CDP; it only owns the process.

use std::collections::VecDeque;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use command_fds::{CommandFdExt, FdMapping};
use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;
use parking_lot::Mutex;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};
use tokio::task::JoinHandle;

use super::RenderError;

/// Stderr lines kept to explain a failed start.
const TAIL_LINES: usize = 12;
/// Chromium reads DevTools commands on this fd and writes replies on the next.
const CDP_IN_FD: i32 = 3;
const CDP_OUT_FD: i32 = 4;

/// Names tried on a search path for Chromium, in order.
pub const CHROMIUM_NAMES: [&str; 4] = [
    "chromium",
    "chromium-browser",
    "google-chrome",
    "google-chrome-stable",
];

/// The first of [`CHROMIUM_NAMES`] that is a file in a directory of `search_path` (a `PATH`
/// value: the caller reads the environment, this does not).
pub fn find_chromium(search_path: &std::ffi::OsStr) -> Option<PathBuf> {
    CHROMIUM_NAMES.iter().find_map(|name| {
        std::env::split_paths(search_path)
            .map(|dir| dir.join(name))
            .find(|candidate| candidate.is_file())
    })
}

/// A running headless Chromium.
pub struct Chromium {
    child: Child,
    pgid: Option<Pid>,
    profile: Option<tempfile::TempDir>,
    /// Our ends of the DevTools pipe: (write to Chromium, read from Chromium).
    pipe: Option<(OwnedFd, OwnedFd)>,
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
    stderr_task: Option<JoinHandle<()>>,
}

/// Chromium's flags: headless, quiet, DevTools over the pipe; `--no-sandbox` only when
/// `sandbox` is false.
pub fn flags(sandbox: bool) -> Vec<&'static str> {
    let mut flags = vec![
        "--headless=new",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-sync",
        "--disable-dev-shm-usage",
        "--hide-scrollbars",
        "--mute-audio",
        "--remote-debugging-pipe",
    ];
    if !sandbox {
        flags.insert(1, "--no-sandbox");
    }
    flags
}

impl Chromium {
    /// Starts `path` headless (with its sandbox when `sandbox`); the DevTools pipe is ready to
    /// take with [`Chromium::take_pipe`]. Whether it really came up is the caller's first
    /// command's answer.
    pub fn launch(path: &Path, sandbox: bool) -> Result<Self, RenderError> {
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
        // Private to this user (N7): the umask would leave them readable by others.
        let owner_only =
            <std::fs::Permissions as std::os::unix::fs::PermissionsExt>::from_mode(0o700);
        let profile = tempfile::Builder::new()
            .prefix("mcplab-chromium-")
            .permissions(owner_only)
            .tempdir()
            .map_err(|e| launch_err(format!("cannot create a profile directory: {e}")))?;
        let user_data = profile.path().join("profile");
        let tmp = profile.path().join("tmp");
        for dir in [&user_data, &tmp] {
            std::os::unix::fs::DirBuilderExt::mode(&mut std::fs::DirBuilder::new(), 0o700)
                .create(dir)
                .map_err(|e| launch_err(format!("cannot create {}: {e}", dir.display())))?;
        }
        let pipe_err = |e: std::io::Error| launch_err(format!("cannot make a pipe: {e}"));
        let (commands_rx, commands_tx) = std::io::pipe().map_err(pipe_err)?;
        let (replies_rx, replies_tx) = std::io::pipe().map_err(pipe_err)?;
        let mut cmd = Command::new(path);
        cmd.args(flags(sandbox))
            .arg(user_data_dir_flag(&user_data))
            .arg("about:blank")
            .env("TMPDIR", &tmp)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .process_group(0)
            .kill_on_drop(true)
            .fd_mappings(vec![
                FdMapping {
                    parent_fd: OwnedFd::from(commands_rx),
                    child_fd: CDP_IN_FD,
                },
                FdMapping {
                    parent_fd: OwnedFd::from(replies_tx),
                    child_fd: CDP_OUT_FD,
                },
            ])
            .map_err(|_| launch_err("the DevTools pipe fds collide".into()))?;
        let mut child = cmd
            .spawn()
            .map_err(|e| launch_err(format!("cannot start it: {e}")))?;
        // Chromium's ends of the pipe live in `cmd`; dropping it closes ours, so the pipe
        // ends when Chromium does.
        drop(cmd);
        let pgid = child
            .id()
            .and_then(|id| i32::try_from(id).ok())
            .map(Pid::from_raw);
        let stderr_tail: Arc<Mutex<VecDeque<String>>> = Arc::default();
        let stderr_task = child.stderr.take().map(|stderr| {
            let tail = stderr_tail.clone();
            // Drained to the end: a full pipe would block Chromium.
            tokio::spawn(async move {
                let mut lines = BufReader::new(stderr).lines();
                while let Ok(Some(line)) = lines.next_line().await {
                    let mut t = tail.lock();
                    if t.len() == TAIL_LINES {
                        t.pop_front();
                    }
                    t.push_back(line);
                }
            })
        });
        Ok(Self {
            child,
            pgid,
            profile: Some(profile),
            pipe: Some((OwnedFd::from(commands_tx), OwnedFd::from(replies_rx))),
            stderr_tail,
            stderr_task,
        })
    }

    /// Our ends of the DevTools pipe, once: (write to Chromium, read from Chromium).
    pub fn take_pipe(&mut self) -> Option<(OwnedFd, OwnedFd)> {
        self.pipe.take()
    }

    /// Why Chromium did not come up, once it failed to answer: its exit status (waiting a
    /// moment for it) and its last stderr lines. `exited` says whether it is gone.
    pub async fn failure(&mut self) -> (bool, String) {
        let status = tokio::time::timeout(Duration::from_secs(3), self.child.wait()).await;
        if let Some(task) = self.stderr_task.take() {
            let _ = tokio::time::timeout(Duration::from_secs(1), task).await;
        }
        match status {
            Ok(Ok(s)) => (true, format!("it exited ({s}){}", self.tail_text())),
            _ => (false, format!("it did not answer{}", self.tail_text())),
        }
    }

    fn tail_text(&self) -> String {
        let lines: Vec<String> = self.stderr_tail.lock().iter().cloned().collect();
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
