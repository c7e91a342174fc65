//! The model stage, wired: a settled answer replayed (`learn::settled`), or
//! else whether to consult at all (`fallback::decide`), which model
//! (`llm::resolve`, its warnings said once), then `--dry-run`'s requests or
//! the consultation itself (`fallback::consult`), applied to the run's
//! results in [`apply`].
//!
//! Owns the order of those steps and the clients of a run (one meter, one
//! deadline, a spinner while a call is out). Every decision is a stage's.

use crate::cli::{LlmPolicy, Mode, Plan};
use crate::document::ReadOptions;
use crate::exit::ExitStatus;
use crate::fallback::consult::{self, Consultation, Input, Policy, Wants};
use crate::fallback::{self, Decision};
use crate::learn::settled::{self, Replayed};
use crate::llm::{
    self, Client, ClientOptions, Endpoint, ExpansionRequest, Llm, LlmConfig, LlmError, Meter,
    Reply, SelectionRequest, Usage,
};
use crate::messages;
use crate::progress::Spinner;
use crate::rank::natural;
use crate::render::found::Found;
use crate::render::print as output;
use crate::search::Corpus;
use crate::signature::{self, Spec};

pub(super) use consult::Report;

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

/// Runs the stage. `Ok(None)`: `--dry-run` printed the requests (nothing else
/// is printed). The endpoint resolution and its warnings happen here, once.
pub(super) fn run(cx: &Context<'_>, found: &mut Found) -> anyhow::Result<Option<Report>> {
    let plan = cx.plan;
    // A settled consultation answers before the judge is heard: what it
    // printed is printed again, whatever a lesson it taught now ranks first.
    let replayed = crate::learn::target_path(plan.learn_to, cx.cwd, &plan.dirs)
        .ok()
        .and_then(|path| settled::replay(&settling(plan), &path, &found.q, cx.corpus, cx.cwd));
    if let Some(replayed) = replayed {
        messages::verbose(&format!("model: not consulted: {}", replayed.note));
        return Ok(Some(replay(found, replayed)));
    }
    let verdict = found.search.judgement.as_ref().map(|j| j.verdict);
    let expand = match fallback::decide(plan.llm, &plan.mode, verdict) {
        Decision::Skip(why) => {
            messages::verbose(&format!("model: not consulted: {why}"));
            if plan.dry_run {
                messages::line(&format!("--dry-run: no model request would be sent: {why}"));
            }
            return Ok(Some(Report::not_consulted(why)));
        }
        Decision::Call { expand } => expand,
    };
    let config = llm::resolve(&plan.model, |name| std::env::var(name).ok());
    for warning in &config.warnings {
        messages::warn(warning);
    }
    let selection = match config.selection() {
        Ok(endpoint) => endpoint.clone(),
        Err(offline) => {
            messages::verbose(&format!(
                "model: none configured, running offline: {offline}"
            ));
            if plan.dry_run {
                messages::line(&format!(
                    "--dry-run: no model request would be sent: {offline}"
                ));
            } else if plan.llm == LlmPolicy::Always {
                // The user asked for the model: not finding one is news.
                messages::warn(&format!(
                    "{} asks for a language model, but {offline}",
                    plan.llm_from
                ));
            }
            return Ok(Some(Report::not_consulted(&offline.to_string())));
        }
    };
    let expansion = config.expansion().ok().filter(|_| expand).cloned();
    let input = Input {
        query: &found.q,
        offline: &found.search,
        policy: Policy::of(plan.llm),
        expand: expansion.is_some(),
        wants: match (&plan.mode, cx.spec) {
            (_, Some(spec)) => Wants::Fields(spec),
            (Mode::Answer | Mode::AnswerOnly, None) => Wants::Answer,
            _ => Wants::Lines,
        },
        prompt_tokens: plan.prompt_tokens,
        max_iterations: config.max_iterations.unwrap_or(consult::DEFAULT_ITERATIONS),
        limits: natural::Limits::of(plan),
        thresholds: &plan.judge,
        read: cx.read,
    };
    if let Some(warning) = consult::long_query_warning(&found.q.raw, plan.prompt_tokens) {
        messages::warn(&warning);
    }
    if plan.dry_run {
        dry_run(plan, found, &input, (expansion.as_ref(), &selection))?;
        return Ok(None);
    }
    let models = Models::new(
        &config,
        expansion.unwrap_or_else(|| selection.clone()),
        selection,
    );
    let consultation = consult::consult(&input, &models, cx.corpus)?;
    Ok(Some(apply(found, consultation)))
}

