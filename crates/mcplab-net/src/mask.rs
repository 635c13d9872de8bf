//! What of a provider request may be shown: API keys in headers (`Authorization` keeps its
//! scheme, `x-api-key`, `api-key`, `x-goog-api-key`, cookies) and in URL queries (`key`,
//! `api_key`, …) are masked the way the OAuth debugger masks tokens (`sk-p… (51 chars)`):
//! enough to tell two keys apart, never enough to use one; so is a password in a URL
//! ([`mask_url`]). A URL shown for editing (a provider's base URL in Settings) keeps its
//! spelling with the password as `****` ([`mask_userinfo`]), and the form's answer gets the
//! real password back with [`restore_password`]. The x-ray
//! (mcplab-llm), the MCP exchange records (mcplab-mcp), the tap, the provider settings and
//! the OAuth debugger share it.

use std::borrow::Cow;

/// What a URL's password is shown as.
pub const MASKED_PASSWORD: &str = "****";

/// `abcd… (40 chars)`; short secrets show no characters at all.
pub fn mask_secret(secret: &str) -> String {
    let count = secret.chars().count();
    if count < 12 {
        return format!("… ({count} chars)");
    }
    let head: String = secret.chars().take(4).collect();
    format!("{head}… ({count} chars)")
}

/// Header names whose whole value is a secret.
const SECRET_HEADERS: &[&str] = &[
    "x-api-key",
    "api-key",
    "x-goog-api-key",
    "cookie",
    "set-cookie",
    "proxy-authorization",
];

/// Query parameters that carry keys (compared lowercased, `-` read as `_`; names ending in
/// `_token`, `_key` or `_secret` count too).
const SECRET_PARAMS: &[&str] = &[
    "key",
    "api_key",
    "apikey",
    "access_token",
    "token",
    "auth",
    "auth_token",
    "id_token",
    "refresh_token",
    "secret",
    "client_secret",
    "password",
    "passwd",
    "pwd",
    "sig",
    "signature",
];

/// Whether a query parameter of this name carries a secret.
pub fn is_secret_param(name: &str) -> bool {
    let key = name.to_ascii_lowercase().replace('-', "_");
    SECRET_PARAMS.contains(&key.as_str())
        || key.ends_with("_token")
        || key.ends_with("_key")
        || key.ends_with("_secret")
}

/// A header value as it may be shown.
pub fn mask_header(name: &str, value: &str) -> String {
    let lower = name.to_ascii_lowercase();
    if lower == "authorization" {
        return match value.split_once(' ') {
            Some((scheme, rest)) => format!("{scheme} {}", mask_secret(rest.trim())),
            None => mask_secret(value),
        };
    }
    if SECRET_HEADERS.contains(&lower.as_str()) {
        return mask_secret(value);
    }
    value.to_owned()
}

/// A URL with its password (or a user name alone, often a token) and the values of
/// key-carrying query parameters masked; the rest exactly as sent.
pub fn mask_url(url: &url::Url) -> String {
    let mut base = url.clone();
    let _ = base.set_password(None);
    let _ = base.set_username("");
    base.set_query(None);
    base.set_fragment(None);
    let mut text = base.to_string();
    let userinfo = match (url.username(), url.password()) {
        (user, Some(password)) => Some(format!("{user}:{}", mask_secret(&decode(password)))),
        (user, None) if user.len() >= 12 => Some(mask_secret(&decode(user))),
        (user, None) => (!user.is_empty()).then(|| user.to_owned()),
    };
    if let (Some(info), Some(at)) = (userinfo, text.find("://")) {
        text.insert_str(at + 3, &format!("{info}@"));
    }
    if let Some(query) = url.query() {
        let pairs: Vec<String> = query
            .split('&')
            .map(|pair| match pair.split_once('=') {
                Some((k, v)) if is_secret_param(&decode(k)) => {
                    format!("{k}={}", mask_secret(&decode(v)))
                }
                _ => pair.to_owned(),
            })
            .collect();
        text.push('?');
        text.push_str(&pairs.join("&"));
    }
    if let Some(fragment) = url.fragment() {
        text.push('#');
        text.push_str(fragment);
    }
    text
}

