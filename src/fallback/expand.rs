//! Query expansion by the model: what to show it (the corpus's own words near
//! the partial hits, so it proposes words that exist) and how its concepts
//! become search terms.

use std::collections::HashMap;

use crate::document::Document;
use crate::llm::Concept;
use crate::query::{self, Origin, Query, Term};
use crate::score::RankedFile;

/// Words sent as the corpus's vocabulary.
pub const MAX_VOCABULARY_WORDS: usize = 150;
/// Lines around each partial hit whose words are sampled.
pub const VOCABULARY_WINDOW: usize = 8;
/// Terms taken from one model reply.
pub const MAX_MODEL_TERMS: usize = 24;
/// Weight of a term the model proposed: below the user's own words and below
/// curated thesaurus synonyms, as a learned concept weighs until confirmed.
pub const MODEL_WEIGHT: f32 = query::PROPOSED_SYNONYM_WEIGHT;
/// Words shorter than this are not taken from the model.
const MIN_MODEL_WORD: usize = 3;

/// The vocabulary (`vocabulary`) of the lines around the `best` best lines of
/// the first `files` ranked files. `load` reads a haystack (by index) as a
/// model may see it (`llm::outbound::document`: redacted whole, before this
/// splits its lines into words); a line that held a secret gives no words
/// (`llm::outbound::vocabulary_line`).
pub fn vocabulary_near(
    ranked: &[RankedFile],
    mut load: impl FnMut(usize) -> Option<Document>,
    terms: &[Term],
    files: usize,
    best: usize,
) -> Vec<String> {
    let mut texts: Vec<String> = Vec::new();
    for file in ranked.iter().take(files) {
        let Some(doc) = load(file.haystack) else {
            continue;
        };
        let lines: Vec<&[u8]> = doc.lines().collect();
        for n in file.best_lines(best) {
            let lo = n.saturating_sub(VOCABULARY_WINDOW).max(1);
            let hi = (n + VOCABULARY_WINDOW).min(lines.len());
            for line in lines.iter().take(hi).skip(lo - 1) {
                let line = String::from_utf8_lossy(line);
                if let Some(line) = crate::llm::outbound::vocabulary_line(&line) {
                    texts.push(line.to_string());
                }
            }
        }
    }
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    vocabulary(&refs, terms)
}

/// The concepts whose proposed words matched at least one loaded file (of
/// `files`; `df` per term of `q`), but not so many that they identify
/// nothing, with those words: what the learning loop may keep.
pub fn taught(
    concepts: &[Concept],
    q: &Query,
    df: &[usize],
    files: usize,
) -> Vec<(Concept, Vec<String>)> {
    concepts
        .iter()
        .filter_map(|c| {
            let name = c.name.to_lowercase();
            let matched: Vec<String> = q
                .terms
                .iter()
                .zip(df)
                .filter(|(t, &d)| {
                    d > 0
                        && !crate::learn::filter::too_general(d, files)
                        && t.origin == Origin::Model
                        && t.concept.as_deref() == Some(name.as_str())
                })
                .map(|(t, _)| t.text.clone())
                .collect();
            (!matched.is_empty()).then(|| (c.clone(), matched))
        })
        .collect()
}

/// The most frequent words of `texts` (lines near the partial hits), minus
/// stop words and the query's own terms, most frequent first.
pub fn vocabulary(texts: &[&str], terms: &[Term]) -> Vec<String> {
    let mut counts: HashMap<String, usize> = HashMap::new();
    for text in texts {
        for w in query::words(text) {
            if w.len() < MIN_MODEL_WORD
                || query::is_stop_word(&w)
                || w.chars().all(|c| c.is_ascii_digit())
            {
                continue;
            }
            *counts.entry(w).or_default() += 1;
        }
    }
    let stems: Vec<&str> = terms.iter().map(|t| t.stem.as_str()).collect();
    let mut words: Vec<(String, usize)> = counts
        .into_iter()
        .filter(|(w, _)| !stems.contains(&query::stem(w).as_str()))
        .collect();
    words.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    words
        .into_iter()
        .take(MAX_VOCABULARY_WORDS)
        .map(|(w, _)| w)
        .collect()
}

/// Search terms from the model's concepts, appended to `terms`: each word of
/// each synonym and related term (identifiers split into their words), new by
/// stem, in the slot of the query word its concept names (a fresh slot
/// otherwise), tagged with the concept's name.
pub fn model_terms(terms: &[Term], concepts: &[Concept]) -> Vec<Term> {
    let mut out = terms.to_vec();
    let mut next_slot = terms.iter().map(|t| t.slot + 1).max().unwrap_or(0);
    let mut added = 0;
    for concept in concepts {
        let slot = concept_slot(terms, concept).unwrap_or_else(|| {
            next_slot += 1;
            next_slot - 1
        });
        // A phrase with a control or hidden character in it is junk (an
        // escape sequence's letters split into words: `\x1b[31mload` ->
        // `mload`), as it would be for learning (`learn::filter::clean`).
        let phrases = std::iter::once(&concept.name)
            .chain(&concept.synonyms)
            .chain(&concept.related)
            .filter(|p| !p.chars().any(crate::learn::filter::is_hidden));
        for word in phrases.flat_map(|p| query::words(p)) {
            if added >= MAX_MODEL_TERMS {
                return out;
            }
            if !(MIN_MODEL_WORD..=crate::learn::filter::MAX_TERM_CHARS).contains(&word.len())
                || query::is_stop_word(&word)
                || !word.is_ascii()
                || word.bytes().all(|b| b.is_ascii_digit())
            {
                continue;
            }
            let stem = query::stem(&word);
            if out.iter().any(|t| t.stem == stem) {
                continue;
            }
            out.push(Term {
                text: word,
                stem,
                weight: MODEL_WEIGHT,
                slot,
                origin: Origin::Model,
                concept: Some(concept.name.to_lowercase()),
                parts: Vec::new(),
                aside: false,
            });
            added += 1;
        }
    }
    out
}

