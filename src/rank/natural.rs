//! Natural-language queries: count terms everywhere, score lines in the best
//! files, select the lines to print.

use crate::document::{self, Loaded, ReadOptions};
use crate::judge::{self, Thresholds};
use crate::messages;
use crate::query::{self, Origin, Query, Term};
use crate::rank::{load_quiet, Searched, Selection};
use crate::report::LineScores;
use crate::score::{self, RankedFile, TermWeights};
use crate::search::{self, matcher::TermMatcher, sink::TermLine, Corpus};
use crate::typo::{self, Vocabulary};
use crate::walk::Haystack;

/// Ranks the corpus for the query and selects at most `max_lines` lines, at
/// most `max_count` (`-m`) of each file, its best. A
/// query word the corpus never uses is corrected to its nearest corpus words
/// (`typo`), which are added to the query's terms, and the corpus is counted
/// again with them.
pub(crate) fn rank(
    q: &mut Query,
    corpus: Corpus<'_>,
    read: &ReadOptions,
    limits: Limits,
    thresholds: &Thresholds,
) -> anyhow::Result<Searched> {
    let want = limits.want();
    let clock = Laps::start();
    let mut scan = search::scan_terms(corpus, &q.terms, read, want)?;
    if let Some(terms) = with_corrections(q, &scan, read) {
        q.terms = terms;
        let first = scan.stats;
        scan = search::scan_terms(corpus, &q.terms, &read.quiet(), want)?;
        scan.stats = first;
    }
    verbose_common(q, &scan);
    let first_pass = clock.lap();
    let weights = TermWeights::new(&q.terms, &scan.df, scan.stats.loaded);
    // In parallel: reading the words of every file's path is most of this
    // step, a few milliseconds over a registry's 5,000 matching files.
    use rayon::prelude::*;
    let bounds: Vec<(usize, f64)> = scan
        .files
        .par_iter()
        .map(|f| {
            let key = &scan.haystacks[f.haystack].key;
            let e = score::file_evidence(&f.counts, f.len, scan.mean_len, key, &q.terms, &weights);
            // The score is the evidence times a prior of at most 1.
            (f.haystack, e.max(0.0))
        })
        .collect();
    let best = match want {
        search::Want::Best(n) => Some(n),
        _ => None,
    };
    let candidates = score::best_files(bounds, best, |h| {
        let (Some(f), Some(x)) = (scan.files.get(h), scan.haystacks.get(h)) else {
            return 0.0;
        };
        score::file_score(&f.counts, f.len, scan.mean_len, &x.key, &q.terms, &weights)
    });
    let file_scores = clock.lap();
    let matcher = TermMatcher::new(&q.terms)?;
    let typed = query::typed_names(&q.raw, q.ask);
    let subject = query::subject_stems(&q.raw);
    let facts = query_facts(q, &typed, &subject);
    let second = SecondPass {
        haystacks: &scan.haystacks,
        read,
        matcher: &matcher,
        weights: &weights,
        mean_len: scan.mean_len,
        q,
        ask: facts.units_ask,
        collection: facts.units_ask.asks_for_collection(&q.raw),
        every: best.is_none(),
    };
    let mut ranked = second.score(&candidates, |h| scan.files.get(h).map_or(0, |f| f.len));
    let second_pass = clock.lap();
    score::sort_files(&mut ranked, |h| scan.haystacks[h].key.clone());
    let learned = (limits.learned && score::rerank::applies(facts)).then(|| {
        let keys = |h: usize| scan.haystacks[h].key.clone();
        messages::verbose(&format!(
            "ranker: {}",
            score::rerank::Model::of(facts).name()
        ));
        score::rerank::rerank(&mut ranked, keys, &weights, facts)
    });
    // A learned answer still comes first: the model that taught it chose the
    // place for this very question, which no feature of the training knew.
    score::answers_first(&mut ranked, query::answer_slots(&q.terms));
    second.parse_first(&mut ranked);
    if messages::is_verbose() {
        let parsed = ranked.iter().filter(|f| f.parsed).count();
        messages::verbose(&format!(
            "time: first pass {:.1} ms, file scores {:.1} ms, second pass {:.1} ms \
             ({} of {} candidates parsed), ranking {:.1} ms",
            first_pass,
            file_scores,
            second_pass,
            parsed,
            candidates.len(),
            clock.lap(),
        ));
    }
    verbose_ranking(&ranked, &scan.haystacks);
    let scores: LineScores = crate::report::line_scores(&ranked);
    // The judge weighs the wider selection, the one an unsure verdict prints:
    // what it finds near the results must not depend on the verdict it
    // feeds.
    let wide: Selection = score::select_unsure(&ranked, limits.max_lines, limits.max_count);
    let slots = query_slots(q);
    let mut evidence = judge::evidence(&ranked, &wide, slots, weights.total());
    evidence.unknown = unknown_slots(q, &scan.df);
    evidence.answers = query::answer_slots(&q.terms);
    evidence.learned = match &learned {
        Some(l) if score::rerank::judges(facts) => judge::LearnedJudge::Statement(l.probability()),
        Some(_) => judge::LearnedJudge::Question(question_judge(&evidence, &ranked)),
        None => judge::LearnedJudge::None,
    };
    let judgement = judge::judge(&evidence, thresholds);
    // Unsure of the first file: show more of the files that come close. A
    // learned answer spares the model call but not the wider selection the
    // run that learned it printed: a weak model's place is never all there is.
    let learned = evidence.learned_answer_first();
    let selected = if judgement.verdict == judge::Verdict::Sufficient && !learned {
        score::select_per_file(&ranked, limits.max_lines, limits.max_count)
    } else {
        wide
    };
    // The second pass read every candidate; the stages after it read the
    // printed files and the best few (a model's excerpts) again.
    let again: std::collections::HashSet<&str> = ranked
        .iter()
        .take(super::READ_AGAIN_FILES)
        .map(|f| f.haystack)
        .chain(selected.iter().map(|(h, _)| *h))
        .filter_map(|h| scan.haystacks.get(h).map(|x| x.key.as_str()))
        .collect();
    read.reread.retain(|key| again.contains(key));
    Ok(Searched {
        haystacks: scan.haystacks,
        selected,
        stats: scan.stats,
        scores,
        scanned: scan.scanned,
        ranked,
        judgement: Some(judgement),
        df: scan.df,
        context: 0,
    })
}

