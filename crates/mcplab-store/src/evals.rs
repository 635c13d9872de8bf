//! Eval runs and their iterations (migration 7). A run row is created when the run starts —
//! suite id and hash, the hash of the HostConfig it runs under, its plan — and completed with
//! its status and result when it ends; each iteration row is written when that iteration
//! finishes, with its full detail (trace, verdict, recording), so a crash loses only the
//! iterations in flight. The JSON columns hold the evals crate's records as given: this
//! module does not interpret them, it only files them under the suite, the run and the unit.

use rusqlite::{OptionalExtension, params};
use serde_json::Value;

use super::{Store, StoreError, blocking, encode};

/// A run as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct EvalRunRow {
    pub id: String,
    pub suite_id: String,
    pub suite_hash: String,
    pub host_hash: String,
    pub title: Option<String>,
    /// Where the suite came from (its file), when it came from a file.
    pub source: Option<String>,
    /// `running`, then `finished`, `cancelled` or `failed`.
    pub status: String,
    pub started_ms: u64,
    pub finished_ms: Option<u64>,
    /// The plan and settings (written at the start).
    pub header: Value,
    /// Summary and gates (written at the end).
    pub result: Option<Value>,
    /// What a replay needs besides the iterations (the servers' tool lists), when recorded.
    pub recording: Option<Value>,
}

/// One finished iteration as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct EvalIterationRow {
    pub run_id: String,
    pub case_id: String,
    pub model: String,
    pub iteration: u32,
    /// `passed`, `failed` or `errored`.
    pub outcome: String,
    /// The iteration's record (outcome, failures, metrics).
    pub record: Value,
    /// Trace, verdict and recording; left out of listings.
    pub detail: Option<Value>,
    pub finished_ms: u64,
}

const RUN_COLUMNS: &str = "id, suite_id, suite_hash, host_hash, title, source, status, \
                           started_ms, finished_ms, header, result, recording";

fn decode(what: &str, json: &str) -> Result<Value, StoreError> {
    serde_json::from_str(json).map_err(|e| StoreError::Corrupt(format!("{what}: {e}")))
}

fn run_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<RawRun> {
    Ok(RawRun {
        id: r.get(0)?,
        suite_id: r.get(1)?,
        suite_hash: r.get(2)?,
        host_hash: r.get(3)?,
        title: r.get(4)?,
        source: r.get(5)?,
        status: r.get(6)?,
        started_ms: r.get(7)?,
        finished_ms: r.get(8)?,
        header: r.get(9)?,
        result: r.get(10)?,
        recording: r.get(11)?,
    })
}

struct RawRun {
    id: String,
    suite_id: String,
    suite_hash: String,
    host_hash: String,
    title: Option<String>,
    source: Option<String>,
    status: String,
    started_ms: i64,
    finished_ms: Option<i64>,
    header: String,
    result: Option<String>,
    recording: Option<String>,
}

impl RawRun {
    fn decode(self) -> Result<EvalRunRow, StoreError> {
        let id = self.id;
        let opt = |what: &str, v: Option<String>| {
            v.map(|json| decode(&format!("{what} of eval run {id}"), &json))
                .transpose()
        };
        Ok(EvalRunRow {
            header: decode(&format!("header of eval run {id}"), &self.header)?,
            result: opt("result", self.result)?,
            recording: opt("recording", self.recording)?,
            suite_id: self.suite_id,
            suite_hash: self.suite_hash,
            host_hash: self.host_hash,
            title: self.title,
            source: self.source,
            status: self.status,
            started_ms: self.started_ms.max(0) as u64,
            finished_ms: self.finished_ms.map(|v| v.max(0) as u64),
            id,
        })
    }
}

