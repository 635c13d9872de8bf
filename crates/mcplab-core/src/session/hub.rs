//! `SessionHub`: every chat session, stored and live. Creating, listing, viewing, changing and
//! deleting sessions (the HostConfig checked and kept with each; sessions stored before
//! HostConfigs get one built from their settings), the live runtime of each open session, what
//! apps gave the model, and the provider settings (given ones merged with those stored in
//! Settings). Turns run in `turns.rs`. Used by the web server and `mcplab chat`; it must not
//! know about HTTP or terminals.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use mcplab_llm::prices::PriceTable;
use mcplab_protocol::chat::{
    AppContextEntry, AppContextInput, CompareMember, NewSession, SessionPatch, SessionSummary,
    SessionView,
};
use mcplab_protocol::host::HostConfig;
use parking_lot::{Mutex, RwLock};
use serde_json::Value;

use super::host::{self, HostConfigError};
use super::runtime::SessionRuntime;
use mcplab_llm::{LlmError, LlmProvider, ModelRef, ProviderConfig, ProviderSettings};
use mcplab_mcp::ConnectionManager;
use mcplab_protocol::clock::now_ms;
use mcplab_store::{SessionRecord, Store, StoreError};

/// The title of a session nobody named yet.
pub const DEFAULT_TITLE: &str = "New chat";

/// What can go wrong; callers branch on the variant.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    #[error("chat session {0} not found")]
    NotFound(String),
    #[error(transparent)]
    Host(#[from] HostConfigError),
    /// A request that cannot be done as asked (empty title, empty message…).
    #[error("{0}")]
    Invalid(String),
    /// Another turn is running.
    #[error("turn {0} is still running; wait for it or cancel it")]
    Busy(String),
    /// The model cannot be used (bad name, missing key, …).
    #[error("{0}")]
    Model(String),
    /// The request conflicts with the session's state (e.g. retrying a turn that is not the
    /// last).
    #[error("{0}")]
    Conflict(String),
    #[error(transparent)]
    Store(StoreError),
}

impl From<StoreError> for SessionError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::NotFound(what) => SessionError::NotFound(what),
            e => SessionError::Store(e),
        }
    }
}

/// Provider settings handed in by the binary (from its environment) and the HTTP client the
/// providers share.
pub struct LlmSettings {
    pub env: ProviderSettings,
    /// Made on first use: building a TLS client reads the system's root certificates (hundreds
    /// of files), which `serve` should not do before it answers its first request.
    http: OnceLock<reqwest::Client>,
}

impl LlmSettings {
    pub fn new(env: ProviderSettings) -> Self {
        Self {
            env,
            http: OnceLock::new(),
        }
    }

    /// The HTTP client the providers share.
    pub fn http(&self) -> &reqwest::Client {
        self.http.get_or_init(mcplab_net::tls::client)
    }

    /// These settings merged with the providers saved in Settings in `stored`, and the saved
    /// entries that were skipped (with why).
    pub fn merged(
        &self,
        stored: Option<&Store>,
    ) -> (ProviderSettings, Vec<(ProviderConfig, LlmError)>) {
        let mut settings = self.env.clone();
        let saved = stored
            .and_then(|s| s.provider_configs().ok())
            .unwrap_or_default();
        let skipped = settings.merge_stored(saved);
        (settings, skipped)
    }

    /// The provider for `model` (`provider::model`).
    pub fn provider_for(
        &self,
        stored: Option<&Store>,
        model: &str,
    ) -> Result<(ModelRef, Arc<dyn LlmProvider>), SessionError> {
        let model = ModelRef::parse(model).map_err(|e| SessionError::Model(e.to_string()))?;
        let provider = self
            .merged(stored)
            .0
            .provider(&model.provider, self.http())
            .map_err(|e| SessionError::Model(e.to_string()))?;
        Ok((model, provider))
    }
}

pub struct SessionHub {
    pub(super) store: Arc<Store>,
    /// Where provider settings saved in Settings are read (usually `store`).
    provider_store: Option<Arc<Store>>,
    pub(super) manager: Arc<ConnectionManager>,
    llm: LlmSettings,
    live: Mutex<HashMap<String, Arc<SessionRuntime>>>,
    /// What steps cost: the shipped table unless [`SessionHub::with_prices`] gave another.
    prices: RwLock<Arc<PriceTable>>,
    /// Told about each turn once it ended and was stored (the OTLP export), if set.
    turn_observer: RwLock<Option<Arc<dyn super::turns::TurnObserver>>>,
}

impl SessionHub {
    /// Sessions kept in `store`, turns run on `manager`'s connections.
    pub fn new(store: Arc<Store>, manager: Arc<ConnectionManager>, llm: LlmSettings) -> Self {
        Self {
            provider_store: Some(store.clone()),
            store,
            manager,
            llm,
            live: Mutex::default(),
            prices: RwLock::new(crate::agent::shipped_prices()),
            turn_observer: RwLock::new(None),
        }
    }