/// The question judge's probability for a question the learned question
/// model ordered (`judge::question_probability`), from the files' learned
/// scores in their final order; `-v` shows it with its features, which
/// `tests/bench/train/fit_question_judge.py` reads to fit it.
fn question_judge(evidence: &judge::Evidence, ranked: &[RankedFile]) -> f64 {
    let scores: Vec<f64> = ranked.iter().take(3).map_while(|f| f.learned).collect();
    let p = judge::question_probability(evidence, &scores);
    if messages::is_verbose() {
        let [m2, m3, top, hand] = judge::question_features(evidence, &scores);
        messages::verbose(&format!(
            "judge: question judge: probability {p:.3} (margin_second {m2:.4}, margin_third {m3:.4}, top_score {top:.4}, hand_confidence {hand:.4}); coverage {:.4}, words in no file {}",
            judge::coverage(evidence),
            evidence.unknown.count_ones()
        ));
    }
    p
}

/// The query's own content words (full weight, not scaffolding) that no
/// loaded file holds in any form: neither the word, nor a synonym, nor a typo
/// correction. The user names the behaviour in words the code does not use.
fn unknown_slots(q: &Query, df: &[usize]) -> u64 {
    let mut found = 0u64;
    let mut asked = 0u64;
    for (t, &d) in q.terms.iter().zip(df) {
        let bit = score::slot_bit(t.slot);
        if t.origin == Origin::Query && t.weight >= 1.0 && !t.is_identifier() {
            asked |= bit;
        }
        if d > 0 {
            found |= bit;
        }
    }
    asked & !found
}

/// How many lines a natural-language query prints: `--max-lines` in all,
/// `-m` of each file.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub max_lines: usize,
    pub max_count: Option<usize>,
    /// Order the candidates by the learned ranker (`score::rerank`); off for
    /// `--features`, whose training data must not depend on the model it
    /// trains.
    pub learned: bool,
}

impl Limits {
    pub fn of(plan: &crate::cli::Plan) -> Limits {
        Limits {
            max_lines: plan.max_lines,
            max_count: plan.max_count,
            learned: !plan.features,
        }
    }

    /// The files the ranking scores line by line: the best
    /// `score::CANDIDATE_FILES`, or with `--max-lines 0` (every line asked
    /// for) every file holding a term.
    fn want(self) -> search::Want {
        if self.max_lines == 0 {
            search::Want::Every
        } else {
            search::Want::Best(score::CANDIDATE_FILES)
        }
    }
}

/// The slots of the query's own words (not those added by the model).
pub(super) fn query_slots(q: &Query) -> usize {
    q.terms
        .iter()
        .filter(|t| t.origin == Origin::Query)
        .map(|t| t.slot + 1)
        .max()
        .unwrap_or(0)
}

