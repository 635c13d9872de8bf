//! Confidence intervals for a pass rate (Wilson score interval) and for the difference of two
//! pass rates (Newcombe's hybrid score interval, his method 10). Both behave at 0 % and 100 %
//! and with small samples, where the textbook normal approximation gives nonsense.

/// The 0.975 quantile of the standard normal distribution (two-sided 95 %).
pub const Z95: f64 = 1.959_963_984_540_054;

pub use mcplab_protocol::evals::Interval;

/// Wilson score interval for `successes` out of `n` (`None` when `n` is 0).
pub fn wilson(successes: u64, n: u64, z: f64) -> Option<Interval> {
    if n == 0 || successes > n {
        return None;
    }
    wilson_real(successes as f64, n as f64, z)
}

/// The Wilson interval for a real-valued count `x` out of `n` (an effective sample size, as
/// the clustered interval has); `None` when `n` is not positive.
pub(crate) fn wilson_real(x: f64, n: f64, z: f64) -> Option<Interval> {
    if n <= 0.0 {
        return None;
    }
    let p = x / n;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    Some(Interval {
        low: (centre - half).max(0.0),
        high: (centre + half).min(1.0),
    })
}

/// Newcombe's hybrid score interval for `p1 - p2` (`x1/n1` minus `x2/n2`), from the two
/// Wilson intervals (`None` when either sample is empty).
pub fn newcombe(x1: u64, n1: u64, x2: u64, n2: u64, z: f64) -> Option<Interval> {
    let (w1, w2) = (wilson(x1, n1, z)?, wilson(x2, n2, z)?);
    let (p1, p2) = (x1 as f64 / n1 as f64, x2 as f64 / n2 as f64);
    let d = p1 - p2;
    let low = d - ((p1 - w1.low).powi(2) + (w2.high - p2).powi(2)).sqrt();
    let high = d + ((w1.high - p1).powi(2) + (p2 - w2.low).powi(2)).sqrt();
    Some(Interval {
        low: low.max(-1.0),
        high: high.min(1.0),
    })
}
