//! Masking of secrets in what a flow records: tokens, client secrets, code verifiers,
//! authorization codes and assertions in JSON and form bodies and in URL queries, and the
//! `Authorization` and cookie headers. A masked value keeps its first four characters and its
//! length (`abcd… (40 chars)`), enough to tell two tokens apart and never enough to use one.
//! Everything recorded passes through here before it leaves the flow.

pub(crate) use mcplab_net::mask_secret;
use serde_json::Value;
use url::Url;

/// Parameter and field names whose values are secrets.
const SECRET_NAMES: &[&str] = &[
    "access_token",
    "refresh_token",
    "id_token",
    "client_secret",
    "code",
    "code_verifier",
    "assertion",
    "client_assertion",
    "subject_token",
    "actor_token",
    "registration_access_token",
    "password",
    "private_key_pem",
    "privateKeyPem",
    "clientSecret",
];

fn is_secret_name(name: &str) -> bool {
    SECRET_NAMES.iter().any(|s| s.eq_ignore_ascii_case(name))
}

/// A JSON value with every secret field (at any depth) masked.
pub fn mask_step_value(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| {
                    let masked = match v {
                        Value::String(s) if is_secret_name(k) => Value::String(mask_secret(s)),
                        other => mask_step_value(other),
                    };
                    (k.clone(), masked)
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(mask_step_value).collect()),
        other => other.clone(),
    }
}

/// A form-encoded body (`a=1&b=2`) with secret values masked, shown decoded for reading.
pub(crate) fn mask_form(body: &str) -> String {
    url::form_urlencoded::parse(body.as_bytes())
        .map(|(k, v)| {
            let v = if is_secret_name(&k) {
                mask_secret(&v)
            } else {
                v.into_owned()
            };
            format!("{k}={v}")
        })
        .collect::<Vec<_>>()
        .join("&")
}

/// A URL with its password and secret query parameters masked (the rest of the URL unchanged).
pub(crate) fn mask_url(url: &Url) -> String {
    mcplab_net::mask_userinfo(&mask_query(url)).into_owned()
}

fn mask_query(url: &Url) -> String {
    let Some(query) = url.query() else {
        return url.to_string();
    };
    if !url::form_urlencoded::parse(query.as_bytes()).any(|(k, _)| is_secret_name(&k)) {
        return url.to_string();
    }
    // Shown as text: the other parameters stay exactly as sent, the secret ones are replaced
    // by their (unencoded, readable) mask.
    let mut base = url.clone();
    base.set_query(None);
    base.set_fragment(None);
    let pairs: Vec<String> = query
        .split('&')
        .map(|pair| {
            let key = pair.split('=').next().unwrap_or("");
            let decoded: String = url::form_urlencoded::parse(pair.as_bytes())
                .next()
                .map(|(k, v)| {
                    if is_secret_name(&k) {
                        mask_secret(&v)
                    } else {
                        String::new()
                    }
                })
                .unwrap_or_default();
            if decoded.is_empty() {
                pair.to_string()
            } else {
                format!("{key}={decoded}")
            }
        })
        .collect();
    format!("{base}?{}", pairs.join("&"))
}

/// A header value as it may be shown: `Authorization` keeps its scheme, cookies and API keys
/// are masked whole, a `Location` has its secret query parameters masked.
pub(crate) fn mask_header(name: &str, value: &str) -> String {
    if name.eq_ignore_ascii_case("location")
        && let Ok(url) = Url::parse(value)
    {
        return mask_url(&url);
    }
    mcplab_net::mask_header(name, value)
}

/// A body as it may be shown, by its content type: JSON and forms have their secret fields
/// masked; other text is shown as it is.
pub(crate) fn mask_body(content_type: Option<&str>, body: &str) -> String {
    let essence = content_type
        .and_then(|c| c.split(';').next())
        .map(|c| c.trim().to_ascii_lowercase())
        .unwrap_or_default();
    if essence == "application/x-www-form-urlencoded" {
        return mask_form(body);
    }
    let looks_json = essence.ends_with("json") || body.trim_start().starts_with(['{', '[']);
    if looks_json && let Ok(value) = serde_json::from_str::<Value>(body) {
        return serde_json::to_string_pretty(&mask_step_value(&value))
            .unwrap_or_else(|_| body.to_string());
    }
    body.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn json_bodies_are_masked_at_any_depth() {
        let body = json!({
            "access_token": "at-0123456789abcdef",
            "token_type": "Bearer",
            "nested": [{"refresh_token": "rt-0123456789abcdef", "scope": "a b"}],
            "client_secret": "s3cr3t-s3cr3t-s3cr3t",
        });
        let masked = mask_step_value(&body);
        assert_eq!(masked["access_token"], "at-0… (19 chars)");
        assert_eq!(masked["token_type"], "Bearer");
        assert_eq!(masked["nested"][0]["refresh_token"], "rt-0… (19 chars)");
        assert_eq!(masked["nested"][0]["scope"], "a b");
        assert!(!masked.to_string().contains("s3cr3t-s3cr3t"));
    }

    #[test]
    fn forms_urls_and_headers_are_masked() {
        let form = "grant_type=authorization_code&code=abcdefghijklmnop&code_verifier=\
                    0123456789012345678901234567890123456789012&client_id=mcplab";
        let masked = mask_form(form);
        assert!(masked.contains("grant_type=authorization_code"), "{masked}");
        assert!(masked.contains("client_id=mcplab"), "{masked}");
        assert!(!masked.contains("abcdefghijklmnop"), "{masked}");
        assert!(!masked.contains("0123456789012345678901234567890123456789012"));
        let url = Url::parse("http://127.0.0.1:1/cb?code=abcdefghijklmnop&state=xyz").unwrap();
        let shown = mask_url(&url);
        assert!(shown.contains("state=xyz") && !shown.contains("abcdefghijklmnop"));
        assert_eq!(
            mask_header("Authorization", "Bearer abcdefghijklmnopqrstuvwxyz"),
            "Bearer abcd… (26 chars)"
        );
        assert_eq!(mask_header("Set-Cookie", "sid=1"), "… (5 chars)");
        assert_eq!(mask_header("Content-Type", "text/plain"), "text/plain");
        let location = mask_header("Location", url.as_str());
        assert!(!location.contains("abcdefghijklmnop"), "{location}");
        assert_eq!(
            mask_body(
                Some("application/x-www-form-urlencoded"),
                "client_secret=0123456789abc"
            ),
            "client_secret=0123… (13 chars)"
        );
        assert_eq!(mask_body(Some("text/plain"), "hello"), "hello");
    }
}
