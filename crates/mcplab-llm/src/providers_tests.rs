use std::collections::HashMap;

use super::*;

fn env(pairs: &[(&str, &str)]) -> HashMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn http() -> reqwest::Client {
    mcplab_net::tls::client_builder()
        .no_proxy()
        .build()
        .unwrap()
}

#[test]
fn every_builtin_provider_is_listed_even_without_env() {
    let settings = ProviderSettings::from_vars(&HashMap::new());
    let ids: Vec<&str> = settings.providers().iter().map(|p| p.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "openai",
            "anthropic",
            "gemini",
            "deepseek",
            "xai",
            "mistral",
            "openrouter",
            "ollama"
        ]
    );
    assert!(settings.providers().iter().all(|p| p.api_key.is_none()));
}

#[test]
fn keys_and_base_urls_come_from_env() {
    let settings = ProviderSettings::from_vars(&env(&[
        ("OPENAI_API_KEY", "sk-openai"),
        ("OPENAI_BASE_URL", "http://127.0.0.1:9/v1/"),
        ("ANTHROPIC_API_KEY", "  sk-ant  "),
        ("GOOGLE_API_KEY", "g-key"),
        ("DEEPSEEK_API_KEY", ""),
        ("XAI_API_KEY", "xai"),
        ("MISTRAL_API_KEY", "mis"),
        ("OPENROUTER_API_KEY", "or"),
        ("OPENROUTER_BASE_URL", "https://gateway.example/api/v1"),
        ("OLLAMA_HOST", "0.0.0.0:11500"),
    ]));
    let get = |id| settings.get(id).unwrap();
    assert_eq!(get("openai").api_key.as_deref(), Some("sk-openai"));
    assert_eq!(
        get("openai").effective_base_url().as_deref(),
        Some("http://127.0.0.1:9/v1")
    );
    assert_eq!(get("anthropic").api_key.as_deref(), Some("sk-ant"));
    assert_eq!(get("gemini").api_key.as_deref(), Some("g-key"));
    // An empty variable is unset.
    assert_eq!(get("deepseek").api_key, None);
    assert_eq!(get("xai").api_key.as_deref(), Some("xai"));
    assert_eq!(get("mistral").api_key.as_deref(), Some("mis"));
    assert_eq!(
        get("openrouter").effective_base_url().as_deref(),
        Some("https://gateway.example/api/v1")
    );
    assert_eq!(
        get("ollama").effective_base_url().as_deref(),
        Some("http://127.0.0.1:11500")
    );
    assert_eq!(
        get("anthropic").effective_base_url().as_deref(),
        Some("https://api.anthropic.com")
    );
}

#[test]
fn gemini_key_prefers_gemini_api_key() {
    let settings =
        ProviderSettings::from_vars(&env(&[("GEMINI_API_KEY", "a"), ("GOOGLE_API_KEY", "b")]));
    assert_eq!(
        settings.get("gemini").unwrap().api_key.as_deref(),
        Some("a")
    );
}

#[test]
fn ollama_host_parses_like_the_ollama_cli() {
    assert_eq!(parse_ollama_host(""), "http://127.0.0.1:11434");
    assert_eq!(parse_ollama_host("localhost"), "http://localhost:11434");
    assert_eq!(parse_ollama_host("box:1234"), "http://box:1234");
    assert_eq!(parse_ollama_host("0.0.0.0"), "http://127.0.0.1:11434");
    assert_eq!(parse_ollama_host("http://box"), "http://box:80");
    assert_eq!(parse_ollama_host("https://box/"), "https://box:443");
    assert_eq!(
        parse_ollama_host("http://box:8080/ollama/"),
        "http://box:8080/ollama"
    );
    assert_eq!(parse_ollama_host("[::1]:9999"), "http://[::1]:9999");
    assert_eq!(parse_ollama_host("[::]"), "http://[::1]:11434");
}

