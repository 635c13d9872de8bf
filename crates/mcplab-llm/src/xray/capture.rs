//! [`Capture`]: where one model step's HTTP exchanges are recorded while they happen. The
//! relay writes into it (request when it leaves, response head, every body chunk before it is
//! passed on, the error that broke it off); the agent reads a snapshot when the step ends.
//! Each side of an exchange keeps at most a fixed number of bytes and says when it was cut;
//! secrets are masked as they are recorded, so nothing unmasked is ever kept here.

use std::sync::Arc;
use std::time::Instant;

use mcplab_protocol::xray::HttpExchange;
use parking_lot::Mutex;

use mcplab_net::{mask_header, mask_url};

/// The most request body bytes kept per exchange (tool definitions included).
pub const REQUEST_CAP: usize = 512 * 1024;
/// The most response body bytes kept per exchange.
pub const RESPONSE_CAP: usize = 256 * 1024;

/// One exchange while it happens: bodies as bytes, cut at the caps.
struct Recording {
    exchange: HttpExchange,
    request: Vec<u8>,
    response: Vec<u8>,
    started: Instant,
}

/// The exchanges of one model step (all attempts), shared by the relay and the agent.
#[derive(Clone, Default)]
pub struct Capture {
    inner: Arc<Mutex<Vec<Recording>>>,
}

impl std::fmt::Debug for Capture {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Capture")
            .field("exchanges", &self.inner.lock().len())
            .finish()
    }
}

impl PartialEq for Capture {
    /// The same capture, not equal contents: a request is equal to its clone.
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.inner, &other.inner)
    }
}

/// Where an exchange is in its [`Capture`].
#[derive(Debug, Clone, Copy)]
pub struct ExchangeId(usize);

impl Capture {
    pub fn new() -> Self {
        Self::default()
    }

    /// Every exchange so far, bodies as text (a cut body ends at the last whole character).
    pub fn exchanges(&self) -> Vec<HttpExchange> {
        self.inner
            .lock()
            .iter()
            .map(|r| HttpExchange {
                request_body: text_of(&r.request),
                response_body: text_of(&r.response),
                ..r.exchange.clone()
            })
            .collect()
    }

    /// Why the last exchange broke off before any response came, if it did (the provider
    /// library only sees a closed connection; this is the real reason).
    pub fn transport_error(&self) -> Option<String> {
        let all = self.inner.lock();
        let last = all.last()?;
        match (&last.exchange.status, &last.exchange.error) {
            (None, Some(e)) => Some(e.clone()),
            _ => None,
        }
    }

    /// Records a request as it leaves: `url` and `headers` exactly as sent (masked here).
    pub fn begin(
        &self,
        method: &str,
        url: &url::Url,
        headers: &[(String, String)],
        body: &[u8],
    ) -> ExchangeId {
        let mut all = self.inner.lock();
        let attempt = u32::try_from(all.len() + 1).unwrap_or(u32::MAX);
        all.push(Recording {
            exchange: HttpExchange {
                attempt,
                method: method.to_owned(),
                url: mask_url(url),
                request_headers: headers
                    .iter()
                    .map(|(k, v)| (k.clone(), mask_header(k, v)))
                    .collect(),
                request_body: String::new(),
                request_bytes: body.len() as u64,
                request_truncated: body.len() > REQUEST_CAP,
                tool_definition_bytes: tools_size(body),
                status: None,
                response_headers: Vec::new(),
                response_body: String::new(),
                response_bytes: 0,
                bodies_omitted: false,
                response_truncated: false,
                error: None,
                duration_ms: 0,
            },
            request: body[..body.len().min(REQUEST_CAP)].to_vec(),
            response: Vec::new(),
            started: Instant::now(),
        });
        ExchangeId(all.len() - 1)
    }

    fn with(&self, id: ExchangeId, f: impl FnOnce(&mut Recording)) {
        if let Some(r) = self.inner.lock().get_mut(id.0) {
            f(r);
            r.exchange.duration_ms = r.started.elapsed().as_millis() as u64;
        }
    }

