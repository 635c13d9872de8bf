//! The commands that exercise one server: tools, resources, prompts, completion, ping,
//! logging level and server info. Each prints human output or, with `--json`, the exact
//! protocol result. A capability the server did not declare is not asked for: a listing is
//! empty with a note on stderr, anything else fails saying the server does not offer it.

use std::time::{Duration, Instant};

use mcplab_mcp::Listing;
use mcplab_protocol::ServerEvent;
use serde_json::{Value, json};

use crate::cli::{
    CompleteArgs, Connected, InspectCmd, LogLevel, PromptsCmd, ResourcesCmd, TaskArg, ToolsCmd,
};
use crate::failure::{EXIT_CALL, Failure};
use crate::output;
use crate::output::printer::{Column, Printer, items};
use crate::session::Session;
use crate::settings::{DataDir, Settings};
use crate::tool_args;

/// How long the unsubscribe after Ctrl-C may take: the user asked to stop.
const UNSUBSCRIBE_DEADLINE: Duration = Duration::from_secs(5);

pub async fn run(command: InspectCmd, settings: &Settings, s: &Session) -> Result<(), Failure> {
    let p = Printer::new(settings.json, settings.raw);
    match command {
        InspectCmd::Tools(Connected { cmd, .. }) => match cmd {
            ToolsCmd::List => list(s, &p, Listing::Tools, &TOOL_COLUMNS).await,
            ToolsCmd::Call {
                name,
                args,
                pairs,
                task,
                no_wait,
                output: file,
            } => {
                let call = Call {
                    name,
                    args,
                    pairs,
                    task,
                    no_wait,
                };
                call_tool(s, &p, &settings.data, call, file).await
            }
        },
        InspectCmd::Resources(Connected { cmd, .. }) => match cmd {
            ResourcesCmd::List => list(s, &p, Listing::Resources, &RESOURCE_COLUMNS).await,
            ResourcesCmd::Templates => {
                list(s, &p, Listing::ResourceTemplates, &TEMPLATE_COLUMNS).await
            }
            ResourcesCmd::Read { uri, output: file } => read(s, &p, &uri, file).await,
            ResourcesCmd::Subscribe { uri, count } => subscribe(s, &p, &uri, count).await,
        },
        InspectCmd::Prompts(Connected { cmd, .. }) => match cmd {
            PromptsCmd::List => list(s, &p, Listing::Prompts, &PROMPT_COLUMNS).await,
            PromptsCmd::Get { name, pairs } => get_prompt(s, &p, &name, &pairs).await,
        },
        InspectCmd::Complete(c) => complete(s, &p, c).await,
        InspectCmd::Ping(_) => ping(s, &p).await,
        InspectCmd::LogLevel { level, .. } => log_level(s, &p, level).await,
        InspectCmd::Info(_) => info(s, &p),
    }
}

const TOOL_COLUMNS: [Column; 3] = [
    Column::field("name", "name"),
    Column::with("hints", tool_flags),
    Column::field("description", "description"),
];
const RESOURCE_COLUMNS: [Column; 4] = [
    Column::field("uri", "uri"),
    Column::field("name", "name"),
    Column::field("mime type", "mimeType"),
    Column::field("description", "description"),
];
const TEMPLATE_COLUMNS: [Column; 4] = [
    Column::field("uri template", "uriTemplate"),
    Column::field("name", "name"),
    Column::field("mime type", "mimeType"),
    Column::field("description", "description"),
];
const PROMPT_COLUMNS: [Column; 3] = [
    Column::field("name", "name"),
    Column::with("arguments", prompt_args),
    Column::field("description", "description"),
];

/// Prints every page of a listing; when the server did not declare its capability, an empty
/// listing (`{key: []}` as JSON, nothing for a person) with a note on stderr.
async fn list(
    s: &Session,
    p: &Printer,
    listing: Listing,
    columns: &[Column],
) -> Result<(), Failure> {
    let key = listing.key();
    if let Some(capability) = listing.capability()
        && !s.offers(capability)
    {
        eprintln!(
            "this server does not offer {capability} (its initialize result declares no \
             `{capability}` capability), so there is nothing to list"
        );
        return p.value(&json!({ key: [] }), |_| String::new());
    }
    let r = s.list_all(listing).await?;
    p.list(&r, key, columns)
}

/// `tools call`'s arguments, as typed.
struct Call {
    name: String,
    args: Option<String>,
    pairs: Vec<String>,
    task: TaskArg,
    no_wait: bool,
}

