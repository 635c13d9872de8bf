//! Retrying a model step that failed before it streamed anything. Once an event has reached
//! the caller a retry would duplicate output, so only a failure of the first poll is retried:
//! rate limits (waiting the provider's `retry-after`, capped), network errors and 5xx answers,
//! a bounded number of times, and never past a cancellation.

use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use futures::stream::BoxStream;
use tokio_util::sync::CancellationToken;

use super::{ChatRequest, LlmError, LlmProvider, StreamEvent};

/// How often and how patiently to retry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Attempts in total, the first included; 1 disables retrying.
    pub max_attempts: u32,
    /// The wait before the second attempt; doubled for each further one.
    pub base_delay: Duration,
    /// The longest wait, also the cap on a provider's `retry-after`.
    pub max_delay: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self {
            max_attempts: 3,
            base_delay: Duration::from_millis(500),
            max_delay: Duration::from_secs(10),
        }
    }
}

impl RetryPolicy {
    /// One attempt, no retries.
    pub fn none() -> Self {
        Self {
            max_attempts: 1,
            ..Self::default()
        }
    }

    /// The wait after failed attempt number `attempt` (1-based).
    pub fn delay_after(&self, attempt: u32, error: &LlmError) -> Duration {
        if let LlmError::RateLimit {
            retry_after: Some(wait),
            ..
        } = error
        {
            return (*wait).min(self.max_delay);
        }
        let factor = 2u32.saturating_pow(attempt.saturating_sub(1));
        self.base_delay.saturating_mul(factor).min(self.max_delay)
    }
}

/// Whether a failure before any output is worth another attempt. Narrower than
/// [`LlmError::is_retryable`]: a 4xx other than 408 is the request's fault and will fail again.
pub fn should_retry(error: &LlmError) -> bool {
    match error {
        LlmError::RateLimit { .. } | LlmError::Network { .. } => true,
        LlmError::Server { status, .. } => *status >= 500 || *status == 408,
        _ => false,
    }
}

/// An [`LlmProvider`] that retries its inner provider per a [`RetryPolicy`].
pub struct RetryingProvider {
    inner: Arc<dyn LlmProvider>,
    policy: RetryPolicy,
}

impl RetryingProvider {
    pub fn new(inner: Arc<dyn LlmProvider>, policy: RetryPolicy) -> Self {
        Self { inner, policy }
    }
}

impl LlmProvider for RetryingProvider {
    fn id(&self) -> &str {
        self.inner.id()
    }

    fn stream(
        &self,
        request: ChatRequest,
        cancel: CancellationToken,
    ) -> BoxStream<'static, Result<StreamEvent, LlmError>> {
        retry_stream(self.inner.clone(), self.policy, request, cancel)
    }
}

/// Streams `request` from `provider`, starting over while the first poll fails retryably.
pub fn retry_stream(
    provider: Arc<dyn LlmProvider>,
    policy: RetryPolicy,
    request: ChatRequest,
    cancel: CancellationToken,
) -> BoxStream<'static, Result<StreamEvent, LlmError>> {
    let state = Retry {
        provider,
        policy,
        request,
        cancel,
        attempt: 0,
        current: None,
        forwarding: false,
        done: false,
    };
    futures::stream::unfold(state, |mut state| async move {
        let item = state.next().await?;
        Some((item, state))
    })
    .boxed()
}

struct Retry {
    provider: Arc<dyn LlmProvider>,
    policy: RetryPolicy,
    request: ChatRequest,
    cancel: CancellationToken,
    attempt: u32,
    current: Option<BoxStream<'static, Result<StreamEvent, LlmError>>>,
    /// An event of the current attempt reached the caller: no more retries.
    forwarding: bool,
    done: bool,
}

impl Retry {
    async fn next(&mut self) -> Option<Result<StreamEvent, LlmError>> {
        if self.done {
            return None;
        }
        loop {
            let Some(stream) = self.current.as_mut() else {
                self.attempt += 1;
                self.current = Some(
                    self.provider
                        .stream(self.request.clone(), self.cancel.clone()),
                );
                continue;
            };
            let item = stream.next().await;
            if self.forwarding {
                if !matches!(item, Some(Ok(_))) {
                    self.done = true;
                }
                return item;
            }
            match item {
                Some(Ok(event)) => {
                    self.forwarding = true;
                    return Some(Ok(event));
                }
                Some(Err(error))
                    if self.attempt < self.policy.max_attempts.max(1)
                        && should_retry(&error)
                        && !self.cancel.is_cancelled() =>
                {
                    self.current = None;
                    let wait = self.policy.delay_after(self.attempt, &error);
                    tracing::debug!(
                        provider = self.provider.id(),
                        attempt = self.attempt,
                        wait_ms = wait.as_millis() as u64,
                        "retrying model step after: {error}"
                    );
                    tokio::select! {
                        biased;
                        _ = self.cancel.cancelled() => {
                            self.done = true;
                            return Some(Err(LlmError::Cancelled));
                        }
                        _ = tokio::time::sleep(wait) => {}
                    }
                }
                Some(Err(error)) => {
                    self.done = true;
                    return Some(Err(error));
                }
                None => {
                    self.done = true;
                    return Some(Err(LlmError::Truncated {
                        message: "the provider's stream ended without any event".into(),
                    }));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delays_double_and_cap_and_honor_retry_after() {
        let p = RetryPolicy {
            max_attempts: 5,
            base_delay: Duration::from_millis(100),
            max_delay: Duration::from_millis(350),
        };
        let net = LlmError::Network {
            message: String::new(),
        };
        assert_eq!(p.delay_after(1, &net), Duration::from_millis(100));
        assert_eq!(p.delay_after(2, &net), Duration::from_millis(200));
        assert_eq!(p.delay_after(3, &net), Duration::from_millis(350));
        let limited = |secs| LlmError::RateLimit {
            retry_after: Some(Duration::from_secs(secs)),
            message: String::new(),
        };
        assert_eq!(p.delay_after(1, &limited(0)), Duration::ZERO);
        assert_eq!(p.delay_after(1, &limited(60)), Duration::from_millis(350));
    }

    #[test]
    fn only_transient_failures_are_retried() {
        let server = |status| LlmError::Server {
            status,
            message: String::new(),
        };
        assert!(should_retry(&server(500)));
        assert!(should_retry(&server(529)));
        assert!(should_retry(&server(408)));
        assert!(!should_retry(&server(400)));
        assert!(!should_retry(&LlmError::Auth {
            message: String::new()
        }));
        assert!(!should_retry(&LlmError::Cancelled));
    }
}
