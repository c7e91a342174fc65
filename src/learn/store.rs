//! The learned thesaurus file on disk: a Terraphim-compatible JSON document
//! (`{"name", "data": {synonym: {"id", "nterm"}}}`) with kgrep's provenance
//! under the top-level `"kgrep"` key (`{"concepts": {name: {"id", "query",
//! "model", "date", "hits", "status"}}}`) and the consultations that settled a
//! query (`"settled"`, `learn::settled`).
//!
//! Owns reading, the locked read-modify-write and the atomic replace: an
//! exclusive lock on a sidecar `<file>.lock` (opened without following a
//! symlink, `own_file::open_lock`) serialises writers, the new text
//! goes to a temp file in the same folder that is synced and renamed over the
//! old one, so readers and crashes only ever see a whole file. Keys are sorted
//! and the text pretty-printed, so diffs stay reviewable; keys kgrep does not
//! know are kept. A file that does not parse is never written. Deciding what
//! to write (the junk filter, first mapping wins) is `filter` and the caller's.

use std::cell::OnceCell;
use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::{anyhow, Context};
use serde_json::{Map, Value};
use thiserror::Error;

use crate::own_file::{self, Follow};
use crate::thesaurus::file::{self, Normalized, CONCEPTS_KEY, PROVENANCE_KEY};
use crate::thesaurus::{Layer, Standing};

/// Where, under the `"kgrep"` key, the settled consultations are kept
/// (`learn::settled`).
pub const SETTLED_KEY: &str = "settled";

/// The `"name"` of a learned thesaurus kgrep creates.
pub const DOCUMENT_NAME: &str = "kgrep learned concepts";

/// Why the learned file could not be used.
#[derive(Debug, Error)]
pub enum StoreError {
    /// The file exists but is not a thesaurus kgrep can extend: left untouched.
    #[error("{0:#}")]
    Corrupt(anyhow::Error),
    /// Reading, locking or writing failed.
    #[error("{0:#}")]
    Io(anyhow::Error),
}

/// One learned concept's provenance, as listed.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub name: String,
    pub id: u64,
    pub status: Standing,
    pub hits: u64,
    pub date: String,
    pub model: String,
    pub query: String,
    /// Its synonyms in the file, its own name excluded, sorted.
    pub synonyms: Vec<String>,
    /// Its display name, as an imported Markdown file's `# Heading` wrote it
    /// (empty when none was given).
    pub display: String,
    /// A learned answer's identifiers (`learn::answer`), else empty.
    pub answer: Vec<String>,
}

/// The whole document, as parsed (unknown keys included).
///
/// Lookups a write repeats per concept (the concept a synonym maps to, a
/// concept's id, the largest id) go through an index built once from the
/// document and kept up to date by the writes, so importing or learning `n`
/// concepts into a file of `m` is linear, not `n × m` (issue 28).
#[derive(Clone, Debug)]
pub struct Doc {
    top: Map<String, Value>,
    /// Built on first use; dropped (to be built again) by a write it cannot
    /// follow cheaply (a removal, a synonym moved to another concept).
    index: OnceCell<Index>,
}

impl PartialEq for Doc {
    fn eq(&self, other: &Doc) -> bool {
        self.top == other.top
    }
}

/// What [`Doc`]'s lookups read instead of scanning `data`.
#[derive(Clone, Debug, Default)]
struct Index {
    /// A synonym, ASCII-lowercased → the first key of `data` spelled so.
    folded: HashMap<String, String>,
    /// A concept → the id of its first synonym in `data`.
    first_id: HashMap<String, u64>,
    /// The largest id in `data` and in the provenance.
    max_id: u64,
}

impl Index {
    fn build(doc: &Doc) -> Index {
        let mut index = Index::default();
        for (key, n) in doc.mappings() {
            index.add_mapping(key, &n);
        }
        let meta_ids = doc
            .concepts()
            .into_iter()
            .flat_map(|c| c.values())
            .filter_map(|v| v.get("id").and_then(Value::as_u64));
        index.max_id = meta_ids.fold(index.max_id, u64::max);
        index
    }