/// `tools call`: typed `-a` pairs against the tool's schema, the call (maybe as a task), its
/// result, and exit 1 when the tool says `isError`.
async fn call_tool(
    s: &Session,
    p: &Printer,
    data: &DataDir,
    call: Call,
    file: Option<std::path::PathBuf>,
) -> Result<(), Failure> {
    let Call {
        name,
        args,
        pairs,
        task,
        no_wait,
    } = call;
    let schema = if pairs.is_empty() {
        None
    } else {
        Some(input_schema(s, &name).await?)
    };
    let arguments = tool_args::build(args.as_deref(), &pairs, schema.flatten().as_ref())?;
    if no_wait {
        super::tasks::check_no_wait(s)?;
    }
    let started = Instant::now();
    let opts = mcplab_mcp::RequestOptions {
        task: match task {
            TaskArg::Auto => mcplab_protocol::TaskMode::Auto,
            TaskArg::Force => mcplab_protocol::TaskMode::Force,
            TaskArg::Never => mcplab_protocol::TaskMode::Never,
        },
        no_wait,
        ..Default::default()
    };
    let params = json!({ "name": name, "arguments": arguments });
    let called = s.request_opts("tools/call", Some(params), opts).await;
    super::tasks::remember(data, s);
    let r = called?;
    if mcplab_mcp::modern::mrtr::is_task(&r) {
        return super::tasks::print_created(&r, p, s);
    }
    p.value(&r, output::tool_result)?;
    if !p.is_json() {
        eprintln!("({} ms)", started.elapsed().as_millis());
    }
    if let Some(path) = file {
        save_binary(&r, &path)?;
    }
    if r.get("isError").and_then(Value::as_bool) == Some(true) {
        Err(Failure::silent(EXIT_CALL))
    } else {
        Ok(())
    }
}

/// The input schema of tool `name` (`None`: it declares none), or a usage error when the
/// server has no such tool.
async fn input_schema(s: &Session, name: &str) -> Result<Option<Value>, Failure> {
    let tools = s.list_all(Listing::Tools).await?;
    let tool = items(&tools, "tools").find(|t| t.get("name").and_then(Value::as_str) == Some(name));
    match tool {
        Some(t) => Ok(t.get("inputSchema").cloned()),
        None => Err(Failure::usage(format!(
            "the server has no tool named `{name}` (see `mcplab tools list`)"
        ))),
    }
}

/// `resources read`: the contents, or the first one's bytes into `file`.
async fn read(
    s: &Session,
    p: &Printer,
    uri: &str,
    file: Option<std::path::PathBuf>,
) -> Result<(), Failure> {
    s.require("resources")?;
    let r = s
        .request("resources/read", Some(json!({ "uri": uri })))
        .await?;
    if let Some(path) = file {
        return save_first(&r, &path);
    }
    p.value(&r, |r| contents_text(r, "──"))
}

/// Each content of a `resources/read` result under `label`, one after the other.
fn contents_text(r: &Value, label: &str) -> String {
    items(r, "contents")
        .map(|c| output::resource_contents(c, label) + "\n")
        .collect()
}

/// `prompts get` with `-a KEY=VALUE` arguments (strings, as the protocol has them).
async fn get_prompt(s: &Session, p: &Printer, name: &str, pairs: &[String]) -> Result<(), Failure> {
    s.require("prompts")?;
    let mut arguments = serde_json::Map::new();
    for pair in pairs {
        let (k, v) = pair
            .split_once('=')
            .ok_or_else(|| Failure::usage(format!("-a expects KEY=VALUE, got `{pair}`")))?;
        arguments.insert(k.to_owned(), Value::String(v.to_owned()));
    }
    let params = json!({ "name": name, "arguments": arguments });
    let r = s.request("prompts/get", Some(params)).await?;
    p.value(&r, output::prompt_messages)
}

/// `ping`, or on a 2026-07-28 server (which removed it) `server/discover`, never from the
/// cache: the cheapest request every such server must answer.
async fn ping(s: &Session, p: &Printer) -> Result<(), Failure> {
    let started = Instant::now();
    let modern = s.connection().is_modern();
    let r = if modern {
        let opts = mcplab_mcp::RequestOptions {
            bypass_cache: true,
            ..Default::default()
        };
        s.request_opts("server/discover", None, opts).await?
    } else {
        s.request("ping", None).await?
    };
    let ms = started.elapsed().as_millis();
    p.value(&r, |_| {
        if modern {
            format!("pong ({ms} ms, server/discover: 2026-07-28 has no ping)\n")
        } else {
            format!("pong ({ms} ms)\n")
        }
    })
}

