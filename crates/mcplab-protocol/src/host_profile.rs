//! Host profiles (issue 18): a named, versioned [`HostConfig`] preset — how Claude, ChatGPT,
//! VS Code, Cursor, goose or mcplab itself use MCP — with, per field, the public source its
//! value comes from or "unknown". The built-in profiles are data files in
//! `crates/mcplab-core/hosts/`; a person's own live in `<data dir>/hosts/*.json`, in the same
//! format as a `--host-config` file plus `name`, `title`, `description`, `profileVersion` and
//! `sources`. Loading, checking and diffing live in `mcplab_core::session::profiles`; this
//! module is only the shape.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

use crate::host::HostConfig;

/// Where one field's value comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(untagged)]
pub enum FieldSource {
    /// A public page that says so.
    Documented(SourceRef),
    /// Looked for, not found: the value is mcplab's default, not a fact about the host.
    Unknown(UnknownSource),
}

/// The spelling of an unknown source: the string `"unknown"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
pub enum UnknownSource {
    #[serde(rename = "unknown")]
    Unknown,
}

/// A public page and the day it was read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SourceRef {
    pub url: String,
    /// `YYYY-MM-DD`.
    pub read: String,
    /// What the page says, and how sure that makes the value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub note: Option<String>,
}

/// A host profile as listed and shown (`GET /api/hosts`, `mcplab hosts`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct HostProfile {
    /// What `--host` takes, e.g. `claude`.
    pub name: String,
    pub title: String,
    pub description: String,
    /// Raised whenever the profile's values change.
    pub profile_version: u32,
    /// Shipped with mcplab (else a file of the person's own).
    pub builtin: bool,
    /// The file it was read from (user profiles only).
    pub origin: Option<String>,
    pub host_config: HostConfig,
    /// By field path (e.g. `client.sampling`, `toolCatalog.maxTools`).
    pub sources: BTreeMap<String, FieldSource>,
    /// The HostConfig's canonical hash.
    pub hash: String,
}

/// One field where two profiles (or a profile and mcplab's defaults) differ.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct HostFieldDiff {
    /// Field path, e.g. `client.sampling`.
    pub field: String,
    #[ts(type = "unknown")]
    pub a: Value,
    #[ts(type = "unknown")]
    pub b: Value,
    pub source_a: Option<FieldSource>,
    pub source_b: Option<FieldSource>,
}

/// `GET /api/hosts/{name}?against=OTHER`: a profile and, field by field, how it differs from
/// another (mcplab's own profile unless `against` names one).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct HostProfileView {
    pub profile: HostProfile,
    pub against: String,
    /// `a` is `against`, `b` this profile.
    pub diff: Vec<HostFieldDiff>,
}