    /// Follows a synonym added at the end of `data`.
    fn add_mapping(&mut self, key: &str, n: &Normalized) {
        self.folded
            .entry(key.to_ascii_lowercase())
            .or_insert_with(|| key.to_string());
        self.first_id.entry(n.concept()).or_insert(n.id);
        self.max_id = self.max_id.max(n.id);
    }
}

impl Doc {
    /// A new, empty learned thesaurus.
    pub fn empty() -> Doc {
        let mut top = Map::new();
        top.insert("name".into(), Value::String(DOCUMENT_NAME.into()));
        top.insert("data".into(), Value::Object(Map::new()));
        Doc::of(top)
    }

    fn of(top: Map<String, Value>) -> Doc {
        Doc {
            top,
            index: OnceCell::new(),
        }
    }

    fn index(&self) -> &Index {
        self.index.get_or_init(|| Index::build(self))
    }

    /// Parses a file's text. It must be a thesaurus the reader accepts; the
    /// legacy flat form is moved under `"data"`.
    pub fn parse(text: &str) -> anyhow::Result<Doc> {
        let value: Value = serde_json::from_str(text).map_err(|e| anyhow!("{e}"))?;
        let Value::Object(mut top) = value else {
            return Err(anyhow!("expected a JSON object"));
        };
        // The thesaurus reader's checks, on the same parsed text: every
        // synonym's entry reads as a `Normalized` from here on.
        file::parse_object(&top, Layer::Learned)?;
        if let Some(kgrep) = top.get(PROVENANCE_KEY) {
            let concepts = kgrep.get(CONCEPTS_KEY);
            if !kgrep.is_object() || concepts.is_some_and(|c| !c.is_object()) {
                return Err(anyhow!(
                    "\"{PROVENANCE_KEY}\" must be an object with an object \"{CONCEPTS_KEY}\""
                ));
            }
        }
        if !top.contains_key("data") {
            let legacy: Vec<String> = top
                .iter()
                .filter(|(k, v)| {
                    k.as_str() != PROVENANCE_KEY && k.as_str() != "name" && v.is_object()
                })
                .map(|(k, _)| k.clone())
                .collect();
            let mut data = Map::new();
            for key in legacy {
                if let Some(v) = top.remove(&key) {
                    data.insert(key, v);
                }
            }
            top.insert("data".into(), Value::Object(data));
        }
        Ok(Doc::of(top))
    }

    /// The file's text: keys sorted at every level, two-space indentation,
    /// a final newline.
    pub fn to_text(&self) -> String {
        let mut sorted = Value::Object(self.top.clone());
        sorted.sort_all_objects();
        let mut text = serde_json::to_string_pretty(&sorted).unwrap_or_else(|_| "{}".into());
        text.push('\n');
        text
    }

    fn data(&self) -> Option<&Map<String, Value>> {
        self.top.get("data").and_then(Value::as_object)
    }

    /// Every synonym with its entry (entries that do not read, which only a
    /// caller's own mistake could put there, are skipped).
    fn mappings(&self) -> impl Iterator<Item = (&String, Normalized)> {
        self.data()
            .into_iter()
            .flatten()
            .filter_map(|(k, v)| Some((k, Normalized::read(v).ok()?)))
    }

    fn data_mut(&mut self) -> &mut Map<String, Value> {
        let data = self
            .top
            .entry("data")
            .or_insert_with(|| Value::Object(Map::new()));
        if !data.is_object() {
            *data = Value::Object(Map::new());
        }
        data.as_object_mut().expect("made an object above")
    }

    fn concepts(&self) -> Option<&Map<String, Value>> {
        self.top
            .get(PROVENANCE_KEY)
            .and_then(|k| k.get(CONCEPTS_KEY))
            .and_then(Value::as_object)
    }

