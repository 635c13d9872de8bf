//! What a model step cost, from the evals price table (`mcplab_llm::prices`, dollars per
//! million tokens per `provider::model`, each with its source and date). A model the table
//! does not list has no cost (`None`, shown as "no price"), never a guess; a turn or a session
//! costs the sum of its steps only when every step has a price. It prices; it never decides
//! how a turn goes.

use std::path::Path;

use mcplab_llm::prices::{EffectivePrices, PriceTable};
use mcplab_protocol::chat::TokenUsage;
use mcplab_protocol::xray::{StepCost, StepTokens, StepXray};

/// The user's price file in a data directory: same format as the shipped table, its rows
/// replacing or adding to the shipped ones.
pub const USER_PRICES: &str = "prices.json";

/// The effective price table: the shipped one, then `<data_dir>/prices.json` when it exists.
/// A file that cannot be read or used is an error naming it (and the line at fault).
pub fn load_prices(data_dir: &Path) -> Result<EffectivePrices, String> {
    let path = data_dir.join(USER_PRICES);
    if !path.is_file() {
        return EffectivePrices::layered(None).map_err(|e| e.to_string());
    }
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let name = path.display().to_string();
    EffectivePrices::layered(Some((&name, &text))).map_err(|e| {
        format!("{e}; fix the file (same format as the shipped table) or move it away")
    })
}

/// The cost of a step of `model` that used `tokens` (`None`: the model has no price).
pub fn step_cost(prices: &PriceTable, model: &str, tokens: &StepTokens) -> Option<StepCost> {
    let price = prices.price(model)?;
    let usage = TokenUsage {
        input_tokens: tokens.input_tokens,
        output_tokens: tokens.output_tokens,
        reasoning_tokens: tokens.reasoning_tokens,
    };
    // Cache reads at the table's cached-input price, cache writes at its cache-write price
    // (none there: no price for this step, never a guess).
    let usd = prices.cost_with_cache(
        model,
        &usage,
        tokens.cached_input_tokens,
        tokens.cache_write_tokens,
    )?;
    Some(StepCost {
        usd,
        estimated: tokens.estimated,
        source: price.source.clone(),
        date: price.date.clone(),
    })
}

/// The sum of the steps' costs; `None` when any step has no price (or there are no steps).
pub fn total_cost<'a>(steps: impl IntoIterator<Item = &'a StepXray>) -> Option<f64> {
    let mut total = None;
    for step in steps {
        total = Some(total.unwrap_or(0.0) + step.cost.as_ref()?.usd);
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(input: u64, output: u64) -> StepTokens {
        StepTokens {
            input_tokens: input,
            output_tokens: output,
            ..StepTokens::default()
        }
    }

    #[test]
    fn costs_follow_the_price_table_by_hand() {
        let prices = PriceTable::shipped().unwrap();
        // gpt-5-mini: $0.25 in, $2.00 out per million.
        // 1000 × 0.25 / 1e6 + 20 × 2.00 / 1e6 = 0.00025 + 0.00004 = 0.00029
        let c = step_cost(&prices, "openai::gpt-5-mini", &tokens(1000, 20)).unwrap();
        assert!((c.usd - 0.00029).abs() < 1e-12, "{}", c.usd);
        assert_eq!(
            c.source,
            "https://developers.openai.com/api/docs/models/gpt-5-mini"
        );
        assert_eq!(c.date, "2026-12-02");
        // claude-sonnet-4-5: $3 in, $15 out. 12345 × 3 / 1e6 + 678 × 15 / 1e6
        // = 0.037035 + 0.01017 = 0.047205
        let c = step_cost(&prices, "anthropic::claude-sonnet-4-5", &tokens(12345, 678)).unwrap();
        assert!((c.usd - 0.047205).abs() < 1e-12, "{}", c.usd);
        assert!(step_cost(&prices, "scripted::gpt-5-mini", &tokens(1, 1)).is_none());
        // A model whose price could not be verified is not listed: no price, never a guess.
        assert!(step_cost(&prices, "openai::gpt-4o-mini", &tokens(1, 1)).is_none());
        assert!(step_cost(&prices, "openai::no-such-model", &tokens(1, 1)).is_none());
    }

    #[test]
    fn cached_input_is_priced_at_the_cached_price_by_hand() {
        let prices = PriceTable::shipped().unwrap();
        // gpt-5-mini: $0.25 in, $0.025 cached in, $2.00 out per million. 1000 in, 800 of them
        // cached, 20 out: 200 × 0.25 / 1e6 + 800 × 0.025 / 1e6 + 20 × 2 / 1e6
        // = 0.00005 + 0.00002 + 0.00004 = 0.00011
        let t = StepTokens {
            cached_input_tokens: 800,
            ..tokens(1000, 20)
        };
        let c = step_cost(&prices, "openai::gpt-5-mini", &t).unwrap();
        assert!((c.usd - 0.00011).abs() < 1e-12, "{}", c.usd);
        // Cache writes: the shipped table has no cache-write price, so no price at all.
        let written = StepTokens {
            cached_input_tokens: 200,
            cache_write_tokens: 300,
            ..tokens(1000, 10)
        };
        assert!(step_cost(&prices, "anthropic::claude-sonnet-4-5", &written).is_none());
        // With one (a user's table): sonnet $3 in, $0.30 cached, $3.75 written, $15 out.
        // 500 × 3 / 1e6 + 200 × 0.3 / 1e6 + 300 × 3.75 / 1e6 + 10 × 15 / 1e6
        // = 0.0015 + 0.00006 + 0.001125 + 0.00015 = 0.002835
        let mut own = prices.clone();
        if let Some(p) = own.prices.get_mut("anthropic::claude-sonnet-4-5") {
            p.cache_write = Some(3.75);
        }
        let c = step_cost(&own, "anthropic::claude-sonnet-4-5", &written).unwrap();
        assert!((c.usd - 0.002835).abs() < 1e-12, "{}", c.usd);
    }

    fn step(cost: Option<f64>) -> StepXray {
        StepXray {
            step: 1,
            model: "m".into(),
            started_ms: 0,
            ttft_ms: None,
            duration_ms: 0,
            tokens: StepTokens::default(),
            cost: cost.map(|usd| StepCost {
                usd,
                estimated: false,
                source: "s".into(),
                date: "d".into(),
            }),
            exchanges: Vec::new(),
        }
    }

    #[test]
    fn a_total_needs_every_step_priced() {
        let sum = total_cost(&[step(Some(0.25)), step(Some(0.5))]).unwrap();
        assert!((sum - 0.75).abs() < 1e-12);
        assert_eq!(total_cost(&[step(Some(0.25)), step(None)]), None);
        assert_eq!(total_cost(&[]), None);
    }
}
