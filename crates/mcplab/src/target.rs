//! Turns the target flags (`--server`, `--stdio`, `--url` and their companions) into one
//! `ServerConfig`, or a usage error that says what to pass.

use std::collections::BTreeMap;

use mcplab_protocol::{ServerConfig, ServerTransport};

use crate::cli::{RemoteTransport, TargetArgs};
use crate::failure::Failure;
use crate::settings::DataDir;

/// Name used for ad-hoc targets.
pub const AD_HOC_NAME: &str = "cli";

/// The config an ad-hoc `--stdio`/`--url` describes, if any, named `name`.
pub fn ad_hoc(args: &TargetArgs, name: &str) -> Result<Option<ServerConfig>, Failure> {
    let transport = if args.demo {
        let exe = std::env::current_exe().map_err(|e| {
            Failure::usage(format!("cannot find the mcplab binary for --demo: {e}"))
        })?;
        ServerTransport::Stdio {
            command: exe.display().to_string(),
            args: vec!["demo-server".into()],
            env: pairs(&args.env, '=', "-e/--env")?,
            cwd: args.cwd.clone(),
        }
    } else if let Some(line) = &args.stdio {
        let mut words = shell_words::split(line)
            .map_err(|e| Failure::usage(format!("cannot split --stdio command line: {e}")))?;
        if words.is_empty() {
            return Err(Failure::usage(
                "--stdio needs a command, e.g. --stdio \"node server.js\"",
            ));
        }
        let command = words.remove(0);
        ServerTransport::Stdio {
            command,
            args: words,
            env: pairs(&args.env, '=', "-e/--env")?,
            cwd: args.cwd.clone(),
        }
    } else if let Some(url) = &args.url {
        let mut headers = pairs(&args.headers, ':', "--header")?;
        if let Some(token) = &args.bearer {
            headers.insert("Authorization".into(), format!("Bearer {token}"));
        }
        let oauth = args.oauth.config()?;
        match args.transport {
            RemoteTransport::Http => ServerTransport::Http {
                url: url.clone(),
                headers,
                oauth,
            },
            RemoteTransport::Sse => ServerTransport::Sse {
                url: url.clone(),
                headers,
                oauth,
            },
        }
    } else {
        if !args.env.is_empty() || args.cwd.is_some() {
            return Err(Failure::usage("-e/--env and --cwd go with --stdio"));
        }
        if !args.headers.is_empty() {
            return Err(Failure::usage("--header goes with --url"));
        }
        if !args.oauth.is_empty() {
            return Err(Failure::usage(
                "the --oauth-… settings go with --url (configured servers keep theirs: \
                 `mcplab servers add NAME --url URL --oauth-…`)",
            ));
        }
        return Ok(None);
    };
    Ok(Some(ServerConfig {
        name: name.to_owned(),
        transport,
        timeout_ms: None,
        inherit_env: false,
    }))
}

/// The servers a chat uses: the ad-hoc target, or every `--server`, or none.
pub fn resolve_many(args: &TargetArgs, data: &DataDir) -> Result<Vec<ServerConfig>, Failure> {
    if let Some(config) = ad_hoc(args, AD_HOC_NAME)? {
        return Ok(vec![config]);
    }
    if args.servers.is_empty() {
        return Ok(Vec::new());
    }
    let store = data.store()?;
    args.servers
        .iter()
        .map(|name| {
            store.server(name).map_err(|_| {
                Failure::usage(format!(
                    "no server named `{name}` is configured (see `mcplab servers list`)"
                ))
            })
        })
        .collect()
}

/// The server a command talks to.
pub fn resolve(args: &TargetArgs, data: &DataDir) -> Result<ServerConfig, Failure> {
    if let Some(config) = ad_hoc(args, AD_HOC_NAME)? {
        return Ok(config);
    }
    let servers = data
        .store()?
        .servers()
        .map_err(|e| Failure::usage(e.to_string()))?;
    if args.servers.len() > 1 {
        return Err(Failure::usage(
            "this command talks to one server; give --server once",
        ));
    }
    if let Some(name) = args.servers.first() {
        return servers
            .into_iter()
            .find(|s| &s.name == name)
            .ok_or_else(|| {
                Failure::usage(format!(
                    "no server named `{name}` is configured (see `mcplab servers list`)"
                ))
            });
    }
    match servers.len() {
        1 => Ok(servers.into_iter().next().expect("one server")),
        0 => Err(Failure::usage(
            "no target: pass --stdio \"cmd args…\", --url URL, --server NAME or --demo \
             (add servers with `mcplab servers add`)",
        )),
        _ => {
            let names: Vec<_> = servers.iter().map(|s| s.name.as_str()).collect();
            Err(Failure::usage(format!(
                "several servers are configured ({}); choose one with --server NAME",
                names.join(", ")
            )))
        }
    }
}

fn pairs(items: &[String], sep: char, flag: &str) -> Result<BTreeMap<String, String>, Failure> {
    items
        .iter()
        .map(|item| match item.split_once(sep) {
            Some((k, v)) if !k.trim().is_empty() => {
                Ok((k.trim().to_owned(), v.trim_start().to_owned()))
            }
            _ => Err(Failure::usage(format!(
                "{flag} expects KEY{sep}VALUE, got `{item}`"
            ))),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stdio_line_is_split_like_a_shell() {
        let args = TargetArgs {
            stdio: Some("node 'my server.js' --flag".into()),
            env: vec!["A=1=2".into()],
            ..Default::default()
        };
        let c = ad_hoc(&args, "x").unwrap().unwrap();
        let ServerTransport::Stdio {
            command, args, env, ..
        } = c.transport
        else {
            panic!("stdio expected")
        };
        assert_eq!(command, "node");
        assert_eq!(args, ["my server.js", "--flag"]);
        assert_eq!(env["A"], "1=2");
    }

    #[test]
    fn url_with_headers_and_bearer() {
        let args = TargetArgs {
            url: Some("http://127.0.0.1:1/mcp".into()),
            headers: vec!["X-Key: v:w".into()],
            bearer: Some("t".into()),
            transport: RemoteTransport::Sse,
            ..Default::default()
        };
        let c = ad_hoc(&args, "x").unwrap().unwrap();
        let ServerTransport::Sse { headers, .. } = c.transport else {
            panic!("sse expected")
        };
        assert_eq!(headers["X-Key"], "v:w");
        assert_eq!(headers["Authorization"], "Bearer t");
        let bad = TargetArgs {
            url: Some("u".into()),
            headers: vec!["nocolon".into()],
            ..Default::default()
        };
        assert!(ad_hoc(&bad, "x").is_err());
    }
}