    fn concepts_mut(&mut self) -> &mut Map<String, Value> {
        let kgrep = self
            .top
            .entry(PROVENANCE_KEY)
            .or_insert_with(|| Value::Object(Map::new()));
        if !kgrep.is_object() {
            *kgrep = Value::Object(Map::new());
        }
        let concepts = kgrep
            .as_object_mut()
            .expect("made an object above")
            .entry(CONCEPTS_KEY)
            .or_insert_with(|| Value::Object(Map::new()));
        if !concepts.is_object() {
            *concepts = Value::Object(Map::new());
        }
        concepts.as_object_mut().expect("made an object above")
    }

    /// The concept a synonym maps to in this file (an identifier kept as
    /// spelled, `registerBlueprint`, is found by any case of it).
    pub fn mapped(&self, synonym: &str) -> Option<String> {
        let data = self.data()?;
        let entry = data.get(synonym).or_else(|| {
            let key = self.index().folded.get(&synonym.to_ascii_lowercase())?;
            data.get(key)
        })?;
        Normalized::read(entry).ok().map(|n| n.concept())
    }

    /// The id of a concept, from its synonyms or its provenance.
    pub fn id_of(&self, name: &str) -> Option<u64> {
        let from_data = self.index().first_id.get(name).copied();
        from_data.or_else(|| {
            self.concepts()
                .and_then(|c| c.get(name))
                .and_then(|m| m.get("id"))
                .and_then(Value::as_u64)
        })
    }

    /// The largest id in use (0 for an empty file).
    pub fn max_id(&self) -> u64 {
        self.index().max_id
    }

    /// The synonyms of a concept in this file, its own name excluded, sorted.
    pub fn synonyms_of(&self, name: &str) -> Vec<String> {
        let mut out: Vec<String> = self
            .mappings()
            .filter(|(k, n)| k.as_str() != name && n.concept() == name)
            .map(|(k, _)| k.clone())
            .collect();
        out.sort();
        out
    }

