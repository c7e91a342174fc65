//! Learning what the model found: after a model chose lines that kgrep
//! verified (and printed), the query's content words are tied to the
//! identifiers on those lines, definitions first, so the next run of the
//! query, or of a paraphrase sharing its words in any order, ranks those
//! lines first offline and the judge takes the learned answer as evidence
//! (`thesaurus::Answer`, `query::expand_answers`, `judge`).
//!
//! Owns which identifiers a chosen line offers, the concept's name and
//! trigger, and writing the answer into the learned file. Does not decide
//! when a model is asked (`fallback`), nor count how common an identifier is
//! in the corpus (the model stage scans for that, then calls
//! [`drop_general`]).

use serde_json::json;

use super::{filter, helped, store, taught, Provenance, StoreError};
use crate::query::{self, Origin, Query};
use crate::score::symbol;
use crate::search::matcher::TermMatcher;
use crate::thesaurus::{self, file, Thesaurus};

/// Identifiers kept from one model choice: the defined names and the most
/// specific identifiers of the first chosen lines.
pub const MAX_IDENTIFIERS: usize = 4;

/// Identifiers an answer keeps over several lessons (old ones first).
pub const MAX_STORED_IDENTIFIERS: usize = 8;

/// An answer to keep: the concept's name (the query's first content words),
/// the stems that trigger it, and the identifiers it finds.
#[derive(Clone, Debug, PartialEq)]
pub struct AnswerLesson {
    pub name: String,
    pub trigger: Vec<String>,
    pub identifiers: Vec<String>,
    /// Settled rather than found: the printed answer the model was consulted
    /// on and did not change (at temperature 0 the same request gets the
    /// same reply: asking again would pay for nothing).
    pub settled: bool,
}

/// The identifiers a model's chosen lines offer, best first: each line's
/// defined name (`symbol::definition_name`), then identifiers made of two
/// words or more (`register_blueprint`, `registerBlueprint`: specific to
/// what the line does), in line order. Keywords, stop words and one-word
/// names that define nothing are left out: they name no place.
pub fn identifiers_on(lines: &[&[u8]]) -> Vec<String> {
    let mut out = all_identifiers_on(lines);
    out.truncate(MAX_IDENTIFIERS);
    out
}

/// [`identifiers_on`] with no limit.
fn all_identifiers_on(lines: &[&[u8]]) -> Vec<String> {
    let mut defined: Vec<String> = Vec::new();
    let mut compound: Vec<String> = Vec::new();
    let keys = |list: &[String], id: &str| list.iter().any(|o| key(o) == key(id));
    for line in lines {
        if let Some((start, end)) = symbol::definition_name(line) {
            if let Some(name) = line
                .get(start..end)
                .and_then(|n| std::str::from_utf8(n).ok())
                .and_then(usable)
            {
                if !keys(&defined, &name) {
                    defined.push(name);
                }
            }
        }
        for token in line.split(|b| !(b.is_ascii_alphanumeric() || *b == b'_')) {
            let Some(token) = std::str::from_utf8(token).ok().and_then(usable) else {
                continue;
            };
            if query::is_identifier_synonym(&token, &query::words(&token))
                && !keys(&compound, &token)
            {
                compound.push(token);
            }
        }
    }
    let mut out = defined;
    for id in compound {
        if !keys(&out, &id) {
            out.push(id);
        }
    }
    out
}

/// The identifiers `lines` offer ([`identifiers_on`]'s order, at most
/// [`MAX_IDENTIFIERS`]) that answer the query `q`: those defined on one of
/// `chosen` (the lines the model itself chose; `lines` may hold the
/// definition a chosen line sits in instead), and those whose words carry
/// one of the query's concepts: a word the user typed (not scaffolding such
/// as `fix`), a synonym or a typo correction of one, matched as the search
/// matches them, in any spelling. `finish_non_exhaustive` on a `Debug` impl's
/// line answers nothing about "hiding secret headers", nor `urllib2` about
/// "relative redirections": kept, they would rank unrelated code first.
pub fn answering(lines: &[&[u8]], chosen: &[&[u8]], q: &Query) -> Vec<String> {
    let defined: Vec<String> = chosen
        .iter()
        .filter_map(|line| {
            let (start, end) = symbol::definition_name(line)?;
            let name = std::str::from_utf8(line.get(start..end)?).ok()?;
            Some(key(name))
        })
        .collect();
    let concepts: Vec<bool> = q
        .terms
        .iter()
        .map(|t| {
            matches!(t.origin, Origin::Query | Origin::Synonym | Origin::Fuzzy)
                && t.weight > query::SCAFFOLD_WEIGHT
        })
        .collect();
    let Ok(matcher) = TermMatcher::subset(&q.terms, &concepts) else {
        return Vec::new();
    };
    let mut out: Vec<String> = all_identifiers_on(lines)
        .into_iter()
        .filter(|id| defined.contains(&key(id)) || !matcher.find_all(id.as_bytes()).is_empty())
        .collect();
    out.truncate(MAX_IDENTIFIERS);
    out
}

