//! What mcplab's own `server/discover` probe (`protocol: auto` on stdio) may cost a session.
//! The spec's backward-compatibility rule lets a client fall back to `initialize` when the
//! probe is refused or unanswered; two things made that expensive:
//!
//! - **Time** ([`DiscoverProbe`]): a 2025 server that ignores requests it does not know never
//!   answers the probe, and rmcp waited a fixed 10 s for it (longer than a short `--timeout`).
//!   When the probe is unanswered after [`GRACE`], a `ping` (allowed before `initialize`) asks
//!   whether the server is there at all; if it answers and the probe still has no answer
//!   [`SETTLE`] later, the probe is answered for it with a synthetic -32601 and rmcp falls back
//!   at once. A server that answers nothing is given up on at half the connect deadline (at
//!   most 10 s), so the fallback `initialize` keeps the other half.
//! - **Noise** ([`StderrHold`]): a server refusing the probe may log a wall of validation
//!   errors (the Python SDK 1.x writes ~95 lines). Stderr is held during the handshake; when
//!   the server turned out to reject the probe, the held lines go to the traffic view only
//!   (`--trace` shows them), else they are shown as they would have been.
//!
//! Nothing here reads or writes the wire by itself: the frame transport asks.

use std::time::Duration;

use parking_lot::Mutex;
use rmcp::model::{ClientRequest, RequestId};
use serde_json::{Value, json};
use tokio::time::Instant;

/// How long the probe may go unanswered before a `ping` checks the server is there. Not
/// shorter: a dual-era TypeScript SDK server that receives the `ping` before it answered
/// `server/discover` (Node starting on a loaded machine) answers the probe as 2026-07-28 and
/// then every later request in the 2025 shape.
pub const GRACE: Duration = Duration::from_secs(2);
/// How long after the `ping` answer the probe's own answer may still come (a server that
/// handles requests concurrently may answer the later `ping` first; on a loaded machine a
/// 2026-07-28 TypeScript server answered `server/discover` more than 250 ms after `ping`, and
/// was wrongly taken for a 2025 server).
pub const SETTLE: Duration = Duration::from_secs(1);
/// The longest the probe is waited for (rmcp's own limit).
const MAX_WAIT: Duration = Duration::from_secs(10);
/// The id of the `ping`; rmcp numbers its requests, so a string never collides.
const PING_ID: &str = "mcplab-discover-probe";

/// The probe's state, driven by the frame transport.
pub struct DiscoverProbe {
    limit: Duration,
    state: State,
}

enum State {
    /// `server/discover` not sent yet.
    Idle,
    Sent {
        id: RequestId,
        at: Instant,
        pinged: bool,
        /// When the `ping` was answered.
        alive: Option<Instant>,
    },
    /// The probe was answered for the server: its own answer, if it still comes (a slow
    /// server answers after rmcp sent `initialize`), is mcplab's to swallow, or rmcp would
    /// take it for an answer to `initialize` and fail the connection.
    GaveUp {
        id: RequestId,
    },
    Done,
}

/// What the transport should do when [`DiscoverProbe::deadline`] passes.
pub enum Step {
    /// Send this `ping` frame.
    Ping(Vec<u8>),
    /// Hand rmcp this synthetic answer to the probe (it falls back to `initialize`).
    GiveUp(Vec<u8>),
    Nothing,
}

impl DiscoverProbe {
    /// A probe for a connection whose handshake may take `connect_timeout`.
    pub fn new(connect_timeout: Duration) -> Self {
        Self {
            limit: (connect_timeout / 2).min(MAX_WAIT),
            state: State::Idle,
        }
    }

    /// Notes an outbound request: the probe starts when it is `server/discover`.
    pub fn sent(&mut self, request: &ClientRequest, id: &RequestId) {
        if matches!(self.state, State::Idle) && matches!(request, ClientRequest::DiscoverRequest(_))
        {
            self.state = State::Sent {
                id: id.clone(),
                at: Instant::now(),
                pinged: false,
                alive: None,
            };
        }
    }

    /// Notes an inbound response (or error) by its id; `true` when it is mcplab's own (the
    /// answer to the `ping`, or a probe answer that came after mcplab answered for the server)
    /// and not for rmcp.
    pub fn answered(&mut self, id: &RequestId) -> bool {
        if *id == RequestId::String(PING_ID.into()) {
            if let State::Sent { alive, .. } = &mut self.state {
                alive.get_or_insert_with(Instant::now);
            }
            return true;
        }
        match &self.state {
            State::Sent { id: probe, .. } if probe == id => self.state = State::Done,
            State::GaveUp { id: probe } if probe == id => {
                self.state = State::Done;
                return true;
            }
            _ => {}
        }
        false
    }

    /// When [`Self::step`] has something to do.
    pub fn deadline(&self) -> Option<Instant> {
        let State::Sent {
            at, pinged, alive, ..
        } = &self.state
        else {
            return None;
        };
        let hard = *at + self.limit;
        let next = match (pinged, alive) {
            (false, _) => *at + GRACE,
            (true, Some(alive)) => *alive + SETTLE,
            (true, None) => hard,
        };
        Some(next.min(hard))
    }

