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

/// Most converted text held at once. Past it, documents are converted again
/// when read again: slower, but memory stays bounded on a tree of thousands
/// of large PDFs.
pub const MAX_CACHE_BYTES: usize = 512 << 20;

/// One conversion's outcome, shared between readers.
pub type Outcome = Arc<Result<Converted, ConvertError>>;

/// The cache: conversion outcomes by file path.
#[derive(Debug, Default)]
pub struct ConversionCache {
    inner: Mutex<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    entries: HashMap<PathBuf, Outcome>,
    bytes: usize,
}

impl ConversionCache {
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
            if inner.bytes + size <= MAX_CACHE_BYTES {
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
        let cache = ConversionCache::default();
        let huge = Converted {
            text: "x".repeat(MAX_CACHE_BYTES + 1),
            pages: None,
        };
        let back = cache.insert(Path::new("big.pdf"), Ok(huge));
        assert!(back.is_ok());
        assert!(cache.get(Path::new("big.pdf")).is_none());
    }
}
