//! An iteration's deadline that stands still while the run waits out a provider's rate limit.
//! The per-iteration timeout measures the model and the servers under test; a `429` with
//! `retry-after` says nothing about either (it depends on what else shares the key), so the
//! retry layer pauses the deadline for each wait it makes. The waits themselves stay bounded by
//! the run's retry budget and policy (`retry.rs`: attempts per step, longest wait), so an
//! iteration still cannot hang. It owns only the clock: it neither waits on providers nor
//! cancels anything.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;
// Tokio's clock, so a paused test clock moves it too.
use tokio::time::Instant;

#[derive(Debug, Clone, Copy, Default)]
struct Paused {
    /// Time spent paused in waits that ended.
    total: Duration,
    /// When the current pause began (waits may overlap: `depth` counts them).
    since: Option<Instant>,
    depth: u32,
}

/// `budget` of unpaused time from when it was made.
#[derive(Debug)]
pub(crate) struct Deadline {
    start: Instant,
    budget: Duration,
    state: watch::Sender<Paused>,
}

impl Deadline {
    pub(crate) fn new(budget: Duration) -> Arc<Self> {
        Arc::new(Self {
            start: Instant::now(),
            budget,
            state: watch::Sender::new(Paused::default()),
        })
    }

    /// Stops the clock until the guard is dropped.
    pub(crate) fn pause(self: &Arc<Self>) -> PauseGuard {
        self.state.send_modify(|p| {
            if p.depth == 0 {
                p.since = Some(Instant::now());
            }
            p.depth += 1;
        });
        PauseGuard(self.clone())
    }

    /// Time paused so far (the current pause included).
    #[cfg(test)]
    pub(crate) fn paused(&self) -> Duration {
        let p = *self.state.borrow();
        p.total + p.since.map_or(Duration::ZERO, |s| s.elapsed())
    }

    /// Resolves once the budget of unpaused time is spent.
    pub(crate) async fn passed(&self) {
        let mut rx = self.state.subscribe();
        loop {
            let p = *rx.borrow_and_update();
            if p.since.is_some() {
                // Paused: nothing can expire until the pause ends. The sender lives in
                // `self`, so `changed` only fails if `self` is gone, which it cannot be here.
                let _ = rx.changed().await;
                continue;
            }
            let at = self.start + self.budget + p.total;
            tokio::select! {
                _ = tokio::time::sleep_until(at) => return,
                _ = rx.changed() => {}
            }
        }
    }
}

/// A pause in progress; dropping it starts the clock again.
pub(crate) struct PauseGuard(Arc<Deadline>);

impl Drop for PauseGuard {
    fn drop(&mut self) {
        self.0.state.send_modify(|p| {
            p.depth = p.depth.saturating_sub(1);
            if p.depth == 0
                && let Some(since) = p.since.take()
            {
                p.total += since.elapsed();
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn a_pause_moves_the_deadline_by_its_length() {
        let d = Deadline::new(Duration::from_secs(1));
        let guard = d.pause();
        // Paused for 5 s of (virtual) time: the 1 s budget is untouched.
        let early = tokio::time::timeout(Duration::from_secs(5), d.passed()).await;
        assert!(early.is_err(), "the deadline passed while paused");
        drop(guard);
        assert!(d.paused() >= Duration::from_secs(5));
        let late = tokio::time::timeout(Duration::from_millis(900), d.passed()).await;
        assert!(late.is_err(), "the paused time was counted");
        tokio::time::timeout(Duration::from_millis(200), d.passed())
            .await
            .expect("the deadline passes once the budget is spent");
    }
}
