//! The concept thesaurus: a small knowledge graph of software concepts and the
//! words code uses for them (`configuration`: cfg, conf, settings, …).
//!
//! Owns the in-memory model (concepts, synonyms, which layer each came from),
//! layering (embedded → learned → project → `--thesaurus`, later layers win for a
//! synonym they redefine), and recognising concepts in a query. Reading and
//! writing files is `file`; the embedded data is `builtin.txt`. Does not own
//! matching in code (`search`) or weighting (`score`).

pub mod builtin;
pub mod file;

use crate::paths;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::{messages, query};

/// Where a concept came from; later layers override earlier ones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Layer {
    /// Compiled into the binary.
    Builtin,
    /// Learned from a model (`$XDG_DATA_HOME/kgrep/thesaurus.json`).
    Learned,
    /// The project's `.kgrep/` folder.
    Project,
    /// A `--thesaurus PATH`.
    User,
}

/// One concept.
#[derive(Clone, Debug, PartialEq)]
pub struct Concept {
    /// Stable id within its layer's file (Terraphim's `id`).
    pub id: u64,
    /// The normalised term (Terraphim's `nterm`), lowercase.
    pub name: String,
    /// Where it came from.
    pub layer: Layer,
    /// Set when its file's `"kgrep"` provenance says kgrep learned it.
    pub learned: Option<Standing>,
}

/// A learned concept's standing: proposed by a model until it helped again or
/// the user accepted it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Standing {
    /// Taught once; its synonyms count for less than hand-written ones.
    Proposed,
    /// Helped again, or accepted by the user: full synonym weight.
    Accepted,
}

impl Standing {
    /// The name in the file and in `--thesaurus-list`.
    pub fn name(self) -> &'static str {
        match self {
            Standing::Proposed => "proposed",
            Standing::Accepted => "accepted",
        }
    }

    /// Parses a file's `status` value.
    pub fn parse(s: &str) -> Option<Standing> {
        match s {
            "proposed" => Some(Standing::Proposed),
            "accepted" => Some(Standing::Accepted),
            _ => None,
        }
    }
}

/// Synonyms longer than this many words are not phrases code uses.
pub const MAX_SYNONYM_WORDS: usize = 4;

/// Concepts and their synonyms, with lookup by phrase and by stem.
#[derive(Clone, Debug, Default)]
pub struct Thesaurus {
    concepts: Vec<Concept>,
    /// Every synonym (the concept's own name included) of each concept.
    synonyms: Vec<Vec<String>>,
    /// Normalised synonym → concept index.
    by_phrase: HashMap<String, usize>,
    /// Stem of a one-word synonym → concept index (`retries` finds `retry`).
    by_stem: HashMap<String, usize>,
    /// Stem of a verb family member → the other members (`builtin::families`).
    related: HashMap<String, Vec<String>>,
    /// Learned answers: which identifiers answered a query, by its words.
    answers: Vec<Answer>,
}

/// A learned answer (`learn::record_answer`): the model once chose, and
/// kgrep verified, lines holding `identifiers` for a query whose content
/// words had the stems `trigger`. A later query sharing those words, in any
/// order, searches the identifiers too.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// The learned concept's name (its provenance is under it).
    pub name: String,
    pub standing: Standing,
    /// Stems of the content words of the query that taught it.
    pub trigger: Vec<String>,
    /// Identifiers on the chosen lines, definitions first, as spelled.
    pub identifiers: Vec<String>,
}

impl Answer {
    /// Whether a query with these content-word stems asks what this answer
    /// answered: every trigger stem is in the query (all but one when the
    /// trigger has three or more), and they make up at least half of the
    /// query's own, so a long query sharing one word does not fire it.
    pub fn fires_for(&self, stems: &[String]) -> bool {
        if self.trigger.is_empty() || stems.is_empty() {
            return false;
        }
        let shared = self.trigger.iter().filter(|t| stems.contains(t)).count();
        let slack = usize::from(self.trigger.len() >= 3);
        let mut distinct: Vec<&String> = stems.iter().collect();
        distinct.sort();
        distinct.dedup();
        shared + slack >= self.trigger.len() && 2 * shared >= distinct.len()
    }
}

