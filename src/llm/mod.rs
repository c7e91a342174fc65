//! The language-model client layer: who to call ([`provider`], at which URL:
//! [`address`]), what may be
//! sent ([`outbound`], the one rule, over [`redact`]), what to send
//! ([`prompt`]), how ([`client`] over [`wire`]), what came
//! back ([`reply`]), and what would be sent ([`dry_run()`]).
//!
//! Owns every byte kgrep sends to a model and every reply it reads. It does not
//! decide *whether* to call a model (the judge and the pipeline do), does not
//! verify claims (`verify` does), does not print (the caller does, through
//! `messages`), and never reads the process environment itself.
//!
//! # How the pipeline uses it
//!
//! ```no_run
//! use kgrep::llm::settings::ModelSettings;
//! use kgrep::llm::{self, Client, Excerpt, Llm, LlmError, Meter, SelectionRequest};
//!
//! # fn demo(settings: &ModelSettings, excerpts: Vec<Excerpt>, dry_run: bool) {
//! // 1. Resolve once per run; print the warnings (rlmgrep's wording).
//! let config = llm::resolve(settings, |name| std::env::var(name).ok());
//! for warning in &config.warnings {
//!     kgrep::messages::warn(warning);
//! }
//! // 2. No key and no local server: one -v line, then the offline results stand.
//! let endpoint = match config.selection() {
//!     Ok(endpoint) => endpoint.clone(),
//!     Err(offline) => return kgrep::messages::verbose(&offline.to_string()),
//! };
//! // 3. One meter per run, shared by the expansion and selection clients: it
//! //    enforces --max-llm-calls and sums the tokens.
//! let meter = Meter::new(config.max_llm_calls);
//! let client = Client::new(endpoint.clone(), meter.clone());
//! let request = SelectionRequest::new("where is the retry delay computed", excerpts);
//! // 4. --dry-run: print the exact request and send nothing.
//! if dry_run {
//!     let text = llm::dry_run(&endpoint, &llm::prompt::selection(&request));
//!     return print!("{text}");
//! }
//! // 5. Every error means "warn once and keep the offline results"; a truncated
//! //    reply may still carry complete claims worth verifying.
//! match client.select(&request) {
//!     Ok(reply) => { /* verify::verify(&reply.matches, &docs) … */ }
//!     Err(LlmError::Truncated { salvaged: Some(partial) }) => { /* verify partial.matches */ }
//!     Err(err) => kgrep::messages::warn(&format!("model call failed: {err}; showing offline results")),
//! }
//! kgrep::messages::verbose(&format!("{} model calls, {:?}", meter.calls(), meter.usage()));
//! # }
//! ```
//!
//! Expansion is the same with `config.expansion()` (the sub-model, else the main
//! model), an [`ExpansionRequest`] and `client.expand(…)`, whose reply carries
//! `concepts`. Follow-up rounds read `reply.searches` and call `select` again,
//! at most `--max-iterations` times; the meter stops them at `--max-llm-calls`
//! with [`LlmError::CallLimit`]. For `-v` statistics (excerpts sent, redactions,
//! secret files skipped, estimated tokens) build the [`Prompt`] with
//! [`prompt::selection`] and send it with [`Client::complete`].

pub mod address;
pub mod client;
pub mod dry_run;
pub mod outbound;
pub mod prompt;
pub mod provider;
pub mod redact;
pub mod reply;
pub mod settings;
pub mod wire;

use std::fmt;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use thiserror::Error;

pub use client::{Client, ClientOptions};
pub use dry_run::{dry_run, ShownRequest};
pub use prompt::{Excerpt, ExpansionRequest, Prompt, PromptStats, SelectionRequest};
pub use provider::{resolve, ApiKey, Endpoint, KeySource, LlmConfig, Offline, Protocol, Provider};
pub use reply::{parse_reply, Concept, Reply, ReplyError, Search};

/// The two requests the model stage makes (`fallback::consult`), and what
/// they cost so far. [`Client`] implements it over HTTP; the model stage's
/// tests implement it with canned replies.
pub trait Llm {
    /// Concepts, synonyms and identifiers behind a query (`Reply::concepts`).
    fn expand(&self, req: &ExpansionRequest) -> Result<Reply, LlmError>;
    /// The excerpt lines that answer a query (`Reply::matches`, and `answer` or
    /// signature fields when asked for).
    fn select(&self, req: &SelectionRequest) -> Result<Reply, LlmError>;
    /// Calls made (or started) so far ([`Meter::calls`]).
    fn calls(&self) -> u32;
    /// Tokens the servers reported so far ([`Meter::usage`]).
    fn usage(&self) -> Usage;
}

