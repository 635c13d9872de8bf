//! mcplab's own origins, as far as an app's declared CSP domains are concerned: the UI, the app
//! sandbox (every `<label>.localhost` origin on the sandbox port) and any `*.localhost`
//! wildcard, which would cover every other app's origin. A declared entry that names one of
//! them is refused, so no app can load from, connect to or frame mcplab itself or another app
//! (security review findings 1 and 7). Pure string logic over what `check_origin` in `csp.rs`
//! already accepted; it does no DNS and must not widen what is allowed.

/// The host names and ports mcplab answers on. Empty (the default) reserves only `*.localhost`
/// wildcards, which is what a caller that does not know its ports gets.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OwnOrigins {
    /// Host names the UI or the sandbox answer on, lower case (`127.0.0.1`, `localhost`, the
    /// `--host` address…). `<anything>.localhost` is always treated as a sandbox name.
    pub hosts: Vec<String>,
    /// mcplab's ports: the UI's and the sandbox's.
    pub ports: Vec<u16>,
}

impl OwnOrigins {
    /// The loopback names a browser can reach mcplab by, plus `extra` (a `--host` address),
    /// on `ports`.
    pub fn loopback(ports: &[u16], extra: Option<&str>) -> Self {
        let mut hosts: Vec<String> = ["127.0.0.1", "localhost", "[::1]", "0.0.0.0"]
            .into_iter()
            .map(str::to_owned)
            .collect();
        if let Some(e) = extra.map(str::to_ascii_lowercase)
            && !hosts.contains(&e)
        {
            hosts.push(e);
        }
        Self {
            hosts,
            ports: ports.to_vec(),
        }
    }

    /// Why `origin` (`scheme://host[:port]`, as `check_origin` returns it) may not be declared,
    /// or `None` when it names none of mcplab's origins.
    pub fn refusal(&self, origin: &str) -> Option<String> {
        let (scheme, authority) = origin.split_once("://")?;
        let (host, port) = split_port(authority, scheme);
        // `localhost.` and `127.0.0.1.` reach the same listeners.
        let host = host.trim_end_matches('.').to_ascii_lowercase();
        let why = |what: &str| {
            format!(
                "`{origin}` names {what}: apps may not load from, connect to or frame mcplab \
                 itself or other apps"
            )
        };
        if host == "*.localhost" {
            return Some(why(
                "every `*.localhost` origin, which is where mcplab runs apps",
            ));
        }
        let ours = port.is_some_and(|p| self.ports.contains(&p));
        if !ours {
            return None;
        }
        // `<label>.localhost` on the sandbox port is some app's origin.
        let named =
            host.ends_with(".localhost") || self.hosts.iter().any(|h| host_matches(&host, h));
        named.then(|| why("mcplab's own UI or app sandbox"))
    }
}

/// Host and effective port of an authority (the scheme's default when none is given; `None`
/// for a port that is not a number).
fn split_port<'a>(authority: &'a str, scheme: &str) -> (&'a str, Option<u16>) {
    let default = match scheme {
        "https" | "wss" => 443,
        _ => 80,
    };
    let port_at = match authority.rfind(']') {
        Some(end) => authority[end..].find(':').map(|i| end + i),
        None => authority.rfind(':'),
    };
    match port_at {
        Some(i) => (&authority[..i], authority[i + 1..].parse().ok()),
        None => (authority, Some(default)),
    }
}

/// Whether a CSP host pattern (`name` or `*.suffix`) covers `name`.
fn host_matches(pattern: &str, name: &str) -> bool {
    match pattern.strip_prefix("*.") {
        Some(suffix) => name.ends_with(&format!(".{suffix}")),
        None => pattern == name,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn own() -> OwnOrigins {
        OwnOrigins::loopback(&[6274, 6275], Some("192.168.1.5"))
    }

    #[test]
    fn mcplab_origins_are_refused_with_a_reason() {
        for origin in [
            "http://127.0.0.1:6274",
            "http://localhost:6274",
            "ws://127.0.0.1:6274",
            "http://[::1]:6275",
            "http://abcdefghij0123456789.localhost:6275",
            "http://*.localhost:6275",
            "http://*.localhost:9999",
            "https://*.localhost",
            "http://*.0.0.1:6274",
            "http://192.168.1.5:6275",
            "http://LOCALHOST.:6274",
        ] {
            let why = own().refusal(origin);
            assert!(why.is_some(), "{origin} must be refused");
            assert!(why.unwrap().contains("may not"));
        }
    }

    #[test]
    fn other_loopback_ports_and_real_sites_stay_allowed() {
        for origin in [
            "http://localhost:5173",
            "http://127.0.0.1:7393",
            "http://dev.localhost:3000",
            "https://cdn.example.com",
            "https://*.example.com",
            "http://127.0.0.1",
        ] {
            assert_eq!(own().refusal(origin), None, "{origin}");
        }
    }

    #[test]
    fn default_ports_count() {
        let on_80 = OwnOrigins::loopback(&[80], None);
        assert!(on_80.refusal("http://127.0.0.1").is_some());
        assert!(on_80.refusal("https://127.0.0.1").is_none());
    }
}