/// The query's terms plus corrections for the query words no loaded file holds,
/// or `None` when every word was found (or none could be corrected).
fn with_corrections(q: &Query, scan: &search::TermScan, read: &ReadOptions) -> Option<Vec<Term>> {
    let found_slots: Vec<usize> = q
        .terms
        .iter()
        .zip(&scan.df)
        .filter(|(_, &df)| df > 0)
        .map(|(t, _)| t.slot)
        .collect();
    let mut missing: Vec<&Term> = q
        .terms
        .iter()
        .filter(|t| t.origin == Origin::Query && !found_slots.contains(&t.slot))
        .filter(|t| t.text.len() >= typo::MIN_TYPO_LEN)
        .collect();
    if missing.is_empty() {
        return None;
    }
    if missing.len() > typo::MAX_CORRECTED_WORDS {
        messages::verbose(&format!(
            "typo: {} words are in no file; only the first {} are corrected",
            missing.len(),
            typo::MAX_CORRECTED_WORDS
        ));
        missing.truncate(typo::MAX_CORRECTED_WORDS);
    }
    let watched: Vec<&str> = missing.iter().map(|t| t.text.as_str()).collect();
    let vocabulary = sample_vocabulary(scan, read, &watched);
    let mut terms = q.terms.clone();
    for word in missing {
        // An identifier the word spells run together is what was typed; one
        // a letter away is meant only when no corpus word is close.
        let exact = vocabulary.identifier(&word.text);
        let (fixes, effort) = match exact {
            Some(_) => Default::default(),
            None => vocabulary.corrections_with_effort(&word.text),
        };
        let spelled = exact.or_else(|| {
            fixes
                .is_empty()
                .then(|| vocabulary.near_identifier(&word.text))
                .flatten()
        });
        if let Some(found) = spelled {
            messages::verbose(&format!(
                "typo: {:?} is in no file; searching the identifier {} it spells",
                word.text, found.spelling
            ));
            push_run_together(&mut terms, found, word.slot);
            continue;
        }
        let effort = format!(
            "compared with {} of the {} words near its length",
            effort.compared, effort.near_in_length
        );
        if fixes.is_empty() {
            messages::verbose(&format!(
                "typo: no corpus word is close to {:?} ({effort})",
                word.text
            ));
            continue;
        }
        messages::verbose(&format!(
            "typo: {:?} is in no file; also searching {} ({effort})",
            word.text,
            fixes.join(", ")
        ));
        for fix in fixes {
            let stem = query::stem(&fix);
            if terms.iter().any(|t| t.stem == stem) {
                continue;
            }
            terms.push(Term {
                text: fix,
                stem,
                weight: query::FUZZY_WEIGHT,
                slot: word.slot,
                origin: Origin::Fuzzy,
                concept: None,
                parts: Vec::new(),
                aside: false,
            });
        }
    }
    (terms.len() > q.terms.len()).then_some(terms)
}

/// Weight of each part of an identifier a query word spells run together
/// (`shouldbindjson`: should, bind, json): the whole identifier is what was
/// typed, its parts alone are weaker evidence than a word the user wrote.
const RUN_TOGETHER_PART_WEIGHT: f32 = 0.4;
/// Parts shorter than this are not searched as words of their own.
const MIN_PART_LEN: usize = 4;

/// Adds the corpus identifier a query word spells run together, in the
/// word's slot: the identifier as a whole (also searched as the corpus
/// spells it, `ShouldBindJSON`), and its parts as words.
fn push_run_together(terms: &mut Vec<Term>, found: &typo::RunTogether, slot: usize) {
    let key = found.parts.join("_");
    if terms.iter().any(|t| t.stem == key) {
        return;
    }
    terms.push(Term {
        text: found.spelling.clone(),
        stem: key,
        weight: 1.0,
        slot,
        origin: Origin::Fuzzy,
        concept: None,
        parts: found.parts.clone(),
        aside: false,
    });
    for part in &found.parts {
        let stem = query::stem(part);
        // A short part (`reg` of `RegExp`) is a part of too many words.
        if part.len() < MIN_PART_LEN || terms.iter().any(|t| t.stem == stem && !t.is_identifier()) {
            continue;
        }
        terms.push(Term {
            text: part.clone(),
            stem,
            weight: RUN_TOGETHER_PART_WEIGHT,
            slot,
            origin: Origin::Fuzzy,
            concept: None,
            parts: Vec::new(),
            aside: false,
        });
    }
}

/// Words of the best first-pass files and of a sample of all files read:
/// the start of each, its share of `typo::MAX_VOCABULARY_BYTES` (what a file
/// leaves unread goes to the next ones), so a few large files cannot crowd
/// out the rest, nor make the sample large. It indexes the identifiers the
/// `watch` words (the missing ones) may spell run together.
fn sample_vocabulary(scan: &search::TermScan, read: &ReadOptions, watch: &[&str]) -> Vocabulary {
    let mut by_hits: Vec<&search::FileTerms> = scan.files.iter().collect();
    by_hits.sort_by_key(|f| std::cmp::Reverse(f.counts.iter().map(|&c| u64::from(c)).sum::<u64>()));
    let best = by_hits
        .into_iter()
        .take(score::CANDIDATE_FILES)
        .map(|f| &scan.haystacks[f.haystack]);
    let mut sampled: Vec<&Haystack> = Vec::new();
    for h in best.chain(&scan.sample) {
        // A best file is often in the sample too: read once.
        if !sampled.iter().any(|s| s.key == h.key) {
            sampled.push(h);
        }
    }
    let mut vocabulary = Vocabulary::default();
    vocabulary.watch(watch);
    let mut files = 0;
    for (i, h) in sampled.iter().enumerate() {
        let left = typo::MAX_VOCABULARY_BYTES.saturating_sub(vocabulary.bytes_read());
        let share = (left / (sampled.len() - i)).min(typo::MAX_SAMPLE_BYTES);
        if let Ok(Loaded::Text(doc)) = document::load_head(h, read, share) {
            vocabulary.add_text(&doc.text[..doc.text.len().min(share)]);
            files += 1;
        }
    }
    messages::verbose(&format!(
        "typo: vocabulary of {} words from {files} files ({} bytes read, at most {})",
        vocabulary.len(),
        vocabulary.bytes_read(),
        typo::MAX_VOCABULARY_BYTES
    ));
    vocabulary
}

