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

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use rust_stemmers::{Algorithm, Stemmer};

use crate::{messages, paths};

/// Longest word stemmed, in bytes; a longer one is its own stem. English
/// words and the words of identifiers are far shorter, and Snowball's
/// English stemmer takes time quadratic in a word's length: a searched file
/// holding one 300,000-letter `yyy…` took four seconds of CPU to stem for a
/// model's vocabulary, a megabyte of it most of a minute.
pub const MAX_STEMMED_BYTES: usize = 64;

/// The English stem of a lowercase word: how the thesaurus relates a word to
/// its inflections (`retries` ~ `retry`), and how `query` and `search` compare
/// words. A word over [`MAX_STEMMED_BYTES`] is its own stem.
pub fn stem(word: &str) -> String {
    if word.len() > MAX_STEMMED_BYTES {
        return word.to_string();
    }
    thread_local! {
        static STEMMER: Stemmer = Stemmer::create(Algorithm::English);
    }
    let stem = STEMMER.with(|s| s.stem(word).into_owned());
    undoubled_short(word, stem)
}

/// Snowball undoubles the consonant a removed `-ed`/`-ing` leaves (`stopped`
/// -> `stop`), which splits a two-letter root from its base form: `added` and
/// `adding` stem to `ad` while `add` (and `addOption`'s `add`) stay `add`,
/// so "when they are added" never matched the code that adds. A two-letter
/// stem whose word goes on with its last letter doubled gets that letter
/// back (`added` -> `add`, `erred` -> `err`); `ads` stays `ad`.
fn undoubled_short(word: &str, stem: String) -> String {
    let (s, w) = (stem.as_bytes(), word.as_bytes());
    if s.len() == 2 && w.len() > 3 && w.starts_with(s) && w[2] == s[1] {
        let last = char::from(s[1]);
        let mut doubled = stem;
        doubled.push(last);
        return doubled;
    }
    stem
}

/// Where a concept came from; later layers override earlier ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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

impl Layer {
    /// The layers from the lowest (the first loaded) to the highest.
    pub const ORDER: [Layer; 4] = [Layer::Builtin, Layer::Learned, Layer::Project, Layer::User];
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
///
/// Every operation that loading repeats (adding a concept, mapping a
/// synonym, adding an answer) is a hash lookup, so loading `n` concepts is
/// linear in `n`: a learned file grows with use, and a scan per concept made
/// a 100k-concept file take minutes to load (issue 28).
#[derive(Clone, Debug, Default)]
pub struct Thesaurus {
    concepts: Vec<Concept>,
    /// (name, layer) → concept index: a layer's entries for one concept merge.
    by_name: HashMap<(String, Layer), usize>,
    /// Every synonym (the concept's own name included) of each concept.
    synonyms: Vec<Vec<String>>,
    /// Normalised synonym → concept index.
    by_phrase: HashMap<String, usize>,
    /// Stem of a one-word synonym → concept index (`retries` finds `retry`),
    /// and the stems of a phrase's words, joined by a space (`content types`
    /// finds `content type`; [`phrase_stem`]).
    by_stem: HashMap<String, usize>,
    /// Stem of a verb family member → the other members (`builtin::families`).
    related: HashMap<String, Vec<String>>,
    /// Learned answers: which identifiers answered a query, by its words.
    answers: Vec<Answer>,
    /// The names in `answers`, so adding one need not scan them.
    answer_names: HashSet<String>,
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

/// A layer as read from its file, before it joins a thesaurus: its
/// concepts (in the file's order, each with its synonyms as listed) and its
/// learned answers.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LayerData {
    pub concepts: Vec<(Concept, Vec<String>)>,
    pub answers: Vec<Answer>,
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

