//! The fuzz exercise: for each tool that may be fuzzed ([`may_fuzz`]), its generated inputs
//! in order on the era's connection. When the server dies, it is started again on a
//! connection manager of its own (same config, this era's revision) to shrink the input that
//! killed it — dropping properties, halving strings and arrays while it still crashes — and
//! to go on with the next input; a server that cannot be started again ends the fuzzing.

use std::sync::Arc;
use std::time::Duration;

use futures::FutureExt;
use futures::future::BoxFuture;
use mcplab_mcp::{Connection, ConnectionManager, ManagerOptions, McpError, RequestOptions};
use mcplab_protocol::{ProtocolChoice, ServerConfig};
use serde_json::{Map, Value, json};

use super::inputs::{inputs, name_seed};
use super::{FuzzCase, FuzzOutcome};
use crate::options::CheckOptions;
use crate::recording::Recording;
use crate::sets::Exercise;

/// How long one input may take when no timeout is given.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);
/// Most servers started again to shrink one crash.
const SHRINK_STARTS: usize = 40;

/// Whether a tool may be called with made-up inputs: it says it only reads, or was named.
pub(crate) fn may_fuzz(tool: &Value, opts: &CheckOptions) -> bool {
    let name = tool.get("name").and_then(Value::as_str).unwrap_or_default();
    let named = opts
        .fuzz
        .as_ref()
        .is_some_and(|f| f.tools.iter().any(|t| t == name));
    named || tool.pointer("/annotations/readOnlyHint") == Some(&Value::Bool(true))
}

pub(super) struct Fuzz;

pub(super) static FUZZ: Fuzz = Fuzz;

impl Exercise for Fuzz {
    fn exercise<'a>(
        &'a self,
        conn: &'a Connection,
        rec: &'a mut Recording,
        opts: &'a CheckOptions,
    ) -> BoxFuture<'a, ()> {
        fuzz(conn, rec, opts).boxed()
    }
}

/// A server started again by the fuzzer.
struct Restarted {
    manager: Arc<ConnectionManager>,
    conn: Arc<Connection>,
}

impl Restarted {
    /// Starts the server on a manager of its own; the error says why it could not be.
    async fn start(config: &ServerConfig) -> Result<Self, McpError> {
        let manager = ConnectionManager::new(ManagerOptions {
            listen_for_changes: false,
            stop_grace: Duration::from_millis(300),
            ..ManagerOptions::default()
        });
        match manager.connect(config.clone()).await {
            Ok(conn) => Ok(Self { manager, conn }),
            Err(e) => {
                manager.shutdown().await;
                Err(e)
            }
        }
    }

    async fn stop(self) {
        self.manager.shutdown().await;
    }
}

async fn fuzz(conn: &Connection, rec: &mut Recording, opts: &CheckOptions) {
    let Some(fo) = opts.fuzz.clone() else { return };
    let timeout = fo.timeout.or(opts.timeout).unwrap_or(DEFAULT_TIMEOUT);
    let config = ServerConfig {
        protocol: ProtocolChoice::parse(&rec.revision).unwrap_or(rec.config.protocol),
        ..rec.config.clone()
    };
    let tools: Vec<Value> = rec
        .tools()
        .iter()
        .filter(|t| may_fuzz(t, opts))
        .cloned()
        .collect();
    let mut restarted: Option<Restarted> = None;
    'tools: for tool in &tools {
        let name = tool
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let schema = tool
            .get("inputSchema")
            .cloned()
            .unwrap_or_else(|| json!({"type": "object"}));
        let cases = inputs(&schema, name_seed(fo.seed, &name), fo.per_tool);
        let mut counts = [0usize; 3];
        for (index, input) in cases.into_iter().enumerate() {
            let current = restarted.as_ref().map_or(conn, |r| &*r.conn);
            let outcome = call(current, &name, &input.arguments, timeout).await;
            let crashed = matches!(outcome, FuzzOutcome::Crash(_));
            counts[match outcome {
                FuzzOutcome::Crash(_) => 1,
                FuzzOutcome::Hang { .. } => 2,
                _ => 0,
            }] += 1;
            let mut case = FuzzCase {
                tool: name.clone(),
                index,
                input: input.arguments,
                what: input.what,
                outcome,
                shrunk: None,
                shrink_stopped: None,
            };
            if crashed {
                if let Some(r) = restarted.take() {
                    r.stop().await;
                }
                // The first crash of a tool is shrunk; later ones are reported as they came.
                if counts[1] == 1 {
                    (case.shrunk, case.shrink_stopped) =
                        shrink(&config, &name, &case.input, timeout).await;
                }
                rec.fuzz.push(case);
                match Restarted::start(&config).await {
                    Ok(r) => restarted = Some(r),
                    Err(e) => {
                        rec.exercised.push(format!("fuzz: the server could not be started (or its endpoint reached) again after a crash, so fuzzing stopped: {e}"));
                        break 'tools;
                    }
                }
                continue;
            }
            rec.fuzz.push(case);
        }
        rec.exercised.push(format!(
            "fuzz {name}: {} inputs (seed {}), {} crash(es), {} hang(s)",
            fo.per_tool, fo.seed, counts[1], counts[2]
        ));
    }
    if let Some(r) = restarted {
        r.stop().await;
    }
}

