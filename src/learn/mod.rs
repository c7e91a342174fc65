//! The learning loop: what a model taught is kept, so the next similar query
//! is answered offline.
//!
//! After a model expansion led to verified, printed results, the concepts it
//! taught (with only the terms that matched the corpus, plus the query's own
//! words the model tied to them) are written to the learned thesaurus, marked
//! `proposed`. A proposed concept's synonyms weigh less than hand-written ones
//! (`query::PROPOSED_SYNONYM_WEIGHT`); it is `accepted` after it helped
//! again ([`ACCEPT_HITS`]) or when the user accepts it. `manage` holds the
//! `--thesaurus-*` commands.
//!
//! Owns the decisions about what to write (`filter`) and the file (`store`).
//! Does not decide whether a model is called (`fallback`), nor read the
//! thesaurus layers for a search (`thesaurus`).

pub mod answer;
pub mod filter;
pub mod manage;
pub mod settled;
pub mod step;
pub mod store;

use crate::paths;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{json, Map, Value};

use crate::llm;
use crate::query::{self, Origin, Term};
use crate::search::matcher::TermMatcher;
use crate::thesaurus::{self, Standing, Thesaurus};

pub use store::StoreError;

/// Which learned thesaurus a run writes (`--learn-to`, config `learn_to`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum LearnTo {
    /// The user's learned thesaurus, $XDG_DATA_HOME/kgrep/thesaurus.json.
    User,
    /// The project's .kgrep/thesaurus.json (in the current directory).
    Project,
}

/// A concept reaches `accepted` once it has helped this many times (the run
/// that taught it counts as one).
pub const ACCEPT_HITS: u64 = 2;

/// A concept to keep: its name and the terms that earned it.
#[derive(Clone, Debug, PartialEq)]
pub struct Lesson {
    pub name: String,
    pub terms: Vec<String>,
}

/// Where a lesson came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Provenance {
    pub query: String,
    pub model: Option<String>,
}

/// The file learned concepts go to: the user's (`$XDG_DATA_HOME/kgrep/…`,
/// from `dirs`) or the project's `.kgrep/thesaurus.json` under `cwd`. An
/// error when HOME and XDG_DATA_HOME are both unset, or when the project's
/// `.kgrep` is a symlink (`own_file::not_a_linked_dir`).
pub fn target_path(to: LearnTo, cwd: &Path, dirs: &paths::Env) -> anyhow::Result<PathBuf> {
    match to {
        LearnTo::Project => {
            let path = paths::project_thesaurus(cwd);
            crate::own_file::not_a_linked_dir(&cwd.join(paths::PROJECT_DIR))?;
            Ok(path)
        }
        LearnTo::User => dirs
            .learned_thesaurus()
            .ok_or_else(|| anyhow::anyhow!("cannot locate the learned thesaurus: HOME is not set")),
    }
}

/// The lessons of an expansion: each taught concept with the terms that
/// matched the corpus and the query words the model listed as the concept's
/// name or synonyms (so the same words find it again). A concept that names
/// none of the query's words is not a lesson of this query: kept, its name
/// would expand unrelated queries (a model asked about a terminal teaching
/// `file → system`).
pub fn lessons(taught: &[(llm::Concept, Vec<String>)], terms: &[Term]) -> Vec<Lesson> {
    taught
        .iter()
        .filter_map(|(concept, matched)| {
            let stems: Vec<String> = std::iter::once(&concept.name)
                .chain(&concept.synonyms)
                .flat_map(|p| query::words(p))
                .map(|w| query::stem(&w))
                .collect();
            let linked: Vec<String> = terms
                .iter()
                .filter(|t| t.origin == Origin::Query && stems.contains(&t.stem))
                .map(|t| t.text.clone())
                .collect();
            (!linked.is_empty()).then(|| Lesson {
                name: concept.name.clone(),
                terms: matched.iter().cloned().chain(linked).collect(),
            })
        })
        .collect()
}

