//! Fusing the model's verified places with the offline results: the model's
//! ranking is one more ranked list, never a replacement, so a weak model's
//! disagreement cannot lose an offline result (issue 18).
//!
//! A model file whose claimed lines do not *locate* (none holds the query's
//! words or the words the model taught, and none defines a name: what a small
//! model that miscounts lines lands on) joins the results without a vote: it
//! is printed after the offline ranking's files, never ahead of them.
//!
//! The lines follow the same rule: the model's lines and files are added to
//! the offline ones, and under the line cap the cut falls on the file with
//! the most lines to spare (`fit_keeping`), never on a runner-up's only
//! lines; the second search with the model's words keeps every offline line
//! ([`keep_offline`]).
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
/// `max_lines` caps the lines printed in all (0: no cap): the model's lines
/// (when they locate) and each file's best line stay longest; the other
/// offline lines are cut from the file with the most.
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
    // Each file's candidates without repeats, and how many of them stay
    // while another file has lines to spare: the model's lines (when they
    // locate) and the file's best offline line, then its other offline
    // lines, then the lines of a model claim that does not locate, which a
    // small model that miscounts lines lands on.
    let mut keys: Vec<String> = Vec::new();
    let mut chosen: Vec<Vec<usize>> = Vec::new();
    let mut lines: Vec<Vec<usize>> = Vec::new();
    let mut kept: Vec<usize> = Vec::new();
    for key in order {
        let claimed = lines_of(model, &key);
        let offline = lines_of(printed, &key);
        let voting = !not_locating.contains(&key);
        let (first, last): (&[usize], &[usize]) = if voting {
            (&claimed, &[])
        } else {
            (&[], &claimed)
        };
        let all = distinct(first.iter().chain(&offline).chain(last));
        if all.is_empty() {
            continue;
        }
        let held = distinct(first.iter().chain(offline.first())).len();
        kept.push(held.max(1));
        keys.push(key);
        chosen.push(claimed);
        lines.push(all);
    }
    fit_keeping(&mut lines, &kept, max_lines);
    let mut out = Vec::new();
    for ((key, chosen), mut lines) in keys.into_iter().zip(chosen).zip(lines) {
        if lines.is_empty() {
            continue;
        }
        let chosen: Vec<usize> = chosen.into_iter().filter(|n| lines.contains(n)).collect();
        lines.sort_unstable();
        out.push(Placed { key, lines, chosen });
    }
    out
}

/// Fits files' lines under `cap` lines in all (0: no cap), each file's in
/// the order it would keep them and its first `kept[i]` held: while over,
/// the file with the most lines beyond those held (the later one of a tie)
/// gives up its last; once none has any, the file with the most lines. The
/// budget is cut from the top, so a model that claims many lines of one
/// file, or a second search that favours one, cannot take the lines of the
/// files after it, and the first file keeps what it had over the others.
fn fit_keeping(files: &mut [Vec<usize>], kept: &[usize], cap: usize) {
    if cap == 0 {
        return;
    }
    let mut total: usize = files.iter().map(Vec::len).sum();
    let kept_of = |i: usize| kept.get(i).copied().unwrap_or(0);
    while total > cap {
        let spare = (0..files.len())
            .filter(|&i| files[i].len() > kept_of(i))
            .max_by_key(|&i| files[i].len() - kept_of(i));
        let Some(i) = spare.or_else(|| (0..files.len()).max_by_key(|&i| files[i].len())) else {
            return;
        };
        files[i].pop();
        total -= 1;
    }
}

/// The lines to print after the second search, the one with the model's
/// words (`consult`): each file of `order` (the fused ranking's keys, best
/// first) prints the lines the offline selection gave it, then the second
/// search's, up to as many as the more generous of the two gave it. Under
/// `cap` the second search's lines go first (`fit_keeping`), but a
/// file only it found keeps its best line. Files are in `order`, lines in
/// the order kept. The model's words add lines and files; they never take
/// the place of an offline line but for a file of their own (issue 18: a
/// weak model's expansion must not lose an offline result).
pub fn keep_offline(
    order: &[String],
    offline: &[(String, Vec<usize>)],
    second: &[(String, Vec<usize>)],
    cap: usize,
) -> Vec<(String, Vec<usize>)> {
    let mut keys: Vec<&String> = Vec::new();
    let mut files: Vec<Vec<usize>> = Vec::new();
    let mut kept: Vec<usize> = Vec::new();
    for key in order {
        let (old, new) = (lines_of(offline, key), lines_of(second, key));
        let room = old.len().max(new.len());
        let mut lines = distinct(old.iter().chain(&new));
        lines.truncate(room);
        if !lines.is_empty() {
            keys.push(key);
            // A file the model's words found keeps its best line as an
            // offline file keeps all of its own.
            kept.push(old.len().max(1));
            files.push(lines);
        }
    }
    fit_keeping(&mut files, &kept, cap);
    keys.into_iter()
        .zip(files)
        .filter(|(_, l)| !l.is_empty())
        .map(|(k, l)| (k.clone(), l))
        .collect()
}

/// The lines a list gives the file `key`.
fn lines_of(list: &[(String, Vec<usize>)], key: &str) -> Vec<usize> {
    list.iter()
        .filter(|(k, _)| k == key)
        .flat_map(|(_, l)| l.iter().copied())
        .collect()
}

