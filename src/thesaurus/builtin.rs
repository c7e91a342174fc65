//! The embedded thesaurus: `builtin.txt`, compiled into the binary.
//!
//! The data file is written for review: one concept per line,
//! `name: synonym, synonym, …`, `#` comments and blank lines ignored, an
//! optional `name | alternative:` head. Ids are the line order (1-based among
//! concept lines), stable while the file only grows at the end of sections.

use super::{Concept, Layer, Thesaurus};

/// The data file.
pub const BUILTIN: &str = include_str!("builtin.txt");

/// One parsed line: the concept name, its extra names and synonyms.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub name: String,
    /// Its extra names and synonyms (the extra names first).
    pub synonyms: Vec<String>,
    /// How many of `synonyms` are extra names from the head (`environment |
    /// env`): the short names code writes for the word.
    pub short: usize,
}

/// The short names the embedded thesaurus gives a concept in its head
/// (`environment | env`), by concept name: the abbreviation code writes for
/// the word inside compound names (`envVar`, `connPool`, `errMsg`). Empty
/// for a concept without one.
pub fn short_names(concept: &str) -> &'static [String] {
    static SHORT: std::sync::OnceLock<std::collections::HashMap<String, Vec<String>>> =
        std::sync::OnceLock::new();
    SHORT
        .get_or_init(|| {
            // Only lines with an alternative in their head: parsing every
            // line was a fifth of the start-up instructions.
            let has_short = |line: &str| line.split_once(':').is_some_and(|(h, _)| h.contains('|'));
            parse_where(BUILTIN, has_short)
                .unwrap_or_default()
                .into_iter()
                .map(|(_, e)| e)
                .filter(|e| e.short > 0)
                .map(|mut e| {
                    e.synonyms.truncate(e.short);
                    (e.name, e.synonyms)
                })
                .collect()
        })
        .get(concept)
        .map_or(&[], Vec::as_slice)
}

/// Parses the data format; a line without `:` is an error naming the line.
pub fn parse(text: &str) -> Result<Vec<Entry>, String> {
    parse_where(text, |_| true).map(|entries| entries.into_iter().map(|(_, e)| e).collect())
}

/// Parses the concept lines `keep` accepts, each with its id (its 1-based rank
/// among all concept lines, so ids do not depend on the filter).
fn parse_where(text: &str, keep: impl Fn(&str) -> bool) -> Result<Vec<(u64, Entry)>, String> {
    let mut out = Vec::new();
    let mut id = 0u64;
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with(FAMILY_MARK) {
            continue;
        }
        id += 1;
        if !keep(line) {
            continue;
        }
        let Some((head, tail)) = line.split_once(':') else {
            return Err(format!("line {}: expected `concept: synonym, …`", n + 1));
        };
        let mut names = head.split('|').map(str::trim).filter(|s| !s.is_empty());
        let Some(name) = names.next() else {
            return Err(format!("line {}: empty concept name", n + 1));
        };
        let short: Vec<String> = names.map(str::to_lowercase).collect();
        let mut synonyms = short.clone();
        synonyms.extend(
            tail.split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_lowercase),
        );
        out.push((
            id,
            Entry {
                name: name.to_lowercase(),
                short: short.len(),
                synonyms,
            },
        ));
    }
    Ok(out)
}

/// A line starting with this lists a verb family (`~ find, lookup, locate`):
/// words code uses for one action in different places. Not a concept: a
/// family member in the query also searches the others, weaker than
/// synonyms (`query::RELATED_WEIGHT`).
pub const FAMILY_MARK: char = '~';

/// The verb families of a data file, lowercase, in order.
pub fn families(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .filter_map(|l| l.trim().strip_prefix(FAMILY_MARK))
        .map(|rest| {
            rest.split(',')
                .map(|w| w.trim().to_lowercase())
                .filter(|w| !w.is_empty())
                .collect::<Vec<String>>()
        })
        .filter(|f| f.len() >= 2)
        .collect()
}

