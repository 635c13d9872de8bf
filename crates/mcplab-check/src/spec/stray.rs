//! One request of the spec probe, watched for a response that answers no request: the probe
//! sends one request at a time, so a response whose id mcplab never sent, arriving while a
//! request waits, is the server answering with the wrong id. The request then fails at once
//! with [`ProbeError::StrayResponse`] naming both ids, instead of waiting out its timeout (the
//! `response-id` rule reports the frame). A second answer to an id already sent is not a
//! stray here (the frame rules report it); the request keeps waiting for its own answer.

use std::collections::HashSet;

use futures::FutureExt;
use mcplab_mcp::{Connection, RequestOptions, TrafficLog};
use mcplab_protocol::{Direction, FrameKind, TrafficFrame};
use serde_json::Value;
use tokio::sync::broadcast::error::RecvError;

use crate::recording::ProbeError;

/// Sends `method` and waits for its answer, or for a response with an id never sent.
pub(super) async fn request(
    conn: &Connection,
    method: &str,
    params: Option<Value>,
    opts: RequestOptions,
) -> Result<Value, ProbeError> {
    let traffic = conn.traffic().clone();
    let mut feed = traffic.subscribe();
    let mut sent = sent_ids(&traffic, conn.name());
    let answer = conn.request(method, params, opts);
    tokio::pin!(answer);
    let mut watching = true;
    loop {
        tokio::select! {
            // The frames first: a stray answer explains a request that then fails (an HTTP
            // response stream that ended without its answer).
            biased;
            next = feed.recv(), if watching => match next {
                Ok(frame) if frame.server == conn.name() => {
                    if let Some(stray) = classify(&traffic, frame, &mut sent) {
                        return Err(stray_error(method, &stray));
                    }
                }
                Ok(_) | Err(RecvError::Lagged(_)) => {}
                Err(RecvError::Closed) => watching = false,
            },
            r = &mut answer => {
                let e = match r {
                    Ok(v) => return Ok(v),
                    Err(e) => e,
                };
                // Frames recorded before the failure may not have been read yet.
                while let Some(Ok(frame)) = feed.recv().now_or_never() {
                    if frame.server == conn.name()
                        && let Some(stray) = classify(&traffic, frame, &mut sent)
                    {
                        return Err(stray_error(method, &stray));
                    }
                }
                return Err(ProbeError::from_mcp(&e));
            }
        }
    }
}

fn stray_error(method: &str, stray: &str) -> ProbeError {
    ProbeError::StrayResponse(format!(
        "`{method}` was not answered: the server sent a response with id {stray}, which matches no request mcplab sent"
    ))
}

/// Notes an outbound request's id; returns the id of an inbound response never asked for.
fn classify(
    traffic: &TrafficLog,
    frame: TrafficFrame,
    sent: &mut HashSet<String>,
) -> Option<String> {
    if frame.kind != FrameKind::Message {
        return None;
    }
    let v = message(traffic, frame.clone())?;
    let id = v.get("id")?.to_string();
    let is_request = v.get("method").is_some();
    match frame.direction {
        Direction::Outbound if is_request => {
            sent.insert(id);
            None
        }
        Direction::Inbound if !is_request && !sent.contains(&id) => Some(id),
        _ => None,
    }
}

/// The ids of every request already sent to this server.
fn sent_ids(traffic: &TrafficLog, server: &str) -> HashSet<String> {
    traffic
        .snapshot(server)
        .frames
        .into_iter()
        .filter(|f| f.direction == Direction::Outbound && f.kind == FrameKind::Message)
        .filter_map(|f| message(traffic, f))
        .filter(|v| v.get("method").is_some())
        .filter_map(|v| v.get("id").map(Value::to_string))
        .collect()
}

/// A frame's JSON, read whole from the log when the published text is only its start.
fn message(traffic: &TrafficLog, frame: TrafficFrame) -> Option<Value> {
    let text = match frame.full_bytes {
        Some(_) => traffic.frame(&frame.server, frame.seq)?.text,
        None => frame.text,
    };
    serde_json::from_str(&text).ok()
}
