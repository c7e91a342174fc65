//! Property tests: on any documents and any query, ranking and line selection
//! never panic, print only lines that exist, and give the same answer twice.

#![allow(clippy::unwrap_used)]

use proptest::prelude::*;

use super::*;
use crate::search::matcher::TermMatch;
use crate::search::sink::TermLine;

const VOCABULARY: &[&str] = &[
    "retry", "backoff", "fn", "def", "class", "#", "//", "{", "}", "timeout", "config", "x", "",
    "#[test]", "mod", "tests", "import", "use",
];

/// A document: lines of words from a small vocabulary, indented at random.
fn document() -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec(
        (0usize..3, prop::collection::vec(0..VOCABULARY.len(), 0..6)).prop_map(
            |(indent, words)| {
                let words: Vec<&str> = words.iter().map(|&w| VOCABULARY[w]).collect();
                format!("{}{}", "    ".repeat(indent), words.join(" "))
            },
        ),
        0..40,
    )
}

/// The term lines of `doc` for terms that are vocabulary words.
fn term_lines(doc: &[String], terms: &[usize]) -> Vec<TermLine> {
    let mut out = Vec::new();
    for (i, line) in doc.iter().enumerate() {
        let mut matches = Vec::new();
        for (t, &w) in terms.iter().enumerate() {
            let word = VOCABULARY[w];
            if word.is_empty() {
                continue;
            }
            for (start, _) in line.match_indices(word) {
                matches.push(TermMatch {
                    term: t,
                    start,
                    end: start + word.len(),
                });
            }
        }
        if !matches.is_empty() {
            out.push(TermLine {
                line: i + 1,
                matches,
            });
        }
    }
    out
}

fn rank(
    docs: &[Vec<String>],
    terms: &[usize],
    slots: &[usize],
    file_scores: &[f64],
    max_lines: usize,
) -> (Vec<RankedFile>, Vec<(usize, Vec<usize>)>) {
    let weights = TermWeights {
        idf: terms.iter().map(|&t| 0.1 + t as f64 / 10.0).collect(),
        weight: vec![1.0; terms.len()],
        slot: slots.to_vec(),
    };
    let mut files: Vec<RankedFile> = docs
        .iter()
        .enumerate()
        .map(|(h, doc)| {
            let text = doc.join("\n");
            let kinds = classify_lines(text.as_bytes());
            let lines = score_lines(&term_lines(doc, terms), &weights, &kinds, h % 2 == 0, |n| {
                doc.get(n.wrapping_sub(1)).map(|l| l.as_bytes())
            });
            let file_score = file_scores.get(h).copied().unwrap_or(0.0);
            let score = final_score(file_score, &lines, &[], 1.0);
            RankedFile {
                haystack: h,
                file_score,
                prior: 1.0,
                score,
                lines,
                ..RankedFile::default()
            }
        })
        .collect();
    sort_files(&mut files, |h| format!("file{h:03}"));
    let selected = select(&files, max_lines);
    (files, selected)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn ranking_never_panics_is_deterministic_and_selects_real_lines(
        docs in prop::collection::vec(document(), 0..6),
        terms in prop::collection::vec(0..VOCABULARY.len(), 0..5),
        slot_seed in prop::collection::vec(0usize..4, 5),
        file_scores in prop::collection::vec(0.0f64..10.0, 6),
        max_lines in 0usize..12,
    ) {
        let slots: Vec<usize> = (0..terms.len()).map(|t| slot_seed[t].min(t)).collect();
        let first = rank(&docs, &terms, &slots, &file_scores, max_lines);
        let second = rank(&docs, &terms, &slots, &file_scores, max_lines);
        prop_assert_eq!(&first, &second);
        let (files, selected) = first;
        for pair in files.windows(2) {
            prop_assert!(pair[0].score >= pair[1].score);
        }
        for (h, lines) in &selected {
            prop_assert!(*h < docs.len());
            prop_assert!(!lines.is_empty());
            for &n in lines {
                prop_assert!(n >= 1 && n <= docs[*h].len(), "line {} of {}", n, docs[*h].len());
            }
            prop_assert!(lines.windows(2).all(|w| w[0] < w[1]), "sorted, no duplicates");
        }
        if max_lines > 0 {
            prop_assert!(selected.len() <= select::MAX_FILES);
        }
    }

    #[test]
    fn line_kinds_cover_every_line_of_any_text(text in prop::collection::vec(any::<u8>(), 0..400)) {
        let kinds = classify_lines(&text);
        prop_assert_eq!(kinds.len(), text.split(|&b| b == b'\n').count());
        prop_assert_eq!(kinds, classify_lines(&text));
    }

    /// Labelling a text line by line as it streams gives every line the
    /// label `classify_lines` gives it (decorations attached included).
    #[test]
    fn streamed_labels_are_the_whole_text_labels(
        pieces in prop::collection::vec(0..LABEL_PIECES.len(), 0..60),
    ) {
        let text: String = pieces.iter().map(|&p| LABEL_PIECES[p]).collect();
        let whole = classify_lines(text.as_bytes());
        let mut classifier = crate::score::Classifier::default();
        let mut streamed = Vec::new();
        for (i, line) in text.split('\n').enumerate() {
            let (kind, adopted) = classifier.next(i + 1, line.as_bytes(), true);
            streamed.push(kind);
            if let Some((block, lines)) = adopted {
                for n in lines {
                    streamed[n - 1].block = block;
                }
            }
        }
        prop_assert_eq!(streamed, whole);
    }

    #[test]
    fn query_analysis_never_panics_and_is_deterministic(raw in "\\PC{0,80}") {
        let a = crate::query::analyze(&raw);
        prop_assert_eq!(a, crate::query::analyze(&raw));
    }
}

/// Lines of code and their pieces, for the labelling property.
const LABEL_PIECES: &[&str] = &[
    "\n",
    "fn retry() {\n",
    "    let x = 1;\n",
    "}\n",
    "/// Docs.\n",
    "#[test]\n",
    "@decorator\n",
    "def go(self):\n",
    "    \"\"\"Doc.\"\"\"\n",
    "    return 2\n",
    "/* block\n",
    "still */\n",
    "use std::io;\n",
    "from x import (\n",
    "    a,\n",
    ")\n",
    "class Widget:\n",
    "  # note\n",
    "#[cfg(test)]\nmod tests {\n",
    "    fn helper() {}\n",
];
