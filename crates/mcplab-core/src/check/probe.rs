//! Exercises a connected server the way a careful client would: ping, every listing it
//! declares (page by page, watching the cursors), the listings it does not declare (a server
//! that answers them should say so), `logging/setLevel` when it declares logging, and the
//! tools the user named. Then it hands the recorded traffic to `frames`. It never calls a tool
//! it was not asked to: tools may have side effects.

use std::collections::HashSet;
use std::time::Duration;

use mcplab_protocol::check::CheckReport;
use mcplab_protocol::{ServerTransport, TrafficFrame};
use serde_json::{Value, json};

use super::frames::{Context, check_frames};
use super::rules::{
    BROKEN, CONNECT, PAGINATION, PING, PROTOCOL_VERSION, TOOL_DUPLICATE, TOOL_LIST_COST,
    TOOL_LIST_SIZE, UNDECLARED,
};
use super::spec::Spec;
use super::{At, Findings};
use crate::mcp::{
    Connection, Listing, McpError, PROTOCOL_VERSION as OURS, RequestOptions, TrafficLog,
};

/// Pages a listing may take before the checker calls it endless.
const MAX_PAGES: usize = 100;

/// What to exercise besides the listings.
#[derive(Debug, Clone)]
pub struct CheckOptions {
    /// Tools to call, with their arguments.
    pub calls: Vec<(String, Value)>,
    /// Estimated tokens of the tool list per turn above which it warns.
    pub token_budget: usize,
    /// Per-request timeout (None: the connection's).
    pub timeout: Option<Duration>,
}

impl Default for CheckOptions {
    fn default() -> Self {
        Self {
            calls: Vec::new(),
            token_budget: 10_000,
            timeout: None,
        }
    }
}

/// Checks a connected server: exercises it, then judges all of its traffic so far.
pub async fn check_connection(
    conn: &Connection,
    traffic: &TrafficLog,
    opts: &CheckOptions,
) -> CheckReport {
    let version = conn.protocol_version().unwrap_or(OURS).to_owned();
    let mut f = Findings::new(&version);
    let mut spec = match Spec::load(&version) {
        Some(s) => s,
        None => {
            f.add(
                &PROTOCOL_VERSION,
                format!("the server negotiated {version}, a revision mcplab has no schema for; checked against {OURS}"),
                At::default(),
            );
            Spec::load(OURS).expect("the schema of our own revision is vendored")
        }
    };
    f.applied(&PROTOCOL_VERSION);
    // 2026-07-28 has no handshake, no `ping` and no `logging/setLevel` (the level travels
    // with each request): the connection was made by `server/discover`, and those two are not
    // probed rather than reported as failures.
    let modern = conn.is_modern();
    let mut exercised = vec![if modern {
        format!("server/discover: protocol {version}")
    } else {
        format!("initialize: protocol {version}")
    }];
    let caps = conn
        .initialize_result()
        .get("capabilities")
        .cloned()
        .unwrap_or(Value::Null);
    let req = |method: &'static str, params: Option<Value>| {
        let opts = RequestOptions {
            timeout: opts.timeout,
            ..RequestOptions::default()
        };
        conn.request(method, params, opts)
    };

    if modern {
        exercised.push("ping: not in 2026-07-28, not probed".into());
    } else {
        f.applied(&PING);
        match req("ping", None).await {
            Ok(_) => exercised.push("ping".into()),
            Err(e) => f.add(&PING, format!("`ping` failed: {e}"), At::default()),
        }
    }
    let mut tools = Vec::new();
    for listing in Listing::STANDARD {
        let (method, cap) = (listing.method(), listing.capability().unwrap_or_default());
        let declared = caps.get(cap).is_some_and(|c| !c.is_null());
        let listed = list(conn, listing, opts.timeout, declared, &mut f).await;
        match listed {
            Ok((items, pages)) => {
                exercised.push(format!("{method}: {} in {pages} page(s)", items.len()));
                if !declared && !items.is_empty() {
                    f.add(
                        &UNDECLARED,
                        format!("the server answers {method} with {} item(s) but does not declare the `{cap}` capability", items.len()),
                        At::default(),
                    );
                }
                if listing == Listing::Tools {
                    tools = items;
                }
            }
            Err(Some(e)) if declared => f.add(
                &BROKEN,
                format!("the server declares `{cap}` but {method} failed: {e}"),
                At::default(),
            ),
            Err(_) => {}
        }
    }
    whole_tool_list(&tools, opts.token_budget, &mut f);
    if caps.get("logging").is_some() && !modern {
        f.applied(&BROKEN);
        match req("logging/setLevel", Some(json!({"level": "info"}))).await {
            Ok(_) => exercised.push("logging/setLevel info".into()),
            Err(e) => f.add(
                &BROKEN,
                format!("the server declares `logging` but logging/setLevel failed: {e}"),
                At::default(),
            ),
        }
    }
    for (name, args) in &opts.calls {
        let args = if args.is_null() {
            json!({})
        } else {
            args.clone()
        };
        let params = json!({"name": name, "arguments": args});
        let outcome = match req("tools/call", Some(params)).await {
            Ok(r) if r.get("isError") == Some(&Value::Bool(true)) => "isError".to_owned(),
            Ok(_) => "ok".to_owned(),
            Err(e) => format!("failed: {e}"),
        };
        exercised.push(format!("tools/call {name}: {outcome}"));
    }
    let frames = traffic.snapshot(conn.name()).frames;
    let stdio = matches!(conn.config().transport, ServerTransport::Stdio { .. });
    let ctx = Context {
        capabilities: &caps,
        stdio,
    };
    check_frames(&frames, &ctx, &mut spec, &mut f);
    f.finish(conn.name(), Some(version), exercised)
}

