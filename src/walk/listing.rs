//! The whole file list of a walk, held compactly and in a fixed order.
//!
//! Owns keeping every haystack of a big tree in little memory — each entry is
//! its root and its (UTF-8) path below that root, back to back in one
//! buffer (a kernel's 78k files: ~4 MB instead of ~17 MB of `Haystack`s) — and
//! handing each back by position, rebuilt exactly as the walk made it. The
//! order is by root, then path bytes: the same on every run, whatever order the
//! walker threads found the files in. Does not choose files (`walk`) or read
//! them (`search`).

use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use super::{walk_with, Haystack, Root, Source, Visitor, WalkOptions};

/// Every haystack of a walk (or of a list in hand), by position.
#[derive(Clone, Debug, Default)]
pub struct Listing {
    roots: Vec<Root>,
    /// The path below its root of every `Entry::Below`, back to back.
    names: Vec<u8>,
    entries: Vec<Entry>,
    /// Haystacks that cannot be rebuilt from a root (piped stdin, paths that
    /// are not UTF-8, any the walk named otherwise), kept whole.
    whole: Vec<Haystack>,
    /// Regular files the walk considered (`WalkOutcome::scanned`).
    pub scanned: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Entry {
    Below { root: u32, start: usize, end: usize },
    Whole(usize),
}

impl Listing {
    /// Walks `paths` and lists what the walk selects.
    pub fn walk(paths: &[PathBuf], opts: &WalkOptions, cwd: &Path) -> Listing {
        let roots: Vec<Root> = paths.iter().map(|arg| Root::new(arg, cwd)).collect();
        let listing = Mutex::new(Listing::default());
        let scanned = walk_with(paths, opts, cwd, || Add {
            roots: &roots,
            listing: &listing,
        });
        let mut listing = listing.into_inner().unwrap_or_else(PoisonError::into_inner);
        listing.roots = roots;
        listing.scanned = scanned;
        listing.sort();
        listing
    }

    /// A listing of haystacks already in hand, in the order given.
    pub fn of(haystacks: &[Haystack]) -> Listing {
        Listing {
            entries: (0..haystacks.len()).map(Entry::Whole).collect(),
            whole: haystacks.to_vec(),
            scanned: haystacks.len(),
            ..Listing::default()
        }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The haystack at `index` (`None` past the end).
    pub fn get(&self, index: usize) -> Option<Haystack> {
        match *self.entries.get(index)? {
            Entry::Whole(i) => self.whole.get(i).cloned(),
            Entry::Below { root, start, end } => {
                let root = self.roots.get(root as usize)?;
                let below = std::str::from_utf8(self.names.get(start..end)?).ok()?;
                Some(Haystack {
                    key: root.key_below(below),
                    source: Source::Path(root.path_below(below)),
                })
            }
        }
    }

    /// Adds one haystack: compactly, below `root`, when that rebuilds it.
    fn add(&mut self, h: &Haystack, below: Option<(u32, &str)>) {
        if let Some((root, below)) = below {
            let start = self.names.len();
            self.names.extend_from_slice(below.as_bytes());
            let end = self.names.len();
            self.entries.push(Entry::Below { root, start, end });
        } else {
            self.entries.push(Entry::Whole(self.whole.len()));
            self.whole.push(h.clone());
        }
    }

    /// Root, then path bytes below it; whole haystacks last, by key.
    fn sort(&mut self) {
        let mut entries = std::mem::take(&mut self.entries);
        entries.sort_by(|a, b| self.order_of(a).cmp(&self.order_of(b)));
        self.entries = entries;
    }

    fn order_of(&self, e: &Entry) -> (u32, &[u8]) {
        match *e {
            Entry::Below { root, start, end } => (root, &self.names[start..end]),
            Entry::Whole(i) => (u32::MAX, self.whole[i].key.as_bytes()),
        }
    }
}

/// The walk's visitor: adds each haystack to the shared listing.
struct Add<'l> {
    roots: &'l [Root],
    listing: &'l Mutex<Listing>,
}

impl Add<'_> {
    /// The first root that rebuilds `h` exactly, and its path below that root.
    fn below<'h>(&self, h: &'h Haystack) -> Option<(u32, &'h str)> {
        let Source::Path(path) = &h.source else {
            return None;
        };
        self.roots.iter().enumerate().find_map(|(i, root)| {
            let below = root.text_below(path)?;
            let same = root.key_is(below, &h.key);
            Some((u32::try_from(i).ok()?, below)).filter(|_| same)
        })
    }
}

impl Visitor for Add<'_> {
    fn visit(&mut self, haystack: Haystack) {
        let below = self.below(&haystack);
        let mut listing = self.listing.lock().unwrap_or_else(PoisonError::into_inner);
        listing.add(&haystack, below);
    }
}

