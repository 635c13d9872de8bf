//! A step's token accounting from what the provider reported and what was captured: the
//! provider's usage when it gave one; otherwise an estimate (about four bytes a token: the
//! request body as sent, the text and tool arguments streamed back), marked as one. The tool
//! definitions' share of the input is estimated by their share of the request body's bytes.

use mcplab_protocol::xray::{HttpExchange, StepTokens};

use crate::Usage;

/// Bytes per token in estimates (the usual rule of thumb for English text and JSON).
const BYTES_PER_TOKEN: u64 = 4;

fn estimate(bytes: u64) -> u64 {
    bytes.div_ceil(BYTES_PER_TOKEN)
}

/// The accounting of a step that offered `tool_count` tools, got `usage` from the provider
/// and streamed `output_bytes` of text, reasoning and tool arguments; `exchanges` are the
/// step's captured attempts (the last one is the one that counted).
pub fn step_tokens(
    usage: &Usage,
    exchanges: &[HttpExchange],
    tool_count: usize,
    output_bytes: usize,
) -> StepTokens {
    let sent = exchanges.last();
    let request_bytes = sent.map_or(0, |x| x.request_bytes);
    let tool_bytes = sent.map_or(0, |x| x.tool_definition_bytes);
    let reported = usage.input_tokens.is_some() && usage.output_tokens.is_some();
    let input = usage
        .input_tokens
        .unwrap_or_else(|| estimate(request_bytes));
    let output = usage
        .output_tokens
        .unwrap_or_else(|| estimate(output_bytes as u64));
    let tool_tokens = if request_bytes == 0 {
        0
    } else {
        // Rounded to the nearest token; u128 keeps large prompts from overflowing.
        ((u128::from(input) * u128::from(tool_bytes) + u128::from(request_bytes) / 2)
            / u128::from(request_bytes)) as u64
    };
    StepTokens {
        input_tokens: input,
        output_tokens: output,
        reasoning_tokens: usage.reasoning_tokens.unwrap_or(0),
        // Never more than the input they are part of (an estimate has none).
        cached_input_tokens: usage.cached_input_tokens.unwrap_or(0).min(input),
        cache_write_tokens: usage.cache_write_tokens.unwrap_or(0).min(input),
        estimated: !reported,
        tool_count: u32::try_from(tool_count).unwrap_or(u32::MAX),
        tool_definition_bytes: tool_bytes,
        request_bytes,
        tool_definition_tokens: tool_tokens,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sent(request_bytes: u64, tool_bytes: u64) -> HttpExchange {
        HttpExchange {
            attempt: 1,
            method: "POST".into(),
            url: "http://x.test/v1/chat/completions".into(),
            request_headers: Vec::new(),
            request_body: String::new(),
            request_bytes,
            request_truncated: false,
            tool_definition_bytes: tool_bytes,
            status: Some(200),
            response_headers: Vec::new(),
            response_body: String::new(),
            response_bytes: 0,
            response_truncated: false,
            error: None,
            duration_ms: 0,
            bodies_omitted: false,
        }
    }

    #[test]
    fn reported_usage_is_used_and_the_tool_share_follows_the_bytes() {
        let usage = Usage {
            input_tokens: Some(1000),
            output_tokens: Some(20),
            reasoning_tokens: Some(5),
            cached_input_tokens: Some(600),
            cache_write_tokens: Some(100),
        };
        let t = step_tokens(&usage, &[sent(4000, 1000)], 3, 80);
        assert_eq!(
            (t.input_tokens, t.output_tokens, t.reasoning_tokens),
            (1000, 20, 5)
        );
        assert!(!t.estimated);
        assert_eq!((t.cached_input_tokens, t.cache_write_tokens), (600, 100));
        assert_eq!(t.tool_definition_tokens, 250, "a quarter of the bytes");
        assert_eq!(
            (t.tool_count, t.tool_definition_bytes, t.request_bytes),
            (3, 1000, 4000)
        );
    }

    #[test]
    fn missing_usage_is_estimated_and_marked() {
        let t = step_tokens(&Usage::default(), &[sent(4001, 0)], 0, 10);
        assert!(t.estimated);
        assert_eq!(
            (t.input_tokens, t.output_tokens),
            (1001, 3),
            "bytes / 4, rounded up"
        );
        assert_eq!(t.tool_definition_tokens, 0);
        let none = step_tokens(&Usage::default(), &[], 0, 0);
        assert_eq!((none.input_tokens, none.request_bytes), (0, 0));
    }
}
