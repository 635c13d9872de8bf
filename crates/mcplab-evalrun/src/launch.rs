//! What a run will start and drive, said before anything starts: the commands of the servers
//! a suite defines, the remote servers it connects, the configured servers it drives — all
//! with tool approvals off — and the commands its checks run (in the suite's folder). A
//! person agrees to a list once; the agreement is remembered by the list's hash in the store
//! (the data directory), so the same suite does not ask again until what it would start
//! changes.

use mcplab_protocol::evals::{LaunchItem, LaunchKind, LaunchList};
use mcplab_protocol::{ServerConfig, ServerTransport};
use mcplab_store::{Store, StoreError};
use serde_json::Value;

use std::path::Path;

use mcplab_evals::suite::{Check, Suite};

use crate::prepare::Prepared;

/// The pref holding the agreed hashes, newest last.
const TRUSTED_PREF: &str = "evals.trustedLaunches";
/// Agreements kept (the oldest are forgotten first).
const TRUSTED_KEPT: usize = 500;

/// Everything `prepared` would start or drive, in the suite's order.
pub fn launch_list(prepared: &Prepared) -> LaunchList {
    let inline = prepared.loaded.mcp_servers.as_ref();
    let mut items: Vec<LaunchItem> = prepared
        .servers
        .iter()
        .map(|s| server_item(s, inline.is_some_and(|m| m.contains_key(&s.name))))
        .collect();
    items.extend(command_items(&prepared.loaded, &prepared.folder()));
    let canonical = serde_json::to_string(&items).unwrap_or_default();
    let digest = ring::digest::digest(&ring::digest::SHA256, canonical.as_bytes());
    LaunchList {
        items,
        hash: digest.as_ref().iter().map(|b| format!("{b:02x}")).collect(),
    }
}

fn server_item(s: &ServerConfig, from_suite: bool) -> LaunchItem {
    let (kind, detail) = match &s.transport {
        ServerTransport::Stdio {
            command,
            args,
            env,
            cwd,
        } => {
            let mut line = shell_words::join(std::iter::once(command).chain(args));
            if let Some(dir) = cwd {
                line.push_str(&format!(" (in {dir})"));
            }
            if !env.is_empty() {
                let names: Vec<&str> = env.keys().map(String::as_str).collect();
                line.push_str(&format!(" (setting {})", names.join(", ")));
            }
            let kind = if from_suite {
                LaunchKind::SuiteCommand
            } else {
                LaunchKind::Configured
            };
            (kind, line)
        }
        ServerTransport::Http { url, .. } | ServerTransport::Sse { url, .. } => {
            let kind = if from_suite {
                LaunchKind::SuiteUrl
            } else {
                LaunchKind::Configured
            };
            (kind, url.clone())
        }
    };
    LaunchItem {
        name: s.name.clone(),
        kind,
        detail,
    }
}

/// The check commands of the suite, each where it is written, with the folder it runs in.
fn command_items(suite: &Suite, dir: &Path) -> Vec<LaunchItem> {
    let item = |at: String, check: &Check| match check {
        Check::Command(c) => Some(LaunchItem {
            name: at,
            kind: LaunchKind::CheckCommand,
            detail: format!("{} (in {})", c.line(), dir.display()),
        }),
        _ => None,
    };
    let mut out: Vec<LaunchItem> = Vec::new();
    for (i, check) in suite.defaults.checks.iter().enumerate() {
        out.extend(item(format!("defaults.checks[{i}]"), check));
    }
    for (k, case) in suite.cases.iter().enumerate() {
        for (i, check) in case.checks.iter().enumerate() {
            out.extend(item(format!("cases[{k}].checks[{i}] ({})", case.id), check));
        }
    }
    out
}

/// The list as lines a person reads (the CLI prints them; the page shows the same items).
pub fn launch_text(list: &LaunchList) -> String {
    let mut out =
        String::from("This run will (tool approvals off: every tool a model calls runs):\n");
    for item in &list.items {
        let line = match item.kind {
            LaunchKind::SuiteCommand => format!(
                "start `{}` (server `{}`, defined in the suite)",
                item.detail, item.name
            ),
            LaunchKind::SuiteUrl => format!(
                "connect to {} (server `{}`, defined in the suite)",
                item.detail, item.name
            ),
            LaunchKind::Configured => format!(
                "drive the configured server `{}` ({})",
                item.name, item.detail
            ),
            LaunchKind::CheckCommand => format!(
                "run `{}` on each iteration's trace (check at {})",
                item.detail, item.name
            ),
        };
        out.push_str(&format!("  - {line}\n"));
    }
    out
}

/// Whether the person agreed to this list before.
pub fn is_trusted(store: &Store, hash: &str) -> Result<bool, StoreError> {
    Ok(trusted(store)?.iter().any(|h| h == hash))
}

/// Remembers that the person agreed to this list.
pub fn remember_trusted(store: &Store, hash: &str) -> Result<(), StoreError> {
    let mut all = trusted(store)?;
    all.retain(|h| h != hash);
    all.push(hash.to_owned());
    let skip = all.len().saturating_sub(TRUSTED_KEPT);
    let kept: Vec<Value> = all.into_iter().skip(skip).map(Value::String).collect();
    store.set_pref(TRUSTED_PREF, &Value::Array(kept))
}

fn trusted(store: &Store) -> Result<Vec<String>, StoreError> {
    Ok(store
        .prefs()?
        .get(TRUSTED_PREF)
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default())
}
