//! What a consultation teaches the learning loop: the identifiers on the
//! lines the model chose (verified, printed), or, when it found nothing
//! better, on the printed answer it was asked about (a settled answer).
//!
//! Owns choosing the lines and checking them against the corpus. What is
//! worth keeping of them, and writing it, belong to `learn::answer`.

use std::collections::BTreeMap;

use super::consult::Stage;
use crate::document::Document;
use crate::learn::answer::{self, AnswerLesson};
use crate::query;

/// How many of the model's first verified lines the learning loop reads
/// identifiers from (`learn::answer`).
const ANSWER_LINES: usize = 3;

impl Stage<'_> {
    /// The lesson of a consultation that found nothing better: the printed
    /// first file's best printed lines (by score), kept as the query's
    /// settled answer, so the next run of the query (or of one sharing its
    /// words) is answered offline instead of asking the same model the same
    /// thing. The same junk rules as a found answer apply.
    pub(super) fn settled_lesson(&mut self) -> Option<AnswerLesson> {
        let (h, printed) = self.search.selected.first()?;
        let h = *h;
        let haystack = self.search.haystacks.get(h)?;
        let mut lines: Vec<usize> = self
            .search
            .ranked
            .iter()
            .find(|f| f.haystack == h)
            .map(|f| f.best_lines(usize::MAX))
            .unwrap_or_default();
        // The printed lines that carry the query, best first: a unit's
        // defining line printed to frame its body is not what answered.
        lines.retain(|n| printed.contains(n));
        if lines.is_empty() {
            lines.clone_from(printed);
        }
        let key = haystack.key.clone();
        let doc = self.search.document(h, self.input.read)?;
        let claimed: Vec<(String, usize)> = lines.into_iter().map(|n| (key.clone(), n)).collect();
        let docs = BTreeMap::from([(key, doc)]);
        let mut lesson = self.answer_lesson(&claimed, &docs)?;
        lesson.settled = true;
        Some(lesson)
    }

    /// What to learn from the model's verified claims (`(path, line)`, in
    /// the model's order) that are printed: the identifiers on the first
    /// [`ANSWER_LINES`] of them in the model's first file, less those too
    /// common in the corpus. A chosen line that offers none (a comment, an
    /// import, `try:`, a line of local names) stands for the definition
    /// whose body holds it: the model pointed inside that function.
    pub(super) fn answer_lesson(
        &mut self,
        claimed: &[(String, usize)],
        docs: &BTreeMap<String, Document>,
    ) -> Option<AnswerLesson> {
        match self.lesson_of(claimed, docs) {
            Ok(lesson) => lesson,
            Err(why) => {
                self.verbose(why);
                None
            }
        }
    }

    /// [`Stage::answer_lesson`]; `Err`: why nothing is kept (a `-v` line).
    fn lesson_of(
        &self,
        claimed: &[(String, usize)],
        docs: &BTreeMap<String, Document>,
    ) -> Result<Option<AnswerLesson>, String> {
        let not_kept = |why: &str| format!("learned: not keeping the model's answer: {why}");
        let search = &self.search;
        let printed = |key: &str, n: usize| {
            search.selected.iter().any(|(h, lines)| {
                search.haystacks.get(*h).is_some_and(|x| x.key == key) && lines.contains(&n)
            })
        };
        // Only the model's first file: the place it ranked best, not
        // whatever else it listed.
        let mine: Vec<&(String, usize)> =
            claimed.iter().filter(|(key, n)| printed(key, *n)).collect();
        let Some(first) = mine.first().map(|(key, _)| key.clone()) else {
            return Err(not_kept("none of its lines is printed"));
        };
        let Some(doc) = docs.get(&first) else {
            return Ok(None);
        };
        let text: Vec<&[u8]> = doc.lines().collect();
        let kinds = crate::score::kind::classify_lines(&doc.text);
        // (line number, text), each line once.
        let mut lines: Vec<(usize, &[u8])> = Vec::new();
        // The lines chosen, as they are (not the definitions they sit in).
        let mut chosen: Vec<&[u8]> = Vec::new();
        for (_, n) in mine.iter().copied().filter(|(key, _)| *key == first) {
            let n = *n;
            let Some(i) = n.checked_sub(1) else { continue };
            let (Some(line), Some(kind)) = (text.get(i), kinds.get(i)) else {
                continue;
            };
            chosen.push(line);
            // Comments and imports name what is elsewhere or talk about it:
            // the place is where code does the thing.
            let says = !kind.comment && !kind.import && !answer::identifiers_on(&[line]).is_empty();
            let place = if says {
                Some((n, *line))
            } else {
                let block = kind.block as usize;
                block
                    .checked_sub(1)
                    .and_then(|b| text.get(b))
                    .map(|l| (block, *l))
            };
            if let Some(place) = place.filter(|p| !lines.iter().any(|l| l.0 == p.0)) {
                lines.push(place);
            }
            if lines.len() >= ANSWER_LINES {
                break;
            }
        }
        let lines: Vec<&[u8]> = lines.into_iter().map(|(_, l)| l).collect();
        if lines.is_empty() {
            return Err(not_kept(
                "its lines in its first file are neither code nor in a definition",
            ));
        }
        if answer::identifiers_on(&lines).is_empty() {
            return Err(not_kept(
                "its lines define nothing and hold no compound identifier",
            ));
        }
        let ids = answer::answering(&lines, &chosen, &self.q);
        if ids.is_empty() {
            return Err(not_kept(&format!(
                "no identifier on its lines carries the query's words or is defined there ({})",
                answer::identifiers_on(&lines).join(", ")
            )));
        }
        let terms: Vec<query::Term> = ids
            .iter()
            .filter_map(|id| query::identifier_term(id, 1.0, 0))
            .collect();
        if terms.len() != ids.len() {
            return Err(not_kept(
                "an identifier on its lines cannot be searched for",
            ));
        }
        let Ok(scan) = crate::search::scan_terms(
            self.corpus,
            &terms,
            &self.input.read.quiet(),
            crate::search::Want::Frequencies,
        ) else {
            return Err(not_kept("the corpus could not be searched again"));
        };
        let kept = answer::drop_general(ids.clone(), &scan.df, scan.stats.loaded);
        if kept.is_empty() {
            return Err(not_kept(&format!(
                "{} are too common in the corpus",
                ids.join(", ")
            )));
        }
        match answer::lesson(&self.q, kept) {
            Some(lesson) => Ok(Some(lesson)),
            None => Err(not_kept("the query has no content word")),
        }
    }
}
