//! What a running `mcplab serve` leaves in its data directory for the same user, and how a
//! browser is opened without a secret on anyone's command line. `launch.json` (0600) holds the
//! server's URL and its launch secret, for `mcplab open` and scripts (`Authorization: Bearer`);
//! it is removed when that server stops. `open.html` (0600) is a redirect to a one-time login
//! URL: the browser is started with the file's path only, because another local user can read
//! any process's argv (`ps`) and would redeem a code seen there first. The code in it is dead
//! after one use or two minutes. [`Launch::client`] is the one HTTP client the commands that
//! reach a running server (`open`, `mcp --attach`, `servers add|remove|move|import`) build; this
//! module sends nothing itself.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::failure::Failure;
use crate::settings::DataDir;

const LAUNCH_FILE: &str = "launch.json";
const OPEN_FILE: &str = "open.html";

/// The contents of `launch.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Launch {
    /// Where the inspector listens, e.g. `http://127.0.0.1:6274`.
    pub url: String,
    /// The launch secret: `Authorization: Bearer <secret>` on `/api`.
    pub secret: String,
    /// The serving process.
    pub pid: u32,
}

/// Writes `contents` to `dir/name` with mode 0600, atomically (a private temp file renamed
/// over it, so no other user ever sees a partial or world-readable file).
fn write_private(dir: &Path, name: &str, contents: &[u8]) -> Result<PathBuf, Failure> {
    let path = dir.join(name);
    let fail = |e: std::io::Error| Failure::usage(format!("cannot write {}: {e}", path.display()));
    mcplab_store::create_private_dir(dir).map_err(fail)?;
    // tempfile creates files 0600.
    let mut file = tempfile::NamedTempFile::new_in(dir).map_err(fail)?;
    file.write_all(contents).map_err(fail)?;
    file.as_file().sync_all().map_err(fail)?;
    file.persist(&path).map_err(|e| fail(e.error))?;
    Ok(path)
}

impl Launch {
    /// Records this server in the data directory.
    pub fn write(&self, data: &DataDir) -> Result<PathBuf, Failure> {
        let json = serde_json::to_vec_pretty(self).unwrap_or_default();
        write_private(data.dir(), LAUNCH_FILE, &json)
    }

    /// The running server recorded in the data directory.
    pub fn read(data: &DataDir) -> Result<Self, Failure> {
        let path = data.dir().join(LAUNCH_FILE);
        let text = std::fs::read_to_string(&path).map_err(|e| {
            Failure::usage(format!(
                "no running mcplab found ({}: {e}); start one with `mcplab serve` (with the same \
                 --data-dir)",
                path.display()
            ))
        })?;
        serde_json::from_str(&text).map_err(|e| {
            Failure::usage(format!(
                "{} is not readable ({e}); if no `mcplab serve` runs on this data directory, \
                 delete it",
                path.display()
            ))
        })
    }

    /// The server recorded in the data directory if its process still runs; None when there
    /// is no record or it names a process that is gone (a crash leaves the file behind).
    pub fn find(data: &DataDir) -> Result<Option<Self>, Failure> {
        if !data.dir().join(LAUNCH_FILE).exists() {
            return Ok(None);
        }
        let launch = Self::read(data)?;
        Ok(launch.process_runs().then_some(launch))
    }

    /// Whether the recorded process is alive (a zombie or a reused pid counts as alive: the
    /// caller still finds out whether it answers).
    fn process_runs(&self) -> bool {
        let Ok(pid) = i32::try_from(self.pid) else {
            return false;
        };
        // Signal 0 only checks: ESRCH means no such process; EPERM means one runs.
        !matches!(
            nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), None),
            Err(nix::errno::Errno::ESRCH)
        )
    }

    /// An HTTP client for this server's API; see [`api_client`].
    pub fn client(&self, timeout: Duration) -> Result<reqwest::Client, Failure> {
        api_client(&self.secret, timeout)
    }

    /// Removes `launch.json` if it still describes this process (a newer server on the same
    /// data directory may have replaced it), and `open.html` with it.
    pub fn remove_if_ours(data: &DataDir) {
        if Self::read(data).is_ok_and(|l| l.pid == std::process::id()) {
            let _ = std::fs::remove_file(data.dir().join(LAUNCH_FILE));
            let _ = std::fs::remove_file(data.dir().join(OPEN_FILE));
        }
    }
}

/// An HTTP client for a running server's API: every request carries `secret` as its bearer
/// (a header marked sensitive), goes straight to the recorded address whatever proxy the
/// environment names, follows no redirect (the secret goes to that address only), and gives
/// up after `timeout`.
pub fn api_client(secret: &str, timeout: Duration) -> Result<reqwest::Client, Failure> {
    let fail = |why: String| Failure::usage(format!("cannot set up an HTTP client: {why}"));
    let mut bearer =
        reqwest::header::HeaderValue::from_str(&format!("Bearer {secret}")).map_err(|_| {
            fail("the launch secret in launch.json is not a header value; restart mcplab".into())
        })?;
    bearer.set_sensitive(true);
    let headers = reqwest::header::HeaderMap::from_iter([(reqwest::header::AUTHORIZATION, bearer)]);
    mcplab_net::tls::client_builder()
        .default_headers(headers)
        .no_proxy()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(timeout)
        .build()
        .map_err(|e| fail(e.to_string()))
}

