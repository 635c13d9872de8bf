//! A conversation with a simulated user: before each turn the user's model (the case's
//! `simulatedUser.model`, else the model under test) writes the next message from the
//! persona, the goal and the conversation so far; the turn runs as a scripted one would. It
//! ends when the user's model says the goal is met, after `maxTurns` turns, or when a turn
//! does not finish. What the user's model spent is counted apart (`Spent::simulated_user`).

use mcplab_evals::run::SideUsage;
use mcplab_evals::simulated_user::{next_message, prompt};
use mcplab_evals::suite::SimulatedUser;
use mcplab_llm::prices::PriceTable;
use mcplab_llm::{ChatRequest, Message};
use tokio_util::sync::CancellationToken;

use crate::execute::{Cancelled, TurnRun, Turns};
use crate::providers::{Providers, complete_text, spent};

/// Most output the simulated user may write per message, in tokens.
const USER_MAX_TOKENS: u32 = 800;

/// How a simulated conversation went.
pub(crate) struct Conversation {
    pub runs: Vec<TurnRun>,
    pub spent: SideUsage,
    /// Why the user's model could not go on (the iteration is then errored).
    pub failed: Option<String>,
}

/// Plays `sim` against the model of `turns`; `user_model` is `provider::model`.
pub(crate) async fn converse(
    turns: &Turns<'_>,
    sim: &SimulatedUser,
    user_model: &str,
    (providers, prices): (&Providers, &PriceTable),
    cancel: &CancellationToken,
) -> Result<Conversation, Cancelled> {
    let mut out = Conversation {
        runs: Vec::new(),
        spent: SideUsage::default(),
        failed: None,
    };
    let mut history: Vec<Message> = Vec::new();
    while out.runs.len() < sim.max_turns as usize {
        let so_far: Vec<(String, String)> = out
            .runs
            .iter()
            .map(|r| (r.user.clone(), r.trace().answer))
            .collect();
        let (system, user) = prompt(sim, &so_far);
        let reply = match ask(providers, prices, user_model, system, user, cancel).await {
            Ok((reply, used)) => {
                out.spent = out.spent.plus(used);
                reply
            }
            Err((why, used)) => {
                out.spent = out.spent.plus(used);
                out.failed = Some(why);
                break;
            }
        };
        if cancel.is_cancelled() {
            return Err(Cancelled);
        }
        let Some(message) = next_message(&reply) else {
            break;
        };
        if !turns
            .one(&message, &mut out.runs, &mut history, cancel)
            .await?
        {
            break;
        }
    }
    Ok(out)
}

/// One message from the user's model, and what it spent.
async fn ask(
    providers: &Providers,
    prices: &PriceTable,
    model: &str,
    system: String,
    user: String,
    cancel: &CancellationToken,
) -> Result<(String, SideUsage), (String, SideUsage)> {
    let (model_ref, provider) = providers
        .get(model, None)
        .map_err(|e| (e, SideUsage::default()))?;
    let request = ChatRequest {
        model: model_ref,
        system: vec![system],
        messages: vec![Message::user(user)],
        tools: Vec::new(),
        temperature: None,
        max_tokens: Some(USER_MAX_TOKENS),
        capture: None,
    };
    match complete_text(provider.as_ref(), request, cancel).await {
        Ok((reply, usage)) => Ok((reply, spent(prices, model, Some(&usage)))),
        Err(failed) => {
            let why = match failed {
                Some(e) => format!("the simulated user's model ({model}) failed: {e}"),
                None => format!("the simulated user's model ({model}) ended its answer early"),
            };
            Err((why, SideUsage::default()))
        }
    }
}
