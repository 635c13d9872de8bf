//! The commands that exercise one server: tools, resources, prompts, completion, ping,
//! logging level and server info. Each prints human output or, with `--json`, the exact
//! protocol result. A capability the server did not declare is not asked for: a listing is
//! empty with a note on stderr, anything else fails saying the server does not offer it.

use std::time::{Duration, Instant};

use mcplab_protocol::ServerEvent;
use serde_json::{Value, json};

use crate::args;
use crate::cli::{Command, CompleteArgs, Connected, PromptsCmd, ResourcesCmd, TaskArg, ToolsCmd};
use crate::failure::{EXIT_CALL, Failure};
use crate::output::{self, Stdout, outln};
use crate::session::Session;
use crate::settings::Settings;

/// How long the unsubscribe after Ctrl-C may take: the user asked to stop.
const UNSUBSCRIBE_DEADLINE: Duration = Duration::from_secs(5);

pub async fn run(command: Command, settings: &Settings, s: &Session) -> Result<(), Failure> {
    let (json, data) = (settings.json, &settings.data);
    let o = Stdout { raw: settings.raw };
    match command {
        Command::Tools(Connected {
            cmd: ToolsCmd::List,
            ..
        }) => {
            let Some(r) = listing(s, "tools", "tools/list", "tools").await? else {
                return empty(&o, json, "tools");
            };
            if json {
                o.json(&r)?;
            } else {
                let rows: Vec<Vec<String>> = items(&r, "tools")
                    .map(|t| vec![text(t, "name"), tool_flags(t), text(t, "description")])
                    .collect();
                o.print(&output::table(&["name", "hints", "description"], &rows))?;
            }
            Ok(())
        }
        Command::Tools(Connected {
            cmd:
                ToolsCmd::Call {
                    name,
                    args,
                    pairs,
                    task,
                    no_wait,
                    output: file,
                },
            ..
        }) => {
            let schema = if pairs.is_empty() {
                None
            } else {
                let tools = s.list_all("tools/list", "tools").await?;
                let tool = items(&tools, "tools")
                    .find(|t| t.get("name").and_then(Value::as_str) == Some(&name));
                match tool {
                    Some(t) => t.get("inputSchema").cloned(),
                    None => {
                        return Err(Failure::usage(format!(
                            "the server has no tool named `{name}` (see `mcplab tools list`)"
                        )));
                    }
                }
            };
            let arguments = args::build(args.as_deref(), &pairs, schema.as_ref())?;
            let started = Instant::now();
            let opts = mcplab_core::mcp::RequestOptions {
                task: match task {
                    TaskArg::Auto => mcplab_protocol::TaskMode::Auto,
                    TaskArg::Force => mcplab_protocol::TaskMode::Force,
                    TaskArg::Never => mcplab_protocol::TaskMode::Never,
                },
                no_wait,
                ..Default::default()
            };
            let called = s
                .request_opts(
                    "tools/call",
                    Some(json!({ "name": name, "arguments": arguments })),
                    opts,
                )
                .await;
            super::tasks::remember(data, s);
            let r = called?;
            if mcplab_core::mcp::modern::mrtr::is_task(&r) {
                return super::tasks::print_created(&r, json);
            }
            let is_error = r.get("isError").and_then(Value::as_bool) == Some(true);
            if json {
                o.json(&r)?;
            } else {
                o.print(&output::tool_result(&r))?;
                eprintln!("({} ms)", started.elapsed().as_millis());
            }
            if let Some(path) = file {
                save_binary(&r, &path)?;
            }
            if is_error {
                Err(Failure::silent(EXIT_CALL))
            } else {
                Ok(())
            }
        }
        Command::Resources(Connected {
            cmd: ResourcesCmd::List,
            ..
        }) => {
            let Some(r) = listing(s, "resources", "resources/list", "resources").await? else {
                return empty(&o, json, "resources");
            };
            if json {
                o.json(&r)?;
            } else {
                let rows: Vec<Vec<String>> = items(&r, "resources")
                    .map(|x| {
                        vec![
                            text(x, "uri"),
                            text(x, "name"),
                            text(x, "mimeType"),
                            text(x, "description"),
                        ]
                    })
                    .collect();
                o.print(&output::table(
                    &["uri", "name", "mime type", "description"],
                    &rows,
                ))?;
            }
            Ok(())
        }
        Command::Resources(Connected {
            cmd: ResourcesCmd::Templates,
            ..
        }) => {
            let listed = listing(
                s,
                "resources",
                "resources/templates/list",
                "resourceTemplates",
            );
            let Some(r) = listed.await? else {
                return empty(&o, json, "resourceTemplates");
            };
            if json {
                o.json(&r)?;
            } else {
                let rows: Vec<Vec<String>> = items(&r, "resourceTemplates")
                    .map(|x| {
                        vec![
                            text(x, "uriTemplate"),
                            text(x, "name"),
                            text(x, "mimeType"),
                            text(x, "description"),
                        ]
                    })
                    .collect();
                o.print(&output::table(
                    &["uri template", "name", "mime type", "description"],
                    &rows,
                ))?;
            }
            Ok(())
        }
        Command::Resources(Connected {
            cmd: ResourcesCmd::Read { uri, output: file },
            ..
        }) => {
            s.require("resources")?;
            let r = s
                .request("resources/read", Some(json!({ "uri": uri })))
                .await?;
            if let Some(path) = file {
                return save_first(&r, &path);
            }
            if json {
                o.json(&r)?;
            } else {
                for c in items(&r, "contents") {
                    o.line(&output::resource_contents(c, "──"))?;
                }
            }
            Ok(())
        }
        Command::Resources(Connected {
            cmd: ResourcesCmd::Subscribe { uri, count },
            ..
        }) => subscribe(s, &o, &uri, count, json).await,
        Command::Prompts(Connected {
            cmd: PromptsCmd::List,
            ..
        }) => {
            let Some(r) = listing(s, "prompts", "prompts/list", "prompts").await? else {
                return empty(&o, json, "prompts");
            };
            if json {
                o.json(&r)?;
            } else {
                let rows: Vec<Vec<String>> = items(&r, "prompts")
                    .map(|p| vec![text(p, "name"), prompt_args(p), text(p, "description")])
                    .collect();
                o.print(&output::table(&["name", "arguments", "description"], &rows))?;
            }
            Ok(())
        }
        Command::Prompts(Connected {
            cmd: PromptsCmd::Get { name, pairs },
            ..
        }) => {
            s.require("prompts")?;
            let mut arguments = serde_json::Map::new();
            for p in &pairs {
                let (k, v) = p
                    .split_once('=')
                    .ok_or_else(|| Failure::usage(format!("-a expects KEY=VALUE, got `{p}`")))?;
                arguments.insert(k.to_owned(), Value::String(v.to_owned()));
            }
            let r = s
                .request(
                    "prompts/get",
                    Some(json!({ "name": name, "arguments": arguments })),
                )
                .await?;
            if json {
                o.json(&r)?;
            } else {
                o.print(&output::prompt_messages(&r))?;
            }
            Ok(())
        }
        Command::Complete(c) => complete(s, &o, c, json).await,
        Command::Ping(_) => {
            let started = Instant::now();
            // 2026-07-28 removed `ping`; `server/discover` (never from the cache) is the
            // cheapest request every such server must answer.
            let modern = s.connection().is_modern();
            let r = if modern {
                let opts = mcplab_core::mcp::RequestOptions {
                    bypass_cache: true,
                    ..Default::default()
                };
                s.request_opts("server/discover", None, opts).await?
            } else {
                s.request("ping", None).await?
            };
            if json {
                o.json(&r)
            } else if modern {
                o.line(&format!(
                    "pong ({} ms, server/discover: 2026-07-28 has no ping)",
                    started.elapsed().as_millis()
                ))
            } else {
                o.line(&format!("pong ({} ms)", started.elapsed().as_millis()))
            }
        }
        Command::LogLevel { level, .. } => {
            s.require("logging")?;
            let level = format!("{level:?}").to_lowercase();
            if s.connection().is_modern() {
                eprintln!(
                    "nothing sent: protocol 2026-07-28 has no logging/setLevel (logging is \
                     deprecated there); the level travels in each request's _meta, so pass \
                     --log-level {level} with the command whose logs you want"
                );
                if json {
                    outln!("{{}}");
                }
                return Ok(());
            }
            let r = s
                .request("logging/setLevel", Some(json!({ "level": level })))
                .await?;
            if json {
                o.json(&r)
            } else {
                o.line(&format!("log level set to {level}"))
            }
        }
        Command::Info(_) => {
            let conn = s.connection();
            let info = conn.initialize_result();
            if json {
                let mut v = info.clone();
                v["mcplab/era"] = serde_json::to_value(conn.era()).unwrap_or_default();
                o.json(&v)
            } else {
                let era = conn.era();
                let name = match era.era {
                    mcplab_protocol::Era::Modern => "modern",
                    mcplab_protocol::Era::Legacy => "legacy",
                };
                let mut text = info_text(info);
                text.push_str(&format!("era:       {name} ({})\n", era.how));
                if !era.supported.is_empty() {
                    text.push_str(&format!("versions:  {}\n", era.supported.join(", ")));
                }
                for (tool, why) in conn.rejected_tools() {
                    text.push_str(&format!("rejected:  {tool}: {why}\n"));
                }
                o.print(&text)
            }
        }
        Command::Servers(_)
        | Command::DemoServer { .. }
        | Command::Serve { .. }
        | Command::Open { .. }
        | Command::Chat(_)
        | Command::Oauth(_)
        | Command::Apps(_)
        | Command::Eval(_)
        | Command::Hosts(_)
        | Command::Tasks(_)
        | Command::Skills(_)
        | Command::Listen(_)
        | Command::Check(_)
        | Command::Completions { .. }
        | Command::Man { .. } => {
            unreachable!("handled without this dispatcher")
        }
    }
}