fn verbose_common(q: &Query, scan: &search::TermScan) {
    let names = |which: &[bool]| -> String {
        q.terms
            .iter()
            .zip(which)
            .filter(|(_, &c)| c)
            .map(|(t, _)| t.text.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let common = names(&scan.common);
    if !common.is_empty() {
        messages::verbose(&format!(
            "first pass: too common to count after {} files: {common}",
            search::SAMPLE_FILES,
        ));
    }
    let recounted = names(&scan.recounted);
    if !recounted.is_empty() {
        messages::verbose(&format!(
            "first pass: common, but counted in every file (too few files hold a rarer query word): {recounted}"
        ));
    }
}

/// The best candidates of the first pass that are parsed into code units
/// (`crate::units`); the others keep the line heuristics. A parse costs about
/// as much as reading the file ten times over.
const PARSED_FILES: usize = 16;

/// What a parse costs beside reading and scoring a file's lines, per byte:
/// on a cargo registry, four parsed Rust files (17-51 KB) took 0.16-0.28 ms
/// a KB, twenty unparsed ones 0.011-0.016 ms. Only the order of the second
/// pass's jobs depends on it ([`SecondPass::score`]).
const PARSE_COST: usize = 15;

/// A candidate larger than this keeps the line heuristics too: tree-sitter
/// parses 2-3 MB/s, so one 900 KB generated binding file cost a query on a
/// cargo registry 110 ms (86 ms before parsing). Hand-written source files,
/// where units are the answer, are rarely this large.
const MAX_PARSED_FILE_BYTES: usize = 128 << 10;

/// Bytes parsed per query at most, over all candidates: about 50 ms of CPU.
/// Measured on the question, dev and commit sets: 128 KB ranks as well as
/// no limit (256 KB the same, 64 KB a little worse, none at all: questions
/// RIGHT 0.43 -> 0.37, dev region recall 0.83 -> 0.72).
const PARSE_BUDGET_BYTES: usize = 128 << 10;

/// The first file after ranking is parsed if it was not (`parse_first`) and
/// is at most this large: one file, about 100 ms of CPU at worst. Measured
/// on the fourteen question sets: 468 -> 469 RIGHT (alembic-05, whose
/// `ddl/sqlite.py` the budget had left unparsed; zlib-03 WRONG -> PARTIAL),
/// none worse; dev, commit and held-out commit sets unchanged.
const LATE_PARSE_MAX_BYTES: usize = 256 << 10;

/// Which files to parse, given the sizes of the best candidates in
/// first-pass order (`None`: kgrep has no parser for it): each at most
/// [`MAX_PARSED_FILE_BYTES`], while their bytes stay within
/// [`PARSE_BUDGET_BYTES`]; a file that does not fit is skipped, and a
/// smaller one after it may still be parsed.
fn parse_plan(sizes: &[Option<usize>]) -> Vec<bool> {
    let mut used = 0usize;
    sizes
        .iter()
        .map(|size| {
            let Some(size) = *size else {
                return false;
            };
            let fits =
                size <= MAX_PARSED_FILE_BYTES && used.saturating_add(size) <= PARSE_BUDGET_BYTES;
            if fits {
                used += size;
            }
            fits
        })
        .collect()
}

/// Wall time of the ranking's stages, for `-v`: each [`Laps::lap`] is the
/// time since the one before it (or the start), in milliseconds.
struct Laps(std::cell::Cell<std::time::Instant>);

impl Laps {
    fn start() -> Laps {
        Laps(std::cell::Cell::new(std::time::Instant::now()))
    }

    fn lap(&self) -> f64 {
        let now = std::time::Instant::now();
        let took = now.duration_since(self.0.replace(now));
        took.as_secs_f64() * 1000.0
    }
}

/// The indices of `costs`, the costliest first (a tie to the earlier).
fn longest_first(costs: &[usize]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..costs.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(costs[i]), i));
    order
}

/// What the second pass needs to score a candidate file.
struct SecondPass<'a> {
    haystacks: &'a [Haystack],
    read: &'a ReadOptions,
    matcher: &'a TermMatcher,
    weights: &'a TermWeights,
    mean_len: f64,
    q: &'a Query,
    /// What the question asks for (`score::unit` weighs names and
    /// declarations by it): read from the query once, not per file.
    ask: query::Ask,
    /// It asks for a collection (`Ask::asks_for_collection`): a table
    /// among the units weighs more.
    collection: bool,
    /// Every line was asked for (`--max-lines 0`): a streamed file's lines
    /// past the caps are then said to be left out, not only with `-v`.
    every: bool,
}

