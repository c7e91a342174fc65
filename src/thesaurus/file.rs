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

use super::{Answer, Concept, Layer, LayerData, Standing, Thesaurus};
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
    read_layer(path, layer).map(Thesaurus::from_layer)
}

/// Reads a JSON file or a Markdown folder as a layer's concepts and answers,
/// to add over other layers ([`Thesaurus::add_layer`]) without building a
/// thesaurus of its own first.
pub fn read_layer(path: &Path, layer: Layer) -> anyhow::Result<LayerData> {
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
    parse_layer(&text, layer).with_context(|| format!("invalid thesaurus {}", path.display()))
}

/// Parses Terraphim JSON or its legacy flat form.
pub fn parse_json(text: &str, layer: Layer) -> anyhow::Result<Thesaurus> {
    parse_layer(text, layer).map(Thesaurus::from_layer)
}

/// Parses a file's text as a layer: as [`parse_object`] after parsing to
/// JSON, but with the synonyms of `"data"` read straight into their entries
/// (see [`stream`]).
fn parse_layer(text: &str, layer: Layer) -> anyhow::Result<LayerData> {
    let top: stream::Top = serde_json::from_str(text).map_err(|e| anyhow::anyhow!("{e}"))?;
    let entries = match top.data {
        stream::Data::Entries(entries) => entries,
        stream::Data::NotObject => bail!("\"data\" must be an object of synonyms"),
        stream::Data::Missing => legacy_entries(&top.rest)
            .into_iter()
            .map(|(k, v)| {
                let n = Normalized::read(&v).map_err(|e| e.to_string());
                (k, n)
            })
            .collect(),
    };
    let mut read = Vec::with_capacity(entries.len());
    for (synonym, n) in entries {
        read.push((
            n.map_err(|e| anyhow::anyhow!("synonym {synonym:?}: {e}"))?,
            synonym,
        ));
    }
    Ok(layer_data(read, &top.rest, layer))
}

/// Reads a parsed document (its top-level object): what [`parse_json`] does
/// after parsing the text, for a caller that keeps the JSON (`learn::store`).
/// The concepts come in (id, name) order, each with its synonyms as the
/// file lists them.
pub fn parse_object(
    top: &serde_json::Map<String, Value>,
    layer: Layer,
) -> anyhow::Result<LayerData> {
    let legacy;
    let data = match top.get("data") {
        Some(Value::Object(data)) => data,
        Some(_) => bail!("\"data\" must be an object of synonyms"),
        None => {
            legacy = legacy_entries(top);
            &legacy
        }
    };
    let mut read = Vec::with_capacity(data.len());
    for (synonym, entry) in data {
        let n = Normalized::read(entry).map_err(|e| anyhow::anyhow!("synonym {synonym:?}: {e}"))?;
        read.push((n, synonym.clone()));
    }
    Ok(layer_data(read, top, layer))
}

/// The layer of a file's entries (`(entry, synonym)`, in file order) and its
/// top-level object (for the provenance).
fn layer_data(
    entries: Vec<(Normalized, String)>,
    top: &serde_json::Map<String, Value>,
    layer: Layer,
) -> LayerData {
    let mut by_concept: BTreeMap<(u64, String), Vec<String>> = BTreeMap::new();
    for (n, synonym) in entries {
        by_concept
            .entry((n.id, n.concept()))
            .or_default()
            .push(synonym);
    }
    let standings = learned_standings(top);
    let answers = learned_answers(top, &standings);
    let concepts = by_concept
        .into_iter()
        .map(|((id, name), synonyms)| {
            let learned = standings.get(&name).copied();
            let concept = Concept {
                id,
                name,
                layer,
                learned,
            };
            (concept, synonyms)
        })
        .collect();
    LayerData { concepts, answers }
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
pub fn read_markdown_dir(dir: &Path, layer: Layer) -> anyhow::Result<LayerData> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read thesaurus folder {}", dir.display()))?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "md") && p.is_file())
        .collect();
    files.sort();
    let mut data = LayerData::default();
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
        let concept = Concept {
            id: i as u64 + 1,
            name: stem,
            layer,
            learned: None,
        };
        data.concepts.push((concept, all));
    }
    Ok(data)
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

