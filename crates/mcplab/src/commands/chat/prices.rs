//! `mcplab chat --print-prices`: the effective price table chat, compare and evals cost steps
//! with — the shipped table with the data directory's `prices.json` over it — one row per
//! model with where it comes from (`shipped` or `user`), as a table or, with `--json`, as JSON.
//! A malformed user file is an error naming the file and the line.

use std::path::Path;

use mcplab_core::agent::cost::{USER_PRICES, load_prices};
use mcplab_llm::prices::EffectivePrices;
use serde_json::json;

use crate::failure::Failure;
use crate::output::outln;

/// The effective table for `data_dir`, or a usage error naming the file and line at fault.
pub fn effective(data_dir: &Path) -> Result<EffectivePrices, Failure> {
    load_prices(data_dir).map_err(Failure::usage)
}

pub fn print(data_dir: &Path, as_json: bool) -> Result<(), Failure> {
    let prices = effective(data_dir)?;
    let user = data_dir.join(USER_PRICES);
    if as_json {
        let rows: Vec<_> = prices
            .rows()
            .map(|(model, p, origin)| {
                json!({"model": model, "input": p.input, "output": p.output,
                       "cachedInput": p.cached_input, "cacheWrite": p.cache_write,
                       "source": p.source, "date": p.date, "origin": origin})
            })
            .collect();
        outln!("{}", json!({"userFile": user, "prices": rows}));
        return Ok(());
    }
    let money = |v: Option<f64>| v.map_or("-".to_owned(), |v| format!("{v}"));
    outln!("dollars per million tokens; user file: {}", user.display());
    outln!("model\tinput\tcached input\tcache write\toutput\tfrom\tsource (read)");
    for (model, p, origin) in prices.rows() {
        outln!(
            "{model}\t{}\t{}\t{}\t{}\t{origin}\t{} ({})",
            p.input,
            money(p.cached_input),
            money(p.cache_write),
            p.output,
            p.source,
            p.date
        );
    }
    Ok(())
}
