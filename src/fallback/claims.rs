//! The model's claims, from its reply to the printed lines: verified against
//! the files (`verify`), the lines that say nothing left out, then placed as
//! the consultation's policy says: fused into the offline ranking (`fuse`),
//! or replacing it (`--rlm`). Also what the consultation then learns
//! (`lessons`).
//!
//! Owns the claim policy: when the offline results stand, which of the
//! model's places vote, and which file the model ranked first. Does not own
//! checking one claim (`verify`), the fusion arithmetic (`fuse`), or asking
//! (`consult`).

use std::collections::{BTreeMap, HashMap};

use super::consult::{Policy, Stage};
use crate::document::Document;
use crate::llm::Reply;
use crate::rank::{self, Searched, Selection};
use crate::verify;
use crate::walk::Haystack;

impl Stage<'_> {
    /// Verifies the reply's claims against the walked files; they become the
    /// printed lines, in path order, as rlmgrep prints them.
    pub(super) fn accept(&mut self, reply: &Reply) {
        let walked = self.walked();
        let index = key_index(&walked);
        let mut docs: BTreeMap<String, Document> = BTreeMap::new();
        let claimed = reply
            .matches
            .iter()
            .chain(&reply.citations)
            .map(|c| c.path.as_str());
        for key in claimed {
            if docs.contains_key(key) {
                continue;
            }
            if let Some(doc) = index
                .get(key)
                .and_then(|&i| rank::load_quiet(&walked[i], self.input.read))
            {
                docs.insert(key.to_string(), doc);
            }
        }
        let mut verified = verify::verify(&reply.matches, &docs);
        // `--rlm` (llm = always) prints what the model said, as rlmgrep does;
        // kgrep's own fallback does not print a line that says nothing
        // (blank, `});`, a comment or import without the query's words) as
        // an answer, nor lets it vote in the fusion.
        let search = &self.search;
        let holds_query_word = |key: &str, n: usize| {
            search.ranked.iter().any(|f| {
                search
                    .haystacks
                    .get(f.haystack)
                    .is_some_and(|h| h.key == key)
                    && f.lines.iter().any(|l| l.line == n && l.slots != 0)
            })
        };
        let policy = self.input.policy;
        let mute = match policy {
            Policy::Replace => verify::Mute::default(),
            Policy::Fuse => verify::drop_mute(&mut verified, &docs, &holds_query_word),
        };
        let not_locating = verify::not_locating(&verified, &docs, &holds_query_word);
        if !not_locating.is_empty() {
            self.verbose(format!(
                "model: no vote in the ranking for {} (its lines hold none of the query's words and define nothing)",
                not_locating.join(", ")
            ));
        }
        if mute.blank > 0 {
            self.verbose(format!(
                "model: {} claimed line(s) blank, not printed",
                mute.blank
            ));
        }
        if mute.empty > 0 {
            self.verbose(format!(
                "model: {} claimed line(s) say nothing (punctuation, keywords, or a comment or import without the query's words), not printed",
                mute.empty
            ));
        }
        self.report.dropped = verified.dropped;
        self.report.answered = true;
        self.report.answer = reply
            .answer
            .as_ref()
            .map(|a| self.mark_citations(a, &docs, &walked, &index));
        let selected: Selection = verified
            .files
            .into_iter()
            .filter_map(|(key, lines)| index.get(key.as_str()).map(|&i| (i, lines)))
            .collect();
        self.verbose(format!(
            "model: {} claim(s), {} verified, {} dropped",
            reply.matches.len(),
            selected.iter().map(|(_, l)| l.len()).sum::<usize>(),
            verified.dropped
        ));
        if selected.is_empty() && (verified.dropped + mute.total() > 0 || policy == Policy::Fuse) {
            // Nothing the model claimed is a non-blank line of a searched
            // file: it is not to be trusted over the offline ranking. In
            // kgrep's own fallback, a reply that claims nothing leaves the
            // offline results too (`--rlm` keeps rlmgrep's rule: print what
            // the model said, even nothing).
            self.report.kept_offline = true;
            self.report.note = Some(if verified.dropped > 0 {
                "no claim of the model was verified".to_string()
            } else if mute.total() > 0 {
                "the model claimed only lines that say nothing".to_string()
            } else {
                "the model claimed no line".to_string()
            });
            if policy == Policy::Fuse {
                self.report.answer_lesson = self.settled_lesson();
            }
            return;
        }
        let model_order = claimed_order(&reply.matches, &selected, &walked);
        let places: Vec<&str> = model_order
            .iter()
            .filter_map(|&h| walked.get(h).map(|w| w.key.as_str()))
            .collect();
        if !places.is_empty() {
            self.verbose(format!(
                "model: its files, best first: {}",
                places.join(", ")
            ));
        }
        let offline_agrees = offline_agrees(&self.search, &walked, &model_order);
        let claimed: Vec<(String, usize)> = reply
            .matches
            .iter()
            .filter(|c| {
                selected.iter().any(|(h, lines)| {
                    walked[*h].key == c.path
                        && usize::try_from(c.line).is_ok_and(|n| lines.contains(&n))
                })
            })
            .filter_map(|c| Some((c.path.clone(), usize::try_from(c.line).ok()?)))
            .collect();
        match policy {
            Policy::Replace => {
                // The ranked files follow their haystacks into `walked`'s
                // indexes (`--explain` and `-v` read a file's figures by
                // index: kept as they were, they named another file's).
                let key_of: Vec<String> = self
                    .search
                    .haystacks
                    .iter()
                    .map(|h| h.key.clone())
                    .collect();
                let index = key_index(&walked);
                self.search.ranked.retain_mut(|f| {
                    let moved = key_of.get(f.haystack).and_then(|k| index.get(k.as_str()));
                    if let Some(&i) = moved {
                        f.haystack = i;
                    }
                    moved.is_some()
                });
                self.search.haystacks = walked;
                self.search.selected = selected;
                self.search.scores.clear();
            }
            Policy::Fuse => {
                // kgrep's own fallback: the model's places join the offline
                // ranking as one more ranked list; an offline result is never
                // dropped for a weak model's disagreement.
                self.chosen = fuse_claims(
                    &mut self.search,
                    &walked,
                    (&model_order, &not_locating),
                    &selected,
                    self.input.limits.max_lines,
                );
                self.report.fused = true;
            }
        }
        if !offline_agrees && self.search.is_sufficient() {
            // Asked anyway (`--rlm`, `llm = "always"`), the model overruled
            // offline results the judge found sufficient. One reply is no
            // lesson against them: a reply steered by a searched file would
            // otherwise rank its place first in every later offline run.
            self.verbose(
                "learned: not keeping the model's answer: it overrules offline results judged sufficient"
                    .to_string(),
            );
        } else if !offline_agrees {
            // Only places that locate teach: a line without the query's
            // words that defines nothing is likely a miscounted one.
            let locating: Vec<(String, usize)> = claimed
                .into_iter()
                .filter(|(key, _)| !not_locating.contains(key))
                .collect();
            self.report.answer_lesson = self.answer_lesson(&locating, &docs);
        }
        if self.report.answer_lesson.is_none() && policy == Policy::Fuse {
            self.report.answer_lesson = self.settled_lesson();
        }
    }
}

