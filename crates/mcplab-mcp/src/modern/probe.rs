//! What mcplab's own `server/discover` probe (`protocol: auto` on stdio) may cost a session.
//! The spec's backward-compatibility rule lets a client fall back to `initialize` when the
//! probe is refused or unanswered; three things made that expensive:
//!
//! - **Time** ([`DiscoverProbe`]): a 2025 server that ignores requests it does not know never
//!   answers the probe, and rmcp waited a fixed 10 s for it (longer than a short `--timeout`).
//!   Nothing else is ever sent on the probed session before the probe's answer (a `ping` there
//!   turned a dual-era TypeScript SDK 2.x server to the 2025 shape after it had answered the
//!   probe as 2026-07-28). Instead the stdin pipe tells whether the server has read the probe
//!   ([`StdinGauge`]): a server that read it and has not answered [`SETTLE`] later ignores it;
//!   one that reads nothing is given up on at half the connect deadline (at most 8 s). Either
//!   way the probe is given up ([`Step::GiveUp`]): the transport ends the session, and the
//!   manager starts the server again (a fresh process never saw the probe). After a probe the
//!   server read and ignored, it asks `initialize`. After one it never read (the server was
//!   still starting: heavy imports on a busy machine) it asks `server/discover` alone, with
//!   nearly the whole connect deadline ([`DiscoverProbe::patient`]; rmcp sets no deadline of
//!   its own there), so a slow 2026-07-28 server is not taken for a 2025 one; a refusal there
//!   starts it a third time with `initialize`, and a second start that read nothing either
//!   ends the connect.
//! - **A second start** ([`DiscoverProbe::judge`]): a lax 2025 server answers the probe with a
//!   result that is not a discover result (often `{}`); rmcp would end the handshake, and the
//!   manager start the server again. The answer is turned into a refusal (-32601) instead, so
//!   rmcp falls back to `initialize` on the same process.
//! - **Noise** ([`StderrHold`]): a server refusing the probe may log a wall of validation
//!   errors (the Python SDK 1.x writes ~95 lines). Stderr is held during the handshake; when
//!   the server turned out to reject the probe, the held lines go to the traffic view only
//!   (`--trace` shows them), else they are shown as they would have been.
//!
//! Nothing here reads or writes the wire by itself: the frame transport asks.

use std::os::fd::OwnedFd;
use std::time::Duration;

use parking_lot::Mutex;
use rmcp::model::{ClientRequest, RequestId};
use serde_json::{Value, json};
use tokio::time::Instant;

/// How long after the server read the probe its answer may still come. A server reads its
/// stdin when it is ready to handle what it reads, so a slow start (Node or Python loading on
/// a busy machine) is not counted; handling one request takes far less.
pub const SETTLE: Duration = Duration::from_secs(2);
/// How often the stdin pipe is looked at while the probe is unanswered (a pipe read has no
/// event to wait on).
const LOOK_EVERY: Duration = Duration::from_millis(50);
/// The longest the probe is waited for (below rmcp's own 10 s, after which it would fall back
/// on the probed session).
const MAX_WAIT: Duration = Duration::from_secs(8);

/// A second handle on a stdio server's stdin pipe (the write end), which tells how many bytes
/// the server has not read yet. It keeps the pipe open: drop it once the probe is answered,
/// or the server would not see its stdin end.
pub struct StdinGauge(OwnedFd);

impl StdinGauge {
    pub fn new(fd: OwnedFd) -> Self {
        Self(fd)
    }

    /// Bytes written to the server's stdin that it has not read; `None` when that cannot be
    /// told (not a pipe).
    fn unread(&self) -> Option<u64> {
        rustix::io::ioctl_fionread(&self.0).ok()
    }
}

/// The probe's state, driven by the frame transport.
pub struct DiscoverProbe {
    limit: Duration,
    gauge: Option<StdinGauge>,
    state: State,
}

enum State {
    /// `server/discover` not sent yet.
    Idle,
    Sent {
        id: RequestId,
        at: Instant,
        /// When the server was first seen to have read the probe.
        read: Option<Instant>,
        /// When to look at the pipe again.
        look: Instant,
    },
    Done,
}

