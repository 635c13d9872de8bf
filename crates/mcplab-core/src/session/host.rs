//! The HostConfig contract: parse (JSON or YAML, strict), check, canonical JSON and its hash,
//! and the bridge from the older `ChatSettings`. The canonical form is the value with every
//! key of version 1 present (defaults explicit; the sections issue 18 added — `client`,
//! `toolCatalog`, `toolResults`, `appHost.hostCapabilities` — only when not at their defaults,
//! so configs written before them keep their hashes; inside such a section every key is
//! written), set-like lists sorted and deduplicated, object keys sorted,
//! no whitespace; its hash is the SHA-256 of those bytes in lowercase hex. Two configs mean
//! the same host exactly when their canonical forms are equal, however they were written.
//! This module never reads files: callers hand in text.
//!
//! A golden hash test catches format changes. `version` stays 1 while keys are only added at
//! defaults left out of the canonical form; it rises only when a key changes meaning. Named
//! HostConfigs are host profiles (`profiles`, `mcplab hosts`, `--host NAME`). The web edits,
//! exports and imports it; `mcplab chat --host-config FILE` reads the same file and
//! `--print-host-config` prints the canonical form and hash.

use mcplab_protocol::chat::ChatSettings;
use mcplab_protocol::host::{
    ApprovalMode, HOST_CONFIG_VERSION, HostConfig, HostConfigView, ServerTools,
};
use serde_json::Value;

/// Largest HostConfig text accepted (a config is a few KiB; a system prompt may be long).
pub const MAX_HOST_CONFIG_BYTES: usize = 1 << 20;

/// Bounds on a YAML HostConfig (the rules suites get: no anchors, aliases, tags or duplicate
/// keys, see `mcplab_yaml`). A config is a handful of levels deep; the node bound leaves room
/// for long per-server tool lists.
const YAML_LIMITS: mcplab_yaml::Limits = mcplab_yaml::Limits {
    max_depth: 16,
    max_nodes: 50_000,
};

/// Why a HostConfig cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HostConfigError {
    #[error("the host config is not valid {format}: {message}")]
    Syntax {
        format: &'static str,
        message: String,
    },
    #[error(
        "the host config is {size} bytes; the limit is {MAX_HOST_CONFIG_BYTES}: shorten the \
         system prompt"
    )]
    TooLarge { size: usize },
    #[error("host config: {0}")]
    Invalid(String),
}

/// Parses a HostConfig from JSON (text starting with `{`) or YAML, refusing unknown keys,
/// then checks it. Keys left out take their defaults.
pub fn parse(text: &str) -> Result<HostConfig, HostConfigError> {
    if text.len() > MAX_HOST_CONFIG_BYTES {
        return Err(HostConfigError::TooLarge { size: text.len() });
    }
    let config: HostConfig = if text.trim_start().starts_with('{') {
        serde_json::from_str(text).map_err(|e| HostConfigError::Syntax {
            format: "JSON",
            message: e.to_string(),
        })?
    } else {
        match mcplab_yaml::from_str(text, YAML_LIMITS) {
            Ok(config) => config,
            // Blank, or only comments: every key takes its default.
            Err(e) if e.kind == mcplab_yaml::ErrorKind::Empty => HostConfig::default(),
            Err(e) => {
                return Err(HostConfigError::Syntax {
                    format: "YAML",
                    message: e.to_string(),
                });
            }
        }
    };
    check(&config)?;
    Ok(config)
}