impl Store {
    /// Adds a run (at its start); [`StoreError::Conflict`] if the id is taken.
    pub fn create_eval_run(&self, run: &EvalRunRow) -> Result<(), StoreError> {
        blocking(|| {
            let header = encode("eval run header", &run.header)?;
            let result = run
                .result
                .as_ref()
                .map(|r| encode("eval run result", r))
                .transpose()?;
            let recording = run
                .recording
                .as_ref()
                .map(|r| encode("eval run recording", r))
                .transpose()?;
            self.conn
                .lock()
                .execute(
                    &format!(
                        "INSERT INTO eval_runs ({RUN_COLUMNS}) VALUES \
                         (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)"
                    ),
                    params![
                        run.id,
                        run.suite_id,
                        run.suite_hash,
                        run.host_hash,
                        run.title,
                        run.source,
                        run.status,
                        run.started_ms as i64,
                        run.finished_ms.map(|v| v as i64),
                        header,
                        result,
                        recording
                    ],
                )
                .map_err(|e| match e.sqlite_error_code() {
                    Some(rusqlite::ErrorCode::ConstraintViolation) => {
                        StoreError::Conflict(run.id.clone())
                    }
                    _ => StoreError::Sqlite(e),
                })?;
            Ok(())
        })
    }

    /// Stores the recording a replay needs (the servers' tool lists), once known.
    pub fn set_eval_recording(&self, id: &str, recording: &Value) -> Result<(), StoreError> {
        blocking(|| {
            let json = encode("eval run recording", recording)?;
            let n = self.conn.lock().execute(
                "UPDATE eval_runs SET recording = ?2 WHERE id = ?1",
                params![id, json],
            )?;
            if n == 0 {
                return Err(StoreError::NotFound(format!("eval run {id}")));
            }
            Ok(())
        })
    }

    /// Ends a run: its status, end time and result.
    pub fn finish_eval_run(
        &self,
        id: &str,
        status: &str,
        finished_ms: u64,
        result: &Value,
    ) -> Result<(), StoreError> {
        blocking(|| {
            let json = encode("eval run result", result)?;
            let n = self.conn.lock().execute(
                "UPDATE eval_runs SET status = ?2, finished_ms = ?3, result = ?4 WHERE id = ?1",
                params![id, status, finished_ms as i64, json],
            )?;
            if n == 0 {
                return Err(StoreError::NotFound(format!("eval run {id}")));
            }
            Ok(())
        })
    }

    /// Stores one finished iteration (replacing an earlier row for the same unit); payloads
    /// its run already holds (the tool list of every request …) are kept once (see `blobs`).
    pub fn save_eval_iteration(&self, it: &EvalIterationRow) -> Result<(), StoreError> {
        blocking(|| {
            let record = encode("eval iteration record", &it.record)?;
            let (detail, blobs) = match &it.detail {
                Some(d) => {
                    let (packed, blobs) = super::blobs::pack(d);
                    (Some(encode("eval iteration detail", &packed)?), blobs)
                }
                None => (None, Default::default()),
            };
            let detail_z = detail.as_deref().and_then(super::zipped::deflate);
            let detail = detail.filter(|_| detail_z.is_none());
            let mut conn = self.conn.lock();
            let tx = conn.transaction()?;
            for (hash, body) in &blobs {
                let body_z = super::zipped::deflate(body);
                let plain = if body_z.is_some() { "" } else { body.as_str() };
                tx.execute(
                    "INSERT OR IGNORE INTO eval_blobs (hash, body, body_z) VALUES (?1, ?2, ?3)",
                    params![hash, plain, body_z],
                )?;
                tx.execute(
                    "INSERT OR IGNORE INTO eval_blob_refs (run_id, hash) VALUES (?1, ?2)",
                    params![it.run_id, hash],
                )?;
            }
            tx.execute(
                "INSERT OR REPLACE INTO eval_iterations
                     (run_id, case_id, model, iteration, outcome, record, detail, detail_z,
                      finished_ms, packed)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                params![
                    it.run_id,
                    it.case_id,
                    it.model,
                    i64::from(it.iteration),
                    it.outcome,
                    record,
                    detail,
                    detail_z,
                    it.finished_ms as i64,
                    super::blobs::FORMAT
                ],
            )?;
            tx.commit()?;
            Ok(())
        })
    }