/// What the transport should do when [`DiscoverProbe::deadline`] passes.
pub enum Step {
    /// End the session: the probe is unanswered, for this reason. The manager starts the
    /// server again: with `initialize`, or when the server never read the probe (`unread`:
    /// it was still starting) with a patient `server/discover`.
    GiveUp {
        why: String,
        unread: bool,
    },
    Nothing,
}

impl DiscoverProbe {
    /// A probe for a connection whose handshake may take `connect_timeout`; `gauge` watches
    /// the server's stdin (without one, only silence ends the wait).
    pub fn new(connect_timeout: Duration, gauge: Option<StdinGauge>) -> Self {
        Self {
            limit: (connect_timeout / 2).min(MAX_WAIT),
            gauge,
            state: State::Idle,
        }
    }

    /// The probe of a second start after a first one never read it: `server/discover` alone
    /// (rmcp sets no deadline of its own there), so a slow start may take nine tenths of the
    /// connect deadline — short of it, so that a server that reads nothing is given up by the
    /// probe (which knows why) rather than by the deadline; a server that reads the probe and
    /// stays silent is still given up [`SETTLE`] later.
    pub fn patient(connect_timeout: Duration, gauge: Option<StdinGauge>) -> Self {
        Self {
            limit: connect_timeout * 9 / 10,
            gauge,
            state: State::Idle,
        }
    }

    /// Notes an outbound request: the probe starts when it is `server/discover`.
    pub fn sent(&mut self, request: &ClientRequest, id: &RequestId) {
        if matches!(self.state, State::Idle) && matches!(request, ClientRequest::DiscoverRequest(_))
        {
            let now = Instant::now();
            self.state = State::Sent {
                id: id.clone(),
                at: now,
                read: None,
                look: now + LOOK_EVERY,
            };
        }
    }

    /// Judges an inbound frame: when it answers the probe, the probe is over; when that answer
    /// is a result that is not a discover result (a lax 2025 server's `{}`), the refusal to
    /// hand rmcp instead of it, so it falls back to `initialize` on this process.
    pub fn judge(&mut self, frame: &[u8]) -> Option<Vec<u8>> {
        let State::Sent { id, .. } = &self.state else {
            return None;
        };
        let value: Value = serde_json::from_slice(frame).ok()?;
        let probe = serde_json::to_value(id).ok()?;
        if value.get("id") != Some(&probe) {
            return None;
        }
        self.finish();
        let result = value.get("result")?;
        if result.get("supportedVersions").is_some() {
            return None;
        }
        let why = format!(
            "server/discover got a result that is not a discover result: {}",
            super::super::wire::excerpt(result.to_string().as_bytes(), 120)
        );
        let reply =
            json!({"jsonrpc": "2.0", "id": probe, "error": {"code": -32601, "message": why}});
        Some(reply.to_string().into_bytes())
    }

    /// Whether the probe is out and the server has not been seen to read it (known only
    /// through the stdin gauge).
    pub fn unread_so_far(&self) -> bool {
        self.gauge.is_some() && matches!(self.state, State::Sent { read: None, .. })
    }

    /// The probe is over: the gauge no longer holds the server's stdin open.
    fn finish(&mut self) {
        self.state = State::Done;
        self.gauge = None;
    }

    /// When [`Self::step`] has something to do.
    pub fn deadline(&self) -> Option<Instant> {
        let State::Sent { at, read, look, .. } = &self.state else {
            return None;
        };
        let hard = *at + self.limit;
        let next = match (read, &self.gauge) {
            (Some(read), _) => *read + SETTLE,
            (None, Some(_)) => *look,
            (None, None) => hard,
        };
        Some(next.min(hard))
    }

