//! The model stage of a run. When the policy, the output mode or the judge
//! asks for it, the language model is consulted: an expansion first when query
//! words are missing from the results (its concepts are searched, and the two
//! rankings fused), then a selection over the retrieved excerpts, whose claims,
//! once verified, are fused into the offline ranking (kgrep's own fallback) or
//! replace it (`--rlm`). kgrep's fallback spends at most [`FALLBACK_CALLS`]
//! calls and one prompt budget (`prompt_tokens`) on a query, and every query
//! one deadline ([`QUERY_TIME_CALLS`] × `llm_timeout`). Any failure keeps the
//! offline results (improved by a successful expansion) with a one-line
//! warning, and ends the query's model calls.

use std::collections::{BTreeMap, HashMap};

use serde_json::{Map, Value};

use super::{natural, Found};
use crate::cli::{Mode, Plan};
use crate::document::{Document, ReadOptions};
use crate::fallback::{self, excerpts, expand, rrf, Decision};
use crate::judge::Verdict;
use crate::llm::{
    self, Client, ClientOptions, Endpoint, Excerpt, ExpansionRequest, Llm, LlmConfig, LlmError,
    Meter, Reply, Search, SelectionRequest, Usage,
};
use crate::messages;
use crate::progress::Spinner;
use crate::query::{self, Origin, QueryKind};
use crate::rank::{self, exact, Searched, Selection};
use crate::score;
use crate::search::Corpus;
use crate::signature::{self, Spec};
use crate::verify;
use crate::walk::{self, Haystack};

/// Files whose excerpts are offered to the model, best first.
pub const EXCERPT_FILES: usize = 8;
/// Best lines of each file that its excerpts are built around.
pub const FOCUS_LINES: usize = 6;
/// Files and matching lines taken from a follow-up pattern search.
pub const FOLLOW_UP_FILES: usize = 5;
pub const FOLLOW_UP_LINES: usize = 10;
/// Top files whose best places give the vocabulary sent with an expansion.
pub const VOCABULARY_FILES: usize = 5;
/// Calls kgrep's own fallback spends on a query: an expansion and a
/// selection, or a selection and one follow-up round. Each call of a small
/// local model takes minutes; a third rarely changes the ranking.
pub const FALLBACK_CALLS: u32 = 2;
/// A query's model calls, retries and waits together end within this many
/// times `llm_timeout` (one deadline per query): a slow call leaves the next
/// one only what remains, so a server that hangs costs one timeout, and a
/// query never waits twice as long as the user allowed one call to take.
pub const QUERY_TIME_CALLS: u32 = 2;
/// Fewer estimated prompt tokens than this left for a selection: it is not
/// sent (the instructions alone take several hundred).
pub const MIN_SELECTION_TOKENS: usize = 1_000;

/// Where the corpus is, for second searches and for verification.
pub(super) struct Context<'a> {
    pub plan: &'a Plan,
    pub corpus: Corpus<'a>,
    /// The current directory (where a project's learned file is).
    pub cwd: &'a std::path::Path,
    pub read: &'a ReadOptions,
    /// The signature spec, in the signature modes.
    pub spec: Option<&'a Spec>,
}

/// What the model stage produced besides the printed lines (which it writes
/// into `Found`).
#[derive(Debug, Default)]
pub(super) struct Report {
    /// A model answered a selection: `Found` now holds its verified claims.
    pub answered: bool,
    /// Claims that named an unknown file or a line out of range.
    pub dropped: usize,
    /// Every claim was dropped: the offline results are printed instead.
    pub kept_offline: bool,
    /// The model's answer (`--answer`).
    pub answer: Option<String>,
    /// The signature fields, validated (signature modes).
    pub fields: Option<Map<String, Value>>,
    /// A signature reply that never matched the spec: the error to report.
    pub signature_error: Option<String>,
    /// Calls made and tokens used.
    pub calls: u32,
    pub usage: Usage,
    /// Concepts the model taught whose terms matched the corpus, with those terms.
    pub taught: Vec<(llm::Concept, Vec<String>)>,
    /// Names of the concepts written to the learned thesaurus.
    pub learned: Vec<String>,
    /// What the model's verified choice answered that the offline ranking
    /// did not: the learning loop keeps it (`learn::answer`).
    pub answer_lesson: Option<crate::learn::answer::AnswerLesson>,
    /// Why no model was consulted, or why it failed (for `-v` and `--json`).
    pub note: Option<String>,
    /// A model call failed (the note says how): the offline results stand.
    pub failed: bool,
    /// The model's verified lines were fused into the offline ranking
    /// (kgrep's own fallback) rather than replacing it (`--rlm`).
    pub fused: bool,
}

/// How many of the model's first verified lines the learning loop reads
/// identifiers from (`learn::answer`).
const ANSWER_LINES: usize = 3;