/// `log-level`: `logging/setLevel`; a 2026-07-28 server has none, so nothing is sent and
/// stderr says how to pass the level instead.
async fn log_level(s: &Session, p: &Printer, level: LogLevel) -> Result<(), Failure> {
    s.require("logging")?;
    let level = format!("{level:?}").to_lowercase();
    if s.connection().is_modern() {
        eprintln!(
            "nothing sent: protocol 2026-07-28 has no logging/setLevel (logging is \
             deprecated there); the level travels in each request's _meta, so pass \
             --log-level {level} with the command whose logs you want"
        );
        return p.value(&json!({}), |_| String::new());
    }
    let r = s
        .request("logging/setLevel", Some(json!({ "level": level })))
        .await?;
    p.value(&r, |_| format!("log level set to {level}\n"))
}

/// `info`: the initialize result (with `mcplab/era` added as JSON), and for a person the
/// era, the versions the server offered and the tools mcplab rejected.
fn info(s: &Session, p: &Printer) -> Result<(), Failure> {
    let conn = s.connection();
    let mut v = conn.initialize_result().clone();
    v["mcplab/era"] = serde_json::to_value(conn.era()).unwrap_or_default();
    p.value(&v, |_| {
        let era = conn.era();
        let name = match era.era {
            mcplab_protocol::Era::Modern => "modern",
            mcplab_protocol::Era::Legacy => "legacy",
        };
        let mut text = info_text(conn.initialize_result());
        text.push_str(&format!("era:       {name} ({})\n", era.how));
        if !era.supported.is_empty() {
            text.push_str(&format!("versions:  {}\n", era.supported.join(", ")));
        }
        for (tool, why) in conn.rejected_tools() {
            text.push_str(&format!("rejected:  {tool}: {why}\n"));
        }
        text
    })
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
    if mcplab_apps::ui_link(t).is_some() {
        f.push("ui");
    }
    if !mcplab_apps::visibility(t).model {
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

/// `complete`: the values one per line (the total on stderr), or the result as JSON.
async fn complete(s: &Session, p: &Printer, c: CompleteArgs) -> Result<(), Failure> {
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
    let comp = r.get("completion").cloned().unwrap_or(Value::Null);
    p.value(&r, |_| {
        items(&comp, "values")
            .map(|v| {
                v.as_str()
                    .map(str::to_owned)
                    .unwrap_or_else(|| v.to_string())
                    + "\n"
            })
            .collect()
    })?;
    if let Some(total) = comp.get("total").filter(|_| !p.is_json()) {
        let more = comp.get("hasMore") == Some(&Value::Bool(true));
        eprintln!(
            "({total} in total{})",
            if more { ", more available" } else { "" }
        );
    }
    Ok(())
}

async fn subscribe(
    s: &Session,
    p: &Printer,
    uri: &str,
    count: Option<usize>,
) -> Result<(), Failure> {
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
    // N10: both eras declare it the same way.
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
        return super::listen::watch(s, args, p.is_json(), true).await;
    }
    let mut events = s.subscribe();
    s.request("resources/subscribe", Some(json!({ "uri": uri })))
        .await?;
    eprintln!("subscribed to {uri}; waiting for updates (Ctrl-C to stop)");
    let watched = watch_updates(s, p, &mut events, uri, count).await;
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
    p: &Printer,
    events: &mut mcplab_mcp::EventReceiver,
    uri: &str,
    count: Option<usize>,
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
                match p {
                    // One compact line per update (JSON Lines), not the pretty result.
                    Printer::Json => {
                        let line = json!({ "updated": uri, "result": r });
                        output::print_stdout(&format!("{line}\n"))?;
                    }
                    Printer::Human(out) => out.print(&contents_text(&r, "── updated"))?,
                }
            }
            Ok(ServerEvent::Status { status, .. })
                if !matches!(status, mcplab_protocol::ServerStatus::Connected) =>
            {
                return Err(Failure::from(mcplab_mcp::McpError::Transport {
                    message: format!("the server went away while subscribed: {status:?}"),
                }));
            }
            Ok(_) | Err(RecvError::Lagged(_)) => {}
            Err(RecvError::Closed) => return Ok(()),
        }
    }
}