impl SecondPass<'_> {
    /// Line scores of the candidate files, in parallel. The file score is
    /// computed again from every term (the first pass may have skipped common
    /// ones).
    /// `len`: a haystack's length in bytes, as the first pass read it.
    ///
    /// The files are scored longest job first, each thread taking the next
    /// when it is done (greedy scheduling, `par_bridge`): a parse costs a
    /// file's bytes [`PARSE_COST`] times over, and a parse of the last
    /// candidates left to one core would keep the other waiting. Returns the
    /// files in candidate order.
    fn score(&self, candidates: &[(usize, f64)], len: impl Fn(usize) -> usize) -> Vec<RankedFile> {
        use rayon::prelude::*;
        let parse = self.to_parse(candidates);
        let costs: Vec<usize> = candidates
            .iter()
            .zip(&parse)
            .map(|(&(h, _), &parsed)| {
                let bytes = len(h);
                if parsed {
                    bytes.saturating_mul(PARSE_COST)
                } else {
                    bytes
                }
            })
            .collect();
        let mut scored: Vec<(usize, RankedFile)> = longest_first(&costs)
            .into_iter()
            .par_bridge()
            .filter_map(|i| Some((i, self.score_file(candidates[i].0, i, parse[i])?)))
            .collect();
        scored.sort_unstable_by_key(|&(i, _)| i);
        scored.into_iter().map(|(_, f)| f).collect()
    }

    /// Which candidates are parsed ([`parse_plan`] over the first
    /// [`PARSED_FILES`]; a file without a parser never is).
    fn to_parse(&self, candidates: &[(usize, f64)]) -> Vec<bool> {
        let sizes: Vec<Option<usize>> = candidates
            .iter()
            .take(PARSED_FILES)
            .map(|&(h, _)| {
                let haystack = &self.haystacks[h];
                crate::units::Lang::of_path(&haystack.key)?;
                Some(match &haystack.source {
                    crate::walk::Source::Path(path) => std::fs::metadata(path)
                        .map_or(usize::MAX, |m| {
                            usize::try_from(m.len()).unwrap_or(usize::MAX)
                        }),
                    crate::walk::Source::Stdin(bytes) => bytes.len(),
                    // Read by the search already: its bytes are in hand.
                    crate::walk::Source::Pipe(path) => self
                        .read
                        .pipes
                        .bytes(path)
                        .map_or(usize::MAX, |(b, _)| b.len()),
                })
            })
            .collect();
        let mut plan = parse_plan(&sizes);
        plan.resize(candidates.len(), false);
        plan
    }

    /// Scores one candidate; `parse`: cut it into units with a parser (its
    /// language's, if kgrep has one) rather than the line heuristics.
    /// The first file, if the parse plan left it to the line heuristics (the
    /// budget went to candidates the first pass ranked above it, or it is
    /// larger than [`MAX_PARSED_FILE_BYTES`]): its units are parsed now, up
    /// to [`LATE_PARSE_MAX_BYTES`], so its lines are chosen unit by unit as
    /// a parsed file's are. Its place and its score stay: only what is
    /// printed of it changes.
    fn parse_first(&self, ranked: &mut [RankedFile]) {
        let Some(first) = ranked.first_mut().filter(|f| !f.parsed) else {
            return;
        };
        let key = &self.haystacks[first.haystack].key;
        if first.len > LATE_PARSE_MAX_BYTES || crate::units::Lang::of_path(key).is_none() {
            return;
        }
        if let Some(again) = self
            .score_file(first.haystack, first.first_rank, true)
            .filter(|f| f.parsed)
        {
            first.units = again.units;
            first.lines = again.lines;
            first.parsed = true;
        }
    }

    fn score_file(&self, h: usize, first_rank: usize, parse: bool) -> Option<RankedFile> {
        if let Some(path) = document::stream::streamed(&self.haystacks[h], self.read) {
            return self.score_streamed(h, first_rank, path);
        }
        let key = &self.haystacks[h].key;
        let doc = load_quiet(&self.haystacks[h], self.read)?;
        let lines = search::term_lines(&doc, self.matcher);
        let mut counts = vec![0u32; self.q.terms.len()];
        for m in lines.iter().flat_map(|l| &l.matches) {
            if let Some(c) = counts.get_mut(m.term) {
                *c = c.saturating_add(1);
            }
        }
        let prior = score::text_prior(key, &self.q.terms, &doc.text);
        let parts = score::file_parts(
            &counts,
            doc.text.len(),
            self.mean_len,
            key,
            &self.q.terms,
            self.weights,
        );
        let starts = doc.line_starts();
        let text_of = |n: usize| doc.line(&starts, n);
        let mut kinds = score::classify_lines(&doc.text);
        score::name_definitions(&mut kinds, lines.iter().map(|l| l.line), text_of);
        let wants_tests = score::query_wants_secondary(&self.q.terms);
        let scored = score::score_lines(&lines, self.weights, &kinds, wants_tests, text_of);
        let lang = crate::units::Lang::of_source(key, &doc.text).filter(|_| parse);
        let parsed = lang.and_then(|lang| crate::units::parse(lang, &doc.text));
        let mut layout = match &parsed {
            Some(units) => score::unit::Layout::parsed(units, &doc.text, &starts, &lines),
            None => score::unit::Layout::heuristic(&kinds, &lines),
        };
        layout.count_branches(&kinds);
        let units = score::unit::score_units(
            &lines,
            &layout,
            self.weights,
            &scored,
            wants_tests,
            self.ask,
            self.collection,
        );
        let parsed_as = lang.filter(|_| parsed.is_some());
        let prior = score::with_test_units(prior, key, &self.q.terms, &units, parsed_as);
        let file_score = prior * parts.evidence();
        Some(RankedFile {
            haystack: h,
            file_score,
            prior,
            score: score::final_score(file_score, &scored, &units, prior),
            lines: scored,
            units,
            parts,
            first_rank,
            len: doc.text.len(),
            parsed: parsed.is_some(),
            learned: None,
            hand_blend: false,
            promoted: None,
        })
    }
}

