//! The model stage: consulting a language model on a query's offline results.
//! An expansion first when query words are missing from the results (its
//! concepts are searched, and the two rankings fused), then a selection over
//! the retrieved excerpts, whose claims, once verified (`claims`), are fused
//! into the offline ranking ([`Policy::Fuse`], kgrep's own fallback) or
//! replace it ([`Policy::Replace`], `--rlm`). kgrep's fallback spends at most
//! [`FALLBACK_CALLS`] calls and one prompt budget (`prompt_tokens`) on a
//! query. Any failure keeps the offline results (improved by a successful
//! expansion) with a one-line warning, and ends the query's model calls.
//!
//! [`consult`] takes plain values (the offline results, the policy decided
//! once) and a model behind [`Llm`], and returns a [`Consultation`]: the
//! results to print, the answer, the fields, what to learn, and the notes to
//! say on stderr. It prints nothing. Does not decide whether to consult
//! (`fallback::decide`), resolve the model or send HTTP (`llm`), replay a
//! settled answer or learn (`learn`), or print (`render`, `pipeline`).

use std::cell::OnceCell;

use serde_json::{Map, Value};

use super::{excerpts, expand, rrf};
use crate::judge::Thresholds;
use crate::llm::{
    self, Excerpt, ExpansionRequest, Llm, LlmError, Prompt, Reply, Search, SelectionRequest, Usage,
};
use crate::messages::{self, Note};
use crate::query::{self, Origin, Query, QueryKind};
use crate::rank::natural::{self, Limits};
use crate::rank::{self, exact, Searched};
use crate::search::Corpus;
use crate::signature::{self, Spec};
use crate::walk::{self, Haystack};

/// Files whose excerpts are offered to the model, best first: the ones
/// ranking keeps read (`rank::READ_AGAIN_FILES`).
pub const EXCERPT_FILES: usize = crate::rank::READ_AGAIN_FILES;
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
/// Follow-up rounds when `--max-iterations` is not set.
pub const DEFAULT_ITERATIONS: u32 = 2;

/// What becomes of the model's verified places, decided once per run from
/// the plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// kgrep's own fallback: the model's places join the offline ranking as
    /// one more ranked list, within one prompt budget and
    /// [`FALLBACK_CALLS`] for the query.
    Fuse,
    /// `--rlm` (`llm = "always"`): the model's lines are printed instead, as
    /// rlmgrep prints them; each request gets the whole budget.
    Replace,
}

impl Policy {
    /// The policy of a run's `llm` setting.
    pub fn of(llm: crate::cli::LlmPolicy) -> Policy {
        if llm == crate::cli::LlmPolicy::Always {
            Policy::Replace
        } else {
            Policy::Fuse
        }
    }
}

/// What the output needs from the model besides its places.
#[derive(Clone, Copy, Debug)]
pub enum Wants<'a> {
    /// Lines only (grep-style output).
    Lines,
    /// A written answer (`--answer`, `--answer-only`).
    Answer,
    /// The typed fields of a signature (`--signature[-json]`).
    Fields(&'a Spec),
}

/// What a consultation starts from: plain values.
pub struct Input<'a> {
    /// The query as the offline search read it.
    pub query: &'a Query,
    /// The offline results.
    pub offline: &'a Searched,
    pub policy: Policy,
    /// Ask for an expansion first (`fallback::decide`; a model for it is
    /// configured).
    pub expand: bool,
    pub wants: Wants<'a>,
    /// The prompt budget, in estimated tokens (`prompt_tokens`).
    pub prompt_tokens: usize,
    /// Follow-up rounds allowed (`--max-iterations`).
    pub max_iterations: u32,
    /// How many lines print (a second search selects as the first did).
    pub limits: Limits,
    pub thresholds: &'a Thresholds,
    pub read: &'a crate::document::ReadOptions,
}

