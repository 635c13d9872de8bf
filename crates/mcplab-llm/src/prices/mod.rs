//! The price table: dollars per million tokens per `provider::model` (input, output, cached
//! input), each with the page it comes from and the date. Shipped as data (`prices.json`) and
//! overridable by the user's own file; a model that is not listed has no price — cost is
//! unknown, never guessed. Output tokens already include reasoning tokens (as providers count
//! them), so reasoning is not billed twice.

use std::collections::BTreeMap;
use std::fmt;

use mcplab_protocol::chat::TokenUsage;
use serde::{Deserialize, Serialize};

/// The table shipped with mcplab.
pub const SHIPPED: &str = include_str!("../../prices.json");

/// One model's prices, in US dollars per million tokens.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Price {
    pub input: f64,
    pub output: f64,
    /// Input tokens served from the provider's prompt cache (`None`: billed as input).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cached_input: Option<f64>,
    /// Input tokens written to the prompt cache (Anthropic bills them above the input price;
    /// `None`: a step that wrote to the cache has no price rather than a guessed one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_write: Option<f64>,
    /// Where the figures come from.
    pub source: String,
    /// When they were read there (YYYY-MM-DD).
    pub date: String,
}

/// Prices by `provider::model`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PriceTable {
    pub version: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    pub prices: BTreeMap<String, Price>,
}

#[derive(Debug, thiserror::Error)]
pub enum PriceError {
    #[error(
        "price table: {0} (expected {{\"version\": 1, \"prices\": {{\"provider::model\": {{\"input\": …, \"output\": …, \"source\": …, \"date\": …}}}}}})"
    )]
    Parse(#[from] serde_json::Error),
    #[error("price table: {model}: {problem}")]
    Invalid { model: String, problem: String },
    /// A price file that cannot be used, with its name and the line at fault.
    #[error("{origin}:{line}: {message}")]
    File {
        origin: String,
        line: usize,
        message: String,
    },
}

/// Where a row of the effective price table comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum PriceOrigin {
    /// The table shipped with mcplab.
    Shipped,
    /// The user's price file (it overrides a shipped row of the same model).
    User,
}

impl fmt::Display for PriceOrigin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PriceOrigin::Shipped => "shipped",
            PriceOrigin::User => "user",
        })
    }
}

/// The shipped table with the user's file over it, and where each row comes from.
#[derive(Debug, Clone, Default)]
pub struct EffectivePrices {
    pub table: PriceTable,
    pub origins: BTreeMap<String, PriceOrigin>,
}

impl EffectivePrices {
    /// The shipped table, then `user` (`(file name, its text)`) over it.
    pub fn layered(user: Option<(&str, &str)>) -> Result<EffectivePrices, PriceError> {
        let mut table = PriceTable::shipped()?;
        let mut origins: BTreeMap<String, PriceOrigin> = table
            .prices
            .keys()
            .map(|m| (m.clone(), PriceOrigin::Shipped))
            .collect();
        if let Some((origin, text)) = user {
            let over = PriceTable::parse_file(text, origin)?;
            origins.extend(over.prices.keys().map(|m| (m.clone(), PriceOrigin::User)));
            table = table.with_overrides(over);
        }
        Ok(EffectivePrices { table, origins })
    }

    /// Every row, by model: its price and where it comes from.
    pub fn rows(&self) -> impl Iterator<Item = (&String, &Price, PriceOrigin)> {
        self.table.prices.iter().map(|(m, p)| {
            let origin = self.origins.get(m).copied();
            (m, p, origin.unwrap_or(PriceOrigin::Shipped))
        })
    }
}

impl PriceTable {
    /// The table shipped with mcplab.
    pub fn shipped() -> Result<PriceTable, PriceError> {
        PriceTable::parse(SHIPPED)
    }

    /// Read a table (JSON), checking every price is a finite number ≥ 0 with a source.
    pub fn parse(text: &str) -> Result<PriceTable, PriceError> {
        let table: PriceTable = serde_json::from_str(text)?;
        for (model, p) in &table.prices {
            let invalid = |problem: &str| PriceError::Invalid {
                model: model.clone(),
                problem: problem.into(),
            };
            let all = [Some(p.input), Some(p.output), p.cached_input, p.cache_write];
            if all.iter().flatten().any(|v| !v.is_finite() || *v < 0.0) {
                return Err(invalid(
                    "prices are numbers ≥ 0 (dollars per million tokens)",
                ));
            }
            if !model.contains("::") {
                return Err(invalid("models are written provider::model"));
            }
            if p.source.trim().is_empty() || p.date.trim().is_empty() {
                return Err(invalid("every price needs its `source` and `date`"));
            }
        }
        Ok(table)
    }

    /// A price file's table; an error names `origin` and the line at fault (a syntax error's
    /// own line, or the line where the faulty model's entry starts).
    pub fn parse_file(text: &str, origin: &str) -> Result<PriceTable, PriceError> {
        PriceTable::parse(text).map_err(|e| {
            let (line, message) = match &e {
                PriceError::Parse(json) => (json.line(), e.to_string()),
                PriceError::Invalid { model, .. } => {
                    let key = format!("\"{model}\"");
                    let line = text
                        .lines()
                        .position(|l| l.contains(&key))
                        .map_or(1, |i| i + 1);
                    (line, e.to_string())
                }
                PriceError::File { line, message, .. } => (*line, message.clone()),
            };
            PriceError::File {
                origin: origin.to_owned(),
                line,
                message,
            }
        })
    }

    /// This table with `overrides`' entries replacing or adding to its own.
    pub fn with_overrides(mut self, overrides: PriceTable) -> PriceTable {
        self.prices.extend(overrides.prices);
        self
    }

    pub fn price(&self, model: &str) -> Option<&Price> {
        self.prices.get(model)
    }

    /// The cost of `usage` on `model`, of which `cached_input` input tokens came from the
    /// prompt cache; `None` when the model has no price.
    pub fn cost(&self, model: &str, usage: &TokenUsage, cached_input: u64) -> Option<f64> {
        self.cost_with_cache(model, usage, cached_input, 0)
    }

    /// [`Self::cost`] where `cache_write` input tokens were also written to the prompt cache:
    /// those at the `cacheWrite` price; `None` (no price, not a guess) when some were written
    /// and the model has no such price. Reads without a `cachedInput` price count as input,
    /// which is what providers without a cache discount bill.
    pub fn cost_with_cache(
        &self,
        model: &str,
        usage: &TokenUsage,
        cached_input: u64,
        cache_write: u64,
    ) -> Option<f64> {
        let p = self.price(model)?;
        let cached = cached_input.min(usage.input_tokens);
        let written = cache_write.min(usage.input_tokens - cached);
        let write_price = if written == 0 { 0.0 } else { p.cache_write? };
        let fresh = usage.input_tokens - cached - written;
        let per_token = |per_million: f64| per_million / 1_000_000.0;
        Some(
            fresh as f64 * per_token(p.input)
                + cached as f64 * per_token(p.cached_input.unwrap_or(p.input))
                + written as f64 * per_token(write_price)
                + usage.output_tokens as f64 * per_token(p.output),
        )
    }
}

#[cfg(test)]
mod tests;
