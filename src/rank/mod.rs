//! A query's results as one value, [`Searched`]: the files with hits, the
//! lines selected to print, and for a natural-language query the ranking,
//! its line scores and the judge's view. Every kind of search hands it on
//! ([`natural`] ranks natural-language queries, [`exact`] finds every line
//! of a literal or regex one); the model stage (`fallback::consult`),
//! learning (`learn`) and the printers (`render`) read it.
//!
//! Owns the value, placing a file in it, capping its selection, ordering it
//! as `--sort` asks, and reading its files back (a streamed file hollow). Does not own how lines are found
//! (`search`), scored (`score`), judged (`judge`) or printed (`render`).

pub mod exact;
pub mod natural;

use crate::answer::BestLine;
use crate::document::{Document, Loaded, ReadOptions};
use crate::judge::Judgement;
use crate::report::LineScores;
use crate::score::RankedFile;
use crate::search::LoadStats;
use crate::walk::{Haystack, PathOrder};

/// Selected lines per haystack (an index into [`Searched::haystacks`]), in
/// print order.
pub type Selection = Vec<(usize, Vec<usize>)>;

/// What one kind of search hands to the stages after it.
#[derive(Clone, Debug, Default)]
pub struct Searched {
    /// The files with hits, sorted by key; `selected` indexes into it.
    pub haystacks: Vec<Haystack>,
    pub selected: Selection,
    pub stats: LoadStats,
    /// Line scores of a natural-language query (empty for exact ones).
    pub scores: LineScores,
    pub scanned: usize,
    /// The ranked candidate files of a natural-language query, best first.
    pub ranked: Vec<RankedFile>,
    /// The judge's view of a natural-language query's results.
    pub judgement: Option<Judgement>,
    /// Document frequency of each term (natural language).
    pub df: Vec<usize>,
    /// Lines of context printed around each match (`-A`, `-B`, `-C`).
    pub context: usize,
}

/// The best ranked files whose documents a run keeps after ranking, besides
/// the printed ones: the files the model stage makes its excerpts of
/// (`fallback::consult::EXCERPT_FILES` is this).
pub const READ_AGAIN_FILES: usize = 8;

/// Lines around a ranked or printed line of a streamed file that a hollow
/// load keeps (besides the context asked for): room for the model's
/// excerpts and the answer's quotes around the places found.
pub const HOLLOW_MARGIN: usize = 200;

impl Searched {
    /// Puts the selected files in `order` (rg 13's sorted walk, by path or
    /// by a time: [`PathOrder`]); a file that is no haystack (none is) last.
    /// Each file keeps its lines.
    pub fn sort_selected(&mut self, order: &PathOrder) {
        let keys: Vec<_> = self
            .selected
            .iter()
            .map(|(h, _)| self.haystacks.get(*h).map(|h| order.key(h)))
            .collect();
        let places = order.places(&keys);
        self.selected = crate::walk::in_places(std::mem::take(&mut self.selected), places);
    }

    /// The ranked files' keys, best first.
    pub fn ranked_keys(&self) -> Vec<String> {
        self.ranked
            .iter()
            .filter_map(|f| self.haystacks.get(f.haystack).map(|h| h.key.clone()))
            .collect()
    }

    /// The selection by key, each file's lines best first by `scores` (an
    /// unscored line last; ties to the earlier line), so a cap that keeps a
    /// file's first lines keeps its best.
    pub fn selected_best_first(&self) -> Vec<(String, Vec<usize>)> {
        let score_of = |h: usize, n: usize| {
            self.scores
                .get(&(h, n))
                .map_or(f64::NEG_INFINITY, |s| s.total)
        };
        self.selected
            .iter()
            .filter_map(|(h, lines)| {
                let mut lines = lines.clone();
                lines.sort_by(|&a, &b| {
                    crate::score::better((score_of(*h, a), a), (score_of(*h, b), b))
                });
                Some((self.haystacks.get(*h)?.key.clone(), lines))
            })
            .collect()
    }

    /// Haystack `h`'s document, read again (`None`: gone or unreadable). A
    /// file too large to load (`document::stream`) comes back hollow: only
    /// the lines near its ranked and printed ones keep their text.
    pub fn document(&self, h: usize, read: &ReadOptions) -> Option<Document> {
        use crate::document::stream;
        let haystack = self.haystacks.get(h)?;
        let Some(path) = stream::streamed(haystack, read) else {
            return load_quiet(haystack, read);
        };
        let mut near: Vec<usize> = self
            .ranked
            .iter()
            .filter(|f| f.haystack == h)
            .flat_map(|f| f.lines.iter().map(|l| l.line))
            .chain(
                self.selected
                    .iter()
                    .filter(|(x, _)| *x == h)
                    .flat_map(|(_, l)| l.iter().copied()),
            )
            .collect();
        near.sort_unstable();
        near.dedup();
        let margin = HOLLOW_MARGIN.max(self.context);
        let keep = |n: usize| {
            let i = near.partition_point(|&m| m + margin < n);
            near.get(i).is_some_and(|&m| m <= n + margin)
        };
        match stream::load_hollow(haystack, path, read, keep) {
            Ok(Loaded::Text(doc)) => Some(doc),
            _ => None,
        }
    }

