//! mcplab-evals: the pure core of evals. It reads suite files (strict YAML/JSON with a
//! published JSON Schema), matches an iteration's trace against a case's expectations and
//! checks, computes the statistics (Wilson intervals, pass@k, pass^k, Newcombe differences),
//! evaluates gates, shards and merges runs, writes reports (JSON Lines events, JUnit XML, a
//! self-contained HTML page), and imports MCPJam suites. It does no I/O of its
//! own (no files, network, clocks or processes): the runner drives turns through the session
//! runtime and hands finished traces here.

pub mod checks;
pub mod compare;
pub mod gates;
pub mod import;
pub mod judge;
pub mod matching;
pub mod report;
pub mod run;
pub mod shard;
pub mod stats;
pub mod suite;
pub mod trace;
pub mod verdict;
