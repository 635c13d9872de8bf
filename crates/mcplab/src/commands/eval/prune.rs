//! `mcplab eval runs prune`: deletes stored runs by age and by count per suite, and reports
//! what went and how much smaller the database became (`--dry-run` only lists them). The rule
//! and the reclaiming are the store's; this turns `30d` into a cutoff and prints.

use clap::Args;
use mcplab_protocol::clock::now_ms;
use mcplab_store::PruneRule;
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
    #[arg(long, value_name = "AGE", value_parser = parse_age)]
    pub older_than: Option<u64>,
    /// List the runs that would be deleted; delete nothing.
    #[arg(long)]
    pub dry_run: bool,
}

/// `30d` → milliseconds.
fn parse_age(text: &str) -> Result<u64, String> {
    let unit_at = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (n, unit) = text.split_at(unit_at);
    let per: u64 = match unit {
        "s" => 1,
        "m" => 60,
        "h" => 3600,
        "d" => 86_400,
        "w" => 7 * 86_400,
        _ => {
            return Err(format!(
                "`{text}`: write a number and s, m, h, d or w (e.g. 30d)"
            ));
        }
    };
    let n: u64 = n
        .parse()
        .map_err(|_| format!("`{text}`: write a number and s, m, h, d or w (e.g. 30d)"))?;
    Ok(n.saturating_mul(per).saturating_mul(1000))
}

pub fn prune(args: PruneArgs, global: &Settings, data: &DataDir) -> Result<(), Failure> {
    if args.keep.is_none() && args.older_than.is_none() {
        return Err(Failure::usage(
            "say which runs to delete: --keep N (per suite), --older-than AGE (e.g. 30d), or both",
        ));
    }
    let rule = PruneRule {
        keep: args.keep,
        started_before_ms: args.older_than.map(|age| now_ms().saturating_sub(age)),
        dry_run: args.dry_run,
    };
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

#[cfg(test)]
mod tests {
    use super::parse_age;

    #[test]
    fn ages_read_with_their_unit() {
        assert_eq!(parse_age("30d"), Ok(30 * 86_400_000));
        assert_eq!(parse_age("2w"), Ok(14 * 86_400_000));
        assert_eq!(parse_age("90s"), Ok(90_000));
        assert!(parse_age("30").unwrap_err().contains("e.g. 30d"));
        assert!(parse_age("d").is_err());
    }
}
