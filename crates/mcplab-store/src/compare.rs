//! Compare groups: 2–4 chat sessions that got the same messages side by side. A group is no
//! table of its own but two columns on its sessions (`compare_group`, `compare_column`,
//! migration 8), so deleting a session takes it out of its group and a group lives exactly as
//! long as one of its sessions. This module groups sessions and reads a group back; it does
//! not check how many columns a compare may have (the session hub does).

use rusqlite::{OptionalExtension, params};

use super::chat::{COLUMNS, summary_row, to_record};
use super::{SessionRecord, Store, StoreError, blocking};

impl Store {
    /// Makes `sessions` (in column order) the group `group`, all or none: each must exist and
    /// be in no compare yet ([`StoreError::NotFound`] / [`StoreError::Conflict`] otherwise).
    pub fn create_compare_group(&self, group: &str, sessions: &[String]) -> Result<(), StoreError> {
        blocking(|| {
            let mut conn = self.conn.lock();
            let tx = conn.transaction()?;
            for (i, id) in sessions.iter().enumerate() {
                let current: Option<Option<String>> = tx
                    .query_row(
                        "SELECT compare_group FROM chat_sessions WHERE id = ?1",
                        [id],
                        |r| r.get(0),
                    )
                    .optional()?;
                match current {
                    None => return Err(StoreError::NotFound(format!("chat session {id}"))),
                    Some(Some(other)) => {
                        return Err(StoreError::Conflict(format!(
                            "chat session {id} is already column of compare {other}"
                        )));
                    }
                    Some(None) => {}
                }
                tx.execute(
                    "UPDATE chat_sessions SET compare_group = ?2, compare_column = ?3 WHERE id = ?1",
                    params![id, group, (i + 1) as i64],
                )?;
            }
            tx.commit()?;
            Ok(())
        })
    }

    /// The sessions of compare `group` in column order (empty for an unknown group).
    pub fn compare_group(&self, group: &str) -> Result<Vec<SessionRecord>, StoreError> {
        blocking(|| {
            let conn = self.conn.lock();
            let mut stmt = conn.prepare(&format!(
                "SELECT {COLUMNS} FROM chat_sessions WHERE compare_group = ?1 ORDER BY compare_column"
            ))?;
            let rows = stmt.query_map([group], summary_row)?;
            rows.map(|r| to_record(r?)).collect()
        })
    }
}

#[cfg(test)]
mod tests {
    use mcplab_protocol::chat::ChatSettings;

    use super::*;

    fn session(id: &str) -> SessionRecord {
        SessionRecord {
            id: id.into(),
            title: id.into(),
            created_ms: 1,
            updated_ms: 1,
            settings: ChatSettings {
                model: "openai::gpt-4o-mini".into(),
                servers: Vec::new(),
                system_prompt: None,
                temperature: None,
                max_tokens: None,
                step_limit: None,
                require_approval: None,
            },
            host_config: None,
            compare: None,
        }
    }

    #[test]
    fn a_group_round_trips_survives_reopen_and_loses_deleted_columns() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("db.sqlite");
        {
            let store = Store::open(&path).unwrap();
            for id in ["a", "b", "c"] {
                store.create_session(&session(id)).unwrap();
            }
            store
                .create_compare_group("g1", &["b".into(), "a".into()])
                .unwrap();
            assert!(matches!(
                store.create_compare_group("g2", &["c".into(), "a".into()]),
                Err(StoreError::Conflict(_))
            ));
            assert!(
                store.session("c").unwrap().compare.is_none(),
                "a refused group changes nothing"
            );
            assert!(matches!(
                store.create_compare_group("g3", &["c".into(), "nope".into()]),
                Err(StoreError::NotFound(_))
            ));
        }
        let store = Store::open(&path).unwrap();
        let group: Vec<_> = store
            .compare_group("g1")
            .unwrap()
            .into_iter()
            .map(|s| (s.id, s.compare))
            .collect();
        assert_eq!(
            group,
            [
                ("b".to_owned(), Some(("g1".to_owned(), 1))),
                ("a".to_owned(), Some(("g1".to_owned(), 2)))
            ]
        );
        assert_eq!(store.session("c").unwrap().compare, None);
        store.delete_session("b").unwrap();
        assert_eq!(store.compare_group("g1").unwrap().len(), 1);
        assert!(store.compare_group("unknown").unwrap().is_empty());
    }
}