    /// A thesaurus of one layer: within it, the first concept to list a
    /// synonym keeps it.
    pub fn from_layer(data: LayerData) -> Thesaurus {
        let mut t = Thesaurus::new();
        t.reserve(&data);
        for answer in data.answers {
            t.add_answer(answer);
        }
        for (concept, synonyms) in data.concepts {
            t.add(concept, &synonyms, false);
        }
        t
    }

    /// Adds a layer over this thesaurus: what
    /// `self.overlay(&Thesaurus::from_layer(data))` does, without building
    /// and dropping the layer's own thesaurus (most of loading a large
    /// learned file). Within the layer, the first concept to list a synonym
    /// keeps it and entries of one name are one concept; over earlier
    /// layers, the layer's synonyms win.
    pub fn add_layer(&mut self, data: LayerData) {
        self.reserve(&data);
        for answer in data.answers {
            self.add_answer(answer);
        }
        // The layer's concepts (merged by name, in order of first entry),
        // each with the synonyms it keeps within the layer.
        let mut merged: Vec<(Concept, Vec<(String, String)>)> = Vec::new();
        let mut slot_of: HashMap<String, usize> = HashMap::new();
        let mut claimed: HashSet<String> = HashSet::new();
        for (concept, synonyms) in data.concepts {
            let name = concept.name.clone();
            let slot = *slot_of.entry(name.clone()).or_insert(merged.len());
            if slot == merged.len() {
                merged.push((concept, Vec::new()));
            }
            for syn in std::iter::once(&name).chain(&synonyms) {
                let (Some(key), Some(spelled)) = (normalize(syn), spelling(syn)) else {
                    continue;
                };
                if claimed.insert(key.clone()) {
                    merged[slot].1.push((key, spelled));
                }
            }
        }
        for (concept, kept) in merged {
            let name = concept.name.clone();
            let index = self.index_for(concept);
            // A concept's own name is its own, whoever listed it first.
            let own = normalize(&name).zip(spelling(&name));
            for (key, spelled) in own.into_iter().chain(kept) {
                self.map(key, spelled, index, true, true);
            }
        }
    }

    /// Room for a layer's concepts and synonyms, so the maps do not grow
    /// (and rehash) one entry at a time.
    fn reserve(&mut self, data: &LayerData) {
        let concepts = data.concepts.len();
        let synonyms: usize = data.concepts.iter().map(|(_, s)| s.len() + 1).sum();
        self.concepts.reserve(concepts);
        self.synonyms.reserve(concepts);
        self.by_name.reserve(concepts);
        self.by_phrase.reserve(synonyms);
        self.by_stem.reserve(synonyms);
    }

    /// The index of a concept with this name in this layer, added if new.
    fn index_for(&mut self, concept: Concept) -> usize {
        let next = self.concepts.len();
        let index = *self
            .by_name
            .entry((concept.name.clone(), concept.layer))
            .or_insert(next);
        if index == next {
            self.concepts.push(concept);
            self.synonyms.push(Vec::new());
        }
        index
    }

    /// The concepts a learned concept extends: those of the same name in the
    /// layers below its own, the lowest first. Learning writes a model's
    /// synonyms for `configuration` under the embedded concept's own name
    /// (`learn::filter` refuses any other concept's name), and its layer then
    /// owns the word `configuration`; without this, a query holding the word
    /// would lose `config`, `cfg` and `settings` to a model's few words. A
    /// hand-written layer's concept of that name (no `learned` standing)
    /// redefines it instead, as later layers do.
    pub fn extended_by(&self, index: usize) -> Vec<usize> {
        let Some(concept) = self.concepts.get(index).filter(|c| c.learned.is_some()) else {
            return Vec::new();
        };
        Layer::ORDER
            .iter()
            .take_while(|&&layer| layer != concept.layer)
            .filter_map(|&layer| self.by_name.get(&(concept.name.clone(), layer)).copied())
            .collect()
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
        self.add_where(concept, synonyms, override_existing, &|_| true)
    }

