//! Checks run by an external command (`command:`): what the command is given on stdin (the
//! case, the model column, the iteration and its whole trace, as JSON), how its stdout is read
//! (`{"pass", "score"?, "reason"}`), and the check's result from the outcome the runner
//! recorded. Running the command is the runner's (this crate starts no process).

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::run::Unit;
use crate::suite::CommandCheck;
use crate::trace::Trace;

/// What one command said about an iteration (or why it said nothing usable).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CommandOutcome {
    /// The command line, as written in the suite.
    pub line: String,
    pub passed: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
    pub reason: String,
}

/// The JSON a command reads on stdin.
pub fn command_input(unit: &Unit, trace: &Trace) -> Value {
    json!({
        "case": unit.case_id,
        "model": unit.model,
        "iteration": unit.iteration + 1,
        "trace": trace,
    })
}

/// What the command printed, read as its verdict.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Printed {
    pass: bool,
    #[serde(default)]
    score: Option<f64>,
    #[serde(default)]
    reason: Option<String>,
}

/// The outcome of a command that exited 0 having printed `stdout`.
pub fn read_verdict(line: &str, stdout: &[u8]) -> CommandOutcome {
    let text = String::from_utf8_lossy(stdout);
    let fail = |reason: String| CommandOutcome {
        line: line.to_owned(),
        passed: false,
        score: None,
        reason,
    };
    let trimmed = text.trim();
    // The verdict is the last line, so a command may log before it.
    let last = trimmed.lines().last().unwrap_or_default();
    match serde_json::from_str::<Printed>(last).or_else(|_| serde_json::from_str(trimmed)) {
        Ok(p) if p.score.is_some_and(|s| !s.is_finite()) => {
            fail("the command printed a score that is not a number".into())
        }
        Ok(p) => CommandOutcome {
            line: line.to_owned(),
            passed: p.pass,
            score: p.score,
            reason: p.reason.unwrap_or_else(|| "(no reason given)".into()),
        },
        Err(e) => fail(format!(
            "the command printed no verdict ({e}): it must print {{\"pass\": true|false, \
             \"reason\": \"…\"}} (optionally \"score\") as JSON on its last line; it printed: {}",
            shown(trimmed)
        )),
    }
}

fn shown(text: &str) -> String {
    if text.is_empty() {
        return "nothing".into();
    }
    let cut: String = text.chars().take(300).collect();
    if cut.len() < text.len() {
        format!("{cut:?}…")
    } else {
        format!("{cut:?}")
    }
}

/// The check's result from the recorded outcomes.
pub(super) fn from_outcomes(check: &CommandCheck, outcomes: &[CommandOutcome]) -> (bool, String) {
    match outcomes.iter().find(|o| o.line == check.line()) {
        None => (false, "the command was not run".into()),
        Some(o) => {
            let score = o.score.map(|s| format!(" (score {s})")).unwrap_or_default();
            (o.passed, format!("{}{score}", o.reason))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_are_read_from_the_last_line() {
        let v = read_verdict(
            "c",
            b"checking...\n{\"pass\": true, \"score\": 0.9, \"reason\": \"ok\"}\n",
        );
        assert_eq!(
            (v.passed, v.score, v.reason.as_str()),
            (true, Some(0.9), "ok")
        );
        let v = read_verdict(
            "c",
            b"{\n  \"pass\": false,\n  \"reason\": \"total off\"\n}\n",
        );
        assert_eq!((v.passed, v.reason.as_str()), (false, "total off"));
        let v = read_verdict("c", b"all good");
        assert!(
            !v.passed
                && v.reason.contains("printed no verdict")
                && v.reason.contains("\"all good\""),
            "{}",
            v.reason
        );
        let v = read_verdict("c", b"{\"passed\": true}");
        assert!(!v.passed, "{}", v.reason);
    }
}
