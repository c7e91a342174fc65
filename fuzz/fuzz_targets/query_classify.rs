//! The exact-vs-natural decision on arbitrary text: never panics, a regex it
//! picks compiles, and a literal it picks is part of the query.
#![no_main]

use kgrep::query::{self, QueryKind};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let raw = String::from_utf8_lossy(data);
    let _ = query::looks_like_regex(&raw);
    let _ = query::is_identifier_like(&raw);
    match query::classify(&raw) {
        QueryKind::Regex(re) => {
            assert!(
                grep_ok(&re),
                "classified as regex but does not compile: {re:?}"
            );
        }
        QueryKind::Literal(text) => assert!(raw.contains(&text), "{text:?} not in {raw:?}"),
        QueryKind::Natural => {}
    }
});

fn grep_ok(re: &str) -> bool {
    grep_regex::RegexMatcher::new(re).is_ok()
}
