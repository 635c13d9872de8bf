//! What of a provider request may be shown: API keys in headers (`Authorization` keeps its
//! scheme, `x-api-key`, `api-key`, `x-goog-api-key`, cookies) and in URL queries (`key`,
//! `api_key`, …) are masked the way the OAuth debugger masks tokens (`sk-p… (51 chars)`):
//! enough to tell two keys apart, never enough to use one. The x-ray (mcplab-llm), the MCP
//! exchange records (mcplab-mcp), the tap and the OAuth debugger share it.

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

/// Query parameters that carry keys.
const SECRET_PARAMS: &[&str] = &["key", "api_key", "apikey", "access_token", "token"];

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

/// A URL with the values of key-carrying query parameters masked; the rest exactly as sent.
pub fn mask_url(url: &url::Url) -> String {
    let Some(query) = url.query() else {
        return url.to_string();
    };
    let pairs: Vec<String> = query
        .split('&')
        .map(|pair| match pair.split_once('=') {
            Some((k, v)) if SECRET_PARAMS.iter().any(|s| s.eq_ignore_ascii_case(k)) => {
                let decoded = url::form_urlencoded::parse(v.as_bytes())
                    .next()
                    .map(|(a, b)| format!("{a}{b}"))
                    .unwrap_or_default();
                format!("{k}={}", mask_secret(&decoded))
            }
            _ => pair.to_owned(),
        })
        .collect();
    let mut base = url.clone();
    base.set_query(None);
    format!("{base}?{}", pairs.join("&"))
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
}
