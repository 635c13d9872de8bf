//! The config file in the data directory (`mcp.json`, `mcpServers` format). Every change is
//! written to a temporary file and renamed into place, so a crash never leaves half a file,
//! and a failed import changes nothing.

use std::path::{Path, PathBuf};

use mcplab_protocol::ServerConfig;

use super::ConfigError;
use super::format::{parse_mcp_servers, render_mcp_servers, validate_name};

pub struct ConfigFile {
    path: PathBuf,
}

impl ConfigFile {
    pub fn new(path: impl Into<PathBuf>) -> Self {
        Self { path: path.into() }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// All configured servers; a missing file is an empty config.
    pub fn load(&self) -> Result<Vec<ServerConfig>, ConfigError> {
        match std::fs::read_to_string(&self.path) {
            Ok(text) => parse_mcp_servers(&text, &self.path.display().to_string()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
            Err(source) => Err(ConfigError::Read {
                path: self.path.display().to_string(),
                source,
            }),
        }
    }

    /// The server called `name`.
    pub fn get(&self, name: &str) -> Result<ServerConfig, ConfigError> {
        self.load()?
            .into_iter()
            .find(|s| s.name == name)
            .ok_or_else(|| ConfigError::UnknownServer(name.to_owned()))
    }

    /// Adds or replaces one server; returns whether it replaced one.
    pub fn upsert(&self, server: ServerConfig) -> Result<bool, ConfigError> {
        validate_name(&server.name)?;
        let mut all = self.load()?;
        let replaced = match all.iter_mut().find(|s| s.name == server.name) {
            Some(existing) => {
                *existing = server;
                true
            }
            None => {
                all.push(server);
                false
            }
        };
        self.save(&all)?;
        Ok(replaced)
    }

    /// Removes one server.
    pub fn remove(&self, name: &str) -> Result<(), ConfigError> {
        let mut all = self.load()?;
        let before = all.len();
        all.retain(|s| s.name != name);
        if all.len() == before {
            return Err(ConfigError::UnknownServer(name.to_owned()));
        }
        self.save(&all)
    }

    /// Merges the servers of another host's config file; returns (added, replaced) names.
    /// The file is parsed completely before anything is written.
    pub fn import(&self, path: &Path) -> Result<(Vec<String>, Vec<String>), ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
            path: path.display().to_string(),
            source,
        })?;
        let incoming = parse_mcp_servers(&text, &path.display().to_string())?;
        let mut all = self.load()?;
        let (mut added, mut replaced) = (Vec::new(), Vec::new());
        for server in incoming {
            match all.iter_mut().find(|s| s.name == server.name) {
                Some(existing) => {
                    replaced.push(server.name.clone());
                    *existing = server;
                }
                None => {
                    added.push(server.name.clone());
                    all.push(server);
                }
            }
        }
        self.save(&all)?;
        Ok((added, replaced))
    }

    fn save(&self, servers: &[ServerConfig]) -> Result<(), ConfigError> {
        let write_err = |source| ConfigError::Write {
            path: self.path.display().to_string(),
            source,
        };
        if let Some(dir) = self.path.parent() {
            std::fs::create_dir_all(dir).map_err(write_err)?;
        }
        let mut text = serde_json::to_string_pretty(&render_mcp_servers(servers))
            .map_err(|e| write_err(std::io::Error::other(e)))?;
        text.push('\n');
        let tmp = self.path.with_extension("json.tmp");
        std::fs::write(&tmp, text).map_err(write_err)?;
        std::fs::rename(&tmp, &self.path).map_err(write_err)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcplab_protocol::ServerTransport;

    fn stdio(name: &str) -> ServerConfig {
        ServerConfig {
            name: name.into(),
            transport: ServerTransport::Stdio {
                command: "x".into(),
                args: vec![],
                env: Default::default(),
                cwd: None,
            },
            timeout_ms: None,
        }
    }

    #[test]
    fn upsert_remove_and_failed_import_changes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let file = ConfigFile::new(dir.path().join("mcp.json"));
        assert!(file.load().unwrap().is_empty());
        assert!(!file.upsert(stdio("a")).unwrap());
        assert!(file.upsert(stdio("a")).unwrap());
        file.upsert(stdio("b")).unwrap();
        let before = std::fs::read_to_string(file.path()).unwrap();
        let bad = dir.path().join("bad.json");
        std::fs::write(&bad, "{\"mcpServers\": {\"c\": {\"command\": 3}}}").unwrap();
        assert!(file.import(&bad).is_err());
        assert_eq!(std::fs::read_to_string(file.path()).unwrap(), before);
        let good = dir.path().join("good.json");
        std::fs::write(&good, "{\"mcpServers\": {\"b\": {\"url\": \"http://127.0.0.1:1/mcp\"}, \"c\": {\"command\": \"y\"}}}").unwrap();
        let (added, replaced) = file.import(&good).unwrap();
        assert_eq!(
            (added, replaced),
            (vec!["c".to_owned()], vec!["b".to_owned()])
        );
        file.remove("a").unwrap();
        assert!(matches!(
            file.remove("a"),
            Err(ConfigError::UnknownServer(_))
        ));
        let names: Vec<_> = file.load().unwrap().into_iter().map(|s| s.name).collect();
        assert_eq!(names, ["b", "c"]);
        assert!(matches!(
            file.upsert(stdio("bad name")),
            Err(ConfigError::BadName(_))
        ));
    }
}