/// Builds a thesaurus from entries of one layer (first mapping wins).
pub fn from_entries(entries: &[Entry], layer: Layer) -> Thesaurus {
    let numbered: Vec<(u64, Entry)> = entries
        .iter()
        .enumerate()
        .map(|(i, e)| (i as u64 + 1, e.clone()))
        .collect();
    from_numbered(&numbered, layer, &|_| true)
}

/// Builds a thesaurus from numbered entries of one layer, where only the
/// synonyms `matchable` holds are found by their stem
/// ([`Thesaurus::add_where`]).
fn from_numbered(
    entries: &[(u64, Entry)],
    layer: Layer,
    matchable: &dyn Fn(&str) -> bool,
) -> Thesaurus {
    let mut t = Thesaurus::new();
    for (id, e) in entries {
        let concept = Concept {
            id: *id,
            name: e.name.clone(),
            layer,
            learned: None,
        };
        t.add_where(concept, &e.synonyms, false, matchable);
    }
    t
}

/// The embedded thesaurus. The data is checked by tests, so a parse error here
/// can only come from a broken build; it yields an empty thesaurus.
pub fn load() -> Thesaurus {
    load_focused(None)
}

/// Characters of a word's start that a concept line must share with a query
/// word to be loaded. Two, because stemming only rewrites word endings and no
/// stem is shorter than two characters: a word and a synonym with the same
/// stem, or the same spelling, always start alike.
pub const FOCUS_PREFIX: usize = 2;

/// The embedded thesaurus, or with `focus` (the query's lowercase content
/// words, `query::focus_words`: stop words find no concept, as a phrase of
/// only stop words is not expanded) only the concept lines that could match
/// one of them — what a query needs, built in a fraction of the start-up time
/// the whole thesaurus takes.
pub fn load_focused(focus: Option<&[String]>) -> Thesaurus {
    // A set: a long query repeats prefixes, and each line word is looked up once
    // (a list made a 16 kB query take seconds per run).
    let prefixes = focus.map(Prefixes::of);
    let keep = |line: &str| match &prefixes {
        None => true,
        Some(prefixes) => line
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .any(|w| prefixes.holds(w)),
    };
    let mut t = match parse_where(BUILTIN, keep) {
        Ok(entries) => from_numbered(&entries, Layer::Builtin, &keep),
        Err(_) => Thesaurus::new(),
    };
    // A family none of whose words could be a query word's is never
    // looked up (`Thesaurus::related` is keyed by stem).
    for family in families(BUILTIN) {
        if prefixes
            .as_ref()
            .is_none_or(|p| family.iter().any(|w| p.holds(w)))
        {
            t.add_family(&family);
        }
    }
    t
}

/// The [`FOCUS_PREFIX`]-character prefixes of the query's words, looked up
/// once per word of every thesaurus line at start-up: an ASCII prefix is a
/// bit (no allocation, no hash), any other a string in a set.
///
/// A query word whose stem is longer than [`LONG_STEM`] characters is
/// matched by its first three characters instead (`con` rather than `co`):
/// stemming rewrites only a word's last characters, so a synonym with the
/// same stem starts with the same three. Two characters let through every
/// line with a word starting `co`, a sixth of the thesaurus, and stemming
/// the synonyms of the lines let through was most of the start-up.
struct Prefixes {
    /// Bit `a << 8 | b` for the lowercase ASCII prefix `ab` of any query word.
    ascii: Vec<u64>,
    /// The same bits for the words matched by two characters: a stem of at
    /// most [`LONG_STEM`] characters (`tri` of `try`, whose last character
    /// stemming rewrote), or a word of two.
    short: Vec<u64>,
    /// The lowercase three-character ASCII prefixes of the other words.
    long: Vec<[u8; 3]>,
    other: std::collections::HashSet<String>,
}

/// A stem this long or shorter may differ from its word in its third
/// character (`try` -> `tri`): such a word is matched by two characters.
const LONG_STEM: usize = 3;

