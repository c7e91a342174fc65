//! Converted documents kept in memory for one run, or for every call of a
//! long-lived process (`kgrep --mcp`, through its `Session`).
//!
//! A natural-language search reads a file up to three times (term counts,
//! line scores, printing); a PDF or spreadsheet is converted once and served
//! from here afterwards, failures included, so a broken file is neither
//! converted nor reported twice. Each outcome is kept with the file's
//! [`Stamp`] (modification time and size) when it was read, and served only
//! while the file still has it: a server converts a document again only
//! when it changed (it converted it on every call, 10–15 s each for a
//! bloated one: issue 28). Plain text files are not cached: reading them
//! again is cheaper than holding them. Nothing is written to disk.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use super::convert::{ConvertError, Converted};

/// Most converted text held at once (about 5,000 typical PDFs). Past it,
/// documents are converted again when read again: slower, but memory stays
/// bounded on a tree of many large PDFs, as the streaming search keeps it for
/// plain files.
pub const MAX_CACHE_BYTES: usize = 256 << 20;

/// One conversion's outcome, shared between readers.
pub type Outcome = Arc<Result<Converted, ConvertError>>;

/// The cache: conversion outcomes by file path.
#[derive(Debug)]
pub struct ConversionCache {
    inner: Mutex<Inner>,
    capacity: usize,
}

impl Default for ConversionCache {
    fn default() -> ConversionCache {
        ConversionCache::with_capacity(MAX_CACHE_BYTES)
    }
}

#[derive(Debug, Default)]
struct Inner {
    entries: HashMap<PathBuf, (Stamp, Outcome)>,
    bytes: usize,
}

/// A file's state, as far as a cache cares: a file whose modification time
/// or size changed is read again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stamp {
    modified: Option<SystemTime>,
    len: u64,
}

impl Stamp {
    /// The state of the file at `path` now; `None` when it cannot be read.
    pub fn of(path: &Path) -> Option<Stamp> {
        std::fs::metadata(path)
            .ok()
            .map(|m| Stamp::from_metadata(&m))
    }

    pub fn from_metadata(meta: &std::fs::Metadata) -> Stamp {
        Stamp {
            modified: meta.modified().ok(),
            len: meta.len(),
        }
    }
}

/// Bytes an outcome holds.
fn size_of(outcome: &Outcome) -> usize {
    outcome.as_ref().as_ref().map_or(0, |c| {
        c.text.len() + 4 * c.pages.as_ref().map_or(0, Vec::len)
    })
}

impl ConversionCache {
    /// A cache holding at most `capacity` bytes of converted text.
    pub fn with_capacity(capacity: usize) -> ConversionCache {
        ConversionCache {
            inner: Mutex::new(Inner::default()),
            capacity,
        }
    }

    /// The outcome stored for `path` when the file had `stamp`, if any (one
    /// stored for an older state of the file is dropped).
    pub fn get(&self, path: &Path, stamp: Stamp) -> Option<Outcome> {
        let mut inner = self.inner.lock().ok()?;
        match inner.entries.get(path) {
            Some((kept, outcome)) if *kept == stamp => Some(Arc::clone(outcome)),
            Some(_) => {
                if let Some((_, stale)) = inner.entries.remove(path) {
                    inner.bytes -= size_of(&stale);
                }
                None
            }
            None => None,
        }
    }

    /// Stores the outcome of converting `path` as it was at `stamp`, unless
    /// the cache is full; returns it either way.
    pub fn insert(
        &self,
        path: &Path,
        stamp: Stamp,
        outcome: Result<Converted, ConvertError>,
    ) -> Outcome {
        let outcome = Arc::new(outcome);
        let size = size_of(&outcome);
        if let Ok(mut inner) = self.inner.lock() {
            if let Some((_, old)) = inner.entries.remove(path) {
                inner.bytes -= size_of(&old);
            }
            if inner.bytes + size <= self.capacity {
                inner.bytes += size;
                let entry = (stamp, Arc::clone(&outcome));
                inner.entries.insert(path.to_path_buf(), entry);
            }
        }
        outcome
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn stamp(len: u64) -> Stamp {
        Stamp {
            modified: None,
            len,
        }
    }

    fn text(n: usize) -> Converted {
        Converted {
            text: "x".repeat(n),
            ..Converted::default()
        }
    }

    #[test]
    fn outcomes_come_back() {
        let cache = ConversionCache::default();
        let path = Path::new("a.pdf");
        assert!(cache.get(path, stamp(1)).is_none());
        let converted = Converted {
            text: "x".into(),
            pages: Some(vec![1]),
            unread: Vec::new(),
            cut: None,
        };
        cache.insert(path, stamp(1), Ok(converted.clone()));
        let encrypted = Err(ConvertError::Encrypted("PDF"));
        cache.insert(Path::new("b.pdf"), stamp(1), encrypted.clone());
        assert_eq!(*cache.get(path, stamp(1)).unwrap(), Ok(converted));
        assert_eq!(*cache.get(Path::new("b.pdf"), stamp(1)).unwrap(), encrypted);
    }

    #[test]
    fn a_changed_file_is_not_served_and_frees_its_room() {
        let cache = ConversionCache::with_capacity(10);
        let path = Path::new("a.docx");
        cache.insert(path, stamp(1), Ok(text(8)));
        assert!(cache.get(path, stamp(2)).is_none(), "the file changed");
        assert!(
            cache.get(path, stamp(1)).is_none(),
            "the stale entry is gone"
        );
        cache.insert(path, stamp(2), Ok(text(8)));
        assert_eq!(
            cache
                .get(path, stamp(2))
                .unwrap()
                .as_ref()
                .as_ref()
                .unwrap()
                .text
                .len(),
            8
        );
        // Converted again for a new state, the entry replaces the old one.
        cache.insert(path, stamp(3), Ok(text(9)));
        assert!(cache.get(path, stamp(3)).is_some());
    }

    #[test]
    fn a_full_cache_stores_nothing_more() {
        let cache = ConversionCache::with_capacity(10);
        cache.insert(Path::new("a.pdf"), stamp(1), Ok(text(6)));
        let back = cache.insert(Path::new("b.pdf"), stamp(1), Ok(text(6)));
        assert!(back.is_ok());
        assert!(cache.get(Path::new("a.pdf"), stamp(1)).is_some());
        assert!(cache.get(Path::new("b.pdf"), stamp(1)).is_none());
    }
}
