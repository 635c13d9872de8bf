//! The environment a stdio server starts with: a small allow-list of this process's variables
//! (what the official MCP SDKs' `getDefaultEnvironment` passes, plus locale, time zone and the
//! XDG directories), then the server's configured `env`. A config may opt into inheriting
//! everything (`inheritEnv`), but mcplab's own variables (`MCPLAB_*`) and API keys (`*_API_KEY`)
//! are never passed on unless the config names them. It decides names only; it spawns nothing.

use std::collections::BTreeMap;
use std::ffi::OsString;

/// Variables a server gets from this process by default (any `LC_*` too).
pub const ALLOWED: [&str; 16] = [
    "HOME",
    "LOGNAME",
    "PATH",
    "SHELL",
    "TERM",
    "USER",
    "LANG",
    "LANGUAGE",
    "TMPDIR",
    "TZ",
    "XDG_RUNTIME_DIR",
    "XDG_CONFIG_HOME",
    "XDG_DATA_HOME",
    "XDG_CACHE_HOME",
    "XDG_STATE_HOME",
    "COLORTERM",
];

fn allowed(name: &str) -> bool {
    ALLOWED.contains(&name) || name.starts_with("LC_")
}

/// Names that are never inherited, even with `inheritEnv`: mcplab's own settings (its bearer
/// token among them) and API keys (the LLM providers' and anyone else's).
fn secret(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    upper.starts_with("MCPLAB_") || upper.ends_with("_API_KEY")
}

/// The environment for a server: from `parent` the allowed variables (all but secrets when
/// `inherit_all`), then `configured` on top.
pub fn child_environment(
    parent: impl IntoIterator<Item = (OsString, OsString)>,
    inherit_all: bool,
    configured: &BTreeMap<String, String>,
) -> Vec<(OsString, OsString)> {
    let mut env: BTreeMap<OsString, OsString> = parent
        .into_iter()
        .filter(|(name, value)| {
            let Some(name) = name.to_str() else {
                return inherit_all;
            };
            if secret(name) {
                return false;
            }
            // Like the SDKs: a value starting with `()` is an exported shell function.
            inherit_all || (allowed(name) && !value.as_encoded_bytes().starts_with(b"()"))
        })
        .collect();
    for (name, value) in configured {
        env.insert(OsString::from(name), OsString::from(value));
    }
    env.into_iter().collect()
}

/// True when `name` is set in `env`.
#[cfg(test)]
fn has(env: &[(OsString, OsString)], name: &str) -> bool {
    env.iter().any(|(k, _)| k == std::ffi::OsStr::new(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parent() -> Vec<(OsString, OsString)> {
        [
            ("PATH", "/usr/bin"),
            ("HOME", "/home/u"),
            ("LC_ALL", "C.UTF-8"),
            ("OPENAI_API_KEY", "sk-secret"),
            ("anthropic_api_key", "sk-lower"),
            ("MCPLAB_BEARER", "tok"),
            ("AWS_SECRET_ACCESS_KEY", "aws"),
            ("BASH_FUNC_x%%", "() { :; }"),
            ("SHELL", "() { evil; }"),
        ]
        .into_iter()
        .map(|(k, v)| (k.into(), v.into()))
        .collect()
    }

    fn names(env: &[(OsString, OsString)]) -> Vec<String> {
        env.iter()
            .map(|(k, _)| k.to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn only_the_allow_list_and_the_config() {
        let mut configured = BTreeMap::new();
        configured.insert("OPENAI_API_KEY".to_string(), "given".to_string());
        configured.insert("DEBUG".to_string(), "1".to_string());
        let env = child_environment(parent(), false, &configured);
        assert_eq!(
            names(&env),
            ["DEBUG", "HOME", "LC_ALL", "OPENAI_API_KEY", "PATH"]
        );
        let key = env.iter().find(|(k, _)| k == "OPENAI_API_KEY").unwrap();
        assert_eq!(key.1, "given", "a configured key is passed on");
    }

    #[test]
    fn inherit_all_still_withholds_secrets() {
        let env = child_environment(parent(), true, &BTreeMap::new());
        let names = names(&env);
        assert!(names.contains(&"AWS_SECRET_ACCESS_KEY".to_string()));
        assert!(names.contains(&"SHELL".to_string()));
        for secret in ["OPENAI_API_KEY", "anthropic_api_key", "MCPLAB_BEARER"] {
            assert!(!has(&env, secret), "{secret} leaked");
        }
    }
}
