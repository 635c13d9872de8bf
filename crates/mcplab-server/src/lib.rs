//! The HTTP edge of mcplab: the `/api` routes over the core's connection manager and store,
//! the host event stream, the security checks of DESIGN.md §3 (bearer secrets from one-time
//! login codes, never cookies; Host allow-list; Origin check; the host page's CSP) and the
//! embedded web UI. It calls core; it spawns nothing itself
//! and reads no environment: the binary hands it everything in [`AppState`].
//!
//! # Where things are
//!
//! - `crates/mcplab-server`: The HTTP edge: `router(state)`; `headless/` (the one render set-up:
//!   `serve_app`/`start_sandbox` put the router and sandbox on listeners, `LoopbackApi` an API of
//!   its own on loopback over the caller's connections, `render_once`, `LoopbackRenderer` for eval
//!   renders; used by `serve`, `apps render`, the CLI's and the Evals page's eval runs and `mcplab
//!   mcp`'s `render_app`); `security/` (`mod.rs`: Host allow-list with exactly one Host header,
//!   Origin and `Sec-Fetch-Site` checks; `credentials.rs`: the launch secret, one-time login codes
//!   (2 min, bounded), session secrets (bounded), constant-time checks; `signin.rs`: `GET
//!   /auth?code=` page or refusal, `POST /api/session` exchange with `next` reduced to a
//!   same-origin path, `POST /api/login-codes`, `require_bearer` — `Authorization: Bearer` only,
//!   cookies are never read; `headers.rs`: CSP/XFO/nosniff/no-referrer on every main-origin
//!   response, `frame-src` from `AppState::frame_src`); `render_specs.rs` (specs registered for
//!   `#/render/<id>`, single use, 2 min, bounded); `events.rs` (`EventHub`: core's `EventRing` of
//!   `HostEvent`s fed by the manager; `sse()`, the SSE form of every ring — host stream, chat
//!   sessions, OAuth debug runs, eval runs — with `Last-Event-ID` replay, `resync`, keep-alive);
//!   `memory.rs` (glibc only: the mmap threshold pinned at start, `malloc_trim` after a disconnect
//!   or a traffic clear, so a flood's freed memory goes back to the system); `routes/` (servers
//!   CRUD/import/export/connect — `POST /api/servers` connects in the background and answers once
//!   the server is `connecting`, unless `?connect=false` or the server has OAuth settings for a
//!   browser sign-in; `connect` and the OAuth `authorize` join a connection under way instead of
//!   starting a second —, traffic incl. one whole frame by seq, MCP operations with `callId`
//!   progress and cancel, human answers, roots, prefs, chat sessions/turns/providers, `POST
//!   /api/host-config/parse`, `GET /api/hosts` and `/api/hosts/{name}?against=` (`routes/hosts.rs`:
//!   host profiles, built in and `AppState::hosts_dir`, with a field-by-field diff) and `GET
//!   /api/compare/eval-suite` (a compared turn as an eval suite file), `GET
//!   /api/sessions/{id}/turns/{turnId}/xray/{step}` (one step's x-ray with its bodies; the
//!   session's view carries none), `/api/compares` (`routes/compare.rs`: group sessions as a
//!   compare, read one, `/api/compares/{id}/export?format=json|markdown`) over core's
//!   `SessionHub`); `assets.rs` + `build.rs` (the embedded `web/dist`: the build script writes a
//!   path-sorted table of every file with its MIME type, files that gzip well stored gzipped — 2.5
//!   MB of UI is 0.7 MB in the binary; a client accepting gzip gets the stored bytes with
//!   `Content-Encoding: gzip`, straight from read-only data, any other gets them inflated);
//!   `sandbox/` (the second loopback listener: only `/mcp-app-proxy.html` and `/mcp-ui-proxy.html`,
//!   each sent with a CSP header rebuilt from the resource's declared domains, mcplab's own origins
//!   dropped again, plus `frame-ancestors` of the UI origin; `origins.rs`: one origin per app
//!   `http://<label>.localhost:<port>`, the Host check accepts exactly that with a 16–32 `[a-z0-9]`
//!   label, or one shared origin with a non-loopback `--host`; an MCP-UI `?url=` naming mcplab is
//!   refused; `mcp-ui-proxy.html?contentType=remotedom` runs the Remote DOM runtime the UI sends in
//!   an opaque-origin inner frame and relays its thread messages; both proxy pages follow the
//!   `color-scheme` of the frame that embeds them; no `/api`). `AppState::sandbox` holds the
//!   origins (`SandboxOrigins`: the template `/api/host` gives the UI, `sandbox_frame_src()` for
//!   the host page's CSP `frame-src`, the `OwnOrigins` apps may not declare). `routes/apps.rs`
//!   (`/apps/resource`, `/apps/tools/call` with the access check before anything reaches the
//!   server; the tool list it checks against is cached per server in `app_tools.rs` until
//!   `tools/list_changed` or the connection leaves `connected`, its slot gone with the server)
//!   and `routes/app_context.rs`;
//!   `oauth/` (the browser `UserAgent`: redirect to this origin's `/oauth/callback`, pending
//!   sign-ins by `state` (a `Pending` of `mcplab_mcp`), `AuthorizationRequired` events;
//!   the debugger's runs with their own event rings) and `routes/oauth.rs` (status, sign-in,
//!   sign-out, debugger); `routes/render.rs` (`POST /api/apps/render`: the server registers the
//!   spec and renders against itself with `mcplab_render::render` through `AppState::render_sign_in_url` (a
//!   login code + `#/render/<id>`), one at a time, 503 with a fix when there is no
//!   renderer/Chromium; `GET /api/render-specs/{id}`; `AppState::render_host` is set by `serve`);
//!   `routes/chat.rs`'s provider PUT keeps a stored key only while the base URL is unchanged.
//!   Router tests: `tests/it/` (one binary: `api_limits`, `compare_api`, `evals_api`, `oauth_api`,
//!   `security_api`) share `tests/it/router_support.rs` (`state*`,
//!   `req`/`send`/`send_request`/`authed`, one token and Host; requests through the real router
//!   with `oneshot`); the router tests whose demo server is the mcplab binary stay in that crate.
//! - `crates/mcplab-server/src/calls.rs`: The Tools page's tool calls (`callId`) owned by the
//!   server, not by the request that started them: run in a task of their own (a reload does not
//!   end them), listed with their last progress (`GET /api/calls`), waited for (`GET
//!   …/calls/{callId}`), cancelled; ended ones kept a few minutes, bounded. The web's
//!   `inspector/calls.ts` re-attaches to them after a reload.
//! - `crates/mcplab-server/src/evals.rs`, `routes/evals.rs`: `/api/evals`: the suites folder (a
//!   server-side directory in prefs; only plain files directly inside it, no symlinks), suites
//!   listed/read/saved only if they load, a chat session appended as a case
//!   (`/api/evals/suites/{name}/cases`), runs started on a connection manager of their own (a small
//!   traffic ring) with a numbered event stream (`/api/evals/runs/{id}/events`) and cancel,
//!   `appRendered` checks rendered through `headless::LoopbackRenderer` over the run's own
//!   connections when `serve` found Chromium (without it they are errored with the fix), stored
//!   runs listed, shown and compared (`/api/evals/compare`), one iteration's trace
//!   (`/api/evals/runs/{id}/iteration?caseId=&model=&iteration=`), a suite's pass rate per model
//!   over its runs (`/api/evals/trend?suiteId=`).
//! - `routes/evals_dirs.rs`: `/api/evals/dirs`, the folder picker's listing of directories under the
//!   person's home (`AppState::home_dir`), nothing outside it.
//! - `routes/evals_prune.rs`: `/api/evals/prune`, the page's Prune (`eval runs prune`'s rule).
//! - `otlp.rs`: the OTLP switch (`serve --otlp`, `/api/settings/otlp`) told about every chat turn
//!   and wrapped around every eval run's sink.

