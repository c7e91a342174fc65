//! Consultations that settled a query: whatever the model replied, the run
//! that consulted it printed an answer, and the next run of the query prints
//! that answer again without a call, until a file it rests on changes (issue
//! 28, item 11). kgrep sends no temperature, so a real server samples: asking
//! again pays for a reply that may differ for nothing.
//!
//! A record is kept in the learned file under `"kgrep"."settled"`, keyed by
//! the query's typed words (their stems, sorted: word order and stop words do
//! not matter) and `--max-lines`: the printed files, in print order, each with
//! its printed lines, the lines the model chose, and its length and CRC-32 when
//! printed. It holds for a run when every one of those files is searched again
//! and unchanged.
//!
//! In a run: before a model call, a query whose record still holds is
//! answered with it, with no call ([`replay`]); after a consultation that got
//! a reply, what the run printed is kept ([`keep`]).
//!
//! Owns the record, its key, the fingerprints, the check, and when a run
//! replays or records (its `-v` lines). Does not decide when a model is
//! consulted (`fallback`), nor print results.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{store, StoreError};
use crate::messages;
use crate::query::{Origin, Query, QueryKind};
use crate::rank::Searched;
use crate::search::Corpus;
use crate::walk::{Haystack, Source};

/// Settled queries a learned file keeps; past it, the oldest go.
pub const MAX_SETTLED: usize = 500;

/// One printed file of a settled answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct File {
    /// Its canonical path.
    pub path: PathBuf,
    /// The printed lines, sorted.
    pub lines: Vec<usize>,
    /// Those the model chose.
    #[serde(default)]
    pub chosen: Vec<usize>,
    /// Its length and CRC-32 when the answer was printed.
    pub len: u64,
    pub crc32: u32,
}

/// A settled consultation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settled {
    /// The query as typed (secrets redacted), for people reading the file.
    pub query: String,
    /// When it was settled (ISO 8601 UTC).
    pub date: String,
    /// The printed files, in print order.
    pub files: Vec<File>,
    /// The model's answer text (`--answer`), if it wrote one.
    #[serde(default)]
    pub answer: Option<String>,
}

/// The key of a query's record: the stems of its typed words, sorted and
/// without repeats, and the `--max-lines` its answer was printed under.
/// `None` for a query without a typed word.
pub fn key(q: &Query, max_lines: usize) -> Option<String> {
    let mut stems: Vec<&str> = q
        .terms
        .iter()
        .filter(|t| t.origin == Origin::Query && !t.is_joined())
        .map(|t| t.stem.as_str())
        .collect();
    stems.sort_unstable();
    stems.dedup();
    (!stems.is_empty()).then(|| format!("{} | max_lines={max_lines}", stems.join(" ")))
}

/// A file's length and CRC-32, `None` when it cannot be read.
pub fn fingerprint(path: &Path) -> Option<(u64, u32)> {
    let bytes = std::fs::read(path).ok()?;
    Some((u64::try_from(bytes.len()).ok()?, crc32fast::hash(&bytes)))
}

impl File {
    /// A printed file as it is now: `None` when it cannot be read (nothing
    /// settles on a file that cannot be checked later).
    pub fn of(path: &Path, lines: Vec<usize>, chosen: Vec<usize>) -> Option<File> {
        let path = path.canonicalize().ok()?;
        let (len, crc32) = fingerprint(&path)?;
        Some(File {
            path,
            lines,
            chosen,
            len,
            crc32,
        })
    }

    /// Whether the file is as it was when the answer was printed.
    pub fn is_unchanged(&self) -> bool {
        fingerprint(&self.path) == Some((self.len, self.crc32))
    }
}

/// The record for `key` in the learned file at `path`, if there is one
/// that reads.
pub fn lookup(path: &Path, key: &str) -> Result<Option<Settled>, StoreError> {
    let Some(doc) = store::load(path)? else {
        return Ok(None);
    };
    Ok(doc
        .settled()
        .and_then(|all| all.get(key))
        .and_then(|v| serde_json::from_value(v.clone()).ok()))
}

