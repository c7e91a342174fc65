//! Reciprocal rank fusion: one ranking from several, each item scoring
//! `Σ 1 / (k + rank)` over the lists it appears in (rank from 1).

use std::collections::HashMap;

use crate::score::RankedFile;
use crate::walk::Haystack;

/// The usual constant: high enough that the first places of one list do not
/// drown the agreement of several.
pub const RRF_K: f64 = 60.0;

/// Fuses two rankings of files (each its haystacks and its ranked files,
/// best first) by key: the fused order, each file taken from the second
/// ranking where it has it (it scored every term), else from the first, and
/// reindexed into the returned haystacks. Scores are capped at the previous
/// file's, so the fused order is the score order.
pub fn fuse_ranked(
    first: (&[Haystack], &[RankedFile]),
    second: (&[Haystack], &[RankedFile]),
) -> (Vec<Haystack>, Vec<RankedFile>) {
    let keys = |(haystacks, ranked): (&[Haystack], &[RankedFile])| -> Vec<String> {
        ranked
            .iter()
            .filter_map(|f| haystacks.get(f.haystack).map(|h| h.key.clone()))
            .collect()
    };
    let order = fuse(&[keys(first), keys(second)], RRF_K);
    let find = |(haystacks, ranked): (&[Haystack], &[RankedFile]), key: &str| {
        ranked.iter().find_map(|f| {
            let h = haystacks.get(f.haystack)?;
            (h.key == key).then_some((f.clone(), h.clone()))
        })
    };
    let mut haystacks: Vec<Haystack> = Vec::new();
    let mut ranked: Vec<RankedFile> = Vec::new();
    let mut ceiling = f64::INFINITY;
    for key in &order {
        let Some((mut file, h)) = find(second, key).or_else(|| find(first, key)) else {
            continue;
        };
        file.haystack = haystacks.len();
        // The fused order is the order; each file keeps its own score where
        // that agrees, so the runner-up cut-offs of `select` still mean
        // something.
        file.score = file.score.min(ceiling);
        ceiling = file.score;
        haystacks.push(h);
        ranked.push(file);
    }
    (haystacks, ranked)
}

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

    fn ranking(files: &[(&str, f64)], prior: f64) -> (Vec<Haystack>, Vec<RankedFile>) {
        // Haystacks in reverse order, so indexes differ from ranks.
        let haystacks: Vec<Haystack> = files
            .iter()
            .rev()
            .map(|(key, _)| Haystack {
                key: key.to_string(),
                source: crate::walk::Source::Path(key.into()),
            })
            .collect();
        let ranked = files
            .iter()
            .enumerate()
            .map(|(i, &(_, score))| RankedFile {
                haystack: files.len() - 1 - i,
                file_score: score,
                prior,
                score,
                lines: Vec::new(),
                ..RankedFile::default()
            })
            .collect();
        (haystacks, ranked)
    }

    #[test]
    fn fused_files_come_from_the_second_ranking_where_it_has_them() {
        let (h1, r1) = ranking(&[("a", 9.0), ("b", 5.0)], 1.0);
        let (h2, r2) = ranking(&[("b", 8.0), ("c", 7.0)], 0.5);
        let (h, r) = fuse_ranked((&h1, &r1), (&h2, &r2));
        let keys: Vec<&str> = r.iter().map(|f| h[f.haystack].key.as_str()).collect();
        assert_eq!(keys, ["b", "a", "c"]);
        // b from the second ranking, a from the first.
        assert_eq!((r[0].prior, r[1].prior, r[2].prior), (0.5, 1.0, 0.5));
        // Scores never rise down the fused order.
        assert!(r.windows(2).all(|w| w[0].score >= w[1].score), "{r:?}");
        assert_eq!(r[1].score, 8.0);
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
