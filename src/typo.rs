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
/// Bytes of all sample texts together: the vocabulary of a misspelled query
/// costs at most this much reading, however large the files (issue 28: a
/// typo made a query 6–10 times slower than spelled right). About 200
/// source files; the best files of the first pass come first.
pub const MAX_VOCABULARY_BYTES: usize = 4 << 20;
/// Distinct words kept in a vocabulary.
pub const MAX_VOCABULARY: usize = 200_000;
/// Query words corrected, in query order: a pasted log is hundreds of words
/// no file holds, each a pass over the vocabulary; past these, none is.
pub const MAX_CORRECTED_WORDS: usize = 8;

/// Run-together spellings of at least this many letters are looked up as
/// identifiers (`shouldbindjson`); shorter ones are too often a word of
/// their own (`setup`, `into`).
pub const MIN_RUN_TOGETHER_LEN: usize = 6;

/// A corpus identifier found by its parts run together.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunTogether {
    /// Its parts in lowercase (`should`, `bind`, `json`).
    pub parts: Vec<String>,
    /// As the corpus first spells it (`ShouldBindJSON`).
    pub spelling: String,
    /// Occurrences in the text read.
    pub count: u32,
}

/// A word [`Vocabulary::watch`] looks out for, with its letters counted.
#[derive(Clone, Debug)]
struct Watched {
    word: String,
    letters: Letters,
}

/// Corpus words and how often they occur.
#[derive(Clone, Debug, Default)]
pub struct Vocabulary {
    counts: HashMap<String, u32>,
    /// Identifiers of two or more parts, by their parts run together in
    /// lowercase (`shouldbindjson`): its parts, its first spelling
    /// (`ShouldBindJSON`) and how often it occurs.
    identifiers: HashMap<String, RunTogether>,
    /// The words whose run-together identifiers are indexed
    /// ([`Vocabulary::watch`]).
    watched: Vec<Watched>,
    /// Bytes of text read into it.
    read: usize,
}

/// What finding the corrections of one word cost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Effort {
    /// Vocabulary words of a length within the allowed edits.
    pub near_in_length: usize,
    /// Of those, the ones whose letters differ by no more than the allowed
    /// edits: the only ones the edit distance is computed for.
    pub compared: usize,
}

impl Vocabulary {
    /// Adds the words of a text (identifiers split into their parts,
    /// lowercased): at most [`MAX_SAMPLE_BYTES`] of it, and no more than
    /// what is left of [`MAX_VOCABULARY_BYTES`].
    pub fn add_text(&mut self, text: &[u8]) {
        let room = MAX_VOCABULARY_BYTES.saturating_sub(self.read);
        let text = &text[..text.len().min(MAX_SAMPLE_BYTES).min(room)];
        self.read += text.len();
        let text = String::from_utf8_lossy(text);
        let mut lower = String::new();
        query::for_each_word(&text, |part| {
            // What `query::words` gives, without a new string per word.
            if part.is_ascii() {
                lower.clear();
                lower.push_str(part);
                lower.make_ascii_lowercase();
            } else {
                lower = part.to_lowercase();
            }
            if lower.len() < MIN_TYPO_LEN || !lower.is_ascii() {
                return;
            }
            if let Some(c) = self.counts.get_mut(lower.as_str()) {
                *c = c.saturating_add(1);
            } else if self.counts.len() < MAX_VOCABULARY {
                self.counts.insert(lower.clone(), 1);
            }
        });
        self.add_identifiers(&text);
    }

    /// Indexes the text's identifiers of two or more parts by their parts
    /// run together (`ShouldBindJSON`, `should_bind_json`: `shouldbindjson`),
    /// so that an identifier typed in lowercase without its separators is
    /// found ([`Vocabulary::identifier`]): only those one edit at most from
    /// a watched word ([`Vocabulary::watch`]).
    fn add_identifiers(&mut self, text: &str) {
        if self.watched.is_empty() {
            return;
        }
        let mut buf = [0u8; crate::search::matcher::MAX_WORD_LEN];
        let tokens = text
            .as_bytes()
            .split(|&b| !(b.is_ascii_alphanumeric() || b == b'_'));
        for token in tokens {
            // ASCII by the split, so a str.
            let Ok(token) = std::str::from_utf8(token) else {
                continue;
            };
            let token = token.trim_matches('_');
            if token.len() < MIN_RUN_TOGETHER_LEN || token.len() > buf.len() {
                continue;
            }
            let mut flat_len = 0;
            let mut joined = false;
            let mut prev = 0u8;
            for &b in token.as_bytes() {
                if b == b'_' {
                    joined = true;
                } else {
                    joined |= prev.is_ascii_lowercase() && b.is_ascii_uppercase();
                    buf[flat_len] = b.to_ascii_lowercase();
                    flat_len += 1;
                }
                prev = b;
            }
            let flat = &buf[..flat_len];
            let watched = |w: &Watched| {
                w.word.len().abs_diff(flat_len) <= 1 && w.letters.distance_bytes(flat) <= 1
            };
            if !joined || !self.watched.iter().any(watched) {
                continue;
            }
            let Ok(flat) = std::str::from_utf8(flat) else {
                continue;
            };
            if let Some(found) = self.identifiers.get_mut(flat) {
                found.count = found.count.saturating_add(1);
                continue;
            }
            let parts = query::words(token);
            if parts.len() >= 2 && self.identifiers.len() < MAX_VOCABULARY {
                let run = RunTogether {
                    parts,
                    spelling: token.to_string(),
                    count: 1,
                };
                self.identifiers.insert(flat.to_string(), run);
            }
        }
    }