    /// The response's status and headers arrived.
    pub fn response(&self, id: ExchangeId, status: u16, headers: &[(String, String)]) {
        self.with(id, |r| {
            r.exchange.status = Some(status);
            r.exchange.response_headers = headers
                .iter()
                .map(|(k, v)| (k.clone(), mask_header(k, v)))
                .collect();
        });
    }

    /// A piece of the response body arrived (recorded before it is passed on).
    pub fn chunk(&self, id: ExchangeId, bytes: &[u8]) {
        self.with(id, |r| {
            r.exchange.response_bytes += bytes.len() as u64;
            let room = RESPONSE_CAP.saturating_sub(r.response.len());
            if bytes.len() > room {
                r.exchange.response_truncated = true;
            }
            r.response
                .extend_from_slice(&bytes[..bytes.len().min(room)]);
        });
    }

    /// The exchange broke off (no response, or a body that stopped early).
    pub fn fail(&self, id: ExchangeId, error: String) {
        self.with(id, |r| r.exchange.error = Some(error));
    }
}

/// The size of a JSON body's top-level `tools` value as written compactly (every provider
/// format keeps the tool definitions there; genai writes JSON compactly).
fn tools_size(body: &[u8]) -> u64 {
    let Ok(serde_json::Value::Object(mut top)) = serde_json::from_slice(body) else {
        return 0;
    };
    top.remove("tools")
        .and_then(|tools| serde_json::to_string(&tools).ok())
        .map_or(0, |text| text.len() as u64)
}

/// Bytes as text: a body cut in the middle of a character ends before it; anything that is
/// not UTF-8 at all is shown with replacement characters.
fn text_of(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_owned(),
        Err(e) if e.error_len().is_none() => {
            String::from_utf8_lossy(&bytes[..e.valid_up_to()]).into_owned()
        }
        Err(_) => String::from_utf8_lossy(bytes).into_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url() -> url::Url {
        url::Url::parse("https://example.test/v1beta/models/x:streamGenerateContent?alt=sse&key=AIzaSyA-0123456789abcdef").unwrap()
    }

    #[test]
    fn bodies_are_cut_at_the_caps_and_marked() {
        let c = Capture::new();
        let big = "é".repeat(REQUEST_CAP); // two bytes a character
        let id = c.begin("POST", &url(), &[], big.as_bytes());
        c.response(id, 200, &[]);
        c.chunk(id, &vec![b'a'; RESPONSE_CAP - 1]);
        c.chunk(id, b"bcd");
        let x = &c.exchanges()[0];
        assert!(x.request_truncated);
        assert_eq!(x.request_bytes, big.len() as u64);
        assert_eq!(
            x.request_body.len(),
            REQUEST_CAP,
            "cut at a character boundary"
        );
        assert!(x.response_truncated);
        assert_eq!(x.response_bytes, RESPONSE_CAP as u64 + 2);
        assert!(x.response_body.ends_with("ab"));
    }

    #[test]
    fn secrets_are_masked_as_recorded_and_attempts_count() {
        let c = Capture::new();
        let headers = [
            (
                "authorization".to_string(),
                "Bearer sk-0123456789abcdef".to_string(),
            ),
            (
                "x-goog-api-key".to_string(),
                "AIzaSyA-0123456789abcdef".to_string(),
            ),
            ("content-type".to_string(), "application/json".to_string()),
        ];
        let first = c.begin("POST", &url(), &headers, b"{}");
        c.fail(first, "connection refused".into());
        assert_eq!(c.transport_error().as_deref(), Some("connection refused"));
        c.begin("POST", &url(), &headers, b"{}");
        let all = c.exchanges();
        assert_eq!((all[0].attempt, all[1].attempt), (1, 2));
        let text = serde_json::to_string(&all).unwrap();
        assert!(!text.contains("0123456789abcdef"), "{text}");
        assert!(all[0].url.contains("alt=sse"), "{}", all[0].url);
        assert_eq!(all[0].request_headers[2].1, "application/json");
        assert!(all[0].request_headers[0].1.starts_with("Bearer "));
        assert_eq!(c.transport_error(), None, "the last attempt has not failed");
    }
}
