//! The host side of MCP Apps and OpenAI Apps SDK widgets, as pure functions over the JSON the
//! server sent: which UI a tool renders (`_meta.ui.resourceUri`, the deprecated
//! `"ui/resourceUri"`, `openai/outputTemplate`), who may call it (visibility), and the
//! sandbox's Content-Security-Policy and `allow` attribute built from the resource's declared
//! domains and permissions. No I/O: fetching and serving live with the callers.

mod csp;
mod linkage;

pub use csp::{CspDomains, SandboxPolicy, build_csp, sandbox_policy};
pub use linkage::{UiKind, UiLink, Visibility, resource_ui_meta, ui_link, visibility};
