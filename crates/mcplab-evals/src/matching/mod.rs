//! Matching: arguments (`args`, and matchers as written: `syntax`), calls (`calls`) and the
//! pairing they share (`bipartite`).

pub mod args;
mod bipartite;
pub mod calls;
pub mod syntax;

pub use args::{ArgOptions, Mismatch, match_value};
pub use calls::{CallDiff, CallMatch, CallView, Expectation, match_calls};
pub use syntax::{plain_matcher, validate_matcher};
