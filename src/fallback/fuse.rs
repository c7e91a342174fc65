//! Fusing the model's verified places with the offline results: the model's
//! ranking is one more ranked list, never a replacement, so a weak model's
//! disagreement cannot lose an offline result (issue 18).
//!
//! A model file whose claimed lines do not *locate* (none holds the query's
//! words or the words the model taught, and none defines a name: what a small
//! model that miscounts lines lands on) joins the results without a vote: it
//! is printed after the offline ranking's files, never ahead of them.
//!
//! Owns the order of the fused files and which lines each prints. Pure: keys
//! and line numbers in, keys and line numbers out; the caller maps keys to
//! haystacks. Verification happened before (`verify`): every line here is a
//! real line of its file.

use super::rrf;

/// How the model's ranking and the offline one are combined.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fusion {
    /// Reciprocal rank fusion of the two file rankings: agreement wins, and a
    /// file only one of them ranks keeps its place in that ranking.
    ReciprocalRank,
    /// The model re-ranks: its files first, in its order, then the offline
    /// files it did not name.
    Listwise,
}

/// The fusion kgrep's fallback uses. Measured against the real local model
/// (tests/bench/llm_fusion.py): see the README's "Language model" section.
pub const FUSION: Fusion = Fusion::ReciprocalRank;

/// One printed file after fusion.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placed {
    pub key: String,
    /// The lines to print, sorted.
    pub lines: Vec<usize>,
    /// Those the model chose.
    pub chosen: Vec<usize>,
}

