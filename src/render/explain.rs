//! `--explain` (and `-v`): why each printed line was printed — its
//! score decomposed into the parts the ranking added up, the query words on it
//! and near it, and its file's score. Owns only the wording; the numbers come
//! from `score` unchanged. Lines the model chose (verified) say so, and so do
//! the lines of a literal or regex query (exact, not ranked). The lines
//! explained are the printed ones (`Found::selected` after `-m`).

use super::found::Found;
use crate::fallback::consult::Report;
use crate::query::{Query, QueryKind};
use crate::score::unit::{RankedUnit, FIELDS};
use crate::score::{RankedFile, RankedLine};

/// Explains every printed line, file by file, in printed order: one message
/// per line (the caller prints them, or returns them to an MCP client).
pub(super) fn explain(found: &Found, report: &Report) -> Vec<String> {
    let mut out = Vec::new();
    for (h, lines) in &found.search.selected {
        let key = &found.search.haystacks[*h].key;
        let ranked = found.search.ranked.iter().find(|f| f.haystack == *h);
        out.push(file_line(key, ranked, &found.q, report.answered));
        let mut shown: Vec<usize> = Vec::new();
        for &n in lines {
            let unit = ranked.and_then(|f| crate::report::innermost_unit(&f.units, n));
            if let Some(u) = unit.filter(|u| !shown.contains(&u.index)) {
                shown.push(u.index);
                out.push(unit_line(u, &found.q));
            }
            let scored = ranked.and_then(|f| f.lines.iter().find(|l| l.line == n));
            out.push(line_explanation(n, scored, &found.q, report.answered));
        }
    }
    out
}

fn file_line(key: &str, ranked: Option<&RankedFile>, q: &Query, by_model: bool) -> String {
    match (ranked, &q.kind) {
        (Some(f), _) => {
            let evidence = if f.prior > 0.0 {
                f.file_score / f.prior
            } else {
                0.0
            };
            let mut units: Vec<f64> = f.units.iter().map(|u| u.score.evidence).collect();
            units.sort_by(|a, b| b.total_cmp(a));
            let place = match units.as_slice() {
                [] => format!(
                    "best line {:.2}",
                    f.lines.iter().map(|l| l.score.total).fold(0.0, f64::max)
                ),
                [best] => format!("best unit {best:.2}"),
                [best, second, ..] => format!(
                    "best unit {best:.2} + {:.2} x second unit {second:.2}",
                    crate::score::SECOND_UNIT_SHARE
                ),
            };
            let mut learned = f.learned.map_or(String::new(), |s| {
                format!("; ordered by the learned ranker's score {s:.2}, which weighs these and the file's other features")
            });
            if f.hand_blend {
                learned.push_str(", and by the hand order (a where-question)");
            }
            if let Some(why) = f.promoted {
                learned.push_str(&format!("; moved first: {why}"));
            }
            format!(
                "explain: {key}: rank {:.2} = (file {evidence:.2}: BM25 over the query's terms and the words of its path, + {place}) x {:.2} for a {} file{learned}",
                f.score,
                f.prior,
                kind_name(key, f.prior)
            )
        }
        (None, _) if by_model => format!("explain: {key}: chosen by the model"),
        (None, QueryKind::Literal(lit)) => {
            format!("explain: {key}: every line holding the literal {lit:?} (an exact query, not ranked)")
        }
        (None, QueryKind::Regex(re)) => {
            format!(
                "explain: {key}: every line matching the regex {re:?} (an exact query, not ranked)"
            )
        }
        (None, QueryKind::Natural) => format!("explain: {key}: not in the offline ranking"),
    }
}

/// A code unit's score, field by field.
fn unit_line(u: &RankedUnit, q: &Query) -> String {
    let s = &u.score;
    let mut parts: Vec<String> = FIELDS
        .iter()
        .zip(&s.fields)
        .filter(|(_, &v)| v > 0.0)
        .map(|(f, v)| format!("{} {v:.2}", f.label()))
        .collect();
    for (name, v) in [
        ("support", s.support),
        ("context", s.context),
        ("best line", s.line),
    ] {
        if v > 0.0 {
            parts.push(format!("{name} {v:.2}"));
        }
    }
    let name = u
        .span
        .name
        .as_deref()
        .map_or(String::new(), |n| format!(" {n}"));
    let mut out = format!(
        "explain:   {}{name} (lines {}-{}): {:.2} = ({}) x {:.2} x length {:.2}",
        u.span.kind,
        u.span.start_line,
        u.span.end_line,
        s.total,
        parts.join(" + "),
        s.factor,
        s.length
    );
    if s.branching != 1.0 {
        out.push_str(&format!(" x branching {:.2}", s.branching));
    }
    let words = slot_words(q, u.slots);
    if !words.is_empty() {
        out.push_str(&format!("; holds: {}", words.join(", ")));
    }
    out
}

/// What kind of file the prior is for, in words.
fn kind_name(key: &str, prior: f64) -> &'static str {
    match crate::score::file_kind(key) {
        crate::score::FileKind::Generated => "generated, vendored or minified",
        _ if prior <= crate::score::GENERATED_FILE_PRIOR => "minified (very long lines)",
        crate::score::FileKind::Secondary if prior < 1.0 => "test, example or documentation",
        crate::score::FileKind::Config if prior < 1.0 => "build or configuration",
        _ => "source",
    }
}

