//! The order `--sort` and `--sortr` put haystacks in: ripgrep 13's sorted walk.
//!
//! ripgrep 13 sorts while it walks: each path argument in the order given, and
//! inside one the entries of every folder, compared by name (`path`) or by
//! their own time (`modified`, `accessed`, `created`). So by path, paths
//! compare component by component (`a/f` before `a b/g`, where comparing the
//! whole paths as bytes would put `a b` first, a space being less than `/`);
//! by a time, a folder takes its place by the folder's own time and its files
//! follow one another in it, each folder's in their own order (rg 14 sorts all
//! the files by their own times instead, whatever their folders). `--sortr`
//! reverses each folder's order but not the arguments'. Entries whose times
//! are equal keep the order their folder lists them in (rg 13 sorts each
//! listing stably, `--sortr` too), and one whose time cannot be read comes
//! after the others, either way. A file two arguments reach belongs to the
//! first of them, as it does in the walk (which searches it once, where
//! ripgrep prints it under each argument).
//!
//! Owns that order and the times and folder listings it reads; does not choose
//! the haystacks (the walk) or which order a run asks for (`cli::plan`;
//! `rank::Searched::sort_selected` puts the results in it).

use std::cmp::Ordering;
use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::SystemTime;

use super::{lexical, Haystack, Source};

/// `--sort`/`--sortr`: an order of the printed files other than the
/// search's own (best first for natural language, by path for a literal or
/// regex), as ripgrep's `--sort` names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SortBy {
    /// By path (the heading's name).
    Path,
    /// By the time the file was last modified.
    Modified,
    /// By the time the file was last read.
    Accessed,
    /// By the time the file was created.
    Created,
    /// The search's own order.
    None,
}

/// rg 13's sorted walk of the haystacks found under some path arguments:
/// where each argument lies on disk, as the walk joins it to the working
/// directory, and its place among the arguments (the first, for an argument
/// given twice); what a folder's entries are compared by, and whether
/// descending. Keeps the times and folder listings it has read.
#[derive(Debug)]
pub struct PathOrder {
    roots: HashMap<PathBuf, usize>,
    by: SortBy,
    reverse: bool,
    /// Each entry's time, by its path (a folder's is read once for all the
    /// files below it).
    times: Mutex<HashMap<PathBuf, Option<SystemTime>>>,
    /// Each folder's entries' places in its listing, read when two of them
    /// have the same time.
    listings: Mutex<HashMap<PathBuf, HashMap<OsString, usize>>>,
}

/// What one haystack is ordered by: the argument it was found under (`None`:
/// piped stdin, or a file under no argument), its path and, by a time, the
/// time of each entry between the argument and the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathKey<'h> {
    argument: Option<usize>,
    path: &'h Path,
    /// How many components of `path` are the argument's.
    root: usize,
    /// By a time: the times of the entries below the argument down to the
    /// file, the argument's first (`None`: unreadable). Empty by path.
    times: Vec<Option<SystemTime>>,
}

impl PathOrder {
    /// The order `by` (`reverse`: `--sortr`) of the haystacks found under
    /// `args` (the paths as the user gave them, relative ones to `cwd`); no
    /// arguments are `.`. `None` for `SortBy::None`, the search's own order.
    pub fn new(args: &[PathBuf], cwd: &Path, by: SortBy, reverse: bool) -> Option<PathOrder> {
        if by == SortBy::None {
            return None;
        }
        let dot = [PathBuf::from(".")];
        let args = if args.is_empty() { &dot[..] } else { args };
        let mut roots = HashMap::with_capacity(args.len());
        for (index, arg) in args.iter().enumerate() {
            roots.entry(lexical(&cwd.join(arg))).or_insert(index);
        }
        Some(PathOrder {
            roots,
            by,
            reverse,
            times: Mutex::default(),
            listings: Mutex::default(),
        })
    }

    /// The order a run's `--sort`/`--sortr` asks for, if any.
    pub fn of(sort: Option<(SortBy, bool)>, args: &[PathBuf], cwd: &Path) -> Option<PathOrder> {
        sort.and_then(|(by, reverse)| PathOrder::new(args, cwd, by, reverse))
    }

