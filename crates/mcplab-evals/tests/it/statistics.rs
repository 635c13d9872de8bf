//! Statistics against values computed independently of this code: published reference values
//! (Newcombe 1998) and hand-worked binomial arithmetic written out in the comments.

use mcplab_evals::run::{CaseInfo, IterationRecord, Metrics, RunRecord, Unit};
use mcplab_evals::stats::{Z95, newcombe, pass_at_k, pass_hat_k, percentile, summarize, wilson};
use mcplab_evals::verdict::Outcome;

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

/// Newcombe R.G. (1998) "Two-sided confidence intervals for the single proportion:
/// comparison of seven methods", Statistics in Medicine 17:857–872, Table I, method 3 (score).
#[test]
fn wilson_matches_newcombe_1998_table() {
    let table = [
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
        (29, 29, 0.8830, 1.0),
    ];
    for (x, n, lo, hi) in table {
        let w = wilson(x, n, Z95).unwrap();
        assert!(
            close(w.low, lo, 5e-5) && close(w.high, hi, 5e-5),
            "{x}/{n}: {w:?} vs ({lo}, {hi})"
        );
    }
    assert_eq!(wilson(0, 0, Z95), None);
}

/// Newcombe R.G. (1998) "Interval estimation for the difference between independent
/// proportions: comparison of eleven methods", Statistics in Medicine 17:873–890, Table II,
/// method 10 (hybrid score, no continuity correction).
#[test]
fn newcombe_matches_newcombe_1998_table() {
    let table = [
        ((56, 70), (48, 80), 0.0524, 0.3339),
        ((9, 10), (3, 10), 0.1705, 0.8090),
        ((6, 7), (2, 7), 0.0582, 0.8062),
        ((5, 56), (0, 29), -0.0381, 0.1926),
        ((0, 10), (0, 20), -0.1611, 0.2775),
        ((0, 10), (0, 10), -0.2775, 0.2775),
        ((10, 10), (0, 20), 0.6791, 1.0),
        ((10, 10), (0, 10), 0.6075, 1.0),
    ];
    for ((x1, n1), (x2, n2), lo, hi) in table {
        let d = newcombe(x1, n1, x2, n2, Z95).unwrap();
        assert!(
            close(d.low, lo, 5e-5) && close(d.high, hi, 5e-5),
            "{x1}/{n1} − {x2}/{n2}: {d:?} vs ({lo}, {hi})"
        );
    }
}

#[test]
fn pass_at_k_hand_checked() {
    // n=10, c=3, k=1: 1 − C(7,1)/C(10,1) = 1 − 7/10 = 0.3.
    assert!(close(pass_at_k(10, 3, 1).unwrap(), 0.3, 1e-12));
    // k=5: 1 − C(7,5)/C(10,5) = 1 − 21/252 = 0.916666…
    assert!(close(
        pass_at_k(10, 3, 5).unwrap(),
        1.0 - 21.0 / 252.0,
        1e-12
    ));
    // k=2: 1 − C(7,2)/C(10,2) = 1 − 21/45.
    assert!(close(
        pass_at_k(10, 3, 2).unwrap(),
        1.0 - 21.0 / 45.0,
        1e-12
    ));
    // More tries than failures: certain.
    assert_eq!(pass_at_k(10, 8, 3), Some(1.0));
    assert_eq!(pass_at_k(5, 0, 3), Some(0.0));
    assert_eq!(pass_at_k(3, 1, 4), None);
    // n=200, c=13, k=100 (large binomials): 1 − C(187,100)/C(200,100), computed with exact
    // integer binomials (Python's math.comb) = 0.9999194971988055.
    assert!(close(
        pass_at_k(200, 13, 100).unwrap(),
        0.999_919_497_198_805_5,
        1e-12
    ));
}

#[test]
fn pass_hat_k_hand_checked() {
    // n=10, c=7, k=3: C(7,3)/C(10,3) = 35/120.
    assert!(close(pass_hat_k(10, 7, 3).unwrap(), 35.0 / 120.0, 1e-12));
    // k=1 is the pass rate.
    assert!(close(pass_hat_k(10, 7, 1).unwrap(), 0.7, 1e-12));
    // n=5, c=5: always 1; c < k: 0.
    assert_eq!(pass_hat_k(5, 5, 5), Some(1.0));
    assert_eq!(pass_hat_k(5, 2, 3), Some(0.0));
    // n=4, c=3, k=2: C(3,2)/C(4,2) = 3/6.
    assert!(close(pass_hat_k(4, 3, 2).unwrap(), 0.5, 1e-12));
    assert_eq!(pass_hat_k(2, 2, 3), None);
}

