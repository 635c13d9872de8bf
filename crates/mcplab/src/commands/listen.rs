//! `mcplab listen` (and `resources subscribe` on a 2026-07-28 server): one
//! `subscriptions/listen` request whose response stream carries the change notifications opted
//! in to. It prints each as it arrives until Ctrl-C, `--count` or the server ending the
//! subscription, then cancels the request (closing the stream on HTTP,
//! `notifications/cancelled` on stdio). An acknowledgement that honours nothing asked for ends
//! it at once: nothing could ever arrive.

use mcplab_mcp::RequestOptions;
use mcplab_protocol::ServerEvent;
use serde_json::{Value, json};
use tokio::sync::broadcast::error::RecvError;
use tokio_util::sync::CancellationToken;

use crate::cli::ListenArgs;
use crate::failure::Failure;
use crate::output;
use crate::session::Session;
use crate::settings::Settings;

pub async fn run(args: ListenArgs, settings: &Settings, s: &Session) -> Result<(), Failure> {
    if !s.connection().is_modern() {
        return Err(Failure::usage(
            "subscriptions/listen belongs to protocol 2026-07-28; this server speaks an \
             earlier revision (use `resources subscribe`, or --protocol 2026-07-28)",
        ));
    }
    watch(s, args, settings.json, false).await
}

/// Opens the listen request and prints what arrives. `read_updates` also reads a resource
/// again when it is updated (what `resources subscribe` shows).
pub async fn watch(
    s: &Session,
    args: ListenArgs,
    json: bool,
    read_updates: bool,
) -> Result<(), Failure> {
    let mut filter = serde_json::Map::new();
    for (on, key) in [
        (args.tools, "toolsListChanged"),
        (args.prompts, "promptsListChanged"),
        (args.resources, "resourcesListChanged"),
    ] {
        if on {
            filter.insert(key.into(), Value::Bool(true));
        }
    }
    if !args.resource_uris.is_empty() {
        filter.insert("resourceSubscriptions".into(), json!(args.resource_uris));
    }
    if !args.task_ids.is_empty() {
        filter.insert("taskIds".into(), json!(args.task_ids));
    }
    if filter.is_empty() {
        return Err(Failure::usage(
            "choose what to listen for: --tools, --prompts, --resources, --resource URI, --task ID",
        ));
    }
    let mut events = s.subscribe();
    let stop = CancellationToken::new();
    let conn = s.manager().get(s.connection().name())?;
    let server = conn.name().to_owned();
    let opts = RequestOptions {
        cancel: Some(stop.clone()),
        ..Default::default()
    };
    let asked = Value::Object(filter);
    let params = json!({ "notifications": asked });
    let mut listening = tokio::spawn(async move {
        conn.request("subscriptions/listen", Some(params), opts)
            .await
    });
    eprintln!("listening (Ctrl-C to stop)");
    let mut seen = 0;
    let outcome = loop {
        if args.count.is_some_and(|c| seen >= c) {
            break Ok(());
        }
        let event = tokio::select! {
            e = events.recv() => e,
            ended = &mut listening => break ended_by_server(ended),
            _ = s.interrupted.cancelled() => break Ok(()),
        };
        let line = match event {
            Ok(e) if e.server() != server => continue,
            Ok(ServerEvent::ListChanged { list, .. }) => {
                json!({"method": format!("notifications/{list}/list_changed")})
            }
            Ok(ServerEvent::ResourceUpdated { uri, .. }) => {
                json!({"method": "notifications/resources/updated", "uri": uri})
            }
            Ok(ServerEvent::Task { task }) => {
                json!({"method": "notifications/tasks", "task": task})
            }
            Ok(ServerEvent::SubscriptionAcknowledged { notifications, .. }) => {
                eprintln!("acknowledged: {notifications}");
                if honours_nothing(&notifications) {
                    break Err(Failure {
                        kind: "capability",
                        ..Failure::call(format!(
                            "the server agreed to none of the notifications asked for ({asked}): \
                             nothing would ever arrive (see its capabilities with `mcplab info`)"
                        ))
                    });
                }
                continue;
            }
            Ok(ServerEvent::Status { status, .. })
                if !matches!(status, mcplab_protocol::ServerStatus::Connected) =>
            {
                break Err(Failure::from(mcplab_mcp::McpError::Transport {
                    message: format!("the server went away while listening: {status:?}"),
                }));
            }
            Ok(_) | Err(RecvError::Lagged(_)) => continue,
            Err(RecvError::Closed) => break Ok(()),
        };
        seen += 1;
        if read_updates && let Some(uri) = line["uri"].as_str() {
            let r = s
                .request("resources/read", Some(json!({ "uri": uri })))
                .await?;
            if json {
                crate::output::outln!(
                    "{}",
                    serde_json::to_string(&json!({ "updated": uri, "result": r }))
                        .unwrap_or_default()
                );
            } else {
                for c in r["contents"].as_array().into_iter().flatten() {
                    crate::output::outln!("{}", output::resource_contents(c, "── updated"));
                }
            }
        } else if json {
            crate::output::outln!("{}", serde_json::to_string(&line).unwrap_or_default());
        } else {
            let method = line["method"].as_str().unwrap_or("?");
            match line["uri"].as_str() {
                Some(uri) => crate::output::outln!("{method} {}", output::safe(uri)),
                None => crate::output::outln!("{method}"),
            }
        }
    };
    if !listening.is_finished() {
        stop.cancel();
        let _ = tokio::time::timeout(std::time::Duration::from_secs(3), listening).await;
    }
    outcome
}

/// The listen request ended before we stopped it: the server closed the subscription.
fn ended_by_server(
    ended: Result<Result<Value, mcplab_mcp::McpError>, tokio::task::JoinError>,
) -> Result<(), Failure> {
    match ended {
        Ok(Ok(_)) => {
            eprintln!("the server ended the subscription");
            Ok(())
        }
        Ok(Err(e)) => Err(Failure::from(e)),
        Err(e) => Err(Failure::call(format!("listening stopped: {e}"))),
    }
}

/// Whether an acknowledged filter turns nothing on (no flag true, no uri, no task id).
fn honours_nothing(acknowledged: &Value) -> bool {
    acknowledged.as_object().is_none_or(|m| {
        m.values().all(|v| match v {
            Value::Bool(on) => !on,
            Value::Array(items) => items.is_empty(),
            _ => true,
        })
    })
}