/// Fuses the model's verified places (`model_order`: indexes into `walked`,
/// best first; `verified`: their lines) into the printed lines
/// (`fallback::fuse`). Files new to the results are appended to their
/// haystacks, so the ranking keeps indexing them. Returns the printed lines
/// the model chose, `(haystack, line)`.
pub(super) fn fuse_claims(
    search: &mut Searched,
    walked: &[Haystack],
    (model_order, not_locating): (&[usize], &[String]),
    verified: &Selection,
    max_lines: usize,
) -> Vec<(usize, usize)> {
    let ranked = search.ranked_keys();
    // Each file's printed lines best first, so the cap keeps its best.
    let printed = search.selected_best_first();
    let model: Vec<(String, Vec<usize>)> = model_order
        .iter()
        .filter_map(|h| {
            let lines = verified.iter().find(|(v, _)| v == h)?.1.clone();
            Some((walked.get(*h)?.key.clone(), lines))
        })
        .collect();
    let placed = super::fuse::fuse(
        super::fuse::FUSION,
        &ranked,
        &printed,
        &model,
        not_locating,
        max_lines,
    );
    let mut selected: Selection = Vec::new();
    let mut chosen: Vec<(usize, usize)> = Vec::new();
    for p in placed {
        let h = match search.haystacks.iter().position(|x| x.key == p.key) {
            Some(h) => h,
            None => {
                let Some(haystack) = walked.iter().find(|w| w.key == p.key) else {
                    continue;
                };
                search.place(haystack)
            }
        };
        chosen.extend(p.chosen.iter().map(|&n| (h, n)));
        selected.push((h, p.lines));
    }
    search.selected = selected;
    chosen
}