/// What the consultation did, besides the printed lines.
#[derive(Debug, Default)]
pub struct Report {
    /// A model answered a selection: the results now hold its verified claims.
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

impl Report {
    /// The report of a run that consulted no model, and why.
    pub fn not_consulted(why: &str) -> Report {
        Report {
            note: Some(why.to_string()),
            ..Report::default()
        }
    }
}

/// What a consultation came to.
#[derive(Debug)]
pub struct Consultation {
    /// The query as searched: with the model's words when an expansion's
    /// search was fused in.
    pub query: Query,
    /// The results to print: the offline ones, fused with the expansion's
    /// search and the model's verified places, or replaced by the latter.
    pub results: Searched,
    /// The printed lines the model chose, `(haystack, line)`.
    pub chosen: Vec<(usize, usize)>,
    pub report: Report,
    /// What to say on stderr, in order.
    pub notes: Vec<Note>,
}

/// Consults the model on the offline results: an expansion first when
/// `input.expand`, then (unless the expansion made the results sufficient
/// and nothing more is wanted) a selection with its follow-up rounds.
pub fn consult(
    input: &Input<'_>,
    llm: &dyn Llm,
    corpus: Corpus<'_>,
) -> anyhow::Result<Consultation> {
    let mut stage = Stage {
        input,
        llm,
        corpus,
        sent_estimate: 0,
        walked: OnceCell::new(),
        q: input.query.clone(),
        search: input.offline.clone(),
        chosen: Vec::new(),
        report: Report::default(),
        notes: Vec::new(),
    };
    if input.expand {
        let sufficient = stage.expand()?;
        // A server that just failed is not called again for this query:
        // the second call would fail the same way, after as long.
        if stage.report.failed || (sufficient && !stage.must_select()) {
            return Ok(stage.finish());
        }
    }
    stage.select()?;
    Ok(stage.finish())
}

/// The requests a consultation would send first (`--dry-run`): the
/// expansion's when one is asked for, then the first selection.
pub struct Prompts {
    pub expansion: Option<Prompt>,
    pub selection: Prompt,
}

/// The first requests of [`consult`], as prompts; nothing is sent.
pub fn prompts(input: &Input<'_>) -> Prompts {
    let expansion = (input.expand && matches!(input.query.kind, QueryKind::Natural)).then(|| {
        llm::prompt::expansion(&ExpansionRequest {
            query: prompt_query(input, input.query),
            vocabulary: vocabulary(input.query, input.offline, input.read),
        })
    });
    Prompts {
        expansion,
        selection: llm::prompt::selection(&selection_request(input, input.query, input.offline)),
    }
}

/// The warning for a query too long to send whole, once per query.
pub fn long_query_warning(raw: &str, prompt_tokens: usize) -> Option<String> {
    let (sent, cut) = llm::prompt::query_within(raw, prompt_tokens);
    cut.then(|| {
        format!(
            "the query is about {} tokens, more than 1/{} of prompt_tokens ({}): the model \
             is sent its first {} bytes (the offline search used all of it)",
            crate::budget::estimate_tokens(raw.trim()),
            llm::prompt::QUERY_SHARE,
            prompt_tokens,
            sent.len()
        )
    })
}

/// One consultation under way.
pub(super) struct Stage<'a> {
    pub(super) input: &'a Input<'a>,
    llm: &'a dyn Llm,
    pub(super) corpus: Corpus<'a>,
    /// Estimated tokens of the prompts sent so far (for servers that report
    /// no usage, and because the estimate errs high).
    sent_estimate: usize,
    /// The files of the corpus, listed at most once per consultation.
    walked: OnceCell<Vec<Haystack>>,
    /// The query and results as they stand.
    pub(super) q: Query,
    pub(super) search: Searched,
    pub(super) chosen: Vec<(usize, usize)>,
    pub(super) report: Report,
    pub(super) notes: Vec<Note>,
}