impl Prefixes {
    fn of(words: &[String]) -> Prefixes {
        let mut out = Prefixes {
            ascii: vec![0; 1 << 10],
            short: vec![0; 1 << 10],
            long: Vec::new(),
            other: std::collections::HashSet::new(),
        };
        // A few words stem to another start (`dying` -> `die`): the stem
        // shares no prefix with the word. (An irregular form's base, `made`
        // -> `make`, is among the words: `query::focus_words`.)
        let mut all: Vec<String> = Vec::with_capacity(words.len() * 2);
        for w in words {
            all.push(w.clone());
            all.push(super::stem(w));
        }
        for w in &all {
            match ascii_key(w) {
                Some(k) => {
                    out.ascii[k >> 6] |= 1 << (k & 63);
                    match long_key(w) {
                        Some(three) if super::stem(w).chars().count() > LONG_STEM => {
                            if !out.long.contains(&three) {
                                out.long.push(three);
                            }
                        }
                        _ => out.short[k >> 6] |= 1 << (k & 63),
                    }
                }
                None => {
                    out.other.insert(prefix_of(w));
                }
            }
        }
        out
    }

    fn holds(&self, word: &str) -> bool {
        match ascii_key(word) {
            Some(k) => {
                let bit = 1 << (k & 63);
                self.ascii[k >> 6] & bit != 0
                    && (self.short[k >> 6] & bit != 0
                        || long_key(word).is_some_and(|three| self.long.contains(&three)))
            }
            None => !self.other.is_empty() && self.other.contains(&prefix_of(word)),
        }
    }
}

/// A word's first three characters, lowercased, when they are ASCII.
fn long_key(word: &str) -> Option<[u8; 3]> {
    match word.as_bytes() {
        [a, b, c, ..] if a.is_ascii() && b.is_ascii() && c.is_ascii() => Some([
            a.to_ascii_lowercase(),
            b.to_ascii_lowercase(),
            c.to_ascii_lowercase(),
        ]),
        _ => None,
    }
}

/// The bit of a word whose first [`FOCUS_PREFIX`] characters are ASCII
/// (lowercased); `None` for a shorter word or another script.
fn ascii_key(word: &str) -> Option<usize> {
    const _: () = assert!(FOCUS_PREFIX == 2);
    match word.as_bytes() {
        [a, b, ..] if a.is_ascii() && b.is_ascii() => {
            Some(usize::from(a.to_ascii_lowercase()) << 8 | usize::from(b.to_ascii_lowercase()))
        }
        _ => None,
    }
}

