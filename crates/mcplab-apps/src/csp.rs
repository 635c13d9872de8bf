//! The sandbox's Content-Security-Policy and iframe `allow` attribute, from what the UI
//! resource declares (`_meta.ui.csp` camelCase, or an OpenAI widget's `openai/widgetCSP`
//! snake_case) following the MCP Apps spec template: nothing undeclared is ever allowed, and a
//! resource that declares nothing gets the restrictive default. Declared entries that could
//! break out of a directive (quotes, `;`, whitespace), are not origins, or name mcplab's own
//! origins ([`OwnOrigins`]) are dropped and reported, never passed through. Forms may not
//! submit anywhere (`form-action 'none'`): the spec has no way to declare a form target.

use serde_json::Value;

use super::own_origins::OwnOrigins;

/// The domains a resource declared, after sanitizing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CspDomains {
    pub connect: Vec<String>,
    pub resource: Vec<String>,
    pub frame: Vec<String>,
    pub base_uri: Vec<String>,
}

/// What the sandbox applies to one UI.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SandboxPolicy {
    /// The `Content-Security-Policy` value for the inner document.
    pub csp: String,
    /// The inner iframe's `allow` attribute (Permissions Policy), possibly empty.
    pub allow: String,
    /// `None` when the resource declared no CSP at all (restrictive default applied).
    pub declared: Option<CspDomains>,
    /// Declared entries that were refused, with why (shown to the user).
    pub rejected: Vec<String>,
}

/// Whether `entry` is an origin (with an optional `*.` wildcard label) safe to put in a CSP.
fn check_origin(entry: &str) -> Result<String, String> {
    let e = entry.trim();
    if e.is_empty() {
        return Err("empty entry".into());
    }
    if e.chars()
        .any(|c| c.is_whitespace() || matches!(c, ';' | '\'' | '"' | ','))
    {
        return Err(format!(
            "`{e}` contains a character that is not allowed in a CSP source"
        ));
    }
    let Some((scheme, rest)) = e.split_once("://") else {
        return Err(format!(
            "`{e}` is not an origin (expected e.g. https://api.example.com)"
        ));
    };
    if !matches!(scheme, "https" | "http" | "wss" | "ws") {
        return Err(format!("`{e}`: scheme `{scheme}` is not allowed"));
    }
    let host = rest.trim_end_matches('/');
    if host.is_empty() || host.contains('/') && !host.starts_with('[') {
        return Err(format!("`{e}` has a path; declare origins only"));
    }
    let bare = host.strip_prefix("*.").unwrap_or(host);
    if bare.is_empty() || bare.contains('*') {
        return Err(format!("`{e}`: only a leading `*.` wildcard is allowed"));
    }
    Ok(format!("{scheme}://{host}"))
}

fn list(v: Option<&Value>, own: &OwnOrigins, rejected: &mut Vec<String>) -> Vec<String> {
    let mut out = Vec::new();
    for item in v.and_then(Value::as_array).into_iter().flatten() {
        match item.as_str().map(check_origin) {
            Some(Ok(o)) => match own.refusal(&o) {
                Some(why) => rejected.push(format!("{why}; dropped")),
                None if !out.contains(&o) => out.push(o),
                None => {}
            },
            Some(Err(why)) => rejected.push(why),
            None => rejected.push(format!("`{item}` is not a string")),
        }
    }
    out
}

/// The declared domains of a resource's merged `_meta.ui` (see `resource_ui_meta`).
fn declared(ui_meta: &Value, own: &OwnOrigins, rejected: &mut Vec<String>) -> Option<CspDomains> {
    if let Some(csp) = ui_meta.get("csp").filter(|c| c.is_object()) {
        return Some(camel_case_domains(csp, own, rejected));
    }
    let widget = ui_meta.get("openaiWidgetCsp").filter(|c| c.is_object())?;
    Some(CspDomains {
        connect: list(widget.get("connect_domains"), own, rejected),
        resource: list(widget.get("resource_domains"), own, rejected),
        frame: list(widget.get("frame_domains"), own, rejected),
        base_uri: Vec::new(),
    })
}

/// The sanitized domains as the camelCase object of `_meta.ui.csp`
/// (`{connectDomains, resourceDomains, frameDomains, baseUriDomains}`), e.g. for a sandbox
/// page URL; [`csp_from_declared`] reads it back.
pub fn csp_domains_json(domains: &CspDomains) -> Value {
    serde_json::json!({
        "connectDomains": domains.connect,
        "resourceDomains": domains.resource,
        "frameDomains": domains.frame,
        "baseUriDomains": domains.base_uri,
    })
}