    /// Tells `observer` about every turn that ends from now on (`None`: nobody).
    pub fn set_turn_observer(&self, observer: Option<Arc<dyn super::turns::TurnObserver>>) {
        *self.turn_observer.write() = observer;
    }

    pub(super) fn turn_observer(&self) -> Option<Arc<dyn super::turns::TurnObserver>> {
        self.turn_observer.read().clone()
    }

    /// Costs the next turns' steps with `prices` (the shipped table with the user's
    /// `prices.json` over it).
    pub fn set_prices(&self, prices: Arc<PriceTable>) {
        *self.prices.write() = prices;
    }

    /// The price table turns are costed with.
    pub fn prices(&self) -> Arc<PriceTable> {
        self.prices.read().clone()
    }

    /// Reads stored provider settings from `store` instead of the session store (the CLI
    /// keeps unsaved sessions in memory but uses the providers saved in Settings).
    pub fn with_provider_store(mut self, store: Option<Arc<Store>>) -> Self {
        self.provider_store = store;
        self
    }

    pub fn llm(&self) -> &LlmSettings {
        &self.llm
    }

    pub fn manager(&self) -> &Arc<ConnectionManager> {
        &self.manager
    }

    /// The given provider settings merged with those stored in Settings, and the stored
    /// entries that were skipped (with why).
    pub fn provider_settings(&self) -> (ProviderSettings, Vec<(ProviderConfig, LlmError)>) {
        self.llm.merged(self.provider_store.as_deref())
    }

    /// The provider for `model` (`provider::model`).
    pub fn provider_for(
        &self,
        model: &str,
    ) -> Result<(ModelRef, Arc<dyn LlmProvider>), SessionError> {
        self.llm.provider_for(self.provider_store.as_deref(), model)
    }

    /// The live side of session `id` (created on first use, with its saved app context).
    pub fn runtime(&self, id: &str) -> Arc<SessionRuntime> {
        let mut live = self.live.lock();
        live.entry(id.to_owned())
            .or_insert_with(|| {
                let saved = self.store.app_context(id).unwrap_or_else(|error| {
                    tracing::warn!(%error, session = id, "could not load the session's app context");
                    Vec::new()
                });
                Arc::new(SessionRuntime::new(saved))
            })
            .clone()
    }

    /// Every session, most recently updated first.
    pub fn list(&self) -> Result<Vec<SessionSummary>, SessionError> {
        Ok(self.store.sessions()?.into_iter().map(summary).collect())
    }

    pub fn summary(&self, id: &str) -> Result<SessionSummary, SessionError> {
        Ok(summary(self.store.session(id)?))
    }

    /// Creates a session from its HostConfig (or the older settings; defaults otherwise).
    pub fn create(&self, req: NewSession) -> Result<SessionView, SessionError> {
        let host = match (req.host_config, req.settings) {
            (Some(h), _) => h,
            (None, Some(s)) => host::from_settings(&s),
            (None, None) => HostConfig::default(),
        };
        host::check(&host)?;
        let host = host::normalized(&host);
        let now = now_ms();
        let record = SessionRecord {
            id: new_id(),
            title: req
                .title
                .filter(|t| !t.trim().is_empty())
                .unwrap_or_else(|| DEFAULT_TITLE.into()),
            created_ms: now,
            updated_ms: now,
            settings: host::to_settings(&host),
            host_config: Some(host),
            compare: None,
        };
        self.store.create_session(&record)?;
        self.view(&record.id)
    }

    /// The session with its stored turns and the running turn so far.
    pub fn view(&self, id: &str) -> Result<SessionView, SessionError> {
        let summary = self.summary(id)?;
        let runtime = self.runtime(id);
        // Snapshot first: a turn that finishes in between is then in the store, and the view
        // may show it twice only as stored + live with the same id, which is removed here.
        let snapshot = runtime.snapshot();
        let turns: Vec<_> = self
            .store
            .turns::<mcplab_llm::Message>(id)?
            .into_iter()
            .map(|(t, _)| t)
            .filter(|t| snapshot.replacing.as_deref() != Some(t.turn_id.as_str()))
            .collect();
        let live_turn = snapshot
            .live_turn
            .filter(|l| !turns.iter().any(|t| t.turn_id == l.turn_id));
        Ok(SessionView {
            summary,
            turns,
            running_turn: runtime.running_turn(),
            live_turn,
            last_event_id: snapshot.last_event_id,
            app_context: snapshot.app_context,
        })
    }

