//! The `servers`, `connect`, `disconnect` and `restart` tools: which servers the agent can
//! name, turning a configured name or an allowed command line/URL into a connection that lives
//! across calls, and the surface read after each connect (what `restart` compares). A target
//! the allow-list refuses is never started.

use std::collections::BTreeMap;

use mcplab_mcp::tool_server::{CallScope, ToolReply};
use mcplab_mcp::{Connection, McpError, RequestOptions};
use mcplab_protocol::{ProtocolChoice, ServerConfig, ServerStatus, ServerTransport};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::reply::{self, fail, fail_with, ok};
use crate::surface::{self, Surface};
use crate::{Agent, allow};

/// A server the agent can name.
pub(crate) struct Known {
    pub config: ServerConfig,
    pub configured: bool,
    /// What it offered at its last connect.
    pub surface: Option<Surface>,
}

impl Known {
    pub(crate) fn configured(config: ServerConfig) -> Self {
        Self {
            config,
            configured: true,
            surface: None,
        }
    }
}

/// Where to connect: a name, or a command line / URL (the `connect` and `check` arguments).
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Target {
    pub server: Option<String>,
    pub command: Option<String>,
    pub url: Option<String>,
    pub transport: Option<String>,
    #[serde(default)]
    pub env: BTreeMap<String, String>,
    pub cwd: Option<String>,
    #[serde(default)]
    pub headers: BTreeMap<String, String>,
    pub protocol: Option<ProtocolChoice>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Named {
    server: String,
}

impl Agent {
    pub(crate) async fn servers_tool(&self) -> ToolReply {
        let statuses: BTreeMap<String, ServerStatus> =
            self.inner.manager.statuses().into_iter().collect();
        let servers: Vec<Value> = self
            .inner
            .known
            .lock()
            .iter()
            .map(|(name, k)| {
                let status = statuses
                    .get(name)
                    .map_or("disconnected".into(), status_text);
                json!({ "name": name, "configured": k.configured, "status": status,
                    "transport": k.config.transport.kind(),
                    "target": k.config.transport.describe() })
            })
            .collect();
        let (commands, urls) = self.inner.setup.allow.patterns();
        let mut summary = format!(
            "{} server(s); allowed commands: {}; allowed URLs: {}",
            servers.len(),
            list_or_none(&commands),
            list_or_none(&urls)
        );
        let mut out =
            json!({ "servers": servers, "allow": { "commands": commands, "urls": urls } });
        if let Some(person) = &self.inner.person {
            match person.servers().await {
                Ok(theirs) => {
                    let connected = theirs.iter().filter(|s| s["status"] == "connected").count();
                    summary.push_str(&format!(
                        "; the person's inspector has {} ({connected} connected)",
                        theirs.len()
                    ));
                    out["person"] = json!(theirs);
                }
                Err(why) => {
                    summary.push_str(&format!("; the inspector could not be asked: {why}"));
                    out["inspectorError"] = json!(why);
                }
            }
        }
        ok(summary, out)
    }

    pub(crate) async fn connect_tool(&self, arguments: Value, scope: &CallScope) -> ToolReply {
        let target: Target = match reply::args("connect", arguments) {
            Ok(t) => t,
            Err(r) => return *r,
        };
        let config = match self.resolve(target) {
            Ok(c) => c,
            Err(why) => return fail(why),
        };
        self.open(config, scope, None).await
    }

    pub(crate) async fn restart_tool(&self, arguments: Value, scope: &CallScope) -> ToolReply {
        let Named { server } = match reply::args("restart", arguments) {
            Ok(n) => n,
            Err(r) => return *r,
        };
        let (config, before) = {
            let known = self.inner.known.lock();
            match known.get(&server) {
                Some(k) => (k.config.clone(), k.surface.clone()),
                None => return fail(unknown(&server)),
            }
        };
        self.open(config, scope, Some(before.unwrap_or_default()))
            .await
    }

    pub(crate) async fn disconnect_tool(&self, arguments: Value) -> ToolReply {
        let Named { server } = match reply::args("disconnect", arguments) {
            Ok(n) => n,
            Err(r) => return *r,
        };
        if !self.inner.known.lock().contains_key(&server) {
            return fail(unknown(&server));
        }
        self.inner.manager.disconnect(&server).await;
        ok(
            format!("`{server}` disconnected; its process is stopped"),
            json!({ "server": server, "status": "disconnected" }),
        )
    }

    /// The config a target names, if the allow-list lets it run.
    pub(crate) fn resolve(&self, t: Target) -> Result<ServerConfig, String> {
        let adhoc = t.command.is_some() || t.url.is_some();
        if !adhoc {
            let Some(name) = t.server else {
                return Err("give `server` (a configured name) or `command`/`url`".into());
            };
            let known = self.inner.known.lock();
            let k = known.get(&name).ok_or_else(|| unknown(&name))?;
            let mut config = k.config.clone();
            if let Some(p) = t.protocol {
                config.protocol = p;
            }
            return Ok(config);
        }
        let config = adhoc_config(t)?;
        if self
            .inner
            .setup
            .allow
            .configured_named(&config.name)
            .is_some_and(|c| c.transport != config.transport)
        {
            return Err(format!(
                "`{}` is the name of a configured server; pick another `server` name",
                config.name
            ));
        }
        self.inner
            .setup
            .allow
            .check(&config)
            .map_err(|allow::Refusal(why)| why)?;
        Ok(config)
    }

    /// Connects `config` (replacing any connection of that name), reads its surface, and
    /// answers; with `before`, says what changed since then.
    async fn open(
        &self,
        config: ServerConfig,
        scope: &CallScope,
        before: Option<Surface>,
    ) -> ToolReply {
        let name = config.name.clone();
        self.inner
            .known
            .lock()
            .entry(name.clone())
            .and_modify(|k| k.config = config.clone())
            .or_insert_with(|| Known {
                config: config.clone(),
                configured: false,
                surface: None,
            });
        let manager = self.inner.manager.clone();
        let connected = tokio::select! {
            r = manager.connect(config) => r,
            _ = scope.cancel.cancelled() => {
                manager.disconnect(&name).await;
                return fail("cancelled; the server was stopped");
            }
        };
        let conn = match connected {
            Ok(c) => c,
            Err(e) => return connect_failure(&name, &e, manager.stderr_tail(&name)),
        };
        let opts = RequestOptions {
            cancel: Some(scope.cancel.clone()),
            ..Default::default()
        };
        let (now, errors) = surface::read(&conn, &opts).await;
        let mut out = about(&conn, &now);
        if !errors.is_empty() {
            out["listErrors"] = json!(errors);
        }
        let mut summary = format!(
            "`{name}` connected ({}); offers {}",
            conn.protocol_version().unwrap_or("?"),
            now.counts()
        );
        if let Some(before) = before {
            let diff = before.diff(&now);
            summary = format!(
                "{summary}; since the last connect: {}",
                surface::describe(&diff)
            );
            out["changes"] = diff;
        }
        if let Some(k) = self.inner.known.lock().get_mut(&name) {
            k.surface = Some(now);
        }
        ok(summary, out)
    }

    /// The live connection called `server`, or the reply that says what to do.
    pub(crate) fn connection(
        &self,
        server: &str,
    ) -> Result<std::sync::Arc<Connection>, Box<ToolReply>> {
        self.inner.manager.get(server).map_err(|_| {
            let why = match self.inner.manager.status(server) {
                Some(ServerStatus::Failed { message }) => {
                    format!(
                        "`{server}` is not connected: it failed ({message}); `connect` it again"
                    )
                }
                Some(_) => format!("`{server}` is not connected; `connect` it first"),
                None => unknown(server),
            };
            Box::new(fail(why))
        })
    }
}

fn about(conn: &Connection, surface: &Surface) -> Value {
    let init = conn.initialize_result();
    let mut out = json!({
        "server": conn.name(),
        "status": "connected",
        "protocol": conn.protocol_version(),
        "era": conn.era().era,
        "serverInfo": init.get("serverInfo"),
        "capabilities": init.get("capabilities"),
        "counts": surface.counts(),
        "tools": surface.tool_names(),
    });
    if let Some(i) = init.get("instructions") {
        out["instructions"] = i.clone();
    }
    if let Some(pid) = conn.pid() {
        out["pid"] = json!(pid);
    }
    out
}

fn connect_failure(name: &str, e: &McpError, stderr: Vec<String>) -> ToolReply {
    let message = mcplab_protocol::error_chain::error_chain(e);
    fail_with(
        format!("`{name}` did not connect: {message}"),
        json!({ "server": name, "status": "failed", "stderr": stderr }),
    )
}

/// A config for a command line or URL, named after `server` or what it runs.
fn adhoc_config(t: Target) -> Result<ServerConfig, String> {
    let transport = match (&t.command, &t.url) {
        (Some(_), Some(_)) => return Err("give `command` or `url`, not both".into()),
        (Some(line), None) => {
            let mut words = shell_words::split(line)
                .map_err(|e| format!("cannot split `command` into words: {e}"))?;
            if words.is_empty() {
                return Err("`command` is empty".into());
            }
            if !t.headers.is_empty() || t.transport.is_some() {
                return Err("`headers` and `transport` go with `url`".into());
            }
            ServerTransport::Stdio {
                command: words.remove(0),
                args: words,
                env: t.env.clone(),
                cwd: t.cwd.clone(),
            }
        }
        (None, Some(url)) => {
            if !t.env.is_empty() || t.cwd.is_some() {
                return Err("`env` and `cwd` go with `command`".into());
            }
            let (url, headers, oauth) = (url.clone(), t.headers.clone(), None);
            match t.transport.as_deref() {
                None | Some("http") => ServerTransport::Http {
                    url,
                    headers,
                    oauth,
                },
                Some("sse") => ServerTransport::Sse {
                    url,
                    headers,
                    oauth,
                },
                Some(other) => return Err(format!("`transport` is http or sse, not `{other}`")),
            }
        }
        (None, None) => unreachable!("adhoc_config is called with a command or a URL"),
    };
    let name = t.server.unwrap_or_else(|| derived_name(&transport));
    Ok(ServerConfig {
        name,
        transport,
        timeout_ms: None,
        inherit_env: false,
        protocol: t.protocol.unwrap_or_default(),
    })
}

/// A name for an unnamed target: the script or program it runs, or the URL's host and port.
fn derived_name(transport: &ServerTransport) -> String {
    let raw = match transport {
        ServerTransport::Stdio { command, args, .. } => {
            let script = args.iter().rev().find(|a| !a.starts_with('-'));
            let word = script.unwrap_or(command);
            let file = word.rsplit('/').next().unwrap_or(word);
            file.split('.').next().unwrap_or(file).to_owned()
        }
        ServerTransport::Http { url, .. } | ServerTransport::Sse { url, .. } => {
            let rest = url.split("://").nth(1).unwrap_or(url);
            rest.split('/').next().unwrap_or(rest).to_owned()
        }
    };
    let clean: String = raw
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect();
    if clean.trim_matches('-').is_empty() {
        "server".into()
    } else {
        clean
    }
}

fn status_text(s: &ServerStatus) -> String {
    match s {
        ServerStatus::Connecting => "connecting".into(),
        ServerStatus::Connected => "connected".into(),
        ServerStatus::Disconnected => "disconnected".into(),
        ServerStatus::Failed { message } => format!("failed: {message}"),
    }
}

fn unknown(server: &str) -> String {
    format!("there is no server `{server}`; `servers` lists them, `connect` adds one")
}

fn list_or_none(items: &[String]) -> String {
    if items.is_empty() {
        "none".into()
    } else {
        items.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unnamed_targets_are_named_after_what_they_run() {
        let t = |command: &str| Target {
            command: Some(command.into()),
            ..Target::default()
        };
        let name = |t: Target| adhoc_config(t).unwrap().name;
        assert_eq!(name(t("node dist/index.js --stdio")), "index");
        assert_eq!(name(t("./target/debug/my-server")), "my-server");
        let url = Target {
            url: Some("http://127.0.0.1:3000/mcp".into()),
            ..Target::default()
        };
        assert_eq!(name(url), "127-0-0-1-3000");
        let named = Target {
            server: Some("mine".into()),
            ..t("node x.js")
        };
        assert_eq!(name(named), "mine");
    }

    #[test]
    fn mixed_targets_are_refused_with_the_reason() {
        let both = Target {
            command: Some("node x.js".into()),
            url: Some("http://127.0.0.1:1/mcp".into()),
            ..Target::default()
        };
        assert!(adhoc_config(both).unwrap_err().contains("not both"));
        let env_on_url = Target {
            url: Some("http://127.0.0.1:1/mcp".into()),
            cwd: Some("/tmp".into()),
            ..Target::default()
        };
        assert!(
            adhoc_config(env_on_url)
                .unwrap_err()
                .contains("go with `command`")
        );
    }
}
