//! What `pipeline::find` returns: a search's results, read through plain
//! values by any front end. The command line prints them (`pipeline`);
//! the MCP server (`crate::mcp`) asks for the grep-style text, the files and
//! lines as data, the answer and the explanations.
//!
//! Owns the read-only view; every number and line comes from the stages
//! unchanged, and the text is `print`'s rendering, byte for byte what
//! `kgrep` prints into a pipe.

use std::collections::HashMap;
use std::ops::Range;

use super::cut;
use super::explain;
use super::found::Found;
use super::grep::{line_window, omitted_text, MaxColumns};
use super::print;
use crate::budget::estimate_tokens;
use crate::budget::{self, LeftOut};
use crate::cli::Plan;
use crate::document::ReadOptions;
use crate::judge::{Judgement, Verdict};
use crate::query::Query;
use crate::rank::Selection;
use crate::render::context::{context_groups, selected_lines};
use crate::render::json::kgrep::{Answer, LineInfo, RunInfo};
use crate::report::{self, Spotter};
use crate::signature::Spec;

/// A search's results.
pub struct Results {
    pub(crate) found: Found,
    pub(crate) read: ReadOptions,
    /// The signature spec (signature modes): the fields are printed instead.
    pub(crate) spec: Option<Spec>,
}

/// A token budget and how the output it bounds is laid out.
#[derive(Clone, Debug)]
pub struct Budget<'a> {
    /// The most tokens of output.
    pub max_tokens: usize,
    /// How it was asked for (`--token-budget`, `max_tokens`), for the note.
    pub name: &'a str,
    /// `-m`: match lines past it in a file print nowhere, so are not left out.
    pub max_count: Option<usize>,
    /// The rendering holds the answer (else it is printed apart).
    pub answer_inside: bool,
}

/// Output fitted to a budget.
#[derive(Clone, Debug, Default)]
pub struct Fitted {
    /// The rendering that fits.
    pub bytes: Vec<u8>,
    /// Match lines in it.
    pub printed: usize,
    /// What was left out, as a note (`None` when nothing was).
    pub note: Option<String>,
}

/// One printed file, in print order (for a natural-language query, rank order).
#[derive(Clone, Debug, PartialEq)]
pub struct FileView {
    /// The path as printed, without rlmgrep's `./` heading prefix.
    pub path: String,
    /// The file's rank score (natural language; `None` for literal and regex
    /// queries and for lines a model chose).
    pub score: Option<f64>,
    /// Its printed lines, match and context, in line order.
    pub lines: Vec<LineView>,
}

/// One printed line.
#[derive(Clone, Debug, PartialEq)]
pub struct LineView {
    /// 1-based line number.
    pub number: usize,
    /// The line's text (invalid UTF-8 shown as U+FFFD), without its newline.
    pub text: String,
    /// A match line (`N:`), not context (`N-`).
    pub is_match: bool,
    /// What kgrep knows about a match line: its score, terms, source
    /// (`None` for context lines).
    pub info: Option<LineInfo>,
}

impl Results {
    /// The query as searched (its terms include synonyms, corrections and
    /// model words).
    pub fn query(&self) -> &Query {
        &self.found.q
    }

    /// The judge's view of the offline results (natural-language queries).
    pub fn judgement(&self) -> Option<&Judgement> {
        self.found.search.judgement.as_ref()
    }

    /// Whether the offline results were judged sufficient (`None`: no judge ran).
    pub fn is_sufficient(&self) -> Option<bool> {
        self.judgement().map(|j| j.verdict == Verdict::Sufficient)
    }

    /// Whether a language model was called.
    pub fn is_model_consulted(&self) -> bool {
        self.found.model.as_ref().is_some_and(|m| m.calls > 0)
    }

    /// The answer (`--answer` modes).
    pub fn answer(&self) -> Option<&Answer> {
        self.found.answer.as_ref()
    }

    /// What the token budget left out, once the results were fitted to one.
    pub fn left_out(&self) -> Option<LeftOut> {
        self.found.left_out
    }

    /// What `--json`'s summary says of the run (`data.kgrep`).
    pub fn run_info(&self) -> RunInfo {
        print::run_info(&self.found)
    }

    /// Why each printed line was printed (`--explain`), one message each.
    pub fn explain(&self) -> Vec<String> {
        self.found
            .model
            .as_ref()
            .map(|report| explain::explain(&self.found, report))
            .unwrap_or_default()
    }

    /// The grep-style text `kgrep` prints into a pipe (no colour, no budget).
    pub fn text(&self, plan: &Plan) -> anyhow::Result<Vec<u8>> {
        let mut bytes = Vec::new();
        print::write_grep_to(&mut bytes, &pipe(plan), &self.found, &self.read)?;
        Ok(bytes)
    }