/// One call, classified.
async fn call(conn: &Connection, tool: &str, args: &Value, timeout: Duration) -> FuzzOutcome {
    let params = json!({"name": tool, "arguments": args});
    let opts = RequestOptions {
        timeout: Some(timeout),
        bypass_cache: true,
        ..RequestOptions::default()
    };
    let result = conn.request("tools/call", Some(params), opts).await;
    if let Some(why) = conn.closed_reason() {
        return FuzzOutcome::Crash(died(conn, &why));
    }
    match result {
        Ok(v) => FuzzOutcome::Answered(v),
        Err(McpError::Server { code, message, .. }) => FuzzOutcome::Error { code, message },
        Err(McpError::Timeout { after, .. }) => FuzzOutcome::Hang {
            secs: after.as_secs_f64(),
        },
        Err(e @ (McpError::Transport { .. } | McpError::NotConnected(_))) => {
            FuzzOutcome::Crash(e.to_string())
        }
        Err(e) => FuzzOutcome::Protocol(e.to_string()),
    }
}

/// The close reason with the last line the server wrote to stderr.
fn died(conn: &Connection, why: &str) -> String {
    match conn.stderr_tail().last() {
        Some(line) => format!("the connection closed ({why}); its last stderr line: {line}"),
        None => format!("the connection closed ({why})"),
    }
}

/// The smallest input found that still crashes a freshly started server (`None`: none smaller
/// than `input`), and why shrinking stopped early, if it did (the server could not be
/// started again).
async fn shrink(
    config: &ServerConfig,
    tool: &str,
    input: &Value,
    timeout: Duration,
) -> (Option<Value>, Option<String>) {
    let mut best = input.clone();
    let mut starts = 0;
    let mut improved = true;
    while improved && starts < SHRINK_STARTS {
        improved = false;
        for candidate in smaller(&best) {
            if starts >= SHRINK_STARTS {
                break;
            }
            starts += 1;
            let server = match Restarted::start(config).await {
                Ok(server) => server,
                Err(e) => {
                    let why = format!("the server could not be started again: {e}");
                    return ((best != *input).then_some(best), Some(why));
                }
            };
            let outcome = call(&server.conn, tool, &candidate, timeout).await;
            server.stop().await;
            if matches!(outcome, FuzzOutcome::Crash(_)) {
                best = candidate;
                improved = true;
                break;
            }
        }
    }
    (Some(best), None)
}

/// Inputs one step smaller than `v`, smallest first: a property left out, a string or array
/// halved (front half, then back half), a nested object shrunk.
pub(super) fn smaller(v: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    match v {
        Value::Object(m) => {
            for k in m.keys() {
                let mut less: Map<String, Value> = m.clone();
                less.remove(k);
                out.push(Value::Object(less));
            }
            for (k, x) in m {
                for s in smaller(x) {
                    let mut less = m.clone();
                    less.insert(k.clone(), s);
                    out.push(Value::Object(less));
                }
            }
        }
        Value::String(s) if s.chars().count() > 1 => {
            let half = s.chars().count() / 2;
            out.push(Value::String(s.chars().take(half).collect()));
            out.push(Value::String(s.chars().skip(half).collect()));
        }
        Value::Array(a) if !a.is_empty() => {
            out.push(Value::Array(a[..a.len() / 2].to_vec()));
            out.push(Value::Array(a[a.len() / 2..].to_vec()));
        }
        _ => {}
    }
    let size = |x: &Value| x.to_string().len();
    let limit = size(v);
    out.retain(|x| size(x) < limit);
    out.sort_by_key(size);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smaller_inputs_shrink_strings_arrays_and_properties() {
        let v = json!({"q": "abcd", "n": 1});
        let s = smaller(&v);
        assert!(s.contains(&json!({"n": 1})));
        assert!(s.contains(&json!({"q": "ab", "n": 1})));
        assert!(s.contains(&json!({"q": "cd", "n": 1})));
        assert!(s.iter().all(|x| x.to_string().len() < v.to_string().len()));
        assert!(smaller(&json!({})).is_empty());
    }

    #[test]
    fn only_read_only_or_named_tools_are_fuzzed() {
        let opts = CheckOptions {
            fuzz: Some(crate::options::FuzzOptions {
                per_tool: 1,
                seed: 1,
                tools: vec!["named".into()],
                timeout: None,
            }),
            ..CheckOptions::default()
        };
        assert!(may_fuzz(
            &json!({"name": "r", "annotations": {"readOnlyHint": true}}),
            &opts
        ));
        assert!(may_fuzz(&json!({"name": "named"}), &opts));
        assert!(!may_fuzz(
            &json!({"name": "w", "annotations": {"readOnlyHint": false}}),
            &opts
        ));
        assert!(!may_fuzz(&json!({"name": "w"}), &opts));
    }
}