    /// Haystack `h`'s document as a model may see it ([`load_disclosed`]):
    /// `None` for a secret file, which is not read.
    pub fn disclosed(&self, h: usize, read: &ReadOptions) -> Option<Document> {
        self.haystacks.get(h).and_then(|x| load_disclosed(x, read))
    }

    /// The index of `haystack` among the files, appended when it is new, so
    /// the ranking keeps indexing the files it had.
    pub fn place(&mut self, haystack: &Haystack) -> usize {
        match self.haystacks.iter().position(|x| x.key == haystack.key) {
            Some(h) => h,
            None => {
                self.haystacks.push(haystack.clone());
                self.haystacks.len() - 1
            }
        }
    }

    /// The selected lines with their text, in print order (what an
    /// extractive answer quotes, and what learning checks model words by).
    pub fn printed_lines(&self, read: &ReadOptions) -> Vec<BestLine> {
        let mut out = Vec::new();
        for (h, lines) in &self.selected {
            let Some(doc) = self.document(*h, read) else {
                continue;
            };
            let texts = doc.lines_at(lines.iter().copied());
            for &n in lines {
                let text = texts.get(&n).copied().unwrap_or_default();
                out.push(BestLine {
                    path: doc.key.clone(),
                    line: n,
                    text: String::from_utf8_lossy(text).into_owned(),
                });
            }
        }
        out
    }

    /// Whether the judge found the results sufficient.
    pub fn is_sufficient(&self) -> bool {
        self.judgement
            .as_ref()
            .is_some_and(|j| j.verdict == crate::judge::Verdict::Sufficient)
    }
}

/// Loads a haystack already read once by the search; errors were reported
/// the first time. One read per run: every later stage gets the same bytes
/// (`document::reread`).
pub fn load_quiet(h: &Haystack, read: &ReadOptions) -> Option<Document> {
    crate::document::reread(h, read)
}

/// Loads a haystack for a model's prompt, as `llm::outbound` allows: a
/// withheld (secret) file is not read at all, any other is redacted whole.
/// The model stage reads files for a prompt only through this.
pub fn load_disclosed(h: &Haystack, read: &ReadOptions) -> Option<Document> {
    if crate::llm::outbound::is_withheld(&h.key) || links_to_withheld(h) {
        return None;
    }
    load_quiet(h, read).and_then(crate::llm::outbound::document)
}

/// Whether the haystack is a symbolic link to a withheld file (`notes.txt
/// -> .env`, named or walked under `-L`): its key says nothing of what it
/// reads, the target's name does.
fn links_to_withheld(h: &Haystack) -> bool {
    let crate::walk::Source::Path(path) = &h.source else {
        return false;
    };
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
        && std::fs::canonicalize(path)
            .is_ok_and(|target| crate::llm::outbound::is_withheld(&target.to_string_lossy()))
}

/// Keeps the first `max` lines of a selection in print order (0 keeps all);
/// returns how many there were.
pub fn cap_total(selected: &mut Selection, max: usize) -> usize {
    let total = selected.iter().map(|(_, lines)| lines.len()).sum();
    if max == 0 {
        return total;
    }
    let mut left = max;
    for (_, lines) in selected.iter_mut() {
        lines.truncate(left);
        left -= lines.len();
    }
    selected.retain(|(_, lines)| !lines.is_empty());
    total
}

/// `-m`: each file's lines as the printers keep them, the lowest line numbers
/// (a natural-language selection already holds each file's best within the
/// cap), so that `--explain`, the answer and learning see the printed lines.
/// With `runs` (`-U` matches over lines: `search::matcher::matches_over_lines`)
/// the cap counts runs of consecutive lines, as rg's `-m` counts what its
/// multi-line search hands on.
pub fn cap_per_file(selected: &mut Selection, max_count: Option<usize>, runs: bool) {
    for (_, lines) in selected.iter_mut() {
        lines.sort_unstable();
        lines.dedup();
        match max_count {
            Some(max) if runs => {
                let mut kept = 0;
                let mut previous = None;
                lines.retain(|&n| {
                    if previous.is_none_or(|p: usize| p + 1 != n) {
                        kept += 1;
                    }
                    previous = Some(n);
                    kept <= max
                });
            }
            Some(max) => lines.truncate(max),
            None => {}
        }
    }
}