/// The spelling-free key of an identifier: its words joined by `_`.
fn key(id: &str) -> String {
    query::words(id).join("_")
}

/// An identifier worth learning, as spelled, or `None`.
fn usable(token: &str) -> Option<String> {
    if token.len() < 3 || token.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let spelled = filter::clean_synonym(token)?;
    if filter::is_code_keyword(&token.to_lowercase()) {
        return None;
    }
    Some(spelled)
}

/// Drops the identifiers too common to mean anything (`df` of `files`
/// loaded files each, in `ids` order), as the expansion's words are.
pub fn drop_general(ids: Vec<String>, df: &[usize], files: usize) -> Vec<String> {
    ids.into_iter()
        .zip(df)
        .filter(|(_, &d)| d > 0 && !filter::too_general(d, files))
        .map(|(id, _)| id)
        .collect()
}

/// The lesson for a query: named by its first content words (at most
/// [`thesaurus::MAX_SYNONYM_WORDS`]), triggered by the stems of all of them.
/// `None` when the query has no content word or nothing identifies a place.
pub fn lesson(q: &Query, identifiers: Vec<String>) -> Option<AnswerLesson> {
    if identifiers.is_empty() {
        return None;
    }
    // One word per slot: the typed word names the concept; the trigger
    // takes the slot's last form (an irregular verb's base, `thrown` →
    // `throw`, which a query with either form holds).
    let own: Vec<&query::Term> = q
        .terms
        .iter()
        .filter(|t| t.origin == Origin::Query && t.weight >= 1.0 && !t.is_joined())
        .collect();
    let mut slots: Vec<usize> = own.iter().map(|t| t.slot).collect();
    slots.dedup();
    let first = |slot: usize| own.iter().find(|t| t.slot == slot);
    let last = |slot: usize| own.iter().rev().find(|t| t.slot == slot);
    let mut trigger: Vec<String> = slots
        .iter()
        .filter_map(|&s| last(s))
        .map(|t| t.stem.clone())
        .collect();
    trigger.sort();
    trigger.dedup();
    let own: Vec<&query::Term> = slots.iter().filter_map(|&s| first(s).copied()).collect();
    let mut name = String::new();
    for t in own.iter().take(thesaurus::MAX_SYNONYM_WORDS) {
        let next = if name.is_empty() {
            t.text.clone()
        } else {
            format!("{name} {}", t.text)
        };
        if next.chars().count() > filter::MAX_TERM_CHARS {
            break;
        }
        name = next;
    }
    let name = filter::clean(&name)?;
    (!trigger.is_empty()).then_some(AnswerLesson {
        name,
        trigger,
        identifiers,
        settled: false,
    })
}