#[test]
fn stored_configs_override_and_extend_env() {
    let mut settings = ProviderSettings::from_vars(&env(&[
        ("OPENAI_API_KEY", "from-env"),
        ("ANTHROPIC_API_KEY", "ant-env"),
    ]));
    let rejected = settings.merge_stored([
        ProviderConfig {
            id: "openai".into(),
            kind: ProviderKind::OpenAi,
            base_url: Some("https://proxy.example/v1".into()),
            api_key: Some("from-store".into()),
            models: vec!["gpt-x".into()],
        },
        // No key stored: the env key stays.
        ProviderConfig {
            id: "anthropic".into(),
            kind: ProviderKind::Anthropic,
            base_url: None,
            api_key: None,
            models: vec![],
        },
        ProviderConfig {
            id: "lmstudio".into(),
            kind: ProviderKind::OpenAiCompatible,
            base_url: Some("http://127.0.0.1:1234/v1".into()),
            api_key: None,
            models: vec!["qwen3".into()],
        },
        // Invalid: a compatible kind needs a base URL.
        ProviderConfig {
            id: "broken".into(),
            kind: ProviderKind::AnthropicCompatible,
            base_url: None,
            api_key: None,
            models: vec![],
        },
        // Invalid: a built-in id with another kind.
        ProviderConfig {
            id: "openai".into(),
            kind: ProviderKind::OpenAiCompatible,
            base_url: Some("http://x".into()),
            api_key: None,
            models: vec![],
        },
    ]);
    let openai = settings.get("openai").unwrap();
    assert_eq!(openai.api_key.as_deref(), Some("from-store"));
    assert_eq!(openai.base_url.as_deref(), Some("https://proxy.example/v1"));
    assert_eq!(openai.models, ["gpt-x"]);
    assert_eq!(
        settings.get("anthropic").unwrap().api_key.as_deref(),
        Some("ant-env")
    );
    assert_eq!(
        settings.get("lmstudio").unwrap().kind,
        ProviderKind::OpenAiCompatible
    );
    let rejected: Vec<&str> = rejected.iter().map(|(c, _)| c.id.as_str()).collect();
    assert_eq!(rejected, ["broken", "openai"]);
    assert!(settings.get("broken").is_none());
}

