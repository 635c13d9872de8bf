//! Matching: arguments (`args`), calls (`calls`) and the pairing they share (`bipartite`).

pub mod args;
mod bipartite;
pub mod calls;

pub use args::{ArgOptions, Mismatch, match_value, validate_matcher};
pub use calls::{CallDiff, CallMatch, CallView, Expectation, match_calls};
