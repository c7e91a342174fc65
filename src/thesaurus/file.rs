//! Thesaurus files: Terraphim's JSON (`{"name", "data": {synonym: {"id", "nterm",
//! …}}}`), its legacy flat form (`{synonym: {"id", "nterm"}}`), and a folder of
//! Markdown concept files (file name = concept, `# Heading` = display name,
//! `synonyms:: a, b, c`).
//!
//! Reading only: a file that cannot be read or parsed (a FIFO, a device, a
//! planted symlink, over the size cap: `own_file`) is an error with the path
//! and the reason, for the caller to report and skip; nothing here ever
//! writes or repairs a file. Unknown keys are ignored.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{bail, Context};
use serde::Deserialize;
use serde_json::Value;

use super::{Answer, Concept, Layer, Standing, Thesaurus};
use crate::own_file::{self, Follow};

/// Files larger than this are not thesauri (a mistyped path to a data dump):
/// refuse them instead of parsing hundreds of megabytes. The cap of every
/// file kgrep reads for itself (`own_file`).
pub const MAX_THESAURUS_BYTES: u64 = own_file::MAX_BYTES;

/// Whether a layer's file is read through a symlink: a `--thesaurus PATH`
/// the user named is; a project's `.kgrep/` files and the learned file
/// (which `learn::store` replaces, never writes through) are not.
pub fn follow(layer: &Layer) -> Follow {
    match layer {
        Layer::User | Layer::Builtin => Follow::Yes,
        Layer::Learned | Layer::Project => Follow::No,
    }
}

/// One synonym's entry in Terraphim's format (`{"id", "nterm"}`); other keys
/// are ignored. The one reader of an entry, for the thesaurus and for the
/// learned file's store (`learn::store`).
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
pub struct Normalized {
    pub id: u64,
    /// The concept's name, as written (compared lowercased).
    pub nterm: String,
}

impl Normalized {
    /// Reads one entry.
    pub fn read(entry: &Value) -> Result<Normalized, serde_json::Error> {
        Normalized::deserialize(entry)
    }

    /// Writes one entry.
    pub fn to_value(&self) -> Value {
        serde_json::json!({"id": self.id, "nterm": self.nterm})
    }

    /// The concept's name, lowercased (how concepts are compared).
    pub fn concept(&self) -> String {
        self.nterm.to_lowercase()
    }
}

/// Reads a thesaurus from a JSON file or a Markdown folder: a regular file
/// of at most [`MAX_THESAURUS_BYTES`] (`own_file::read`: a FIFO or a device
/// is refused at once), through a symlink only as [`follow`] says.
pub fn read(path: &Path, layer: Layer) -> anyhow::Result<Thesaurus> {
    let follow = follow(&layer);
    let is_dir = match follow {
        Follow::Yes => path.is_dir(),
        Follow::No => std::fs::symlink_metadata(path).is_ok_and(|m| m.is_dir()),
    };
    if is_dir {
        return read_markdown_dir(path, layer);
    }
    let text = own_file::read_to_string(path, follow, MAX_THESAURUS_BYTES)
        .with_context(|| format!("cannot read thesaurus {}", path.display()))?;
    parse_json(&text, layer).with_context(|| format!("invalid thesaurus {}", path.display()))
}

/// Parses Terraphim JSON or its legacy flat form.
pub fn parse_json(text: &str, layer: Layer) -> anyhow::Result<Thesaurus> {
    let value: Value = serde_json::from_str(text).map_err(|e| anyhow::anyhow!("{e}"))?;
    let Value::Object(top) = value else {
        bail!("expected a JSON object");
    };
    parse_object(&top, layer)
}