    /// Every concept name in the file (from `data` and the provenance), sorted.
    pub fn concept_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .mappings()
            .map(|(_, n)| n.concept())
            .chain(self.concepts().into_iter().flat_map(|c| c.keys().cloned()))
            .collect();
        names.sort();
        names.dedup();
        names
    }

    /// Maps a synonym to a concept (with its id).
    pub fn map(&mut self, synonym: &str, id: u64, name: &str) {
        let n = Normalized {
            id,
            nterm: name.to_string(),
        };
        let old = self.data_mut().insert(synonym.to_string(), n.to_value());
        let old = old.and_then(|v| Normalized::read(&v).ok());
        match (self.index.get_mut(), old) {
            (Some(index), None) => index.add_mapping(synonym, &n),
            (Some(_), Some(old)) if old.concept() == n.concept() && old.id == id => {}
            // Moved to another concept or id: which synonym comes first changed.
            (Some(_), Some(_)) => self.index = OnceCell::new(),
            (None, _) => {}
        }
    }

    /// The provenance of a concept kgrep learned, if the file has it.
    pub fn provenance(&self, name: &str) -> Option<&Map<String, Value>> {
        self.concepts()?.get(name)?.as_object()
    }

    /// Sets (replacing) a concept's provenance.
    pub fn set_provenance(&mut self, name: &str, meta: Map<String, Value>) {
        let id = meta.get("id").and_then(Value::as_u64);
        let old = self
            .concepts_mut()
            .insert(name.to_string(), Value::Object(meta));
        let old_id = old
            .as_ref()
            .and_then(|m| m.get("id"))
            .and_then(Value::as_u64);
        match self.index.get_mut() {
            // The largest id may have been the one replaced.
            Some(_) if old_id.is_some() && old_id != id => self.index = OnceCell::new(),
            Some(index) => index.max_id = index.max_id.max(id.unwrap_or(0)),
            None => {}
        }
    }

    /// The settled consultations (`learn::settled`), by query key.
    pub fn settled(&self) -> Option<&Map<String, Value>> {
        self.top
            .get(PROVENANCE_KEY)
            .and_then(|k| k.get(SETTLED_KEY))
            .and_then(Value::as_object)
    }

    /// The settled consultations, to change (created empty when missing).
    pub fn settled_mut(&mut self) -> &mut Map<String, Value> {
        let kgrep = self
            .top
            .entry(PROVENANCE_KEY)
            .or_insert_with(|| Value::Object(Map::new()));
        if !kgrep.is_object() {
            *kgrep = Value::Object(Map::new());
        }
        let settled = kgrep
            .as_object_mut()
            .expect("made an object above")
            .entry(SETTLED_KEY)
            .or_insert_with(|| Value::Object(Map::new()));
        if !settled.is_object() {
            *settled = Value::Object(Map::new());
        }
        settled.as_object_mut().expect("made an object above")
    }

    /// Removes a concept, its synonyms and its provenance. Whether it was there.
    pub fn remove(&mut self, name: &str) -> bool {
        let had_meta = self.concepts_mut().remove(name).is_some();
        let data = self.data_mut();
        let before = data.len();
        data.retain(|_, v| Normalized::read(v).map_or(true, |n| n.concept() != name));
        let removed = data.len() != before;
        self.index = OnceCell::new();
        had_meta || removed
    }

    /// Each learned concept with its provenance, by name. Concepts without
    /// kgrep provenance (written by hand) are listed as accepted. One pass
    /// over the synonyms for all concepts.
    pub fn entries(&self) -> Vec<Entry> {
        let mut synonyms: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (key, n) in self.mappings() {
            let name = n.concept();
            let list = synonyms.entry(name.clone()).or_default();
            if *key != name {
                list.push(key.clone());
            }
        }
        self.concept_names()
            .into_iter()
            .map(|name| {
                let mut synonyms = synonyms.remove(&name).unwrap_or_default();
                synonyms.sort();
                self.entry(name, synonyms)
            })
            .collect()
    }

    /// One concept's entry, given its synonyms (sorted).
    fn entry(&self, name: String, synonyms: Vec<String>) -> Entry {
        let meta = self.provenance(&name);
        let text = |k: &str| {
            meta.and_then(|m| m.get(k))
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string()
        };
        Entry {
            id: self.id_of(&name).unwrap_or(0),
            status: meta
                .and_then(|m| m.get("status"))
                .and_then(Value::as_str)
                .and_then(Standing::parse)
                .unwrap_or(if meta.is_some() {
                    Standing::Proposed
                } else {
                    Standing::Accepted
                }),
            hits: meta
                .and_then(|m| m.get("hits"))
                .and_then(Value::as_u64)
                .unwrap_or(0),
            date: text("date"),
            model: text("model"),
            query: text("query"),
            synonyms,
            display: text("display"),
            answer: crate::thesaurus::file::string_list(
                meta.and_then(|m| m.get(crate::thesaurus::file::ANSWER_KEY)),
            ),
            name,
        }
    }
}

/// Reads the file without locking (a rename makes every version whole).
/// `Ok(None)` when there is no file yet. A symlink is not followed (the
/// store replaces the file, never writes through one), and anything but a
/// regular file of at most `own_file::MAX_BYTES` is refused at once.
pub fn load(path: &Path) -> Result<Option<Doc>, StoreError> {
    load_from(path, Follow::No)
}

/// [`load`], following a symlink when `follow` says so (an import source the
/// user named).
pub fn load_from(path: &Path, follow: Follow) -> Result<Option<Doc>, StoreError> {
    let text = match own_file::read_to_string(path, follow, own_file::MAX_BYTES) {
        Ok(text) => text,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(err) => {
            return Err(StoreError::Io(
                anyhow::Error::new(err).context(format!("cannot read {}", path.display())),
            ))
        }
    };
    Doc::parse(&text).map(Some).map_err(|e| {
        StoreError::Corrupt(e.context(format!("invalid thesaurus {}", path.display())))
    })
}

