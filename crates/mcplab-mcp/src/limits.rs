//! The byte budget: one value holding every limit on what a server can make mcplab keep in
//! memory (a message, recorded traffic, the host's replay ring, stderr, events forwarded to the
//! browser, pending human requests). The binary builds it from flags and hands it down through
//! [`super::ManagerOptions`]; nothing here reads flags, env or files, and there is no global.
//! Each limit has a name used by `--limit NAME=SIZE` and in the errors that enforce it, so a
//! refusal can say which limit to raise.
//!
//! Beyond each limit (ARCHITECTURE.md "Byte budget" has the table):
//!
//! - `message`: refused as it crosses the limit (its first 64 KiB kept); the request it answers
//!   fails at once (`BadResponse`), an over-limit 2026-07-28 SSE stream is not resumed, a legacy
//!   SSE stream closes. Tests: `stdio::lines`, `http::tests`, `sse::tests`, `hostile.rs`.
//! - `traffic`: the recording server's oldest frames go first, counted in `dropped`; a clear
//!   lets go at once. `preview`: longer frames are published truncated with `fullBytes`;
//!   `GET /api/servers/{name}/traffic/{seq}` gives one whole while it is in the ring (404
//!   `frame_gone` after). Tests: `traffic::tests`, `api_limits.rs`.
//! - `replay`: the host ring's oldest events go; a client asking for them gets `resync`.
//! - `stderr-line`: cut, with how many bytes were dropped; `stderr-tail` (and 200 lines): oldest
//!   lines dropped. Tests: `hostile_child.rs`.
//! - `events`: over the rate, notifications and stderr lines are dropped with a counted
//!   `mcplab` warning at most once a second (traffic keeps every frame); each field is cut to
//!   `preview`. The event hub's own bound per reader (`event_hub::EVENT_BYTES`, 1,024 events):
//!   a reader that falls behind misses notifications and is told how many, the others get them;
//!   status changes and human requests always pass. Tests: `event_hub`, `hostile.rs`.
//! - `pending-human`: refused with a JSON-RPC error naming the server and the limit.

use std::fmt;

const KIB: usize = 1024;
const MIB: usize = 1024 * 1024;

/// Every limit on what a server can make mcplab hold. See [`Limits::NAMES`] for their names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest single message a server may send: a stdio line, an HTTP response body, an SSE
    /// event (and so an SSE line). Larger ones are refused and the request they answer fails.
    pub message_bytes: usize,
    /// Bytes of recorded traffic kept for all servers together; the oldest frames of the
    /// server that is recording go first.
    pub traffic_bytes: usize,
    /// Frames longer than this are published and listed truncated to this many bytes; the
    /// whole frame stays available on demand while it is in the ring. Also the most a single
    /// event forwarded to the browser (a log message's data, a stderr line) may carry.
    pub preview_bytes: usize,
    /// Bytes of host events (`/api/events`) kept for replay.
    pub replay_bytes: usize,
    /// Longest stderr line kept; the rest of a longer line is dropped (and counted).
    pub stderr_line_bytes: usize,
    /// Bytes of stderr kept per server (its last lines).
    pub stderr_tail_bytes: usize,
    /// Notifications and stderr lines forwarded per server and second (twice as many may come
    /// in a burst); beyond it they are dropped and a counted note says so. Traffic keeps them.
    pub events_per_second: u32,
    /// Elicitation and sampling requests one server may have waiting at once.
    pub pending_human: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            message_bytes: 64 * MIB,
            traffic_bytes: 64 * MIB,
            preview_bytes: 16 * KIB,
            replay_bytes: 32 * MIB,
            stderr_line_bytes: 8 * KIB,
            stderr_tail_bytes: 64 * KIB,
            events_per_second: 100,
            pending_human: 16,
        }
    }
}

/// A `--limit` value that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct LimitError(String);

impl Limits {
    /// The names `--limit NAME=VALUE` accepts, with what each bounds.
    pub const NAMES: [(&'static str, &'static str); 8] = [
        (
            "message",
            "largest message (stdio line, HTTP body, SSE event)",
        ),
        ("traffic", "recorded traffic kept, all servers"),
        (
            "preview",
            "frame/event text shown before the rest is fetched on demand",
        ),
        ("replay", "host events kept for replay (serve)"),
        ("stderr-line", "longest stderr line kept"),
        ("stderr-tail", "stderr kept per server"),
        (
            "events",
            "notifications and stderr lines forwarded per server per second",
        ),
        (
            "pending-human",
            "elicitation/sampling requests waiting per server",
        ),
    ];