    /// What to do now that [`Self::deadline`] passed.
    pub fn step(&mut self, now: Instant) -> Step {
        let State::Sent {
            id,
            at,
            pinged,
            alive,
        } = &mut self.state
        else {
            return Step::Nothing;
        };
        let waited = now.duration_since(*at);
        let why = match alive {
            Some(_) => format!(
                "no answer to server/discover, though the server answered ping: it ignores \
                 requests it does not know (mcplab's probe for protocol 2026-07-28; waited {} ms)",
                waited.as_millis()
            ),
            None if waited >= self.limit => format!(
                "no answer to server/discover within {} ms (mcplab's probe for protocol \
                 2026-07-28)",
                waited.as_millis()
            ),
            None if !*pinged => {
                *pinged = true;
                let ping = json!({"jsonrpc": "2.0", "id": PING_ID, "method": "ping"});
                return Step::Ping(ping.to_string().into_bytes());
            }
            None => return Step::Nothing,
        };
        let given_up = id.clone();
        let id = serde_json::to_value(&*id).unwrap_or(Value::Null);
        self.state = State::GaveUp { id: given_up };
        let reply = json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": why}});
        Step::GiveUp(reply.to_string().into_bytes())
    }
}

/// Stderr lines held back while a handshake may turn out to be probe noise (bounded: lines
/// past [`HOLD_BYTES`] are only counted; the stderr tail keeps the last ones in any case).
pub struct StderrHold {
    held: Mutex<Option<Held>>,
}

/// The most bytes of stderr held during one handshake.
pub const HOLD_BYTES: usize = 256 * 1024;

#[derive(Default)]
struct Held {
    lines: Vec<String>,
    bytes: usize,
    dropped: usize,
}

/// The lines held until the handshake ended.
#[derive(Debug, Default, PartialEq)]
pub struct Released {
    pub lines: Vec<String>,
    /// Lines past the byte bound, not kept.
    pub dropped: usize,
}

impl StderrHold {
    /// Holding (`true`) or passing every line through.
    pub fn new(holding: bool) -> Self {
        Self {
            held: Mutex::new(holding.then(Held::default)),
        }
    }

    /// `true` when `line` was held (or counted): the caller must not show it now.
    pub fn hold(&self, line: &str) -> bool {
        let mut held = self.held.lock();
        let Some(h) = held.as_mut() else {
            return false;
        };
        if h.bytes + line.len() > HOLD_BYTES {
            h.dropped += 1;
        } else {
            h.bytes += line.len();
            h.lines.push(line.to_owned());
        }
        true
    }

    /// Stops holding and hands back what was held.
    pub fn release(&self) -> Released {
        let held = self.held.lock().take().unwrap_or_default();
        Released {
            lines: held.lines,
            dropped: held.dropped,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::{DiscoverRequest, DiscoverRequestParams, NumberOrString};

    fn discover() -> ClientRequest {
        ClientRequest::DiscoverRequest(DiscoverRequest::new(DiscoverRequestParams {}))
    }

    #[tokio::test(start_paused = true)]
    async fn an_ignored_probe_is_answered_after_a_ping() {
        let mut probe = DiscoverProbe::new(Duration::from_secs(30));
        assert!(probe.deadline().is_none());
        let id = NumberOrString::Number(0);
        probe.sent(&discover(), &id);
        let at = probe.deadline().unwrap();
        tokio::time::sleep_until(at).await;
        let Step::Ping(ping) = probe.step(Instant::now()) else {
            panic!("a ping first");
        };
        assert!(
            String::from_utf8(ping)
                .unwrap()
                .contains("\"method\":\"ping\"")
        );
        assert!(probe.answered(&NumberOrString::String(PING_ID.into())));
        let settle = probe.deadline().unwrap();
        assert_eq!(settle, Instant::now() + SETTLE);
        tokio::time::sleep_until(settle).await;
        let Step::GiveUp(reply) = probe.step(Instant::now()) else {
            panic!("then the synthetic answer");
        };
        let reply: Value = serde_json::from_slice(&reply).unwrap();
        assert_eq!(reply["id"], 0);
        assert_eq!(reply["error"]["code"], -32601);
        assert!(probe.deadline().is_none());
        // The server's own answer to the probe, late (a slow server under load, after rmcp
        // sent `initialize`): mcplab's, never rmcp's; once.
        assert!(probe.answered(&id), "a late probe answer is swallowed");
        assert!(!probe.answered(&id), "only the one answer");
        assert!(!probe.answered(&NumberOrString::Number(1)));
    }

    #[tokio::test(start_paused = true)]
    async fn an_answered_probe_needs_nothing_and_silence_ends_at_half_the_deadline() {
        let mut probe = DiscoverProbe::new(Duration::from_secs(30));
        let id = NumberOrString::Number(0);
        probe.sent(&discover(), &id);
        assert!(!probe.answered(&id));
        assert!(probe.deadline().is_none());

        let mut silent = DiscoverProbe::new(Duration::from_secs(6));
        silent.sent(&discover(), &id);
        let start = Instant::now();
        tokio::time::sleep_until(silent.deadline().unwrap()).await;
        assert!(matches!(silent.step(Instant::now()), Step::Ping(_)));
        tokio::time::sleep_until(silent.deadline().unwrap()).await;
        assert!(matches!(silent.step(Instant::now()), Step::GiveUp(_)));
        assert_eq!(Instant::now() - start, Duration::from_secs(3));
    }

    #[test]
    fn stderr_is_held_within_its_bound_until_released() {
        let hold = StderrHold::new(true);
        assert!(hold.hold("a"));
        let big = "x".repeat(HOLD_BYTES);
        assert!(hold.hold(&big));
        let released = hold.release();
        assert_eq!(released.lines, ["a"]);
        assert_eq!(released.dropped, 1);
        assert!(!hold.hold("b"), "released: lines pass");
        assert!(!StderrHold::new(false).hold("c"));
    }
}