#[test]
fn provider_configs_round_trip_through_json_and_never_debug_print_keys() {
    let config = ProviderConfig {
        id: "corp".into(),
        kind: ProviderKind::AnthropicCompatible,
        base_url: Some("https://llm.corp.example".into()),
        api_key: Some("sk-secret-key-123456".into()),
        models: vec!["claude-x".into()],
    };
    let text = serde_json::to_string(&config).unwrap();
    assert!(text.contains(r#""kind":"anthropic_compatible""#), "{text}");
    assert!(text.contains(r#""baseUrl""#), "{text}");
    let back: ProviderConfig = serde_json::from_str(&text).unwrap();
    assert_eq!(back, config);
    let debug = format!("{config:?}");
    assert!(!debug.contains("sk-secret"), "{debug}");
    assert!(debug.contains("…3456"), "{debug}");
    assert_eq!(config.key_hint().as_deref(), Some("…3456"));
}

#[tokio::test]
async fn availability_explains_missing_keys() {
    let settings = ProviderSettings::from_vars(&env(&[
        ("OPENAI_API_KEY", "sk-test-0123456789"),
        // Ollama: a port nothing listens on.
        ("OLLAMA_HOST", "127.0.0.1:9"),
    ]));
    let all = settings.availability(&http()).await;
    let get = |id: &str| all.iter().find(|a| a.id == id).unwrap();

    let openai = get("openai");
    assert!(openai.usable);
    assert_eq!(openai.reason, None);
    assert_eq!(openai.key_hint.as_deref(), Some("…6789"));
    assert!(!openai.models.is_empty());

    let anthropic = get("anthropic");
    assert!(!anthropic.usable);
    assert_eq!(
        anthropic.reason.as_deref(),
        Some("set ANTHROPIC_API_KEY or add a key in Settings")
    );
    assert_eq!(
        get("gemini").reason.as_deref(),
        Some("set GEMINI_API_KEY (or GOOGLE_API_KEY) or add a key in Settings")
    );
    assert_eq!(
        get("openrouter").reason.as_deref(),
        Some("set OPENROUTER_API_KEY or add a key in Settings")
    );

    let ollama = get("ollama");
    assert!(!ollama.usable);
    assert_eq!(
        ollama.reason.as_deref(),
        Some("Ollama is not running at http://127.0.0.1:9")
    );
}

#[tokio::test]
async fn availability_lists_installed_ollama_models() {
    use axum::{Json, Router, routing::get};
    let app = Router::new().route(
        "/api/tags",
        get(|| async {
            Json(serde_json::json!({"models": [
                {"name": "llama3.2:3b", "size": 1},
                {"name": "qwen3:8b", "size": 2}
            ]}))
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server = tokio::spawn(async move { axum::serve(listener, app).await });

    let settings = ProviderSettings::from_vars(&env(&[("OLLAMA_HOST", &addr.to_string())]));
    let all = settings.availability(&http()).await;
    let ollama = all.iter().find(|a| a.id == "ollama").unwrap();
    assert!(ollama.usable, "{ollama:?}");
    assert_eq!(ollama.models, ["llama3.2:3b", "qwen3:8b"]);
    server.abort();
}

#[test]
fn building_a_provider_needs_its_key() {
    let settings = ProviderSettings::from_vars(&HashMap::new());
    let err = settings.provider("anthropic", &http()).err().unwrap();
    assert_eq!(
        err,
        LlmError::NotConfigured {
            message: "set ANTHROPIC_API_KEY or add a key in Settings".into()
        }
    );
    assert!(matches!(
        settings.provider("nope", &http()),
        Err(LlmError::NotConfigured { .. })
    ));
    // Ollama needs no key.
    let ollama = settings.provider("ollama", &http()).unwrap();
    assert_eq!(ollama.id(), "ollama");
}

#[tokio::test]
async fn an_environment_key_goes_only_to_the_host_it_was_configured_for() {
    // Security review N3: a base URL changed in Settings took the key from the environment
    // along to the new host.
    let mut settings = ProviderSettings::from_vars(&env(&[
        ("OPENAI_API_KEY", "sk-env-openai-0123456789"),
        ("ANTHROPIC_API_KEY", "sk-env-ant-0123456789"),
        ("OPENROUTER_API_KEY", "sk-env-or-0123456789"),
        ("OPENROUTER_BASE_URL", "https://gateway.example/api/v1"),
        ("MISTRAL_API_KEY", "sk-env-mistral-0123456789"),
    ]));
    let moved = |id: &str, kind, url: &str| ProviderConfig {
        id: id.into(),
        kind,
        base_url: Some(url.into()),
        api_key: None,
        models: vec![],
    };
    let rejected = settings.merge_stored([
        moved("openai", ProviderKind::OpenAi, "http://127.0.0.1:7494/v1"),
        // The official host, written differently: the key goes there.
        moved(
            "anthropic",
            ProviderKind::Anthropic,
            "https://API.anthropic.com:443/",
        ),
        // The host the environment configured: the key goes there too.
        moved(
            "openrouter",
            ProviderKind::OpenRouter,
            "https://gateway.example/other/v1",
        ),
        // A key stored with the new URL is that URL's key.
        ProviderConfig {
            api_key: Some("sk-stored-mistral-0123".into()),
            ..moved("mistral", ProviderKind::Mistral, "http://127.0.0.1:7494/v1")
        },
    ]);
    assert!(rejected.is_empty());
    let key = |id: &str| settings.get(id).unwrap().api_key.clone();
    assert_eq!(key("openai"), None, "the env key stays home");
    assert_eq!(key("anthropic").as_deref(), Some("sk-env-ant-0123456789"));
    assert_eq!(key("openrouter").as_deref(), Some("sk-env-or-0123456789"));
    assert_eq!(key("mistral").as_deref(), Some("sk-stored-mistral-0123"));

    let Err(err) = settings.provider("openai", &http()) else {
        panic!("openai is usable with the env key at another host")
    };
    let err = err.to_string();
    for says in [
        "OPENAI_API_KEY",
        "api.openai.com",
        "127.0.0.1:7494",
        "Settings",
    ] {
        assert!(err.contains(says), "{says} in: {err}");
    }
    let all = settings.availability(&http()).await;
    let openai = all.iter().find(|a| a.id == "openai").unwrap();
    assert!(!openai.usable);
    assert_eq!(openai.key_hint, None);
    assert_eq!(openai.reason.as_deref(), Some(err.as_str()));
}