/// A concept found in a query: which words it covered.
#[derive(Clone, Debug, PartialEq)]
pub struct QueryConcept {
    /// Index of the concept in the thesaurus.
    pub concept: usize,
    /// Position of the first query word it covers and how many words.
    pub start: usize,
    pub len: usize,
}

impl Thesaurus {
    /// An empty thesaurus.
    pub fn new() -> Thesaurus {
        Thesaurus::default()
    }

    /// Number of concepts.
    pub fn concept_count(&self) -> usize {
        self.concepts.len()
    }

    /// Number of synonyms, concept names included.
    pub fn synonym_count(&self) -> usize {
        self.by_phrase.len()
    }

    /// The concept at an index.
    pub fn concept(&self, index: usize) -> Option<&Concept> {
        self.concepts.get(index)
    }

    /// All synonyms of a concept (its name included), as spelled: phrases
    /// lowercase, a one-token synonym as written (`registerBlueprint`).
    pub fn synonyms(&self, index: usize) -> &[String] {
        self.synonyms.get(index).map_or(&[], Vec::as_slice)
    }

    /// Adds a concept with its synonyms. A synonym already mapped to another
    /// concept is re-pointed when `override_existing` (a later layer), kept
    /// otherwise (first mapping wins within a layer). Returns the concept index.
    pub fn add(&mut self, concept: Concept, synonyms: &[String], override_existing: bool) -> usize {
        let index = match self.find_same(&concept) {
            Some(i) => i,
            None => {
                self.concepts.push(concept.clone());
                self.synonyms.push(Vec::new());
                self.concepts.len() - 1
            }
        };
        let name = concept.name.clone();
        for syn in std::iter::once(&name).chain(synonyms) {
            let (Some(key), Some(spelled)) = (normalize(syn), spelling(syn)) else {
                continue;
            };
            self.map(key, spelled, index, override_existing);
        }
        index
    }

    /// The concept with the same name and layer, so a layer's entries merge.
    fn find_same(&self, concept: &Concept) -> Option<usize> {
        self.concepts
            .iter()
            .position(|c| c.name == concept.name && c.layer == concept.layer)
    }

    /// Maps a synonym (`key`, normalised) to a concept, keeping it as
    /// `spelled` in the concept's list (an identifier keeps its case, so
    /// `registerBlueprint` can still be split into its words).
    fn map(&mut self, key: String, spelled: String, index: usize, override_existing: bool) {
        if let Some(&old) = self.by_phrase.get(&key) {
            if old == index || !override_existing {
                return;
            }
            self.synonyms[old].retain(|s| normalize(s).as_deref() != Some(key.as_str()));
        }
        if !key.contains(' ') {
            let stem = query::stem(&key);
            if override_existing || !self.by_stem.contains_key(&stem) {
                self.by_stem.insert(stem, index);
            }
        }
        self.synonyms[index].push(spelled);
        self.by_phrase.insert(key, index);
    }

    /// Adds a verb family: each member's stem relates it to the others.
    pub fn add_family(&mut self, members: &[String]) {
        for m in members {
            let others = self.related.entry(query::stem(m)).or_default();
            for o in members.iter().filter(|o| *o != m) {
                if !others.contains(o) {
                    others.push(o.clone());
                }
            }
        }
    }

    /// The other members of the verb families of a word, by its stem.
    pub fn related(&self, stem: &str) -> &[String] {
        self.related.get(stem).map_or(&[], Vec::as_slice)
    }

    /// Adds a learned answer; one of the same name is replaced.
    pub fn add_answer(&mut self, answer: Answer) {
        self.answers.retain(|a| a.name != answer.name);
        self.answers.push(answer);
    }