/// Most matching lines of a streamed file kept for scoring, and most bytes of
/// their text: a 1 GB log whose every line matches must not be held after
/// all. Past them the file's term counts still grow; its later lines are
/// not scored (said with `-v`).
pub const MAX_STREAMED_LINES: usize = 100_000;
pub const MAX_STREAMED_LINE_BYTES: usize = 64 << 20;

/// What scoring a streamed file keeps of it.
#[derive(Default)]
struct Streamed {
    lines: Vec<TermLine>,
    /// The labels and the text of `lines`, in the same order.
    kinds: Vec<score::LineKind>,
    texts: Vec<Vec<u8>>,
    text_bytes: usize,
    counts: Vec<u32>,
    /// Bytes and lines of the whole normalised text.
    len: usize,
    line_count: usize,
    /// Matching lines left unscored by the caps.
    dropped: usize,
}

impl SecondPass<'_> {
    /// [`SecondPass::score_file`] for a file too large to load
    /// (`document::stream`): its lines are matched and labelled as they
    /// stream past, and only the matching ones kept, with the same scores
    /// the whole text would give them. It is not cut into units (that needs
    /// all its lines): its best line stands for them in its score.
    fn score_streamed(
        &self,
        h: usize,
        first_rank: usize,
        path: &std::path::Path,
    ) -> Option<RankedFile> {
        use std::ops::ControlFlow;
        let key = &self.haystacks[h].key;
        let mut s = Streamed {
            counts: vec![0u32; self.q.terms.len()],
            ..Streamed::default()
        };
        let mut classifier = score::Classifier::default();
        let mut line = Vec::new();
        let streamed = document::stream::for_each_line(path, |n, text| {
            s.len += text.len() + usize::from(n > 1);
            s.line_count = n;
            // Each line with its break, as the whole text's matcher sees it.
            line.clear();
            line.extend_from_slice(text);
            line.push(b'\n');
            let matches = self.matcher.find_all(&line);
            for m in &matches {
                if let Some(c) = s.counts.get_mut(m.term) {
                    *c = c.saturating_add(1);
                }
            }
            let room = s.lines.len() < MAX_STREAMED_LINES
                && s.text_bytes + text.len() <= MAX_STREAMED_LINE_BYTES;
            let kept = !matches.is_empty() && room;
            s.dropped += usize::from(!matches.is_empty() && !room);
            let (mut kind, adopted) = classifier.next(n, text, kept);
            if let Some((block, numbers)) = adopted {
                for number in numbers {
                    if let Ok(i) = s.lines.binary_search_by_key(&number, |l| l.line) {
                        s.kinds[i].block = block;
                    }
                }
            }
            if kept {
                score::name_definition(&mut kind, text);
                s.lines.push(TermLine { line: n, matches });
                s.kinds.push(kind);
                s.texts.push(text.to_vec());
                s.text_bytes += text.len();
            }
            ControlFlow::Continue(())
        });
        match streamed {
            Ok(nul) if nul && !self.read.text => return None,
            Ok(_) => {}
            Err(_) => return None,
        }
        messages::verbose(&format!(
            "second pass: {key}: {} bytes, scored as it streamed: {} matching lines kept",
            s.len,
            s.lines.len()
        ));
        if s.dropped > 0 && self.every {
            messages::warn(&format!(
                "{key}: {} matching lines past the first {} of this {} MB file were not \
                 ranked or printed (too many to hold); an exact query (kgrep '\"…\"' or -F) \
                 prints every one",
                s.dropped,
                s.lines.len(),
                s.len >> 20
            ));
        } else if s.dropped > 0 {
            messages::verbose(&format!(
                "second pass: {key}: {} matching lines past the first {} not scored",
                s.dropped,
                s.lines.len()
            ));
        }
        let prior = score::text_prior_of(key, &self.q.terms, s.len, s.line_count);

        let index = |n: usize| s.lines.binary_search_by_key(&n, |l| l.line).ok();
        let text_of = |n: usize| index(n).map(|i| s.texts[i].as_slice());
        let kind_of = |n: usize| index(n).map(|i| s.kinds[i]).unwrap_or_default();
        let wants_tests = score::query_wants_secondary(&self.q.terms);
        let scored = score::score_lines_by(&s.lines, self.weights, kind_of, wants_tests, text_of);
        let parts = score::file_parts(
            &s.counts,
            s.len,
            self.mean_len,
            key,
            &self.q.terms,
            self.weights,
        );
        let file_score = prior * parts.evidence();
        Some(RankedFile {
            haystack: h,
            file_score,
            prior,
            score: score::final_score(file_score, &scored, &[], prior),
            lines: scored,
            units: Vec::new(),
            parts,
            first_rank,
            len: s.len,
            parsed: false,
            learned: None,
            hand_blend: false,
            promoted: None,
        })
    }
}

