//! An incremental Server-Sent Events parser following the WHATWG "event stream
//! interpretation" rules, shared by the streamable HTTP and legacy HTTP+SSE transports. It owns
//! only the framing: bytes in, events out. It does no I/O, knows nothing of JSON-RPC and never
//! decides when to reconnect; it just remembers the last event id and reconnection time the
//! stream announced so its owner can.
//!
//! Chunks may be split anywhere (inside a UTF-8 sequence, between CR and LF, inside the BOM):
//! the parser splits lines on bytes (CR, LF and CRLF are ASCII and never occur inside a UTF-8
//! sequence) and decodes only complete lines, lossily, as the spec's UTF-8 decode does.
//!
//! It holds at most `max` bytes of a line or of an event's data (the message limit): past that
//! the stream is unusable, [`SseParser::exceeded`] says so, and further input is ignored.

/// One dispatched event block.
///
/// Dispatch rule: a block is dispatched at its blank line when it carried a `data`, `id` or
/// `retry` field. The spec's `EventSource` drops data-less blocks, but MCP servers send
/// "priming" blocks such as `id: 7` / `retry: 500` / `data:` whose whole point is the id and
/// retry value, so they surface here with `data` empty and callers skip empty data when looking
/// for messages. Blocks with nothing but `event`, comments or unknown fields are not dispatched.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SseEvent {
    /// The `event` field; `None` when absent or empty (which the spec reads as `message`).
    pub event: Option<String>,
    /// The `data` lines joined with `\n` (no trailing newline).
    pub data: String,
    /// The `id` field of this block, if it had a valid one (`Some("")` resets the last id).
    pub id: Option<String>,
    /// The `retry` field of this block, in milliseconds, if it had a valid one.
    pub retry: Option<u64>,
}

impl SseEvent {
    /// True when this block is a message in the spec's sense: `event` absent or `message`.
    pub fn is_message(&self) -> bool {
        matches!(self.event.as_deref(), None | Some("message"))
    }
}

/// Incremental parser; feed it the body chunks in order.
#[derive(Debug, Default)]
pub struct SseParser {
    /// Bytes of the current, not yet terminated line.
    line: Vec<u8>,
    /// The previous chunk ended in CR: a leading LF in the next chunk belongs to that CRLF.
    after_cr: bool,
    /// No line has completed yet, so a BOM at the start of the next line is the stream's.
    at_start: bool,
    /// The block being assembled.
    pending: Block,
    /// The spec's "last event ID string": committed at each dispatch, persists across events.
    last_event_id: Option<String>,
    /// The spec's "last event ID buffer": set by an `id` field, committed at the blank line.
    id_buffer: Option<String>,
    /// The latest valid `retry` value, which the spec applies immediately.
    retry: Option<u64>,
    /// Most bytes of a line or of an event's data; `None`: [`DEFAULT_MAX`].
    max: Option<usize>,
    /// Set once a line or an event grew past `max`: the start of it.
    exceeded: Option<Vec<u8>>,
}

/// The bound of [`SseParser::new`]: the default message limit.
pub const DEFAULT_MAX: usize = 64 * 1024 * 1024;
/// How much of an over-long line is kept to say what it was.
const KEPT_OF_EXCEEDED: usize = 64 * 1024;

#[derive(Debug, Default)]
struct Block {
    event: Option<String>,
    data: String,
    has_data: bool,
    id: Option<String>,
    retry: Option<u64>,
}

const BOM: &[u8] = b"\xEF\xBB\xBF";

impl SseParser {
    pub fn new() -> Self {
        Self {
            at_start: true,
            ..Self::default()
        }
    }

    /// A parser that refuses lines and events over `max` bytes.
    pub fn with_limit(max: usize) -> Self {
        Self {
            max: Some(max.max(1)),
            ..Self::new()
        }
    }

    fn max(&self) -> usize {
        self.max.unwrap_or(DEFAULT_MAX)
    }

    /// The start of the line or event that went over the limit, once one did (the stream is
    /// then unusable: nothing more is parsed).
    pub fn exceeded(&self) -> Option<&[u8]> {
        self.exceeded.as_deref()
    }

    /// The bound on lines and events.
    pub fn limit(&self) -> usize {
        self.max()
    }

