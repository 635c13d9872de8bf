//! `HostConfig`: everything that decides how a chat turn runs — the model and its parameters,
//! the servers and which of their tools the model sees, the tool-approval and elicitation
//! policies, and the app host profile apps render under. Chat sessions, `mcplab chat`
//! (`--host-config FILE`) and (next) evals and compare columns each carry one; two runs under
//! the same canonical JSON ran under the same host. The canonical form and its hash live in
//! `mcplab_core::session`; this module is only the shape.
//!
//! The shape is versioned and strict: unknown keys are refused (a typo must not silently mean
//! "default"), and every key may be left out of an input, taking its default. Sections added
//! after version 1 (issue 18's host profiles: `client` — protocol revision and client
//! capabilities declared to servers —, `toolCatalog` and `toolResults` — what the model gets)
//! reproduce today's behaviour at their defaults and are left out of the written form while
//! at their defaults, so an older file keeps meaning what it meant *and* keeps its hash;
//! `version` is raised only when an existing key changes meaning.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::era::ProtocolChoice;

/// The `version` this build writes and the newest it reads.
pub const HOST_CONFIG_VERSION: u32 = 1;
/// The system prompt when none is given.
pub const DEFAULT_SYSTEM_PROMPT: &str = "You are a helpful assistant with access to MCP tools.";
/// Most model steps per turn when not given.
pub const DEFAULT_STEP_LIMIT: u32 = 10;
/// How long a tool call waits for approval when not given.
pub const DEFAULT_APPROVAL_TIMEOUT_SECS: u64 = 300;

/// How a turn runs. Every key is optional in an input (see [`Default`]); the canonical form
/// written back has every key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct HostConfig {
    /// The shape's version ([`HOST_CONFIG_VERSION`]).
    pub version: u32,
    /// `provider::model`, e.g. `openai::gpt-4.1-mini`; empty until one is chosen.
    pub model: String,
    pub system_prompt: String,
    /// Sampling temperature; `null` leaves it to the provider.
    pub temperature: Option<f64>,
    /// Output token limit per step; `null` leaves it to the provider.
    pub max_tokens: Option<u32>,
    /// Most model steps per turn (each step may call tools).
    pub step_limit: u32,
    /// The servers whose tools (and instructions) the model gets, by configured name, each
    /// with the tools it offers.
    pub servers: BTreeMap<String, ServerTools>,
    pub approval: ApprovalPolicy,
    pub elicitation: ElicitationPolicy,
    pub app_host: AppHostProfile,
    /// What the host declares to servers (left out while at its default).
    #[serde(skip_serializing_if = "ClientDeclaration::is_default")]
    #[ts(as = "Option<ClientDeclaration>", optional)]
    pub client: ClientDeclaration,
    /// How the servers' tools are offered to the model (left out while at its default).
    #[serde(skip_serializing_if = "ToolCatalogPolicy::is_default")]
    #[ts(as = "Option<ToolCatalogPolicy>", optional)]
    pub tool_catalog: ToolCatalogPolicy,
    /// What of a tool result reaches the model (left out while at its default).
    #[serde(skip_serializing_if = "ToolResultPolicy::is_default")]
    #[ts(as = "Option<ToolResultPolicy>", optional)]
    pub tool_results: ToolResultPolicy,
}

impl Default for HostConfig {
    fn default() -> Self {
        Self {
            version: HOST_CONFIG_VERSION,
            model: String::new(),
            system_prompt: DEFAULT_SYSTEM_PROMPT.to_owned(),
            temperature: None,
            max_tokens: None,
            step_limit: DEFAULT_STEP_LIMIT,
            servers: BTreeMap::new(),
            approval: ApprovalPolicy::default(),
            elicitation: ElicitationPolicy::default(),
            app_host: AppHostProfile::default(),
            client: ClientDeclaration::default(),
            tool_catalog: ToolCatalogPolicy::default(),
            tool_results: ToolResultPolicy::default(),
        }
    }
}

/// What the host tells servers about itself: the protocol revision it asks for and the client
/// capabilities it declares (in `initialize`, and on 2026-07-28 in each request's `_meta`).
/// The default is mcplab's own declaration: every capability it implements.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct ClientDeclaration {
    /// The revision asked for; `auto` is mcplab's own choice per transport.
    pub protocol: ProtocolChoice,
    /// `roots` (with `listChanged`).
    pub roots: bool,
    /// `sampling`.
    pub sampling: bool,
    /// `elicitation.form`.
    pub elicitation_form: bool,
    /// `elicitation.url`.
    pub elicitation_url: bool,
    /// The tasks extension.
    pub tasks: bool,
    /// The MCP Apps extension (`io.modelcontextprotocol/ui`, HTML views).
    pub mcp_apps: bool,
    /// The skills extension.
    pub skills: bool,
}

