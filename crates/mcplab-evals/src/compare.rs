//! Run against run (a baseline and a new run), per case × model: Fixed, Regressed, Still
//! failing, Still passing, New, Removed (by each side's pass/fail against the case threshold),
//! and the difference in pass rates with Newcombe's 95 % interval. A regression is a drop whose
//! interval excludes zero with at least `min_samples` completed iterations on both sides;
//! with fewer it is "insufficient data", never a silent pass.

use crate::stats::{CellSummary, RunSummary, Z95, newcombe};
pub use mcplab_protocol::evals::{CellComparison, Change, Comparison, Significance};

/// Compare `run` against `base`.
pub fn compare(base: &RunSummary, run: &RunSummary, min_samples: u64) -> Comparison {
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
    Comparison { min_samples, cells }
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
    }
}

fn both(b: &CellSummary, r: &CellSummary, min_samples: u64) -> CellComparison {
    let change = match (b.passed == Some(true), r.passed == Some(true)) {
        (false, true) => Change::Fixed,
        (true, false) => Change::Regressed,
        (false, false) => Change::StillFailing,
        (true, true) => Change::StillPassing,
    };
    let interval = newcombe(r.passes, r.n, b.passes, b.n, Z95);
    let significance = match interval {
        _ if b.n < min_samples || r.n < min_samples => Significance::InsufficientData,
        None => Significance::InsufficientData,
        Some(i) if i.high < 0.0 => Significance::Worse,
        Some(i) if i.low > 0.0 => Significance::Better,
        Some(_) => Significance::NoChange,
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
    }
}