    /// The learned answers a query with these content-word stems asks for.
    pub fn answers_for(&self, stems: &[String]) -> Vec<&Answer> {
        self.answers.iter().filter(|a| a.fires_for(stems)).collect()
    }

    /// Adds every concept of `other` as a later layer: its synonyms win.
    pub fn overlay(&mut self, other: &Thesaurus) {
        for answer in &other.answers {
            self.add_answer(answer.clone());
        }
        for (i, concept) in other.concepts.iter().enumerate() {
            self.add(concept.clone(), &other.synonyms[i], true);
        }
        for (stem, others) in &other.related {
            let mine = self.related.entry(stem.clone()).or_default();
            for o in others {
                if !mine.contains(o) {
                    mine.push(o.clone());
                }
            }
        }
    }

    /// The concept a phrase (a synonym, or one inflected word) stands for.
    pub fn lookup(&self, phrase: &str) -> Option<usize> {
        let key = normalize(phrase)?;
        if let Some(&i) = self.by_phrase.get(&key) {
            return Some(i);
        }
        if key.contains(' ') {
            return None;
        }
        self.by_stem.get(&query::stem(&key)).copied()
    }

    /// Concepts in a sequence of lowercase query words, longest phrase first,
    /// left to right, each word covered at most once.
    pub fn find_in(&self, words: &[String]) -> Vec<QueryConcept> {
        let mut out = Vec::new();
        let mut i = 0;
        while i < words.len() {
            let longest = (1..=MAX_SYNONYM_WORDS.min(words.len() - i))
                .rev()
                .find_map(|len| {
                    let phrase = words[i..i + len].join(" ");
                    let found = if len == 1 {
                        self.lookup(&phrase)
                    } else {
                        self.by_phrase.get(&phrase).copied()
                    };
                    found.map(|c| (c, len))
                });
            match longest {
                Some((concept, len)) => {
                    out.push(QueryConcept {
                        concept,
                        start: i,
                        len,
                    });
                    i += len;
                }
                None => i += 1,
            }
        }
        out
    }
}

/// Where the layers are, as resolved from flags and environment.
#[derive(Clone, Debug, Default)]
pub struct LayerPaths {
    /// Use the embedded thesaurus (off with `--no-builtin-thesaurus`).
    pub builtin: bool,
    /// The learned file, `$XDG_DATA_HOME/kgrep/thesaurus.json`.
    pub learned: Option<PathBuf>,
    /// Folders whose `.kgrep/thesaurus.json` or `.kgrep/kg/` are project layers.
    pub project_roots: Vec<PathBuf>,
    /// `--thesaurus PATH`, in order.
    pub extra: Vec<PathBuf>,
    /// The query's words: only the embedded concepts that could match them
    /// are built (start-up time). `None` builds them all.
    pub focus: Option<Vec<String>>,
}

/// The folders whose `.kgrep/` is a project layer: the current directory,
/// and a directory given as the only path (`kgrep "q" ../other-repo`) when it
/// is another directory.
pub fn project_roots(cwd: &Path, given: &[PathBuf]) -> Vec<PathBuf> {
    let mut roots = vec![cwd.to_path_buf()];
    if let [only] = given {
        if only.is_dir() && only.canonicalize().ok() != cwd.canonicalize().ok() {
            roots.push(only.clone());
        }
    }
    roots
}

/// Builds the layered thesaurus. A missing optional file is fine; a corrupt or
/// unreadable one is reported once and skipped, never rewritten. A
/// `--thesaurus PATH` that cannot be used is an error (exit 2) instead of a
/// warning: the user named it.
pub fn load_layers(paths: &LayerPaths) -> Thesaurus {
    let mut t = if paths.builtin {
        builtin::load_focused(paths.focus.as_deref())
    } else {
        Thesaurus::new()
    };
    if let Some(learned) = paths.learned.as_deref().filter(|p| p.exists()) {
        overlay_file(&mut t, learned, Layer::Learned);
    }
    for root in &paths.project_roots {
        for candidate in [paths::project_thesaurus(root), paths::project_kg(root)] {
            if candidate.exists() {
                overlay_file(&mut t, &candidate, Layer::Project);
            }
        }
    }
    for extra in &paths.extra {
        overlay_file(&mut t, extra, Layer::User);
    }
    t
}

