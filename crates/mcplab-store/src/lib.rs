//! mcplab's durable state: one SQLite file in the data directory holding server configs,
//! settings and UI preferences, chat sessions and their turns, OAuth credentials and app
//! playground scenarios, and eval runs with their iterations. It owns the connection, the
//! pragmas that make it durable, the schema migrations and the row ↔ value mapping. It must not
//! pick the data directory, seed defaults or know about HTTP: callers hand in a path and decide
//! what a first run means (see [`Store::is_new`]).
//!
//! Durability contract: a killed process loses nothing that was acknowledged. Every write is
//! its own committed transaction before the call returns, in WAL mode with `synchronous=FULL`.
//!
//! Async callers (route handlers, chat turns) call it directly: every method that waits for the
//! connection or for SQLite (an fsync per commit) runs through [`blocking`], so a slow write never
//! holds up an async worker — on a multi-threaded tokio runtime the worker first hands its other
//! tasks to another thread (`block_in_place`).
//!
//! # Where things are
//!
//! - `crates/mcplab-store/src/`: SQLite (crate `mcplab-store`; the only crate that names rusqlite)
//!   (WAL, `synchronous=FULL`, `user_version` migrations, file mode 0600; every call that waits for
//!   SQLite runs through `blocking`, so route handlers and chat turns call it without holding up an
//!   async worker — BENCHMARKS.md "Store writes and the event stream"): server configs, settings
//!   (roots, provider keys), UI prefs, chat sessions (with their HostConfig, migration 6; NULL for
//!   older rows) and turns (a retry replaces its turn in one transaction), OAuth credentials per
//!   server and URL (`oauth.rs`, migration 3; implements `oauth::CredentialStore`). The one source
//!   of truth for configs (CLI and web).

mod blobs;
mod chat;
mod compare;
mod evals;
mod evals_prune;
mod kv;
mod migrations;
mod oauth;
mod scenarios;
mod servers;
#[cfg(test)]
mod tests;
mod zipped;

use std::path::{Path, PathBuf};
use std::time::Duration;

use parking_lot::Mutex;
use rusqlite::Connection;

pub use chat::SessionRecord;
pub use evals::{EvalIterationRow, EvalRunRow};
pub use evals_prune::{PruneReport, PruneRule};

/// How long a statement waits for another process's lock before failing with `SQLITE_BUSY`.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// What can go wrong; callers branch on the variant, never on the message.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The data directory could not be created.
    #[error(
        "cannot create the data directory {path}: {source}; check its permissions or choose another data directory"
    )]
    DataDir {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The database file could not be opened, configured or migrated.
    #[error(
        "cannot open the mcplab database {path}: {source}; check that the file is writable and is an mcplab database, or choose another data directory"
    )]
    Open {
        path: PathBuf,
        #[source]
        source: rusqlite::Error,
    },
    /// The file's schema is newer than this build knows; it was left untouched.
    #[error(
        "the database {path} was created by a newer mcplab (schema version {found}, this build knows up to {known}); upgrade mcplab or choose another data directory"
    )]
    NewerSchema {
        path: PathBuf,
        found: i64,
        known: i64,
    },
    /// No row with that key (a server name).
    #[error("not found: {0}")]
    NotFound(String),
    /// The name is already taken by another server.
    #[error("a server named {0:?} already exists")]
    Conflict(String),
    /// A new server order does not name exactly the configured servers (one was added,
    /// removed or renamed since the order was read): nothing was reordered.
    #[error(
        "the new order does not match the configured servers{}{}{}; nothing was reordered: reload the list and move the server again",
        list_of(" (missing: ", missing),
        list_of(" (not configured: ", unknown),
        list_of(" (named twice: ", repeated)
    )]
    OrderMismatch {
        /// Configured servers the order leaves out.
        missing: Vec<String>,
        /// Names in the order that are not configured.
        unknown: Vec<String>,
        /// Names given more than once.
        repeated: Vec<String>,
    },
    /// A stored row does not deserialize into the value it should hold.
    #[error("corrupt row: {0}")]
    Corrupt(String),
    /// A value could not be encoded as JSON.
    #[error("cannot encode {what} as JSON: {source}")]
    Encode {
        what: String,
        #[source]
        source: serde_json::Error,
    },
    /// Any other SQLite failure (disk full, I/O error, busy past the timeout).
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
}

/// `" (missing: a, b)"`-style part of a message, or nothing for an empty list.
fn list_of(head: &str, names: &[String]) -> String {
    match names.is_empty() {
        true => String::new(),
        false => format!("{head}{})", names.join(", ")),
    }
}

/// Whether SQLite said another connection holds the lock.
fn is_busy(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
    )
}

/// The open database. `Send + Sync`; calls are short and serialize on one connection.
pub struct Store {
    conn: Mutex<Connection>,
    is_new: bool,
}

/// Creates `dir` (and missing parents) when it does not exist; `dir` itself is made 0700, as
/// it holds secrets (N7: the umask left the data dir 0755). An existing directory is left as
/// it is.
pub fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    if dir.is_dir() {
        return Ok(());
    }
    if let Some(parent) = dir.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)?;
    }
    match std::fs::DirBuilder::new().mode(0o700).create(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && dir.is_dir() => Ok(()),
        other => other,
    }
}

