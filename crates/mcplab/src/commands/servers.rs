//! `mcplab servers list|add|remove|import|export`: edits the configured servers in the data
//! directory's store (`export --for AGENT` prints a coding agent's `mcplab mcp` entry instead). An import is read completely before anything is written, so a file
//! that cannot be read changes nothing; entries it cannot use are skipped with a warning.

use mcplab_core::config::{import_mcp_servers, parse_mcp_servers, render_mcp_servers};

use super::agent_config;
use crate::cli::{ExportArgs, ServersCmd};
use crate::failure::Failure;
use crate::output;
use crate::settings::Settings;
use crate::target;

fn store_err(e: mcplab_store::StoreError) -> Failure {
    Failure::usage(e.to_string())
}

pub fn run(cmd: ServersCmd, settings: &Settings) -> Result<(), Failure> {
    match cmd {
        ServersCmd::Export(ExportArgs {
            agent: Some(agent),
            allow_commands,
            allow_urls,
        }) => {
            let args = agent_config::mcp_args(&allow_commands, &allow_urls);
            eprintln!("# {}", agent.place());
            crate::output::out!("{}", agent_config::snippet(agent, &args));
            return Ok(());
        }
        ServersCmd::Tap(args) => return super::tap::hosts::rewrite(args, true),
        ServersCmd::Untap(args) => return super::tap::hosts::rewrite(args, false),
        _ => {}
    }
    let data = &settings.data;
    let store = data.store()?;
    match cmd {
        ServersCmd::List => {
            let servers = store.servers().map_err(store_err)?;
            if settings.json {
                crate::output::outln!("{}", output::json(&render_mcp_servers(&servers)));
            } else if servers.is_empty() {
                crate::output::outln!(
                    "no servers configured (add one with `mcplab servers add NAME --stdio \"cmd\"`)"
                );
            } else {
                let rows: Vec<Vec<String>> = servers
                    .iter()
                    .map(|s| {
                        vec![
                            s.name.clone(),
                            s.transport.kind().to_owned(),
                            s.transport.describe(),
                        ]
                    })
                    .collect();
                crate::output::out!("{}", output::table(&["name", "transport", "target"], &rows));
            }
            Ok(())
        }
        ServersCmd::Add { name, .. } => {
            let config = target::ad_hoc(&settings.target, &name)?.ok_or_else(|| {
                Failure::usage("give the server as --stdio \"cmd args…\", --url URL or --demo")
            })?;
            // Validate exactly as a config file would be.
            let doc = render_mcp_servers(std::slice::from_ref(&config)).to_string();
            parse_mcp_servers(&doc, "the new server").map_err(Failure::config)?;
            let replaced = store.upsert_server(&config).map_err(store_err)?;
            eprintln!("{} `{name}`", if replaced { "replaced" } else { "added" });
            Ok(())
        }
        ServersCmd::Remove { name } => {
            store.delete_server(&name).map_err(store_err)?;
            store.clear_oauth_credentials(&name).map_err(store_err)?;
            eprintln!("removed `{name}`");
            Ok(())
        }
        ServersCmd::Import { file } => {
            let text = std::fs::read_to_string(&file)
                .map_err(|e| Failure::usage(format!("cannot read {}: {e}", file.display())))?;
            let imported =
                import_mcp_servers(&text, &file.display().to_string()).map_err(Failure::config)?;
            if imported.servers.is_empty() {
                let why: Vec<String> = imported
                    .warnings
                    .iter()
                    .map(|w| format!("\n  {w}"))
                    .collect();
                return Err(Failure::usage(format!(
                    "no server imported from {}{}",
                    file.display(),
                    why.concat()
                )));
            }
            for w in &imported.warnings {
                eprintln!("warning: {}", output::safe(w));
            }
            let (mut added, mut replaced) = (Vec::new(), Vec::new());
            for server in imported.servers {
                let name = server.name.clone();
                if store.upsert_server(&server).map_err(store_err)? {
                    replaced.push(name);
                } else {
                    added.push(name);
                }
            }
            eprintln!(
                "imported {} server(s): added [{}], replaced [{}]",
                added.len() + replaced.len(),
                added.join(", "),
                replaced.join(", ")
            );
            Ok(())
        }
        ServersCmd::Export(_) => {
            let servers = store.servers().map_err(store_err)?;
            crate::output::outln!("{}", output::json(&render_mcp_servers(&servers)));
            Ok(())
        }
        // Handled above: they edit a host's file, not the store.
        ServersCmd::Tap(_) | ServersCmd::Untap(_) => Ok(()),
    }
}