fn line_explanation(n: usize, scored: Option<&RankedLine>, q: &Query, by_model: bool) -> String {
    let Some(l) = scored else {
        let why = match &q.kind {
            _ if by_model => "chosen by the model, verified against the file".to_string(),
            QueryKind::Literal(lit) => format!("holds {lit:?}"),
            QueryKind::Regex(_) => "matches the regex".to_string(),
            QueryKind::Natural => "shown with its passage (no query word on it)".to_string(),
        };
        return format!("explain:   {n}: {why}");
    };
    let s = &l.score;
    let mut out = format!(
        "explain:   {n}: {:.2} = (words {:.2} + near {:.2} + identifier {:.2} + defined name {:.2}) x kind {:.2}",
        s.total, s.terms, s.near, s.merged, s.name, s.factor
    );
    let on = slot_words(q, l.slots);
    if !on.is_empty() {
        out.push_str(&format!("; on the line: {}", on.join(", ")));
    }
    let near = slot_words(q, l.near_slots & !l.slots);
    if !near.is_empty() {
        out.push_str(&format!("; near it: {}", near.join(", ")));
    }
    out
}

/// The query word standing for each slot set in `bits`, in query order.
fn slot_words(q: &Query, bits: u64) -> Vec<String> {
    let mut seen = 0u64;
    let mut out = Vec::new();
    for t in &q.terms {
        let bit = crate::score::slot_bit(t.slot);
        if bits & bit != 0 && seen & bit == 0 {
            seen |= bit;
            out.push(t.text.clone());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::{Origin, QueryKind, Term};
    use crate::score::LineScore;

    fn term(text: &str, slot: usize, origin: Origin) -> Term {
        Term {
            text: text.into(),
            stem: text.into(),
            weight: 1.0,
            slot,
            origin,
            concept: None,
            parts: Vec::new(),
            aside: false,
        }
    }

    fn query() -> Query {
        Query {
            raw: "retry backoff delay".into(),
            kind: QueryKind::Natural,
            matching: Default::default(),
            ask: crate::query::Ask::Other,
            terms: vec![
                term("retry", 0, Origin::Query),
                term("backoff", 1, Origin::Query),
                term("reattempt", 0, Origin::Synonym),
                term("delay", 2, Origin::Query),
            ],
        }
    }

    #[test]
    fn a_scored_line_shows_its_parts_and_words() {
        let line = RankedLine {
            line: 7,
            block: 0,
            slots: 0b011,
            near_slots: 0b111,
            comment: false,
            score: LineScore {
                terms: 1.5,
                near: 0.25,
                merged: 0.5,
                name: 0.0,
                factor: 1.25,
                total: 2.8125,
            },
        };
        assert_eq!(
            line_explanation(7, Some(&line), &query(), false),
            "explain:   7: 2.81 = (words 1.50 + near 0.25 + identifier 0.50 + defined name 0.00) x kind 1.25; \
             on the line: retry, backoff; near it: delay"
        );
    }

    #[test]
    fn a_file_line_shows_its_evidence_best_line_and_prior() {
        let line = RankedLine {
            line: 3,
            block: 0,
            slots: 1,
            near_slots: 0,
            comment: false,
            score: LineScore {
                total: 2.0,
                ..LineScore::default()
            },
        };
        let f = RankedFile {
            haystack: 0,
            file_score: 0.4,
            prior: 0.1,
            score: 0.6,
            lines: vec![line],
            ..RankedFile::default()
        };
        assert_eq!(
            file_line("dist/app.min.js", Some(&f), &query(), false),
            "explain: dist/app.min.js: rank 0.60 = (file 4.00: BM25 over the query's terms and the words of its path, + best line 2.00) x 0.10 for a generated, vendored or minified file"
        );
        let source = RankedFile { prior: 1.0, ..f };
        assert!(file_line("src/app.js", Some(&source), &query(), false)
            .ends_with("x 1.00 for a source file"));
    }

    #[test]
    fn unscored_lines_say_why_they_are_shown() {
        assert!(line_explanation(3, None, &query(), true).contains("chosen by the model"));
        assert!(line_explanation(3, None, &query(), false).contains("passage"));
    }

    #[test]
    fn exact_queries_are_explained_as_exact() {
        let literal = crate::query::analyze("session_class");
        assert_eq!(
            line_explanation(141, None, &literal, false),
            "explain:   141: holds \"session_class\""
        );
        assert_eq!(
            file_line("src/a.py", None, &literal, false),
            "explain: src/a.py: every line holding the literal \"session_class\" (an exact query, not ranked)"
        );
        let regex = crate::query::analyze(r"fn\s+main");
        assert_eq!(
            line_explanation(2, None, &regex, false),
            "explain:   2: matches the regex"
        );
        assert!(file_line("src/a.rs", None, &regex, false).contains("matching the regex"));
    }

    #[test]
    fn a_slot_is_named_once_by_its_first_word() {
        assert_eq!(slot_words(&query(), 0b001), vec!["retry"]);
        assert_eq!(slot_words(&query(), 0), Vec::<String>::new());
    }
}
