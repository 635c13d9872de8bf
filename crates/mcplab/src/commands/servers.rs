//! `mcplab servers list|add|remove|import|export`: edits the `mcpServers` config file in the
//! data directory. A malformed import changes nothing.

use mcplab_core::config::render_mcp_servers;

use crate::cli::{Global, ServersCmd};
use crate::failure::Failure;
use crate::output;
use crate::settings::DataDir;
use crate::target;

pub fn run(cmd: ServersCmd, global: &Global, data: &DataDir) -> Result<(), Failure> {
    let file = data.config();
    match cmd {
        ServersCmd::List => {
            let servers = file.load().map_err(Failure::config)?;
            if global.json {
                println!("{}", output::json(&render_mcp_servers(&servers)));
            } else if servers.is_empty() {
                println!(
                    "no servers configured in {} (add one with `mcplab servers add NAME --stdio \"cmd\"`)",
                    file.path().display()
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
                print!("{}", output::table(&["name", "transport", "target"], &rows));
            }
            Ok(())
        }
        ServersCmd::Add { name } => {
            let config = target::ad_hoc(&global.target, &name)?.ok_or_else(|| {
                Failure::usage("give the server as --stdio \"cmd args…\" or --url URL")
            })?;
            let replaced = file.upsert(config).map_err(Failure::config)?;
            eprintln!(
                "{} `{name}` in {}",
                if replaced { "replaced" } else { "added" },
                file.path().display()
            );
            Ok(())
        }
        ServersCmd::Remove { name } => {
            file.remove(&name).map_err(Failure::config)?;
            eprintln!("removed `{name}` from {}", file.path().display());
            Ok(())
        }
        ServersCmd::Import { file: from } => {
            let (added, replaced) = file.import(&from).map_err(Failure::config)?;
            eprintln!(
                "imported {} server(s) into {}: added [{}], replaced [{}]",
                added.len() + replaced.len(),
                file.path().display(),
                added.join(", "),
                replaced.join(", ")
            );
            Ok(())
        }
        ServersCmd::Export => {
            let servers = file.load().map_err(Failure::config)?;
            println!("{}", output::json(&render_mcp_servers(&servers)));
            Ok(())
        }
    }
}
