//! The `/api` route table (documented in `mcplab_protocol::api`). Handlers are thin: they
//! parse, call core, and map the outcome; the modules split them by resource.

mod app_context;
mod apps;
mod chat;
mod check;
mod compare;
mod evals;
mod evals_dirs;
mod evals_prune;
mod hosts;
mod mcp;
mod modern;
mod oauth;
mod render;
mod scenarios;
mod servers;
mod settings;
mod taps;

use std::sync::Arc;

use axum::Router;
use axum::extract::{DefaultBodyLimit, Path};
use axum::routing::{get, post, put};
use mcplab_mcp::Listing;

use crate::AppState;
use crate::events;

pub(crate) fn api() -> Router<Arc<AppState>> {
    Router::new()
        .route("/servers", get(servers::list).post(servers::create))
        .route("/server-order", put(servers::reorder))
        // Routes of their own, and names a server may have: that server is still read
        // (`import` only), replaced and deleted by name.
        .route(
            "/servers/import",
            post(servers::import)
                .get(|s| servers::one(s, Path("import".into())))
                .put(|s, c| servers::replace(s, Path("import".into()), c))
                .delete(|s| servers::remove(s, Path("import".into()))),
        )
        .route(
            "/servers/export",
            get(servers::export)
                .put(|s, c| servers::replace(s, Path("export".into()), c))
                .delete(|s| servers::remove(s, Path("export".into()))),
        )
        .route(
            "/servers/{name}",
            get(servers::one)
                .put(servers::replace)
                .delete(servers::remove),
        )
        .route("/servers/{name}/connect", post(servers::connect))
        .route("/servers/{name}/disconnect", post(servers::disconnect))
        .route("/servers/{name}/reconnect", post(servers::reconnect))
        .route(
            "/servers/{name}/traffic",
            get(servers::traffic).delete(servers::clear_traffic),
        )
        .route("/servers/{name}/traffic/{seq}", get(servers::traffic_frame))
        .route("/servers/{name}/tools", mcp::listing_route(Listing::Tools))
        .route(
            "/servers/{name}/resources",
            mcp::listing_route(Listing::Resources),
        )
        .route(
            "/servers/{name}/resource-templates",
            mcp::listing_route(Listing::ResourceTemplates),
        )
        .route(
            "/servers/{name}/prompts",
            mcp::listing_route(Listing::Prompts),
        )
        .route("/servers/{name}/tools/call", post(mcp::call_tool))
        .route("/servers/{name}/tools/findings", get(check::tool_findings))
        .route(
            "/servers/{name}/calls/{call_id}/cancel",
            post(mcp::cancel_call),
        )
        .route("/servers/{name}/calls/{call_id}", get(mcp::wait_call))
        .route("/calls", get(mcp::list_calls))
        .route("/servers/{name}/resources/read", post(mcp::read_resource))
        .route("/servers/{name}/resources/subscribe", post(mcp::subscribe))
        .route(
            "/servers/{name}/resources/unsubscribe",
            post(mcp::unsubscribe),
        )
        .route("/servers/{name}/prompts/get", post(mcp::get_prompt))
        .route("/servers/{name}/complete", post(mcp::complete))
        .route("/servers/{name}/log-level", post(mcp::log_level))
        .route("/servers/{name}/ping", post(mcp::ping))
        .route("/servers/{name}/tasks", get(modern::tasks))
        .route(
            "/servers/{name}/tasks/{task_id}/refresh",
            post(modern::refresh_task),
        )
        .route(
            "/servers/{name}/tasks/{task_id}/cancel",
            post(modern::cancel_task),
        )
        .route(
            "/servers/{name}/tasks/{task_id}/result",
            post(modern::task_result),
        )
        .route("/servers/{name}/skills", get(modern::skills))
        .route("/servers/{name}/skills/load", post(modern::load_skill))
        .route("/servers/{name}/protocol", post(modern::switch_protocol))
        .route("/servers/{name}/check", post(check::check))
        .route("/check/export", post(check::export))
        .route("/servers/{name}/apps/resource", post(apps::resource))
        .route("/servers/{name}/apps/tools/call", post(apps::call_tool))
        .route("/apps/render", post(render::render))
        .route("/render-specs/{id}", get(render::spec))
        .route("/login-codes", post(crate::security::signin::mint))
        .route(
            "/servers/{name}/oauth",
            get(oauth::status).delete(oauth::sign_out),
        )
        .route("/servers/{name}/oauth/authorize", post(oauth::authorize))
        .route("/oauth/debug", post(oauth::debug_start))
        .route("/oauth/debug/{id}", get(oauth::debug_get))
        .route("/oauth/debug/{id}/events", get(oauth::debug_events))
        .route("/oauth/debug/{id}/cancel", post(oauth::debug_cancel))
        .route("/human", get(settings::pending_human))
        .route("/human/{id}", post(settings::answer_human))
        .route(
            "/settings/roots",
            get(settings::roots).put(settings::set_roots),
        )
        .route(
            "/settings/otlp",
            get(settings::otlp).put(settings::set_otlp),
        )
        .route("/host", get(settings::host))
        .route(
            "/app-scenarios",
            get(scenarios::list).post(scenarios::create),
        )
        .route(
            "/app-scenarios/{id}",
            put(scenarios::replace).delete(scenarios::remove),
        )
        .route("/prefs", get(settings::prefs))
        .route("/prefs/{key}", put(settings::set_pref))
        .route("/events", get(events::stream))
        .route("/sessions", get(chat::list).post(chat::create))
        .route(
            "/sessions/{id}",
            get(chat::one).patch(chat::patch).delete(chat::remove),
        )
        .route("/sessions/{id}/export", get(chat::export))
        .route("/compare/eval-suite", get(chat::compare_eval_suite))
        .route("/compares", post(compare::create))
        .route("/compares/{id}", get(compare::one))
        .route("/compares/{id}/export", get(compare::export))
        .route("/sessions/{id}/turns", post(chat::submit))
        .route("/sessions/{id}/turns/{turn_id}/cancel", post(chat::cancel))
        .route(
            "/sessions/{id}/turns/{turn_id}/xray/{step}",
            get(chat::step_xray),
        )
        .route(
            "/sessions/{id}/turns/{turn_id}/approvals/{call_id}",
            post(chat::approve),
        )
        .route(
            "/sessions/{id}/app-context/{key}",
            put(app_context::put).delete(app_context::remove),
        )
        .route("/sessions/{id}/events", get(chat::events))
        .route("/host-config/parse", post(chat::parse_host_config))
        .route("/hosts", get(hosts::list))
        .route("/hosts/{name}", get(hosts::show))
        .route("/llm/providers", get(chat::providers))
        .route(
            "/llm/providers/{id}",
            put(chat::put_provider).delete(chat::delete_provider),
        )
        .route(
            "/evals/folder",
            get(evals::get_folder).put(evals::set_folder),
        )
        .route("/evals/dirs", get(evals_dirs::list_dirs))
        .route("/evals/suites", get(evals::list_suites))
        .route(
            "/evals/suites/{name}",
            get(evals::get_suite).put(evals::put_suite),
        )
        .route("/evals/suites/{name}/cases", post(evals::add_case))
        .route("/evals/suites/{name}/launch", get(evals::launch))
        .route("/evals/suites/{name}/drafts", post(evals::draft_cases))
        .route("/evals/runs", get(evals::list_runs).post(evals::start_run))
        .route("/evals/runs/{id}", get(evals::show_run))
        .route("/evals/runs/{id}/iteration", get(evals::show_iteration))
        .route("/evals/runs/{id}/events", get(evals::run_events))
        .route("/evals/runs/{id}/cancel", post(evals::cancel_run))
        .route("/evals/compare", get(evals::compare))
        .route("/evals/trend", get(evals::trend))
        .route("/evals/prune", post(evals_prune::prune))
        .route("/taps", get(taps::list).post(taps::register))
        .route(
            "/taps/open",
            post(taps::open).layer(DefaultBodyLimit::max(taps::BODY_LIMIT)),
        )
        .route(
            "/taps/{id}/frames",
            post(taps::frames).layer(DefaultBodyLimit::max(taps::BODY_LIMIT)),
        )
        .route("/taps/{id}/end", post(taps::end))
        .route("/health", get(|| async { "ok" }))
}