mod app_tools;
mod assets;
mod calls;
mod error;
mod evals;
mod events;
pub mod headless;
pub mod memory;
mod oauth;
pub mod otlp;
mod render_specs;
mod routes;
pub mod sandbox;
pub mod security;

use std::sync::Arc;

use axum::Router;
use mcplab_mcp::ConnectionManager;
use mcplab_protocol::api::AppRenderSpec;
use mcplab_store::Store;

pub use error::ApiFailure;
pub use events::EventHub;
pub use security::{Security, generate_token};

/// Everything the routes need.
pub struct AppState {
    pub manager: Arc<ConnectionManager>,
    pub store: Arc<Store>,
    pub events: Arc<EventHub>,
    pub security: Security,
    /// Tool calls by (server, callId): cancelled by the UI, kept going when the page that
    /// started them goes away, picked up again by a reloaded page.
    pub calls: calls::Calls,
    /// Chat sessions: stored and live, turns, provider settings (core's session runtime).
    pub sessions: Arc<mcplab_core::session::SessionHub>,
    /// `tools/list` per server for the app-call check (dropped on `list_changed`).
    pub(crate) app_tools: Arc<app_tools::AppToolsCache>,
    /// Where app HTML runs (one origin per app, `http://<label>.localhost:<port>`), set once
    /// the sandbox listener is bound; unset when no sandbox runs (apps then say so).
    pub sandbox: std::sync::OnceLock<sandbox::SandboxOrigins>,
    /// What `POST /api/apps/render` needs to render against this server, set by the binary
    /// once it is bound; unset, renders answer 503.
    pub render_host: std::sync::OnceLock<RenderHost>,
    /// One headless render at a time per process.
    pub render_slot: tokio::sync::Semaphore,
    /// Render specs registered for the render page (`#/render/<id>`), single use.
    pub(crate) render_specs: render_specs::RenderSpecs,
    /// Pending OAuth sign-ins (by `state`) and the OAuth debugger's runs.
    pub oauth: Arc<oauth::OAuthState>,
    /// Eval runs started from the Evals page (their streams and cancel tokens).
    pub evals: evals::EvalRuns,
    /// Where the person's own host profiles live (`<data dir>/hosts`), set by the binary;
    /// unset, `/api/hosts` lists the built-in profiles only.
    pub hosts_dir: std::sync::OnceLock<std::path::PathBuf>,
    /// The person's home directory, set by the binary: the Evals folder picker lists
    /// directories inside it only; unset, the picker says so.
    pub home_dir: std::sync::OnceLock<std::path::PathBuf>,
    /// `mcplab tap` processes and opened recordings (their frames go to the manager's log).
    pub taps: mcplab_tap::ingest::Taps,
    /// Where chat turns and eval runs are exported as OpenTelemetry spans (if anywhere).
    pub otlp: Arc<otlp::OtlpSwitch>,
}

