//! The spec rule set: the MCP specification of the negotiated revision. Its exercise
//! (`probe`) drives the server like a careful client; its judge validates every frame in both
//! directions against the vendored schema (`schema`, `frames`), the rules the schema cannot
//! express on tools and results (`tools`), and what the exercise observed (`behaviour`).

mod behaviour;
mod frames;
mod probe;
pub(crate) mod rules;
pub(crate) mod schema;
mod stray;
mod tools;

use mcplab_protocol::check::RuleSet;

use rules::PROTOCOL_VERSION;
use schema::Spec;

use crate::findings::{At, Findings};
use crate::options::CheckOptions;
use crate::recording::Recording;
use crate::sets::RuleSetDef;

/// The revision judged against when the server's is unknown.
const FALLBACK: &str = "2025-11-25";

pub(crate) static SET: RuleSetDef = RuleSetDef {
    set: RuleSet::Spec,
    title: "Spec",
    rules: rules::RULES,
    always: true,
    exercise: Some(&probe::Probe),
    judge,
    conclude: None,
};

fn judge(rec: &Recording, opts: &CheckOptions, f: &mut Findings) {
    let mut spec = match Spec::load(&rec.revision) {
        Some(s) => s,
        None => {
            f.add(
                &PROTOCOL_VERSION,
                format!(
                    "the server negotiated {}, a revision mcplab has no schema for; checked against {FALLBACK}",
                    rec.revision
                ),
                At::default(),
            );
            Spec::load(FALLBACK).expect("the fallback revision's schema is vendored")
        }
    };
    behaviour::judge(rec, opts, f);
    frames::check_frames(rec, &mut spec, rec.frames_dropped > 0, f);
}