/// The lines in order, each once.
fn distinct<'a>(lines: impl Iterator<Item = &'a usize>) -> Vec<usize> {
    let mut out: Vec<usize> = Vec::new();
    for n in lines {
        if !out.contains(n) {
            out.push(*n);
        }
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

    #[test]
    fn a_model_claiming_many_lines_of_the_first_file_leaves_the_runner_up_its_lines() {
        // Greedy in order, the first file's four model lines and three
        // offline ones would leave b one line of its two under a cap of 8.
        let fused = fuse(
            Fusion::ReciprocalRank,
            &keys(&["a", "b"]),
            &files(&[("a", &[1, 2, 3]), ("b", &[7, 8])]),
            &files(&[("a", &[10, 11, 12, 13])]),
            &[],
            8,
        );
        let order: Vec<&str> = fused.iter().map(|p| p.key.as_str()).collect();
        assert_eq!(order, ["a", "b"]);
        assert_eq!(fused[0].lines, vec![1, 2, 10, 11, 12, 13]);
        assert_eq!(fused[1].lines, vec![7, 8]);
    }

    #[test]
    fn a_model_line_that_is_the_best_offline_line_is_held_once() {
        // a's model line is its best offline line: a holds that one line,
        // so under a cap of 4 a has two to spare and gives up one before b.
        let fused = fuse(
            Fusion::ReciprocalRank,
            &keys(&["a", "b"]),
            &files(&[("a", &[5, 6, 9]), ("b", &[7, 8])]),
            &files(&[("a", &[5])]),
            &[],
            4,
        );
        assert_eq!(fused[0].lines, vec![5, 6]);
        assert_eq!(fused[1].lines, vec![7, 8]);
    }

    #[test]
    fn offline_lines_go_before_the_models_lines_that_do_not_locate() {
        // a's model lines do not locate: under the cap they go before its
        // offline lines and b's.
        let fused = fuse(
            Fusion::ReciprocalRank,
            &keys(&["a", "b"]),
            &files(&[("a", &[1, 2, 3]), ("b", &[7, 8])]),
            &files(&[("a", &[10, 11])]),
            &keys(&["a"]),
            5,
        );
        assert_eq!(fused[0].lines, vec![1, 2, 3]);
        assert_eq!(fused[0].chosen, Vec::<usize>::new());
        assert_eq!(fused[1].lines, vec![7, 8]);
        // And a model line of the first file that locates stays over the
        // other files' spare lines.
        let fused = fuse(
            Fusion::ReciprocalRank,
            &keys(&["a", "b"]),
            &files(&[("a", &[1, 2, 3]), ("b", &[7, 8, 9])]),
            &files(&[("a", &[10])]),
            &[],
            6,
        );
        assert_eq!(fused[0].lines, vec![1, 2, 3, 10]);
        assert_eq!(fused[1].lines, vec![7, 8]);
    }

    #[test]
    fn fitting_cuts_the_file_with_the_most_lines_first() {
        let mut lines = vec![vec![1, 2, 3, 4, 5], vec![6, 7], vec![8, 9, 10]];
        fit_keeping(&mut lines, &[], 7);
        assert_eq!(lines, vec![vec![1, 2, 3], vec![6, 7], vec![8, 9]]);
        // Ties go against the later file; a cap below one a file empties
        // the last files.
        fit_keeping(&mut lines, &[], 2);
        assert_eq!(lines, vec![vec![1], vec![6], vec![]]);
        let mut uncapped = vec![vec![1, 2, 3]];
        fit_keeping(&mut uncapped, &[], 0);
        assert_eq!(uncapped, vec![vec![1, 2, 3]]);
    }

    #[test]
    fn a_second_search_adds_lines_and_never_drops_an_offline_one() {
        let order = keys(&["a", "b", "c"]);
        // The second search (the model's words) favours a and drops b's
        // answer line 9 and all of c.
        let offline = files(&[("a", &[1, 2]), ("b", &[8, 9]), ("c", &[4])]);
        let second = files(&[("a", &[20, 1, 21, 22]), ("b", &[8])]);
        let kept = keep_offline(&order, &offline, &second, 0);
        assert_eq!(
            kept,
            files(&[("a", &[1, 2, 20, 21]), ("b", &[8, 9]), ("c", &[4])]),
            "a file prints as many lines as the more generous search gave it, offline ones first"
        );
        // Under a cap the new lines go first.
        let kept = keep_offline(&order, &offline, &second, 6);
        assert_eq!(
            kept,
            files(&[("a", &[1, 2, 20]), ("b", &[8, 9]), ("c", &[4])])
        );
        let kept = keep_offline(&order, &offline, &second, 5);
        assert_eq!(kept, files(&[("a", &[1, 2]), ("b", &[8, 9]), ("c", &[4])]));
        // A file only the second search found keeps its best line, at the
        // cost of the longest file's last (the later of a tie).
        let second = files(&[("d", &[3, 30])]);
        let order = keys(&["d", "a", "b"]);
        let kept = keep_offline(&order, &offline, &second, 5);
        assert_eq!(kept, files(&[("d", &[3]), ("a", &[1, 2]), ("b", &[8, 9])]));
        let kept = keep_offline(&order, &offline, &second, 4);
        assert_eq!(kept, files(&[("d", &[3]), ("a", &[1, 2]), ("b", &[8])]));
    }
}
