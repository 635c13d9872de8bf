//! `mcplab eval runs prune`: deletes stored runs by age and by count per suite, and reports
//! what went and how much smaller the database became (`--dry-run` only lists them). The rule
//! is `mcplab_evalrun::prune_rule` (the Evals page's Prune uses it too), the reclaiming the
//! store's; this prints.

use clap::Args;
use mcplab_protocol::clock::now_ms;
use serde_json::json;

use crate::failure::Failure;
use crate::output::outln;
use crate::settings::{DataDir, Settings};

#[derive(Args, Debug)]
pub struct PruneArgs {
    /// Keep the newest N runs of each suite.
    #[arg(long, value_name = "N")]
    pub keep: Option<usize>,
    /// Delete only runs started longer ago than this: a number with s, m, h, d or w (`30d`).
    #[arg(long, value_name = "AGE", value_parser = mcplab_evalrun::parse_age)]
    pub older_than: Option<u64>,
    /// List the runs that would be deleted; delete nothing.
    #[arg(long)]
    pub dry_run: bool,
}

pub fn prune(args: PruneArgs, global: &Settings, data: &DataDir) -> Result<(), Failure> {
    if args.keep.is_none() && args.older_than.is_none() {
        return Err(Failure::usage(
            "say which runs to delete: --keep N (per suite), --older-than AGE (e.g. 30d), or both",
        ));
    }
    let rule = mcplab_evalrun::prune_rule(args.keep, args.older_than, args.dry_run, now_ms())
        .map_err(Failure::usage)?;
    let store = data.store()?;
    let report = store
        .prune_eval_runs(&rule)
        .map_err(|e| Failure::usage(format!("cannot prune the eval runs: {e}")))?;
    if global.json {
        let v = json!({
            "deleted": report.deleted,
            "dryRun": args.dry_run,
            "bytesBefore": report.bytes_before,
            "bytesAfter": report.bytes_after,
        });
        outln!("{v}");
        return Ok(());
    }
    let verb = if args.dry_run {
        "would delete"
    } else {
        "deleted"
    };
    outln!("{verb} {} run(s)", report.deleted.len());
    for id in &report.deleted {
        outln!("  {id}");
    }
    if !args.dry_run && !report.deleted.is_empty() {
        outln!(
            "database {:.1} MiB → {:.1} MiB",
            report.bytes_before as f64 / 1_048_576.0,
            report.bytes_after as f64 / 1_048_576.0
        );
    }
    Ok(())
}