impl Default for ClientDeclaration {
    fn default() -> Self {
        Self {
            protocol: ProtocolChoice::Auto,
            roots: true,
            sampling: true,
            elicitation_form: true,
            elicitation_url: true,
            tasks: true,
            mcp_apps: true,
            skills: true,
        }
    }
}

impl ClientDeclaration {
    pub fn is_default(&self) -> bool {
        *self == Self::default()
    }
}

/// How a tool is named for the model.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
pub enum ToolNaming {
    /// `<server>__<tool>`, sanitized (mcplab's rule).
    #[default]
    ServerPrefixed,
    /// The MCP tool name as the server wrote it (sanitized); `<server>__<tool>` only when two
    /// servers offer the same name.
    Bare,
}

/// How the servers' tools are offered to the model.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct ToolCatalogPolicy {
    pub naming: ToolNaming,
    /// Most tools offered to the model in one request; the rest (in server order, then the
    /// server's order) are left out and the turn says so. `null`: no limit.
    pub max_tools: Option<u32>,
}

impl ToolCatalogPolicy {
    pub fn is_default(&self) -> bool {
        *self == Self::default()
    }
}

/// When a tool result's `structuredContent` reaches the model.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
pub enum StructuredContentMode {
    /// As JSON text only when the result has no text (mcplab's rule).
    #[default]
    WhenNoText,
    /// Always, as JSON text after the content blocks.
    Always,
    /// Never: the model sees only the content blocks.
    Never,
}

/// What of a `CallToolResult` reaches the model. `_meta` never does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct ToolResultPolicy {
    /// Text content blocks.
    pub text: bool,
    pub structured_content: StructuredContentMode,
    /// Image blocks passed to the model as images (else only a `[image …]` line).
    pub images: bool,
    /// Embedded resources' text (else only a `[resource …]` line).
    pub resources: bool,
}

impl Default for ToolResultPolicy {
    fn default() -> Self {
        Self {
            text: true,
            structured_content: StructuredContentMode::WhenNoText,
            images: true,
            resources: true,
        }
    }
}

impl ToolResultPolicy {
    pub fn is_default(&self) -> bool {
        *self == Self::default()
    }
}

/// Which of a server's tools the model sees, by MCP tool name. `allow: null` means every tool
/// (that the visibility rules offer to a model); `deny` removes tools after that.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct ServerTools {
    pub allow: Option<Vec<String>>,
    pub deny: Vec<String>,
}

impl ServerTools {
    /// Whether the model may see the tool named `tool` (before the visibility rules).
    pub fn offers(&self, tool: &str) -> bool {
        let allowed = self
            .allow
            .as_ref()
            .is_none_or(|list| list.iter().any(|t| t == tool));
        allowed && !self.deny.iter().any(|t| t == tool)
    }
}

/// Whether a tool call waits for a person.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
pub enum ApprovalMode {
    /// Calls run as the model makes them.
    #[default]
    Never,
    /// Every call waits to be allowed (possibly with edited arguments) or denied.
    Always,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct ApprovalPolicy {
    pub mode: ApprovalMode,
    /// How long a call waits before it is denied.
    pub timeout_secs: u64,
}

impl Default for ApprovalPolicy {
    fn default() -> Self {
        Self {
            mode: ApprovalMode::Never,
            timeout_secs: DEFAULT_APPROVAL_TIMEOUT_SECS,
        }
    }
}

/// How a server's `elicitation/create` during a turn is answered.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
pub enum ElicitationMode {
    /// A person answers (the browser's dialog, the terminal's prompt).
    #[default]
    Ask,
    /// Accept with the schema's defaults (URL mode: consent); declined when a required field
    /// has no default.
    AcceptDefaults,
    Decline,
    Cancel,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct ElicitationPolicy {
    pub mode: ElicitationMode,
}

/// The device apps are told they run on.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
pub enum DeviceKind {
    #[default]
    Desktop,
    Tablet,
    Mobile,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
pub enum ThemeChoice {
    /// Whatever mcplab's own page shows.
    #[default]
    System,
    Light,
    Dark,
}

/// The MCP Apps display modes a host offers.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema, TS,
)]
#[serde(rename_all = "camelCase")]
pub enum DisplayMode {
    Inline,
    Fullscreen,
    Pip,
}

/// Which Content-Security-Policy app HTML runs under.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
pub enum CspMode {
    /// Built from the domains the resource declares (the spec's restrictive default when none).
    #[default]
    Declared,
    /// Any origin allowed (to see whether a failure is the policy's doing).
    Permissive,
}

/// How the host renders apps (MCP Apps, OpenAI widgets) of tool calls.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct AppHostProfile {
    pub device: DeviceKind,
    pub theme: ThemeChoice,
    /// BCP 47, e.g. `de-DE`; `null` is the viewer's own.
    pub locale: Option<String>,
    /// IANA, e.g. `Europe/Berlin`; `null` is the viewer's own.
    pub time_zone: Option<String>,
    /// The modes offered to apps (at least one).
    pub display_modes: Vec<DisplayMode>,
    pub csp_mode: CspMode,
    /// Give MCP Apps `window.openai` too (OpenAI widgets always get it).
    pub window_openai: bool,
    /// What the host advertises to MCP Apps in `ui/initialize` (`hostCapabilities`) and
    /// serves; left out of the written form while at its default, so configs written before
    /// it keep their hashes.
    #[serde(skip_serializing_if = "AppHostCapabilities::is_default")]
    #[ts(as = "Option<AppHostCapabilities>", optional)]
    pub host_capabilities: AppHostCapabilities,
}