/// Reading a thesaurus file for a search without a JSON value per synonym:
/// a learned file of 100k concepts spent most of its load building, then
/// dropping, those values. The entries read exactly as [`Normalized::read`]
/// reads a value (an entry that does not gets the same error, from the value
/// rebuilt from what it held).
mod stream {
    use std::collections::HashMap;
    use std::fmt;

    use serde::de::value::SeqAccessDeserializer;
    use serde::de::{Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
    use serde_json::{Map, Value};

    use super::Normalized;

    /// A file's top level: `"data"` read entry by entry, the rest as JSON.
    pub(super) struct Top {
        pub data: Data,
        pub rest: Map<String, Value>,
    }

    /// What `"data"` held.
    pub(super) enum Data {
        Missing,
        NotObject,
        /// Each synonym with its entry or why it is not one, in file order
        /// (a repeated synonym keeps its first place and its last entry, as
        /// a JSON object read into a map does).
        Entries(Vec<(String, Result<Normalized, String>)>),
    }

    impl<'de> Deserialize<'de> for Top {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Top, D::Error> {
            d.deserialize_map(TopVisitor)
        }
    }

    struct TopVisitor;

    impl<'de> Visitor<'de> for TopVisitor {
        type Value = Top;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a JSON object")
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Top, A::Error> {
            let mut top = Top {
                data: Data::Missing,
                rest: Map::new(),
            };
            while let Some(key) = map.next_key::<String>()? {
                if key == "data" {
                    top.data = map.next_value()?;
                } else {
                    let value: Value = map.next_value()?;
                    top.rest.insert(key, value);
                }
            }
            Ok(top)
        }
    }

    impl<'de> Deserialize<'de> for Data {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Data, D::Error> {
            d.deserialize_any(DataVisitor)
        }
    }

    struct DataVisitor;

    impl<'de> Visitor<'de> for DataVisitor {
        type Value = Data;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("an object of synonyms")
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Data, A::Error> {
            let mut entries: Vec<(String, Result<Normalized, String>)> = Vec::new();
            let mut place: HashMap<String, usize> = HashMap::new();
            while let Some(key) = map.next_key::<String>()? {
                let Entry(entry) = map.next_value()?;
                match place.get(&key) {
                    Some(&i) => entries[i].1 = entry,
                    None => {
                        place.insert(key.clone(), entries.len());
                        entries.push((key, entry));
                    }
                }
            }
            Ok(Data::Entries(entries))
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Data, A::Error> {
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            Ok(Data::NotObject)
        }

        fn visit_bool<E>(self, _: bool) -> Result<Data, E> {
            Ok(Data::NotObject)
        }

        fn visit_i64<E>(self, _: i64) -> Result<Data, E> {
            Ok(Data::NotObject)
        }

        fn visit_u64<E>(self, _: u64) -> Result<Data, E> {
            Ok(Data::NotObject)
        }

        fn visit_f64<E>(self, _: f64) -> Result<Data, E> {
            Ok(Data::NotObject)
        }

        fn visit_str<E>(self, _: &str) -> Result<Data, E> {
            Ok(Data::NotObject)
        }

        fn visit_unit<E>(self) -> Result<Data, E> {
            Ok(Data::NotObject)
        }
    }

    /// One synonym's entry, or the error [`Normalized::read`] gives for it.
    struct Entry(Result<Normalized, String>);

    impl<'de> Deserialize<'de> for Entry {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Entry, D::Error> {
            d.deserialize_any(EntryVisitor)
        }
    }

    struct EntryVisitor;

    /// The error reading `value` as an entry gives.
    fn judged(value: &Value) -> Entry {
        Entry(Normalized::read(value).map_err(|e| e.to_string()))
    }

    impl<'de> Visitor<'de> for EntryVisitor {
        type Value = Entry;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a synonym's entry")
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Entry, A::Error> {
            // Only the fields an entry has are kept; the others are skipped
            // unread, as `Normalized` ignores them.
            let (mut id, mut nterm) = (None, None);
            while let Some(key) = map.next_key::<String>()? {
                match key.as_str() {
                    "id" => id = Some(map.next_value::<Value>()?),
                    "nterm" => nterm = Some(map.next_value::<Value>()?),
                    _ => {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
            }
            if let (Some(Value::Number(n)), Some(Value::String(name))) = (&id, &nterm) {
                if let Some(id) = n.as_u64() {
                    return Ok(Entry(Ok(Normalized {
                        id,
                        nterm: name.clone(),
                    })));
                }
            }
            let mut rebuilt = Map::new();
            rebuilt.extend(id.map(|v| ("id".to_string(), v)));
            rebuilt.extend(nterm.map(|v| ("nterm".to_string(), v)));
            Ok(judged(&Value::Object(rebuilt)))
        }

        fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Entry, A::Error> {
            let value = Value::deserialize(SeqAccessDeserializer::new(seq))?;
            Ok(judged(&value))
        }

        fn visit_bool<E>(self, v: bool) -> Result<Entry, E> {
            Ok(judged(&Value::from(v)))
        }

        fn visit_i64<E>(self, v: i64) -> Result<Entry, E> {
            Ok(judged(&Value::from(v)))
        }

        fn visit_u64<E>(self, v: u64) -> Result<Entry, E> {
            Ok(judged(&Value::from(v)))
        }

        fn visit_f64<E>(self, v: f64) -> Result<Entry, E> {
            Ok(judged(&Value::from(v)))
        }

        fn visit_str<E>(self, v: &str) -> Result<Entry, E> {
            Ok(judged(&Value::from(v)))
        }

        fn visit_unit<E>(self) -> Result<Entry, E> {
            Ok(judged(&Value::Null))
        }
    }
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

    /// The streamed reading of a file is the reading of its JSON value, for
    /// every shape of file and entry, errors included.
    #[test]
    fn streaming_reads_what_the_json_value_reads() {
        let texts = [
            r#"{"name": "x", "data": {"cfg": {"id": 4, "nterm": "Configuration", "url": "u"},
                "settings": {"id": 4, "nterm": "configuration"}, "jwt": {"nterm": "json web token", "id": 9}}}"#,
            r#"{"data": {"a": {"id": 1, "nterm": "x"}, "b": {"id": 2, "nterm": "y"}, "a": {"id": 3, "nterm": "z"}}}"#,
            r#"{"data": {"zib": {"id": 1, "nterm": "gronk", "display_value": null, "id": 2}},
                "kgrep": {"concepts": {"gronk": {"status": "accepted", "trigger": ["a"], "answer": ["b"]}}}}"#,
            r#"{"ctx": {"id": 12, "nterm": "context"}, "name": "legacy", "kgrep": {}, "n": 3}"#,
            r#"{"data": 3}"#,
            r#"{"data": [1, {"a": 2}]}"#,
            r#"{"data": null}"#,
            r#"{"data": "x"}"#,
            r#"{"data": {"x": {"nterm": "y"}}}"#,
            r#"{"data": {"x": {"id": -1, "nterm": "y"}}}"#,
            r#"{"data": {"x": {"id": 1.5, "nterm": "y"}}}"#,
            r#"{"data": {"x": {"id": "1", "nterm": "y"}}}"#,
            r#"{"data": {"x": {"id": 1, "nterm": ["y"]}}}"#,
            r#"{"data": {"x": 5}}"#,
            r#"{"data": {"x": [1, 2]}}"#,
            r#"{"data": {"x": "y"}}"#,
            r#"{"data": {"x": null}}"#,
            r#"{"data": {"x": true}}"#,
            r#"{"data": {}}"#,
            r#"{}"#,
        ];
        for text in texts {
            let streamed = parse_layer(text, Layer::User).map_err(|e| format!("{e:#}"));
            let value: Value = serde_json::from_str(text).unwrap();
            let whole =
                parse_object(value.as_object().unwrap(), Layer::User).map_err(|e| format!("{e:#}"));
            assert_eq!(streamed, whole, "{text}");
        }
        assert!(parse_layer("[1]", Layer::User).is_err());
        assert!(parse_layer("{", Layer::User).is_err());
    }

    #[test]
    fn missing_file_is_an_error() {
        assert!(read(Path::new("/nonexistent/kgrep.json"), Layer::User).is_err());
    }
}