/// Reads a declared-CSP object (camelCase keys, as [`csp_domains_json`] writes it) back into
/// domains, sanitizing every entry again: whoever sent it (a browser building a sandbox URL)
/// is not trusted. `null` or a non-object means nothing was declared (`None`, the restrictive
/// default); refused entries (mcplab's `own` origins among them) are returned with why.
pub fn csp_from_declared(declared: &Value, own: &OwnOrigins) -> (Option<CspDomains>, Vec<String>) {
    let mut rejected = Vec::new();
    let domains = declared
        .is_object()
        .then(|| camel_case_domains(declared, own, &mut rejected));
    (domains, rejected)
}

fn camel_case_domains(csp: &Value, own: &OwnOrigins, rejected: &mut Vec<String>) -> CspDomains {
    CspDomains {
        connect: list(csp.get("connectDomains"), own, rejected),
        resource: list(csp.get("resourceDomains"), own, rejected),
        frame: list(csp.get("frameDomains"), own, rejected),
        base_uri: list(csp.get("baseUriDomains"), own, rejected),
    }
}

fn directive(name: &str, base: &[&str], extra: &[String]) -> String {
    let mut parts: Vec<&str> = base.to_vec();
    parts.extend(extra.iter().map(String::as_str));
    format!("{name} {}", parts.join(" "))
}

/// The CSP for declared domains (spec template), or the restrictive default for `None`. Both
/// get `form-action 'none'`: a frame can always navigate itself, but a form post to an
/// undeclared origin is one exfiltration path fewer.
pub fn build_csp(domains: Option<&CspDomains>) -> String {
    let Some(d) = domains else {
        return "default-src 'none'; script-src 'self' 'unsafe-inline'; \
                style-src 'self' 'unsafe-inline'; img-src 'self' data:; \
                media-src 'self' data:; connect-src 'none'; object-src 'none'; \
                form-action 'none'"
            .into();
    };
    let frame = if d.frame.is_empty() {
        "frame-src 'none'".to_owned()
    } else {
        directive("frame-src", &[], &d.frame)
    };
    let base = if d.base_uri.is_empty() {
        "base-uri 'self'".to_owned()
    } else {
        directive("base-uri", &[], &d.base_uri)
    };
    [
        "default-src 'none'".to_owned(),
        directive("script-src", &["'self'", "'unsafe-inline'"], &d.resource),
        directive("style-src", &["'self'", "'unsafe-inline'"], &d.resource),
        directive("connect-src", &["'self'"], &d.connect),
        directive("img-src", &["'self'", "data:"], &d.resource),
        directive("media-src", &["'self'", "data:"], &d.resource),
        directive("font-src", &["'self'"], &d.resource),
        frame,
        "object-src 'none'".to_owned(),
        base,
        "form-action 'none'".to_owned(),
    ]
    .join("; ")
}

