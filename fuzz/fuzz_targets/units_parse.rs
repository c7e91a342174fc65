//! Code units on arbitrary bytes: the first byte picks the grammar, the rest
//! is the file. Never panics; every range lies inside the text, units are
//! sorted parent first and nest.
#![no_main]

use kgrep::units::{self, Lang};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, text)) = data.split_first() else {
        return;
    };
    let lang = Lang::ALL[pick as usize % Lang::ALL.len()];
    let Some(found) = units::parse(lang, text) else {
        return;
    };
    let inside = |r: &std::ops::Range<usize>| r.start <= r.end && r.end <= text.len();
    for (i, unit) in found.units.iter().enumerate() {
        assert!(inside(&unit.span) && inside(&unit.header));
        assert!(unit
            .name
            .iter()
            .chain(&unit.body)
            .chain(&unit.doc)
            .all(inside));
        if let Some(parent) = unit.parent {
            let outer = &found.units[parent].span;
            assert!(parent < i && outer.start <= unit.span.start && unit.span.end <= outer.end);
        }
    }
    assert!(found
        .calls
        .iter()
        .chain(&found.strings)
        .chain(&found.comments)
        .all(inside));
});
