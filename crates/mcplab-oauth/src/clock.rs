//! `Clock`: the wall clock an [`OAuthHost`](super::OAuthHost) decides token expiry by. It is a
//! value handed to the host, not a global: the system clock in the product, and in tests one
//! that can be moved forward, so a token expires without the test waiting in real time.
//! It does not stamp tokens (they carry the system time they were obtained at); moving the
//! clock forward makes every token look that much older.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

#[derive(Clone, Debug, Default)]
pub struct Clock {
    /// How far this clock runs ahead of the system clock; `None`: the system clock itself.
    ahead_ms: Option<Arc<AtomicU64>>,
}

impl Clock {
    /// The system clock.
    pub fn system() -> Self {
        Self::default()
    }

    /// The system clock plus an offset that [`Clock::advance`] moves forward (for tests).
    pub fn adjustable() -> Self {
        Self {
            ahead_ms: Some(Arc::default()),
        }
    }

    /// Moves an adjustable clock (and its clones) forward; the system clock cannot be moved.
    pub fn advance(&self, by: Duration) {
        if let Some(ahead) = &self.ahead_ms {
            let by = u64::try_from(by.as_millis()).unwrap_or(u64::MAX);
            ahead.fetch_add(by, Ordering::SeqCst);
        }
    }

    /// Milliseconds since the epoch, as this clock reads them.
    pub fn now_ms(&self) -> u64 {
        let ahead = self
            .ahead_ms
            .as_ref()
            .map_or(0, |a| a.load(Ordering::SeqCst));
        super::now_ms().saturating_add(ahead)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_adjustable_clock_moves_forward_with_its_clones_and_the_system_one_does_not() {
        let clock = Clock::adjustable();
        let clone = clock.clone();
        let before = clock.now_ms();
        clone.advance(Duration::from_secs(3600));
        assert!(clock.now_ms() >= before + 3_600_000);
        let system = Clock::system();
        system.advance(Duration::from_secs(3600));
        assert!(system.now_ms() < before + 3_600_000);
    }
}
