//! Server configs: one row per [`ServerConfig`], keyed by name, stored as JSON and listed in
//! the user's order (`position`: insertion order until [`Store::set_server_order`] sets it).
//! It must not validate configs or touch live connections: that belongs to the caller. A
//! rename keeps the server's place in the list.

use mcplab_protocol::ServerConfig;
use rusqlite::{ErrorCode, OptionalExtension, TransactionBehavior, params};

use super::{Store, StoreError, blocking, encode};

impl Store {
    /// Every server config, in the user's order (new ones last).
    pub fn servers(&self) -> Result<Vec<ServerConfig>, StoreError> {
        blocking(|| {
            let conn = self.conn.lock();
            let mut stmt = conn.prepare("SELECT name, config FROM servers ORDER BY position")?;
            let rows =
                stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))?;
            rows.map(|row| {
                let (name, json) = row?;
                decode(&name, &json)
            })
            .collect()
        })
    }

    /// The config named `name`; [`StoreError::NotFound`] if there is none.
    pub fn server(&self, name: &str) -> Result<ServerConfig, StoreError> {
        blocking(|| {
            let json: Option<String> = self
                .conn
                .lock()
                .query_row("SELECT config FROM servers WHERE name = ?1", [name], |r| {
                    r.get(0)
                })
                .optional()?;
            match json {
                Some(json) => decode(name, &json),
                None => Err(not_found(name)),
            }
        })
    }

    /// Appends `cfg`; [`StoreError::Conflict`] if its name is taken.
    pub fn insert_server(&self, cfg: &ServerConfig) -> Result<(), StoreError> {
        blocking(|| {
            let json = encode("server config", cfg)?;
            // One statement, so the position is computed and claimed atomically.
            self.conn
                .lock()
                .execute(
                    "INSERT INTO servers (name, position, config)
                     SELECT ?1, COALESCE(MAX(position), 0) + 1, ?2 FROM servers",
                    params![cfg.name, json],
                )
                .map_err(|e| conflict_or(e, &cfg.name))?;
            Ok(())
        })
    }

    /// Replaces the config named `name` with `cfg`, keeping its position. A different
    /// `cfg.name` renames it ([`StoreError::Conflict`] if that name is taken);
    /// [`StoreError::NotFound`] if `name` does not exist.
    pub fn replace_server(&self, name: &str, cfg: &ServerConfig) -> Result<(), StoreError> {
        blocking(|| {
            let json = encode("server config", cfg)?;
            let changed = self
                .conn
                .lock()
                .execute(
                    "UPDATE servers SET name = ?2, config = ?3 WHERE name = ?1",
                    params![name, cfg.name, json],
                )
                .map_err(|e| conflict_or(e, &cfg.name))?;
            if changed == 0 {
                return Err(not_found(name));
            }
            Ok(())
        })
    }

    /// Replaces the config with `cfg.name` in place, or appends it; true if it replaced one.
    pub fn upsert_server(&self, cfg: &ServerConfig) -> Result<bool, StoreError> {
        Ok(self.upsert_servers(std::slice::from_ref(cfg))?[0])
    }

    /// [`Store::upsert_server`] for each of `cfgs`, all or none (one transaction, so an
    /// import that fails half-way writes nothing): for each, whether it replaced one.
    pub fn upsert_servers(&self, cfgs: &[ServerConfig]) -> Result<Vec<bool>, StoreError> {
        blocking(|| {
            let jsons: Vec<String> = cfgs
                .iter()
                .map(|cfg| encode("server config", cfg))
                .collect::<Result<_, _>>()?;
            let mut conn = self.conn.lock();
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let mut replaced = Vec::with_capacity(cfgs.len());
            for (cfg, json) in cfgs.iter().zip(&jsons) {
                let updated = tx.execute(
                    "UPDATE servers SET config = ?2 WHERE name = ?1",
                    params![cfg.name, json],
                )? > 0;
                if !updated {
                    tx.execute(
                        "INSERT INTO servers (name, position, config)
                         SELECT ?1, COALESCE(MAX(position), 0) + 1, ?2 FROM servers",
                        params![cfg.name, json],
                    )?;
                }
                replaced.push(updated);
            }
            tx.commit()?;
            Ok(replaced)
        })
    }

    /// Puts the servers in the order of `names`, which must name exactly the configured
    /// servers, each once; else [`StoreError::OrderMismatch`] and nothing changes (one
    /// transaction, so another writer cannot slip a server in between the check and the write).
    pub fn set_server_order(&self, names: &[String]) -> Result<(), StoreError> {
        blocking(|| {
            let mut conn = self.conn.lock();
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let current: Vec<String> = tx
                .prepare("SELECT name FROM servers ORDER BY position")?
                .query_map([], |r| r.get(0))?
                .collect::<Result<_, _>>()?;
            order_matches(&current, names)?;
            // Positions are UNIQUE: move every row out of the way (negated) first.
            tx.execute("UPDATE servers SET position = -position", [])?;
            for (i, name) in names.iter().enumerate() {
                tx.execute(
                    "UPDATE servers SET position = ?2 WHERE name = ?1",
                    params![name, i as i64 + 1],
                )?;
            }
            tx.commit()?;
            Ok(())
        })
    }

    /// Removes the config named `name`; [`StoreError::NotFound`] if there is none.
    pub fn delete_server(&self, name: &str) -> Result<(), StoreError> {
        self.delete_one("DELETE FROM servers WHERE name = ?1", name, not_found(name))
    }
}

fn decode(name: &str, json: &str) -> Result<ServerConfig, StoreError> {
    let cfg: ServerConfig = serde_json::from_str(json)
        .map_err(|e| StoreError::Corrupt(format!("server {name:?}: {e}")))?;
    // The name lives in both the key and the JSON; a mismatch means someone edited the file.
    if cfg.name != name {
        return Err(StoreError::Corrupt(format!(
            "server {name:?}: stored config is named {:?}",
            cfg.name
        )));
    }
    Ok(cfg)
}

/// Whether `names` is `current` in some order, each once: else what differs, as the error.
fn order_matches(current: &[String], names: &[String]) -> Result<(), StoreError> {
    let mut seen = std::collections::HashSet::new();
    let repeated: Vec<String> = names
        .iter()
        .filter(|n| !seen.insert(n.as_str()))
        .cloned()
        .collect();
    let unknown: Vec<String> = names
        .iter()
        .filter(|n| !current.contains(n))
        .cloned()
        .collect();
    let missing: Vec<String> = current
        .iter()
        .filter(|n| !names.contains(n))
        .cloned()
        .collect();
    if repeated.is_empty() && unknown.is_empty() && missing.is_empty() {
        return Ok(());
    }
    Err(StoreError::OrderMismatch {
        missing,
        unknown,
        repeated,
    })
}

fn not_found(name: &str) -> StoreError {
    StoreError::NotFound(format!("server {name:?}"))
}

/// Maps a uniqueness violation to [`StoreError::Conflict`]; the only unique columns a write
/// can collide on are the name (positions are always fresh), so that is what it means.
fn conflict_or(e: rusqlite::Error, name: &str) -> StoreError {
    match e.sqlite_error_code() {
        Some(ErrorCode::ConstraintViolation) => StoreError::Conflict(name.to_string()),
        _ => StoreError::Sqlite(e),
    }
}