    /// Applies one `NAME=VALUE` (sizes take `K`/`KiB`, `M`/`MiB`, `G`/`GiB` suffixes).
    pub fn set(&mut self, assignment: &str) -> Result<(), LimitError> {
        let (name, value) = assignment.split_once('=').ok_or_else(|| {
            LimitError(format!(
                "`{assignment}` is not NAME=VALUE; names: {}",
                Self::name_list()
            ))
        })?;
        let (name, value) = (name.trim(), value.trim());
        let size = || parse_size(value).map_err(|why| LimitError(format!("--limit {name}: {why}")));
        let count = || {
            value
                .parse::<usize>()
                .ok()
                .filter(|n| *n > 0)
                .ok_or_else(|| {
                    LimitError(format!(
                        "--limit {name}: `{value}` is not a positive whole number"
                    ))
                })
        };
        match name {
            "message" => self.message_bytes = size()?,
            "traffic" => self.traffic_bytes = size()?,
            "preview" => self.preview_bytes = size()?,
            "replay" => self.replay_bytes = size()?,
            "stderr-line" => self.stderr_line_bytes = size()?,
            "stderr-tail" => self.stderr_tail_bytes = size()?,
            "events" => self.events_per_second = u32::try_from(count()?).unwrap_or(u32::MAX),
            "pending-human" => self.pending_human = count()?,
            other => {
                return Err(LimitError(format!(
                    "unknown limit `{other}`; names: {}",
                    Self::name_list()
                )));
            }
        }
        Ok(())
    }

    fn name_list() -> String {
        Self::NAMES.map(|(n, _)| n).join(", ")
    }
}

/// Parses `1048576`, `512K`, `64MiB`, `1G` (binary multiples; case-insensitive).
pub fn parse_size(text: &str) -> Result<usize, String> {
    let text = text.trim();
    let split = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (digits, unit) = text.split_at(split);
    let number: usize = digits
        .parse()
        .map_err(|_| format!("`{text}` is not a size (e.g. 65536, 512KiB, 64MiB)"))?;
    let factor = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" | "kib" => KIB,
        "m" | "mb" | "mib" => MIB,
        "g" | "gb" | "gib" => 1024 * MIB,
        other => {
            return Err(format!(
                "unknown unit `{other}` in `{text}` (use K, M or G)"
            ));
        }
    };
    number
        .checked_mul(factor)
        .filter(|n| *n > 0)
        .ok_or_else(|| format!("`{text}` must be above zero and fit in memory"))
}

/// A size in words for messages: `64 MiB`, `8 KiB`, `100 bytes`.
pub struct Size(pub usize);

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.0;
        if n >= MIB && n.is_multiple_of(MIB) {
            write!(f, "{} MiB", n / MIB)
        } else if n >= KIB && n.is_multiple_of(KIB) {
            write!(f, "{} KiB", n / KIB)
        } else {
            write!(f, "{n} bytes")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_with_binary_units() {
        assert_eq!(parse_size("65536"), Ok(65536));
        assert_eq!(parse_size("8K"), Ok(8192));
        assert_eq!(parse_size("64MiB"), Ok(64 * MIB));
        assert_eq!(parse_size("1 gib"), Ok(1024 * MIB));
        assert!(parse_size("0").is_err());
        assert!(parse_size("12 parsecs").is_err());
        assert!(parse_size("MiB").is_err());
    }

    #[test]
    fn assignments_name_the_limit() {
        let mut limits = Limits::default();
        limits.set("message=1M").unwrap();
        limits.set("events = 5").unwrap();
        assert_eq!(limits.message_bytes, MIB);
        assert_eq!(limits.events_per_second, 5);
        let err = limits.set("colour=3").unwrap_err().to_string();
        assert!(
            err.contains("unknown limit `colour`") && err.contains("message"),
            "{err}"
        );
        assert!(limits.set("traffic").is_err());
        assert!(limits.set("pending-human=0").is_err());
    }

    #[test]
    fn sizes_read_as_words() {
        assert_eq!(Size(64 * MIB).to_string(), "64 MiB");
        assert_eq!(Size(8 * KIB).to_string(), "8 KiB");
        assert_eq!(Size(1000).to_string(), "1000 bytes");
    }
}
