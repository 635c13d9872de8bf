//! The plug-in points of the checker. A rule set is a [`RuleSetDef`]: its rules as data, an
//! optional [`Exercise`] that drives the live connection before judging (adding to the
//! recording), a judge — a plain function over one era's [`Recording`] and the
//! [`CheckOptions`] that adds findings — and optionally a conclusion over every era's
//! recording (findings about the server as a whole). [`registry`] lists every set in the order they run;
//! [`CheckOptions::selected`] says which run. Nothing here knows a particular rule.

use futures::future::BoxFuture;
use mcplab_mcp::Connection;
use mcplab_protocol::check::RuleSet;

use crate::findings::Findings;
use crate::options::CheckOptions;
use crate::recording::Recording;
use crate::rule::Rule;

/// Judges one era's recording.
pub type Judge = fn(&Recording, &CheckOptions, &mut Findings);

/// Judges the server as a whole once every era is recorded (findings without an era).
pub type Conclude = fn(&[&Recording], &CheckOptions, &mut Findings);

/// Drives the live connection of one era before the judges run: requests it sends are
/// recorded as traffic (the frames are read after every exercise), and what it observed goes
/// into the recording. It must never call a tool the options do not allow.
pub trait Exercise: Send + Sync {
    fn exercise<'a>(
        &'a self,
        conn: &'a Connection,
        rec: &'a mut Recording,
        opts: &'a CheckOptions,
    ) -> BoxFuture<'a, ()>;
}

/// One rule set.
pub struct RuleSetDef {
    pub set: RuleSet,
    /// A short title for people (`Spec`, `Security`).
    pub title: &'static str,
    pub rules: &'static [Rule],
    /// Runs in every check; otherwise only when [`CheckOptions::selected`] says so.
    pub always: bool,
    pub exercise: Option<&'static dyn Exercise>,
    pub judge: Judge,
    pub conclude: Option<Conclude>,
}

/// Every rule set, in the order they exercise and judge (the spec set's exercise lists what
/// the others read, so it comes first; fuzzing may crash the server, so it comes last among
/// the exercises).
pub fn registry() -> [&'static RuleSetDef; 7] {
    [
        &crate::spec::SET,
        &crate::security::SET,
        &crate::hosts::SET,
        &crate::readiness::CLAUDE,
        &crate::readiness::OPENAI,
        &crate::fuzz::SET,
        &crate::baseline::SET,
    ]
}

/// The set `set`.
pub fn definition(set: RuleSet) -> &'static RuleSetDef {
    registry()
        .into_iter()
        .find(|d| d.set == set)
        .expect("every RuleSet has a definition in the registry")
}

/// Every rule of every set.
pub fn all_rules() -> impl Iterator<Item = &'static Rule> {
    registry().into_iter().flat_map(|d| d.rules.iter())
}

/// A rule by id.
pub fn find_rule(id: &str) -> Option<&'static Rule> {
    all_rules().find(|r| r.id == id)
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    #[test]
    fn rule_ids_are_unique_and_each_rule_sits_in_its_set() {
        let mut seen = HashSet::new();
        for def in registry() {
            assert!(!def.rules.is_empty(), "{:?}", def.set);
            for rule in def.rules {
                assert!(seen.insert(rule.id), "duplicate rule id {}", rule.id);
                assert_eq!(rule.set, def.set, "{}", rule.id);
                assert!(!rule.summary.is_empty(), "{}", rule.id);
            }
        }
        for set in RuleSet::ALL {
            assert_eq!(definition(set).set, set);
        }
    }
}
