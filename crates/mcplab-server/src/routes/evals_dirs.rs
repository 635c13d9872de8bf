//! `GET /api/evals/dirs?path=`: the Evals folder picker's listing — the directories directly
//! inside one directory under the person's home (`AppState::home_dir`, set by the binary), and
//! how many suite files it holds. Nothing outside the home is listed: the path is resolved
//! (`..` and symlinks included) and refused unless it is the home or inside it; symlinked
//! directories are not offered as children. Setting the folder stays `PUT /api/evals/folder`.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use axum::Json;
use axum::extract::{Query, State};
use mcplab_protocol::evals::DirListing;
use serde::Deserialize;

use crate::AppState;
use crate::error::ApiFailure;

/// Directories listed at most (a home with more children is cut, said by `truncated`).
const MAX_DIRS: usize = 1000;

#[derive(Debug, Deserialize)]
pub(super) struct DirsQuery {
    /// Absolute, or relative to the home; the home when absent or empty.
    path: Option<String>,
}

/// `GET /api/evals/dirs?path=`.
pub(super) async fn list_dirs(
    State(app): State<Arc<AppState>>,
    Query(q): Query<DirsQuery>,
) -> Result<Json<DirListing>, ApiFailure> {
    let home = app.home_dir.get().ok_or_else(|| {
        ApiFailure::bad_request(
            "mcplab does not know your home directory (HOME is not set): type the folder's \
             absolute path instead",
        )
    })?;
    let asked = q.path.as_deref().map(str::trim).filter(|p| !p.is_empty());
    listing(home, asked).map(Json)
}

/// The listing of `asked` (the home when `None`), refused outside the home.
fn listing(home: &Path, asked: Option<&str>) -> Result<DirListing, ApiFailure> {
    let home = home.canonicalize().map_err(|e| {
        ApiFailure::bad_request(format!("your home directory {}: {e}", home.display()))
    })?;
    let target = asked.map_or_else(|| home.clone(), |p| home.join(p));
    let dir = target
        .canonicalize()
        .map_err(|e| ApiFailure::bad_request(format!("{}: {e}", target.display())))?;
    if !dir.starts_with(&home) {
        return Err(ApiFailure::bad_request(format!(
            "{} is outside your home directory ({}): the picker lists folders inside it only; \
             type an absolute path to use another folder",
            dir.display(),
            home.display()
        )));
    }
    if !dir.is_dir() {
        return Err(ApiFailure::bad_request(format!(
            "{} is not a directory",
            dir.display()
        )));
    }
    let (mut dirs, suites) = children(&dir)?;
    dirs.sort_by_key(|d| d.to_lowercase());
    let truncated = dirs.len() > MAX_DIRS;
    dirs.truncate(MAX_DIRS);
    let parent = (dir != home)
        .then(|| dir.parent().map(PathBuf::from))
        .flatten();
    Ok(DirListing {
        home: home.to_string_lossy().into_owned(),
        path: dir.to_string_lossy().into_owned(),
        parent: parent.map(|p| p.to_string_lossy().into_owned()),
        dirs,
        suites,
        truncated,
    })
}

/// The visible subdirectories (not symlinks, not dot directories, UTF-8 names) and the count
/// of suite files directly in `dir`.
fn children(dir: &Path) -> Result<(Vec<String>, u32), ApiFailure> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| ApiFailure::bad_request(format!("cannot read {}: {e}", dir.display())))?;
    let (mut dirs, mut suites) = (Vec::new(), 0u32);
    for entry in entries.flatten() {
        let Some(name) = entry.file_name().to_str().map(str::to_owned) else {
            continue;
        };
        if name.starts_with('.') {
            continue;
        }
        // `DirEntry::file_type` does not follow symlinks: a link is neither.
        match entry.file_type() {
            Ok(t) if t.is_dir() => dirs.push(name),
            Ok(t) if t.is_file() && is_suite_name(&name) => suites += 1,
            _ => {}
        }
    }
    Ok((dirs, suites))
}

fn is_suite_name(name: &str) -> bool {
    [".yaml", ".yml", ".json"].iter().any(|e| name.ends_with(e))
}