fn verbose_ranking(ranked: &[RankedFile], haystacks: &[Haystack]) {
    if !messages::is_verbose() {
        return;
    }
    for f in ranked.iter().take(10) {
        let line = f.best_line().map_or(String::new(), |l| {
            format!(
                " best line {} = (terms {:.2} + near {:.2} + merged {:.2} + name {:.2}) x {:.2} = {:.2}",
                l.line,
                l.score.terms,
                l.score.near,
                l.score.merged,
                l.score.name,
                l.score.factor,
                l.score.total
            )
        });
        let learned = f
            .learned
            .map_or(String::new(), |s| format!(", learned {s:.2}"));
        messages::verbose(&format!(
            "rank {:.2} (file {:.2}{learned}) {}{line}",
            f.score, f.file_score, haystacks[f.haystack].key
        ));
        for u in f.units.iter().take(3) {
            let fields: Vec<String> = score::unit::FIELDS
                .iter()
                .zip(&u.score.fields)
                .filter(|(_, &v)| v > 0.0)
                .map(|(f, v)| format!("{} {v:.2}", f.label()))
                .collect();
            messages::verbose(&format!(
                "  unit {} {} lines {}-{} (def {}) = ({} + support {:.2} + line {:.2}) x {:.2} = {:.2}",
                u.span.kind,
                u.span.name.as_deref().unwrap_or("-"),
                u.span.start_line,
                u.span.end_line,
                u.span.def_line,
                fields.join(" + "),
                u.score.support,
                u.score.line,
                u.score.factor,
                u.score.total
            ));
        }
    }
}

/// What the features need to know of the query; `typed`: its
/// `query::typed_names`, and `subject`: its `query::subject_stems`, each read
/// once.
fn query_facts<'q>(
    q: &Query,
    typed: &'q [String],
    subject: &'q [String],
) -> score::features::QueryFacts<'q> {
    score::features::QueryFacts {
        typed,
        wants_tests: score::query_wants_secondary(&q.terms),
        answers: query::answer_slots(&q.terms),
        ask: q.ask,
        units_ask: q.ask.for_units(&q.raw),
        asks_declaration: score::query_asks_declaration(&q.terms),
        keywords: q.ask.typed_as_search(&q.raw),
        subject,
    }
}

/// Candidates whose units `--features` prints too, and units of each.
const FEATURE_UNIT_FILES: usize = 3;
const FEATURE_UNITS: usize = 10;

