//! Which MCP protocol revision a server is spoken to in, and what mcplab learned while choosing
//! it. Two eras exist: *legacy* revisions (2025-11-25 and earlier) open a session with the
//! `initialize` handshake; the *modern* revision 2026-07-28 has no handshake and carries the
//! protocol version, client capabilities and client info in every request's `_meta`, with
//! `server/discover` to learn what a server speaks. Plain data only.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

/// The revision mcplab uses with a server: a fixed one, or `auto` (try `server/discover`,
/// fall back to `initialize` when the server does not speak 2026-07-28).
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema, TS,
)]
pub enum ProtocolChoice {
    #[default]
    #[serde(rename = "auto")]
    Auto,
    #[serde(rename = "2026-07-28")]
    V2026_07_28,
    #[serde(rename = "2025-11-25")]
    V2025_11_25,
    #[serde(rename = "2025-06-18")]
    V2025_06_18,
    #[serde(rename = "2025-03-26")]
    V2025_03_26,
}

impl ProtocolChoice {
    /// Every choice, `auto` first, then newest revision first.
    pub const ALL: [ProtocolChoice; 5] = [
        ProtocolChoice::Auto,
        ProtocolChoice::V2026_07_28,
        ProtocolChoice::V2025_11_25,
        ProtocolChoice::V2025_06_18,
        ProtocolChoice::V2025_03_26,
    ];

    /// The spelling used in configs, flags and on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            ProtocolChoice::Auto => "auto",
            ProtocolChoice::V2026_07_28 => "2026-07-28",
            ProtocolChoice::V2025_11_25 => "2025-11-25",
            ProtocolChoice::V2025_06_18 => "2025-06-18",
            ProtocolChoice::V2025_03_26 => "2025-03-26",
        }
    }

    /// Parses the spelling of [`Self::as_str`].
    pub fn parse(text: &str) -> Option<ProtocolChoice> {
        Self::ALL.into_iter().find(|c| c.as_str() == text.trim())
    }

    /// The choice for an exact revision string (`None` for unknown revisions).
    pub fn for_revision(revision: &str) -> Option<ProtocolChoice> {
        Self::parse(revision).filter(|c| *c != ProtocolChoice::Auto)
    }

    pub fn is_auto(&self) -> bool {
        *self == ProtocolChoice::Auto
    }

    /// The era of a fixed revision (`None` for `auto`).
    pub fn era(self) -> Option<Era> {
        match self {
            ProtocolChoice::Auto => None,
            ProtocolChoice::V2026_07_28 => Some(Era::Modern),
            _ => Some(Era::Legacy),
        }
    }
}

impl std::fmt::Display for ProtocolChoice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The two ways of speaking MCP.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum Era {
    /// 2026-07-28 and later: per-request `_meta`, `server/discover`, no session.
    Modern,
    /// 2025-11-25 and earlier: the `initialize` handshake opens a session.
    Legacy,
}

/// How a live connection speaks: the era and revision in use, why, and what discovery said.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct EraView {
    pub era: Era,
    /// The revision every request uses (modern) or the handshake agreed on (legacy).
    pub revision: String,
    /// What the config asked for.
    pub choice: ProtocolChoice,
    /// One sentence on how the revision was chosen, e.g. "auto: server/discover answered" or
    /// "auto: server/discover failed (-32601 Method not found); fell back to initialize".
    pub how: String,
    /// The `server/discover` result exactly as the server sent it, when it answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "any")]
    pub discovery: Option<Value>,
    /// Revisions the server says it supports (`supportedVersions` of `server/discover`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub supported: Vec<String>,
    /// The other era's newest revision when the server is known to speak both, so the user
    /// can switch and compare.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub alternative: Option<ProtocolChoice>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choices_round_trip_through_their_spelling() {
        for choice in ProtocolChoice::ALL {
            let json = serde_json::to_value(choice).unwrap();
            assert_eq!(json, Value::String(choice.as_str().into()));
            assert_eq!(ProtocolChoice::parse(choice.as_str()), Some(choice));
        }
        assert_eq!(ProtocolChoice::parse("2024-11-05"), None);
        assert_eq!(ProtocolChoice::for_revision("auto"), None);
        assert_eq!(ProtocolChoice::V2026_07_28.era(), Some(Era::Modern));
        assert_eq!(ProtocolChoice::V2025_03_26.era(), Some(Era::Legacy));
    }
}