#[cfg(test)]
mod tests {
    /// The route table in `mcplab-protocol/src/api.rs` is written by hand; every route this
    /// router serves must have a row there, and every row a route, so the two cannot drift
    /// apart silently (they had: `/api/health` and the whole evals API were missing).
    #[test]
    fn every_route_is_in_the_protocol_route_table_and_back() {
        let served: std::collections::BTreeSet<String> = served_paths(include_str!("mod.rs"))
            .into_iter()
            .chain(["/session".to_string()])
            .map(|p| normalize(&format!("/api{p}")))
            .collect();
        let documented = documented_paths(include_str!("../../../mcplab-protocol/src/api.rs"));
        let undocumented: Vec<_> = served.difference(&documented).collect();
        let unserved: Vec<_> = documented.difference(&served).collect();
        assert!(
            undocumented.is_empty(),
            "add rows for these routes to mcplab-protocol/src/api.rs: {undocumented:?}"
        );
        assert!(
            unserved.is_empty(),
            "api.rs documents routes nobody serves: {unserved:?}"
        );
    }

    /// The paths of the route calls in this file, above its tests.
    fn served_paths(source: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut rest = source.split("#[cfg(test)]").next().unwrap_or(source);
        while let Some(i) = rest.find(".route(") {
            rest = &rest[i + ".route(".len()..];
            let trimmed = rest.trim_start();
            if let Some(path) = trimmed.strip_prefix('"').and_then(|t| t.split('"').next()) {
                out.push(path.to_string());
            }
        }
        out
    }

    /// The paths in the table's path column. A row may name siblings after the first path as
    /// `` `/api/a/b`, `/c` `` (meaning `/api/a/c`).
    fn documented_paths(source: &str) -> std::collections::BTreeSet<String> {
        let mut out = std::collections::BTreeSet::new();
        for line in source.lines() {
            let Some(row) = line.strip_prefix("//! | ") else {
                continue;
            };
            let row = row.replace("\\|", "/");
            let Some(cell) = row.split('|').nth(1) else {
                continue;
            };
            let mut first: Option<String> = None;
            for tick in cell.split('`').skip(1).step_by(2) {
                if tick.starts_with("/api/") {
                    out.insert(normalize(tick));
                    first = Some(tick.to_string());
                } else if let (Some(base), true) = (&first, tick.starts_with('/')) {
                    let parent = base.rsplit_once('/').map_or("", |(p, _)| p);
                    out.insert(normalize(&format!("{parent}{tick}")));
                }
            }
        }
        out
    }

    /// Without the query, and every `{param}` as `{}` (the table says `{callId}` where axum
    /// says `{call_id}`).
    fn normalize(path: &str) -> String {
        let path = path.split('?').next().unwrap_or(path);
        let mut out = String::new();
        let mut in_param = false;
        for c in path.chars() {
            match c {
                '{' => {
                    in_param = true;
                    out.push_str("{}");
                }
                '}' => in_param = false,
                _ if !in_param => out.push(c),
                _ => {}
            }
        }
        out
    }
}