    /// Runs, newest first, of one suite or of all; at most `limit`.
    pub fn eval_runs(
        &self,
        suite_id: Option<&str>,
        limit: usize,
    ) -> Result<Vec<EvalRunRow>, StoreError> {
        blocking(|| {
            let conn = self.conn.lock();
            let mut stmt = conn.prepare(&format!(
                "SELECT {RUN_COLUMNS} FROM eval_runs WHERE ?1 IS NULL OR suite_id = ?1
                 ORDER BY started_ms DESC, id DESC LIMIT ?2"
            ))?;
            let rows = stmt
                .query_map(params![suite_id, limit as i64], run_row)?
                .collect::<Result<Vec<_>, _>>()?;
            rows.into_iter().map(RawRun::decode).collect()
        })
    }

    /// The run `id`; [`StoreError::NotFound`] if there is none.
    pub fn eval_run(&self, id: &str) -> Result<EvalRunRow, StoreError> {
        blocking(|| {
            let row = self
                .conn
                .lock()
                .query_row(
                    &format!("SELECT {RUN_COLUMNS} FROM eval_runs WHERE id = ?1"),
                    [id],
                    run_row,
                )
                .optional()?;
            match row {
                Some(r) => r.decode(),
                None => Err(StoreError::NotFound(format!("eval run {id}"))),
            }
        })
    }

    /// The ids of runs starting with `prefix`, newest first (at most `limit`).
    pub fn eval_run_ids(&self, prefix: &str, limit: usize) -> Result<Vec<String>, StoreError> {
        blocking(|| {
            let conn = self.conn.lock();
            let mut stmt = conn.prepare(
                "SELECT id FROM eval_runs WHERE substr(id, 1, length(?1)) = ?1
                 ORDER BY started_ms DESC, id DESC LIMIT ?2",
            )?;
            let ids = stmt
                .query_map(params![prefix, limit as i64], |r| r.get(0))?
                .collect::<Result<Vec<String>, _>>()?;
            Ok(ids)
        })
    }

    /// The finished iterations of run `id` in unit order, with their detail or without.
    pub fn eval_iterations(
        &self,
        run_id: &str,
        with_detail: bool,
    ) -> Result<Vec<EvalIterationRow>, StoreError> {
        blocking(|| {
            let conn = self.conn.lock();
            let detail = if with_detail {
                "detail, detail_z"
            } else {
                "NULL, NULL"
            };
            let mut stmt = conn.prepare(&format!(
                "SELECT run_id, case_id, model, iteration, outcome, record, {detail}, finished_ms,
                        packed
                 FROM eval_iterations WHERE run_id = ?1 ORDER BY case_id, model, iteration"
            ))?;
            let rows = stmt
                .query_map([run_id], iteration_row)?
                .collect::<Result<Vec<_>, _>>()?;
            rows.into_iter().map(|r| r.decode(&conn)).collect()
        })
    }

    /// One iteration with its detail; [`StoreError::NotFound`] if it did not finish.
    pub fn eval_iteration(
        &self,
        run_id: &str,
        case_id: &str,
        model: &str,
        iteration: u32,
    ) -> Result<EvalIterationRow, StoreError> {
        blocking(|| {
            let conn = self.conn.lock();
            let row = conn
                .query_row(
                    "SELECT run_id, case_id, model, iteration, outcome, record, detail, detail_z,
                            finished_ms, packed
                     FROM eval_iterations
                     WHERE run_id = ?1 AND case_id = ?2 AND model = ?3 AND iteration = ?4",
                    params![run_id, case_id, model, i64::from(iteration)],
                    iteration_row,
                )
                .optional()?;
            match row {
                Some(r) => r.decode(&conn),
                None => Err(StoreError::NotFound(format!(
                    "iteration {} of {case_id} on {model} in eval run {run_id}",
                    iteration + 1
                ))),
            }
        })
    }

    /// Deletes a run, its iterations and the payloads only it used.
    pub fn delete_eval_run(&self, id: &str) -> Result<(), StoreError> {
        blocking(|| {
            self.delete_one(
                "DELETE FROM eval_runs WHERE id = ?1",
                id,
                StoreError::NotFound(format!("eval run {id}")),
            )?;
            super::evals_prune::drop_orphan_blobs(&self.conn.lock())?;
            Ok(())
        })
    }
}

