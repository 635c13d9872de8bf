//! Settings and UI preferences: two key → JSON value tables with the same shape. Settings are
//! read one key at a time; preferences are read as a whole map for the UI. It must not
//! interpret the values: their meaning belongs to the caller.

use std::collections::BTreeMap;

use rusqlite::{OptionalExtension, params};
use serde_json::Value;

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::{Store, StoreError, blocking, encode};

/// Settings key of the stored model providers.
const PROVIDERS_SETTING: &str = "providers";

impl Store {
    /// The setting `key`, if set.
    pub fn setting(&self, key: &str) -> Result<Option<Value>, StoreError> {
        blocking(|| {
            let json: Option<String> = self
                .conn
                .lock()
                .query_row("SELECT value FROM settings WHERE key = ?1", [key], |r| {
                    r.get(0)
                })
                .optional()?;
            json.map(|json| decode("setting", key, &json)).transpose()
        })
    }

    /// Sets the setting `key` to `value`, replacing any previous value.
    pub fn set_setting(&self, key: &str, value: &Value) -> Result<(), StoreError> {
        self.put("settings", "setting", key, value)
    }

    /// The model providers entered in Settings (keys, base URLs, custom endpoints), as the
    /// provider layer's type `P` (`mcplab_llm::ProviderConfig`; the store does not interpret it).
    pub fn provider_configs<P: DeserializeOwned>(&self) -> Result<Vec<P>, StoreError> {
        match self.setting(PROVIDERS_SETTING)? {
            Some(v) => serde_json::from_value(v)
                .map_err(|e| StoreError::Corrupt(format!("setting {PROVIDERS_SETTING}: {e}"))),
            None => Ok(Vec::new()),
        }
    }

    /// Replaces the stored model providers.
    pub fn set_provider_configs<P: Serialize>(&self, providers: &[P]) -> Result<(), StoreError> {
        self.put(
            "settings",
            "provider settings",
            PROVIDERS_SETTING,
            providers,
        )
    }

    /// Every UI preference, by key.
    pub fn prefs(&self) -> Result<BTreeMap<String, Value>, StoreError> {
        blocking(|| {
            let conn = self.conn.lock();
            let mut stmt = conn.prepare("SELECT key, value FROM prefs")?;
            let rows =
                stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))?;
            rows.map(|row| {
                let (key, json) = row?;
                let value = decode("pref", &key, &json)?;
                Ok((key, value))
            })
            .collect()
        })
    }

    /// Sets the UI preference `key` to `value`, replacing any previous value.
    pub fn set_pref(&self, key: &str, value: &Value) -> Result<(), StoreError> {
        self.put("prefs", "pref", key, value)
    }

    /// Writes `value` (what it is: `what`, for errors) under `key` in `table`, one of this
    /// file's two tables, replacing any previous value.
    fn put<T: Serialize + ?Sized>(
        &self,
        table: &'static str,
        what: &str,
        key: &str,
        value: &T,
    ) -> Result<(), StoreError> {
        blocking(|| {
            let json = encode(what, value)?;
            self.conn.lock().execute(
                &format!(
                    "INSERT INTO {table} (key, value) VALUES (?1, ?2)
                     ON CONFLICT (key) DO UPDATE SET value = excluded.value"
                ),
                params![key, json],
            )?;
            Ok(())
        })
    }
}

fn decode(what: &str, key: &str, json: &str) -> Result<Value, StoreError> {
    serde_json::from_str(json).map_err(|e| StoreError::Corrupt(format!("{what} {key:?}: {e}")))
}