fn overlay_file(t: &mut Thesaurus, path: &Path, layer: Layer) {
    let learnable = matches!(layer, Layer::Learned | Layer::Project);
    let named = matches!(layer, Layer::User);
    match file::read(path, layer) {
        Ok(layer) => t.overlay(&layer),
        Err(err) if named => report_named(path, &err),
        Err(err) => warn_unusable(path, &err, learnable),
    }
}

/// Checks that every `--thesaurus PATH` can be read, for runs that load no
/// thesaurus (literal and regex queries): a named input that is missing is an
/// error there too, as a missing path argument is.
pub fn check_named(paths: &[PathBuf]) {
    for path in paths {
        if let Err(err) = std::fs::metadata(path) {
            let err = anyhow::Error::new(err)
                .context(format!("cannot read thesaurus {}", path.display()));
            report_named(path, &err);
        }
    }
}

/// A `--thesaurus PATH` the user named that cannot be used: an input error
/// (exit 2), reported once; the other layers are still used.
fn report_named(path: &Path, err: &anyhow::Error) {
    if first_report(path) {
        messages::error(&format!("--thesaurus: {err:#}"));
    } else {
        messages::set_errored();
    }
}

/// Whether this is the first report about `path` in this process (layers are
/// loaded twice by a run that learns).
fn first_report(path: &Path) -> bool {
    static REPORTED: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());
    let mut reported = REPORTED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if reported.iter().any(|p| p == path) {
        return false;
    }
    reported.push(path.to_path_buf());
    true
}

/// Says once per process that a thesaurus file is unusable and skipped, with
/// how to recover (`learnable`: a file kgrep may learn into); the file itself
/// is never touched.
pub fn warn_unusable(path: &Path, err: &anyhow::Error, learnable: bool) {
    if !first_report(path) {
        return;
    }
    let hint = if learnable {
        "; nothing is learned into it until it is fixed, or moved aside to start a new one"
    } else {
        ""
    };
    messages::warn(&format!(
        "{err:#}; skipping it (the file was left unchanged{hint})"
    ));
}

/// Lowercases, trims and collapses inner whitespace; `None` for empty or
/// overlong phrases.
/// How a synonym is kept in a concept's list: a one-token synonym as written
/// (an identifier's case says where its words begin), a phrase as
/// [`normalize`] makes it.
pub fn spelling(phrase: &str) -> Option<String> {
    let trimmed = phrase.trim();
    if !trimmed.is_empty() && !trimmed.contains(char::is_whitespace) {
        return Some(trimmed.to_string());
    }
    normalize(phrase)
}

