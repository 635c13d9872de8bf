//! Tests for "did it get worse": Fisher's exact test of one cell's drop (one-sided), the Holm
//! and Benjamini–Hochberg corrections across many cells, and a whole-run comparison that
//! treats the iterations of one case as a cluster (a case that is hard stays hard on every
//! repeat, so its iterations are not independent): the cluster-robust (sandwich) variance of a
//! pooled pass rate, and the interval that follows from its design effect.

use super::interval::{Interval, wilson_real};

/// One-sided p-value that the run's pass rate is lower than the base's: Fisher's exact test,
/// P(X ≤ run_passes) for the hypergeometric with both sides' margins. 1 when a side is empty.
pub(crate) fn fisher_drop(base_passes: u64, base_n: u64, run_passes: u64, run_n: u64) -> f64 {
    if base_n == 0 || run_n == 0 || base_passes > base_n || run_passes > run_n {
        return 1.0;
    }
    let total = base_n + run_n;
    let passes = base_passes + run_passes;
    let lo = passes.saturating_sub(base_n);
    let hi = passes.min(run_n);
    let p = |x: u64| {
        (ln_choose(passes, x) + ln_choose(total - passes, run_n - x) - ln_choose(total, run_n))
            .exp()
    };
    let all: f64 = (lo..=hi).map(p).sum();
    let tail: f64 = (lo..=run_passes.min(hi)).map(p).sum();
    (tail / all).clamp(0.0, 1.0)
}

fn ln_choose(n: u64, k: u64) -> f64 {
    ln_factorial(n) - ln_factorial(k) - ln_factorial(n - k)
}

fn ln_factorial(n: u64) -> f64 {
    (2..=n).map(|i| (i as f64).ln()).sum()
}

/// Holm's step-down adjusted p-values (controls the chance of any false alarm).
pub(crate) fn holm(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|a, b| p[*a].total_cmp(&p[*b]));
    let mut out = vec![1.0; m];
    let mut running: f64 = 0.0;
    for (rank, &i) in order.iter().enumerate() {
        running = running.max(((m - rank) as f64 * p[i]).min(1.0));
        out[i] = running;
    }
    out
}

/// Benjamini–Hochberg adjusted p-values (controls the expected share of false alarms among
/// the cells flagged).
pub(crate) fn benjamini_hochberg(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|a, b| p[*b].total_cmp(&p[*a]));
    let mut out = vec![1.0; m];
    let mut running: f64 = 1.0;
    for (k, &i) in order.iter().enumerate() {
        let rank = m - k;
        running = running.min((p[i] * m as f64 / rank as f64).min(1.0));
        out[i] = running;
    }
    out
}

/// A pooled pass rate over clusters `(passes, n)` with its cluster-robust standard error.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Clustered {
    pub(crate) rate: f64,
    pub(crate) se: f64,
    pub(crate) n: u64,
    pub(crate) clusters: usize,
}

/// The pooled rate of `clusters` (`None` without a completed iteration). With one cluster the
/// standard error is the binomial one: there is nothing to estimate the clustering from.
pub(crate) fn clustered(clusters: &[(u64, u64)]) -> Option<Clustered> {
    let n: u64 = clusters.iter().map(|c| c.1).sum();
    if n == 0 {
        return None;
    }
    let passes: u64 = clusters.iter().map(|c| c.0).sum();
    let rate = passes as f64 / n as f64;
    let k = clusters.iter().filter(|c| c.1 > 0).count();
    let binomial = rate * (1.0 - rate) / n as f64;
    let variance = if k < 2 {
        binomial
    } else {
        let sum: f64 = clusters
            .iter()
            .map(|(x, m)| (*x as f64 - rate * *m as f64).powi(2))
            .sum();
        let sandwich = k as f64 / (k as f64 - 1.0) * sum / (n as f64).powi(2);
        // Clustering does not make a pooled rate more certain than independent trials.
        sandwich.max(binomial)
    };
    Some(Clustered {
        rate,
        se: variance.sqrt(),
        n,
        clusters: k,
    })
}

/// The Wilson interval at the effective sample size (n over the design effect): the clustered
/// counterpart of [`wilson`](super::wilson), equal to it when the clusters are no more alike
/// than chance.
pub(crate) fn clustered_interval(c: &Clustered, z: f64) -> Option<Interval> {
    let binomial = c.rate * (1.0 - c.rate) / c.n as f64;
    let deff = if binomial > 0.0 {
        (c.se * c.se / binomial).max(1.0)
    } else {
        1.0
    };
    let n_eff = (c.n as f64 / deff).max(1.0);
    let x_eff = c.rate * n_eff;
    wilson_real(x_eff, n_eff, z)
}

