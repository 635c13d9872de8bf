//! `mcplab chat`: one turn (or, with `-i`, a conversation) with an LLM that may call the
//! connected servers' tools. Events stream to the terminal (or as JSON Lines with `--json`),
//! server requests are answered as in every CLI command, and Ctrl-C cancels the turn.

use std::collections::HashMap;
use std::io::{BufRead, IsTerminal, Write};

use std::sync::Arc;

use mcplab_core::agent::{
    Approvals, DEFAULT_APPROVAL_TIMEOUT, DEFAULT_SYSTEM_PROMPT, EventSink, TurnConfig, run_turn,
};
use mcplab_core::llm::{LlmProvider, Message, ModelRef, ProviderSettings};
use mcplab_protocol::chat::TurnEvent;
use tokio_util::sync::CancellationToken;

use crate::chat_output::{ApprovingSink, JsonLinesSink, TerminalSink};
use crate::cli::{ChatArgs, Global};
use crate::failure::{EXIT_CALL, EXIT_INTERRUPTED, Failure};
use crate::session::Session;
use crate::settings::DataDir;
use crate::target;

pub async fn run(args: ChatArgs, global: &Global, data: &DataDir) -> Result<(), Failure> {
    let model = ModelRef::parse(&args.model).map_err(|e| Failure::usage(e.to_string()))?;
    let provider = provider_for(&model, data)?;
    if args.prompt.is_none() && !args.interactive {
        return Err(Failure::usage(
            "give a prompt, or -i for an interactive chat",
        ));
    }
    let configs = target::resolve_many(&global.target, data)?;
    let session = Session::open_all(global, configs).await?;
    let result = converse(&args, global, &session, provider.as_ref(), model).await;
    session.close().await;
    result
}

/// The provider for `model`, from the environment and the providers stored in Settings.
fn provider_for(
    model: &ModelRef,
    data: &DataDir,
) -> Result<std::sync::Arc<dyn LlmProvider>, Failure> {
    let env: HashMap<String, String> = std::env::vars().collect();
    let mut settings = ProviderSettings::from_env(&env);
    if let Ok(store) = data.store()
        && let Ok(list) = store.provider_configs()
    {
        for (config, problem) in settings.merge_stored(list) {
            eprintln!("ignoring stored provider `{}`: {problem}", config.id);
        }
    }
    let http = reqwest::Client::builder()
        .build()
        .map_err(|e| Failure::usage(format!("cannot set up the HTTP client: {e}")))?;
    settings
        .provider(&model.provider, &http)
        .map_err(|e| Failure::usage(e.to_string()))
}

async fn converse(
    args: &ChatArgs,
    global: &Global,
    session: &Session,
    provider: &dyn LlmProvider,
    model: ModelRef,
) -> Result<(), Failure> {
    let printer: Box<dyn EventSink> = if global.json {
        Box::new(JsonLinesSink)
    } else {
        Box::new(TerminalSink::default())
    };
    let approvals = args.approve.then(|| Arc::new(Approvals::default()));
    let sink: Box<dyn EventSink> = match &approvals {
        Some(a) => Box::new(ApprovingSink {
            inner: printer,
            approvals: a.clone(),
        }),
        None => printer,
    };
    let mut history: Vec<Message> = Vec::new();
    let mut next = args.prompt.clone();
    let mut turn_no = 0u32;
    loop {
        let prompt = match next.take() {
            Some(p) => p,
            None if args.interactive => match read_prompt() {
                Some(p) => p,
                None => return Ok(()),
            },
            None => return Ok(()),
        };
        turn_no += 1;
        let cfg = TurnConfig {
            turn_id: format!("turn-{turn_no}"),
            model: model.clone(),
            system_prompt: args
                .system
                .clone()
                .unwrap_or_else(|| DEFAULT_SYSTEM_PROMPT.into()),
            temperature: args.temperature,
            max_tokens: args.max_tokens,
            step_limit: args.max_steps,
            servers: session.server_names(),
            tool_timeout: None,
            approvals: approvals.clone(),
            approval_timeout: DEFAULT_APPROVAL_TIMEOUT,
            context: Vec::new(),
        };
        // Ctrl-C cancels this turn; the next one gets a fresh token.
        let cancel = CancellationToken::new();
        let watcher = {
            let (interrupted, cancel) = (session.interrupted.clone(), cancel.clone());
            tokio::spawn(async move {
                interrupted.cancelled().await;
                cancel.cancel();
            })
        };
        let outcome = run_turn(
            provider,
            session.manager(),
            &history,
            Message::user(prompt),
            &cfg,
            sink.as_ref(),
            &cancel,
        )
        .await;
        watcher.abort();
        history.extend(outcome.messages);
        match outcome.terminal {
            TurnEvent::TurnCancelled { .. } => return Err(Failure::silent(EXIT_INTERRUPTED)),
            TurnEvent::TurnFailed { .. } if !args.interactive => {
                return Err(Failure::silent(EXIT_CALL));
            }
            _ => {}
        }
        if !args.interactive {
            return Ok(());
        }
    }
}

/// Reads the next message; `None` on EOF, an empty line or `/exit`.
fn read_prompt() -> Option<String> {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        eprint!("you> ");
        let _ = std::io::stderr().flush();
    }
    let mut line = String::new();
    match stdin.lock().read_line(&mut line) {
        Ok(0) | Err(_) => None,
        Ok(_) => {
            let t = line.trim();
            if t.is_empty() || t == "/exit" {
                None
            } else {
                Some(t.to_owned())
            }
        }
    }
}