/// A URL given as text, masked like [`mask_url`] (text that is not a URL is returned as is).
pub fn mask_url_text(text: &str) -> String {
    match url::Url::parse(text) {
        Ok(url) => mask_url(&url),
        Err(_) => text.to_owned(),
    }
}

/// The secrets a URL carries, each as it is written in the URL (percent-encoded) and, when
/// that differs, decoded, with its masked form: for hiding them in any text that quotes the
/// URL (an error message, a report). Values shorter than 4 characters are left out.
pub fn url_secrets(url: &url::Url) -> Vec<(String, String)> {
    let mut raw: Vec<String> = Vec::new();
    match url.password() {
        Some(password) => raw.push(password.to_owned()),
        None if url.username().len() >= 12 => raw.push(url.username().to_owned()),
        None => {}
    }
    for pair in url.query().unwrap_or_default().split('&') {
        if let Some((k, v)) = pair.split_once('=') {
            let name = decode(k);
            if is_secret_param(&name) {
                raw.push(v.to_owned());
            }
        }
    }
    let mut out = Vec::new();
    for written in raw.into_iter().filter(|v| v.chars().count() >= 4) {
        let plain = decode(&written);
        let masked = mask_secret(&plain);
        if plain != written {
            out.push((plain.clone(), masked.clone()));
        }
        out.push((written, masked));
    }
    // Longest first, so a secret that contains another is replaced whole.
    out.sort_by_key(|(raw, _)| std::cmp::Reverse(raw.len()));
    out
}

/// A percent- (and `+`-) encoded URL part, decoded.
fn decode(part: &str) -> String {
    let spaced = part.replace('+', " ");
    url::form_urlencoded::parse(format!("x={spaced}").as_bytes())
        .next()
        .map(|(_, v)| v.into_owned())
        .unwrap_or_else(|| part.to_owned())
}

/// Where the password of `scheme://user:password@host…` is, as a byte range of `text`.
fn password_span(text: &str) -> Option<std::ops::Range<usize>> {
    let start = text.find("://")? + 3;
    let rest = &text[start..];
    let authority = &rest[..rest.find(['/', '?', '#']).unwrap_or(rest.len())];
    let userinfo = &authority[..authority.rfind('@')?];
    let colon = userinfo.find(':')?;
    Some(start + colon + 1..start + userinfo.len())
}

/// A URL written as text with the password of its userinfo replaced by [`MASKED_PASSWORD`];
/// everything else exactly as written (text that is no URL, or has no password, unchanged).
pub fn mask_userinfo(text: &str) -> Cow<'_, str> {
    match password_span(text) {
        Some(span) if !span.is_empty() => {
            let mut shown = text.to_owned();
            shown.replace_range(span, MASKED_PASSWORD);
            Cow::Owned(shown)
        }
        _ => Cow::Borrowed(text),
    }
}

