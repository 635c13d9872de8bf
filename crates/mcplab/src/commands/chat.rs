//! `mcplab chat`: one turn (or, with `-i`, a conversation) with an LLM that may call the
//! connected servers' tools, run by the same session runtime as the web's Chat page under a
//! HostConfig built from the flags (over `--host-config FILE`). Events stream to the terminal
//! (or as JSON Lines with `--json`), server requests are answered as in every CLI command, and
//! Ctrl-C cancels the turn. `--save` keeps the session in the data directory's store, so it
//! shows up in the browser; otherwise it lives in memory for this run.

use std::collections::{BTreeMap, HashMap};
use std::io::{BufRead, IsTerminal, Write};
use std::sync::Arc;

use mcplab_core::agent::EventSink;
use mcplab_core::session::{LlmSettings, SessionHub, Submitted, host};
use mcplab_llm::ProviderSettings;
use mcplab_protocol::chat::{NewSession, TurnEvent, TurnRequest};
use mcplab_protocol::host::{ApprovalMode, ElicitationMode, HostConfig};
use mcplab_store::Store;

use crate::cli::{self, ChatArgs};
use crate::failure::{EXIT_CALL, EXIT_INTERRUPTED, Failure};
use crate::output::chat::{ApprovingSink, JsonLinesSink, TerminalSink};
use crate::output::outln;
use crate::session::Session;
use crate::settings::{DataDir, Settings};
use crate::target;

mod compare;
mod prices;

pub async fn run(args: ChatArgs, global: &Settings, data: &DataDir) -> Result<(), Failure> {
    if args.print_prices {
        return prices::print(data.dir(), global.json);
    }
    let targets = target::resolve_many(&global.target, data)?;
    let host = host_config(&args, global, &targets, data)?;
    if args.print_host_config {
        return print_host_config(&host, global.json);
    }
    if args.prompt.is_none() && !args.interactive {
        return Err(Failure::usage(
            "give a prompt, or -i for an interactive chat",
        ));
    }
    if host.model.is_empty() {
        return Err(Failure::usage(
            "choose a model: --model provider::model (or `model` in --host-config)",
        ));
    }
    let columns = compare::columns(&args, &host, data)?;
    // Stored providers (Settings) are used with or without --save; a missing store is fine.
    let saved_settings = data.store().ok().map(Arc::new);
    let llm = llm_settings(saved_settings.as_deref());
    for (_, column) in &columns {
        llm.provider_for(saved_settings.as_deref(), &column.model)
            .map_err(|e| Failure::usage(e.to_string()))?;
    }
    let sessions = if args.save {
        saved_settings.clone().ok_or_else(|| {
            Failure::usage("--save needs the data directory's store, which could not be opened")
        })?
    } else {
        Arc::new(Store::open_in_memory().map_err(|e| Failure::usage(e.to_string()))?)
    };
    let configs = servers_to_connect(&host, targets, data)?;
    let mut global = global.clone();
    global.elicitation = cli_elicitation(host.elicitation.mode).or(global.elicitation);
    let session = Session::open_as(&global, configs, host.client.clone()).await?;
    let hub = Arc::new(
        SessionHub::new(sessions, session.manager().clone(), llm)
            .with_provider_store(saved_settings),
    );
    hub.set_prices(Arc::new(prices::effective(data.dir())?.table));
    let otlp = crate::otlp::start(args.otlp.otlp.as_deref())?;
    if let Some(exporter) = &otlp {
        let switch = mcplab_server::otlp::OtlpSwitch::exporting(exporter.clone());
        hub.set_turn_observer(Some(Arc::new(switch)));
    }
    let result = if args.compare {
        compare::run(&args, &global, &session, &hub, columns).await
    } else {
        converse(&args, &global, &session, &hub, host).await
    };
    session.close().await;
    crate::otlp::finish(otlp).await;
    result
}

/// The HostConfig of this run: `--host NAME`'s profile or `--host-config` (or the defaults),
/// then the flags on top.
fn host_config(
    args: &ChatArgs,
    global: &Settings,
    targets: &[mcplab_protocol::ServerConfig],
    data: &DataDir,
) -> Result<HostConfig, Failure> {
    let mut host = match (&args.host_config, args.host_profile.first()) {
        (Some(path), _) => read_host_config(path)?,
        (None, Some(name)) => {
            let all = super::hosts::load(data)?;
            super::hosts::require(&all, name)?.host_config.clone()
        }
        (None, None) => HostConfig::default(),
    };
    if let Some(m) = args.model.first() {
        host.model.clone_from(m);
    }
    if let Some(s) = &args.system {
        host.system_prompt.clone_from(s);
    }
    host.temperature = args.temperature.or(host.temperature);
    host.max_tokens = args.max_tokens.or(host.max_tokens);
    host.step_limit = args.max_steps.unwrap_or(host.step_limit);
    if args.approve {
        host.approval.mode = ApprovalMode::Always;
    }
    if let Some(mode) = global.elicitation {
        host.elicitation.mode = host_elicitation(mode);
    }
    // The target flags name the servers; each keeps its filter from the file.
    if !targets.is_empty() {
        let filters = std::mem::take(&mut host.servers);
        host.servers = targets
            .iter()
            .map(|c| {
                (
                    c.name.clone(),
                    filters.get(&c.name).cloned().unwrap_or_default(),
                )
            })
            .collect::<BTreeMap<_, _>>();
    }
    host::check(&host).map_err(|e| Failure::usage(e.to_string()))?;
    Ok(host::normalized(&host))
}