    /// What to do now that [`Self::deadline`] passed.
    pub fn step(&mut self, now: Instant) -> Step {
        let unread = self.gauge.as_ref().and_then(StdinGauge::unread);
        let gauged = self.gauge.is_some();
        let State::Sent { at, read, look, .. } = &mut self.state else {
            return Step::Nothing;
        };
        let waited = now.duration_since(*at).as_millis();
        // Known only through the pipe: without it, silence says nothing about a slow start.
        let never_read = gauged && read.is_none();
        let why = match read {
            Some(read) if now >= *read + SETTLE => format!(
                "no answer to server/discover {} ms after the server read it: it ignores \
                 requests it does not know (mcplab's probe for protocol 2026-07-28)",
                now.duration_since(*read).as_millis()
            ),
            _ if now >= *at + self.limit => format!(
                "no answer to server/discover within {waited} ms, and the server read nothing \
                 (mcplab's probe for protocol 2026-07-28)"
            ),
            Some(_) => return Step::Nothing,
            None => {
                if unread == Some(0) {
                    *read = Some(now);
                }
                *look = now + LOOK_EVERY;
                return Step::Nothing;
            }
        };
        self.finish();
        Step::GiveUp {
            why,
            unread: never_read,
        }
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

    fn gauged(connect: Duration) -> (DiscoverProbe, std::io::PipeReader, std::io::PipeWriter) {
        let (reader, writer) = std::io::pipe().unwrap();
        let fd = std::os::fd::AsFd::as_fd(&writer)
            .try_clone_to_owned()
            .unwrap();
        let probe = DiscoverProbe::new(connect, Some(StdinGauge::new(fd)));
        (probe, reader, writer)
    }

    #[tokio::test(start_paused = true)]
    async fn a_probe_read_and_ignored_is_given_up_after_the_settle_time() {
        use std::io::{Read, Write};
        let (mut probe, mut server_stdin, mut client) = gauged(Duration::from_secs(30));
        assert!(probe.deadline().is_none());
        let id = NumberOrString::Number(0);
        client
            .write_all(b"{\"method\":\"server/discover\"}\n")
            .unwrap();
        probe.sent(&discover(), &id);
        // Unread: the server is starting; looking at the pipe is all that happens.
        for _ in 0..100 {
            tokio::time::sleep_until(probe.deadline().unwrap()).await;
            assert!(matches!(probe.step(Instant::now()), Step::Nothing));
        }
        let mut line = [0u8; 29];
        server_stdin.read_exact(&mut line).unwrap();
        tokio::time::sleep_until(probe.deadline().unwrap()).await;
        assert!(matches!(probe.step(Instant::now()), Step::Nothing));
        let read_at = Instant::now();
        tokio::time::sleep_until(probe.deadline().unwrap()).await;
        assert_eq!(Instant::now(), read_at + SETTLE);
        let Step::GiveUp { why, .. } = probe.step(Instant::now()) else {
            panic!("given up");
        };
        assert!(why.contains("after the server read it"), "{why}");
        assert!(probe.deadline().is_none());
        assert!(probe.gauge.is_none(), "the pipe is no longer held open");
    }

    #[tokio::test(start_paused = true)]
    async fn an_answered_probe_needs_nothing_and_silence_ends_at_half_the_deadline() {
        let id = NumberOrString::Number(0);
        let (mut probe, _stdin, _client) = gauged(Duration::from_secs(30));
        probe.sent(&discover(), &id);
        let answer = br#"{"jsonrpc":"2.0","id":0,"result":{"supportedVersions":["2026-07-28"]}}"#;
        assert!(
            probe
                .judge(br#"{"jsonrpc":"2.0","method":"notifications/message"}"#)
                .is_none()
        );
        assert!(probe.deadline().is_some());
        assert!(probe.judge(answer).is_none(), "a discover result passes");
        assert!(probe.deadline().is_none());
        assert!(probe.gauge.is_none());

        let mut silent = DiscoverProbe::new(Duration::from_secs(6), None);
        silent.sent(&discover(), &id);
        let start = Instant::now();
        tokio::time::sleep_until(silent.deadline().unwrap()).await;
        // Without the pipe to look at, silence is not known to be a slow start.
        assert!(matches!(
            silent.step(Instant::now()),
            Step::GiveUp { unread: false, .. }
        ));
        assert_eq!(Instant::now() - start, Duration::from_secs(3));
    }

    #[test]
    fn a_lax_answer_becomes_a_refusal() {
        let mut probe = DiscoverProbe::new(Duration::from_secs(30), None);
        let id = NumberOrString::String("a".into());
        probe.sent(&discover(), &id);
        let reply = probe
            .judge(br#"{"jsonrpc":"2.0","id":"a","result":{}}"#)
            .unwrap();
        let reply: Value = serde_json::from_slice(&reply).unwrap();
        assert_eq!(reply["id"], "a");
        assert_eq!(reply["error"]["code"], -32601);
        assert!(
            probe
                .judge(br#"{"jsonrpc":"2.0","id":"a","result":{}}"#)
                .is_none()
        );
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