/// Reads a parsed document (its top-level object): what [`parse_json`] does
/// after parsing the text, for a caller that keeps the JSON (`learn::store`).
pub fn parse_object(
    top: &serde_json::Map<String, Value>,
    layer: Layer,
) -> anyhow::Result<Thesaurus> {
    let legacy;
    let data = match top.get("data") {
        Some(Value::Object(data)) => data,
        Some(_) => bail!("\"data\" must be an object of synonyms"),
        None => {
            legacy = legacy_entries(top);
            &legacy
        }
    };
    let mut by_concept: BTreeMap<(u64, String), Vec<String>> = BTreeMap::new();
    for (synonym, entry) in data {
        let n = Normalized::read(entry).map_err(|e| anyhow::anyhow!("synonym {synonym:?}: {e}"))?;
        by_concept
            .entry((n.id, n.concept()))
            .or_default()
            .push(synonym.clone());
    }
    let standings = learned_standings(top);
    let mut t = Thesaurus::new();
    for answer in learned_answers(top, &standings) {
        t.add_answer(answer);
    }
    for ((id, name), synonyms) in by_concept {
        let learned = standings.get(&name).copied();
        t.add(
            Concept {
                id,
                name,
                layer: layer.clone(),
                learned,
            },
            &synonyms,
            false,
        );
    }
    Ok(t)
}

/// Where kgrep keeps a learned concept's provenance: `"kgrep": {"concepts":
/// {name: {"status": "proposed" | "accepted", …}}}`.
pub const PROVENANCE_KEY: &str = "kgrep";
pub const CONCEPTS_KEY: &str = "concepts";

/// The provenance entries (`name`, its object) of the concepts kgrep learned
/// into this file; none when the file has no provenance.
fn learned_concepts(
    top: &serde_json::Map<String, Value>,
) -> impl Iterator<Item = (&String, &Value)> {
    top.get(PROVENANCE_KEY)
        .and_then(|k| k.get(CONCEPTS_KEY))
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
}

/// The standing of each concept kgrep learned into this file (by name).
fn learned_standings(top: &serde_json::Map<String, Value>) -> BTreeMap<String, Standing> {
    learned_concepts(top)
        .map(|(name, meta)| {
            let standing = meta
                .get("status")
                .and_then(Value::as_str)
                .and_then(Standing::parse)
                .unwrap_or(Standing::Proposed);
            (name.to_lowercase(), standing)
        })
        .collect()
}

/// The learned answers of a file: concepts whose provenance has a
/// `"trigger"` (stems) and an `"answer"` (identifiers), both lists of strings.
/// Anything else in those keys is ignored (a hand-edited file loses the
/// answer, not the concept).
fn learned_answers(
    top: &serde_json::Map<String, Value>,
    standings: &BTreeMap<String, Standing>,
) -> Vec<Answer> {
    learned_concepts(top)
        .filter_map(|(name, meta)| {
            let name = name.to_lowercase();
            let trigger = string_list(meta.get(TRIGGER_KEY));
            let identifiers = string_list(meta.get(ANSWER_KEY));
            (!trigger.is_empty() && !identifiers.is_empty()).then(|| Answer {
                standing: standings.get(&name).copied().unwrap_or(Standing::Proposed),
                name,
                trigger,
                identifiers,
            })
        })
        .collect()
}

/// The strings of a JSON array (anything else in it, or no array: none).
pub fn string_list(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// Provenance keys of a learned answer (`learned_answers`).
pub const TRIGGER_KEY: &str = "trigger";
pub const ANSWER_KEY: &str = "answer";

/// The legacy form: every top-level key except kgrep's metadata is a synonym.
fn legacy_entries(top: &serde_json::Map<String, Value>) -> serde_json::Map<String, Value> {
    top.iter()
        .filter(|(k, v)| k.as_str() != PROVENANCE_KEY && k.as_str() != "name" && v.is_object())
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

/// Reads every `*.md` file of a folder, in file-name order (ids follow it).
pub fn read_markdown_dir(dir: &Path, layer: Layer) -> anyhow::Result<Thesaurus> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read thesaurus folder {}", dir.display()))?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "md") && p.is_file())
        .collect();
    files.sort();
    let mut t = Thesaurus::new();
    for (i, path) in files.iter().enumerate() {
        let text = own_file::read_to_string(path, follow(&layer), MAX_THESAURUS_BYTES)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().to_lowercase())
            .unwrap_or_default();
        let (display, synonyms) = parse_markdown(&text);
        let mut all = synonyms;
        all.extend(display);
        t.add(
            Concept {
                id: i as u64 + 1,
                name: stem,
                layer: layer.clone(),
                learned: None,
            },
            &all,
            false,
        );
    }
    Ok(t)
}

