//! Turns the target flags (`--server`, `--stdio`, `--url`, `--config` and their companions)
//! into one `ServerConfig`, or a usage error that says what to pass. Servers of a `--config`
//! file join the configured ones for this run only (nothing is stored). It also names an
//! ad-hoc target for people (`python3 server.py`, the URL) instead of its internal name.

use std::collections::BTreeMap;

use mcplab_core::config::import_mcp_servers;
use mcplab_protocol::{ServerConfig, ServerTransport};

use crate::cli::{RemoteTransport, TargetArgs};
use crate::failure::Failure;
use crate::settings::DataDir;

/// Name used for ad-hoc targets (their connection and stored sign-ins). People see
/// [`label`] instead.
pub const AD_HOC_NAME: &str = "cli";

/// How a server is named in messages: its configured name, or for an ad-hoc target what
/// the user typed (the command line or the URL with its secrets masked), shortened.
pub fn label(config: &ServerConfig) -> String {
    if config.name != AD_HOC_NAME {
        return config.name.clone();
    }
    // A secret in the URL is masked before the label is cut (a cut would leave part of it).
    let text = match &config.transport {
        ServerTransport::Http { url, .. } | ServerTransport::Sse { url, .. } => {
            mcplab_net::mask_url_text(url)
        }
        ServerTransport::Stdio { .. } => config.transport.describe(),
    };
    if text.chars().count() > 60 {
        let cut: String = text.chars().take(59).collect();
        format!("{cut}…")
    } else {
        text
    }
}

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
        check_url(url)?;
        let mut headers = pairs(&args.headers, ':', "--header")?;
        if let Some(token) = &args.bearer {
            headers.insert("Authorization".into(), format!("Bearer {token}"));
        }
        let oauth = args.oauth.config()?;
        match args.transport.unwrap_or_default() {
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
        protocol: args.protocol.unwrap_or_default(),
    }))
}

/// The servers a chat uses: the ad-hoc target, or every `--server`, or every server of a
/// `--config` file, or none.
pub fn resolve_many(args: &TargetArgs, data: &DataDir) -> Result<Vec<ServerConfig>, Failure> {
    if let Some(config) = ad_hoc(args, AD_HOC_NAME)? {
        return Ok(vec![config]);
    }
    let from_file = file_servers(args)?;
    if args.servers.is_empty() {
        return Ok(from_file
            .into_iter()
            .map(|c| with_protocol(c, args))
            .collect());
    }
    let store = data.store()?;
    args.servers
        .iter()
        .map(|name| match from_file.iter().find(|s| &s.name == name) {
            Some(s) => Ok(with_protocol(s.clone(), args)),
            None => store
                .server(name)
                .map(|c| with_protocol(c, args))
                .map_err(|_| not_configured(name)),
        })
        .map(|c| c.and_then(checked))
        .collect()
}

/// The servers of `--config FILE` (none without it). A file that cannot be read is an
/// error; entries it cannot use are skipped with a warning on stderr.
fn file_servers(args: &TargetArgs) -> Result<Vec<ServerConfig>, Failure> {
    let Some(path) = &args.config else {
        return Ok(Vec::new());
    };
    let text = std::fs::read_to_string(path).map_err(|e| {
        Failure::usage(format!(
            "cannot read the --config file {}: {e}",
            path.display()
        ))
    })?;
    let imported =
        import_mcp_servers(&text, &path.display().to_string()).map_err(Failure::config)?;
    for w in &imported.warnings {
        eprintln!("warning: {w}");
    }
    Ok(imported.servers)
}

fn not_configured(name: &str) -> Failure {
    Failure::usage(format!(
        "no server named `{name}` is configured (see `mcplab servers list`, or pass \
         --config FILE)"
    ))
}

/// The server a command talks to.
pub fn resolve(args: &TargetArgs, data: &DataDir) -> Result<ServerConfig, Failure> {
    if let Some(config) = ad_hoc(args, AD_HOC_NAME)? {
        return checked(config);
    }
    let from_file = file_servers(args)?;
    if args.servers.is_empty() && from_file.len() == 1 {
        return from_file
            .into_iter()
            .next()
            .map(|c| checked(with_protocol(c, args)))
            .unwrap_or_else(|| Err(Failure::usage("the --config file has no server")));
    }
    resolve_among(args, configured_with(from_file, data)?).and_then(checked)
}

/// Every configured server: those of a `--config` file, else the stored ones (`check`
/// compares a configured server with these).
pub fn configured(args: &TargetArgs, data: &DataDir) -> Result<Vec<ServerConfig>, Failure> {
    let from_file = file_servers(args)?;
    if !from_file.is_empty() {
        return Ok(from_file);
    }
    configured_with(from_file, data)
}

/// The stored servers with those of a `--config` file over them.
fn configured_with(
    from_file: Vec<ServerConfig>,
    data: &DataDir,
) -> Result<Vec<ServerConfig>, Failure> {
    let mut servers = data
        .store()?
        .servers()
        .map_err(|e| Failure::usage(e.to_string()))?;
    // The file's servers win over configured ones of the same name, for this run.
    servers.retain(|s| !from_file.iter().any(|f| f.name == s.name));
    servers.extend(from_file);
    Ok(servers)
}

fn resolve_among(args: &TargetArgs, servers: Vec<ServerConfig>) -> Result<ServerConfig, Failure> {
    if args.servers.len() > 1 {
        return Err(Failure::usage(
            "this command talks to one server; give --server once",
        ));
    }
    if let Some(name) = args.servers.first() {
        return servers
            .into_iter()
            .find(|s| &s.name == name)
            .map(|c| with_protocol(c, args))
            .ok_or_else(|| not_configured(name));
    }
    match servers.len() {
        1 => Ok(with_protocol(
            servers.into_iter().next().expect("one server"),
            args,
        )),
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

/// A configured server with `--protocol` applied when given.
fn with_protocol(mut config: ServerConfig, args: &TargetArgs) -> ServerConfig {
    if let Some(protocol) = args.protocol {
        config.protocol = protocol;
    }
    config
}

/// A stdio server's working directory must exist: the spawn error would blame the command.
fn checked(config: ServerConfig) -> Result<ServerConfig, Failure> {
    if let ServerTransport::Stdio { cwd: Some(dir), .. } = &config.transport
        && !std::path::Path::new(dir).is_dir()
    {
        return Err(Failure::usage(format!(
            "the working directory `{dir}` of {} does not exist (--cwd or the config's `cwd`)",
            label(&config)
        )));
    }
    Ok(config)
}

fn check_url(url: &str) -> Result<(), Failure> {
    let parsed = url::Url::parse(url).map_err(|e| {
        Failure::usage(format!(
            "--url `{url}` is not a valid URL ({e}); give it as http://host:port/path"
        ))
    })?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(Failure::usage(format!(
            "--url `{url}` must start with http:// or https://"
        )));
    }
    Ok(())
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
            transport: Some(RemoteTransport::Sse),
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
