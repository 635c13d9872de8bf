//! The host side of MCP Apps and OpenAI Apps SDK widgets, as pure functions over the JSON the
//! server sent: which UI a tool renders (`_meta.ui.resourceUri`, the deprecated
//! `"ui/resourceUri"`, `openai/outputTemplate`), who may call it (visibility, and which tools a
//! rendered UI may call), reading a UI resource (protocol from its MIME type, HTML from `text`
//! or `blob`), and the sandbox's Content-Security-Policy and `allow` attribute built from the
//! resource's declared domains and permissions. No I/O: fetching and serving live with the
//! callers.
//!
//! # Where things are
//!
//! - `crates/mcplab-apps/src/`: Host-side MCP Apps logic, pure (crate `mcplab-apps`; serde_json and
//!   base64 only, no tokio): `linkage.rs` (tool→UI: `_meta.ui.resourceUri`, legacy key,
//!   `openai/outputTemplate`; visibility incl. `openai/visibility: private`; resource `_meta.ui`
//!   precedence), `csp.rs` (sandbox CSP and `allow` from declared domains, sanitized, `form-action
//!   'none'`; `csp_from_declared` re-reads what the browser passes to the sandbox page),
//!   `own_origins.rs` (`OwnOrigins`: declared entries naming mcplab's UI, its sandbox or any
//!   `*.localhost` wildcard are refused with a reason), `access.rs` (`app_may_call`: which tools an
//!   app may call — MCP Apps/MCP-UI need `"app"` visibility, OpenAI widgets
//!   `openai/widgetAccessible`), `resource.rs` (UI kind from mime, HTML from text/blob).

mod access;
mod csp;
mod linkage;
mod own_origins;
mod resource;

pub use access::{AppCallRefusal, AppCaller, app_may_call, check_app_call};
pub use csp::{
    CspDomains, SandboxPolicy, build_csp, csp_domains_json, csp_from_declared, sandbox_policy,
};
pub use linkage::{UiKind, UiLink, Visibility, resource_ui_meta, ui_link, visibility};
pub use own_origins::OwnOrigins;
pub use resource::{prefers_border, ui_kind_of_mime, ui_resource_html};