/// A `--host-config` file: a HostConfig (JSON or YAML) or a host profile file (its config).
pub(crate) fn read_host_config(path: &std::path::Path) -> Result<HostConfig, Failure> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        Failure::usage(format!(
            "cannot read the host config {}: {e}",
            path.display()
        ))
    })?;
    if mcplab_core::session::profiles::is_profile_text(&text) {
        let origin = path.display().to_string();
        return mcplab_core::session::profiles::parse_profile(&text, &origin, false)
            .map(|p| p.host_config)
            .map_err(|e| Failure::usage(e.to_string()));
    }
    host::parse(&text).map_err(|e| Failure::usage(format!("{}: {e}", path.display())))
}

fn print_host_config(host: &HostConfig, json: bool) -> Result<(), Failure> {
    let view = host::view(host);
    if json {
        outln!("{}", serde_json::to_string(&view).unwrap_or_default());
    } else {
        outln!("{}", view.canonical);
        eprintln!("host config sha256 {}", view.hash);
    }
    Ok(())
}

/// The target servers, or (without target flags) the host config's servers by configured name.
fn servers_to_connect(
    host: &HostConfig,
    targets: Vec<mcplab_protocol::ServerConfig>,
    data: &DataDir,
) -> Result<Vec<mcplab_protocol::ServerConfig>, Failure> {
    if !targets.is_empty() || host.servers.is_empty() {
        return Ok(targets);
    }
    let names = cli::TargetArgs {
        servers: host.servers.keys().cloned().collect(),
        ..cli::TargetArgs::default()
    };
    target::resolve_many(&names, data)
}

/// Provider settings from the environment; stored ones that cannot be used are reported.
fn llm_settings(stored: Option<&Store>) -> LlmSettings {
    let env: HashMap<String, String> = std::env::vars().collect();
    let settings = LlmSettings::new(ProviderSettings::from_vars(&env));
    for (config, problem) in settings.merged(stored).1 {
        eprintln!("ignoring stored provider `{}`: {problem}", config.id);
    }
    settings
}

fn host_elicitation(mode: cli::ElicitationMode) -> ElicitationMode {
    match mode {
        cli::ElicitationMode::Ask => ElicitationMode::Ask,
        cli::ElicitationMode::AcceptDefaults => ElicitationMode::AcceptDefaults,
        cli::ElicitationMode::Decline => ElicitationMode::Decline,
        cli::ElicitationMode::Cancel => ElicitationMode::Cancel,
    }
}

/// The terminal answerer's mode for a host policy (`None`: ask on a terminal, as always).
fn cli_elicitation(mode: ElicitationMode) -> Option<cli::ElicitationMode> {
    match mode {
        ElicitationMode::Ask => None,
        ElicitationMode::AcceptDefaults => Some(cli::ElicitationMode::AcceptDefaults),
        ElicitationMode::Decline => Some(cli::ElicitationMode::Decline),
        ElicitationMode::Cancel => Some(cli::ElicitationMode::Cancel),
    }
}

async fn converse(
    args: &ChatArgs,
    global: &Settings,
    session: &Session,
    hub: &Arc<SessionHub>,
    host: HostConfig,
) -> Result<(), Failure> {
    let created = hub
        .create(NewSession {
            title: None,
            host_config: Some(host),
            settings: None,
        })
        .map_err(|e| Failure::usage(e.to_string()))?;
    let id = created.summary.id;
    if args.save {
        eprintln!("saved as chat session {id} (the browser's Chat page lists it)");
    }
    let printer: Arc<dyn EventSink> = if global.json {
        Arc::new(JsonLinesSink)
    } else {
        Arc::new(TerminalSink::new(args.xray))
    };
    let asks = created.summary.host_config.approval.mode == ApprovalMode::Always;
    let sink: Arc<dyn EventSink> = if asks {
        Arc::new(ApprovingSink {
            inner: printer,
            approvals: hub.runtime(&id).approvals.clone(),
        })
    } else {
        printer
    };
    let mut next = args.prompt.clone();
    let mut turn_no = 0u32;
    loop {
        let prompt = match next.take() {
            Some(p) => p,
            None if args.interactive => match read_prompt() {
                Some(p) => p,
                None => return Ok(()),
            },
            None => return Ok(()),
        };
        turn_no += 1;
        let turn_id = format!("turn-{turn_no}");
        let req = TurnRequest {
            turn_id: turn_id.clone(),
            message: prompt,
            replaces: None,
        };
        let task = match hub.submit(&id, req, Some(sink.clone())) {
            Ok(Submitted::Started(task)) => task,
            Ok(Submitted::Duplicate) => continue,
            Err(e) => return Err(Failure::usage(e.to_string())),
        };
        // Ctrl-C cancels this turn.
        let watcher = {
            let (interrupted, hub, id, turn) = (
                session.interrupted.clone(),
                hub.clone(),
                id.clone(),
                turn_id.clone(),
            );
            tokio::spawn(async move {
                interrupted.cancelled().await;
                hub.cancel(&id, &turn);
            })
        };
        let terminal = task.finished().await;
        watcher.abort();
        match terminal {
            Some(TurnEvent::TurnCancelled { .. }) => {
                return Err(Failure::silent(EXIT_INTERRUPTED));
            }
            Some(TurnEvent::TurnFailed { .. }) | None if !args.interactive => {
                return Err(Failure::silent(EXIT_CALL));
            }
            _ => {}
        }
        if !args.interactive {
            return Ok(());
        }
    }
}

/// Reads the next message; `None` on EOF, an empty line or `/exit`.
fn read_prompt() -> Option<String> {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        eprint!("you> ");
        let _ = std::io::stderr().flush();
    }
    let mut line = String::new();
    match stdin.lock().read_line(&mut line) {
        Ok(0) | Err(_) => None,
        Ok(_) => {
            let t = line.trim();
            if t.is_empty() || t == "/exit" {
                None
            } else {
                Some(t.to_owned())
            }
        }
    }
}