/// Every page of a listing. `Err(None)` when an undeclared capability's method is refused
/// (as it should be); `Err(Some(e))` for other failures.
async fn list(
    conn: &Connection,
    listing: Listing,
    timeout: Option<Duration>,
    declared: bool,
    f: &mut Findings,
) -> Result<(Vec<Value>, usize), Option<McpError>> {
    f.applied(&PAGINATION);
    f.applied(&UNDECLARED);
    f.applied(&BROKEN);
    let (method, key) = (listing.method(), listing.key());
    let mut items = Vec::new();
    let mut seen = HashSet::new();
    let mut cursor: Option<String> = None;
    for page in 1..=MAX_PAGES {
        let params = cursor.as_ref().map(|c| json!({ "cursor": c }));
        let opts = RequestOptions {
            timeout,
            ..RequestOptions::default()
        };
        let result = match conn.request(method, params, opts).await {
            Ok(r) => r,
            Err(McpError::Server { code: -32601, .. }) if !declared => return Err(None),
            Err(e) => return Err(Some(e)),
        };
        if let Some(a) = result.get(key).and_then(Value::as_array) {
            items.extend(a.iter().cloned());
        }
        match result.get("nextCursor") {
            None | Some(Value::Null) => return Ok((items, page)),
            Some(Value::String(next)) => {
                if !seen.insert(next.clone()) {
                    f.add(
                        &PAGINATION,
                        format!("{method} repeated the cursor `{next}` on page {page}: a client following it loops for ever"),
                        At::default().excerpt(result.to_string()),
                    );
                    return Ok((items, page));
                }
                cursor = Some(next.clone());
            }
            Some(other) => {
                f.add(
                    &PAGINATION,
                    format!("{method} returned nextCursor {other}, which is not a string"),
                    At::default(),
                );
                return Ok((items, page));
            }
        }
    }
    f.add(
        &PAGINATION,
        format!("{method} still had a nextCursor after {MAX_PAGES} pages"),
        At::default(),
    );
    Ok((items, MAX_PAGES))
}

/// Rules on the whole tool list: unique names, and its cost in model tokens per turn.
fn whole_tool_list(tools: &[Value], budget: usize, f: &mut Findings) {
    f.applied(&TOOL_DUPLICATE);
    f.applied(&TOOL_LIST_SIZE);
    let mut names = HashSet::new();
    for t in tools {
        if let Some(n) = t.get("name").and_then(Value::as_str)
            && !names.insert(n)
        {
            f.add(
                &TOOL_DUPLICATE,
                format!("two tools are named `{}`", n.escape_debug()),
                At::default(),
            );
        }
    }
    if tools.is_empty() {
        return;
    }
    // What a host sends the model: name, description and input schema per tool. About four
    // characters per token is the usual estimate for English text and JSON.
    let sent: Vec<Value> = tools
        .iter()
        .map(|t| json!({"name": t.get("name"), "description": t.get("description"), "parameters": t.get("inputSchema")}))
        .collect();
    let tokens = serde_json::to_string(&sent).map_or(0, |s| s.len()) / 4;
    let message = format!(
        "the {} tool definitions cost about {tokens} tokens on every model turn",
        tools.len()
    );
    if tokens > budget {
        f.add(
            &TOOL_LIST_SIZE,
            format!("{message}, over the budget of {budget} (--token-budget)"),
            At::default(),
        );
    } else {
        f.add(&TOOL_LIST_COST, message, At::default());
    }
}

/// A server that could not be connected: its recorded frames are still judged, and the
/// failure itself is a finding.
pub fn check_failed_connect(
    server: &str,
    frames: &[TrafficFrame],
    stdio: bool,
    error: &str,
) -> CheckReport {
    let answered = frames
        .iter()
        .filter_map(|fr| serde_json::from_str::<Value>(&fr.text).ok())
        .find_map(|v| {
            v.pointer("/result/protocolVersion")
                .and_then(Value::as_str)
                .map(str::to_owned)
        });
    let revision = answered
        .as_deref()
        .filter(|r| Spec::load(r).is_some())
        .unwrap_or(OURS)
        .to_owned();
    let mut f = Findings::new(&revision);
    f.add(
        &CONNECT,
        format!("connecting failed: {error}"),
        At::default(),
    );
    if let Some(v) = answered.as_deref().filter(|v| Spec::load(v).is_none()) {
        f.add(
            &PROTOCOL_VERSION,
            format!(
                "the server answered protocol version {v}, which is not a revision mcplab knows"
            ),
            At::default(),
        );
    }
    let mut spec = Spec::load(&revision).expect("a vendored revision");
    let caps = Value::Null;
    check_frames(
        frames,
        &Context {
            capabilities: &caps,
            stdio,
        },
        &mut spec,
        &mut f,
    );
    f.finish(server, answered, vec!["initialize: failed".into()])
}
