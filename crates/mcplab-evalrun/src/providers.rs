//! The run's models: one provider per provider id, built from the provider settings the caller
//! merged (environment and Settings) without the provider layer's own retries, and wrapped in
//! the run's retry budget instead (whose waits pause the iteration's deadline); checked before the run starts so a missing key is a usage
//! error, not a thousand errored iterations. Also the judge: its grading model called with the
//! evals crate's prompt, its reply read by the evals crate, and what it spent priced (`spent`,
//! for any model called beside the one under test) so the run's cost and cost gate include it.

use std::collections::HashMap;
use std::sync::Arc;

use futures::StreamExt;
use mcplab_evals::judge::{judge_prompt, parse_judge_reply};
use mcplab_evals::run::SideUsage;
use mcplab_evals::suite::Judge;
use mcplab_evals::trace::Trace;
use mcplab_evals::verdict::JudgeVerdict;
use mcplab_llm::prices::PriceTable;
use mcplab_llm::{
    ChatRequest, LlmProvider, Message, ModelRef, ProviderSettings, RetryPolicy, StreamEvent, Usage,
    build_provider,
};
use mcplab_protocol::chat::TokenUsage;
use parking_lot::Mutex;
use tokio_util::sync::CancellationToken;

use crate::deadline::Deadline;
use crate::retry::{BudgetedProvider, RetryBudget, RetryNotice};

pub(crate) struct Providers {
    settings: ProviderSettings,
    http: reqwest::Client,
    budget: Arc<RetryBudget>,
    notice: RetryNotice,
    built: Mutex<HashMap<String, Arc<dyn LlmProvider>>>,
}

impl Providers {
    pub(crate) fn new(
        settings: ProviderSettings,
        http: reqwest::Client,
        budget: Arc<RetryBudget>,
        notice: RetryNotice,
    ) -> Self {
        Self {
            settings,
            http,
            budget,
            notice,
            built: Mutex::default(),
        }
    }

    /// The provider for `model` (`provider::model`), or what is wrong with it; its rate-limit
    /// waits pause `deadline`.
    pub(crate) fn get(
        &self,
        model: &str,
        deadline: Option<Arc<Deadline>>,
    ) -> Result<(ModelRef, Arc<dyn LlmProvider>), String> {
        let model = ModelRef::parse(model).map_err(|e| e.to_string())?;
        let inner = self.inner(&model)?;
        let provider: Arc<dyn LlmProvider> = Arc::new(BudgetedProvider::new(
            inner,
            self.budget.clone(),
            self.notice.clone(),
            deadline,
        ));
        Ok((model, provider))
    }

    /// The provider layer's client for `model`'s provider, built once.
    fn inner(&self, model: &ModelRef) -> Result<Arc<dyn LlmProvider>, String> {
        let mut built = self.built.lock();
        if let Some(p) = built.get(&model.provider) {
            return Ok(p.clone());
        }
        let config = self.settings.get(&model.provider).ok_or_else(|| {
            format!(
                "no provider `{}` for model `{model}`: use one of {} (keys from the environment \
                 or Settings)",
                model.provider,
                self.settings
                    .providers()
                    .iter()
                    .map(|p| p.id.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })?;
        let inner = build_provider(config, &self.http, RetryPolicy::none())
            .map_err(|e| format!("model `{model}`: {e}"))?;
        built.insert(model.provider.clone(), inner.clone());
        Ok(inner)
    }
}

/// Most output the judge may write, in tokens.
const JUDGE_MAX_TOKENS: u32 = 600;

/// What one call of `model` (`provider::model`) spent, priced from `prices` (`cost_usd` is
/// `None` when the model has no price). A call that ended without usage counts no tokens.
pub(crate) fn spent(prices: &PriceTable, model: &str, usage: Option<&Usage>) -> SideUsage {
    let Some(usage) = usage else {
        return SideUsage::default();
    };
    let tokens = TokenUsage {
        input_tokens: usage.input_tokens.unwrap_or(0),
        output_tokens: usage.output_tokens.unwrap_or(0),
        reasoning_tokens: usage.reasoning_tokens.unwrap_or(0),
    };
    SideUsage {
        calls: 1,
        input_tokens: tokens.input_tokens,
        output_tokens: tokens.output_tokens,
        cost_usd: prices.cost_with_cache(
            model,
            &tokens,
            usage.cached_input_tokens.unwrap_or(0),
            usage.cache_write_tokens.unwrap_or(0),
        ),
    }
}

/// Grades `trace` with the judge's model; any failure is a judge error, never a score. Also
/// what the judge spent (nothing when it failed before its usage arrived).
pub(crate) async fn judge(
    providers: &Providers,
    prices: &PriceTable,
    judge: &Judge,
    trace: &Trace,
    cancel: &CancellationToken,
) -> (JudgeVerdict, SideUsage) {
    let error = |message: String| (JudgeVerdict::Error { message }, SideUsage::default());
    let (model, provider) = match providers.get(&judge.model, None) {
        Ok(p) => p,
        Err(e) => return error(e),
    };
    let (system, user) = judge_prompt(judge, trace);
    let request = ChatRequest {
        model,
        system: vec![system],
        messages: vec![Message::user(user)],
        tools: Vec::new(),
        temperature: Some(0.0),
        max_tokens: Some(JUDGE_MAX_TOKENS),
        capture: None,
    };
    match complete_text(provider.as_ref(), request, cancel).await {
        Ok((reply, usage)) => {
            let spent = spent(prices, &judge.model, Some(&usage));
            (parse_judge_reply(&reply, &judge.model), spent)
        }
        Err(Some(e)) => error(format!("the judge model failed: {e}")),
        Err(None) => error("the judge model's answer ended early".into()),
    }
}

/// One model answer as text, with its usage: the text deltas of `request`'s stream up to its
/// finish. `Err(Some(why))` when the stream failed, `Err(None)` when it ended without a finish.
pub(crate) async fn complete_text(
    provider: &dyn LlmProvider,
    request: ChatRequest,
    cancel: &CancellationToken,
) -> Result<(String, Usage), Option<String>> {
    let mut stream = provider.stream(request, cancel.child_token());
    let mut reply = String::new();
    while let Some(item) = stream.next().await {
        match item {
            Ok(StreamEvent::TextDelta(t)) => reply.push_str(&t),
            Ok(StreamEvent::Finish { usage, .. }) => return Ok((reply, usage)),
            Ok(_) => {}
            Err(e) => return Err(Some(e.to_string())),
        }
    }
    Err(None)
}