/// The sidecar lock file of a thesaurus file.
pub fn lock_path(path: &Path) -> PathBuf {
    let mut name = path
        .file_name()
        .map(|n| n.to_os_string())
        .unwrap_or_default();
    name.push(".lock");
    path.with_file_name(name)
}

/// Read-modify-write under an exclusive lock: `change` gets the current
/// document (empty when there is none) and says whether it changed it; the
/// file is then replaced atomically. A corrupt file is an error and stays as
/// it is.
pub fn update<R>(
    path: &Path,
    change: impl FnOnce(&mut Doc) -> anyhow::Result<(R, bool)>,
) -> Result<R, StoreError> {
    let io = |what: &str, p: &Path| {
        let msg = format!("cannot {what} {}", p.display());
        move |e: std::io::Error| StoreError::Io(anyhow::Error::new(e).context(msg))
    };
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(io("create", dir))?;
    }
    let lock_file = lock_path(path);
    // Never through a symlink: a planted `<file>.lock` link must not create
    // a file where it points (`own_file::open_lock`).
    let lock = own_file::open_lock(&lock_file).map_err(io("open the lock file", &lock_file))?;
    lock.lock().map_err(io("lock", &lock_file))?;
    remove_stale_temps(path);
    let mut doc = load(path)?.unwrap_or_else(Doc::empty);
    let (result, changed) = change(&mut doc).map_err(StoreError::Io)?;
    if changed {
        replace(path, &doc.to_text()).map_err(StoreError::Io)?;
    }
    drop(lock);
    Ok(result)
}

/// The temp file name prefix of `path`'s writers (`.thesaurus.json.tmp.`).
fn temp_prefix(path: &Path) -> String {
    format!(
        ".{}.tmp.",
        path.file_name().unwrap_or_default().to_string_lossy()
    )
}

/// Removes temp files a killed writer left. Only called under the lock: a
/// live writer's temp file exists only while it holds it.
fn remove_stale_temps(path: &Path) {
    let Some(dir) = path.parent() else { return };
    let Ok(entries) = std::fs::read_dir(if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    }) else {
        return;
    };
    let prefix = temp_prefix(path);
    for entry in entries.filter_map(Result::ok) {
        if entry.file_name().to_string_lossy().starts_with(&prefix) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Writes `text` to a temp file next to `path`, syncs it and renames it over
/// `path`: readers see the old file or the new one, never a part.
pub fn write_atomic(path: &Path, text: &str) -> anyhow::Result<()> {
    replace(path, text)
}

fn replace(path: &Path, text: &str) -> anyhow::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    // A fresh name opened exclusively (`O_EXCL`): a planted file or symlink
    // at a guessable name is never followed or written through.
    let mut tmp = tempfile::Builder::new()
        .prefix(&temp_prefix(path))
        .tempfile_in(dir)
        .with_context(|| format!("cannot create a temp file in {}", dir.display()))?;
    tmp.write_all(text.as_bytes())
        .and_then(|()| tmp.as_file().sync_all())
        .with_context(|| format!("cannot write {}", tmp.path().display()))?;
    tmp.persist(path)
        .map_err(|e| e.error)
        .with_context(|| format!("cannot replace {}", path.display()))?;
    // The rename itself is durable once the directory is synced.
    #[cfg(unix)]
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Now as an ISO 8601 UTC date-time (`2026-11-23T11:24:46Z`).
pub fn now_utc() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    format_utc(secs)
}