/// A URL as a form sent it back after showing it masked: when its password is
/// [`MASKED_PASSWORD`], the password of `current` (the URL it was shown for) is put back, as
/// long as scheme, user, host and port are unchanged; the password never goes to another
/// host. Other URLs are returned as they are. `Err` says what to do.
pub fn restore_password(sent: &str, current: Option<&str>) -> Result<String, String> {
    let Some(span) = password_span(sent).filter(|s| &sent[s.clone()] == MASKED_PASSWORD) else {
        return Ok(sent.to_owned());
    };
    let origin = |text: &str| {
        let u = url::Url::parse(text.trim()).ok()?;
        let password = u.password().map(str::to_owned);
        Some((
            (u.scheme().to_owned(), u.username().to_owned()),
            (u.host_str().map(str::to_owned), u.port_or_known_default()),
            password,
        ))
    };
    let sent_origin = origin(sent);
    let restored = current
        .and_then(|c| Some((origin(c)?, password_span(c)?, c)))
        .filter(|((who, host, pw), _, _)| {
            pw.is_some()
                && sent_origin
                    .as_ref()
                    .is_some_and(|s| (&s.0, &s.1) == (who, host))
        });
    match restored {
        Some((_, real, current)) => {
            let mut url = sent.to_owned();
            url.replace_range(span, &current[real]);
            Ok(url)
        }
        None => Err(format!(
            "the base URL's password is shown as {MASKED_PASSWORD}; type the password again \
             (it is kept only while scheme, user, host and port stay the same)"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_keep_only_a_prefix_and_length() {
        assert_eq!(
            mask_secret("eyJhbGciOiJSUzI1NiJ9.payload"),
            "eyJh… (28 chars)"
        );
        assert_eq!(mask_secret("short"), "… (5 chars)");
    }

    #[test]
    fn keys_are_masked_in_headers_and_queries() {
        assert_eq!(
            mask_header("Authorization", "Bearer sk-proj-0123456789"),
            "Bearer sk-p… (18 chars)"
        );
        assert_eq!(
            mask_header("x-api-key", "sk-ant-0123456789"),
            "sk-a… (17 chars)"
        );
        assert_eq!(
            mask_header("content-type", "application/json"),
            "application/json"
        );
        let url =
            url::Url::parse("https://h.test/v1/m:stream?alt=sse&key=AIzaSy0123456789").unwrap();
        assert_eq!(
            mask_url(&url),
            "https://h.test/v1/m:stream?alt=sse&key=AIza… (16 chars)"
        );
        let plain = url::Url::parse("http://127.0.0.1:9/v1/chat/completions").unwrap();
        assert_eq!(mask_url(&plain), "http://127.0.0.1:9/v1/chat/completions");
    }

    #[test]
    fn passwords_and_token_params_in_urls_are_masked() {
        let url = url::Url::parse(
            "http://alice:hunter2secret@127.0.0.1:9/mcp?Refresh-Token=r%2Fabcdef123456&page=2",
        )
        .unwrap();
        let shown = mask_url(&url);
        assert_eq!(
            shown,
            "http://alice:hunt… (13 chars)@127.0.0.1:9/mcp?Refresh-Token=r/ab… (14 chars)&page=2"
        );
        let secrets = url_secrets(&url);
        assert!(
            secrets.iter().any(|(raw, _)| raw == "r/abcdef123456"),
            "{secrets:?}"
        );
        assert!(
            secrets.iter().any(|(raw, _)| raw == "r%2Fabcdef123456"),
            "{secrets:?}"
        );
        let bare = url::Url::parse("https://ghp_0123456789abcdef@example.com/").unwrap();
        assert_eq!(mask_url(&bare), "https://ghp_… (20 chars)@example.com/");
        assert_eq!(mask_url_text("not a url"), "not a url");
    }

    #[test]
    fn a_password_in_a_url_is_masked_and_put_back_only_for_the_same_host() {
        // Text keeps its spelling; no password, nothing to mask.
        assert_eq!(
            mask_userinfo("https://u:p@h.test:8443/v1/"),
            "https://u:****@h.test:8443/v1/"
        );
        for plain in [
            "https://token@h.test/v1",
            "h.test:1/a@b",
            "not a url",
            "http://h/a:b@c",
        ] {
            assert_eq!(mask_userinfo(plain), plain);
        }
        let current = Some("https://u:p%40ss@h.test/v1");
        assert_eq!(
            restore_password("https://u:****@h.test/v2/", current).as_deref(),
            Ok("https://u:p%40ss@h.test/v2/")
        );
        assert_eq!(
            restore_password("https://u:new@other.test/v1", current).as_deref(),
            Ok("https://u:new@other.test/v1")
        );
        for moved in [
            "https://u:****@other.test/v1",
            "http://u:****@h.test/v1",
            "https://v:****@h.test/v1",
            "https://u:****@h.test:444/v1",
        ] {
            let e = restore_password(moved, current).unwrap_err();
            assert!(e.contains("type the password again"), "{moved}: {e}");
        }
        assert!(restore_password("https://u:****@h.test/v1", None).is_err());
    }
}
