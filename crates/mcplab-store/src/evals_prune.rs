//! Deleting old eval runs and giving their space back: the runs a rule picks (beyond the
//! newest N of their suite, started before a cutoff, or both; never a run still running) go
//! with their iterations, the payloads no remaining run refers to go with them (see `blobs`),
//! and the file is vacuumed and checkpointed so it shrinks on disk. It must not decide what
//! "old" means to a person: the caller turns `--older-than 30d` into a cutoff.

use rusqlite::params;

use super::{Store, StoreError, blocking};

/// Which runs to delete: those matching every rule given (no rule: none).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PruneRule {
    /// Keep the newest `keep` runs of each suite.
    pub keep: Option<usize>,
    /// Delete only runs started before this time (ms since the epoch).
    pub started_before_ms: Option<u64>,
    /// Only say what would go.
    pub dry_run: bool,
}

/// What pruning did (or, dry, would do).
#[derive(Debug, Clone, PartialEq)]
pub struct PruneReport {
    /// The deleted runs' ids, newest first within a suite.
    pub deleted: Vec<String>,
    /// The database's size before and after, in bytes (pages in use × page size).
    pub bytes_before: u64,
    pub bytes_after: u64,
}

impl Store {
    /// Deletes the runs `rule` picks and reclaims their space (VACUUM).
    pub fn prune_eval_runs(&self, rule: &PruneRule) -> Result<PruneReport, StoreError> {
        blocking(|| {
            let conn = self.conn.lock();
            let size = |c: &rusqlite::Connection| -> rusqlite::Result<u64> {
                let pages: i64 = c.query_row("PRAGMA page_count", [], |r| r.get(0))?;
                let size: i64 = c.query_row("PRAGMA page_size", [], |r| r.get(0))?;
                Ok((pages * size).max(0) as u64)
            };
            let bytes_before = size(&conn)?;
            let picked = picked(&conn, rule)?;
            if rule.dry_run || picked.is_empty() {
                return Ok(PruneReport {
                    deleted: picked,
                    bytes_before,
                    bytes_after: bytes_before,
                });
            }
            {
                let tx = conn.unchecked_transaction()?;
                for id in &picked {
                    tx.execute("DELETE FROM eval_runs WHERE id = ?1", [id])?;
                }
                drop_orphan_blobs(&tx)?;
                tx.commit()?;
            }
            conn.execute_batch("VACUUM")?;
            // WAL: the file shrinks when the log is written back.
            conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?;
            Ok(PruneReport {
                deleted: picked,
                bytes_before,
                bytes_after: size(&conn)?,
            })
        })
    }
}

/// Deletes the payloads no run refers to any more.
pub(super) fn drop_orphan_blobs(conn: &rusqlite::Connection) -> rusqlite::Result<usize> {
    conn.execute(
        "DELETE FROM eval_blobs WHERE NOT EXISTS
             (SELECT 1 FROM eval_blob_refs r WHERE r.hash = eval_blobs.hash)",
        [],
    )
}

