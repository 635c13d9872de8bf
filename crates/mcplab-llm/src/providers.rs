//! Provider configuration: which LLM providers exist, where they live (base URL), which key
//! they use, and whether each one is usable right now. Built from an environment map the
//! binary hands in (this module never reads the process environment) plus the endpoints and
//! keys the user stored in Settings, which override and extend it. Keys are never logged:
//! `ProviderConfig`'s `Debug` redacts them and `key_hint` shows only a short suffix.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::genai_adapter::GenaiProvider;
use super::retry::{RetryPolicy, RetryingProvider};
use super::{LlmError, LlmProvider};

pub use mcplab_protocol::provider::{DEFAULT_OLLAMA_HOST, ProviderKind};

/// What to tell a user whose provider has no key.
fn missing_key_message(kind: ProviderKind) -> String {
    let vars = kind.key_env();
    let names = match vars {
        [one] => one.to_string(),
        [first, rest @ ..] => format!("{first} (or {})", rest.join(", ")),
        [] => return format!("add a key for {} in Settings", kind.display_name()),
    };
    format!("set {names} or add a key in Settings")
}

/// One configured provider (a built-in one, or a custom endpoint the user stored).
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProviderConfig {
    /// The `provider` part of `provider::model`.
    pub id: String,
    pub kind: ProviderKind,
    /// `None` uses the kind's public endpoint.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_key: Option<String>,
    /// Models to offer; empty offers the kind's suggestions (or, for Ollama, what is installed).
    #[serde(default)]
    pub models: Vec<String>,
}

impl fmt::Debug for ProviderConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ProviderConfig")
            .field("id", &self.id)
            .field("kind", &self.kind)
            .field(
                "base_url",
                &self.base_url.as_deref().map(mcplab_net::mask_userinfo),
            )
            .field("api_key", &self.key_hint())
            .field("models", &self.models)
            .finish()
    }
}

impl ProviderConfig {
    /// A built-in provider with no key and the default endpoint.
    pub fn builtin(kind: ProviderKind) -> Option<Self> {
        Some(Self {
            id: kind.builtin_id()?.to_owned(),
            kind,
            base_url: None,
            api_key: None,
            models: Vec::new(),
        })
    }

    /// The base URL requests go to (configured or the kind's default), as the user wrote it.
    pub fn effective_base_url(&self) -> Option<String> {
        match (&self.base_url, self.kind) {
            (Some(url), ProviderKind::Ollama) => Some(parse_ollama_host(url)),
            (Some(url), _) => Some(url.trim().trim_end_matches('/').to_owned()),
            (None, kind) => kind.default_base_url().map(str::to_owned),
        }
    }

    /// A display-safe hint of the key (`…abcd`), never the key itself.
    pub fn key_hint(&self) -> Option<String> {
        let key = self.api_key.as_deref()?;
        let chars: Vec<char> = key.chars().collect();
        if chars.len() <= 8 {
            return Some("…".into());
        }
        let tail: String = chars[chars.len() - 4..].iter().collect();
        Some(format!("…{tail}"))
    }

    /// Checks what a stored configuration must satisfy before it can be used.
    pub fn validate(&self) -> Result<(), LlmError> {
        let bad = |message: String| Err(LlmError::NotConfigured { message });
        let id_ok = !self.id.is_empty()
            && self.id.len() <= 64
            && self
                .id
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_');
        if !id_ok {
            return bad(format!(
                "provider id `{}` must be 1-64 characters of a-z, 0-9, `-` or `_`",
                self.id
            ));
        }
        if let Some(builtin) = ProviderKind::BUILT_IN
            .iter()
            .find(|k| k.builtin_id() == Some(self.id.as_str()))
            && *builtin != self.kind
        {
            return bad(format!(
                "provider id `{}` is reserved for the built-in {} provider",
                self.id,
                builtin.display_name()
            ));
        }
        if let Some(url) = &self.base_url {
            let url = match self.kind {
                ProviderKind::Ollama => parse_ollama_host(url),
                _ => url.trim().to_owned(),
            };
            match reqwest::Url::parse(&url) {
                Ok(u) if matches!(u.scheme(), "http" | "https") => {}
                _ => {
                    let shown = mcplab_net::mask_userinfo(&url);
                    return bad(format!("`{shown}` is not an http(s) URL"));
                }
            }
        } else if self.kind.default_base_url().is_none() {
            return bad(format!(
                "{} provider `{}` needs a base URL",
                self.kind.display_name(),
                self.id
            ));
        }
        Ok(())
    }
}