    /// Renames the session and/or replaces its HostConfig (or changes the keys the older
    /// settings have). The next turn runs under the new config.
    pub fn patch(&self, id: &str, req: SessionPatch) -> Result<SessionSummary, SessionError> {
        if req.title.as_deref().is_some_and(|t| t.trim().is_empty()) {
            return Err(SessionError::Invalid(
                "a session title cannot be empty".into(),
            ));
        }
        let host = match (req.host_config, req.settings) {
            (Some(h), _) => Some(h),
            (None, Some(s)) => Some(host::apply_settings(&self.summary(id)?.host_config, &s)),
            (None, None) => None,
        };
        let host = match host {
            Some(h) => {
                host::check(&h)?;
                let h = host::normalized(&h);
                let settings = host::to_settings(&h);
                Some((h, settings))
            }
            None => None,
        };
        let record = self.store.update_session(
            id,
            req.title.as_deref(),
            host.as_ref().map(|(h, s)| (h, s)),
            now_ms(),
        )?;
        Ok(summary(record))
    }

    /// Deletes the session and its turns, cancelling a running turn.
    pub fn delete(&self, id: &str) -> Result<(), SessionError> {
        self.store.delete_session(id)?;
        let rt = self.live.lock().remove(id);
        if let Some(rt) = rt {
            rt.cancel_any();
        }
        Ok(())
    }

    /// Sets (with `Some`) or removes what an app gave the model under `key`; saved with the
    /// session and announced on its stream when it changed.
    pub fn set_app_context(
        &self,
        id: &str,
        key: &str,
        input: Option<AppContextInput>,
    ) -> Result<(), SessionError> {
        self.store.session(id)?;
        let entry = match input {
            Some(input) => {
                if key.trim().is_empty() {
                    return Err(SessionError::Invalid(
                        "an app context needs a non-empty key (e.g. the tool call id)".into(),
                    ));
                }
                Some(app_context_entry(key, input)?)
            }
            None => None,
        };
        let rt = self.runtime(id);
        if rt.set_app_context(key, entry) {
            self.store.set_app_context(id, &rt.app_context())?;
        }
        Ok(())
    }
}

fn app_context_entry(key: &str, input: AppContextInput) -> Result<AppContextEntry, SessionError> {
    let content = match input.content {
        Value::Null => Value::Array(Vec::new()),
        v @ Value::Array(_) => v,
        _ => {
            return Err(SessionError::Invalid(
                "`content` must be an array of MCP content blocks, e.g. \
                 [{\"type\": \"text\", \"text\": \"…\"}]"
                    .into(),
            ));
        }
    };
    Ok(AppContextEntry {
        key: key.to_owned(),
        server: input.server,
        tool: input.tool,
        call_id: input.call_id,
        source: input.source,
        content,
        structured_content: input.structured_content.filter(|v| !v.is_null()),
        updated_at_ms: now_ms(),
    })
}

/// A stored row as the API shows it: the HostConfig (built from the settings for sessions
/// stored before HostConfigs), its hash, and the settings derived from it.
pub(super) fn summary(r: SessionRecord) -> SessionSummary {
    let host_config = r
        .host_config
        .unwrap_or_else(|| host::from_settings(&r.settings));
    SessionSummary {
        id: r.id,
        title: r.title,
        created_ms: r.created_ms,
        updated_ms: r.updated_ms,
        host_hash: host::hash(&host_config),
        settings: host::to_settings(&host_config),
        host_config,
        compare: r
            .compare
            .map(|(group, column)| CompareMember { group, column }),
    }
}

/// 16 hex digits from the system's random source.
pub(super) fn new_id() -> String {
    use ring::rand::SecureRandom;
    let mut bytes = [0u8; 8];
    if ring::rand::SystemRandom::new().fill(&mut bytes).is_err() {
        // No random source: the clock keeps ids unique enough within this store.
        bytes = now_ms().to_be_bytes();
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcplab_protocol::chat::ChatSettings;
    use mcplab_protocol::host::ApprovalMode;

    #[test]
    fn sessions_stored_before_host_configs_get_one_from_their_settings() {
        let record = SessionRecord {
            id: "old".into(),
            title: "An old chat".into(),
            created_ms: 1,
            updated_ms: 2,
            settings: ChatSettings {
                model: "openai::gpt-4o-mini".into(),
                servers: vec!["demo".into()],
                system_prompt: None,
                temperature: None,
                max_tokens: None,
                step_limit: Some(3),
                require_approval: Some(true),
            },
            host_config: None,
            compare: None,
        };
        let s = summary(record.clone());
        assert_eq!(s.host_config.step_limit, 3);
        assert_eq!(s.host_config.approval.mode, ApprovalMode::Always);
        assert!(s.host_config.servers.contains_key("demo"));
        assert_eq!(
            s.host_hash,
            host::hash(&host::from_settings(&record.settings))
        );
    }
}
