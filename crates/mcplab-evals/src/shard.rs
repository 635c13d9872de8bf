//! Sharding for CI matrices: `--shard i/n` takes every n-th unit of the canonical plan
//! (cases in file order × models × iterations), starting at the i-th — deterministic, balanced
//! to within one unit, and spreading each case's iterations over the shards. `merge` puts the
//! shards of one run back together, refusing mismatched, missing or overlapping shards so a
//! merged run is exactly the unsharded one.

use std::collections::HashSet;

use thiserror::Error;

use crate::run::{RunRecord, Shard, Unit};

/// `"2/4"` → shard 2 of 4.
pub fn parse_shard(text: &str) -> Result<Shard, String> {
    let bad =
        || format!("`{text}` is not a shard: write INDEX/COUNT with 1 ≤ INDEX ≤ COUNT, e.g. 2/4");
    let (i, n) = text.split_once('/').ok_or_else(bad)?;
    let (index, count) = (
        i.trim().parse::<u32>().map_err(|_| bad())?,
        n.trim().parse::<u32>().map_err(|_| bad())?,
    );
    if count == 0 || index == 0 || index > count {
        return Err(bad());
    }
    Ok(Shard { index, count })
}

/// The units of `plan` that belong to `shard`, in plan order.
pub fn shard_units(plan: &[Unit], shard: Shard) -> Vec<Unit> {
    plan.iter()
        .enumerate()
        .filter(|(k, _)| *k as u64 % u64::from(shard.count) == u64::from(shard.index - 1))
        .map(|(_, u)| u.clone())
        .collect()
}

#[derive(Debug, Error, PartialEq)]
pub enum MergeError {
    #[error("nothing to merge: give the result files of every shard")]
    Empty,
    #[error(
        "{0} is not a shard result (it has no `shard`); merge takes the results of `--shard i/n` runs"
    )]
    NotAShard(String),
    #[error("the shards are of different runs: {0}")]
    Mismatch(String),
    #[error("shard {0} appears twice")]
    Duplicate(String),
    #[error(
        "shard(s) {missing} of {count} missing: merge all of them (a partial merge would look like a complete run)"
    )]
    Missing { missing: String, count: u32 },
    #[error("unit {0:?} ran in more than one shard, or in a shard it does not belong to")]
    Overlap(Unit),
}

/// Merge the results of every shard of one run into that run.
pub fn merge(mut shards: Vec<RunRecord>) -> Result<RunRecord, MergeError> {
    let first = shards.first().map(clone_header).ok_or(MergeError::Empty)?;
    let first = &first;
    let count = first
        .shard
        .ok_or_else(|| MergeError::NotAShard(first.suite_id.clone()))?
        .count;
    for s in &shards {
        let shard = s
            .shard
            .ok_or_else(|| MergeError::NotAShard(s.suite_id.clone()))?;
        if s.suite_id != first.suite_id || s.suite_hash != first.suite_hash {
            return Err(MergeError::Mismatch(format!(
                "suite {} ({}) vs {} ({})",
                s.suite_id,
                short(&s.suite_hash),
                first.suite_id,
                short(&first.suite_hash)
            )));
        }
        if shard.count != count {
            return Err(MergeError::Mismatch(format!(
                "split in {} and in {count}",
                shard.count
            )));
        }
        if s.cases != first.cases {
            return Err(MergeError::Mismatch("their case settings differ".into()));
        }
    }
    shards.sort_by_key(|s| s.shard.map(|sh| sh.index));
    let mut seen = HashSet::new();
    for s in &shards {
        let index = s.shard.map_or(0, |sh| sh.index);
        if !seen.insert(index) {
            return Err(MergeError::Duplicate(format!("{index}/{count}")));
        }
    }
    let missing: Vec<String> = (1..=count)
        .filter(|i| !seen.contains(i))
        .map(|i| i.to_string())
        .collect();
    if !missing.is_empty() {
        return Err(MergeError::Missing {
            missing: missing.join(", "),
            count,
        });
    }
    // Interleave the plans back: unit k of the whole plan is unit k / n of shard k mod n.
    let total: usize = shards.iter().map(|s| s.planned.len()).sum();
    let mut planned = Vec::with_capacity(total);
    for k in 0..total {
        match shards[k % count as usize].planned.get(k / count as usize) {
            Some(u) => planned.push(u.clone()),
            None => {
                return Err(MergeError::Mismatch(
                    "the shard plans do not interleave into one plan".into(),
                ));
            }
        }
    }
    let mut iterations = Vec::new();
    let mut ran = HashSet::new();
    for s in &shards {
        let own: HashSet<&Unit> = s.planned.iter().collect();
        for it in &s.iterations {
            if !own.contains(&it.unit) || !ran.insert(it.unit.clone()) {
                return Err(MergeError::Overlap(it.unit.clone()));
            }
            iterations.push(it.clone());
        }
    }
    let position: std::collections::HashMap<&Unit, usize> =
        planned.iter().enumerate().map(|(k, u)| (u, k)).collect();
    iterations.sort_by_key(|it| position.get(&it.unit).copied().unwrap_or(usize::MAX));
    Ok(RunRecord {
        suite_id: first.suite_id.clone(),
        suite_hash: first.suite_hash.clone(),
        shard: None,
        cases: first.cases.clone(),
        planned,
        iterations,
    })
}

/// `record` without its plan and iterations (what shards must agree on).
fn clone_header(record: &RunRecord) -> RunRecord {
    RunRecord {
        planned: Vec::new(),
        iterations: Vec::new(),
        ..record.clone()
    }
}

fn short(hash: &str) -> &str {
    hash.get(..12).unwrap_or(hash)
}
