//! The eval shapes every side reads: the records a run is made of, one iteration's trace and
//! verdict, the statistics, a comparison of two runs, the gates' report, the run's progress
//! events, and the bodies of `/api/evals/*`. Data and small pure helpers only: building and
//! judging them is `mcplab-evals`, running and storing them `mcplab-evalrun`.

pub mod api;
pub mod compare;
pub mod events;
pub mod record;
pub mod summary;
pub mod trace;
pub mod verdict;

pub use api::*;
pub use compare::*;
pub use events::*;
pub use record::*;
pub use summary::*;
pub use trace::*;
pub use verdict::*;
