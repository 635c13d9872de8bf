//! Chat sessions and their turns. A session holds its title, times, its HostConfig (JSON,
//! migration 6; sessions stored before it have only the older `ChatSettings`, from which the
//! session runtime builds one) and `ChatSettings` (kept in step for older readers); a turn
//! holds the user's text, the turn's events (as the UI replays them) and the model messages it
//! added to the conversation (what the next turn sends; the provider layer's `Message`, kept as
//! JSON the store does not interpret). Deleting a session deletes its turns.

use mcplab_protocol::chat::{AppContextEntry, ChatSettings, StoredTurn, TurnEvent};
use mcplab_protocol::host::HostConfig;
use rusqlite::{OptionalExtension, params};

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::{Store, StoreError, blocking, encode};

/// A session row as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionRecord {
    pub id: String,
    pub title: String,
    pub created_ms: u64,
    pub updated_ms: u64,
    pub settings: ChatSettings,
    /// `None` for sessions stored before HostConfigs existed.
    pub host_config: Option<HostConfig>,
    /// The compare group and column (from 1) the session belongs to, if any.
    pub compare: Option<(String, u32)>,
}

fn decode<T: serde::de::DeserializeOwned>(what: &str, json: &str) -> Result<T, StoreError> {
    serde_json::from_str(json).map_err(|e| StoreError::Corrupt(format!("{what}: {e}")))
}

type Row = (
    String,
    String,
    i64,
    i64,
    String,
    Option<String>,
    Option<(String, u32)>,
);

pub(super) const COLUMNS: &str =
    "id, title, created_ms, updated_ms, settings, host_config, compare_group, compare_column";

pub(super) fn summary_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Row> {
    let group: Option<String> = r.get(6)?;
    let column: Option<i64> = r.get(7)?;
    Ok((
        r.get(0)?,
        r.get(1)?,
        r.get(2)?,
        r.get(3)?,
        r.get(4)?,
        r.get(5)?,
        group
            .zip(column)
            .map(|(g, c)| (g, c.clamp(0, u32::MAX.into()) as u32)),
    ))
}

pub(super) fn to_record(row: Row) -> Result<SessionRecord, StoreError> {
    let (id, title, created, updated, settings, host, compare) = row;
    let host_config = match host {
        Some(json) => Some(decode(&format!("host config of session {id}"), &json)?),
        None => None,
    };
    Ok(SessionRecord {
        settings: decode::<ChatSettings>(&format!("settings of session {id}"), &settings)?,
        host_config,
        compare,
        id,
        title,
        created_ms: created as u64,
        updated_ms: updated as u64,
    })
}

impl Store {
    /// What apps gave the model in session `id` (empty for an unknown session).
    pub fn app_context(&self, id: &str) -> Result<Vec<AppContextEntry>, StoreError> {
        blocking(|| {
            let json: Option<String> = self
                .conn
                .lock()
                .query_row(
                    "SELECT app_context FROM chat_sessions WHERE id = ?1",
                    [id],
                    |r| r.get(0),
                )
                .optional()?;
            match json {
                Some(json) => decode(&format!("app context of session {id}"), &json),
                None => Ok(Vec::new()),
            }
        })
    }

    /// Replaces what apps gave the model in session `id`; [`StoreError::NotFound`] if the
    /// session does not exist.
    pub fn set_app_context(&self, id: &str, entries: &[AppContextEntry]) -> Result<(), StoreError> {
        blocking(|| {
            let json = encode("app context", entries)?;
            let n = self.conn.lock().execute(
                "UPDATE chat_sessions SET app_context = ?2 WHERE id = ?1",
                params![id, json],
            )?;
            if n == 0 {
                return Err(StoreError::NotFound(format!("chat session {id}")));
            }
            Ok(())
        })
    }

