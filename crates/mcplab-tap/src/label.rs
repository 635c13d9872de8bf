//! Who is on the host side of a tapped session, learned from what it sent: `initialize`'s
//! `clientInfo` and `protocolVersion` (handshake revisions), or the
//! `io.modelcontextprotocol/clientInfo` and `…/protocolVersion` request metadata of
//! 2026-07-28 (schema: `crates/mcplab-core/src/check/schema/2026-07-28.json`). A frame is
//! parsed only when it can say something new and names `clientInfo`.

use mcplab_protocol::tap::TapHost;
use mcplab_protocol::{Direction, TrafficFrame};
use serde_json::Value;

const META_CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
const META_PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";

/// What a session's frames said about the host.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct SessionLabel {
    pub host: Option<TapHost>,
    pub protocol_version: Option<String>,
}

impl SessionLabel {
    /// Learns from `frame`; true when the label changed.
    pub(crate) fn observe(&mut self, frame: &TrafficFrame) -> bool {
        if frame.direction != Direction::Outbound
            || self.host.is_some()
            || !frame.text.contains("clientInfo")
        {
            return false;
        }
        let Ok(message) = serde_json::from_str::<Value>(&frame.text) else {
            return false;
        };
        let params = &message["params"];
        let (info, version) = match message["method"].as_str() {
            Some("initialize") => (&params["clientInfo"], &params["protocolVersion"]),
            _ => (
                &params["_meta"][META_CLIENT_INFO],
                &params["_meta"][META_PROTOCOL_VERSION],
            ),
        };
        let Some(name) = info["name"].as_str() else {
            return false;
        };
        let text = |v: &Value| v.as_str().map(str::to_owned);
        self.host = Some(TapHost {
            name: name.to_owned(),
            version: text(&info["version"]),
            title: text(&info["title"]),
        });
        self.protocol_version = text(version);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sent(text: &str) -> TrafficFrame {
        TrafficFrame::message(1, "", 0, Direction::Outbound, text)
    }

    #[test]
    fn the_host_of_either_era() {
        let mut label = SessionLabel::default();
        assert!(!label.observe(&sent(r#"{"jsonrpc":"2.0","method":"ping","id":1}"#)));
        assert!(label.observe(&sent(
            r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"claude-ai","version":"0.1.0","title":"Claude"}}}"#
        )));
        let host = label.host.as_ref().unwrap();
        assert_eq!(
            (host.name.as_str(), host.version.as_deref()),
            ("claude-ai", Some("0.1.0"))
        );
        assert_eq!(label.protocol_version.as_deref(), Some("2025-06-18"));

        let mut modern = SessionLabel::default();
        assert!(modern.observe(&sent(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/clientInfo":{"name":"cursor","version":"2"},"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#
        )));
        assert_eq!(modern.host.unwrap().name, "cursor");
        assert_eq!(modern.protocol_version.as_deref(), Some("2026-07-28"));
    }
}