/// This server as the headless renderer sees it.
#[derive(Debug, Clone)]
pub struct RenderHost {
    /// Where Chromium reaches this server, e.g. `http://127.0.0.1:6274`.
    pub self_origin: String,
    /// The Chromium binary; `None` when none was found at startup.
    pub chromium: Option<std::path::PathBuf>,
}

impl AppState {
    /// Wires the state together and starts forwarding manager events into the hub.
    pub fn new(
        manager: Arc<ConnectionManager>,
        store: Arc<Store>,
        security: Security,
        providers: mcplab_llm::ProviderSettings,
    ) -> Arc<Self> {
        let events = EventHub::start(&manager);
        let oauth = Arc::new(oauth::OAuthState::default());
        if manager.oauth().is_none() {
            // Connections sign in through this browser, back to this origin's callback.
            let agent = Arc::new(oauth::BrowserAgent::for_servers(
                oauth.clone(),
                events.clone(),
                security.origin(),
            ));
            let user_agent = concat!("mcplab/", env!("CARGO_PKG_VERSION"));
            let credentials: Arc<dyn mcplab_oauth::CredentialStore> = store.clone();
            if let Ok(host) = mcplab_oauth::OAuthHost::new(credentials, agent, "mcplab", user_agent)
            {
                manager.set_oauth(host);
            }
        }
        let sessions = Arc::new(mcplab_core::session::SessionHub::new(
            store.clone(),
            manager.clone(),
            mcplab_core::session::LlmSettings::new(providers),
        ));
        let app_tools = app_tools::AppToolsCache::start(&manager);
        let otlp = Arc::new(otlp::OtlpSwitch::default());
        sessions.set_turn_observer(Some(otlp.clone()));
        Arc::new(Self {
            manager,
            store,
            events,
            security,
            calls: calls::Calls::default(),
            sessions,
            app_tools,
            sandbox: std::sync::OnceLock::new(),
            render_host: std::sync::OnceLock::new(),
            hosts_dir: std::sync::OnceLock::new(),
            home_dir: std::sync::OnceLock::new(),
            render_slot: tokio::sync::Semaphore::new(1),
            render_specs: render_specs::RenderSpecs::default(),
            oauth,
            evals: evals::EvalRuns::default(),
            taps: Default::default(),
            otlp,
        })
    }