/// The redirect page that sends the browser to `url`.
fn redirect_page(url: &str) -> String {
    let url = url
        .replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;");
    format!(
        "<!doctype html><meta charset=utf-8><meta name=referrer content=no-referrer>\
         <meta http-equiv=refresh content=\"0;url={url}\"><title>mcplab</title>\
         <p><a href=\"{url}\">Open mcplab</a></p>\n"
    )
}

/// Opens `login_url` in the browser through `open.html`, so the code is on no command line.
pub fn open_browser(data: &DataDir, login_url: &str) -> Result<(), Failure> {
    let page = write_private(data.dir(), OPEN_FILE, redirect_page(login_url).as_bytes())?;
    open_path(page.as_os_str())
}

/// Opens a URL that holds no secret of mcplab's (e.g. an OAuth authorization page) in the
/// browser; it is on the opener's command line.
pub fn open_url(url: &str) -> Result<(), Failure> {
    open_path(std::ffi::OsStr::new(url))
}

fn open_path(target: &std::ffi::OsStr) -> Result<(), Failure> {
    // The `open` crate picks the platform's opener (`open`, `xdg-open`/`gio`/…, `start`,
    // `wslview`), detached with its output discarded, so it never writes over our terminal.
    open::that_detached(target).map_err(|e| {
        Failure::usage(format!(
            "could not open a browser ({e}); open the URL printed above yourself"
        ))
    })
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::*;

    #[test]
    fn files_are_private_and_the_launch_record_round_trips() {
        let dir = tempfile::tempdir().unwrap();
        let data = DataDir::at(dir.path().join("data"));
        let launch = Launch {
            url: "http://127.0.0.1:6274".into(),
            secret: "s3cret".into(),
            pid: std::process::id(),
        };
        let path = launch.write(&data).unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "{mode:o}");
        assert_eq!(Launch::read(&data).unwrap(), launch);
        let page = write_private(data.dir(), OPEN_FILE, b"x").unwrap();
        assert_eq!(Launch::find(&data).unwrap(), Some(launch.clone()));
        Launch::remove_if_ours(&data);
        assert!(!path.exists() && !page.exists());
        assert!(Launch::read(&data).is_err());
        assert_eq!(Launch::find(&data).unwrap(), None, "no record");
    }

    #[test]
    fn a_record_of_a_process_that_is_gone_is_no_server() {
        let dir = tempfile::tempdir().unwrap();
        let data = DataDir::at(dir.path().join("data"));
        let mut child = std::process::Command::new("true").spawn().unwrap();
        child.wait().unwrap();
        let launch = Launch {
            url: "http://127.0.0.1:6274".into(),
            secret: "s3cret".into(),
            pid: child.id(),
        };
        launch.write(&data).unwrap();
        assert_eq!(Launch::find(&data).unwrap(), None);
        std::fs::write(dir.path().join("data").join(LAUNCH_FILE), "{").unwrap();
        assert!(Launch::find(&data).is_err(), "an unreadable record is said");
    }

    /// Answers one request on `listener` with a redirect to itself; what was asked.
    fn redirect_once(listener: std::net::TcpListener) -> std::thread::JoinHandle<String> {
        std::thread::spawn(move || {
            use std::io::{BufRead, BufReader};
            let (stream, _) = listener.accept().unwrap();
            stream
                .set_read_timeout(Some(Duration::from_secs(60)))
                .unwrap();
            let mut reader = BufReader::new(&stream);
            let mut head = String::new();
            while reader.read_line(&mut head).unwrap() > 2 {}
            let port = listener.local_addr().unwrap().port();
            let answer = format!(
                "HTTP/1.1 302 Found\r\nlocation: http://127.0.0.1:{port}/elsewhere\r\n\
                 content-length: 0\r\nconnection: close\r\n\r\n"
            );
            (&stream).write_all(answer.as_bytes()).unwrap();
            head.to_ascii_lowercase()
        })
    }

    #[tokio::test]
    async fn the_client_carries_the_secret_and_follows_no_redirect() {
        let port = mcplab_testkit::ports::spare_port();
        let server = redirect_once(std::net::TcpListener::bind(("127.0.0.1", port)).unwrap());
        let launch = Launch {
            url: format!("http://127.0.0.1:{port}"),
            secret: "s3cret".into(),
            pid: std::process::id(),
        };
        let client = launch.client(Duration::from_secs(60)).unwrap();
        let response = client.get(format!("{}/api/x", launch.url)).send().await;
        let head = server.join().unwrap();
        assert!(
            head.contains("\r\nauthorization: bearer s3cret\r\n"),
            "{head}"
        );
        assert_eq!(
            response.unwrap().status(),
            302,
            "the redirect is not followed"
        );
        assert!(
            Launch {
                secret: "a\nb".into(),
                ..launch
            }
            .client(Duration::from_secs(1))
            .is_err()
        );
    }

    #[test]
    fn the_redirect_page_escapes_the_url() {
        let page = redirect_page("http://127.0.0.1:1/auth?code=a&next=\"x");
        assert!(page.contains("code=a&amp;next=&quot;x"), "{page}");
    }
}