/// The slot of the first query word the concept's name or synonyms contain.
fn concept_slot(terms: &[Term], concept: &Concept) -> Option<usize> {
    let stems: Vec<String> = std::iter::once(&concept.name)
        .chain(&concept.synonyms)
        .flat_map(|p| query::words(p))
        .map(|w| query::stem(&w))
        .collect();
    terms
        .iter()
        .filter(|t| t.origin == Origin::Query)
        .find(|t| stems.contains(&t.stem))
        .map(|t| t.slot)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn concept(name: &str, synonyms: &[&str], related: &[&str]) -> Concept {
        Concept {
            name: name.into(),
            synonyms: synonyms.iter().map(|s| s.to_string()).collect(),
            related: related.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn concepts_become_new_terms_in_the_right_slot() {
        let q = query::analyze("hide secret headers in logs");
        let terms = model_terms(
            &q.terms,
            &[
                concept(
                    "secret header",
                    &["sensitive", "is_header_sensitive"],
                    &["redact"],
                ),
                concept("the", &["a"], &[]),
            ],
        );
        let added: Vec<&Term> = terms.iter().filter(|t| t.origin == Origin::Model).collect();
        let texts: Vec<&str> = added.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(
            texts,
            vec!["sensitive", "redact"],
            "known stems and stop words skipped"
        );
        let secret = q.terms.iter().find(|t| t.text == "secret").unwrap();
        assert!(added.iter().all(|t| t.slot == secret.slot));
        assert!(added
            .iter()
            .all(|t| t.weight < 1.0 && t.concept.as_deref() == Some("secret header")));
    }

    #[test]
    fn escape_sequences_and_numbers_give_no_words() {
        let q = query::analyze("retry delay");
        let terms = model_terms(
            &q.terms,
            &[concept(
                "backoff\u{1b}[31m",
                &[
                    "\u{1b}]52;c;ZXZpbA==\u{7}",
                    "\u{9b}2Jfile",
                    "evil\nline",
                    "w100",
                ],
                &["jit\u{202e}ter", "sleep"],
            )],
        );
        let added: Vec<&str> = terms
            .iter()
            .filter(|t| t.origin == Origin::Model)
            .map(|t| t.text.as_str())
            .collect();
        assert_eq!(added, vec!["sleep"]);
    }

    #[test]
    fn a_word_longer_than_a_learnable_term_is_not_searched() {
        let q = query::analyze("retry delay");
        let longest = "z".repeat(crate::learn::filter::MAX_TERM_CHARS);
        let junk = "y".repeat(1_000_000);
        let terms = model_terms(&q.terms, &[concept("backoff", &[&junk, &longest], &[])]);
        let added: Vec<&str> = terms
            .iter()
            .filter(|t| t.origin == Origin::Model)
            .map(|t| t.text.as_str())
            .collect();
        assert_eq!(added, vec!["backoff", longest.as_str()]);
    }

    #[test]
    fn unrelated_concepts_get_fresh_slots_and_the_count_is_capped() {
        let q = query::analyze("retry delay");
        let terms = model_terms(&q.terms, &[concept("backoff", &["jitter"], &[])]);
        let max_query_slot = q.terms.iter().map(|t| t.slot).max().unwrap();
        assert!(terms
            .iter()
            .filter(|t| t.origin == Origin::Model)
            .all(|t| t.slot > max_query_slot));
        let many: Vec<String> = (0..100u8)
            .map(|i| format!("zz{}{}", (b'a' + i / 26) as char, (b'a' + i % 26) as char))
            .collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        let terms = model_terms(&q.terms, &[concept("x", &many, &[])]);
        assert_eq!(terms.len() - q.terms.len(), MAX_MODEL_TERMS);
    }

    #[test]
    fn vocabulary_is_frequent_corpus_words_not_in_the_query() {
        let q = query::analyze("retry delay");
        let v = vocabulary(
            &[
                "let backoff = backoff_delay(attempt); retry(attempt)",
                "the backoff",
            ],
            &q.terms,
        );
        assert_eq!(v[0], "backoff");
        assert!(v.contains(&"attempt".to_string()));
        assert!(!v.iter().any(|w| w == "retry" || w == "delay" || w == "the"));
    }
}