    fn exceed(&mut self, start: &[u8]) {
        let keep = start.len().min(KEPT_OF_EXCEEDED);
        self.exceeded = Some(start[..keep].to_vec());
        self.line = Vec::new();
        self.pending = Block::default();
    }

    /// Parses one chunk and returns the events it completed, in order.
    pub fn feed(&mut self, chunk: &[u8]) -> Vec<SseEvent> {
        let mut events = Vec::new();
        if self.exceeded.is_some() {
            return events;
        }
        let max = self.max();
        let mut rest = chunk;
        if self.after_cr && !rest.is_empty() {
            self.after_cr = false;
            if rest[0] == b'\n' {
                rest = &rest[1..];
            }
        }
        while let Some(pos) = rest.iter().position(|b| *b == b'\n' || *b == b'\r') {
            if self.line.len() + pos > max {
                let mut start = std::mem::take(&mut self.line);
                start.extend_from_slice(&rest[..pos.min(KEPT_OF_EXCEEDED)]);
                self.exceed(&start);
                return events;
            }
            self.line.extend_from_slice(&rest[..pos]);
            let terminator = rest[pos];
            rest = &rest[pos + 1..];
            if terminator == b'\r' {
                match rest.first() {
                    Some(b'\n') => rest = &rest[1..],
                    Some(_) => {}
                    None => self.after_cr = true,
                }
            }
            let mut line = std::mem::take(&mut self.line);
            if self.at_start {
                self.at_start = false;
                if line.starts_with(BOM) {
                    line.drain(..BOM.len());
                }
            }
            if let Some(event) = self.process_line(&line) {
                events.push(event);
            }
            if self.pending.data.len() > max {
                let start = std::mem::take(&mut self.pending.data);
                self.exceed(start.as_bytes());
                return events;
            }
        }
        if self.line.len() + rest.len() > max {
            let mut start = std::mem::take(&mut self.line);
            start.extend_from_slice(&rest[..rest.len().min(KEPT_OF_EXCEEDED)]);
            self.exceed(&start);
            return events;
        }
        self.line.extend_from_slice(rest);
        events
    }

    /// The id of the last dispatched block that set one (what a reconnect sends as
    /// `Last-Event-ID`); `None` when no id was ever set or it was reset to empty.
    pub fn last_event_id(&self) -> Option<&str> {
        self.last_event_id.as_deref().filter(|id| !id.is_empty())
    }

    /// The latest reconnection time the stream announced with `retry`, in milliseconds.
    pub fn retry(&self) -> Option<u64> {
        self.retry
    }

