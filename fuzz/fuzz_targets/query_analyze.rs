//! Query analysis of arbitrary text, through the builtin thesaurus: never panics,
//! and a natural-language query keeps at most `MAX_TERMS` query words.
#![no_main]

use std::sync::OnceLock;

use kgrep::query::{self, Origin, QueryKind};
use kgrep::search::matcher::TermMatcher;
use kgrep::thesaurus::{builtin, Thesaurus};
use libfuzzer_sys::fuzz_target;

fn thesaurus() -> &'static Thesaurus {
    static THESAURUS: OnceLock<Thesaurus> = OnceLock::new();
    THESAURUS.get_or_init(builtin::load)
}

fuzz_target!(|data: &[u8]| {
    let raw = String::from_utf8_lossy(data);
    let analysed = query::analyze_with(&raw, thesaurus());
    match analysed.kind {
        QueryKind::Natural => {
            let own = analysed
                .terms
                .iter()
                .filter(|t| t.origin == Origin::Query)
                .count();
            assert!(own <= query::MAX_TERMS, "{own} query terms");
            for term in &analysed.terms {
                assert!(term.weight.is_finite() && term.weight > 0.0, "{term:?}");
            }
        }
        _ => assert!(analysed.terms.is_empty()),
    }
    if let Ok(matcher) = TermMatcher::new(&analysed.terms) {
        for found in matcher.find_all(data) {
            assert!(
                found.start <= found.end && found.end <= data.len(),
                "{found:?}"
            );
        }
    }
    for word in query::typed_words(&raw) {
        let _ = query::split_identifier(&word);
        let _ = query::stem(&word);
        let _ = query::is_stop_word(&word);
    }
});