    /// Indexes identifiers (for [`Vocabulary::identifier`] and
    /// [`Vocabulary::near_identifier`]) only for these words, those the
    /// caller will look up: each text's identifiers whose parts run together
    /// are one edit at most from one of them. Call before adding text;
    /// without it no identifier is indexed, which keeps a vocabulary built
    /// for typos alone as cheap as before.
    pub fn watch(&mut self, words: &[&str]) {
        for w in words {
            if w.len() + 1 >= MIN_RUN_TOGETHER_LEN && w.is_ascii() {
                self.watched.push(Watched {
                    word: w.to_ascii_lowercase(),
                    letters: Letters::of(w),
                });
            }
        }
    }

    /// The parts of the corpus identifier that `word` (lowercase) spells
    /// run together: `shouldbindjson` → should, bind, json when the corpus
    /// has `ShouldBindJSON` (or `should_bind_json`). `None` for a short word
    /// or one no identifier spells.
    pub fn identifier(&self, word: &str) -> Option<&RunTogether> {
        if word.len() < MIN_RUN_TOGETHER_LEN {
            return None;
        }
        self.identifiers.get(word)
    }

    /// The corpus identifier whose parts run together are one edit from
    /// `word` (lowercase), the most frequent when several are: `regex` →
    /// `RegExp`. For a word that is no corpus word and no identifier, so
    /// only an identifier spelled its own way can be meant.
    pub fn near_identifier(&self, word: &str) -> Option<&RunTogether> {
        if word.len() + 1 < MIN_RUN_TOGETHER_LEN {
            return None;
        }
        let letters = Letters::of(word);
        self.identifiers
            .iter()
            .filter(|(flat, _)| flat.len().abs_diff(word.len()) <= 1)
            .filter(|(flat, _)| letters.distance(flat) <= 1)
            .filter(|(flat, _)| {
                strsim::damerau_levenshtein(word, flat) <= 1
                    && strsim::jaro_winkler(word, flat) >= MIN_JARO_WINKLER
            })
            .max_by(|a, b| a.1.count.cmp(&b.1.count).then(b.0.cmp(a.0)))
            .map(|(_, found)| found)
    }

    /// Whether the vocabulary has read all the text it may.
    pub fn is_full(&self) -> bool {
        self.read >= MAX_VOCABULARY_BYTES
    }

    /// Bytes of text read into it.
    pub fn bytes_read(&self) -> usize {
        self.read
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
        self.corrections_with_effort(word).0
    }

    /// [`Vocabulary::corrections`], with what finding them cost. The edit
    /// distance (quadratic in the word, and allocating) is computed only
    /// for words whose letters, counted, differ by no more than the allowed
    /// edits: an edit changes at most one letter's count each way and a
    /// transposition none, so that skips no word the distance would keep.
    pub fn corrections_with_effort(&self, word: &str) -> (Vec<String>, Effort) {
        let mut effort = Effort::default();
        if word.len() < MIN_TYPO_LEN || self.contains(word) {
            return (Vec::new(), effort);
        }
        let edits = if word.len() >= LONG_WORD {
            LONG_WORD_EDITS
        } else {
            SHORT_WORD_EDITS
        };
        let letters = Letters::of(word);
        let mut found: Vec<(usize, u32, &str)> = Vec::new();
        for (w, &n) in &self.counts {
            if w.len().abs_diff(word.len()) > edits {
                continue;
            }
            effort.near_in_length += 1;
            if letters.distance(w) > edits {
                continue;
            }
            effort.compared += 1;
            let d = strsim::damerau_levenshtein(word, w);
            if d <= edits && strsim::jaro_winkler(word, w) >= MIN_JARO_WINKLER {
                found.push((d, n, w.as_str()));
            }
        }
        found.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)).then(a.2.cmp(b.2)));
        let fixes = found
            .into_iter()
            .take(MAX_CORRECTIONS)
            .map(|(_, _, w)| w.to_string())
            .collect();
        (fixes, effort)
    }
}

