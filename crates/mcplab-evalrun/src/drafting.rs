//! Cases a model drafts from a server's tools (`mcplab eval init --generate N`, the Evals page's
//! "Draft cases"): the tools' names, descriptions and input schemas go to the model with a
//! request for realistic user prompts that should make an assistant call one of them; each
//! item of the JSON array it answers becomes a case expecting that call (arguments matched
//! partially). Items without a tool or a prompt are skipped; a reply with no JSON array is an
//! error that says so, and so is a model that has not answered whole within [`DRAFT_TIMEOUT`].

use std::time::Duration;

use futures::StreamExt;
use futures::stream::BoxStream;
use mcplab_evals::checks::json_in;
use mcplab_evals::import::safe_id;
use mcplab_evals::suite::{Case, ExpectedCall, ToolCallExpectations, Turn};
use mcplab_llm::{ChatRequest, LlmError, LlmProvider, Message, ModelRef, StreamEvent};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

/// How long a model may take over its whole answer (20 cases run to a few thousand tokens).
pub const DRAFT_TIMEOUT: Duration = Duration::from_secs(300);

/// Asks `model` (through `provider`) for `n` cases over `tools` (each server's `tools/list`
/// entries), within [`DRAFT_TIMEOUT`].
pub async fn draft_cases(
    provider: &dyn LlmProvider,
    model: ModelRef,
    tools: &[(String, Vec<Value>)],
    n: u32,
    cancel: &CancellationToken,
) -> Result<Vec<Case>, String> {
    draft_within(provider, model, tools, n, cancel, DRAFT_TIMEOUT).await
}

/// [`draft_cases`] with the model's answer given `limit`.
pub async fn draft_within(
    provider: &dyn LlmProvider,
    model: ModelRef,
    tools: &[(String, Vec<Value>)],
    n: u32,
    cancel: &CancellationToken,
    limit: Duration,
) -> Result<Vec<Case>, String> {
    let request = ChatRequest {
        model,
        system: vec!["You write test cases for MCP servers' tools.".into()],
        messages: vec![Message::user(prompt(tools, n))],
        tools: Vec::new(),
        temperature: Some(0.2),
        max_tokens: Some(4000),
        capture: None,
    };
    let stream = provider.stream(request, cancel.child_token());
    let reply = tokio::time::timeout(limit, reply_text(stream))
        .await
        .map_err(|_| {
            format!(
                "the model did not finish its answer within {} s: ask for fewer cases, or try \
                 another model",
                limit.as_secs_f64()
            )
        })??;
    let items = json_in(&reply)
        .and_then(|v| v.as_array().cloned())
        .ok_or("the model's reply held no JSON array of cases; try again or another model")?;
    Ok(items.iter().filter_map(drafted_case).collect())
}

/// The answer's text, up to its finish.
async fn reply_text(
    mut stream: BoxStream<'static, Result<StreamEvent, LlmError>>,
) -> Result<String, String> {
    let mut reply = String::new();
    while let Some(item) = stream.next().await {
        match item.map_err(|e| e.to_string())? {
            StreamEvent::TextDelta(t) => reply.push_str(&t),
            StreamEvent::Finish { .. } => break,
            _ => {}
        }
    }
    Ok(reply)
}

/// The request: every tool with its server, then what to write and in which shape.
fn prompt(tools: &[(String, Vec<Value>)], n: u32) -> String {
    let tools: Vec<Value> = tools
        .iter()
        .flat_map(|(server, tools)| {
            tools.iter().map(move |t| {
                json!({ "server": server, "name": t["name"], "description": t["description"],
                        "inputSchema": t["inputSchema"] })
            })
        })
        .collect();
    format!(
        "Tools:\n{}\n\nWrite {n} realistic user requests that should make an assistant call one of \
         these tools. Reply with only a JSON array of objects: {{\"id\": \"kebab-case-id\", \
         \"prompt\": \"…\", \"server\": \"…\", \"tool\": \"…\", \"arguments\": {{…}}}}.",
        serde_json::to_string_pretty(&tools).unwrap_or_default()
    )
}

/// One drafted item as a case, when it names a tool and a prompt.
fn drafted_case(item: &Value) -> Option<Case> {
    let text = |k: &str| item[k].as_str().map(str::to_owned);
    let tool = text("tool")?;
    Some(Case {
        id: safe_id(&text("id").unwrap_or_else(|| tool.clone()), "drafted"),
        title: Some(format!("Drafted: {tool}")),
        turns: vec![Turn::Text(text("prompt")?)],
        tool_calls: Some(ToolCallExpectations {
            expected: vec![ExpectedCall {
                tool,
                server: text("server"),
                arguments: item
                    .get("arguments")
                    .filter(|a| a.is_object())
                    .map(mcplab_evals::matching::plain_matcher),
                argument_mode: None,
                optional: false,
            }],
            ..Default::default()
        }),
        checks: Vec::new(),
        judge: None,
        models: None,
        repeat: None,
        pass_threshold: None,
        skip: false,
        ..Case::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcplab_testkit::llm::{ScriptedLlm, Step};
    use std::collections::HashMap;

    /// A model whose answer does not come in time is given up with what to do.
    #[tokio::test]
    async fn a_model_slower_than_the_limit_is_given_up() {
        let reply = Step::reply([r#"[{"prompt": "p", "tool": "add"}]"#]);
        let llm = ScriptedLlm::start(vec![reply.slow(30_000)]).await;
        let env = HashMap::from([
            ("OPENAI_API_KEY".to_owned(), "sk-test".to_owned()),
            ("OPENAI_BASE_URL".to_owned(), llm.base_url()),
        ]);
        let settings = mcplab_llm::ProviderSettings::from_vars(&env);
        let provider = settings
            .provider("openai", &mcplab_net::tls::client())
            .unwrap();
        let model = ModelRef::parse("openai::gpt-4o-mini").unwrap();
        let limit = Duration::from_millis(200);
        let cancel = CancellationToken::new();
        let err = draft_within(provider.as_ref(), model, &[], 1, &cancel, limit)
            .await
            .unwrap_err();
        assert!(
            err.contains("did not finish its answer within 0.2 s"),
            "{err}"
        );
        assert_eq!(llm.requests().len(), 1, "the model was asked");
    }

    #[test]
    fn items_become_cases_and_incomplete_ones_are_skipped() {
        let case = drafted_case(&json!({"id": "Add Two", "prompt": "add 2 and 3",
            "server": "demo", "tool": "add", "arguments": {"a": 2, "b": 3}}))
        .unwrap();
        assert_eq!(case.turns, vec![Turn::Text("add 2 and 3".into())]);
        let expected = &case.tool_calls.unwrap().expected[0];
        assert_eq!(
            (expected.tool.as_str(), expected.server.as_deref()),
            ("add", Some("demo"))
        );
        assert!(expected.arguments.is_some());
        assert!(drafted_case(&json!({"prompt": "no tool"})).is_none());
        assert!(drafted_case(&json!({"tool": "add"})).is_none());
    }
}