    /// Adds a session.
    pub fn create_session(&self, s: &SessionRecord) -> Result<(), StoreError> {
        blocking(|| {
            let settings = encode("chat settings", &s.settings)?;
            let host = s
                .host_config
                .as_ref()
                .map(|h| encode("host config", h))
                .transpose()?;
            self.conn.lock()
                .execute(
                    "INSERT INTO chat_sessions (id, title, created_ms, updated_ms, settings, host_config)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                    params![
                        s.id,
                        s.title,
                        s.created_ms as i64,
                        s.updated_ms as i64,
                        settings,
                        host
                    ],
                )
                .map_err(|e| match e.sqlite_error_code() {
                    Some(rusqlite::ErrorCode::ConstraintViolation) => {
                        StoreError::Conflict(s.id.clone())
                    }
                    _ => StoreError::Sqlite(e),
                })?;
            Ok(())
        })
    }

    /// Every session, most recently updated first.
    pub fn sessions(&self) -> Result<Vec<SessionRecord>, StoreError> {
        blocking(|| {
            let conn = self.conn.lock();
            let mut stmt = conn.prepare(&format!(
                "SELECT {COLUMNS} FROM chat_sessions ORDER BY updated_ms DESC, created_ms DESC"
            ))?;
            let rows = stmt.query_map([], summary_row)?;
            rows.map(|r| to_record(r?)).collect()
        })
    }

    pub fn session(&self, id: &str) -> Result<SessionRecord, StoreError> {
        blocking(|| {
            let row = self
                .conn
                .lock()
                .query_row(
                    &format!("SELECT {COLUMNS} FROM chat_sessions WHERE id = ?1"),
                    [id],
                    summary_row,
                )
                .optional()?;
            match row {
                Some(r) => to_record(r),
                None => Err(StoreError::NotFound(format!("chat session {id}"))),
            }
        })
    }

    /// Changes the title and/or the host (its config and the matching older settings), and
    /// the update time.
    pub fn update_session(
        &self,
        id: &str,
        title: Option<&str>,
        host: Option<(&HostConfig, &ChatSettings)>,
        now_ms: u64,
    ) -> Result<SessionRecord, StoreError> {
        blocking(|| {
            let mut current = self.session(id)?;
            if let Some(t) = title {
                current.title = t.to_owned();
            }
            if let Some((config, settings)) = host {
                current.host_config = Some(config.clone());
                current.settings = settings.clone();
            }
            current.updated_ms = now_ms;
            let json = encode("chat settings", &current.settings)?;
            let host_json = current
                .host_config
                .as_ref()
                .map(|h| encode("host config", h))
                .transpose()?;
            self.conn.lock().execute(
                "UPDATE chat_sessions SET title = ?2, settings = ?3, host_config = ?4, updated_ms = ?5
                 WHERE id = ?1",
                params![id, current.title, json, host_json, now_ms as i64],
            )?;
            Ok(current)
        })
    }

    pub fn delete_session(&self, id: &str) -> Result<(), StoreError> {
        self.delete_one(
            "DELETE FROM chat_sessions WHERE id = ?1",
            id,
            StoreError::NotFound(format!("chat session {id}")),
        )
    }

    /// Stores (or replaces) one turn and touches the session's update time. `replaces` names
    /// a turn (a retried one) that is deleted in the same transaction.
    pub fn save_turn<M: Serialize>(
        &self,
        session_id: &str,
        turn: &StoredTurn,
        messages: &[M],
        replaces: Option<&str>,
        now_ms: u64,
    ) -> Result<(), StoreError> {
        blocking(|| {
            let events = encode("turn events", &turn.events)?;
            let messages = encode("turn messages", messages)?;
            let mut conn = self.conn.lock();
            let tx = conn.transaction()?;
            if let Some(old) = replaces.filter(|old| *old != turn.turn_id) {
                tx.execute(
                    "DELETE FROM chat_turns WHERE session_id = ?1 AND turn_id = ?2",
                    params![session_id, old],
                )?;
            }
            tx.execute(
                "INSERT INTO chat_turns (session_id, seq, turn_id, user_text, events, messages)
                 VALUES (?1, (SELECT COALESCE(MAX(seq), 0) + 1 FROM chat_turns WHERE session_id = ?1),
                         ?2, ?3, ?4, ?5)
                 ON CONFLICT (session_id, turn_id) DO UPDATE SET
                     user_text = excluded.user_text, events = excluded.events,
                     messages = excluded.messages",
                params![session_id, turn.turn_id, turn.user, events, messages],
            )?;
            tx.execute(
                "UPDATE chat_sessions SET updated_ms = ?2 WHERE id = ?1",
                params![session_id, now_ms as i64],
            )?;
            tx.commit()?;
            Ok(())
        })
    }

    /// Whether the session already has a stored turn with this id.
    pub fn has_turn(&self, session_id: &str, turn_id: &str) -> Result<bool, StoreError> {
        blocking(|| {
            let found: Option<i64> = self
                .conn
                .lock()
                .query_row(
                    "SELECT 1 FROM chat_turns WHERE session_id = ?1 AND turn_id = ?2",
                    params![session_id, turn_id],
                    |r| r.get(0),
                )
                .optional()?;
            Ok(found.is_some())
        })
    }

    /// The session's turns in order, each with the model messages it added.
    pub fn turns<M: DeserializeOwned>(
        &self,
        session_id: &str,
    ) -> Result<Vec<(StoredTurn, Vec<M>)>, StoreError> {
        blocking(|| {
            let conn = self.conn.lock();
            let mut stmt = conn.prepare(
                "SELECT turn_id, user_text, events, messages FROM chat_turns
                 WHERE session_id = ?1 ORDER BY seq",
            )?;
            let rows = stmt.query_map([session_id], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, String>(3)?,
                ))
            })?;
            rows.map(|row| {
                let (turn_id, user, events, messages) = row?;
                let events: Vec<TurnEvent> = decode(&format!("events of turn {turn_id}"), &events)?;
                let messages: Vec<M> = decode(&format!("messages of turn {turn_id}"), &messages)?;
                Ok((
                    StoredTurn {
                        turn_id,
                        user,
                        events,
                    },
                    messages,
                ))
            })
            .collect()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcplab_protocol::chat::TokenUsage;

    fn summary(id: &str, t: u64) -> SessionRecord {
        SessionRecord {
            id: id.into(),
            title: format!("chat {id}"),
            created_ms: t,
            updated_ms: t,
            host_config: None,
            compare: None,
            settings: ChatSettings {
                model: "openai::gpt-4o-mini".into(),
                servers: vec!["demo".into()],
                system_prompt: None,
                temperature: None,
                max_tokens: None,
                step_limit: None,
                require_approval: None,
            },
        }
    }

    #[test]
    fn sessions_and_turns_round_trip_survive_reopen_and_cascade() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("db.sqlite");
        {
            let store = Store::open(&path).unwrap();
            store.create_session(&summary("a", 1)).unwrap();
            store.create_session(&summary("b", 2)).unwrap();
            assert!(matches!(
                store.create_session(&summary("a", 3)),
                Err(StoreError::Conflict(_))
            ));
            let turn = StoredTurn {
                turn_id: "t1".into(),
                user: "hello".into(),
                events: vec![TurnEvent::TurnFinished {
                    turn_id: "t1".into(),
                    reason: mcplab_protocol::chat::StopReason::Completed,
                    usage: TokenUsage::default(),
                }],
            };
            store
                .save_turn(
                    "a",
                    &turn,
                    &[serde_json::json!({"role": "user", "text": "hello"})],
                    None,
                    10,
                )
                .unwrap();
            store
                .save_turn(
                    "a",
                    &turn,
                    &[serde_json::json!({"role": "user", "text": "hello again"})],
                    None,
                    11,
                )
                .unwrap();
            store.update_session("b", Some("renamed"), None, 5).unwrap();
        }
        let store = Store::open(&path).unwrap();
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "the database holds API keys: owner only");
        let ids: Vec<_> = store
            .sessions()
            .unwrap()
            .into_iter()
            .map(|s| s.id)
            .collect();
        assert_eq!(ids, ["a", "b"], "most recently updated first");
        assert_eq!(store.session("b").unwrap().title, "renamed");
        let turns = store.turns::<serde_json::Value>("a").unwrap();
        assert_eq!(turns.len(), 1, "saving a turn again replaces it");
        assert!(store.has_turn("a", "t1").unwrap());
        assert!(!store.has_turn("a", "t2").unwrap());
        assert_eq!(
            turns[0].1,
            [serde_json::json!({"role": "user", "text": "hello again"})]
        );
        store.delete_session("a").unwrap();
        assert!(
            store.turns::<serde_json::Value>("a").unwrap().is_empty(),
            "turns go with their session"
        );
        assert!(matches!(store.session("a"), Err(StoreError::NotFound(_))));
        assert!(matches!(
            store.delete_session("a"),
            Err(StoreError::NotFound(_))
        ));
    }

    #[test]
    fn app_context_is_kept_with_the_session_and_survives_reopen() {
        use mcplab_protocol::chat::AppContextSource;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("db.sqlite");
        let entry = AppContextEntry {
            key: "c1:modelContext".into(),
            server: "demo".into(),
            tool: "show_counter_app".into(),
            call_id: "c1".into(),
            source: AppContextSource::ModelContext,
            content: serde_json::json!([{"type": "text", "text": "count is 3"}]),
            structured_content: Some(serde_json::json!({"count": 3})),
            updated_at_ms: 7,
        };
        {
            let store = Store::open(&path).unwrap();
            store.create_session(&summary("a", 1)).unwrap();
            assert!(store.app_context("a").unwrap().is_empty());
            store
                .set_app_context("a", std::slice::from_ref(&entry))
                .unwrap();
            assert!(matches!(
                store.set_app_context("nope", &[]),
                Err(StoreError::NotFound(_))
            ));
        }
        let store = Store::open(&path).unwrap();
        assert_eq!(store.app_context("a").unwrap(), vec![entry]);
        store.delete_session("a").unwrap();
        assert!(store.app_context("a").unwrap().is_empty());
    }
}
