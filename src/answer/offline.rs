//! The model modes without a model.
//!
//! `--answer` still answers: the best lines kgrep found, each with its
//! location, under a label that says plainly no model wrote it — then the
//! matches as usual, and one note on stderr saying how to get a written
//! answer. The signature modes cannot: typed fields need a model, so they exit
//! 2 with [`model_required`], which says how to configure one.
//!
//! Plain functions of plain data; the caller picks the best lines (in rank order)
//! and prints.

use crate::python::text::strip;

/// Lines quoted in an extractive answer. It is a pointer to the best places,
/// not a second copy of the matches printed below it.
pub const EXTRACTIVE_MAX_LINES: usize = 5;
/// Characters of one quoted line, after trimming (longer lines end in `…`).
pub const EXTRACTIVE_MAX_CHARS: usize = 160;
/// How to configure a model, for messages.
const MODEL_SETUP: &str = "pass --model (with --api-base for a local server such as \
Ollama or llama.cpp, or --api-key), set model/api_base/api_key in ~/.rlmgrep/config.toml \
or ~/.config/kgrep/config.toml, or export OPENAI_API_KEY, ANTHROPIC_API_KEY, \
GEMINI_API_KEY or OPENROUTER_API_KEY";

/// One line kgrep found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BestLine {
    /// The document's key as printed (`src/app.py`, `<stdin>`).
    pub path: String,
    /// 1-based line number.
    pub line: usize,
    /// The line's text.
    pub text: String,
}

/// Why no model wrote the answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoModel {
    /// Nothing configured: no model with a key, no local server.
    NotConfigured,
    /// Switched off: `KGREP_LLM=off`, `llm = "off"` in the config, or `--offline`.
    Disabled,
    /// A model was asked and gave no answer: the call failed (its error is
    /// already on stderr) or the reply held none.
    NoReply,
}

impl NoModel {
    /// The label that opens an extractive answer: it says why no model wrote it.
    pub fn label(self) -> &'static str {
        match self {
            NoModel::NotConfigured => "Extractive answer (no language model configured)",
            NoModel::Disabled => "Extractive answer (language models switched off)",
            NoModel::NoReply => "Extractive answer (the language model gave no answer)",
        }
    }
}

/// The extractive answer to `query` from `best` (in rank order; at most
/// [`EXTRACTIVE_MAX_LINES`] are quoted), labelled with why no model wrote it.
///
/// ```text
/// Extractive answer (no language model configured): the lines that best match "…":
/// - src/app.py:9: def connect(host, port=DEFAULT_PORT):
/// - src/app.py:16: raise ConnectionError("database unreachable")
/// ```
pub fn extractive_answer(query: &str, best: &[BestLine], why: NoModel) -> String {
    let query = strip(query);
    let label = why.label();
    if best.is_empty() {
        return format!("{label}: no line matches \"{query}\".");
    }
    let mut out = format!("{label}: the lines that best match \"{query}\":");
    for best_line in best.iter().take(EXTRACTIVE_MAX_LINES) {
        out.push_str(&format!(
            "\n- {}:{}: {}",
            best_line.path,
            best_line.line,
            shorten(strip(&best_line.text))
        ));
    }
    out
}

/// `text` cut to [`EXTRACTIVE_MAX_CHARS`] characters, with `…` when cut.
fn shorten(text: &str) -> String {
    crate::render::cut::ellipsize(text, EXTRACTIVE_MAX_CHARS)
}

/// The stderr note printed with an extractive answer (one line, without the
/// `kgrep: ` prefix).
/// `None` for [`NoModel::NoReply`]: the failure already said what happened.
pub fn offline_answer_note(why: NoModel) -> Option<String> {
    Some(match why {
        NoModel::NotConfigured => format!(
            "--answer: no language model is configured, so the answer quotes the best lines; \
             for a written answer, {MODEL_SETUP}"
        ),
        NoModel::Disabled => "--answer: language models are switched off (KGREP_LLM=off, \
                              llm = \"off\" or --offline), so the answer quotes the best lines"
            .to_string(),
        NoModel::NoReply => return None,
    })
}

