//! The wall clock as every record stamps it: milliseconds since the Unix epoch. One helper so
//! traffic frames, tasks, OAuth records, chat turns and CLI records agree on the unit and on
//! what a clock before 1970 gives (0, rather than a panic). It keeps no state.

use std::time::{SystemTime, UNIX_EPOCH};

/// Milliseconds since the Unix epoch (0 when the system clock is set before it).
pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    #[test]
    fn it_is_milliseconds_after_2020() {
        // 2020-01-01 in ms; seconds or microseconds would be off by 1000×.
        let now = super::now_ms();
        assert!(
            now > 1_577_836_800_000 && now < 1_577_836_800_000 * 100,
            "{now}"
        );
    }
}
