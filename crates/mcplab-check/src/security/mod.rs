//! The security rule set, always on: what a server publishes that can turn the model against
//! its user. `text` gathers every string the server offers the model (server info and
//! instructions, tools with their schemas, prompts, resources) and `poison` judges it —
//! hidden Unicode, instructions to the model, shadowing of other tools and servers, names
//! that collide with another configured server's tools; `urls` judges URLs — secrets in
//! them, credentials asked for over plain HTTP. Offending text is shown with invisible
//! characters made visible. Judges only: it sends nothing.

mod poison;
mod rules;
mod text;
mod urls;

use mcplab_protocol::check::RuleSet;

use crate::findings::Findings;
use crate::options::CheckOptions;
use crate::recording::Recording;
use crate::sets::RuleSetDef;

pub(crate) use rules::RULES;
pub(crate) use urls::token_shaped;

pub(crate) static SET: RuleSetDef = RuleSetDef {
    set: RuleSet::Security,
    title: "Security",
    rules: RULES,
    always: true,
    exercise: None,
    judge,
    conclude: None,
};

fn judge(rec: &Recording, opts: &CheckOptions, f: &mut Findings) {
    let texts = text::gather(rec);
    poison::judge(&texts, rec, opts, f);
    urls::judge(&texts, rec, f);
}