/// Keeps `settled` for `key` in the learned file at `path` (replacing an
/// older one), dropping the oldest records past [`MAX_SETTLED`].
pub fn record(path: &Path, key: &str, settled: &Settled) -> Result<(), StoreError> {
    let value = serde_json::to_value(settled)
        .map_err(|e| StoreError::Io(anyhow::Error::new(e).context("cannot encode the record")))?;
    store::update(path, |doc| {
        let all = doc.settled_mut();
        all.insert(key.to_string(), value);
        while all.len() > MAX_SETTLED {
            let oldest = all
                .iter()
                .min_by(|a, b| date_of(a.1).cmp(date_of(b.1)))
                .map(|(k, _)| k.clone());
            match oldest {
                Some(k) => all.remove(&k),
                None => break,
            };
        }
        Ok(((), true))
    })
}

fn date_of(v: &serde_json::Value) -> &str {
    v.get("date")
        .and_then(serde_json::Value::as_str)
        .unwrap_or("")
}

/// What settling needs to know of a run.
#[derive(Clone, Copy, Debug)]
pub struct Run {
    /// kgrep's own fallback decides when to ask, and the run may ask
    /// (`--rlm` and `llm = "always"` ask every time, as rlmgrep does; a dry
    /// run asks nothing).
    pub fallback: bool,
    /// The output is lines, or lines and a written answer (a signature's
    /// fields are asked for each time).
    pub prints_lines: bool,
    /// The output holds a written answer.
    pub wants_answer: bool,
    /// `--max-lines`, part of the key.
    pub max_lines: usize,
}

impl Run {
    /// Whether settling applies to the run of a query: kgrep's own fallback,
    /// a mode that prints lines or a written answer, a natural-language query.
    fn applies(&self, q: &Query) -> bool {
        self.fallback && self.prints_lines && q.kind == QueryKind::Natural
    }
}

/// A file's path as the run reads it (a relative one under `cwd`).
fn real_path(source: &Source, cwd: &Path) -> Option<PathBuf> {
    match source {
        Source::Path(p) if p.is_absolute() => Some(p.clone()),
        Source::Path(p) => Some(cwd.join(p)),
        // A pipe's bytes are gone once read: nothing to check an answer against.
        Source::Stdin(_) | Source::Pipe(_) => None,
    }
}

/// A settled answer that still holds, to print again.
#[derive(Clone, Debug)]
pub struct Replayed {
    /// Its files in print order, each with its printed lines and those the
    /// model chose.
    pub files: Vec<(Haystack, Vec<usize>, Vec<usize>)>,
    /// The model's answer, if it wrote one.
    pub answer: Option<String>,
    /// Why no model is consulted.
    pub note: String,
}

/// The query's settled consultation (in the learned file at `path`) when
/// that still holds: every file it printed is searched again (in `corpus`)
/// and unchanged. `None` when there is none, or it no longer holds.
pub fn replay(
    run: &Run,
    path: &Path,
    q: &Query,
    corpus: Corpus<'_>,
    cwd: &Path,
) -> Option<Replayed> {
    if !run.applies(q) {
        return None;
    }
    let key = key(q, run.max_lines)?;
    let record = match lookup(path, &key) {
        Ok(record) => record?,
        Err(err) => {
            messages::verbose(&format!("settled: cannot read {}: {err}", path.display()));
            return None;
        }
    };
    if run.wants_answer && record.answer.is_none() {
        return None;
    }
    if let Some(changed) = record.files.iter().find(|f| !f.is_unchanged()) {
        messages::verbose(&format!(
            "settled: the answer of {} no longer holds: {} changed",
            record.date,
            changed.path.display()
        ));
        return None;
    }
    // Each of its files among the files searched now, by canonical path.
    let listing = crate::search::list(corpus);
    let mut files = Vec::with_capacity(record.files.len());
    for file in &record.files {
        let name = file.path.file_name()?;
        let found_now = (0..listing.len())
            .filter_map(|i| listing.get(i))
            .filter(|h| matches!(&h.source, Source::Path(p) if p.file_name() == Some(name)))
            .find(|h| {
                real_path(&h.source, cwd)
                    .and_then(|p| p.canonicalize().ok())
                    .is_some_and(|p| p == file.path)
            });
        let Some(h) = found_now else {
            messages::verbose(&format!(
                "settled: the answer of {} does not hold here: {} is not searched",
                record.date,
                file.path.display()
            ));
            return None;
        };
        files.push((h, file.lines.clone(), file.chosen.clone()));
    }
    let count = record.files.len();
    Some(Replayed {
        files,
        answer: record.answer,
        note: format!(
            "settled: the model was consulted on this query on {}, and the {count} file{} its answer rests on are unchanged",
            record.date,
            if count == 1 { "" } else { "s" }
        ),
    })
}

