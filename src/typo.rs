//! Typo tolerance: a query word the corpus never uses is matched to the
//! corpus words nearest to it (`retyr` → `retry`, `recieve` → `receive`).
//!
//! Owns building a vocabulary from sample texts and choosing corrections by
//! Damerau-Levenshtein distance and Jaro-Winkler similarity. Pure: callers hand
//! in the texts and the missing words, and add the corrections as query terms.

use std::collections::HashMap;

use crate::query;

/// Words shorter than this are never corrected: too many short words are one
/// edit apart (`get`/`set`/`net`).
pub const MIN_TYPO_LEN: usize = 4;
/// Corrections kept per word, best first.
pub const MAX_CORRECTIONS: usize = 2;
/// Edits allowed for words shorter than `LONG_WORD`, and from `LONG_WORD` on.
pub const SHORT_WORD_EDITS: usize = 1;
pub const LONG_WORD_EDITS: usize = 2;
pub const LONG_WORD: usize = 8;
/// A correction must also be this similar by Jaro-Winkler (0–1): edits at the
/// start of a word change its meaning more than edits at the end.
pub const MIN_JARO_WINKLER: f64 = 0.85;
/// Bytes of each sample text read for the vocabulary.
pub const MAX_SAMPLE_BYTES: usize = 256 * 1024;
/// Distinct words kept in a vocabulary.
pub const MAX_VOCABULARY: usize = 200_000;

/// Corpus words and how often they occur.
#[derive(Clone, Debug, Default)]
pub struct Vocabulary {
    counts: HashMap<String, u32>,
}

impl Vocabulary {
    /// Adds the words of a text (identifiers split into their parts, lowercased).
    pub fn add_text(&mut self, text: &[u8]) {
        let text = &text[..text.len().min(MAX_SAMPLE_BYTES)];
        let text = String::from_utf8_lossy(text);
        for word in query::words(&text) {
            if word.len() < MIN_TYPO_LEN || !word.is_ascii() {
                continue;
            }
            if let Some(c) = self.counts.get_mut(&word) {
                *c = c.saturating_add(1);
            } else if self.counts.len() < MAX_VOCABULARY {
                self.counts.insert(word, 1);
            }
        }
    }

    /// Adds a known word (e.g. a thesaurus synonym) once.
    pub fn add_word(&mut self, word: &str) {
        if word.len() >= MIN_TYPO_LEN && word.is_ascii() && !word.contains(' ') {
            self.counts.entry(word.to_ascii_lowercase()).or_insert(1);
        }
    }

    /// Whether the vocabulary has this word.
    pub fn contains(&self, word: &str) -> bool {
        self.counts.contains_key(word)
    }

    /// Number of distinct words.
    pub fn len(&self) -> usize {
        self.counts.len()
    }

    /// Whether it is empty.
    pub fn is_empty(&self) -> bool {
        self.counts.is_empty()
    }

    /// The nearest words to `word`, best first: within the allowed edits, similar
    /// enough, closer before frequent before alphabetical. Empty when the word is
    /// too short, or is itself in the vocabulary.
    pub fn corrections(&self, word: &str) -> Vec<String> {
        if word.len() < MIN_TYPO_LEN || self.contains(word) {
            return Vec::new();
        }
        let edits = if word.len() >= LONG_WORD {
            LONG_WORD_EDITS
        } else {
            SHORT_WORD_EDITS
        };
        let mut found: Vec<(usize, u32, &str)> = self
            .counts
            .iter()
            .filter(|(w, _)| w.len().abs_diff(word.len()) <= edits)
            .filter_map(|(w, &n)| {
                let d = strsim::damerau_levenshtein(word, w);
                let close = d <= edits && strsim::jaro_winkler(word, w) >= MIN_JARO_WINKLER;
                close.then_some((d, n, w.as_str()))
            })
            .collect();
        found.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)).then(a.2.cmp(b.2)));
        found
            .into_iter()
            .take(MAX_CORRECTIONS)
            .map(|(_, _, w)| w.to_string())
            .collect()
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn vocab(text: &str) -> Vocabulary {
        let mut v = Vocabulary::default();
        v.add_text(text.as_bytes());
        v
    }

    #[test]
    fn corrects_transpositions_and_single_edits() {
        let v = vocab("fn retry_request() { let timeout = receive(); retry(); }");
        assert_eq!(v.corrections("retyr"), vec!["retry"]);
        assert_eq!(v.corrections("recieve"), vec!["receive"]);
        assert_eq!(v.corrections("timout"), vec!["timeout"]);
    }

    #[test]
    fn leaves_known_short_and_distant_words_alone() {
        let v = vocab("retry timeout connection set get");
        assert!(v.corrections("retry").is_empty(), "already in the corpus");
        assert!(
            v.corrections("sett").is_empty(),
            "set is too short to be a vocabulary word"
        );
        assert!(v.corrections("net").is_empty(), "too short");
        assert!(v.corrections("banana").is_empty(), "nothing close");
    }

    #[test]
    fn closer_beats_more_frequent_and_ties_go_to_frequency() {
        let v = vocab("parse parse parse parser parses");
        assert_eq!(v.corrections("prase")[0], "parse");
        let v = vocab("cache cache cache catch");
        assert_eq!(v.corrections("cachh"), vec!["cache"]);
    }

    #[test]
    fn long_words_allow_two_edits() {
        let v = vocab("authentication");
        assert_eq!(v.corrections("authetnicaton"), vec!["authentication"]);
        let v = vocab("config");
        assert!(
            v.corrections("cnofgi").is_empty(),
            "two edits in a short word"
        );
    }
}