/// What settling needs to know of the run (`learn::settled`).
pub(super) fn settling(plan: &Plan) -> settled::Run {
    settled::Run {
        fallback: plan.llm == LlmPolicy::Auto && !plan.dry_run,
        prints_lines: matches!(plan.mode, Mode::Grep | Mode::Answer | Mode::AnswerOnly),
        wants_answer: matches!(plan.mode, Mode::Answer | Mode::AnswerOnly),
        max_lines: plan.max_lines,
    }
}

/// Prints a settled answer again: its lines (the model's chosen ones
/// marked) become the run's, its answer the model's.
fn replay(found: &mut Found, replayed: Replayed) -> Report {
    let mut selected = Vec::new();
    let mut chosen = Vec::new();
    for (haystack, lines, model_chose) in replayed.files {
        let h = found.search.place(&haystack);
        chosen.extend(model_chose.iter().map(|&n| (h, n)));
        selected.push((h, lines));
    }
    found.search.selected = selected;
    found.chosen = chosen;
    Report {
        answered: true,
        fused: true,
        answer: replayed.answer,
        note: Some(replayed.note),
        ..Report::default()
    }
}

/// Takes a consultation's results into the run's, and says its notes.
fn apply(found: &mut Found, consultation: Consultation) -> Report {
    for note in &consultation.notes {
        messages::say(note);
    }
    found.q = consultation.query;
    found.search = consultation.results;
    found.chosen = consultation.chosen;
    consultation.report
}

/// `--dry-run`: the requests this run would send, on stdout (as text, or as
/// `request` messages and the summary with `--json`); nothing is sent.
fn dry_run(
    plan: &Plan,
    found: &Found,
    input: &Input<'_>,
    (expansion, selection): (Option<&Endpoint>, &Endpoint),
) -> anyhow::Result<()> {
    let prompts = consult::prompts(input);
    let mut requests: Vec<(&'static str, Vec<llm::ShownRequest>)> = Vec::new();
    if let (Some(endpoint), Some(prompt)) = (expansion, &prompts.expansion) {
        requests.push(("expansion", llm::dry_run::requests(endpoint, prompt)));
    }
    requests.push((
        "selection",
        llm::dry_run::requests(selection, &prompts.selection),
    ));
    if plan.json {
        output::print_json_requests(plan, found, &requests)
    } else {
        output::print_requests(&requests)
    }
}

/// The run's two clients (the expansion's may be a smaller model), sharing
/// one meter: `--max-llm-calls` and one deadline for the query's calls.
struct Models {
    expansion: Client,
    selection: Client,
    meter: Meter,
}

impl Models {
    fn new(config: &LlmConfig, expansion: Endpoint, selection: Endpoint) -> Models {
        let meter = Meter::with_deadline(
            config.max_llm_calls,
            Some(
                config
                    .call_timeout
                    .saturating_mul(consult::QUERY_TIME_CALLS),
            ),
        );
        let options = ClientOptions {
            call_timeout: config.call_timeout,
            ..ClientOptions::default()
        };
        Models {
            expansion: Client::with_options(expansion, meter.clone(), options),
            selection: Client::with_options(selection, meter.clone(), options),
            meter,
        }
    }
}

impl Llm for Models {
    fn expand(&self, req: &ExpansionRequest) -> Result<Reply, LlmError> {
        let spinner = Spinner::start("asking the model for the query's concepts");
        let reply = self.expansion.expand(req);
        spinner.finish();
        reply
    }

    fn select(&self, req: &SelectionRequest) -> Result<Reply, LlmError> {
        let spinner = Spinner::start("asking the model");
        let reply = self.selection.select(req);
        spinner.finish();
        reply
    }

    fn calls(&self) -> u32 {
        self.meter.calls()
    }

    fn usage(&self) -> Usage {
        self.meter.usage()
    }
}

/// The signature modes' spec, parsed. A bad spec is rlmgrep's error, after its
/// `Scanned` line (as rlmgrep reports it): exit 2.
pub(super) fn signature_spec(plan: &Plan) -> Result<Option<Spec>, ExitStatus> {
    let (Mode::Signature(spec) | Mode::SignatureJson(spec)) = &plan.mode else {
        return Ok(None);
    };
    signature::parse(spec).map(Some).map_err(|err| {
        messages::line(&err.to_string());
        ExitStatus::Error
    })
}
