//! Maximum bipartite matching (Kuhn's augmenting paths): pairs as many left items (expected
//! calls, expected array items) with distinct right items (actual calls, actual items) as
//! possible. Greedy first-fit pairing can miss a full pairing that exists (a loose expectation
//! takes the only call a strict one could use); this cannot. Sizes here are small (tens).

/// For each left item, the right item it is paired with. Left items are tried in order and
/// each prefers the earliest compatible right item, so results are deterministic.
pub(super) fn max_matching(
    left: usize,
    right: usize,
    compatible: impl Fn(usize, usize) -> bool,
) -> Vec<Option<usize>> {
    let edges: Vec<Vec<usize>> = (0..left)
        .map(|i| (0..right).filter(|&j| compatible(i, j)).collect())
        .collect();
    let mut owner: Vec<Option<usize>> = vec![None; right];
    for i in 0..left {
        let mut seen = vec![false; right];
        augment(i, &edges, &mut owner, &mut seen);
    }
    let mut pairs = vec![None; left];
    for (j, o) in owner.iter().enumerate() {
        if let Some(i) = o {
            pairs[*i] = Some(j);
        }
    }
    pairs
}

fn augment(i: usize, edges: &[Vec<usize>], owner: &mut [Option<usize>], seen: &mut [bool]) -> bool {
    for &j in &edges[i] {
        if seen[j] {
            continue;
        }
        seen[j] = true;
        let free = match owner[j] {
            None => true,
            Some(other) => augment(other, edges, owner, seen),
        };
        if free {
            owner[j] = Some(i);
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_full_pairing_greedy_misses() {
        // Left 0 accepts anything, left 1 only right 0: greedy would give 0→0 and strand 1.
        let pairs = max_matching(2, 2, |i, j| i == 0 || j == 0);
        assert_eq!(pairs, vec![Some(1), Some(0)]);
    }

    #[test]
    fn unmatched_items_stay_none() {
        let pairs = max_matching(3, 1, |_, _| true);
        assert_eq!(pairs.iter().filter(|p| p.is_some()).count(), 1);
        assert_eq!(max_matching(0, 3, |_, _| true), Vec::<Option<usize>>::new());
    }
}