/// A Markdown concept file: the first `# Heading` and the `synonyms::` list.
pub fn parse_markdown(text: &str) -> (Option<String>, Vec<String>) {
    let mut display = None;
    let mut synonyms = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if display.is_none() {
            if let Some(h) = line.strip_prefix("# ") {
                display = Some(h.trim().to_string());
                continue;
            }
        }
        let lower = line.to_ascii_lowercase();
        if let Some(rest) = lower.strip_prefix("synonyms::") {
            let start = line.len() - rest.len();
            synonyms.extend(
                line[start..]
                    .split(',')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(str::to_string),
            );
        }
    }
    (display, synonyms)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn terraphim_json() {
        let t = parse_json(
            r#"{"name": "eng", "data": {
                "cfg": {"id": 4, "nterm": "configuration", "display_value": "Configuration", "url": "x"},
                "settings": {"id": 4, "nterm": "configuration"},
                "jwt": {"id": 9, "nterm": "json web token"}},
              "kgrep": {"learned": []}, "future_key": 1}"#,
            Layer::User,
        )
        .unwrap();
        let c = t.lookup("settings").unwrap();
        assert_eq!(t.lookup("cfg"), Some(c));
        assert_eq!(t.lookup("configuration"), Some(c));
        assert_eq!(t.concept(c).unwrap().id, 4);
        assert!(t.lookup("jwt").is_some());
    }

    #[test]
    fn kgrep_provenance_marks_learned_concepts() {
        let t = parse_json(
            r#"{"data": {"zib": {"id": 1, "nterm": "gronk"}, "wob": {"id": 2, "nterm": "florp"},
                         "cfgx": {"id": 3, "nterm": "handmade"}},
                "kgrep": {"concepts": {"gronk": {"status": "proposed"},
                                       "florp": {"status": "accepted"}}}}"#,
            Layer::Learned,
        )
        .unwrap();
        let standing = |w: &str| t.concept(t.lookup(w).unwrap()).unwrap().learned;
        assert_eq!(standing("zib"), Some(Standing::Proposed));
        assert_eq!(standing("wob"), Some(Standing::Accepted));
        assert_eq!(standing("cfgx"), None);
    }

    #[test]
    fn legacy_flat_json_keeps_ids() {
        let t = parse_json(r#"{"ctx": {"id": 12, "nterm": "context"}}"#, Layer::Project).unwrap();
        let c = t.lookup("context").unwrap();
        assert_eq!(t.concept(c).unwrap().id, 12);
    }

    #[test]
    fn corrupt_json_is_an_error_naming_the_problem() {
        assert!(parse_json("{", Layer::User).is_err());
        assert!(parse_json("[1]", Layer::User).is_err());
        let e = parse_json(r#"{"data": {"x": {"nterm": "y"}}}"#, Layer::User).unwrap_err();
        assert!(format!("{e:#}").contains("\"x\""), "{e:#}");
    }

    #[test]
    fn markdown_folder() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("retry.md"),
            "# Retry\n\nsynonyms:: reattempt, try again\n",
        )
        .unwrap();
        std::fs::write(
            dir.path().join("Widget.md"),
            "# The Widget\nno synonyms here\n",
        )
        .unwrap();
        std::fs::write(dir.path().join("notes.txt"), "synonyms:: ignored\n").unwrap();
        let t = read(dir.path(), Layer::Project).unwrap();
        assert_eq!(t.concept_count(), 2);
        assert_eq!(t.lookup("try again"), t.lookup("retry"));
        assert!(
            t.lookup("widget").is_some(),
            "a file without synonyms still defines its concept"
        );
        assert!(t.lookup("the widget").is_some());
        assert!(t.lookup("ignored").is_none());
    }

    #[test]
    fn missing_file_is_an_error() {
        assert!(read(Path::new("/nonexistent/kgrep.json"), Layer::User).is_err());
    }
}