    /// [`Thesaurus::add`], where only the synonyms `matchable` holds can be
    /// found by their stem. A focused load (`builtin::load_focused`) passes
    /// the test that keeps a concept line, synonym by synonym: a synonym with
    /// no word that starts as a query word does has no stem a query word
    /// has, and stemming every synonym of every kept line was a third of
    /// start-up. It is still listed and found by its spelling.
    pub fn add_where(
        &mut self,
        concept: Concept,
        synonyms: &[String],
        override_existing: bool,
        matchable: &dyn Fn(&str) -> bool,
    ) -> usize {
        let name = concept.name.clone();
        let index = self.index_for(concept);
        for syn in std::iter::once(&name).chain(synonyms) {
            let (Some(key), Some(spelled)) = (normalize(syn), spelling(syn)) else {
                continue;
            };
            let stemmed = matchable(&key);
            self.map(key, spelled, index, override_existing, stemmed);
        }
        index
    }

    /// Maps a synonym (`key`, normalised) to a concept, keeping it as
    /// `spelled` in the concept's list (an identifier keeps its case, so
    /// `registerBlueprint` can still be split into its words).
    /// Unless `stemmed`, the key is not mapped by its stem (a later layer
    /// that re-points it still is).
    fn map(
        &mut self,
        key: String,
        spelled: String,
        index: usize,
        override_existing: bool,
        stemmed: bool,
    ) {
        use std::collections::hash_map::Entry;
        // One hash of the key; its stem only when it is mapped.
        let stem_of = |key: &str| {
            if key.contains(' ') {
                phrase_stem(key)
            } else {
                stem(key)
            }
        };
        let stem = match self.by_phrase.entry(key) {
            Entry::Occupied(mut entry) => {
                let old = *entry.get();
                if old == index || !override_existing {
                    return;
                }
                let key = entry.key().as_str();
                let stem = stem_of(key);
                self.synonyms[old].retain(|s| normalize(s).as_deref() != Some(key));
                entry.insert(index);
                Some(stem)
            }
            Entry::Vacant(entry) => {
                let stem = stemmed.then(|| stem_of(entry.key()));
                entry.insert(index);
                stem
            }
        };
        match stem.map(|stem| self.by_stem.entry(stem)) {
            Some(Entry::Occupied(mut entry)) if override_existing => {
                entry.insert(index);
            }
            Some(Entry::Occupied(_)) | None => {}
            Some(Entry::Vacant(entry)) => {
                entry.insert(index);
            }
        }
        self.synonyms[index].push(spelled);
    }