/// `--features`: each ranked candidate's path and feature vector, in the
/// ranking's order, and the first candidates' best units (at most
/// [`FEATURE_UNITS`] of each of the first [`FEATURE_UNIT_FILES`], in their
/// hand order) with theirs (`render::features` writes them).
pub(crate) fn features(q: &Query, searched: &Searched) -> Vec<crate::render::features::FeatureRow> {
    use crate::render::features::{FeatureRow, UnitRow};
    let weights = TermWeights::new(&q.terms, &searched.df, searched.stats.loaded);
    let typed = query::typed_names(&q.raw, q.ask);
    let keys = |h: usize| searched.haystacks[h].key.clone();
    let subject = query::subject_stems(&q.raw);
    let facts = query_facts(q, &typed, &subject);
    let all = score::features::all_features(&searched.ranked, keys, &weights, facts);
    searched
        .ranked
        .iter()
        .zip(all)
        .enumerate()
        .map(|(rank, (f, features))| {
            let units = if rank < FEATURE_UNIT_FILES {
                let vectors = score::unit_features::features(f, facts.units_ask);
                f.units
                    .iter()
                    .zip(vectors)
                    .take(FEATURE_UNITS)
                    .map(|(u, features)| UnitRow {
                        kind: u.span.kind,
                        name: u.span.name.clone(),
                        start: u.span.start_line,
                        end: u.span.end_line,
                        def: u.span.def_line,
                        features,
                    })
                    .collect()
            } else {
                Vec::new()
            };
            FeatureRow {
                path: searched.haystacks[f.haystack].key.clone(),
                features,
                units,
            }
        })
        .collect()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::testing::{below, rng};
    use crate::walk::Source;

    #[test]
    fn parsing_stays_within_its_budget() {
        let kb = |n: usize| Some(n << 10);
        let too_big = Some(MAX_PARSED_FILE_BYTES + 1);
        // No parser, or over the per-file cap: skipped; a smaller file after
        // one that does not fit is still parsed.
        assert_eq!(
            parse_plan(&[kb(10), None, too_big, kb(20)]),
            [true, false, false, true]
        );
        // The budget holds this many files of 60 KB, the rest are not parsed.
        let plan = parse_plan(&vec![kb(60); 16]);
        let fit = PARSE_BUDGET_BYTES / (60 << 10);
        assert!(plan[..fit].iter().all(|&p| p), "{plan:?}");
        assert!(plan[fit..].iter().all(|&p| !p), "{plan:?}");
    }

    /// A second pass over test files for the query "where is the retry
    /// backoff delay computed", every term in 3 of 10 files.
    struct Setup {
        q: Query,
        matcher: TermMatcher,
        weights: TermWeights,
        read: ReadOptions,
    }

    impl Setup {
        fn new() -> Setup {
            let q = query::analyze("where is the retry backoff delay computed");
            let matcher = TermMatcher::new(&q.terms).unwrap();
            let df = vec![3; q.terms.len()];
            let weights = TermWeights::new(&q.terms, &df, 10);
            Setup {
                q,
                matcher,
                weights,
                read: ReadOptions::for_run(false),
            }
        }

        fn pass<'a>(&'a self, haystacks: &'a [Haystack]) -> SecondPass<'a> {
            SecondPass {
                haystacks,
                read: &self.read,
                matcher: &self.matcher,
                weights: &self.weights,
                mean_len: 400.0,
                q: &self.q,
                ask: query::Ask::Other,
                collection: false,
                every: false,
            }
        }
    }

    #[test]
    fn the_costliest_jobs_are_scheduled_first() {
        assert_eq!(longest_first(&[5, 90, 5, 20, 0]), [1, 3, 0, 2, 4]);
        assert_eq!(longest_first(&[]), Vec::<usize>::new());
    }

    /// However the second pass schedules its files, it returns them in
    /// candidate order, each scored as on its own.
    #[test]
    fn the_second_pass_returns_its_files_in_candidate_order() {
        let setup = Setup::new();
        let dir = tempfile::tempdir().unwrap();
        let haystacks: Vec<Haystack> = (0..12)
            .map(|n| {
                let path = dir.path().join(format!("f{n}.rs"));
                let body = "    let delay = retry_backoff();\n".repeat(1 + n * 7 % 40);
                std::fs::write(&path, format!("fn retry_{n}() {{\n{body}}}\n")).unwrap();
                Haystack {
                    key: format!("src/f{n}.rs"),
                    source: Source::Path(path),
                }
            })
            .collect();
        let pass = setup.pass(&haystacks);
        // Candidates in an order of their own, neither by size nor by key.
        let candidates: Vec<(usize, f64)> = [7, 2, 11, 0, 5, 9, 1, 4, 10, 3, 8, 6]
            .iter()
            .map(|&h| (h, 1.0))
            .collect();
        let len = |h: usize| {
            std::fs::metadata(dir.path().join(format!("f{h}.rs"))).map_or(0, |m| m.len() as usize)
        };
        let parse = pass.to_parse(&candidates);
        let alone: Vec<RankedFile> = candidates
            .iter()
            .enumerate()
            .filter_map(|(i, &(h, _))| pass.score_file(h, i, parse[i]))
            .collect();
        assert_eq!(alone.len(), candidates.len());
        assert_eq!(pass.score(&candidates, len), alone);
    }

    /// A file scored as it streams gets the scores the loaded file gets: the
    /// same lines, labels and file score (units are cut from loaded files
    /// only).
    #[test]
    fn a_streamed_file_scores_as_the_loaded_file() {
        const PIECES: &[&str] = &[
            "\n",
            "fn retry_backoff() {\n",
            "    let delay = 1;\n",
            "}\n",
            "/// Retry docs.\n",
            "#[test]\n",
            "@retry\n",
            "def compute_delay(self):\n",
            "    \"\"\"Backoff.\"\"\"\n",
            "    return retry\n",
            "/* block retry\n",
            "still */\n",
            "use retry::Backoff;\n",
            "class RetryPolicy:\n",
            "  # delay note\n",
            "mod tests {\n",
            "x = 1\r\n",
            "\u{e9}t\u{e9}\r",
            "a long line of words about the retry delay and the backoff it computes\n",
        ];
        let setup = Setup::new();
        let dir = tempfile::tempdir().unwrap();
        let mut rng = rng(0x5c0e_0015);
        for case in 0..60 {
            let text: String = (0..below(&mut rng, 80))
                .map(|_| PIECES[below(&mut rng, PIECES.len())])
                .collect();
            let path = dir.path().join(format!("f{case}.rs"));
            std::fs::write(&path, &text).unwrap();
            let haystacks = vec![Haystack {
                key: format!("src/f{case}.rs"),
                source: Source::Path(path.clone()),
            }];
            let pass = setup.pass(&haystacks);
            let loaded = pass.score_file(0, 0, false).map(|f| RankedFile {
                units: Vec::new(),
                score: score::final_score(f.file_score, &f.lines, &[], f.prior),
                ..f
            });
            let streamed = pass.score_streamed(0, 0, &path);
            assert_eq!(streamed, loaded, "case {case}: {text:?}");
        }
    }
}