/// What makes a config unusable, said so the user can fix it. An empty model is allowed (a
/// session may choose one later); turns refuse it.
pub fn check(c: &HostConfig) -> Result<(), HostConfigError> {
    let bad = |m: String| Err(HostConfigError::Invalid(m));
    if c.version == 0 || c.version > HOST_CONFIG_VERSION {
        return bad(format!(
            "version {} is not one this mcplab reads (it reads 1 to {HOST_CONFIG_VERSION}); \
             upgrade mcplab or write `version: {HOST_CONFIG_VERSION}`",
            c.version
        ));
    }
    if !c.model.is_empty() && mcplab_llm::ModelRef::parse(&c.model).is_err() {
        return bad(format!(
            "model `{}` is not `provider::model` (e.g. openai::gpt-4.1-mini)",
            c.model
        ));
    }
    if let Some(t) = c.temperature
        && !(0.0..=2.0).contains(&t)
    {
        return bad(format!("temperature {t} is outside 0 to 2"));
    }
    if c.max_tokens == Some(0) {
        return bad("maxTokens must be at least 1 (or null for the provider's default)".into());
    }
    if !(1..=1000).contains(&c.step_limit) {
        return bad(format!("stepLimit {} is outside 1 to 1000", c.step_limit));
    }
    if c.approval.timeout_secs == 0 {
        return bad("approval.timeoutSecs must be at least 1".into());
    }
    for (name, tools) in &c.servers {
        if name.trim().is_empty() {
            return bad("a server name in `servers` is empty".into());
        }
        let names = tools.allow.iter().flatten().chain(&tools.deny);
        if names.clone().any(|t| t.trim().is_empty()) {
            return bad(format!("server `{name}` lists an empty tool name"));
        }
    }
    if c.tool_catalog.max_tools == Some(0) {
        return bad("toolCatalog.maxTools must be at least 1 (or null for no limit)".into());
    }
    let profile = &c.app_host;
    if profile.display_modes.is_empty() {
        return bad("appHost.displayModes needs at least one mode (e.g. inline)".into());
    }
    for (key, v) in [
        ("locale", &profile.locale),
        ("timeZone", &profile.time_zone),
    ] {
        if v.as_deref().is_some_and(|s| s.trim().is_empty()) {
            return bad(format!(
                "appHost.{key} is empty: give one or null for the viewer's own"
            ));
        }
    }
    Ok(())
}

/// The config with set-like lists sorted and deduplicated (what the canonical form holds).
pub fn normalized(c: &HostConfig) -> HostConfig {
    let mut c = c.clone();
    for tools in c.servers.values_mut() {
        if let Some(allow) = tools.allow.as_mut() {
            allow.sort();
            allow.dedup();
        }
        tools.deny.sort();
        tools.deny.dedup();
    }
    c.app_host.display_modes.sort();
    c.app_host.display_modes.dedup();
    let caps = &mut c.app_host.host_capabilities;
    for kinds in [&mut caps.message, &mut caps.update_model_context]
        .into_iter()
        .flatten()
    {
        kinds.sort();
        kinds.dedup();
    }
    c
}

/// The canonical JSON text (see the module doc).
pub fn canonical_json(c: &HostConfig) -> String {
    // Serializing these plain types cannot fail; `Null` would still hash deterministically.
    let value = serde_json::to_value(normalized(c)).unwrap_or(Value::Null);
    sorted(value).to_string()
}

/// SHA-256 of the canonical JSON, lowercase hex.
pub fn hash(c: &HostConfig) -> String {
    let digest = ring::digest::digest(&ring::digest::SHA256, canonical_json(c).as_bytes());
    digest.as_ref().iter().map(|b| format!("{b:02x}")).collect()
}

/// The config, its canonical JSON and hash (what the API and `--print-host-config` show).
pub fn view(c: &HostConfig) -> HostConfigView {
    let host_config = normalized(c);
    HostConfigView {
        canonical: canonical_json(&host_config),
        hash: hash(&host_config),
        host_config,
    }
}

/// Object keys sorted at every level (serde_json here keeps insertion order).
fn sorted(v: Value) -> Value {
    match v {
        Value::Object(map) => {
            let mut entries: Vec<(String, Value)> = map.into_iter().collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            Value::Object(entries.into_iter().map(|(k, v)| (k, sorted(v))).collect())
        }
        Value::Array(items) => Value::Array(items.into_iter().map(sorted).collect()),
        other => other,
    }
}

/// The HostConfig an older session's `ChatSettings` mean (every server offering all tools).
pub fn from_settings(s: &ChatSettings) -> HostConfig {
    let mut c = HostConfig {
        model: s.model.clone(),
        temperature: s.temperature,
        max_tokens: s.max_tokens,
        servers: s
            .servers
            .iter()
            .map(|n| (n.clone(), ServerTools::default()))
            .collect(),
        ..HostConfig::default()
    };
    if let Some(p) = s.system_prompt.as_ref().filter(|p| !p.is_empty()) {
        c.system_prompt.clone_from(p);
    }
    if let Some(n) = s.step_limit {
        c.step_limit = n;
    }
    if s.require_approval == Some(true) {
        c.approval.mode = ApprovalMode::Always;
    }
    c
}