    /// Fits the output into `max_tokens` (estimated as the model stage does):
    /// the answer first, cut if it must be, then the most selected lines, the
    /// best first ([`Results::priority`]), whose rendering still fits, and
    /// never fewer than the best line ([`budget::MIN_LINES`]: a budget too
    /// small for it is exceeded, and the note says so). `render` renders these
    /// results as they stand (the caller's output: `--json`, the grep-style
    /// text, a tool result); `answer_inside` says whether it holds the answer
    /// (else the answer is printed apart, and the lines get what it leaves).
    /// Afterwards the results hold only what fits (their selection cut, what
    /// was left out recorded), so `--explain`, [`Results::files`] and the
    /// `--json` summary say the same. A budget smaller than what a rendering
    /// always holds (the `--json` summary) is exceeded by it.
    pub fn fit(
        &mut self,
        budget: &Budget<'_>,
        mut render: impl FnMut(&Results) -> anyhow::Result<Vec<u8>>,
    ) -> anyhow::Result<Fitted> {
        let full = std::mem::take(&mut self.found.search.selected);
        let count = |sel: &Selection| -> (usize, usize) {
            sel.iter()
                .map(|(_, l)| budget.max_count.map_or(l.len(), |m| l.len().min(m)))
                .filter(|&n| n > 0)
                .fold((0, 0), |(n, f), l| (n + l, f + 1))
        };
        let (total_lines, total_files) = count(&full);
        let mut left = LeftOut {
            max_tokens: budget.max_tokens,
            ..LeftOut::default()
        };
        let order = self.priority(&full);
        let take = |results: &mut Results, k: usize, left: LeftOut| {
            results.found.search.selected = best_of(&full, &order, k);
            let (lines, files) = count(&results.found.search.selected);
            results.found.left_out = Some(LeftOut {
                lines: total_lines - lines,
                files: total_files - files,
                ..left
            });
            lines
        };
        let mut room = budget.max_tokens;
        let total = full.iter().map(|(_, l)| l.len()).sum();
        // The lines a budget always keeps, which the answer leaves room for.
        let least = budget::MIN_LINES.min(total);
        if let Some(answer) = self.found.answer.take() {
            let full_text = answer.text.clone();
            let cut = if budget.answer_inside {
                let mut cost = |text: &str| {
                    self.found.answer = Some(Answer {
                        text: text.to_string(),
                        ..answer.clone()
                    });
                    let cut = text != full_text;
                    take(
                        self,
                        least,
                        LeftOut {
                            answer_cut: cut,
                            ..left
                        },
                    );
                    Ok(budget::tokens(&render(self)?))
                };
                budget::cut_text(&full_text, budget.max_tokens, &mut cost)?
            } else {
                take(self, least, left);
                let lines = if least > 0 {
                    budget::tokens(&render(self)?)
                } else {
                    0
                };
                let left_for_answer = budget.max_tokens.saturating_sub(lines);
                budget::cut_text(&full_text, left_for_answer, |t| Ok(estimate_tokens(t)))?
            };
            left.answer_cut = cut.is_some();
            let text = cut.unwrap_or(full_text);
            if !budget.answer_inside {
                room = room.saturating_sub(estimate_tokens(&text));
            }
            self.found.answer = Some(Answer { text, ..answer });
        }
        let (mut k, mut bytes) = budget::fit(total, room, |k| {
            take(self, k, left);
            render(self)
        })?;
        // Not even the best line fits: it is printed anyway.
        let over = k < least;
        if over {
            k = least;
            take(self, k, left);
            bytes = render(self)?;
        }
        // The results keep what was printed; the bytes are the ones measured
        // (a `--json` rendering holds timings).
        let printed = take(self, k, left);
        let note = self.found.left_out.and_then(|left| {
            if over {
                Some(left.note_over(budget.name, total_lines, total_files))
            } else {
                left.note(budget.name, total_lines, total_files)
            }
        });
        Ok(Fitted {
            bytes,
            printed,
            note,
        })
    }

    /// The order a budget keeps the lines of `selection` in
    /// (`score::priority`): the lines the model chose first, then the
    /// ranking's (its first file's answer line, then by score); an exact
    /// query's lines, which have no score, in print order.
    fn priority(&self, selection: &Selection) -> Vec<(usize, usize)> {
        let found = &self.found;
        // The ranking's answer: the first printed file's best unit's defining
        // line (`score::answer_line`), which may score below another unit's
        // line; kept first after the lines a model chose.
        let answer = selection.first().and_then(|(h, _)| {
            // None once a model's verified lines replace the ranking's.
            self.file_score(*h)?;
            let file = found.search.ranked.iter().find(|f| f.haystack == *h)?;
            Some((*h, crate::score::answer_line(file)?))
        });
        let scored: Vec<(usize, Vec<(usize, f64)>)> = selection
            .iter()
            .map(|(h, lines)| {
                let score = |n: usize| {
                    if found.chosen.contains(&(*h, n)) {
                        f64::INFINITY
                    } else if answer == Some((*h, n)) {
                        f64::MAX
                    } else {
                        found
                            .search
                            .scores
                            .get(&(*h, n))
                            .map_or(f64::NEG_INFINITY, |s| s.total)
                    }
                };
                (*h, lines.iter().map(|&n| (n, score(n))).collect())
            })
            .collect();
        crate::score::priority(&scored)
    }

