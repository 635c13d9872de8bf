//! Statistics: intervals for proportions and their differences (`interval`), pass@k and
//! pass^k (`passk`), percentiles (`percentile`), tests of a drop with corrections for many
//! cells and clustering by case (`regression`) and the per case × model and per run summaries
//! built from iteration records (`summary`). Pure arithmetic on counts and samples.

mod interval;
mod passk;
mod percentile;
pub(crate) mod regression;
mod summary;

pub use interval::{Interval, Z95, newcombe, wilson};
pub use passk::{pass_at_k, pass_hat_k};
pub use percentile::percentile;
pub use summary::{CellSummary, Latency, RunSummary, summarize};
