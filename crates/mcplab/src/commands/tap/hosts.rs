//! `mcplab servers tap|untap NAME --for HOST`: finds the host's config file (the home
//! directory and `%APPDATA%` are read here, in the binary), keeps a backup of it before the
//! first rewrite (`FILE.mcplab-backup`, restored from by `untap` and removed when no entry
//! goes through the tap any more), and writes the rewritten text atomically with the file's
//! permissions. The rewrite itself is `mcplab_tap::hosts`'. The current directory names the
//! project whose Claude Code entries are looked at.

use std::path::{Path, PathBuf};

use mcplab_tap::hosts::{
    EntryAt, HostApp, HostDirs, Os, any_tapped, same_document, tap_entry, untap_entry,
};

use crate::cli::tap::{HostArg, HostEntryArgs};
use crate::failure::Failure;

pub fn rewrite(args: HostEntryArgs, tap: bool) -> Result<(), Failure> {
    let app = app(args.host);
    let path = match args.file {
        Some(p) => p,
        None => default_file(app)?,
    };
    let text = std::fs::read_to_string(&path).map_err(|e| {
        Failure::usage(format!(
            "cannot read {} ({e}); pass the host's config file with --file PATH",
            path.display()
        ))
    })?;
    let exe = std::env::current_exe()
        .map_err(|e| Failure::usage(format!("cannot find the mcplab binary: {e}")))?;
    let exe = exe.display().to_string();
    let backup = backup_of(&path);
    let project = std::env::current_dir()
        .ok()
        .map(|d| d.display().to_string());
    let at = EntryAt {
        key: app.servers_key(),
        name: &args.name,
        project: project.as_deref(),
    };
    let fail =
        |e: mcplab_tap::hosts::HostsError| Failure::usage(format!("{}: {e}", path.display()));
    if tap {
        let new = tap_entry(&text, &at, &exe).map_err(fail)?;
        if !backup.exists() {
            std::fs::copy(&path, &backup).map_err(|e| io(&backup, e))?;
        }
        write(&path, &new)?;
        eprintln!(
            "`{}` in {} now starts through `mcplab tap` (backup: {}); restart the host to use it",
            args.name,
            path.display(),
            backup.display()
        );
    } else {
        let original = std::fs::read_to_string(&backup).ok();
        let mut new = untap_entry(&text, &at, &exe, original.as_deref()).map_err(fail)?;
        // Nothing else changed since the tap: the file's own text (comments, layout) returns.
        if let Some(original) = original.filter(|o| same_document(o, &new)) {
            new = original;
        }
        write(&path, &new)?;
        if !any_tapped(&new, at.key, &exe) {
            let _ = std::fs::remove_file(&backup);
        }
        eprintln!(
            "`{}` in {} is as it was; restart the host",
            args.name,
            path.display()
        );
    }
    Ok(())
}

fn app(host: HostArg) -> HostApp {
    match host {
        HostArg::Claude => HostApp::Claude,
        HostArg::ClaudeCode => HostApp::ClaudeCode,
        HostArg::Cursor => HostApp::Cursor,
        HostArg::Vscode => HostApp::Vscode,
        HostArg::Windsurf => HostApp::Windsurf,
        HostArg::Gemini => HostApp::Gemini,
    }
}

fn default_file(app: HostApp) -> Result<PathBuf, Failure> {
    let home = directories::BaseDirs::new()
        .map(|d| d.home_dir().to_owned())
        .ok_or_else(|| Failure::usage("no home directory: pass the config file with --file"))?;
    let os = if cfg!(target_os = "macos") {
        Os::Macos
    } else if cfg!(windows) {
        Os::Windows
    } else {
        Os::Linux
    };
    let dirs = HostDirs {
        os,
        home,
        appdata: std::env::var_os("APPDATA").map(PathBuf::from),
        xdg_config_home: std::env::var_os("XDG_CONFIG_HOME")
            .map(PathBuf::from)
            .filter(|p| p.is_absolute()),
        claude_config_dir: std::env::var_os("CLAUDE_CONFIG_DIR").map(PathBuf::from),
    };
    Ok(app.config_file(&dirs))
}

fn backup_of(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".mcplab-backup");
    PathBuf::from(name)
}

/// Replaces `path` with `text` at once, keeping its permissions.
fn write(path: &Path, text: &str) -> Result<(), Failure> {
    use std::io::Write;
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut file = tempfile::NamedTempFile::new_in(dir).map_err(|e| io(path, e))?;
    file.write_all(text.as_bytes()).map_err(|e| io(path, e))?;
    if let Ok(meta) = std::fs::metadata(path) {
        let _ = file.as_file().set_permissions(meta.permissions());
    }
    file.persist(path).map_err(|e| io(path, e.error))?;
    Ok(())
}

fn io(path: &Path, e: std::io::Error) -> Failure {
    Failure::usage(format!("cannot write {}: {e}", path.display()))
}
