//! mcplab-evals: the pure core of evals. It reads suite files (strict YAML/JSON with a
//! published JSON Schema), matches an iteration's trace against a case's expectations and
//! checks, computes the statistics (Wilson intervals, pass@k, pass^k, Newcombe differences),
//! evaluates gates, shards and merges runs, writes reports (JSON Lines events, JUnit XML, a
//! self-contained HTML page), and imports MCPJam suites. It does no I/O of its
//! own (no files, network, clocks or processes): the runner drives turns through the session
//! runtime and hands finished traces here.
//!
//! # Where things are
//!
//! - `crates/mcplab-evals`: The pure core of evals (issue 13), no I/O, no
//!   tokio/axum/genai/rmcp/rusqlite; depends on protocol (and ring for the suite hash, the one
//!   SHA-256 implementation of the workspace). `suite/` (the suite file model — `model.rs` (incl.
//!   `hosts:`, host profiles by name; `run::with_hosts` turns models × hosts into `model @ host`
//!   columns and `run::model_and_host` splits them, so stats and reports need no host axis of their
//!   own), `case.rs`, `check.rs`; `yaml.rs` reads YAML/JSON into JSON plus line/column positions,
//!   refusing anchors, tags, duplicate keys, several documents, and bounding depth and node count;
//!   `load.rs` validates with the JSON Schema generated from the types (`schema.rs`, what `mcplab
//!   eval schema` prints) plus `validate.rs`'s semantic checks and returns every error at once with
//!   line, column and key path; `from_session.rs` turns a saved chat session into a case);
//!   `matching/` (`args.rs`: nested partial/exact argument matchers, `"<string>"`-style
//!   placeholders,
//!   `$anyOf`/`$regex`/`$approx`/`$like`/`$optional`/`$absent`/`$exact`/`$partial`/`$literal`/`$contains`;
//!   `syntax.rs`: matchers checked as a suite loads; `calls.rs`: options layered defaults → case →
//!   tool → call, any-order maximum bipartite pairing or in-order/exact subsequence alignment,
//!   diffs Missing/Extra/Out of order/Argument mismatch (JSON path, expected vs actual)/Forbidden);
//!   `trace.rs` (`Trace` per iteration, `TurnTrace::from_events` from recorded `TurnEvent`s);
//!   `simulated_user.rs` (the simulated user's prompt and stop word); `steps.rs` (model-free steps: a call as turn events, its result text as the answer);
//!   `checks/` (outcome checks, failing closed when unmeasured; `json.rs` JSONPath on answers
//!   and tool results, `command.rs` the input and verdict of check commands); `verdict.rs` (case and per-turn
//!   scopes, judge advisory or gating, passed/failed/errored); `judge.rs` (the grading model's
//!   prompt and the reading of its 0–1 score and reason; the runner calls the model); `run.rs`
//!   (units, `IterationRecord`, `RunRecord`, plan, suite hash); `stats/` (Wilson, Newcombe hybrid
//!   score, pass@k, pass^k, type-7 percentiles, per case × model and run summaries); `compare.rs`
//!   (Fixed/Regressed/…, significance with a minimum sample); `gates.rs` (pass/fail/insufficient
//!   data, validity, exit codes 0/1/3); `shard.rs` (`--shard i/n` round-robin over the canonical
//!   plan, merge with refusals); `report/` (JSON Lines `RunEvent`s, JUnit XML, self-contained HTML
//!   with inline SVG charts); `import/` (MCPJam suite file v1 and `tests.json`, with notes for what
//!   cannot be represented); `prices.rs` + `prices.json` (per-model prices — input, output,
//!   optional `cachedInput` and `cacheWrite` —; `parse_file` errors name the file and line;
//!   `EffectivePrices` = shipped + the user's file with each row's `PriceOrigin`; with the provider
//!   page and the date each was read there — verified 2026-12-02, unverifiable ones removed;
//!   unknown model → no price). Example suites in `examples/evals/`.

pub mod checks;
pub mod compare;
pub mod gates;
pub mod import;
pub mod judge;
pub mod matching;
pub mod report;
pub mod run;
pub mod shard;
pub mod simulated_user;
pub mod stats;
pub mod steps;
pub mod suite;
pub mod trace;
pub mod verdict;