#[test]
fn percentiles_interpolate_between_ranks() {
    // Type 7: p50 of 1..4 is 2.5; p95 of 1..=10 is 1 + 0.95·9 = 9.55.
    assert_eq!(percentile(&[4.0, 1.0, 3.0, 2.0], 50.0), Some(2.5));
    let ten: Vec<f64> = (1..=10).map(f64::from).collect();
    assert!(close(percentile(&ten, 95.0).unwrap(), 9.55, 1e-12));
    assert_eq!(percentile(&[7.0], 95.0), Some(7.0));
    assert_eq!(percentile(&[], 50.0), None);
}

fn record(
    case: &str,
    model: &str,
    i: u32,
    outcome: Outcome,
    latency: u64,
    cost: Option<f64>,
) -> IterationRecord {
    IterationRecord {
        unit: Unit {
            case_id: case.into(),
            model: model.into(),
            iteration: i,
        },
        outcome,
        failures: vec![],
        metrics: Metrics {
            input_tokens: 100,
            output_tokens: 10,
            cost_usd: cost,
            latency_ms: latency,
            llm_ms: latency - 10,
            mcp_ms: 10,
            steps: 2,
            calls_matched: 1,
            calls_unexpected: u32::from(i == 0),
            calls_missed: u32::from(i == 1),
            ..Metrics::default()
        },
    }
}

#[test]
fn a_run_summary_from_a_hand_built_table() {
    // Case a on model m: pass, fail, pass, pass, error; latencies 100..400 (+ error).
    let its = vec![
        record("a", "m", 0, Outcome::Passed, 100, Some(0.01)),
        record("a", "m", 1, Outcome::Failed, 200, Some(0.01)),
        record("a", "m", 2, Outcome::Passed, 300, Some(0.01)),
        record("a", "m", 3, Outcome::Passed, 400, Some(0.01)),
        IterationRecord::errored(
            Unit {
                case_id: "a".into(),
                model: "m".into(),
                iteration: 4,
            },
            "rate limit".into(),
        ),
    ];
    let run = RunRecord {
        suite_id: "s".into(),
        suite_hash: "h".into(),
        shard: None,
        cases: vec![CaseInfo {
            id: "a".into(),
            title: None,
            pass_threshold: 0.75,
        }],
        planned: its.iter().map(|i| i.unit.clone()).collect(),
        iterations: its,
    };
    let s = summarize(&run);
    let c = &s.cells[0];
    assert_eq!((c.n, c.passes, c.errors), (4, 3, 1));
    assert_eq!(c.pass_rate, Some(0.75));
    assert_eq!(c.passed, Some(true), "0.75 ≥ threshold 0.75");
    assert!(c.flaky);
    assert_eq!(
        c.dots,
        vec![Some(true), Some(false), Some(true), Some(true), None]
    );
    // pass^2 = C(3,2)/C(4,2) = 0.5; pass@2 = 1 − C(1,2)/C(4,2) = 1.
    assert_eq!(c.pass_hat_k[&2], 0.5);
    assert_eq!(c.pass_at_k[&2], 1.0);
    // Latency p50 of 100,200,300,400 = 250; p95 = 100 + 0.95·3·100 = 385.
    assert_eq!(c.latency.p50, Some(250.0));
    assert!(close(c.latency.p95.unwrap(), 385.0, 1e-9));
    assert_eq!(c.mcp.p50, Some(10.0));
    assert!(close(c.cost_usd.unwrap(), 0.04, 1e-12));
    // Tool calls: matched 4 (errored one has 0), unexpected 1, missed 1.
    assert_eq!(s.precision, Some(4.0 / 5.0));
    assert_eq!(s.recall, Some(4.0 / 5.0));
    assert_eq!(s.error_rate, Some(0.2));
    assert_eq!(s.flaky, vec![("a".to_string(), "m".to_string())]);
    let w = s.interval.unwrap();
    let expected = wilson(3, 4, Z95).unwrap();
    assert_eq!(w, expected);
}

#[test]
fn an_unpriced_iteration_makes_the_cost_unknown() {
    let its = vec![
        record("a", "m", 0, Outcome::Passed, 100, Some(0.5)),
        record("a", "m", 1, Outcome::Passed, 100, None),
    ];
    let run = RunRecord {
        suite_id: "s".into(),
        suite_hash: "h".into(),
        shard: None,
        cases: vec![],
        planned: vec![],
        iterations: its,
    };
    let s = summarize(&run);
    assert_eq!(s.cost_usd, None);
    assert_eq!(s.unpriced, 1);
}
