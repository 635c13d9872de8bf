//! The baseline set's rules: what breaks a client written against the baseline (an error)
//! and what does not (information).

use mcplab_protocol::check::RuleSet;

use crate::rule::{Level, Rule, RuleTable, Source};

const BASELINE: RuleTable = RuleTable::new(RuleSet::Baseline).read_on("2026-12-06");

/// Semantic Versioning: an incompatible change to a public API is a breaking one.
const SEMVER: Source = BASELINE.page("https://semver.org/#spec-item-8");

pub(super) const REMOVED: Rule = BASELINE.rule(
    "baseline-removed",
    Level::Must,
    "nothing clients used is gone: tools, resources, templates, prompts, capabilities, eras",
    SEMVER,
    "keep what clients use (deprecate it first), or release the change as a new major version",
);
pub(super) const ARGUMENT: Rule = BASELINE.rule(
    "baseline-argument",
    Level::Must,
    "calls that worked still work: no new required argument, no removed, renamed or retyped argument, no narrowed enum",
    SEMVER,
    "add arguments as optional with a default, keep old names and types, widen enums only",
);
pub(super) const OUTPUT: Rule = BASELINE.rule(
    "baseline-output",
    Level::Must,
    "results clients read keep their shape: no removed or retyped output property",
    SEMVER,
    "only add to an outputSchema; keep every property clients read, with its type",
);
pub(super) const COMPATIBLE: Rule = BASELINE.rule(
    "baseline-compatible",
    Level::Note,
    "changes that keep the baseline's clients working (additions, widened inputs, new descriptions)",
    SEMVER,
    "",
);

pub const RULES: &[Rule] = &[REMOVED, ARGUMENT, OUTPUT, COMPATIBLE];