/// `settings` applied onto `base`: the keys `ChatSettings` has replace the config's; a server
/// that stays keeps its tool filter.
pub fn apply_settings(base: &HostConfig, s: &ChatSettings) -> HostConfig {
    let fresh = from_settings(s);
    let mut c = base.clone();
    c.model = fresh.model;
    c.temperature = fresh.temperature;
    c.max_tokens = fresh.max_tokens;
    c.system_prompt = fresh.system_prompt;
    c.step_limit = fresh.step_limit;
    c.approval.mode = fresh.approval.mode;
    c.servers = fresh
        .servers
        .into_keys()
        .map(|n| {
            let tools = base.servers.get(&n).cloned().unwrap_or_default();
            (n, tools)
        })
        .collect();
    c
}

/// The config in the older form (for clients that read `settings`).
pub fn to_settings(c: &HostConfig) -> ChatSettings {
    ChatSettings {
        model: c.model.clone(),
        servers: c.servers.keys().cloned().collect(),
        system_prompt: Some(c.system_prompt.clone()),
        temperature: c.temperature,
        max_tokens: c.max_tokens,
        step_limit: Some(c.step_limit),
        require_approval: Some(c.approval.mode == ApprovalMode::Always),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcplab_protocol::host::{CspMode, DeviceKind, DisplayMode, ElicitationMode, ThemeChoice};

    const COMPACT: &str = r#"{"model":"openai::gpt-4o-mini","servers":{"demo":{"deny":["echo","add","echo"]},"b":{}},"appHost":{"displayModes":["pip","inline"]}}"#;

    const SPREAD: &str = r#"
    {
        "appHost": {"displayModes": ["inline", "pip", "inline"], "theme": "system"},
        "servers": {"b": {"allow": null}, "demo": {"deny": ["add", "echo"], "allow": null}},
        "model": "openai::gpt-4o-mini",
        "version": 1,
        "stepLimit": 10
    }"#;

    const YAML: &str = "
# the same host, in YAML
model: openai::gpt-4o-mini
servers:
  demo:
    deny: [echo, add]
  b: {}
appHost:
  displayModes:
    - inline
    - pip
";

    #[test]
    fn the_same_config_written_differently_has_one_canonical_form() {
        let forms = [COMPACT, SPREAD, YAML].map(|t| parse(t).unwrap());
        let canon = forms.clone().map(|c| canonical_json(&c));
        assert_eq!(canon[0], canon[1]);
        assert_eq!(canon[0], canon[2]);
        assert_eq!(hash(&forms[0]), hash(&forms[2]));
        // Defaults are explicit and keys sorted at every level.
        let v: Value = serde_json::from_str(&canon[0]).unwrap();
        assert_eq!(v["stepLimit"], 10);
        assert_eq!(v["temperature"], Value::Null);
        assert_eq!(
            v["servers"]["demo"]["deny"],
            serde_json::json!(["add", "echo"])
        );
        assert!(canon[0].starts_with(r#"{"appHost":{"csp"#), "{}", canon[0]);
        assert!(
            !canon[0].contains(' ') || canon[0].contains("You are"),
            "no whitespace"
        );
        // The canonical text parses back to the same form.
        assert_eq!(canonical_json(&parse(&canon[0]).unwrap()), canon[0]);
    }

    #[test]
    fn every_field_change_changes_the_hash() {
        let base = parse(COMPACT).unwrap();
        type Change = fn(&mut HostConfig);
        let changes: [(&str, Change); 16] = [
            ("model", |c| c.model = "openai::gpt-4.1".into()),
            ("systemPrompt", |c| c.system_prompt.push('!')),
            ("temperature", |c| c.temperature = Some(0.2)),
            ("maxTokens", |c| c.max_tokens = Some(100)),
            ("stepLimit", |c| c.step_limit = 3),
            ("server added", |c| {
                c.servers.insert("z".into(), ServerTools::default());
            }),
            ("allow", |c| {
                c.servers.get_mut("b").unwrap().allow = Some(vec!["x".into()]);
            }),
            ("allow empty", |c| {
                c.servers.get_mut("b").unwrap().allow = Some(vec![]);
            }),
            ("deny", |c| c.servers.get_mut("demo").unwrap().deny.clear()),
            ("approval", |c| c.approval.mode = ApprovalMode::Always),
            ("approval timeout", |c| c.approval.timeout_secs = 5),
            ("elicitation", |c| {
                c.elicitation.mode = ElicitationMode::Decline
            }),
            ("device", |c| c.app_host.device = DeviceKind::Mobile),
            ("theme", |c| c.app_host.theme = ThemeChoice::Dark),
            ("locale", |c| c.app_host.locale = Some("de-DE".into())),
            ("displayModes", |c| {
                c.app_host.display_modes = vec![DisplayMode::Inline]
            }),
        ];
        let more: [(&str, Change); 10] = [
            ("client.protocol", |c| {
                c.client.protocol = mcplab_protocol::ProtocolChoice::V2025_06_18
            }),
            ("client.sampling", |c| c.client.sampling = false),
            ("client.roots", |c| c.client.roots = false),
            ("client.mcpApps", |c| c.client.mcp_apps = false),
            ("toolCatalog.maxTools", |c| {
                c.tool_catalog.max_tools = Some(40)
            }),
            ("toolCatalog.naming", |c| {
                c.tool_catalog.naming = mcplab_protocol::host::ToolNaming::Bare
            }),
            ("toolResults.structuredContent", |c| {
                c.tool_results.structured_content =
                    mcplab_protocol::host::StructuredContentMode::Never
            }),
            ("timeZone", |c| {
                c.app_host.time_zone = Some("Asia/Tokyo".into())
            }),
            ("cspMode", |c| c.app_host.csp_mode = CspMode::Permissive),
            ("windowOpenai", |c| c.app_host.window_openai = true),
        ];
        let mut seen = std::collections::HashSet::from([hash(&base)]);
        for (what, change) in changes.iter().chain(more.iter()) {
            let mut c = base.clone();
            change(&mut c);
            assert!(
                seen.insert(hash(&c)),
                "changing {what} must change the hash"
            );
        }
    }

    /// `appHost.hostCapabilities` (issue 18): absent and written at its default are one form
    /// with the old hash; once changed it is written whole (every key, content kinds sorted),
    /// and each of its keys changes the hash.
    #[test]
    fn host_capabilities_have_one_canonical_form_and_a_stable_hash() {
        use mcplab_protocol::host::{ContentModality, ServerProxy};
        let explicit = parse(
            r#"{"appHost": {"hostCapabilities": {"openLinks": true, "downloadFile": true,
               "serverTools": "listChanged", "serverResources": "listChanged", "logging": true,
               "message": ["text"], "updateModelContext": ["structuredContent", "text", "text"]}}}"#,
        )
        .unwrap();
        assert_eq!(
            canonical_json(&explicit),
            canonical_json(&HostConfig::default())
        );
        assert_eq!(
            hash(&explicit),
            "10736823bb802470dd03cd17e4ab2f88014e07745b16d8d1d1dbc5ef4ae50cbf"
        );
        let narrow = parse(
            "appHost:\n  hostCapabilities:\n    openLinks: false\n    message: null\n    \
             updateModelContext: [text, image, text]\n",
        )
        .unwrap();
        let canon = canonical_json(&narrow);
        assert!(
            canon.contains(
                r#""hostCapabilities":{"downloadFile":true,"logging":true,"message":null,"openLinks":false,"serverResources":"listChanged","serverTools":"listChanged","updateModelContext":["text","image"]}"#
            ),
            "{canon}"
        );
        assert_eq!(canonical_json(&parse(&canon).unwrap()), canon);
        assert_eq!(
            hash(&narrow),
            "bdb6e99c3c1170a56b35c63f14967d0775fb00db110239bde9f2fd32a78d738a"
        );
        type Change = fn(&mut mcplab_protocol::host::AppHostCapabilities);
        let changes: [Change; 8] = [
            |c| c.open_links = false,
            |c| c.download_file = false,
            |c| c.server_tools = ServerProxy::On,
            |c| c.server_resources = ServerProxy::Off,
            |c| c.logging = false,
            |c| c.message = None,
            |c| c.message = Some(vec![]),
            |c| c.update_model_context = Some(vec![ContentModality::Image]),
        ];
        let mut seen = std::collections::HashSet::from([hash(&HostConfig::default())]);
        for (i, change) in changes.iter().enumerate() {
            let mut c = HostConfig::default();
            change(&mut c.app_host.host_capabilities);
            assert!(seen.insert(hash(&c)), "change {i} must change the hash");
        }
        let e = parse("appHost: {hostCapabilities: {openLink: true}}").unwrap_err();
        assert!(e.to_string().contains("openLink"), "{e}");
    }

    /// Pinned: a change to the canonical form (a key renamed, a default changed, the sort
    /// order) changes every stored hash. If this fails on purpose, say so in the changelog.
    /// The default's hash was checked with `printf '%s' '<canonical>' | sha256sum`.
    #[test]
    fn golden_hashes() {
        assert_eq!(
            canonical_json(&HostConfig::default()),
            r#"{"appHost":{"cspMode":"declared","device":"desktop","displayModes":["inline","fullscreen","pip"],"locale":null,"theme":"system","timeZone":null,"windowOpenai":false},"approval":{"mode":"never","timeoutSecs":300},"elicitation":{"mode":"ask"},"maxTokens":null,"model":"","servers":{},"stepLimit":10,"systemPrompt":"You are a helpful assistant with access to MCP tools.","temperature":null,"version":1}"#
        );
        assert_eq!(
            hash(&HostConfig::default()),
            "10736823bb802470dd03cd17e4ab2f88014e07745b16d8d1d1dbc5ef4ae50cbf"
        );
        assert_eq!(
            hash(&parse(COMPACT).unwrap()),
            "67349f364f5c229c229f2ee453ffbc99fec5475f8d83e22ba258f257f37264ca"
        );
    }

    #[test]
    fn bad_configs_say_what_to_fix() {
        let cases = [
            ("{\"stepLimt\": 3}", "stepLimt"),
            ("stepLimt: 3", "stepLimt"),
            ("model: gpt-4o", "provider::model"),
            ("version: 7", "upgrade mcplab"),
            ("temperature: 3", "outside 0 to 2"),
            ("stepLimit: 0", "stepLimit 0"),
            ("appHost: {displayModes: []}", "at least one mode"),
            ("servers: {demo: {deny: ['']}}", "empty tool name"),
            ("{\"model\": ", "not valid JSON"),
            ("model: [unclosed", "not valid YAML"),
            ("model: a\nmodel: b", "duplicate key `model`"),
            ("systemPrompt: &p hi\nmodel: *p", "anchors and aliases"),
            ("stepLimit: !!int 3", "tags"),
            ("a: 1\n---\nb: 2", "2 YAML documents"),
            ("servers:\n  demo:\n    deny: [x]\n    alow: [y]", "line 4"),
        ];
        for (text, needle) in cases {
            let e = parse(text).unwrap_err().to_string();
            assert!(e.contains(needle), "{text:?} → {e}");
        }
        let huge = format!("systemPrompt: \"{}\"", "x".repeat(MAX_HOST_CONFIG_BYTES));
        assert!(matches!(
            parse(&huge),
            Err(HostConfigError::TooLarge { .. })
        ));
        assert_eq!(parse("").unwrap(), HostConfig::default());
        assert_eq!(parse("# nothing yet\n").unwrap(), HostConfig::default());
    }

    #[test]
    fn older_settings_become_a_host_config_and_back() {
        let s = ChatSettings {
            model: "openai::gpt-4o-mini".into(),
            servers: vec!["demo".into(), "fs".into()],
            system_prompt: None,
            temperature: Some(0.5),
            max_tokens: None,
            step_limit: Some(4),
            require_approval: Some(true),
        };
        let c = from_settings(&s);
        assert_eq!(
            c.system_prompt,
            mcplab_protocol::host::DEFAULT_SYSTEM_PROMPT
        );
        assert_eq!((c.step_limit, c.approval.mode), (4, ApprovalMode::Always));
        assert_eq!(c.servers.keys().collect::<Vec<_>>(), ["demo", "fs"]);
        let back = to_settings(&c);
        assert_eq!(back.servers, s.servers);
        assert_eq!(back.step_limit, Some(4));
        // Applying settings keeps the filters of servers that stay.
        let mut filtered = c.clone();
        filtered.servers.get_mut("demo").unwrap().deny = vec!["echo".into()];
        let changed = apply_settings(
            &filtered,
            &ChatSettings {
                servers: vec!["demo".into()],
                ..s
            },
        );
        assert_eq!(changed.servers["demo"].deny, ["echo"]);
        assert!(!changed.servers.contains_key("fs"));
    }
}