/// Every page of a listing, or `None` when the server did not declare `capability`.
async fn listing(
    s: &Session,
    capability: &str,
    method: &str,
    key: &str,
) -> Result<Option<Value>, Failure> {
    if !s.offers(capability) {
        eprintln!(
            "this server does not offer {capability} (its initialize result declares no \
             `{capability}` capability), so there is nothing to list"
        );
        return Ok(None);
    }
    s.list_all(method, key).await.map(Some)
}

/// The empty listing of an absent capability.
fn empty(o: &Stdout, json: bool, key: &str) -> Result<(), Failure> {
    if json {
        o.json(&json!({ key: [] }))
    } else {
        Ok(())
    }
}

fn items<'a>(v: &'a Value, key: &str) -> impl Iterator<Item = &'a Value> {
    v.get(key).and_then(Value::as_array).into_iter().flatten()
}

fn text(v: &Value, key: &str) -> String {
    v.get(key).and_then(Value::as_str).unwrap_or("").to_owned()
}

/// Short hints: annotations and MCP Apps metadata.
fn tool_flags(t: &Value) -> String {
    let mut f = Vec::new();
    let ann = t.get("annotations");
    let hint = |k: &str| ann.and_then(|a| a.get(k)).and_then(Value::as_bool);
    if hint("readOnlyHint") == Some(true) {
        f.push("read-only");
    }
    if hint("destructiveHint") == Some(true) {
        f.push("destructive");
    }
    if hint("idempotentHint") == Some(true) {
        f.push("idempotent");
    }
    if hint("openWorldHint") == Some(true) {
        f.push("open-world");
    }
    if mcplab_core::apps::ui_link(t).is_some() {
        f.push("ui");
    }
    if !mcplab_core::apps::visibility(t).model {
        f.push("app-only");
    }
    if t.get("outputSchema").is_some() {
        f.push("structured");
    }
    f.join(",")
}

