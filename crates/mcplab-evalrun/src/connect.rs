//! The run's servers connected before anything runs, once per host declaration (a server
//! sees what each host declares, and may list different tools to each), each server's
//! `tools/list` read under every declaration, and the tools the suite names checked against
//! those lists: a misspelled tool is a suite error (its line, "did you mean"), found before any
//! model is called. `eval run --check-only` stops here.

use std::collections::BTreeMap;
use std::sync::Arc;

use mcplab_evals::run::Unit;
use mcplab_evals::suite::{Catalog, locate_problems, tool_refs, unknown_tools};
use mcplab_mcp::{Connection, ConnectionManager, Listing};
use mcplab_protocol::ServerConfig;
use mcplab_protocol::host::ClientDeclaration;
use serde_json::Value;

use crate::prepare::Prepared;
use crate::replay::{RunRecording, ServerRecording};
use crate::runner::RunError;
use crate::servers::ServerHealth;

/// The servers connected under every declaration the run uses.
pub(crate) struct Connected {
    pub healths: Vec<ServerHealth>,
    /// Each server's tools under the first declaration (what iterations consult for UIs).
    pub tools: BTreeMap<String, Vec<Value>>,
    pub recording: RunRecording,
    /// Every declaration's tool names, for the check.
    pub catalogs: Vec<Catalog>,
}

/// What `check_tools` looked at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolCheck {
    /// Tool names in the suite.
    pub names: usize,
    pub servers: usize,
    /// Host declarations the servers were listed under.
    pub hosts: usize,
}

/// Connects every server of `prepared` under each declaration `units` run with (through
/// `manager` for its own declaration, a sibling manager for each other) and lists its tools.
pub(crate) async fn connect_all(
    manager: &Arc<ConnectionManager>,
    prepared: &Prepared,
    units: &[Unit],
) -> Result<Connected, RunError> {
    let names: Vec<String> = prepared.servers.iter().map(|s| s.name.clone()).collect();
    let mut out = Connected {
        healths: Vec::new(),
        tools: BTreeMap::new(),
        recording: RunRecording::default(),
        catalogs: Vec::new(),
    };
    for client in declarations(prepared, units) {
        let host = host_named(prepared, &client);
        let manager = if &client == manager.client() {
            manager.clone()
        } else {
            manager.sibling(client)
        };
        let first = out.healths.is_empty();
        let mut catalog = Catalog {
            host,
            servers: BTreeMap::new(),
        };
        for config in &prepared.servers {
            let conn = connect(&manager, config).await?;
            let list = list_tools(&conn, &config.name).await?;
            catalog
                .servers
                .insert(config.name.clone(), tool_names(&list));
            if first {
                out.recording.servers.insert(
                    config.name.clone(),
                    ServerRecording {
                        initialize: conn.initialize_result().clone(),
                        tools: list.clone(),
                    },
                );
                out.tools.insert(config.name.clone(), list);
            }
        }
        out.catalogs.push(catalog);
        out.healths.push(ServerHealth::new(manager, names.clone()));
    }
    Ok(out)
}

/// Connects, lists and checks, then disconnects: `eval run --check-only`. Every host of the
/// suite is checked (the whole plan, every model).
pub async fn check_only(
    manager: &Arc<ConnectionManager>,
    prepared: &Prepared,
) -> Result<ToolCheck, RunError> {
    let plan = mcplab_evals::run::plan(&mcplab_evals::run::resolved_cases(&prepared.suite));
    let connected = connect_all(manager, prepared, &plan).await?;
    let checked = check_tools(prepared, &connected.catalogs);
    for health in &connected.healths {
        for s in &prepared.servers {
            health.manager().disconnect(&s.name).await;
        }
    }
    checked
}

/// The tools the suite names, against every declaration's lists. `Err` is a suite error:
/// each unknown name at its line, with the nearest listed name.
pub fn check_tools(prepared: &Prepared, catalogs: &[Catalog]) -> Result<ToolCheck, RunError> {
    // The expanded cases (a dataset's placeholders filled in), placed at the file's case.
    let mut refs = tool_refs(&prepared.suite);
    for r in &mut refs {
        r.pointer = in_file(&r.pointer, &prepared.origins);
    }
    let mut problems = unknown_tools(&refs, catalogs);
    problems.dedup();
    if !problems.is_empty() {
        let errors = locate_problems(prepared.text.as_deref(), problems);
        let file = prepared.source.as_deref().unwrap_or("the suite");
        let n = errors.0.len();
        let mut message = format!(
            "{n} name{} in {file} that the servers do not have (nothing was run):",
            if n == 1 { "" } else { "s" }
        );
        for e in &errors.0 {
            let at = e
                .position
                .map(|p| format!("{file}:{}:{}: ", p.line, p.column))
                .unwrap_or_default();
            message.push_str(&format!("\n  {at}{}: {}", e.path, e.message));
        }
        return Err(RunError::Suite(message));
    }
    Ok(ToolCheck {
        names: refs.len(),
        servers: prepared.servers.len(),
        hosts: catalogs.len(),
    })
}

/// `/cases/<k>/…` of the expanded suite as the file's `/cases/<origin>/…`.
fn in_file(pointer: &str, origins: &[usize]) -> String {
    let Some(rest) = pointer.strip_prefix("/cases/") else {
        return pointer.to_owned();
    };
    let (k, tail) = rest.split_once('/').unwrap_or((rest, ""));
    match k.parse::<usize>().ok().and_then(|k| origins.get(k)) {
        Some(origin) if tail.is_empty() => format!("/cases/{origin}"),
        Some(origin) => format!("/cases/{origin}/{tail}"),
        None => pointer.to_owned(),
    }
}

/// The names in a `tools/list` result's `tools`.
pub(crate) fn tool_names(tools: &[Value]) -> Vec<String> {
    tools
        .iter()
        .filter_map(|t| t.get("name").and_then(Value::as_str))
        .map(str::to_owned)
        .collect()
}

/// The host profile a declaration belongs to (`None`: the suite's own host).
fn host_named(prepared: &Prepared, client: &ClientDeclaration) -> Option<String> {
    prepared
        .suite
        .hosts
        .iter()
        .find(|h| prepared.hosts.get(*h).is_some_and(|c| &c.client == client))
        .cloned()
}

/// The client declarations the run's units connect with, each once, in plan order (a unit
/// without a host runs under the suite's host).
fn declarations(prepared: &Prepared, units: &[Unit]) -> Vec<ClientDeclaration> {
    let mut out: Vec<ClientDeclaration> = Vec::new();
    for unit in units {
        let (_, host) = mcplab_evals::run::model_and_host(&unit.model);
        let config = host
            .and_then(|h| prepared.hosts.get(h))
            .unwrap_or(&prepared.host);
        if !out.contains(&config.client) {
            out.push(config.client.clone());
        }
    }
    if out.is_empty() {
        out.push(prepared.host.client.clone());
    }
    out
}

async fn connect(
    manager: &Arc<ConnectionManager>,
    config: &ServerConfig,
) -> Result<Arc<Connection>, RunError> {
    manager.connect(config.clone()).await.map_err(|e| {
        RunError::Servers(format!(
            "server `{}` could not be reached: {e}",
            config.name
        ))
    })
}

async fn list_tools(conn: &Connection, name: &str) -> Result<Vec<Value>, RunError> {
    let listed = conn
        .list_all(Listing::Tools, Default::default())
        .await
        .map_err(|e| RunError::Servers(format!("server `{name}`: tools/list failed: {e}")))?;
    Ok(listed["tools"].as_array().cloned().unwrap_or_default())
}