    /// The key `h` sorts by. A file lies under an argument when the argument
    /// is the file or one of its folders: looked up a folder at a time, so a
    /// list of many arguments (`--paths-from-stdin`) costs one look-up per
    /// folder of each file, not one per argument.
    pub fn key<'h>(&self, h: &'h Haystack) -> PathKey<'h> {
        let Source::Path(path) = &h.source else {
            return PathKey {
                argument: None,
                path: Path::new(&h.key),
                root: 0,
                times: Vec::new(),
            };
        };
        let under = path
            .ancestors()
            .filter_map(|folder| Some((*self.roots.get(folder)?, folder)))
            .min_by_key(|&(argument, _)| argument);
        let root = under.map_or(0, |(_, folder)| folder.components().count());
        let times = match (self.by, under) {
            (SortBy::Modified | SortBy::Accessed | SortBy::Created, Some(_)) => {
                let below = path.components().count().saturating_sub(root);
                let mut entries: Vec<&Path> = path.ancestors().take(below).collect();
                entries.reverse();
                entries.into_iter().map(|entry| self.time(entry)).collect()
            }
            _ => Vec::new(),
        };
        PathKey {
            argument: under.map(|(argument, _)| argument),
            path,
            root,
            times,
        }
    }

    /// `haystacks` in this order: `--files --sort`'s list.
    pub fn sort(&self, haystacks: Vec<Haystack>) -> Vec<Haystack> {
        let places = self.places(
            &haystacks
                .iter()
                .map(|h| Some(self.key(h)))
                .collect::<Vec<_>>(),
        );
        in_places(haystacks, places)
    }

    /// The places of `keys` in this order (one that is `None`, no haystack,
    /// last), ties in their order: sort a list by them with [`in_places`].
    /// Each key is made once by the caller, not once a comparison (a key by
    /// a time walks the file's folders).
    pub fn places(&self, keys: &[Option<PathKey<'_>>]) -> Vec<usize> {
        let mut places: Vec<usize> = (0..keys.len()).collect();
        places.sort_by(|&a, &b| match (&keys[a], &keys[b]) {
            (Some(x), Some(y)) => self.cmp(x, y),
            (x, y) => y.is_some().cmp(&x.is_some()),
        });
        places
    }

    /// ripgrep 13's order of two haystacks: by argument (one under none
    /// last), then below it by name or by a time, a folder at a time.
    pub fn cmp(&self, a: &PathKey<'_>, b: &PathKey<'_>) -> Ordering {
        let argument = |k: &PathKey<'_>| k.argument.unwrap_or(usize::MAX);
        argument(a)
            .cmp(&argument(b))
            .then_with(|| match (self.by, a.argument) {
                (SortBy::Modified | SortBy::Accessed | SortBy::Created, Some(_)) => {
                    self.cmp_times(a, b)
                }
                _ if self.reverse => b.path.cmp(a.path),
                _ => a.path.cmp(b.path),
            })
    }

    /// Two keys under one argument, by a time: at the first entry where
    /// their paths part (two entries of one folder), the older first (the
    /// newer with `reverse`), one whose time is unreadable last, equal times
    /// in the folder's listing order.
    fn cmp_times(&self, a: &PathKey<'_>, b: &PathKey<'_>) -> Ordering {
        fn below<'k>(k: &PathKey<'k>) -> std::iter::Skip<std::path::Components<'k>> {
            k.path.components().skip(k.root)
        }
        let Some(at) = below(a).zip(below(b)).position(|(x, y)| x != y) else {
            // One path is the other (or lies inside it: not two files).
            return below(a).count().cmp(&below(b).count());
        };
        let time = |k: &PathKey<'_>| k.times.get(at).copied().flatten();
        let by_time = match (time(a), time(b)) {
            (Some(x), Some(y)) if self.reverse => y.cmp(&x),
            (Some(x), Some(y)) => x.cmp(&y),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => Ordering::Equal,
        };
        by_time.then_with(|| self.cmp_listed(&a.entry(at), &b.entry(at)))
    }

    /// Two entries of one folder in the order the folder lists them (one it
    /// does not list last), then by name.
    fn cmp_listed(&self, x: &Path, y: &Path) -> Ordering {
        let (Some(folder), Some(x), Some(y)) = (x.parent(), x.file_name(), y.file_name()) else {
            return x.cmp(y);
        };
        let mut listings = lock(&self.listings);
        let listing = listings
            .entry(folder.to_path_buf())
            .or_insert_with(|| listed(folder));
        let place = |name| listing.get(name).copied().unwrap_or(usize::MAX);
        place(x).cmp(&place(y)).then_with(|| x.cmp(y))
    }

    /// The time this order compares of the file or folder at `entry`, as rg
    /// reads it (through a symbolic link); `None` when it cannot be read.
    fn time(&self, entry: &Path) -> Option<SystemTime> {
        let mut times = lock(&self.times);
        *times.entry(entry.to_path_buf()).or_insert_with(|| {
            let meta = std::fs::metadata(entry).ok()?;
            match self.by {
                SortBy::Modified => meta.modified().ok(),
                SortBy::Accessed => meta.accessed().ok(),
                SortBy::Created => meta.created().ok(),
                SortBy::Path | SortBy::None => None,
            }
        })
    }
}

