//! The commands that exercise one server: tools, resources, prompts, completion, ping,
//! logging level and server info. Each prints human output or, with `--json`, the exact
//! protocol result.

use std::time::Instant;

use mcplab_protocol::ServerEvent;
use serde_json::{Value, json};

use crate::args;
use crate::cli::{Command, CompleteArgs, Global, PromptsCmd, ResourcesCmd, ToolsCmd};
use crate::failure::{EXIT_CALL, Failure};
use crate::output;
use crate::session::Session;

pub async fn run(command: Command, global: &Global, s: &Session) -> Result<(), Failure> {
    let json = global.json;
    match command {
        Command::Tools(ToolsCmd::List) => {
            let r = s.list_all("tools/list", "tools").await?;
            if json {
                println!("{}", output::json(&r));
            } else {
                let rows: Vec<Vec<String>> = items(&r, "tools")
                    .map(|t| vec![text(t, "name"), tool_flags(t), text(t, "description")])
                    .collect();
                print!(
                    "{}",
                    output::table(&["name", "hints", "description"], &rows)
                );
            }
            Ok(())
        }
        Command::Tools(ToolsCmd::Call { name, args, pairs }) => {
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
            let r = s
                .request(
                    "tools/call",
                    Some(json!({ "name": name, "arguments": arguments })),
                )
                .await?;
            let is_error = r.get("isError").and_then(Value::as_bool) == Some(true);
            if json {
                println!("{}", output::json(&r));
            } else {
                print!("{}", output::tool_result(&r));
                eprintln!("({} ms)", started.elapsed().as_millis());
            }
            if is_error {
                Err(Failure::silent(EXIT_CALL))
            } else {
                Ok(())
            }
        }
        Command::Resources(ResourcesCmd::List) => {
            let r = s.list_all("resources/list", "resources").await?;
            if json {
                println!("{}", output::json(&r));
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
                print!(
                    "{}",
                    output::table(&["uri", "name", "mime type", "description"], &rows)
                );
            }
            Ok(())
        }
        Command::Resources(ResourcesCmd::Templates) => {
            let r = s
                .list_all("resources/templates/list", "resourceTemplates")
                .await?;
            if json {
                println!("{}", output::json(&r));
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
                print!(
                    "{}",
                    output::table(&["uri template", "name", "mime type", "description"], &rows)
                );
            }
            Ok(())
        }
        Command::Resources(ResourcesCmd::Read { uri, output: file }) => {
            let r = s
                .request("resources/read", Some(json!({ "uri": uri })))
                .await?;
            if let Some(path) = file {
                return save_first(&r, &path);
            }
            if json {
                println!("{}", output::json(&r));
            } else {
                for c in items(&r, "contents") {
                    println!("{}", output::resource_contents(c, "──"));
                }
            }
            Ok(())
        }
        Command::Resources(ResourcesCmd::Subscribe { uri, count }) => {
            subscribe(s, &uri, count, json).await
        }
        Command::Prompts(PromptsCmd::List) => {
            let r = s.list_all("prompts/list", "prompts").await?;
            if json {
                println!("{}", output::json(&r));
            } else {
                let rows: Vec<Vec<String>> = items(&r, "prompts")
                    .map(|p| vec![text(p, "name"), prompt_args(p), text(p, "description")])
                    .collect();
                print!(
                    "{}",
                    output::table(&["name", "arguments", "description"], &rows)
                );
            }
            Ok(())
        }
        Command::Prompts(PromptsCmd::Get { name, pairs }) => {
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
                println!("{}", output::json(&r));
            } else {
                print!("{}", output::prompt_messages(&r));
            }
            Ok(())
        }
        Command::Complete(c) => complete(s, c, json).await,
        Command::Ping => {
            let started = Instant::now();
            let r = s.request("ping", None).await?;
            if json {
                println!("{}", output::json(&r));
            } else {
                println!("pong ({} ms)", started.elapsed().as_millis());
            }
            Ok(())
        }
        Command::LogLevel { level } => {
            let level = format!("{level:?}").to_lowercase();
            let r = s
                .request("logging/setLevel", Some(json!({ "level": level })))
                .await?;
            if json {
                println!("{}", output::json(&r));
            } else {
                println!("log level set to {level}");
            }
            Ok(())
        }
        Command::Info => {
            let info = s.connection().initialize_result();
            if json {
                println!("{}", output::json(info));
            } else {
                print_info(info);
            }
            Ok(())
        }
        Command::Servers(_)
        | Command::DemoServer
        | Command::Serve
        | Command::Chat(_)
        | Command::Oauth(_)
        | Command::Apps(_)
        | Command::Eval(_) => {
            unreachable!("handled without a session")
        }
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

fn print_info(info: &Value) {
    let si = info.get("serverInfo").cloned().unwrap_or(Value::Null);
    println!("server:    {} {}", text(&si, "name"), text(&si, "version"));
    let title = text(&si, "title");
    if !title.is_empty() {
        println!("title:     {title}");
    }
    println!("protocol:  {}", text(info, "protocolVersion"));
    let caps: Vec<String> = info
        .get("capabilities")
        .and_then(Value::as_object)
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default();
    println!("supports:  {}", caps.join(", "));
    let instructions = text(info, "instructions");
    if !instructions.is_empty() {
        println!("\ninstructions:\n{instructions}");
    }
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

async fn complete(s: &Session, c: CompleteArgs, json: bool) -> Result<(), Failure> {
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
        println!("{}", output::json(&r));
    } else {
        let comp = r.get("completion").cloned().unwrap_or(Value::Null);
        for v in items(&comp, "values") {
            println!(
                "{}",
                v.as_str()
                    .map(str::to_owned)
                    .unwrap_or_else(|| v.to_string())
            );
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
    uri: &str,
    count: Option<usize>,
    json: bool,
) -> Result<(), Failure> {
    use tokio::sync::broadcast::error::RecvError;
    let mut events = s.subscribe();
    s.request("resources/subscribe", Some(json!({ "uri": uri })))
        .await?;
    eprintln!("subscribed to {uri}; waiting for updates (Ctrl-C to stop)");
    let mut seen = 0;
    loop {
        if count.is_some_and(|c| seen >= c) {
            break;
        }
        let event = tokio::select! {
            e = events.recv() => e,
            _ = s.interrupted.cancelled() => break,
        };
        match event {
            Ok(ServerEvent::ResourceUpdated { uri: updated, .. }) if updated == uri => {
                seen += 1;
                let r = s
                    .request("resources/read", Some(json!({ "uri": uri })))
                    .await?;
                if json {
                    println!(
                        "{}",
                        serde_json::to_string(&json!({ "updated": uri, "result": r }))
                            .unwrap_or_default()
                    );
                } else {
                    for c in items(&r, "contents") {
                        println!("{}", output::resource_contents(c, "── updated"));
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
            Err(RecvError::Closed) => break,
        }
    }
    // Best effort: the server may already be gone.
    let _ = s
        .request("resources/unsubscribe", Some(json!({ "uri": uri })))
        .await;
    Ok(())
}
