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
    pub synonyms: Vec<String>,
}

/// Parses the data format; a line without `:` is an error naming the line.
pub fn parse(text: &str) -> Result<Vec<Entry>, String> {
    let mut out = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((head, tail)) = line.split_once(':') else {
            return Err(format!("line {}: expected `concept: synonym, …`", n + 1));
        };
        let mut names = head.split('|').map(str::trim).filter(|s| !s.is_empty());
        let Some(name) = names.next() else {
            return Err(format!("line {}: empty concept name", n + 1));
        };
        let synonyms = names
            .chain(tail.split(','))
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_lowercase)
            .collect();
        out.push(Entry {
            name: name.to_lowercase(),
            synonyms,
        });
    }
    Ok(out)
}

/// Builds a thesaurus from entries of one layer (first mapping wins).
pub fn from_entries(entries: &[Entry], layer: Layer) -> Thesaurus {
    let mut t = Thesaurus::new();
    for (i, e) in entries.iter().enumerate() {
        let concept = Concept {
            id: i as u64 + 1,
            name: e.name.clone(),
            layer: layer.clone(),
            learned: None,
        };
        t.add(concept, &e.synonyms, false);
    }
    t
}

/// The embedded thesaurus. The data is checked by tests, so a parse error here
/// can only come from a broken build; it yields an empty thesaurus.
pub fn load() -> Thesaurus {
    match parse(BUILTIN) {
        Ok(entries) => from_entries(&entries, Layer::Builtin),
        Err(_) => Thesaurus::new(),
    }
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
        assert_eq!(e[1].name, "retry");
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
        ] {
            let a = t.lookup(abbr).unwrap_or_else(|| panic!("{abbr} unknown"));
            let f = t.lookup(full).unwrap_or_else(|| panic!("{full} unknown"));
            assert_eq!(a, f, "{abbr} and {full} should share a concept");
        }
    }
}
