//! Settings precedence for the binary: flag, then environment (clap reads `MCPLAB_DATA_DIR`
//! for the flag), then the platform default. This is the only place that looks at the home
//! directory. The Chromium lookup (flag, `MCPLAB_CHROMIUM`, then PATH) lives here too.

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

    /// A data directory at `dir` (tests).
    #[cfg(test)]
    pub fn at(dir: PathBuf) -> Self {
        Self(dir)
    }

    /// The directory itself.
    pub fn dir(&self) -> &Path {
        &self.0
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

/// Names tried on PATH for Chromium, in order.
const CHROMIUM_NAMES: [&str; 4] = [
    "chromium",
    "chromium-browser",
    "google-chrome",
    "google-chrome-stable",
];

/// The Chromium for headless rendering: `--chromium` (clap merges `MCPLAB_CHROMIUM` into the
/// flag), taken as given so a wrong path is reported as such; else the first of
/// [`CHROMIUM_NAMES`] on PATH; else `None`.
pub fn chromium(flag: Option<&Path>) -> Option<PathBuf> {
    if let Some(p) = flag {
        return Some(p.to_owned());
    }
    let path = std::env::var_os("PATH")?;
    CHROMIUM_NAMES.iter().find_map(|name| {
        std::env::split_paths(&path)
            .map(|dir| dir.join(name))
            .find(|candidate| candidate.is_file())
    })
}

/// [`chromium`], or the usage error that says how to get one.
pub fn require_chromium(flag: Option<&Path>) -> Result<PathBuf, Failure> {
    chromium(flag).ok_or_else(|| {
        Failure::usage(format!(
            "Chromium not found on PATH (looked for {}) — install the `chromium` package or \
             pass --chromium PATH (or set MCPLAB_CHROMIUM)",
            CHROMIUM_NAMES.join(", ")
        ))
    })
}