pub fn normalize(phrase: &str) -> Option<String> {
    let words: Vec<String> = phrase.split_whitespace().map(str::to_lowercase).collect();
    if words.is_empty() || words.len() > MAX_SYNONYM_WORDS {
        return None;
    }
    Some(words.join(" "))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn concept(id: u64, name: &str, layer: Layer) -> Concept {
        Concept {
            id,
            name: name.into(),
            layer,
            learned: None,
        }
    }

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn lookup_by_phrase_and_by_stem() {
        let mut t = Thesaurus::new();
        t.add(
            concept(1, "retry", Layer::Builtin),
            &strings(&["reattempt", "try again"]),
            false,
        );
        assert_eq!(t.lookup("Retry"), Some(0));
        assert_eq!(t.lookup("retries"), Some(0));
        assert_eq!(t.lookup("  try   again "), Some(0));
        assert_eq!(t.lookup("reattempts"), Some(0));
        assert_eq!(t.lookup("timeout"), None);
        assert_eq!(t.synonym_count(), 3);
    }

    #[test]
    fn first_mapping_wins_within_a_layer_and_later_layers_override() {
        let mut t = Thesaurus::new();
        t.add(
            concept(1, "configuration", Layer::Builtin),
            &strings(&["cfg", "settings"]),
            false,
        );
        t.add(
            concept(2, "preferences", Layer::Builtin),
            &strings(&["settings"]),
            false,
        );
        assert_eq!(t.lookup("settings"), Some(0));
        let mut user = Thesaurus::new();
        user.add(
            concept(7, "preferences", Layer::User),
            &strings(&["settings"]),
            false,
        );
        t.overlay(&user);
        let i = t.lookup("settings").unwrap();
        assert_eq!(t.concept(i).unwrap().layer, Layer::User);
        assert!(!t.synonyms(0).contains(&"settings".to_string()));
    }

    #[test]
    fn finds_longest_phrases_in_a_query() {
        let mut t = Thesaurus::new();
        t.add(
            concept(1, "connection pool", Layer::Builtin),
            &strings(&["conn pool"]),
            false,
        );
        t.add(
            concept(2, "connection", Layer::Builtin),
            &strings(&["conn"]),
            false,
        );
        let words = strings(&[
            "where",
            "is",
            "the",
            "connection",
            "pool",
            "size",
            "and",
            "conn",
        ]);
        let found = t.find_in(&words);
        assert_eq!(
            found,
            vec![
                QueryConcept {
                    concept: 0,
                    start: 3,
                    len: 2
                },
                QueryConcept {
                    concept: 1,
                    start: 7,
                    len: 1
                },
            ]
        );
    }

    #[test]
    fn layers_stack_and_corrupt_files_are_skipped() {
        let dir = tempfile::tempdir().unwrap();
        let project = dir.path().join("proj");
        std::fs::create_dir_all(project.join(".kgrep/kg")).unwrap();
        std::fs::write(
            project.join(".kgrep/kg/widget.md"),
            "# Widget\nsynonyms:: gizmo\n",
        )
        .unwrap();
        let learned = dir.path().join("learned.json");
        std::fs::write(&learned, "{not json").unwrap();
        let extra = dir.path().join("extra.json");
        std::fs::write(
            &extra,
            r#"{"data": {"doohickey": {"id": 1, "nterm": "widget"}}}"#,
        )
        .unwrap();
        let t = load_layers(&LayerPaths {
            builtin: false,
            learned: Some(learned.clone()),
            project_roots: vec![project],
            extra: vec![extra],
            focus: None,
        });
        assert!(t.lookup("gizmo").is_some());
        assert!(t.lookup("doohickey").is_some());
        assert_eq!(std::fs::read_to_string(&learned).unwrap(), "{not json");
    }

    #[test]
    fn a_single_other_directory_is_a_project_root() {
        let cwd = tempfile::tempdir().unwrap();
        let other = tempfile::tempdir().unwrap();
        let file = other.path().join("f.txt");
        std::fs::write(&file, "x").unwrap();
        let here = cwd.path().to_path_buf();
        let there = other.path().to_path_buf();
        assert_eq!(project_roots(&here, &[]), vec![here.clone()]);
        assert_eq!(
            project_roots(&here, std::slice::from_ref(&there)),
            vec![here.clone(), there.clone()]
        );
        // The current directory again, a file, or several paths: cwd only.
        assert_eq!(
            project_roots(&here, std::slice::from_ref(&here)),
            vec![here.clone()]
        );
        assert_eq!(project_roots(&here, &[file]), vec![here.clone()]);
        assert_eq!(
            project_roots(&here, &[there.clone(), there]),
            vec![here.clone()]
        );
    }

    #[test]
    fn normalize_rejects_empty_and_long() {
        assert_eq!(normalize("  A  b "), Some("a b".into()));
        assert_eq!(normalize("   "), None);
        assert_eq!(normalize("a b c d e"), None);
    }
}