/// Run minus base pooled over clusters: the difference, its 95 % interval and the one-sided
/// p-value of a drop (normal approximation on the cluster-robust errors).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct ClusteredDifference {
    pub(crate) difference: f64,
    pub(crate) interval: Interval,
    pub(crate) p_drop: f64,
}

pub(crate) fn clustered_difference(
    base: &[(u64, u64)],
    run: &[(u64, u64)],
    z: f64,
) -> Option<ClusteredDifference> {
    let (b, r) = (clustered(base)?, clustered(run)?);
    let difference = r.rate - b.rate;
    let se = (b.se * b.se + r.se * r.se).sqrt();
    let p_drop = if se > 0.0 {
        normal_cdf(difference / se)
    } else if difference < 0.0 {
        0.0
    } else {
        1.0
    };
    Some(ClusteredDifference {
        difference,
        interval: Interval {
            low: (difference - z * se).max(-1.0),
            high: (difference + z * se).min(1.0),
        },
        p_drop,
    })
}

/// The standard normal distribution function.
pub(crate) fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// The complementary error function (Numerical Recipes' Chebyshev fit, |error| < 1.2e-7).
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 { r } else { 2.0 - r }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::wilson;

    #[test]
    fn fisher_matches_r() {
        // R: fisher.test(matrix(c(9, 1, 3, 7), 2), alternative = "greater")$p.value = 0.009883
        // (base 9/10 passes, run 3/10: the run is lower).
        assert!((fisher_drop(9, 10, 3, 10) - 0.009_883).abs() < 1e-5);
        // Equal rates: far from significant. By hand, the hypergeometric tail
        // Σ_{x=4..7} C(14,x)·C(6,10−x) / C(20,10) = 126698 / 184756.
        assert!((fisher_drop(7, 10, 7, 10) - 126_698.0 / 184_756.0).abs() < 1e-12);
        assert_eq!(fisher_drop(0, 0, 3, 10), 1.0);
    }

    #[test]
    fn corrections_match_r_p_adjust() {
        let p = [0.01, 0.04, 0.03, 0.005];
        // R: p.adjust(c(.01,.04,.03,.005), "holm") = 0.03 0.06 0.06 0.02
        let h = holm(&p);
        for (a, b) in h.iter().zip([0.03, 0.06, 0.06, 0.02]) {
            assert!((a - b).abs() < 1e-12, "{h:?}");
        }
        // R: p.adjust(c(.01,.04,.03,.005), "BH") = 0.02 0.04 0.04 0.02
        let bh = benjamini_hochberg(&p);
        for (a, b) in bh.iter().zip([0.02, 0.04, 0.04, 0.02]) {
            assert!((a - b).abs() < 1e-12, "{bh:?}");
        }
    }

    #[test]
    fn normal_cdf_is_accurate() {
        assert!((normal_cdf(0.0) - 0.5).abs() < 1e-7);
        assert!((normal_cdf(-1.959_963_984_540_054) - 0.025).abs() < 1e-6);
        assert!((normal_cdf(1.644_853_626_951) - 0.95).abs() < 1e-6);
    }

    #[test]
    fn clustering_widens_the_interval_only_when_cases_differ() {
        // Ten cases of 10 iterations, each case all-pass or all-fail: the run is really 10 draws.
        let split: Vec<(u64, u64)> = (0..10).map(|i| (if i < 7 { 10 } else { 0 }, 10)).collect();
        let c = clustered(&split).unwrap();
        let wide = clustered_interval(&c, 1.96).unwrap();
        let naive = wilson(70, 100, 1.96).unwrap();
        assert!(wide.low < naive.low - 0.1, "{wide:?} vs {naive:?}");
        // Every case at 7/10: no more alike than chance, the interval is the binomial one.
        let even: Vec<(u64, u64)> = (0..10).map(|_| (7, 10)).collect();
        let c = clustered(&even).unwrap();
        let same = clustered_interval(&c, 1.96).unwrap();
        assert!((same.low - naive.low).abs() < 1e-9, "{same:?} vs {naive:?}");
    }
}