impl Root {
    /// The path below this root as the walker built it (the root's path, a
    /// `/`, the rest; empty for the root itself), when it is UTF-8: compared
    /// as bytes, which is all a walked path needs and far cheaper than
    /// `Path::strip_prefix`.
    fn text_below<'p>(&self, path: &'p Path) -> Option<&'p str> {
        let path = path.to_str()?;
        let full = self.full.to_str()?;
        let rest = path.strip_prefix(full)?;
        if rest.is_empty() {
            return Some(rest);
        }
        rest.strip_prefix('/').filter(|below| !below.is_empty())
    }

    /// `key_of` for a path `text_below` split.
    fn key_below(&self, below: &str) -> String {
        match (self.key.is_empty(), below.is_empty()) {
            (true, _) => below.to_string(),
            (false, true) => self.key.clone(),
            (false, false) => format!("{}/{below}", self.key),
        }
    }

    /// Whether `key_below(below)` is `key`, without building it (this runs
    /// for every file of the walk).
    fn key_is(&self, below: &str, key: &str) -> bool {
        match (self.key.is_empty(), below.is_empty()) {
            (true, _) => key == below,
            (false, true) => key == self.key,
            (false, false) => key
                .strip_prefix(self.key.as_str())
                .and_then(|rest| rest.strip_prefix('/'))
                .is_some_and(|rest| rest == below),
        }
    }

    /// The path `text_below` came from.
    fn path_below(&self, below: &str) -> PathBuf {
        if below.is_empty() {
            self.full.clone()
        } else {
            self.full.join(below)
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn tree() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for name in ["b.rs", "a/z.rs", "a/y.rs", "c/d/e.txt"] {
            let path = dir.path().join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, "x\n").unwrap();
        }
        dir
    }

    #[test]
    fn rebuilds_every_haystack_as_the_walk_made_it() {
        let dir = tree();
        let paths = [PathBuf::from("."), PathBuf::from("a/y.rs")];
        let opts = WalkOptions::default();
        let listing = Listing::walk(&paths, &opts, dir.path());
        let walked = super::super::walk(&paths, &opts, dir.path());
        assert_eq!(listing.scanned, walked.scanned);
        let mut rebuilt: Vec<Haystack> =
            (0..listing.len()).filter_map(|i| listing.get(i)).collect();
        rebuilt.sort_by(|a, b| a.key.cmp(&b.key));
        assert_eq!(rebuilt, walked.haystacks);
        assert!(listing.whole.is_empty(), "all compact: {:?}", listing.whole);
        assert_eq!(listing.get(listing.len()), None);
    }

    #[test]
    fn roots_below_the_folder_rebuild_their_keys() {
        let dir = tree();
        let paths = [
            PathBuf::from("a"),
            PathBuf::from("./c/"),
            PathBuf::from("b.rs"),
        ];
        let opts = WalkOptions::default();
        let listing = Listing::walk(&paths, &opts, dir.path());
        let mut rebuilt: Vec<Haystack> =
            (0..listing.len()).filter_map(|i| listing.get(i)).collect();
        rebuilt.sort_by(|a, b| a.key.cmp(&b.key));
        assert_eq!(
            rebuilt,
            super::super::walk(&paths, &opts, dir.path()).haystacks
        );
        assert!(listing.whole.is_empty(), "all compact: {:?}", listing.whole);
    }

    #[test]
    fn the_order_is_by_path_not_by_thread_timing() {
        let dir = tree();
        let keys = |l: &Listing| -> Vec<String> {
            (0..l.len())
                .filter_map(|i| l.get(i))
                .map(|h| h.key)
                .collect()
        };
        let listing = Listing::walk(&[PathBuf::from(".")], &WalkOptions::default(), dir.path());
        assert_eq!(
            keys(&listing),
            vec!["a/y.rs", "a/z.rs", "b.rs", "c/d/e.txt"]
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_name_that_is_not_utf8_is_kept_whole() {
        use std::os::unix::ffi::OsStrExt;
        let dir = tree();
        let odd = dir.path().join(std::ffi::OsStr::from_bytes(b"odd\xff.rs"));
        std::fs::write(&odd, "x\n").unwrap();
        let paths = [PathBuf::from(".")];
        let opts = WalkOptions::default();
        let listing = Listing::walk(&paths, &opts, dir.path());
        assert_eq!(listing.whole.len(), 1);
        let mut rebuilt: Vec<Haystack> =
            (0..listing.len()).filter_map(|i| listing.get(i)).collect();
        rebuilt.sort_by(|a, b| a.key.cmp(&b.key));
        assert_eq!(
            rebuilt,
            super::super::walk(&paths, &opts, dir.path()).haystacks
        );
        assert_eq!(
            listing.get(listing.len() - 1).unwrap().source,
            Source::Path(odd)
        );
    }

    #[test]
    fn haystacks_in_hand_are_kept_whole_in_their_order() {
        let hs = vec![super::super::stdin_haystack(b"hi".to_vec())];
        let listing = Listing::of(&hs);
        assert_eq!(listing.len(), 1);
        assert_eq!(listing.get(0), Some(hs[0].clone()));
    }
}
