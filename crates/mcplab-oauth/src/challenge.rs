//! `WWW-Authenticate` parsing (RFC 9110 §11.6.1): one header may carry several challenges,
//! each a scheme followed by a token68 or by comma-separated `name=value` parameters whose
//! values are tokens or quoted strings (with `\` escapes). The Bearer challenge's parameters
//! drive the flow: `resource_metadata` (RFC 9728), `scope`, and `error` (`invalid_token`,
//! `insufficient_scope`, RFC 6750). Parameter names are case-insensitive; values are kept as
//! sent.

/// One challenge: its scheme and parameters (names lower-cased).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Challenge {
    pub scheme: String,
    pub token68: Option<String>,
    pub params: Vec<(String, String)>,
}

impl Challenge {
    pub fn param(&self, name: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// What a Bearer challenge tells the client.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct BearerChallenge {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource_metadata: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_description: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub realm: Option<String>,
}

impl BearerChallenge {
    /// The first Bearer challenge among the given `WWW-Authenticate` header values.
    pub fn find<'a>(values: impl IntoIterator<Item = &'a str>) -> Option<Self> {
        values
            .into_iter()
            .flat_map(parse_www_authenticate)
            // A DPoP challenge (RFC 9449 §7.1) carries the same parameters.
            .find(|c| {
                c.scheme.eq_ignore_ascii_case("bearer") || c.scheme.eq_ignore_ascii_case("dpop")
            })
            .map(|c| {
                let get = |name: &str| c.param(name).map(str::to_owned);
                BearerChallenge {
                    resource_metadata: get("resource_metadata"),
                    scope: get("scope").filter(|s| !s.trim().is_empty()),
                    error: get("error"),
                    error_description: get("error_description"),
                    realm: get("realm"),
                }
            })
    }

    /// From a response's headers.
    pub fn from_headers(headers: &reqwest::header::HeaderMap) -> Option<Self> {
        let values: Vec<&str> = headers
            .get_all(reqwest::header::WWW_AUTHENTICATE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .collect();
        Self::find(values)
    }

    pub fn insufficient_scope(&self) -> bool {
        self.error.as_deref() == Some("insufficient_scope")
    }
}

/// Every challenge in one `WWW-Authenticate` value, in order. Malformed parts are skipped.
pub fn parse_www_authenticate(header: &str) -> Vec<Challenge> {
    let mut p = Parser {
        s: header.as_bytes(),
        i: 0,
    };
    let mut out: Vec<Challenge> = Vec::new();
    loop {
        p.skip_separators();
        let scheme = p.token();
        if scheme.is_empty() {
            if p.at_end() {
                break;
            }
            // Not a token: skip one byte and try again.
            p.i += 1;
            continue;
        }
        let mut challenge = Challenge {
            scheme,
            token68: None,
            params: Vec::new(),
        };
        p.skip_spaces();
        if let Some(t68) = p.token68() {
            challenge.token68 = Some(t68);
            out.push(challenge);
            continue;
        }
        loop {
            p.skip_spaces();
            let mark = p.i;
            let name = p.token();
            p.skip_spaces();
            if name.is_empty() || !p.eat(b'=') {
                // The next challenge's scheme (or garbage): leave it for the outer loop.
                p.i = mark;
                break;
            }
            p.skip_spaces();
            let value = if p.peek() == Some(b'"') {
                p.quoted()
            } else {
                p.token()
            };
            challenge.params.push((name.to_ascii_lowercase(), value));
            p.skip_spaces();
            if !p.eat(b',') {
                break;
            }
        }
        out.push(challenge);
    }
    out
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn at_end(&self) -> bool {
        self.i >= self.s.len()
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn eat(&mut self, b: u8) -> bool {
        if self.peek() == Some(b) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn skip_spaces(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.i += 1;
        }
    }

    fn skip_separators(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b',')) {
            self.i += 1;
        }
    }

    fn token(&mut self) -> String {
        let start = self.i;
        while let Some(b) = self.peek() {
            let tchar = b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b);
            if !tchar {
                break;
            }
            self.i += 1;
        }
        String::from_utf8_lossy(&self.s[start..self.i]).into_owned()
    }

    /// A token68 right after the scheme: token68 characters, optional `=` padding, then the
    /// end or a comma. Anything that reads as `name=value` is not one.
    fn token68(&mut self) -> Option<String> {
        let start = self.i;
        let mut j = self.i;
        while j < self.s.len()
            && (self.s[j].is_ascii_alphanumeric() || b"-._~+/".contains(&self.s[j]))
        {
            j += 1;
        }
        if j == start {
            return None;
        }
        while j < self.s.len() && self.s[j] == b'=' {
            j += 1;
        }
        let mut k = j;
        while k < self.s.len() && matches!(self.s[k], b' ' | b'\t') {
            k += 1;
        }
        // `name=value` continues after the `=`; a token68 ends there (or at a comma).
        let ends = k >= self.s.len() || self.s[k] == b',';
        if !ends {
            return None;
        }
        self.i = j;
        Some(String::from_utf8_lossy(&self.s[start..j]).into_owned())
    }

    fn quoted(&mut self) -> String {
        self.i += 1; // opening quote
        let mut out = Vec::new();
        while let Some(b) = self.peek() {
            self.i += 1;
            match b {
                b'"' => break,
                b'\\' => {
                    if let Some(next) = self.peek() {
                        out.push(next);
                        self.i += 1;
                    }
                }
                other => out.push(other),
            }
        }
        String::from_utf8_lossy(&out).into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bearer_with_quoted_parameters() {
        let h = r#"Bearer error="invalid_token", error_description="Missing Authorization header", resource_metadata="http://localhost:1/.well-known/oauth-protected-resource/mcp""#;
        let c = BearerChallenge::find([h]).unwrap();
        assert_eq!(c.error.as_deref(), Some("invalid_token"));
        assert_eq!(
            c.resource_metadata.as_deref(),
            Some("http://localhost:1/.well-known/oauth-protected-resource/mcp")
        );
        assert_eq!(c.scope, None);
    }

    #[test]
    fn several_challenges_tokens_and_escapes() {
        let h = r#"Basic realm="a, b", Bearer scope="mcp:basic mcp:write", error=insufficient_scope, realm="say \"hi\"""#;
        let all = parse_www_authenticate(h);
        assert_eq!(all.len(), 2, "{all:?}");
        assert_eq!(all[0].scheme, "Basic");
        assert_eq!(all[0].param("realm"), Some("a, b"));
        let c = BearerChallenge::find([h]).unwrap();
        assert_eq!(c.scope.as_deref(), Some("mcp:basic mcp:write"));
        assert!(c.insufficient_scope());
        assert_eq!(c.realm.as_deref(), Some("say \"hi\""));
    }

    #[test]
    fn token68_case_insensitive_names_and_empty_values() {
        let all = parse_www_authenticate("Negotiate abc+/def==, bearer Scope=\"\"");
        assert_eq!(all.len(), 2, "{all:?}");
        assert_eq!(all[0].token68.as_deref(), Some("abc+/def=="));
        let c = BearerChallenge::find(["Negotiate abc==, bearer Scope=\"\""]).unwrap();
        assert_eq!(c.scope, None, "an empty scope is no scope");
        assert!(BearerChallenge::find(["Basic realm=x"]).is_none());
        assert_eq!(parse_www_authenticate("Bearer").len(), 1);
        assert!(parse_www_authenticate("").is_empty());
    }
}