/// Parses `OLLAMA_HOST` the way the Ollama CLI does: the scheme defaults to `http`, the port
/// to 11434 when no scheme is given (80/443 with one), and a bind-all address is reached on
/// loopback. Returns a URL without a trailing slash.
pub fn parse_ollama_host(raw: &str) -> String {
    let s = raw.trim();
    if s.is_empty() {
        return DEFAULT_OLLAMA_HOST.to_owned();
    }
    let (scheme, rest, default_port) = match s.split_once("://") {
        None => ("http", s, "11434"),
        Some((scheme, rest)) => {
            let port = if scheme.eq_ignore_ascii_case("https") {
                "443"
            } else {
                "80"
            };
            (scheme, rest, port)
        }
    };
    let (hostport, path) = match rest.split_once('/') {
        Some((hp, path)) => (hp, path.trim_end_matches('/')),
        None => (rest, ""),
    };
    let (host, port) = split_host_port(hostport);
    let host = match host {
        "" | "0.0.0.0" => "127.0.0.1",
        "[::]" => "[::1]",
        h => h,
    };
    let port = port.unwrap_or(default_port);
    let mut url = format!("{scheme}://{host}:{port}");
    if !path.is_empty() {
        url.push('/');
        url.push_str(path);
    }
    url
}

/// Splits `host:port`, `[v6]:port`, `host` or `[v6]`; a bare IPv6 address is bracketed.
fn split_host_port(hostport: &str) -> (&str, Option<&str>) {
    if hostport.starts_with('[') {
        return match hostport.find(']') {
            Some(end) => {
                let host = &hostport[..=end];
                let port = hostport[end + 1..]
                    .strip_prefix(':')
                    .filter(|p| !p.is_empty());
                (host, port)
            }
            None => (hostport, None),
        };
    }
    match hostport.matches(':').count() {
        1 => {
            let (h, p) = hostport.split_once(':').unwrap_or((hostport, ""));
            (h, Some(p).filter(|p| !p.is_empty()))
        }
        // A bare IPv6 address (`::1`) has no port.
        _ => (hostport, None),
    }
}

/// Whether a provider can be used now, and why not.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProviderAvailability {
    pub id: String,
    pub kind: ProviderKind,
    pub display_name: String,
    pub usable: bool,
    /// Why it is not usable, phrased as what to do.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The endpoint requests go to, a password in it shown as `****`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_url: Option<String>,
    /// `…abcd` when a key is configured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key_hint: Option<String>,
    /// Models to offer (configured, suggested, or installed for Ollama).
    pub models: Vec<String>,
}

/// How long the Ollama probe waits: it runs while a settings page opens.
pub const OLLAMA_PROBE_TIMEOUT: Duration = Duration::from_millis(1500);

/// Every provider mcplab knows about, in display order: the built-in ones (always present,
/// usable or not) and the custom endpoints the user stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderSettings {
    providers: Vec<ProviderConfig>,
    /// Keys read from the environment, by provider id: where they may be sent.
    env_keys: HashMap<String, EnvKey>,
    /// Why a provider has no key although the environment has one (its base URL moved).
    withheld: HashMap<String, String>,
}

/// A key from the environment goes only to the provider's official host or the host the
/// environment configured with it (`OPENAI_BASE_URL`), never to a base URL set elsewhere.
#[derive(Debug, Clone, PartialEq, Eq)]
struct EnvKey {
    var: &'static str,
    hosts: Vec<Origin>,
}

/// Scheme, host and port of a URL (`None` for text that is not one).
type Origin = (String, String, Option<u16>);

fn origin_of(url: &str) -> Option<Origin> {
    let u = reqwest::Url::parse(url.trim()).ok()?;
    Some((
        u.scheme().to_owned(),
        u.host_str()?.to_ascii_lowercase(),
        u.port_or_known_default(),
    ))
}

fn host_text((_, host, port): &Origin) -> String {
    match port {
        Some(p) => format!("{host}:{p}"),
        None => host.clone(),
    }
}

impl Default for ProviderSettings {
    fn default() -> Self {
        Self::from_vars(&HashMap::new())
    }
}