/// Fuses. `ranked`: the offline ranking's files, best first; `printed`: the
/// offline selection (files in print order with their lines, each file's
/// best first, so the cap keeps a file's best lines); `model`: the
/// model's verified places (files in its order with their lines);
/// `not_locating`: those of its files whose lines do not locate (no vote).
/// `max_lines` caps the lines printed in all (0: no cap); the model's lines
/// of a file come before its offline ones under the cap.
pub fn fuse(
    how: Fusion,
    ranked: &[String],
    printed: &[(String, Vec<usize>)],
    model: &[(String, Vec<usize>)],
    not_locating: &[String],
    max_lines: usize,
) -> Vec<Placed> {
    let model_keys: Vec<String> = model
        .iter()
        .map(|(k, _)| k.clone())
        .filter(|k| !not_locating.contains(k))
        .collect();
    let mut offline_keys: Vec<String> = ranked.to_vec();
    for (k, _) in printed {
        if !offline_keys.contains(k) {
            offline_keys.push(k.clone());
        }
    }
    let order: Vec<String> = match how {
        // The model's list first: a tie (a file only the model names, first
        // in its ranking, against the offline first) goes to the model, so a
        // right model can win even where the offline ranking missed the file.
        Fusion::ReciprocalRank => rrf::fuse(&[model_keys, offline_keys], rrf::RRF_K),
        Fusion::Listwise => {
            let rest: Vec<String> = offline_keys
                .into_iter()
                .filter(|k| !model_keys.contains(k))
                .collect();
            let mut order = model_keys;
            order.extend(rest);
            order
        }
    };
    // The model's files without a vote, after everything ranked.
    let mut order = order;
    for (k, _) in model {
        if !order.contains(k) {
            order.push(k.clone());
        }
    }
    let lines_of = |list: &[(String, Vec<usize>)], key: &str| -> Vec<usize> {
        list.iter()
            .filter(|(k, _)| k == key)
            .flat_map(|(_, l)| l.iter().copied())
            .collect()
    };
    let cap = if max_lines == 0 {
        usize::MAX
    } else {
        max_lines
    };
    // Each file's candidates, the model's lines first, without repeats.
    let candidates: Vec<(String, Vec<usize>, Vec<usize>)> = order
        .into_iter()
        .filter_map(|key| {
            let chosen = lines_of(model, &key);
            let mut all: Vec<usize> = Vec::new();
            for n in chosen.iter().chain(&lines_of(printed, &key)) {
                if !all.contains(n) {
                    all.push(*n);
                }
            }
            (!all.is_empty()).then_some((key, chosen, all))
        })
        .collect();
    // The budget goes round the files: first every file's first line, in
    // fused order, then the rest in order. A model that claims many lines
    // of one file cannot take the budget of the offline files after it.
    let mut taken = vec![0usize; candidates.len()];
    let mut total = 0;
    for (t, (_, _, all)) in taken.iter_mut().zip(&candidates) {
        if total < cap && !all.is_empty() {
            *t = 1;
            total += 1;
        }
    }
    for (t, (_, _, all)) in taken.iter_mut().zip(&candidates) {
        let more = (all.len() - *t).min(cap - total);
        *t += more;
        total += more;
    }
    let mut out = Vec::new();
    for ((key, chosen, all), t) in candidates.into_iter().zip(taken) {
        if t == 0 {
            break;
        }
        let mut lines: Vec<usize> = all.into_iter().take(t).collect();
        let chosen: Vec<usize> = chosen.into_iter().filter(|n| lines.contains(n)).collect();
        lines.sort_unstable();
        out.push(Placed { key, lines, chosen });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    fn files(v: &[(&str, &[usize])]) -> Vec<(String, Vec<usize>)> {
        v.iter().map(|(k, l)| (k.to_string(), l.to_vec())).collect()
    }

    #[test]
    fn agreement_wins_and_no_offline_file_is_lost() {
        let ranked = keys(&["a", "b", "c", "d"]);
        let printed = files(&[("a", &[3, 9]), ("b", &[5])]);
        let model = files(&[("b", &[7]), ("c", &[40])]);
        let fused = fuse(Fusion::ReciprocalRank, &ranked, &printed, &model, &[], 15);
        let order: Vec<&str> = fused.iter().map(|p| p.key.as_str()).collect();
        assert_eq!(order, ["b", "c", "a"], "both rankings name b and c");
        assert_eq!(fused[0].lines, vec![5, 7]);
        assert_eq!(fused[0].chosen, vec![7]);
        assert_eq!(fused[2].lines, vec![3, 9], "the offline first file stays");
    }

    #[test]
    fn a_file_only_the_model_names_is_printed() {
        let fused = fuse(
            Fusion::ReciprocalRank,
            &keys(&["a"]),
            &files(&[("a", &[1])]),
            &files(&[("z", &[8])]),
            &[],
            15,
        );
        let order: Vec<&str> = fused.iter().map(|p| p.key.as_str()).collect();
        assert_eq!(
            order,
            ["z", "a"],
            "a tie goes to the model; the offline file stays"
        );
    }

    #[test]
    fn listwise_puts_the_models_files_first() {
        let fused = fuse(
            Fusion::Listwise,
            &keys(&["a", "b"]),
            &files(&[("a", &[1]), ("b", &[2])]),
            &files(&[("b", &[4])]),
            &[],
            15,
        );
        let order: Vec<&str> = fused.iter().map(|p| p.key.as_str()).collect();
        assert_eq!(order, ["b", "a"]);
    }

    #[test]
    fn the_cap_keeps_the_models_lines_first() {
        let fused = fuse(
            Fusion::ReciprocalRank,
            &keys(&["a"]),
            &files(&[("a", &[1, 2, 3])]),
            &files(&[("a", &[9])]),
            &[],
            2,
        );
        assert_eq!(fused.len(), 1);
        assert_eq!(fused[0].lines, vec![1, 9]);
        assert_eq!(fused[0].chosen, vec![9]);
        assert!(fuse(Fusion::ReciprocalRank, &[], &[], &[], &[], 5).is_empty());
    }

    #[test]
    fn many_model_lines_do_not_push_an_offline_file_out() {
        // The model claims four lines of its file; the offline ranking's
        // two files must still print their first line under a cap of 4.
        let fused = fuse(
            Fusion::ReciprocalRank,
            &keys(&["a", "b"]),
            &files(&[("a", &[1, 2]), ("b", &[5, 6])]),
            &files(&[("m", &[10, 11, 12, 13])]),
            &[],
            4,
        );
        let order: Vec<&str> = fused.iter().map(|p| p.key.as_str()).collect();
        assert_eq!(order, ["m", "a", "b"]);
        assert_eq!(fused[0].lines, vec![10, 11]);
        assert_eq!(fused[1].lines, vec![1]);
        assert_eq!(fused[2].lines, vec![5]);
    }

    #[test]
    fn a_model_file_whose_lines_do_not_locate_has_no_vote() {
        let ranked = keys(&["a", "b"]);
        let printed = files(&[("a", &[1]), ("b", &[2])]);
        // The model puts b first (with a line that does not locate) and
        // names z, which the offline ranking lacks, the same way.
        let model = files(&[("b", &[7]), ("z", &[3])]);
        let fused = fuse(
            Fusion::ReciprocalRank,
            &ranked,
            &printed,
            &model,
            &keys(&["b", "z"]),
            15,
        );
        let order: Vec<&str> = fused.iter().map(|p| p.key.as_str()).collect();
        assert_eq!(order, ["a", "b", "z"], "the offline order stands");
        assert_eq!(fused[1].lines, vec![2, 7], "its lines are still printed");
        // With a vote, the same model wins (agreement on b).
        let fused = fuse(Fusion::ReciprocalRank, &ranked, &printed, &model, &[], 15);
        assert_eq!(fused[0].key, "b");
    }
}
