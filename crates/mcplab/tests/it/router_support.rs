//! The router harness of mcplab-server's tests (`harness`: the real router over an in-memory
//! store, requests as the UI sends them), shared with that crate rather than copied, plus what
//! only the router tests here need: the shipped demo server, which is this crate's binary, and
//! a state whose OpenAI is the scripted LLM.

use std::collections::HashMap;
use std::sync::Arc;

use mcplab_mcp::{ConnectionManager, ManagerOptions};
use mcplab_server::AppState;
use mcplab_testkit::llm::ScriptedLlm;
use serde_json::{Value, json};

#[path = "../../../mcplab-server/tests/it/router_support.rs"]
mod harness;
pub use harness::*;

/// [`state`] with OpenAI configured to talk to the scripted LLM `llm`.
pub fn state_with_llm(llm: &ScriptedLlm) -> Arc<AppState> {
    let manager = ConnectionManager::new(ManagerOptions::default());
    state_with(manager, PORT, &llm_env(llm))
}

/// The environment that points OpenAI at the scripted LLM `llm`.
pub fn llm_env(llm: &ScriptedLlm) -> HashMap<String, String> {
    HashMap::from([
        ("OPENAI_API_KEY".to_owned(), "sk-test-key".to_owned()),
        ("OPENAI_BASE_URL".to_owned(), llm.base_url()),
    ])
}

/// The server config of the shipped demo server (this build's binary) under `name`.
pub fn demo_config(name: &str) -> Value {
    json!({"name": name, "type": "stdio", "command": env!("CARGO_BIN_EXE_mcplab"),
           "args": ["demo-server"]})
}
