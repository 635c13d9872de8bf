//! Settings precedence for the binary: flag, then environment (clap reads `MCPLAB_DATA_DIR`
//! for the flag), then the platform default. This is the only place that looks at the home
//! directory.

use std::path::{Path, PathBuf};

use mcplab_core::store::Store;

use crate::failure::Failure;

/// Where mcplab keeps its data.
pub struct DataDir(PathBuf);

impl DataDir {
    /// Resolves the data directory: `flag` (already merged with the env var by clap) or the
    /// platform default.
    pub fn resolve(flag: Option<&Path>) -> Result<Self, Failure> {
        if let Some(p) = flag {
            return Ok(Self(p.to_owned()));
        }
        platform_default().map(Self).ok_or_else(|| {
            Failure::usage(
                "cannot find a data directory (no HOME); pass --data-dir DIR or set MCPLAB_DATA_DIR",
            )
        })
    }

    /// The SQLite file holding server configs, settings and UI preferences.
    pub fn store_path(&self) -> PathBuf {
        self.0.join("mcplab.db")
    }

    /// Opens (creating on first use) the store.
    pub fn store(&self) -> Result<Store, Failure> {
        Store::open(&self.store_path()).map_err(|e| Failure::usage(e.to_string()))
    }
}

fn platform_default() -> Option<PathBuf> {
    let home = std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from);
    if cfg!(target_os = "macos") {
        return home.map(|h| h.join("Library/Application Support/mcplab"));
    }
    if let Some(xdg) = std::env::var_os("XDG_DATA_HOME").filter(|x| !x.is_empty()) {
        return Some(PathBuf::from(xdg).join("mcplab"));
    }
    home.map(|h| h.join(".local/share/mcplab"))
}