/// Whether the host proxies a kind of server request for apps (`serverTools`,
/// `serverResources` in `hostCapabilities`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
pub enum ServerProxy {
    /// Not advertised; the app's requests are refused.
    Off,
    /// Advertised as `{}` (or `listChanged: false`): list changes are not forwarded.
    On,
    /// Advertised with `listChanged: true`: the server's list changes reach the app.
    ListChanged,
}

/// A content block kind an app may send in `ui/message` or `ui/update-model-context`
/// (ext-apps' `McpUiSupportedContentBlockModalities`).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema, TS,
)]
#[serde(rename_all = "camelCase")]
pub enum ContentModality {
    Text,
    Image,
    Audio,
    Resource,
    ResourceLink,
    StructuredContent,
}

/// The MCP Apps host capabilities (ext-apps 2.0.4's `McpUiHostCapabilities`) a host offers.
/// `sandbox` is not here: it is what the host granted one resource, computed per render.
/// `sampling` is not here either: mcplab does not serve `sampling/createMessage` to apps.
/// The default is mcplab's own: everything it serves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct AppHostCapabilities {
    /// `ui/open-link`.
    pub open_links: bool,
    /// `ui/download-file`.
    pub download_file: bool,
    /// `tools/call` and `tools/list` from the app.
    pub server_tools: ServerProxy,
    /// `resources/read`, `resources/list`, `resources/templates/list` from the app.
    pub server_resources: ServerProxy,
    /// `notifications/message` from the app reaches the host's log.
    pub logging: bool,
    /// `ui/message` with these content kinds; `null`: not advertised (`[]`: advertised with
    /// no kind named).
    pub message: Option<Vec<ContentModality>>,
    /// `ui/update-model-context` with these content kinds; `null`: not advertised.
    pub update_model_context: Option<Vec<ContentModality>>,
}

impl Default for AppHostCapabilities {
    fn default() -> Self {
        Self {
            open_links: true,
            download_file: true,
            server_tools: ServerProxy::ListChanged,
            server_resources: ServerProxy::ListChanged,
            logging: true,
            message: Some(vec![ContentModality::Text]),
            update_model_context: Some(vec![
                ContentModality::Text,
                ContentModality::StructuredContent,
            ]),
        }
    }
}

impl AppHostCapabilities {
    pub fn is_default(&self) -> bool {
        *self == Self::default()
    }
}

impl Default for AppHostProfile {
    fn default() -> Self {
        Self {
            device: DeviceKind::Desktop,
            theme: ThemeChoice::System,
            locale: None,
            time_zone: None,
            display_modes: vec![
                DisplayMode::Inline,
                DisplayMode::Fullscreen,
                DisplayMode::Pip,
            ],
            csp_mode: CspMode::Declared,
            window_openai: false,
            host_capabilities: AppHostCapabilities::default(),
        }
    }
}

/// `POST /api/host-config/parse`: a HostConfig file's text (JSON or YAML), e.g. to import one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct HostConfigText {
    pub text: String,
}

/// A HostConfig with its canonical JSON and that text's SHA-256 (hex).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct HostConfigView {
    pub host_config: HostConfig,
    pub canonical: String,
    pub hash: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_may_be_left_out_and_unknown_keys_are_refused() {
        let c: HostConfig = serde_json::from_str(r#"{"model": "openai::gpt-4o"}"#).unwrap();
        assert_eq!(c.step_limit, DEFAULT_STEP_LIMIT);
        assert_eq!(c.system_prompt, DEFAULT_SYSTEM_PROMPT);
        assert_eq!(c.app_host.display_modes.len(), 3);
        let e = serde_json::from_str::<HostConfig>(r#"{"stepLimt": 3}"#).unwrap_err();
        assert!(e.to_string().contains("stepLimt"), "{e}");
        let e = serde_json::from_str::<HostConfig>(r#"{"approval": {"mode": "sometimes"}}"#)
            .unwrap_err();
        assert!(e.to_string().contains("sometimes"), "{e}");
    }

    #[test]
    fn tool_filters_allow_then_deny() {
        let all = ServerTools::default();
        assert!(all.offers("x"));
        let some = ServerTools {
            allow: Some(vec!["a".into(), "b".into()]),
            deny: vec!["b".into()],
        };
        assert_eq!(
            ["a", "b", "c"].map(|t| some.offers(t)),
            [true, false, false]
        );
    }
}