/// How many times each byte occurs in a word: the bag distance between two
/// words (the larger of what each has that the other lacks) is a lower
/// bound of their edit distance, and costs one pass over each.
#[derive(Clone, Debug)]
struct Letters([i32; 256]);

impl Letters {
    fn of(word: &str) -> Letters {
        // i32: a pasted 100 KB "word" of one letter must not overflow.
        let mut counts = [0i32; 256];
        for &b in word.as_bytes() {
            counts[usize::from(b)] += 1;
        }
        Letters(counts)
    }

    fn distance(&self, other: &str) -> usize {
        self.distance_bytes(other.as_bytes())
    }

    fn distance_bytes(&self, other: &[u8]) -> usize {
        let mut counts = self.0;
        for &b in other {
            counts[usize::from(b)] -= 1;
        }
        let (mut extra, mut missing) = (0usize, 0usize);
        for &c in &counts {
            if c > 0 {
                extra += c.unsigned_abs() as usize;
            } else {
                missing += c.unsigned_abs() as usize;
            }
        }
        extra.max(missing)
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

    /// A vocabulary indexing the identifiers `words` may spell.
    fn watching(words: &[&str], text: &str) -> Vocabulary {
        let mut v = Vocabulary::default();
        v.watch(words);
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
    fn finds_identifiers_typed_run_together_in_lowercase() {
        let text = "func (c *Context) ShouldBindJSON(obj any) { load_file_system(); x.y_z }";
        let words = [
            "shouldbindjson",
            "loadfilesystem",
            "context",
            "yz",
            "shouldbind",
        ];
        let v = watching(&words, text);
        let found = v.identifier("shouldbindjson").unwrap();
        assert_eq!(found.parts, ["should", "bind", "json"]);
        assert_eq!(found.spelling, "ShouldBindJSON");
        let found = v.identifier("loadfilesystem").unwrap();
        assert_eq!(found.parts, ["load", "file", "system"]);
        assert_eq!(found.spelling, "load_file_system");
        assert_eq!(
            v.identifier("context"),
            None,
            "one part: a word, not an identifier"
        );
        assert_eq!(v.identifier("yz"), None, "too short to look up");
        assert_eq!(v.identifier("shouldbind"), None, "only whole identifiers");
        // Unwatched, nothing is indexed: a vocabulary for typos costs no more.
        assert_eq!(vocab(text).identifier("shouldbindjson"), None);
    }

    #[test]
    fn a_word_one_edit_from_an_identifier_finds_it() {
        let v = watching(
            &["regex", "maxsizes", "reg", "maxspeed"],
            "const re = new RegExp(s); RegExp(t); regExps; max_size",
        );
        assert_eq!(v.near_identifier("regex").unwrap().spelling, "RegExp");
        assert_eq!(v.near_identifier("maxsizes").unwrap().spelling, "max_size");
        assert!(v.near_identifier("reg").is_none(), "too short");
        assert!(v.near_identifier("maxspeed").is_none(), "too far");
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

    /// The letter filter skips no word the edit distance keeps.
    #[test]
    fn the_letter_filter_keeps_every_word_within_the_edits() {
        use crate::testing::{below, rng};
        let mut rng = rng(0x7490_0014);
        let alphabet = b"abcde";
        let word = |rng: &mut _, len: usize| -> String {
            (0..len)
                .map(|_| char::from(alphabet[below(rng, alphabet.len())]))
                .collect()
        };
        for _ in 0..20_000 {
            let (la, lb) = (4 + below(&mut rng, 6), 4 + below(&mut rng, 6));
            let a = word(&mut rng, la);
            let b = word(&mut rng, lb);
            let d = strsim::damerau_levenshtein(&a, &b);
            assert!(Letters::of(&a).distance(&b) <= d, "{a} {b} {d}");
        }
    }

    #[test]
    fn a_huge_word_is_compared_without_overflow() {
        let v = vocab("retry backoff");
        let word = "b".repeat(100_000);
        assert!(v.corrections(&word).is_empty());
        assert!(Letters::of(&word).distance("backoff") >= 99_990);
    }

    #[test]
    fn the_vocabulary_reads_a_bounded_sample() {
        let mut v = Vocabulary::default();
        let text = "retry ".repeat(MAX_SAMPLE_BYTES);
        for _ in 0..(MAX_VOCABULARY_BYTES / MAX_SAMPLE_BYTES + 3) {
            v.add_text(text.as_bytes());
        }
        assert!(v.is_full());
        assert_eq!(v.bytes_read(), MAX_VOCABULARY_BYTES);
        // The cut ends a text inside a word (`retr`), as any byte limit may.
        let (fixes, effort) = v.corrections_with_effort("retyr");
        assert_eq!(fixes.first().map(String::as_str), Some("retry"));
        assert!(effort.compared <= 2, "{effort:?}");
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
