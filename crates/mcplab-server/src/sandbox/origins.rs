//! Which origin each app runs on, and so which `Host` names the sandbox listener answers to.
//! On loopback (the default) every rendered app gets `http://<label>.localhost:<port>`, with a
//! fresh random label chosen by the UI: Chromium and Firefox resolve `*.localhost` to loopback
//! without DNS, every label is an origin of its own, and `localhost` is a different *site* from
//! the UI's `127.0.0.1`, so app requests never count as same-site with the UI. When mcplab
//! listens on a non-loopback `--host`, a remote browser's `*.localhost` is its own machine, so
//! apps share one origin `http://<host>:<port>` (same site as the UI; isolation between apps
//! then rests on the per-frame nonce only, and `serve` says so). This module must not
//! relax the label syntax: the Host check is what keeps the sandbox from answering any other
//! name.

use mcplab_apps::OwnOrigins;

/// Shortest and longest app label (lower-case ASCII letters and digits only).
pub(super) const LABEL_LEN: std::ops::RangeInclusive<usize> = 16..=32;

/// Whether `label` is a valid app label: 16–32 of `[a-z0-9]`.
pub fn valid_label(label: &str) -> bool {
    LABEL_LEN.contains(&label.len())
        && label
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
}

/// Who may embed the sandbox pages, under which Host names the sandbox answers, and which
/// origins apps may not name.
#[derive(Debug, Clone)]
pub struct SandboxConfig {
    /// Origins of the mcplab host page (`http://127.0.0.1:6274`): the only `frame-ancestors`.
    pub host_origins: Vec<String>,
    /// The port the sandbox listens on.
    pub port: u16,
    /// `None`: one origin per app, `<label>.localhost:<port>`. `Some(host)`: every app shares
    /// `http://<host>:<port>` (mcplab bound to a non-loopback `--host`).
    pub shared_host: Option<String>,
    /// mcplab's own origins, which apps may not declare or frame.
    pub own: OwnOrigins,
}

impl SandboxConfig {
    /// The UI on `http://127.0.0.1:<host_port>`, apps on `http://<label>.localhost:<sandbox_port>`.
    pub fn loopback(host_port: u16, sandbox_port: u16) -> Self {
        Self {
            host_origins: vec![format!("http://127.0.0.1:{host_port}")],
            port: sandbox_port,
            shared_host: None,
            own: OwnOrigins::loopback(&[host_port, sandbox_port], None),
        }
    }

    /// The UI on `http://<host>:<host_port>` (a non-loopback address; loopback still works),
    /// every app on the one origin `http://<host>:<sandbox_port>`.
    pub fn shared(host_port: u16, sandbox_port: u16, host: &str) -> Self {
        let host = host.to_ascii_lowercase();
        Self {
            host_origins: vec![
                format!("http://127.0.0.1:{host_port}"),
                format!("http://{host}:{host_port}"),
            ],
            port: sandbox_port,
            own: OwnOrigins::loopback(&[host_port, sandbox_port], Some(&host)),
            shared_host: Some(host),
        }
    }

    /// Whether a request's `Host` header (lower case) names an app origin of this sandbox.
    pub fn accepts_host(&self, host: &str) -> bool {
        let Some(name) = host.strip_suffix(&format!(":{}", self.port)) else {
            return false;
        };
        match &self.shared_host {
            Some(shared) => name == shared,
            None => name.strip_suffix(".localhost").is_some_and(valid_label),
        }
    }

    /// What the UI and the host page need to know about the app origins.
    pub fn origins(&self) -> SandboxOrigins {
        let (template, frame_src) = match &self.shared_host {
            Some(host) => {
                let origin = format!("http://{host}:{}", self.port);
                (origin.clone(), origin)
            }
            None => (
                format!("http://{{label}}.localhost:{}", self.port),
                format!("http://*.localhost:{}", self.port),
            ),
        };
        SandboxOrigins {
            template,
            frame_src,
            own: self.own.clone(),
        }
    }
}

/// The app origins as the rest of the server sees them (kept in `AppState`).
#[derive(Debug, Clone)]
pub struct SandboxOrigins {
    /// `http://{label}.localhost:<port>`: the UI puts a fresh label in for every app. Without
    /// `{label}` (shared mode) it is the one origin every app uses.
    pub template: String,
    /// The host page's `frame-src` source for app proxies: `http://*.localhost:<port>`, or the
    /// shared origin.
    pub frame_src: String,
    /// mcplab's own origins, which apps may not declare.
    pub own: OwnOrigins,
}

impl SandboxOrigins {
    /// Whether each app gets an origin of its own (false in shared mode).
    pub fn per_app(&self) -> bool {
        self.template.contains("{label}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_strict() {
        assert!(valid_label("abcdefghij012345"));
        assert!(valid_label(&"a".repeat(32)));
        for bad in [
            "short",
            &"a".repeat(33),
            "ABCDEFGHIJ012345",
            "abcdefghij-12345",
            "abcdefghij.12345",
            "abcdefghij01234\u{e9}",
            "",
        ] {
            assert!(!valid_label(bad), "{bad}");
        }
    }

    #[test]
    fn per_app_hosts_and_origins() {
        let cfg = SandboxConfig::loopback(6274, 6275);
        assert!(cfg.accepts_host("abcdefghij012345.localhost:6275"));
        for bad in [
            "abcdefghij012345.localhost:6274",
            "abcdefghij012345.localhost",
            "localhost:6275",
            "127.0.0.1:6275",
            "a.abcdefghij012345.localhost:6275",
            "abcdefghij012345.localhost.:6275",
            "evil.example:6275",
        ] {
            assert!(!cfg.accepts_host(bad), "{bad}");
        }
        let o = cfg.origins();
        assert_eq!(o.template, "http://{label}.localhost:6275");
        assert_eq!(o.frame_src, "http://*.localhost:6275");
        assert!(o.per_app());
        assert_eq!(cfg.host_origins, ["http://127.0.0.1:6274"]);
    }

    #[test]
    fn a_non_loopback_host_shares_one_origin() {
        let cfg = SandboxConfig::shared(6274, 6275, "192.168.1.5");
        assert!(cfg.accepts_host("192.168.1.5:6275"));
        assert!(!cfg.accepts_host("abcdefghij012345.localhost:6275"));
        let o = cfg.origins();
        assert_eq!(o.template, "http://192.168.1.5:6275");
        assert!(!o.per_app());
        assert!(o.own.refusal("http://192.168.1.5:6274").is_some());
    }
}