fn prompt_args(p: &Value) -> String {
    items(p, "arguments")
        .map(|a| {
            let name = text(a, "name");
            if a.get("required").and_then(Value::as_bool) == Some(true) {
                name
            } else {
                format!("[{name}]")
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn info_text(info: &Value) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let si = info.get("serverInfo").cloned().unwrap_or(Value::Null);
    let _ = writeln!(
        out,
        "server:    {} {}",
        text(&si, "name"),
        text(&si, "version")
    );
    let title = text(&si, "title");
    if !title.is_empty() {
        let _ = writeln!(out, "title:     {title}");
    }
    let _ = writeln!(out, "protocol:  {}", text(info, "protocolVersion"));
    let caps: Vec<String> = info
        .get("capabilities")
        .and_then(Value::as_object)
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default();
    let _ = writeln!(out, "supports:  {}", caps.join(", "));
    let instructions = text(info, "instructions");
    if !instructions.is_empty() {
        let _ = writeln!(out, "\ninstructions:\n{instructions}");
    }
    out
}

/// Saves the first binary content of a tool result: image or audio data, or an embedded
/// resource's blob (or text).
fn save_binary(r: &Value, path: &std::path::Path) -> Result<(), Failure> {
    use base64::Engine as _;
    let found = items(r, "content").find_map(|c| match c.get("type").and_then(Value::as_str) {
        Some("image" | "audio") => c.get("data").and_then(Value::as_str).map(|d| (d, true)),
        Some("resource") => {
            let res = c.get("resource")?;
            res.get("blob")
                .and_then(Value::as_str)
                .map(|b| (b, true))
                .or_else(|| res.get("text").and_then(Value::as_str).map(|t| (t, false)))
        }
        _ => None,
    });
    let Some((data, base64)) = found else {
        return Err(Failure::call(
            "the result has no image, audio or embedded resource to save with --output",
        ));
    };
    let bytes = if base64 {
        base64::engine::general_purpose::STANDARD
            .decode(data.trim())
            .map_err(|e| Failure::call(format!("the server sent invalid base64: {e}")))?
    } else {
        data.as_bytes().to_vec()
    };
    std::fs::write(path, &bytes)
        .map_err(|e| Failure::usage(format!("cannot write {}: {e}", path.display())))?;
    eprintln!("saved {} to {}", output::size(bytes.len()), path.display());
    Ok(())
}

fn save_first(r: &Value, path: &std::path::Path) -> Result<(), Failure> {
    use base64::Engine as _;
    let first = items(r, "contents")
        .next()
        .ok_or_else(|| Failure::call("the resource has no contents to save"))?;
    let bytes = if let Some(t) = first.get("text").and_then(Value::as_str) {
        t.as_bytes().to_vec()
    } else if let Some(b) = first.get("blob").and_then(Value::as_str) {
        base64::engine::general_purpose::STANDARD
            .decode(b.trim())
            .map_err(|e| Failure::call(format!("the server sent invalid base64: {e}")))?
    } else {
        return Err(Failure::call("the first content has neither text nor blob"));
    };
    std::fs::write(path, &bytes)
        .map_err(|e| Failure::usage(format!("cannot write {}: {e}", path.display())))?;
    eprintln!("saved {} to {}", output::size(bytes.len()), path.display());
    Ok(())
}

async fn complete(s: &Session, o: &Stdout, c: CompleteArgs, json: bool) -> Result<(), Failure> {
    s.require("completions")?;
    let reference = match (&c.prompt, &c.resource) {
        (Some(p), _) => json!({ "type": "ref/prompt", "name": p }),
        (None, Some(uri)) => json!({ "type": "ref/resource", "uri": uri }),
        (None, None) => {
            return Err(Failure::usage(
                "give --prompt NAME or --resource URI_TEMPLATE",
            ));
        }
    };
    let mut params = json!({
        "ref": reference,
        "argument": { "name": c.argument, "value": c.value },
    });
    if !c.context.is_empty() {
        let mut args = serde_json::Map::new();
        for kv in &c.context {
            let (k, v) = kv
                .split_once('=')
                .ok_or_else(|| Failure::usage(format!("--context expects K=V, got `{kv}`")))?;
            args.insert(k.to_owned(), Value::String(v.to_owned()));
        }
        params["context"] = json!({ "arguments": args });
    }
    let r = s.request("completion/complete", Some(params)).await?;
    if json {
        o.json(&r)?;
    } else {
        let comp = r.get("completion").cloned().unwrap_or(Value::Null);
        for v in items(&comp, "values") {
            o.line(
                &v.as_str()
                    .map(str::to_owned)
                    .unwrap_or_else(|| v.to_string()),
            )?;
        }
        if let Some(total) = comp.get("total") {
            eprintln!(
                "({total} in total{})",
                if comp.get("hasMore") == Some(&Value::Bool(true)) {
                    ", more available"
                } else {
                    ""
                }
            );
        }
    }
    Ok(())
}

async fn subscribe(
    s: &Session,
    o: &Stdout,
    uri: &str,
    count: Option<usize>,
    json: bool,
) -> Result<(), Failure> {
    if s.connection().is_modern() {
        // 2026-07-28 replaced resources/subscribe with subscriptions/listen.
        let args = crate::cli::ListenArgs {
            tools: false,
            prompts: false,
            resources: false,
            resource_uris: vec![uri.to_owned()],
            task_ids: Vec::new(),
            count,
            connect: crate::cli::ConnectArgs::default(),
        };
        return super::listen::watch(s, args, json, true).await;
    }
    let subscribable = s
        .connection()
        .initialize_result()
        .pointer("/capabilities/resources/subscribe")
        .and_then(Value::as_bool)
        == Some(true);
    if !subscribable {
        return Err(Failure::call(
            "this server does not offer resource subscriptions (its `resources` capability \
             does not declare `subscribe: true`)",
        ));
    }
    let mut events = s.subscribe();
    s.request("resources/subscribe", Some(json!({ "uri": uri })))
        .await?;
    eprintln!("subscribed to {uri}; waiting for updates (Ctrl-C to stop)");
    let watched = watch_updates(s, o, &mut events, uri, count, json).await;
    // Ctrl-C is the documented way to stop: the unsubscribe gets a fresh, short deadline of
    // its own (the session's interrupt token has fired already).
    let unsubscribed = s
        .request_with(
            "resources/unsubscribe",
            Some(json!({ "uri": uri })),
            None,
            Some(UNSUBSCRIBE_DEADLINE),
        )
        .await;
    match (&watched, unsubscribed) {
        (Ok(()), Ok(_)) => eprintln!("unsubscribed from {uri}"),
        (Ok(()), Err(f)) => eprintln!("could not unsubscribe from {uri}: {}", f.message),
        // The server is gone: there is nothing to unsubscribe from.
        (Err(_), _) => {}
    }
    watched
}

/// Prints each update of `uri` until `count` updates, Ctrl-C, or the server going away.
async fn watch_updates(
    s: &Session,
    o: &Stdout,
    events: &mut tokio::sync::broadcast::Receiver<ServerEvent>,
    uri: &str,
    count: Option<usize>,
    json: bool,
) -> Result<(), Failure> {
    use tokio::sync::broadcast::error::RecvError;
    let mut seen = 0;
    loop {
        if count.is_some_and(|c| seen >= c) {
            return Ok(());
        }
        let event = tokio::select! {
            e = events.recv() => e,
            _ = s.interrupted.cancelled() => return Ok(()),
        };
        match event {
            Ok(ServerEvent::ResourceUpdated { uri: updated, .. }) if updated == uri => {
                seen += 1;
                let r = s
                    .request("resources/read", Some(json!({ "uri": uri })))
                    .await?;
                if json {
                    let line = json!({ "updated": uri, "result": r });
                    output::print_stdout(&format!("{line}\n"))?;
                } else {
                    for c in items(&r, "contents") {
                        o.line(&output::resource_contents(c, "── updated"))?;
                    }
                }
            }
            Ok(ServerEvent::Status { status, .. })
                if !matches!(status, mcplab_protocol::ServerStatus::Connected) =>
            {
                return Err(Failure::from(mcplab_core::mcp::McpError::Transport {
                    message: format!("the server went away while subscribed: {status:?}"),
                }));
            }
            Ok(_) | Err(RecvError::Lagged(_)) => {}
            Err(RecvError::Closed) => return Ok(()),
        }
    }
}