impl ProviderSettings {
    /// Reads keys and base URLs from a map of variables. It reads no environment itself: the
    /// binary hands in the process environment. Empty values count as unset.
    pub fn from_vars(env: &HashMap<String, String>) -> Self {
        let get = |name: &str| {
            env.get(name)
                .map(|v| v.trim())
                .filter(|v| !v.is_empty())
                .map(str::to_owned)
        };
        let mut env_keys = HashMap::new();
        let providers = ProviderKind::BUILT_IN
            .iter()
            .filter_map(|&kind| {
                let mut config = ProviderConfig::builtin(kind)?;
                let key = kind
                    .key_env()
                    .iter()
                    .find_map(|name| Some((*name, get(name)?)));
                config.base_url = kind.base_url_env().and_then(get);
                if let Some((var, key)) = key {
                    config.api_key = Some(key);
                    let hosts = [kind.default_base_url(), config.base_url.as_deref()]
                        .into_iter()
                        .flatten()
                        .filter_map(origin_of)
                        .collect();
                    env_keys.insert(config.id.clone(), EnvKey { var, hosts });
                }
                Some(config)
            })
            .collect();
        Self {
            providers,
            env_keys,
            withheld: HashMap::new(),
        }
    }

    /// Drops `config`'s key when it came from the environment and its base URL now points
    /// elsewhere than the key was given for; remembers why.
    fn withhold_env_key(&mut self, id: &str) {
        let (Some(env), Some(config)) = (
            self.env_keys.get(id),
            self.providers.iter_mut().find(|p| p.id == id),
        ) else {
            return;
        };
        let target = config.effective_base_url().and_then(|u| origin_of(&u));
        if target.as_ref().is_some_and(|t| env.hosts.contains(t)) {
            return;
        }
        config.api_key = None;
        let allowed: Vec<String> = env.hosts.iter().map(host_text).collect();
        let target = target.as_ref().map_or("another host".into(), host_text);
        self.withheld.insert(
            id.to_owned(),
            format!(
                "the key in {} is only sent to {}, not to {target} (the base URL set in \
                 Settings): add a key for this base URL in Settings",
                env.var,
                allowed.join(" or ")
            ),
        );
    }

    /// What to say about a provider that cannot be used.
    fn explain(&self, id: &str, error: LlmError) -> LlmError {
        match (&error, self.withheld.get(id)) {
            (LlmError::NotConfigured { .. }, Some(message)) => LlmError::NotConfigured {
                message: message.clone(),
            },
            _ => error,
        }
    }

    /// Applies stored configurations: an entry whose id exists overrides its base URL, key
    /// and models where it sets them (or replaces it when the kind differs); a new id is
    /// added. Invalid entries are returned, not applied.
    pub fn merge_stored(
        &mut self,
        stored: impl IntoIterator<Item = ProviderConfig>,
    ) -> Vec<(ProviderConfig, LlmError)> {
        let mut rejected = Vec::new();
        for config in stored {
            if let Err(e) = config.validate() {
                rejected.push((config, e));
                continue;
            }
            match self.providers.iter_mut().find(|p| p.id == config.id) {
                Some(existing) if existing.kind == config.kind => {
                    let own_key = config
                        .api_key
                        .as_deref()
                        .is_some_and(|k| !k.trim().is_empty());
                    if config.base_url.is_some() {
                        existing.base_url = config.base_url;
                    }
                    if own_key {
                        existing.api_key = config.api_key;
                    }
                    if !config.models.is_empty() {
                        existing.models = config.models;
                    }
                    if own_key {
                        self.env_keys.remove(&config.id);
                        self.withheld.remove(&config.id);
                    } else {
                        self.withhold_env_key(&config.id);
                    }
                }
                Some(existing) => *existing = config,
                None => self.providers.push(config),
            }
        }
        rejected
    }

    pub fn providers(&self) -> &[ProviderConfig] {
        &self.providers
    }

    pub fn get(&self, id: &str) -> Option<&ProviderConfig> {
        self.providers.iter().find(|p| p.id == id)
    }