/// The taught concepts with only the model words that occur in a printed
/// line (as code sub-words, as the search matches them): a word that found
/// nothing the user was shown has not earned a place. A concept left with no
/// word is dropped. `terms` are the run's terms, the model's among them.
pub fn attested(
    taught: &[(llm::Concept, Vec<String>)],
    terms: &[Term],
    printed: &[&[u8]],
) -> Vec<(llm::Concept, Vec<String>)> {
    let keep: Vec<bool> = terms.iter().map(|t| t.origin == Origin::Model).collect();
    let Ok(matcher) = TermMatcher::subset(terms, &keep) else {
        return Vec::new();
    };
    // The model words found on a printed line (the matcher knows no other).
    let shown: std::collections::HashSet<&str> = printed
        .iter()
        .flat_map(|line| matcher.find_all(line))
        .map(|m| terms[m.term].text.as_str())
        .collect();
    taught
        .iter()
        .filter_map(|(concept, words)| {
            let kept: Vec<String> = words
                .iter()
                .filter(|w| shown.contains(w.as_str()))
                .cloned()
                .collect();
            (!kept.is_empty()).then(|| (concept.clone(), kept))
        })
        .collect()
}

/// Writes lessons to the learned file under its lock. A new concept gets the
/// next id and `proposed`; a concept the file has gains the new terms and a
/// hit. Junk and synonyms another concept owns (in `known`, the loaded
/// layers, or in the file) are left out; a lesson left with no term is
/// dropped, as is one whose name already means another concept. Returns each
/// concept written with the terms it gained.
pub fn record(
    path: &Path,
    lessons: &[Lesson],
    known: &Thesaurus,
    from: &Provenance,
) -> Result<Vec<(String, Vec<String>)>, StoreError> {
    write_lessons(path, lessons, known, |_, id, date, old| match old {
        Some(old) => helped(old, date),
        None => taught(id, date, from),
    })
}

/// The provenance of a concept a model just taught: `proposed`, one hit.
fn taught(id: u64, date: &str, from: &Provenance) -> Map<String, Value> {
    let mut meta = Map::new();
    meta.insert("id".into(), json!(id));
    meta.insert("query".into(), json!(from.query));
    meta.insert(
        "model".into(),
        json!(from.model.clone().unwrap_or_default()),
    );
    meta.insert("date".into(), json!(date));
    meta.insert("hits".into(), json!(1));
    meta.insert("status".into(), json!(Standing::Proposed.name()));
    meta
}

/// The shared part of learning and importing: filter, map, then set the
/// provenance `meta_of(name, id, date, old provenance)`.
fn write_lessons(
    path: &Path,
    lessons: &[Lesson],
    known: &Thesaurus,
    mut meta_of: impl FnMut(&str, u64, &str, Option<Map<String, Value>>) -> Map<String, Value>,
) -> Result<Vec<(String, Vec<String>)>, StoreError> {
    store::update(path, |doc| {
        let date = store::now_utc();
        let mut written = Vec::new();
        for lesson in lessons {
            let Some(name) = filter::clean(&lesson.name) else {
                continue;
            };
            if !filter::free_for(&name, &name, known, doc) {
                continue;
            }
            let terms = filter::keepable(&name, &lesson.terms, known, doc);
            let existing = doc.id_of(&name);
            if terms.is_empty() && existing.is_none() {
                continue;
            }
            let id = existing.unwrap_or_else(|| doc.max_id() + 1);
            for term in std::iter::once(&name).chain(&terms) {
                doc.map(term, id, &name);
            }
            let meta = meta_of(&name, id, &date, doc.provenance(&name).cloned());
            doc.set_provenance(&name, meta);
            written.push((name, terms));
        }
        let changed = !written.is_empty();
        Ok((written, changed))
    })
}

