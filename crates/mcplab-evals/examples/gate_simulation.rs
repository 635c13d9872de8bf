//! How often the regression gates go off: simulated runs of unchanged flaky models (the
//! false-alarm rate) and of a real drop (the detection rate), through the same comparison the
//! `noRegression` and `noRunRegression` gates read. The old rule (any cell whose 95 % Newcombe
//! interval lies below zero, no correction, no minimum effect) is measured beside them.
//!
//! `cargo run --release -p mcplab-evals --example gate_simulation [TRIALS]`

use std::collections::BTreeMap;

use mcplab_evals::compare::{Correction, RegressionMethod, Significance, compare_with};
use mcplab_evals::stats::{CellSummary, Latency, RunSummary, Z95, newcombe};

/// SplitMix64: small, seeded, good enough for Bernoulli draws.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }
    fn passes(&mut self, p: f64, n: u64) -> u64 {
        (0..n).filter(|_| self.next() < p).count() as u64
    }
}

fn cell(case: usize, model: usize, passes: u64, n: u64) -> CellSummary {
    CellSummary {
        case_id: format!("case{case}"),
        model: format!("m::{model}"),
        n,
        passes,
        errors: 0,
        pass_rate: Some(passes as f64 / n as f64),
        interval: None,
        pass_at_k: BTreeMap::new(),
        pass_hat_k: BTreeMap::new(),
        flaky: passes > 0 && passes < n,
        passed: Some(passes as f64 / n as f64 >= 0.5),
        pass_threshold: 0.5,
        mean_tokens: None,
        cost_usd: None,
        latency: Latency::default(),
        llm: Latency::default(),
        mcp: Latency::default(),
        dots: Vec::new(),
    }
}

fn summary(cells: Vec<CellSummary>) -> RunSummary {
    RunSummary {
        cells,
        planned: 0,
        finished: 0,
        completed: 0,
        passes: 0,
        errors: 0,
        pass_rate: None,
        interval: None,
        error_rate: None,
        precision: None,
        recall: None,
        input_tokens: 0,
        output_tokens: 0,
        cost_usd: None,
        unpriced: 0,
        judge: Default::default(),
        simulated_user: Default::default(),
        latency: Latency::default(),
        llm: Latency::default(),
        mcp: Latency::default(),
        flaky: Vec::new(),
    }
}

/// One scenario: per cell (case, model) the base and run pass probabilities.
struct Scenario {
    name: &'static str,
    cells: Vec<(usize, usize, f64, f64)>,
    n: u64,
}

#[derive(Default)]
struct Tally {
    old: u64,
    none: u64,
    holm: u64,
    bh: u64,
    whole: u64,
}

fn trial(s: &Scenario, rng: &mut Rng, t: &mut Tally) {
    let (mut base, mut run) = (Vec::new(), Vec::new());
    let mut old = false;
    for &(case, model, pb, pr) in &s.cells {
        let (xb, xr) = (rng.passes(pb, s.n), rng.passes(pr, s.n));
        old |= newcombe(xr, s.n, xb, s.n, Z95).is_some_and(|i| i.high < 0.0);
        base.push(cell(case, model, xb, s.n));
        run.push(cell(case, model, xr, s.n));
    }
    let (base, run) = (summary(base), summary(run));
    let flagged = |correction| {
        let method = RegressionMethod {
            correction,
            ..RegressionMethod::default()
        };
        let c = compare_with(&base, &run, 10, method);
        let cell = !c.regressions().is_empty();
        let whole = c
            .whole_run
            .is_some_and(|w| w.significance == Significance::Worse);
        (cell, whole)
    };
    t.old += u64::from(old);
    t.none += u64::from(flagged(Correction::None).0);
    let (holm, whole) = flagged(Correction::Holm);
    t.holm += u64::from(holm);
    t.whole += u64::from(whole);
    t.bh += u64::from(flagged(Correction::BenjaminiHochberg).0);
}

fn grid(
    cases: usize,
    models: usize,
    f: impl Fn(usize, usize) -> (f64, f64),
) -> Vec<(usize, usize, f64, f64)> {
    let mut out = Vec::new();
    for c in 0..cases {
        for m in 0..models {
            let (b, r) = f(c, m);
            out.push((c, m, b, r));
        }
    }
    out
}

fn main() {
    let trials: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(20_000);
    let scenarios = [
        Scenario {
            name: "unchanged: 10 cells at 70 %, 10 iterations a side",
            cells: grid(10, 1, |_, _| (0.7, 0.7)),
            n: 10,
        },
        Scenario {
            name: "unchanged: 10 cases × 3 models at 70 %, 10 a side",
            cells: grid(10, 3, |_, _| (0.7, 0.7)),
            n: 10,
        },
        Scenario {
            name: "unchanged: 10 cases from 40 % to 95 %, 20 a side",
            cells: grid(10, 1, |c, _| {
                let p = 0.4 + 0.55 * c as f64 / 9.0;
                (p, p)
            }),
            n: 20,
        },
        Scenario {
            name: "real drop: 1 of 10 cells 90 % → 40 %, 10 a side",
            cells: grid(10, 1, |c, _| if c == 0 { (0.9, 0.4) } else { (0.7, 0.7) }),
            n: 10,
        },
        Scenario {
            name: "real drop: 1 of 10 cells 90 % → 40 %, 20 a side",
            cells: grid(10, 1, |c, _| if c == 0 { (0.9, 0.4) } else { (0.7, 0.7) }),
            n: 20,
        },
        Scenario {
            name: "real drop: every cell 80 % → 60 %, 10 a side",
            cells: grid(10, 1, |_, _| (0.8, 0.6)),
            n: 10,
        },
    ];
    let mut rng = Rng(0x5EED_CAFE);
    println!("{trials} trials each; share of trials in which the gate went off\n");
    println!(
        "| scenario | old rule | per cell, uncorrected | per cell, Holm | per cell, BH | whole run, cases as clusters |"
    );
    println!("|---|---|---|---|---|---|");
    for s in &scenarios {
        let mut t = Tally::default();
        for _ in 0..trials {
            trial(s, &mut rng, &mut t);
        }
        let pct = |x: u64| format!("{:.1} %", 100.0 * x as f64 / trials as f64);
        println!(
            "| {} | {} | {} | {} | {} | {} |",
            s.name,
            pct(t.old),
            pct(t.none),
            pct(t.holm),
            pct(t.bh),
            pct(t.whole)
        );
    }
}