/// Seconds since the epoch as an ISO 8601 UTC date-time.
pub fn format_utc(secs: u64) -> String {
    const DAY: u64 = 86_400;
    let (days, rest) = (secs / DAY, secs % DAY);
    let (y, m, d) = civil_from_days(days as i64);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

/// Days since 1970-01-01 → (year, month, day), proleptic Gregorian
/// (Howard Hinnant's `civil_from_days`).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn dates_are_iso_utc() {
        assert_eq!(format_utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(format_utc(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(format_utc(1_795_433_086), "2026-11-23T11:24:46Z");
    }

    #[test]
    fn unknown_keys_survive_and_keys_are_sorted() {
        let doc = Doc::parse(
            r#"{"zeta": {"keep": [3, {"b": 1, "a": 2}]}, "name": "mine",
                "data": {"zz": {"id": 2, "nterm": "x", "url": "u"}, "aa": {"id": 2, "nterm": "x"}}}"#,
        )
        .unwrap();
        let text = doc.to_text();
        let reparsed: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(reparsed["zeta"]["keep"][1]["a"], json!(2));
        assert_eq!(reparsed["data"]["zz"]["url"], json!("u"));
        assert!(text.find("\"aa\"").unwrap() < text.find("\"zz\"").unwrap());
        assert!(text.find("\"data\"").unwrap() < text.find("\"zeta\"").unwrap());
        assert!(text.ends_with("}\n"));
        assert_eq!(Doc::parse(&text).unwrap().to_text(), text, "stable");
    }

    /// The index a document keeps through its writes answers as a scan of
    /// the document does (the lookups before the index was added).
    #[test]
    fn indexed_lookups_after_writes_match_a_scan() {
        use crate::testing::{below, rng};
        let scan_id = |d: &Doc, name: &str| {
            d.mappings()
                .find(|(_, n)| n.concept() == name)
                .map(|(_, n)| n.id)
                .or_else(|| {
                    d.concepts()
                        .and_then(|c| c.get(name))
                        .and_then(|m| m.get("id"))
                        .and_then(Value::as_u64)
                })
        };
        let scan_max = |d: &Doc| {
            let meta = d.concepts().into_iter().flat_map(|c| c.values());
            let meta = meta.filter_map(|v| v.get("id").and_then(Value::as_u64));
            d.mappings()
                .map(|(_, n)| n.id)
                .chain(meta)
                .max()
                .unwrap_or(0)
        };
        let scan_mapped = |d: &Doc, synonym: &str| {
            let data = d.data()?;
            let entry = data.get(synonym).or_else(|| {
                data.iter()
                    .find(|(k, _)| k.eq_ignore_ascii_case(synonym))
                    .map(|(_, v)| v)
            })?;
            Normalized::read(entry).ok().map(|n| n.concept())
        };
        let mut rng = rng(0x0d0c_0013);
        let names = ["gronk", "zib", "wobble", "jiggle"];
        let synonyms = ["Zib", "zib", "ZIB", "wob", "gronk", "blorf", "Blorf"];
        for _ in 0..300 {
            let mut doc = Doc::empty();
            for _ in 0..below(&mut rng, 12) {
                let name = names[below(&mut rng, names.len())];
                match below(&mut rng, 4) {
                    0 | 1 => {
                        let synonym = synonyms[below(&mut rng, synonyms.len())];
                        doc.map(synonym, below(&mut rng, 5) as u64, name);
                    }
                    2 => {
                        let mut meta = Map::new();
                        meta.insert("id".into(), json!(below(&mut rng, 9)));
                        doc.set_provenance(name, meta);
                    }
                    _ => {
                        doc.remove(name);
                    }
                }
                // Read in between, so the index is built, then kept up.
                assert_eq!(doc.max_id(), scan_max(&doc));
            }
            for name in names {
                assert_eq!(doc.id_of(name), scan_id(&doc, name), "{name}");
            }
            for synonym in synonyms.iter().chain(&["zIb", "nothing"]) {
                assert_eq!(doc.mapped(synonym), scan_mapped(&doc, synonym), "{synonym}");
            }
            let listed: Vec<(String, Vec<String>)> = doc
                .entries()
                .into_iter()
                .map(|e| (e.name, e.synonyms))
                .collect();
            let scanned: Vec<(String, Vec<String>)> = doc
                .concept_names()
                .into_iter()
                .map(|n| {
                    let synonyms = doc.synonyms_of(&n);
                    (n, synonyms)
                })
                .collect();
            assert_eq!(listed, scanned);
        }
    }

    #[test]
    fn legacy_flat_files_move_under_data() {
        let doc = Doc::parse(r#"{"ctx": {"id": 4, "nterm": "context"}}"#).unwrap();
        assert_eq!(doc.mapped("ctx").as_deref(), Some("context"));
        assert_eq!(doc.max_id(), 4);
    }

    #[test]
    fn corrupt_files_are_refused_and_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.json");
        for bad in ["{not json", "[1]", r#"{"data": 3}"#, r#"{"kgrep": 1}"#] {
            std::fs::write(&path, bad).unwrap();
            let err = update(&path, |doc| {
                doc.map("x", 1, "y");
                Ok(((), true))
            })
            .unwrap_err();
            assert!(matches!(err, StoreError::Corrupt(_)), "{bad}: {err}");
            assert_eq!(std::fs::read_to_string(&path).unwrap(), bad);
        }
    }

    #[test]
    fn update_creates_then_extends_and_removes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/t.json");
        update(&path, |doc| {
            doc.map("gronk", 1, "gronk");
            doc.map("zibble", 1, "gronk");
            Ok(((), true))
        })
        .unwrap();
        let doc = load(&path).unwrap().unwrap();
        assert_eq!(doc.synonyms_of("gronk"), vec!["zibble"]);
        assert_eq!(doc.max_id(), 1);
        let stale = path.with_file_name(".t.json.tmp.999999");
        std::fs::write(&stale, "{half").unwrap();
        update(&path, |doc| Ok((doc.remove("gronk"), true))).unwrap();
        assert!(!stale.exists(), "a dead writer's temp file is cleaned up");
        assert!(load(&path).unwrap().unwrap().concept_names().is_empty());
        assert!(lock_path(&path).exists());
        let leftovers: Vec<_> = std::fs::read_dir(path.parent().unwrap())
            .unwrap()
            .filter_map(Result::ok)
            .filter(|e| e.file_name().to_string_lossy().contains(".tmp."))
            .collect();
        assert!(leftovers.is_empty());
    }

    #[cfg(unix)]
    #[test]
    fn a_planted_lock_symlink_creates_nothing_outside() {
        let dir = tempfile::tempdir().unwrap();
        let outside = dir.path().join("outside/created.txt");
        std::fs::create_dir_all(outside.parent().unwrap()).unwrap();
        let repo = dir.path().join("repo/.kgrep");
        std::fs::create_dir_all(&repo).unwrap();
        let path = repo.join("thesaurus.json");
        std::os::unix::fs::symlink(&outside, lock_path(&path)).unwrap();
        let err = update(&path, |doc| {
            doc.map("x", 1, "y");
            Ok(((), true))
        })
        .unwrap_err();
        assert!(matches!(err, StoreError::Io(_)), "{err}");
        assert!(!outside.exists());
        assert!(!path.exists());
    }

    #[cfg(unix)]
    #[test]
    fn writes_never_follow_a_planted_temp_name() {
        let dir = tempfile::tempdir().unwrap();
        let outside = dir.path().join("outside.txt");
        std::fs::write(&outside, "keep").unwrap();
        let repo = dir.path().join("repo/.kgrep");
        std::fs::create_dir_all(&repo).unwrap();
        let path = repo.join("thesaurus.json");
        // The name the writer once used, planted as a symlink out of the folder.
        let planted = path.with_file_name(format!(".thesaurus.json.tmp.{}", std::process::id()));
        std::os::unix::fs::symlink(&outside, &planted).unwrap();
        write_atomic(&path, "{}\n").unwrap();
        assert_eq!(std::fs::read_to_string(&outside).unwrap(), "keep");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "{}\n");
        assert!(!std::fs::symlink_metadata(&path)
            .unwrap()
            .file_type()
            .is_symlink());
    }
}
