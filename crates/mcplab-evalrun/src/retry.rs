//! Backing off from a provider's rate limits within a budget for the whole run. A step that
//! fails before streaming anything with a retryable error (rate limit, network, 5xx) waits —
//! the provider's `retry-after` if it gave one, else doubling from a second — and tries again
//! while the run's budget of retries lasts. Once it is spent the error stands and the iteration
//! ends in an error (not a failure): many of those make the run invalid, not red. Each wait
//! pauses the iteration's deadline (`deadline.rs`): a rate limit is not the model being slow.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use futures::StreamExt;
use futures::stream::BoxStream;
use mcplab_llm::{ChatRequest, LlmError, LlmProvider, RetryPolicy, StreamEvent, should_retry};
use tokio_util::sync::CancellationToken;

use crate::deadline::Deadline;

/// Retries shared by every iteration of a run.
#[derive(Debug)]
pub struct RetryBudget {
    left: AtomicU32,
    policy: RetryPolicy,
}

impl RetryBudget {
    /// `retries` retries in all, waiting per `policy` (its `max_attempts` is per step).
    pub fn new(retries: u32, policy: RetryPolicy) -> Arc<Self> {
        Arc::new(Self {
            left: AtomicU32::new(retries),
            policy,
        })
    }

    /// The default for a run of `planned` iterations: 20 plus one per five iterations, each
    /// step trying at most 6 times, waits from 1 s up to 60 s.
    pub fn for_run(planned: usize) -> Arc<Self> {
        let retries = 20 + u32::try_from(planned / 5).unwrap_or(u32::MAX - 20);
        Self::new(
            retries,
            RetryPolicy {
                max_attempts: 6,
                base_delay: Duration::from_secs(1),
                max_delay: Duration::from_secs(60),
            },
        )
    }

    pub fn left(&self) -> u32 {
        self.left.load(Ordering::SeqCst)
    }

    fn take(&self) -> bool {
        self.left
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
            .is_ok()
    }
}

/// Called before each wait: the error, the wait, the retries left.
pub(crate) type RetryNotice = Arc<dyn Fn(&LlmError, Duration, u32) + Send + Sync>;

/// A provider whose steps retry within the run's budget.
pub(crate) struct BudgetedProvider {
    inner: Arc<dyn LlmProvider>,
    budget: Arc<RetryBudget>,
    notice: RetryNotice,
    /// The iteration's deadline, paused while a wait lasts.
    deadline: Option<Arc<Deadline>>,
}

impl BudgetedProvider {
    pub(crate) fn new(
        inner: Arc<dyn LlmProvider>,
        budget: Arc<RetryBudget>,
        notice: RetryNotice,
        deadline: Option<Arc<Deadline>>,
    ) -> Self {
        Self {
            inner,
            budget,
            notice,
            deadline,
        }
    }
}

impl LlmProvider for BudgetedProvider {
    fn id(&self) -> &str {
        self.inner.id()
    }

    fn stream(
        &self,
        request: ChatRequest,
        cancel: CancellationToken,
    ) -> BoxStream<'static, Result<StreamEvent, LlmError>> {
        let (inner, budget, notice) =
            (self.inner.clone(), self.budget.clone(), self.notice.clone());
        let deadline = self.deadline.clone();
        futures::stream::once(async move {
            let mut attempt = 0u32;
            loop {
                attempt += 1;
                let mut stream = inner.stream(request.clone(), cancel.clone());
                match stream.next().await {
                    Some(Err(e))
                        if should_retry(&e)
                            && attempt < budget.policy.max_attempts
                            && !cancel.is_cancelled()
                            && budget.take() =>
                    {
                        let wait = budget.policy.delay_after(attempt, &e);
                        notice(&e, wait, budget.left());
                        // The provider's wait, not the model's time: the deadline stands still.
                        let _paused = deadline.as_ref().map(Deadline::pause);
                        tokio::select! {
                            biased;
                            _ = cancel.cancelled() => {
                                return futures::stream::once(async { Err(LlmError::Cancelled) })
                                    .boxed();
                            }
                            _ = tokio::time::sleep(wait) => {}
                        }
                    }
                    Some(first) => {
                        return futures::stream::once(async { first }).chain(stream).boxed();
                    }
                    None => return stream,
                }
            }
        })
        .flatten()
        .boxed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcplab_llm::{FinishReason, ModelRef, Usage};
    use std::sync::Mutex;

    /// Fails with a rate limit `fails` times, then answers.
    struct Flaky {
        fails: Mutex<u32>,
        calls: AtomicU32,
    }

    impl LlmProvider for Flaky {
        fn id(&self) -> &str {
            "flaky"
        }
        fn stream(
            &self,
            _: ChatRequest,
            _: CancellationToken,
        ) -> BoxStream<'static, Result<StreamEvent, LlmError>> {
            self.calls.fetch_add(1, Ordering::SeqCst);
            let mut fails = self.fails.lock().unwrap();
            if *fails > 0 {
                *fails -= 1;
                return futures::stream::once(async {
                    Err(LlmError::RateLimit {
                        retry_after: Some(Duration::from_millis(1)),
                        message: "slow down".into(),
                    })
                })
                .boxed();
            }
            futures::stream::iter([
                Ok(StreamEvent::TextDelta("ok".into())),
                Ok(StreamEvent::Finish {
                    reason: FinishReason::Stop,
                    usage: Usage::default(),
                }),
            ])
            .boxed()
        }
    }

    fn request() -> ChatRequest {
        ChatRequest {
            model: ModelRef::parse("x::y").unwrap(),
            system: vec![],
            messages: vec![],
            tools: vec![],
            temperature: None,
            max_tokens: None,
            capture: None,
        }
    }

    #[tokio::test]
    async fn rate_limits_wait_within_the_budget_then_stand() {
        let flaky = Arc::new(Flaky {
            fails: Mutex::new(2),
            calls: AtomicU32::new(0),
        });
        let budget = RetryBudget::new(3, RetryPolicy::default());
        let notices = Arc::new(AtomicU32::new(0));
        let counted = notices.clone();
        let p = BudgetedProvider::new(
            flaky.clone(),
            budget.clone(),
            Arc::new(move |_, _, _| {
                counted.fetch_add(1, Ordering::SeqCst);
            }),
            None,
        );
        let items: Vec<_> = p
            .stream(request(), CancellationToken::new())
            .collect()
            .await;
        assert!(
            matches!(items[0], Ok(StreamEvent::TextDelta(_))),
            "{items:?}"
        );
        assert_eq!(budget.left(), 1);
        assert_eq!(notices.load(Ordering::SeqCst), 2);
        // Two more failures: one retry is left, then the error stands.
        *flaky.fails.lock().unwrap() = 2;
        let items: Vec<_> = p
            .stream(request(), CancellationToken::new())
            .collect()
            .await;
        assert!(
            matches!(items[..], [Err(LlmError::RateLimit { .. })]),
            "{items:?}"
        );
        assert_eq!(budget.left(), 0);
        assert_eq!(flaky.calls.load(Ordering::SeqCst), 3 + 2);
    }
}