    /// Whether each provider is usable and why not. Ollama is probed (`GET {host}/api/tags`,
    /// short timeout) and lists its installed models; the others are judged by configuration.
    pub async fn availability(&self, http: &reqwest::Client) -> Vec<ProviderAvailability> {
        let probes = self.providers.iter().map(|config| async move {
            let mut a = ProviderAvailability {
                id: config.id.clone(),
                kind: config.kind,
                display_name: config.kind.display_name().to_owned(),
                usable: true,
                reason: None,
                base_url: config
                    .effective_base_url()
                    .map(|u| mcplab_net::mask_userinfo(&u).into_owned()),
                key_hint: config.key_hint(),
                models: if config.models.is_empty() {
                    config
                        .kind
                        .suggested_models()
                        .iter()
                        .map(|m| m.to_string())
                        .collect()
                } else {
                    config.models.clone()
                },
            };
            if let Err(LlmError::NotConfigured { message }) =
                check_configured(config).map_err(|e| self.explain(&config.id, e))
            {
                a.usable = false;
                a.reason = Some(message);
            } else if config.kind == ProviderKind::Ollama {
                let host = config
                    .effective_base_url()
                    .unwrap_or_else(|| DEFAULT_OLLAMA_HOST.into());
                match probe_ollama(http, &host).await {
                    Ok(installed) if installed.is_empty() && config.models.is_empty() => {
                        a.usable = false;
                        a.reason = Some(format!(
                            "Ollama at {} has no models installed; run `ollama pull llama3.2`",
                            mcplab_net::mask_userinfo(&host)
                        ));
                        a.models = installed;
                    }
                    Ok(installed) => {
                        if config.models.is_empty() {
                            a.models = installed;
                        }
                    }
                    Err(message) => {
                        a.usable = false;
                        a.reason = Some(message);
                    }
                }
            }
            a
        });
        futures::future::join_all(probes).await
    }

    /// The provider for a `provider::model` provider id, wrapped in the default retry policy.
    pub fn provider(
        &self,
        id: &str,
        http: &reqwest::Client,
    ) -> Result<Arc<dyn LlmProvider>, LlmError> {
        let config = self.get(id).ok_or_else(|| LlmError::NotConfigured {
            message: format!(
                "no provider `{id}`; known providers: {}",
                self.providers
                    .iter()
                    .map(|p| p.id.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        })?;
        build_provider(config, http, RetryPolicy::default()).map_err(|e| self.explain(id, e))
    }
}

/// Whether a configuration can make requests at all (key present, base URL valid).
fn check_configured(config: &ProviderConfig) -> Result<(), LlmError> {
    if config.kind.requires_key() && config.api_key.as_deref().is_none_or(str::is_empty) {
        return Err(LlmError::NotConfigured {
            message: missing_key_message(config.kind),
        });
    }
    config.validate()
}

/// Builds a provider for one configuration: the genai adapter for its kind, retried per
/// `retry` when a request fails before anything streamed. `http` is shared so providers
/// reuse one connection pool.
pub fn build_provider(
    config: &ProviderConfig,
    http: &reqwest::Client,
    retry: RetryPolicy,
) -> Result<Arc<dyn LlmProvider>, LlmError> {
    check_configured(config)?;
    let inner: Arc<dyn LlmProvider> = Arc::new(GenaiProvider::new(config, http.clone())?);
    if retry.max_attempts <= 1 {
        return Ok(inner);
    }
    Ok(Arc::new(RetryingProvider::new(inner, retry)))
}

/// `GET {host}/api/tags`: the installed model names, or what to tell the user.
async fn probe_ollama(http: &reqwest::Client, host: &str) -> Result<Vec<String>, String> {
    #[derive(Deserialize)]
    struct Tags {
        #[serde(default)]
        models: Vec<Tag>,
    }
    #[derive(Deserialize)]
    struct Tag {
        name: String,
    }
    let shown = mcplab_net::mask_userinfo(host);
    let not_running = || format!("Ollama is not running at {shown}");
    let response = http
        .get(format!("{host}/api/tags"))
        .timeout(OLLAMA_PROBE_TIMEOUT)
        .send()
        .await
        .map_err(|_| not_running())?;
    if !response.status().is_success() {
        return Err(format!(
            "Ollama at {shown} answered HTTP {}",
            response.status().as_u16()
        ));
    }
    let tags: Tags = response
        .json()
        .await
        .map_err(|_| format!("{shown} answered /api/tags with something that is not Ollama"))?;
    Ok(tags.models.into_iter().map(|t| t.name).collect())
}

#[cfg(test)]
#[path = "providers_tests.rs"]
mod tests;
