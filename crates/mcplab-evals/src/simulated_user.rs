//! The simulated user (`simulatedUser: {persona, goal, maxTurns}`): the prompt that has a
//! model write the user's next message from the persona, the goal and the conversation so
//! far, and the reading of its reply — the next message, or the stop word saying the goal is
//! met. The runner calls the model and runs the turns.

use crate::suite::SimulatedUser;

/// What the simulated user answers, alone, once the goal is met.
pub const GOAL_MET: &str = "GOAL_MET";

/// Transcript text kept per message, in characters (a long answer is cut).
const MAX_MESSAGE_CHARS: usize = 4000;

/// `(system, user)` asking for the user's next message; `so_far` is each turn's user message
/// and the assistant's answer.
pub fn prompt(sim: &SimulatedUser, so_far: &[(String, String)]) -> (String, String) {
    let system = format!(
        "You play a user talking to an AI assistant that has tools. Stay in character: write \
         only the user's next message, plainly, as that person would. When the assistant has \
         done what the user wanted, or it cannot get any further, answer exactly {GOAL_MET} \
         and nothing else."
    );
    let mut user = format!(
        "Your persona: {}\nYour goal: {}\n\n",
        sim.persona.trim(),
        sim.goal.trim()
    );
    if so_far.is_empty() {
        user.push_str("The conversation has not started. Write your first message.");
    } else {
        user.push_str("The conversation so far:\n");
        for (said, answered) in so_far {
            user.push_str(&format!("User: {}\n", cut(said)));
            user.push_str(&format!("Assistant: {}\n", cut(answered)));
        }
        user.push_str(&format!(
            "\nWrite your next message, or {GOAL_MET} if your goal is met."
        ));
    }
    (system, user)
}

/// The user's next message, or `None` when the reply says the goal is met (or is empty).
pub fn next_message(reply: &str) -> Option<String> {
    let text = reply.trim();
    if text.is_empty() || text.contains(GOAL_MET) {
        return None;
    }
    Some(text.to_owned())
}

fn cut(text: &str) -> String {
    match text.char_indices().nth(MAX_MESSAGE_CHARS) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_prompt_carries_persona_goal_and_transcript_and_the_stop_word_ends() {
        let sim = SimulatedUser {
            persona: "a terse accountant".into(),
            goal: "get 2 + 40 added".into(),
            max_turns: 3,
            model: None,
        };
        let (system, user) = prompt(&sim, &[]);
        assert!(system.contains(GOAL_MET));
        assert!(user.contains("a terse accountant") && user.contains("first message"));
        let (_, user) = prompt(&sim, &[("add 2 and 40".into(), "42".into())]);
        assert!(
            user.contains("User: add 2 and 40\nAssistant: 42\n"),
            "{user}"
        );
        assert_eq!(next_message(" GOAL_MET "), None);
        assert_eq!(next_message("  and 3 + 4?\n"), Some("and 3 + 4?".into()));
    }
}
