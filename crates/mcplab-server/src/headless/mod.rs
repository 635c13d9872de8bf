//! Serving this process's API and app sandbox, and rendering apps headless through them: the
//! library side of `mcplab serve`, `mcplab apps render`, eval renders and anything else that
//! needs "an mcplab API over these connections" or "this tool's app as a PNG".
//!
//! - [`serve_app`] and [`start_sandbox`] put the router and the sandbox on listeners the caller
//!   bound (`serve` binds its own ports; everything else uses [`LoopbackApi`]).
//! - [`LoopbackApi`] serves an API of its own on a loopback port, over a connection manager the
//!   caller owns, with an in-memory store listing the servers; [`LoopbackApi::render`] renders
//!   a spec there in headless Chromium; [`render_once`] does start, render and stop in one.
//! - [`app_tool`] finds a tool that links an app in a `tools/list` result.
//! - [`LoopbackRenderer`] is the `appRendered` check's renderer for eval runs (CLI and web).
//! - [`CheckRenderer`] is `mcplab check --host`'s live render of each app (CLI and web).
//!
//! Build a spec with `AppRenderSpec::new` from `HostConditions::for_app_host` (mcplab-protocol)
//! to render as a host profile. Nothing here reads the environment or finds Chromium: the
//! caller passes its path (`mcplab_render::find_chromium` searches a `PATH` value).

mod check;
mod listen;
mod loopback;
mod renderer;

pub use check::CheckRenderer;
pub use listen::{serve_app, start_sandbox};
pub use loopback::{HeadlessError, LoopbackApi, app_tool, render_once};
pub use renderer::LoopbackRenderer;