/// Why a model call gave nothing usable. Every variant means "warn and keep the
/// offline results"; none is fatal. Messages never contain an API key.
#[derive(Debug, Error)]
pub enum LlmError {
    /// There is no model to call (no key and no local server, …).
    #[error("{0}")]
    Offline(Offline),
    /// Name resolution or the TCP/TLS connection failed.
    #[error("cannot connect to {url}: {reason}")]
    Connect { url: String, reason: String },
    /// The connect or call timeout fired.
    #[error("{url} did not answer within {}s", after.as_secs_f64())]
    Timeout { url: String, after: Duration },
    /// 401/403: the key is missing, wrong, or not allowed this model.
    #[error("{url} refused the API key (HTTP {status}): {message}")]
    Auth {
        url: String,
        status: u16,
        message: String,
    },
    /// 429, still after the retries (or the server asked to wait too long).
    #[error("rate limited by {url} (HTTP 429){}", retry_hint(*retry_after))]
    RateLimited {
        url: String,
        retry_after: Option<Duration>,
    },
    /// Any other non-2xx status.
    #[error("HTTP {status} from {url}: {message}")]
    Http {
        url: String,
        status: u16,
        message: String,
    },
    /// The reply body exceeded the size limit and was not read further.
    #[error("{url} sent a reply larger than {limit} bytes")]
    TooLarge { url: String, limit: u64 },
    /// Not JSON, the wrong shape, or no text where the protocol puts it.
    #[error("unusable reply: {0}")]
    BadReply(String),
    /// The model hit its token limit mid-reply; complete entries are salvaged.
    #[error("the model's reply was cut off (token limit reached)")]
    Truncated { salvaged: Option<Box<Reply>> },
    /// `--max-llm-calls` calls were already made in this run.
    #[error("the limit of {limit} model calls for this run was reached")]
    CallLimit { limit: u32 },
    /// The query's time for the model ([`Meter::with_deadline`]) ran out
    /// before a call or a retry could start.
    #[error("no time left: the query may spend {}s on the model", limit.as_secs())]
    Deadline { limit: Duration },
}

fn retry_hint(retry_after: Option<Duration>) -> String {
    retry_after.map_or(String::new(), |d| {
        format!("; the server asks to retry after {}s", d.as_secs())
    })
}

/// Tokens used, as the servers reported them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Usage {
    /// OpenAI `prompt_tokens`, Anthropic/Responses `input_tokens`.
    pub prompt_tokens: u64,
    /// OpenAI `completion_tokens`, Anthropic/Responses `output_tokens`.
    pub completion_tokens: u64,
}

/// The run's call budget, time budget and token totals, shared (cheaply
/// cloned) by every client of a run.
#[derive(Clone)]
pub struct Meter(Arc<MeterInner>);

struct MeterInner {
    limit: u32,
    /// When the query's time for the model ends, and how long it was.
    deadline: Option<(Instant, Duration)>,
    calls: AtomicU32,
    prompt_tokens: AtomicU64,
    completion_tokens: AtomicU64,
}

impl Meter {
    /// A meter allowing `limit` calls.
    pub fn new(limit: u32) -> Meter {
        Meter::with_deadline(limit, None)
    }

    /// A meter allowing `limit` calls within `time` from now (`None`: no
    /// deadline): every call, retry and wait of every client sharing it
    /// ends by then.
    pub fn with_deadline(limit: u32, time: Option<Duration>) -> Meter {
        Meter(Arc::new(MeterInner {
            limit,
            deadline: time.map(|t| (Instant::now() + t, t)),
            calls: AtomicU32::new(0),
            prompt_tokens: AtomicU64::new(0),
            completion_tokens: AtomicU64::new(0),
        }))
    }

    /// Time left before the deadline (`None` without one).
    pub fn time_left(&self) -> Option<Duration> {
        self.0
            .deadline
            .map(|(end, _)| end.saturating_duration_since(Instant::now()))
    }

    /// The error for a call or a wait the deadline leaves no time for.
    pub fn deadline_error(&self) -> LlmError {
        LlmError::Deadline {
            limit: self.0.deadline.map_or(Duration::ZERO, |(_, t)| t),
        }
    }

    /// Calls made (or started) so far.
    pub fn calls(&self) -> u32 {
        self.0.calls.load(Ordering::SeqCst)
    }

    /// The call limit.
    pub fn limit(&self) -> u32 {
        self.0.limit
    }

    /// Tokens reported so far.
    pub fn usage(&self) -> Usage {
        Usage {
            prompt_tokens: self.0.prompt_tokens.load(Ordering::SeqCst),
            completion_tokens: self.0.completion_tokens.load(Ordering::SeqCst),
        }
    }

    /// Counts one call, or refuses when the limit is reached.
    pub fn take_call(&self) -> Result<(), LlmError> {
        if self.time_left().is_some_and(|left| left.is_zero()) {
            return Err(self.deadline_error());
        }
        let limit = self.0.limit;
        self.0
            .calls
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < limit).then_some(n + 1)
            })
            .map(|_| ())
            .map_err(|_| LlmError::CallLimit { limit })
    }

    /// Adds a reply's token usage.
    pub fn add_usage(&self, usage: Usage) {
        let inner = &self.0;
        inner
            .prompt_tokens
            .fetch_add(usage.prompt_tokens, Ordering::SeqCst);
        inner
            .completion_tokens
            .fetch_add(usage.completion_tokens, Ordering::SeqCst);
    }
}

impl fmt::Debug for Meter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Meter")
            .field("calls", &self.calls())
            .field("limit", &self.limit())
            .field("usage", &self.usage())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meter_counts_to_its_limit_across_clones() {
        let meter = Meter::new(2);
        let other = meter.clone();
        assert!(meter.take_call().is_ok());
        assert!(other.take_call().is_ok());
        assert!(matches!(
            meter.take_call(),
            Err(LlmError::CallLimit { limit: 2 })
        ));
        assert_eq!(other.calls(), 2);
        other.add_usage(Usage {
            prompt_tokens: 10,
            completion_tokens: 3,
        });
        meter.add_usage(Usage {
            prompt_tokens: 5,
            completion_tokens: 1,
        });
        assert_eq!(
            meter.usage(),
            Usage {
                prompt_tokens: 15,
                completion_tokens: 4
            }
        );
        assert!(matches!(
            Meter::new(0).take_call(),
            Err(LlmError::CallLimit { limit: 0 })
        ));
    }
}
