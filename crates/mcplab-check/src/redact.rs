//! Keeps a secret in the checked server's URL (a password in the user info, a token in the
//! query) out of the report: every string of it — the server's label, notes, what was
//! exercised, findings' messages and excerpts (a connect error quotes the URL), host
//! reasons — has each secret replaced by its masked form (mcplab-net's masking), so the
//! text, JSON, JUnit, SARIF and Markdown renderings cannot show it.

use mcplab_protocol::ServerConfig;
use mcplab_protocol::check::CheckReport;
use serde_json::Value;

/// The secrets of the servers' URLs: (as they may appear, masked), longest first.
pub(crate) fn secrets<'a>(
    configs: impl IntoIterator<Item = &'a ServerConfig>,
) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let urls = configs
        .into_iter()
        .filter_map(|c| c.transport.url())
        .filter_map(|u| url::Url::parse(u).ok());
    for url in urls {
        out.extend(mcplab_net::url_secrets(&url));
        // A token-shaped value under any name (the security set reports it as a secret).
        for (_, value) in url.query_pairs() {
            if crate::security::token_shaped(&value) {
                out.push((value.to_string(), mcplab_net::mask_secret(&value)));
            }
        }
    }
    out.sort_by_key(|(raw, _)| std::cmp::Reverse(raw.len()));
    out.dedup();
    out
}

/// `report` with every secret of `secrets` masked wherever it appears.
pub(crate) fn report(report: CheckReport, secrets: &[(String, String)]) -> CheckReport {
    if secrets.is_empty() {
        return report;
    }
    let Ok(mut value) = serde_json::to_value(&report) else {
        return report;
    };
    scrub(&mut value, secrets);
    serde_json::from_value(value).unwrap_or(report)
}

/// `text` with every secret masked.
pub(crate) fn text(text: &str, secrets: &[(String, String)]) -> String {
    let mut out = text.to_owned();
    for (raw, masked) in secrets {
        if out.contains(raw.as_str()) {
            out = out.replace(raw.as_str(), masked);
        }
    }
    out
}

fn scrub(v: &mut Value, secrets: &[(String, String)]) {
    match v {
        Value::String(s) => *s = text(s, secrets),
        Value::Array(a) => a.iter_mut().for_each(|x| scrub(x, secrets)),
        Value::Object(m) => m.values_mut().for_each(|x| scrub(x, secrets)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_connect_error_quoting_the_url_is_masked() {
        let url = url::Url::parse("http://bob:s3cr3t%21pw@h.test/mcp?token=abcdef123456").unwrap();
        let mut secrets: Vec<_> = mcplab_net::url_secrets(&url);
        secrets.sort_by_key(|(raw, _)| std::cmp::Reverse(raw.len()));
        let said = text(
            "could not reach http://bob:s3cr3t%21pw@h.test/mcp?token=abcdef123456: \
             error sending request for url (http://h.test/mcp?token=abcdef123456); password s3cr3t!pw",
            &secrets,
        );
        for secret in ["s3cr3t", "abcdef123456"] {
            assert!(!said.contains(secret), "{said}");
        }
        assert!(said.contains("abcd… (12 chars)"), "{said}");
    }
}