/// CSP and `allow` for a UI resource's merged `_meta.ui`; entries naming mcplab's `own`
/// origins are refused.
pub fn sandbox_policy(ui_meta: &Value, own: &OwnOrigins) -> SandboxPolicy {
    let mut rejected = Vec::new();
    let declared = declared(ui_meta, own, &mut rejected);
    let csp = build_csp(declared.as_ref());
    let perms = ui_meta.get("permissions");
    let allow = [
        ("camera", "camera"),
        ("microphone", "microphone"),
        ("geolocation", "geolocation"),
        ("clipboardWrite", "clipboard-write"),
    ]
    .iter()
    .filter(|(key, _)| perms.and_then(|p| p.get(*key)).is_some())
    .map(|(_, feature)| *feature)
    .collect::<Vec<_>>()
    .join("; ");
    SandboxPolicy {
        csp,
        allow,
        declared,
        rejected,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn own() -> OwnOrigins {
        OwnOrigins::loopback(&[6274, 6275], None)
    }

    #[test]
    fn nothing_declared_gets_the_restrictive_default() {
        let p = sandbox_policy(&json!({}), &own());
        assert!(p.declared.is_none());
        assert!(p.csp.contains("connect-src 'none'"));
        assert!(p.csp.contains("object-src 'none'"));
        assert!(!p.csp.contains("https:"));
        assert_eq!(p.allow, "");
    }

    #[test]
    fn declared_domains_fill_the_template_and_nothing_more() {
        let meta = json!({"csp": {
            "connectDomains": ["https://api.example.com", "https://api.example.com"],
            "resourceDomains": ["https://*.cdn.example"],
            "frameDomains": ["https://player.example"],
        }, "permissions": {"clipboardWrite": {}, "camera": {}}});
        let p = sandbox_policy(&meta, &own());
        assert!(p.rejected.is_empty(), "{:?}", p.rejected);
        assert!(
            p.csp
                .contains("connect-src 'self' https://api.example.com;"),
            "{}",
            p.csp
        );
        assert!(
            p.csp
                .contains("script-src 'self' 'unsafe-inline' https://*.cdn.example;")
        );
        assert!(p.csp.contains("frame-src https://player.example;"));
        assert!(p.csp.contains("base-uri 'self'"));
        assert_eq!(p.allow, "camera; clipboard-write");
        // An empty declaration is still a declaration: no external origins at all.
        let empty = sandbox_policy(&json!({"csp": {}}), &own());
        assert!(
            empty.csp.contains("connect-src 'self';") && empty.csp.contains("frame-src 'none'")
        );
    }

    #[test]
    fn injection_attempts_are_dropped_and_reported() {
        let meta = json!({"csp": {"connectDomains": [
            "https://ok.example",
            "https://evil.example; script-src *",
            "'unsafe-eval'",
            "javascript://x",
            "https://a.example/path",
            "*",
            "https://*.*.example",
            42
        ]}});
        let p = sandbox_policy(&meta, &own());
        assert_eq!(p.declared.unwrap().connect, ["https://ok.example"]);
        assert_eq!(p.rejected.len(), 7, "{:?}", p.rejected);
        assert!(!p.csp.contains("evil") && !p.csp.contains("unsafe-eval"));
    }

    #[test]
    fn declared_json_round_trips_and_is_sanitized_again() {
        let meta = json!({"openaiWidgetCsp": {
            "connect_domains": ["https://api.example"],
            "resource_domains": ["https://*.cdn.example"],
        }});
        let p = sandbox_policy(&meta, &own());
        let json = csp_domains_json(p.declared.as_ref().unwrap());
        assert_eq!(
            json,
            json!({"connectDomains": ["https://api.example"],
                   "resourceDomains": ["https://*.cdn.example"],
                   "frameDomains": [], "baseUriDomains": []})
        );
        let (back, rejected) = csp_from_declared(&json, &own());
        assert!(rejected.is_empty());
        assert_eq!(back.as_ref(), p.declared.as_ref());
        assert_eq!(build_csp(back.as_ref()), p.csp);

        // A tampered object loses what is unsafe; nothing declared stays nothing.
        let tampered = json!({"connectDomains": ["https://ok.example", "https://x; script-src *"],
                              "frameDomains": "https://not-a-list.example"});
        let (d, rejected) = csp_from_declared(&tampered, &own());
        let d = d.unwrap();
        assert_eq!(d.connect, ["https://ok.example"]);
        assert!(d.frame.is_empty());
        assert_eq!(rejected.len(), 1, "{rejected:?}");
        assert_eq!(csp_from_declared(&Value::Null, &own()), (None, vec![]));
        assert_eq!(
            csp_from_declared(&json!("https://a.example"), &own()),
            (None, vec![])
        );
        let (empty, _) = csp_from_declared(&json!({}), &own());
        assert_eq!(empty, Some(CspDomains::default()));
    }

    #[test]
    fn openai_widget_csp_maps_onto_the_same_policy() {
        let meta = json!({"openaiWidgetCsp": {"connect_domains": ["https://api.example"], "resource_domains": ["https://static.example"]}});
        let p = sandbox_policy(&meta, &own());
        assert!(p.csp.contains("connect-src 'self' https://api.example"));
        assert!(
            p.csp
                .contains("img-src 'self' data: https://static.example")
        );
    }
}

#[cfg(test)]
mod own_origin_tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn declared_domains_naming_mcplab_are_dropped_and_forms_go_nowhere() {
        let own = OwnOrigins::loopback(&[6274, 6275], None);
        let meta = json!({"csp": {
            "resourceDomains": ["http://127.0.0.1:6274", "https://cdn.example", "http://*.localhost:6275"],
            "frameDomains": ["http://localhost:6274", "http://abcdefghijklmnop.localhost:6275"],
            "connectDomains": ["ws://127.0.0.1:6274", "http://127.0.0.1:7393"],
        }});
        let p = sandbox_policy(&meta, &own);
        let d = p.declared.unwrap();
        assert_eq!(d.resource, ["https://cdn.example"]);
        assert!(d.frame.is_empty());
        assert_eq!(d.connect, ["http://127.0.0.1:7393"]);
        assert_eq!(p.rejected.len(), 5, "{:?}", p.rejected);
        assert!(p.rejected.iter().all(|r| r.contains("mcplab")));
        assert!(
            !p.csp.contains("6274") && !p.csp.contains("localhost"),
            "{}",
            p.csp
        );
        assert!(p.csp.contains("frame-src 'none'"));
        assert!(p.csp.ends_with("form-action 'none'"), "{}", p.csp);
        assert!(build_csp(None).ends_with("form-action 'none'"));
        // The sandbox re-reads what the browser sends and drops the same entries again.
        let (back, rejected) =
            csp_from_declared(&json!({"frameDomains": ["http://127.0.0.1:6274"]}), &own);
        assert!(back.unwrap().frame.is_empty());
        assert_eq!(rejected.len(), 1);
    }
}