    fn process_line(&mut self, line: &[u8]) -> Option<SseEvent> {
        if line.is_empty() {
            return self.dispatch();
        }
        if line[0] == b':' {
            return None;
        }
        let (name, value) = match line.iter().position(|b| *b == b':') {
            Some(colon) => {
                let value = &line[colon + 1..];
                (&line[..colon], value.strip_prefix(b" ").unwrap_or(value))
            }
            None => (line, &[][..]),
        };
        let value = String::from_utf8_lossy(value);
        match name {
            b"event" => self.pending.event = Some(value.into_owned()),
            b"data" => {
                if self.pending.has_data {
                    self.pending.data.push('\n');
                }
                self.pending.has_data = true;
                self.pending.data.push_str(&value);
            }
            b"id" if !value.contains('\0') => {
                self.id_buffer = Some(value.clone().into_owned());
                self.pending.id = Some(value.into_owned());
            }
            b"retry" if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) => {
                // Digits only; a value too large for u64 is ignored like any other invalid one.
                if let Ok(ms) = value.parse::<u64>() {
                    self.retry = Some(ms);
                    self.pending.retry = Some(ms);
                }
            }
            _ => {}
        }
        None
    }

    fn dispatch(&mut self) -> Option<SseEvent> {
        let block = std::mem::take(&mut self.pending);
        if self.id_buffer.is_some() {
            self.last_event_id = self.id_buffer.clone();
        }
        if !block.has_data && block.id.is_none() && block.retry.is_none() {
            return None;
        }
        Some(SseEvent {
            event: block.event.filter(|e| !e.is_empty()),
            data: block.data,
            id: block.id,
            retry: block.retry,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_all(input: &[u8]) -> Vec<SseEvent> {
        SseParser::new().feed(input)
    }

    /// Feeds `input` split at every possible pair of positions and checks the result never
    /// depends on where the chunks were cut.
    fn assert_split_invariant(input: &[u8]) -> Vec<SseEvent> {
        let whole = parse_all(input);
        for i in 0..=input.len() {
            for j in i..=input.len() {
                let mut parser = SseParser::new();
                let mut got = parser.feed(&input[..i]);
                got.extend(parser.feed(&input[i..j]));
                got.extend(parser.feed(&input[j..]));
                assert_eq!(got, whole, "split at {i},{j}");
            }
        }
        whole
    }

    fn message(data: &str) -> SseEvent {
        SseEvent {
            data: data.to_string(),
            ..SseEvent::default()
        }
    }

    #[test]
    fn simple_message_and_multiline_data() {
        let events = parse_all(b"data: hello\n\ndata: a\ndata: b\ndata:\n\n");
        assert_eq!(events, vec![message("hello"), message("a\nb\n")]);
        assert!(events[0].is_message());
    }

    #[test]
    fn crlf_cr_and_lf_line_endings_mix() {
        let events = assert_split_invariant(b"data: x\r\n\r\ndata: y\r\rdata: z\n\n");
        assert_eq!(events, vec![message("x"), message("y"), message("z")]);
    }

    #[test]
    fn crlf_split_between_chunks_is_one_line_end() {
        let mut parser = SseParser::new();
        assert!(parser.feed(b"data: a\r").is_empty());
        // The LF completes the CRLF; the next CR LF is the blank line.
        assert_eq!(parser.feed(b"\n\r\n"), vec![message("a")]);
    }

    #[test]
    fn utf8_split_inside_a_character() {
        let input = "data: héllo ✓ 😀\n\n".as_bytes();
        let events = assert_split_invariant(input);
        assert_eq!(events, vec![message("héllo ✓ 😀")]);
    }

    #[test]
    fn invalid_utf8_is_replaced_not_fatal() {
        let events = parse_all(b"data: a\xFFb\n\n");
        assert_eq!(events, vec![message("a\u{FFFD}b")]);
    }

    #[test]
    fn bom_at_start_is_stripped_even_when_split() {
        let input = b"\xEF\xBB\xBFdata: x\n\n";
        assert_eq!(assert_split_invariant(input), vec![message("x")]);
        // A BOM anywhere else is part of the content (here: an unknown field name).
        assert!(parse_all(b"\n\xEF\xBB\xBFdata: x\n\n").is_empty());
    }

    #[test]
    fn comments_and_unknown_fields_are_ignored() {
        let events = parse_all(b": keepalive\n:\nfoo: bar\ndata: x\n: mid\n\n: only comment\n\n");
        assert_eq!(events, vec![message("x")]);
    }

    #[test]
    fn field_without_colon_has_empty_value() {
        // `data` alone appends an empty line; `event` alone sets an empty type.
        let events = parse_all(b"data\ndata\n\nevent\ndata: x\n\n");
        assert_eq!(events, vec![message("\n"), message("x")]);
    }

    #[test]
    fn only_one_leading_space_is_stripped() {
        let events = parse_all(b"data:  two\ndata:none\n\n");
        assert_eq!(events, vec![message(" two\nnone")]);
    }

    #[test]
    fn event_type_and_id_are_reported() {
        let mut parser = SseParser::new();
        let events = parser.feed(b"event: endpoint\nid: 42\ndata: /messages\n\n");
        assert_eq!(
            events,
            vec![SseEvent {
                event: Some("endpoint".into()),
                data: "/messages".into(),
                id: Some("42".into()),
                retry: None,
            }]
        );
        assert!(!events[0].is_message());
        assert_eq!(parser.last_event_id(), Some("42"));
        // The event type does not carry over to the next block; the last id does.
        let next = parser.feed(b"data: y\n\n");
        assert_eq!(next, vec![message("y")]);
        assert!(next[0].is_message());
        assert_eq!(parser.last_event_id(), Some("42"));
    }

    #[test]
    fn ids_with_nul_are_ignored_and_empty_id_resets() {
        let mut parser = SseParser::new();
        parser.feed(b"id: 1\ndata: a\n\n");
        let events = parser.feed(b"id: x\0y\ndata: b\n\n");
        assert_eq!(events, vec![message("b")]);
        assert_eq!(parser.last_event_id(), Some("1"));
        let events = parser.feed(b"id\ndata: c\n\n");
        assert_eq!(events[0].id.as_deref(), Some(""));
        assert_eq!(parser.last_event_id(), None);
    }

    #[test]
    fn id_of_an_unterminated_block_is_not_committed() {
        let mut parser = SseParser::new();
        parser.feed(b"id: 1\ndata: a\n\nid: 2\ndata: b\n");
        assert_eq!(parser.last_event_id(), Some("1"));
    }

    #[test]
    fn retry_accepts_digits_only() {
        let mut parser = SseParser::new();
        assert!(
            parser
                .feed(b"retry: 12a\n\nretry: -5\n\nretry:\n\nretry: 1.5\n\n")
                .is_empty()
        );
        assert_eq!(parser.retry(), None);
        assert!(
            parser
                .feed(b"retry: 99999999999999999999999\n\n")
                .is_empty()
        );
        assert_eq!(parser.retry(), None);
        let events = parser.feed(b"retry: 250\n\n");
        assert_eq!(
            events,
            vec![SseEvent {
                retry: Some(250),
                ..SseEvent::default()
            }]
        );
        assert_eq!(parser.retry(), Some(250));
    }

    #[test]
    fn priming_block_with_id_retry_and_empty_data_surfaces() {
        // What MCP servers send first on a resumable stream (SEP-1699).
        let mut parser = SseParser::new();
        let events = parser.feed(b"id: event-1\nretry: 500\ndata: \n\n");
        assert_eq!(
            events,
            vec![SseEvent {
                event: None,
                data: String::new(),
                id: Some("event-1".into()),
                retry: Some(500),
            }]
        );
        assert_eq!(parser.last_event_id(), Some("event-1"));
        assert_eq!(parser.retry(), Some(500));
    }

    #[test]
    fn blocks_without_data_id_or_retry_are_not_dispatched() {
        assert!(parse_all(b"event: ping\n\n\n\n").is_empty());
    }

    #[test]
    fn incomplete_trailing_block_is_held_back() {
        let mut parser = SseParser::new();
        assert!(parser.feed(b"data: a").is_empty());
        assert!(parser.feed(b"bc\n").is_empty());
        assert_eq!(parser.feed(b"\n"), vec![message("abc")]);
    }

    #[test]
    fn an_endless_line_stops_at_the_limit() {
        let mut parser = SseParser::with_limit(100);
        assert_eq!(parser.feed(b"data: ok\n\n"), vec![message("ok")]);
        for _ in 0..50 {
            assert!(parser.feed(b"data: xxxxxxxxxxxxxxxxxxxx").is_empty());
        }
        let start = parser.exceeded().expect("over the limit");
        assert!(start.starts_with(b"data: xxx") && start.len() <= 200);
        assert!(parser.line.capacity() <= 200, "the line was let go");
        assert!(
            parser.feed(b"\n\ndata: late\n\n").is_empty(),
            "nothing more is parsed"
        );
    }

    #[test]
    fn many_data_lines_are_one_event_within_the_limit() {
        let mut parser = SseParser::with_limit(100);
        for _ in 0..20 {
            parser.feed(b"data: 0123456789\n");
        }
        assert!(parser.exceeded().is_some());
        let mut fits = SseParser::with_limit(100);
        fits.feed(b"data: 0123456789\n");
        assert_eq!(fits.feed(b"\n"), vec![message("0123456789")]);
    }

    #[test]
    fn many_events_in_one_chunk_with_every_split() {
        let input = b"event: message\nid: 1\ndata: {\"a\":1}\n\n: c\r\nid: 2\r\ndata: {\"b\":\r\ndata: 2}\r\n\r\n";
        let events = assert_split_invariant(input);
        assert_eq!(events.len(), 2);
        assert_eq!(events[0].event.as_deref(), Some("message"));
        assert_eq!(events[0].data, "{\"a\":1}");
        assert_eq!(events[1].data, "{\"b\":\n2}");
        assert_eq!(events[1].id.as_deref(), Some("2"));
    }
}