    /// A file's rank score, while the ranking still indexes the printed files
    /// (a model's verified lines replace them).
    fn file_score(&self, h: usize) -> Option<f64> {
        if self
            .found
            .model
            .as_ref()
            .is_some_and(|m| m.answered && !m.fused)
        {
            return None;
        }
        self.found
            .search
            .ranked
            .iter()
            .find(|f| f.haystack == h)
            .map(|f| f.score)
    }

    /// The printed files with their lines, as the grep-style text shows them
    /// (context and `-m` applied).
    pub fn files(&self, plan: &Plan) -> anyhow::Result<Vec<FileView>> {
        let found = &self.found;
        let spotter = Spotter::new(&found.q)?.reading(&self.read);
        let mut out = Vec::new();
        for (h, lines) in &found.search.selected {
            let Some(doc) = found.search.document(*h, &self.read) else {
                continue;
            };
            let count = doc.line_count();
            let matches = selected_lines(lines, count, plan.max_count);
            if matches.is_empty() {
                continue;
            }
            let score_of = |line: usize| found.search.scores.get(&(*h, line)).cloned();
            let mut matched =
                report::match_lines(&doc, &matches, &spotter, &found.q.terms, score_of);
            report::mark_chosen(&mut matched, |n| found.chosen.contains(&(*h, n)));
            if let Some(f) = found.search.ranked.iter().find(|f| f.haystack == *h) {
                report::mark_units(&mut matched, &f.units);
            }
            let spans: HashMap<usize, Vec<Range<usize>>> = matched
                .iter()
                .map(|m| (m.number, m.submatches.clone()))
                .collect();
            let mut infos = matched.into_iter().map(|m| (m.number, m.kgrep));
            let mut info_of = |n: usize| infos.find(|(m, _)| *m == n).and_then(|(_, i)| i);
            let mut file_lines = Vec::new();
            let groups = context_groups(&matches, plan.before, plan.after, count);
            let texts = doc.lines_at(groups.iter().flat_map(|&(start, end)| start..=end));
            for (start, end) in groups {
                for n in start..=end {
                    let is_match = matches.binary_search(&n).is_ok();
                    let Some(text) = texts.get(&n) else {
                        continue;
                    };
                    let spans = spans.get(&n).map_or(&[][..], Vec::as_slice);
                    file_lines.push(LineView {
                        number: n,
                        text: String::from_utf8_lossy(&shown(
                            plan, &found.q, text, spans, is_match,
                        ))
                        .into_owned(),
                        is_match,
                        info: if is_match { info_of(n) } else { None },
                    });
                }
            }
            out.push(FileView {
                path: doc.key.clone(),
                score: self.file_score(*h),
                lines: file_lines,
            });
        }
        Ok(out)
    }
}

/// A line's text as the grep-style text prints it (`print::write_grep_to`):
/// a long one as `-M` leaves it out or previews it, a long natural-language
/// one cut around its matched words ([`line_window`]); else whole.
fn shown(plan: &Plan, q: &Query, text: &[u8], spans: &[Range<usize>], is_match: bool) -> Vec<u8> {
    match (
        plan.max_columns,
        line_window(plan.max_columns, print::long_lines(plan, q), text, spans),
    ) {
        (_, Some(w)) => cut::marked(text, w),
        // Without the count of matches some modes of the text add.
        (
            Some(MaxColumns {
                max,
                preview: false,
            }),
            None,
        ) if text.len() > max => omitted_text(is_match, None).into_bytes(),
        _ => text.to_vec(),
    }
}

/// The plan as for a pipe: no colour, not a terminal, grep-style.
fn pipe(plan: &Plan) -> Plan {
    Plan {
        json: false,
        color: false,
        stdout_is_tty: false,
        ..plan.clone()
    }
}

/// The first `k` lines of a selection in `order` (`(index into selection,
/// line)`, see [`Results::priority`]): files keep their order, each with its
/// kept lines sorted.
fn best_of(selection: &Selection, order: &[(usize, usize)], k: usize) -> Selection {
    let mut kept: Vec<Vec<usize>> = vec![Vec::new(); selection.len()];
    for &(f, line) in order.iter().take(k) {
        kept[f].push(line);
    }
    selection
        .iter()
        .zip(kept)
        .filter(|(_, lines)| !lines.is_empty())
        .map(|((h, _), mut lines)| {
            lines.sort_unstable();
            (*h, lines)
        })
        .collect()
}
