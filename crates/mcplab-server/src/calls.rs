//! The tool calls made through `POST /api/servers/{name}/tools/call` with a `callId`, owned by
//! the server rather than by the HTTP request that started them: the route runs the call in a
//! task of its own, so a reload or a closed tab does not end it, and a page that comes back
//! (or another tab) finds it here — while it runs with its last progress, for a few minutes
//! after it ended with its outcome — waits for it, or cancels it.
//!
//! Bounded: at most [`MAX_ENDED`] ended calls are kept, each for [`KEEP_ENDED`], and an outcome
//! over [`MAX_KEPT_OUTCOME`] bytes is not kept (the view says so). This module sends no MCP
//! request and publishes no event; the route does both.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use mcplab_protocol::api::{CallOutcome, CallProgressView, ToolCallView};
use mcplab_protocol::clock::now_ms;
use parking_lot::Mutex;
use serde_json::Value;
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

/// Ended calls kept for a page to pick up.
pub(crate) const MAX_ENDED: usize = 32;
/// How long an ended call is kept.
pub(crate) const KEEP_ENDED: Duration = Duration::from_secs(10 * 60);
/// The largest outcome (as JSON) kept for a page to pick up; the request that started the call
/// still gets any size.
pub(crate) const MAX_KEPT_OUTCOME: usize = 1024 * 1024;

type Key = (String, String);

struct Entry {
    view: ToolCallView,
    /// Shown in `GET /api/calls` (the Tools page's calls; an app's calls are not).
    listed: bool,
    cancel: CancellationToken,
    ended: watch::Sender<bool>,
    ended_at: Option<Instant>,
}

/// What [`Calls::begin`] hands the route: the token that cancels the call.
pub struct Begun {
    pub cancel: CancellationToken,
}

#[derive(Default)]
pub struct Calls {
    entries: Mutex<HashMap<Key, Entry>>,
}

impl Calls {
    /// Registers a call about to start; `None` while a call with that id runs. `listed`:
    /// whether `GET /api/calls` shows it.
    pub fn begin(
        &self,
        server: &str,
        call_id: &str,
        tool: &str,
        arguments: &Value,
        listed: bool,
    ) -> Option<Begun> {
        let key = (server.to_owned(), call_id.to_owned());
        let mut entries = self.entries.lock();
        if entries.get(&key).is_some_and(|e| e.ended_at.is_none()) {
            return None;
        }
        let cancel = CancellationToken::new();
        let view = ToolCallView {
            server: server.to_owned(),
            call_id: call_id.to_owned(),
            tool: tool.to_owned(),
            arguments: arguments.clone(),
            started_at_ms: now_ms(),
            progress: None,
            outcome: None,
            outcome_dropped: false,
            ended_at_ms: None,
        };
        let (ended, _) = watch::channel(false);
        let entry = Entry {
            view,
            listed,
            cancel: cancel.clone(),
            ended,
            ended_at: None,
        };
        entries.insert(key, entry);
        Some(Begun { cancel })
    }

    /// The call's newest progress.
    pub fn progress(&self, server: &str, call_id: &str, progress: CallProgressView) {
        let key = (server.to_owned(), call_id.to_owned());
        if let Some(e) = self.entries.lock().get_mut(&key) {
            e.view.progress = Some(progress);
        }
    }

    /// The call ended with `outcome`; kept (when small enough) for a while.
    pub fn end(&self, server: &str, call_id: &str, outcome: &CallOutcome) {
        let key = (server.to_owned(), call_id.to_owned());
        let size = serde_json::to_vec(outcome).map_or(usize::MAX, |v| v.len());
        let mut entries = self.entries.lock();
        if let Some(e) = entries.get_mut(&key) {
            if size <= MAX_KEPT_OUTCOME {
                e.view.outcome = Some(outcome.clone());
            } else {
                e.view.outcome_dropped = true;
            }
            e.view.ended_at_ms = Some(now_ms());
            e.ended_at = Some(Instant::now());
            e.ended.send_replace(true);
        }
        prune(&mut entries, Instant::now());
    }

    /// Cancels a running call; false when none runs under that id.
    pub fn cancel(&self, server: &str, call_id: &str) -> bool {
        let key = (server.to_owned(), call_id.to_owned());
        match self.entries.lock().get(&key) {
            Some(e) if e.ended_at.is_none() => {
                e.cancel.cancel();
                true
            }
            _ => false,
        }
    }

