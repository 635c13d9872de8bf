//! A recording as a `mcplab check` baseline (`mcplab tap baseline FILE`): the surface the host
//! saw — the capabilities the server declared and every tool, resource, template and prompt
//! it listed — per era, in mcplab-check's own format (`mcplab-check-baseline/1`, built by its
//! `surface_from_frames`), so `mcplab check --baseline FILE` tells what changed since. Several
//! host sessions of one era merge: an item listed again replaces the earlier one.

use mcplab_check::baseline::{baseline, surface_from_frames};
use mcplab_protocol::TrafficFrame;
use mcplab_protocol::check::{Baseline, Surface};
use serde_json::Value;

use super::{era_of, exchanges, server_name};

/// Why a recording makes no baseline.
#[derive(Debug, thiserror::Error)]
pub enum BaselineExportError {
    #[error(
        "the recording shows nothing of the server's surface: the host never got an answer to \
         initialize, server/discover or a listing (tap a session in which the host connects)"
    )]
    NothingSeen,
}

/// The baseline of `sessions` (each a host session's frames in order); `server` names it
/// (default: the `serverInfo` name the server gave).
pub fn baseline_of(
    sessions: &[Vec<&TrafficFrame>],
    server: Option<&str>,
    taken_ms: u64,
) -> Result<Baseline, BaselineExportError> {
    let mut surfaces: Vec<Surface> = Vec::new();
    let mut named = server.map(str::to_owned);
    for frames in sessions {
        let ex = exchanges(frames);
        let (era, revision) = era_of(&ex);
        if named.is_none() {
            named = server_name(&ex);
        }
        let owned: Vec<TrafficFrame> = frames.iter().map(|f| (*f).clone()).collect();
        let surface = surface_from_frames(era, &revision, &owned);
        if is_empty(&surface) {
            continue;
        }
        match surfaces.iter_mut().find(|s| s.era == era) {
            Some(known) => merge(known, surface),
            None => surfaces.push(surface),
        }
    }
    if surfaces.is_empty() {
        return Err(BaselineExportError::NothingSeen);
    }
    let name = named.unwrap_or_else(|| "recording".to_owned());
    Ok(baseline(&name, taken_ms, surfaces))
}

fn is_empty(s: &Surface) -> bool {
    s.capabilities.is_null()
        && s.tools.is_empty()
        && s.resources.is_empty()
        && s.resource_templates.is_empty()
        && s.prompts.is_empty()
}

/// `later` over `known`: its revision and capabilities when it has them, its items replacing
/// known ones of the same key.
fn merge(known: &mut Surface, later: Surface) {
    if !later.revision.is_empty() {
        known.revision = later.revision;
    }
    if !later.capabilities.is_null() {
        known.capabilities = later.capabilities;
    }
    fold(&mut known.tools, later.tools, "name");
    fold(&mut known.resources, later.resources, "uri");
    fold(
        &mut known.resource_templates,
        later.resource_templates,
        "uriTemplate",
    );
    fold(&mut known.prompts, later.prompts, "name");
}

fn fold(known: &mut Vec<Value>, later: Vec<Value>, key: &str) {
    for item in later {
        known.retain(|k| k.get(key) != item.get(key));
        known.push(item);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::tests::frames;
    use mcplab_protocol::{Direction::Inbound, Direction::Outbound, Era};
    use serde_json::json;

    #[test]
    fn two_sessions_of_one_era_merge_and_an_unrelated_one_is_nothing() {
        let first = frames(&[
            (
                Outbound,
                json!({"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}),
            ),
            (
                Inbound,
                json!({"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"weather"}}}),
            ),
            (
                Outbound,
                json!({"jsonrpc":"2.0","id":2,"method":"tools/list"}),
            ),
            (
                Inbound,
                json!({"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"a","inputSchema":{"type":"object"}},{"name":"b","inputSchema":{"type":"object"}}]}}),
            ),
        ]);
        let second = frames(&[
            (
                Outbound,
                json!({"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}),
            ),
            (
                Inbound,
                json!({"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{},"prompts":{}}}}),
            ),
            (
                Outbound,
                json!({"jsonrpc":"2.0","id":2,"method":"tools/list"}),
            ),
            (
                Inbound,
                json!({"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"b","description":"new","inputSchema":{"type":"object"}}]}}),
            ),
        ]);
        let sessions = vec![first.iter().collect(), second.iter().collect()];
        let b = baseline_of(&sessions, None, 7).unwrap();
        assert_eq!(b.server, "weather");
        assert_eq!(b.format, "mcplab-check-baseline/1");
        assert_eq!(b.surfaces.len(), 1);
        let s = &b.surfaces[0];
        assert_eq!(s.era, Era::Legacy);
        assert_eq!(s.capabilities, json!({"tools":{},"prompts":{}}));
        let names: Vec<_> = s.tools.iter().map(|t| t["name"].clone()).collect();
        assert_eq!(names, [json!("a"), json!("b")]);
        assert_eq!(s.tools[1]["description"], "new");

        let pings = frames(&[(Outbound, json!({"jsonrpc":"2.0","id":1,"method":"ping"}))]);
        let e = baseline_of(&[pings.iter().collect()], None, 7).unwrap_err();
        assert!(e.to_string().contains("nothing"), "{e}");
    }
}
