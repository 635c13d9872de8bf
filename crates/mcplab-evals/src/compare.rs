//! Run against run (a baseline and a new run), per case × model: Fixed, Regressed, Still
//! failing, Still passing, New, Removed (by each side's pass/fail against the case threshold),
//! the difference in pass rates with Newcombe's 95 % interval, and whether it is a real drop:
//! Fisher's exact test per cell, corrected across the cells (Holm by default, or
//! Benjamini–Hochberg), and at least the minimum effect. With fewer than `min_samples`
//! completed iterations on a side a cell is "insufficient data", never a silent pass. The
//! whole run is compared too, with each case's iterations as one cluster.

use std::collections::BTreeMap;

use crate::stats::regression::{benjamini_hochberg, clustered_difference, fisher_drop, holm};
use crate::stats::{CellSummary, RunSummary, Z95, newcombe};
pub use mcplab_protocol::evals::{
    CellComparison, Change, Comparison, Correction, RegressionMethod, RunDifference, Significance,
};

/// Compare `run` against `base` with the default method (Holm, α 0.05, 10 points).
pub fn compare(base: &RunSummary, run: &RunSummary, min_samples: u64) -> Comparison {
    compare_with(base, run, min_samples, RegressionMethod::default())
}

/// Compare `run` against `base`, deciding drops by `method`.
pub fn compare_with(
    base: &RunSummary,
    run: &RunSummary,
    min_samples: u64,
    method: RegressionMethod,
) -> Comparison {
    let key = |c: &CellSummary| (c.case_id.clone(), c.model.clone());
    let mut cells: Vec<CellComparison> = run
        .cells
        .iter()
        .map(|r| match base.cells.iter().find(|b| key(b) == key(r)) {
            Some(b) => both(b, r, min_samples),
            None => one_side(r, Change::New),
        })
        .collect();
    for b in base
        .cells
        .iter()
        .filter(|b| !run.cells.iter().any(|r| key(r) == key(b)))
    {
        cells.push(one_side(b, Change::Removed));
    }
    decide(&mut cells, &method);
    let whole_run = whole_run(&cells, min_samples, &method);
    Comparison {
        min_samples,
        method,
        cells,
        whole_run,
    }
}

fn one_side(c: &CellSummary, change: Change) -> CellComparison {
    let counts = Some((c.passes, c.n));
    CellComparison {
        case_id: c.case_id.clone(),
        model: c.model.clone(),
        change,
        base: if change == Change::Removed {
            counts
        } else {
            None
        },
        run: if change == Change::New { counts } else { None },
        difference: None,
        interval: None,
        significance: None,
        p_value: None,
        adjusted_p: None,
    }
}

/// A cell on both sides: its change, interval and raw p-value. Whether a drop is significant
/// waits for the correction across cells ([`decide`]).
fn both(b: &CellSummary, r: &CellSummary, min_samples: u64) -> CellComparison {
    let change = match (b.passed == Some(true), r.passed == Some(true)) {
        (false, true) => Change::Fixed,
        (true, false) => Change::Regressed,
        (false, false) => Change::StillFailing,
        (true, true) => Change::StillPassing,
    };
    let interval = newcombe(r.passes, r.n, b.passes, b.n, Z95);
    let enough = b.n >= min_samples && r.n >= min_samples && interval.is_some();
    let significance = match interval {
        _ if !enough => Significance::InsufficientData,
        Some(i) if i.low > 0.0 => Significance::Better,
        _ => Significance::NoChange,
    };
    CellComparison {
        case_id: r.case_id.clone(),
        model: r.model.clone(),
        change,
        base: Some((b.passes, b.n)),
        run: Some((r.passes, r.n)),
        difference: r.pass_rate.zip(b.pass_rate).map(|(r, b)| r - b),
        interval,
        significance: Some(significance),
        p_value: enough.then(|| fisher_drop(b.passes, b.n, r.passes, r.n)),
        adjusted_p: None,
    }
}

/// Corrects the decidable cells' p-values together and marks the drops that are both
/// significant after the correction and at least the minimum effect as `Worse`.
fn decide(cells: &mut [CellComparison], method: &RegressionMethod) {
    let tested: Vec<usize> = (0..cells.len())
        .filter(|&i| cells[i].p_value.is_some())
        .collect();
    let raw: Vec<f64> = tested.iter().filter_map(|&i| cells[i].p_value).collect();
    let adjusted = match method.correction {
        Correction::Holm => holm(&raw),
        Correction::BenjaminiHochberg => benjamini_hochberg(&raw),
        Correction::None => raw.clone(),
    };
    for (&i, p) in tested.iter().zip(adjusted) {
        let cell = &mut cells[i];
        cell.adjusted_p = Some(p);
        let drop = -cell.difference.unwrap_or(0.0);
        if p < method.alpha && drop >= method.min_effect - 1e-12 {
            cell.significance = Some(Significance::Worse);
        }
    }
}

/// `(passes, completed)`.
type Counts = (u64, u64);

/// The cells on both sides pooled per case (the clusters) and compared as one run.
fn whole_run(
    cells: &[CellComparison],
    min_samples: u64,
    method: &RegressionMethod,
) -> Option<RunDifference> {
    let mut by_case: BTreeMap<&str, (Counts, Counts)> = BTreeMap::new();
    for c in cells {
        if let (Some(b), Some(r)) = (c.base, c.run) {
            let e = by_case.entry(c.case_id.as_str()).or_default();
            e.0 = (e.0.0 + b.0, e.0.1 + b.1);
            e.1 = (e.1.0 + r.0, e.1.1 + r.1);
        }
    }
    let base: Vec<(u64, u64)> = by_case.values().map(|v| v.0).collect();
    let run: Vec<(u64, u64)> = by_case.values().map(|v| v.1).collect();
    let d = clustered_difference(&base, &run, Z95)?;
    let (bn, rn): (u64, u64) = (
        base.iter().map(|c| c.1).sum(),
        run.iter().map(|c| c.1).sum(),
    );
    let significance = if bn < min_samples || rn < min_samples {
        Significance::InsufficientData
    } else if d.p_drop < method.alpha && -d.difference >= method.min_effect - 1e-12 {
        Significance::Worse
    } else if d.interval.low > 0.0 {
        Significance::Better
    } else {
        Significance::NoChange
    };
    let rate = |v: &[(u64, u64)], n: u64| v.iter().map(|c| c.0).sum::<u64>() as f64 / n as f64;
    Some(RunDifference {
        base_rate: rate(&base, bn),
        run_rate: rate(&run, rn),
        difference: d.difference,
        interval: d.interval,
        p_value: d.p_drop,
        clusters: by_case.len() as u64,
        significance,
    })
}