struct RawIteration {
    run_id: String,
    case_id: String,
    model: String,
    iteration: i64,
    outcome: String,
    record: String,
    detail: Option<String>,
    /// The detail deflated (migration 10); when set, `detail` is NULL.
    detail_z: Option<Vec<u8>>,
    finished_ms: i64,
    /// 0: the detail is plain; else it refers to `eval_blobs` in that format (see `blobs`).
    packed: u8,
}

fn iteration_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<RawIteration> {
    Ok(RawIteration {
        run_id: r.get(0)?,
        case_id: r.get(1)?,
        model: r.get(2)?,
        iteration: r.get(3)?,
        outcome: r.get(4)?,
        record: r.get(5)?,
        detail: r.get(6)?,
        detail_z: r.get(7)?,
        finished_ms: r.get(8)?,
        packed: r.get(9)?,
    })
}

impl RawIteration {
    fn decode(self, conn: &rusqlite::Connection) -> Result<EvalIterationRow, StoreError> {
        let what = format!(
            "iteration {} of {} on {} in eval run {}",
            self.iteration, self.case_id, self.model, self.run_id
        );
        let mut detail = super::zipped::stored_text(&what, self.detail, self.detail_z)?
            .map(|d| decode(&what, &d))
            .transpose()?;
        if self.packed > 0
            && let Some(d) = detail.take()
        {
            let mut blob = |h: &str| {
                let (plain, deflated) = conn
                    .query_row(
                        "SELECT body, body_z FROM eval_blobs WHERE hash = ?1",
                        [h],
                        |r| Ok((r.get::<_, String>(0)?, r.get::<_, Option<Vec<u8>>>(1)?)),
                    )
                    .ok()?;
                // A payload that cannot be inflated reads as missing: the row is reported corrupt.
                super::zipped::stored_text(h, Some(plain), deflated)
                    .ok()
                    .flatten()
            };
            let d = super::blobs::unpack(d, self.packed, &mut blob)
                .map_err(|m| StoreError::Corrupt(format!("{what}: {} is missing", m.0)))?;
            detail = Some(d);
        }
        Ok(EvalIterationRow {
            record: decode(&what, &self.record)?,
            detail,
            iteration: u32::try_from(self.iteration).unwrap_or(0),
            run_id: self.run_id,
            case_id: self.case_id,
            model: self.model,
            outcome: self.outcome,
            finished_ms: self.finished_ms.max(0) as u64,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(id: &str, suite: &str, started: u64) -> EvalRunRow {
        EvalRunRow {
            id: id.into(),
            suite_id: suite.into(),
            suite_hash: "s".into(),
            host_hash: "h".into(),
            title: Some("T".into()),
            source: None,
            status: "running".into(),
            started_ms: started,
            finished_ms: None,
            header: json!({"planned": 2}),
            result: None,
            recording: None,
        }
    }

    fn iteration(run: &str, n: u32, outcome: &str) -> EvalIterationRow {
        EvalIterationRow {
            run_id: run.into(),
            case_id: "c".into(),
            model: "openai::m".into(),
            iteration: n,
            outcome: outcome.into(),
            record: json!({"iteration": n}),
            detail: Some(json!({"trace": {"turns": []}})),
            finished_ms: 10 + u64::from(n),
        }
    }

    #[test]
    fn runs_and_iterations_round_trip_and_cascade() {
        let store = Store::open_in_memory().unwrap();
        store.create_eval_run(&run("r1", "suite", 1)).unwrap();
        store.create_eval_run(&run("r2", "suite", 2)).unwrap();
        store.create_eval_run(&run("x3", "other", 3)).unwrap();
        assert!(matches!(
            store.create_eval_run(&run("r1", "suite", 9)),
            Err(StoreError::Conflict(_))
        ));
        store
            .save_eval_iteration(&iteration("r1", 1, "failed"))
            .unwrap();
        store
            .save_eval_iteration(&iteration("r1", 0, "passed"))
            .unwrap();
        // A unit written again replaces its row.
        store
            .save_eval_iteration(&iteration("r1", 1, "passed"))
            .unwrap();
        let listed = store.eval_iterations("r1", false).unwrap();
        assert_eq!(listed.len(), 2);
        assert_eq!((listed[0].iteration, listed[1].iteration), (0, 1));
        assert_eq!(listed[1].outcome, "passed");
        assert!(listed.iter().all(|i| i.detail.is_none()));
        let one = store.eval_iteration("r1", "c", "openai::m", 1).unwrap();
        assert_eq!(one.detail, Some(json!({"trace": {"turns": []}})));
        assert!(matches!(
            store.eval_iteration("r1", "c", "openai::m", 7),
            Err(StoreError::NotFound(_))
        ));

        store
            .finish_eval_run("r1", "finished", 50, &json!({"summary": {}}))
            .unwrap();
        store
            .set_eval_recording("r1", &json!({"servers": {}}))
            .unwrap();
        let r1 = store.eval_run("r1").unwrap();
        assert_eq!(r1.status, "finished");
        assert_eq!(r1.finished_ms, Some(50));
        assert_eq!(r1.result, Some(json!({"summary": {}})));
        assert_eq!(r1.recording, Some(json!({"servers": {}})));

        let ids: Vec<_> = store
            .eval_runs(Some("suite"), 10)
            .unwrap()
            .into_iter()
            .map(|r| r.id)
            .collect();
        assert_eq!(ids, ["r2", "r1"], "newest first, one suite");
        assert_eq!(store.eval_runs(None, 10).unwrap().len(), 3);
        assert_eq!(store.eval_runs(None, 1).unwrap()[0].id, "x3");
        assert_eq!(store.eval_run_ids("r", 10).unwrap(), ["r2", "r1"]);

        store.delete_eval_run("r1").unwrap();
        assert!(store.eval_iterations("r1", true).unwrap().is_empty());
        assert!(matches!(store.eval_run("r1"), Err(StoreError::NotFound(_))));
    }

    #[test]
    fn details_and_payloads_are_stored_deflated_and_plain_rows_still_read() {
        let store = Store::open_in_memory().unwrap();
        store.create_eval_run(&run("r1", "suite", 1)).unwrap();
        let prompt = "You are a careful assistant. ".repeat(40);
        let detail = json!({"trace": {"turns": [{"system": prompt, "said": "ok ".repeat(300)}]}});
        let mut it = iteration("r1", 0, "passed");
        it.detail = Some(detail.clone());
        store.save_eval_iteration(&it).unwrap();
        let (plain, zipped): (Option<String>, Vec<u8>) = store
            .conn
            .lock()
            .query_row(
                "SELECT detail, detail_z FROM eval_iterations WHERE run_id = 'r1'",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        assert_eq!(plain, None);
        assert!(
            zipped.len() < 600,
            "the detail deflated to {} B",
            zipped.len()
        );
        let (empty, body_z): (String, Vec<u8>) = store
            .conn
            .lock()
            .query_row("SELECT body, body_z FROM eval_blobs LIMIT 1", [], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .unwrap();
        assert!(empty.is_empty() && !body_z.is_empty());
        let back = store.eval_iteration("r1", "c", "openai::m", 0).unwrap();
        assert_eq!(back.detail, Some(detail));

        // A row written before migration 10 (plain text, no deflated column) reads as it was.
        store
            .conn
            .lock()
            .execute(
                "INSERT INTO eval_iterations
                     (run_id, case_id, model, iteration, outcome, record, detail, finished_ms)
                 VALUES ('r1', 'c', 'openai::m', 1, 'passed', '{}', '{\"old\":true}', 5)",
                [],
            )
            .unwrap();
        let old = store.eval_iteration("r1", "c", "openai::m", 1).unwrap();
        assert_eq!(old.detail, Some(json!({"old": true})));

        // Damaged deflated data is a corrupt row naming the iteration, not a panic or a guess.
        store
            .conn
            .lock()
            .execute(
                "UPDATE eval_iterations SET detail_z = x'0102' WHERE iteration = 1",
                [],
            )
            .unwrap();
        let err = store.eval_iteration("r1", "c", "openai::m", 1).unwrap_err();
        assert!(
            matches!(err, StoreError::Corrupt(ref m) if m.contains("iteration 1 of c")),
            "{err}"
        );
    }
}
