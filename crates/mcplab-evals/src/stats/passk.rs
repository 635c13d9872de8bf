//! pass@k and pass^k estimated from `n` iterations with `c` passes. pass@k — at least one of
//! k tries passes — uses the unbiased estimator 1 − C(n−c, k)/C(n, k) (Chen et al., 2021,
//! "Evaluating Large Language Models Trained on Code"); pass^k — all k tries pass, i.e.
//! consistency — uses C(c, k)/C(n, k) (Yao et al., 2024, τ-bench). Both are computed as
//! running products so large n neither overflows nor loses precision.

/// P(at least one of k tries passes); `None` when k is 0 or larger than n.
pub fn pass_at_k(n: u64, c: u64, k: u64) -> Option<f64> {
    if k == 0 || k > n || c > n {
        return None;
    }
    if n - c < k {
        return Some(1.0);
    }
    // C(n-c, k)/C(n, k) = Π_{i=n-c+1}^{n} (1 - k/i)
    let none_pass: f64 = (n - c + 1..=n).map(|i| 1.0 - k as f64 / i as f64).product();
    Some(1.0 - none_pass)
}

/// P(all k tries pass); `None` when k is 0 or larger than n.
pub fn pass_hat_k(n: u64, c: u64, k: u64) -> Option<f64> {
    if k == 0 || k > n || c > n {
        return None;
    }
    if c < k {
        return Some(0.0);
    }
    // C(c, k)/C(n, k) = Π_{i=0}^{k-1} (c - i)/(n - i)
    Some((0..k).map(|i| (c - i) as f64 / (n - i) as f64).product())
}
