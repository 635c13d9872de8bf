//! The schema, as an ordered list of migrations, and the runner that applies the pending ones.
//! Version N is `MIGRATIONS[N - 1]`, recorded in `PRAGMA user_version`. Append to the list;
//! never edit or reorder a shipped entry, and never touch a file whose version is newer.

use rusqlite::{Connection, TransactionBehavior};

/// Each entry moves the schema one version forward; the index + 1 is the version it produces.
pub(super) const MIGRATIONS: &[&str] = &[
    // 1: server configs in user order, settings, UI preferences. Values are JSON text.
    "CREATE TABLE servers (
         name     TEXT PRIMARY KEY NOT NULL,
         position INTEGER NOT NULL UNIQUE,
         config   TEXT NOT NULL
     ) STRICT;
     CREATE TABLE settings (
         key   TEXT PRIMARY KEY NOT NULL,
         value TEXT NOT NULL
     ) STRICT;
     CREATE TABLE prefs (
         key   TEXT PRIMARY KEY NOT NULL,
         value TEXT NOT NULL
     ) STRICT;",
    // 2: chat sessions and their turns (the user's text, the turn's events, and the model
    // messages it added to the conversation).
    "CREATE TABLE chat_sessions (
         id         TEXT PRIMARY KEY NOT NULL,
         title      TEXT NOT NULL,
         created_ms INTEGER NOT NULL,
         updated_ms INTEGER NOT NULL,
         settings   TEXT NOT NULL
     ) STRICT;
     CREATE TABLE chat_turns (
         session_id TEXT NOT NULL REFERENCES chat_sessions(id) ON DELETE CASCADE,
         seq        INTEGER NOT NULL,
         turn_id    TEXT NOT NULL,
         user_text  TEXT NOT NULL,
         events     TEXT NOT NULL,
         messages   TEXT NOT NULL,
         PRIMARY KEY (session_id, turn_id),
         UNIQUE (session_id, seq)
     ) STRICT;",
    // 3: OAuth credentials (client registration and tokens) per server name and server URL,
    // as JSON. The file is 0600; the values are never shown unmasked.
    "CREATE TABLE oauth_credentials (
         server     TEXT NOT NULL,
         url        TEXT NOT NULL,
         value      TEXT NOT NULL,
         updated_ms INTEGER NOT NULL,
         PRIMARY KEY (server, url)
     ) STRICT;",
    // 4: app playground scenarios (tool input + emulated host conditions, JSON text).
    "CREATE TABLE app_scenarios (
         id         TEXT PRIMARY KEY NOT NULL,
         name       TEXT NOT NULL,
         server     TEXT NOT NULL,
         tool       TEXT NOT NULL,
         arguments  TEXT NOT NULL,
         conditions TEXT NOT NULL,
         created_ms INTEGER NOT NULL,
         updated_ms INTEGER NOT NULL
     ) STRICT;",
    // 5: what apps gave the model in a chat session (`ui/update-model-context`, widget state),
    // as a JSON array of `AppContextEntry`, so it survives a restart.
    "ALTER TABLE chat_sessions ADD COLUMN app_context TEXT NOT NULL DEFAULT '[]';",
    // 6: a chat session's HostConfig (JSON). NULL for sessions stored before: the session
    // runtime builds their HostConfig from `settings`.
    "ALTER TABLE chat_sessions ADD COLUMN host_config TEXT;",
    // 7: eval runs and their iterations. A run row is written when the run starts (its plan
    // and the HostConfig hash it runs under) and completed when it ends; each iteration is
    // written as it finishes, with its full trace, so a crash loses only those in flight.
    // JSON columns are the evals crate's records, kept as given.
    "CREATE TABLE eval_runs (
         id          TEXT PRIMARY KEY NOT NULL,
         suite_id    TEXT NOT NULL,
         suite_hash  TEXT NOT NULL,
         host_hash   TEXT NOT NULL,
         title       TEXT,
         source      TEXT,
         status      TEXT NOT NULL,
         started_ms  INTEGER NOT NULL,
         finished_ms INTEGER,
         header      TEXT NOT NULL,
         result      TEXT,
         recording   TEXT
     ) STRICT;
     CREATE INDEX eval_runs_by_suite ON eval_runs (suite_id, started_ms);
     CREATE TABLE eval_iterations (
         run_id      TEXT NOT NULL REFERENCES eval_runs(id) ON DELETE CASCADE,
         case_id     TEXT NOT NULL,
         model       TEXT NOT NULL,
         iteration   INTEGER NOT NULL,
         outcome     TEXT NOT NULL,
         record      TEXT NOT NULL,
         detail      TEXT,
         finished_ms INTEGER NOT NULL,
         PRIMARY KEY (run_id, case_id, model, iteration)
     ) STRICT;",
    // 8: compare groups: a session that is a column of a compare names its group and column
    // (from 1); NULL for plain chats. Deleting a session takes it out of its group.
    "ALTER TABLE chat_sessions ADD COLUMN compare_group TEXT;
     ALTER TABLE chat_sessions ADD COLUMN compare_column INTEGER;
     CREATE INDEX chat_sessions_by_compare ON chat_sessions (compare_group, compare_column);",
    // 9: eval iterations keep repeated payloads once (see blobs.rs): `packed` = 1 marks a
    // detail written with references into `eval_blobs` (2: with the forms blobs.rs added
    // since, no migration needed); rows written before stay as they are
    // and read as before. `eval_blob_refs` names the blobs each run uses, so deleting runs can
    // delete the blobs no run uses.
    "ALTER TABLE eval_iterations ADD COLUMN packed INTEGER NOT NULL DEFAULT 0;
     CREATE TABLE eval_blobs (
         hash TEXT PRIMARY KEY NOT NULL,
         body TEXT NOT NULL
     ) STRICT;
     CREATE TABLE eval_blob_refs (
         run_id TEXT NOT NULL REFERENCES eval_runs(id) ON DELETE CASCADE,
         hash   TEXT NOT NULL,
         PRIMARY KEY (run_id, hash)
     ) STRICT, WITHOUT ROWID;
     CREATE INDEX eval_blob_refs_by_hash ON eval_blob_refs (hash);",
    // 10: an iteration's detail and a shared payload are written deflated (see zipped.rs) into
    // `detail_z` / `body_z` (then `detail` is NULL and `body` empty); rows written before keep
    // their plain text and read as before.
    "ALTER TABLE eval_iterations ADD COLUMN detail_z BLOB;
     ALTER TABLE eval_blobs ADD COLUMN body_z BLOB;",
];