/// Writes an answer into the learned file under its lock: a new concept is
/// `proposed` with one hit; an answer the file has (same name) gains the new
/// identifiers (up to [`MAX_STORED_IDENTIFIERS`]) and a hit. A name another
/// concept owns (in the loaded layers or the file) is left alone. Returns the
/// name and the identifiers it gained, or `None` when nothing was written.
pub fn record_answer(
    path: &std::path::Path,
    lesson: &AnswerLesson,
    known: &Thesaurus,
    from: &Provenance,
) -> Result<Option<(String, Vec<String>)>, StoreError> {
    store::update(path, |doc| {
        let name = &lesson.name;
        let old = doc.provenance(name).cloned();
        let is_answer = old
            .as_ref()
            .is_some_and(|m| m.contains_key(file::ANSWER_KEY));
        if !is_answer && !filter::free_for(name, name, known, doc) {
            return Ok((None, false));
        }
        let mut ids = file::string_list(old.as_ref().and_then(|m| m.get(file::ANSWER_KEY)));
        let mut gained = Vec::new();
        for id in &lesson.identifiers {
            if ids.len() >= MAX_STORED_IDENTIFIERS {
                break;
            }
            if !ids.iter().any(|o| key(o) == key(id)) {
                ids.push(id.clone());
                gained.push(id.clone());
            }
        }
        let date = store::now_utc();
        let id = doc.id_of(name).unwrap_or_else(|| doc.max_id() + 1);
        doc.map(name, id, name);
        let mut meta = match old {
            Some(old) => helped(old, &date),
            None => taught(id, &date, from),
        };
        meta.insert(file::TRIGGER_KEY.into(), json!(lesson.trigger));
        meta.insert(file::ANSWER_KEY.into(), json!(ids));
        doc.set_provenance(name, meta);
        Ok((Some((name.clone(), gained)), true))
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn definitions_come_first_then_compound_identifiers() {
        let lines: Vec<&[u8]> = vec![
            b"        self.register_blueprint(bp, url_prefix=prefix)",
            b"    def mount(self, app: App, options: dict) -> None:",
            b"    return self",
        ];
        assert_eq!(
            identifiers_on(&lines),
            vec!["mount", "register_blueprint", "url_prefix"]
        );
    }

    #[test]
    fn only_identifiers_that_carry_the_query_or_are_defined_on_a_chosen_line_answer() {
        let q = crate::query::analyze("hiding secret headers in debug logs");
        let line: &[u8] =
            b"        f.debug_struct(\"Request\").field(\"url\", &self.url).finish_non_exhaustive()";
        assert_eq!(answering(&[line], &[line], &q), ["debug_struct"]);
        // A definition the chosen line sits in answers only if it carries
        // the query; one on the chosen line itself always does.
        let def: &[u8] = b"    def json(self, **kwargs):";
        let raise: &[u8] = b"            raise";
        let q = crate::query::analyze("raise an exception for an error status");
        assert!(answering(&[def], &[raise], &q).is_empty());
        assert_eq!(answering(&[def], &[def], &q), ["json"]);
        // Scaffolding carries nothing: `fix` is the change, not the code.
        let q = crate::query::analyze("fix the cookie jar");
        let line: &[u8] = b"    fix_later = True";
        assert!(answering(&[line], &[line], &q).is_empty());
    }

    #[test]
    fn keywords_short_words_and_repeats_are_left_out() {
        let lines: Vec<&[u8]> = vec![
            b"fn new() -> Self { Self { max_len: 0 } }",
            b"let maxLen = cfg.max_len; // MAX_LEN",
        ];
        // `new` is a keyword; `let maxLen` defines a name (first, as
        // spelled there); `max_len` and `MAX_LEN` repeat it.
        assert_eq!(identifiers_on(&lines), vec!["maxLen"]);
    }

    #[test]
    fn at_most_a_few_identifiers() {
        let line = b"a_b1 c_d1 e_f1 g_h1 i_j1 k_l1";
        assert!(identifiers_on(&[line.as_slice()]).len() <= MAX_IDENTIFIERS);
    }

    #[test]
    fn common_identifiers_are_dropped() {
        let ids = vec!["self_check".to_string(), "find_best_app".to_string()];
        assert_eq!(drop_general(ids, &[40, 2], 100), vec!["find_best_app"]);
    }

    #[test]
    fn a_lesson_is_named_and_triggered_by_the_content_words() {
        let q = query::analyze("where are blueprints mounted on the app");
        let l = lesson(&q, vec!["register_blueprint".into()]).unwrap();
        assert_eq!(l.name, "blueprints mounted app");
        let mut want: Vec<String> = ["blueprints", "mounted", "app"]
            .iter()
            .map(|w| query::stem(w))
            .collect();
        want.sort();
        assert_eq!(l.trigger, want);
        assert!(lesson(&q, Vec::new()).is_none());
    }

    #[test]
    fn recording_merges_identifiers_and_counts_hits() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.json");
        let from = Provenance {
            query: "where are blueprints mounted".into(),
            model: Some("openai/mock".into()),
        };
        let q = query::analyze("where are blueprints mounted");
        let first = lesson(&q, vec!["register_blueprint".into()]).unwrap();
        let known = Thesaurus::new();
        let written = record_answer(&path, &first, &known, &from).unwrap();
        assert_eq!(
            written,
            Some((
                "blueprints mounted".into(),
                vec!["register_blueprint".into()]
            ))
        );
        let again = lesson(&q, vec!["registerBlueprint".into(), "mount_app".into()]).unwrap();
        let written = record_answer(&path, &again, &known, &from).unwrap();
        assert_eq!(
            written,
            Some(("blueprints mounted".into(), vec!["mount_app".into()]))
        );
        let t = thesaurus::file::read(&path, thesaurus::Layer::Learned).unwrap();
        let stems = query::content_stems(&query::analyze("how does flask mount blueprints").terms);
        let answers = t.answers_for(&stems);
        assert_eq!(answers.len(), 1, "a paraphrase fires it");
        assert_eq!(
            answers[0].identifiers,
            vec!["register_blueprint", "mount_app"]
        );
        assert_eq!(
            answers[0].standing,
            thesaurus::Standing::Accepted,
            "two hits"
        );
        let other = query::content_stems(&query::analyze("how are blueprints named").terms);
        assert!(
            t.answers_for(&other).is_empty(),
            "another question does not"
        );
    }

    #[test]
    fn a_name_another_concept_owns_is_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.json");
        let known = crate::thesaurus::builtin::load();
        let l = AnswerLesson {
            name: "config".into(),
            trigger: vec!["config".into()],
            identifiers: vec!["load_settings".into()],
            settled: false,
        };
        let from = Provenance {
            query: "config".into(),
            model: None,
        };
        assert_eq!(record_answer(&path, &l, &known, &from).unwrap(), None);
    }
}