/// The model's verified lines teach nothing when the offline results were
/// judged sufficient and the model's first file is the offline first file.
fn offline_agrees(search: &Searched, walked: &[Haystack], model_order: &[usize]) -> bool {
    let offline_top = search
        .ranked
        .first()
        .and_then(|f| search.haystacks.get(f.haystack))
        .map(|h| h.key.as_str());
    let model_top = model_order
        .first()
        .and_then(|&h| walked.get(h))
        .map(|h| h.key.as_str());
    search.is_sufficient() && offline_top.is_some() && offline_top == model_top
}

/// The files of the verified claims, in the order the model ranked them (its
/// first verified claim in each file).
fn claimed_order(
    claims: &[verify::Claim],
    selected: &Selection,
    walked: &[Haystack],
) -> Vec<usize> {
    let mut order: Vec<usize> = Vec::new();
    for claim in claims {
        let Some((h, _)) = selected.iter().find(|(h, lines)| {
            walked.get(*h).is_some_and(|w| w.key == claim.path)
                && usize::try_from(claim.line).is_ok_and(|n| lines.contains(&n))
        }) else {
            continue;
        };
        if !order.contains(h) {
            order.push(*h);
        }
    }
    order
}

impl Stage<'_> {
    /// The answer with the citations no searched file backs marked. A
    /// citation in the prose names a walked file whether or not the reply
    /// also claimed it, by its key (a leading `./` aside) or, when exactly one
    /// walked file's path ends so, by that tail (`retry.py:5` for
    /// `src/retry.py`): models shorten paths in prose, and a mark on a line
    /// that is there tells the reader not to trust a true citation.
    fn mark_citations(
        &self,
        answer: &str,
        docs: &BTreeMap<String, Document>,
        walked: &[Haystack],
        index: &HashMap<&str, usize>,
    ) -> String {
        let mut loaded: HashMap<usize, Option<usize>> = HashMap::new();
        crate::answer::mark_unverified(answer, |c| {
            let Some(h) = cited_file(c.key(), walked, index) else {
                return false;
            };
            let last = *loaded.entry(h).or_insert_with(|| {
                let key = walked.get(h)?.key.as_str();
                match docs.get(key) {
                    Some(doc) => Some(doc.last_line()),
                    None => {
                        rank::load_quiet(walked.get(h)?, self.input.read).map(|doc| doc.last_line())
                    }
                }
            });
            last.is_some_and(|last| c.lines().all(|n| n >= 1 && n <= last))
        })
        .text
    }
}

/// Each walked file's place in `walked`, by its key.
fn key_index(walked: &[Haystack]) -> HashMap<&str, usize> {
    walked
        .iter()
        .enumerate()
        .map(|(i, h)| (h.key.as_str(), i))
        .collect()
}

/// The walked file a citation's path names: its key, or the one file whose
/// key ends with `/` and the path ([`Stage::mark_citations`]).
fn cited_file(key: &str, walked: &[Haystack], index: &HashMap<&str, usize>) -> Option<usize> {
    if let Some(&h) = index.get(key) {
        return Some(h);
    }
    let tail = format!("/{key}");
    let mut ending = walked
        .iter()
        .enumerate()
        .filter(|(_, w)| w.key.ends_with(&tail))
        .map(|(h, _)| h);
    let first = ending.next()?;
    ending.next().is_none().then_some(first)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::walk::Source;

    #[test]
    fn a_citation_names_a_file_by_its_key_or_its_only_tail() {
        let walked: Vec<Haystack> = ["src/retry.py", "src/a/util.py", "src/b/util.py", "app.py"]
            .iter()
            .map(|k| Haystack {
                key: k.to_string(),
                source: Source::Path(k.into()),
            })
            .collect();
        let index = key_index(&walked);
        let named = |key: &str| cited_file(key, &walked, &index);
        assert_eq!(named("src/retry.py"), Some(0));
        assert_eq!(named("retry.py"), Some(0));
        assert_eq!(named("a/util.py"), Some(1));
        // Two files end so: neither is the one cited.
        assert_eq!(named("util.py"), None);
        // A tail is whole path components, never part of a name.
        assert_eq!(named("etry.py"), None);
        assert_eq!(named("app.py"), Some(3));
        assert_eq!(named("ghost.py"), None);
    }
}