/// The error of `--signature`/`--signature-json` (`flag`) without a model
/// (one line, without the `kgrep: ` prefix; the caller exits 2).
pub fn model_required(flag: &str, why: NoModel) -> String {
    match why {
        NoModel::NoReply => format!("{flag}: the language model gave no usable reply"),
        NoModel::NotConfigured => {
            format!("{flag} needs a language model, and none is configured: {MODEL_SETUP}")
        }
        NoModel::Disabled => format!(
            "{flag} needs a language model, and language models are switched off \
             (KGREP_LLM=off, llm = \"off\" or --offline); run it with KGREP_LLM=auto"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn best_line(path: &str, line: usize, text: &str) -> BestLine {
        BestLine {
            path: path.into(),
            line,
            text: text.into(),
        }
    }

    #[test]
    fn quotes_the_best_lines_with_their_locations() {
        let best = [
            best_line("src/app.py", 9, "def connect(host, port=DEFAULT_PORT):"),
            best_line(
                "src/app.py",
                16,
                "\t    raise ConnectionError(\"database unreachable\")  ",
            ),
        ];
        assert_eq!(
            extractive_answer(
                " where is the database connection handled\n",
                &best,
                NoModel::NotConfigured
            ),
            "Extractive answer (no language model configured): the lines that best match \
             \"where is the database connection handled\":\n\
             - src/app.py:9: def connect(host, port=DEFAULT_PORT):\n\
             - src/app.py:16: raise ConnectionError(\"database unreachable\")"
        );
    }

    #[test]
    fn bounded_in_lines_and_width() {
        let best: Vec<BestLine> = (1..=9)
            .map(|i| best_line("a.rs", i, &"x".repeat(500)))
            .collect();
        let answer = extractive_answer("q", &best, NoModel::NoReply);
        assert_eq!(answer.lines().count(), 1 + EXTRACTIVE_MAX_LINES);
        let last = answer.lines().last().unwrap_or_default();
        assert_eq!(
            last.chars().count(),
            "- a.rs:5: ".len() + EXTRACTIVE_MAX_CHARS
        );
        assert!(last.ends_with("x…"));
    }

    #[test]
    fn says_when_nothing_matched() {
        assert_eq!(
            extractive_answer("quantum flux", &[], NoModel::NotConfigured),
            "Extractive answer (no language model configured): no line matches \"quantum flux\"."
        );
    }

    #[test]
    fn the_label_says_why_no_model_wrote_the_answer() {
        let best = [best_line("a.rs", 1, "fn main() {}")];
        for (why, label) in [
            (NoModel::NotConfigured, "(no language model configured)"),
            (NoModel::Disabled, "(language models switched off)"),
            (NoModel::NoReply, "(the language model gave no answer)"),
        ] {
            let answer = extractive_answer("main", &best, why);
            assert!(
                answer.starts_with(&format!("Extractive answer {label}: ")),
                "{answer}"
            );
        }
        assert!(offline_answer_note(NoModel::NoReply).is_none());
        assert!(offline_answer_note(NoModel::Disabled).is_some());
    }

    #[test]
    fn messages_say_how_to_get_a_model() {
        let note = offline_answer_note(NoModel::NotConfigured).unwrap_or_default();
        let err = model_required("--signature-json", NoModel::NotConfigured);
        for msg in [&note, &err] {
            assert!(!msg.contains('\n'));
            for how in ["--model", "--api-base", "config.toml", "OPENAI_API_KEY"] {
                assert!(msg.contains(how), "{msg} lacks {how}");
            }
        }
        assert!(err.starts_with("--signature-json needs a language model"));
        assert!(model_required("--signature", NoModel::Disabled).contains("KGREP_LLM=off"));
        assert!(offline_answer_note(NoModel::Disabled).is_some_and(|n| n.contains("switched off")));
    }
}
