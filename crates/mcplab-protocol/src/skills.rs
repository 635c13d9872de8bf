//! Skills a server offers (the Skills extension, SEP-2640, `io.modelcontextprotocol/skills`):
//! what loading one found, file by file, with the manifest's digest and size checked. Plain
//! data only.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

/// One file of a loaded skill.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SkillFileView {
    pub uri: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub mime_type: Option<String>,
    /// Bytes received.
    pub size: u64,
    /// `sha256:…` of the bytes received.
    pub digest: String,
    /// The bytes match the manifest's size and digest (false for `dynamic` skills, which
    /// have no manifest to check against).
    pub verified: bool,
    /// The content when it is text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub text: Option<String>,
}

/// The outcome of loading a skill: its entry, the frontmatter parsed from `SKILL.md`, the
/// files read in order, and the verification failure that stopped loading, if any.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SkillLoadView {
    /// The `skills/list` entry (uri, frontmatter, resources) exactly as the server sent it.
    #[ts(type = "any")]
    pub entry: Value,
    /// The YAML frontmatter of `SKILL.md`, as JSON, once read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "any")]
    pub frontmatter: Option<Value>,
    pub files: Vec<SkillFileView>,
    /// Why the skill must not be used (digest, size or frontmatter mismatch); absent when
    /// every file checked out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub problem: Option<String>,
}
