//! A JSON response body of the streamable HTTP wire: read in chunks up to the message limit
//! (an endless or oversized body stops there), then turned into frames, or refused when it is
//! not JSON (the request it answers fails at once, naming the HTTP status, the content type and
//! the body's first bytes) or when it does not answer the POST's request.

use bytes::Bytes;
use reqwest::header::CONTENT_TYPE;
use reqwest::{Response, StatusCode};
use serde_json::Value;

use super::describe_error;
use crate::limits::Size;
use crate::wire::{KEPT_OF_REFUSED, excerpt};

/// Characters of a body quoted in an error.
const EXCERPT_CHARS: usize = 120;

/// What a JSON body turned out to be.
pub(crate) enum JsonBody {
    /// One frame, or the frames of a batch.
    Frames(Vec<Bytes>),
    /// Nothing but whitespace.
    Empty,
    /// Not usable: what was read of it, and why (in words for the user).
    Unusable { start: Bytes, why: String },
}

/// How a response looked, for messages.
pub(crate) struct Seen {
    status: StatusCode,
    content_type: String,
}

impl Seen {
    pub(crate) fn of(resp: &Response) -> Self {
        let content_type = resp
            .headers()
            .get(CONTENT_TYPE)
            .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
            .unwrap_or_else(|| "no content type".into());
        Self {
            status: resp.status(),
            content_type,
        }
    }

    fn describe(&self) -> String {
        format!("HTTP {}, {}", self.status.as_u16(), self.content_type)
    }
}

/// Reads the body, at most `max` bytes; `Err` with the words when reading failed.
pub(crate) async fn read_json_body(
    mut resp: Response,
    max: usize,
    seen: &Seen,
) -> Result<JsonBody, String> {
    // Chunks are kept as they come (no reallocation while the body grows) and joined once.
    let mut chunks: Vec<Bytes> = Vec::new();
    let mut len = 0;
    while let Some(chunk) = resp
        .chunk()
        .await
        .map_err(|e| format!("reading the response failed: {}", describe_error(&e)))?
    {
        len += chunk.len();
        chunks.push(chunk);
        if len > max {
            let why = format!(
                "the server's response body ({}) is over the {} message limit; it was not read \
                 further (raise it with --limit message=SIZE)",
                seen.describe(),
                Size(max)
            );
            let start = join(chunks, KEPT_OF_REFUSED);
            return Ok(JsonBody::Unusable { start, why });
        }
    }
    Ok(split(join(chunks, len), seen))
}

/// The chunks' first `limit` bytes as one buffer (the chunks are let go as they are copied).
fn join(chunks: Vec<Bytes>, limit: usize) -> Bytes {
    if chunks.len() == 1 && chunks[0].len() <= limit {
        return chunks.into_iter().next().unwrap_or_default();
    }
    let mut out = Vec::with_capacity(limit.min(chunks.iter().map(Bytes::len).sum()));
    for chunk in chunks {
        let room = limit - out.len();
        out.extend_from_slice(&chunk[..chunk.len().min(room)]);
        if out.len() == limit {
            break;
        }
    }
    Bytes::from(out)
}

/// A whole body as frames. A batch is re-serialized per element, so its frames are byte-exact
/// only up to whitespace (batches are rare: removed from the protocol in 2025-06-18).
fn split(body: Bytes, seen: &Seen) -> JsonBody {
    let start = body.iter().position(|b| !b.is_ascii_whitespace());
    let end = body.iter().rposition(|b| !b.is_ascii_whitespace());
    let (Some(start), Some(end)) = (start, end) else {
        return JsonBody::Empty;
    };
    let body = body.slice(start..=end);
    match serde_json::from_slice::<Value>(&body) {
        Ok(Value::Array(batch)) => JsonBody::Frames(
            batch
                .iter()
                .filter_map(|v| serde_json::to_vec(v).ok().map(Bytes::from))
                .collect(),
        ),
        Ok(_) => JsonBody::Frames(vec![body]),
        Err(e) => {
            let why = format!(
                "the server sent an unparsable response ({}: {e}); it starts with: {}",
                seen.describe(),
                excerpt(&body, EXCERPT_CHARS)
            );
            JsonBody::Unusable { start: body, why }
        }
    }
}

/// The words for a JSON body that parsed but does not answer the POST's `method` request.
pub(crate) fn not_an_answer(method: &str, frames: &[Bytes], seen: &Seen) -> String {
    let first = frames.first().map(|f| excerpt(f, EXCERPT_CHARS));
    format!(
        "the server answered the `{method}` POST ({}) with JSON that is not its response; it \
         starts with: {}",
        seen.describe(),
        first.unwrap_or_default()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seen() -> Seen {
        Seen {
            status: StatusCode::OK,
            content_type: "application/json".into(),
        }
    }

    #[test]
    fn garbage_names_status_type_and_start() {
        let JsonBody::Unusable { why, .. } =
            split(Bytes::from("this is not json\x1b[31m"), &seen())
        else {
            panic!("must be unusable");
        };
        assert!(why.contains("HTTP 200, application/json"), "{why}");
        assert!(why.contains("this is not json\\u{1b}[31m"), "{why}");
        assert!(!why.contains("stdout"), "{why}");
    }

    #[test]
    fn batches_split_and_blank_bodies_are_empty() {
        let JsonBody::Frames(frames) = split(Bytes::from(" [{\"a\":1},{\"b\":2}] "), &seen())
        else {
            panic!("frames");
        };
        assert_eq!(frames.len(), 2);
        assert!(matches!(
            split(Bytes::from("  \n"), &seen()),
            JsonBody::Empty
        ));
    }
}