/// Keeps what a run printed (`results`, the model's `chosen` lines) after a
/// consultation that got a reply (whatever it said) as the query's settled
/// answer, in the learned file at `path`, with the model's `answer` when the
/// output holds one. `asked`: the query as typed. Nothing is kept when
/// settling does not apply, nothing was printed, or a printed file cannot be
/// read back.
#[allow(clippy::too_many_arguments)]
pub fn keep(
    run: &Run,
    path: &Path,
    q: &Query,
    asked: &str,
    (results, chosen): (&Searched, &[(usize, usize)]),
    answer: Option<&str>,
    cwd: &Path,
) {
    if !run.applies(q) {
        return;
    }
    let Some(key) = key(q, run.max_lines) else {
        return;
    };
    let mut files = Vec::new();
    for (h, lines) in &results.selected {
        let Some(real) = results
            .haystacks
            .get(*h)
            .and_then(|x| real_path(&x.source, cwd))
        else {
            return;
        };
        let chosen: Vec<usize> = chosen
            .iter()
            .filter(|(c, _)| c == h)
            .map(|&(_, n)| n)
            .collect();
        let Some(file) = File::of(&real, lines.clone(), chosen) else {
            return;
        };
        files.push(file);
    }
    if files.is_empty() {
        return;
    }
    let record = Settled {
        // Kept on disk: secrets pasted into a query are not.
        query: crate::llm::redact::redact(asked).text,
        date: store::now_utc(),
        files,
        answer: answer.filter(|_| run.wants_answer).map(str::to_string),
    };
    match self::record(path, &key, &record) {
        Ok(()) => messages::verbose(&format!(
            "settled: the answer printed is kept in {} until one of its {} file(s) changes",
            path.display(),
            record.files.len()
        )),
        Err(err) => super::warn(path, err),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::query::analyze;

    #[test]
    fn the_key_ignores_word_order_and_stop_words() {
        let a = key(&analyze("hiding secret headers in debug logs"), 15);
        assert_eq!(
            a,
            Some("debug header hide log secret | max_lines=15".into())
        );
        assert_eq!(
            key(&analyze("secret headers in debug logs hiding"), 15),
            a,
            "order"
        );
        assert_ne!(key(&analyze("hiding secret headers in debug logs"), 3), a);
        assert_eq!(key(&analyze("the"), 15), None);
    }

    #[test]
    fn a_record_is_kept_read_back_and_holds_while_its_file_is_unchanged() {
        let dir = tempfile::tempdir().unwrap();
        let source = dir.path().join("a.py");
        std::fs::write(&source, "def scrub(headers):\n    pass\n").unwrap();
        let learned = dir.path().join("learned/thesaurus.json");
        let settled = Settled {
            query: "q".into(),
            date: "2026-01-01T00:00:00Z".into(),
            files: vec![File::of(&source, vec![1], vec![1]).unwrap()],
            answer: None,
        };
        record(&learned, "k", &settled).unwrap();
        let back = lookup(&learned, "k").unwrap().unwrap();
        assert_eq!(back, settled);
        assert!(back.files[0].is_unchanged());
        assert_eq!(lookup(&learned, "other").unwrap(), None);
        std::fs::write(&source, "def scrub(headers):\n    return {}\n").unwrap();
        assert!(!back.files[0].is_unchanged());
        // The file stays a thesaurus the loader reads.
        let text = std::fs::read_to_string(&learned).unwrap();
        assert!(store::Doc::parse(&text).is_ok());
    }

    #[test]
    fn the_oldest_records_go_past_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let learned = dir.path().join("thesaurus.json");
        let settled = |date: &str| Settled {
            query: "q".into(),
            date: date.into(),
            files: Vec::new(),
            answer: None,
        };
        for i in 0..=MAX_SETTLED {
            let date = format!("2026-01-01T00:{:02}:{:02}Z", i / 60, i % 60);
            record(&learned, &format!("k{i}"), &settled(&date)).unwrap();
        }
        assert_eq!(lookup(&learned, "k0").unwrap(), None);
        assert!(lookup(&learned, &format!("k{MAX_SETTLED}"))
            .unwrap()
            .is_some());
    }
}