    /// The main page's CSP `frame-src`: where app frames may come from. The one place that
    /// says it (the sandbox listener's origin(s)); `'none'` while no sandbox runs.
    pub fn frame_src(&self) -> String {
        self.sandbox_frame_src()
            .map(str::to_owned)
            .unwrap_or_else(|| "'none'".to_owned())
    }

    /// Registers `spec` for the render page and returns the URL that headless Chromium opens
    /// on `origin` (this server as Chromium reaches it): a one-time login code, then
    /// `/#/render/<id>`. Neither the launch secret nor the spec is in the URL.
    pub fn render_sign_in_url(&self, origin: &str, spec: AppRenderSpec) -> String {
        let id = self.render_specs.register(spec);
        let code = self.security.credentials().mint_login_code();
        format!(
            "{}/auth?code={code}&next=%2F%23%2Frender%2F{id}",
            origin.trim_end_matches('/')
        )
    }
}

impl AppState {
    /// The host page's CSP `frame-src` source for app proxies (`http://*.localhost:<port>`),
    /// `None` before the sandbox runs (then no frame is needed).
    pub fn sandbox_frame_src(&self) -> Option<&str> {
        self.sandbox.get().map(|s| s.frame_src.as_str())
    }

    /// mcplab's own origins, which no app may declare: from the sandbox once it runs, else
    /// the UI's port alone.
    pub fn own_origins(&self) -> mcplab_apps::OwnOrigins {
        if let Some(s) = self.sandbox.get() {
            return s.own.clone();
        }
        let origin = self.security.origin();
        let port = origin.rsplit(':').next().and_then(|p| p.parse().ok());
        mcplab_apps::OwnOrigins::loopback(port.as_slice(), None)
    }
}

/// The whole application: `/auth`, `/api/*` behind the security layer, and the UI; every
/// response carries the main origin's defence headers.
pub fn router(state: Arc<AppState>) -> Router {
    let api = routes::api()
        .route_layer(axum::middleware::from_fn_with_state(
            state.clone(),
            security::signin::require_bearer,
        ))
        // The login code in the body is the credential here.
        .route("/session", axum::routing::post(security::signin::exchange));
    Router::new()
        .nest("/api", api)
        .route("/auth", axum::routing::get(security::signin::page))
        // No API token here: the authorization server's redirect cannot carry one; only a
        // pending `state` is accepted.
        .route(oauth::CALLBACK_PATH, axum::routing::get(oauth::callback))
        .fallback(assets::serve)
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            security::check_host_and_origin,
        ))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            security::headers::add,
        ))
        .with_state(state)
}