impl PathKey<'_> {
    /// The path of the entry `at` folders below the argument on the way to
    /// this key's file (the file itself at the end).
    fn entry(&self, at: usize) -> PathBuf {
        self.path.components().take(self.root + at + 1).collect()
    }
}

/// `items` in the order `places` gives ([`PathOrder::places`]).
pub fn in_places<T>(items: Vec<T>, places: Vec<usize>) -> Vec<T> {
    let mut slots: Vec<Option<T>> = items.into_iter().map(Some).collect();
    places
        .into_iter()
        .filter_map(|place| slots.get_mut(place).and_then(Option::take))
        .collect()
}

/// Each entry of `folder` by name, with its place in the folder's listing
/// (the order rg 13 reads them in, before its stable sort); none when it
/// cannot be read.
fn listed(folder: &Path) -> HashMap<OsString, usize> {
    std::fs::read_dir(folder)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .enumerate()
                .map(|(place, entry)| (entry.file_name(), place))
                .collect()
        })
        .unwrap_or_default()
}

/// A lock taken even after a panic elsewhere (the maps stay usable).
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
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

    /// The keys of `paths` in the path order of `args` under `/w`.
    fn sorted(args: &[&str], paths: &[&str], reverse: bool) -> Vec<String> {
        let args: Vec<PathBuf> = args.iter().map(PathBuf::from).collect();
        let order = PathOrder::new(&args, Path::new("/w"), SortBy::Path, reverse).unwrap();
        let mut haystacks: Vec<Haystack> = paths.iter().map(|p| file(p)).collect();
        haystacks.sort_by(|a, b| order.cmp(&order.key(a), &order.key(b)));
        haystacks.into_iter().map(|h| h.key).collect()
    }

    #[test]
    fn paths_compare_component_by_component() {
        let paths = ["/w/a b/g", "/w/a.txt", "/w/a/x/y", "/w/a-c/h", "/w/a/f"];
        assert_eq!(
            sorted(&[], &paths, false),
            ["a/f", "a/x/y", "a b/g", "a-c/h", "a.txt"]
        );
        assert_eq!(
            sorted(&[], &paths, true),
            ["a.txt", "a-c/h", "a b/g", "a/x/y", "a/f"]
        );
    }

    #[test]
    fn arguments_keep_their_order_and_a_file_goes_with_the_first() {
        let args = ["z", "./a/x", "a", "top"];
        let paths = ["/w/top", "/w/a/f", "/w/a/x/y", "/w/z/q", "/w/a/x/b"];
        assert_eq!(
            sorted(&args, &paths, false),
            ["z/q", "a/x/b", "a/x/y", "a/f", "top"]
        );
        assert_eq!(
            sorted(&args, &paths, true),
            ["z/q", "a/x/y", "a/x/b", "a/f", "top"]
        );
        let haystacks: Vec<Haystack> = paths.iter().map(|p| file(p)).collect();
        let keys = |hs: Vec<Haystack>| hs.into_iter().map(|h| h.key).collect::<Vec<_>>();
        let args: Vec<PathBuf> = args.iter().map(PathBuf::from).collect();
        for reverse in [false, true] {
            let order = PathOrder::new(&args, Path::new("/w"), SortBy::Path, reverse).unwrap();
            let by_sort = keys(order.sort(haystacks.clone()));
            let args: Vec<&str> = args.iter().filter_map(|a| a.to_str()).collect();
            assert_eq!(by_sort, sorted(&args, &paths, reverse));
        }
        // A file outside every argument comes last.
        let order = PathOrder::new(&args, Path::new("/w"), SortBy::Path, false).unwrap();
        let stdin = super::super::stdin_haystack(Vec::new());
        let first = order.cmp(&order.key(&stdin), &order.key(&file("/w/z/q")));
        assert_eq!(first, Ordering::Greater);
        assert!(PathOrder::new(&args, Path::new("/w"), SortBy::None, false).is_none());
    }

    /// By a time, a folder's entries compare by their own times (a folder
    /// by its own), equal times in the folder's listing order and an
    /// unreadable time last, ascending or not.
    #[test]
    fn by_a_time_each_folder_sorts_its_own_entries() {
        let dir = std::env::temp_dir().join(format!("kgrep-order-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let epoch = SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_600_000_000);
        let at = |secs: u64| epoch + std::time::Duration::from_secs(secs);
        for (name, secs) in [("d/x", 1), ("d/y", 9), ("e/z", 3), ("a.txt", 5), ("top", 7)] {
            let path = dir.join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, "hit\n").unwrap();
            let file = std::fs::File::options().write(true).open(&path).unwrap();
            file.set_modified(at(secs)).unwrap();
        }
        for (folder, secs) in [("d", 8), ("e", 2)] {
            let file = std::fs::File::open(dir.join(folder)).unwrap();
            file.set_modified(at(secs)).unwrap();
        }
        let haystacks: Vec<Haystack> = ["a.txt", "d/x", "d/y", "e/z", "top", "gone"]
            .iter()
            .map(|name| Haystack {
                key: name.to_string(),
                source: Source::Path(dir.join(name)),
            })
            .collect();
        let sorted = |args: &[&str], reverse: bool| {
            let args: Vec<PathBuf> = args.iter().map(PathBuf::from).collect();
            let order = PathOrder::new(&args, &dir, SortBy::Modified, reverse).unwrap();
            let sorted = order.sort(haystacks.clone());
            sorted.into_iter().map(|h| h.key).collect::<Vec<_>>()
        };
        // `rg -l --sort modified hit` (and `--sortr`) on the same tree.
        assert_eq!(
            sorted(&[], false),
            ["e/z", "a.txt", "top", "d/x", "d/y", "gone"]
        );
        assert_eq!(
            sorted(&[], true),
            ["d/y", "d/x", "top", "a.txt", "e/z", "gone"]
        );
        // `rg -l --sort modified hit top d e a.txt`.
        assert_eq!(
            sorted(&["top", "d", "e", "a.txt"], false)[..5],
            ["top", "d/x", "d/y", "e/z", "a.txt"]
        );
        // Equal times: the folder's listing order, `--sortr` too.
        for name in ["d/x", "d/y"] {
            let file = std::fs::File::options()
                .write(true)
                .open(dir.join(name))
                .unwrap();
            file.set_modified(at(4)).unwrap();
        }
        let listed: Vec<String> = std::fs::read_dir(dir.join("d"))
            .unwrap()
            .map(|e| format!("d/{}", e.unwrap().file_name().to_string_lossy()))
            .collect();
        for reverse in [false, true] {
            let d: Vec<String> = sorted(&["d"], reverse).into_iter().take(2).collect();
            assert_eq!(d, listed);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
