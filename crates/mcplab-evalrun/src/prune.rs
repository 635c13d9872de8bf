//! `eval runs prune` as a rule, the one reading of its words for the CLI and the Evals page:
//! `--keep N` per suite and `--older-than 30d` turned into the store's cutoff. The store does
//! the deleting and reclaiming; this decides only what "old" means.

use mcplab_store::PruneRule;

const AGE_HELP: &str = "write a number and s, m, h, d or w (e.g. 30d)";

/// `30d` → milliseconds.
pub fn parse_age(text: &str) -> Result<u64, String> {
    let text = text.trim();
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
        _ => return Err(format!("`{text}`: {AGE_HELP}")),
    };
    let n: u64 = n.parse().map_err(|_| format!("`{text}`: {AGE_HELP}"))?;
    Ok(n.saturating_mul(per).saturating_mul(1000))
}

/// The rule for keeping `keep` runs per suite and/or deleting those older than `older_than_ms`,
/// as of `now_ms`; at least one must be given.
pub fn prune_rule(
    keep: Option<usize>,
    older_than_ms: Option<u64>,
    dry_run: bool,
    now_ms: u64,
) -> Result<PruneRule, String> {
    if keep.is_none() && older_than_ms.is_none() {
        return Err(
            "say which runs to delete: keep N (per suite), older than an age (e.g. 30d), or both"
                .into(),
        );
    }
    Ok(PruneRule {
        keep,
        started_before_ms: older_than_ms.map(|age| now_ms.saturating_sub(age)),
        dry_run,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ages_read_with_their_unit() {
        assert_eq!(parse_age("30d"), Ok(30 * 86_400_000));
        assert_eq!(parse_age("2w"), Ok(14 * 86_400_000));
        assert_eq!(parse_age("90s"), Ok(90_000));
        assert!(parse_age("30").unwrap_err().contains("e.g. 30d"));
        assert!(parse_age("d").is_err());
    }

    #[test]
    fn a_rule_needs_keep_or_an_age() {
        assert!(prune_rule(None, None, false, 10).is_err());
        let r = prune_rule(Some(3), Some(4), true, 10).unwrap();
        assert_eq!(
            (r.keep, r.started_before_ms, r.dry_run),
            (Some(3), Some(6), true)
        );
    }
}
