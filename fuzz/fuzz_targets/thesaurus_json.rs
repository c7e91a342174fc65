//! Thesaurus JSON files (Terraphim and legacy shapes) of arbitrary text: never
//! panics; what loads can be looked up.
#![no_main]

use kgrep::thesaurus::{file, Layer};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(thesaurus) = file::parse_json(&text, Layer::User) {
        for index in 0..thesaurus.concept_count().min(64) {
            if let Some(concept) = thesaurus.concept(index) {
                let _ = thesaurus.lookup(&concept.name);
            }
            for synonym in thesaurus.synonyms(index) {
                let _ = thesaurus.lookup(synonym);
            }
        }
        let words: Vec<String> = text
            .split_whitespace()
            .take(64)
            .map(str::to_string)
            .collect();
        let _ = thesaurus.find_in(&words);
    }
});