/// Runs the stage. `Ok(None)`: `--dry-run` printed the requests (nothing else
/// is printed). The endpoint resolution and its warnings happen here, once.
pub(super) fn run(cx: &Context<'_>, found: &mut Found) -> anyhow::Result<Option<Report>> {
    // A settled consultation answers before the judge is heard: what it
    // printed is printed again, whatever a lesson it taught now ranks first.
    if let Some(report) = super::settled::replay(cx.plan, cx.corpus, cx.cwd, found) {
        if let Some(note) = &report.note {
            messages::verbose(&format!("model: not consulted: {note}"));
        }
        return Ok(Some(report));
    }
    let verdict = found.search.judgement.as_ref().map(|j| j.verdict);
    let expand = match fallback::decide(cx.plan.llm, &cx.plan.mode, verdict) {
        Decision::Skip(why) => {
            messages::verbose(&format!("model: not consulted: {why}"));
            if cx.plan.dry_run {
                messages::line(&format!("--dry-run: no model request would be sent: {why}"));
            }
            return Ok(Some(Report {
                note: Some(why.to_string()),
                ..Report::default()
            }));
        }
        Decision::Call { expand } => expand,
    };
    let config = llm::resolve(&cx.plan.model, |name| std::env::var(name).ok());
    for warning in &config.warnings {
        messages::warn(warning);
    }
    let selection = match config.selection() {
        Ok(endpoint) => endpoint.clone(),
        Err(offline) => {
            messages::verbose(&format!(
                "model: none configured, running offline: {offline}"
            ));
            if cx.plan.dry_run {
                messages::line(&format!(
                    "--dry-run: no model request would be sent: {offline}"
                ));
            } else if cx.plan.llm == crate::cli::LlmPolicy::Always {
                // The user asked for the model: not finding one is news.
                messages::warn(&format!(
                    "{} asks for a language model, but {offline}",
                    cx.plan.llm_from
                ));
            }
            return Ok(Some(Report {
                note: Some(offline.to_string()),
                ..Report::default()
            }));
        }
    };
    let max_iterations = config.max_iterations.unwrap_or(DEFAULT_ITERATIONS);
    warn_long_query(cx, found);
    if cx.plan.dry_run {
        dry_run(cx, found, &config, &selection, expand)?;
        return Ok(None);
    }
    let meter = Meter::with_deadline(
        config.max_llm_calls,
        Some(config.call_timeout.saturating_mul(QUERY_TIME_CALLS)),
    );
    let options = ClientOptions {
        call_timeout: config.call_timeout,
        ..ClientOptions::default()
    };
    let mut report = Report::default();
    let mut stage = Stage {
        cx,
        selection: Client::with_options(selection.clone(), meter.clone(), options),
        meter: meter.clone(),
        sent_estimate: 0,
        max_iterations,
        walked: std::cell::OnceCell::new(),
    };
    if expand {
        if let Ok(endpoint) = config.expansion() {
            let client = Client::with_options(endpoint.clone(), meter.clone(), options);
            let sufficient = stage.expand(&client, found, &mut report)?;
            // A server that just failed is not called again for this query:
            // the second call would fail the same way, after as long.
            if report.failed || (sufficient && !stage.must_select()) {
                finish(&meter, &mut report);
                return Ok(Some(report));
            }
        }
    }
    stage.select(found, &mut report)?;
    finish(&meter, &mut report);
    Ok(Some(report))
}

/// Follow-up rounds when `--max-iterations` is not set.
pub const DEFAULT_ITERATIONS: u32 = 2;

fn finish(meter: &Meter, report: &mut Report) {
    report.calls = meter.calls();
    report.usage = meter.usage();
    messages::verbose(&format!(
        "model: {} call(s), {} prompt + {} completion tokens",
        report.calls, report.usage.prompt_tokens, report.usage.completion_tokens
    ));
}

/// One run's model calls.
struct Stage<'a> {
    cx: &'a Context<'a>,
    selection: Client,
    /// The run's calls and reported tokens.
    meter: Meter,
    /// Estimated tokens of the prompts sent so far (for servers that report
    /// no usage, and because the estimate errs high).
    sent_estimate: usize,
    max_iterations: u32,
    /// The files of the corpus, listed at most once per run.
    walked: std::cell::OnceCell<Vec<Haystack>>,
}

