//! Reciprocal rank fusion: one ranking from several, each item scoring
//! `Σ 1 / (k + rank)` over the lists it appears in (rank from 1).

use std::collections::HashMap;

/// The usual constant: high enough that the first places of one list do not
/// drown the agreement of several.
pub const RRF_K: f64 = 60.0;

/// Fuses rankings of keys (best first); ties keep the order of first
/// appearance (earlier lists first), so the result is deterministic.
pub fn fuse(lists: &[Vec<String>], k: f64) -> Vec<String> {
    let mut score: HashMap<&str, f64> = HashMap::new();
    let mut order: Vec<&str> = Vec::new();
    for list in lists {
        for (i, key) in list.iter().enumerate() {
            let entry = score.entry(key.as_str()).or_insert_with(|| {
                order.push(key.as_str());
                0.0
            });
            *entry += 1.0 / (k + (i + 1) as f64);
        }
    }
    let position: HashMap<&str, usize> = order.iter().enumerate().map(|(i, k)| (*k, i)).collect();
    let mut keys = order;
    keys.sort_by(|a, b| {
        score[b]
            .total_cmp(&score[a])
            .then(position[a].cmp(&position[b]))
    });
    keys.into_iter().map(str::to_string).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn agreement_beats_a_single_first_place() {
        let fused = fuse(&[list(&["a", "b", "c"]), list(&["b", "c", "a"])], RRF_K);
        assert_eq!(fused, list(&["b", "a", "c"]));
    }

    #[test]
    fn items_of_one_list_only_keep_their_order_and_ties_are_stable() {
        let fused = fuse(&[list(&["x", "y"]), list(&["z"])], RRF_K);
        assert_eq!(fused, list(&["x", "z", "y"]));
        assert!(fuse(&[], RRF_K).is_empty());
    }
}
