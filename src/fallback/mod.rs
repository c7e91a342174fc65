//! The LLM fallback: whether to call a model for a run (`decide`), and the
//! model stage itself ([`consult`]: value in, value out, over any
//! `llm::Llm`), with its parts — what becomes of the model's claims
//! (`claims`) and what they teach (`lessons`), excerpts of the results for
//! the prompt (`excerpts`), the corpus vocabulary, model concepts as terms
//! and which of them the corpus confirms (`expand`), reciprocal rank fusion
//! of rankings (`rrf`) and of the model's places with the offline ones
//! (`fuse`). Documents come in through a loader the caller passes, so each
//! helper is testable without a tree.
//!
//! It does not talk HTTP (`llm`), verify one claim (`verify`), write what
//! is learned (`learn`) or print (`render`, `pipeline`).

mod claims;
pub mod consult;
pub mod excerpts;
pub mod expand;
pub mod fuse;
mod lessons;
pub mod rrf;

use crate::cli::{LlmPolicy, Mode};
use crate::judge::Verdict;

/// What the model stage does for a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// No model call; the reason is a `-v` line.
    Skip(&'static str),
    /// Call the model: first for an expansion when `expand`, then (unless the
    /// expansion was enough) for a selection.
    Call { expand: bool },
}

/// Decides from the policy (`llm`, `KGREP_LLM`, `--offline`, `--rlm`), the
/// output mode and the judge's verdict (`None` for literal and regex queries,
/// which are exact and never judged).
pub fn decide(policy: LlmPolicy, mode: &Mode, verdict: Option<Verdict>) -> Decision {
    let needs_words = matches!(
        verdict,
        Some(Verdict::NeedsExpansion | Verdict::Insufficient)
    );
    let wants_model = matches!(
        mode,
        Mode::Answer | Mode::AnswerOnly | Mode::Signature(_) | Mode::SignatureJson(_)
    );
    match policy {
        LlmPolicy::Off => Decision::Skip("the language model is off (llm = off)"),
        LlmPolicy::Always => Decision::Call {
            expand: needs_words,
        },
        LlmPolicy::Auto if wants_model => Decision::Call {
            expand: needs_words,
        },
        LlmPolicy::Auto => match verdict {
            None => Decision::Skip("an exact query needs no model"),
            Some(Verdict::Sufficient) => {
                Decision::Skip("the offline results were judged sufficient")
            }
            Some(_) => Decision::Call {
                expand: needs_words,
            },
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn policy_mode_and_verdict_decide() {
        let grep = Mode::Grep;
        assert!(matches!(
            decide(LlmPolicy::Off, &Mode::Answer, Some(Verdict::Insufficient)),
            Decision::Skip(_)
        ));
        assert!(matches!(
            decide(LlmPolicy::Auto, &grep, Some(Verdict::Sufficient)),
            Decision::Skip(_)
        ));
        assert!(matches!(
            decide(LlmPolicy::Auto, &grep, None),
            Decision::Skip(_)
        ));
        assert_eq!(
            decide(LlmPolicy::Auto, &grep, Some(Verdict::NeedsSynthesis)),
            Decision::Call { expand: false }
        );
        assert_eq!(
            decide(LlmPolicy::Auto, &grep, Some(Verdict::NeedsExpansion)),
            Decision::Call { expand: true }
        );
        assert_eq!(
            decide(LlmPolicy::Always, &grep, Some(Verdict::Sufficient)),
            Decision::Call { expand: false }
        );
        assert_eq!(
            decide(LlmPolicy::Always, &grep, None),
            Decision::Call { expand: false }
        );
        assert_eq!(
            decide(LlmPolicy::Auto, &Mode::Answer, Some(Verdict::Sufficient)),
            Decision::Call { expand: false }
        );
        assert_eq!(
            decide(LlmPolicy::Auto, &Mode::SignatureJson("a: str".into()), None),
            Decision::Call { expand: false }
        );
    }
}