impl Stage<'_> {
    /// kgrep's own fallback (not `--rlm`): the prompt budget and
    /// [`FALLBACK_CALLS`] hold for the query's calls together. `--rlm` gives
    /// each request the whole budget and follows up as often as allowed, as
    /// rlmgrep does.
    fn per_query(&self) -> bool {
        self.cx.plan.llm != crate::cli::LlmPolicy::Always
    }

    /// Estimated prompt tokens the next call may send.
    fn budget_left(&self) -> usize {
        if !self.per_query() {
            return self.cx.plan.prompt_tokens;
        }
        let reported = usize::try_from(self.meter.usage().prompt_tokens).unwrap_or(usize::MAX);
        self.cx
            .plan
            .prompt_tokens
            .saturating_sub(reported.max(self.sent_estimate))
    }

    /// Whether a follow-up round may be sent.
    fn may_follow_up(&self) -> bool {
        !self.per_query()
            || (self.meter.calls() < FALLBACK_CALLS && self.budget_left() >= MIN_SELECTION_TOKENS)
    }

    /// Whether a selection must follow even when an expansion made the results
    /// sufficient: the policy says always, or the mode needs the model's text.
    fn must_select(&self) -> bool {
        self.cx.plan.llm == crate::cli::LlmPolicy::Always
            || !matches!(self.cx.plan.mode, Mode::Grep)
    }

    /// Asks for concepts, searches them, fuses the rankings into `found`.
    /// Returns whether the judge now finds the results sufficient. A failed
    /// call is a warning; the offline results stay.
    fn expand(
        &mut self,
        client: &Client,
        found: &mut Found,
        report: &mut Report,
    ) -> anyhow::Result<bool> {
        if !matches!(found.q.kind, QueryKind::Natural) {
            return Ok(false);
        }
        let request = ExpansionRequest {
            query: prompt_query(self.cx, found),
            vocabulary: vocabulary(found, self.cx.read),
        };
        self.sent_estimate += llm::prompt::expansion(&request).stats.tokens;
        let spinner = Spinner::start("asking the model for the query's concepts");
        let reply = client.expand(&request);
        spinner.finish();
        let reply = match reply {
            Ok(reply) => reply,
            Err(LlmError::Truncated {
                salvaged: Some(partial),
            }) => *partial,
            Err(err) => {
                warn_failed(&err, report);
                return Ok(false);
            }
        };
        let terms = expand::model_terms(&found.q.terms, &reply.concepts);
        if terms.len() == found.q.terms.len() {
            messages::verbose("model: the expansion proposed no new words");
            return Ok(false);
        }
        let mut q = found.q.clone();
        q.terms = terms;
        // A model word in a quarter of the files (`error`, `self`, `data`) or
        // a keyword names no concept, as for learning (`learn::filter`): it
        // would only reshuffle the ranking. Their counts cost one more scan
        // of the corpus (milliseconds, and only when the model is consulted).
        if let Ok(counted) = crate::search::scan_terms(
            self.cx.corpus,
            &q.terms,
            &self.cx.read.quiet(),
            crate::search::Want::Frequencies,
        ) {
            let loaded = counted.stats.loaded;
            let mut general = Vec::new();
            let mut kept = Vec::new();
            for (i, t) in q.terms.iter().enumerate() {
                let df = counted.df.get(i).copied().unwrap_or(0);
                if t.origin == Origin::Model
                    && (crate::learn::filter::too_general(df, loaded)
                        || crate::learn::filter::is_code_keyword(&t.text.to_lowercase()))
                {
                    general.push(t.text.clone());
                } else {
                    kept.push(t.clone());
                }
            }
            if !general.is_empty() {
                messages::verbose(&format!(
                    "model: not searching its words too common to name a concept: {}",
                    general.join(", ")
                ));
            }
            q.terms = kept;
        }
        if q.terms.len() == found.q.terms.len() {
            messages::verbose("model: the expansion proposed no new words");
            return Ok(false);
        }
        messages::verbose(&format!(
            "model: searching its words too: {}",
            q.terms
                .iter()
                .filter(|t| t.origin == Origin::Model)
                .map(|t| t.text.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
        let plan = self.cx.plan;
        let second = natural::rank(
            &mut q,
            self.cx.corpus,
            &self.cx.read.quiet(),
            natural::Limits::of(plan),
            &plan.judge,
        )?;
        report.taught = expand::taught(&reply.concepts, &q, &second.df, second.stats.loaded);
        let sufficient = second
            .judgement
            .as_ref()
            .is_some_and(|j| j.verdict == Verdict::Sufficient);
        if let Some(j) = &second.judgement {
            super::verbose_judgement(j);
        }
        fuse_into(found, second, natural::Limits::of(plan));
        found.q = q;
        Ok(sufficient)
    }

    /// Asks which excerpt lines answer the query (and for the answer or the
    /// signature fields), with follow-up rounds; verified claims replace the
    /// printed lines. A failed call is a warning; the current results stay.
    fn select(&mut self, found: &mut Found, report: &mut Report) -> anyhow::Result<()> {
        let mut request = self.request(found);
        request.budget_tokens = self.budget_left();
        if request.budget_tokens < MIN_SELECTION_TOKENS {
            messages::verbose(&format!(
                "model: no selection: the query's prompt budget ({} estimated tokens) is spent",
                self.cx.plan.prompt_tokens
            ));
            return Ok(());
        }
        let mut reply = match self.ask(&request, report) {
            Some(reply) => reply,
            None => return Ok(()),
        };
        let mut rounds = 0;
        while reply.matches.is_empty()
            && !reply.searches.is_empty()
            && rounds < self.max_iterations
            && self.may_follow_up()
        {
            rounds += 1;
            let more = self.follow_ups(&reply.searches);
            messages::verbose(&format!(
                "model: follow-up round {rounds}: {} search(es), {} excerpt(s)",
                reply.searches.len(),
                more.len()
            ));
            if self.per_query() {
                // The model saw the first excerpts and claimed nothing in
                // them: what is left of the budget goes to the new ones.
                request.excerpts = more;
                request.budget_tokens = self.budget_left();
            } else {
                request.excerpts.extend(more);
            }
            reply = match self.ask(&request, report) {
                Some(next) => next,
                None => return Ok(()),
            };
        }
        if let Some(spec) = self.cx.spec {
            reply = match self.signature_fields(spec, &request, reply, report) {
                Some(reply) => reply,
                None => return Ok(()),
            };
        }
        self.accept(found, &reply, report);
        Ok(())
    }

    /// One selection call; `None` after a failure (warned).
    fn ask(&mut self, request: &SelectionRequest, report: &mut Report) -> Option<Reply> {
        self.sent_estimate += llm::prompt::selection(request).stats.tokens;
        let spinner = Spinner::start("asking the model");
        let reply = self.selection.select(request);
        spinner.finish();
        match reply {
            Ok(reply) => Some(reply),
            Err(LlmError::Truncated {
                salvaged: Some(partial),
            }) if !partial.matches.is_empty() => {
                messages::warn("the model's reply was cut off; using its complete claims");
                Some(*partial)
            }
            Err(err) => {
                warn_failed(&err, report);
                None
            }
        }
    }

    /// The first selection request (see [`selection_request`]).
    fn request(&self, found: &Found) -> SelectionRequest {
        selection_request(self.cx, found, self.max_iterations)
    }

    /// Excerpts for the model's follow-up searches.
    fn follow_ups(&self, searches: &[Search]) -> Vec<Excerpt> {
        let mut out = Vec::new();
        for search in searches {
            match search {
                Search::Pattern(pattern) => out.extend(self.pattern_excerpts(pattern)),
                Search::Range { path, start, end } => {
                    out.extend(self.range_excerpt(path, *start, *end));
                }
            }
        }
        out
    }

    fn pattern_excerpts(&self, pattern: &str) -> Vec<Excerpt> {
        let read = self.cx.read.quiet();
        let searched = if query::looks_like_regex(pattern) {
            exact::regex(pattern, self.cx.corpus, &read)
        } else {
            exact::literal(pattern, self.cx.corpus, &read)
        };
        let Ok(searched) = searched else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for (h, lines) in searched.selected.iter().take(FOLLOW_UP_FILES) {
            let Some(doc) = rank::load_disclosed(&searched.haystacks[*h], self.cx.read) else {
                continue;
            };
            let focus: Vec<usize> = lines.iter().copied().take(FOLLOW_UP_LINES).collect();
            out.extend(excerpts::excerpts_for(&doc, &focus));
        }
        out
    }

    fn range_excerpt(&self, path: &str, start: i64, end: i64) -> Option<Excerpt> {
        let walked = self.walked();
        let h = walked.iter().find(|h| h.key == path)?;
        let doc = rank::load_disclosed(h, self.cx.read)?;
        let count = doc.line_count();
        let start = usize::try_from(start).ok()?.clamp(1, count);
        let end = usize::try_from(end).ok()?.clamp(start, count);
        let end = end.min(start + excerpts::MAX_LINES_PER_FILE - 1);
        let lines: Vec<String> = doc
            .lines()
            .skip(start - 1)
            .take(end - start + 1)
            .map(|l| String::from_utf8_lossy(l).into_owned())
            .collect();
        Some(Excerpt {
            path: doc.key,
            first_line: start,
            lines,
        })
    }

    /// The signature fields of a reply, validated; asks once more with the
    /// validation error. `None` when the re-ask failed (reported).
    fn signature_fields(
        &mut self,
        spec: &Spec,
        request: &SelectionRequest,
        reply: Reply,
        report: &mut Report,
    ) -> Option<Reply> {
        match signature::validate(spec, &reply_object(&reply)) {
            Ok(fields) => {
                report.fields = Some(fields);
                Some(reply)
            }
            Err(err) => {
                messages::verbose(&format!("model: {err}; asking again"));
                let mut again = request.clone();
                let hint = format!("Your previous reply was rejected: {err}. Reply again with every field, each of its declared type.");
                again.instructions = Some(match &request.instructions {
                    Some(first) => format!("{first}\n{hint}"),
                    None => hint,
                });
                let second = self.ask(&again, report)?;
                match signature::validate(spec, &reply_object(&second)) {
                    Ok(fields) => {
                        report.fields = Some(fields);
                        Some(second)
                    }
                    Err(err) => {
                        report.signature_error = Some(err.to_string());
                        None
                    }
                }
            }
        }
    }

    /// Verifies the reply's claims against the walked files; they become the
    /// printed lines, in path order, as rlmgrep prints them.
    fn accept(&self, found: &mut Found, reply: &Reply, report: &mut Report) {
        let walked = self.walked();
        let index: HashMap<&str, usize> = walked
            .iter()
            .enumerate()
            .map(|(i, h)| (h.key.as_str(), i))
            .collect();
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
                .and_then(|&i| rank::load_quiet(&walked[i], self.cx.read))
            {
                docs.insert(key.to_string(), doc);
            }
        }
        let mut verified = verify::verify(&reply.matches, &docs);
        // `--rlm` (llm = always) prints what the model said, as rlmgrep does;
        // kgrep's own fallback does not print a line that says nothing
        // (blank, `});`, a comment or import without the query's words) as
        // an answer, nor lets it vote in the fusion.
        let holds_query_word = |key: &str, n: usize| {
            found.search.ranked.iter().any(|f| {
                found
                    .search
                    .haystacks
                    .get(f.haystack)
                    .is_some_and(|h| h.key == key)
                    && f.lines.iter().any(|l| l.line == n && l.slots != 0)
            })
        };
        let mute = if self.cx.plan.llm == crate::cli::LlmPolicy::Always {
            verify::Mute::default()
        } else {
            verify::drop_mute(&mut verified, &docs, &holds_query_word)
        };
        let not_locating = verify::not_locating(&verified, &docs, &holds_query_word);
        if !not_locating.is_empty() {
            messages::verbose(&format!(
                "model: no vote in the ranking for {} (its lines hold none of the query's words and define nothing)",
                not_locating.join(", ")
            ));
        }
        if mute.blank > 0 {
            messages::verbose(&format!(
                "model: {} claimed line(s) blank, not printed",
                mute.blank
            ));
        }
        if mute.empty > 0 {
            messages::verbose(&format!(
                "model: {} claimed line(s) say nothing (punctuation, keywords, or a comment or import without the query's words), not printed",
                mute.empty
            ));
        }
        report.dropped = verified.dropped;
        report.answered = true;
        report.answer = reply.answer.as_ref().map(|a| mark_citations(a, &docs));
        let selected: Selection = verified
            .files
            .into_iter()
            .filter_map(|(key, lines)| index.get(key.as_str()).map(|&i| (i, lines)))
            .collect();
        messages::verbose(&format!(
            "model: {} claim(s), {} verified, {} dropped",
            reply.matches.len(),
            selected.iter().map(|(_, l)| l.len()).sum::<usize>(),
            verified.dropped
        ));
        let rlm = self.cx.plan.llm == crate::cli::LlmPolicy::Always;
        if selected.is_empty() && (verified.dropped + mute.total() > 0 || !rlm) {
            // Nothing the model claimed is a non-blank line of a searched
            // file: it is not to be trusted over the offline ranking. In
            // kgrep's own fallback, a reply that claims nothing leaves the
            // offline results too (`--rlm` keeps rlmgrep's rule: print what
            // the model said, even nothing).
            report.kept_offline = true;
            report.note = Some(if verified.dropped > 0 {
                "no claim of the model was verified".to_string()
            } else if mute.total() > 0 {
                "the model claimed only lines that say nothing".to_string()
            } else {
                "the model claimed no line".to_string()
            });
            if !rlm {
                report.answer_lesson = self.settled_lesson(found);
            }
            return;
        }
        let model_order = claimed_order(&reply.matches, &selected, &walked);
        let places: Vec<&str> = model_order
            .iter()
            .filter_map(|&h| walked.get(h).map(|w| w.key.as_str()))
            .collect();
        messages::verbose(&format!(
            "model: its files, best first: {}",
            places.join(", ")
        ));
        let offline_agrees = offline_agrees(found, &walked, &model_order);
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
        if rlm {
            found.search.haystacks = walked;
            found.search.selected = selected;
            found.search.scores.clear();
        } else {
            // kgrep's own fallback: the model's places join the offline
            // ranking as one more ranked list; an offline result is never
            // dropped for a weak model's disagreement.
            fuse_claims(
                found,
                &walked,
                (&model_order, &not_locating),
                &selected,
                self.cx.plan.max_lines,
            );
            report.fused = true;
        }
        if !offline_agrees {
            // Only places that locate teach: a line without the query's
            // words that defines nothing is likely a miscounted one.
            let locating: Vec<(String, usize)> = claimed
                .into_iter()
                .filter(|(key, _)| !not_locating.contains(key))
                .collect();
            report.answer_lesson = self.answer_lesson(found, &locating, &docs);
        }
        if report.answer_lesson.is_none() && !rlm {
            report.answer_lesson = self.settled_lesson(found);
        }
    }

    /// The lesson of a consultation that found nothing better: the printed
    /// first file's best printed lines (by score), kept as the query's
    /// settled answer, so the next run of the query (or of one sharing its
    /// words) is answered offline instead of asking the same model the same
    /// thing. The same junk rules as a found answer apply.
    fn settled_lesson(&self, found: &Found) -> Option<crate::learn::answer::AnswerLesson> {
        let (h, printed) = found.search.selected.first()?;
        let haystack = found.search.haystacks.get(*h)?;
        let mut lines: Vec<usize> = found
            .search
            .ranked
            .iter()
            .find(|f| f.haystack == *h)
            .map(|f| f.best_lines(usize::MAX))
            .unwrap_or_default();
        // The printed lines that carry the query, best first: a unit's
        // defining line printed to frame its body is not what answered.
        lines.retain(|n| printed.contains(n));
        if lines.is_empty() {
            lines.clone_from(printed);
        }
        let doc = found.search.document(*h, self.cx.read)?;
        let key = haystack.key.clone();
        let claimed: Vec<(String, usize)> = lines.into_iter().map(|n| (key.clone(), n)).collect();
        let docs = BTreeMap::from([(key, doc)]);
        let mut lesson = self.answer_lesson(found, &claimed, &docs)?;
        lesson.settled = true;
        Some(lesson)
    }

    /// What to learn from the model's verified claims (`(path, line)`, in
    /// the model's order) that are printed: the identifiers on the first
    /// [`ANSWER_LINES`] of them in the model's first file, less those too
    /// common in the corpus. A chosen line that offers none (a comment, an
    /// import, `try:`, a line of local names) stands for the definition
    /// whose body holds it: the model pointed inside that function.
    fn answer_lesson(
        &self,
        found: &Found,
        claimed: &[(String, usize)],
        docs: &BTreeMap<String, Document>,
    ) -> Option<crate::learn::answer::AnswerLesson> {
        use crate::learn::answer;
        let printed = |key: &str, n: usize| {
            found.search.selected.iter().any(|(h, lines)| {
                found.search.haystacks.get(*h).is_some_and(|x| x.key == key) && lines.contains(&n)
            })
        };
        // Only the model's first file: the place it ranked best, not
        // whatever else it listed.
        let mine: Vec<&(String, usize)> =
            claimed.iter().filter(|(key, n)| printed(key, *n)).collect();
        let Some(first) = mine.first().map(|(key, _)| key.clone()) else {
            messages::verbose(
                "learned: not keeping the model's answer: none of its lines is printed",
            );
            return None;
        };
        let doc = docs.get(&first)?;
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
        let not_kept = |why: &str| {
            messages::verbose(&format!("learned: not keeping the model's answer: {why}"));
            None
        };
        if lines.is_empty() {
            return not_kept("its lines in its first file are neither code nor in a definition");
        }
        if answer::identifiers_on(&lines).is_empty() {
            return not_kept("its lines define nothing and hold no compound identifier");
        }
        let ids = answer::answering(&lines, &chosen, &found.q);
        if ids.is_empty() {
            return not_kept(&format!(
                "no identifier on its lines carries the query's words or is defined there ({})",
                answer::identifiers_on(&lines).join(", ")
            ));
        }
        let terms: Vec<query::Term> = ids
            .iter()
            .filter_map(|id| query::identifier_term(id, 1.0, 0))
            .collect();
        if terms.len() != ids.len() {
            return not_kept("an identifier on its lines cannot be searched for");
        }
        let Ok(scan) = crate::search::scan_terms(
            self.cx.corpus,
            &terms,
            &self.cx.read.quiet(),
            crate::search::Want::Frequencies,
        ) else {
            return not_kept("the corpus could not be searched again");
        };
        let kept = answer::drop_general(ids.clone(), &scan.df, scan.stats.loaded);
        if kept.is_empty() {
            return not_kept(&format!("{} are too common in the corpus", ids.join(", ")));
        }
        answer::lesson(&found.q, kept).or_else(|| not_kept("the query has no content word"))
    }

    /// Every file the run could have searched (what claims are checked
    /// against): the run's own listing, or walked once for the whole stage
    /// when the search walked as it went (exact queries).
    fn walked(&self) -> Vec<Haystack> {
        self.walked
            .get_or_init(|| match self.cx.corpus {
                Corpus::List(list) => list.to_vec(),
                Corpus::Listed(listing) => {
                    (0..listing.len()).filter_map(|i| listing.get(i)).collect()
                }
                Corpus::Walk { paths, opts, cwd } => {
                    walk::walk(paths, &opts.quiet(), cwd).haystacks
                }
            })
            .clone()
    }
}

/// Fuses the model's verified places (`model_order`: indexes into `walked`,
/// best first; `verified`: their lines) into `found`'s printed lines
/// (`fallback::fuse`). Files new to `found` are appended to its haystacks,
/// so its ranking keeps indexing them.
fn fuse_claims(
    found: &mut Found,
    walked: &[Haystack],
    (model_order, not_locating): (&[usize], &[String]),
    verified: &Selection,
    max_lines: usize,
) {
    let key_of = |h: usize| found.search.haystacks.get(h).map(|x| x.key.clone());
    let ranked: Vec<String> = found
        .search
        .ranked
        .iter()
        .filter_map(|f| key_of(f.haystack))
        .collect();
    // Each file's printed lines best first, so the cap keeps its best.
    let score_of = |h: usize, n: usize| {
        found
            .search
            .scores
            .get(&(h, n))
            .map_or(f64::NEG_INFINITY, |s| s.total)
    };
    let printed: Vec<(String, Vec<usize>)> = found
        .search
        .selected
        .iter()
        .filter_map(|(h, lines)| {
            let mut lines = lines.clone();
            lines.sort_by(|&a, &b| score::better((score_of(*h, a), a), (score_of(*h, b), b)));
            Some((key_of(*h)?, lines))
        })
        .collect();
    let model: Vec<(String, Vec<usize>)> = model_order
        .iter()
        .filter_map(|h| {
            let lines = verified.iter().find(|(v, _)| v == h)?.1.clone();
            Some((walked.get(*h)?.key.clone(), lines))
        })
        .collect();
    let placed = fallback::fuse::fuse(
        fallback::fuse::FUSION,
        &ranked,
        &printed,
        &model,
        not_locating,
        max_lines,
    );
    let mut index: HashMap<String, usize> = found
        .search
        .haystacks
        .iter()
        .enumerate()
        .map(|(i, h)| (h.key.clone(), i))
        .collect();
    let mut selected: Selection = Vec::new();
    let mut chosen: Vec<(usize, usize)> = Vec::new();
    for p in placed {
        let h = match index.get(&p.key) {
            Some(&h) => h,
            None => {
                let Some(haystack) = walked.iter().find(|w| w.key == p.key) else {
                    continue;
                };
                found.search.haystacks.push(haystack.clone());
                index.insert(p.key.clone(), found.search.haystacks.len() - 1);
                found.search.haystacks.len() - 1
            }
        };
        chosen.extend(p.chosen.iter().map(|&n| (h, n)));
        selected.push((h, p.lines));
    }
    found.search.selected = selected;
    found.chosen = chosen;
}

/// The model's verified lines teach nothing when the offline results were
/// judged sufficient and the model's first file is the offline first file.
fn offline_agrees(found: &Found, walked: &[Haystack], model_order: &[usize]) -> bool {
    let sufficient = found
        .search
        .judgement
        .as_ref()
        .is_some_and(|j| j.verdict == crate::judge::Verdict::Sufficient);
    let offline_top = found
        .search
        .ranked
        .first()
        .and_then(|f| found.search.haystacks.get(f.haystack))
        .map(|h| h.key.as_str());
    let model_top = model_order
        .first()
        .and_then(|&h| walked.get(h))
        .map(|h| h.key.as_str());
    sufficient && offline_top.is_some() && offline_top == model_top
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

/// The first selection request of a run: excerpts of the best files, the
/// answer and the signature fields when asked for. `--dry-run` shows this
/// very request.
fn selection_request(cx: &Context<'_>, found: &Found, max_iterations: u32) -> SelectionRequest {
    let excerpts = excerpts::of_results(
        &found.search.selected,
        &found.search.ranked,
        |h| found.search.disclosed(h, cx.read),
        EXCERPT_FILES,
        FOCUS_LINES,
    );
    let mut request = SelectionRequest::new(&prompt_query(cx, found), excerpts);
    request.budget_tokens = cx.plan.prompt_tokens;
    request.answer = matches!(cx.plan.mode, Mode::Answer | Mode::AnswerOnly);
    request.follow_ups = max_iterations > 0;
    // kgrep's own fallback asks for a ranking of a few places (fused with
    // the offline ranking); `--rlm` asks for every matching line, as
    // rlmgrep does. The answer and signature modes ask for few lines, so the
    // reply has room for the answer and the typed fields.
    let rlm_grep = cx.plan.llm == crate::cli::LlmPolicy::Always && cx.plan.mode == Mode::Grep;
    if !rlm_grep {
        request.ranked_places = cx.plan.llm != crate::cli::LlmPolicy::Always;
        request.max_claims = llm::prompt::MAX_PLACES;
    }
    if found.search.selected.is_empty() {
        request.instructions = Some(
            "The offline search found nothing relevant; if the excerpts do not answer \
             the query, return no matches rather than guessing."
                .into(),
        );
    }
    if let Some(spec) = cx.spec {
        request.fields_schema = Some(signature::schema::json_schema(spec));
    }
    request
}

/// `--dry-run`: the requests this run would send, on stdout (as text, or as
/// `request` messages and the summary with `--json`); nothing is sent.
fn dry_run(
    cx: &Context<'_>,
    found: &Found,
    config: &LlmConfig,
    selection: &Endpoint,
    expand: bool,
) -> anyhow::Result<()> {
    use std::io::Write;
    let mut requests: Vec<(&'static str, Vec<llm::ShownRequest>)> = Vec::new();
    if expand && matches!(found.q.kind, QueryKind::Natural) {
        if let Ok(endpoint) = config.expansion() {
            let request = ExpansionRequest {
                query: prompt_query(cx, found),
                vocabulary: vocabulary(found, cx.read),
            };
            let prompt = llm::prompt::expansion(&request);
            requests.push(("expansion", llm::dry_run::requests(endpoint, &prompt)));
        }
    }
    let iterations = config.max_iterations.unwrap_or(DEFAULT_ITERATIONS);
    let prompt = llm::prompt::selection(&selection_request(cx, found, iterations));
    requests.push(("selection", llm::dry_run::requests(selection, &prompt)));
    if cx.plan.json {
        return super::output::print_json_requests(cx.plan, found, &requests);
    }
    let mut out = String::new();
    let expanding = requests.len() > 1;
    for (stage, shown) in &requests {
        match *stage {
            "expansion" => out.push_str("# 1. expansion: the concepts behind the query\n"),
            _ if expanding => {
                out.push_str("# 2. selection (its excerpts would follow the expansion's search)\n")
            }
            _ => {}
        }
        for request in shown {
            out.push_str(&llm::dry_run::render(request));
        }
    }
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    lock.write_all(out.as_bytes())?;
    lock.flush()?;
    Ok(())
}

fn warn_failed(err: &LlmError, report: &mut Report) {
    let note = format!("model call failed: {err}; showing the offline results");
    messages::warn(&note);
    report.note = Some(note);
    report.failed = true;
}

/// The reply as one JSON object (signature fields are its keys; a field named
/// like a known key is taken from where the parser put it).
fn reply_object(reply: &Reply) -> Map<String, Value> {
    let mut map = reply.extra.clone();
    if let Some(answer) = &reply.answer {
        map.entry("answer")
            .or_insert_with(|| Value::String(answer.clone()));
    }
    if !reply.matches.is_empty() {
        map.entry("matches")
            .or_insert_with(|| serde_json::to_value(&reply.matches).unwrap_or(Value::Null));
    }
    map
}

/// The answer with citations the documents do not back marked.
fn mark_citations(answer: &str, docs: &BTreeMap<String, Document>) -> String {
    crate::answer::mark_unverified(answer, |c| {
        docs.get(c.key())
            .is_some_and(|d| c.lines().all(|n| n >= 1 && n <= d.line_count()))
    })
    .text
}

/// The query as the prompts send it: cut to its share of `prompt_tokens`
/// (`llm::prompt::query_within`), so a pasted log does not make every
/// request as large as itself.
fn prompt_query(cx: &Context<'_>, found: &Found) -> String {
    llm::prompt::query_within(&found.q.raw, cx.plan.prompt_tokens)
        .0
        .to_string()
}

/// Says, once per query, that the model is sent only the start of the query.
fn warn_long_query(cx: &Context<'_>, found: &Found) {
    let (sent, cut) = llm::prompt::query_within(&found.q.raw, cx.plan.prompt_tokens);
    if cut {
        messages::warn(&format!(
            "the query is about {} tokens, more than 1/{} of prompt_tokens ({}): the model \
             is sent its first {} bytes (the offline search used all of it)",
            llm::prompt::estimate_tokens(found.q.raw.trim()),
            llm::prompt::QUERY_SHARE,
            cx.plan.prompt_tokens,
            sent.len()
        ));
    }
}

/// Words of the lines around the best places of the top files, as a model
/// may see them (secret files unread, lines redacted before they are split).
fn vocabulary(found: &Found, read: &ReadOptions) -> Vec<String> {
    expand::vocabulary_near(
        &found.search.ranked,
        |h| found.search.disclosed(h, read),
        &found.q.terms,
        VOCABULARY_FILES,
        FOCUS_LINES,
    )
}

/// Replaces `found`'s ranking with the fusion (reciprocal rank) of it and the
/// ranking with the model's words (`rrf::fuse_ranked`), and selects again.
fn fuse_into(found: &mut Found, second: Searched, limits: natural::Limits) {
    let (haystacks, ranked) = rrf::fuse_ranked(
        (&found.search.haystacks, &found.search.ranked),
        (&second.haystacks, &second.ranked),
    );
    found.search.selected = score::select_per_file(&ranked, limits.max_lines, limits.max_count);
    found.search.scores = crate::report::line_scores(&ranked);
    found.search.haystacks = haystacks;
    found.search.ranked = ranked;
    found.search.judgement = second.judgement;
}