/// The ids of the runs `rule` picks.
fn picked(conn: &rusqlite::Connection, rule: &PruneRule) -> rusqlite::Result<Vec<String>> {
    if rule.keep.is_none() && rule.started_before_ms.is_none() {
        return Ok(Vec::new());
    }
    let mut stmt = conn.prepare(
        "SELECT id, suite_id, started_ms, status FROM eval_runs
         ORDER BY suite_id, started_ms DESC, id DESC",
    )?;
    let rows = stmt
        .query_map(params![], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, i64>(2)?,
                r.get::<_, String>(3)?,
            ))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    let mut out = Vec::new();
    let mut suite = None;
    let mut rank = 0;
    for (id, suite_id, started, status) in rows {
        if suite.as_ref() != Some(&suite_id) {
            suite = Some(suite_id);
            rank = 0;
        }
        rank += 1;
        let beyond = rule.keep.is_none_or(|k| rank > k);
        let old = rule
            .started_before_ms
            .is_none_or(|t| (started.max(0) as u64) < t);
        if beyond && old && status != "running" {
            out.push(id);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{EvalIterationRow, EvalRunRow};
    use serde_json::{Value, json};

    fn run(id: &str, suite: &str, started: u64, status: &str) -> EvalRunRow {
        EvalRunRow {
            id: id.into(),
            suite_id: suite.into(),
            suite_hash: "s".into(),
            host_hash: "h".into(),
            title: None,
            source: None,
            status: status.into(),
            started_ms: started,
            finished_ms: None,
            header: json!({}),
            result: None,
            recording: None,
        }
    }

    /// A detail like a real one: each step's request body holds the same long tool list.
    fn detail(n: u32) -> Value {
        let tools: Vec<Value> = (0..30)
            .map(|i| json!({"name": format!("demo__t{i}"), "description": "d".repeat(300)}))
            .collect();
        let body = serde_json::to_string(&json!({"model": "m", "tools": tools,
            "messages": [format!("iteration {n}")]}))
        .unwrap();
        json!({"turns": [{"events": [{"xray": {"requestBody": body}}]}], "n": n})
    }

    fn fill(store: &Store, id: &str, iterations: u32) {
        for n in 0..iterations {
            store
                .save_eval_iteration(&EvalIterationRow {
                    run_id: id.into(),
                    case_id: "c".into(),
                    model: "m".into(),
                    iteration: n,
                    outcome: "passed".into(),
                    record: json!({"n": n}),
                    detail: Some(detail(n)),
                    finished_ms: 1,
                })
                .unwrap();
        }
    }

    fn count(store: &Store, table: &str) -> i64 {
        let sql = format!("SELECT count(*) FROM {table}");
        store.conn.lock().query_row(&sql, [], |r| r.get(0)).unwrap()
    }

    #[test]
    fn repeated_payloads_are_stored_once_and_pruning_gives_the_space_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("mcplab.db");
        let store = Store::open(&path).unwrap();
        for (i, id) in ["r1", "r2", "r3"].iter().enumerate() {
            store
                .create_eval_run(&run(id, "suite", i as u64 * 1000, "finished"))
                .unwrap();
            fill(&store, id, 20);
        }
        store
            .create_eval_run(&run("live", "suite", 0, "running"))
            .unwrap();
        store
            .create_eval_run(&run("o1", "other", 0, "finished"))
            .unwrap();
        fill(&store, "o1", 2);
        // Every detail reads back as written; the tool list is one blob for all 62 rows (and
        // its 30 equal descriptions one more).
        let back = store.eval_iteration("r2", "c", "m", 7).unwrap();
        assert_eq!(back.detail, Some(detail(7)));
        assert_eq!(count(&store, "eval_blobs"), 2);
        let stored: i64 = store
            .conn
            .lock()
            .query_row(
                "SELECT max(length(detail_z)) FROM eval_iterations",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert!(stored < 500, "a packed, deflated detail is {stored} bytes");

        let dry = PruneRule {
            keep: Some(1),
            dry_run: true,
            ..PruneRule::default()
        };
        assert_eq!(store.prune_eval_runs(&dry).unwrap().deleted, ["r2", "r1"]);
        assert_eq!(count(&store, "eval_runs"), 5, "a dry run deletes nothing");
        // Keep the newest of each suite, and only runs started before 0.5 s: r1 goes, r2 is
        // too new, r3 is kept, the running run and the other suite's only run stay.
        let rule = PruneRule {
            keep: Some(1),
            started_before_ms: Some(500),
            dry_run: false,
        };
        assert_eq!(store.prune_eval_runs(&rule).unwrap().deleted, ["r1"]);
        let on_disk = || std::fs::metadata(&path).unwrap().len();
        let before = on_disk();
        let all = PruneRule {
            keep: Some(0),
            ..PruneRule::default()
        };
        let report = store.prune_eval_runs(&all).unwrap();
        assert_eq!(report.deleted, ["o1", "r3", "r2"]);
        assert_eq!(
            count(&store, "eval_blobs"),
            0,
            "no run uses the tool list any more"
        );
        assert_eq!(count(&store, "eval_iterations"), 0);
        assert!(report.bytes_after < report.bytes_before, "{report:?}");
        assert!(
            on_disk() < before,
            "the file shrank: {} → {}",
            before,
            on_disk()
        );
        assert_eq!(store.eval_run("live").unwrap().status, "running");
    }

    /// Rows written before migration 9 are read as they were, even when their data looks like
    /// a reference.
    #[test]
    fn rows_written_before_packing_read_as_before() {
        let store = Store::open_in_memory().unwrap();
        store
            .create_eval_run(&run("old", "suite", 1, "finished"))
            .unwrap();
        let detail = json!({"result": {"$blob": "0123"}});
        store
            .conn
            .lock()
            .execute(
                "INSERT INTO eval_iterations (run_id, case_id, model, iteration, outcome, \
                 record, detail, finished_ms) VALUES ('old', 'c', 'm', 0, 'passed', '{}', ?1, 1)",
                [detail.to_string()],
            )
            .unwrap();
        let row = store.eval_iteration("old", "c", "m", 0).unwrap();
        assert_eq!(row.detail, Some(detail));
    }
}
