//! Saved app playground scenarios: a named tool input plus emulated host conditions, to reopen
//! and re-run. The conditions are the web UI's JSON, kept as given; this module does not
//! interpret them.

use mcplab_protocol::api::{AppScenario, AppScenarioInput};
use rusqlite::{OptionalExtension, params};

use super::{Store, StoreError, blocking, encode};

/// id, name, server, tool, arguments JSON, conditions JSON, created, updated.
type Row = (String, String, String, String, String, String, i64, i64);

fn row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Row> {
    Row::try_from(r)
}

fn scenario(
    (id, name, server, tool, arguments, conditions, created, updated): Row,
) -> Result<AppScenario, StoreError> {
    let json = |what: &str, s: &str| {
        serde_json::from_str(s)
            .map_err(|e| StoreError::Corrupt(format!("scenario {id} {what}: {e}")))
    };
    Ok(AppScenario {
        arguments: json("arguments", &arguments)?,
        conditions: json("conditions", &conditions)?,
        id,
        name,
        server,
        tool,
        created_ms: created.max(0) as u64,
        updated_ms: updated.max(0) as u64,
    })
}

const COLUMNS: &str = "id, name, server, tool, arguments, conditions, created_ms, updated_ms";

impl Store {
    /// Every saved scenario, most recently changed first.
    pub fn scenarios(&self) -> Result<Vec<AppScenario>, StoreError> {
        blocking(|| {
            let conn = self.conn.lock();
            let mut stmt = conn.prepare(&format!(
                "SELECT {COLUMNS} FROM app_scenarios ORDER BY updated_ms DESC, name"
            ))?;
            let rows = stmt.query_map([], row)?.collect::<Result<Vec<_>, _>>()?;
            rows.into_iter().map(scenario).collect()
        })
    }

    /// The scenario `id`; [`StoreError::NotFound`] if there is none.
    pub fn scenario(&self, id: &str) -> Result<AppScenario, StoreError> {
        blocking(|| {
            let found = self
                .conn
                .lock()
                .query_row(
                    &format!("SELECT {COLUMNS} FROM app_scenarios WHERE id = ?1"),
                    [id],
                    row,
                )
                .optional()?;
            match found {
                Some(r) => scenario(r),
                None => Err(StoreError::NotFound(format!("scenario {id}"))),
            }
        })
    }

    /// Saves a scenario under `id`, creating it or replacing its contents (keeps `created_ms`).
    pub fn put_scenario(
        &self,
        id: &str,
        input: &AppScenarioInput,
        now_ms: u64,
    ) -> Result<AppScenario, StoreError> {
        blocking(|| {
            let arguments = encode("scenario arguments", &input.arguments)?;
            let conditions = encode("scenario conditions", &input.conditions)?;
            self.conn.lock().execute(
                "INSERT INTO app_scenarios (id, name, server, tool, arguments, conditions, created_ms, updated_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7)
                 ON CONFLICT (id) DO UPDATE SET name = excluded.name, server = excluded.server,
                     tool = excluded.tool, arguments = excluded.arguments,
                     conditions = excluded.conditions, updated_ms = excluded.updated_ms",
                params![id, input.name, input.server, input.tool, arguments, conditions, now_ms as i64],
            )?;
            self.scenario(id)
        })
    }

    /// Deletes the scenario `id`; [`StoreError::NotFound`] if there is none.
    pub fn delete_scenario(&self, id: &str) -> Result<(), StoreError> {
        self.delete_one(
            "DELETE FROM app_scenarios WHERE id = ?1",
            id,
            StoreError::NotFound(format!("scenario {id}")),
        )
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn input(name: &str) -> AppScenarioInput {
        AppScenarioInput {
            name: name.into(),
            server: "demo".into(),
            tool: "show_counter_app".into(),
            arguments: json!({"a": 1}),
            conditions: json!({"theme": "dark", "locale": "ar-SA"}),
        }
    }

    #[test]
    fn scenarios_round_trip_update_and_delete() {
        let store = Store::open_in_memory().unwrap();
        assert!(store.scenarios().unwrap().is_empty());
        let a = store.put_scenario("a", &input("Mobile dark"), 10).unwrap();
        assert_eq!(a.conditions["locale"], "ar-SA");
        assert_eq!((a.created_ms, a.updated_ms), (10, 10));
        store.put_scenario("b", &input("Desktop"), 20).unwrap();
        let renamed = store
            .put_scenario("a", &input("Mobile dark RTL"), 30)
            .unwrap();
        assert_eq!((renamed.created_ms, renamed.updated_ms), (10, 30));
        let names: Vec<_> = store
            .scenarios()
            .unwrap()
            .into_iter()
            .map(|s| s.name)
            .collect();
        assert_eq!(names, ["Mobile dark RTL", "Desktop"]);
        store.delete_scenario("a").unwrap();
        assert!(matches!(
            store.delete_scenario("a"),
            Err(StoreError::NotFound(_))
        ));
        assert!(matches!(store.scenario("a"), Err(StoreError::NotFound(_))));
    }
}