    /// The listed calls, oldest first.
    pub fn list(&self) -> Vec<ToolCallView> {
        let mut entries = self.entries.lock();
        prune(&mut entries, Instant::now());
        let mut out: Vec<_> = entries
            .values()
            .filter(|e| e.listed)
            .map(|e| e.view.clone())
            .collect();
        out.sort_by_key(|v| v.started_at_ms);
        out
    }

    /// The call as it is now, or once it ended when that is within `wait`; `None` for a call
    /// not known.
    pub async fn wait(&self, server: &str, call_id: &str, wait: Duration) -> Option<ToolCallView> {
        let key = (server.to_owned(), call_id.to_owned());
        let mut ended = self.entries.lock().get(&key)?.ended.subscribe();
        // A timeout or a dropped entry (pruned) both end the wait; the view says which.
        let _ = tokio::time::timeout(wait, ended.wait_for(|done| *done)).await;
        self.entries.lock().get(&key).map(|e| e.view.clone())
    }
}

/// Forgets ended calls older than [`KEEP_ENDED`] and all but the newest [`MAX_ENDED`].
fn prune(entries: &mut HashMap<Key, Entry>, now: Instant) {
    entries.retain(|_, e| {
        e.ended_at
            .is_none_or(|t| now.duration_since(t) < KEEP_ENDED)
    });
    let mut ended: Vec<(Instant, Key)> = entries
        .iter()
        .filter_map(|(k, e)| e.ended_at.map(|t| (t, k.clone())))
        .collect();
    if ended.len() > MAX_ENDED {
        ended.sort();
        for (_, k) in &ended[..ended.len() - MAX_ENDED] {
            entries.remove(k);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn done(ms: u64) -> CallOutcome {
        CallOutcome {
            result: Some(json!({"content": []})),
            error: None,
            duration_ms: ms,
            requests: Vec::new(),
        }
    }

    #[tokio::test]
    async fn a_call_is_listed_while_it_runs_and_after_with_its_outcome() {
        let calls = Calls::default();
        calls
            .begin("s", "c1", "slow", &json!({"n": 1}), true)
            .unwrap();
        calls.begin("s", "app", "x", &json!({}), false).unwrap();
        assert!(calls.begin("s", "c1", "slow", &json!({}), true).is_none());
        calls.progress(
            "s",
            "c1",
            CallProgressView {
                progress: 2.0,
                total: Some(5.0),
                message: None,
            },
        );
        let listed = calls.list();
        assert_eq!(listed.len(), 1, "an app's call is not listed");
        assert_eq!(listed[0].progress.as_ref().unwrap().progress, 2.0);
        assert!(listed[0].outcome.is_none());
        let waiter = calls.wait("s", "c1", Duration::from_secs(5));
        let (view, ()) = tokio::join!(waiter, async { calls.end("s", "c1", &done(7)) });
        assert_eq!(view.unwrap().outcome.unwrap().duration_ms, 7);
        assert!(
            !calls.cancel("s", "c1"),
            "an ended call cannot be cancelled"
        );
        assert!(
            calls.begin("s", "c1", "slow", &json!({}), true).is_some(),
            "the id may be used again"
        );
    }

    #[tokio::test]
    async fn a_wait_on_a_running_call_ends_at_its_deadline_and_an_unknown_call_is_none() {
        let calls = Calls::default();
        calls.begin("s", "c", "t", &json!({}), true).unwrap();
        let v = calls
            .wait("s", "c", Duration::from_millis(10))
            .await
            .unwrap();
        assert!(v.ended_at_ms.is_none());
        assert!(
            calls
                .wait("s", "nope", Duration::from_millis(10))
                .await
                .is_none()
        );
        assert!(calls.cancel("s", "c"));
    }

    #[test]
    fn ended_calls_are_bounded_in_number_and_a_large_outcome_is_not_kept() {
        let calls = Calls::default();
        for i in 0..MAX_ENDED + 5 {
            let id = i.to_string();
            calls.begin("s", &id, "t", &json!({}), true).unwrap();
            calls.end("s", &id, &done(i as u64));
        }
        let listed = calls.list();
        assert_eq!(listed.len(), MAX_ENDED);
        calls.begin("s", "big", "t", &json!({}), true).unwrap();
        let mut big = done(1);
        big.result = Some(json!({"text": "x".repeat(MAX_KEPT_OUTCOME)}));
        calls.end("s", "big", &big);
        let v = calls
            .list()
            .into_iter()
            .find(|v| v.call_id == "big")
            .unwrap();
        assert!(v.outcome.is_none() && v.outcome_dropped);
    }
}