    /// Adds a verb family: each member's stem relates it to the others.
    pub fn add_family(&mut self, members: &[String]) {
        for m in members {
            let others = self.related.entry(stem(m)).or_default();
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

    /// Adds a learned answer; one of the same name is replaced (and the
    /// new one goes last, as the latest).
    pub fn add_answer(&mut self, answer: Answer) {
        if !self.answer_names.insert(answer.name.clone()) {
            self.answers.retain(|a| a.name != answer.name);
        }
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

    /// The concept a phrase (a synonym, one inflected word, or a phrase of
    /// inflected words) stands for.
    pub fn lookup(&self, phrase: &str) -> Option<usize> {
        let key = normalize(phrase)?;
        if let Some(&i) = self.by_phrase.get(&key) {
            return Some(i);
        }
        let stemmed = if key.contains(' ') {
            phrase_stem(&key)
        } else {
            stem(&key)
        };
        self.by_stem.get(&stemmed).copied()
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
                    let found = self.lookup(&phrase);
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
    /// The query's content words (`query::content_words`): only the embedded
    /// concepts that could match them are built (start-up time). `None`
    /// builds them all.
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
    add_file_layers(&mut t, paths);
    t
}

/// Adds the layers read from files (learned, project, `--thesaurus`) over
/// `t`, as [`load_layers`] does after the embedded one.
pub fn add_file_layers(t: &mut Thesaurus, paths: &LayerPaths) {
    if let Some(learned) = paths.learned.as_deref().filter(|p| p.exists()) {
        overlay_file(t, learned, Layer::Learned);
    }
    for root in &paths.project_roots {
        let dir = root.join(crate::paths::PROJECT_DIR);
        if let Err(err) = crate::own_file::not_a_linked_dir(&dir) {
            warn_unusable(&dir, &anyhow::Error::new(err), false);
            continue;
        }
        for candidate in [paths::project_thesaurus(root), paths::project_kg(root)] {
            if candidate.exists() {
                overlay_file(t, &candidate, Layer::Project);
            }
        }
    }
    for extra in &paths.extra {
        overlay_file(t, extra, Layer::User);
    }
}

fn overlay_file(t: &mut Thesaurus, path: &Path, layer: Layer) {
    let learnable = matches!(layer, Layer::Learned | Layer::Project);
    let named = matches!(layer, Layer::User);
    match file::read_layer(path, layer) {
        Ok(layer) => t.add_layer(layer),
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
/// The stems of a normalised phrase's words, joined by a space: an
/// inflected phrase (`content types`, `status codes`) finds the concept its
/// listed form names.
fn phrase_stem(phrase: &str) -> String {
    phrase.split(' ').map(stem).collect::<Vec<_>>().join(" ")
}

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
    let trimmed = phrase.trim();
    if !trimmed.is_empty() && !trimmed.contains(char::is_whitespace) {
        // One word (nearly every synonym): no split and join.
        return Some(trimmed.to_lowercase());
    }
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
    fn a_two_letter_root_keeps_its_double_letter() {
        assert_eq!(stem("added"), "add");
        assert_eq!(stem("adding"), "add");
        assert_eq!(stem("add"), "add");
        assert_eq!(stem("adds"), "add");
        assert_eq!(stem("erred"), "err");
        // Other words as Snowball stems them.
        assert_eq!(stem("ads"), "ad");
        assert_eq!(stem("stopped"), "stop");
        assert_eq!(stem("running"), "run");
        assert_eq!(stem("retries"), "retri");
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

    /// A focused load stems only the synonyms a query word could match; the
    /// others are still listed (so expanded) and found as spelled.
    #[test]
    fn a_synonym_left_unstemmed_is_listed_and_found_as_spelled() {
        let mut t = Thesaurus::new();
        t.add_where(
            concept(1, "retry", Layer::Builtin),
            &strings(&["reattempt", "backoff"]),
            false,
            &|key| key != "backoff",
        );
        assert_eq!(t.lookup("retries"), Some(0));
        assert_eq!(t.lookup("reattempts"), Some(0));
        assert_eq!(t.lookup("backoff"), Some(0));
        assert_eq!(t.lookup("backoffs"), None, "not by its stem");
        assert_eq!(t.synonyms(0), strings(&["retry", "reattempt", "backoff"]));
        // A later layer that re-points it maps its stem after all.
        t.add(
            concept(2, "delay", Layer::User),
            &strings(&["backoff"]),
            true,
        );
        assert_eq!(t.lookup("backoffs"), Some(1));
        assert_eq!(t.synonyms(0), strings(&["retry", "reattempt"]));
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
    fn an_inflected_phrase_finds_the_concept_of_its_listed_form() {
        let mut t = Thesaurus::new();
        t.add(
            concept(1, "content type", Layer::Builtin),
            &strings(&["mime type"]),
            false,
        );
        t.add(concept(2, "type", Layer::Builtin), &strings(&[]), false);
        let words = strings(&["their", "content", "types", "and", "mime", "types"]);
        let found: Vec<(usize, usize, usize)> = t
            .find_in(&words)
            .iter()
            .map(|c| (c.concept, c.start, c.len))
            .collect();
        assert_eq!(found, vec![(0, 1, 2), (0, 4, 2)]);
        assert_eq!(t.lookup("Content Types"), Some(0));
        // A word of the phrase alone is its own concept.
        assert_eq!(t.lookup("types"), Some(1));
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

    /// Random layers over a small vocabulary, so synonyms collide within a
    /// layer, across layers and with concept names.
    fn random_layer(rng: &mut proptest::test_runner::TestRng, layer: Layer) -> LayerData {
        use crate::testing::below;
        const WORDS: &[&str] = &[
            "retry",
            "retries",
            "Backoff",
            "wait",
            "delay",
            "cfg",
            "conf",
            "settings",
            "pool",
            "conn pool",
            "try again",
            "  Retry ",
            "cache",
            "caching",
            "evict",
        ];
        let mut data = LayerData::default();
        for _ in 0..below(rng, 12) {
            let name = WORDS[below(rng, WORDS.len())].trim().to_lowercase();
            let synonyms = (0..below(rng, 5))
                .map(|_| WORDS[below(rng, WORDS.len())].to_string())
                .collect();
            let concept = concept(below(rng, 4) as u64, &name, layer);
            data.concepts.push((concept, synonyms));
        }
        if below(rng, 2) == 0 {
            data.answers.push(Answer {
                name: WORDS[below(rng, 3)].to_lowercase(),
                standing: Standing::Proposed,
                trigger: strings(&["wait"]),
                identifiers: strings(&["sleep_for"]),
            });
        }
        data
    }

    /// Everything a lookup can see of a thesaurus.
    fn observed(t: &Thesaurus) -> Vec<String> {
        let mut out = vec![format!("{} {}", t.concept_count(), t.synonym_count())];
        for word in [
            "retry",
            "retrying",
            "backoff",
            "wait",
            "delay",
            "cfg",
            "conf",
            "settings",
            "pool",
            "conn pool",
            "try again",
            "cache",
            "caches",
            "evict",
            "nothing",
        ] {
            let found = t.lookup(word).map(|i| {
                let c = t.concept(i).unwrap();
                format!("{:?} {} {:?}", c.layer, c.name, t.synonyms(i))
            });
            out.push(format!("{word}: {found:?}"));
        }
        let stems = vec!["wait".to_string()];
        out.extend(t.answers_for(&stems).iter().map(|a| format!("{a:?}")));
        out
    }

    #[test]
    fn adding_a_layer_in_one_pass_is_overlaying_its_thesaurus() {
        let mut rng = crate::testing::rng(0x7e5a_0013);
        for _ in 0..400 {
            let base = random_layer(&mut rng, Layer::Builtin);
            let layers: Vec<LayerData> = [Layer::Learned, Layer::User, Layer::User]
                .into_iter()
                .map(|l| random_layer(&mut rng, l))
                .collect();
            let mut two_pass = Thesaurus::from_layer(base.clone());
            let mut one_pass = Thesaurus::from_layer(base);
            for layer in layers {
                two_pass.overlay(&Thesaurus::from_layer(layer.clone()));
                one_pass.add_layer(layer);
            }
            assert_eq!(observed(&one_pass), observed(&two_pass));
        }
    }

    #[test]
    fn a_word_past_the_stemmed_length_is_its_own_stem() {
        assert_eq!(stem("retries"), "retri");
        let longest = format!("{}ies", "y".repeat(MAX_STEMMED_BYTES - 3));
        assert_ne!(stem(&longest), longest);
        // Stemming this took seconds (quadratic in its length).
        let planted = "y".repeat(300_000);
        assert_eq!(stem(&planted), planted);
        let long = format!("{}ies", "y".repeat(MAX_STEMMED_BYTES));
        assert_eq!(stem(&long), long);
    }

    #[test]
    fn normalize_rejects_empty_and_long() {
        assert_eq!(normalize("  A  b "), Some("a b".into()));
        assert_eq!(normalize("   "), None);
        assert_eq!(normalize("a b c d e"), None);
    }
}
