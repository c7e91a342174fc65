//! Converted documents kept in memory for the length of one run.
//!
//! A natural-language search reads a file up to three times (term counts,
//! line scores, printing); a PDF or spreadsheet is converted once and served
//! from here afterwards, failures included, so a broken file is neither
//! converted nor reported twice. Plain text files are not cached: reading
//! them again is cheaper than holding them. Nothing is written to disk.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

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
    entries: HashMap<PathBuf, Outcome>,
    bytes: usize,
}

impl ConversionCache {
    /// A cache holding at most `capacity` bytes of converted text.
    pub fn with_capacity(capacity: usize) -> ConversionCache {
        ConversionCache {
            inner: Mutex::new(Inner::default()),
            capacity,
        }
    }

    /// The outcome stored for `path`, if any.
    pub fn get(&self, path: &Path) -> Option<Outcome> {
        let inner = self.inner.lock().ok()?;
        inner.entries.get(path).cloned()
    }

    /// Stores an outcome unless the cache is full; returns it either way.
    pub fn insert(&self, path: &Path, outcome: Result<Converted, ConvertError>) -> Outcome {
        let outcome = Arc::new(outcome);
        let size = outcome.as_ref().as_ref().map_or(0, |c| {
            c.text.len() + 4 * c.pages.as_ref().map_or(0, Vec::len)
        });
        if let Ok(mut inner) = self.inner.lock() {
            if inner.bytes + size <= self.capacity {
                inner.bytes += size;
                inner
                    .entries
                    .insert(path.to_path_buf(), Arc::clone(&outcome));
            }
        }
        outcome
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn outcomes_come_back() {
        let cache = ConversionCache::default();
        let path = Path::new("a.pdf");
        assert!(cache.get(path).is_none());
        let converted = Converted {
            text: "x".into(),
            pages: Some(vec![1]),
            unread: Vec::new(),
        };
        cache.insert(path, Ok(converted.clone()));
        cache.insert(Path::new("b.pdf"), Err(ConvertError::Encrypted("PDF")));
        assert_eq!(*cache.get(path).unwrap(), Ok(converted));
        assert_eq!(
            *cache.get(Path::new("b.pdf")).unwrap(),
            Err(ConvertError::Encrypted("PDF"))
        );
    }

    #[test]
    fn a_full_cache_stores_nothing_more() {
        let cache = ConversionCache::with_capacity(10);
        let text = |n: usize| Converted {
            text: "x".repeat(n),
            pages: None,
            unread: Vec::new(),
        };
        cache.insert(Path::new("a.pdf"), Ok(text(6)));
        let back = cache.insert(Path::new("b.pdf"), Ok(text(6)));
        assert!(back.is_ok());
        assert!(cache.get(Path::new("a.pdf")).is_some());
        assert!(cache.get(Path::new("b.pdf")).is_none());
    }
}
