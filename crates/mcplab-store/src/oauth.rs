//! OAuth credentials (client registration and tokens) per server name and server URL, stored as
//! JSON rows. It implements the OAuth layer's [`CredentialStore`]; it must not interpret the
//! credentials beyond (de)serializing them, nor ever log them.

use rusqlite::{OptionalExtension, params};

use super::{Store, StoreError, blocking, encode};
use mcplab_oauth::{CredentialStore, Credentials, OAuthError};

impl Store {
    /// The credentials stored for `server` at `url`.
    pub fn oauth_credentials(
        &self,
        server: &str,
        url: &str,
    ) -> Result<Option<Credentials>, StoreError> {
        blocking(|| {
            let json: Option<String> = self
                .conn
                .lock()
                .query_row(
                    "SELECT value FROM oauth_credentials WHERE server = ?1 AND url = ?2",
                    params![server, url],
                    |r| r.get(0),
                )
                .optional()?;
            json.map(|j| decode(server, &j)).transpose()
        })
    }

    /// Stores `creds` for `server` at `creds.server_url`, replacing what was there.
    pub fn set_oauth_credentials(
        &self,
        server: &str,
        creds: &Credentials,
    ) -> Result<(), StoreError> {
        blocking(|| {
            let json = encode("OAuth credentials", creds)?;
            self.conn.lock().execute(
                "INSERT INTO oauth_credentials (server, url, value, updated_ms)
                 VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (server, url) DO UPDATE SET value = excluded.value,
                     updated_ms = excluded.updated_ms",
                params![
                    server,
                    creds.server_url,
                    json,
                    mcplab_protocol::clock::now_ms() as i64
                ],
            )?;
            Ok(())
        })
    }

    /// Removes every credential of `server`; returns how many rows went.
    pub fn clear_oauth_credentials(&self, server: &str) -> Result<usize, StoreError> {
        blocking(|| {
            Ok(self
                .conn
                .lock()
                .execute("DELETE FROM oauth_credentials WHERE server = ?1", [server])?)
        })
    }

    /// Every stored credential, by server then URL.
    pub fn all_oauth_credentials(&self) -> Result<Vec<(String, Credentials)>, StoreError> {
        blocking(|| {
            let conn = self.conn.lock();
            let mut stmt =
                conn.prepare("SELECT server, value FROM oauth_credentials ORDER BY server, url")?;
            let rows =
                stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))?;
            rows.map(|row| {
                let (server, json) = row?;
                let creds = decode(&server, &json)?;
                Ok((server, creds))
            })
            .collect()
        })
    }
}

fn decode(server: &str, json: &str) -> Result<Credentials, StoreError> {
    serde_json::from_str(json)
        .map_err(|e| StoreError::Corrupt(format!("OAuth credentials of {server:?}: {e}")))
}

fn store_err(e: StoreError) -> OAuthError {
    OAuthError::Store(e.to_string())
}

impl CredentialStore for Store {
    fn load_credentials(&self, server: &str, url: &str) -> Result<Option<Credentials>, OAuthError> {
        self.oauth_credentials(server, url).map_err(store_err)
    }

    fn save_credentials(&self, server: &str, creds: &Credentials) -> Result<(), OAuthError> {
        self.set_oauth_credentials(server, creds).map_err(store_err)
    }

    fn clear_credentials(&self, server: &str) -> Result<usize, OAuthError> {
        self.clear_oauth_credentials(server).map_err(store_err)
    }

    fn all_credentials(&self) -> Result<Vec<(String, Credentials)>, OAuthError> {
        self.all_oauth_credentials().map_err(store_err)
    }
}

#[cfg(test)]
mod tests {
    use mcplab_protocol::oauth::RegistrationMethod;

    use super::*;
    use mcplab_oauth::{ClientRegistration, TokenSet};

    fn creds(url: &str, token: &str) -> Credentials {
        Credentials {
            server_url: url.into(),
            issuer: Some("https://as.test".into()),
            token_endpoint: "https://as.test/token".into(),
            resource: Some(url.into()),
            client: ClientRegistration::pre("c".into(), Some("s".into())),
            tokens: Some(TokenSet {
                dpop_key: None,
                access_token: token.into(),
                token_type: "Bearer".into(),
                refresh_token: None,
                expires_at_ms: None,
                scope: None,
                obtained_at_ms: 1,
            }),
        }
    }

    #[test]
    fn credentials_are_kept_per_server_and_url_and_cleared_per_server() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("mcplab.db");
        let store = Store::open(&path).unwrap();
        store
            .save_credentials("a", &creds("https://a.test/mcp", "t1"))
            .unwrap();
        store
            .save_credentials("a", &creds("https://a.test/mcp", "t2"))
            .unwrap();
        store
            .save_credentials("a", &creds("https://b.test/mcp", "t3"))
            .unwrap();
        store
            .save_credentials("z", &creds("https://z.test/mcp", "t4"))
            .unwrap();
        drop(store);
        let store = Store::open(&path).unwrap();
        let got = store
            .load_credentials("a", "https://a.test/mcp")
            .unwrap()
            .unwrap();
        assert_eq!(got.tokens.unwrap().access_token, "t2", "replaced in place");
        assert_eq!(got.client.method, RegistrationMethod::Pre);
        assert_eq!(store.all_credentials().unwrap().len(), 3);
        assert_eq!(store.clear_credentials("a").unwrap(), 2);
        assert!(
            store
                .load_credentials("a", "https://a.test/mcp")
                .unwrap()
                .is_none()
        );
        assert_eq!(store.all_credentials().unwrap()[0].0, "z");
    }
}
