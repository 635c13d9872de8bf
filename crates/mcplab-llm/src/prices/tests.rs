// Cost arithmetic against hand-computed values, and the shipped table's integrity.

use super::PriceTable;
use mcplab_protocol::chat::TokenUsage;

fn usage(input: u64, output: u64) -> TokenUsage {
    TokenUsage {
        input_tokens: input,
        output_tokens: output,
        reasoning_tokens: 0,
    }
}

const TABLE: &str = r#"{"version": 1, "prices": {
  "openai::m": {"input": 2.0, "output": 8.0, "cachedInput": 0.5, "source": "https://example.test/p", "date": "2025-01-01"},
  "anthropic::n": {"input": 3.0, "output": 15.0, "source": "https://example.test/q", "date": "2025-01-02"}
}}"#;

#[test]
fn cost_is_tokens_times_price_per_million() {
    let t = PriceTable::parse(TABLE).unwrap();
    // 1,000 in × $2/M + 500 out × $8/M = $0.002 + $0.004 = $0.006.
    assert!((t.cost("openai::m", &usage(1000, 500), 0).unwrap() - 0.006).abs() < 1e-12);
    // 400 of the 1,000 input tokens cached: 600 × 2/M + 400 × 0.5/M + 500 × 8/M
    // = 0.0012 + 0.0002 + 0.004 = $0.0054.
    assert!((t.cost("openai::m", &usage(1000, 500), 400).unwrap() - 0.0054).abs() < 1e-12);
    // No cached price: cached tokens cost as input. 2,000,000 in × 3 + 100,000 out × 15 (/M)
    // = 6 + 1.5 = $7.50.
    assert!(
        (t.cost("anthropic::n", &usage(2_000_000, 100_000), 10)
            .unwrap()
            - 7.5)
            .abs()
            < 1e-9
    );
    // Reasoning tokens are part of output tokens: not billed again.
    let reasoning = TokenUsage {
        input_tokens: 0,
        output_tokens: 1_000_000,
        reasoning_tokens: 900_000,
    };
    assert_eq!(t.cost("openai::m", &reasoning, 0), Some(8.0));
    // Unknown model: no price, no guess.
    assert_eq!(t.cost("openai::gpt-unknown", &usage(1, 1), 0), None);
}

#[test]
fn overrides_replace_and_add() {
    let user = PriceTable::parse(r#"{"version": 1, "prices": {"openai::m": {"input": 1.0, "output": 1.0, "source": "mine", "date": "2026-01-01"}, "x::y": {"input": 0, "output": 0, "source": "local model", "date": "2026-01-01"}}}"#).unwrap();
    let t = PriceTable::parse(TABLE).unwrap().with_overrides(user);
    assert_eq!(t.cost("openai::m", &usage(1_000_000, 0), 0), Some(1.0));
    assert_eq!(t.cost("x::y", &usage(5, 5), 0), Some(0.0));
    assert!(t.price("anthropic::n").is_some());
}

#[test]
fn bad_tables_are_refused_with_the_model_named() {
    let negative = r#"{"version": 1, "prices": {"a::b": {"input": -1, "output": 1, "source": "s", "date": "d"}}}"#;
    assert!(
        PriceTable::parse(negative)
            .unwrap_err()
            .to_string()
            .contains("a::b")
    );
    let no_source = r#"{"version": 1, "prices": {"a::b": {"input": 1, "output": 1, "source": "", "date": "d"}}}"#;
    assert!(
        PriceTable::parse(no_source)
            .unwrap_err()
            .to_string()
            .contains("source")
    );
    assert!(PriceTable::parse(r#"{"version": 1, "prices": {"a::b": {"input": 1}}}"#).is_err());
}

#[test]
fn the_shipped_table_has_a_source_and_date_for_every_price() {
    let t = PriceTable::shipped().unwrap();
    assert!(t.prices.len() >= 5);
    for (model, p) in &t.prices {
        assert!(p.source.starts_with("https://"), "{model}");
        assert_eq!(p.date.len(), 10, "{model}: YYYY-MM-DD");
    }
}