/// The schema version this build produces and understands.
pub(super) const LATEST: i64 = MIGRATIONS.len() as i64;

/// What [`migrate`] found and did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Outcome {
    Current { version: i64 },
    Migrated { from: i64, to: i64 },
    Newer { found: i64 },
}

/// The file's schema version (0 for a fresh file).
pub(super) fn version(conn: &Connection) -> rusqlite::Result<i64> {
    conn.query_row("PRAGMA user_version", [], |r| r.get(0))
}

/// Applies every pending migration, each with its version bump in one transaction, so a crash
/// leaves the file at some whole version. The version is re-read under the write lock because
/// another process may be migrating the same file.
pub(super) fn migrate(conn: &mut Connection) -> rusqlite::Result<Outcome> {
    let mut from = None;
    loop {
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let current = version(&tx)?;
        let start = *from.get_or_insert(current);
        if current > LATEST {
            return Ok(Outcome::Newer { found: current });
        }
        if current == LATEST {
            return Ok(if start == current {
                Outcome::Current { version: current }
            } else {
                Outcome::Migrated {
                    from: start,
                    to: current,
                }
            });
        }
        tx.execute_batch(MIGRATIONS[current as usize])?;
        tx.pragma_update(None, "user_version", current + 1)?;
        tx.commit()?;
    }
}
