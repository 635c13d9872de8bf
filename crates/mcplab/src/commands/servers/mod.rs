//! `mcplab servers list|add|remove|move|import|export`: edits the configured servers in the
//! data directory's store (`export --for AGENT` prints a coding agent's `mcplab mcp` entry
//! instead). While `mcplab serve` runs on the same data directory, `add`, `remove`, `move` and
//! `import` go through its API ([`running`]) so the open inspector follows at once; otherwise
//! they edit the store. An import is read completely before anything is written, so a file
//! that cannot be read changes nothing; entries it cannot use are skipped with a warning.

mod running;

use mcplab_core::config::{import_mcp_servers, parse_mcp_servers, render_mcp_servers};
use mcplab_protocol::ServerConfig;

use super::agent_config;
use crate::cli::{ExportArgs, ServersCmd};
use crate::failure::Failure;
use crate::output;
use crate::settings::Settings;
use crate::target;

use self::running::Inspector;

fn store_err(e: mcplab_store::StoreError) -> Failure {
    Failure::usage(e.to_string())
}

pub async fn run(cmd: ServersCmd, settings: &Settings) -> Result<(), Failure> {
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
            let inspector = Inspector::find(data)?;
            let answered = match &inspector {
                Some(live) => live.add(&config).await?,
                None => None,
            };
            let replaced = match answered {
                Some(replaced) => replaced,
                None => store.upsert_server(&config).map_err(store_err)?,
            };
            eprintln!("{} `{name}`", if replaced { "replaced" } else { "added" });
            told(inspector.as_ref().filter(|_| answered.is_some()));
            Ok(())
        }
        ServersCmd::Remove { name } => {
            let inspector = Inspector::find(data)?;
            let removed = match &inspector {
                Some(live) => live.remove(&name).await?,
                None => None,
            };
            if removed.is_none() {
                store.delete_server(&name).map_err(store_err)?;
                store.clear_oauth_credentials(&name).map_err(store_err)?;
            }
            eprintln!("removed `{name}`");
            told(inspector.as_ref().filter(|_| removed.is_some()));
            Ok(())
        }
        ServersCmd::Move { name, to, before } => {
            let place = match (to, before) {
                (Some(n), _) => Place::At(n),
                (None, Some(other)) => Place::Before(other),
                (None, None) => return Err(Failure::usage("give --to N or --before OTHER")),
            };
            let inspector = Inspector::find(data)?;
            let answered = match &inspector {
                Some(live) => live.reorder(&name, &place).await?,
                None => None,
            };
            let through_serve = answered.is_some();
            let order = match answered {
                Some(order) => order,
                None => {
                    let names = store.servers().map_err(store_err)?;
                    let order = moved(names.into_iter().map(|s| s.name).collect(), &name, &place)?;
                    store.set_server_order(&order).map_err(store_err)?;
                    order
                }
            };
            eprintln!("moved `{name}`: {}", order.join(", "));
            told(inspector.as_ref().filter(|_| through_serve));
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
            let inspector = Inspector::find(data)?;
            let result = match &inspector {
                Some(live) => live.import(&imported.servers).await?,
                None => None,
            };
            let (added, replaced) = match &result {
                Some(r) => (r.added.clone(), r.replaced.clone()),
                None => upsert_all(&store, imported.servers)?,
            };
            eprintln!(
                "imported {} server(s): added [{}], replaced [{}]",
                added.len() + replaced.len(),
                added.join(", "),
                replaced.join(", ")
            );
            told(inspector.as_ref().filter(|_| result.is_some()));
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

/// Where `servers move` puts a server.
pub(super) enum Place {
    /// At this 1-based place.
    At(usize),
    /// Just before this server.
    Before(String),
}

/// `names` with `name` moved to `place`; a name or place that is not there is a usage error.
pub(super) fn moved(
    mut names: Vec<String>,
    name: &str,
    place: &Place,
) -> Result<Vec<String>, Failure> {
    let known = |n: &str| format!("no server named `{n}` (see `mcplab servers list`)");
    let from = names
        .iter()
        .position(|n| n == name)
        .ok_or_else(|| Failure::usage(known(name)))?;
    let count = names.len();
    let item = names.remove(from);
    let at = match place {
        Place::At(n) if (1..=count).contains(n) => n - 1,
        Place::At(n) => {
            return Err(Failure::usage(format!(
                "--to {n} is not a place in the list: give 1 to {count}"
            )));
        }
        Place::Before(other) if other == name => {
            return Err(Failure::usage(
                "--before names the server being moved: name another",
            ));
        }
        Place::Before(other) => names
            .iter()
            .position(|n| n == other)
            .ok_or_else(|| Failure::usage(known(other)))?,
    };
    names.insert(at, item);
    Ok(names)
}

/// Writes `servers` to the store, all or none: the names added and the names replaced.
fn upsert_all(
    store: &mcplab_store::Store,
    servers: Vec<ServerConfig>,
) -> Result<(Vec<String>, Vec<String>), Failure> {
    let replacing = store.upsert_servers(&servers).map_err(store_err)?;
    let (mut added, mut replaced) = (Vec::new(), Vec::new());
    for (server, replaced_one) in servers.into_iter().zip(replacing) {
        match replaced_one {
            true => replaced.push(server.name),
            false => added.push(server.name),
        }
    }
    Ok((added, replaced))
}

/// Says that the running inspector took the edit (None: the store was edited).
fn told(inspector: Option<&Inspector>) {
    if let Some(inspector) = inspector {
        eprintln!("{}", inspector.told());
    }
}

#[cfg(test)]
mod tests {
    use super::{Place, moved};

    fn order(names: &[&str]) -> Vec<String> {
        names.iter().map(|n| n.to_string()).collect()
    }

    #[test]
    fn a_server_moves_to_a_place_or_before_another() {
        let abc = || order(&["a", "b", "c"]);
        assert_eq!(moved(abc(), "c", &Place::At(1)).unwrap(), ["c", "a", "b"]);
        assert_eq!(moved(abc(), "a", &Place::At(3)).unwrap(), ["b", "c", "a"]);
        assert_eq!(moved(abc(), "b", &Place::At(2)).unwrap(), ["a", "b", "c"]);
        let before = |o: &str| Place::Before(o.into());
        assert_eq!(moved(abc(), "a", &before("c")).unwrap(), ["b", "a", "c"]);
        assert_eq!(moved(abc(), "c", &before("a")).unwrap(), ["c", "a", "b"]);
        for (name, place, said) in [
            ("x", Place::At(1), "no server named `x`"),
            ("a", Place::At(0), "give 1 to 3"),
            ("a", Place::At(4), "give 1 to 3"),
            ("a", before("x"), "no server named `x`"),
            ("a", before("a"), "name another"),
        ] {
            let err = moved(abc(), name, &place).unwrap_err();
            assert!(err.message.contains(said), "{}", err.message);
        }
    }
}