/// Imports concepts as `accepted` (the user chose them), with the same
/// filter as learning. Returns each concept written with the terms it gained.
/// `displays` maps a concept's name to its display name (a Markdown file's
/// `# Heading`), kept in the provenance so an export writes it back.
pub fn import(
    path: &Path,
    lessons: &[Lesson],
    known: &Thesaurus,
    source: &str,
    displays: &BTreeMap<String, String>,
) -> Result<Vec<(String, Vec<String>)>, StoreError> {
    write_lessons(path, lessons, known, |name, id, date, old| {
        let display = displays.get(name).cloned();
        let mut meta = old.unwrap_or_else(|| {
            let mut meta = Map::new();
            meta.insert("id".into(), json!(id));
            meta.insert("imported".into(), json!(source));
            meta.insert("date".into(), json!(date));
            meta.insert("hits".into(), json!(0));
            meta
        });
        meta.insert("status".into(), json!(Standing::Accepted.name()));
        if let Some(display) = display {
            meta.insert("display".into(), json!(display));
        }
        meta
    })
}

/// A provenance after one more run the concept helped: a hit, the date, and
/// `accepted` at [`ACCEPT_HITS`].
fn helped(mut meta: Map<String, Value>, date: &str) -> Map<String, Value> {
    let hits = meta.get("hits").and_then(Value::as_u64).unwrap_or(0) + 1;
    meta.insert("hits".into(), json!(hits));
    meta.insert("used".into(), json!(date));
    if hits >= ACCEPT_HITS {
        meta.insert("status".into(), json!(Standing::Accepted.name()));
    }
    meta
}

/// Counts a run in which learned concepts helped without a model (their
/// synonyms were searched and lines printed). Concepts the file does not hold
/// are ignored. Returns the names counted.
pub fn note_helped(path: &Path, names: &[String]) -> Result<Vec<String>, StoreError> {
    store::update(path, |doc| {
        let date = store::now_utc();
        let mut counted = Vec::new();
        for name in names {
            if let Some(old) = doc.provenance(name) {
                let meta = helped(old.clone(), &date);
                doc.set_provenance(name, meta);
                counted.push(name.clone());
            }
        }
        let changed = !counted.is_empty();
        Ok((counted, changed))
    })
}

/// The learned concepts a query's terms came from, with their standing.
pub fn learned_in_query(terms: &[Term], t: &Thesaurus) -> Vec<(String, Standing)> {
    let mut out: Vec<(String, Standing)> = Vec::new();
    for term in terms.iter().filter(|t| t.origin == Origin::Synonym) {
        let Some(name) = term.concept.as_deref() else {
            continue;
        };
        let standing = t
            .lookup(name)
            .and_then(|i| t.concept(i))
            .filter(|c| c.name == name)
            .and_then(|c| c.learned);
        if let Some(standing) = standing {
            if !out.iter().any(|(n, _)| n == name) {
                out.push((name.to_string(), standing));
            }
        }
    }
    out
}

