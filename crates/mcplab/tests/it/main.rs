//! The mcplab binary's integration tests, built as one test binary (`autotests = false` and
//! one `[[test]]` in Cargo.toml): each file is a module. Black-box CLI and `serve` tests run
//! this build's binary (`CARGO_BIN_EXE_mcplab`), and so do the router tests kept here, whose
//! demo MCP server is `mcplab demo-server`; the router tests that need no binary live in
//! mcplab-server. Shared harnesses, declared once: `router_support` (mcplab-server's, plus
//! the demo server), `eval_support` (the `mcplab eval` command) and `peer_support` (the SDK
//! peers' command lines, the CLI run in a scratch data directory). One file's tests:
//! `cargo nextest run -p mcplab -E 'binary(it) & test(/^cli::/)'`.

// A test crate has no public surface; its helpers are `pub` for the sibling modules.
#![allow(unreachable_pub)]

mod eval_support;
mod peer_support;
mod router_support;

mod agent_config;
#[cfg(feature = "peer-tests")]
mod agent_mcp;
#[cfg(feature = "peer-tests")]
mod agent_mcp_ts;
mod api;
mod apps_api;
mod apps_render;
mod chat;
mod chat_api;
mod check;
mod check_cases;
mod check_live;
mod check_outputs;
mod check_rules;
#[cfg(feature = "peer-tests")]
mod check_sdk;
mod check_wire;
mod child_process;
#[cfg(feature = "peer-tests")]
mod ci_action;
mod cli;
mod eval;
mod eval_accounting;
#[cfg(feature = "chromium-tests")]
mod eval_apps;
mod eval_checks;
mod eval_hosts;
mod eval_runs;
mod eval_vocabulary;
mod evals_draft_api;
mod failure_codes;
mod hostile_child;
mod hosts;
mod interop;
mod interop_bugs;
mod interop_sdk2;
#[cfg(feature = "peer-tests")]
mod interop_turn3;
#[cfg(feature = "peer-tests")]
mod interop_turn3_more;
mod oauth_cli;
mod otlp;
mod prices_cli;
mod python_sdk;
mod render_api;
mod serve;
mod servers_serve;
mod tap;
#[cfg(feature = "peer-tests")]
mod tap_interop;
mod tap_resilience;
mod tool_marks_api;
