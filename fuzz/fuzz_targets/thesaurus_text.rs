//! The text thesaurus formats of arbitrary text: a Markdown knowledge-graph page
//! and the builtin `name: synonym, …` format. Never panics.
#![no_main]

use kgrep::thesaurus::{builtin, file, Layer};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = file::parse_markdown(&text);
    if let Ok(entries) = builtin::parse(&text) {
        let thesaurus = builtin::from_entries(&entries, Layer::Builtin);
        let words: Vec<String> = text
            .split_whitespace()
            .take(64)
            .map(str::to_string)
            .collect();
        let _ = thesaurus.find_in(&words);
    }
});