fn prefix_of(word: &str) -> String {
    word.chars()
        .take(FOCUS_PREFIX)
        .flat_map(char::to_lowercase)
        .collect()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn format_parses() {
        let e = parse("# net\nconfiguration | config: cfg, Conf ,settings\n\nretry: retries\n")
            .unwrap();
        assert_eq!(e[0].name, "configuration");
        assert_eq!(e[0].synonyms, vec!["config", "cfg", "conf", "settings"]);
        assert_eq!(e[0].short, 1);
        assert_eq!(e[1].name, "retry");
        assert_eq!(e[1].short, 0);
        assert_eq!(short_names("environment"), ["env"]);
        assert!(short_names("retry").is_empty());
        assert!(parse("no colon here").unwrap_err().contains("line 1"));
    }

    #[test]
    fn builtin_data_is_large_clean_and_unambiguous() {
        let entries = parse(BUILTIN).unwrap();
        let synonyms: usize = entries.iter().map(|e| e.synonyms.len()).sum();
        assert!(entries.len() >= 400, "only {} concepts", entries.len());
        assert!(synonyms >= 2000, "only {synonyms} synonyms");
        let mut owner: HashMap<String, &str> = HashMap::new();
        for e in &entries {
            for s in std::iter::once(&e.name).chain(&e.synonyms) {
                assert!(
                    super::super::normalize(s).as_deref() == Some(s.as_str()),
                    "not normalised: {s:?}"
                );
                if let Some(first) = owner.insert(s.clone(), &e.name) {
                    assert_eq!(
                        first, e.name,
                        "{s:?} belongs to both {first:?} and {:?}",
                        e.name
                    );
                }
            }
        }
    }

    #[test]
    fn verb_families_join_the_words_code_uses_for_one_action() {
        let t = load();
        let related = |w: &str| t.related(&crate::query::stem(w)).to_vec();
        assert!(related("find").contains(&"locate".to_string()));
        assert!(related("zebra").is_empty());
        assert!(related("locat").contains(&"lookup".to_string()));
        assert!(related("decide").contains(&"choose".to_string()));
        assert!(related("print").contains(&"render".to_string()));
        // A rejected value is handled where a failure or an exception is
        // caught (`except Failure`, `catch (Exception e)`).
        assert!(related("reject").contains(&"failure".to_string()));
        assert!(related("fail").contains(&"exception".to_string()));
        // What happens when an object is created is in its constructor
        // (`constructor(options)`, `def __init__`).
        assert!(related("created").contains(&"constructor".to_string()));
        assert!(!related("find").contains(&"find".to_string()), "not itself");
        for family in families(BUILTIN) {
            for w in &family {
                assert!(
                    super::super::normalize(w).as_deref() == Some(w.as_str()) && !w.contains(' '),
                    "{w:?}"
                );
            }
        }
    }

    #[test]
    fn builtin_knows_the_common_abbreviations() {
        let t = load();
        for (abbr, full) in [
            ("cfg", "config"),
            ("ctx", "context"),
            ("req", "request"),
            ("resp", "response"),
            ("err", "error"),
            ("conn", "connection"),
            ("env", "environment"),
            ("dir", "directory"),
            ("msg", "message"),
            ("db", "database"),
            ("kex", "key exchange"),
            // Python's `str.lower()`, JavaScript's `toLowerCase()`.
            ("lower", "lowercase"),
            ("tolowercase", "lowercase"),
            ("upper", "uppercase"),
            // Code says `invalid` where a question says `bad`; a bad
            // request stays its own concept.
            ("bad", "invalid"),
            // A question's time limit is the code's timeout; its ctrl+c
            // (split into two words) is the code's `isCtrlC` or SIGINT.
            ("time limit", "timeout"),
            ("ctrl c", "interrupt"),
            ("ctrlc", "sigint"),
        ] {
            let a = t.lookup(abbr).unwrap_or_else(|| panic!("{abbr} unknown"));
            let f = t.lookup(full).unwrap_or_else(|| panic!("{full} unknown"));
            assert_eq!(a, f, "{abbr} and {full} should share a concept");
        }
        assert_ne!(t.lookup("bad request"), t.lookup("invalid"));
    }

    /// Code names a failure by its errno (`ETIMEDOUT`, `ECONNREFUSED`); a
    /// question names it in words.
    #[test]
    fn errno_names_share_the_concept_they_name() {
        let t = load();
        for (errno, words) in [
            ("etimedout", "timed out"),
            ("econnrefused", "connection refused"),
            ("econnreset", "connection reset"),
            ("enoent", "no such file"),
            ("eacces", "permission denied"),
            ("epipe", "broken pipe"),
        ] {
            let e = t.lookup(errno).unwrap_or_else(|| panic!("{errno} unknown"));
            assert_eq!(Some(e), t.lookup(words), "{errno} and {words}");
        }
    }

    #[test]
    fn a_focused_load_finds_what_the_whole_thesaurus_finds() {
        let whole = load();
        for query in [
            "where is the connection pool size configured",
            "retries with exponential backoff",
            "how are auth tokens refreshed",
            "parse the cfg file",
            "ctx req resp err",
            "Caching of DNS lookups",
            "é ü x",
            "",
        ] {
            let words: Vec<String> = query.split_whitespace().map(str::to_lowercase).collect();
            let focused = load_focused(Some(&crate::query::focus_words(query)));
            assert!(focused.concept_count() < whole.concept_count() / 2 || words.len() > 5);
            let names = |t: &Thesaurus| -> Vec<(u64, Vec<String>)> {
                t.find_in(&words)
                    .iter()
                    .filter(|c| {
                        let covered = &words[c.start..c.start + c.len];
                        !covered.iter().all(|w| crate::query::is_stop_word(w))
                    })
                    .map(|c| {
                        let concept = t.concept(c.concept).unwrap();
                        (concept.id, t.synonyms(c.concept).to_vec())
                    })
                    .collect()
            };
            assert_eq!(names(&focused), names(&whole), "{query}");
        }
    }

    #[test]
    fn a_prefix_is_found_whatever_its_case_and_script() {
        let words: Vec<String> = ["Connection", "x", "éclair", "zü", "try", "id"]
            .iter()
            .map(|w| w.to_string())
            .collect();
        let p = Prefixes::of(&words);
        for (word, held) in [
            ("connect", true),
            ("COnfig", true),
            // A long stem is matched by three characters.
            ("cookie", false),
            ("cx", false),
            ("x", true),
            ("xy", false),
            ("Écrire", true),
            ("zü", true),
            ("zu", false),
            ("é", false),
            // A short stem by two: `tries` stems to `tri` as `try` does.
            ("tries", true),
            ("trust", true),
            ("ids", true),
            ("ie", false),
        ] {
            assert_eq!(p.holds(word), held, "{word}");
        }
    }

    #[test]
    fn a_focused_load_keeps_every_line_whose_words_share_a_query_words_stem() {
        let entries = parse(BUILTIN).unwrap();
        let vocabulary: Vec<String> = entries
            .iter()
            .flat_map(|e| &e.synonyms)
            .flat_map(|s| crate::query::words(s))
            .collect();
        let suffixes = ["", "s", "es", "ed", "ing", "ies", "ly", "y"];
        for (i, word) in vocabulary.iter().enumerate().step_by(3) {
            let asked = format!("{word}{}", suffixes[i % suffixes.len()]);
            let p = Prefixes::of(std::slice::from_ref(&asked));
            let stem = crate::query::stem(&asked);
            for other in vocabulary.iter().step_by(11).chain([word]) {
                if crate::query::stem(other) == stem || *other == asked {
                    assert!(p.holds(other), "{asked}: {other}");
                }
            }
        }
    }

    #[test]
    fn the_short_names_are_those_of_every_head_with_an_alternative() {
        let entries = parse(BUILTIN).unwrap();
        let with_short: Vec<&Entry> = entries.iter().filter(|e| e.short > 0).collect();
        assert!(with_short.len() >= 10);
        for e in with_short {
            assert_eq!(short_names(&e.name), &e.synonyms[..e.short], "{}", e.name);
        }
    }

    #[test]
    fn a_focused_load_expands_any_query_as_the_whole_one_does() {
        let whole = load();
        let entries = parse(BUILTIN).unwrap();
        let vocabulary: Vec<&String> = entries.iter().flat_map(|e| &e.synonyms).collect();
        let suffixes = ["", "s", "ed", "ing", "ies", "ly"];
        let generated = (0..vocabulary.len()).step_by(7).map(|i| {
            format!(
                "where is the {}{} {}",
                vocabulary[i],
                suffixes[i % suffixes.len()],
                vocabulary[(i * 7 + 3) % vocabulary.len()]
            )
        });
        let read_otherwise = [
            // A stemmer exception: `dying` stems to `die`.
            "Raise SIGINT when dying by ^C",
            // An irregular form searched as its base: `made` as `make`.
            "which function made the logging call",
            // Read as *check*: "test whether", "tests if".
            "which function tests whether the operating system matches",
            "how does it test if two ints are equal",
        ];
        for query in generated.chain(read_otherwise.map(str::to_string)) {
            let focus = crate::query::focus_words(&query);
            let focused = load_focused(Some(&focus));
            assert_eq!(
                crate::query::analyze_with(&query, &focused),
                crate::query::analyze_with(&query, &whole),
                "{query}"
            );
        }
    }
}
