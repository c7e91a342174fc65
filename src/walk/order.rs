//! The order `--sort path` and `--sortr path` put haystacks in: ripgrep 13's.
//!
//! ripgrep sorts while it walks: each path argument in the order given, and
//! inside one the entries of every folder by name, so paths compare component
//! by component (`a/f` before `a b/g`, where comparing the whole paths as bytes
//! would put `a b` first, a space being less than `/`). `--sortr path` reverses
//! each folder's order but not the arguments'. A file two arguments reach
//! belongs to the first of them, as it does in the walk (which searches it
//! once, where ripgrep prints it under each argument).
//!
//! Owns that comparison; does not choose the haystacks (the walk), order them
//! by time or choose which order a run asks for (`rank::Searched::sort_selected`).

use std::cmp::Ordering;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::{lexical, Haystack, Source};

/// Where each path argument lies on disk, as the walk joins it to the working
/// directory, and its place among the arguments (the first, for an argument
/// given twice).
#[derive(Clone, Debug, Default)]
pub struct PathOrder {
    roots: HashMap<PathBuf, usize>,
}

/// What one haystack is ordered by: the argument it was found under (`None`:
/// piped stdin, or no argument was given, so all are under `.`), then its path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PathKey<'h> {
    argument: Option<usize>,
    path: &'h Path,
}

impl PathOrder {
    /// The order of the haystacks found under `args` (the paths as the user
    /// gave them, relative ones to `cwd`); no arguments give the order of `.`.
    pub fn new(args: &[PathBuf], cwd: &Path) -> PathOrder {
        let mut roots = HashMap::with_capacity(args.len());
        for (index, arg) in args.iter().enumerate() {
            roots.entry(lexical(&cwd.join(arg))).or_insert(index);
        }
        PathOrder { roots }
    }

    /// The key `h` sorts by. A file lies under an argument when the argument
    /// is the file or one of its folders: looked up a folder at a time, so a
    /// list of many arguments (`--paths-from-stdin`) costs one look-up per
    /// folder of each file, not one per argument.
    pub fn key<'h>(&self, h: &'h Haystack) -> PathKey<'h> {
        match &h.source {
            Source::Path(path) => PathKey {
                argument: path
                    .ancestors()
                    .filter_map(|folder| self.roots.get(folder).copied())
                    .min(),
                path,
            },
            Source::Stdin(_) => PathKey {
                argument: None,
                path: Path::new(&h.key),
            },
        }
    }

    /// `haystacks` in this order, descending paths with `reverse` (as
    /// [`PathKey::cmp_sorted`]): `--files --sort path`'s list. Each key is
    /// made once, not once a comparison.
    pub fn sort(&self, haystacks: Vec<Haystack>, reverse: bool) -> Vec<Haystack> {
        let mut places: Vec<usize> = (0..haystacks.len()).collect();
        {
            let keys: Vec<PathKey<'_>> = haystacks.iter().map(|h| self.key(h)).collect();
            places.sort_by(|&a, &b| keys[a].cmp_sorted(&keys[b], reverse));
        }
        let mut slots: Vec<Option<Haystack>> = haystacks.into_iter().map(Some).collect();
        places
            .into_iter()
            .filter_map(|place| slots.get_mut(place).and_then(Option::take))
            .collect()
    }
}

impl PathKey<'_> {
    /// ripgrep's order of two haystacks: by argument, then by path, component
    /// by component, each component's bytes; `reverse` (`--sortr`) turns the
    /// paths' order around and keeps the arguments'.
    pub fn cmp_sorted(&self, other: &PathKey<'_>, reverse: bool) -> Ordering {
        // No argument (stdin, or the default `.`) orders after any argument.
        let argument = |k: &PathKey<'_>| k.argument.unwrap_or(usize::MAX);
        let paths = self.path.cmp(other.path);
        argument(self)
            .cmp(&argument(other))
            .then(if reverse { paths.reverse() } else { paths })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn file(path: &str) -> Haystack {
        Haystack {
            key: path.trim_start_matches("/w/").to_string(),
            source: Source::Path(PathBuf::from(path)),
        }
    }

    /// The keys of `paths` as `order` sorts them.
    fn sorted(order: &PathOrder, paths: &[&str], reverse: bool) -> Vec<String> {
        let mut haystacks: Vec<Haystack> = paths.iter().map(|p| file(p)).collect();
        haystacks.sort_by(|a, b| order.key(a).cmp_sorted(&order.key(b), reverse));
        haystacks.into_iter().map(|h| h.key).collect()
    }

    #[test]
    fn paths_compare_component_by_component() {
        let order = PathOrder::new(&[], Path::new("/w"));
        let paths = ["/w/a b/g", "/w/a.txt", "/w/a/x/y", "/w/a-c/h", "/w/a/f"];
        assert_eq!(
            sorted(&order, &paths, false),
            ["a/f", "a/x/y", "a b/g", "a-c/h", "a.txt"]
        );
        assert_eq!(
            sorted(&order, &paths, true),
            ["a.txt", "a-c/h", "a b/g", "a/x/y", "a/f"]
        );
    }

    #[test]
    fn arguments_keep_their_order_and_a_file_goes_with_the_first() {
        let args = ["z", "./a/x", "a", "top"].map(PathBuf::from);
        let order = PathOrder::new(&args, Path::new("/w"));
        let paths = ["/w/top", "/w/a/f", "/w/a/x/y", "/w/z/q", "/w/a/x/b"];
        assert_eq!(
            sorted(&order, &paths, false),
            ["z/q", "a/x/b", "a/x/y", "a/f", "top"]
        );
        assert_eq!(
            sorted(&order, &paths, true),
            ["z/q", "a/x/y", "a/x/b", "a/f", "top"]
        );
        let haystacks: Vec<Haystack> = paths.iter().map(|p| file(p)).collect();
        let keys = |hs: Vec<Haystack>| hs.into_iter().map(|h| h.key).collect::<Vec<_>>();
        assert_eq!(
            keys(order.sort(haystacks.clone(), true)),
            sorted(&order, &paths, true)
        );
        assert_eq!(
            keys(order.sort(haystacks, false)),
            sorted(&order, &paths, false)
        );
        // A file outside every argument (none given is `.`) comes last.
        let stdin = super::super::stdin_haystack(Vec::new());
        let first = order
            .key(&stdin)
            .cmp_sorted(&order.key(&file("/w/z/q")), false);
        assert_eq!(first, Ordering::Greater);
    }
}