/// Reports a store failure once: a corrupt file with how to recover (shared
/// with the loader's warning), anything else as a warning.
pub fn warn(path: &Path, err: StoreError) {
    match err {
        StoreError::Corrupt(err) => thesaurus::warn_unusable(path, &err, true),
        StoreError::Io(err) => {
            crate::messages::warn(&format!("not learning: {err:#}"));
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn concept(name: &str, synonyms: &[&str]) -> llm::Concept {
        llm::Concept {
            name: name.into(),
            synonyms: synonyms.iter().map(|s| s.to_string()).collect(),
            related: Vec::new(),
        }
    }

    fn provenance() -> Provenance {
        Provenance {
            query: "where is the gronk step".into(),
            model: Some("openai/mock".into()),
        }
    }

    #[test]
    fn lessons_keep_matched_terms_and_the_query_words_the_model_named() {
        let q = query::analyze("where is the gronk step");
        let taught = vec![(
            concept("Gronk", &["gronking", "zibble"]),
            vec!["zibble".into()],
        )];
        let lessons = lessons(&taught, &q.terms);
        assert_eq!(lessons[0].name, "Gronk");
        assert_eq!(lessons[0].terms, vec!["zibble", "gronk"]);
    }

    #[test]
    fn a_concept_naming_no_query_word_is_no_lesson() {
        let q = query::analyze("make clear a noop if not connected to a terminal");
        let taught = vec![
            (concept("file", &["system"]), vec!["system".into()]),
            (concept("terminal", &["tty"]), vec!["tty".into()]),
        ];
        let lessons = lessons(&taught, &q.terms);
        let names: Vec<&str> = lessons.iter().map(|l| l.name.as_str()).collect();
        assert_eq!(names, vec!["terminal"]);
    }

    #[test]
    fn only_words_seen_in_printed_lines_are_attested() {
        let q = query::analyze("where is the gronk step");
        let taught = vec![
            (
                concept("gronk", &["zibble", "wobble"]),
                vec!["zibble".into(), "wobble".into()],
            ),
            (concept("jiggle", &["quux"]), vec!["quux".into()]),
        ];
        let terms = crate::fallback::expand::model_terms(
            &q.terms,
            &[
                concept("gronk", &["zibble", "wobble"]),
                concept("jiggle", &["quux"]),
            ],
        );
        // `zibble` as a code sub-word counts; `wobble` only inside a word
        // (`wobbles` would share its stem, `swobble` does not); `quux` nowhere.
        let printed: Vec<&[u8]> = vec![b"let max_zibbles = 3;", b"swobble()"];
        let kept = attested(&taught, &terms, &printed);
        assert_eq!(kept.len(), 1);
        assert_eq!(kept[0].0.name, "gronk");
        assert_eq!(kept[0].1, vec!["zibble"]);
        assert!(attested(&taught, &terms, &[]).is_empty());
    }

    #[test]
    fn record_assigns_ids_counts_hits_and_accepts() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.json");
        std::fs::write(
            &path,
            r#"{"data": {"wobble": {"id": 7, "nterm": "jiggle"}}, "mine": true}"#,
        )
        .unwrap();
        let known = Thesaurus::new();
        let lesson = |name: &str, terms: &[&str]| Lesson {
            name: name.into(),
            terms: terms.iter().map(|s| s.to_string()).collect(),
        };
        let written = record(
            &path,
            &[
                lesson("gronk", &["zibble", "wobble"]),
                lesson("the", &["zorp"]),
                lesson("empty", &["a", "wobble"]),
            ],
            &known,
            &provenance(),
        )
        .unwrap();
        assert_eq!(written, vec![("gronk".into(), vec!["zibble".into()])]);
        let doc = store::load(&path).unwrap().unwrap();
        assert_eq!(doc.id_of("gronk"), Some(8));
        assert_eq!(doc.mapped("wobble").as_deref(), Some("jiggle"));
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("\"mine\": true"), "{text}");
        let entry = doc
            .entries()
            .into_iter()
            .find(|e| e.name == "gronk")
            .unwrap();
        assert_eq!((entry.status, entry.hits), (Standing::Proposed, 1));
        assert_eq!(entry.query, "where is the gronk step");
        note_helped(&path, &["gronk".into(), "nothing".into()]).unwrap();
        let doc = store::load(&path).unwrap().unwrap();
        let entry = doc
            .entries()
            .into_iter()
            .find(|e| e.name == "gronk")
            .unwrap();
        assert_eq!((entry.status, entry.hits), (Standing::Accepted, 2));
        assert_eq!(doc.id_of("gronk"), Some(8), "ids are stable");
        let t = thesaurus::file::read(&path, thesaurus::Layer::Learned).unwrap();
        let i = t.lookup("zibble").unwrap();
        assert_eq!(t.concept(i).unwrap().learned, Some(Standing::Accepted));
    }
}