impl Stage<'_> {
    pub(super) fn verbose(&mut self, msg: String) {
        self.notes.push(Note::Verbose(msg));
    }

    fn finish(mut self) -> Consultation {
        self.report.calls = self.llm.calls();
        self.report.usage = self.llm.usage();
        let usage = self.report.usage;
        self.verbose(format!(
            "model: {} call(s), {} prompt + {} completion tokens",
            self.report.calls, usage.prompt_tokens, usage.completion_tokens
        ));
        Consultation {
            query: self.q,
            results: self.search,
            chosen: self.chosen,
            report: self.report,
            notes: self.notes,
        }
    }

    /// Estimated prompt tokens the next call may send: under
    /// [`Policy::Fuse`] the budget holds for the query's calls together;
    /// `--rlm` gives each request the whole budget, as rlmgrep does.
    fn budget_left(&self) -> usize {
        match self.input.policy {
            Policy::Replace => self.input.prompt_tokens,
            Policy::Fuse => {
                let reported =
                    usize::try_from(self.llm.usage().prompt_tokens).unwrap_or(usize::MAX);
                self.input
                    .prompt_tokens
                    .saturating_sub(reported.max(self.sent_estimate))
            }
        }
    }

    /// Whether a follow-up round may be sent (`--rlm` follows up as often as
    /// allowed).
    fn may_follow_up(&self) -> bool {
        match self.input.policy {
            Policy::Replace => true,
            Policy::Fuse => {
                self.llm.calls() < FALLBACK_CALLS && self.budget_left() >= MIN_SELECTION_TOKENS
            }
        }
    }

    /// Whether a selection must follow even when an expansion made the results
    /// sufficient: the policy says always, or the mode needs the model's text.
    fn must_select(&self) -> bool {
        self.input.policy == Policy::Replace || !matches!(self.input.wants, Wants::Lines)
    }

    fn failed(&mut self, err: &LlmError) {
        let note = format!("model call failed: {err}; showing the offline results");
        self.notes.push(Note::Warn(note.clone()));
        self.report.note = Some(note);
        self.report.failed = true;
    }

    /// Asks for concepts, searches them, fuses the rankings. Returns whether
    /// the judge now finds the results sufficient. A failed call is a
    /// warning; the offline results stay.
    fn expand(&mut self) -> anyhow::Result<bool> {
        if !matches!(self.q.kind, QueryKind::Natural) {
            return Ok(false);
        }
        let request = ExpansionRequest {
            query: prompt_query(self.input, &self.q),
            vocabulary: vocabulary(&self.q, &self.search, self.input.read),
        };
        self.sent_estimate += llm::prompt::expansion(&request).stats.tokens;
        let reply = match self.llm.expand(&request) {
            Ok(reply) => reply,
            Err(LlmError::Truncated {
                salvaged: Some(partial),
            }) => *partial,
            Err(err) => {
                self.failed(&err);
                return Ok(false);
            }
        };
        let terms = expand::model_terms(&self.q.terms, &reply.concepts);
        if terms.len() == self.q.terms.len() {
            self.verbose("model: the expansion proposed no new words".into());
            return Ok(false);
        }
        let mut q = self.q.clone();
        q.terms = terms;
        // A model word in a quarter of the files (`error`, `self`, `data`) or
        // a keyword names no concept, as for learning (`learn::filter`): it
        // would only reshuffle the ranking. Their counts cost one more scan
        // of the corpus (milliseconds, and only when the model is consulted).
        if let Ok(counted) = crate::search::scan_terms(
            self.corpus,
            &q.terms,
            &self.input.read.quiet(),
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
                self.verbose(format!(
                    "model: not searching its words too common to name a concept: {}",
                    general.join(", ")
                ));
            }
            q.terms = kept;
        }
        if q.terms.len() == self.q.terms.len() {
            self.verbose("model: the expansion proposed no new words".into());
            return Ok(false);
        }
        self.verbose(format!(
            "model: searching its words too: {}",
            q.terms
                .iter()
                .filter(|t| t.origin == Origin::Model)
                .map(|t| t.text.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
        let input = self.input;
        // The search says what it says (`-v`) in its place among the notes.
        let (second, said) = messages::hold(|| {
            natural::rank(
                &mut q,
                self.corpus,
                &input.read.quiet(),
                input.limits,
                input.thresholds,
            )
        });
        self.notes.extend(said);
        let second = second?;
        self.report.taught = expand::taught(&reply.concepts, &q, &second.df, second.stats.loaded);
        let sufficient = second.is_sufficient();
        if let Some(j) = &second.judgement {
            self.verbose(j.summary());
        }
        fuse_into(&mut self.search, second, input.limits);
        self.q = q;
        Ok(sufficient)
    }

    /// Asks which excerpt lines answer the query (and for the answer or the
    /// signature fields), with follow-up rounds; verified claims become the
    /// printed lines (`claims`). A failed call is a warning; the current
    /// results stay.
    fn select(&mut self) -> anyhow::Result<()> {
        let mut request = selection_request(self.input, &self.q, &self.search);
        request.budget_tokens = self.budget_left();
        if request.budget_tokens < MIN_SELECTION_TOKENS {
            self.verbose(format!(
                "model: no selection: the query's prompt budget ({} estimated tokens) is spent",
                self.input.prompt_tokens
            ));
            return Ok(());
        }
        let Some(mut reply) = self.ask(&request) else {
            return Ok(());
        };
        let mut rounds = 0;
        while reply.matches.is_empty()
            && !reply.searches.is_empty()
            && rounds < self.input.max_iterations
            && self.may_follow_up()
        {
            rounds += 1;
            let more = self.follow_ups(&reply.searches);
            self.verbose(format!(
                "model: follow-up round {rounds}: {} search(es), {} excerpt(s)",
                reply.searches.len(),
                more.len()
            ));
            match self.input.policy {
                Policy::Fuse => {
                    // The model saw the first excerpts and claimed nothing in
                    // them: what is left of the budget goes to the new ones.
                    request.excerpts = more;
                    request.budget_tokens = self.budget_left();
                }
                Policy::Replace => request.excerpts.extend(more),
            }
            reply = match self.ask(&request) {
                Some(next) => next,
                None => return Ok(()),
            };
        }
        if let Wants::Fields(spec) = self.input.wants {
            reply = match self.signature_fields(spec, &request, reply) {
                Some(reply) => reply,
                None => return Ok(()),
            };
        }
        self.accept(&reply);
        Ok(())
    }

    /// One selection call; `None` after a failure (warned).
    fn ask(&mut self, request: &SelectionRequest) -> Option<Reply> {
        self.sent_estimate += llm::prompt::selection(request).stats.tokens;
        match self.llm.select(request) {
            Ok(reply) => Some(reply),
            Err(LlmError::Truncated {
                salvaged: Some(partial),
            }) if !partial.matches.is_empty() => {
                self.notes.push(Note::Warn(
                    "the model's reply was cut off; using its complete claims".into(),
                ));
                Some(*partial)
            }
            Err(err) => {
                self.failed(&err);
                None
            }
        }
    }

    /// Excerpts for the model's follow-up searches: the first
    /// [`llm::prompt::MAX_SEARCHES`] of them, as the prompt's schema allows. Each is a
    /// search of the whole tree, and nothing else bounds a reply's list (one
    /// of 2,000 searches took 164 s on a 2,000-file tree).
    fn follow_ups(&mut self, searches: &[Search]) -> Vec<Excerpt> {
        let mut out = Vec::new();
        if searches.len() > llm::prompt::MAX_SEARCHES {
            self.verbose(format!(
                "model: {} follow-up searches asked; the first {} are run",
                searches.len(),
                llm::prompt::MAX_SEARCHES
            ));
        }
        for search in searches.iter().take(llm::prompt::MAX_SEARCHES) {
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
        let read = self.input.read.quiet();
        let q = query::Query::exact(pattern, query::looks_like_regex(pattern));
        let searched = exact::search(&q, self.corpus, &read, false);
        let Ok(searched) = searched else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for (h, lines) in searched.selected.iter().take(FOLLOW_UP_FILES) {
            let Some(doc) = searched.disclosed(*h, self.input.read) else {
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
        let doc = rank::load_disclosed(h, self.input.read)?;
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
    ) -> Option<Reply> {
        match signature::validate(spec, &reply_object(&reply)) {
            Ok(fields) => {
                self.report.fields = Some(fields);
                Some(reply)
            }
            Err(err) => {
                self.verbose(format!("model: {err}; asking again"));
                let mut again = request.clone();
                let hint = format!("Your previous reply was rejected: {err}. Reply again with every field, each of its declared type.");
                again.instructions = Some(match &request.instructions {
                    Some(first) => format!("{first}\n{hint}"),
                    None => hint,
                });
                let second = self.ask(&again)?;
                match signature::validate(spec, &reply_object(&second)) {
                    Ok(fields) => {
                        self.report.fields = Some(fields);
                        Some(second)
                    }
                    Err(err) => {
                        self.report.signature_error = Some(err.to_string());
                        None
                    }
                }
            }
        }
    }

    /// Every file the run could have searched (what claims are checked
    /// against): the run's own listing, or walked once for the whole stage
    /// when the search walked as it went (exact queries).
    pub(super) fn walked(&self) -> Vec<Haystack> {
        self.walked
            .get_or_init(|| match self.corpus {
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

/// The first selection request of a run: excerpts of the best files, the
/// answer and the signature fields when asked for. `--dry-run` shows this
/// very request.
fn selection_request(input: &Input<'_>, q: &Query, search: &Searched) -> SelectionRequest {
    let excerpts = excerpts::of_results(
        &search.selected,
        &search.ranked,
        |h| search.disclosed(h, input.read),
        EXCERPT_FILES,
        FOCUS_LINES,
    );
    let mut request = SelectionRequest::new(&prompt_query(input, q), excerpts);
    request.budget_tokens = input.prompt_tokens;
    request.answer = matches!(input.wants, Wants::Answer);
    request.follow_ups = input.max_iterations > 0;
    // kgrep's own fallback asks for a ranking of a few places (fused with
    // the offline ranking); `--rlm` asks for every matching line, as
    // rlmgrep does. The answer and signature modes ask for few lines, so the
    // reply has room for the answer and the typed fields.
    let rlm_grep = input.policy == Policy::Replace && matches!(input.wants, Wants::Lines);
    if !rlm_grep {
        request.ranked_places = input.policy == Policy::Fuse;
        request.max_claims = llm::prompt::MAX_PLACES;
    }
    if search.selected.is_empty() {
        request.instructions = Some(
            "The offline search found nothing relevant; if the excerpts do not answer \
             the query, return no matches rather than guessing."
                .into(),
        );
    }
    if let Wants::Fields(spec) = input.wants {
        request.fields_schema = Some(signature::schema::json_schema(spec));
    }
    request
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

/// The query as the prompts send it: cut to its share of `prompt_tokens`
/// (`llm::prompt::query_within`), so a pasted log does not make every
/// request as large as itself.
fn prompt_query(input: &Input<'_>, q: &Query) -> String {
    llm::prompt::query_within(&q.raw, input.prompt_tokens)
        .0
        .to_string()
}

/// Words of the lines around the best places of the top files, as a model
/// may see them (secret files unread, lines redacted before they are split).
fn vocabulary(q: &Query, search: &Searched, read: &crate::document::ReadOptions) -> Vec<String> {
    expand::vocabulary_near(
        &search.ranked,
        |h| search.disclosed(h, read),
        &q.terms,
        VOCABULARY_FILES,
        FOCUS_LINES,
    )
}

/// Replaces the ranking with the fusion (reciprocal rank) of it and the
/// ranking with the model's words (`rrf::fuse_ranked`), and selects again:
/// as the first pass does, the wider selection unless the second pass's
/// judge is sure. The offline selection's lines stay, the second's come
/// after them (`fuse::keep_offline`), so a weak model's words cannot push
/// out a runner-up's answer line.
fn fuse_into(search: &mut Searched, second: Searched, limits: Limits) {
    let offline = search.selected_best_first();
    // The printed lines' scores, for those the second search does not score.
    let offline_scores: Vec<((String, usize), crate::score::LineScore)> = search
        .selected
        .iter()
        .flat_map(|(h, lines)| lines.iter().map(move |&n| (*h, n)))
        .filter_map(|(h, n)| {
            let score = search.scores.get(&(h, n))?.clone();
            Some(((search.haystacks.get(h)?.key.clone(), n), score))
        })
        .collect();
    let (haystacks, ranked) = rrf::fuse_ranked(
        (&search.haystacks, &search.ranked),
        (&second.haystacks, &second.ranked),
    );
    search.selected = if second.is_sufficient() {
        crate::score::select_per_file(&ranked, limits.max_lines, limits.max_count)
    } else {
        crate::score::select_unsure(&ranked, limits.max_lines, limits.max_count)
    };
    search.scores = crate::report::line_scores(&ranked);
    search.haystacks = haystacks;
    search.ranked = ranked;
    let kept = super::fuse::keep_offline(
        &search.ranked_keys(),
        &offline,
        &search.selected_best_first(),
        limits.max_lines,
    );
    let index = |key: &str| search.haystacks.iter().position(|h| h.key == key);
    let selected = kept
        .into_iter()
        .filter_map(|(key, mut lines)| {
            lines.sort_unstable();
            Some((index(&key)?, lines))
        })
        .collect();
    // An offline line the second search did not score keeps its own.
    for ((key, n), score) in offline_scores {
        if let Some(h) = index(&key) {
            search.scores.entry((h, n)).or_insert(score);
        }
    }
    search.selected = selected;
    search.judgement = second.judgement;
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use std::cell::{Cell, RefCell};
    use std::collections::VecDeque;

    use serde_json::json;

    use super::*;
    use crate::document::ReadOptions;
    use crate::walk::Source;

    /// A model with canned replies, given in order; a call with no reply
    /// left fails as a garbled reply would.
    #[derive(Default)]
    struct Canned {
        expansions: RefCell<VecDeque<Result<Reply, LlmError>>>,
        selections: RefCell<VecDeque<Result<Reply, LlmError>>>,
        calls: Cell<u32>,
        asked: RefCell<Vec<SelectionRequest>>,
    }

    impl Canned {
        fn expands(self, reply: Result<Reply, LlmError>) -> Canned {
            self.expansions.borrow_mut().push_back(reply);
            self
        }

        fn selects(self, reply: Result<Reply, LlmError>) -> Canned {
            self.selections.borrow_mut().push_back(reply);
            self
        }
    }

    fn next(replies: &RefCell<VecDeque<Result<Reply, LlmError>>>) -> Result<Reply, LlmError> {
        replies
            .borrow_mut()
            .pop_front()
            .unwrap_or_else(|| Err(LlmError::BadReply("no canned reply left".into())))
    }

    impl Llm for Canned {
        fn expand(&self, _: &ExpansionRequest) -> Result<Reply, LlmError> {
            self.calls.set(self.calls.get() + 1);
            next(&self.expansions)
        }

        fn select(&self, req: &SelectionRequest) -> Result<Reply, LlmError> {
            self.calls.set(self.calls.get() + 1);
            self.asked.borrow_mut().push(req.clone());
            next(&self.selections)
        }

        fn calls(&self) -> u32 {
            self.calls.get()
        }

        fn usage(&self) -> Usage {
            Usage::default()
        }
    }

    /// A reply as a server would send it.
    fn reply(body: serde_json::Value) -> Result<Reply, LlmError> {
        Ok(llm::parse_reply(&body.to_string()).unwrap())
    }

    fn claims(claims: &[(&str, usize)]) -> Result<Reply, LlmError> {
        let matches: Vec<_> = claims
            .iter()
            .map(|(path, line)| json!({"path": path, "line": line}))
            .collect();
        reply(json!({ "matches": matches }))
    }

    fn file(key: &str, text: &str) -> Haystack {
        Haystack {
            key: key.into(),
            source: Source::Stdin(text.as_bytes().to_vec()),
        }
    }

    /// The corpus of the model-stage CLI tests (`fixtures/model-project`).
    fn corpus() -> Vec<Haystack> {
        vec![
            file(
                "src/cache.py",
                include_str!("../../fixtures/model-project/src/cache.py"),
            ),
            file(
                "src/client.py",
                include_str!("../../fixtures/model-project/src/client.py"),
            ),
            file(
                "src/retry.py",
                include_str!("../../fixtures/model-project/src/retry.py"),
            ),
            file(
                "src/settings.py",
                include_str!("../../fixtures/model-project/src/settings.py"),
            ),
        ]
    }

    /// Answered offline: every word found.
    const SUFFICIENT: &str = "retry backoff";
    /// Not answered offline: the code says "evict", the query does not.
    const NEEDS_MODEL: &str = "where are stale entries thrown away";

    const LIMITS: Limits = Limits {
        max_lines: 20,
        max_count: None,
        learned: false,
    };

    /// A query's offline results over [`corpus`].
    struct Offline {
        files: Vec<Haystack>,
        read: ReadOptions,
        thresholds: Thresholds,
        query: Query,
        results: Searched,
    }

    fn offline(raw: &str) -> Offline {
        let files = corpus();
        let read = ReadOptions::for_run(false);
        let thresholds = Thresholds::default();
        let mut query = query::analyze(raw);
        let results =
            natural::rank(&mut query, Corpus::List(&files), &read, LIMITS, &thresholds).unwrap();
        Offline {
            files,
            read,
            thresholds,
            query,
            results,
        }
    }

    impl Offline {
        fn input(&self, policy: Policy) -> Input<'_> {
            Input {
                query: &self.query,
                offline: &self.results,
                policy,
                expand: false,
                wants: Wants::Lines,
                prompt_tokens: 20_000,
                max_iterations: DEFAULT_ITERATIONS,
                limits: LIMITS,
                thresholds: &self.thresholds,
                read: &self.read,
            }
        }

        fn consult(&self, input: &Input<'_>, llm: &Canned) -> Consultation {
            consult(input, llm, Corpus::List(&self.files)).unwrap()
        }
    }

    /// The printed files and their lines, in print order.
    fn printed(results: &Searched) -> Vec<(String, Vec<usize>)> {
        results
            .selected
            .iter()
            .map(|(h, lines)| (results.haystacks[*h].key.clone(), lines.clone()))
            .collect()
    }

    fn chosen(c: &Consultation) -> Vec<(String, usize)> {
        c.chosen
            .iter()
            .map(|&(h, n)| (c.results.haystacks[h].key.clone(), n))
            .collect()
    }

    fn said(c: &Consultation, start: &str) -> bool {
        c.notes.iter().any(|n| match n {
            Note::Verbose(s) | Note::Warn(s) | Note::Line(s) => s.starts_with(start),
        })
    }

    #[test]
    fn fusing_adds_the_models_places_and_keeps_the_offline_ones() {
        let run = offline(SUFFICIENT);
        let before = printed(&run.results);
        assert!(before.iter().any(|(key, _)| key == "src/retry.py"));
        let llm = Canned::default().selects(claims(&[("src/cache.py", 6)]));
        let c = run.consult(&run.input(Policy::Fuse), &llm);
        let after = printed(&c.results);
        assert!(c.report.answered && c.report.fused && !c.report.kept_offline);
        assert_eq!(chosen(&c), vec![("src/cache.py".to_string(), 6)]);
        assert!(
            after.contains(&("src/cache.py".to_string(), vec![6])),
            "{after:?}"
        );
        // An offline file is never dropped for the model's disagreement.
        assert!(
            after.iter().any(|(key, _)| key == "src/retry.py"),
            "{after:?}"
        );
        // The offline ranking still indexes its files.
        assert_eq!(
            &c.results.haystacks[..run.results.haystacks.len()],
            &run.results.haystacks[..]
        );
        assert_eq!(c.report.calls, 1);
        // kgrep's own fallback asks for a few ranked places.
        assert!(llm.asked.borrow()[0].ranked_places);
    }

    #[test]
    fn replacing_prints_only_the_models_lines() {
        let run = offline(SUFFICIENT);
        let llm = Canned::default().selects(claims(&[("src/cache.py", 6), ("src/cache.py", 8)]));
        let c = run.consult(&run.input(Policy::Replace), &llm);
        assert_eq!(
            printed(&c.results),
            vec![("src/cache.py".to_string(), vec![6, 8])]
        );
        assert!(c.report.answered && !c.report.fused);
        assert!(c.results.scores.is_empty() && c.chosen.is_empty());
        // `--rlm` in grep mode asks for every matching line, as rlmgrep does.
        assert!(!llm.asked.borrow()[0].ranked_places);
    }

    #[test]
    fn an_empty_reply_keeps_the_offline_results_unless_replacing() {
        let run = offline(SUFFICIENT);
        let empty = || Canned::default().selects(reply(json!({"matches": []})));
        let c = run.consult(&run.input(Policy::Fuse), &empty());
        assert!(c.report.kept_offline && !c.report.failed);
        assert_eq!(c.report.note.as_deref(), Some("the model claimed no line"));
        assert_eq!(printed(&c.results), printed(&run.results));
        // rlmgrep's rule: print what the model said, even nothing.
        let c = run.consult(&run.input(Policy::Replace), &empty());
        assert!(!c.report.kept_offline && c.report.answered);
        assert!(c.results.selected.is_empty());
    }

    #[test]
    fn a_garbage_reply_is_a_warning_and_the_offline_results_stand() {
        let run = offline(SUFFICIENT);
        for policy in [Policy::Fuse, Policy::Replace] {
            let llm = Canned::default().selects(Err(LlmError::BadReply("not JSON".into())));
            let c = run.consult(&run.input(policy), &llm);
            assert!(c.report.failed && !c.report.answered);
            let warning =
                "model call failed: unusable reply: not JSON; showing the offline results";
            assert_eq!(c.report.note.as_deref(), Some(warning));
            assert!(c.notes.contains(&Note::Warn(warning.into())));
            assert_eq!(printed(&c.results), printed(&run.results));
            assert!(c.chosen.is_empty() && c.report.answer_lesson.is_none());
        }
    }

    #[test]
    fn unverified_claims_are_dropped_and_leave_the_offline_results() {
        let run = offline(SUFFICIENT);
        let llm = Canned::default().selects(claims(&[
            ("src/nowhere.py", 1),
            ("src/cache.py", 99),
            ("/etc/passwd", 1),
        ]));
        let c = run.consult(&run.input(Policy::Fuse), &llm);
        assert_eq!(c.report.dropped, 3);
        assert!(c.report.kept_offline);
        assert_eq!(
            c.report.note.as_deref(),
            Some("no claim of the model was verified")
        );
        assert_eq!(printed(&c.results), printed(&run.results));
    }

    #[test]
    fn a_blank_claimed_line_is_not_printed_when_fusing() {
        let run = offline(SUFFICIENT);
        let llm = Canned::default().selects(claims(&[("src/cache.py", 5), ("src/cache.py", 6)]));
        let c = run.consult(&run.input(Policy::Fuse), &llm);
        assert_eq!(chosen(&c), vec![("src/cache.py".to_string(), 6)]);
        assert!(said(&c, "model: 1 claimed line(s) blank, not printed"));
    }

    #[test]
    fn the_models_verified_choice_is_a_lesson() {
        let run = offline(NEEDS_MODEL);
        let llm = Canned::default().selects(claims(&[("src/cache.py", 6), ("src/cache.py", 8)]));
        let c = run.consult(&run.input(Policy::Fuse), &llm);
        let lesson = c.report.answer_lesson.expect("a lesson");
        assert_eq!(lesson.identifiers, vec!["evict".to_string()]);
        assert!(!lesson.settled);
    }

    #[test]
    fn a_reply_that_changes_nothing_settles_the_printed_answer() {
        let run = offline(SUFFICIENT);
        let llm = Canned::default().selects(reply(json!({"matches": []})));
        let c = run.consult(&run.input(Policy::Fuse), &llm);
        let lesson = c.report.answer_lesson.expect("a settled lesson");
        assert!(lesson.settled);
        // `--rlm` asks every time: nothing settles.
        let llm = Canned::default().selects(claims(&[("src/nowhere.py", 1)]));
        let c = run.consult(&run.input(Policy::Replace), &llm);
        assert!(c.report.kept_offline && c.report.answer_lesson.is_none());
    }

    #[test]
    fn an_expansion_is_searched_and_fused_before_the_selection() {
        let run = offline(NEEDS_MODEL);
        let llm = Canned::default()
            .expands(reply(json!({"concepts": [{"name": "cache eviction",
                "synonyms": ["evict", "oldest", "expunge"], "related": ["cache"]}]})))
            .selects(claims(&[("src/cache.py", 6)]));
        let input = Input {
            expand: true,
            ..run.input(Policy::Fuse)
        };
        let c = run.consult(&input, &llm);
        assert!(c
            .query
            .terms
            .iter()
            .any(|t| t.origin == Origin::Model && t.text == "oldest"));
        assert!(!c.report.taught.is_empty());
        assert!(said(
            &c,
            "model: searching its words too: cache, eviction, oldest, expunge"
        ));
        assert!(printed(&c.results)
            .iter()
            .any(|(key, _)| key == "src/cache.py"));
        assert_eq!(c.report.calls, 2);
        // The selection's excerpts come from the fused results.
        assert!(llm.asked.borrow()[0]
            .excerpts
            .iter()
            .any(|e| e.path == "src/cache.py"));
    }

    #[test]
    fn the_models_words_do_not_push_out_an_offline_line() {
        let b = "def read_config(path):\n    text = open(path).read()\n    value = parse_value(text)\n    config = {}\n    config[\"value\"] = value\n    return config\n\n\ndef parse_value(text):\n    # parse one config value\n    return text.strip()\n";
        let a = "def build_lexer(config, value):\n    lexer = Lexer(config.grammar, value)\n    scanner = Scanner(lexer, config.value)\n    tokenizer = Tokenizer(scanner, config.value)\n    grammar = load_grammar(config, value)\n    tokenizer.grammar = grammar\n    lexer.scanner = scanner\n    return tokenizer\n\n\ndef reset_scanner(scanner, lexer):\n    scanner.lexer = lexer\n    scanner.tokenizer = None\n    return scanner\n";
        let c = "DEFAULT_CONFIG = {}\n\n\ndef default_value(config):\n    # the default config value\n    return config.get(\"value\")\n";
        let files = vec![file("a.py", a), file("b.py", b), file("c.py", c)];
        let read = ReadOptions::for_run(false);
        let search = |raw: &str| {
            let mut q = query::analyze(raw);
            natural::rank(
                &mut q,
                Corpus::List(&files),
                &read,
                LIMITS,
                &Thresholds::default(),
            )
            .unwrap()
        };
        let mut results = search("config value");
        results.selected = crate::score::select_unsure(&results.ranked, 8, None);
        let before = printed(&results);
        // The second search, with the model's words, favours a.py, and its
        // judge is unsure: on its own it prints a runner-up's first line.
        let mut second = search("config value tokenizer scanner lexer grammar");
        second.judgement = None;
        let limits = Limits {
            max_lines: 8,
            ..LIMITS
        };
        fuse_into(&mut results, second, limits);
        let after = printed(&results);
        // Every printed line keeps a score (`--json`, `--explain`).
        for (h, lines) in &results.selected {
            for n in lines {
                assert!(results.scores.contains_key(&(*h, *n)), "{h}:{n}");
            }
        }
        assert!(after.iter().any(|(k, _)| k == "a.py"), "{after:?}");
        for (key, lines) in &before {
            let now = after.iter().find(|(k, _)| k == key).map(|(_, l)| l);
            for n in lines {
                assert!(
                    now.is_some_and(|l| l.contains(n)),
                    "{key}:{n} was printed offline, not after: {before:?} -> {after:?}"
                );
            }
        }
    }

    #[test]
    fn a_failed_expansion_ends_the_consultation() {
        let run = offline(NEEDS_MODEL);
        let llm = Canned::default()
            .expands(Err(LlmError::BadReply("not JSON".into())))
            .selects(claims(&[("src/cache.py", 6)]));
        let input = Input {
            expand: true,
            ..run.input(Policy::Fuse)
        };
        let c = run.consult(&input, &llm);
        assert!(c.report.failed);
        assert!(
            llm.asked.borrow().is_empty(),
            "no selection after a failure"
        );
        assert_eq!(c.query.terms, run.query.terms);
        assert_eq!(printed(&c.results), printed(&run.results));
    }

    #[test]
    fn a_cut_off_reply_still_gives_its_complete_claims() {
        let run = offline(SUFFICIENT);
        let partial = llm::parse_reply(r#"{"matches": [{"path": "src/cache.py", "line": 6}]}"#);
        let llm = Canned::default().selects(Err(LlmError::Truncated {
            salvaged: Some(Box::new(partial.unwrap())),
        }));
        let c = run.consult(&run.input(Policy::Replace), &llm);
        assert_eq!(
            printed(&c.results),
            vec![("src/cache.py".to_string(), vec![6])]
        );
        assert!(c.notes.contains(&Note::Warn(
            "the model's reply was cut off; using its complete claims".into()
        )));
    }

    #[test]
    fn kgreps_fallback_spends_at_most_its_calls_on_follow_ups() {
        let run = offline(SUFFICIENT);
        let follow_up = || reply(json!({"matches": [], "searches": ["retry_backoff"]}));
        let fused = Canned::default()
            .selects(follow_up())
            .selects(follow_up())
            .selects(follow_up());
        let c = run.consult(&run.input(Policy::Fuse), &fused);
        assert_eq!(c.report.calls, FALLBACK_CALLS);
        // `--rlm` follows up as often as `--max-iterations` allows.
        let rlm = Canned::default()
            .selects(follow_up())
            .selects(follow_up())
            .selects(follow_up());
        let c = run.consult(&run.input(Policy::Replace), &rlm);
        assert_eq!(c.report.calls, 1 + DEFAULT_ITERATIONS);
    }

    #[test]
    fn at_most_the_schemas_searches_are_run_from_one_reply() {
        let run = offline(SUFFICIENT);
        let many: Vec<String> = (0..40).map(|i| format!("retry_{i}")).collect();
        let rlm = Canned::default()
            .selects(reply(json!({"matches": [], "searches": many})))
            .selects(reply(json!({"matches": []})));
        let c = run.consult(&run.input(Policy::Replace), &rlm);
        let said = |text: &str| c.notes.contains(&Note::Verbose(text.into()));
        assert!(
            said("model: 40 follow-up searches asked; the first 5 are run"),
            "{:?}",
            c.notes
        );
    }

    #[test]
    fn dry_run_prompts_show_the_expansion_only_when_asked() {
        let run = offline(NEEDS_MODEL);
        assert!(prompts(&run.input(Policy::Fuse)).expansion.is_none());
        let input = Input {
            expand: true,
            ..run.input(Policy::Fuse)
        };
        assert!(prompts(&input).expansion.is_some());
    }
}