impl Store {
    /// Opens (creating it and its parent directories if needed) and migrates the database at
    /// `path`. A file whose schema is newer than this build is refused and left untouched.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            create_private_dir(dir).map_err(|source| StoreError::DataDir {
                path: dir.to_path_buf(),
                source,
            })?;
        }
        // Two mcplab processes opening a fresh file at once (parallel CLI runs) can meet SQLite's
        // BUSY without its busy handler (switching to WAL, a read lock upgraded during setup):
        // the open is tried again until the busy timeout has passed.
        let deadline = std::time::Instant::now() + BUSY_TIMEOUT;
        loop {
            match Store::open_once(path) {
                Err(StoreError::Open { source, .. })
                    if is_busy(&source) && std::time::Instant::now() < deadline =>
                {
                    std::thread::sleep(Duration::from_millis(20));
                }
                other => return other,
            }
        }
    }

    fn open_once(path: &Path) -> Result<Store, StoreError> {
        let conn = Connection::open(path).map_err(|source| StoreError::Open {
            path: path.to_path_buf(),
            source,
        })?;
        // The file holds provider API keys: owner-only. SQLite gives the -wal and -shm files
        // the same permissions as the database file.
        restrict_to_owner(path).map_err(|source| StoreError::DataDir {
            path: path.to_path_buf(),
            source,
        })?;
        Store::init(conn, path)
    }

    /// A private in-memory database (no WAL, nothing survives the `Store`); for tests.
    pub fn open_in_memory() -> Result<Store, StoreError> {
        let path = Path::new(":memory:");
        let conn = Connection::open_in_memory().map_err(|source| StoreError::Open {
            path: path.to_path_buf(),
            source,
        })?;
        Store::init(conn, path)
    }

    /// Runs `delete` (a DELETE of one row, its key `?1`) for `key`; `missing` when no row went.
    fn delete_one(&self, delete: &str, key: &str, missing: StoreError) -> Result<(), StoreError> {
        blocking(|| match self.conn.lock().execute(delete, [key])? {
            0 => Err(missing),
            _ => Ok(()),
        })
    }

    /// True when this open created the schema, i.e. the first run against this file.
    pub fn is_new(&self) -> bool {
        self.is_new
    }

    fn init(mut conn: Connection, path: &Path) -> Result<Store, StoreError> {
        let open_err = |source| StoreError::Open {
            path: path.to_path_buf(),
            source,
        };
        conn.busy_timeout(BUSY_TIMEOUT).map_err(open_err)?;
        // Check before any pragma that writes: a newer file must stay exactly as it was.
        let found = migrations::version(&conn).map_err(open_err)?;
        if found > migrations::LATEST {
            return Err(StoreError::NewerSchema {
                path: path.to_path_buf(),
                found,
                known: migrations::LATEST,
            });
        }
        // journal_mode answers with the mode it ended up in; in-memory databases stay "memory".
        let _mode: String = conn
            .query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))
            .map_err(open_err)?;
        conn.pragma_update(None, "synchronous", "FULL")
            .map_err(open_err)?;
        conn.pragma_update(None, "foreign_keys", true)
            .map_err(open_err)?;
        let is_new = match migrations::migrate(&mut conn).map_err(open_err)? {
            migrations::Outcome::Current { .. } => false,
            migrations::Outcome::Migrated { from, .. } => from == 0,
            migrations::Outcome::Newer { found } => {
                // Another process upgraded the file between our check and the migration.
                return Err(StoreError::NewerSchema {
                    path: path.to_path_buf(),
                    found,
                    known: migrations::LATEST,
                });
            }
        };
        Ok(Store {
            conn: Mutex::new(conn),
            is_new,
        })
    }
}

/// Runs `f` (which waits for the connection and for SQLite) without holding up an async worker:
/// on a multi-threaded tokio runtime the calling worker hands its queued tasks to another thread
/// first (`tokio::task::block_in_place`); without a runtime, on a current-thread runtime (tests)
/// or on a blocking thread it just runs `f`. A store call nested in another runs directly.
fn blocking<T>(f: impl FnOnce() -> T) -> T {
    use tokio::runtime::{Handle, RuntimeFlavor};
    match Handle::try_current() {
        Ok(h) if h.runtime_flavor() == RuntimeFlavor::MultiThread => tokio::task::block_in_place(f),
        _ => f(),
    }
}

#[cfg(unix)]
fn restrict_to_owner(path: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))
}

#[cfg(not(unix))]
fn restrict_to_owner(_path: &Path) -> std::io::Result<()> {
    Ok(())
}

/// Serializes `value` to JSON text, naming it in the error.
fn encode<T: serde::Serialize + ?Sized>(what: &str, value: &T) -> Result<String, StoreError> {
    serde_json::to_string(value).map_err(|source| StoreError::Encode {
        what: what.to_string(),
        source,
    })
}
