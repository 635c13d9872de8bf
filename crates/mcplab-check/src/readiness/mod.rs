//! The readiness sets (`--readiness claude`, `--readiness openai`): the published
//! requirements of Anthropic's connector directory ([`claude`]) and OpenAI's app directory
//! ([`openai`]) that can be checked from outside the server, each rule citing its page and
//! the day it was read. [`checks`] holds what both share. Their exercise reads the apps the
//! tools link (widget CSP rules); no tool is called.

mod checks;
pub(crate) mod claude;
pub(crate) mod openai;

use mcplab_protocol::check::RuleSet;

use crate::sets::RuleSetDef;

pub(crate) static CLAUDE: RuleSetDef = RuleSetDef {
    set: RuleSet::ReadinessClaude,
    title: "Readiness: Anthropic connector directory",
    rules: claude::RULES,
    always: false,
    exercise: Some(&crate::apps::READ),
    judge: claude::judge,
    conclude: None,
};

pub(crate) static OPENAI: RuleSetDef = RuleSetDef {
    set: RuleSet::ReadinessOpenai,
    title: "Readiness: OpenAI app directory",
    rules: openai::RULES,
    always: false,
    exercise: Some(&crate::apps::READ),
    judge: openai::judge,
    conclude: None,
};
